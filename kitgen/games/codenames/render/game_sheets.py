"""Single-game sheets: a board page per game (the words or pictures large enough
to read across a classroom or to project), then a key page per game for the
spymasters, each labelled with its game number and code."""

import io

from kitgen.games.codenames.render import key_cards, picture_cards
from kitgen.render import paint, pictures, text
from kitgen.render.pdf import new_canvas


def _title(c, line: str, layout, fonts, page_width: float, page_height: float):
    """The page's title line, centred at its top."""
    sheet = layout.game_sheet
    style = sheet.title
    c.setFillColor(paint.colour(layout, style.colour))
    text.draw_line(c, line, fonts[style.font], style.size, page_width / 2, page_height - sheet.margin - style.drop,
                   "centre")


def _board(c, game, edition, layout, fonts, messages, size):
    width, height = size
    sheet = layout.game_sheet
    margin, gap, cell, word = sheet.margin, sheet.gap, sheet.cell, sheet.word
    _title(c, messages.labels.game_title.format(n=game.number, total=game.total, code=game.code),
           layout, fonts, width, height)
    top = height - margin - sheet.board_top
    cell_w = (width - 2 * margin - (edition.cols - 1) * gap) / edition.cols
    cell_h = (top - margin - (edition.rows - 1) * gap) / edition.rows
    frame = paint.colour(layout, cell.colour)
    pad = cell.padding
    words = [item.upper() for item in game.items if isinstance(item, str)]
    inner_w, inner_h = cell_w - 2 * pad, cell_h - 2 * pad
    # one size for the whole board, so no word stands out by its length
    font = fonts[word.font]
    size = min((text.fit(w, font, inner_w, inner_h, word.size, word.min_size).size for w in words),
               default=word.size)
    mark = sheet.mark
    for r in range(edition.rows):
        for col in range(edition.cols):
            item = game.items[r * edition.cols + col]
            box = (margin + col * (cell_w + gap), top - (r + 1) * cell_h - r * gap, cell_w, cell_h)
            paint.stroke_box(c, box, frame, cell.width, cell.radius)
            inner = (box[0] + pad, box[1] + pad, box[2] - 2 * pad, box[3] - 2 * pad)
            if isinstance(item, str):
                text.draw(c, item.upper(), font, size, inner, paint.colour(layout, word.colour))
            else:
                pictures.draw(c, item, inner, "contain", fonts["label"], layout, layout.picture_card.picture.colour)
                picture_cards.orientation_mark(
                    c, (box[0] + mark.inset, box[1] + box[3] - mark.inset - mark.size, mark.size, mark.size),
                    paint.colour(layout, mark.colour))


def _key(c, game, edition, layout, fonts, messages, size):
    width, height = size
    sheet = layout.game_sheet
    labels = messages.labels
    title = labels.game_title.format(n=game.number, total=game.total, code=game.code)
    _title(c, f"{title} \u00b7 {labels.key_back}", layout, fonts, width, height)
    cards = key_cards.card_set((game.key,), [game.payload], layout, fonts, game.kit_id, edition, messages, "")
    card_w, card_h = cards.spec.width, cards.spec.height
    key, margin = sheet.key, sheet.margin
    scale = min((width - 2 * margin) / card_w, (height - 2 * margin - key.room) / card_h, key.max_scale)
    c.saveState()
    c.translate((width - card_w * scale) / 2, (height - key.band - card_h * scale) / 2)
    c.scale(scale, scale)
    cards.front(c, 0)
    c.restoreState()


def render(games, edition, layout, fonts, messages, size, title: str) -> bytes:
    """All boards, then all keys, in one PDF."""
    buffer = io.BytesIO()
    c = new_canvas(buffer, size, fonts, title=title)
    for draw in (_board, _key):
        for game in games:
            draw(c, game, edition, layout, fonts, messages, size)
            c.showPage()
    c.save()
    return buffer.getvalue()
