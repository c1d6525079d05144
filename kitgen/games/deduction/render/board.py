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
from kitgen.games.deduction import city as city_mod, facts, pictures as pictures_mod
from kitgen.games.deduction.render import town as town_mod
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


@dataclass(frozen=True)
class Parts:
    """Where the parts of a location's box lie (x, y, w, h in board points): its name; the suspect
    slot, the crime slot and the emblem in a row under it; the investigators' spot along the bottom,
    with the feet of ``board.location.spot.standees`` standees side by side in it."""

    name: tuple
    suspect: tuple
    crime: tuple
    emblem: tuple
    spot: tuple
    feet: tuple


def parts(layout, box) -> Parts:
    """The parts of the location box ``box`` (x, y, w, h), from the layout (board.location)."""
    spec = layout.board.location
    x, y, w, h = box
    pad, slot, gap = spec.padding, spec.slot, spec.slot_gap
    top = y + h - pad
    name = (x + pad, top - spec.name.height, w - 2 * pad, spec.name.height)
    spot_spec = spec.spot
    spot = (x + pad, y + pad, w - 2 * pad, spot_spec.depth)
    # the slots and the emblem, centred across the box and between the name and the spot
    row_w = 2 * slot + gap + gap + spec.emblem
    row_x = x + (w - row_w) / 2
    row_y = (name[1] + spot[1] + spot[3]) / 2 - slot / 2
    suspect = (row_x, row_y, slot, slot)
    crime = (row_x + slot + gap, row_y, slot, slot)
    emblem_box = (row_x + 2 * slot + 2 * gap, row_y + slot - spec.emblem, spec.emblem, spec.emblem)
    foot = layout.tokens.investigator[0]
    count = int(spot_spec.standees)
    feet_w = count * foot + (count - 1) * spot_spec.gap
    fx = spot[0] + (spot[2] - feet_w) / 2
    feet = tuple((fx + k * (foot + spot_spec.gap), spot[1], foot, spot[3]) for k in range(count))
    return Parts(name, suspect, crime, emblem_box, spot, feet)


def slots(layout, box) -> tuple[tuple, tuple, tuple]:
    """The suspect slot, the investigators' spot and the crime slot of a location box."""
    p = parts(layout, box)
    return p.suspect, p.spot, p.crime


def name_room(layout, box) -> tuple[float, float, float, float]:
    """A location's name box (x, y, w, h) in the location box ``box``."""
    return parts(layout, box).name


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


def town_of(layout, theme) -> town_mod.Town:
    """The theme's town on this layout's board: streets between the locations' centres, houses,
    water and parks (render/town.py)."""
    city = theme.city
    centres = [location_centre(layout, city, i) for i in range(len(city.names))]
    boxes = [location_box(layout, city, i) for i in range(len(city.names))]
    road = layout.board.road
    return town_mod.build(theme.seed, [(centres[a], centres[b]) for a, b in city.roads], boxes,
                          layout.board.map.box, road.width + 2 * road.kerb.width, layout.board.town)


def name_size(layout, names, fonts) -> float:
    """The one size of every location name on the board: the largest up to board.location.name.size
    at which each fits its name box on one line."""
    spec = layout.board.location
    name_box = parts(layout, (0, 0, *spec.size)).name
    font = fonts[spec.name.font]
    return min(text.fit(text.apply_case(n, spec.name.case), font, name_box[2], name_box[3], spec.name.size,
                        spec.name.min_size).size for n in names)


def location_emblem(c, layout, fonts, theme, index: int, box, colour):
    """The emblem of the theme's location ``index``, in ``box`` (x, y, w, h): the one place the
    board draws it, the location's own picture (kitgen/games/deduction/pictures.py), else the deck's
    emblem."""
    location = theme.locations[index] if index < len(theme.locations) else None
    if location is not None and location.picture is not None:
        pictures_mod.draw(c, "board", "locations", theme.city.names[index], location.picture, box, fonts["label"],
                          layout, "location")
    else:
        emblem(c, "locations", box, colour)


