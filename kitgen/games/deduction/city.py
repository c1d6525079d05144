"""The city map as a graph: locations joined by roads, checked and placed
(docs/design.md §10.2).

A map must be connected and drawable without crossings. Positions a theme gives
(``at``, 0 to 1 from the map's top-left) are kept and their straight roads must
not cross; locations without one are placed by networkx: a force layout started
from a planar embedding, kept only if no roads cross, else the planar
embedding itself. Positions are rounded to 0.001 so the drawing does not depend on
the last bits of floating point."""

import itertools
from dataclasses import dataclass

MARGIN = 0.02          # placed positions keep this far from the map's edges
MIN_GAP = 0.06         # a road may not pass closer than this to a third location


@dataclass(frozen=True)
class Map:
    names: tuple[str, ...]
    roads: tuple[tuple[int, int], ...]            # location indices, smaller first, sorted
    positions: tuple[tuple[float, float], ...]    # 0..1 from the map's top-left

    def neighbours(self, index: int) -> tuple[int, ...]:
        """The locations one road away, in theme order."""
        return tuple(sorted({b if a == index else a for a, b in self.roads if index in (a, b)}))

    def degree(self, index: int) -> int:
        return len(self.neighbours(index))


def _graph(count: int, roads):
    import networkx as nx

    graph = nx.Graph()
    graph.add_nodes_from(range(count))
    graph.add_edges_from(roads)
    return graph


def is_connected(count: int, roads) -> bool:
    import networkx as nx

    return nx.is_connected(_graph(count, roads))


def is_planar(count: int, roads) -> bool:
    import networkx as nx

    return nx.check_planarity(_graph(count, roads))[0]


def _cross(p1, p2, p3, p4) -> bool:
    """Whether segments p1-p2 and p3-p4 cross at a point inside both."""
    def orient(a, b, c):
        value = (b[0] - a[0]) * (c[1] - a[1]) - (b[1] - a[1]) * (c[0] - a[0])
        return 0 if abs(value) < 1e-12 else (1 if value > 0 else -1)

    d1, d2, d3, d4 = orient(p3, p4, p1), orient(p3, p4, p2), orient(p1, p2, p3), orient(p1, p2, p4)
    if d1 != d2 and d3 != d4 and 0 not in (d1, d2, d3, d4):
        return True
    return False


def _distance_to_segment(p, a, b) -> float:
    ax, ay = a
    bx, by = b
    dx, dy = bx - ax, by - ay
    length = dx * dx + dy * dy
    t = 0.0 if not length else max(0.0, min(1.0, ((p[0] - ax) * dx + (p[1] - ay) * dy) / length))
    return ((p[0] - ax - t * dx) ** 2 + (p[1] - ay - t * dy) ** 2) ** 0.5


def crossings(positions, roads) -> list[tuple[tuple[int, int], tuple[int, int]]]:
    """Pairs of roads that cross when drawn straight between ``positions``."""
    found = []
    for i, (a, b) in enumerate(roads):
        for c, d in roads[i + 1:]:
            if len({a, b, c, d}) == 4 and _cross(positions[a], positions[b], positions[c], positions[d]):
                found.append(((a, b), (c, d)))
    return found


def grazes(positions, roads) -> list[tuple[tuple[int, int], int]]:
    """Roads that pass closer than MIN_GAP to a location they do not join."""
    found = []
    for a, b in roads:
        for k, p in enumerate(positions):
            if k not in (a, b) and _distance_to_segment(p, positions[a], positions[b]) < MIN_GAP:
                found.append(((a, b), k))
    return found


def _rescale(positions: dict) -> dict:
    xs = [p[0] for p in positions.values()]
    ys = [p[1] for p in positions.values()]
    span = max(max(xs) - min(xs), max(ys) - min(ys)) or 1.0
    scale = (1 - 2 * MARGIN) / span
    ox = MARGIN + ((1 - 2 * MARGIN) - (max(xs) - min(xs)) * scale) / 2
    oy = MARGIN + ((1 - 2 * MARGIN) - (max(ys) - min(ys)) * scale) / 2
    return {k: (ox + (x - min(xs)) * scale, oy + (y - min(ys)) * scale) for k, (x, y) in positions.items()}


def _rounded(positions: dict, count: int) -> tuple[tuple[float, float], ...]:
    return tuple((round(float(positions[i][0]), 3), round(float(positions[i][1]), 3)) for i in range(count))


def _similarity(source: dict, target: dict) -> dict:
    """``source`` moved, turned and scaled as a whole so that its points of ``target`` fall on
    those (least squares): a planar drawing stays planar."""
    keys = list(target)
    if not keys:
        return dict(source)
    sx = sum(source[k][0] for k in keys) / len(keys)
    sy = sum(source[k][1] for k in keys) / len(keys)
    tx = sum(target[k][0] for k in keys) / len(keys)
    ty = sum(target[k][1] for k in keys) / len(keys)
    a = b = norm = 0.0
    for k in keys:
        px, py = source[k][0] - sx, source[k][1] - sy
        qx, qy = target[k][0] - tx, target[k][1] - ty
        a += px * qx + py * qy
        b += px * qy - py * qx
        norm += px * px + py * py
    if norm == 0:                                   # one anchor: keep the drawing's size, move it there
        a, b, norm = 0.5, 0.0, 1.0
    a, b = a / norm, b / norm
    return {k: (tx + a * (x - sx) - b * (y - sy), ty + b * (x - sx) + a * (y - sy)) for k, (x, y) in source.items()}


