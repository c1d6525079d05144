"""Key cards in photos and scans: where each card lies, exactly (docs/design.md §5.2).

A card's QR code gives four points whose places on the card are known; the perspective
map (homography) through them is refined on the whole card -- a grey drawing of what
the front must look like, aligned to the photo by ECC (``kitgen.registration``) -- and
the card is then drawn flat for its cells to be read. On a sheet, the cards found say
where their neighbours must be (the sheet's lattice, or the kit manifest's positions):
each neighbour's QR is looked for there, drawn flat and large, and a neighbour whose QR
is in view but cannot be read is reported, never passed over."""

import math
from dataclasses import dataclass
from functools import lru_cache

import numpy as np

from kitgen import qr_sampler, registration, scans
from kitgen.games.codenames import symbols
from kitgen.games.codenames.editions import edition_for_rows
from kitgen.games.codenames.render import cell_symbols, key_cards
from kitgen.render import paint, qr

# ECC scales, pixels per point (about 2 and 4 per mm): at 1.4 a card is registered to a fraction of a
# millimetre, far within its cells; a third scale of 2.8 took two thirds of a photo's time (a pale ink-saver
# card's ECC runs all its steps there) and read no cell better on the bench (bench/photos.py)
COARSE_TO_FINE = (0.7, 1.4)
READ_SCALE = (1.5, 3.5)             # the flattened card's pixels per point: the photo's own, within these
QR_LOOK_SCALE = 6.0                 # pixels per module when a neighbour's QR is looked for
QR_MARGIN = 0.25                    # of the QR's size, around it, that must be in the photo
QR_REACH = 0.6                      # of the QR's size, around its predicted place, that is looked at
# modules the finder patterns are searched around their predicted places: near first; then far, for
# a card whose place was extrapolated across the sheet through a map a little off
QR_SEARCH = (2.5, 10.0)
QR_AGREEMENT = 2.5                  # modules the refined map may move the QR's corners
FINDER_MATCH = 0.55                 # correlation with the three finder patterns that means "a QR is here"


def _luma(rgb) -> float:
    return 0.299 * rgb[0] + 0.587 * rgb[1] + 0.114 * rgb[2]


def _grey(colour) -> int:
    return round(255 * _luma(colour.rgb()))


@lru_cache(maxsize=512)
def _symbol_mask(kind: str, half: float, fx: float, fy: float) -> np.ndarray:
    """The pixels a symbol of ``half`` pixels covers, its centre at (fx, fy) in the mask."""
    size = int(math.ceil(2 * half)) + 3
    ys, xs = np.mgrid[0:size, 0:size]
    u, v = (xs + 0.5 - fx) / half, (ys + 0.5 - fy) / half
    return np.vectorize(lambda a, b: symbols.covers(kind, a, b))(u, v)


class Drawing:
    """A grey raster of a card, ``scale`` pixels per point, y down; boxes are the layout's (y up)."""

    def __init__(self, width: float, height: float, scale: float, background: int):
        self.height, self.scale = height, scale
        self.pixels = np.full((max(1, round(height * scale)), max(1, round(width * scale))), background, np.uint8)

    def box(self, x, y, w, h, value):
        s = self.scale
        top, bottom = max(round((self.height - y - h) * s), 0), max(round((self.height - y) * s), 0)
        self.pixels[top:bottom, max(round(x * s), 0):max(round((x + w) * s), 0)] = value

    def symbol(self, kind, cx, cy, size, value):       # a cell type's symbol, ``size`` across, centred
        half = size / 2 * self.scale
        px, py = cx * self.scale, (self.height - cy) * self.scale
        x0, y0 = int(px - half) - 1, int(py - half) - 1
        # the centre to half a pixel: a handful of masks serve every cell
        mask = _symbol_mask(kind, round(half * 2) / 2, round((px - x0) * 2) / 2, round((py - y0) * 2) / 2)
        ys, xs = np.nonzero(mask)
        ys, xs = ys + y0, xs + x0
        keep = (ys >= 0) & (ys < self.pixels.shape[0]) & (xs >= 0) & (xs < self.pixels.shape[1])
        self.pixels[ys[keep], xs[keep]] = value

    def modules(self, modules, x, y, size, value):    # a QR's dark modules filling a square box
        n = len(modules)
        s = self.scale
        top, left = round((self.height - y - size) * s), round(x * s)
        side = round(size * s)
        index = np.minimum(((np.arange(side) + 0.5) / side * n).astype(int), n - 1)
        dark = np.array(modules, bool)[np.ix_(index, index)]
        region = self.pixels[max(top, 0):top + side, max(left, 0):left + side]
        region[dark[:region.shape[0], :region.shape[1]]] = value


