"""``kitgen serve``: a local web app over the command line (docs/design.md §11).

Every build, check and preview runs the command line itself (``python -m kitgen ...``) in a
fresh temporary folder, so the page gives the same bytes and the same one-line messages as a
terminal, builds in two tabs never share state (fonts, caches), and a bad deck cannot take the
server down. This module knows no game: the command line brings the families in.
"""

import hmac
import io
import json
import os
import re
import secrets
import socket
import subprocess
import sys
import tempfile
import threading
import time
import zipfile
from dataclasses import dataclass, field
from pathlib import Path

from .errors import KitgenError

# Limits of a request (docs/design.md §9.3); the files inside are held to the command line's own limits.
MAX_REQUEST_BYTES = 200_000_000     # the whole upload; more is answered 413
MAX_FILES = 1_000                   # files in one request, or pictures in one zip
MAX_BUILDS = 4                      # builds running at once; more wait their turn
BUILD_SECONDS = 1_800               # a build that takes longer is stopped
KEPT_JOBS = 8                       # the page's finished builds kept in memory for download
PREVIEW_DPI = 40
TOKEN_COOKIE = "kitgen_token"
UPLOAD = "upload"                   # the folder of a build's uploads, inside its temporary folder
DRAWN = "drawn"                     # where a build puts each part as it is drawn, for its preview
NOT_OPTIONS = {"out": "the server chooses where the kit goes", "icc": "upload no profile; --pdfx uses the default",
               "debug": "the server shows one line"}
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


def save_uploads(folder: Path, uploads: list, words: str | None, words_name: str | None) -> Deck:
    """Save a request's deck: pasted words (a .txt file), one words deck, several pictures, or a zip
    of pictures. The ``Deck``'s ``argument`` is None when nothing was uploaded."""
    deck = Deck(folder)
    uploads = [u for u in uploads if u.filename]
    if len(uploads) > MAX_FILES:
        raise BadRequest(f"{len(uploads)} files uploaded: at most {MAX_FILES} in one build")
    if words and words.strip():
        if uploads:
            raise BadRequest("give pasted words or a deck file, not both")
        uploads = [_Pasted(words, f"{words_name or 'words'}.txt")]
    if not uploads:
        return deck
    target = folder / UPLOAD
    target.mkdir()
    taken: set[str] = set()
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


def build_arguments(form: dict[str, str], flags: set[str], deck: Deck, command: str = "build") -> list[str]:
    """The arguments of ``kitgen COMMAND`` (build or game) from a request's fields: each field is the
    option of that name (``per-card`` is ``--per-card``), a flag on for 1/on/true/yes; ``deck`` without
    an upload names a built-in deck. Unknown names go to the command line, which refuses them in its
    own words."""
    args = [command, "--out=out"]
    for name, value in form.items():
        if name in ("words", "name"):
            continue
        if name in NOT_OPTIONS:
            raise BadRequest(f"--{name} is not taken here: {NOT_OPTIONS[name]}")
        if name == "deck":
            if deck.argument is None and value:
                if not _BUILTIN.fullmatch(value):
                    raise BadRequest(f"deck {value[:40]!r}: upload the deck, or name a built-in deck such as "
                                     "class-science")
                args.append(f"--deck={value}")
            continue
        if name in flags:
            if value.strip().lower() not in _TRUE | _FALSE:
                raise BadRequest(f"--{name} is on or off: send 1 or 0, not {value[:20]!r}")
            if value.strip().lower() in _TRUE:
                args.append(f"--{name}")
        elif value != "":
            args.append(f"--{name}={value}")
    if deck.argument is not None:
        args.append(f"--deck={deck.argument}")
    return args


def build_flags(command: str = "build") -> set[str]:
    """The names of ``kitgen COMMAND``'s flags (options that take no value), from the command itself."""
    from .cli import cli

    return {opt.lstrip("-") for p in cli.commands[command].params if getattr(p, "is_flag", False) for opt in p.opts}


def run_kitgen(args: list[str], folder: Path, progress=None, drawn=None) -> subprocess.CompletedProcess:
    """``python -m kitgen ARGS`` in ``folder``, with this kitgen on its path (never another); with
    ``progress``, each ``kitgen: progress N/TOTAL`` line the build writes is passed on as (N, TOTAL);
    with ``drawn``, the build writes each part's PDF into ``folder/drawn/`` as soon as it is drawn
    and ``drawn(name)`` is called then, while the build goes on."""
    root = str(Path(__file__).resolve().parent.parent)
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([root, *filter(None, [os.environ.get("PYTHONPATH")])]),
           "KITGEN_PROGRESS": "lines" if progress else "", "PYTHONUNBUFFERED": "1",
           "KITGEN_DRAWN": str(folder / DRAWN) if drawn else ""}
    try:
        process = subprocess.Popen([sys.executable, "-m", "kitgen", *args], cwd=folder, env=env, text=True,
                                   stdout=subprocess.PIPE, stderr=subprocess.PIPE, stdin=subprocess.DEVNULL)
    except ValueError:
        raise BadRequest("a value holds a NUL character; type it again") from None
    stopped = threading.Event()
    timer = threading.Timer(BUILD_SECONDS, lambda: (stopped.set(), process.kill()))
    timer.start()
    try:
        output = threading.Thread(target=lambda: setattr(process, "output", process.stdout.read()))
        output.start()
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
        output.join()
        code = process.wait()
    finally:
        timer.cancel()
    if stopped.is_set():
        raise BadRequest(f"the build took more than {BUILD_SECONDS // 60} minutes and was stopped", 500)
    if code < 0:
        raise BadRequest(f"kitgen was stopped by signal {-code} (out of memory?); try a smaller build", 500)
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


