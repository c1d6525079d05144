"""Duet keys (docs/design.md §3.8) and their payload (§4.6): the overlap table on every key, no
key equivalent to another under the card's 8 symmetries, each side's assassin spread, golden keys,
and the D payload's round trip and refusals."""

import math
from collections import Counter

import pytest
from hypothesis import given, settings, strategies as st

from kitgen.errors import KitgenError
from kitgen.games.codenames import checks, duet_keys, key_deck, key_payload
from kitgen.games.codenames.duet_keys import DuetKey, generate
from kitgen.seeded import Stream

GOLDEN_DUET_40 = [
    "KG1:GOLDEN:1/40:D:NNNGG/NNGGA/ANNGG/GNGNN/NNGAN:GNAGN/GGANA/NGNNG/NNNNN/GNGGN:7XPNKC",
    "KG1:GOLDEN:2/40:D:GGANG/NNANG/NGNGA/NNGNN/NNGNG:GGGGN/NGNNN/NNNGA/NNAGG/NANGN:TY4A43",
    "KG1:GOLDEN:3/40:D:GGNNN/GNGNN/GNGNN/GGANN/NAAGN:AGNAN/NNNNG/GNNNG/NGGGG/NNANG:KRYTBH",
    "KG1:GOLDEN:4/40:D:AGGAN/GNGNN/GNGNN/GNNAG/NNNNG:NNGGN/GGGAN/NNNGN/AGGAN/GNNNN:UYL3NO",
    "KG1:GOLDEN:5/40:D:NNGGG/NGNAG/GNNAN/AGNNN/NNGNG:NANNN/GNNNG/GNGAG/GNNGG/NNGNA:RBUTNB",
    "KG1:GOLDEN:6/40:D:NANGA/NNNNG/GGGNN/NNGGG/NNNGA:GNNNA/NAGNN/GAGNN/NGNNN/GGNGG:LRQMG2",
    "KG1:GOLDEN:7/40:D:GNNNN/NAGNG/NANGN/GAGNG/GGNNN:GNNGG/NGNNN/GNANN/NAGNA/GNGGN:ZVHY2Y",
    "KG1:GOLDEN:8/40:D:NNNNG/GGGNN/NGANN/NGGNA/ANGNG:NGGNN/AGNNG/AGNGG/NNNNG/ANNNG:LK5HNW",
    "KG1:GOLDEN:9/40:D:GGGNN/ANNNN/ANNNN/GGGNN/GNGAG:GNANN/GGNNA/NGGNN/NNGNG/NGNAG:N6DVXX",
    "KG1:GOLDEN:10/40:D:GNAGG/GNAGA/NNNNG/NNNGN/NGNGN:NGGNN/NNANN/GGNGA/NNAGN/NGNGG:EP7MDN",
    "KG1:GOLDEN:11/40:D:NNNGN/GNNNG/GNGNA/GGANN/GAGNN:AGNNG/GNNGG/NGNNN/GNGNN/NAAGN:AOSWI5",
    "KG1:GOLDEN:12/40:D:AGNAN/GGNNN/NGNNN/NNGGN/GGAGN:NNGAN/NGGNN/GNNNG/AGGAN/NGGNN:6M7YZ6",
    "KG1:GOLDEN:13/40:D:GNNNN/GNNAG/GGGNN/AGNAG/NNNNG:NNGGG/GNNAN/NNGAN/GNGNG/NGNNA:OEELVH",
    "KG1:GOLDEN:14/40:D:GAGNG/GNGGN/NGNAN/NGNNN/NGNNA:NAGGA/NAGNN/NNGGN/GGGGN/NNNNN:SQ4W5L",
    "KG1:GOLDEN:15/40:D:NNNNA/NANGN/NANNG/GNGGG/GGNNG:NNNNN/GGGNG/GANGG/NAGNA/NNNNG:5UUO2I",
    "KG1:GOLDEN:16/40:D:GNNGN/GNGNN/NNANG/GAGGA/NNNGN:NGGGN/AGGNN/NNAGN/NNGNG/ANNNG:I2Q4ST",
    "KG1:GOLDEN:17/40:D:NGNGG/ANGGN/ANNNN/NGGNG/ANNGN:NGNNN/GNNNA/ANGNG/GGNNG/NGNAG:6EGJN2",
    "KG1:GOLDEN:18/40:D:NNAGG/NNNGA/GNNNG/GNGGN/GNNAN:GNAGN/NGAGG/NGNGA/GNNNN/NNNNG:5JNEXO",
    "KG1:GOLDEN:19/40:D:NNNNN/NGAGN/GNNGA/NGAGG/NNGNG:GGNGN/GNGNN/NGNGN/NNANG/NAANG:O4JSGT",
    "KG1:GOLDEN:20/40:D:ANGNN/NNNGG/GNGGN/NNNGG/NAANG:ANGAG/NNGNN/NGNGN/NGNAN/NGNGG:5E4XI4",
    "KG1:GOLDEN:21/40:D:NGNAN/GNNNG/GGGGG/ANNAG/NNNNN:NGGNN/NNGAG/NNGAN/AGNGN/NGNNG:XGSJPF",
    "KG1:GOLDEN:22/40:D:NGGNN/NNNAN/NNGAG/NNNGG/NGGGA:NANGA/NNNGN/GGGNN/NGNGG/GNNNA:ZCO4S4",
    "KG1:GOLDEN:23/40:D:NANNA/NANGG/GGGGG/NNNNN/GGNNN:GNGGG/NANNG/NAGGN/NAGGN/NNNNN:EHQQBT",
    "KG1:GOLDEN:24/40:D:GNNGN/NNGNG/NAGNG/GANGA/NNNGN:NNGGG/NGGGN/NGAGG/NNNNA/ANNNN:DJNX72",
    "KG1:GOLDEN:25/40:D:GGNNN/AGGNN/NGAGN/NNGNN/ANGGN:GGGNG/ANGNN/ANGNG/NNNGN/NGNAN:2VDWQS",
    "KG1:GOLDEN:26/40:D:GGAAG/NNNNN/NNNGN/GGNAG/GNNGN:GNNAN/GNGGN/ANNGN/NNGGN/ANNGG:CRTUCJ",
    "KG1:GOLDEN:27/40:D:NGNGN/GGNGN/AGNGN/NAGGN/ANNNN:NNGGN/NGGNN/GAGGN/NANNG/NANNG:TUN5QU",
    "KG1:GOLDEN:28/40:D:NGGNN/NGNGA/NANGN/GGNNN/NAGNG:GNGNG/NNNAA/NNGNN/GGAGN/NGNGN:VUZKTZ",
    "KG1:GOLDEN:29/40:D:GNNGG/ANNAG/NNNGG/NNAGN/NGNGN:GANNA/ANGGG/GNGNG/NNNNG/NNGNN:FZAXWI",
    "KG1:GOLDEN:30/40:D:NANNA/NNGNN/GNGGN/GGGNA/NNGGN:NGNGN/GNNNN/NGGAN/GNGGA/NGNNA:MZ2HQE",
    "KG1:GOLDEN:31/40:D:NGNGN/NANGN/NNGAN/NGNGN/GNGGA:GGNNG/NANGN/GNNNA/NGNNG/NGNAG:T26LUC",
    "KG1:GOLDEN:32/40:D:GGGNN/GNGNN/NNNNA/GGNGN/GNAAN:NGNNG/NNGGG/NGANN/ANNGN/NGAGN:GIOCXE",
    "KG1:GOLDEN:33/40:D:AGGNG/NNNNN/NGANG/AGGNG/NNNGN:ANAGG/GNANN/GNGGN/NGNNN/NGNGN:VPJWD5",
    "KG1:GOLDEN:34/40:D:NNANG/NNAGG/GGGNN/GNNAN/NGNGN:NGNAG/GGGGN/ANNNG/NNNAN/GGNNN:4VFOM2",
    "KG1:GOLDEN:35/40:D:NNGAN/NGNNG/ANGNG/GNGGN/AGNNN:NGGNG/GNNNN/GNGNG/NANNN/AAGNG:BTENWP",
    "KG1:GOLDEN:36/40:D:NGGNG/GNGNN/NANGG/NAGNN/GANNN:NGNGG/NNNNA/GANGN/NGANN/NNGGG:Q67TDG",
    "KG1:GOLDEN:37/40:D:NNNNG/NGGAA/GGNNN/GGANN/NGNNG:GNNNA/AGNAG/NNGNG/NGNNN/NNGGG:HEU7PP",
    "KG1:GOLDEN:38/40:D:GANNA/ANNGG/GNNGN/GNGNG/GNNNN:GAGNG/NGNNG/GNGNN/NGNNA/NGNNA:TV3X6X",
    "KG1:GOLDEN:39/40:D:GGNGG/GGGNG/NNNAN/NNNNA/NNNGA:NGNNN/NAGGG/NNNAA/NNNGN/GGGNG:OPTRBG",
    "KG1:GOLDEN:40/40:D:NNNNN/NANNN/NGGGA/NGGGN/GNGAG:GGGNN/NNNGG/NNGNG/AGNNN/GNAAN:6M22LQ",
]

