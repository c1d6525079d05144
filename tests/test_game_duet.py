"""kitgen game --edition duet (docs/design.md §3.5): each game's key drawn from its own seed, a
key page per player showing that player's side as they see the board, text boards per player
with the commitment only, the host's file with the key and salt to post after the game."""

import re
import subprocess
import sys

import numpy as np
import pypdfium2 as pdfium
import pytest
import zxingcpp

from kitgen.games.codenames import (
    duet_keys,
    editions,
    forum_boards,
    key_payload,
    layout as layout_mod,
    single_games,
    texts,
    verify,
)
from kitgen.games.codenames.duet_keys import half_turn
from kitgen.games.codenames.render import cell_symbols

from raster import render_page

WORDS = [f"Word{chr(65 + i // 26)}{chr(97 + i % 26)}" for i in range(60)]
SYMBOL_KIND = {"\u25cf": "G", "\u25ac": "N", "\u2716": "A"}
COLOURS = {"G": "#3E8A46", "N": "#D9C9A3", "A": "#222222"}
SEED = "pair lesson"


def kitgen(*args, cwd):
    return subprocess.run([sys.executable, "-m", "kitgen", *args], cwd=cwd, capture_output=True, text=True)


def dealt(count=3, seed=SEED):
    return single_games.deal(seed, WORDS, editions.DUET, count)


@pytest.fixture(scope="module")
def sheets(tmp_path_factory):
    """A run of 3 duet games as a PDF, from the command line."""
    folder = tmp_path_factory.mktemp("duet-games")
    result = kitgen("game", "--edition", "duet", "--count", "3", "--seed", SEED, "--out", "o", cwd=folder)
    assert result.returncode == 0, result.stderr
    pdf = next((folder / "o").glob("games-*/games.pdf"))
    return pdf, folder


def _games_of(pdf) -> list:
    """The games the PDF should show, dealt from the built-in duet kit's deck with the run's seed."""
    from kitgen.games.codenames import kitfile

    kit = kitfile.load(kitfile.kit_path(None, "duet", None), seed=SEED)
    return single_games.deal(kit.seed, kit.deck.words, kit.edition, 3)


def read_grid(image) -> str:
    """The 25 cell types of the key grid in a page's raster, top row first, read by colour alone: the
    grid is the bounding box of the green and bystander fills (every edge row and column of a side
    has one: at most 3 assassins), cut 5 x 5, each cell's fill sampled between its edge and its symbol."""
    layout = layout_mod.load("duet")
    fills = {k: np.array(cell_symbols.type_colours(layout, k)[0].rgb()) * 255 for k in "GNA"}
    pixels = np.asarray(image.convert("RGB")).astype(float)
    near = [np.abs(pixels - fills[k]).sum(axis=2) < 30 for k in "GN"]
    ys, xs = np.nonzero(near[0] | near[1])
    top, bottom, left, right = ys.min(), ys.max(), xs.min(), xs.max()
    cell_w, cell_h = (right - left) / 5, (bottom - top) / 5
    out = ""
    for r in range(5):
        for c in range(5):
            x, y = int(left + (c + 0.15) * cell_w), int(top + (r + 0.5) * cell_h)
            out += min("GNA", key=lambda k: np.abs(pixels[y, x] - fills[k]).sum())
    return out


def test_duet_game_key_comes_from_the_games_seed():
    """The key is the first of a duet deck of one drawn from "<seed>/game/<code>"; its payload (kit
    G-<code>, key 1/1) is signed with that seed, so kitgen verify checks it with it."""
    for game in dealt(3):
        key = duet_keys.generate(single_games.game_seed(SEED, game.code), 1)[0]
        assert game.key == key == single_games.game_key(SEED, game.code, editions.DUET)
        parsed = key_payload.decode(game.payload)
        assert isinstance(parsed, key_payload.DuetPayload)
        assert (parsed.kit, parsed.number, parsed.total) == (f"G-{game.code}", 1, 1)
        assert (parsed.side_a, parsed.side_b) == (key.side_a, key.side_b)
        assert verify.check_payload(game.payload, verify.Secret(single_games.game_seed(SEED, game.code))) == []
        assert verify.check_payload(game.payload, verify.Secret(single_games.game_seed("other", game.code))) != []
    # the boards are dealt as the words edition deals them: the same codes and words for the same seed
    words = single_games.deal(SEED, WORDS, editions.WORDS, 3)
    assert [(g.code, g.items) for g in dealt(3)] == [(g.code, g.items) for g in words]


