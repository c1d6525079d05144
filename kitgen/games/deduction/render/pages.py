"""Whole pages of the deduction kit: the board (whole or in pieces), token sheets,
the seeded setup sheets, and the rules sheet (docs/design.md §10.6)."""

from kitgen.games.deduction import facts
from kitgen.games.deduction.dealing import BLANK
from kitgen.games.deduction.render import board as board_mod
from kitgen.games.deduction.render.cards import _tint
from kitgen.games.deduction.render.emblems import player_shape
from kitgen.render import columns, paint, text
from kitgen.render.columns import Block, Style

MM = 72 / 25.4


def board_pages(c, layout, theme, fonts, labels, pieces) -> int:
    """The board's pages, one per piece; returns how many."""
    marks = board_mod.alignment_marks(layout, pieces, theme.city)
    note = layout.board.tiling.label
    muted = paint.colour(layout, note.colour)
    town = board_mod.town_of(layout, theme)            # made once, drawn on every piece
    for piece in pieces:
        c.setPageSize(piece.page)
        x0, y0, w, h = piece.board
        ax, ay = piece.at
        content = (ax + x0, ay + y0, w, h)
        c.saveState()
        path = c.beginPath()
        path.rect(*content)
        c.clipPath(path, stroke=0, fill=0)
        c.translate(ax, ay)
        board_mod.draw(c, layout, theme, fonts, labels, marks, town)
        c.restoreState()
        if len(pieces) > 1:
            _piece_notes(c, layout, piece, content, fonts[note.font], note.size, muted, labels)
        c.showPage()
    return len(pieces)


def _piece_notes(c, layout, piece, content, font, size, colour, labels):
    """Outside the piece: ticks where to cut, and which piece this is and how it joins."""
    x, y, w, h = content
    tick = 3 * MM
    c.setStrokeColor(colour)
    c.setLineWidth(0.4)
    for cx in (x, x + w):
        c.line(cx, y - tick, cx, y - 0.5 * MM)
        c.line(cx, y + h + 0.5 * MM, cx, y + h + tick)
    for cy in (y, y + h):
        c.line(x - tick, cy, x - 0.5 * MM, cy)
        c.line(x + w + 0.5 * MM, cy, x + w + tick, cy)
    c.setFillColor(colour)
    if piece.col + 1 < piece.cols:                # the overlap the next piece is glued onto
        c.saveState()
        c.translate(x + w + 1.5 * MM, y + h / 2)
        c.rotate(90)
        text.draw_line(c, f"\u00ab {labels.glue_here} \u00bb", font, size, 0, -size, "centre")
        c.restoreState()
    line = labels.board_piece.format(n=piece.number, total=piece.rows * piece.cols, row=piece.row + 1,
                                     col=piece.col + 1)
    text.draw_line(c, line, font, size, x, y - tick - size, "left")
    text.draw_line(c, labels.board_join, font, size, x + w, y - tick - size, "right")


def token_pages(c, layout, fonts, labels, page_size, players: int = facts.MAX_PLAYERS) -> int:
    """Every token for ``players`` players (only their colours), flowed across sheets, each with
    its colour bleeding ``tokens.bleed`` past its cut line."""
    spec = layout.tokens
    line = paint.colour(layout, spec.line.colour)
    ink, paper = paint.colour(layout, "ink"), paint.colour(layout, "paper")
    number_font = fonts[spec.label.font]          # the score markers' numbers
    pages = 0
    for page, item, x, y in token_places(layout, page_size, players):
        if page > pages:
            if pages:
                c.showPage()
            pages = page
            _sheet_title(c, labels.tokens_title, fonts, layout, page_size, pages, labels.tokens_fold)
        _token(c, layout, item, x, y, line, ink, paper, number_font, spec.label.size, labels, spec.bleed,
               spec.line.width)
    c.showPage()
    return pages


