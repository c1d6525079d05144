"""setup.pdf and the tokens' box (docs/design.md §10.6): sealed case slips four to an A4 or
Letter sheet, each inside the printable area, its case only on its case panel, its cover
hiding it, its folds dashed and its cuts marked, its QR read back from a 300 dpi raster as the
payload the manifest records; the three mini-games' setup tables on one page, no blank page
under --duplex none; and a box that holds every token of the kit's players."""

import json

import pypdfium2 as pdfium
import pytest
import zxingcpp
from click.testing import CliRunner

from kitgen import layouts
from kitgen.cli import cli
from kitgen.games.deduction import case_payload, facts, texts, theme as theme_mod
from kitgen.games.deduction.render import slips
from kitgen.units import mm

from raster import render_page

LAYOUT = layouts.load("default")
MM = mm(1)
# (players, paper, duplex) of each kit built here
KITS = {"4-a4": (4, "a4", "none"), "5-letter": (5, "letter", "none"), "2-a4-long": (2, "a4", "long"),
        "5-a4-long": (5, "a4", "long")}


def run(*args):
    result = CliRunner().invoke(cli, [str(a) for a in args])
    assert result.exit_code == 0, result.output
    return result


@pytest.fixture(scope="module")
def built(tmp_path_factory):
    """Each kit's folder and manifest."""
    kits = {}
    for name, (players, paper, duplex) in KITS.items():
        out = tmp_path_factory.mktemp(name)
        run("build", "--game", "deduction", "--players", players, "--paper", paper, "--duplex", duplex, "--out", out)
        folder = out / "deduction-en"
        kits[name] = folder, json.loads((folder / "manifest.json").read_text("utf-8"))
    return kits


def by_page(manifest) -> dict[int, list]:
    pages = {}
    for slip in manifest["slips"]:
        pages.setdefault(slip["page"], []).append(slip)
    return pages


def page_size(manifest, name="setup.pdf"):
    return next(f for f in manifest["files"] if f["path"] == name)["page_size"]


@pytest.mark.parametrize("kit", KITS)
def test_four_slips_to_a_sheet_inside_the_printable_area(built, kit):
    _, manifest = built[kit]
    players = KITS[kit][0]
    pages = by_page(manifest)
    counts = [len(slips_) for _, slips_ in sorted(pages.items())]
    assert len(manifest["slips"]) == players * facts.MINI_GAMES
    assert all(n == 4 for n in counts[:-1]) and 1 <= counts[-1] <= 4, counts
    width, height = page_size(manifest)
    margin = LAYOUT.paper.margin
    for slip in manifest["slips"]:
        x0, y0, x1, y1 = slip["card"]
        assert margin - 1e-3 <= x0 < x1 <= width - margin + 1e-3 and margin - 1e-3 <= y0 < y1 <= height - margin + 1e-3
        assert (x1 - x0, y1 - y0) == pytest.approx(slips.geometry(LAYOUT.slip)[:2], abs=0.01)


def _panels(card, third):
    """A slip's outside, case and cover panels (x0, y0, x1, y1) on the page: slips lie upright."""
    x0, y0, x1, y1 = card
    return {"outside": (x0, y0 + 2 * third, x1, y1), "case": (x0, y0 + third, x1, y0 + 2 * third),
            "cover": (x0, y0, x1, y0 + third)}


def _text_in(page, box) -> str:
    x0, y0, x1, y1 = box
    return "".join(page.get_textpage().get_text_bounded(left=x0, bottom=y0, right=x1, top=y1).split())


@pytest.mark.parametrize("kit", ["4-a4", "5-letter"])
def test_a_slips_case_is_printed_on_its_case_panel_only(built, kit):
    folder, manifest = built[kit]
    theme = theme_mod.load(theme_mod.resolve(None, "en"))
    third = slips.geometry(LAYOUT.slip)[2]
    document = pdfium.PdfDocument(str(folder / "setup.pdf"))
    try:
        for slip in manifest["slips"]:
            case = case_payload.decode(slip["payload"])
            names = ["".join(n.split()) for n in (theme.suspects[case.suspect].name, theme.crimes[case.crime].name,
                                                  theme.locations[case.location].name)]
            page = document[slip["page"] - 1]
            panels = {k: _text_in(page, box) for k, box in _panels(slip["card"], third).items()}
            assert all(n in panels["case"] for n in names), (names, panels["case"])
            assert not any(n in panels["outside"] for n in names), "the outside shows only whose slip it is"
            assert panels["cover"] == "", "the cover carries no text"
            assert f"mini-game{case.game}" in panels["outside"]
    finally:
        document.close()


