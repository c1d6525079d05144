"""The town between the board's streets (docs/design.md §10.6): houses along each street, and
water and parks where the map leaves room. Pure geometry in board points, from the theme's
seed and the locations' positions only, so the same theme always gets the same town; nothing
here lies under a location's box, a street or outside the map (tests/test_deduction_board.py
checks the shapes against the boxes and streets)."""

import math
from dataclasses import dataclass

from kitgen import seeded

PURPOSE = b"kitgen/deduction-town/v1"


@dataclass(frozen=True)
class Shape:
    kind: str                                   # "water" or "park"
    centre: tuple[float, float]
    radius: float                               # every point of the outline lies within this of the centre
    outline: tuple[tuple[float, float], ...]    # a closed polygon


@dataclass(frozen=True)
class Town:
    streets: tuple[tuple[tuple[float, float], tuple[float, float]], ...]
    boxes: tuple[tuple[float, float, float, float], ...]     # the locations' boxes (x, y, w, h)
    houses: tuple[tuple[tuple[float, float], ...], ...]      # each a rectangle's four corners
    shapes: tuple[Shape, ...]


class _Random:
    def __init__(self, seed: str, label: str):
        self.stream = seeded.Stream(seeded.secret(PURPOSE, seed), label)

    def uniform(self, low: float, high: float) -> float:
        return low + (high - low) * self.stream.below(1 << 20) / (1 << 20)


def segment_distance(p, a, b) -> float:
    """From point ``p`` to the segment a-b."""
    ax, ay = a
    dx, dy = b[0] - ax, b[1] - ay
    length = dx * dx + dy * dy
    t = 0.0 if not length else max(0.0, min(1.0, ((p[0] - ax) * dx + (p[1] - ay) * dy) / length))
    return math.hypot(p[0] - ax - t * dx, p[1] - ay - t * dy)


def box_distance(p, box) -> float:
    """From point ``p`` to the rectangle ``box`` (0 inside it)."""
    x, y, w, h = box
    dx = max(x - p[0], 0.0, p[0] - x - w)
    dy = max(y - p[1], 0.0, p[1] - y - h)
    return math.hypot(dx, dy)


def _segments_cross(p1, p2, p3, p4) -> bool:
    def orient(a, b, c):
        return (b[0] - a[0]) * (c[1] - a[1]) - (b[1] - a[1]) * (c[0] - a[0])

    d1, d2, d3, d4 = orient(p3, p4, p1), orient(p3, p4, p2), orient(p1, p2, p3), orient(p1, p2, p4)
    return (d1 > 0) != (d2 > 0) and (d3 > 0) != (d4 > 0)


def segments_distance(a, b, c, d) -> float:
    """Between the segments a-b and c-d."""
    if _segments_cross(a, b, c, d):
        return 0.0
    return min(segment_distance(a, c, d), segment_distance(b, c, d), segment_distance(c, a, b),
               segment_distance(d, a, b))


def inside_polygon(p, polygon) -> bool:
    x, y = p
    inside = False
    for (x1, y1), (x2, y2) in zip(polygon, polygon[1:] + polygon[:1]):
        if (y1 > y) != (y2 > y) and x < x1 + (y - y1) * (x2 - x1) / (y2 - y1):
            inside = not inside
    return inside


def polygon_segment_distance(polygon, a, b) -> float:
    """Between a closed polygon (its area) and the segment a-b: 0 where they touch."""
    if inside_polygon(a, polygon) or inside_polygon(b, polygon):
        return 0.0
    return min(segments_distance(p, q, a, b) for p, q in zip(polygon, polygon[1:] + polygon[:1]))


def polygon_box_distance(polygon, box) -> float:
    """Between a closed polygon and a rectangle (their areas): 0 where they overlap."""
    x, y, w, h = box
    corners = ((x, y), (x + w, y), (x + w, y + h), (x, y + h))
    if any(inside_polygon(c, polygon) for c in corners) or any(box_distance(p, box) == 0 for p in polygon):
        return 0.0
    return min(polygon_segment_distance(polygon, a, b) for a, b in zip(corners, corners[1:] + corners[:1]))


def build(seed: str, streets, boxes, map_box, road_width: float, spec) -> Town:
    """The town of a board: ``streets`` (centre to centre), ``boxes`` the locations', ``map_box``
    the area it lies in, ``road_width`` a street's width with its kerbs; ``spec`` layout board.town."""
    streets, boxes = tuple(streets), tuple(boxes)
    half = road_width / 2
    shapes = _shapes(seed, streets, boxes, map_box, half, spec)
    houses = _houses(seed, streets, boxes, map_box, half, shapes, spec.houses, spec.clearance)
    return Town(streets, boxes, houses, shapes)


def _clearance(p, streets, boxes, map_box, half: float, shapes) -> float:
    """How far ``p`` lies from every street's edge, box, shape and the map's edge."""
    mx, my, mw, mh = map_box
    room = min(p[0] - mx, mx + mw - p[0], p[1] - my, my + mh - p[1])
    for a, b in streets:
        room = min(room, segment_distance(p, a, b) - half)
    for box in boxes:
        room = min(room, box_distance(p, box) if box_distance(p, box) > 0 else -1.0)
    for shape in shapes:
        room = min(room, math.hypot(p[0] - shape.centre[0], p[1] - shape.centre[1]) - shape.radius)
    return room


