"""The detective's notepad (issue 26 point 6, docs/design.md §10.6): a sheet a player, the
theme's suspects, crimes and locations as rows under a heading for each kind, a column a
mini-game with a box to tick or cross, so one sheet lasts a player the whole game. As many
sheets as fit (layout ``notepad``) stand side by side on a page, a dashed cut line between two."""

import math

from kitgen.errors import KitgenError
from kitgen.games.deduction import facts, pictures
from kitgen.render import paint, text

KINDS = ("suspects", "crimes", "locations")
COLOUR = {"suspects": "suspect", "crimes": "crime", "locations": "location"}


def per_page(layout, page_size) -> int:
    """How many sheets stand side by side on a page of ``page_size``."""
    spec = layout.notepad
    room = page_size[0] - 2 * spec.margin
    return max(1, math.floor((room + spec.gap) / (spec.sheet_width + spec.gap) + 1e-6))


def pages_for(players: int, layout, page_size) -> int:
    return -(-players // per_page(layout, page_size))


def sheet_boxes(layout, page_size) -> list[tuple[float, float, float, float]]:
    """Each sheet's box (x, y, w, h) on a page, the sheets centred across it."""
    spec = layout.notepad
    n = per_page(layout, page_size)
    width = n * spec.sheet_width + (n - 1) * spec.gap
    x0 = (page_size[0] - width) / 2
    height = page_size[1] - 2 * spec.margin
    return [(x0 + i * (spec.sheet_width + spec.gap), spec.margin, spec.sheet_width, height) for i in range(n)]


def name_width(layout) -> float:
    """The room for a name in its row: the sheet less its padding, the row's picture and the mini-games'
    columns."""
    spec = layout.notepad
    return spec.sheet_width - 2 * spec.padding - facts.MINI_GAMES * spec.column - _picture_room(layout)


def _picture_room(layout) -> float:
    """The row's picture and a space after it (half the sheet's padding)."""
    return layout.notepad.picture + layout.notepad.padding / 2


def _wrap(words: str, font: str, size: float, limit: float) -> list[str]:
    lines: list[list[str]] = [[]]
    for word in words.split():
        if lines[-1] and not text.fits(lines[-1] + [word], font, size, limit):
            lines.append([])
        lines[-1].append(word)
    return [" ".join(line) for line in lines if line]


def _top_block(layout, fonts, labels, width: float) -> tuple[float, list[str]]:
    """The height above the column headers (title, name line, note) and the note's lines."""
    spec = layout.notepad
    note = _wrap(labels.notepad_note, fonts[spec.note.font], spec.note.size, width)
    return spec.title.height + spec.player.height + len(note) * spec.note.leading + spec.heading.height, note


def row_height(layout, fonts, labels, theme, page_size) -> float:
    """The rows' height: the layout's, or less, down to ``min_row``, for a theme with many names."""
    spec = layout.notepad
    inner = sheet_boxes(layout, page_size)[0][3] - 2 * spec.padding
    top, _ = _top_block(layout, fonts, labels, spec.sheet_width - 2 * spec.padding)
    rows = sum(len(getattr(theme, kind)) for kind in KINDS)
    room = inner - top - len(KINDS) * spec.heading.height
    row = min(spec.row, room / rows)
    if row < spec.min_row - 1e-6:
        raise KitgenError(f"the notepad cannot hold {rows} rows of names on a page even at notepad.min_row; "
                          "give fewer suspects, crimes or locations", source=theme.source)
    return row


def notepad_pages(c, layout, fonts, labels, theme, page_size, players: int) -> int:
    """A sheet for each of ``players`` players, laid side by side; returns the pages drawn."""
    boxes = sheet_boxes(layout, page_size)
    row = row_height(layout, fonts, labels, theme, page_size)
    total = pages_for(players, layout, page_size)
    for page in range(total):
        on_page = range(page * len(boxes), min(players, (page + 1) * len(boxes)))
        for slot, _player in enumerate(on_page):
            _sheet(c, layout, fonts, labels, theme, boxes[slot], row)
        _cut_lines(c, layout, fonts, labels, boxes[:len(on_page)], page_size)
        c.showPage()
    return total


def _cut_lines(c, layout, fonts, labels, boxes, page_size):
    """A dashed line round the sheets, and down the middle of each gap between two; the note
    below them, in the paper's margin."""
    spec = layout.notepad
    c.saveState()
    c.setStrokeColor(paint.colour(layout, spec.cut.colour))
    c.setLineWidth(spec.cut.width)
    c.setDash(spec.cut.dash, spec.cut.dash)
    half = spec.gap / 2
    left, bottom = boxes[0][0], boxes[0][1]
    right, top = boxes[-1][0] + boxes[-1][2], boxes[0][1] + boxes[0][3]
    c.rect(left, bottom, right - left, top - bottom, stroke=1, fill=0)
    for box in boxes[1:]:
        c.line(box[0] - half, bottom, box[0] - half, top)
    c.restoreState()
    c.setFillColor(paint.colour(layout, spec.cut.colour))
    text.draw_line(c, labels.notepad_cut, fonts[spec.note.font], spec.note.size, page_size[0] / 2,
                   layout.paper.margin, "centre")


def _sheet(c, layout, fonts, labels, theme, box, row: float):
    spec = layout.notepad
    x, y, w, h = box
    pad = spec.padding
    left, right = x + pad, x + w - pad
    ink, line = paint.colour(layout, "ink"), paint.colour(layout, spec.line.colour)
    top = y + h - pad
    # the title
    title = spec.title
    font = fonts[title.font]
    size = max(text.fit(labels.notepad_title, font, right - left, title.height, title.size, title.min_size).size,
               title.min_size)
    c.setFillColor(paint.colour(layout, title.colour))
    text.draw_line(c, labels.notepad_title, font, size, left, top - title.height + (title.height - size) / 2, "left")
    top -= title.height
    # the name line: "Player ________"
    player = spec.player
    font = fonts[player.font]
    base = top - player.height * 0.6
    c.setFillColor(paint.colour(layout, player.colour))
    text.draw_line(c, labels.notepad_player, font, player.size, left, base, "left")
    start = left + text.width(labels.notepad_player, font, player.size) + 2
    c.setStrokeColor(line)
    c.setLineWidth(spec.line.width)
    c.line(start, base - 1, right, base - 1)
    top -= player.height
    # how the sheet is used
    _, note = _top_block(layout, fonts, labels, right - left)
    c.setFillColor(paint.colour(layout, spec.note.colour))
    for part in note:
        top -= spec.note.leading
        text.draw_line(c, part, fonts[spec.note.font], spec.note.size, left, top + 1.5, "left")
    # the columns' headers: the mini-games' numbers under "Mini-game"
    head = spec.heading
    top -= head.height
    columns = [right - (facts.MINI_GAMES - i) * spec.column for i in range(facts.MINI_GAMES)]
    c.setFillColor(ink)
    label_font = fonts[head.font]
    size = max(text.fit(labels.notepad_game, label_font, columns[0] - left - 2, head.height, head.size,
                        head.min_size).size, head.min_size)
    text.draw_line(c, labels.notepad_game, label_font, size, columns[0] - 2, top + 1.5, "right")
    for number, cx in enumerate(columns, 1):
        text.draw_line(c, str(number), label_font, head.size, cx + spec.column / 2, top + 1.5, "centre")
    name = spec.name
    name_font = fonts[name.font]
    for kind, heading in zip(KINDS, (labels.notepad_suspects, labels.notepad_crimes, labels.notepad_locations)):
        top -= head.height
        paint.fill_box(c, (left, top, right - left, head.height), paint.colour(layout, head.fill))
        c.setFillColor(paint.colour(layout, head.colour))
        size = max(text.fit(heading, label_font, right - left - 2, head.height, head.size, head.min_size).size,
                   head.min_size)
        text.draw_line(c, heading, label_font, size, left + 1, top + (head.height - size * 0.7) / 2, "left")
        for entry in getattr(theme, kind):
            top -= row
            if entry.picture is not None:       # the thing's picture, small: the one on its card and tile
                side = min(spec.picture, row - 1)
                pictures.draw(c, "notepad", kind, entry.name, entry.picture,
                              (left + 1 + (spec.picture - side) / 2, top + (row - side) / 2, side, side),
                              fonts["label"], layout, COLOUR[kind])
            fitted = text.fit(entry.name, name_font, name_width(layout) - 2, row, name.size, name.min_size)
            c.setFillColor(paint.colour(layout, name.colour))
            text.draw_line(c, entry.name, name_font, max(fitted.size, name.min_size), left + 1 + _picture_room(layout),
                           top + (row - fitted.size * 0.7) / 2, "left")
            c.setStrokeColor(line)
            c.setLineWidth(spec.line.width)
            c.line(left, top, right, top)
            side = min(spec.box, row - 1)
            for cx in columns:
                c.rect(cx + (spec.column - side) / 2, top + (row - side) / 2, side, side, stroke=1, fill=0)
