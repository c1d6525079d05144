"""A publisher's proof of a kit: every check, with pictures (docs/design.md §2).

The proof PDF holds a summary of every check; each word at its chosen size
next to the minimum, longest first; the glyph coverage of words and labels;
the key deck's statistics as heat maps; and a contact sheet of every card
face with its ID. Checks that fail are reported, not refused, so the proof
shows everything at once."""

import hashlib
import io
from dataclasses import dataclass, field
from pathlib import Path

from kitgen import __version__, pictures
from kitgen.errors import KitgenError
from kitgen.games.codenames import checks, duet_keys, picture_decks
from kitgen.games.codenames.build import Prepared, prepare
from kitgen.games.codenames.model import Kit
from kitgen.games.codenames.render.cell_symbols import TYPE_NAMES
from kitgen.render import paint, proofsheet
from kitgen.render.pdf import new_canvas
from kitgen.render.proofsheet import Check  # noqa: F401 -- a check, the kernel's
from kitgen.render.text import missing_glyphs


@dataclass
class Proof:
    kit: Kit
    prepared: Prepared
    fits: list
    near: list
    keys: object                # checks.KeyDeckReport, or a duet edition's checks.DuetDeckReport
    glyph_gaps: list[str]
    results: list[Check] = field(default_factory=list)

    @property
    def failed(self) -> bool:
        return any(c.status == "FAIL" for c in self.results)


def _label_texts(messages) -> list[str]:
    """Every printed label and the rules text (both editions' rules, the duet's too), to check
    their glyphs."""
    texts = list(messages.labels.values())
    for rules in (messages.rules, messages.duet_rules):
        texts += [rules.title, rules.intro, rules.key_card_help, rules.tiles_help, rules.get("tokens_help")]
        for section in rules.sections:
            texts.append(section.heading)
            texts += _every_edition(section.paragraphs)
    texts += _every_edition(messages.rules.variants.values())
    return [t for t in texts if isinstance(t, str)]


def _every_edition(values) -> list[str]:
    """Each text, in every edition that prints it (a text, or a mapping of one per edition)."""
    return [t for v in values for t in ([v] if isinstance(v, str) else v.values())]


def examine(kit: Kit) -> Proof:
    """Run every check on the kit; nothing is refused here."""
    prepared = prepare(kit, strict=False)
    picture_deck = isinstance(kit.deck, picture_decks.PictureDeck)
    fits = [] if picture_deck else checks.word_fits(kit.deck.words, prepared.layout, prepared.fonts)
    near = [] if picture_deck else checks.near_duplicates(kit.deck.words)
    deck = list(prepared.contents.key_cards)
    report = checks.duet_deck_report(deck) if kit.edition.cooperative else checks.key_deck_report(deck, kit.edition)
    # a label may be drawn in any of the layout's fonts: each must have every character
    gaps = sorted({ch for t in _label_texts(prepared.messages) + [kit.name]
                   for font in set(prepared.fonts.values()) for ch in missing_glyphs(t, font)})
    proof = Proof(kit, prepared, fits, near, report, gaps)
    add = proof.results.append

    missing = [r for r in fits if r.missing]
    too_long = [r for r in fits if not r.fits and not r.missing]
    shrunk = [r for r in fits if r.shrunk]
    if picture_deck:
        box = prepared.layout.picture_card.picture.box
        low = pictures.low_resolution(kit.deck.pictures, box[2], box[3])
        add(Check("PASS", f"{len(kit.deck.pictures)} distinct pictures, each opened and checked"))
        add(Check("WARN" if low else "PASS", "; ".join(low) if low else
                  "every raster picture has 150 dpi or more at its printed size (vector pictures stay vector)"))
    else:
        _word_checks(kit, add, missing, too_long, shrunk, near)
    _label_and_key_checks(kit, add, gaps, report)
    return proof


