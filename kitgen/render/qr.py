"""QR codes for key cards and case slips: the module matrix of a text, and drawing it.

The matrix comes from a small encoder made for speed (docs/design.md §4.5). It makes
exactly the symbol the ``qrcode`` package makes for the same segments -- the smallest
version that holds them, error correction M, mask 2 -- and takes what it can from
``qrcode`` itself, once per version: the function patterns (finders, timing,
alignment, format and version information) and the block table. What it does per
text is what ``qrcode`` does slowly in pure Python with a bit buffer and polynomial
objects: the data bits as one integer, Reed-Solomon as a shift register over
precomputed products, and the placement as one precomputed permutation of the
codeword bits. Tests compare its modules with ``qrcode``'s, module for module, on
thousands of texts (tests/test_qr_encoder.py), so a printed key never changes by
accident."""

from dataclasses import dataclass
from functools import cache, lru_cache
from operator import itemgetter

# A fixed mask is legal (ISO/IEC 18004 lets the encoder choose any of the 8)
# and skips the penalty search that dominates matrix generation.
FIXED_MASK = 2

ALPHANUMERIC_CHARS = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ $%*+-./:"
ALPHANUMERIC = set(ALPHANUMERIC_CHARS)
_MODE_ALPHA, _MODE_BYTE = 0b0010, 0b0100
_PAIRS = {a + b: 45 * i + j for i, a in enumerate(ALPHANUMERIC_CHARS) for j, b in enumerate(ALPHANUMERIC_CHARS)}
_SINGLE = {a: i for i, a in enumerate(ALPHANUMERIC_CHARS)}


@dataclass(frozen=True)
class _Version:
    number: int
    size: int                                 # modules across
    blocks: tuple[tuple[int, int], ...]       # (data codewords, error-correction codewords) of each block
    capacity: int                             # data bits
    bits: int                                 # codeword bits placed (data and error correction)
    mask: int                                 # the mask over those bits, in placement order
    pick: itemgetter                          # the matrix, row by row, from the placed bits + "01"


def _segments(text: str) -> list[tuple[int, str | bytes]]:
    """A key's payload is one alphanumeric segment; a payload behind a web address
    (``URL#payload``, --verify-url) is two: the address and its '#' in bytes, the payload
    alphanumeric, which keeps the symbol a version smaller."""
    head, sep, tail = text.rpartition("#")
    out = []
    for segment in (head + sep, tail) if sep else (text,):
        if set(segment) <= ALPHANUMERIC:
            out.append((_MODE_ALPHA, segment))
        else:
            out.append((_MODE_BYTE, segment.encode("utf-8")))
    return out


def _length_bits(mode: int, version: int) -> int:
    small, medium, large = (9, 11, 13) if mode == _MODE_ALPHA else (8, 16, 16)
    return small if version < 10 else medium if version < 27 else large


