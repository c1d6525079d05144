"""Game boards as text for a forum or chat host: a public board anyone may
see, and a captain board for the spymasters, in Markdown, BBCode, HTML or
plain text. One writer per format, dispatched from a table. A duet game
(docs/design.md §3.5) has instead a board for each player, showing that
player's side of the key as they see the board, and a host board with the
key and salt to post after the game.

A board with a key never relies on colour alone: every cell also carries a
symbol and its type's name."""

import html

from kitgen.games.codenames.duet_keys import half_turn
from kitgen.games.codenames.single_games import Game, rows
from kitgen.messages import is_rtl, label

SYMBOLS = {"R": "\u25cf", "B": "\u25a0", "N": "\u25ac", "A": "\u2716"}      # disc, square, bar, cross: as printed
GREEN_SYMBOL = SYMBOLS["R"]         # the duet edition's green agent: a disc, as printed (symbols.py)
TYPE_LABELS = {"R": "red", "B": "blue", "N": "bystander", "A": "assassin", "G": "green_agent"}

# Who each file is for: whether it shows a key (whose), and whether it reveals the key and salt
CAPTAIN, PUBLIC, HOST = "captain", "public", "host"
SIDES = ("A", "B")                  # a duet player's file: that side of the key
REVEALS = (CAPTAIN, HOST)


def _name(item) -> str:
    """A word, or a picture's caption (else its name)."""
    if isinstance(item, str):
        return item.upper()
    return (item.caption or item.name).upper()


def _marker(kind: str, messages) -> str:
    return f"{GREEN_SYMBOL if kind == 'G' else SYMBOLS[kind]} {messages.labels[TYPE_LABELS[kind]]}"


def _title(game: Game, messages, edition) -> str:
    return label(messages, "game_title", n=game.number, total=game.total, code=game.code)


def _starts(game: Game, messages) -> str:
    """"Red starts", in the kit's language."""
    return messages.labels.starts.format(team=messages.labels[TYPE_LABELS[game.key.starting_team]])


def _note(game: Game, messages, view: str) -> tuple[str, str | None] | None:
    """The line under a keyed board's title: whose it is, and which team starts (a duet has none)."""
    if view == CAPTAIN:
        return messages.labels.key_back, _starts(game, messages)
    if view in SIDES:
        return label(messages, "side", side=messages.labels[f"side_{view.lower()}"]), None
    return None


def _grid(game: Game, view: str):
    """The key's grid a board shows, in the board's own orientation, or None."""
    if view == CAPTAIN:
        return game.key.grid
    if view in SIDES:
        return game.key.side_a if view == "A" else game.key.side_b
    return None


def _cells(game: Game, edition, view: str, messages):
    """Rows of (text, kind or None); side B's board turned half round, as B's player sees the table."""
    grid = _grid(game, view)
    cells = [[(_name(item), grid[r][c] if grid else None) for c, item in enumerate(row)]
             for r, row in enumerate(rows(game, edition))]
    return [list(row) for row in half_turn(cells)] if view == "B" else cells


def _proof(game: Game, messages, view: str) -> list[tuple[str, str]]:
    """The commitment everyone sees before the game; the key and salt the captains (a duet game's
    host) keep, for the host to post afterwards (kitgen verify --commitment ... --salt ... KEY). A duet
    player never sees them: the key holds the other player's side."""
    lines = [(messages.labels.commitment, game.commitment)]
    if view in REVEALS:
        lines += [(messages.labels.reveal_key, game.payload), (messages.labels.salt, game.salt)]
    return lines


MARKDOWN_SPECIAL = str.maketrans({c: "\\" + c for c in "\\`*_[]<>|~"})


def _md(text: str) -> str:
    """Text in a Markdown table cell: Markdown's own characters (a cell's ``|`` above all) escaped."""
    return text.translate(MARKDOWN_SPECIAL)


def _md_row(cells: list[str]) -> str:
    return "| " + " | ".join(cells) + " |"


def markdown(game: Game, edition, messages, view: str, colours) -> str:
    """A GitHub-flavoured Markdown table whose header row is the board's first row (a table
    needs one; an empty header would show as an empty row), every column centred, every word bold
    so the header row looks like the others."""
    out = [f"### {_title(game, messages, edition)}", ""]
    note = _note(game, messages, view)
    if note:
        out += [f"**{note[0]}**" + (f" \u00b7 {note[1]}" if note[1] else ""), ""]
    board = [[f"**{_md(text)}** {_marker(kind, messages)}" if kind else f"**{_md(text)}**" for text, kind in row]
             for row in _cells(game, edition, view, messages)]
    out += [_md_row(board[0]), _md_row([":---:"] * edition.cols)] + [_md_row(row) for row in board[1:]]
    out += [""] + [f"{label}: `{value}`  " for label, value in _proof(game, messages, view)]
    return "\n".join(out) + "\n"


