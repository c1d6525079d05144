"""Issue 26 point 5: the deduction rules answer the questions players ask (each answer of the messages
printed in rules.pdf, in every language), and show the table ready to play and one example turn drawn,
the example's discs and cubes being what answers.at gives for its setup; two pages at most, both well
filled, nothing outside the page's margins; en and ru, A4 and Letter; kit.pdf holds the rules pages."""

import io
import math
import re
import shutil
import subprocess
import sys

import pytest
from reportlab.pdfgen import canvas

from kitgen.games.deduction import answers, build, dealing, facts, texts
from kitgen.games.deduction.render import rules_art
from kitgen.render import columns
from tests import raster

pdftotext = shutil.which("pdftotext")
needs_pdftotext = pytest.mark.skipif(pdftotext is None, reason="pdftotext (poppler-utils) is not installed")
CASES = [(lang, paper) for lang in ("en", "ru") for paper in ("a4", "letter")]


@pytest.fixture(scope="module")
def kits(tmp_path_factory):
    out = tmp_path_factory.mktemp("rules-art")
    built = {}
    for lang, paper in CASES:
        target = out / f"{lang}-{paper}"
        done = subprocess.run([sys.executable, "-m", "kitgen", "build", "--game", "deduction", "--lang", lang,
                               "--paper", paper, "--out", str(target)], cwd=out, capture_output=True, text=True)
        assert done.returncode == 0, done.stderr
        (kit,) = target.iterdir()
        built[lang, paper] = kit
    return built


def folded(path, *args) -> str:
    text = subprocess.run([pdftotext, *args, str(path), "-"], capture_output=True, text=True, check=True).stdout
    return re.sub(r"\s+", " ", text)


def fold(text: str) -> str:
    return re.sub(r"\s+", " ", text).strip()


def words_by_page(path):
    """Every word pdftotext finds, as (page, xMin, yMin, xMax, yMax, word), y down from the top,
    with each page's size."""
    html = subprocess.run([pdftotext, "-bbox", str(path), "-"], capture_output=True, text=True, check=True).stdout
    pages = []
    for page in re.findall(r'<page width="([\d.]+)" height="([\d.]+)">(.*?)</page>', html, re.S):
        width, height, body = float(page[0]), float(page[1]), page[2]
        words = [tuple(map(float, w[:4])) + (w[4],) for w in re.findall(
            r'<word xMin="([\d.]+)" yMin="([\d.]+)" xMax="([\d.]+)" yMax="([\d.]+)">(.*?)</word>', body)]
        pages.append((width, height, words))
    return pages


def prepared(lang: str, paper: str = "a4"):
    return build.prepare(build.load(language=lang, paper=paper))


# --- the questions players ask ------------------------------------------------------------------------

@needs_pdftotext
@pytest.mark.parametrize("lang, paper", CASES)
def test_every_question_and_answer_is_printed(kits, lang, paper):
    printed = folded(kits[lang, paper] / "rules.pdf")
    faq = texts.load(lang).rules.faq
    assert fold(faq.heading) in printed
    assert len(faq.questions) >= 5
    for entry in faq.questions:
        assert fold(entry.question) in printed, (lang, entry.id)
        assert fold(entry.answer) in printed, (lang, entry.id)


@pytest.mark.parametrize("lang", ["en", "ru"])
def test_the_two_questions_of_the_issue_are_answered_in_every_language(lang):
    """That a cube never says which part matched nor where, and that a wrong try ends the turn
    (no second try in it): asked and answered in each language, the same questions in the same order."""
    faq = texts.load(lang).rules.faq
    ids = [entry.id for entry in faq.questions]
    assert ids == [entry.id for entry in texts.load("en").rules.faq.questions]
    assert {"which_part", "try_again"} <= set(ids)


def test_the_answers_agree_with_the_game():
    """What the FAQ says, checked on the game as built: no two cases share a card (so another colour's
    disc rules its thing out of yours), and an investigator never gets more than three pieces, one per
    part of the case at most."""
    p = prepared("en")
    theme = p.theme
    for players in range(facts.MIN_PLAYERS, facts.MAX_PLAYERS + 1):
        for game in dealing.deal(theme.seed, theme.counts, players):
            for kind in ("suspect", "crime", "location"):
                assert len({getattr(case, kind) for case in game.cases}) == players
            for case in game.cases:
                for location in range(len(theme.city.names)):
                    answer = answers.at(theme.city, game, case, location)
                    parts = list(answer.discs) + [what for _, what in answer.cubes]
                    assert len(parts) == len(set(parts)) <= 3


