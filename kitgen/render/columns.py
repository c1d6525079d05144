"""Text set in columns, a line at a time, for rules sheets and player aids.

A small column layout of kitgen's own rather than reportlab's platypus: words wrap
in logical order and each line is shaped on its own, which is what right-to-left
text needs, and a build does not pay for importing platypus. Every size is the
layout's ``rules`` section (docs/design.md §6.3)."""

import re
from dataclasses import dataclass, replace

from kitgen.errors import KitgenError
from kitgen.render import breaks, paint, text as text_mod


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
    keep_with_next: bool = False    # a heading: never the last thing in a column
    # a figure: no text, one "line" its style's leading high, drawn by ``figure(c, x, y, width, height)``
    # (the figure's bottom-left corner, the column's width); never closed up by ``squeezed``
    figure: object = None


@dataclass(frozen=True)
class Styles:
    """The layout's ``rules`` styles, ready to set: title, heading, body, bulleted body and credits."""

    title: Style
    heading: Style
    body: Style
    bullet: Style
    credits: Style


def styles(layout, fonts: dict[str, str]) -> Styles:
    rules = layout.rules

    def style(spec, indent: float = 0.0) -> Style:
        return Style(fonts[spec.font], spec.size, spec.leading, paint.colour(layout, spec.colour), spec.space_before,
                     spec.space_after, indent)

    return Styles(style(rules.title), style(rules.heading), style(rules.body), style(rules.body, rules.bullet_indent),
                  style(rules.credits))


# a line may break at any white space but a no-break one (French « mot » and « ; », 10 000): those stay
# inside the word they join
_BREAKS = re.compile("[^\\S\u00a0\u202f\u2007\u2060]+")


def wrap(content: str, style: Style, width: float) -> list[str]:
    """Words in logical order, as many to a line as fit ``width``; a paragraph of more than
    one line does not end on a lone word (the line before gives it its last word). Lines
    are measured by adding up their words' widths (``text.fits``). Text without spaces between
    its words (Chinese, Japanese, Thai) may also break inside a word (``breaks.pieces``)."""
    words = _BREAKS.split(content.strip()) if content.strip() else []
    split = [breaks.pieces(word) for word in words]
    if any(len(parts) > 1 for parts in split):
        return _wrap_pieces(split, style, width)
    lines: list[list[str]] = []
    current: list[str] = []
    for word in words:
        if current and not text_mod.fits(current + [word], style.font, style.size, width):
            lines.append(current)
            current = [word]
        else:
            current.append(word)
    lines += [current] if current else []
    if len(lines) > 1 and len(lines[-1]) == 1:
        before, last = lines[-2], [lines[-2][-1], lines[-1][0]]
        if len(before) > 2 and text_mod.fits(last, style.font, style.size, width):
            lines[-2:] = [before[:-1], last]
    return [" ".join(line) for line in lines]


def _wrap_pieces(words: list[list[str]], style: Style, width: float) -> list[str]:
    """``wrap`` for words some of which break inside: as many pieces to a line as fit, each line
    measured from its pieces' advances (whole near the width, as ``text.fits`` does); a space stands
    between words, none between the pieces of one. A paragraph does not end on a lone piece (a single
    character, a Thai word) where the line before can give it one."""
    lines: list[list[tuple[str, str]]] = []        # each line's pieces, each with what joins it to the one before
    current: list[tuple[str, str]] = []
    estimate = 0.0
    for parts in words:
        for i, piece in enumerate(parts):
            joint = " " if current and i == 0 else ""
            added = estimate + _joint(current, joint, style) + text_mod.width(piece, style.font, style.size)
            if current and _too_wide(current + [(joint, piece)], added, style, width):
                lines.append(current)
                current, estimate = [(joint, piece)], text_mod.width(piece, style.font, style.size)
            else:
                current, estimate = current + [(joint, piece)], added
    lines += [current] if current else []
    if len(lines) > 1 and len(lines[-1]) == 1 and len(lines[-2]) > 2:
        moved = [lines[-2][-1], lines[-1][0]]
        if text_mod.width(_text(moved), style.font, style.size) <= width:
            lines[-2:] = [lines[-2][:-1], moved]
    return [_text(line) for line in lines]


def _text(line: list[tuple[str, str]]) -> str:
    """A line's text: its pieces and what joins them (not what joined its first to the line before)."""
    return line[0][1] + "".join(joint + piece for joint, piece in line[1:]) if line else ""


def _joint(current, joint: str, style: Style) -> float:
    """The advance a space adds after the line's last word: it is drawn in that word's font."""
    if not joint:
        return 0.0
    last = _text(current).rsplit(" ", 1)[-1]
    return text_mod.width(last + " ", style.font, style.size) - text_mod.width(last, style.font, style.size)


