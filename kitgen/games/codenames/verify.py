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
import math
import re
from dataclasses import dataclass
from functools import cache
from pathlib import Path

from kitgen import files, scans
from kitgen.errors import KitgenError
from kitgen.games.codenames import duet_keys, key_deck, key_payload, layout as layout_mod, photos, symbols
from kitgen.games.codenames.editions import edition_for_rows
from kitgen.games.codenames.model import layout_overlays
from kitgen.games.codenames.render import cell_symbols
from kitgen.games.codenames.render.cell_symbols import TYPE_NAMES
from kitgen.render import qr

RING = (0.12, 0.2, 0.8, 0.88)   # fractions of a cell where its fill shows around the symbol
CENTRE = (-0.12, 0.0, 0.12)     # symbol half sizes from a cell's centre: inside every symbol
SYMBOL_WEIGHT = (1.0, 0.35)     # fill, symbol: the fill leads, the symbol tells pale ink-saver fills apart
FILL_LEADS = 8.0                # a fill this many times nearer one type's than any other's is that type
TEAM_INKS = 60 ** 2 * 3         # red and blue symbols whose colours differ by more tell the teams apart
CELL_INSET = 0.06               # of a cell's width, left out all round when it is matched (misregistration)
TEMPLATE_MATCH = 0.3            # the least correlation of a cell with its drawing that reads it
TEMPLATE_SOFTNESS = (0.0, 0.15, 0.3)   # blurs tried, in symbol half sizes
TEMPLATE_GAP = 0.3              # a correlation this much under the best one's: clearly not that type
INK_EVIDENCE = 0.5              # how clearly a symbol's ink tells red from blue (a tint read in a photo)
SIDE_MARK = (0.15, 0.85)        # of a duet key's start box: where a filled box (side A) is dark, an outlined one not


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
    # from a manifest: each key's payload, file, page and card rectangle, for the keys that
    # share a sheet with a key in a photo
    positions: tuple[tuple[str, str, int, tuple[float, ...]], ...] = ()
    sides: tuple[tuple[str, str, int, tuple[float, ...]], ...] = ()    # a duet key's side B, as positions
    files: tuple[tuple[str, str], ...] = ()         # each file of the kit: its path in the kit, its SHA-256


@dataclass
class CardResult(scans.Checked):
    """A key card checked; ``name``, when given, is its label (a key told by its grid and the seed
    alone, whose kit id is not known)."""

    name: str | None = None

    @property
    def label(self) -> str:
        if self.name:
            return self.name
        try:
            parsed = key_payload.decode(self.payload)
            return f"key {str(parsed.number).zfill(len(str(parsed.total)))}/{parsed.total} {parsed.kit}"
        except KitgenError:
            return "a key card" if not self.payload else "a QR code"


def load_manifest(path: str) -> Secret:
    """The seed, kit id, key count, edition and layout from a kit's manifest.json."""
    try:
        data = json.loads(scans.manifest_text(path))
        options = data.get("options", {})
        keys = data["keys"]
        return Secret(seed=data["seed"], kit=data["kit"].upper(), total=len(keys),
                      edition=data.get("edition"), layout=options.get("layout"),
                      ink=options.get("ink", "normal"), colour=options.get("colour", "rgb"),
                      positions=tuple((k["payload"], k["file"], k["page"], tuple(k["card"])) for k in keys),
                      sides=tuple((k["payload"], k["file"], k["side_b"]["page"], tuple(k["side_b"]["card"]))
                                  for k in keys if "side_b" in k),
                      files=tuple((f["path"], f["sha256"]) for f in data.get("files", ())))
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
    seeds = [secret.seed]
    game = re.fullmatch(r"G-([A-Z2-7]{6})", parsed.kit)
    if game:            # a single game's key, given the host's seed: that game's own seed (§3.5)
        from kitgen.games.codenames.single_games import game_seed

        seeds.append(game_seed(secret.seed, game[1]))
    seed = next((s for s in seeds if parsed.check == key_payload.check_code(key_deck.kit_secret(s), parsed.body)),
                None)
    if seed is None:
        problems.append(f"{label}: check code {parsed.check} does not match this seed "
                        "(a different kit, a wrong seed, or an altered key)")
        return problems
    duet = isinstance(parsed, key_payload.DuetPayload)
    key = deck(seed, None if duet else len(parsed.grid), parsed.total)[parsed.number - 1]
    drawn = (key.side_a, key.side_b) if duet else (key.starting_team, key.grid)
    if drawn != ((parsed.side_a, parsed.side_b) if duet else (parsed.starting_team, parsed.grid)):
        problems.append(f"{label} is not key {parsed.number} of this seed's deck")
    return problems


