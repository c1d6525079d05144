"""The duet edition's campaign sheet: one page with a map of missions to win one after
another, each with its turns, its allowed mistakes and an empty box to tick.

The missions' places, turns and mistakes are data, ``kitgen/games/codenames/campaign.yaml``
(``load_campaign``); their names are messages, one per language (docs/design.md §7.3); every
size and colour is the layout's ``campaign`` section (docs/design.md §6.3). Every string is
drawn by kitgen/render/text.py, so Persian is shaped and set right to left (§7.2)."""

import importlib.resources
from dataclasses import dataclass
from pathlib import Path

from kitgen import messages as messages_mod, yamlio
from kitgen.errors import KitgenError
from kitgen.games.codenames import texts
from kitgen.render import columns, paint, text

KEYS = {"missions", "roads"}
MISSION_KEYS = {"id", "at", "turns", "mistakes"}


@dataclass(frozen=True)
class Mission:
    id: str
    at: tuple[float, float]       # its place on the map, 0 to 1 from the map's top-left
    turns: int                    # the timer tokens it is played with
    mistakes: int                 # the bystanders that may be hit


@dataclass(frozen=True)
class Campaign:
    missions: tuple[Mission, ...]     # the first is the start
    roads: tuple[tuple[int, int], ...]   # pairs of indices into missions
    source: str


def default_path() -> Path:
    return Path(str(importlib.resources.files("kitgen.games.codenames"))) / "campaign.yaml"


class _Reader:
    """Fails with one line naming the campaign file and the line of the value at fault."""

    def __init__(self, path: Path, lines: dict):
        self.path, self.lines = path, lines

    def fail(self, where: tuple, message: str):
        raise KitgenError(message, source=str(self.path), line=yamlio.line_of(self.lines, where))

    def whole(self, value, where: tuple, what: str) -> int:
        if isinstance(value, bool) or not isinstance(value, int) or value < 0:
            self.fail(where, f"{what} is a whole number, 0 or more; not {value!r}")
        return value

    def mission(self, item, i: int) -> Mission:
        where = ("missions", i)
        if not isinstance(item, dict):
            self.fail(where, "each mission is a mapping {id, at, turns, mistakes}")
        unknown = sorted(set(map(str, item)) - MISSION_KEYS)
        if unknown:
            self.fail(where + (unknown[0],), f"unknown key {unknown[0]!r} in a mission; a mission has "
                                             f"{', '.join(sorted(MISSION_KEYS))}")
        missing = sorted(MISSION_KEYS - set(item))
        if missing:
            self.fail(where, f"the mission has no {missing[0]}; a mission has {', '.join(sorted(MISSION_KEYS))}")
        if not isinstance(item["id"], str) or not item["id"]:
            self.fail(where + ("id",), f"a mission's id is text, like m01; not {item['id']!r}")
        at = item["at"]
        if (not isinstance(at, list) or len(at) != 2
                or not all(isinstance(v, (int, float)) and not isinstance(v, bool) and 0 <= v <= 1 for v in at)):
            self.fail(where + ("at",), f"at: is the mission's place on the map, [x, y] from 0 to 1 from the "
                                       f"top-left, like [0.5, 0.2]; not {at!r}")
        return Mission(item["id"], (float(at[0]), float(at[1])),
                       self.whole(item["turns"], where + ("turns",), "turns"),
                       self.whole(item["mistakes"], where + ("mistakes",), "mistakes"))

    def roads(self, raw, ids: dict[str, int]) -> tuple[tuple[int, int], ...]:
        if not isinstance(raw, list):
            self.fail(("roads",), "roads is a list of pairs of mission ids, like [m01, m02]")
        out: list[tuple[int, int]] = []
        for i, road in enumerate(raw):
            where = ("roads", i)
            if not isinstance(road, list) or len(road) != 2:
                self.fail(where, f"a road is a pair of mission ids, like [m01, m02]; not {road!r}")
            for end in road:
                if end not in ids:
                    self.fail(where, f"the road {road!r} names {end!r}, which is no mission; the missions are "
                                     f"{', '.join(ids)}")
            a, b = sorted((ids[road[0]], ids[road[1]]))
            if a == b:
                self.fail(where, f"the road {road!r} joins a mission to itself")
            if (a, b) in out:
                self.fail(where, f"the road {road!r} is there twice")
            out.append((a, b))
        return tuple(out)


