"""Imposition, crop marks and duplex placement: geometry, then pixels on a tiny raster."""

import pytest
from hypothesis import given, strategies as st
from reportlab.lib.colors import Color

from kitgen.render import document
from kitgen.render.cards import CardSet
from kitgen.render.sheet import CardSpec, Placement, back_of, crop_marks, impose, paginate
from kitgen.units import mm

from raster import render_page

A4 = (mm(210), mm(297))
LETTER = (8.5 * 72, 11 * 72)


def test_key_cards_fill_a4_and_letter_twelve_to_a_sheet(default_layout):
    spec = CardSpec(*default_layout.key_card.size, default_layout.key_card.bleed, default_layout.key_card.gutter)
    for paper in (A4, LETTER):
        grid = impose(*paper, mm(5), spec, mm(5))
        assert (grid.cols, grid.rows, grid.rotated) == (3, 4, False)


def test_imposer_turns_cards_when_more_fit(default_layout):
    card = default_layout.codename_card
    spec = CardSpec(*card.size, card.bleed, card.gutter)
    # A4: 64 x 42 mm upright 2 x 6 = 12 per sheet, turned 4 x 4 = 16
    grid = impose(*A4, mm(5), spec, mm(5))
    assert grid.rotated and grid.per_sheet == 16
    assert all(slot.rotation == 90 for slot in grid.slots)
    # Letter is wider: upright 3 x 6 = 18 beats turned 4 x 4
    grid = impose(*LETTER, mm(5), spec, mm(5))
    assert not grid.rotated and grid.per_sheet == 18


def test_every_card_and_mark_stays_inside_the_printable_margin(default_layout):
    for section in (default_layout.codename_card, default_layout.key_card, default_layout.tile):
        spec = CardSpec(*section.size, section.bleed, section.gutter)
        for paper in (A4, LETTER):
            grid = impose(*paper, mm(5), spec, mm(5))
            page = paginate(grid.per_sheet, grid, "long")[0]
            for x0, y0, x1, y1 in crop_marks(page, spec.bleed, mm(1), mm(4)):
                for x, y in ((x0, y0), (x1, y1)):
                    assert mm(5) - 1e-6 <= x <= paper[0] - mm(5) + 1e-6
                    assert mm(5) - 1e-6 <= y <= paper[1] - mm(5) + 1e-6


def test_crop_marks_never_touch_a_card_or_its_bleed():
    spec = CardSpec(mm(57), mm(57), mm(3), mm(6))
    grid = impose(*A4, mm(5), spec, mm(5))
    page = paginate(grid.per_sheet, grid, "long")[0]
    marks = crop_marks(page, spec.bleed, mm(1), mm(4))
    assert marks
    for x0, y0, x1, y1 in marks:
        for _, p in page.cards:
            b = spec.bleed
            overlaps_x = min(x0, x1) < p.x + p.width + b and max(x0, x1) > p.x - b
            overlaps_y = min(y0, y1) < p.y + p.height + b and max(y0, y1) > p.y - b
            assert not (overlaps_x and overlaps_y)


def test_crop_marks_line_up_with_every_trim_edge():
    spec = CardSpec(mm(57), mm(57), mm(3), mm(6))
    grid = impose(*A4, mm(5), spec, mm(5))
    page = paginate(grid.per_sheet, grid, "long")[0]
    vertical = {round(x0, 3) for x0, y0, x1, y1 in crop_marks(page, spec.bleed, mm(1), mm(4)) if x0 == x1}
    edges = {round(v, 3) for _, p in page.cards for v in (p.x, p.x + p.width)}
    assert vertical == edges and len(edges) == 6


def test_back_slots_long_edge_reverse_columns_short_edge_reverse_rows():
    spec = CardSpec(mm(57), mm(57), mm(3), mm(6))
    grid = impose(*A4, mm(5), spec, mm(5))
    slot = {(round(p.x), round(p.y)): i for i, p in enumerate(grid.slots)}
    for duplex, expect in (("long", lambda r, c: (r, grid.cols - 1 - c)),
                           ("short", lambda r, c: (grid.rows - 1 - r, c)),
                           ("none", lambda r, c: (r, c))):
        for i, front in enumerate(grid.slots):
            back = back_of(front, *A4, duplex)
            r, c = divmod(i, grid.cols)
            assert slot[(round(back.x), round(back.y))] == expect(r, c) [0] * grid.cols + expect(r, c)[1]


@given(rotation=st.sampled_from([0, 90]), duplex=st.sampled_from(["long", "short"]),
       landscape=st.booleans(), u=st.floats(0, 1), v=st.floats(0, 1))
def test_a_back_lies_behind_its_front_with_the_same_top_edge(rotation, duplex, landscape, u, v):
    """Seen through the sheet, the back's point (u, v) is the front's point (w - u, v):
    the card is turned over about its own vertical axis, so its top stays its top."""
    w, h = 60.0, 40.0
    page_w, page_h = (700.0, 500.0) if landscape else (500.0, 700.0)
    pw, ph = (h, w) if rotation in (90, 270) else (w, h)
    front = Placement(100.0, 200.0, pw, ph, rotation)
    back = back_of(front, page_w, page_h, duplex)
    bx, by = back.to_page(w, h, u * w, v * h)
    # the sheet turns over about its long edge or its short edge
    mirror_x = (duplex == "long") != landscape
    through = (page_w - bx, by) if mirror_x else (bx, page_h - by)
    fx, fy = front.to_page(w, h, w - u * w, v * h)
    assert through == pytest.approx((fx, fy), abs=1e-6)


