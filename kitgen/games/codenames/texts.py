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
    """Every character a kit in ``language`` with these words may print: its messages file's (a
    superset: comments and keys too), the words' and their capitals'. A large font (a CJK one) is cut
    down to these (``fonts.register``)."""
    from kitgen.render.text import apply_case

    path = folder() / f"{language}.yaml"
    chars = set(path.read_text("utf-8")) if path.is_file() else set()
    for word in words:
        chars.update(word, apply_case(word, "upper", language))
    return "".join(sorted(ch for ch in chars if not ch.isspace() or ch == " "))
