"""kitgen proof, kitgen deck check and kitgen preview."""

import base64
import io
import json
import subprocess
import sys

import pypdfium2 as pdfium
import pytest
from PIL import Image

from kitgen.errors import KitgenError
from kitgen.games.codenames import checks, editions, key_deck
from kitgen.preview import parse_pages

WORDS = [f"Word{chr(65 + i // 26)}{chr(97 + i % 26)}" for i in range(30)]


def kitgen(*args, cwd):
    return subprocess.run([sys.executable, "-m", "kitgen", *args], cwd=cwd, capture_output=True, text=True)


def pdf_text(path) -> str:
    document = pdfium.PdfDocument(str(path))
    return "\n".join(page.get_textpage().get_text_range() for page in document)


def test_proof_of_the_default_kit_passes_and_shows_everything(tmp_path):
    result = kitgen("proof", "--out", "p", cwd=tmp_path)
    assert result.returncode == 0, result.stdout + result.stderr
    assert result.stdout.count("PASS ") == 9
    path = tmp_path / "p" / "classic-en-proof.pdf"
    text = pdf_text(path)
    # words longest first, each with its size; heat maps; contact sheet IDs of every face
    assert "Words at true size, longest first" in text and "20 / 20 pt (min 9)" in text
    assert "assassin: 1\u20132 per cell" in text.replace("\r", "")
    for face_id in ("C001a", "C200b", "K01", "K40", "K back", "T01a", "T25b"):
        assert face_id in text


def test_proof_flags_shrunk_words_and_fails_on_words_that_cannot_fit(tmp_path):
    # the last word is Ethiopic, which no font of the layout draws
    words = WORDS + ["Interconnectedness", "W" * 60, "Caf\u00e9s", "Caf\u00e9", "\u1230\u120b"]
    (tmp_path / "w.txt").write_text("\n".join(words))
    result = kitgen("proof", "--deck", "w.txt", "--keys", "6", "--out", "p", cwd=tmp_path)
    assert result.returncode == 3
    assert "FAIL fit: 1 word(s) do not fit at the minimum size" in result.stdout
    assert "FAIL glyphs: 1 word(s) with characters the font lacks" in result.stdout
    assert "WARN near-duplicates: Caf\u00e9 / Caf\u00e9s" in result.stdout
    text = pdf_text(tmp_path / "p" / "w-proof.pdf")
    assert "shrunk" in text and "does not fit" in text and "font lacks" in text
    # the word that shrank is listed before the short ones: longest first
    assert text.index("INTERCONNECTEDNESS") < text.index("WORDAA")


def test_key_deck_report_measures_the_properties():
    deck = key_deck.generate("s", editions.WORDS, 40)
    report = checks.key_deck_report(deck, editions.WORDS)
    assert report.ok and report.starting["R"] == report.starting["B"] == 20
    assert sum(report.per_cell["A"]) == 40 and max(report.per_cell["A"]) <= 2
    assert sum(report.per_cell["N"]) == 40 * 7
    # a deck with a key turned a quarter is caught
    turned = key_deck.KeyCard(41, 41, deck[0].starting_team, key_deck.rotations(deck[0].grid, 4)[1])
    clash = checks.key_deck_report(deck + [turned], editions.WORDS)
    assert clash.rotation_clashes == [(1, 41)] and not clash.ok


def test_near_duplicates_finds_plurals_only():
    assert checks.near_duplicates(["Cat", "cats", "Box", "Boxes", "City", "Cities", "Bus", "Cook", "Cooker"]) == [
        ("Box", "Boxes", "plural"), ("Cat", "cats", "plural"), ("City", "Cities", "plural")]


def test_deck_check_passes_a_good_deck(tmp_path):
    (tmp_path / "w.txt").write_text("\n".join(WORDS))
    result = kitgen("deck", "check", "w.txt", cwd=tmp_path)
    assert result.returncode == 0
    assert "30 distinct words" in result.stdout and "every word fits" in result.stdout


def test_deck_check_lists_every_problem(tmp_path):
    (tmp_path / "w.txt").write_text("\n".join(WORDS + ["X" * 50, "Y" * 51, "Cat", "Cats", "\u1230\u120b\u121d"]))
    result = kitgen("deck", "check", "w.txt", cwd=tmp_path)
    assert result.returncode == 3
    assert "2 word(s) do not fit" in result.stdout and "X" * 50 in result.stdout and "Y" * 51 in result.stdout
    assert "lacks characters of 1 word(s)" in result.stdout
    assert "WARN near-duplicates" in result.stdout and "Cat / Cats" in result.stdout


