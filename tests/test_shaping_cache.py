"""Shaping done once: a line is shaped once per direction and font stack, and wrapped lines
are measured from their words' widths where that is exact -- with the same widths and line
breaks as shaping and measuring every line whole."""

import unicodedata

import pytest
from hypothesis import assume, example, given, settings, strategies as st

from kitgen import fonts, layouts
from kitgen.render import columns, shaping, text

PERSIAN = "ابپتثجچحخدذرزژسشصضطظعغفقکگلمنوهیآأؤئةء"
HARAKAT = "\u064b\u064c\u064e\u064f\u0650\u0651\u0652\u0670"
LATIN = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
OTHERS = "ЖжЁёωΩ"             # letters the Arabic face lacks: drawn in the Latin face
DIGITS = "0123456789۰۱۲۳۴۵۶۷۸۹"
MARKS = ".,;:!?؛،؟-/'\"«»()[]{}<>\u2022\u00b7\u0640\u2e26\u2e27"     # ⸦⸧: mirrors of different widths in bold
CONTEXTUAL = "\u200d"

@pytest.fixture(scope="module", params=["label", "heading"])
def font(request):
    """A face of the default layout (the rules' body, their headings), with its Arabic
    partner, as a build sets them."""
    return fonts.register_roles(layouts.load("default"))[request.param]


def words_of(alphabet: str):
    return st.lists(st.text(alphabet, min_size=1, max_size=9), min_size=1, max_size=9)


def test_a_line_is_shaped_once_per_string_direction_and_font(font):
    shaping._line.cache_clear()
    first = shaping.line("کتاب\u200cخانه Жω «۱۲»", font, rtl=True)
    assert shaping.line("کتاب\u200cخانه Жω «۱۲»", font, rtl=True) is first
    assert shaping._line.cache_info().hits == 1 and shaping._line.cache_info().misses == 1
    assert {piece.font for piece in first.pieces} == {font, fonts.partner(font)}
    # the direction is part of the key: a left-to-right paragraph's line is shaped on its own
    assert shaping.line("کتاب\u200cخانه Жω «۱۲»", font, rtl=False) is not first


def test_the_fallbacks_are_part_of_the_key():
    """A role font whose fallbacks are set anew (a kit in another language) shapes anew."""
    layout = layouts.load("default")
    ja = fonts.register_roles(layout, "ja", "日本")["label"]
    first = shaping.line("日本", ja)
    zh = fonts.register_roles(layout, "zh", "日本")["label"]
    assert zh == ja and shaping.line("日本", zh) is not first
    assert {p.font for p in first.pieces} != {p.font for p in shaping.line("日本", zh).pieces}


def outcome(call, *args):
    """What a call gives: its value, or the kind of error it raises (arabic-reshaper fails on
    some ZWJ and lam-alef sequences; measuring by words must fail there too, not differ)."""
    try:
        return call(*args)
    except IndexError as error:
        return type(error)


@settings(max_examples=300, deadline=None)
@given(words=words_of(PERSIAN + HARAKAT + LATIN + OTHERS + DIGITS + MARKS + "\u200c" + CONTEXTUAL),
       size=st.sampled_from([6.5, 9, 9.25, 14]))
@example(words=["الله", "لا"], size=9)
@example(words=["x\u200d", "سلام"], size=9)
@example(words=["(۱۲)", "سلام"], size=9)
def test_a_line_measured_by_its_words_is_the_line_measured_whole(font, words, size):
    whole = outcome(text.width, " ".join(words), font, size)
    assume(whole is not IndexError)
    advance = text.line_advance(words, font)
    if advance is None:
        assert any(map(shaping.needs_shaping, words)), words      # only a shaped line is measured whole
    else:
        assert advance * size == pytest.approx(whole, rel=1e-12, abs=1e-12)


@settings(max_examples=200, deadline=None)
@given(words=words_of(PERSIAN + LATIN + OTHERS + DIGITS + MARKS + "\u200c" + CONTEXTUAL),
       nudge=st.sampled_from([0.0, 1e-13, -1e-13, 1e-7, -1e-7, 0.5, -0.5]))
def test_fits_answers_as_measuring_the_line_does(font, words, nudge):
    """At the limit itself, and a hair either side, ``fits`` says what ``width <= limit`` says."""
    whole = outcome(text.width, " ".join(words), font, 9)
    assume(whole is not IndexError)
    assert text.fits(words, font, 9, whole + nudge) == (whole <= whole + nudge)


def _reference_wrap(content: str, style: columns.Style, width: float) -> list[str]:
    """Wrapping as it was: every candidate line shaped and measured whole."""
    lines, current = [], ""
    for word in content.split():
        candidate = f"{current} {word}" if current else word
        if current and text.width(candidate, style.font, style.size) > width:
            lines.append(current)
            current = word
        else:
            current = candidate
    lines += [current] if current else []
    if len(lines) > 1 and " " not in lines[-1]:
        before = lines[-2].split(" ")
        last = f"{before[-1]} {lines[-1]}"
        if len(before) > 2 and text.width(last, style.font, style.size) <= width:
            lines[-2:] = [" ".join(before[:-1]), last]
    return lines


