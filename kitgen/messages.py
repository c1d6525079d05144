"""Printed labels and rules text, one YAML file per language in a folder of each game
family's (kitgen/games/<family>/messages/), every language checked against English."""

from pathlib import Path

from kitgen import yamlio
from kitgen.errors import KitgenError
from kitgen.layouts import Node, _nodes


def languages(folder: Path) -> list[str]:
    return sorted(p.stem for p in folder.glob("*.yaml"))


REFERENCE = "en"
RTL_LANGUAGES = {"fa", "ar", "he", "ur"}


def _paths(value, prefix=()) -> set[tuple]:
    """Every key path of a messages file, down to its texts."""
    if isinstance(value, dict):
        return {p for k, v in value.items() for p in _paths(v, prefix + (str(k),))}
    if isinstance(value, list):
        # sections are matched by their ids, paragraphs by their place
        return {p for i, v in enumerate(value)
                for p in _paths(v, prefix + ((v.get("id") if isinstance(v, dict) and "id" in v else i),))}
    return {prefix}


def _raw(folder: Path, language: str) -> tuple[dict, Path]:
    path = folder / f"{language}.yaml"
    if not path.exists():
        raise KitgenError(f"no messages for language {language!r}; known languages: {', '.join(languages(folder))}")
    data, _ = yamlio.load(path)
    if not isinstance(data, dict):
        raise KitgenError("a messages file is a mapping of labels and rules", source=str(path))
    return data, path


def load(folder: Path, language: str) -> Node:
    """The messages of a language from ``folder``; an unknown language lists the known
    ones, and a file with a missing or an extra message (against English) is refused."""
    data, path = _raw(folder, language)
    if language != REFERENCE:
        want, have = _paths(_raw(folder, REFERENCE)[0]), _paths(data)
        missing, extra = sorted(want - have, key=str), sorted(have - want, key=str)
        if missing:
            raise KitgenError(f"message {'.'.join(map(str, missing[0]))!r} is missing for language {language!r}"
                              f"{f' (and {len(missing) - 1} more)' if len(missing) > 1 else ''}; "
                              "add it to the messages file", source=str(path))
        if extra:
            raise KitgenError(f"message {'.'.join(map(str, extra[0]))!r} is not a kitgen message "
                              f"(language {language!r}); remove it", source=str(path))
    return _nodes(data)


def is_rtl(language: str) -> bool:
    return language in RTL_LANGUAGES


ASCII_DIGITS = "0123456789"


def number(messages: Node, value: int, width: int = 0) -> str:
    """A number as the language writes it: in its own digits (a messages file's ``digits``,
    e.g. Persian ۰-۹), zero-padded to ``width``. Codes and payloads are never passed here."""
    digits = messages.get("digits") or ASCII_DIGITS
    return str(value).zfill(width).translate(str.maketrans(ASCII_DIGITS, digits))


def label(messages: Node, key: str, **values) -> str:
    """One label, with its {placeholders} filled; whole numbers among the values are
    written in the language's digits (text values, such as a game's code, as they are)."""
    values = {k: number(messages, v) if isinstance(v, int) and not isinstance(v, bool) else v
              for k, v in values.items()}
    try:
        return messages.labels[key].format(**values)
    except KeyError:
        raise KitgenError(f"message {key!r} is missing for language {messages.get('language')!r}") from None


def characters(folder: Path, language: str, texts=()) -> str:
    """Every character a kit in ``language`` may print: its messages file's (a superset: comments and
    keys too), and those of ``texts`` and their capitals. A large font (a CJK one) is cut down to these
    (``fonts.register``)."""
    from kitgen.render.text import apply_case

    path = folder / f"{language}.yaml"
    chars = set(path.read_text("utf-8")) if path.is_file() else set()
    for text in texts:
        chars.update(text, apply_case(text, "upper", language))
    return "".join(sorted(ch for ch in chars if not ch.isspace() or ch == " "))
