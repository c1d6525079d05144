"""Print-on-demand exports (--pod, docs/design.md §8.13): the size each part goes to, how a
card is turned and scaled into the service's image, the safe zone, and the files of real kits."""

import io
import re
import shutil
import subprocess
import sys

import pytest
import zxingcpp
from hypothesis import given, strategies as st
from PIL import Image
from reportlab.lib.colors import Color

from kitgen import layouts
from kitgen.errors import KitgenError
from kitgen.render import pod
from kitgen.render.cards import CardSet
from kitgen.render.sheet import CardSpec
from kitgen.units import mm

INCH = 72
WORDS = [f"Word{chr(65 + i // 26)}{chr(97 + i % 26)}" for i in range(30)]


def preset(service, base="default"):
    return layouts.load(base, (f"pod-{service}",))


@pytest.mark.parametrize("service, base, section, expected", [
    # the README's table: what each part of the built-in kits goes to
    ("tgc", "default", "codename_card", ("mini", True, (600, 825))),
    ("tgc", "default", "key_card", ("small-square", False, (825, 825))),
    ("tgc", "default", "tile", ("micro", True, (450, 600))),
    ("tgc", "pictures", "picture_card", ("small-square", False, (825, 825))),
    ("tgc", "default", "case_card", ("euro-poker", False, (819, 1114))),
    ("tgc", "default", "city_tile", None),
    ("mpc", "default", "codename_card", ("mini", True, (597, 822))),
    ("mpc", "default", "key_card", ("square", False, (822, 822))),
    ("mpc", "default", "tile", None),
    ("mpc", "pictures", "picture_card", ("square", False, (822, 822))),
    ("mpc", "default", "case_card", ("poker", False, (822, 1122))),
])
def test_each_part_goes_to_the_nearest_size(service, base, section, expected):
    layout = preset(service, base)
    t = pod.target(section, *getattr(layout, section).size, layout.pod)
    assert (t and (t.size, t.turned, t.pixels(layout.pod.dpi))) == expected


def test_a_poker_card_is_825_by_1125_pixels_at_the_game_crafter():
    layout = preset("tgc")
    t = pod.target("x", 2.5 * INCH, 3.5 * INCH, layout.pod)
    assert (t.size, t.turned, t.scale, t.pixels(300)) == ("poker", False, 1.0, (825, 1125))


@given(w=st.floats(20, 120), h=st.floats(20, 120), u=st.floats(0, 1), v=st.floats(0, 1),
       portrait=st.booleans())
def test_a_back_lies_behind_its_front_with_the_same_top(w, h, u, v, portrait):
    """Turned over about its vertical axis, a service card shows at (W - x, y) what lies
    behind (x, y) of its front; the back's point (w - u, v) is the front's (u, v) (§8.2)."""
    t = pod.Target("x", "s", (mm(63.5), mm(88.9)) if portrait else (mm(88.9), mm(63.5)), w > h and portrait, 1.3,
                   mm(3))
    width, height = mm(w), mm(h)
    fx, fy = pod.apply(pod.matrix(t, width, height, "front"), u * width, v * height)
    bx, by = pod.apply(pod.matrix(t, width, height, "back"), (1 - u) * width, v * height)
    assert (bx, by) == pytest.approx((t.page[0] - fx, fy), abs=1e-6)


def _marked_cards(width_mm, height_mm, bleed_mm):
    """One card: blue all over its bleed, a red mark in its top-left corner on both faces."""
    spec = CardSpec(mm(width_mm), mm(height_mm), mm(bleed_mm), 0)

    def face(c, i):
        c.setFillColor(Color(0, 0, 1))
        c.rect(-spec.bleed, -spec.bleed, spec.width + 2 * spec.bleed, spec.height + 2 * spec.bleed, stroke=0, fill=1)
        c.setFillColor(Color(1, 0, 0))
        c.rect(0, spec.height - mm(8), mm(8), mm(8), stroke=0, fill=1)

    return CardSet("t", "t", spec, 1, face, face)


