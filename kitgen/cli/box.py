"""``kitgen box``: tuck boxes (and stands) for a kit of any game, sized from its cards
(docs/design.md §8.12); the family says which card sets get one."""

import click

from .common import family_options, game_option, run_for_family
from .errors import command


def make() -> click.Command:
    @command("box", short_help="Tuck boxes for a kit's decks (and stands for its key cards).")
    @click.argument("kit_file", required=False, metavar="[KIT.yaml]")
    @click.option("--lang", metavar="LANG", help="Language of the labels; without KIT.yaml, that language's kit.")
    @game_option("box")
    @click.option("--paper", metavar="a4|letter", help="Paper size (default: the kit's, a4).")
    @click.option("--color", "colour", type=click.Choice(["rgb", "cmyk"]), default="rgb", show_default=True,
                  help="cmyk: every colour from its CMYK values, as build --color cmyk.")
    @click.option("--card-thickness", type=float, metavar="MM",
                  help="One card's thickness in millimetres; the box is as deep as the deck (default: the "
                       "layout's box.card_thickness, 0.3).")
    @click.option("--sleeved", is_flag=True, help="Cards in sleeves: each card thicker, and wider and taller by "
                                                  "the sleeve's margin (layout box.sleeve).")
    @click.option("--out", "out_dir", default="out", show_default=True, metavar="DIR",
                  help="boxes.pdf and boxes.json go into DIR/<kit id>/, beside the kit.")
    @family_options("box")
    def box(kit_file, game, **values):
        """A tuck box for each deck of a kit (sized from its cards, their count and thickness) and a
        stand for key cards: nets to cut, fold and glue, in DIR/<kit id>/boxes.pdf with boxes.json."""
        run_for_family("box", kit_file, game, values)

    return box