def test_duet_game_golden_vector():
    """docs/design.md §3.5: game 1 of the built-in duet seed, pinned."""
    game = single_games.deal("kitgen classic-duet 2026", WORDS, editions.DUET, 1)[0]
    assert game.payload == GOLDEN


GOLDEN = "KG1:G-FUDQ34:1/1:D:GNNNN/GGAGN/GANNN/GAGNN/GNNGN:NNNNG/NGGGN/NAGAG/GNNNG/NNNAG:Q5HPYP"


def test_duet_key_pages_show_each_player_their_side(sheets):
    """Boards first, then for each game side A's page and side B's: each states whose it is, its grid
    (read from the raster) is that player's side as they see the board -- side B's is side B turned
    half round -- and its QR is the game's duet payload."""
    pdf, _ = sheets
    games = _games_of(pdf)
    document = pdfium.PdfDocument(str(pdf))
    assert len(document) == 3 + 6
    page_text = [page.get_textpage().get_text_range() for page in document]
    for i, game in enumerate(games):
        assert f"Game {i + 1} of 3" in page_text[i] and "Side" not in page_text[i]
        for j, (side, expected) in enumerate((("A", game.key.side_a), ("B", half_turn(game.key.side_b)))):
            page = 3 + 2 * i + j
            assert f"Game {i + 1} of 3" in page_text[page] and f"Side {side}" in page_text[page]
            assert "Spymasters only" not in page_text[page]
            image = render_page(str(pdf), page, 100)
            assert read_grid(image) == "".join(expected), (i, side)
            decoded = zxingcpp.read_barcodes(image)
            assert [d.text for d in decoded] == [game.payload]


def test_duet_game_pdf_verifies_each_side(sheets):
    """kitgen verify reads every key page of the PDF, says which side it shows, and with the game's
    seed checks the key belongs to that game."""
    pdf, folder = sheets
    games = _games_of(pdf)
    result = kitgen("verify", str(pdf), cwd=folder)
    assert result.returncode == 0, result.stdout
    assert result.stdout.count("side A, as its player sees it") == 3
    assert result.stdout.count("side B, as its player sees it") == 3
    seeded = kitgen("verify", str(pdf), "--seed", single_games.game_seed(SEED, games[1].code), cwd=folder)
    assert seeded.returncode == 3
    passed = [line for line in seeded.stdout.splitlines() if line.startswith("OK")]
    assert len(passed) == 2 and all(f"G-{games[1].code}" in line for line in passed)


def test_duet_game_pdf_same_seed_same_bytes(sheets, tmp_path):
    pdf, _ = sheets
    again = kitgen("game", "--edition", "duet", "--count", "3", "--seed", SEED, "--out", "o", cwd=tmp_path)
    assert again.returncode == 0, again.stderr
    assert next((tmp_path / "o").glob("games-*/games.pdf")).read_bytes() == pdf.read_bytes()


def cells_of(text: str) -> list[tuple[str, str | None]]:
    """(word, kind or None) of each cell of each board in a text file, in order."""
    found = re.findall(r"\b(WORD[A-Z]{2})\b", text)
    kinds = [SYMBOL_KIND[s] for s in re.findall("[" + "".join(SYMBOL_KIND) + "]", text)]
    return list(zip(found, kinds + [None] * (len(found) - len(kinds))))


def expected_cells(game, side: str | None) -> list[tuple[str, str | None]]:
    """The board's words with a side's letters, as that side's player sees the board."""
    words = [[w.upper() for w in game.items[r * 5:(r + 1) * 5]] for r in range(5)]
    if side is None:
        return [(w, None) for row in words for w in row]
    grid = game.key.side_a if side == "A" else game.key.side_b
    rows = [list(zip(w_row, g_row)) for w_row, g_row in zip(words, grid)]
    return [cell for row in (half_turn(rows) if side == "B" else rows) for cell in row]


