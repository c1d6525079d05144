"""A kitgen key card as verify checks it (docs/design.md §5.1, §5.2): what a payload is checked
against (``Secret``, from the seed or a kit's manifest), each card's result, the key decks dealt
once, and ``CardReader``, which reads the printed cells of a card drawn flat -- by their colours,
or by their symbols' shapes -- with how clearly each cell is not each other type. Used by the
photo reader (``verify``), the flat reader of kitgen's PDFs (``flat``) and the outline reader
(``outline``)."""

import json
import re
from dataclasses import dataclass
from functools import cache

from kitgen import scans
from kitgen.errors import KitgenError
from kitgen.games.codenames import duet_keys, key_deck, key_payload, layout as layout_mod, symbols
from kitgen.games.codenames.editions import edition_for_rows
from kitgen.games.codenames.model import layout_overlays
from kitgen.games.codenames.render import cell_symbols
from kitgen.games.codenames.render.cell_symbols import TYPE_NAMES

RING = (0.12, 0.2, 0.8, 0.88)   # fractions of a cell where its fill shows around the symbol
CENTRE = (-0.12, 0.0, 0.12)     # symbol half sizes from a cell's centre: inside every symbol
SYMBOL_WEIGHT = (1.0, 0.35)     # fill, symbol: the fill leads, the symbol tells pale ink-saver fills apart
FILL_LEADS = 8.0                # a fill this many times nearer one type's than any other's is that type
TEAM_INKS = 60 ** 2 * 3         # red and blue symbols whose colours differ by more tell the teams apart
CELL_INSET = 0.06               # of a cell's width, left out all round when it is matched (misregistration)
TEMPLATE_MATCH = 0.3            # the least correlation of a cell with its drawing that reads it
TEMPLATE_SOFTNESS = (0.0, 0.15, 0.3)   # blurs tried, in symbol half sizes
TEMPLATE_GAP = 0.3              # a correlation this much under the best one's: clearly not that type
INK_LEADS = 2.0                 # an ink this many times nearer a team's than black's (or the reverse) overturns a shape
INK_NOISE = 10 ** 2 * 3         # squared colour distance under which two colours are alike (a photo's noise)
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
        fill, symbol = (weight * ((part[:, None, :] - reference[None]) ** 2).sum(axis=2)
                        for weight, part, reference in zip(SYMBOL_WEIGHT, seen, references))
        distance = fill + symbol
        read = distance.argmin(axis=1)
        # the fill leads: where one type's fill is much the nearest, the symbol (thin, washed out by blur)
        # does not overturn it
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

    def _off_ink(self, seen, kind: str) -> float:
        """How far a symbol's colour as seen is from any mix of ``kind``'s fill and ink (a thin symbol
        blurred is part ink, part fill): the squared distance to that line, at least INK_NOISE."""
        import numpy as np

        fill, ink = (np.array(c, float) for c in self.references[kind])
        along = ink - fill
        t = min(max(float(np.dot(np.array(seen, float) - fill, along) / max(float(np.dot(along, along)), 1.0)),
                    0.0), 1.0)
        return max(float(((np.array(seen, float) - fill - t * along) ** 2).sum()), INK_NOISE)

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
            self._by_ink(read)
        return "".join(read)

    def _by_ink(self, read: list) -> None:
        """Where the symbols carry the team colours and the photo shows them: each cell's symbol ink
        tells red from blue, and a team's ink from the black of a bystander's or assassin's symbol
        (which of those two, their shapes tell)."""
        inks = {i: self._normalized(self._ink(box)) for i, box in enumerate(self.cells)}
        teams = [ink for i, ink in inks.items() if read[i] in "RB"]
        if not teams or max(max(c) - min(c) for c in teams) <= 60:          # the photo shows no colour
            return
        black = [k for k in "NA" if k in self.kinds and self.references[k][1] not in (self.references["R"][1],
                                                                                     self.references["B"][1])]
        for i, ink in inks.items():
            near = {k: self._off_ink(ink, k) for k in ("R", "B", *black)}
            team = min("RB", key=near.get)
            other = min(black, key=near.get) if black else None
            if read[i] in "RB":
                if other and near[other] * INK_LEADS < near[team]:         # a black symbol: its shape tells which
                    shaped = self.by_template(self.cells[i], black)
                    if shaped != "?":
                        read[i] = shaped
                        self.evidence[i].update({"R": INK_EVIDENCE, "B": INK_EVIDENCE, shaped: 0.0})
                        continue
                read[i] = team
            elif other and near[team] * INK_LEADS < near[other]:          # a team's ink read as a black shape
                read[i] = team
                self.evidence[i].update({k: INK_EVIDENCE for k in black})
            else:
                continue
            self.evidence[i].update({team: 0.0, "B" if team == "R" else "R": INK_EVIDENCE})


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


def layouts_for(rows: int, duet: bool, layout=None) -> list:
    """The layouts a key of ``rows`` rows (a duet key's: ``duet``) is read with: the kit's, given;
    without it, its edition's built-in one, then (a print that reads wrong) its ink saver's."""
    return [layout] if layout else [_edition_layout(rows, duet), _edition_layout(rows, duet, "saver")]