# The table, written out again: (side A, side B) -> cells
TABLE = {"GG": 3, "GN": 5, "NG": 5, "GA": 1, "AG": 1, "AA": 1, "AN": 1, "NA": 1, "NN": 7}


# --- the 8 symmetries, written here apart from duet_keys ----------------------------------
def cw(g):
    """A quarter turn clockwise: the new top row is the old first column read bottom-up."""
    return tuple("".join(g[4 - c][r] for c in range(5)) for r in range(5))


def ccw(g):
    return tuple("".join(g[c][4 - r] for c in range(5)) for r in range(5))


def half(g):
    return tuple("".join(g[4 - r][4 - c] for c in range(5)) for r in range(5))


def forms(a, b):
    """Turns (side A clockwise, side B in A's orientation counter-clockwise) and the swap
    (A, B) -> (B half-turned, A half-turned) after each turn."""
    out = []
    for _ in range(4):
        out += [(a, b), (half(b), half(a))]
        a, b = cw(a), ccw(b)
    return out


LETTERS_A = ("ABCDE", "FGHIJ", "KLMNO", "PQRST", "UVWXY")
LETTERS_B = ("abcde", "fghij", "klmno", "pqrst", "uvwxy")


# --- a physical model of the card, from the definition alone ----------------------
# The card stands between the players. Physical x runs to A's right (B's left), y up; cells at
# x, y in -2..2. Each player reads their own face upright: A reads the face towards A at row 2-y,
# column 2+x; B reads the face towards B at row 2-y, column 2-x, and B's (r, c) is A's (4-r, 4-c).
def faces_of(a, b):
    """The key as {face: {(x, y): letter}}, face 0 towards A, face 1 towards B."""
    face_a = {(c - 2, 2 - r): a[r][c] for r in range(5) for c in range(5)}
    face_b = {}
    for r in range(5):
        for c in range(5):              # b is in A's orientation: B reads it at (4-r, 4-c)
            br, bc = 4 - r, 4 - c
            face_b[(2 - bc, 2 - br)] = b[r][c]
    return [face_a, face_b]


