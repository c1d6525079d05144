"""The ``kitgen`` command line: thin, it parses options and calls the library.

Imports of the heavy parts (reportlab, qrcode) happen inside the commands, so
``kitgen --help`` answers at once.
"""

import json
import os
import sys
import traceback
from pathlib import Path

import click

from . import __version__
from .errors import KitgenError

EXIT_BAD_INPUT, EXIT_INTERNAL, EXIT_CHECK_FAILED = 2, 1, 3
# click 8.2 and later; click 8.1 prints a group's help itself and reports an unknown command as a plain usage error
_NO_SUCH_COMMAND = getattr(click.exceptions, "NoSuchCommand", ())
_NO_ARGS_IS_HELP = getattr(click.exceptions, "NoArgsIsHelpError", ())


class _KitgenParsing:
    """What every kitgen command and group shares: a usage error knows its command (and, for a bad
    option value, the value as typed), and a command list never cuts a description short."""

    def parse_args(self, ctx, args):
        given = list(args)                      # click's parser consumes the list it is given
        try:
            return super().parse_args(ctx, args)
        except click.UsageError as err:
            err.ctx = err.ctx or ctx            # click's parser leaves it out, e.g. for a missing option value
            err.cmd = err.ctx.command
            if isinstance(err, click.BadParameter) and isinstance(err.param, click.Option):
                err.typed = _typed_value(given, err.param.opts)
            raise

    def get_short_help_str(self, limit: int = 45) -> str:
        """The whole description (``short_help``, else the first sentence), never cut with "...";
        tests/test_terminal.py checks that each fits one line of an 80-column terminal."""
        return super().get_short_help_str(limit=sys.maxsize)


class ExtraArguments(click.UsageError):
    """Words left over after a command's arguments: reported by kitgen, not click, to name them."""

    def __init__(self, extra: list[str], ctx: click.Context):
        super().__init__(f"unexpected argument(s) {' '.join(extra)}", ctx)
        self.extra = extra


class KitgenCommand(_KitgenParsing, click.Command):
    """A kitgen command: leftover arguments raise ``ExtraArguments``."""

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.context_settings = {**self.context_settings, "allow_extra_args": True}   # parse_args checks them

    def parse_args(self, ctx, args):
        rest = super().parse_args(ctx, args)
        if rest and not ctx.resilient_parsing:
            raise ExtraArguments(rest, ctx)
        return rest


class KitgenGroup(_KitgenParsing, click.Group):
    """kitgen and its command groups. Run as a program (``standalone_mode``), it turns every error into
    one line on stderr, ``kitgen: error: ...``, and exits with the code of docs/design.md §9.1."""

    command_class = KitgenCommand
    group_class = type                      # subgroups (kitgen deck) are KitgenGroups too

    def main(self, args=None, prog_name=None, complete_var=None, standalone_mode=True, **extra):
        """click's ``main``, with kitgen's error lines; ``--debug`` is taken out wherever it stands."""
        if not standalone_mode:
            return super().main(args, prog_name, complete_var, standalone_mode, **extra)
        args = sys.argv[1:] if args is None else list(args)
        debug = "--debug" in args
        args = [a for a in args if a != "--debug"]
        try:
            code = super().main(args, prog_name, complete_var, standalone_mode=False, **extra)
        except _NO_ARGS_IS_HELP as err:         # a group without its command: its help, as kitgen alone does
            click.echo(err.ctx.get_help())
            code = 0
        except KitgenError as err:
            if debug:
                traceback.print_exc()
            _fail(str(err), err.exit_code)
        except click.UsageError as err:
            _fail(usage_message(err), EXIT_BAD_INPUT)
        except click.ClickException as err:
            _fail(_kitgen_case(err.format_message()), err.exit_code)
        except click.exceptions.Abort:
            click.echo("kitgen: aborted", err=True)
            sys.exit(EXIT_INTERNAL)
        except (KeyboardInterrupt, BrokenPipeError):
            sys.exit(EXIT_INTERNAL)
        except Exception as err:  # an internal error: say so plainly
            if debug:
                traceback.print_exc()
            click.echo(f"kitgen: internal error: {type(err).__name__}: {err} (run with --debug for details)", err=True)
            sys.exit(EXIT_INTERNAL)
        sys.exit(code or 0)


def _fail(message: str, code: int):
    """The one line every error ends in, kitgen's own and click's alike."""
    click.echo(f"kitgen: error: {message}", err=True)
    sys.exit(code)


def usage_message(err: click.UsageError) -> str:
    """A click usage error in kitgen's words: lower case, no full stop, the option or command named,
    what to write instead, then where the help is: ``(see 'kitgen build --help')``."""
    for kind, describe in _USAGE_MESSAGES:
        if isinstance(err, kind) and err.ctx is not None:
            text = describe(err)
            break
    else:
        text = _kitgen_case(err.format_message())
    return f"{text} (see '{err.ctx.command_path if err.ctx else 'kitgen'} --help')"


def _no_such_option(err: click.NoSuchOption) -> str:
    """``unknown option --colour; did you mean --color?``"""
    return f"unknown option {err.option_name}{_did_you_mean(err.possibilities)}"


def _no_such_command(err: click.UsageError) -> str:
    """``no kitgen command 'buidl'; did you mean build?``, else the commands there are."""
    group, ctx = err.ctx.command, err.ctx
    text = f"no {ctx.command_path} command {err.command_name!r}"
    if err.possibilities:
        return text + _did_you_mean(err.possibilities)
    names = [n for n in group.list_commands(ctx) if not group.get_command(ctx, n).hidden]
    return f"{text}; the commands are {', '.join(names)}"


def _extra_arguments(err: ExtraArguments) -> str:
    """``unexpected argument 'b': kitgen verify takes one TARGET; quote it if it has spaces``"""
    arguments = [p for p in err.ctx.command.params if isinstance(p, click.Argument)]
    words = ", ".join(map(repr, err.extra))
    text = f"unexpected argument{'s' if len(err.extra) > 1 else ''} {words}: {err.ctx.command_path} takes "
    if not arguments:
        return text + "options only"
    takes = [f"{'one' if p.required else 'at most one'} {p.make_metavar(err.ctx).strip('[]')}" for p in arguments]
    return text + " and ".join(takes) + ("; quote it if it has spaces" if len(takes) == 1 else
                                         "; quote each that has spaces")


