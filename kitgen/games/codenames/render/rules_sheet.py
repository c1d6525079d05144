"""The rules sheet: the kit's rules in its language, stating only the variants
the kit file switches on, with a legend of the key card's symbols; set in
columns by kitgen/render/columns.py."""

from kitgen import messages as messages_mod
from kitgen.games.codenames.model import RuleSwitches
from kitgen.games.codenames.render import cell_symbols
from kitgen.render import columns, paint
from kitgen.render.columns import Block, Style


def for_edition(text, edition: str) -> str | None:
    """A paragraph or variant of the rules as printed in ``edition``: a text is the same in
    every edition; a mapping holds one text per edition (``words:``, ``pictures:``), and an
    edition it leaves out does not print it at all (None)."""
    return text if isinstance(text, str) else text.get(edition)


def story(layout, fonts: dict[str, str], messages, switches: RuleSwitches, edition: str = "words",
          credits: tuple[str, ...] = ()) -> list[Block]:
    """The blocks of the rules sheet, in reading order."""
    rules = layout.rules
    set_as = columns.styles(layout, fonts)
    title, heading, body, bullet = set_as.title, set_as.heading, set_as.body, set_as.bullet
    legend = Style(body.font, body.size, max(body.leading, rules.legend_symbol + rules.legend.gap), body.colour,
                   space_after=rules.legend.space_after, indent=rules.legend.indent)
    if edition == "duet":
        return _duet_story(messages, set_as, legend, credits)
    text = messages.rules
    variants = text.variants

    def blocks(values, style, **extra) -> list[Block]:
        return [Block(t, style, **extra) for t in (for_edition(v, edition) for v in values) if t is not None]

    flow = [Block(text.title, title, keep_with_next=True), Block(text.intro, body)]
    for section in text.sections:
        flow.append(Block(section.heading, heading, keep_with_next=True))
        flow += blocks(section.paragraphs, body)
        if section.id == "clues":
            flow += blocks([variants.zero_clue] if switches.zero_clue else [], body)
            flow += blocks([variants.unlimited_clue] if switches.unlimited_clue else [], body)
        if section.id == "guessing":
            flow += blocks([variants[f"plus_one_{switches.plus_one}"]], body)
    restrictions = blocks([variants[f"restriction_{name}"] for name in switches.restrictions], bullet,
                          bullet="\u2022")
    penalty = blocks([variants.invalid_clue_penalty] if switches.invalid_clue_penalty else [], body)
    if restrictions or penalty:
        flow.append(Block(variants.restrictions_heading, heading, keep_with_next=True))
        flow += restrictions + penalty
    flow.append(Block(messages.labels.key_cards, heading, keep_with_next=True))
    flow.append(Block(text.key_card_help_pictures if edition == "pictures" else text.key_card_help, body))
    for kind, key in (("R", "legend_red"), ("B", "legend_blue"), ("N", "legend_bystander"), ("A", "legend_assassin")):
        flow.append(Block(messages.labels[key], legend, kind=kind))
    flow.append(Block(messages.labels.tiles, heading, keep_with_next=True))
    flow.append(Block(text.tiles_help, body))
    if credits:
        flow.append(Block(messages.labels.credits, heading, keep_with_next=True))
        flow += [Block(line, set_as.credits) for line in credits]
    return flow


def _duet_story(messages, set_as, legend: Style, credits: tuple[str, ...]) -> list[Block]:
    """The duet edition's rules (docs/design.md §12): its own text, ``duet_rules``, with the
    legend of its key cells and the help for its key card, tiles and timer tokens; no variants."""
    text, labels = messages.duet_rules, messages.labels
    title, heading, body = set_as.title, set_as.heading, set_as.body
    flow = [Block(text.title, title, keep_with_next=True), Block(text.intro, body)]
    for section in text.sections:
        flow.append(Block(section.heading, heading, keep_with_next=True))
        flow += [Block(paragraph, body) for paragraph in section.paragraphs]
    flow.append(Block(labels.key_cards, heading, keep_with_next=True))
    flow.append(Block(text.key_card_help, body))
    for kind, key in (("G", "legend_green"), ("N", "legend_bystander"), ("A", "legend_assassin")):
        flow.append(Block(labels[key], legend, kind=kind))
    flow.append(Block(labels.tiles, heading, keep_with_next=True))
    flow.append(Block(text.tiles_help, body))
    flow.append(Block(labels.timer_tokens, heading, keep_with_next=True))
    flow.append(Block(text.tokens_help, body))
    if credits:
        flow.append(Block(labels.credits, heading, keep_with_next=True))
        flow += [Block(line, set_as.credits) for line in credits]
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
