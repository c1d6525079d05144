"""Building a kit: load -> check -> model -> impose -> draw -> write (atomically)."""

import dataclasses
import hashlib
from dataclasses import dataclass
from pathlib import Path

from kitgen import __version__, fonts, layouts, output, pictures, scans
from kitgen.errors import KitgenError
from kitgen.games.codenames import contents, duet_keys, key_payload, layout as layout_mod, picture_decks, texts, web
from kitgen.games.codenames.key_deck import ALGORITHM_VERSION, kit_secret
from kitgen.games.codenames.model import Kit, layout_overlays
from kitgen.games.codenames.render import (
    agent_tiles,
    campaign_sheet,
    codename_cards,
    key_cards,
    picture_cards,
    rules_sheet,
    timer_tokens,
)
from kitgen.messages import label
from kitgen.output import BuiltFile, Progress, file_entries, write_kit
from kitgen.render import pdfx, percard, pod, press, qr, text
from kitgen.render.document import CardPart, FreePart, PrintOptions, card_part, render
from kitgen.units import mm

# kitgen box (docs/design.md §8.12): the card sets that get a tuck box each, and those that get a stand
BOXES = ("codenames", "keys", "tiles", "tokens")      # tokens: the duet edition's timer tokens
STANDS = ("keys",)


def load_layout(kit: Kit, extra: tuple[str, ...] = ()):
    """The kit's layout (with ``extra`` built-in layouts laid over it, such as a print-on-demand
    preset); a layout that cannot be found names where the kit asked for it. Under --pdfx its
    colours are checked against its ink limit and it carries the press conversion
    (press.for_press, docs/design.md §8.11)."""
    try:
        layout = layout_mod.load(kit.layout_name, layout_overlays(kit.ink, kit.colour, kit.edition.cooperative) + extra)
    except KitgenError as err:
        if err.source is None:
            raise KitgenError(err.message, source=kit.origins.get("layout")) from None
        raise
    return press.for_press(layout, kit.pdfx) if kit.pdfx else layout


def check_labels(layout, font_names: dict[str, str], messages, kit_name: str, edition):
    """Printed labels and the kit's name must have their glyphs; labels must fit their boxes."""
    missing = text.missing_glyphs(kit_name, font_names[layout.rules.body.font])
    if missing:
        raise KitgenError(f"the font lacks {missing!r} for the kit name {kit_name!r}; rename the kit")
    checks = [(layout.key_card.back_label, messages.labels.key_back),
              (layout.key_card.kit_id, "W" * 16)]
    tiles = ("red_agent", "blue_agent", "double_agent", "bystander", "assassin")
    if edition.cooperative:           # docs/design.md §12
        tiles = ("green_agent", "bystander", "assassin")
        start = layout.key_card.start.box
        for side in ("side_a", "side_b"):
            checks.append((layouts.Node({**layout.duet.side, "box": start}), messages.labels[side]))
            checks.append((layout.duet.guess, label(messages, "guessed_by", side=messages.labels[side])))
        for key in ("timer", "extra_timer"):
            token = layout.timer_token.label
            checks.append((token, text.apply_case(messages.labels[key], token.case, messages.language)))
    for key in tiles:
        checks.append((layout.tile.label, text.apply_case(messages.labels[key], layout.tile.label.case,
                                                          messages.language)))
    for style, shown in checks:
        fitted = text.fit(shown, font_names[style.font], style.box[2], style.box[3], style.size, style.min_size)
        if fitted.missing:
            raise KitgenError(f"the font lacks {fitted.missing!r} for the label {shown!r}")
        if not fitted.fits:
            raise KitgenError(f"the label {shown!r} does not fit its box at {style.min_size:g}pt; "
                              "shorten it in the messages file or enlarge the box in the layout")


@dataclass(frozen=True)
class Prepared:
    """A kit ready to draw: its layout, page size, messages, fonts, contents,
    payloads and card sets."""

    layout: object
    page_size: tuple[float, float]
    messages: object
    fonts: dict
    contents: object
    payloads: list
    qr_texts: list        # what each key's QR holds: its payload, or <verify_url>#<payload>
    card_sets: dict


def kit_words(kit: Kit) -> tuple:
    """The words a kit may print beside its messages: its deck's (none for a picture deck), its own
    name, its deck's and the deck's credits."""
    names = (kit.name, getattr(kit.deck, "name", None) or "", getattr(kit.deck, "credits", None) or "")
    return tuple(getattr(kit.deck, "words", None) or ()) + names


