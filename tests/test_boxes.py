"""Boxes and stands (docs/design.md §8.12): ``kitgen box`` and ``kitgen build --box``.

The geometry is read back from boxes.json, as a user would: each box's inner size from its
panels, which must be the deck plus the layout's clearance, for the words, pictures and
deduction kits, sleeved and not; every net fits its sheet or lies in pieces whose alignment marks
both pieces print; on the rasterised pages a cut line is ink all along and a fold line ink and
paper in turn at the layout's dash period; the kit's name is on every box's page."""

import hashlib
import json
import math
import re
import shutil
import subprocess
import sys

import pytest
from click.testing import CliRunner
from hypothesis import given, settings, strategies as st

from kitgen import boxes, layouts
from kitgen.cli import cli
from kitgen.render import boxes as box_pages
from kitgen.units import mm

from pdfread import Pdf
from raster import render_page

SPEC = layouts.load("default").box
MM = mm(1)
TOLERANCE = 0.0011          # the manifest rounds to thousandths of a millimetre


def kitgen(*args):
    return CliRunner().invoke(cli, [str(a) for a in args])


def box_kit(out, *args):
    """``kitgen box`` into ``out``: the kit's folder, its manifest and its PDF's bytes."""
    result = kitgen("box", *args, "--out", out)
    assert result.exit_code == 0, result.output
    folder = next(p for p in out.iterdir() if p.is_dir())
    return folder, json.loads((folder / "boxes.json").read_text()), (folder / "boxes.pdf").read_bytes()


KITS = {   # id: (arguments, the decks boxed and their counts)
    "words": (("--keys", 2), {"codenames": 200, "keys": 2, "tiles": 25}),
    "words sleeved": (("--keys", 2, "--sleeved", "--card-thickness", 0.35),
                      {"codenames": 200, "keys": 2, "tiles": 25}),
    "pictures": (("--edition", "pictures", "--keys", 2), {"codenames": 140, "keys": 2, "tiles": 20}),
    "persian": (("--lang", "fa", "--keys", 2), {"codenames": 200, "keys": 2, "tiles": 25}),
    # and the tokens of 4 players: 22 each and 4 shared (test_deduction_setup checks what their box holds)
    "deduction": (("--game", "deduction",), {"cases": 36, "evidence": 36, "tiles": 28, "aids": 4, "tokens": 92}),
    "deduction sleeved": (("--game", "deduction", "--sleeved"),
                          {"cases": 36, "evidence": 36, "tiles": 28, "aids": 4, "tokens": 92}),
}


@pytest.fixture(scope="module")
def built(tmp_path_factory):
    """Each kit's boxes, made once."""
    return {name: box_kit(tmp_path_factory.mktemp(name.replace(" ", "-")), *args) for name, (args, _) in KITS.items()}


def inner_from_panels(net: dict) -> tuple[float, float, float]:
    """A box's room inside, from its panels as the manifest gives them: the front's width, the
    side's height and width, each less the fold allowance."""
    panels = {p["name"]: p["size_mm"] for p in net["panels"]}
    allowance = net["fold_allowance_mm"]
    return (panels["front"][0] - allowance, panels["right_side"][1] - allowance, panels["right_side"][0] - allowance)


def expected_inner(card, count: int, thickness_mm: float, sleeved: bool) -> tuple[float, float, float]:
    """The deck's size plus the layout's clearance, worked out from the layout alone."""
    short, long = sorted(card)
    margin = SPEC.sleeve.margin / MM if sleeved else 0
    per_card = thickness_mm + (SPEC.sleeve.thickness / MM if sleeved else 0)
    return (short + margin + SPEC.clearance / MM, long + margin + SPEC.clearance / MM,
            count * per_card + SPEC.depth_clearance / MM)


