"""Text shaped by HarfBuzz: every script but Latin, Cyrillic and Greek (docs/design.md §7.2).

A line is laid out in three steps. The Unicode bidi algorithm (python-bidi's
pure-Python one, with rules N0 and L1 added) gives each character its level, and
the line falls into runs of one level, ordered as rule L2 orders them. Each run
falls into pieces of one font: a character's script (Common and Inherited
characters take their word's) picks the family the layout names for it
(``fonts.fallback``), else the role's own font; a font that lacks the character
gives it to the first font that has it (``_font_of``).
Each piece is shaped by HarfBuzz in the run's direction, with its script, the
language ``und`` (the font's default forms: the layout picks a Japanese,
Korean or Chinese font by the kit's language) and HarfBuzz's default features,
which is what ``hb-shape`` does with the same font file and those options.

Latin, Cyrillic and Greek text without a right-to-left paragraph is not shaped
here: it is drawn as reportlab draws it, character by character (text.py).
"""

import re
import unicodedata
from dataclasses import dataclass
from functools import lru_cache

from fontTools import unicodedata as ucd
from reportlab.pdfbase import pdfmetrics

from .. import fonts

# scripts the role's own font draws without shaping, and those whose characters take their neighbour's
SIMPLE = frozenset({"Latn", "Cyrl", "Grek"})
NEUTRAL = frozenset({"Zyyy", "Zinh", "Zzzz"})
LANGUAGE = "und"
ZWNJ = "\u200c"
_PLACEHOLDER = "\u08a0"   # an unused right-to-left letter that stands in for ZWNJ, which bidi would drop
_FIRST_COMPLEX = 0x0530   # every character below this is Latin, Greek, Cyrillic or common


@dataclass(frozen=True)
class Glyph:
    gid: int
    cluster: int            # the index in the piece's text of the first character it draws
    advance: int            # in font units
    dx: int
    dy: int


@dataclass(frozen=True)
class Piece:
    font: str               # the registered reportlab name
    text: str               # the characters it draws, in logical order
    script: str
    rtl: bool
    glyphs: tuple
    units: int              # the font's units per em

    @property
    def advance(self) -> float:
        """In ems."""
        return sum(g.advance for g in self.glyphs) / self.units


@dataclass(frozen=True)
class Line:
    pieces: tuple           # left to right
    actual: str             # for /ActualText: the text as extraction tools are to read it
    missing: str            # characters no font of the line draws

    @property
    def advance(self) -> float:
        return sum(p.advance for p in self.pieces)


@lru_cache(maxsize=65536)
def script(char: str) -> str:
    return ucd.script(char)


def needs_shaping(text: str, rtl: bool | None = None) -> bool:
    """Whether ``text`` is shaped here: it holds a character of a script beyond Latin, Cyrillic and
    Greek, or is a line of a right-to-left paragraph."""
    if rtl:
        return True
    if not text or max(map(ord, text)) < _FIRST_COMPLEX:
        return False
    return any(_complex(ch) for ch in text)


@lru_cache(maxsize=65536)
def _complex(char: str) -> bool:
    """Whether ``char`` is of a script beyond Latin, Cyrillic and Greek: by its script, or, for a
    common character, by its script extensions (the Arabic comma and tatweel, the Devanagari danda,
    the CJK full stop); a common character any script uses (’, …) is not."""
    own = script(char)
    if own in SIMPLE:
        return False
    if own not in NEUTRAL:
        return True
    extensions = ucd.script_extension(char)
    return not extensions & (SIMPLE | NEUTRAL)


def line(text: str, font: str, rtl: bool | None = None) -> Line:
    """``text`` shaped, as it is drawn in the role font ``font``; ``rtl`` the base direction of its
    paragraph (True, False, None: its first strong character decides)."""
    return _line(text, font, rtl, fonts.stack(font), pdfmetrics.getFont(font))


