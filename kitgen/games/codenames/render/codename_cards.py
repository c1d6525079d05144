"""Codename cards: the word upright and, smaller, turned 180 degrees for the far side."""

from kitgen import fonts as fonts_mod
from kitgen.errors import KitgenError
from kitgen.games.codenames import checks
from kitgen.games.codenames.model import CodenameCard
from kitgen.render import forms, paint, text
from kitgen.render.cards import CardSet, card_spec


class _listed(list):
    """A list of words for a one-line message: the first 40 in full, then how many more."""

    def __str__(self):
        return ", ".join(self[:40]) + (f", and {len(self) - 40} more" if len(self) > 40 else "")


def check_words(words, layout, fonts: dict[str, str], source: str):
    """Every word must fit both its boxes at or above the minimum size, with
    glyphs the font has. Lists every word that does not, in one error."""
    report = checks.word_fits(words, layout, fonts)
    missing = _listed([f"{r.word} ({r.missing})" for r in report if r.missing])
    too_long = _listed([r.word for r in report if not r.fits and not r.missing])
    if missing:
        raise KitgenError(f"the font has no glyph for some characters of {len(missing)} word(s): "
                          f"{missing}; choose a font that covers the deck's language", source=source)
    if too_long:
        raise KitgenError(f"{len(too_long)} word(s) do not fit a card even at the minimum size: "
                          f"{too_long}; shorten them or use a layout with a smaller min_size", source=source)


def card_set(cards: tuple[CodenameCard, ...], layout, fonts: dict[str, str], title: str) -> CardSet:
    """Every face is the same card with its own word: the card (background, frame, divider, word
    bar) is a Form XObject drawn once per PDF (docs/design.md §8.10), the words drawn on it."""
    card = layout.codename_card
    width, height = card.size
    ink = {name: paint.colour(layout, name) for name in layout.colours}      # once, not per face
    frame, divider, bar = card.frame, card.divider, card.word_bar
    b = card.bleed
    blank = forms.name("codename card", repr(card), repr(ink))

    def art(c):
        if card.background != "paper" or b:         # white on white paper is no ink and no work
            paint.fill_box(c, (-b, -b, width + 2 * b, height + 2 * b), ink[card.background])
        inset = frame.inset
        paint.stroke_box(c, (inset, inset, width - 2 * inset, height - 2 * inset), ink[frame.colour],
                         frame.width, frame.radius)
        c.setLineWidth(divider.width)
        c.setStrokeColor(ink[divider.colour])
        c.line(divider.inset, divider.y, width - divider.inset, divider.y)
        paint.fill_box(c, bar.box, ink[bar.colour], bar.radius)

    def face(c, word: str | None):
        forms.place(c, blank, (-b, -b, width + b, height + b), art)
        if word is None:
            return
        for style, flipped in ((card.word, False), (card.word_flipped, True)):
            font = fonts[style.font]
            shown = text.apply_case(word, style.case, fonts_mod.language(font))
            size = text.fit(shown, font, style.box[2], style.box[3], style.size, style.min_size).size
            text.draw(c, shown, font, size, style.box, ink[style.colour], rotate180=flipped)

    return CardSet("codenames", title, card_spec(card), len(cards),
                   front=lambda c, i: face(c, cards[i].front),
                   back=lambda c, i: face(c, cards[i].back))
