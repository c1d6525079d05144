"""Picture cards: one picture a face, kept to its aspect ratio (vector pictures
stay vector), with an orientation mark in the top-left corner."""

from kitgen.games.codenames.model import CodenameCard
from kitgen.render import paint, pictures, text
from kitgen.render.cards import CardSet, card_spec


def orientation_mark(c, box, fill, radius: float = 0.0):
    """A right triangle filling the top-left corner of ``box``, that corner rounded to
    ``radius`` (so that it follows a rounded frame around it)."""
    x, y, w, h = box
    path = c.beginPath()
    path.moveTo(x, y)
    if radius:
        path.arcTo(x, y + h - 2 * radius, x + 2 * radius, y + h, 180, -90)
    else:
        path.lineTo(x, y + h)
    path.lineTo(x + w, y + h)
    path.close()
    c.setFillColor(fill)
    c.drawPath(path, stroke=0, fill=1)


def card_set(cards: tuple[CodenameCard, ...], layout, fonts: dict[str, str], title: str) -> CardSet:
    card = layout.picture_card
    width, height = card.size
    bleed = card.bleed

    def face(c, picture):
        paint.fill_box(c, (-bleed, -bleed, width + 2 * bleed, height + 2 * bleed),
                       paint.colour(layout, card.background))
        frame = card.frame
        paint.stroke_box(c, (frame.inset, frame.inset, width - 2 * frame.inset, height - 2 * frame.inset),
                         paint.colour(layout, frame.colour), frame.width, frame.radius)
        orientation_mark(c, card.mark.box, paint.colour(layout, card.mark.colour), card.mark.radius)
        if picture is None:
            return
        pictures.draw(c, picture, card.picture.box, card.picture.fit, fonts["label"], layout, card.picture.colour)
        style = card.caption
        if style.show and picture.caption:
            font = fonts[style.font]
            size = text.fit(picture.caption, font, style.box[2], style.box[3], style.size, style.min_size).size
            text.draw(c, picture.caption, font, size, style.box, paint.colour(layout, style.colour))

    return CardSet("codenames", title, card_spec(card), len(cards),
                   front=lambda c, i: face(c, cards[i].front),
                   back=lambda c, i: face(c, cards[i].back))
