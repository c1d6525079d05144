"""Picture decks of the pictures edition (docs/design.md §2.5, §9.3): a folder of PNG,
JPEG and SVG files, or a YAML file listing pictures (files beside it, or icons
from an installed icon set) with optional captions. Every picture is opened and
checked (kitgen/pictures.py) before anything is drawn."""

import importlib.resources
from dataclasses import dataclass
from pathlib import Path

from kitgen import files, pictures as pictures_mod, yamlio
from kitgen.errors import KitgenError
from kitgen.names import unprintable
from kitgen.pictures import RASTER, VECTOR, Picture, icon, read_picture

MIN_PICTURES = 20
MAX_PICTURES = 10_000         # as a words deck's MAX_WORDS: refused as the next is read, not after reading them all
YAML_KEYS = {"name", "language", "pictures", "credits"}


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
    if len(data["pictures"]) > MAX_PICTURES:
        raise KitgenError(f"lists more than {MAX_PICTURES:,} pictures; a deck has at most {MAX_PICTURES:,}",
                          source=src, line=lines.get(("pictures", MAX_PICTURES)))
    if isinstance(data.get("name"), str) and (problem := unprintable(data["name"], "the deck's name")):
        raise KitgenError(problem, source=src, line=lines.get(("name",)))
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
