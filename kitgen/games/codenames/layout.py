"""The Codenames family's layouts: the kernel loads and checks any layout
(kitgen/layouts.py); what must hold for key cards and game sheets is checked here."""

from kitgen import layouts


def check(layout, fail) -> None:
    """Key cards that verify can read, and game sheets that can be drawn."""
    grid = layout.key_card.grid
    if not 0 < grid.symbol < 1:
        fail("key_card.grid.symbol is the symbol's share of a cell: a number between 0 and 1")
    if min(grid.box[2], grid.box[3]) <= 5 * grid.gap:
        fail("key_card.grid.gap leaves no room for the cells")
    qr = layout.key_card.qr.box
    if qr[2] < layouts.MIN_QR or abs(qr[2] - qr[3]) > 1e-6:
        fail("key_card.qr.box must be square and at least 10mm, or phones cannot read it")
    if not 0 < layout.game_sheet.key.max_scale <= 10:
        fail("game_sheet.key.max_scale must be above 0 and at most 10")


def load(name_or_path="default", overlays: tuple[str, ...] = ()):
    """A layout for Codenames components, checked by the kernel and by :func:`check`."""
    return layouts.load(name_or_path, overlays, checks=(check,))