@pytest.mark.parametrize("kit", KITS)
def test_a_boxs_inner_size_from_its_panels_is_the_deck_plus_clearance(built, kit):
    _, manifest, _ = built[kit]
    args, counts = KITS[kit]
    sleeved = "--sleeved" in args
    thickness = float(args[args.index("--card-thickness") + 1]) if "--card-thickness" in args else 0.3
    assert manifest["options"]["card_thickness_mm"] == thickness and manifest["options"]["sleeved"] == sleeved
    nets = [n for n in manifest["nets"] if n["kind"] == "tuck_box"]
    assert {n["deck"]: n["count"] for n in nets} == counts
    for net in nets:          # loose tokens: a stack of their layers, never sleeved
        got = inner_from_panels(net)
        want = expected_inner(net["card_mm"], net.get("layers", net["count"]), thickness,
                              sleeved and "layers" not in net)
        assert all(abs(g - w) <= 2 * TOLERANCE for g, w in zip(got, want)), (net["deck"], got, want)
        assert list(net["inner_mm"].values()) == pytest.approx(want, abs=TOLERANCE)


@settings(max_examples=150, deadline=None)
@given(width=st.floats(15, 150), height=st.floats(15, 150), count=st.integers(1, 600),
       thickness=st.floats(0.05, 2.0), sleeved=st.booleans())
def test_any_deck_gets_a_box_of_whole_panels_that_holds_it(width, height, count, thickness, sleeved):
    deck = boxes.Deck("cards", "Cards", width * MM, height * MM, count)
    net = boxes.tuck_box(deck, boxes.Stock(thickness * MM, sleeved), SPEC)
    entry = box_pages.record(net, box_pages.Placed([], []))
    got = inner_from_panels(entry)
    want = expected_inner((width, height), count, thickness, sleeved)
    assert got == pytest.approx(want, abs=2 * TOLERANCE)
    assert len(net.cuts) == 1 and net.cuts[0][0] == net.cuts[0][-1], "the outline is one closed cut"
    edges = [(a, b) for p in net.panels for a, b in zip(p.outline, p.outline[1:] + p.outline[:1])]
    for a, b in net.folds:                # a fold is an edge of two panels, each running it its own way
        assert (a, b) in edges and (b, a) in edges
    assert len(net.folds) == 12           # every panel but the front hinges on one other
    rects = [p.rect for p in net.panels]
    for i, (x, y, w, h) in enumerate(rects):      # no two panels lie on each other
        for x2, y2, w2, h2 in rects[i + 1:]:
            assert min(x + w, x2 + w2) - max(x, x2) <= 1e-6 or min(y + h, y2 + h2) - max(y, y2) <= 1e-6


@settings(max_examples=100, deadline=None)
@given(width=st.floats(20, 130), height=st.floats(20, 130), thickness=st.floats(0.05, 2.0), sleeved=st.booleans())
def test_a_stand_closes_into_a_prism_whose_shelf_takes_its_card(width, height, thickness, sleeved):
    deck = boxes.Deck("keys", "Keys", width * MM, height * MM, 1, stand=True)
    net = boxes.stand(deck, boxes.Stock(thickness * MM, sleeved), SPEC)
    f, angle = net.figures, math.radians(SPEC.stand.angle)
    card_thickness = (thickness * MM + (SPEC.sleeve.thickness if sleeved else 0))
    assert f["shelf"] * math.sin(angle) >= card_thickness + SPEC.stand.slot * math.sin(angle) - 1e-9
    apex = (f["face"] * math.cos(angle), f["face"] * math.sin(angle))
    assert math.hypot(f["base"] - apex[0], apex[1]) == pytest.approx(f["back"])   # back, face and base meet
    assert apex[0] < f["base"], "the back leans over the base, not beyond it"
    heights = {p.name: p.rect[3] for p in net.panels}
    assert [p.name for p in net.panels] == ["lip", "shelf", "face", "back", "base", "glue_flap"]
    assert [heights[n] for n in ("shelf", "face", "back", "base")] == pytest.approx(
        [f["shelf"], f["face"], f["back"], f["base"]])
    assert heights["glue_flap"] <= f["face"] / 2 + 1e-9, "the glue flap lies inside the face"
    assert net.size[0] == pytest.approx(width * MM + (SPEC.sleeve.margin if sleeved else 0))
    assert len(net.cuts) == 1 and len(net.folds) == 5


