"""kitgen build --pdfx (docs/design.md §8.11): every PDF of the words, pictures and deduction kits
is PDF/X-1a:2003, each requirement checked on the file's structure with pikepdf (and the colours
with tests/pdfread.py, which reads the operators without pikepdf or reportlab); Ghostscript renders
every file without a word; the same bytes twice; pictures converted through the ICC profile within
the layout's ink limit; and each refusal one line, exit 2."""

import io
import json
import re
import shutil
import subprocess
import sys
from pathlib import Path

import numpy as np
import pikepdf
import pytest
from PIL import Image, ImageCms

from kitgen import layouts
from kitgen.errors import KitgenError
from kitgen.games.codenames import build, kitfile
from kitgen.games.deduction import build as deduction
from kitgen.render import pdfx, press
from kitgen.units import mm

from pdfread import Op, Pdf, Ref, values
from raster import render_page

ROOT = Path(__file__).resolve().parent.parent
GS = shutil.which("gs")
FIXED_DATE = "D:20000101000000+00'00'"          # reportlab's invariant date, kept (docs/design.md §8.4)
LIMIT_LAYOUT = "extends: {parent}\npress: {{max_ink: 240}}\n"
# the two rich blacks of the base layout lowered to 200 %, so that a 240 % layout is accepted
LOWERED = "colours:\n  assassin: {cmyk: [0.4, 0.3, 0.3, 1]}\n  solving: {cmyk: [0.4, 0.3, 0.3, 1]}\n"


def kitgen(*args, cwd):
    return subprocess.run([sys.executable, "-m", "kitgen", *args], cwd=cwd, capture_output=True, text=True)


@pytest.fixture(scope="module")
def profile():
    if not press.DEFAULT_PROFILE.is_file():
        pytest.skip(f"{press.DEFAULT_PROFILE} is missing: apt install {press.DEFAULT_PACKAGE} (.ci/run does)")
    return press.load_profile()


@pytest.fixture(scope="module")
def kits(tmp_path_factory, profile):
    """The words kit (with per-card PDFs), the pictures kit and the deduction kit (with per-card
    PDFs), built with --color cmyk --pdfx: {name: folder}."""
    out = tmp_path_factory.mktemp("pdfx")
    words = build.build(kitfile.load(keys=2, colour="cmyk", print_options={"per_card": True, "pdfx": profile}),
                        out / "words")[0]
    pictures = build.build(kitfile.load(kitfile.kit_path(None, "pictures"), keys=2, colour="cmyk",
                                        print_options={"pdfx": profile}), out / "pictures")[0]
    game = deduction.build(deduction.load(colour="cmyk", print_options={"per_card": True, "pdfx": profile}),
                           out / "deduction")[0]
    return {"words": words, "pictures": pictures, "deduction": game}


@pytest.fixture(scope="module")
def files(kits):
    """Every PDF of the three kits: [(kit, path)]."""
    return [(name, path) for name, folder in kits.items() for path in sorted(folder.glob("*.pdf"))]


def each_pdf(files):
    for name, path in files:
        with pikepdf.open(path) as pdf:
            yield f"{name}/{path.name}", pdf


def test_every_pdf_of_the_three_kits_is_converted(kits, files):
    names = {kit: sorted(p.name for k, p in files if k == kit) for kit in kits}
    assert names["words"] == ["codenames-cards.pdf", "codenames.pdf", "keys-cards.pdf", "keys.pdf", "kit.pdf",
                              "rules.pdf", "tiles-cards.pdf", "tiles.pdf"]
    assert "kit.pdf" in names["pictures"] and "board.pdf" in names["deduction"]
    assert "cases-cards.pdf" in names["deduction"]
    for where, pdf in each_pdf(files):
        assert "/OutputIntents" in pdf.Root, where


