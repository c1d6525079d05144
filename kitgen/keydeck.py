"""``kitgen keys``: a key-card deck alone, of any size, in volumes.

reportlab holds a whole document in memory until it saves, so a long run is
split into volumes of a bounded number of pages: memory stays flat however many
keys are asked for."""

import hashlib
from pathlib import Path

from . import __version__, keys as keys_mod, kitfile, messages as messages_mod, payload
from .build import BuiltFile, Progress, load_layout, page_size, register_fonts, write_kit
from .keys import kit_secret
from .render import keycards
from .render.document import card_part, render

VOLUME_PAGES = 200


def build(count: int, edition: str, seed: str | None, out_dir: Path, paper: str | None, duplex: str | None,
          language: str | None, volume_pages: int = VOLUME_PAGES, progress: Progress | None = None):
    progress = progress or Progress()
    kit = kitfile.load(kitfile.kit_path(None, edition, language), seed=seed, keys=count, paper=paper,
                       duplex=duplex, language=language)
    layout = load_layout(kit)
    size = page_size(layout, kit.paper, kit.origins.get("paper"))
    fonts = register_fonts(layout, progress.note)
    messages = messages_mod.load(kit.language)
    deck = keys_mod.generate(kit.seed, kit.edition, count)
    secret = kit_secret(kit.seed)
    probe = card_part(keycards.card_set(tuple(deck[:1]), ["x"], layout, fonts, kit.id, kit.edition, messages, ""),
                      layout, size, kit.duplex)
    per_volume = max(1, volume_pages // 2) * probe.grid.per_sheet      # a sheet is two pages: fronts and backs
    cells = keycards.cell_boxes(layout, kit.edition.rows, kit.edition.cols)
    files, entries = [], []
    progress.start(-(-count // probe.grid.per_sheet) * 2)
    for volume, start in enumerate(range(0, count, per_volume), 1):
        chunk = tuple(deck[start:start + per_volume])
        payloads = [payload.encode(kit.id, key, secret) for key in chunk]
        cards = keycards.card_set(chunk, payloads, layout, fonts, kit.id, kit.edition, messages, "keys")
        part = card_part(cards, layout, size, kit.duplex)
        name = f"keys-{volume:03d}.pdf"
        data, _ = render([part], size, layout, fonts, kit.duplex, f"{kit.name}: keys, volume {volume}", kit.id,
                         progress.page)
        files.append(BuiltFile(name, data, len(part.pages)))
        spec = cards.spec
        for page_number, page in enumerate(part.pages, 1):
            if page.side != "front":
                continue
            for index, placement in page.cards:
                entries.append({"number": start + index + 1, "file": name, "page": page_number,
                                "card": placement.rect_to_page(spec.width, spec.height, (0, 0, spec.width, spec.height)),
                                "cells": [placement.rect_to_page(spec.width, spec.height, b) for b in cells],
                                "payload": payloads[index]})
    manifest = {"tool": "kitgen", "version": __version__, "kit": kit.id, "edition": kit.edition.name,
                "seed": kit.seed, "options": {"paper": kit.paper, "duplex": kit.duplex, "keys": count,
                                              "layout": kit.layout_name},
                "files": [{"path": f.name, "sha256": hashlib.sha256(f.data).hexdigest(), "pages": f.pages,
                           "page_size": [round(size[0], 3), round(size[1], 3)]} for f in files],
                "keys": entries}
    target = Path(out_dir) / f"{kit.id}-keys-{count}"
    write_kit(target, files, manifest)
    return target, files, manifest
