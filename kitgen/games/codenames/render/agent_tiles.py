"""Agent tiles: full-bleed colour, the type's symbol and its name, both sides."""

from kitgen.games.codenames.model import Tile
from kitgen.games.codenames.render import cell_symbols
from kitgen.render import paint, text
from kitgen.render.cards import CardSet, card_spec

LABELS = {"R": "red_agent", "B": "blue_agent", "N": "bystander", "A": "assassin"}


def card_set(tiles: tuple[Tile, ...], layout, fonts: dict[str, str], messages, title: str) -> CardSet:
    tile = layout.tile
    width, height = tile.size
    bleed = tile.bleed

    def face(c, kind: str, double: bool):
        fill, mark = cell_symbols.type_colours(layout, kind)
        paint.fill_box(c, (-bleed, -bleed, width + 2 * bleed, height + 2 * bleed), fill)
        frame = tile.frame
        paint.stroke_box(c, (frame.inset, frame.inset, width - 2 * frame.inset, height - 2 * frame.inset),
                         mark, frame.width, frame.radius)
        x, y, w, h = tile.symbol.box
        cell_symbols.symbol(c, kind, x + w / 2, y + h / 2, min(w, h), mark)
        label = tile.label
        shown = text.apply_case(messages.labels["double_agent" if double else LABELS[kind]], label.case)
        font = fonts[label.font]
        size = text.fit(shown, font, label.box[2], label.box[3], label.size, label.min_size).size
        text.draw(c, shown, font, size, label.box, mark)

    return CardSet("tiles", title, card_spec(tile), len(tiles),
                   front=lambda c, i: face(c, tiles[i].front, tiles[i].kind == "double"),
                   back=lambda c, i: face(c, tiles[i].back, tiles[i].kind == "double"))
