"""kitgen verify: payloads, the kit's PDF, scans turned and compressed, repainted
cells, wrong seeds, and bad targets."""

import json
import subprocess
import sys

import pytest
from PIL import Image, ImageDraw

from kitgen.games.codenames import verify
from kitgen.units import mm

from raster import render_page, to_pixels

SEED = "kitgen classic-en 2026"


def kitgen(*args, cwd=None):
    return subprocess.run([sys.executable, "-m", "kitgen", *args], cwd=cwd, capture_output=True, text=True)


@pytest.fixture(scope="module")
def scan(default_kit, tmp_path_factory):
    """Page 1 of keys.pdf at 200 dpi, turned 90 degrees, saved as JPEG quality 75."""
    folder, _, _ = default_kit
    image = render_page(str(folder / "keys.pdf"), 0, 200).rotate(90, expand=True)
    path = tmp_path_factory.mktemp("scan") / "page1.jpg"
    image.save(path, quality=75)
    return path


def test_the_kits_own_pdf_passes_with_its_manifest(default_kit):
    folder, _, _ = default_kit
    result = kitgen("verify", str(folder / "keys.pdf"), "--kit", str(folder / "manifest.json"))
    assert result.returncode == 0, result.stdout + result.stderr
    lines = result.stdout.strip().splitlines()
    assert len(lines) == 41 and lines[-1] == "40 key card(s) checked: 40 passed, 0 failed"
    assert all(line.startswith("OK   key ") for line in lines[:-1])


def test_a_turned_jpeg_scan_passes_with_the_seed(scan):
    results = verify.verify(str(scan), verify.Secret(SEED))
    assert len(results) == 12 and all(r.ok for r in results)


def test_a_grey_scan_is_read_by_the_symbols(scan, tmp_path):
    grey = tmp_path / "grey.jpg"
    Image.open(scan).convert("L").save(grey, quality=75)
    results = verify.verify(str(grey), verify.Secret(SEED))
    assert len(results) == 12 and all(r.ok for r in results), [r.problems for r in results if not r.ok]


def test_a_repainted_cell_fails_naming_key_and_cell(default_kit, tmp_path):
    folder, _, man = default_kit
    key = man["keys"][0]                       # on page 1
    grid = "".join(key["payload"].split(":")[4].split("/"))
    index = next(i for i, t in enumerate(grid) if t == "R")
    page = render_page(str(folder / "keys.pdf"), 0, 200)
    left, top, right, bottom = to_pixels(key["cells"][index], mm(297), 200)
    ImageDraw.Draw(page).rectangle((left, top, right, bottom), fill=(36, 88, 184))   # paint it blue
    path = tmp_path / "tampered.jpg"
    page.rotate(90, expand=True).save(path, quality=75)
    result = kitgen("verify", str(path), "--seed", SEED)
    assert result.returncode == 3
    row, col = index // 5 + 1, index % 5 + 1
    assert f"FAIL key 01/40 CLASSIC-EN (tampered.jpg): key 01/40 CLASSIC-EN: cell row {row}, column {col}: " \
           f"expected red, found blue" in result.stdout
    assert result.stdout.strip().endswith("12 key card(s) checked: 11 passed, 1 failed")


FLAT_DPI = 80        # the lowest round resolution at which each card's QR still reads, with room


@pytest.fixture(scope="module")
def pictures_keys(tmp_path_factory):
    """A pictures kit of 2 keys (5 x 4 grids): its folder, manifest and seed."""
    from kitgen.games.codenames import build, kitfile

    kit = kitfile.load(kitfile.kit_path(None, "pictures"), keys=2)
    folder, _, man = build.build(kit, tmp_path_factory.mktemp("pictures-keys"))
    return folder, man, kit.seed


def _flat_card(folder, key, dpi):
    """Key ``key``'s card (and a margin of paper round it) cut from its page, rendered once at
    ``dpi``; and a function from a PDF box on that page to pixels of the cut."""
    page = render_page(str(folder / key["file"]), key["page"] - 1, dpi)
    height = page.height * 72 / dpi
    x0, y0, x1, y1 = key["card"]
    left, top, right, bottom = (round(v) for v in to_pixels((x0 - 10, y0 - 10, x1 + 10, y1 + 10), height, dpi))

    def at(box):
        box_left, box_top, box_right, box_bottom = to_pixels(box, height, dpi)
        return box_left - left, box_top - top, box_right - left, box_bottom - top
    return page.crop((left, top, right, bottom)), at