def _word_checks(kit, add, missing, too_long, shrunk, near):
    add(Check("FAIL" if kit.deck.duplicates else "PASS",
              f"duplicate words: {'; '.join(kit.deck.duplicates)}" if kit.deck.duplicates
              else f"{len(kit.deck.words)} distinct words (case, spaces and Unicode form ignored)"))
    add(Check("FAIL" if missing else "PASS",
              f"glyphs: {len(missing)} word(s) with characters the font lacks" if missing
              else "glyphs: every character of every word is in the font"))
    add(Check("FAIL" if too_long else "PASS",
              f"fit: {len(too_long)} word(s) do not fit at the minimum size" if too_long
              else f"fit: every word fits; {len(shrunk)} shrink below the full size"))
    add(Check("WARN" if near else "PASS",
              f"near-duplicates: {', '.join(f'{a} / {b}' for a, b, _ in near)}" if near
              else "near-duplicates: no word is a plural of another"))


def _label_and_key_checks(kit, add, gaps, report):
    add(Check("FAIL" if gaps else "PASS",
              f"labels and rules text: the font lacks {''.join(gaps)!r}" if gaps
              else "labels and rules text: every character is in the font"))
    if kit.edition.cooperative:
        _duet_key_checks(add, report)
        return
    add(Check("PASS" if not report.split_errors else "FAIL",
              f"key split {kit.edition.starting_agents}/{kit.edition.other_agents}/{kit.edition.bystanders}/"
              f"{kit.edition.assassins} on all {report.count} keys" if not report.split_errors
              else f"key split wrong on {', '.join(report.split_errors)}"))
    add(Check("PASS" if report.balanced else "FAIL",
              f"starting team: red {report.starting['R']}, blue {report.starting['B']}"))
    add(Check("PASS" if not report.rotation_clashes else "FAIL",
              "no key equals another or a turn of another" if not report.rotation_clashes
              else f"keys equal under a turn: {report.rotation_clashes[:5]}"))
    worst = max(report.per_cell["A"])
    add(Check("PASS" if worst <= report.assassin_cap else "FAIL",
              f"assassin at most {worst} time(s) on one cell (cap ceil(N/{report.cells}) = {report.assassin_cap})"))


def _duet_key_checks(add, report):
    """The duet deck's properties (docs/design.md §3.8): each side's split and the overlap of the
    sides on every key, no key a form of another, each side's assassins spread over the cells."""
    add(Check("PASS" if not report.overlap_errors else "FAIL",
              f"each side {duet_keys.GREENS} green / {duet_keys.ASSASSINS} assassins / {duet_keys.BYSTANDERS} "
              f"bystanders, sides overlapping as the edition's table, {duet_keys.DISTINCT_GREENS} green agents in "
              f"all, on all {report.count} keys" if not report.overlap_errors
              else f"sides wrong on {', '.join(report.overlap_errors[:10])}"))
    add(Check("PASS" if not report.clashes else "FAIL",
              "no key equals another, turned or with its sides swapped" if not report.clashes
              else f"keys equal to another: {report.clashes[:5]}"))
    worst = {side: max(counts) for side, counts in report.assassins.items()}
    add(Check("PASS" if max(worst.values()) <= report.assassin_cap else "FAIL",
              f"assassins at most {worst['A']} (side A) and {worst['B']} (side B) time(s) on one cell "
              f"(cap ceil(3N/25) = {report.assassin_cap})"))


class Sheet(proofsheet.Sheet):
    """The kernel's page-flowing writer, with a Codenames kit's footer."""

    def __init__(self, c, proof: Proof):
        self.proof = proof
        # the proof is written in English; a kit's name in another script is set inside it
        super().__init__(c, proof.prepared.layout, proof.prepared.fonts, proof.prepared.page_size,
                         lambda page: f"Proof of {proof.kit.name} ({proof.kit.id}) \u00b7 kitgen {__version__} "
                                      f"\u00b7 page {page}")




