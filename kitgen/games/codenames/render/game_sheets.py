"""Single-game sheets: a board page per game (the words or pictures large enough
to read across a classroom or to project), then a key page per game for the
spymasters, each headed by the same title as its board: the game's number and code.

Every word of every board of a run is set in one size, the largest at which all of
them fit their cells, so no board and no word stands out by the length of a word.
A word's ink, not only its advance, keeps ``game_sheet.cell.padding`` clear of the
inside of its cell's frame on either side (a J's hook reaches left of its origin)."""

import io

from kitgen.errors import KitgenError
from kitgen.games.codenames.render import key_cards, picture_cards
from kitgen.messages import label
from kitgen.render import forms, paint, pictures, text
from kitgen.render.pdf import new_canvas


def page_title(game, messages) -> str:
    """The title of a game's board page and of its key page alike (numbers in the
    language's digits, the code as it is typed)."""
    return label(messages, "game_title", n=game.number, total=game.total, code=game.code)


def _title(c, line: str, layout, fonts, page_width: float, page_height: float):
    """The page's title line, centred at its top."""
    sheet = layout.game_sheet
    style = sheet.title
    c.setFillColor(paint.colour(layout, style.colour))
    text.draw_line(c, line, fonts[style.font], style.size, page_width / 2, page_height - sheet.margin - style.drop,
                   "centre")


def _cells(edition, layout, size) -> list[tuple[float, float, float, float]]:
    """Each board cell's frame (x, y, w, h), in the order of a game's items (top row first)."""
    width, height = size
    sheet = layout.game_sheet
    margin, gap = sheet.margin, sheet.gap
    top = height - margin - sheet.board_top
    cell_w = (width - 2 * margin - (edition.cols - 1) * gap) / edition.cols
    cell_h = (top - margin - (edition.rows - 1) * gap) / edition.rows
    return [(margin + col * (cell_w + gap), top - (row + 1) * cell_h - row * gap, cell_w, cell_h)
            for row in range(edition.rows) for col in range(edition.cols)]


def _inner(box, cell) -> tuple[float, float, float, float]:
    """What a cell holds: its frame less the frame line's inner half and the padding, all round."""
    inset = cell.width / 2 + cell.padding
    x, y, w, h = box
    return x + inset, y + inset, w - 2 * inset, h - 2 * inset


def _fit(word: str, font: str, inner, style) -> text.Fit:
    """``word`` fitted to a cell's inner box, ink and all: drawn centred on its advance, the
    advance may take only the share of the width that leaves room for the ink beyond it."""
    advance = text.width(word, font, 1.0)
    room = inner[2] * advance / (advance + 2 * text.overhang(word, font)) if advance else inner[2]
    return text.fit(word, font, room, inner[3], style.size, style.min_size)


def _word_fits(games, edition, layout, fonts, size) -> list[text.Fit]:
    """Each word of the run (as printed, upper case), fitted to a board cell."""
    sheet = layout.game_sheet
    inner = _inner(_cells(edition, layout, size)[0], sheet.cell)
    words = sorted({item.upper() for game in games for item in game.items if isinstance(item, str)})
    return [_fit(word, fonts[sheet.word.font], inner, sheet.word) for word in words]


def word_size(games, edition, layout, fonts, size) -> float:
    """The one size of the words on every board of the run: the largest at which each of them fits its cell."""
    return min((fit.size for fit in _word_fits(games, edition, layout, fonts, size)),
               default=layout.game_sheet.word.size)


def check_words(games, edition, layout, fonts, size, source: str):
    """Every word of the run must fit a board cell at ``game_sheet.word.min_size`` or above."""
    too_long = [fit.text for fit in _word_fits(games, edition, layout, fonts, size) if not fit.fits]
    if too_long:
        shown = ", ".join(too_long[:40]) + (f", and {len(too_long) - 40} more" if len(too_long) > 40 else "")
        raise KitgenError(f"{len(too_long)} word(s) do not fit a board cell even at the minimum size: {shown}; "
                          "shorten them or use a layout (--layout) with a smaller game_sheet.word.min_size",
                          source=source)