def token_places(layout, page_size, players: int) -> list[tuple]:
    """Where each token lies: (sheet from 1, item of ``token_items``, x, y of its bottom-left), flowed
    in rows below each sheet's title."""
    spec = layout.tokens
    width, height = page_size
    margin = layout.paper.margin + 3 * MM
    top = height - margin - 14 - TOKEN_NOTE       # below the title and how to fold
    places, page, x, y, row_h = [], 1, margin, top, 0.0
    for item in token_items(spec, players):
        w, h = item[2], item[3]
        if x + w > width - margin:
            x, y, row_h = margin, y - row_h - spec.gap, 0.0
        if y - h < margin:
            page += 1
            x, y, row_h = margin, top, 0.0
        places.append((page, item, x, y - h))
        x += w + spec.gap
        row_h = max(row_h, h)
    return places


def token_items(spec, players: int) -> list[tuple]:
    """Every token to print: (kind, player or 0 for shared ones, width, height[, number])."""
    items = []
    for player in range(1, players + 1):
        inv_w, inv_h = spec.investigator
        items += [("investigator", player, inv_w, 2 * inv_h)] * facts.INVESTIGATORS
        items += [("disc", player, spec.disc, spec.disc)] * facts.DISCS
        items += [("cube", player, spec.cube, spec.cube)] * facts.CUBES
        items += [("score", player, spec.disc, spec.disc, n) for n in range(1, facts.SCORE_MARKERS + 1)]
        items += [("penalty", player, spec.disc, spec.disc)] * facts.PENALTY_MARKERS
    items += [("black", 0, spec.disc, spec.disc)] * facts.SOLVING_DISCS
    items += [("first", 0, spec.first_player, spec.first_player)] * facts.FIRST_PLAYER_MARKERS
    return items


TOKEN_NOTE = 12          # points of room under a token sheet's title for its one line on folding


def _sheet_title(c, title: str, fonts, layout, page_size, page: int, note: str = ""):
    c.setFillColor(paint.colour(layout, "ink"))
    left, top = layout.paper.margin + 3 * MM, page_size[1] - layout.paper.margin
    text.draw_line(c, title, fonts["heading"], 11, left, top - 8, "left")
    if note:            # one line, fitted to the sheet's width
        c.setFillColor(paint.colour(layout, "muted"))
        width = page_size[0] - 2 * left
        size = text.fit(note, fonts["label"], width, 10, 8, 5).size
        text.draw_line(c, note, fonts["label"], size, left, top - 8 - TOKEN_NOTE, "left")


def _light(layout, name: str, share: float = 1.0) -> bool:
    """Whether a colour (``share`` of it, the rest white) is light enough that ink, not paper, reads on it."""
    r, g, b = (1 - share * (1 - int(layout.colours[name].rgb[i:i + 2], 16) / 255) for i in (1, 3, 5))
    return 0.2126 * r + 0.7152 * g + 0.0722 * b > 0.5


def _token(c, layout, item, x, y, line, ink, paper, font, size, labels, bleed: float, width: float):
    kind, player = item[0], item[1]
    w, h = item[2], item[3]
    name = f"player_{player}" if player else "solving"
    spec = layout.tokens
    colour = _tint(layout, name, spec.tint)       # the field: the colour, or a light tint of it (ink saver)
    paper = _tint(layout, name, spec.symbol_tint)           # the shape and numbers: paper, or the colour
    if _light(layout, name, spec.tint) and _light(layout, name, spec.symbol_tint):
        paper = ink                               # a light shape on a light field (yellow): in ink
    c.setStrokeColor(line)
    c.setLineWidth(width)
    if kind in ("disc", "score", "penalty", "black", "first"):
        r = w / 2
        c.setFillColor(colour)
        c.circle(x + r, y + r, r + bleed, stroke=0, fill=1)           # the colour, past the cut
        c.circle(x + r, y + r, r, stroke=1, fill=0)                   # the cut line
        if player:
            player_shape(c, player, x + r, y + r, r * (0.9 if kind == "disc" else 0.7), paper)
        if kind == "score":                       # the mini-game's number, bold, beside the shape
            text.draw(c, str(item[4]), font, size + 5, (x + r * 1.05, y + r * 0.05, r * 0.9, r * 0.7), paper)
        elif kind == "penalty":
            text.draw(c, "\u2212", font, size + 7, (x + r * 1.05, y + r * 0.05, r * 0.9, r * 0.7), paper)
        elif kind == "first":
            text.draw(c, "1", font, w * 0.45, (x, y, w, h), paper)
    elif kind == "cube":
        paint.fill_box(c, (x - bleed, y - bleed, w + 2 * bleed, h + 2 * bleed), colour)
        c.rect(x, y, w, h, stroke=1, fill=0)
        player_shape(c, player, x + w / 2, y + h / 2, w * 0.6, paper)
    else:                                            # an investigator: a standee folded along its middle
        half = h / 2
        for base, turned in ((y, True), (y + half, False)):         # each half bleeds away from the fold
            paint.fill_box(c, (x - bleed, base - bleed if turned else base, w + 2 * bleed, half + bleed), colour)
            c.saveState()
            c.translate(x + w / 2, base + half / 2)
            if turned:
                c.rotate(180)
            player_shape(c, player, 0, half * 0.12, w * 0.55, paper)
            c.restoreState()
        c.rect(x, y, w, h, stroke=1, fill=0)
        c.setDash(2, 2)
        c.line(x, y + half, x + w, y + half)
        c.setDash()


