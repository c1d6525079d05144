"""Pictures are parsed, prepared, decoded and rendered once per content in a process
(kitgen/pictures.py, kitgen/render/pictures.py), and what is kept never changes a byte:
a drawing given from the caches is the drawing made without them."""

import copy
import hashlib
import io
import subprocess
import sys
from collections import Counter

import pytest
from click.testing import CliRunner
from PIL import Image

from kitgen import fonts, layouts, pictures
from kitgen.cli import cli
from kitgen.render import paint, pictures as picture_drawing
from kitgen.render.pdf import new_canvas


def svg(i: int, extra: str = "") -> bytes:
    """A small SVG, different for each ``i``, its circle in currentColor."""
    return (f'<svg xmlns="http://www.w3.org/2000/svg" width="{40 + i}" height="40">'
            f'<circle cx="20" cy="20" r="{5 + i % 10}" fill="currentColor"/>'
            f'<rect x="2" y="2" width="8" height="{4 + i}" fill="#3366cc"/>{extra}</svg>').encode()


TEXT_SVG = svg(90, '<text x="4" y="30" font-family="Times" font-size="9" fill="#aa2200">Hi</text>')
FAINT_SVG = svg(91, '<rect x="20" y="20" width="9" height="9" fill="#00aa00" fill-opacity="0.4"/>')


def png(colour, size=(300, 200), mode="RGB") -> bytes:
    buffer = io.BytesIO()
    Image.new(mode, size, colour).save(buffer, "PNG")
    return buffer.getvalue()


@pytest.fixture
def counted(monkeypatch):
    """Empty picture caches for this test (the process's own are put back after), no picture
    store on disk (tests/test_picture_disk_cache.py tests that), and counters: SVG parses by the
    digest of what svglib was given, renderPDF renders, and raster pictures opened by Pillow."""
    import reportlab.graphics.renderPDF
    import svglib.svglib

    monkeypatch.setattr(pictures, "_drawings", pictures.ContentCache(4096))
    monkeypatch.setattr(pictures, "_store", pictures.SvgStore(None))
    monkeypatch.setattr(picture_drawing, "_drawings", pictures.ContentCache(4096))
    monkeypatch.setattr(picture_drawing, "_codes", pictures.ContentCache(4096))
    monkeypatch.setattr(picture_drawing, "_readers",
                        pictures.ContentCache(1024, budget=128_000_000, weigh=picture_drawing._weight))
    counts = Counter()
    parse, render, open_image = svglib.svglib.svg2rlg, reportlab.graphics.renderPDF.draw, Image.open

    def counting_parse(source, *args, **kwargs):
        counts[hashlib.sha256(source.getvalue()).hexdigest()] += 1
        counts["parses"] += 1
        return parse(source, *args, **kwargs)

    def counting_render(*args, **kwargs):
        counts["renders"] += 1
        return render(*args, **kwargs)

    def counting_open(*args, **kwargs):
        counts["opens"] += 1
        return open_image(*args, **kwargs)

    monkeypatch.setattr(svglib.svglib, "svg2rlg", counting_parse)
    monkeypatch.setattr(reportlab.graphics.renderPDF, "draw", counting_render)
    monkeypatch.setattr(Image, "open", counting_open)
    return counts


def one_page(picture, layout, colour=None, before=None) -> bytes:
    """A PDF of one page with ``picture`` drawn on it as cards draw it."""
    names = fonts.register_roles(layout)
    buffer = io.BytesIO()
    c = new_canvas(buffer, (200, 200), names, cmyk=paint.is_cmyk(layout))
    if before:
        before(c)
    picture_drawing.draw(c, picture, (10, 10, 180, 180), "contain", names["label"], layout,
                         colour or layout.picture_card.picture.colour)
    c.showPage()
    c.save()
    return buffer.getvalue()


def uncached(monkeypatch, make):
    """What ``make()`` gives with every picture cache empty and no picture store (put back after)."""
    with monkeypatch.context() as m:
        m.setattr(pictures, "_drawings", pictures.ContentCache(4096))
        m.setattr(pictures, "_store", pictures.SvgStore(None))
        m.setattr(picture_drawing, "_drawings", pictures.ContentCache(4096))
        m.setattr(picture_drawing, "_codes", pictures.ContentCache(4096))
        m.setattr(picture_drawing, "_readers", pictures.ContentCache(1024, budget=1, weigh=picture_drawing._weight))
        return make()


