"""Themes of the deduction game: a kit file with ``game: deduction`` that names the
suspects, crimes and locations of a city and its roads (docs/design.md §10.2). The
built-in ones are kitgen/games/deduction/kits/deduction-<lang>.yaml.

Everything is checked before anything is drawn; a bad theme gets one line naming the
file (and line) and what to fix: a road to an unknown location, a map that is not
connected or cannot be drawn without crossings, more suspects or crimes than
locations, the same name twice, a picture that cannot be read or the same picture
twice, fewer than 2 of anything."""

import importlib.resources
from dataclasses import dataclass
from pathlib import Path

from kitgen import pictures, yamlio
from kitgen.errors import KitgenError
from kitgen.games.deduction import city, facts, layout as layout_mod, texts
from kitgen.games.deduction.render import board
from kitgen.names import identity, normalize, slug, unprintable

KEYS = {"game", "id", "name", "language", "seed", "suspects", "crimes", "locations", "roads", "credits"}
MAX_NAME = 40          # characters; a card or tile shrinks a name to fit, but not without end
KINDS = ("suspects", "crimes", "locations")


@dataclass(frozen=True)
class Entry:
    """A suspect, crime or location: its printed name and, optionally, a picture."""

    name: str
    picture: pictures.Picture | None = None


@dataclass(frozen=True)
class Theme:
    id: str
    name: str
    language: str
    seed: str
    suspects: tuple[Entry, ...]
    crimes: tuple[Entry, ...]
    locations: tuple[Entry, ...]
    city: city.Map
    source: str
    credits: str = ""
    given: tuple = ()              # (location index, position) of every location that gave its 'at'

    @property
    def counts(self) -> facts.Counts:
        return facts.Counts(len(self.suspects), len(self.crimes), len(self.locations))

    def names(self, kind: str) -> tuple[str, ...]:
        return tuple(e.name for e in getattr(self, kind))


def builtin_dir() -> Path:
    return Path(str(importlib.resources.files("kitgen.games.deduction"))) / "kits"


def builtin_names() -> list[str]:
    return sorted(p.stem for p in builtin_dir().glob("*.yaml"))


def resolve(name_or_path: str | None, language: str | None = None) -> Path:
    """A theme file, or the built-in theme of ``language`` (deduction-en when none is given)."""
    if name_or_path is None:
        name = f"deduction-{language or 'en'}"
        path = builtin_dir() / f"{name}.yaml"
        if not path.exists():
            raise KitgenError(f"no built-in deduction kit for language {language!r}; built-in: "
                              f"{', '.join(builtin_names())}")
        return path
    path = Path(name_or_path)
    if not path.suffix and (builtin_dir() / f"{name_or_path}.yaml").exists():
        return builtin_dir() / f"{name_or_path}.yaml"
    return path


def is_theme(path: Path) -> bool:
    """Whether a kit file is a deduction theme (``game: deduction``)."""
    try:
        data, _ = yamlio.load(Path(path))
    except KitgenError:
        return False
    return isinstance(data, dict) and data.get("game") == "deduction"


