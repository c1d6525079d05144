"""The deduction game (docs/design.md §10): the classic city and its counts, themes and
their refusals, the seeded setup, case slips that verify, --at answers checked by brute
force, and a board that joins exactly across its pieces."""

import itertools
import json
import re
import shutil
import subprocess
import sys
from collections import Counter

import pytest
import yaml
from PIL import ImageChops

from kitgen.errors import KitgenError
from kitgen.games.deduction import answers, build, case_payload, city, dealing, facts, texts, theme as theme_mod, verify
from kitgen.games.deduction.render import board, cards, pages, slips
from kitgen.names import identity

from raster import render_page

pdftotext = shutil.which("pdftotext")


def kitgen(*args, cwd):
    return subprocess.run([sys.executable, "-m", "kitgen", *args], cwd=cwd, capture_output=True, text=True)


def extract(path) -> str:
    return subprocess.run([pdftotext, str(path), "-"], capture_output=True, text=True, check=True).stdout


@pytest.fixture(scope="module")
def classic():
    return theme_mod.load(theme_mod.resolve(None, "en"))


@pytest.fixture(scope="module")
def built(tmp_path_factory):
    """The built-in English and Russian kits, through the command line."""
    out = tmp_path_factory.mktemp("deduction")
    for args in (["--game", "deduction"], ["--game", "deduction", "--lang", "ru", "--players", "5"]):
        result = kitgen("build", *args, "--out", str(out), cwd=out)
        assert result.returncode == 0, result.stderr
    return out


# --- the classic city and its counts -----------------------------------------------

@pytest.mark.parametrize("lang", ["en", "ru"])
def test_the_classic_city_has_the_games_numbers(lang):
    theme = theme_mod.load(theme_mod.resolve(None, lang))
    assert theme.counts == facts.Counts(**facts.CLASSIC)
    counts = theme.counts
    assert (counts.suspect_tiles, counts.no_suspect_tiles, counts.crime_tiles, counts.no_crime_tiles) == (12, 2, 10, 4)
    assert counts.evidence_cards == 36 and counts.case_cards == 36
    map_ = theme.city
    assert city.is_connected(14, map_.roads) and city.is_planar(14, map_.roads)
    assert all(facts.MIN_DEGREE <= map_.degree(i) <= facts.MAX_DEGREE for i in range(14))
    assert not city.crossings(map_.positions, map_.roads)


def test_russian_and_english_cities_share_their_map(classic):
    ru = theme_mod.load(theme_mod.resolve(None, "ru"))
    assert ru.city.positions == classic.city.positions and ru.city.roads == classic.city.roads
    assert ru.language == "ru" and set(ru.names("suspects")).isdisjoint(classic.names("suspects"))


def test_components_hold_the_games_counts(classic):
    from kitgen import fonts, layouts

    layout = layouts.load()
    names = fonts.register_roles(layout)
    labels = texts.load("en").labels
    faces = cards.deck_faces(classic)
    assert Counter(f.kind for f in faces) == {"suspects": 12, "crimes": 10, "locations": 14}
    tiles = cards.tile_faces(classic)
    assert Counter((f.kind, f.name is None) for f in tiles) == {("suspects", False): 12, ("suspects", True): 2,
                                                                ("crimes", False): 10, ("crimes", True): 4}
    assert cards.case_cards(faces, layout, names, labels, "t").count == 36
    assert cards.case_cards(faces, layout, names, labels, "t", evidence=True).count == 36
    tokens = Counter(item[0] for item in pages.token_items(layout.tokens, 5))
    assert tokens == {"investigator": 25, "disc": 15, "cube": 50, "score": 15, "penalty": 5, "black": 3, "first": 1}
    assert facts.tokens(5) == {"investigator": 25, "disc": 15, "cube": 50, "score_marker": 15, "penalty_marker": 5,
                               "black_disc": 3, "first_player": 1}


@pytest.mark.skipif(pdftotext is None, reason="pdftotext (poppler-utils) is not installed")
@pytest.mark.parametrize("lang", ["en", "ru"])
def test_every_name_is_printed_where_it_belongs(built, lang):
    theme = theme_mod.load(theme_mod.resolve(None, lang))
    labels = texts.load(lang).labels
    folder = built / f"deduction-{lang}"
    flat = lambda path: " ".join(extract(folder / path).split())  # noqa: E731
    deck, tiles, board_text, setup = flat("cards.pdf"), flat("tiles.pdf"), flat("board.pdf"), flat("setup.pdf")
    for kind in ("suspects", "crimes", "locations"):
        for name in theme.names(kind):
            assert deck.count(name) >= 2, (name, "a case card and an evidence card")
    for name in theme.names("suspects") + theme.names("crimes"):
        assert name in tiles and name in setup
    for name in theme.names("locations"):
        assert name in board_text and name in setup
    assert tiles.count(labels.no_suspect) == 2 and tiles.count(labels.no_crime) == 4
    assert flat("rules.pdf").count(texts.load(lang).rules.title) >= 1