def _missing(err: click.MissingParameter) -> str:
    """``kitgen verify needs TARGET; write kitgen verify [OPTIONS] TARGET``"""
    if isinstance(err.param, click.Argument):
        usage = " ".join([err.ctx.command_path, *err.ctx.command.collect_usage_pieces(err.ctx)])
        return f"{err.ctx.command_path} needs {err.param.make_metavar(err.ctx).strip('[]')}; write {usage}"
    if isinstance(err.param, click.Option):
        name = _long_name(err.param)
        return f"{err.ctx.command_path} needs {name}; write {name} {err.param.make_metavar(err.ctx).strip('[]')}"
    return _kitgen_case(err.format_message())


def _bad_value(err: click.BadParameter) -> str:
    """``--keys must be a whole number, not 'many'``, as kitgen's own checks word it."""
    requirement = _requirement(err.param.type) if err.param is not None else None
    if not isinstance(err.param, click.Option) or requirement is None:
        return _kitgen_case(err.format_message())
    typed = getattr(err, "typed", None)
    return f"{_long_name(err.param)} must be {requirement}" + (f", not {_shown(typed)}" if typed is not None else "")


def _bad_option_use(err: click.BadOptionUsage) -> str:
    """A value missing after an option, or given to a flag (``--per-card=yes``)."""
    option = next((p for p in err.ctx.command.params if err.option_name in getattr(p, "opts", ())), None)
    if not isinstance(option, click.Option):
        return _kitgen_case(err.format_message())
    if option.is_flag or option.count:
        return f"{err.option_name} takes no value; write {err.option_name} alone"
    values = "a value" if option.nargs == 1 else f"{option.nargs} values"
    return f"{err.option_name} needs {values}; write {err.option_name} {option.make_metavar(err.ctx).strip('[]')}"


_USAGE_MESSAGES = [(click.NoSuchOption, _no_such_option), (_NO_SUCH_COMMAND, _no_such_command),
                   (ExtraArguments, _extra_arguments), (click.MissingParameter, _missing),
                   (click.BadParameter, _bad_value), (click.BadOptionUsage, _bad_option_use)]


def _requirement(kind: click.ParamType) -> str | None:
    """What a value of this type must be, in kitgen's words (``a whole number from 1 to 40``)."""
    if isinstance(kind, click.Choice):
        return "one of " + ", ".join(map(str, kind.choices))
    if isinstance(kind, (click.IntRange, click.FloatRange)):
        if kind.min_open or kind.max_open or kind.clamp:
            return None
        number = "a whole number" if isinstance(kind, click.IntRange) else "a number"
        if kind.min is not None and kind.max is not None:
            return f"{number} from {kind.min} to {kind.max}"
        return f"{number} of at least {kind.min}" if kind.min is not None else f"{number} of at most {kind.max}"
    if isinstance(kind, click.types.IntParamType):
        return "a whole number"
    if isinstance(kind, click.types.FloatParamType):
        return "a number"
    return None


def _did_you_mean(possibilities: list[str] | None) -> str:
    """``; did you mean --color or --out?`` (best match first), or nothing."""
    if not possibilities:
        return ""
    *rest, last = possibilities
    return f"; did you mean {', '.join(rest) + ' or ' if rest else ''}{last}?"


def _typed_value(args: list[str], names: list[str]) -> str | None:
    """The value the command line last gave an option (``--keys x`` or ``--keys=x``), as typed."""
    value = None
    for i, arg in enumerate(args):
        name, equals, rest = arg.partition("=")
        if name in names:
            value = rest if equals else (args[i + 1] if i + 1 < len(args) else None)
    return value


def _shown(value: str) -> str:
    """A value as kitgen's messages show one: a number bare, anything else quoted."""
    try:
        float(value)
        return value
    except ValueError:
        return repr(value)


def _long_name(option: click.Option) -> str:
    """``--color`` rather than ``-c``."""
    return max(option.opts, key=len)


def _kitgen_case(message: str) -> str:
    """click's own wording in kitgen's case: lower-case start (not of a name like YAML), no full stop."""
    if message[:1].isupper() and not message[1:2].isupper():
        message = message[0].lower() + message[1:]
    return message.rstrip(".")


@click.group("kitgen", cls=KitgenGroup, context_settings={"help_option_names": ["-h", "--help"]},
             invoke_without_command=True)
@click.version_option(__version__, prog_name="kitgen")
@click.option("--debug", is_flag=True, help="Show a full traceback on errors (also accepted after the command).")
@click.pass_context
def cli(ctx, debug):
    """Print-ready PDF kits for Codenames: codename cards, key cards with QR codes,
    agent tiles and a rules sheet."""
    if ctx.invoked_subcommand is None:
        click.echo(ctx.get_help())


@cli.command(short_help="Build a whole kit: codename cards, key cards, tiles and rules.")
@click.argument("kit_file", required=False, metavar="[KIT.yaml]")
@click.option("--deck", metavar="PATH", help="A words deck: .yaml, .txt (one word per line) or .csv (first column).")
@click.option("--seed", metavar="TEXT",
              help="The seed of the key cards and of which words share a card (default: the kit's own).")
@click.option("--out", "out_dir", default="out", show_default=True, metavar="DIR",
              help="The kit goes into DIR/<kit id>/.")
@click.option("--paper", metavar="a4|letter", help="Paper size (default: the kit's, a4).")
@click.option("--duplex", type=click.Choice(["long", "short", "none", "fold"]),
              help="Double-sided printing: flip on the long or short edge, or none; fold: each front and its back "
                   "side by side on one side of the sheet, to fold and cut (default: long).")
@click.option("--keys", type=int, metavar="N", help="Number of key cards (default: 40, pictures 60).")
@click.option("--edition", type=click.Choice(["words", "pictures", "duet"]),
              help="Without KIT.yaml: build the built-in kit of this edition (default: words; duet: the "
                   "two-player cooperative edition).")
@click.option("--lang", metavar="LANG",
              help="Language of every printed label (en, ru, fa); without KIT.yaml or --deck, the built-in "
                   "kit of that language.")
