"""Writing pages to PDF bytes with reportlab: one canvas per file."""

import io
from collections.abc import Callable
from dataclasses import dataclass

from ..errors import KitgenError
from . import paint
from .cards import CardSet
from .pdf import new_canvas
from .sheet import Grid, Page, crop_marks, impose, impose_fold, paginate

DUPLEX_PREFERENCE = {"long": "DuplexFlipLongEdge", "short": "DuplexFlipShortEdge", "none": "Simplex",
                     "fold": "Simplex"}
TWO_SIDED = ("long", "short")       # the duplex modes that print on both sides of the sheet


@dataclass(frozen=True)
class PrintOptions:
    """What a print shop or a careful home printer asks of the sheets."""

    back_offset: tuple[float, float] = (0.0, 0.0)   # points; backs move by this much
    cut_lines: bool = False                         # crop marks run the full margin
    slug: str | None = None                         # slug line text (page number appended) and registration marks


@dataclass(frozen=True)
class CardPart:
    cards: CardSet
    grid: Grid
    pages: tuple[Page, ...]


@dataclass(frozen=True)
class FreePart:
    """Pages drawn by a function (the rules sheet); it returns how many it drew. With
    ``blank_backs`` (sheets that are cut or glued, not read on both sides), in a two-sided
    document each page is followed by a blank page, its other side."""

    name: str
    title: str
    draw: Callable[[object], int]
    blank_backs: bool = False


def sheet_grid(layout, spec, page_size, fold: bool = False) -> Grid:
    """How cards of ``spec`` sit on a sheet of the layout, room kept for crop marks;
    with ``fold``, on one half of a gutter-fold sheet (§8.2)."""
    marks = layout.marks
    zone = marks.crop_offset + marks.crop_length
    if fold:
        return impose_fold(page_size[0], page_size[1], layout.paper.margin, spec, zone, marks.fold.gutter)
    return impose(page_size[0], page_size[1], layout.paper.margin, spec, zone)


def card_part(cards: CardSet, layout, page_size, duplex: str) -> CardPart:
    """A set of cards imposed on sheets: a card with a back on a gutter-fold sheet when
    ``duplex`` is ``fold`` (a card without one needs no fold)."""
    fold = duplex == "fold" and cards.back is not None
    grid = sheet_grid(layout, cards.spec, page_size, fold)
    return CardPart(cards, grid, tuple(paginate(cards.count, grid, duplex, backs=cards.back is not None)))


def registration_mark(c, x: float, y: float, radius: float):
    """A circle with a cross through it, for press registration."""
    c.circle(x, y, radius, stroke=1, fill=0)
    c.circle(x, y, radius / 2, stroke=1, fill=0)
    c.line(x - radius * 1.4, y, x + radius * 1.4, y)
    c.line(x, y - radius * 1.4, x, y + radius * 1.4)


def _proof_marks(c, page: Page, spec, layout, options: PrintOptions, number: int, page_size, fonts):
    """Slug line and registration marks in the margin, clear of cards and crop marks."""
    from . import text

    margin, slug = layout.paper.margin, layout.marks.slug
    rects = page.placements
    if not rects:
        return
    text.draw_line(c, f"{options.slug} \u00b7 page {number}", fonts[slug.font], slug.size, page_size[0] / 2,
                   margin + slug.rise, "centre")
    first = max(rects, key=lambda p: (p.y, -p.x))
    mid_y = first.y + first.height / 2
    mid_x = first.x + first.width / 2
    left = min(p.x for p in rects) - spec.bleed
    right = max(p.x + p.width for p in rects) + spec.bleed
    top = max(p.y + p.height for p in rects) + spec.bleed
    radius = layout.marks.registration
    for x, y in ((left - radius * 2, mid_y), (right + radius * 2, mid_y), (mid_x, top + radius * 2)):
        inside = radius * 1.4
        if margin + inside < x < page_size[0] - margin - inside and y < page_size[1] - margin - inside:
            registration_mark(c, x, y, radius)


_TURNS = {0: (1, 0), 90: (0, 1), 180: (-1, 0), 270: (0, -1)}      # cos, sin of each quarter turn


