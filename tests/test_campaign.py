"""The duet edition's campaign sheet (kitgen/games/codenames/render/campaign_sheet.py) and its
messages: every mission printed with its name, turns and mistakes in its own box, an empty
tick box at its place, right to left in Persian; the campaign file checked line by line; the
same bytes every time."""

import shutil
import subprocess
import unicodedata
from collections import deque

import pytest

from kitgen import fonts as fonts_mod, layouts, messages as messages_mod
from kitgen.errors import KitgenError
from kitgen.games.codenames import layout as layout_mod, texts
from kitgen.games.codenames.render import campaign_sheet
from kitgen.layouts import Node
from kitgen.render import document

from raster import render_page

pdftotext = shutil.which("pdftotext")
needs_pdftotext = pytest.mark.skipif(pdftotext is None, reason="pdftotext (poppler-utils) is not installed")
LANGUAGES = tuple(texts.languages())          # every built-in language, the first three and those since
DPI = 150


def render(language: str, paper: str = "a4", layout=None, messages=None, campaign=None) -> tuple[bytes, object]:
    """The campaign sheet as a one-part PDF, made as a kit's parts are (document.render, FreePart)."""
    layout = layout or layout_mod.load()
    fonts = fonts_mod.register_roles(layout)
    size = layouts.page_size(layout, paper)
    messages = messages or texts.load(language)
    campaign = campaign or campaign_sheet.load_campaign()
    footer = f"Kit \u00b7 {messages.labels.campaign}"
    part = document.FreePart("campaign", messages.labels.campaign,
                             lambda c: campaign_sheet.draw(c, size, layout, fonts, messages, campaign, footer))
    data, starts = document.render([part], size, layout, fonts, "none", "Campaign", "test")
    assert starts == [1]
    return data, campaign_sheet.page_layout(layout, fonts, messages, size)


def clean(text: str) -> str:
    """Extracted text as a reader sees it: NFKC, no directional marks, white space collapsed."""
    text = unicodedata.normalize("NFKC", text)
    for mark in "\u202a\u202b\u202c\u202d\u202e\u200e\u200f":
        text = text.replace(mark, "")
    return " ".join(text.split())


def bare(text: str) -> str:
    """Extracted text without its spaces, the separators between a mission's numbers and the colon
    after a label (pdftotext puts it either side of a digit in a right-to-left line: "תורות: 9")."""
    return "".join(ch for ch in clean(text) if ch not in " \u00b7\u060c:")


def text_in(path, box, page_height: float) -> str:
    """pdftotext of what lies within ``box`` (points, from the page's bottom-left)."""
    x, y, w, h = box
    out = subprocess.run([pdftotext, "-r", "72", "-x", str(int(x)), "-y", str(int(page_height - y - h)),
                          "-W", str(int(w) + 1), "-H", str(int(h) + 1), str(path), "-"],
                         capture_output=True, text=True, check=True).stdout
    return clean(out)


@needs_pdftotext
@pytest.mark.parametrize("language", LANGUAGES)
def test_every_mission_is_printed_with_its_name_turns_and_mistakes_in_its_box(tmp_path, language):
    data, page = render(language)
    path = tmp_path / "campaign.pdf"
    path.write_bytes(data)
    layout, messages = layout_mod.load(), texts.load(language)
    height = layouts.page_size(layout, "a4")[1]
    names = {m.id: m.name for m in messages.campaign.missions}
    campaign = campaign_sheet.load_campaign()
    assert len(campaign.missions) == 13
    for mission in campaign.missions:
        shown = text_in(path, campaign_sheet.mission_box(layout, page.map, mission), height)
        numbers = campaign_sheet.numbers_line(messages, mission)
        # compared without spaces and separators: pdftotext puts a space or a comma beside a digit in a
        # right-to-left line where it likes (the line is drawn "۷ نوبت، ۰ اشتباه")
        assert bare(shown) == bare(f"{names[mission.id]} {numbers}"), (mission.id, shown)
        assert clean(names[mission.id]) in shown
        turns = messages_mod.number(messages, mission.turns)
        mistakes = messages_mod.number(messages, mission.mistakes)
        assert turns in numbers and mistakes in numbers
    whole = clean(subprocess.run([pdftotext, str(path), "-"], capture_output=True, text=True, check=True).stdout)
    tokens = whole.split()
    joined = "".join(tokens)             # Chinese, Japanese and Thai lines break inside what has no spaces
    for paragraph in (messages.campaign.title, messages.campaign.intro, messages.campaign.how):
        words = [w.strip(".,،:;!?()«»\"") for w in clean(paragraph).split()]
        missing = [w for w in words if w and not any(w in token for token in tokens) and w not in joined]
        assert not missing, missing
    if language == "fa":
        assert "۹" in whole and "9" not in whole.replace("Kit", "")