def draw(c, layout, theme, fonts, labels, marks=(), town=None):
    """The whole board, its bottom-left at the origin; ``marks``: board points for alignment marks;
    ``town``: :func:`town_of` (made here when not given)."""
    board = layout.board
    width, height = board.size
    paint.fill_box(c, (0, 0, width, height), paint.colour(layout, board.background))
    city = theme.city
    town = town or town_of(layout, theme)
    _draw_town(c, layout, town)
    _draw_streets(c, layout, town.streets)
    spec = board.location
    paper, frame = paint.colour(layout, spec.fill), paint.colour(layout, spec.frame.colour)
    tints = {kind: paint.colour(layout, name) for kind, name in (("suspects", "suspect"), ("crimes", "crime"))}
    size = name_size(layout, city.names, fonts)
    font = fonts[spec.name.font]
    for i, name in enumerate(city.names):
        box = location_box(layout, city, i)
        paint.fill_box(c, box, paper, spec.radius)
        paint.stroke_box(c, box, frame, spec.frame.width, spec.radius)
        p = parts(layout, box)
        text.draw(c, text.apply_case(name, spec.name.case), font, size, p.name, paint.colour(layout, spec.name.colour))
        for kind, slot in (("suspects", p.suspect), ("crimes", p.crime)):
            paint.stroke_box(c, slot, tints[kind], 1.2, 2)
            sx, sy, sw, sh = slot
            emblem(c, kind, (sx + sw * 0.3, sy + sh * 0.3, sw * 0.4, sh * 0.4), tints[kind])
        location_emblem(c, layout, fonts, theme, i, p.emblem, paint.colour(layout, "location"))
        _draw_spot(c, layout, p)
    _track(c, layout, fonts, board.score_track, labels.score_track, [str(n) for n in range(facts.SCORE_TRACK + 1)],
           upward=True)
    _track(c, layout, fonts, board.penalty_track, labels.penalty_track,
           ["0"] + [f"\u2212{n}" for n in range(facts.WRONG_ATTEMPT, facts.PENALTY_TRACK + 1, facts.WRONG_ATTEMPT)],
           upward=False)
    _title(c, layout, fonts, labels.board_title.format(name=theme.name))
    ink = paint.colour(layout, "ink")
    for x, y in marks:
        _align_mark(c, x, y, ink)


def _smooth(c, points):
    """A closed outline through ``points`` as a smooth curve (Catmull-Rom as Bezier segments)."""
    path = c.beginPath()
    n = len(points)
    path.moveTo(*points[0])
    for i in range(n):
        p0, p1, p2, p3 = points[i - 1], points[i], points[(i + 1) % n], points[(i + 2) % n]
        path.curveTo(p1[0] + (p2[0] - p0[0]) / 6, p1[1] + (p2[1] - p0[1]) / 6,
                     p2[0] - (p3[0] - p1[0]) / 6, p2[1] - (p3[1] - p1[1]) / 6, p2[0], p2[1])
    path.close()
    return path


def _draw_town(c, layout, town):
    spec = layout.board.town
    for shape in town.shapes:
        style = spec[shape.kind]
        c.saveState()
        c.setFillColor(paint.colour(layout, style.colour))
        path = _smooth(c, shape.outline)
        c.drawPath(path, stroke=0, fill=1)
        c.clipPath(_smooth(c, shape.outline), stroke=0, fill=0)
        cx, cy = shape.centre
        r = shape.radius
        if shape.kind == "water":           # ripples: short arcs in rows
            c.setStrokeColor(paint.colour(layout, style.line.colour))
            c.setLineWidth(style.line.width)
            c.setLineCap(1)
            step = 4 * MM
            for row in range(-int(r / step), int(r / step) + 1):
                y = cy + row * step
                for col in range(-int(r / step) - 1, int(r / step) + 1):
                    x = cx + col * 2 * step + (step if row % 2 else 0)
                    c.arc(x - step * 0.5, y - step * 0.25, x + step * 0.5, y + step * 0.25, 20, 140)
        else:                               # trees: dots in a loose grid
            tree = style.tree
            c.setFillColor(paint.colour(layout, tree.colour))
            step = tree.size * 2.2
            for row in range(-int(r / step), int(r / step) + 1):
                for col in range(-int(r / step), int(r / step) + 1):
                    x = cx + col * step + (step / 2 if row % 2 else 0)
                    y = cy + row * step * 0.87
                    c.circle(x, y, tree.size / 2, stroke=0, fill=1)
        c.restoreState()
    house = paint.colour(layout, spec.houses.colour)
    for corners in town.houses:
        paint.polygon(c, corners, fill=house)


def _draw_streets(c, layout, streets):
    """Every street's kerbs, then every carriageway, then every centre line: where streets meet
    at a location, their surfaces join without seams (round ends)."""
    road = layout.board.road
    c.saveState()
    c.setLineCap(1)
    for colour, width in ((road.kerb.colour, road.width + 2 * road.kerb.width), (road.colour, road.width)):
        c.setStrokeColor(paint.colour(layout, colour))
        c.setLineWidth(width)
        for a, b in streets:
            c.line(*a, *b)
    c.setStrokeColor(paint.colour(layout, road.dash.colour))
    c.setLineWidth(road.dash.width)
    c.setLineCap(0)
    c.setDash(road.dash.length, road.dash.gap)
    for a, b in streets:
        c.line(*a, *b)
    c.restoreState()