_bases: dict = {}


def _base(layout, team: str, rows: int, scale: float) -> np.ndarray:
    """The parts of a key card's front shared by every key of a team: lights, panel and the
    starting team's mark; a duet key's side (``team`` "side A" or "side B"): the panel and the
    start box, filled or outlined, its letter left out (it depends on the language)."""
    key = (id(layout), team, rows, scale)
    if key not in _bases:
        card = layout.key_card
        width, height = card.size
        panel = _grey(paint.colour(layout, card.panel.colour))
        drawing = Drawing(width, height, scale, panel)
        x, y, w, h = card.start.box
        if team.startswith("side"):
            side = layout.duet.side
            dark = _grey(paint.colour(layout, side.background))
            drawing.box(x, y, w, h, dark)
            if team == "side B":
                drawing.box(x + side.outline, y + side.outline, w - 2 * side.outline, h - 2 * side.outline, panel)
        else:
            fill, mark = (_grey(c) for c in cell_symbols.type_colours(layout, team))
            for bx, by, bw, bh in key_cards.light_boxes(card, edition_for_rows(rows).light_edges, 0):
                drawing.box(bx, by, bw, bh, fill)
            inset = card.panel.inset
            drawing.box(inset, inset, width - 2 * inset, height - 2 * inset, panel)
            drawing.box(x, y, w, h, fill)
            drawing.symbol(team, x + w / 2, y + h / 2, card.start.symbol * min(w, h), mark)
        if len(_bases) > 64:
            _bases.clear()
        _bases[key] = (layout, drawing.pixels)          # the layout is kept, so its id stays its own
    return _bases[key][1]


def card_template(layout, grid: tuple[str, ...], team: str, qr_text: str, scale: float) -> np.ndarray:
    """The front of a key card in grey (a duet key's side: ``team`` "side A" or "side B"), ``scale`` pixels per
    point, y down, trim only: lights, panel, cells with their symbols and the QR. The number and
    kit id are left out (their text depends on the kit's language)."""
    card = layout.key_card
    drawing = Drawing(*card.size, scale, 0)
    drawing.pixels = _base(layout, team, len(grid), scale).copy()
    for kind, (x, y, w, h) in zip("".join(grid), key_cards.cell_boxes(layout, len(grid), len(grid[0]))):
        fill, mark = (_grey(c) for c in cell_symbols.type_colours(layout, kind))
        drawing.box(x, y, w, h, fill)
        drawing.symbol(kind, x + w / 2, y + h / 2, card.grid.symbol * min(w, h), mark)
    qx, qy, size, _ = card.qr.box
    drawing.modules(qr.matrix(qr_text), qx, qy, size, _grey(paint.colour(layout, card.qr.colour)))
    return drawing.pixels


def qr_on_card(layout) -> list[tuple[float, float]]:
    """The QR's corners on the card (points, y down): top-left, top-right, bottom-right, bottom-left."""
    qx, qy, size, _ = layout.key_card.qr.box
    top = layout.key_card.size[1] - qy - size
    return [(qx, top), (qx + size, top), (qx + size, top + size), (qx, top + size)]


