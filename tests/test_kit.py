"""The default words kit end to end: components, QR round trips from a raster,
printed grids against payloads, fonts, print settings, determinism, atomic writes."""

import json
import re
from collections import Counter
from pathlib import Path

import pypdfium2 as pdfium
import pytest
import zxingcpp
from PIL import Image

from kitgen import output
from kitgen.errors import KitgenError
from kitgen.games.codenames import build, key_payload, kitfile
from kitgen.units import mm

from raster import classify, page_count, render_page, to_pixels

FILES = ["codenames.pdf", "keys.pdf", "tiles.pdf", "rules.pdf", "kit.pdf"]


def manifest(default_kit):
    return json.loads((default_kit[0] / "manifest.json").read_text())


def test_kit_folder_holds_every_component_and_the_manifest(default_kit):
    folder, files, _ = default_kit
    assert folder.name == "classic-en"
    assert sorted(p.name for p in folder.iterdir()) == sorted(FILES + ["manifest.json", "verify.html"])
    man = manifest(default_kit)
    listed = {f["path"]: f for f in man["files"]}
    assert set(listed) == set(FILES)
    for name in FILES:
        assert page_count(str(folder / name)) == listed[name]["pages"]
        assert listed[name]["page_size"] == pytest.approx([mm(210), mm(297)], abs=0.01)
    parts = sum(listed[n]["pages"] for n in FILES if n != "kit.pdf")
    assert parts <= listed["kit.pdf"]["pages"] <= parts + 4   # blank backs keep parts on their own sheets


def test_codename_cards_two_hundred_double_sided_with_both_word_orientations(default_kit):
    folder, _, _ = default_kit
    document = pdfium.PdfDocument(str(folder / "codenames.pdf"))
    words = []
    for page in document:
        text = page.get_textpage().get_text_range().split()
        # every word is printed twice on its face: upright and turned for the far side
        counts = Counter(text)
        assert all(n == 2 for n in counts.values())
        words += list(counts)
    assert len(words) == 400 and len(set(words)) == 400
    assert len(document) == 26            # 13 sheets of 16 cards, fronts and backs


def test_each_word_is_printed_twice_in_opposite_directions(default_kit):
    """The upright word and the smaller turned copy run in opposite directions on the page."""
    folder, _, _ = default_kit
    textpage = pdfium.PdfDocument(str(folder / "codenames.pdf"))[0].get_textpage()
    runs, current = [], []
    for i in range(textpage.count_chars()):
        ch = textpage.get_text_range(i, 1)
        if ch.strip():
            left, bottom, right, top = textpage.get_charbox(i)
            current.append(((left + right) / 2, (bottom + top) / 2, top - bottom, right - left))
        elif current:
            runs.append(current)
            current = []
    if current:
        runs.append(current)
    assert len(runs) == 32                      # 16 cards, two copies of the word each
    for upright, turned in zip(runs[::2], runs[1::2]):
        direction = lambda run: (run[-1][0] - run[0][0], run[-1][1] - run[0][1])  # noqa: E731
        (ux, uy), (tx, ty) = direction(upright), direction(turned)
        assert ux * tx + uy * ty < 0            # opposite reading directions
        # the turned copy is smaller
        assert max(max(c[2], c[3]) for c in upright) > max(max(c[2], c[3]) for c in turned)


def test_every_key_qr_decodes_from_a_150_dpi_raster(default_kit):
    folder, _, _ = default_kit
    man = manifest(default_kit)
    keys = man["keys"]
    assert len(keys) == 40
    decoded = []
    pages = sorted({k["page"] for k in keys})
    page_height = mm(297)
    for number in pages:
        image = render_page(str(folder / "keys.pdf"), number - 1, 150)
        results = zxingcpp.read_barcodes(image, formats=zxingcpp.BarcodeFormat.QRCode)
        on_page = [k for k in keys if k["page"] == number]
        texts = {r.text: r for r in results}
        for k in on_page:
            assert k["payload"] in texts, f"QR of key {k['number']} not decoded"
            # the decoded code sits inside its card's rectangle
            left, top, right, bottom = to_pixels(k["card"], page_height, 150)
            pos = texts[k["payload"]].position
            for point in (pos.top_left, pos.bottom_right):
                assert left <= point.x <= right and top <= point.y <= bottom
        decoded += [r.text for r in results]
    assert sorted(decoded) == sorted(k["payload"] for k in keys)
    for text in decoded:
        parsed = key_payload.decode(text)
        assert parsed.kit == "CLASSIC-EN" and parsed.total == 40


