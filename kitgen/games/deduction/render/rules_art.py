"""The rules' two drawings (docs/design.md §10.6), each a column wide, set in the flow of the
text by ``columns.set_text`` as a figure block:

- the table ready to play, seen from above: the seats in player order round the table (each
  player on the left of the one before, ``facts.left_of``) with arrows from each holder to the
  player who solves their case, the board with a tile on every slot (the theme's own map), the
  three case decks, the evidence row and each player's pieces;
- one example turn: an investigator on a location of the theme, the locations one road away,
  the discs and cubes the holder gives, as ``answers.at`` computes them for an example setup
  dealt by ``dealing.deal`` from a seed of its own (so the drawing never shows a case of the
  kit's own mini-games), with a caption of what the player may conclude and what not.

Simplified figures drawn with reportlab shapes, in the layout's colours (``rules_art``)."""

import math
from dataclasses import dataclass, field

from kitgen.games.deduction import answers, dealing, facts
from kitgen.games.deduction.dealing import BLANK
from kitgen.games.deduction.render.emblems import player_shape
from kitgen.render import paint, text

EXAMPLE_SEEDS = 40         # example setups tried, in turn, for a turn that shows a disc and a cube


# --- the example turn ------------------------------------------------------------------------------

@dataclass(frozen=True)
class Example:
    """An example turn: in mini-game ``game`` of the setup ``seed`` deals for ``players``, the
    player ``case.solver`` places an investigator on ``location``; ``answer`` is what they get."""

    seed: str
    players: int
    game: dealing.MiniGame
    case: dealing.Case
    location: int
    answer: answers.Answer


def example(theme, players: int) -> Example:
    """The example the rules show: player 1 investigates, at the first location (in the theme's
    order) that earns exactly one disc and one cube and has at most four neighbours, in the first
    example setup that has one; else the best turn found (one disc and some cubes, then any)."""
    best, best_score = None, None
    for k in range(EXAMPLE_SEEDS):
        seed = f"{theme.seed} / rules example {k}"
        for game in dealing.deal(seed, theme.counts, players):
            case = next(case for case in game.cases if case.solver == 1)
            for location in range(len(theme.city.names)):
                answer = answers.at(theme.city, game, case, location)
                discs, cubes = answer.counts
                degree = theme.city.degree(location)
                score = (discs == 1, 1 if cubes == 1 else 0.5 if cubes > 1 else 0, degree <= 4, -degree)
                if best_score is None or score > best_score:
                    best, best_score = Example(seed, players, game, case, location, answer), score
                if score[:3] == (True, 1, True):
                    return best
    return best


def _names(theme, labels_art, indices) -> str:
    """Location names as a list: "A, B or C" in the kit's language."""
    shown = [labels_art.name.format(name=theme.city.names[i]) for i in indices]
    if len(shown) == 1:
        return shown[0]
    return f"{', '.join(shown[:-1])} {labels_art['or']} {shown[-1]}"


def _part_name(theme, ex: Example, part: str) -> str:
    if part == "suspect":
        return theme.suspects[ex.case.suspect].name
    if part == "crime":
        return theme.crimes[ex.case.crime].name
    return theme.city.names[ex.case.location]


def caption(theme, messages, ex: Example) -> list[str]:
    """What the example shows, in sentences: the turn, what the player now knows, what not."""
    art, labels = messages.rules.art, messages.labels
    player = art.example_player.format(player=labels.player.format(n=ex.case.solver),
                                       colour=labels.colours[ex.case.solver - 1],
                                       colour_lower=labels.colours[ex.case.solver - 1].lower())
    quoted = {part: art.name.format(name=_part_name(theme, ex, part)) for part in ("suspect", "crime", "location")}
    discs, cubes = ex.answer.counts
    disc = art.disc[ex.answer.discs[0]].format(name=quoted[ex.answer.discs[0]]) if discs else art.disc.none
    sentences = [art.placed.format(player=player, location=art.name.format(name=theme.city.names[ex.location]),
                                   disc=disc, cubes=art.cubes[min(cubes, 3)])]
    if discs == 1:
        sentences.append(art.conclude.format(player=player, known=art.known[ex.answer.discs[0]].format(
            name=quoted[ex.answer.discs[0]])))
        rest = art.conclude_cubes[min(cubes, 2)]
        sentences.append(rest.format(list=_names(theme, art, theme.city.neighbours(ex.location))))
    if cubes:
        sentences.append(art.may_not)
    return sentences


