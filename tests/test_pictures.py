"""The pictures edition: the built-in picture deck, 5x4 keys with two lights,
picture cards with orientation marks, user folders and their bad pictures."""

import hashlib
import io
import json
import subprocess
import sys
from collections import Counter

import pypdfium2 as pdfium
import pytest
import zxingcpp
from PIL import Image

from kitgen import fonts, pictures
from kitgen.errors import KitgenError
from kitgen.games.codenames import build, editions, kitfile, picture_decks, verify
from kitgen.render.sheet import CardSpec, back_of, impose
from kitgen.units import mm

from raster import classify, render_page, to_pixels


def kitgen(*args, cwd):
    return subprocess.run([sys.executable, "-m", "kitgen", *args], cwd=cwd, capture_output=True, text=True)


@pytest.fixture(scope="module")
def pictures_kit(tmp_path_factory):
    out = tmp_path_factory.mktemp("pictures")
    return build.build(kitfile.load(kitfile.kit_path(None, "pictures")), out)


def solid_png(colour, size=(400, 400)) -> bytes:
    buffer = io.BytesIO()
    Image.new("RGB", size, colour).save(buffer, "PNG")
    return buffer.getvalue()


def picture_folder(path, count=20, size=(400, 400)):
    path.mkdir()
    for i in range(count):
        (path / f"p{i:02d}.png").write_bytes(solid_png((i * 12, 255 - i * 12, 100), size))
    return path


def test_the_icon_deck_has_280_distinct_credited_pictures():
    deck = picture_decks.load("pictures-en")
    assert len(deck.pictures) >= 280
    assert len({hashlib.sha256(p.data).digest() for p in deck.pictures}) == len(deck.pictures)
    assert all(p.vector and p.caption for p in deck.pictures)
    assert "Phosphor Icons" in deck.credits and "MIT" in deck.credits


def test_pictures_kit_holds_140_cards_60_keys_and_its_tiles(pictures_kit):
    folder, files, man = pictures_kit
    assert man["edition"] == "pictures" and len(man["keys"]) == 60
    pages = {f["path"]: f["pages"] for f in man["files"]}
    assert pages["codenames.pdf"] == 20              # 140 cards, 15 a sheet: 10 sheets, fronts and backs
    for key in man["keys"]:
        grid = key["payload"].split(":")[4].split("/")
        assert len(grid) == 4 and all(len(row) == 5 for row in grid)
        assert len(key["cells"]) == 20
        counts = Counter("".join(grid))
        first = key["payload"].split(":")[3]
        assert counts[first] == 8 and counts["N"] == 4 and counts["A"] == 1
    assert Counter(k["payload"].split(":")[3] for k in man["keys"]) == Counter({"R": 30, "B": 30})


def test_picture_keys_round_trip_through_a_raster_and_verify(pictures_kit):
    folder, _, man = pictures_kit
    image = render_page(str(folder / "keys.pdf"), 0, 150)
    found = {r.text for r in zxingcpp.read_barcodes(image)}
    assert found == {k["payload"] for k in man["keys"] if k["page"] == 1}
    results = verify.verify(str(folder / "keys.pdf"), verify.load_manifest(str(folder / "manifest.json")))
    assert len(results) == 60 and all(r.ok for r in results), [r.problems for r in results if not r.ok][:3]
    turned = image.rotate(180)
    buffer = io.BytesIO()
    turned.save(buffer, "JPEG", quality=75)
    results = verify.check_image(Image.open(buffer), "turned", verify.Secret("kitgen classic-pictures 2026"))
    assert len(results) == 12 and all(r.ok for r in results)


def test_lights_on_two_opposite_edges_only(pictures_kit):
    folder, _, man = pictures_kit
    image = render_page(str(folder / "keys.pdf"), 0, 100)
    for key in (k for k in man["keys"] if k["page"] == 1):
        team = key["payload"].split(":")[3]
        x0, y0, x1, y1 = key["card"]
        band = mm(1.2)
        sample = lambda x, y: classify(image.getpixel((int(to_pixels((x, y, x, y), mm(297), 100)[0]),  # noqa: E731
                                                       int(to_pixels((x, y, x, y), mm(297), 100)[1]))))
        assert sample(x0 + mm(10), y0 + band) == team and sample(x0 + mm(10), y1 - band) == team
        assert sample(x0 + band, y0 + mm(28)) != team and sample(x1 - band, y0 + mm(28)) != team


