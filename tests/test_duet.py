"""The duet edition as a kit (docs/design.md §12): every part built, side B printed behind
side A on long-edge, short-edge, fold and per-card outputs (pixel tests on the sheets), both
sides verified from the PDF and from a scan, the tiles and timer tokens counted, and a printed
side that differs from its QR caught."""

import json
import re
import subprocess
import sys
from collections import Counter

import pypdfium2 as pdfium
import pytest

from kitgen.games.codenames import duet_keys, key_payload, layout as layout_mod

from raster import classify, render_page, to_pixels

SEED = "kitgen classic-duet 2026"
DPI = 60


def kitgen(*args, cwd):
    return subprocess.run([sys.executable, "-m", "kitgen", *args], cwd=cwd, capture_output=True, text=True)


@pytest.fixture(scope="module")
def duet_kits(tmp_path_factory):
    """A duet kit of 5 keys for each duplex mode (and per-card faces for the long one)."""
    root = tmp_path_factory.mktemp("duet")
    kits = {}
    for duplex in ("long", "short", "fold"):
        extra = ["--per-card"] if duplex == "long" else []
        done = kitgen("build", "--edition", "duet", "--keys", "5", "--duplex", duplex, *extra, "--out", duplex,
                      cwd=root)
        assert done.returncode == 0, done.stderr
        kits[duplex] = root / duplex / "classic-duet"
    return kits


def manifest(folder):
    return json.loads((folder / "manifest.json").read_text())


def test_a_duet_kit_has_every_part_and_its_keys_are_the_seeds(duet_kits):
    folder = duet_kits["long"]
    data = manifest(folder)
    assert data["edition"] == "duet" and data["key_algorithm"] == duet_keys.ALGORITHM_VERSION
    assert {"codenames.pdf", "keys.pdf", "tiles.pdf", "tokens.pdf", "rules.pdf", "kit.pdf", "verify.html"} <= {
        p.name for p in folder.iterdir()}
    deck = duet_keys.generate(SEED, 5)
    for entry, key in zip(data["keys"], deck):
        parsed = key_payload.decode(entry["payload"])
        assert isinstance(parsed, key_payload.DuetPayload)
        assert (parsed.number, parsed.side_a, parsed.side_b) == (key.number, key.side_a, key.side_b)
        assert entry["page"] % 2 == 1 and entry["side_b"]["page"] == entry["page"] + 1


def test_the_tiles_and_timer_tokens_are_the_editions_count(duet_kits):
    folder = duet_kits["long"]

    def words(pdf, page):
        text = pdfium.PdfDocument(str(folder / pdf))[page].get_textpage().get_text_range()
        return Counter(re.findall(r"AGENT|ASSASSIN|BYSTANDER|Guessed by [AB]|EXTRA TURN|TURN", text))

    front, back = words("tiles.pdf", 0), words("tiles.pdf", 1)
    assert (front["AGENT"], front["ASSASSIN"], front["BYSTANDER"]) == (15, 1, 7)
    assert (back["AGENT"], back["ASSASSIN"], back["BYSTANDER"]) == (15, 1, 7)
    # each bystander tile's faces say whose guess found it: A's on one side, B's on the other
    assert (front["Guessed by A"], front["Guessed by B"], back["Guessed by B"], back["Guessed by A"]) == (7, 0, 7, 0)
    tokens = words("tokens.pdf", 0)
    assert (tokens["TURN"], tokens["EXTRA TURN"]) == (9, 2)


def _flip(mode: str, page_size, front, back):
    """The map from a back face's page to the front's page that turning the sheet over makes:
    about its long edge, its short edge, or, on a fold sheet, the fold line between the faces."""
    width, height = page_size
    if mode == "long":
        return lambda x, y: (width - x, y)
    if mode == "short":
        return lambda x, y: (x, height - y)
    if abs(front[1] - back[1]) < 0.01:                     # side by side: a fold down the page
        axis = (front[0] + back[2]) / 2
        return lambda x, y: (2 * axis - x, y)
    axis = (front[1] + back[3]) / 2
    return lambda x, y: (x, 2 * axis - y)


