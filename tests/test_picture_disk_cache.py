"""The picture store (kitgen/pictures.py SvgStore, docs/design.md §8.6): what svglib made of an
SVG and the operators its drawing gave are kept on disk, so a later run neither imports svglib
nor parses an SVG it has seen; it gives the same bytes; and what it reads from the folder is
used only when it is in every key and type what kitgen writes."""

import hashlib
import io
import json
import os
import shutil
import subprocess
import sys
from collections import Counter
from pathlib import Path

import pytest
from click.testing import CliRunner
from PIL import Image

from kitgen import pictures
from kitgen.cli import cli
from kitgen.errors import KitgenError
from kitgen.render import pictures as picture_drawing

BROKEN = b"<svg xmlns='http://www.w3.org/2000/svg'><broken"


def svg(i: int, extra: str = "") -> bytes:
    """A small SVG, different for each ``i``: a circle and an outline in currentColor."""
    return (f'<svg xmlns="http://www.w3.org/2000/svg" width="{40 + i}" height="40">'
            f'<circle cx="20" cy="20" r="{5 + i % 10}" fill="currentColor"/>'
            f'<rect x="2" y="2" width="8" height="{4 + i}" fill="#3366cc" stroke="currentColor"/>'
            f'{extra}</svg>').encode()


FAINT = '<rect x="20" y="20" width="9" height="9" fill="#00aa00" fill-opacity="0.4"/>'
TEXT = '<text x="4" y="30" font-family="Times" font-size="9" fill="#aa2200">Hi</text>'


def deck(folder: Path, plain: int = 16) -> Path:
    """A folder deck: ``plain`` SVGs whose operators can be given again, two with transparency
    and two with text (which name resources, so they are drawn in every run), and two PNGs."""
    folder.mkdir()
    for i in range(plain):
        (folder / f"p{i:02d}.svg").write_bytes(svg(i))
    for i in range(2):
        (folder / f"f{i}.svg").write_bytes(svg(30 + i, FAINT))
        (folder / f"t{i}.svg").write_bytes(svg(40 + i, TEXT))
        buffer = io.BytesIO()
        Image.new("RGBA", (300, 200), (200, 40 * i, 40, 128)).save(buffer, "PNG")
        (folder / f"r{i}.png").write_bytes(buffer.getvalue())
    return folder


class Runs:
    """Runs of kitgen in this process, each as a new process would start: empty in-process
    picture caches and a fresh store on ``folder`` as the last run left it (written, as at
    exit); counters of SVG parses and renders, and the contents made ready to draw (parsed
    and prepared, then rendered: those whose operators were not given again)."""

    def __init__(self, monkeypatch, tmp_path: Path):
        import reportlab.graphics.renderPDF
        import svglib.svglib

        self.monkeypatch, self.folder, self.outs = monkeypatch, tmp_path / "store", tmp_path / "outs"
        self.counts, self.prepared, self.store = Counter(), set(), None
        parse, render, ready = svglib.svglib.svg2rlg, reportlab.graphics.renderPDF.draw, picture_drawing._ready

        def counting_parse(*args, **kwargs):
            self.counts["parses"] += 1
            return parse(*args, **kwargs)

        def counting_render(*args, **kwargs):
            self.counts["renders"] += 1
            return render(*args, **kwargs)

        def noting_ready(picture, *args):
            self.prepared.add(hashlib.sha256(picture.data).digest())
            return ready(picture, *args)

        monkeypatch.setattr(svglib.svglib, "svg2rlg", counting_parse)
        monkeypatch.setattr(reportlab.graphics.renderPDF, "draw", counting_render)
        monkeypatch.setattr(picture_drawing, "_ready", noting_ready)

    def new(self, folder: Path | None = ...) -> "Runs":
        """The next run (with its store in ``folder`` from now on, if given; None: no store)."""
        self.finish()
        if folder is not ...:
            self.folder = folder
        m = self.monkeypatch
        self.store = pictures.SvgStore(self.folder)
        m.setattr(pictures, "_store", self.store)
        m.setattr(pictures, "_drawings", pictures.ContentCache(4096))
        m.setattr(picture_drawing, "_drawings", pictures.ContentCache(4096))
        m.setattr(picture_drawing, "_codes", pictures.ContentCache(4096))
        m.setattr(picture_drawing, "_readers",
                  pictures.ContentCache(1024, budget=128_000_000, weigh=picture_drawing._weight))
        self.counts.clear()
        self.prepared.clear()
        return self

    def finish(self) -> None:
        """What the run learnt is written, as it is when a process exits."""
        if self.store is not None:
            self.store.flush()

    def kitgen(self, *args) -> dict:
        """``kitgen ARGS --out <a fresh folder>``: every file written, by its path there."""
        self.outs.mkdir(exist_ok=True)
        out = self.outs / str(len(list(self.outs.iterdir())))
        result = CliRunner().invoke(cli, [*args, "--out", str(out)], catch_exceptions=False)
        assert result.exit_code == 0, result.output
        return {p.relative_to(out).as_posix(): p.read_bytes() for p in sorted(out.rglob("*")) if p.is_file()}


