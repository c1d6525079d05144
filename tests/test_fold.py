"""Gutter-fold sheets (--duplex fold, docs/design.md §8.2): the geometry, a raster folded
along its fold line, and whole kits (words, pictures, deduction) printed so."""

import json
import re
import subprocess
import sys

import pytest
from hypothesis import assume, given, strategies as st
from PIL import ImageOps
from reportlab.lib.colors import Color

from kitgen.errors import KitgenError
from kitgen.render import document
from kitgen.render.cards import CardSet
from kitgen.render.sheet import CardSpec, Fold, Placement, impose_fold, mirrored, paginate
from kitgen.units import mm

from raster import page_count, render_page

A4 = (mm(210), mm(297))
LETTER = (8.5 * 72, 11 * 72)


def _fold_grid(layout, section, paper):
    s = getattr(layout, section)
    spec = CardSpec(*s.size, s.bleed, s.gutter)
    return spec, document.sheet_grid(layout, spec, paper, fold=True)


@pytest.mark.parametrize("section, paper, expected", [
    ("codename_card", A4, (4, 2, True, "y")),       # 8 a sheet: half the 16 of a duplex sheet
    ("codename_card", LETTER, (3, 3, False, "y")),
    ("key_card", A4, (3, 2, False, "y")),
    ("tile", A4, (5, 2, True, "y")),
    ("picture_card", A4, (3, 2, False, "y")),
    ("case_card", A4, (2, 2, True, "y")),           # the 6 mm fold gap is what lets two rows in
    ("case_card", LETTER, (1, 3, True, "x")),       # folded down the middle: 3, where across holds 2
])
def test_cards_a_fold_sheet_holds(default_layout, section, paper, expected):
    _, grid = _fold_grid(default_layout, section, paper)
    assert (grid.cols, grid.rows, grid.rotated, grid.fold.axis) == expected
    assert grid.fold.position == pytest.approx(paper[1] / 2 if grid.fold.axis == "y" else paper[0] / 2)


@given(w=st.floats(10, 120), h=st.floats(10, 120), bleed=st.sampled_from([0.0, 2.0, 3.0]),
       gutter=st.sampled_from([0.0, 4.0, 6.0]), fold_gutter=st.floats(0, 20),
       paper=st.sampled_from([A4, LETTER, (A4[1], A4[0]), (mm(100), mm(100))]))
def test_fold_geometry(w, h, bleed, gutter, fold_gutter, paper):
    """Fronts on one side of the fold line, backs on the other, every face and its bleed
    inside the printable area and clear of the crop-mark zone, none overlapping, the
    fold line touching no bleed, and a back's point (u, v) behind its front's (w - u, v)."""
    spec = CardSpec(mm(w), mm(h), mm(bleed), mm(gutter))
    margin, zone = mm(5), mm(5)
    try:
        grid = impose_fold(*paper, margin, spec, zone, mm(fold_gutter))
    except KitgenError:
        assume(False)
    page = paginate(grid.per_sheet, grid, "fold")[0]
    assert page.side == "fold" and len(page.cards) == len(page.backs) == grid.per_sheet
    gap = max(mm(fold_gutter), 2 * spec.bleed)
    b = spec.bleed
    axis, f = grid.fold.axis, grid.fold.position
    for (i, front), (j, back) in zip(page.cards, page.backs):
        assert i == j
        for p in (front, back):
            assert margin + zone - 1e-3 <= p.x - b and p.x + p.width + b <= paper[0] - margin - zone + 1e-3
            assert margin + zone - 1e-3 <= p.y - b and p.y + p.height + b <= paper[1] - margin - zone + 1e-3
        # fronts above a horizontal fold or left of a vertical one, backs beyond it, half the gap away
        if axis == "y":
            assert front.y - f >= gap / 2 - 1e-3 and f - (back.y + back.height) >= gap / 2 - 1e-3
        else:
            assert f - (front.x + front.width) >= gap / 2 - 1e-3 and back.x - f >= gap / 2 - 1e-3
        for u, v in ((0.1, 0.2), (0.9, 0.7)):
            bx, by = back.to_page(spec.width, spec.height, u * spec.width, v * spec.height)
            through = (bx, 2 * f - by) if axis == "y" else (2 * f - bx, by)
            assert through == pytest.approx(front.to_page(spec.width, spec.height, (1 - u) * spec.width,
                                                          v * spec.height), abs=1e-3)
    faces = page.placements
    for k, p in enumerate(faces):
        for q in faces[k + 1:]:
            apart_x = p.x + p.width + b <= q.x - b + 1e-3 or q.x + q.width + b <= p.x - b + 1e-3
            apart_y = p.y + p.height + b <= q.y - b + 1e-3 or q.y + q.height + b <= p.y - b + 1e-3
            assert apart_x or apart_y