def deck(seed: str, rows: int | None, total: int) -> list:
    """The key deck of ``total`` keys of the edition of ``rows`` rows (None: the duet edition's),
    dealt once for each seed and size."""
    edition = None if rows is None else edition_for_rows(rows)
    deck_key = (seed, duet_keys.EDITION if rows is None else edition.name, total)
    if deck_key not in _decks:
        _decks[deck_key] = duet_keys.generate(seed, total) if rows is None else key_deck.generate(seed, edition, total)
    return _decks[deck_key]


def faces(parsed) -> dict[str, tuple[str, ...]]:
    """What a key's printed face may show, by name: a key card's one grid; a duet key's side A
    (its front) and side B as B's player sees it (its back; docs/design.md §12)."""
    if isinstance(parsed, key_payload.DuetPayload):
        return {"side A": parsed.side_a, "side B": duet_keys.half_turn(parsed.side_b)}
    return {"": parsed.grid}


# --- reading a printed grid --------------------------------------------------

class CardReader:
    """Reads the printed cells of one key card drawn flat (``photos.flatten``): ``image``
    shows the card's trim at ``scale`` pixels per point."""

    def __init__(self, image, scale: float, layout, rows: int, cols: int, kinds: str = symbols.KINDS):
        from kitgen.games.codenames.render.key_cards import cell_boxes

        self.image = image
        self.width, self.height = image.size
        card_height = layout.key_card.size[1]
        self.to_image = lambda u, v: (u * scale, (card_height - v) * scale)     # card points (y up) to pixels
        qx, qy, size, _ = layout.key_card.qr.box
        self.cells = cell_boxes(layout, rows, cols)
        self.symbol = layout.key_card.grid.symbol
        # each type's fill and symbol colours: ink saver prints pale fills and coloured symbols
        self.kinds = kinds              # the types a key may hold: a duet key's green, bystander, assassin
        self.references = {k: tuple(tuple(255 * v for v in c.rgb()) for c in cell_symbols.type_colours(layout, k))
                           for k in kinds}
        # the QR's quiet zone is paper: its colour in this image is the white reference
        quiet = [self._pixel(qx - size * 0.07, qy + size * f) for f in (0.2, 0.4, 0.6, 0.8)]
        quiet += [self._pixel(qx + size * f, qy - size * 0.07) for f in (0.25, 0.5, 0.75)]
        self.white = tuple(sorted(q[i] for q in quiet)[len(quiet) // 2] for i in range(3))

    def _pixel(self, u: float, v: float) -> tuple[int, int, int]:
        x, y = self.to_image(u, v)
        x = min(max(int(x), 0), self.width - 1)      # pixel i covers [i, i + 1)
        y = min(max(int(y), 0), self.height - 1)
        return self.image.getpixel((x, y))

    def _medians(self, groups) -> list[tuple[int, int, int]]:
        """For each group of points on the card (points, y up; the same number in each), the
        per-channel median of the pixels there (the upper one of an even count), as ``_pixel``
        reads them: a cell's fill, from 16 points around its symbol, or its symbol's centre, from
        9 points every symbol covers."""
        import numpy as np

        points = np.array(list(groups), float)                     # (cells, samples, 2)
        x, y = self.to_image(points[..., 0], points[..., 1])
        columns = np.clip(np.trunc(x).astype(int), 0, self.width - 1)    # pixel i covers [i, i + 1)
        rows = np.clip(np.trunc(y).astype(int), 0, self.height - 1)
        samples = np.sort(self.rgb[rows, columns, :3], axis=1)
        return [tuple(row) for row in samples[:, points.shape[1] // 2, :].tolist()]

    def side(self, box) -> str:
        """Which side of a duet key this is, by its start box: side A's is filled, side B's only
        outlined (docs/design.md §12); its corners are clear of the letter and the outline."""
        x, y, w, h = box
        lumas = sorted(_luma(self._normalized(self._pixel(x + f * w, y + g * h))) for f in SIDE_MARK for g in SIDE_MARK)
        return "side A" if (lumas[1] + lumas[2]) / 2 < 128 else "side B"

    def _normalized(self, rgb) -> tuple[float, ...]:
        return tuple(min(255.0, c * 255.0 / max(w, 1)) for c, w in zip(rgb, self.white))

    def by_colour(self, fills, centres) -> str:
        """Each cell's type: the one whose layout fill and symbol colours are nearest the cell's
        (white-balanced) fill and symbol centre (the first such type, on a tie)."""
        import numpy as np

        white = np.maximum(np.array(self.white, float), 1)
        kinds = list(self.references)
        seen = [np.minimum(255.0, np.array(c, float) * 255.0 / white) for c in (fills, centres)]   # (cells, 3)
        references = [np.array([self.references[k][i] for k in kinds], float) for i in range(2)]
        distance = sum(weight * ((part[:, None, :] - reference[None]) ** 2).sum(axis=2)
                       for weight, part, reference in zip(SYMBOL_WEIGHT, seen, references))
        read = distance.argmin(axis=1)
        # the fill leads: where one type's fill is much the nearest, the symbol (thin, washed out by blur)
        # does not overturn it
        fill = SYMBOL_WEIGHT[0] * ((seen[0][:, None, :] - references[0][None]) ** 2).sum(axis=2)
        nearest_fills = np.sort(fill, axis=1)
        clear_fill = nearest_fills[:, 1] > FILL_LEADS * np.maximum(nearest_fills[:, 0], 1.0)
        read = np.where(clear_fill, fill.argmin(axis=1), read)
        # how clearly each cell is not each other type: 1 where it shows its type's own colours (as far from
        # the other's as the two types' colours are), 0 half-way between them or nearer the other
        gaps = sum(weight * ((reference[:, None, :] - reference[None]) ** 2).sum(axis=2)
                   for weight, reference in zip(SYMBOL_WEIGHT, references))
        best = distance[np.arange(len(read)), read][:, None]
        clear = np.clip((distance - best) / np.maximum(gaps[read], 1.0), 0.0, 1.0)
        self.evidence = [dict(zip(kinds, row)) for row in clear.tolist()]
        return "".join(kinds[i] for i in read)

    def by_template(self, box, kinds) -> str:
        """The type among ``kinds`` whose drawn cell (fill and symbol, in grey, softened as a
        photo softens it) correlates best with the cell as seen, or '?' when none does."""
        import numpy as np

        (x0, y0), (x1, y1) = self.to_image(box[0], box[1] + box[3]), self.to_image(box[0] + box[2], box[1])
        left, right = sorted((x0, x1))
        top, bottom = sorted((y0, y1))
        inset = CELL_INSET * (right - left)
        seen = self.grey[max(round(top + inset), 0):round(bottom - inset), max(round(left + inset), 0):
                         round(right - inset)].astype(np.float32)
        self.scores = {}
        if seen.size < 16 or float(seen.std()) < 4:
            return "?"
        best, score = "?", TEMPLATE_MATCH
        for kind in kinds:
            for sigma in TEMPLATE_SOFTNESS:
                drawn = self._drawn_cell(kind, box, seen.shape, sigma)
                a, b = seen - seen.mean(), drawn - drawn.mean()
                norm = float(np.sqrt((a * a).sum() * (b * b).sum()))
                match = float((a * b).sum()) / norm if norm else -1.0
                self.scores[kind] = max(self.scores.get(kind, -1.0), match)
                if match > score:
                    best, score = kind, match
        return best

    def _drawn_cell(self, kind, box, shape, sigma):
        key = (kind, shape, sigma)
        if key not in self._cell_cache:
            import cv2

            from kitgen.games.codenames.photos import Drawing

            x, y, w, h = box
            scale = shape[1] / (w * (1 - 2 * CELL_INSET))
            drawing = Drawing(w, h, scale, 0)
            fill, mark = (round(_luma(c)) for c in self.references[kind])
            drawing.box(0, 0, w, h, fill)
            drawing.symbol(kind, w / 2, h / 2, self.symbol * min(w, h), mark)
            full = drawing.pixels.astype("float32")
            if sigma:
                full = cv2.GaussianBlur(full, (0, 0), sigma * scale * self.symbol * min(w, h) / 2)
            inset = (full.shape[0] - shape[0]) / 2, (full.shape[1] - shape[1]) / 2
            top, left = max(round(inset[0]), 0), max(round(inset[1]), 0)
            cut = full[top:top + shape[0], left:left + shape[1]]
            self._cell_cache[key] = cv2.resize(cut, (shape[1], shape[0])) if cut.shape != shape else cut
        return self._cell_cache[key]

    def _ink(self, box):
        """The colour of a cell's symbol: the darkest fifth of the pixels around its centre."""
        import numpy as np

        x, y, w, h = box
        half = self.symbol * min(w, h) / 2
        (x0, y0), (x1, y1) = (self.to_image(x + w / 2 - half, y + h / 2 + half),
                              self.to_image(x + w / 2 + half, y + h / 2 - half))
        region = self.rgb[max(round(min(y0, y1)), 0):round(max(y0, y1)) + 1,
                          max(round(min(x0, x1)), 0):round(max(x0, x1)) + 1].reshape(-1, 3).astype(float)
        if not len(region):
            return (0.0, 0.0, 0.0)
        luma = region @ np.array([0.299, 0.587, 0.114])
        darkest = region[luma <= np.percentile(luma, 20)]
        return tuple(darkest.mean(axis=0))

    def read(self) -> str:
        """Each cell's type. Where the fills are clearly coloured (a colour print in a colour
        photo): by the fill and symbol colours. Else (ink saver, a grey print or photo): by
        the drawn cell that matches best -- its symbol's shape -- and, where the symbols
        carry the team colours and the photo shows them, red and blue by the symbol's ink."""
        import numpy as np

        self.rgb = np.asarray(self.image)
        self._cell_cache = {}
        fills = self._medians([(x + fx * w, y + fy * h) for fx in RING for fy in RING] for x, y, w, h in self.cells)
        if max(max(n) - min(n) for n in map(self._normalized, fills)) > 60:
            half = [self.symbol * min(w, h) / 2 for _, _, w, h in self.cells]
            centres = self._medians([(x + w / 2 + fx * r, y + h / 2 + fy * r) for fx in CENTRE for fy in CENTRE]
                                    for (x, y, w, h), r in zip(self.cells, half))
            return self.by_colour(fills, centres)
        self.grey = np.asarray(self.image.convert("L"))
        read, self.evidence = [], []
        for box in self.cells:
            read.append(self.by_template(box, self.kinds))
            top = self.scores.get(read[-1], 0.0)
            # an unreadable cell is as much against every type as a clear one of another type: it tells no key
            self.evidence.append({k: 1.0 if read[-1] == "?" else min(max((top - self.scores.get(k, -1.0))
                                                                          / TEMPLATE_GAP, 0.0), 1.0)
                                  for k in self.kinds})
        if "R" not in self.kinds:
            return "".join(read)
        red, blue = self.references["R"][1], self.references["B"][1]
        if sum((a - b) ** 2 for a, b in zip(red, blue)) > TEAM_INKS:
            inks = {i: self._normalized(self._ink(box)) for i, (box, kind) in enumerate(zip(self.cells, read))
                    if kind in "RB"}
            if inks and max(max(c) - min(c) for c in inks.values()) > 60:          # the photo shows colour
                for i, ink in inks.items():
                    read[i] = min("RB", key=lambda k: sum((a - b) ** 2 for a, b in zip(ink, self.references[k][1])))
                    self.evidence[i].update({read[i]: 0.0, "B" if read[i] == "R" else "R": INK_EVIDENCE})
        return "".join(read)


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


@cache
def _kit_layout(name: str, ink: str, colour: str, duet: bool):
    """A kit's layout, as its manifest names it, with its ink and colour overlays (loaded once)."""
    return layout_mod.load(name, layout_overlays(ink, colour, duet))


@cache
def _edition_layout(rows: int, duet: bool = False, ink: str = "normal"):
    """The built-in layout of a key's edition, with the ink saver laid over it for ``ink`` saver."""
    return layout_mod.load("duet" if duet else edition_for_rows(rows).default_layout,
                           layout_overlays(ink, "rgb", duet))


UNREAD = "its QR code is in view but could not be read"


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
    # without the kit's layout: its edition's, then (a print that reads wrong) its ink saver's
    candidates = [layout] if layout else [_edition_layout(rows, duet), _edition_layout(rows, duet, "saver")]
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

    image = image if image.mode == "RGB" else image.convert("RGB")
    photo = np.asarray(image)
    grey = cv2.cvtColor(photo, cv2.COLOR_RGB2GRAY)          # ITU-R 601 luma, as PIL's "L"
    results, placed = [], []
    for code in scans.find_codes(grey):
        result, card = _check_code(code, photo, grey, where, secret, layout)
        results.append(result)
        if card:
            placed.append(card)
    results += _search_sheet(photo, grey, where, secret, layout, placed, results)
    if secret is not None and secret.total and \
            (not results or any(r.problems and UNREAD in r.problems[-1] for r in results)):
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

    read = {r.payload for r in results if not (r.problems and UNREAD in r.problems[-1])}
    decks = []
    for deck in outline.decks_of(secret):
        duet = EDITIONS[deck.edition].cooperative
        decks.append((deck, [layout] if layout else [_edition_layout(deck.rows, duet),
                                                     _edition_layout(deck.rows, duet, "saver")]))
    for found in outline.find(photo, grey, decks, skip=read):
        deck, layouts = next(pair for pair in decks if pair[0] is found.deck)
        # checked through each map that read it, best first, until one reads it as it should be: a
        # repainted cell fails through every one, an outline taken for another (a sheet's) through one
        result = card = None
        for code in outline.qr_codes(found, layouts[0]):
            tried = _check_code(code, photo, grey, where, secret, layout)
            if result is None or len(tried[0].problems) < len(result.problems):
                result, card = tried
            if not result.problems:
                break
        if result.problems and not found.wrong and all(" cell row " in p for p in result.problems):
            # its outline's own map read every cell as the face's, the refined maps did not: a refinement
            # pulled off by blur; the card is judged by the reading that registered it
            result.problems = []
            result.notes.append("read through its outline")
        sought = photos.look_for_qr(grey, card[0], card[1], card[2])[0] if card is not None else None
        if sought is not None:      # the QR code, sought module by module where the card's grid puts it
            text = scans.payload_of(sought.text)
            if _same_key(text, found.payload, deck.kit_known):
                result.notes.append("its QR code, then sought module by module where its grid puts it, agrees")
                result.payload = text
            else:
                result.problems.append(f"{result.label}: its QR code, read where its grid puts it, is "
                                       f"{CardResult(where, text).label}'s")
        among = f"the kit's {secret.total} keys" if deck.kit_known else \
            f"the {secret.total} {deck.edition} keys of the seed"
        if result.payload == found.payload and not deck.kit_known:     # told by the seed alone: no kit id
            parsed = key_payload.decode(found.payload)
            label = result.label
            result.name = f"key {str(parsed.number).zfill(len(str(parsed.total)))}/{parsed.total}"
            result.problems = [p.replace(label, result.name, 1) for p in result.problems]
        result.remarks.append(f"its QR code could not be read: told by its printed grid among {among} (evidence "
                              f"{found.against:.1f} against it, {found.nearest:.1f} against the nearest other; "
                              f"the deck's nearest key differs in {found.nearest_cells} cells)")
        unread = next((r for r in results if r.problems and UNREAD in r.problems[-1]
                       and r.payload in (result.payload, "")), None)
        results = [r for r in results if r is not unread and r.payload != result.payload] + [result]
        read.add(found.payload)
    return results


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
                layout = _edition_layout(*_rows_duet(secret))
            check_payload(secret.positions[0][0], secret)     # the deck, dealt once, before the workers fork
    return flat.read_pdf(path, secret, layout, dpi, spots or None, jobs, progress, prefix)


def _rows_duet(secret: Secret) -> tuple[int, bool]:
    parsed = key_payload.decode(secret.positions[0][0])
    duet = isinstance(parsed, key_payload.DuetPayload)
    return len(parsed.side_a if duet else parsed.grid), duet


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
