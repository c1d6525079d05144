"""``kitgen game``: deal single games and write them as a PDF or as text boards."""

import dataclasses
import os
import tempfile
from dataclasses import dataclass
from pathlib import Path

from kitgen import fonts as fonts_mod, layouts
from kitgen.errors import KitgenError
from kitgen.games.codenames import forum_boards, kitfile, single_games, texts
from kitgen.games.codenames.build import kit_words, load_layout
from kitgen.games.codenames.render import cell_symbols, game_sheets


@dataclass(frozen=True)
class GameFiles:
    folder: Path
    files: list[Path]
    games: list
    default_seed: bool


def _write(folder: Path, contents: dict[str, bytes]) -> list[Path]:
    """Each file written whole or not at all (temporary name, then renamed)."""
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except OSError as err:
        raise KitgenError(f"cannot write here: {err.strerror}; choose another --out", source=str(folder)) from None
    written = []
    for name, data in contents.items():
        handle, tmp = tempfile.mkstemp(dir=folder, prefix=f".{name}.", suffix=".tmp")
        with os.fdopen(handle, "wb") as out:
            out.write(data)
        os.replace(tmp, folder / name)
        written.append(folder / name)
    return written


def make(deck: str | None, edition: str, language: str | None, seed: str | None, count: int, fmt: str,
         ink: str, out_dir: Path, layout: str | None = None) -> GameFiles:
    kit = kitfile.load(kitfile.kit_path(None, edition, language), deck=deck, seed=seed, language=language,
                       ink=ink)
    if layout is not None:
        kit = dataclasses.replace(kit, layout_name=layout)
    items = getattr(kit.deck, "pictures", None) or kit.deck.words
    games = single_games.deal(kit.seed, items, kit.edition, count)
    messages = texts.load(kit.language)
    layout = load_layout(kit)
    folder = Path(out_dir) / f"games-{games[0].code.lower()}"
    if fmt == "pdf":
        fonts = fonts_mod.register_roles(layout, kit.language, texts.characters(kit.language, kit_words(kit)))
        if not hasattr(kit.deck, "pictures"):
            from kitgen.games.codenames.render import codename_cards

            codename_cards.check_words(kit.deck.words, layout, fonts, kit.deck.source)
        width, height = layouts.page_size(layout, kit.paper)
        size = (max(width, height), min(width, height))
        game_sheets.check_words(games, kit.edition, layout, fonts, size, kit.deck.source)
        data = game_sheets.render(games, kit.edition, layout, fonts, messages, size, f"{kit.name}: {count} game(s)")
        contents = {"games.pdf": data}
    else:
        colours = {k: "#" + "".join(f"{round(255 * v):02X}" for v in cell_symbols.type_colours(layout, k)[0].rgb())
                   for k in ("GNA" if kit.edition.cooperative else "RBNA")}
        contents = {name: text.encode("utf-8") for name, text in
                    forum_boards.write_all(games, kit.edition, messages, fmt, colours,
                                           language=kit.language).items()}
    return GameFiles(folder, _write(folder, contents), games, seed is None)
