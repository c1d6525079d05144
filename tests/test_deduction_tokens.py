"""The deduction game's tokens cut cleanly (issue 26, point 11): every token's colour runs the
layout's bleed past its cut line, which is drawn in ink on its edge, and nothing past the bleed;
pixel tests on a tiny raster of each kind of token drawn alone."""

import io

import pypdfium2 as pdfium
import pytest
from reportlab.pdfgen import canvas

from kitgen import layouts
from kitgen.games.deduction import build
from kitgen.games.deduction.render import pages
from kitgen.render import paint

DPI = 300
MM = 72 / 25.4


@pytest.fixture(scope="module")
def prepared():
    return build.prepare(build.load())


def drawn(prepared, item):
    """``item`` (as ``pages.token_items`` gives it) drawn alone at (10 mm, 10 mm): its raster."""
    layout, spec = prepared.layout, prepared.layout.tokens
    w, h = item[2], item[3]
    buffer = io.BytesIO()
    c = canvas.Canvas(buffer, pagesize=(w + 20 * MM, h + 20 * MM))
    ink, paper = paint.colour(layout, "ink"), paint.colour(layout, "paper")
    pages._token(c, layout, item, 10 * MM, 10 * MM, paint.colour(layout, spec.line.colour), ink, paper,
                 prepared.fonts[spec.label.font], spec.label.size, prepared.messages.labels, spec.bleed,
                 spec.line.width)
    c.showPage()
    c.save()
    return pdfium.PdfDocument(buffer.getvalue())[0].render(scale=DPI / 72).to_pil().convert("RGB")


def at(image, x_mm: float, y_mm: float):
    """The pixel ``x_mm`` from the left and ``y_mm`` from the bottom of the raster."""
    return image.getpixel((round(x_mm * DPI / 25.4), image.height - 1 - round(y_mm * DPI / 25.4)))


def near(pixel, colour, tolerance=24) -> bool:
    return max(abs(a - b) for a, b in zip(pixel, colour)) <= tolerance


@pytest.mark.parametrize("kind", ["cube", "disc", "investigator"])
def test_each_token_bleeds_past_its_cut_line_and_no_further(prepared, kind):
    layout, spec = prepared.layout, prepared.layout.tokens
    assert spec.bleed > 0 and 2 * spec.bleed < spec.gap          # bleeds of neighbours never meet
    item = next(i for i in pages.token_items(spec, 2) if i[0] == kind and i[1] == 1)
    image = drawn(prepared, item)
    colour = tuple(round(v * 255) for v in paint.colour(layout, "player_1").rgb())
    line = tuple(round(v * 255) for v in paint.colour(layout, spec.line.colour).rgb())
    bleed = spec.bleed / MM
    w, h = item[2] / MM, item[3] / MM
    middle = 10 + h / 2 if kind != "investigator" else 10 + h / 4            # clear of a standee's fold
    left = 10
    assert near(at(image, left - bleed / 2, middle), colour), kind          # the bleed, outside the cut
    assert near(at(image, left - bleed - 0.5, middle), (255, 255, 255)), kind     # and nothing past it
    assert near(at(image, left, middle), line, 80), kind                   # the cut line, on the edge
    assert near(at(image, left + w + bleed / 2, middle), colour), kind
    below = 10 - bleed / 2
    assert near(at(image, 10 + w / 2, below), colour), kind


def test_only_the_kits_players_get_tokens():
    from kitgen.games.deduction import facts

    layout = layouts.load("default")
    for players in range(facts.MIN_PLAYERS, facts.MAX_PLAYERS + 1):
        owners = {item[1] for item in pages.token_items(layout.tokens, players)}
        assert owners == set(range(0, players + 1))


@pytest.mark.parametrize("lang", ["en", "ru"])
def test_every_token_sheet_says_how_to_fold_standees_and_slips(tmp_path, lang):
    import re
    import subprocess
    import sys

    from kitgen.games.deduction import texts

    done = subprocess.run([sys.executable, "-m", "kitgen", "build", "--game", "deduction", "--lang", lang, "--out",
                           str(tmp_path)], cwd=tmp_path, capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    note = texts.load(lang).labels.tokens_fold
    document = pdfium.PdfDocument(tmp_path / f"deduction-{lang}" / "tokens.pdf")
    sheets = [page.get_textpage().get_text_range() for page in document]
    printed = [re.sub(r"\s+", " ", sheet) for sheet in sheets if sheet.strip()]
    assert printed and all(note in sheet for sheet in printed), printed
