"""The QR payload of a key card, version 1 (docs/design.md §4):

    KG1:<KIT>:<N>/<TOTAL>:<FIRST>:<ROW>/<ROW>/...:<CHK>

and of a two-sided duet key (docs/design.md §4.6):

    KG1:<KIT>:<N>/<TOTAL>:D:<ROWS-A>:<ROWS-B>:<CHK>
"""

import base64
import hashlib
import hmac
import re
from collections import Counter
from dataclasses import dataclass

from kitgen.errors import KitgenError
from kitgen.games.codenames import duet_keys
from kitgen.games.codenames.editions import edition_for_rows
from kitgen.games.codenames.key_deck import KeyCard

PREFIX = "KG1"
KIT_ID = re.compile(r"[A-Z0-9-]{1,16}")     # fullmatch: "$" would let a final newline in
DUET = "D"                                  # the duet edition's mark where v1 has the starting team
DUET_FORM = "KG1:KIT:N/TOTAL:D:ROWS-A:ROWS-B:CHECK"
DUET_SIDE = re.compile(r"[GNA]{5}(?:/[GNA]{5}){4}")


def check_code(secret: bytes, body: str) -> str:
    """6 base32 characters of HMAC-SHA256(secret, everything before the last colon)."""
    digest = hmac.new(secret, body.encode("ascii"), hashlib.sha256).digest()
    return base64.b32encode(digest).decode("ascii")[:6]


def encode(kit_id: str, key: KeyCard, secret: bytes) -> str:
    """The payload text for one key card of the kit ``kit_id``."""
    kit = _kit_field(kit_id)
    body = f"{PREFIX}:{kit}:{key.number}/{key.total}:{key.starting_team}:{'/'.join(key.grid)}"
    return f"{body}:{check_code(secret, body)}"


def _kit_field(kit_id: str) -> str:
    """The kit id as a payload carries it, upper-cased; KitgenError when it cannot go in one."""
    kit = kit_id.upper()
    if not KIT_ID.fullmatch(kit):
        raise KitgenError(f"kit id {kit_id!r} cannot go in a QR payload: use 1-16 letters, digits or '-'")
    return kit


def _duet_body(kit: str, number: int, total: int, side_a, side_b) -> str:
    """A duet payload up to its last ':' (docs/design.md §4.6)."""
    return f"{PREFIX}:{kit}:{number}/{total}:{DUET}:{'/'.join(side_a)}:{'/'.join(side_b)}"


def encode_duet(kit_id: str, key: duet_keys.DuetKey, secret: bytes) -> str:
    """The payload text for one duet key of the kit ``kit_id``: both sides, B's in A's orientation."""
    body = _duet_body(_kit_field(kit_id), key.number, key.total, key.side_a, key.side_b)
    return f"{body}:{check_code(secret, body)}"


@dataclass(frozen=True)
class Payload:
    kit: str
    number: int
    total: int
    starting_team: str
    grid: tuple[str, ...]
    check: str

    @property
    def body(self) -> str:
        return self.text.rsplit(":", 1)[0]

    @property
    def text(self) -> str:
        return f"{PREFIX}:{self.kit}:{self.number}/{self.total}:{self.starting_team}:{'/'.join(self.grid)}:{self.check}"


@dataclass(frozen=True)
class DuetPayload:
    """A duet key's payload (docs/design.md §4.6): side A as A's player sees it, side B's cells in
    side A's orientation."""

    kit: str
    number: int
    total: int
    side_a: tuple[str, ...]
    side_b: tuple[str, ...]
    check: str

    @property
    def body(self) -> str:
        return _duet_body(self.kit, self.number, self.total, self.side_a, self.side_b)

    @property
    def text(self) -> str:
        return f"{self.body}:{self.check}"


