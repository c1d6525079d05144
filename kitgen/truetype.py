"""An OpenType-CFF font's outlines as TrueType ones: reportlab embeds only TrueType (docs/design.md §7.4).
``fonts.truetype`` converts and caches; this is the conversion."""

from pathlib import Path


def to_truetype(source: Path) -> bytes:
    """An OpenType-CFF font's outlines as TrueType quadratic curves (fontTools' cu2qu, 1 unit of
    error), the same bytes on any machine: the CFF table goes, glyf, loca and a TrueType maxp and
    post come. A variable CFF2 font is not converted (ValueError)."""
    import io

    from fontTools.pens.cu2quPen import Cu2QuPen
    from fontTools.pens.ttGlyphPen import TTGlyphPen
    from fontTools.ttLib import TTFont, newTable

    font = TTFont(source, recalcTimestamp=False)
    if "CFF2" in font:
        raise ValueError("a variable CFF2 font")
    order = font.getGlyphOrder()
    glyphs = font.getGlyphSet()
    glyf = newTable("glyf")
    glyf.glyphOrder, glyf.glyphs = order, {}
    for name in order:
        pen = TTGlyphPen(glyphs)
        glyphs[name].draw(Cu2QuPen(pen, max_err=1.0, reverse_direction=True))
        glyf[name] = pen.glyph()
    font["glyf"], font["loca"] = glyf, newTable("loca")
    for tag in ("CFF ", "VORG"):
        if tag in font:
            del font[tag]
    maxp = font["maxp"]
    maxp.tableVersion = 0x00010000
    for field in ("maxZones", "maxTwilightPoints", "maxStorage", "maxFunctionDefs", "maxInstructionDefs",
                  "maxStackElements", "maxSizeOfInstructions", "maxComponentElements"):
        setattr(maxp, field, 1 if field == "maxZones" else 0)
    post = font["post"]
    post.formatType, post.extraNames, post.mapping, post.glyphOrder = 2.0, [], {}, order
    font["head"].glyphDataFormat = 0
    font.sfntVersion = "\0\1\0\0"
    out = io.BytesIO()
    font.save(out)
    return out.getvalue()
