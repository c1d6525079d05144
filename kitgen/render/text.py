"""Text that must fit its box: size search, glyph checks, drawing.

Latin, Cyrillic and Greek text is drawn as it is, character by character, in the
role's font. Any other script, and any line of a right-to-left paragraph, is laid
out by ``shaping``: bidi runs, a font for each script, HarfBuzz's glyphs and
positions; each such line carries an /ActualText span, so that text extraction
(pdftotext, pdfium) gives the words back in logical order whatever glyphs
shaping made of them (docs/design.md §7.2).
"""

import re
import unicodedata
from dataclasses import dataclass
from functools import lru_cache

from reportlab.pdfbase import pdfmetrics

from .. import fonts
from . import shaping

SIZE_STEP = 0.25   # sizes are multiples of this, so output is stable


@dataclass(frozen=True)
class Fit:
    text: str
    size: float          # chosen size in points; below min_size when it does not fit
    fits: bool
    missing: str         # characters the font lacks


def apply_case(text: str, case: str, language: str | None = None) -> str:
    """``case: upper`` as the text's language writes capitals: Greek drops its accents (``greek_upper``);
    Turkish and Azerbaijani dotted i is İ (and dotless ı is I); any other text is ``str.upper``'s
    (German ß is SS)."""
    if case != "upper":
        return text
    if language in DOTTED_I:
        text = text.replace("i", "\u0130")
    return greek_upper(text) if _GREEK.search(text) else text.upper()


DOTTED_I = frozenset({"tr", "az"})      # languages whose capital of i is İ


_GREEK = re.compile("[\u0370-\u03ff\u1f00-\u1fff]")
# tonos (oxia), varia, perispomeni, the two breathings, iota subscript
_GREEK_ACCENTS = {"\u0301", "\u0300", "\u0342", "\u0313", "\u0314", "\u0345"}
_DIALYTIKA = "\u0308"
# a vowel pair that reads as one sound: an accent on its first vowel splits it, and the capital second
# vowel then carries a dialytika (κορόιδο -> ΚΟΡΟΪΔΟ)
_DIPHTHONGS = {("α", "ι"), ("ε", "ι"), ("ο", "ι"), ("υ", "ι"), ("α", "υ"), ("ε", "υ"), ("η", "υ"), ("ο", "υ")}


def greek_upper(text: str) -> str:
    """Greek in capitals as Greek typesetting writes them: without tonos (and the polytonic accents,
    breathings and iota subscript), keeping a dialytika; where an accent on a diphthong's first vowel
    marked two sounds, the second vowel takes a dialytika instead (the rule ICU's Greek upper-casing
    follows). Other characters as ``str.upper``."""
    letters = []                  # (base letter, its marks)
    for char in unicodedata.normalize("NFD", text):
        if unicodedata.combining(char) and letters:
            letters[-1][1].append(char)
        else:
            letters.append((char, []))
    out = []
    for i, (base, marks) in enumerate(letters):
        kept = [m for m in marks if m not in _GREEK_ACCENTS]
        if i and _DIALYTIKA not in kept and not marks:
            previous, before = letters[i - 1]
            if (previous.lower(), base.lower()) in _DIPHTHONGS and any(m in ("\u0301", "\u0342") for m in before):
                kept.append(_DIALYTIKA)
        out.append(base.upper() + "".join(kept))
    return unicodedata.normalize("NFC", "".join(out))


def shaped(text: str, font: str, rtl: bool | None = None):
    """The text as HarfBuzz shapes it in ``font`` (``shaping.line``), or None for text drawn as it is:
    Latin, Cyrillic and Greek outside a right-to-left paragraph."""
    return shaping.line(text, font, rtl) if shaping.needs_shaping(text, rtl) else None


def runs(text: str, font: str, rtl: bool | None = None) -> tuple[tuple[str, str], ...]:
    """The text in pieces of one font each, (characters in logical order, font name), left to right."""
    line = shaped(text, font, rtl)
    if line is None:
        return ((text, font),)
    return tuple((piece.text, piece.font) for piece in line.pieces)


def width(text: str, font: str, size: float) -> float:
    line = shaped(text, font)
    if line is None:
        return pdfmetrics.stringWidth(text, font, size)
    return line.advance * size


