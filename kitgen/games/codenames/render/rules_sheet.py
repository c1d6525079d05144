"""The rules sheet: the kit's rules in its language, stating only the variants
the kit file switches on, with a legend of the key card's symbols.

Set by a small column layout of its own rather than reportlab's platypus:
words wrap in logical order and each line is shaped on its own, which is what
right-to-left text needs, and the build does not pay for importing platypus."""

from dataclasses import dataclass

from kitgen import messages as messages_mod
from kitgen.errors import KitgenError
from kitgen.games.codenames.model import RuleSwitches
from kitgen.render import paint, text as text_mod


@dataclass(frozen=True)
class Style:
    font: str
    size: float
    leading: float
    colour: object
    space_before: float = 0.0
    space_after: float = 0.0
    indent: float = 0.0


@dataclass(frozen=True)
class Block:
    """A paragraph (with an optional bullet) or, with ``kind``, a legend line."""

    content: str
    style: Style
    bullet: str = ""
    kind: str = ""              # R, B, N, A: a key-card symbol leads the line


def wrap(content: str, style: Style, width: float) -> list[str]:
    """Words in logical order, as many to a line as fit ``width``."""
    lines, current = [], ""
    for word in content.split():
        candidate = f"{current} {word}" if current else word
        if current and text_mod.width(candidate, style.font, style.size) > width:
            lines.append(current)
            current = word
        else:
            current = candidate
    return lines + ([current] if current else [])


def story(layout, fonts: dict[str, str], messages, switches: RuleSwitches, edition: str = "words",
          credits: tuple[str, ...] = ()) -> list[Block]:
    """The blocks of the rules sheet, in reading order."""
    rules = layout.rules
    ink = lambda name: paint.colour(layout, name)  # noqa: E731

    def style(spec, indent: float = 0.0) -> Style:
        return Style(fonts[spec.font], spec.size, spec.leading, ink(spec.colour), spec.space_before,
                     spec.space_after, indent)

    title, heading, body = style(rules.title), style(rules.heading), style(rules.body)
    bullet = style(rules.body, rules.bullet_indent)
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
    rules = layout.rules
    width, height = page_size
    margin, gap, columns = rules.margin, rules.column_gap, int(rules.columns)
    col_w = (width - 2 * margin - (columns - 1) * gap) / columns
    rtl = messages_mod.is_rtl(messages.language)
    order = list(range(columns))[::-1] if rtl else list(range(columns))     # right-to-left fills the right first
    lines = []                                  # (block, line text, first line of its block, last line)
    for block in story(layout, fonts, messages, switches, edition, credits):
        wrapped = wrap(block.content, block.style, col_w - block.style.indent)
        lines += [(block, line, i == 0, i == len(wrapped) - 1) for i, line in enumerate(wrapped)]
    pages, slot, y = 1, 0, height - margin
    for block, line, first, last in lines:
        style = block.style
        if first and y < height - margin:
            y -= style.space_before
        if y - style.leading < margin:          # the column is full: the next one, or a new page
            slot += 1
            y = height - margin
            if slot == columns:
                _footer(c, layout, fonts, footer, page_size)
                c.showPage()
                pages, slot = pages + 1, 0
                if pages > rules.max_pages:
                    raise KitgenError("the rules text does not fit the pages; enlarge the paper or lower "
                                      "rules.margin")
        left = margin + order[slot] * (col_w + gap)
        y -= style.leading
        baseline = y + (style.leading - style.size) / 2 + rules.baseline_rise
        c.setFillColor(style.colour)
        if rtl:
            text_mod.draw_line(c, line, style.font, style.size, left + col_w - style.indent, baseline, "right")
        else:
            text_mod.draw_line(c, line, style.font, style.size, left + style.indent, baseline, "left")
        if first and block.bullet:
            bullet_x = left + col_w if rtl else left
            text_mod.draw_line(c, block.bullet, style.font, style.size, bullet_x, baseline, "right" if rtl else "left")
        if first and block.kind:
            size, legend = rules.legend_symbol, rules.legend
            x = left + col_w - size if rtl else left
            fill, mark = paint.type_colours(layout, block.kind)
            paint.fill_box(c, (x, y + legend.rise, size, size), fill, legend.radius)
            paint.symbol(c, block.kind, x + size / 2, y + legend.rise + size / 2, size * legend.symbol, mark)
        if last:
            y -= style.space_after
    _footer(c, layout, fonts, footer, page_size)
    c.showPage()
    return pages


def _footer(c, layout, fonts, footer: str, page_size):
    rules = layout.rules
    c.setFillColor(paint.colour(layout, rules.body.colour))
    text_mod.draw_line(c, footer, fonts[rules.body.font], rules.footer.size, page_size[0] / 2, rules.footer.y,
                       "centre")