def test_each_svg_is_parsed_once_for_the_deck_cards_per_card_pngs_proof_and_games(tmp_path, counted):
    folder = tmp_path / "pics"
    folder.mkdir()
    for i in range(20):
        (folder / f"p{i:02d}.svg").write_bytes(svg(i))
    (folder / "photo.png").write_bytes(png((200, 40, 40), size=(1500, 1200)))
    runner = CliRunner()
    for args in (["build", "--edition", "pictures", "--deck", str(folder), "--keys", "2", "--per-card",
                  "--png", "36", "--out", str(tmp_path / "o")],
                 ["build", "--edition", "pictures", "--deck", str(folder), "--keys", "2", "--color", "cmyk",
                  "--out", str(tmp_path / "c")],
                 ["proof", "--edition", "pictures", "--deck", str(folder), "--keys", "2",
                  "--out", str(tmp_path / "p")],
                 ["game", "--edition", "pictures", "--deck", str(folder), "--out", str(tmp_path / "g")]):
        result = runner.invoke(cli, args, catch_exceptions=False)
        assert result.exit_code == 0, result.output
    assert counted["parses"] == 20
    assert sorted(v for k, v in counted.items() if k not in ("parses", "renders", "opens")) == [1] * 20
    assert (tmp_path / "o" / "pics" / "png").is_dir() and (tmp_path / "p" / "pics-proof.pdf").is_file()


def test_an_edited_file_is_parsed_again_an_unchanged_one_is_not(tmp_path, counted):
    from kitgen.games.codenames import picture_decks

    folder = tmp_path / "pics"
    folder.mkdir()
    for i in range(20):
        (folder / f"p{i:02d}.svg").write_bytes(svg(i))
    picture_decks.load(str(folder))
    assert counted["parses"] == 20
    picture_decks.load(str(folder))
    assert counted["parses"] == 20                     # the same bytes: nothing parsed again
    (folder / "p03.svg").write_bytes(svg(3).replace(b'width="43"', b'width="77"'))
    deck = picture_decks.load(str(folder))
    assert counted["parses"] == 21                     # only the edited file, though its path is the same
    assert pictures.drawing_of(deck.pictures[3].data).width == pytest.approx(77 * 0.75)   # px in pt


def test_two_files_with_the_same_bytes_share_one_parse(counted):
    data = svg(5)
    a = pictures.read_picture("a.svg", data, True, source="one/a.svg")
    b = pictures.read_picture("b.svg", bytes(bytearray(data)), True, source="two/b.svg")
    assert counted["parses"] == 1
    assert pictures.parsed_svg(a.data) is pictures.parsed_svg(b.data)


def test_a_picture_that_does_not_parse_is_refused_every_time(counted):
    from kitgen.errors import KitgenError

    for where in ("a.svg", "b.svg"):
        with pytest.raises(KitgenError, match="not an SVG picture that can be read") as err:
            pictures.read_picture(where, b"<svg xmlns='http://www.w3.org/2000/svg'><broken", True)
        assert err.value.source == where
    assert len(pictures._drawings) == 0


def test_content_cache_forgets_the_least_recently_used_within_its_size_and_budget():
    cache = pictures.ContentCache(3)
    for key in "abcd":
        cache.put(key, key.upper())
    assert len(cache) == 3 and cache.get("a") is None
    cache.get("b")                                     # b is now the most recently used
    cache.put("e", "E")
    assert cache.get("c") is None and cache.get("b") == "B" and cache.get("e") == "E"

    weighed = pictures.ContentCache(100, budget=10, weigh=len)
    weighed.put("x", "123456")
    weighed.put("y", "1234")
    assert weighed.weight == 10 and len(weighed) == 2
    weighed.put("z", "12")                             # over budget: x, the oldest, goes
    assert weighed.get("x") is None and weighed.weight == 6
    weighed.put("big", "12345678901")                  # heavier than the whole budget: not kept
    assert weighed.get("big") is None and weighed.weight == 6
    weighed.put("y", "123")                            # kept again: weighed again
    assert weighed.weight == 5