@lru_cache(maxsize=8192)
def _line(text: str, font: str, rtl: bool | None, *_key) -> Line:
    base = {True: "R", False: "L", None: None}[rtl]
    pieces, missing = [], []
    for start, end, level in _runs(text, base):
        parts = _fonts(text[start:end], font)
        if level % 2:
            parts.reverse()
        for chars, name, run_script in parts:
            piece = _shape(chars, name, run_script, bool(level % 2))
            pieces.append(piece)
            missing += [chars[g.cluster] for g in piece.glyphs if g.gid == 0 and not chars[g.cluster].isspace()]
    actual = display(text.replace(ZWNJ, _PLACEHOLDER), base).replace(_PLACEHOLDER, ZWNJ)
    lacking = "".join(sorted(set(missing) - {ZWNJ, "\u200d"}))
    return Line(tuple(pieces), actual, lacking)


def _levels(text: str, base: str | None) -> list[int]:
    """Each character's bidi level; the characters rule X9 removes take their neighbour's."""
    if not any(unicodedata.bidirectional(ch) in RTL_CLASSES for ch in text) and base != "R":
        return [0] * len(text)
    from bidi import algorithm as bidi

    storage = bidi.get_empty_storage()
    storage["base_level"] = bidi.PARAGRAPH_LEVELS[base] if base else bidi.get_base_level(text)
    storage["base_dir"] = ("L", "R")[storage["base_level"]]
    bidi.get_embedding_levels(text, storage, False, False)
    for index, char in enumerate(storage["chars"]):
        char["index"] = index
    bidi.explicit_embed_and_overrides(storage, False)
    bidi.resolve_weak_types(storage, False)
    _paired_brackets(storage)
    bidi.resolve_neutral_types(storage, False)
    bidi.resolve_implicit_levels(storage, False)
    bidi.reorder_resolved_levels(storage, False)     # rule L1 (whitespace and separators at the base level), L2
    levels: list = [None] * len(text)
    for char in storage["chars"]:
        levels[char["index"]] = char["level"]
    known = next((lv for lv in levels if lv is not None), storage["base_level"])
    for i, level in enumerate(levels):
        known = levels[i] = known if level is None else level
    return levels


# the paired brackets of the bidi algorithm's BD16 that kitgen's texts use (UnicodeData's Bidi_Paired_Bracket)
BRACKETS = {"(": ")", "[": "]", "{": "}", "\u2045": "\u2046", "\u2329": "\u232a", "\u3008": "\u3009",
            "\u300a": "\u300b", "\u300c": "\u300d", "\u300e": "\u300f", "\u3010": "\u3011", "\u3014": "\u3015",
            "\uff08": "\uff09", "\uff3b": "\uff3d", "\uff5b": "\uff5d"}
_CLOSERS = {close: open_ for open_, close in BRACKETS.items()}


def _strong(bidi_type: str) -> str | None:
    """A resolved type as rule N0 reads it: L, R (R, AL, and numbers count as R), or None."""
    return "L" if bidi_type == "L" else "R" if bidi_type in ("R", "AL", "EN", "AN") else None


def _paired_brackets(storage) -> None:
    """Rule N0 of the bidi algorithm, which python-bidi's pure-Python one leaves out: a pair of
    brackets (BD16) takes the embedding direction when a strong type of that direction stands
    inside it, else the other direction when one stands inside and before it, so that "(SIL 1.1)"
    after a Latin word in a Hebrew line stays a pair around it (applied to each level run)."""
    chars = storage["chars"]
    for run in storage["runs"]:
        start, end = run["start"], run["start"] + run["length"]
        embedding = "R" if chars[start]["level"] % 2 else "L"
        stack, pairs = [], []
        for i in range(start, end):
            ch, kind = chars[i]["ch"], chars[i]["type"]
            if kind != "ON":
                continue
            if ch in BRACKETS:
                if len(stack) == 63:
                    break
                stack.append((BRACKETS[ch], i))
            elif ch in _CLOSERS:
                for depth in range(len(stack) - 1, -1, -1):
                    if stack[depth][0] == ch:
                        pairs.append((stack[depth][1], i))
                        del stack[depth:]
                        break
        for opener, closer in sorted(pairs):
            inside = {_strong(chars[i]["type"]) for i in range(opener + 1, closer)} - {None}
            if embedding in inside:
                direction = embedding
            elif inside:
                before = next((_strong(chars[i]["type"]) for i in range(opener - 1, start - 1, -1)
                               if _strong(chars[i]["type"])), run["sor"])
                direction = before if before != embedding else embedding
            else:
                continue
            chars[opener]["type"] = chars[closer]["type"] = direction


