"""Player aids (docs/design.md §10.6), layout section ``aid``: one a player, in their colour.

Across the top, the player's colour band and the title. The left column holds the turn's
three actions (each its name in bold, its lines after the first indented), the scoring, and
the board's map in small: the city's streets, water, parks and locations drawn to scale. The
right column lists every location in bold with the locations one road away, so a holder
answers correctly. Both columns' text is set at one size, the largest that fits."""

from kitgen.games.deduction.render import board as board_mod
from kitgen.games.deduction.render.emblems import player_shape
from kitgen.games.deduction.render.slips import blank
from kitgen.render import paint, text
from kitgen.render.cards import CardSet, card_spec

MM = 72 / 25.4


def _words(runs):
    """(word, font) for each word of ``runs`` ((text, font), ...)."""
    return [(word, font) for content, font in runs for word in content.split()]


def flow(runs, width: float, indent: float, size: float) -> list[list[tuple[str, str, float]]]:
    """The words of ``runs`` in lines of ``width``, every line after the first ``indent`` in:
    each line a list of (word, font, x from the paragraph's left)."""
    lines, line, x = [], [], 0.0
    for word, font in _words(runs):
        w = text.width(word, font, size)
        space = text.width(" ", font, size) if line else 0.0
        start = indent if lines else 0.0
        if line and start + x + space + w > width:
            lines.append(line)
            line, x, space, start = [], 0.0, 0.0, indent
        line.append((word, font, start + x + space))
        x += space + w
    if line:
        lines.append(line)
    return lines


def _set(c, lines, left: float, y: float, size: float, leading: float, colour) -> float:
    """Lines from :func:`flow` from ``y`` down; returns the baseline of the last."""
    c.setFillColor(colour)
    for line in lines:
        y -= leading
        for word, font, x in line:
            text.draw_line(c, word, font, size, left + x, y, "left")
    return y


def _plan(layout, fonts, messages, city, size: float):
    """The lines of both columns at ``size``: (actions, score, adjacent), each a list of paragraphs' lines."""
    spec = layout.aid
    labels = messages.labels
    body, term = fonts[spec.body.font], fonts[spec.term.font]
    left_w, right_w = column_widths(layout)
    indent = spec.indent
    actions = [flow(((a.term, term), (a.text, body)), left_w - indent, indent, size) for a in labels.aid_actions]
    score = flow(((labels.aid_score, body),), left_w, 0.0, size)
    adjacent = [flow(((name, term), ("\u2014 " + ", ".join(city.names[n] for n in city.neighbours(k)), body)),
                     right_w, indent, size) for k, name in enumerate(city.names)]
    return actions, score, adjacent


def column_widths(layout) -> tuple[float, float]:
    spec = layout.aid
    inner = spec.size[0] - 2 * spec.margin - spec.column_gap
    total = sum(spec.columns)
    return inner * spec.columns[0] / total, inner * spec.columns[1] / total


def sizes(layout, fonts, messages, city) -> tuple[float, float]:
    """The size of each column's text: the largest from aid.body.size down to min_size, in steps of
    0.25 pt, at which the left column leaves the map its least height, and at which the right
    column's list fits."""
    spec = layout.aid
    room = spec.size[1] - spec.band.height - 2 * spec.margin - spec.heading.leading

    def largest(fits) -> float:
        size = spec.body.size
        while size > spec.body.min_size and not fits(size):
            size -= 0.25
        return size

    def left(size):
        actions, score, _ = _plan(layout, fonts, messages, city, size)
        leading = size * spec.body.leading
        # as front() sets it: three headings, each with a fifth of a line after it (and before the second
        # and third), a quarter line after each action, six tenths above the map
        lines = sum(len(p) for p in actions) + len(score)
        used = 3 * spec.heading.leading + leading * (lines + 3 * 0.2 + 2 * 0.2 + 0.25 * len(actions) + 0.6)
        return used - spec.heading.leading + spec.map.min_height <= room

    def right(size):           # the heading's space after it, and the last line's descenders, too
        return (sum(len(p) for p in _plan(layout, fonts, messages, city, size)[2]) + 0.5) * size * spec.body.leading \
            <= room

    return largest(left), largest(right)