def test_orientation_marks_top_left_on_fronts_and_backs(pictures_kit, default_layout):
    """After long-edge imposition each face's mark is in its own top-left corner."""
    folder, _, _ = pictures_kit
    from kitgen import layouts

    layout = layouts.load("pictures")
    card = layout.picture_card
    grid = impose(mm(210), mm(297), layout.paper.margin, CardSpec(*card.size, card.bleed, card.gutter), mm(5))
    assert not grid.rotated and grid.per_sheet == 15
    mx, my, mw, mh = card.mark.box
    for page_index in (0, 1):
        image = render_page(str(folder / "codenames.pdf"), page_index, 150).convert("L")
        for slot in grid.slots:
            placed = slot if page_index == 0 else back_of(slot, mm(210), mm(297), "long")
            corners = {}
            for name, (u, v) in {"top-left": (mx + mw * 0.25, my + mh * 0.75),
                                 "top-right": (card.size[0] - mx - mw * 0.25, my + mh * 0.75),
                                 "bottom-left": (mx + mw * 0.25, card.size[1] - my - mh * 0.75)}.items():
                x, y = placed.to_page(*card.size, u, v)
                corners[name] = image.getpixel((int(x * 150 / 72), int((mm(297) - y) * 150 / 72)))
            assert corners["top-left"] < 200, (page_index, slot)
            assert corners["top-right"] > 230 and corners["bottom-left"] > 230


def test_vector_pictures_stay_vector(pictures_kit):
    folder, _, _ = pictures_kit
    data = (folder / "codenames.pdf").read_bytes()
    assert b"/Subtype /Image" not in data
    assert b"Helvetica" not in data


def test_credits_are_printed_on_the_rules_sheet(pictures_kit):
    folder, _, _ = pictures_kit
    text = pdfium.PdfDocument(str(folder / "rules.pdf"))[0].get_textpage().get_text_range()
    text = " ".join(text.split())
    assert "OpenMoji 17.0.0" in text and "CC BY-SA 4.0" in text and "alike" in text and "Noto Sans" in text