@click.option("--ink", type=click.Choice(["normal", "saver"]), default="normal", show_default=True,
              help="saver: outlines, light tints and symbols in place of solid colour, readable in black and white.")
@click.option("--layout", metavar="NAME|PATH", help="The layout: a built-in name or a YAML file that extends one "
                                                    "(default: the kit file's layout:, or the game's default).")
@click.option("--color", "colour", type=click.Choice(["rgb", "cmyk"]), default="rgb", show_default=True,
              help="cmyk: every colour from its CMYK values, and no RGB in the PDFs (for presses).")
@click.option("--pdfx", is_flag=True, help="With --color cmyk: every PDF as press-ready PDF/X-1a:2003, within the "
                                           "layout's ink limit.")
@click.option("--icc", metavar="PATH", help="--pdfx: your press's CMYK ICC profile (default: ISO Coated v2 300%, "
                                            "from Debian's scribus-data).")
@click.option("--per-card", is_flag=True, help="Also <part>-cards.pdf: one face a page, with TrimBox and BleedBox.")
@click.option("--png", "png_dpi", type=click.IntRange(36, 1200), metavar="[DPI]", is_flag=False, flag_value=300,
              help="Also every face as PNG (with and without bleed), at 300 dpi or the DPI given.")
@click.option("--pod", type=click.Choice(["tgc", "mpc", "dtc"]),
              help="Also the upload of a print-on-demand service: tgc (The Game Crafter), mpc (MakePlayingCards), "
                   "dtc (DriveThruCards), into pod-<service>/.")
@click.option("--back-offset", metavar="X,Y", help="Move backs by X,Y mm against duplex misregistration "
                                                    "(measure it with kitgen calibrate).")
@click.option("--cut-lines", is_flag=True, help="Full-length cut lines in the margins instead of short crop marks.")
@click.option("--slug", is_flag=True, help="Proof marks: a slug line (kit, edition, language, version, seed hash, "
                                           "page) and registration marks.")
@click.option("--game", type=click.Choice(["codenames", "deduction"]),
              help="Without KIT.yaml: the game of the built-in kit (default: codenames). A kit file names its game.")
@click.option("--players", type=int, metavar="N", help="Deduction: players the setup sheets deal for, 2-5 "
                                                       "(default 4).")
@click.option("--verify-url", metavar="URL", help="Each key's QR encodes URL#<key>, so a phone's camera opens your "
                                                   "copy of verify.html on it (default: the bare key).")
@click.option("--board-paper", metavar="a3|a4|letter",
              help="Deduction: the board's paper; on paper smaller than A3 it is cut into pieces (default: --paper).")
@click.option("--box", is_flag=True, help="Also boxes.pdf: a tuck box for each deck and a stand for key cards "
                                          "(see kitgen box).")
@click.option("--card-thickness", type=float, metavar="MM", help="With --box: one card's thickness in mm "
                                                                  "(default 0.3).")
@click.option("--sleeved", is_flag=True, help="With --box: boxes for sleeved cards.")
@click.option("--campaign", is_flag=True, help="Duet edition: also campaign.pdf, a map of missions to win in turn.")
def build(kit_file, deck, seed, out_dir, paper, duplex, keys, edition, lang, ink, layout, colour, pdfx, icc, per_card,
          png_dpi, pod, back_offset, cut_lines, slug, game, players, verify_url, board_paper, box, card_thickness, sleeved,
          campaign):
    """Build a whole kit into DIR/<kit id>/ (the built-in English Codenames kit by default).
    With --edition pictures, --deck takes a folder of pictures or a YAML picture deck;
    --game deduction (or a kit file with game: deduction) builds the deduction game."""
    from kitgen.games.codenames import build as builder, kitfile

    profile = _pdfx_profile(pdfx, icc, colour)
    if not box and (card_thickness is not None or sleeved):
        raise KitgenError(f"{'--sleeved' if sleeved else '--card-thickness'} sizes the boxes: add --box")
    boxing = (card_thickness, sleeved) if box else None
    kind = _game_of(kit_file, game)
    _check_game_options(kind, {"--deck": deck, "--keys": keys, "--edition": edition, "--verify-url": verify_url,
                               "--campaign": campaign or None},
                        {"--players": players, "--board-paper": board_paper})
    if kind == "deduction":
        return _build_deduction(kit_file, lang, players, paper, board_paper, duplex, colour, seed, out_dir,
                                {"cut_lines": cut_lines, "slug": slug, "back_offset": parse_offset(back_offset),
                                 "per_card": per_card, "png_dpi": png_dpi, "pod": pod,
                                 "pdfx": profile}, boxing, layout, ink)
    kit = kitfile.load(kitfile.kit_path(kit_file, edition, lang), deck=deck, seed=seed, keys=keys,
                       paper=paper, duplex=duplex, layout=layout, language=lang, ink=ink, colour=colour,
                       print_options={"per_card": per_card, "png_dpi": png_dpi, "cut_lines": cut_lines, "slug": slug,
                                      "verify_url": verify_url, "pod": pod, "pdfx": profile,
                                      "back_offset": parse_offset(back_offset), "campaign": campaign})
    if campaign and not kit.edition.cooperative:
        raise KitgenError(f"--campaign is the duet edition's campaign sheet; the {kit.edition.name} edition has none "
                          "(add --edition duet)")
    more = _box_files("codenames", kit, builder.prepare(kit), *boxing)[0] if boxing else ()
    progress = TerminalProgress()
    try:
        target, files, manifest = builder.build(kit, Path(out_dir), progress, more)
    finally:
        progress.finish()
    counts = {"codenames.pdf": "codename cards", "keys.pdf": "key cards", "tiles.pdf": "tiles", "rules.pdf": "rules",
              "tokens.pdf": "timer tokens", "campaign.pdf": "the campaign: a map of missions to tick off",
              "kit.pdf": "everything, to print in one go", **BOX_FILES}
    if kit.edition.cooperative:
        counts["keys.pdf"] = "key cards: side A on the fronts, side B on the backs"
    page = next(f for f in files if f.name == "verify.html")
    click.echo(f"Built {kit.name} ({kit.id}) into {target}/")
    _echo_files(files, manifest, counts, kit.png_dpi, ("boxes.json", page.name))
    click.echo(f"  {'verify.html':<14}       {len(page.data) / 1024:>12.0f} KiB  shows and checks a key from its QR, "
               "offline, on a phone too")
    click.echo(f"  {'manifest.json':<14} {len(manifest['keys'])} keys with their QR payloads and positions")
    _say_pdfx(manifest)


