"""Building a deduction kit (docs/design.md §10.7): theme -> checks -> seeded setup ->
components -> PDFs -> manifest, written atomically by the kernel (kitgen/output.py)."""

import dataclasses
import hashlib
from dataclasses import dataclass, field
from pathlib import Path

from kitgen import __version__, fonts as fonts_mod, layouts, output
from kitgen.errors import KitgenError
from kitgen.games.deduction import (
    case_payload,
    city,
    dealing,
    facts,
    layout as layout_mod,
    pictures as pictures_mod,
    texts,
    theme as theme_mod,
)
from kitgen.games.deduction.render import aids, board, cards, notepad, pages, slips
from kitgen.output import BuiltFile, Progress, file_entries
from kitgen.render import pdfx, percard, pod, press
from kitgen.render.document import TWO_SIDED, CardPart, FreePart, PrintOptions, card_part, render

# kitgen box (docs/design.md §8.12): every deck of cards gets a tuck box; the sealed case slips, folded
# paper dealt for one game, do not; no card needs a stand; the tokens get a box of their own (token_decks)
BOXES = ("cases", "evidence", "tiles", "aids")
STANDS = ()
INK_SAVER = ("deduction-ink-saver",)        # the built-in layouts --ink saver lays over the kit's


def token_decks(kit, prepared) -> list:
    """What ``kitgen box`` boxes besides the decks: one tuck box for every token of the kit's
    players (tokens.pdf), as a publisher puts them in one box. Its floor holds the largest token
    as stored (each side the largest any token has: a standee folded in two, the first-player
    marker), its depth every token lying flat in one stack (a folded standee two layers thick);
    the kernel adds the layout's clearance."""
    from kitgen import boxes

    items = pages.token_items(prepared.layout.tokens, kit.players)
    sides, layers = [], 0
    for kind, _, width, height, *_ in items:
        folded = kind == "investigator"             # token_items gives a standee flat: both its halves
        sides.append(sorted((width, height / 2 if folded else height)))
        layers += 2 if folded else 1
    title = prepared.messages.labels.tokens_box.format(players=kit.players)
    return [boxes.Deck("tokens", title, max(s[0] for s in sides), max(s[1] for s in sides), len(items),
                       layers=layers)]


@dataclass(frozen=True)
class Kit:
    """A deduction kit to build: its theme, the number of players and the print options."""

    theme: theme_mod.Theme
    players: int = facts.DEFAULT_PLAYERS
    paper: str = "a4"
    board_paper: str | None = None          # None: the kit's paper
    duplex: str = "long"
    colour: str = "rgb"
    back_offset: tuple[float, float] = (0.0, 0.0)
    cut_lines: bool = False
    slug: bool = False
    per_card: bool = False                  # cards and tiles one face a page, for print shops
    png_dpi: int | None = None              # and every face as PNG
    pdfx: object | None = None              # --pdfx: the output profile (render/press.Profile); PDFs as PDF/X-1a
    layout_name: str = "default"           # --layout: a built-in layout's name or a layout file
    ink: str = "normal"                     # --ink saver: deduction-ink-saver.yaml laid over the layout
    origins: dict = field(default_factory=dict, compare=False)
    pod: str | None = None                  # also the upload of this print-on-demand service (tgc, mpc, dtc)


