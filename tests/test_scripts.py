"""Every script kitgen prints (issue 28): what HarfBuzz's own command-line shaper gives is what the
PDF holds, glyph for glyph; every word comes back out of the PDF; a word mixing scripts draws
every character; a deck in each script builds with its language's labels and rules."""

import json
import shutil
import subprocess
import tempfile
from pathlib import Path

import pytest
from reportlab.pdfbase import pdfmetrics
from reportlab.pdfbase.ttfonts import TTFont

from kitgen import fonts, layouts
from kitgen.games.codenames import decks, texts
from kitgen.render import shaping, text
from kitgen.render.pdf import new_canvas

from glyphread import text_objects
from test_languages import extract

HB_SHAPE = shutil.which("hb-shape")
LANGUAGES = texts.languages()


def _registered() -> dict:
    return {f.face.name.decode() if isinstance(f.face.name, bytes) else f.face.name: f.face.filename
            for f in pdfmetrics._fonts.values() if isinstance(f, TTFont)}


def _pieces(word: str, font: str):
    """(characters, font file, script, right to left) of each piece of the word, left to right."""
    line = text.shaped(word, font)
    if line is None:
        return [(word, pdfmetrics.getFont(font).face.filename, "Latn", False)]
    return [(p.text, pdfmetrics.getFont(p.font).face.filename, p.script, p.rtl) for p in line.pieces]


def hb_shape(path: str, script: str, rtl: bool, lines: list[str]) -> list[list[dict]]:
    """hb-shape's glyphs for each line, with kitgen's options: the script, the direction, language und,
    HarfBuzz's default features."""
    with tempfile.NamedTemporaryFile("w", suffix=".txt", encoding="utf-8", delete=False) as handle:
        handle.write("\n".join(lines) + "\n")
    result = subprocess.run([HB_SHAPE, f"--direction={'rtl' if rtl else 'ltr'}", f"--script={script}",
                             "--language=und", "--output-format=json", "--no-glyph-names",
                             f"--text-file={handle.name}", path], capture_output=True, text=True, check=True)
    Path(handle.name).unlink()
    return [json.loads(line) for line in result.stdout.splitlines()]


def expected_glyphs(words, font):
    """Each word's glyphs as hb-shape gives them: (PostScript name, glyph, x, y) with x and y in
    thousandths of the size, pieces one after another."""
    wanted = {}
    for word in words:
        for piece in _pieces(word, font):
            wanted.setdefault(piece[1:], []).append(piece[0])
    shaped = {key: dict(zip(chars, hb_shape(key[0], key[1], key[2], chars))) for key, chars in wanted.items()}
    names = {path: name for name, path in _registered().items()}
    out = []
    for word in words:
        glyphs, pen = [], 0.0
        for chars, path, script, rtl in _pieces(word, font):
            units = pdfmetrics.getFont(next(n for n, f in pdfmetrics._fonts.items() if isinstance(f, TTFont)
                                            and f.face.filename == path)).face.unitsPerEm
            for g in shaped[(path, script, rtl)][chars]:
                glyphs.append((names[path], g["g"], round((pen + g["dx"]) * 1000 / units, 3),
                               round(g["dy"] * 1000 / units, 3)))
                pen += g["ax"]
        out.append(glyphs)
    return out


def _font(lang: str) -> str:
    deck = decks.load(f"classic-{lang}")
    return fonts.register_roles(layouts.load("default"), lang, texts.characters(lang, deck.words))["word"]