def _echo_files(files, manifest: dict, what: dict[str, str], png_dpi, skip: tuple[str, ...]) -> None:
    """A build's report, either game's: a line for each file (``what`` says what it is; a per-card
    PDF by default) but the PNG faces, a service's upload and those named in ``skip``; then one
    line for the PNG faces and the service's upload's lines (``_echo_pod``)."""
    pngs = [f for f in files if f.name.startswith("png/")]
    service = [f for f in files if f.name.startswith("pod-")]
    for f in files:
        if f in pngs or f in service or f.name in skip:
            continue
        click.echo(f"  {f.name:<14} {f.pages:>3} page{'s' if f.pages != 1 else ' '}  {len(f.data) / 1024:>7.0f} KiB  "
                   f"{what.get(f.name, 'one face a page, with TrimBox and BleedBox')}")
    if pngs:
        click.echo(f"  {'png/':<14} {len(pngs)} PNG files, every face at {png_dpi} dpi with and without bleed")
    if service:
        _echo_pod(manifest["pod"], service)


def _pdfx_profile(pdfx: bool, icc: str | None, colour: str):
    """The output profile of a --pdfx build (None without --pdfx); --pdfx without CMYK, or --icc
    without --pdfx, is refused in one line."""
    if not pdfx:
        if icc is not None:
            raise KitgenError("--icc is the profile of --pdfx; add --pdfx --color cmyk")
        return None
    if colour != "cmyk":
        raise KitgenError("--pdfx needs --color cmyk: PDF/X-1a holds CMYK and grey only")
    from kitgen.render import press

    return press.load_profile(icc)


def _say_pdfx(manifest: dict):
    """One line on what a --pdfx build's PDFs are."""
    pdfx = manifest["options"].get("pdfx")
    if pdfx:
        click.echo(f"  every PDF is {pdfx['version']} for {pdfx['profile']['name']} ({pdfx['profile']['condition']}), "
                   f"at most {pdfx['max_ink']:g}% ink")


def _echo_pod(record: dict, files) -> None:
    """What ``--pod`` wrote: each part's size and image, and the parts the service has no card for."""
    kind = "PNG files" if record["files"] == "png" else "PDF files"
    click.echo(f"  {'pod-' + record['service'] + '/':<14} {len(files)} {kind} for {record['name']}:")
    for part, where in record["parts"].items():
        width, height = where["image_px"]
        if record["files"] == "png":
            size = f"{width} x {height} px at {record['dpi']} dpi"
        else:
            size = " x ".join(f"{v + 2 * record['bleed_in']:g}" for v in where["trim_in"]) + " in with bleed"
        click.echo(f"  {'':<14}   {part}: {where['size']} ({size}{', turned' if where['turned'] else ''}), "
                   f"{where['faces']} faces")
    if "pdfx" in record:
        click.echo(f"  {'':<14}   each PDF {record['pdfx']['version']}, at most {record['pdfx']['max_ink']:g}% ink, "
                   f"pages {record['order'].replace('-', ' 1, ')} 1, ...")
    if record["not_exported"]:
        click.echo(f"  {'':<14}   no card size of {record['name']} near enough for: "
                   f"{', '.join(record['not_exported'])} (print them at home)")


BOX_FILES = {"boxes.pdf": "a tuck box for each deck (and key-card stands), to cut, fold and glue",
             "boxes.json": "each box's panels, lines and inner size, in mm"}


def _game_of(kit_file, game) -> str:
    """The game a command is for: ``--game``, else the kit file's (the deduction family is
    imported only when a kit file may be its); a theme given as a Codenames kit is refused."""
    def is_theme(path) -> bool:
        from kitgen.games.deduction import theme as deduction_theme

        return deduction_theme.is_theme(Path(path))

    if game == "deduction" or (kit_file and game is None and is_theme(kit_file)):
        return "deduction"
    if game == "codenames" and kit_file and is_theme(kit_file):
        raise KitgenError("is a deduction theme (game: deduction), not a Codenames kit", source=kit_file)
    return "codenames"


def _check_game_options(kind: str, codenames_only: dict, deduction_only: dict):
    """The first option given that belongs to the other game is refused."""
    if kind == "deduction":
        given = [flag for flag, value in codenames_only.items() if value is not None]
        if given:
            raise KitgenError(f"{given[0]} is a Codenames option; the deduction kit has none such")
        return
    given = [flag for flag, value in deduction_only.items() if value is not None]
    if given:
        raise KitgenError(f"{given[0]} is an option of the deduction game: add --game deduction")


def _box_files(kind: str, kit, prepared, thickness_mm: float | None, sleeved: bool):
    """``boxes.pdf`` and ``boxes.json`` for a kit of either game, prepared as its build prepares it
    (docs/design.md §8.12): the family names the card sets that get a box or a stand."""
    from kitgen import boxes
    from kitgen.render import boxes as box_pages
    from kitgen.units import mm

    if kind == "deduction":
        from kitgen.games.deduction import build as family

        theme = kit.theme
        about = box_pages.KitInfo(theme.id, theme.name, theme.language, kit.paper, kit.colour, kind)
    else:
        from kitgen.games.codenames import build as family

        about = box_pages.KitInfo(kit.id, kit.name, kit.language, kit.paper, kit.colour, kind)
    if thickness_mm is None:
        thickness_mm = prepared.layout.box.card_thickness / mm(1)
    stock = boxes.Stock(boxes.check_thickness(thickness_mm, prepared.layout.box), sleeved)
    decks = [boxes.Deck(name, cards.title, cards.spec.width, cards.spec.height, cards.count, name in family.STANDS)
             for name, cards in prepared.card_sets.items() if name in family.BOXES]
    if hasattr(family, "token_decks"):          # loose pieces the family boxes too: the deduction game's tokens
        decks += family.token_decks(kit, prepared)
    files, record = box_pages.files(about, decks, stock, prepared.layout, prepared.fonts, prepared.messages,
                                    prepared.page_size)
    if getattr(kit, "pdfx", None):          # build --box --pdfx: boxes.pdf is PDF/X like the kit's other PDFs
        from kitgen.render import pdfx

        files = pdfx.convert(files, kit.pdfx, prepared.layout.press.max_ink)
    return files, record


