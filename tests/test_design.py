"""Print design rules of issue 14, measured on what is drawn (docs/design.md §6.5)."""

import re

import numpy as np
import pytest
from hypothesis import given, settings, strategies as st

from kitgen import fonts
from kitgen.games.codenames import texts as codenames_texts
from kitgen.render import breaks, columns, text

BUILT_IN = codenames_texts.languages()          # every built-in language: each deck, each rules sheet

ARABIC_LETTER = re.compile("[\u0600-\u06ff\ufb50-\ufdff\ufe70-\ufeff]")
CREDITS = "متن با قلم‌های Noto Sans و Noto Sans Arabic (مجوز SIL Open Font License 1.1) چیده شده است."
DIGITS = "بازی را با 25 کارت شروع کنید و 9 مأمور را پیدا کنید؛ 1 آدمکش هم هست و 7 رهگذر."


class Recorder:
    """Just enough of a reportlab canvas to record the strings drawn, in order."""

    def __init__(self):
        self.drawn, self._code = [], []

    def setFont(self, name, size):
        self.font = name

    def setFillColor(self, colour):
        pass

    def drawString(self, x, y, string):
        self.drawn.append((round(y, 2), x, string))

    drawRightString = drawCentredString = drawString

    def showPage(self):
        pass


@pytest.fixture(scope="module")
def body_font():
    name = fonts.register("noto-sans", 400).registered_name
    fonts.set_fallbacks(name, {"Arab": ("noto-sans-arabic", 400)})
    return name


def _first_token(line: str) -> str:
    return line.split()[0]


@pytest.mark.parametrize("paragraph", [CREDITS, DIGITS])
def test_every_line_of_a_right_to_left_paragraph_reads_from_the_right(paragraph, body_font):
    """Whatever a wrapped line starts with (a Latin word, a digit), it is laid out with a
    right-to-left base: its first word stands at the right end and its full stop at the left."""
    style = columns.Style(body_font, 9, 11, None)
    starts = set()
    for width in range(60, 400, 7):
        for line in columns.wrap(paragraph, style, width):
            visual = text.shaped(line, body_font, rtl=True).actual
            first = _first_token(line)
            starts.add(first[0])
            if not ARABIC_LETTER.search(first):
                # an LTR run: its first word, and nothing Arabic to its right
                at = visual.rfind(first.rstrip(")"))
                assert at >= 0 and not ARABIC_LETTER.search(visual[at:]), (line, visual)
            if line.endswith("."):
                assert visual.startswith("."), (line, visual)
    assert {"S", "2", "1"} & starts, "the widths tried never wrapped a line to start with Latin or a digit"


def test_rules_columns_draw_rtl_lines_right_to_left(body_font, monkeypatch):
    """set_text draws each line of a right-to-left paragraph with that base direction."""
    from kitgen.layouts import load as load_layout
    from kitgen.render import shaping

    def show(c, line, size, x, y):
        c.drawString(x, y, line.actual)

    monkeypatch.setattr(shaping, "show", show)
    monkeypatch.setattr(text, "actual_text_begin", lambda c, actual: None)
    monkeypatch.setattr(text, "actual_text_end", lambda c: None)
    layout = load_layout("default")
    style = columns.Style(body_font, 9, 11, None)
    fonts_map = {layout.rules.body.font: body_font}
    differs = 0
    for page_width in (300, 360, 420, 480):
        canvas = Recorder()
        columns.set_text(canvas, (page_width, 600), layout, fonts_map, [columns.Block(CREDITS, style)], "",
                         rtl=True)
        lines: dict = {}
        for y, x, string in canvas.drawn:
            lines.setdefault(y, []).append((x, string))
        drawn = ["".join(s for _, s in sorted(parts)) for _, parts in sorted(lines.items(), reverse=True)]
        col_w = (page_width - 2 * layout.rules.margin - layout.rules.column_gap) / 2
        wanted = [text.shaped(line, body_font, rtl=True).actual for line in columns.wrap(CREDITS, style, col_w)]
        assert [d for d in drawn if d.strip()] == wanted
        differs += sum(not ARABIC_LETTER.match(line) for line in columns.wrap(CREDITS, style, col_w))
    assert differs, "no width wrapped a line that starts with a Latin word"