@pytest.mark.parametrize("fmt", ["markdown", "bbcode", "html", "text"])
def test_duet_text_boards_one_per_player(fmt):
    """The public board, a board per player with that side as the player sees the table, and the
    host's: the players' files carry the commitment and nothing that reveals the other side (not
    the key, which holds both sides, nor the salt); the host's carries the key and salt."""
    games = dealt(2)
    files = forum_boards.write_all(games, editions.DUET, texts.load("en"), fmt, COLOURS, language="en")
    ext = forum_boards.WRITERS[fmt][1]
    assert list(files) == [f"{name}.{ext}" for name in ("public", "player-a", "player-b", "host")]
    public, player_a, player_b, host = files.values()
    assert cells_of(public) == [c for g in games for c in expected_cells(g, None)]
    assert cells_of(player_a) == [c for g in games for c in expected_cells(g, "A")]
    assert cells_of(player_b) == [c for g in games for c in expected_cells(g, "B")]
    assert cells_of(host) == cells_of(public)
    assert "Side A" in player_a and "Side B" not in player_a and "Side B" in player_b and "Side A" not in player_b
    for name in ("Agent", "Bystander", "Assassin"):          # not by colour alone
        assert name in player_a and name in player_b
    for g in games:
        for text in files.values():
            assert g.code in text and g.commitment in text
        for text in (public, player_a, player_b):
            assert g.payload not in text and g.salt not in text and "KG1:" not in text
        assert g.payload in host and g.salt in host


def test_duet_text_files_from_the_cli_and_their_commitments_verify(tmp_path):
    result = kitgen("game", "--edition", "duet", "--format", "text", "--count", "2", "--seed", SEED, "--out", "o",
                    cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    folder = next((tmp_path / "o").glob("games-*"))
    assert sorted(p.name for p in folder.iterdir()) == ["host.txt", "player-a.txt", "player-b.txt", "public.txt"]
    host = (folder / "host.txt").read_text()
    payloads = re.findall(r"KG1:\S+", host)
    salts = re.findall(r"Salt, to post after the game: ([0-9a-f]{32})", host)
    commitments = re.findall(r"Commitment .*: ([0-9a-f]{64})", (folder / "player-b.txt").read_text())
    assert len(payloads) == len(salts) == len(commitments) == 2
    code = re.search(r"G-([A-Z2-7]{6})", payloads[0])[1]
    ok = kitgen("verify", payloads[0], "--commitment", commitments[0], "--salt", salts[0],
                "--seed", single_games.game_seed(SEED, code), cwd=tmp_path)
    assert ok.returncode == 0 and "the key committed to before the game" in ok.stdout, ok.stdout + ok.stderr
    for payload, salt in ((payloads[1], salts[0]), (payloads[0], salts[1])):
        bad = kitgen("verify", payload, "--commitment", commitments[0], "--salt", salt, cwd=tmp_path)
        assert bad.returncode == 3 and "not what the commitment bound the host to" in bad.stdout


def test_duet_ink_saver_key_pages_read_in_greyscale(tmp_path):
    """Printed in black and white, an ink-saver duet key page still reads (with its layout)."""
    from kitgen.games.codenames.model import layout_overlays

    result = kitgen("game", "--edition", "duet", "--ink", "saver", "--seed", SEED, "--out", "o", cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    pdf = next((tmp_path / "o").glob("games-*/games.pdf"))
    layout = layout_mod.load("duet", layout_overlays("saver", "rgb", True))
    for page, side in ((1, "side A"), (2, "side B")):
        grey = render_page(str(pdf), page, 150).convert("L").convert("RGB")
        results = verify.check_image(grey, "grey", None, layout)
        assert len(results) == 1 and results[0].ok, results[0].problems
        assert results[0].remarks == [f"{side}, as its player sees it"]


@pytest.mark.parametrize("edition", ["words", "duet"])
def test_the_hosts_own_seed_verifies_every_games_key_page(tmp_path, edition):
    done = subprocess.run([sys.executable, "-m", "kitgen", "game", "--edition", edition, "--count", "2", "--seed",
                           "host secret", "--out", "g"], cwd=tmp_path, capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    pdf = next((tmp_path / "g").rglob("games.pdf"))
    pages = 4 if edition == "duet" else 2
    for seed, code, passed in (("host secret", 0, pages), ("another host", 3, 0)):
        checked = subprocess.run([sys.executable, "-m", "kitgen", "verify", str(pdf), "--seed", seed],
                                 capture_output=True, text=True)
        assert checked.returncode == code
        assert checked.stdout.splitlines()[-1] == (f"{pages} key card(s) checked: {passed} passed, "
                                                   f"{pages - passed} failed")