def prepare(kit: Kit, progress: Progress | None = None, strict: bool = True) -> Prepared:
    """Load what drawing the kit needs. ``strict`` refuses words and labels that
    do not fit or lack glyphs (a build); a proof reports them instead."""
    progress = progress or Progress()
    layout = load_layout(kit)
    size = layouts.page_size(layout, kit.paper, kit.origins.get("paper"))
    messages = texts.load(kit.language)
    font_names = fonts.register_roles(layout, kit.language, texts.characters(kit.language, kit_words(kit)))
    kit_contents = contents.build(kit)
    picture_deck = isinstance(kit.deck, picture_decks.PictureDeck)
    if picture_deck:
        for note in kit.deck.notes:
            progress.warn(note)
        box = layout.picture_card.picture.box
        for warning in pictures.low_resolution(kit.deck.pictures, box[2], box[3]):
            progress.warn(warning)
    if strict:
        if not picture_deck:
            codename_cards.check_words(kit.deck.words, layout, font_names, kit.deck.source)
        check_labels(layout, font_names, messages, kit.name, kit.edition)
    secret = kit_secret(kit.seed)
    encode = key_payload.encode_duet if kit.edition.cooperative else key_payload.encode
    payloads = [encode(kit.id, key, secret) for key in kit_contents.key_cards]
    qr_texts = key_qr_texts(kit, payloads, layout)
    card_sets = draw_sets(kit, layout, font_names, messages, kit_contents, qr_texts)
    return Prepared(layout, size, messages, font_names, kit_contents, payloads, qr_texts, card_sets)


def draw_sets(kit: Kit, layout, font_names, messages, kit_contents, qr_texts) -> dict:
    """The kit's card sets, drawn with ``layout``: codename cards, keys, tiles (and the duet
    edition's timer tokens)."""
    labels = messages.labels
    tokens = {"tokens": timer_tokens.card_set(kit_contents.timer_tokens, layout, font_names, messages,
                                              labels.timer_tokens)} if kit_contents.timer_tokens else {}
    return {
        "codenames": (picture_cards if isinstance(kit.deck, picture_decks.PictureDeck) else codename_cards).card_set(
            kit_contents.codename_cards, layout, font_names, labels.codename_cards),
        "keys": key_cards.card_set(kit_contents.key_cards, qr_texts, layout, font_names, kit.id, kit.edition,
                                  messages, labels.key_cards),
        "tiles": agent_tiles.card_set(kit_contents.tiles, layout, font_names, messages, labels.tiles),
        **tokens,
    }


def pod_files(kit: Kit, p: Prepared, progress: Progress) -> tuple[list[BuiltFile], dict | None]:
    """``--pod SERVICE``: each part drawn again with the service's preset laid over the layout,
    at the service's card sizes (docs/design.md §8.13)."""
    if not kit.pod:
        return [], None
    layout = pod.for_service(load_layout(dataclasses.replace(kit, pdfx=None), (f"pod-{kit.pod}",)), kit.pdfx)
    sets = draw_sets(kit, layout, p.fonts, p.messages, p.contents, p.qr_texts)
    picture = isinstance(kit.deck, picture_decks.PictureDeck)
    sections = {"codenames": "picture_card" if picture else "codename_card", "keys": "key_card", "tiles": "tile",
                "tokens": "timer_token"}
    return pod.files(kit.pod, sets, sections, layout, p.fonts, kit.name, progress)


def key_qr_texts(kit: Kit, payloads: list[str], layout) -> list[str]:
    """What the key cards' QR codes hold. Behind a web address a symbol grows; one whose modules
    would print under MIN_QR / 33 (0.3 mm in the default layout's box) is refused (docs/design.md §5.5)."""
    if not kit.verify_url:
        return payloads
    texts = [f"{kit.verify_url}#{p}" for p in payloads]
    box = layout.key_card.qr.box[2]
    modules = qr.modules_across(max(texts, key=len))
    if box / modules < layouts.MIN_QR / 33:
        longest = _longest_url(kit, payloads, box)
        raise KitgenError(f"this address makes each key's QR {modules} modules across its {box / mm(1):g} mm box, "
                          f"too fine for a phone to read; use an address of at most {longest} "
                          "characters, or a layout with a larger key_card.qr.box",
                          source=kit.origins.get("verify_url", "--verify-url"))
    return texts


