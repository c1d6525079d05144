"""Key cards on the pages of a PDF kitgen drew, read flat (docs/design.md §5.3).

A page kitgen drew is read as it was drawn: every card lies square to the page at the size its
layout gives, so no photo registration is needed. A card's trim comes from the kit's manifest
(each key's page and rectangle, when the PDF is the manifest's own file, by its SHA-256) or,
without one, from its QR code's corners and the layout (where the QR lies on the card). The card
is cut out of the page's render, turned upright by its QR (a fold sheet's backs may be turned),
its QR read there by zxing, and its cells read as a photo's flattened card's are
(``cards.CardReader``). A card whose QR does not lie where its layout puts it is handed back to
the photo reader (``verify.check_image``, which the caller gives), so nothing is read worse than before.

Pages are read by forked workers, a few pages a task, the results in page order: each worker
holds one page at a time, and each opens the PDF itself."""

import math
from dataclasses import dataclass

import numpy as np

from kitgen import scans
from kitgen.errors import KitgenError
from kitgen.games.codenames import cards, key_payload, photos, symbols
from kitgen.render import qr

QR_PLACE = 1.5          # modules the QR's top-left corner may lie from where the layout puts it on the card
# the least --dpi at which a kitgen PDF is read flat: its QR modules (1.2 points) are 2.4 pixels or more,
# which zxing reads on a crisp render; under it, its pages are read as photos are
FLAT_DPI = 150
QR_QUIET = 0.2         # of the QR's size, around it, cut out with it to be read at its place
PAGES_A_TASK = 6        # pages a worker reads at a time (a task's results come back together)


@dataclass(frozen=True)
class Spot:
    """Where the manifest says a key is printed: its payload, which face (a duet key's "side A"
    or "side B", else ""), its page (1-based) and its trim (points, y up: x0, y0, x1, y1)."""

    payload: str
    face: str
    page: int
    card: tuple[float, float, float, float]


def spots_by_page(secret, name: str) -> dict[int, list[Spot]]:
    """The manifest's keys printed in the file ``name``, by page."""
    pages: dict[int, list[Spot]] = {}
    duet = secret.edition == "duet"
    for payload, file, page, card in secret.positions:
        if file == name:
            pages.setdefault(page, []).append(Spot(payload, "side A" if duet else "", page, card))
    for payload, file, page, card in secret.sides:
        if file == name:
            pages.setdefault(page, []).append(Spot(payload, "side B", page, card))
    return pages


# --- one card ---------------------------------------------------------------

def _upright(card: np.ndarray):
    """The card turned so that its QR reads upright, and that QR (None when it has none that reads)."""
    codes = scans.read_qr(card)
    if not codes:
        return card, None
    (x0, y0), (x1, y1) = codes[0].corners[:2]
    turns = round(math.degrees(math.atan2(y1 - y0, x1 - x0)) / 90) % 4
    if not turns:
        return card, codes[0]
    card = np.ascontiguousarray(np.rot90(card, turns))
    codes = scans.read_qr(card)
    return card, codes[0] if codes else None


def _qr_at_place(card: np.ndarray, scale: float, layout):
    """The QR of an upright card read where its layout puts it (a twelfth of the card's pixels), with
    its corners on the card; None when it does not read there (the card may be turned)."""
    (x, y), *_ = photos.qr_on_card(layout)
    size = layout.key_card.qr.box[2]
    pad = QR_QUIET * size
    x0, y0 = max(round((x - pad) * scale), 0), max(round((y - pad) * scale), 0)
    x1, y1 = round((x + size + pad) * scale), round((y + size + pad) * scale)
    codes = scans.read_qr(np.ascontiguousarray(card[y0:y1, x0:x1]))
    if not codes:
        return None
    (a, b), (c, d) = codes[0].corners[:2]
    if not c - a > abs(d - b):             # turned: read on the whole card
        return None
    return scans.Code(codes[0].text, tuple((u + x0, v + y0) for u, v in codes[0].corners))


