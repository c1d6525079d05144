"""Picture decks (docs/design.md §2.1, §9.3): a folder of PNG, JPEG and SVG files, or a YAML
file listing pictures (files beside it, or icons from an installed icon set)
with optional captions. Every picture is opened and checked before anything
is drawn."""

import hashlib
import importlib.resources
import io
import re
from dataclasses import dataclass, field
from pathlib import Path

from . import yamlio
from .errors import KitgenError

MIN_PICTURES = 20
RASTER = {".png", ".jpg", ".jpeg"}
VECTOR = {".svg"}
MAX_PIXELS = 40_000_000          # beyond this a picture is refused as a decompression bomb
MAX_SVG_BYTES = 5_000_000
YAML_KEYS = {"name", "language", "pictures", "credits"}
ICON_SETS = {"phosphor": "py_phosphor_icons"}


@dataclass(frozen=True)
class Picture:
    name: str                  # what reports call it: the file name or icon reference
    data: bytes = field(repr=False)
    vector: bool
    pixels: tuple[int, int] | None = None     # width, height of a raster picture
    caption: str = ""


@dataclass(frozen=True)
class PictureDeck:
    name: str
    language: str
    pictures: tuple[Picture, ...]
    source: str
    credits: str = ""
    notes: tuple[str, ...] = ()       # files passed over, and the like

    @property
    def words(self) -> tuple[str, ...]:
        """Picture names, so reports that list a deck's entries work for both kinds."""
        return tuple(p.name for p in self.pictures)


def builtin_path(name: str) -> Path | None:
    path = Path(str(importlib.resources.files("kitgen.builtin_decks"))) / f"{name}.yaml"
    return path if path.exists() else None


def _icon(reference: str, source: str, line: int | None) -> tuple[str, bytes]:
    """``phosphor:cat`` -> the SVG of that icon from its installed package (filled weight)."""
    set_name, _, icon = reference.partition(":")
    if set_name not in ICON_SETS or not icon:
        raise KitgenError(f"icon {reference!r}: write <set>:<name>, sets: {', '.join(ICON_SETS)}",
                          source=source, line=line)
    try:
        root = Path(str(importlib.resources.files(ICON_SETS[set_name])))
    except ModuleNotFoundError:
        raise KitgenError(f"the icon set {set_name!r} is not installed: pip install "
                          f"{ICON_SETS[set_name].replace('_', '-')}", source=source, line=line) from None
    path = root / "svgs" / "flat" / "fill" / f"{icon}-fill.svg"
    if not path.exists():
        raise KitgenError(f"no icon {icon!r} in the {set_name} set", source=source, line=line)
    return reference, path.read_bytes()


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


