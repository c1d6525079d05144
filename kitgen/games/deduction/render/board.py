"""The board: the city map (roads, and for each location its name, an investigator's
spot and two tile slots), the score track and the penalty track (docs/design.md §10.6).

The board is drawn at its own size (layout ``board.size``). On paper that holds it
(A3) it is one page; on smaller paper it is cut into pieces that overlap, each on
its own page, with alignment marks in the overlaps and cut and glue notes in the
margins. Pieces are whole millimetres and lie whole millimetres apart, so at any
resolution of whole pixels per millimetre the overlapping parts of neighbouring
pieces are the same drawing, pixel for pixel."""

import math
from dataclasses import dataclass

from kitgen.errors import KitgenError
from kitgen.games.deduction import city as city_mod, facts
from kitgen.games.deduction import pictures as pictures_mod
from kitgen.games.deduction.render.emblems import emblem
from kitgen.render import paint, text

MM = 72 / 25.4
ALIGN = 4 * MM                 # an alignment mark's arm


def _whole_mm(points: float) -> float:
    return math.floor(points / MM + 1e-9) * MM


@dataclass(frozen=True)
class Piece:
    """One page of the board: the part of the board it shows, and where that lies on the page."""

    number: int
    row: int
    col: int
    rows: int
    cols: int
    board: tuple[float, float, float, float]      # x, y, w, h of the board shown (board points)
    at: tuple[float, float]                       # where the board point (board.x, board.y) lies on the page
    page: tuple[float, float]


def location_centre(layout, city, index: int) -> tuple[float, float]:
    """A location's centre on the board (points from its bottom-left). Positions 0..1 span
    the map less a location box, so every box lies inside the map, clear of the tracks."""
    mx, my, mw, mh = layout.board.map.box
    w, h = layout.board.location.size
    px, py = city.positions[index]
    return mx + w / 2 + px * (mw - w), my + mh - h / 2 - py * (mh - h)


def position_box(layout) -> tuple[float, float]:
    """A location's box in position units (0..1 across the map), for placing and checking."""
    mx, my, mw, mh = layout.board.map.box
    w, h = layout.board.location.size
    return w / (mw - w), h / (mh - h)


def capacity(layout) -> tuple[int, int]:
    """The most location boxes (board.location.size) that lie side by side in the map
    (board.map.box) without overlapping, across and down: no placing holds more."""
    _, _, mw, mh = layout.board.map.box
    w, h = layout.board.location.size
    return math.floor(mw / w + 1e-9), math.floor(mh / h + 1e-9)


def check_capacity(layout, count: int, source: str, line: int | None = None) -> None:
    """More locations than the board holds: one line, before any placing."""
    across, down = capacity(layout)
    if count > across * down:
        w, h = layout.board.location.size
        _, _, mw, mh = layout.board.map.box
        raise KitgenError(f"{count:,} locations: a board holds at most {across * down} ({across} across and {down} "
                          f"down, a location's box being {w / MM:g} x {h / MM:g} mm in a map of {mw / MM:g} x "
                          f"{mh / MM:g} mm); remove {count - across * down:,} of them", source=source, line=line)


def location_box(layout, city, index: int) -> tuple[float, float, float, float]:
    w, h = layout.board.location.size
    cx, cy = location_centre(layout, city, index)
    return cx - w / 2, cy - h / 2, w, h


def slots(layout, box) -> tuple[tuple, tuple, tuple]:
    """The suspect slot, the investigator's spot and the crime slot of a location box."""
    spec = layout.board.location
    x, y, w, h = box
    slot, spot = spec.slot, spec.spot
    inner_h = h - spec.name.height
    gap = (w - 2 * slot - spot) / 4
    sy = y + (inner_h - slot) / 2
    return ((x + gap, sy, slot, slot), (x + 2 * gap + slot, y + (inner_h - spot) / 2, spot, spot),
            (x + 3 * gap + slot + spot, sy, slot, slot))


def name_room(layout, box) -> tuple[float, float, float, float]:
    """A location's name box: its name strip less the emblem at the left and as much at the right."""
    spec = layout.board.location
    x, y, w, h = box
    return x + 2 + spec.emblem, y + h - spec.name.height, w - 4 - 2 * spec.emblem, spec.name.height


