"""Where a line of rules text may break inside a run of text without spaces (docs/design.md §7.2).

Most scripts break at spaces only (``columns.wrap``). Chinese and Japanese break between
characters, under the usual kinsoku rules: no line starts with closing punctuation, a small
kana or a prolonged-sound mark, and none ends with opening punctuation. Thai writes no space
between words, and breaks between words, found by PyThaiNLP's dictionary segmenter (newmm),
the ``thai`` extra. A break never falls inside a grapheme cluster: a mark stays with its letter.
"""

import atexit
import json
import unicodedata
from pathlib import Path

from kitgen import cache
from kitgen.errors import KitgenError

from . import shaping

# no line starts with these (closing punctuation, small kana, iteration and prolonged-sound marks)...
NO_START = frozenset("、。，．・：；？！）」』】〕〉》〙〗〟”’，．：；？！）］｝〜ー‐゠–…‥々〻ゝゞヽヾ"
                     "ぁぃぅぇぉっゃゅょゎゕゖァィゥェォッャュョヮヵヶㇰㇱㇲㇳㇴㇵㇶㇷㇸㇹㇺㇻㇼㇽㇾㇿ%％)]}»›")
# ...and none ends with these (opening punctuation)
NO_END = frozenset("（「『【〔〈《〘〖〝“‘（［｛([{«‹")
_BETWEEN_CHARACTERS = frozenset({"Hani", "Hira", "Kana", "Bopo"})


def _between_characters(char: str) -> bool:
    """Whether a line may break on either side of ``char``: a Chinese or Japanese character or
    full-width punctuation."""
    return shaping.script(char) in _BETWEEN_CHARACTERS or 0x3000 <= ord(char) <= 0x303F or \
        0xFF00 <= ord(char) <= 0xFFEF


def pieces(word: str) -> list[str]:
    """``word`` (a run without spaces) in the pieces a line may break between: itself for most
    scripts; Chinese and Japanese characters one by one, kinsoku kept; Thai word by word."""
    if not word or max(map(ord, word)) < 0x0E00:
        return [word]
    out = [word] if not any(0x0E00 <= ord(ch) <= 0x0E7F for ch in word) else _thai(word)
    if any(_between_characters(ch) for ch in word):
        out = [p for part in out for p in _cjk(part)]
    return out


def _cjk(word: str) -> list[str]:
    out = [word[0]]
    for before, char in zip(word, word[1:]):
        legal = ((_between_characters(before) or _between_characters(char)) and char not in NO_START
                 and before not in NO_END and not unicodedata.combining(char) and char not in "\u200d\u200c")
        if legal:
            out.append(char)
        else:
            out[-1] += char
    return out


# Thai words found before, kept in the cache folder (``thai/<pythainlp version>.json``): loading
# PyThaiNLP's dictionary takes about two seconds, segmenting a kit's rules text a few milliseconds
_segmented: dict | None = None
_unsaved: dict = {}


def _store() -> Path:
    from kitgen.versions import installed

    return cache.folder("thai") / f"pythainlp-{installed('pythainlp')}-newmm.json"


def _thai_words(run: str) -> tuple[str, ...]:
    global _segmented
    if _segmented is None:
        try:
            _segmented = json.loads(_store().read_text("utf-8"))
        except (OSError, ValueError):
            _segmented = {}
    if run in _segmented:
        return tuple(_segmented[run])
    try:
        from pythainlp.tokenize import word_tokenize
    except ImportError:
        raise KitgenError("Thai text is broken into lines between words by PyThaiNLP, which is not installed: "
                          "pip install 'kitgen[thai]'") from None
    words = word_tokenize(run, engine="newmm", keep_whitespace=False)
    if "".join(words) != run:           # a segmenter that drops or adds a character is not used
        words = [run]
    _segmented[run] = _unsaved[run] = words
    if len(_unsaved) == 1:
        atexit.register(save)
    return tuple(words)


def save() -> None:
    """Keep the Thai words found in this process for the next (at exit; a cache that cannot be
    written is left as it is)."""
    if not _unsaved:
        return
    _unsaved.clear()
    try:
        cache.write_atomically(_store(), json.dumps(_segmented, ensure_ascii=False, sort_keys=True).encode("utf-8"))
    except OSError:
        pass


def _thai(word: str) -> list[str]:
    """A run with Thai in it, split between the Thai words (and before and after other text)."""
    out: list[str] = []
    run = ""
    for char in word + "\0":
        thai = 0x0E00 <= ord(char) <= 0x0E7F
        if run and (thai != (0x0E00 <= ord(run[-1]) <= 0x0E7F) or char == "\0"):
            if 0x0E00 <= ord(run[-1]) <= 0x0E7F:
                out += list(_thai_words(run))
            else:
                out.append(run)
            run = ""
        run += char
    # punctuation that may not start a line goes with the word before it, and what may not end one
    # with the word after it
    merged: list[str] = []
    for piece in out:
        if merged and (piece[0] in NO_START or unicodedata.combining(piece[0]) or merged[-1][-1] in NO_END):
            merged[-1] += piece
        else:
            merged.append(piece)
    return merged