@dataclass
class Drawn:
    """What a drawing put on the page, counted as it drew (for the tests)."""

    discs: int = 0
    cubes: int = 0
    investigators: int = 0
    seats: list = field(default_factory=list)          # (player, x, y): each seat's centre, in order round
    arrows: list = field(default_factory=list)         # (holder, solver)
    tiles: int = 0                                      # tiles on the board's slots
    decks: int = 0
    cards: int = 0                                      # evidence cards in the row


@dataclass(frozen=True)
class Pen:
    """What every drawing reads: the canvas, the layout, its fonts by role and the kit's messages."""

    c: object
    layout: object
    fonts: dict
    messages: object

    def colour(self, name: str):
        return paint.colour(self.layout, name)

    def player(self, player: int):
        return self.colour(f"player_{player}")

    def on(self, player: int):
        """Paper on a player's colour, ink on a light one (yellow)."""
        r, g, b = (int(self.layout.colours[f"player_{player}"].rgb[i:i + 2], 16) / 255 for i in (1, 3, 5))
        return self.colour("ink" if 0.2126 * r + 0.7152 * g + 0.0722 * b > 0.5 else "paper")

    def words(self, content: str, role, x: float, y: float, width: float, size: float | None = None,
              align: str = "left", colour=None) -> None:
        """One line of ``role`` (the layout's rules_art.name or .label), shrunk to ``width``."""
        font = self.fonts[role.font]
        size = size or role.size
        fitted = max(text.fit(content, font, width, size * 1.5, size, role.min_size).size, role.min_size)
        self.c.setFillColor(colour if colour is not None else self.colour(role.colour))
        text.draw_line(self.c, content, font, fitted, x, y, align)


MM = 72 / 25.4


def _pen(c, layout, fonts, messages) -> Pen:
    return Pen(c, layout, fonts, messages)


def _outline(pen, width: float = 0.4):
    pen.c.setStrokeColor(pen.colour("ink"))
    pen.c.setLineWidth(width)


def _investigator(pen, player: int, x: float, y: float, w: float, h: float, drawn: Drawn) -> None:
    """A standee seen from the front: a tent of the player's colour with their shape."""
    c = pen.c
    path = c.beginPath()
    path.moveTo(x, y)
    path.lineTo(x + w, y)
    path.lineTo(x + w, y + h * 0.72)
    path.lineTo(x + w / 2, y + h)
    path.lineTo(x, y + h * 0.72)
    path.close()
    c.setFillColor(pen.player(player))
    _outline(pen)
    c.drawPath(path, stroke=1, fill=1)
    player_shape(c, player, x + w / 2, y + h * 0.4, w * 0.6, pen.on(player))
    drawn.investigators += 1


def _disc(pen, player: int, cx: float, cy: float, d: float, drawn: Drawn | None = None) -> None:
    pen.c.setFillColor(pen.player(player))
    _outline(pen)
    pen.c.circle(cx, cy, d / 2, stroke=1, fill=1)
    if drawn is not None:
        drawn.discs += 1


def _cube(pen, player: int, x: float, y: float, s: float, drawn: Drawn | None = None) -> None:
    pen.c.setFillColor(pen.player(player))
    _outline(pen)
    pen.c.rect(x, y, s, s, stroke=1, fill=1)
    if drawn is not None:
        drawn.cubes += 1


