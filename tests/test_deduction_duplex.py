"""The deduction kit printed two-sided (issue 26 point 1, docs/design.md §8.4, §10.7): a board
piece, a token sheet or a player aid has nothing designed on its back, so in a two-sided file
(--duplex long, short) each such sheet is followed by a blank page, its other side; cards and
tiles keep their backs. Printed one-sided (--duplex fold, none) no blank page is added. Checked
on rasters of the pages, which are told apart from the build's own data: each file's page count in
the manifest, the one-sided build's pages as the sheets, and the kit's part order."""

import io
import json
import re
import subprocess
import sys
from functools import cache

import pytest
from PIL import ImageChops
from reportlab.pdfgen.canvas import Canvas

from kitgen.games.deduction import build
from kitgen.games.deduction.render import notepad, pages as pages_mod
from kitgen.render.document import sheet_grid

from raster import page_count, render_page

DPI = 25
TWO_SIDED = ("long", "short")
ONE_SIDED = ("fold", "none")
PLAYERS = (2, 5)
# kit.pdf holds the files' parts in this order (build.build_files; the board first when it is on the
# kit's paper, as it is on A4)
KIT_ORDER = ("board.pdf", "cards.pdf", "tiles.pdf", "tokens.pdf", "aids.pdf", "notepad.pdf", "rules.pdf", "setup.pdf")
WITHOUT_BACKS = ("board.pdf", "tokens.pdf", "aids.pdf", "notepad.pdf")
PREFERENCE = {"long": b"DuplexFlipLongEdge", "short": b"DuplexFlipShortEdge", "fold": b"Simplex", "none": b"Simplex"}


@pytest.fixture(scope="module")
def kits(tmp_path_factory):
    """The built-in kit on A4 (the board in pieces) for 2 and 5 players in every duplex mode."""
    out = tmp_path_factory.mktemp("deduction-duplex")
    built = {}
    for players in PLAYERS:
        for mode in TWO_SIDED + ONE_SIDED:
            target = out / f"{mode}-{players}"
            result = subprocess.run([sys.executable, "-m", "kitgen", "build", "--game", "deduction", "--paper", "a4",
                                     "--players", str(players), "--duplex", mode, "--out", str(target)],
                                    cwd=out, capture_output=True, text=True)
            assert result.returncode == 0, result.stderr
            (kit,) = target.iterdir()
            built[mode, players] = kit
    return built


def counts(kit) -> dict[str, int]:
    """Each PDF's pages, as the manifest records them."""
    manifest = json.loads((kit / "manifest.json").read_text(encoding="utf-8"))
    return {entry["path"]: entry["pages"] for entry in manifest["files"]}


@cache
def raster(path: str, index: int):
    return render_page(path, index, DPI).convert("L")


def ink(image) -> float:
    """The share of the page's pixels that are not white paper."""
    histogram = image.histogram()
    return sum(histogram[:250]) / sum(histogram)


def blank(image) -> bool:
    """Paper with nothing on it (a card set's blank backs keep their crop marks: a few pixels)."""
    return ink(image) < 0.005


def same(a, b) -> bool:
    return a.size == b.size and ImageChops.difference(a, b).getextrema()[1] <= 8


def pages(kit, name: str) -> list:
    path = str(kit / name)
    return [raster(path, i) for i in range(page_count(path))]


def preference(kit, name: str) -> bytes:
    return re.findall(rb"/Duplex\s*/(\w+)", (kit / name).read_bytes())[0]


def board_pieces(players: int) -> int:
    """How many pieces the A4 board is cut into: the build's own tiling."""
    kit = build.load(players=players, paper="a4")
    prepared = build.prepare(kit)
    layout = prepared.layout
    return len(build.board.pieces(layout, prepared.board_size, layout.board.tiling.label.size * 3))


def token_sheets(players: int) -> int:
    """How many sheets ``players``' tokens take, drawn once on a canvas of their own."""
    prepared = build.prepare(build.load(players=players, paper="a4"))
    canvas = Canvas(io.BytesIO(), pagesize=prepared.page_size)
    return pages_mod.token_pages(canvas, prepared.layout, prepared.fonts, prepared.messages.labels,
                                 prepared.page_size, players)


