"""A small PDF reader for tests: a tokenizer, an object reader (xref table, streams,
page tree) and a content-stream interpreter that tracks the fill colour through q/Q
and the colour operators, and each shown string's advance through the text
operators and the embedded fonts' /Widths. Independent of reportlab: it reads what
kitgen wrote, as a PDF consumer would."""

import base64
import re
import zlib
from dataclasses import dataclass


class Name(str):
    """A PDF name (/Font), without its slash."""


class Op(str):
    """A content-stream operator or a keyword (Tj, re, R, true)."""


@dataclass(frozen=True)
class Ref:
    """An indirect reference, ``num 0 R``."""

    num: int


_REGULAR = rb"[^\x00\t\n\x0c\r ()<>\[\]{}/%]"
_TOKEN = re.compile(rb"[\x00\t\n\x0c\r ]+|%[^\r\n]*|(<<|>>|\[|\]|\(|<[0-9A-Fa-f\x00\t\n\x0c\r ]*>|/"
                    + _REGULAR + rb"*|" + _REGULAR + rb"+)")
_NUMBER = re.compile(rb"[+-]?(?:\d+\.?\d*|\.\d+)")
_END_OF_IMAGE = re.compile(rb"[\x00\t\n\x0c\r ]EI(?=[\x00\t\n\x0c\r ]|$)")
_ESCAPES = {ord("n"): b"\n", ord("r"): b"\r", ord("t"): b"\t", ord("b"): b"\b", ord("f"): b"\f",
            ord("("): b"(", ord(")"): b")", ord("\\"): b"\\"}


def _literal(data: bytes, i: int) -> tuple[bytes, int]:
    """The literal string whose '(' ends just before ``i``: its bytes (escapes
    undone, balanced parentheses kept) and the position after its ')'."""
    out, depth = bytearray(), 1
    while True:
        ch = data[i]
        i += 1
        if ch == 0x5C:                                   # backslash
            nxt = data[i]
            i += 1
            if nxt in _ESCAPES:
                out += _ESCAPES[nxt]
            elif 0x30 <= nxt <= 0x37:                    # \d, \dd, \ddd octal
                digits = chr(nxt)
                while len(digits) < 3 and 0x30 <= data[i] <= 0x37:
                    digits += chr(data[i])
                    i += 1
                out.append(int(digits, 8) & 0xFF)
            elif nxt == 0x0D:                            # a backslash before an end of line joins lines
                if data[i:i + 1] == b"\n":
                    i += 1
            elif nxt != 0x0A:
                out.append(nxt)                          # an unknown escape is the character itself
        elif ch == 0x28:
            depth += 1
            out.append(ch)
        elif ch == 0x29:
            depth -= 1
            if depth == 0:
                return bytes(out), i
            out.append(ch)
        elif ch == 0x0D:                                 # any end of line in a string reads as \n
            out += b"\n"
            if data[i:i + 1] == b"\n":
                i += 1
        else:
            out.append(ch)


def tokens(data: bytes, pos: int = 0):
    """(kind, value, end) for each token from ``pos``. kind is 'value' (an int or
    float, a Name, bytes for a literal or hex string, an Op) or one of [ ] << >>."""
    n = len(data)
    while pos < n:
        match = _TOKEN.match(data, pos)
        if not match:
            raise ValueError(f"bad PDF syntax at {pos}: {data[pos:pos + 20]!r}")
        pos = match.end()
        token = match.group(1)
        if token is None:                                # white space or a comment
            continue
        if token in (b"<<", b">>", b"[", b"]"):
            yield token.decode(), None, pos
        elif token == b"(":
            value, pos = _literal(data, pos)
            yield "value", value, pos
        elif token[:1] == b"<":
            digits = re.sub(rb"[\x00\t\n\x0c\r ]", b"", token[1:-1])
            yield "value", bytes.fromhex((digits + b"0" * (len(digits) % 2)).decode()), pos
        elif token[:1] == b"/":
            yield "value", Name(re.sub(rb"#([0-9A-Fa-f]{2})", lambda m: bytes([int(m[1], 16)]),
                                       token[1:]).decode("latin-1")), pos
        elif _NUMBER.fullmatch(token):
            yield "value", (float(token) if b"." in token else int(token)), pos
        else:
            yield "value", Op(token.decode("latin-1")), pos
            if token == b"ID":                           # inline image data: skip to EI
                end = _END_OF_IMAGE.search(data, pos + 1)
                pos = end.end()
                yield "value", Op("EI"), pos


