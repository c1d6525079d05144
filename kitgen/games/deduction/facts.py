"""The deduction game's facts (docs/design.md §10.1). Everything else reads them from here.

A city of locations joined by roads; three case decks (suspects, crimes,
locations); tiles that put one suspect and one crime on every location for each of
three mini-games; evidence cards, one per suspect, crime and location; tokens for
2 to 5 players; scores by the round a player solves in."""

from dataclasses import dataclass

MINI_GAMES = 3
MIN_PLAYERS, MAX_PLAYERS, DEFAULT_PLAYERS = 2, 5, 4
CLASSIC = {"suspects": 12, "crimes": 10, "locations": 14}
MIN_OF_EACH = 2                    # a theme needs at least this many suspects, crimes and locations
MIN_DEGREE, MAX_DEGREE = 2, 6      # the classic city: each location touches 2 to 6 others
EVIDENCE_FACE_UP = 9
SCORES = (7, 5, 3, 1)              # by the round a player solves in; players of one round share a step
WRONG_ATTEMPT = 2                  # points on the penalty track
SCORE_TRACK = MINI_GAMES * SCORES[0]          # 0 to 21: the most a game can score, a running total
PENALTY_TRACK = 10 * WRONG_ATTEMPT            # 0 to -20, a space a wrong attempt; past it, a lap (the rules)

# per player, for the whole game
INVESTIGATORS, DISCS, CUBES, SCORE_MARKERS, PENALTY_MARKERS = 5, 3, 10, MINI_GAMES, 1
SOLVING_DISCS, FIRST_PLAYER_MARKERS = 3, 1    # shared


@dataclass(frozen=True)
class Counts:
    """What a theme's kit holds, from its numbers of suspects, crimes and locations."""

    suspects: int
    crimes: int
    locations: int

    @property
    def suspect_tiles(self) -> int:
        return self.suspects

    @property
    def no_suspect_tiles(self) -> int:
        """Blank suspect tiles, so that every location gets one suspect tile."""
        return self.locations - self.suspects

    @property
    def crime_tiles(self) -> int:
        return self.crimes

    @property
    def no_crime_tiles(self) -> int:
        return self.locations - self.crimes

    @property
    def evidence_cards(self) -> int:
        return self.suspects + self.crimes + self.locations

    @property
    def case_cards(self) -> int:
        return self.suspects + self.crimes + self.locations


def tokens(players: int = MAX_PLAYERS) -> dict[str, int]:
    """Every token the sheets print, for ``players`` players."""
    return {
        "investigator": INVESTIGATORS * players,
        "disc": DISCS * players,
        "cube": CUBES * players,
        "score_marker": SCORE_MARKERS * players,
        "penalty_marker": PENALTY_MARKERS * players,
        "black_disc": SOLVING_DISCS,
        "first_player": FIRST_PLAYER_MARKERS,
    }


def left_of(player: int, players: int) -> int:
    """The player (1-based) on the left of ``player``: the one who solves the case ``player`` holds."""
    return player % players + 1
