"""Art that many cards share, drawn once per PDF as a Form XObject and placed by reference.

A form is named by a digest of everything that decides what it draws, so the same
input gives the same name and the same bytes, and two card sets that share art (the
key of every game on a sheet of games) share its form. reportlab keeps a document's
forms until it saves; a form is defined the first time a document places it."""

import hashlib

from reportlab.lib.rl_accel import fp_str


def name(*what) -> str:
    """A form's name from the values that decide what it draws (their reprs must be stable)."""
    return "kg" + hashlib.sha256(repr(what).encode()).hexdigest()[:16]


def define(c, form: str, bbox: tuple[float, float, float, float], draw) -> None:
    """Define ``form`` in ``c``'s document, unless it is defined already: ``draw(c)`` in a
    fresh graphics state, clipped to ``bbox`` (x0, y0, x1, y1)."""
    if not c.hasForm(form):
        c.beginForm(form, *bbox)
        draw(c)
        c.endForm()


def place(c, form: str, bbox, draw) -> None:
    """Draw ``form`` here (defining it first if need be)."""
    define(c, form, bbox, draw)
    c.doForm(form)


def place_each(c, placements) -> None:
    """Draw defined forms, each with its origin at a point: ``placements`` is (form, x, y), ...;
    one append to the page, however many."""
    names = c._doc.getXObjectName
    c._code.append("\n".join([f"q 1 0 0 1 {fp_str(x)} {fp_str(y)} cm /{names(form)} Do Q"
                              for form, x, y in placements]))
    c._formsinuse.extend({form: None for form, _, _ in placements})
