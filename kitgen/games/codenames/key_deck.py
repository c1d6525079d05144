"""Key-deck generation, algorithm version 1 (docs/design.md §3).

The deck depends only on the seed, the edition and the number of keys, through
HMAC-SHA256 -- never on Python's ``random`` module -- so it is the same on any
machine and Python version. The steps, each from its own labelled stream:

1. ``first``: a list of ceil(N/2) of one team and floor(N/2) of the other
   (which team gets the extra key when N is odd is the stream's first draw),
   shuffled; key i starts with entry i.
2. ``assassin``: shuffled permutations of all cells, concatenated; key i's
   assassin sits on entry i. So no cell holds the assassin more than
   ceil(N / cells) times.
3. ``key/<i>/<attempt>``: the other cells get the starting team's agents, the
   other team's agents and the bystanders by a Fisher-Yates shuffle. A key
   equal to an earlier key, or to a valid rotation of one, is drawn again with
   the next attempt number.

Shuffles are Fisher-Yates with unbiased integers (rejection sampling).
Changing any of this changes the golden tests: bump ``ALGORITHM_VERSION``.
"""

from dataclasses import dataclass

from kitgen import seeded
from kitgen.games.codenames.editions import Edition
from kitgen.seeded import Stream

ALGORITHM_VERSION = 1
RED, BLUE, BYSTANDER, ASSASSIN = "R", "B", "N", "A"


def kit_secret(seed: str) -> bytes:
    """The secret every key of a kit is derived from, and the QR check code is keyed by."""
    return seeded.secret(b"kitgen/kit-secret/v1", seed)


@dataclass(frozen=True)
class KeyCard:
    """One key: its number in the deck (1-based), the starting team and the grid
    as printed with the key number upright, top row first."""

    number: int
    total: int
    starting_team: str
    grid: tuple[str, ...]

    @property
    def cells(self) -> str:
        return "".join(self.grid)


def rotations(grid: tuple[str, ...], turns: int) -> list[tuple[str, ...]]:
    """The grid in each valid orientation: 4 quarter turns, or upright and 180 degrees."""
    out = [grid]
    if turns == 2:
        out.append(tuple(row[::-1] for row in reversed(grid)))
    else:
        current = grid
        for _ in range(3):
            current = tuple("".join(col) for col in zip(*reversed(current)))
            out.append(current)
    return out


def _draw_grid(secret: bytes, prefix: str, index: int, attempt: int, first: str, assassin: int,
               edition: Edition) -> tuple[str, ...]:
    """One candidate grid for key ``index``: the assassin on its cell, the rest shuffled."""
    other = BLUE if first == RED else RED
    pool = [first] * edition.starting_agents + [other] * edition.other_agents + [BYSTANDER] * edition.bystanders
    fill = Stream(secret, f"{prefix}key/{index}/{attempt}").shuffle(pool)
    fill.insert(assassin, ASSASSIN)
    return tuple("".join(fill[r * edition.cols:(r + 1) * edition.cols]) for r in range(edition.rows))


def generate(seed: str, edition: Edition, count: int) -> list[KeyCard]:
    """The key deck of ``count`` keys for this seed and edition."""
    return [KeyCard(i + 1, count, first, grid) for i, (first, grid) in enumerate(draw(seed, edition, count))]


_CELL_DIGITS = str.maketrans("RBNA", "0123")


def _orbit_id(grid: tuple[str, ...], turns: int) -> int:
    """One small integer for a grid and all its valid rotations alike: the least of them, read as
    a number in base 4 (memory stays small for a deck of 100,000 keys)."""
    return min(int("".join(g).translate(_CELL_DIGITS), 4) for g in rotations(grid, turns))


def draw(seed: str, edition: Edition, count: int):
    """Each key of the deck in order, as (starting team, grid)."""
    if count < 1:
        raise ValueError("a key deck needs at least one key")
    secret = kit_secret(seed)
    prefix = f"keys/v{ALGORITHM_VERSION}/{edition.name}/{count}/"

    first_stream = Stream(secret, prefix + "first")
    extra = RED if first_stream.below(2) == 0 else BLUE
    other_of = {RED: BLUE, BLUE: RED}
    firsts = [extra] * ((count + 1) // 2) + [other_of[extra]] * (count // 2)
    first_stream.shuffle(firsts)

    assassin_stream = Stream(secret, prefix + "assassin")
    assassin_cells: list[int] = []
    while len(assassin_cells) < count:
        assassin_cells += assassin_stream.shuffle(list(range(edition.cells)))

    # A grid is drawn again when it equals an earlier key or a valid rotation of one: when its
    # rotations' orbit is one an earlier key's is (the rotations are a group, so the orbits of
    # two grids are the same or have no grid in common).
    seen: set[int] = set()
    for i in range(count):
        attempt = 0
        while True:
            grid = _draw_grid(secret, prefix, i, attempt, firsts[i], assassin_cells[i], edition)
            orbit = _orbit_id(grid, edition.rotations)
            if orbit not in seen:
                break
            attempt += 1
        seen.add(orbit)
        yield firsts[i], grid