def _build_deduction(kit_file, lang, players, paper, board_paper, duplex, colour, seed, out_dir, options,
                     boxing=None, layout=None, ink="normal"):
    from kitgen.games.deduction import build as deduction

    kit = deduction.load(kit_file, lang, players, paper, board_paper, duplex, colour, options, seed, layout, ink)
    more = _box_files("deduction", kit, deduction.prepare(kit), *boxing)[0] if boxing else ()
    progress = TerminalProgress()
    try:
        target, files, manifest = deduction.build(kit, Path(out_dir), progress, more)
    finally:
        progress.finish()
    what = {"board.pdf": "the board" + (", in pieces to glue" if files[0].pages > 1 else ""),
            "cards.pdf": "case cards (three decks) and evidence cards", "tiles.pdf": "suspect and crime tiles",
            "tokens.pdf": f"tokens for {kit.players} players", "aids.pdf": "player aids",
            "notepad.pdf": "detective's notepads, a sheet a player", "rules.pdf": "rules",
            "setup.pdf": "setup sheets and sealed case slips", "kit.pdf": "everything, to print in one go",
            **BOX_FILES}
    click.echo(f"Built {kit.theme.name} ({kit.theme.id}, {kit.players} players) into {target}/")
    _echo_files(files, manifest, what, kit.png_dpi, ("boxes.json",))
    click.echo(f"  {'manifest.json':<14} {len(manifest['slips'])} case slips with their QR payloads and positions")
    _say_pdfx(manifest)


def _is_deduction_target(target: str, dpi: int) -> bool:
    from kitgen import scans
    from kitgen.games.deduction import case_payload

    kind, value = scans.classify(target)
    if kind == "payload":
        return case_payload.is_case_slip(scans.payload_of(value))
    texts = scans.qr_texts(kind, value, dpi) if kind == "image" else []
    if kind == "pdf":
        # the first page with a code tells (a PDF not kitgen's: among its first scans.FIRST_PAGES)
        for image in scans.pdf_pages(value, min(dpi, 150), found=lambda: False, asked=dpi):
            import zxingcpp

            texts = [c.text for c in zxingcpp.read_barcodes(image.convert("RGB"))]
            if texts:
                break
    return any(case_payload.is_case_slip(t) for t in texts) and not any(t.startswith("KG1:") for t in texts)


def _verify_commitment(target: str, commitment: str | None, salt: str | None, seed: str | None):
    """A forum game: the key revealed after the game against the commitment posted before it."""
    from kitgen import commitment as commitments, scans
    from kitgen.games.codenames import key_payload, verify as verifier

    if commitment is None or salt is None:
        raise KitgenError("give both --commitment and --salt, as the host posted them")
    if not commitments.DIGEST.fullmatch(commitment.strip().lower()):
        raise KitgenError(f"--commitment {commitment[:20]!r}... is not 64 hexadecimal digits")
    if not commitments.SALT.fullmatch(salt.strip().lower()):
        raise KitgenError(f"--salt {salt[:20]!r}... is not 32 hexadecimal digits")
    kind, payload = scans.classify(target)
    if kind != "payload":
        raise KitgenError("with --commitment, TARGET is the key's payload as the host posted it (KG1:...)")
    key_payload.decode(payload)
    result = verifier.CardResult("payload", payload)
    if not commitments.matches(commitment, payload, salt.strip().lower()):
        result.problems.append("this key and salt are not what the commitment bound the host to: the key was "
                               "changed after the commitment, or the salt or key was copied wrongly")
    if seed is not None:
        result.problems += verifier.check_payload(payload, verifier.Secret(seed))
    _report([result], "key card(s)", "the key committed to before the game")


def _verify_slips(target, seed, manifest, dpi, location):
    from kitgen.games.deduction import verify as slips

    if seed is not None and manifest is not None:
        raise KitgenError("give --seed or --kit, not both")
    _report(slips.verify(target, seed, manifest, location, dpi), "case slip(s)",
            "the slip of its kit" if (seed or manifest) else "well formed (give --seed or --kit to check it)")


def _report(results, what: str, passed: str):
    """A line per code checked, then the count; exit 3 when any failed."""
    for result in results:
        status = "OK  " if result.ok else "FAIL"
        detail = "; ".join(result.problems) if result.problems else passed
        notes = f" [{'; '.join(result.notes)}]" if result.notes and result.ok else ""
        where = "" if result.where == "payload" else f" ({result.where})"
        click.echo(f"{status} {result.label}{where}: {detail}{notes}")
        for remark in result.remarks:
            click.echo(f"     {remark}")
    failed = sum(not r.ok for r in results)
    click.echo(f"{len(results)} {what} checked: {len(results) - failed} passed, {failed} failed")
    if failed:
        sys.exit(EXIT_CHECK_FAILED)


@cli.command(short_help="Check key cards and case slips from a QR payload, scan or PDF.")
@click.argument("target", metavar="TARGET")
@click.option("--seed", metavar="TEXT", help="The kit's seed: check that each key (or case slip) is exactly the one "
                                             "that seed deals.")
@click.option("--kit", "manifest", metavar="manifest.json", help="A built kit's manifest: its seed, kit id and key count.")
@click.option("--dpi", default=200, show_default=True, type=click.IntRange(72, 600),
              help="Resolution at which PDF pages are read.")
@click.option("--at", "location", metavar="LOCATION",
              help="Case slips: what an investigator placed on LOCATION should have received.")
@click.option("--commitment", metavar="HEX", help="A forum game's commitment, posted before the game: check that "
                                                  "the key (TARGET, a payload) and --salt are what it committed to.")
