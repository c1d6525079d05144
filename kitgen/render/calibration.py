"""A duplex calibration sheet: the front carries a cross at the page centre, the
back two rulers. Printed double-sided and held to the light, the cross on the
front falls on each ruler at the value to give as --back-offset X,Y (mm): a
tick labelled v is drawn v mm from the centre, in the back page's own
coordinates, which is exactly the shift that puts backs where they belong."""

import io

from .. import __version__
from ..units import mm
from . import paint, text

SPAN = 10          # mm either side of the centre


def render(page_size, layout, fonts: dict[str, str], messages, duplex: str) -> bytes:
    from reportlab.pdfgen import canvas

    from .document import DUPLEX_PREFERENCE

    width, height = page_size
    cx, cy = width / 2, height / 2
    buffer = io.BytesIO()
    c = canvas.Canvas(buffer, pagesize=page_size, invariant=1, initialFontName=fonts["label"], initialFontSize=9)
    c.setCreator(f"kitgen {__version__}")
    c.setViewerPreference("PrintScaling", "None")
    c.setViewerPreference("Duplex", DUPLEX_PREFERENCE[duplex])
    ink = paint.colour(layout, "ink")
    labels = messages.labels
    # front: a cross through the centre
    c.setStrokeColor(ink)
    c.setFillColor(ink)
    c.setLineWidth(0.35)
    c.line(cx, cy - mm(40), cx, cy + mm(40))
    c.line(cx - mm(40), cy, cx + mm(40), cy)
    text.draw_line(c, labels.calibrate_front, fonts["label"], 10, cx, cy + mm(55), "centre")
    c.showPage()
    # back: rulers along both axes, labelled with the offset to use
    c.setStrokeColor(ink)
    c.setFillColor(ink)
    for step in range(-2 * SPAN, 2 * SPAN + 1):
        value = step / 2
        major = step % 2 == 0
        length = mm(5 if major else 2.5)
        c.setLineWidth(0.3 if major else 0.2)
        c.line(cx + mm(value), cy + mm(12), cx + mm(value), cy + mm(12) + length)      # X ruler, above the centre
        c.line(cx + mm(12), cy + mm(value), cx + mm(12) + length, cy + mm(value))      # Y ruler, right of it
        if major and step % 4 == 0:
            c.setFont(fonts["label"], 5)
            c.drawCentredString(cx + mm(value), cy + mm(19), f"{value:g}")
            c.drawString(cx + mm(19), cy + mm(value) - 1.8, f"{value:g}")
    c.setFont(fonts["heading"], 8)
    c.drawCentredString(cx, cy + mm(23), "X")
    c.drawString(cx + mm(25), cy, "Y")
    text.draw_line(c, labels.calibrate_back, fonts["label"], 9, cx, cy - mm(40), "centre")
    c.showPage()
    c.save()
    return buffer.getvalue()