def check_fit(layout, city, source: str) -> None:
    """No two locations' boxes overlap, and no road runs under a box it does not reach:
    one line naming the theme file and the locations if not."""
    box = position_box(layout)
    clash = city_mod.overlaps(city.positions, box)
    if clash:
        i, j = clash[0]
        raise KitgenError(f"the locations {city.names[j]!r} and {city.names[i]!r} overlap on the board; move them "
                          "apart (at:) or make board.location smaller in the layout", source=source)
    under = city_mod.under_boxes(city.positions, city.roads, box)
    if under:
        (a, b), k = under[0]
        raise KitgenError(f"the road {city.names[a]} - {city.names[b]} runs under {city.names[k]!r} on the board, "
                          f"as if it joined it; move {city.names[k]!r} (at:) or the road's ends", source=source)


def draw(c, layout, theme, fonts, labels, marks=()):
    """The whole board, its bottom-left at the origin; ``marks``: board points for alignment marks."""
    board = layout.board
    width, height = board.size
    paint.fill_box(c, (0, 0, width, height), paint.colour(layout, board.background))
    city = theme.city
    c.saveState()
    c.setStrokeColor(paint.colour(layout, board.road.colour))
    c.setLineWidth(board.road.width)
    c.setLineCap(1)
    for a, b in city.roads:
        c.line(*location_centre(layout, city, a), *location_centre(layout, city, b))
    c.restoreState()
    spec = board.location
    paper, frame = paint.colour(layout, spec.fill), paint.colour(layout, spec.frame.colour)
    tints = {kind: paint.colour(layout, name) for kind, name in (("suspects", "suspect"), ("crimes", "crime"))}
    for i, name in enumerate(city.names):
        box = location_box(layout, city, i)
        paint.fill_box(c, box, paper, spec.radius)
        paint.stroke_box(c, box, frame, spec.frame.width, spec.radius)
        x, y, w, h = box
        name_box = name_room(layout, box)
        picture = theme.locations[i].picture
        if picture is not None:             # the location's emblem (kitgen/games/deduction/pictures.py)
            side = min(spec.emblem, spec.name.height - 1)
            strip = y + h - spec.name.height
            pictures_mod.draw(c, "board", "locations", name, picture,
                              (x + 2 + (spec.emblem - side) / 2, strip + (spec.name.height - side) / 2, side, side),
                              fonts["label"], layout, "location")
        font = fonts[spec.name.font]
        shown = text.apply_case(name, spec.name.case)
        size = text.fit(shown, font, name_box[2], name_box[3], spec.name.size, spec.name.min_size).size
        text.draw(c, shown, font, size, name_box, paint.colour(layout, spec.name.colour))
        left, spot, right = slots(layout, box)
        for kind, slot in (("suspects", left), ("crimes", right)):
            paint.stroke_box(c, slot, tints[kind], 1.2, 2)
            sx, sy, sw, sh = slot
            emblem(c, kind, (sx + sw * 0.3, sy + sh * 0.3, sw * 0.4, sh * 0.4), tints[kind])
        sx, sy, sw, _ = spot
        c.setStrokeColor(frame)
        c.setLineWidth(1)
        c.circle(sx + sw / 2, sy + sw / 2, sw / 2, stroke=1, fill=0)
    _track(c, layout, fonts, board.score_track, labels.score_track, [str(n) for n in range(facts.SCORE_TRACK + 1)])
    _track(c, layout, fonts, board.penalty_track, labels.penalty_track,
           ["0"] + [f"\u2212{n}" for n in range(facts.WRONG_ATTEMPT, facts.PENALTY_TRACK + 1, facts.WRONG_ATTEMPT)])
    title = board.title
    font = fonts[title.font]
    shown = text.apply_case(labels.board_title.format(name=theme.name), title.case)
    size = text.fit(shown, font, title.box[2], title.box[3], title.size, title.min_size).size
    text.draw(c, shown, font, size, title.box, paint.colour(layout, title.colour))
    ink = paint.colour(layout, "ink")
    for x, y in marks:
        _align_mark(c, x, y, ink)


