"""Pictures drawn into a box: raster pictures at their own resolution, SVG pictures as
vectors with our fonts and a layout colour for their currentColor, CMYK when the
layout is (docs/design.md §8.6), through the press profile under --pdfx (§8.11)."""

import io
import json

from kitgen import pictures as pictures_mod
from kitgen.errors import KitgenError
from kitgen.render import paint


def _conversion(layout):
    """How this layout's pictures are made CMYK: not at all (False), by the plain formula (True), or
    under --pdfx through the press profile within the ink limit (the press.Conversion the layout
    carries, render/press.for_press)."""
    return layout.get("pdfx") or paint.is_cmyk(layout)


def _conversion_key(conversion):
    """The conversion as the picture caches name it: True, False or ``pdfx:<profile>:<limit>``."""
    return conversion if isinstance(conversion, bool) else conversion.key


def _prepared(node, font: str, stand_in: str, current, cmyk):
    """A copy of an SVG drawing's tree of shapes, made ready for a layout: every font it
    asks for becomes ours (embedded; no base-14 font leaks in); its currentColor (drawn in
    ``stand_in``) becomes ``current``, keeping any opacity; in CMYK mode every other colour
    becomes CMYK (``cmyk`` True: paint.to_cmyk; a press.Conversion: through its profile).
    Shapes and their lists of children are new; their other values (points,
    transforms, colours) are shared with the parsed drawing, which neither this nor the
    renderer changes."""
    copy = node.__class__.__new__(node.__class__)
    copy.__dict__.update(node.__dict__)
    if hasattr(copy, "fontName"):
        copy.fontName = font
    for attr in ("fillColor", "strokeColor"):
        value = getattr(copy, attr, None)
        if value is None or not hasattr(value, "red"):
            continue
        if value.hexval() == stand_in:
            alpha = getattr(value, "alpha", 1)
            setattr(copy, attr, current if alpha == 1 else current.clone(alpha=alpha))
        elif cmyk:
            setattr(copy, attr, paint.to_cmyk(value) if cmyk is True else cmyk.colour(value))
    contents = node.__dict__.get("contents")
    if contents is not None:
        copy.__dict__["contents"] = [_prepared(child, font, stand_in, current, cmyk) for child in contents]
    return copy


_drawings = pictures_mod.ContentCache(4096)    # (content digest, font, CMYK, colour) -> prepared drawing
_codes = pictures_mod.ContentCache(4096)       # the same and the canvas state -> PDF operators


def _key(picture, font: str, layout, colour: str):
    """(key, colour, CMYK): what the picture's drawing for this layout is made from, as the key
    (content digest, font, CMYK or the press conversion's key, repr of the colour) of what is kept of it."""
    current = paint.colour(layout, colour)
    cmyk = _conversion(layout)
    return (picture.digest, font, _conversion_key(cmyk), repr(current)), current, cmyk


def _ready(picture, font: str, layout, colour: str):
    """(drawing, key): the picture's SVG drawing made ready for this layout (a copy, kept for
    the next face) and what it was made from. Under --pdfx an SVG with transparency is refused."""
    key, current, cmyk = _key(picture, font, layout, colour)
    drawing = _drawings.get(key)
    if drawing is None:
        parsed, stand_in = pictures_mod.parsed_svg(picture.data, picture.name)
        if not isinstance(cmyk, bool) and _transparent(parsed):
            raise KitgenError("the SVG uses transparency (an opacity below 1), which PDF/X-1a cannot hold; "
                              "flatten it in the SVG, or build without --pdfx", source=picture.name)
        drawing = _prepared(parsed, font, "0x" + stand_in[1:].lower(), current, cmyk)
        drawing.initialFontName = font        # the renderer's starting state, else Helvetica
        _drawings.put(key, drawing)
    return drawing, key


def _transparent(node) -> bool:
    """Whether any shape of an SVG drawing is drawn with an opacity below 1 (a colour's alpha or
    svglib's fill and stroke opacity)."""
    alphas = [getattr(getattr(node, attr, None), "alpha", 1) for attr in ("fillColor", "strokeColor")]
    alphas += [getattr(node, attr, None) for attr in ("fillOpacity", "strokeOpacity")]
    if any(alpha is not None and alpha < 1 for alpha in alphas):
        return True
    return any(_transparent(child) for child in node.__dict__.get("contents") or ())


def _drawing(picture, font: str, layout, colour: str):
    """The picture's SVG drawing made ready for this layout (a copy, kept for the next face)."""
    return _ready(picture, font, layout, colour)[0]


def _canvas_state(c):
    """What besides the drawing decides the operators renderPDF writes for it: the canvas's
    colour-space rule and transparency state (the fill rule and the rest of the graphics
    state renderPDF sets itself at the start); None if this reportlab keeps them elsewhere
    (then nothing is given again)."""
    if not (hasattr(c, "_code") and hasattr(getattr(c, "_doc", None), "_pdfVersion")
            and hasattr(getattr(c, "_extgstate", None), "_d")):
        return None
    try:
        return c._enforceColorSpace, tuple(sorted(c._extgstate._d.items()))
    except AttributeError:
        return None


def _plain(value):
    """``value`` as JSON data that is the same in every process: a function (the canvas's
    colour-space rule) by its module and name. ValueError for what has no such form."""
    if value is None or type(value) in (str, bool, int, float):
        return value
    if isinstance(value, (tuple, list)):
        return [_plain(v) for v in value]
    name = getattr(value, "__qualname__", None)
    if callable(value) and isinstance(name, str) and "<" not in name:
        return f"{value.__module__}.{name}"
    raise ValueError(f"no stable form for {type(value).__name__}")


