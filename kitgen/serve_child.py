"""``python -m kitgen.serve_child PARENT MEMORY ARGS...``: kitgen's command line as a child of
``kitgen serve`` (docs/design.md §11). Before anything else it limits its address space to MEMORY
bytes, so one deck or layout cannot take the machine's memory, and asks the kernel to kill it when
its parent (process PARENT, the server's thread that started it) goes, so no build outlives a
server killed with -9; if the parent is already gone, it stops at once."""

import ctypes
import os
import resource
import signal
import sys

PR_SET_PDEATHSIG = 1        # <linux/prctl.h>


def die_with_parent(parent: int) -> bool:
    """Be killed when the parent goes (Linux); whether the parent is still there."""
    try:
        ctypes.CDLL(None, use_errno=True).prctl(PR_SET_PDEATHSIG, signal.SIGKILL)
    except (OSError, AttributeError):       # not Linux: the server's kill on stop is what is left
        pass
    return os.getppid() == parent


def main() -> None:
    parent, memory, *args = sys.argv[1:]
    resource.setrlimit(resource.RLIMIT_AS, (int(memory), int(memory)))
    if not die_with_parent(int(parent)):
        sys.exit(1)
    from kitgen.cli import main as kitgen

    sys.argv = ["kitgen", *args]
    kitgen(args)


if __name__ == "__main__":
    main()