ROUNDING = 1e-6     # points: far above the rounding of a sum of advances, far below anything visible


def line_advance(words, font: str) -> float | None:
    """The advance at size 1 of the words joined by single spaces, as ``width`` measures that
    line (up to the rounding of a sum), added up from the words' own advances, each found
    once. None when a word is shaped (``shaped``): a shaped line is measured whole, since
    shaping and bidi may reach across its spaces. The words hold no white space."""
    if not words:
        return 0.0
    if any(shaping.needs_shaping(word) for word in words):
        return None
    key = (font, pdfmetrics.getFont(font))
    total = 0.0
    for word in words:
        total += _word_advance(word, *key)
    return total + (len(words) - 1) * _word_advance(" ", *key)


def fits(words, font: str, size: float, limit: float) -> bool:
    """Whether the words joined by single spaces are no wider than ``limit`` at ``size``:
    ``width(" ".join(words), font, size) <= limit``, answered from the words' advances
    (``line_advance``); the line itself is measured only when that sum is within rounding
    of ``limit`` or cannot be had from the words."""
    advance = line_advance(words, font)
    if advance is not None and abs(advance * size - limit) > ROUNDING:
        return advance * size < limit
    if advance is None:
        # shaped words: shaping and bidi change a line's advance only where the words meet (a kerning
        # pair with a space, a bracket mirrored to a glyph of another width), by far less than an em:
        # a sum of the words' advances further than that from the limit answers as the line would
        # each word is measured with the space after it, which is drawn in the font of the word's script
        estimate = sum(width(word + " ", font, size) for word in words[:-1]) + width(words[-1], font, size)
        if abs(estimate - limit) > CONTEXT_EMS * size:
            return estimate < limit
    return width(" ".join(words), font, size) <= limit


CONTEXT_EMS = 1.0      # how far a shaped line's advance may be from the sum of its words' (``fits``)


@lru_cache(maxsize=8192)
def _word_advance(word: str, font: str, *_registered) -> float:
    """A word's advance at size 1 within a line (``line_advance``); the registered font is part of
    the key, so that a name registered anew is measured anew."""
    return pdfmetrics.stringWidth(word, font, 1.0)


def missing_glyphs(text: str, font: str) -> str:
    """Characters no font that draws ``text`` has (the role's font, or the one for their script)."""
    line = shaped(text, font)
    if line is None:
        return "".join(sorted(fonts.lacking(font, text)))
    return line.missing


def scripts(text: str, font: str) -> list[tuple[str, str]]:
    """What draws ``text`` set in ``font``: each of its scripts (ISO 15924, in order of first use; common
    characters, digits and marks count with the letters they stand by) and the registered font that
    draws it."""
    line = shaped(text, font)
    if line is None:
        found = [s for s in map(shaping.script, text) if s not in shaping.NEUTRAL]
        pairs = [(s, font) for s in dict.fromkeys(found or ["Zyyy"])]
    else:
        logical = sorted(line.pieces, key=lambda piece: text.find(piece.text))
        pairs = list(dict.fromkeys((piece.script or "Zyyy", piece.font) for piece in logical))
    return pairs


@lru_cache(maxsize=8192)
def ink(text: str, font: str) -> tuple[float, float] | None:
    """The lowest and highest ink of the text, in ems from its baseline."""
    line = shaped(text, font)
    if line is not None:
        return shaping.ink(line)
    return fonts.ink_extent(font, text)


def overhang(text: str, font: str) -> float:
    """How far, at size 1, the text's ink reaches beyond its advance, on the side where it reaches further."""
    x = left = right = 0.0
    line = shaped(text, font)
    if line is None:
        for char in text:
            box = fonts.glyph_ink(font, char)
            if box is not None:
                left, right = min(left, x + box[0]), max(right, x + box[2])
            x += pdfmetrics.stringWidth(char, font, 1.0)
        return max(-left, right - x)
    for piece in line.pieces:
        for glyph in piece.glyphs:
            box = fonts.gid_ink(piece.font, glyph.gid)
            if box is not None:
                at = x + glyph.dx / piece.units
                left, right = min(left, at + box[0]), max(right, at + box[2])
            x += glyph.advance / piece.units
    return max(-left, right - x)


