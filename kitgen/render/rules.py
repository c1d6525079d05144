"""The rules sheet: the kit's rules in its language, stating only the variants
the kit file switches on, with a legend of the key card's symbols."""

from xml.sax.saxutils import escape

from reportlab.lib.styles import ParagraphStyle
from reportlab.platypus import Flowable, Frame, Paragraph, Spacer

from .. import messages as messages_mod
from ..errors import KitgenError
from ..model import RuleSwitches
from . import paint, text as text_mod


class RtlParagraph(Flowable):
    """A right-to-left paragraph: words wrapped in logical order, each line shaped
    and set flush right (reportlab's Paragraph would wrap the shaped text the
    wrong way round)."""

    def __init__(self, content: str, style: ParagraphStyle, bullet: str = ""):
        super().__init__()
        self.content, self.style, self.bullet = content, style, bullet
        self.lines: list[str] = []

    def _wrap_lines(self, width: float) -> list[str]:
        lines, current = [], ""
        for word in self.content.split():
            candidate = f"{current} {word}" if current else word
            if current and text_mod.width(candidate, self.style.fontName, self.style.fontSize) > width:
                lines.append(current)
                current = word
            else:
                current = candidate
        return lines + ([current] if current else [])

    def wrap(self, avail_w, avail_h):
        self.width = avail_w
        indent = self.style.leftIndent
        self.lines = self._wrap_lines(avail_w - indent)
        self.height = len(self.lines) * self.style.leading
        return avail_w, self.height

    def getSpaceBefore(self):
        return self.style.spaceBefore

    def getSpaceAfter(self):
        return self.style.spaceAfter

    def split(self, avail_w, avail_h):
        self.wrap(avail_w, avail_h)
        fit = int(avail_h // self.style.leading)
        if fit <= 0 or fit >= len(self.lines):
            return []
        first = RtlParagraph(" ".join(self.lines[:fit]), self.style, self.bullet)
        rest = RtlParagraph(" ".join(self.lines[fit:]), self.style)
        return [first, rest]

    def draw(self):
        c, style = self.canv, self.style
        c.setFillColor(style.textColor)
        right = self.width - style.leftIndent
        for i, line in enumerate(self.lines):
            baseline = self.height - (i + 1) * style.leading + (style.leading - style.fontSize) / 2 + 1
            text_mod.draw_line(c, line, style.fontName, style.fontSize, right, baseline, "right")
        if self.bullet:
            text_mod.draw_line(c, self.bullet, style.fontName, style.fontSize, self.width,
                               self.height - style.leading + (style.leading - style.fontSize) / 2 + 1, "right")


class Legend(Flowable):
    """One key-card symbol on its type's colour, then what it means."""

    def __init__(self, layout, kind: str, label: str, style: ParagraphStyle, rtl: bool = False):
        super().__init__()
        self.layout, self.kind, self.style, self.rtl = layout, kind, style, rtl
        self.paragraph = RtlParagraph(label, style) if rtl else Paragraph(escape(label), style)
        self.size = layout.rules.legend_symbol


    def wrap(self, avail_w, avail_h):
        _, h = self.paragraph.wrap(avail_w - self.size * 1.6, avail_h)
        self.width = avail_w
        self.height = max(h, self.size) + 2
        return avail_w, self.height

    def draw(self):
        fill, mark = paint.type_colours(self.layout, self.kind)
        y = self.height - self.size - 1
        x = self.width - self.size if self.rtl else 0      # the symbol leads the line, on its reading side
        paint.fill_box(self.canv, (x, y, self.size, self.size), fill, self.size * 0.12)
        paint.symbol(self.canv, self.kind, x + self.size / 2, y + self.size / 2, self.size * 0.5, mark)
        self.paragraph.wrap(self.width - self.size * 1.6, 1e6)
        self.paragraph.drawOn(self.canv, 0 if self.rtl else self.size * 1.6, self.height - self.paragraph.height - 1)


def story(layout, fonts: dict[str, str], messages, switches: RuleSwitches, edition: str = "words",
          credits: tuple[str, ...] = ()) -> list:
    """The flowables of the rules sheet, in reading order."""
    rules = layout.rules
    ink = lambda name: paint.colour(layout, name)  # noqa: E731
    title = ParagraphStyle("title", fontName=fonts[rules.title.font], fontSize=rules.title.size,
                           leading=rules.title.size * 1.2, textColor=ink(rules.title.colour), spaceAfter=6)
    heading = ParagraphStyle("heading", fontName=fonts[rules.heading.font], fontSize=rules.heading.size,
                             leading=rules.heading.size * 1.25, textColor=ink(rules.heading.colour),
                             spaceBefore=6, spaceAfter=2)
    body = ParagraphStyle("body", fontName=fonts[rules.body.font], fontSize=rules.body.size,
                          leading=rules.body.leading, textColor=ink(rules.body.colour), spaceAfter=3)
    bullet = ParagraphStyle("bullet", parent=body, leftIndent=8, bulletIndent=0, bulletFontName=body.fontName)
    text = messages.rules
    variants = text.variants
    rtl = messages_mod.is_rtl(messages.language)

    def para(content: str, style=body):
        return RtlParagraph(content, style) if rtl else Paragraph(escape(content), style)

    flow = [para(text.title, title), para(text.intro)]
    for section in text.sections:
        flow.append(para(section.heading, heading))
        # a paragraph is the same for every edition, or one text per edition
        flow += [para(p if isinstance(p, str) else p[edition]) for p in section.paragraphs]
        if section.id == "clues":
            if switches.zero_clue:
                flow.append(para(variants.zero_clue))
            if switches.unlimited_clue:
                flow.append(para(variants.unlimited_clue))
        if section.id == "guessing":
            flow.append(para(variants[f"plus_one_{switches.plus_one}"]))
    if switches.restrictions or switches.invalid_clue_penalty:
        flow.append(para(variants.restrictions_heading, heading))
        for name in switches.restrictions:
            if rtl:
                flow.append(RtlParagraph(variants[f"restriction_{name}"], bullet, bullet="\u2022"))
            else:
                flow.append(Paragraph(escape(variants[f"restriction_{name}"]), bullet, bulletText="\u2022"))
        if switches.invalid_clue_penalty:
            flow.append(para(variants.invalid_clue_penalty))
    flow.append(para(messages.labels.key_cards, heading))
    flow.append(para(text.key_card_help_pictures if edition == "pictures" else text.key_card_help))
    for kind, key in (("R", "legend_red"), ("B", "legend_blue"), ("N", "legend_bystander"), ("A", "legend_assassin")):
        flow.append(Legend(layout, kind, messages.labels[key], body, rtl))
    flow.append(Spacer(1, 4))
    flow.append(para(messages.labels.tiles, heading))
    flow.append(para(text.tiles_help))
    if credits:
        flow.append(para(messages.labels.credits, heading))
        flow += [para(line) for line in credits]
    return flow


def draw(c, page_size, layout, fonts: dict[str, str], messages, switches: RuleSwitches, footer: str,
         edition: str = "words", credits: tuple[str, ...] = ()) -> int:
    """Draw the rules on as many pages as they need; returns the page count."""
    rules = layout.rules
    width, height = page_size
    margin, gap, columns = rules.margin, rules.column_gap, int(rules.columns)
    col_w = (width - 2 * margin - (columns - 1) * gap) / columns
    flow = story(layout, fonts, messages, switches, edition, credits)
    order = list(range(columns))
    if messages_mod.is_rtl(messages.language):
        order.reverse()                  # right-to-left text fills the right column first
    pages = 0
    while flow:
        pages += 1
        for col in order:
            frame = Frame(margin + col * (col_w + gap), margin, col_w, height - 2 * margin,
                          leftPadding=0, rightPadding=0, topPadding=0, bottomPadding=0, showBoundary=0)
            frame.addFromList(flow, c)
            if not flow:
                break
        c.setFillColor(paint.colour(layout, rules.body.colour))
        text_mod.draw_line(c, footer, fonts[rules.body.font], rules.body.size * 0.8, width / 2, margin / 2, "centre")
        c.showPage()
        if pages > 20:
            raise KitgenError("the rules text does not fit the pages; enlarge the paper or lower rules.margin")
    return pages