def aid_sheets(players: int) -> int:
    """How many sheets ``players`` aids take: one aid a player, as many a sheet as its grid holds."""
    prepared = build.prepare(build.load(players=players, paper="a4", duplex="none"))
    aids = prepared.card_sets["aids"]
    grid = sheet_grid(prepared.layout, aids.spec, prepared.page_size)
    assert aids.count == players
    return -(-players // grid.per_sheet)


def notepad_sheets(players: int) -> int:
    """How many pages the notepads take: a sheet a player, as many side by side as the layout fits."""
    prepared = build.prepare(build.load(players=players, paper="a4"))
    return notepad.pages_for(players, prepared.layout, prepared.page_size)


def sheets(players: int) -> dict[str, int]:
    return {"board.pdf": board_pieces(players), "tokens.pdf": token_sheets(players), "aids.pdf": aid_sheets(players),
            "notepad.pdf": notepad_sheets(players)}


@pytest.mark.parametrize("players", PLAYERS)
@pytest.mark.parametrize("mode", TWO_SIDED)
def test_two_sided_a_sheet_without_backs_has_a_blank_back(kits, mode, players):
    """tokens.pdf and aids.pdf: each sheet (as the one-sided kit prints it) then a blank page."""
    kit, one_sided = kits[mode, players], kits["none", players]
    expected = sheets(players)
    for name in ("tokens.pdf", "aids.pdf", "notepad.pdf"):
        assert preference(kit, name) == PREFERENCE[mode]
        fronts = pages(one_sided, name)
        assert len(fronts) == expected[name]
        printed = pages(kit, name)
        assert counts(kit)[name] == len(printed) == 2 * len(fronts), name
        for sheet, front in enumerate(fronts):
            assert not blank(front), f"{name}: sheet {sheet + 1} is empty"
            assert same(printed[2 * sheet], front), f"{name}: page {2 * sheet + 1} is not sheet {sheet + 1}"
            assert blank(printed[2 * sheet + 1]), (f"{name}: the back of sheet {sheet + 1} (page {2 * sheet + 2}) "
                                                   f"is not blank ({ink(printed[2 * sheet + 1]):.1%} ink)")


@pytest.mark.parametrize("players", PLAYERS)
@pytest.mark.parametrize("mode", TWO_SIDED)
def test_two_sided_kit_pdf_gives_each_board_piece_token_sheet_and_aid_a_blank_back(kits, mode, players):
    """kit.pdf is the files in the kit's order, each part on a new sheet; each page of the board,
    the tokens and the aids is followed by a blank page, and the cards and tiles keep their backs."""
    kit, one_sided = kits[mode, players], kits["none", players]
    assert preference(kit, "kit.pdf") == PREFERENCE[mode]
    expected = []               # (what the page is, its raster or None for a blank page)
    for name in KIT_ORDER:
        if name in WITHOUT_BACKS:       # each sheet as the one-sided kit prints it, then its blank back
            file_pages = [p for sheet in pages(one_sided, name) for p in (sheet, None)]
            assert len(file_pages) == 2 * sheets(players)[name]
        else:
            file_pages = pages(kit, name)
        if len(file_pages) % 2:
            file_pages.append(None)     # the next part starts on a new sheet
        expected += [(f"{name} page {i + 1}" if p is not None else f"the blank back of {name} page {i}", p)
                     for i, p in enumerate(file_pages)]
    printed = pages(kit, "kit.pdf")
    assert counts(kit)["kit.pdf"] == len(printed) == len(expected)
    for number, (page, (what, source)) in enumerate(zip(printed, expected), 1):
        if source is None:
            assert blank(page), f"kit.pdf page {number}, {what}, is not blank ({ink(page):.1%} ink)"
        else:
            assert same(page, source), f"kit.pdf page {number} is not {what}"


@pytest.mark.parametrize("mode", TWO_SIDED + ONE_SIDED)
def test_cards_and_tiles_keep_their_designed_backs(kits, mode):
    """Every page of cards.pdf and tiles.pdf has faces on it: a front sheet is followed by its
    backs (or holds them, on a gutter-fold sheet); their page counts are as before."""
    kit = kits[mode, 5]
    for name, before in (("cards.pdf", {"fold": 18}), ("tiles.pdf", {"fold": 1})):
        printed = pages(kit, name)
        assert len(printed) == counts(kit)[name] == before.get(mode, 20 if name == "cards.pdf" else 2)
        assert not any(blank(p) for p in printed), name


@pytest.mark.parametrize("players", PLAYERS)
@pytest.mark.parametrize("mode", ONE_SIDED)
def test_one_sided_no_blank_page_is_added(kits, mode, players):
    """--duplex fold and none: one page a sheet, none blank, the file marked Simplex; kit.pdf is
    the files one after another."""
    kit = kits[mode, players]
    expected = sheets(players)
    for name in WITHOUT_BACKS:
        printed = pages(kit, name)
        assert counts(kit)[name] == len(printed) == expected[name], name
        assert not any(blank(p) for p in printed), name
        assert preference(kit, name) == b"Simplex"
    assert preference(kit, "kit.pdf") == b"Simplex"
    file_counts = counts(kit)
    assert file_counts["kit.pdf"] == page_count(str(kit / "kit.pdf")) == sum(file_counts[n] for n in KIT_ORDER)
    printed = pages(kit, "kit.pdf")
    assert not any(blank(p) for p in printed[:expected["board.pdf"]])


@pytest.mark.parametrize("mode", TWO_SIDED + ONE_SIDED)
def test_board_pdf_is_one_sided(kits, mode):
    """board.pdf is printed on one side whatever --duplex says: one page a piece, none blank."""
    kit = kits[mode, 2]
    printed = pages(kit, "board.pdf")
    assert len(printed) == counts(kit)["board.pdf"] == board_pieces(2) > 1
    assert not any(blank(p) for p in printed)
    assert preference(kit, "board.pdf") == b"Simplex"