def _refs(items: list) -> list:
    out = []
    for item in items:
        if (isinstance(item, Op) and item == "R" and len(out) >= 2
                and all(type(v) is int for v in out[-2:])):
            out[-2:] = [Ref(out[-2])]
        else:
            out.append(item)
    return out


def values(data: bytes, pos: int = 0):
    """(value, end) for each top-level value: arrays as lists, dictionaries as
    dicts keyed by name, ``n g R`` as a Ref inside them."""
    stack = []
    for kind, value, end in tokens(data, pos):
        if kind in ("[", "<<"):
            stack.append((kind, []))
            continue
        if kind in ("]", ">>"):
            opened, items = stack.pop()
            assert opened == {"]": "[", ">>": "<<"}[kind], f"unbalanced {kind} at {end}"
            items = _refs(items)
            value = items if kind == "]" else dict(zip(items[::2], items[1::2]))
        if stack:
            stack[-1][1].append(value)
        else:
            yield value, end


class Pdf:
    """A PDF's objects through its classic xref table (as reportlab writes it),
    its pages in order, their fonts and their decoded content."""

    def __init__(self, data: bytes):
        self.data = data
        start = int(re.findall(rb"startxref\s+(\d+)", data)[-1])
        pos = re.compile(rb"xref\s+").match(data, start).end()
        self.offsets = {}
        section, entry = re.compile(rb"(\d+) (\d+)\s+"), re.compile(rb"(\d{10}) (\d{5}) ([nf])\s*")
        while match := section.match(data, pos):
            first, count = int(match[1]), int(match[2])
            pos = match.end()
            for i in range(count):
                row = entry.match(data, pos)
                pos = row.end()
                if row[3] == b"n":
                    self.offsets[first + i] = int(row[1])
        pos = re.compile(rb"trailer\s*").match(data, pos).end()
        self.trailer = next(values(data, pos))[0]
        self._objects = {}

    def object(self, num: int):
        """(value, raw stream bytes or None) of object ``num``."""
        if num not in self._objects:
            header = re.compile(rb"\s*(\d+)\s+(\d+)\s+obj\b").match(self.data, self.offsets[num])
            assert header and int(header[1]) == num, f"object {num} is not at its xref offset"
            value, end = next(values(self.data, header.end()))
            raw = None
            stream = re.compile(rb"\s*stream\r?\n").match(self.data, end)
            if isinstance(value, dict) and stream:
                raw = self.data[stream.end():stream.end() + self.resolve(value["Length"])]
            self._objects[num] = (value, raw)
        return self._objects[num]

    def resolve(self, value):
        while isinstance(value, Ref):
            value = self.object(value.num)[0]
        return value

    def stream(self, ref: Ref) -> bytes:
        value, raw = self.object(ref.num)
        filters = value.get("Filter", [])
        for name in [filters] if isinstance(filters, str) else filters:
            if name == "ASCII85Decode":
                raw = base64.a85decode(raw.strip(), adobe=True)
            elif name == "FlateDecode":
                raw = zlib.decompress(raw)
            else:
                raise NotImplementedError(f"filter {name}")
        return raw

    def pages(self) -> list[dict]:
        """Page dictionaries in order, each with its (possibly inherited) Resources."""
        out = []

        def walk(node, resources):
            node = self.resolve(node)
            resources = node.get("Resources", resources)
            if node.get("Type") == "Pages":
                for kid in node["Kids"]:
                    walk(kid, resources)
            else:
                out.append({**node, "Resources": resources})

        walk(self.resolve(self.trailer["Root"])["Pages"], None)
        return out

    def content(self, page: dict) -> bytes:
        contents = page.get("Contents", [])
        return b"\n".join(self.stream(ref) for ref in (contents if isinstance(contents, list) else [contents]))

    def fonts(self, page: dict) -> dict:
        resources = self.resolve(page["Resources"]) or {}
        return {name: self.resolve(font) for name, font in self.resolve(resources.get("Font", {})).items()}


