"""The docs site holds together (issue 27, point 4): every relative link and image in README.md resolves to a
file in the repository, and to a heading where it names an anchor; mkdocs.yml's nav lists every page under docs/
(mkdocs build --strict, which .ci/run runs, checks the site's own links and anchors)."""

import re
from pathlib import Path

import yaml

from docs_text import DOCS, ROOT, pages, readme

LINK = re.compile(r"!?\[[^\]]*\]\(([^)\s]+)\)")


def _slug(heading: str) -> str:
    """The anchor Python-Markdown's toc (MkDocs) and GitHub give a heading: lower case, code marks and
    punctuation dropped, spaces as hyphens."""
    text = re.sub(r"[`*_]", "", heading).strip().lower()
    text = re.sub(r"[^\w\s-]", "", text)
    return re.sub(r"[-\s]+", "-", text)


def _anchors(path: Path) -> set[str]:
    text, fence = [], False
    for line in path.read_text("utf-8").split("\n"):
        if line.startswith("```"):
            fence = not fence
        elif not fence and re.match(r"#{1,6} ", line):
            text.append(_slug(line.lstrip("#")))
    return set(text)


def _links(markdown: str) -> list[str]:
    prose = re.sub(r"```.*?```", "", markdown, flags=re.S)              # no links in code
    prose = re.sub(r"^(    |\t).*$", "", prose, flags=re.M)
    return [m.group(1) for m in LINK.finditer(prose)]


def test_every_relative_link_and_image_in_readme_resolves():
    links = [link for link in _links(readme()) if not re.match(r"[a-z]+:", link)]
    assert any(link.endswith(".png") for link in links) and any(link.endswith(".md") for link in links)
    broken = []
    for link in links:
        target, _, anchor = link.partition("#")
        path = (ROOT / target).resolve() if target else ROOT / "README.md"
        if not path.is_file() or ROOT not in path.parents:
            broken.append(link)
        elif anchor and anchor not in _anchors(path):
            broken.append(link)
    assert not broken, f"README.md links to what is not there: {broken}"


def test_readme_shows_a_picture_of_each_games_kit():
    images = [link for link in _links(readme()) if link.endswith(".png")]
    for picture in ("preview-codenames.png", "preview-pictures.png", "preview-duet-key.png",
                    "preview-deduction-board.png"):
        assert f"docs/{picture}" in images, picture


def test_readme_is_a_front_page():
    assert len(readme().splitlines()) <= 300


def _nav_pages(nav) -> list[str]:
    found = []
    for item in nav:
        value = next(iter(item.values())) if isinstance(item, dict) else item
        found += _nav_pages(value) if isinstance(value, list) else [value]
    return found


def test_the_nav_lists_every_page_under_docs_once():
    config = yaml.safe_load((ROOT / "mkdocs.yml").read_text("utf-8"))
    assert config["docs_dir"] == "docs" and config["strict"] is True
    listed = _nav_pages(config["nav"])
    assert len(listed) == len(set(listed))
    assert set(listed) == {p.relative_to(DOCS).as_posix() for p in pages()}
    assert "design.md" in listed


def test_strict_mode_fails_on_every_broken_link_kind_and_fetches_nothing():
    config = yaml.safe_load((ROOT / "mkdocs.yml").read_text("utf-8"))
    assert config["validation"] == {name: "warn" for name in
                                    ("omitted_files", "not_found", "absolute_links", "unrecognized_links", "anchors")}
    assert config["theme"]["font"] is False
    assert "previews.py" in config["exclude_docs"]


def test_the_site_is_built_in_ci_before_the_tests():
    lines = (ROOT / ".ci" / "run").read_text().strip().split("\n")
    assert ".[docs]" in "\n".join(lines[:-1]) and "mkdocs build --strict --site-dir" in "\n".join(lines[:-1])
    assert "site/" in (ROOT / ".gitignore").read_text().split()
