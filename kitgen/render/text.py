"""Text that must fit its box: shaping, size search, glyph checks, drawing.

Latin, Cyrillic and Greek text is drawn as it is. Text in an Arabic script
(Persian, Arabic) is shaped first -- joined letter forms and lam-alef by
arabic-reshaper, then laid out right to left by python-bidi's pure-Python
algorithm (its default Rust one does not mirror brackets) -- and drawn with
the font's Arabic partner, falling back to the Latin face for characters the
Arabic face lacks. Each shaped line carries an /ActualText span so that text
extraction (pdftotext) gives the words back in logical order, ZWNJ included.
"""

import re
import unicodedata
from dataclasses import dataclass
from functools import lru_cache

from reportlab.pdfbase import pdfmetrics

from .. import fonts

SIZE_STEP = 0.25   # sizes are multiples of this, so output is stable
ZWNJ = "\u200c"
ZWJ = "\u200d"
_PLACEHOLDER = "\u08a0"   # an unused right-to-left letter that stands in for ZWNJ, which bidi would drop


@dataclass(frozen=True)
class Fit:
    text: str
    size: float          # chosen size in points; below min_size when it does not fit
    fits: bool
    missing: str         # characters the font lacks


def apply_case(text: str, case: str) -> str:
    """``case: upper`` as the text's script writes capitals: Greek drops its accents (``greek_upper``);
    any other text is ``str.upper``'s."""
    if case != "upper":
        return text
    return greek_upper(text) if _GREEK.search(text) else text.upper()


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


_ARABIC = re.compile("[\u0600-\u06ff\u0750-\u077f\u0870-\u08ff\ufb50-\ufdff\ufe70-\ufeff]")


def is_arabic_script(text: str) -> bool:
    """Whether any character is in an Arabic-script block (Persian, Arabic, Urdu)."""
    return _ARABIC.search(text) is not None


@dataclass(frozen=True)
class Shaped:
    visual: str                 # the characters in drawing order, left to right
    actual: str | None          # for /ActualText: the text in visual order with ZWNJ kept (None: plain text)


class _Settings:
    """A reshaper's configuration as plain values, read once. arabic-reshaper reads six
    settings from its ConfigParser section on every ``reshape`` (and each read goes through
    ConfigParser's interpolation); this answers the same ``get`` and ``getboolean`` calls
    from dictionaries. Keys are matched without regard to case, as ConfigParser does."""

    def __init__(self, section):
        states = section.parser.BOOLEAN_STATES
        self._values = {key: section[key] for key in section}
        self._booleans = {key: states[value.lower()] for key, value in self._values.items()
                          if value.lower() in states}

    def get(self, key: str, fallback=None):
        return self._values.get(key.lower(), fallback)

    def getboolean(self, key: str, fallback=None):
        return self._booleans.get(key.lower(), fallback)


@lru_cache(maxsize=1)
def _reshaper():
    import arabic_reshaper

    class Reshaper(arabic_reshaper.ArabicReshaper):
        """arabic-reshaper's reshaper with its configuration read once (``_Settings``)."""

        def __init__(self, configuration):
            super().__init__(configuration=configuration)
            self.configuration = _Settings(self.configuration)

    # keep diacritics (tanwin, hamza above...); drawn after their letter they sit right
    return Reshaper({"delete_harakat": False})


def shape(text: str, rtl: bool | None = None) -> Shaped:
    """Text as it is to be drawn, left to right. ``rtl``: the base direction of the
    paragraph the text is a line of -- True for a right-to-left paragraph (a line that
    starts with a Latin word or a digit still reads from the right), False for a
    left-to-right one (a Persian name inside an English line), None: the text's own first
    strong character decides (a label, a word). Text that needs no shaping is given as it is,
    and kept out of the cache (a key's number is new on every key)."""
    if not rtl and not is_arabic_script(text):
        return Shaped(text, None)
    return _shape(text, rtl)


@lru_cache(maxsize=4096)     # a line is shaped when measured, drawn, and drawn again in another file
def _shape(text: str, rtl: bool | None) -> Shaped:
    arabic = is_arabic_script(text)
    base = {True: "R", False: "L", None: None}[rtl]
    visual = _display(_reshape(text) if arabic else text, base)
    # Extraction tools reverse right-to-left runs they read; give them the text in
    # visual order, with each ZWNJ kept where it stands.
    actual = _display(text.replace(ZWNJ, _PLACEHOLDER), base).replace(_PLACEHOLDER, ZWNJ)
    return Shaped(visual, actual if arabic or visual != text else None)


# the bidi classes rule X9 of the bidi algorithm removes: embeddings, overrides, their end, boundary neutrals
BIDI_REMOVED = frozenset({"RLE", "LRE", "RLO", "LRO", "PDF", "BN"})
_STRONG_RTL = frozenset({"R", "AL"})
# classes that, with no left-to-right letter, digit, separator or explicit mark about, all
# resolve to right to left: letters, boundary neutrals, marks, spaces, punctuation
_RTL_ONLY = frozenset({"R", "AL", "BN", "NSM", "WS", "ON", "CS", "ES", "ET"})