def grid_on_card(layout) -> list[tuple[float, float]]:
    """The cell grid's corners on the card (points, y down), in ``qr_on_card``'s order."""
    gx, gy, gw, gh = layout.key_card.grid.box
    top = layout.key_card.size[1] - gy - gh
    return [(gx, top), (gx + gw, top), (gx + gw, top + gh), (gx, top + gh)]


@dataclass
class Placed:
    """A key card found in a photo: the map from the card (points, y down) to the photo."""

    matrix: np.ndarray
    scale: float                      # photo pixels per point, at the QR


def place(grey: np.ndarray, corners, layout, grid, team: str, qr_text: str, rough=None) -> Placed:
    """Where the card whose QR has ``corners`` (zxing's order) lies in the photo ``grey``:
    fitted to the QR's corners, refined on the whole card. The refined map must keep the
    QR where it was found, within QR_AGREEMENT modules (zxing's corners of a soft code may be
    a module or two off; a card aligned a cell off would be 15 off); else the QR's own map
    is kept."""
    on_card = qr_on_card(layout)
    if rough is None:               # ``rough``: a map from the whole card's outline, better than its QR's
        rough = registration.homography(on_card, corners)
    size = layout.key_card.qr.box[2]
    centre = (on_card[0][0] + size / 2, on_card[0][1] + size / 2)
    native = registration.pixels_per_unit(rough, *centre)
    scales = sorted({min(native, s) for s in COARSE_TO_FINE})
    fine, _ = registration.refine(grey, rough, lambda s: card_template(layout, grid, team, qr_text, s), scales)
    module = native * size / qr.modules_across(qr_text)
    if max(math.dist(a, b) for a, b in zip(registration.apply(fine, on_card), corners)) > QR_AGREEMENT * module:
        fine = rough
    return Placed(fine, native)


def flatten(photo: np.ndarray, placed: Placed, layout):
    """The card drawn flat (PIL, at about the photo's own resolution), its pixels per point,
    and how much of its cell grid lies outside the photo (0 to 1)."""
    from PIL import Image

    card = layout.key_card
    scale = min(max(placed.scale, READ_SCALE[0]), READ_SCALE[1])
    flat = registration.rectify(photo, placed.matrix, scale, card.size)
    grid_corners = registration.apply(placed.matrix, grid_on_card(layout))
    height, width = photo.shape[:2]
    outside = sum(not (0 <= x < width and 0 <= y < height) for x, y in grid_corners) / 4
    return Image.fromarray(flat), scale, outside


# --- neighbours on a sheet ---------------------------------------------------

def shifted(matrix: np.ndarray, dx: float, dy: float) -> np.ndarray:
    """The map of a card ``dx``, ``dy`` points (y down) from the card of ``matrix``."""
    return matrix @ np.array([[1, 0, dx], [0, 1, dy], [0, 0, 1]], float)


def lattice_offsets(layout) -> list[tuple[float, float]]:
    """Where a card's neighbours lie on any kitgen sheet: one card and a gutter away."""
    card = layout.key_card
    pitch_x = card.size[0] + max(card.gutter, 2 * card.bleed)
    pitch_y = card.size[1] + max(card.gutter, 2 * card.bleed)
    return [(pitch_x, 0), (-pitch_x, 0), (0, pitch_y), (0, -pitch_y)]


def centre_of(matrix: np.ndarray, layout) -> tuple[float, float]:
    w, h = layout.key_card.size
    (x, y), = registration.apply(matrix, [(w / 2, h / 2)])
    return float(x), float(y)


def qr_in_view(matrix: np.ndarray, layout, shape) -> bool:
    """Whether the QR (with its quiet zone) of the card at ``matrix`` lies inside the photo."""
    height, width = shape[:2]
    (x0, y0), _, (x2, y2), _ = qr_on_card(layout)
    pad = (x2 - x0) * QR_MARGIN
    corners = registration.apply(matrix, [(x0 - pad, y0 - pad), (x2 + pad, y0 - pad), (x2 + pad, y2 + pad),
                                          (x0 - pad, y2 + pad)])
    return all(0 <= x < width and 0 <= y < height for x, y in corners)


