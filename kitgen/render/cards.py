"""A set of double-sided cards of one size, as the imposer and writer see it."""

from collections.abc import Callable
from dataclasses import dataclass

from .sheet import CardSpec


@dataclass(frozen=True)
class CardSet:
    name: str                                   # file stem: keys, tiles, cases
    title: str                                  # printed title / PDF title
    spec: CardSpec
    count: int
    front: Callable[[object, int], None]        # draws card i upright, origin at its trim's bottom-left
    back: Callable[[object, int], None] | None  # None: single-sided cards


def card_spec(section) -> CardSpec:
    """The card geometry of a layout section (codename_card, key_card, tile)."""
    width, height = section.size
    return CardSpec(width, height, section.bleed, section.gutter)
