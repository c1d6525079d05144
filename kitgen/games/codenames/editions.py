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

    @property
    def cells(self) -> int:
        return self.rows * self.cols

    def tiles(self) -> dict[str, int]:
        """Agent tiles per type; the double agent is red on one side, blue on the other."""
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

EDITIONS = {e.name: e for e in (WORDS, PICTURES)}


def edition_for_rows(rows: int) -> Edition | None:
    """The edition whose key grid has this many rows (payloads carry no edition name)."""
    return next((e for e in EDITIONS.values() if e.rows == rows), None)
