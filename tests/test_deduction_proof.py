"""kitgen proof for the deduction game (docs/design.md §10.8): the counts read back from the
built PDFs equal the facts, the setups and answers of every mini-game and location are in the
proof, a name that does not fit or lacks a glyph fails the proof (not refused), the contact
sheet shows every page of the kit, and bad input gets one line."""

import dataclasses
import io
import re
import shutil
import subprocess
import sys

import pypdfium2 as pdfium
import pytest

from kitgen.cli import EXIT_CHECK_FAILED
from kitgen.games.deduction import answers, build, facts, texts, theme as theme_mod
from kitgen.games.deduction.dealing import BLANK
from kitgen.games.deduction.proof import answer_cell, count_kit, read

pdftotext = shutil.which("pdftotext")

THEME = """game: deduction
name: The Forum Mystery
language: en
seed: forum
suspects: [Brutus, Cassius, Casca, Cinna, Portia]
crimes: [Forgery, Bribery, Arson, Theft]
locations:
  - {name: Senate, at: [0.3, 0.2]}
  - {name: Forum, at: [0.7, 0.2]}
  - {name: Temple}
  - {name: Baths}
  - {name: Market}
  - {name: Harbour}
roads: [[Senate, Forum], [Forum, Temple], [Temple, Baths], [Baths, Market], [Market, Senate], [Market, Harbour],
        [Harbour, Temple]]
"""


def kitgen(*args, cwd):
    return subprocess.run([sys.executable, "-m", "kitgen", *args], cwd=cwd, capture_output=True, text=True)


def layout_text(path) -> str:
    return subprocess.run([pdftotext, "-layout", str(path), "-"], capture_output=True, text=True, check=True).stdout


def squeeze(line: str) -> str:
    return " ".join(line.split())


CASES = [("en", 2), ("ru", 5), ("en", 5), ("ru", 2)]


@pytest.fixture(scope="module")
def proofs(tmp_path_factory):
    """The proof of each built-in theme for 2 and 5 players: (result, proof PDF, kit)."""
    out = tmp_path_factory.mktemp("proofs")
    done = {}
    for lang, players in CASES:
        where = out / f"{lang}-{players}"
        result = kitgen("proof", "--game", "deduction", "--lang", lang, "--players", str(players), "--out", str(where),
                        cwd=out)
        done[(lang, players)] = (result, where / f"deduction-{lang}-proof.pdf", build.load(None, lang, players))
    return done


@pytest.mark.parametrize("case", CASES)
def test_the_built_in_kits_pass_their_proof(proofs, case):
    result, path, _ = proofs[case]
    assert result.returncode == 0, result.stdout + result.stderr
    lines = result.stdout.strip().splitlines()
    assert lines[-1] == f"Proof written to {path}" and path.exists()
    assert lines[:-1] and all(line.startswith("PASS ") for line in lines[:-1]), result.stdout
    with pdfium.PdfDocument(str(path)) as document:
        assert len(document) >= 6


def _status(stdout: str, what: str) -> str:
    """The text after "<what>: " on the check line that begins with it."""
    line = next(line for line in stdout.splitlines() if line.startswith(f"PASS {what}") or
                line.startswith(f"FAIL {what}"))
    return line.split(": ", 1)[1]


