"""Pictures made of two: two source drawings (SVG, the 72-unit squares of an emoji set) joined
by a relation into one SVG picture (docs/design.md §8.14). The geometry is plain data: each
relation places its parts from their ink boxes (known beforehand, so composing needs no SVG
renderer), the picture's view box is the union of what is drawn, and the part in front is
drawn over a paper-coloured halo, so the two ideas stay apart in grey as in colour.

Relations (``a`` the first idea, ``b`` the second):
- ``in``: b inside a (a fish in a light bulb);
- ``atop``: b on top of a, overlapping it (a cactus wearing a crown, a cat riding a rocket);
- ``holding``: b in front of a's lower right (a bear holding a balloon);
- ``beside``: a giant a, a tiny b standing on the same ground to its right;
- ``behind``: b peeking out from behind a's upper right;
- ``raining``: three small b falling from a (a cloud raining fish);
- ``made_of``: a's shape filled with rows of small b (a heart made of strawberries).
Options: ``size`` (b's longest side over a's), ``at`` (a shift
of b, in a's ink box widths and heights), ``mirror`` (b faces the other way), ``tilt`` (b turned,
degrees clockwise)."""

import copy
import functools
import hashlib
import json
import math
import re
import xml.etree.ElementTree as ET
from dataclasses import dataclass, field
from pathlib import Path

from . import cache, files
from .errors import KitgenError

SVG = "http://www.w3.org/2000/svg"
ET.register_namespace("", SVG)
SHAPES = {"path", "circle", "line", "rect", "polyline", "polygon", "ellipse"}
RELATIONS = ("in", "atop", "holding", "beside", "behind", "raining", "made_of")
# b's longest side over a's (the part that is placed, relative to the one it is placed against)
DEFAULT_SIZE = {"in": 0.45, "atop": 0.55, "holding": 0.5, "beside": 0.3, "behind": 0.6, "raining": 0.24,
                "made_of": 0.26}
HALO = 2.2                   # the paper-coloured ring around the part in front, in a's units (72 a side)
BACKDROP_RADIUS = 0.12       # the backdrop's corners, rounded by this share of its side
MARGIN = 1.0                 # around the whole picture, in a's units
PAPER = "#ffffff"
# what a composition gave is kept in the cache folder (pictures/composed-<recipe>.json) and not made
# again; change the geometry or the SVG written: bump the recipe, so nothing kept before is used
COMPOSE_RECIPE = 1
MAX_STORE_BYTES = 100_000_000
MAX_STORE_ENTRIES = 20_000


MAX_SOURCE_BYTES = 200_000      # one source drawing (OpenMoji's largest colour SVG is 60 kB)
INDEX = "sources.json"
MAX_INDEX_BYTES = 5_000_000
INDEX_KEYS = {"set", "version", "licence", "home", "drawings"}
DRAWING_KEYS = {"code", "author", "box"}


@dataclass(frozen=True)
class Source:
    """One source drawing: its name, its SVG and the box its ink covers (x0, y0, x1, y1) in its
    own user units (y down); ``credit`` says where it is from (set, version, code, author)."""
    name: str
    svg: bytes = field(repr=False)
    box: tuple[float, float, float, float]
    credit: dict = field(default_factory=dict, compare=False, hash=False)


@dataclass(frozen=True)
class SourceSet:
    """A folder of source drawings and its index (``sources.json``): the set's name, version,
    licence and home, and for each drawing by name its file (``<code>.svg``), author and ink box."""
    folder: Path
    set: str
    version: str
    licence: str
    home: str
    drawings: dict = field(repr=False)
    read: dict = field(repr=False, default_factory=dict, compare=False)     # name -> Source, once read

    def source(self, name: str) -> Source:
        """The drawing called ``name``, read (a regular file within its limit) once; KeyError if the
        index has no such name."""
        if name not in self.read:
            self.read[name] = self._read(name)
        return self.read[name]

    def _read(self, name: str) -> Source:
        entry = self.drawings[name]
        path = self.folder / f"{entry['code']}.svg"
        data = files.read_bytes(path, MAX_SOURCE_BYTES, "source drawings")
        credit = {"set": self.set, "version": self.version, "code": entry["code"], "name": name,
                  "author": entry.get("author", "")}
        return Source(name, data, tuple(entry["box"]), credit)


