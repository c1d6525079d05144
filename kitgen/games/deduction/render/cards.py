"""Case cards, evidence cards and tiles of the deduction game: each deck with its own
colour, emblem and back, so decks are told apart by shape as well as by colour."""

from dataclasses import dataclass

from kitgen.games.deduction import pictures
from kitgen.games.deduction.render.emblems import KINDS, emblem
from kitgen.render import columns, paint, text
from kitgen.render.cards import CardSet, card_spec

COLOUR = {"suspects": "suspect", "crimes": "crime", "locations": "location"}
SINGULAR = {"suspects": "suspect", "crimes": "crime", "locations": "location"}


@dataclass(frozen=True)
class Face:
    """One card or tile: its deck, its name (None: a blank tile) and its picture."""

    kind: str
    name: str | None
    picture: object = None


def _fitted(c, shown: str, style, fonts, colour, box=None):
    box = box or style.box
    font = fonts[style.font]
    shown = text.apply_case(shown, style.case)
    size = text.fit(shown, font, box[2], box[3], style.size, style.min_size).size
    text.draw(c, shown, font, size, box, colour)


def _stripes(c, box, colour, stripe: float):
    """Diagonal stripes over ``box`` (x, y, w, h): the backs' pattern."""
    x, y, w, h = box
    c.saveState()
    path = c.beginPath()
    path.rect(x, y, w, h)
    c.clipPath(path, stroke=0, fill=0)
    c.setStrokeColor(colour)
    c.setLineWidth(stripe / 2)
    for step in range(int((w + h) / stripe) + 2):
        start = x - h + step * stripe
        c.line(start, y, start + h, y + h)
    c.restoreState()


def _tint(layout, name: str, share: float):
    """A named colour lightened towards paper: ``share`` of the colour, the rest paper (white);
    share 1 is the colour itself and 0 the layout's paper."""
    if share >= 1 or share <= 0:
        return paint.colour(layout, name if share >= 1 else "paper")
    base = paint.colour(layout, name)
    if paint.is_cmyk(layout):
        from reportlab.lib.colors import CMYKColor

        return CMYKColor(*(v * share for v in (base.cyan, base.magenta, base.yellow, base.black)))
    from reportlab.lib.colors import Color

    return Color(*(1 - share * (1 - v) for v in (base.red, base.green, base.blue)))


def case_cards(faces: tuple[Face, ...], layout, fonts, labels, title: str, evidence: bool = False) -> CardSet:
    """Case cards (a back per deck) or, with ``evidence``, evidence cards (one back for all)."""
    card = layout.case_card
    width, height = card.size
    bleed = card.bleed
    full = (-bleed, -bleed, width + 2 * bleed, height + 2 * bleed)
    names = {"paper", "ink", "muted", card.frame.colour, card.kind.colour, card.name.colour, card.evidence.colour}
    ink = {name: paint.colour(layout, name) for name in names}

    def front(c, i: int):
        face = faces[i]
        band_colour = _tint(layout, "evidence" if evidence else COLOUR[face.kind], card.band.tint)
        paint.fill_box(c, full, ink["paper"])
        paint.fill_box(c, (-bleed, height - card.band.height, width + 2 * bleed, card.band.height + bleed),
                       band_colour)
        frame = card.frame
        paint.stroke_box(c, (frame.inset, frame.inset, width - 2 * frame.inset, height - 2 * frame.inset),
                         ink[frame.colour], frame.width, frame.radius)
        kind_label = labels.evidence if evidence else labels[SINGULAR[face.kind]]
        _fitted(c, kind_label, card.kind, fonts, ink[card.kind.colour])
        if face.picture is not None:        # every thing has one once the kit is prepared (pictures.resolve)
            pictures.draw(c, "evidence" if evidence else "card", face.kind, face.name, face.picture,
                          card.picture.box, fonts["label"], layout, COLOUR[face.kind])
        _fitted(c, face.name, card.name, fonts, ink[card.name.colour])
        footer = f"{labels[SINGULAR[face.kind]]}" if evidence else labels.case_card
        _fitted(c, footer, card.evidence, fonts, ink[card.evidence.colour])

    def back(c, i: int):
        kind = "evidence" if evidence else COLOUR[faces[i].kind]
        back = card.back
        paint.fill_box(c, full, _tint(layout, kind, back.tint))
        _stripes(c, full, _tint(layout, kind, back.stripe_tint), back.stripe)
        label = labels.evidence_card if evidence else labels[SINGULAR[faces[i].kind]]
        _fitted(c, label, back.label, fonts, paint.colour(layout, back.label.colour))
        emblem(c, "evidence" if evidence else faces[i].kind, back.emblem.box, _tint(layout, kind, back.emblem.tint))

    return CardSet("evidence" if evidence else "cases", title, card_spec(card), len(faces), front=front, back=back)


