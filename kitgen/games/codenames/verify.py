"""Checking key cards: a payload, an image (scan or photo of a flat card or
sheet) or a kitgen PDF (docs/design.md §5).

Without the seed a payload is checked for structure. With the seed (or the
kit's manifest) it must be exactly key N of that kit. On an image or PDF the
printed grid is also read and compared with the QR: the QR's four corners give
the card's position, scale and turn (any angle, and a small skew);
the layout says where the cells are relative to the QR; each cell's type is
read from its colour, or from its symbol's shape when the print has no colour.
"""

import math
from dataclasses import dataclass
from pathlib import Path

from kitgen import files, scans
from kitgen.errors import KitgenError
from kitgen.games.codenames import key_payload, photos, symbols
from kitgen.games.codenames.cards import (  # noqa: F401 - read here, and verify's names as they were
    SIDE_MARK,
    CardReader,
    CardResult,
    Secret,
    _edition_layout,
    _kit_layout,
    check_payload,
    compare_grid,
    deck,
    faces,
    layouts_for,
    load_manifest,
)
from kitgen.render import qr

UNREAD = "its QR code is in view but could not be read"


def _unread(result: CardResult) -> bool:
    """Whether ``result`` is a card whose QR code was in view but not read."""
    return bool(result.problems) and UNREAD in result.problems[-1]


def unread(grey, matrix, layout, modules: int) -> str:
    """The problem of a card whose QR code is in view but unread: why, and what to do."""
    why, advice = photos.why_unread(grey, matrix, layout, modules)
    return f"{UNREAD} ({why}): {advice}"


def _check_code(code, photo, grey, where: str, secret: Secret | None, layout):
    """The result for one QR code found in a photo, and where its card lies (or None)."""
    text = scans.payload_of(code.text)
    result = CardResult(where, text)
    try:
        result.problems += check_payload(text, secret)
    except KitgenError as err:
        result.problems.append(err.message)
        return result, None
    parsed = key_payload.decode(text)
    duet = isinstance(parsed, key_payload.DuetPayload)
    shown = faces(parsed)
    grid = next(iter(shown.values()))
    rows, cols = len(grid), len(grid[0])
    candidates = layouts_for(rows, duet, layout)
    best = None
    try:
        for card_layout in candidates:
            face = _read_face(code, photo, grey, card_layout, shown, parsed, duet)
            if best is None or (not face.outside and face.wrong < best.wrong):
                best = face
            if face.outside or not face.wrong:
                break
    except ValueError:
        result.problems.append(f"{result.label}: the QR's corners are degenerate; take the photo again, "
                               "from straight above")
        return result, None
    if best.outside:
        result.problems.append(f"{result.label}: part of its grid is outside the picture; take the whole card")
    else:
        label = f"{result.label} {best.name}".rstrip()
        result.problems += compare_grid("".join(shown[best.name]), best.cells, cols, label)
        if duet and not result.problems:
            result.remarks.append(f"{best.name}, as its player sees it")
    return result, (best.placed.matrix, best.layout, qr.modules_across(code.text), text)


@dataclass
class _Face:
    """A key card's face as read: which of the key's faces it is (``name``, "" for a one-sided key),
    its cells, how many differ from that face's, where it lies, with which layout."""

    name: str
    cells: str
    wrong: int
    placed: object
    layout: object
    outside: bool = False


def _likely_first(code, grey, layout, names: list[str]) -> list[str]:
    """A duet key's two sides, the one its start box seems to show first: the box's corners seen
    through the QR's own map (before the card is registered), against the panel beside the QR.
    Only an order to try them in -- each is still confirmed on the registered card -- it saves
    registering most faces twice."""
    from kitgen import registration

    rough = registration.homography(photos.qr_on_card(layout), code.corners)
    card = layout.key_card
    height = card.size[1]
    x, y, w, h = card.start.box
    qx, qy, size, _ = card.qr.box
    points = [(x + f * w, height - (y + g * h)) for f in SIDE_MARK for g in SIDE_MARK]
    points.append((qx - size * 0.07, height - (qy + size / 2)))      # the QR's quiet zone: paper
    values = []
    for px, py in registration.apply(rough, points):
        column, row = min(max(int(px), 0), grey.shape[1] - 1), min(max(int(py), 0), grey.shape[0] - 1)
        values.append(float(grey[row, column]))
    *mark, paper = values
    filled = sorted(mark)[1:3]
    return names if sum(filled) / 2 < paper / 2 else names[::-1]


