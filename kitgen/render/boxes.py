"""Drawing boxes and stands (docs/design.md §8.12): every net of kitgen/boxes.py on pages of the
kit's paper, one net a page (or a piece a page when it is tiled), cut lines solid, fold lines
dashed, glue areas tinted and labelled, the kit's and the deck's names on the box, and a caption
under each net; then ``boxes.pdf`` and ``boxes.json``, its record (``files``)."""

import io
import json
from dataclasses import dataclass

from .. import __version__, boxes, messages as messages_mod, output
from ..errors import KitgenError
from ..units import mm
from . import paint, text
from .pdf import new_canvas

NAME_SHARE = 0.62            # of a front's text block, the kit's name takes the top, the deck's name the rest
CAPTION_LINES = 3            # what the net is, how to cut, fold and glue, which piece
LEADING = 1.4                # caption lines, baseline to baseline, in font sizes


@dataclass(frozen=True)
class KitInfo:
    """What the boxes are for, as the manifest records it."""

    id: str
    name: str
    language: str
    paper: str
    colour: str
    game: str


def caption_room(spec) -> float:
    """The band kept at the foot of every page for its caption."""
    return CAPTION_LINES * LEADING * spec.note.size + mm(2)


def _fitted(words: str, font: str, w: float, h: float, size: float, min_size: float) -> tuple[tuple[str, ...], float]:
    """``words`` on one line, or on two (split at the space nearest the middle) when that is
    larger: the lines and their size (below ``min_size`` when even that does not fit)."""
    best = ((words,), text.fit(words, font, w, h, size, min_size).size)
    spaces = [i for i, ch in enumerate(words) if ch == " "]
    if spaces and best[1] < size:
        cut = min(spaces, key=lambda i: abs(i - len(words) / 2))
        lines = (words[:cut], words[cut + 1:])
        two = min(text.fit(line, font, w, h / 2, size, min_size).size for line in lines)
        if two > best[1]:
            best = (lines, two)
    return best


def _draw_lines(c, lines, font, size, box, fill):
    """Lines stacked in the middle of ``box`` (x, y, w, h), ``LEADING`` sizes apart (or closer, to
    stay in the box), each centred across it."""
    x, y, w, h = box
    step = min(h / len(lines), LEADING * size)
    top = y + (h + step * len(lines)) / 2
    for i, line in enumerate(lines):
        text.draw(c, line, font, size, (x, top - (i + 1) * step, w, step), fill)


def _turned(c, rect, turned: bool):
    """Move to the middle of ``rect`` (turned a quarter when asked) and give the block's width and
    height there: draw in (-w/2, -h/2, w, h)."""
    x, y, w, h = rect
    c.translate(x + w / 2, y + h / 2)
    if turned:
        c.rotate(90)
        return h, w
    return w, h


