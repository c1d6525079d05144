"""Rasterizing PDF pages for pixel and QR tests, and reading their characters where they stand
(pypdfium2: independent of reportlab)."""

import ctypes

import pypdfium2 as pdfium
import pypdfium2.raw as raw


def render_page(pdf, page_index: int, dpi: float):
    """Page ``page_index`` (0-based) of a PDF (path or bytes) as an RGB PIL image."""
    document = pdfium.PdfDocument(pdf)
    try:
        image = document[page_index].render(scale=dpi / 72).to_pil().convert("RGB")
    finally:
        document.close()
    return image


def pages_of(pdf, dpi: float):
    """A function from a page number (1-based) of ``pdf`` to its render at ``dpi``, each page rendered once."""
    pages = {}

    def page(number: int):
        if number not in pages:
            pages[number] = render_page(str(pdf), number - 1, dpi)
        return pages[number]
    return page


def page_chars(page) -> list[tuple[str, float, float, float]]:
    """A pdfium page's printed characters as pdfium reads them, in drawing order: (char, font size
    rounded to 0.01 pt, x, y of its origin on the baseline); spaces left out."""
    textpage = page.get_textpage()
    out = []
    for i in range(textpage.count_chars()):
        ch = chr(raw.FPDFText_GetUnicode(textpage.raw, i))
        if not ch.strip():
            continue
        x, y = ctypes.c_double(), ctypes.c_double()
        raw.FPDFText_GetCharOrigin(textpage.raw, i, ctypes.byref(x), ctypes.byref(y))
        out.append((ch, round(raw.FPDFText_GetFontSize(textpage.raw, i), 2), x.value, y.value))
    return out


def page_count(pdf) -> int:
    document = pdfium.PdfDocument(pdf)
    try:
        return len(document)
    finally:
        document.close()


def to_pixels(box, page_height: float, dpi: float):
    """A PDF box [x0, y0, x1, y1] (points, origin bottom-left) as image pixels (left, top, right, bottom)."""
    s = dpi / 72
    x0, y0, x1, y1 = box
    return (x0 * s, (page_height - y1) * s, x1 * s, (page_height - y0) * s)


def classify(rgb) -> str:
    """A sampled colour as a cell type: R, B, G (the duet edition's green), N (bystander beige),
    A (dark), or '?'."""
    r, g, b = rgb
    if max(rgb) < 90:
        return "A"
    if r - max(g, b) > 60:
        return "R"
    if b - max(r, g) > 40:
        return "B"
    if g - max(r, b) > 30:
        return "G"
    if max(rgb) - min(rgb) < 70 and max(rgb) > 150:
        return "N"
    return "?"
