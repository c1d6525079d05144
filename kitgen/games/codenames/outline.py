"""Key cards whose QR code cannot be read, found by their outline and told by their printed grid
among the kit's deck (docs/design.md §5.2, "Without the QR code").

A card's outline is the edge of its lights against the table, the edge of its pale panel inside
them, or the edge of its grid of cells: each is four-sided, and is found as a convex quadrilateral
among the photo's edges (OpenCV's Canny on its grey and on its colours, at two working sizes, then
contours simplified to four corners). Each quadrilateral is tried as each outline a card shows
(``SHAPES``: its trim, its panel, inside lights on two edges only, its grid), at each of the four
quarter turns: the card is drawn flat through that map and its cells are read
(``cards.CardReader``), with how clearly each cell is not each other type (its *evidence*). A face of
the deck (a key's grid; a duet key's two sides) is then as far from what was read as the evidence
against it, summed over its cells: 0 when every cell reads as that face, about 1 for a face that
differs in one cell read clearly. The nearest face is named only when it is within ``IDENTIFY`` and
every other face of the deck, at any turn, is at least ``SEPARATION`` farther (a tell under
``DISTINCT`` times as far is weak: it stands only if the card then checks): then the card is checked
as if its QR code had been read (``verify._check_code``, from that map), so the verdict is the one its
QR code would have given."""

import math
from dataclasses import dataclass, field

import numpy as np

from kitgen import registration, scans
from kitgen.games.codenames import duet_keys, key_deck, key_payload, photos, symbols

# pixels across at most, of the photo searched for outlines: at 1600 a card 300 px wide keeps sharp corners;
# at 800 the edges of a photo out of focus or shaken are twice as steep (Canny finds them)
WORK = (1600, 800)
# OpenCV Canny's thresholds, on the photo softened by a Gaussian of 1 px: each pair's outlines are kept (the
# first keeps a card's edges apart from a wood table's grain; the second finds a white card on a pale desk)
CANNY = ((40, 120), (20, 60))
CHROMA_SPAN = (1, 99)   # the percentiles of a colour channel stretched to 0-255 for its outlines
CHROMA_LEAST = 8.0      # the least span stretched so: a photo of one hue is not stretched into noise
SIMPLIFY = 0.03         # of an outline's length: how far its corners may be simplified to four
SIDE_RATIO = 2.2        # longest over shortest side of a card's outline, at most (a square card tilted 60°)
MIN_CARD = 150          # pixels: the narrowest card looked for (its cells 25 px wide)
SAME = 0.04             # of a quadrilateral's size: two whose corners are all this near are one
IDENTIFY = 3.0          # the most evidence against the nearest face for it to be named
CONFIDENT = 0.2         # evidence against a face told by an outline under which the outlines inside it are not tried
SEPARATION = 0.5        # how much more evidence against every other face, at any turn
DISTINCT = 2.0          # less than this many times as much: a weak tell, which stands only if every cell then checks
MAPS = 3                # the maps (outlines and turns) that read the face told tried in turn, best first
# the outlines a card shows, as the panel's inset taken off (across, down): its trim; its panel, inside
# lights on four edges; inside lights on the top and bottom edges only (the pictures edition's, whose
# sides are paper to the trim), or on the left and right only; and "grid", the edge of its cells (on a
# pale table a card's paper edge may not show, its grid's always does)
SHAPES = ((0, 0), (1, 1), (0, 1), (1, 0), "grid")


@dataclass
class Found:
    """A card told by its grid: its payload, the face shown ("" for a one-sided key), the map from
    the card (points, y down) to the photo, the evidence against it and against the next nearest
    face, and how many cells differ from that next face."""

    payload: str
    face: str
    matrix: np.ndarray
    against: float
    nearest: float
    nearest_cells: int
    deck: "Deck | None" = None
    others: list = field(default_factory=list)      # the next maps that read the same face, best first
    wrong: int = 0                  # cells of the face that the outline's own reading read otherwise
    weak: bool = False              # the nearest other face under DISTINCT times as far: told only if it then checks


