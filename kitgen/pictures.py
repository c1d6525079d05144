"""Pictures, read and checked before anything is drawn (docs/design.md §9.3): PNG, JPEG
and SVG files, and icons from an installed icon set. A picture that cannot be
read, a decompression bomb, an SVG that refers outside itself: each is refused
in one line."""

import functools
import hashlib
import importlib.resources
import io
import re
from collections import OrderedDict
from dataclasses import dataclass, field
from pathlib import Path

from .errors import KitgenError

RASTER = {".png", ".jpg", ".jpeg"}
VECTOR = {".svg"}
MAX_PIXELS = 40_000_000          # beyond this a picture is refused as a decompression bomb
MAX_SVG_BYTES = 5_000_000
ICON_SETS = {"phosphor": "py_phosphor_icons"}


@dataclass(frozen=True)
class Picture:
    name: str                  # what reports call it: the file name or icon reference
    data: bytes = field(repr=False)
    vector: bool
    pixels: tuple[int, int] | None = None     # width, height of a raster picture
    caption: str = ""


def icon(reference: str, source: str, line: int | None) -> tuple[str, bytes]:
    """``phosphor:cat`` -> the SVG of that icon from its installed package (filled weight)."""
    set_name, _, icon = reference.partition(":")
    if set_name not in ICON_SETS or not icon:
        raise KitgenError(f"icon {reference!r}: write <set>:<name>, sets: {', '.join(ICON_SETS)}",
                          source=source, line=line)
    try:
        root = _icon_folder(set_name)
    except ModuleNotFoundError:
        raise KitgenError(f"the icon set {set_name!r} is not installed: pip install "
                          f"{ICON_SETS[set_name].replace('_', '-')}", source=source, line=line) from None
    path = root / f"{icon}-fill.svg"
    if not path.exists():
        raise KitgenError(f"no icon {icon!r} in the {set_name} set", source=source, line=line)
    return reference, path.read_bytes()


@functools.lru_cache(maxsize=len(ICON_SETS))
def _icon_folder(set_name: str) -> Path:
    """The folder of an installed icon set's filled SVGs (ModuleNotFoundError if not installed)."""
    return Path(str(importlib.resources.files(ICON_SETS[set_name]))) / "svgs" / "flat" / "fill"


def read_picture(name: str, data: bytes, vector: bool, caption: str = "", line: int | None = None,
                 source: str | None = None) -> Picture:
    """Check one picture's bytes: a readable, whole PNG/JPEG of sane size, or an SVG that parses."""
    where = source or name
    if vector:
        external = _external_reference(data)
        if external:
            raise KitgenError(f"the SVG refers to {external}, which kitgen never fetches or reads; "
                              "embed everything in the SVG", source=where, line=line)
        if len(data) > MAX_SVG_BYTES:
            raise KitgenError(f"SVG of {len(data) // 1_000_000} MB is too large (limit {MAX_SVG_BYTES // 1_000_000} MB)",
                              source=where, line=line)
        drawing_of(data, where)
        return Picture(name, data, True, None, caption)
    from PIL import Image, UnidentifiedImageError

    Image.MAX_IMAGE_PIXELS = MAX_PIXELS
    try:
        with Image.open(io.BytesIO(data)) as image:
            size = image.size
            if size[0] * size[1] > MAX_PIXELS:
                raise Image.DecompressionBombError("too many pixels")
            image.load()           # decodes everything: a truncated file fails here
    except Image.DecompressionBombError:
        raise KitgenError(f"has too many pixels to be a card picture (limit {MAX_PIXELS // 1_000_000} million); "
                          "scale it down", source=where, line=line) from None
    except (UnidentifiedImageError, OSError, SyntaxError, ValueError) as err:
        reason = "is truncated" if "truncated" in str(err) else "is not a readable PNG or JPEG image"
        raise KitgenError(f"{reason}; export it again", source=where, line=line) from None
    return Picture(name, data, False, size, caption)


_HREF = re.compile(rb"""(?:xlink:)?href\s*=\s*["']\s*([^"'#][^"']*)["']""", re.IGNORECASE)


def _external_reference(data: bytes) -> str | None:
    """What an SVG would load from outside itself: another file, a URL, an entity."""
    if re.search(rb"<!ENTITY|<!DOCTYPE[^>]*\[", data, re.IGNORECASE):
        return "an XML entity"
    for match in _HREF.finditer(data):
        target = match.group(1).decode("utf-8", "replace")
        if not target.lower().startswith("data:"):
            return repr(target[:60])
    if re.search(rb"url\(\s*['\"]?\s*(?!#|data:)[a-z]+:", data, re.IGNORECASE):
        return "a URL in its style"
    return None


