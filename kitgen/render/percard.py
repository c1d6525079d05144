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


def files(card_sets: dict, layout, fonts: dict[str, str], kit_name: str, per_card: bool, png_dpi, progress) -> list:
    """``<part>-cards.pdf`` (one face a page) for each card set when ``per_card``, and every
    face as PNG (``png/<part>/...``) at ``png_dpi`` when given."""
    from kitgen.output import BuiltFile

    if not per_card and not png_dpi:
        return []
    out = []
    for name, cards in card_sets.items():
        data = render(cards, layout, fonts, f"{kit_name}: {cards.title}")
        if per_card:
            out.append(BuiltFile(f"{name}-cards.pdf", data, cards.count * (2 if cards.back else 1)))
        if png_dpi:
            progress.note(f"writing {name} faces as PNG at {png_dpi} dpi")
            out += [BuiltFile(path, png, 0) for path, png in pngs(data, cards, png_dpi, f"png/{name}")]
    return out


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