def _data_bits(segments, version: int) -> int:
    return sum(4 + _length_bits(mode, version) + (11 * (len(data) // 2) + 6 * (len(data) % 2)
                                                    if mode == _MODE_ALPHA else 8 * len(data))
               for mode, data in segments)


@cache
def _capacities() -> tuple[int, ...]:
    from qrcode.constants import ERROR_CORRECT_M
    from qrcode.util import BIT_LIMIT_TABLE

    return tuple(BIT_LIMIT_TABLE[ERROR_CORRECT_M])     # index: version (0 unused)


def _fit(segments) -> int:
    """The smallest version whose capacity holds the segments (as ``qrcode``'s best fit)."""
    capacities = _capacities()
    for version in range(1, 41):
        if _data_bits(segments, version) <= capacities[version]:
            return version
    raise ValueError(f"{sum(len(data) for _, data in segments)} characters are too many for a QR code")


@cache
def _version(number: int) -> _Version:
    """What every symbol of a version shares, taken from ``qrcode``: the symbol made with every
    data bit light and with every data bit dark differs exactly in the data modules."""
    import qrcode
    from qrcode.base import rs_blocks
    from qrcode.util import mask_func

    blocks = tuple((b.data_count, b.total_count - b.data_count)
                   for b in rs_blocks(number, qrcode.constants.ERROR_CORRECT_M))
    total = sum(d + e for d, e in blocks)
    code = qrcode.QRCode(version=number, error_correction=qrcode.constants.ERROR_CORRECT_M, border=0)
    code.data_cache = [0] * total
    code.makeImpl(False, FIXED_MASK)
    light = [list(row) for row in code.modules]
    code.data_cache = [255] * total
    code.makeImpl(False, FIXED_MASK)
    dark = code.modules
    n = len(light)
    order = []                 # the data modules in the order the codeword bits fill them (qrcode's map_data)
    row, step = n - 1, -1
    for col in range(n - 1, 0, -2):
        if col <= 6:
            col -= 1
        while 0 <= row < n:
            order += [row * n + c for c in (col, col - 1) if light[row][c] != dark[row][c]]
            row += step
        row -= step
        step = -step
    bits = 8 * total
    assert len(order) == bits, (number, len(order), bits)
    masked = mask_func(FIXED_MASK)
    mask = int("".join("1" if masked(p // n, p % n) else "0" for p in order), 2)
    where = {p: i for i, p in enumerate(order)}
    pick = itemgetter(*(where.get(p, bits + light[p // n][p % n]) for p in range(n * n)))
    capacity = 8 * sum(d for d, _ in blocks)
    return _Version(number, n, blocks, capacity, bits, mask, pick)


@cache
def _products(ec: int) -> tuple[int, ...]:
    """For each byte f, f times the generator polynomial of ``ec`` error-correction codewords
    (without its leading term), as one ``ec``-byte integer: one step of the shift register."""
    from qrcode.base import EXP_TABLE, LOG_TABLE

    generator = [1]
    for i in range(ec):               # (x - a^0)(x - a^1)...(x - a^(ec-1))
        root = EXP_TABLE[i % 255]
        nxt = generator + [0]
        for k, coeff in enumerate(generator):
            if coeff:
                nxt[k + 1] ^= EXP_TABLE[(LOG_TABLE[coeff] + LOG_TABLE[root]) % 255]
        generator = nxt
    tail = generator[1:]
    return tuple(0 if not f else int.from_bytes(bytes(EXP_TABLE[(LOG_TABLE[f] + LOG_TABLE[g]) % 255] if g else 0
                                                      for g in tail), "big")
                 for f in range(256))


def _error_correction(data: bytes, ec: int) -> bytes:
    products = _products(ec)
    top, full = 8 * (ec - 1), (1 << 8 * ec) - 1
    rem = 0
    for byte in data:
        rem = ((rem << 8) & full) ^ products[(rem >> top) ^ byte]
    return rem.to_bytes(ec, "big")


def _codewords(segments, version: _Version) -> bytes:
    """The data bits, terminator and padding, split into blocks, each with its error
    correction, interleaved."""
    acc, length = 0, 0
    for mode, data in segments:
        count_bits = _length_bits(mode, version.number)
        acc = (acc << 4 | mode) << count_bits | len(data)
        length += 4 + count_bits
        if mode == _MODE_ALPHA:
            pairs = _PAIRS
            for i in range(0, len(data) - 1, 2):
                acc = acc << 11 | pairs[data[i:i + 2]]
            length += 11 * (len(data) // 2)
            if len(data) % 2:
                acc = acc << 6 | _SINGLE[data[-1]]
                length += 6
        else:
            acc = acc << 8 * len(data) | int.from_bytes(data, "big")
            length += 8 * len(data)
    capacity = version.capacity
    terminator = min(capacity - length, 4)
    length += terminator
    pad = -length % 8
    acc <<= terminator + pad
    length += pad
    fill = (capacity - length) // 8
    data = acc.to_bytes(length // 8, "big") + (b"\xec\x11" * (fill // 2 + 1))[:fill]
    data_blocks, ec_blocks, at = [], [], 0
    for count, ec in version.blocks:
        block = data[at:at + count]
        at += count
        data_blocks.append(block)
        ec_blocks.append(_error_correction(block, ec))
    out = bytearray()
    for blocks in (data_blocks, ec_blocks):
        short = min(len(b) for b in blocks)
        for column in zip(*blocks):                   # the codewords every block has, a column at a time
            out.extend(column)
        for i in range(short, max(len(b) for b in blocks)):       # the longer blocks' last codewords
            out.extend(b[i] for b in blocks if i < len(b))
    return bytes(out)


@lru_cache(maxsize=512)       # a key is drawn twice (its part and kit.pdf); bounded for huge decks
def rows(text: str) -> tuple[str, ...]:
    """The QR modules of ``text`` (error correction M, mask 2, no border), row by row from
    the top, as strings of '1' (dark) and '0'."""
    segments = _segments(text)
    version = _version(_fit(segments))
    placed = int.from_bytes(_codewords(segments, version), "big") ^ version.mask
    modules = "".join(version.pick(format(placed, f"0{version.bits}b") + "01"))
    n = version.size
    return tuple(modules[i:i + n] for i in range(0, n * n, n))


def modules_across(text: str) -> int:
    """How many modules across the QR of ``text`` is (its version's), without making it."""
    return 17 + 4 * _fit(_segments(text))


def matrix(text: str) -> tuple[tuple[bool, ...], ...]:
    """The QR modules of ``text`` as rows of booleans (True: dark)."""
    return tuple(tuple(ch == "1" for ch in row) for row in rows(text))


@lru_cache(maxsize=512)
def _mask_hex(text: str) -> str:
    """The modules as a 1-bit image, rows from the top, each padded to whole bytes, in hex."""
    modules = rows(text)
    n = len(modules)
    pad, digits = "0" * (-n % 8), f"0{(n + 7) // 8 * 2}x"
    return "".join([format(int(row + pad, 2), digits) for row in modules])


def draw(c, text: str, x: float, y: float, size: float, fill):
    """Draw the QR of ``text`` in a ``size`` square at (x, y), in ``fill``: an inline 1-bit image
    mask, one sample per module, so every module edge falls where the module grid puts it at
    any resolution (a mask is never smoothed: /Interpolate is false) -- the same look as
    rectangles in a path, in a tenth of the bytes and the time (docs/design.md §4.5)."""
    from reportlab.lib.rl_accel import fp_str

    n = len(rows(text))
    c.setFillColor(fill)
    c._code.append(f"q {fp_str(size)} 0 0 {fp_str(size)} {fp_str(x)} {fp_str(y)} cm\n"
                   f"BI /W {n} /H {n} /IM true /BPC 1 /D [1 0] /F /AHx ID\n{_mask_hex(text)}>\nEI Q")