def _placed(placement, spec) -> tuple[float, ...]:
    """The one matrix that puts the upright card's origin (its trim's bottom-left) where
    ``placement`` puts it: turned by its rotation about the placement's centre."""
    cos, sin = _TURNS[placement.rotation % 360]
    cx, cy = placement.x + placement.width / 2, placement.y + placement.height / 2
    hw, hh = spec.width / 2, spec.height / 2
    return cos, sin, -sin, cos, cx - hw * cos + hh * sin, cy - hw * sin - hh * cos


def _fold_line(c, grid: Grid, layout):
    """A gutter-fold sheet's fold line: dashed, across the printable area through the
    middle of the gap between the fronts and the backs (§8.2)."""
    fold, margin = grid.fold, layout.paper.margin
    style = layout.marks.fold
    c.saveState()
    c.setLineWidth(style.width)
    c.setDash(style.dash, style.dash)
    if fold.axis == "x":
        c.line(fold.position, margin, fold.position, grid.page_height - margin)
    else:
        c.line(margin, fold.position, grid.page_width - margin, fold.position)
    c.restoreState()


def _draw_cards(c, part: CardPart, layout, on_page=None, options: PrintOptions = PrintOptions(),
                first_page: int = 1, fonts=None) -> int:
    spec, marks = part.cards.spec, layout.marks
    mark_colour = paint.colour(layout, marks.colour)
    page_size = (part.grid.page_width, part.grid.page_height)
    for number, page in enumerate(part.pages, first_page):
        draw_face = part.cards.back if page.side == "back" else part.cards.front
        c.saveState()
        if page.side == "back" and options.back_offset != (0.0, 0.0):
            c.translate(*options.back_offset)       # against the printer's duplex misregistration
        for draw, placed in ((draw_face, page.cards), (part.cards.back, page.backs)):    # a fold page has both
            for index, placement in placed:
                c.saveState()
                c.transform(*_placed(placement, spec))
                draw(c, index)
                c.restoreState()
        c.setStrokeColor(mark_colour)
        c.setFillColor(mark_colour)
        c.setLineWidth(marks.crop_width)
        c.lines(crop_marks(page, spec.bleed, marks.crop_offset, marks.crop_length,
                           page_size, layout.paper.margin if options.cut_lines else None))
        if page.side == "fold":
            _fold_line(c, part.grid, layout)
        if options.slug:
            _proof_marks(c, page, spec, layout, options, number, page_size, fonts)
        c.restoreState()
        c.showPage()
        if on_page:
            on_page()
    return len(part.pages)


def _with_blank_backs(c, draw: Callable[[object], int]) -> int:
    """``draw``'s pages, each followed by a blank page (as a part with an odd page count is, below):
    every page it ends is shown, then its blank back. Returns the pages, backs included."""
    show = c.showPage

    def front_and_back():
        show()
        show()

    c.showPage = front_and_back
    try:
        return 2 * draw(c)
    finally:
        del c.showPage


def render(parts, page_size, layout, fonts: dict[str, str], duplex: str, title: str, subject: str,
           on_page=None, options: PrintOptions = PrintOptions()) -> tuple[bytes, list[int]]:
    """One PDF of all ``parts``; returns its bytes and the first page (1-based) of
    each part. In a duplex kit, each part starts on a new sheet."""
    if duplex == "fold" and options.back_offset != (0.0, 0.0):
        raise KitgenError("--back-offset is for a duplex printer's misregistration; a gutter-fold sheet "
                          "(--duplex fold) prints fronts and backs on one side and needs none")
    buffer = io.BytesIO()
    c = new_canvas(buffer, page_size, fonts, title=title, cmyk=paint.is_cmyk(layout))
    c.setSubject(subject)
    c.setAuthor("kitgen")
    c.setViewerPreference("Duplex", DUPLEX_PREFERENCE[duplex])
    starts, page = [], 1
    for part in parts:
        starts.append(page)
        if isinstance(part, CardPart):
            count = _draw_cards(c, part, layout, on_page, options, page, fonts)
        elif part.blank_backs and duplex in TWO_SIDED:
            count = _with_blank_backs(c, part.draw)
        else:
            count = part.draw(c)
        if duplex in TWO_SIDED and count % 2 and len(parts) > 1:
            c.showPage()          # a blank back, so the next part starts on a fresh sheet
            count += 1
        page += count
    c.save()
    return buffer.getvalue(), starts
