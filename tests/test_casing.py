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


@pytest.mark.parametrize("word, capitals", [
    ("inek", "İNEK"), ("ısırgan", "ISIRGAN"), ("çiğ", "ÇİĞ"), ("Çığ", "ÇIĞ"), ("iskele", "İSKELE"),
    ("kâğıt", "KÂĞIT"),
])
def test_turkish_capitals_dot_the_i(word, capitals):
    """In a Turkish (or Azerbaijani) kit i is İ and ı is I: Çiğ (dew) and Çığ (avalanche) stay two words."""
    assert apply_case(word, "upper", "tr") == capitals
    assert apply_case(word, "upper", "az") == capitals
    assert apply_case(word, "upper", "de") == word.upper()      # other languages: str.upper


def test_the_turkish_kit_prints_dotted_capitals(tmp_path):
    """The built-in Turkish deck's words with an i print with İ on the cards (read back from the PDF)."""
    import shutil
    import subprocess

    if shutil.which("pdftotext") is None:
        pytest.skip("pdftotext (poppler-utils) is not installed")
    from kitgen.games.codenames import build, contents, kitfile

    kit = kitfile.load(kitfile.kit_path(None, None, "tr"), keys=2)
    folder, _, _ = build.build(kit, tmp_path)
    printed = set(subprocess.run(["pdftotext", str(folder / "codenames.pdf"), "-"], capture_output=True, text=True,
                                 check=True).stdout.split())
    words = {w for card in contents.build(kit).codename_cards for w in (card.front, card.back)}
    dotted = [w for w in words if "i" in w]
    assert dotted
    wanted = {w.replace("i", "İ").upper() for w in words}
    for word in dotted:
        assert word.replace("i", "İ").upper() in printed, word
        # the capitals Python's upper() gives are not printed (unless they are another word's: Çığ, Çiğ)
        assert word.upper() not in printed or word.upper() in wanted, word
