"""A request's uploads, saved under safe names in its workspace: the deck (pasted words, one words
deck, several pictures or a zip of pictures) and its layouts, as a ``Deck`` that maps each saved
path back to the name the person gave."""

import io
import re
import zipfile
from dataclasses import dataclass, field
from pathlib import Path

from . import limits
from .limits import BadRequest, quoted
from .workspace import LAYOUTS, UPLOAD

_EXTENSION = re.compile(r"\.[a-z0-9]{1,5}")


@dataclass
class Deck:
    """The uploads of one request, saved under safe names in ``folder/upload/``: ``argument`` is
    what ``--deck`` gets (relative to ``folder``) and ``names`` maps each saved path back to the
    name the person gave, for messages."""

    folder: Path
    argument: str | None = None
    names: dict[str, str] = field(default_factory=dict)
    layout: str | None = None           # what ``--layout`` gets, when a layout was uploaded

    def shown(self, text: str) -> str:
        """A command-line message with each saved path replaced by the uploaded file's own name."""
        for saved, original in sorted(self.names.items(), key=lambda item: -len(item[0])):
            text = text.replace(saved, original)
        return text


def safe_name(original: str, taken: set[str]) -> str:
    """A name to save an upload under: the stem as ``names.slug`` makes a kit id of it (so the kit id
    is the one the command line derives from the same file name), a checked extension, and a
    number when two uploads would share it. Nothing of ``original`` but letters, digits and '-'."""
    from ..names import slug

    base = original.replace("\\", "/").rsplit("/", 1)[-1]
    stem, dot, extension = base.rpartition(".")
    extension = f".{extension.lower()}" if dot and _EXTENSION.fullmatch(f".{extension.lower()}") else ""
    stem = slug(stem if dot else base)
    name, n = stem + extension, 1
    while name in taken:
        n += 1
        name = f"{stem}-{n}{extension}"
    taken.add(name)
    return name


def save_uploads(folder: Path, uploads: list, words: str | None, words_name: str | None,
                 layouts: list | None = None) -> Deck:
    """Save a request's deck: pasted words (a .txt file), one words deck, several pictures, or a zip
    of pictures; and its uploaded layouts (``_save_layouts``). The ``Deck``'s ``argument`` is None
    when no deck was uploaded."""
    deck = Deck(folder)
    uploads = [u for u in uploads if u.filename]
    layouts = [u for u in layouts or [] if u.filename]
    if len(uploads) + len(layouts) > limits.MAX_FILES:
        raise BadRequest(f"{len(uploads) + len(layouts)} files uploaded: at most {limits.MAX_FILES} in one build")
    (folder / UPLOAD).mkdir()
    _save_layouts(folder, layouts, deck)
    if words and words.strip():
        if uploads:
            raise BadRequest("give pasted words or a deck file, not both")
        uploads = [_Pasted(words, f"{words_name or 'words'}.txt")]
    if not uploads:
        return deck
    target = folder / UPLOAD
    taken: set[str] = {LAYOUTS}
    if len(uploads) == 1 and uploads[0].filename.lower().endswith(".zip"):
        target = target / safe_name(uploads[0].filename[:-4], taken)
        target.mkdir()
        deck.argument = f"{UPLOAD}/{target.name}"
        deck.names[deck.argument] = uploads[0].filename
        _unzip(uploads[0], target, deck)
        return deck
    if len(uploads) == 1:
        name = safe_name(uploads[0].filename, taken)
        uploads[0].save(str(target / name))
        deck.argument = f"{UPLOAD}/{name}"
        deck.names[deck.argument] = uploads[0].filename
        return deck
    target = target / "pictures"
    target.mkdir()
    deck.argument = f"{UPLOAD}/pictures"
    deck.names[deck.argument] = "the uploaded pictures"
    for upload in uploads:
        name = safe_name(upload.filename, taken)
        upload.save(str(target / name))
        deck.names[f"{deck.argument}/{name}"] = upload.filename
        deck.names[name] = upload.filename
    return deck


def _save_layouts(folder: Path, layouts: list, deck: Deck) -> None:
    """Uploaded layouts, saved in ``folder/upload/layout/``: the first is the one the command uses; the
    others are what it ``extends``, by their own file names. The command line runs confined to that
    folder (``layouts.CONFINED``): a layout there may extend a built-in layout or another uploaded one,
    never a path of the server."""
    if not layouts:
        return
    target = folder / UPLOAD / LAYOUTS
    target.mkdir()
    taken: set[str] = set()
    for upload in layouts:
        base = upload.filename.replace("\\", "/").rsplit("/", 1)[-1]
        if not re.fullmatch(r"[A-Za-z0-9][A-Za-z0-9_.-]{0,60}\.ya?ml", base) or base in taken:
            raise BadRequest(f"layout {quoted(upload.filename)}: upload layouts as .yaml files with plain, "
                             "different names (letters, digits, '-', '_', '.')")
        taken.add(base)
        upload.save(str(target / base))
        deck.names[f"{UPLOAD}/{LAYOUTS}/{base}"] = upload.filename
    deck.layout = f"{UPLOAD}/{LAYOUTS}/{layouts[0].filename.replace(chr(92), '/').rsplit('/', 1)[-1]}"


class _Pasted:
    """Pasted words, saved as an upload would be."""

    def __init__(self, text: str, filename: str):
        self.text, self.filename = text, filename

    def save(self, path: str) -> None:
        Path(path).write_text(self.text.replace("\r\n", "\n"), encoding="utf-8")


def _unzip(upload, target: Path, deck: Deck) -> None:
    """A zip of pictures, flattened into ``target`` under safe names; folders, hidden files and more
    than ``MAX_FILES`` entries or ``MAX_REQUEST_BYTES`` unpacked are refused or skipped."""
    data = io.BytesIO(upload.read())
    try:
        archive = zipfile.ZipFile(data)
        entries = [e for e in archive.infolist() if not e.is_dir() and not _hidden(e.filename)]
    except (zipfile.BadZipFile, OSError):
        raise BadRequest(f"{upload.filename}: not a readable zip file; zip the pictures again") from None
    if len(entries) > limits.MAX_FILES:
        raise BadRequest(f"{upload.filename}: {len(entries)} files in the zip: at most {limits.MAX_FILES} in one build")
    taken: set[str] = set()
    left = limits.MAX_REQUEST_BYTES
    for entry in entries:
        try:
            with archive.open(entry) as handle:
                data = handle.read(left + 1)
        except (zipfile.BadZipFile, OSError, RuntimeError, NotImplementedError):
            raise BadRequest(f"{upload.filename}: {entry.filename} cannot be unpacked; zip the pictures again") \
                from None
        left -= len(data)
        if left < 0:
            raise BadRequest(f"{upload.filename}: more than {limits.MAX_REQUEST_BYTES // 1_000_000} MB unpacked; "
                             "send fewer or smaller pictures", 413)
        name = safe_name(entry.filename, taken)
        (target / name).write_bytes(data)
        deck.names[f"{deck.argument}/{name}"] = f"{upload.filename}: {entry.filename}"
        deck.names[name] = entry.filename


def _hidden(name: str) -> bool:
    parts = name.replace("\\", "/").split("/")
    return any((p.startswith(".") and p not in (".", "..")) or p == "__MACOSX" for p in parts)