@dataclass
class Kit:
    """A built kit, read into memory: its id, files (path in the kit folder -> bytes) and warnings."""

    id: str
    files: dict[str, bytes]
    warnings: list[str]

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


_builds = threading.BoundedSemaphore(MAX_BUILDS)


def build(form: dict[str, str], uploads: list, step=lambda text: None, progress=None, command: str = "build",
          shown: dict | None = None) -> Kit:
    """One build, as ``kitgen build`` (or ``kitgen game``: single-game sheets) with the request's
    options, in its own temporary folder (removed afterwards). ``progress`` hears (pages drawn, pages
    in all) as the build goes; ``shown``, when given, gets a preview PNG of the first page of each
    part as soon as the part is drawn, while the build goes on (docs/design.md §11)."""
    with tempfile.TemporaryDirectory(prefix="kitgen-serve-") as tmp, _builds:
        folder = Path(tmp)
        deck = save_uploads(folder, uploads, form.get("words"), form.get("name"))
        step("building the kit" if command == "build" else "making the games")

        def drawn(name: str) -> None:
            _preview(folder, f"{DRAWN}/{name}", name, shown)

        done = run_kitgen(build_arguments(form, build_flags(command), deck, command), folder, progress,
                          drawn if shown is not None else None)
        if done.returncode != 0:
            raise BadRequest(error_line(done, deck), 400 if done.returncode == 2 else 500)
        kit = read_kit(folder / "out", warnings(done, deck))
        left = [part for part in kit.parts() if part not in (shown or {})]
        if shown is not None and left:          # the parts a build does not preview as it goes (games)
            step("drawing previews")
            for part in left:
                _preview(folder, f"out/{kit.id}/{part}", part, shown)
        return kit


def read_kit(out: Path, notes: list[str]) -> Kit:
    (target,) = [p for p in out.iterdir() if p.is_dir()]
    files = {p.relative_to(target).as_posix(): p.read_bytes() for p in sorted(target.rglob("*")) if p.is_file()}
    return Kit(target.name, files, notes)


def _preview(folder: Path, pdf: str, part: str, shown: dict[str, bytes]) -> None:
    """The first page of ``pdf`` (relative to ``folder``) as PNG, by ``kitgen preview``, into ``shown[part]``."""
    done = run_kitgen(["preview", pdf, "--pages=1", f"--dpi={PREVIEW_DPI}", "--out=previews"], folder)
    png = folder / "previews" / f"{Path(pdf).stem}-p1.png"
    if done.returncode == 0 and png.is_file():
        shown[part] = png.read_bytes()


def check(form: dict[str, str], uploads: list) -> dict:
    """``kitgen deck check --json`` of a request's deck: its lines, each with its status (OK, FAIL,
    WARN, NOTE); each word or picture with what the lines say of it (a picture with a thumbnail);
    and whether every check passed. Names are the ones the person gave."""
    with tempfile.TemporaryDirectory(prefix="kitgen-serve-") as tmp:
        folder = Path(tmp)
        deck = save_uploads(folder, uploads, form.get("words"), form.get("name"))
        argument = deck.argument or form.get("deck") or ""
        if not argument:
            raise BadRequest("nothing to check: paste words, upload a deck or choose a built-in deck")
        if deck.argument is None and not _BUILTIN.fullmatch(argument):
            raise BadRequest(f"deck {argument[:40]!r}: upload the deck, or name a built-in deck such as class-science")
        done = run_kitgen(["deck", "check", "--json", argument], folder)
        if done.returncode not in (0, 3):
            raise BadRequest(error_line(done, deck), 400 if done.returncode == 2 else 500)
        report = json.loads(done.stdout)

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

    def state(self) -> dict:
        answer = {"state": "failed" if self.error else "done" if self.kit else "building", "step": self.step,
                  "seconds": round(time.monotonic() - self.started), "pages": self.pages[0],
                  "of": self.pages[1], "previews": list(self.previews)}
        if self.error:
            answer["error"] = self.error
        if self.kit:
            answer.update(kit=self.kit.id, warnings=self.kit.warnings,
                          files=[{"name": n, "bytes": len(d)} for n, d in sorted(self.kit.files.items())])
        return answer


