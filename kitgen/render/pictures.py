"""Pictures drawn into a box: raster pictures at their own resolution, SVG pictures as
vectors with our fonts and a layout colour for their currentColor, CMYK when the
layout is (docs/design.md §8.6)."""

import copy
import hashlib
import io

from kitgen import pictures as pictures_mod
from kitgen.render import paint


def _prepare(node, font: str, stand_in: str, current, cmyk: bool):
    """Every font an SVG asks for becomes ours (embedded; no base-14 font leaks in);
    its currentColor (drawn in ``stand_in``) becomes ``current``, keeping any opacity;
    in CMYK mode every other colour becomes CMYK."""
    if hasattr(node, "fontName"):
        node.fontName = font
    for attr in ("fillColor", "strokeColor"):
        value = getattr(node, attr, None)
        if value is None or not hasattr(value, "red"):
            continue
        if value.hexval() == stand_in:
            alpha = getattr(value, "alpha", 1)
            setattr(node, attr, current if alpha == 1 else current.clone(alpha=alpha))
        elif cmyk:
            setattr(node, attr, paint.to_cmyk(value))
    for child in getattr(node, "contents", ()):
        _prepare(child, font, stand_in, current, cmyk)


_prepared: dict = {}


def _drawing(picture, font: str, layout, colour: str):
    """The picture's SVG drawing made ready for this layout (a copy, kept for the next face)."""
    current = paint.colour(layout, colour)
    cmyk = paint.is_cmyk(layout)
    key = (hashlib.sha256(picture.data).digest(), font, cmyk, repr(current))
    if key not in _prepared:
        if len(_prepared) > 4096:            # bounded, for long-running processes
            _prepared.clear()
        parsed, stand_in = pictures_mod.parsed_svg(picture.data, picture.name)
        drawing = copy.deepcopy(parsed)
        drawing.initialFontName = font        # the renderer's starting state, else Helvetica
        _prepare(drawing, font, "0x" + stand_in[1:].lower(), current, cmyk)
        _prepared[key] = drawing
    return _prepared[key]


def draw(c, picture, box, fit: str, font: str, layout, colour: str):
    """The picture in ``box`` (x, y, w, h): whole (``contain``) or filling the box,
    cropped (``cover``); centred either way. SVG pictures stay vector, their text in
    ``font`` and their currentColor in the layout colour named ``colour``."""
    x, y, w, h = box
    cmyk = paint.is_cmyk(layout)
    if picture.vector:
        drawing = _drawing(picture, font, layout, colour)
        pw, ph = drawing.width, drawing.height
    else:
        pw, ph = picture.pixels
    scale = (min if fit == "contain" else max)(w / pw, h / ph)
    dw, dh = pw * scale, ph * scale
    left, bottom = x + (w - dw) / 2, y + (h - dh) / 2
    c.saveState()
    if fit == "cover":
        path = c.beginPath()
        path.rect(x, y, w, h)
        c.clipPath(path, stroke=0, fill=0)
    if picture.vector:
        from reportlab.graphics import renderPDF

        c.translate(left, bottom)
        c.scale(scale, scale)
        renderPDF.draw(drawing, c, 0, 0)
    else:
        from PIL import Image
        from reportlab.lib.utils import ImageReader

        image = Image.open(io.BytesIO(picture.data))
        if cmyk:
            image = _to_cmyk(image)
        c.drawImage(ImageReader(image), left, bottom, dw, dh, mask=None if cmyk else "auto")
    c.restoreState()


def _to_cmyk(image):
    """A raster picture in CMYK, its transparent parts made paper: PIL turns a transparent
    pixel (0, 0, 0, 0) into 100 % cyan, magenta and yellow, and a CMYK image has no mask."""
    from PIL import Image

    if image.mode in ("RGBA", "LA", "PA") or "transparency" in image.info:
        rgba = image.convert("RGBA")
        image = Image.alpha_composite(Image.new("RGBA", rgba.size, (255, 255, 255, 255)), rgba).convert("RGB")
    return image.convert("CMYK")
