"""kitgen verify on the PDFs kitgen drew, read flat (docs/design.md §5.3): a kit's folder at its
manifest's places, a PDF by its QR codes, in parallel; repainted cells, keys out of place, turned
fold backs, and the same report from the photo reader and from any number of workers."""

import hashlib
import json
import shutil
import subprocess
import sys

import pikepdf
import pytest

from kitgen.games.codenames import flat, verify

SEED = "kitgen classic-en 2026"


def kitgen(*args, cwd=None):
    return subprocess.run([sys.executable, "-m", "kitgen", *map(str, args)], cwd=cwd, capture_output=True, text=True)


@pytest.fixture(scope="module")
def duet_fold(tmp_path_factory):
    """14 duet keys on fold sheets (side B's turned half a turn beside side A's): the kit's folder."""
    out = tmp_path_factory.mktemp("duet-fold")
    result = kitgen("keys", "--count", 14, "--edition", "duet", "--duplex", "fold", "--jobs", "1", "--out", out)
    assert result.returncode == 0, result.stderr
    return next(out.iterdir())


@pytest.fixture(scope="module")
def volumes(tmp_path_factory):
    """75 key cards in 4 volumes of 4 pages, 2 sheets (12 keys a sheet, fronts and backs; the last holds 3):
    the kit's folder."""
    out = tmp_path_factory.mktemp("volumes")
    result = kitgen("keys", "--count", 75, "--volume-pages", 4, "--jobs", "1", "--out", out)
    assert result.returncode == 0, result.stderr
    return next(out.iterdir())


def _repainted(source, target, box, rgb):
    """``source`` with the PDF box (x0, y0, x1, y1, points) painted ``rgb`` on page 1, over everything."""
    with pikepdf.open(source) as pdf:
        page = pdf.pages[0]
        x0, y0, x1, y1 = box
        paint = " ".join(f"{c / 255:.3f}" for c in rgb)
        page.contents_add(pdf.make_stream(f"q {paint} rg {x0} {y0} {x1 - x0} {y1 - y0} re f Q".encode()))
        pdf.save(target)


def _manifest_for(folder, target_folder, changed: dict[str, bytes] | None = None, edit=None):
    """A copy of a kit's folder whose manifest lists the SHA-256 of the files in ``changed`` (name: bytes)."""
    shutil.copytree(folder, target_folder)
    data = json.loads((folder / "manifest.json").read_text())
    for name, content in (changed or {}).items():
        (target_folder / name).write_bytes(content)
        next(f for f in data["files"] if f["path"] == name)["sha256"] = hashlib.sha256(content).hexdigest()
    if edit:
        edit(data)
    (target_folder / "manifest.json").write_text(json.dumps(data))
    return target_folder


def test_a_kits_folder_verifies_every_key_in_every_volume(volumes):
    result = kitgen("verify", volumes)
    assert result.returncode == 0, result.stdout + result.stderr
    lines = result.stdout.strip().splitlines()
    assert lines[-1] == "75 key card(s) checked: 75 passed, 0 failed"
    assert lines[0] == "OK   key 01/75 CLASSIC-EN (keys-001.pdf page 1): the key of its kit"
    assert lines[-2] == "OK   key 75/75 CLASSIC-EN (keys-004.pdf page 1): the key of its kit"
    numbers = [int(line.split()[2].split("/")[0]) for line in lines[:-1]]
    assert numbers == list(range(1, 76))


def test_workers_give_the_same_report_as_one(volumes):
    one, two = kitgen("verify", volumes, "--jobs", 1), kitgen("verify", volumes, "--jobs", 2)
    assert one.returncode == two.returncode == 0
    assert one.stdout == two.stdout


def test_progress_hears_each_page_read(volumes):
    class Heard:
        def __init__(self):
            self.pages, self.started, self.finished = 0, [], 0

        def start(self, pages, label):
            self.started.append((pages, label))

        def page(self):
            self.pages += 1

        def finish(self):
            self.finished += 1

    heard = Heard()
    results = verify.verify(str(volumes), None, 200, 2, heard)
    assert len(results) == 75 and all(r.ok for r in results)
    # the pages with keys, volume by volume: fronts only (2, 2, 2, 1 of 4, 4, 4, 2)
    assert heard.started == [(2, "reading pages")] * 3 + [(1, "reading pages")]
    assert heard.pages == 7 and heard.finished == 4


def test_fold_sheets_turned_backs_are_read_as_side_b(duet_fold):
    result = kitgen("verify", duet_fold)
    assert result.returncode == 0, result.stdout + result.stderr
    lines = result.stdout.strip().splitlines()
    assert lines[-1] == "28 key card(s) checked: 28 passed, 0 failed"
    assert lines.count("     side B, as its player sees it") == 14
    assert lines.count("     side A, as its player sees it") == 14


def test_a_repainted_cell_fails_at_the_manifests_place_and_by_its_qr(default_kit, tmp_path):
    """A cell painted over in the PDF: found at the manifest's place (the manifest lists the
    changed file) and, without the manifest, where the QR code says the card lies."""
    folder, _, man = default_kit
    key = man["keys"][0]
    grid = "".join(key["payload"].split(":")[4].split("/"))
    index = next(i for i, t in enumerate(grid) if t == "R")
    tampered = tmp_path / "keys.pdf"
    _repainted(folder / "keys.pdf", tampered, key["cells"][index], (36, 88, 184))
    row, col = index // 5 + 1, index % 5 + 1
    problem = f"key 01/40 CLASSIC-EN: cell row {row}, column {col}: expected red, found blue"
    by_qr = kitgen("verify", tampered, "--seed", SEED)
    assert by_qr.returncode == 3
    assert f"FAIL key 01/40 CLASSIC-EN (page 1): {problem}\n" in by_qr.stdout
    assert by_qr.stdout.strip().endswith("40 key card(s) checked: 39 passed, 1 failed")
    kit = _manifest_for(folder, tmp_path / "kit", {"keys.pdf": tampered.read_bytes()})
    at_place = kitgen("verify", kit)
    assert at_place.returncode == 3
    assert f"FAIL key 01/40 CLASSIC-EN (keys.pdf page 1): {problem}\n" in at_place.stdout
    assert at_place.stdout.strip().endswith("40 key card(s) checked: 39 passed, 1 failed")


