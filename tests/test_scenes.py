"""The built-in scenes deck (decks/scenes-en.yaml, docs/design.md §8.14): pictures that join two
ideas, composed from OpenMoji drawings kept in decks/openmoji/. Measured where a player sees them,
on the faces ``kitgen build --png`` writes: enough of them, in colour, no two alike; each picture
credited with its sources and licence; the drawings exactly as OpenMoji made them; the two ideas
of every picture apart in grey."""

import hashlib
import importlib.util
import io
import itertools
import json
import subprocess
import sys
import tempfile
import xml.etree.ElementTree as ET
from collections import Counter
from pathlib import Path

import cv2
import numpy as np
import pytest
import yaml
from PIL import Image

from kitgen import compose
from kitgen.games.codenames import kitfile, picture_decks

ROOT = Path(__file__).resolve().parent.parent
DECK = ROOT / "decks" / "scenes-en.yaml"
SOURCES = ROOT / "decks" / "openmoji"
MIN_FACES = 280
COLOURFUL = 25           # Hasler and Suesstrunk's "moderately colourful" begins at 33; colour photographs 30-100
NEAR = 4                 # difference hashes within this many bits of 64: nearly the same picture


def colourfulness(image: Image.Image) -> float:
    """Hasler and Suesstrunk (2003): sigma of rg and yb plus 0.3 times their means' norm."""
    rgb = np.asarray(image.convert("RGB"), dtype=float)
    rg = rgb[..., 0] - rgb[..., 1]
    yb = 0.5 * (rgb[..., 0] + rgb[..., 1]) - rgb[..., 2]
    return float(np.hypot(rg.std(), yb.std()) + 0.3 * np.hypot(rg.mean(), yb.mean()))


def difference_hash(image: Image.Image) -> int:
    """64 bits: is each pixel of a 9 x 8 grey thumbnail brighter than its right neighbour."""
    small = np.asarray(image.convert("L").resize((9, 8), Image.Resampling.LANCZOS), dtype=int)
    bits = (small[:, :-1] > small[:, 1:]).flatten()
    return int("".join("1" if b else "0" for b in bits), 2)


@pytest.fixture(scope="module")
def scenes_kit(tmp_path_factory):
    """The built-in pictures kit with every face as PNG (100 dpi): (folder, manifest, faces)."""
    out = tmp_path_factory.mktemp("scenes")
    run = subprocess.run([sys.executable, "-m", "kitgen", "build", "--edition", "pictures", "--png", "100",
                          "--out", str(out)], capture_output=True, text=True)
    assert run.returncode == 0, run.stderr
    folder = out / "classic-pictures"
    faces = sorted((folder / "png" / "codenames").glob("*-trim.png"))
    return folder, json.loads((folder / "manifest.json").read_text()), faces


def test_the_pictures_edition_deals_from_the_scenes_deck():
    kit = kitfile.load(kitfile.kit_path(None, "pictures"))
    assert kit.deck.name == "Scenes" and Path(kit.deck.source).name == "scenes-en.yaml"
    assert picture_decks.load("pictures-en").name == "Phosphor pictures"      # the icon deck keeps its name


def test_the_kit_has_280_faces_nine_in_ten_in_colour(scenes_kit):
    _, _, faces = scenes_kit
    assert len(faces) >= MIN_FACES
    scores = {face.name: colourfulness(Image.open(face)) for face in faces}
    grey = sorted((s, n) for n, s in scores.items() if s < COLOURFUL)
    assert len(grey) <= 0.1 * len(faces), grey


def test_no_two_faces_are_alike(scenes_kit):
    _, _, faces = scenes_kit
    hashes = {face.name: difference_hash(Image.open(face)) for face in faces}
    close = [(a, b, (hashes[a] ^ hashes[b]).bit_count()) for a, b in itertools.combinations(hashes, 2)
             if (hashes[a] ^ hashes[b]).bit_count() <= NEAR]
    assert not close, close[:10]


def test_the_manifest_lists_every_pictures_sources_and_licence(scenes_kit):
    _, manifest, _ = scenes_kit
    deck = manifest["deck"]
    listed = deck["picture_sources"]
    assert deck["pictures"] == len(listed) >= MIN_FACES
    data = yaml.safe_load(DECK.read_text())
    assert [p["name"] for p in listed] == [p["name"] for p in data["pictures"]]
    index = json.loads((SOURCES / "sources.json").read_text())
    for picture, entry in zip(listed, data["pictures"], strict=True):
        assert picture["licence"] == "CC BY-SA 4.0"
        assert len(picture["sources"]) >= 2
        assert [s["name"] for s in picture["sources"]] == [entry["a"], entry["b"]]
        for source in picture["sources"]:
            drawing = index["drawings"][source["name"]]
            assert source == {"set": "OpenMoji", "version": index["version"], "code": drawing["code"],
                              "name": source["name"], "author": drawing["author"]}
            assert source["author"]


