"""Word decks: YAML, plain text or CSV, loaded and checked (docs/design.md §9.3)."""

import csv
import importlib.resources
import io
import re
from dataclasses import dataclass, field
from pathlib import Path

from kitgen import yamlio
from kitgen.errors import KitgenError
from kitgen.names import identity, normalize, unprintable

MIN_WORDS = 25
MAX_WORDS = 10_000            # words in one deck: a real deck holds at most a few thousand; refused as the next is read
MAX_WORD_LENGTH = 60          # characters: no card holds more; longer is a mistake, not a word
YAML_KEYS = {"name", "language", "words", "credits"}
CSV_HEADERS = {"word", "words", "codename", "codenames", "term", "terms"}


@dataclass(frozen=True)
class Deck:
    name: str
    language: str
    words: tuple[str, ...]
    source: str
    credits: str = ""
    lines: dict = field(default_factory=dict, compare=False)   # word -> line in the source file
    duplicates: tuple[str, ...] = ()     # when loaded leniently: each group of duplicates, described
    repeats: dict = field(default_factory=dict, compare=False)   # word -> ((copy, line), ...) written again


def builtin_dir() -> Path:
    return Path(str(importlib.resources.files("kitgen.builtin_decks")))


def builtin_names() -> list[str]:
    return sorted(p.stem for p in builtin_dir().glob("*.yaml"))


def resolve(name_or_path: str, relative_to: Path | None = None) -> Path:
    """A built-in deck name (``classic-en``: no suffix, no '/') or a path,
    relative to a kit file if given."""
    if not Path(name_or_path).suffix and "/" not in name_or_path:
        builtin = builtin_dir() / f"{name_or_path}.yaml"
        if builtin.exists():
            return builtin
    path = Path(name_or_path)
    if not path.is_absolute() and relative_to is not None:
        path = relative_to.parent / path
    if not path.suffix and not path.exists():
        raise KitgenError(f"no deck named {name_or_path!r}: give a file path, or one of {', '.join(builtin_names())}")
    return path


def _too_many(line: int | None) -> KitgenError:
    return KitgenError(f"holds more than {MAX_WORDS:,} words; a deck has at most {MAX_WORDS:,}: split it", line=line)


def _from_text(text: str) -> list[tuple[str, int]]:
    entries = []
    # lines end at CR, LF or both only, as in an editor: splitlines would also cut a word at U+0085 and the like,
    # which are refused as control characters instead
    for number, line in enumerate(re.split(r"\r\n|\r|\n", text), 1):
        word = line.split("#", 1)[0]
        if word.strip():
            if len(entries) == MAX_WORDS:
                raise _too_many(number)
            entries.append((word, number))
    return entries


def _from_csv(text: str) -> list[tuple[str, int]]:
    try:
        dialect = csv.Sniffer().sniff(text[:4096], delimiters=",;\t")
        delimiter = dialect.delimiter
    except csv.Error:
        delimiter = ","
    reader = csv.reader(io.StringIO(text), delimiter=delimiter, strict=True)
    entries, header = [], False
    while True:
        start = reader.line_num + 1        # where this record begins: a broken quote is reported there
        try:
            row = next(reader)
        except StopIteration:
            break
        except csv.Error as err:
            raise KitgenError(f"malformed CSV: {err}; check the quotes on this line", line=start) from None
        if row and row[0].strip() and not row[0].lstrip().startswith("#"):
            if "\n" in row[0] or "\r" in row[0]:
                raise KitgenError("a quoted field runs over several lines; close its quote", line=start)
            if not entries and not header and identity(row[0]) in CSV_HEADERS:
                header = True              # a header row names the column; it is no word
                continue
            if len(entries) == MAX_WORDS:
                raise _too_many(start)
            entries.append((row[0], start))
    return entries


