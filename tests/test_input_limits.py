"""Input limits (issue 25, points 4, 8 and 9; docs/design.md §9.3): the size of a deck and of a
YAML file, the locations a deduction board holds, and the control characters refused in every
name and word a user writes. Each refusal is one line, exit 2, no traceback. No test is timed."""

import subprocess
import sys

import pytest
import yaml

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
    path.write_text(yaml.safe_dump(data, allow_unicode=True, sort_keys=False), encoding="utf-8")
    return path


def test_the_board_holds_the_location_boxes_of_the_layout():
    """From the layout's board.map.box (336 x 230 mm) and board.location.size (56 x 46 mm)."""
    assert board_capacity() == (6, 5)          # 6 across, 5 down


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
                     f"across and {down} down, a location's box being 56 x 46 mm in a map of 336 x 230 mm); remove "
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


# --- control characters in names and words (point 9) ----------------------------------------

# (character, how a YAML double-quoted string writes it)
CONTROLS = [("\x00", "\\0"), ("\n", "\\n"), ("\x07", "\\a"), ("\x7f", "\\x7f"), ("\x85", "\\x85")]
JOINERS = ["\u200c", "\u200d"]          # ZWNJ, ZWJ: category Cf, which Persian and Indic scripts need


def deck_words(bad: str, at: int = 6) -> list[str]:
    """30 words, the one at index ``at`` being ``bad``."""
    out = [f"word{i:02d}" for i in range(30)]
    out[at] = bad
    return out


def refused_at(error: str, source, line: int, word: str, char: str, position: int, what: str = "word") -> None:
    assert error == (f"kitgen: error: {source}:{line}: {what} {word!r} has a control character U+{ord(char):04X} at "
                     f"position {position}; remove it")
    assert char not in error                          # shown escaped, never raw


def test_the_kernel_names_the_first_control_character_and_its_position():
    from kitgen.names import unprintable

    assert unprintable("ab\x00c", "word") == "word 'ab\\x00c' has a control character U+0000 at position 3; remove it"
    assert unprintable("  ab\x07c  ") == "name 'ab\\x07c' has a control character U+0007 at position 3; remove it"
    assert unprintable("a\u200bb") == "name 'a\\u200bb' has a zero-width space U+200B at position 2; remove it"
    for ch in ("\x00", "\t", "\n", "\r", "\x07", "\x1b", "\x7f", "\x85", "\x9f"):
        assert "a control character" in unprintable(f"a{ch}b")
    for ch in JOINERS:
        assert unprintable(f"a{ch}b") is None
    assert unprintable("Baker Crumbsley") is None and unprintable("word\n") is None     # trimmed, as printed


def test_the_kernel_imports_no_game_family():
    import ast
    from pathlib import Path

    import kitgen.names

    tree = ast.parse(Path(kitgen.names.__file__).read_text())
    imported = [n.name for node in ast.walk(tree) if isinstance(node, ast.Import) for n in node.names]
    imported += [node.module or "" for node in ast.walk(tree) if isinstance(node, ast.ImportFrom)]
    assert not [name for name in imported if "games" in name]


@pytest.mark.parametrize("char, escaped", CONTROLS)
def test_a_yaml_deck_word_with_a_control_character_is_refused_at_its_position(tmp_path, char, escaped):
    words_ = deck_words("X")
    text = "name: t\nwords:\n" + "".join(f'  - "ab{escaped}c"\n' if w == "X" else f"  - {w}\n" for w in words_)
    path = tmp_path / "deck.yaml"
    path.write_text(text)
    refused_at(one_line_error(kitgen("deck", "check", str(path), cwd=tmp_path)), path, 9, f"ab{char}c", char, 3)


@pytest.mark.parametrize("char", ["\x07", "\x7f", "\x85", "\x0b", "\x1c"])
def test_a_text_deck_word_with_a_control_character_is_refused_at_its_position(tmp_path, char):
    """U+0085, VT and the separators U+001C-U+001E end no line in a text deck: they are refused, not split on."""
    path = tmp_path / "deck.txt"
    path.write_text("".join(f"{w}\n" for w in deck_words(f"  ab{char}c   # a comment")), encoding="utf-8")
    refused_at(one_line_error(kitgen("deck", "check", str(path), cwd=tmp_path)), path, 7, f"ab{char}c", char, 3)


