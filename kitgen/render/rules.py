"""The rules sheet: the kit's rules in its language, stating only the variants
the kit file switches on, with a legend of the key card's symbols."""

from xml.sax.saxutils import escape

from reportlab.lib.styles import ParagraphStyle
from reportlab.platypus import Flowable, Frame, Paragraph, Spacer

from ..errors import KitgenError
from ..model import RuleSwitches
from . import paint


class Legend(Flowable):
    """One key-card symbol on its type's colour, then what it means."""

    def __init__(self, layout, kind: str, label: str, style: ParagraphStyle):
        super().__init__()
        self.layout, self.kind, self.style = layout, kind, style
        self.paragraph = Paragraph(escape(label), style)
        self.size = layout.rules.legend_symbol

    def wrap(self, avail_w, avail_h):
        _, h = self.paragraph.wrap(avail_w - self.size * 1.6, avail_h)
        self.height = max(h, self.size) + 2
        return avail_w, self.height

    def draw(self):
        fill, mark = paint.type_colours(self.layout, self.kind)
        y = self.height - self.size - 1
        paint.fill_box(self.canv, (0, y, self.size, self.size), fill, self.size * 0.12)
        paint.symbol(self.canv, self.kind, self.size / 2, y + self.size / 2, self.size * 0.5, mark)
        _, h = self.paragraph.wrap(1e6, 1e6)
        self.paragraph.drawOn(self.canv, self.size * 1.6, self.height - self.paragraph.height - 1)


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
    para = lambda s, style=body: Paragraph(escape(s), style)  # noqa: E731

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
            flow.append(Paragraph(escape(variants[f"restriction_{name}"]), bullet, bulletText="\u2022"))
        if switches.invalid_clue_penalty:
            flow.append(para(variants.invalid_clue_penalty))
    flow.append(para(messages.labels.key_cards, heading))
    flow.append(para(text.key_card_help_pictures if edition == "pictures" else text.key_card_help))
    for kind, key in (("R", "legend_red"), ("B", "legend_blue"), ("N", "legend_bystander"), ("A", "legend_assassin")):
        flow.append(Legend(layout, kind, messages.labels[key], body))
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
    pages = 0
    while flow:
        pages += 1
        for col in range(columns):
            frame = Frame(margin + col * (col_w + gap), margin, col_w, height - 2 * margin,
                          leftPadding=0, rightPadding=0, topPadding=0, bottomPadding=0, showBoundary=0)
            frame.addFromList(flow, c)
            if not flow:
                break
        c.setFont(fonts[rules.body.font], rules.body.size * 0.8)
        c.setFillColor(paint.colour(layout, rules.body.colour))
        c.drawCentredString(width / 2, margin / 2, footer)
        c.showPage()
        if pages > 20:
            raise KitgenError("the rules text does not fit the pages; enlarge the paper or lower rules.margin")
    return pages
