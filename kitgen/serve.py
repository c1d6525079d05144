"""``kitgen serve``: a local web app over the command line (docs/design.md §11).

Every build, check and preview runs the command line itself (``python -m kitgen ...``) in a
fresh temporary folder, so the page gives the same bytes and the same one-line messages as a
terminal, builds in two tabs never share state (fonts, caches), and a bad deck cannot take the
server down. This module knows no game: the command line brings the families in.
"""

import fcntl
import hmac
import io
import json
import os
import re
import secrets
import shutil
import socket
import subprocess
import sys
import tempfile
import threading
import time
import unicodedata
import zipfile
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path

from .errors import KitgenError

# Limits of a request (docs/design.md §9.3); the files inside are held to the command line's own limits.
MAX_REQUEST_BYTES = 200_000_000     # the whole upload; more is answered 413
MAX_FILES = 1_000                   # files in one request, or pictures in one zip
MAX_CHILDREN = 4                    # kitgen processes at once (build, game, check, preview); more wait
MAX_WAITING = 8                     # requests and page builds waiting for one; more are answered 503 (busy)
CHILD_MEMORY = 3 * 2**30            # the address space one kitgen process may take (a 100,000-key kit: 0.7 GB)
BUILD_SECONDS = 1_800               # a build that takes longer is stopped
KEPT_JOBS = 8                       # the page's finished builds kept in memory for download
PREVIEW_DPI = 40
TOKEN_COOKIE = "kitgen_token"
UPLOAD = "upload"                   # the folder of a build's uploads, inside its temporary folder
LAYOUTS = "layout"                  # uploaded layouts, in UPLOAD; the command line is confined to it
DRAWN = "drawn"                     # where a build puts each part as it is drawn, for its preview
_EXTENSION = re.compile(r"\.[a-z0-9]{1,5}")
_BUILTIN = re.compile(r"[a-z0-9][a-z0-9-]{0,40}")
_TRUE, _FALSE = {"1", "on", "true", "yes"}, {"", "0", "off", "false", "no"}


