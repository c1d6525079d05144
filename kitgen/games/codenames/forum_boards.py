"""Game boards as text for a forum or chat host: a public board anyone may
see, and a captain board for the spymasters, in Markdown, BBCode, HTML or
plain text. One writer per format, dispatched from a table.

The captain board never relies on colour alone: every cell also carries a
symbol and its type's name."""

import html

from kitgen.games.codenames.single_games import Game, rows
from kitgen.messages import is_rtl, label

SYMBOLS = {"R": "\u25cf", "B": "\u25a0", "N": "\u25ac", "A": "\u2716"}      # disc, square, bar, cross: as printed
TYPE_LABELS = {"R": "red", "B": "blue", "N": "bystander", "A": "assassin"}


def _name(item) -> str:
    """A word, or a picture's caption (else its name)."""
    if isinstance(item, str):
        return item.upper()
    return (item.caption or item.name).upper()


def _marker(kind: str, messages) -> str:
    return f"{SYMBOLS[kind]} {messages.labels[TYPE_LABELS[kind]]}"


def _title(game: Game, messages, edition) -> str:
    return label(messages, "game_title", n=game.number, total=game.total, code=game.code)


def _starts(game: Game, messages) -> str:
    """"Red starts", in the kit's language."""
    return messages.labels.starts.format(team=messages.labels[TYPE_LABELS[game.key.starting_team]])


def _cells(game: Game, edition, captain: bool, messages):
    """Rows of (text, kind or None)."""
    grid = game.key.grid
    return [[(_name(item), grid[r][c] if captain else None) for c, item in enumerate(row)]
            for r, row in enumerate(rows(game, edition))]


def _proof(game: Game, messages, captain: bool) -> list[tuple[str, str]]:
    """The commitment everyone sees before the game; the key and salt the captains keep,
    for the host to post afterwards (kitgen verify --commitment ... --salt ... KEY)."""
    lines = [(messages.labels.commitment, game.commitment)]
    if captain:
        lines += [(messages.labels.reveal_key, game.payload), (messages.labels.salt, game.salt)]
    return lines


MARKDOWN_SPECIAL = str.maketrans({c: "\\" + c for c in "\\`*_[]<>|~"})


def _md(text: str) -> str:
    """Text in a Markdown table cell: Markdown's own characters (a cell's ``|`` above all) escaped."""
    return text.translate(MARKDOWN_SPECIAL)


def _md_row(cells: list[str]) -> str:
    return "| " + " | ".join(cells) + " |"


def markdown(game: Game, edition, messages, captain: bool, colours) -> str:
    """A GitHub-flavoured Markdown table whose header row is the board's first row (a table
    needs one; an empty header would show as an empty row), every column centred, every word bold
    so the header row looks like the others."""
    out = [f"### {_title(game, messages, edition)}", ""]
    if captain:
        out += [f"**{messages.labels.key_back}** \u00b7 {_starts(game, messages)}", ""]
    board = [[f"**{_md(text)}** {_marker(kind, messages)}" if kind else f"**{_md(text)}**" for text, kind in row]
             for row in _cells(game, edition, captain, messages)]
    out += [_md_row(board[0]), _md_row([":---:"] * edition.cols)] + [_md_row(row) for row in board[1:]]
    out += [""] + [f"{label}: `{value}`  " for label, value in _proof(game, messages, captain)]
    return "\n".join(out) + "\n"


def bbcode(game: Game, edition, messages, captain: bool, colours) -> str:
    out = [f"[b]{_title(game, messages, edition)}[/b]"]
    if captain:
        out.append(f"[b]{messages.labels.key_back}[/b] \u00b7 [color={colours[game.key.starting_team]}]"
                   f"{_starts(game, messages)}[/color]")
    for row in _cells(game, edition, captain, messages):
        cells = [f"[color={colours[kind]}][b]{text}[/b] {_marker(kind, messages)}[/color]" if kind
                 else f"[b]{text}[/b]" for text, kind in row]
        out.append(" | ".join(cells))
    out += [f"{label}: [code]{value}[/code]" for label, value in _proof(game, messages, captain)]
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


def html_board(game: Game, edition, messages, captain: bool, colours) -> str:
    """One game as an HTML fragment with inline styles only (a forum keeps those), cells of
    equal width; codes and payloads set left to right even on a right-to-left page, and wrapped on a phone."""
    out = [f"<h3>{html.escape(_title(game, messages, edition))}</h3>"]
    if captain:
        out.append(f"<p><b>{html.escape(messages.labels.key_back)}</b> \u00b7 "
                   f"{html.escape(_starts(game, messages))}</p>")
    width = f"{100 / edition.cols:.4f}".rstrip("0").rstrip(".")
    out.append(f'<table style="{TABLE_STYLE}">')
    for row in _cells(game, edition, captain, messages):
        out += ["<tr>"] + [_html_cell(text, kind, messages, colours, width) for text, kind in row] + ["</tr>"]
    out.append("</table>")
    out += [f'<p>{html.escape(label)}: <code dir="ltr" style="overflow-wrap:anywhere">{html.escape(value)}</code></p>'
            for label, value in _proof(game, messages, captain)]
    return "\n".join(out) + "\n"


def _page_title(games, edition, messages, captain: bool) -> str:
    """The game's title (several games: the first's and the last's); the captains' file says whose it is."""
    titles = [_title(g, messages, edition) for g in (games[0], games[-1])]
    title = titles[0] if len(games) == 1 else " \u2013 ".join(titles)
    return f"{messages.labels.key_back} \u00b7 {title}" if captain else title


def html_page(body: str, title: str, language: str) -> str:
    """A whole page: the kit's language and its direction (right to left for Persian), a title."""
    direction = "rtl" if is_rtl(language) else "ltr"
    return (f'<!DOCTYPE html>\n<html lang="{html.escape(language)}" dir="{direction}">\n<head>\n'
            '<meta charset="utf-8">\n<meta name="viewport" content="width=device-width, initial-scale=1">\n'
            f"<title>{html.escape(title)}</title>\n</head>\n<body style=\"font-family:sans-serif\">\n"
            f"{body}</body>\n</html>\n")


def plain(game: Game, edition, messages, captain: bool, colours) -> str:
    cells = [[f"{text} [{_marker(kind, messages)}]" if kind else text for text, kind in row]
             for row in _cells(game, edition, captain, messages)]
    width = max(len(c) for row in cells for c in row)
    out = [_title(game, messages, edition)]
    if captain:
        out.append(f"{messages.labels.key_back} \u00b7 {_starts(game, messages)}")
    out += ["  ".join(c.ljust(width) for c in row).rstrip() for row in cells]
    out += [f"{label}: {value}" for label, value in _proof(game, messages, captain)]
    return "\n".join(out) + "\n"


WRITERS = {"markdown": (markdown, "md"), "bbcode": (bbcode, "bbcode.txt"), "html": (html_board, "html"),
           "text": (plain, "txt")}


def write_all(games, edition, messages, fmt: str, colours, *, language: str) -> dict[str, str]:
    """{file name: content} for the public boards and the captain boards of every game;
    ``language`` is the kit's (an HTML page's ``lang`` and direction)."""
    writer, ext = WRITERS[fmt]
    joiner = "\n<hr>\n" if fmt == "html" else "\n"
    files = {}
    for name, captain in (("public", False), ("captain", True)):
        text = joiner.join(writer(g, edition, messages, captain, colours) for g in games)
        if fmt == "html":
            text = html_page(text, _page_title(games, edition, messages, captain), language)
        files[f"{name}.{ext}"] = text
    return files