def _read(card: np.ndarray, code, scale: float, layouts, secret, where: str, expected: str | None = None,
          face: str | None = None):
    """The result for the upright card ``card`` (its trim, ``scale`` pixels a point) whose QR is
    ``code``, read with the first of ``layouts`` that puts the QR where it is; None when none does."""
    from PIL import Image

    text = scans.payload_of(code.text)
    placed = [lay for lay in layouts if _qr_in_place(code, scale, lay)]
    if not placed:
        return None
    result = cards.CardResult(where, text)
    if expected is not None and text != expected:
        result.problems.append(f"{result.label} is printed where the manifest puts "
                               f"{cards.CardResult(where, expected).label}")
    try:
        result.problems += cards.check_payload(text, secret)
    except KitgenError as err:
        result.problems.append(err.message)
        return result
    parsed = key_payload.decode(text)
    duet = isinstance(parsed, key_payload.DuetPayload)
    shown = cards.faces(parsed)
    grid = next(iter(shown.values()))
    rows, cols = len(grid), len(grid[0])
    image = Image.fromarray(card)
    best = None
    for lay in placed:
        reader = cards.CardReader(image, scale, lay, rows, cols, symbols.DUET_KINDS if duet else symbols.KINDS)
        cells = reader.read()
        name = reader.side(lay.key_card.start.box) if duet else ""      # a duet key's side by its start box
        if face is not None and duet and name != face:
            result.problems.append(f"{result.label}: {name} is printed where the manifest puts {face}")
        wrong = cards.compare_grid("".join(shown[name]), cells, cols, f"{result.label} {name}".rstrip())
        if best is None or len(wrong) < len(best[1]):
            best = (name, wrong)
        if not wrong:
            break
    name, wrong = best
    result.problems += wrong
    if duet and not result.problems:
        result.remarks.append(f"{name}, as its player sees it")
    return result


def _qr_in_place(code, scale: float, layout) -> bool:
    (x, y), *_ = photos.qr_on_card(layout)
    size = layout.key_card.qr.box[2]
    module = size * scale / qr.modules_across(code.text)
    return math.dist(code.corners[0], (x * scale, y * scale)) <= QR_PLACE * module \
        and abs(math.dist(*code.corners[:2]) - size * scale) <= 2 * QR_PLACE * module


def _cut(page: np.ndarray, box) -> np.ndarray | None:
    """The pixels of ``box`` (x0, y0, x1, y1 in pixels), or None when it is not all on the page."""
    x0, y0, x1, y1 = (round(v) for v in box)
    if x0 < 0 or y0 < 0 or x1 > page.shape[1] or y1 > page.shape[0] or x1 - x0 < 8 or y1 - y0 < 8:
        return None
    return np.ascontiguousarray(page[y0:y1, x0:x1])


# --- one page ---------------------------------------------------------------

def check_spots(page: np.ndarray, scale: float, height: float, spots: list[Spot], secret, layout,
                where: str) -> list:
    """Each key the manifest puts on this page (rendered at ``scale`` pixels a point; the page
    ``height`` points tall), read at its place."""
    results = []
    for spot in spots:
        x0, y0, x1, y1 = spot.card
        card = _cut(page, (x0 * scale, (height - y1) * scale, x1 * scale, (height - y0) * scale))
        label = cards.CardResult(where, spot.payload).label
        if card is None:
            results.append(cards.CardResult(where, spot.payload, [f"{label}: its card is not on the page where "
                                                                     "the manifest puts it"]))
            continue
        code = _qr_at_place(card, scale, layout)
        if code is None:
            card, code = _upright(card)
        result = _read(card, code, scale, [layout], secret, where, spot.payload, spot.face) if code else None
        if result is None:
            problem = "no QR code reads" if code is None else "its QR code does not lie where the layout puts it"
            result = cards.CardResult(where, spot.payload, [f"{label}: {problem} where the manifest puts the "
                                                               f"card{f' ({spot.face})' if spot.face else ''}"])
        results.append(result)
    return results