def test_the_deck_is_curated_data():
    data = yaml.safe_load(DECK.read_text())
    pictures = data["pictures"]
    assert len(pictures) >= MIN_FACES
    assert len({p["name"] for p in pictures}) == len(pictures)
    assert len({frozenset((p["a"], p["b"])) for p in pictures}) == len(pictures)      # no pair twice
    for p in pictures:
        clues = p["clues"]
        assert len(clues) >= 3 and len(set(clues)) == len(clues), p["name"]
        assert all(c == c.lower() and " " not in c for c in clues), p["name"]
        assert p["a"] != p["b"]
    relations = Counter(p["relation"] for p in pictures)
    assert set(relations) == set(compose.RELATIONS)
    assert max(relations.values()) <= len(pictures) / 3, relations      # a mix, not one trick
    bases = Counter(p["a"] for p in pictures)
    assert max(bases.values()) <= 2, bases.most_common(3)


def _ink_box():
    spec = importlib.util.spec_from_file_location("openmoji_sources", ROOT / "tools" / "openmoji_sources.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module.ink_box


def test_the_drawings_are_openmojis_own_and_each_is_used():
    index = json.loads((SOURCES / "sources.json").read_text())
    data = yaml.safe_load(DECK.read_text())
    used = {p[k] for p in data["pictures"] for k in ("a", "b")}
    assert set(index["drawings"]) == used                                  # nothing kept that is not drawn
    files = {p.name for p in SOURCES.glob("*.svg")}
    assert files == {f"{d['code']}.svg" for d in index["drawings"].values()}
    ink_box = _ink_box()
    sums = dict(reversed(line.split()) for line in (SOURCES / "SHA256SUMS").read_text().splitlines())
    assert set(sums) == files
    for name, drawing in index["drawings"].items():
        data = (SOURCES / f"{drawing['code']}.svg").read_bytes()
        assert hashlib.sha256(data).hexdigest() == sums[f"{drawing['code']}.svg"], name     # as the package has it
        assert b"opacity" not in data, name              # PDF/X-1a holds no transparency (--pdfx)
        assert drawing["box"] == pytest.approx(ink_box(data), abs=1e-3), name
    licence = (SOURCES / "LICENSE.txt").read_text()
    assert "Attribution-ShareAlike 4.0" in licence
    assert index["licence"] == "CC BY-SA 4.0" and index["set"] == "OpenMoji"


def test_the_credits_say_share_alike():
    deck = picture_decks.load("scenes-en")
    assert "OpenMoji" in deck.credits and "CC BY-SA 4.0" in deck.credits and "share" in deck.credits.lower()


def _composition(sources, entry) -> compose.Composition:
    """A deck entry's composition, without its backdrop (what the tests measure each idea by)."""
    return compose.Composition(entry["relation"], sources.source(entry["a"]), sources.source(entry["b"]),
                               entry.get("size"), tuple(entry.get("at", (0, 0))), bool(entry.get("mirror")),
                               float(entry.get("tilt", 0)))


def _clip_shape(composition) -> bytes:
    """The shapes of a's colour layer (what ``made_of`` clips its tiles to) in black, in the
    picture's own box."""
    parts, base = compose.layout(composition)
    x, y, w, h = compose.view_box(parts, base)
    svg = ET.Element(f"{{{compose.SVG}}}svg", viewBox=f"{x} {y} {w} {h}", width=str(w), height=str(h))
    if base is not None:
        group = ET.SubElement(svg, f"{{{compose.SVG}}}g", transform=base.transform())
        for node in compose._group(base.source, "color").iter():
            if node.tag.rsplit("}", 1)[-1] in compose.SHAPES:
                node.set("fill", "#000000")
                node.attrib.pop("stroke", None)
                group.append(node)
    return ET.tostring(svg)


def _grey_rasters(entries, dpi=120):
    """Each picture drawn four times in a 41 mm box (the card's): whole (as the deck gives it, on
    its backdrop), idea a alone, idea b alone, and the shape ``made_of`` clips to (blank for the
    other relations); as grey arrays (0 black, 255 paper)."""
    from reportlab.graphics import renderPDF
    from reportlab.lib.units import mm
    from reportlab.pdfgen import canvas
    from svglib.svglib import svg2rlg

    side = 41 * mm
    buffer = io.BytesIO()
    c = canvas.Canvas(buffer, pagesize=(side, side))
    sources = compose.load_sources(SOURCES)
    pictures = picture_decks.load("scenes-en").pictures
    for entry, picture in zip(entries, pictures, strict=True):
        composition = _composition(sources, entry)
        for svg in (picture.data, compose.compose(composition, "a"), compose.compose(composition, "b"),
                    _clip_shape(composition)):
            drawing = svg2rlg(io.BytesIO(svg))
            scale = side / max(drawing.width, drawing.height)
            drawing.scale(scale, scale)
            renderPDF.draw(drawing, c, 0, 0)
            c.showPage()
    c.save()
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "scenes.pdf"
        path.write_bytes(buffer.getvalue())
        subprocess.run(["pdftoppm", "-gray", "-r", str(dpi), str(path), str(Path(tmp) / "p")], check=True)
        return [np.asarray(Image.open(p)) for p in sorted(Path(tmp).glob("p-*.pgm"))]


def test_in_grey_the_two_ideas_stay_apart():
    """Where one idea is drawn in front of the other, a ring of paper (the halo) parts them: in the
    grey picture, next to the front idea's ink, what the idea behind would draw is paper. Ideas side
    by side (beside, raining) do not touch; the tiles of a picture made of another stay within its outline."""
    deck = yaml.safe_load(DECK.read_text())["pictures"]
    rasters = _grey_rasters(deck)
    kernel = np.ones((3, 3), np.uint8)
    problems = []
    for k, entry in enumerate(deck):
        whole, alone_a, alone_b, clip = rasters[4 * k: 4 * k + 4]
        ink_a, ink_b = alone_a < 200, alone_b < 200
        front, back = (ink_a, ink_b) if entry["relation"] == "behind" else (ink_b, ink_a)
        if entry["relation"] == "made_of":            # tiles of b only within a's shape
            shape = cv2.dilate((clip < 128).astype(np.uint8), kernel, iterations=2).astype(bool)
            if (ink_b & ~shape).sum() > 0.01 * ink_b.sum():
                problems.append((entry["name"], "tiles outside", int((ink_b & ~shape).sum())))
            continue
        if entry["relation"] in ("beside", "raining"):
            touching = (cv2.dilate(ink_a.astype(np.uint8), kernel) & ink_b).sum()
            if touching > 0.01 * ink_b.sum():
                problems.append((entry["name"], "touch", int(touching)))
            continue
        near = cv2.dilate(front.astype(np.uint8), kernel, iterations=3).astype(bool)
        ring = cv2.dilate(front.astype(np.uint8), kernel, iterations=1).astype(bool)
        band = near & ~ring & back & ~front              # beside the front idea, where the other would be
        if band.sum() and (whole[band] >= 200).mean() < 0.9:
            problems.append((entry["name"], "no halo", round(float((whole[band] >= 200).mean()), 2)))
        assert (whole[front] < 255).any()
    assert not problems, problems


def test_the_proof_shows_every_picture_of_the_deck_with_its_name(tmp_path):
    run = subprocess.run([sys.executable, "-m", "kitgen", "proof", "--edition", "pictures", "--out", str(tmp_path)],
                         capture_output=True, text=True)
    assert run.returncode == 0, run.stderr
    proof = next(tmp_path.rglob("*-proof.pdf"))
    text = subprocess.run(["pdftotext", "-raw", str(proof), "-"], capture_output=True, text=True).stdout
    names = [p["name"] for p in yaml.safe_load(DECK.read_text())["pictures"]]
    assert f"The deck's {len(names)} pictures, each with its number and name" in text
    flat = " ".join(text.split())
    missing = [n for i, n in enumerate(names) if f"{i + 1} {n}" not in flat]
    assert not missing, missing[:5]


MIN_PART_MM = 5          # the smallest drawn thing of a picture, its longer side on the card


def test_every_part_of_every_picture_is_a_few_millimetres_on_the_card():
    """Each idea as drawn (each of the raining three, each tile of a picture made of another) is at
    least MIN_PART_MM on its longer side, in the card's picture box."""
    from kitgen import layouts

    box = layouts.load("pictures").picture_card.picture.box
    side_mm = min(box[2], box[3]) / 72 * 25.4                   # the square picture, fitted whole
    sources = compose.load_sources(SOURCES)
    small = []
    for entry in yaml.safe_load(DECK.read_text())["pictures"]:
        composition = _composition(sources, entry)
        parts, base = compose.layout(composition)
        width = compose.view_box(parts, base)[2]
        least = min(max(p.box[2] - p.box[0], p.box[3] - p.box[1]) for p in parts + ([base] if base else []))
        if least / width * side_mm < MIN_PART_MM:
            small.append((entry["name"], round(least / width * side_mm, 1)))
    assert not small, small