@pytest.mark.parametrize("case", CASES)
def test_the_counts_in_the_proof_are_the_games_facts(proofs, case):
    result, path, kit = proofs[case]
    players, counts = kit.players, kit.theme.counts
    assert counts == facts.Counts(**facts.CLASSIC)
    out = result.stdout
    tokens = facts.tokens(players)
    expected = {
        "case cards": f"{counts.case_cards} ", "evidence cards": f"{counts.evidence_cards}",
        "suspect tiles": f"{counts.suspects} {counts.no_suspect_tiles} ",
        "crime tiles": f"{counts.crimes} {counts.no_crime_tiles} ",
        "locations named on the board": f"{counts.locations} ",
        "investigators per player": " ".join([str(facts.INVESTIGATORS)] * players),
        "discs, score and penalty markers per player":
            " ".join([str(facts.DISCS + facts.SCORE_MARKERS + facts.PENALTY_MARKERS)] * players),
        "cubes per player": " ".join([str(facts.CUBES)] * players),
        "shared tokens": f"{tokens['black_disc']} {tokens['first_player']}",
        "setup sheets": str(facts.MINI_GAMES),
        "sealed case slips": f"{players * facts.MINI_GAMES} ",
        "player aids": str(players), "detective's notepads": str(players),
    }
    for what, value in expected.items():
        assert _status(out, what).startswith(value), (what, _status(out, what))
    for kind, number in (("suspects", counts.suspects), ("crimes", counts.crimes), ("locations", counts.locations)):
        assert _status(out, f"{kind} named on exactly one case card") == str(number)
    # the proof PDF's table says the same: each count read, each expected, each PASS
    text = [squeeze(line) for line in layout_text(path).splitlines()]
    assert f"case cards (fronts marked as case cards) {counts.case_cards} {counts.case_cards} PASS" in text
    assert f"sealed case slips read by QR code, one per player and mini-game {3 * players} {3 * players} PASS" in text
    assert not any(line.endswith(" FAIL") for line in text)


@pytest.mark.parametrize("case", [("en", 2), ("ru", 5)])
def test_the_proof_holds_every_setup_and_every_answer(proofs, case):
    _, path, kit = proofs[case]
    prepared = build.prepare(kit)
    theme, labels = prepared.theme, texts.load(kit.theme.language).labels
    text = [squeeze(line) for line in layout_text(path).splitlines()]
    for game in prepared.games:
        start = text.index(f"Mini-game {game.number} of 3: setup")
        rows = text[start:]
        for i, name in enumerate(theme.city.names):
            held, placed = game.suspect_tiles[i], game.crime_tiles[i]
            suspect = labels.no_suspect if held == BLANK else theme.suspects[held].name
            crime = labels.no_crime if placed == BLANK else theme.crimes[placed].name
            assert f"{name} {suspect} {crime}" in rows, (game.number, name)
            cells = [answer_cell(answers.at(theme.city, game, case, i)) for case in game.cases]
            # pdftotext sets a short cell's spaces as it likes: the answers are compared without them
            assert "".join(f"{name}{''.join(cells)}".split()) in {"".join(row.split()) for row in rows}, (name, cells)
        for case in game.cases:
            assert (f"player {case.holder} holds, player {case.solver} solves: {theme.suspects[case.suspect].name} "
                    f"\u00b7 {theme.crimes[case.crime].name} \u00b7 {theme.locations[case.location].name}") in rows


def test_an_answer_cell_counts_discs_and_cubes_and_names_what_matched():
    assert answer_cell(answers.Answer(("suspect", "location"), ((3, "crime"),))) == "2 / 1 SL"
    assert answer_cell(answers.Answer((), ())) == "0 / 0"


@pytest.mark.parametrize("case", [("en", 2), ("ru", 5)])
def test_the_contact_sheet_shows_every_page_of_the_kit(proofs, case):
    _, path, kit = proofs[case]
    files, _ = build.build_files(kit)
    pages = {}
    for f in files:
        if f.name.endswith(".pdf") and f.name != "kit.pdf":
            with pdfium.PdfDocument(f.data) as document:
                pages[f.name] = len(document)
    text = layout_text(path)
    labels = re.findall(r"\b([a-z]+\.pdf) p(\d+)\b", text)
    assert sorted(labels) == sorted((name, str(n)) for name, count in pages.items() for n in range(1, count + 1))
    assert sum(pages.values()) > 30
    # each thumbnail is a picture of its page
    with pdfium.PdfDocument(str(path)) as document:
        images = sum(1 for page in document for obj in page.get_objects(filter=[pdfium.raw.FPDF_PAGEOBJ_IMAGE]))
    assert images == sum(pages.values())


