"""Key cards: the grid, the starting team's lights, the key number, the kit id
and the QR, all on the spymaster-facing front; the back reveals nothing. A duet key
(docs/design.md §12) has a side on each face: side A on the front, side B on the back,
each as its player sees the board, each with the side's letter and the same QR."""

from kitgen.games.codenames.key_deck import KeyCard
from kitgen.games.codenames.render import cell_symbols
from kitgen.messages import label, number as number_in
from kitgen.render import forms, paint, qr, text
from kitgen.render.cards import CardSet, card_spec


def cell_boxes(layout, rows: int, cols: int) -> list[tuple[float, float, float, float]]:
    """Each cell's box [x, y, w, h] on the upright card, in payload order
    (top row first, left to right)."""
    gx, gy, gw, gh = layout.key_card.grid.box
    gap = layout.key_card.grid.gap
    cw, ch = (gw - (cols - 1) * gap) / cols, (gh - (rows - 1) * gap) / rows
    return [(gx + col * (cw + gap), gy + gh - (row + 1) * ch - row * gap, cw, ch)
            for row in range(rows) for col in range(cols)]


def light_boxes(card, light_edges: int, bleed: float) -> list[tuple[float, float, float, float]]:
    """The starting team's light bands [x, y, w, h] on the upright card, running ``bleed`` past the
    trim: bottom, top, left, right; the pictures edition lights two opposite edges."""
    width, height = card.size
    band = card.lights.width
    return [(-bleed, -bleed, width + 2 * bleed, band + bleed),
            (-bleed, height - band, width + 2 * bleed, band + bleed),
            (-bleed, -bleed, band + bleed, height + 2 * bleed),
            (width - band, -bleed, band + bleed, height + 2 * bleed)][:light_edges]


def card_set(keys: tuple[KeyCard, ...], payloads: list[str], layout, fonts: dict[str, str],
             kit_id: str | list[str], edition, messages, title: str) -> CardSet:
    """What every key shares -- its team's background, lights and start mark, each cell type,
    the back -- is a Form XObject drawn once per PDF; a key's front places them and draws
    what is its own: its cells' places, its QR, its number and the kit id (docs/design.md §8.10).
    ``kit_id``: the kit's, or each key's own (a sheet of single games)."""
    kit_ids = [kit_id] * len(keys) if isinstance(kit_id, str) else kit_id
    card = layout.key_card
    width, height = card.size
    bleed = card.bleed
    whole = (-bleed, -bleed, width + bleed, height + bleed)
    cells = cell_boxes(layout, edition.rows, edition.cols)
    cell_w, cell_h = cells[0][2], cells[0][3]
    ink = {name: paint.colour(layout, name) for name in layout.colours}
    kinds = "GNA" if edition.cooperative else "RBNA"
    team_colour = {k: cell_symbols.type_colours(layout, k) for k in kinds}
    art = (repr(card), repr(team_colour), repr(ink))
    backgrounds = {team: forms.name("key front", team, edition.light_edges, *art) for team in "RB"}
    cell_forms = {kind: forms.name("key cell", kind, cell_w, cell_h, *art) for kind in kinds}
    back_form = forms.name("key back", messages.labels.key_back, fonts[card.back_label.font], *art)

    def background(c, team: str):
        """The card in its panel colour, the starting team's lights, the inner panel, the start mark."""
        paint.fill_box(c, (-bleed, -bleed, width + 2 * bleed, height + 2 * bleed), ink[card.panel.colour])
        fill, mark = team_colour[team]
        for box in light_boxes(card, edition.light_edges, bleed):
            paint.fill_box(c, box, fill)
        inset = card.panel.inset
        paint.fill_box(c, (inset, inset, width - 2 * inset, height - 2 * inset), ink[card.panel.colour],
                       card.panel.radius)
        x, y, w, h = card.start.box
        paint.fill_box(c, (x, y, w, h), fill, card.start.radius)
        cell_symbols.symbol(c, team, x + w / 2, y + h / 2, card.start.symbol * min(w, h), mark)

    def cell(c, kind: str):
        fill, mark = team_colour[kind]
        paint.fill_box(c, (0, 0, cell_w, cell_h), fill, card.grid.radius)
        cell_symbols.symbol(c, kind, cell_w / 2, cell_h / 2, card.grid.symbol * min(cell_w, cell_h), mark)

    def grid_and_labels(c, i: int, grid_cells: str):
        """What a key's face has of its own: its cells' places, its QR, its number and the kit id."""
        key = keys[i]
        for kind in sorted(set(grid_cells)):           # defined in one order: the same bytes in any process
            forms.define(c, cell_forms[kind], (0, 0, cell_w, cell_h), lambda c, kind=kind: cell(c, kind))
        forms.place_each(c, [(cell_forms[kind], x, y) for kind, (x, y, _, _) in zip(grid_cells, cells)])
        qx, qy, qsize, _ = card.qr.box
        qr.draw(c, payloads[i], qx, qy, qsize, ink[card.qr.colour])
        # padded to the deck's width, so a volume of a long deck prints 0001/10000, not 1/10000
        number = label(messages, "key_number", n=number_in(messages, key.number, len(str(key.total))),
                       total=key.total)
        for style, shown, fit in ((card.number, number, text.fit_once), (card.kit_id, kit_ids[i].upper(), text.fit)):
            font = fonts[style.font]
            size = fit(shown, font, style.box[2], style.box[3], style.size, style.min_size).size
            _draw_left(c, shown, font, size, style, ink[style.colour])

    if edition.cooperative:
        return _duet_set(keys, layout, fonts, messages, title, grid_and_labels, art)

    def front(c, i: int):
        key = keys[i]
        forms.place(c, backgrounds[key.starting_team], whole, lambda c: background(c, key.starting_team))
        grid_and_labels(c, i, key.cells)

    def back_art(c):
        style = card.back
        paint.fill_box(c, (-bleed, -bleed, width + 2 * bleed, height + 2 * bleed), ink[style.colour])
        # diagonal stripes, the same on every key: nothing on the back tells keys apart
        c.saveState()
        path = c.beginPath()
        path.rect(-bleed, -bleed, width + 2 * bleed, height + 2 * bleed)
        c.clipPath(path, stroke=0, fill=0)
        c.setStrokeColor(ink[style.pattern])
        c.setLineWidth(style.stripe / 2)
        span = width + height + 4 * bleed
        for step in range(int(2 * span / style.stripe) + 1):   # the layout keeps stripe above zero
            x = -span + step * style.stripe
            c.line(x, -bleed, x + height + 2 * bleed, height + bleed)
        c.restoreState()
        label = card.back_label
        shown = messages.labels.key_back
        font = fonts[label.font]
        size = text.fit(shown, font, label.box[2], label.box[3], label.size, label.min_size).size
        text.draw(c, shown, font, size, label.box, ink[label.colour])

    def back(c, i: int):
        forms.place(c, back_form, whole, back_art)

    return CardSet("keys", title, card_spec(card), len(keys), front=front, back=back)