def test_a_gts_pdfx_output_intent_with_the_cmyk_profile(files, profile):
    for where, pdf in each_pdf(files):
        intents = list(pdf.Root.OutputIntents)
        assert len(intents) == 1, where
        intent = intents[0]
        assert intent.S == pikepdf.Name.GTS_PDFX and intent.Type == pikepdf.Name.OutputIntent
        assert str(intent.OutputConditionIdentifier) == "FOGRA39"
        assert str(intent.RegistryName) == "http://www.color.org"
        assert str(intent.OutputCondition) == "ISO Coated v2 300% (basICColor)"
        assert "ISO 12647-2" in str(intent.Info)
        stream = intent.DestOutputProfile
        assert stream.N == 4
        data = stream.read_bytes()
        assert data == press.DEFAULT_PROFILE.read_bytes() == profile.data
        assert data[12:16] == b"prtr" and data[16:20] == b"CMYK" and data[36:40] == b"acsp"


def test_info_says_pdfx_1a_2003_untrapped_with_fixed_dates_and_a_title(files):
    for where, pdf in each_pdf(files):
        info = pdf.docinfo
        assert str(info.GTS_PDFXVersion) == "PDF/X-1a:2003", where
        assert info.Trapped == pikepdf.Name("/False"), where
        assert str(info.CreationDate) == str(info.ModDate) == FIXED_DATE, where
        assert str(info.Title), where
        assert pdf.pdf_version == "1.4" and not pdf.is_encrypted and "/Encrypt" not in pdf.trailer, where


def test_a_document_id_in_the_trailer(files):
    """Two 16-byte strings: the permanent one reportlab made from the content, and the one qpdf
    made from what it wrote (deterministic_id: no time, no random)."""
    ids = set()
    for where, pdf in each_pdf(files):
        first, second = pdf.trailer.ID
        assert len(bytes(first)) == len(bytes(second)) == 16, where
        ids.add(bytes(second))
    assert len(ids) == len(files)                       # each file's own


def test_trim_and_bleed_boxes_on_every_page_nested(files):
    for where, pdf in each_pdf(files):
        for number, page in enumerate(pdf.pages, 1):
            media, trim, bleed = ([float(v) for v in page.obj[key]] for key in ("/MediaBox", "/TrimBox", "/BleedBox"))
            assert bleed[0] >= media[0] and bleed[1] >= media[1] and bleed[2] <= media[2] and bleed[3] <= media[3]
            assert trim[0] >= bleed[0] and trim[1] >= bleed[1] and trim[2] <= bleed[2] and trim[3] <= bleed[3]
            if "-cards" in where:                       # a card and its bleed: the card's own trim
                assert bleed == media, (where, number)
            else:                                       # an imposed sheet is trimmed as a whole sheet
                assert trim == bleed == media, (where, number)


def test_per_card_pages_keep_their_true_trim(kits):
    with pikepdf.open(kits["words"] / "keys-cards.pdf") as pdf:
        page = pdf.pages[0].obj
        b, w = mm(3), mm(57)
        assert [float(v) for v in page.TrimBox] == pytest.approx([b, b, b + w, b + w], abs=0.01)
        assert [float(v) for v in page.BleedBox] == [float(v) for v in page.MediaBox]


def content_streams(pdf: Pdf):
    """The decoded content of every page and every form XObject, read by tests/pdfread.py."""
    streams = [pdf.content(page) for page in pdf.pages()]
    for number in pdf.offsets:
        value, _ = pdf.object(number)
        if isinstance(value, dict) and value.get("Subtype") == "Form":
            streams.append(pdf.stream(Ref(number)))
    return streams


def colour_operators(data: bytes):
    """(operator, operands) of every colour-setting operator of the file, and ("ID", the
    dictionary's keys and values) for each inline image."""
    for content in content_streams(Pdf(data)):
        operands, image = [], None
        for value, _ in values(content):
            if image is not None:                       # an inline image's dictionary: up to ID
                if isinstance(value, Op) and value == "ID":
                    yield "ID", tuple(image)
                    image = None
                else:
                    image.append(value)
            elif isinstance(value, Op):
                if value in ("k", "K", "rg", "RG", "g", "G", "sc", "scn", "SC", "SCN", "cs", "CS"):
                    yield str(value), tuple(operands)
                image = [] if value == "BI" else None
                operands = []
            else:
                operands.append(value)