def _spread(angles: list[float], least: float) -> list[float]:
    """Angles (radians) pushed apart, in their order round the circle, to at least ``least``."""
    if len(angles) < 2:
        return list(angles)
    order = sorted(range(len(angles)), key=lambda i: angles[i])
    result = list(angles)
    least = min(least, 2 * math.pi / len(angles))
    for _ in range(100):
        moved = False
        for k in range(len(order)):
            a, b = order[k], order[(k + 1) % len(order)]
            gap = (result[b] - result[a]) % (2 * math.pi)
            if gap < least - 1e-6:
                push = (least - gap) / 2
                result[a] -= push
                result[b] += push
                moved = True
        if not moved:
            break
    return result


def _location_box(pen, theme, game, index: int, box, name_size: float, line_size: float, marker: float,
                  reserve: float = 0.0):
    """A location as the example shows it: its name, and a line for each of its tiles (a mark in
    the tile's colour, then the tile's name). Returns where a disc goes: on the suspect's and the
    crime's marks, and at the end of the location's name. The tiles' names keep ``reserve`` clear
    at the right (for the investigator and its cubes)."""
    layout, c = pen.layout, pen.c
    art, loc = layout.rules_art, layout.board.location
    x, y, w, h = box
    paint.fill_box(c, box, pen.colour(loc.fill), loc.radius / 2)
    paint.stroke_box(c, box, pen.colour(loc.frame.colour), loc.frame.width, loc.radius / 2)
    pad = 1.2 * MM
    name_y = y + h - pad - name_size * 0.8
    pen.words(theme.city.names[index], art.name, x + pad, name_y, w - 2 * pad - marker, name_size)
    spots = {"location": (x + w - pad - marker / 2, name_y + name_size * 0.3)}
    rows = (("suspect", game.suspect_tiles[index], theme.suspects), ("crime", game.crime_tiles[index], theme.crimes))
    step = (name_y - y - pad) / 2
    for k, (kind, tile, names) in enumerate(rows):
        cy = name_y - step * (k + 0.75)
        paint.fill_box(c, (x + pad, cy - marker / 2, marker, marker), pen.colour(kind), 0.4)
        spots[kind] = (x + pad + marker / 2, cy)
        blank = tile == BLANK
        shown = pen.messages.labels["no_" + kind] if blank else names[tile].name
        pen.words(shown, art.label if blank else art.name, x + pad + marker + MM, cy - line_size * 0.35,
                  w - 2 * pad - marker - MM - reserve, line_size)
    return spots


def draw_example(c, layout, fonts, messages, theme, ex: Example, x: float, y: float, width: float,
                 height: float) -> Drawn:
    """The example turn in the box (x, y, width, height): the location in the middle, its
    neighbours round it in their directions on the map, joined by roads; returns what it drew."""
    pen, drawn = _pen(c, layout, fonts, messages), Drawn()
    art = layout.rules_art
    spec = art.example
    city = theme.city
    near = city.neighbours(ex.location)
    cw, ch = spec.centre
    bw, bh = spec.box
    cx, cy = x + width / 2, y + height / 2
    px, py = city.positions[ex.location]
    angles = [math.atan2(-(city.positions[n][1] - py), city.positions[n][0] - px) for n in near]
    angles = _spread(angles, math.radians(55))
    rx, ry = width / 2 - bw / 2, height / 2 - bh / 2
    centres = {n: (cx + rx * math.cos(a), cy + ry * math.sin(a)) for n, a in zip(near, angles)}
    c.saveState()
    c.setStrokeColor(pen.colour(spec.road.colour))
    c.setLineWidth(spec.road.width)
    c.setLineCap(1)
    for n in near:
        c.line(cx, cy, *centres[n])
    c.restoreState()
    size, small = art.name.size, art.label.size
    for n in near:
        nx, ny = centres[n]
        _location_box(pen, theme, ex.game, n, (nx - bw / 2, ny - bh / 2, bw, bh), size, small, spec.marker * 0.8)
    box = (cx - cw / 2, cy - ch / 2, cw, ch)
    iw, ih = spec.investigator
    pieces = iw + len(ex.answer.cubes) * (spec.cube + 0.8 * MM) + MM
    spots = _location_box(pen, theme, ex.game, ex.location, box, size + 1.5, size, spec.marker, pieces)
    player = ex.case.solver
    for part in ex.answer.discs:                     # a disc on each part of the case found here
        _disc(pen, player, *spots[part], spec.disc, drawn)
    ix, iy = box[0] + cw - 1.2 * MM - iw, box[1] + 1.2 * MM
    _investigator(pen, player, ix, iy, iw, ih, drawn)
    for k in range(len(ex.answer.cubes)):            # a cube beside it for each match next door
        _cube(pen, player, ix - (k + 1) * (spec.cube + 0.8 * MM), iy, spec.cube, drawn)
    return drawn


