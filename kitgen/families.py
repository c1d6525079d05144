"""Game families register themselves (docs/design.md §2.5): each family is a package that declares
a ``Family`` and names it under the ``kitgen.games`` entry point of its distribution, as pytest's
plugins and Pillow's image plugins do. The command line, the server and its page read these
declarations and name no family themselves; a family installed as a separate package appears in
``kitgen --help``, ``kitgen build --help`` and the page without a change to kitgen.

A declaration is plain data, cheap to import: what a command does for a family is named as
``"module:function"`` and imported only when the command runs.
"""

from __future__ import annotations

import importlib
from dataclasses import dataclass, field
from functools import cache

from .errors import KitgenError

GROUP = "kitgen.games"
KINDS = ("text", "int", "float", "choice", "flag", "path")
# the commands a family may take part in; each family also declares commands of its own (``commands``)
COMMANDS = ("build", "proof", "box", "verify", "game")


@dataclass(frozen=True)
class Option:
    """One option a family's part of a kernel command takes: ``--NAME``, of a ``kind`` (text, int,
    float, choice, flag or path), with its help line. ``low``..``high`` bound an int (``high``: a text's
    length) and ``choices`` a choice: the command line checks them when ``cli_checks`` (else the family
    does, with its own message; a choice is then text on the command line), the server always
    (``serve``: the page and ``POST /build`` take it as a field). ``refusal`` is the line said when the
    option is given to a command run for another family (default: which family it belongs to)."""

    name: str
    help: str
    kind: str = "text"
    choices: tuple[str, ...] = ()
    metavar: str | None = None
    default: object = None
    low: int | None = None
    high: int | None = None
    cli_checks: bool = True
    serve: bool = False
    refusal: str | None = None

    @property
    def flag(self) -> str:
        return f"--{self.name}"

    @property
    def dest(self) -> str:
        return self.name.replace("-", "_")


@dataclass(frozen=True)
class Edition:
    """One edition of a family (``--edition NAME``) and what it is, for the help."""

    name: str
    summary: str


@dataclass(frozen=True)
class PageKind:
    """One choice under "What to make" on the server's page: its ``value`` and ``label``; the fields it
    sends as they are (``sends``; a value ``#id`` is that element's value); ``upload``, the deck it asks
    for (``words``, ``pictures`` or nothing); ``builtin``, whether a built-in deck may stand in for it;
    ``shows``, the page's shared blocks it shows (``paper``, ``check``); and ``command``, ``build``
    (a kit) or ``game`` (single-game sheets)."""

    value: str
    label: str
    sends: tuple[tuple[str, str], ...] = ()
    upload: str = ""
    builtin: bool = False
    shows: tuple[str, ...] = ()
    command: str = "build"


@dataclass(frozen=True)
class ServerField:
    """A field the server takes for a family (docs/design.md §11), beyond its options marked ``serve``:
    an upload or pasted deck (kind ``deck``, ``layout``, ``pasted``) for the commands named."""

    name: str
    kind: str
    commands: tuple[str, ...]


@dataclass(frozen=True)
class Family:
    """A game family's declaration. ``name`` is its ``--game NAME`` (and its entry point's name);
    ``title`` how messages name it ("Foo"); ``summary`` its line in ``kitgen --help``.
    ``default``: the family ``kitgen build`` builds without a kit file or ``--game`` (one family is).
    ``owns`` (``"module:function"``, path -> bool) recognises a kit file as the family's own; the
    default family takes every kit file no other family owns. ``claims`` (target, dpi -> bool) tells
    ``kitgen verify`` a code of the family's. ``runs`` maps each kernel command it takes part in to
    the function that does it; ``options`` maps a command to the options it takes for the family.
    ``commands`` names a function giving the family's own click commands (``keys``, ...). The
    server's part: ``fields`` and ``page`` (``PageKind``s and the HTML of the family's own fields),
    ``check``: the command that checks a deck, as words (``deck check --json``)."""

    name: str
    title: str
    summary: str
    kit_noun: str                       # "a Foo kit": what its kit file is, in messages
    option_of: str                      # "a Foo option": what its options are, in messages
    the_kit: str                        # "the Foo kit": its kit, in messages
    runs: dict[str, str]
    options: dict[str, tuple[Option, ...]] = field(default_factory=dict)
    editions: tuple[Edition, ...] = ()
    languages: tuple[str, ...] = ()
    default: bool = False
    owns: str | None = None
    claims: str | None = None
    commands: str | None = None
    fields: tuple[ServerField, ...] = ()
    page: tuple[PageKind, ...] = ()
    page_html: str = ""
    check: tuple[str, ...] = ()

    def command_options(self, command: str) -> tuple[Option, ...]:
        return self.options.get(command, ())

    def run(self, command: str):
        """The function that runs ``command`` for this family, imported now."""
        return resolve(self.runs[command])


def resolve(reference: str):
    """``"package.module:function"`` -> the function, imported; one that cannot be is one line."""
    module, _, name = reference.partition(":")
    try:
        return getattr(importlib.import_module(module), name)
    except (ImportError, AttributeError) as err:
        raise KitgenError(f"a game family's {reference} cannot be loaded: {type(err).__name__}: {err}; reinstall "
                          "the family") from None