class _Painter:
    """Draws nets for one kit: its layout, fonts, messages and name."""

    def __init__(self, layout, fonts: dict, messages, kit_name: str):
        self.layout, self.spec, self.fonts, self.messages = layout, layout.box, fonts, messages
        self.kit_name = kit_name
        self.rtl = messages_mod.is_rtl(messages.get("language", ""))

    def colour(self, name: str):
        return paint.colour(self.layout, name)

    def net(self, c, net: boxes.Net):
        """The net in its own points: glue tints, names, folds, cuts."""
        spec = self.spec
        for name in net.glue:
            self._glue(c, net.panel(name))
        if net.kind == "tuck_box":
            self._front(c, net)
            for side in ("right_side", "left_side"):
                self._side(c, net.panel(side).rect, net.deck.title)
        else:
            self._stand_back(c, net.panel("back").rect)
        c.setLineCap(0)
        c.setStrokeColor(self.colour(spec.fold.colour))
        c.setLineWidth(spec.fold.width)
        c.setDash(list(spec.fold.dash), 0)
        for (x0, y0), (x1, y1) in net.folds:
            c.line(x0, y0, x1, y1)
        c.setDash([], 0)
        c.setLineCap(1)                  # round: the outline's corners and the notch's steps join cleanly
        c.setLineJoin(1)
        c.setStrokeColor(self.colour(spec.cut.colour))
        c.setLineWidth(spec.cut.width)
        for line in net.cuts:
            path = c.beginPath()
            path.moveTo(*line[0])
            for point in line[1:]:
                path.lineTo(*point)
            c.drawPath(path, stroke=1, fill=0)

    def _glue(self, c, panel: boxes.Panel):
        spec = self.spec.glue
        c.setFillColor(self.colour(spec.colour))
        path = c.beginPath()
        path.moveTo(*panel.outline[0])
        for point in panel.outline[1:]:
            path.lineTo(*point)
        path.close()
        c.drawPath(path, stroke=0, fill=1)
        x, y, w, h = panel.rect
        inset = self.spec.inset / 2
        label, style = self.messages.labels.box_glue, spec.label
        font = self.fonts[style.font]
        rect = (x + inset, y + inset, w - 2 * inset, h - 2 * inset)
        if min(rect[2], rect[3]) <= 0:
            return
        c.saveState()
        bw, bh = _turned(c, rect, rect[3] > rect[2])
        fitted = text.fit(label, font, bw, bh, style.size, style.min_size)
        if fitted.fits:
            text.draw(c, label, font, fitted.size, (-bw / 2, -bh / 2, bw, bh), self.colour(style.colour))
        c.restoreState()

    def _front(self, c, net: boxes.Net):
        """The kit's name over the deck's, upright or turned, whichever shows the name larger; a
        name that does not fit even at its minimum size is refused."""
        spec, inset = self.spec, self.spec.inset
        x, y, w, h = net.panel("front").rect
        rect = (x + inset, y + inset, w - 2 * inset, h - 2 * inset - net.figures["thumb_notch"])
        name, deck = spec.name, spec.deck
        options = []
        for turned in (False, True):
            bw, bh = (rect[3], rect[2]) if turned else (rect[2], rect[3])
            lines, size = _fitted(self.kit_name, self.fonts[name.font], bw, bh * NAME_SHARE, name.size, name.min_size)
            options.append((size, turned, lines))
        size, turned, lines = max(options, key=lambda o: (o[0], not o[1]))
        if size < name.min_size or min(rect[2], rect[3]) <= 0:
            raise KitgenError(f"the kit's name {self.kit_name!r} does not fit the front of the box of "
                              f"{net.deck.title!r} even at {name.min_size:g}pt; shorten the name, or lower "
                              "box.name.min_size in a layout")
        c.saveState()
        bw, bh = _turned(c, rect, turned)
        _draw_lines(c, lines, self.fonts[name.font], size, (-bw / 2, bh / 2 - bh * NAME_SHARE, bw, bh * NAME_SHARE),
                    self.colour(name.colour))
        deck_box = (-bw / 2, -bh / 2, bw, bh * (1 - NAME_SHARE))
        deck_lines, deck_size = _fitted(net.deck.title, self.fonts[deck.font], bw, deck_box[3], deck.size,
                                        deck.min_size)
        if deck_size >= deck.min_size:
            _draw_lines(c, deck_lines, self.fonts[deck.font], deck_size, deck_box, self.colour(deck.colour))
        c.restoreState()

    def _side(self, c, rect, title: str):
        """Along the side, "kit · deck" on one line, else the kit's name on one or two; a side too
        narrow for that at the minimum size stays blank."""
        inset, style = self.spec.inset, self.spec.name
        x, y, w, h = rect
        block = (x + inset, y + inset, w - 2 * inset, h - 2 * inset)
        if min(block[2], block[3]) <= 0:
            return
        font = self.fonts[style.font]
        both = f"{self.kit_name} \u00b7 {title}"
        fitted = text.fit(both, font, block[3], block[2], style.size, style.min_size)
        lines, size = ((both,), fitted.size) if fitted.fits else _fitted(self.kit_name, font, block[3], block[2],
                                                                          style.size, style.min_size)
        if size >= style.min_size:
            c.saveState()
            bw, bh = _turned(c, block, True)
            _draw_lines(c, lines, font, size, (-bw / 2, -bh / 2, bw, bh), self.colour(style.colour))
            c.restoreState()

    def _stand_back(self, c, rect):
        """The kit's name on the stand's back, which faces the other players: the back runs from
        the apex down to the table as the strip goes on, so the name is turned half round."""
        inset, style = self.spec.inset, self.spec.name
        x, y, w, h = rect
        bw, bh = w - 2 * inset, (h - 2 * inset) / 2
        lines, size = _fitted(self.kit_name, self.fonts[style.font], bw, bh, style.size, style.min_size)
        if size >= style.min_size:
            c.saveState()
            c.translate(x + w / 2, y + h / 2)
            c.rotate(180)
            _draw_lines(c, lines, self.fonts[style.font], size, (-bw / 2, -bh / 2, bw, bh), self.colour(style.colour))
            c.restoreState()

    def caption(self, c, page_size, lines: list[str]):
        """Lines centred at the foot of the page, the first highest, each shrunk to the page's width."""
        style, margin = self.spec.note, self.layout.paper.margin
        font, fill = self.fonts[style.font], self.colour(style.colour)
        width = page_size[0] - 2 * margin
        c.setFillColor(fill)
        for i, line in enumerate(lines):
            size = min(style.size, text.fit_once(line, font, width, style.size * 2, style.size, style.min_size).size)
            baseline = margin + (len(lines) - 1 - i) * LEADING * style.size + style.size * 0.3
            text.draw_line(c, line, font, size, page_size[0] / 2, baseline, "centre", rtl=self.rtl or None)

    def piece_marks(self, c, piece: boxes.Piece, marks: list):
        """Around a piece of a tiled net: ticks where its edges are cut, and the alignment marks
        (given in the net as laid) that meet those of its neighbours."""
        tiling, line = self.spec.tiling, self.layout.marks
        ax, ay = piece.at
        wx, wy, w, h = piece.window
        c.setStrokeColor(self.colour(line.colour))
        c.setLineWidth(line.crop_width)
        tick = tiling.mark
        for x in (ax, ax + w):
            c.line(x, ay - tick, x, ay - tick / 4)
            c.line(x, ay + h + tick / 4, x, ay + h + tick)
        for y in (ay, ay + h):
            c.line(ax - tick, y, ax - tick / 4, y)
            c.line(ax + w + tick / 4, y, ax + w + tick, y)
        c.saveState()
        _clip(c, (ax, ay, w, h))
        for mx, my in marks:
            x, y = mx - wx + ax, my - wy + ay
            c.circle(x, y, tiling.mark / 2, stroke=1, fill=0)
            c.line(x - tiling.mark, y, x + tiling.mark, y)
            c.line(x, y - tiling.mark, x, y + tiling.mark)
        c.restoreState()