# --- the table, ready to play -----------------------------------------------------------------------

def _on_rim(box, angle: float) -> tuple[float, float]:
    """Where a ray from the box's centre at ``angle`` (radians) leaves the box."""
    x, y, w, h = box
    dx, dy = math.cos(angle), math.sin(angle)
    t = min(w / 2 / abs(dx) if abs(dx) > 1e-9 else math.inf, h / 2 / abs(dy) if abs(dy) > 1e-9 else math.inf)
    return x + w / 2 + dx * t, y + h / 2 + dy * t


def seat_angles(players: int) -> list[float]:
    """Each seat's direction from the table's centre (radians, counter-clockwise from east),
    player 1 at the bottom and the next on their left: clockwise seen from above, as play goes."""
    return [math.radians(-90 - 360 * (p - 1) / players) for p in range(1, players + 1)]


def _arrow(pen, points, head: float) -> None:
    c = pen.c
    path = c.beginPath()
    path.moveTo(*points[0])
    for point in points[1:]:
        path.lineTo(*point)
    c.drawPath(path, stroke=1, fill=0)
    (x0, y0), (x1, y1) = points[-2], points[-1]
    a = math.atan2(y1 - y0, x1 - x0)
    tip = c.beginPath()
    tip.moveTo(x1, y1)
    tip.lineTo(x1 - head * math.cos(a - 0.45), y1 - head * math.sin(a - 0.45))
    tip.lineTo(x1 - head * math.cos(a + 0.45), y1 - head * math.sin(a + 0.45))
    tip.close()
    c.drawPath(tip, stroke=0, fill=1)


def _mini_board(pen, theme, box, drawn: Drawn) -> None:
    """The board in small: the map, its roads, each location with a tile on both slots."""
    layout, c = pen.layout, pen.c
    board = layout.board
    x, y, w, h = box
    paint.fill_box(c, box, pen.colour(board.background), 1.0)
    paint.stroke_box(c, box, pen.colour(layout.rules_art.line.colour), layout.rules_art.line.width, 1.0)
    scale = w / board.size[0]
    mx, my, mw, mh = (v * scale for v in board.map.box)
    lw, lh = (v * scale for v in board.location.size)
    def centre(i):
        px, py = theme.city.positions[i]
        return x + mx + lw / 2 + px * (mw - lw), y + my + mh - lh / 2 - py * (mh - lh)

    c.saveState()
    c.setStrokeColor(pen.colour(board.road.colour))
    c.setLineWidth(max(board.road.width * scale, 0.8))
    for a, b in theme.city.roads:
        c.line(*centre(a), *centre(b))
    c.restoreState()
    tile = board.location.slot * scale * 0.8
    for i in range(len(theme.city.names)):
        lx, ly = centre(i)
        paint.fill_box(c, (lx - lw / 2, ly - lh / 2, lw, lh), pen.colour(board.location.fill), 0.6)
        paint.stroke_box(c, (lx - lw / 2, ly - lh / 2, lw, lh), pen.colour(board.location.frame.colour), 0.3, 0.6)
        for side, kind in ((-1, "suspect"), (1, "crime")):
            tx = lx + side * (lw / 2 - board.location.slot * scale / 2) - tile / 2
            paint.fill_box(c, (tx, ly - lh / 2 + lh * 0.12, tile, tile), pen.colour(kind), 0.3)
            drawn.tiles += 1
    # the title strip and the tracks, as bands
    for name in ("score_track", "penalty_track"):
        bx, by, bw_, bh_ = (v * scale for v in board[name].box)
        paint.stroke_box(c, (x + bx, y + by, bw_, bh_), pen.colour(layout.rules_art.line.colour), 0.3)


