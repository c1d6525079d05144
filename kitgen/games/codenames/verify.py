"""Checking key cards: a payload, an image (scan or photo of a flat card or
sheet) or a kitgen PDF (docs/design.md §5).

Without the seed a payload is checked for structure. With the seed (or the
kit's manifest) it must be exactly key N of that kit. On an image or PDF the
printed grid is also read and compared with the QR: the QR's four corners give
the card's position, scale and turn (any angle, and a small skew);
the layout says where the cells are relative to the QR; each cell's type is
read from its colour, or from its symbol's shape when the print has no colour.
"""

import json
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

from kitgen import scans
from kitgen.errors import KitgenError
from kitgen.games.codenames import key_deck, key_payload, layout as layout_mod, symbols
from kitgen.games.codenames.editions import edition_for_rows
from kitgen.games.codenames.model import layout_overlays
from kitgen.games.codenames.render import cell_symbols
from kitgen.games.codenames.render.cell_symbols import TYPE_NAMES

SHAPE_GRID = 21            # samples across a symbol's neighbourhood
SHAPE_SPAN = 1.6           # half the sampled square's side, in symbol half sizes
RING = (0.12, 0.2, 0.8, 0.88)   # fractions of a cell where its fill shows around the symbol


@dataclass(frozen=True)
class Secret:
    """What a payload is checked against: the seed, and optionally the kit it belongs to."""

    seed: str
    kit: str | None = None          # upper-case kit id, from a manifest
    total: int | None = None
    edition: str | None = None
    layout: str | None = None
    ink: str = "normal"
    colour: str = "rgb"


@dataclass
class CardResult(scans.Checked):
    """A key card checked."""

    @property
    def label(self) -> str:
        try:
            parsed = key_payload.decode(self.payload)
            return f"key {str(parsed.number).zfill(len(str(parsed.total)))}/{parsed.total} {parsed.kit}"
        except KitgenError:
            return "a QR code"


def load_manifest(path: str) -> Secret:
    """The seed, kit id, key count, edition and layout from a kit's manifest.json."""
    try:
        data = json.loads(Path(path).read_text("utf-8"))
        options = data.get("options", {})
        return Secret(seed=data["seed"], kit=data["kit"].upper(), total=len(data["keys"]),
                      edition=data.get("edition"), layout=options.get("layout"),
                      ink=options.get("ink", "normal"), colour=options.get("colour", "rgb"))
    except FileNotFoundError:
        raise KitgenError("manifest not found; give the manifest.json of a built kit", source=path) from None
    except (OSError, ValueError, KeyError, TypeError, AttributeError):
        raise KitgenError("is not a kitgen manifest.json", source=path) from None


_decks: dict = {}


def check_payload(text: str, secret: Secret | None) -> list[str]:
    """Problems with one payload (empty when it is right); KitgenError when it
    is not a kitgen payload at all."""
    parsed = key_payload.decode(text)
    if secret is None:
        return []
    problems = []
    label = f"key {parsed.number}/{parsed.total}"
    if secret.kit and parsed.kit != secret.kit:
        problems.append(f"{label} belongs to kit {parsed.kit}, not {secret.kit}")
    if secret.total and parsed.total != secret.total:
        problems.append(f"{label} is from a deck of {parsed.total} keys; this kit has {secret.total}")
    expected = key_payload.check_code(key_deck.kit_secret(secret.seed), parsed.body)
    if parsed.check != expected:
        problems.append(f"{label}: check code {parsed.check} does not match this seed "
                        "(a different kit, a wrong seed, or an altered key)")
        return problems
    edition = edition_for_rows(len(parsed.grid))
    deck_key = (secret.seed, edition.name, parsed.total)
    if deck_key not in _decks:
        _decks[deck_key] = key_deck.generate(secret.seed, edition, parsed.total)
    key = _decks[deck_key][parsed.number - 1]
    if (key.starting_team, key.grid) != (parsed.starting_team, parsed.grid):
        problems.append(f"{label} is not key {parsed.number} of this seed's deck")
    return problems


# --- reading a printed grid --------------------------------------------------

