"""A duplex calibration sheet: the front carries a cross at the page centre, the
back two rulers. Printed double-sided and held to the light, the cross on the
front falls on each ruler at the value to give as --back-offset X,Y (mm): a
tick labelled v is drawn v mm from the centre, in the back page's own
coordinates, which is exactly the shift that puts backs where they belong."""

import io

from ..units import mm
from . import paint, text
from .pdf import new_canvas


def render(page_size, layout, fonts: dict[str, str], messages, duplex: str) -> bytes:
    """The two pages of the sheet; every size is the layout's ``calibration`` section."""
    from .document import DUPLEX_PREFERENCE

    sheet = layout.calibration
    width, height = page_size
    cx, cy = width / 2, height / 2
    buffer = io.BytesIO()
    c = new_canvas(buffer, page_size, fonts, font_size=9)
    c.setViewerPreference("Duplex", DUPLEX_PREFERENCE[duplex])
    ink = paint.colour(layout, sheet.colour)
    labels = messages.labels
    # front: a cross through the centre
    c.setStrokeColor(ink)
    c.setFillColor(ink)
    c.setLineWidth(sheet.cross.width)
    arm = sheet.cross.arm
    c.line(cx, cy - arm, cx, cy + arm)
    c.line(cx - arm, cy, cx + arm, cy)
    note = sheet.front_note
    text.draw_line(c, labels.calibrate_front, fonts[note.font], note.size, cx, cy + note.offset, "centre")
    c.showPage()
    # back: rulers along both axes, labelled with the offset to use (in mm, whatever the layout's units)
    c.setStrokeColor(ink)
    c.setFillColor(ink)
    ruler, number = sheet.ruler, sheet.number
    steps = round(ruler.span / ruler.step)
    step_mm = ruler.step / mm(1)
    foot = ruler.offset
    for step in range(-steps, steps + 1):
        value = step * step_mm
        major = step % 2 == 0
        length = ruler.tick if major else ruler.minor_tick
        c.setLineWidth(ruler.width if major else ruler.minor_width)
        c.line(cx + mm(value), cy + foot, cx + mm(value), cy + foot + length)      # X ruler, above the centre
        c.line(cx + foot, cy + mm(value), cx + foot + length, cy + mm(value))      # Y ruler, right of it
        if major and step % 4 == 0:
            c.setFont(fonts[number.font], number.size)
            c.drawCentredString(cx + mm(value), cy + number.offset, f"{value:g}")
            c.drawString(cx + number.offset, cy + mm(value) - number.drop, f"{value:g}")
    axis = sheet.axis
    c.setFont(fonts[axis.font], axis.size)
    c.drawCentredString(cx, cy + axis.x, "X")
    c.drawString(cx + axis.y, cy, "Y")
    note = sheet.back_note
    text.draw_line(c, labels.calibrate_back, fonts[note.font], note.size, cx, cy - note.offset, "centre")
    c.showPage()
    c.save()
    return buffer.getvalue()