def sides_of(faces):
    """What each player reads, as (side A, side B in A's orientation)."""
    a = [[None] * 5 for _ in range(5)]
    b = [[None] * 5 for _ in range(5)]
    for (x, y), letter in faces[0].items():
        a[2 - y][2 + x] = letter
    for (x, y), letter in faces[1].items():
        br, bc = 2 - y, 2 - x
        b[4 - br][4 - bc] = letter
    return tuple(map("".join, a)), tuple(map("".join, b))


def turned_clockwise(faces):
    """The card turned a quarter turn clockwise as A sees it: up goes to A's right."""
    return [{(y, -x): v for (x, y), v in face.items()} for face in faces]


def turned_around(faces):
    """The card turned about its vertical axis: each face now looks at the other player."""
    return [{(-x, y): v for (x, y), v in faces[1].items()}, {(-x, y): v for (x, y), v in faces[0].items()}]


def test_the_physical_model_reads_back_what_it_was_given():
    assert sides_of(faces_of(LETTERS_A, LETTERS_B)) == (LETTERS_A, LETTERS_B)
    # the issue: A's top-right cell and B's bottom-left cell (as B sees it) name the same card
    key = DuetKey(1, 1, LETTERS_A, LETTERS_B)
    assert key.side_a[0][4] == "E" and key.side_b[0][4] == "e" and key.side_b_as_seen[4][0] == "e"


