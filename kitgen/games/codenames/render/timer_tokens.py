"""The duet edition's timer tokens (docs/design.md §12): full-bleed colour, an hourglass and
the token's label on both faces; the extra tokens, for easier games, in their own colour."""

from kitgen.games.codenames.model import TimerToken
from kitgen.render import paint, text
from kitgen.render.cards import CardSet, card_spec


def hourglass(c, box, stroke, width: float):
    """An hourglass in lines inside ``box``: a bar above and below, two glasses meeting in the middle."""
    x, y, w, h = box
    c.saveState()
    c.setStrokeColor(stroke)
    c.setLineWidth(width)
    c.setLineCap(1)
    c.setLineJoin(1)
    inset = w * 0.18
    c.line(x, y, x + w, y)
    c.line(x, y + h, x + w, y + h)
    path = c.beginPath()
    path.moveTo(x + inset, y + h)
    path.lineTo(x + w - inset, y)
    path.lineTo(x + inset, y)
    path.lineTo(x + w - inset, y + h)
    path.close()
    c.drawPath(path, stroke=1, fill=0)
    c.restoreState()


def card_set(tokens: tuple[TimerToken, ...], layout, fonts: dict[str, str], messages, title: str) -> CardSet:
    token = layout.timer_token
    width, height = token.size
    bleed = token.bleed

    def face(c, i: int):
        extra = tokens[i].extra
        background = token.extra.background if extra else token.background
        paint.fill_box(c, (-bleed, -bleed, width + 2 * bleed, height + 2 * bleed), paint.colour(layout, background))
        frame = token.frame
        paint.stroke_box(c, (frame.inset, frame.inset, width - 2 * frame.inset, height - 2 * frame.inset),
                         paint.colour(layout, token.extra.colour if extra else frame.colour), frame.width, frame.radius)
        ink = paint.colour(layout, token.extra.colour if extra else token.symbol.colour)
        hourglass(c, token.symbol.box, ink, token.symbol.width)
        style = token.label
        shown = text.apply_case(messages.labels.extra_timer if extra else messages.labels.timer, style.case,
                                messages.language)
        font = fonts[style.font]
        size = text.fit(shown, font, style.box[2], style.box[3], style.size, style.min_size).size
        text.draw(c, shown, font, size, style.box,
                  paint.colour(layout, token.extra.colour if extra else style.colour))

    return CardSet("tokens", title, card_spec(token), len(tokens), front=face, back=face)
