"""Picture decks of the pictures edition (docs/design.md §2.5, §9.3): a folder of PNG,
JPEG and SVG files, or a YAML file listing pictures (files beside it, or icons
from an installed icon set) with optional captions. Every picture is opened and
checked (kitgen/pictures.py) before anything is drawn."""

import dataclasses
import importlib.resources
import re
from dataclasses import dataclass
from pathlib import Path

from kitgen import compose, files, pictures as pictures_mod, yamlio
from kitgen.errors import KitgenError
from kitgen.names import unprintable
from kitgen.pictures import RASTER, VECTOR, Picture, icon, read_picture

MIN_PICTURES = 20
MAX_PICTURES = 10_000         # as a words deck's MAX_WORDS: refused as the next is read, not after reading them all
YAML_KEYS = {"name", "language", "pictures", "credits", "licence", "sources", "backdrops"}
# a picture composed of two source drawings (docs/design.md §8.14)
COMPOSED_KEYS = {"name", "relation", "a", "b", "size", "at", "mirror", "tilt", "clues", "backdrop"}
MAX_CLUES = 12


@dataclass(frozen=True)
class PictureDeck:
    name: str
    language: str
    pictures: tuple[Picture, ...]
    source: str
    credits: str = ""
    passed_over: tuple[tuple[str, str], ...] = ()      # (file name, why) of each file in a folder not read

    @property
    def notes(self) -> tuple[str, ...]:
        """The files passed over, as the build's and the check's notes."""
        return tuple(f"{name}: {why}" for name, why in self.passed_over)

    @property
    def words(self) -> tuple[str, ...]:
        """Picture names, so reports that list a deck's entries work for both kinds."""
        return tuple(p.name for p in self.pictures)


def builtin_path(name: str) -> Path | None:
    path = Path(str(importlib.resources.files("kitgen.builtin_decks"))) / f"{name}.yaml"
    return path if path.exists() else None


def _from_folder(folder: Path) -> tuple[list[Picture], list[tuple[str, str]]]:
    pictures, notes = [], []
    for path in sorted(folder.iterdir(), key=lambda p: p.name):
        if path.name.startswith(".") or path.is_dir():
            continue
        if path.suffix.lower() not in RASTER | VECTOR:
            notes.append((path.name, "not a PNG, JPEG or SVG file; passed over"))
            continue
        if len(pictures) == MAX_PICTURES:
            raise KitgenError(f"holds more than {MAX_PICTURES:,} pictures; a deck has at most {MAX_PICTURES:,}",
                              source=str(folder))
        if problem := unprintable(path.name, "the file name", "rename the file"):
            raise KitgenError(problem, source=str(folder))
        why = files.is_regular(path)          # a FIFO, a device or a link to one is never opened
        if why:
            notes.append((path.name, f"{why.split(';')[0]}; passed over"))
            continue
        pictures.append(read_picture(path.name, pictures_mod.read_file(path), path.suffix.lower() in VECTOR,
                                     source=str(path), sources=({"file": path.name},)))
    return pictures, notes


def _sources(path: Path, data: dict, lines: dict) -> compose.SourceSet | None:
    """The deck's source set (``sources:``, a folder beside the deck with its index), or None."""
    if "sources" not in data:
        return None
    line = lines.get(("sources",))
    name = data["sources"]
    folder = (path.parent / str(name)).resolve()
    if not isinstance(name, str) or path.parent.resolve() not in folder.parents or not folder.is_dir():
        raise KitgenError("sources: the name of a folder beside the deck, holding its drawings and their "
                          f"{compose.INDEX}", source=str(path), line=line)
    return compose.load_sources(folder)


def _number(entry: dict, key: str, low: float, high: float, src: str, line) -> float | None:
    value = entry.get(key)
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, int | float) or not low <= value <= high:
        raise KitgenError(f"{key}: a number from {low:g} to {high:g}", source=src, line=line)
    return float(value)