def _display(text: str, base: str | None) -> str:
    """The text in visual order by python-bidi's pure-Python algorithm (it mirrors brackets),
    ``base`` the paragraph's direction ("R", "L", None: found). In a right-to-left paragraph
    (or one whose first strong letter is right to left), a text of right-to-left letters,
    marks, spaces and punctuation -- no left-to-right letter, no digit -- is all at level 1:
    it comes out reversed, without its boundary neutrals (ZWNJ) and with its brackets
    mirrored, and is so written here directly."""
    classes = set(map(unicodedata.bidirectional, text))
    if _RTL_ONLY.issuperset(classes) and (base == "R" or base is None and classes & _STRONG_RTL or
                                          _STRONG_RTL.issuperset(classes - {"BN"})):
        from bidi.mirror import MIRRORED

        return "".join(MIRRORED.get(ch, ch) if unicodedata.mirrored(ch) else ch for ch in reversed(text)
                       if unicodedata.bidirectional(ch) != "BN")
    from bidi.algorithm import get_display

    return get_display(text, base_dir=base)


@lru_cache(maxsize=8192)
def _reshape_word(word: str) -> str:
    return _reshaper().reshape(word)


def _reshape(text: str) -> str:
    """arabic-reshaper's joined forms of ``text``, a word at a time (each word's cached): a
    letter joins only letters, never across a space, and no ligature switched on spans one.
    A text with a ZWJ is reshaped whole: the reshaper drops a ZWJ by its neighbours."""
    if ZWJ in text:
        return _reshaper().reshape(text)
    return " ".join(map(_reshape_word, text.split(" ")))


def runs(text: str, font: str, rtl: bool | None = None) -> tuple[tuple[str, str], ...]:
    """The shaped text in runs of one font each: (characters, font name), left to right."""
    shaped = shape(text, rtl).visual
    partner = fonts.partner(font) if is_arabic_script(text) else None
    if partner is None:
        return ((shaped, font),)
    # the registered fonts are part of the key: a name registered anew is looked at anew
    return _split(shaped, font, partner, pdfmetrics.getFont(font), pdfmetrics.getFont(partner))


@lru_cache(maxsize=4096)
def _split(shaped: str, font: str, partner: str, *_registered) -> tuple[tuple[str, str], ...]:
    """Shaped characters in runs of one font each: the partner's wherever it has the glyph
    (or ``font`` lacks it too), else ``font``'s."""
    out: list[tuple[str, str]] = []
    latin = _drawn_by_font(set(shaped), font, partner)
    for ch in shaped:
        use = font if ch in latin else partner
        if out and out[-1][1] == use:
            out[-1] = (out[-1][0] + ch, use)
        else:
            out.append((ch, use))
    return tuple(out)


def width(text: str, font: str, size: float) -> float:
    return sum(pdfmetrics.stringWidth(part, name, size) for part, name in runs(text, font))


ROUNDING = 1e-6     # points: far above the rounding of a sum of advances, far below anything visible


def line_advance(words, font: str) -> float | None:
    """The advance at size 1 of the words joined by single spaces, as ``width`` measures that
    line (up to the rounding of a sum), added up from the words' own advances, each found
    once. None when a word's advance depends on the words around it: it holds a ZWJ (the
    reshaper drops one by its neighbours) or a character bidi mirrors to a glyph of another
    width. The words hold no white space."""
    if not words:
        return 0.0
    # a line with Arabic script is shaped whole, and each of its characters is drawn by the
    # partner where it has the glyph; any other line is drawn as it is, in ``font``
    arabic = any(map(is_arabic_script, words))
    partner = fonts.partner(font) if arabic else None
    key = (arabic, font, partner, pdfmetrics.getFont(font), partner and pdfmetrics.getFont(partner))
    total = 0.0
    for word in words:
        advance = _word_advance(word, *key)
        if advance is None:
            return None
        total += advance
    return total + (len(words) - 1) * _word_advance(" ", *key)


def fits(words, font: str, size: float, limit: float) -> bool:
    """Whether the words joined by single spaces are no wider than ``limit`` at ``size``:
    ``width(" ".join(words), font, size) <= limit``, answered from the words' advances
    (``line_advance``); the line itself is measured only when that sum is within rounding
    of ``limit`` or cannot be had from the words."""
    advance = line_advance(words, font)
    if advance is not None and abs(advance * size - limit) > ROUNDING:
        return advance * size < limit
    return width(" ".join(words), font, size) <= limit


