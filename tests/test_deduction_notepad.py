"""The detective's notepad (issue 26 point 6, docs/design.md §10.6): notepad.pdf holds a sheet a
player, each the theme's suspects, crimes and locations as rows in the theme's order under a
heading for each kind, in the kit's language; as many sheets as the layout fits side by side to a
page; printed two-sided, each notepad page has a blank back. Read from the PDFs' text, sheet by
sheet (each sheet's box from the layout, kitgen/games/deduction/render/notepad.py)."""

import json
import subprocess
import sys

import pypdfium2
import pytest

from kitgen.games.deduction import build, texts, theme as theme_mod
from kitgen.games.deduction.render import notepad

from test_deduction_duplex import blank, ink, pages, same

CASES = {"en": 5, "ru": 2}          # language: players


@pytest.fixture(scope="module")
def kits(tmp_path_factory):
    """The built-in kit in English for 5 players and in Russian for 2, two-sided (long edge) and one-sided."""
    out = tmp_path_factory.mktemp("deduction-notepad")
    built = {}
    for lang, players in CASES.items():
        for duplex in ("long", "none"):
            target = out / f"{lang}-{duplex}"
            result = subprocess.run([sys.executable, "-m", "kitgen", "build", "--game", "deduction", "--players",
                                     str(players), "--lang", lang, "--duplex", duplex, "--out", str(target)],
                                    cwd=out, capture_output=True, text=True)
            assert result.returncode == 0, result.stderr
            (kit,) = target.iterdir()
            built[lang, duplex] = kit
    return built


def geometry(lang: str):
    prepared = build.prepare(build.load(language=lang, players=CASES[lang]))
    return prepared.layout, prepared.page_size


def sheets_of(path) -> list[list[str]]:
    """Each sheet's lines of text, page by page, left to right, empty sheets left out."""
    layout, size = geometry("en")
    document = pypdfium2.PdfDocument(str(path))
    found = []
    for page in document:
        assert (page.get_width(), page.get_height()) == pytest.approx(size, abs=0.5)
        textpage = page.get_textpage()
        for x, y, w, h in notepad.sheet_boxes(layout, size):
            lines = [line.strip() for line in textpage.get_text_bounded(x, y, x + w, y + h).splitlines()]
            lines = [line for line in lines if line]
            if lines:
                found.append(lines)
    return found


def rows(sheet: list[str], labels) -> dict[str, list[str]]:
    """The lines under each kind's heading, up to the next heading (the last: to the sheet's end)."""
    headings = [labels.notepad_suspects, labels.notepad_crimes, labels.notepad_locations]
    at = [sheet.index(h) for h in headings]
    ends = at[1:] + [len(sheet)]
    return {kind: sheet[start + 1:end] for kind, start, end in zip(theme_mod.KINDS, at, ends)}


@pytest.mark.parametrize("lang", CASES)
def test_each_sheet_lists_the_theme_in_order_one_sheet_a_player(kits, lang):
    kit = kits[lang, "none"]
    labels = texts.load(lang).labels
    theme = theme_mod.load(theme_mod.resolve(None, lang))
    sheets = sheets_of(kit / "notepad.pdf")
    text = "\n".join(line for sheet in sheets for line in sheet)
    assert text.count(labels.notepad_title) == CASES[lang] == len(sheets)
    for sheet in sheets:
        assert sheet[0] == labels.notepad_title
        assert sheet[1].startswith(labels.notepad_player)
        assert labels.notepad_game in " ".join(sheet)
        for kind, printed in rows(sheet, labels).items():
            assert printed == [e.name for e in getattr(theme, kind)], kind


@pytest.mark.parametrize("lang", CASES)
def test_as_few_pages_as_the_layout_allows(kits, lang):
    layout, size = geometry(lang)
    across = notepad.per_page(layout, size)
    assert across >= 2           # narrow sheets: more than one to a page
    expected = -(-CASES[lang] // across)
    kit = kits[lang, "none"]
    assert len(pypdfium2.PdfDocument(str(kit / "notepad.pdf"))) == expected
    manifest = json.loads((kit / "manifest.json").read_text(encoding="utf-8"))
    assert {f["path"]: f["pages"] for f in manifest["files"]}["notepad.pdf"] == expected


def test_labels_are_in_the_kits_language(kits):
    english, russian = texts.load("en").labels, texts.load("ru").labels
    ru = "\n".join("\n".join(s) for s in sheets_of(kits["ru", "none"] / "notepad.pdf"))
    for key in ("notepad_title", "notepad_player", "notepad_game", "notepad_suspects", "notepad_crimes",
                "notepad_locations"):
        assert getattr(russian, key) in ru and getattr(english, key) not in ru, key
        assert getattr(russian, key) != getattr(english, key), key


@pytest.mark.parametrize("lang", CASES)
def test_two_sided_each_notepad_page_has_a_blank_back(kits, lang):
    """notepad.pdf and its part of kit.pdf: each page as the one-sided kit prints it, then a blank page."""
    two, one = kits[lang, "long"], kits[lang, "none"]
    fronts = pages(one, "notepad.pdf")
    printed = pages(two, "notepad.pdf")
    assert len(printed) == 2 * len(fronts)
    for i, front in enumerate(fronts):
        assert not blank(front)
        assert same(printed[2 * i], front)
        assert blank(printed[2 * i + 1]), f"the back of notepad page {i + 1} ({ink(printed[2 * i + 1]):.1%} ink)"
    manifest = json.loads((two / "manifest.json").read_text(encoding="utf-8"))
    counts = {f["path"]: f["pages"] for f in manifest["files"]}
    # kit.pdf: the parts in groups' order, each on a new sheet; the notepad follows the aids
    # (board.pdf is one-sided: in kit.pdf each piece has its blank back)
    start = 2 * counts["board.pdf"] + sum(counts[n] + counts[n] % 2
                                          for n in ("cards.pdf", "tiles.pdf", "tokens.pdf", "aids.pdf"))
    kit_pages = pages(two, "kit.pdf")
    for i, front in enumerate(fronts):
        assert same(kit_pages[start + 2 * i], front), f"kit.pdf page {start + 2 * i + 1} is not notepad page {i + 1}"
        assert blank(kit_pages[start + 2 * i + 1])
