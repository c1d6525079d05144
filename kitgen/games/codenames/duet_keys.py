"""Two-sided keys of the duet edition, algorithm version 1 (docs/design.md §3.8).

A duet key has a side for each player, A and B, who sit opposite each other with the board
between them. Both sides are kept here in side A's orientation: cell (r, c) of ``side_b`` is
about the same codename card as cell (r, c) of ``side_a``; B's player sees that cell at
(4 - r, 4 - c), so what B sees is ``side_b`` turned 180 degrees (``DuetKey.side_b_as_seen``).

Like ``key_deck`` the deck depends only on the seed and the key count, through the kernel's
HMAC streams (``kitgen.seeded``), keyed by ``key_deck.kit_secret(seed)``:

1. ``assassin``: for each block of 25 keys, a shuffled order of the 25 cells, read cyclically.
   Key k of a block (0-based) takes the five cells at places 3k .. 3k+4 (mod 25) of its block's
   order: the first two are side A's assassins only, the middle one is both sides' assassin, the
   last two are side B's only. So side A's assassins run through the order three cells a key, and
   side B's likewise two places later: in a deck of N keys no cell is either side's assassin more
   than ceil(3N / 25) times.
2. ``key/<i>/<attempt>``: which of side A's two own assassin cells is green on side B (the other
   is a bystander there), the same for side B's two, and a Fisher-Yates shuffle of the other 20
   cells' pairs (green/green 3, green/bystander 5, bystander/green 5, bystander/bystander 7). A key
   equal to an earlier key or to an equivalent copy of one (``symmetries``) is drawn again with the
   next attempt number, on the same assassin cells.

Changing any of this changes the golden tests: bump ``ALGORITHM_VERSION``.
"""

from dataclasses import dataclass

from kitgen.games.codenames.key_deck import kit_secret, rotations
from kitgen.seeded import Stream

ALGORITHM_VERSION = 1
EDITION = "duet"                      # the name in the streams' labels
ROWS = COLS = 5
CELLS = ROWS * COLS
GREEN, BYSTANDER, ASSASSIN = "G", "N", "A"

# Per side (the game facts, docs/design.md §3.8)
GREENS, ASSASSINS, BYSTANDERS = 9, 3, 13

# Cells per (side A's letter, side B's letter); sums to 25
OVERLAP = {
    (GREEN, GREEN): 3,
    (GREEN, BYSTANDER): 5,
    (BYSTANDER, GREEN): 5,
    (GREEN, ASSASSIN): 1,
    (ASSASSIN, GREEN): 1,
    (ASSASSIN, ASSASSIN): 1,
    (ASSASSIN, BYSTANDER): 1,
    (BYSTANDER, ASSASSIN): 1,
    (BYSTANDER, BYSTANDER): 7,
}
DISTINCT_GREENS = CELLS - sum(n for (a, b), n in OVERLAP.items() if GREEN not in (a, b))   # 15

Side = tuple[str, ...]


@dataclass(frozen=True)
class DuetKey:
    """One duet key: its number in the deck (1-based), side A as A's player sees it, and side B's
    cells in side A's orientation (cell r, c of both sides is about the same codename card)."""

    number: int
    total: int
    side_a: Side
    side_b: Side

    @property
    def side_b_as_seen(self) -> Side:
        """Side B as B's player sees it, across the board from A: ``side_b`` turned 180 degrees."""
        return half_turn(self.side_b)

    @property
    def cells(self) -> tuple[str, ...]:
        """Each cell's pair, side A's letter then side B's (``"GN"``), in side A's reading order."""
        return tuple(a + b for a, b in zip("".join(self.side_a), "".join(self.side_b)))


def half_turn(side: Side) -> Side:
    """A side turned 180 degrees: rows reversed, each row reversed."""
    return tuple(row[::-1] for row in reversed(side))


def symmetries(side_a: Side, side_b: Side) -> list[tuple[Side, Side]]:
    """The key in its 8 equivalent forms, both sides in A's orientation (docs/design.md §3.8).

    Turning the card a quarter turn clockwise as A sees it turns side A clockwise and side B, in
    A's orientation, counter-clockwise (B sees the card's back turn the other way). Swapping the
    card between the players makes (A, B) into (B turned 180 degrees, A turned 180 degrees).
    These generate a group of 8: the identity, 3 turns, the swap and the swap after each turn."""
    turned_a = rotations(side_a, 4)       # clockwise quarter turns: 0, 1, 2, 3
    turned_b = rotations(side_b, 4)
    out = []
    for i in range(4):
        out.append((turned_a[i], turned_b[-i % 4]))
        out.append((turned_b[(2 - i) % 4], turned_a[(2 + i) % 4]))
    return out


_DIGITS = str.maketrans("GNA", "012")


def orbit_id(side_a: Side, side_b: Side) -> int:
    """One integer for a key and all its equivalent forms alike: the least of the 8 forms, both
    sides' 50 letters read as a number in base 3 (G N A = 0 1 2)."""
    return min(int(("".join(a) + "".join(b)).translate(_DIGITS), 3) for a, b in symmetries(side_a, side_b))


def assassin_cells(order: list[int], k: int) -> tuple[int, ...]:
    """Key k's five assassin cells in its block's cyclic order: A only, A only, both, B only, B only."""
    return tuple(order[(3 * k + t) % CELLS] for t in range(5))


def _draw_key(secret: bytes, prefix: str, index: int, attempt: int, five: tuple[int, ...]) -> tuple[Side, Side]:
    """One candidate key for key ``index`` on its five assassin cells; the rest shuffled."""
    stream = Stream(secret, f"{prefix}key/{index}/{attempt}")
    pairs: list = [None] * CELLS
    a_only = stream.shuffle([(ASSASSIN, GREEN), (ASSASSIN, BYSTANDER)])
    b_only = stream.shuffle([(GREEN, ASSASSIN), (BYSTANDER, ASSASSIN)])
    for cell, pair in zip(five, a_only + [(ASSASSIN, ASSASSIN)] + b_only):
        pairs[cell] = pair
    rest = stream.shuffle([pair for pair, n in OVERLAP.items() if ASSASSIN not in pair for _ in range(n)])
    free = iter(rest)
    pairs = [pair or next(free) for pair in pairs]
    return _rows(p[0] for p in pairs), _rows(p[1] for p in pairs)


def _rows(letters) -> Side:
    text = "".join(letters)
    return tuple(text[r * COLS:(r + 1) * COLS] for r in range(ROWS))


def generate(seed: str, count: int) -> list[DuetKey]:
    """The duet key deck of ``count`` keys for this seed."""
    return [DuetKey(i + 1, count, a, b) for i, (a, b) in enumerate(draw(seed, count))]


def draw(seed: str, count: int):
    """Each key of the deck in order, as (side A, side B in A's orientation)."""
    if count < 1:
        raise ValueError("a key deck needs at least one key")
    secret = kit_secret(seed)
    prefix = f"keys/v{ALGORITHM_VERSION}/{EDITION}/{count}/"
    assassin_stream = Stream(secret, prefix + "assassin")
    seen: set[int] = set()
    order: list[int] = []
    for i in range(count):
        if i % CELLS == 0:
            order = assassin_stream.shuffle(list(range(CELLS)))
        five = assassin_cells(order, i % CELLS)
        attempt = 0
        while True:
            key = _draw_key(secret, prefix, i, attempt, five)
            orbit = orbit_id(*key)
            if orbit not in seen:
                break
            attempt += 1
        seen.add(orbit)
        yield key
