"""The composer of two-idea pictures (kitgen/compose.py, docs/design.md §8.14): each relation's
geometry on drawings of known boxes, the halo, the view box, byte-for-byte reproducibility, the
refusal of source drawings that refer to anything, and a composed deck's every bad entry refused in
one line with its line number."""

import hashlib
import json
import re
import shutil
import subprocess
import sys
import xml.etree.ElementTree as ET

import pytest

from kitgen import compose
from kitgen.errors import KitgenError
from kitgen.games.codenames import picture_decks


def drawing(name, x0, y0, x1, y1, colour="#3F7FBF") -> compose.Source:
    """A 72-unit drawing: a filled rectangle with OpenMoji's colour and line groups."""
    svg = (f'<svg id="emoji" viewBox="0 0 72 72" xmlns="http://www.w3.org/2000/svg">'
           f'<g id="color"><rect x="{x0 + 1}" y="{y0 + 1}" width="{x1 - x0 - 2}" height="{y1 - y0 - 2}" '
           f'fill="{colour}"/></g><g id="line"><rect x="{x0 + 1}" y="{y0 + 1}" width="{x1 - x0 - 2}" '
           f'height="{y1 - y0 - 2}" fill="none" stroke="#000" stroke-width="2"/></g></svg>').encode()
    return compose.Source(name, svg, (x0, y0, x1, y1))


BIG = drawing("big", 10, 8, 62, 64)          # 52 x 56
# with a third layer over the lines (as OpenMoji's line-supplement): made_of draws it over the tiles
LAYERED = compose.Source("layered", BIG.svg.replace(
    b"</svg>", b'<g id="line-supplement"><line x1="20.12345" y1="30" x2="50" y2="30" fill="none" stroke="#000" '
               b'stroke-width="2"/></g></svg>'), BIG.box)
SMALL = drawing("small", 20, 26, 52, 46, "#E0A030")    # 32 x 20


def inside(inner, outer, slack=1e-6) -> bool:
    return (inner[0] >= outer[0] - slack and inner[1] >= outer[1] - slack and inner[2] <= outer[2] + slack
            and inner[3] <= outer[3] + slack)


def overlaps(p, q) -> bool:
    return p[0] < q[2] and q[0] < p[2] and p[1] < q[3] and q[1] < p[3]


def placed(relation, **options):
    parts, base = compose.layout(compose.Composition(relation, BIG, SMALL, **options))
    return parts, base


def test_in_puts_b_inside_a_at_its_default_size():
    (a, b), base = placed("in")
    assert base is None and a.source is BIG and b.source is SMALL and b.halo and not a.halo
    assert a.box == BIG.box
    assert inside(b.box, a.box)
    longest = max(b.box[2] - b.box[0], b.box[3] - b.box[1])
    assert longest == pytest.approx(compose.DEFAULT_SIZE["in"] * 56)
    centre = ((b.box[0] + b.box[2]) / 2, (b.box[1] + b.box[3]) / 2)
    assert centre == pytest.approx((36, 36))


def test_atop_sits_b_on_a_overlapping_its_top():
    (a, b), _ = placed("atop")
    assert (b.box[0] + b.box[2]) / 2 == pytest.approx((a.box[0] + a.box[2]) / 2)
    height = b.box[3] - b.box[1]
    assert b.box[3] - a.box[1] == pytest.approx(0.3 * height)      # its lowest 30 % over a
    assert b.box[1] < a.box[1]


def test_holding_puts_b_in_front_of_a_lower_right():
    (a, b), _ = placed("holding")
    assert b.halo and overlaps(a.box, b.box)
    assert (b.box[0] + b.box[2]) / 2 > (a.box[0] + a.box[2]) / 2
    assert (b.box[1] + b.box[3]) / 2 > (a.box[1] + a.box[3]) / 2


def test_beside_a_giant_and_a_tiny_one_on_the_same_ground():
    (a, b), _ = placed("beside")
    assert b.box[3] == pytest.approx(a.box[3]) and b.box[0] > a.box[2] and not overlaps(a.box, b.box)
    assert max(b.box[2] - b.box[0], b.box[3] - b.box[1]) < 0.35 * (a.box[3] - a.box[1])


def test_behind_draws_b_first_and_a_in_front_with_the_halo():
    (back, front), _ = placed("behind")
    assert back.source is SMALL and not back.halo and front.source is BIG and front.halo
    assert back.box[2] > front.box[2] and back.box[1] < front.box[1]     # it shows beyond a's upper right