class BadRequest(Exception):
    """A request kitgen refuses: its one-line message, and the HTTP status to answer with."""

    def __init__(self, message: str, status: int = 400):
        super().__init__(message)
        self.status = status


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
    from .names import slug

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
    if len(uploads) + len(layouts) > MAX_FILES:
        raise BadRequest(f"{len(uploads) + len(layouts)} files uploaded: at most {MAX_FILES} in one build")
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
            raise BadRequest(f"layout {_shown(upload.filename)}: upload layouts as .yaml files with plain, "
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
    if len(entries) > MAX_FILES:
        raise BadRequest(f"{upload.filename}: {len(entries)} files in the zip: at most {MAX_FILES} in one build")
    taken: set[str] = set()
    left = MAX_REQUEST_BYTES
    for entry in entries:
        try:
            with archive.open(entry) as handle:
                data = handle.read(left + 1)
        except (zipfile.BadZipFile, OSError, RuntimeError, NotImplementedError):
            raise BadRequest(f"{upload.filename}: {entry.filename} cannot be unpacked; zip the pictures again") \
                from None
        left -= len(data)
        if left < 0:
            raise BadRequest(f"{upload.filename}: more than {MAX_REQUEST_BYTES // 1_000_000} MB unpacked; "
                             "send fewer or smaller pictures", 413)
        name = safe_name(entry.filename, taken)
        (target / name).write_bytes(data)
        deck.names[f"{deck.argument}/{name}"] = f"{upload.filename}: {entry.filename}"
        deck.names[name] = entry.filename


def _hidden(name: str) -> bool:
    parts = name.replace("\\", "/").split("/")
    return any((p.startswith(".") and p not in (".", "..")) or p == "__MACOSX" for p in parts)


@dataclass(frozen=True)
class Field:
    """One field a request may send (docs/design.md §11): its name, which is the option of the same
    name of each command in ``commands``; its kind (``choice``, ``number``, ``flag``, ``text``, or a
    command's ``deck`` and ``layout``, which name a built-in when nothing is uploaded); and its range:
    ``choices``, ``low``..``high``, or at most ``high`` characters."""

    name: str
    kind: str
    commands: tuple[str, ...]
    choices: tuple[str, ...] = ()
    low: int = 0
    high: int = 0

    def argument(self, value: str) -> str | None:
        """``--NAME=VALUE`` (``--NAME`` for a flag that is on; None for an empty value or a flag
        that is off), once the value is checked; else ``BadRequest`` in one line."""
        value = value.strip()
        if self.kind == "flag":
            if value.lower() not in _TRUE | _FALSE:
                raise BadRequest(f"{self.name} is on or off: send 1 or 0, not {_shown(value)}")
            return f"--{self.name}" if value.lower() in _TRUE else None
        if value == "":
            return None
        if self.kind == "choice" and value not in self.choices:
            raise BadRequest(f"{self.name} {_shown(value)}: one of {', '.join(self.choices)}")
        if self.kind == "number":
            if not re.fullmatch(r"[0-9]{1,9}", value) or not self.low <= int(value) <= self.high:
                raise BadRequest(f"{self.name} {_shown(value)}: a whole number from {self.low} to {self.high}")
            value = str(int(value))
        if self.kind == "text":
            if len(value) > self.high or any(unicodedata.category(c) in ("Cc", "Cs") for c in value):
                raise BadRequest(f"{self.name}: at most {self.high} characters, none of them a control character")
        if self.kind in ("deck", "layout") and not _BUILTIN.fullmatch(value):
            raise BadRequest(f"{self.name} {_shown(value)}: upload the {self.name}, or name a built-in one such "
                             f"as {'class-science' if self.kind == 'deck' else 'default'}")
        return f"--{self.name}={value}"


def _shown(value: str) -> str:
    return repr(value[:24] + ("..." if len(value) > 24 else ""))


BUILD, GAME, CHECK = "build", "game", "check"
# Every field the server takes. A field of another name, or one its command does not take, is refused.
FIELDS = {f.name: f for f in [
    Field("deck", "deck", (BUILD, GAME, CHECK)),
    Field("layout", "layout", (GAME, CHECK)),
    Field("words", "pasted", (BUILD, GAME, CHECK)),
    Field("name", "pasted", (BUILD, GAME, CHECK)),
    Field("edition", "choice", (BUILD, GAME), ("words", "pictures", "duet")),
    Field("game", "choice", (BUILD,), ("codenames", "deduction")),
    Field("lang", "choice", (BUILD, GAME), ("en", "ru", "fa")),
    Field("paper", "choice", (BUILD,), ("a4", "letter")),
    Field("board-paper", "choice", (BUILD,), ("a3", "a4", "letter")),
    Field("duplex", "choice", (BUILD,), ("long", "short", "none", "fold")),
    Field("ink", "choice", (BUILD, GAME), ("normal", "saver")),
    Field("color", "choice", (BUILD,), ("rgb", "cmyk")),
    Field("pod", "choice", (BUILD,), ("tgc", "mpc", "dtc")),
    Field("format", "choice", (GAME,), ("pdf", "markdown", "bbcode", "html", "text")),
    Field("keys", "number", (BUILD,), low=1, high=100_000),
    Field("players", "number", (BUILD,), low=2, high=5),
    Field("count", "number", (GAME,), low=1, high=1_000),
    Field("png", "number", (BUILD,), low=36, high=1_200),
    Field("seed", "text", (BUILD, GAME), high=200),
    *(Field(flag, "flag", (BUILD,)) for flag in ("pdfx", "per-card", "cut-lines", "slug", "box", "sleeved",
                                                 "campaign")),
]}
_FIELD_NAME = re.compile(r"[a-z][a-z0-9-]{0,30}")


def check_fields(form: dict[str, str], command: str) -> None:
    """Refuse, in one line, a field the server does not know, one that ``command`` does not take,
    and any field name that is not a plain option name (``out=DIR`` is not a name). ``check``
    takes the page's whole form and uses only the deck and layout fields of it."""
    for name in form:
        if not _FIELD_NAME.fullmatch(name) or name not in FIELDS:
            raise BadRequest(f"field {_shown(name)} is not one kitgen serve takes; it takes "
                             f"{', '.join(sorted(FIELDS))}")
        if command != CHECK and command not in FIELDS[name].commands:
            raise BadRequest(f"field {name!r}: {'a kit build does' if command == BUILD else 'single games do'} "
                             "not take it")


def build_arguments(form: dict[str, str], deck: Deck, command: str = BUILD) -> list[str]:
    """The arguments of ``kitgen COMMAND`` (build or game), built by the server from the fields it
    knows (``FIELDS``): each typed and in range, an uploaded deck or layout as its saved file, the
    kit into ``out``. Nothing else of the request reaches the command line."""
    check_fields(form, command)
    args = [command, "--out=out"]
    for name, value in form.items():
        known = FIELDS[name]
        if known.kind == "pasted" or (name == "deck" and deck.argument) or (name == "layout" and deck.layout):
            continue
        argument = known.argument(value)
        if argument:
            args.append(argument)
    if deck.argument is not None:
        args.append(f"--deck={deck.argument}")
    if deck.layout is not None:
        args.append(f"--layout={deck.layout}")
    return args


class Busy(BadRequest):
    """Every child slot is taken and ``MAX_WAITING`` requests already wait: try again later (503)."""

    def __init__(self):
        super().__init__(f"kitgen is busy: {MAX_CHILDREN} builds or checks are running and {MAX_WAITING} are "
                         "waiting; try again in a minute", 503)


class Work:
    """The server's kitgen processes: at most ``children`` run at once, across build, game, check and
    preview; a request or job holds one of ``children + waiting`` tickets from its start to its end,
    and one that finds none is answered ``Busy`` at once, so nothing queues without limit."""

    def __init__(self, children: int = MAX_CHILDREN, waiting: int = MAX_WAITING):
        self.slots = threading.BoundedSemaphore(children)
        self.tickets = threading.BoundedSemaphore(children + waiting)
        self.lock, self.processes, self.stopping = threading.Lock(), set(), False

    def admit(self) -> None:
        """Take a ticket, or ``Busy``; give it back with ``leave``."""
        if self.stopping or not self.tickets.acquire(blocking=False):
            raise Busy()

    def leave(self) -> None:
        self.tickets.release()

    def stop(self) -> None:
        """Kill every child (the server is stopping); no new one starts."""
        with self.lock:
            self.stopping = True
            for process in self.processes:
                process.kill()


# the command a child runs: kitgen's command line, limited and tied to the server (serve_child.py)
CHILD = ["-m", "kitgen.serve_child"]


def run_kitgen(args: list[str], folder: Path, work: Work | None = None, progress=None, drawn=None,
               wait: bool = True) -> subprocess.CompletedProcess | None:
    """``python -m kitgen ARGS`` in ``folder``, with this kitgen on its path (never another), as a child
    that dies with the server and may use ``CHILD_MEMORY`` (``serve_child``), once one of ``work``'s
    slots is free (without ``wait``: None at once when none is). With ``progress``, each ``kitgen:
    progress N/TOTAL`` line the build writes is passed on as (N, TOTAL); with ``drawn``, the build
    writes each part's PDF into ``folder/drawn/`` as soon as it is drawn and ``drawn(name)`` is called
    then, while the build goes on. Whatever happens here (a callback fails, the server stops), the
    child is killed and reaped before this returns."""
    work = work or Work()
    if not work.slots.acquire(blocking=wait):
        return None
    try:
        return _run_child(args, folder, work, progress, drawn)
    finally:
        work.slots.release()


def _run_child(args, folder, work, progress, drawn) -> subprocess.CompletedProcess:
    from . import layouts

    root = str(Path(__file__).resolve().parent.parent)
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([root, *filter(None, [os.environ.get("PYTHONPATH")])]),
           "KITGEN_PROGRESS": "lines" if progress else "", "PYTHONUNBUFFERED": "1",
           "KITGEN_DRAWN": str(folder / DRAWN) if drawn else "",
           layouts.CONFINED: str(folder / UPLOAD / LAYOUTS)}
    command = [sys.executable, *CHILD, str(os.getpid()), str(CHILD_MEMORY), *args]
    with work.lock:
        if work.stopping:
            raise BadRequest("the server is stopping", 503)
        try:
            process = subprocess.Popen(command, cwd=folder, env=env, text=True, stdout=subprocess.PIPE,
                                       stderr=subprocess.PIPE, stdin=subprocess.DEVNULL)
        except ValueError:
            raise BadRequest("a value holds a NUL character; type it again") from None
        work.processes.add(process)
    stopped = threading.Event()
    timer = threading.Timer(BUILD_SECONDS, lambda: (stopped.set(), process.kill()))
    timer.start()
    output = threading.Thread(target=lambda: setattr(process, "output", process.stdout.read()), daemon=True)
    output.start()
    try:
        errors = []
        for line in process.stderr:
            said = line.rstrip("\n")
            counted, part = _PROGRESS.fullmatch(said), _DRAWN.fullmatch(said)
            if counted and progress:
                progress(int(counted[1]), int(counted[2]))
            elif part and drawn:
                drawn(part[1])
            elif not (counted or part):
                errors.append(line)
        code = process.wait()
    finally:
        timer.cancel()
        process.kill()              # a callback failed or the server stops: the child goes with its job
        process.wait()
        output.join()
        process.stdout.close()
        process.stderr.close()
        with work.lock:
            work.processes.discard(process)
    if stopped.is_set():
        raise BadRequest(f"the build took more than {BUILD_SECONDS // 60} minutes and was stopped", 500)
    if work.stopping:
        raise BadRequest("the server is stopping", 503)
    if code < 0:
        raise BadRequest(f"kitgen was stopped by signal {-code} (out of memory?); try a smaller build", 500)
    if code == 1 and "MemoryError" in "".join(errors[-1:]):
        raise BadRequest(f"the build needed more than {CHILD_MEMORY // 2**30} GB of memory and was stopped; "
                         "try fewer keys or smaller pictures", 500)
    return subprocess.CompletedProcess(args, code, process.output, "".join(errors))