def _from_yaml(path: Path) -> tuple[dict, list[tuple[str, int]]]:
    data, lines = yamlio.load(path)
    if not isinstance(data, dict):
        raise KitgenError("a YAML deck is a mapping with name, language and words", source=str(path))
    for key in data:
        if key not in YAML_KEYS:
            raise KitgenError(f"unknown key {key!r}; a deck has {', '.join(sorted(YAML_KEYS))}",
                              source=str(path), line=lines.get((key,)))
    words = data.get("words")
    if not isinstance(words, list):
        raise KitgenError("the deck needs a list under 'words'", source=str(path), line=lines.get(("words",)))
    if len(words) > MAX_WORDS:
        raise _too_many(lines.get(("words", MAX_WORDS)))
    entries = []
    for i, word in enumerate(words):
        line = lines.get(("words", i))
        if isinstance(word, bool) or not isinstance(word, (str, int, float)):
            raise KitgenError(f"entry {word!r} is not a word; put it in quotes", source=str(path), line=line)
        entries.append((str(word), line))
    for key in ("name", "language", "credits"):
        if key in data and not isinstance(data[key], str):
            raise KitgenError(f"{key} must be text", source=str(path), line=lines.get((key,)))
    if isinstance(data.get("name"), str) and (problem := unprintable(data["name"], "the deck's name")):
        raise KitgenError(problem, source=str(path), line=lines.get(("name",)))
    return data, entries


def load(name_or_path: str | Path, *, relative_to: Path | None = None, language: str | None = None,
         strict: bool = True) -> Deck:
    """Load and check a deck; every problem is a KitgenError naming the file.
    ``strict=False`` keeps the first of each group of duplicates and records the
    groups, for reports that list every problem at once."""
    path = resolve(str(name_or_path), relative_to)
    if path.is_dir():
        raise KitgenError("is a folder; a words deck is a .yaml, .txt or .csv file", source=str(path))
    meta: dict = {}
    try:
        if path.suffix.lower() in (".yaml", ".yml"):
            meta, entries = _from_yaml(path)
        elif path.suffix.lower() == ".csv":
            entries = _from_csv(yamlio.read_text(path))
        else:
            entries = _from_text(yamlio.read_text(path))
    except KitgenError as err:
        if err.source is None:
            err = KitgenError(err.message, source=str(path), line=err.line)
        raise err from None
    return check(meta.get("name") or path.stem, meta.get("language") or language or "en",
                 entries, str(path), meta.get("credits", ""), strict)


def check(name: str, language: str, entries: list[tuple[str, int]], source: str, credits: str = "",
          strict: bool = True) -> Deck:
    """Normalize words, refuse duplicates (unless not ``strict``) and too-small decks."""
    words, lines, first_seen, duplicates = [], {}, {}, {}
    for raw, line in entries:
        if len(raw) > 4 * MAX_WORD_LENGTH:
            raise KitgenError(f"line holds {len(raw):,} characters, not a word; one word per line", source=source,
                              line=line)
        problem = unprintable(raw, "word")         # as written: normalizing would fold a newline or tab away
        if problem:
            raise KitgenError(problem, source=source, line=line)
        word = normalize(raw)
        if not word:
            continue
        if len(word) > MAX_WORD_LENGTH:
            raise KitgenError(f"word {word[:30]!r}... has {len(word)} characters; a codename has at most "
                              f"{MAX_WORD_LENGTH}", source=source, line=line)
        key = identity(word)
        if key in first_seen:
            duplicates.setdefault(key, [first_seen[key]]).append((word, line))
            continue
        first_seen[key] = (word, line)
        words.append(word)
        lines[word] = line
    groups = tuple(" = ".join(f"{w} (line {n})" if n else w for w, n in group) for group in duplicates.values())
    if groups and strict:
        raise KitgenError(f"duplicate words (case and spaces ignored): {'; '.join(groups)}; keep one of each",
                          source=source)
    if len(words) < MIN_WORDS:
        raise KitgenError(f"has {len(words)} distinct words; a kit needs at least {MIN_WORDS}", source=source)
    repeats = {group[0][0]: tuple(group[1:]) for group in duplicates.values()}
    return Deck(name, language, tuple(words), source, credits, lines, groups, repeats)
