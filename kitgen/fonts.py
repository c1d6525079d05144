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
from .truetype import to_truetype


@dataclass(frozen=True)
class FontFile:
    family: str
    weight: int
    path: Path
    registered_name: str


def cache_dir() -> Path:
    """Where cut font instances are kept: $KITGEN_CACHE/fonts, else the user's cache folder."""
    return cache.folder("fonts")


# families kitgen draws that are not fontpkg packages: the module that carries the font, the file in it,
# and the extra that installs it (pip install 'kitgen[EXTRA]')
OTHER_PACKAGES = {
    "noto-sans-jp": ("justmytype_intl_cjk", "fonts/ofl/notosansjp/NotoSansJP[wght].ttf", "cjk"),
    "noto-sans-kr": ("justmytype_intl_cjk", "fonts/ofl/notosanskr/NotoSansKR[wght].ttf", "cjk"),
    "noto-sans-sc": ("justmytype_intl_cjk", "fonts/ofl/notosanssc/NotoSansSC[wght].ttf", "cjk"),
}


def _package_font(family: str) -> tuple[Path, dict]:
    """The upright font file of a fontpkg family, e.g. 'noto-sans' -> fontpkg_noto_sans, or of a family
    in ``OTHER_PACKAGES``."""
    if family in OTHER_PACKAGES:
        module_name, file, extra = OTHER_PACKAGES[family]
        try:
            module = importlib.import_module(module_name)
        except ImportError:
            raise KitgenError(f"font family {family!r} is not installed: pip install 'kitgen[{extra}]'") from None
        return Path(module.__file__).parent / file, {}
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


@dataclass(frozen=True)
class _Facts:
    """What kitgen reads of a font file before it registers or cuts it, read once a file (a CJK font is
    10 to 18 MB): its tables, the weight it draws with as it is, its glyph count and the SHA-256 of its
    bytes so far (``digest``: the file's, followed by what names a cut of it)."""
    tables: frozenset
    weight: int
    glyphs: int
    hashed: object

    def digest(self, suffix: str) -> str:
        """SHA-256 of the file's bytes followed by ``suffix``, in hex."""
        h = self.hashed.copy()
        h.update(suffix.encode())
        return h.hexdigest()


def _facts(path: Path) -> _Facts:
    info = path.stat()
    return _read_facts(path, info.st_size, info.st_mtime_ns)


@functools.lru_cache(maxsize=64)
def _read_facts(path: Path, _size: int, _mtime: int) -> _Facts:
    """``_facts``, keyed by the file's size and time too: a file written anew is read anew. The tables
    are read straight from the file (no fontTools import: it is slow)."""
    data = path.read_bytes()
    tables = {}
    for i in range(struct.unpack(">H", data[4:6])[0]):
        tag, _, offset, _ = struct.unpack(">4sIII", data[12 + 16 * i:28 + 16 * i])
        tables[tag] = offset
    glyphs = struct.unpack(">H", data[tables[b"maxp"] + 4:tables[b"maxp"] + 6])[0] if b"maxp" in tables else 0
    return _Facts(frozenset(tables), _weight(data, tables), glyphs, hashlib.sha256(data))


def _weight(data: bytes, tables: dict) -> int:
    """The weight a font draws with as it is: the default of its wght axis, else its OS/2 weight class."""
    if b"fvar" in tables:
        base = tables[b"fvar"]
        axes_offset, _, count, size = struct.unpack(">HHHH", data[base + 4:base + 12])
        for i in range(count):
            at = base + axes_offset + i * size
            tag, _, default, _ = struct.unpack(">4siii", data[at:at + 16])
            if tag == b"wght":
                return round(default / 65536)
    return struct.unpack(">H", data[tables[b"OS/2"] + 4:tables[b"OS/2"] + 6])[0]


def _default_weight(path: Path) -> int:
    """The weight a font draws with as it is (``_Facts.weight``)."""
    return _facts(path).weight


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