def test_printed_grid_matches_the_payload_at_the_manifest_cells(default_kit):
    folder, _, _ = default_kit
    keys = manifest(default_kit)["keys"]
    for number in sorted({k["page"] for k in keys}):
        image = render_page(str(folder / "keys.pdf"), number - 1, 100)
        for k in (k for k in keys if k["page"] == number):
            grid = key_payload.decode(k["payload"]).grid
            printed = ""
            for cell in k["cells"]:
                left, top, right, bottom = to_pixels(cell, mm(297), 100)
                # the ring between the cell's edge and its symbol carries the colour
                votes = Counter(classify(image.getpixel((int(left + (right - left) * fx),
                                                         int(top + (bottom - top) * fy))))
                                for fx, fy in ((0.18, 0.5), (0.82, 0.5), (0.5, 0.18), (0.5, 0.82)))
                printed += votes.most_common(1)[0][0]
            assert printed == "".join(grid), f"key {k['number']}"


def test_manifest_cells_are_in_payload_order_inside_the_card(default_kit):
    for k in manifest(default_kit)["keys"]:
        assert set(k) >= {"file", "page", "card", "cells", "payload"}
        x0, y0, x1, y1 = k["card"]
        assert x1 - x0 == pytest.approx(mm(57), abs=0.01) and y1 - y0 == pytest.approx(mm(57), abs=0.01)
        cells = k["cells"]
        assert len(cells) == 25
        for cx0, cy0, cx1, cy1 in cells:
            assert x0 < cx0 < cx1 < x1 and y0 < cy0 < cy1 < y1
        # top row first, left to right
        assert cells[0][1] > cells[5][1] and cells[0][0] < cells[1][0]
        assert cells[4][1] == cells[0][1]


def test_key_backs_are_all_the_same_and_the_lights_reach_into_the_bleed(default_kit):
    folder, _, _ = default_kit
    keys = manifest(default_kit)["keys"]
    front = render_page(str(folder / "keys.pdf"), 0, 72)
    back = render_page(str(folder / "keys.pdf"), 1, 72)
    crops = []
    for k in (k for k in keys if k["page"] == 1):
        x0, y0, x1, y1 = k["card"]
        # long-edge duplex: the back sits at the mirrored x
        mirrored = (mm(210) - x1, y0, mm(210) - x0, y1)
        box = tuple(round(v) for v in to_pixels(mirrored, mm(297), 72))
        crops.append(back.crop(box).resize((12, 12), Image.BOX).tobytes())
        team = key_payload.decode(k["payload"]).starting_team
        # 1.5 mm outside the trim, in the bleed, the lights' colour continues
        outside = (x0 - mm(1.5), (y0 + y1) / 2)
        px = front.getpixel((int(outside[0]), int(mm(297) - outside[1])))
        assert classify(px) == team
    # identical up to where the pattern falls on the pixel grid: nothing tells keys apart
    for crop in crops[1:]:
        assert max(abs(a - b) for a, b in zip(crop, crops[0])) < 40


