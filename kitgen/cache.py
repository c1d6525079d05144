"""The cache folder: what kitgen makes once and keeps for later runs (cut fonts, what SVG
pictures draw), each kind in a folder of its own (docs/design.md §7.4, §8.6)."""

import os
import tempfile
from pathlib import Path


def folder(kind: str) -> Path:
    """Where ``kind`` (``fonts``, ``pictures``) is kept: $KITGEN_CACHE/<kind>, else
    $XDG_CACHE_HOME/kitgen/<kind>, else ~/.cache/kitgen/<kind>."""
    if os.environ.get("KITGEN_CACHE"):
        return Path(os.environ["KITGEN_CACHE"]) / kind
    return Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache") / "kitgen" / kind


def write_atomically(target: Path, data: bytes) -> None:
    """``data`` written to ``target`` whole or not at all: into a temporary file beside it, then
    renamed over it, so a reader (another kitgen too) sees the old file or the new one, never a
    part. OSError when the folder cannot be made or written."""
    target.parent.mkdir(parents=True, exist_ok=True)
    handle, tmp = tempfile.mkstemp(dir=target.parent, suffix=".tmp")
    try:
        with os.fdopen(handle, "wb") as out:
            out.write(data)
        os.replace(tmp, target)
    finally:
        if os.path.exists(tmp):
            os.unlink(tmp)