def _preparing(font: str, folder: Path) -> None:
    _announce(font, f"preparing fonts, once per font: {font} (they are kept in {folder})")


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


SHAPING_RECIPE = 2       # how a font that HarfBuzz shapes is cut (``cut_instance`` with ``shaping``)
# a font with more glyphs than this (a CJK font: 17,000 to 31,000) is cut down to the characters a kit
# draws before it is instanced: instancing all of Noto Sans SC takes about 20 s, its kit's 1,500 characters 2 s
SUBSET_ABOVE = 5000
HORIZONTAL_FEATURES = ("ccmp", "locl", "rlig", "rclt", "calt", "clig", "liga", "kern", "mark", "mkmk", "curs",
                       "dist", "abvm", "blwm")


def _subset(font, chars: str) -> None:
    """Keep of ``font`` only what draws ``chars`` (and what its shaping can reach from them), in place."""
    from fontTools import subset

    options = subset.Options()
    # the features HarfBuzz applies to horizontal CJK text by default (a font this large is a CJK one);
    # vertical forms, proportional and half widths are never asked for
    options.layout_features = list(HORIZONTAL_FEATURES)
    options.hinting = False
    options.name_IDs = ["*"]
    options.name_languages = ["*"]
    options.notdef_outline = True
    options.glyph_names = False
    options.drop_tables += ["vhea", "vmtx", "VORG", "BASE"]      # horizontal text only
    subsetter = subset.Subsetter(options)
    subsetter.populate(text=chars)
    subsetter.subset(font)


@functools.lru_cache(maxsize=2)
def _cut_down(source: Path, chars: str) -> bytes:
    """The variable font ``source`` cut down to ``chars`` (``_subset``), as the bytes of a font file."""
    import io

    from fontTools.ttLib import TTFont

    font = TTFont(source, recalcTimestamp=False)
    _subset(font, chars)
    out = io.BytesIO()
    font.save(out)
    return out.getvalue()


def cut_instance(source: Path, weight: int, shaping: bool = False, chars: str | None = None) -> bytes:
    """A static instance of the variable font ``source`` at ``weight``, renamed so it cannot be
    mistaken for the regular face: the same bytes wherever and whenever it is cut. ``shaping``: the
    font's OpenType layout tables are kept, for HarfBuzz (docs/design.md §7.2); ``chars``: only what
    draws these characters is kept."""
    import io

    from fontTools.ttLib import TTFont
    from fontTools.varLib import instancer

    if chars is not None:         # cut down once for both weights a kit draws (the subsetting is most of a cut)
        font = TTFont(io.BytesIO(_cut_down(source, chars)), recalcTimestamp=False)
    else:
        font = TTFont(source, recalcTimestamp=False)
    axes = {a.axisTag: (a.minValue, a.maxValue) for a in font["fvar"].axes}
    low, high = axes["wght"]
    if not low <= weight <= high:
        raise KitgenError(f"{source.name} has weights {low:g}-{high:g}, not {weight}")
    if not shaping:
        for tag in UNUSED_TABLES:
            if tag in font:
                del font[tag]
        _empty_unreachable_glyphs(font)
    location = {"wght": weight}
    if "wdth" in axes:
        location["wdth"] = 100
    static = instancer.instantiateVariableFont(font, location, inplace=True)
    name_table = static["name"]
    # a shaping cut is named after its typographic family (a CJK font's nameID 1 names its default, Thin, instance)
    family = (shaping and name_table.getDebugName(16)) or name_table.getDebugName(1) or "Font"
    ps_name = f"{family.replace(' ', '')}KG-W{weight}"
    if chars is not None:          # a cut-down font is named by what it keeps: two kits' cuts are two fonts
        ps_name += "-" + hashlib.sha256(chars.encode()).hexdigest()[:6].upper()
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