def page_area(manifest) -> tuple[float, float, float, float]:
    """The printable part of the page: the paper less its margin, and less the caption's band."""
    width, height = manifest["files"][0]["page_size"]
    margin = layouts.load("default").paper.margin
    return margin, margin + box_pages.caption_room(SPEC), width - margin, height - margin


def on_page(matrix, point_mm):
    a, b, c, d, e, f = matrix
    x, y = point_mm[0] * MM, point_mm[1] * MM
    return a * x + c * y + e, b * x + d * y + f


@pytest.mark.parametrize("kit", KITS)
def test_every_net_fits_its_sheet_or_lies_in_pieces_with_marks_both_print(built, kit):
    _, manifest, pdf = built[kit]
    x0, y0, x1, y1 = page_area(manifest)
    for net in manifest["nets"]:
        width, height = net["size_mm"]
        corners = [(0, 0), (width, 0), (0, height), (width, height)]
        if len(net["pages"]) == 1:
            placed = [on_page(net["pages"][0]["matrix"], c) for c in corners]
            assert all(x0 - 0.01 <= x <= x1 + 0.01 and y0 - 0.01 <= y <= y1 + 0.01 for x, y in placed), net["deck"]
            assert net["marks_mm"] == []
            continue
        assert len(net["marks_mm"]) >= 2, net["deck"]
        (x0a, _, wa, _), (x0b, _, _, _) = (p["window_mm"] for p in net["pages"][:2])
        assert x0a + wa - x0b == pytest.approx(SPEC.tiling.overlap / MM, abs=TOLERANCE), "neighbours overlap"
        for mark in net["marks_mm"]:
            showing = [p for p in net["pages"] if inside_window(p, mark)]
            assert len(showing) >= 2, (net["deck"], mark)
            for page in showing:      # ink where the mark's centre is, on each page that shows it
                assert ink_at(pdf, page["page"], on_page(page["matrix"], mark)), (net["deck"], mark, page["page"])


def inside_window(page, mark_mm) -> bool:
    """The mark lies on the part of the net this page shows: its window, whose bottom-left
    corner the page has at ``at_pt``."""
    x, y = on_page(page["matrix"], mark_mm)
    left, bottom = page["at_pt"]
    width, height = (v * MM for v in page["window_mm"][2:])
    return left <= x <= left + width and bottom <= y <= bottom + height


def ink_at(pdf: bytes, page: int, point, dpi: int = 150) -> bool:
    image = render_page(pdf, page - 1, dpi).convert("L")
    s = dpi / 72
    x, y = round(point[0] * s), round(image.height - point[1] * s)
    return min(image.getpixel((x + dx, y + dy)) for dx in range(-2, 3) for dy in range(-2, 3)) < 128


def samples(image, start, end, dpi: int, skip_mm: float = 1.0, step_mm: float = 0.1):
    """Ink (True) or paper along the page segment start-end, every ``step_mm`` from ``skip_mm``
    after its start to as much before its end: the darkest of 3 x 3 pixels under a 128 grey."""
    s = dpi / 72
    length = math.dist(start, end)
    out = []
    for k in range(round((length - 2 * skip_mm * MM) / (step_mm * MM)) + 1):
        t = (skip_mm * MM + k * step_mm * MM) / length
        x = (start[0] + t * (end[0] - start[0])) * s
        y = image.height - (start[1] + t * (end[1] - start[1])) * s
        out.append(min(image.getpixel((round(x) + dx, round(y) + dy)) for dx in (-1, 0, 1) for dy in (-1, 0, 1)) < 128)
    return out