def test_a_parse_forgotten_by_a_full_cache_is_parsed_again_to_the_same_drawing(monkeypatch, counted):
    layout = layouts.load("pictures")
    monkeypatch.setattr(pictures, "_drawings", pictures.ContentCache(2))
    monkeypatch.setattr(picture_drawing, "_drawings", pictures.ContentCache(2))
    monkeypatch.setattr(picture_drawing, "_codes", pictures.ContentCache(2))
    first = [pictures.read_picture(f"{i}.svg", svg(i), True) for i in range(3)]
    assert counted["parses"] == 3 and len(pictures._drawings) == 2
    page = one_page(first[0], layout)                  # its parse was forgotten
    assert counted["parses"] == 4
    assert page == uncached(monkeypatch, lambda: one_page(first[0], layout))


@pytest.mark.parametrize("overlays", [(), ("cmyk",)])
def test_operators_given_again_are_the_operators_rendered(monkeypatch, counted, overlays):
    cat = pictures.read_picture(*pictures.icon("phosphor:cat", "t", None), True)
    layout = layouts.load("pictures", overlays)
    first = one_page(cat, layout)
    second = one_page(cat, layout)
    assert counted["renders"] == 1                     # the second document was given the first's operators
    assert first == second == uncached(monkeypatch, lambda: one_page(cat, layout))
    counted["renders"] = 0
    red = one_page(cat, layout, colour="red")          # another colour is another drawing
    assert counted["renders"] == 1 and red != first


@pytest.mark.parametrize("data", [TEXT_SVG, FAINT_SVG], ids=["text", "transparency"])
def test_drawings_that_name_resources_are_rendered_in_every_document(monkeypatch, counted, data):
    picture = pictures.read_picture("p.svg", data, True)
    layout = layouts.load("pictures")
    pages = [one_page(picture, layout) for _ in range(2)]
    assert counted["renders"] == 2 and len(picture_drawing._codes) == 0
    assert pages[0] == pages[1] == uncached(monkeypatch, lambda: one_page(picture, layout))


def test_the_canvas_state_a_drawing_meets_is_part_of_what_is_given_again(monkeypatch, counted):
    """A drawing's operators depend on the canvas's transparency too: a canvas in another
    state (transparency, fill rule) gets what rendering there gives, not what another got."""
    from reportlab.pdfgen.canvas import FILL_NON_ZERO

    picture = pictures.read_picture("p.svg", svg(7), True)
    layout = layouts.load("pictures")
    one_page(picture, layout)

    def faint(c):
        c.setFillAlpha(0.5)

    def non_zero(c):
        c._fillMode = FILL_NON_ZERO

    for before in (faint, non_zero):
        assert one_page(picture, layout, before=before) == uncached(
            monkeypatch, lambda before=before: one_page(picture, layout, before=before))


def old_prepared(parsed, stand_in, font, current, cmyk):
    """How drawings were made ready before: a deep copy, changed in place."""
    def prepare(node):
        if hasattr(node, "fontName"):
            node.fontName = font
        for attr in ("fillColor", "strokeColor"):
            value = getattr(node, attr, None)
            if value is None or not hasattr(value, "red"):
                continue
            if value.hexval() == stand_in:
                alpha = getattr(value, "alpha", 1)
                setattr(node, attr, current if alpha == 1 else current.clone(alpha=alpha))
            elif cmyk:
                setattr(node, attr, paint.to_cmyk(value))
        for child in getattr(node, "contents", ()):
            prepare(child)

    drawing = copy.deepcopy(parsed)
    drawing.initialFontName = font
    prepare(drawing)
    return drawing


def rendered(drawing, names, cmyk: bool) -> bytes:
    from reportlab.graphics import renderPDF

    buffer = io.BytesIO()
    c = new_canvas(buffer, (200, 200), names, cmyk=cmyk)
    renderPDF.draw(drawing, c, 0, 0)
    c.showPage()
    c.save()
    return buffer.getvalue()