def _solve(matrix: list[list[float]], rhs: list[float]) -> list[float]:
    """Gaussian elimination with partial pivoting (a 3 x 3 system here)."""
    n = len(rhs)
    a = [row[:] + [rhs[i]] for i, row in enumerate(matrix)]
    for col in range(n):
        pivot = max(range(col, n), key=lambda r: abs(a[r][col]))
        if abs(a[pivot][col]) < 1e-9:
            raise ValueError("degenerate corners")
        a[col], a[pivot] = a[pivot], a[col]
        for r in range(n):
            if r != col:
                factor = a[r][col] / a[col][col]
                a[r] = [x - factor * y for x, y in zip(a[r], a[col])]
    return [a[i][n] / a[i][i] for i in range(n)]


def affine(src, dst):
    """The affine map that best takes the points ``src`` to ``dst`` (least squares),
    as a function. Four QR corners, each off by up to a pixel, give a map that
    stays accurate across the card; a projective fit would amplify their noise."""
    normal = [[sum(p[i] * p[j] for p in ((u, v, 1.0) for u, v in src)) for j in range(3)] for i in range(3)]
    coef = []
    for axis in (0, 1):
        rhs = [sum(p[i] * q[axis] for p, q in zip(((u, v, 1.0) for u, v in src), dst)) for i in range(3)]
        coef.append(_solve(normal, rhs))
    (a, b, c), (d, e, f) = coef

    def apply(u: float, v: float) -> tuple[float, float]:
        return a * u + b * v + c, d * u + e * v + f
    return apply


