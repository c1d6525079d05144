"""kitgen game: boards and keys for a lesson or an online host, text formats,
no leak of the key, --count dealing, ink saver, classroom decks, deck new."""

import re
import subprocess
import sys

import pypdfium2 as pdfium
import pytest
import yaml
import zxingcpp

from kitgen.games.codenames import decks, editions, forum_boards, single_games, texts, verify
from kitgen.games.codenames.build import load_layout

from raster import render_page

SYMBOL_KIND = {v: k for k, v in forum_boards.SYMBOLS.items()}
COLOURS = {"R": "#C62F2F", "B": "#2458B8", "N": "#D9C9A3", "A": "#222222"}
WORDS = [f"Word{chr(65 + i // 26)}{chr(97 + i % 26)}" for i in range(60)]


def kitgen(*args, cwd):
    return subprocess.run([sys.executable, "-m", "kitgen", *args], cwd=cwd, capture_output=True, text=True)


def dealt(count=2, seed="host secret", words=WORDS):
    return single_games.deal(seed, words, editions.WORDS, count)


def cells_of(text: str, fmt: str) -> list[tuple[str, str | None]]:
    """(word, kind) for each cell of each board in a text output, in order."""
    found = []
    for word in re.findall(r"\b(WORD[A-Z]{2})\b", text):
        found.append(word)
    kinds = [SYMBOL_KIND[s] for s in re.findall("[" + "".join(forum_boards.SYMBOLS.values()) + "]", text)]
    return list(zip(found, kinds + [None] * (len(found) - len(kinds))))


@pytest.mark.parametrize("fmt", ["markdown", "bbcode", "html", "text"])
def test_public_and_captain_boards_agree_with_the_key(fmt):
    games = dealt(2)
    messages = texts.load("en")
    files = forum_boards.write_all(games, editions.WORDS, messages, fmt, COLOURS, language="en")
    public = next(v for k, v in files.items() if k.startswith("public"))
    captain = next(v for k, v in files.items() if k.startswith("captain"))
    expected_words = [w.upper() for g in games for w in g.items]
    assert [w for w, _ in cells_of(public, fmt)] == expected_words
    captain_cells = cells_of(captain, fmt)
    assert [w for w, _ in captain_cells] == expected_words
    assert [k for _, k in captain_cells] == [k for g in games for k in "".join(g.key.grid)]
    # not by colour alone: every captain cell names its type too
    for name in ("Red", "Blue", "Bystander", "Assassin"):
        assert captain.count(name) >= 1
    for g in games:
        assert g.code in public and g.code in captain


@pytest.mark.parametrize("fmt", ["markdown", "bbcode", "html", "text"])
def test_the_public_board_leaks_nothing_of_the_key(fmt):
    games = dealt(3)
    messages = texts.load("en")
    files = forum_boards.write_all(games, editions.WORDS, messages, fmt, COLOURS, language="en")
    public = next(v for k, v in files.items() if k.startswith("public"))
    for symbol in forum_boards.SYMBOLS.values():
        assert symbol not in public
    for secret_text in ("Red", "Blue", "Bystander", "Assassin", "starts", "Spymasters only", "KG1:",
                        *COLOURS.values()):
        assert secret_text not in public
    for g in games:
        assert "".join(g.key.grid) not in public and g.payload not in public


def test_same_code_different_host_seeds_different_keys():
    keys_a = {single_games.game_key("host A", code, editions.WORDS).grid for code in ("ABCDEF", "QWERTY", "ZZZZZZ")}
    keys_b = {single_games.game_key("host B", code, editions.WORDS).grid for code in ("ABCDEF", "QWERTY", "ZZZZZZ")}
    assert not keys_a & keys_b
    assert single_games.game_key("host A", "ABCDEF", editions.WORDS) == \
        single_games.game_key("host A", "ABCDEF", editions.WORDS)
    # the code itself depends on the seed too
    assert single_games.game_code("host A", 1) != single_games.game_code("host B", 1)


def test_count_never_repeats_a_word_in_a_game_and_spreads_the_deck():
    games = dealt(2, words=WORDS[:50])
    assert all(len(set(g.items)) == 25 for g in games)
    assert not set(games[0].items) & set(games[1].items)          # 50 words: two disjoint games
    three = dealt(3, words=WORDS[:60])
    seen = [w for g in three[:2] for w in g.items]
    assert len(set(seen)) == 50
    small = dealt(4, words=WORDS[:30])                            # a small deck must repeat across games
    assert all(len(set(g.items)) == 25 for g in small)


def test_game_keys_verify_with_the_game_seed():
    g = dealt(1)[0]
    assert verify.check_payload(g.payload, verify.Secret(single_games.game_seed("host secret", g.code))) == []
    assert verify.check_payload(g.payload, verify.Secret(single_games.game_seed("other host", g.code))) != []