@click.option("--salt", metavar="SALT", help="The salt the host posted with the key after the game.")
def verify(target, seed, manifest, dpi, location, commitment, salt):
    """Check key cards and case slips. TARGET is a QR payload, a PNG/JPEG scan or
    photo, or a kitgen PDF. Prints one line per card; exit 0 only when all pass."""
    if commitment is not None or salt is not None:
        return _verify_commitment(target, commitment, salt, seed)
    if _is_deduction_target(target, dpi):
        return _verify_slips(target, seed, manifest, dpi, location)
    if location is not None:
        raise KitgenError("--at is for case slips of the deduction game")
    from kitgen.games.codenames import verify as verifier

    if seed is not None and manifest is not None:
        raise KitgenError("give --seed or --kit, not both")
    secret = verifier.load_manifest(manifest) if manifest else verifier.Secret(seed) if seed is not None else None
    _report(verifier.verify(target, secret, dpi), "key card(s)",
            "the key of its kit" if secret else "well formed (give --seed or --kit to check it belongs to a kit)")


@cli.command(short_help="A publisher's proof PDF of a kit: every check, every face.")
@click.argument("kit_file", required=False, metavar="[KIT.yaml]")
@click.option("--deck", metavar="PATH", help="A words deck to proof instead of the kit's.")
@click.option("--seed", metavar="TEXT", help="The seed of the key cards (default: the kit's own).")
@click.option("--keys", type=int, metavar="N", help="Number of key cards (default: the kit's).")
@click.option("--out", "out_dir", default="out", show_default=True, metavar="DIR",
              help="The proof goes to DIR/<kit id>-proof.pdf.")
@click.option("--edition", type=click.Choice(["words", "pictures", "duet"]),
              help="Without KIT.yaml: proof the built-in kit of this edition (default: words).")
@click.option("--lang", metavar="LANG", help="Language of the labels; without KIT.yaml, that language's kit.")
@click.option("--game", type=click.Choice(["codenames", "deduction"]),
              help="Without KIT.yaml: the game of the built-in kit (default: codenames). A kit file names its game.")
@click.option("--players", type=int, metavar="N", help="Deduction: players the kit is built for, 2-5 (default 4).")
def proof(kit_file, deck, seed, keys, out_dir, edition, lang, game, players):
    """A publisher's proof PDF: every word's fit, glyph coverage, near-duplicates,
    key-deck statistics and a contact sheet of every face. For the deduction game
    (--game deduction, or a theme file): the counts read from the built PDFs, the
    mini-games' setups and answers, glyphs and fit of every name, and every page.
    Exit 0 only when every check passes."""
    kind = _game_of(kit_file, game)
    _check_game_options(kind, {"--deck": deck, "--keys": keys, "--edition": edition}, {"--players": players})
    if kind == "deduction":
        from kitgen.games.deduction import build as deduction, proof as proofing

        kit = deduction.load(kit_file, lang, players, seed=seed)
    else:
        from kitgen.games.codenames import kitfile, proof as proofing

        kit = kitfile.load(kitfile.kit_path(kit_file, edition, lang), deck=deck, seed=seed, keys=keys, strict=False,
                           language=lang)
    result = proofing.examine(kit)
    path = proofing.write(result, Path(out_dir))
    for check in result.results:
        click.echo(f"{check.status} {check.text}")
    click.echo(f"Proof written to {path}")
    if result.failed:
        sys.exit(EXIT_CHECK_FAILED)


@cli.command(short_help="Single games for a lesson or an online host, with their keys.")
@click.option("--deck", metavar="PATH", help="Words (.yaml, .txt, .csv) or, for pictures, a folder or YAML deck.")
@click.option("--edition", type=click.Choice(["words", "pictures", "duet"]), default="words", show_default=True,
              help="duet: the two-player cooperative edition, a key page (or text file) per player.")
@click.option("--lang", metavar="LANG", help="Language of the labels (en, ru, fa); without --deck, its built-in deck.")
@click.option("--seed", metavar="TEXT", help="The host's secret: codes, boards and keys all come from it.")
@click.option("--count", default=1, show_default=True, type=click.IntRange(1, 1000), help="How many games.")
@click.option("--format", "fmt", type=click.Choice(["pdf", "markdown", "bbcode", "html", "text"]), default="pdf",
              show_default=True, help="A PDF to print or project, or text boards for a forum or chat.")
@click.option("--ink", type=click.Choice(["normal", "saver"]), default="normal", show_default=True,
              help="saver: outlines, light tints and symbols, readable in black and white.")
@click.option("--layout", metavar="NAME|PATH", help="The layout of the board and key pages (its game_sheet section); "
                                                    "default: the edition's.")
@click.option("--out", "out_dir", default="out", show_default=True, metavar="DIR",
              help="The games go into DIR/games-<code of game 1>/.")
def game(deck, edition, lang, seed, count, fmt, ink, layout, out_dir):
    """Single games for a lesson or an online host: boards, and their keys for the
    spymasters. Text formats give a public board and a captain board per game."""
    from kitgen.games.codenames import single_game_files

    result = single_game_files.make(deck=deck, edition=edition, language=lang, seed=seed, count=count, fmt=fmt,
                            ink=ink, out_dir=Path(out_dir), layout=layout)
    if result.default_seed and fmt != "pdf":
        click.echo("kitgen: warning: no --seed: the built-in seed is public, so anyone with kitgen can derive "
                   "the keys from the game codes; give your own --seed for online games", err=True)
    for path in result.files:
        click.echo(str(path))


@cli.command(short_help="Just a key-card deck, of any size, in PDF volumes.")
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
    from kitgen.games.codenames import key_volumes

    progress = TerminalProgress()
    try:
        result = key_volumes.build(count, edition, seed, Path(out_dir), paper, duplex, lang, volume_pages, progress,
                                   jobs)
    finally:
        progress.finish()
    click.echo(f"{result.keys} key cards in {len(result.volumes)} volume(s) in {result.target}/")


@cli.command(short_help="A duplex calibration sheet, to measure --back-offset X,Y.")
@click.option("--paper", default="a4", show_default=True, metavar="a4|letter|WxHmm")
@click.option("--duplex", type=click.Choice(["long", "short"]), default="long", show_default=True)
@click.option("--lang", default="en", show_default=True, metavar="LANG")
@click.option("--layout", default="default", show_default=True, metavar="NAME|PATH",
              help="The layout whose calibration section draws the sheet.")