@pytest.mark.skipif(HB_SHAPE is None, reason="hb-shape (libharfbuzz-bin) is not installed")
@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_word_of_every_deck_is_drawn_as_hb_shape_shapes_it(tmp_path, lang):
    """Each word of the language's deck, in capitals as a card prints it, drawn by kitgen; its
    glyphs read back from the PDF (which glyph of which font file, where) are hb-shape's."""
    font = _font(lang)
    words = [text.apply_case(w, "upper", lang) for w in decks.load(f"classic-{lang}").words]
    pdf = tmp_path / "words.pdf"
    c = new_canvas(str(pdf), (600, 800), {"label": font})
    pages = [words[i:i + 60] for i in range(0, len(words), 60)]
    for page in pages:
        for row, word in enumerate(page):
            text.draw_line(c, word, font, 10, 20, 780 - 12.5 * row)
        c.showPage()
    c.save()
    wanted = expected_glyphs(words, font)
    registered = _registered()
    at = 0
    for index, page in enumerate(pages):
        read = [glyphs for glyphs in text_objects(pdf, registered, index) if glyphs]
        assert len(read) == len(page)
        for word, glyphs in zip(page, read):
            expect = wanted[at]
            at += 1
            assert len(glyphs) == len(expect), word
            for got, (name, gid, x, y) in zip(glyphs, expect):
                assert got.font == name and gid in got.gids, (word, got, gid)
                assert got.x == pytest.approx(x, abs=0.01) and got.y == pytest.approx(y, abs=0.01), (word, got)


def test_a_word_that_mixes_scripts_draws_every_character():
    layout = layouts.load("default")
    font = fonts.register_roles(layout, "ja", "東京Tokyo2026תל אביב123")["word"]
    for word in ("東京Tokyo2026", "תל אביב 123", "Ωmega東京"):
        assert text.missing_glyphs(word, font) == "", word
        line = text.shaped(word, font)
        assert len({p.font for p in line.pieces}) >= 2
    assert text.missing_glyphs("\u1230\u120b", font) == "\u120b\u1230"       # Ethiopic: no font of the layout


def test_a_cjk_font_is_cut_down_to_what_the_kit_draws():
    layout = layouts.load("default")
    font = fonts.register_roles(layout, "zh", "猫狗")["word"]
    sc = shaping.font_for("Hani", font)
    from fontTools.ttLib import TTFont as FTFont

    cut = FTFont(pdfmetrics.getFont(sc).face.filename)
    assert cut["maxp"].numGlyphs < 1000 and {ord("猫"), ord("狗")} <= set(cut.getBestCmap())
    assert "GSUB" in cut and "GPOS" in cut          # kept for HarfBuzz


SCRIPTS = ["he", "ar", "hi", "th", "ja", "ko", "zh", "el"]


@pytest.fixture(scope="module")
def thirty(tmp_path_factory):
    """A 30-word deck in each script's language (every fifteenth word of its built-in deck), each built
    with --lang of that language, as a publisher with a list of their own would."""
    import sys

    out = {}
    for lang in SCRIPTS:
        folder = tmp_path_factory.mktemp(lang)
        words = decks.load(f"classic-{lang}").words[::15][:30]
        assert len(words) == 30
        (folder / "deck.txt").write_text("\n".join(words) + "\n", encoding="utf-8")
        result = subprocess.run([sys.executable, "-m", "kitgen", "build", "--deck", "deck.txt", "--lang", lang,
                                 "--keys", "2", "--out", "o"], cwd=folder, capture_output=True, text=True)
        assert result.returncode == 0, result.stderr
        (kit,) = (folder / "o").iterdir()
        out[lang] = (words, kit)
    return out


@pytest.mark.skipif(shutil.which("pdftotext") is None, reason="pdftotext (poppler-utils) is not installed")
@pytest.mark.parametrize("lang", SCRIPTS)
def test_every_word_of_a_thirty_word_deck_comes_back_out(thirty, lang):
    """pdftotext and pdfium both give every word back, in logical order, from codenames.pdf."""
    import unicodedata

    import pypdfium2

    words, kit = thirty[lang]
    printed = {unicodedata.normalize("NFKC", text.apply_case(w, "upper", lang)) for w in words}
    poppler_words = set(" ".join(extract(kit / "codenames.pdf")).split())
    document = pypdfium2.PdfDocument(str(kit / "codenames.pdf"))
    pdfium = " ".join(page.get_textpage().get_text_range() for page in document)
    for mark in "\u202a\u202b\u202c\u202d\u202e\u200e\u200f":
        pdfium = pdfium.replace(mark, "")
    pdfium_words = set(unicodedata.normalize("NFKC", pdfium).split())
    document.close()
    assert printed - poppler_words == set()
    # pdfium reads the /ActualText of a right-to-left word alone on its line as it stands, in visual
    # order (it reorders lines of several words): such a word is found in one order or the other
    found = {w for w in printed if w in pdfium_words or (lang in ("ar", "he") and w[::-1] in pdfium_words)}
    assert printed - found == set()