def test_raining_three_bs_below_a_none_touching():
    a, *drops = placed("raining")[0]
    assert len(drops) == 3 and all(d.source is SMALL for d in drops)
    assert all(d.box[1] > a.box[3] - 1e-6 or not overlaps(d.box, a.box) for d in drops)
    assert not any(overlaps(p.box, q.box) for i, p in enumerate(drops) for q in drops[i + 1:])


def test_made_of_tiles_cover_a_and_are_clipped_to_its_shape():
    tiles, base = placed("made_of")
    assert base.source is BIG and all(t.source is SMALL for t in tiles)
    assert all(overlaps(t.box, BIG.box) for t in tiles)        # none drawn only to be clipped away
    x0, y0, x1, y1 = BIG.box
    gap = 0.05 * max(SMALL.box[2] - SMALL.box[0], SMALL.box[3] - SMALL.box[1])     # between tiles: 8 % of one
    for k in range(21):
        for j in range(21):
            px, py = x0 + (x1 - x0) * k / 20, y0 + (y1 - y0) * j / 20
            assert any(t.box[0] - gap <= px <= t.box[2] + gap and t.box[1] - gap <= py <= t.box[3] + gap
                       for t in tiles), (px, py)
    svg = ET.fromstring(compose.compose(compose.Composition("made_of", BIG, SMALL)))
    ns = {"s": compose.SVG}
    assert svg.find("s:defs/s:clipPath", ns) is not None
    assert svg.findall("s:g", ns)[1].get("clip-path") == "url(#shape)"


def test_mirror_and_tilt():
    (_, b), _ = placed("in", mirror=True)
    assert "scale(-" in b.transform()
    (_, turned), _ = placed("in", tilt=90)
    (_, straight), _ = placed("in")
    w, h = straight.box[2] - straight.box[0], straight.box[3] - straight.box[1]
    assert turned.box[2] - turned.box[0] == pytest.approx(h) and turned.box[3] - turned.box[1] == pytest.approx(w)
    (_, shifted), _ = placed("in", at=(0.1, -0.2))
    assert shifted.centre == pytest.approx((straight.centre[0] + 5.2, straight.centre[1] - 11.2))


def test_the_front_part_is_drawn_over_a_paper_halo_wider_than_its_lines():
    svg = ET.fromstring(compose.compose(compose.Composition("in", BIG, SMALL)))
    ns = {"s": compose.SVG}
    front = svg.findall("s:g", ns)[1]
    halo, drawn = front.findall("s:g", ns)
    assert all(n.get("fill") in (compose.PAPER, "none") and n.get("stroke") == compose.PAPER
               for n in halo.iter() if n.tag.endswith("path"))
    scale = float(re.search(r"scale\(([\d.]+)", front.get("transform")).group(1))
    line, = [n for n in drawn.iter() if n.tag.endswith("path") and n.get("stroke") == "#000"]
    line_halo, = [n for n in halo.iter() if n.tag.endswith("path") and n.get("fill") == "none"]
    fill_halo, = [n for n in halo.iter() if n.tag.endswith("path") and n.get("fill") == compose.PAPER]
    # on the page: the line's 2 units (scaled) and HALO more each side; the fill's edge HALO beyond it
    assert float(line_halo.get("stroke-width")) * scale == pytest.approx(2 * scale + 2 * compose.HALO, abs=0.01)
    assert float(fill_halo.get("stroke-width")) * scale == pytest.approx(2 * compose.HALO, abs=0.01)
    assert float(line.get("stroke-width")) == 2


@pytest.mark.parametrize("relation", compose.RELATIONS)
def test_the_view_box_is_square_and_holds_every_part(relation):
    parts, base = placed(relation)
    x, y, w, h = compose.view_box(parts, base)
    assert w == pytest.approx(h)
    for part in ([base] if base else parts):
        margin = compose.MARGIN
        assert inside(part.box, (x + margin, y + margin, x + w - margin, y + h - margin))
    text = compose.compose(compose.Composition(relation, BIG, SMALL))
    assert text == compose.compose(compose.Composition(relation, BIG, SMALL))       # no chance in it
    assert b"id=\"emoji\"" not in text and b"id=\"color\"" not in text               # no id twice


def test_only_one_idea_keeps_the_whole_pictures_box():
    whole = ET.fromstring(compose.compose(compose.Composition("holding", BIG, SMALL)))
    for only in ("a", "b"):
        alone = ET.fromstring(compose.compose(compose.Composition("holding", BIG, SMALL), only=only))
        assert alone.get("viewBox") == whole.get("viewBox") and len(alone) == 1