def test_manifest_records_every_file_and_slip(built):
    import hashlib

    folder = built / "deduction-ru"
    manifest = json.loads((folder / "manifest.json").read_text("utf-8"))
    assert {f["path"] for f in manifest["files"]} == {"board.pdf", "cards.pdf", "tiles.pdf", "tokens.pdf", "aids.pdf",
                                                      "notepad.pdf", "rules.pdf", "setup.pdf", "kit.pdf"}
    for entry in manifest["files"]:
        assert entry["sha256"] == hashlib.sha256((folder / entry["path"]).read_bytes()).hexdigest()
    assert len(manifest["slips"]) == facts.MINI_GAMES * 5 and manifest["players"] == 5
    assert len({s["payload"] for s in manifest["slips"]}) == 15


# --- the seeded setup ---------------------------------------------------------------

@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_every_setup_lays_every_tile_once_and_deals_distinct_cases(classic, players):
    games = dealing.deal(classic.seed, classic.counts, players)
    assert len(games) == facts.MINI_GAMES
    for game in games:
        assert Counter(game.suspect_tiles) == {**{s: 1 for s in range(12)}, dealing.BLANK: 2}
        assert Counter(game.crime_tiles) == {**{c: 1 for c in range(10)}, dealing.BLANK: 4}
        for part in ("suspect", "crime", "location"):
            held = [getattr(case, part) for case in game.cases]
            assert len(set(held)) == players, "no two players share a card"
        assert [(c.holder, c.solver) for c in game.cases] == [(p, p % players + 1) for p in range(1, players + 1)]
    assert dealing.deal(classic.seed, classic.counts, players) == games
    assert dealing.deal(classic.seed + "!", classic.counts, players) != games


def test_golden_slip_payload():
    """Pins setup algorithm v1 and slip payload v1 (docs/design.md §10.3, §10.5)."""
    counts = facts.Counts(12, 10, 14)
    game = dealing.deal("kitgen deduction-en 2026", counts, 4)[0]
    text = case_payload.encode("deduction-en", 1, 4, game.cases[0], counts, dealing.secret("kitgen deduction-en 2026"))
    assert text == "KD1:DEDUCTION-EN:1/3:1/4:2.3.11/12.10.14:ID7H6R"
    assert re.fullmatch(r"[0-9A-Z $%*+\-./:]+", text)           # the QR alphanumeric set


@pytest.mark.parametrize("text", [
    "KD1:DEDUCTION-EN:4/3:1/4:2.3.11/12.10.14:ID7H6R",       # mini-game 4 of 3
    "KD1:DEDUCTION-EN:1/3:5/4:2.3.11/12.10.14:ID7H6R",       # player 5 of 4
    "KD1:DEDUCTION-EN:1/3:1/6:2.3.11/12.10.14:ID7H6R",       # 6 players
    "KD1:DEDUCTION-EN:1/3:1/4:13.3.11/12.10.14:ID7H6R",      # suspect 13 of 12
    "KD1:DEDUCTION-EN:1/3:1/4:2.3.11/12.10.14:ID7H6",        # short check code
    "KD1:deduction-en:1/3:1/4:2.3.11/12.10.14:ID7H6R",       # lower case
    "KD1:DEDUCTION-EN:1/3:1/4:2.3.11/15.10.14:ID7H6R",       # more suspects than locations
])
def test_malformed_slip_payloads_are_refused_in_one_line(text):
    with pytest.raises(KitgenError) as info:
        case_payload.decode(text)
    assert "\n" not in str(info.value)


# --- answers: --at against a brute force -------------------------------------------------

