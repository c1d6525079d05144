"""kitgen game --format pdf, measured on the PDF it writes (issue 14, point 12): every board
of a run sets its words in one size; a word, ink and advance alike, keeps at least 3 mm
clear of the inside of its cell's frame on both sides; a key page is headed with its
board page's title, word for word."""

import pypdfium2 as pdfium
import pytest

from kitgen.games.codenames import kitfile
from kitgen.games.codenames.build import load_layout
from kitgen.units import mm

from pdfread import Pdf, interpret
from test_game import WORDS, kitgen

COUNT = 3
ROWS = COLS = 5
LONG = "Juxtapositional"          # one word much longer than the rest, with a J that reaches left of its origin
SIDE_PADDING = mm(3)
EPSILON = 0.01                    # points


@pytest.fixture(scope="module", params=["en", "fa"])
def run(request, tmp_path_factory):
    """``kitgen game --count 3`` as a user runs it: in English from a deck of 75 words, one of them
    long (75 words deal three boards with every word on one board only), and in Persian from
    the built-in Persian deck. (language, PDF path, layout)."""
    language = request.param
    folder = tmp_path_factory.mktemp(f"games-{language}")
    args = ["game", "--count", str(COUNT), "--seed", "lesson", "--lang", language, "--out", "o"]
    if language == "en":
        words = WORDS + [f"Extra{chr(97 + i)}" for i in range(13)] + ["Jungle", LONG]
        (folder / "deck.txt").write_text("\n".join(words) + "\n", encoding="utf-8")
        args += ["--deck", "deck.txt"]
    result = kitgen(*args, cwd=folder)
    assert result.returncode == 0, result.stderr
    pdf = next((folder / "o").glob("games-*/games.pdf"))
    layout = load_layout(kitfile.load(kitfile.kit_path(None, "words", language), language=language))
    return language, pdf, layout


def frames(layout, page_width: float, page_height: float) -> list[tuple[float, float, float, float]]:
    """Each cell's frame (x0, y0, x1, y1) on a board page, from the layout's game_sheet section."""
    sheet = layout.game_sheet
    top = page_height - sheet.margin - sheet.board_top
    cell_w = (page_width - 2 * sheet.margin - (COLS - 1) * sheet.gap) / COLS
    cell_h = (top - sheet.margin - (ROWS - 1) * sheet.gap) / ROWS
    return [(sheet.margin + col * (cell_w + sheet.gap), top - (row + 1) * cell_h - row * sheet.gap,
             sheet.margin + col * (cell_w + sheet.gap) + cell_w, top - row * cell_h - row * sheet.gap)
            for row in range(ROWS) for col in range(COLS)]


def holding(cells, x: float, y: float):
    """The cell that holds the point, or None (the page's title)."""
    return next((cell for cell in cells if cell[0] <= x <= cell[2] and cell[1] <= y <= cell[3]), None)


def board_words(pdf: Pdf, page: dict, cells) -> dict[tuple, list]:
    """The text runs drawn on a board page, by the cell they stand in (the title left out)."""
    out: dict[tuple, list] = {}
    for shown in interpret(pdf, page)[0]:
        cell = holding(cells, (shown.start[0] + shown.end[0]) / 2, shown.start[1])
        if cell is not None:
            out.setdefault(cell, []).append(shown)
    return out


def board_pages(path):
    """(the PDF, page index, page, page width, page height) of each board page."""
    pdf = Pdf(path.read_bytes())
    pages = pdf.pages()
    assert len(pages) == 2 * COUNT
    for index, page in enumerate(pages[:COUNT]):
        width, height = (float(v) for v in page["MediaBox"][2:])
        yield pdf, index, page, width, height


def page_lines(path) -> list[list[str]]:
    """Each page's text (pdfium), line by line."""
    document = pdfium.PdfDocument(str(path))
    try:
        return [page.get_textpage().get_text_range().split("\r\n") for page in document]
    finally:
        document.close()


