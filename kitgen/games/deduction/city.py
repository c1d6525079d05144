"""The city map as a graph: locations joined by roads, checked and placed
(docs/design.md §10.2).

A map must be connected and drawable without crossings. Positions a theme gives
(``at``, 0 to 1 from the map's top-left) are kept and their straight roads must
not cross; locations without one are placed by networkx: a force layout started
from a planar embedding, kept only if no roads cross, else the planar
embedding itself. Positions are rounded to 0.001 so the drawing does not depend on
the last bits of floating point."""

from dataclasses import dataclass

MARGIN = 0.08          # placed positions keep this far from the map's edges
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


def place(names, roads, given: dict[int, tuple[float, float]]) -> tuple[tuple[float, float], ...] | None:
    """Positions for every location: ``given`` ones kept, the others placed so that no roads
    cross. None when the locations without a position cannot be placed that way."""
    import networkx as nx

    count = len(names)
    if len(given) == count:
        return _rounded(given, count)
    graph = _graph(count, roads)
    planar = _rescale(nx.planar_layout(graph))
    if given:
        start = _similarity(planar, given)              # the planar drawing laid on the positions given
        start.update(given)
        layout = nx.spring_layout(graph, pos=start, fixed=sorted(given), seed=7, iterations=100)
        candidates = [layout, start]
    else:
        candidates = [_rescale(nx.spring_layout(graph, pos=planar, seed=7, iterations=100)), planar]
    for candidate in candidates:
        positions = _rounded(candidate, count)
        if all(0 <= v <= 1 for p in positions for v in p) and not crossings(positions, roads):
            return positions
    return None
