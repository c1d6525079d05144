"""README documents every command and option the CLI accepts."""

from pathlib import Path

import click

from kitgen.cli import cli

README = (Path(__file__).resolve().parent.parent / "README.md").read_text()


def commands(group, prefix=()):
    for name, command in group.commands.items():
        path = prefix + (name,)
        if isinstance(command, click.Group):
            yield from commands(command, path)
        else:
            yield path, command


def test_every_command_and_option_is_in_the_readme():
    missing = []
    for path, command in commands(cli):
        if f"kitgen {' '.join(path)}" not in README:
            missing.append(f"kitgen {' '.join(path)}")
        for param in command.params:
            if isinstance(param, click.Option):
                for flag in param.opts:
                    if flag.startswith("--") and flag not in README:
                        missing.append(f"{' '.join(path)} {flag}")
    assert not missing, f"undocumented in README.md: {missing}"


def test_readme_has_the_two_setup_commands():
    assert "pip install -e . && kitgen build" in README
    assert "pip install -e '.[test]' && python -m pytest" in README
