"""Commitments: a host publishes, before a game, a hash that binds them to a key they keep
secret, and reveals the key and a salt afterwards; anyone can then check that the key was
fixed before the first clue (docs/design.md §3.7).

    commitment = SHA-256( b"kitgen/commitment/v1\\n" || ASCII(payload) || b"\\n" || ASCII(salt) )

as 64 lower-case hex digits. The salt (32 hex digits) keeps the commitment from being
guessed by hashing every possible key; kitgen derives it from the host's secret, so the
same seed gives the same files."""

import hashlib
import hmac
import re

PREFIX = b"kitgen/commitment/v1\n"
SALT = re.compile(r"[0-9a-f]{32}")
DIGEST = re.compile(r"[0-9a-f]{64}")


def salt_for(secret: bytes) -> str:
    """A game's salt: 16 bytes of HMAC-SHA256(the game's secret, "kitgen/commit-salt/v1"), in hex."""
    return hmac.new(secret, b"kitgen/commit-salt/v1", hashlib.sha256).hexdigest()[:32]


def commit(payload: str, salt: str) -> str:
    """The commitment to ``payload`` with ``salt``."""
    return hashlib.sha256(PREFIX + payload.encode("ascii") + b"\n" + salt.encode("ascii")).hexdigest()


def matches(commitment: str, payload: str, salt: str) -> bool:
    return hmac.compare_digest(commit(payload, salt), commitment.strip().lower())