def _shapes(seed, streets, boxes, map_box, half, spec) -> tuple[Shape, ...]:
    """Greedily, the largest free circle left, as long as it is at least ``min_radius``: a lake or a
    park inside it, ``clearance`` short of its edge. Found on a grid of 3 mm, so it is exact to the
    grid; the outline stays inside the circle, so it never reaches a street, a box or the map's edge."""
    mm = 72 / 25.4
    mx, my, mw, mh = map_box
    step = 3 * mm
    grid = [(mx + step * (i + 0.5), my + step * (j + 0.5))
            for i in range(int(mw / step)) for j in range(int(mh / step))]
    base = {p: _clearance(p, streets, boxes, map_box, half, ()) for p in grid}
    random = _Random(seed, "shapes")
    shapes: list[Shape] = []
    kinds = ("water", "park")
    first = int(random.uniform(0, 2))
    for n in range(int(spec.shapes)):
        best, room = None, 0.0
        for p in grid:
            r = base[p]
            for shape in shapes:
                r = min(r, math.hypot(p[0] - shape.centre[0], p[1] - shape.centre[1]) - shape.radius)
            if r > room:
                best, room = p, r
        radius = min(room, spec.max_radius) - spec.clearance
        if best is None or radius < spec.min_radius:
            break
        # the circle kept is the outline's and its clearance: later shapes and houses keep off it
        shapes.append(Shape(kinds[(first + n) % 2], best, radius + spec.clearance, _blob(random, best, radius)))
    return tuple(shapes)


def _blob(random, centre, radius: float, points: int = 36) -> tuple[tuple[float, float], ...]:
    """A rounded, irregular outline: an ellipse, turned, its radius waved by three seeded harmonics,
    every point within ``radius`` of the centre."""
    cx, cy = centre
    turn = random.uniform(0, math.pi)
    squash = random.uniform(0.62, 0.9)
    waves = [(random.uniform(0.03, 0.08), k, random.uniform(0, 2 * math.pi)) for k in (2, 3, 5)]
    peak = 1 + sum(a for a, _, _ in waves)
    out = []
    for i in range(points):
        t = 2 * math.pi * i / points
        wave = 1 + sum(a * math.sin(k * t + phase) for a, k, phase in waves)
        r = radius * wave / peak
        ex, ey = r * math.cos(t), r * squash * math.sin(t)
        out.append((round(cx + ex * math.cos(turn) - ey * math.sin(turn), 3),
                    round(cy + ex * math.sin(turn) + ey * math.cos(turn), 3)))
    return tuple(out)


def _houses(seed, streets, boxes, map_box, half, shapes, spec, clearance) -> tuple:
    """Rows of houses along both sides of each street, ``setback`` from its kerb, of seeded
    lengths and depths; a house is kept only when it is clear of every street, box, shape, other
    house and the map's edge."""
    random = _Random(seed, "houses")
    kept: list[tuple] = []
    mx, my, mw, mh = map_box
    for a, b in streets:
        dx, dy = b[0] - a[0], b[1] - a[1]
        length = math.hypot(dx, dy)
        if not length:
            continue
        ux, uy = dx / length, dy / length
        for side in (1, -1):
            nx, ny = -uy * side, ux * side
            t = spec.gap
            while t < length:
                long_ = random.uniform(*spec.length)
                deep = random.uniform(*spec.depth)
                near = half + spec.setback
                corners = []
                for along, out in ((t, near), (t + long_, near), (t + long_, near + deep), (t, near + deep)):
                    corners.append((a[0] + ux * along + nx * out, a[1] + uy * along + ny * out))
                t += long_ + spec.gap
                if _house_fits(corners, streets, boxes, map_box, half, shapes, kept, spec.gap, clearance):
                    kept.append(tuple((round(x, 3), round(y, 3)) for x, y in corners))
    return tuple(kept)


def _house_fits(corners, streets, boxes, map_box, half, shapes, kept, gap, clearance) -> bool:
    mx, my, mw, mh = map_box
    if not all(mx <= x <= mx + mw and my <= y <= my + mh for x, y in corners):
        return False
    for a, b in streets:
        if polygon_segment_distance(list(corners), a, b) < half + 0.5:
            return False
    for box in boxes:
        if polygon_box_distance(list(corners), box) < clearance:
            return False
    cx = sum(x for x, _ in corners) / 4
    cy = sum(y for _, y in corners) / 4
    reach = max(math.hypot(x - cx, y - cy) for x, y in corners)
    for shape in shapes:
        if math.hypot(cx - shape.centre[0], cy - shape.centre[1]) < shape.radius + reach:
            return False
    for other in kept:
        ox = sum(x for x, _ in other) / 4
        oy = sum(y for _, y in other) / 4
        if math.hypot(cx - ox, cy - oy) > reach * 2 + gap:
            continue
        if any(inside_polygon(p, list(other)) for p in corners) or any(inside_polygon(p, list(corners)) for p in other):
            return False
        if min(segments_distance(p, q, r, s) for p, q in zip(corners, corners[1:] + corners[:1])
               for r, s in zip(other, other[1:] + other[:1])) < gap * 0.5:
            return False
    return True
