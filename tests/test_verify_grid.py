"""kitgen verify without the QR code (docs/design.md §5.2, "Without the QR code"): with the kit's
manifest a card whose QR code cannot be read is told by its outline and printed grid among the
deck's keys and checked as its QR code would have been; without a deck it is reported as unread.
On seeded photos of the simulator (photosim.py): hand-held ones whose QR codes zxing cannot read,
and cards whose QR code is painted over."""

import random
import subprocess
import sys

import numpy as np
import pytest
from PIL import Image, ImageDraw

from kitgen.games.codenames import outline, verify
from kitgen.games.codenames.render.cell_symbols import TYPE_NAMES

import photosim
from raster import pages_of, render_page, to_pixels

DPI = 500
REMARK = "its QR code could not be read: told by its printed grid among the kit's 40 keys"


def kitgen(*args):
    return subprocess.run([sys.executable, "-m", "kitgen", *map(str, args)], capture_output=True, text=True)


@pytest.fixture(scope="module")
def kit(default_kit):
    folder, _, manifest = default_kit
    return folder, manifest, pages_of(folder / "keys.pdf", DPI)


def _box(rect, page):
    """A PDF box on ``page`` (rendered at DPI) in its pixels."""
    return to_pixels(rect, page.height * 72 / DPI, DPI)


def _cut_card(page, entry):
    """Key ``entry``'s card cut from its page (rendered at DPI), and the cut's left and top."""
    left, top, right, bottom = (round(v) for v in _box(entry["card"], page))
    return page.crop((left, top, right, bottom)), (left, top)


def _hide_qr(card, layout, pad: float):
    """``card`` (its trim, at DPI) with its QR code and ``pad`` points round it painted white."""
    qx, qy, size, _ = layout.key_card.qr.box
    s, height = DPI / 72, layout.key_card.size[1]
    ImageDraw.Draw(card).rectangle(((qx - pad) * s, (height - qy - size - pad) * s, (qx + size + pad) * s,
                                    (height - qy + pad) * s), fill=(255, 255, 255))
    return card


def _card(kit, entry, repaint=None, hide_qr=False):
    """Key ``entry``'s cut card at DPI; ``repaint``: (cell index, type) painted over; ``hide_qr``:
    its QR code (and quiet zone) painted white."""
    from kitgen import layouts

    _, _, page_of = kit
    page = page_of(entry["page"])
    card, (left, top) = _cut_card(page, entry)
    layout = layouts.load("default")
    if repaint:
        index, kind = repaint
        x0, y0, x1, y1 = _box(entry["cells"][index], page)
        card = photosim.repaint(card, (x0 - left, y0 - top, x1 - left, y1 - top), kind, layout,
                                layout.key_card.grid.symbol)
    return _hide_qr(card, layout, layout.key_card.qr.box[2] * 0.1) if hide_qr else card


def _bench_card(kit, seed):
    """The card and hand-held shot bench/photos.py --handheld draws for ``seed``."""
    _, manifest, _ = kit
    entry = random.Random(seed).choice(manifest["keys"])
    card = _card(kit, entry)
    shot = photosim.draw_shot(seed, card.size, card.size[0], frames=photosim.FRAMES, profile=photosim.HANDHELD)
    return entry, card, shot


def _grid(entry) -> str:
    return "".join(entry["payload"].split(":")[4].split("/"))


# seeds of hand-held photos (cards 336 and 401 px wide, defocus 1.2 and 2.1 px, shaken 3.6 and 3.3 px)
# whose QR codes zxing does not read, by any of find_codes' passes
HARD = (10, 2)


@pytest.mark.parametrize("seed", HARD)
def test_a_hand_held_photo_whose_qr_does_not_read_verifies_by_its_grid(kit, seed, tmp_path):
    folder, _, _ = kit
    entry, card, shot = _bench_card(kit, seed)
    photo = tmp_path / "photo.jpg"
    photo.write_bytes(photosim.take(card, shot))
    assert not verify.scans.find_codes(Image.open(photo))             # the QR code itself does not read
    result = kitgen("verify", photo, "--kit", folder / "manifest.json")
    assert result.returncode == 0, result.stdout + result.stderr
    lines = result.stdout.splitlines()
    assert lines[0] == f"OK   key {entry['number']:02d}/40 CLASSIC-EN (photo.jpg): the key of its kit"
    assert lines[1].startswith(f"     {REMARK}")
    assert lines[-1] == "1 key card(s) checked: 1 passed, 0 failed"