_PROGRESS = re.compile(r"kitgen: progress (\d+)/(\d+)")
_DRAWN = re.compile(r"kitgen: drawn ([a-z0-9][a-z0-9-]*\.pdf)")


def error_line(done: subprocess.CompletedProcess, deck: Deck) -> str:
    """The command line's one line (``kitgen: error: ...``, without its prefix), names as uploaded."""
    for line in reversed(done.stderr.splitlines()):
        if line.startswith("kitgen: "):
            return deck.shown(line.removeprefix("kitgen: ").removeprefix("error: "))
    return deck.shown(done.stderr.strip().splitlines()[-1] if done.stderr.strip() else "kitgen stopped")


def warnings(done: subprocess.CompletedProcess, deck: Deck) -> list[str]:
    return [deck.shown(line.removeprefix("kitgen: warning: ")) for line in done.stderr.splitlines()
            if line.startswith("kitgen: warning: ")]


class KitFiles(Mapping):
    """A built kit's files on disk (path in the kit folder -> bytes, read when asked for), so a page's
    finished builds are held in its temporary folder, not in the server's memory."""

    def __init__(self, root: Path):
        self.root = root
        self.names = sorted(p.relative_to(root).as_posix() for p in root.rglob("*") if p.is_file())

    def __getitem__(self, name: str) -> bytes:
        if name not in self.names:
            raise KeyError(name)
        return (self.root / name).read_bytes()

    def __contains__(self, name) -> bool:
        return name in self.names

    def __iter__(self):
        return iter(self.names)

    def __len__(self) -> int:
        return len(self.names)

    def size(self, name: str) -> int:
        return (self.root / name).stat().st_size