def _board(c, game, edition, layout, fonts, messages, size, words: float):
    """A game's board page, its words set in ``words`` points; the cells' frames, the same on
    every board, are drawn once per PDF (a form)."""
    sheet = layout.game_sheet
    cell, word, mark = sheet.cell, sheet.word, sheet.mark
    _title(c, page_title(game, messages), layout, fonts, *size)
    frame = paint.colour(layout, cell.colour)
    boxes = _cells(edition, layout, size)

    def frames(c):
        for box in boxes:
            paint.stroke_box(c, box, frame, cell.width, cell.radius)

    forms.place(c, forms.name("board frames", boxes, repr(cell), repr(frame)), (0, 0, *size), frames)
    ink = paint.colour(layout, word.colour)
    for item, box in zip(game.items, boxes):
        inner = _inner(box, cell)
        if isinstance(item, str):
            text.draw(c, item.upper(), fonts[word.font], words, inner, ink)
        else:
            pictures.draw(c, item, inner, "contain", fonts["label"], layout, layout.picture_card.picture.colour)
            picture_cards.orientation_mark(
                c, (box[0] + mark.inset, box[1] + box[3] - mark.inset - mark.size, mark.size, mark.size),
                paint.colour(layout, mark.colour))


def key_faces(edition, messages) -> list[tuple[str, str]]:
    """A game's key pages, each as (its note, the face of the key card drawn on it): the spymasters'
    one face; or, for a duet game, a page per player, each headed by the side's name and showing
    the face that player reads, as they see the board (side B: the card's back, docs/design.md §3.5)."""
    if not edition.cooperative:
        return [(messages.labels.key_back, "front")]
    return [(label(messages, "side", side=messages.labels.side_a), "front"),
            (label(messages, "side", side=messages.labels.side_b), "back")]


def _key(c, game, cards, index: int, shown: str, face: str, layout, fonts, messages, size):
    """A game's key page: its board's title, the note ``shown`` under it (whose page it is), the
    ``face`` (front or back) of its key card, card ``index`` of ``cards``, enlarged."""
    width, height = size
    sheet = layout.game_sheet
    key, margin = sheet.key, sheet.margin
    _title(c, page_title(game, messages), layout, fonts, width, height)
    note = key.note
    c.setFillColor(paint.colour(layout, note.colour))
    text.draw_line(c, shown, fonts[note.font], note.size, width / 2,
                   height - margin - sheet.title.drop - note.drop, "centre")
    card_w, card_h = cards.spec.width, cards.spec.height
    scale = min((width - 2 * margin) / card_w, (height - 2 * margin - key.room) / card_h, key.max_scale)
    c.saveState()
    c.translate((width - card_w * scale) / 2, (height - key.band - card_h * scale) / 2)
    c.scale(scale, scale)
    getattr(cards, face)(c, index)
    c.restoreState()


def render(games, edition, layout, fonts, messages, size, title: str) -> bytes:
    """All boards, their words in one size, then all keys (a duet game's: side A's page, then
    side B's), in one PDF."""
    buffer = io.BytesIO()
    c = new_canvas(buffer, size, fonts, title=title)
    words = word_size(games, edition, layout, fonts, size)
    for game in games:
        _board(c, game, edition, layout, fonts, messages, size, words)
        c.showPage()
    cards = key_cards.card_set(tuple(game.key for game in games), [game.payload for game in games], layout, fonts,
                               [game.kit_id for game in games], edition, messages, "")
    for index, game in enumerate(games):
        for shown, face in key_faces(edition, messages):
            _key(c, game, cards, index, shown, face, layout, fonts, messages, size)
            c.showPage()
    c.save()
    return buffer.getvalue()