def outlines(grey: np.ndarray, photo: np.ndarray | None = None) -> list[np.ndarray]:
    """The convex four-sided outlines in ``grey`` that could be a card's trim, panel or grid, largest
    first, each as 4 corners (pixels) in clockwise order on the screen (y down), found at each of
    the ``WORK`` sizes. With ``photo`` (RGB), also the outlines of its colours (``_chroma``): a pale
    tinted card on a pale table, or its tinted lights against its paper, differ in hue where their
    greys are alike."""
    found: list = []
    for work in WORK:
        _outlines_at(grey, photo, min(1.0, work / max(grey.shape)), found)
    return [q for q, _ in sorted(found, key=lambda f: -f[1])]


def _outlines_at(grey, photo, scale: float, found: list) -> None:
    """``outlines`` of the photo drawn at ``scale``, added to ``found`` ((corners, area) pairs) unless
    one there is the same."""
    import cv2

    def smaller(view):
        return cv2.resize(view, None, fx=scale, fy=scale, interpolation=cv2.INTER_AREA) if scale < 1 else view

    small = smaller(grey)
    contours = []
    for view in [small] if photo is None else [small, *_chroma(smaller(photo))]:
        soft = cv2.GaussianBlur(view, (0, 0), 1.0)
        for low, high in CANNY:
            edges = cv2.dilate(cv2.Canny(soft, low, high), np.ones((3, 3), np.uint8))
            contours += cv2.findContours(edges, cv2.RETR_LIST, cv2.CHAIN_APPROX_SIMPLE)[0]
    least = MIN_CARD * scale * 0.8
    frame = small.shape[0] * small.shape[1]
    for contour in contours:
        hull = cv2.convexHull(contour)
        area = cv2.contourArea(hull)
        if area < least * least or area > 0.8 * frame:
            continue
        corners = cv2.approxPolyDP(hull, SIMPLIFY * cv2.arcLength(hull, True), True).reshape(-1, 2).astype(float)
        if len(corners) != 4:
            continue
        sides = [math.dist(corners[i], corners[(i + 1) % 4]) for i in range(4)]
        if min(sides) < least or max(sides) > SIDE_RATIO * min(sides):
            continue
        corners /= scale
        if _signed_area(corners) < 0:
            corners = corners[::-1]
        size = max(sides) / scale
        if not any(np.abs(_aligned(corners, q) - q).max() < SAME * size for q, _ in found):
            found.append((corners, area / scale / scale))


def _chroma(photo: np.ndarray) -> list[np.ndarray]:
    """The photo's two CIELAB colour channels (red-green, yellow-blue), each stretched from its
    ``CHROMA_SPAN`` percentiles to 0-255 so that Canny's thresholds mean the same on a faint tint."""
    import cv2

    lab = cv2.cvtColor(photo, cv2.COLOR_RGB2LAB)
    out = []
    for index in (1, 2):
        channel = lab[:, :, index]
        low, high = np.percentile(channel, CHROMA_SPAN)
        stretch = 255.0 / max(float(high - low), CHROMA_LEAST)
        out.append(cv2.convertScaleAbs(channel, alpha=stretch, beta=-float(low) * stretch))
    return out


def _signed_area(corners) -> float:
    x, y = corners[:, 0], corners[:, 1]
    return float(np.dot(x, np.roll(y, -1)) - np.dot(y, np.roll(x, -1))) / 2


def _aligned(corners, other):
    """``corners`` turned (their order rolled) to lie nearest ``other``'s."""
    return min((np.roll(corners, k, axis=0) for k in range(4)), key=lambda c: float(np.abs(c - other).sum()))


@dataclass(frozen=True)
class Deck:
    """The faces a kit's key cards may show, as rows of type indices, with their payloads."""

    payloads: tuple[str, ...]
    names: tuple[str, ...]           # the face each row is: "", "side A", "side B"
    cells: np.ndarray                # (faces, cells) indices into ``kinds``
    kinds: str
    rows: int
    cols: int
    edition: str = "words"
    kit_known: bool = True           # False: the payloads carry UNKNOWN_KIT (--seed and --keys alone)


UNKNOWN_KIT = "KIT"     # the kit id of the payloads of a deck told by its seed alone (their check codes are the seed's)
_decks: dict = {}