class ContentCache:
    """A mapping of at most ``size`` entries (and, given ``weigh``, at most ``budget`` in
    total of what it says each value weighs) that forgets the least recently used first;
    a value heavier than the whole budget is not kept. Keys are digests of content, so
    what is cached never depends on a file's name or on the order things were asked for,
    only on whether they are still held."""

    def __init__(self, size: int, budget: int = 0, weigh=None):
        self.size, self.budget, self.weigh = size, budget, weigh
        self._items: OrderedDict = OrderedDict()
        self._weights: dict = {}
        self.weight = 0

    def get(self, key):
        """The value kept for ``key``, or None."""
        value = self._items.get(key)
        if value is not None:
            self._items.move_to_end(key)
        return value

    def put(self, key, value):
        """Keep ``value`` for ``key``; returns it."""
        weight = self.weigh(value) if self.weigh else 0
        if self.weigh and weight > self.budget:
            return value
        self._forget(key)
        self._items[key] = value
        self._weights[key] = weight
        self.weight += weight
        while len(self._items) > self.size or (self.weigh and self.weight > self.budget):
            self._forget(next(iter(self._items)))
        return value

    def _forget(self, key):
        if key in self._items:
            del self._items[key]
            self.weight -= self._weights.pop(key)

    def clear(self):
        self._items.clear()
        self._weights.clear()
        self.weight = 0

    def __len__(self):
        return len(self._items)


_drawings = ContentCache(4096)      # SVG content digest -> (drawing, stand-in)
# Colours that stand in for an SVG's currentColor until drawing gives it the layout's colour;
# the first that the SVG does not itself use is taken, so no colour of its own is mistaken for it.
STAND_INS = ("#FE01FD", "#01FE02", "#FD02FE", "#02FD01")


def _stand_in(text: str) -> str:
    lowered = text.lower()
    for colour in STAND_INS:
        r, g, b = (int(colour[i:i + 2], 16) for i in (1, 3, 5))
        if colour.lower() not in lowered and f"rgb({r}," not in lowered.replace(" ", ""):
            return colour
    raise KitgenError("uses every colour kitgen could stand in for its currentColor; change one of them",
                      source="SVG")


def parsed_svg(data: bytes, where: str = "SVG"):
    """(drawing, stand-in): the SVG as a reportlab Drawing, its currentColor drawn in the
    stand-in colour. Parsed once per content (the bytes' SHA-256, not the file's name), for
    checking and for every face drawn; never changed: drawing works on copies, and
    kitgen/render/pictures.py gives currentColor the layout's picture colour.
    KitgenError if it does not parse."""
    key = hashlib.sha256(data).digest()
    parsed = _drawings.get(key)
    if parsed is None:
        import logging

        from svglib.svglib import svg2rlg

        text = data.decode("utf-8", errors="replace")
        stand_in = _stand_in(text)
        logging.getLogger("svglib").setLevel(logging.CRITICAL)
        try:
            drawing = svg2rlg(io.BytesIO(text.replace("currentColor", stand_in).encode("utf-8")))
        except Exception:       # svglib raises many kinds on broken input
            drawing = None
        if drawing is None or not drawing.width or not drawing.height:
            raise KitgenError("is not an SVG picture that can be read; check that it opens in a browser",
                              source=where)
        parsed = _drawings.put(key, (drawing, stand_in))
    return parsed


def drawing_of(data: bytes, where: str = "SVG"):
    """The SVG as a reportlab Drawing; KitgenError if it does not parse."""
    return parsed_svg(data, where)[0]


def low_resolution(pictures, box_w: float, box_h: float, dpi: float = 150) -> list[str]:
    """Raster pictures below ``dpi`` at their printed size: warnings naming them."""
    warnings = []
    for picture in pictures:
        if picture.pixels is None:
            continue
        w, h = picture.pixels
        scale = min(box_w / w, box_h / h)            # points per pixel when fitted
        effective = 72 / scale
        if effective < dpi:
            warnings.append(f"{picture.name}: {effective:.0f} dpi at its printed size (below {dpi}); "
                            "use a larger picture for a sharp print")
    return warnings
