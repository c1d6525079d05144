"""Reading a file a user names (docs/design.md §9.3): only a regular file is read, and never
more than its limit. The file is opened without blocking (a FIFO with no writer opens at once),
what was opened is checked (``fstat`` of the descriptor, not of the name), and at most
``limit + 1`` bytes are read, so a device such as /dev/zero, a FIFO or a file that grows while it
is read is refused in one line (a ``KitgenError``), never read without end."""

import os
import stat
from pathlib import Path

from .errors import KitgenError

_KINDS = ((stat.S_ISCHR, "a character device"), (stat.S_ISBLK, "a block device"), (stat.S_ISFIFO, "a FIFO"),
          (stat.S_ISSOCK, "a socket"))
_CHUNK = 1 << 20


def size_text(limit: int) -> str:
    """``20_000_000`` -> ``20 MB``, ``200_000`` -> ``200 kB``, ``100`` -> ``100 bytes``."""
    if limit >= 1_000_000:
        return f"{limit // 1_000_000:,} MB"
    return f"{limit // 1_000:,} kB" if limit >= 1_000 else f"{limit} bytes"


def _refusal(mode: int) -> str | None:
    """Why a file of ``mode`` is not read, or None for a regular file."""
    if stat.S_ISREG(mode):
        return None
    if stat.S_ISDIR(mode):
        return "is a folder, not a file"
    kind = next((name for test, name in _KINDS if test(mode)), "a special file")
    return f"is not a regular file ({kind}); give a file"


def is_regular(path: Path) -> str | None:
    """None if ``path`` (followed through symbolic links) is a regular file; else why it is not read."""
    try:
        return _refusal(os.stat(path).st_mode)
    except FileNotFoundError:
        return "file not found (or a broken link)"
    except OSError as err:
        return f"cannot read: {err.strerror}"


def open_regular(path: str | Path, limit: int, what: str = "files"):
    """An open binary file object for ``path`` once it is known to be a regular file of at most
    ``limit`` bytes (``what`` names such files in the message: "text files")."""
    source = str(path)
    try:
        handle = os.open(path, os.O_RDONLY | os.O_NONBLOCK | os.O_NOCTTY | os.O_CLOEXEC)
    except FileNotFoundError:
        raise KitgenError("file not found; check the path", source=source) from None
    except IsADirectoryError:
        raise KitgenError("is a folder, not a file", source=source) from None
    except OSError as err:
        raise KitgenError(f"cannot read: {err.strerror}", source=source) from None
    try:
        info = os.fstat(handle)
        why = _refusal(info.st_mode)
        if why:
            raise KitgenError(why, source=source)
        if info.st_size > limit:
            raise KitgenError(f"is {size_text(info.st_size)}; kitgen reads {what} up to {size_text(limit)}",
                              source=source)
        return os.fdopen(handle, "rb")
    except BaseException:
        os.close(handle)
        raise


def _chunks(path: str | Path, limit: int, what: str):
    """The regular file ``path`` in chunks, refused in one line when it is no regular file or holds
    more than ``limit`` bytes (however it grows while it is read): the refusal comes after the
    last chunk, so a caller keeps nothing of a file too large."""
    with open_regular(path, limit, what) as file:
        total = 0
        try:
            while total <= limit:
                chunk = file.read(min(_CHUNK, limit + 1 - total))
                if not chunk:
                    break
                total += len(chunk)
                if total <= limit:
                    yield chunk
        except OSError as err:
            raise KitgenError(f"cannot read: {err.strerror}", source=str(path)) from None
    if total > limit:
        raise KitgenError(f"is more than {size_text(limit)}; kitgen reads {what} up to {size_text(limit)}",
                          source=str(path))


def read_bytes(path: str | Path, limit: int, what: str = "files") -> bytes:
    """The bytes of the regular file ``path``, refused in one line when it is no regular file or
    holds more than ``limit`` bytes (however it grows while it is read)."""
    return b"".join(_chunks(path, limit, what))


def read_text(path: str | Path, limit: int, what: str = "files") -> str:
    """``read_bytes`` as UTF-8 text (a BOM tolerated); one line when it is not UTF-8."""
    raw = read_bytes(path, limit, what)
    try:
        return raw.decode("utf-8-sig")
    except UnicodeDecodeError as err:
        raise KitgenError("is not UTF-8 text", source=str(path), line=raw[:err.start].count(b"\n") + 1) from None


def sha256_of(path: str | Path, limit: int, what: str = "files") -> str:
    """The SHA-256 (hex) of the regular file ``path``, read in chunks (refused as ``read_bytes``)."""
    import hashlib

    digest = hashlib.sha256()
    for chunk in _chunks(path, limit, what):
        digest.update(chunk)
    return digest.hexdigest()