def test_a_quarter_turn_turns_the_sides_opposite_ways_in_a_orientation():
    """Turning the card a quarter turn: side A turns clockwise, side B (in A's orientation)
    counter-clockwise; written out by hand, checked against the physical card."""
    expected = (("UPKFA", "VQLGB", "WRMHC", "XSNID", "YTOJE"), ("ejoty", "dinsx", "chmrw", "bglqv", "afkpu"))
    assert sides_of(turned_clockwise(faces_of(LETTERS_A, LETTERS_B))) == expected
    assert expected in duet_keys.symmetries(LETTERS_A, LETTERS_B)
    # the same turn applied to both grids in A's orientation is not a way the card can be turned
    assert (cw(LETTERS_A), cw(LETTERS_B)) not in duet_keys.symmetries(LETTERS_A, LETTERS_B)


def test_swapping_the_card_between_the_players():
    """(A, B) -> (B turned 180 degrees, A turned 180 degrees): what B's player saw, A's player now
    sees, and the other way round; written out by hand, checked against the physical card."""
    swapped = (("yxwvu", "tsrqp", "onmlk", "jihgf", "edcba"), ("YXWVU", "TSRQP", "ONMLK", "JIHGF", "EDCBA"))
    assert sides_of(turned_around(faces_of(LETTERS_A, LETTERS_B))) == swapped
    assert swapped in duet_keys.symmetries(LETTERS_A, LETTERS_B)
    before, after = DuetKey(1, 1, LETTERS_A, LETTERS_B), DuetKey(1, 1, *swapped)
    assert after.side_a == before.side_b_as_seen and after.side_b_as_seen == before.side_a


def test_the_symmetries_are_the_group_of_8_the_physical_card_allows():
    physical, faces = set(), faces_of(LETTERS_A, LETTERS_B)
    for _ in range(4):
        physical |= {sides_of(faces), sides_of(turned_around(faces))}
        faces = turned_clockwise(faces)
    assert len(physical) == 8
    assert set(duet_keys.symmetries(LETTERS_A, LETTERS_B)) == physical == set(forms(LETTERS_A, LETTERS_B))
    key = generate("group", 1)[0]
    for a, b in forms(key.side_a, key.side_b):    # closed: each form has the same 8 forms
        assert set(forms(a, b)) == set(forms(key.side_a, key.side_b))
        assert duet_keys.orbit_id(a, b) == duet_keys.orbit_id(key.side_a, key.side_b)


# --- the deck -----------------------------------------------------------------------------
def test_the_game_facts():
    assert sum(duet_keys.OVERLAP.values()) == 25
    assert {a + b: n for (a, b), n in duet_keys.OVERLAP.items()} == TABLE
    for side in (0, 1):
        per = Counter()
        for pair, n in TABLE.items():
            per[pair[side]] += n
        assert (per["G"], per["A"], per["N"]) == (duet_keys.GREENS, duet_keys.ASSASSINS, duet_keys.BYSTANDERS)
        assert (per["G"], per["A"], per["N"]) == (9, 3, 13)
    assert duet_keys.DISTINCT_GREENS == 15 == sum(n for pair, n in TABLE.items() if "G" in pair)


def check_key(key):
    assert len(key.side_a) == len(key.side_b) == 5
    assert all(len(row) == 5 for row in key.side_a + key.side_b)
    for side in (key.side_a, key.side_b):
        assert Counter("".join(side)) == {"G": 9, "A": 3, "N": 13}
    pairs = Counter(a + b for a, b in zip("".join(key.side_a), "".join(key.side_b)))
    assert pairs == TABLE, f"key {key.number}"


def check_unique(deck):
    """No key equals an earlier one or one of its 8 forms (this file's transforms)."""
    earlier = {}
    for key in deck:
        assert (key.side_a, key.side_b) not in earlier, \
            f"key {key.number} is a form of key {earlier.get((key.side_a, key.side_b))}"
        for form in forms(key.side_a, key.side_b):
            earlier[form] = key.number