@dataclass
class Kit:
    """A built kit: its id, files (path in the kit folder -> bytes; ``KitFiles`` while the build's
    folder is kept, else read into memory) and warnings."""

    id: str
    files: Mapping
    warnings: list[str]

    def sizes(self) -> dict[str, int]:
        files = self.files
        return {n: files.size(n) if isinstance(files, KitFiles) else len(files[n]) for n in sorted(files)}

    def zip(self) -> bytes:
        """The kit folder as a zip, ``<kit id>/<file>``: sorted, dated 1980-01-01, the same bytes every time."""
        buffer = io.BytesIO()
        with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as archive:
            for name in sorted(self.files):
                info = zipfile.ZipInfo(f"{self.id}/{name}", date_time=(1980, 1, 1, 0, 0, 0))
                info.compress_type, info.external_attr = zipfile.ZIP_DEFLATED, 0o644 << 16
                archive.writestr(info, self.files[name])
        return buffer.getvalue()

    def parts(self) -> list[str]:
        """The kit's printed parts, as the page previews them: its PDFs but kit.pdf and per-card files."""
        return [n for n in sorted(self.files) if n.endswith(".pdf") and "/" not in n and n != "kit.pdf"
                and not n.endswith("-cards.pdf")]


WORK_PREFIX = "kitgen-serve-"
_WORK_NAME = re.compile(r"kitgen-serve-(\d+)-[a-z0-9_]{8}")


class Workspace:
    """One build's or check's own folder, ``kitgen-serve-<server pid>-<random>`` in the temporary folder,
    with a ``.lock`` file the server holds locked while the folder is in use: a server that died
    (even by kill -9) leaves folders whose lock anyone can take, which ``sweep`` removes."""

    def __init__(self, root: Path | None = None):
        self.path = Path(tempfile.mkdtemp(prefix=f"{WORK_PREFIX}{os.getpid()}-", dir=root))
        self.lock = open(self.path / ".lock", "w")
        fcntl.flock(self.lock, fcntl.LOCK_EX | fcntl.LOCK_NB)

    def remove(self) -> None:
        shutil.rmtree(self.path, ignore_errors=True)
        self.lock.close()


def sweep(root: Path | None = None) -> list[Path]:
    """Remove what dead servers left in the temporary folder: only folders named as ``Workspace``
    names them, owned by this user, whose lock no running server holds (with no lock file: whose
    server's process is gone). Another server's folders in use stay. The folders removed."""
    removed = []
    for path in Path(root or tempfile.gettempdir()).iterdir():
        named = _WORK_NAME.fullmatch(path.name)
        try:
            if not named or path.is_symlink() or not path.is_dir() or path.stat().st_uid != os.getuid():
                continue
            if _abandoned(path, int(named[1])):
                shutil.rmtree(path, ignore_errors=True)
                removed.append(path)
        except OSError:
            continue
    return removed


def _abandoned(path: Path, pid: int) -> bool:
    try:
        handle = os.open(path / ".lock", os.O_RDONLY | os.O_NOFOLLOW)
    except FileNotFoundError:
        try:
            os.kill(pid, 0)
        except ProcessLookupError:
            return True
        except PermissionError:
            return False
        return False
    try:
        fcntl.flock(handle, fcntl.LOCK_EX | fcntl.LOCK_NB)
        return True
    except BlockingIOError:
        return False
    finally:
        os.close(handle)