def _line(text: str, name: str) -> int | None:
    """The line of the index that names ``name`` (the index is written a drawing a line)."""
    at = text.find(json.dumps(name) + ":")
    return None if at < 0 else text.count("\n", 0, at) + 1


def load_sources(folder: Path) -> SourceSet:
    """The source set in ``folder`` (its ``sources.json``, which tools/openmoji_sources.py writes),
    each entry checked; one clear line (the index's file and line) for anything wrong."""
    path = folder / INDEX
    src = str(path)
    text = files.read_text(path, MAX_INDEX_BYTES, "source indexes")
    try:
        data = json.loads(text)
    except ValueError as err:
        raise KitgenError(f"not JSON: {err}", source=src) from None
    if not isinstance(data, dict) or not isinstance(data.get("drawings"), dict):
        raise KitgenError("a source set's index lists its drawings under 'drawings'", source=src)
    for key in data:
        if key not in INDEX_KEYS:
            raise KitgenError(f"unknown key {key!r}; the index has {', '.join(sorted(INDEX_KEYS))}",
                              source=src, line=_line(text, key))
    for key in ("set", "version", "licence"):
        if not isinstance(data.get(key), str) or not data[key].strip():
            raise KitgenError(f"the index names its {key}", source=src, line=_line(text, key))
    for name, entry in data["drawings"].items():
        ok = isinstance(entry, dict) and set(entry) <= DRAWING_KEYS and {"code", "box"} <= set(entry)
        box = entry.get("box") if ok else None
        if not ok or not isinstance(entry["code"], str) or \
                not re.fullmatch(r"[0-9A-F]{4,6}(-[0-9A-F]{4,6})*", entry["code"]) or \
                not isinstance(box, list) or len(box) != 4 or \
                not all(isinstance(v, int | float) for v in box) or box[0] >= box[2] or box[1] >= box[3]:
            raise KitgenError(f'drawing {name!r}: write {{"code": "1F41F", "box": [x0, y0, x1, y1]}} (an "author" '
                              "too)", source=src, line=_line(text, name))
    return SourceSet(folder, data["set"], data["version"], data["licence"], str(data.get("home", "")),
                     data["drawings"])


@dataclass(frozen=True)
class Placement:
    """A part as drawn: which source, scaled by ``scale`` about its ink box's centre, then that
    centre moved to ``centre``; ``mirror`` flips it left to right, ``tilt`` turns it (degrees
    clockwise); ``halo`` draws a paper ring under it."""
    source: Source
    centre: tuple[float, float]
    scale: float
    mirror: bool = False
    tilt: float = 0.0
    halo: bool = False

    @property
    def box(self) -> tuple[float, float, float, float]:
        """The box the placed part's ink covers (turned parts: the box of the turned ink box)."""
        x0, y0, x1, y1 = self.source.box
        w, h = (x1 - x0) * self.scale / 2, (y1 - y0) * self.scale / 2
        t = math.radians(self.tilt)
        hw = abs(w * math.cos(t)) + abs(h * math.sin(t))
        hh = abs(w * math.sin(t)) + abs(h * math.cos(t))
        cx, cy = self.centre
        return cx - hw, cy - hh, cx + hw, cy + hh

    def transform(self) -> str:
        x0, y0, x1, y1 = self.source.box
        sx = -self.scale if self.mirror else self.scale
        parts = [f"translate({_n(self.centre[0])} {_n(self.centre[1])})"]
        if self.tilt:
            parts.append(f"rotate({_n(self.tilt)})")
        parts.append(f"scale({_n(sx)} {_n(self.scale)})")
        parts.append(f"translate({_n(-(x0 + x1) / 2)} {_n(-(y0 + y1) / 2)})")
        return " ".join(parts)


@dataclass(frozen=True)
class Composition:
    """What a picture is made of: the relation, its two sources and the options."""
    relation: str
    a: Source
    b: Source
    size: float | None = None
    at: tuple[float, float] = (0.0, 0.0)
    mirror: bool = False
    tilt: float = 0.0
    backdrop: str | None = None          # "#rrggbb": a rounded square of this colour behind the scene, or none


def _n(value: float, places: int = 3) -> str:
    """A number as the SVG writes it: at most ``places`` decimals, no trailing zeros."""
    text = f"{value:.{places}f}".rstrip("0").rstrip(".")
    return "0" if text in ("-0", "") else text


