"""The key deck (docs/design.md §3): split, balance, uniqueness under rotation, assassin
spread, unbiased shuffles, and golden keys that pin algorithm version 1."""

import base64
import hashlib
import hmac
import math
from collections import Counter

import pytest
from hypothesis import given, settings, strategies as st

from kitgen.games.codenames import editions, key_deck, key_payload
from kitgen.games.codenames.key_deck import generate, kit_secret, rotations
from kitgen.seeded import Stream

GOLDEN_WORDS_40 = [
    "KG1:GOLDEN:1/40:R:RRBRB/NBRBN/NBNNR/BRNAR/RBNBR:JKXLIQ",
    "KG1:GOLDEN:2/40:B:RBARN/BRNNB/NBRNB/BRRNB/RNRBB:GGIEJO",
    "KG1:GOLDEN:3/40:R:BNRRB/NRNNR/BNRAB/BBBNN/RRRBR:7UIBR6",
]
GOLDEN_WORDS_7 = [
    "KG1:GOLDEN:1/7:B:NBRNR/ABRBN/NBRBN/BRRNB/NBRRB:QXN46W",
    "KG1:GOLDEN:2/7:B:BNBNA/BRNRR/NBNBR/BRRBR/RNBBN:PLYZTL",
]
GOLDEN_PICTURES_60 = [
    "KG1:GOLDEN:1/60:R:BBRNR/ABRRN/NNRBR/BRRBB:GQPBDC",
    "KG1:GOLDEN:2/60:B:NBBRB/NRRRA/BNBRB/NRBBR:73HVA6",
]


def payloads(seed, edition, count, kit="golden"):
    secret = key_deck.kit_secret(seed)
    return [key_payload.encode(kit, k, secret) for k in generate(seed, edition, count)]


def test_golden_keys_words():
    assert payloads("golden-seed", editions.WORDS, 40)[:3] == GOLDEN_WORDS_40
    assert payloads("golden-seed", editions.WORDS, 7)[:2] == GOLDEN_WORDS_7


def test_golden_keys_pictures():
    assert payloads("golden-seed", editions.PICTURES, 60)[:2] == GOLDEN_PICTURES_60


def test_secret_and_check_code_follow_the_documented_construction():
    # recomputed here with the standard library alone, as a third party would
    secret = hmac.new(b"kitgen/kit-secret/v1", b"golden-seed", hashlib.sha256).digest()
    assert secret == key_deck.kit_secret("golden-seed")
    body, chk = GOLDEN_WORDS_40[0].rsplit(":", 1)
    expected = base64.b32encode(hmac.new(secret, body.encode(), hashlib.sha256).digest()).decode()[:6]
    assert chk == expected


def check_deck(deck, edition):
    n = len(deck)
    first_counts = Counter(k.starting_team for k in deck)
    assert abs(first_counts["R"] - first_counts["B"]) == n % 2
    assassin_cells = Counter()
    seen = {}
    for k in deck:
        assert len(k.grid) == edition.rows and all(len(r) == edition.cols for r in k.grid)
        counts = Counter(k.cells)
        other = "B" if k.starting_team == "R" else "R"
        assert (counts[k.starting_team], counts[other], counts["N"], counts["A"]) == (
            edition.starting_agents, edition.other_agents, edition.bystanders, edition.assassins)
        assassin_cells[k.cells.index("A")] += 1
        for turned in rotations(k.grid, edition.rotations):
            assert turned not in seen, f"key {k.number} equals key {seen.get(turned)} turned"
        seen[k.grid] = k.number
    assert max(assassin_cells.values()) <= math.ceil(n / edition.cells)
    assert [k.number for k in deck] == list(range(1, n + 1))
    assert all(k.total == n for k in deck)


@pytest.mark.parametrize("count", [1, 2, 25, 39, 40, 200, 1000])
def test_deck_properties_words(count):
    check_deck(generate("property seed", editions.WORDS, count), editions.WORDS)