def entry_points():
    """The ``kitgen.games`` entry points installed (a function, so a test can see a family appear)."""
    from importlib import metadata

    return metadata.entry_points(group=GROUP)


@cache
def load() -> tuple[Family, ...]:
    """Every installed family, the default first, then by name. Refused in one line: none installed,
    an entry point that is not a ``Family`` or is named otherwise than its family, two of a name, or
    not exactly one default."""
    found: dict[str, Family] = {}
    for point in entry_points():
        try:
            family = point.load()
        except Exception as err:
            raise KitgenError(f"the game family {point.name!r} ({point.value}) cannot be loaded: "
                              f"{type(err).__name__}: {err}; reinstall it") from None
        if not isinstance(family, Family) or family.name != point.name:
            raise KitgenError(f"the entry point {point.name!r} of {GROUP} ({point.value}) is not the declaration "
                              f"of a game family named {point.name!r}")
        _check(family)
        if family.name in found and found[family.name] != family:
            raise KitgenError(f"two game families are named {family.name!r}; uninstall one")
        found[family.name] = family
    if not found:
        raise KitgenError("no game family is installed: reinstall kitgen (pip install -e .)")
    defaults = [f.name for f in found.values() if f.default]
    if len(defaults) != 1:
        raise KitgenError(f"exactly one game family must be the default, not {len(defaults)} "
                          f"({', '.join(defaults) or 'none'})")
    return tuple(sorted(found.values(), key=lambda f: (not f.default, f.name)))


def _check(family: Family) -> None:
    """A declaration's commands and option kinds are ones kitgen has, else one line naming them."""
    unknown = sorted((set(family.runs) | set(family.options)) - set(COMMANDS))
    if unknown:
        raise KitgenError(f"the game family {family.name!r} declares kitgen {unknown[0]}, which kitgen has not; its "
                          f"commands are {', '.join(COMMANDS)} (a command of its own goes in its commands)")
    for command, declared in family.options.items():
        for option in declared:
            if option.kind not in KINDS:
                raise KitgenError(f"the game family {family.name!r} declares {option.flag} of kitgen {command} of "
                                  f"the kind {option.kind!r}; the kinds are {', '.join(KINDS)}")


def default() -> Family:
    return load()[0]


def named(name: str) -> Family:
    for family in load():
        if family.name == name:
            return family
    raise KitgenError(f"no game {name!r}; the games are {', '.join(f.name for f in load())}")


def taking(command: str) -> tuple[Family, ...]:
    """The families that take part in ``command``."""
    return tuple(f for f in load() if command in f.runs)


def languages(command: str | None = None) -> tuple[str, ...]:
    """The languages of the built-in kits of every family (or of those that take part in ``command``),
    each once, in the families' order (the default family's first)."""
    found = load() if command is None else taking(command)
    return tuple(dict.fromkeys(language for family in found for language in family.languages))


def owner_of(kit_file: str) -> Family | None:
    """The family other than the default that owns a kit file, if any."""
    for family in load():
        if not family.default and family.owns and resolve(family.owns)(kit_file):
            return family
    return None


def for_kit(kit_file: str | None, game: str | None) -> tuple[Family, bool]:
    """The family a command is for, and whether it was chosen (by ``--game`` or by a kit file it
    owns) rather than taken as the default: ``--game``, else the family that owns the kit file, else
    the default. A kit file another family owns, given with ``--game``, is refused."""
    owner = owner_of(kit_file) if kit_file else None
    if game is None:
        return (owner, True) if owner else (default(), False)
    family = named(game)
    if owner is not None and owner is not family:
        raise KitgenError(f"is {owner.kit_noun}, not {family.kit_noun}", source=kit_file)
    return family, True


def refuse_foreign(command: str, family: Family, chosen: bool, given: dict[str, object]) -> None:
    """The first option given (``given``: dest -> value) that belongs to another family's part of
    ``command`` and not to ``family``'s is refused in one line."""
    own = {o.dest for o in family.command_options(command)}
    for other in load():
        if other is family:
            continue
        for option in other.command_options(command):
            value = given.get(option.dest)
            if option.dest in own or value is None or value is False or value == option.default:
                continue
            if option.refusal:
                raise KitgenError(option.refusal)
            if chosen:
                raise KitgenError(f"{option.flag} is {other.option_of}; {family.the_kit} has none such")
            raise KitgenError(f"{option.flag} is {other.option_of}: add --game {other.name}")


def options(command: str) -> list[tuple[Option, tuple[Family, ...]]]:
    """Every family option of ``command``, once each (the first declaration of a name), with the
    families that take it. Two families may share an option only of one kind."""
    seen: dict[str, tuple[Option, list[Family]]] = {}
    for family in taking(command):
        for option in family.command_options(command):
            if option.dest in seen:
                first, owners = seen[option.dest]
                if (first.kind, first.choices) != (option.kind, option.choices):
                    raise KitgenError(f"the game families {owners[0].name} and {family.name} both declare "
                                      f"{option.flag} for kitgen {command}, of different kinds")
                owners.append(family)
            else:
                seen[option.dest] = (option, [family])
    return [(option, tuple(owners)) for option, owners in seen.values()]