def runs(flags: list[bool]) -> list[tuple[bool, int]]:
    """(ink or paper, how many samples in a row)."""
    out = []
    for flag in flags:
        if out and out[-1][0] == flag:
            out[-1] = (flag, out[-1][1] + 1)
        else:
            out.append((flag, 1))
    return out


def longest(segments):
    return max(segments, key=lambda seg: math.dist(*seg))


def test_cut_lines_are_ink_all_along_and_fold_lines_dashes_at_the_layouts_period(built):
    _, manifest, pdf = built["words"]
    net = next(n for n in manifest["nets"] if n["deck"] == "keys" and n["kind"] == "tuck_box")
    page = net["pages"][0]
    dpi = 300
    image = render_page(pdf, page["page"] - 1, dpi).convert("L")
    cut = longest([(a, b) for line in net["cuts_mm"] for a, b in zip(line, line[1:])])
    along = samples(image, *(on_page(page["matrix"], p) for p in cut), dpi)
    assert len(along) > 300 and all(along), "a cut line is continuous ink"
    fold = longest(net["folds_mm"])
    along = samples(image, *(on_page(page["matrix"], p) for p in fold), dpi, skip_mm=0.0)
    dash, gap = (v / MM / 0.1 for v in SPEC.fold.dash)          # in samples of 0.1 mm
    inner = runs(along[:-15])[1:-1]             # whole dashes and gaps, clear of the cut line at the fold's end
    assert len(inner) >= 20
    for ink, count in inner:
        assert abs(count - (dash if ink else gap)) <= 3, (ink, count)   # within 0.3 mm: line ends are anti-aliased
    assert all(along[3:int(dash) - 3]), "the first dash starts at the fold's end"


def test_glue_areas_are_tinted_and_say_glue(built):
    _, manifest, pdf = built["words"]
    net = next(n for n in manifest["nets"] if n["deck"] == "keys" and n["kind"] == "tuck_box")
    page = net["pages"][0]
    image = render_page(pdf, page["page"] - 1, 100)
    layout = layouts.load("default")
    tint = tuple(int(layout.colours[SPEC.glue.colour].rgb[i:i + 2], 16) for i in (1, 3, 5))
    for name in net["glue"]:
        panel = next(p for p in net["panels"] if p["name"] == name)
        (x, y), (w, h) = panel["at_mm"], panel["size_mm"]
        px, py = on_page(page["matrix"], (x + w / 2, y + h / 8 if h > w else y + h / 2))
        if w > h:
            px, py = on_page(page["matrix"], (x + w / 8, y + h / 2))
        pixel = image.getpixel((round(px * 100 / 72), round(image.height - py * 100 / 72)))
        assert max(abs(a - b) for a, b in zip(pixel, tint)) <= 6, (name, pixel, tint)


pdftotext = shutil.which("pdftotext")
NAMES = {"words": "Classic English", "persian": "کلاسیک", "deduction": "The Puddlewick Cases",
         "pictures": "Classic Pictures"}
NOTES = {"words": "Cut along the solid lines", "persian": "روی خط‌های پیوسته ببرید",
         "deduction": "Cut along the solid lines", "pictures": "Cut along the solid lines"}


def text_on(pdf_path, page: dict, panel: dict, page_height: float) -> str:
    """What pdftotext reads inside one panel of a net on its page (its words joined by spaces)."""
    (x, y), (w, h) = panel["at_mm"], panel["size_mm"]
    corners = [on_page(page["matrix"], c) for c in ((x, y), (x + w, y), (x, y + h), (x + w, y + h))]
    xs, ys = [c[0] for c in corners], [c[1] for c in corners]
    crop = [round(min(xs)), round(page_height - max(ys)), round(max(xs) - min(xs)), round(max(ys) - min(ys))]
    shown = subprocess.run([pdftotext, "-f", str(page["page"]), "-l", str(page["page"]),
                            *(a for flag, v in zip(("-x", "-y", "-W", "-H"), crop) for a in (flag, str(v))),
                            pdf_path, "-"], capture_output=True, text=True, check=True).stdout
    return " ".join(shown.split())


