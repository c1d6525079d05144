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
    _check_campaign(layout.campaign, fail)


def _check_campaign(sheet, fail) -> None:
    """The duet edition's campaign sheet: its labels can shrink to fit, and a mission's box
    holds its tick box and some room for the texts beside it."""
    for name in ("title", "name", "numbers"):
        if sheet[name].min_size > sheet[name].size:
            fail(f"campaign.{name}: min_size is larger than size")
    for name in ("title", "text"):
        if sheet[name].leading < sheet[name].size:
            fail(f"campaign.{name}.leading is less than its size: lines would overlap; raise the leading")
    width, height = sheet.mission.size
    if sheet.tick.size + 2 * sheet.mission.inset > height or sheet.tick.size + 3 * sheet.mission.inset >= width:
        fail("campaign.tick.size and campaign.mission.inset leave no room in campaign.mission.size; "
             "make the box larger or the tick box smaller")
    if sheet.footer.y + sheet.footer.size > sheet.margin:
        fail("campaign.footer must sit inside campaign.margin: lower footer.y or footer.size, or raise the margin")


def load(name_or_path="default", overlays: tuple[str, ...] = ()):
    """A layout for Codenames components, checked by the kernel and by :func:`check`."""
    return layouts.load(name_or_path, overlays, checks=(check,))
