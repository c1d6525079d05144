"""What the commands share: a build's report, its print options, the progress on stderr, a verify
report, and the family options a command takes (``family_options``, from the families' declarations)."""

import os
import sys
from dataclasses import dataclass
from pathlib import Path

import click

from .. import families
from ..errors import KitgenError
from .errors import EXIT_CHECK_FAILED


def echo_files(files, manifest: dict, what: dict[str, str], png_dpi, skip: tuple[str, ...]) -> None:
    """A build's report, either game's: a line for each file (``what`` says what it is; a per-card
    PDF by default) but the PNG faces, a service's upload and those named in ``skip``; then one
    line for the PNG faces and the service's upload's lines (``echo_pod``)."""
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
        echo_pod(manifest["pod"], service)


def pdfx_profile(pdfx: bool, icc: str | None, colour: str):
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


def say_pdfx(manifest: dict):
    """One line on what a --pdfx build's PDFs are."""
    pdfx = manifest["options"].get("pdfx")
    if pdfx:
        click.echo(f"  every PDF is {pdfx['version']} for {pdfx['profile']['name']} ({pdfx['profile']['condition']}), "
                   f"at most {pdfx['max_ink']:g}% ink")


def echo_pod(record: dict, files) -> None:
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


def report(results, what: str, passed: str):
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


def parse_offset(text: str | None) -> tuple[float, float]:
    """``"0.5,-1"`` (mm) -> points."""
    if text is None:
        return (0.0, 0.0)
    from ..units import mm

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

    def start(self, pages: int, label: str = "drawing pages") -> None:
        self.pages = pages
        if sys.stderr.isatty() and pages:
            self.bar = click.progressbar(length=pages, label=label, file=sys.stderr)
            self.bar.__enter__()

    def page(self) -> None:
        if self.bar is not None:
            self.bar.update(1)
        if self.lines:
            self.drawn += 1
            click.echo(f"kitgen: progress {self.drawn}/{self.pages}", err=True)

    def part_drawn(self, name: str, data: bytes) -> None:
        if self.drawn_to:
            from ..output import BuiltFile, add_files

            add_files(Path(self.drawn_to), [BuiltFile(name, data, 0)])
            click.echo(f"kitgen: drawn {name}", err=True)

    def warn(self, line: str) -> None:
        click.echo(f"kitgen: warning: {line}", err=True)

    def finish(self) -> None:
        if self.bar is not None:
            self.bar.__exit__(None, None, None)
            self.bar = None


@dataclass
class Request:
    """A kernel command as a family runs it: the kit file, every option's value by name (the kernel's
    and the family's: ``values``), and for a build the print options every family takes
    (``print_options``: per_card, png_dpi, cut_lines, slug, pod, pdfx, back_offset) and ``boxing``,
    (card thickness, sleeved) with ``--box``, else None."""

    kit_file: str | None
    values: dict
    print_options: dict | None = None
    boxing: tuple | None = None


_CLICK_TYPES = {"text": None, "path": None, "choice": None, "int": int, "float": float, "flag": None}


def click_option(option: families.Option, owners: tuple) -> click.Option:
    """A family's ``Option`` as click's, shown under its game's title in the help."""
    if option.kind == "choice" and option.cli_checks:
        kind = click.Choice(list(option.choices))
    elif option.kind == "int" and option.cli_checks and (option.low is not None or option.high is not None):
        kind = click.IntRange(option.low, option.high)
    else:
        kind = _CLICK_TYPES[option.kind]
    made = click.Option([option.flag, option.dest], type=kind, is_flag=option.kind == "flag",
                        default=option.default if option.kind != "flag" else False,
                        show_default=option.default is not None and option.kind != "flag",
                        metavar=option.metavar, help=option.help)
    made.section = "Options of " + " and ".join(f"the {f.title} game" for f in owners)
    return made


def family_options(command: str):
    """A decorator: every family's options of ``command``, after the kernel's."""
    def decorate(function):
        function.__click_params__ = getattr(function, "__click_params__", [])
        for option, owners in reversed(families.options(command)):     # click reverses what decorators add
            function.__click_params__.append(click_option(option, owners))
        return function
    return decorate


def game_option(command: str):
    """``--game NAME``, the names of the families that take part in ``command``."""
    names = [f.name for f in families.taking(command)]
    return click.option("--game", type=click.Choice(names), help=f"Without KIT.yaml: the game of the built-in kit "
                        f"(default: {families.default().name}). A kit file names its game.")


def run_for_family(command: str, kit_file: str | None, game: str | None, values: dict, **more):
    """Run ``command`` for the family it is for (``families.for_kit``), once the options of other
    families are refused: the family's runner gets a ``Request``."""
    family, chosen = families.for_kit(kit_file, game)
    if command not in family.runs:
        raise KitgenError(f"the {family.title} game has no kitgen {command}")
    families.refuse_foreign(command, family, chosen, values)
    return family.run(command)(Request(kit_file, values, **more))


def with_progress(run):
    """``run(progress)`` with a ``TerminalProgress`` on stderr, finished whatever happens."""
    progress = TerminalProgress()
    try:
        return run(progress)
    finally:
        progress.finish()


def echo_boxes(target: Path, files, manifest: dict, kit_id: str) -> None:
    """``kitgen box``'s report: the PDF, each net with its inner size and pages, the JSON."""
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


def echo_proof(result, path: Path) -> None:
    """A proof's report, any game's: a line a check, where the proof went; exit 3 when one failed."""
    for check in result.results:
        click.echo(f"{check.status} {check.text}")
    click.echo(f"Proof written to {path}")
    if result.failed:
        sys.exit(EXIT_CHECK_FAILED)


def write_file(path: Path, data: bytes) -> None:
    """A command's one file, its folder made; a failure to write is one line naming it."""
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(data)
    except OSError as err:
        raise KitgenError(f"cannot write: {err.strerror}", source=str(path)) from None