@pytest.mark.parametrize("change, failed", [
    (("Brutus,", "Brutus Maximus Extraordinarius Longname,"), "FAIL fit: 1 name(s) do not fit at the smallest size: "
                                                              "Brutus Maximus Extraordinarius Longname (tile)"),
    (("Cassius", "Cassius \u1230"), "FAIL glyphs: "),      # Ethiopic: no font of the layout draws it
])
def test_a_name_that_does_not_fit_or_lacks_a_glyph_fails_the_proof(tmp_path, change, failed):
    (tmp_path / "t.yaml").write_text(THEME.replace(*change, 1), "utf-8")
    refused = kitgen("build", "t.yaml", "--players", "3", "--out", "b", cwd=tmp_path)
    assert refused.returncode == 2 and len(refused.stderr.strip().splitlines()) == 1
    result = kitgen("proof", "t.yaml", "--players", "3", "--out", "p", cwd=tmp_path)
    assert result.returncode == EXIT_CHECK_FAILED, result.stdout + result.stderr
    assert failed in result.stdout and "FAIL the build's name check" in result.stdout
    assert "Traceback" not in result.stderr
    path = tmp_path / "p" / "t-proof.pdf"
    assert path.exists()
    text = squeeze(layout_text(path))
    assert "FAIL" in text and "Contact sheet" in text


def test_a_teachers_theme_passes_its_proof(tmp_path):
    (tmp_path / "forum.yaml").write_text(THEME)
    result = kitgen("proof", "forum.yaml", "--players", "3", "--out", "p", cwd=tmp_path)
    assert result.returncode == 0, result.stdout
    assert "PASS suspect tiles, named and blank: 5 1 " in result.stdout
    assert "PASS crime tiles, named and blank: 4 2 " in result.stdout
    assert (tmp_path / "p" / "forum-proof.pdf").exists()


@pytest.mark.parametrize("args, message", [
    (["--game", "deduction", "missing.yaml"], "theme file not found"),
    (["--game", "deduction", "--deck", "w.txt"], "--deck is a Codenames option"),
    (["--game", "deduction", "--keys", "4"], "--keys is a Codenames option"),
    (["--game", "deduction", "--edition", "duet"], "--edition is a Codenames option"),
    (["--players", "3"], "--players is an option of the deduction game"),
    (["--game", "deduction", "--players", "6"], "the game takes 2 to 5 players"),
    (["--game", "codenames", "forum.yaml"], "is a deduction theme"),
])
def test_bad_input_gets_one_line(tmp_path, args, message):
    (tmp_path / "forum.yaml").write_text(THEME)
    result = kitgen("proof", *args, "--out", "p", cwd=tmp_path)
    assert result.returncode == 2, result.stdout + result.stderr
    assert len(result.stderr.strip().splitlines()) == 1 and message in result.stderr, result.stderr
    assert not (tmp_path / "p").exists()


def test_the_theme_file_is_found_as_build_finds_it(tmp_path):
    path = theme_mod.resolve(None, "ru")
    result = kitgen("proof", str(path), "--players", "2", "--out", "p", cwd=tmp_path)
    assert result.returncode == 0, result.stdout
    assert (tmp_path / "p" / "deduction-ru-proof.pdf").exists()


def _without_page(data: bytes, index: int) -> bytes:
    import pikepdf

    with pikepdf.open(io.BytesIO(data)) as pdf:
        del pdf.pages[index]
        out = io.BytesIO()
        pdf.save(out)
    return out.getvalue()


def test_the_counts_are_read_from_the_pdfs_themselves():
    """A token sheet, a tile sheet or a slip page missing from the PDFs is counted as missing."""
    kit = build.load(None, "en", 2)
    prepared = build.prepare(kit)
    files, _ = build.build_files(kit)
    assert all(count.ok for count in count_kit(prepared, files, 2))
    setup = read(next(f.data for f in files if f.name == "setup.pdf"))
    slips = next(i for i, strings in enumerate(setup.texts) if any(s.startswith("case for") for s in strings))
    cut = {"tokens.pdf": 0, "tiles.pdf": 0, "setup.pdf": slips}         # the first sheet, the first page of slips
    damaged = [dataclasses.replace(f, data=_without_page(f.data, cut[f.name])) if f.name in cut else f for f in files]
    failed = {count.what.split(" (")[0] for count in count_kit(prepared, damaged, 2) if not count.ok}
    assert {"pages of every PDF", "suspect tiles, named and blank", "investigators per player",
            "sealed case slips read by QR code, one per player and mini-game"} <= failed, failed
    assert "case cards" not in failed and "player aids" not in failed
