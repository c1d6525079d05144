"""Layouts: YAML data with ``extends``, validated against ``layouts/base.yaml``.

The base layout is the schema: every key a layout may set is present there,
with a value whose form (a length, a box, a number, a colour or font name)
tells what the key takes. ``colours``, ``fonts`` and ``paper.sizes`` are
open maps: new names may be added, each shaped like the base's first entry.
"""

import importlib.resources
import math
import os
import re
from pathlib import Path

from . import units, yamlio
from .errors import KitgenError

BASE = "base"
OPEN_MAPS = {("colours",), ("fonts",), ("scripts",), ("types",), ("paper", "sizes"), ("pod", "sizes")}
COLOUR_KEYS = {"colour", "background", "symbol_colour", "pattern"}
CHOICES = {"fit": ("contain", "cover"), "case": ("upper", "as-is"), "colour_mode": ("rgb", "cmyk"),
           "align": ("top", "centre", "bottom"), "files": ("png", "pdf"), "order": ("front-back", "back-front")}
FONT_KEYS = {"font"}
# Keys whose lengths must be above zero (everything else may be zero, never negative).
POSITIVE = {"size", "crop_length", "width", "stripe", "min_size", "legend_symbol", "leading", "registration", "arm",
            "span", "step", "tick", "minor_tick", "minor_width", "cell", "bar", "line"}
HEX_COLOUR = re.compile(r"^#[0-9A-Fa-f]{6}$")
MIN_QR = units.mm(10)        # a QR box smaller than this (33 modules at 0.3 mm) is hard for phones to read


def builtin_dir() -> Path:
    return Path(str(importlib.resources.files("kitgen.builtin_layouts")))


def builtin_names() -> list[str]:
    return sorted(p.stem for p in builtin_dir().glob("*.yaml"))


def _resolve(name: str, relative_to: Path | None) -> Path:
    if name.endswith((".yaml", ".yml")) or "/" in name:
        path = Path(name)
        if not path.is_absolute() and relative_to is not None:
            path = relative_to.parent / path
        return path
    path = builtin_dir() / f"{name}.yaml"
    if not path.exists():
        raise KitgenError(f"no layout named {name!r}; built-in layouts: {', '.join(builtin_names())}")
    return path


CONFINED = "KITGEN_CONFINED"        # set to a folder: no layout but the built-in ones and those in it (kitgen serve)


def _confine(path: Path, named: str) -> None:
    """With ``CONFINED`` set (``kitgen serve`` sets it to a build's uploaded layouts), refuse a layout
    file outside that folder and the built-in layouts, before anything else is said of it: whether
    a file of the server exists is nobody's business."""
    folder = os.environ.get(CONFINED)
    if not folder:
        return
    resolved = path.resolve()
    if not any(resolved.is_relative_to(allowed) for allowed in (Path(folder).resolve(), builtin_dir().resolve())):
        raise KitgenError(f"layout {named!r} is neither a built-in layout nor one that was uploaded; upload it "
                          "with the layout that extends it")


def _merge(base: dict, over: dict) -> dict:
    out = dict(base)
    for key, value in over.items():
        if isinstance(value, dict) and isinstance(out.get(key), dict):
            out[key] = _merge(out[key], value)
        else:
            out[key] = value
    return out