def _read_face(code, photo, grey, card_layout, shown: dict, parsed, duet: bool) -> _Face:
    """The face of the card whose QR is ``code``, read with ``card_layout``. A duet key's face is
    either side: each is tried as the registration template until the start box (filled or
    outlined) says that it is the side shown; unsaid, the side it differs from least."""
    read, marked = {}, None
    for name in _likely_first(code, grey, card_layout, list(shown)) if duet else shown:
        placed = photos.place(grey, code.corners, card_layout, shown[name], name if duet else parsed.starting_team,
                              code.text, code.card)
        flat, scale, outside = photos.flatten(photo, placed, card_layout)
        if outside:
            return _Face(name, "", 0, placed, card_layout, outside=True)
        reader = CardReader(flat, scale, card_layout, len(shown[name]), len(shown[name][0]),
                            symbols.DUET_KINDS if duet else symbols.KINDS)
        cells = reader.read()
        read[name] = _Face(name, cells, sum(a != b for a, b in zip(cells, "".join(shown[name]))), placed, card_layout)
        if duet and reader.side(card_layout.key_card.start.box) == name:
            marked = name
            break
    return read[marked] if marked else min(read.values(), key=lambda face: face.wrong)


def _sheet_offsets(payload: str | None, layout, secret: Secret | None):
    """((dx, dy), the payload expected there or None) for each neighbour of the card of
    ``payload``: every other key of its sheet, from the manifest, else the lattice."""
    positions = secret.positions if secret else ()
    mine = next((p for p in positions if p[0] == payload), None)
    if mine is None:
        return [(offset, None) for offset in photos.lattice_offsets(layout)]
    _, file, page, (x0, _, _, y1) = mine
    return [((o[3][0] - x0, y1 - o[3][3]), o[0]) for o in positions
            if o[1] == file and o[2] == page and o[0] != payload]


def _search_sheet(photo, grey, where: str, secret: Secret | None, layout, placed: list,
                  results: list[CardResult]) -> list[CardResult]:
    """The cards around those found: each neighbour whose QR is in view is read there, or
    reported as unread. With a manifest, the keys of each sheet that are not in the
    photo are named in a remark."""
    known = [photos.centre_of(matrix, lay) for matrix, lay, _, _ in placed]
    found_payloads = {r.payload for r in results}
    queue, out = list(placed), []
    while queue:
        matrix, lay, modules, payload = queue.pop(0)
        here = photos.centre_of(matrix, lay)
        for (dx, dy), expected in _sheet_offsets(payload, lay, secret):
            if expected in found_payloads:
                continue
            there = photos.shifted(matrix, dx, dy)
            centre = photos.centre_of(there, lay)
            card_px = math.dist(here, centre) * lay.key_card.size[0] / max(math.hypot(dx, dy), 1e-9)
            if any(math.dist(centre, k) < card_px / 2 for k in known):       # a card already seen there
                continue
            if not photos.qr_in_view(there, lay, grey.shape):
                continue
            # looked for from each card found next to it (a nearer card predicts its place better),
            # and once found or reported, no more
            code, finders = photos.look_for_qr(grey, there, lay, modules)
            if code is not None or finders:
                known.append(centre)
            if code is not None and scans.payload_of(code.text) not in found_payloads:
                result, card = _check_code(code, photo, grey, where, secret, layout)
                out.append(result)
                found_payloads.add(result.payload)
                if card:
                    queue.append(card)
            elif code is None and finders:
                label = CardResult(where, expected or "").label
                out.append(CardResult(where, expected or "", [f"{label}: {unread(grey, there, lay, modules)}"]))
                if expected:
                    found_payloads.add(expected)
                queue.append((there, lay, modules, expected))
    _remark_missing(results + out, secret.positions if secret else (), found_payloads)
    return out


def _remark_missing(results: list[CardResult], positions, seen: set):
    """A remark on the first card of each sheet of which the photo shows two keys or more
    (a photo of one cut card is not a photo of a sheet): which of its keys are not in it."""
    sheet_of = {p[0]: (p[1], p[2]) for p in positions}
    sheets: dict = {}
    for result in results:
        if result.payload in sheet_of:
            sheets.setdefault(sheet_of[result.payload], []).append(result)
    for sheet, shown in sheets.items():
        absent = [p[0] for p in positions if (p[1], p[2]) == sheet and p[0] not in seen]
        if len(shown) < 2 or not absent:
            continue
        numbers = ", ".join(str(n) for n in sorted(key_payload.decode(p).number for p in absent))
        shown[0].remarks.append(f"not in the picture: key{'s' if len(absent) > 1 else ''} {numbers} of the same "
                                "sheet (their QR codes are not in view)")