def brute_force(theme_file, game, case, location: str) -> tuple[int, int]:
    """Discs and cubes worked out from the theme file's own names and roads, independently of kitgen's map."""
    data = yaml.safe_load(theme_file.read_text("utf-8"))
    names = [loc["name"] for loc in data["locations"]]
    suspects, crimes = ([e["name"] if isinstance(e, dict) else e for e in data[kind]]   # a name, or {name, picture}
                        for kind in ("suspects", "crimes"))
    near = {n: set() for n in names}
    for a, b in data["roads"]:
        near[a].add(b)
        near[b].add(a)
    wanted = {("s", suspects[case.suspect]), ("c", crimes[case.crime]), ("l", names[case.location])}

    def there(name):
        i = names.index(name)
        found = {("l", name)}
        if game.suspect_tiles[i] != dealing.BLANK:
            found.add(("s", suspects[game.suspect_tiles[i]]))
        if game.crime_tiles[i] != dealing.BLANK:
            found.add(("c", crimes[game.crime_tiles[i]]))
        return found & wanted

    return len(there(location)), sum(len(there(n)) for n in near[location])


def test_answers_at_every_location_match_a_brute_force(classic):
    path = theme_mod.resolve(None, "en")
    for players in (2, 5):
        for game in dealing.deal(classic.seed, classic.counts, players):
            for case in game.cases:
                for i, name in enumerate(classic.city.names):
                    assert answers.at(classic.city, game, case, i).counts == brute_force(path, game, case, name)


def test_verify_at_answers_for_every_location(built, classic):
    manifest = json.loads((built / "deduction-en" / "manifest.json").read_text("utf-8"))
    slip = manifest["slips"][5]
    parsed = case_payload.decode(slip["payload"])
    game = dealing.deal(classic.seed, classic.counts, 4)[parsed.game - 1]
    names = verify.load_manifest(str(built / "deduction-en" / "manifest.json"))
    for name in classic.city.names:
        result = verify.check(slip["payload"], classic.seed, names, name, True)
        discs, cubes = brute_force(theme_mod.resolve(None, "en"), game, parsed.case, name)
        assert result.ok and f"on {name} gets {discs} disc(s) and {cubes} cube(s)" in result.notes[-1]
    out = kitgen("verify", slip["payload"], "--kit", str(built / "deduction-en" / "manifest.json"), "--at",
                 classic.city.names[3], cwd=built)
    assert out.returncode == 0 and "disc(s)" in out.stdout, out.stderr


# --- slips verify; edited and repainted ones fail ----------------------------------------

def test_slips_of_a_built_kit_verify_from_its_pdf(built):
    folder = built / "deduction-en"
    out = kitgen("verify", str(folder / "setup.pdf"), "--kit", str(folder / "manifest.json"), cwd=built)
    assert out.returncode == 0, out.stdout + out.stderr
    assert out.stdout.strip().endswith("12 case slip(s) checked: 12 passed, 0 failed")
    wrong = kitgen("verify", str(folder / "setup.pdf"), "--seed", "not the seed", cwd=built)
    assert wrong.returncode == 3 and "0 passed, 12 failed" in wrong.stdout
    whole = kitgen("verify", str(folder), cwd=built)          # the kit's folder: its setup.pdf, with its manifest
    assert whole.returncode == 0 and whole.stdout == out.stdout, whole.stdout + whole.stderr
    seeded = kitgen("verify", str(folder), "--seed", "not the seed", cwd=built)
    assert seeded.returncode == 3 and "0 passed, 12 failed" in seeded.stdout


def test_an_edited_slip_payload_fails(built, classic):
    payload = json.loads((built / "deduction-en" / "manifest.json").read_text("utf-8"))["slips"][0]["payload"]
    head, check = payload.rsplit(":", 1)
    fields = head.split(":")
    s, c, loc = fields[4].split("/")[0].split(".")
    fields[4] = f"{int(s) % 12 + 1}.{c}.{loc}/" + fields[4].split("/")[1]
    edited = ":".join(fields) + ":" + check
    out = kitgen("verify", edited, "--seed", classic.seed, cwd=built)
    assert out.returncode == 3 and "check code" in out.stdout


def _slip_pdf(path, classic, case, payload, repaint=None):
    """A page with one slip on it, as kitgen prints it; ``repaint``: names painted over it."""
    from kitgen import fonts, layouts
    from kitgen.render import paint, text
    from kitgen.render.pdf import new_canvas

    layout = layouts.load()
    names = fonts.register_roles(layout)
    cards_ = slips.slips([(1, case, payload)], classic, layout, names, texts.load("en").labels, "t")
    page = layouts.page_size(layout, "a4")
    with open(path, "wb") as out:
        c = new_canvas(out, page, names)
        c.translate(60, 300)
        cards_.front(c, 0)
        if repaint:
            spec = layout.slip
            third = slips.geometry(spec)[2]
            paint.fill_box(c, (spec.margin, 2 * third - 30 * 72 / 25.4, 55 * 72 / 25.4, 22 * 72 / 25.4),
                           paint.colour(layout, "paper"))
            for k, name in enumerate(repaint):
                text.draw_line(c, name, names["heading"], 11, spec.margin + 15, 2 * third - 13 * 72 / 25.4 - 15 * k)
        c.showPage()
        c.save()