def test_a_folder_of_pictures_builds_with_notes_and_warnings(tmp_path):
    folder = picture_folder(tmp_path / "class pics")
    (folder / "notes.txt").write_text("not a picture")
    (folder / "tiny.png").write_bytes(solid_png((10, 10, 10), (60, 60)))
    result = kitgen("build", "--edition", "pictures", "--deck", "class pics", "--keys", "4", "--out", "o", cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    assert "notes.txt: not a PNG, JPEG or SVG file; passed over" in result.stderr
    assert "tiny.png:" in result.stderr and "below 150" in result.stderr
    man = json.loads((tmp_path / "o" / "class-pics" / "manifest.json").read_text())
    assert man["deck"]["pictures"] == 21


def test_cover_fills_the_box_contain_keeps_all_of_the_picture(tmp_path):
    from kitgen import layouts
    from kitgen.games.codenames.model import CodenameCard
    from kitgen.games.codenames.render import picture_cards
    from kitgen.render import document

    wide = pictures.read_picture("wide.png", solid_png((255, 0, 0), (800, 200)), False)
    results = {}
    for fit in ("contain", "cover"):
        path = tmp_path / f"{fit}.yaml"
        path.write_text(f"extends: pictures\npicture_card:\n  picture: {{fit: {fit}}}\n")
        layout = layouts.load(path)
        names = fonts.register_roles(layout)
        cards = picture_cards.card_set((CodenameCard(wide, wide),), layout, names, "t")
        part = document.card_part(cards, layout, (mm(80), mm(80)), "none")
        pdf, _ = document.render([part], (mm(80), mm(80)), layout, names, "none", "t", "t")
        image = render_page(pdf, 0, 72)
        slot = part.grid.slots[0]
        x, y, w, h = layout.picture_card.picture.box
        u, v = slot.to_page(*layout.picture_card.size, x + w / 2, y + h * 0.9)   # near the box's top
        results[fit] = image.getpixel((int(u), int(mm(80) - v)))
    assert results["contain"] == (255, 255, 255)
    assert results["cover"][0] > 200 and results["cover"][1] < 60


def bad_folder(tmp_path, name, content):
    folder = picture_folder(tmp_path / "pics")
    (folder / name).write_bytes(content)
    result = kitgen("build", "--edition", "pictures", "--deck", "pics", "--keys", "2", "--out", "o", cwd=tmp_path)
    assert result.returncode == 2, result.stderr
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and name in lines[0] and "Traceback" not in result.stderr
    assert not (tmp_path / "o").exists()
    return lines[0]


def test_unreadable_picture(tmp_path):
    assert "not a readable PNG or JPEG" in bad_folder(tmp_path, "noise.png", bytes(range(256)) * 8)


def test_truncated_picture(tmp_path):
    jpeg = io.BytesIO()
    Image.effect_noise((400, 400), 60).convert("RGB").save(jpeg, "JPEG")
    assert "is truncated" in bad_folder(tmp_path, "cut.jpg", jpeg.getvalue()[: len(jpeg.getvalue()) // 2])


def test_svg_that_does_not_parse(tmp_path):
    assert "is not an SVG picture that can be read" in bad_folder(tmp_path, "broken.svg", b"<svg><path d='M0 0'")


def test_decompression_bomb(tmp_path):
    buffer = io.BytesIO()
    Image.new("1", (9000, 9000)).save(buffer, "PNG")       # 81 million pixels in a few kilobytes
    assert "too many pixels" in bad_folder(tmp_path, "bomb.png", buffer.getvalue())


def test_fewer_than_twenty_pictures(tmp_path):
    picture_folder(tmp_path / "few", count=12)
    result = kitgen("build", "--edition", "pictures", "--deck", "few", "--out", "o", cwd=tmp_path)
    assert result.returncode == 2 and "has 12 pictures; a pictures kit needs at least 20" in result.stderr
    assert len(result.stderr.strip().splitlines()) == 1


def test_yaml_picture_deck_with_captions_and_files(tmp_path):
    folder = picture_folder(tmp_path / "d")
    entries = "".join(f"  - {{file: p{i:02d}.png, caption: Thing {i}}}\n" for i in range(20))
    (folder / "deck.yaml").write_text("name: Lesson\npictures:\n" + entries + "  - {icon: 'phosphor:cat'}\n")
    deck = picture_decks.load(folder / "deck.yaml")
    assert len(deck.pictures) == 21 and deck.pictures[3].caption == "Thing 3" and deck.pictures[20].vector
    (folder / "bad.yaml").write_text("pictures:\n  - {file: ../../etc/passwd}\n")
    with pytest.raises(KitgenError, match="outside the deck's folder"):
        picture_decks.load(folder / "bad.yaml")


def test_pictures_edition_rotation_rule():
    from kitgen.games.codenames import key_deck

    grid = ("RRBNA", "NBRBR", "RNRBB", "ANRBN")
    assert len(key_deck.rotations(grid, editions.PICTURES.rotations)) == 2


def test_proof_and_deck_check_of_a_picture_deck(tmp_path):
    folder = picture_folder(tmp_path / "pics")
    (folder / "tiny.png").write_bytes(solid_png((10, 10, 10), (60, 60)))
    result = kitgen("deck", "check", "pics", cwd=tmp_path)
    assert result.returncode == 0
    assert "21 distinct pictures" in result.stdout and "WARN tiny.png" in result.stdout
    result = kitgen("proof", "--edition", "pictures", "--deck", "pics", "--keys", "6", "--out", "p", cwd=tmp_path)
    assert result.returncode == 0, result.stdout + result.stderr
    assert "PASS 21 distinct pictures" in result.stdout and "WARN tiny.png" in result.stdout
    assert "PASS key split 8/7/4/1 on all 6 keys" in result.stdout
    proof = pdfium.PdfDocument(str(tmp_path / "p" / "pics-proof.pdf"))
    text = "".join(p.get_textpage().get_text_range() for p in proof)
    assert "C001a" in text and "K6" in text


@pytest.mark.parametrize("svg, what", [
    (b'<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" width="10" height="10">'
     b'<image xlink:href="file:///etc/passwd" width="10" height="10"/></svg>', "file:///etc/passwd"),
    (b'<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"><image href="../secret.png"/></svg>',
     "../secret.png"),
    (b'<?xml version="1.0"?><!DOCTYPE svg [<!ENTITY x SYSTEM "file:///etc/passwd">]>'
     b'<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"><text>&x;</text></svg>', "an XML entity"),
])
def test_svg_external_references_are_refused_never_read(tmp_path, svg, what):
    assert what in bad_folder(tmp_path, "outside.svg", svg)


def test_svg_internal_references_are_fine():
    svg = (b'<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" width="10" '
           b'height="10"><defs><rect id="r" width="5" height="5"/></defs><use xlink:href="#r"/></svg>')
    assert pictures.read_picture("ok.svg", svg, True).vector


def test_transparent_parts_of_a_png_print_as_paper_in_cmyk(tmp_path):
    """PIL turns a transparent pixel into 100 % C, M and Y: a CMYK picture has no mask, so
    transparency is made paper first (found in review: transparent backgrounds printed black)."""
    from kitgen import layouts
    from kitgen.render import pictures as picture_drawing
    from kitgen.render.pdf import new_canvas

    image = Image.new("RGBA", (100, 100), (0, 0, 0, 0))
    image.paste((200, 30, 30, 255), (30, 30, 70, 70))
    data = io.BytesIO()
    image.save(data, "PNG")
    picture = pictures.read_picture("t.png", data.getvalue(), False)
    for overlays in ((), ("cmyk",)):
        layout = layouts.load("default", overlays)
        names = fonts.register_roles(layout)
        out = io.BytesIO()
        c = new_canvas(out, (100, 100), names, cmyk=bool(overlays))
        picture_drawing.draw(c, picture, (0, 0, 100, 100), "contain", names["label"], layout, "ink")
        c.showPage()
        c.save()
        page = render_page(out.getvalue(), 0, 72)
        assert min(page.getpixel((5, 5))) > 240, overlays            # the transparent corner: paper
        red, green, _ = page.getpixel((50, 50))
        assert red > 150 and green < 100, overlays                    # the opaque square: red