# --- pixels: fronts and backs of six numbered cards on a tiny page --------------

PALETTE = {0: (230, 30, 30), 1: (30, 160, 30), 2: (30, 30, 230), 3: (230, 200, 0), 4: (150, 0, 180), 5: (0, 190, 200)}


def nearest(rgb):
    return min(PALETTE, key=lambda k: sum((a - b) ** 2 for a, b in zip(PALETTE[k], rgb)))


def tiny_part(duplex, default_layout, page, size=(25, 20)):
    spec = CardSpec(mm(size[0]), mm(size[1]), 0, 0)

    def face(c, i, is_back):
        r, g, b = (v / 255 for v in PALETTE[i])
        c.setFillColor(Color(r, g, b))
        c.rect(0, 0, spec.width, spec.height, stroke=0, fill=1)
        # a black corner on the face's top-left: shows how the face is turned
        c.setFillColor(Color(0, 0, 0))
        c.rect(0, spec.height - mm(6), mm(6), mm(6), stroke=0, fill=1)

    cards = CardSet("t", "t", spec, 6 if size == (25, 20) else 4, lambda c, i: face(c, i, False),
                    lambda c, i: face(c, i, True))
    return document.card_part(cards, default_layout, page, duplex)


def ascii_page(pdf_bytes, index, part, page_size, dpi=40):
    """Each slot of the front grid as the digit of the card printed there."""
    image = render_page(pdf_bytes, index, dpi)
    s = dpi / 72
    rows = []
    for r in range(part.grid.rows):
        row = ""
        for c in range(part.grid.cols):
            slot = part.grid.slots[r * part.grid.cols + c]
            cx, cy = slot.x + slot.width * 0.7, slot.y + slot.height * 0.3
            row += str(nearest(image.getpixel((int(cx * s), int((page_size[1] - cy) * s)))))
        rows.append(row)
    return "/".join(rows)


def corner(pdf_bytes, index, part, page_size, slot_index, dpi=40):
    """Which corner of a slot holds the black orientation mark: 'tl', 'tr', 'bl' or 'br'."""
    image = render_page(pdf_bytes, index, dpi)
    s = dpi / 72
    slot = part.grid.slots[slot_index]
    found = []
    for name, fx, fy in (("tl", 0.08, 0.9), ("tr", 0.92, 0.9), ("bl", 0.08, 0.1), ("br", 0.92, 0.1)):
        x, y = slot.x + slot.width * fx, slot.y + slot.height * fy
        if max(image.getpixel((int(x * s), int((page_size[1] - y) * s)))) < 60:
            found.append(name)
    return found


@pytest.mark.parametrize("duplex, fronts, backs, back_corner", [
    ("long", "01/23/45", "10/32/54", ["tl"]),
    ("short", "01/23/45", "45/23/01", ["br"]),
    ("none", "01/23/45", "01/23/45", ["tl"]),
])
def test_duplex_backs_on_a_tiny_raster(default_layout, duplex, fronts, backs, back_corner):
    page = (mm(70), mm(95))
    part = tiny_part(duplex, default_layout, page)
    assert (part.grid.cols, part.grid.rows, part.grid.rotated) == (2, 3, False)
    pdf, _ = document.render([part], page, default_layout, {"label": _label_font()}, duplex, "t", "t")
    assert ascii_page(pdf, 0, part, page) == fronts
    assert ascii_page(pdf, 1, part, page) == backs
    assert corner(pdf, 0, part, page, 0) == ["tl"]
    # the back of the card in slot 0, wherever it went: its mark is on the same physical top edge
    back_slot = {"long": 1, "short": 4, "none": 0}[duplex]
    assert corner(pdf, 1, part, page, back_slot) == back_corner


def _label_font():
    from kitgen import fonts

    return fonts.register("noto-sans", 400).registered_name


@pytest.mark.parametrize("duplex, fronts, backs, back_corner", [
    ("long", "01/23", "10/32", ["tr"]),
    ("short", "01/23", "23/01", ["bl"]),
])
def test_duplex_backs_of_turned_cards_on_a_tiny_raster(default_layout, duplex, fronts, backs, back_corner):
    """Cards turned 90 degrees to fit: on the front the top-left mark is at the slot's
    bottom-left (the card's top points left); the back's top must be the same edge."""
    page = (mm(70), mm(95))
    part = tiny_part(duplex, default_layout, page, size=(27, 22))
    assert (part.grid.cols, part.grid.rows, part.grid.rotated) == (2, 2, True)
    pdf, _ = document.render([part], page, default_layout, {"label": _label_font()}, duplex, "t", "t")
    assert ascii_page(pdf, 0, part, page) == fronts
    assert ascii_page(pdf, 1, part, page) == backs
    assert corner(pdf, 0, part, page, 0) == ["bl"]
    back_slot = {"long": 1, "short": 2}[duplex]
    assert corner(pdf, 1, part, page, back_slot) == back_corner
