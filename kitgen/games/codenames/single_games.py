"""Single games for a lesson or an online host (docs/design.md §3.5): boards dealt from a
deck, each with its own key, as plain data.

A game is named by a public code. The code, the board and the key all come
from the host's secret seed, so the code identifies a game to whoever holds
the seed and tells nobody else anything about its key: two hosts with
different seeds and the same code get different keys."""

import base64
import hashlib
import hmac
from dataclasses import dataclass

from kitgen import commitment
from kitgen.games.codenames import duet_keys, key_deck, key_payload
from kitgen.games.codenames.duet_keys import DuetKey
from kitgen.games.codenames.editions import Edition
from kitgen.games.codenames.key_deck import KeyCard, kit_secret
from kitgen.seeded import Stream


@dataclass(frozen=True)
class Game:
    number: int                   # in this run, 1-based
    total: int
    code: str                     # public: printed on the board
    items: tuple                  # words (str) or pictures, row by row
    key: KeyCard | DuetKey        # a duet game's: both sides, in side A's orientation
    payload: str
    salt: str = ""                # revealed with the payload after the game
    commitment: str = ""          # public: SHA-256 binding the host to the payload (kitgen/commitment.py)

    @property
    def kit_id(self) -> str:
        return f"G-{self.code}"


def game_code(seed: str, number: int) -> str:
    """The public code of game ``number``: 6 base32 characters of HMAC(secret, number)."""
    digest = hmac.new(kit_secret(seed), f"game-code/v1/{number}".encode(), hashlib.sha256).digest()
    return base64.b32encode(digest).decode()[:6]


def game_seed(seed: str, code: str) -> str:
    """The seed one game's key is drawn from: the host's seed and the game's code.
    ``kitgen verify PAYLOAD --seed "<seed>/game/<code>"`` checks that key."""
    return f"{seed}/game/{code}"


def game_key(seed: str, code: str, edition: Edition) -> KeyCard | DuetKey:
    """The game's key: the first of a deck of one drawn from the game's seed (a duet key for the
    duet edition, whose streams' labels name it: docs/design.md §3.5)."""
    if edition.cooperative:
        return duet_keys.generate(game_seed(seed, code), 1)[0]
    return key_deck.generate(game_seed(seed, code), edition, 1)[0]


def _key_and_payload(seed: str, code: str, edition: Edition) -> tuple[KeyCard | DuetKey, str, bytes]:
    """The game's key numbered 1/1, its payload (kit id ``G-<code>``) signed with the game's own
    secret, and that secret."""
    key = game_key(seed, code, edition)
    game_secret = kit_secret(game_seed(seed, code))
    if edition.cooperative:
        return key, key_payload.encode_duet(f"G-{code}", key, game_secret), game_secret
    key = KeyCard(1, 1, key.starting_team, key.grid)
    return key, key_payload.encode(f"G-{code}", key, game_secret), game_secret


def deal(seed: str, items, edition: Edition, count: int) -> list[Game]:
    """``count`` games from ``items`` (words or pictures). No item appears twice in
    a game. Items are dealt from the whole deck shuffled afresh each round, so the
    first games of a run use every item once before any comes back; an item already
    on the board being dealt when a round begins is passed over in that round."""
    items = list(items)
    cells = edition.cells
    if len(items) < cells:
        raise ValueError(f"a game needs {cells} items, the deck has {len(items)}")
    secret = kit_secret(seed)
    round_number, pool = 0, []
    games = []
    for number in range(1, count + 1):
        board: list = []
        while len(board) < cells:
            if not pool:
                round_number += 1
                pool = Stream(secret, f"games/v1/deal/{round_number}").shuffle(list(items))
            item = pool.pop(0)
            if item not in board:
                board.append(item)
        code = game_code(seed, number)
        key, text, game_secret = _key_and_payload(seed, code, edition)
        salt = commitment.salt_for(game_secret)
        games.append(Game(number, count, code, tuple(board), key, text, salt, commitment.commit(text, salt)))
    return games


def rows(game: Game, edition: Edition) -> list[tuple]:
    """The board's items row by row."""
    return [game.items[r * edition.cols:(r + 1) * edition.cols] for r in range(edition.rows)]