class _Checker:
    """Checks one layout file's raw data against the base and converts units."""

    def __init__(self, source: Path, lines: dict, colours: set, fonts: set):
        self.source, self.lines, self.colours, self.fonts = source, lines, colours, fonts

    def fail(self, path: tuple, message: str):
        raise KitgenError(message, source=str(self.source), line=self.lines.get(path))

    def check(self, value, schema, path: tuple):
        dotted = ".".join(str(p) for p in path)
        if isinstance(schema, dict):
            if not isinstance(value, dict):
                self.fail(path, f"{dotted} must be a mapping of keys")
            for key, item in value.items():
                if path in OPEN_MAPS:
                    template = schema.get(key, next(iter(schema.values())))
                    if key not in schema and isinstance(template, dict) and isinstance(item, dict):
                        absent = [k for k in template if k not in item]
                        if absent:
                            self.fail(path + (key,), f"{dotted}.{key} needs {', '.join(absent)} as well")
                elif key in schema:
                    template = schema[key]
                else:
                    self.fail(path + (key,), f"unknown key {'.'.join(map(str, path + (key,)))!r}; "
                                             f"known keys here: {', '.join(schema)}")
                self.check(item, template, path + (key,))
        elif isinstance(schema, list):
            if not isinstance(value, list) or len(value) != len(schema):
                self.fail(path, f"{dotted} must be a list of {len(schema)} values, like {schema}")
            for i, (item, template) in enumerate(zip(value, schema)):
                self.check(item, template, path + (i,))
        elif isinstance(schema, str) and _is_length(schema):
            try:
                points = units.to_points(value, where=dotted)
            except KitgenError as err:
                self.fail(path, err.message)
            leaf = next((p for p in reversed(path) if isinstance(p, str)), "")
            if points < 0 or (points == 0 and leaf in POSITIVE):
                self.fail(path, f"{dotted} must be {'above' if leaf in POSITIVE else 'at least'} zero, not {value!r}")
        elif isinstance(schema, bool) or isinstance(schema, str):
            if type(value) is not type(schema):
                self.fail(path, f"{dotted} must be {type(schema).__name__}, like {schema!r}")
            leaf = path[-1]
            if leaf in COLOUR_KEYS and value not in self.colours:
                self.fail(path, f"{dotted}: no colour named {value!r}; define it under colours")
            if leaf in FONT_KEYS and value not in self.fonts:
                self.fail(path, f"{dotted}: no font named {value!r}; define it under fonts")
            if leaf in CHOICES and value not in CHOICES[leaf]:
                self.fail(path, f"{dotted} must be one of {', '.join(CHOICES[leaf])}, not {value!r}")
            if leaf == "rgb" and not HEX_COLOUR.match(value):
                self.fail(path, f"{dotted}: {value!r} is not a colour; write #RRGGBB, e.g. #C62F2F")
        elif isinstance(schema, (int, float)):
            if isinstance(value, bool) or not isinstance(value, (int, float)) or not math.isfinite(value):
                self.fail(path, f"{dotted} must be a number, like {schema!r}")
            if value < 0:
                self.fail(path, f"{dotted} must not be negative")
            if len(path) >= 2 and path[-2] == "cmyk" and value > 1:
                self.fail(path, f"{dotted}: CMYK values run from 0 to 1, not {value!r}")


def _is_length(text: str) -> bool:
    try:
        units.to_points(text)
        return True
    except KitgenError:
        return False


def _convert(value, schema):
    """Lengths to points, following the schema's shape."""
    if isinstance(value, dict):
        if isinstance(schema, dict):
            return {k: _convert(v, schema.get(k, next(iter(schema.values())))) for k, v in value.items()}
        return value
    if isinstance(value, list):
        return [_convert(v, s) for v, s in zip(value, schema)]
    if isinstance(schema, str) and _is_length(schema):
        return units.to_points(value)
    return value


class Node(dict):
    """A read-only mapping with attribute access (``layout.key_card.bleed``)."""

    def __getattr__(self, name):
        try:
            return self[name]
        except KeyError:
            raise AttributeError(name) from None


def _nodes(value):
    if isinstance(value, dict):
        return Node({k: _nodes(v) for k, v in value.items()})
    if isinstance(value, list):
        return tuple(_nodes(v) for v in value)
    return value


def _load_chain(path: Path, seen: tuple[Path, ...]) -> list[tuple[Path, dict, dict]]:
    """The files of a layout, base first: [(path, data, lines), ...]."""
    resolved = path.resolve()
    if resolved in seen:
        cycle = " -> ".join(p.name for p in seen + (resolved,))
        raise KitgenError(f"layouts extend each other in a cycle: {cycle}", source=str(path))
    data, lines = yamlio.load(path)
    if data is None:
        data = {}
    if not isinstance(data, dict):
        raise KitgenError("a layout must be a mapping of keys", source=str(path))
    parent = data.pop("extends", None)
    if parent is None and resolved == _resolve(BASE, None).resolve():
        return [(path, data, lines)]
    if parent is not None and not isinstance(parent, str):
        raise KitgenError("extends must name a layout", source=str(path), line=lines.get(("extends",)))
    try:
        parent_path = _resolve(parent or BASE, path)
        _confine(parent_path, parent or BASE)
    except KitgenError as err:
        raise KitgenError(err.message, source=str(path), line=lines.get(("extends",))) from None
    if not parent_path.exists():
        raise KitgenError(f"extends {parent!r}, which does not exist", source=str(path),
                          line=lines.get(("extends",)))
    return _load_chain(parent_path, seen + (resolved,)) + [(path, data, lines)]