def _track(c, layout, fonts, spec, label: str, cells: list[str]):
    x, y, w, h = spec.box
    font = fonts[spec.font]
    ink, fill = paint.colour(layout, spec.colour), paint.colour(layout, spec.fill)
    label_w = min(w / 4, max(h * 2.5, text.width(label, font, spec.size) + 8))
    cell = (w - label_w) / len(cells)
    text.draw(c, label, font, spec.size, (x, y, label_w - 4, h), ink)
    for i, shown in enumerate(cells):
        box = (x + label_w + i * cell, y, cell, h)
        paint.fill_box(c, box, fill)
        paint.stroke_box(c, box, ink, 0.6)
        text.draw(c, shown, font, spec.size, box, ink)


def _align_mark(c, x: float, y: float, colour):
    c.saveState()
    c.setStrokeColor(colour)
    c.setLineWidth(0.5)
    c.circle(x, y, ALIGN / 2, stroke=1, fill=0)
    c.line(x - ALIGN, y, x + ALIGN, y)
    c.line(x, y - ALIGN, x, y + ALIGN)
    c.restoreState()


def pieces(layout, page_size, label_room: float) -> list[Piece]:
    """How the board lies on sheets of ``page_size``: one piece if it fits (either way up),
    else overlapping pieces, the page turned whichever way needs fewer."""
    bw, bh = layout.board.size
    margin, overlap = layout.paper.margin, layout.board.tiling.overlap
    best = None
    for pw, ph in (page_size, page_size[::-1]):
        cw, ch = pw - 2 * margin, ph - 2 * margin - label_room
        if cw >= bw and ch >= bh:
            return [Piece(1, 0, 0, 1, 1, (0, 0, bw, bh), ((pw - bw) / 2, (ph - bh) / 2), (pw, ph))]
        cw, ch = _whole_mm(cw), _whole_mm(ch)            # whole millimetres: the pieces' overlaps match exactly
        if cw <= overlap * 2 or ch <= overlap * 2:
            continue
        cols = max(1, math.ceil((bw - overlap) / (cw - overlap)))
        rows = max(1, math.ceil((bh - overlap) / (ch - overlap)))
        if best is None or cols * rows < best[0]:
            best = (cols * rows, cols, rows, cw, ch, pw, ph)
    if best is None:
        raise KitgenError("the paper is too small to print the board on; choose larger --board-paper")
    _, cols, rows, cw, ch, pw, ph = best
    overlap = round(overlap / MM) * MM
    stride_x, stride_y = cw - overlap, ch - overlap
    out = []
    for row in range(rows):
        for col in range(cols):
            x0 = col * stride_x
            top = bh - row * stride_y                     # rows run from the board's top
            y0 = top - ch
            origin = (margin - x0, margin + label_room - y0)
            out.append(Piece(len(out) + 1, row, col, rows, cols, (x0, y0, cw, ch), origin, (pw, ph)))
    return out


def alignment_marks(layout, all_pieces: list[Piece], city) -> list[tuple[float, float]]:
    """Marks in the middle of every overlap, where neighbouring pieces lie on each other: three
    along each, on open map, never on a location, a track or the title."""
    if len(all_pieces) == 1:
        return []
    bw, bh = layout.board.size
    overlap = round(layout.board.tiling.overlap / MM) * MM
    board = layout.board
    blocked = [location_box(layout, city, i) for i in range(len(city.names))]
    blocked += [board[name].box for name in ("title", "score_track", "penalty_track")]

    def free(x, y) -> bool:
        return not any(bx - ALIGN < x < bx + w + ALIGN and by - ALIGN < y < by + h + ALIGN for bx, by, w, h in blocked)

    marks = []
    for piece in all_pieces:
        x0, y0, w, h = piece.board
        if piece.col + 1 < piece.cols:                    # the overlap with the piece to the right
            x = x0 + w - overlap / 2
            marks += _three([(x, y) for y in _along(max(y0, 0), min(y0 + h, bh)) if free(x, y)])
        if piece.row + 1 < piece.rows:                    # the overlap with the piece below
            y = y0 + overlap / 2
            marks += _three([(x, y) for x in _along(max(x0, 0), min(x0 + w, bw)) if free(x, y)])
    return sorted(set(marks))


def _along(low: float, high: float) -> list[float]:
    return [low + (high - low) * k / 40 for k in range(2, 39)]


def _three(points: list) -> list:
    """The first, middle and last of the free points: spread along the overlap."""
    return [points[i] for i in sorted({0, len(points) // 2, len(points) - 1})] if points else []