@pytest.mark.parametrize("edition, rows, cols", [("words", 5, 5), ("pictures", 4, 5)])
def test_a_repainted_cell_fails_at_every_position(edition, rows, cols, default_kit, pictures_keys):
    """Every cell of a key card, repainted (blue, or red where the key has blue), fails naming
    that cell and no other: none is caught by the luck of a seed. One flat render, copies repainted."""
    from kitgen.games.codenames.render.cell_symbols import TYPE_NAMES

    if edition == "words":
        folder, _, man = default_kit
        seed = SEED
    else:
        folder, man, seed = pictures_keys
    key = man["keys"][0]
    grid = "".join(key["payload"].split(":")[4].split("/"))
    assert len(grid) == len(key["cells"]) == rows * cols
    card, at = _flat_card(folder, key, FLAT_DPI)
    secret = verify.Secret(seed)
    clean = verify.check_image(card, "card", secret)
    assert [(r.payload, r.ok) for r in clean] == [(key["payload"], True)], [r.problems for r in clean]
    label = clean[0].label
    for index, cell in enumerate(key["cells"]):
        found = "R" if grid[index] == "B" else "B"
        painted = card.copy()
        ImageDraw.Draw(painted).rectangle(at(cell), fill=(224, 83, 61) if found == "R" else (36, 88, 184))
        results = verify.check_image(painted, "card", secret)
        row, col = index // cols + 1, index % cols + 1
        assert [r.problems for r in results] == [[f"{label}: cell row {row}, column {col}: "
                                                  f"expected {TYPE_NAMES[grid[index]]}, found {TYPE_NAMES[found]}"]], \
            (index, [r.problems for r in results])


def test_a_wrong_seed_is_rejected(scan):
    result = kitgen("verify", str(scan), "--seed", "not the seed")
    assert result.returncode == 3
    assert "does not match this seed" in result.stdout
    assert "0 passed, 12 failed" in result.stdout


def test_a_payload_alone_structure_then_membership(default_kit):
    _, _, man = default_kit
    text = man["keys"][6]["payload"]
    result = kitgen("verify", text)
    assert result.returncode == 0 and "OK   key 07/40 CLASSIC-EN: well formed" in result.stdout
    assert kitgen("verify", text, "--seed", SEED).returncode == 0
    assert verify.check_payload(text, verify.Secret("other")) != []


def test_a_payload_with_another_keys_grid_fails_even_with_a_valid_look(default_kit):
    _, _, man = default_kit
    a = man["keys"][0]["payload"].split(":")
    b = next(k["payload"].split(":") for k in man["keys"][1:] if k["payload"].split(":")[3] == a[3])
    forged = ":".join(a[:4] + [b[4]] + a[5:])     # key 1's number and check code, another key's grid
    assert verify.check_payload(":".join(a), verify.Secret(SEED)) == []
    problems = verify.check_payload(forged, verify.Secret(SEED))
    assert any("check code" in p for p in problems)


def test_the_manifest_gives_kit_and_deck_size(default_kit, tmp_path):
    folder, _, man = default_kit
    secret = verify.load_manifest(str(folder / "manifest.json"))
    assert (secret.seed, secret.kit, secret.total) == (SEED, "CLASSIC-EN", 40)
    other = dict(man, kit="other-kit")
    path = tmp_path / "manifest.json"
    path.write_text(json.dumps(other))
    problems = verify.check_payload(man["keys"][0]["payload"], verify.load_manifest(str(path)))
    assert any("belongs to kit CLASSIC-EN, not OTHER-KIT" in p for p in problems)


@pytest.mark.parametrize("target, match", [
    ("", "is not a kitgen key payload"),
    ("hello world", "is not a kitgen key payload"),
    ("KG1:" + "X" * 2996, "is not a kitgen key payload"),
    ("missing.png", "file not found"),
])
def test_bad_targets_get_one_line(target, match, tmp_path):
    result = kitgen("verify", target, cwd=tmp_path)
    assert result.returncode == 2
    assert len(result.stderr.strip().splitlines()) == 1 and match in result.stderr
    assert "Traceback" not in result.stderr


def test_random_bytes_named_png(tmp_path):
    (tmp_path / "noise.png").write_bytes(bytes(range(256)) * 40)
    (tmp_path / "noise.pdf").write_bytes(b"%PDF-1.4 nonsense")
    for name, match in (("noise.png", "not a readable PNG or JPEG"), ("noise.pdf", "not a readable PDF")):
        result = kitgen("verify", name, cwd=tmp_path)
        assert result.returncode == 2 and match in result.stderr
        assert len(result.stderr.strip().splitlines()) == 1


def test_an_image_without_a_qr(tmp_path):
    Image.new("RGB", (200, 200), "white").save(tmp_path / "blank.png")
    result = kitgen("verify", "blank.png", cwd=tmp_path)
    assert result.returncode == 2 and "no QR code found" in result.stderr


def test_seed_and_kit_together_are_refused(tmp_path):
    result = kitgen("verify", "x", "--seed", "a", "--kit", "m.json", cwd=tmp_path)
    assert result.returncode == 2 and "not both" in result.stderr


# --- keys behind a web address (--verify-url, a kit file's verify_url; docs/design.md §5.5) ---

URL = "https://example.org/kit/verify.html"


@pytest.fixture(scope="module")
def url_kit(tmp_path_factory):
    out = tmp_path_factory.mktemp("url")
    result = kitgen("build", "--verify-url", URL, "--keys", "12", "--out", str(out))
    assert result.returncode == 0, result.stderr
    folder = out / "classic-en"
    return folder, json.loads((folder / "manifest.json").read_text())