def _stored_key(key) -> str | None:
    """The replay key (content digest, font, CMYK, colour repr, canvas state) as text, the same
    in every process: the key of the operators in the picture store; None if it has no such form."""
    try:
        return json.dumps([key[0].hex(), *map(_plain, key[1:])], separators=(",", ":"))
    except ValueError:
        return None


def _joined(lines) -> tuple[str, ...]:
    """A drawing's operator lines as the page will hold them: one string, joined by the newline
    reportlab joins a page's lines with (the same bytes, and a page of pictures is a few thousand
    items to join, not a million); as they are when the last is a ``cm``, which reportlab's next
    transform would merge into (it rewrites its canvas's last line)."""
    lines = tuple(lines)
    return lines if not lines or lines[-1].endswith(" cm") else ("\n".join(lines),)


def _render(c, picture, font: str, layout, colour: str):
    """The picture's SVG drawing made ready for this layout, rendered at the origin
    (renderPDF.draw), its operators kept for the next document and, in the picture store
    (kitgen/pictures.py), for the next run. Operators that name no resource (no ``/``: no font,
    image, transparency state or shading) and write no text depend only on the drawing and the
    canvas's state (_canvas_state), and leave nothing behind but themselves and the PDF version
    they need (a colour with an alpha asks for PDF 1.4, a separate note to the document): so for
    the same drawing and state the same lines are given again, without parsing or preparing the
    drawing, and the document is raised to the same version. A drawing that names resources is
    rendered every time, its names being its document's."""
    state = _canvas_state(c)
    if state is None:
        from reportlab.graphics import renderPDF

        renderPDF.draw(_ready(picture, font, layout, colour)[0], c, 0, 0)
        return
    key = _key(picture, font, layout, colour)[0] + state
    kept, stored = _codes.get(key), None
    if kept is None:
        stored = _stored_key(key)
        kept = None if stored is None else pictures_mod.store().operators(key[0], stored)
        if kept is not None:
            kept = (_joined(kept[0]), kept[1])
            _codes.put(key, kept)
    if kept is not None:
        lines, version = kept
        c._code.extend(lines)
        c._doc._pdfVersion = max(c._doc._pdfVersion, version)
        return
    from reportlab.graphics import renderPDF

    drawing = _ready(picture, font, layout, colour)[0]
    start, before = len(c._code), c._doc._pdfVersion
    c._doc._pdfVersion = (0, 0)              # to learn the version this drawing asks for
    try:
        renderPDF.draw(drawing, c, 0, 0)
    finally:
        version, c._doc._pdfVersion = c._doc._pdfVersion, max(before, c._doc._pdfVersion)
    lines = c._code[start:]
    if not any("/" in line or "(" in line or "<" in line for line in lines):
        _codes.put(key, (_joined(lines), version))
        if stored is not None:
            pictures_mod.store().add_operators(key[0], stored, lines, version)


def draw(c, picture, box, fit: str, font: str, layout, colour: str):
    """The picture in ``box`` (x, y, w, h): whole (``contain``) or filling the box,
    cropped (``cover``); centred either way. SVG pictures stay vector, their text in
    ``font`` and their currentColor in the layout colour named ``colour``."""
    x, y, w, h = box
    cmyk = _conversion(layout)
    if picture.vector:
        pw, ph = pictures_mod.svg_size(picture.data, picture.name)
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
        c.translate(left, bottom)
        c.scale(scale, scale)
        _render(c, picture, font, layout, colour)
    else:
        c.drawImage(_reader(picture, cmyk), left, bottom, dw, dh, mask=None if cmyk else "auto")
    c.restoreState()


def _weight(reader) -> int:
    """Bytes a decoded raster picture holds: its pixels as decoded and as reportlab reads them,
    and its alpha channel, which reportlab keeps apart, twice too."""
    image = reader._image
    pixels = image.width * image.height
    return pixels * len(image.getbands()) + len(reader._data) + (2 * pixels if reader._dataA else 0)


_readers = pictures_mod.ContentCache(1024, budget=128_000_000, weigh=_weight)   # (digest, CMYK) -> ImageReader


def _reader(picture, cmyk):
    """The raster picture decoded (in CMYK, its transparent parts paper, if ``cmyk``; through the
    press profile within the ink limit if ``cmyk`` is a press.Conversion) as a reportlab
    ImageReader whose pixels are read, kept for the next face while the decoded pictures kept stay
    within their budget. drawImage only reads it."""
    key = (picture.digest, _conversion_key(cmyk))
    reader = _readers.get(key)
    if reader is None:
        from PIL import Image
        from reportlab.lib.utils import ImageReader

        image = Image.open(io.BytesIO(picture.data))
        if cmyk:
            image = _to_cmyk(image) if cmyk is True else cmyk.image(image)
        reader = ImageReader(image)
        reader.getRGBData()           # what drawImage reads first: decodes, and keeps the pixels
        _readers.put(key, reader)
    return reader


def _to_cmyk(image):
    """A raster picture in CMYK, its transparent parts made paper: PIL turns a transparent
    pixel (0, 0, 0, 0) into 100 % cyan, magenta and yellow, and a CMYK image has no mask."""
    from PIL import Image

    if image.mode in ("RGBA", "LA", "PA") or "transparency" in image.info:
        rgba = image.convert("RGBA")
        image = Image.alpha_composite(Image.new("RGBA", rgba.size, (255, 255, 255, 255)), rgba).convert("RGB")
    return image.convert("CMYK")