def _size(box) -> tuple[float, float]:
    return box[2] - box[0], box[3] - box[1]


def _longest(box) -> float:
    return max(_size(box))


def layout(c: Composition) -> tuple[list[Placement], Placement | None]:
    """The parts of a composition in drawing order (first drawn first), and for ``made_of`` the
    base whose shape clips the tiles (its tiles are the parts; the base is drawn under and its
    outline over them)."""
    if c.relation not in RELATIONS:
        raise ValueError(f"unknown relation {c.relation!r}")
    size = c.size if c.size is not None else DEFAULT_SIZE[c.relation]
    ax0, ay0, ax1, ay1 = c.a.box
    aw, ah = ax1 - ax0, ay1 - ay0
    acx, acy = (ax0 + ax1) / 2, (ay0 + ay1) / 2
    base = Placement(c.a, (acx, acy), 1.0)
    bw, bh = _size(c.b.box)
    dx, dy = c.at[0] * aw, c.at[1] * ah

    def b_at(cx: float, cy: float, scale: float, halo: bool = True) -> Placement:
        return Placement(c.b, (cx + dx, cy + dy), scale, c.mirror, c.tilt, halo)

    scale = size * _longest(c.a.box) / _longest(c.b.box)
    if c.relation == "in":
        return [base, b_at(acx, acy, scale)], None
    if c.relation == "atop":
        overlap = 0.3
        return [base, b_at(acx, ay0 - bh * scale * (0.5 - overlap), scale)], None
    if c.relation == "holding":
        return [base, b_at(ax1 - bw * scale * 0.15, ay0 + ah * 0.75, scale)], None
    if c.relation == "beside":
        gap = 0.06 * aw
        return [base, b_at(ax1 + gap + bw * scale / 2, ay1 - bh * scale / 2, scale, halo=False)], None
    if c.relation == "behind":
        peek = b_at(ax1 + bw * scale * 0.05, ay0 + bh * scale * 0.1, scale, halo=False)
        front = Placement(c.a, (acx, acy), 1.0, halo=True)
        return [peek, front], None
    if c.relation == "raining":
        h = bh * scale
        drops = [(-0.34, 0.8), (0.0, 1.5), (0.34, 0.8)]
        parts = [b_at(acx + fx * aw, ay1 + fy * h, scale, halo=False) for fx, fy in drops]
        return [base, *parts], None
    # made_of: rows of tiles over a's ink box, every other row shifted by half a tile, those that touch it kept
    step_x, step_y = bw * scale * 1.08, bh * scale * 1.08
    tiles = []
    rows = int(math.ceil(ah / step_y)) + 1
    cols = int(math.ceil(aw / step_x)) + 2
    for r in range(rows):
        shift = step_x / 2 if r % 2 else 0.0
        for k in range(cols):
            cx = ax0 + shift + (k - 0.5) * step_x + dx
            cy = ay0 + (r + 0.5) * step_y + dy
            tile = Placement(c.b, (cx, cy), scale, c.mirror, c.tilt)
            if _overlap(tile.box, base.box):        # one wholly outside a's ink would be clipped away whole
                tiles.append(tile)
    return tiles, base


def _overlap(p, q) -> bool:
    return p[0] < q[2] and q[0] < p[2] and p[1] < q[3] and q[1] < p[3]


def _local(tag: str) -> str:
    return tag.rsplit("}", 1)[-1]


def _root(source: Source) -> ET.Element:
    try:
        root = ET.fromstring(source.svg)
    except ET.ParseError as err:
        raise ValueError(f"{source.name}: not an SVG ({err})") from None
    for node in root.iter():
        node.attrib.pop("id", None)
        if _local(node.tag) in ("defs", "clipPath", "use", "image", "text", "style", "mask", "pattern"):
            raise ValueError(f"{source.name}: a source drawing holds shapes only (it has <{_local(node.tag)}>)")
        for value in node.attrib.values():
            if "url(" in value:
                raise ValueError(f"{source.name}: a source drawing refers to nothing (it has url())")
    return root


GEOMETRY = ("d", "points", "x", "y", "x1", "y1", "x2", "y2", "cx", "cy", "r", "rx", "ry", "width", "height")


