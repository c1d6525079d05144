"""What a holder answers (docs/design.md §10.4): for an investigator placed on a
location, a disc for each thing there that is part of the case -- its suspect tile,
its crime tile, the location itself -- and a cube for each such match on a location
one road away. So "misleading information" can be settled at the table."""

from dataclasses import dataclass

from kitgen.games.deduction.city import Map
from kitgen.games.deduction.dealing import Case, MiniGame


@dataclass(frozen=True)
class Answer:
    discs: tuple[str, ...]       # what matched here: "suspect", "crime", "location"
    cubes: tuple[tuple[int, str], ...]     # (adjacent location, what matched there)

    @property
    def counts(self) -> tuple[int, int]:
        return len(self.discs), len(self.cubes)


def matches(game: MiniGame, case: Case, location: int) -> tuple[str, ...]:
    """The parts of ``case`` found on ``location`` in this mini-game."""
    found = []
    if game.suspect_tiles[location] == case.suspect:
        found.append("suspect")
    if game.crime_tiles[location] == case.crime:
        found.append("crime")
    if location == case.location:
        found.append("location")
    return tuple(found)


def at(city: Map, game: MiniGame, case: Case, location: int) -> Answer:
    """The discs and cubes an investigator placed on ``location`` receives."""
    cubes = tuple((near, what) for near in city.neighbours(location) for what in matches(game, case, near))
    return Answer(matches(game, case, location), cubes)
