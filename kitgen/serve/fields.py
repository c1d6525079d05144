"""The fields a request may send (docs/design.md §11): the allow-list ``FIELDS``, each field typed and
in range (``Field``), and the command line's arguments built from them (``build_arguments``).
Nothing else of a request reaches the command line."""

import re
import unicodedata
from dataclasses import dataclass

from ..errors import KitgenError
from .limits import BadRequest, quoted
from .uploads import Deck

_BUILTIN = re.compile(r"[a-z0-9][a-z0-9-]{0,40}")
_TRUE, _FALSE = {"1", "on", "true", "yes"}, {"", "0", "off", "false", "no"}


@dataclass(frozen=True)
class Field:
    """One field a request may send (docs/design.md §11): its name, which is the option of the same
    name of each command in ``commands``; its kind (``choice``, ``number``, ``flag``, ``text``, or a
    command's ``deck`` and ``layout``, which name a built-in when nothing is uploaded); and its range:
    ``choices``, ``low``..``high``, or at most ``high`` characters."""

    name: str
    kind: str
    commands: tuple[str, ...]
    choices: tuple[str, ...] = ()
    low: int = 0
    high: int = 0

    def argument(self, value: str) -> str | None:
        """``--NAME=VALUE`` (``--NAME`` for a flag that is on; None for an empty value or a flag
        that is off), once the value is checked; else ``BadRequest`` in one line."""
        value = value.strip()
        if self.kind == "flag":
            if value.lower() not in _TRUE | _FALSE:
                raise BadRequest(f"{self.name} is on or off: send 1 or 0, not {quoted(value)}")
            return f"--{self.name}" if value.lower() in _TRUE else None
        if value == "":
            return None
        if self.kind == "choice" and value not in self.choices:
            raise BadRequest(f"{self.name} {quoted(value)}: one of {', '.join(self.choices)}")
        if self.kind == "number":
            if not re.fullmatch(r"[0-9]{1,9}", value) or not self.low <= int(value) <= self.high:
                raise BadRequest(f"{self.name} {quoted(value)}: a whole number from {self.low} to {self.high}")
            value = str(int(value))
        if self.kind == "text":
            if len(value) > self.high or any(unicodedata.category(c) in ("Cc", "Cs") for c in value):
                raise BadRequest(f"{self.name}: at most {self.high} characters, none of them a control character")
        if self.kind in ("deck", "layout") and not _BUILTIN.fullmatch(value):
            raise BadRequest(f"{self.name} {quoted(value)}: upload the {self.name}, or name a built-in one such "
                             f"as {'class-science' if self.kind == 'deck' else 'default'}")
        return f"--{self.name}={value}"


BUILD, GAME, CHECK = "build", "game", "check"
# the number fields' kinds and the options' (kitgen.families.Option) they come from
_KINDS = {"choice": "choice", "int": "number", "flag": "flag", "text": "text", "path": "text"}


def allowed() -> dict[str, Field]:
    """Every field the server takes: the kernel's options of ``kitgen build`` and ``kitgen game`` that
    the page offers, and each game family's (its options marked ``serve`` and its ``fields``), from the
    families' declarations. A field of another name, or one its command does not take, is refused."""
    from .. import families

    found = families.load()
    fields = [Field("game", "choice", (BUILD,), tuple(f.name for f in families.taking(BUILD))),
              Field("lang", "choice", (BUILD, GAME), families.languages()),
              Field("paper", "choice", (BUILD,), ("a4", "letter")),
              Field("duplex", "choice", (BUILD,), ("long", "short", "none", "fold")),
              Field("ink", "choice", (BUILD, GAME), ("normal", "saver")),
              Field("color", "choice", (BUILD,), ("rgb", "cmyk")),
              Field("pod", "choice", (BUILD,), ("tgc", "mpc", "dtc")),
              Field("png", "number", (BUILD,), low=36, high=1_200),
              Field("seed", "text", (BUILD, GAME), high=200),
              *(Field(flag, "flag", (BUILD,)) for flag in ("pdfx", "per-card", "cut-lines", "slug", "box",
                                                           "sleeved"))]
    for family in found:
        fields += [Field(f.name, f.kind, f.commands) for f in family.fields]
        fields += [Field(o.name, _KINDS[o.kind], (command,), o.choices, o.low or 0, o.high or 0)
                   for command in (BUILD, GAME) for o in family.command_options(command) if o.serve]
    merged: dict[str, Field] = {}
    for field in fields:
        held = merged.get(field.name)
        if held is None:
            merged[field.name] = field
        elif (held.kind, held.choices, held.low, held.high) != (field.kind, field.choices, field.low, field.high):
            raise KitgenError(f"the game families declare the server's field {field.name!r} twice, of different "
                              "kinds")
        else:
            merged[field.name] = Field(field.name, field.kind, tuple(dict.fromkeys(held.commands + field.commands)),
                                       field.choices, field.low, field.high)
    return merged


FIELDS = allowed()
_FIELD_NAME = re.compile(r"[a-z][a-z0-9-]{0,30}")


def check_fields(form: dict[str, str], command: str) -> None:
    """Refuse, in one line, a field the server does not know, one that ``command`` does not take,
    and any field name that is not a plain option name (``out=DIR`` is not a name). ``check``
    takes the page's whole form and uses only the deck and layout fields of it."""
    for name in form:
        if not _FIELD_NAME.fullmatch(name) or name not in FIELDS:
            raise BadRequest(f"field {quoted(name)} is not one kitgen serve takes; it takes "
                             f"{', '.join(sorted(FIELDS))}")
        if command != CHECK and command not in FIELDS[name].commands:
            raise BadRequest(f"field {name!r}: {'a kit build does' if command == BUILD else 'single games do'} "
                             "not take it")


def build_arguments(form: dict[str, str], deck: Deck, command: str = BUILD) -> list[str]:
    """The arguments of ``kitgen COMMAND`` (build or game), built by the server from the fields it
    knows (``FIELDS``): each typed and in range, an uploaded deck or layout as its saved file, the
    kit into ``out``. Nothing else of the request reaches the command line."""
    check_fields(form, command)
    args = [command, "--out=out"]
    for name, value in form.items():
        known = FIELDS[name]
        if known.kind == "pasted" or (name == "deck" and deck.argument) or (name == "layout" and deck.layout):
            continue
        argument = known.argument(value)
        if argument:
            args.append(argument)
    if deck.argument is not None:
        args.append(f"--deck={deck.argument}")
    if deck.layout is not None:
        args.append(f"--layout={deck.layout}")
    return args