def check_spread(deck):
    """Neither side's assassin on any cell in more than ceil(3N/25) keys."""
    cap = math.ceil(3 * len(deck) / 25)
    for side in ("side_a", "side_b"):
        per_cell = Counter(i for key in deck for i, letter in enumerate("".join(getattr(key, side)))
                           if letter == "A")
        assert max(per_cell.values()) <= cap, (side, len(deck))


@pytest.mark.parametrize("seed", ["golden", "property seed", "kitgen classic-duet 2026", "x"])
def test_every_key_of_a_1000_key_deck(seed):
    deck = generate(seed, 1000)
    assert [k.number for k in deck] == list(range(1, 1001)) and {k.total for k in deck} == {1000}
    for key in deck:
        check_key(key)
    check_unique(deck)
    check_spread(deck)
    assert checks.duet_deck_report(deck).ok


@settings(max_examples=30, deadline=None)
@given(seed=st.text(min_size=1, max_size=40), count=st.integers(1, 80))
def test_any_seed_and_size(seed, count):
    deck = generate(seed, count)
    for key in deck:
        check_key(key)
    check_unique(deck)
    check_spread(deck)


def test_assassin_spread_for_every_deck_size_up_to_200():
    for count in range(1, 201):
        check_spread(generate("spread", count))


def test_assassin_spread_of_10000_keys_is_exact():
    deck = generate("spread", 10_000)
    check_spread(deck)
    report = checks.duet_deck_report(deck)
    assert set(report.assassins["A"]) == set(report.assassins["B"]) == {1200}     # 3 * 10000 / 25
    assert report.ok


def test_the_other_pairs_are_spread_too():
    """No cell is always green/green: over 1,000 keys each cell has each pair in about its share
    (loose bounds: 3/25 of 1,000 is 120, 7/25 is 280)."""
    deck = generate("pairs", 1000)
    for pair, n in TABLE.items():
        per_cell = Counter(i for key in deck for i, cell in enumerate(key.cells) if cell == pair)
        share = 1000 * n / 25
        assert len(per_cell) == 25 and all(abs(c - share) < 6 * math.sqrt(share) + 2 for c in per_cell.values())


def test_golden_keys():
    secret = key_deck.kit_secret("golden")
    assert [key_payload.encode_duet("golden", k, secret) for k in generate("golden", 40)] == GOLDEN_DUET_40


def test_key_1_follows_the_documented_steps():
    """docs/design.md §3.8 step by step with the kernel's Stream, for key 1 of the golden deck."""
    secret = key_deck.kit_secret("golden")
    order = Stream(secret, "keys/v1/duet/40/assassin").shuffle(list(range(25)))
    stream = Stream(secret, "keys/v1/duet/40/key/0/0")
    a_only = stream.shuffle(["AG", "AN"])
    b_only = stream.shuffle(["GA", "NA"])
    rest = stream.shuffle(["GG"] * 3 + ["GN"] * 5 + ["NG"] * 5 + ["NN"] * 7)
    cells = [None] * 25
    for cell, pair in zip(order[:5], a_only + ["AA"] + b_only):
        cells[cell] = pair
    cells = [c or rest.pop(0) for c in cells]
    a, b = "".join(c[0] for c in cells), "".join(c[1] for c in cells)
    rows = "/".join(a[i:i + 5] for i in range(0, 25, 5)) + ":" + "/".join(b[i:i + 5] for i in range(0, 25, 5))
    assert GOLDEN_DUET_40[0].startswith(f"KG1:GOLDEN:1/40:D:{rows}:")


def test_same_seed_same_deck_other_seed_other_deck():
    assert generate("one", 40) == generate("one", 40)
    assert generate("one", 40) != generate("two", 40)
    with pytest.raises(ValueError):
        generate("one", 0)


def test_an_equivalent_draw_is_drawn_again(monkeypatch):
    """Key 2's first draw is forced to be key 1 swapped and turned: it must be drawn again."""
    deck = generate("collide", 3)
    copy = forms(deck[0].side_a, deck[0].side_b)[3]        # turned once, then swapped
    original, calls = duet_keys._draw_key, []

    def draw(secret, prefix, index, attempt, five):
        calls.append((index, attempt))
        if (index, attempt) == (1, 0):
            return copy
        return original(secret, prefix, index, attempt, five)

    monkeypatch.setattr(duet_keys, "_draw_key", draw)
    redrawn = generate("collide", 3)
    assert (1, 1) in calls
    assert redrawn[0] == deck[0]
    check_unique(redrawn)