def dark(pixel) -> bool:
    return max(pixel) < 120


def paper(pixel) -> bool:
    return min(pixel) > 235


@pytest.mark.parametrize("language, tick", [("en", None), ("fa", None), ("en", "9mm")])
def test_each_tick_box_is_an_empty_square_at_its_place(tmp_path, language, tick):
    """At 150 dpi: each side of the tick box (from the layout, on the reading side of its
    mission) is a dark line along its whole length; inside and just outside, only paper.
    With another campaign.tick.size, the squares follow it."""
    layout = layout_mod.load()
    if tick:
        layout = my_layout(tmp_path, f"  tick: {{size: {tick}}}\n")
    data, page = render(language, layout=layout)
    image = render_page(data, 0, DPI)
    scale = DPI / 72
    height = layouts.page_size(layout, "a4")[1]
    rtl = language == "fa"
    for mission in campaign_sheet.load_campaign().missions:
        x, y, w, h = campaign_sheet.tick_box(layout, campaign_sheet.mission_box(layout, page.map, mission), rtl)
        assert abs(w - layout.campaign.tick.size) < 1e-6 and w == h
        left, right = round(x * scale), round((x + w) * scale)
        top, bottom = round((height - y - h) * scale), round((height - y) * scale)

        def line(points) -> bool:
            return all(any(dark(image.getpixel((px + dx, py + dy))) for dx in (-1, 0, 1) for dy in (-1, 0, 1))
                       for px, py in points)

        span = range(left + 2, right - 1)
        rise = range(top + 2, bottom - 1)
        assert line([(px, top) for px in span]) and line([(px, bottom) for px in span]), mission.id
        assert line([(left, py) for py in rise]) and line([(right, py) for py in rise]), mission.id
        inside = [(px, py) for px in range(left + 3, right - 2) for py in range(top + 3, bottom - 2)]
        assert all(paper(image.getpixel(p)) for p in inside), f"{mission.id}: the tick box is not empty"
        ring = [(px, py) for px in range(left - 6, right + 7) for py in (top - 5, bottom + 5)]
        ring += [(px, py) for py in range(top - 6, bottom + 7) for px in (left - 5, right + 5)]
        assert all(paper(image.getpixel(p)) for p in ring), f"{mission.id}: the tick box touches something"


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_sheet_is_the_same_bytes_every_time(language, monkeypatch):
    first, _ = render(language)
    monkeypatch.setenv("SOURCE_DATE_EPOCH", "1700000000")
    again, _ = render(language)
    assert first == again
    assert first.count(b"/Type /Page") - first.count(b"/Type /Pages") == 1


def test_every_road_leads_to_a_harder_mission():
    """From the start outwards, each mission has no more turns and no more mistakes than the
    one a road leads from, and fewer of one; the start is a standard game, the final is 7, 0."""
    campaign = campaign_sheet.load_campaign()
    missions = campaign.missions
    depth, todo = {0: 0}, deque([0])
    while todo:
        here = todo.popleft()
        for a, b in campaign.roads:
            for there in ((b,) if a == here else (a,) if b == here else ()):
                if there not in depth:
                    depth[there] = depth[here] + 1
                    todo.append(there)
    assert len(depth) == len(missions)
    for a, b in campaign.roads:
        easy, hard = sorted((a, b), key=depth.get)
        assert depth[easy] < depth[hard]
        assert missions[hard].turns <= missions[easy].turns and missions[hard].mistakes <= missions[easy].mistakes
        assert (missions[hard].turns, missions[hard].mistakes) != (missions[easy].turns, missions[easy].mistakes)
    assert (missions[0].turns, missions[0].mistakes) == (9, 9)
    final = max(depth, key=depth.get)
    assert (missions[final].turns, missions[final].mistakes) == (7, 0)