_WORK = Work()          # the children of this process's server(s); a server passes its own


def prepare(form: dict[str, str], uploads: list, command: str = BUILD, layouts: list | None = None,
            root: Path | None = None) -> tuple[Workspace, Deck, list[str]]:
    """A request's fields checked (before anything is saved) and its uploads saved in a new
    ``Workspace``: the folder, the saved deck and the command's arguments."""
    if command != CHECK:
        check_fields(form, command)
    space = Workspace(root)
    try:
        deck = save_uploads(space.path, uploads, form.get("words"), form.get("name"), layouts)
        return space, deck, build_arguments(form, deck, command) if command != CHECK else []
    except BaseException:
        space.remove()
        raise


def build(form: dict[str, str], uploads: list, step=lambda text: None, progress=None, command: str = BUILD,
          shown: dict | None = None, work: Work | None = None, layouts: list | None = None) -> Kit:
    """One build, as ``kitgen build`` (or ``kitgen game``: single-game sheets) with the request's
    options, in its own folder (removed afterwards), the kit read into memory. ``progress`` hears
    (pages drawn, pages in all) as the build goes; ``shown``, when given, gets a preview PNG of the
    first page of each part as soon as the part is drawn, while the build goes on (docs/design.md §11)."""
    space, deck, args = prepare(form, uploads, command, layouts)
    try:
        kit = make(space, deck, args, work or _WORK, step, progress, shown)
        return Kit(kit.id, dict(kit.files), kit.warnings)
    finally:
        space.remove()


def make(space: Workspace, deck: Deck, args: list[str], work: Work, step=lambda text: None, progress=None,
         shown: dict | None = None) -> Kit:
    """The build of ``prepare``'s arguments in ``space``: the kit, its files on disk in ``space``."""
    folder = space.path
    step("building the kit" if args[0] == BUILD else "making the games")

    def drawn(name: str) -> None:            # previewed now if a child is free, else after the build
        _preview(folder, f"{DRAWN}/{name}", name, shown, work, wait=False)

    done = run_kitgen(args, folder, work, progress, drawn if shown is not None else None)
    if done.returncode != 0:
        raise BadRequest(error_line(done, deck), 400 if done.returncode == 2 else 500)
    kit = read_kit(folder / "out", warnings(done, deck))
    left = [part for part in kit.parts() if part not in (shown or {})]
    if shown is not None and left:          # the parts a build does not preview as it goes (games)
        step("drawing previews")
        for part in left:
            _preview(folder, f"out/{kit.id}/{part}", part, shown, work)
    return kit


def read_kit(out: Path, notes: list[str]) -> Kit:
    (target,) = [p for p in out.iterdir() if p.is_dir()]
    return Kit(target.name, KitFiles(target), notes)


def _preview(folder: Path, pdf: str, part: str, shown: dict[str, bytes], work: Work, wait: bool = True) -> None:
    """The first page of ``pdf`` (relative to ``folder``) as PNG, by ``kitgen preview``, into ``shown[part]``;
    nothing when ``kitgen preview`` fails, or without ``wait`` when no child is free."""
    done = run_kitgen(["preview", pdf, "--pages=1", f"--dpi={PREVIEW_DPI}", "--out=previews"], folder, work,
                      wait=wait)
    png = folder / "previews" / f"{Path(pdf).stem}-p1.png"
    if done is not None and done.returncode == 0 and png.is_file():
        shown[part] = png.read_bytes()


def check(form: dict[str, str], uploads: list, work: Work | None = None, layouts: list | None = None) -> dict:
    """``kitgen deck check --json`` of a request's deck: its lines, each with its status (OK, FAIL,
    WARN, NOTE); each word or picture with what the lines say of it (a picture with a thumbnail);
    and whether every check passed. Names are the ones the person gave. The page sends its whole
    form: of it, only the deck and layout fields are used."""
    check_fields(form, CHECK)
    space, deck, _ = prepare(form, uploads, CHECK, layouts)
    try:
        argument = deck.argument or FIELDS["deck"].argument(form.get("deck", "")) or ""
        if not argument:
            raise BadRequest("nothing to check: paste words, upload a deck or choose a built-in deck")
        layout = deck.layout and f"--layout={deck.layout}" or FIELDS["layout"].argument(form.get("layout", ""))
        done = run_kitgen(["deck", "check", "--json", argument.removeprefix("--deck="), *filter(None, [layout])],
                          space.path, work or _WORK)
        if done.returncode not in (0, 3):
            raise BadRequest(error_line(done, deck), 400 if done.returncode == 2 else 500)
        report = json.loads(done.stdout)
    finally:
        space.remove()

    def notes(lines: list[dict]) -> list[dict]:
        return [{"status": line["status"], "text": deck.shown(line["text"])} for line in lines]

    entries = [{**entry, "name": deck.names.get(entry["name"]) or deck.shown(entry["name"]),
                "notes": notes(entry["notes"])} for entry in report["entries"]]
    return {"ok": done.returncode == 0, "kind": report["kind"], "lines": notes(report["lines"]),
            "entries": entries}


