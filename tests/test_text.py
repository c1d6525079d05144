"""Words shrink to fit their box, down to the minimum size, and no further."""

import pytest

from kitgen import fonts
from kitgen.errors import KitgenError
from kitgen.games.codenames.render import codename_cards
from kitgen.render import text


@pytest.fixture(scope="module")
def bold():
    return fonts.register("noto-sans", 700).registered_name


def test_short_words_get_the_full_size_long_words_shrink(bold, default_layout):
    style = default_layout.codename_card.word
    short = text.fit("CAT", bold, style.box[2], style.box[3], style.size, style.min_size)
    long = text.fit("WATERMELONWORM", bold, style.box[2], style.box[3], style.size, style.min_size)
    assert short.size == style.size and short.fits
    assert style.min_size <= long.size < style.size and long.fits
    # the chosen size really fits the box's width
    from reportlab.pdfbase.pdfmetrics import stringWidth

    assert stringWidth("WATERMELONWORM", bold, long.size) <= style.box[2]


def test_below_the_minimum_it_does_not_fit(bold):
    fitted = text.fit("W" * 40, bold, 100, 20, 20, 9)
    assert not fitted.fits and fitted.size < 9


def test_missing_glyphs_are_reported(bold):
    assert text.fit("ABC\u732b", bold, 500, 30, 20, 5).missing == "\u732b"


def test_check_words_lists_every_word_that_does_not_fit(bold, default_layout):
    names = {"word": bold, "label": bold, "heading": bold}
    with pytest.raises(KitgenError) as info:
        codename_cards.check_words(["fine", "X" * 30, "Y" * 31, "ok"], default_layout, names, "deck.txt")
    message = str(info.value)
    assert "2 word(s)" in message and "X" * 30 in message and "Y" * 31 in message and "fine" not in message
