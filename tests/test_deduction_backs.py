"""Every deduction card and tile back carries the emblem README promises (issue 26, point 12): the
deck's emblem in the paper colour on the deck's colour, case cards, evidence cards (a sheet of
notes) and both kinds of tile, so backs are told apart without colour. Pixel tests on tiny rasters
of each back, drawn alone."""

import io

import pypdfium2 as pdfium
import pytest
from reportlab.pdfgen import canvas

from kitgen.games.deduction import build
from kitgen.render import paint

DPI = 150


@pytest.fixture(scope="module")
def prepared():
    return build.prepare(build.load())


def back_raster(card_set, index: int):
    """Back ``index`` of ``card_set`` drawn alone on its trim, as an RGB raster."""
    spec = card_set.spec
    buffer = io.BytesIO()
    c = canvas.Canvas(buffer, pagesize=(spec.width, spec.height))
    card_set.back(c, index)
    c.showPage()
    c.save()
    return pdfium.PdfDocument(buffer.getvalue())[0].render(scale=DPI / 72).to_pil().convert("RGB")


def share_of(image, box, colour, tolerance=10) -> float:
    """The share of pixels in ``box`` (points, from the bottom left) within ``tolerance`` of ``colour``."""
    x, y, w, h = (v * DPI / 72 for v in box)
    top = image.height - (y + h)
    region = image.crop((round(x), round(top), round(x + w), round(top + h)))
    near = sum(1 for pixel in region.get_flattened_data()
               if max(abs(a - b) for a, b in zip(pixel, colour)) <= tolerance)
    return near / (region.width * region.height)


def rgb(layout, name):
    return tuple(round(v * 255) for v in paint.colour(layout, name).rgb())


@pytest.mark.parametrize("part, section", [("cases", "case_card"), ("evidence", "case_card"), ("tiles", "city_tile")])
def test_every_back_carries_its_emblem(prepared, part, section):
    layout, card_set = prepared.layout, prepared.card_sets[part]
    box = layout[section].back.emblem.box
    paper = rgb(layout, "paper")
    seen = set()
    for index in range(card_set.count):
        image = back_raster(card_set, index)
        assert share_of(image, box, paper) > 0.05, (part, index)          # the emblem, in the paper colour
        seen.add(image.tobytes())
    kinds = {"cases": 3, "evidence": 1, "tiles": 2}[part]
    assert len(seen) == kinds                   # one back per deck or kind of tile, each drawn the same