def test_mirrored_across_a_line():
    front = Placement(10.0, 20.0, 30.0, 40.0, 90)
    assert mirrored(front, Fold("y", 100.0)) == Placement(10.0, 140.0, 30.0, 40.0, 90)
    assert mirrored(front, Fold("x", 100.0)) == Placement(160.0, 20.0, 30.0, 40.0, 270)


# --- pixels: a tiny sheet, folded along its fold line -------------------------

PALETTE = [(230, 30, 30), (30, 160, 30), (30, 30, 230), (230, 200, 0), (150, 0, 180), (0, 190, 200)]


def _nearest(rgb):
    return min(range(len(PALETTE)), key=lambda k: sum((a - b) ** 2 for a, b in zip(PALETTE[k], rgb)))


def _label_font():
    from kitgen import fonts

    return fonts.register("noto-sans", 400).registered_name


def _tiny_fold_part(default_layout, page, size):
    """Cards of one colour each, front and back alike, with a black mark in the top-left
    corner of each face: on the folded sheet the back's mark must lie behind the front's
    top-right corner (the card turned over about its own vertical axis)."""
    spec = CardSpec(mm(size[0]), mm(size[1]), 0, 0)

    def face(c, i):
        c.setFillColor(Color(*(v / 255 for v in PALETTE[i])))
        c.rect(0, 0, spec.width, spec.height, stroke=0, fill=1)
        c.setFillColor(Color(0, 0, 0))
        c.rect(0, spec.height - mm(6), mm(6), mm(6), stroke=0, fill=1)

    grid = document.sheet_grid(default_layout, spec, page, fold=True)
    cards = CardSet("t", "t", spec, grid.per_sheet, face, face)
    return spec, document.card_part(cards, default_layout, page, "fold")


@pytest.mark.parametrize("page, size, shape", [
    ((70, 120), (25, 20), (2, 2, False, "y")),
    ((70, 95), (27, 22), (2, 1, True, "y")),
    ((70, 120), (20, 27), (1, 3, False, "x")),
    ((70, 120), (27, 22), (1, 3, True, "x")),
])
def test_folding_the_printed_sheet_puts_each_back_behind_its_front(default_layout, page, size, shape):
    page = (mm(page[0]), mm(page[1]))
    spec, part = _tiny_fold_part(default_layout, page, size)
    grid = part.grid
    assert (grid.cols, grid.rows, grid.rotated, grid.fold.axis) == shape
    pdf, _ = document.render([part], page, default_layout, {"label": _label_font()}, "fold", "t", "t")
    assert page_count(pdf) == 1
    dpi = 60
    sheet = render_page(pdf, 0, dpi)
    # folding the back half behind the front half and looking through the paper is a
    # mirror image across the fold line, which runs through the middle of the page
    folded = ImageOps.flip(sheet) if grid.fold.axis == "y" else ImageOps.mirror(sheet)
    s = dpi / 72

    def pixel(image, placement, u, v):
        x, y = placement.to_page(spec.width, spec.height, u * spec.width, v * spec.height)
        return image.getpixel((min(int(x * s), image.width - 1), min(int((page[1] - y) * s), image.height - 1)))

    def dark(rgb):
        return max(rgb) < 60

    for index, front in part.pages[0].cards:
        assert _nearest(pixel(sheet, front, 0.6, 0.3)) == index            # the front
        assert _nearest(pixel(folded, front, 0.6, 0.3)) == index           # its own back behind it
        assert dark(pixel(sheet, front, 0.06, 0.92)) and not dark(pixel(sheet, front, 0.94, 0.92))
        # the back's top-left mark behind the front's top-right corner: same top edge
        assert dark(pixel(folded, front, 0.94, 0.92))
        assert not any(dark(pixel(folded, front, u, v)) for u, v in ((0.06, 0.92), (0.06, 0.08), (0.94, 0.08)))


