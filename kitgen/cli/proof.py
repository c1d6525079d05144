"""``kitgen proof``: a publisher's proof PDF of a kit of any game; its family examines the kit and
writes the proof (docs/design.md §10)."""

import click

from .common import family_options, game_option, run_for_family
from .errors import command


def make() -> click.Command:
    @command("proof", short_help="A publisher's proof PDF of a kit: every check, every face.")
    @click.argument("kit_file", required=False, metavar="[KIT.yaml]")
    @click.option("--seed", metavar="TEXT", help="The seed of the kit (default: the kit's own).")
    @click.option("--out", "out_dir", default="out", show_default=True, metavar="DIR",
                  help="The proof goes to DIR/<kit id>-proof.pdf.")
    @click.option("--lang", metavar="LANG", help="Language of the labels; without KIT.yaml, that language's kit.")
    @game_option("proof")
    @family_options("proof")
    def proof(kit_file, game, **values):
        """A publisher's proof PDF of a kit: what its game checks (every word's or name's fit and glyphs,
        near-duplicates, what the seed deals) and every face. Exit 0 only when every check passes."""
        run_for_family("proof", kit_file, game, values)

    return proof