IDENTITY = (1.0, 0.0, 0.0, 1.0, 0.0, 0.0)


def mul(m, n):
    """The matrix ``m`` then ``n`` (PDF row-vector convention: p' = p m n)."""
    a, b, c, d, e, f = m
    p, q, r, s, t, u = n
    return (a * p + b * r, a * q + b * s, c * p + d * r, c * q + d * s, e * p + f * r + t, e * q + f * s + u)


def apply(m, x: float, y: float) -> tuple[float, float]:
    a, b, c, d, e, f = m
    return a * x + c * y + e, b * x + d * y + f


@dataclass(frozen=True)
class Shown:
    """One text-showing operator (Tj, TJ, ', ")."""

    font: str                        # the font resource name
    size: float                      # Tf size
    fill: tuple                      # (colour space, component values)
    codes: bytes
    start: tuple[float, float]       # where the advance starts and ends, in page space
    end: tuple[float, float]
    matrix: tuple                    # text matrix x CTM where it starts: its a, b, c, d give the turn
    block: int                       # which BT ... ET it is in, counted through the page


@dataclass(frozen=True)
class Filled:
    """One filled path, or a 1-bit image mask painted in the fill colour (its unit square's box as
    one rect, ``segments`` 0)."""

    rects: tuple                     # page-space boxes (x0, y0, x1, y1) of its `re` rectangles
    segments: int                    # its other construction operators (m, l, c, v, y)
    fill: tuple
    mask: bool = False               # an image mask (a QR code): rects holds its box

    @property
    def bbox(self):
        return (min(r[0] for r in self.rects), min(r[1] for r in self.rects),
                max(r[2] for r in self.rects), max(r[3] for r in self.rects))


INITIAL_COLOUR = {"DeviceGray": (0.0,), "DeviceRGB": (0.0, 0.0, 0.0), "DeviceCMYK": (0.0, 0.0, 0.0, 1.0)}


