"""The QR payload of a key card, version 1 (docs/design.md §4):

    KG1:<KIT>:<N>/<TOTAL>:<FIRST>:<ROW>/<ROW>/...:<CHK>
"""

import base64
import hashlib
import hmac
import re
from collections import Counter
from dataclasses import dataclass

from kitgen.errors import KitgenError
from kitgen.games.codenames.editions import edition_for_rows
from kitgen.games.codenames.key_deck import KeyCard

PREFIX = "KG1"
KIT_ID = re.compile(r"[A-Z0-9-]{1,16}")     # fullmatch: "$" would let a final newline in


def check_code(secret: bytes, body: str) -> str:
    """6 base32 characters of HMAC-SHA256(secret, everything before the last colon)."""
    digest = hmac.new(secret, body.encode("ascii"), hashlib.sha256).digest()
    return base64.b32encode(digest).decode("ascii")[:6]


def encode(kit_id: str, key: KeyCard, secret: bytes) -> str:
    """The payload text for one key card of the kit ``kit_id``."""
    kit = kit_id.upper()
    if not KIT_ID.fullmatch(kit):
        raise KitgenError(f"kit id {kit_id!r} cannot go in a QR payload: use 1-16 letters, digits or '-'")
    body = f"{PREFIX}:{kit}:{key.number}/{key.total}:{key.starting_team}:{'/'.join(key.grid)}"
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


def decode(text: str) -> Payload:
    """Parse and structurally check a payload; KitgenError says what is wrong."""
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
    if len(fields) != 6:
        bad(f"it has {len(fields)} fields separated by ':', not 6 (KG1:KIT:N/TOTAL:R|B:ROWS:CHECK)")
    _, kit, numbers, first, rows, chk = fields
    if not KIT_ID.fullmatch(kit):
        bad(f"kit id {kit[:20]!r} is not 1-16 of A-Z, 0-9 and '-'")
    match = re.fullmatch(r"([1-9][0-9]{0,5})/([1-9][0-9]{0,5})", numbers)
    if not match:
        bad(f"{numbers[:20]!r} is not a key number like 7/40")
    if first not in ("R", "B"):
        bad(f"the starting team {first[:5]!r} is not R or B")
    grid = tuple(rows.split("/"))
    if not re.fullmatch(r"[RBNA]{5}(?:/[RBNA]{5}){3,4}", rows):
        bad("the grid is not 4 or 5 rows of 5 letters R, B, N or A separated by '/'")
    if not re.fullmatch(r"[A-Z2-7]{6}", chk):
        bad(f"the check code {chk[:10]!r} is not 6 characters of A-Z and 2-7")
    number, total = int(match[1]), int(match[2])
    if number > total:
        raise KitgenError(f"key number {number} is above the deck size {total}")
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