@pytest.mark.parametrize("mode", ["long", "short", "fold"])
def test_side_b_is_printed_behind_side_a_upright_for_its_player(duet_kits, mode):
    """Turning the sheet over puts each key's back exactly behind its front with the same top
    edge: side B's cell in row r, column c (as B sees it) lies behind side A's cell in row r,
    column 4 - c. And the back page shows side B as B's player sees it there, in pixels."""
    folder = duet_kits[mode]
    pdf = str(folder / "keys.pdf")
    page_size = pdfium.PdfDocument(pdf)[0].get_size()
    deck = duet_keys.generate(SEED, 5)
    rasters = {}
    for entry, key in zip(manifest(folder)["keys"], deck):
        back_face = entry["side_b"]
        flip = _flip(mode, page_size, entry["card"], back_face["card"])

        def behind(rect, front_rect, flip=flip) -> bool:
            (x0, y0), (x1, y1) = flip(rect[0], rect[1]), flip(rect[2], rect[3])
            mapped = (min(x0, x1), min(y0, y1), max(x0, x1), max(y0, y1))
            return all(abs(a - b) < 0.05 for a, b in zip(mapped, front_rect))

        assert behind(back_face["card"], entry["card"])
        for i, rect in enumerate(back_face["cells"]):
            r, c = divmod(i, 5)
            assert behind(rect, entry["cells"][r * 5 + 4 - c]), (mode, entry["number"], i)
        page = back_face["page"] - 1
        rasters.setdefault(page, render_page(pdf, page, DPI))
        seen = ""
        for x0, y0, x1, y1 in back_face["cells"]:
            left, top, right, bottom = to_pixels((x0, y0, x1, y1), page_size[1], DPI)
            x = left + 0.12 * (right - left) if right > left else left       # the fill, beside the symbol
            seen += classify(rasters[page].getpixel((int(x + 1), int((top + bottom) / 2))))
        assert seen == "".join(key.side_b_as_seen), (mode, entry["number"])


@pytest.mark.parametrize("mode", ["long", "short", "fold"])
def test_both_sides_verify_from_the_pdf(duet_kits, mode):
    folder = duet_kits[mode]
    done = kitgen("verify", str(folder / "keys.pdf"), "--kit", str(folder / "manifest.json"), cwd=folder)
    assert done.returncode == 0, done.stdout + done.stderr
    lines = done.stdout.splitlines()
    assert lines[-1] == "10 key card(s) checked: 10 passed, 0 failed"
    for number in range(1, 6):
        sides = [lines[i + 1].strip() for i, line in enumerate(lines) if line.startswith(f"OK   key {number}/5 ")]
        assert sorted(sides) == ["side A, as its player sees it", "side B, as its player sees it"], lines


@pytest.mark.parametrize("options", [("--ink", "saver"), ("--color", "cmyk"),
                                     ("--paper", "letter", "--duplex", "none")])
