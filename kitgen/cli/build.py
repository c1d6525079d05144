"""``kitgen build``: a whole kit of any game. The kernel's options are here; each family adds its own
(``--deck``, ``--players``, ...) and builds its kit (docs/design.md §2.5)."""

import click

from .. import families
from ..errors import KitgenError
from .common import family_options, game_option, parse_offset, pdfx_profile, run_for_family
from .errors import command


def make() -> click.Command:
    default = families.default()
    languages = ", ".join(families.languages("build"))
    games = ", ".join(f"--game {f.name}" for f in families.taking("build") if not f.default)

    @command("build", short_help="Build a whole kit of any game: cards, boards, rules and keys.")
    @click.argument("kit_file", required=False, metavar="[KIT.yaml]")
    @click.option("--seed", metavar="TEXT",
                  help="The seed of everything dealt: keys, cards, cases (default: the kit's own).")
    @click.option("--out", "out_dir", default="out", show_default=True, metavar="DIR",
                  help="The kit goes into DIR/<kit id>/.")
    @click.option("--paper", metavar="a4|letter", help="Paper size (default: the kit's, a4).")
    @click.option("--duplex", type=click.Choice(["long", "short", "none", "fold"]),
                  help="Double-sided printing: flip on the long or short edge, or none; fold: each front and its "
                       "back side by side on one side of the sheet, to fold and cut (default: long).")
    @click.option("--lang", metavar="LANG",
                  help=f"Language of every printed label ({languages}); without KIT.yaml or --deck, the built-in "
                       "kit of that language.")
    @click.option("--ink", type=click.Choice(["normal", "saver"]), default="normal", show_default=True,
                  help="saver: outlines, light tints and symbols in place of solid colour, readable in black and "
                       "white.")
    @click.option("--layout", metavar="NAME|PATH", help="The layout: a built-in name or a YAML file that extends "
                                                        "one (default: the kit file's layout:, or the game's default).")
    @click.option("--color", "colour", type=click.Choice(["rgb", "cmyk"]), default="rgb", show_default=True,
                  help="cmyk: every colour from its CMYK values, and no RGB in the PDFs (for presses).")
    @click.option("--pdfx", is_flag=True, help="With --color cmyk: every PDF as press-ready PDF/X-1a:2003, within "
                                               "the layout's ink limit.")
    @click.option("--icc", metavar="PATH", help="--pdfx: your press's CMYK ICC profile (default: ISO Coated v2 "
                                                "300%, from Debian's scribus-data).")
    @click.option("--per-card", is_flag=True,
                  help="Also <part>-cards.pdf: one face a page, with TrimBox and BleedBox.")
    @click.option("--png", "png_dpi", type=click.IntRange(36, 1200), metavar="[DPI]", is_flag=False,
                  flag_value=300, help="Also every face as PNG (with and without bleed), at 300 dpi or the DPI "
                                       "given.")
    @click.option("--pod", type=click.Choice(["tgc", "mpc", "dtc"]),
                  help="Also the upload of a print-on-demand service: tgc (The Game Crafter), mpc "
                       "(MakePlayingCards), dtc (DriveThruCards), into pod-<service>/.")
    @click.option("--back-offset", metavar="X,Y", help="Move backs by X,Y mm against duplex misregistration "
                                                        "(measure it with kitgen calibrate).")
    @click.option("--cut-lines", is_flag=True,
                  help="Full-length cut lines in the margins instead of short crop marks.")
    @click.option("--slug", is_flag=True, help="Proof marks: a slug line (kit, edition, language, version, seed "
                                               "hash, page) and registration marks.")
    @game_option("build")
    @click.option("--box", is_flag=True, help="Also boxes.pdf: a tuck box for each deck (and stands, where the "
                                              "game has them; see kitgen box).")
    @click.option("--card-thickness", type=float, metavar="MM", help="With --box: one card's thickness in mm "
                                                                      "(default 0.3).")
    @click.option("--sleeved", is_flag=True, help="With --box: boxes for sleeved cards.")
    @family_options("build")
    def build(kit_file, game, **values):
        """Build a whole kit into DIR/<kit id>/: by default the built-in English kit of the default game."""
        pdfx, icc, colour = values["pdfx"], values["icc"], values["colour"]
        box, thickness, sleeved = values["box"], values["card_thickness"], values["sleeved"]
        profile = pdfx_profile(pdfx, icc, colour)
        if not box and (thickness is not None or sleeved):
            raise KitgenError(f"{'--sleeved' if sleeved else '--card-thickness'} sizes the boxes: add --box")
        printing = {"per_card": values["per_card"], "png_dpi": values["png_dpi"], "cut_lines": values["cut_lines"],
                    "slug": values["slug"], "pod": values["pod"], "pdfx": profile,
                    "back_offset": parse_offset(values["back_offset"])}
        run_for_family("build", kit_file, game, values, print_options=printing,
                       boxing=(thickness, sleeved) if box else None)

    build.help = (f"Build a whole kit into DIR/<kit id>/ (the built-in English {default.title} kit by default; "
                  f"{games} builds another game's, as does a kit file that names its game). Each game's own "
                  "options are listed under its name below.")
    return build