def _clip(c, rect):
    path = c.beginPath()
    path.rect(*rect)
    c.clipPath(path, stroke=0, fill=0)


@dataclass(frozen=True)
class Placed:
    """Where a net went: each piece with its page (1-based), and a tiled net's alignment marks
    (in the net's own points)."""

    pages: list
    marks: list


def render(nets: list[boxes.Net], page_size, layout, fonts: dict, messages, kit_name: str, title: str):
    """``boxes.pdf``: each net whole on a page, or a piece a page; returns its bytes and where
    each net went."""
    spec, margin = layout.box, layout.paper.margin
    painter = _Painter(layout, fonts, messages, kit_name)
    room = caption_room(spec)
    area = (margin, margin + room, page_size[0] - 2 * margin, page_size[1] - 2 * margin - room)
    buffer = io.BytesIO()
    c = new_canvas(buffer, page_size, fonts, title=title, cmyk=paint.is_cmyk(layout))
    c.setAuthor("kitgen")
    c.setViewerPreference("Duplex", "Simplex")            # a net is printed on one side
    placed, page = [], 1
    for net in nets:
        pieces = boxes.lay_out(net, area, spec.tiling)
        marks = boxes.alignment_marks(net, pieces, spec.tiling.overlap, spec.tiling.mark)
        for piece in pieces:
            c.saveState()
            if piece.count > 1:
                _clip(c, (*piece.at, *piece.window[2:]))
            c.transform(*piece.matrix())
            painter.net(c, net)
            c.restoreState()
            if piece.count > 1:
                painter.piece_marks(c, piece, marks)
            painter.caption(c, page_size, _caption(messages, kit_name, net, piece))
            c.showPage()
        placed.append(Placed([(page + i, piece) for i, piece in enumerate(pieces)],
                             [pieces[0].unlaid(mark) for mark in marks]))
        page += len(pieces)
    c.save()
    return buffer.getvalue(), placed


def _caption(messages, kit_name: str, net: boxes.Net, piece: boxes.Piece) -> list[str]:
    label = messages_mod.label
    if net.kind != "tuck_box":
        what = label(messages, "stand_title", deck=net.deck.title)
    else:          # a box of cards, or of loose pieces (``Deck.layers``)
        what = label(messages, "box_title" if net.deck.layers is None else "box_pieces_title", deck=net.deck.title,
                     count=net.deck.count)
    lines = [f"{kit_name} \u00b7 {what}", messages.labels.box_note]
    if piece.count > 1:
        lines.append(label(messages, "box_piece", n=piece.number, total=piece.count, row=piece.row + 1,
                           col=piece.col + 1))
    return lines


def _mm(value: float) -> float:
    return round(value / mm(1), 3)


def _points(points) -> list:
    return [[_mm(x), _mm(y)] for x, y in points]