def fill_colours(node) -> list:
    own = [node.fillColor.hexval()] if getattr(node, "fillColor", None) is not None else []
    return own + [colour for child in getattr(node, "contents", ()) for colour in fill_colours(child)]


@pytest.mark.parametrize("overlays", [(), ("cmyk",)])
def test_a_prepared_copy_draws_as_a_deep_copy_prepared_in_place_and_leaves_the_parse_alone(counted, overlays):
    layout = layouts.load("pictures", overlays)
    names = fonts.register_roles(layout)
    current = paint.colour(layout, "red")
    cmyk = paint.is_cmyk(layout)
    for data in (svg(1), TEXT_SVG, FAINT_SVG, pictures.icon("phosphor:tree", "t", None)[1]):
        parsed, stand_in = pictures.parsed_svg(data)
        stand_in = "0x" + stand_in[1:].lower()
        parse_before = rendered(parsed, names, False)
        new = picture_drawing._prepared(parsed, names["label"], stand_in, current, cmyk)
        new.initialFontName = names["label"]
        old = old_prepared(parsed, stand_in, names["label"], current, cmyk)
        assert rendered(new, names, cmyk) == rendered(old, names, cmyk)
        assert rendered(parsed, names, False) == parse_before
        assert stand_in in fill_colours(parsed)       # the parse keeps its stand-in, not the layout's colour
        assert stand_in not in fill_colours(new)


def test_a_raster_picture_is_decoded_once_per_colour_mode(monkeypatch, counted):
    rgba = pictures.read_picture("t.png", png((200, 30, 30, 128), mode="RGBA"), False)
    for overlays in ((), ("cmyk",)):
        layout = layouts.load("pictures", overlays)
        counted["opens"] = 0
        pages = [one_page(rgba, layout) for _ in range(3)]
        assert counted["opens"] == 1
        assert pages[0] == pages[1] == pages[2] == uncached(monkeypatch, lambda layout=layout: one_page(rgba, layout))


def test_a_raster_picture_heavier_than_the_budget_is_decoded_each_time(monkeypatch, counted):
    monkeypatch.setattr(picture_drawing, "_readers",
                        pictures.ContentCache(1024, budget=10_000, weigh=picture_drawing._weight))
    photo = pictures.read_picture("big.png", png((20, 90, 200)), False)
    layout = layouts.load("pictures")
    counted["opens"] = 0
    pages = [one_page(photo, layout) for _ in range(2)]
    assert counted["opens"] == 2 and len(picture_drawing._readers) == 0
    assert pages[0] == pages[1]


def test_a_kit_built_twice_in_one_process_is_the_kit_a_new_process_builds(tmp_path, counted):
    folder = tmp_path / "pics"
    folder.mkdir()
    for i in range(16):
        (folder / f"p{i:02d}.svg").write_bytes(svg(i) if i % 4 else svg(i, '<text x="2" y="38">x</text>'))
    for i, mode in enumerate(("RGB", "RGBA", "P", "L")):
        Image.new(mode, (120 + i, 90), 60 + 40 * i).save(folder / f"r{i}.png")
    Image.new("RGB", (150, 100), (10, 200, 30)).save(folder / "j.jpg", quality=80)
    runner = CliRunner()
    for colour in ("rgb", "cmyk"):
        outs = [tmp_path / f"{colour}-{n}" for n in range(3)]
        for out in outs[:2]:
            result = runner.invoke(cli, ["build", "--edition", "pictures", "--deck", str(folder), "--keys", "2",
                                         "--color", colour, "--out", str(out)], catch_exceptions=False)
            assert result.exit_code == 0, result.output
        subprocess.run([sys.executable, "-m", "kitgen", "build", "--edition", "pictures", "--deck", str(folder),
                        "--keys", "2", "--color", colour, "--out", str(outs[2])], check=True, capture_output=True)
        kits = [{p.relative_to(out): p.read_bytes() for p in sorted(out.rglob("*")) if p.is_file()} for out in outs]
        assert kits[0] and kits[0] == kits[1] == kits[2]
