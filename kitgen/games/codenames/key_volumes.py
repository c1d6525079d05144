"""``kitgen keys``: a key-card deck alone, of any size, in volumes.

reportlab holds a whole document in memory until it saves, so a long run is
split into volumes of a bounded number of pages: memory stays flat however many
keys are asked for."""

from pathlib import Path

from kitgen import __version__, fonts as fonts_mod, layouts
from kitgen.games.codenames import key_deck, key_payload, kitfile, texts
from kitgen.games.codenames.build import key_entries, load_layout
from kitgen.games.codenames.key_deck import kit_secret
from kitgen.games.codenames.render import key_cards
from kitgen.output import BuiltFile, Progress, file_entries, write_kit
from kitgen.render.cards import card_spec
from kitgen.render.document import card_part, render, sheet_grid

VOLUME_PAGES = 200


def build(count: int, edition: str, seed: str | None, out_dir: Path, paper: str | None, duplex: str | None,
          language: str | None, volume_pages: int = VOLUME_PAGES, progress: Progress | None = None):
    progress = progress or Progress()
    kit = kitfile.load(kitfile.kit_path(None, edition, language), seed=seed, keys=count, paper=paper,
                       duplex=duplex, language=language)
    layout = load_layout(kit)
    size = layouts.page_size(layout, kit.paper, kit.origins.get("paper"))
    fonts = fonts_mod.register_roles(layout)
    messages = texts.load(kit.language)
    deck = key_deck.generate(kit.seed, kit.edition, count)
    secret = kit_secret(kit.seed)
    per_sheet = sheet_grid(layout, card_spec(layout.key_card), size).per_sheet
    per_volume = max(1, volume_pages // 2) * per_sheet      # a sheet is two pages: fronts and backs
    cells = key_cards.cell_boxes(layout, kit.edition.rows, kit.edition.cols)
    files, entries = [], []
    progress.start(-(-count // per_sheet) * 2)
    for volume, start in enumerate(range(0, count, per_volume), 1):
        chunk = tuple(deck[start:start + per_volume])
        payloads = [key_payload.encode(kit.id, key, secret) for key in chunk]
        cards = key_cards.card_set(chunk, payloads, layout, fonts, kit.id, kit.edition, messages, "keys")
        part = card_part(cards, layout, size, kit.duplex)
        name = f"keys-{volume:03d}.pdf"
        data, _ = render([part], size, layout, fonts, kit.duplex, f"{kit.name}: keys, volume {volume}", kit.id,
                         progress.page)
        files.append(BuiltFile(name, data, len(part.pages)))
        entries += key_entries(part, cells, payloads, name, first=start)
    manifest = {"tool": "kitgen", "version": __version__, "kit": kit.id, "edition": kit.edition.name,
                "seed": kit.seed, "options": {"paper": kit.paper, "duplex": kit.duplex, "keys": count,
                                              "layout": kit.layout_name},
                "files": file_entries(files, size),
                "keys": entries}
    target = Path(out_dir) / f"{kit.id}-keys-{count}"
    write_kit(target, files, manifest)
    return target, files, manifest
