"""Localized editions: Russian and Persian decks, Arabic-script shaping checked
against HarfBuzz, text extraction in logical order, messages per language."""

import shutil
import subprocess
import sys
import unicodedata

import pytest

from kitgen.errors import KitgenError
from kitgen.games.codenames import build, decks, kitfile, texts
from kitgen.render import text as text_mod

ZWNJ = "\u200c"
pdftotext = shutil.which("pdftotext")
needs_pdftotext = pytest.mark.skipif(pdftotext is None, reason="pdftotext (poppler-utils) is not installed")


def extract(path) -> list[str]:
    """pdftotext, then NFKC, as a publisher's spell-checker would read the PDF."""
    out = subprocess.run([pdftotext, str(path), "-"], capture_output=True, text=True, check=True).stdout
    cleaned = unicodedata.normalize("NFKC", out)
    for mark in "\u202a\u202b\u202c\u202d\u202e\u200e\u200f":
        cleaned = cleaned.replace(mark, "")
    return [line.strip() for line in cleaned.splitlines() if line.strip()]


@pytest.fixture(scope="module")
def kits(tmp_path_factory):
    out = tmp_path_factory.mktemp("lang")
    return {lang: build.build(kitfile.load(kitfile.kit_path(None, None, lang), keys=4), out)
            for lang in ("ru", "fa")}


def test_builtin_russian_and_persian_decks():
    ru, fa = decks.load("classic-ru"), decks.load("classic-fa")
    assert len(ru.words) >= 400 and len(fa.words) >= 400
    assert sum("ё" in w.lower() for w in ru.words) >= 8          # Ё kept where it belongs
    assert all(all("\u0400" <= ch <= "\u04ff" for ch in w) for w in ru.words)
    assert sum(ZWNJ in w for w in fa.words) >= 15 and sum("لا" in w for w in fa.words) >= 15
    assert not any(ch in w for w in fa.words for ch in "\u064a\u0643")   # Persian ye and kaf, not Arabic


@needs_pdftotext
def test_persian_words_extract_in_logical_order_with_zwnj_and_lam_alef(kits):
    folder, _, _ = kits["fa"]
    lines = extract(folder / "codenames.pdf")
    printed = [w for card in build.contents.build(kitfile.load(kitfile.kit_path(None, None, "fa"))).codename_cards
               for w in (card.front, card.back)]
    assert any(ZWNJ in w for w in printed) and any("لا" in w for w in printed)
    for word in printed:
        assert lines.count(word) == 2, word          # upright and turned, each read back as written


@needs_pdftotext
def test_russian_words_extract_with_yo(kits):
    folder, _, _ = kits["ru"]
    lines = extract(folder / "codenames.pdf")
    cards = build.contents.build(kitfile.load(kitfile.kit_path(None, None, "ru"))).codename_cards
    printed = [w.upper() for card in cards for w in (card.front, card.back)]
    assert any("Ё" in w for w in printed)
    for word in printed:
        assert lines.count(word) == 2, word


@needs_pdftotext
@pytest.mark.parametrize("lang", ["ru", "fa"])
def test_every_printed_label_is_in_the_kit_language(kits, lang):
    folder, _, _ = kits[lang]
    labels = texts.load(lang).labels
    tiles = extract(folder / "tiles.pdf")
    keys = ("red_agent", "blue_agent", "double_agent", "bystander", "assassin")
    for key in keys:
        shown = labels[key].upper()
        assert any(shown == line for line in tiles), (key, shown)
    # no English label where the language's own differs (French writes "Assassin" too)
    english = {texts.load("en").labels[key].upper() for key in keys} - {labels[key].upper() for key in keys}
    assert not any(line in english for line in tiles)
    rules = " ".join(extract(folder / "rules.pdf"))
    assert texts.load(lang).rules.title in rules


def test_visual_order_and_actual_text():
    from kitgen import fonts, layouts

    font = fonts.register_roles(layouts.load("default"))["word"]
    shaped = text_mod.shaped("کتاب\u200cخانه", font)
    assert shaped.actual == "هناخ\u200cباتک"          # visual order, ZWNJ kept for extraction
    assert [p.font for p in shaped.pieces] == [fonts.partner(font)] and shaped.pieces[0].rtl
    assert text_mod.shaped("Ёлка", font) is None        # Cyrillic is drawn as it is
    assert text_mod.shaped("(۱۲) سلام", font).actual.startswith("مالس")      # read from the right


def test_unknown_lang_lists_the_known_ones(tmp_path):
    result = subprocess.run([sys.executable, "-m", "kitgen", "build", "--lang", "xx", "--out", "o"],
                            cwd=tmp_path, capture_output=True, text=True)
    assert result.returncode == 2 and len(result.stderr.strip().splitlines()) == 1
    assert f"unknown --lang 'xx'; known languages: {', '.join(texts.languages())}" in result.stderr
    assert {"en", "fa", "ru"} <= set(texts.languages())
    assert not (tmp_path / "o").exists()


@pytest.mark.parametrize("edit, match", [
    (lambda t: t.replace("  assassin:", "  assasin:"), "message 'labels.assassin' is missing for language 'ru'"),
    (lambda t: t.replace("labels:\n", "labels:\n  surprise: \"x\"\n"), "message 'labels.surprise' is not a kitgen"),
])
def test_a_message_file_with_a_missing_or_extra_key_is_refused(tmp_path, monkeypatch, edit, match):
    for lang in ("en", "ru"):
        source = (texts.folder() / f"{lang}.yaml").read_text("utf-8")
        (tmp_path / f"{lang}.yaml").write_text(edit(source) if lang == "ru" else source, "utf-8")
    monkeypatch.setattr(texts, "folder", lambda: tmp_path)
    with pytest.raises(KitgenError, match=match):
        texts.load("ru")


def test_lang_sets_the_labels_of_any_deck(tmp_path):
    words = tmp_path / "w.txt"
    words.write_text("\n".join(f"Word{chr(65 + i // 26)}{chr(97 + i % 26)}" for i in range(30)))
    kit = kitfile.load(kitfile.kit_path(None, None, "fa"), deck=str(words), language="fa")
    assert (kit.language, kit.id) == ("fa", "w")


@needs_pdftotext
@pytest.mark.parametrize("lang", ["ru", "fa"])
def test_every_word_of_the_rules_extracts_in_logical_order(kits, lang):
    folder, _, _ = kits[lang]
    tokens = " ".join(extract(folder / "rules.pdf")).split()
    rules = texts.load(lang).rules
    paragraphs = [rules.intro] + [p if isinstance(p, str) else p["words"] for s in rules.sections for p in s.paragraphs]
    words = [w.strip(".,،:;!?()«»\"") for t in paragraphs for w in t.split()]
    missing = [w for w in words if w and not any(w in token for token in tokens)]
    assert len(words) > 300 and not missing, missing[:10]
