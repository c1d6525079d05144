"""The documentation's text, for the tests that check its promises: README.md is the front page, and what it
promised before the docs site now lives on one of the site's pages (docs/**/*.md, navigation in mkdocs.yml)."""

from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
DOCS = ROOT / "docs"


def readme() -> str:
    return (ROOT / "README.md").read_text("utf-8")


def page(name: str) -> str:
    """One page of the site, by its path under docs/ (``commands/serve.md``)."""
    return (DOCS / name).read_text("utf-8")


def pages() -> list[Path]:
    """Every Markdown page of the site."""
    return sorted(DOCS.rglob("*.md"))


def user_docs() -> str:
    """README and every page of the site but docs/design.md (the design, not the user's documentation)."""
    return "\n\n".join([readme()] + [p.read_text("utf-8") for p in pages() if p != DOCS / "design.md"])