def test_cells_and_side_b_as_seen():
    key = generate("golden", 40)[0]
    assert key.side_b_as_seen == half(key.side_b)
    assert key.cells[4] == key.side_a[0][4] + key.side_b[0][4]
    assert len(key.cells) == 25


# --- the report ---------------------------------------------------------------------------
def test_the_report_finds_what_is_wrong():
    deck = generate("report", 50)
    assert checks.duet_deck_report(deck).ok
    a, b = forms(deck[0].side_a, deck[0].side_b)[5]
    twin = DuetKey(2, 50, a, b)
    report = checks.duet_deck_report([deck[0], twin] + deck[2:])
    assert report.clashes == [(1, 2)] and not report.ok
    flat = DuetKey(3, 50, deck[2].side_a, deck[2].side_a)            # side B = side A: 9 greens shared
    report = checks.duet_deck_report(deck[:2] + [flat] + deck[3:])
    assert report.overlap_errors == ["key 3"] and not report.ok
    piled = [DuetKey(k.number, 50, deck[0].side_a, k.side_b) for k in deck]   # assassins piled up on A
    report = checks.duet_deck_report(piled)
    assert report.assassin_cap == 6 and max(report.assassins["A"]) == 50 and not report.ok


# --- the payload --------------------------------------------------------------------------
def test_payload_round_trip_for_every_key_of_a_deck():
    secret = key_deck.kit_secret("trip")
    for key in generate("trip", 1000):
        text = key_payload.encode_duet("classic-duet", key, secret)
        parsed = key_payload.decode(text)
        assert isinstance(parsed, key_payload.DuetPayload)
        assert (parsed.kit, parsed.number, parsed.total, parsed.side_a, parsed.side_b) == (
            "CLASSIC-DUET", key.number, 1000, key.side_a, key.side_b)
        assert parsed.text == text and parsed.check == key_payload.check_code(secret, parsed.body)
        assert text == f"{parsed.body}:{parsed.check}"


def test_the_payload_is_in_the_qr_alphanumeric_set():
    allowed = set("0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ $%*+-./:")
    text = key_payload.encode_duet("my-kit-2", generate("s", 1)[0], b"x")
    assert set(text) <= allowed
    with pytest.raises(KitgenError, match="cannot go in a QR payload"):
        key_payload.encode_duet("kit_with_underscore", generate("s", 1)[0], b"x")


GOOD = GOLDEN_DUET_40[0]
SIDE_A, SIDE_B = GOOD.split(":")[4:6]
FORM = "(KG1:KIT:N/TOTAL:D:ROWS-A:ROWS-B:CHECK)"


def shown(text):
    return repr(text[:40]) + ("..." if len(text) > 40 else "")


@pytest.mark.parametrize("text, why", [
    (GOOD.rsplit(":", 1)[0], f"it has 6 fields separated by ':', not 7 {FORM}"),
    (GOOD + ":X", f"it has 8 fields separated by ':', not 7 {FORM}"),
    ("KG1:GOLDEN:1/40:D", f"it has 4 fields separated by ':', not 7 {FORM}"),
    ("KG1:GOLDEN:1/40:D:" + SIDE_A, f"it has 5 fields separated by ':', not 7 {FORM}"),
    (GOOD.replace(SIDE_A, SIDE_A[:-1] + "R"),
     f"side A's grid is not 5 rows of 5 letters G, N or A separated by '/' {FORM}"),
    (GOOD.replace(SIDE_B, SIDE_B[:23]),
     f"side B's grid is not 5 rows of 5 letters G, N or A separated by '/' {FORM}"),
    (GOOD.replace(SIDE_A, SIDE_A.replace("/", "")),
     f"side A's grid is not 5 rows of 5 letters G, N or A separated by '/' {FORM}"),
    (GOOD.replace("GOLDEN", "golden"), "kit id 'golden' is not 1-16 of A-Z, 0-9 and '-'"),
    (GOOD.replace("1/40", "1-40"), "'1-40' is not a key number like 7/40"),
    (GOOD.replace("7XPNKC", "7XPNK1"), "the check code '7XPNK1' is not 6 characters of A-Z and 2-7"),
])
def test_malformed_duet_payloads_are_refused_with_their_message(text, why):
    with pytest.raises(KitgenError) as err:
        key_payload.decode(text)
    assert str(err.value) == f"{shown(text)} is not a kitgen key payload: {why}"


