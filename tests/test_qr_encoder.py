"""kitgen's QR encoder (docs/design.md §4.5) against the `qrcode` package, module for module,
and the QR as drawn: an image mask whose bits are the modules, read back from a raster."""

import re

import pytest
import qrcode
import zxingcpp
from hypothesis import given, settings, strategies as st
from qrcode.util import MODE_8BIT_BYTE, MODE_ALPHA_NUM, QRData

from kitgen.games.codenames import editions, key_deck, key_payload, single_games
from kitgen.render import qr
from kitgen.render.pdf import new_canvas

from pdfread import Pdf
from raster import render_page


def reference(text: str) -> tuple[tuple[bool, ...], ...]:
    """What `qrcode` makes of the same segments: error correction M, mask 2, smallest version."""
    code = qrcode.QRCode(error_correction=qrcode.constants.ERROR_CORRECT_M, border=0, mask_pattern=qr.FIXED_MASK)
    head, sep, tail = text.rpartition("#")
    for segment in (head + sep, tail) if sep else (text,):
        if set(segment) <= qr.ALPHANUMERIC:
            code.add_data(QRData(segment, mode=MODE_ALPHA_NUM))
        else:
            code.add_data(QRData(segment.encode("utf-8"), mode=MODE_8BIT_BYTE))
    code.make(fit=True)
    return tuple(tuple(row) for row in code.get_matrix())


def deck_payloads(seed: str, edition, count: int, kit: str) -> list[str]:
    secret = key_deck.kit_secret(seed)
    return [key_payload.encode(kit, key, secret) for key in key_deck.generate(seed, edition, count)]


def test_every_key_of_large_decks_has_qrcodes_modules():
    texts = (deck_payloads("qr-words", editions.WORDS, 1500, "classic-en")
             + deck_payloads("qr-pictures", editions.PICTURES, 600, "pictures-fa")
             + [g.payload for g in single_games.deal("qr-games", [f"W{i}" for i in range(60)], editions.WORDS, 300)])
    texts += [f"https://example.org/kit/verify.html#{t}" for t in texts[:200]]      # --verify-url
    assert len(texts) == 2600
    for text in texts:
        assert qr.matrix(text) == reference(text), text


alphanumeric = st.text(alphabet=qr.ALPHANUMERIC_CHARS, min_size=1, max_size=700)
any_text = st.text(alphabet=st.characters(codec="utf-8", exclude_categories=("Cs",)), min_size=1, max_size=300)


@settings(max_examples=400, deadline=None)
@given(st.one_of(alphanumeric, any_text, st.tuples(any_text, alphanumeric).map(lambda p: f"{p[0]}#{p[1]}")))
def test_any_text_gives_qrcodes_modules(text):
    """Every version from 1 up to the twenties, both segment modes, and the count field's widths."""
    assert qr.matrix(text) == reference(text)
    assert qr.modules_across(text) == len(reference(text))


@pytest.mark.parametrize("length", [1, 2, 3, 4, 9, 10, 11, 18, 20, 47, 48, 100, 224, 225, 226, 1000, 1851])
def test_lengths_at_the_edges_of_versions(length):
    text = ("KG1:" * 500)[:length]
    assert qr.matrix(text) == reference(text)


def test_a_text_too_long_for_any_version_is_refused_as_qrcode_refuses_it():
    assert len(qr.rows("A" * 3391)) == 177 == len(reference("A" * 3391))      # version 40, full
    with pytest.raises(ValueError):
        qr.rows("A" * 3392)
    with pytest.raises(ValueError):
        reference("A" * 3392)


def _drawn(text: str, size: float = 100.0) -> bytes:
    import io

    buffer = io.BytesIO()
    c = new_canvas(buffer, (size + 40, size + 40), {"label": "Helvetica"})
    qr.draw(c, text, 20, 20, size, qr_fill())
    c.showPage()
    c.save()
    return buffer.getvalue()


def qr_fill():
    from reportlab.lib.colors import Color

    return Color(0.1, 0.1, 0.1)


def test_the_drawn_mask_holds_exactly_the_modules():
    text = "KG1:CLASSIC-EN:07/40:B:RBNNA/BRRNB/NRBBR/BNRRB/NRBNB:ABCDEF"
    data = _drawn(text)
    pdf = Pdf(data)
    stream = pdf.content(pdf.pages()[0]).decode("latin-1")
    found = re.search(r"BI /W (\d+) /H (\d+) /IM true /BPC 1 /D \[1 0\] /F /AHx ID\n([0-9a-f]+)>\nEI", stream)
    n = len(qr.rows(text))
    assert (int(found.group(1)), int(found.group(2))) == (n, n)
    width = (n + 7) // 8 * 8
    bits = bin(int(found.group(3), 16))[2:].zfill(n * width)
    assert tuple(bits[r * width:r * width + n] for r in range(n)) == qr.rows(text)


@pytest.mark.parametrize("dpi", [150, 300, 600])
def test_the_drawn_qr_reads_back_and_fills_its_box(dpi):
    text = "KG1:CLASSIC-EN:07/40:B:RBNNA/BRRNB/NRBBR/BNRRB/NRBNB:ABCDEF"
    image = render_page(_drawn(text, 34.0), 0, dpi)
    assert [r.text for r in zxingcpp.read_barcodes(image)] == [text]
    grey = image.convert("L")
    dark = [(x, y) for y in range(grey.height) for x in range(grey.width) if grey.getpixel((x, y)) < 128]
    xs, ys = [p[0] for p in dark], [p[1] for p in dark]
    scale = dpi / 72
    # the finder patterns reach the box's corners: the symbol is 34 pt across, 20 pt from the edges
    # (to the pixel a partly covered pixel rounds to)
    assert abs(min(xs) - 20 * scale) <= 1.5 and abs(max(xs) + 1 - 54 * scale) <= 1.5
    assert abs(min(ys) - 20 * scale) <= 1.5 and abs(max(ys) + 1 - 54 * scale) <= 1.5
