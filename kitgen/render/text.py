"""Text that must fit its box: size search, glyph checks, drawing."""

from dataclasses import dataclass

from reportlab.pdfbase import pdfmetrics

from .. import fonts

SIZE_STEP = 0.25   # sizes are multiples of this, so output is stable


@dataclass(frozen=True)
class Fit:
    text: str
    size: float          # chosen size in points; below min_size when it does not fit
    fits: bool
    missing: str         # characters the font lacks


def apply_case(text: str, case: str) -> str:
    return text.upper() if case == "upper" else text


def fit(text: str, font: str, box_w: float, box_h: float, max_size: float, min_size: float) -> Fit:
    """The largest size up to ``max_size`` at which ``text`` fits the box on one line."""
    face = pdfmetrics.getFont(font).face
    width = pdfmetrics.stringWidth(text, font, 1.0)
    height = (face.ascent - face.descent) / 1000.0
    size = min(max_size, box_w / width if width else max_size, box_h / height)
    size = int(size / SIZE_STEP) * SIZE_STEP
    missing = "".join(sorted({ch for ch in text if not fonts.has_glyph(font, ch)}))
    return Fit(text, size, size >= min_size and not missing, missing)


def draw(c, text: str, font: str, size: float, box, fill, rotate180: bool = False):
    """Draw ``text`` centred in ``box`` (x, y, w, h); turned 180 degrees about the
    box centre when ``rotate180`` (for the far side of the table)."""
    x, y, w, h = box
    face = pdfmetrics.getFont(font).face
    c.saveState()
    c.translate(x + w / 2, y + h / 2)
    if rotate180:
        c.rotate(180)
    c.setFillColor(fill)
    c.setFont(font, size)
    # centre on the capital height, so upper-case words sit visually in the middle
    c.drawCentredString(0, -face.capHeight / 1000.0 * size / 2, text)
    c.restoreState()
