"""Fonts from Python packages (fontpkg-*), registered with reportlab.

Font packages ship variable fonts; reportlab draws only their default
instance. Another weight is cut once with fontTools' instancer into a static
font, renamed so it cannot be mistaken for the regular face, and cached.
"""

import functools
import hashlib
import importlib
import json
import os
import struct
import tempfile
from dataclasses import dataclass
from pathlib import Path

from . import cache
from .errors import KitgenError


@dataclass(frozen=True)
class FontFile:
    family: str
    weight: int
    path: Path
    registered_name: str


def cache_dir() -> Path:
    """Where cut font instances are kept: $KITGEN_CACHE/fonts, else the user's cache folder."""
    return cache.folder("fonts")


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


# How an instance is cut. The cut must give the same bytes for the same font file and
# fontTools version on any machine at any time (docs/design.md §7.4):
# - the source is read with recalcTimestamp=False, so head.modified stays the source's
#   own (fontTools would stamp the time of the cut, and reportlab embeds the head table);
# - the OpenType layout tables are dropped before instancing: reportlab draws glyphs by
#   their cmap and advance widths and never reads GPOS, GSUB or GDEF (shaping is done
#   before drawing), and instancing them was most of the time and memory of a cut
#   (about 5 s and 150 MB of 6 s for Noto Sans) and not byte-stable between runs;
# - glyphs no cmap entry reaches (directly or as a component) are emptied: without GSUB
#   nothing can draw them.
# Changing any of this changes the cut: bump CUT_RECIPE, which names the cached files.
CUT_RECIPE = 2
UNUSED_TABLES = ("GPOS", "GSUB", "GDEF")


def _announce(font: str, line: str) -> None:
    """Said once per font and process, before that font's first cut (a Persian kit's first build,
    after Noto Sans was cut, cuts the Arabic font and says so again)."""
    if font not in _announced and _announcer is not None:
        _announced.add(font)
        _announcer(line)


_announcer = None
_announced: set[str] = set()


def set_announcer(announce) -> None:
    """``announce`` (a callable taking one line) hears, once per font and process, that a font is
    being prepared: the first build that needs it is slower, and should say why. The CLI sets it."""
    global _announcer
    _announcer = announce


def _empty_unreachable_glyphs(font) -> None:
    """Without GSUB, only the glyphs the cmap names, and the components of those, can ever be
    drawn: the others (small caps, alternates, ligature pieces) are emptied, keeping every
    glyph's number, so that instancing does not spend a third of its time on them."""
    from fontTools.ttLib.tables._g_l_y_f import Glyph

    glyf, gvar = font["glyf"], font["gvar"]
    keep = {font.getGlyphOrder()[0]}                  # .notdef
    for table in font["cmap"].tables:
        keep.update(table.cmap.values())
    todo = list(keep)
    while todo:
        glyph = glyf[todo.pop()]
        if glyph.isComposite():
            for component in glyph.components:
                if component.glyphName not in keep:
                    keep.add(component.glyphName)
                    todo.append(component.glyphName)
    for name in font.getGlyphOrder():
        if name not in keep:
            glyf[name] = Glyph()
            gvar.variations[name] = []


def cut_instance(source: Path, weight: int) -> bytes:
    """A static instance of the variable font ``source`` at ``weight``, renamed so it cannot be
    mistaken for the regular face: the same bytes wherever and whenever it is cut."""
    import io

    from fontTools.ttLib import TTFont
    from fontTools.varLib import instancer

    font = TTFont(source, recalcTimestamp=False)
    axes = {a.axisTag: (a.minValue, a.maxValue) for a in font["fvar"].axes}
    low, high = axes["wght"]
    if not low <= weight <= high:
        raise KitgenError(f"{source.name} has weights {low:g}-{high:g}, not {weight}")
    for tag in UNUSED_TABLES:
        if tag in font:
            del font[tag]
    _empty_unreachable_glyphs(font)
    location = {"wght": weight}
    if "wdth" in axes:
        location["wdth"] = 100
    static = instancer.instantiateVariableFont(font, location, inplace=True)
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
    out = io.BytesIO()
    static.save(out)
    return out.getvalue()


def _fallback_dir() -> Path:
    """Where cuts go when the cache folder cannot be written: a folder of this user's in the
    temporary folder, used only if no one else could have put a font there; else a fresh one."""
    import stat

    folder = Path(tempfile.gettempdir()) / f"kitgen-fonts-{os.getuid()}"
    try:
        folder.mkdir(mode=0o700, exist_ok=True)
        info = folder.lstat()
        if stat.S_ISDIR(info.st_mode) and info.st_uid == os.getuid() and not info.st_mode & 0o022:
            return folder
    except OSError:
        pass
    return Path(tempfile.mkdtemp(prefix="kitgen-fonts-"))