def test_a_repainted_slip_fails(tmp_path, classic):
    """Names painted over and printed anew: the text layer still holds the old ones (under the
    paint), the pixels do not."""
    game = dealing.deal(classic.seed, classic.counts, 4)[0]
    secret = dealing.secret(classic.seed)
    payload = case_payload.encode(classic.id, 1, 4, game.cases[0], classic.counts, secret)
    _slip_pdf(tmp_path / "honest.pdf", classic, game.cases[0], payload)
    assert all(r.ok for r in verify.verify(str(tmp_path / "honest.pdf"), classic.seed))
    other = game.cases[1]
    _slip_pdf(tmp_path / "repainted.pdf", classic, game.cases[0], payload,
              repaint=(classic.suspects[other.suspect].name, classic.crimes[other.crime].name,
                       classic.locations[other.location].name))
    results = verify.verify(str(tmp_path / "repainted.pdf"), classic.seed)
    assert len(results) == 1 and not results[0].ok
    assert "painted over" in results[0].problems[0]


def test_a_slip_printed_with_another_case_fails(tmp_path, classic):
    """The QR of one case on a slip that prints another."""
    game = dealing.deal(classic.seed, classic.counts, 4)[0]
    payload = case_payload.encode(classic.id, 1, 4, game.cases[0], classic.counts, dealing.secret(classic.seed))
    _slip_pdf(tmp_path / "other.pdf", classic, game.cases[1], payload)
    results = verify.verify(str(tmp_path / "other.pdf"), classic.seed)
    assert len(results) == 1 and not results[0].ok and "another case" in results[0].problems[0]


# --- the board ----------------------------------------------------------------------------

@pytest.mark.parametrize("paper", ["a4", "letter"])
def test_the_board_joins_exactly_across_its_pieces(tmp_path, paper):
    """Neighbouring pieces show the same drawing in their overlap, pixel for pixel. At 254 dpi
    (10 pixels a millimetre) A4 and Letter are whole pixels and pieces lie whole pixels apart."""
    kit = build.load(paper=paper)
    files, _ = build.build_files(kit)
    data = next(f for f in files if f.name == "board.pdf").data
    from kitgen import layouts

    layout = layouts.load()
    pieces = board.pieces(layout, layouts.page_size(layout, paper), layout.board.tiling.label.size * 3)
    assert len(pieces) == 2
    dpi, scale = 254, 254 / 72
    overlap = layout.board.tiling.overlap
    compared = 0
    for a, b in itertools.combinations(pieces, 2):
        if a.row != b.row or abs(a.col - b.col) != 1:
            continue
        left, right = (a, b) if a.col < b.col else (b, a)
        x0 = right.board[0]                                # the overlap, in board points: [x0, x0 + overlap]
        y_low, y_high = max(left.board[1], 0), min(left.board[1] + left.board[3], layout.board.size[1])

        def crop(piece, x0=x0, y_low=y_low, y_high=y_high):
            image = render_page(data, piece.number - 1, dpi)
            ax, ay = piece.at
            height = piece.page[1]
            return image.crop((round((ax + x0) * scale) + 2, round((height - ay - y_high) * scale) + 2,
                               round((ax + x0 + overlap) * scale) - 2, round((height - ay - y_low) * scale) - 2))

        one, two = crop(left), crop(right)
        assert one.size == two.size and one.width > 100
        # the same drawing: pdfium's anti-aliasing may differ by one level where it rounds a float
        # differently; a piece off by even a tenth of a millimetre differs by dozens of levels
        difference = ImageChops.difference(one, two).convert("L").histogram()
        assert max(level for level, n in enumerate(difference) if n) <= 2
        assert sum(difference[1:]) < 0.01 * one.width * one.height
        assert len(one.getcolors(1 << 20)) > 3             # there is a drawing there, not blank paper
        compared += 1
    assert compared == 1


def test_the_board_is_one_page_on_a3(tmp_path):
    files, _ = build.build_files(build.load(board_paper="a3"))
    assert next(f for f in files if f.name == "board.pdf").pages == 1