def ink_boxes(path, index: int, cells):
    """(left, right, cell) of the ink of each character drawn in a cell of page ``index`` (pdfium's tight boxes)."""
    document = pdfium.PdfDocument(str(path))
    try:
        text = document[index].get_textpage()
        boxes = [text.get_charbox(i) for i in range(text.count_chars())]
    finally:
        document.close()
    found = [(x0, x1, holding(cells, (x0 + x1) / 2, (y0 + y1) / 2)) for x0, y0, x1, y1 in boxes if x1 > x0]
    return [(x0, x1, box) for x0, x1, box in found if box is not None]


def test_every_board_of_a_run_sets_its_words_in_one_size(run):
    """One size for the whole run, the one at which its longest word fits: not one size per
    board, where a board without the long word would get larger words than the board with it."""
    language, path, layout = run
    sizes = []
    for pdf, index, page, width, height in board_pages(path):
        words = board_words(pdf, page, frames(layout, width, height))
        assert len(words) == ROWS * COLS, f"board {index + 1}: {len(words)} cells with a word"
        sizes.append({shown.size for runs in words.values() for shown in runs})
    assert all(len(s) == 1 for s in sizes) and len(set.union(*sizes)) == 1, f"word sizes per board: {sizes}"
    (size,) = sizes[0]
    assert layout.game_sheet.word.min_size <= size < layout.game_sheet.word.size
    if language == "en":
        with_long = [i for i, lines in enumerate(page_lines(path)[:COUNT]) if LONG.upper() in " ".join(lines).split()]
        assert len(with_long) == 1, "the long word is on one board only, so the others alone would choose larger"


def test_words_keep_3mm_clear_of_their_cells_on_both_sides(run):
    """Both the advance (text operators and the fonts' /Widths) and the ink (pdfium's tight glyph
    boxes) of every word stand at least 3 mm inside the frame line of their cell, left and right."""
    _, path, layout = run
    cell = layout.game_sheet.cell
    assert cell.padding >= SIDE_PADDING - EPSILON
    closest = []
    for pdf, index, page, width, height in board_pages(path):
        cells = frames(layout, width, height)
        inside = {box: (box[0] + cell.width / 2, box[2] - cell.width / 2) for box in cells}
        for box, runs in board_words(pdf, page, cells).items():
            left, right = inside[box]
            xs = [x for shown in runs for x in (shown.start[0], shown.end[0])]
            closest.append((min(min(xs) - left, right - max(xs)), f"board {index + 1}: advance in {box}"))
        for x0, x1, box in ink_boxes(path, index, cells):
            left, right = inside[box]
            closest.append((min(x0 - left, right - x1), f"board {index + 1}: ink of a character in {box}"))
    assert len(closest) > COUNT * ROWS * COLS
    gap, where = min(closest)
    assert gap >= SIDE_PADDING - EPSILON, f"{where}: {gap / mm(1):.2f} mm from the frame"


def test_a_key_page_is_headed_like_its_board(run):
    """A key page's first line is its board page's title, word for word ("Game 1 of 3 · code
    XXXXXX"), not the key card's own number ("1/1"), and nothing added to it."""
    language, path, _ = run
    lines = page_lines(path)
    for i in range(COUNT):
        board, key = lines[i][0], lines[COUNT + i][0]
        assert key == board, f"game {i + 1}: key page headed {key!r}, its board {board!r}"
        if language == "en":
            assert board.startswith(f"Game {i + 1} of {COUNT} \u00b7 code "), board
    assert len({lines[i][0] for i in range(COUNT)}) == COUNT


def test_a_word_that_fits_a_board_only_below_the_minimum_size_is_refused(tmp_path):
    """The one size is never smaller than game_sheet.word.min_size: a run with a word that would
    need it stops with one line naming the word, and writes nothing."""
    words = WORDS[:30] + [LONG]
    (tmp_path / "deck.txt").write_text("\n".join(words) + "\n", encoding="utf-8")
    (tmp_path / "big.yaml").write_text("extends: default\ngame_sheet:\n  word: {min_size: 20pt}\n", encoding="utf-8")
    result = kitgen("game", "--deck", "deck.txt", "--layout", "big.yaml", "--out", "o", cwd=tmp_path)
    assert result.returncode == 2 and "do not fit a board cell" in result.stderr, result.stderr
    assert LONG.upper() in result.stderr and not (tmp_path / "o").exists()
