"""Imposition: cards onto sheets, crop marks, duplex backs (pure geometry).

Everything here is plain data in PDF points, origin at the page's bottom-left,
so it is tested without drawing. A card is placed by its trim rectangle on
the page and a rotation (0, 90, 180 or 270 degrees, counter-clockwise) of the
upright card about the rectangle's centre.
"""

import math
from dataclasses import dataclass

from ..errors import KitgenError

DUPLEX_MODES = ("long", "short", "none", "fold")


@dataclass(frozen=True)
class CardSpec:
    width: float
    height: float
    bleed: float
    gutter: float


@dataclass(frozen=True)
class Placement:
    x: float            # trim rectangle on the page, as placed
    y: float
    width: float
    height: float
    rotation: int       # of the upright card, counter-clockwise, about the rectangle centre

    def to_page(self, card_w: float, card_h: float, u: float, v: float) -> tuple[float, float]:
        """A point of the upright card (u, v from its trim's bottom-left) on the page."""
        du, dv = u - card_w / 2, v - card_h / 2
        a = math.radians(self.rotation)
        cos, sin = round(math.cos(a)), round(math.sin(a))
        return (self.x + self.width / 2 + du * cos - dv * sin,
                self.y + self.height / 2 + du * sin + dv * cos)

    def rect_to_page(self, card_w: float, card_h: float, box) -> list[float]:
        """A box [x, y, w, h] of the upright card as [x0, y0, x1, y1] on the page."""
        x, y, w, h = box
        xs, ys = zip(*(self.to_page(card_w, card_h, u, v) for u, v in ((x, y), (x + w, y + h))))
        return [round(min(xs), 3), round(min(ys), 3), round(max(xs), 3), round(max(ys), 3)]


@dataclass(frozen=True)
class Fold:
    """The fold line of a gutter-fold sheet: ``axis`` "x" is a vertical line at x =
    ``position`` (fronts left of it), "y" a horizontal one at y = ``position`` (fronts above)."""

    axis: str
    position: float


@dataclass(frozen=True)
class Grid:
    """How cards of one size sit on one sheet."""

    page_width: float
    page_height: float
    cols: int
    rows: int
    rotated: bool              # cards turned 90 degrees to fit more
    slots: tuple[Placement, ...]   # row by row from the top-left, fronts
    fold: Fold | None = None   # a gutter-fold sheet: the slots are the fronts' half, backs mirrored across this

    @property
    def per_sheet(self) -> int:
        return self.cols * self.rows


