"""Capitals as each script writes them (layout ``case: upper``): Greek capitals drop their accents and
keep a dialytika, and a split diphthong gains one; every other script is ``str.upper``'s, so the
Latin and Cyrillic kits print what they printed."""

import pytest

from kitgen.render.text import apply_case, greek_upper


@pytest.mark.parametrize("word, capitals", [
    ("Άγαλμα", "ΑΓΑΛΜΑ"), ("Ελιά", "ΕΛΙΑ"), ("Ευρώπη", "ΕΥΡΩΠΗ"), ("Ωδή", "ΩΔΗ"),
    ("προϊόν", "ΠΡΟΪΟΝ"),              # a dialytika stays
    ("μαΐου", "ΜΑΪΟΥ"),                # dialytika and tonos on one letter: the tonos goes
    ("κορόιδο", "ΚΟΡΟΪΔΟ"),            # an accent that split a diphthong becomes the second vowel's dialytika
    ("άυλος", "ΑΫΛΟΣ"),
    ("καιρός", "ΚΑΙΡΟΣ"),              # a diphthong without an accent on its first vowel stays as it is
    ("ᾠδή", "ΩΔΗ"),                    # polytonic: breathing, iota subscript and accent go
])
def test_greek_capitals_drop_their_accents(word, capitals):
    assert greek_upper(word) == capitals
    assert apply_case(word, "upper") == capitals


@pytest.mark.parametrize("word", ["Apple", "straße", "ёлка", "Żółw", "kitap", "کتاب", "Crème brûlée"])
def test_other_scripts_are_str_upper(word):
    assert apply_case(word, "upper") == word.upper()
    assert apply_case(word, "as-is") == word