def load(theme_path: str | None = None, language: str | None = None, players: int | None = None,
         paper: str | None = None, board_paper: str | None = None, duplex: str | None = None,
         colour: str = "rgb", print_options: dict | None = None, seed: str | None = None,
         layout: str | None = None, ink: str = "normal") -> Kit:
    """The built-in kit of ``language``, or a theme file, with the command line's options; the
    layout (``--layout``, with ``--ink``) is loaded and checked here, before anything is drawn."""
    path = theme_mod.resolve(theme_path, language)
    if not path.exists():
        raise KitgenError("theme file not found; check the path", source=str(path))
    theme = theme_mod.load(path)
    if language and theme_path and language != theme.language:
        raise KitgenError(f"the theme is in {theme.language!r}; --lang {language} would print labels in another "
                          "language than its names", source=str(path))
    if seed is not None:
        if not seed:
            raise KitgenError("--seed must not be empty")
        theme = dataclasses.replace(theme, seed=seed)
    players = facts.DEFAULT_PLAYERS if players is None else players
    if not facts.MIN_PLAYERS <= players <= facts.MAX_PLAYERS:
        raise KitgenError(f"--players {players}: the game takes {facts.MIN_PLAYERS} to {facts.MAX_PLAYERS} players")
    counts = theme.counts
    fewest, kind = min((counts.suspects, "suspects"), (counts.crimes, "crimes"), (counts.locations, "locations"))
    if players > fewest:
        raise KitgenError(f"the theme has {fewest} {kind}, and every one of {players} players holds one: give "
                          f"--players {fewest} or fewer, or add {kind}", source=theme.source)
    options = print_options or {}
    kit = Kit(theme, players, paper or "a4", board_paper, duplex or "long", colour,
              options.get("back_offset", (0.0, 0.0)), bool(options.get("cut_lines")), bool(options.get("slug")),
              bool(options.get("per_card")), options.get("png_dpi"), options.get("pdfx"),
              layout_name=layout or "default", ink=ink, pod=options.get("pod"))
    load_layout(kit)
    return kit


@dataclass(frozen=True)
class Prepared:
    theme: theme_mod.Theme            # every location placed
    layout: object
    page_size: tuple[float, float]
    board_size: tuple[float, float]
    messages: object
    fonts: dict
    games: tuple
    slip_entries: list
    card_sets: dict
    pictures: tuple = ()              # every suspect's, crime's and location's picture (pictures.Drawn)


def load_layout(kit: Kit, extra: tuple[str, ...] = ()):
    """The kit's layout, CMYK when asked, with ``extra`` built-in layouts laid over it; under
    --pdfx its colours within the ink limit (docs/design.md §8.11)."""
    overlays = (INK_SAVER if kit.ink == "saver" else ()) + (("cmyk",) if kit.colour == "cmyk" else ())
    layout = layout_mod.load(kit.layout_name, overlays + extra)
    return press.for_press(layout, kit.pdfx) if kit.pdfx else layout


def theme_characters(theme) -> str:
    """Every character a kit of ``theme`` may print: its messages' and its theme file's (a CJK font is cut
    down to these)."""
    from kitgen import messages as messages_mod

    try:
        source = Path(theme.source).read_text("utf-8") if Path(theme.source).is_file() else ""
    except (OSError, UnicodeDecodeError):
        source = ""
    names = [source] + [getattr(e, "name", str(e)) for e in (*theme.suspects, *theme.crimes)] + list(theme.city.names)
    return messages_mod.characters(texts.folder(), theme.language, names)


def prepare(kit: Kit, strict: bool = True) -> Prepared:
    """Everything drawing needs, every check done; not ``strict`` (kitgen proof), names that lack
    glyphs or do not fit are left for the proof to report."""
    layout = load_layout(kit)
    size = layouts.page_size(layout, kit.paper)
    board_size = layouts.page_size(layout, kit.board_paper or kit.paper)
    messages = texts.load(kit.theme.language)
    font_names = fonts_mod.register_roles(layout, kit.theme.language, theme_characters(kit.theme))
    theme = kit.theme
    board.check_capacity(layout, len(theme.city.names), theme.source)
    if len(theme.given) < len(theme.city.names):         # place what the theme did not, room for the boxes
        positions = city.place(theme.city.names, theme.city.roads, dict(theme.given), board.position_box(layout))
        if positions is None:
            raise KitgenError("kitgen could not place the locations without 'at' so that their boxes neither "
                              "overlap nor lie on a road; give every location an 'at'", source=theme.source)
        theme = dataclasses.replace(theme, city=city.Map(theme.city.names, theme.city.roads, positions))
    board.check_fit(layout, theme.city, theme.source)
    if strict:
        _check_names(theme, layout, font_names, messages.labels)
    drawn = pictures_mod.resolve(theme)          # one picture a thing: the card, tile, board and notepad draw it
    theme = pictures_mod.with_pictures(theme, drawn)
    games = dealing.deal(theme.seed, theme.counts, kit.players)
    secret = dealing.secret(theme.seed)
    entries = [(game.number, case, case_payload.encode(theme.id, game.number, kit.players, case, theme.counts, secret))
               for game in games for case in game.cases]
    labels = messages.labels
    card_sets = {
        **shop_sets(theme, layout, font_names, labels),
        "aids": aids.aids(kit.players, theme, layout, font_names, messages, labels.aid_title,
                           blank_backs=kit.duplex in TWO_SIDED),
        "slips": slips.slips(entries, theme, layout, font_names, labels, labels.slip_title.split(":")[0],
                             blank_backs=kit.duplex in TWO_SIDED),
    }
    return Prepared(theme, layout, size, board_size, messages, font_names, games, entries, card_sets, drawn)