@pytest.mark.skipif(pdftotext is None, reason="needs pdftotext (poppler-utils)")
@pytest.mark.parametrize("kit", NAMES)
def test_the_kits_name_is_on_every_box_and_stand(built, kit):
    """On each box's front (and each side wide enough for it) and on the stand's back, inside the
    panel, not only in the caption under the net; the glue areas say glue, in the kit's language."""
    folder, manifest, _ = built[kit]
    height = manifest["files"][0]["page_size"][1]
    glue = {"persian": "چسب"}.get(kit, "glue")
    for net in manifest["nets"]:
        page = net["pages"][0]
        panels = {p["name"]: p for p in net["panels"]}
        named = ["front", "right_side", "left_side"] if net["kind"] == "tuck_box" else ["back"]
        for name in named:
            shown = text_on(folder / "boxes.pdf", page, panels[name], height)
            if name.endswith("side") and panels[name]["size_mm"][0] < 5:
                assert shown == "", "a side too narrow for the name at its minimum size stays blank"
                continue
            assert NAMES[kit] in shown, (net["deck"], name)
            if name == "front":
                assert " ".join(net["title"].split()) in shown, "the deck's name is on the front too"
        assert glue in text_on(folder / "boxes.pdf", page, panels["glue_flap"], height)
        caption = subprocess.run([pdftotext, "-f", str(page["page"]), "-l", str(page["page"]), folder / "boxes.pdf",
                                  "-"], capture_output=True, text=True, check=True).stdout
        if net["kind"] == "tuck_box" and kit != "persian":           # what it is: the deck and its count
            what = "tokens, lying flat" if "layers" in net else "cards"
            assert f"{net['title']}: a box for {net['count']} {what}" in " ".join(caption.split())
        assert NOTES[kit] in " ".join(caption.split()), "how to cut, fold and glue it"
    sides = [n for n in manifest["nets"] if n["kind"] == "tuck_box" and n["panels"][1]["size_mm"][0] >= 10]
    assert sides, "some box has sides wide enough for the name"


BAD_THICKNESS = {"0": "a card is thicker than 0 mm", "-0.2": "a card is thicker than 0 mm",
                 "2.5": "more than 2 mm", "nan": "is not a thickness", "thick": "must be a number, not 'thick'"}


@pytest.mark.parametrize("value", BAD_THICKNESS)
@pytest.mark.parametrize("command", [("box",), ("build", "--box")])
def test_a_bad_card_thickness_is_one_line_and_exit_2_with_nothing_written(tmp_path, command, value):
    result = kitgen(*command, "--keys", 2, "--card-thickness", value, "--out", tmp_path / "out")
    assert result.exit_code == 2
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("kitgen: error: --card-thickness"), result.stderr
    assert BAD_THICKNESS[value] in lines[0]
    assert not (tmp_path / "out").exists()


@pytest.mark.parametrize("args, message", [
    (("build", "--sleeved"), "--sleeved sizes the boxes: add --box"),
    (("build", "--card-thickness", "0.3"), "--card-thickness sizes the boxes: add --box"),
    (("box", "--paper", "a5"), "unknown paper 'a5'"),
    (("box", "--paper", "60x60mm"), "pieces of this paper, more than box.tiling.max_pieces"),
    (("box", "--game", "deduction", "--keys", "2"), "--keys is a Codenames option"),
    (("box", "--players", "3"), "--players is an option of the deduction game"),
])
def test_other_bad_box_requests_are_one_line_and_exit_2(tmp_path, args, message):
    result = kitgen(*args, "--out", tmp_path / "out")
    assert result.exit_code == 2
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and message in lines[0], result.stderr
    assert not (tmp_path / "out").exists()


