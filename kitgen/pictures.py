"""Pictures, read and checked before anything is drawn (docs/design.md §9.3): PNG, JPEG
and SVG files, and icons from an installed icon set. A picture that cannot be
read, a decompression bomb, an SVG that refers outside itself: each is refused
in one line. What an SVG parsed to (its size) and drew (its PDF operators) is
kept on disk for later runs, so an SVG seen before is neither parsed nor drawn
again (SvgStore, docs/design.md §8.6)."""

import base64
import functools
import hashlib
import importlib.resources
import io
import json
import math
import re
from collections import OrderedDict
from dataclasses import dataclass, field
from pathlib import Path

from . import cache, files
from .errors import KitgenError

RASTER = {".png", ".jpg", ".jpeg"}
VECTOR = {".svg"}
MAX_PIXELS = 40_000_000          # beyond this a picture is refused as a decompression bomb
MAX_SVG_BYTES = 5_000_000
# a PNG or JPEG file larger than this is refused, not read: 40 million pixels of 8-bit RGBA
# stored without compression are 160 MB, and any picture kitgen takes is smaller
MAX_RASTER_BYTES = 200_000_000
ICON_SETS = {"phosphor": "py_phosphor_icons"}
# each icon set's name, licence and the file of its package that holds its version
ICON_CREDITS = {"phosphor": ("Phosphor Icons", "MIT", "phosphor_version.txt")}
# a picture beside what ``kitgen deck check --json`` says of it (screen only, never printed)
THUMBNAIL_PIXELS = 96
MAX_THUMBNAIL_SVG = 200_000


@dataclass(frozen=True)
class Picture:
    name: str                  # what reports call it: the file name or icon reference
    data: bytes = field(repr=False)
    vector: bool
    pixels: tuple[int, int] | None = None     # width, height of a raster picture
    caption: str = ""
    # where the picture is from, as the manifest lists it (docs/design.md §8.14): each source drawing's
    # credit (set, version, code, name, author) or the file or icon it is, and its licence ("" unknown)
    sources: tuple[dict, ...] = field(default=(), compare=False, hash=False)
    licence: str = field(default="", compare=False, hash=False)

    @functools.cached_property
    def digest(self) -> bytes:
        """The SHA-256 of the picture's bytes: what it is known by in caches and the deck's check."""
        return hashlib.sha256(self.data).digest()


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
    return reference, files.read_bytes(path, MAX_SVG_BYTES, "SVG pictures")


@functools.lru_cache(maxsize=len(ICON_SETS))
def icon_set_version(set_name: str) -> str:
    """An installed icon set's own version, as its package records it ("?" when it cannot be read)."""
    try:
        path = importlib.resources.files(ICON_SETS[set_name]) / ICON_CREDITS[set_name][2]
        return path.read_text(encoding="utf-8").strip().lstrip("v")
    except (ModuleNotFoundError, OSError):
        return "?"


def icon_credit(reference: str) -> dict:
    """Where an icon (``phosphor:cat``) is from, as the manifest lists it: set, version, name, licence."""
    set_name, _, name = reference.partition(":")
    title, licence, _ = ICON_CREDITS[set_name]
    return {"set": title, "version": icon_set_version(set_name), "name": name, "licence": licence}


def read_file(path: Path) -> bytes:
    """A picture file's bytes (a regular file, at most MAX_SVG_BYTES for an SVG or MAX_RASTER_BYTES
    for a PNG or JPEG), refused in one line otherwise."""
    if path.suffix.lower() in VECTOR:
        return files.read_bytes(path, MAX_SVG_BYTES, "SVG pictures")
    return files.read_bytes(path, MAX_RASTER_BYTES, "PNG and JPEG pictures")


@functools.lru_cache(maxsize=len(ICON_SETS))
def _icon_folder(set_name: str) -> Path:
    """The folder of an installed icon set's filled SVGs (ModuleNotFoundError if not installed)."""
    return Path(str(importlib.resources.files(ICON_SETS[set_name]))) / "svgs" / "flat" / "fill"


