"""README or the docs site documents every command and option the CLI accepts; docs/design.md agrees with the code."""

import re
from pathlib import Path

import click

from kitgen.cli import cli

from docs_text import readme, user_docs

README = readme()
DOCUMENTED = user_docs()          # README and the site's pages


def commands(group, prefix=()):
    for name, command in group.commands.items():
        path = prefix + (name,)
        if isinstance(command, click.Group):
            yield from commands(command, path)
        else:
            yield path, command


def test_every_command_and_option_is_in_the_readme_or_the_site():
    missing = []
    for path, command in commands(cli):
        if f"kitgen {' '.join(path)}" not in DOCUMENTED:
            missing.append(f"kitgen {' '.join(path)}")
        for param in command.params:
            if isinstance(param, click.Option):
                for flag in param.opts:
                    if flag.startswith("--") and flag not in DOCUMENTED:
                        missing.append(f"{' '.join(path)} {flag}")
    assert not missing, f"undocumented in README.md and docs/: {missing}"


def test_readme_has_the_two_setup_commands():
    assert "pip install -e . && kitgen build" in README
    assert "pip install -e '.[test]' && python -m pytest" in README


DESIGN = (Path(__file__).resolve().parent.parent / "docs" / "design.md").read_text()


def test_the_design_documents_test_vectors_are_what_the_code_gives():
    """docs/design.md §3.6 lets anyone re-implement the key algorithm: its vectors must hold."""
    from kitgen import seeded
    from kitgen.games.codenames import editions, key_deck, key_payload, single_games

    section = DESIGN[DESIGN.index("### 3.6 Test vectors"):DESIGN.index("## 4. QR payload")]
    secret = key_deck.kit_secret("kitgen classic-en 2026")
    assert secret.hex() in section
    assert seeded.Stream(secret, "keys/v1/words/40/first")._bytes(4).hex() in section
    for seed, edition, count in (("kitgen classic-en 2026", editions.WORDS, 40),
                                 ("kitgen classic-pictures 2026", editions.PICTURES, 60)):
        kit = "CLASSIC-EN" if edition is editions.WORDS else "CLASSIC-PICTURES"
        deck = key_deck.generate(seed, edition, count)
        shown = re.findall(rf"KG1:{kit}:\d+/{count}:[RB]:[RBNA/]+:[A-Z2-7]{{6}}", section)
        assert shown
        for text in shown:
            number = int(text.split(":")[2].split("/")[0])
            assert key_payload.encode(kit, deck[number - 1], key_deck.kit_secret(seed)) == text
    firsts = ", ".join(k.starting_team for k in key_deck.generate("kitgen classic-en 2026", editions.WORDS, 3))
    assert f"starts {firsts}." in section
    codes = [single_games.game_code("kitgen classic-en 2026", n) for n in (1, 2)]
    assert f"`{codes[0]}`, `{codes[1]}`" in section
    assert str(seeded.Stream(key_deck.kit_secret("x"), "t").shuffle(list(range(10)))) in section


def test_readme_and_design_cite_only_documents_in_the_repository():
    """Code, README and the site cite docs/design.md, never the old brief outside the repository."""
    root = Path(__file__).resolve().parent.parent
    texts = [DOCUMENTED, DESIGN] + [p.read_text() for p in (root / "kitgen").rglob("*.py")]
    assert not any("DESIGN " in t or "shared/DESIGN" in t for t in texts)
    for section in {m for t in texts for m in re.findall(r"design\.md §(\d+(?:\.\d+)?)", t)}:
        assert f"## {section}. " in DESIGN or f"### {section} " in DESIGN, f"docs/design.md has no section {section}"