def _as_path(node: ET.Element) -> str | None:
    """A shape's outline as SVG path data (arcs for a circle's, an ellipse's and rounded corners'),
    None for a shape that cannot be read."""
    kind = _local(node.tag)
    try:
        get = {key: float(node.get(key, "0")) for key in ("x", "y", "x1", "y1", "x2", "y2", "cx", "cy", "r",
                                                           "rx", "ry", "width", "height")}
    except ValueError:
        return None
    if kind == "path":
        return node.get("d")
    if kind == "line":
        return f"M{get['x1']} {get['y1']}L{get['x2']} {get['y2']}"
    if kind in ("polyline", "polygon"):
        points = re.split(r"[\s,]+", (node.get("points") or "").strip())
        if len(points) < 4 or len(points) % 2:
            return None
        pairs = [f"{points[i]} {points[i + 1]}" for i in range(0, len(points) - 1, 2)]
        return "M" + "L".join(pairs) + ("Z" if kind == "polygon" else "")
    if kind in ("circle", "ellipse"):
        cx, cy = get["cx"], get["cy"]
        rx, ry = (get["r"], get["r"]) if kind == "circle" else (get["rx"], get["ry"])
        if rx <= 0 or ry <= 0:
            return None
        return f"M{cx - rx} {cy}A{rx} {ry} 0 1 0 {cx + rx} {cy}A{rx} {ry} 0 1 0 {cx - rx} {cy}Z"
    if kind == "rect":
        x, y, w, h = get["x"], get["y"], get["width"], get["height"]
        rx = get["rx"] or get["ry"]
        ry = get["ry"] or rx
        rx, ry = min(rx, w / 2), min(ry, h / 2)
        if w <= 0 or h <= 0:
            return None
        if not rx or not ry:
            return f"M{x} {y}H{x + w}V{y + h}H{x}Z"
        return (f"M{x + rx} {y}H{x + w - rx}A{rx} {ry} 0 0 1 {x + w} {y + ry}V{y + h - ry}"
                f"A{rx} {ry} 0 0 1 {x + w - rx} {y + h}H{x + rx}A{rx} {ry} 0 0 1 {x} {y + h - ry}"
                f"V{y + ry}A{rx} {ry} 0 0 1 {x + rx} {y}Z")
    return None


def _absolute(node: ET.Element) -> None:
    """A shape made a path of absolute coordinates to a tenth of a unit (of a 72-unit drawing: under
    0.07 mm on a card, less than a 300 dpi dot; arcs as cubic curves), in place: what a printed
    picture shows, in a third fewer characters than the drawing's own (its relative steps to four
    decimals, arcs its renderer turns into long numbers). A shape that cannot be read is left as it
    is; transforms stay as they are."""
    from fontTools.pens.recordingPen import RecordingPen
    from fontTools.svgLib.path import parse_path

    data = _as_path(node)
    if data is None:
        return
    pen = RecordingPen()
    try:
        parse_path(data, pen)
    except (ValueError, IndexError, TypeError):
        return
    letters = {"moveTo": "M", "lineTo": "L", "curveTo": "C", "qCurveTo": "Q", "closePath": "Z"}
    out = []
    for op, points in pen.value:
        if op == "endPath" or (op == "qCurveTo" and len(points) != 2):
            if op != "endPath":
                return                    # a run of quadratic points: not a shape OpenMoji has; left as it is
            continue
        out.append(letters[op] + " ".join(f"{_n(x, 1)} {_n(y, 1)}" for x, y in points))
    for key in GEOMETRY:
        node.attrib.pop(key, None)
    node.tag = f"{{{SVG}}}path"
    node.set("d", "".join(out))


def _layers(root: ET.Element) -> tuple[list[ET.Element], list[ET.Element]]:
    """The drawing's children split where its lines begin (OpenMoji: ``color`` groups, then from the
    first group whose id starts with ``line``, the lines and what is drawn over them): what ``made_of``
    draws under its tiles, and over them. A drawing with no such group is all colour."""
    children = list(root)
    first = next((i for i, child in enumerate(children) if (child.get("id") or "").startswith("line")), len(children))
    return children[:first], children[first:]


@functools.lru_cache(maxsize=512)
def _converted(svg: bytes, layer: str | None) -> ET.Element:
    """The drawing as one group, its ids dropped and its shapes made paths (``_absolute``): done once
    for each drawing and layer (a ``made_of`` picture places its drawing twenty times), never handed
    out itself (``_group`` copies it)."""
    colour, lines = _layers(ET.fromstring(svg))
    group = ET.Element(f"{{{SVG}}}g")
    group.extend(colour + lines if layer is None else colour if layer == "color" else lines)
    for node in group.iter():
        node.attrib.pop("id", None)
        if _local(node.tag) in SHAPES:
            _absolute(node)
    return group