def test_a_qr_sought_where_the_grid_puts_it_confirms_the_key(kit, tmp_path):
    """Seed 12 (a 596 px card, defocus 2.5 px): zxing finds no code, the grid tells the key, and the
    QR code, sampled module by module where the card's grid puts it, then reads and agrees."""
    folder, _, _ = kit
    entry, card, shot = _bench_card(kit, 12)
    photo = tmp_path / "photo.jpg"
    photo.write_bytes(photosim.take(card, shot))
    assert not verify.scans.find_codes(Image.open(photo))
    result = kitgen("verify", photo, "--kit", folder / "manifest.json")
    assert result.returncode == 0, result.stdout
    assert result.stdout.startswith(f"OK   key {entry['number']:02d}/40 CLASSIC-EN (photo.jpg): the key of its kit "
                                    "[its QR code, then sought module by module where its grid puts it, agrees]\n"
                                    f"     {REMARK}")


@pytest.mark.parametrize("seed", HARD)
def test_a_repainted_cell_on_a_hand_held_photo_still_fails(kit, seed, tmp_path):
    folder, _, _ = kit
    entry, card, shot = _bench_card(kit, seed)
    grid = _grid(entry)
    index = 12
    kind = "A" if grid[index] != "A" else "N"
    forged = _card(kit, entry, repaint=(index, kind))
    photo = tmp_path / "forged.jpg"
    photo.write_bytes(photosim.take(forged, shot))
    result = kitgen("verify", photo, "--kit", folder / "manifest.json")
    assert result.returncode == 3, result.stdout + result.stderr
    label = f"key {entry['number']:02d}/40 CLASSIC-EN"
    assert result.stdout.startswith(f"FAIL {label} (forged.jpg): {label}: cell row 3, column 3: expected "
                                    f"{TYPE_NAMES[grid[index]]}, found {TYPE_NAMES[kind]}\n     {REMARK}")


def test_without_the_kit_a_card_whose_qr_does_not_read_is_reported_as_such(kit, tmp_path):
    entry, card, shot = _bench_card(kit, HARD[0])
    photo = tmp_path / "photo.jpg"
    photo.write_bytes(photosim.take(card, shot))
    result = kitgen("verify", photo)
    assert result.returncode == 3
    assert result.stdout == f"FAIL a key card (photo.jpg): a key card: {verify.NO_DECK}\n" \
                            "1 key card(s) checked: 0 passed, 1 failed\n"


def test_with_the_seed_and_the_decks_size_a_card_is_told_by_its_grid(kit, tmp_path):
    """--seed with --keys: the card is told among every edition's deck of that size (the kit id
    unknown, so not named); the words deck's key, not a duet key's side read as words."""
    entry, card, shot = _bench_card(kit, HARD[0])
    photo = tmp_path / "photo.jpg"
    photo.write_bytes(photosim.take(card, shot))
    result = kitgen("verify", photo, "--seed", "kitgen classic-en 2026", "--keys", 40)
    assert result.returncode == 0, result.stdout + result.stderr
    assert result.stdout == (f"OK   key {entry['number']:02d}/40 (photo.jpg): the key of its kit\n"
                             "     its QR code could not be read: told by its printed grid among the 40 words keys of "
                             f"the seed{result.stdout.split('the seed', 1)[1].split(chr(10))[0]}\n"
                             "1 key card(s) checked: 1 passed, 0 failed\n")
    wrong_size = kitgen("verify", photo, "--seed", "kitgen classic-en 2026", "--keys", 41)
    assert wrong_size.returncode == 3 and "a key card: its QR code cannot be read, and its printed grid does not " \
        "tell which of the kit's keys it is" in wrong_size.stdout


def test_keys_without_the_seed_is_one_line(tmp_path):
    result = kitgen("verify", "KG1:X", "--keys", 40)
    assert result.returncode == 2 and result.stderr == "kitgen: error: --keys goes with --seed (the deck's size); " \
        "a kit's manifest (--kit) gives it\n"


SEEDS = (700, 703, 706)         # steady photos (photosim.STEADY), as test_photos' single cards


@pytest.mark.parametrize("seed", SEEDS)
def test_a_key_whose_qr_is_painted_over_still_verifies(kit, seed, tmp_path):
    folder, manifest, _ = kit
    entry = manifest["keys"][seed % 40]
    card = _card(kit, entry, hide_qr=True)
    photo = tmp_path / "hidden.jpg"
    photo.write_bytes(photosim.take(card, photosim.draw_shot(seed, card.size, card.size[0],
                                                             frames=photosim.FRAMES[:3])))
    result = kitgen("verify", photo, "--kit", folder / "manifest.json")
    assert result.returncode == 0, result.stdout + result.stderr
    assert result.stdout.startswith(f"OK   key {entry['number']:02d}/40 CLASSIC-EN (hidden.jpg): the key of its "
                                    f"kit\n     {REMARK}")


