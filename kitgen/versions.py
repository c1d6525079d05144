"""Installed packages' versions, for the manifest and the font cache's names (docs/design.md §2.4).

importlib.metadata answers the same, but importing it (it imports the email package) and
parsing each package's METADATA with the email parser costs about 30 ms a build. A package
installed from a wheel or an sdist has a ``<name>-<version>.dist-info`` folder on sys.path whose
METADATA has a ``Version:`` line: that line is read. A package not found that way (an egg,
an unusual install) is asked of importlib.metadata."""

import os
import re
import sys
from functools import lru_cache


def _key(name: str) -> str:
    """A distribution's name as dist-info folders spell it, folded (PEP 503 and PEP 427)."""
    return re.sub(r"[-_.]+", "_", name).lower()


@lru_cache(maxsize=1)
def _dist_infos() -> dict[str, str]:
    """Folded name -> its dist-info folder, the first on sys.path winning (as imports do)."""
    found: dict[str, str] = {}
    for entry in sys.path:
        try:
            names = os.listdir(entry or ".")
        except OSError:
            continue
        for folder in names:
            if folder.endswith(".dist-info") and "-" in folder:
                found.setdefault(_key(folder[:-len(".dist-info")].split("-")[0]), os.path.join(entry, folder))
    return found


_VERSION = re.compile(r"^Version:[ \t]*(\S+)[ \t]*$", re.M)


def installed(name: str) -> str | None:
    """The installed version of distribution ``name``, None if it is not installed."""
    folder = _dist_infos().get(_key(name))
    if folder is not None:
        try:
            with open(os.path.join(folder, "METADATA"), encoding="utf-8") as handle:
                head = handle.read(4096)          # Version comes among the first headers
            match = _VERSION.search(head.split("\n\n", 1)[0])
            if match:
                return match.group(1)
        except OSError:
            pass
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version(name)
    except PackageNotFoundError:
        return None
