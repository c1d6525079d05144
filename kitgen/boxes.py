"""Boxes and stands as plain geometry (docs/design.md §8.12): a tuck box for each deck of a kit
and a fold-up stand for a key card, each a net of panels with its cut lines, fold lines and glue
areas, and how a net lies on sheets of paper (whole, turned, or in overlapping pieces with
alignment marks). Nothing here draws (kitgen/render/boxes.py does); every length is in points and
every size a person might change is the layout's ``box`` section.

A panel's outline runs counter-clockwise. An edge two panels share is a fold; every other edge is
cut, so the cut lines are the outline of the whole net and the folds are exactly its inner edges."""

import math
from dataclasses import dataclass, field

from .errors import KitgenError
from .units import mm

Point = tuple[float, float]
NOTCH_STEPS = 24                 # straight pieces that draw the thumb notch's half circle
MARK_STEPS = 40                  # places tried along an overlap for its alignment marks


@dataclass(frozen=True)
class Deck:
    """A deck to box: a card set's name and printed title, its card's trim size and count."""

    name: str                    # the card set's: keys, tiles, cases, ...
    title: str                   # as printed: "Key cards"
    width: float
    height: float
    count: int
    stand: bool = False          # also a stand that holds one card upright (key cards)
    # loose pieces, not cards (a game's tokens): width and height are the largest
    # piece's as stored, ``layers`` the stack's thickness in pieces of the stock (a piece folded
    # in two is two), and no piece is sleeved. None: a deck of ``count`` cards
    layers: int | None = None


@dataclass(frozen=True)
class Stock:
    """What the cards are made of: one card's thickness (points), and sleeves or not."""

    thickness: float
    sleeved: bool = False


@dataclass(frozen=True)
class Panel:
    name: str
    outline: tuple[Point, ...]   # counter-clockwise

    @property
    def rect(self) -> tuple[float, float, float, float]:
        """The panel's bounding rectangle: x, y, width, height."""
        xs, ys = zip(*self.outline)
        return min(xs), min(ys), max(xs) - min(xs), max(ys) - min(ys)


@dataclass(frozen=True)
class Net:
    """One flat piece to print, cut, fold and glue. ``figures`` are what it was sized by, in
    points (a box: card, stack, inner width, height and depth; a stand: shelf, face, back, angle)."""

    kind: str                    # tuck_box | stand
    deck: Deck
    panels: tuple[Panel, ...]
    glue: tuple[str, ...]        # the panels that take glue on their printed face
    figures: dict = field(compare=False)
    cuts: tuple[tuple[Point, ...], ...] = ()
    folds: tuple[tuple[Point, Point], ...] = ()

    @property
    def size(self) -> tuple[float, float]:
        xs, ys = zip(*(p for panel in self.panels for p in panel.outline))
        return max(xs), max(ys)

    def panel(self, name: str) -> Panel:
        return next(p for p in self.panels if p.name == name)


def check_thickness(thickness_mm: float, spec) -> float:
    """``--card-thickness`` in millimetres, checked, as points."""
    limit = spec.max_card_thickness / mm(1)
    if math.isnan(thickness_mm):
        raise KitgenError("--card-thickness nan is not a thickness; give one card's thickness in millimetres, "
                          "e.g. 0.3")
    if thickness_mm <= 0:
        raise KitgenError(f"--card-thickness {thickness_mm:g}: a card is thicker than 0 mm; give one card's "
                          "thickness in millimetres, e.g. 0.3")
    if thickness_mm > limit:
        raise KitgenError(f"--card-thickness {thickness_mm:g}: more than {limit:g} mm (layout box.max_card_thickness) "
                          "for one card; give one card's thickness in millimetres, e.g. 0.3")
    return mm(thickness_mm)