@click.option("--out", "out_dir", default="out", show_default=True, metavar="DIR")
def calibrate(paper, duplex, lang, layout, out_dir):
    """A duplex calibration sheet: print it double-sided once and read the
    --back-offset X,Y your printer needs off its rulers."""
    from . import fonts as fonts_mod, layouts
    from .games.codenames import texts
    from .render import calibration

    the_layout = layouts.load(layout)
    fonts = fonts_mod.register_roles(the_layout)
    data = calibration.render(layouts.page_size(the_layout, paper), the_layout, fonts, texts.load(lang), duplex)
    path = Path(out_dir) / "calibration.pdf"
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(data)
    except OSError as err:
        raise KitgenError(f"cannot write: {err.strerror}", source=str(path)) from None
    click.echo(f"{path}: print it double-sided ({duplex} edge), hold it to the light, read X and Y")


@cli.command(short_help="Tuck boxes for a kit's decks and a stand for key cards.")
@click.argument("kit_file", required=False, metavar="[KIT.yaml]")
@click.option("--deck", metavar="PATH", help="A words deck, or for pictures a folder or YAML deck, as with build.")
@click.option("--edition", type=click.Choice(["words", "pictures", "duet"]),
              help="Without KIT.yaml: the built-in kit of this edition (default: words).")
@click.option("--lang", metavar="LANG", help="Language of the labels; without KIT.yaml, that language's kit.")
@click.option("--game", type=click.Choice(["codenames", "deduction"]),
              help="Without KIT.yaml: the game of the built-in kit (default: codenames).")
@click.option("--keys", type=int, metavar="N", help="Key cards the box holds, as built (default: the kit's).")
@click.option("--players", type=int, metavar="N", help="Deduction: the players the kit was built for (default 4).")
@click.option("--paper", metavar="a4|letter", help="Paper size (default: the kit's, a4).")
@click.option("--color", "colour", type=click.Choice(["rgb", "cmyk"]), default="rgb", show_default=True,
              help="cmyk: every colour from its CMYK values, as build --color cmyk.")
@click.option("--card-thickness", type=float, metavar="MM",
              help="One card's thickness in millimetres; the box is as deep as the deck (default: the layout's "
                   "box.card_thickness, 0.3).")
@click.option("--sleeved", is_flag=True, help="Cards in sleeves: each card thicker, and wider and taller by the "
                                              "sleeve's margin (layout box.sleeve).")
@click.option("--out", "out_dir", default="out", show_default=True, metavar="DIR",
              help="boxes.pdf and boxes.json go into DIR/<kit id>/, beside the kit.")
def box(kit_file, deck, edition, lang, game, keys, players, paper, colour, card_thickness, sleeved, out_dir):
    """A tuck box for each deck of a kit (sized from its cards, their count and thickness) and a
    stand for key cards: nets to cut, fold and glue, in DIR/<kit id>/boxes.pdf with boxes.json."""
    from kitgen import output

    kind = _game_of(kit_file, game)
    _check_game_options(kind, {"--deck": deck, "--keys": keys, "--edition": edition}, {"--players": players})
    if kind == "deduction":
        from kitgen.games.deduction import build as deduction

        kit = deduction.load(kit_file, lang, players, paper, None, None, colour)
        prepared, kit_id = deduction.prepare(kit), kit.theme.id
    else:
        from kitgen.games.codenames import build as builder, kitfile

        kit = kitfile.load(kitfile.kit_path(kit_file, edition, lang), deck=deck, keys=keys, paper=paper,
                           language=lang, colour=colour)
        prepared, kit_id = builder.prepare(kit), kit.id
    files, manifest = _box_files(kind, kit, prepared, card_thickness, sleeved)
    target = Path(out_dir) / kit_id
    output.add_files(target, files)
    pdf = files[0]
    click.echo(f"Boxes for {manifest['name']} ({kit_id}) in {target}/")
    click.echo(f"  {pdf.name:<14} {pdf.pages:>3} page{'s' if pdf.pages != 1 else ' '}  "
               f"{len(pdf.data) / 1024:>7.0f} KiB  {BOX_FILES[pdf.name]}")
    for net in manifest["nets"]:
        inner = net.get("inner_mm")
        size = f"inside {inner['width']:g} x {inner['height']:g} x {inner['depth']:g} mm" if inner else "for one card"
        click.echo(f"    {net['title']}: {'box' if inner else 'stand'}, {size}, page(s) "
                   f"{', '.join(str(p['page']) for p in net['pages'])}")
    click.echo(f"  {'boxes.json':<14} {BOX_FILES['boxes.json']}")


@cli.command(short_help="A local web page to check, build and download kits.")
@click.option("--host", default="127.0.0.1", show_default=True, metavar="HOST",
              help="The address to listen on; any but this machine's own (127.0.0.1, localhost, ::1) lets other "
                   "machines in (a warning says so).")
@click.option("--port", default=0, type=click.IntRange(0, 65535), metavar="N", help="The port (default: a free one).")
@click.option("--no-browser", is_flag=True, help="Do not open the page in the default browser.")
def serve(host, port, no_browser):
    """A local web page to build kits from: paste words or upload a deck or pictures, check,
    build, preview and download. It runs until Ctrl+C; every request needs the address's token
    (docs/design.md §11)."""
    import signal

    from kitgen import serve as server

    if not server.is_loopback(host):
        click.echo(f"kitgen: warning: listening on {host}, not 127.0.0.1: other machines can reach the page; "
                   "only the token in its address keeps them out", err=True)
    running = server.start(host, port)
    signal.signal(signal.SIGTERM, lambda *_: running.server.shutdown())   # stop as for Ctrl+C: children and folders go
    click.echo(f"kitgen serve: open {running.url}")
    click.echo("Press Ctrl+C to stop.")
    try:
        if not no_browser:
            import webbrowser

            webbrowser.open(running.url)
        running.thread.join()
    except KeyboardInterrupt:
        pass
    finally:
        running.stop()


@cli.command(short_help="Write verify.html alone: the offline page that checks keys.")
@click.option("--out", "out_dir", default="out", show_default=True, metavar="DIR",
              help="The page goes to DIR/verify.html.")
