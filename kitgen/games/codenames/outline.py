"""Key cards whose QR code cannot be read, found by their outline and told by their printed grid
among the kit's deck (docs/design.md §5.2, "Without the QR code").

A card's outline is the edge of its lights against the table, and the edge of its pale panel
inside them: both are four-sided, and each is found as a convex quadrilateral among the photo's
edges (OpenCV's Canny, then contours simplified to four corners). Each quadrilateral is tried as
each outline a card shows (``SHAPES``: its trim, its panel, inside lights on two edges only), at
each of the four quarter turns: the card is drawn flat
through that map and its cells are read (``cards.CardReader``), with how clearly each cell is
not each other type (its *evidence*). A face of the deck (a key's grid; a duet key's two sides)
is then as far from what was read as the evidence against it, summed over its cells: 0 when
every cell reads as that face, about 1 for a face that differs in one cell read clearly. The
nearest face is named only when it is within ``IDENTIFY`` and every other face of the deck, at
any turn, is at least ``SEPARATION`` farther: then the card is checked as if its QR code had
been read (``verify._check_code``, from that map), so the verdict is the one its QR code would
have given."""

import math
from dataclasses import dataclass, field

import numpy as np

from kitgen import registration, scans
from kitgen.games.codenames import duet_keys, key_deck, key_payload, photos, symbols

WORK = 1600             # pixels across at most, of the photo searched for outlines (a card still 75 px wide)
# OpenCV Canny's thresholds, on the photo softened by a Gaussian of 1 px: each pair's outlines are kept (the
# first keeps a card's edges apart from a wood table's grain; the second finds a white card on a pale desk)
CANNY = ((40, 120), (20, 60))
SIMPLIFY = 0.03         # of an outline's length: how far its corners may be simplified to four
SIDE_RATIO = 2.2        # longest over shortest side of a card's outline, at most (a square card tilted 60°)
MIN_CARD = 150          # pixels: the narrowest card looked for (its cells 25 px wide)
SAME = 0.04             # of a quadrilateral's size: two whose corners are all this near are one
IDENTIFY = 3.0          # the most evidence against the nearest face for it to be named
SEPARATION = 0.5        # how much more evidence against every other face, at any turn
MAPS = 3                # the maps (outlines and turns) that read the face told tried in turn, best first
# the outlines a card shows, as the panel's inset taken off (across, down): its trim; its panel, inside
# lights on four edges; inside lights on the top and bottom edges only (the pictures edition's, whose
# sides are paper to the trim), or on the left and right only
SHAPES = ((0, 0), (1, 1), (0, 1), (1, 0))


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


def outlines(grey: np.ndarray) -> list[np.ndarray]:
    """The convex four-sided outlines in ``grey`` that could be a card's trim or panel, largest
    first, each as 4 corners (pixels) in clockwise order on the screen (y down)."""
    import cv2

    scale = min(1.0, WORK / max(grey.shape))
    small = cv2.resize(grey, None, fx=scale, fy=scale, interpolation=cv2.INTER_AREA) if scale < 1 else grey
    soft = cv2.GaussianBlur(small, (0, 0), 1.0)
    contours = []
    for low, high in CANNY:
        edges = cv2.dilate(cv2.Canny(soft, low, high), np.ones((3, 3), np.uint8))
        contours += cv2.findContours(edges, cv2.RETR_LIST, cv2.CHAIN_APPROX_SIMPLE)[0]
    least = MIN_CARD * scale * 0.8
    frame = small.shape[0] * small.shape[1]
    found = []
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
            found.append((corners, area))
    return [q for q, _ in sorted(found, key=lambda f: -f[1])]


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
    of every deck competes), each once, none whose payload is in ``skip``."""
    out: list[Found] = []
    taken: list[np.ndarray] = []
    for quad in outlines(grey):
        centre = quad.mean(axis=0)
        if any(_inside(centre, q) for q in taken):
            continue
        candidates = []          # (evidence, (deck, face), map): each reading's nearest face and its next
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
            continue
        cost, (number, index), matrix, wrong = min(candidates, key=lambda c: c[0])
        deck = decks[number][0]
        if deck.payloads[index] in skip or any(f.payload == deck.payloads[index] and f.face == deck.names[index]
                                               for f in out):
            continue
        nearest = min((c[0] for c in candidates if c[1] != (number, index)), default=math.inf)
        if cost > IDENTIFY or nearest < cost + SEPARATION:
            continue
        differ = (deck.cells != deck.cells[index]).sum(axis=1)
        differ[index] = deck.cells.shape[1] + 1
        others = [c[2] for c in sorted(candidates, key=lambda c: c[0])
                  if c[1] == (number, index) and c[2] is not matrix]
        out.append(Found(deck.payloads[index], deck.names[index], matrix, cost, nearest, int(differ.min()), deck,
                         others[:MAPS - 1], wrong))
        taken.append(quad)
    return out


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
    for quad in outlines(grey):
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
