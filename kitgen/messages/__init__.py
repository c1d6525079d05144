"""Printed labels and rules text, one YAML file per language (kitgen/messages/)."""

import importlib.resources
from pathlib import Path

from .. import yamlio
from ..errors import KitgenError
from ..layouts import Node, _nodes


def messages_dir() -> Path:
    return Path(str(importlib.resources.files("kitgen.messages")))


def languages() -> list[str]:
    return sorted(p.stem for p in messages_dir().glob("*.yaml"))


def load(language: str) -> Node:
    """The messages of a language; an unknown language lists the known ones."""
    path = messages_dir() / f"{language}.yaml"
    if not path.exists():
        raise KitgenError(f"no messages for language {language!r}; known languages: {', '.join(languages())}")
    data, _ = yamlio.load(path)
    return _nodes(data)


def label(messages: Node, key: str, **values) -> str:
    """One label, with its {placeholders} filled."""
    try:
        return messages.labels[key].format(**values)
    except KeyError:
        raise KitgenError(f"message {key!r} is missing for language {messages.get('language')!r}") from None