def test_pdf_boards_then_keys_each_labelled(tmp_path):
    result = kitgen("game", "--count", "3", "--seed", "lesson", "--out", "o", cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    pdf = next((tmp_path / "o").glob("games-*/games.pdf"))
    document = pdfium.PdfDocument(str(pdf))
    assert len(document) == 6
    texts = [page.get_textpage().get_text_range() for page in document]
    for i in range(3):
        assert f"Game {i + 1} of 3" in texts[i] and "Spymasters only" not in texts[i]
        assert f"Game {i + 1} of 3" in texts[3 + i] and "Spymasters only" in texts[3 + i]
    codes = [re.search(r"code ([A-Z2-7]{6})", texts[i])[1] for i in range(3)]
    for i, code in enumerate(codes):
        decoded = zxingcpp.read_barcodes(render_page(str(pdf), 3 + i, 100))
        assert len(decoded) == 1 and f"KG1:G-{code}:1/1:" in decoded[0].text
        assert verify.check_payload(decoded[0].text, verify.Secret(single_games.game_seed("lesson", code))) == []


def test_pictures_game_and_text_formats_from_the_cli(tmp_path):
    result = kitgen("game", "--edition", "pictures", "--seed", "s", "--out", "o", cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    result = kitgen("game", "--format", "bbcode", "--count", "2", "--out", "o", cwd=tmp_path)
    assert result.returncode == 0
    assert "built-in seed is public" in result.stderr
    folder = next((tmp_path / "o").glob("games-*/public.bbcode.txt")).parent
    assert (folder / "captain.bbcode.txt").read_text().count("[color=") > 25


def test_ink_saver_keys_read_in_greyscale(tmp_path):
    """Printed in black and white, an ink-saver key still tells the four types apart."""
    from kitgen.games.codenames import build, kitfile

    kit = kitfile.load(keys=12, ink="saver")
    folder, _, man = build.build(kit, tmp_path)
    grey = render_page(str(folder / "keys.pdf"), 0, 150).convert("L").convert("RGB")
    layout = load_layout(kit)
    results = verify.check_image(grey, "grey", verify.Secret(kit.seed), layout)
    assert len(results) == 12 and all(r.ok for r in results), [r.problems for r in results if not r.ok][:2]
    # no solid colour fields: every cell's ring is a light tint
    page = render_page(str(folder / "keys.pdf"), 0, 72).convert("L")
    for cell in man["keys"][0]["cells"]:
        x0, y0, x1, y1 = cell
        assert page.getpixel((int(x0 + (x1 - x0) * 0.15), int(page.height - (y0 + y1) / 2))) > 200
    assert man["options"]["ink"] == "saver"


def test_ink_saver_for_games(tmp_path):
    result = kitgen("game", "--ink", "saver", "--seed", "s", "--out", "o", cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    pdf = next((tmp_path / "o").glob("games-*/games.pdf"))
    key_page = render_page(str(pdf), 1, 40).convert("L")
    dark = sum(1 for v in key_page.tobytes() if v < 100) / (key_page.width * key_page.height)
    assert dark < 0.05            # outlines and symbols, not solid fields


@pytest.mark.parametrize("name", ["class-science", "class-geography", "class-efl"])
def test_classroom_decks(name):
    deck = decks.load(name)
    assert 30 <= len(deck.words) <= 60


def test_deck_new_writes_a_template_a_teacher_can_fill(tmp_path):
    result = kitgen("deck", "new", "Year 7 animals", cwd=tmp_path)
    assert result.returncode == 0
    path = tmp_path / "year-7-animals.yaml"
    data = yaml.safe_load(path.read_text())
    assert data["name"] == "Year 7 animals" and "kitgen deck check" in path.read_text()
    data["words"] = WORDS[:30]
    path.write_text(yaml.safe_dump(data))
    assert kitgen("deck", "check", str(path), cwd=tmp_path).returncode == 0
    again = kitgen("deck", "new", "Year 7 animals", cwd=tmp_path)
    assert again.returncode == 2 and "already exists" in again.stderr


def test_forum_games_commit_to_their_keys_and_reveal_them_afterwards(tmp_path):
    """docs/design.md §3.7: the public post carries a commitment; the captain's file the key and
    salt the host posts after the game; kitgen verify checks one against the other."""
    import hashlib

    from kitgen import commitment

    games = dealt(2)
    for g in games:
        assert g.commitment == hashlib.sha256(b"kitgen/commitment/v1\n" + g.payload.encode() + b"\n"
                                              + g.salt.encode()).hexdigest()
        assert commitment.SALT.fullmatch(g.salt) and commitment.DIGEST.fullmatch(g.commitment)
    assert len({g.salt for g in games}) == 2 and dealt(2) == games             # per game, and from the seed
    messages = texts.load("en")
    for fmt in ("markdown", "bbcode", "html", "text"):
        files = forum_boards.write_all(games, editions.WORDS, messages, fmt, COLOURS, language="en")
        public = next(v for k, v in files.items() if k.startswith("public"))
        captain = next(v for k, v in files.items() if k.startswith("captain"))
        for g in games:
            assert g.commitment in public and g.salt not in public and g.payload not in public
            assert g.commitment in captain and g.salt in captain and g.payload in captain
    g = games[0]
    ok = kitgen("verify", g.payload, "--commitment", g.commitment, "--salt", g.salt, cwd=tmp_path)
    assert ok.returncode == 0 and "the key committed to before the game" in ok.stdout, ok.stdout + ok.stderr
    other_key = games[1].payload
    for payload, salt in ((other_key, g.salt), (g.payload, games[1].salt)):
        bad = kitgen("verify", payload, "--commitment", g.commitment, "--salt", salt, cwd=tmp_path)
        assert bad.returncode == 3 and "not what the commitment bound the host to" in bad.stdout
    half = kitgen("verify", g.payload, "--commitment", g.commitment, cwd=tmp_path)
    assert half.returncode == 2 and "give both --commitment and --salt" in half.stderr


def test_commitment_golden_vector():
    """The exact bytes hashed (docs/design.md §3.7), pinned."""
    from kitgen import commitment

    assert commitment.commit("KG1:G-ABC:1/1:R:RRRRR/RRRRB/BBBBB/BBBNN/NNNNA:AAAAAA", "0" * 32) == \
        "571269948ad93ea0c022928acd62c52dfc0c4674e515451943bee6a6bb8eef7c"