def setup_pages(c, layout, theme, fonts, labels, games, page_size) -> int:
    """The public setup sheets: for each mini-game a table of which tile lies on which location,
    as many tables to a page as fit with rows ``setup.min_row`` high (the three of a 14-location
    theme share one A4 or Letter page); their rows then as high as the page allows, up to
    ``setup.row``. Returns the pages."""
    spec = layout.setup
    width, height = page_size
    margin, inner = spec.margin, page_size[0] - 2 * spec.margin
    help_font = fonts[spec.help.font]
    help_lines = columns.wrap(labels.setup_help, Style(help_font, spec.help.size, spec.help.leading,
                                                       paint.colour(layout, spec.help.colour)), inner)
    room = height - 2 * margin - (len(help_lines) + 0.5) * spec.help.leading
    fixed = spec.title.size * 1.6 + spec.head.size * 2       # a table's title and its columns' headings
    rows = len(theme.city.names)

    def needs(tables: int, row: float) -> float:
        return tables * (fixed + rows * row) + (tables - 1) * spec.gap

    per_page = max([k for k in range(1, len(games) + 1) if needs(k, spec.min_row) <= room + 1e-6], default=1)
    row = min(spec.row, (room - needs(per_page, 0)) / (per_page * rows))
    pages = 0
    for start in range(0, len(games), per_page):
        y = height - margin
        c.setFillColor(paint.colour(layout, spec.help.colour))
        for line in help_lines:
            y -= spec.help.leading
            text.draw_line(c, line, help_font, spec.help.size, margin, y, "left")
        y -= spec.help.leading * 0.5
        for game in games[start:start + per_page]:
            _setup_table(c, layout, theme, fonts, labels, game, margin, y, inner, row)
            y -= fixed + rows * row + spec.gap
        c.showPage()
        pages += 1
    return pages


def _setup_table(c, layout, theme, fonts, labels, game, x, top, width, row):
    """One mini-game's table, its title's top at ``top``: a row per location, its tiles beside it."""
    spec = layout.setup
    ink, muted = paint.colour(layout, spec.cell.colour), paint.colour(layout, spec.head.colour)
    c.setFillColor(paint.colour(layout, spec.title.colour))
    title = labels.setup_title.format(n=game.number, total=facts.MINI_GAMES)
    y = top - spec.title.size * 1.2
    text.draw_line(c, title, fonts[spec.title.font], spec.title.size, x, y, "left")
    y = top - spec.title.size * 1.6 - spec.head.size * 1.3
    col = width / 3
    c.setFillColor(muted)
    for k, head in enumerate((labels.location, labels.suspect, labels.crime)):
        text.draw_line(c, head, fonts[spec.head.font], spec.head.size, x + k * col, y, "left")
    y = top - spec.title.size * 1.6 - spec.head.size * 2
    largest = min(spec.cell.size, row * 0.72)
    for i, name in enumerate(theme.city.names):
        suspect, crime = game.suspect_tiles[i], game.crime_tiles[i]
        cells = (name, labels.no_suspect if suspect == BLANK else theme.suspects[suspect].name,
                 labels.no_crime if crime == BLANK else theme.crimes[crime].name)
        if i % 2 == 0:
            paint.fill_box(c, (x - 4, y - row, width + 8, row), paint.colour(layout, "map"))
        for k, shown in enumerate(cells):
            c.setFillColor(muted if (k == 1 and suspect == BLANK) or (k == 2 and crime == BLANK) else ink)
            font = fonts["heading"] if k == 0 else fonts[spec.cell.font]
            size = text.fit(shown, font, col - 6, row, largest, min(largest, spec.cell.min_size)).size
            text.draw_line(c, shown, font, size, x + k * col, y - row / 2 - size * 0.35, "left")
        y -= row