def _unreached(count: int, roads) -> list[int]:
    """The missions no road leads to from the first."""
    reached, todo = {0}, [0]
    while todo:
        here = todo.pop()
        for a, b in roads:
            for there in ((b,) if a == here else (a,) if b == here else ()):
                if there not in reached:
                    reached.add(there)
                    todo.append(there)
    return [i for i in range(count) if i not in reached]


def _check_names(reader: _Reader, missions: tuple[Mission, ...]):
    """Every mission has a name in every language's messages, and no name is for a mission not on the map."""
    for language in texts.languages():
        named = [m.id for m in texts.load(language).campaign.missions]
        for i, mission in enumerate(missions):
            if mission.id not in named:
                reader.fail(("missions", i, "id"), f"the mission {mission.id!r} has no name in the {language!r} "
                                                   "messages; add it under campaign.missions")
        stray = [m for m in named if m not in {mission.id for mission in missions}]
        if stray:
            raise KitgenError(f"the mission {stray[0]!r} is named but is not on the campaign's map "
                              f"({reader.path}); add it there or remove its name",
                              source=str(texts.folder() / f"{language}.yaml"))


def load_campaign(path: Path | None = None) -> Campaign:
    """The campaign's missions and roads, checked: unknown keys, places off the map, turns or
    mistakes that are not whole numbers from 0, roads to unknown missions, missions no road
    reaches, and missions without a name in every language are each refused in one line."""
    path = Path(path) if path is not None else default_path()
    data, lines = yamlio.load(path)
    reader = _Reader(path, lines)
    if not isinstance(data, dict):
        raise KitgenError("a campaign is a mapping with missions and roads", source=str(path))
    unknown = sorted(set(map(str, data)) - KEYS)
    if unknown:
        reader.fail((unknown[0],), f"unknown key {unknown[0]!r}; a campaign has {', '.join(sorted(KEYS))}")
    raw = data.get("missions")
    if not isinstance(raw, list) or not raw:
        reader.fail(("missions",), "missions is a list of missions {id, at, turns, mistakes}, the start first")
    missions = tuple(reader.mission(item, i) for i, item in enumerate(raw))
    ids: dict[str, int] = {}
    for i, mission in enumerate(missions):
        if mission.id in ids:
            reader.fail(("missions", i, "id"), f"the mission id {mission.id!r} is there twice")
        ids[mission.id] = i
    roads = reader.roads(data.get("roads", []), ids)
    lost = _unreached(len(missions), roads)
    if lost:
        reader.fail(("missions", lost[0]), f"no road leads to the mission {missions[lost[0]].id!r} from the first "
                                           f"mission {missions[0].id!r}; add one")
    _check_names(reader, missions)
    return Campaign(missions, roads, str(path))


# --- drawing ---------------------------------------------------------------------------------


def _paragraph(spec, fonts, content: str, width: float) -> list[str]:
    return columns.wrap(content, columns.Style(fonts[spec.font], spec.size, spec.leading, None), width)


def _draw_lines(c, spec, fonts, lines: list[str], left: float, right: float, top: float, rtl: bool) -> float:
    """Lines from ``top`` down, flush with the reading side; returns the foot of the last line."""
    font = fonts[spec.font]
    for line in lines:
        top -= spec.leading
        baseline = top + (spec.leading - spec.size) / 2
        if rtl:
            text.draw_line(c, line, font, spec.size, right, baseline, "right", rtl=True)
        else:
            text.draw_line(c, line, font, spec.size, left, baseline, "left")
    return top


@dataclass(frozen=True)
class Page:
    """Where the sheet's parts lie: the intro's and the note's lines, and the map's box between them."""

    intro: tuple[str, ...]
    how: tuple[str, ...]
    map: tuple[float, float, float, float]


def page_layout(layout, fonts: dict[str, str], messages, page_size) -> Page:
    """The intro under the title, the note ("how") over the footer, each wrapped to the width
    within the margin; the map fills the height they leave."""
    sheet = layout.campaign
    width, height = page_size
    intro = _paragraph(sheet.text, fonts, messages.campaign.intro, width - 2 * sheet.margin)
    how = _paragraph(sheet.text, fonts, messages.campaign.how, width - 2 * sheet.margin)
    top = height - sheet.margin - sheet.title.leading - len(intro) * sheet.text.leading - sheet.gap
    bottom = sheet.margin + len(how) * sheet.text.leading + sheet.gap
    return Page(tuple(intro), tuple(how), (sheet.margin, bottom, width - 2 * sheet.margin, top - bottom))


