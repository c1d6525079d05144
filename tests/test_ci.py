"""CI proves what it claims: .ci/run runs README's test command exactly, and fails --
it does not skip the extraction or browser tests -- when pdftotext, Chromium or its driver
cannot be had."""

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
README = (ROOT / "README.md").read_text()
SCRIPT = (ROOT / ".ci" / "run").read_text()


def test_ci_runs_the_readme_test_command_exactly():
    command = re.search(r"pip install -e '\.\[test\]' && python -m pytest[^\n`]*", README).group(0)
    assert SCRIPT.rstrip().splitlines()[-1] == command


@pytest.mark.parametrize("present, message", [
    ((), "pdftotext is missing and poppler-utils could not be installed"),
    (("pdftotext",), "chromium is missing and chromium could not be installed"),
    (("pdftotext", "chromium"), "chromedriver is missing and chromium-driver could not be installed"),
    (("pdftotext", "chromium", "chromedriver"), "gs is missing and ghostscript could not be installed"),
])
def test_ci_fails_when_a_tool_is_missing_and_cannot_be_installed(tmp_path, present, message):
    """A PATH without the tool, an apt-get that fails, and a pip that would leave a mark if
    reached: .ci/run must stop with an error before installing or testing anything."""
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    for tool in ("dirname",):
        os.symlink(shutil.which(tool), bin_dir / tool)
    for tool in present:                                  # stand-ins: only their presence is asked
        (bin_dir / tool).write_text("#!/bin/sh\nexit 0\n")
    (bin_dir / "apt-get").write_text("#!/bin/sh\nexit 100\n")
    (bin_dir / "pip").write_text(f"#!/bin/sh\necho ran > {tmp_path}/pip-ran\n")      # no touch on PATH: a builtin
    for fake in ("apt-get", "pip", *present):
        (bin_dir / fake).chmod(0o755)
    result = subprocess.run([shutil.which("bash"), str(ROOT / ".ci" / "run")], env={"PATH": str(bin_dir)},
                            capture_output=True, text=True)
    assert result.returncode != 0
    assert message in result.stderr
    assert not (tmp_path / "pip-ran").exists()


def test_ci_installs_the_pdfx_profile_or_fails(tmp_path):
    """.ci/run needs the very file kitgen build --pdfx reads by default, from the package kitgen
    names; a copy of the script that needs a file that is not there stops with an error."""
    from kitgen.render import press

    line = f"need {press.DEFAULT_PROFILE} {press.DEFAULT_PACKAGE}"
    assert line in SCRIPT
    (tmp_path / ".ci").mkdir()
    script = tmp_path / ".ci" / "run"
    script.write_text(SCRIPT.replace(line, f"need {tmp_path}/absent.icc {press.DEFAULT_PACKAGE}"))
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    os.symlink(shutil.which("dirname"), bin_dir / "dirname")
    for tool in ("pdftotext", "chromium", "chromedriver", "gs"):
        (bin_dir / tool).write_text("#!/bin/sh\nexit 0\n")
    (bin_dir / "apt-get").write_text("#!/bin/sh\nexit 100\n")
    (bin_dir / "pip").write_text(f"#!/bin/sh\necho ran > {tmp_path}/pip-ran\n")      # no touch on PATH: a builtin
    for fake in ("apt-get", "pip", "pdftotext", "chromium", "chromedriver", "gs"):
        (bin_dir / fake).chmod(0o755)
    result = subprocess.run([shutil.which("bash"), str(script)], env={"PATH": str(bin_dir)},
                            capture_output=True, text=True)
    assert result.returncode != 0
    assert f"{tmp_path}/absent.icc is missing and scribus-data could not be installed" in result.stderr
    assert not (tmp_path / "pip-ran").exists()
    (tmp_path / "present.icc").write_bytes(b"")           # a file that is there: nothing to install, on to pip
    script.write_text(SCRIPT.replace(line, f"need {tmp_path}/present.icc {press.DEFAULT_PACKAGE}"))
    subprocess.run([shutil.which("bash"), str(script)], env={"PATH": str(bin_dir)}, capture_output=True, text=True)
    assert (tmp_path / "pip-ran").exists()


def test_ci_treats_a_skip_as_a_failure(tmp_path):
    """Under CI=true a skipped test, or a whole module skipped at import, fails the run."""
    (tmp_path / "conftest.py").write_text((ROOT / "tests" / "conftest.py").read_text())
    (tmp_path / "test_skip.py").write_text("import pytest\n\ndef test_x():\n    pytest.skip('no tool')\n")
    (tmp_path / "test_module_skip.py").write_text("import pytest\n\npytest.importorskip('no_such_module')\n")
    for name in ("test_skip.py", "test_module_skip.py"):
        base = [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", str(tmp_path / name)]
        outside = subprocess.run(base, cwd=tmp_path, capture_output=True, text=True, env={**os.environ, "CI": ""})
        inside = subprocess.run(base, cwd=tmp_path, capture_output=True, text=True, env={**os.environ, "CI": "true"})
        assert outside.returncode in (0, 5) and "1 skipped" in outside.stdout, outside.stdout   # 5: nothing ran
        assert inside.returncode != 0 and "skipped under CI=true" in inside.stdout, inside.stdout