@pytest.fixture
def runs(tmp_path, monkeypatch):
    """Runs with their store in ``tmp_path/store``, written at the end."""
    made = Runs(monkeypatch, tmp_path)
    yield made
    made.finish()


def stored_files(folder: Path) -> list[Path]:
    return sorted(folder.glob("*.json")) if folder.is_dir() else []


WATCH_IMPORTS = ("import atexit, sys\n"
                 "atexit.register(lambda: print('svglib', 'svglib' in sys.modules, file=sys.stderr))\n"
                 "from kitgen.cli import main\n"
                 "main(sys.argv[1:])\n")


def test_a_warm_build_is_the_cold_build_and_never_imports_svglib(tmp_path):
    """Run as kitgen runs, in new processes: the first build with an empty store parses every
    icon; the next, in RGB and in CMYK, import no svglib and write the same bytes."""
    cache = tmp_path / "cache"
    fonts = Path(os.environ["KITGEN_CACHE"]) / "fonts"
    if fonts.is_dir():
        shutil.copytree(fonts, cache / "fonts")          # fonts cut once for the session: not again here
    env = dict(os.environ, KITGEN_CACHE=str(cache))

    def build(out: str, *args) -> tuple[dict, str]:
        done = subprocess.run([sys.executable, "-c", WATCH_IMPORTS, "build", "--edition", "pictures", "--keys", "2",
                               *args, "--out", str(tmp_path / out)], env=env, capture_output=True, text=True)
        assert done.returncode == 0, done.stderr
        files = {p.relative_to(tmp_path / out).as_posix(): p.read_bytes()
                 for p in sorted((tmp_path / out).rglob("*")) if p.is_file()}
        return files, done.stderr.splitlines()[-1]

    cold, imported = build("cold")
    assert imported == "svglib True"
    assert len(stored_files(cache / "pictures")) >= 280
    cold_cmyk, imported = build("cold-cmyk", "--color", "cmyk")
    assert imported == "svglib True"                  # the store knew each icon, not its CMYK operators
    for out, args, kit in (("warm", (), cold), ("warm-cmyk", ("--color", "cmyk"), cold_cmyk)):
        warm, imported = build(out, *args)
        assert imported == "svglib False"
        assert warm == kit and len(kit) >= 6


NAMING_RESOURCES = {hashlib.sha256(svg(n + i, extra)).digest() for i in range(2) for n, extra in ((30, FAINT),
                                                                                                  (40, TEXT))}


def test_a_warm_run_parses_and_draws_only_what_names_resources_and_gives_the_same_bytes(runs, tmp_path):
    folder = deck(tmp_path / "pics")
    kit = ("--edition", "pictures", "--deck", str(folder))
    for n, args in enumerate((("build", *kit, "--keys", "2"),
                              ("build", *kit, "--keys", "2", "--color", "cmyk", "--per-card"),
                              ("proof", *kit, "--keys", "2"),
                              ("game", *kit, "--seed", "s", "--count", "2"))):
        without = runs.new(None).kitgen(*args)
        cold = runs.new(tmp_path / f"store-{n}").kitgen(*args)
        assert runs.counts["parses"] == 20
        warm = runs.new().kitgen(*args)
        if args[0] == "game":                         # two boards: not every picture of the deck
            assert runs.prepared and runs.prepared <= NAMING_RESOURCES
        else:
            assert runs.prepared == NAMING_RESOURCES
        assert runs.counts["parses"] == len(runs.prepared)
        assert warm == cold == without                # as kitgen draws without a store
    assert all(len(stored_files(tmp_path / f"store-{n}")) == 20 for n in range(4))