def _too_wide(line, estimate: float, style: Style, width: float) -> bool:
    if abs(estimate - width) > text_mod.CONTEXT_EMS * style.size:
        return estimate > width
    return text_mod.width(_text(line), style.font, style.size) > width


KEEP = 2     # a paragraph's first lines, and its last, stand at least this many together in a column


def _run(lines, index: int) -> int:
    """How many lines of the block of line ``index`` there are from it on."""
    block, count = lines[index][0], 0
    while index + count < len(lines) and lines[index + count][0] is block:
        count += 1
    return count


def _kept(lines, index: int) -> int:
    """How many lines from ``index`` must stand in one column with it: a paragraph's first
    lines (no orphan at a column's foot), its last two (no widow at a column's head), and a
    heading with the start of what follows it."""
    block, _, first, _ = lines[index]
    ahead = _run(lines, index)
    if first and block.keep_with_next and index + ahead < len(lines):
        return ahead + _kept(lines, index + ahead)          # headings in a row hold together too
    if first:
        return ahead if ahead < 2 * KEEP else KEEP           # too short to split without an orphan or a widow
    return KEEP if ahead == KEEP else 1


def _height(lines, index: int, count: int, at_top: bool) -> float:
    """The room ``count`` lines from ``index`` take, with the space around their blocks."""
    total = 0.0
    for offset in range(count):
        block, _, first, last = lines[index + offset]
        if first and not (at_top and offset == 0):
            total += block.style.space_before
        total += block.style.leading
        if last and offset < count - 1:
            total += block.style.space_after
    return total


def place(lines, room: float) -> list[tuple[int, float]]:
    """Each line's column (counted through the pages) and its top, as a drop from the
    column's top, in columns ``room`` high: a column ends where the next line does not fit
    or where what must stand together (``_kept``) would not. A figure that does not fit where
    it falls floats, with its title and its caption (``_float``), to the top of the next
    column, and the text after it fills the column first."""
    placed: list = [None] * len(lines)
    queue = list(range(len(lines)))[::-1]          # a stack: the next line to place is the last
    column, y, held = 0, 0.0, None
    while queue:
        index = queue.pop()
        block, _, first, last = lines[index]
        if y > 0 and y + _height(lines, index, _kept(lines, index), at_top=False) > room:
            group = _float(lines, index, room) if held is None else None
            if group:
                held = group
                del queue[len(queue) - len(group) + 1:]
                continue
            column, y = column + 1, 0.0
            if held is not None:
                queue.append(index)
                queue += held[::-1]
                held = None
                continue
        if first and y > 0:
            y += block.style.space_before
        placed[index] = (column, y)
        y += block.style.leading
        if last:
            y += block.style.space_after
        if not queue and held is not None:           # the text ended before the column did
            queue, held, column, y = held[::-1], None, column + 1, 0.0
    return placed


def _float(lines, index: int, room: float) -> list[int]:
    """The lines that float together from ``index`` when what must stand with it holds a figure:
    a title, the figure and the whole of the block after it (its caption); none when there is no
    figure or they would not fit one column."""
    count = _kept(lines, index)
    if not any(lines[index + k][0].figure is not None for k in range(count)):
        return []
    end = index + count
    while end < len(lines) and not lines[end - 1][3]:            # to the end of the caption's block
        end += 1
    if _height(lines, index, end - index, at_top=True) > room:
        return []
    return list(range(index, end))


def page_count(placed, columns: int) -> int:
    """The pages that lines ``place``d in columns of ``columns`` to a page fill."""
    return max(column for column, _ in placed) // columns + 1 if placed else 1


def balanced(lines, room: float, columns: int) -> list[tuple[int, float]]:
    """``place`` on as few pages as the text needs; when that is more than one, its columns
    are filled evenly (the shortest column height that keeps the page count), so the last
    page is laid out on purpose, never a stub of a sentence or two."""
    placed = place(lines, room)
    pages = page_count(placed, columns)
    if pages == 1:
        return placed
    low, high = room / 2, room
    for _ in range(20):                     # the least column height that still needs only ``pages`` pages
        middle = (low + high) / 2
        if page_count(place(lines, middle), columns) > pages:
            low = middle
        else:
            high = middle
    return place(lines, high)


SQUEEZE_STEP = 0.01