def test_a_repainted_cell_of_a_key_whose_qr_is_painted_over_fails(kit, tmp_path):
    folder, manifest, _ = kit
    entry = manifest["keys"][5]
    grid = _grid(entry)
    index = next(i for i, t in enumerate(grid) if t == "N")
    card = _card(kit, entry, repaint=(index, "R"), hide_qr=True)
    photo = tmp_path / "forged.jpg"
    photo.write_bytes(photosim.take(card, photosim.draw_shot(701, card.size, card.size[0],
                                                             frames=photosim.FRAMES[:3])))
    result = kitgen("verify", photo, "--kit", folder / "manifest.json")
    assert result.returncode == 3
    label = f"key {entry['number']:02d}/40 CLASSIC-EN"
    assert f"FAIL {label} (forged.jpg): {label}: cell row {index // 5 + 1}, column {index % 5 + 1}: expected " \
           f"bystander, found red\n" in result.stdout


def test_two_keys_that_differ_in_one_cell_are_told_apart(kit):
    """A deck of two faces that differ in one cell only: a photo of each is told as that one (the
    cell that differs is read clearly), never as the other."""
    _, manifest, _ = kit
    entry = manifest["keys"][3]
    grid = _grid(entry)
    index = next(i for i, t in enumerate(grid) if t == "N")
    twin = grid[:index] + "B" + grid[index + 1:]
    kinds = "RBNA"
    deck = outline.Deck(("KEY", "TWIN"), ("", ""), np.array([[kinds.index(c) for c in g] for g in (grid, twin)]),
                        kinds, 5, 5)
    layouts = [verify._edition_layout(5, False)]
    for seed, (cards, name) in enumerate(((None, "KEY"), ((index, "B"), "TWIN")), 702):
        card = _card(kit, entry, repaint=cards, hide_qr=True)
        shot = photosim.draw_shot(seed, card.size, card.size[0], frames=photosim.FRAMES[:3])
        photo = photosim.photograph(card, shot).convert("RGB")
        found = outline.find(np.asarray(photo), np.asarray(photo.convert("L")), [(deck, layouts)])
        assert [f.payload for f in found] == [name]
        assert found[0].against < 0.5 and found[0].nearest >= found[0].against + outline.SEPARATION
        assert found[0].nearest_cells == 1


def test_a_card_of_another_kit_is_not_told_by_its_grid(kit, tmp_path):
    """The grid of a key from another seed is no key of this deck: no card is named, and the card in
    view fails as one whose QR code cannot be read."""
    folder, manifest, _ = kit
    other = tmp_path / "other"
    assert kitgen("keys", "--count", 12, "--seed", "another seed", "--out", other).returncode == 0
    volume = next(other.iterdir()) / "keys-001.pdf"
    page = render_page(str(volume), 0, DPI)
    entry = manifest["keys"][0]                 # the same place on the sheet
    from kitgen import layouts

    card = _hide_qr(_cut_card(page, entry)[0], layouts.load("default"), 4)
    photo = tmp_path / "foreign.jpg"
    photo.write_bytes(photosim.take(card, photosim.draw_shot(704, card.size, card.size[0],
                                                             frames=photosim.FRAMES[:3])))
    result = kitgen("verify", photo, "--kit", folder / "manifest.json")
    assert result.returncode == 3, result.stdout + result.stderr
    assert result.stdout == f"FAIL a key card (foreign.jpg): a key card: {verify.NOT_TOLD}\n" \
                            "1 key card(s) checked: 0 passed, 1 failed\n"


def _qr_photo(module: float, blur: float = 0.0, ink: int = 20, paper: int = 235):
    """A grey photo of a key card's QR alone, drawn ``module`` pixels a module (then blurred by a
    Gaussian of ``blur`` modules), and the map from the card (points, y down) to it."""
    import cv2

    from kitgen import layouts
    from kitgen.games.codenames import photos
    from kitgen.render import qr

    layout = layouts.load("default")
    text = "KG1:CLASSIC-EN:1/40:B:NRBBN/NNRBN/RBRBN/BRANR/BRRBB:6SCNYE"
    matrix = np.array(qr.matrix(text))
    (x0, y0), *_ = photos.qr_on_card(layout)
    size = layout.key_card.qr.box[2]
    scale = module * len(matrix) / size                      # pixels a point
    cells = np.kron(np.where(matrix, ink, paper), np.ones((8, 8))).astype(np.float32)
    side = round(len(matrix) * module)
    drawn = cv2.resize(cells, (side, side), interpolation=cv2.INTER_AREA)
    margin = round(6 * module) + 4
    grey = np.full((side + 2 * margin, side + 2 * margin), paper, np.float32)
    grey[margin:margin + side, margin:margin + side] = drawn
    if blur:
        grey = cv2.GaussianBlur(grey, (0, 0), blur * module)
    to_photo = np.array([[scale, 0, margin - x0 * scale], [0, scale, margin - y0 * scale], [0, 0, 1]])
    return grey.clip(0, 255).astype(np.uint8), to_photo, layout, len(matrix)


