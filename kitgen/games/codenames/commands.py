"""The Codenames family's own commands (``family.FAMILY.commands``): ``keys``, ``calibrate``, ``web``
and ``deck check`` / ``deck new``. Each imports what it runs inside its body, so ``kitgen --help`` is
fast."""

import json
import sys
from pathlib import Path

import click

from kitgen.cli.common import with_progress, write_file
from kitgen.cli.errors import EXIT_CHECK_FAILED, command, group
from kitgen.errors import KitgenError

from .family import LANGUAGES


def commands() -> list[click.Command]:
    return [keys, calibrate, web, deck]


@command(short_help="Just a key-card deck, of any size, in PDF volumes.")
@click.option("--count", default=40, show_default=True, type=click.IntRange(1, 100_000), help="How many key cards.")
@click.option("--edition", type=click.Choice(["words", "pictures", "duet"]), default="words", show_default=True)
@click.option("--seed", metavar="TEXT", help="The seed of the deck (default: the built-in kit's).")
@click.option("--lang", metavar="LANG", help="Language of the labels.")
@click.option("--paper", metavar="a4|letter|WxHmm", help="Paper size (default a4).")
@click.option("--duplex", type=click.Choice(["long", "short", "none", "fold"]),
              help="Double-sided printing, or fold: fronts and backs on one side, to fold (default long).")
@click.option("--volume-pages", default=200, show_default=True, type=click.IntRange(2, 10_000),
              help="Pages per PDF volume: memory stays flat for any count.")
@click.option("--jobs", type=click.IntRange(1, 64), metavar="N",
              help="Volumes drawn at once, by N processes (default: one per core); the files are the same for any N.")
@click.option("--out", "out_dir", default="out", show_default=True, metavar="DIR",
              help="The keys go into DIR/<kit id>-keys-<count>/.")
def keys(count, edition, seed, lang, paper, duplex, volume_pages, jobs, out_dir):
    """Just a key-card deck, of any size, in PDF volumes with a manifest."""
    from . import key_volumes

    result = with_progress(lambda progress: key_volumes.build(count, edition, seed, Path(out_dir), paper, duplex, lang,
                                                              volume_pages, progress, jobs))
    click.echo(f"{result.keys} key cards in {len(result.volumes)} volume(s) in {result.target}/")


@command(short_help="A duplex calibration sheet, to measure --back-offset X,Y.")
@click.option("--paper", default="a4", show_default=True, metavar="a4|letter|WxHmm")
@click.option("--duplex", type=click.Choice(["long", "short"]), default="long", show_default=True)
@click.option("--lang", default="en", show_default=True, metavar="LANG")
@click.option("--layout", default="default", show_default=True, metavar="NAME|PATH",
              help="The layout whose calibration section draws the sheet.")
@click.option("--out", "out_dir", default="out", show_default=True, metavar="DIR")
def calibrate(paper, duplex, lang, layout, out_dir):
    """A duplex calibration sheet: print it double-sided once and read the
    --back-offset X,Y your printer needs off its rulers."""
    from kitgen import fonts as fonts_mod, layouts
    from kitgen.render import calibration

    from . import texts

    the_layout = layouts.load(layout)
    fonts = fonts_mod.register_roles(the_layout, lang, texts.characters(lang))
    data = calibration.render(layouts.page_size(the_layout, paper), the_layout, fonts, texts.load(lang), duplex)
    path = Path(out_dir) / "calibration.pdf"
    write_file(path, data)
    click.echo(f"{path}: print it double-sided ({duplex} edge), hold it to the light, read X and Y")


@command(short_help="Write verify.html alone: the offline page that checks keys.")
@click.option("--out", "out_dir", default="out", show_default=True, metavar="DIR",
              help="The page goes to DIR/verify.html.")
def web(out_dir):
    """Write verify.html alone: one offline page that shows a key card from its QR (camera,
    pasted text or the address's #fragment) and checks it against a kit's seed."""
    from kitgen import layouts

    from . import web as web_page

    path = Path(out_dir) / "verify.html"
    write_file(path, web_page.page(layouts.load("default")))
    click.echo(f"{path}: open it in a browser (it needs no network), or put it on any web host")


@group()
def deck():
    """Words decks: check one before you build."""


@deck.command("check", short_help="Check a deck before you build: fit, glyphs, duplicates.")
@click.argument("path", metavar="PATH")
@click.option("--layout", default="default", show_default=True, metavar="NAME|PATH",
              help="The layout whose boxes the words must fit.")
@click.option("--json", "as_json", is_flag=True,
              help="Write one JSON document: the lines, and each word or picture with what they say of it.")
@click.option("--words", "each", is_flag=True,
              help="Also write a line for each word: its script, the font that draws it, its size or what is wrong.")
def deck_check(path, layout, as_json, each):
    """Check a deck without rendering: words fit, glyphs exist, no duplicates,
    no near-duplicates (plurals); for a picture deck (a folder or a YAML list),
    every picture opens and is sharp enough. Exit 0 when every check passes."""
    from kitgen import fonts as fonts_mod, pictures

    from . import checks, decks as decks_mod, layout as codenames_layout, picture_decks, texts

    if picture_decks.is_picture_deck(path):
        picture_deck = picture_decks.load(path)
        box = codenames_layout.load("pictures" if layout == "default" else layout).picture_card.picture.box
        report = checks.pictures_report(path, picture_deck, box[2], box[3])
    else:
        the_deck = decks_mod.load(path, strict=False)
        the_layout = codenames_layout.load(layout)
        chars = texts.characters(the_deck.language, the_deck.words)
        report = checks.words_report(path, the_deck, the_layout,
                                     fonts_mod.register_roles(the_layout, the_deck.language, chars))
    if as_json:
        click.echo(json.dumps(report.data(pictures.thumbnail), ensure_ascii=False, indent=1))
    else:
        for status, text in report.lines + (checks.each_word(report) if each and report.kind == "words" else []):
            click.echo(f"{status:<4} {text}")
    if report.failed:
        sys.exit(EXIT_CHECK_FAILED)


DECK_TEMPLATE = """# {name}: a words deck for kitgen.
# Fill in the words below, one per line after a dash, then try it:
#   kitgen deck check {file}
#   kitgen game --deck {file}              (one game to print or project)
#   kitgen build --deck {file}             (a whole kit of cards)
# Good codenames are concrete nouns with more than one meaning (Bank, Bat, Crane).
# You need at least 25 different words; 50 or more make better games.
# Words are compared without case and spaces: "Bank" and "bank " are the same word.
name: {name}
language: en          # one of {languages}: the language of the printed labels
credits: ""           # who wrote the list, printed on the rules sheet
words:
  - Apple
  - Bank
  - Bat
"""


@deck.command("new", short_help="Write a commented deck template, NAME.yaml, to fill in.")
@click.argument("name")
@click.option("--out", "out_dir", default=".", show_default=True, metavar="DIR", help="Where the file goes.")
def deck_new(name, out_dir):
    """Write a commented deck template, NAME.yaml, for a teacher to fill in."""
    from kitgen.names import slug

    path = Path(out_dir) / f"{slug(name)}.yaml"
    if path.exists():
        raise KitgenError("already exists; choose another name or edit it", source=str(path))
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        with open(path, "x", encoding="utf-8") as handle:
            handle.write(DECK_TEMPLATE.format(name=name, file=path.name, languages=", ".join(LANGUAGES)))
    except OSError as err:
        raise KitgenError(f"cannot write: {err.strerror}", source=str(path)) from None
    click.echo(f"{path}: fill in the words, then: kitgen deck check {path}")
