"""Picture cards: one picture a face, kept to its aspect ratio (vector pictures
stay vector), with an orientation mark in the top-left corner."""

import io

from .. import pictures as pictures_mod
from ..model import CodenameCard
from . import paint, text
from .cards import CardSet, card_spec


def _use_font(node, font: str):
    """Every font an SVG asks for becomes ours: it is embedded, and no base-14 font leaks in."""
    if hasattr(node, "fontName"):
        node.fontName = font
    for child in getattr(node, "contents", ()):
        _use_font(child, font)


def draw_picture(c, picture, box, fit: str, font: str):
    """The picture in ``box`` (x, y, w, h): whole (``contain``) or filling the box,
    cropped (``cover``); centred either way."""
    x, y, w, h = box
    if picture.vector:
        drawing = pictures_mod.drawing_of(picture.data, picture.name)
        drawing.initialFontName = font        # the renderer's starting state, else Helvetica
        _use_font(drawing, font)
        pw, ph = drawing.width, drawing.height
    else:
        pw, ph = picture.pixels
    scale = (min if fit == "contain" else max)(w / pw, h / ph)
    dw, dh = pw * scale, ph * scale
    left, bottom = x + (w - dw) / 2, y + (h - dh) / 2
    c.saveState()
    if fit == "cover":
        path = c.beginPath()
        path.rect(x, y, w, h)
        c.clipPath(path, stroke=0, fill=0)
    if picture.vector:
        from reportlab.graphics import renderPDF

        c.translate(left, bottom)
        c.scale(scale, scale)
        renderPDF.draw(drawing, c, 0, 0)
    else:
        from reportlab.lib.utils import ImageReader

        c.drawImage(ImageReader(io.BytesIO(picture.data)), left, bottom, dw, dh, mask="auto")
    c.restoreState()


def orientation_mark(c, box, fill):
    """A right triangle filling the top-left corner of ``box``."""
    x, y, w, h = box
    path = c.beginPath()
    path.moveTo(x, y + h)
    path.lineTo(x + w, y + h)
    path.lineTo(x, y)
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
        orientation_mark(c, card.mark.box, paint.colour(layout, card.mark.colour))
        if picture is None:
            return
        draw_picture(c, picture, card.picture.box, card.picture.fit, fonts["label"])
        style = card.caption
        if style.show and picture.caption:
            font = fonts[style.font]
            size = text.fit(picture.caption, font, style.box[2], style.box[3], style.size, style.min_size).size
            text.draw(c, picture.caption, font, size, style.box, paint.colour(layout, style.colour))

    return CardSet("codenames", title, card_spec(card), len(cards),
                   front=lambda c, i: face(c, cards[i].front),
                   back=lambda c, i: face(c, cards[i].back))
