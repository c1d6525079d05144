"""kitgen: print-ready PDF kits for tabletop games (docs/design.md)."""

__version__ = "0.1.0"