def test_starting_teams_balanced_and_lights_on_all_four_edges(default_kit):
    folder, _, _ = default_kit
    keys = manifest(default_kit)["keys"]
    teams = Counter(key_payload.decode(k["payload"]).starting_team for k in keys)
    assert teams["R"] == teams["B"] == 20
    image = render_page(str(folder / "keys.pdf"), 0, 100)
    for k in (k for k in keys if k["page"] == 1):
        team = key_payload.decode(k["payload"]).starting_team
        x0, y0, x1, y1 = k["card"]
        band = mm(1.2)   # inside the trim, within the 4 mm light band, away from its symbol
        for x, y in ((x0 + band, y0 + mm(10)), (x1 - band, y0 + mm(10)), (x0 + mm(10), y0 + band),
                     (x0 + mm(10), y1 - band)):
            left, top, _, _ = to_pixels((x, y, x, y), mm(297), 100)
            assert classify(image.getpixel((int(left), int(top)))) == team


def test_tiles_counts_and_the_double_agent_has_two_colours(default_kit):
    folder, _, _ = default_kit
    from kitgen import layouts
    from kitgen.render.sheet import CardSpec, centred, impose

    layout = layouts.load("default")
    spec = CardSpec(*layout.tile.size, layout.tile.bleed, layout.tile.gutter)
    grid = impose(mm(210), mm(297), layout.paper.margin, spec, mm(5))
    assert grid.per_sheet >= 25
    counts = []
    for index in (0, 1):
        image = render_page(str(folder / "tiles.pdf"), index, 72)
        seen = Counter()
        for slot in centred(grid, 25):              # 25 tiles on a sheet for more: centred
            x = slot.x + slot.width * 0.15          # between the frame (3.5 mm in) and the label
            if index == 1:
                x = mm(210) - x
            y = slot.y + slot.height * 0.5
            seen[classify(image.getpixel((int(x), int(mm(297) - y))))] += 1
        counts.append(seen)
    assert counts[0] == Counter({"R": 9, "B": 8, "N": 7, "A": 1})
    assert counts[1] == Counter({"R": 8, "B": 9, "N": 7, "A": 1})


def test_fonts_embedded_and_no_default_font_leaks(default_kit):
    folder, _, _ = default_kit
    for name in FILES:
        data = (folder / name).read_bytes()
        base_fonts = re.findall(rb"/BaseFont /([A-Za-z0-9+-]+)", data)
        assert base_fonts, name
        for font in base_fonts:
            assert re.match(rb"^[A-Z]{6}\+", font), f"{name}: {font} is not an embedded subset"
        assert data.count(b"/FontFile2") == len(base_fonts)
        assert b"Helvetica" not in data and b"Times" not in data


def test_print_settings_in_every_pdf(default_kit):
    folder, _, _ = default_kit
    for name in FILES:
        data = (folder / name).read_bytes()
        assert b"/PrintScaling /None" in data
        assert b"/Duplex /DuplexFlipLongEdge" in data


def test_same_inputs_same_bytes(default_kit):
    _, files, man = default_kit
    again, man2 = build.build_files(kitfile.load())
    assert [f.data for f in again] == [f.data for f in files]
    assert man2 == man


def test_other_seed_other_keys(default_kit):
    _, files, man = default_kit
    other, man2 = build.build_files(kitfile.load(seed="another seed"))
    assert [k["payload"] for k in man2["keys"]] != [k["payload"] for k in man["keys"]]
    assert all(key_payload.decode(k["payload"]).kit == "CLASSIC-EN" for k in man2["keys"])
    assert man2["seed"] == "another seed"


def test_letter_short_edge_and_key_count(tmp_path):
    kit = kitfile.load(paper="letter", duplex="short", keys=7)
    folder, files, man = build.build(kit, tmp_path)
    assert len(man["keys"]) == 7
    assert {f["page_size"][0] for f in man["files"]} == {612.0}
    data = (folder / "keys.pdf").read_bytes()
    assert b"/Duplex /DuplexFlipShortEdge" in data
    teams = Counter(key_payload.decode(k["payload"]).starting_team for k in man["keys"])
    assert abs(teams["R"] - teams["B"]) == 1
    image = render_page(str(folder / "keys.pdf"), 0, 150)
    assert {r.text for r in zxingcpp.read_barcodes(image)} == {k["payload"] for k in man["keys"]}


