"""Game boards as text for a forum or chat host: a public board anyone may
see, and a captain board for the spymasters, in Markdown, BBCode, HTML or
plain text. One writer per format, dispatched from a table.

The captain board never relies on colour alone: every cell also carries a
symbol and its type's name."""

import html

from kitgen.games.codenames.single_games import Game, rows

SYMBOLS = {"R": "\u25cf", "B": "\u25a0", "N": "\u25ac", "A": "\u2716"}      # disc, square, bar, cross: as printed
TYPE_LABELS = {"R": "red", "B": "blue", "N": "bystander", "A": "assassin"}


def _name(item) -> str:
    """A word, or a picture's caption (else its name)."""
    if isinstance(item, str):
        return item.upper()
    return (item.caption or item.name).upper()


def _marker(kind: str, labels) -> str:
    return f"{SYMBOLS[kind]} {labels[TYPE_LABELS[kind]]}"


def _title(game: Game, labels, edition) -> str:
    return labels.game_title.format(n=game.number, total=game.total, code=game.code)


def _starts(game: Game, labels) -> str:
    """"Red starts", in the kit's language."""
    return labels.starts.format(team=labels[TYPE_LABELS[game.key.starting_team]])


def _cells(game: Game, edition, captain: bool, labels):
    """Rows of (text, kind or None)."""
    grid = game.key.grid
    return [[(_name(item), grid[r][c] if captain else None) for c, item in enumerate(row)]
            for r, row in enumerate(rows(game, edition))]


def _proof(game: Game, labels, captain: bool) -> list[tuple[str, str]]:
    """The commitment everyone sees before the game; the key and salt the captains keep,
    for the host to post afterwards (kitgen verify --commitment ... --salt ... KEY)."""
    lines = [(labels.commitment, game.commitment)]
    if captain:
        lines += [(labels.reveal_key, game.payload), (labels.salt, game.salt)]
    return lines


def markdown(game: Game, edition, labels, captain: bool, colours) -> str:
    out = [f"### {_title(game, labels, edition)}", ""]
    if captain:
        out += [f"**{labels.key_back}** \u00b7 {_starts(game, labels)}", ""]
    out.append("| " + " | ".join(" " for _ in range(edition.cols)) + " |")
    out.append("|" + "---|" * edition.cols)
    for row in _cells(game, edition, captain, labels):
        cells = [f"**{text}** {_marker(kind, labels)}" if kind else text for text, kind in row]
        out.append("| " + " | ".join(cells) + " |")
    out += [""] + [f"{label}: `{value}`  " for label, value in _proof(game, labels, captain)]
    return "\n".join(out) + "\n"


def bbcode(game: Game, edition, labels, captain: bool, colours) -> str:
    out = [f"[b]{_title(game, labels, edition)}[/b]"]
    if captain:
        out.append(f"[b]{labels.key_back}[/b] \u00b7 [color={colours[game.key.starting_team]}]"
                   f"{_starts(game, labels)}[/color]")
    for row in _cells(game, edition, captain, labels):
        cells = [f"[color={colours[kind]}][b]{text}[/b] {_marker(kind, labels)}[/color]" if kind else f"[b]{text}[/b]"
                 for text, kind in row]
        out.append(" | ".join(cells))
    out += [f"{label}: [code]{value}[/code]" for label, value in _proof(game, labels, captain)]
    return "\n".join(out) + "\n"


def html_board(game: Game, edition, labels, captain: bool, colours) -> str:
    out = [f"<h3>{html.escape(_title(game, labels, edition))}</h3>"]
    if captain:
        out.append(f"<p><b>{html.escape(labels.key_back)}</b> \u00b7 {html.escape(_starts(game, labels))}</p>")
    out.append('<table style="border-collapse:collapse">')
    for row in _cells(game, edition, captain, labels):
        out.append("<tr>")
        for text, kind in row:
            if kind:
                style = f"background:{colours[kind]};color:{'#000' if kind == 'N' else '#fff'}"
                out.append(f'<td style="border:1px solid #888;padding:6px;{style}"><b>{html.escape(text)}</b><br>'
                           f"{html.escape(_marker(kind, labels))}</td>")
            else:
                out.append(f'<td style="border:1px solid #888;padding:6px"><b>{html.escape(text)}</b></td>')
        out.append("</tr>")
    out.append("</table>")
    out += [f"<p>{html.escape(label)}: <code>{value}</code></p>" for label, value in _proof(game, labels, captain)]
    return "\n".join(out) + "\n"


def plain(game: Game, edition, labels, captain: bool, colours) -> str:
    cells = [[f"{text} [{_marker(kind, labels)}]" if kind else text for text, kind in row]
             for row in _cells(game, edition, captain, labels)]
    width = max(len(c) for row in cells for c in row)
    out = [_title(game, labels, edition)]
    if captain:
        out.append(f"{labels.key_back} \u00b7 {_starts(game, labels)}")
    out += ["  ".join(c.ljust(width) for c in row).rstrip() for row in cells]
    out += [f"{label}: {value}" for label, value in _proof(game, labels, captain)]
    return "\n".join(out) + "\n"


WRITERS = {"markdown": (markdown, "md"), "bbcode": (bbcode, "bbcode.txt"), "html": (html_board, "html"),
           "text": (plain, "txt")}


def write_all(games, edition, labels, fmt: str, colours) -> dict[str, str]:
    """{file name: content} for the public boards and the captain boards of every game."""
    writer, ext = WRITERS[fmt]
    joiner = "\n<hr>\n" if fmt == "html" else "\n"
    public = joiner.join(writer(g, edition, labels, False, colours) for g in games)
    captain = joiner.join(writer(g, edition, labels, True, colours) for g in games)
    if fmt == "html":
        head = '<!DOCTYPE html>\n<html><head><meta charset="utf-8"><title>kitgen</title></head><body>\n'
        public, captain = head + public + "</body></html>\n", head + captain + "</body></html>\n"
    return {f"public.{ext}": public, f"captain.{ext}": captain}