def test_a_verify_url_puts_the_address_before_each_payload_in_the_qr(url_kit):
    import zxingcpp

    folder, manifest = url_kit
    on_page_1 = [e for e in manifest["keys"] if e["page"] == 1]
    assert all(e["qr"] == f"{URL}#{e['payload']}" and e["payload"].startswith("KG1:") for e in manifest["keys"])
    codes = zxingcpp.read_barcodes(render_page(str(folder / "keys.pdf"), 0, 200))
    assert sorted(c.text for c in codes) == sorted(e["qr"] for e in on_page_1) and len(codes) == 12


def test_verify_reads_keys_behind_an_address_from_the_pdf_and_as_text(url_kit):
    folder, manifest = url_kit
    result = kitgen("verify", str(folder / "keys.pdf"), "--kit", str(folder / "manifest.json"))
    assert result.returncode == 0 and result.stdout.strip().endswith("12 key card(s) checked: 12 passed, 0 failed")
    result = kitgen("verify", manifest["keys"][3]["qr"], "--seed", SEED)
    assert result.returncode == 0 and result.stdout.startswith("OK   key 04/12 CLASSIC-EN"), result.stdout
    result = kitgen("verify", manifest["keys"][3]["qr"], "--seed", SEED + "x")
    assert result.returncode == 3


def test_the_default_qr_is_the_bare_payload_and_the_kit_has_its_page(default_kit):
    folder, _, manifest = default_kit
    assert not any("qr" in e for e in manifest["keys"])
    entry = next(e for e in manifest["extra_files"] if e["path"] == "verify.html")
    import hashlib

    assert hashlib.sha256((folder / "verify.html").read_bytes()).hexdigest() == entry["sha256"]


@pytest.mark.parametrize("url", ["ftp://example.org/v.html", "https://example.org/a b", "https://example.org/v#x",
                                 "example.org/verify.html"])
def test_a_bad_verify_url_is_refused_before_anything_is_written(tmp_path, url):
    result = kitgen("build", "--verify-url", url, "--out", "out", cwd=tmp_path)
    assert result.returncode == 2 and not (tmp_path / "out").exists()
    assert result.stderr.startswith("kitgen: error: --verify-url: ") and "http(s) address" in result.stderr
    assert len(result.stderr.strip().splitlines()) == 1


def test_an_address_too_long_for_a_readable_qr_names_the_longest_that_fits(tmp_path):
    """The QR's modules stay at least 0.3 mm: a longer address is refused with the length that fits,
    and an address of exactly that length builds."""
    import re

    long_url = "https://example.org/" + "k" * 60 + "/verify.html"
    result = kitgen("build", "--verify-url", long_url, "--keys", "2", "--out", "out", cwd=tmp_path)
    assert result.returncode == 2 and not (tmp_path / "out").exists(), result.stderr
    fits = int(re.search(r"at most (\d+) characters", result.stderr).group(1))
    assert fits == 42             # as README says, for the built-in kit's 12 mm code
    url = "https://example.org/" + "k" * (fits - len("https://example.org/")) + "x"
    assert kitgen("build", "--verify-url", url[:fits], "--keys", "2", "--out", "out", cwd=tmp_path).returncode == 0
    assert kitgen("build", "--verify-url", url[:fits] + "y", "--keys", "2", "--out", "o2", cwd=tmp_path).returncode == 2


def test_a_kit_files_verify_url_is_checked_with_its_line(tmp_path):
    (tmp_path / "kit.yaml").write_text("id: mine\ndeck: classic-en\nkeys: 2\nverify_url: verify.html\n")
    result = kitgen("build", "kit.yaml", "--out", "out", cwd=tmp_path)
    assert result.returncode == 2 and result.stderr.startswith("kitgen: error: kit.yaml:4: 'verify.html' must be")


def test_kitgen_web_writes_the_kits_page(default_kit, tmp_path):
    result = kitgen("web", "--out", "site", cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    assert (tmp_path / "site" / "verify.html").read_bytes() == (default_kit[0] / "verify.html").read_bytes()


def test_the_deduction_game_has_no_verify_url(tmp_path):
    result = kitgen("build", "--game", "deduction", "--verify-url", URL, "--out", "o", cwd=tmp_path)
    assert result.returncode == 2 and "--verify-url is a Codenames option" in result.stderr


def test_the_page_of_an_ink_saver_or_cmyk_kit_shows_full_colours(default_kit, tmp_path):
    """Ink saver prints light tints; a screen has no ink to save, and white names on tints would not read."""
    result = kitgen("build", "--ink", "saver", "--color", "cmyk", "--keys", "2", "--out", "out", cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    page = (tmp_path / "out" / "classic-en" / "verify.html").read_bytes()
    assert page == (default_kit[0] / "verify.html").read_bytes() and b"--red: #E0533D;" in page