@pytest.mark.parametrize("module, blur, ink, paper, why", [
    (1.5, 0.0, 20, 235, "too small"),
    (6.0, 2.0, 20, 235, "blurred"),
    (6.0, 0.0, 90, 130, "too dark or washed out"),
    (6.0, 0.0, 20, 235, "unclear"),
])
def test_an_unread_qr_says_why(module, blur, ink, paper, why):
    from kitgen.games.codenames import photos

    grey, matrix, layout, modules = _qr_photo(module, blur, ink, paper)
    reason, advice = photos.why_unread(grey, matrix, layout, modules)
    assert reason.startswith(why) and advice, reason


@pytest.fixture(scope="module")
def pictures_kit(tmp_path_factory):
    """A pictures kit of 6 keys (5 x 4 grids, lights on two edges only): its folder and manifest."""
    from kitgen.games.codenames import build, kitfile

    kit = kitfile.load(kitfile.kit_path(None, "pictures"), keys=6)
    folder, _, man = build.build(kit, tmp_path_factory.mktemp("pictures-grid"))
    return folder, man


def test_a_pictures_key_whose_qr_is_painted_over_still_verifies(pictures_kit, tmp_path):
    """Its outline is its trim on the paper sides and its lights' inner edge above and below."""
    from kitgen import layouts

    folder, manifest = pictures_kit
    entry = manifest["keys"][4]
    page = render_page(str(folder / "keys.pdf"), entry["page"] - 1, DPI)
    card = _hide_qr(_cut_card(page, entry)[0], layouts.load("pictures"), 4)
    photo = tmp_path / "hidden.jpg"
    photo.write_bytes(photosim.take(card, photosim.draw_shot(705, card.size, card.size[0],
                                                             frames=photosim.FRAMES[:3])))
    result = kitgen("verify", photo, "--kit", folder / "manifest.json")
    assert result.returncode == 0, result.stdout + result.stderr
    assert result.stdout.startswith(f"OK   key {entry['number']}/6 CLASSIC-PICTURES (hidden.jpg): the key of its "
                                    "kit\n     its QR code could not be read: told by its printed grid among the kit's "
                                    "6 keys")



# hand-held seeds of bench/photos.py on the built-in pictures and ink-saver kits whose QR codes do not read and
# whose cards each of the outline's ways finds (a pictures card on a pale table whose paper edges do not show:
# by its grid's edge, at the smaller working size; a pale ink-saver card on a table of its grey: by its tint;
# a grid inside an outline whose reading missed a cell; blurred black symbols told from the teams' inks)
OUTLINE_SEEDS = [("pictures", 90), ("pictures", 21), ("saver", 2), ("pictures", 66), ("saver", 106), ("saver", 21)]


@pytest.fixture(scope="module")
def edition_kits(tmp_path_factory):
    """The built-in pictures kit and the English kit in ink saver, built as bench/photos.py builds
    them: {name: (folder, manifest, pages at DPI, layout)}."""
    import json

    from kitgen import layouts
    from kitgen.games.codenames.model import layout_overlays

    kits = {}
    for name, options in (("pictures", ["--edition", "pictures"]), ("saver", ["--ink", "saver"])):
        out = tmp_path_factory.mktemp(name)
        assert kitgen("build", "--out", out, *options).returncode == 0
        folder = next(out.iterdir())
        manifest = json.loads((folder / "manifest.json").read_text())
        secret = verify.load_manifest(str(folder / "manifest.json"))
        kits[name] = (folder, manifest, pages_of(folder / "keys.pdf", DPI),
                      layouts.load(secret.layout, layout_overlays(secret.ink, secret.colour)))
    return kits