def test_kits_are_the_same_bytes_every_time(built, tmp_path):
    """Built again in another process (and another hash seed), every file is the same."""
    import os

    env = dict(os.environ, PYTHONHASHSEED="123")
    again = subprocess.run([sys.executable, "-m", "kitgen", "build", "--game", "deduction", "--out", str(tmp_path)],
                           capture_output=True, text=True, env=env)
    assert again.returncode == 0, again.stderr
    for path in (built / "deduction-en").iterdir():
        assert (tmp_path / "deduction-en" / path.name).read_bytes() == path.read_bytes(), path.name


# --- themes -------------------------------------------------------------------------------

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


def test_a_teachers_theme_builds(tmp_path):
    (tmp_path / "forum.yaml").write_text(THEME)
    out = kitgen("build", "forum.yaml", "--players", "3", "--out", "o", cwd=tmp_path)
    assert out.returncode == 0, out.stderr
    manifest = json.loads((tmp_path / "o" / "forum" / "manifest.json").read_text("utf-8"))
    assert manifest["name"] == "The Forum Mystery" and len(manifest["slips"]) == 9
    theme = theme_mod.load(tmp_path / "forum.yaml")
    assert theme.counts.no_suspect_tiles == 1 and theme.counts.no_crime_tiles == 2
    assert not city.crossings(theme.city.positions, theme.city.roads)
    assert theme.city.positions[0] == (0.3, 0.2)          # a position given is kept
    verified = kitgen("verify", str(tmp_path / "o" / "forum" / "setup.pdf"), "--kit",
                      str(tmp_path / "o" / "forum" / "manifest.json"), cwd=tmp_path)
    assert verified.returncode == 0, verified.stdout


BAD = [
    ("roads: [[Senate, Forum], [Forum, Atlantis]]", "goes to 'Atlantis', which is not one of the locations"),
    ("roads: [[Senate, Forum], [Temple, Baths], [Market, Harbour]]", "separate parts"),
    ("suspects: [A, B, C, D, E, F, G]", "has 7 suspects but 6 locations"),
    ("crimes: [Forgery, Forgery]", "'Forgery' is named twice"),
    ("crimes: [Brutus, Theft]", "'Brutus' is named twice"),
    ("crimes: [Theft]", "has 1 crimes; a theme needs at least 2"),
    ("suspects: [{name: Brutus, picture: brutus.png}, Cassius]", "is not a readable PNG or JPEG image"),
]


@pytest.mark.parametrize("change, message", BAD)
def test_bad_themes_are_refused_in_one_line(tmp_path, change, message):
    key = change.split(":")[0]
    lines = [line for line in THEME.splitlines() if not line.startswith(key)]
    if key == "roads":
        lines = [line for line in lines if not line.startswith("        [")]
    (tmp_path / "brutus.png").write_bytes(b"not a picture")
    (tmp_path / "t.yaml").write_text("\n".join(lines) + "\n" + change + "\n")
    out = kitgen("build", "t.yaml", "--out", "o", cwd=tmp_path)
    assert out.returncode == 2, out.stdout + out.stderr
    assert len(out.stderr.strip().splitlines()) == 1 and message in out.stderr, out.stderr
    assert "t.yaml" in out.stderr or "brutus.png" in out.stderr
    assert not (tmp_path / "o").exists()


def test_a_map_that_cannot_be_drawn_without_crossings_is_refused(tmp_path):
    five = ", ".join(f"{{name: P{i}}}" for i in range(5))
    roads = ", ".join(f"[P{a}, P{b}]" for a, b in itertools.combinations(range(5), 2))     # K5 is not planar
    (tmp_path / "k5.yaml").write_text(f"game: deduction\nsuspects: [A, B]\ncrimes: [C, D]\nlocations: [{five}]\n"
                                      f"roads: [{roads}]\n")
    with pytest.raises(KitgenError, match="cannot be drawn without crossing"):
        theme_mod.load(tmp_path / "k5.yaml")


def test_roads_that_cross_at_the_positions_given_are_refused(tmp_path):
    (tmp_path / "x.yaml").write_text("""game: deduction
suspects: [A, B]
crimes: [C, D]
locations: [{name: N, at: [0.5, 0.1]}, {name: S, at: [0.5, 0.9]}, {name: W, at: [0.1, 0.5]}, {name: E, at: [0.9, 0.5]}]
roads: [[N, S], [W, E], [N, W]]
""")
    with pytest.raises(KitgenError, match=r"x\.yaml:4: at the positions given, the roads N - S and W - E cross"):
        theme_mod.load(tmp_path / "x.yaml")