def look_for_qr(grey: np.ndarray, matrix: np.ndarray, layout, modules: int):
    """The QR code of the card at ``matrix`` (a predicted place), read from its region drawn
    flat and large -- by zxing, else module by module (``qr_sampler``): a ``scans.Code``
    in the photo's pixels, or None; and whether the three finder patterns show there (a
    QR is in view, read or not)."""
    (x0, y0), _, (x2, _), _ = qr_on_card(layout)
    size = x2 - x0
    pad = size * QR_REACH
    scale = QR_LOOK_SCALE * modules / size
    region = shifted(matrix, x0 - pad, y0 - pad)
    patch = registration.rectify(grey, region, scale, (size + 2 * pad, size + 2 * pad), fill=255)
    start = pad * scale
    found = [(c.text, c.corners) for c in scans.find_codes(patch)]
    for search in QR_SEARCH:
        for count in (modules, modules + 4, modules - 4):
            if found:
                break
            sampled = qr_sampler.read(patch, start, count, scale * size / count, search=search)
            found = [sampled] if sampled else []
    if not found:
        return None, any(qr_sampler.finders(patch, start, modules, scale * size / modules, FINDER_MATCH, search)
                         is not None for search in QR_SEARCH)
    text, corners = min(found, key=lambda f: math.dist(np.mean(f[1], axis=0), (patch.shape[1] / 2,) * 2))
    mapped = registration.apply(region, [(x / scale, y / scale) for x, y in corners])
    return scans.Code(text, tuple((float(x), float(y)) for x, y in mapped)), True


def why_unread(grey: np.ndarray, matrix: np.ndarray, layout, modules: int) -> tuple[str, str]:
    """Why the QR code of the card at ``matrix`` (in view) could not be read, and what to do:
    too small (under SMALL_MODULE pixels a module), blurred (its edges wider than BLURRED of a
    module), too dark (paper and ink within DIM levels), else unclear."""
    import cv2

    on_card = qr_on_card(layout)
    size = on_card[1][0] - on_card[0][0]
    corners = registration.apply(matrix, on_card)
    module = registration.pixels_per_unit(matrix, on_card[0][0] + size / 2, on_card[0][1] + size / 2) * size / modules
    if module < SMALL_MODULE:
        return (f"too small, {module:.1f} pixels a module", "come closer, so that a card is at least 400 pixels "
                "wide in the photo")
    (x0, y0), (x1, y1) = corners.min(axis=0), corners.max(axis=0)
    height, width = grey.shape[:2]
    patch = grey[max(int(y0), 0):min(int(y1) + 1, height), max(int(x0), 0):min(int(x1) + 1, width)].astype(np.float32)
    if patch.size < 16:
        return "cut off", "take the whole card"
    low, high = np.percentile(patch, (5, 95))
    if high - low < DIM:
        return "too dark or washed out", "add light, and keep the phone's shadow and glare off the card"
    gradient = np.hypot(cv2.Sobel(patch, cv2.CV_32F, 1, 0, ksize=3), cv2.Sobel(patch, cv2.CV_32F, 0, 1, ksize=3)) / 8
    edge = (high - low) / max(float(np.percentile(gradient, 99)), 1e-6)      # pixels an edge takes to rise
    if edge > BLURRED * module:
        return f"blurred, its edges {edge:.1f} pixels wide", "hold the phone steadier, and let it focus"
    return "unclear", "hold the phone flat above the cards, come closer, and add light"


SMALL_MODULE = 2.0      # pixels a QR module, under which a photo's code is too small to read
BLURRED = 1.5           # modules: an edge wider than this blurs the modules together (a read one: about 1)
DIM = 60                # levels between paper and ink, under which a photo is too dark to read
