"""Regressions found in review: each test pins one bad input or edge case."""

import os
import subprocess
import sys
from pathlib import Path

import pytest

from kitgen import output
from kitgen.errors import KitgenError
from kitgen.games.codenames import build, decks, kitfile, layout as codenames_layout

WORDS = [f"Word{chr(65 + i // 26)}{chr(97 + i % 26)}" for i in range(30)]


def write(path: Path, text: str) -> Path:
    path.write_text(text, encoding="utf-8")
    return path


def test_builtin_deck_is_not_shadowed_by_a_folder_of_the_same_name(tmp_path):
    (tmp_path / "classic-en").mkdir()
    assert decks.resolve("classic-en") == decks.builtin_dir() / "classic-en.yaml"
    result = subprocess.run([sys.executable, "-m", "kitgen", "build", "--keys", "2", "--out", "."],
                            cwd=tmp_path / "classic-en", capture_output=True, text=True)
    assert result.returncode == 0, result.stderr


@pytest.mark.parametrize("text", [
    "words: &w [a, *w]\n",
    "a: &a [x, x, x, x, x, x, x, x, x]\nb: &b [*a, *a, *a, *a, *a, *a, *a, *a, *a]\n"
    "c: &c [*b, *b, *b, *b, *b, *b, *b, *b, *b]\nwords: [*c, *c, *c, *c, *c, *c, *c, *c, *c]\n",
])
def test_yaml_aliases_are_refused(tmp_path, text):
    with pytest.raises(KitgenError, match="anchors and aliases"):
        decks.load(write(tmp_path / "d.yaml", text))


def test_a_failed_swap_puts_the_previous_kit_back(tmp_path, monkeypatch):
    target = tmp_path / "kit"
    files = [output.BuiltFile("a.pdf", b"old", 1)]
    output.write_kit(target, files, {})
    real_rename = os.rename

    def rename(src, dst):
        if Path(src).name.endswith(".tmp"):
            raise OSError(5, "Input/output error")
        return real_rename(src, dst)

    monkeypatch.setattr(os, "rename", rename)
    with pytest.raises(KitgenError, match="Input/output error"):
        output.write_kit(target, [output.BuiltFile("a.pdf", b"new", 1)], {})
    assert (target / "a.pdf").read_bytes() == b"old"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["kit"]


def test_leftovers_of_a_killed_build_are_cleared(tmp_path):
    (tmp_path / ".kit.abc123.tmp").mkdir()
    (tmp_path / ".kit.old-999").mkdir()
    output.write_kit(tmp_path / "kit", [output.BuiltFile("a.pdf", b"x", 1)], {})
    assert sorted(p.name for p in tmp_path.iterdir()) == ["kit"]


def test_out_under_a_file_is_refused(tmp_path):
    write(tmp_path / "file", "x")
    with pytest.raises(KitgenError, match="is not a folder"):
        output.write_kit(tmp_path / "file" / "kit", [output.BuiltFile("a.pdf", b"x", 1)], {})


@pytest.mark.parametrize("text, match", [
    ("key_card:\n  back: {stripe: 0mm}\n", "above zero"),
    ("colours:\n  red: {rgb: red, cmyk: [0, 1, 1, 0]}\n", "not a colour"),
    ("colours:\n  red: {rgb: '#FFF', cmyk: [0, 1, 1, 0]}\n", "not a colour"),
    ("colours:\n  red: {rgb: '#FF0000', cmyk: [5, 0, 0, 0]}\n", "CMYK values run from 0 to 1"),
    ("colours:\n  new: {rgb: '#FF0000'}\n", "needs cmyk"),
    ("rules:\n  columns: 0\n", "rules.columns"),
    ("rules:\n  margin: 150mm\n", "no room for the rules"),
    ("codename_card:\n  word: {box: [0mm, 0mm, 500mm, 10mm]}\n", "must lie inside"),
    ("codename_card:\n  word: {min_size: 30pt}\n", "min_size is larger than size"),
    ("key_card:\n  qr: {box: [40mm, 6mm, 5mm, 5mm]}\n", "at least 10mm"),
    ("key_card:\n  grid: {gap: 20mm}\n", "no room for the cells"),
])
def test_layout_values_that_cannot_work_are_refused(tmp_path, text, match):
    """The kernel's checks and the Codenames family's (key cards), as a Codenames build loads a layout."""
    with pytest.raises(KitgenError, match=match):
        codenames_layout.load(write(tmp_path / "l.yaml", text))