def test_each_colour_mode_adds_its_operators_to_the_same_file(runs, tmp_path):
    folder = deck(tmp_path / "pics", plain=20)
    rgb = ("build", "--edition", "pictures", "--deck", str(folder), "--keys", "2")
    cmyk = (*rgb, "--color", "cmyk")
    kits = {args: runs.new().kitgen(*args) for args in (rgb, cmyk)}
    runs.finish()
    plain = {hashlib.sha256(svg(i)).hexdigest() for i in range(20)}
    entries = [json.loads(p.read_text()) for p in stored_files(tmp_path / "store")]
    assert len(entries) == 24
    assert all(len(entry["replays"]) == (2 if entry["svg"] in plain else 0) for entry in entries)
    for args, kit in kits.items():
        assert runs.new().kitgen(*args) == kit and runs.counts["parses"] == 4


def test_two_runs_at_once_keep_each_others_operators(tmp_path):
    """Each run merges what it learnt into the file as it is when it writes; a file keeps the
    newest MAX_REPLAYS replay keys."""
    digest = hashlib.sha256(svg(1)).digest()
    one, two = pictures.SvgStore(tmp_path), pictures.SvgStore(tmp_path)
    for store in (one, two):
        store.remember(digest, "#FE01FD", 30.75, 30.0)
    one.add_operators(digest, "one", ["q", "0 0 m", "Q"], (1, 3))
    two.add_operators(digest, "two", ["q", "1 1 m", "Q"], (1, 4))
    one.flush()
    two.flush()
    assert pictures.SvgStore(tmp_path).operators(digest, "one") == (("q", "0 0 m", "Q"), (1, 3))
    assert pictures.SvgStore(tmp_path).operators(digest, "two") == (("q", "1 1 m", "Q"), (1, 4))
    many = pictures.SvgStore(tmp_path)
    for i in range(pictures.MAX_REPLAYS + 5):
        many.add_operators(digest, f"k{i}", ["q", "Q"], (1, 3))
    many.flush()
    (path,) = stored_files(tmp_path)
    assert list(json.loads(path.read_text())["replays"]) == [f"k{i}" for i in range(5, pictures.MAX_REPLAYS + 5)]


def bad_line(char):
    """The fourth line of each stored drawing names something (``/``), writes a string or a dictionary."""
    def change(entry):
        for replay in entry["replays"].values():
            replay["lines"][3] += f" {char}F1 1 Tf"
    return change


def wrong(how):
    """Lines that would draw nothing, and ``how``: if the file were trusted, the picture would
    not be drawn (or kitgen would fail)."""
    def change(entry):
        for replay in entry["replays"].values():
            replay["lines"] = ["q", "Q"]
        how(entry)
    return change


TAMPERINGS = {
    "a name": bad_line("/"),
    "a string": bad_line("("),
    "a dictionary": bad_line("<"),
    "a line not text": wrong(lambda e: [r.update(lines=["q", 1, "Q"]) for r in e["replays"].values()]),
    "lines not a list": wrong(lambda e: [r.update(lines="q Q") for r in e["replays"].values()]),
    "version as text": wrong(lambda e: [r.update(version="1.4") for r in e["replays"].values()]),
    "width as text": wrong(lambda e: e.update(width=str(e["width"]))),
    "width zero": wrong(lambda e: e.update(width=0)),
    "height not finite": wrong(lambda e: e.update(height=float("inf"))),
    "another recipe": wrong(lambda e: e.update(recipe="0" * 12)),
    "another content": wrong(lambda e: e.update(svg="0" * 64)),
    "an unknown stand-in": wrong(lambda e: e.update(stand_in="#000000")),
    "a key more": wrong(lambda e: e.update(note="hi")),
    "a key less": wrong(lambda e: e.pop("stand_in")),
    "replays not an object": wrong(lambda e: e.update(replays=[[k, v] for k, v in e["replays"].items()])),
}