def test_deck_check_json_has_its_lines_and_each_word_with_what_they_say_of_it(tmp_path):
    deck = "name: Lesson\nlanguage: en\nwords:\n" + "".join(f"  - {w}\n" for w in WORDS + ["X" * 50, "Cat", "Cats",
                                                                                           "cat", "\u1230\u120b"])
    (tmp_path / "w.yaml").write_text(deck)
    text = kitgen("deck", "check", "w.yaml", cwd=tmp_path)
    result = kitgen("deck", "check", "--json", "w.yaml", cwd=tmp_path)
    assert result.returncode == text.returncode == 3
    report = json.loads(result.stdout)
    assert report["kind"] == "words" and report["ok"] is False
    assert [f"{line['status']:<4} {line['text']}" for line in report["lines"]] == text.stdout.splitlines()
    entries = {e["name"]: e for e in report["entries"]}
    assert list(entries) == WORDS + ["X" * 50, "Cat", "Cats", "\u1230\u120b"]     # each distinct word, in order
    said = {name: [(n["status"], n["text"]) for n in e["notes"] if n["status"] != "NOTE"]
            for name, e in entries.items()}
    said = {name: notes for name, notes in said.items() if notes}
    # every word is named with its script and the font that draws it
    assert [n["text"] for n in entries["Cat"]["notes"] if n["status"] == "NOTE"] == ["script Latn in noto-sans"]
    assert said == {
        "X" * 50: [("FAIL", "does not fit its card even at 9pt; shorten it")],
        "Cat": [("FAIL", "written again: cat (line 37); keep one"),
                ("WARN", "near-duplicate of Cats: they give each other away on one board")],
        "Cats": [("WARN", "near-duplicate of Cat: they give each other away on one board")],
        "\u1230\u120b": [("FAIL", "no font draws '\u120b' (U+120B), '\u1230' (U+1230)")]}
    assert entries["Cat"]["line"] == 35 and entries[WORDS[0]]["line"] == 4       # lines of the YAML file
    assert "thumbnail" not in entries["Cat"]


def test_deck_check_json_gives_each_picture_a_thumbnail(tmp_path):
    from test_pictures import picture_folder, solid_png

    folder = picture_folder(tmp_path / "pics")
    (folder / "tiny.png").write_bytes(solid_png((200, 30, 30), (60, 40)))
    (folder / "notes.txt").write_text("not a picture")
    result = kitgen("deck", "check", "--json", "pics", cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    report = json.loads(result.stdout)
    entries = {e["name"]: e for e in report["entries"]}
    assert len(entries) == 22 and report["kind"] == "pictures" and report["ok"] is True
    assert entries["notes.txt"]["notes"] == [{"status": "NOTE", "text": "not a PNG, JPEG or SVG file; passed over"}]
    assert entries["notes.txt"]["thumbnail"] is None
    assert [n["status"] for n in entries["tiny.png"]["notes"]] == ["WARN"]
    assert entries["tiny.png"]["notes"][0]["text"].endswith("dpi at its printed size (below 150); use a larger "
                                                            "picture for a sharp print")
    head, data = entries["tiny.png"]["thumbnail"].split(",", 1)
    assert head == "data:image/png;base64"
    small = Image.open(io.BytesIO(base64.b64decode(data)))
    assert small.size == (60, 40) and small.convert("RGB").getpixel((30, 20)) == (200, 30, 30)
    for name, entry in entries.items():
        if name.endswith(".png") and name != "tiny.png":
            shown = Image.open(io.BytesIO(base64.b64decode(entry["thumbnail"].split(",", 1)[1])))
            assert max(shown.size) == 96, name                              # a large picture, made small


def test_deck_check_bad_deck_is_one_line(tmp_path):
    (tmp_path / "w.txt").write_text("\n".join(WORDS[:5]))
    result = kitgen("deck", "check", "w.txt", cwd=tmp_path)
    assert result.returncode == 2 and len(result.stderr.strip().splitlines()) == 1
    assert "has 5 distinct words" in result.stderr


def test_preview_renders_chosen_pages(default_kit, tmp_path):
    folder, _, _ = default_kit
    result = kitgen("preview", str(folder), "--pages", "1,27-28", "--dpi", "30", "--out", "png", cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    names = sorted(p.name for p in (tmp_path / "png").iterdir())
    assert names == ["kit-p1.png", "kit-p27.png", "kit-p28.png"]
    image = Image.open(tmp_path / "png" / "kit-p1.png")
    assert abs(image.width - 210 / 25.4 * 30) <= 1 and abs(image.height - 297 / 25.4 * 30) <= 1


@pytest.mark.parametrize("spec, count, pages", [("1", 5, [1]), ("1,3-4", 5, [1, 3, 4]), ("all", 3, [1, 2, 3]),
                                                 ("2-2,2", 3, [2])])
def test_page_specs(spec, count, pages):
    assert parse_pages(spec, count) == pages


@pytest.mark.parametrize("spec", ["0", "6", "3-1", "x", "1,,2"])
def test_bad_page_specs(spec):
    with pytest.raises(KitgenError, match="--pages"):
        parse_pages(spec, 5)


def test_preview_of_a_missing_kit(tmp_path):
    result = kitgen("preview", "nowhere", cwd=tmp_path)
    assert result.returncode == 2 and "no such PDF or kit folder" in result.stderr


def test_duplicates_are_listed_by_deck_check_and_proof_not_refused(tmp_path):
    (tmp_path / "w.txt").write_text("\n".join(WORDS + ["wordaa", "WORDAB"]))
    result = kitgen("deck", "check", "w.txt", cwd=tmp_path)
    assert result.returncode == 3
    assert "FAIL duplicate words (case and spaces ignored): WordAa (line 1) = wordaa (line 31); " \
           "WordAb (line 2) = WORDAB (line 32)" in result.stdout
    result = kitgen("proof", "--deck", "w.txt", "--keys", "4", "--out", "p", cwd=tmp_path)
    assert result.returncode == 3 and "FAIL duplicate words" in result.stdout
    assert (tmp_path / "p" / "w-proof.pdf").exists()
    # a build still refuses them in one line
    result = kitgen("build", "--deck", "w.txt", "--out", "o", cwd=tmp_path)
    assert result.returncode == 2 and "duplicate words" in result.stderr
