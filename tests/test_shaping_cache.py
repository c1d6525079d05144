"""Shaping done once: a string is shaped once per direction and arabic-reshaper's
configuration is read once, with the same shapes as before."""

import configparser

import pytest

from kitgen import fonts, layouts
from kitgen.render import text

OTHERS = "ЖжЁёωΩ"             # letters the Arabic face lacks: drawn in the Latin face

SAMPLES = ["کتاب\u200cخانه", "لاله", "الله", "سلام (۱۲)", "«بازی»", "Noto Sans", "می‌شود.", "آدمکش", "رهگذر",
           "مأمور", "بِسمِ", "تـــا", "x\u200d سلام", "Жω سلام"]


@pytest.fixture(scope="module", params=["label", "heading"])
def font(request):
    """A face of the default layout (the rules' body, their headings), with its Arabic
    partner, as a build sets them."""
    return fonts.register_roles(layouts.load("default"))[request.param]


def test_shaping_a_string_again_returns_the_shape_already_made():
    text.shape.cache_clear()
    first = text.shape("کتاب\u200cخانه ما", rtl=True)
    again = text.shape("کتاب\u200cخانه ما", rtl=True)
    assert again is first
    assert text.shape.cache_info().hits == 1 and text.shape.cache_info().misses == 1
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