def shop_sets(theme, layout, font_names, labels) -> dict:
    """The decks a print shop may print: case and evidence cards, and the tiles."""
    faces = cards.deck_faces(theme)
    return {
        "cases": cards.case_cards(faces, layout, font_names, labels, labels.case_card),
        "evidence": cards.case_cards(faces, layout, font_names, labels, labels.evidence_card, evidence=True),
        "tiles": cards.tiles(cards.tile_faces(theme), layout, font_names, labels, labels.tile),
    }


def _check_names(theme, layout, font_names, labels):
    """Every name in the fonts that draw it, and fitting its box on cards, tiles and the board
    at the layout's minimum size: one line listing the names that do not."""
    from kitgen.render import text

    entries = [e.name for kind in theme_mod.KINDS for e in getattr(theme, kind)]
    names = entries + [theme.name]
    lacking = sorted({f"{name} ({text.missing_glyphs(name, font_names['word'])})" for name in names
                      if text.missing_glyphs(name, font_names["word"])})
    if lacking:
        raise KitgenError(f"the font lacks characters of {len(lacking)} name(s): {', '.join(lacking[:20])}; "
                          "rename them", source=theme.source)
    location = layout.board.location
    boxes = [(layout.case_card.name, entries, "a card")]
    too_long = []
    tile = layout.city_tile.name
    for name in [e.name for e in theme.suspects + theme.crimes] + [labels.no_suspect, labels.no_crime]:
        if cards.tile_lines(name, tile, font_names[tile.font], tile.min_size) is None:
            too_long.append(f"{name} (a tile, in {tile.lines} lines)")
    for style, entries, where in boxes:
        font = font_names[style.font]
        for name in entries:
            shown = text.apply_case(name, style.case)
            if not text.fit(shown, font, style.box[2], style.box[3], style.size, style.min_size).fits:
                too_long.append(f"{name} ({where})")
    font = font_names[location.name.font]
    name_box = board.parts(layout, (0, 0, *location.size)).name
    for name in theme.city.names:
        shown = text.apply_case(name, location.name.case)
        if not text.fit(shown, font, name_box[2], name_box[3], location.name.size, location.name.min_size).fits:
            too_long.append(f"{name} (the board)")
    spec = layout.notepad.name          # a row of the notepad
    font = font_names[spec.font]
    for name in entries:
        if not text.fit(name, font, notepad.name_width(layout) - 2, layout.notepad.min_row, spec.size,
                        spec.min_size).fits:
            too_long.append(f"{name} (the notepad)")
    if too_long:
        raise KitgenError(f"{len(too_long)} name(s) do not fit even at the layout's smallest size: "
                          f"{', '.join(too_long[:20])}; shorten them", source=theme.source)


