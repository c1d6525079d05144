"""A publisher's proof of a deduction kit (docs/design.md §10.8).

The kit is built in memory, as ``kitgen build`` builds it, and read back: every count
(cards, tiles, tokens, slips, aids, notepads, setup sheets, board pieces and pages) is
read from the PDFs' own text and drawing (pdfium) and set against the facts of
docs/design.md §10.1; the three mini-games' setups and the answer a holder gives at
every location (answers.py) as tables; the glyph coverage of every name and label in
every font; the fit of every name on every component it is printed on, at the size it
is printed; and a contact sheet of every page of every PDF. A theme that ``build``
would refuse (a name that lacks a glyph or does not fit) is reported, not refused, so
the proof shows everything at once."""

import ctypes
import hashlib
import io
from collections import Counter as Tally
from dataclasses import dataclass, field
from pathlib import Path

from kitgen import __version__
from kitgen.errors import KitgenError
from kitgen.games.deduction import answers, build, facts
from kitgen.games.deduction.dealing import BLANK
from kitgen.games.deduction.render import board, cards, notepad
from kitgen.games.deduction.theme import KINDS
from kitgen.render import paint, proofsheet, text
from kitgen.render.pdf import new_canvas
from kitgen.render.proofsheet import Check

SINGULAR = {"suspects": "suspect", "crimes": "crime", "locations": "location"}
MATCH_LETTERS = {"suspect": "S", "crime": "C", "location": "L"}
NOT_SHOWN = ("kit.pdf",)           # the contact sheet: kit.pdf repeats every other PDF's pages


@dataclass
class Fit:
    """One name on one component: the size it is printed at, its box's full and least size."""

    name: str
    where: str               # "case card", "tile", "board", "notepad"
    size: float
    max_size: float
    min_size: float
    fits: bool
    missing: str = ""        # characters the font lacks


@dataclass
class Count:
    """A count read from the PDFs against what the facts make it."""

    what: str
    found: object
    expected: object
    note: str = ""

    @property
    def ok(self) -> bool:
        return self.found == self.expected


@dataclass
class Proof:
    kit: build.Kit
    prepared: build.Prepared
    fits: list[Fit]
    glyph_gaps: dict                 # font -> characters it lacks of the names and labels
    names_verdict: str | None        # the build's own name check: None, or why it would refuse
    files: list = field(default_factory=list)
    build_error: str | None = None
    counts: list[Count] = field(default_factory=list)
    results: list[Check] = field(default_factory=list)

    @property
    def failed(self) -> bool:
        return any(c.status == "FAIL" for c in self.results)


def _strings(node):
    """Every string of a messages node, however deep."""
    if isinstance(node, str):
        yield node
    elif hasattr(node, "values"):
        for value in node.values():
            yield from _strings(value)
    elif isinstance(node, (list, tuple)):
        for value in node:
            yield from _strings(value)


def name_fits(p: build.Prepared) -> list[Fit]:
    """Every name on every component that prints it, at the size it is printed (as build._check_names
    measures them, with the sizes)."""
    layout, fonts, labels, theme = p.layout, p.fonts, p.messages.labels, p.theme
    entries = [e.name for kind in KINDS for e in getattr(theme, kind)]
    out = []
    style = layout.case_card.name
    for name in entries:
        fit = text.fit(text.apply_case(name, style.case), fonts[style.font], style.box[2], style.box[3], style.size,
                       style.min_size)
        out.append(Fit(name, "case card", fit.size, style.size, style.min_size, fit.fits, fit.missing))
    tile = layout.city_tile.name
    font = fonts[tile.font]
    tile_names = [e.name for e in theme.suspects + theme.crimes] + [labels.no_suspect, labels.no_crime]
    size = cards.tile_name_size(tile_names, tile, font)           # one size for every tile, as cards.tiles sets it
    size = tile.min_size if size is None else size
    for name in tile_names:
        missing = text.missing_glyphs(name, font)
        out.append(Fit(name, "tile", size, tile.size, tile.min_size,
                       cards.tile_lines(name, tile, font, size) is not None and not missing, missing))
    location = layout.board.location
    font = fonts[location.name.font]
    for name in theme.city.names:
        room = board.name_room(layout, (0, 0, *location.size))[2]         # beside the location's emblem
        fit = text.fit(text.apply_case(name, location.name.case), font, room, location.name.height,
                       location.name.size, location.name.min_size)
        out.append(Fit(name, "board", fit.size, location.name.size, location.name.min_size, fit.fits, fit.missing))
    spec = layout.notepad.name
    font = fonts[spec.font]
    row = notepad.row_height(layout, fonts, labels, theme, p.page_size)
    for name in entries:
        fit = text.fit(name, font, notepad.name_width(layout) - 2, row, spec.size, spec.min_size)
        out.append(Fit(name, "notepad", fit.size, spec.size, spec.min_size, fit.fits, fit.missing))
    return out


