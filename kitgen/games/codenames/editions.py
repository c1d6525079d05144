"""Game facts of each edition (docs/design.md §1). Everything else reads them from here."""

from dataclasses import dataclass


@dataclass(frozen=True)
class Edition:
    name: str
    rows: int
    cols: int
    starting_agents: int
    other_agents: int
    bystanders: int
    assassins: int
    rotations: int          # valid orientations of a key in its stand: 4 (square) or 2 (180 degrees)
    light_edges: int        # edges that carry the starting-team lights
    default_keys: int
    default_layout: str     # the built-in layout drawn for this edition
    sides: int = 1          # 2: a cooperative key with one side per player (the duet edition)
    timer_tokens: int = 0   # the duet edition's turns in a standard game
    extra_timer_tokens: int = 0     # and the tokens printed beyond them, for easier games

    @property
    def cells(self) -> int:
        return self.rows * self.cols

    @property
    def cooperative(self) -> bool:
        return self.sides == 2

    def tiles(self) -> dict[str, int]:
        """Agent tiles per type; the double agent is red on one side, blue on the other. The duet
        edition: a green agent tile for each green agent of the two sides, one assassin, and
        bystanders marked on each side with whose guess found them."""
        if self.cooperative:
            return dict(DUET_TILES)
        return {
            "red": self.other_agents,
            "blue": self.other_agents,
            "double": 1,
            "bystander": self.bystanders,
            "assassin": self.assassins,
        }


WORDS = Edition("words", 5, 5, 9, 8, 7, 1, rotations=4, light_edges=4, default_keys=40,
                default_layout="default")
PICTURES = Edition("pictures", 4, 5, 8, 7, 4, 1, rotations=2, light_edges=2, default_keys=60,
                   default_layout="pictures")
# The duet edition (docs/design.md §12): per side 9 green agents, 13 bystanders, 3 assassins; no
# starting team; 15 green agents in all across the two sides (duet_keys.OVERLAP)
DUET = Edition("duet", 5, 5, 9, 0, 13, 3, rotations=4, light_edges=0, default_keys=40, default_layout="duet",
               sides=2, timer_tokens=9, extra_timer_tokens=2)
DUET_TILES = (("green", 15), ("assassin", 1), ("bystander", 7))

EDITIONS = {e.name: e for e in (WORDS, PICTURES, DUET)}


def edition_for_rows(rows: int) -> Edition | None:
    """The competitive edition whose key grid has this many rows (version 1 payloads carry no
    edition name; a duet payload says ``D``)."""
    return next((e for e in EDITIONS.values() if e.rows == rows and not e.cooperative), None)