def builtin_decks() -> list[str]:
    """The built-in decks' names, for the page's list."""
    from importlib import resources

    try:
        folder = resources.files("kitgen.builtin_decks")
    except ModuleNotFoundError:
        return []
    return sorted(Path(p.name).stem for p in folder.iterdir() if Path(p.name).suffix in (".yaml", ".txt", ".csv"))


@dataclass
class Job:
    """A build the page started: polled for its step, then its files downloaded."""

    started: float
    step: str = "waiting for its turn"
    pages: tuple[int, int] = (0, 0)
    kit: Kit | None = None
    previews: dict[str, bytes] = field(default_factory=dict)
    error: str | None = None
    space: Workspace | None = None          # its folder, which holds its kit while the job is kept

    @property
    def finished(self) -> bool:
        return self.kit is not None or self.error is not None

    def state(self) -> dict:
        answer = {"state": "failed" if self.error else "done" if self.kit else "building", "step": self.step,
                  "seconds": round(time.monotonic() - self.started), "pages": self.pages[0],
                  "of": self.pages[1], "previews": list(self.previews)}
        if self.error:
            answer["error"] = self.error
        if self.kit:
            answer.update(kit=self.kit.id, warnings=self.kit.warnings,
                          files=[{"name": n, "bytes": size} for n, size in self.kit.sizes().items()])
        return answer


class Jobs:
    """The page's builds, newest last. Each holds one of ``work``'s tickets while it waits and builds
    (so there are at most ``MAX_CHILDREN + MAX_WAITING`` unfinished), its uploads saved in its own
    folder from the start; of the finished ones the last ``KEPT_JOBS`` are kept, their kits in their
    folders. An unfinished job is never forgotten."""

    def __init__(self, work: Work):
        self.work, self.lock, self.jobs = work, threading.Lock(), {}

    def start(self, form: dict[str, str], uploads: list, command: str = BUILD, layouts: list | None = None) -> str:
        self.work.admit()
        try:
            space, deck, args = prepare(form, uploads, command, layouts)
        except BaseException:
            self.work.leave()
            raise
        job, key = Job(time.monotonic(), space=space), secrets.token_urlsafe(9)
        with self.lock:
            self.jobs[key] = job
        threading.Thread(target=self._run, args=(job, deck, args), daemon=True).start()
        return key

    def get(self, key: str) -> Job | None:
        with self.lock:
            return self.jobs.get(key)

    def clear(self) -> None:
        """Every job's folder, as the server stops."""
        with self.lock:
            jobs, self.jobs = list(self.jobs.values()), {}
        for job in jobs:
            job.space.remove()

    def _run(self, job: Job, deck: Deck, args: list[str]) -> None:
        def step(text: str) -> None:
            job.step = text

        def progress(drawn: int, pages: int) -> None:
            job.pages = (drawn, pages)

        kit, error = None, None
        try:
            kit = make(job.space, deck, args, self.work, step, progress, job.previews)
        except BadRequest as err:
            error = str(err)
        except Exception as err:            # the server keeps running; the page says what happened
            error = f"internal error: {type(err).__name__}: {err}"
        finally:
            if kit is None:                 # a failed build leaves nothing to download
                job.space.remove()
            self.work.leave()
            self._finish(job, kit, error or ("stopped" if kit is None else None))

    def _finish(self, job: Job, kit: Kit | None, error: str | None) -> None:
        """The job done or failed, and the finished jobs beyond the last ``KEPT_JOBS`` forgotten (oldest
        first, with their folders), at once for whoever asks: no one sees it finished while more than
        ``KEPT_JOBS`` finished ones are kept."""
        with self.lock:
            if kit is not None:
                job.step, job.kit = "done", kit
            else:
                job.error = error
            done = [key for key, held in self.jobs.items() if held.finished]
            gone = [self.jobs.pop(key) for key in done[:max(0, len(done) - KEPT_JOBS)]]
        for old in gone:
            old.space.remove()


def form_token(token: str, nonce: str | None = None) -> str:
    """The page's anti-forgery token: a fresh nonce and its HMAC under the server's token. Only a page
    the server sent holds one (another origin cannot read the page), and ``POST`` needs it."""
    nonce = nonce or secrets.token_urlsafe(12)
    return f"{nonce}.{hmac.new(token.encode(), nonce.encode(), 'sha256').hexdigest()}"