def _red_corner(image) -> str:
    w, h = image.size
    corners = {"top-left": (0.12, 0.12), "top-right": (0.88, 0.12), "bottom-left": (0.12, 0.88),
               "bottom-right": (0.88, 0.88)}
    found = [name for name, (fx, fy) in corners.items() if image.getpixel((int(fx * w), int(fy * h)))[0] > 200
             and image.getpixel((int(fx * w), int(fy * h)))[2] < 80]
    assert len(found) == 1, found
    return found[0]


def test_a_landscape_card_turned_into_a_portrait_image_on_both_faces():
    """The front turned anticlockwise (its top at the image's left), the back clockwise:
    the front's top-left mark at the image's bottom-left, the back's at its top-right, which is
    behind the front's top-left once the card is turned over about its long side."""
    layout = preset("tgc")
    cards = _marked_cards(64, 42, 6)
    t = pod.target("t", cards.spec.width, cards.spec.height, layout.pod)
    assert t.turned
    from kitgen import fonts

    data = pod.render(cards, t, layout.pod, {"label": fonts.register("noto-sans", 400).registered_name}, "t", False)
    front, back = (Image.open(io.BytesIO(png)) for _, png in pod.images(data, cards, t, layout.pod, "x"))
    assert front.size == back.size == (600, 825)
    assert front.mode == "RGB" and round(front.info["dpi"][0]) == 300
    assert (_red_corner(front), _red_corner(back)) == ("bottom-left", "top-right")
    # the card's own bleed fills the image: no paper white anywhere on its edge
    for image in (front, back):
        edge = [image.getpixel((x, y)) for x in (0, image.width - 1) for y in range(0, image.height, 25)]
        assert all(p[2] > 200 and p[0] < 80 for p in edge)


def test_a_card_whose_bleed_cannot_fill_the_image_is_refused():
    layout = preset("tgc")
    cards = _marked_cards(64, 42, 1)
    t = pod.target("t", cards.spec.width, cards.spec.height, layout.pod)
    with pytest.raises(KitgenError, match=r"codename_card.bleed \(1 mm\) does not fill the The Game Crafter mini "
                                          r"card's bleed; give it at least 4.7 mm in the layout"):
        pod.check(t, cards, {}, layout.pod, "codename_card")
    pod.check(t, _marked_cards(64, 42, 4.7), {}, layout.pod, "codename_card")        # what it asks is enough
    with pytest.raises(KitgenError):
        pod.check(t, _marked_cards(64, 42, 4.55), {}, layout.pod, "codename_card")


def test_a_box_in_the_safe_zone_is_refused():
    layout = preset("tgc")
    cards = _marked_cards(64, 42, 6)
    t = pod.target("t", cards.spec.width, cards.spec.height, layout.pod)
    pod.check(t, cards, {"word": (mm(7), mm(6.5), mm(50), mm(11))}, layout.pod, "codename_card")
    with pytest.raises(KitgenError, match=r"codename_card.word.box comes within 3.175 mm of the The Game Crafter "
                                          r"mini card's trim"):
        pod.check(t, cards, {"word": (mm(1), mm(6.5), mm(50), mm(11))}, layout.pod, "codename_card")


@pytest.mark.parametrize("service", ["tgc", "mpc"])
def test_every_box_of_the_built_in_layouts_keeps_out_of_the_safe_zone(service):
    for base, sections in (("default", ("codename_card", "key_card", "tile", "case_card")),
                           ("pictures", ("picture_card", "key_card", "tile"))):
        layout = preset(service, base)
        for section in sections:
            s = layout[section]
            t = pod.target(section, *s.size, layout.pod)
            if t is None:
                continue
            cards = CardSet(section, section, CardSpec(*s.size, s.bleed, s.gutter), 1, lambda c, i: None,
                            lambda c, i: None)
            pod.check(t, cards, pod.section_boxes(s), layout.pod, section)


# --- kits --------------------------------------------------------------------------

@pytest.fixture(scope="module")
def tgc_kit(tmp_path_factory):
    from kitgen.games.codenames import build, kitfile

    folder = tmp_path_factory.mktemp("pod")
    (folder / "w.txt").write_text("\n".join(WORDS))
    kit = kitfile.load(deck=str(folder / "w.txt"), keys=2, print_options={"pod": "tgc"})
    files, manifest = build.build_files(kit)
    return {f.name: f for f in files}, manifest


