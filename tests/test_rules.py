"""The rules sheet states exactly the variants the kit switches on."""

import pypdfium2 as pdfium
import yaml

from kitgen.games.codenames import build, kitfile, texts
from kitgen.games.codenames.render.rules_sheet import for_edition


def rules_text(tmp_path, rules: dict) -> str:
    kit = tmp_path / "kit.yaml"
    kit.write_text(yaml.safe_dump({"id": "r", "deck": "classic-en", "seed": "s", "keys": 2, "cards": 13,
                                   "rules": rules}))
    files, _ = build.build_files(kitfile.load(kit))
    data = next(f.data for f in files if f.name == "rules.pdf")
    document = pdfium.PdfDocument(data)
    return " ".join(" ".join(page.get_textpage().get_text_range().split()) for page in document)


def norm(text) -> str:
    """A text (a variant's words-edition text) with its white space collapsed."""
    return " ".join(for_edition(text, "words").split())


def test_default_rules_state_every_default_variant(tmp_path):
    en = texts.load("en").rules.variants
    text = rules_text(tmp_path, {})
    for key in ("plus_one_standard", "zero_clue", "unlimited_clue", "invalid_clue_penalty",
                "restriction_translation", "restriction_letters"):
        assert norm(en[key])[:60] in text
    assert norm(en.plus_one_earned)[:60] not in text


def test_switched_off_variants_are_not_printed(tmp_path):
    en = texts.load("en").rules.variants
    text = rules_text(tmp_path, {"plus_one": "earned", "zero_clue": False, "unlimited_clue": False,
                                 "invalid_clue_penalty": False, "restrictions": ["letters"]})
    assert norm(en.plus_one_earned)[:60] in text
    for key in ("plus_one_standard", "plus_one_none", "zero_clue", "unlimited_clue", "invalid_clue_penalty",
                "restriction_translation"):
        assert norm(en[key])[:60] not in text
    assert norm(en.restriction_letters)[:60] in text


def test_each_edition_states_only_its_own_numbers(tmp_path):
    words = rules_text(tmp_path, {})
    assert "9 against 8" in words and "8 against 7" not in words and "pictures" not in words.lower()
    files, _ = build.build_files(kitfile.load(kitfile.kit_path(None, "pictures"), keys=2))
    data = next(f.data for f in files if f.name == "rules.pdf")
    text = norm(" ".join(page.get_textpage().get_text_range() for page in pdfium.PdfDocument(data)))
    assert "8 against 7" in text and "9 against 8" not in text and "5 columns and 4 rows" in text