@settings(max_examples=150, deadline=None)
@given(words=st.lists(st.text(PERSIAN + LATIN + OTHERS + DIGITS + MARKS + "\u200c" + CONTEXTUAL,
                              min_size=1, max_size=8), min_size=1, max_size=40),
       width=st.floats(20, 260), at_a_line=st.booleans())
def test_wrapping_is_unchanged(font, words, width, at_a_line):
    style = columns.Style(font, 9, 11, None)
    content = " ".join(words)
    if at_a_line:       # a width exactly that of some candidate line: the tie a sum could get wrong
        width = outcome(text.width, " ".join(words[:max(2, len(words) // 2)]), font, 9)
        assume(width is not IndexError)
    assert outcome(columns.wrap, content, style, width) == outcome(_reference_wrap, content, style, width)


@pytest.mark.parametrize("lang", ["en", "ru", "fa"])
def test_the_rules_wrap_as_before(lang):
    """Every block of the built-in rules sheets (both editions), at a few columns' widths."""
    from kitgen.games.codenames import kitfile, texts
    from kitgen.games.codenames.render import rules_sheet

    layout = layouts.load("default")
    names = fonts.register_roles(layout)
    kit = kitfile.load(kitfile.kit_path(None, None, lang), keys=4)
    blocks = [block for edition in ("words", "pictures")
              for block in rules_sheet.story(layout, names, texts.load(lang), kit.rules, edition, ("Noto Sans",))]
    assert len(blocks) > 20
    for col_w in (120.0, 180.0, 240.5, 251.27):
        for block in blocks:
            assert (columns.wrap(block.content, block.style, col_w)
                    == _reference_wrap(block.content, block.style, col_w)), block.content


BIDI_ALPHABET = (PERSIAN[:12] + "אב" + HARAKAT[:3] + "abcЖ" + "12۱۲٣" + " \t" + ".,،؛«»()[]-+%#!"
                 + "\u200c\u00ad\u200d\u200e\u200f\u202b\u202c")


@settings(max_examples=500, deadline=None)
@given(value=st.text(BIDI_ALPHABET, max_size=14) | st.text(PERSIAN[:8] + " «»()،.\u200c" + HARAKAT[:2], max_size=14),
       base=st.sampled_from(["R", "L", None]))
@example(value="«بازی»", base=None)
@example(value="(سلام) ما", base="R")
@example(value="\u200c", base=None)
@example(value="", base="L")
def test_visual_order_is_python_bidis(value, base):
    """The shortcut for right-to-left text without digits or Latin letters gives exactly what
    python-bidi gives, and any other text with a right-to-left letter or base is left to python-bidi;
    text with neither is its own visual order, its joiners kept."""
    from bidi.algorithm import get_display

    if base != "R" and not any(unicodedata.bidirectional(ch) in shaping.RTL_CLASSES for ch in value):
        assert shaping.display(value, base) == value
    elif not set(value) & (set(shaping.BRACKETS) | set(shaping.BRACKETS.values())):
        assert shaping.display(value, base) == get_display(value, base_dir=base)
    else:       # rule N0, which python-bidi leaves out: a bracket pair is one direction, both mirrored or neither
        def canonical(shown):                # each bracket as its opening one: the same characters
            closers = {close: open_ for open_, close in shaping.BRACKETS.items()}
            return sorted(closers.get(ch, ch) for ch in shown)

        shown = shaping.display(value, base)
        assert canonical(shown) == canonical(get_display(value, base_dir=base))
        depth, paired = 0, True              # one "(" ... ")" pair around the rest, in one embedding
        for ch in value:
            depth += {"(": 1, ")": -1}.get(ch, 0)
            paired = paired and depth >= 0
        embeddings = set("[]{}\u202a\u202b\u202c\u202d\u202e")
        if paired and depth == 0 and value.count("(") == 1 and not set(value) & embeddings:
            assert shown.count("(") == shown.count(")") == 1     # mirrored together, or neither


@pytest.mark.parametrize("line, base, shown", [
    ("הטקסט ב־Heebo ו־Noto Sans (SIL Open Font License 1.1).", "R",
     ".Noto Sans (SIL Open Font License 1.1)־ו Heebo־ב טסקטה"),
    ("שלום (abc) עולם", None, "םלוע (abc) םולש"),
    ("كتاب (مثال) abc", None, "abc (لاثم) باتك"),
    ("abc (שלום) def", "L", "abc (םולש) def"),
])
def test_a_bracket_pair_keeps_its_direction(line, base, shown):
    """Rule N0: a Latin phrase in brackets in a right-to-left line keeps its brackets around it."""
    assert shaping.display(line, base) == shown


@given(chars=st.text(PERSIAN[:6] + LATIN[:6] + OTHERS + " \u200c\u200d\u732b\u2e26", max_size=12))
def test_lacking_is_has_glyph_for_each_character(font, chars):
    for name in (font, fonts.partner(font)):
        assert fonts.lacking(name, chars) == {ch for ch in chars if not fonts.has_glyph(name, ch)}
    # white space passes though the face has no glyph for it (ideographic, ogham spaces)
    from reportlab.pdfbase import pdfmetrics

    assert not {0x3000, 0x1680} & set(pdfmetrics.getFont(font).face.charToGlyph)
    assert fonts.lacking(font, "\u3000\u1680\u732b") == {"\u732b"}
    assert fonts.has_glyph(font, "\u3000") and not fonts.has_glyph(font, "\u732b")
