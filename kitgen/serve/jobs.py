"""What the server does with a request: ``prepare`` its workspace, ``build`` a kit or single games
(``make``, with a preview of each part), ``check`` a deck; and the page's builds as ``Jobs``,
polled for their step and kept for download."""

import json
import secrets
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path

from .. import families
from . import children, limits
from .children import Work, error_line, warnings
from .fields import BUILD, CHECK, FIELDS, build_arguments, check_fields
from .limits import BadRequest
from .uploads import Deck, save_uploads
from .workspace import DRAWN, Kit, Workspace, read_kit

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

    done = children.run_kitgen(args, folder, work, progress, drawn if shown is not None else None)
    if done.returncode != 0:
        raise BadRequest(error_line(done, deck), 400 if done.returncode == 2 else 500)
    kit = read_kit(folder / "out", warnings(done, deck))
    left = [part for part in kit.parts() if part not in (shown or {})]
    if shown is not None and left:          # the parts a build does not preview as it goes (games)
        step("drawing previews")
        for part in left:
            _preview(folder, f"out/{kit.id}/{part}", part, shown, work)
    return kit


def _preview(folder: Path, pdf: str, part: str, shown: dict[str, bytes], work: Work, wait: bool = True) -> None:
    """The first page of ``pdf`` (relative to ``folder``) as PNG, by ``kitgen preview``, into ``shown[part]``;
    nothing when ``kitgen preview`` fails, or without ``wait`` when no child is free."""
    done = children.run_kitgen(["preview", pdf, "--pages=1", f"--dpi={limits.PREVIEW_DPI}", "--out=previews"], folder,
                               work, wait=wait)
    png = folder / "previews" / f"{Path(pdf).stem}-p1.png"
    if done is not None and done.returncode == 0 and png.is_file():
        shown[part] = png.read_bytes()


def check(form: dict[str, str], uploads: list, work: Work | None = None, layouts: list | None = None) -> dict:
    """The check of a request's deck by its game's ``check`` command (``kitgen deck check --json``):
    its lines, each with its status (OK, FAIL, WARN, NOTE); each word or picture with what the lines
    say of it (a picture with a thumbnail); and whether every check passed. Names are the ones the
    person gave. The page sends its whole form: of it, only the game, deck and layout fields are used."""
    check_fields(form, CHECK)
    space, deck, _ = prepare(form, uploads, CHECK, layouts)
    try:
        family = families.named(form["game"]) if form.get("game") else families.default()
        if not family.check:
            raise BadRequest(f"the {family.title} game has no deck to check")
        argument = deck.argument or FIELDS["deck"].argument(form.get("deck", "")) or ""
        if not argument:
            raise BadRequest("nothing to check: paste words, upload a deck or choose a built-in deck")
        layout = deck.layout and f"--layout={deck.layout}" or FIELDS["layout"].argument(form.get("layout", ""))
        done = children.run_kitgen([*family.check, argument.removeprefix("--deck="),
                                    *filter(None, [layout])], space.path, work or _WORK)
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
            gone = [self.jobs.pop(key) for key in done[:max(0, len(done) - limits.KEPT_JOBS)]]
        for old in gone:
            old.space.remove()