def interpret(pdf: Pdf, page: dict) -> tuple[list[Shown], list[Filled]]:
    """Run a page's content stream: every string shown and every path filled (and every
    image mask painted), with the fill colour in force; a Form XObject (``Do``) is run in place,
    through its /Matrix, with its own resources."""
    fonts = pdf.fonts(page)
    widths = {}
    gs = {"ctm": IDENTITY, "fill": ("DeviceGray", (0.0,)), "font": None, "size": 0.0,
          "Tc": 0.0, "Tw": 0.0, "Th": 1.0, "TL": 0.0, "rise": 0.0}
    saved, shown, filled = [], [], []
    tm = tlm = IDENTITY
    blocks = 0
    rects, segments = [], 0

    def advance(code: int) -> float:
        name = gs["font"]
        if name not in widths:
            font = fonts[name]
            if font.get("Subtype") not in ("TrueType", "Type1"):
                raise NotImplementedError(f"font {name} is {font.get('Subtype')}, not a simple font")
            descriptor = pdf.resolve(font.get("FontDescriptor")) or {}
            widths[name] = (font["FirstChar"], pdf.resolve(font["Widths"]), descriptor.get("MissingWidth", 0))
        first, table, missing = widths[name]
        return table[code - first] if 0 <= code - first < len(table) else missing

    def show(items):
        nonlocal tm
        size, th = gs["size"], gs["Th"]
        matrix = mul(tm, gs["ctm"])
        start = apply(matrix, 0, gs["rise"])
        codes = bytearray()
        for item in items:
            if isinstance(item, (int, float)):
                tx = -item / 1000 * size * th
            else:
                tx = sum((advance(code) / 1000 * size + gs["Tc"] + (gs["Tw"] if code == 32 else 0)) * th
                         for code in item)
                codes += item
            tm = mul((1, 0, 0, 1, tx, 0), tm)
        end = apply(mul(tm, gs["ctm"]), 0, gs["rise"])
        shown.append(Shown(gs["font"], size, gs["fill"], bytes(codes), start, end, matrix, blocks))

    def next_line(tx: float, ty: float):
        nonlocal tm, tlm
        tlm = mul((1, 0, 0, 1, tx, ty), tlm)
        tm = tlm

    def run(content: bytes, resources):
        nonlocal gs
        operands, image, is_mask = [], None, False
        for value, _ in values(content):
            if isinstance(image, list) and not (isinstance(value, Op) and value == "ID"):
                image.append(value)                     # the inline image's dictionary
                continue
            if not isinstance(value, Op):
                operands.append(value)
                continue
            op, args, operands = value, operands, []
            if op == "BI":
                image = []
            elif op == "ID":
                image = dict(zip(image[::2], image[1::2]))
                is_mask = image.get("IM", image.get("ImageMask")) == "true"
            elif op == "EI":
                if is_mask:
                    xs, ys = zip(*(apply(gs["ctm"], u, v) for u, v in ((0, 0), (1, 0), (0, 1), (1, 1))))
                    filled.append(Filled(((min(xs), min(ys), max(xs), max(ys)),), 0, gs["fill"], True))
                image = None
            elif op == "Do":
                ref = pdf.resolve(pdf.resolve(pdf.resolve(resources) or {}).get("XObject", {}))[str(args[0])]
                form = pdf.resolve(ref)
                if form.get("Subtype") != "Form":
                    raise NotImplementedError(f"an XObject of subtype {form.get('Subtype')}")
                saved.append(dict(gs))
                gs["ctm"] = mul(tuple(form.get("Matrix", IDENTITY)), gs["ctm"])
                fonts.update(pdf.fonts(form))
                run(pdf.stream(ref), form.get("Resources"))
                gs = saved.pop()
            else:
                step(op, args)

    def step(op, args):
        nonlocal gs, tm, tlm, blocks, rects, segments
        if op == "q":
            saved.append(dict(gs))
        elif op == "Q":
            gs = saved.pop()
        elif op == "cm":
            gs["ctm"] = mul(tuple(args), gs["ctm"])
        elif op in ("g", "rg", "k"):
            gs["fill"] = ({"g": "DeviceGray", "rg": "DeviceRGB", "k": "DeviceCMYK"}[op], tuple(args))
        elif op == "cs":
            gs["fill"] = (str(args[0]), INITIAL_COLOUR.get(str(args[0]), ()))
        elif op in ("sc", "scn"):
            gs["fill"] = (gs["fill"][0], tuple(args))
        elif op == "BT":
            tm = tlm = IDENTITY
            blocks += 1
        elif op == "Tf":
            gs["font"], gs["size"] = str(args[0]), args[1]
        elif op in ("Tc", "Tw", "TL"):
            gs[op] = args[0]
        elif op == "Tz":
            gs["Th"] = args[0] / 100
        elif op == "Ts":
            gs["rise"] = args[0]
        elif op == "Td":
            next_line(*args)
        elif op == "TD":
            gs["TL"] = -args[1]
            next_line(*args)
        elif op == "Tm":
            tm = tlm = tuple(args)
        elif op == "T*":
            next_line(0, -gs["TL"])
        elif op == "Tj":
            show(args)
        elif op == "TJ":
            show(args[0])
        elif op == "'":
            next_line(0, -gs["TL"])
            show(args)
        elif op == '"':
            gs["Tw"], gs["Tc"] = args[0], args[1]
            next_line(0, -gs["TL"])
            show(args[2:])
        elif op == "re":
            x, y, w, h = args
            corners = [apply(gs["ctm"], u, v) for u, v in ((x, y), (x + w, y), (x, y + h), (x + w, y + h))]
            xs, ys = zip(*corners)
            rects.append((min(xs), min(ys), max(xs), max(ys)))
        elif op in ("m", "l", "c", "v", "y"):
            segments += 1
        elif op in ("f", "F", "f*", "B", "B*", "b", "b*"):
            filled.append(Filled(tuple(rects), segments, gs["fill"]))
            rects, segments = [], 0
        elif op in ("S", "s", "n"):
            rects, segments = [], 0

    run(pdf.content(page), page.get("Resources"))
    return shown, filled



def pure_k(fill) -> bool:
    return fill == ("DeviceCMYK", (0, 0, 0, 1))


def rich_black(fill) -> bool:
    space, parts = fill
    return space == "DeviceCMYK" and parts[3] >= 0.9 and max(parts[:3]) > 0