def _form_token_holds(token: str, given: str) -> bool:
    nonce, dot, _ = given.partition(".")
    return bool(dot and nonce) and hmac.compare_digest(given.encode(), form_token(token, nonce).encode())


FORM_HEADER = "X-Kitgen-Form"           # the page's form token (``form_token``) on every POST
TOKEN_HEADER = "X-Kitgen-Token"         # or the token itself, for a script that was given it
FILE_FIELDS = ("deck", "layout")        # the fields that carry uploads


def is_loopback(host: str) -> bool:
    """Whether ``host`` is this machine only: localhost, 127.0.0.0/8 or ::1."""
    import ipaddress

    if host.strip("[]").lower() == "localhost":
        return True
    try:
        return ipaddress.ip_address(host.strip("[]")).is_loopback
    except ValueError:
        return False


def create_app(token: str, address: str, any_host: bool = False, work: Work | None = None):
    """The Flask app. Every request needs ``token`` (``?token=``, the cookie the first visit sets, or
    the ``X-Kitgen-Token`` header) and a Host header of ``address`` (``127.0.0.1:PORT``;
    ``localhost:PORT`` too), else 403; every POST must also come from the server's own page: an
    ``Origin`` (and ``Sec-Fetch-Site``), when sent, of the server itself, and the page's form token
    (``X-Kitgen-Form``) or the token in ``X-Kitgen-Token`` (docs/design.md §11)."""
    from flask import Flask, Response, abort, jsonify, request

    app = Flask(__name__)
    app.config.update(MAX_CONTENT_LENGTH=MAX_REQUEST_BYTES, MAX_FORM_PARTS=MAX_FILES + 100,
                      KITGEN_TOKEN=token, KITGEN_ADDRESS=address)
    work = work or Work()
    jobs = Jobs(work)
    app.extensions["kitgen"] = (work, jobs)

    def allowed_hosts() -> set[str]:
        host, _, port = app.config["KITGEN_ADDRESS"].rpartition(":")
        return {f"{host}:{port}", f"localhost:{port}"} if is_loopback(host) else {f"{host}:{port}"}

    def forbidden(text: str):
        abort(Response(f"forbidden: {text}\n", 403, mimetype="text/plain"))

    @app.before_request
    def guard():
        if not any_host and request.host not in allowed_hosts():
            forbidden("this server answers only at its own address")
        secret = app.config["KITGEN_TOKEN"].encode()
        given = request.args.get("token") or request.headers.get(TOKEN_HEADER) or request.cookies.get(TOKEN_COOKIE)
        if not hmac.compare_digest((given or "").encode(), secret):
            forbidden("open the address kitgen serve printed, with its ?token=")
        if request.method in ("GET", "HEAD"):
            return
        origin, site = request.headers.get("Origin"), request.headers.get("Sec-Fetch-Site")
        if origin is not None and origin != f"{request.scheme}://{request.host}":
            forbidden(f"a request from {origin[:60]} is not from kitgen's own page")
        if site is not None and site != "same-origin":
            forbidden(f"a {site[:20]} request is not from kitgen's own page")
        header = request.headers.get(TOKEN_HEADER) or ""
        if not (_form_token_holds(token, request.headers.get(FORM_HEADER) or "")
                or hmac.compare_digest(header.encode(), secret)):
            forbidden("send the page's form token (X-Kitgen-Form) or the token (X-Kitgen-Token); reload the page")

    @app.after_request
    def harden(response):
        if request.args.get("token") == app.config["KITGEN_TOKEN"]:
            response.set_cookie(TOKEN_COOKIE, app.config["KITGEN_TOKEN"], httponly=True, samesite="Strict")
        response.headers.update({
            "Content-Security-Policy": "default-src 'self'; img-src 'self' data:; frame-ancestors 'none'; "
                                       "form-action 'self'; base-uri 'none'",
            "X-Content-Type-Options": "nosniff", "Referrer-Policy": "no-referrer", "Cache-Control": "no-store",
            "Cross-Origin-Resource-Policy": "same-origin", "Cross-Origin-Opener-Policy": "same-origin"})
        return response

    @app.errorhandler(BadRequest)
    def refused(err: BadRequest):
        return jsonify(error=str(err)), err.status

    @app.errorhandler(KitgenError)
    def refused_kitgen(err: KitgenError):
        return jsonify(error=str(err)), 400

    @app.errorhandler(413)
    def too_large(err):
        return jsonify(error=f"the upload is too large: at most {MAX_REQUEST_BYTES // 1_000_000} MB, "
                             f"{MAX_FILES} files in one build"), 413

    def form() -> tuple[dict[str, str], list, list]:
        """The request's fields, its deck uploads and its layout uploads; an upload in any other
        field is refused."""
        for name in request.files:
            if name not in FILE_FIELDS:
                raise BadRequest(f"upload field {_shown(name)} is not one kitgen serve takes; upload into "
                                 f"{' or '.join(FILE_FIELDS)}")
        return request.form.to_dict(), request.files.getlist("deck"), request.files.getlist("layout")

    def zipped(kit: Kit) -> Response:
        return Response(kit.zip(), mimetype="application/zip",
                        headers={"Content-Disposition": f'attachment; filename="{kit.id}.zip"'})

    def admitted(run):
        work.admit()
        try:
            return run()
        finally:
            work.leave()

    @app.post("/build")
    def build_kit():
        fields, uploads, layouts = form()
        return admitted(lambda: zipped(build(fields, uploads, work=work, layouts=layouts)))

    @app.post("/game")
    def build_games():
        fields, uploads, layouts = form()
        return admitted(lambda: zipped(build(fields, uploads, command=GAME, work=work, layouts=layouts)))

    @app.post("/check")
    def check_deck():
        fields, uploads, layouts = form()
        fields.pop("make", None)            # the page's whole form: which command it would build with
        return admitted(lambda: jsonify(check(fields, uploads, work, layouts)))

    @app.post("/jobs")
    def start_job():
        fields, uploads, layouts = form()
        command = fields.pop("make", BUILD)
        if command not in (BUILD, GAME):
            raise BadRequest(f"make {_shown(command)}: build (a kit) or game (single-game sheets)")
        return jsonify(job=jobs.start(fields, uploads, command, layouts)), 202

    def job_or_404(key: str) -> Job:
        job = jobs.get(key)
        if job is None:
            abort(404)
        return job

    @app.get("/jobs/<key>")
    def job_state(key):
        return jsonify(job_or_404(key).state())

    @app.get("/jobs/<key>/kit.zip")
    def job_zip(key):
        return zipped(job_or_404(key).kit or abort(404))

    @app.get("/jobs/<key>/files/<path:name>")
    def job_file(key, name):
        kit = job_or_404(key).kit or abort(404)
        if name not in kit.files:
            abort(404)
        kinds = {".pdf": "application/pdf", ".html": "text/html", ".json": "application/json", ".png": "image/png",
                 ".md": "text/markdown", ".txt": "text/plain"}
        kind = kinds.get(Path(name).suffix, "application/octet-stream")
        attach = "inline" if request.args.get("view") == "1" else "attachment"
        return Response(kit.files[name], mimetype=kind,
                        headers={"Content-Disposition": f'{attach}; filename="{Path(name).name}"'})

    @app.get("/jobs/<key>/previews/<name>")
    def job_preview(key, name):
        shown = job_or_404(key).previews.get(name) or abort(404)
        return Response(shown, mimetype="image/png")

    @app.get("/")
    def page():
        from . import serve_page

        return Response(serve_page.html(builtin_decks(), form_token(token)), mimetype="text/html")

    @app.get("/app.js")
    def script():
        from . import serve_page

        return Response(serve_page.SCRIPT, mimetype="text/javascript")

    @app.get("/app.css")
    def style():
        from . import serve_page

        return Response(serve_page.STYLE, mimetype="text/css")

    return app