def mission_box(layout, box, mission: Mission) -> tuple[float, float, float, float]:
    """A mission's box, centred on its place: places 0 to 1 span the map less its padding and a box."""
    sheet = layout.campaign
    mx, my, mw, mh = box
    w, h = sheet.mission.size
    pad = sheet.map.padding
    px, py = mission.at
    cx = mx + pad + w / 2 + px * (mw - 2 * pad - w)
    cy = my + mh - pad - h / 2 - py * (mh - 2 * pad - h)
    return cx - w / 2, cy - h / 2, w, h


def tick_box(layout, box, rtl: bool) -> tuple[float, float, float, float]:
    """The empty square in a mission's box, on the side a line of its language starts from."""
    spec = layout.campaign
    x, y, w, h = box
    size, inset = spec.tick.size, spec.mission.inset
    return (x + w - inset - size if rtl else x + inset), y + (h - size) / 2, size, size


def _label_boxes(layout, box, rtl: bool):
    """The name's box (the upper half beside the tick box) and the numbers' (the lower half)."""
    spec = layout.campaign
    x, y, w, h = box
    inset, tick = spec.mission.inset, spec.tick.size
    left = x + inset if rtl else x + 2 * inset + tick
    width = w - 3 * inset - tick
    inner = h - 2 * inset
    return (left, y + inset + inner / 2, width, inner / 2), (left, y + inset, width, inner / 2)


def numbers_line(messages, mission: Mission) -> str:
    """A mission's turns and mistakes, in the language's words and digits."""
    words = messages.campaign

    def number(value: int) -> str:
        return messages_mod.number(messages, value)

    return words.numbers.format(turns=words.turns.format(n=number(mission.turns)),
                                mistakes=words.mistakes.format(n=number(mission.mistakes)))


STEPS = 200     # points along a road tested against the missions' boxes


def check_map(layout, campaign: Campaign, box):
    """On the map as drawn, no two missions' boxes overlap and no road runs under a mission it
    does not join: one line naming the campaign file and the missions if not."""
    boxes = [mission_box(layout, box, m) for m in campaign.missions]
    ids = [m.id for m in campaign.missions]
    for i, (x, y, w, h) in enumerate(boxes):
        for j in range(i):
            ox, oy, _, _ = boxes[j]
            if abs(x - ox) < w and abs(y - oy) < h:
                raise KitgenError(f"the missions {ids[j]} and {ids[i]} overlap on the campaign map; move them apart "
                                  "(at:) or make campaign.mission.size smaller in the layout", source=campaign.source)
    half = layout.campaign.road.width / 2
    for a, b in campaign.roads:
        (ax, ay), (bx, by) = _middle(boxes[a]), _middle(boxes[b])
        for k, (x, y, w, h) in enumerate(boxes):
            if k in (a, b):
                continue
            for step in range(STEPS + 1):
                px, py = ax + (bx - ax) * step / STEPS, ay + (by - ay) * step / STEPS
                if x - half < px < x + w + half and y - half < py < y + h + half:
                    raise KitgenError(f"the road {ids[a]} - {ids[b]} runs under the mission {ids[k]} on the campaign "
                                      f"map, as if it joined it; move {ids[k]} (at:)", source=campaign.source)


def _middle(box) -> tuple[float, float]:
    x, y, w, h = box
    return x + w / 2, y + h / 2


def _fitted(layout, fonts, messages, campaign: Campaign, box, rtl: bool) -> list[tuple]:
    """Each mission's name and numbers with their sizes; a label that fits only below its
    minimum size is refused, naming the mission, the language and what to change."""
    spec = layout.campaign
    names = {m.id: m.name for m in messages.campaign.missions}
    out = []
    for mission in campaign.missions:
        name_box, numbers_box = _label_boxes(layout, mission_box(layout, box, mission), rtl)
        fitted = []
        for shown, style, area, what in ((names[mission.id], spec.name, name_box, "name"),
                                         (numbers_line(messages, mission), spec.numbers, numbers_box, "numbers")):
            fit = text.fit(shown, fonts[style.font], area[2], area[3], style.size, style.min_size)
            if not fit.fits:
                why = f"lacks the characters {fit.missing!r}" if fit.missing else \
                    f"does not fit its box at campaign.{what}.min_size ({style.min_size:g}pt)"
                raise KitgenError(f"the campaign sheet's mission {mission.id} {what} {shown!r} ({messages.language}) "
                                  f"{why}; shorten it in the messages or enlarge campaign.mission.size in the layout")
            fitted.append((shown, style, area, fit.size))
        out.append(fitted)
    return out


