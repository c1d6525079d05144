"""Sealed case slips (docs/design.md §10.6; the player aids are render/aids.py).

A slip (``slip.panel``, three panels tall: four to an A4 or Letter sheet) is printed on one
side and folds in three: the top panel is its outside (whose slip, which mini-game), the
middle panel the case with its QR code, the
bottom panel a cover of dense stripes. Fold the cover up over the case, then both
behind the top panel: the case is sealed inside, and does not show through when
held to the light. A player aid lists the turn and, for each location, the
locations next to it, so a holder answers correctly."""

from kitgen.games.deduction.render.cards import COLOUR
from kitgen.games.deduction.render.emblems import emblem, player_shape
from kitgen.render import paint, qr, text
from kitgen.render.cards import CardSet
from kitgen.render.columns import Style, wrap
from kitgen.render.sheet import CardSpec


def geometry(spec) -> tuple[float, float, float]:
    """A slip's width and height flat, and the height of each of its three panels: the
    layout's ``slip.panel``, three of them tall."""
    width, third = spec.panel
    return width, 3 * third, third


def _lines(c, lines, style, font, x, y, width, colour, align="left") -> float:
    """Wrapped lines from ``y`` down; returns the y under the last one."""
    c.setFillColor(colour)
    for paragraph in lines:
        for line in wrap(paragraph, Style(font, style.size, style.leading, colour), width):
            y -= style.leading
            text.draw_line(c, line, font, style.size, x if align == "left" else x + width / 2, y,
                           "left" if align == "left" else "centre")
    return y


def slips(entries, theme, layout, fonts, labels, title: str, blank_backs: bool = True) -> CardSet:
    """``entries``: (mini-game, case, payload) in print order. Printed double-sided, a slip's
    back must be blank (``blank_backs``), or the sheet's other side would show another case."""
    spec = layout.slip
    width, height, third = geometry(spec)
    margin = spec.margin
    ink, muted = paint.colour(layout, "ink"), paint.colour(layout, "muted")
    fold = paint.colour(layout, spec.fold.colour)

    def player_name(n: int) -> str:
        return f"{labels.player.format(n=n)} ({labels.colours[n - 1]})"

    def front(c, i: int):
        game, case, payload = entries[i]
        # folds: between the panels
        c.saveState()
        c.setStrokeColor(fold)
        c.setLineWidth(spec.fold.width)
        c.setDash(spec.fold.dash, spec.fold.dash)
        for y in (third, 2 * third):
            c.line(0, y, width, y)
        c.restoreState()
        small = fonts[spec.body.font]
        for y in (third, 2 * third):
            c.setFillColor(muted)
            text.draw_line(c, labels.fold_here, small, 6, width - margin, y + 2, "right")
        # the outside: whose slip, which mini-game, who solves it
        top = height - margin
        holder = player_name(case.holder)
        player_shape(c, case.holder, margin + 6, top - 8, 11, paint.colour(layout, f"player_{case.holder}"))
        y = _lines(c, [labels.slip_title.format(player=holder, n=game)], spec.title, fonts[spec.title.font],
                   margin + 16, top + 2, width - 2 * margin - 16, ink)
        y = _lines(c, [labels.slip_outside.format(player=holder, n=game),
                       labels.slip_solver.format(player=player_name(case.solver))],
                   spec.body, small, margin, y - 4, width - 2 * margin, ink)
        # the case, with its QR code
        panel_top = 2 * third - margin
        size = spec.qr
        qx, qy = width - margin - size, third + margin
        row_w = qx - margin - 4
        # the note across the panel, above the QR; when it is too long for that, beside the QR
        intro = wrap(labels.slip_inside, Style(small, spec.body.size, spec.body.leading, ink), width - 2 * margin)
        across = panel_top + 2 - len(intro) * spec.body.leading - spec.body.size * 0.3 > qy + size + 2
        y = _lines(c, [labels.slip_inside], spec.body, small, margin, panel_top + 2,
                   width - 2 * margin if across else row_w, ink)
        qr.draw(c, payload, qx, qy, size, ink)
        names = (("suspects", theme.suspects[case.suspect].name), ("crimes", theme.crimes[case.crime].name),
                 ("locations", theme.locations[case.location].name))
        y -= 4
        check = wrap(labels.slip_check, Style(small, 6, 7.5, muted), row_w)      # beside the QR, never under it
        floor = third + margin + 6 + 7.5 * (len(check) - 1) + 4              # above that note
        leading = max(spec.case.size, min(spec.case.leading, (y - floor) / len(names)))
        for kind, name in names:
            y -= leading
            emblem(c, kind, (margin, y - 3, 11, 11), paint.colour(layout, COLOUR[kind]))
            font = fonts[spec.case.font]
            fitted = text.fit(name, font, row_w - 15, spec.case.leading, spec.case.size, 5).size
            c.setFillColor(ink)
            text.draw_line(c, name, font, fitted, margin + 15, y, "left")
        c.setFillColor(muted)
        for k, line in enumerate(check):
            text.draw_line(c, line, small, 6, margin, third + margin + 7.5 * (len(check) - 1 - k), "left")
        # the cover: dense stripes, so the case does not show through
        c.saveState()
        path = c.beginPath()
        path.rect(margin, margin, width - 2 * margin, third - 2 * margin)
        c.clipPath(path, stroke=0, fill=0)
        c.setStrokeColor(paint.colour(layout, spec.cover.colour))
        c.setLineWidth(spec.cover.stripe * 0.6)
        span = width + third
        step = spec.cover.stripe
        for k in range(int(2 * span / step) + 2):
            x = -third + k * step
            c.line(x, 0, x + third, third)
        c.restoreState()

    return CardSet("slips", title, CardSpec(width, height, spec.bleed, spec.gutter), len(entries), front=front,
                   back=blank if blank_backs else None)


def blank(c, i: int):
    """Nothing: the back of a slip or an aid stays paper."""