def test_locations_without_positions_are_placed_without_crossings(tmp_path):
    locations = ", ".join(f"{{name: L{i}}}" for i in range(12))
    ring = [(i, (i + 1) % 12) for i in range(12)] + [(0, 6), (2, 9), (3, 5)]
    roads = ", ".join(f"[L{a}, L{b}]" for a, b in ring)
    (tmp_path / "ring.yaml").write_text(f"game: deduction\nsuspects: [A, B]\ncrimes: [C, D]\nlocations: [{locations}]\n"
                                        f"roads: [{roads}]\n")
    theme = theme_mod.load(tmp_path / "ring.yaml")
    assert not city.crossings(theme.city.positions, theme.city.roads)
    assert all(0 <= v <= 1 for p in theme.city.positions for v in p)


def test_options_of_the_other_game_are_refused(tmp_path):
    out = kitgen("build", "--game", "deduction", "--keys", "12", "--out", "o", cwd=tmp_path)
    assert out.returncode == 2 and "--keys is a Codenames option" in out.stderr
    out = kitgen("build", "--game", "deduction", "--verify-url", "https://example.org/v.html", "--out", "o",
                 cwd=tmp_path)
    assert out.returncode == 2 and "--verify-url is a Codenames option" in out.stderr
    out = kitgen("build", "--players", "3", "--out", "o", cwd=tmp_path)
    assert out.returncode == 2 and "--players is an option of the deduction game" in out.stderr
    out = kitgen("build", "--game", "deduction", "--players", "6", "--out", "o", cwd=tmp_path)
    assert out.returncode == 2 and "2 to 5 players" in out.stderr


def test_names_are_compared_as_people_type_them():
    assert identity("Old  Library") == identity("old library")


@pytest.mark.parametrize("kit, players", [("deduction-en", 4), ("deduction-ru", 5)])
def test_token_sheets_hold_every_token_of_the_kits_players_and_no_other_colour(built, kit, players):
    """Counted in the PDF: each of the kit's players' colours fills 5 standees (two halves each),
    3 discs, 10 cubes, 3 score markers and a penalty marker, and no other player colour is printed;
    the solving colour 3 discs and the first-player marker."""
    from kitgen import layouts
    from kitgen.render import paint

    from pdfread import Pdf, interpret

    layout = layouts.load()
    pdf = Pdf((built / kit / "tokens.pdf").read_bytes())
    fills = Counter()
    for page in pdf.pages():
        for filled in interpret(pdf, page)[1]:
            if filled.fill[0] == "DeviceRGB":
                shape = "round" if filled.segments else "square"       # circles are curves, the rest rectangles
                fills[tuple(round(v, 3) for v in filled.fill[1]), shape] += 1

    def rgb(name):
        return tuple(round(v, 3) for v in paint.colour(layout, name).rgb())

    round_ones = facts.DISCS + facts.SCORE_MARKERS + facts.PENALTY_MARKERS
    square_ones = 2 * facts.INVESTIGATORS + facts.CUBES                 # a standee is two halves
    for player in range(1, facts.MAX_PLAYERS + 1):
        expected = (round_ones, square_ones) if player <= players else (0, 0)
        assert (fills[rgb(f"player_{player}"), "round"], fills[rgb(f"player_{player}"), "square"]) == expected, player
    assert fills[rgb("solving"), "round"] == facts.SOLVING_DISCS + facts.FIRST_PLAYER_MARKERS


@pytest.mark.skipif(pdftotext is None, reason="pdftotext (poppler-utils) is not installed")
@pytest.mark.parametrize("kit", ["deduction-en", "deduction-ru"])
def test_the_board_prints_both_tracks_sized_to_their_numbers(built, kit):
    """The score track runs from 0 to the most a game scores (three mini-games at 7), a running total;
    the penalty track has a space for each wrong attempt (-2 each), to -20, and nothing else."""
    assert facts.SCORE_TRACK == facts.MINI_GAMES * max(facts.SCORES) == 21
    tokens = extract(built / kit / "board.pdf").split()
    numbers = [t for t in tokens if re.fullmatch(r"\u2212?\d+", t)]
    score = [str(n) for n in range(facts.SCORE_TRACK + 1)]
    penalty = ["0"] + [f"\u2212{n}" for n in range(facts.WRONG_ATTEMPT, facts.PENALTY_TRACK + 1, facts.WRONG_ATTEMPT)]
    assert penalty[-1] == "\u221220" and len(penalty) == 11
    assert set(numbers) == set(score) | set(penalty)          # each number on the board, and no other