def _group(source: Source, layer: str | None = None) -> ET.Element:
    """The source's drawing as one group of its own; ``layer`` ("color" or "line") keeps what is drawn
    under its lines or its lines and what is over them (``_layers``)."""
    return copy.deepcopy(_converted(source.svg, layer))


def _halo(group: ET.Element, width: float) -> ET.Element:
    """A copy of ``group`` in paper colour, every shape's outline widened by ``width`` each side."""
    halo = copy.deepcopy(group)
    for node in halo.iter():
        if _local(node.tag) not in SHAPES:
            continue
        stroked = node.get("stroke", "none") != "none"
        own = float(node.get("stroke-width", "1")) if stroked else 0.0
        if node.get("fill", "#000") != "none":
            node.set("fill", PAPER)
        node.set("stroke", PAPER)
        node.set("stroke-width", _n(own + 2 * width))
        node.set("stroke-linejoin", "round")
        node.set("stroke-linecap", "round")
    return halo


def _placed(p: Placement, layer: str | None = None) -> ET.Element:
    g = ET.Element(f"{{{SVG}}}g", transform=p.transform())
    inner = _group(p.source, layer)
    if p.halo:
        g.append(_halo(inner, HALO / p.scale))
    g.append(inner)
    return g


def _union(boxes) -> tuple[float, float, float, float]:
    boxes = list(boxes)
    return (min(b[0] for b in boxes), min(b[1] for b in boxes), max(b[2] for b in boxes), max(b[3] for b in boxes))


def view_box(parts: list[Placement], base: Placement | None) -> tuple[float, float, float, float]:
    """x, y, width, height of the picture: every drawn part's ink (tiles only within their base), the
    halo and a margin around it, as a square (the card's picture box is near square)."""
    boxes = [base.box] if base is not None else [p.box for p in parts]
    x0, y0, x1, y1 = _union(boxes)
    pad = MARGIN + HALO
    x0, y0, x1, y1 = x0 - pad, y0 - pad, x1 + pad, y1 + pad
    side = max(x1 - x0, y1 - y0)
    cx, cy = (x0 + x1) / 2, (y0 + y1) / 2
    return cx - side / 2, cy - side / 2, side, side


def compose(c: Composition, only: str | None = None) -> bytes:
    """The composition as one SVG (UTF-8). ``only`` ('a' or 'b') draws that idea alone in its place
    (what tests measure each idea by); the picture's box stays that of the whole."""
    for source in (c.a, c.b):
        _root(source)
    parts, base = layout(c)
    x, y, w, h = view_box(parts, base)
    svg = ET.Element(f"{{{SVG}}}svg", viewBox=f"{_n(x)} {_n(y)} {_n(w)} {_n(h)}",
                     width=_n(w), height=_n(h))
    if c.backdrop is not None and only is None:
        ET.SubElement(svg, f"{{{SVG}}}rect", x=_n(x), y=_n(y), width=_n(w), height=_n(h), rx=_n(w * BACKDROP_RADIUS),
                      fill=c.backdrop)
    if base is not None:
        clip_id = "shape"
        if only in (None, "a"):
            svg.append(_placed(base, "color"))
        if only in (None, "b"):
            defs = ET.SubElement(svg, f"{{{SVG}}}defs")
            clip = ET.SubElement(defs, f"{{{SVG}}}clipPath", id=clip_id)
            shape = ET.SubElement(clip, f"{{{SVG}}}g", transform=base.transform())
            for node in _group(base.source, "color").iter():
                if _local(node.tag) in SHAPES:
                    shape.append(node)
            tiles = ET.SubElement(svg, f"{{{SVG}}}g", {"clip-path": f"url(#{clip_id})"})
            for p in parts:
                tiles.append(_placed(p))
        if only in (None, "a"):
            svg.append(_placed(base, "line"))
    else:
        for p in parts:
            if only is None or (p.source is c.a) == (only == "a"):
                svg.append(_placed(p))
    text = ET.tostring(svg, encoding="unicode", short_empty_elements=True)
    return re.sub(r">\s+<", "><", text).encode()