def test_only_cmyk_and_grey_colour_and_every_cmyk_colour_within_the_ink_limit(files):
    """Read by tests/pdfread.py: no RGB operator or colour space; k and K at most 300 % in all; the
    only inline images are the QR codes' stencil masks (/IM true: they paint in the fill colour,
    which PDF/X-1a allows: no transparency)."""
    for _, path in files:
        data = path.read_bytes()
        found = list(colour_operators(data))
        assert any(op == "k" for op, _ in found), path
        for op, operands in found:
            assert op not in ("rg", "RG"), (path, op, operands)
            assert op not in ("sc", "scn", "SC", "SCN") or len(operands) in (1, 4), (path, op, operands)
            if op in ("cs", "CS"):
                assert str(operands[0]) in ("DeviceCMYK", "DeviceGray"), (path, operands)
            if op in ("k", "K"):
                assert sum(operands) <= 3 + 1e-9, (path, op, operands)
            if op == "ID":                      # the inline image's dictionary, flattened
                image = dict(zip(operands[::2], operands[1::2]))
                assert image.get("IM", image.get("ImageMask")) == "true", (path, image)
    keys = next(p for n, p in files if n == "words" and p.name == "keys.pdf").read_bytes()
    assert sum(op == "ID" for op, _ in colour_operators(keys)) == 2          # two keys, two QR codes
    # layout colours are the layout's own CMYK values, never converted: the assassin's rich black
    assert ("k", (0.6, 0.5, 0.5, 1)) in list(colour_operators(keys))


def test_no_rgb_or_icc_colour_space_and_only_cmyk_grey_or_mask_images(files):
    for where, pdf in each_pdf(files):
        for obj in pdf.objects:
            if not isinstance(obj, (pikepdf.Dictionary, pikepdf.Stream)):
                continue
            if obj.get("/Subtype") == pikepdf.Name.Image:
                assert obj.get("/ImageMask") is True or obj.ColorSpace in (pikepdf.Name.DeviceCMYK,
                                                                              pikepdf.Name.DeviceGray), where
            text = repr(obj.get("/ColorSpace", ""))
            assert "RGB" not in text and "ICCBased" not in text and "Lab" not in text, (where, text)
        for page in pdf.pages:
            spaces = page.obj.Resources.get("/ColorSpace", {})
            assert not any("RGB" in repr(s) or "ICCBased" in repr(s) for s in spaces.values()), where


def test_every_font_is_embedded_and_no_standard_font_is_named(files):
    for where, pdf in each_pdf(files):
        fonts = [obj for obj in pdf.objects
                 if isinstance(obj, pikepdf.Dictionary) and obj.get("/Type") == pikepdf.Name.Font]
        assert fonts or not where.endswith("kit.pdf"), where
        for font in fonts:
            assert font.Subtype in (pikepdf.Name.TrueType, pikepdf.Name.Type0), (where, font.BaseFont)
            descriptor = font.FontDescriptor if font.Subtype == pikepdf.Name.TrueType else \
                font.DescendantFonts[0].FontDescriptor
            assert "/FontFile2" in descriptor or "/FontFile3" in descriptor, (where, font.BaseFont)
            assert "+" in str(font.BaseFont), (where, font.BaseFont)          # a subset, embedded
            assert "Helvetica" not in str(font.BaseFont), where