class _Reader:
    def __init__(self, path: Path, lines: dict):
        self.path, self.lines = path, lines

    def fail(self, where: tuple, message: str):
        raise KitgenError(message, source=str(self.path), line=yamlio.line_of(self.lines, where))

    def name(self, value, where: tuple) -> str:
        if not isinstance(value, str) or not normalize(value):
            self.fail(where, "a name is text; write it, or remove the entry")
        problem = unprintable(value)                 # as written: normalizing would fold a newline or tab away
        if problem:
            self.fail(where, problem)
        shown = normalize(value)
        if len(shown) > MAX_NAME:
            self.fail(where, f"{shown[:30]!r}... has {len(shown)} characters; a name has at most {MAX_NAME}")
        return shown

    def picture(self, value, where: tuple) -> pictures.Picture:
        if not isinstance(value, str):
            self.fail(where, "a picture is a file name beside the theme, or an icon such as phosphor:cat")
        if problem := unprintable(value, "the picture"):
            self.fail(where, problem)
        if ":" in value and not Path(value).suffix:
            name, data = pictures.icon(value, str(self.path), self.lines.get(where))
            return pictures.read_picture(name, data, True, line=self.lines.get(where), source=str(self.path))
        file = (self.path.parent / value).resolve()
        if self.path.parent.resolve() not in file.parents:
            self.fail(where, f"{value!r} is outside the theme's folder")
        if file.suffix.lower() not in pictures.RASTER | pictures.VECTOR:
            self.fail(where, f"{value!r} is not a PNG, JPEG or SVG file")
        try:
            data = pictures.read_file(file)
        except KitgenError as err:
            self.fail(where, f"the picture {value!r}: {err.message}")
        try:
            return pictures.read_picture(value, data, file.suffix.lower() in pictures.VECTOR)
        except KitgenError as err:                    # named in the theme, at the theme's line
            self.fail(where, f"the picture {value!r} {err.message}")

    def entries(self, data: dict, kind: str) -> tuple[list[Entry], dict[int, tuple[float, float]]]:
        raw = data.get(kind)
        if not isinstance(raw, list):
            self.fail((kind,), f"{kind} is a list of names (or {{name, picture}}); write it")
        out, positions = [], {}
        allowed = {"name", "picture"} | ({"at"} if kind == "locations" else set())
        for i, item in enumerate(raw):
            where = (kind, i)
            if isinstance(item, dict):
                unknown = set(item) - allowed
                if unknown or "name" not in item:
                    self.fail(where, f"each of the {kind} is a name or {{{', '.join(sorted(allowed))}}}"
                                     + (f"; unknown key {sorted(unknown)[0]!r}" if unknown
                                        else "; the name is missing"))
                name = self.name(item["name"], where + ("name",))
                picture = self.picture(item["picture"], where + ("picture",)) if "picture" in item else None
                if "at" in item:
                    at = item["at"]
                    if (not isinstance(at, list) or len(at) != 2
                            or not all(isinstance(v, (int, float)) and not isinstance(v, bool) and 0 <= v <= 1
                                       for v in at)):
                        self.fail(where + ("at",), f"at: is the location's place on the board, [x, y] from 0 to 1 "
                                                   f"from the top-left, like [0.3, 0.2]; not {at!r}")
                    positions[i] = (float(at[0]), float(at[1]))
            else:
                name, picture = self.name(item, where), None
            out.append(Entry(name, picture))
        if len(out) < facts.MIN_OF_EACH:
            self.fail((kind,), f"has {len(out)} {kind}; a theme needs at least {facts.MIN_OF_EACH}")
        return out, positions