def check_found(page: np.ndarray, scale: float, secret, layout, where: str) -> list | None:
    """Each key card whose QR code a plain reading of the page finds, read flat (a page of kitgen's
    drawn at FLAT_DPI or more shows its codes crisp: where none is found, none is printed); None
    when the page must be read as a photo is (a code that is not a key's, or that does not lie
    as a layout puts it)."""
    codes = scans.read_qr(page)
    results = []
    for code in codes:
        if not scans.payload_of(code.text).startswith(f"{key_payload.PREFIX}:"):
            return None
        layouts = [layout] if layout else layouts_of(scans.payload_of(code.text))
        if not layouts:                 # not a key's payload after all: the photo reader says why
            return None
        lay = layouts[0]
        width, height = lay.key_card.size
        # the page's scale is known: only the QR's top-left corner and its turn are taken from zxing
        # (a corner a pixel off, carried across the card through a fitted map, would be five off)
        (x0, y0), (x1, y1) = code.corners[:2]
        turn = round(math.atan2(y1 - y0, x1 - x0) / (math.pi / 2)) % 4 * math.pi / 2
        cos, sin = round(math.cos(turn)), round(math.sin(turn))
        qx, qy = photos.qr_on_card(lay)[0]
        offsets = [(u - qx, v - qy) for u, v in ((0, 0), (width, 0), (width, height), (0, height))]
        corners = np.array([(x0 + scale * (cos * du - sin * dv), y0 + scale * (sin * du + cos * dv))
                            for du, dv in offsets])
        xs, ys = corners[:, 0], corners[:, 1]
        card = _cut(page, (xs.min(), ys.min(), xs.max(), ys.max()))
        if card is None:
            return None
        card, upright = _upright(card)
        result = _read(card, upright, scale, layouts, secret, where) if upright else None
        if result is None:
            return None
        results.append(result)
    return results


def layouts_of(text: str) -> list:
    """The layouts the key of payload ``text`` is read with without the kit's (``cards.layouts_for``)."""
    try:
        parsed = key_payload.decode(text)
    except KitgenError:
        return []
    duet = isinstance(parsed, key_payload.DuetPayload)
    return cards.layouts_for(len(parsed.side_a if duet else parsed.grid), duet)


# --- a document -------------------------------------------------------------

_job: dict = {}         # what every task needs, set before the workers are forked


def _task(pages: list[int]) -> list[tuple[int, list]]:
    """Pages (0-based) of the job's PDF, each read: (index, results)."""
    job = _job
    if job.get("document") is None:
        job["document"] = scans.open_pdf(job["path"], job["source"])
    document, scale = job["document"], job["dpi"] / 72
    out = []
    for index in pages:
        page = scans.page_of(document, index, job["dpi"], job["source"])
        height = page.get_size()[1]
        pixels = page.render(scale=scale, rev_byteorder=True).to_numpy()
        if pixels.shape[2] == 4:
            pixels = np.ascontiguousarray(pixels[:, :, :3])
        where = f"{job['prefix']}page {index + 1}"
        spots = job["spots"]
        if spots is not None:
            results = check_spots(pixels, scale, height, spots.get(index + 1, []), job["secret"], job["layout"],
                                  where)
        else:
            results = check_found(pixels, scale, job["secret"], job["layout"], where)
            if results is None:
                from PIL import Image

                results = job["photo_reader"](Image.fromarray(pixels), where, job["secret"], job["layout"])
        out.append((index, results))
    return out


def read_pdf(path, secret, layout, dpi: float, spots: dict | None, photo_reader, jobs: int = 1, progress=None,
             prefix: str = "") -> list:
    """Every key card on the pages of a PDF kitgen drew: with ``spots`` (the manifest's, by page),
    each at its place on the pages that hold them; without, those whose QR codes are found (a page
    that is not kitgen's as its layout says goes to ``photo_reader(image, where, secret, layout)``)."""
    document = scans.open_pdf(path)
    count = len(document)
    document.close()
    indices = sorted(p - 1 for p in spots if 1 <= p <= count) if spots is not None else list(range(count))
    tasks = [indices[i:i + PAGES_A_TASK] for i in range(0, len(indices), PAGES_A_TASK)]
    _job.clear()
    _job.update(path=str(path), source=str(path), dpi=dpi, spots=spots, secret=secret, layout=layout,
                prefix=prefix, document=None, photo_reader=photo_reader)
    if progress is not None:
        progress.start(len(indices), "reading pages")
    results = []
    try:
        for done in _run(tasks, jobs):
            for _, found in done:
                results += found
                if progress is not None:
                    progress.page()
    finally:
        if _job.get("document") is not None:
            _job["document"].close()
        _job.clear()
        if progress is not None:
            progress.finish()
    return results


def _run(tasks, jobs: int):
    from kitgen.games.codenames.key_volumes import forked

    return forked(_task, tasks, max(1, min(jobs, len(tasks))))
