"""kitgen: print-ready PDF kits for Codenames-style games."""

__version__ = "0.1.0"