def _longest_url(kit: Kit, payloads: list[str], box: float) -> int:
    longest = max(payloads, key=len)
    fits = [n for n in range(len(kit.verify_url), 0, -1)
            if box / qr.modules_across("h" * n + "#" + longest) >= layouts.MIN_QR / 33]
    return fits[0] if fits else 0


def build_files(kit: Kit, progress: Progress | None = None) -> tuple[list[BuiltFile], dict]:
    """Every output file of the kit, in memory, and the manifest."""
    progress = progress or Progress()
    p = prepare(kit, progress)
    layout, size, font_names, labels = p.layout, p.page_size, p.fonts, p.messages.labels
    parts = {name: card_part(cards, layout, size, kit.duplex) for name, cards in p.card_sets.items()}
    credits = tuple(line for line in (kit.deck.credits, labels.font_credit,
                                      labels.made_with.format(version=__version__)) if line)
    parts["rules"] = FreePart("rules", labels.rules, lambda c: rules_sheet.draw(
        c, size, layout, font_names, p.messages, kit.rules, f"{kit.name} \u00b7 {labels.rules}",
        kit.edition.name, credits))
    if kit.campaign:                # docs/design.md §12
        missions = campaign_sheet.load_campaign()
        parts["campaign"] = FreePart("campaign", labels.campaign, lambda c: campaign_sheet.draw(
            c, size, layout, font_names, p.messages, missions, f"{kit.name} \u00b7 {labels.campaign}"))
    progress.start(2 * sum(len(part.pages) for part in parts.values() if isinstance(part, CardPart)))
    options = print_options(kit)
    files = []
    for name, part in parts.items():
        title = f"{kit.name}: {part.cards.title if isinstance(part, CardPart) else part.title}"
        data, _ = render([part], size, layout, font_names, kit.duplex, title, kit.id, progress.page, options)
        files.append(BuiltFile(f"{name}.pdf", data, _page_count(part, data)))
        progress.part_drawn(f"{name}.pdf", data)
    files += per_card_files(kit, p, progress)
    data, starts = render(list(parts.values()), size, layout, font_names, kit.duplex, kit.name, kit.id,
                          progress.page, options)
    kit_starts = dict(zip(parts, starts))
    files.append(BuiltFile("kit.pdf", data, data.count(b"/Type /Page\n")))
    # a screen shows the full colours, whatever ink the print saves
    screen = layout_mod.load(kit.layout_name) if layout_overlays(kit.ink, kit.colour) else layout
    files.append(BuiltFile("verify.html", web.page(screen), 0))
    if kit.pdfx:
        files = pdfx.convert(files, kit.pdfx, layout.press.max_ink)
    service_files, service = pod_files(kit, p, progress)       # PDF/X where the service asks, on its own terms
    files += service_files
    manifest = _manifest(kit, layout, size, files, parts["keys"], p.qr_texts, kit_starts["keys"])
    if service:
        manifest["pod"] = service
    return files, manifest


def print_options(kit: Kit) -> PrintOptions:
    """The sheet options of a kit: back offset, cut lines, proof marks."""
    slug = None
    if kit.slug:
        seed_hash = hashlib.sha256(kit.seed.encode()).hexdigest()[:10]
        slug = (f"{kit.id} \u00b7 {kit.edition.name} \u00b7 {kit.language} \u00b7 kitgen {__version__} "
                f"\u00b7 seed {seed_hash}")
    return PrintOptions(kit.back_offset, kit.cut_lines, slug)


def per_card_files(kit: Kit, prepared: Prepared, progress: Progress) -> list[BuiltFile]:
    """``<part>-cards.pdf`` (one face a page) and ``png/<part>/...`` when asked for."""
    return percard.files(prepared.card_sets, prepared.layout, prepared.fonts, kit.name, kit.per_card, kit.png_dpi,
                         progress)


def _page_count(part, data: bytes) -> int:
    if isinstance(part, CardPart):
        return len(part.pages)
    return data.count(b"/Type /Page\n")