def test_number_above_total_is_refused():
    with pytest.raises(KitgenError) as err:
        key_payload.decode(GOOD.replace("1/40", "41/40"))
    assert str(err.value) == "key number 41 is above the deck size 40"


@pytest.mark.parametrize("side, rows, got", [
    ("A", "GGGGG/GGGGG/ANNGG/GNGNN/NNGAN", "15/2/8"),       # too many greens on side A
    ("B", "GNAGN/GGANA/NGNNG/NNNNN/GNGGA", "9/4/12"),       # an assassin for a bystander on side B
])
def test_wrong_counts_on_a_side_are_refused(side, rows, got):
    text = GOOD.replace(SIDE_A if side == "A" else SIDE_B, rows)
    with pytest.raises(KitgenError) as err:
        key_payload.decode(text)
    assert str(err.value) == (f"key 1/40 side {side} has {got} cards (green/assassins/bystanders); "
                              "each side of a duet key needs 9/3/13")


def test_a_wrong_overlap_is_refused():
    # side B the same as side A: each side 9/3/13, but they overlap only on themselves
    with pytest.raises(KitgenError) as err:
        key_payload.decode(GOOD.replace(SIDE_B, SIDE_A))
    assert str(err.value) == (
        "key 1/40: its sides overlap wrongly, cells side A/side B: G/G 9 (needs 3), G/N 0 (needs 5), "
        "N/G 0 (needs 5), G/A 0 (needs 1), A/G 0 (needs 1), A/A 3 (needs 1), A/N 0 (needs 1), "
        "N/A 0 (needs 1), N/N 13 (needs 7)")
    # two cells of side B swapped: the counts per side stay, two pairs change
    a, b = "".join(SIDE_A.split("/")), list("".join(SIDE_B.split("/")))
    i = next(i for i in range(25) if a[i] == "G" and b[i] == "G")
    j = next(j for j in range(25) if a[j] == "N" and b[j] == "N")
    b[i], b[j] = "N", "G"
    rows = "/".join("".join(b[r:r + 5]) for r in range(0, 25, 5))
    with pytest.raises(KitgenError, match=r"G/G 2 \(needs 3\), G/N 6 \(needs 5\), N/G 6 \(needs 5\), "
                                          r"N/N 6 \(needs 7\)$"):
        key_payload.decode(GOOD.replace(SIDE_B, rows))


def test_version_1_payloads_still_decode_to_payload_with_their_messages():
    text = "KG1:CLASSIC-EN:1/40:B:BBNNR/NBRBB/RRNBN/ARRBR/BNBRN:3PJD3F"     # docs/design.md §3.6
    parsed = key_payload.decode(text)
    assert type(parsed) is key_payload.Payload and parsed.grid[3] == "ARRBR" and parsed.text == text
    for bad, why in [
        (text + ":X", "it has 7 fields separated by ':', not 6 (KG1:KIT:N/TOTAL:R|B:ROWS:CHECK)"),
        (text.replace(":B:", ":G:"), "the starting team 'G' is not R or B"),
        (text.replace("CLASSIC-EN", "x"), "kit id 'x' is not 1-16 of A-Z, 0-9 and '-'"),
        ("KG2" + text[3:], "it should start with KG1: (the form is KG1:KIT:N/TOTAL:R|B:ROWS:CHECK)"),
    ]:
        with pytest.raises(KitgenError) as err:
            key_payload.decode(bad)
        assert str(err.value) == f"{shown(bad)} is not a kitgen key payload: {why}"


@settings(max_examples=300, derandomize=True)
@given(st.text(alphabet="GNAD:/RB5X", max_size=80))
def test_any_duet_shaped_string_is_a_payload_or_a_clear_error(tail):
    try:
        key_payload.decode("KG1:K:1/2:D:" + tail)
    except KitgenError as err:
        assert "\n" not in str(err) and len(str(err)) < 300