def load(name_or_path: str | Path = "default", overlays: tuple[str, ...] = (), checks=(), under=()) -> Node:
    """Load a layout by built-in name or path, apply ``extends``, then any
    overlays (built-in layouts applied on top, such as ``ink-saver``), validate,
    convert units. ``under``: built-in layouts laid just above base.yaml, under the
    layout and what it extends: a family's own defaults, keys and colours that a layout may then
    set too.
    ``checks`` are a game family's own: each is called with the
    layout and a ``fail(message)`` that refuses it, naming the file."""
    path = _resolve(str(name_or_path), None) if isinstance(name_or_path, str) else Path(name_or_path)
    _confine(path, str(name_or_path))
    if not path.exists():
        raise KitgenError("layout file not found; check the path", source=str(path))
    chain = _load_chain(path, ())
    below = [(p, data or {}, lines) for p in (_resolve(name, None) for name in under)
             for data, lines in [yamlio.load(p)]]
    chain[1:1] = below
    for overlay in overlays:
        overlay_path = _resolve(overlay, None)
        data, lines = yamlio.load(overlay_path)
        chain.append((overlay_path, data or {}, lines))
    schema = chain[0][1]
    for _, data, _ in below:                # what a family's own defaults add, a layout may set too
        schema = _merge(schema, data)
    merged: dict = {}
    for _, data, _ in chain:
        merged = _merge(merged, data)
    colours, fonts = (set(m) if isinstance(m, dict) else set() for m in (merged.get("colours"), merged.get("fonts")))
    for source, data, lines in chain:
        _Checker(source, lines, colours, fonts).check(data, schema, ())
    layout = _nodes(_convert(merged, schema))
    layout._origins = {path: (str(source), line) for source, _, lines in chain for path, line in lines.items()}
    _check_geometry(layout, chain[-1][0])
    for check in checks:
        check(layout, lambda message: _fail(message, chain[-1][0]))
    return layout


def where(layout: Node, path: tuple) -> tuple[str | None, int | None]:
    """The file and line that last set the key at ``path`` (``("colours", "red", "cmyk")``) in a
    layout ``load`` gave: the file of its chain or overlay whose value won (None, None if unknown)."""
    return getattr(layout, "_origins", {}).get(tuple(path), (None, None))


def _fail(message: str, source: Path):
    raise KitgenError(message, source=str(source))


