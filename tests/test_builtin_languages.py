"""Every built-in language has a words kit and a duet kit that build: its deck of at least 400 of its
own words, every word on the cards read back from codename cards.pdf in its capitals, the tiles and the
rules in its language (issue 28: the languages beyond en, ru and fa, which tests/test_languages.py
covers more closely)."""

import shutil
import unicodedata

import pytest

from kitgen.games.codenames import build, decks, kitfile, texts
from kitgen.render import text as text_mod

from test_languages import extract

FIRST = {"en", "ru", "fa"}
NEW = sorted(set(texts.languages()) - FIRST)
pdftotext = shutil.which("pdftotext")


def test_the_new_languages_are_there():
    assert {"de", "el", "es", "fr", "it", "pl", "pt", "uk"} <= set(NEW)


@pytest.fixture(scope="module")
def kits(tmp_path_factory):
    out = tmp_path_factory.mktemp("languages")
    return {lang: build.build(kitfile.load(kitfile.kit_path(None, None, lang), keys=4), out) for lang in NEW}


@pytest.mark.parametrize("lang", NEW)
def test_its_deck_is_its_own_400_words(lang):
    deck = decks.load(f"classic-{lang}")
    assert deck.language == lang and len(deck.words) >= 400
    for word in deck.words:
        # letters, and the marks of the scripts that write vowels and tones as marks (Devanagari, Thai)
        assert all(unicodedata.category(c)[0] in "LM" or c in "-'’" for c in word), word
    english = {w.lower() for w in decks.load("classic-en").words}
    shared = [w for w in deck.words if w.lower() in english]
    assert len(shared) < len(deck.words) / 10, shared            # written for the language, not the English list


@pytest.mark.skipif(pdftotext is None, reason="pdftotext (poppler-utils) is not installed")
@pytest.mark.parametrize("lang", NEW)
def test_its_kit_prints_its_words_tiles_and_rules(kits, lang):
    folder, _, manifest = kits[lang]
    cards = build.contents.build(kitfile.load(kitfile.kit_path(None, None, lang))).codename_cards
    lines = " ".join(extract(folder / "codenames.pdf")).split()
    for word in {w for card in cards for w in (card.front, card.back)}:
        # extract() reads as a spell-checker would, in NFKC (Thai ำ is ํ and า there)
        assert unicodedata.normalize("NFKC", text_mod.apply_case(word, "upper", lang)) in lines, word
    labels = texts.load(lang).labels
    tiles = extract(folder / "tiles.pdf")
    for key in ("red_agent", "blue_agent", "double_agent", "bystander", "assassin"):
        assert unicodedata.normalize("NFKC", text_mod.apply_case(labels[key], "upper", lang)) in tiles, key
    assert unicodedata.normalize("NFKC", texts.load(lang).rules.title) in " ".join(extract(folder / "rules.pdf"))


@pytest.mark.parametrize("lang", NEW)
def test_its_duet_kit_builds(tmp_path, lang):
    kit = kitfile.load(kitfile.kit_path(None, "duet", lang), keys=2)
    assert kit.language == lang and kit.edition.cooperative
    folder, files, _ = build.build(kit, tmp_path)
    assert {"codenames.pdf", "keys.pdf", "rules.pdf", "kit.pdf"} <= {f.name for f in files}


def test_the_family_declares_every_language_it_has_messages_for():
    """The server's lang field and the help list the family's declared languages: none forgotten."""
    from kitgen.games.codenames.family import FAMILY

    assert set(FAMILY.languages) == set(texts.languages())
    assert FAMILY.languages[:3] == ("en", "ru", "fa")


def test_a_no_break_space_holds_its_words_on_one_line():
    """French typesetting joins « and its word, and a word and ; : ! ?, with no-break spaces; the
    rules sheet never breaks a line there (every other space may break)."""
    from kitgen import fonts
    from kitgen.games.codenames import layout as layout_mod
    from kitgen.render import columns

    layout = layout_mod.load("default")
    styles = columns.styles(layout, fonts.register_roles(layout))
    phrase = "un indice comme «\u202fOcéan\u202f: 2\u202f» puis «\u202fForêt\u00a0!\u202f» et rien d’autre"
    for width in range(40, 200, 7):
        lines = columns.wrap(phrase, styles.body, width)
        assert " ".join(lines) == phrase
        assert not any(line.startswith(("»", ":", "!")) or line.endswith("«") for line in lines), lines
    assert len(columns.wrap("a b c d e f g h", styles.body, 20)) > 1       # ordinary spaces still break