# --- the drawings ---------------------------------------------------------------------------------------

def draw(fn, *args):
    buffer = io.BytesIO()
    c = canvas.Canvas(buffer)
    return fn(c, *args, 0, 0, 260, 260)


@pytest.mark.parametrize("lang", ["en", "ru"])
def test_the_example_is_what_answers_gives_for_its_setup(lang):
    p = prepared(lang)
    theme = p.theme
    ex = rules_art.example(theme, facts.DEFAULT_PLAYERS)
    assert ex.seed != theme.seed                       # never a case of the kit's own mini-games
    game = dealing.deal(ex.seed, theme.counts, ex.players)[ex.game.number - 1]
    assert game == ex.game
    case = next(case for case in game.cases if case.solver == 1)
    assert case == ex.case
    # the answer by brute force over the theme's own roads
    near = {b for a, b in theme.city.roads if a == ex.location} | {a for a, b in theme.city.roads if b == ex.location}
    discs = answers.matches(game, case, ex.location)
    cubes = [what for n in near for what in answers.matches(game, case, n)]
    assert answers.at(theme.city, game, case, ex.location) == ex.answer
    assert (len(discs), len(cubes)) == ex.answer.counts == (1, 1)       # the turn the built-in city shows
    drawn = draw(rules_art.draw_example, p.layout, p.fonts, p.messages, theme, ex)
    assert (drawn.discs, drawn.cubes, drawn.investigators) == (len(discs), len(cubes), 1)


@pytest.mark.parametrize("players", [2, 4, 5])
def test_the_table_seats_the_players_in_order_with_the_case_passed_left(players):
    p = prepared("en")
    drawn = draw(rules_art.draw_setup, p.layout, p.fonts, p.messages, p.theme, players)
    assert [seat[0] for seat in drawn.seats] == list(range(1, players + 1))
    assert drawn.arrows == [(q, facts.left_of(q, players)) for q in range(1, players + 1)]
    cx = sum(x for _, x, _ in drawn.seats) / players
    cy = sum(y for _, _, y in drawn.seats) / players
    first = drawn.seats[0]
    assert first[2] == min(y for _, _, y in drawn.seats)            # player 1 at the bottom
    turns = [math.atan2(y - 130, x - 130) for _, x, y in drawn.seats]
    steps = [(turns[k] - turns[k + 1]) % (2 * math.pi) for k in range(players - 1)]
    assert all(0 < step < math.pi + 1e-6 for step in steps), steps   # clockwise seen from above: to the left
    assert abs(cx - 130) < 130 and abs(cy - 130) < 130
    assert drawn.tiles == 2 * len(p.theme.city.names)
    assert drawn.cards == facts.EVIDENCE_FACE_UP and drawn.decks == 4
    assert drawn.investigators == players


def colour_pixels(image, rgb, tolerance: int = 12) -> int:
    r0, g0, b0 = rgb
    pixels = image.get_flattened_data() if hasattr(image, "get_flattened_data") else image.getdata()
    return sum(1 for r, g, b in pixels if abs(r - r0) <= tolerance and abs(g - g0) <= tolerance
               and abs(b - b0) <= tolerance)


def hex_rgb(layout, name):
    value = layout.colours[name].rgb
    return tuple(int(value[i:i + 2], 16) for i in (1, 3, 5))