def card_room(deck: Deck, stock: Stock, spec) -> tuple[float, float, float]:
    """The short side, long side and thickness of one card as it goes into a box: a sleeve adds
    its margin to both sides and its thickness to the card's."""
    short, long = sorted((deck.width, deck.height))
    if not stock.sleeved or deck.layers is not None:
        return short, long, stock.thickness
    sleeve = spec.sleeve
    return short + sleeve.margin, long + sleeve.margin, stock.thickness + sleeve.thickness


def _flap(x1: float, x2: float, y: float, depth: float, taper: float) -> tuple[Point, ...]:
    """A flap hinged on the edge from (x1, y) to (x2, y): above it for a positive depth, below it
    for a negative one; its free corners cut in by ``taper``."""
    taper = min(taper, abs(x2 - x1) / 3)
    if depth > 0:
        return (x1, y), (x2, y), (x2 - taper, y + depth), (x1 + taper, y + depth)
    return (x1, y), (x1 + taper, y + depth), (x2 - taper, y + depth), (x2, y)


def _notched_top(x0: float, y0: float, x1: float, y1: float, radius: float) -> tuple[Point, ...]:
    """A rectangle whose top edge has a half circle of ``radius`` cut from its middle."""
    if radius <= 0:
        return _rectangle(x0, y0, x1, y1)
    cx = (x0 + x1) / 2
    arc = [(cx + radius * math.cos(-math.pi * k / NOTCH_STEPS), y1 + radius * math.sin(-math.pi * k / NOTCH_STEPS))
           for k in range(NOTCH_STEPS + 1)]
    return ((x0, y0), (x1, y0), (x1, y1), *arc, (x0, y1))


def tuck_box(deck: Deck, stock: Stock, spec) -> Net:
    """A tuck box (for a deck, or for loose pieces lying flat in a stack: ``Deck.layers``): front,
    right side, back, left side and a glue flap in a row; on top the lid (over the back) with its
    tuck flap and a dust flap on each side, and a thumb notch in the front; below, the floor (under
    the back), the front's bottom flap (glued to the floor) and a dust flap on each side. Inside:
    the deck plus ``clearance`` (``depth_clearance`` on its stack); every panel is
    ``fold_allowance`` larger than the room inside it."""
    short, long, per_card = card_room(deck, stock, spec)
    allowance = spec.fold_allowance
    stack = (deck.count if deck.layers is None else deck.layers) * per_card
    inner = (short + spec.clearance, long + spec.clearance, stack + spec.depth_clearance)
    w, h, d = (size + allowance for size in inner)
    dust = min(spec.dust_flap.depth, inner[0] / 2)          # the two dust flaps meet at most in the middle
    tuck = min(spec.tuck.depth, h / 2)
    bottom = max(d, dust)                                   # the deepest flap below: the floor, or a dust flap
    x = [0.0]                                               # front, right side, back, left side, glue flap
    for width in (w, d, w, d):
        x.append(x[-1] + width)
    top = bottom + h
    radius = min(spec.thumb_notch, w / 3, h / 3)
    glue = min(spec.glue_flap.depth, w / 2)
    dust_taper = spec.dust_flap.taper
    panels = (
        Panel("front", _notched_top(x[0], bottom, x[1], top, radius)),
        Panel("right_side", _rectangle(x[1], bottom, x[2], top)),
        Panel("back", _rectangle(x[2], bottom, x[3], top)),
        Panel("left_side", _rectangle(x[3], bottom, x[4], top)),
        Panel("glue_flap", _side_flap(x[4], bottom, top, glue, spec.glue_flap.taper)),
        Panel("lid", _rectangle(x[2], top, x[3], top + d)),
        Panel("tuck_flap", _flap(x[2], x[3], top + d, tuck, spec.tuck.taper)),
        Panel("right_dust_flap", _flap(x[1], x[2], top, dust, dust_taper)),
        Panel("left_dust_flap", _flap(x[3], x[4], top, dust, dust_taper)),
        Panel("front_bottom_flap", _flap(x[0], x[1], bottom, -inner[2], spec.glue_flap.taper)),
        Panel("right_bottom_flap", _flap(x[1], x[2], bottom, -dust, dust_taper)),
        Panel("floor", _flap(x[2], x[3], bottom, -d, 0.0)),
        Panel("left_bottom_flap", _flap(x[3], x[4], bottom, -dust, dust_taper)),
    )
    figures = {"card": (deck.width, deck.height), "per_card": per_card, "stack": stack, "allowance": allowance,
               "clearance": (spec.clearance, spec.clearance, spec.depth_clearance), "inner": inner,
               "thumb_notch": radius}
    return _finished(Net("tuck_box", deck, panels, ("glue_flap", "front_bottom_flap"), figures))


