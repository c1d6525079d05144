"""QR codes for key cards: a module matrix, drawn as merged runs."""

from functools import lru_cache

# A fixed mask is legal (ISO/IEC 18004 lets the encoder choose any of the 8)
# and skips the penalty search that dominates matrix generation.
FIXED_MASK = 2


ALPHANUMERIC = set("0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ $%*+-./:")


@lru_cache(maxsize=512)       # a key is drawn twice (its part and kit.pdf); bounded for huge decks
def matrix(text: str) -> tuple[tuple[bool, ...], ...]:
    """The QR modules of ``text``, error correction M, no border. A payload is one alphanumeric
    segment; a payload behind a web address (``URL#payload``, --verify-url) is two: the address
    and its '#' in bytes, the payload alphanumeric, which keeps the symbol a version smaller."""
    import qrcode
    from qrcode.util import MODE_8BIT_BYTE, MODE_ALPHA_NUM, QRData

    code = qrcode.QRCode(error_correction=qrcode.constants.ERROR_CORRECT_M, border=0, mask_pattern=FIXED_MASK)
    head, sep, tail = text.rpartition("#")
    for segment in (head + sep, tail) if sep else (text,):
        if set(segment) <= ALPHANUMERIC:
            code.add_data(QRData(segment, mode=MODE_ALPHA_NUM))
        else:
            code.add_data(QRData(segment.encode("utf-8"), mode=MODE_8BIT_BYTE))
    code.make(fit=True)
    return tuple(tuple(row) for row in code.get_matrix())


def draw(c, modules, x: float, y: float, size: float, fill):
    """Draw the matrix in a ``size`` square at (x, y): one rectangle per run of
    dark modules in a row, all in one path."""
    n = len(modules)
    step = size / n
    path = c.beginPath()
    for r, row in enumerate(modules):
        top = y + (n - 1 - r) * step
        start = None
        for col, dark in enumerate(row + (False,)):
            if dark and start is None:
                start = col
            elif not dark and start is not None:
                path.rect(x + start * step, top, (col - start) * step, step)
                start = None
    c.setFillColor(fill)
    c.drawPath(path, stroke=0, fill=1)
