"""CI proves what it claims: .ci/run runs README's test command exactly, and fails --
it does not skip the extraction or browser tests -- when pdftotext, Chromium or its driver
cannot be had."""

import ast
import os
import re
import shutil
import subprocess
import sys
import tomllib
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


# what ruff checks (.ci/run): the package, the tests, the bench and the script that makes the docs' previews
LINTED = "kitgen tests bench tools docs/previews.py"


def _ci_copy_with_stand_ins(tmp_path, ruff_exit: int, mkdocs_exit: int = 0, pip_exit: int = 0):
    """A copy of .ci/run whose tools are all present, and stand-ins for pip, ruff, mkdocs and python
    that log how they were called (ruff exits ``ruff_exit``, mkdocs ``mkdocs_exit``, pip ``pip_exit``);
    what it does: (return code, the log)."""
    line = next(line for line in SCRIPT.splitlines() if line.startswith("need /"))
    (tmp_path / "present.icc").write_bytes(b"")
    (tmp_path / ".ci").mkdir()
    script = tmp_path / ".ci" / "run"
    script.write_text(SCRIPT.replace(line, f"need {tmp_path}/present.icc scribus-data"))
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    for tool in ("dirname", "mktemp", "rm"):
        os.symlink(shutil.which(tool), bin_dir / tool)
    log = tmp_path / "log"
    for tool, code in (("pdftotext", 0), ("chromium", 0), ("chromedriver", 0), ("gs", 0), ("apt-get", 100),
                       ("pip", pip_exit), ("ruff", ruff_exit), ("mkdocs", mkdocs_exit), ("python", 0)):
        (bin_dir / tool).write_text(f'#!/bin/sh\necho "{tool} $*" >> {log}\nexit {code}\n')
        (bin_dir / tool).chmod(0o755)
    result = subprocess.run([shutil.which("bash"), str(script)], env={"PATH": str(bin_dir)},
                            capture_output=True, text=True)
    return result.returncode, log.read_text().splitlines() if log.exists() else []


def test_ci_runs_ruff_on_the_package_tests_and_bench_before_the_tests(tmp_path):
    """.ci/run installs ruff at the test extra's lower bound and checks the package, the tests,
    the bench, tools/ and docs/previews.py with it; then it installs kitgen and runs the tests."""
    code, log = _ci_copy_with_stand_ins(tmp_path, ruff_exit=0)
    assert code == 0
    test_extra = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["optional-dependencies"]["test"]
    bound = next(spec for spec in test_extra if spec.startswith("ruff"))
    assert [line.split(" --site-dir ")[0] for line in log] == [
        f"pip install -q {bound}", f"ruff check {LINTED}", "pip install -q -e .[docs]", "mkdocs build --strict",
        "pip install -e .[test]", "python -m pytest"]
    for folder in LINTED.split():
        assert (ROOT / folder).exists(), folder


def test_ci_fails_when_ruff_finds_anything(tmp_path):
    """A finding (ruff exits 1) stops CI there: kitgen is not installed nor the tests run, and
    the run fails."""
    code, log = _ci_copy_with_stand_ins(tmp_path, ruff_exit=1)
    assert code != 0
    assert log[-1] == f"ruff check {LINTED}" and not any(line.startswith("python") for line in log)


def test_ci_fails_when_the_docs_site_does_not_build_strictly(tmp_path):
    """A broken link or a page missing from the nav (mkdocs --strict exits 1) stops CI before the
    tests; so does a docs extra that cannot be installed."""
    code, log = _ci_copy_with_stand_ins(tmp_path, ruff_exit=0, mkdocs_exit=1)
    assert code != 0 and log[-1].startswith("mkdocs build --strict")
    assert not any(line.startswith("python") for line in log)


def test_ci_stops_when_pip_cannot_install_a_tool(tmp_path):
    code, log = _ci_copy_with_stand_ins(tmp_path, ruff_exit=0, pip_exit=1)
    assert code != 0 and log == ["pip install -q ruff>=0.17"]


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


# --- no test is timed (hypothesis's deadline) ------------------------------------------

def _settings_calls(tree):
    """Every call of hypothesis's settings in a module: ``settings(...)``, ``hypothesis.settings(...)``
    and ``settings.register_profile(...)``, as (what is called, the call)."""
    for node in ast.walk(tree):
        if not isinstance(node, ast.Call):
            continue
        func = node.func
        if isinstance(func, ast.Name) and func.id == "settings" or \
                isinstance(func, ast.Attribute) and func.attr == "settings":
            yield "settings", node
        elif isinstance(func, ast.Attribute) and func.attr in ("register_profile", "load_profile"):
            yield func.attr, node


def _deadline_problems(source: str, name: str) -> list[str]:
    problems = []
    for _, call in _settings_calls(ast.parse(source)):
        for keyword in call.keywords:
            if keyword.arg == "deadline" and not (isinstance(keyword.value, ast.Constant)
                                                  and keyword.value.value is None):
                problems.append(f"{name}:{call.lineno}: a hypothesis deadline other than None")
            if keyword.arg is None:             # settings(**options): what it holds cannot be seen
                problems.append(f"{name}:{call.lineno}: settings(**...) may hide a deadline")
    return problems


def _conftest_problems(source: str) -> list[str]:
    """conftest.py must register a profile with deadline=None and load it."""
    registered, loaded = set(), set()
    for what, call in _settings_calls(ast.parse(source)):
        if what not in ("register_profile", "load_profile") or not call.args or \
                not isinstance(call.args[0], ast.Constant):
            continue
        if what == "load_profile":
            loaded.add(call.args[0].value)
        elif any(k.arg == "deadline" and isinstance(k.value, ast.Constant) and k.value.value is None
                 for k in call.keywords):
            registered.add(call.args[0].value)
    return [] if registered & loaded else ["conftest.py does not register and load a profile with deadline=None"]


def test_no_test_has_a_hypothesis_deadline():
    """A timed test fails a correct change on a loaded machine (issue 25, point 11): conftest.py
    loads a profile without a deadline, and no test file sets one."""
    problems = []
    for path in sorted((ROOT / "tests").glob("*.py")):
        problems += _deadline_problems(path.read_text("utf-8"), path.name)
    problems += _conftest_problems((ROOT / "tests" / "conftest.py").read_text("utf-8"))
    assert problems == []
    from hypothesis import settings

    assert settings.default.deadline is None


def test_the_deadline_check_sees_a_deadline_and_a_conftest_without_the_profile():
    """The check itself: what it must refuse, it refuses."""
    for source in ("@settings(max_examples=5, deadline=200)\ndef test_x(): pass\n",
                   "import hypothesis\nhypothesis.settings(deadline=timedelta(ms=1))\n",
                   "settings.register_profile('x', deadline=500)\n",
                   "FUZZ = settings(**OPTIONS)\n"):
        assert _deadline_problems(source, "t.py"), source
    assert _deadline_problems("@settings(max_examples=5, deadline=None)\ndef test_x(): pass\n", "t.py") == []
    conftest = (ROOT / "tests" / "conftest.py").read_text("utf-8")
    assert _conftest_problems(conftest) == []
    for broken in ('settings.load_profile("kitgen")', 'settings.register_profile("kitgen", deadline=None)'):
        assert broken in conftest
        assert _conftest_problems(conftest.replace(broken, "")), broken
    assert _conftest_problems(conftest.replace("deadline=None)", "deadline=1000)"))
