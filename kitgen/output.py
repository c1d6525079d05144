"""What every family's build writes: the files of a kit, written atomically into their
folder, and the parts of a manifest that do not depend on the game (docs/design.md §2.3)."""

import hashlib
import json
import os
import shutil
import tempfile
from dataclasses import dataclass
from pathlib import Path

from kitgen.errors import KitgenError


@dataclass(frozen=True)
class BuiltFile:
    name: str
    data: bytes
    pages: int


class Progress:
    """What a build tells as it goes; the CLI shows it, the library stays quiet."""

    def note(self, line: str) -> None:
        """Slow one-time work is starting."""

    def start(self, pages: int) -> None:
        """About ``pages`` card pages are to be drawn."""

    def page(self) -> None:
        """One more page is drawn."""

    def part_drawn(self, name: str, data: bytes) -> None:
        """A part's PDF, ``name`` in the kit folder, is drawn (``data``), before the rest of the kit
        and before anything is written: ``kitgen serve`` previews it meanwhile (docs/design.md §11)."""

    def warn(self, line: str) -> None:
        """Something the user should know, that does not stop the build."""


# the packages of the other scripts' fonts and of Thai line breaking (those of the extras may be absent: None)
SCRIPT_PACKAGES = ("fontpkg-heebo", "fontpkg-noto-sans-devanagari", "fontpkg-noto-sans-thai", "justmytype-intl-cjk",
                   "pythainlp")


def library_versions(extra: tuple[str, ...] = (), pdfx: bool = False) -> dict:
    """The versions that shape the bytes of the PDFs, for reproducing a build; ``extra``
    names a family's own (the kernel's first, so every manifest starts alike). A --pdfx build
    adds pikepdf and the qpdf it runs (docs/design.md §8.11)."""
    from kitgen.versions import installed

    versions = {name: installed(name) for name in ("reportlab", "fonttools", "qrcode", "fontpkg-noto-sans",
                                                   "fontpkg-noto-sans-arabic", "uharfbuzz", "python-bidi",
                                                   "svglib", "pillow", "py-phosphor-icons") + SCRIPT_PACKAGES
                + tuple(extra)}
    if pdfx:
        import pikepdf

        versions.update({"pikepdf": installed("pikepdf"), "qpdf": pikepdf.__libqpdf_version__})
    return versions


def file_entries(files: list[BuiltFile], size) -> list:
    """Each PDF's path, SHA-256, pages and page size, for the manifest."""
    return [{"path": f.name, "sha256": hashlib.sha256(f.data).hexdigest(), "pages": f.pages,
             "page_size": [round(size[0], 3), round(size[1], 3)]} for f in files]


def with_more(files: list[BuiltFile], manifest: dict, more) -> tuple[list[BuiltFile], dict]:
    """A kit's files and manifest with ``more`` files beside them (``kitgen build --box``), each
    listed under ``extra_files``; without any, the same objects."""
    if not more:
        return files, manifest
    extra = manifest["extra_files"] + [{"path": f.name, "sha256": hashlib.sha256(f.data).hexdigest()} for f in more]
    return files + list(more), {**manifest, "extra_files": extra}


def write_kit(target: Path, files: list[BuiltFile], manifest: dict) -> None:
    """Write all files into ``target`` at once: they are written into a fresh
    folder beside it, which then takes the old folder's place. A failure at
    any point leaves the previous kit as it was and no partial file."""
    with KitWriter(target) as writer:
        for f in files:
            writer.write(f.name, f.data)
        writer.finish(lambda handle: json.dump(manifest, handle, indent=1, ensure_ascii=False))


def add_files(target: Path, files: list[BuiltFile]) -> None:
    """Files written into a folder that may hold others (``kitgen box`` beside a built kit), which
    stay: each is written to a temporary file beside its place and synced, and only when all are
    written are they renamed into place. A failure removes the temporary files, and no file is
    ever half-written (docs/design.md §2.3)."""
    target = Path(target)
    if target.exists() and not target.is_dir():
        raise KitgenError("the output path is a file, not a folder; choose another --out", source=str(target))
    staged = []
    try:
        target.mkdir(parents=True, exist_ok=True)
        for f in files:
            handle, temporary = tempfile.mkstemp(prefix=f".{f.name}.", suffix=".tmp", dir=target)
            staged.append((temporary, target / f.name))
            with os.fdopen(handle, "wb") as out:
                out.write(f.data)
                out.flush()
                os.fsync(out.fileno())
            os.chmod(temporary, 0o644)
        for temporary, path in staged:
            os.replace(temporary, path)
    except OSError as err:
        for temporary, _ in staged:
            if os.path.exists(temporary):
                os.unlink(temporary)
        raise KitgenError(f"cannot write: {err.strerror}; choose another --out", source=str(target)) from None


class KitWriter:
    """A kit's folder written file by file as each is made (``kitgen keys`` writes a volume as
    soon as it is drawn, so memory stays flat), into a fresh folder beside ``target`` that takes
    the old folder's place only in ``finish``. Leaving the ``with`` block without finishing (an
    error, Ctrl-C) removes the fresh folder: the previous kit stays as it was, and no partial file."""

    def __init__(self, target: Path):
        target = Path(target)
        parent = target.parent
        if parent.exists() and not parent.is_dir():
            raise KitgenError("is not a folder; choose another --out", source=str(parent))
        if target.exists() and not target.is_dir():
            raise KitgenError("the output path is a file, not a folder; choose another --out", source=str(target))
        try:
            parent.mkdir(parents=True, exist_ok=True)
            for leftover in parent.glob(f".{target.name}.*"):
                if leftover.name.endswith(".tmp") or ".old-" in leftover.name:
                    shutil.rmtree(leftover, ignore_errors=True)     # from a build that was killed
            self.staging = Path(tempfile.mkdtemp(prefix=f".{target.name}.", suffix=".tmp", dir=parent))
        except OSError as err:
            raise KitgenError(f"cannot write here: {err.strerror}; choose another --out", source=str(parent)) from None
        self.target = target
        self.finished = False

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        if not self.finished:
            shutil.rmtree(self.staging, ignore_errors=True)
        return False

    def path(self, name: str) -> Path:
        """Where file ``name`` goes while the kit is being written (its folders made)."""
        path = self.staging / name
        path.parent.mkdir(parents=True, exist_ok=True)
        return path

    def write(self, name: str, data: bytes) -> None:
        try:
            self.path(name).write_bytes(data)
        except OSError as err:
            raise KitgenError(f"cannot write the kit: {err.strerror}", source=str(self.target)) from None

    def finish(self, write_manifest) -> None:
        """``write_manifest(handle)`` writes manifest.json (text); then every file is synced and
        the folder takes the old one's place."""
        target, staging = self.target, self.staging
        old = target.parent / f".{target.name}.old-{os.getpid()}"
        try:
            with open(staging / "manifest.json", "w", encoding="utf-8") as handle:
                write_manifest(handle)
                handle.write("\n")
            for path in staging.rglob("*"):
                if path.is_file():
                    with open(path, "rb") as handle:
                        os.fsync(handle.fileno())
            os.chmod(staging, 0o755)
            if target.exists():
                os.rename(target, old)
            os.rename(staging, target)
        except OSError as err:
            if old.exists() and not target.exists():
                os.rename(old, target)          # put the previous kit back
            raise KitgenError(f"cannot write the kit: {err.strerror}", source=str(target)) from None
        self.finished = True
        shutil.rmtree(old, ignore_errors=True)
