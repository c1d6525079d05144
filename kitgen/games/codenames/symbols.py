"""The shapes that tell key-cell types apart without colour, as geometry.

Drawing (render/cell_symbols.py) and reading (verify.py) both use these numbers, in
units of the symbol's half size, centred on the symbol:
red a disc, blue a square, bystander a bar, assassin a cross; the duet edition's green agent
a disc, as red's (no duet key has red cells)."""

import math

DISC_RADIUS = 0.78
SQUARE_HALF = 0.92          # twice the disc's area: the two stay apart even in a blurred grey scan
BAR_HALF_HEIGHT = 0.28
CROSS_REACH = 0.8           # each stroke runs from (-r, -r) to (r, r)
CROSS_HALF_WIDTH = 0.26

KINDS = "RBNA"
DUET_KINDS = "GNA"


def covers(kind: str, x: float, y: float) -> bool:
    """Whether the symbol of ``kind`` covers the point (x, y)."""
    if kind in "RG":
        return x * x + y * y <= DISC_RADIUS * DISC_RADIUS
    if kind == "B":
        return abs(x) <= SQUARE_HALF and abs(y) <= SQUARE_HALF
    if kind == "N":
        return abs(x) <= 1.0 and abs(y) <= BAR_HALF_HEIGHT
    if kind == "A":
        reach = CROSS_REACH * math.sqrt(2)
        along_a, across_a = (x + y) / math.sqrt(2), (x - y) / math.sqrt(2)
        return ((abs(across_a) <= CROSS_HALF_WIDTH and abs(along_a) <= reach)
                or (abs(along_a) <= CROSS_HALF_WIDTH and abs(across_a) <= reach))
    raise ValueError(f"unknown cell type {kind!r}")
