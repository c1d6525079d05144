"""Small drawing verbs shared by the components: colours, boxes, type symbols."""

from reportlab.lib.colors import CMYKColor, Color

from kitgen.games.codenames import symbols

TYPE_NAMES = {"R": "red", "B": "blue", "N": "bystander", "A": "assassin"}


def is_cmyk(layout) -> bool:
    return layout.get("colour_mode") == "cmyk"


def to_cmyk(c) -> CMYKColor:
    """Any reportlab colour as CMYK (for pictures that come in RGB)."""
    if isinstance(c, CMYKColor):
        return c
    r, g, b = c.red, c.green, c.blue
    k = 1 - max(r, g, b)
    if k >= 1:
        return CMYKColor(0, 0, 0, 1)
    return CMYKColor((1 - r - k) / (1 - k), (1 - g - k) / (1 - k), (1 - b - k) / (1 - k), k)


def colour(layout, name: str):
    """A named layout colour as a reportlab colour: its CMYK values in CMYK mode."""
    if is_cmyk(layout):
        return CMYKColor(*layout.colours[name].cmyk)
    hexa = layout.colours[name].rgb.lstrip("#")
    r, g, b = (int(hexa[i:i + 2], 16) / 255 for i in (0, 2, 4))
    return Color(r, g, b)


def fill_box(c, box, fill, radius: float = 0.0):
    x, y, w, h = box
    c.setFillColor(fill)
    if radius:
        c.roundRect(x, y, w, h, radius, stroke=0, fill=1)
    else:
        c.rect(x, y, w, h, stroke=0, fill=1)


def stroke_box(c, box, stroke, width: float, radius: float = 0.0):
    x, y, w, h = box
    c.setStrokeColor(stroke)
    c.setLineWidth(width)
    if radius:
        c.roundRect(x, y, w, h, radius, stroke=1, fill=0)
    else:
        c.rect(x, y, w, h, stroke=1, fill=0)


def symbol(c, kind: str, cx: float, cy: float, size: float, fill):
    """The shape of a cell type (kitgen/symbols.py), centred on (cx, cy), ``size`` across."""
    half = size / 2
    c.setFillColor(fill)
    c.setStrokeColor(fill)
    if kind == "R":
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
