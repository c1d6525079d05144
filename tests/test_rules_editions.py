"""Each edition's rules say only what applies to it, in every language; Persian
numbers are written in Persian digits; every messages file names its digits."""

import re
import unicodedata

import pytest
import yaml

from kitgen import fonts
from kitgen.games.codenames import layout as layout_mod, texts
from kitgen.games.codenames.model import RuleSwitches
from kitgen.games.codenames.render import rules_sheet
from kitgen.games.codenames.render.rules_sheet import for_edition
from kitgen.layouts import Node

LANGUAGES = tuple(texts.languages())          # every built-in language, the first three and those since
EDITIONS = {"words": "default", "pictures": "pictures"}
EVERYTHING = RuleSwitches()          # every variant and every restriction switched on

# English phrases that only make sense when the cards carry words
WORDS_ONLY_PHRASES = ("no translations", "word pieces", "still visible on the table", "its word",
                      "a word on the table", "words on the table", "word length", "knight")


def story(lang: str, edition: str, switches: RuleSwitches = EVERYTHING) -> list[str]:
    """The texts of the rules sheet's blocks, in reading order, without drawing a PDF."""
    layout = layout_mod.load(EDITIONS[edition])
    blocks = rules_sheet.story(layout, fonts.register_roles(layout), texts.load(lang), switches, edition)
    return [block.content for block in blocks]


def per_edition_texts(lang: str) -> list:
    """Every paragraph and variant of the rules that is written per edition (a mapping)."""
    rules = texts.load(lang).rules
    found = [p for section in rules.sections for p in section.paragraphs if not isinstance(p, str)]
    return found + [v for v in rules.variants.values() if not isinstance(v, str)]


def words_only(lang: str) -> list[str]:
    """Words-edition texts the pictures edition must not print: the words text of every
    paragraph or variant written per edition (with no pictures text, or another one)."""
    entries = per_edition_texts(lang)
    # a text for both editions is written once, as a plain text
    assert all(p.get("words") != p.get("pictures") for p in entries)
    return [p["words"] for p in entries if "words" in p]


@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_pictures_rules_print_no_words_only_rule(lang):
    pictures, words = story(lang, "pictures"), story(lang, "words")
    assert all(isinstance(t, str) and t for t in pictures)
    only = words_only(lang)
    # at least the clue-word paragraph and the translation and word-piece restrictions
    assert len(only) >= 3
    for text in only:
        assert text not in pictures, text
        assert text in words, text
    variants = texts.load(lang).rules.variants
    for name in ("translation", "word_forms"):
        assert for_edition(variants[f"restriction_{name}"], "pictures") is None
    # every pictures text of a paragraph or a restriction is printed (all are switched on)
    rules = texts.load(lang).rules
    entries = [p for section in rules.sections for p in section.paragraphs]
    entries += [variants[f"restriction_{name}"] for name in EVERYTHING.restrictions]
    for entry in entries:
        if for_edition(entry, "pictures") is not None:
            assert for_edition(entry, "pictures") in pictures


def test_the_english_pictures_rules_speak_of_pictures():
    pictures = " ".join(story("en", "pictures")).lower()
    words = " ".join(story("en", "words")).lower()
    for phrase in WORDS_ONLY_PHRASES:
        assert phrase not in pictures, phrase
        assert phrase in words, phrase
    assert "even the name of something drawn on a card" in pictures
    assert "pictures" not in words


@pytest.mark.parametrize("lang", LANGUAGES)
def test_a_restrictions_heading_needs_a_rule_of_the_edition_under_it(lang):
    heading = texts.load(lang).rules.variants.restrictions_heading
    switches = RuleSwitches(restrictions=("translation", "word_forms"), invalid_clue_penalty=False)
    assert heading in story(lang, "words", switches)
    assert heading not in story(lang, "pictures", switches)
    assert heading in story(lang, "pictures", RuleSwitches(restrictions=("letters",), invalid_clue_penalty=False))


def test_a_text_may_belong_to_one_edition_only():
    assert for_edition("both", "pictures") == "both"
    assert for_edition(Node(words="w", pictures="p"), "pictures") == "p"
    assert for_edition(Node(words="w"), "pictures") is None
    assert for_edition(Node(pictures="p"), "words") is None


def strings(value):
    """Every text of a messages file."""
    if isinstance(value, dict):
        for v in value.values():
            yield from strings(v)
    elif isinstance(value, list):
        for v in value:
            yield from strings(v)
    elif isinstance(value, str):
        yield value


def latin(ch: str) -> bool:
    return "LATIN" in unicodedata.name(ch, "")


def stray_ascii_digits(text: str) -> list[str]:
    """ASCII digits outside {placeholders} not led by a Latin letter (as in "License 1.1"),
    each shown with a little context."""
    text = re.sub(r"\{[^{}]*\}", "", text)
    stray = []
    for i, ch in enumerate(text):
        if ch in "0123456789":
            letters = [c for c in text[:i] if c.isalpha()]
            if not letters or not latin(letters[-1]):
                stray.append(text[max(0, i - 20):i + 5])
    return stray


def test_persian_numbers_are_written_in_persian_digits():
    data = yaml.safe_load((texts.folder() / "fa.yaml").read_text("utf-8"))
    assert data["language"] == "fa"
    found = [s for t in strings(data) for s in stray_ascii_digits(t)]
    assert not found, found
    everything = "".join(strings(data))
    assert not re.search("[\u0660-\u0669]", everything)      # Persian digits, not Arabic-Indic ones
    assert "SIL Open Font License 1.1" in data["labels"]["font_credit"]
    rules = " ".join(story("fa", "pictures"))
    assert "۸" in rules and "۲۰" in rules and "8" not in rules


def test_the_digit_check_allows_only_latin_runs_and_placeholders():
    assert stray_ascii_digits("مجوز SIL Open Font License 1.1 است") == []
    assert stray_ascii_digits("صفحهٔ {n} از {total}") == []
    assert stray_ascii_digits("«اقیانوس: 2»")
    assert stray_ascii_digits("25 تا")


OWN_DIGITS = {"fa": "۰۱۲۳۴۵۶۷۸۹", "ar": "٠١٢٣٤٥٦٧٨٩"}        # Persian's and the Arabic-Indic digits


@pytest.mark.parametrize("lang, digits", [(lang, OWN_DIGITS.get(lang, "0123456789")) for lang in texts.languages()])
def test_every_messages_file_names_its_ten_digits(lang, digits):
    messages = texts.load(lang)
    assert messages.language == lang
    assert messages.digits == digits
    assert len(set(messages.digits)) == 10
    assert [unicodedata.digit(ch) for ch in messages.digits] == list(range(10))