def _runs(text: str, base: str | None) -> list[tuple[int, int, int]]:
    """The text's runs of one bidi level, (start, end, level), in visual order (rule L2)."""
    levels = _levels(text, base)
    runs: list[list[int]] = []
    for i, level in enumerate(levels):
        if runs and runs[-1][2] == level:
            runs[-1][1] = i + 1
        else:
            runs.append([i, i + 1, level])
    odd = [r[2] for r in runs if r[2] % 2]
    if odd:
        for level in range(max(r[2] for r in runs), min(odd) - 1, -1):
            i = 0
            while i < len(runs):
                if runs[i][2] >= level:
                    j = i
                    while j < len(runs) and runs[j][2] >= level:
                        j += 1
                    runs[i:j] = runs[i:j][::-1]
                    i = j
                else:
                    i += 1
    return [tuple(r) for r in runs]


_WORDS = re.compile(r"\S+\s*|\s+")       # words with the white space after them


def _scripts(text: str) -> list[tuple[str, tuple]]:
    """Each character's script, and the scripts of its word. Within a word, Common and Inherited
    characters take the script before them, else the one after; a word of them alone is Common;
    white space goes with the word before it. Resolved word by word, a word's fonts do not depend
    on its neighbours, so a line's advance is its words' (``text.fits``)."""
    out = []
    for word in _WORDS.findall(text):
        own = [script(ch) for ch in word]
        strong = [s for s in own if s not in NEUTRAL]
        others = tuple(dict.fromkeys(s for s in strong if s not in SIMPLE))
        last = strong[0] if strong else "Zyyy"
        for s in own:
            if s not in NEUTRAL:
                last = s
            out.append((last, others))
    return out


def font_for(char_script: str, font: str) -> str:
    """The registered font that draws ``char_script`` in text set in ``font``."""
    if char_script in SIMPLE or char_script in NEUTRAL:
        return font
    return fonts.fallback(font, char_script) or font


def _fonts(text: str, font: str) -> list[tuple[str, str, str]]:
    """The run in pieces of one font, (characters, font, script), in logical order. A character its
    script's font lacks is drawn by the first that has it of the role's font, the fonts of its
    word's other scripts and those of its own script extensions (a full stop after a Latin word in
    Japanese text, in the Japanese font; an Arabic semicolon after a Latin word, in the Arabic font)."""
    out: list[list] = []
    for ch, (ch_script, others) in zip(text, _scripts(text)):
        name = _font_of(ch, ch_script, font, others, fonts.stack(font))
        if out and out[-1][1] == name:
            out[-1][0] += ch
        else:
            out.append([ch, name, ch_script])
    return [tuple(p) for p in out]


@lru_cache(maxsize=65536)
def _font_of(ch: str, ch_script: str, font: str, others: tuple, *_key) -> str:
    name = font_for(ch_script, font)
    if not fonts.lacking(name, ch):
        return name
    # of a character's script extensions (the CJK full stop: Bopomofo, Han, Hangul, Kana...), those
    # drawn by the kit's own Han font first (Japanese for a Japanese kit), then in code order
    han = fonts.fallbacks(font).get("Hani")
    extensions = sorted(ucd.script_extension(ch), key=lambda s: (fonts.fallbacks(font).get(s) != han, s))
    # a generator: a family is registered (a CJK one cut) only when the ones before it lack the character
    candidates = (font_for(s, font) if s else font for s in (None,) + others + tuple(extensions))
    return next((other for other in candidates if not fonts.lacking(other, ch)), name)


