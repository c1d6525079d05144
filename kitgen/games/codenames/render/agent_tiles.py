"""Agent tiles: full-bleed colour, the type's symbol and its name, both sides; a duet
bystander's faces each say whose guess found it (docs/design.md §12)."""

from kitgen.games.codenames.model import Tile
from kitgen.games.codenames.render import cell_symbols
from kitgen.messages import label as label_of
from kitgen.render import paint, text
from kitgen.render.cards import CardSet, card_spec

LABELS = {"R": "red_agent", "B": "blue_agent", "N": "bystander", "A": "assassin", "G": "green_agent"}


def card_set(tiles: tuple[Tile, ...], layout, fonts: dict[str, str], messages, title: str) -> CardSet:
    tile = layout.tile
    width, height = tile.size
    bleed = tile.bleed

    def face(c, kind: str, double: bool, guess: str = ""):
        fill, mark = cell_symbols.type_colours(layout, kind)
        paint.fill_box(c, (-bleed, -bleed, width + 2 * bleed, height + 2 * bleed), fill)
        frame = tile.frame
        paint.stroke_box(c, (frame.inset, frame.inset, width - 2 * frame.inset, height - 2 * frame.inset),
                         mark, frame.width, frame.radius)
        x, y, w, h = tile.symbol.box
        cell_symbols.symbol(c, kind, x + w / 2, y + h / 2, min(w, h), mark)
        label = tile.label
        shown = text.apply_case(messages.labels["double_agent" if double else LABELS[kind]], label.case,
                                messages.language)
        font = fonts[label.font]
        size = text.fit(shown, font, label.box[2], label.box[3], label.size, label.min_size).size
        text.draw(c, shown, font, size, label.box, mark)
        if guess:
            style = layout.duet.guess
            shown = label_of(messages, "guessed_by", side=messages.labels[guess])
            font = fonts[style.font]
            size = text.fit(shown, font, style.box[2], style.box[3], style.size, style.min_size).size
            text.draw(c, shown, font, size, style.box, paint.colour(layout, style.colour))

    return CardSet("tiles", title, card_spec(tile), len(tiles),
                   front=lambda c, i: face(c, tiles[i].front, tiles[i].kind == "double", tiles[i].guess[0]),
                   back=lambda c, i: face(c, tiles[i].back, tiles[i].kind == "double", tiles[i].guess[1]))