def _backdrops(data: dict, lines: dict, src: str) -> dict[str, str]:
    """The deck's palette of backdrops (``backdrops: {sky: "#A8D8F0", ...}``), or none."""
    palette = data.get("backdrops", {})
    if not isinstance(palette, dict) or not all(isinstance(k, str) and isinstance(v, str) and
                                                re.fullmatch(r"#[0-9A-Fa-f]{6}", v) for k, v in palette.items()):
        raise KitgenError('backdrops: a mapping of names to colours, {sky: "#A8D8F0", ...}', source=src,
                          line=lines.get(("backdrops",)))
    return palette


def _composed(entry: dict, sources: compose.SourceSet | None, licence: str, src: str, lines: dict,
              i: int, palette: dict[str, str]) -> Picture:
    """A picture composed of two source drawings, every value checked with its line."""
    line = lines.get(("pictures", i))

    def at(key):
        return lines.get(("pictures", i, key), line)

    if sources is None:
        raise KitgenError("a composed picture needs the deck's 'sources:' folder", source=src, line=line)
    if unknown := set(entry) - COMPOSED_KEYS:
        raise KitgenError(f"unknown key {sorted(unknown)[0]!r}; a composed picture has "
                          f"{', '.join(sorted(COMPOSED_KEYS))}", source=src, line=at(sorted(unknown)[0]))
    name = entry.get("name")
    if not isinstance(name, str) or not name.strip():
        raise KitgenError("a composed picture has a name (what it shows: 'cactus wearing a crown')",
                          source=src, line=line)
    if problem := unprintable(name, "the name"):
        raise KitgenError(problem, source=src, line=at("name"))
    relation = entry.get("relation")
    if relation not in compose.RELATIONS:
        raise KitgenError(f"relation {relation!r}: one of {', '.join(compose.RELATIONS)}", source=src,
                          line=at("relation"))
    drawn = []
    for key in ("a", "b"):
        ref = entry.get(key)
        if not isinstance(ref, str) or ref not in sources.drawings:
            raise KitgenError(f"{key}: {ref!r} is not a drawing of {sources.folder.name}/{compose.INDEX}",
                              source=src, line=at(key))
        drawn.append(sources.source(ref))
    if entry["a"] == entry["b"]:
        raise KitgenError("a and b are the same drawing; a picture joins two", source=src, line=at("a"))
    shift = entry.get("at", [0, 0])
    if not isinstance(shift, list) or len(shift) != 2 or \
            not all(isinstance(v, int | float) and not isinstance(v, bool) and -1.5 <= v <= 1.5 for v in shift):
        raise KitgenError("at: [dx, dy], each from -1.5 to 1.5 (a's widths and heights)", source=src, line=at("at"))
    if not isinstance(entry.get("mirror", False), bool):
        raise KitgenError("mirror: true or false", source=src, line=at("mirror"))
    clues = entry.get("clues", [])
    if not isinstance(clues, list) or len(clues) > MAX_CLUES or not all(isinstance(c, str) for c in clues):
        raise KitgenError(f"clues: a list of at most {MAX_CLUES} words", source=src, line=at("clues"))
    composition = compose.Composition(relation, drawn[0], drawn[1], _number(entry, "size", 0.1, 1.5, src, at("size")),
                                      (float(shift[0]), float(shift[1])), entry.get("mirror", False),
                                      _number(entry, "tilt", -180, 180, src, at("tilt")) or 0.0)
    chosen = entry.get("backdrop")
    if chosen is not None and chosen != "none" and chosen not in palette:
        raise KitgenError(f"backdrop {chosen!r}: one of the deck's backdrops ({', '.join(palette) or 'it has none'}), "
                          "or none", source=src, line=at("backdrop"))
    if palette and chosen != "none":
        colour = palette[chosen or compose.backdrop(composition, palette, name)]
        composition = dataclasses.replace(composition, backdrop=colour.upper())
    try:
        svg = compose.composed(composition)
    except ValueError as err:
        raise KitgenError(str(err), source=src, line=line) from None
    return read_picture(name, svg, True, "", line, src, tuple(d.credit for d in drawn), licence or sources.licence)


