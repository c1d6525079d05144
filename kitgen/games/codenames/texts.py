"""The Codenames family's printed labels and rules text, one YAML file per language
in kitgen/games/codenames/messages/ (loaded and checked by kitgen/messages.py)."""

import importlib.resources
from pathlib import Path

from kitgen import messages


def folder() -> Path:
    return Path(str(importlib.resources.files("kitgen.games.codenames"))) / "messages"


def load(language: str):
    """The labels and rules of ``language``; every language has every message English has."""
    return messages.load(folder(), language)


def languages() -> list[str]:
    return messages.languages(folder())


def characters(language: str, words=()) -> str:
    """Every character a Codenames kit in ``language`` with these words (and names) may print
    (``messages.characters``)."""
    return messages.characters(folder(), language, words)