def test_a_words_kit_for_the_game_crafter(tgc_kit):
    files, manifest = tgc_kit
    record = manifest["pod"]
    assert record["service"] == "tgc" and record["files"] == "png" and record["not_exported"] == []
    assert {part: (p["size"], p["image_px"], p["faces"]) for part, p in record["parts"].items()} == {
        "codenames": ("mini", [600, 825], 30), "keys": ("small-square", [825, 825], 4),
        "tiles": ("micro", [450, 600], 50)}
    names = sorted(n for n in files if n.startswith("pod-tgc/"))
    assert len(names) == 30 + 4 + 50
    assert names[:2] == ["pod-tgc/codenames/001-back.png", "pod-tgc/codenames/001-front.png"]
    assert all(Image.open(io.BytesIO(files[n].data)).mode == "RGB" for n in names[::10])
    # the kit's own files are listed as always, the service's among the extra files
    assert "pod-tgc/keys/001-front.png" in {f["path"] for f in manifest["extra_files"]}
    assert all("/" not in f["path"] for f in manifest["files"])


def test_a_key_for_the_game_crafter_still_reads(tgc_kit):
    files, manifest = tgc_kit
    image = Image.open(io.BytesIO(files["pod-tgc/keys/001-front.png"].data))
    codes = zxingcpp.read_barcodes(image)
    assert [c.text for c in codes] == [manifest["keys"][0]["payload"]]


def test_a_deduction_kit_for_makeplayingcards(tmp_path):
    from kitgen.games.deduction import build

    files, manifest = build.build_files(build.load(print_options={"pod": "mpc"}))
    record = manifest["pod"]
    assert {part: (p["size"], p["image_px"]) for part, p in record["parts"].items()} == {
        "cases": ("poker", [822, 1122]), "evidence": ("poker", [822, 1122])}
    assert record["not_exported"] == ["tiles"]
    image = Image.open(io.BytesIO(next(f for f in files if f.name == "pod-mpc/cases/001-front.png").data))
    assert image.size == (822, 1122)


def test_a_pictures_kit_for_the_game_crafter(tmp_path):
    from kitgen.games.codenames import build, kitfile

    kit = kitfile.load(kitfile.kit_path(None, "pictures", None), keys=2, print_options={"pod": "tgc"})
    files, manifest = build.build_files(kit)
    assert manifest["pod"]["parts"]["codenames"]["size"] == "small-square"
    front = Image.open(io.BytesIO(next(f for f in files if f.name == "pod-tgc/codenames/001-front.png").data))
    assert front.size == (825, 825)


def test_an_unknown_service_is_refused(tmp_path):
    result = subprocess.run([sys.executable, "-m", "kitgen", "build", "--pod", "printshop", "--out", "o"],
                            cwd=tmp_path, capture_output=True, text=True)
    assert result.returncode == 2
    assert result.stderr.splitlines() == [
        "kitgen: error: --pod must be one of tgc, mpc, dtc, not 'printshop' (see 'kitgen build --help')"]
    assert not (tmp_path / "o").exists()



# --- DriveThruCards: one PDF/X-1a a deck, within 240 % ink, back first ----------------

@pytest.fixture(scope="module")
def dtc_kit(tmp_path_factory):
    from kitgen.games.codenames import build, kitfile

    folder = tmp_path_factory.mktemp("dtc")
    (folder / "w.txt").write_text("\n".join(WORDS))
    kit = kitfile.load(deck=str(folder / "w.txt"), keys=2, print_options={"pod": "dtc"})
    target, files, manifest = build.build(kit, folder / "out")
    return target, {f.name: f for f in files}, manifest


