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


# --- locations a deduction board holds (point 8) ------------------------------------------

def grid_theme(across: int, down: int, extra: int = 0) -> dict:
    """A theme of across x down locations in a grid, each with its 'at', roads to its neighbours;
    ``extra`` more locations in a chain off the first."""
    locations, roads = [], []
    for r in range(down):
        for c in range(across):
            n = r * across + c + 1
            locations.append({"name": f"Place {n}", "at": [round(c / max(across - 1, 1), 3),
                                                           round(r / max(down - 1, 1), 3)]})
            if c:
                roads.append([f"Place {n - 1}", f"Place {n}"])
            if r:
                roads.append([f"Place {n - across}", f"Place {n}"])
    for k in range(extra):
        locations.append(f"Extra {k}")
        roads.append([f"Extra {k - 1}" if k else "Place 1", f"Extra {k}"])
    return {"game": "deduction", "id": "grid", "name": "Grid", "suspects": [f"Suspect {i}" for i in range(1, 13)],
            "crimes": [f"Crime {i}" for i in range(1, 11)], "locations": locations, "roads": roads}


def board_capacity() -> tuple[int, int]:
    from kitgen.games.deduction import layout
    from kitgen.games.deduction.render import board

    return board.capacity(layout.load("default"))


def write_yaml(path, data):
    import yaml

    path.write_text(yaml.safe_dump(data, allow_unicode=True, sort_keys=False), encoding="utf-8")
    return path


def test_the_board_holds_the_location_boxes_of_the_layout():
    """From the layout's board.map.box (368 x 204 mm) and board.location.size (62 x 32 mm)."""
    assert board_capacity() == (5, 6)


def test_a_theme_of_as_many_locations_as_the_board_holds_builds(tmp_path):
    across, down = board_capacity()
    path = write_yaml(tmp_path / "full.yaml", grid_theme(across, down))
    result = kitgen("build", str(path), "--out", str(tmp_path / "out"), cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    assert (tmp_path / "out" / "grid" / "board.pdf").exists()


def test_one_location_more_than_the_board_holds_is_refused_at_the_locations_key(tmp_path):
    across, down = board_capacity()
    most = across * down
    path = write_yaml(tmp_path / "over.yaml", grid_theme(across, down, extra=1))
    line = path.read_text().splitlines().index("locations:") + 1
    error = one_line_error(kitgen("build", str(path), "--out", str(tmp_path / "out"), cwd=tmp_path))
    assert error == (f"kitgen: error: {path}:{line}: {most + 1} locations: a board holds at most {most} ({across} "
                     f"across and {down} down, a location's box being 62 x 32 mm in a map of 368 x 204 mm); remove "
                     f"1 of them")
    assert not (tmp_path / "out").exists()


CHILD = """
import runpy, sys
sys.argv = ["kitgen", "build", sys.argv[1], "--out", sys.argv[2]]
try:
    runpy.run_module("kitgen", run_name="__main__")
except SystemExit as done:
    print("exit", done.code)
print("scipy imported" if "scipy" in sys.modules else "no scipy")
"""


def test_a_theme_of_10000_locations_is_refused_before_any_layout(tmp_path):
    """It once ended in networkx's spring_layout asking for scipy; now it never reaches a layout."""
    data = grid_theme(1, 1, extra=10_000 - 1)
    path = write_yaml(tmp_path / "huge.yaml", data)
    result = subprocess.run([sys.executable, "-c", CHILD, str(path), str(tmp_path / "out")], cwd=tmp_path,
                            capture_output=True, text=True)
    assert result.stdout.split("\n")[:2] == ["exit 2", "no scipy"], (result.stdout, result.stderr)
    assert "10,000 locations: a board holds at most 30 " in result.stderr
    assert len(result.stderr.strip().splitlines()) == 1 and "Traceback" not in result.stderr