class CardReader:
    """Reads the printed cells of one key card from an image, given its QR's corners."""

    def __init__(self, image, corners, layout, rows: int, cols: int):
        from kitgen.games.codenames.render.key_cards import cell_boxes

        self.image = image
        self.width, self.height = image.size
        qx, qy, size, _ = layout.key_card.qr.box
        # zxing's corners: top-left, top-right, bottom-right, bottom-left of the symbol
        card_corners = [(qx, qy + size), (qx + size, qy + size), (qx + size, qy), (qx, qy)]
        self.to_image = affine(card_corners, corners)
        self.cells = cell_boxes(layout, rows, cols)
        self.symbol = layout.key_card.grid.symbol
        self.references = {k: tuple(255 * v for v in cell_symbols.type_colours(layout, k)[0].rgb()) for k in symbols.KINDS}
        # the QR's quiet zone is paper: its colour in this image is the white reference
        quiet = [self._pixel(qx - size * 0.07, qy + size * f) for f in (0.2, 0.4, 0.6, 0.8)]
        quiet += [self._pixel(qx + size * f, qy - size * 0.07) for f in (0.25, 0.5, 0.75)]
        self.white = tuple(sorted(q[i] for q in quiet)[len(quiet) // 2] for i in range(3))

    def _pixel(self, u: float, v: float) -> tuple[int, int, int]:
        x, y = self.to_image(u, v)
        x = min(max(int(x), 0), self.width - 1)      # pixel i covers [i, i + 1)
        y = min(max(int(y), 0), self.height - 1)
        return self.image.getpixel((x, y))

    def _fill(self, box) -> tuple[float, float, float]:
        x, y, w, h = box
        samples = [self._pixel(x + fx * w, y + fy * h) for fx in RING for fy in RING]
        return tuple(sorted(s[i] for s in samples)[len(samples) // 2] for i in range(3))

    def _normalized(self, rgb) -> tuple[float, ...]:
        return tuple(min(255.0, c * 255.0 / max(w, 1)) for c, w in zip(rgb, self.white))

    def by_colour(self, fill) -> str:
        """The type whose layout colour is nearest the cell's (white-balanced) fill."""
        fill = self._normalized(fill)
        return min(self.references, key=lambda k: sum((a - b) ** 2 for a, b in zip(fill, self.references[k])))

    def by_shape(self, box, fill) -> str:
        """The symbol whose shape best matches the cell's centre, or '?'."""
        x, y, w, h = box
        half = self.symbol * min(w, h) / 2
        fill = _luma(fill)
        steps = [(i + 0.5) / SHAPE_GRID * 2 - 1 for i in range(SHAPE_GRID)]   # -1 .. 1
        reach = SHAPE_SPAN             # the sampled square reaches this many half sizes from the centre
        samples = [(sx * reach, sy * reach, _luma(self._pixel(x + w / 2 + sx * reach * half, y + h / 2 + sy * reach * half)))
                   for sx in steps for sy in steps]
        extreme = max(samples, key=lambda s: abs(s[2] - fill))[2]
        if abs(extreme - fill) < 40:
            return "?"
        threshold = (extreme + fill) / 2
        marked = [(sx, sy, (s - threshold) * (extreme - fill) > 0) for sx, sy, s in samples]
        # centre the templates on what was found: a pixel or two of registration error
        # would otherwise blur a disc into a square
        on = [(sx, sy) for sx, sy, hit in marked if hit]
        cx, cy = sum(p[0] for p in on) / len(on), sum(p[1] for p in on) / len(on)
        scores = {k: sum(hit == symbols.covers(k, sx - cx, sy - cy) for sx, sy, hit in marked) / len(marked)
                  for k in symbols.KINDS}
        best = max(scores, key=scores.get)
        return best if scores[best] >= 0.8 else "?"

    def read(self) -> str:
        """Each cell's type: by colour when the image shows colour (some cell fill is
        clearly chromatic), else by its symbol's shape."""
        fills = [self._fill(b) for b in self.cells]
        colour = max(max(n) - min(n) for n in map(self._normalized, fills)) > 60
        return "".join(self.by_colour(f) if colour else self.by_shape(b, f) for b, f in zip(self.cells, fills))


def _luma(rgb) -> float:
    return 0.299 * rgb[0] + 0.587 * rgb[1] + 0.114 * rgb[2]


def compare_grid(expected: str, printed: str, cols: int, label: str) -> list[str]:
    problems = []
    for i, (want, got) in enumerate(zip(expected, printed)):
        if want != got:
            found = TYPE_NAMES.get(got, "unreadable")
            problems.append(f"{label}: cell row {i // cols + 1}, column {i % cols + 1}: "
                            f"expected {TYPE_NAMES[want]}, found {found}")
    return problems


@lru_cache(maxsize=None)
def _edition_layout(rows: int):
    return layout_mod.load(edition_for_rows(rows).default_layout)


def check_image(image, where: str, secret: Secret | None, layout=None) -> list[CardResult]:
    """Every kitgen key card whose QR is found in ``image``. Without a layout, each
    card is read with its edition's built-in layout."""
    import zxingcpp

    image = image.convert("RGB")
    results = []
    for code in zxingcpp.read_barcodes(image, formats=zxingcpp.BarcodeFormat.QRCode):
        text = scans.payload_of(code.text)
        result = CardResult(where, text)
        results.append(result)
        try:
            result.problems += check_payload(text, secret)
        except KitgenError as err:
            result.problems.append(err.message)
            continue
        parsed = key_payload.decode(text)
        pos = code.position
        corners = [(p.x, p.y) for p in (pos.top_left, pos.top_right, pos.bottom_right, pos.bottom_left)]
        card_layout = layout or _edition_layout(len(parsed.grid))
        try:
            reader = CardReader(image, corners, card_layout, len(parsed.grid), len(parsed.grid[0]))
        except ValueError:
            result.problems.append(f"{result.label}: the QR's corners are degenerate; rescan the card flat")
            continue
        result.problems += compare_grid("".join(parsed.grid), reader.read(), len(parsed.grid[0]), result.label)
    return results


def verify(target: str, secret: Secret | None = None, dpi: float = 200) -> list[CardResult]:
    """Check a payload string, an image file or a kitgen PDF; one result per card found."""
    layout = layout_mod.load(secret.layout, layout_overlays(secret.ink, secret.colour)) \
        if secret and secret.layout else None
    kind, value = scans.classify(target)
    if kind == "payload":
        value = scans.payload_of(value)
        return [CardResult("payload", value, check_payload(value, secret))]
    results = []
    for where, image in scans.images(kind, value, dpi):
        results += check_image(image, where, secret, layout)
    if not results:
        raise KitgenError(scans.NO_CODE, source=target)
    return results
