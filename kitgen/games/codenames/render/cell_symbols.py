"""The cell types of a key drawn as their shapes (kitgen/games/codenames/symbols.py) in
their layout colours: on key cards, lights, tiles, the rules legend."""

from kitgen.games.codenames import symbols
from kitgen.render.paint import colour

TYPE_NAMES = {"R": "red", "B": "blue", "N": "bystander", "A": "assassin", "G": "green"}


def symbol(c, kind: str, cx: float, cy: float, size: float, fill):
    """The shape of a cell type, centred on (cx, cy), ``size`` across."""
    half = size / 2
    c.setFillColor(fill)
    c.setStrokeColor(fill)
    if kind in "RG":                # a disc: a team's agent, or the duet edition's green agent
        c.circle(cx, cy, half * symbols.DISC_RADIUS, stroke=0, fill=1)
    elif kind == "B":
        s = half * symbols.SQUARE_HALF
        c.rect(cx - s, cy - s, 2 * s, 2 * s, stroke=0, fill=1)
    elif kind == "N":
        h = half * symbols.BAR_HALF_HEIGHT
        c.rect(cx - half, cy - h, size, 2 * h, stroke=0, fill=1)
    elif kind == "A":
        c.setLineWidth(2 * half * symbols.CROSS_HALF_WIDTH)
        c.setLineCap(0)
        d = half * symbols.CROSS_REACH
        c.line(cx - d, cy - d, cx + d, cy + d)
        c.line(cx - d, cy + d, cx + d, cy - d)
    else:
        raise ValueError(f"unknown cell type {kind!r}")


def type_colours(layout, kind: str):
    """(fill, symbol colour) of a cell type."""
    style = layout.types[TYPE_NAMES[kind]]
    return colour(layout, style.colour), colour(layout, style.symbol_colour)