def _segment_hits_box(a, b, box) -> bool:
    """Whether segment a-b passes through the rectangle box = (x0, y0, x1, y1)."""
    x0, y0, x1, y1 = box
    (ax, ay), (bx, by) = a, b
    t0, t1 = 0.0, 1.0
    for p, q in ((-(bx - ax), ax - x0), (bx - ax, x1 - ax), (-(by - ay), ay - y0), (by - ay, y1 - ay)):
        if p == 0:
            if q < 0:
                return False
            continue
        t = q / p
        if p < 0:
            t0 = max(t0, t)
        else:
            t1 = min(t1, t)
        if t0 > t1:
            return False
    return True


def overlaps(positions, box) -> list[tuple[int, int]]:
    """Pairs of locations whose boxes (``box`` = width, height around each position) overlap (boxes
    that only touch, as on a full board, do not)."""
    w, h = box
    return [(i, j) for i in range(len(positions)) for j in range(i)
            if abs(positions[i][0] - positions[j][0]) < w - 1e-9 and abs(positions[i][1] - positions[j][1]) < h - 1e-9]


def under_boxes(positions, roads, box) -> list[tuple[tuple[int, int], int]]:
    """Roads that pass under the box of a location they do not join."""
    w, h = box
    found = []
    for a, b in roads:
        for k, (x, y) in enumerate(positions):
            if k not in (a, b) and _segment_hits_box(positions[a], positions[b], (x - w / 2, y - h / 2, x + w / 2,
                                                                                    y + h / 2)):
                found.append(((a, b), k))
    return found


def _spread(positions: dict, fixed: set, box, rounds: int = 300) -> dict:
    """Push overlapping boxes apart (the shorter way), keeping fixed ones and 0..1."""
    w, h = box
    pos = {k: list(v) for k, v in positions.items()}
    keys = sorted(pos)
    for _ in range(rounds):
        moved = False
        for i in keys:
            for j in keys:
                if j <= i:
                    continue
                dx, dy = pos[j][0] - pos[i][0], pos[j][1] - pos[i][1]
                ox, oy = w - abs(dx), h - abs(dy)
                if ox <= 0 or oy <= 0:
                    continue
                moved = True
                axis, need, sign = (0, ox, 1 if dx >= 0 else -1) if ox / w < oy / h else (1, oy, 1 if dy >= 0 else -1)
                share = [0.0 if k in fixed else 1.0 for k in (i, j)]
                if not sum(share):
                    continue
                step = (need + 1e-3) / sum(share)
                pos[i][axis] -= sign * step * share[0]
                pos[j][axis] += sign * step * share[1]
        for k in keys:
            if k not in fixed:
                pos[k] = [min(1.0, max(0.0, v)) for v in pos[k]]
        if not moved:
            break
    return {k: tuple(v) for k, v in pos.items()}


def _snapped(positions: dict, fixed: set, box) -> dict:
    """Each location moved to the nearest free point of a grid spaced wider than a box (the
    closest pairs first): boxes on a grid never overlap."""
    cols, rows = max(2, int(1 / (box[0] * 1.1)) + 1), max(2, int(1 / (box[1] * 1.1)) + 1)
    grid = [(c / (cols - 1), r / (rows - 1)) for r in range(rows) for c in range(cols)]
    out = {k: positions[k] for k in fixed}
    free = [g for g in grid if all(abs(g[0] - v[0]) >= box[0] or abs(g[1] - v[1]) >= box[1] for v in out.values())]
    wanted = sorted(((positions[k][0] - g[0]) ** 2 + (positions[k][1] - g[1]) ** 2, k, g)
                    for k in positions if k not in fixed for g in free)
    for _, k, g in wanted:
        if k not in out and g in free:
            out[k] = g
            free.remove(g)
    return out if len(out) == len(positions) else dict(positions)


def _fits(positions, roads, box) -> bool:
    if not all(0 <= v <= 1 for p in positions for v in p) or crossings(positions, roads):
        return False
    return box is None or not (overlaps(positions, box) or under_boxes(positions, roads, box))


def place(names, roads, given: dict[int, tuple[float, float]], box=None) -> tuple[tuple[float, float], ...] | None:
    """Positions for every location: ``given`` ones kept, the others placed so that no roads
    cross and, with ``box`` (a location's width and height, in the same units as positions),
    no boxes overlap and no road passes under a box. None when that cannot be done."""
    import networkx as nx

    count = len(names)
    if len(given) == count:
        return _rounded(given, count)
    graph = _graph(count, roads)
    planar = _rescale(nx.planar_layout(graph))
    if given:
        start = _similarity(planar, given)              # the planar drawing laid on the positions given
        start.update(given)
        seeds = [(start, False)]
    else:
        start, seeds = planar, [(planar, True)]
    for strength, seed in itertools.product((None, 0.15, 0.3, 0.6), range(1, 11)):
        # force layouts from the planar start, at a few spacings and seeds: the first that fits is kept
        layout = nx.spring_layout(graph, pos=start, fixed=sorted(given) or None, seed=seed, iterations=150,
                                  k=strength)
        seeds.append((layout, not given))
    for candidate, rescale in seeds:
        candidate = _rescale(candidate) if rescale else candidate
        tries = [candidate] + ([_spread(candidate, set(given), (box[0] * 1.06, box[1] * 1.06)),
                                _snapped(candidate, set(given), box)] if box else [])
        for tried in tries:
            positions = _rounded(tried, count)
            if _fits(positions, roads, box):
                return positions
    return None
