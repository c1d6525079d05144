"""Single-game sheets: a board page per game (the words or pictures large enough
to read across a classroom or to project), then a key page per game for the
spymasters, each labelled with its game number and code."""

import io

from . import keycards, paint, picturecards, text
from ..units import mm

MARGIN = mm(12)
GAP = mm(4)


def _board(c, game, edition, layout, fonts, messages, size):
    width, height = size
    labels = messages.labels
    c.setFillColor(paint.colour(layout, "ink"))
    title = labels.game_title.format(n=game.number, total=game.total, code=game.code)
    text.draw_line(c, title, fonts["heading"], 16, width / 2, height - MARGIN - 12, "centre")
    top = height - MARGIN - mm(12)
    cell_w = (width - 2 * MARGIN - (edition.cols - 1) * GAP) / edition.cols
    cell_h = (top - MARGIN - (edition.rows - 1) * GAP) / edition.rows
    frame = paint.colour(layout, "frame")
    words = [item.upper() for item in game.items if isinstance(item, str)]
    inner_w, inner_h = cell_w - mm(6), cell_h - mm(6)
    # one size for the whole board, so no word stands out by its length
    size = min((text.fit(w, fonts["word"], inner_w, inner_h, 40, 8).size for w in words), default=40)
    for r in range(edition.rows):
        for col in range(edition.cols):
            item = game.items[r * edition.cols + col]
            box = (MARGIN + col * (cell_w + GAP), top - (r + 1) * cell_h - r * GAP, cell_w, cell_h)
            paint.stroke_box(c, box, frame, 1.0, mm(2))
            inner = (box[0] + mm(3), box[1] + mm(3), box[2] - mm(6), box[3] - mm(6))
            if isinstance(item, str):
                text.draw(c, item.upper(), fonts["word"], size, inner, paint.colour(layout, "ink"))
            else:
                picturecards.draw_picture(c, item, inner, "contain", fonts["label"])
                picturecards.orientation_mark(c, (box[0] + mm(1.5), box[1] + box[3] - mm(6.5), mm(5), mm(5)), frame)


def _key(c, game, edition, layout, fonts, messages, size):
    width, height = size
    labels = messages.labels
    title = labels.game_title.format(n=game.number, total=game.total, code=game.code)
    c.setFillColor(paint.colour(layout, "ink"))
    text.draw_line(c, f"{title} \u00b7 {labels.key_back}", fonts["heading"], 16, width / 2,
                   height - MARGIN - 12, "centre")
    cards = keycards.card_set((game.key,), [game.payload], layout, fonts, game.kit_id, edition, messages, "")
    card_w, card_h = cards.spec.width, cards.spec.height
    scale = min((width - 2 * MARGIN) / card_w, (height - 2 * MARGIN - mm(20)) / card_h, 2.4)
    c.saveState()
    c.translate((width - card_w * scale) / 2, (height - mm(14) - card_h * scale) / 2)
    c.scale(scale, scale)
    cards.front(c, 0)
    c.restoreState()


def render(games, edition, layout, fonts, messages, size, title: str) -> bytes:
    """All boards, then all keys, in one PDF."""
    from reportlab.pdfgen import canvas

    from .. import __version__

    buffer = io.BytesIO()
    c = canvas.Canvas(buffer, pagesize=size, invariant=1, pageCompression=1,
                      initialFontName=fonts["label"], initialFontSize=10)
    c.setTitle(title)
    c.setCreator(f"kitgen {__version__}")
    c.setViewerPreference("PrintScaling", "None")
    for draw in (_board, _key):
        for game in games:
            draw(c, game, edition, layout, fonts, messages, size)
            c.showPage()
    c.save()
    return buffer.getvalue()