def load(path: Path) -> Theme:
    """Load and check a theme file."""
    path = Path(path)
    data, lines = yamlio.load(path)
    reader = _Reader(path, lines)
    if not isinstance(data, dict):
        raise KitgenError("a deduction theme is a mapping of keys (game, name, suspects, crimes, locations, roads)",
                          source=str(path))
    for key in data:
        if key not in KEYS:
            reader.fail((key,), f"unknown key {key!r}; a deduction theme has {', '.join(sorted(KEYS))}")
    if data.get("game") != "deduction":
        reader.fail(("game",), "a deduction theme says game: deduction")
    name = reader.name(data.get("name", path.stem), ("name",))
    kit_id = data.get("id", slug(path.stem))
    if not isinstance(kit_id, str) or slug(kit_id) != kit_id:
        reader.fail(("id",), f"id {kit_id!r} must be 1-16 lower-case letters, digits or '-'")
    language = data.get("language", "en")
    if language not in texts.languages():
        reader.fail(("language",), f"no deduction texts for language {language!r}; known: "
                                   f"{', '.join(texts.languages())}")
    seed = data.get("seed", f"kitgen:{kit_id}")
    if not isinstance(seed, str) or not seed:
        reader.fail(("seed",), "the seed is text, not empty")
    credits = data.get("credits", "")
    if not isinstance(credits, str):
        reader.fail(("credits",), "credits is text")

    if isinstance(data.get("locations"), list):          # before reading them, and long before placing them
        board.check_capacity(layout_mod.load("default"), len(data["locations"]), str(path),
                             yamlio.line_of(lines, ("locations",)))
    lists = {}
    given: dict[int, tuple[float, float]] = {}
    for kind in KINDS:
        lists[kind], positions = reader.entries(data, kind)
        if kind == "locations":
            given = positions
    seen: dict[str, tuple] = {}
    for kind in KINDS:
        for i, entry in enumerate(lists[kind]):
            key = identity(entry.name)
            if key in seen:
                other_kind, other = seen[key]
                reader.fail((kind, i), f"{entry.name!r} is named twice ({other_kind} and {kind}); "
                                       "every suspect, crime and location needs a name of its own")
            seen[key] = (kind, entry.name)
    pictured: dict[bytes, str] = {}
    for kind in KINDS:                                   # a picture of its own for every thing (§10.6)
        for i, entry in enumerate(lists[kind]):
            if entry.picture is None:
                continue
            if entry.picture.digest in pictured:
                reader.fail((kind, i, "picture"), f"{entry.name!r} has the same picture as "
                                                  f"{pictured[entry.picture.digest]!r}; give each its own")
            pictured[entry.picture.digest] = entry.name
    places = len(lists["locations"])
    for kind in ("suspects", "crimes"):
        if len(lists[kind]) > places:
            reader.fail((kind,), f"has {len(lists[kind])} {kind} but {places} locations: every location holds one "
                                 f"tile of each, so {kind} may not outnumber locations")

    index = {identity(e.name): i for i, e in enumerate(lists["locations"])}
    raw_roads = data.get("roads")
    if not isinstance(raw_roads, list) or not raw_roads:
        reader.fail(("roads",), "roads is a list of pairs of locations, like [[Harbour, Market], ...]")
    roads = set()
    for i, road in enumerate(raw_roads):
        where = ("roads", i)
        if not isinstance(road, list) or len(road) != 2 or not all(isinstance(v, str) for v in road):
            reader.fail(where, f"a road joins two locations: [A, B]; not {road!r}")
        ends = []
        for end in road:
            if problem := unprintable(end, "the road's end"):
                reader.fail(where, problem)
            if identity(end) not in index:
                reader.fail(where, f"the road {road[0]} - {road[1]} goes to {end!r}, which is not one of the locations")
            ends.append(index[identity(end)])
        if ends[0] == ends[1]:
            reader.fail(where, f"the road {road[0]} - {road[1]} goes nowhere: it joins a location to itself")
        pair = tuple(sorted(ends))
        if pair in roads:
            reader.fail(where, f"the road {road[0]} - {road[1]} is listed twice")
        roads.add(pair)
    roads = tuple(sorted(roads))
    names = tuple(e.name for e in lists["locations"])
    if not city.is_connected(places, roads):
        reader.fail(("roads",), "the roads leave the city in separate parts; join every location to the others")
    if not city.is_planar(places, roads):
        reader.fail(("roads",), "the roads cannot be drawn without crossing each other; remove a road")
    positions = city.place(names, roads, given)
    if positions is None:
        reader.fail(("locations",), "kitgen could not place the locations without 'at' so that no roads cross; "
                                    "give every location an 'at'")
    crossing = city.crossings(positions, roads)
    if crossing:
        (a, b), (c, d) = crossing[0]
        reader.fail(("locations",), f"at the positions given, the roads {names[a]} - {names[b]} and {names[c]} - "
                                    f"{names[d]} cross; move a location or remove a road")
    return Theme(kit_id, name, language, seed, tuple(lists["suspects"]), tuple(lists["crimes"]),
                 tuple(lists["locations"]), city.Map(names, roads, positions), str(path), credits,
                 tuple(sorted(given.items())))