def decks_of(secret) -> list[Deck]:
    """The decks a card may be told among: the kit's (its manifest gives seed, kit id, edition and
    size), or, given the seed and the deck's size alone, each edition's deck of that size."""
    from kitgen.games.codenames.editions import EDITIONS

    if not secret or not secret.total:
        return []
    editions = [secret.edition] if secret.edition in EDITIONS else list(EDITIONS)
    return [_deck(secret.seed, secret.kit, EDITIONS[name], secret.total) for name in editions]


def _deck(seed: str, kit: str | None, edition, total: int) -> Deck:
    from kitgen.games.codenames.cards import deck

    key = (seed, kit, edition.name, total)
    if key not in _decks:
        duet = edition.cooperative
        cards = deck(seed, None if duet else edition.rows, total)
        code = key_deck.kit_secret(seed)
        kinds = symbols.DUET_KINDS if duet else symbols.KINDS
        payloads, names, grids = [], [], []
        for card in cards:
            text = key_payload.encode_duet(kit or UNKNOWN_KIT, card, code) if duet else \
                key_payload.encode(kit or UNKNOWN_KIT, card, code)
            sides = {"side A": card.side_a, "side B": duet_keys.half_turn(card.side_b)} if duet else {"": card.grid}
            for name, grid in sides.items():
                payloads.append(text)
                names.append(name)
                grids.append([kinds.index(c) for c in "".join(grid)])
        if len(_decks) > 6:
            _decks.clear()
        _decks[key] = Deck(tuple(payloads), tuple(names), np.array(grids, np.int16), kinds, edition.rows, edition.cols,
                           edition.name, kit is not None)
    return _decks[key]


def against(deck: Deck, evidence: list[dict]) -> np.ndarray:
    """For each face of the deck, the evidence against it of a card read so (summed over its cells)."""
    table = np.array([[e.get(k, 0.0) for k in deck.kinds] for e in evidence], float)      # (cells, kinds)
    return table[np.arange(table.shape[0])[None, :], deck.cells].sum(axis=1)


def find(photo: np.ndarray, grey: np.ndarray, decks, skip=()) -> list[Found]:
    """The cards in the photo told by their grids among ``decks`` ((deck, layouts) pairs: every face
    of every deck competes), each once, none whose payload is in ``skip``. The outlines are tried
    largest first; one inside an outline already told is tried too unless that was told within
    ``CONFIDENT`` and read in every cell as its face (a card's grid inside a wrongly taken outline),
    and the better (``_nearer``) stands."""
    told: list[list] = []           # [outline, Found]
    for quad in outlines(grey, photo):
        centre = quad.mean(axis=0)
        holder = next((entry for entry in told if _inside(centre, entry[0])), None)
        if holder is not None and holder[1].against <= CONFIDENT and not holder[1].wrong:
            continue
        found = _told(photo, quad, decks)
        if found is None:
            continue
        if holder is None:
            told.append([quad, found])
        elif _nearer(found, holder[1]):
            holder[:] = [quad, found]
    out: list[Found] = []
    for _, found in sorted(told, key=lambda entry: entry[1].against):
        if found.payload not in skip and not any(f.payload == found.payload and f.face == found.face for f in out):
            out.append(found)
    return out


def _nearer(found: Found, other: Found) -> bool:
    """Whether ``found`` is the better of two outlines, one inside the other, of one card: of the same
    face, the one whose own reading reads fewer cells otherwise; else the face with less against it."""
    if (found.payload, found.face) == (other.payload, other.face) and found.wrong != other.wrong:
        return found.wrong < other.wrong
    return found.against < other.against


def _told(photo, quad, decks) -> Found | None:
    """The face of ``decks`` the card of outline ``quad`` shows, if it is told: its nearest reading
    within ``IDENTIFY``, every other face ``SEPARATION`` farther."""
    candidates = []          # (evidence, (deck, face), map, wrong): each reading's nearest face and its next
    for number, (deck, layouts) in enumerate(decks):
        for lay in layouts:
            for shape in range(len(SHAPES)):
                for turn in range(4):
                    reading = _reading(photo, quad, lay, shape, turn, deck.rows, deck.cols, deck.kinds)
                    if reading is None:
                        continue
                    costs = against(deck, reading.evidence)
                    read = np.array([deck.kinds.find(c) for c in reading.cells])
                    for index in np.argsort(costs, kind="stable")[:2]:
                        wrong = int((deck.cells[index] != read).sum())
                        candidates.append((float(costs[index]), (number, int(index)), reading.matrix, wrong))
    if not candidates:
        return None
    cost, (number, index), matrix, wrong = min(candidates, key=lambda c: c[0])
    deck = decks[number][0]
    nearest = min((c[0] for c in candidates if c[1] != (number, index)), default=math.inf)
    if cost > IDENTIFY or nearest < cost + SEPARATION:
        return None
    differ = (deck.cells != deck.cells[index]).sum(axis=1)
    differ[index] = deck.cells.shape[1] + 1
    others = [c[2] for c in sorted(candidates, key=lambda c: c[0]) if c[1] == (number, index) and c[2] is not matrix]
    return Found(deck.payloads[index], deck.names[index], matrix, cost, nearest, int(differ.min()), deck,
                 others[:MAPS - 1], wrong, nearest < DISTINCT * cost)