@pytest.mark.parametrize("extra", ['<defs><linearGradient id="g"/></defs>', '<rect fill="url(#g)" width="1" '
                                   'height="1"/>', '<use href="#x"/>', '<text>hi</text>'])
def test_a_source_that_refers_to_anything_or_holds_more_than_shapes_is_refused(extra):
    svg = BIG.svg.replace(b"</svg>", extra.encode() + b"</svg>")
    with pytest.raises(ValueError, match="source drawing"):
        compose.compose(compose.Composition("in", compose.Source("odd", svg, BIG.box), SMALL))


# -- a composed deck: every bad entry in one line, with its line ---------------------------------

GOOD = "  - {name: fish in a bulb, relation: in, a: big, b: small, clues: [idea, water, glass]}\n"


def deck_folder(tmp_path, pictures: str, deck_extra: str = "") -> str:
    folder = tmp_path / "mine"
    (folder / "drawings").mkdir(parents=True)
    names = [f"d{i:02d}" for i in range(22)]
    for i in range(len(names)):         # each drawing its own colour: no two pictures the same
        svg = (BIG.svg if i % 2 else SMALL.svg).replace(b"#3F7FBF", f"#{i:02d}7FBF".encode()).replace(
            b"#E0A030", f"#{i:02d}A030".encode())
        (folder / "drawings" / f"{0x1F400 + i:X}.svg").write_bytes(svg)
    drawings = {name: {"code": f"{0x1F400 + i:X}", "box": [10, 8, 62, 64]} for i, name in enumerate(names)}
    drawings["big"] = {"code": "1F401", "box": [10, 8, 62, 64]}
    drawings["small"] = {"code": "1F400", "box": [20, 26, 52, 46]}
    rows = ",\n".join(f"    {json.dumps(k)}: {json.dumps(v)}" for k, v in drawings.items())
    (folder / "drawings" / "sources.json").write_text(
        '{\n  "set": "Mine",\n  "version": "1",\n  "licence": "CC0 1.0",\n  "drawings": {\n' + rows + "\n  }\n}\n")
    filler = "".join(f"  - {{name: pair {i}, relation: in, a: d{i:02d}, b: d{i + 1:02d}}}\n" for i in range(20))
    (folder / "deck.yaml").write_text(f"name: Mine\nsources: drawings\n{deck_extra}pictures:\n{filler}{pictures}")
    return str(folder / "deck.yaml")


def test_a_composed_deck_loads_with_each_pictures_sources_and_licence(tmp_path):
    deck = picture_decks.load(deck_folder(tmp_path, GOOD, deck_extra="licence: CC BY 4.0\n"))
    assert len(deck.pictures) == 21
    fish = deck.pictures[-1]
    assert fish.name == "fish in a bulb" and fish.vector and fish.licence == "CC BY 4.0"
    assert [s["name"] for s in fish.sources] == ["big", "small"]
    assert fish.sources[0] == {"set": "Mine", "version": "1", "code": "1F401", "name": "big", "author": ""}
    no_licence = picture_decks.load(deck_folder(tmp_path / "2", GOOD))
    assert no_licence.pictures[0].licence == "CC0 1.0"            # the set's, when the deck names none


@pytest.mark.parametrize("entry, message", [
    ("  - {name: x, relation: under, a: big, b: small}\n", "relation 'under': one of in, atop"),
    ("  - {name: x, relation: in, a: big, b: whale}\n", "b: 'whale' is not a drawing of drawings/sources.json"),
    ("  - {name: x, relation: in, a: big, b: big}\n", "a and b are the same drawing"),
    ("  - {name: x, relation: in, a: big, b: small, size: 3}\n", "size: a number from 0.1 to 1.5"),
    ("  - {name: x, relation: in, a: big, b: small, at: [2, 0]}\n", "at: [dx, dy], each from -1.5 to 1.5"),
    ("  - {name: x, relation: in, a: big, b: small, mirror: 1}\n", "mirror: true or false"),
    ("  - {name: x, relation: in, a: big, b: small, tilt: 400}\n", "tilt: a number from -180 to 180"),
    ("  - {name: x, relation: in, a: big, b: small, clues: idea}\n", "clues: a list of at most 12 words"),
    ("  - {name: x, relation: in, a: big, b: small, colour: red}\n", "unknown key 'colour'"),
    ("  - {relation: in, a: big, b: small}\n", "a composed picture has a name"),
    ("  - {name: x, relation: in, a: big, b: small, backdrop: sky}\n",
     "backdrop 'sky': one of the deck's backdrops (it has none), or none"),
    ("  - {name: pair 3, relation: in, a: big, b: small}\n", "'pair 3' is the name of the picture on line 7 too"),
])
def test_each_bad_entry_is_refused_with_its_line(tmp_path, entry, message):
    path = deck_folder(tmp_path, entry)
    with pytest.raises(KitgenError) as caught:
        picture_decks.load(path)
    assert message in caught.value.message, caught.value.message
    assert caught.value.source == path and caught.value.line == 24


