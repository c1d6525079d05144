"""Shaping done once: a string is shaped once per direction, arabic-reshaper's configuration
is read once, and wrapped lines are measured from their words' widths -- with the same
shapes, widths and line breaks as shaping and measuring every line whole."""

import configparser
import unicodedata

import pytest
from hypothesis import assume, example, given, settings, strategies as st

from kitgen import fonts, layouts
from kitgen.render import columns, text

PERSIAN = "ابپتثجچحخدذرزژسشصضطظعغفقکگلمنوهیآأؤئةء"
HARAKAT = "\u064b\u064c\u064e\u064f\u0650\u0651\u0652\u0670"
LATIN = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
OTHERS = "ЖжЁёωΩ"             # letters the Arabic face lacks: drawn in the Latin face
DIGITS = "0123456789۰۱۲۳۴۵۶۷۸۹"
MARKS = ".,;:!?؛،؟-/'\"«»()[]{}<>\u2022\u00b7\u0640\u2e26\u2e27"     # ⸦⸧: mirrors of different widths in bold
CONTEXTUAL = "\u200d"           # ZWJ: the reshaper drops it by its neighbours

SAMPLES = ["کتاب\u200cخانه", "لاله", "الله", "سلام (۱۲)", "«بازی»", "Noto Sans", "می‌شود.", "آدمکش", "رهگذر",
           "مأمور", "بِسمِ", "تـــا", "x\u200d سلام", "Жω سلام"]


@pytest.fixture(scope="module", params=["label", "heading"])
def font(request):
    """A face of the default layout (the rules' body, their headings), with its Arabic
    partner, as a build sets them."""
    return fonts.register_roles(layouts.load("default"))[request.param]


def words_of(alphabet: str):
    return st.lists(st.text(alphabet, min_size=1, max_size=9), min_size=1, max_size=9)


def test_shaping_a_string_again_returns_the_shape_already_made():
    text._shape.cache_clear()
    first = text.shape("کتاب\u200cخانه ما", rtl=True)
    again = text.shape("کتاب\u200cخانه ما", rtl=True)
    assert again is first
    assert text._shape.cache_info().hits == 1 and text._shape.cache_info().misses == 1
    # the direction is part of the key: a left-to-right paragraph's line is shaped on its own
    assert text.shape("کتاب\u200cخانه ما", rtl=False) is not first


def test_splitting_into_runs_is_done_once_per_string_and_font(font):
    first = text.runs("کتاب Жω «۱۲»", font, rtl=True)
    assert text.runs("کتاب Жω «۱۲»", font, rtl=True) is first
    assert isinstance(first, tuple)                      # shared between callers, so not to be changed
    assert {name for _, name in first} == {font, fonts.partner(font)}


def test_runs_follow_a_font_registered_anew_under_the_same_name(font, monkeypatch):
    """A cached split names the registered fonts in its key: a font registered anew under
    the partner's name splits the text again."""
    from reportlab.pdfbase import pdfmetrics

    partner = fonts.partner(font)
    before = text.runs("سلام Жж", font)
    assert ("Жж", font) in before                  # the Arabic face has no Cyrillic letters

    class WithCyrillic:            # the partner, with those letters too
        face = type("Face", (), {"charToGlyph": {**pdfmetrics.getFont(partner).face.charToGlyph,
                                                 **{ord(ch): 1 for ch in OTHERS}}})()

    monkeypatch.setitem(pdfmetrics._fonts, partner, WithCyrillic())
    after = text.runs("سلام Жж", font)
    assert {name for _, name in after} == {partner}


class _Reads:
    """Counts ConfigParser reads (every SectionProxy get, getboolean and item ends here)."""

    def __init__(self, monkeypatch):
        self.count = 0
        real = configparser.RawConfigParser.get

        def get(parser, *args, **kwargs):
            self.count += 1
            return real(parser, *args, **kwargs)

        monkeypatch.setattr(configparser.RawConfigParser, "get", get)


def test_arabic_reshaper_reads_its_configuration_once(monkeypatch):
    import arabic_reshaper

    reads = _Reads(monkeypatch)
    stock = arabic_reshaper.ArabicReshaper(configuration={"delete_harakat": False})
    reads.count = 0
    stock.reshape("سلام")
    assert reads.count > 0, "the stock reshaper no longer reads its configuration per call: the counter is broken"

    text._reshaper.cache_clear()
    try:
        ours = text._reshaper()
        reads.count = 0
        shaped = [ours.reshape(s) for s in SAMPLES * 5]
        assert reads.count == 0
        # and it shapes as the library configured the same way does
        assert shaped[:len(SAMPLES)] == [stock.reshape(s) for s in SAMPLES]
    finally:
        text._reshaper.cache_clear()


def test_the_settings_answer_as_the_configuration_section_does():
    import arabic_reshaper

    section = arabic_reshaper.ArabicReshaper(configuration={"delete_harakat": False}).configuration
    settings_ = text._Settings(section)
    for key in list(section) + ["ARABIC LIGATURE ALLAH", "Delete_Harakat", "no such setting"]:
        assert settings_.get(key) == section.get(key)
        value = section.get(key)
        if value is None or value.lower() in section.parser.BOOLEAN_STATES:
            assert settings_.getboolean(key) == section.getboolean(key), key