def decode(text: str) -> Payload | DuetPayload:
    """Parse and structurally check a payload; KitgenError says what is wrong. A duet key's
    payload (``D`` in the fourth field) gives a ``DuetPayload``, any other a ``Payload``."""
    if not isinstance(text, str):
        raise KitgenError("a payload is text")
    text = text.strip()
    shown = repr(text[:40])
    if len(shown) > 60 or len(text) > 40:          # escapes can make a short text's repr long
        shown = shown[:60] + "..."
    fields = text.split(":")

    def bad(why: str):
        raise KitgenError(f"{shown} is not a kitgen key payload: {why}")

    if fields[0] != PREFIX:
        bad(f"it should start with {PREFIX}: (the form is KG1:KIT:N/TOTAL:R|B:ROWS:CHECK)")
    if len(fields) > 3 and fields[3] == DUET:
        return _decode_duet(fields, bad)
    if len(fields) != 6:
        bad(f"it has {len(fields)} fields separated by ':', not 6 (KG1:KIT:N/TOTAL:R|B:ROWS:CHECK)")
    _, kit, numbers, first, rows, chk = fields
    match = _kit_and_numbers(kit, numbers, bad)
    if first not in ("R", "B"):
        bad(f"the starting team {first[:5]!r} is not R or B")
    grid = tuple(rows.split("/"))
    if not re.fullmatch(r"[RBNA]{5}(?:/[RBNA]{5}){3,4}", rows):
        bad("the grid is not 4 or 5 rows of 5 letters R, B, N or A separated by '/'")
    number, total = _check_and_numbers(chk, match, bad)
    edition = edition_for_rows(len(grid))
    other = "B" if first == "R" else "R"
    counts = Counter("".join(grid))
    want = (edition.starting_agents, edition.other_agents, edition.bystanders, edition.assassins)
    got = (counts[first], counts[other], counts["N"], counts["A"])
    if got != want:
        raise KitgenError(
            f"key {number}/{total} has {got[0]}/{got[1]}/{got[2]}/{got[3]} cards "
            f"(starting team/other/bystanders/assassin); the {edition.name} edition needs "
            f"{'/'.join(map(str, want))}")
    return Payload(kit, number, total, first, grid, chk)


def _kit_and_numbers(kit: str, numbers: str, bad) -> re.Match:
    """The kit and number fields checked (§4.4); the number field's match."""
    if not KIT_ID.fullmatch(kit):
        bad(f"kit id {kit[:20]!r} is not 1-16 of A-Z, 0-9 and '-'")
    match = re.fullmatch(r"([1-9][0-9]{0,5})/([1-9][0-9]{0,5})", numbers)
    if not match:
        bad(f"{numbers[:20]!r} is not a key number like 7/40")
    return match


def _check_and_numbers(chk: str, match: re.Match, bad) -> tuple[int, int]:
    """The check field checked, then the key number against the deck size (§4.4)."""
    if not re.fullmatch(r"[A-Z2-7]{6}", chk):
        bad(f"the check code {chk[:10]!r} is not 6 characters of A-Z and 2-7")
    number, total = int(match[1]), int(match[2])
    if number > total:
        raise KitgenError(f"key number {number} is above the deck size {total}")
    return number, total


def _decode_duet(fields: list[str], bad) -> DuetPayload:
    """A duet payload's structural checks (docs/design.md §4.6), after its KG1 and D."""
    if len(fields) != 7:
        bad(f"it has {len(fields)} fields separated by ':', not 7 ({DUET_FORM})")
    _, kit, numbers, _, rows_a, rows_b, chk = fields
    match = _kit_and_numbers(kit, numbers, bad)
    for name, rows in (("A", rows_a), ("B", rows_b)):
        if not DUET_SIDE.fullmatch(rows):
            bad(f"side {name}'s grid is not 5 rows of 5 letters G, N or A separated by '/' ({DUET_FORM})")
    number, total = _check_and_numbers(chk, match, bad)
    side_a, side_b = tuple(rows_a.split("/")), tuple(rows_b.split("/"))
    want = (duet_keys.GREENS, duet_keys.ASSASSINS, duet_keys.BYSTANDERS)
    for name, side in (("A", side_a), ("B", side_b)):
        counts = Counter("".join(side))
        got = (counts[duet_keys.GREEN], counts[duet_keys.ASSASSIN], counts[duet_keys.BYSTANDER])
        if got != want:
            raise KitgenError(
                f"key {number}/{total} side {name} has {got[0]}/{got[1]}/{got[2]} cards "
                f"(green/assassins/bystanders); each side of a duet key needs {'/'.join(map(str, want))}")
    pairs = Counter(zip("".join(side_a), "".join(side_b)))
    wrong = [f"{a}/{b} {pairs[a, b]} (needs {n})" for (a, b), n in duet_keys.OVERLAP.items() if pairs[a, b] != n]
    if wrong:
        raise KitgenError(f"key {number}/{total}: its sides overlap wrongly, cells side A/side B: "
                          f"{', '.join(wrong)}")
    return DuetPayload(kit, number, total, side_a, side_b, chk)