def _draw_spot(c, layout, p: Parts):
    """The investigators' spot: a paved strip, and for each standee its feet (the two edges a
    folded tent stands on) where it goes."""
    spot = layout.board.location.spot
    paint.fill_box(c, p.spot, paint.colour(layout, spot.colour), 1.5)
    line = paint.colour(layout, spot.line.colour)
    c.saveState()
    c.setStrokeColor(line)
    c.setLineWidth(spot.line.width)
    c.setDash(1.5, 1.5)
    for foot in p.feet:
        paint.stroke_box(c, foot, line, spot.line.width, 1.5)
    c.setDash()
    c.setLineWidth(1.6)
    c.setLineCap(1)
    for x, y, w, h in p.feet:
        inset = 1.2 * MM
        for fy in (y + inset, y + h - inset):
            c.line(x + inset, fy, x + w - inset, fy)
    c.restoreState()


def _title(c, layout, fonts, shown: str):
    """The theme's name in a cartouche, on a ribbon whose notched ends show either side."""
    spec = layout.board.title
    x, y, w, h = spec.box
    font = fonts[spec.font]
    shown = text.apply_case(shown, spec.case)
    tail = 16 * MM
    size = text.fit(shown, font, w - 2 * spec.padding - 2 * tail, h * 0.6, spec.size, spec.min_size).size
    inner = min(w - 2 * tail, text.width(shown, font, size) + 2 * spec.padding)
    cx = x + w / 2
    left, right = cx - inner / 2, cx + inner / 2
    ribbon, edge = paint.colour(layout, spec.ribbon.colour), paint.colour(layout, spec.frame.colour)
    band_h, drop = h * 0.62, h * 0.22
    for side in (-1, 1):                    # the ribbon's ends, behind the cartouche, notched
        near = left + 3 * MM if side < 0 else right - 3 * MM
        far = near + side * (tail + 3 * MM)
        top, bottom = y + h - drop, y + h - drop - band_h
        paint.polygon(c, [(near, top), (far, top), (far - side * 4 * MM, (top + bottom) / 2), (far, bottom),
                     (near, bottom)], fill=ribbon, stroke=edge, width=spec.frame.width * 0.6)
    box = (left, y, inner, h)
    paint.fill_box(c, box, paint.colour(layout, spec.fill), 2 * MM)
    paint.stroke_box(c, box, edge, spec.frame.width, 2 * MM)
    rule = 1.3 * MM
    paint.stroke_box(c, (left + rule, y + rule, inner - 2 * rule, h - 2 * rule), edge, spec.frame.width * 0.4, 1.2 * MM)
    text.draw(c, shown, font, size, box, paint.colour(layout, spec.colour))


def track_cells(spec, count: int, upward: bool) -> tuple[tuple, list[tuple]]:
    """A track's label box and its ``count`` cells (x, y, w, h), in order from the first number.
    Along its longer side: across, the label at the left; up the board, the label at the top and
    the numbers from the bottom (``upward``) or from under the label."""
    x, y, w, h = spec.box
    if w >= h:
        label_w = spec.label
        cell = (w - label_w) / count
        return (x, y, label_w, h), [(x + label_w + i * cell, y, cell, h) for i in range(count)]
    cell = (h - spec.label) / count
    label = (x, y + h - spec.label, w, spec.label)
    if upward:
        return label, [(x, y + i * cell, w, cell) for i in range(count)]
    return label, [(x, y + h - spec.label - (i + 1) * cell, w, cell) for i in range(count)]


def _track(c, layout, fonts, spec, label: str, cells: list[str], upward: bool):
    font = fonts[spec.font]
    ink, fill = paint.colour(layout, spec.colour), paint.colour(layout, spec.fill)
    label_box, boxes = track_cells(spec, len(cells), upward)
    size = min(text.fit(shown, font, box[2] - 2 * MM, box[3] - 1 * MM, spec.size, 4).size
               for shown, box in zip(cells, boxes))
    lx, ly, lw, lh = label_box
    paint.fill_box(c, label_box, paint.colour(layout, "frame"))
    paper = paint.colour(layout, "paper")
    if lh > lw:                             # up the board: the label turned to read upwards
        label_size = text.fit(label, font, lh - 3 * MM, lw - 2 * MM, spec.size, 4).size
        c.saveState()
        c.translate(lx + lw / 2, ly + lh / 2)
        c.rotate(90)
        text.draw(c, label, font, label_size, (-lh / 2, -lw / 2, lh, lw), paper)
        c.restoreState()
    else:
        label_size = text.fit(label, font, lw - 3 * MM, lh - 2 * MM, spec.size, 4).size
        text.draw(c, label, font, label_size, label_box, paper)
    for shown, box in zip(cells, boxes):
        paint.fill_box(c, box, fill)
        paint.stroke_box(c, box, ink, 0.6)
        text.draw(c, shown, font, size, box, ink)
    paint.stroke_box(c, label_box, ink, 0.6)


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