@pytest.mark.parametrize("char", ["\x07", "\x7f", "\x85", "\t"])
def test_a_csv_deck_word_with_a_control_character_is_refused_at_its_position(tmp_path, char):
    path = tmp_path / "deck.csv"
    path.write_text("word,notes\n" + "".join(f'"{w}",x\n' for w in deck_words(f"ab{char}c")), encoding="utf-8")
    refused_at(one_line_error(kitgen("deck", "check", str(path), cwd=tmp_path)), path, 8, f"ab{char}c", char, 3)


@pytest.mark.parametrize("kind", ["txt", "csv"])
def test_a_nul_in_a_text_or_csv_deck_is_refused_at_its_line(tmp_path, kind):
    """A raw NUL never gets as far as a word: the file is not text (yamlio.read_text)."""
    path = tmp_path / f"deck.{kind}"
    path.write_text("".join(f"{w}\n" for w in deck_words("ab\x00c")))
    error = one_line_error(kitgen("deck", "check", str(path), cwd=tmp_path))
    assert error.startswith(f"kitgen: error: {path}:7: contains NUL bytes") and "\x00" not in error


def test_a_newline_in_a_quoted_csv_field_is_refused_at_its_line(tmp_path):
    path = tmp_path / "deck.csv"
    path.write_text("".join(f'"{w}"\n' for w in deck_words("ab\nc")))
    assert f"{path}:7: a quoted field runs over several lines" in one_line_error(
        kitgen("deck", "check", str(path), cwd=tmp_path))


@pytest.mark.parametrize("kind", ["txt", "csv", "yaml"])
@pytest.mark.parametrize("joiner", JOINERS)
def test_a_deck_word_with_a_joiner_is_accepted(tmp_path, kind, joiner):
    word = f"\u0645\u06cc{joiner}\u0634\u0648\u062f"
    path = tmp_path / f"deck.{kind}"
    words_ = deck_words(word)
    if kind == "yaml":
        path.write_text("name: t\nwords:\n" + "".join(f"  - {w}\n" for w in words_), encoding="utf-8")
    else:
        path.write_text("".join(f"{w}\n" for w in words_), encoding="utf-8")
    assert word in decks.load(path).words


def test_the_persian_deck_with_its_zwnj_words_still_loads():
    """39 of its words and its credits line hold a ZWNJ (the issue counted 40): all load as written."""
    from kitgen.names import normalize

    deck = decks.load("classic-fa")
    written = yaml.safe_load(decks.resolve("classic-fa").read_text(encoding="utf-8"))
    joined = [normalize(word) for word in written["words"] if "\u200c" in word]
    assert len(joined) == 39 and "\u200c" in deck.credits
    assert set(joined) <= set(deck.words)


@pytest.mark.parametrize("char, escaped", CONTROLS)
def test_a_kit_files_name_with_a_control_character_is_refused(tmp_path, char, escaped):
    path = tmp_path / "kit.yaml"
    path.write_text(f'deck: classic-en\nname: "My{escaped}kit"\n')
    error = one_line_error(kitgen("build", str(path), "--out", str(tmp_path / "out"), cwd=tmp_path))
    refused_at(error, path, 2, f"My{char}kit", char, 3, "the kit's name")


# --- the deduction theme: every name, and a picture's file name

def classic_theme() -> dict:
    from kitgen.games.deduction import theme as theme_mod

    return yaml.safe_load(theme_mod.resolve(None, "en").read_text(encoding="utf-8"))


@pytest.mark.parametrize("char, escaped", CONTROLS)
@pytest.mark.parametrize("where", ["suspect", "location", "theme name"])
def test_a_theme_name_with_a_control_character_is_refused_at_its_position(tmp_path, char, escaped, where):
    data = classic_theme()
    marker = "QQQQ"                  # written plain, then swapped for a double-quoted string with the escape
    if where == "suspect":
        data["suspects"][3] = marker
    elif where == "location":
        data["locations"][5]["name"] = marker
    else:
        data["name"] = marker
    text = yaml.safe_dump(data, allow_unicode=True, sort_keys=False, width=1000)
    line = next(n for n, row in enumerate(text.splitlines(), 1) if marker in row)
    path = tmp_path / "theme.yaml"
    path.write_text(text.replace(marker, f'"Ma{escaped}rk"'), encoding="utf-8")
    error = one_line_error(kitgen("build", str(path), "--out", str(tmp_path / "out"), cwd=tmp_path))
    refused_at(error, path, line, f"Ma{char}rk", char, 3, "name")
    assert not (tmp_path / "out").exists()