def _fit(usable_w: float, usable_h: float, card: CardSpec, gutter: float) -> tuple[int, int, bool]:
    """Columns and rows of cards in a usable area, upright or turned 90 degrees,
    whichever holds more (upright on a tie)."""
    def fit(w: float, h: float) -> tuple[int, int]:
        cols = int((usable_w + gutter + 1e-6) // (w + gutter)) if usable_w >= w else 0
        rows = int((usable_h + gutter + 1e-6) // (h + gutter)) if usable_h >= h else 0
        return cols, rows

    upright, turned = fit(card.width, card.height), fit(card.height, card.width)
    rotated = turned[0] * turned[1] > upright[0] * upright[1]
    cols, rows = turned if rotated else upright
    return cols, rows, rotated


def _too_big(card: CardSpec, page_w: float, page_h: float, where: str = "a") -> KitgenError:
    return KitgenError(f"a {card.width / 72 * 25.4:.0f} x {card.height / 72 * 25.4:.0f} mm card does not fit "
                       f"on {where} {page_w / 72 * 25.4:.0f} x {page_h / 72 * 25.4:.0f} mm sheet inside its margins; "
                       "choose larger paper or a smaller card in the layout")


def _block(card: CardSpec, cols: int, rows: int, rotated: bool, gutter: float):
    """The width and height of a card as placed, and of a block of cols x rows of them."""
    w, h = (card.height, card.width) if rotated else (card.width, card.height)
    return w, h, cols * w + (cols - 1) * gutter, rows * h + (rows - 1) * gutter


def _slots(x0: float, y_top: float, cols: int, rows: int, w: float, h: float, gutter: float,
           rotated: bool) -> tuple[Placement, ...]:
    return tuple(
        Placement(round(x0 + c * (w + gutter), 4), round(y_top - h - r * (h + gutter), 4), w, h, 90 if rotated else 0)
        for r in range(rows) for c in range(cols))


def impose(page_w: float, page_h: float, margin: float, card: CardSpec, mark_zone: float) -> Grid:
    """Fill the printable area (inside ``margin``) with as many cards as fit,
    upright or turned 90 degrees, whichever holds more (upright on a tie).
    ``mark_zone`` is kept clear around the block for crop marks."""
    gutter = max(card.gutter, 2 * card.bleed)
    usable_w = page_w - 2 * margin - 2 * mark_zone - 2 * card.bleed
    usable_h = page_h - 2 * margin - 2 * mark_zone - 2 * card.bleed
    cols, rows, rotated = _fit(usable_w, usable_h, card, gutter)
    if cols * rows == 0:
        raise _too_big(card, page_w, page_h)
    w, h, block_w, block_h = _block(card, cols, rows, rotated, gutter)
    x0, y_top = (page_w - block_w) / 2, (page_h + block_h) / 2
    return Grid(page_w, page_h, cols, rows, rotated, _slots(x0, y_top, cols, rows, w, h, gutter, rotated))


def impose_fold(page_w: float, page_h: float, margin: float, card: CardSpec, mark_zone: float,
                fold_gutter: float) -> Grid:
    """A gutter-fold sheet (docs/design.md §8.2): the fronts fill one half of the printable
    area, their block against the fold's gutter (``fold_gutter`` between the fronts' and the
    backs' trim edges, at least twice the bleed; the fold line in its middle); the backs
    are the fronts mirrored across the fold. The fold runs across the page (fronts above
    it) or down it (fronts left of it), whichever holds more cards (across on a tie)."""
    gutter = max(card.gutter, 2 * card.bleed)
    gap = max(fold_gutter, 2 * card.bleed)
    edge = margin + mark_zone + card.bleed          # from the paper's edge to the nearest trim edge
    full_w, full_h = page_w - 2 * edge, page_h - 2 * edge
    across = _fit(full_w, (page_h - gap) / 2 - edge, card, gutter)
    down = _fit((page_w - gap) / 2 - edge, full_h, card, gutter)
    vertical = down[0] * down[1] > across[0] * across[1]
    cols, rows, rotated = down if vertical else across
    if cols * rows == 0:
        raise _too_big(card, page_w, page_h, "half a")
    w, h, block_w, block_h = _block(card, cols, rows, rotated, gutter)
    if vertical:
        fold = Fold("x", page_w / 2)
        x0, y_top = page_w / 2 - gap / 2 - block_w, (page_h + block_h) / 2
    else:
        fold = Fold("y", page_h / 2)
        x0, y_top = (page_w - block_w) / 2, page_h / 2 + gap / 2 + block_h
    return Grid(page_w, page_h, cols, rows, rotated, _slots(x0, y_top, cols, rows, w, h, gutter, rotated), fold)


def back_of(front: Placement, page_w: float, page_h: float, duplex: str) -> Placement:
    """Where a card's back goes on the back page so that it lands behind its front.

    The sheet turns over about its long edge (``long``) or its short edge
    (``short``). On portrait paper a long-edge flip mirrors x (columns
    reversed) and a short-edge flip mirrors y (rows reversed); on landscape
    paper it is the other way round. The back is turned so that its top edge
    is the front's top edge. With ``none`` the back sits where the front does."""
    if duplex == "none":
        return front
    portrait = page_h >= page_w
    if (duplex == "long") == portrait:
        return mirrored(front, Fold("x", page_w / 2))
    return mirrored(front, Fold("y", page_h / 2))


def mirrored(front: Placement, line: Fold) -> Placement:
    """The place of a card's back mirrored across ``line``: a sheet turned over about it
    (a duplex flip, the line through the page's middle) or folded along it (a gutter fold).
    Mirrored across a vertical line, the back turns by -r; across a horizontal one, by
    180 - r: either way its top edge lands on the front's top edge."""
    if line.axis == "x":
        return Placement(round(2 * line.position - front.x - front.width, 4), front.y, front.width, front.height,
                         (-front.rotation) % 360)
    return Placement(front.x, round(2 * line.position - front.y - front.height, 4), front.width, front.height,
                     (180 - front.rotation) % 360)


@dataclass(frozen=True)
class Page:
    side: str                                       # "front", "back", or "fold": fronts and their backs
    cards: tuple[tuple[int, Placement], ...]        # (card index, where it goes): the side's faces, or the fronts
    backs: tuple[tuple[int, Placement], ...] = ()   # a fold page's backs, mirrored across the fold

    @property
    def placements(self) -> list[Placement]:
        """Every face on the page."""
        return [p for _, p in self.cards + self.backs]


def centred(grid: Grid, count: int) -> tuple[Placement, ...]:
    """The first ``count`` slots of a sheet, moved so that the block they make sits in the
    middle of the page: a last sheet's rows down by half the rows it leaves empty, and a
    lone short row across by half its empty columns as well."""
    slots = grid.slots[:count]
    if count >= grid.per_sheet or not count:
        return slots
    rows = -(-count // grid.cols)
    down = (slots[(rows - 1) * grid.cols].y - grid.slots[-1].y) / 2
    across = (grid.slots[grid.cols - 1].x - slots[-1].x) / 2 if rows == 1 else 0.0
    return tuple(Placement(round(p.x + across, 4), round(p.y - down, 4), p.width, p.height, p.rotation)
                 for p in slots)


def paginate(count: int, grid: Grid, duplex: str, backs: bool = True) -> list[Page]:
    """Pages for ``count`` double-sided cards: each front page followed by its back page,
    or on a gutter-fold grid one page a sheet, fronts and backs. A last sheet that is not
    full has its cards centred on the page (or its half: ``centred``)."""
    if duplex not in DUPLEX_MODES:
        raise KitgenError(f"unknown duplex mode {duplex!r}; use one of {', '.join(DUPLEX_MODES)}")
    if (grid.fold is not None) != (duplex == "fold" and backs):
        raise ValueError("a gutter-fold grid is for double-sided cards with --duplex fold, and only for them")
    pages = []
    for start in range(0, count, grid.per_sheet):
        indices = range(start, min(start + grid.per_sheet, count))
        fronts = tuple(zip(indices, centred(grid, len(indices))))
        if grid.fold is not None:
            pages.append(Page("fold", fronts, tuple((i, mirrored(slot, grid.fold)) for i, slot in fronts)))
            continue
        pages.append(Page("front", fronts))
        if backs:
            pages.append(Page("back", tuple(
                (i, back_of(slot, grid.page_width, grid.page_height, duplex)) for i, slot in fronts)))
    return pages


def crop_marks(page: Page, bleed: float, offset: float, length: float, page_size=None,
               cut_lines_to: float | None = None) -> list[tuple[float, float, float, float]]:
    """Line segments (x0, y0, x1, y1) marking every trim edge, outside the block of
    cards and its bleed, so no mark touches a card. With ``cut_lines_to`` (the
    printable margin) each mark runs the full margin instead: a cut line."""
    if not page.cards:
        return []
    rects = page.placements
    left = min(p.x for p in rects) - bleed - offset
    right = max(p.x + p.width for p in rects) + bleed + offset
    bottom = min(p.y for p in rects) - bleed - offset
    top = max(p.y + p.height for p in rects) + bleed + offset
    xs = sorted({round(v, 3) for p in rects for v in (p.x, p.x + p.width)})
    ys = sorted({round(v, 3) for p in rects for v in (p.y, p.y + p.height)})
    if cut_lines_to is not None and page_size is not None:
        edge = cut_lines_to
        width, height = page_size
        up, down, lft, rgt = height - edge - top, bottom - edge, left - edge, width - edge - right
    else:
        up = down = lft = rgt = length
    segments = []
    for x in xs:
        segments.append((x, top, x, top + up))
        segments.append((x, bottom - down, x, bottom))
    for y in ys:
        segments.append((left - lft, y, left, y))
        segments.append((right, y, right + rgt, y))
    return segments
