"""The deduction board as a town and the player aid (issue 26, points 10 and 7, docs/design.md
§10.6): names and track numbers legible at arm's length, read from board.pdf on A3 and on the
A4 pieces; a location holds two standees beside its tile slots (from the layout's geometry and
from the drawn board); water and parks never lie under a location or a street; the aid has the
map, hanging indents, no text outside it and a full bottom third, in en and ru, for 2 and 5
players, on A4 and Letter."""

import subprocess
import sys
import types

import pypdfium2 as pdfium
import pytest
import yaml

from kitgen.games.deduction import build, layout as layout_mod, texts, theme as theme_mod
from kitgen.games.deduction.render import aids, board, town

from raster import page_chars, render_page

MM = 72 / 25.4
NAME_MIN, NUMBER_MIN = 14, 12          # points, on the board as printed (A3 whole or A4 pieces: one scale)


@pytest.fixture(scope="module")
def built(tmp_path_factory):
    out = tmp_path_factory.mktemp("board")
    kits = {}
    for lang, players, paper, board_paper in (("en", "2", "a4", "a3"), ("ru", "5", "a4", "a3"),
                                              ("en", "5", "a4", "a4"), ("ru", "2", "letter", "letter")):
        folder = out / f"{lang}-{players}-{board_paper}"
        done = subprocess.run([sys.executable, "-m", "kitgen", "build", "--game", "deduction", "--lang", lang,
                               "--players", players, "--paper", paper, "--board-paper", board_paper,
                               "--out", str(folder)], capture_output=True, text=True)
        assert done.returncode == 0, done.stderr
        kits[lang, int(players), board_paper] = folder / f"deduction-{lang}"
    return kits


def chars(pdf, index: int) -> list[tuple[str, float, float, float]]:
    """Page ``index``'s characters as pdfium reads them: (char, font size, x, y), in drawing order."""
    document = pdfium.PdfDocument(str(pdf))
    out = page_chars(document[index])
    document.close()
    return out


def sizes_of(found, needle: str) -> list[float]:
    """The sizes of the characters of every occurrence of ``needle`` (spaces aside) in ``found``."""
    flat = "".join(c for c, *_ in found)
    needle = needle.replace(" ", "")
    out, start = [], flat.find(needle)
    while start >= 0:
        out += [found[k][1] for k in range(start, start + len(needle))]
        start = flat.find(needle, start + 1)
    return out


@pytest.mark.parametrize("key", [("en", 2, "a3"), ("ru", 5, "a3"), ("en", 5, "a4"), ("ru", 2, "letter")],
                         ids=lambda k: "-".join(map(str, k)))
def test_names_and_track_numbers_are_legible_at_arms_length(built, key):
    lang = key[0]
    theme = theme_mod.load(theme_mod.resolve(None, lang))
    pdf = built[key] / "board.pdf"
    pages = len(pdfium.PdfDocument(str(pdf)))
    assert pages == (1 if key[2] == "a3" else 2)
    from kitgen import layouts

    layout = layout_mod.load()
    pieces = board.pieces(layout, layouts.page_size(layout, key[2]), layout.board.tiling.label.size * 3)
    assert len(pieces) == pages
    found, name_sizes = [], {}
    for piece in pieces:                   # what is printed of the board itself, not the notes round a piece
        (ax, ay), (x0, y0, w, h) = piece.at, piece.board
        on_page = chars(pdf, piece.number - 1)
        found += [c for c in on_page if ax + x0 <= c[2] <= ax + x0 + w and ay + y0 <= c[3] <= ay + y0 + h]
        for i in range(len(theme.city.names)):     # the characters in each location's name box (a name
            nx, ny, nw, nh = board.parts(layout, board.location_box(layout, theme.city, i)).name   # may be cut)
            name_sizes.setdefault(i, []).extend(
                c[1] for c in on_page if ax + nx - 1 <= c[2] <= ax + nx + nw and ay + ny - 1 <= c[3] <= ay + ny + nh
                and ax + x0 <= c[2] <= ax + x0 + w)
    assert all(name_sizes.values())
    if pages == 1:
        for name in theme.city.names:
            assert sizes_of(found, name), name
    name_sizes = {s for sizes in name_sizes.values() for s in sizes}
    assert len(name_sizes) == 1 and min(name_sizes) >= NAME_MIN, name_sizes       # one size, at least 14 pt
    numbers = [size for ch, size, *_ in found if ch.isdigit() or ch == "\u2212"]
    assert len(numbers) >= 22 + 11 and min(numbers) >= NUMBER_MIN, min(numbers)
    labels = texts.load(lang).labels
    for label in (labels.score_track, labels.penalty_track):
        assert min(sizes_of(found, label)) >= NUMBER_MIN