def _inside(point, quad) -> bool:
    import cv2

    return cv2.pointPolygonTest(quad.astype(np.float32), (float(point[0]), float(point[1])), False) >= 0


def qr_codes(found: Found, layout) -> list[scans.Code]:
    """The QR code the card's payload would be, where each of its maps (best first) puts the QR box."""
    out = []
    for matrix in [found.matrix, *found.others]:
        corners = registration.apply(matrix, photos.qr_on_card(layout))
        out.append(scans.Code(found.payload, tuple((float(x), float(y)) for x, y in corners), matrix))
    return out


def _counts_fit(cells: str, edition) -> bool:
    """Whether a card read so has an edition's counts of each type (a key card's, whichever key)."""
    if edition.cooperative:
        return (cells.count("G"), cells.count("N"), cells.count("A")) == \
            (edition.starting_agents, edition.bystanders, edition.assassins)
    agents = sorted((cells.count("R"), cells.count("B")))
    return agents == sorted((edition.starting_agents, edition.other_agents)) and \
        (cells.count("N"), cells.count("A")) == (edition.bystanders, edition.assassins)


def key_cards_in_view(photo: np.ndarray, grey: np.ndarray, layouts) -> int:
    """How many outlines in the photo read as a key card of some edition (``layouts``: (edition,
    layout) pairs) -- its cells hold that edition's counts of each type -- without a deck to tell
    which key: the cards in view whose QR codes cannot be read."""
    count, taken = 0, []
    for quad in outlines(grey, photo):
        if any(_inside(quad.mean(axis=0), q) for q in taken):
            continue
        if any(_reads_as_key(photo, quad, edition, lay) for edition, lay in layouts):
            count += 1
            taken.append(quad)
    return count


def _reads_as_key(photo, quad, edition, layout) -> bool:
    kinds = symbols.DUET_KINDS if edition.cooperative else symbols.KINDS
    for shape in range(len(SHAPES)):
        for turn in range(4):
            reading = _reading(photo, quad, layout, shape, turn, edition.rows, edition.cols, kinds)
            if reading is not None and _counts_fit(reading.cells, edition):
                return True
    return False


@dataclass(frozen=True)
class Reading:
    """A card read through one trial map: its cells, each cell's evidence, and the map."""

    cells: str
    evidence: list
    matrix: np.ndarray


def _reading(photo, quad, layout, shape: int, turn: int, rows: int, cols: int, kinds: str) -> Reading | None:
    """The card whose outline ``SHAPES[shape]`` is ``quad``, at quarter ``turn``, drawn flat and
    read (``CardReader.read``); None for a degenerate quad."""
    from kitgen.games.codenames.cards import CardReader

    card = layout.key_card
    width, height = card.size
    if SHAPES[shape] == "grid":
        points = photos.grid_on_card(layout)
    else:
        across, down = SHAPES[shape]
        x, y = card.panel.inset * across, card.panel.inset * down
        points = [(x, y), (width - x, y), (width - x, height - y), (x, height - y)]
    try:
        matrix = registration.homography(points, np.roll(quad, turn, axis=0))
    except ValueError:
        return None
    native = registration.pixels_per_unit(matrix, width / 2, height / 2)
    flat, scale, _ = photos.flatten(photo, photos.Placed(matrix, native), layout)
    reader = CardReader(flat, scale, layout, rows, cols, kinds)
    cells = reader.read()
    return Reading(cells, reader.evidence, matrix)
