"""Every PDF kitgen writes starts here: a reportlab canvas that gives the same bytes
for the same drawing on any machine (docs/design.md §8.4).

reportlab's invariant mode fixes the document's date and ID, except that it takes
the date from SOURCE_DATE_EPOCH when that is set; kitgen's output does not depend
on the time at all, so the variable is kept away from the canvas and the date is
always invariant mode's own (2000-01-01)."""

import os

from .. import __version__


def new_canvas(buffer, page_size, fonts: dict[str, str], *, title: str | None = None, font_size: float = 10,
               cmyk: bool = False, print_scaling: bool = True):
    """A canvas writing into ``buffer``: compressed pages, our own font as the initial font (no
    Helvetica leaks in), CMYK enforced when asked, and 'do not scale' for a printed document."""
    from reportlab.pdfgen import canvas

    epoch = os.environ.pop("SOURCE_DATE_EPOCH", None)
    try:
        c = canvas.Canvas(buffer, pagesize=page_size, invariant=1, pageCompression=1,
                          initialFontName=fonts["label"], initialFontSize=font_size,
                          enforceColorSpace="cmyk" if cmyk else None)
    finally:
        if epoch is not None:
            os.environ["SOURCE_DATE_EPOCH"] = epoch
    if title is not None:
        c.setTitle(title)
    c.setCreator(f"kitgen {__version__}")
    if print_scaling:
        c.setViewerPreference("PrintScaling", "None")
    return c
