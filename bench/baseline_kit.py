"""The practical limit for a whole words kit: a minimal hand-written reportlab
program that draws the same sheets as the default kit -- 200 double-sided
codename cards (word upright and turned, frame, word bar), 40 key cards, 25
tiles, a page of rules text -- as four component PDFs and the combined kit.pdf,
like kitgen does, with no abstractions.

usage: python bench/baseline_kit.py OUTDIR"""

import sys
from pathlib import Path

from reportlab.lib.colors import Color
from reportlab.pdfgen import canvas

sys.path.insert(0, str(Path(__file__).resolve().parent))
import baseline  # noqa: E402  (the key-card drawing)

MM = 72 / 25.4
A4 = (210 * MM, 297 * MM)
WORDS = [f"WORD{i:03d}" for i in range(400)]


def codename_pages(c):
    w, h = 42 * MM, 64 * MM                       # turned, 16 to a sheet
    x0, y0 = (A4[0] - 4 * w) / 2, (A4[1] + 4 * h) / 2
    for sheet in range(13):
        for side in (0, 1):
            for slot in range(16):
                i = sheet * 16 + slot
                if i >= 200:
                    break
                col, row = slot % 4, slot // 4
                x = x0 + (col if side == 0 else 3 - col) * w
                y = y0 - (row + 1) * h
                word = WORDS[2 * i + side]
                c.saveState()
                c.translate(x + w / 2, y + h / 2)
                c.rotate(90 if side == 0 else -90)
                c.setStrokeColor(Color(0.6, 0.54, 0.4))
                c.roundRect(-h / 2 + 2.5 * MM, -w / 2 + 2.5 * MM, h - 5 * MM, w - 5 * MM, 2 * MM, stroke=1, fill=0)
                c.setFillColor(Color(0.95, 0.92, 0.85))
                c.roundRect(-h / 2 + 5 * MM, -w / 2 + 5 * MM, 54 * MM, 14 * MM, 1.5 * MM, stroke=0, fill=1)
                c.setFillColor(Color(0.1, 0.1, 0.1))
                c.setFont("F", 20)
                c.drawCentredString(0, -w / 2 + 9 * MM, word)
                c.rotate(180)
                c.setFont("F", 12)
                c.drawCentredString(0, -w / 2 + 13 * MM, word)
                c.restoreState()
            c.showPage()


def tile_pages(c):
    for _side in (0, 1):                          # the tiles' two sides alike
        for i in range(25):
            x, y = 20 * MM + (i % 5) * 36 * MM, 30 * MM + (i // 5) * 51 * MM
            c.setFillColor(baseline.FILL["RBNA"[i % 4]])
            c.rect(x - 3 * MM, y - 3 * MM, 36 * MM, 51 * MM, stroke=0, fill=1)
            c.setFillColor(baseline.WHITE)
            c.circle(x + 15 * MM, y + 25 * MM, 6 * MM, stroke=0, fill=1)
            c.setFont("F", 10)
            c.drawCentredString(x + 15 * MM, y + 6 * MM, "AGENT")
        c.showPage()


def rules_page(c):
    c.setFont("F", 9)
    for line in range(70):
        c.drawString(12 * MM, A4[1] - 15 * MM - line * 11, "Rules text " * 9)
    c.showPage()


def keys_pages(c):
    baseline.draw_keys(c, 40, A4[0])


def main(out: str):
    baseline.register_font()
    out_dir = Path(out)
    out_dir.mkdir(parents=True, exist_ok=True)
    parts = {"codenames": codename_pages, "keys": keys_pages, "tiles": tile_pages, "rules": rules_page}
    for name, draw in parts.items():
        c = canvas.Canvas(str(out_dir / f"{name}.pdf"), pagesize=A4, invariant=1, initialFontName="F")
        draw(c)
        c.save()
    c = canvas.Canvas(str(out_dir / "kit.pdf"), pagesize=A4, invariant=1, initialFontName="F")
    for draw in parts.values():
        draw(c)
    c.save()


if __name__ == "__main__":
    main(sys.argv[1])
