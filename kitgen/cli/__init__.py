"""The ``kitgen`` command line (docs/design.md §2.5): a package of one module a command, thin — each
parses its options and calls the library. The kernel's commands (build, proof, verify, box, game,
preview, serve) are here; each game family adds its options to them and its own commands
(``keys``, ...), from its declaration (``kitgen.families``). No module here names a family.

Imports of the heavy parts (reportlab, qrcode) happen inside the commands, so ``kitgen --help``
answers at once.
"""

import textwrap

import click

from .. import __version__, families
from ..errors import KitgenError
from . import box, build, game, preview, proof, serve, verify
from .errors import EXIT_BAD_INPUT, EXIT_CHECK_FAILED, EXIT_INTERNAL, KitgenGroup, usage_message

__all__ = ["EXIT_BAD_INPUT", "EXIT_CHECK_FAILED", "EXIT_INTERNAL", "cli", "main", "usage_message"]
KERNEL = (build, proof, verify, box, game, preview, serve)


@click.group("kitgen", cls=KitgenGroup, context_settings={"help_option_names": ["-h", "--help"]},
             invoke_without_command=True)
@click.version_option(__version__, prog_name="kitgen")
@click.option("--debug", is_flag=True, help="Show a full traceback on errors (also accepted after the command).")
@click.pass_context
def cli(ctx, debug):
    """Print-ready kits for tabletop games."""
    if ctx.invoked_subcommand is None:
        click.echo(ctx.get_help())


def games_help(found) -> str:
    """The group's help: what kitgen makes, each game with its editions, and how to choose one; every
    line within 79 columns."""
    lines = ["Print-ready kits for tabletop games: cards, boards, keys with QR codes, rules and checks, "
             "for home printers, teachers and publishers.", "", "\b", "Games (kitgen build --game NAME):"]
    for family in found:
        about = family.summary + (" (the default)" if family.default else "")
        lines += textwrap.wrap(about, 77, initial_indent=f"  {family.name:<11}", subsequent_indent=" " * 13)
        if family.editions:
            lines.append(" " * 13 + "editions (--edition NAME):")
        for edition in family.editions:
            lines += textwrap.wrap(edition.summary, 77, initial_indent=f"{'':<15}{edition.name:<10}",
                                   subsequent_indent=" " * 25)
    return "\n".join(lines)


_assembled: list = []


def assemble() -> None:
    """The commands, once: the kernel's, built with every family's options, then each family's own.
    A family that cannot be loaded is one line (``families.load``), raised when kitgen runs."""
    if _assembled:
        if isinstance(_assembled[0], KitgenError):
            raise _assembled[0]
        return
    try:
        found = families.load()
        commands = [module.make() for module in KERNEL]
        for family in found:
            if family.commands:
                commands += families.resolve(family.commands)()
        names = [made.name for made in commands]
        twice = sorted({name for name in names if names.count(name) > 1})
        if twice:
            raise KitgenError(f"two commands are named {twice[0]!r}: a game family declares one kitgen or another "
                              "family has")
    except KitgenError as err:
        _assembled.append(err)
        raise
    for made in commands:
        cli.add_command(made)
    cli.help = games_help(found)
    _assembled.append(True)


cli.assemble = assemble
try:
    assemble()
except KitgenError:         # said in one line when kitgen runs (KitgenGroup.main)
    pass


def main(argv=None):
    """Entry point: ``kitgen`` as a program; errors are one line each (``KitgenGroup.main``)."""
    from .. import fonts

    # the first run on a machine cuts fonts (a few seconds, once a font): say so, terminal or not
    fonts.set_announcer(lambda line: click.echo(f"kitgen: {line}", err=True))
    cli.main(args=argv, prog_name="kitgen")