@lru_cache(maxsize=8192)
def _word_advance(word: str, arabic: bool, font: str, partner: str | None, *_registered) -> float | None:
    """A word's advance at size 1 within a line (``line_advance``); the registered fonts
    are part of the key, so that a name registered anew is measured anew."""
    if not arabic:
        return pdfmetrics.stringWidth(word, font, 1.0)
    if ZWJ in word:
        return None
    from bidi.mirror import MIRRORED

    # shaping does not reach across a space (no ligature that spans words is switched on),
    # and bidi only reorders, drops the characters of the classes of its rule X9 and mirrors:
    # the line's characters are its words' characters, less those, a mirrored one perhaps mirrored
    chars = [ch for ch in _reshape_word(word) if unicodedata.bidirectional(ch) not in BIDI_REMOVED]
    mirrors = {ch: MIRRORED[ch] for ch in chars if ch in MIRRORED}
    latin = _drawn_by_font(set(chars) | set(mirrors.values()), font, partner)

    def advance(string: str) -> float:
        in_partner = "".join(ch for ch in string if ch not in latin)
        in_font = "".join(ch for ch in string if ch in latin)
        return (pdfmetrics.stringWidth(in_partner, partner, 1.0) if in_partner else 0.0) + (
            pdfmetrics.stringWidth(in_font, font, 1.0) if in_font else 0.0)

    if any(advance(ch) != advance(mirror) for ch, mirror in mirrors.items()):
        return None
    return advance("".join(chars))


def _drawn_by_font(chars: set[str], font: str, partner: str | None) -> set[str]:
    """Those of the characters of a line in an Arabic script that ``runs`` draws in ``font``
    rather than in its Arabic partner: those the partner lacks and ``font`` has (all of them
    when there is no partner)."""
    if partner is None:
        return chars
    without = fonts.lacking(partner, chars)
    return without - fonts.lacking(font, without)


def missing_glyphs(text: str, font: str) -> str:
    """Characters neither the font nor its Arabic partner can draw."""
    lacking = fonts.lacking(font, text)
    if not lacking:
        return ""
    partner = fonts.partner(font)
    return "".join(sorted(fonts.lacking(partner, lacking) if partner else lacking))


@lru_cache(maxsize=8192)
def ink(text: str, font: str) -> tuple[float, float] | None:
    """The lowest and highest ink of the shaped text, in ems from its baseline."""
    extents = [e for e in (fonts.ink_extent(name, part) for part, name in runs(text, font)) if e]
    return (min(e[0] for e in extents), max(e[1] for e in extents)) if extents else None


def fit_once(text: str, font: str, box_w: float, box_h: float, max_size: float, min_size: float) -> Fit:
    """The largest size up to ``max_size`` at which ``text`` fits the box on one line.
    Its height is measured by its script: Latin, Cyrillic and Greek by the face's ascent
    and descent; an Arabic script, whose letters reach far above and below and differ
    word to word, by the word's own ink (docs/design.md §6.5). ``fit`` is the same, cached:
    this is for text fitted once (a key's number, new on every key), which would only fill
    the cache."""
    parts = runs(text, font)
    faces = [pdfmetrics.getFont(name).face for name in {name for _, name in parts}]
    height = max((face.ascent - face.descent) / 1000.0 for face in faces)
    extent = is_arabic_script(text) and ink(text, font)
    if extent:
        height = extent[1] - extent[0]
    one = sum(pdfmetrics.stringWidth(part, name, 1.0) for part, name in parts)
    size = min(max_size, box_w / one if one else max_size, box_h / height)
    size = int(size / SIZE_STEP) * SIZE_STEP
    missing = missing_glyphs(text, font)
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
    ``rtl``: its paragraph's base direction (``shape``)."""
    if not text:
        return
    shift = _SHIFT[align]
    if not rtl and not is_arabic_script(text):          # plain text: drawn as it is, in its own font
        c.setFont(font, size)
        face = pdfmetrics.getFont(font)
        if not face._dynamicFont:
            {"left": c.drawString, "centre": c.drawCentredString, "right": c.drawRightString}[align](x, y, text)
            return
        _show(c, face, text, size, x - shift * pdfmetrics.stringWidth(text, font, size) if shift else x, y)
        return
    parts = runs(text, font, rtl)
    start = x - shift * sum(pdfmetrics.stringWidth(part, name, size) for part, name in parts)
    shaped = shape(text, rtl)
    if shaped.actual is not None:
        actual_text_begin(c, shaped.actual)
    for part, name in parts:
        c.setFont(name, size)
        c.drawString(start, y, part)
        start += pdfmetrics.stringWidth(part, name, size)
    if shaped.actual is not None:
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
    # middle (tails and accents hang outside, as type does); an Arabic script: on its own ink
    middle = face.capHeight / 1000.0 / 2
    extent = is_arabic_script(text) and ink(text, font)
    if extent:
        middle = sum(extent) / 2
    draw_line(c, text, font, size, 0, -middle * size, "centre")
    c.restoreState()
