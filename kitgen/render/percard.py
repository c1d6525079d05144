"""One card face per page, for print shops: each page is the card with its
bleed, with TrimBox and BleedBox set; fronts and backs alternate (front 1,
back 1, front 2, ...). Also every face as PNG, with and without bleed."""

import io

from . import paint
from .cards import CardSet
from .pdf import new_canvas


def render(cards: CardSet, layout, fonts: dict[str, str], title: str) -> bytes:
    spec = cards.spec
    b = spec.bleed
    size = (spec.width + 2 * b, spec.height + 2 * b)
    buffer = io.BytesIO()
    c = new_canvas(buffer, size, fonts, title=title, cmyk=paint.is_cmyk(layout))
    c.setTrimBox((b, b, b + spec.width, b + spec.height))
    c.setBleedBox((0, 0, size[0], size[1]))
    for index in range(cards.count):
        for draw in (cards.front, cards.back):
            if draw is None:
                continue
            c.saveState()
            c.translate(b, b)
            draw(c, index)
            c.restoreState()
            c.showPage()
    c.save()
    return buffer.getvalue()


def pngs(pdf: bytes, cards: CardSet, dpi: int, folder: str) -> list[tuple[str, bytes]]:
    """Every face as PNG at ``dpi``: ``NNN-front.png`` with its bleed and
    ``NNN-front-trim.png`` cut to the trim."""
    import pypdfium2 as pdfium

    document = pdfium.PdfDocument(pdf)
    bleed_px = round(cards.spec.bleed * dpi / 72)
    sides = ("front", "back") if cards.back is not None else ("front",)
    out = []
    try:
        for page_index in range(len(document)):
            number, side = divmod(page_index, len(sides))
            image = document[page_index].render(scale=dpi / 72).to_pil()
            name = f"{folder}/{number + 1:03d}-{sides[side]}"
            for suffix, picture in (("", image), ("-trim", image.crop(
                    (bleed_px, bleed_px, image.width - bleed_px, image.height - bleed_px)))):
                buffer = io.BytesIO()
                picture.save(buffer, "PNG", optimize=False)
                out.append((f"{name}{suffix}.png", buffer.getvalue()))
    finally:
        document.close()
    return out
