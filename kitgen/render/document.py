"""Writing pages to PDF bytes with reportlab: one canvas per file."""

import io
from dataclasses import dataclass
from typing import Callable

from .. import __version__
from . import paint
from .cards import CardSet
from .sheet import Grid, Page, crop_marks, impose, paginate

DUPLEX_PREFERENCE = {"long": "DuplexFlipLongEdge", "short": "DuplexFlipShortEdge", "none": "Simplex"}


@dataclass(frozen=True)
class CardPart:
    cards: CardSet
    grid: Grid
    pages: tuple[Page, ...]


@dataclass(frozen=True)
class FreePart:
    """Pages drawn by a function (the rules sheet); it returns how many it drew."""

    name: str
    title: str
    draw: Callable[[object], int]


def card_part(cards: CardSet, layout, page_size, duplex: str) -> CardPart:
    marks = layout.marks
    grid = impose(page_size[0], page_size[1], layout.paper.margin, cards.spec, marks.crop_offset + marks.crop_length)
    return CardPart(cards, grid, tuple(paginate(cards.count, grid, duplex, backs=cards.back is not None)))


def _draw_cards(c, part: CardPart, layout, on_page=None) -> int:
    spec, marks = part.cards.spec, layout.marks
    mark_colour = paint.colour(layout, marks.colour)
    for page in part.pages:
        draw_face = part.cards.front if page.side == "front" else part.cards.back
        for index, placement in page.cards:
            c.saveState()
            c.translate(placement.x + placement.width / 2, placement.y + placement.height / 2)
            if placement.rotation:
                c.rotate(placement.rotation)
            c.translate(-spec.width / 2, -spec.height / 2)
            draw_face(c, index)
            c.restoreState()
        c.setStrokeColor(mark_colour)
        c.setLineWidth(marks.crop_width)
        c.lines(crop_marks(page, spec.bleed, marks.crop_offset, marks.crop_length))
        c.showPage()
        if on_page:
            on_page()
    return len(part.pages)


def render(parts, page_size, layout, fonts: dict[str, str], duplex: str, title: str, subject: str,
           on_page=None) -> tuple[bytes, list[int]]:
    """One PDF of all ``parts``; returns its bytes and the first page (1-based) of
    each part. In a duplex kit, each part starts on a new sheet."""
    from reportlab.pdfgen import canvas

    buffer = io.BytesIO()
    c = canvas.Canvas(buffer, pagesize=page_size, invariant=1, pageCompression=1,
                      initialFontName=fonts["label"], initialFontSize=10)
    c.setTitle(title)
    c.setSubject(subject)
    c.setAuthor("kitgen")
    c.setCreator(f"kitgen {__version__}")
    c.setViewerPreference("PrintScaling", "None")
    c.setViewerPreference("Duplex", DUPLEX_PREFERENCE[duplex])
    starts, page = [], 1
    for part in parts:
        starts.append(page)
        count = _draw_cards(c, part, layout, on_page) if isinstance(part, CardPart) else part.draw(c)
        if duplex != "none" and count % 2 and len(parts) > 1:
            c.showPage()          # a blank back, so the next part starts on a fresh sheet
            count += 1
        page += count
    c.save()
    return buffer.getvalue(), starts