def build_files(kit: Kit, progress: Progress | None = None, strict: bool = True) -> tuple[list[BuiltFile], dict]:
    progress = progress or Progress()
    p = prepare(kit, strict)
    layout, size, font_names, labels = p.layout, p.page_size, p.fonts, p.messages.labels
    theme = p.theme
    label_room = layout.board.tiling.label.size * 3
    pieces = board.pieces(layout, p.board_size, label_room)
    # a board piece is glued to the next one and a token sheet cut apart: printed two-sided, each has a
    # blank back (FreePart.blank_backs), as the aids and slips do (their CardSets' blank backs)
    board_part = FreePart("board", labels.board_title.format(name=theme.name), lambda c: _board(c, p, theme, pieces),
                          blank_backs=True)
    parts = {
        "cases": card_part(p.card_sets["cases"], layout, size, kit.duplex),
        "evidence": card_part(p.card_sets["evidence"], layout, size, kit.duplex),
        "tiles": card_part(p.card_sets["tiles"], layout, size, kit.duplex),
        "tokens": FreePart("tokens", labels.tokens_title, lambda c: pages.token_pages(
            c, layout, font_names, labels, size, kit.players), blank_backs=True),
        "aids": card_part(p.card_sets["aids"], layout, size, kit.duplex),
        # the notepad's sheets are cut apart and written on: no designed back
        "notepad": FreePart("notepad", labels.notepad_title, lambda c: notepad.notepad_pages(
            c, layout, font_names, labels, theme, size, kit.players), blank_backs=True),
        "rules": FreePart("rules", p.messages.rules.title, lambda c: pages.rules_pages(
            c, size, layout, font_names, p.messages, theme, f"{theme.name} \u00b7 {p.messages.rules.title}",
            _credits(theme, labels, p.pictures), kit.players)),
        "setup": FreePart("setup", labels.setup_title, lambda c: pages.setup_pages(
            c, layout, theme, font_names, labels, p.games, size)),
        "slips": card_part(p.card_sets["slips"], layout, size, kit.duplex),
    }
    options = _print_options(kit)
    files = []
    data, _ = render([board_part], p.board_size, layout, font_names, "none", f"{theme.name}: board", theme.id)
    files.append(BuiltFile("board.pdf", data, len(pieces)))
    progress.part_drawn("board.pdf", data)
    groups = {"cards.pdf": ("cases", "evidence"), "tiles.pdf": ("tiles",), "tokens.pdf": ("tokens",),
              "aids.pdf": ("aids",), "notepad.pdf": ("notepad",),
              "rules.pdf": ("rules",), "setup.pdf": ("setup", "slips")}
    starts = {}
    for name, members in groups.items():
        data, first = render([parts[m] for m in members], size, layout, font_names, kit.duplex,
                             f"{theme.name}: {name[:-4]}", theme.id, progress.page, options)
        starts[name] = dict(zip(members, first))
        files.append(BuiltFile(name, data, data.count(b"/Type /Page\n")))
        progress.part_drawn(name, data)
    shop = {name: p.card_sets[name] for name in ("cases", "evidence", "tiles")}
    files += percard.files(shop, layout, font_names, theme.name, kit.per_card, kit.png_dpi, progress)
    kit_parts = ([board_part] if p.board_size == size else []) + [parts[m] for ms in groups.values() for m in ms]
    data, _ = render(kit_parts, size, layout, font_names, kit.duplex, theme.name, theme.id, progress.page, options)
    files.append(BuiltFile("kit.pdf", data, data.count(b"/Type /Page\n")))
    if kit.pdfx:
        files = pdfx.convert(files, kit.pdfx, layout.press.max_ink)
    service = None
    if kit.pod:             # docs/design.md §8.13
        pod_layout = pod.for_service(load_layout(dataclasses.replace(kit, pdfx=None), (f"pod-{kit.pod}",)), kit.pdfx)
        service_files, service = pod.files(kit.pod, shop_sets(theme, pod_layout, font_names, labels),
                                           {"cases": "case_card", "evidence": "case_card", "tiles": "city_tile"},
                                           pod_layout, font_names, theme.name, progress)
        files += service_files
    manifest = _manifest(kit, p, files, parts["slips"], starts["setup.pdf"]["slips"], size, pieces[0].page)
    if service:
        manifest["pod"] = service
    return files, manifest