def test_the_sizes_before_the_issue_were_smaller():
    """What the board printed before (issue 26): 10 pt names, 8 pt track numbers on A3."""
    spec = layout_mod.load().board
    assert spec.location.name.size >= NAME_MIN and spec.score_track.size >= NUMBER_MIN
    assert spec.penalty_track.size >= NUMBER_MIN


def test_two_standees_stand_on_every_location_clear_of_its_slots():
    """From the layout: each location's spot holds two feet of a folded standee (tokens.investigator
    wide), side by side, inside the box, touching neither tile slot nor the name."""
    layout = layout_mod.load()
    spec = layout.board.location
    standee = layout.tokens.investigator[0]
    theme = theme_mod.load(theme_mod.resolve(None, "en"))
    for i in range(len(theme.city.names)):
        box = board.location_box(layout, theme.city, i)
        p = board.parts(layout, box)
        assert len(p.feet) == spec.spot.standees >= 2
        for foot in p.feet:
            assert abs(foot[2] - standee) < 1e-6 and foot[3] >= 10 * MM
            assert inside(foot, p.spot) and inside(foot, box)
            for other in (p.suspect, p.crime, p.name, p.emblem):
                assert not overlap(foot, other)
        assert not overlap(p.feet[0], p.feet[1])
        for slot in (p.suspect, p.crime):
            assert slot[2] >= max(layout.city_tile.size)


def test_the_drawn_board_keeps_the_standees_feet_clear_of_the_slots(built):
    """On the printed A3 board: no pixel of a tile slot's outline (the suspect and crime colours)
    lies where a standee's feet go, and each slot's outline is there, beside them."""
    layout = layout_mod.load()
    theme = theme_mod.load(theme_mod.resolve(None, "en"))
    dpi = 100
    image = render_page(str(built["en", 2, "a3"] / "board.pdf"), 0, dpi)
    page_w, page_h = image.width * 72 / dpi, image.height * 72 / dpi
    bw, bh = layout.board.size
    ox, oy = (page_w - bw) / 2, (page_h - bh) / 2            # the board centred on its page

    def pixels(box):
        x, y, w, h = box
        s = dpi / 72
        crop = image.crop((round((ox + x) * s) + 1, round((page_h - oy - y - h) * s) + 1,
                           round((ox + x + w) * s) - 1, round((page_h - oy - y) * s) - 1))
        data = crop.tobytes()
        return [tuple(data[k:k + 3]) for k in range(0, len(data), 3)]

    def slot_coloured(rgb) -> bool:            # suspect #2E6A8A, crime #9A2F4C: saturated, dark
        r, g, b = rgb
        return max(rgb) - min(rgb) > 60 and min(rgb) < 110 and not (g > r and g > b)

    for i in range(len(theme.city.names)):
        p = board.parts(layout, board.location_box(layout, theme.city, i))
        for foot in p.feet:
            assert not any(slot_coloured(px) for px in pixels(foot)), (theme.city.names[i], foot)
        for slot in (p.suspect, p.crime):
            assert sum(slot_coloured(px) for px in pixels(slot)) > 50          # its outline and emblem


def inside(a, b) -> bool:
    return a[0] >= b[0] - 1e-6 and a[1] >= b[1] - 1e-6 and a[0] + a[2] <= b[0] + b[2] + 1e-6 and \
        a[1] + a[3] <= b[1] + b[3] + 1e-6