def test_csv_with_an_unclosed_quote_names_its_line(tmp_path):
    rows = WORDS[:10] + ['"Big Apple'] + WORDS[10:]
    with pytest.raises(KitgenError, match=r"c\.csv:11: "):
        decks.load(write(tmp_path / "c.csv", "\n".join(rows)))


def test_semicolon_csv_reads_the_first_column(tmp_path):
    deck = decks.load(write(tmp_path / "s.csv", "word;category\n" + "\n".join(f"{w};animals" for w in WORDS)))
    assert deck.words == tuple(WORDS)


def test_invisible_characters_are_refused_or_ignored(tmp_path):
    with pytest.raises(KitgenError, match="zero-width space"):
        decks.load(write(tmp_path / "z.txt", "\n".join(WORDS + ["Ca\u200bt"])))
    with pytest.raises(KitgenError, match="bidi control"):
        decks.load(write(tmp_path / "b.txt", "\n".join(WORDS + ["\u202eBird"])))
    with pytest.raises(KitgenError, match="duplicate words"):
        decks.load(write(tmp_path / "j.txt", "\n".join(WORDS + ["Fox", "Fo\u200dx"])))


def test_every_deck_word_is_checked_whatever_the_seed(tmp_path):
    write(tmp_path / "w.txt", "\n".join(WORDS + ["W" * 40]))
    kit = write(tmp_path / "kit.yaml", "id: cc\ndeck: w.txt\ncards: 3\nseed: a\n")
    for seed in ("a", "b", "c"):
        with pytest.raises(KitgenError, match="do not fit"):
            build.build_files(kitfile.load(kit, seed=seed))


def test_a_deck_given_on_the_command_line_names_the_kit(tmp_path):
    path = write(tmp_path / "zoo.yaml", "name: Zoo animals\nwords:\n" + "".join(f"  - {w}\n" for w in WORDS))
    kit = kitfile.load(deck=str(path))
    assert (kit.id, kit.name, kit.cards) == ("zoo", "Zoo animals", None)


@pytest.mark.parametrize("text, match", [
    ("language: ../kits/classic-en\n", r"kit\.yaml:\d+: no messages for language"),
    ("cards: 500\n", r"kit\.yaml:\d+: asks for 500 codename cards, but the deck's 30 words fill only 15"),
    ("edition: pictures\n", r"w\.txt: a picture deck is a folder of pictures or a \.yaml file"),
    ("keys: true\n", r"kit\.yaml:\d+: keys must be a whole number"),
])
def test_kit_file_values_are_checked_with_file_and_line(tmp_path, text, match):
    write(tmp_path / "w.txt", "\n".join(WORDS))
    kit = write(tmp_path / "kit.yaml", "id: k\ndeck: w.txt\nseed: s\n" + text)
    with pytest.raises(KitgenError, match=match):
        kitfile.load(kit)


def test_unknown_paper_in_a_kit_file_names_its_line(tmp_path):
    write(tmp_path / "w.txt", "\n".join(WORDS))
    kit = write(tmp_path / "kit.yaml", "id: k\ndeck: w.txt\nseed: s\npaper: b7\n")
    with pytest.raises(KitgenError, match=r"kit\.yaml:4: unknown paper 'b7'"):
        build.build_files(kitfile.load(kit))


def test_a_kit_id_or_payload_kit_with_a_final_newline_is_refused_not_a_crash(tmp_path):
    """'$' matches before a final newline: id "abc\\n" passed the check and crashed the QR encoder."""
    from kitgen.games.codenames import key_payload

    kit = write(tmp_path / "kit.yaml", 'id: "abc\\n"\ndeck: classic-en\n')
    with pytest.raises(KitgenError, match="kit id 'abc\\\\n' must be"):
        kitfile.load(kit)
    with pytest.raises(KitgenError, match="kit id 'ABC\\\\n' is not"):
        key_payload.decode("KG1:ABC\n:1/40:R:RRRRR/RRRRB/BBBBB/BBBNN/NNNNA:AAAAAA")
