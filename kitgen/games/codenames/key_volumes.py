"""``kitgen keys``: a key-card deck alone, of any size, in volumes.

reportlab holds a whole document in memory until it saves, so a long run is split
into volumes of a bounded number of pages. Each volume is written to the kit's
folder as soon as it is drawn and its keys' manifest entries go to disk with it,
so memory stays flat however many keys are asked for (docs/design.md §8.9).
Volumes are drawn by worker processes, one per core unless ``jobs`` says
otherwise; a volume's bytes depend only on its keys, so the files are the same
whatever the number of workers."""

import gc
import hashlib
import json
import os
from dataclasses import dataclass
from pathlib import Path

from kitgen import __version__, fonts as fonts_mod, layouts
from kitgen.games.codenames import duet_keys, key_deck, key_payload, kitfile, texts
from kitgen.games.codenames.build import key_entries, kit_words, load_layout
from kitgen.games.codenames.key_deck import KeyCard, kit_secret
from kitgen.games.codenames.render import key_cards
from kitgen.output import KitWriter, Progress
from kitgen.render.cards import card_spec
from kitgen.render.document import card_part, render, sheet_grid

VOLUME_PAGES = 200


@dataclass(frozen=True)
class Volume:
    name: str
    pages: int
    sha256: str


@dataclass(frozen=True)
class Volumes:
    target: Path
    volumes: list[Volume]
    keys: int


def default_jobs() -> int:
    """One worker per core this process may use."""
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:                      # not on Linux
        return os.cpu_count() or 1


# What every volume needs, set before the workers start (a forked worker inherits it).
_job: dict = {}


def _unpacked(packed: str, number: int, total: int, cols: int, duet: bool = False):
    """A key from its packed form: the starting team, then the cells row by row; a duet key
    (docs/design.md §12): side A's cells, then side B's, row by row."""
    if duet:
        half = len(packed) // 2
        side_a, side_b = (tuple(s[r:r + cols] for r in range(0, half, cols)) for s in (packed[:half], packed[half:]))
        return duet_keys.DuetKey(number, total, side_a, side_b)
    cells = packed[1:]
    return KeyCard(number, total, packed[0], tuple(cells[r:r + cols] for r in range(0, len(cells), cols)))


def _packed_deck(kit, count: int) -> tuple[str, int]:
    """The deck as one string and each key's width in it: a key's starting team and its cells (26
    characters for 25 cells), or a duet key's two sides (50): a 100,000-key deck is a few MB, and
    a worker is sent only its volume's part."""
    if kit.edition.cooperative:
        return "".join("".join(a) + "".join(b) for a, b in duet_keys.draw(kit.seed, count)), 2 * kit.edition.cells
    return "".join(first + "".join(grid) for first, grid in key_deck.draw(kit.seed, kit.edition, count)), \
        1 + kit.edition.cells


def _volume(task: tuple[int, int, str]) -> tuple[Volume, str]:
    """Draw volume ``number``, whose first key is key ``start`` (0-based) of the deck and whose
    keys are ``packed`` (each packed as ``_unpacked`` reads it, one after another), into the
    kit's folder; returns the volume and its keys' manifest entries, one JSON line each."""
    number, start, packed = task
    job = _job
    kit, layout, fonts, size = job["kit"], job["layout"], job["fonts"], job["size"]
    width, duet = job["width"], kit.edition.cooperative
    chunk = tuple(_unpacked(packed[at:at + width], start + i + 1, job["count"], kit.edition.cols, duet)
                  for i, at in enumerate(range(0, len(packed), width)))
    encode = key_payload.encode_duet if duet else key_payload.encode
    payloads = [encode(kit.id, key, job["secret"]) for key in chunk]
    cards = key_cards.card_set(chunk, payloads, layout, fonts, kit.id, kit.edition, job["messages"], "keys")
    part = card_part(cards, layout, size, kit.duplex)
    name = f"keys-{number:03d}.pdf"
    data, _ = render([part], size, layout, fonts, kit.duplex, f"{kit.name}: keys, volume {number}", kit.id)
    job["writer"].write(name, data)
    entries = key_entries(part, job["cells"], payloads, name, first=start, sides=kit.edition.sides)
    lines = "".join(json.dumps(entry, ensure_ascii=False, separators=(",", ":")) + ",\n" for entry in entries)
    volume = Volume(name, len(part.pages), hashlib.sha256(data).hexdigest())
    del cards, part, data, entries
    gc.collect()        # a drawn document is a web of cycles: free it now, not at some later full collection
    return volume, lines