def test_the_cover_hides_the_case_and_the_folds_and_cuts_are_marked(built):
    folder, manifest = built["4-a4"]
    spec = LAYOUT.slip
    third = slips.geometry(spec)[2]
    dpi = 100
    scale = dpi / 72
    height = page_size(manifest)[1]
    first = min(by_page(manifest))
    image = render_page(folder / "setup.pdf", first - 1, dpi).convert("L")

    def px(x, y):
        return round(x * scale), round((height - y) * scale)

    block = 5 * MM
    for slip in by_page(manifest)[first]:
        x0, y0, x1, y1 = slip["card"]
        # the cover: every 5 mm square inside its margin is at least a third ink
        inset = spec.margin + MM
        y = y0 + inset
        while y + block <= y0 + third - inset:
            x = x0 + inset
            while x + block <= x1 - inset:
                left, top = px(x, y + block)
                right, bottom = px(x + block, y)
                cell = image.crop((left, top, right, bottom))
                dark = sum(1 for v in cell.tobytes() if v < 170) / (cell.width * cell.height)
                assert dark > 0.33, (slip["mini_game"], slip["holder"], x, y, dark)
                x += block
            y += block
        # each fold: a dashed line across the slip, ink and paper in turn
        for fold in (y0 + third, y0 + 2 * third):
            row = [image.getpixel((px(x0, fold)[0] + i, px(x0, fold)[1])) < 200
                   for i in range(round((x1 - x0) * scale))]
            runs = sum(1 for a, b in zip(row, row[1:]) if a and not b)
            assert runs >= 15, (fold, runs)
    # the cut marks: outside the block of slips, in line with every slip's edge
    rects = [s["card"] for s in by_page(manifest)[first]]
    top = max(r[3] for r in rects)
    marks = LAYOUT.marks
    for x in sorted({round(v, 2) for r in rects for v in (r[0], r[2])}):
        column = [image.getpixel((round(x * scale) + dx, px(0, top + marks.crop_offset + marks.crop_length / 2)[1]))
                  for dx in (-1, 0, 1)]
        assert min(column) < 160, x


@pytest.mark.parametrize("kit", ["4-a4", "5-letter"])
def test_every_slips_qr_reads_back_as_its_manifest_payload_at_300_dpi(built, kit):
    folder, manifest = built[kit]
    size = slips.geometry(LAYOUT.slip)
    assert LAYOUT.slip.qr >= 24 * MM - 1e-6, "the QR keeps its size"
    assert size[0] >= LAYOUT.slip.qr + 2 * LAYOUT.slip.margin
    for page, on_page in by_page(manifest).items():
        image = render_page(folder / "setup.pdf", page - 1, 300)
        read = {c.text for c in zxingcpp.read_barcodes(image, formats=zxingcpp.BarcodeFormat.QRCode)}
        assert read == {s["payload"] for s in on_page}


@pytest.mark.parametrize("kit", ["4-a4", "5-letter"])
def test_no_blank_page_without_duplex_and_the_setup_tables_share_a_page(built, kit):
    folder, manifest = built[kit]
    labels = texts.load("en").labels
    document = pdfium.PdfDocument(str(folder / "setup.pdf"))
    try:
        assert len(document) == 1 + len(by_page(manifest))       # one setup page, then the slips' sheets
        for index in range(len(document)):
            assert document[index].get_textpage().get_text_range().strip(), f"page {index + 1} is blank"
        first = "".join(document[0].get_textpage().get_text_range().split())
    finally:
        document.close()
    for n in range(1, facts.MINI_GAMES + 1):
        assert "".join(labels.setup_title.format(n=n, total=facts.MINI_GAMES).split()) in first


@pytest.mark.parametrize("kit", ["2-a4-long", "5-a4-long"])
def test_two_sided_setup_has_only_the_blank_backs_it_needs(built, kit):
    """The setup page and every slip sheet get a blank back (a slip's other side must not show
    another case), and nothing else is blank: 2 + 2 x sheets pages."""
    folder, manifest = built[kit]
    sheets = len(by_page(manifest))
    document = pdfium.PdfDocument(str(folder / "setup.pdf"))
    try:
        total = len(document)
        blank = [i + 1 for i in range(total) if not document[i].get_textpage().get_text_range().strip()]
    finally:
        document.close()
    assert total == 2 + 2 * sheets and blank == list(range(2, total + 1, 2))


def _tokens(players: int) -> list[tuple[float, float, int]]:
    """Every token as stored, from the layout and the game's counts: its two sides and its layers."""
    spec = LAYOUT.tokens
    width, height = spec.investigator
    per_player = ([(width, height, 2)] * facts.INVESTIGATORS                 # a standee, folded in two
                  + [(spec.disc, spec.disc, 1)] * (facts.DISCS + facts.SCORE_MARKERS + facts.PENALTY_MARKERS)
                  + [(spec.cube, spec.cube, 1)] * facts.CUBES)
    return (per_player * players + [(spec.disc, spec.disc, 1)] * facts.SOLVING_DISCS
            + [(spec.first_player, spec.first_player, 1)] * facts.FIRST_PLAYER_MARKERS)


@pytest.mark.parametrize("players", [2, 5])
def test_the_token_box_holds_the_largest_token_and_the_stack_of_all(tmp_path, players):
    run("box", "--game", "deduction", "--players", players, "--card-thickness", 0.5, "--out", tmp_path)
    folder = tmp_path / "deduction-en"
    manifest = json.loads((folder / "boxes.json").read_text("utf-8"))
    net = next(n for n in manifest["nets"] if n["deck"] == "tokens")
    inner = net["inner_mm"]
    tokens = _tokens(players)
    assert net["count"] == len(tokens) and net["kind"] == "tuck_box"
    floor = sorted((inner["width"], inner["height"]))
    for a, b, _ in tokens:
        short, long = sorted((a / MM, b / MM))
        assert short < floor[0] and long < floor[1]
    assert inner["depth"] >= sum(layers for *_, layers in tokens) * 0.5
    page = net["pages"][0]["page"]
    document = pdfium.PdfDocument(str(folder / "boxes.pdf"))
    try:
        shown = " ".join(document[page - 1].get_textpage().get_text_range().split())
    finally:
        document.close()
    assert f"Tokens for {players} players: a box for {len(tokens)} tokens" in shown
