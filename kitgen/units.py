"""Lengths written as strings with a unit ("3mm", "8.5in", "12pt") -> PDF points."""

import re

from .errors import KitgenError

POINTS_PER = {"pt": 1.0, "mm": 72 / 25.4, "cm": 72 / 2.54, "in": 72.0}
_LENGTH = re.compile(r"^\s*(-?\d+(?:\.\d+)?)\s*(pt|mm|cm|in)\s*$")


def to_points(value, *, where: str = "length") -> float:
    """Parse a length such as ``"3mm"`` into points. Bare 0 is allowed."""
    if value == 0 and not isinstance(value, bool):
        return 0.0
    if isinstance(value, str):
        match = _LENGTH.match(value)
        if match:
            return float(match.group(1)) * POINTS_PER[match.group(2)]
    raise KitgenError(f"{where}: {value!r} is not a length; write a number with a unit, e.g. 3mm, 0.5in or 12pt")


def mm(value: float) -> float:
    """Millimetres to points (for tests and benchmarks)."""
    return value * POINTS_PER["mm"]