def web(out_dir):
    """Write verify.html alone: one offline page that shows a key card from its QR (camera,
    pasted text or the address's #fragment) and checks it against a kit's seed."""
    from kitgen import layouts
    from kitgen.games.codenames import web as web_page

    path = Path(out_dir) / "verify.html"
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(web_page.page(layouts.load("default")))
    except OSError as err:
        raise KitgenError(f"cannot write: {err.strerror}", source=str(path)) from None
    click.echo(f"{path}: open it in a browser (it needs no network), or put it on any web host")


@cli.group()
def deck():
    """Words decks: check one before you build."""


@deck.command("check", short_help="Check a deck before you build: fit, glyphs, duplicates.")
@click.argument("path", metavar="PATH")
@click.option("--layout", default="default", show_default=True, metavar="NAME|PATH",
              help="The layout whose boxes the words must fit.")
@click.option("--json", "as_json", is_flag=True,
              help="Write one JSON document: the lines, and each word or picture with what they say of it.")
def deck_check(path, layout, as_json):
    """Check a deck without rendering: words fit, glyphs exist, no duplicates,
    no near-duplicates (plurals); for a picture deck (a folder or a YAML list),
    every picture opens and is sharp enough. Exit 0 when every check passes."""
    from kitgen import fonts as fonts_mod, pictures
    from kitgen.games.codenames import checks, decks as decks_mod, layout as codenames_layout, picture_decks

    if picture_decks.is_picture_deck(path):
        picture_deck = picture_decks.load(path)
        box = codenames_layout.load("pictures" if layout == "default" else layout).picture_card.picture.box
        report = checks.pictures_report(path, picture_deck, box[2], box[3])
    else:
        the_deck = decks_mod.load(path, strict=False)
        the_layout = codenames_layout.load(layout)
        report = checks.words_report(path, the_deck, the_layout, fonts_mod.register_roles(the_layout))
    if as_json:
        click.echo(json.dumps(report.data(pictures.thumbnail), ensure_ascii=False, indent=1))
    else:
        for status, text in report.lines:
            click.echo(f"{status:<4} {text}")
    if report.failed:
        sys.exit(EXIT_CHECK_FAILED)


@cli.command()
@click.argument("target", metavar="KITDIR|PDF")
@click.option("--pages", default="1", show_default=True, help="Pages to render: 1,3-5 or all.")
@click.option("--dpi", default=100, show_default=True, type=click.IntRange(20, 600), help="Resolution of the PNGs.")
@click.option("--out", "out_dir", metavar="DIR", help="Where the PNGs go (default: a preview folder beside the PDF).")
def preview(target, pages, dpi, out_dir):
    """Render pages of a kit (its kit.pdf) or of any PDF to PNG files."""
    from . import preview as previewer

    for path in previewer.render(Path(target), pages, dpi, Path(out_dir) if out_dir else None):
        click.echo(str(path))


DECK_TEMPLATE = """# {name}: a words deck for kitgen.
# Fill in the words below, one per line after a dash, then try it:
#   kitgen deck check {file}
#   kitgen game --deck {file}              (one game to print or project)
#   kitgen build --deck {file}             (a whole kit of cards)
# Good codenames are concrete nouns with more than one meaning (Bank, Bat, Crane).
# You need at least 25 different words; 50 or more make better games.
# Words are compared without case and spaces: "Bank" and "bank " are the same word.
name: {name}
language: en          # en, ru or fa: the language of the printed labels
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
            handle.write(DECK_TEMPLATE.format(name=name, file=path.name))
    except OSError as err:
        raise KitgenError(f"cannot write: {err.strerror}", source=str(path)) from None
    click.echo(f"{path}: fill in the words, then: kitgen deck check {path}")


def parse_offset(text: str | None) -> tuple[float, float]:
    """``"0.5,-1"`` (mm) -> points."""
    if text is None:
        return (0.0, 0.0)
    from .units import mm

    try:
        x, y = (float(v) for v in text.split(","))
    except ValueError:
        raise KitgenError(f"--back-offset {text!r}: write X,Y in millimetres, e.g. 0.5,-1") from None
    if max(abs(x), abs(y)) > 20:
        raise KitgenError(f"--back-offset {text!r}: more than 20 mm; measure again with kitgen calibrate")
    return (mm(x), mm(y))


class TerminalProgress:
    """Notes on stderr, and a progress bar there when it is a terminal; with KITGEN_PROGRESS=lines
    (as ``kitgen serve`` runs a build, docs/design.md §11) a line ``kitgen: progress N/TOTAL`` a page,
    and with KITGEN_DRAWN=DIR each part's PDF written to DIR as soon as it is drawn, then a line
    ``kitgen: drawn NAME``."""

    def __init__(self):
        self.bar = None
        self.lines = os.environ.get("KITGEN_PROGRESS") == "lines"
        self.drawn_to = os.environ.get("KITGEN_DRAWN")
        self.drawn, self.pages = 0, 0

    def note(self, line: str) -> None:
        if sys.stderr.isatty():       # a script reading stderr gets one line: the error, if any
            click.echo(f"kitgen: {line}", err=True)

    def start(self, pages: int) -> None:
        self.pages = pages
        if sys.stderr.isatty() and pages:
            self.bar = click.progressbar(length=pages, label="drawing pages", file=sys.stderr)
            self.bar.__enter__()

    def page(self) -> None:
        if self.bar is not None:
            self.bar.update(1)
        if self.lines:
            self.drawn += 1
            click.echo(f"kitgen: progress {self.drawn}/{self.pages}", err=True)

    def part_drawn(self, name: str, data: bytes) -> None:
        if self.drawn_to:
            from .output import BuiltFile, add_files

            add_files(Path(self.drawn_to), [BuiltFile(name, data, 0)])
            click.echo(f"kitgen: drawn {name}", err=True)

    def warn(self, line: str) -> None:
        click.echo(f"kitgen: warning: {line}", err=True)

    def finish(self) -> None:
        if self.bar is not None:
            self.bar.__exit__(None, None, None)
            self.bar = None


def main(argv=None):
    """Entry point: ``kitgen`` as a program; errors are one line each (``KitgenGroup.main``)."""
    from . import fonts

    # the first run on a machine cuts fonts (a few seconds, once): say so, terminal or not
    fonts.set_announcer(lambda line: click.echo(f"kitgen: {line}", err=True))
    cli.main(args=argv, prog_name="kitgen")


if __name__ == "__main__":
    main()