def draw(c, page_size, layout, fonts: dict[str, str], messages, campaign: Campaign, footer: str) -> int:
    """The campaign sheet on one page; returns the page count (1). Everything is checked
    (the map's room, the missions' places, every label's fit) before anything is drawn."""
    sheet = layout.campaign
    rtl = messages_mod.is_rtl(messages.language)
    width, height = page_size
    left, right = sheet.margin, width - sheet.margin
    page = page_layout(layout, fonts, messages, page_size)
    if page.map[3] < sheet.map.min_height:
        raise KitgenError("the campaign sheet's texts leave the map less than campaign.map.min_height; "
                          "choose larger paper or lower campaign.margin or campaign.text.size in the layout")
    if page.map[2] < 2 * sheet.map.padding + sheet.mission.size[0]:
        raise KitgenError("the campaign map is narrower than a mission's box and its padding; choose larger paper "
                          "or make campaign.mission.size smaller in the layout")
    check_map(layout, campaign, page.map)
    labels = _fitted(layout, fonts, messages, campaign, page.map, rtl)
    title = _fitted_title(sheet, fonts, messages.campaign.title, right - left)
    c.setFillColor(paint.colour(layout, sheet.title.colour))
    text.draw_line(c, messages.campaign.title, fonts[sheet.title.font], title, right if rtl else left,
                   height - sheet.margin - sheet.title.size, "right" if rtl else "left", rtl=True if rtl else None)
    c.setFillColor(paint.colour(layout, sheet.text.colour))
    _draw_lines(c, sheet.text, fonts, page.intro, left, right, height - sheet.margin - sheet.title.leading,
                rtl)
    _map(c, layout, fonts, campaign, page.map, labels, rtl)
    c.setFillColor(paint.colour(layout, sheet.text.colour))
    _draw_lines(c, sheet.text, fonts, page.how, left, right, page.map[1] - sheet.gap, rtl)
    text.draw_line(c, footer, fonts[sheet.text.font], sheet.footer.size, width / 2, sheet.footer.y, "centre")
    c.showPage()
    return 1


def _fitted_title(sheet, fonts, title: str, width: float) -> float:
    """The title's size: its own, or smaller to fit the width, not below its minimum."""
    fit = text.fit(title, fonts[sheet.title.font], width, sheet.title.leading, sheet.title.size,
                   sheet.title.min_size)
    if not fit.fits:
        raise KitgenError(f"the campaign sheet's title {title!r} does not fit the page at campaign.title.min_size; "
                          "shorten it in the messages")
    return fit.size


def _map(c, layout, fonts, campaign: Campaign, box, labels, rtl: bool):
    """The map: its ground, the roads between the missions' middles, then each mission's box
    with its tick box, name and numbers."""
    sheet = layout.campaign
    paint.fill_box(c, box, paint.colour(layout, sheet.map.colour), sheet.map.radius)
    boxes = [mission_box(layout, box, m) for m in campaign.missions]
    c.saveState()
    c.setStrokeColor(paint.colour(layout, sheet.road.colour))
    c.setLineWidth(sheet.road.width)
    c.setLineCap(1)
    for a, b in campaign.roads:
        c.line(*_middle(boxes[a]), *_middle(boxes[b]))
    c.restoreState()
    spec = sheet.mission
    ground, frame = paint.colour(layout, spec.background), paint.colour(layout, spec.frame.colour)
    for mission_at, fitted in zip(boxes, labels):
        paint.fill_box(c, mission_at, ground, spec.radius)
        paint.stroke_box(c, mission_at, frame, spec.frame.width, spec.radius)
        paint.stroke_box(c, tick_box(layout, mission_at, rtl), paint.colour(layout, sheet.tick.colour),
                         sheet.tick.width)
        for shown, style, area, size in fitted:
            text.draw(c, shown, fonts[style.font], size, area, paint.colour(layout, style.colour))