def rules_pages(c, page_size, layout, fonts, messages, theme, footer: str, credits: tuple[str, ...],
                players: int = facts.DEFAULT_PLAYERS) -> int:
    """The rules in the kit's language, set in columns, with the table ready to play drawn after
    "Getting ready", an example turn after "How the holder answers" and the questions players ask
    after the end of the game (``rules_art``)."""
    from kitgen import messages as messages_mod
    from kitgen.games.deduction.render import rules_art

    text_of = messages.rules
    labels = messages.labels
    set_as = columns.styles(layout, fonts)
    title, heading, body, bullet = set_as.title, set_as.heading, set_as.body, set_as.bullet
    art = layout.rules_art
    question = Style(fonts[art.question.font], art.question.size, art.question.leading,
                     paint.colour(layout, art.question.colour), art.question.space_before, art.question.space_after)
    width = columns.column_width(layout, page_size)
    ink = paint.colour(layout, "ink")

    def figure(aspect: float, draw) -> Block:
        style = Style(body.font, body.size, width * aspect, ink, art.space, art.space)
        return Block("", style, keep_with_next=True, figure=draw)

    example = rules_art.example(theme, players)
    counts = theme.counts
    numbers = {"suspects": counts.suspects, "crimes": counts.crimes, "locations": counts.locations,
               "evidence": counts.evidence_cards, "no_suspects": counts.no_suspect_tiles,
               "no_crimes": counts.no_crime_tiles}          # the theme's own numbers, not the classic city's
    flow = [Block(text_of.title, title, keep_with_next=True), Block(text_of.intro, body)]
    for section in text_of.sections:
        flow.append(Block(section.heading, heading, keep_with_next=True))
        flow += [Block(p.format(**numbers), body) for p in section.paragraphs]
        if section.id == "setup":
            flow += [Block(text_of.art.setup_heading, question, keep_with_next=True),
                     figure(art.setup.aspect, lambda c, x, y, w, h: rules_art.draw_setup(
                         c, layout, fonts, messages, theme, players, x, y, w, h)),
                     Block(text_of.art.setup_caption, body)]
        elif section.id == "answers":
            flow += [Block(text_of.art.example_heading, question, keep_with_next=True),
                     figure(art.example.aspect, lambda c, x, y, w, h: rules_art.draw_example(
                         c, layout, fonts, messages, theme, example, x, y, w, h)),
                     Block(" ".join(rules_art.caption(theme, messages, example)), body)]
    faq = text_of.faq
    flow.append(Block(faq.heading, heading, keep_with_next=True))
    for entry in faq.questions:
        flow += [Block(entry.question, question, keep_with_next=True), Block(entry.answer, body)]
    flow.append(Block(labels.aid_turn, heading, keep_with_next=True))
    flow += [Block(line, bullet, bullet="\u2022") for line in text_of.turn_summary]
    flow.append(Block(labels.tokens_title.split(":")[0], heading, keep_with_next=True))
    flow.append(Block(text_of.substitutes, body))
    if credits:
        flow.append(Block(labels.credits, heading, keep_with_next=True))
        flow += [Block(line, set_as.credits) for line in credits]
    return columns.set_text(c, page_size, layout, fonts, flow, footer, messages_mod.is_rtl(messages.language),
                            squeeze=layout.rules.squeeze)
