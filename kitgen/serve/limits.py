"""The server's limits (docs/design.md §9.3, §11): the numbers a request, a child and the page's
builds are held to, and the refusals (``BadRequest``, ``Busy``) the server answers in one line.
The other modules read the numbers as ``limits.NAME`` when they run, never a copy, so there is one
place to change them and a test patches them here (``children.Work`` takes its defaults once, as it
is defined)."""

# Limits of a request (docs/design.md §9.3); the files inside are held to the command line's own limits.
MAX_REQUEST_BYTES = 200_000_000     # the whole upload; more is answered 413
MAX_FILES = 1_000                   # files in one request, or pictures in one zip
MAX_CHILDREN = 4                    # kitgen processes at once (build, game, check, preview); more wait
MAX_WAITING = 8                     # requests and page builds waiting for one; more are answered 503 (busy)
CHILD_MEMORY = 3 * 2**30            # the address space one kitgen process may take (a 100,000-key kit: 0.7 GB)
BUILD_SECONDS = 1_800               # a build that takes longer is stopped
KEPT_JOBS = 8                       # the page's finished builds kept in memory for download
PREVIEW_DPI = 40


class BadRequest(Exception):
    """A request kitgen refuses: its one-line message, and the HTTP status to answer with."""

    def __init__(self, message: str, status: int = 400):
        super().__init__(message)
        self.status = status


class Busy(BadRequest):
    """Every child slot is taken and ``MAX_WAITING`` requests already wait: try again later (503)."""

    def __init__(self):
        super().__init__(f"kitgen is busy: {MAX_CHILDREN} builds or checks are running and {MAX_WAITING} are "
                         "waiting; try again in a minute", 503)


def quoted(value: str) -> str:
    """A value of a request, shortened, as a refusal quotes it."""
    return repr(value[:24] + ("..." if len(value) > 24 else ""))