def test_a_qr_painted_over_fails_at_its_place(default_kit, tmp_path):
    folder, _, man = default_kit
    key = man["keys"][1]
    x0, y0, x1, y1 = key["card"]
    tampered = tmp_path / "keys.pdf"
    _repainted(folder / "keys.pdf", tampered, (x0 + 100, y0 + 5, x1 - 5, y0 + 60), (255, 255, 255))
    kit = _manifest_for(folder, tmp_path / "kit", {"keys.pdf": tampered.read_bytes()})
    result = kitgen("verify", kit)
    assert result.returncode == 3
    assert "FAIL key 02/40 CLASSIC-EN (keys.pdf page 1): key 02/40 CLASSIC-EN: no QR code reads where the " \
           "manifest puts the card\n" in result.stdout


def test_a_key_where_the_manifest_puts_another_fails(default_kit, tmp_path):
    folder, _, _ = default_kit

    def swap(data):
        first, second = data["keys"][0], data["keys"][1]
        first["card"], second["card"] = second["card"], first["card"]
    kit = _manifest_for(folder, tmp_path / "kit", edit=swap)
    result = kitgen("verify", kit)
    assert result.returncode == 3
    assert "FAIL key 02/40 CLASSIC-EN (keys.pdf page 1): key 02/40 CLASSIC-EN is printed where the manifest puts " \
           "key 01/40 CLASSIC-EN\n" in result.stdout
    assert result.stdout.strip().endswith("40 key card(s) checked: 38 passed, 2 failed")


def test_a_pdf_not_the_manifests_own_is_read_by_its_qr_codes(default_kit, tmp_path):
    """A keys.pdf whose bytes differ from the manifest's (saved again by another tool) is not read
    at the manifest's places, which may have moved, but where its QR codes are."""
    folder, _, _ = default_kit
    resaved = tmp_path / "keys.pdf"
    with pikepdf.open(folder / "keys.pdf") as pdf:
        pdf.save(resaved, compress_streams=False)
    secret = verify.load_manifest(str(folder / "manifest.json"))
    assert flat.spots_by_page(secret, "keys.pdf")                          # the manifest's own file has places
    results = verify.verify(str(resaved), secret)
    assert len(results) == 40 and all(r.ok for r in results), [r.problems for r in results if not r.ok]


def test_the_flat_reading_agrees_with_the_photo_reading(default_kit):
    """Each card of a page, read flat and read as a photo of the page is: the same payloads, the
    same cells (a repainted one fails the same way in both, above and in test_verify)."""
    import numpy as np
    from PIL import Image

    from raster import render_page

    folder, _, _ = default_kit
    page = render_page(str(folder / "keys.pdf"), 0, 200).convert("RGB")
    secret = verify.Secret(SEED)
    as_photo = verify.check_image(page, "page 1", secret)
    as_flat = flat.check_found(np.asarray(page), 200 / 72, secret, None, "page 1")
    assert as_flat is not None and len(as_flat) == len(as_photo) == 12
    assert sorted((r.payload, r.ok, tuple(r.problems)) for r in as_flat) == \
        sorted((r.payload, r.ok, tuple(r.problems)) for r in as_photo)
    assert isinstance(Image.fromarray(np.asarray(page)), Image.Image)


@pytest.mark.parametrize("make, match", [
    (lambda p: p.mkdir(), "is a folder without a manifest.json; give a built kit's folder"),
    (lambda p: (p.mkdir(), (p / "manifest.json").write_text("{}")), "is not a kitgen manifest.json"),
])
def test_bad_folders_get_one_line(tmp_path, make, match):
    target = tmp_path / "kit"
    make(target)
    result = kitgen("verify", target)
    assert result.returncode == 2 and result.stderr.count("\n") == 1 and match in result.stderr, result.stderr


def test_a_volume_missing_from_the_folder_is_one_line(volumes, tmp_path):
    kit = tmp_path / "kit"
    shutil.copytree(volumes, kit)
    (kit / "keys-003.pdf").unlink()
    result = kitgen("verify", kit)
    assert result.returncode == 2 and result.stdout == ""
    assert result.stderr == f"kitgen: error: {kit}: keys-003.pdf, which its manifest lists, is not in the folder; " \
                            "build the kit again\n"


def test_a_folder_read_under_the_flat_resolution_is_refused(volumes):
    result = kitgen("verify", volumes, "--dpi", flat.FLAT_DPI - 1)
    assert result.returncode == 2 and f"is read at --dpi {flat.FLAT_DPI} or more" in result.stderr


def test_a_folder_without_keys_is_one_line(tmp_path):
    kit = tmp_path / "kit"
    kit.mkdir()
    (kit / "manifest.json").write_text(json.dumps({"seed": "s", "kit": "k", "keys": [], "files": []}))
    result = kitgen("verify", kit)
    assert result.returncode == 2 and "its manifest lists no key cards" in result.stderr
