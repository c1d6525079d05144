"""``kitgen game``: single games for a lesson or an online host, for the families that make them."""

import click

from .. import families
from .common import family_options, game_option, run_for_family
from .errors import command


def make() -> click.Command:
    @command("game", short_help="Single games for a lesson or an online host, with their keys.")
    @click.option("--lang", metavar="LANG",
                  help=f"Language of the labels ({', '.join(families.languages('game'))}); without --deck, its "
                       "built-in deck.")
    @click.option("--seed", metavar="TEXT", help="The host's secret: codes, boards and keys all come from it.")
    @click.option("--ink", type=click.Choice(["normal", "saver"]), default="normal", show_default=True,
                  help="saver: outlines, light tints and symbols, readable in black and white.")
    @click.option("--layout", metavar="NAME|PATH", help="The layout of the board and key pages (its game_sheet "
                                                        "section); default: the edition's.")
    @click.option("--out", "out_dir", default="out", show_default=True, metavar="DIR",
                  help="The games go into DIR/games-<code of game 1>/.")
    @game_option("game")
    @family_options("game")
    def game(game, **values):
        """Single games for a lesson or an online host: boards, and their keys for those who
        give the clues. Text formats give a public board and a captain board per game."""
        run_for_family("game", None, game, values)

    return game