def tile_lines(name: str, style, font: str, size: float) -> list[str] | None:
    """``name`` broken into at most ``style.lines`` lines that each fit the tile's name box at ``size``
    (words are never split), or None when it cannot be."""
    box_w, box_h = style.box[2], style.box[3]
    shown = text.apply_case(name, style.case)
    if any(not text.fits([word], font, size, box_w) for word in shown.split()):
        return None
    lines = columns.wrap(shown, columns.Style(font, size, size * style.line_spacing, None), box_w)
    if len(lines) > style.lines or size * (1 + style.line_spacing * (len(lines) - 1)) > box_h:
        return None
    return lines


def tile_name_size(names: list[str], style, font: str) -> float | None:
    """The one size of every tile name: the largest from ``style.size`` down to ``style.min_size``
    (in ``text.SIZE_STEP``s) at which each of ``names`` fits (``tile_lines``); None if none does."""
    size = style.size
    while size >= style.min_size:
        if all(tile_lines(name, style, font, size) is not None for name in names):
            return size
        size -= text.SIZE_STEP
    return None


def tiles(faces: tuple[Face, ...], layout, fonts, labels, title: str) -> CardSet:
    """Suspect and crime tiles: the name (or 'no suspect'/'no crime') in front, one back per kind.
    Every name is set at one size (``tile_name_size``), on two lines where it must be."""
    tile = layout.city_tile
    font = fonts[tile.name.font]
    names = [face.name or (labels.no_suspect if face.kind == "suspects" else labels.no_crime) for face in faces]
    size = tile_name_size(names, tile.name, font)
    if size is None:            # build._check_names refuses such a theme first; kitgen proof draws and reports it
        size = tile.name.min_size
    width, height = tile.size
    bleed = tile.bleed
    full = (-bleed, -bleed, width + 2 * bleed, height + 2 * bleed)
    paper, ink = paint.colour(layout, "paper"), paint.colour(layout, tile.name.colour)

    def front(c, i: int):
        face = faces[i]
        colour = paint.colour(layout, COLOUR[face.kind])
        paint.fill_box(c, full, paper)
        paint.fill_box(c, (-bleed, height - tile.band.height, width + 2 * bleed, tile.band.height + bleed),
                       _tint(layout, COLOUR[face.kind], tile.band.tint))
        blank = face.name is None
        lines = tile_lines(names[i], tile.name, font, size) or [text.apply_case(names[i], tile.name.case)]
        x, y, w, h = tile.name.box
        step = size * tile.name.line_spacing
        top = y + h / 2 + step * (len(lines) - 1) / 2          # the lines as one block, centred in the box
        for n, line in enumerate(lines):
            text.draw(c, line, font, size, (x, top - n * step - step / 2, w, step),
                      paint.colour(layout, "muted") if blank else ink)
        if blank or face.picture is None:
            emblem(c, face.kind, tile.picture.box, _tint(layout, COLOUR[face.kind], 0.35) if blank else colour)
        else:                               # the suspect's portrait or the crime's pictogram
            pictures.draw(c, "tile", face.kind, face.name, face.picture, tile.picture.box, fonts["label"], layout,
                          COLOUR[face.kind])

    def back(c, i: int):
        kind, back = COLOUR[faces[i].kind], tile.back
        paint.fill_box(c, full, _tint(layout, kind, back.tint))
        _fitted(c, labels[kind], back.label, fonts, paint.colour(layout, back.label.colour))
        emblem(c, faces[i].kind, back.emblem.box, _tint(layout, kind, back.emblem.tint))

    return CardSet("tiles", title, card_spec(tile), len(faces), front=front, back=back)


def deck_faces(theme) -> tuple[Face, ...]:
    """Every case card, deck by deck; the evidence cards are the same list."""
    return tuple(Face(kind, e.name, e.picture) for kind in KINDS for e in getattr(theme, kind))


def tile_faces(theme) -> tuple[Face, ...]:
    """Suspect tiles and their blanks, then crime tiles and theirs."""
    counts = theme.counts
    return (tuple(Face("suspects", e.name, e.picture) for e in theme.suspects)
            + (Face("suspects", None),) * counts.no_suspect_tiles
            + tuple(Face("crimes", e.name, e.picture) for e in theme.crimes)
            + (Face("crimes", None),) * counts.no_crime_tiles)