def test_a_decks_backdrops_are_colours(tmp_path):
    path = deck_folder(tmp_path, GOOD, deck_extra='backdrops: {sky: "#A8D8F0", sea: blue}\n')
    with pytest.raises(KitgenError, match="backdrops: a mapping of names to colours") as caught:
        picture_decks.load(path)
    assert caught.value.line == 3
    path = deck_folder(tmp_path / "2", GOOD + "  - {name: y, relation: in, a: d00, b: small, backdrop: none}\n",
                       deck_extra='backdrops: {sky: "#A8D8F0"}\n')
    deck = picture_decks.load(path)
    assert b'fill="#A8D8F0"' in deck.pictures[0].data and b"#A8D8F0" not in deck.pictures[-1].data


def test_a_deck_without_its_sources_or_with_a_bad_index_is_refused(tmp_path):
    path = deck_folder(tmp_path, GOOD)
    text = open(path).read()
    open(path, "w").write(text.replace("sources: drawings\n", ""))
    with pytest.raises(KitgenError, match="needs the deck's 'sources:' folder"):
        picture_decks.load(path)
    open(path, "w").write(text.replace("sources: drawings", "sources: ../elsewhere"))
    with pytest.raises(KitgenError, match="a folder beside the deck"):
        picture_decks.load(path)
    index = tmp_path / "mine" / "drawings" / "sources.json"
    open(path, "w").write(text)
    index.write_text(index.read_text().replace('"box": [20, 26, 52, 46]', '"box": [20, 26]'))
    with pytest.raises(KitgenError, match=r'drawing \'small\': write \{"code": "1F41F"') as caught:
        picture_decks.load(path)
    assert caught.value.source == str(index) and caught.value.line == 29      # the line naming it
    index.write_text("{not json")
    with pytest.raises(KitgenError, match="not JSON"):
        picture_decks.load(path)


def test_a_bad_composed_deck_fails_the_build_in_one_line(tmp_path):
    path = deck_folder(tmp_path, "  - {name: x, relation: in, a: big, b: whale}\n")
    run = subprocess.run([sys.executable, "-m", "kitgen", "build", "--edition", "pictures", "--deck", path,
                          "--out", str(tmp_path / "out")], capture_output=True, text=True)
    assert run.returncode != 0 and "Traceback" not in run.stderr
    assert run.stderr.strip().splitlines() == [
        f"kitgen: error: {path}:24: b: 'whale' is not a drawing of drawings/sources.json"], run.stderr
    assert not (tmp_path / "out").exists() or not any((tmp_path / "out").rglob("*.pdf"))
    shutil.rmtree(tmp_path / "mine")


def test_made_of_draws_a_over_its_tiles_from_its_first_line_layer_on():
    svg = ET.fromstring(compose.compose(compose.Composition("made_of", LAYERED, SMALL)))
    under, clip, tiles, over = svg.findall("*")[:4]
    assert clip.tag.endswith("defs") and tiles.get("clip-path") == "url(#shape)"
    lines = [n.get("d") for n in over.iter() if n.tag.endswith("path")]
    assert "M20.1 30L50 30" in lines            # the third layer, as a path of absolute coordinates to a tenth
    assert "M20.1 30L50 30" not in [n.get("d") for n in under.iter()]


def test_what_composing_writes_is_pinned_to_its_recipe():
    """The store keeps compositions under COMPOSE_RECIPE: a change to what is written must bump it
    (and this digest), or a machine with a store would print the old picture."""
    digest = hashlib.sha256()
    for relation in compose.RELATIONS:
        digest.update(compose.compose(compose.Composition(relation, BIG, SMALL, backdrop="#A8D8F0")))
        digest.update(compose.compose(compose.Composition(relation, LAYERED, SMALL, size=0.3, at=(0.1, -0.1),
                                                          mirror=True, tilt=12.5)))
    assert (compose.COMPOSE_RECIPE, digest.hexdigest()) == (
        1, "13026299670f24d86c8f858c7ba1dcf14c8c274787c6871879e26e3a360d1715")


