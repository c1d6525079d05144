"""The deduction game's --ink saver and --layout (issue 26, point 15): an ink-saver kit spends much
less ink on the board, cards, tiles and tokens than the normal one (mean darkness of their rasters);
in a greyscale raster every player's tokens differ from every other's by their shape; a layout file
that extends the default and changes one number changes the kit accordingly; a bad layout is one
line; the manifest records both options."""

import json

import pytest
from PIL import ImageChops, ImageStat

from kitgen import layouts
from kitgen.games.deduction import build
from kitgen.games.deduction.render import pages
from kitgen.render.document import TWO_SIDED

from oneline import kitgen, refused
from pdfread import Pdf, interpret
from raster import page_count, render_page

COVERAGE_DPI = 30
# the saver's mean darkness at most this share of the normal kit's, file by file (the board: its names,
# frames, tracks and emblems keep their ink; its map, streets, town and spots go pale)
MOST = {"board.pdf": 0.65, "cards.pdf": 0.5, "tiles.pdf": 0.5, "tokens.pdf": 0.5, "kit.pdf": 0.6}
# en, 2 players, the board in pieces on A4; ru, 5 players, the board whole on A3
KITS = [("en", 2, None), ("ru", 5, "a3")]


def files_of(lang, players, board_paper, ink):
    kit = build.load(language=lang, players=players, board_paper=board_paper, ink=ink)
    files, manifest = build.build_files(kit)
    return {f.name: f.data for f in files}, manifest


@pytest.fixture(scope="module", params=KITS, ids=lambda k: f"{k[0]}-{k[1]}p-{k[2] or 'a4'}")
def pair(request):
    return {ink: files_of(*request.param, ink) for ink in ("normal", "saver")}


def darkness(pdf: bytes) -> float:
    """The mean darkness (0 white, 1 black) of every page of ``pdf`` at COVERAGE_DPI."""
    pages_ = page_count(pdf)
    return sum(1 - ImageStat.Stat(render_page(pdf, i, COVERAGE_DPI).convert("L")).mean[0] / 255
               for i in range(pages_)) / pages_


def test_the_ink_saver_kit_spends_far_less_ink(pair):
    for name, most in MOST.items():
        normal, saver = darkness(pair["normal"][0][name]), darkness(pair["saver"][0][name])
        assert saver <= most * normal, (name, normal, saver)
    for name in ("rules.pdf", "setup.pdf"):             # text: the same page count, no more ink
        assert page_count(pair["saver"][0][name]) == page_count(pair["normal"][0][name])
        assert darkness(pair["saver"][0][name]) <= darkness(pair["normal"][0][name]) + 1e-6


def test_the_manifest_records_ink_and_layout(pair):
    assert pair["normal"][1]["options"]["ink"] == "normal"
    assert pair["saver"][1]["options"]["ink"] == "saver"
    assert pair["saver"][1]["options"]["layout"] == "default"
    # the same game dealt: only the print differs
    assert pair["saver"][1]["slips"] == pair["normal"][1]["slips"]


def token_images(data: bytes, players: int, kind: str, dpi: int = 150):
    """Each player's first token of ``kind``, cut from a greyscale raster of tokens.pdf."""
    kit = build.load(players=players, ink="saver")
    layout = build.load_layout(kit)
    size = layouts.page_size(layout, kit.paper)
    images = {}
    for sheet, item, x, y in pages.token_places(layout, size, players):
        if item[0] != kind or item[1] in images:
            continue
        index = (sheet - 1) * (2 if kit.duplex in TWO_SIDED else 1)       # a token sheet's back is blank
        page = render_page(data, index, dpi).convert("L")
        s = dpi / 72
        w, h = item[2], item[3]
        images[item[1]] = page.crop((round(x * s), round((size[1] - y - h) * s),
                                     round((x + w) * s), round((size[1] - y) * s)))
    return images


@pytest.fixture(scope="module")
def saver_tokens():
    return files_of("en", 5, None, "saver")[0]["tokens.pdf"]


@pytest.mark.parametrize("kind", ["investigator", "disc", "cube", "score", "penalty"])
def test_in_greyscale_every_players_tokens_differ_by_their_shape(saver_tokens, kind):
    images = token_images(saver_tokens, 5, kind)
    assert sorted(images) == [1, 2, 3, 4, 5]
    masks = {p: im.point(lambda v: 255 if v < 128 else 0) for p, im in images.items()}   # the dark: shape, line
    for p, mask in masks.items():
        assert ImageStat.Stat(mask).mean[0] / 255 > 0.03, p               # a shape is printed dark enough
    for a in masks:
        for b in masks:
            if a < b:
                other = masks[b].resize(masks[a].size)
                differ = ImageStat.Stat(ImageChops.difference(masks[a], other)).mean[0]
                either = ImageStat.Stat(ImageChops.lighter(masks[a], other)).mean[0]
                # the same shape differs in no dark pixel; a circle and a square (the nearest pair) in 11 %
                assert differ / either > 0.08, (kind, a, b, differ / either)