def test_the_persian_proof_names_its_kit(tmp_path):
    """The proof is written in English; the Persian kit's name shows in its title and in
    every page's footer, set in the Arabic face (issue 14, point 4)."""
    import subprocess
    import sys

    import pypdfium2

    from kitgen.games.codenames import kitfile

    name = kitfile.load(kitfile.builtin_path("classic-fa")).name
    done = subprocess.run([sys.executable, "-m", "kitgen", "proof", "--lang", "fa", "--out", str(tmp_path)],
                          capture_output=True, text=True)
    assert done.returncode in (0, 3), done.stderr
    document = pypdfium2.PdfDocument(tmp_path / "classic-fa-proof.pdf")
    letters = {ch for ch in name if ARABIC_LETTER.match(ch)}
    assert letters
    for index in range(len(document)):
        page = document[index].get_textpage().get_text_range()
        footer = next(line for line in page.splitlines() if line.startswith("Proof of"))
        assert letters <= set(footer), footer
    title = next(line for line in document[0].get_textpage().get_text_range().splitlines()
                 if line.startswith("Proof:"))
    assert letters <= set(title), title


# --- point 1: every script sized and centred by its own metrics ---------------------------------

def _word_fonts():
    from kitgen.games.codenames import layout as layout_mod

    layout = layout_mod.load("default")
    names = fonts.register_roles(layout)
    return layout, names


def _sizes(deck_name: str):
    from kitgen.games.codenames import decks

    layout, names = _word_fonts()
    style = layout.codename_card.word
    font = names[style.font]
    words = [text.apply_case(w, style.case) for w in decks.load(deck_name).words]
    x, y, w, h = style.box
    return [text.fit(word, font, w, h, style.size, style.min_size).size for word in words], words, font, style


def test_persian_words_are_not_shrunk_for_height():
    """No built-in word of any script is made smaller by its box's height: with unlimited
    width, each gets the full size; and Persian words print, in the median, at least 90 %
    of the English size on the same card."""
    import statistics

    medians = {}
    for deck in (f"classic-{language}" for language in BUILT_IN):
        sizes, words, font, style = _sizes(deck)
        tall = [word for word in words if text.fit(word, font, 10_000, style.box[3], style.size,
                                                    style.min_size).size < style.size]
        assert not tall, (deck, tall[:5])
        medians[deck] = statistics.median(sizes)
    assert medians["classic-fa"] >= 0.9 * medians["classic-en"], medians


def _ink_centre_offset(word: str, font: str, size: float, box, arabic: bool) -> float:
    """Draw ``word`` centred in ``box`` on a page, rasterize it at 1200 dpi, and return how far
    (mm) the centre of its ink -- for Latin capitals, of the capital height band -- lies from
    the box's centre (positive: above)."""
    import io

    import numpy as np
    from reportlab.lib.colors import black

    from kitgen.render.pdf import new_canvas

    from raster import render_page

    x, y, w, h = box
    page = (w + 20, h + 20)
    buffer = io.BytesIO()
    c = new_canvas(buffer, page, {"label": font})
    text.draw(c, word, font, size, (10, 10, w, h), black)
    c.showPage()
    c.save()
    dpi = 1200
    pixels = np.asarray(render_page(buffer.getvalue(), 0, dpi).convert("L")) < 128
    rows = np.nonzero(pixels.any(axis=1))[0]
    scale = dpi / 72
    centre_px = (page[1] - (10 + h / 2)) * scale          # the box centre, in pixel rows from the top
    if arabic:
        ink_centre = (rows[0] + rows[-1] + 1) / 2
    else:
        from reportlab.pdfbase import pdfmetrics

        face = pdfmetrics.getFont(font).face
        # the baseline is the bottom of the capitals: the last inked row of a word without tails
        baseline = rows[-1] + 1
        ink_centre = baseline - face.capHeight / 1000 * size * scale / 2
    return (ink_centre - centre_px) / scale * 25.4 / 72 * -1


@pytest.mark.parametrize("word, arabic", [(w, True) for w in ("دم", "بز", "گنجشک", "آسمان", "خورشید", "دوچرخه")]
                         + [(w, False) for w in ("HOUSE", "MOON", "ЗИМА", "ЛЕС")])
def test_words_are_centred_on_their_band(word, arabic):
    """A Persian word's ink, and Latin or Cyrillic capitals' cap height, sit in the middle of
    the word band within 0.3 mm."""
    layout, names = _word_fonts()
    style = layout.codename_card.word
    font = names[style.font]
    size = text.fit(word, font, style.box[2], style.box[3], style.size, style.min_size).size
    assert abs(_ink_centre_offset(word, font, size, style.box, arabic)) <= 0.3