@pytest.mark.parametrize("lang", SCRIPTS)
def test_a_thirty_word_decks_fonts_are_embedded(thirty, lang):
    import pikepdf

    _, kit = thirty[lang]
    for name in ("codenames.pdf", "rules.pdf", "tiles.pdf", "keys.pdf"):
        with pikepdf.open(kit / name) as pdf:
            for page in pdf.pages:
                for font in page.Resources.get("/Font", {}).values():
                    assert "/FontFile2" in font.FontDescriptor, (name, font.BaseFont)


@pytest.mark.skipif(HB_SHAPE is None, reason="hb-shape (libharfbuzz-bin) is not installed")
@pytest.mark.parametrize("lang", SCRIPTS)
def test_a_thirty_word_decks_cards_hold_hb_shapes_glyphs(thirty, lang):
    """Every word drawn on codenames.pdf (upright and turned) is, glyph for glyph and place for place,
    what hb-shape makes of one of the deck's words in the font file the kit embedded."""
    from kitgen.games.codenames import build, kitfile

    words, kit = thirty[lang]
    # the fonts the build registered: the CJK cut is made of the kit's characters
    loaded = kitfile.load(kitfile.kit_path(None, None, lang), deck=str(kit.parent.parent / "deck.txt"),
                          language=lang, keys=2)
    font = fonts.register_roles(layouts.load("default"), lang, texts.characters(lang, build.kit_words(loaded)))["word"]
    shown = [text.apply_case(w, "upper", lang) for w in words]
    expected = {tuple((n, g, x, y) for n, g, x, y in glyphs): word
                for word, glyphs in zip(shown, expected_glyphs(shown, font))}
    registered = _registered()
    import pikepdf

    with pikepdf.open(kit / "codenames.pdf") as pdf:
        pages = len(pdf.pages)
    found = set()
    for index in range(pages):
        for glyphs in text_objects(kit / "codenames.pdf", registered, index):
            if not glyphs:
                continue
            match = [word for key, word in expected.items() if len(key) == len(glyphs) and all(
                g.font == n and gid in g.gids and g.x == pytest.approx(x, abs=0.01)
                and g.y == pytest.approx(y, abs=0.01) for g, (n, gid, x, y) in zip(glyphs, key))]
            assert match, glyphs
            found.add(match[0])
    assert found == set(shown)


def test_a_language_whose_fonts_are_not_installed_says_what_to_install(tmp_path, monkeypatch):
    """Without the cjk extra, a Japanese build stops in one line that says what to install, and
    writes nothing (the fonts of the extra are a module that cannot be imported here)."""
    import sys

    code = ("import sys, kitgen.fonts as f; f.OTHER_PACKAGES['noto-sans-jp'] = ('no_such_module', 'x.ttf', 'cjk'); "
            "sys.argv = ['kitgen', 'build', '--lang', 'ja', '--keys', '2', '--out', 'o']; "
            "from kitgen.cli import main; main()")
    result = subprocess.run([sys.executable, "-c", code], cwd=tmp_path, capture_output=True, text=True)
    assert result.returncode != 0
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and "pip install 'kitgen[cjk]'" in lines[0] and "Traceback" not in result.stderr
    assert not (tmp_path / "o").exists() or not any((tmp_path / "o").rglob("*.pdf"))
