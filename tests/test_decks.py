"""Deck loading: YAML, plain text and CSV, and every refusal."""

import pytest

from kitgen.errors import KitgenError
from kitgen.games.codenames import decks

WORDS = [f"Word{chr(65 + i // 26)}{chr(97 + i % 26)}" for i in range(30)]


def test_builtin_english_deck_has_at_least_400_distinct_words():
    deck = decks.load("classic-en")
    assert len(deck.words) >= 400
    assert len({decks.identity(w) for w in deck.words}) == len(deck.words)
    assert deck.language == "en"


def test_text_deck_with_bom_crlf_comments_and_blank_lines(tmp_path):
    path = tmp_path / "words.txt"
    body = "# my class words\r\n\r\n" + "\r\n".join(f"  {w}  # note" if i == 3 else w for i, w in enumerate(WORDS))
    path.write_bytes(b"\xef\xbb\xbf" + body.encode("utf-8"))
    deck = decks.load(path)
    assert deck.words == tuple(WORDS)
    assert deck.name == "words"
    assert deck.lines[WORDS[0]] == 3


def test_csv_deck_first_column_with_optional_header(tmp_path):
    rows = ["word,category"] + [f"{w},x" for w in WORDS]
    (tmp_path / "a.csv").write_text("\n".join(rows), encoding="utf-8-sig")
    (tmp_path / "b.csv").write_text("\n".join(rows[1:]), encoding="utf-8")
    assert decks.load(tmp_path / "a.csv").words == tuple(WORDS)
    assert decks.load(tmp_path / "b.csv").words == tuple(WORDS)


def test_yaml_deck(tmp_path):
    path = tmp_path / "d.yaml"
    path.write_text("name: Mine\nlanguage: en\nwords:\n" + "".join(f"  - {w}\n" for w in WORDS))
    deck = decks.load(path)
    assert (deck.name, deck.language, deck.words) == ("Mine", "en", tuple(WORDS))


def test_words_are_normalized(tmp_path):
    path = tmp_path / "n.txt"
    path.write_text("\n".join(WORDS[:-1] + ["ice   cream", "cafe\u0301"]))
    deck = decks.load(path)
    assert "ice cream" in deck.words and "caf\u00e9" in deck.words


def refusal(tmp_path, name, content, match):
    path = tmp_path / name
    if isinstance(content, bytes):
        path.write_bytes(content)
    else:
        path.write_text(content, encoding="utf-8")
    with pytest.raises(KitgenError, match=match) as info:
        decks.load(path)
    assert str(path) in str(info.value) and "\n" not in str(info.value)
    return str(info.value)


def test_too_few_words_says_how_many(tmp_path):
    refusal(tmp_path, "few.txt", "\n".join(WORDS[:24]), "has 24 distinct words; a kit needs at least 25")


def test_duplicates_case_and_space_insensitive_are_listed(tmp_path):
    message = refusal(tmp_path, "dup.txt", "\n".join(WORDS + ["worDAA", "Ice Cream", "ice  cream"]), "duplicate words")
    assert "WordAa (line 1) = worDAA (line 31)" in message
    assert "Ice Cream (line 32) = ice cream (line 33)" in message


def test_nfc_and_nfd_forms_are_the_same_word(tmp_path):
    refusal(tmp_path, "nf.txt", "\n".join(WORDS + ["caf\u00e9", "cafe\u0301"]), "duplicate words")


def test_malformed_yaml_names_file_and_line(tmp_path):
    message = refusal(tmp_path, "bad.yaml", "name: x\nwords: [a, b\n  c: d\n", "malformed YAML")
    assert "bad.yaml:" in message and message.split("bad.yaml:")[1].split(":")[0].isdigit()


def test_yaml_tags_that_build_objects_are_refused(tmp_path):
    refusal(tmp_path, "evil.yaml", "words: !!python/object/apply:os.system ['echo hi']\n", "tags that build objects")


def test_unknown_yaml_key_is_refused(tmp_path):
    refusal(tmp_path, "k.yaml", "name: x\nwordz: [a]\n", "unknown key 'wordz'")


def test_not_utf8_names_the_line(tmp_path):
    refusal(tmp_path, "latin.txt", "\n".join(WORDS).encode() + b"\ncaf\xe9\n", r"latin.txt:31: is not UTF-8")


def test_missing_deck_file(tmp_path):
    with pytest.raises(KitgenError, match="file not found") as info:
        decks.load(tmp_path / "nope.txt")
    assert "nope.txt" in str(info.value)
