"""The deduction family's printed labels and rules text, one YAML file per language in
kitgen/games/deduction/messages/ (loaded and checked by kitgen/messages.py)."""

import importlib.resources
from pathlib import Path

from kitgen import messages


def folder() -> Path:
    return Path(str(importlib.resources.files("kitgen.games.deduction"))) / "messages"


def load(language: str):
    """The labels and rules of ``language``; every language has every message English has."""
    return messages.load(folder(), language)


def languages() -> list[str]:
    return messages.languages(folder())