def test_a_composition_comes_back_from_the_store_byte_for_byte(tmp_path, monkeypatch):
    monkeypatch.setattr(compose, "_store", compose.ComposedStore(tmp_path / "composed.json"))
    made = compose.composed(compose.Composition("holding", BIG, SMALL))
    compose.store().flush()
    monkeypatch.setattr(compose, "_store", compose.ComposedStore(tmp_path / "composed.json"))
    monkeypatch.setattr(compose, "compose", lambda *a, **k: pytest.fail("composed again"))
    assert compose.composed(compose.Composition("holding", BIG, SMALL)) == made
    (tmp_path / "composed.json").write_text("[1, 2]")            # not a store: counts as empty
    monkeypatch.setattr(compose, "_store", compose.ComposedStore(tmp_path / "composed.json"))
    assert compose.store().get("anything") is None


def test_the_backdrop_stands_apart_from_the_scenes_colours():
    palette = {"sky": "#A8D8F0", "lemon": "#F5E08A", "rose": "#F5B8C8"}
    blue = drawing("blue", 10, 8, 62, 64, "#3F7FBF")
    yellow = drawing("yellow", 20, 26, 52, 46, "#F0D030")
    chosen = compose.backdrop(compose.Composition("in", blue, yellow), palette, "blue and yellow")
    assert chosen == "rose"                                   # neither blue nor yellow
    svg = compose.compose(compose.Composition("in", blue, yellow, backdrop="#F5B8C8"))
    first = ET.fromstring(svg)[0]
    assert first.tag.endswith("rect") and first.get("fill") == "#F5B8C8"       # drawn first, under the scene
    assert first.get("rx")
    alone = ET.fromstring(compose.compose(compose.Composition("in", blue, yellow, backdrop="#F5B8C8"), only="a"))
    assert not any(n.get("fill") == "#F5B8C8" for n in alone.iter())          # an idea alone has none


def test_every_shape_becomes_a_path_of_absolute_coordinates_to_a_tenth():
    svg = (b'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 72 72"><g id="color">'
           b'<circle cx="36" cy="36" r="10.04" fill="#f00"/><rect x="10" y="10" width="20" height="10" rx="2" '
           b'fill="#0f0"/><polygon points="1,1 5,1 5,5" fill="#00f"/><path d="m10.12345 20.5l3.333 0 0 3z" '
           b'fill="#ff0" transform="rotate(10)"/></g></svg>')
    shapes = [n for n in compose._group(compose.Source("s", svg, (0, 0, 72, 72))).iter() if n.tag.endswith("path")]
    assert len(shapes) == 4 and all("cx" not in n.attrib and "points" not in n.attrib for n in shapes)
    circle, rect, polygon, path = (n.get("d") for n in shapes)
    assert circle.startswith("M26 36C") and circle.count("C") == 4 and circle.endswith("Z")     # arcs as cubics
    assert rect.startswith("M12 10L28 10C") and rect.count("C") == 4
    assert polygon == "M1 1L5 1L5 5L1 1Z"
    assert path == "M10.1 20.5L13.5 20.5L13.5 23.5L10.1 20.5Z" and shapes[3].get("transform") == "rotate(10)"
    assert all(re.fullmatch(r"[MLCQZ0-9. -]*", d) and not re.search(r"\.\d\d", d) for d in (circle, rect))


def test_every_picture_says_where_it_is_from(tmp_path):
    icons = picture_decks.load("pictures-en").pictures
    assert icons[0].sources == ({"set": "Phosphor Icons", "version": icons[0].sources[0]["version"],
                                 "name": "acorn", "licence": "MIT"},) and icons[0].licence == "MIT"
    assert icons[0].sources[0]["version"][0].isdigit()
    folder = tmp_path / "mine"
    folder.mkdir()
    for i in range(20):
        (folder / f"p{i:02d}.svg").write_text(f'<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10">'
                                              f'<rect width="{i + 1}" height="5"/></svg>')
    own = picture_decks.load(str(folder)).pictures
    assert own[0].sources == ({"file": "p00.svg"},) and own[0].licence == ""     # a teacher's: unknown