def read_picture(name: str, data: bytes, vector: bool, caption: str = "", line: int | None = None,
                 source: str | None = None, sources: tuple[dict, ...] = (), licence: str = "") -> Picture:
    """Check one picture's bytes: a readable, whole PNG/JPEG of sane size, or an SVG that parses.
    ``sources`` and ``licence``: where it is from, kept on the picture."""
    where = source or name
    if vector:
        external = _external_reference(data)
        if external:
            raise KitgenError(f"the SVG refers to {external}, which kitgen never fetches or reads; "
                              "embed everything in the SVG", source=where, line=line)
        if len(data) > MAX_SVG_BYTES:
            raise KitgenError(f"SVG of {len(data) // 1_000_000} MB is too large "
                              f"(limit {MAX_SVG_BYTES // 1_000_000} MB)", source=where, line=line)
        svg_size(data, where)
        return Picture(name, data, True, None, caption, sources, licence)
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
    return Picture(name, data, False, size, caption, sources, licence)


_HREF = re.compile(rb"""(?:xlink:)?href\s*=\s*["']\s*([^"'#][^"']*)["']""", re.IGNORECASE)


def _external_reference(data: bytes) -> str | None:
    """What an SVG would load from outside itself: another file, a URL, an entity."""
    folded = data.lower()             # each search runs only where what it looks for is there at all
    if b"<!" in folded and re.search(rb"<!ENTITY|<!DOCTYPE[^>]*\[", data, re.IGNORECASE):
        return "an XML entity"
    if b"href" in folded:
        for match in _HREF.finditer(data):
            target = match.group(1).decode("utf-8", "replace")
            if not target.lower().startswith("data:"):
                return repr(target[:60])
    if b"url(" in folded and re.search(rb"url\(\s*['\"]?\s*(?!#|data:)[a-z]+:", data, re.IGNORECASE):
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
        store().remember(key, stand_in, drawing.width, drawing.height)
    return parsed


def svg_size(data: bytes, where: str = "SVG") -> tuple[float, float]:
    """The SVG's width and height in points, as its parse gives them: from the store when this
    content was parsed before (no parse, no svglib), else parsed now. KitgenError if it does not
    parse."""
    entry = store().entry(hashlib.sha256(data).digest())
    if entry is not None:
        return entry["width"], entry["height"]
    drawing = parsed_svg(data, where)[0]
    return drawing.width, drawing.height


def drawing_of(data: bytes, where: str = "SVG"):
    """The SVG as a reportlab Drawing; KitgenError if it does not parse."""
    return parsed_svg(data, where)[0]


# What the store keeps for an SVG depends on svglib and the libraries it parses with, on
# reportlab, and on kitgen's own conversion: the stand-in (_stand_in, parsed_svg), the copy made
# ready for a layout (render/pictures._prepared, paint.to_cmyk) and what decides the operators
# (render/pictures._canvas_state, _render). Changing any of these: bump PICTURE_RECIPE, which with
# the libraries' versions names the stored files, so nothing stored before is used again.
PICTURE_RECIPE = 1
RECIPE_LIBRARIES = ("svglib", "reportlab", "lxml", "cssselect2", "tinycss2")
# What stored operators may hold: numbers, operator names, dash arrays. No name (/: a font, an
# image, a transparency state), no string ((), no hex string or dictionary (<).
OPERATORS = re.compile(r"[0-9A-Za-z .*\[\]-]*")
ENTRY_KEYS = {"recipe", "svg", "stand_in", "width", "height", "replays"}
MAX_ENTRY_BYTES = 20_000_000
MAX_REPLAYS = 32
FLUSH_AFTER = 512


@functools.lru_cache(maxsize=1)
def recipe() -> str | None:
    """12 hex digits naming how SVGs are parsed and drawn here: the versions of RECIPE_LIBRARIES
    and PICTURE_RECIPE; None (nothing stored or read) when one of them is not installed."""
    from kitgen.versions import installed

    found = [installed(name) for name in RECIPE_LIBRARIES]
    if None in found:
        return None
    versions = [f"{name} {version}" for name, version in zip(RECIPE_LIBRARIES, found)]
    return hashlib.sha256("|".join(versions + [f"kitgen {PICTURE_RECIPE}"]).encode()).hexdigest()[:12]


