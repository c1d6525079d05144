"""Small drawing verbs shared by every component: colours and boxes."""

from reportlab.lib.colors import CMYKColor, Color


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


def closed_path(c, points):
    """A closed outline through ``points``, straight from each to the next, to draw or clip with."""
    path = c.beginPath()
    path.moveTo(*points[0])
    for point in points[1:]:
        path.lineTo(*point)
    path.close()
    return path


def polygon(c, points, fill=None, stroke=None, width: float = 0.0):
    """A polygon filled with ``fill`` and/or outlined in ``stroke`` (round joins), in its own
    graphics state."""
    path = closed_path(c, points)
    c.saveState()
    if fill is not None:
        c.setFillColor(fill)
    if stroke is not None:
        c.setStrokeColor(stroke)
        c.setLineWidth(width)
        c.setLineJoin(1)
    c.drawPath(path, stroke=int(stroke is not None), fill=int(fill is not None))
    c.restoreState()