def outcome(call, *args):
    """What a call gives: its value, or the kind of error it raises (arabic-reshaper fails on
    some ZWJ and lam-alef sequences; measuring by words must fail there too, not differ)."""
    try:
        return call(*args)
    except IndexError as error:
        return type(error)


def _contextual(words) -> bool:
    from bidi.mirror import MIRRORED

    return any(ch in CONTEXTUAL or unicodedata.mirrored(ch) or ch in MIRRORED for w in words for ch in w)


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
        assert _contextual(words), words           # only neighbours can make a word's width unknown
    else:
        assert advance * size == pytest.approx(whole, rel=1e-12, abs=1e-12)


@settings(max_examples=100, deadline=None)
@given(words=words_of(PERSIAN + "\u200c"), size=st.sampled_from([9, 11.5]))
def test_persian_words_are_always_measured_by_their_words(font, words, size):
    assert text.line_advance(words, font) is not None


@settings(max_examples=200, deadline=None)
@given(words=words_of(PERSIAN + LATIN + OTHERS + DIGITS + MARKS + "\u200c" + CONTEXTUAL),
       nudge=st.sampled_from([0.0, 1e-13, -1e-13, 1e-7, -1e-7, 0.5, -0.5]))
def test_fits_answers_as_measuring_the_line_does(font, words, nudge):
    """At the limit itself, and a hair either side, ``fits`` says what ``width <= limit`` says."""
    whole = outcome(text.width, " ".join(words), font, 9)
    assume(whole is not IndexError)
    assert text.fits(words, font, 9, whole + nudge) == (whole <= whole + nudge)


def test_a_bracket_mirrored_to_a_glyph_of_another_width_is_measured_in_its_line():
    """In a right-to-left line bidi draws ⸦ as ⸧, which the bold face makes a little wider:
    the word alone (not mirrored) would measure short, so its line is measured whole."""
    bold = fonts.register_roles(layouts.load("default"))["heading"]
    partner = fonts.partner(bold)
    from reportlab.pdfbase.pdfmetrics import stringWidth

    assert fonts.lacking(partner, "\u2e26\u2e27") == {"\u2e26", "\u2e27"}         # drawn in the bold face
    assert stringWidth("\u2e26", bold, 1) < stringWidth("\u2e27", bold, 1)
    words = ["سلام", "\u2e26"]
    assert text.line_advance(words, bold) is None
    whole = text.width(" ".join(words), bold, 100)
    assert whole > text.width("سلام", bold, 100) + text.width(" \u2e26", bold, 100)     # mirrored in the line
    assert text.fits(words, bold, 100, whole) and not text.fits(words, bold, 100, whole - 0.05)


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
    python-bidi gives, and any other text is left to python-bidi."""
    from bidi.algorithm import get_display

    assert text._display(value, base) == get_display(value, base_dir=base)


def test_the_removed_bidi_classes_are_python_bidis():
    from bidi.algorithm import X9_REMOVED

    assert text.BIDI_REMOVED == set(X9_REMOVED)


def test_no_ligature_switched_on_spans_a_space():
    """What reshaping a word at a time rests on: the reshaper's ligatures are literal runs of
    letters, none with a space."""
    pattern = text._reshaper()._ligatures_re.pattern
    assert pattern and not any(ch.isspace() for ch in pattern) and not set(pattern) & set("\\.[]{}*+?^$")


@settings(max_examples=500, deadline=None)
@given(words=st.lists(st.text(PERSIAN + HARAKAT + "\u200c\u0640" + LATIN[:4] + "«»()۱", max_size=7), max_size=8))
@example(words=["الله", "لا", ""])
@example(words=["", "\u064bلا", ""])
@example(words=["x\u200d", "سلام"])
def test_reshaping_a_word_at_a_time_is_reshaping_the_whole(words):
    line = " ".join(words)
    whole = outcome(text._reshaper().reshape, line)
    assume(whole is not IndexError)
    assert text._reshape(line) == whole


@given(chars=st.text(PERSIAN[:6] + LATIN[:6] + OTHERS + " \u200c\u200d\u732b\u2e26", max_size=12))
def test_lacking_is_has_glyph_for_each_character(font, chars):
    for name in (font, fonts.partner(font)):
        assert fonts.lacking(name, chars) == {ch for ch in chars if not fonts.has_glyph(name, ch)}
    # white space passes though the face has no glyph for it (ideographic, ogham spaces)
    from reportlab.pdfbase import pdfmetrics

    assert not {0x3000, 0x1680} & set(pdfmetrics.getFont(font).face.charToGlyph)
    assert fonts.lacking(font, "\u3000\u1680\u732b") == {"\u732b"}
    assert fonts.has_glyph(font, "\u3000") and not fonts.has_glyph(font, "\u732b")