def check_image(image, where: str, secret: Secret | None, layout=None) -> list[CardResult]:
    """Every kitgen key card in ``image``: those whose QR codes are found, and their
    neighbours on a sheet. Without a layout, each card is read with its edition's
    built-in layout."""
    import cv2
    import numpy as np

    if isinstance(image, np.ndarray):           # an RGB array (scans.open_photo)
        photo = image
    else:
        photo = np.asarray(image if image.mode == "RGB" else image.convert("RGB"))
    grey = cv2.cvtColor(photo, cv2.COLOR_RGB2GRAY)          # ITU-R 601 luma, as PIL's "L"
    results, placed = [], []
    for code in scans.find_codes(grey):
        result, card = _check_code(code, photo, grey, where, secret, layout)
        results.append(result)
        if card:
            placed.append(card)
    results += _search_sheet(photo, grey, where, secret, layout, placed, results)
    if secret is not None and secret.total and \
            (not results or any(map(_unread, results))):
        results = _by_grid(photo, grey, where, secret, layout, results)
    if not results:
        results = _unread_cards(photo, grey, where, layout, secret)
    return results


NO_DECK = ("its QR code cannot be read: come closer, hold the phone steadier and add light; or give --kit "
           "(the kit's manifest.json), or --seed with --keys (the deck's size), to tell it by its printed grid")
NOT_TOLD = ("its QR code cannot be read, and its printed grid does not tell which of the kit's keys it is: come "
            "closer, hold the phone steadier and add light")


def _unread_cards(photo, grey, where: str, layout, secret: Secret | None) -> list[CardResult]:
    """A failure for each key card in view whose QR code cannot be read and which no deck told,
    seen by its outline and its cells' counts (the kit's edition's, with its layout; else any
    edition's, with its built-in layout)."""
    from kitgen.games.codenames import outline
    from kitgen.games.codenames.editions import EDITIONS

    problem = NOT_TOLD if secret and secret.total else NO_DECK
    if layout is not None and secret and secret.edition in EDITIONS:
        layouts = [(EDITIONS[secret.edition], layout)]
    else:
        layouts = [(e, _edition_layout(e.rows, e.cooperative)) for e in EDITIONS.values()]
    count = outline.key_cards_in_view(photo, grey, layouts)
    return [CardResult(where, "", [f"a key card: {problem}"]) for _ in range(count)]


def _by_grid(photo, grey, where: str, secret: Secret, layout, results: list[CardResult]) -> list[CardResult]:
    """``results`` with the kit's cards whose QR codes were not read, told by their printed grids
    (``outline``): each checked as its QR code would have been; a card reported unread is replaced."""
    from kitgen.games.codenames import outline
    from kitgen.games.codenames.editions import EDITIONS

    read = {r.payload for r in results if not _unread(r)}
    decks = []
    for told in outline.decks_of(secret):
        duet = EDITIONS[told.edition].cooperative
        decks.append((told, layouts_for(told.rows, duet, layout)))
    for found in outline.find(photo, grey, decks, skip=read):
        told, layouts = next(pair for pair in decks if pair[0] is found.deck)
        # checked through each map that read it, best first, until one reads it as it should be: a
        # repainted cell fails through every one, an outline taken for another (a sheet's) through one
        result = card = None
        for code in outline.qr_codes(found, layouts[0]):
            tried = _check_code(code, photo, grey, where, secret, layout)
            if result is None or len(tried[0].problems) < len(result.problems):
                result, card = tried
            if not result.problems:
                break
        if result.problems and not found.wrong and all(" cell row " in p for p in result.problems) and \
                card is not None and _moved(card[0], found.matrix, card[1]) > PULLED_OFF:
            # its outline's own map read every cell as the face's, the refined maps did not: a refinement
            # pulled off by blur; the card is judged by the reading that registered it
            result.problems = []
            result.notes.append("read through its outline")
        if found.weak and result.problems:
            # told by a reading unclear in many cells (another edition's grid read as this one's, say),
            # and not borne out by its cells: not told
            continue
        sought = photos.look_for_qr(grey, card[0], card[1], card[2])[0] if card is not None else None
        if sought is not None:      # the QR code, sought module by module where the card's grid puts it
            text = scans.payload_of(sought.text)
            if _same_key(text, found.payload, told.kit_known):
                result.notes.append("its QR code, then sought module by module where its grid puts it, agrees")
                result.payload = text
            else:
                result.problems.append(f"{result.label}: its QR code, read where its grid puts it, is "
                                       f"{CardResult(where, text).label}'s")
        among = f"the kit's {secret.total} keys" if told.kit_known else \
            f"the {secret.total} {told.edition} keys of the seed"
        if result.payload == found.payload and not told.kit_known:     # told by the seed alone: no kit id
            parsed = key_payload.decode(found.payload)
            label = result.label
            result.name = f"key {str(parsed.number).zfill(len(str(parsed.total)))}/{parsed.total}"
            result.problems = [p.replace(label, result.name, 1) for p in result.problems]
        result.remarks.append(f"its QR code could not be read: told by its printed grid among {among} (evidence "
                              f"{found.against:.1f} against it, {found.nearest:.1f} against the nearest other; "
                              f"the deck's nearest key differs in {found.nearest_cells} cells)")
        replaced = next((r for r in results if _unread(r) and r.payload in (result.payload, "")), None)
        results = [r for r in results if r is not replaced and r.payload != result.payload] + [result]
        read.add(found.payload)
    return results


