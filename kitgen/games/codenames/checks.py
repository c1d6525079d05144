"""The checks a publisher signs off on, as data: word fit and glyphs, near
duplicates, and the key deck's properties. ``build`` refuses on the first
failing kind; ``deck check`` and ``proof`` report everything."""

import math
from collections import Counter
from dataclasses import dataclass, field

from kitgen.games.codenames import duet_keys, key_deck
from kitgen.games.codenames.decks import identity
from kitgen.games.codenames.editions import Edition


@dataclass(frozen=True)
class WordFit:
    word: str
    size: float            # the size it is printed at (the upright word)
    max_size: float
    min_size: float
    width: float           # its width at max_size, points: longest first in reports
    missing: str           # characters the font lacks
    fits: bool

    @property
    def shrunk(self) -> bool:
        return self.fits and self.size < self.max_size


def word_fits(words, layout, fonts: dict[str, str]) -> list[WordFit]:
    """How each word fits its boxes on a codename card (both the upright and the
    turned copy must fit); longest first."""
    from kitgen import fonts as fonts_mod
    from kitgen.render import text

    card = layout.codename_card
    report = []
    for word in words:
        main = None
        fits, missing = True, ""
        for style in (card.word, card.word_flipped):
            shown = text.apply_case(word, style.case, fonts_mod.language(fonts[style.font]))
            fitted = text.fit(shown, fonts[style.font], style.box[2], style.box[3], style.size, style.min_size)
            missing = missing or fitted.missing
            fits = fits and fitted.fits
            if main is None:
                main = (fitted.size, style, text.width(shown, fonts[style.font], style.size))
        size, style, width = main
        report.append(WordFit(word, size, style.size, style.min_size, width, missing, fits))
    return sorted(report, key=lambda r: (-r.width, r.word))


@dataclass
class Entry:
    """One word or picture of a deck (or a file passed over), with the notes that speak of it:
    (status, text), status OK, FAIL, WARN or NOTE."""

    name: str
    line: int | None = None
    notes: list[tuple[str, str]] = field(default_factory=list)
    picture: object = None              # the Picture, for its thumbnail


@dataclass
class DeckReport:
    """What ``kitgen deck check`` says (docs/design.md §9.5): its lines in order, as (status,
    text); every entry of the deck with the notes that name it; whether a check failed."""

    kind: str                           # "words" or "pictures"
    lines: list[tuple[str, str]]
    entries: list[Entry]
    failed: bool = False

    def data(self, thumbnail=None) -> dict:
        """The report as JSON data; ``thumbnail(picture)`` gives each picture's ``data:`` URL."""
        entries = []
        for entry in self.entries:
            item = {"name": entry.name, "line": entry.line,
                    "notes": [{"status": s, "text": t} for s, t in entry.notes]}
            if self.kind == "pictures":
                item["thumbnail"] = thumbnail(entry.picture) if thumbnail and entry.picture else None
            entries.append(item)
        return {"kind": self.kind, "ok": not self.failed,
                "lines": [{"status": s, "text": t} for s, t in self.lines], "entries": entries}