def glyph_gaps(p: build.Prepared) -> dict[str, str]:
    """For each font of the layout, the characters of the theme's names and the labels and rules it lacks."""
    theme = p.theme
    texts = [theme.name] + [e.name for kind in KINDS for e in getattr(theme, kind)] + list(_strings(p.messages))
    chars = "".join(sorted({ch for t in texts for ch in t if not ch.isspace()}))
    gaps = {}
    for font in sorted(set(p.fonts.values())):
        lacking = text.missing_glyphs(chars, font)
        if lacking:
            gaps[font] = lacking
    return gaps


def examine(kit: build.Kit) -> Proof:
    """Build the kit in memory and check everything; nothing is refused here."""
    p = build.prepare(kit, strict=False)
    try:
        build._check_names(p.theme, p.layout, p.fonts, p.messages.labels)
        verdict = None
    except KitgenError as err:
        verdict = err.message
    proof = Proof(kit, p, name_fits(p), glyph_gaps(p), verdict)
    try:
        proof.files = build.build_files(kit, strict=False)[0]
    except (KitgenError, ValueError) as err:
        proof.build_error = str(err)
    if proof.files:
        proof.counts = count_kit(p, proof.files, kit.players)
    _checks(proof)
    return proof


# --- reading the PDFs back ---------------------------------------------------------------