def _number(value) -> bool:
    return type(value) in (int, float) and math.isfinite(value) and value > 0


def _joined_lines(lines) -> str | None:
    """The lines joined by a space, or None when one is not text (joining checks each, at C speed)."""
    try:
        return " ".join(lines)
    except TypeError:
        return None


def _valid_replay(replay) -> bool:
    """{"lines": [operators...], "version": [major, minor]}, every line within OPERATORS."""
    if not (isinstance(replay, dict) and set(replay) == {"lines", "version"} and isinstance(replay["lines"], list)):
        return False
    # the lines joined by a space (which OPERATORS holds): within it exactly when each line is
    joined = _joined_lines(replay["lines"])
    return (joined is not None and OPERATORS.fullmatch(joined) is not None
            and isinstance(replay["version"], list) and len(replay["version"]) == 2
            and all(type(n) is int and 0 <= n < 100 for n in replay["version"]))


def _valid_entry(entry, digest: bytes, recipe: str) -> bool:
    """Whether ``entry`` is what the store writes for this content under this recipe, in every
    key and type."""
    return (isinstance(entry, dict) and set(entry) == ENTRY_KEYS
            and entry["recipe"] == recipe and entry["svg"] == digest.hex() and entry["stand_in"] in STAND_INS
            and _number(entry["width"]) and _number(entry["height"])
            and isinstance(entry["replays"], dict) and len(entry["replays"]) <= MAX_REPLAYS
            and all(type(k) is str and _valid_replay(v) for k, v in entry["replays"].items()))


class SvgStore:
    """What was learnt about SVG contents, kept in a folder for later runs (docs/design.md §8.6):
    one JSON file for each content svglib parsed, named by the content's SHA-256 and the recipe,
    holding its stand-in colour, width and height, and for each replay key (render/pictures.py)
    the PDF operators its drawing gave and the PDF version they need. A file is read only if it
    is in every key and type what would be written (else it is a miss, never an error). What a
    process learns is written when it exits (or every FLUSH_AFTER contents), each file merged
    with what it holds by then and written whole (a temporary file renamed); a folder that
    cannot be written leaves only this process's memory. ``folder`` None: nothing is read or
    written."""

    def __init__(self, folder: Path | None):
        self.folder = folder
        self._entries = ContentCache(4096)     # content digest -> its entry, as read or learnt
        self._unwritten: dict[bytes, dict] = {}      # entries with what their files do not hold
        self._writable = True
        self._at_exit = False

    def _path(self, digest: bytes) -> Path | None:
        if self.folder is None or recipe() is None:
            return None
        return self.folder / f"{digest.hex()}-{recipe()}.json"

    def _read(self, digest: bytes) -> dict | None:
        path = self._path(digest)
        if path is None:
            return None
        try:
            raw = files.read_bytes(path, MAX_ENTRY_BYTES, "cache entries")       # a FIFO here: a miss, no wait
            entry = json.loads(raw)
        except (KitgenError, OSError, ValueError, RecursionError):
            return None
        return entry if len(raw) <= MAX_ENTRY_BYTES and _valid_entry(entry, digest, recipe()) else None

    def _learnt(self, digest: bytes, entry: dict) -> None:
        self._entries.put(digest, entry)
        if not self._writable:
            return
        self._unwritten[digest] = entry
        if not self._at_exit:
            import atexit

            atexit.register(self.flush)
            self._at_exit = True
        if len(self._unwritten) >= FLUSH_AFTER:
            self.flush()

    def entry(self, digest: bytes) -> dict | None:
        """The stored entry of this content (an SVG that parsed), or None."""
        entry = self._entries.get(digest) or self._unwritten.get(digest)
        if entry is None:
            entry = self._read(digest)
            if entry is not None:
                self._entries.put(digest, entry)
        return entry

    def remember(self, digest: bytes, stand_in: str, width, height) -> None:
        """Record that this content parsed, to this stand-in and size (if not known yet)."""
        if self.folder is None or recipe() is None or self._entries.get(digest) is not None:
            return
        entry = {"recipe": recipe(), "svg": digest.hex(), "stand_in": stand_in, "width": width, "height": height,
                 "replays": {}}
        if _valid_entry(entry, digest, recipe()):      # only what reading would trust is kept
            self._learnt(digest, entry)

    def operators(self, digest: bytes, key: str) -> tuple[tuple[str, ...], tuple[int, int]] | None:
        """(lines, PDF version) stored for this content under the replay key ``key``, or None."""
        entry = self.entry(digest)
        replay = None if entry is None else entry["replays"].get(key)
        return None if replay is None else (tuple(replay["lines"]), tuple(replay["version"]))

    def add_operators(self, digest: bytes, key: str, lines, version) -> None:
        """Record the operators a drawing of this content gave under ``key``."""
        entry = self.entry(digest)
        replay = {"lines": list(lines), "version": list(version)}
        if entry is None or not _valid_replay(replay) or entry["replays"].get(key) == replay:
            return
        self._learnt(digest, dict(entry, replays=_newest({**entry["replays"], key: replay})))

    def flush(self) -> None:
        """Write what was learnt: each file merged with what it holds now (another kitgen may have
        added replay keys), the newest MAX_REPLAYS kept."""
        unwritten, self._unwritten = self._unwritten, {}
        for digest, entry in unwritten.items():
            path = self._path(digest)
            if path is None or not self._writable:
                return
            there = self._read(digest)
            if there is not None:
                entry = dict(entry, replays=_newest({**there["replays"], **entry["replays"]}))
                if entry == there:
                    continue
            try:
                cache.write_atomically(path, json.dumps(entry, separators=(",", ":")).encode())
            except OSError:
                self._writable = False       # no cache for the rest of this run; the build goes on


