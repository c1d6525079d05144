"""The folders of ``kitgen serve``: each build's or check's own ``Workspace`` (and the names of the
folders inside it), ``sweep`` of what dead servers left behind, and a built kit (``Kit``, its files
on disk ``KitFiles``) as ``read_kit`` finds it in a workspace."""

import fcntl
import io
import os
import re
import shutil
import tempfile
import zipfile
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path

UPLOAD = "upload"                   # the folder of a build's uploads, inside its temporary folder
LAYOUTS = "layout"                  # uploaded layouts, in UPLOAD; the command line is confined to it
DRAWN = "drawn"                     # where a build puts each part as it is drawn, for its preview

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


def read_kit(out: Path, notes: list[str]) -> Kit:
    (target,) = [p for p in out.iterdir() if p.is_dir()]
    return Kit(target.name, KitFiles(target), notes)