def _check_geometry(layout: Node, source: Path):
    """What a layout's values must satisfy together: things fit where they are drawn."""
    def fail(message):
        raise KitgenError(message, source=str(source))

    smallest = min(min(size) for size in layout.paper.sizes.values())
    for name, sizes in layout.paper.sizes.items():
        if min(sizes) <= 2 * layout.paper.margin:
            fail(f"paper {name!r} is no larger than its margins")
    cards = [name for name, section in layout.items() if isinstance(section, dict)
             and isinstance(section.get("size"), tuple) and len(section.size) == 2]
    for section_name in cards:          # every section with a size is a card: its boxes lie inside it
        section = layout[section_name]
        width, height = section.size
        for key, item in section.items():
            if not isinstance(item, dict):
                continue
            if "box" in item:
                x, y, w, h = item.box
                if w <= 0 or h <= 0 or x < -1e-6 or y < -1e-6 or x + w > width + 1e-6 or y + h > height + 1e-6:
                    fail(f"{section_name}.{key}.box must lie inside the {width / units.mm(1):g} x "
                         f"{height / units.mm(1):g} mm card")
            if "min_size" in item and item.min_size > item.size:
                fail(f"{section_name}.{key}: min_size is larger than size")
    rules = layout.rules
    if int(rules.columns) != rules.columns or rules.columns < 1:
        fail("rules.columns must be a whole number, 1 or more")
    if 2 * rules.margin + (rules.columns - 1) * rules.column_gap >= smallest - units.mm(40):
        fail("rules.margin and column_gap leave no room for the rules text on the paper")
    for name in ("title", "heading", "body"):
        if rules[name].leading < rules[name].size:
            fail(f"rules.{name}.leading ({rules[name].leading:g}pt) is less than its size ({rules[name].size:g}pt): "
                 "lines would overlap; raise the leading")
    if rules.legend.indent < rules.legend_symbol:
        fail("rules.legend.indent is less than rules.legend_symbol: the symbols would cover the legend's text")
    if not 0 < rules.legend.symbol <= 1 or rules.legend.radius > rules.legend_symbol / 2:
        fail("rules.legend.symbol is the symbol's share of its cell (above 0, at most 1), and rules.legend.radius "
             "at most half of rules.legend_symbol")
    if rules.footer.y + rules.footer.size > rules.margin:
        fail("rules.footer must sit inside rules.margin: lower footer.y or footer.size, or raise the margin")
    proof = layout.proof
    if 2 * proof.margin + units.mm(40) >= smallest:
        fail("proof.margin leaves no room for the proof on the paper")
    if int(rules.max_pages) != rules.max_pages or rules.max_pages < 1:
        fail("rules.max_pages must be a whole number, 1 or more")
    if not 0 < layout.proof.contact_sheet.scale <= 1:
        fail("proof.contact_sheet.scale must be above 0 and at most 1")
    if layout.calibration.ruler.step > layout.calibration.ruler.span:
        fail("calibration.ruler.step must not be larger than its span")
    if not 100 <= layout.press.max_ink <= 400:
        fail("press.max_ink is a total of four inks in percent: from 100 (solid black alone) to 400")
    _check_box(layout.box, fail)


def _check_box(box, fail):
    """Boxes and stands (docs/design.md §8.12) that can be drawn and folded."""
    if min(box.fold.dash) <= 0:
        fail("box.fold.dash needs a dash and a gap, each above zero: a fold line must read as dashed")
    if box.tiling.mark <= 0 or box.tiling.overlap < 2 * box.tiling.mark:
        fail("box.tiling.mark must be above zero, and box.tiling.overlap at least twice as wide")
    if int(box.tiling.max_pieces) != box.tiling.max_pieces or box.tiling.max_pieces < 1:
        fail("box.tiling.max_pieces must be a whole number, 1 or more")
    for name, style in {"name": box.name, "deck": box.deck, "note": box.note, "glue.label": box.glue.label}.items():
        if style.min_size > style.size:
            fail(f"box.{name}: min_size is larger than size")
    stand = box.stand
    flaps = {"glue_flap.depth": box.glue_flap.depth, "tuck.depth": box.tuck.depth,
             "dust_flap.depth": box.dust_flap.depth, "stand.lip": stand.lip, "stand.glue": stand.glue}
    for name, depth in flaps.items():
        if depth <= 0:
            fail(f"box.{name} must be above zero: a flap needs some depth to fold")
    if not 30 <= stand.angle <= 85:
        fail("box.stand.angle must be from 30 to 85 degrees: the card leans back on the stand")
    if stand.face <= 0 or stand.base <= 0:
        fail("box.stand.face and box.stand.base are shares of the card's height: above zero")
    if stand.base <= stand.face * math.cos(math.radians(stand.angle)):
        fail("box.stand.base is too short: the stand's back would lean over its foot; raise it or the angle")


CUSTOM_PAPER = re.compile(r"^\s*(\d+(?:\.\d+)?)\s*x\s*(\d+(?:\.\d+)?)\s*(mm|cm|in|pt)\s*$")


def page_size(layout, paper: str, origin: str | None = None) -> tuple[float, float]:
    """A paper named in the layout (a4, letter) or written out: 210x297mm, 8.5x11in."""
    sizes = layout.paper.sizes
    if paper in sizes:
        return tuple(sizes[paper])
    match = CUSTOM_PAPER.match(paper)
    if match:
        size = (units.to_points(match[1] + match[3]), units.to_points(match[2] + match[3]))
        if min(size) <= 2 * layout.paper.margin + units.mm(20):
            raise KitgenError(f"paper {paper!r} is too small to print cards on", source=origin)
        return size
    raise KitgenError(f"unknown paper {paper!r}; use one of {', '.join(sizes)}, or a size like 210x297mm or "
                      "8.5x11in", source=origin)