def test_single_sided_puts_backs_on_their_own_pages(tmp_path):
    folder, _, man = build.build(kitfile.load(duplex="none", keys=12), tmp_path)
    assert b"/Duplex /Simplex" in (folder / "keys.pdf").read_bytes()
    assert page_count(str(folder / "keys.pdf")) == 2


def test_a_failed_build_leaves_the_previous_kit_intact(tmp_path, monkeypatch, default_kit):
    _, files, man = default_kit
    target = tmp_path / "classic-en"
    output.write_kit(target, files, man)
    before = {p.name: p.read_bytes() for p in target.iterdir()}
    written = []
    original = Path.write_bytes

    def failing_write(self, data):
        written.append(self.name)
        if len(written) == 3:
            raise OSError(28, "No space left on device")
        return original(self, data)

    monkeypatch.setattr(Path, "write_bytes", failing_write)
    with pytest.raises(KitgenError, match="No space left"):
        output.write_kit(target, [f.__class__(f.name, f.data + b"%changed", f.pages) for f in files], man)
    assert {p.name: p.read_bytes() for p in target.iterdir()} == before
    assert sorted(p.name for p in tmp_path.iterdir()) == ["classic-en"]   # no staging folder left


def test_output_path_that_is_a_file_is_refused(tmp_path, default_kit):
    _, files, man = default_kit
    (tmp_path / "classic-en").write_text("not a folder")
    with pytest.raises(KitgenError, match="is a file"):
        output.write_kit(tmp_path / "classic-en", files, man)


def readme_libraries() -> set[str]:
    """The libraries the site's "Reproducible output" page (once README's section) promises manifest.json
    records, read from its sentence (so the page and the manifest stay in step), as distribution names. "the
    font packages" and "the icon set" are pyproject's fontpkg-* and icon dependencies; every other name must be
    a dependency too."""
    import tomllib

    from docs_text import page

    root = Path(__file__).resolve().parent.parent
    readme = " ".join(page("reference/reproducible.md").split())
    listed = re.search(r"`manifest\.json` records every library that shapes the bytes \(([^)]*)\)", readme)
    assert listed, "docs/reference/reproducible.md no longer says which libraries manifest.json records"
    requirements = tomllib.loads((root / "pyproject.toml").read_text("utf-8"))["project"]["dependencies"]
    dependencies = {re.match(r"[A-Za-z0-9._-]+", r).group(0).lower() for r in requirements}
    extras = tomllib.loads((root / "pyproject.toml").read_text("utf-8"))["project"]["optional-dependencies"]
    groups = {"the font packages": {d for d in dependencies if d.startswith("fontpkg-")},
              "the icon set": {d for d in dependencies if d.endswith("-icons")},
              # the cjk extra's fonts and the thai extra's line breaker (null in a manifest when not installed)
              "the extras' packages": {re.match(r"[A-Za-z0-9._-]+", r).group(0).lower()
                                       for extra in ("cjk", "thai") for r in extras[extra]}}
    names = set()
    for item in (part.strip() for part in listed.group(1).split(",")):
        if item in groups:
            assert groups[item], item
            names |= groups[item]
        else:
            assert item.lower() in dependencies, f"README names {item!r}, which pyproject.toml does not depend on"
            names.add(item.lower())
    return names


def test_the_manifest_records_exactly_the_libraries_readme_names(default_kit):
    """The "Reproducible output" page promises which libraries manifest.json records; a library
    dropped from the manifest (or from the page) fails here. Each is recorded with its version."""
    from importlib.metadata import version

    promised = readme_libraries()
    assert {"svglib", "pillow", "reportlab", "fonttools", "fontpkg-noto-sans", "py-phosphor-icons"} <= promised
    recorded = manifest(default_kit)["libraries"]
    assert set(recorded) == promised
    for name in promised:
        assert recorded[name] == version(name), name
