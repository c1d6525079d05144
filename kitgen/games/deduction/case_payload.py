"""The QR payload of a case slip, version 1 (docs/design.md §10.5):

    KD1:<KIT>:<GAME>/<GAMES>:<HOLDER>/<PLAYERS>:<S>.<C>.<L>/<NS>.<NC>.<NL>:<CHK>

KIT is the kit id upper-cased; GAME the mini-game (1-3) of GAMES (3); HOLDER the
player (1-based) who keeps the slip, of PLAYERS; S, C, L the case's suspect, crime and
location, 1-based in the theme's lists, and NS, NC, NL the sizes of those lists (so a
seed alone deals the setup again); CHK the first 6 base32 characters of
HMAC-SHA256(the kit's deduction secret, everything before the last colon). Every
character is in the QR alphanumeric set."""

import base64
import hashlib
import hmac
import re
from dataclasses import dataclass

from kitgen.errors import KitgenError
from kitgen.games.deduction import facts
from kitgen.games.deduction.dealing import Case

PREFIX = "KD1"
KIT_ID = re.compile(r"[A-Z0-9-]{1,16}")
GRAMMAR = re.compile(r"KD1:([A-Z0-9-]{1,16}):([1-9])/([1-9]):([1-9])/([1-9]):"
                     r"([1-9][0-9]{0,2})\.([1-9][0-9]{0,2})\.([1-9][0-9]{0,2})/"
                     r"([1-9][0-9]{0,2})\.([1-9][0-9]{0,2})\.([1-9][0-9]{0,2}):([A-Z2-7]{6})")


def check_code(secret: bytes, body: str) -> str:
    digest = hmac.new(secret, body.encode("ascii"), hashlib.sha256).digest()
    return base64.b32encode(digest).decode("ascii")[:6]


@dataclass(frozen=True)
class Slip:
    kit: str
    game: int
    games: int
    holder: int
    players: int
    suspect: int            # 0-based, as in the theme
    crime: int
    location: int
    counts: facts.Counts
    check: str

    @property
    def body(self) -> str:
        c = self.counts
        return (f"{PREFIX}:{self.kit}:{self.game}/{self.games}:{self.holder}/{self.players}:"
                f"{self.suspect + 1}.{self.crime + 1}.{self.location + 1}/{c.suspects}.{c.crimes}.{c.locations}")

    @property
    def text(self) -> str:
        return f"{self.body}:{self.check}"

    @property
    def case(self) -> Case:
        return Case(self.holder, facts.left_of(self.holder, self.players), self.suspect, self.crime, self.location)


def encode(kit_id: str, game: int, players: int, case: Case, counts: facts.Counts, secret: bytes) -> str:
    kit = kit_id.upper()
    if not KIT_ID.fullmatch(kit):
        raise KitgenError(f"kit id {kit_id!r} cannot go in a QR payload: use 1-16 letters, digits or '-'")
    slip = Slip(kit, game, facts.MINI_GAMES, case.holder, players, case.suspect, case.crime, case.location,
                counts, "")
    return f"{slip.body}:{check_code(secret, slip.body)}"


def is_case_slip(text: str) -> bool:
    return isinstance(text, str) and text.strip().startswith(PREFIX + ":")


def decode(text: str) -> Slip:
    """Parse and structurally check a slip payload; KitgenError says what is wrong."""
    text = text.strip()
    shown = repr(text[:50]) + ("..." if len(text) > 50 else "")
    match = GRAMMAR.fullmatch(text)
    if not match:
        raise KitgenError(f"{shown} is not a kitgen case slip payload (the form is "
                          "KD1:KIT:GAME/3:PLAYER/PLAYERS:S.C.L/NS.NC.NL:CHECK)")
    kit, game, games, holder, players, s, c, loc, ns, nc, nl, chk = match.groups()
    game, games, holder, players = int(game), int(games), int(holder), int(players)
    s, c, loc, ns, nc, nl = (int(v) for v in (s, c, loc, ns, nc, nl))
    if games != facts.MINI_GAMES or game > games:
        raise KitgenError(f"{shown}: mini-game {game} of {games}; the game has {facts.MINI_GAMES}")
    if not facts.MIN_PLAYERS <= players <= facts.MAX_PLAYERS or holder > players:
        raise KitgenError(f"{shown}: player {holder} of {players}; the game takes "
                          f"{facts.MIN_PLAYERS} to {facts.MAX_PLAYERS} players")
    if players > min(ns, nc, nl):
        raise KitgenError(f"{shown}: {players} players, but a theme of {ns} suspects, {nc} crimes and {nl} locations "
                          f"deals at most {min(ns, nc, nl)} cases")
    if s > ns or c > nc or loc > nl or min(ns, nc, nl) < facts.MIN_OF_EACH or max(ns, nc) > nl:
        raise KitgenError(f"{shown}: the case {s}.{c}.{loc} does not fit a theme of {ns} suspects, {nc} crimes "
                          f"and {nl} locations")
    return Slip(kit, game, games, holder, players, s - 1, c - 1, loc - 1, facts.Counts(ns, nc, nl), chk)
