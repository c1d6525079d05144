"""What README promises of layouts: every size, colour, margin and font of what kitgen
draws is data in layouts/. Here the pages that once had sizes in code -- game sheets,
the calibration sheet, the proof, the rules sheet, --slug marks, SVG pictures -- are
drawn with a layout that changes a value, and the drawing is seen to follow it."""

import dataclasses
import io
import re

import pytest

from kitgen import fonts, layouts, pictures
from kitgen.games.codenames import build, editions, kitfile, picture_decks, proof, single_games, texts
from kitgen.games.codenames.render import game_sheets
from kitgen.render import calibration, document, pictures as picture_drawing
from kitgen.render.cards import card_spec
from kitgen.render.pdf import new_canvas
from kitgen.units import mm

from raster import render_page
from test_print import content_streams

DPI = 72           # one pixel a point


def layout_with(tmp_path, text: str):
    path = tmp_path / "mine.yaml"
    path.write_text("extends: default\n" + text)
    return path


def left_ink(image, threshold=200) -> int:
    """The leftmost column of the page with anything dark on it."""
    grey = image.convert("L").point(lambda v: 255 if v < threshold else 0)
    return grey.getbbox()[0]


def fonts_for(layout):
    return fonts.register_roles(layout)


@pytest.mark.parametrize("margin", [12, 30])
def test_game_boards_take_their_margin_from_the_layout(tmp_path, margin):
    layout = layouts.load(layout_with(tmp_path, f"game_sheet:\n  margin: {margin}mm\n"))
    games = single_games.deal("s", [f"WORD{i}" for i in range(40)], editions.WORDS, 1)
    data = game_sheets.render(games, editions.WORDS, layout, fonts_for(layout), texts.load("en"),
                             (mm(297), mm(210)), "t")
    assert abs(left_ink(render_page(data, 0, DPI)) - mm(margin)) <= 1.5      # the first column's frame


@pytest.mark.parametrize("arm", [40, 20])
def test_the_calibration_cross_follows_the_layout(tmp_path, arm):
    layout = layouts.load(layout_with(tmp_path, f"calibration:\n  cross: {{arm: {arm}mm}}\n"))
    data = calibration.render((mm(210), mm(297)), layout, fonts_for(layout), texts.load("en"), "long")
    front = render_page(data, 0, DPI)
    row = front.crop((0, round(mm(148.5)) - 1, front.width, round(mm(148.5)) + 1))
    assert abs(left_ink(row) - (mm(105) - mm(arm))) <= 1.5


@pytest.mark.parametrize("margin", [12, 25])
def test_the_rules_sheet_takes_its_margin_from_the_layout(tmp_path, margin):
    kit = kitfile.load(keys=2)
    kit = dataclasses.replace(kit, layout_name=str(layout_with(tmp_path, f"rules:\n  margin: {margin}mm\n")))
    files, _ = build.build_files(kit)
    rules = next(f for f in files if f.name == "rules.pdf")
    assert abs(left_ink(render_page(rules.data, 0, DPI)) - mm(margin)) <= 1.5


@pytest.mark.parametrize("margin", [15, 30])
def test_the_proof_takes_its_margin_from_the_layout(tmp_path, margin):
    kit = kitfile.load(keys=2)
    kit = dataclasses.replace(kit, layout_name=str(layout_with(tmp_path, f"proof:\n  margin: {margin}mm\n")))
    data = proof.render(proof.examine(kit))
    assert abs(left_ink(render_page(data, 0, DPI)) - mm(margin)) <= 1.5


def test_registration_marks_take_their_size_from_the_layout(tmp_path):
    dpi = 300
    for radius in (1.8, 3):
        kit = kitfile.load(keys=12, print_options={"slug": True})
        kit = dataclasses.replace(kit, layout_name=str(layout_with(tmp_path, f"marks:\n  registration: {radius}mm\n")))
        files, manifest = build.build_files(kit)
        page = render_page(next(f for f in files if f.name == "keys.pdf").data, 0, dpi).convert("L")
        # the mark above the block of cards, over the middle of its top-left card
        cards = [k["card"] for k in manifest["keys"] if k["page"] == 1]
        first = max(cards, key=lambda r: (r[1], -r[0]))
        x = (first[0] + first[2]) / 2 * dpi / 72
        y = (manifest["files"][0]["page_size"][1] - max(r[3] for r in cards) - mm(3) - 2 * mm(radius)) * dpi / 72
        column = [min(page.getpixel((round(x) + d, row)) for d in (-2, -1, 0, 1, 2)) < 160
                  for row in range(page.height)]
        top = bottom = round(y)
        while column[top - 1]:
            top -= 1
        while column[bottom + 1]:
            bottom += 1
        # the vertical arm of the cross reaches 1.4 radii either side of the centre
        assert (bottom - top + 1) == pytest.approx(2.8 * mm(radius) * dpi / 72, abs=3)


def icon_fills(layout) -> set[bytes]:
    """The fill operators used to draw a built-in (Phosphor, currentColor) icon with this layout."""
    icon = picture_decks.load("pictures-en").pictures[0]
    assert icon.vector and b"currentColor" in icon.data
    buffer = io.BytesIO()
    c = new_canvas(buffer, (200, 200), fonts_for(layout), cmyk=layout.colour_mode == "cmyk")
    picture_drawing.draw(c, icon, (10, 10, 180, 180), "contain", fonts_for(layout)["label"], layout,
                         layout.picture_card.picture.colour)
    c.showPage()
    c.save()
    ops = set()
    for stream in content_streams(buffer.getvalue()):
        for line in stream.splitlines():
            if line.endswith((b" rg", b" k")):
                ops.add(line.strip())
    return ops