PULLED_OFF = 0.25   # of a cell: a refined map whose grid lies this far from its outline's map was pulled off


def _moved(matrix, other, layout) -> float:
    """How far the grid's corners lie apart through two maps of a card, in cells (the larger way)."""
    from kitgen import registration

    corners = photos.grid_on_card(layout)
    here, there = registration.apply(matrix, corners), registration.apply(other, corners)
    cell = math.dist(here[0], here[1]) / 5          # every edition's grid is 5 cells across
    return max(math.dist(a, b) for a, b in zip(here, there)) / max(cell, 1e-9)


def _same_key(text: str, payload: str, kit_known: bool) -> bool:
    """Whether a QR's text is ``payload``; without the kit id known, the same key under any kit id
    (its fields after the kit id, but the check code, which the kit id changes)."""
    if kit_known:
        return text == payload
    read, told = text.split(":"), payload.split(":")
    return len(read) == len(told) and read[0] == told[0] and read[2:-1] == told[2:-1]


def verify(target: str, secret: Secret | None = None, dpi: float = 200, jobs: int = 1,
           progress=None) -> list[CardResult]:
    """Check a payload string, an image file, a PDF or a built kit's folder; one result per card
    found. A PDF kitgen drew is read flat (``flat``), by ``jobs`` processes, telling ``progress``
    (``start``, ``page``, ``finish``) of each page read."""
    kind, value = scans.classify(target)
    if kind == "kit":
        secret = secret or load_manifest(str(value / "manifest.json"))
    layout = _kit_layout(secret.layout, secret.ink, secret.colour, secret.edition == "duet") \
        if secret and secret.layout else None
    if kind == "payload":
        value = scans.payload_of(value)
        return [CardResult("payload", value, check_payload(value, secret))]
    from kitgen.games.codenames import flat

    if kind == "kit":
        results = _verify_kit(value, secret, layout, dpi, jobs, progress)
    elif kind == "pdf" and dpi >= flat.FLAT_DPI and _drawn_by_kitgen(value):
        results = _read_flat(value, secret, layout, dpi, jobs, progress)
    elif kind == "image":
        results = check_image(scans.open_photo(value), value.name, secret, layout)
    else:
        results = []
        key = f"{key_payload.PREFIX}:"
        for where, image in scans.images(kind, value, dpi,
                                         found=lambda: any(r.payload.startswith(key) for r in results)):
            results.extend(check_image(image, where, secret, layout))     # in place: ``found`` reads this list
    if not results:
        raise KitgenError(scans.NO_CODE, source=target)
    return results


def _drawn_by_kitgen(path) -> bool:
    document = scans.open_pdf(path)
    try:
        return scans.made_by_kitgen(document)
    finally:
        document.close()


def _read_flat(path, secret: Secret | None, layout, dpi: float, jobs: int, progress, prefix: str = ""):
    """A PDF kitgen drew, read flat: at the manifest's places when it is the manifest's own file
    (its name and SHA-256), else where its QR codes are found."""
    from kitgen.games.codenames import flat

    spots = None
    if secret is not None and secret.positions:
        name = next((name for name, digest in secret.files if Path(name).name == Path(path).name
                     and digest == files.sha256_of(path, scans.MAX_PDF_BYTES)), None)
        spots = flat.spots_by_page(secret, name) if name else None
        if spots is not None:
            if layout is None:
                layout = flat.layouts_of(secret.positions[0][0])[0]
            check_payload(secret.positions[0][0], secret)     # the deck, dealt once, before the workers fork
    return flat.read_pdf(path, secret, layout, dpi, spots or None, check_image, jobs, progress, prefix)


def _verify_kit(folder: Path, secret: Secret, layout, dpi: float, jobs: int, progress) -> list[CardResult]:
    """Every key of a built kit's folder, each in the file and at the place its manifest gives."""
    from kitgen.games.codenames import flat

    if dpi < flat.FLAT_DPI:
        raise KitgenError(f"a kit's folder is read at --dpi {flat.FLAT_DPI} or more; give a higher --dpi",
                          source=str(folder))
    named = {file for _, file, _, _ in secret.positions}
    if not named:
        raise KitgenError("its manifest lists no key cards; give the folder of a Codenames kit",
                          source=str(folder))
    results = []
    for name, _ in secret.files:
        if name in named:
            path = folder / name
            if not path.is_file():
                raise KitgenError(f"{name}, which its manifest lists, is not in the folder; build the kit again",
                                  source=str(folder))
            results += _read_flat(path, secret, layout, dpi, jobs, progress, prefix=f"{name} ")
    return results