# --- points 7, 9, 10, 11: safe zone, team lightness, key backs, centred blocks ------------------

SAFE_ZONE_MM = 3.0


def _build(tmp_path_factory, name, *options):
    import subprocess
    import sys

    out = tmp_path_factory.mktemp(name)
    done = subprocess.run([sys.executable, "-m", "kitgen", "build", "--keys", "2", *options, "--out", str(out)],
                          capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    return next(p for p in out.iterdir() if p.is_dir())


@pytest.fixture(scope="module")
def per_card(tmp_path_factory):
    return {"words": _build(tmp_path_factory, "words", "--per-card"),
            "pictures": _build(tmp_path_factory, "pictures", "--per-card", "--edition", "pictures")}


def _trim_pixels(pdf, index: int, dpi: float):
    """Page ``index`` of a per-card PDF (one face with its bleed) rendered and cut to the trim."""
    import numpy as np
    import pypdfium2

    from raster import render_page

    page = pypdfium2.PdfDocument(pdf)[index]
    x0, y0, x1, y1 = page.get_trimbox()
    height = page.get_height()
    image = render_page(str(pdf), index, dpi)
    s = dpi / 72
    return np.asarray(image.crop((round(x0 * s), round((height - y1) * s), round(x1 * s),
                                  round((height - y0) * s)))).astype(int)


@pytest.mark.parametrize("edition, part", [("words", "codenames"), ("words", "tiles"), ("words", "keys"),
                                           ("pictures", "codenames"), ("pictures", "tiles"), ("pictures", "keys")])
def test_nothing_shows_an_edge_within_3mm_of_the_trim(per_card, edition, part):
    """Codename cards, picture cards, tiles and key fronts: nothing in the 3 mm inside the trim
    runs along it (each strip is one colour from the trim inwards), so a cut 1 mm off leaves no
    uneven border. (A key's back is striped all over, to the bleed: a texture with no edge.)"""
    dpi = 150
    pdf = per_card[edition] / f"{part}-cards.pdf"
    import pypdfium2

    pages = len(pypdfium2.PdfDocument(pdf))

    band = round(SAFE_ZONE_MM / 25.4 * dpi) - 1       # a pixel short of 3 mm: the pixel at 3 mm may be shared
    faces = sorted({0, 1, pages // 2, pages - 2, pages - 1})
    if part == "keys":
        faces = list(range(0, pages, 2))                # fronts
    for index in faces:
        pixels = _trim_pixels(pdf, index, dpi)
        # each strip, from the trim inwards: one colour at every point along the edge (a colour
        # block meeting the edge square on, like the pictures key's lights, is no edge to cut by)
        for strip in (pixels[:band], pixels[-band:][::-1], pixels[:, :band].transpose(1, 0, 2),
                      pixels[:, -band:][:, ::-1].transpose(1, 0, 2)):
            spread = (strip.max(axis=0) - strip.min(axis=0)).max()
            assert spread <= 8, f"{pdf.name} page {index + 1}: something shows within 3 mm of the trim ({spread})"


def _lightness(rgb) -> float:
    """CIE L* of an sRGB colour (components 0 to 1)."""
    linear = [c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4 for c in rgb]
    y = 0.2126 * linear[0] + 0.7152 * linear[1] + 0.0722 * linear[2]
    return 116 * y ** (1 / 3) - 16 if y > 0.008856 else 903.3 * y


def _cmyk_lightness(c, m, y, k) -> float:
    """L* of a CMYK colour by the plain conversion (no profile: a home printer's idea of it)."""
    return _lightness([(1 - v) * (1 - k) for v in (c, m, y)])


@pytest.mark.parametrize("layout_name", ["default", "ink-saver"])
def test_red_and_blue_differ_in_lightness_by_20(layout_name):
    """On a black-and-white print the teams still separate at a glance: their colours (on
    ink saver, the symbols' colours, which carry the teams) differ by 20 L* or more, in RGB
    and in CMYK."""
    from kitgen.games.codenames import layout as layout_mod
    from kitgen.games.codenames.render import cell_symbols

    overlays = ["ink-saver"] if layout_name == "ink-saver" else []
    layout = layout_mod.load("default", overlays)
    index = 1 if layout_name == "ink-saver" else 0          # fill, or symbol colour
    red, blue = (cell_symbols.type_colours(layout, kind)[index] for kind in ("R", "B"))
    assert abs(_lightness(red.rgb()) - _lightness(blue.rgb())) >= 20
    name = {"R": layout.types.red, "B": layout.types.blue}
    key = "symbol_colour" if index else "colour"
    cmyk = [layout.colours[name[k][key]].cmyk for k in "RB"]
    assert abs(_cmyk_lightness(*cmyk[0]) - _cmyk_lightness(*cmyk[1])) >= 20


def test_key_backs_are_light(per_card):
    """The back of a key card puts little dark ink on the page: under 10 % of it darker
    than L* 50 (it was 100 %), and every back is the same."""
    pdf = per_card["words"] / "keys-cards.pdf"
    backs = [_trim_pixels(pdf, index, 100) for index in (1, 3)]
    assert np.array_equal(backs[0], backs[1])
    luma = backs[0] @ np.array([0.299, 0.587, 0.114])
    assert (luma < 119).mean() < 0.10                   # sRGB grey 119 is L* 50


def test_a_last_sheet_is_centred_on_the_page(per_card):
    """The pictures tile sheet (20 tiles on a sheet for 25) and every part's last sheet have
    their block of cards centred on the page, not hung from the top."""
    from raster import render_page

    for pdf, index in ((per_card["pictures"] / "tiles.pdf", 0), (per_card["words"] / "codenames.pdf", 24)):
        image = np.asarray(render_page(str(pdf), index, 40).convert("L")) < 250
        rows = np.nonzero(image.any(axis=1))[0]
        top, bottom = rows[0], image.shape[0] - 1 - rows[-1]
        assert abs(top - bottom) <= 2, (pdf.name, index, top, bottom)


def test_a_tile_centres_its_symbol_and_label():
    """A tile's symbol and label make one block whose middle is the tile's middle."""
    from kitgen.games.codenames import layout as layout_mod

    tile = layout_mod.load("default").tile
    low = min(tile.symbol.box[1], tile.label.box[1])
    high = max(tile.symbol.box[1] + tile.symbol.box[3], tile.label.box[1] + tile.label.box[3])
    assert abs((low + high) / 2 - tile.size[1] / 2) < 0.05 * 72 / 25.4


# --- point 3: a Persian reader's digits ------------------------------------------------------------

def test_persian_labels_use_persian_digits(tmp_path_factory):
    """Key numbers and the labels numbers are filled into print in ۰-۹ in a Persian kit; the
    QR payload stays ASCII (and an English kit keeps 0-9)."""
    import json
    import subprocess
    import sys

    import pypdfium2

    for language, first in (("fa", "۱/۲"), ("en", "1/2")):
        kit = _build(tmp_path_factory, f"digits-{language}", "--lang", language)
        page = pypdfium2.PdfDocument(kit / "keys.pdf")[0].get_textpage().get_text_range()
        assert first in page or first[::-1] in page, page
        if language == "fa":
            assert "1/2" not in page
            payload = json.loads((kit / "manifest.json").read_text())["keys"][0]["payload"]
            assert payload.isascii()
    out = tmp_path_factory.mktemp("games-fa")
    done = subprocess.run([sys.executable, "-m", "kitgen", "game", "--lang", "fa", "--count", "2", "--format",
                           "markdown", "--seed", "t14", "--out", str(out)], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    board = next(out.rglob("*.md")).read_text("utf-8")
    assert "بازی ۱ از ۲" in board and "بازی 1 از 2" not in board


# --- points 6 and 13: rules on one sheet at a readable size, no widows, orphans or lone words -------


@pytest.mark.parametrize("language", BUILT_IN)
@pytest.mark.parametrize("edition", ["words", "pictures"])
def test_rules_fit_one_a4_sheet_at_9pt_or_more(tmp_path_factory, language, edition):
    """Every built-in language's rules fit one A4 page, the body at 9 pt or more (credits
    are small print)."""
    from pdfread import Pdf, interpret

    kit = _build(tmp_path_factory, f"rules-{language}-{edition}", "--lang", language, "--edition", edition)
    pdf = Pdf((kit / "rules.pdf").read_bytes())
    assert len(pdf.pages()) == 1
    from kitgen.games.codenames import layout as layout_mod

    rules = layout_mod.load("default").rules
    assert rules.body.size >= 9
    sizes = [s.size for s in interpret(pdf, pdf.pages()[0])[0]]
    small = {round(rules.credits.size, 2), round(rules.footer.size, 2)}
    assert min(size for size in sizes if round(size, 2) not in small) >= 9


def test_rules_of_two_pages_are_balanced(tmp_path_factory):
    """Russian rules on Letter need two pages: their four columns are filled evenly, so the
    second page is laid out on purpose, not a sentence and the credits."""
    from raster import render_page

    kit = _build(tmp_path_factory, "rules-ru-letter", "--lang", "ru", "--paper", "letter")
    fills = []
    for index in (0, 1):
        ink = np.asarray(render_page(str(kit / "rules.pdf"), index, 30).convert("L")) < 160
        half = ink.shape[1] // 2
        body = ink[:-round(0.6 * 30)]                    # above the footer
        for side in (body[:, :half], body[:, half:]):
            rows = np.nonzero(side.any(axis=1))[0]
            fills.append(rows[-1] - rows[0])
    assert min(fills) >= 0.8 * max(fills), fills


def _lines(blocks, room):
    from kitgen.render.columns import Block, Style, place

    lines = []
    for kind, count in blocks:
        style = Style("f", 9, 11, None, space_before=5 if kind == "heading" else 0, space_after=2.5)
        block = Block(kind, style, keep_with_next=kind == "heading")
        lines += [(block, f"{kind} {i}", i == 0, i == count - 1) for i in range(count)]
    return lines, place(lines, room)


# Text as a rules sheet has it: each paragraph after up to two headings in a row (a title and a
# heading). A longer run of headings than a column holds could not keep with what follows anyway.
_paragraphs = st.lists(st.tuples(st.integers(0, 2), st.integers(1, 7)), min_size=1, max_size=20).map(
    lambda items: [block for headings, body in items for block in [("heading", 1)] * headings + [("body", body)]])


@settings(max_examples=200, deadline=None)
@given(_paragraphs, st.integers(12, 40))
def test_no_orphan_widow_or_stranded_heading(blocks, room_lines):
    """Whatever the paragraphs and the column height: a paragraph's first line never stands
    alone at a column's foot, its last line never alone at a column's head, and a heading is
    never the last line of a column."""
    lines, placed = _lines(blocks, room_lines * 11 + 3)
    for index, ((block, _, first, last), (column, _)) in enumerate(zip(lines, placed)):
        nxt = placed[index + 1][0] if index + 1 < len(placed) else None
        if block.keep_with_next and nxt is not None:
            assert nxt == column, "a heading ends a column"
        if first and not last:
            assert nxt == column, "an orphan: a first line alone at a column's foot"
        if last and not first:
            before = placed[index - 1][0]
            run_start = index
            while not lines[run_start][2]:
                run_start -= 1
            if index - run_start >= 2:
                assert before == column or placed[index - 2][0] == column, "a widow"
            else:
                assert before == column, "a widow"


@pytest.mark.parametrize("language", BUILT_IN)
def test_no_paragraph_ends_on_a_lone_word(language):
    """Wrapped at the rules column's width, a paragraph of more than one line ends with at
    least two words wherever the line before can give one up."""
    from kitgen.games.codenames import layout as layout_mod, texts
    from kitgen.games.codenames.model import RuleSwitches
    from kitgen.games.codenames.render import rules_sheet

    layout = layout_mod.load("default")
    names = fonts.register_roles(layout)
    rules = layout.rules
    col_w = (595.276 - 2 * rules.margin - rules.column_gap) / 2
    for edition in ("words", "pictures"):
        for block in rules_sheet.story(layout, names, texts.load(language), RuleSwitches(), edition):
            lines = columns.wrap(block.content, block.style, col_w - block.style.indent)
            if any(len(breaks.pieces(w)) > 1 for w in block.content.split()):
                # text that breaks inside its words (Chinese, Japanese, Thai): no lone piece either
                pieces = [p for w in lines[-2:] for p in [breaks.pieces(x) for x in w.split()]]
                if len(lines) > 1 and len([q for p in pieces[:-1] for q in p]) > 2:
                    assert len(breaks.pieces(lines[-1].replace(" ", ""))) >= 2 or " " in lines[-1] or \
                        text.width(breaks.pieces(lines[-2].replace(" ", ""))[-1] + lines[-1], block.style.font,
                                   block.style.size) > col_w - block.style.indent, (language, lines[-2:])
                continue
            if len(lines) > 1 and len(lines[-2].split()) > 2:
                last = f"{lines[-2].split()[-1]} {lines[-1]}"
                if text.width(last, block.style.font, block.style.size) <= col_w - block.style.indent:
                    assert len(lines[-1].split()) >= 2, (language, lines[-2:])


# --- point 8: the key card's composition ---------------------------------------------------------

@pytest.mark.parametrize("layout_name", ["default", "pictures"])
def test_key_card_grid_is_centred_and_as_large_as_the_panel_allows(layout_name):
    """The grid stands as far from the panel's sides as from its top, is centred on the card,
    and its cells are at least 45 mm² (they were 40 mm² and 50 mm²: the pictures key's grid was
    narrower than its panel)."""
    from kitgen.games.codenames import layout as layout_mod
    from kitgen.games.codenames.editions import PICTURES, WORDS
    from kitgen.games.codenames.render.key_cards import cell_boxes

    layout = layout_mod.load(layout_name)
    card = layout.key_card
    width, height = card.size
    inset = card.panel.inset
    gx, gy, gw, gh = card.grid.box
    left, right, top = gx - inset, width - inset - (gx + gw), height - inset - (gy + gh)
    assert abs(left - right) < 0.01 and abs(left - top) < 0.01, (left, right, top)
    edition = PICTURES if layout_name == "pictures" else WORDS
    _, _, w, h = cell_boxes(layout, edition.rows, edition.cols)[0]
    assert w * h >= 45 * (72 / 25.4) ** 2


def test_key_card_band_lines_up(per_card):
    """Under the grid, one band: the starting team's mark on the grid's left edge, the QR on its
    right edge; the mark's top, the number's capitals and the QR's top on one line, the kit id
    on the QR's foot (measured on the rendered card, within 0.2 mm); the QR with its quiet zone
    at least 10 mm."""
    from kitgen.games.codenames import layout as layout_mod

    card = layout_mod.load("default").key_card
    gx, gy, gw, gh = card.grid.box
    sx, sy, sw, sh = card.start.box
    qx, qy, qs, _ = card.qr.box
    assert abs(sx - gx) < 0.01 and abs(qx + qs - (gx + gw)) < 0.01
    assert abs(sy + sh - (qy + qs)) < 0.01
    assert qs + 2 * min(qy - card.panel.inset, gy - qy - qs) >= 10 * 72 / 25.4
    dpi = 600
    pixels = _trim_pixels(per_card["words"] / "keys-cards.pdf", 0, dpi)
    dark = (pixels @ np.array([0.299, 0.587, 0.114])) < 128
    s = dpi / 72
    height = card.size[1]

    def ink_rows(x0, x1):           # the inked rows (top, bottom, in points from the card's top) of a strip
        rows = np.nonzero(dark[:, round(x0 * s):round(x1 * s)].any(axis=1))[0]
        return rows[0] / s, (rows[-1] + 1) / s

    band_top = height - (qy + qs) - 0.5                 # from just above the band down to the panel
    number_x0, number_x1 = card.number.box[0], card.number.box[0] + card.number.box[2]
    band = dark[round(band_top * s):, :]
    dark = np.zeros_like(dark)
    dark[round(band_top * s):, :] = band
    number_top, _ = ink_rows(number_x0, number_x1)
    qr_top, qr_bottom = ink_rows(qx + 1, qx + qs - 1)
    assert abs(number_top - qr_top) <= 0.2 * 72 / 25.4, (number_top, qr_top)
    assert abs(qr_top - (height - qy - qs)) <= 0.2 * 72 / 25.4
    kit_rows = np.nonzero(band[:, round(number_x0 * s):round(number_x1 * s)].any(axis=1))[0]
    assert abs((kit_rows[-1] + 1) / s + band_top - qr_bottom) <= 0.2 * 72 / 25.4


def test_the_orientation_mark_follows_its_frames_rounded_corner(per_card):
    """The picture card's corner triangle is rounded as the frame around it is: its very corner
    is background, a little further in it is the mark's colour."""
    from kitgen.games.codenames import layout as layout_mod

    card = layout_mod.load("pictures").picture_card
    x, y, w, h = card.mark.box
    dpi = 600
    pixels = _trim_pixels(per_card["pictures"] / "codenames-cards.pdf", 0, dpi)
    s = dpi / 72
    top = card.size[1] - (y + h)                     # the mark's top, from the card's top

    def at(u, v):                                    # a point on the card (points from the left and top)
        return pixels[round(v * s), round(u * s)]

    inset = 0.15 * 72 / 25.4
    corner = at(x + inset, top + inset)
    inside = at(x + card.mark.radius, top + inset * 2)
    background = at(card.size[0] / 2, top + inset)
    assert np.abs(corner - background).max() <= 8, (corner, background)
    assert np.abs(inside - background).max() > 40, (inside, background)