def overlap(a, b) -> bool:
    return a[0] < b[0] + b[2] and b[0] < a[0] + a[2] and a[1] < b[1] + b[3] and b[1] < a[1] + a[3]


def grid_theme(tmp_path, across: int, down: int):
    names = [f"Place {n}" for n in range(across * down)]
    roads = [[names[r * across + c - 1], names[r * across + c]] for r in range(down) for c in range(1, across)]
    roads += [[names[(r - 1) * across + c], names[r * across + c]] for r in range(1, down) for c in range(across)]
    data = {"game": "deduction", "id": "grid", "name": "Grid", "language": "en", "seed": "grid-town",
            "suspects": [f"S{i}" for i in range(12)], "crimes": [f"C{i}" for i in range(10)],
            "locations": [{"name": n, "at": [(k % across) / (across - 1), (k // across) / (down - 1)]}
                          for k, n in enumerate(names)], "roads": roads}
    path = tmp_path / "grid.yaml"
    path.write_text(yaml.safe_dump(data))
    return path


@pytest.mark.parametrize("which", ["en", "ru", "grid-of-12", "grid-of-30"])
def test_water_and_parks_never_lie_under_a_location_or_a_street(tmp_path, which):
    """The town's model: every water and park outline stays clear of every location's box, every
    street (its width with its kerbs) and the map's edge, and the shapes do not touch each other."""
    if which.startswith("grid"):
        across, down = (4, 3) if which == "grid-of-12" else board.capacity(layout_mod.load())
        theme = theme_mod.load(grid_theme(tmp_path, across, down))
        kit = build.Kit(theme, 2)
    else:
        kit = build.load(language=which)
    prepared = build.prepare(kit)
    layout, theme = prepared.layout, prepared.theme
    made = board.town_of(layout, theme)
    road = layout.board.road
    half = road.width / 2 + road.kerb.width
    if which in ("en", "ru"):
        assert {s.kind for s in made.shapes} == {"water", "park"} and len(made.houses) > 40
    mx, my, mw, mh = layout.board.map.box
    for shape in made.shapes:
        outline = list(shape.outline)
        for box in made.boxes:
            assert town.polygon_box_distance(outline, box) > 0
        for a, b in made.streets:
            assert town.polygon_segment_distance(outline, a, b) > half
        assert all(mx < x < mx + mw and my < y < my + mh for x, y in outline)
        for other in made.shapes:
            if other is not shape:
                assert not any(town.inside_polygon(p, list(other.outline)) for p in outline)
    for house in made.houses:
        for box in made.boxes:
            assert town.polygon_box_distance(list(house), box) > 0
        for a, b in made.streets:
            assert town.polygon_segment_distance(list(house), a, b) > half


def test_the_town_is_the_same_every_time_and_follows_the_seed():
    kit = build.load()
    prepared = build.prepare(kit)
    one = board.town_of(prepared.layout, prepared.theme)
    assert one == board.town_of(prepared.layout, prepared.theme)
    import dataclasses

    other = board.town_of(prepared.layout, dataclasses.replace(prepared.theme, seed="another"))
    assert other.houses != one.houses


# --- the player aid -------------------------------------------------------------------------

def aid_geometry(kit_dir, lang: str, players: int, paper: str):
    """(pdf, prepared kit, grid) of a built kit's aids."""
    from kitgen.render.document import sheet_grid

    kit = build.load(language=lang, players=players, paper=paper)
    prepared = build.prepare(kit)
    cards = prepared.card_sets["aids"]
    return kit_dir / "aids.pdf", prepared, sheet_grid(prepared.layout, cards.spec, prepared.page_size)


@pytest.mark.parametrize("key", [("en", 2, "a3"), ("ru", 5, "a3"), ("en", 5, "a4"), ("ru", 2, "letter")],
                         ids=lambda k: "-".join(map(str, k)))
def test_each_player_has_an_aid_with_the_map_indents_and_a_full_card(built, key):
    lang, players, board_paper = key
    paper = "letter" if board_paper == "letter" else "a4"
    pdf, prepared, grid = aid_geometry(built[key], lang, players, paper)
    layout = prepared.layout
    spec = layout.aid
    assert grid.per_sheet >= 2 and not grid.rotated
    document = pdfium.PdfDocument(str(pdf))
    fronts = [i for i in range(len(document)) if document[i].get_textpage().get_text_range().strip()]
    assert len(fronts) == -(-players // grid.per_sheet)          # two-sided: each sheet then its blank back
    assert all(not document[i].get_textpage().get_text_range().strip() for i in range(len(document))
               if i not in fronts) and len(document) == 2 * len(fronts)
    labels = texts.load(lang).labels
    theme = prepared.theme
    left_w, _ = aids.column_widths(layout)
    seen = 0
    from kitgen.render.document import card_part

    sheets = [page for page in card_part(prepared.card_sets["aids"], layout, prepared.page_size, "long").pages
              if page.side != "back"]
    seen_pages = []
    for index in fronts:
        found = chars(pdf, index)
        image = render_page(str(pdf), index, 60)
        page_h = image.height * 72 / 60
        # where the cards of this sheet lie, as the build placed them (a sheet's last card alone is centred)
        placed = [p.rect_to_page(spec.size[0], spec.size[1], (0, 0, *spec.size))
                  for _, p in sheets[len(seen_pages)].cards]
        seen_pages.append(index)
        for x0, y0, x1, y1 in placed:
            slot = types.SimpleNamespace(x=x0, y=y0, width=x1 - x0, height=y1 - y0)
            mine = [c for c in found if x0 <= c[2] <= x0 + slot.width and y0 <= c[3] <= y0 + slot.height]
            # no text outside the card's margins
            low = [c for c in mine if not (x0 + spec.margin - 0.5 <= c[2] and c[3] >= y0 + spec.margin - 1)]
            assert mine and not low, low[:5]
            assert all(c[2] <= x0 + slot.width - spec.margin for c in mine)
            flat = "".join(c for c, *_ in mine)
            assert labels.player.format(n=seen + 1).replace(" ", "") in flat
            for name in theme.city.names:
                assert flat.count(name.replace(" ", "")) >= 2        # in the list, and on the map
            # hanging indents: in each column, every line of text (the map's small names aside) starts at
            # the column's edge (a heading, a term) or one indent in (a term's following lines), and some do
            columns = (x0 + spec.margin, x0 + spec.margin + left_w + spec.column_gap)
            for k, column in enumerate(columns):
                end = columns[1] - spec.column_gap / 2 if k == 0 else x0 + slot.width
                lines = {}
                for _, size, x, y in mine:
                    if size >= spec.body.min_size and column - 1 <= x < end and y < y0 + slot.height - spec.band.height:
                        lines[round(y, 0)] = min(lines.get(round(y, 0), x), x)
                starts = [x - column for x in lines.values()]
                assert all(abs(s) < 1 or abs(s - spec.indent) < 1 for s in starts), [s for s in starts if abs(s) >= 1]
                assert sum(abs(s - spec.indent) < 1 for s in starts) >= 3
            # the bottom third is not empty: text in the right column, the map in the left
            third = y0 + slot.height / 3
            assert any(c[3] < third and c[2] > x0 + spec.margin + left_w for c in mine)
            mx, my, mw, mh, _ = aids.map_box(layout, (spec.margin, spec.margin, left_w, slot.height / 2))
            assert my < slot.height / 3
            crop = image.crop((round((x0 + spec.margin) * 60 / 72), round((page_h - third) * 60 / 72),
                               round((x0 + spec.margin + left_w) * 60 / 72),
                               round((page_h - y0 - spec.margin) * 60 / 72)))
            data = crop.tobytes()
            colours = {tuple(data[k:k + 3]) for k in range(0, len(data), 3)}
            kerb = tuple(int(layout.colours["kerb"].rgb[i:i + 2], 16) for i in (1, 3, 5))
            assert any(sum(abs(a - b) for a, b in zip(px, kerb)) < 40 for px in colours)    # the streets
            seen += 1
    assert seen == players