def _shape(chars: str, font: str, piece_script: str, rtl: bool) -> Piece:
    import uharfbuzz as hb

    hbf, units = fonts.hb_font(font)
    buffer = hb.Buffer()
    buffer.add_str(chars)
    buffer.direction = "rtl" if rtl else "ltr"
    buffer.script = piece_script
    buffer.language = LANGUAGE
    hb.shape(hbf, buffer, {})
    glyphs = tuple(Glyph(info.codepoint, info.cluster, pos.x_advance, pos.x_offset, pos.y_offset)
                   for info, pos in zip(buffer.glyph_infos, buffer.glyph_positions))
    return Piece(font, chars, piece_script, rtl, glyphs, units)


RTL_CLASSES = frozenset({"R", "AL", "RLE", "RLO", "RLI"})      # what can make any character right to left


def display(text: str, base: str | None) -> str:
    """The text in visual order, as it is drawn: the levels ``_levels`` finds (python-bidi's
    algorithm with rule N0), reordered by rule L2, a bracket at an odd level mirrored, the characters
    rule X9 removes (ZWNJ) dropped, ``base`` the paragraph's direction ("R", "L", None: found). A text
    with no right-to-left character and a left-to-right base is its own visual order."""
    classes = set(map(unicodedata.bidirectional, text))
    if not classes & RTL_CLASSES and base != "R":
        return text
    from bidi.mirror import MIRRORED

    levels = _levels(text, base)
    order = list(range(len(text)))
    top = max(levels, default=0)
    odd = [lv for lv in levels if lv % 2]
    for level in range(top, (min(odd) if odd else top + 1) - 1, -1):
        i = 0
        while i < len(order):
            if levels[order[i]] >= level:
                j = i
                while j < len(order) and levels[order[j]] >= level:
                    j += 1
                order[i:j] = order[i:j][::-1]
                i = j
            else:
                i += 1
    kept = [i for i in order if unicodedata.bidirectional(text[i]) not in _REMOVED]
    return "".join(MIRRORED.get(text[i], text[i]) if levels[i] % 2 else text[i] for i in kept)


_REMOVED = frozenset({"RLE", "LRE", "RLO", "LRO", "PDF", "BN"})     # rule X9's classes


def ink(shaped: Line) -> tuple[float, float] | None:
    """The lowest and highest ink of a shaped line, in ems from its baseline."""
    low, high = None, None
    for piece in shaped.pieces:
        for glyph in piece.glyphs:
            box = fonts.gid_ink(piece.font, glyph.gid)
            if box:
                bottom, top = box[1] + glyph.dy / piece.units, box[3] + glyph.dy / piece.units
                low = bottom if low is None else min(low, bottom)
                high = top if high is None else max(high, top)
    return None if low is None else (low, high)


_PRIVATE = 0xE000         # glyphs no character maps to are shown by a private-use code: this one plus their number
_PRIVATE_END = 0xF8FF


def code(face, gid: int) -> str:
    """The character reportlab shows glyph ``gid`` of a TrueType face with: a character the font maps
    to it, else a private-use one given to it here (the same for the same glyph in any build, so
    that a PDF's bytes do not depend on what was drawn before)."""
    chars = face.glyphToChar.get(gid)
    if chars:
        return chr(chars[0])
    point = _PRIVATE + gid
    if point > _PRIVATE_END or point in face.charToGlyph:
        point = 0xF0000 + gid
    face.charToGlyph[point] = gid
    face.glyphToChar[gid] = [point]
    face.charWidths[point] = face._pdfScale(face.hmetrics[gid][0])
    return chr(point)


