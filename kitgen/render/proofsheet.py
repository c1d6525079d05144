"""The pieces of a publisher's proof that no game owns (docs/design.md §2): a check and its
status, a page-flowing writer at the layout's proof sizes (layouts/base.yaml ``proof``), and a
contact sheet of every page of a set of PDFs, each page small and labelled."""

from dataclasses import dataclass

from kitgen.render import paint
from kitgen.render.text import draw_line


@dataclass
class Check:
    status: str              # PASS, FAIL or WARN
    text: str


STATUS_COLOURS = {"PASS": "blue", "FAIL": "red", "WARN": "bystander"}


class Sheet:
    """A little page-flowing writer on a reportlab canvas: ``footer(page)`` is the line at the
    foot of each page."""

    def __init__(self, c, layout, fonts: dict, page_size, footer):
        self.c, self.layout, self.footer = c, layout, footer
        self.style = layout.proof                  # every size of the proof (layouts/base.yaml)
        self.sizes, self.margin = self.style.sizes, self.style.margin
        self.width, self.height = page_size
        self.font = fonts[self.style.text.font]
        self.bold = fonts[self.style.bold.font]
        self.ink = paint.colour(layout, self.style.text.colour)
        self.guide = paint.colour(layout, self.style.guide.colour)
        self.page = 0
        self.y = 0.0
        self.new_page()

    def new_page(self):
        if self.page:
            self.c.showPage()
        self.page += 1
        self.y = self.height - self.margin
        self.c.setFillColor(self.ink)
        draw_line(self.c, self.footer(self.page), self.font, self.sizes.footer, self.margin, self.margin / 2,
                  rtl=False)

    def need(self, height: float):
        if self.y - height < self.margin:
            self.new_page()

    def line(self, text: str, size: str = "body", bold: bool = False, colour=None, indent: float = 0):
        """One line of text at one of the layout's proof sizes (title, heading, body, small...)."""
        points = self.sizes[size]
        self.need(points * self.style.line_spacing)
        self.y -= points * self.style.line_spacing
        self.c.setFillColor(colour or self.ink)
        draw_line(self.c, text, self.bold if bold else self.font, points, self.margin + indent, self.y, rtl=False)

    def checks(self, results: list[Check]):
        """Each check's status and text, a line each; a failure or warning in its colour."""
        for check in results:
            self.line(f"{check.status}   {check.text}"[:150], "body",
                      colour=paint.colour(self.layout, STATUS_COLOURS[check.status]) if check.status != "PASS"
                      else None)

    def table(self, heads: list[str], rows: list[list[str]], widths: list[float], size: str = "small"):
        """Rows of cells in columns ``widths`` wide (points), the heads in bold; a page break repeats
        the heads. A cell too wide for its column is cut short with an ellipsis."""
        from kitgen.render import text

        points = self.sizes[size]
        step = points * self.style.line_spacing

        def row(cells, font):
            self.need(step)
            if self.y == self.height - self.margin and cells is not heads:
                row(heads, self.bold)
            self.y -= step
            self.c.setFillColor(self.ink)
            x = self.margin
            for cell, width in zip(cells, widths):
                shown = cell
                while shown and text.width(shown, font, points) > width - 3:
                    shown = shown[:-2] + "\u2026"
                draw_line(self.c, shown, font, points, x, self.y, rtl=False)
                x += width

        row(heads, self.bold)
        for cells in rows:
            row(cells, self.font)


def contact_sheet(sheet: Sheet, documents: list[tuple[str, bytes]], height: float, dpi: float) -> int:
    """Every page of each PDF in ``documents`` ((name, bytes), in order) as a thumbnail ``height``
    points tall, rendered at ``dpi`` (pdfium), framed and labelled "<name> p<N>", flowed in rows
    across the sheet's pages; returns the number of thumbnails."""
    from reportlab.lib.utils import ImageReader

    from kitgen import scans

    contact = sheet.style.contact_sheet
    c, margin = sheet.c, sheet.margin
    label = sheet.sizes.label
    x, top, count = margin, sheet.y - 4, 0
    for name, data in documents:
        document = scans.open_pdf(data, name)
        try:
            for index in range(len(document)):
                page_w, page_h = document[index].get_size()
                w = height * page_w / page_h
                if x + w > sheet.width - margin:
                    x, top = margin, top - height - label - 2 * contact.gap
                if top - height - label - contact.gap < margin:
                    sheet.new_page()
                    x, top = margin, sheet.y - 4
                image = scans.render_page(document, index, dpi, name, min_dpi=1)
                c.drawImage(ImageReader(image), x, top - height, w, height)
                c.setStrokeColor(sheet.guide)
                c.setLineWidth(contact.line)
                c.rect(x, top - height, w, height, stroke=1, fill=0)
                c.setFillColor(sheet.ink)
                draw_line(c, f"{name} p{index + 1}", sheet.font, label, x, top - height - label - 1, rtl=False)
                x += w + contact.gap
                count += 1
        finally:
            document.close()
    sheet.y = top - height - label - contact.gap
    return count


def write(data: bytes, out_dir, name: str):
    """Write the proof ``data`` to ``<out_dir>/<name>`` atomically; returns its path."""
    import os
    import tempfile
    from pathlib import Path

    from kitgen.errors import KitgenError

    out_dir = Path(out_dir)
    target = out_dir / name
    try:
        out_dir.mkdir(parents=True, exist_ok=True)
        handle, tmp = tempfile.mkstemp(dir=out_dir, prefix=f".{target.name}.", suffix=".tmp")
        with os.fdopen(handle, "wb") as f:
            f.write(data)
        os.replace(tmp, target)
    except OSError as err:
        raise KitgenError(f"cannot write the proof: {err.strerror}; choose another --out",
                          source=str(out_dir)) from None
    return target