def _duet_set(keys, layout, fonts: dict[str, str], messages, title: str, grid_and_labels, art) -> CardSet:
    """Duet keys (docs/design.md §12): side A on the front, side B on the back, each drawn as its
    player sees the board (``side_b_as_seen``: side B turned half round), on a plain panel with
    the side's letter in the start box (side A's box filled, side B's outlined); the duplex
    machinery puts each back behind its front."""
    card, side = layout.key_card, layout.duet.side
    width, height = card.size
    bleed = card.bleed
    whole = (-bleed, -bleed, width + bleed, height + bleed)
    ink = {name: paint.colour(layout, name) for name in layout.colours}
    letters = {"A": messages.labels.side_a, "B": messages.labels.side_b}
    font = fonts[side.font]
    backgrounds = {s: forms.name("duet side", s, letters[s], font, repr(side), *art) for s in "AB"}

    def background(c, which: str):
        paint.fill_box(c, (-bleed, -bleed, width + 2 * bleed, height + 2 * bleed), ink[card.panel.colour])
        x, y, w, h = card.start.box
        if which == "A":
            paint.fill_box(c, (x, y, w, h), ink[side.background], card.start.radius)
        else:               # inside the box's edge, so the outline is as large as side A's box
            half = side.outline / 2
            paint.stroke_box(c, (x + half, y + half, w - side.outline, h - side.outline), ink[side.background],
                             side.outline, max(card.start.radius - half, 0))
        shown = letters[which]
        size = text.fit(shown, font, w, h, side.size, side.min_size).size
        text.draw(c, shown, font, size, (x, y, w, h), ink[side.colour if which == "A" else side.background])

    def face(c, i: int, which: str):
        forms.place(c, backgrounds[which], whole, lambda c: background(c, which))
        key = keys[i]
        grid_and_labels(c, i, "".join(key.side_a if which == "A" else key.side_b_as_seen))

    return CardSet("keys", title, card_spec(card), len(keys), front=lambda c, i: face(c, i, "A"),
                   back=lambda c, i: face(c, i, "B"))


def _draw_left(c, shown: str, font: str, size: float, style, fill):
    """A label from its box's left edge: its capitals at the box's top (``align: top``), on its
    foot (``bottom``), or centred in it (``centre``)."""
    from reportlab.pdfbase import pdfmetrics

    x, y, _, h = style.box
    cap = pdfmetrics.getFont(font).face.capHeight / 1000.0 * size
    baseline = {"top": y + h - cap, "bottom": y, "centre": y + (h - cap) / 2}[style.align]
    c.setFillColor(fill)
    text.draw_line(c, shown, font, size, x, baseline, "left")     # Persian digits: the Arabic face