def words_report(path: str, deck, layout, fonts: dict[str, str]) -> DeckReport:
    """The check of a words deck (loaded leniently): duplicates, glyphs, fit, near duplicates."""
    entries = {word: Entry(word, deck.lines.get(word)) for word in deck.words}
    lines = [("OK", f"{path}: {len(deck.words)} distinct words, language {deck.language}")]
    failed = False
    if deck.duplicates:
        failed = True
        lines.append(("FAIL", f"duplicate words (case and spaces ignored): {'; '.join(deck.duplicates)}"))
        for word, copies in deck.repeats.items():
            again = ", ".join(f"{copy} (line {line})" if line else copy for copy, line in copies)
            entries[word].notes.append(("FAIL", f"written again: {again}; keep one"))
    fits = word_fits(deck.words, layout, fonts)
    missing = [f"{r.word} ({r.missing})" for r in fits if r.missing]
    too_long = [r.word for r in fits if not r.fits and not r.missing]
    shrunk = [f"{r.word} {r.size:g}pt" for r in fits if r.shrunk]
    if missing:
        failed = True
        lines.append(("FAIL", f"the font lacks characters of {len(missing)} word(s): {', '.join(missing)}"))
    if too_long:
        failed = True
        lines.append(("FAIL", f"{len(too_long)} word(s) do not fit even at the minimum size: {', '.join(too_long)}"))
    if not missing and not too_long:
        note = f" ({len(shrunk)} shrink to fit: {', '.join(shrunk[:8])}{', ...' if len(shrunk) > 8 else ''})" \
            if shrunk else ""
        lines.append(("OK", f"every word fits its card{note}"))
    for r in fits:
        if r.missing:
            entries[r.word].notes.append(("FAIL", "no font draws " + ", ".join(
                f"{ch!r} (U+{ord(ch):04X})" for ch in r.missing)))
        elif not r.fits:
            entries[r.word].notes.append(("FAIL", f"does not fit its card even at {r.min_size:g}pt; shorten it"))
        elif r.shrunk:
            entries[r.word].notes.append(("OK", f"fits at {r.size:g}pt (shrunk from {r.max_size:g}pt)"))
    lines += _scripts(deck, layout, fonts, entries)
    pairs = near_duplicates(deck.words)
    if pairs:
        lines.append(("WARN", f"near-duplicates, which give each other away on one board: "
                              f"{', '.join(f'{a} / {b}' for a, b, _ in pairs)}"))
        for a, b, _ in pairs:
            entries[a].notes.append(("WARN", f"near-duplicate of {b}: they give each other away on one board"))
            entries[b].notes.append(("WARN", f"near-duplicate of {a}: they give each other away on one board"))
    return DeckReport("words", lines, list(entries.values()), failed)


def _scripts(deck, layout, fonts: dict[str, str], entries) -> list[tuple[str, str]]:
    """Which scripts the deck's words are in and the font that draws each (docs/design.md §9.5): one
    line for the deck, a note for each word, and a line for each word that mixes scripts."""
    from kitgen import fonts as fonts_mod
    from kitgen.render import text

    style = layout.codename_card.word
    font = fonts[style.font]
    counts: dict[tuple[str, str], int] = {}
    mixed = []
    for word in deck.words:
        shown = text.apply_case(word, style.case, deck.language)
        drawn = text.scripts(shown, font)
        for pair in drawn:
            counts[pair] = counts.get(pair, 0) + 1
        described = "; ".join(f"{script} in {fonts_mod.family_of(name)}" for script, name in drawn)
        entries[word].notes.append(("NOTE", f"script {described}"))
        if len(drawn) > 1:
            mixed.append(f"{word} ({described})")
    summary = ", ".join(f"{script}: {count} word(s) in {fonts_mod.family_of(name)}"
                        for (script, name), count in sorted(counts.items(), key=lambda kv: -kv[1]))
    lines = [("OK", f"scripts: {summary}")]
    if mixed:
        lines.append(("NOTE", f"{len(mixed)} word(s) mix scripts, each drawn in its own font: {', '.join(mixed)}"))
    return lines


def each_word(report: DeckReport) -> list[tuple[str, str]]:
    """One line for each word of a words report: its notes (``kitgen deck check --words``)."""
    return [("FAIL" if any(s == "FAIL" for s, _ in e.notes) else "WARN" if any(s == "WARN" for s, _ in e.notes)
             else "OK", f"{e.name}: " + "; ".join(t for _, t in e.notes)) for e in report.entries]


def pictures_report(path: str, deck, box_w: float, box_h: float) -> DeckReport:
    """The check of a picture deck (each picture already opened): files passed over, and
    pictures too small to print sharp in a ``box_w`` x ``box_h`` box."""
    from kitgen import pictures

    entries = {picture.name: Entry(picture.name, picture=picture) for picture in deck.pictures}
    lines = [("OK", f"{path}: {len(deck.pictures)} distinct pictures, each opened and checked")]
    for name, why in deck.passed_over:
        lines.append(("NOTE", f"{name}: {why}"))
        entries[name] = Entry(name, notes=[("NOTE", why)])
    for picture, why in pictures.blurred(deck.pictures, box_w, box_h):
        lines.append(("WARN", f"{picture.name}: {why}"))
        entries[picture.name].notes.append(("WARN", why))
    return DeckReport("pictures", lines, list(entries.values()))


