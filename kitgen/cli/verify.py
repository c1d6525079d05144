"""``kitgen verify``: check printed codes (key cards, case slips) from a payload, a scan or a PDF. Each
family may claim a target as its own (``Family.claims``); the default family checks the rest."""

import click

from .. import families
from .common import Request, family_options
from .errors import command


def make() -> click.Command:
    @command("verify", short_help="Check key cards and case slips from a QR payload, scan or PDF.")
    @click.argument("target", metavar="TARGET")
    @click.option("--seed", metavar="TEXT", help="The kit's seed: check that each code is exactly the one that "
                                                 "seed deals.")
    @click.option("--kit", "manifest", metavar="manifest.json",
                  help="A built kit's manifest: its seed, kit id and what it holds.")
    @click.option("--dpi", default=200, show_default=True, type=click.IntRange(72, 600),
                  help="Resolution at which PDF pages are read.")
    @family_options("verify")
    def verify(target, **values):
        """Check key cards and case slips. TARGET is a QR payload, a PNG/JPEG scan or
        photo, a kitgen PDF, or a built kit's folder (every key or slip it holds, with its
        own manifest). Prints one line per card; exit 0 only when all pass."""
        family = next((f for f in families.taking("verify")
                       if not f.default and f.claims and families.resolve(f.claims)(target, values["dpi"])),
                      families.default())
        families.refuse_foreign("verify", family, True, values)
        family.run("verify")(Request(target, values))

    return verify