def test_both_sides_verify_in_every_print_option(tmp_path, options):
    done = kitgen("build", "--edition", "duet", "--keys", "3", *options, "--out", "o", cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    folder = tmp_path / "o" / "classic-duet"
    done = kitgen("verify", "keys.pdf", "--kit", "manifest.json", cwd=folder)
    assert done.returncode == 0 and done.stdout.count("side B, as its player sees it") == 3, done.stdout


def test_per_card_faces_put_side_b_on_the_page_after_side_a(duet_kits):
    folder = duet_kits["long"]
    done = kitgen("verify", str(folder / "keys-cards.pdf"), "--seed", SEED, cwd=folder)
    assert done.returncode == 0, done.stdout + done.stderr
    said = [line for line in done.stdout.splitlines() if line.startswith("OK") or "as its player" in line]
    for n in range(5):
        assert said[4 * n].startswith(f"OK   key {n + 1}/5 CLASSIC-DUET (page {2 * n + 1})"), said
        assert said[4 * n + 1].strip() == "side A, as its player sees it"
        assert said[4 * n + 2].startswith(f"OK   key {n + 1}/5 CLASSIC-DUET (page {2 * n + 2})"), said
        assert said[4 * n + 3].strip() == "side B, as its player sees it"


def test_both_sides_verify_from_a_scan(duet_kits, tmp_path):
    """A scan of each sheet: 150 dpi, turned a little, saved as JPEG."""
    pdf = str(duet_kits["long"] / "keys.pdf")
    for page in (0, 1):
        scan = render_page(pdf, page, 150).rotate(2.5, expand=True, fillcolor="white")
        path = tmp_path / f"scan-{page}.jpg"
        scan.save(path, quality=85)
        done = kitgen("verify", str(path), "--seed", SEED, cwd=tmp_path)
        assert done.returncode == 0, done.stdout + done.stderr
        side = "side A" if page == 0 else "side B"
        assert done.stdout.count(f"{side}, as its player sees it") == 5, done.stdout


def test_a_printed_side_that_differs_from_its_qr_is_caught(tmp_path):
    """Side B of key 1 drawn from another key's cells, its QR unchanged: verify names the cells."""
    from kitgen.games.codenames import build, kitfile
    from kitgen.games.codenames.duet_keys import DuetKey
    from kitgen.render.document import card_part, render

    kit = kitfile.load(kitfile.kit_path(None, "duet"), keys=2)
    prepared = build.prepare(kit)
    keys = prepared.contents.key_cards
    wrong = (DuetKey(1, 2, keys[0].side_a, keys[1].side_b), keys[1])
    sets = build.draw_sets(kit, prepared.layout, prepared.fonts, prepared.messages,
                           prepared.contents.__class__(prepared.contents.codename_cards, wrong,
                                                       prepared.contents.tiles), prepared.qr_texts)
    part = card_part(sets["keys"], prepared.layout, prepared.page_size, "long")
    data, _ = render([part], prepared.page_size, prepared.layout, prepared.fonts, "long", "keys", kit.id)
    (tmp_path / "keys.pdf").write_bytes(data)
    done = kitgen("verify", "keys.pdf", "--seed", SEED, cwd=tmp_path)
    assert done.returncode == 3
    failed = [line for line in done.stdout.splitlines() if line.startswith("FAIL")]
    assert len(failed) == 1 and failed[0].startswith("FAIL key 1/2 CLASSIC-DUET (page 2)")
    expected = duet_keys.half_turn(keys[0].side_b)
    printed = duet_keys.half_turn(keys[1].side_b)
    wrong_cells = [(r, c) for r in range(5) for c in range(5) if expected[r][c] != printed[r][c]]
    r, c = wrong_cells[0]
    assert f"side B: cell row {r + 1}, column {c + 1}: expected" in failed[0]


def test_duet_colours_stay_apart_in_black_and_white():
    """Green, the bystanders' tan and the assassin's black differ by more than 20 L* (design §6.5)."""
    layout = layout_mod.load("duet")

    def lightness(name):
        r, g, b = (int(layout.colours[name].rgb[i:i + 2], 16) / 255 for i in (1, 3, 5))
        linear = [c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4 for c in (r, g, b)]
        y = 0.2126 * linear[0] + 0.7152 * linear[1] + 0.0722 * linear[2]
        return 116 * y ** (1 / 3) - 16

    values = sorted(lightness(n) for n in ("green", "bystander", "assassin"))
    assert min(b - a for a, b in zip(values, values[1:])) > 20, values


def test_the_duet_rules_have_no_switches(tmp_path):
    kit = tmp_path / "duet.yaml"
    kit.write_text("id: mine\nedition: duet\ndeck: classic-en\nlayout: duet\nrules:\n  zero_clue: false\n")
    done = kitgen("build", str(kit), "--out", "o", cwd=tmp_path)
    assert done.returncode == 2
    assert done.stderr.strip() == (f"kitgen: error: {kit}:5: the duet edition's rules have no switches; "
                                   "remove rules")
    assert not (tmp_path / "o").exists()



def test_a_deck_of_a_thousand_duet_keys_alone_every_key_the_seeds_and_right(tmp_path):
    """kitgen keys --edition duet: every key's payload in the manifest is the seed's key, meets the
    overlap table (decode checks it) and has its side B face; a volume verifies."""
    done = kitgen("keys", "--edition", "duet", "--count", "1000", "--out", "o", cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    folder = tmp_path / "o" / "classic-duet-keys-1000"
    entries = manifest(folder)["keys"]
    deck = duet_keys.generate(SEED, 1000)
    assert len(entries) == 1000
    for entry, key in zip(entries, deck):
        parsed = key_payload.decode(entry["payload"])
        assert (parsed.side_a, parsed.side_b) == (key.side_a, key.side_b)
        assert Counter(a + b for a, b in zip("".join(parsed.side_a), "".join(parsed.side_b))) == Counter(
            {f"{a}{b}": n for (a, b), n in duet_keys.OVERLAP.items()})
        assert entry["side_b"]["page"] == entry["page"] + 1
    small = kitgen("keys", "--edition", "duet", "--count", "30", "--volume-pages", "4", "--out", "v", cwd=tmp_path)
    assert small.returncode == 0, small.stderr
    volume = tmp_path / "v" / "classic-duet-keys-30"
    done = kitgen("verify", "keys-002.pdf", "--kit", "manifest.json", cwd=volume)
    assert done.returncode == 0 and done.stdout.splitlines()[-1] == "12 key card(s) checked: 12 passed, 0 failed"


def test_the_proof_of_a_duet_kit_checks_its_deck_and_shows_both_faces_of_every_key(tmp_path):
    done = kitgen("proof", "--edition", "duet", "--keys", "6", "--out", "p", cwd=tmp_path)
    assert done.returncode == 0, done.stdout + done.stderr
    assert ("PASS each side 9 green / 3 assassins / 13 bystanders, sides overlapping as the edition's table, "
            "15 green agents in all, on all 6 keys") in done.stdout
    assert "PASS no key equals another, turned or with its sides swapped" in done.stdout
    assert "PASS assassins at most 1 (side A) and 1 (side B) time(s) on one cell (cap ceil(3N/25) = 1)" in done.stdout
    document = pdfium.PdfDocument(str(tmp_path / "p" / "classic-duet-proof.pdf"))
    text = "".join(page.get_textpage().get_text_range() for page in document)
    assert "assassin, side A: 0\u20131 per cell" in text and "green agent, side B" in text
    assert all(f"K{n}a" in text and f"K{n}b" in text for n in range(1, 7)) and "K back" not in text
    assert "S11b" in text                               # the timer tokens' faces too


def test_print_on_demand_images_put_side_b_on_the_back_and_boxes_hold_the_timer_tokens(tmp_path):
    (tmp_path / "words.txt").write_text("\n".join(f"Word{chr(65 + i)}" for i in range(26)))   # 13 cards: quick
    done = kitgen("build", "--edition", "duet", "--deck", "words.txt", "--keys", "2", "--pod", "tgc", "--box",
                  "--out", "o", cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    folder = tmp_path / "o" / "words"
    for face, side in (("001-front.png", "side A"), ("001-back.png", "side B"), ("002-back.png", "side B")):
        checked = kitgen("verify", str(folder / "pod-tgc" / "keys" / face), "--seed", SEED, cwd=tmp_path)
        assert checked.returncode == 0 and f"{side}, as its player sees it" in checked.stdout, checked.stdout
    nets = json.loads((folder / "boxes.json").read_text())["nets"]
    assert [net["deck"] for net in nets] == ["codenames", "keys", "tiles", "tokens", "keys"]


def test_campaign_adds_the_campaign_sheet_to_a_duet_kit_and_nothing_else_takes_it(tmp_path):
    done = kitgen("build", "--edition", "duet", "--keys", "2", "--campaign", "--out", "o", cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    folder = tmp_path / "o" / "classic-duet"
    text = pdfium.PdfDocument(str(folder / "campaign.pdf"))[0].get_textpage().get_text_range()
    assert "Quiet Harbour" in text
    kit_text = "".join(p.get_textpage().get_text_range() for p in pdfium.PdfDocument(str(folder / "kit.pdf")))
    assert "Quiet Harbour" in kit_text
    assert "campaign.pdf" in {f["path"] for f in manifest(folder)["files"]}
    assert not (tmp_path / "p").exists()
    for args, line in ((["build", "--campaign"], "kitgen: error: --campaign is the duet edition's campaign sheet; "
                                                 "the words edition has none (add --edition duet)"),
                       (["build", "--game", "deduction", "--campaign"],
                        "kitgen: error: --campaign is a Codenames option; the deduction kit has none such")):
        refused = kitgen(*args, "--out", "p", cwd=tmp_path)
        assert refused.returncode == 2 and refused.stderr.strip() == line
        assert not (tmp_path / "p").exists()
    plain = kitgen("build", "--edition", "duet", "--keys", "2", "--out", "q", cwd=tmp_path)
    assert not (tmp_path / "q" / "classic-duet" / "campaign.pdf").exists() and plain.returncode == 0


def test_kitgen_box_of_the_duet_kit_has_a_box_for_the_timer_tokens(tmp_path):
    done = kitgen("box", "--edition", "duet", "--out", "b", cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    nets = json.loads((tmp_path / "b" / "classic-duet" / "boxes.json").read_text())["nets"]
    assert [net["deck"] for net in nets] == ["codenames", "keys", "tiles", "tokens", "keys"]
    assert "Timer tokens: box" in done.stdout