def fit_once(text: str, font: str, box_w: float, box_h: float, max_size: float, min_size: float) -> Fit:
    """The largest size up to ``max_size`` at which ``text`` fits the box on one line.
    Its height is measured by its script: Latin, Cyrillic and Greek by the face's ascent
    and descent; any other script, whose letters reach far above and below and differ
    word to word, by the text's own ink (docs/design.md §6.5). ``fit`` is the same, cached:
    this is for text fitted once (a key's number, new on every key), which would only fill
    the cache."""
    line = shaped(text, font)
    if line is None:
        face = pdfmetrics.getFont(font).face
        height = (face.ascent - face.descent) / 1000.0
        one = pdfmetrics.stringWidth(text, font, 1.0)
        missing = "".join(sorted(fonts.lacking(font, text)))
    else:
        faces = [pdfmetrics.getFont(name).face for name in {piece.font for piece in line.pieces} or {font}]
        height = max((face.ascent - face.descent) / 1000.0 for face in faces)
        extent = shaping.ink(line)
        if extent:
            height = extent[1] - extent[0]
        one = line.advance
        missing = line.missing
    size = min(max_size, box_w / one if one else max_size, box_h / height)
    size = int(size / SIZE_STEP) * SIZE_STEP
    return Fit(text, size, size >= min_size and not missing, missing)


fit = lru_cache(maxsize=8192)(fit_once)      # the same word is fitted when checked and again on each face drawn


def actual_text_begin(c, actual: str):
    """Open a marked-content span whose /ActualText replaces the glyphs for extraction."""
    c._code.append(f"/Span <</ActualText <FEFF{actual.encode('utf-16-be').hex().upper()}>>> BDC")


def actual_text_end(c):
    c._code.append("EMC")


def _show(c, face, text: str, size: float, x: float, y: float):
    """``text`` from (x, y) in a TrueType font: the operators reportlab's drawString writes for it
    (the font's subsets and their names, escaped strings; reportlab documents this use of
    ``splitString`` and ``getSubsetInternalName``), without building a text object for each line:
    a codename card's word, a board's word, a key's number are drawn thousands of times."""
    from reportlab.lib.rl_accel import fp_str

    doc, escape, points = c._doc, c._escape, fp_str(size)
    shown = " ".join([f"{face.getSubsetInternalName(subset, doc)} {points} Tf ({escape(chunk)}) Tj"
                      for subset, chunk in face.splitString(text, doc)])
    c._code.append(f"BT 1 0 0 1 {fp_str(x)} {fp_str(y)} Tm {shown} ET")


_SHIFT = {"left": 0.0, "centre": 0.5, "right": 1.0}     # how much of a line's width lies left of its x


def draw_line(c, text: str, font: str, size: float, x: float, y: float, align: str = "left",
              rtl: bool | None = None):
    """One line at baseline ``y``: from ``x`` (left), around it (centre) or up to it (right);
    ``rtl``: its paragraph's base direction (``shaping.line``)."""
    if not text:
        return
    shift = _SHIFT[align]
    line = shaped(text, font, rtl)
    if line is None:                    # Latin, Cyrillic, Greek: drawn as it is, in its own font
        c.setFont(font, size)
        face = pdfmetrics.getFont(font)
        if not face._dynamicFont:
            {"left": c.drawString, "centre": c.drawCentredString, "right": c.drawRightString}[align](x, y, text)
            return
        _show(c, face, text, size, x - shift * pdfmetrics.stringWidth(text, font, size) if shift else x, y)
        return
    start = x - shift * line.advance * size
    actual_text_begin(c, line.actual)
    shaping.show(c, line, size, start, y)
    actual_text_end(c)


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
    # Latin, Cyrillic, Greek: centred on the capital height, so upper-case words sit in the
    # middle (tails and accents hang outside, as type does); any other script: on its own ink
    middle = face.capHeight / 1000.0 / 2
    extent = shaping.needs_shaping(text) and ink(text, font)
    if extent:
        middle = sum(extent) / 2
    draw_line(c, text, font, size, 0, -middle * size, "centre")
    c.restoreState()