def test_no_transparency_soft_mask_or_group(files):
    for where, pdf in each_pdf(files):
        for obj in pdf.objects:
            if not isinstance(obj, (pikepdf.Dictionary, pikepdf.Stream)):
                continue
            assert "/SMask" not in obj or obj.SMask == pikepdf.Name("/None"), where
            for key in ("/CA", "/ca"):
                assert key not in obj or float(obj[key]) == 1, (where, key)
            group = obj.get("/Group")
            assert group is None or group.get("/S") != pikepdf.Name.Transparency, where
            assert obj.get("/BM", pikepdf.Name.Normal) in (pikepdf.Name.Normal, pikepdf.Name.Compatible), where


def test_the_kernel_checks_find_nothing_to_refuse(files):
    for _, path in files:
        assert pdfx.problems(path.read_bytes(), 300) == [], path


@pytest.mark.skipif(GS is None, reason="Ghostscript (gs) is not installed; .ci/run installs it")
def test_ghostscript_renders_every_file_without_a_warning(files):
    """Not quiet (-q hides what Ghostscript repaired, such as a bad xref offset): nothing on stderr,
    no error, warning or repair note among what it says."""
    for _, path in files:
        result = subprocess.run([GS, "-dNOPAUSE", "-dBATCH", "-dSAFER", "-dPDFSTOPONERROR", "-dPDFSTOPONWARNING",
                                 "-sDEVICE=nullpage", str(path)], capture_output=True, text=True)
        assert result.returncode == 0 and result.stderr == "", (path, result)
        assert "Processing pages 1 through" in result.stdout, (path, result.stdout)
        assert not re.search(r"error|warning|\*\*\*\*|repair", result.stdout, re.I), (path, result.stdout)


@pytest.mark.skipif(GS is None, reason="Ghostscript (gs) is not installed; .ci/run installs it")
def test_ghostscript_separates_the_key_card_into_its_own_inks(kits, tmp_path):
    """Rendered to CMYK (tiff32nc) a key card's text is pure black ink, nothing converted."""
    out = tmp_path / "keys.tif"
    result = subprocess.run([GS, "-q", "-dNOPAUSE", "-dBATCH", "-dSAFER", "-sDEVICE=tiff32nc", "-r72",
                             "-dFirstPage=1", "-dLastPage=1", f"-sOutputFile={out}",
                             str(kits["words"] / "keys-cards.pdf")], capture_output=True, text=True)
    assert result.returncode == 0 and result.stderr == "", result.stderr
    pixels = np.asarray(Image.open(out))
    assert pixels.shape[-1] == 4
    pure_k = (pixels[..., :3] == 0).all(axis=-1) & (pixels[..., 3] == 255)
    assert pure_k.sum() > 50                      # the QR, the number: 100 % K, no CMY under it


def test_the_same_inputs_give_the_same_bytes(kits, tmp_path, profile):
    again = build.build(kitfile.load(keys=2, colour="cmyk", print_options={"per_card": True, "pdfx": profile}),
                        tmp_path)[0]
    for path in kits["words"].glob("*.pdf"):
        assert (again / path.name).read_bytes() == path.read_bytes(), path.name


def test_pages_look_as_the_plain_cmyk_kits_do(kits, tmp_path):
    """--pdfx changes the file, not the drawing: the same pixels as the kit built with --color cmyk alone."""
    plain = build.build(kitfile.load(keys=2, colour="cmyk"), tmp_path)[0]
    for name, pages in (("keys.pdf", (0, 1)), ("kit.pdf", (0, 26, 28)), ("rules.pdf", (0,))):
        for page in pages:
            assert render_page((kits["words"] / name).read_bytes(), page, 40).tobytes() == \
                render_page((plain / name).read_bytes(), page, 40).tobytes(), (name, page)