def _cached(source: Path, weight: int, shaping: bool, chars: str | None) -> Path:
    """Where the cut of ``source`` at ``weight`` is kept: named by the font file, fontTools and the recipe."""
    from kitgen.versions import installed

    recipe = f"{CUT_RECIPE}" + (f"-hb{SHAPING_RECIPE}" if shaping else "") + (f"-{chars}" if chars else "")
    digest = _facts(source).digest(f"|{installed('fonttools')}|{recipe}")[:12]
    return cache_dir() / f"{source.stem.split('[')[0]}-w{weight}{'-hb' if shaping else ''}-{digest}.ttf"


def _static_instance(source: Path, weight: int, shaping: bool = False, chars: str | None = None) -> Path:
    """A cached static instance of ``source`` at ``weight`` (cut on first use; ``cut_instance``)."""
    # the cut depends on the source font, on fontTools and on the recipe: all three name the
    # cached file (and fontTools itself, slow to import, is imported only when a cut is needed)
    target = _cached(source, weight, shaping, chars)
    name = target.name
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
    _preparing(source.stem.split("[")[0], target.parent)
    data = cut_instance(source, weight, shaping, chars)
    cache.write_atomically(target, data)      # whole or not at all, even with another kitgen cutting the same font
    return target


_registered: dict[tuple, FontFile] = {}
TRUETYPE_RECIPE = 1       # how an OpenType-CFF font is converted (``to_truetype``): names the cached file


def _has_table(path: Path, tag: bytes) -> bool:
    return tag in _facts(path).tables


def truetype(source: Path) -> Path:
    """``source`` itself when it has TrueType outlines; an OpenType-CFF font converted once to
    TrueType (reportlab cannot embed CFF) and cached; a font that cannot be converted is refused
    in one line that names it."""
    if not (_has_table(source, b"CFF ") or _has_table(source, b"CFF2")):
        return source
    from kitgen.versions import installed

    digest = _facts(source).digest(f"|{installed('fonttools')}|{TRUETYPE_RECIPE}")
    target = cache_dir() / f"{source.stem}-ttf-{digest[:12]}.ttf"
    if target.exists():
        return target
    _preparing(source.stem, target.parent)
    try:
        data = to_truetype(source)
    except Exception as error:          # fontTools raises many kinds on a font it cannot read or convert
        raise KitgenError(f"{source.name} has PostScript (CFF) outlines that kitgen cannot convert to TrueType "
                          f"({type(error).__name__}); choose a TrueType font") from None
    cache.write_atomically(target, data)
    return target


def family_of(font_name: str) -> str:
    """The family a registered font is of (its name as kitgen registered it if unknown)."""
    return next((f.family for f in _registered.values() if f.registered_name == font_name), font_name)


def _plan(family: str, chars: str | None) -> tuple[Path, str | None]:
    """The TrueType file a family is drawn from, and the characters it is cut down to (None: all)."""
    source = truetype(_package_font(family)[0])
    if chars is not None and _facts(source).glyphs > SUBSET_ABOVE:
        return source, "".join(sorted(set(chars) | set(BASIC)))
    return source, None


def _precut(wanted) -> None:
    """Cut at once, one process a cut, the fonts of ``wanted`` ((family, weight, shaping, chars)) that
    are not in the cache yet and need a cut: a kit's first build on a new machine cuts its Latin bold
    and its script's two weights side by side (the same bytes as one after another)."""
    jobs = []
    for family, weight, shaping, chars in wanted:
        source, subset = _plan(family, chars)
        if (int(weight) != _default_weight(source) or subset is not None) and _has_table(source, b"fvar") \
                and not _cached(source, int(weight), shaping, subset).exists():
            jobs.append((source, int(weight), shaping, subset))
    if len(jobs) < 2 or os.cpu_count() == 1:
        return
    import multiprocessing

    for source, *_ in jobs:                      # said here, once, not by each worker
        _preparing(source.stem.split("[")[0], cache_dir())
    context = multiprocessing.get_context("fork" if "fork" in multiprocessing.get_all_start_methods() else None)
    with context.Pool(min(len(jobs), os.cpu_count() or 2)) as pool:
        pool.starmap(_static_instance, jobs)