def test_the_fold_line_is_dashed_through_the_gap(default_layout):
    page = (mm(70), mm(120))
    spec, part = _tiny_fold_part(default_layout, page, (25, 20))
    pdf, _ = document.render([part], page, default_layout, {"label": _label_font()}, "fold", "t", "t")
    dpi = 300
    image = render_page(pdf, 0, dpi).convert("L")
    row = round((page[1] - part.grid.fold.position) * dpi / 72)
    margin = round(default_layout.paper.margin * dpi / 72)
    line = [min(image.getpixel((x, r)) for r in (row - 1, row)) < 128
            for x in range(margin + 2, image.width - margin - 2)]
    runs = [len(m.group()) for m in re.finditer(r"1+|0+", "".join("1" if v else "0" for v in line))]
    dash = round(default_layout.marks.fold.dash * dpi / 72)
    assert len(runs) > 10 and all(abs(r - dash) <= 2 for r in runs[1:-1])


def test_a_card_without_a_back_needs_no_fold(default_layout):
    spec = CardSpec(mm(25), mm(20), 0, 0)
    cards = CardSet("t", "t", spec, 3, lambda c, i: None, None)
    part = document.card_part(cards, default_layout, A4, "fold")
    assert part.grid.fold is None and [p.side for p in part.pages] == ["front"]


# --- kits ------------------------------------------------------------------------

def _run(cli_runner, *args):
    from kitgen.cli import cli

    return cli_runner.invoke(cli, list(args), catch_exceptions=False)


@pytest.fixture(scope="module")
def fold_kits(tmp_path_factory):
    from click.testing import CliRunner

    out = tmp_path_factory.mktemp("fold")
    runner = CliRunner()
    for args in (["--keys", "7"], ["--edition", "pictures", "--keys", "7"], ["--game", "deduction"]):
        result = _run(runner, "build", "--duplex", "fold", "--out", str(out), *args)
        assert result.exit_code == 0, result.output
    return out


def test_a_words_kit_on_fold_sheets(fold_kits):
    kit = fold_kits / "classic-en"
    manifest = json.loads((kit / "manifest.json").read_text())
    assert manifest["options"]["duplex"] == "fold"
    # one page a sheet: 200 codename cards at 8, 7 keys at 6, 25 tiles at 10, no blank pages
    pages = {f["path"]: f["pages"] for f in manifest["files"]}
    assert pages == {"codenames.pdf": 25, "keys.pdf": 2, "tiles.pdf": 3, "rules.pdf": 1, "kit.pdf": 31}
    data = (kit / "kit.pdf").read_bytes()
    assert b"/Duplex /Simplex" in data
    # every key in the manifest is a front, on a fold page, above the fold
    assert [k["number"] for k in manifest["keys"]] == list(range(1, 8))
    assert all(k["card"][1] > A4[1] / 2 for k in manifest["keys"])


def test_keys_on_a_fold_sheet_verify_from_the_pdf(fold_kits):
    from click.testing import CliRunner

    result = _run(CliRunner(), "verify", str(fold_kits / "classic-en" / "keys.pdf"), "--kit",
                  str(fold_kits / "classic-en" / "manifest.json"))
    assert result.exit_code == 0, result.output
    assert "7 key card(s) checked: 7 passed, 0 failed" in result.output, result.output