def record(net: boxes.Net, placed: Placed) -> dict:
    """A net in the manifest, in millimetres: what it is for, what it was sized by, its panels,
    lines and glue areas, each page it is on (with the matrix from the net's points to the
    page's: PDF order a, b, c, d, e, f) and a tiled net's alignment marks."""
    figures = net.figures
    entry = {"kind": net.kind, "deck": net.deck.name, "title": net.deck.title,
             "count": net.deck.count if net.kind == "tuck_box" else 1,          # a stand holds one card
             "card_mm": [_mm(net.deck.width), _mm(net.deck.height)], "card_thickness_mm": _mm(figures["per_card"])}
    if net.deck.layers is not None:     # loose pieces: card_mm is the largest piece as stored
        entry["layers"] = net.deck.layers
    if net.kind == "tuck_box":
        entry.update({"stack_mm": _mm(figures["stack"]), "fold_allowance_mm": _mm(figures["allowance"]),
                      "clearance_mm": dict(zip(("width", "height", "depth"), map(_mm, figures["clearance"]))),
                      "inner_mm": dict(zip(("width", "height", "depth"), map(_mm, figures["inner"])))})
    else:
        entry.update({name + "_mm": _mm(figures[name]) for name in ("width", "shelf", "face", "base", "back", "lip")})
        entry["angle"] = figures["angle"]
    entry.update({
        "size_mm": _points([net.size])[0],
        "panels": [{"name": p.name, "at_mm": [_mm(p.rect[0]), _mm(p.rect[1])],
                    "size_mm": [_mm(p.rect[2]), _mm(p.rect[3])]} for p in net.panels],
        "glue": list(net.glue),
        "cuts_mm": [_points(line) for line in net.cuts],
        "folds_mm": [_points(fold) for fold in net.folds],
        "pages": [{"page": page, "piece": piece.number, "pieces": piece.count, "turned": piece.turned,
                   "window_mm": [_mm(v) for v in piece.window], "at_pt": [round(v, 3) for v in piece.at],
                   "matrix": [round(v, 4) for v in piece.matrix()]} for page, piece in placed.pages],
        "marks_mm": _points(placed.marks),
    })
    return entry


def files(kit: KitInfo, decks: list[boxes.Deck], stock: boxes.Stock, layout, fonts: dict, messages,
          page_size) -> tuple[list[output.BuiltFile], dict]:
    """``boxes.pdf`` and ``boxes.json`` for a kit's decks, and the manifest as a dict."""
    nets = boxes.nets(decks, stock, layout.box)
    data, placed = render(nets, page_size, layout, fonts, messages, kit.name, f"{kit.name}: boxes")
    pdf = output.BuiltFile("boxes.pdf", data, sum(len(p.pages) for p in placed))
    manifest = {
        "tool": "kitgen",
        "version": __version__,
        "libraries": output.library_versions(),
        "game": kit.game,
        "kit": kit.id,
        "name": kit.name,
        "language": kit.language,
        "options": {"paper": kit.paper, "card_thickness_mm": _mm(stock.thickness), "sleeved": stock.sleeved,
                    "colour": kit.colour},
        "files": output.file_entries([pdf], page_size),
        "nets": [record(net, where) for net, where in zip(nets, placed)],
    }
    text_ = json.dumps(manifest, indent=1, ensure_ascii=False) + "\n"
    return [pdf, output.BuiltFile("boxes.json", text_.encode(), 0)], manifest


def kit_files(about: KitInfo, prepared, boxed: tuple[str, ...], stands: tuple[str, ...], loose: list,
              thickness_mm: float | None, sleeved: bool, pdfx=None):
    """``boxes.pdf`` and ``boxes.json`` for a kit of any game, prepared as its build prepares it
    (docs/design.md §8.12): a box for each card set its family names in ``boxed`` (a stand too for
    those in ``stands``), and ``loose``, the ``boxes.Deck``s of pieces that are not cards (tokens).
    With ``pdfx`` (a build's --pdfx profile), boxes.pdf is PDF/X like the kit's other PDFs."""
    if thickness_mm is None:
        thickness_mm = prepared.layout.box.card_thickness / mm(1)
    stock = boxes.Stock(boxes.check_thickness(thickness_mm, prepared.layout.box), sleeved)
    decks = [boxes.Deck(name, cards.title, cards.spec.width, cards.spec.height, cards.count, name in stands)
             for name, cards in prepared.card_sets.items() if name in boxed]
    made, record = files(about, decks + list(loose), stock, prepared.layout, prepared.fonts, prepared.messages,
                         prepared.page_size)
    if pdfx:
        from . import pdfx as press_ready

        made = press_ready.convert(made, pdfx, prepared.layout.press.max_ink)
    return made, record
