"""Seeded randomness for every game family: deterministic streams of unbiased integers
drawn from HMAC-SHA256, never from Python's ``random`` module, so the same seed deals
the same cards on any machine and Python version (docs/design.md §3.2)."""

import hashlib
import hmac


def secret(purpose: bytes, seed: str) -> bytes:
    """A family's secret for a seed: HMAC-SHA256 keyed by ``purpose`` (such as
    ``b"kitgen/kit-secret/v1"``) over the seed's UTF-8 bytes."""
    return hmac.new(purpose, seed.encode("utf-8"), hashlib.sha256).digest()


class Stream:
    """A deterministic stream of unbiased integers from the blocks
    HMAC-SHA256(secret, UTF-8(label) || "/" || counter as 8 bytes, big-endian)."""

    def __init__(self, secret: bytes, label: str):
        self._secret = secret
        self._label = label.encode("utf-8")
        self._counter = 0
        self._pool = b""

    def _bytes(self, n: int) -> bytes:
        while len(self._pool) < n:
            block = self._label + b"/" + self._counter.to_bytes(8, "big")
            self._pool += hmac.new(self._secret, block, hashlib.sha256).digest()
            self._counter += 1
        out, self._pool = self._pool[:n], self._pool[n:]
        return out

    def below(self, n: int) -> int:
        """A uniform integer in [0, n), by rejection sampling on 32-bit draws."""
        if not 0 < n <= 1 << 32:
            raise ValueError(f"range {n} out of bounds")
        limit = (1 << 32) - (1 << 32) % n
        while True:
            x = int.from_bytes(self._bytes(4), "big")
            if x < limit:
                return x % n

    def shuffle(self, items: list) -> list:
        """Fisher-Yates shuffle in place; returns the list."""
        for i in range(len(items) - 1, 0, -1):
            j = self.below(i + 1)
            items[i], items[j] = items[j], items[i]
        return items
