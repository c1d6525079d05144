"""The deduction family's layout checks (the kernel checks the rest, kitgen/layouts.py):
a board whose locations hold their tiles, tracks inside the board, a case slip's panel that
holds its QR."""

from kitgen import layouts


def check(layout, fail) -> None:
    board, tile = layout.board, layout.city_tile
    spec = board.location
    width, height = spec.size
    if spec.slot < max(tile.size):
        fail("board.location.slot is smaller than a tile (city_tile.size): the tiles would not fit their slots")
    from kitgen.games.deduction.render import board as board_mod

    p = board_mod.parts(layout, (0.0, 0.0, width, height))
    inner = (spec.padding - 1e-6, spec.padding - 1e-6,
             width - 2 * spec.padding + 2e-6, height - 2 * spec.padding + 2e-6)
    boxes = (p.name, p.suspect, p.crime, p.emblem, p.spot)
    if not all(_inside(b, inner) for b in boxes + p.feet) or any(
            _overlap(a, b) for i, a in enumerate(boxes) for b in boxes[i + 1:]):
        fail("board.location.size leaves no room for its name, two tile slots, the emblem and the investigators' "
             f"spot ({int(spec.spot.standees)} standees of tokens.investigator's width side by side)")
    tints = {"case_card.band.tint": layout.case_card.band.tint, "case_card.back.tint": layout.case_card.back.tint,
             "case_card.back.stripe_tint": layout.case_card.back.stripe_tint,
             "case_card.back.emblem.tint": layout.case_card.back.emblem.tint,
             "city_tile.band.tint": tile.band.tint, "city_tile.back.tint": tile.back.tint,
             "city_tile.back.emblem.tint": tile.back.emblem.tint, "tokens.tint": layout.tokens.tint,
             "tokens.symbol_tint": layout.tokens.symbol_tint}
    for name, share in tints.items():
        if share > 1:
            fail(f"{name} is a share of a colour, from 0 (paper) to 1 (the colour), not {share:g}")
    slip = layout.slip
    width, third = slip.panel
    if slip.qr + 2 * slip.margin > min(third, width / 2):
        fail("slip.panel leaves no room for the QR (slip.qr) and slip.margin on the case panel: a panel must be at "
             "least qr + 2 x margin tall, and twice that wide")
    setup = layout.setup
    if setup.min_row > setup.row:
        fail("setup.min_row is larger than setup.row")
    bw, bh = board.size
    for name in ("map", "title", "score_track", "penalty_track"):
        x, y, w, h = board[name].box
        if x < 0 or y < 0 or x + w > bw + 1e-6 or y + h > bh + 1e-6:
            fail(f"board.{name}.box must lie inside the board")


def _inside(box, outer) -> bool:
    x, y, w, h = box
    ox, oy, ow, oh = outer
    return w > 0 and h > 0 and x >= ox and y >= oy and x + w <= ox + ow and y + h <= oy + oh


def _overlap(a, b) -> bool:
    return a[0] < b[0] + b[2] and b[0] < a[0] + a[2] and a[1] < b[1] + b[3] and b[1] < a[1] + a[3]


def load(name_or_path="default", overlays: tuple[str, ...] = ()):
    """A layout for deduction components, checked by the kernel and by :func:`check`."""
    return layouts.load(name_or_path, overlays, checks=(check,), under=("deduction-base",))