def test_the_manifest_records_pdfx_the_profile_and_the_libraries(kits):
    for name in ("words", "deduction"):
        manifest = json.loads((kits[name] / "manifest.json").read_text())
        record = manifest["options"]["pdfx"]
        assert record["version"] == "PDF/X-1a:2003" and record["max_ink"] == 300
        assert record["intent"] == "relative colorimetric with black point compensation"
        assert record["profile"]["name"] == "ISO Coated v2 300% (basICColor)"
        assert record["profile"]["condition"] == "FOGRA39" and record["profile"]["licence"].startswith("zlib")
        assert record["profile"]["source"].startswith("Debian package scribus-data")
        assert record["profile"]["sha256"] == press.load_profile().digest
        assert manifest["libraries"]["pikepdf"] == pikepdf.__version__
        assert manifest["libraries"]["qpdf"] == pikepdf.__libqpdf_version__


def bad(tmp_path, *args, match):
    result = kitgen("build", *args, "--out", "out", cwd=tmp_path)
    assert result.returncode == 2, result.stderr
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("kitgen: error: ") and "Traceback" not in result.stderr
    for text in match:
        assert text in lines[0], lines[0]
    assert not (tmp_path / "out").exists()
    return lines[0]


def test_pdfx_without_cmyk_and_icc_without_pdfx_are_refused(tmp_path):
    bad(tmp_path, "--pdfx", match=["--pdfx needs --color cmyk"])
    bad(tmp_path, "--pdfx", "--game", "deduction", match=["--pdfx needs --color cmyk"])
    bad(tmp_path, "--icc", "x.icc", "--color", "cmyk", match=["--icc is the profile of --pdfx"])


def test_a_profile_that_is_not_cmyk_output_is_refused(tmp_path):
    rgb = tmp_path / "srgb.icc"
    rgb.write_bytes(ImageCms.ImageCmsProfile(ImageCms.createProfile("sRGB")).tobytes())
    bad(tmp_path, "--color", "cmyk", "--pdfx", "--icc", "srgb.icc", match=["srgb.icc", "not a CMYK output"])
    (tmp_path / "junk.icc").write_bytes(b"not a profile")
    bad(tmp_path, "--color", "cmyk", "--pdfx", "--icc", "junk.icc", match=["junk.icc", "is not an ICC profile"])
    bad(tmp_path, "--color", "cmyk", "--pdfx", "--icc", "none.icc", match=["none.icc", "cannot read"])


def test_without_the_profile_package_the_line_says_what_to_install(monkeypatch, tmp_path):
    monkeypatch.setattr(press, "DEFAULT_PROFILE", tmp_path / "absent.icc")
    with pytest.raises(KitgenError) as err:
        press.load_profile()
    assert "apt install scribus-data" in str(err.value) and "--icc PATH" in str(err.value)