def aids(count: int, theme, layout, fonts, messages, title: str, blank_backs: bool = True, town=None) -> CardSet:
    """``count`` player aids, aid n in player n's colour. Printed double-sided, an aid's back is
    blank (``blank_backs``), or the sheet's other side would show another player's aid, cut
    through by this one's trim. ``town``: the board's (board.town_of), drawn in the map."""
    spec = layout.aid
    width, height = spec.size
    margin = spec.margin
    labels = messages.labels
    ink = paint.colour(layout, spec.body.colour)
    city = theme.city
    size, list_size = sizes(layout, fonts, messages, city)
    leading, list_leading = size * spec.body.leading, list_size * spec.body.leading
    actions, score, _ = _plan(layout, fonts, messages, city, size)
    adjacent = _plan(layout, fonts, messages, city, list_size)[2]
    room = height - spec.band.height - 2 * spec.margin - spec.heading.leading
    # the list spread down its column: the room left shared between the entries, at most a line's worth
    used = (sum(len(p) for p in adjacent) + 0.5) * list_leading
    spread = min(list_leading * 0.8, max(0.0, room - used) / len(adjacent))
    left_w, right_w = column_widths(layout)
    town = town or board_mod.town_of(layout, theme)

    def heading(c, shown: str, x: float, y: float) -> float:
        c.setFillColor(paint.colour(layout, spec.heading.colour))
        y -= spec.heading.leading
        text.draw_line(c, shown, fonts[spec.heading.font], spec.heading.size, x, y, "left")
        return y - leading * 0.2

    def front(c, i: int):
        player = i + 1
        name = f"player_{(i % 5) + 1}"
        band = paint.colour(layout, name)
        from kitgen.games.deduction.render.pages import _light

        on_band = ink if _light(layout, name) else paint.colour(layout, "paper")
        band_h = spec.band.height
        paint.fill_box(c, (0, height - band_h, width, band_h), band)
        player_shape(c, player, margin + band_h * 0.3, height - band_h / 2, band_h * 0.55, on_band)
        shown = f"{labels.aid_title} \u00b7 {labels.player.format(n=player)} ({labels.colours[i % 5]})"
        font = fonts[spec.title.font]
        fitted = text.fit(shown, font, width - 2 * margin - band_h, band_h * 0.7, spec.title.size,
                          spec.title.min_size).size
        c.setFillColor(on_band)
        middle = height - band_h / 2 - fitted * 0.35
        text.draw_line(c, shown, font, fitted, margin + band_h * 0.75, middle, "left")
        top = height - band_h - margin * 0.6
        # the left column: the turn, the scoring, then the map in what is left
        y = heading(c, labels.aid_turn, margin, top)
        for paragraph in actions:
            y = _set(c, paragraph, margin, y, size, leading, ink) - leading * 0.25
        y = heading(c, labels.aid_scoring, margin, y - leading * 0.2)
        y = _set(c, score, margin, y, size, leading, ink)
        y = heading(c, labels.aid_map, margin, y - leading * 0.2)
        draw_map(c, layout, fonts, theme, town, (margin, margin, left_w, y - leading * 0.6 - margin))
        # the right column: each location, then its neighbours
        x = margin + left_w + spec.column_gap
        y = heading(c, labels.aid_adjacent, x, top)
        for paragraph in adjacent:
            y = _set(c, paragraph, x, y, list_size, list_leading, ink) - spread

    return CardSet("aids", title, card_spec(spec), count, front=front, back=blank if blank_backs else None)


def map_box(layout, area) -> tuple[float, float, float, float, float]:
    """Where the board's map lies in ``area`` (x, y, w, h), to scale and centred: x, y, w, h, scale."""
    mx, my, mw, mh = layout.board.map.box
    x, y, w, h = area
    scale = min(w / mw, h / mh)
    return x + (w - mw * scale) / 2, y + (h - mh * scale) / 2, mw * scale, mh * scale, scale


def draw_map(c, layout, fonts, theme, town, area):
    """The board's map in small, to scale in ``area``: water and parks, the streets, and each
    location's box with its name."""
    x, y, w, h, scale = map_box(layout, area)
    mx, my, _, _ = layout.board.map.box

    def at(p):
        return x + (p[0] - mx) * scale, y + (p[1] - my) * scale

    paint.fill_box(c, (x, y, w, h), paint.colour(layout, layout.board.background), 1.5 * MM)
    for shape in town.shapes:
        fill = paint.colour(layout, layout.board.town[shape.kind].colour)
        paint.polygon(c, [at(p) for p in shape.outline], fill=fill)
    road = layout.board.road
    c.saveState()
    c.setLineCap(1)
    c.setStrokeColor(paint.colour(layout, road.kerb.colour))
    c.setLineWidth(max((road.width + 2 * road.kerb.width) * scale, 1.0))
    for a, b in town.streets:
        c.line(*at(a), *at(b))
    c.restoreState()
    spec = layout.aid.map.name
    font = fonts[spec.font]
    frame = paint.colour(layout, layout.board.location.frame.colour)
    paper = paint.colour(layout, "paper")
    for k, name in enumerate(theme.city.names):
        bx, by, bw, bh = board_mod.location_box(layout, theme.city, k)
        sx, sy = at((bx, by))
        box = (sx, sy, bw * scale, bh * scale)
        paint.fill_box(c, box, paper, 0.8 * MM)
        paint.stroke_box(c, box, frame, 0.5, 0.8 * MM)
        _small_name(c, name, font, spec, box, paint.colour(layout, spec.colour))


def _small_name(c, name: str, font: str, spec, box, colour):
    """A name in a small box: on one line if it fits at the largest size, else broken over two."""
    x, y, w, h = box
    one = text.fit(name, font, w - 1.5, h, spec.size, spec.min_size)
    words = name.split()
    if one.size >= spec.size or len(words) < 2:
        text.draw(c, name, font, max(one.size, spec.min_size), box, colour)
        return
    best = None
    for cut in range(1, len(words)):
        lines = (" ".join(words[:cut]), " ".join(words[cut:]))
        size = min(text.fit(line, font, w - 1.5, h / 2, spec.size, spec.min_size).size for line in lines)
        if best is None or size > best[0]:
            best = (size, lines)
    size, lines = best
    if size <= one.size:
        text.draw(c, name, font, max(one.size, spec.min_size), box, colour)
        return
    gap = size * 1.1
    for n, line in enumerate(lines):
        cy = y + h / 2 + (0.5 - n) * gap
        text.draw(c, line, font, size, (x, cy - gap / 2, w, gap), colour)