def _rectangle(x0: float, y0: float, x1: float, y1: float) -> tuple[Point, ...]:
    """A rectangle by its corners: panels that meet share the very numbers of their edge."""
    return (x0, y0), (x1, y0), (x1, y1), (x0, y1)


def _side_flap(x: float, y0: float, y1: float, depth: float, taper: float) -> tuple[Point, ...]:
    """A flap hinged on the vertical edge x from y0 to y1, reaching ``depth`` to the right."""
    taper = min(taper, (y1 - y0) / 3)
    return (x, y0), (x + depth, y0 + taper), (x + depth, y1 - taper), (x, y1)


def stand(deck: Deck, stock: Stock, spec) -> Net:
    """A stand for one card: a strip as wide as the card, folded into a triangular prism (face,
    back, base) with a shelf and a lip in front of it. From the strip's foot: the lip, the shelf,
    the face, the back, the base, and a glue flap hinged on the base's front end, which folds up
    inside the prism and is glued to the face's inside, so the prism closes exactly at the
    face's foot. The card stands on the shelf, its foot against the lip, leaning back on the face
    at ``stand.angle`` from the table."""
    part = spec.stand
    _, _, per_card = card_room(deck, stock, spec)
    width = deck.width + (spec.sleeve.margin if stock.sleeved else 0)
    angle = math.radians(part.angle)
    face = part.face * deck.height
    shelf = per_card / math.sin(angle) + part.slot        # the card's foot, leaning, with room to spare
    base = part.base * deck.height                          # from the face's foot back to the back's foot
    back = math.hypot(base - face * math.cos(angle), face * math.sin(angle))
    glue = min(part.glue, face / 2)
    panels, y = [], 0.0
    for name, height in (("lip", part.lip), ("shelf", shelf), ("face", face), ("back", back), ("base", base)):
        panels.append(Panel(name, _rectangle(0.0, y, width, y + height)))
        y += height
    panels.append(Panel("glue_flap", _flap(0.0, width, y, glue, spec.glue_flap.taper)))
    figures = {"card": (deck.width, deck.height), "per_card": per_card, "width": width, "shelf": shelf,
               "face": face, "base": base, "back": back, "angle": part.angle, "lip": part.lip}
    return _finished(Net("stand", deck, tuple(panels), ("glue_flap",), figures))


def _key(point: Point) -> tuple[float, float]:
    return round(point[0], 6), round(point[1], 6)


def _finished(net: Net) -> Net:
    """The net with its lines: an edge two panels share is a fold, every other edge is cut; the
    cut edges are joined end to end into the net's outline."""
    edges = [(_key(a), _key(b), a, b) for panel in net.panels
             for a, b in zip(panel.outline, panel.outline[1:] + panel.outline[:1])]
    forward = {(ka, kb) for ka, kb, _, _ in edges}
    folds = tuple((a, b) for ka, kb, a, b in edges if (kb, ka) in forward and ka < kb)
    cut = [(ka, kb, a, b) for ka, kb, a, b in edges if (kb, ka) not in forward]
    return Net(net.kind, net.deck, net.panels, net.glue, net.figures, _chained(cut), folds)