@needs_pdftotext
@pytest.mark.parametrize("lang, paper", CASES)
def test_the_drawings_stand_under_their_titles(kits, lang, paper):
    """Below each drawing's title, in its column, the drawing's own colours: the table under the
    first, the roads and player 1's pieces under the second."""
    p = prepared(lang, paper)
    path = kits[lang, paper] / "rules.pdf"
    art = texts.load(lang).rules.art
    width = columns.column_width(p.layout, p.page_size)
    found = {}
    for number, (_, _, words) in enumerate(words_by_page(path)):
        for title, aspect, colours in ((art.setup_heading, p.layout.rules_art.setup.aspect, ("bystander",)),
                                       (art.example_heading, p.layout.rules_art.example.aspect, ("road", "player_1"))):
            first = title.split()[0]
            for x0, y0, _, y1, word in words:
                if word == first:
                    line = " ".join(w[4] for w in words if abs(w[1] - y0) < 1 and w[0] >= x0 - 1)
                    if line.startswith(title):
                        found[title] = (number, x0, y1, width, width * aspect, colours)
    assert set(found) == {art.setup_heading, art.example_heading}
    dpi = 50
    for title, (number, x0, y1, w, h, colours) in found.items():
        image = raster.render_page(str(path), number, dpi)
        s = dpi / 72
        region = image.crop((int(x0 * s), int(y1 * s), int((x0 + w) * s), int((y1 + h) * s)))
        for name in colours:
            assert colour_pixels(region, hex_rgb(p.layout, name)) > 20, (lang, paper, title, name)


@needs_pdftotext
@pytest.mark.parametrize("lang, paper", CASES)
def test_the_example_caption_is_printed(kits, lang, paper):
    p = prepared(lang, paper)
    ex = rules_art.example(p.theme, facts.DEFAULT_PLAYERS)
    printed = folded(kits[lang, paper] / "rules.pdf")
    for sentence in rules_art.caption(p.theme, p.messages, ex):
        assert fold(sentence) in printed, sentence
    assert p.theme.city.names[ex.location] in printed


# --- the pages ------------------------------------------------------------------------------------------

@needs_pdftotext
@pytest.mark.parametrize("lang, paper", CASES)
def test_at_most_two_pages_each_well_filled_nothing_outside(kits, lang, paper):
    """Balanced: on every page the text reaches at least 70 % of the way down, and the pages' text
    ends within 15 % of the page of each other; every word inside the rules margins (the footer below)."""
    p = prepared(lang, paper)
    margin = p.layout.rules.margin
    pages = words_by_page(kits[lang, paper] / "rules.pdf")
    assert 1 <= len(pages) <= 2
    bottoms = []
    for page_w, page_h, words in pages:
        footer_top = page_h - p.layout.rules.footer.y - 2 * p.layout.rules.footer.size
        body = [w for w in words if w[3] < footer_top]
        # (a word's box holds its face's ascent, which may reach a little above the leading)
        assert all(margin - 1 <= w[0] and w[2] <= page_w - margin + 1 and w[1] >= margin - 4 for w in body)
        bottoms.append(max(w[3] for w in body) / page_h)
    assert min(bottoms) >= 0.7, bottoms
    assert max(bottoms) - min(bottoms) <= 0.15, bottoms


@needs_pdftotext
def test_kit_pdf_holds_the_rules_pages(kits):
    for (lang, _), kit in kits.items():
        printed = folded(kit / "kit.pdf")
        rules = texts.load(lang).rules
        assert fold(rules.faq.questions[0].answer) in printed
        assert fold(rules.art.setup_caption) in printed


# --- figures in columns ---------------------------------------------------------------------------------

def test_a_figure_that_does_not_fit_floats_and_the_text_fills_the_column():
    style = columns.Style("Helvetica", 9, 10, None)
    tall = columns.Style("Helvetica", 9, 60, None)
    text = [columns.Block(f"line {i}", style) for i in range(8)]
    figure = columns.Block("", tall, keep_with_next=True, figure=lambda *a: None)
    caption = columns.Block("caption", style)
    after = [columns.Block(f"after {i}", style) for i in range(3)]
    blocks = text + [figure, caption] + after
    lines = [(b, b.content, True, True) for b in blocks]
    placed = columns.place(lines, 100.0)                 # 8 lines: 80 of 100; the figure (60) does not fit
    assert placed[8] == (1, 0.0) and placed[9] == (1, 60.0)          # the figure tops the next column
    assert [placed[i][0] for i in range(10, 13)] == [0, 0, 1]         # text after it fills the first
    squeezed = columns.squeezed(lines, 100.0, 2, 0.5)
    assert [b for b, *_ in squeezed][8].style.leading == 60           # a drawing is never closed up