def _stack(pen, x: float, y: float, w: float, h: float, colour, count: int = 3) -> None:
    for k in range(count - 1, -1, -1):
        box = (x + k * 0.5, y + k * 0.5, w, h)
        paint.fill_box(pen.c, box, colour, 0.5)
        paint.stroke_box(pen.c, box, pen.colour("paper"), 0.3, 0.5)


def draw_setup(c, layout, fonts, messages, theme, players: int, x: float, y: float, width: float,
               height: float) -> Drawn:
    """The table ready to play in the box (x, y, width, height); returns what it drew."""
    pen, drawn = _pen(c, layout, fonts, messages), Drawn()
    art = layout.rules_art
    spec = art.setup
    seat = spec.seat
    inset = seat / 2 + 0.5
    table = (x + inset, y + inset, width - 2 * inset, height - 2 * inset)
    paint.fill_box(c, table, pen.colour(spec.table.colour), spec.table.radius)
    tx, ty, tw, th = table
    centre = (tx + tw / 2, ty + th / 2)
    # the board, the decks and the evidence row in the middle
    card_w, card_h = spec.card
    bw = tw * spec.board
    bh = bw * layout.board.size[1] / layout.board.size[0]
    gap = 1.5 * MM
    label = art.label.size
    stack_h = card_h + gap + label
    block_h = art.name.size + gap + bh + gap + stack_h + gap + card_h + label + gap
    top = centre[1] + block_h / 2
    bx = centre[0] - bw / 2
    pen.words(theme.name, art.name, centre[0], top - art.name.size, bw, align="centre")
    board_box = (bx, top - art.name.size - gap - bh, bw, bh)
    _mini_board(pen, theme, board_box, drawn)
    row_y = board_box[1] - gap - card_h
    kinds = ("suspect", "crime", "location")
    step = card_w + 1.6 * MM
    for k, kind in enumerate(kinds):
        _stack(pen, bx + k * step, row_y, card_w, card_h, pen.colour(kind))
        drawn.decks += 1
    pen.words(messages.rules.art.case_decks, art.label, bx, row_y - label, 3 * step + 2 * MM)
    ex = bx + bw - card_w - 1.0
    _stack(pen, ex, row_y, card_w, card_h, pen.colour("evidence"))
    drawn.decks += 1
    pen.words(messages.labels.evidence, art.label, ex + card_w, row_y - label, bw / 3, align="right")
    row_y -= label + gap + card_h
    face = min(card_w, (bw - 8 * 0.8 * MM) / facts.EVIDENCE_FACE_UP)
    span = facts.EVIDENCE_FACE_UP * face + (facts.EVIDENCE_FACE_UP - 1) * 0.8 * MM
    for k in range(facts.EVIDENCE_FACE_UP):
        card = (centre[0] - span / 2 + k * (face + 0.8 * MM), row_y, face, card_h)
        paint.fill_box(c, card, pen.colour("paper"), 0.5)
        paint.fill_box(c, (card[0], card[1] + card_h * 0.72, face, card_h * 0.28), pen.colour("evidence"), 0.5)
        paint.stroke_box(c, card, pen.colour(art.line.colour), 0.3, 0.5)
        drawn.cards += 1
    pen.words(messages.rules.art.evidence_row, art.label, centre[0], row_y - label, bw + 8 * MM, align="centre")
    middle = (bx - 4 * MM, row_y - label - 1, bx + bw + 4 * MM, top + 1)     # left, bottom, right, top
    # the seats round the edge, the arrows from holder to solver just inside it, each player's pieces
    angles = seat_angles(players)
    seats = [_on_rim(table, a) for a in angles]
    ring = (tx + seat * 0.9, ty + seat * 0.9, tw - 1.8 * seat, th - 1.8 * seat)
    c.saveState()
    c.setStrokeColor(pen.colour(spec.arrow.colour))
    c.setFillColor(pen.colour(spec.arrow.colour))
    c.setLineWidth(spec.arrow.width)
    for p in range(1, players + 1):
        solver = facts.left_of(p, players)
        a0, a1 = angles[p - 1], angles[solver - 1]
        if a1 > a0:
            a1 -= 2 * math.pi
        margin = min(0.45, (a0 - a1) * 0.2)
        points = [_on_ellipse(ring, a0 - margin + (a1 - a0 + 2 * margin) * t / 24) for t in range(25)]
        _arrow(pen, points, spec.arrow.head)
        drawn.arrows.append((p, solver))
    c.restoreState()
    token = spec.token
    for p, (sx, sy), a in zip(range(1, players + 1), seats, angles):
        _disc(pen, p, sx, sy, seat)
        c.setFillColor(pen.on(p))
        text.draw_line(c, str(p), fonts[art.name.font], seat * 0.55, sx, sy - seat * 0.19, "centre")
        drawn.seats.append((p, sx, sy))
        # the player's pieces, facing the seat: just inside the arrows, or nearer the edge (over the
        # arrow, on a patch of the table) where the middle would be in the way
        half_w, below, above = 2 * token + 1.8 * MM, token * 0.2 + art.label.size + 1, token * 1.0
        for share in [k / 10 for k in range(11)]:
            inset = seat * 0.9 * (1 - share)
            px, py = _on_ellipse((ring[0] + inset, ring[1] + inset, ring[2] - 2 * inset, ring[3] - 2 * inset), a)
            clear = (px + half_w < middle[0] or px - half_w > middle[2] or py + above < middle[1]
                     or py - below > middle[3])
            if clear:
                break
        if abs(px - sx) < half_w + seat / 2 and abs(py - sy) < above + seat:     # under its seat, not on it
            py = sy - seat / 2 - above - 0.8 * MM
            px = min(max(sx, tx + half_w + MM), tx + tw - half_w - MM)
        if share > 0:
            paint.fill_box(c, (px - half_w - 0.5 * MM, py - below - 0.5 * MM, 2 * half_w + MM, above + below + MM),
                           pen.colour(spec.table.colour), 0.8)
        _pieces(pen, p, px, py, token, drawn)
    return drawn


def _on_ellipse(box, angle: float) -> tuple[float, float]:
    x, y, w, h = box
    return x + w / 2 + w / 2 * math.cos(angle), y + h / 2 + h / 2 * math.sin(angle)


def _pieces(pen, player: int, cx: float, cy: float, size: float, drawn: Drawn) -> None:
    """An investigator, a disc and a cube of the player's colour, each over its count."""
    art = pen.layout.rules_art
    step = size + 1.8 * MM
    counts = (facts.INVESTIGATORS, facts.DISCS, facts.CUBES)
    x0 = cx - step
    _investigator(pen, player, x0 - size * 0.4, cy - size * 0.2, size * 0.8, size * 1.2, drawn)
    _disc(pen, player, x0 + step, cy + size * 0.4, size)
    _cube(pen, player, x0 + 2 * step - size * 0.45, cy - size * 0.05, size * 0.9)
    for k, count in enumerate(counts):
        pen.words(f"\u00d7{count}", art.label, x0 + k * step, cy - size * 0.2 - art.label.size, step, align="centre",
                  colour=pen.colour("ink"))