def test_picture_cards_keep_their_orientation_marks_when_folded(fold_kits):
    """The orientation mark of a picture card's back (its top-left) lies, folded, behind the
    front's top-right corner: the card's top edge is the same on both faces."""
    from kitgen import layouts

    pictures_layout = layouts.load("pictures")
    kit = fold_kits / "classic-pictures"
    card = pictures_layout.picture_card
    spec = CardSpec(*card.size, card.bleed, card.gutter)
    grid = document.sheet_grid(pictures_layout, spec, A4, fold=True)
    pages = paginate(grid.per_sheet, grid, "fold")
    dpi = 50
    sheet = render_page(str(kit / "codenames.pdf"), 0, dpi)
    folded = ImageOps.flip(sheet) if grid.fold.axis == "y" else ImageOps.mirror(sheet)
    x, y, w, h = card.mark.box
    u, v = x + w / 4, y + h * 3 / 4                # inside the triangle, near its corner
    s = dpi / 72
    mark = paint_rgb(pictures_layout, card.mark.colour)

    def at(image, placement, px, py):
        gx, gy = placement.to_page(spec.width, spec.height, px, py)
        return image.getpixel((int(gx * s), int((A4[1] - gy) * s)))

    def close(rgb):
        return sum(abs(a - b) for a, b in zip(rgb, mark)) < 60

    for _, front in pages[0].cards:
        assert close(at(sheet, front, u, v))
        assert close(at(folded, front, spec.width - u, v))
        assert not close(at(folded, front, u, v))


def paint_rgb(layout, name):
    value = getattr(layout.colours, name).rgb.lstrip("#")
    return tuple(int(value[i:i + 2], 16) for i in (0, 2, 4))


def test_a_deduction_kit_on_fold_sheets(fold_kits):
    kit = fold_kits / "deduction-en"
    manifest = json.loads((kit / "manifest.json").read_text())
    assert manifest["options"]["duplex"] == "fold"
    pages = {f["path"]: f["pages"] for f in manifest["files"]}
    # 72 case and evidence cards, 4 a sheet; the sealed slips single-sided, without blank backs
    assert pages["cards.pdf"] == 18
    assert all(s["page"] for s in manifest["slips"])
    data = (kit / "setup.pdf").read_bytes()
    assert b"/Duplex /Simplex" in data


def test_back_offset_has_no_meaning_on_a_fold_sheet(tmp_path):
    result = subprocess.run([sys.executable, "-m", "kitgen", "build", "--duplex", "fold", "--back-offset", "0.5,0",
                             "--keys", "2", "--out", "out"], cwd=tmp_path, capture_output=True, text=True)
    assert result.returncode == 2
    assert result.stderr.splitlines() == [
        "kitgen: error: --back-offset is for a duplex printer's misregistration; a gutter-fold sheet "
        "(--duplex fold) prints fronts and backs on one side and needs none"]
    assert not (tmp_path / "out").exists()


def test_key_volumes_on_fold_sheets(tmp_path):
    """``kitgen keys --duplex fold``: a sheet is one page, so a volume of 4 pages holds 4 sheets of 6."""
    from kitgen.games.codenames import key_volumes

    result = key_volumes.build(30, "words", None, tmp_path, None, "fold", None, volume_pages=4, jobs=1)
    pages = [page_count(str(result.target / v.name)) for v in result.volumes]
    assert pages == [4, 1]
    manifest = json.loads((result.target / "manifest.json").read_text())
    assert [k["number"] for k in manifest["keys"]] == list(range(1, 31))
    assert {(k["file"], k["page"]) for k in manifest["keys"][24:]} == {("keys-002.pdf", 1)}


def test_a_kit_file_may_ask_for_fold_sheets(tmp_path):
    from kitgen.games.codenames import kitfile

    source = kitfile.builtin_path("classic-en").read_text(encoding="utf-8")
    assert "duplex: long" in source
    path = tmp_path / "fold.yaml"
    path.write_text(source.replace("duplex: long", "duplex: fold"), encoding="utf-8")
    assert kitfile.load(path).duplex == "fold"
