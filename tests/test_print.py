"""Print production: one card per page with TrimBox/BleedBox, PNG faces, CMYK
only, back offsets, cut lines, slug and registration marks, custom paper,
the calibration sheet, and key decks in volumes."""

import base64
import json
import re
import zlib

import pypdfium2 as pdfium
import pytest
import zxingcpp
from PIL import Image

from kitgen import layouts
from kitgen.errors import KitgenError
from kitgen.games.codenames import build, kitfile
from kitgen.units import mm

from raster import render_page


def boxes(pdf: bytes, name: str) -> list[list[float]]:
    return [[float(v) for v in m.split()] for m in re.findall(rb"/" + name.encode() + rb" \[ ([^\]]+) \]", pdf)]


def content_streams(pdf: bytes):
    """Every stream, decoded: reportlab writes page content as ASCII85 over Flate."""
    for match in re.finditer(rb"stream\r?\n(.*?)endstream", pdf, re.S):
        raw = match.group(1).strip()
        for decode in (lambda b: zlib.decompress(b),
                       lambda b: zlib.decompress(base64.a85decode(b, adobe=True))):
            try:
                yield decode(raw)
                break
            except (zlib.error, ValueError):
                continue


def built(tmp_path, **options):
    return build.build(kitfile.load(keys=options.pop("keys", 12), print_options=options.pop("print", None),
                                    **options), tmp_path)


def test_one_card_per_page_with_trim_and_bleed_boxes(tmp_path):
    folder, files, _ = built(tmp_path, print={"per_card": True})
    data = (folder / "keys-cards.pdf").read_bytes()
    document = pdfium.PdfDocument(data)
    assert len(document) == 24                       # 12 keys, front then back
    b, w = mm(3), mm(57)
    assert document[0].get_size() == pytest.approx((w + 2 * b, w + 2 * b), abs=0.01)
    trims, bleeds = boxes(data, "TrimBox"), boxes(data, "BleedBox")
    assert len(trims) == len(bleeds) == 24
    assert trims[0] == pytest.approx([b, b, b + w, b + w], abs=0.01)
    assert bleeds[0] == pytest.approx([0, 0, w + 2 * b, w + 2 * b], abs=0.01)
    # front, back, front, back: the back of each key is its stripe pattern, the same every time
    fronts = [render_page(data, i, 20).tobytes() for i in (0, 2)]
    backs = [render_page(data, i, 20).tobytes() for i in (1, 3)]
    assert fronts[0] != fronts[1] and backs[0] == backs[1]
    codenames = pdfium.PdfDocument(str(folder / "codenames-cards.pdf"))
    assert len(codenames) == 400 and codenames[0].get_size() == pytest.approx((mm(64), mm(42)), abs=0.01)


def test_png_faces_with_and_without_bleed(tmp_path):
    folder, _, man = built(tmp_path, keys=2, print={"png_dpi": 72})
    key_front = Image.open(folder / "png" / "keys" / "001-front.png")
    key_trim = Image.open(folder / "png" / "keys" / "001-front-trim.png")
    assert key_front.size == (round(mm(63)), round(mm(63)))
    assert abs(key_trim.width - mm(57)) <= 1
    assert len(list((folder / "png" / "tiles").glob("*.png"))) == 25 * 2 * 2
    assert any(f["path"] == "png/keys/001-front.png" for f in man["extra_files"])


def test_cmyk_kits_hold_no_rgb_colour(tmp_path):
    folder, _, _ = built(tmp_path, keys=4, colour="cmyk")
    for name in ("codenames.pdf", "keys.pdf", "tiles.pdf", "rules.pdf", "kit.pdf"):
        data = (folder / name).read_bytes()
        streams = list(content_streams(data))
        assert streams
        for stream in streams:
            assert not re.search(rb"(^|\s)(rg|RG)(\s|$)", stream), name
        assert any(re.search(rb"\sk(\s|$)", s) for s in streams)     # CMYK fills are there
    pictures = build.build(kitfile.load(kitfile.kit_path(None, "pictures"), keys=2, colour="cmyk"), tmp_path / "p")
    data = (pictures[0] / "codenames.pdf").read_bytes()
    assert not any(re.search(rb"(^|\s)(rg|RG)(\s|$)", s) for s in content_streams(data))


def test_cmyk_text_is_pure_k_and_the_assassin_rich_black():
    layout = layouts.load("default", ("cmyk",))
    assert layout.colours.ink.cmyk == (0, 0, 0, 1)
    assert layout.colours.assassin.cmyk[3] == 1 and sum(layout.colours.assassin.cmyk[:3]) > 1


def test_back_offset_moves_backs_by_exactly_that_much(tmp_path):
    plain, _, _ = built(tmp_path / "a", keys=12)
    moved, _, _ = built(tmp_path / "b", keys=12, print={"back_offset": (mm(2), mm(-1))})
    dpi = 254                                            # 10 pixels a millimetre

    def dark_box(folder, page):
        image = render_page(str(folder / "keys.pdf"), page, dpi).convert("L")
        return image.point(lambda v: 255 if v < 90 else 0).getbbox()

    assert dark_box(plain, 0) == dark_box(moved, 0)      # fronts stay
    a, b = dark_box(plain, 1), dark_box(moved, 1)
    assert (b[0] - a[0], b[1] - a[1]) == (20, 10)        # +2 mm right, 1 mm down (PDF y up)