def squeezed(lines, room: float, columns: int, least: float):
    """``lines`` on fewer pages, if closing up their leading and the space around their paragraphs
    by a share of at most ``1 - least`` (in steps of ``SQUEEZE_STEP``; the type keeps its size)
    does it: the lines with their blocks so set, the least closed up that saves a page; else
    ``lines`` as they are."""
    pages = page_count(place(lines, room), columns)
    share = 1.0 - SQUEEZE_STEP
    while pages > 1 and share >= least - 1e-9:
        styles: dict[int, Style] = {}
        blocks: dict[int, Block] = {}
        for block, *_ in lines:
            if block.figure is not None:             # a drawing keeps its height
                blocks.setdefault(id(block), block)
                continue
            style = styles.setdefault(id(block.style), replace(
                block.style, leading=block.style.leading * share, space_before=block.style.space_before * share,
                space_after=block.style.space_after * share))
            blocks.setdefault(id(block), replace(block, style=style))
        tighter = [(blocks[id(block)], *rest) for block, *rest in lines]
        if page_count(place(tighter, room), columns) < pages:
            return tighter
        share -= SQUEEZE_STEP
    return lines


def column_width(layout, page_size) -> float:
    """The width of a column of the layout's ``rules`` on ``page_size``, as ``set_text`` sets it."""
    rules = layout.rules
    columns = int(rules.columns)
    return (page_size[0] - 2 * rules.margin - (columns - 1) * rules.column_gap) / columns


def set_text(c, page_size, layout, fonts: dict[str, str], blocks, footer: str, rtl: bool, draw_mark=None,
             squeeze: float = 1.0) -> int:
    """Set ``blocks`` in the layout's ``rules`` columns on as many pages as they need (right
    column first when ``rtl``; with ``squeeze`` below 1, a text a little over a page closed up
    onto fewer, ``squeezed``; a text of more than one page in balanced columns), a footer on
    each; returns the page count. A block with a ``kind`` is led by ``draw_mark(c, kind, x, y,
    size)``, a mark in a cell of ``size``; a block with a ``figure`` is that drawing, its style's
    leading high and the column wide."""
    rules = layout.rules
    width, height = page_size
    margin, gap, columns = rules.margin, rules.column_gap, int(rules.columns)
    col_w = (width - 2 * margin - (columns - 1) * gap) / columns
    order = list(range(columns))[::-1] if rtl else list(range(columns))     # right-to-left fills the right first
    lines = []                                  # (block, line text, first line of its block, last line)
    for block in blocks:
        wrapped = [""] if block.figure is not None else wrap(block.content, block.style, col_w - block.style.indent)
        lines += [(block, line, i == 0, i == len(wrapped) - 1) for i, line in enumerate(wrapped)]
    lines = squeezed(lines, height - 2 * margin, columns, squeeze)
    placed = balanced(lines, height - 2 * margin, columns)
    pages = page_count(placed, columns)
    if pages > rules.max_pages:
        raise KitgenError("the rules text does not fit the pages; enlarge the paper or lower rules.margin")
    page = 0
    sequence = sorted(range(len(lines)), key=lambda i: placed[i][0])     # a floated figure: drawn in its column
    for (block, line, first, _), (column, drop) in ((lines[i], placed[i]) for i in sequence):
        style = block.style
        if column // columns > page:
            _footer(c, layout, fonts, footer, page_size)
            c.showPage()
            page = column // columns
        left = margin + order[column % columns] * (col_w + gap)
        y = height - margin - drop - style.leading
        if block.figure is not None:
            block.figure(c, left, y, col_w, style.leading)
            continue
        baseline = y + (style.leading - style.size) / 2 + rules.baseline_rise
        c.setFillColor(style.colour)
        if rtl:
            text_mod.draw_line(c, line, style.font, style.size, left + col_w - style.indent, baseline, "right",
                               rtl=True)
        else:
            text_mod.draw_line(c, line, style.font, style.size, left + style.indent, baseline, "left")
        if first and block.bullet:
            bullet_x = left + col_w if rtl else left
            text_mod.draw_line(c, block.bullet, style.font, style.size, bullet_x, baseline, "right" if rtl else "left",
                               rtl=rtl)
        if first and block.kind and draw_mark is not None:
            size = rules.legend_symbol
            draw_mark(c, block.kind, left + col_w - size if rtl else left, y + rules.legend.rise, size)
    _footer(c, layout, fonts, footer, page_size)
    c.showPage()
    return pages


def _footer(c, layout, fonts, footer: str, page_size):
    rules = layout.rules
    c.setFillColor(paint.colour(layout, rules.body.colour))
    text_mod.draw_line(c, footer, fonts[rules.body.font], rules.footer.size, page_size[0] / 2, rules.footer.y,
                       "centre")
