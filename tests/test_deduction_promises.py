"""Promises of the deduction game that only a test of the exact answer guards (issue 25, point 12):
`kitgen verify --at N` answers for location N of the theme's list (docs/design.md §10.5: a
1-based number when no location has that name), the first and the last included, and refuses
0 and one past the last in one line; and the setup sheet prints, row by row in the theme's
order, the tiles the seed deals (docs/design.md §10.3), the very tiles the slips' answers
count."""

import ctypes
import json
import subprocess
import sys

import pypdfium2 as pdfium
import pypdfium2.raw as pdfium_c
import pytest

from kitgen.games.deduction import answers, case_payload, dealing, facts, texts, theme as theme_mod, verify
from kitgen.games.deduction.dealing import BLANK


def kitgen(*args, cwd):
    return subprocess.run([sys.executable, "-m", "kitgen", *args], cwd=cwd, capture_output=True, text=True)


@pytest.fixture(scope="module")
def built(tmp_path_factory):
    """The built-in English kit (4 players) and the Russian one for 5, through the command line:
    {language: its folder}."""
    out = tmp_path_factory.mktemp("deduction")
    folders = {}
    for lang, players in (("en", 4), ("ru", 5)):
        result = kitgen("build", "--game", "deduction", "--lang", lang, "--players", str(players), "--out", str(out),
                        cwd=out)
        assert result.returncode == 0, result.stderr
        folders[lang] = out / f"deduction-{lang}"
    return folders


def _theme(lang):
    return theme_mod.load(theme_mod.resolve(None, lang))


def _manifest(folder):
    return json.loads((folder / "manifest.json").read_text("utf-8"))


