"""Safe YAML loading with line numbers for error messages."""

from pathlib import Path

import yaml

from . import files
from .errors import KitgenError

# libyaml's parser when PyYAML has it (its wheels do): the same safe loader, faster
Loader = getattr(yaml, "CSafeLoader", yaml.SafeLoader)


def _line_map(node, path=(), lines=None) -> dict:
    """Map each mapping key path (a tuple) to its 1-based line."""
    if lines is None:
        lines = {}
    if isinstance(node, yaml.MappingNode):
        for key_node, value_node in node.value:
            key_path = path + (str(key_node.value),)
            lines[key_path] = key_node.start_mark.line + 1
            _line_map(value_node, key_path, lines)
    elif isinstance(node, yaml.SequenceNode):
        for i, item in enumerate(node.value):
            lines[path + (i,)] = item.start_mark.line + 1
            _line_map(item, path + (i,), lines)
    return lines


def line_of(lines: dict, where: tuple) -> int | None:
    """The line of the value at key path ``where`` (a ``load`` line map), else of its nearest
    parent that has one; None when none has."""
    return next((lines[where[:cut]] for cut in range(len(where), 0, -1) if where[:cut] in lines), None)


MAX_TEXT_BYTES = 20_000_000     # a deck, layout or kit file larger than this is refused, not read


def read_text(path: Path) -> str:
    """A text file in UTF-8 (a BOM tolerated) or UTF-16 with its BOM; a clear error
    when it is missing, no regular file, too large, binary or in another encoding."""
    raw = files.read_bytes(path, MAX_TEXT_BYTES, "text files")
    encoding = "utf-16" if raw[:2] in (b"\xff\xfe", b"\xfe\xff") else "utf-8-sig"
    try:
        text = raw.decode(encoding)
    except UnicodeDecodeError as err:
        line = raw[:err.start].count(b"\n") + 1
        raise KitgenError("is not UTF-8 text (it may be Latin-1 or another encoding); save it as UTF-8",
                          source=str(path), line=line) from None
    if "\x00" in text:
        line = text[:text.index("\x00")].count("\n") + 1
        raise KitgenError("contains NUL bytes: it is not a text file; save it as plain UTF-8 text",
                          source=str(path), line=line)
    return text


MAX_DEPTH = 100          # kitgen's own files nest a handful of levels
DEEP = f"YAML nested more than {MAX_DEPTH} levels deep: too deep to be a kitgen file"
# values (scalars, lists and mappings) in one file: a deck of 10,000 words holds about as many, a
# layout a few thousand; counted from the parser's events, so a huge file stops here, not composed
MAX_VALUES = 50_000


def load(path: Path) -> tuple[object, dict]:
    """Load one YAML document with the safe loader; returns (data, key-path -> line)."""
    text = read_text(path)
    try:
        depth = values = 0
        for event in yaml.parse(text, Loader=Loader):
            if isinstance(event, yaml.AliasEvent) or getattr(event, "anchor", None):
                raise KitgenError("YAML anchors and aliases (&name, *name) are not allowed; write the values out",
                                  source=str(path), line=event.start_mark.line + 1)
            # counted here, from the parser's events: the composer below recurses in C, and a few
            # ten thousand levels crash the process before Python could catch a RecursionError
            if isinstance(event, (yaml.ScalarEvent, yaml.MappingStartEvent, yaml.SequenceStartEvent)):
                values += 1
                if values > MAX_VALUES:
                    raise KitgenError(f"holds more than {MAX_VALUES:,} YAML values (words, names, keys); too many "
                                      "for a kitgen file", source=str(path), line=event.start_mark.line + 1)
            if isinstance(event, (yaml.MappingStartEvent, yaml.SequenceStartEvent)):
                depth += 1
                if depth > MAX_DEPTH:
                    raise KitgenError(DEEP, source=str(path), line=event.start_mark.line + 1)
            elif isinstance(event, (yaml.MappingEndEvent, yaml.SequenceEndEvent)):
                depth -= 1
        loader = Loader(text)
        try:
            node = loader.get_single_node()
            data = loader.construct_document(node) if node is not None else None
        finally:
            loader.dispose()
    except yaml.MarkedYAMLError as err:
        mark = err.problem_mark or err.context_mark
        problem = err.problem or err.context or "malformed YAML"
        if "nesting depth" in problem:           # newer libyaml counts too, and may stop first
            raise KitgenError(DEEP, source=str(path), line=mark.line + 1 if mark else None) from None
        if "constructor" in problem or "tag" in problem:
            problem += " (YAML tags that build objects are not allowed)"
        raise KitgenError(f"malformed YAML: {problem}", source=str(path),
                          line=mark.line + 1 if mark else None) from None
    except yaml.YAMLError as err:
        raise KitgenError(f"malformed YAML: {' '.join(str(err).split())[:200]}", source=str(path)) from None
    except RecursionError:
        raise KitgenError("YAML nested too deeply to be a kitgen file", source=str(path)) from None
    try:
        return data, _line_map(node) if node is not None else {}
    except RecursionError:
        raise KitgenError("YAML nested too deeply to be a kitgen file", source=str(path)) from None