def _board(c, p: Prepared, theme, pieces) -> int:
    count = pages.board_pages(c, p.layout, theme, p.fonts, p.messages.labels, pieces)
    c.setPageSize(p.page_size)          # what follows the board is on the kit's paper again
    return count


def _credits(theme, labels, drawn=()) -> tuple[str, ...]:
    made = labels.made_with.format(version=__version__)
    if pictures_mod.icon_set_used(drawn):        # the icon set's name, version and licence, on kitgen's line
        made += "; " + labels.icon_credit.format(version=pictures_mod.icon_set_version())
    return tuple(line for line in (theme.credits, labels.font_credit, made) if line)


def _print_options(kit: Kit) -> PrintOptions:
    slug = None
    if kit.slug:
        seed_hash = hashlib.sha256(kit.theme.seed.encode()).hexdigest()[:10]
        slug = (f"{kit.theme.id} \u00b7 deduction \u00b7 {kit.theme.language} \u00b7 kitgen {__version__} "
                f"\u00b7 seed {seed_hash}")
    return PrintOptions(kit.back_offset, kit.cut_lines, slug)


def _manifest(kit: Kit, p: Prepared, files, slips_part: CardPart, first_page: int, size, board_page) -> dict:
    theme = p.theme
    spec = slips_part.cards.spec
    slip_records = []
    for page_number, page in enumerate(slips_part.pages, first_page):
        if page.side == "back":
            continue
        for index, placement in page.cards:
            game, case, payload = p.slip_entries[index]
            slip_records.append({"mini_game": game, "holder": case.holder, "solver": case.solver,
                                 "file": "setup.pdf", "page": page_number,
                                 "card": placement.rect_to_page(spec.width, spec.height,
                                                                (0, 0, spec.width, spec.height)),
                                 "payload": payload})
    sheets = [f for f in files if f.name.endswith(".pdf") and "-cards" not in f.name and "/" not in f.name]
    return {
        "tool": "kitgen",
        "version": __version__,
        # networkx and numpy place locations without 'at'
        "libraries": output.library_versions(("networkx", "numpy"), pdfx=bool(kit.pdfx)),
        "game": "deduction",
        "setup_algorithm": dealing.ALGORITHM_VERSION,
        "kit": theme.id,
        "name": theme.name,
        "language": theme.language,
        "seed": theme.seed,
        "players": kit.players,
        "theme": {"source": Path(theme.source).name,
                  "suspects": list(theme.names("suspects")), "crimes": list(theme.names("crimes")),
                  "locations": [{"name": n, "at": list(pos)} for n, pos in zip(theme.city.names, theme.city.positions)],
                  "roads": [[theme.city.names[a], theme.city.names[b]] for a, b in theme.city.roads]},
        "options": {"paper": kit.paper, "board_paper": kit.board_paper or kit.paper, "duplex": kit.duplex,
                    "layout": kit.layout_name, "ink": kit.ink, "colour": kit.colour,
                    **({"pdfx": pdfx.record(kit.pdfx, p.layout.press.max_ink)} if kit.pdfx else {})},
        "files": file_entries([f for f in sheets if f.name != "board.pdf"], size)
                 + file_entries([f for f in sheets if f.name == "board.pdf"], board_page),
        # one entry a picture: where it came from and the SHA-256 of the bytes every component draws
        "pictures": pictures_mod.manifest(p.pictures),
        "slips": slip_records,
        "extra_files": [{"path": f.name, "sha256": hashlib.sha256(f.data).hexdigest()} for f in files
                        if f not in sheets],
    }


def build(kit: Kit, out_dir: Path, progress: Progress | None = None, more: tuple[BuiltFile, ...] = ()):
    files, manifest = build_files(kit, progress)
    files, manifest = output.with_more(files, manifest, more)
    target = Path(out_dir) / kit.theme.id
    output.write_kit(target, files, manifest)
    return target, files, manifest
