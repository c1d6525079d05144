"""Glyphs read back from a PDF kitgen wrote: for each text object (BT ... ET), each glyph's font
file, glyph number in that file and origin, from the content stream's text operators (Tf, Tm, Ts,
Tj, TJ), the fonts' /Widths and their embedded subsets. A subset renumbers its glyphs: a glyph is
found in the font file kitgen registered by its outline (decomposed) and advance. pikepdf reads
the PDF; nothing of reportlab or HarfBuzz is used."""

import io
from dataclasses import dataclass
from functools import lru_cache

import pikepdf
from fontTools.pens.recordingPen import DecomposingRecordingPen
from fontTools.ttLib import TTFont


@dataclass(frozen=True)
class Read:
    font: str            # the subset's BaseFont without its prefix (the registered file's PostScript name)
    gids: frozenset      # the glyph numbers in the registered file with this outline and advance
    x: float             # origin along the line, in thousandths of the font size, from the text object's start
    y: float             # rise, likewise


def _signature(glyphset, name, advance):
    pen = DecomposingRecordingPen(glyphset)
    glyphset[name].draw(pen)
    return repr(pen.value), advance


@lru_cache(maxsize=32)
def signatures(path: str) -> dict:
    """Outline-and-advance signature -> glyph numbers, for a font file."""
    font = TTFont(path, lazy=True)
    glyphset, order = font.getGlyphSet(), font.getGlyphOrder()
    scale = 1000 / font["head"].unitsPerEm
    out: dict = {}
    for gid, name in enumerate(order):
        out.setdefault(_signature(glyphset, name, round(font["hmtx"][name][0] * scale, 3)), set()).add(gid)
    return out


class _Subset:
    def __init__(self, font_dict, registered: dict):
        self.name = str(font_dict.BaseFont)[1:].split("+", 1)[-1]
        self.first = int(font_dict.FirstChar)
        self.widths = [float(w) for w in font_dict.Widths]
        data = bytes(font_dict.FontDescriptor.FontFile2.read_bytes())
        self.font = TTFont(io.BytesIO(data))
        self.glyphset = self.font.getGlyphSet()
        self.cmap = {}
        for table in self.font["cmap"].tables:
            self.cmap.update(table.cmap)
        self.scale = 1000 / self.font["head"].unitsPerEm
        self.original = registered[self.name]

    def gids(self, code: int) -> frozenset:
        name = self.cmap[code]
        advance = round(self.font["hmtx"][name][0] * self.scale, 3)
        return frozenset(signatures(self.original).get(_signature(self.glyphset, name, advance), ()))

    def width(self, code: int) -> float:
        return self.widths[code - self.first]


def text_objects(pdf_path, registered: dict, page_index: int = 0) -> list[list[Read]]:
    """The glyphs of each text object of a page. ``registered``: PostScript name -> font file."""
    pdf = pikepdf.open(pdf_path)
    page = pdf.pages[page_index]
    fonts = page.Resources.Font
    subsets: dict = {}
    objects, current = [], None
    size, x, rise, subset, invisible = 1.0, 0.0, 0.0, None, False
    for operands, operator in pikepdf.parse_content_stream(page):
        op = str(operator)
        if op == "BT":
            current, x, rise = [], 0.0, 0.0
        elif op == "ET":
            objects.append(current)
            current = None
        elif op == "Tf":
            key = str(operands[0])
            if key not in subsets:
                subsets[key] = _Subset(fonts[key], registered)
            subset, size = subsets[key], float(operands[1])
        elif op == "Tr":
            invisible = int(operands[0]) == 3       # drawn for text extraction only (kitgen's shaping.show)
        elif op == "Ts":
            rise = float(operands[0]) * 1000 / size
        elif op == "Tm":
            x = 0.0
        elif op in ("Tj", "TJ") and current is not None:
            items = operands[0] if op == "TJ" else [operands[0]]
            for item in items:
                if isinstance(item, pikepdf.String):
                    for code in bytes(item):
                        if not invisible:
                            current.append(Read(subset.name, subset.gids(code), round(x, 3), round(rise, 3)))
                        x += subset.width(code)
                else:
                    x -= float(item)
    return objects