def test_svg_current_colour_is_the_layouts_picture_colour_in_rgb_and_cmyk(tmp_path):
    # the icon's currentColor is the layout's ink, pure K in CMYK (not a conversion of an RGB grey)
    assert icon_fills(layouts.load("default", ("cmyk",))) == {b"0 0 0 1 k"}
    # the SVG's parse is shared: an RGB drawing after a CMYK one is RGB again (black: the renderer's start)
    assert icon_fills(layouts.load("default")) == {b"0 0 0 rg", b".101961 .101961 .101961 rg"}
    red = layout_with(tmp_path, "picture_card:\n  picture: {colour: red}\n")
    assert b".878431 .32549 .239216 rg" in icon_fills(layouts.load(red))
    assert b"0 .75 .75 0 k" in icon_fills(layouts.load(red, ("cmyk",)))


def test_base_layout_says_how_many_codename_cards_a_sheet_holds(default_layout):
    base = (layouts.builtin_dir() / "base.yaml").read_text()
    spec = card_spec(default_layout.codename_card)
    a4 = document.sheet_grid(default_layout, spec, default_layout.paper.sizes.a4)
    letter = document.sheet_grid(default_layout, spec, default_layout.paper.sizes.letter)
    assert (a4.per_sheet, a4.rotated, letter.per_sheet, letter.rotated) == (16, True, 18, False)
    assert "16 to a sheet on A4 (turned), 18 on Letter (upright)" in base


def test_game_and_calibrate_take_a_layout_on_the_command_line(tmp_path):
    import subprocess
    import sys

    layout_with(tmp_path, "game_sheet:\n  margin: 30mm\ncalibration:\n  cross: {arm: 20mm}\n")
    for args in (["game", "--layout", "mine.yaml", "--out", "o"], ["calibrate", "--layout", "mine.yaml", "--out", "o"]):
        result = subprocess.run([sys.executable, "-m", "kitgen", *args], cwd=tmp_path, capture_output=True, text=True)
        assert result.returncode == 0, result.stderr
    board = render_page(next((tmp_path / "o").glob("games-*/games.pdf")).read_bytes(), 0, DPI)
    assert abs(left_ink(board) - mm(30)) <= 1.5
    front = render_page((tmp_path / "o" / "calibration.pdf").read_bytes(), 0, DPI)
    row = front.crop((0, round(mm(148.5)) - 1, front.width, round(mm(148.5)) + 1))
    assert abs(left_ink(row) - (mm(105) - mm(20))) <= 1.5


def svg_fills(svg: str, layout) -> list:
    """The fill colours of an SVG's shapes, in order, as drawing prepares them for ``layout``."""
    picture = pictures.read_picture("p.svg", svg.encode(), True)
    drawing = picture_drawing._drawing(picture, fonts_for(layout)["label"], layout, layout.picture_card.picture.colour)
    fills = []

    def walk(node):
        if getattr(node, "fillColor", None) is not None:
            fills.append(node.fillColor)
        for child in getattr(node, "contents", ()):
            walk(child)

    walk(drawing)
    return fills


def test_an_svgs_own_colours_are_never_taken_for_its_current_colour(tmp_path):
    """currentColor is parsed as a stand-in colour; an SVG that itself uses that colour gets another one."""
    from kitgen.pictures import STAND_INS

    svg = ('<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10">'
           f'<rect width="5" height="5" fill="{STAND_INS[0]}"/><rect x="5" width="5" height="5" fill="currentColor"/>'
           '<rect y="5" width="5" height="5" fill="currentColor" fill-opacity="0.25"/></svg>')
    red = layouts.load(layout_with(tmp_path, "picture_card:\n  picture: {colour: red}\n"))
    own, current, faint = svg_fills(svg, red)
    assert own.hexval() == "0x" + STAND_INS[0][1:].lower()          # its own colour, kept
    assert current.hexval() == "0xe0533d" and current.alpha == 1     # the layout's red
    assert faint.hexval() == "0xe0533d" and faint.alpha == pytest.approx(0.25)   # its opacity kept


@pytest.mark.parametrize("text, message", [
    ("rules:\n  max_pages: .nan\n", "rules.max_pages must be a number"),
    ("proof:\n  line_spacing: .inf\n", "proof.line_spacing must be a number"),
    ("key_card:\n  number: {align: middle}\n", "key_card.number.align must be one of top, centre, bottom"),
    ("rules:\n  title: {size: 40pt}\n", "rules.title.leading (22pt) is less than its size (40pt)"),
    ("rules:\n  legend_symbol: 8mm\n", "rules.legend.indent is less than rules.legend_symbol"),
    ("proof:\n  margin: 150mm\n", "proof.margin leaves no room for the proof on the paper"),
    ("calibration:\n  ruler: {step: 20mm}\n", "calibration.ruler.step must not be larger than its span"),
])
def test_layout_values_that_would_draw_nonsense_are_refused(tmp_path, text, message):
    from kitgen.errors import KitgenError

    with pytest.raises(KitgenError, match=re.escape(message)):
        layouts.load(layout_with(tmp_path, text))


def test_a_proof_on_paper_too_small_for_a_word_box_stops_instead_of_paging_forever(tmp_path):
    """It used to start new pages without end (and memory without bound)."""
    from kitgen.errors import KitgenError

    (tmp_path / "kit.yaml").write_text("id: tiny\ndeck: classic-en\npaper: 90x45mm\nkeys: 2\n")
    with pytest.raises(KitgenError, match="leaves no room for a word box of the proof"):
        proof.render(proof.examine(kitfile.load(tmp_path / "kit.yaml")))