def register(family: str, weight: int, shaping: bool = False, chars: str | None = None) -> FontFile:
    """Register (once) a family at a weight with reportlab; returns its name there. ``shaping``: the
    font HarfBuzz shapes text in (its layout tables kept); ``chars``: the characters a kit may draw in
    it, to which a large font (``SUBSET_ABOVE``) is cut down."""
    source, subset = _plan(family, chars)
    key = (family, int(weight), shaping, subset)
    if key in _registered:
        return _registered[key]
    from reportlab.pdfbase import pdfmetrics
    from reportlab.pdfbase.ttfonts import TTFont as RLTTFont

    default = _default_weight(source)
    if int(weight) != default and not _has_table(source, b"fvar"):
        raise KitgenError(f"font family {family!r} ({source.name}) has one weight, {default}, not {int(weight)}: "
                          "choose a variable font or a layout weight of it")
    if int(weight) == default and subset is None:
        path = source
    else:
        path = _static_instance(source, int(weight), shaping, subset)
    name = f"kg-{family}-{int(weight)}" + ("-hb" if shaping else "")
    if subset is not None:
        name += "-" + hashlib.sha256(subset.encode()).hexdigest()[:8]
    pdfmetrics.registerFont(RLTTFont(name, str(path)))
    _registered[key] = FontFile(family, int(weight), path, name)
    return _registered[key]


# what a cut-down font keeps besides a kit's own characters: printable ASCII, the no-break spaces and the
# punctuation of CJK text
BASIC = "".join(map(chr, range(0x20, 0x7F))) + "\u00a0\u202f\u3000、。，．・：；？！「」『』（）【】〈〉《》“”‘’…ー〜"


_fallbacks: dict[str, dict] = {}        # a role's registered font -> {script: (family, weight) | registered name}
_stacks: dict[str, tuple] = {}           # a role's registered font -> what its fallbacks are, for caches' keys
_chars: dict[str, str | None] = {}
_languages: dict[str, str | None] = {}


def language(font_name: str) -> str | None:
    """The language of the kit whose roles ``register_roles`` last registered ``font_name`` for: how its
    text takes capitals (``text.apply_case``: Turkish i is İ)."""
    return _languages.get(font_name)


def set_fallbacks(font_name: str, scripts: dict[str, tuple[str, int]], chars: str | None = None) -> None:
    """The families that draw text set in ``font_name`` whose script (ISO 15924: Arab, Hebr, Deva, Thai,
    Hani...) that font does not draw; each registered when first needed (most kits draw one script).
    ``chars``: the characters the kit may draw, to which a large font is cut down (``register``)."""
    _fallbacks[font_name] = dict(scripts)
    _chars[font_name] = chars
    digest = hashlib.sha256(chars.encode()).hexdigest()[:12] if chars is not None else None
    _stacks[font_name] = (tuple(sorted(scripts.items())), digest)


def stack(font_name: str) -> tuple:
    """What draws text set in ``font_name`` beside it: part of the key of every cache of shaped text."""
    return _stacks.get(font_name, ())


def fallback(font_name: str, script: str) -> str | None:
    """The registered font that draws ``script`` in text set in ``font_name`` (None: none is set)."""
    table = _fallbacks.get(font_name, {})
    spec = table.get(script)
    if isinstance(spec, tuple):
        spec = table[script] = register(*spec, shaping=True, chars=_chars.get(font_name)).registered_name
    return spec


def fallbacks(font_name: str) -> dict[str, str]:
    """Each script set for ``font_name`` and the family that draws it (not registered)."""
    return {script: spec[0] if isinstance(spec, tuple) else spec for script, spec in _fallbacks.get(font_name,
                                                                                                    {}).items()}