def test_another_cmyk_profile_given_with_icc_is_a_custom_condition(tmp_path):
    """Ghostscript's own CMYK profile (from libgs-common, which ghostscript brings) stands in for a
    print shop's: the OutputIntent says Custom, describes it, and embeds it."""
    shop = Path("/usr/share/color/icc/ghostscript/default_cmyk.icc")
    if not shop.exists():
        pytest.skip("Ghostscript's profiles are not installed; .ci/run installs ghostscript")
    result = kitgen("build", "--color", "cmyk", "--pdfx", "--icc", str(shop), "--keys", "2", "--out", "out",
                    cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    with pikepdf.open(tmp_path / "out" / "classic-en" / "keys.pdf") as pdf:
        intent = pdf.Root.OutputIntents[0]
        assert str(intent.OutputConditionIdentifier) == "Custom" and "/RegistryName" not in intent
        assert str(intent.Info) == str(intent.OutputCondition) != ""
        assert intent.DestOutputProfile.read_bytes() == shop.read_bytes()
    manifest = json.loads((tmp_path / "out" / "classic-en" / "manifest.json").read_text())
    assert manifest["options"]["pdfx"]["profile"]["file"] == str(shop)


def test_an_ink_limit_lowered_to_240_refuses_the_rich_black(tmp_path):
    """DriveThruCards asks for 240 %: a layout lowering press.max_ink refuses the assassin's rich
    black (260 %), naming the colour, its file and the limit's."""
    (tmp_path / "dtc.yaml").write_text(LIMIT_LAYOUT.format(parent="default"))
    (tmp_path / "kit.yaml").write_text("id: tac\nname: TAC\ndeck: classic-en\nkeys: 2\nlayout: dtc.yaml\n")
    line = bad(tmp_path, "kit.yaml", "--color", "cmyk", "--pdfx",
               match=["colour assassin is 260% ink", "press.max_ink 240% (dtc.yaml:2)", "base.yaml:"])
    assert "solving 260%" in line
    result = kitgen("build", "kit.yaml", "--color", "cmyk", "--out", "plain", cwd=tmp_path)
    assert result.returncode == 0, result.stderr                  # the limit is a --pdfx check only


def test_the_ink_limit_is_a_percentage_of_four_inks(tmp_path):
    for value in (450, 80):
        (tmp_path / "layout.yaml").write_text(f"press: {{max_ink: {value}}}\n")
        with pytest.raises(KitgenError, match="press.max_ink is a total of four inks"):
            layouts.load(tmp_path / "layout.yaml")
    (tmp_path / "layout.yaml").write_text("press: {max_ink: 240}\n")
    assert layouts.load(tmp_path / "layout.yaml").press.max_ink == 240


def test_limit_ink_moves_the_grey_component_to_black_then_scales():
    pixels = Image.frombytes("CMYK", (4, 1), bytes([200, 180, 160, 100, 200, 200, 200, 255, 255, 0, 255, 255,
                                                    10, 20, 30, 40]))
    limited = np.asarray(press.limit_ink(pixels, 240), dtype=int).reshape(-1, 4)
    assert (limited.sum(axis=-1) <= 240 * 255 // 100).all()
    assert list(limited[0]) == [186, 166, 146, 114]             # 28 too many: 14 of each of C, M, Y to K
    assert limited[1][3] == 255 and limited[1][0] == limited[1][1] == limited[1][2]    # K full: CMY scaled alike
    assert limited[2][1] == 0 and limited[2][0] == limited[2][2]                         # no grey: scaled
    assert list(limited[3]) == [10, 20, 30, 40]                                          # within: untouched
    assert press.limit_ink(pixels.crop((3, 0, 4, 1)), 240).tobytes() == bytes([10, 20, 30, 40])


# --- pictures -------------------------------------------------------------------------------------

COLOURS = [(224, 83, 61), (30, 63, 140), (10, 10, 12), (40, 20, 60)] + [(20 + 11 * i, 200 - 7 * i, 90 + 5 * i)
                                                                         for i in range(16)]


def png_deck(folder: Path) -> Path:
    folder.mkdir()
    for i, colour in enumerate(COLOURS):
        buffer = io.BytesIO()
        Image.new("RGB", (64, 64), colour).save(buffer, "PNG")
        (folder / f"p{i:02d}.png").write_bytes(buffer.getvalue())
    return folder


def image_colours(path: Path) -> set:
    """The colour of each (solid) CMYK image of the file."""
    found = set()
    with pikepdf.open(path) as pdf:
        for obj in pdf.objects:
            if isinstance(obj, pikepdf.Stream) and obj.get("/Subtype") == pikepdf.Name.Image:
                assert obj.ColorSpace == pikepdf.Name.DeviceCMYK
                image = pikepdf.PdfImage(obj).as_pil_image()
                found.add(image.getpixel((image.width // 2, image.height // 2)))
    return found


def lcms(colour) -> tuple:
    """What LittleCMS makes of an sRGB colour in the profile: relative colorimetric, black point compensation."""
    transform = ImageCms.buildTransform(ImageCms.createProfile("sRGB"), str(press.DEFAULT_PROFILE), "RGB", "CMYK",
                                        renderingIntent=ImageCms.Intent.RELATIVE_COLORIMETRIC,
                                        flags=ImageCms.Flags.BLACKPOINTCOMPENSATION)
    return ImageCms.applyTransform(Image.new("RGB", (1, 1), colour), transform).getpixel((0, 0))


def test_raster_pictures_go_through_the_profile_not_the_plain_formula(tmp_path, profile):
    deck = png_deck(tmp_path / "pictures")
    kit = kitfile.load(kitfile.kit_path(None, "pictures"), deck=str(deck), keys=2, colour="cmyk",
                       print_options={"pdfx": profile})
    folder = build.build(kit, tmp_path / "out")[0]
    found = image_colours(folder / "codenames.pdf")
    expected = {lcms(colour) for colour in COLOURS}
    naive = {Image.new("RGB", (1, 1), colour).convert("CMYK").getpixel((0, 0)) for colour in COLOURS}
    assert found == expected
    assert not found & naive
    assert lcms((224, 83, 61)) != (0, 161, 187, 31)           # PIL's formula: 0 % cyan in a red
    plain = kitfile.load(kitfile.kit_path(None, "pictures"), deck=str(deck), keys=2, colour="cmyk")
    assert image_colours(build.build(plain, tmp_path / "plain")[0] / "codenames.pdf") == naive   # as before


def test_a_picture_with_its_own_icc_profile_is_converted_from_it(tmp_path, profile):
    """A PNG tagged with another RGB profile (Ghostscript's Adobe RGB stand-in) is converted from
    that profile, not from sRGB."""
    a98 = Path("/usr/share/color/icc/ghostscript/a98.icc")
    if not a98.exists():
        pytest.skip("Ghostscript's profiles are not installed; .ci/run installs ghostscript")
    colour = (30, 160, 60)
    image = Image.new("RGB", (8, 8), colour)
    buffer = io.BytesIO()
    image.save(buffer, "PNG", icc_profile=a98.read_bytes())
    tagged = Image.open(io.BytesIO(buffer.getvalue()))
    converted = press.Conversion(profile, 300).image(tagged).getpixel((0, 0))
    transform = ImageCms.buildTransform(str(a98), str(press.DEFAULT_PROFILE), "RGB", "CMYK",
                                        renderingIntent=ImageCms.Intent.RELATIVE_COLORIMETRIC,
                                        flags=ImageCms.Flags.BLACKPOINTCOMPENSATION)
    assert converted == ImageCms.applyTransform(image, transform).getpixel((0, 0))
    assert converted != lcms(colour)


def test_raster_pictures_keep_within_a_lowered_ink_limit(tmp_path, profile):
    """At 240 % (the rich blacks lowered to match) the darkest pictures, which the profile makes
    263 % and more, print within 240 %; the others as the profile makes them."""
    png_deck(tmp_path / "pictures")
    (tmp_path / "dtc.yaml").write_text(LIMIT_LAYOUT.format(parent="pictures") + LOWERED)
    (tmp_path / "kit.yaml").write_text("id: tac\nname: TAC\nedition: pictures\ndeck: pictures\nkeys: 2\n"
                                       "layout: dtc.yaml\n")
    folder = build.build(kitfile.load(tmp_path / "kit.yaml", colour="cmyk", print_options={"pdfx": profile}),
                         tmp_path / "out")[0]
    found = image_colours(folder / "codenames.pdf")
    over = {colour for colour in COLOURS if sum(lcms(colour)) > 240 * 255 // 100}
    assert (10, 10, 12) in over
    assert all(sum(pixel) <= 240 * 255 // 100 for pixel in found)
    assert {lcms(colour) for colour in COLOURS if colour not in over} <= found
    assert pdfx.problems((folder / "kit.pdf").read_bytes(), 240) == []
    assert pdfx.problems((folder / "kit.pdf").read_bytes(), 200) != []        # the check itself sees ink


def svg_deck(folder: Path, odd: str = "") -> Path:
    folder.mkdir()
    for i in range(20):
        fill = f"#{(i * 12):02x}{(255 - i * 12):02x}64"
        extra = odd if i == 7 else ""
        (folder / f"p{i:02d}.svg").write_text(f'<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10">'
                                              f'<rect width="10" height="10" fill="{fill}"{extra}/></svg>')
    return folder


def test_svg_colours_go_through_the_profile_too(tmp_path, profile):
    deck = svg_deck(tmp_path / "svgs", odd=' stroke="#e0533d"')
    kit = kitfile.load(kitfile.kit_path(None, "pictures"), deck=str(deck), keys=2, colour="cmyk",
                       print_options={"pdfx": profile})
    data = (build.build(kit, tmp_path / "out")[0] / "codenames.pdf").read_bytes()
    strokes = {operands for op, operands in colour_operators(data) if op == "K"}
    red = tuple(v / 255 for v in lcms((224, 83, 61)))
    assert any(operands == pytest.approx(red, abs=1e-4) for operands in strokes), strokes


def test_an_svg_with_transparency_is_refused_naming_it(tmp_path, profile):
    deck = svg_deck(tmp_path / "svgs", odd=' fill-opacity="0.5"')
    kit = kitfile.load(kitfile.kit_path(None, "pictures"), deck=str(deck), keys=2, colour="cmyk",
                       print_options={"pdfx": profile})
    with pytest.raises(KitgenError, match=r"p07\.svg: the SVG uses transparency") as err:
        build.build(kit, tmp_path / "out")
    assert "\n" not in str(err.value)
    kit = kitfile.load(kitfile.kit_path(None, "pictures"), deck=str(deck), keys=2, colour="cmyk")
    build.build(kit, tmp_path / "plain")                      # without --pdfx it is drawn as before


def test_a_file_that_fails_a_check_refuses_the_kit_in_one_line(profile):
    from kitgen.output import BuiltFile
    from kitgen.render.pdf import new_canvas

    buffer = io.BytesIO()
    c = new_canvas(buffer, (100, 100), {"label": "Helvetica"}, cmyk=True)      # a font left unembedded
    c.setFillColorCMYK(1, 1, 1, 0.5)                                            # and 350 % of ink
    c.rect(0, 0, 50, 50, fill=1)
    c.showPage()
    c.save()
    with pytest.raises(KitgenError) as err:
        pdfx.convert([BuiltFile("verify.html", b"<html>", 0), BuiltFile("odd.pdf", buffer.getvalue(), 1)],
                     profile, 300)
    message = str(err.value)
    assert message.startswith("odd.pdf would not be PDF/X-1a:2003: ") and "\n" not in message
    assert "350% ink, over 300%" in message and "Helvetica is not embedded" in message


def test_the_checks_find_what_pdfx_forbids():
    """The kernel's checks (render/pdfx.problems) on a PDF made to break each rule."""
    from reportlab.lib.utils import ImageReader
    from reportlab.pdfgen import canvas

    buffer = io.BytesIO()
    c = canvas.Canvas(buffer, invariant=1)
    c.setFont("Helvetica", 12)
    c.drawString(10, 10, "x")
    c.setFillColorRGB(1, 0, 0)
    c.rect(0, 0, 5, 5, fill=1)
    c.setFillAlpha(0.5)
    c.setFillColorCMYK(1, 1, 1, 1)
    c.rect(0, 0, 5, 5, fill=1)
    c.drawImage(ImageReader(Image.new("RGB", (2, 2))), 0, 0, 5, 5)
    c.showPage()
    c.save()
    found = " | ".join(pdfx.problems(buffer.getvalue(), 300))
    for text in ("GTS_PDFXVersion", "0 GTS_PDFX OutputIntents", "no TrimBox", "RGB colour (rg)", "400% ink",
                 "transparency (/ca 0.5)", "font /Helvetica is not embedded", "colour space /DeviceRGB"):
        assert text in found, text