def _object_text(obj, textpage) -> str:
    import pypdfium2.raw as raw

    size = raw.FPDFTextObj_GetText(obj.raw, textpage.raw, None, 0)
    buffer = (ctypes.c_ushort * max(size // 2, 1))()
    raw.FPDFTextObj_GetText(obj.raw, textpage.raw, buffer, size)
    return bytes(buffer).decode("utf-16-le", "replace").split("\x00")[0]


def _norm(shown: str) -> str:
    return " ".join(shown.split()).casefold()


@dataclass
class Read:
    """A PDF as read back: each page's text strings (in drawing order) and its drawn paths."""

    texts: list[list[str]]
    paths: list[list[tuple]]         # per page: (filled, stroked, (left, bottom, right, top), fill rgb, stroke rgb)

    @property
    def pages(self) -> int:
        return len(self.texts)

    def count(self, phrase: str) -> int:
        """How many times ``phrase`` is drawn: as one string, or broken over up to three strings drawn
        one after another (a name on two lines), case and spacing ignored."""
        target, found = _norm(phrase), 0
        for strings in self.texts:
            for i in range(len(strings)):
                if any(" ".join(strings[i:i + k]) == target for k in (1, 2, 3) if i + k <= len(strings)):
                    found += 1
        return found


def read(data: bytes, paths: bool = False) -> Read:
    import pypdfium2 as pdfium
    import pypdfium2.raw as raw

    document = pdfium.PdfDocument(data)
    texts, drawn = [], []
    try:
        for index in range(len(document)):
            page = document[index]
            textpage = page.get_textpage()
            texts.append([s for s in (_norm(_object_text(o, textpage))
                                      for o in page.get_objects(filter=[raw.FPDF_PAGEOBJ_TEXT])) if s])
            shapes = []
            if paths:
                for obj in page.get_objects(filter=[raw.FPDF_PAGEOBJ_PATH]):
                    fill, stroke = ctypes.c_int(), ctypes.c_int()
                    raw.FPDFPath_GetDrawMode(obj.raw, ctypes.byref(fill), ctypes.byref(stroke))
                    colours = []
                    for getter in (raw.FPDFPageObj_GetFillColor, raw.FPDFPageObj_GetStrokeColor):
                        rgba = [ctypes.c_uint() for _ in range(4)]
                        getter(obj.raw, *[ctypes.byref(v) for v in rgba])
                        colours.append(tuple(v.value for v in rgba[:3]))
                    shapes.append((bool(fill.value), bool(stroke.value), obj.get_bounds(), *colours))
            drawn.append(shapes)
    finally:
        document.close()
    return Read(texts, drawn)


def _format(template: str, **values) -> str:
    """A label filled in; one that asks for more than ``values`` stays as it is (and is not found)."""
    try:
        return template.format(**values)
    except (KeyError, IndexError):
        return template


def _rgb(layout, name: str) -> tuple[int, int, int]:
    colour = paint.colour(layout, name)
    return tuple(round(v * 255) for v in (colour.red, colour.green, colour.blue))


def tokens_on(sheets: Read, layout, players: int) -> Tally:
    """Every token on the token sheets, by (kind, owner): a token is its cut line (an outline,
    stroked and not filled, of a token's size, layouts/base.yaml ``tokens``), its owner the colour
    filled under it (a player's number, or 0 for the shared colour)."""
    spec = layout.tokens
    sizes = {"investigator": (spec.investigator[0], 2 * spec.investigator[1]), "disc": (spec.disc, spec.disc),
             "cube": (spec.cube, spec.cube), "first_player": (spec.first_player, spec.first_player)}
    owners = {_rgb(layout, f"player_{n}"): n for n in range(1, facts.MAX_PLAYERS + 1)}
    owners[_rgb(layout, "solving")] = 0
    slack = 2 * spec.line.width + 1.0           # a bound includes half the line's width, and rounding
    found = Tally()
    for shapes in sheets.paths:
        for filled, stroked, (left, bottom, right, top), _, _ in shapes:
            if filled or not stroked:
                continue
            w, h = right - left, top - bottom
            kind = next((k for k, (kw, kh) in sizes.items() if abs(w - kw) <= slack and abs(h - kh) <= slack), None)
            if kind is None:
                continue
            cx, cy = (left + right) / 2, (bottom + top) / 2
            owner = None
            for f_filled, _, (fl, fb, fr, ft), fill, _ in shapes:      # its colour: a fill as wide, over its middle
                if (f_filled and fl - slack <= cx <= fr + slack and fb - slack <= cy <= ft + slack
                        and w - slack <= fr - fl <= w + 2 * spec.bleed + slack):
                    owner = next((n for rgb, n in owners.items() if all(abs(a - b) <= 3 for a, b in zip(rgb, fill))),
                                 None)
                    if owner is not None:
                        break
            found[(kind, owner)] += 1
    return found


def slip_codes(data: bytes, layout) -> set[str]:
    """The case-slip payloads of every QR code on the pages of ``data``, read from the pages
    rendered (zxing) at ``proof.slip_dpi``."""
    import zxingcpp

    from kitgen import scans
    from kitgen.games.deduction import case_payload

    found = set()
    document = scans.open_pdf(data, "setup.pdf")
    try:
        for index in range(len(document)):
            image = scans.render_page(document, index, layout.proof.slip_dpi, "setup.pdf").convert("RGB")
            found |= {code.text for code in zxingcpp.read_barcodes(image, formats=zxingcpp.BarcodeFormat.QRCode)
                      if case_payload.is_case_slip(code.text)}
    finally:
        document.close()
    return found


def count_kit(p: build.Prepared, files, players: int) -> list[Count]:
    """Every count of the kit, read from its PDFs, against the facts (docs/design.md §10.1)."""
    labels, theme, layout = p.messages.labels, p.theme, p.layout
    counts = theme.counts
    pdfs = {f.name: f for f in files if f.name.endswith(".pdf") and "/" not in f.name}
    reads = {name: read(f.data, paths=name == "tokens.pdf") for name, f in pdfs.items()}
    out = [Count("pages of every PDF (as the build reports them)", {n: r.pages for n, r in reads.items()},
                 {n: f.pages for n, f in pdfs.items()})]
    deck = reads["cards.pdf"]
    out.append(Count("case cards (fronts marked as case cards)", deck.count(labels.case_card), counts.case_cards,
                     f"{counts.suspects} suspects + {counts.crimes} crimes + {counts.locations} locations"))
    out.append(Count("evidence cards (fronts marked as evidence)", deck.count(labels.evidence), counts.evidence_cards))
    for kind in KINDS:
        names = theme.names(kind)
        twice = sum(1 for name in names if deck.count(name) == 2)
        out.append(Count(f"{kind} named on exactly one case card and one evidence card", twice, len(names)))
    tiles = reads["tiles.pdf"]
    for kind, blank, blanks in (("suspects", labels.no_suspect, counts.no_suspect_tiles),
                                ("crimes", labels.no_crime, counts.no_crime_tiles)):
        once = sum(1 for name in theme.names(kind) if tiles.count(name) == 1)
        out.append(Count(f"{SINGULAR[kind]} tiles, named and blank", (once, tiles.count(blank)),
                         (len(theme.names(kind)), blanks), f"every location gets one: {counts.locations} in all"))
    board = reads["board.pdf"]
    out.append(Count("locations named on the board", sum(1 for name in theme.city.names if board.count(name)),
                     counts.locations, f"the board in {board.pages} piece(s)"))
    found = tokens_on(reads["tokens.pdf"], layout, players)
    expected = facts.tokens(players)
    per = {"investigator": expected["investigator"] // players,
           "disc": (expected["disc"] + expected["score_marker"] + expected["penalty_marker"]) // players}
    per["cube"] = expected["cube"] // players
    for kind, name in (("investigator", "investigators"), ("disc", "discs, score and penalty markers"),
                       ("cube", "cubes")):
        out.append(Count(f"{name} per player", tuple(found[(kind, n)] for n in range(1, players + 1)),
                         (per[kind],) * players))
    out.append(Count("shared tokens (solving discs, first-player marker)",
                     (found[("disc", 0)], found[("first_player", 0)]),
                     (expected["black_disc"], expected["first_player"])))
    out.append(Count("tokens of no player's colour", sum(n for (k, owner), n in found.items() if owner is None
                                                         or (owner and owner > players)), 0))
    setup = reads["setup.pdf"]
    out.append(Count("setup sheets, one per mini-game",
                     sum(1 for n in range(1, facts.MINI_GAMES + 1)
                         if setup.count(_format(labels.setup_title, n=n, total=facts.MINI_GAMES)) == 1),
                     facts.MINI_GAMES))

    printed = slip_codes(pdfs["setup.pdf"].data, layout)
    dealt = {payload for _, _, payload in p.slip_entries}
    out.append(Count("sealed case slips read by QR code, one per player and mini-game",
                     len(printed & dealt) if len(printed) == len(dealt) else len(printed), players * facts.MINI_GAMES,
                     f"{players} players x {facts.MINI_GAMES}"))
    aids = reads["aids.pdf"]            # each aid titled for its player, as render/aids.py draws it
    out.append(Count("player aids", sum(aids.count(f"{labels.aid_title} \u00b7 {labels.player.format(n=n)} "
                                                   f"({labels.colours[(n - 1) % 5]})") for n in range(1, players + 1)),
                     players))
    out.append(Count("detective's notepads", reads["notepad.pdf"].count(labels.notepad_title), players))
    return out


# --- the checks ----------------------------------------------------------------------------

def _shown(value) -> str:
    if isinstance(value, dict):
        return ", ".join(f"{k[:-4]} {v}" for k, v in value.items())
    if isinstance(value, tuple):
        return " ".join(str(v) for v in value)
    return str(value)


def _checks(proof: Proof):
    add = proof.results.append
    if proof.build_error:
        add(Check("FAIL", f"build: the kit could not be built: {proof.build_error}"))
    else:
        pages = sum(f.pages for f in proof.files if f.name.endswith(".pdf") and f.name not in NOT_SHOWN)
        add(Check("PASS", f"build: {len(proof.files)} files, {pages} pages besides kit.pdf, read back"))
    for count in proof.counts:
        shown = _shown(count.found) if count.ok else f"{_shown(count.found)}, expected {_shown(count.expected)}"
        note = f" ({count.note})" if count.note else ""
        add(Check("PASS" if count.ok else "FAIL", f"{count.what}: {shown}{note}"))
    gaps = proof.glyph_gaps
    add(Check("FAIL" if gaps else "PASS",
              "glyphs: " + "; ".join(f"{font} lacks {chars!r}" for font, chars in gaps.items()) if gaps
              else "glyphs: every character of every name, label and rule is in every font"))
    bad = [f for f in proof.fits if not f.fits]
    if bad:
        add(Check("FAIL", f"fit: {len(bad)} name(s) do not fit at the smallest size: "
                          + ", ".join(f"{f.name} ({f.where})" for f in bad[:8])))
    else:
        least = {}
        for f in proof.fits:
            least[f.where] = min(least.get(f.where, f.size), f.size)
        add(Check("PASS", "fit: every name fits; smallest sizes "
                  + ", ".join(f"{w} {s:g}pt" for w, s in least.items())))
    add(Check("FAIL" if proof.names_verdict else "PASS",
              f"the build's name check: {proof.names_verdict}" if proof.names_verdict
              else "the build's name check passes"))
    p = proof.prepared
    unfound = [f"mini-game {game.number}, player {case.holder}" for game in p.games for case in game.cases
               if {what for loc in range(len(p.theme.city.names))
                   for what in answers.at(p.theme.city, game, case, loc).discs} != set(MATCH_LETTERS)]
    add(Check("FAIL" if unfound else "PASS",
              f"answers: a part of the case gives a disc nowhere in {', '.join(unfound)}" if unfound
              else "answers: each case's suspect, crime and location each give a disc at some location"))


# --- the proof PDF -----------------------------------------------------------------------

def _summary(sheet, proof: Proof):
    kit, theme = proof.kit, proof.prepared.theme
    sheet.line(f"Proof: {theme.name}", "title", bold=True)
    seed_hash = hashlib.sha256(theme.seed.encode()).hexdigest()[:12]
    counts = theme.counts
    for line in (f"deduction kit {theme.id} \u00b7 language {theme.language} \u00b7 {kit.players} players "
                 f"\u00b7 layout {kit.layout_name} \u00b7 paper {kit.paper} \u00b7 duplex {kit.duplex}",
                 f"theme {Path(theme.source).name}: {counts.suspects} suspects, {counts.crimes} crimes, "
                 f"{counts.locations} locations, {len(theme.city.roads)} roads \u00b7 seed SHA-256 {seed_hash}\u2026 "
                 f"\u00b7 kitgen {__version__}"):
        sheet.line(line)
    sheet.y -= sheet.sizes.heading / 2
    sheet.line("Checks", "heading", bold=True)
    sheet.checks(proof.results)
    if proof.counts:
        sheet.y -= sheet.sizes.heading / 2
        sheet.line("Counts read from the PDFs", "heading", bold=True)
        width = sheet.width - 2 * sheet.margin
        rows = []
        for c in proof.counts:
            if isinstance(c.expected, dict):          # the pages: a row a PDF
                rows += [[f"pages of {name}", str(c.found.get(name)), str(pages), "PASS" if c.found.get(name) == pages
                          else "FAIL"] for name, pages in c.expected.items()]
            else:
                rows.append([c.what, _shown(c.found), _shown(c.expected), "PASS" if c.ok else "FAIL"])
        sheet.table(["what", "read from the PDFs", "expected", ""], rows,
                    [width * 0.56, width * 0.18, width * 0.18, width * 0.08])


def _name_of(theme, kind: str, index: int, labels) -> str:
    if index == BLANK:
        return labels.no_suspect if kind == "suspects" else labels.no_crime
    return getattr(theme, kind)[index].name


def answer_cell(answer: answers.Answer) -> str:
    """``discs / cubes`` and, after the discs, what matched here (S, C, L)."""
    discs, cubes = answer.counts
    matched = "".join(MATCH_LETTERS[what] for what in answer.discs)
    return f"{discs} / {cubes}" + (f" {matched}" if matched else "")


def _games(sheet, proof: Proof):
    p = proof.prepared
    theme, labels = p.theme, p.messages.labels
    width = sheet.width - 2 * sheet.margin
    for game in p.games:
        sheet.new_page()
        sheet.line(f"Mini-game {game.number} of {facts.MINI_GAMES}: setup", "heading", bold=True)
        sheet.table(["location", "suspect tile (left slot)", "crime tile (right slot)"],
                    [[name, _name_of(theme, "suspects", game.suspect_tiles[i], labels),
                      _name_of(theme, "crimes", game.crime_tiles[i], labels)]
                     for i, name in enumerate(theme.city.names)], [width / 3] * 3)
        sheet.y -= sheet.sizes.body
        sheet.line("The cases", "body", bold=True)
        for case in game.cases:
            sheet.line(f"player {case.holder} holds, player {case.solver} solves: "
                       f"{theme.suspects[case.suspect].name} \u00b7 {theme.crimes[case.crime].name} "
                       f"\u00b7 {theme.locations[case.location].name}", "small", indent=sheet.style.indent)
        sheet.y -= sheet.sizes.body
        sheet.line("Answers at every location: discs / cubes for an investigator placed there, by the case's holder;",
                   "small", bold=True)
        sheet.line("after them, what gave the discs (S suspect, C crime, L location)", "small", bold=True)
        first = width * 0.3
        rest = (width - first) / len(game.cases)
        sheet.table(["location"] + [f"player {case.holder}'s case" for case in game.cases],
                    [[name] + [answer_cell(answers.at(theme.city, game, case, i)) for case in game.cases]
                     for i, name in enumerate(theme.city.names)], [first] + [rest] * len(game.cases))


def _fits_and_glyphs(sheet, proof: Proof):
    sheet.new_page()
    sheet.line("Fit of every name, at the size it is printed", "heading", bold=True)
    sheet.line("Each component's names, smallest first: the size used, the box's full size and its least; "
               "a tile's names share one size.", "small")
    width = sheet.width - 2 * sheet.margin
    rows = []
    for where in dict.fromkeys(f.where for f in proof.fits):
        for f in sorted((f for f in proof.fits if f.where == where), key=lambda f: (f.size, f.name)):
            status = "PASS" if f.fits else ("FAIL lacks " + repr(f.missing) if f.missing else "FAIL does not fit")
            rows.append([f.name, where, f"{f.size:g}", f"{f.max_size:g}", f"{f.min_size:g}", status])
    sheet.table(["name", "component", "size pt", "full pt", "least pt", ""], rows,
                [width * 0.36, width * 0.14, width * 0.1, width * 0.1, width * 0.1, width * 0.2])
    sheet.y -= sheet.sizes.heading
    sheet.line("Glyph coverage", "heading", bold=True)
    p, theme = proof.prepared, proof.prepared.theme
    names = [theme.name] + [e.name for kind in KINDS for e in getattr(theme, kind)]
    chars = sorted({ch for t in names for ch in t if not ch.isspace()})
    sheet.line(f"{len(chars)} distinct characters in the theme's names (below), and every label and rule of the "
               f"{theme.language!r} messages,")
    sheet.line("checked against each font of the layout:")
    for start in range(0, len(chars), 90):
        sheet.line(" ".join(chars[start:start + 90]), "small", indent=sheet.style.indent)
    for font in sorted(set(p.fonts.values())):
        lacking = proof.glyph_gaps.get(font)
        sheet.line(f"{font}: " + (f"FAIL, lacks {lacking!r}" if lacking else "every character"), "small",
                   colour=paint.colour(p.layout, "red") if lacking else None, indent=sheet.style.indent)


def _contact(sheet, proof: Proof):
    if not proof.files:
        return 0
    sheet.new_page()
    sheet.line("Contact sheet: every page of every PDF of the kit (kit.pdf repeats them)", "heading", bold=True)
    pages = sheet.style.contact_sheet.pages
    documents = [(f.name, f.data) for f in proof.files
                 if f.name.endswith(".pdf") and "/" not in f.name and f.name not in NOT_SHOWN]
    return proofsheet.contact_sheet(sheet, documents, pages.height, pages.dpi)


def render(proof: Proof) -> bytes:
    buffer = io.BytesIO()
    p = proof.prepared
    theme = p.theme
    c = new_canvas(buffer, p.page_size, p.fonts, title=f"Proof of {theme.name}", font_size=9, print_scaling=False)
    sheet = proofsheet.Sheet(c, p.layout, p.fonts, p.page_size,
                             lambda page: f"Proof of {theme.name} ({theme.id}) \u00b7 kitgen {__version__} "
                                          f"\u00b7 page {page}")
    _summary(sheet, proof)
    _games(sheet, proof)
    _fits_and_glyphs(sheet, proof)
    _contact(sheet, proof)
    c.showPage()
    c.save()
    return buffer.getvalue()


def write(proof: Proof, out_dir: Path) -> Path:
    """Write ``<out>/<theme id>-proof.pdf`` atomically; returns its path."""
    return proofsheet.write(render(proof), out_dir, f"{proof.prepared.theme.id}-proof.pdf")
