"""Shared fixtures: one default kit built per test session, raster helpers, and kitgen serve's app and client.

Tests never touch the user's cache (fonts, pictures): KITGEN_CACHE points at a
fresh folder for the whole session (child processes inherit it), so every run cuts
the fonts again and the cutting code is tested on every machine, not only on a new one.
Under CI=true a skipped test is a failure: CI must run every test.
No test is timed: the hypothesis profile loaded here has no deadline (a loaded machine
must not fail a correct change; tests/test_ci.py keeps every test without one)."""

import os
import shutil
import sys
import tempfile
from pathlib import Path

import pytest
from hypothesis import settings

settings.register_profile("kitgen", deadline=None)
settings.load_profile("kitgen")

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(Path(__file__).resolve().parent))
_PREFIX = "kitgen-test-cache-"
_INHERITED = Path(os.environ.get("KITGEN_CACHE", "")).name.startswith(_PREFIX)   # a test run inside a test
_CACHE = os.environ["KITGEN_CACHE"] if _INHERITED else tempfile.mkdtemp(prefix=_PREFIX)
os.environ["KITGEN_CACHE"] = _CACHE          # before anything registers a font


def pytest_sessionstart(session):
    """Cut the fonts into the fresh cache once, up front: the cutting code runs in every test
    run, and no test's output depends on whether it happened to be the first to need a font."""
    from kitgen import fonts, layouts

    for name in fonts.register_roles(layouts.load("default")).values():
        fonts.partner(name)


def pytest_unconfigure(config):
    if not _INHERITED:
        from kitgen import pictures

        if pictures._store is not None:
            pictures._store.flush()          # now, not at exit: into the folder about to be removed
        shutil.rmtree(_CACHE, ignore_errors=True)


def _fail_skips_under_ci(report) -> None:
    if report.skipped and os.environ.get("CI", "").lower() == "true" and not hasattr(report, "wasxfail"):
        reason = report.longrepr[2] if isinstance(report.longrepr, tuple) else str(report.longrepr)
        report.outcome = "failed"
        report.longrepr = f"skipped under CI=true, where every test must run: {reason}"


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item, call):
    outcome = yield
    _fail_skips_under_ci(outcome.get_result())


@pytest.hookimpl(hookwrapper=True)
def pytest_make_collect_report(collector):
    """A whole module skipped (pytest.importorskip at its top) counts too."""
    outcome = yield
    _fail_skips_under_ci(outcome.get_result())


@pytest.fixture(scope="session")
def default_kit(tmp_path_factory):
    """The built-in English kit, built once: (folder, files, manifest)."""
    from kitgen.games.codenames import build, kitfile

    out = tmp_path_factory.mktemp("out")
    return build.build(kitfile.load(), out)


@pytest.fixture(scope="session")
def default_layout():
    from kitgen import layouts

    return layouts.load("default")


@pytest.fixture
def app():
    """kitgen serve's Flask app, with the token and address of tests/servetest.py."""
    from kitgen.serve import app as serve_app

    from servetest import ADDRESS, TOKEN

    return serve_app.create_app(TOKEN, ADDRESS)


@pytest.fixture
def client(app):
    return app.test_client()