def _summary(sheet: Sheet):
    proof, kit = sheet.proof, sheet.proof.kit
    sheet.line(f"Proof: {kit.name}", "title", bold=True)
    seed_hash = hashlib.sha256(kit.seed.encode()).hexdigest()[:12]
    for text in (f"kit id {kit.id} \u00b7 edition {kit.edition.name} \u00b7 language {kit.language} "
                 f"\u00b7 layout {kit.layout_name} \u00b7 paper {kit.paper}",
                 f"deck {Path(kit.deck.source).name}: {len(kit.deck.words)} words \u00b7 "
                 f"{len(proof.prepared.contents.codename_cards)} codename cards \u00b7 {kit.keys} keys \u00b7 "
                 f"seed SHA-256 {seed_hash}\u2026 \u00b7 kitgen {__version__}"):
        sheet.line(text)
    sheet.y -= sheet.sizes.heading / 2
    sheet.line("Checks", "heading", bold=True)
    sheet.checks(proof.results)


def _words(sheet: Sheet):
    """Each word in its card box at true size and the size it is printed at,
    longest first, with the sizes written under it."""
    from kitgen.render import text

    proof = sheet.proof
    layout = proof.prepared.layout
    style = layout.codename_card.word
    font = proof.prepared.fonts[style.font]
    box_w, box_h = style.box[2], style.box[3]
    margin, sizes = sheet.margin, sheet.sizes
    gap = sheet.style.words.gap
    columns = max(1, int((sheet.width - 2 * margin + gap) // (box_w + gap)))
    row_h = box_h + 12          # the box, and its caption under it
    red, blue = paint.colour(layout, "red"), paint.colour(layout, "blue")
    heading = True
    index = 0
    while index < len(proof.fits):
        sheet.new_page()
        if heading:
            sheet.line("Words at true size, longest first: each in its box on the card", "heading", bold=True)
            sheet.line(f"printed size / full size (minimum) · blue: shrunk to fit · red: does not fit "
                       f"at {style.min_size:g}pt or lacks glyphs", "small")
            heading = False
        rows = int((sheet.y - margin - 6) // row_h)
        if rows < 1 or box_w > sheet.width - 2 * margin:     # no word would ever be placed: a new page forever
            raise KitgenError(f"the paper ({kit_paper(proof)}) leaves no room for a word box of the proof inside "
                              "proof.margin; use larger paper or a smaller proof.margin")
        top = sheet.y - 6
        for slot in range(rows * columns):
            if index >= len(proof.fits):
                break
            fit = proof.fits[index]
            index += 1
            row, col = divmod(slot, columns)
            x, y = margin + col * (box_w + gap), top - (row + 1) * row_h + 10
            colour = red if not fit.fits else (blue if fit.shrunk else sheet.ink)
            paint.stroke_box(sheet.c, (x, y, box_w, box_h), sheet.guide, sheet.style.guide.width)
            if not fit.missing:
                shown = text.apply_case(fit.word, style.case, proof.kit.language)
                text.draw(sheet.c, shown, font, max(fit.size, 1), (x, y, box_w, box_h), colour)
            sheet.c.setFont(sheet.font, sizes.caption)
            sheet.c.setFillColor(colour)
            status = " · does not fit" if not fit.fits and not fit.missing else (
                f" · font lacks {fit.missing!r}" if fit.missing else (" · shrunk" if fit.shrunk else ""))
            caption = f"{fit.size:g} / {fit.max_size:g} pt (min {fit.min_size:g}){status}"
            if fit.missing:
                caption = fit.word.encode("ascii", "replace").decode() + " · " + caption
            sheet.c.drawString(x, y - 8, caption[:70])
        sheet.y = margin


def kit_paper(proof) -> str:
    width, height = proof.prepared.page_size
    return f"{width / 72 * 25.4:.0f} x {height / 72 * 25.4:.0f} mm"


def _glyphs(sheet: Sheet):
    proof = sheet.proof
    sheet.new_page()
    sheet.line("Glyph coverage", "heading", bold=True)
    chars = sorted({ch for w in proof.kit.deck.words for ch in w if not ch.isspace()})
    sheet.line(f"{len(chars)} distinct characters in the words, checked against the font each is drawn with:")
    printable = "".join(ch for ch in chars if not missing_glyphs(ch, sheet.font))
    for start in range(0, len(printable), 90):
        sheet.line(" ".join(printable[start:start + 90]), indent=sheet.style.indent)
    lacking = [f"{r.word} ({r.missing})" for r in proof.fits if r.missing]
    if lacking:
        sheet.line(f"FAIL words with characters the font lacks: {len(lacking)}", bold=True,
                   colour=paint.colour(proof.prepared.layout, "red"))
        for start in range(0, len(lacking), 6):
            sheet.line(", ".join(lacking[start:start + 6]).encode("ascii", "replace").decode(), "small",
                       indent=sheet.style.indent)
    sheet.line("Labels and rules text: " + ("FAIL, the font lacks " + repr(proof.glyph_gaps)
                                            if proof.glyph_gaps else "every character is in the font"))


def _heat_grid(sheet: Sheet, title: str, counts: list[int], kind: str, gx: float, gy: float, cols: int):
    """One heat map: a grid of cells tinted by how often each holds ``kind``, with the counts."""
    layout = sheet.proof.prepared.layout
    cell = sheet.style.heat_map.cell
    peak = max(counts) or 1
    base = paint.colour(layout, layout.types[TYPE_NAMES[kind]].colour)
    paper = paint.colour(layout, "paper")
    sheet.c.setFillColor(sheet.ink)
    sheet.c.setFont(sheet.bold, sheet.sizes.body)
    sheet.c.drawString(gx, gy + 4, f"{title}: {min(counts)}\u2013{max(counts)} per cell")
    for i, n in enumerate(counts):
        r, c = divmod(i, cols)
        share = n / peak
        tint = paint.Color(1 - share * (1 - base.red), 1 - share * (1 - base.green), 1 - share * (1 - base.blue))
        x, y = gx + c * cell, gy - (r + 1) * cell
        paint.fill_box(sheet.c, (x, y, cell - 1, cell - 1), tint)
        sheet.c.setFillColor(paper if share > 0.6 and kind in "ARBG" else sheet.ink)
        sheet.c.setFont(sheet.font, sheet.sizes.figure)
        sheet.c.drawCentredString(x + cell / 2 - 0.5, y + cell / 2 - 2.5, str(n))


def _duet_heatmaps(sheet: Sheet):
    """The duet deck: how often each cell is each side's assassin and green agent, in side A's
    orientation (docs/design.md §3.8)."""
    report = sheet.proof.keys
    sheet.new_page()
    sheet.line("Key deck", "heading", bold=True)
    sheet.line(f"{report.count} duet keys \u00b7 uniqueness (turns and swapped sides): "
               f"{'no clashes' if not report.clashes else 'CLASHES'} \u00b7 assassin cap per cell and side "
               f"{report.assassin_cap}")
    sheet.line("How often each cell holds each type, both sides in side A's orientation (numbers are counts):")
    heat = sheet.style.heat_map
    top = sheet.y - heat.top
    maps = [("assassin, side A", report.assassins["A"], "A"), ("assassin, side B", report.assassins["B"], "A"),
            ("green agent, side A", report.greens["A"], "G"), ("green agent, side B", report.greens["B"], "G")]
    cols, rows = duet_keys.COLS, duet_keys.ROWS
    for k, (title, counts, kind) in enumerate(maps):
        gx = sheet.margin + (k % 2) * (cols * heat.cell + heat.gap)
        gy = top - (k // 2) * (rows * heat.cell + heat.row_gap)
        _heat_grid(sheet, title, counts, kind, gx, gy, cols)
    sheet.y = top - 2 * (rows * heat.cell + heat.row_gap)


def _heatmaps(sheet: Sheet):
    proof, report = sheet.proof, sheet.proof.keys
    layout = proof.prepared.layout
    if proof.kit.edition.cooperative:
        return _duet_heatmaps(sheet)
    sheet.new_page()
    sheet.line("Key deck", "heading", bold=True)
    sheet.line(f"{report.count} keys \u00b7 starting team red {report.starting['R']}, blue {report.starting['B']} "
               f"\u00b7 rotation uniqueness: {'no clashes' if not report.rotation_clashes else 'CLASHES'} "
               f"\u00b7 assassin cap per cell {report.assassin_cap}")
    sheet.line("How often each cell holds each type (darker: more often; numbers are counts):")
    heat, sizes, margin = sheet.style.heat_map, sheet.sizes, sheet.margin
    cell = heat.cell
    x0 = margin
    top = sheet.y - heat.top
    for k, kind in enumerate("ARBN"):
        gx = x0 + (k % 2) * (report.cols * cell + heat.gap)
        gy = top - (k // 2) * (report.rows * cell + heat.row_gap)
        _heat_grid(sheet, TYPE_NAMES[kind], report.per_cell[kind], kind, gx, gy, report.cols)
    # starting-team balance as a bar
    bar_y = top - 2 * (report.rows * cell + heat.row_gap) - heat.bar_gap
    total = max(report.count, 1)
    red_w = (sheet.width - 2 * margin) * report.starting["R"] / total
    paint.fill_box(sheet.c, (margin, bar_y, red_w, heat.bar), paint.colour(layout, "red"))
    paint.fill_box(sheet.c, (margin + red_w, bar_y, sheet.width - 2 * margin - red_w, heat.bar),
                   paint.colour(layout, "blue"))
    sheet.c.setFillColor(sheet.ink)
    sheet.c.setFont(sheet.font, sizes.small)
    sheet.c.drawString(margin, bar_y - 10,
                       f"starting team: red {report.starting['R']} \u00b7 blue {report.starting['B']}")
    sheet.y = bar_y - 14


def _pictures(sheet: Sheet):
    """A picture deck's every picture, in its order, with its number and name; a picture the kit's
    seed did not deal to a card has its caption in the guide colour and says so."""
    from kitgen.render import pictures as draw_pictures

    proof = sheet.proof
    style, margin = sheet.style.pictures, sheet.margin
    layout = proof.prepared.layout
    dealt = {p.digest for card in proof.prepared.contents.codename_cards for p in (card.front, card.back) if p}
    side, gap = style.box, style.gap
    columns = max(1, int((sheet.width - 2 * margin + gap) // (side + gap)))
    row_h = side + 2 * (style.caption + 1) + 4          # two lines of caption under each
    pictures = proof.kit.deck.pictures
    index = 0
    while index < len(pictures):
        sheet.new_page()
        if index == 0:
            sheet.line(f"The deck's {len(pictures)} pictures, each with its number and name", "heading", bold=True)
            sheet.line(f"in grey: not dealt to this kit's {len(dealt)} card faces", "small")
        rows = max(1, int((sheet.y - margin) // row_h))
        top = sheet.y - 4
        for slot in range(rows * columns):
            if index >= len(pictures):
                break
            picture = pictures[index]
            row, col = divmod(slot, columns)
            x, y = margin + col * (side + gap), top - (row + 1) * row_h + 2 * (style.caption + 1) + 4
            draw_pictures.draw(sheet.c, picture, (x, y, side, side), "contain", sheet.font, layout,
                               layout.picture_card.picture.colour)
            sheet.c.setFillColor(sheet.ink if picture.digest in dealt else sheet.guide)
            lines, size = _caption(sheet, f"{index + 1} {picture.name}", side + gap * 0.8)
            sheet.c.setFont(sheet.font, size)
            for k, line in enumerate(lines):
                sheet.c.drawString(x, y - (k + 1) * (size + 1), line)
            index += 1
        sheet.y = margin


def _caption(sheet: Sheet, text: str, width: float) -> tuple[list[str], float]:
    """A picture's number and name in at most two lines of ``width``: one line at the caption size,
    shrunk down to the least; else two, broken at the space that evens them, shrunk alike."""
    style = sheet.style.pictures

    def widest(lines, size):
        return max(sheet.c.stringWidth(line, sheet.font, size) for line in lines)

    words = text.split(" ")
    splits = [[text]]
    if len(words) > 1:
        splits.append(min(([" ".join(words[:k]), " ".join(words[k:])] for k in range(1, len(words))),
                          key=lambda pair: widest(pair, 1)))
    for lines in splits:
        size = style.caption
        while size > style.min_caption and widest(lines, size) > width:
            size -= 0.25
        if widest(lines, size) <= width:
            return lines, size
    return splits[-1], style.min_caption


def _contact_sheet(sheet: Sheet):
    proof = sheet.proof
    faces = []
    duet = proof.kit.edition.cooperative          # a duet key's back is its side B: every key's both faces
    for name, prefix, width in (("codenames", "C", 3), ("keys", "K", len(str(proof.kit.keys))), ("tiles", "T", 2),
                                ("tokens", "S", 2)):
        cards = proof.prepared.card_sets.get(name)
        if cards is None:
            continue
        for i in range(cards.count):
            number = str(i + 1).zfill(width)
            if name == "keys" and not duet:
                faces.append((cards, cards.front, i, f"{prefix}{number}"))
            else:
                faces.append((cards, cards.front, i, f"{prefix}{number}a"))
                faces.append((cards, cards.back, i, f"{prefix}{number}b"))
        if name == "keys" and not duet:
            faces.append((cards, cards.back, 0, "K back"))
    sheet.new_page()
    sheet.line("Contact sheet: every card face and its ID (a: front, b: back)", "heading", bold=True)
    contact, margin = sheet.style.contact_sheet, sheet.margin
    scale = contact.scale
    x, row_h = margin, 0.0
    y_top = sheet.y - 4
    current = None
    for cards, draw, index, label in faces:
        w, h = cards.spec.width * scale, cards.spec.height * scale
        if current is not None and current is not cards:
            x, y_top = margin, y_top - row_h
            row_h = 0.0
        current = cards
        if x + w > sheet.width - margin:
            x, y_top = margin, y_top - row_h
            row_h = 0.0
        if y_top - h - 10 < margin:
            sheet.new_page()
            x, y_top, row_h = margin, sheet.y - 4, 0.0
        c = sheet.c
        c.saveState()
        c.translate(x, y_top - h)
        c.scale(scale, scale)
        path = c.beginPath()
        path.rect(0, 0, cards.spec.width, cards.spec.height)
        c.clipPath(path, stroke=0, fill=0)
        draw(c, index)
        c.restoreState()
        c.setStrokeColor(sheet.guide)
        c.setLineWidth(contact.line)
        c.rect(x, y_top - h, w, h, stroke=1, fill=0)
        c.setFillColor(sheet.ink)
        c.setFont(sheet.font, sheet.sizes.label)
        c.drawString(x, y_top - h - 7, label)
        x += w + contact.gap
        row_h = max(row_h, h + 11)


def render(proof: Proof) -> bytes:
    buffer = io.BytesIO()
    fonts = proof.prepared.fonts
    c = new_canvas(buffer, proof.prepared.page_size, fonts, title=f"Proof of {proof.kit.name}", font_size=9,
                   print_scaling=False)
    sheet = Sheet(c, proof)
    words = not isinstance(proof.kit.deck, picture_decks.PictureDeck)
    parts = (_summary, _words, _glyphs, _heatmaps, _contact_sheet) if words else (
        _summary, _pictures, _heatmaps, _contact_sheet)
    for part in parts:
        part(sheet)
    c.showPage()
    c.save()
    return buffer.getvalue()


def write(proof: Proof, out_dir: Path) -> Path:
    """Write ``<out>/<kit id>-proof.pdf`` atomically; returns its path."""
    return proofsheet.write(render(proof), out_dir, f"{proof.kit.id}-proof.pdf")
