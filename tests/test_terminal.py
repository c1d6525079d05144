"""The terminal: click's usage errors read like kitgen's own errors (one line, the same prefix and
case, what to write instead, where the help is), and ``kitgen`` alone lists every command with its
whole description, never cut short with "..."."""

import os
import re
import subprocess
import sys
from pathlib import Path

import click
import pytest
from click.testing import CliRunner

from kitgen.cli import cli, usage_message

DESIGN = (Path(__file__).resolve().parent.parent / "docs" / "design.md").read_text()


def run(*args, columns=80):
    """kitgen in a terminal COLUMNS wide. CliRunner fixes the width of help at 80, so it is given as
    click takes it from a real terminal: its width less 2, at most 78 and at least 50."""
    return CliRunner().invoke(cli, list(args), terminal_width=max(min(columns, 80) - 2, 50))


def usage_exit_code() -> int:
    """The exit code docs/design.md §9.1 gives usage errors."""
    rows = re.findall(r"^\| (\d) \| (.*) \|$", DESIGN, re.MULTILINE)
    codes = [int(code) for code, when in rows if "usage error" in when]
    assert len(codes) == 1, rows
    return codes[0]


def kitgen_error_prefix() -> str:
    """What kitgen's own errors (a KitgenError) start with, before the file they name."""
    result = run("verify", "nosuchfile.png")
    assert result.exit_code == 2 and result.stderr.count("\n") == 1, result.output
    return result.stderr[:result.stderr.index("nosuchfile.png")]


USAGE_ERRORS = {   # id: (arguments, what the line says, the command whose help it points to)
    "no such option": (["build", "--colour", "red"], "unknown option --colour; did you mean --color", "kitgen build"),
    "no such option, before the command": (["--seed", "x", "build"], "unknown option --seed", "kitgen"),
    "no such short option": (["build", "-x"], "unknown option -x", "kitgen build"),
    "option without its value": (["build", "--deck"], "--deck needs a value; write --deck PATH", "kitgen build"),
    "flag given a value": (["build", "--per-card=yes"], "--per-card takes no value; write --per-card alone",
                           "kitgen build"),
    "missing argument": (["verify"], "kitgen verify needs TARGET; write kitgen verify [OPTIONS] TARGET",
                         "kitgen verify"),
    "missing argument of a deck command": (["deck", "new"], "kitgen deck new needs NAME", "kitgen deck new"),
    "bad value: not a number": (["build", "--keys", "many"], "--keys must be a whole number, not 'many'",
                                "kitgen build"),
    "bad value: out of range": (["keys", "--count", "0"], "--count must be a whole number from 1 to 100000, not 0",
                                "kitgen keys"),
    "bad choice": (["build", "--duplex", "diagonal"], "--duplex must be one of long, short, none, fold, not 'diagonal'",
                   "kitgen build"),
    "bad choice after =": (["game", "--format=doc"], "--format must be one of pdf, markdown, bbcode, html, text, "
                                                     "not 'doc'", "kitgen game"),
    "no such command": (["buidl"], "no kitgen command 'buidl'; did you mean build?", "kitgen"),
    "no such command, nothing close": (["nosuch"], "no kitgen command 'nosuch'; the commands are box, build, "
                                                   "calibrate, deck, game, keys, preview, proof, serve, verify, web",
                                       "kitgen"),
    "no such deck command": (["deck", "chek"], "no kitgen deck command 'chek'; did you mean check?", "kitgen deck"),
    "extra argument": (["verify", "a", "b"], "unexpected argument 'b': kitgen verify takes one TARGET; quote it "
                                             "if it has spaces", "kitgen verify"),
    "extra arguments": (["build", "a", "b", "c"], "unexpected arguments 'b', 'c': kitgen build takes at most one "
                                                  "KIT.yaml", "kitgen build"),
    "argument to a command without any": (["keys", "5"], "unexpected argument '5': kitgen keys takes options only",
                                          "kitgen keys"),
}


@pytest.mark.parametrize("args, text, command", USAGE_ERRORS.values(), ids=USAGE_ERRORS.keys())
def test_a_usage_error_is_one_line_in_kitgens_style(args, text, command):
    prefix = kitgen_error_prefix()
    result = run(*args)
    assert result.exit_code == usage_exit_code(), result.output
    assert result.stdout == ""
    assert len(result.output.splitlines()) == len(result.stderr.splitlines()) == 1, result.output
    line = result.stderr.strip()
    assert line.startswith(prefix), line
    assert text in line
    assert line.endswith(f" (see '{command} --help')"), line
    message = line[len(prefix):]
    assert message[0] == "-" or message[0].islower(), line              # kitgen's case: no capital to start
    assert not re.search(r"\.( |$)", message), line                     # nor full stops
    for clicks_own in ("Usage:", "Try ", "Error:", "Invalid value", "No such", "Missing", "Got unexpected"):
        assert clicks_own not in result.output