def build(count: int, edition: str, seed: str | None, out_dir: Path, paper: str | None, duplex: str | None,
          language: str | None, volume_pages: int = VOLUME_PAGES, progress: Progress | None = None,
          jobs: int | None = None) -> Volumes:
    progress = progress or Progress()
    kit = kitfile.load(kitfile.kit_path(None, edition, language), seed=seed, keys=count, paper=paper,
                       duplex=duplex, language=language)
    layout = load_layout(kit)
    size = layouts.page_size(layout, kit.paper, kit.origins.get("paper"))
    fonts = fonts_mod.register_roles(layout, kit.language, texts.characters(kit.language, kit_words(kit)))
    fold = kit.duplex == "fold"
    per_sheet = sheet_grid(layout, card_spec(layout.key_card), size, fold).per_sheet
    sides = 1 if fold else 2            # a sheet is two pages, fronts and backs, or one fold page
    per_volume = max(1, volume_pages // sides) * per_sheet
    jobs = max(1, min(jobs or default_jobs(), -(-count // per_volume)))
    target = Path(out_dir) / f"{kit.id}-keys-{count}"
    progress.start(-(-count // per_sheet) * sides)
    volumes = []
    with KitWriter(target) as writer:
        deck, width = _packed_deck(kit, count)
        tasks = ((number, start, deck[start * width:(start + per_volume) * width])
                 for number, start in enumerate(range(0, count, per_volume), 1))
        _job.update(kit=kit, layout=layout, fonts=fonts, size=size, writer=writer, secret=kit_secret(kit.seed),
                    count=count, width=width, messages=texts.load(kit.language),
                    cells=key_cards.cell_boxes(layout, kit.edition.rows, kit.edition.cols))
        # what exists now (fonts, layout, deck) lives to the end: kept out of the collections that
        # free each volume (they then look at that volume's objects alone), and out of the pages a
        # forked worker would copy when a collection touched them
        gc.collect()
        gc.freeze()
        try:
            with writer.path("keys.jsonl").open("w", encoding="utf-8") as entries:
                for volume, lines in forked(_volume, tasks, jobs):
                    entries.write(lines)
                    volumes.append(volume)
                    for _ in range(volume.pages):
                        progress.page()
        finally:
            gc.unfreeze()
            _job.clear()
        header = {"tool": "kitgen", "version": __version__, "kit": kit.id, "edition": kit.edition.name,
                  "seed": kit.seed, "options": {"paper": kit.paper, "duplex": kit.duplex, "keys": count,
                                                "layout": kit.layout_name},
                  "files": [{"path": v.name, "sha256": v.sha256, "pages": v.pages,
                             "page_size": [round(size[0], 3), round(size[1], 3)]} for v in volumes]}
        writer.finish(lambda handle: _manifest(handle, header, writer.path("keys.jsonl")))
    return Volumes(target, volumes, count)


def forked(function, tasks, jobs: int):
    """``function`` of each task, in order: here, or by ``jobs`` forked workers (which inherit what
    the caller set up before: where fork is not to be had, here)."""
    import multiprocessing

    if jobs == 1 or "fork" not in multiprocessing.get_all_start_methods():
        yield from map(function, tasks)
        return
    with multiprocessing.get_context("fork").Pool(jobs) as pool:
        yield from pool.imap(function, tasks)


def _manifest(handle, header: dict, entries: Path) -> None:
    """manifest.json: the header as a build's, then the keys one compact line each, read back from
    the file the volumes streamed them to (which is then removed)."""
    text = json.dumps(header, indent=1, ensure_ascii=False)
    handle.write(text[:-2] + ',\n "keys": [\n')
    with entries.open(encoding="utf-8") as lines:
        previous = None
        for line in lines:
            if previous is not None:
                handle.write(previous)
            previous = line
        if previous is not None:
            handle.write(previous.rstrip(",\n") + "\n")
    handle.write("]\n}")
    entries.unlink()