def bbcode(game: Game, edition, messages, view: str, colours) -> str:
    out = [f"[b]{_title(game, messages, edition)}[/b]"]
    note = _note(game, messages, view)
    if note:
        out.append(f"[b]{note[0]}[/b]" + (f" \u00b7 [color={colours[game.key.starting_team]}]{note[1]}[/color]"
                                          if note[1] else ""))
    for row in _cells(game, edition, view, messages):
        cells = [f"[color={colours[kind]}][b]{text}[/b] {_marker(kind, messages)}[/color]" if kind
                 else f"[b]{text}[/b]" for text, kind in row]
        out.append(" | ".join(cells))
    out += [f"{label}: [code]{value}[/code]" for label, value in _proof(game, messages, view)]
    return "\n".join(out) + "\n"


CELL_STYLE = "border:1px solid #888;padding:6px;text-align:center;overflow-wrap:anywhere"
TABLE_STYLE = "border-collapse:collapse;table-layout:fixed;width:100%;max-width:60em"


def _html_cell(text: str, kind, messages, colours, width: str) -> str:
    """One board cell, as wide as every other (its share of a fixed-layout table)."""
    style = f"width:{width}%;{CELL_STYLE}"
    if not kind:
        return f'<td style="{style}"><b>{html.escape(text)}</b></td>'
    style += f";background:{colours[kind]};color:{'#000' if kind == 'N' else '#fff'}"
    return f'<td style="{style}"><b>{html.escape(text)}</b><br>{html.escape(_marker(kind, messages))}</td>'


def html_board(game: Game, edition, messages, view: str, colours) -> str:
    """One game as an HTML fragment with inline styles only (a forum keeps those), cells of
    equal width; codes and payloads set left to right even on a right-to-left page, and wrapped on a phone."""
    out = [f"<h3>{html.escape(_title(game, messages, edition))}</h3>"]
    note = _note(game, messages, view)
    if note:
        out.append(f"<p><b>{html.escape(note[0])}</b>" + (f" \u00b7 {html.escape(note[1])}" if note[1] else "")
                   + "</p>")
    width = f"{100 / edition.cols:.4f}".rstrip("0").rstrip(".")
    out.append(f'<table style="{TABLE_STYLE}">')
    for row in _cells(game, edition, view, messages):
        out += ["<tr>"] + [_html_cell(text, kind, messages, colours, width) for text, kind in row] + ["</tr>"]
    out.append("</table>")
    out += [f'<p>{html.escape(label)}: <code dir="ltr" style="overflow-wrap:anywhere">{html.escape(value)}</code></p>'
            for label, value in _proof(game, messages, view)]
    return "\n".join(out) + "\n"


def _page_title(games, edition, messages, view: str) -> str:
    """The game's title (several games: the first's and the last's); a file with a key says whose it is."""
    titles = [_title(g, messages, edition) for g in (games[0], games[-1])]
    title = titles[0] if len(games) == 1 else " \u2013 ".join(titles)
    note = _note(games[0], messages, view)
    whose = note[0] if note else messages.labels.reveal_key if view == HOST else None
    return f"{whose} \u00b7 {title}" if whose else title


def html_page(body: str, title: str, language: str) -> str:
    """A whole page: the kit's language and its direction (right to left for Persian), a title."""
    direction = "rtl" if is_rtl(language) else "ltr"
    return (f'<!DOCTYPE html>\n<html lang="{html.escape(language)}" dir="{direction}">\n<head>\n'
            '<meta charset="utf-8">\n<meta name="viewport" content="width=device-width, initial-scale=1">\n'
            f"<title>{html.escape(title)}</title>\n</head>\n<body style=\"font-family:sans-serif\">\n"
            f"{body}</body>\n</html>\n")


def plain(game: Game, edition, messages, view: str, colours) -> str:
    cells = [[f"{text} [{_marker(kind, messages)}]" if kind else text for text, kind in row]
             for row in _cells(game, edition, view, messages)]
    width = max(len(c) for row in cells for c in row)
    out = [_title(game, messages, edition)]
    note = _note(game, messages, view)
    if note:
        out.append(" \u00b7 ".join(part for part in note if part))
    out += ["  ".join(c.ljust(width) for c in row).rstrip() for row in cells]
    out += [f"{label}: {value}" for label, value in _proof(game, messages, view)]
    return "\n".join(out) + "\n"


WRITERS = {"markdown": (markdown, "md"), "bbcode": (bbcode, "bbcode.txt"), "html": (html_board, "html"),
           "text": (plain, "txt")}


def views(edition) -> tuple[tuple[str, str], ...]:
    """(file stem, view) of each file of a run: the public boards and the captains' (they hold the key
    and salt the host posts after the game); for the duet, the public boards, a board for each player
    with that side of the key as the player sees the table, and the host's with the key and salt."""
    if edition.cooperative:
        return (("public", PUBLIC), ("player-a", "A"), ("player-b", "B"), ("host", HOST))
    return (("public", PUBLIC), ("captain", CAPTAIN))


def write_all(games, edition, messages, fmt: str, colours, *, language: str) -> dict[str, str]:
    """{file name: content} for each file of ``views`` with every game in it; ``language`` is the
    kit's (an HTML page's ``lang`` and direction)."""
    writer, ext = WRITERS[fmt]
    joiner = "\n<hr>\n" if fmt == "html" else "\n"
    files = {}
    for name, view in views(edition):
        text = joiner.join(writer(g, edition, messages, view, colours) for g in games)
        if fmt == "html":
            text = html_page(text, _page_title(games, edition, messages, view), language)
        files[f"{name}.{ext}"] = text
    return files