@pytest.mark.parametrize("how", [*TAMPERINGS, "bad JSON", "not an object", "empty"])
def test_a_tampered_store_file_is_a_miss_never_trusted_and_is_written_right_again(runs, tmp_path, how):
    folder = deck(tmp_path / "pics", plain=20)
    args = ("build", "--edition", "pictures", "--deck", str(folder), "--keys", "2")
    cold = runs.new().kitgen(*args)
    runs.finish()
    good = {p: p.read_bytes() for p in stored_files(tmp_path / "store")}
    tampered = [p for p in good if json.loads(good[p])["replays"]][:5]
    for path in tampered:
        entry = json.loads(path.read_text())
        if how == "bad JSON":
            path.write_text(path.read_text()[:-40])
        elif how == "not an object":
            path.write_text(json.dumps([entry]))
        elif how == "empty":
            path.write_bytes(b"")
        else:
            TAMPERINGS[how](entry)
            path.write_text(json.dumps(entry))
    assert runs.new().kitgen(*args) == cold
    assert runs.counts["parses"] == 5 + 4             # the tampered ones, and the four that are always drawn
    runs.finish()
    assert {p: p.read_bytes() for p in stored_files(tmp_path / "store")} == good


def test_an_edited_svg_is_parsed_again_an_unchanged_one_is_not(runs, tmp_path):
    folder = deck(tmp_path / "pics", plain=20)
    args = ("build", "--edition", "pictures", "--deck", str(folder), "--keys", "2")
    runs.new().kitgen(*args)
    (folder / "p03.svg").write_bytes(svg(3).replace(b'width="43"', b'width="77"'))
    edited = runs.new().kitgen(*args)
    assert runs.counts["parses"] == 1 + 4             # the edited file (and the four always drawn)
    assert edited == runs.new(None).kitgen(*args)     # as without a store: drawn at its new size
    assert len(stored_files(tmp_path / "store")) == 25


def test_a_cache_folder_that_cannot_be_written_still_builds(runs, tmp_path):
    blocked = tmp_path / "a-file"
    blocked.write_text("not a folder")
    folder = deck(tmp_path / "pics")
    args = ("build", "--edition", "pictures", "--deck", str(folder), "--keys", "2")
    without = runs.new(None).kitgen(*args)
    assert runs.new(blocked / "pictures").kitgen(*args) == without
    runs.finish()                                     # writing fails quietly
    assert runs.new().kitgen(*args) == without and runs.counts["parses"] == 20
    runs.finish()
    assert blocked.read_text() == "not a folder"


def test_a_broken_svg_is_refused_cold_and_warm_and_never_stored(runs, tmp_path):
    folder = deck(tmp_path / "pics")
    (folder / "zz.svg").write_bytes(BROKEN)
    for run in range(2):
        runs.new()
        for where in ("a.svg", "b.svg"):
            with pytest.raises(KitgenError, match="not an SVG picture that can be read") as err:
                pictures.read_picture(where, BROKEN, True)
            assert err.value.source == where
        result = CliRunner().invoke(cli, ["build", "--edition", "pictures", "--deck", str(folder),
                                          "--out", str(tmp_path / f"out{run}")])
        assert result.exit_code != 0
        assert "zz.svg" in result.output and "not an SVG picture that can be read" in result.output
        assert runs.counts["parses"] == (21 if run == 0 else 1) + 2     # a.svg and b.svg too
    runs.finish()
    names = {p.name.split("-")[0] for p in stored_files(tmp_path / "store")}
    assert len(names) == 20 and hashlib.sha256(BROKEN).hexdigest() not in names


def test_replay_keys_are_the_same_text_in_every_process(runs, tmp_path):
    """The canvas's colour-space rule (a function) is named by its module and name, never its
    address; a state with no such form is not stored."""
    folder = deck(tmp_path / "pics")
    runs.new().kitgen("build", "--edition", "pictures", "--deck", str(folder), "--keys", "2", "--color", "cmyk")
    runs.finish()
    keys = [k for p in stored_files(tmp_path / "store") for k in json.loads(p.read_text())["replays"]]
    assert keys and all(" at 0x" not in k and "._enforceCMYK" in k for k in keys)
    assert picture_drawing._stored_key((b"\0", "f", True, "Color(0,0,0,1)", (object(), ()))) is None
    assert picture_drawing._stored_key((b"\0", "f", True, "Color(0,0,0,1)", (lambda c: c, ()))) is None
