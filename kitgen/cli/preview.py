"""``kitgen preview``: pages of a kit or of any PDF as PNG files."""

from pathlib import Path

import click

from .errors import command


def make() -> click.Command:
    @command("preview")
    @click.argument("target", metavar="KITDIR|PDF")
    @click.option("--pages", default="1", show_default=True, help="Pages to render: 1,3-5 or all.")
    @click.option("--dpi", default=100, show_default=True, type=click.IntRange(20, 600),
                  help="Resolution of the PNGs.")
    @click.option("--out", "out_dir", metavar="DIR",
                  help="Where the PNGs go (default: a preview folder beside the PDF).")
    def preview(target, pages, dpi, out_dir):
        """Render pages of a kit (its kit.pdf) or of any PDF to PNG files."""
        from .. import preview as previewer

        for path in previewer.render(Path(target), pages, dpi, Path(out_dir) if out_dir else None):
            click.echo(str(path))

    return preview