@pytest.mark.parametrize("count", [1, 20, 60, 301])
def test_deck_properties_pictures(count):
    check_deck(generate("property seed", editions.PICTURES, count), editions.PICTURES)


@settings(max_examples=25, deadline=None)
@given(seed=st.text(min_size=1, max_size=40), count=st.integers(1, 120))
def test_deck_properties_any_seed(seed, count):
    check_deck(generate(seed, editions.WORDS, count), editions.WORDS)


def test_same_seed_same_deck_other_seed_other_deck():
    a = generate("one", editions.WORDS, 40)
    assert a == generate("one", editions.WORDS, 40)
    assert a != generate("two", editions.WORDS, 40)


def test_rotation_collisions_are_redrawn(monkeypatch):
    """Key 2's first draw is forced to be key 1 turned a quarter: it must be drawn again."""
    deck = generate("collide", editions.WORDS, 3)
    turned = rotations(deck[0].grid, 4)[1]
    original, calls = key_deck._draw_grid, []

    def draw(secret, prefix, index, attempt, *rest):
        calls.append((index, attempt))
        if (index, attempt) == (1, 0):
            return turned
        return original(secret, prefix, index, attempt, *rest)

    monkeypatch.setattr(key_deck, "_draw_grid", draw)
    redrawn = generate("collide", editions.WORDS, 3)
    assert (1, 1) in calls
    assert redrawn[1].grid not in rotations(redrawn[0].grid, 4)
    assert redrawn[0] == deck[0]


def test_rotations_of_a_square_and_of_a_5x4_grid():
    grid = ("RRBNA", "NBRBR", "RNRBB", "ANRBN", "BRNRB")
    quarter = rotations(grid, 4)[1]
    # turning clockwise: the first row of the result is the first column, read bottom-up
    assert quarter[0] == "".join(row[0] for row in reversed(grid))
    assert rotations(quarter, 4)[3] == grid
    assert rotations(grid, 4)[2] == tuple(r[::-1] for r in reversed(grid))
    wide = ("RRBNA", "NBRBR", "RNRBB", "ANRBN")
    assert rotations(wide, 2) == [wide, ("NBRNA", "BBRNR", "RBRBN", "ANBRR")]


def test_below_is_unbiased():
    """Counts of 60,000 draws in [0, 6) pass a chi-square test (df=5, p=0.001: 20.5)."""
    stream = Stream(b"secret", "test")
    counts = Counter(stream.below(6) for _ in range(60_000))
    expected = 10_000
    chi2 = sum((counts[i] - expected) ** 2 / expected for i in range(6))
    assert set(counts) == set(range(6))
    assert chi2 < 20.5


def test_shuffle_gives_every_permutation_evenly():
    """Fisher-Yates: each of the 24 orders of 4 items about equally often (df=23, p=0.001: 49.7)."""
    stream = Stream(b"secret", "perm")
    counts = Counter(tuple(stream.shuffle([0, 1, 2, 3])) for _ in range(24_000))
    assert len(counts) == 24
    chi2 = sum((c - 1000) ** 2 / 1000 for c in counts.values())
    assert chi2 < 49.7


@given(st.integers(1, 2**32))
@settings(max_examples=200)
def test_below_stays_in_range(n):
    assert 0 <= Stream(b"k", "range").below(n) < n


def test_with_an_odd_count_the_seed_decides_which_team_has_the_extra_key():
    """README and docs/design.md §3.3: the first draw of the 'first' stream gives the extra
    key to red (0) or blue (1); neither team is favoured over seeds."""
    extra = {}
    for i in range(24):
        seed = f"odd {i}"
        counts = Counter(k.starting_team for k in generate(seed, editions.WORDS, 41))
        assert sorted(counts.values()) == [20, 21]
        extra[seed] = max(counts, key=counts.get)
        draw = Stream(kit_secret(seed), "keys/v1/words/41/first").below(2)
        assert extra[seed] == ("R" if draw == 0 else "B")
    assert set(extra.values()) == {"R", "B"}
