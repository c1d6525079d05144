"""The emblem of each deck, so that decks and tiles are told apart without colour:
a head and shoulders for suspects, a magnifying glass for crimes, a map pin for
locations, a sheet of notes for evidence, and a shape per player colour on tokens
(docs/design.md §10.6)."""

import math

from kitgen.render import paint

KINDS = ("suspects", "crimes", "locations")
PLAYER_SHAPES = ("circle", "triangle", "square", "diamond", "star")


def emblem(c, kind: str, box, fill):
    """The deck's emblem centred in ``box`` (x, y, w, h)."""
    x, y, w, h = box
    s = min(w, h)
    cx, cy = x + w / 2, y + h / 2
    c.saveState()
    c.setFillColor(fill)
    c.setStrokeColor(fill)
    if kind == "suspects":
        c.circle(cx, cy + s * 0.18, s * 0.2, stroke=0, fill=1)
        path = c.beginPath()
        path.moveTo(cx - s * 0.38, cy - s * 0.42)
        path.curveTo(cx - s * 0.38, cy - s * 0.02, cx + s * 0.38, cy - s * 0.02, cx + s * 0.38, cy - s * 0.42)
        path.close()
        c.drawPath(path, stroke=0, fill=1)
    elif kind == "crimes":
        c.setLineWidth(s * 0.1)
        c.setLineCap(1)
        c.circle(cx - s * 0.08, cy + s * 0.08, s * 0.24, stroke=1, fill=0)
        c.line(cx + s * 0.1, cy - s * 0.1, cx + s * 0.38, cy - s * 0.38)
    elif kind == "locations":
        path = c.beginPath()
        r = s * 0.26
        top = cy + s * 0.12
        path.moveTo(cx, cy - s * 0.44)
        path.curveTo(cx - r * 0.5, cy - s * 0.2, cx - r * 1.2, top - r * 0.6, cx - r, top)
        path.curveTo(cx - r, top + r * 1.35, cx + r, top + r * 1.35, cx + r, top)
        path.curveTo(cx + r * 1.2, top - r * 0.6, cx + r * 0.5, cy - s * 0.2, cx, cy - s * 0.44)
        path.close()
        c.drawPath(path, stroke=0, fill=1)
    elif kind == "evidence":                # a sheet of notes, its corner turned down
        left, right, bottom, top = cx - s * 0.3, cx + s * 0.3, cy - s * 0.4, cy + s * 0.4
        fold = s * 0.18
        path = c.beginPath()
        path.moveTo(left, bottom)
        path.lineTo(right, bottom)
        path.lineTo(right, top - fold)
        path.lineTo(right - fold, top)
        path.lineTo(left, top)
        path.close()
        c.setLineWidth(s * 0.07)
        c.setLineJoin(1)
        c.drawPath(path, stroke=1, fill=0)
        c.setLineCap(1)
        for n in range(3):
            y = cy + s * (0.12 - 0.17 * n)
            c.line(left + s * 0.12, y, right - s * 0.12, y)
        c.line(right - fold, top, right - fold, top - fold)
        c.line(right - fold, top - fold, right, top - fold)
    else:
        raise ValueError(f"no emblem for {kind!r}")
    c.restoreState()


def player_shape(c, player: int, cx: float, cy: float, size: float, fill):
    """Player ``player``'s shape (1-based), ``size`` across, centred on (cx, cy)."""
    shape = PLAYER_SHAPES[(player - 1) % len(PLAYER_SHAPES)]
    r = size / 2
    c.saveState()
    c.setFillColor(fill)
    if shape == "circle":
        c.circle(cx, cy, r * 0.85, stroke=0, fill=1)
    else:
        if shape == "triangle":
            points = [(cx + r * math.cos(math.radians(90 + 120 * i)),
                       cy - r * 0.15 + r * math.sin(math.radians(90 + 120 * i))) for i in range(3)]
        elif shape == "square":
            q = r * 0.78
            points = [(cx - q, cy - q), (cx + q, cy - q), (cx + q, cy + q), (cx - q, cy + q)]
        elif shape == "diamond":
            points = [(cx, cy + r), (cx + r * 0.75, cy), (cx, cy - r), (cx - r * 0.75, cy)]
        else:                                   # star: five points
            points = [(cx + (r if i % 2 == 0 else r * 0.45) * math.cos(math.radians(90 + 36 * i)),
                       cy + (r if i % 2 == 0 else r * 0.45) * math.sin(math.radians(90 + 36 * i))) for i in range(10)]
        c.drawPath(paint.closed_path(c, points), stroke=0, fill=1)
    c.restoreState()
