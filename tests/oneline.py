"""What the tests of bad input share: the command line in a subprocess, under a hang guard (it
stops a read that blocks; no test measures time), and the one line, exit 2, it must answer."""

import subprocess
import sys

HANG_GUARD = 300          # seconds: a read that blocks or never ends fails here instead of hanging the suite


def kitgen(*args, cwd):
    return subprocess.run([sys.executable, "-m", "kitgen", *args], cwd=cwd, capture_output=True, text=True,
                          timeout=HANG_GUARD, stdin=subprocess.DEVNULL)


def refused(result, *needles) -> str:
    """Exit 2 and one line on stderr, no traceback, holding every needle: the line."""
    lines = result.stderr.splitlines()
    assert result.returncode == 2, result.stdout + result.stderr
    assert len(lines) == 1 and lines[0].startswith("kitgen: error: "), result.stderr
    assert "Traceback" not in result.stderr and "internal error" not in result.stderr
    for needle in needles:
        assert needle in lines[0], lines[0]
    return lines[0]