def sha256s(folder) -> dict:
    return {p.relative_to(folder).as_posix(): hashlib.sha256(p.read_bytes()).hexdigest()
            for p in sorted(folder.rglob("*")) if p.is_file()}


@pytest.mark.parametrize("kit", ["words", "deduction"])
def test_build_box_adds_the_boxes_and_leaves_the_kit_as_it_was(tmp_path, built, kit):
    args = {"words": ("--keys", 2), "deduction": ("--game", "deduction")}[kit]
    for name, extra in (("plain", ()), ("boxed", ("--box",))):
        result = kitgen("build", *args, *extra, "--out", tmp_path / name)
        assert result.exit_code == 0, result.output
    plain, boxed = (next((tmp_path / name).iterdir()) for name in ("plain", "boxed"))
    before, after = sha256s(plain), sha256s(boxed)
    assert set(after) - set(before) == {"boxes.pdf", "boxes.json"}
    assert {k: v for k, v in after.items() if k in before and k != "manifest.json"} == \
        {k: v for k, v in before.items() if k != "manifest.json"}
    manifests = [json.loads((folder / "manifest.json").read_text()) for folder in (plain, boxed)]
    added = [e for e in manifests[1]["extra_files"] if e not in manifests[0]["extra_files"]]
    assert added == [{"path": n, "sha256": after[n]} for n in ("boxes.pdf", "boxes.json")]
    assert {**manifests[1], "extra_files": manifests[0]["extra_files"]} == manifests[0]
    assert (boxed / "boxes.pdf").read_bytes() == built[kit][2], "the same boxes as kitgen box makes"
    assert json.loads((boxed / "boxes.json").read_text()) == built[kit][1]


def test_kitgen_box_writes_beside_a_built_kit_and_leaves_it_be(tmp_path):
    assert kitgen("build", "--keys", 2, "--out", tmp_path).exit_code == 0
    folder = tmp_path / "classic-en"
    before = sha256s(folder)
    result = kitgen("box", "--keys", 2, "--out", tmp_path)
    assert result.exit_code == 0, result.output
    after = sha256s(folder)
    assert {k: after[k] for k in before} == before
    assert set(after) - set(before) == {"boxes.pdf", "boxes.json"}
    assert not [p for p in folder.iterdir() if p.name.startswith(".")], "no temporary file is left"


def test_boxes_are_the_same_bytes_every_time(tmp_path, built):
    _, _, pdf = box_kit(tmp_path, "--keys", 2)
    assert pdf == built["words"][2]


def test_cmyk_boxes_hold_no_rgb_colour(tmp_path):
    _, _, pdf = box_kit(tmp_path, "--keys", 2, "--color", "cmyk")
    document = Pdf(pdf)
    for page in document.pages():
        content = document.content(page)
        assert not re.search(rb"\b(rg|RG|g|G)\b", content), "only CMYK colours"
        assert re.search(rb"\bk\b", content) and re.search(rb"\bK\b", content)


@pytest.mark.parametrize("setting, message", [
    ("  stand: {angle: 95}", "box.stand.angle must be from 30 to 85"),
    ("  fold: {dash: [2mm, 0mm]}", "box.fold.dash needs a dash and a gap"),
    ("  tiling: {max_pieces: 0.5}", "box.tiling.max_pieces must be a whole number"),
    ("  stand: {base: 0.1}", "box.stand.base is too short"),
    ("  tuck: {depth: 0mm}", "box.tuck.depth must be above zero"),
])
def test_box_layout_values_that_cannot_be_folded_are_refused(tmp_path, setting, message):
    from kitgen.errors import KitgenError

    path = tmp_path / "mine.yaml"
    path.write_text(f"extends: default\nbox:\n{setting}\n")
    with pytest.raises(KitgenError, match=re.escape(message)):
        layouts.load(str(path))


