"""The QR payload of a key card, version 1 (DESIGN 5.3):

    KG1:<KIT>:<N>/<TOTAL>:<FIRST>:<ROW>/<ROW>/...:<CHK>
"""

import base64
import hashlib
import hmac
import re
from collections import Counter
from dataclasses import dataclass

from .editions import edition_for_rows
from .errors import KitgenError
from .keys import KeyCard

PREFIX = "KG1"
KIT_ID = re.compile(r"^[A-Z0-9-]{1,16}$")
_PAYLOAD = re.compile(
    r"^KG1:(?P<kit>[A-Z0-9-]{1,16}):(?P<n>[1-9][0-9]{0,5})/(?P<total>[1-9][0-9]{0,5}):"
    r"(?P<first>[RB]):(?P<grid>[RBNA]{5}(?:/[RBNA]{5}){3,4}):(?P<chk>[A-Z2-7]{6})$")


def check_code(secret: bytes, body: str) -> str:
    """6 base32 characters of HMAC-SHA256(secret, everything before the last colon)."""
    digest = hmac.new(secret, body.encode("ascii"), hashlib.sha256).digest()
    return base64.b32encode(digest).decode("ascii")[:6]


def encode(kit_id: str, key: KeyCard, secret: bytes) -> str:
    """The payload text for one key card of the kit ``kit_id``."""
    kit = kit_id.upper()
    if not KIT_ID.match(kit):
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
    shown = text if len(text) <= 80 else text[:77] + "..."
    match = _PAYLOAD.match(text.strip()) if isinstance(text, str) else None
    if not match:
        raise KitgenError(f"{shown!r} is not a kitgen key payload (expected KG1:KIT:N/TOTAL:R|B:ROWS:CHECK)")
    grid = tuple(match["grid"].split("/"))
    edition = edition_for_rows(len(grid))
    number, total = int(match["n"]), int(match["total"])
    if number > total:
        raise KitgenError(f"key number {number} is above the deck size {total}")
    first = match["first"]
    other = "B" if first == "R" else "R"
    counts = Counter("".join(grid))
    want = (edition.starting_agents, edition.other_agents, edition.bystanders, edition.assassins)
    got = (counts[first], counts[other], counts["N"], counts["A"])
    if got != want:
        raise KitgenError(
            f"key {number}/{total} has {got[0]}/{got[1]}/{got[2]}/{got[3]} cards "
            f"(starting team/other/bystanders/assassin); the {edition.name} edition needs "
            f"{'/'.join(map(str, want))}")
    return Payload(match["kit"], number, total, first, grid, match["chk"])