def test_any_other_usage_error_reads_as_kitgen_writes():
    """click's wording, where kitgen has none of its own, in kitgen's case: no capital, no full stop."""
    build = click.Context(cli.commands["build"], info_name="build", parent=click.Context(cli, info_name="kitgen"))
    assert usage_message(click.UsageError("Something is wrong.", build)) == \
        "something is wrong (see 'kitgen build --help')"
    assert usage_message(click.UsageError("YAML is wrong.", build)).startswith("YAML is wrong (")


def test_kitgen_as_a_program_prints_the_same_line(tmp_path):
    """The ``kitgen`` entry point (``python -m kitgen``) and the click command print alike."""
    args = ["build", "--colour", "red"]
    program = subprocess.run([sys.executable, "-m", "kitgen", *args], cwd=tmp_path, capture_output=True, text=True)
    assert (program.returncode, program.stdout, program.stderr) == (2, "", run(*args).stderr)


def test_debug_anywhere_still_gives_kitgens_line():
    result = run("build", "--keys", "many", "--debug")
    assert result.exit_code == 2
    assert result.stderr == "kitgen: error: --keys must be a whole number, not 'many' (see 'kitgen build --help')\n"


def test_a_command_group_alone_shows_its_help_as_kitgen_alone_does():
    for args in ([], ["deck"]):
        result = run(*args)
        assert result.exit_code == 0 and result.stderr == ""
        # click 8.4 writes COMMAND, 8.5 [COMMAND]
        usage = re.escape(f"Usage: {' '.join(['kitgen', *args])} [OPTIONS] ") + r"\[?COMMAND\]? \[ARGS\]\.\.\."
        assert re.match(usage, result.stdout), result.stdout[:80]
        assert "\nCommands:\n" in result.stdout


def whole_description(command: click.Command) -> str:
    """What the command list should show: ``short_help``, else the help's whole first sentence."""
    if command.short_help:
        return command.short_help
    return re.split(r"(?<=\.)\s", " ".join(command.help.split()))[0]


def listed(output: str) -> list[list[str]]:
    """The rows of the Commands section: each a command and its description, wrapped lines joined."""
    rows = []
    for line in output.split("Commands:\n", 1)[1].splitlines():
        if line.startswith("  ") and not line.startswith("   "):
            rows.append(line.split(None, 1))
        elif line.strip():
            rows[-1][1] += " " + line.strip()
    return rows


@pytest.mark.parametrize("columns", [80, 120])
@pytest.mark.parametrize("args", [[], ["deck"]], ids=["kitgen", "kitgen deck"])
def test_the_command_list_shows_each_whole_description_on_one_line(args, columns):
    group = cli.commands[args[0]] if args else cli
    output = run(*args, columns=columns).stdout
    section = output.split("Commands:\n", 1)[1].splitlines()
    assert len(section) == len(group.commands), output                  # one line each: nothing wrapped
    assert all(len(line) < 80 for line in section), output
    assert "..." not in "\n".join(section)
    rows = listed(output)
    assert [name for name, _ in rows] == sorted(group.commands)
    for name, description in rows:
        assert description == whole_description(group.commands[name])
        assert description[0].isupper() and description.endswith("."), description


@pytest.mark.parametrize("columns", [80, 120])
def test_the_program_lists_commands_as_tested(tmp_path, columns):
    """In a real terminal (COLUMNS), ``kitgen`` prints the command list the tests above check."""
    program = subprocess.run([sys.executable, "-m", "kitgen"], cwd=tmp_path, capture_output=True, text=True,
                             env={**os.environ, "COLUMNS": str(columns)})
    assert program.returncode == 0
    assert program.stdout == run(columns=columns).stdout


def test_a_narrow_terminal_wraps_descriptions_rather_than_cutting_them():
    output = run(columns=50).stdout
    assert "..." not in output.split("Commands:\n", 1)[1]
    assert [description for _, description in listed(output)] == [
        whole_description(cli.commands[name]) for name in sorted(cli.commands)]