def name_sizes(data: bytes) -> set[float]:
    pdf = Pdf(data)
    return {round(s.size, 1) for s in interpret(pdf, pdf.pages()[0])[0]}


def test_a_layout_file_that_changes_one_number_changes_the_kit(tmp_path):
    (tmp_path / "small.yaml").write_text("extends: default\ncase_card:\n  name: {size: 12pt}\n")
    result = kitgen("build", "--game", "deduction", "--players", "2", "--layout", "small.yaml", "--out", "o",
                    cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    folder = tmp_path / "o" / "deduction-en"
    manifest = json.loads((folder / "manifest.json").read_text())
    assert manifest["options"]["layout"] == "small.yaml" and manifest["options"]["ink"] == "normal"
    normal = files_of("en", 2, None, "normal")[0]
    assert 15.0 in name_sizes(normal["cards.pdf"])               # the default: names at 15 pt
    sizes = name_sizes((folder / "cards.pdf").read_bytes())
    assert 15.0 not in sizes and 12.0 in sizes
    assert (folder / "tiles.pdf").read_bytes() == normal["tiles.pdf"]        # nothing else changed


def test_ink_saver_and_layout_on_the_command_line(tmp_path):
    (tmp_path / "bold.yaml").write_text("extends: default\ntokens: {tint: 0.3}\n")
    result = kitgen("build", "--game", "deduction", "--players", "3", "--ink", "saver", "--layout", "bold.yaml",
                    "--lang", "ru", "--out", "o", cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    options = json.loads((tmp_path / "o" / "deduction-ru" / "manifest.json").read_text())["options"]
    assert (options["ink"], options["layout"]) == ("saver", "bold.yaml")


@pytest.mark.parametrize("text, needle", [
    ("extends: default\ntokens: {tint: 2}\n", "tokens.tint is a share of a colour"),
    ("extends: default\ncase_card:\n  band: {tint: -1}\n", "must not be negative"),
    ("extends: default\nboard:\n  location: {slot: 10mm}\n", "smaller than a tile"),
    ("extends: nowhere\n", "no layout named 'nowhere'"),
    ("extends: default\nboard: {backdrop: map}\n", "unknown key 'board.backdrop'"),
])
def test_a_bad_layout_is_one_line(tmp_path, text, needle):
    (tmp_path / "bad.yaml").write_text(text)
    result = kitgen("build", "--game", "deduction", "--layout", "bad.yaml", "--out", "o", cwd=tmp_path)
    refused(result, needle)
    assert not (tmp_path / "o").exists()


def test_an_unknown_layout_name_and_a_missing_file_are_one_line(tmp_path):
    refused(kitgen("build", "--game", "deduction", "--layout", "nosuch", "--out", "o", cwd=tmp_path),
            "no layout named 'nosuch'")
    refused(kitgen("build", "--game", "deduction", "--layout", "gone.yaml", "--out", "o", cwd=tmp_path),
            "layout file not found")


def test_codenames_build_takes_layout_too_and_keeps_the_kit_files(tmp_path):
    """build --layout is both games' option: for Codenames it stands in for the kit file's layout: key."""
    (tmp_path / "small.yaml").write_text("extends: default\ncodename_card:\n  word: {size: 14pt}\n")
    for out, extra in (("plain", ()), ("small", ("--layout", "small.yaml"))):
        result = kitgen("build", "--keys", "2", *extra, "--out", out, cwd=tmp_path)
        assert result.returncode == 0, result.stderr
    plain, small = (tmp_path / "plain" / "classic-en", tmp_path / "small" / "classic-en")
    assert json.loads((small / "manifest.json").read_text())["options"]["layout"] == "small.yaml"
    assert max(name_sizes((plain / "codenames.pdf").read_bytes())) == 20.0
    assert max(name_sizes((small / "codenames.pdf").read_bytes())) == 14.0
    assert (small / "keys.pdf").read_bytes() == (plain / "keys.pdf").read_bytes()
    refused(kitgen("build", "--keys", "2", "--layout", "nosuch", "--out", "o", cwd=tmp_path),
            "no layout named 'nosuch'")
