"""Text set in columns, a line at a time, for rules sheets and player aids.

A small column layout of kitgen's own rather than reportlab's platypus: words wrap
in logical order and each line is shaped on its own, which is what right-to-left
text needs, and a build does not pay for importing platypus. Every size is the
layout's ``rules`` section (docs/design.md §6.3)."""

from dataclasses import dataclass

from kitgen.errors import KitgenError
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
    kind: str = ""              # a mark (drawn by the caller's draw_mark) leads the line


@dataclass(frozen=True)
class Styles:
    """The layout's ``rules`` styles, ready to set: title, heading, body and bulleted body."""

    title: Style
    heading: Style
    body: Style
    bullet: Style


def styles(layout, fonts: dict[str, str]) -> Styles:
    rules = layout.rules

    def style(spec, indent: float = 0.0) -> Style:
        return Style(fonts[spec.font], spec.size, spec.leading, paint.colour(layout, spec.colour), spec.space_before,
                     spec.space_after, indent)

    return Styles(style(rules.title), style(rules.heading), style(rules.body), style(rules.body, rules.bullet_indent))


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


def set_text(c, page_size, layout, fonts: dict[str, str], blocks, footer: str, rtl: bool, draw_mark=None) -> int:
    """Set ``blocks`` in the layout's ``rules`` columns on as many pages as they need (right
    column first when ``rtl``), a footer on each; returns the page count. A block with a
    ``kind`` is led by ``draw_mark(c, kind, x, y, size)``, a mark in a cell of ``size``."""
    rules = layout.rules
    width, height = page_size
    margin, gap, columns = rules.margin, rules.column_gap, int(rules.columns)
    col_w = (width - 2 * margin - (columns - 1) * gap) / columns
    order = list(range(columns))[::-1] if rtl else list(range(columns))     # right-to-left fills the right first
    lines = []                                  # (block, line text, first line of its block, last line)
    for block in blocks:
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
        if first and block.kind and draw_mark is not None:
            size = rules.legend_symbol
            draw_mark(c, block.kind, left + col_w - size if rtl else left, y + rules.legend.rise, size)
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