def _chained(edges: list) -> tuple[tuple[Point, ...], ...]:
    """Cut edges joined into polylines, each following on from where the last ended."""
    starting = {}
    for edge in edges:
        starting.setdefault(edge[0], []).append(edge)
    used, lines = set(), []
    for edge in edges:
        if id(edge) in used:
            continue
        line = [edge[2]]
        while edge is not None and id(edge) not in used:
            used.add(id(edge))
            line.append(edge[3])
            edge = next((e for e in starting.get(edge[1], ()) if id(e) not in used), None)
        lines.append(tuple(line))
    return tuple(lines)


def nets(decks: list[Deck], stock: Stock, spec) -> list[Net]:
    """A tuck box for every deck, then a stand for every deck that asks for one."""
    return [tuck_box(deck, stock, spec) for deck in decks] + [stand(deck, stock, spec) for deck in decks if deck.stand]


# --- on paper ----------------------------------------------------------------------------------


@dataclass(frozen=True)
class Piece:
    """One page of a net: the part of the net it shows (in the net as laid, turned or not) and
    where that part's bottom-left corner lies on the page."""

    number: int
    row: int
    col: int
    rows: int
    cols: int
    window: tuple[float, float, float, float]
    at: Point
    turned: bool
    net_height: float            # the net's height before turning

    @property
    def count(self) -> int:
        return self.rows * self.cols

    def matrix(self) -> tuple[float, ...]:
        """The PDF matrix from the net's own points to the page's: turned nets a quarter turn
        counter-clockwise, their foot to the right."""
        dx, dy = self.at[0] - self.window[0], self.at[1] - self.window[1]
        if self.turned:
            return 0.0, 1.0, -1.0, 0.0, self.net_height + dx, dy
        return 1.0, 0.0, 0.0, 1.0, dx, dy

    def laid(self, point: Point) -> Point:
        """A point of the net in the net as laid (turned or not)."""
        return (self.net_height - point[1], point[0]) if self.turned else point

    def unlaid(self, point: Point) -> Point:
        """A point of the net as laid in the net's own points."""
        return (point[1], self.net_height - point[0]) if self.turned else point


def _whole_mm(points: float) -> float:
    return math.floor(points / mm(1) + 1e-9) * mm(1)


def lay_out(net: Net, area: tuple[float, float, float, float], tiling) -> list[Piece]:
    """The net on sheets whose printable ``area`` (x, y, width, height on the page) is given:
    whole and centred, upright or else turned a quarter; otherwise in pieces of whole
    millimetres overlapping by ``tiling.overlap``, ``tiling.mark`` inside the area (room for the
    cut ticks), upright or turned, whichever needs fewer sheets (upright on a tie), and no more
    than ``tiling.max_pieces``."""
    overlap, edge = tiling.overlap, tiling.mark
    width, height = net.size
    ax, ay, aw, ah = area
    for turned, (w, h) in ((False, (width, height)), (True, (height, width))):
        if w <= aw + 1e-6 and h <= ah + 1e-6:
            return [Piece(1, 0, 0, 1, 1, (0.0, 0.0, w, h), (ax + (aw - w) / 2, ay + (ah - h) / 2), turned, height)]
    ax, ay, aw, ah = ax + edge, ay + edge, aw - 2 * edge, ah - 2 * edge
    overlap = round(overlap / mm(1)) * mm(1)
    cw, ch = _whole_mm(aw), _whole_mm(ah)
    if min(cw, ch) <= 2 * overlap:
        raise KitgenError("the paper is too small to print the box on, even in pieces; choose a larger --paper")
    best = None
    for turned, (w, h) in ((False, (width, height)), (True, (height, width))):
        cols = max(1, math.ceil((w - overlap) / (cw - overlap) - 1e-9))
        rows = max(1, math.ceil((h - overlap) / (ch - overlap) - 1e-9))
        if best is None or cols * rows < best[0]:
            best = (cols * rows, cols, rows, turned, h)
    _, cols, rows, turned, laid_height = best
    if cols * rows > tiling.max_pieces:
        raise KitgenError(f"the box of {net.deck.title!r} would take {cols * rows} pieces of this paper, more than "
                          f"box.tiling.max_pieces ({tiling.max_pieces:g}); choose a larger --paper")
    pieces = []
    for row in range(rows):
        for col in range(cols):
            x0 = col * (cw - overlap)
            y0 = laid_height - row * (ch - overlap) - ch      # rows run from the net's top
            pieces.append(Piece(len(pieces) + 1, row, col, rows, cols, (x0, y0, cw, ch), (ax, ay + ah - ch),
                                turned, height))
    return pieces


