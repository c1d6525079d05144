"""Input limits (issue 25, points 4, 8 and 9; docs/design.md §9.3): the size of a deck and of a
YAML file, the locations a deduction board holds, and the control characters refused in every
name and word a user writes. Each refusal is one line, exit 2, no traceback. No test is timed."""

import subprocess
import sys

import pytest

from kitgen import yamlio
from kitgen.errors import KitgenError
from kitgen.games.codenames import decks, picture_decks


def kitgen(*args, cwd):
    return subprocess.run([sys.executable, "-m", "kitgen", *args], cwd=cwd, capture_output=True, text=True)


def one_line_error(result) -> str:
    """The one stderr line of a refusal: exit 2, no traceback."""
    assert result.returncode == 2, (result.returncode, result.stderr)
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("kitgen: error: "), result.stderr
    assert "Traceback" not in result.stderr
    return lines[0]


# --- deck size (point 4) ---------------------------------------------------------------

def words(count: int) -> list[str]:
    return [f"w{i:05d}" for i in range(count)]


def test_the_real_limits():
    assert decks.MAX_WORDS == 10_000 and picture_decks.MAX_PICTURES == 10_000 and yamlio.MAX_VALUES == 50_000


@pytest.mark.parametrize("kind", ["txt", "csv", "yaml"])
def test_a_deck_of_max_words_loads(tmp_path, kind):
    path = tmp_path / f"deck.{kind}"
    if kind == "yaml":
        path.write_text("name: big\nwords:\n" + "".join(f"  - {w}\n" for w in words(decks.MAX_WORDS)))
    else:
        path.write_text(("word\n" if kind == "csv" else "") + "".join(f"{w}\n" for w in words(decks.MAX_WORDS)))
    assert len(decks.load(path).words) == decks.MAX_WORDS


@pytest.mark.parametrize("kind, line", [("txt", 10_001), ("csv", 10_002), ("yaml", 10_003)])
def test_the_word_after_max_words_is_refused_at_its_line(tmp_path, kind, line):
    """The 10,001st word is refused where it stands (a CSV's header and a YAML deck's two first
    lines are no words), even though more words follow it."""
    path = tmp_path / f"deck.{kind}"
    many = words(decks.MAX_WORDS + 500)
    if kind == "yaml":
        path.write_text("name: big\nwords:\n" + "".join(f"  - {w}\n" for w in many))
    else:
        path.write_text(("word\n" if kind == "csv" else "") + "".join(f"{w}\n" for w in many))
    with pytest.raises(KitgenError) as caught:
        decks.load(path)
    assert caught.value.line == line and caught.value.source == str(path)
    assert "more than 10,000 words" in caught.value.message
    error = one_line_error(kitgen("deck", "check", str(path), cwd=tmp_path))
    assert f"{path}:{line}: holds more than 10,000 words" in error


def test_a_csv_of_a_million_lines_is_refused_at_the_10001st_word(tmp_path):
    path = tmp_path / "huge.csv"
    path.write_text("word\n" + "".join(f"w{i}\n" for i in range(1_000_000)))
    error = one_line_error(kitgen("deck", "check", str(path), cwd=tmp_path))
    assert f"{path}:10002: holds more than 10,000 words" in error


def test_a_yaml_list_of_a_million_entries_is_refused_while_parsing(tmp_path):
    path = tmp_path / "huge.yaml"
    path.write_text("name: huge\nwords:\n" + "".join(f"- w{i}\n" for i in range(1_000_000)))
    with pytest.raises(KitgenError) as caught:
        yamlio.load(path)
    assert "more than 50,000 YAML values" in caught.value.message
    assert caught.value.line is not None and caught.value.line < 60_000     # stopped early, at the value
    error = one_line_error(kitgen("deck", "check", str(path), cwd=tmp_path))
    assert f"{path}:" in error and "more than 50,000 YAML values" in error


def test_a_yaml_file_of_max_values_loads(tmp_path):
    path = tmp_path / "values.yaml"
    path.write_text("".join(f"- {i}\n" for i in range(yamlio.MAX_VALUES - 1)))   # and the list itself
    data, _ = yamlio.load(path)
    assert len(data) == yamlio.MAX_VALUES - 1
    path.write_text("".join(f"- {i}\n" for i in range(yamlio.MAX_VALUES)))
    with pytest.raises(KitgenError, match="more than 50,000 YAML values"):
        yamlio.load(path)


def test_a_yaml_picture_deck_of_too_many_pictures_is_refused_before_any_is_read(tmp_path):
    path = tmp_path / "pictures.yaml"
    path.write_text("pictures:\n" + "".join(f"  - p{i}.png\n" for i in range(picture_decks.MAX_PICTURES + 1)))
    with pytest.raises(KitgenError) as caught:                # no p*.png exists: none was opened
        picture_decks.load(path)
    assert caught.value.line == picture_decks.MAX_PICTURES + 2
    assert "more than 10,000 pictures" in caught.value.message