def test_slips_verify_from_a_photo_of_the_sheet(built, tmp_path, classic):
    manifest = json.loads((built / "deduction-en" / "manifest.json").read_text("utf-8"))
    first = manifest["slips"][0]["page"]
    render_page(built / "deduction-en" / "setup.pdf", first - 1, 200).rotate(90, expand=True).save(
        tmp_path / "slips.png")
    out = kitgen("verify", str(tmp_path / "slips.png"), "--seed", classic.seed, cwd=tmp_path)
    assert out.returncode == 0 and "4 case slip(s) checked: 4 passed" in out.stdout, out.stdout + out.stderr


def test_a_cmyk_deduction_kit_holds_no_rgb(tmp_path):
    from test_print import content_streams

    files, _ = build.build_files(build.load(colour="cmyk"))
    for f in files:
        for stream in content_streams(f.data):
            assert not re.search(rb"(^|\s)(rg|RG)(\s|$)", stream), f.name


def test_each_deck_has_one_back_of_its_own(classic):
    """Cards and tiles shuffle face down: within a deck every back is the same picture, and
    the decks' backs differ."""
    from kitgen.render import percard

    p = build.prepare(build.load())
    backs = {}
    for name in ("cases", "evidence", "tiles"):
        cards_ = p.card_sets[name]
        data = percard.render(cards_, p.layout, p.fonts, "t")
        faces = cards.deck_faces(classic) if name != "tiles" else cards.tile_faces(classic)
        for i, face in enumerate(faces):
            deck = (name, face.kind) if name != "evidence" else (name,)
            backs.setdefault(deck, set()).add(render_page(data, 2 * i + 1, 20).tobytes())
    assert all(len(images) == 1 for images in backs.values()), {k: len(v) for k, v in backs.items()}
    assert len({next(iter(images)) for images in backs.values()}) == len(backs) == 6


def test_codenames_commands_refuse_a_deduction_theme_in_one_line(tmp_path):
    (tmp_path / "forum.yaml").write_text(THEME)          # kitgen proof proofs it (tests/test_deduction_proof.py)
    out = kitgen("proof", "forum.yaml", "--game", "codenames", "--out", "o", cwd=tmp_path)
    assert out.returncode == 2 and out.stderr.strip().splitlines() == [
        "kitgen: error: forum.yaml: is a deduction theme (game: deduction), not a Codenames kit"]


@pytest.mark.parametrize("text, message", [
    ("city_tile:\n  size: [30mm, 30mm]\n", "the tiles would not fit their slots"),
    ("board:\n  location: {size: [40mm, 32mm]}\n", "leaves no room for its name, two tile slots"),
])
def test_board_layouts_that_cannot_hold_their_tiles_are_refused(tmp_path, text, message):
    from kitgen.games.deduction import layout

    (tmp_path / "l.yaml").write_text("extends: default\n" + text)
    with pytest.raises(KitgenError, match=message):
        layout.load(tmp_path / "l.yaml")
    assert layout.load().board.location.slot >= max(layout.load().city_tile.size)


def test_more_players_than_cards_in_a_deck_are_refused(tmp_path):
    (tmp_path / "forum.yaml").write_text(THEME)
    out = kitgen("build", "forum.yaml", "--players", "5", "--out", "o", cwd=tmp_path)
    assert out.returncode == 2 and out.stderr.strip().splitlines() == [
        "kitgen: error: forum.yaml: the theme has 4 crimes, and every one of 5 players holds one: give --players 4 "
        "or fewer, or add crimes"]
    assert not (tmp_path / "o").exists()


PLACED = {"Senate": [0.1, 0.1], "Forum": [0.9, 0.1], "Temple": [0.9, 0.9], "Baths": [0.5, 0.9], "Market": [0.1, 0.9],
          "Harbour": [0.5, 0.5]}


@pytest.mark.parametrize("moved, message", [
    ({"Harbour": [0.12, 0.8]}, "'Market' and 'Harbour' overlap on the board"),
    ({"Harbour": [0.5, 0.1]}, "the road Senate - Forum runs under 'Harbour' on the board"),
])
def test_locations_that_overlap_or_sit_on_a_road_are_refused(tmp_path, moved, message):
    data = yaml.safe_load(THEME)
    data["locations"] = [{"name": name, "at": moved.get(name, at)} for name, at in PLACED.items()]
    (tmp_path / "t.yaml").write_text(yaml.safe_dump(data))
    out = kitgen("build", "t.yaml", "--players", "2", "--out", "o", cwd=tmp_path)
    assert out.returncode == 2 and message in out.stderr and "t.yaml" in out.stderr, out.stderr
    assert len(out.stderr.strip().splitlines()) == 1 and not (tmp_path / "o").exists()
    data["locations"] = [{"name": name, "at": at} for name, at in PLACED.items()]
    (tmp_path / "t.yaml").write_text(yaml.safe_dump(data))
    assert kitgen("build", "t.yaml", "--players", "2", "--out", "o", cwd=tmp_path).returncode == 0