_drawings: dict = {}
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
    stand-in colour (cached by content, never changed: drawing works on copies, and
    kitgen/render/picturecards.py gives currentColor the layout's picture colour).
    KitgenError if it does not parse."""
    key = hashlib.sha256(data).digest()
    if key not in _drawings:
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
        _drawings[key] = (drawing, stand_in)
    return _drawings[key]


def drawing_of(data: bytes, where: str = "SVG"):
    """The SVG as a reportlab Drawing; KitgenError if it does not parse."""
    return parsed_svg(data, where)[0]


def _from_folder(folder: Path) -> tuple[list[Picture], list[str]]:
    pictures, notes = [], []
    for path in sorted(folder.iterdir(), key=lambda p: p.name):
        if path.name.startswith(".") or path.is_dir():
            continue
        if path.suffix.lower() not in RASTER | VECTOR:
            notes.append(f"{path.name}: not a PNG, JPEG or SVG file; passed over")
            continue
        pictures.append(read_picture(path.name, path.read_bytes(), path.suffix.lower() in VECTOR,
                                     source=str(path)))
    return pictures, notes


def _from_yaml(path: Path) -> tuple[dict, list[Picture]]:
    data, lines = yamlio.load(path)
    src = str(path)
    if not isinstance(data, dict) or not isinstance(data.get("pictures"), list):
        raise KitgenError("a picture deck lists its pictures under 'pictures'", source=src)
    for key in data:
        if key not in YAML_KEYS:
            raise KitgenError(f"unknown key {key!r}; a picture deck has {', '.join(sorted(YAML_KEYS))}",
                              source=src, line=lines.get((key,)))
    pictures = []
    for i, entry in enumerate(data["pictures"]):
        line = lines.get(("pictures", i))
        if isinstance(entry, str):
            entry = {"file": entry}
        if not isinstance(entry, dict) or len({"file", "icon"} & set(entry)) != 1 or \
                set(entry) - {"file", "icon", "caption"}:
            raise KitgenError("each picture is a file name, or {file: ..., caption: ...}, or "
                              "{icon: set:name, caption: ...}", source=src, line=line)
        caption = entry.get("caption") or ""
        if not isinstance(caption, str):
            raise KitgenError("a caption is text", source=src, line=line)
        if "icon" in entry:
            name, blob = _icon(str(entry["icon"]), src, line)
            vector = True
        else:
            file = (path.parent / str(entry["file"])).resolve()
            if path.parent.resolve() not in file.parents:
                raise KitgenError(f"{entry['file']!r} is outside the deck's folder", source=src, line=line)
            try:
                blob = file.read_bytes()
            except OSError:
                raise KitgenError(f"cannot read {entry['file']!r}; check the name", source=src, line=line) from None
            name = str(entry["file"])
            vector = file.suffix.lower() in VECTOR
            if file.suffix.lower() not in RASTER | VECTOR:
                raise KitgenError(f"{name!r} is not a PNG, JPEG or SVG file", source=src, line=line)
        pictures.append(read_picture(name, blob, vector, caption, line, src if "icon" in entry else str(file)))
    return data, pictures


def is_picture_deck(name_or_path: str) -> bool:
    """A folder, a built-in picture deck, or a YAML file with a ``pictures`` list."""
    path = builtin_path(name_or_path) if not Path(name_or_path).suffix and "/" not in name_or_path else None
    path = path or Path(name_or_path)
    if path.is_dir():
        return True
    if path.suffix.lower() in (".yaml", ".yml") and path.is_file():
        data, _ = yamlio.load(path)
        return isinstance(data, dict) and "pictures" in data
    return False


def load(name_or_path: str | Path, relative_to: Path | None = None) -> PictureDeck:
    """A folder of pictures, a YAML picture deck, or a built-in picture deck name."""
    text = str(name_or_path)
    path = builtin_path(text) if not Path(text).suffix and "/" not in text else None
    if path is None:
        path = Path(text)
        if not path.is_absolute() and relative_to is not None:
            path = relative_to.parent / path
    if not path.exists():
        raise KitgenError("no such picture folder or deck file; check the path", source=str(path))
    meta: dict = {}
    notes: list[str] = []
    if path.is_dir():
        pictures, notes = _from_folder(path)
    elif path.suffix.lower() in (".yaml", ".yml"):
        meta, pictures = _from_yaml(path)
    else:
        raise KitgenError("a picture deck is a folder of pictures or a .yaml file listing them", source=str(path))
    seen: dict[bytes, str] = {}
    for picture in pictures:
        digest = hashlib.sha256(picture.data).digest()
        if digest in seen:
            raise KitgenError(f"{picture.name} is the same picture as {seen[digest]}; keep one", source=str(path))
        seen[digest] = picture.name
    if len(pictures) < MIN_PICTURES:
        raise KitgenError(f"has {len(pictures)} pictures; a pictures kit needs at least {MIN_PICTURES}",
                          source=str(path))
    return PictureDeck(meta.get("name") or path.stem, meta.get("language") or "en", tuple(pictures), str(path),
                       meta.get("credits", ""), tuple(notes))


def low_resolution(deck: PictureDeck, box_w: float, box_h: float, dpi: float = 150) -> list[str]:
    """Raster pictures below ``dpi`` at their printed size: warnings naming them."""
    warnings = []
    for picture in deck.pictures:
        if picture.pixels is None:
            continue
        w, h = picture.pixels
        scale = min(box_w / w, box_h / h)            # points per pixel when fitted
        effective = 72 / scale
        if effective < dpi:
            warnings.append(f"{picture.name}: {effective:.0f} dpi at its printed size (below {dpi}); "
                            "use a larger picture for a sharp print")
    return warnings