@dataclass
class Server:
    """A running server: its address (with the token) and how to stop it."""

    url: str
    thread: threading.Thread
    server: object
    app: object = None

    def stop(self) -> None:
        """Stop answering, kill every child and remove every folder of this server."""
        self.server.shutdown()
        self.thread.join()
        work, jobs = self.app.extensions["kitgen"]
        work.stop()
        jobs.clear()


def start(host: str = "127.0.0.1", port: int = 0, token: str | None = None) -> Server:
    """Serve in a thread on ``host`` (a free port for 0); ``Server.url`` is the address to open."""
    import logging

    from werkzeug.serving import make_server

    logging.getLogger("werkzeug").setLevel(logging.WARNING)      # no request lines: they would show the token
    token = token or secrets.token_urlsafe(24)
    sweep()                 # what servers killed before they could clean up left behind
    wildcard = host in ("0.0.0.0", "::", "")
    app = create_app(token, "", any_host=wildcard)
    try:       # bound here, so that a port in use is kitgen's one line (Werkzeug would print and exit)
        with socket.socket(socket.AF_INET6 if ":" in host else socket.AF_INET) as listening:
            listening.bind((host, port))
            listening.listen(128)
            server = make_server(host, listening.getsockname()[1], app, threaded=True, fd=listening.fileno())
    except OSError as err:
        raise KitgenError(f"cannot listen on {host}:{port}: {err.strerror or err}; choose another --host or --port") \
            from None
    shown = f"[{host}]" if ":" in host else host
    app.config["KITGEN_ADDRESS"] = f"{shown}:{server.server_address[1]}"
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    return Server(f"http://{shown}:{server.server_address[1]}/?token={token}", thread, server, app)