class Jobs:
    """The page's builds, newest last; only the last ``KEPT_JOBS`` are kept."""

    def __init__(self):
        self.lock, self.jobs = threading.Lock(), {}

    def start(self, form: dict[str, str], uploads: list, command: str = "build") -> str:
        job, key = Job(time.monotonic()), secrets.token_urlsafe(9)
        files = [_Held(u.filename, u.read()) for u in uploads if u.filename]
        with self.lock:
            self.jobs[key] = job
            while len(self.jobs) > KEPT_JOBS:
                self.jobs.pop(next(iter(self.jobs)))
        threading.Thread(target=self._run, args=(job, form, files, command), daemon=True).start()
        return key

    def get(self, key: str) -> Job | None:
        with self.lock:
            return self.jobs.get(key)

    @staticmethod
    def _run(job: Job, form, files, command) -> None:
        def step(text: str) -> None:
            job.step = text

        def progress(drawn: int, pages: int) -> None:
            job.pages = (drawn, pages)

        try:
            kit = build(form, files, step, progress, command, job.previews)
            job.step, job.kit = "done", kit
        except BadRequest as err:
            job.error = str(err)
        except Exception as err:            # the server keeps running; the page says what happened
            job.error = f"internal error: {type(err).__name__}: {err}"


class _Held:
    """An upload read into memory, to save after the request has ended."""

    def __init__(self, filename: str, data: bytes):
        self.filename, self.data = filename, data

    def read(self) -> bytes:
        return self.data

    def save(self, path: str) -> None:
        Path(path).write_bytes(self.data)


def create_app(token: str, address: str, any_host: bool = False):
    """The Flask app. Every request needs ``token`` (``?token=`` or the cookie the first visit sets)
    and a Host header of ``address`` (``127.0.0.1:PORT``; ``localhost:PORT`` too), else 403."""
    from flask import Flask, Response, abort, jsonify, request

    app = Flask(__name__)
    app.config.update(MAX_CONTENT_LENGTH=MAX_REQUEST_BYTES, MAX_FORM_PARTS=MAX_FILES + 100,
                      KITGEN_TOKEN=token, KITGEN_ADDRESS=address)
    jobs = Jobs()

    def allowed_hosts() -> set[str]:
        host, _, port = app.config["KITGEN_ADDRESS"].rpartition(":")
        return {f"{host}:{port}", f"localhost:{port}"} if host == "127.0.0.1" else {f"{host}:{port}"}

    @app.before_request
    def guard():
        if not any_host and request.host not in allowed_hosts():
            abort(Response("forbidden: this server answers only at its own address\n", 403, mimetype="text/plain"))
        given = request.args.get("token") or request.cookies.get(TOKEN_COOKIE) or ""
        if not hmac.compare_digest(given.encode(), app.config["KITGEN_TOKEN"].encode()):
            abort(Response("forbidden: open the address kitgen serve printed, with its ?token=\n", 403,
                           mimetype="text/plain"))

    @app.after_request
    def harden(response):
        if request.args.get("token") == app.config["KITGEN_TOKEN"]:
            response.set_cookie(TOKEN_COOKIE, app.config["KITGEN_TOKEN"], httponly=True, samesite="Strict")
        response.headers.update({
            "Content-Security-Policy": "default-src 'self'; img-src 'self' data:; frame-ancestors 'none'; "
                                       "form-action 'self'; base-uri 'none'",
            "X-Content-Type-Options": "nosniff", "Referrer-Policy": "no-referrer", "Cache-Control": "no-store"})
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

    def form() -> tuple[dict[str, str], list]:
        return request.form.to_dict(), request.files.getlist("deck")

    def zipped(kit: Kit) -> Response:
        return Response(kit.zip(), mimetype="application/zip",
                        headers={"Content-Disposition": f'attachment; filename="{kit.id}.zip"'})

    @app.post("/build")
    def build_kit():
        return zipped(build(*form()))

    @app.post("/game")
    def build_games():
        return zipped(build(*form(), command="game"))

    @app.post("/check")
    def check_deck():
        return jsonify(check(*form()))

    @app.post("/jobs")
    def start_job():
        fields, uploads = form()
        command = fields.pop("make", "build")
        if command not in ("build", "game"):
            raise BadRequest(f"make {command[:20]!r}: build (a kit) or game (single-game sheets)")
        return jsonify(job=jobs.start(fields, uploads, command)), 202

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

        return Response(serve_page.html(builtin_decks()), mimetype="text/html")

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

    def stop(self) -> None:
        self.server.shutdown()
        self.thread.join()


def start(host: str = "127.0.0.1", port: int = 0, token: str | None = None) -> Server:
    """Serve in a thread on ``host`` (a free port for 0); ``Server.url`` is the address to open."""
    import logging

    from werkzeug.serving import make_server

    logging.getLogger("werkzeug").setLevel(logging.WARNING)      # no request lines: they would show the token
    token = token or secrets.token_urlsafe(24)
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
    return Server(f"http://{shown}:{server.server_address[1]}/?token={token}", thread, server)