@pytest.mark.parametrize("joiner", JOINERS)
def test_a_theme_name_with_a_joiner_is_accepted(tmp_path, joiner):
    from kitgen.games.deduction import theme as theme_mod

    data = classic_theme()
    data["suspects"][3] = f"Skip{joiner}per"
    path = write_yaml(tmp_path / "theme.yaml", data)
    assert theme_mod.load(path).suspects[3].name == f"Skip{joiner}per"


def test_a_road_to_a_name_with_a_control_character_is_refused_escaped(tmp_path):
    data = classic_theme()
    data["roads"][2][0] = "Old\x07Library"
    path = write_yaml(tmp_path / "theme.yaml", data)
    error = one_line_error(kitgen("build", str(path), "--out", str(tmp_path / "out"), cwd=tmp_path))
    assert "the road's end 'Old\\x07Library' has a control character U+0007 at position 4" in error
    assert "\x07" not in error


@pytest.mark.parametrize("char, escaped", [("\x00", "\\0"), ("\n", "\\n"), ("\x07", "\\a")])
def test_a_theme_picture_with_a_control_character_is_refused(tmp_path, char, escaped):
    data = classic_theme()
    data["suspects"][0] = {"name": "Baker", "picture": "PICTURE"}
    path = write_yaml(tmp_path / "theme.yaml", data)
    path.write_text(path.read_text(encoding="utf-8").replace("PICTURE", f'"ba{escaped}ker.png"'), encoding="utf-8")
    error = one_line_error(kitgen("build", str(path), "--out", str(tmp_path / "out"), cwd=tmp_path))
    assert f"the picture {f'ba{char}ker.png'!r} has a control character U+{ord(char):04X} at position 3" in error


# --- picture decks: file names and captions

@pytest.mark.parametrize("char, escaped", CONTROLS)
@pytest.mark.parametrize("key", ["caption", "file"])
def test_a_picture_decks_caption_or_file_with_a_control_character_is_refused(tmp_path, char, escaped, key):
    path = tmp_path / "pictures.yaml"
    entry = f'{{file: a.png, caption: "ca{escaped}t"}}' if key == "caption" else f'{{file: "ca{escaped}t.png"}}'
    path.write_text(f"name: p\npictures:\n  - {entry}\n")
    with pytest.raises(KitgenError) as caught:
        picture_decks.load(path)
    what = "the caption" if key == "caption" else "the file name"
    shown = f"ca{char}t" + ("" if key == "caption" else ".png")
    assert caught.value.message == (f"{what} {shown!r} has a control character U+{ord(char):04X} at position 3; "
                                    "remove it")
    assert caught.value.line == 3


@pytest.mark.parametrize("char", ["\n", "\x07", "\x7f", "\x85"])
def test_a_picture_folders_file_name_with_a_control_character_is_refused(tmp_path, char):
    folder = tmp_path / "pictures"
    folder.mkdir()
    (folder / f"ca{char}t.png").write_bytes(b"not read")
    error = one_line_error(kitgen("deck", "check", str(folder), cwd=tmp_path))
    assert error == (f"kitgen: error: {folder}: the file name {f'ca{char}t.png'!r} has a control character "
                     f"U+{ord(char):04X} at position 3; rename the file")


def test_the_build_checks_the_capacity_of_its_own_layout(tmp_path):
    """The capacity follows the layout: larger location boxes hold fewer, and the build refuses a
    theme its layout's board cannot hold, before placing anything."""
    import dataclasses

    from kitgen.games.deduction import build, layout
    from kitgen.games.deduction.render import board

    path = tmp_path / "big-boxes.yaml"
    path.write_text("extends: default\nboard:\n  location:\n    size: [100mm, 60mm]\n")
    assert board.capacity(layout.load(str(path))) == (3, 3)
    kit = dataclasses.replace(build.load(), layout_name=str(path))
    with pytest.raises(KitgenError) as caught:
        build.prepare(kit)
    assert caught.value.message.startswith("14 locations: a board holds at most 9 (3 across and 3 down, a location's "
                                           "box being 100 x 60 mm in a map of 336 x 230 mm)")


@pytest.mark.parametrize("kind", ["words", "pictures"])
@pytest.mark.parametrize("char, escaped", CONTROLS)
def test_a_decks_name_with_a_control_character_is_refused(tmp_path, kind, char, escaped):
    path = tmp_path / "deck.yaml"
    path.write_text(f'name: "My{escaped}deck"\n{kind}:\n' + "".join(f"  - {w}.png\n" for w in deck_words("x")))
    error = one_line_error(kitgen("deck", "check", str(path), cwd=tmp_path))
    refused_at(error, path, 1, f"My{char}deck", char, 3, "the deck's name")
