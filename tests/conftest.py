"""Shared fixtures: one default kit built per test session, and raster helpers."""

import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(Path(__file__).resolve().parent))


@pytest.fixture(scope="session")
def default_kit(tmp_path_factory):
    """The built-in English kit, built once: (folder, files, manifest)."""
    from kitgen import build, kitfile

    out = tmp_path_factory.mktemp("out")
    return build.build(kitfile.load(), out)


@pytest.fixture(scope="session")
def default_layout():
    from kitgen import layouts

    return layouts.load("default")