def test_names_too_long_for_a_tile_are_refused(tmp_path):
    data = yaml.safe_load(THEME)
    data["suspects"][0] = "W" * 40
    (tmp_path / "t.yaml").write_text(yaml.safe_dump(data))
    out = kitgen("build", "t.yaml", "--players", "2", "--out", "o", cwd=tmp_path)
    assert out.returncode == 2 and "do not fit even at the layout's smallest size" in out.stderr
    assert "WWWW" in out.stderr and "(a tile, in 2 lines)" in out.stderr


def test_a_theme_without_positions_is_placed_and_builds(tmp_path, classic):
    data = yaml.safe_load(theme_mod.resolve(None, "en").read_text("utf-8"))
    for loc in data["locations"]:
        loc.pop("at")
    data["id"] = "placed"
    (tmp_path / "placed.yaml").write_text(yaml.safe_dump(data, allow_unicode=True))
    out = kitgen("build", "placed.yaml", "--out", "o", cwd=tmp_path)
    assert out.returncode == 0, out.stderr
    manifest = json.loads((tmp_path / "o" / "placed" / "manifest.json").read_text("utf-8"))
    positions = [tuple(loc["at"]) for loc in manifest["theme"]["locations"]]
    from kitgen import layouts

    box = board.position_box(layouts.load())
    assert not city.overlaps(positions, box) and not city.crossings(positions, classic.city.roads)
    assert not city.under_boxes(positions, classic.city.roads, box)


def test_slips_have_blank_backs_when_printed_double_sided(built):
    """Else the other side of a slip would show another player's case."""
    manifest = json.loads((built / "deduction-en" / "manifest.json").read_text("utf-8"))
    pages = sorted({s["page"] for s in manifest["slips"]})
    assert pages == list(range(pages[0], pages[0] + 2 * len(pages), 2))        # fronts, each with a back
    import pypdfium2 as pdfium
    import zxingcpp

    document = pdfium.PdfDocument(str(built / "deduction-en" / "setup.pdf"))
    try:
        for page in pages:                       # the back of page `page` is page + 1 (0-based: page)
            assert document[page].get_textpage().get_text_range().strip() == ""
            assert not zxingcpp.read_barcodes(render_page(built / "deduction-en" / "setup.pdf", page, 100))
    finally:
        document.close()


def test_print_shop_files_for_cards_and_tiles(tmp_path):
    out = kitgen("build", "--game", "deduction", "--per-card", "--png", "36", "--out", "o", cwd=tmp_path)
    assert out.returncode == 0, out.stderr
    folder = tmp_path / "o" / "deduction-en"
    import hashlib

    import pypdfium2 as pdfium

    assert len(pdfium.PdfDocument(str(folder / "cases-cards.pdf"))) == 72          # 36 cards, front and back
    assert len(pdfium.PdfDocument(str(folder / "tiles-cards.pdf"))) == 56          # 28 tiles
    manifest = json.loads((folder / "manifest.json").read_text("utf-8"))
    extra = {e["path"]: e["sha256"] for e in manifest["extra_files"]}
    assert {"cases-cards.pdf", "evidence-cards.pdf", "tiles-cards.pdf", "png/tiles/001-back-trim.png"} <= set(extra)
    assert all(hashlib.sha256((folder / path).read_bytes()).hexdigest() == digest for path, digest in extra.items())


@pytest.mark.parametrize("lang", ["en", "ru"])
def test_every_label_and_rule_has_its_glyphs(lang):
    """No text of the kit prints as nothing: every label, rule and mark in the fonts that draw it."""
    from kitgen import fonts, layouts
    from kitgen.render import text

    names = fonts.register_roles(layouts.load())
    messages = texts.load(lang)

    def strings(value):
        if isinstance(value, str):
            yield value
        elif isinstance(value, dict):
            for item in value.values():
                yield from strings(item)
        elif isinstance(value, (list, tuple)):
            for item in value:
                yield from strings(item)

    marks = "\u00ab\u00bb\u2212\u2022\u00b7"          # drawn by the code: glue note, penalties, bullets
    for font in set(names.values()):
        lacking = {ch for s in list(strings(messages)) + [marks] for ch in text.missing_glyphs(s, font)}
        assert not lacking, (font, lacking)