def test_every_language_names_the_same_missions_in_the_same_order():
    orders = {language: [m.id for m in texts.load(language).campaign.missions] for language in texts.languages()}
    assert set(orders) == set(LANGUAGES)
    assert all(order == orders["en"] for order in orders.values())
    assert 12 <= len(orders["en"]) <= 16
    for language in LANGUAGES:
        for mission in texts.load(language).campaign.missions:
            assert 0 < len(mission.name) <= 22, (language, mission.name)


DUET_SECTIONS = ("setup", "turn", "results", "time", "winning", "difficulty", "campaign")


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_duet_rules_have_every_section_and_state_the_counts(language):
    messages = texts.load(language)
    rules = messages.duet_rules
    assert tuple(s.id for s in rules.sections) == DUET_SECTIONS
    assert all(isinstance(p, str) and p for s in rules.sections for p in s.paragraphs)
    assert "variants" not in rules
    for key in ("title", "intro", "key_card_help", "tiles_help", "tokens_help"):
        assert isinstance(rules[key], str) and rules[key]

    def n(value: int) -> str:
        return messages_mod.number(messages, value)

    setup = " ".join(rules.sections[0].paragraphs)
    for count in (25, 9, 3, 13):            # the grid; per side, green agents, assassins, bystanders
        assert n(count) in setup, count
    assert n(15) in " ".join(rules.sections[4].paragraphs)          # winning: all fifteen green agents
    assert n(10) in rules.sections[5].paragraphs[0] and n(11) in rules.sections[5].paragraphs[0]
    labels = messages.labels
    for key in ("green_agent", "side_a", "side_b", "timer_tokens", "timer", "extra_timer", "legend_green", "campaign"):
        assert labels[key]
    # the letter is printed once (the word around it may hold the same letter: Hindi पक्ष क)
    side = messages_mod.label(messages, "side", side=labels.side_a)
    assert side.count(labels.side_a) - labels.side.count(labels.side_a) == 1
    assert labels.side_b in messages_mod.label(messages, "guessed_by", side=labels.side_b)


# --- refusals ---------------------------------------------------------------------------------

def _data_lines() -> str:
    """The built-in campaign without its comments and blank lines: missions on lines 2-14, roads from 16."""
    lines = (line.split("#")[0].rstrip() for line in campaign_sheet.default_path().read_text("utf-8").splitlines())
    return "".join(f"{line}\n" for line in lines if line.strip())


GOOD = _data_lines()


def my_layout(tmp_path, campaign: str):
    """The default layout with the given lines under campaign:."""
    mine = tmp_path / "mine.yaml"
    mine.write_text("extends: default\ncampaign:\n" + campaign)
    return layout_mod.load(mine)


def write(tmp_path, text: str):
    path = tmp_path / "campaign.yaml"
    path.write_text(text, encoding="utf-8")
    return path


def test_the_test_campaign_is_the_built_in_one(tmp_path):
    assert GOOD.splitlines()[14] == "roads:" and GOOD.count("{id: m") == 13
    assert campaign_sheet.load_campaign(write(tmp_path, GOOD)).missions == campaign_sheet.load_campaign().missions


@pytest.mark.parametrize("old, new, line, match", [
    ("roads:", "colour: red\nroads:", 15, "unknown key 'colour'; a campaign has missions, roads"),
    ("{id: m03, at", "{id: m03, name: Salt, at", 4, "unknown key 'name' in a mission; a mission has at, id"),
    ("{id: m03, at: [0.0, 0.72], turns: 9, ", "{id: m03, at: [0.0, 0.72], ", 4, "the mission has no turns"),
    ("at: [0.0, 0.88]", "at: [0.0, 1.2]", 3, r"at: is the mission's place on the map, \[x, y\] from 0 to 1 .*1.2"),
    ("at: [0.0, 0.88]", "at: [0.5]", 3, r"at: is the mission's place on the map"),
    ("turns: 9, mistakes: 5", "turns: -1, mistakes: 5", 4, "turns is a whole number, 0 or more; not -1"),
    ("turns: 9, mistakes: 5", "turns: 8.5, mistakes: 5", 4, "turns is a whole number, 0 or more; not 8.5"),
    ("turns: 9, mistakes: 5", "turns: 9, mistakes: true", 4, "mistakes is a whole number, 0 or more; not True"),
    ("  - [m12, m13]", "  - [m12, m99]", 28, "the road .* names 'm99', which is no mission"),
    ("  - [m12, m13]", "  - [m13, m13]", 28, "joins a mission to itself"),
    ("  - [m12, m13]", "  - [m13, m12]\n  - [m12, m13]", 29, "is there twice"),
    ("{id: m13,", "{id: m12,", 14, "the mission id 'm12' is there twice"),
    ("  - [m12, m13]\n", "", 14, "no road leads to the mission 'm13' from the first mission 'm01'"),
])
def test_a_bad_campaign_is_refused_in_one_line_naming_the_file_and_line(tmp_path, old, new, line, match):
    assert old in GOOD
    path = write(tmp_path, GOOD.replace(old, new, 1))
    with pytest.raises(KitgenError, match=match) as err:
        campaign_sheet.load_campaign(path)
    assert str(err.value).startswith(f"{path}:{line}: ")
    assert "\n" not in str(err.value)