@pytest.mark.parametrize("name, seed", OUTLINE_SEEDS)
def test_a_hand_held_card_is_found_by_each_outline_it_shows(edition_kits, name, seed, tmp_path):
    """Each verifies by its grid; the same shot with one cell repainted fails, on that cell where it
    is told."""
    folder, manifest, pages, layout = edition_kits[name]
    entry = random.Random(seed).choice(manifest["keys"])
    page = pages(entry["page"])
    card, (left, top) = _cut_card(page, entry)
    shot = photosim.draw_shot(seed, card.size, card.size[0], frames=photosim.FRAMES, profile=photosim.HANDHELD)
    photo = tmp_path / "photo.jpg"
    photo.write_bytes(photosim.take(card, shot))
    assert not verify.scans.find_codes(Image.open(photo))
    result = kitgen("verify", photo, "--kit", folder / "manifest.json")
    assert result.returncode == 0, result.stdout + result.stderr
    assert "its QR code could not be read: told by its printed grid" in result.stdout
    grid = _grid(entry)
    index = len(grid) // 2
    other = "N" if grid[index] != "N" else "R"
    x0, y0, x1, y1 = _box(entry["cells"][index], page)
    forged = photosim.repaint(card, (x0 - left, y0 - top, x1 - left, y1 - top), other, layout,
                              layout.key_card.grid.symbol)
    photo.write_bytes(photosim.take(forged, shot))
    result = kitgen("verify", photo, "--kit", folder / "manifest.json")
    assert result.returncode in (2, 3) and "OK" not in result.stdout, result.stdout
    if result.returncode == 2:          # its grid, one cell off, told no key: no card found
        assert "no QR code found" in result.stderr
        return
    cols = len(entry["payload"].split(":")[4].split("/")[0])
    assert f"cell row {index // cols + 1}, column {index % cols + 1}: expected {TYPE_NAMES[grid[index]]}, found " \
           f"{TYPE_NAMES[other]}" in result.stdout

def test_a_tint_whose_grey_is_the_tables_has_an_outline():
    """A pale pink card on a beige table of the same grey: Canny on the grey finds no edge round it,
    on the photo's colours (outline._chroma) it does, at its corners."""
    import cv2

    table, pink = (205, 196, 170), (226, 182, 186)
    luma = lambda c: 0.299 * c[0] + 0.587 * c[1] + 0.114 * c[2]      # noqa: E731
    assert abs(luma(table) - luma(pink)) < 3
    photo = np.full((600, 800, 3), table, np.uint8)
    corners = np.array([(250, 120), (560, 170), (520, 470), (210, 420)], np.int32)
    cv2.fillConvexPoly(photo, corners, pink)
    photo = cv2.GaussianBlur(photo, (0, 0), 2.0)
    grey = cv2.cvtColor(photo, cv2.COLOR_RGB2GRAY)
    assert not outline.outlines(grey)
    found = outline.outlines(grey, photo)
    assert found
    quad = outline._aligned(found[0], corners.astype(float))
    assert np.abs(quad - corners).max() < 4


def test_a_blurred_black_symbol_is_told_from_a_teams_ink():
    """Ink saver: a thin black dash blurred into its cream fill is grey. As a mix of a type's fill
    and ink (cards.CardReader._off_ink) it is a bystander's, though its colour alone lies nearer the
    red ink than the black; a red dot blurred into its pink fill is still red's."""
    from kitgen import layouts
    from kitgen.games.codenames.cards import CardReader

    layout = layouts.load("default", ("ink-saver",))
    reader = CardReader(Image.new("RGB", (180, 250), "white"), 1.0, layout, 5, 5)
    fill, ink = (np.array(c) for c in reader.references["N"])
    dash = tuple(0.5 * fill + 0.5 * ink)                  # half ink, half fill
    red = np.array(reader.references["R"][1])
    assert ((np.array(dash) - red) ** 2).sum() < ((np.array(dash) - ink) ** 2).sum()     # by colour alone: red
    assert reader._off_ink(dash, "N") < reader._off_ink(dash, "R") / 10
    pink, dot = (np.array(c) for c in reader.references["R"])
    soft_dot = tuple(0.6 * pink + 0.4 * dot)
    assert reader._off_ink(soft_dot, "R") < reader._off_ink(soft_dot, "N") / 5


def test_a_repainted_cell_that_only_a_rough_map_reads_right_still_fails(default_kit):
    """bench/photos.py's hand-held shot 29 of the kit printed in grey, its repainted cell: the outline's
    own map reads every cell as the key's (the repainted one too), the refined map, as near as a
    fraction of a cell, reads the repainted one: the card fails (verify.PULLED_OFF) -- and the same
    shot unrepainted verifies."""
    from pathlib import Path

    sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "bench"))
    import photos as bench

    folder, _, _ = default_kit
    bench._setup(str(folder), True, True)
    kind, seed, levels, genuine, forged, problems, *_ = bench._one(("card", 29))
    assert genuine, problems
    assert not forged