def test_a_words_kit_for_drivethrucards_is_one_pdfx_file_a_deck(dtc_kit):
    from kitgen.render import pdfx

    target, files, manifest = dtc_kit
    record = manifest["pod"]
    assert record["files"] == "pdf" and record["order"] == "back-front"
    assert record["pdfx"]["version"] == "PDF/X-1a:2003" and record["pdfx"]["max_ink"] == 240
    assert {p: (r["size"], r["faces"], r["files"]) for p, r in record["parts"].items()} == {
        "codenames": ("mini", 30, ["pod-dtc/codenames.pdf"]), "keys": ("square", 4, ["pod-dtc/keys.pdf"])}
    assert record["not_exported"] == ["tiles"]
    for name in ("pod-dtc/codenames.pdf", "pod-dtc/keys.pdf"):
        data = (target / name).read_bytes()
        assert pdfx.problems(data, 240) == [], name      # every PDF/X-1a check, and no colour over 240 %
    # the assassin's rich black is on the keys, at the preset's 200 %
    assert pdfx.problems((target / "pod-dtc/keys.pdf").read_bytes(), 199.9) != []


def test_drivethrucards_pages_are_back_then_front_at_the_service_size(dtc_kit):
    import pikepdf
    import pypdfium2 as pdfium

    target, _, manifest = dtc_kit
    path = target / "pod-dtc" / "keys.pdf"
    with pikepdf.open(path) as pdf:
        assert len(pdf.pages) == 4
        for page in pdf.pages:
            assert [float(v) for v in page.MediaBox] == [0, 0, 198, 198]          # 2.5 in + 1/8 in each side
            assert [float(v) for v in page.TrimBox] == [9, 9, 189, 189]
    document = pdfium.PdfDocument(str(path))
    try:
        codes = [zxingcpp.read_barcodes(document[i].render(scale=300 / 72).to_pil()) for i in range(4)]
    finally:
        document.close()
    payloads = [k["payload"] for k in manifest["keys"]]
    assert [[c.text for c in page] for page in codes] == [[], [payloads[0]], [], [payloads[1]]]


@pytest.mark.skipif(shutil.which("gs") is None, reason="Ghostscript (gs) is not installed; .ci/run installs it")
def test_ghostscript_reads_the_drivethrucards_files_without_a_word(dtc_kit):
    target, _, _ = dtc_kit
    for path in sorted((target / "pod-dtc").iterdir()):
        result = subprocess.run(["gs", "-dNOPAUSE", "-dBATCH", "-dSAFER", "-dPDFSTOPONERROR", "-dPDFSTOPONWARNING",
                                 "-sDEVICE=nullpage", str(path)], capture_output=True, text=True)
        assert result.returncode == 0 and result.stderr == "", (path, result)
        assert not re.search(r"error|warning|\*\*\*\*|repair", result.stdout, re.I), (path, result.stdout)


def test_the_drivethrucards_preset_lowers_the_rich_blacks_and_the_limit():
    from kitgen.render import press

    layout = preset("dtc")
    assert layout.colour_mode == "cmyk" and layout.press.max_ink == 240
    assert max(press.ink(c.cmyk) for c in layout.colours.values()) <= 240
    assert max(press.ink(c.cmyk) for c in layouts.load("default").colours.values()) == 260


def test_a_deduction_kit_for_drivethrucards(tmp_path):
    from kitgen.games.deduction import build
    from kitgen.render import pdfx

    files, manifest = build.build_files(build.load(print_options={"pod": "dtc"}))
    assert {p: r["size"] for p, r in manifest["pod"]["parts"].items()} == {"cases": "poker", "evidence": "poker"}
    data = next(f for f in files if f.name == "pod-dtc/cases.pdf").data
    assert pdfx.problems(data, 240) == []


def test_drivethrucards_without_a_profile_says_what_to_install(monkeypatch, tmp_path):
    from kitgen.games.codenames import build, kitfile
    from kitgen.render import press

    monkeypatch.setattr(press, "DEFAULT_PROFILE", tmp_path / "absent.icc")
    (tmp_path / "w.txt").write_text("\n".join(WORDS))
    kit = kitfile.load(deck=str(tmp_path / "w.txt"), keys=2, print_options={"pod": "dtc"})
    with pytest.raises(KitgenError, match=r"^PDF/X \(--pdfx, --pod dtc\) needs a CMYK output profile: install "
                                          r"Debian's scribus-data package"):
        build.build_files(kit)