def _static_instance(source: Path, weight: int) -> Path:
    """A cached static instance of ``source`` at ``weight`` (cut on first use)."""
    from kitgen.versions import installed

    # the cut depends on the source font, on fontTools and on the recipe: all three name the
    # cached file (and fontTools itself, slow to import, is imported only when a cut is needed)
    digest = hashlib.sha256(source.read_bytes() + f"|{installed('fonttools')}|{CUT_RECIPE}".encode()).hexdigest()[:12]
    name = f"{source.stem.split('[')[0]}-w{weight}-{digest}.ttf"
    target = cache_dir() / name
    if target.exists():
        return target
    try:
        target.parent.mkdir(parents=True, exist_ok=True)
        probe = tempfile.NamedTemporaryFile(dir=target.parent, delete=True)
        probe.close()
    except OSError:
        target = _fallback_dir() / name
        if target.exists():
            return target
    font = source.stem.split('[')[0]
    _announce(font, f"preparing fonts, once per font: {font} (they are kept in {target.parent})")
    data = cut_instance(source, weight)
    cache.write_atomically(target, data)      # whole or not at all, even with another kitgen cutting the same font
    return target


_registered: dict[tuple[str, int], FontFile] = {}


def register(family: str, weight: int) -> FontFile:
    """Register (once) a family at a weight with reportlab; returns its name there."""
    key = (family, int(weight))
    if key in _registered:
        return _registered[key]
    from reportlab.pdfbase import pdfmetrics
    from reportlab.pdfbase.ttfonts import TTFont as RLTTFont

    source, _ = _package_font(family)
    default = _default_weight(source)
    path = source if int(weight) == default else _static_instance(source, int(weight))
    name = f"kg-{family}-{int(weight)}"
    pdfmetrics.registerFont(RLTTFont(name, str(path)))
    _registered[key] = FontFile(family, int(weight), path, name)
    return _registered[key]


_partners: dict[str, object] = {}


def set_partner(font_name: str, family: str, weight: int) -> None:
    """The family that draws Arabic-script text set in ``font_name``; registered
    when first needed (most kits never draw Arabic script)."""
    _partners[font_name] = (family, int(weight))


def partner(font_name: str) -> str | None:
    spec = _partners.get(font_name)
    if isinstance(spec, tuple):
        spec = _partners[font_name] = register(*spec).registered_name
    return spec


def has_glyph(font_name: str, char: str) -> bool:
    """Whether the registered font draws this character (white space always passes)."""
    return not lacking(font_name, char)


def lacking(font_name: str, chars) -> set[str]:
    """The characters among ``chars`` the registered font does not draw (``has_glyph``), found
    with one look-up of the font. White space and joiners always pass: they draw nothing."""
    from reportlab.pdfbase import pdfmetrics

    cmap = pdfmetrics.getFont(font_name).face.charToGlyph
    return {ch for ch in chars if ord(ch) not in cmap and not (ch.isspace() or ch in "\u200c\u200d")}


@functools.cache                   # functools': ``cache`` here is kitgen's cache folder (from . import cache)
def _outlines(font_name: str):
    """The glyph set, character map and units per em of a registered font's file."""
    import io

    from fontTools.ttLib import TTFont
    from reportlab.pdfbase import pdfmetrics

    with open(pdfmetrics.getFont(font_name).face.filename, "rb") as file:      # read whole: no file left open
        face = TTFont(io.BytesIO(file.read()), lazy=True)
    return face.getGlyphSet(), face.getBestCmap(), face["head"].unitsPerEm


@functools.lru_cache(maxsize=8192)
def glyph_ink(font_name: str, char: str) -> tuple[float, float, float, float] | None:
    """A character's ink box (left, bottom, right, top) from its origin, in ems; None when
    the font draws nothing for it."""
    from fontTools.pens.boundsPen import BoundsPen

    glyphs, cmap, units = _outlines(font_name)
    name = cmap.get(ord(char))
    if name is None:
        return None
    pen = BoundsPen(glyphs)
    glyphs[name].draw(pen)
    return None if pen.bounds is None else tuple(v / units for v in pen.bounds)


def ink_extent(font_name: str, chars: str) -> tuple[float, float] | None:
    """The lowest and highest ink of ``chars`` in a registered font, in ems from the
    baseline; None when none of them draws anything."""
    boxes = [box for box in map(lambda ch: glyph_ink(font_name, ch), chars) if box]
    return (min(b[1] for b in boxes), max(b[3] for b in boxes)) if boxes else None


def register_roles(layout) -> dict[str, str]:
    """Each layout font role (word, label, ...) -> its registered reportlab name;
    each role's Arabic-script family is registered as that font's partner."""
    names = {}
    for role, spec in layout.fonts.items():
        names[role] = register(spec.family, int(spec.weight)).registered_name
        set_partner(names[role], spec.arabic, int(spec.weight))
    return names