def overlaps(pieces: list[Piece], overlap: float) -> list[tuple[Point, Point]]:
    """The centre line of every overlap between neighbouring pieces, in the net as laid."""
    overlap = round(overlap / mm(1)) * mm(1)
    lines = []
    for piece in pieces:
        x0, y0, w, h = piece.window
        if piece.col + 1 < piece.cols:                # with the piece to the right
            lines.append(((x0 + w - overlap / 2, y0), (x0 + w - overlap / 2, y0 + h)))
        if piece.row + 1 < piece.rows:                # with the piece below
            lines.append(((x0, y0 + overlap / 2), (x0 + w, y0 + overlap / 2)))
    return lines


def alignment_marks(net: Net, pieces: list[Piece], overlap: float, arm: float) -> list[Point]:
    """Three marks along the middle of every overlap, in the net as laid: where they can lie
    off the net (clear of every panel by their arm), else wherever the overlap runs. Both
    pieces print them, so they meet when the pieces are laid on each other."""
    if len(pieces) < 2:
        return []
    first = pieces[0]
    laid = [[first.laid(p) for p in panel.outline] for panel in net.panels]
    width, height = (net.size[1], net.size[0]) if first.turned else net.size
    marks = []
    for (x0, y0), (x1, y1) in overlaps(pieces, overlap):
        x0, x1 = max(x0, 0.0), min(x1, width)
        y0, y1 = max(y0, 0.0), min(y1, height)
        along = [(x0 + (x1 - x0) * k / MARK_STEPS, y0 + (y1 - y0) * k / MARK_STEPS) for k in range(1, MARK_STEPS)]
        free = [p for p in along if all(_clear(p, outline, arm) for outline in laid)]
        marks += _spread(free if len(free) >= 2 else along)
    return sorted(set(marks))


def _spread(points: list[Point]) -> list[Point]:
    """The first, middle and last of ``points``."""
    return [points[i] for i in sorted({0, len(points) // 2, len(points) - 1})] if points else []


def _clear(point: Point, outline: list[Point], distance: float) -> bool:
    """The point lies outside the polygon, at least ``distance`` from its edges."""
    return not inside(point, outline) and all(
        _to_segment(point, a, b) >= distance for a, b in zip(outline, outline[1:] + outline[:1]))


def inside(point: Point, outline) -> bool:
    """Even-odd test of a point against a polygon."""
    x, y = point
    result = False
    for (x0, y0), (x1, y1) in zip(outline, list(outline[1:]) + list(outline[:1])):
        if (y0 > y) != (y1 > y) and x < x0 + (y - y0) * (x1 - x0) / (y1 - y0):
            result = not result
    return result


def _to_segment(point: Point, a: Point, b: Point) -> float:
    (px, py), (ax, ay), (bx, by) = point, a, b
    dx, dy = bx - ax, by - ay
    t = 0.0 if dx == dy == 0 else max(0.0, min(1.0, ((px - ax) * dx + (py - ay) * dy) / (dx * dx + dy * dy)))
    return math.hypot(px - ax - t * dx, py - ay - t * dy)
