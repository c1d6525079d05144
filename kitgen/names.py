"""Names and words as people type them: the printed form, what makes two the same, the
invisible characters refused, and ids made from names."""

import re
import unicodedata


def normalize(word: str) -> str:
    """The printed form: NFC, trimmed, inner white space folded to one space."""
    return " ".join(unicodedata.normalize("NFC", word).split())


def identity(word: str) -> str:
    """What makes two words the same word: case, white space, Unicode form and
    invisible format characters (zero-width joiners and the like) ignored."""
    folded = unicodedata.normalize("NFKC", word).casefold()
    return "".join(ch for ch in folded if not ch.isspace() and unicodedata.category(ch) != "Cf")


# Invisible characters that only hide or reorder text; ZWNJ and ZWJ stay (Persian needs ZWNJ).
FORBIDDEN = {"\u00ad": "a soft hyphen", "\u200b": "a zero-width space", "\u2060": "a word joiner",
             "\ufeff": "a zero-width no-break space", "\u061c": "a bidi mark",
             **{ch: "a bidi control" for ch in "\u200e\u200f\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069"}}


def unprintable(text: str, what: str = "name", fix: str = "remove it") -> str | None:
    """Why ``text``, a name, word or label as a user wrote it, cannot be printed: its first control
    character (Unicode category Cc: NUL, tab, newline, BEL, DEL, U+0085, ...) or character of FORBIDDEN,
    with its position (1-based, white space at either end trimmed, as the printed form drops it) and
    ``text`` shown escaped, never raw; None when it has none. Format characters a script needs (ZWNJ,
    ZWJ) are not refused."""
    shown = text.strip()
    for position, ch in enumerate(shown, 1):
        kind = "a control character" if unicodedata.category(ch) == "Cc" else FORBIDDEN.get(ch)
        if kind:
            return f"{what} {shown!r} has {kind} U+{ord(ch):04X} at position {position}; {fix}"
    return None


def slug(text: str) -> str:
    """A kit id made from a file name: lower case, letters, digits and '-', at most 16."""
    cleaned = re.sub(r"[^a-z0-9]+", "-", text.lower()).strip("-")[:16].strip("-")
    return cleaned or "kit"