def partner(font_name: str) -> str | None:
    """The font that draws Arabic-script text set in ``font_name``."""
    return fallback(font_name, "Arab")


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
    cmap = _outlines(font_name)[1]
    name = cmap.get(ord(char))
    return None if name is None else _bounds(font_name, name)


@functools.lru_cache(maxsize=64)
def hb_font(font_name: str):
    """HarfBuzz's font for a registered font's file, at its units per em: (font, units per em)."""
    import uharfbuzz as hb
    from reportlab.pdfbase import pdfmetrics

    with open(pdfmetrics.getFont(font_name).face.filename, "rb") as file:
        face = hb.Face(hb.Blob(file.read()))
    return hb.Font(face), face.upem


@functools.lru_cache(maxsize=65536)
def gid_ink(font_name: str, gid: int) -> tuple[float, float, float, float] | None:
    """A glyph's ink box (left, bottom, right, top) from its origin, in ems, by its number: HarfBuzz's
    extents of the glyph (its outline's), which it finds far faster than drawing the outline."""
    hbf, units = hb_font(font_name)
    extents = hbf.get_glyph_extents(gid)
    if extents is None or (extents.width == 0 and extents.height == 0):
        return None
    left, top = extents.x_bearing, extents.y_bearing
    return (left / units, (top + extents.height) / units, (left + extents.width) / units, top / units)


def _bounds(font_name: str, name: str):
    from fontTools.pens.boundsPen import BoundsPen

    glyphs, _, units = _outlines(font_name)
    pen = BoundsPen(glyphs)
    glyphs[name].draw(pen)
    return None if pen.bounds is None else tuple(v / units for v in pen.bounds)


def ink_extent(font_name: str, chars: str) -> tuple[float, float] | None:
    """The lowest and highest ink of ``chars`` in a registered font, in ems from the
    baseline; None when none of them draws anything."""
    boxes = [box for box in map(lambda ch: glyph_ink(font_name, ch), chars) if box]
    return (min(b[1] for b in boxes), max(b[3] for b in boxes)) if boxes else None


def register_roles(layout, language: str | None = None, chars: str | None = None) -> dict[str, str]:
    """Each layout font role (word, label, ...) -> its registered reportlab name; each role's
    families for other scripts (its ``arabic`` and the layout's ``scripts``, ``Hani-ja`` before
    ``Hani`` in a kit in ``language`` ja) are set as that font's fallbacks (``set_fallbacks``).
    ``chars``: the characters the kit may draw (``register``)."""
    names = {}
    table = scripts_for(layout, language)
    _precut(_wanted(layout, table, chars))
    for role, spec in layout.fonts.items():
        names[role] = register(spec.family, int(spec.weight)).registered_name
        _languages[names[role]] = language
        families = dict(table, Arab=spec.arabic)
        set_fallbacks(names[role], {script: (family, int(spec.weight)) for script, family in families.items()},
                      chars)
    return names


def _wanted(layout, table: dict[str, str], chars: str | None) -> list[tuple]:
    """The fonts a kit of these characters will draw: each role's, and the family of each script among
    the characters (the Arabic one a role names as its ``arabic``), at the role's weight."""
    from fontTools import unicodedata as ucd

    scripts = {ucd.script(ch) for ch in chars or ""}
    wanted = []
    for spec in layout.fonts.values():
        wanted.append((spec.family, int(spec.weight), False, None))
        families = dict(table, Arab=spec.arabic)
        wanted += [(families[s], int(spec.weight), True, chars) for s in sorted(scripts) if s in families]
    return list(dict.fromkeys(wanted))


def scripts_for(layout, language: str | None) -> dict[str, str]:
    """The layout's ``scripts`` for a kit in ``language``: script -> family."""
    table, own = {}, {}
    for key, family in (layout.get("scripts") or {}).items():
        script, _, lang = key.partition("-")
        if not lang:
            table[script] = family
        elif lang == language:
            own[script] = family
    return {**table, **own}
