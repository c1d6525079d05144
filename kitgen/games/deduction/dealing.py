"""Seeded setup of the deduction game, algorithm version 1 (docs/design.md §10.3).

For players who would rather not shuffle: for each of the three mini-games, which
tile lies on which location, and each player's case, dealt like the case cards (no
two players share a card). Everything comes from HMAC-SHA256 streams of the kit's
secret (kitgen/seeded.py), so the same seed and player count deal the same setup on
any machine:

- secret = HMAC-SHA256(key "kitgen/deduction-secret/v1", seed);
- prefix = "deduction/v1/<players>/<mini-game>/";
- stream prefix + "suspect-tiles" shuffles the suspect tiles (every suspect, then
  the blanks) and lays them on the locations in the theme's order; "crime-tiles"
  does the same for crime tiles;
- streams prefix + "suspects", "crimes" and "locations" each shuffle that deck;
  player p (1-based) holds entry p - 1 of each: the case the player on their left
  must solve.

Changing any of this changes every setup: bump ALGORITHM_VERSION."""

from dataclasses import dataclass

from kitgen import seeded
from kitgen.games.deduction import facts
from kitgen.seeded import Stream

ALGORITHM_VERSION = 1
BLANK = -1             # a "no suspect" or "no crime" tile


def secret(seed: str) -> bytes:
    """The secret a deduction kit's setups and slip check codes come from."""
    return seeded.secret(b"kitgen/deduction-secret/v1", seed)


@dataclass(frozen=True)
class Case:
    """What a player holds: indices into the theme's suspects, crimes and locations."""

    holder: int            # 1-based player who holds it and answers questions about it
    solver: int            # the player on the holder's left, who must solve it
    suspect: int
    crime: int
    location: int


@dataclass(frozen=True)
class MiniGame:
    number: int                                   # 1..3
    suspect_tiles: tuple[int, ...]                # per location: a suspect index, or BLANK
    crime_tiles: tuple[int, ...]                  # per location: a crime index, or BLANK
    cases: tuple[Case, ...]                       # one per player, by holder


def deal(seed: str, counts: facts.Counts, players: int) -> tuple[MiniGame, ...]:
    """The setup of every mini-game for ``players`` players."""
    if not facts.MIN_PLAYERS <= players <= facts.MAX_PLAYERS:
        raise ValueError(f"{players} players; the game takes {facts.MIN_PLAYERS} to {facts.MAX_PLAYERS}")
    key = secret(seed)
    games = []
    for number in range(1, facts.MINI_GAMES + 1):
        prefix = f"deduction/v{ALGORITHM_VERSION}/{players}/{number}/"
        suspect_tiles = Stream(key, prefix + "suspect-tiles").shuffle(
            list(range(counts.suspects)) + [BLANK] * counts.no_suspect_tiles)
        crime_tiles = Stream(key, prefix + "crime-tiles").shuffle(
            list(range(counts.crimes)) + [BLANK] * counts.no_crime_tiles)
        decks = {kind: Stream(key, prefix + kind).shuffle(list(range(getattr(counts, kind))))
                 for kind in ("suspects", "crimes", "locations")}
        cases = tuple(Case(p, facts.left_of(p, players), decks["suspects"][p - 1], decks["crimes"][p - 1],
                           decks["locations"][p - 1]) for p in range(1, players + 1))
        games.append(MiniGame(number, tuple(suspect_tiles), tuple(crime_tiles), cases))
    return tuple(games)
