"""Fonts from Python packages (fontpkg-*), registered with reportlab.

Font packages ship variable fonts; reportlab draws only their default
instance. Another weight is cut once with fontTools' instancer into a static
font, renamed so it cannot be mistaken for the regular face, and cached.
"""

import hashlib
import importlib
import json
import os
import struct
import tempfile
from dataclasses import dataclass
from pathlib import Path

from .errors import KitgenError


@dataclass(frozen=True)
class FontFile:
    family: str
    weight: int
    path: Path
    registered_name: str


def cache_dir() -> Path:
    """Where cut font instances are kept: $KITGEN_CACHE, else the user's cache folder."""
    if os.environ.get("KITGEN_CACHE"):
        return Path(os.environ["KITGEN_CACHE"]) / "fonts"
    return Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache") / "kitgen" / "fonts"


def _package_font(family: str) -> tuple[Path, dict]:
    """The upright font file of a fontpkg family, e.g. 'noto-sans' -> fontpkg_noto_sans."""
    module_name = "fontpkg_" + family.replace("-", "_")
    try:
        module = importlib.import_module(module_name)
    except ImportError:
        raise KitgenError(f"font family {family!r} is not installed: pip install fontpkg-{family}") from None
    root = Path(module.__file__).parent
    meta = json.loads((root / "metadata.json").read_text("utf-8"))
    upright = [f for f in meta["files"] if f.get("style") == "normal"]
    if not upright:
        raise KitgenError(f"font family {family!r} has no upright face")
    return root / upright[0]["path"], meta


def _default_weight(path: Path) -> int:
    """The weight a font draws with as it is: the default of its wght axis, else its
    OS/2 weight class. Read straight from the tables (no fontTools import: it is slow)."""
    data = path.read_bytes()
    tables = {}
    for i in range(struct.unpack(">H", data[4:6])[0]):
        tag, _, offset, _ = struct.unpack(">4sIII", data[12 + 16 * i:28 + 16 * i])
        tables[tag] = offset
    if b"fvar" in tables:
        base = tables[b"fvar"]
        axes_offset, _, count, size = struct.unpack(">HHHH", data[base + 4:base + 12])
        for i in range(count):
            at = base + axes_offset + i * size
            tag, _, default, _ = struct.unpack(">4siii", data[at:at + 16])
            if tag == b"wght":
                return round(default / 65536)
    return struct.unpack(">H", data[tables[b"OS/2"] + 4:tables[b"OS/2"] + 6])[0]


def _static_instance(source: Path, weight: int, report) -> Path:
    """A cached static instance of ``source`` at ``weight`` (cut on first use)."""
    from importlib.metadata import version

    # the cut depends on the source font and on fontTools: both name the cached file (and fontTools
    # itself, slow to import, is imported only when a cut is needed)
    digest = hashlib.sha256(source.read_bytes() + version("fonttools").encode()).hexdigest()[:12]
    name = f"{source.stem.split('[')[0]}-w{weight}-{digest}.ttf"
    target = cache_dir() / name
    if target.exists():
        return target
    try:
        target.parent.mkdir(parents=True, exist_ok=True)
        probe = tempfile.NamedTemporaryFile(dir=target.parent, delete=True)
        probe.close()
    except OSError:
        target = Path(tempfile.gettempdir()) / f"kitgen-fonts-{os.getuid()}" / name
        if target.exists():
            return target
    if report:
        report(f"preparing {source.stem.split('[')[0]} at weight {weight} (once; it is cached in {target.parent})")
    from fontTools.ttLib import TTFont
    from fontTools.varLib import instancer


    font = TTFont(source)
    axes = {a.axisTag: (a.minValue, a.maxValue) for a in font["fvar"].axes}
    low, high = axes["wght"]
    if not low <= weight <= high:
        raise KitgenError(f"{source.name} has weights {low:g}-{high:g}, not {weight}")
    location = {"wght": weight}
    if "wdth" in axes:
        location["wdth"] = 100
    static = instancer.instantiateVariableFont(font, location)
    name_table = static["name"]
    family = name_table.getDebugName(1) or "Font"
    ps_name = f"{family.replace(' ', '')}KG-W{weight}"
    for record in list(name_table.names):
        if record.nameID in (1, 3, 4, 6, 16, 17):
            name_table.removeNames(nameID=record.nameID)
    name_table.setName(f"{family} KG W{weight}", 1, 3, 1, 0x409)
    name_table.setName(f"{family} KG W{weight}", 4, 3, 1, 0x409)
    name_table.setName(ps_name, 6, 3, 1, 0x409)
    name_table.setName(ps_name, 3, 3, 1, 0x409)
    static["OS/2"].usWeightClass = weight
    target.parent.mkdir(parents=True, exist_ok=True)
    handle, tmp = tempfile.mkstemp(dir=target.parent, suffix=".tmp")
    os.close(handle)
    try:
        static.save(tmp)
        os.replace(tmp, target)
    finally:
        if os.path.exists(tmp):
            os.unlink(tmp)
    return target


_registered: dict[tuple[str, int], FontFile] = {}


def register(family: str, weight: int, report=None) -> FontFile:
    """Register (once) a family at a weight with reportlab; returns its name there.
    ``report`` (a callable taking a line of text) hears of slow first-time work."""
    key = (family, int(weight))
    if key in _registered:
        return _registered[key]
    from reportlab.pdfbase import pdfmetrics
    from reportlab.pdfbase.ttfonts import TTFont as RLTTFont

    source, _ = _package_font(family)
    default = _default_weight(source)
    path = source if int(weight) == default else _static_instance(source, int(weight), report)
    name = f"kg-{family}-{int(weight)}"
    pdfmetrics.registerFont(RLTTFont(name, str(path)))
    _registered[key] = FontFile(family, int(weight), path, name)
    return _registered[key]


_partners: dict[str, object] = {}


def set_partner(font_name: str, family: str, weight: int, report=None) -> None:
    """The family that draws Arabic-script text set in ``font_name``; registered
    when first needed (most kits never draw Arabic script)."""
    _partners[font_name] = (family, int(weight), report)


def partner(font_name: str) -> str | None:
    spec = _partners.get(font_name)
    if isinstance(spec, tuple):
        spec = _partners[font_name] = register(*spec).registered_name
    return spec


def has_glyph(font_name: str, char: str) -> bool:
    """Whether the registered font draws this character (white space always passes)."""
    from reportlab.pdfbase import pdfmetrics

    if char.isspace() or char in "\u200c\u200d":      # spaces and joiners draw nothing
        return True
    return ord(char) in pdfmetrics.getFont(font_name).face.charToGlyph