_FILL = re.compile(rb'fill="#([0-9a-fA-F]{6})"')


def _hue(rgb: str) -> tuple[float, float, float]:
    """(hue in degrees, saturation, value) of ``rrggbb``."""
    import colorsys

    r, g, b = (int(rgb[i:i + 2], 16) / 255 for i in (0, 2, 4))
    h, s, v = colorsys.rgb_to_hsv(r, g, b)
    return h * 360, s, v


@functools.lru_cache(maxsize=4096)
def _hues(svg: bytes) -> tuple[float, ...]:
    """The hues of a drawing's coloured fills (saturation 0.25 or more, value 0.2 or more)."""
    return tuple(h for h, s, v in map(_hue, (m.decode() for m in _FILL.findall(svg))) if s >= 0.25 and v >= 0.2)


@functools.lru_cache(maxsize=4096)
def _digest(svg: bytes) -> str:
    return hashlib.sha256(svg).hexdigest()


def backdrop(c: Composition, palette: dict[str, str], name: str) -> str:
    """The palette's colour (its name) that stands apart most from the scene's own colours: each
    colour costs by how many of the two drawings' coloured fills (saturation 0.25 or more) lie
    within 60 degrees of its hue, the nearer the more; of the colours costing at most a tenth more
    than the cheapest, the one the picture's ``name`` picks (its SHA-256), so that neighbouring
    cards differ."""
    hues = [h for source in (c.a, c.b) for h in _hues(source.svg)]

    def cost(colour: str) -> float:
        own = _hue(palette[colour].lstrip("#"))[0]
        return sum(max(0.0, 1 - min(abs(own - h), 360 - abs(own - h)) / 60) for h in hues)

    costs = {colour: cost(colour) for colour in palette}
    cheapest = min(costs.values())
    near = [colour for colour in palette if costs[colour] <= cheapest * 1.1 + 0.5]
    return near[int.from_bytes(hashlib.sha256(name.encode()).digest()[:4], "big") % len(near)]


def _cache_key(c: Composition) -> str:
    """What a composition's SVG is made from, hashed: the recipe, the relation and options, and
    each source's bytes and box."""
    parts = [COMPOSE_RECIPE, c.relation, c.size, list(c.at), c.mirror, c.tilt, c.backdrop]
    for source in (c.a, c.b):
        parts += [_digest(source.svg), list(source.box)]
    return hashlib.sha256(json.dumps(parts).encode()).hexdigest()


class ComposedStore:
    """Composed SVGs by their ``_cache_key``, in one JSON file of the cache folder: read once,
    written whole (atomically) by ``flush`` when something was added. A file that cannot be read
    or is not such a mapping counts as empty; one that cannot be written is left as it was."""

    def __init__(self, path: Path):
        self.path = path
        self.kept: dict[str, str] | None = None
        self.added: dict[str, str] = {}

    def _load(self) -> dict[str, str]:
        if self.kept is None:
            try:
                data = json.loads(files.read_text(self.path, MAX_STORE_BYTES, "caches"))
            except (KitgenError, ValueError):
                data = {}
            ok = isinstance(data, dict) and all(type(k) is str and type(v) is str for k, v in data.items())
            self.kept = data if ok else {}
        return self.kept

    def get(self, key: str) -> bytes | None:
        found = self.added.get(key) or self._load().get(key)
        return None if found is None else found.encode()

    def put(self, key: str, svg: bytes) -> None:
        self.added[key] = svg.decode()

    def flush(self) -> None:
        if not self.added:
            return
        merged = {**self._load(), **self.added}
        if len(merged) > MAX_STORE_ENTRIES:
            merged = dict(self.added)
        try:
            cache.write_atomically(self.path, json.dumps(merged, sort_keys=True).encode())
        except OSError:
            return
        self.kept, self.added = merged, {}


_store: ComposedStore | None = None


def store() -> ComposedStore:
    """The composed pictures' store of this process (in the cache folder of when it was first asked for)."""
    global _store
    if _store is None:
        _store = ComposedStore(cache.folder("pictures") / f"composed-{COMPOSE_RECIPE}.json")
    return _store


def composed(c: Composition) -> bytes:
    """``compose(c)``, from the store when it was composed before (byte-identical either way)."""
    key = _cache_key(c)
    svg = store().get(key)
    if svg is None:
        svg = compose(c)
        store().put(key, svg)
    return svg
