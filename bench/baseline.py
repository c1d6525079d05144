"""The practical limit: a minimal, hand-written reportlab program that draws the
same key cards as kitgen (grid with symbols, lights, QR as merged runs, number
and kit id, crop marks, plain backs) with no abstractions at all.

usage: python bench/baseline.py COUNT OUT.pdf"""

import hashlib
import sys

import qrcode
from qrcode.util import MODE_ALPHA_NUM, QRData
from reportlab.lib.colors import Color
from reportlab.pdfbase import pdfmetrics
from reportlab.pdfbase.ttfonts import TTFont
from reportlab.pdfgen import canvas

MM = 72 / 25.4
CARD, BLEED, GUTTER = 57 * MM, 3 * MM, 6 * MM
RED, BLUE, BEIGE, BLACK, WHITE, INK = (Color(0.78, 0.18, 0.18), Color(0.14, 0.35, 0.72), Color(0.85, 0.79, 0.64),
                                       Color(0.13, 0.13, 0.13), Color(1, 1, 1), Color(0.1, 0.1, 0.1))
FILL = {"R": RED, "B": BLUE, "N": BEIGE, "A": BLACK}


def keys(count):
    """Simple stand-in grids (the drawing is what is measured, not the algorithm)."""
    for i in range(count):
        digest = hashlib.sha256(str(i).encode()).digest()
        cells = list("R" * 9 + "B" * 8 + "N" * 7 + "A")
        for j in range(24, 0, -1):
            k = digest[j % 32] % (j + 1)
            cells[j], cells[k] = cells[k], cells[j]
        yield "R" if i % 2 else "B", "".join(cells)


def draw_keys(c, count, page_width):
    """All key cards, 12 to a sheet, fronts then backs, as plainly as possible."""
    x0 = (page_width - (3 * CARD + 2 * GUTTER)) / 2
    y_top = (297 * MM + 4 * CARD + 3 * GUTTER) / 2
    slots = [(x0 + col * (CARD + GUTTER), y_top - CARD - row * (CARD + GUTTER)) for row in range(4) for col in range(3)]
    batch = []
    for n, (first, cells) in enumerate(keys(count), 1):
        batch.append((n, first, cells))
        if len(batch) == 12 or n == count:
            for slot, (number, team, grid) in zip(slots, batch):
                x, y = slot
                c.setFillColor(FILL[team])
                c.rect(x - BLEED, y - BLEED, CARD + 2 * BLEED, CARD + 2 * BLEED, stroke=0, fill=1)
                c.setFillColor(WHITE)
                c.roundRect(x + 4 * MM, y + 4 * MM, CARD - 8 * MM, CARD - 8 * MM, 1.2 * MM, stroke=0, fill=1)
                cell = (31.5 * MM - 4 * 0.6 * MM) / 5
                for i, kind in enumerate(grid):
                    cx = x + 12.75 * MM + (i % 5) * (cell + 0.6 * MM)
                    cy = y + 51.5 * MM - (i // 5 + 1) * cell - (i // 5) * 0.6 * MM
                    c.setFillColor(FILL[kind])
                    c.roundRect(cx, cy, cell, cell, 0.5 * MM, stroke=0, fill=1)
                    c.setFillColor(WHITE)
                    c.circle(cx + cell / 2, cy + cell / 2, cell * 0.14, stroke=0, fill=1)
                text = f"KG1:BENCH:{number}/{count}:{team}:{'/'.join(grid[r * 5:r * 5 + 5] for r in range(5))}:AAAAAA"
                code = qrcode.QRCode(error_correction=qrcode.constants.ERROR_CORRECT_M, border=0, mask_pattern=2)
                code.add_data(QRData(text, mode=MODE_ALPHA_NUM))
                code.make(fit=True)
                matrix = code.get_matrix()
                step = 12 * MM / len(matrix)
                path = c.beginPath()
                for r, row in enumerate(matrix):
                    start = None
                    for col, dark in enumerate(list(row) + [False]):
                        if dark and start is None:
                            start = col
                        elif not dark and start is not None:
                            path.rect(x + 38.9 * MM + start * step, y + 6 * MM + (len(matrix) - 1 - r) * step,
                                      (col - start) * step, step)
                            start = None
                c.setFillColor(INK)
                c.drawPath(path, stroke=0, fill=1)
                c.setFont("F", 16)
                c.drawString(x + 7 * MM, y + 13.5 * MM, f"{number:02d}/{count}")
                c.setFont("F", 6.5)
                c.drawString(x + 7 * MM, y + 8 * MM, "BENCH")
            c.setLineWidth(0.3)
            for x, y in slots[:len(batch)]:
                c.line(x, y + CARD + BLEED + MM, x, y + CARD + BLEED + 5 * MM)
            c.showPage()
            for x, y in slots[:len(batch)]:           # backs
                c.setFillColor(BLACK)
                c.rect(page_width - x - CARD - BLEED, y - BLEED, CARD + 2 * BLEED, CARD + 2 * BLEED, stroke=0, fill=1)
            c.showPage()
            batch = []


def register_font():
    from pathlib import Path

    import fontpkg_noto_sans

    font = Path(fontpkg_noto_sans.__file__).parent / "files" / "NotoSans[wdth,wght].ttf"
    pdfmetrics.registerFont(TTFont("F", str(font)))


def main(count, out):
    register_font()
    c = canvas.Canvas(out, pagesize=(210 * MM, 297 * MM), invariant=1, initialFontName="F")
    draw_keys(c, count, 210 * MM)
    c.save()


if __name__ == "__main__":
    main(int(sys.argv[1]), sys.argv[2])