def _searchable(ttf, doc, escape, shaped: Line, size: float) -> list[str]:
    """What makes the line's /ActualText readable by pdfium: it reads a span's ActualText only when
    the font of the span's first text object can encode one of its characters (else it reads the
    glyphs' own codes -- presentation forms, private-use codes -- in visual order). When the subset of
    the line's first glyph encodes none, the span starts with an invisible glyph of one of them, in
    its own subset, its advance taken back: the operators that draw it (none when not needed)."""
    from reportlab.lib.rl_accel import fp_str

    piece = shaped.pieces[0]
    ((subset, _),) = ttf.splitString(code(ttf.face, piece.glyphs[0].gid), doc)
    assignments = ttf.state[doc].assignments
    mapped = [ch for ch in dict.fromkeys(shaped.actual) if ord(ch) in ttf.face.charToGlyph and not ch.isspace()]
    if not mapped or any(assignments.get(ord(ch), -1) >> 8 == subset for ch in mapped):
        return []
    ((own, chunk),) = ttf.splitString(mapped[0], doc)
    if own == subset:
        return []
    width = ttf.face.getCharWidth(ord(mapped[0]))
    return [f"{ttf.getSubsetInternalName(own, doc)} {fp_str(size)} Tf 3 Tr [({escape(chunk)}) {fp_str(width)}] TJ 0 Tr"]


def show(c, shaped: Line, size: float, x: float, y: float) -> None:
    """Write the shaped line from (x, y): each glyph where HarfBuzz puts it, in the PDF's text
    operators (a TJ array's numbers for advances and offsets along the line, Ts for offsets across)."""
    from reportlab.lib.rl_accel import fp_str

    doc, escape = c._doc, c._escape
    ops = [f"BT 1 0 0 1 {fp_str(x)} {fp_str(y)} Tm"]
    pen = drawn = 0.0                      # where HarfBuzz's pen is, and where the PDF's is, in points
    font_now = rise_now = None
    items: list[str] = []
    if shaped.pieces and shaped.pieces[0].glyphs:
        ops += _searchable(pdfmetrics.getFont(shaped.pieces[0].font), doc, escape, shaped, size)

    run = bytearray()                      # glyphs shown one after another, with nothing between them

    def flush_run():
        if run:
            items.append(f"({escape(bytes(run))})")
            run.clear()

    def flush():
        flush_run()
        if items:
            ops.append("[" + " ".join(items) + "] TJ")
            items.clear()

    for piece in shaped.pieces:
        ttf = pdfmetrics.getFont(piece.font)
        face = ttf.face
        scale = size / piece.units
        codes = [code(face, glyph.gid) for glyph in piece.glyphs]
        # one byte a glyph, in order, each with its subset
        shown = [(subset, byte) for subset, chunk in ttf.splitString("".join(codes), doc) for byte in chunk]
        for glyph, char, (subset, byte) in zip(piece.glyphs, codes, shown):
            rise = glyph.dy * scale
            if (piece.font, subset) != font_now:
                flush()
                ops.append(f"{ttf.getSubsetInternalName(subset, doc)} {fp_str(size)} Tf")
                font_now = (piece.font, subset)
            if rise != rise_now and (rise or rise_now):
                flush()
                ops.append(f"{fp_str(rise)} Ts")
            rise_now = rise
            target = pen + glyph.dx * scale
            if abs(target - drawn) > 1e-9:
                flush_run()
                items.append(fp_str(-(target - drawn) * 1000 / size))
            run.append(byte)
            drawn = target + face.getCharWidth(ord(char)) * size / 1000
            pen += glyph.advance * scale
    flush()
    if rise_now:
        ops.append("0 Ts")
    ops.append("ET")
    c._code.append(" ".join(ops))