def test_cut_lines_run_the_margin_and_slug_marks_the_page(tmp_path):
    folder, _, _ = built(tmp_path, keys=12, print={"cut_lines": True, "slug": True})
    image = render_page(str(folder / "keys.pdf"), 0, 72).convert("L")
    first_edge_x = round(mm(210) / 2 - (3 * mm(57) + 2 * mm(6)) / 2)
    # a cut line reaches from the block almost to the printable margin at the top
    assert image.getpixel((first_edge_x, round(mm(6)))) < 200
    text = pdfium.PdfDocument(str(folder / "keys.pdf"))[0].get_textpage().get_text_range()
    assert re.search(r"classic-en · words · en · kitgen [\d.]+ · seed [0-9a-f]{10} · page 1", text)
    plain, _, _ = built(tmp_path / "plain", keys=12)
    assert "seed" not in pdfium.PdfDocument(str(plain / "keys.pdf"))[0].get_textpage().get_text_range()


@pytest.mark.parametrize("paper, size", [("210x297mm", (mm(210), mm(297))), ("8.5x11in", (612, 792)),
                                         ("100 x 150 mm", (mm(100), mm(150))), ("a4", (mm(210), mm(297)))])
def test_custom_paper_sizes(paper, size):
    assert layouts.page_size(layouts.load(), paper) == pytest.approx(size)


@pytest.mark.parametrize("paper", ["b7", "210x297", "x297mm", "20x20mm"])
def test_bad_paper_sizes(paper):
    with pytest.raises(KitgenError, match="paper"):
        layouts.page_size(layouts.load(), paper)


def test_a_card_larger_than_the_paper_is_refused(tmp_path):
    kit = kitfile.load(keys=2, paper="80x80mm")
    with pytest.raises(KitgenError, match="does not fit"):
        build.build_files(kit)


def test_calibration_sheet(tmp_path):
    import subprocess
    import sys

    result = subprocess.run([sys.executable, "-m", "kitgen", "calibrate", "--out", "c"], cwd=tmp_path,
                            capture_output=True, text=True)
    assert result.returncode == 0, result.stderr
    document = pdfium.PdfDocument(str(tmp_path / "c" / "calibration.pdf"))
    assert len(document) == 2
    back = document[1].get_textpage()
    labels = back.get_text_range()
    for value in ("-10", "-8", "0", "8", "10", "X", "Y", "--back-offset"):
        assert value in labels
    # the ruler's 0 sits at the page centre, where the front's cross is
    front = render_page(str(tmp_path / "c" / "calibration.pdf"), 0, 72).convert("L")
    assert front.getpixel((round(mm(105)), round(mm(148.5) + 40))) < 200


def test_keys_in_volumes(tmp_path):
    from kitgen.games.codenames import key_volumes

    result = key_volumes.build(30, "words", "vol", tmp_path, None, None, None, volume_pages=2)
    target = result.target
    assert [v.name for v in result.volumes] == ["keys-001.pdf", "keys-002.pdf", "keys-003.pdf"]
    manifest = json.loads((target / "manifest.json").read_text())
    assert len(manifest["keys"]) == 30 and [k["number"] for k in manifest["keys"]] == list(range(1, 31))
    last = [k for k in manifest["keys"] if k["file"] == "keys-003.pdf"]
    image = render_page(str(target / "keys-003.pdf"), 0, 150)
    assert {r.text for r in zxingcpp.read_barcodes(image)} == {k["payload"] for k in last}
    assert manifest["options"]["keys"] == 30
    assert sorted(p.name for p in target.iterdir()) == ["keys-001.pdf", "keys-002.pdf", "keys-003.pdf",
                                                        "manifest.json"]      # the streamed entries' file is gone


def test_key_numbers_are_padded_to_the_deck_not_the_volume(tmp_path):
    from kitgen.games.codenames import key_volumes

    result = key_volumes.build(100, "words", "pad", tmp_path, None, None, None, volume_pages=2)
    target = result.target
    assert len(result.volumes) == 9                   # 12 keys a volume; the last holds 97-100

    def numbers(name):
        text = pdfium.PdfDocument(str(target / name))[0].get_textpage().get_text_range()
        return set(re.findall(r"\b\d+/100\b", text))

    assert numbers("keys-001.pdf") == {f"{n:03d}/100" for n in range(1, 13)}
    assert numbers("keys-009.pdf") == {"097/100", "098/100", "099/100", "100/100"}


def test_png_defaults_to_300_dpi():
    from kitgen.cli import cli

    command = cli.commands["build"]
    assert command.make_context("build", ["--png"]).params["png_dpi"] == 300
    assert command.make_context("build", ["--png", "150"]).params["png_dpi"] == 150
    assert command.make_context("build", []).params["png_dpi"] is None