def _numbers(theme) -> list[int]:
    """The first location's number, one in the middle and the last's (14 in the built-in city)."""
    last = len(theme.city.names)
    return [1, (last + 1) // 2, last]


# --- kitgen verify --at N ------------------------------------------------------------------

def _expected_note(theme, seed, players, payload, index) -> str:
    """What an investigator on the theme's location ``index`` (0-based) receives for this slip,
    counted from the dealt setup (answers.at, itself checked against a brute force in test_deduction)."""
    slip = case_payload.decode(payload)
    game = dealing.deal(seed, theme.counts, players)[slip.game - 1]
    discs, cubes = answers.at(theme.city, game, game.cases[slip.holder - 1], index).counts
    return f"an investigator on {theme.city.names[index]} gets {discs} disc(s) and {cubes} cube(s)"


def test_at_every_number_answers_for_the_location_of_that_number(built):
    """In-process, every number from 1 to the last, for every slip: the answer is for the location
    at that place in the theme file's list, and the same as the answer for its name."""
    theme = _theme("en")
    man = _manifest(built["en"])
    names = verify.load_manifest(str(built["en"] / "manifest.json"))
    for slip in man["slips"]:
        for number in range(1, len(theme.city.names) + 1):
            result = verify.check(slip["payload"], man["seed"], names, str(number), True)
            expected = _expected_note(theme, man["seed"], man["players"], slip["payload"], number - 1)
            assert result.ok and (result.notes[-1] == expected or result.notes[-1].startswith(expected + ":")), \
                (number, result.notes)
            by_name = verify.check(slip["payload"], man["seed"], names, theme.city.names[number - 1], True)
            assert by_name.notes == result.notes, number


@pytest.mark.parametrize("source", ["--kit", "--seed"])
def test_at_the_first_a_middle_and_the_last_number_from_the_command_line(built, source):
    """`kitgen verify SLIP --at N`, with the kit's manifest or with the seed alone (the built-in
    theme found by the kit id), for 1, a middle number and the last: the line names location N
    of the theme's list and gives its answer, as `--at NAME` does."""
    theme = _theme("en")
    man = _manifest(built["en"])
    folder = built["en"]
    given = ["--kit", str(folder / "manifest.json")] if source == "--kit" else ["--seed", man["seed"]]
    slip = man["slips"][-1]["payload"]             # the last mini-game's last player: not the first of anything
    for number in _numbers(theme):
        name = theme.city.names[number - 1]
        by_number = kitgen("verify", slip, *given, "--at", str(number), cwd=folder)
        assert by_number.returncode == 0, (number, by_number.stdout, by_number.stderr)
        expected = _expected_note(theme, man["seed"], man["players"], slip, number - 1)
        assert expected in by_number.stdout, (number, by_number.stdout)
        by_name = kitgen("verify", slip, *given, "--at", name, cwd=folder)
        assert by_name.returncode == 0 and by_name.stdout == by_number.stdout, number


@pytest.mark.parametrize("source", ["--kit", "--seed"])
def test_at_zero_and_one_past_the_last_are_refused_in_one_line(built, source):
    theme = _theme("en")
    man = _manifest(built["en"])
    folder = built["en"]
    given = ["--kit", str(folder / "manifest.json")] if source == "--kit" else ["--seed", man["seed"]]
    for number in (0, len(theme.city.names) + 1):
        result = kitgen("verify", man["slips"][0]["payload"], *given, "--at", str(number), cwd=folder)
        assert result.returncode == 2, (number, result.stdout, result.stderr)
        lines = result.stderr.strip().splitlines()
        assert len(lines) == 1 and f"--at '{number}' is not a location of DEDUCTION-EN" in lines[0], result.stderr
        assert "Traceback" not in result.stderr and result.stdout == ""


# --- the setup sheet's table, row by row ---------------------------------------------------

def _lines(page) -> list[list[tuple[float, str]]]:
    """The page's text as lines, top to bottom: each a list of (x, character), left to right."""
    textpage = page.get_textpage()
    rows: dict[float, list] = {}
    for i in range(textpage.count_chars()):
        char = textpage.get_text_range(i, 1)
        if not char.strip():
            continue
        left, _, _, _ = textpage.get_charbox(i)
        x, y = ctypes.c_double(), ctypes.c_double()          # the glyph's origin: on the baseline
        pdfium_c.FPDFText_GetCharOrigin(textpage.raw, i, x, y)
        near = next((row for row in rows if abs(row - y.value) <= 2), y.value)
        rows.setdefault(near, []).append((left, char))
    return [sorted(rows[y]) for y in sorted(rows, reverse=True)]


def _columns(line, starts) -> tuple[str, ...]:
    """A line cut into the table's columns at the x where each heading starts; each cell's
    characters joined, spaces left out (pdfium gives no box to the spaces it adds)."""
    cells = [""] * len(starts)
    for x, char in line:
        cells[max(k for k, start in enumerate(starts) if x >= start - 1)] += char
    return tuple(cells)


def printed_setup_rows(pdf_path, labels, mini_game) -> list[tuple[str, str, str]]:
    """The rows of mini-game ``mini_game``'s setup table, as printed, in order: (location,
    suspect tile, crime tile), each without spaces."""
    titles = ["".join(labels.setup_title.format(n=n, total=facts.MINI_GAMES).split())
              for n in range(1, facts.MINI_GAMES + 1)]
    title = titles[mini_game - 1]
    document = pdfium.PdfDocument(str(pdf_path))
    try:                                   # a page may hold several mini-games' tables, one under another
        page = next(p for p in document if title in "".join(p.get_textpage().get_text_range().split()))
        lines = _lines(page)
    finally:
        document.close()
    joined = ["".join(c for _, c in line) for line in lines]
    heading = "".join((labels.location + labels.suspect + labels.crime).split())
    at = joined.index(heading, joined.index(title))
    end = next((i for i in range(at + 1, len(lines)) if joined[i] in titles), len(lines))
    head = lines[at]
    starts, seen = [], ""
    for x, char in head:                   # where each heading's first letter lies
        if seen in ("", "".join(labels.location.split()), "".join((labels.location + labels.suspect).split())):
            starts.append(x)
        seen += char
    assert len(starts) == 3, starts
    return [_columns(line, starts) for line in lines[at + 1:end]]


def _squeezed(*texts_) -> tuple[str, ...]:
    return tuple("".join(t.split()) for t in texts_)


@pytest.mark.parametrize("lang", ["en", "ru"])
def test_the_setup_table_prints_the_dealt_tiles_row_by_row_in_the_themes_order(built, lang):
    """Each mini-game's setup sheet: one row per location, in the theme's order, each with the
    suspect tile and the crime tile the seed deals there (the kit's seed and players, from its
    manifest) -- compared row by row, not as a set of names."""
    theme = _theme(lang)
    labels = texts.load(lang).labels
    man = _manifest(built[lang])
    games = dealing.deal(man["seed"], theme.counts, man["players"])
    for game in games:
        expected = [_squeezed(name,
                              labels.no_suspect if game.suspect_tiles[i] == BLANK
                              else theme.suspects[game.suspect_tiles[i]].name,
                              labels.no_crime if game.crime_tiles[i] == BLANK
                              else theme.crimes[game.crime_tiles[i]].name)
                    for i, name in enumerate(theme.city.names)]
        assert printed_setup_rows(built[lang] / "setup.pdf", labels, game.number) == expected, game.number


@pytest.mark.parametrize("lang", ["en", "ru"])
def test_the_setup_table_agrees_with_every_slips_answers(built, lang):
    """The table as printed and the slips' answers (`verify --at`) tell one story: for every slip
    of the kit and every row, the answer at that row's number has "suspect here" exactly when the
    row prints the slip's suspect, and "crime here" exactly when it prints the slip's crime."""
    theme = _theme(lang)
    labels = texts.load(lang).labels
    man = _manifest(built[lang])
    names = verify.load_manifest(str(built[lang] / "manifest.json"))
    tables = {}
    for entry in man["slips"]:
        slip = case_payload.decode(entry["payload"])
        if slip.game not in tables:
            tables[slip.game] = printed_setup_rows(built[lang] / "setup.pdf", labels, slip.game)
        rows = tables[slip.game]
        assert len(rows) == len(theme.city.names)
        suspect, crime = _squeezed(theme.suspects[slip.suspect].name, theme.crimes[slip.crime].name)
        for number, (location, shown_suspect, shown_crime) in enumerate(rows, 1):
            note = verify.check(entry["payload"], man["seed"], names, str(number), True).notes[-1]
            assert location == _squeezed(theme.city.names[number - 1])[0]
            here = note.partition(" cube(s): ")[2].split("; ")
            assert ("suspect here" in here) == (shown_suspect == suspect), (slip.game, number, note)
            assert ("crime here" in here) == (shown_crime == crime), (slip.game, number, note)