def _newest(replays: dict) -> dict:
    """The last MAX_REPLAYS of ``replays``."""
    return dict(list(replays.items())[-MAX_REPLAYS:])


_store: SvgStore | None = None


def store() -> SvgStore:
    """This process's SVG store, in the cache folder's ``pictures`` (kitgen/cache.py)."""
    global _store
    if _store is None:
        _store = SvgStore(cache.folder("pictures"))
    return _store


def low_resolution(pictures, box_w: float, box_h: float, dpi: float = 150) -> list[str]:
    """Raster pictures below ``dpi`` at their printed size: warnings naming them."""
    return [f"{picture.name}: {why}" for picture, why in blurred(pictures, box_w, box_h, dpi)]


def blurred(pictures, box_w: float, box_h: float, dpi: float = 150) -> list[tuple[Picture, str]]:
    """Each raster picture below ``dpi`` at its printed size, with what to say of it."""
    found = []
    for picture in pictures:
        if picture.pixels is None:
            continue
        w, h = picture.pixels
        scale = min(box_w / w, box_h / h)            # points per pixel when fitted
        effective = 72 / scale
        if effective < dpi:
            found.append((picture, f"{effective:.0f} dpi at its printed size (below {dpi}); "
                                   "use a larger picture for a sharp print"))
    return found


def thumbnail(picture: Picture, pixels: int = THUMBNAIL_PIXELS) -> str | None:
    """A small image of a picture to show beside what a check says of it, as a ``data:`` URL:
    a raster picture scaled to at most ``pixels`` a side, as PNG; an SVG as itself (a browser
    draws it as an image, running nothing), unless it is larger than ``MAX_THUMBNAIL_SVG``."""
    if picture.vector:
        if len(picture.data) > MAX_THUMBNAIL_SVG:
            return None
        return "data:image/svg+xml;base64," + base64.b64encode(picture.data).decode("ascii")
    from PIL import Image

    with Image.open(io.BytesIO(picture.data)) as image:
        image.draft("RGB", (pixels, pixels))          # a JPEG decodes at a fraction of its size
        small = image.convert("RGBA")
    small.thumbnail((pixels, pixels))
    buffer = io.BytesIO()
    small.save(buffer, format="PNG", optimize=True)
    return "data:image/png;base64," + base64.b64encode(buffer.getvalue()).decode("ascii")