def test_the_default_kits_boxes_measure_what_the_readme_says():
    stock = boxes.Stock(0.3 * MM)
    inner = {deck.name: tuple(round(v / MM, 3) for v in boxes.tuck_box(deck, stock, SPEC).figures["inner"])
             for deck in (boxes.Deck("codenames", "", 64 * MM, 42 * MM, 200),
                          boxes.Deck("keys", "", 57 * MM, 57 * MM, 40), boxes.Deck("tiles", "", 45 * MM, 30 * MM, 25))}
    assert inner == {"codenames": (43.5, 65.5, 62.0), "keys": (58.5, 58.5, 14.0), "tiles": (31.5, 46.5, 9.5)}
    sleeved = boxes.tuck_box(boxes.Deck("keys", "", 57 * MM, 57 * MM, 40), boxes.Stock(0.3 * MM, True), SPEC)
    assert tuple(round(v / MM, 3) for v in sleeved.figures["inner"]) == (61.5, 61.5, 18.0)


@pytest.mark.parametrize("paper, pages", [("a4", 2), ("letter", 1)])
def test_the_codename_cards_box_takes_two_pieces_of_a4_and_one_page_of_letter(tmp_path, paper, pages):
    _, manifest, _ = box_kit(tmp_path, "--keys", 2, "--paper", paper)
    net = next(n for n in manifest["nets"] if n["deck"] == "codenames")
    assert len(net["pages"]) == pages


def test_a_kit_name_too_long_for_a_boxs_front_is_refused(tmp_path):
    from kitgen.games.codenames import kitfile

    text = kitfile.kit_path(None, None, None).read_text()          # the built-in kit, its deck named as built in
    long_name = "Supercalifragilisticexpialidocious" * 4
    (tmp_path / "long.yaml").write_text(text.replace("name: Classic English", f"name: {long_name}"))
    result = kitgen("box", tmp_path / "long.yaml", "--keys", 2, "--out", tmp_path / "out")
    assert result.exit_code == 2, result.output
    assert "does not fit the front of the box" in result.stderr and result.stderr.count("\n") == 1
    assert not (tmp_path / "out").exists()


@pytest.mark.skipif(pdftotext is None, reason="needs pdftotext (poppler-utils)")
def test_a_side_too_narrow_for_the_name_at_its_minimum_size_stays_blank(tmp_path):
    """Ten keys: a side 5.3 mm wide leaves 1.3 mm inside its inset, less than 5 pt type needs."""
    folder, manifest, _ = box_kit(tmp_path, "--keys", 10)
    net = next(n for n in manifest["nets"] if n["deck"] == "keys" and n["kind"] == "tuck_box")
    panels = {p["name"]: p for p in net["panels"]}
    assert panels["right_side"]["size_mm"][0] == pytest.approx(5.3)
    height = manifest["files"][0]["page_size"][1]
    for side in ("right_side", "left_side"):
        assert text_on(folder / "boxes.pdf", net["pages"][0], panels[side], height) == ""
    assert NAMES["words"] in text_on(folder / "boxes.pdf", net["pages"][0], panels["front"], height)


def test_the_boxes_of_a_pdfx_kit_are_pdfx_too(tmp_path):
    """build --box --pdfx: boxes.pdf is PDF/X-1a like every other PDF of the kit (docs/design.md §8.11)."""
    from kitgen.render import pdfx

    result = subprocess.run([sys.executable, "-m", "kitgen", "build", "--color", "cmyk", "--pdfx", "--box",
                             "--keys", "2", "--out", "o"], cwd=tmp_path, capture_output=True, text=True)
    assert result.returncode == 0, result.stderr
    data = (tmp_path / "o" / "classic-en" / "boxes.pdf").read_bytes()
    assert pdfx.problems(data, 300) == []
