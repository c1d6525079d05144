"""The rules sheet: the kit's rules in its language, stating only the variants
the kit file switches on, with a legend of the key card's symbols; set in
columns by kitgen/render/columns.py."""

from kitgen import messages as messages_mod
from kitgen.games.codenames.model import RuleSwitches
from kitgen.games.codenames.render import cell_symbols
from kitgen.render import columns, paint
from kitgen.render.columns import Block, Style


def story(layout, fonts: dict[str, str], messages, switches: RuleSwitches, edition: str = "words",
          credits: tuple[str, ...] = ()) -> list[Block]:
    """The blocks of the rules sheet, in reading order."""
    rules = layout.rules
    set_as = columns.styles(layout, fonts)
    title, heading, body, bullet = set_as.title, set_as.heading, set_as.body, set_as.bullet
    legend = Style(body.font, body.size, max(body.leading, rules.legend_symbol + rules.legend.gap), body.colour,
                   space_after=rules.legend.space_after, indent=rules.legend.indent)
    text = messages.rules
    variants = text.variants

    flow = [Block(text.title, title), Block(text.intro, body)]
    for section in text.sections:
        flow.append(Block(section.heading, heading))
        # a paragraph is the same for every edition, or one text per edition
        flow += [Block(p if isinstance(p, str) else p[edition], body) for p in section.paragraphs]
        if section.id == "clues":
            if switches.zero_clue:
                flow.append(Block(variants.zero_clue, body))
            if switches.unlimited_clue:
                flow.append(Block(variants.unlimited_clue, body))
        if section.id == "guessing":
            flow.append(Block(variants[f"plus_one_{switches.plus_one}"], body))
    if switches.restrictions or switches.invalid_clue_penalty:
        flow.append(Block(variants.restrictions_heading, heading))
        flow += [Block(variants[f"restriction_{name}"], bullet, bullet="\u2022") for name in switches.restrictions]
        if switches.invalid_clue_penalty:
            flow.append(Block(variants.invalid_clue_penalty, body))
    flow.append(Block(messages.labels.key_cards, heading))
    flow.append(Block(text.key_card_help_pictures if edition == "pictures" else text.key_card_help, body))
    for kind, key in (("R", "legend_red"), ("B", "legend_blue"), ("N", "legend_bystander"), ("A", "legend_assassin")):
        flow.append(Block(messages.labels[key], legend, kind=kind))
    flow.append(Block(messages.labels.tiles, heading))
    flow.append(Block(text.tiles_help, body))
    if credits:
        flow.append(Block(messages.labels.credits, heading))
        flow += [Block(line, body) for line in credits]
    return flow


def draw(c, page_size, layout, fonts: dict[str, str], messages, switches: RuleSwitches, footer: str,
         edition: str = "words", credits: tuple[str, ...] = ()) -> int:
    """Draw the rules on as many pages as they need; returns the page count."""
    legend = layout.rules.legend

    def cell(c, kind: str, x: float, y: float, size: float):
        fill, mark = cell_symbols.type_colours(layout, kind)
        paint.fill_box(c, (x, y, size, size), fill, legend.radius)
        cell_symbols.symbol(c, kind, x + size / 2, y + size / 2, size * legend.symbol, mark)

    blocks = story(layout, fonts, messages, switches, edition, credits)
    return columns.set_text(c, page_size, layout, fonts, blocks, footer, messages_mod.is_rtl(messages.language), cell)