def near_duplicates(words) -> list[tuple[str, str, str]]:
    """Pairs where one word is a simple plural of another (cat/cats, box/boxes,
    city/cities): on one board they would give each other away."""
    by_identity = {identity(w): w for w in words}
    found = []
    for key, word in by_identity.items():
        for suffix, base_suffix in (("s", ""), ("es", ""), ("ies", "y")):
            if key.endswith(suffix) and len(key) > len(suffix) + 1:
                base = key[: -len(suffix)] + base_suffix
                if base in by_identity:
                    found.append((by_identity[base], word, "plural"))
    return sorted(set(found))


@dataclass
class KeyDeckReport:
    count: int
    cells: int
    rows: int
    cols: int
    starting: Counter
    per_cell: dict[str, list[int]]        # type -> how often each cell has it
    split_errors: list[str] = field(default_factory=list)
    rotation_clashes: list[tuple[int, int]] = field(default_factory=list)

    @property
    def assassin_cap(self) -> int:
        return math.ceil(self.count / self.cells)

    @property
    def balanced(self) -> bool:
        return abs(self.starting["R"] - self.starting["B"]) <= self.count % 2

    @property
    def ok(self) -> bool:
        return (self.balanced and not self.split_errors and not self.rotation_clashes
                and max(self.per_cell["A"]) <= self.assassin_cap)


def key_deck_report(deck: list, edition: Edition) -> KeyDeckReport:
    """The properties of docs/design.md §3.3, measured on a generated deck."""
    per_cell = {kind: [0] * edition.cells for kind in "RBNA"}
    report = KeyDeckReport(len(deck), edition.cells, edition.rows, edition.cols,
                           Counter(k.starting_team for k in deck), per_cell)
    seen: dict = {}
    for key in deck:
        counts = Counter(key.cells)
        other = "B" if key.starting_team == "R" else "R"
        if (counts[key.starting_team], counts[other], counts["N"], counts["A"]) != (
                edition.starting_agents, edition.other_agents, edition.bystanders, edition.assassins):
            report.split_errors.append(f"key {key.number}")
        for i, kind in enumerate(key.cells):
            per_cell[kind][i] += 1
        for turned in key_deck.rotations(key.grid, edition.rotations):
            if turned in seen:
                report.rotation_clashes.append((seen[turned], key.number))
        seen[key.grid] = key.number
    return report


@dataclass
class DuetDeckReport:
    count: int
    assassins: dict[str, list[int]]       # side "A" or "B" -> how often each cell is that side's assassin
    greens: dict[str, list[int]] = field(default_factory=dict)     # and that side's green agent
    overlap_errors: list[str] = field(default_factory=list)
    clashes: list[tuple[int, int]] = field(default_factory=list)   # (earlier key, key equivalent to it)

    @property
    def assassin_cap(self) -> int:
        return math.ceil(duet_keys.ASSASSINS * self.count / duet_keys.CELLS)

    @property
    def ok(self) -> bool:
        return (not self.overlap_errors and not self.clashes
                and max(max(per_cell) for per_cell in self.assassins.values()) <= self.assassin_cap)


def duet_deck_report(deck: list) -> DuetDeckReport:
    """The properties of docs/design.md §3.8, measured on a generated duet deck: the overlap table
    on every key, no key equivalent to an earlier one, each side's assassins (and green agents) per cell."""
    report = DuetDeckReport(len(deck), {side: [0] * duet_keys.CELLS for side in "AB"},
                            {side: [0] * duet_keys.CELLS for side in "AB"})
    want = Counter(duet_keys.OVERLAP)
    seen: dict = {}
    for key in deck:
        pairs = Counter(tuple(cell) for cell in key.cells)
        if pairs != want:
            report.overlap_errors.append(f"key {key.number}")
        for i, (a, b) in enumerate(key.cells):
            report.assassins["A"][i] += a == duet_keys.ASSASSIN
            report.assassins["B"][i] += b == duet_keys.ASSASSIN
            report.greens["A"][i] += a == duet_keys.GREEN
            report.greens["B"][i] += b == duet_keys.GREEN
        for form in duet_keys.symmetries(key.side_a, key.side_b):
            if form in seen:
                report.clashes.append((seen[form], key.number))
                break
        seen[(key.side_a, key.side_b)] = key.number
    return report