def test_a_mission_needs_a_name_in_every_language(tmp_path):
    path = write(tmp_path, GOOD.replace("roads:", "  - {id: m14, at: [1.0, 0.0], turns: 6, mistakes: 0}\nroads:")
                 + "  - [m13, m14]\n")
    first = texts.languages()[0]             # the languages are checked in order of their code
    with pytest.raises(KitgenError, match=rf"^{path}:15: the mission 'm14' has no name in the '{first}' messages; "
                                          "add it under campaign.missions$"):
        campaign_sheet.load_campaign(path)


def test_a_name_for_a_mission_not_on_the_map_is_refused(tmp_path):
    text = GOOD.replace("  - {id: m13, at: [0.5, 0.0], turns: 7, mistakes: 0}\n", "").replace("  - [m12, m13]\n", "")
    path = write(tmp_path, text)
    first = texts.languages()[0]
    with pytest.raises(KitgenError, match=rf"{first}\.yaml: the mission 'm13' is named but is not on the campaign's "
                                          "map"):
        campaign_sheet.load_campaign(path)


def test_a_mission_name_that_fits_only_below_the_minimum_size_is_refused():
    messages = texts.load("en")
    long = [Node(id=m.id, name=("Extraordinarily Long Name " * 2 if m.id == "m05" else m.name))
            for m in messages.campaign.missions]
    changed = Node({**messages, "campaign": Node({**messages.campaign, "missions": tuple(long)})})
    with pytest.raises(KitgenError, match=r"^the campaign sheet's mission m05 name 'Extraordinarily Long Name .*"
                                          r"\(en\) does not fit its box at campaign.name.min_size \(6pt\); "
                                          r"shorten it in the messages or enlarge campaign.mission.size"):
        render("en", messages=changed)


def test_missions_that_overlap_or_a_road_under_a_mission_are_refused(tmp_path):
    overlap = campaign_sheet.load_campaign(write(tmp_path, GOOD.replace("at: [0.0, 0.88]", "at: [0.1, 0.95]")))
    with pytest.raises(KitgenError, match=r"campaign.yaml: the missions m01 and m02 overlap on the campaign map"):
        render("en", campaign=overlap)
    under = campaign_sheet.load_campaign(write(tmp_path, GOOD.replace("[m05, m06]", "[m03, m06]")))
    with pytest.raises(KitgenError, match=r"campaign.yaml: the road m03 - m06 runs under the mission m05"):
        render("en", campaign=under)


def test_a_map_too_small_for_its_missions_is_refused(tmp_path):
    with pytest.raises(KitgenError, match="leave the map less than campaign.map.min_height"):
        render("en", layout=my_layout(tmp_path, "  map: {min_height: 280mm}\n"))
    with pytest.raises(KitgenError, match="the campaign map is narrower than a mission's box and its padding"):
        render("en", layout=my_layout(tmp_path, "  mission: {size: [190mm, 17mm]}\n"))


@pytest.mark.parametrize("text, match", [
    ("  name: {size: 5pt}\n", "campaign.name: min_size is larger than size"),
    ("  tick: {size: 16mm}\n", "campaign.tick.size and campaign.mission.inset leave no room"),
    ("  text: {leading: 6pt}\n", "campaign.text.leading is less than its size"),
    ("  footer: {y: 20mm}\n", "campaign.footer must sit inside campaign.margin"),
    ("  title: {leading: 12pt}\n", "campaign.title.leading is less than its size"),
])
def test_a_campaign_layout_that_cannot_be_drawn_is_refused(tmp_path, text, match):
    with pytest.raises(KitgenError, match=match):
        my_layout(tmp_path, text)