def _from_yaml(path: Path) -> tuple[dict, list[Picture]]:
    data, lines = yamlio.load(path)
    src = str(path)
    if not isinstance(data, dict) or not isinstance(data.get("pictures"), list):
        raise KitgenError("a picture deck lists its pictures under 'pictures'", source=src)
    for key in data:
        if key not in YAML_KEYS:
            raise KitgenError(f"unknown key {key!r}; a picture deck has {', '.join(sorted(YAML_KEYS))}",
                              source=src, line=lines.get((key,)))
    if len(data["pictures"]) > MAX_PICTURES:
        raise KitgenError(f"lists more than {MAX_PICTURES:,} pictures; a deck has at most {MAX_PICTURES:,}",
                          source=src, line=lines.get(("pictures", MAX_PICTURES)))
    if isinstance(data.get("name"), str) and (problem := unprintable(data["name"], "the deck's name")):
        raise KitgenError(problem, source=src, line=lines.get(("name",)))
    licence = data.get("licence", "")
    if not isinstance(licence, str):
        raise KitgenError("licence: the pictures' licence, as text ('CC BY-SA 4.0')", source=src,
                          line=lines.get(("licence",)))
    sources = _sources(path, data, lines)
    palette = _backdrops(data, lines, src)
    pictures = []
    names: dict[str, int] = {}
    for i, entry in enumerate(data["pictures"]):
        line = lines.get(("pictures", i))
        if isinstance(entry, str):
            entry = {"file": entry}
        if isinstance(entry, dict) and "relation" in entry:
            picture = _composed(entry, sources, licence, src, lines, i, palette)
            if picture.name in names:
                raise KitgenError(f"{picture.name!r} is the name of the picture on line {names[picture.name]} "
                                  "too; give each its own", source=src, line=line)
            names[picture.name] = line
            pictures.append(picture)
            continue
        if not isinstance(entry, dict) or len({"file", "icon"} & set(entry)) != 1 or \
                set(entry) - {"file", "icon", "caption"}:
            raise KitgenError("each picture is a file name, or {file: ..., caption: ...}, or "
                              "{icon: set:name, caption: ...}", source=src, line=line)
        caption = entry.get("caption") or ""
        if not isinstance(caption, str):
            raise KitgenError("a caption is text", source=src, line=line)
        for key, what in (("file", "the file name"), ("icon", "the icon"), ("caption", "the caption")):
            if isinstance(entry.get(key), str) and (problem := unprintable(entry[key], what)):
                raise KitgenError(problem, source=src, line=lines.get(("pictures", i, key), line))
        if "icon" in entry:
            name, blob = icon(str(entry["icon"]), src, line)
            vector = True
        else:
            file = (path.parent / str(entry["file"])).resolve()
            if path.parent.resolve() not in file.parents:
                raise KitgenError(f"{entry['file']!r} is outside the deck's folder", source=src, line=line)
            try:
                blob = pictures_mod.read_file(file)
            except KitgenError as err:
                raise KitgenError(f"{entry['file']!r}: {err.message}", source=src, line=line) from None
            name = str(entry["file"])
            vector = file.suffix.lower() in VECTOR
            if file.suffix.lower() not in RASTER | VECTOR:
                raise KitgenError(f"{name!r} is not a PNG, JPEG or SVG file", source=src, line=line)
        origin = pictures_mod.icon_credit(name) if "icon" in entry else {"file": name}
        pictures.append(read_picture(name, blob, vector, caption, line, src if "icon" in entry else str(file),
                                     (origin,), licence or origin.get("licence", "")))
    compose.store().flush()           # what was composed now, kept for the next build
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
    notes: list[tuple[str, str]] = []
    if path.is_dir():
        pictures, notes = _from_folder(path)
    elif path.suffix.lower() in (".yaml", ".yml"):
        meta, pictures = _from_yaml(path)
    else:
        raise KitgenError("a picture deck is a folder of pictures or a .yaml file listing them", source=str(path))
    seen: dict[bytes, str] = {}
    for picture in pictures:
        if picture.digest in seen:
            raise KitgenError(f"{picture.name} is the same picture as {seen[picture.digest]}; keep one",
                              source=str(path))
        seen[picture.digest] = picture.name
    if len(pictures) < MIN_PICTURES:
        raise KitgenError(f"has {len(pictures)} pictures; a pictures kit needs at least {MIN_PICTURES}",
                          source=str(path))
    return PictureDeck(meta.get("name") or path.stem, meta.get("language") or "en", tuple(pictures), str(path),
                       meta.get("credits", ""), tuple(notes))
