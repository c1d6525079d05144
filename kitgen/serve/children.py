"""The server's kitgen processes: ``Work``, which holds how many run and wait at once, and
``run_kitgen``, which runs ``python -m kitgen ...`` as a limited child tied to the server
(``serve_child``); with the child's one-line error and its warnings, names as uploaded."""

import os
import re
import subprocess
import sys
import threading
from pathlib import Path

from . import limits
from .limits import BadRequest, Busy
from .uploads import Deck
from .workspace import DRAWN, LAYOUTS, UPLOAD


class Work:
    """The server's kitgen processes: at most ``children`` run at once, across build, game, check and
    preview; a request or job holds one of ``children + waiting`` tickets from its start to its end,
    and one that finds none is answered ``Busy`` at once, so nothing queues without limit."""

    def __init__(self, children: int = limits.MAX_CHILDREN, waiting: int = limits.MAX_WAITING):
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
    from .. import layouts

    root = str(Path(__file__).resolve().parent.parent.parent)
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([root, *filter(None, [os.environ.get("PYTHONPATH")])]),
           "KITGEN_PROGRESS": "lines" if progress else "", "PYTHONUNBUFFERED": "1",
           "KITGEN_DRAWN": str(folder / DRAWN) if drawn else "",
           layouts.CONFINED: str(folder / UPLOAD / LAYOUTS)}
    command = [sys.executable, *CHILD, str(os.getpid()), str(limits.CHILD_MEMORY), *args]
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
    timer = threading.Timer(limits.BUILD_SECONDS, lambda: (stopped.set(), process.kill()))
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
        raise BadRequest(f"the build took more than {limits.BUILD_SECONDS // 60} minutes and was stopped", 500)
    if work.stopping:
        raise BadRequest("the server is stopping", 503)
    if code < 0:
        raise BadRequest(f"kitgen was stopped by signal {-code} (out of memory?); try a smaller build", 500)
    if code == 1 and "MemoryError" in "".join(errors[-1:]):
        raise BadRequest(f"the build needed more than {limits.CHILD_MEMORY // 2**30} GB of memory and was stopped; "
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