def key_entries(part: CardPart, cells, payloads, file: str, first: int = 0, kit_start: int | None = None,
                sides: int = 1) -> list:
    """The manifest's record of each key card of ``part``: its file, page, card and
    cell rectangles (PDF points, cells in payload order) and its payload. A duet key
    (``sides`` 2) also has ``side_b``: the page, card and cells of its back, side B as its
    player sees it, cells top row first as printed there (docs/design.md §12)."""
    spec = part.cards.spec
    entries = []
    backs = {}
    rects = {}              # a sheet's slots repeat on every sheet: each one's rectangles are worked out once

    def face(page_number: int, placement) -> dict:
        """Where a face is: its page (and page in kit.pdf), card and cell rectangles."""
        if placement not in rects:
            rects[placement] = (placement.rect_to_page(spec.width, spec.height, (0, 0, spec.width, spec.height)),
                                [placement.rect_to_page(spec.width, spec.height, box) for box in cells])
        card, cell_rects = rects[placement]
        return {"page": page_number, **({"kit_page": kit_start + page_number - 1} if kit_start is not None else {}),
                "card": card, "cells": cell_rects}

    for page_number, page in enumerate(part.pages, 1):
        if sides == 2:
            for index, placement in page.cards if page.side == "back" else page.backs:
                backs[index] = face(page_number, placement)
        if page.side == "back":
            continue
        for index, placement in page.cards:
            entry = {"number": first + index + 1, "file": file, **face(page_number, placement),
                     "payload": scans.payload_of(payloads[index])}
            if payloads[index] != entry["payload"]:
                entry["qr"] = payloads[index]          # the address a phone opens (--verify-url)
            entries.append(entry)
    if sides == 2:
        for entry in entries:
            entry["side_b"] = backs[entry["number"] - first - 1]
    return entries


def _deck_entry(kit: Kit) -> dict:
    """The manifest's ``deck``: name, source file and count; a picture deck also lists where each of
    its pictures is from (``picture_sources``: name, sources, licence; docs/design.md §8.14)."""
    entry = {"name": kit.deck.name, "source": Path(kit.deck.source).name,
             ("pictures" if kit.edition.name == "pictures" else "words"): len(kit.deck.words)}
    if isinstance(kit.deck, picture_decks.PictureDeck):
        entry["picture_sources"] = [{"name": p.name, "sources": list(p.sources), "licence": p.licence or None}
                                    for p in kit.deck.pictures]
    return entry


def _manifest(kit: Kit, layout, size, files: list[BuiltFile], keys_part: CardPart, payloads, kit_start: int) -> dict:
    cells = key_cards.cell_boxes(layout, kit.edition.rows, kit.edition.cols)
    keys = key_entries(keys_part, cells, payloads, "keys.pdf", kit_start=kit_start, sides=kit.edition.sides)
    sheets = [f for f in files if f.name.endswith(".pdf") and "-cards" not in f.name and "/" not in f.name]
    return {
        "tool": "kitgen",
        "version": __version__,
        "libraries": output.library_versions(pdfx=bool(kit.pdfx)),
        "key_algorithm": duet_keys.ALGORITHM_VERSION if kit.edition.cooperative else ALGORITHM_VERSION,
        "kit": kit.id,
        "name": kit.name,
        "edition": kit.edition.name,
        "language": kit.language,
        "seed": kit.seed,
        "deck": _deck_entry(kit),
        "options": {"paper": kit.paper, "duplex": kit.duplex, "keys": kit.keys, "layout": kit.layout_name,
                    "ink": kit.ink, "colour": kit.colour,
                    **({"pdfx": pdfx.record(kit.pdfx, layout.press.max_ink)} if kit.pdfx else {})},
        "files": file_entries(sheets, size),
        "extra_files": [{"path": f.name, "sha256": hashlib.sha256(f.data).hexdigest()} for f in files
                        if f not in sheets],
        "keys": keys,
    }


def build(kit: Kit, out_dir: Path, progress: Progress | None = None,
          more: tuple[BuiltFile, ...] = ()) -> tuple[Path, list[BuiltFile], dict]:
    """Build the kit into ``out_dir/<kit id>``; returns the folder, files and manifest. ``more``:
    files made beside the kit (``--box``), written with it and listed under ``extra_files``."""
    files, manifest = build_files(kit, progress)
    files, manifest = output.with_more(files, manifest, more)
    target = Path(out_dir) / kit.id
    write_kit(target, files, manifest)
    return target, files, manifest
