"""kitgen game's text boards as a designer ships them: Markdown tables whose header row is the
board's first row (no empty row), HTML pages with the game's title, the kit's language and
direction and cells of equal width, looked at in Debian's Chromium (headless, through selenium,
as tests/test_web.py drives it) with a screenshot of each. No Markdown renderer is installed, and
none is added for this: the Markdown is checked for the structure GitHub-flavoured Markdown needs."""

import io
import re

import pytest

from kitgen.games.codenames import editions, forum_boards, single_game_files, single_games, texts
from kitgen.messages import label

from test_web import CHROMIUM, DRIVER

COLOURS = {"R": "#C62F2F", "B": "#2458B8", "N": "#D9C9A3", "A": "#222222"}
SEED = "text outputs host"
# (language, edition, games): Persian is right to left; two pictures games give a title that spans them
CASES = [("en", "words", 1), ("fa", "words", 1), ("en", "pictures", 2)]
SIDES = ("public", "captain")
SEPARATOR = re.compile(r"\|(?: *:?-{3,}:? *\|)+")
needs_chromium = pytest.mark.skipif(not (CHROMIUM and DRIVER),
                                    reason="Debian's chromium and chromium-driver are not installed")


def case_id(case) -> str:
    return f"{case[0]}-{case[1]}"


@pytest.fixture(scope="module")
def made(tmp_path_factory):
    """{(language, edition, format): GameFiles}, made as `kitgen game` makes them."""
    out = tmp_path_factory.mktemp("games")
    return {(lang, edition, fmt): single_game_files.make(deck=None, edition=edition, language=lang, seed=SEED,
                                                         count=count, fmt=fmt, ink="normal",
                                                         out_dir=out / f"{lang}-{edition}-{fmt}")
            for lang, edition, count in CASES for fmt in ("html", "markdown")}


def board_file(made, case, fmt: str, side: str):
    """(path, games) of one side's file."""
    files = made[(case[0], case[1], fmt)]
    return next(p for p in files.files if p.name.startswith(side + ".")), files.games


def game_title(games, language: str) -> str:
    """The title every board of ``games`` carries, as a page title: the first's, and the last's (numbers
    in the language's digits)."""
    messages = texts.load(language)
    titles = [label(messages, "game_title", n=g.number, total=g.total, code=g.code) for g in (games[0], games[-1])]
    return titles[0] if len(games) == 1 else " \u2013 ".join(titles)


# --- Markdown -------------------------------------------------------------------------------

def split_row(line: str) -> list[str]:
    """A GFM table row's cells: split at each pipe that no backslash escapes (a row ends with one)."""
    cells, cell, escaped = [], "", False
    for char in line.strip()[1:]:
        if char == "|" and not escaped:
            cells.append(cell.strip())
            cell = ""
        else:
            cell += char
        escaped = char == "\\" and not escaped
    return cells


def tables(text: str) -> list[list[str]]:
    """Each block of consecutive lines that start with a pipe."""
    found, current = [], []
    for line in text.splitlines() + [""]:
        if line.startswith("|"):
            current.append(line)
        elif current:
            found.append(current)
            current = []
    return found


def unescape(cell: str) -> str:
    return re.sub(r"\\(.)", r"\1", cell)


def expect_grid_tables(text: str, edition, games) -> None:
    """One table per game: its first line the board's first row (no empty header), a delimiter
    row next, then the other rows; every row as many cells as the board has columns."""
    found = tables(text)
    assert len(found) == len(games)
    for lines, game in zip(found, games):
        assert len(lines) == edition.rows + 1, lines
        header, separator, *body = lines
        assert SEPARATOR.fullmatch(separator), separator
        rows = [split_row(header)] + [split_row(line) for line in body]
        assert len(split_row(separator)) == edition.cols
        assert all(len(row) == edition.cols for row in rows), rows
        assert all(cell.strip("* ") for cell in rows[0]), f"an empty header cell: {header}"
        words = [forum_boards._name(item) for item in game.items]
        assert [unescape(cell).split("**")[1] for row in rows for cell in row] == words


@pytest.mark.parametrize("side", SIDES)
@pytest.mark.parametrize("case", CASES, ids=case_id)
def test_markdown_tables_start_with_the_boards_first_row(made, case, side):
    path, games = board_file(made, case, "markdown", side)
    expect_grid_tables(path.read_text(encoding="utf-8"), editions.EDITIONS[case[1]], games)


def test_markdown_cells_escape_markdown_characters():
    """A word with a pipe, a star or an underscore stays one cell, and says what it said."""
    words = [f"W{i}{'|*_`'[i % 4]}X" for i in range(30)]
    games = single_games.deal(SEED, words, editions.WORDS, 1)
    files = forum_boards.write_all(games, editions.WORDS, texts.load("en"), "markdown", COLOURS, language="en")
    for text in files.values():
        expect_grid_tables(text, editions.WORDS, games)


# --- HTML in Chromium -----------------------------------------------------------------------

@pytest.fixture(scope="module")
def browser(tmp_path_factory):
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service

    options = webdriver.ChromeOptions()
    options.binary_location = CHROMIUM
    for flag in ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                 "--disable-background-networking", "--disable-component-update", "--disable-sync",
                 "--force-device-scale-factor=1", "--window-size=1000,900",
                 f"--user-data-dir={tmp_path_factory.mktemp('profile')}"):
        options.add_argument(flag)
    driver = webdriver.Chrome(service=Service(DRIVER), options=options)
    driver.set_page_load_timeout(30)
    yield driver
    driver.quit()


def open_file(browser, path, width: int = 1000):
    from selenium.webdriver.support.ui import WebDriverWait

    browser.set_window_size(width, 900)
    browser.get("about:blank")
    browser.get(path.resolve().as_uri())
    WebDriverWait(browser, 10).until(lambda d: d.execute_script("return document.readyState") == "complete")


BOARDS = """return Array.from(document.querySelectorAll("table")).map(table => ({
    table: table.getBoundingClientRect().toJSON(),
    cells: Array.from(table.querySelectorAll("td")).map(td => ({
        rect: td.getBoundingClientRect().toJSON(), scroll: td.scrollWidth, client: td.clientWidth}))}));"""


def boards(browser) -> list[dict]:
    """Every board table's rectangle and its cells' rectangles, in document order."""
    return browser.execute_script(BOARDS)


html_cases = pytest.mark.parametrize("case", CASES, ids=case_id)
html_sides = pytest.mark.parametrize("side", SIDES)


@needs_chromium
@html_sides
@html_cases
def test_html_page_has_the_games_title_language_and_direction(browser, made, case, side):
    path, games = board_file(made, case, "html", side)
    open_file(browser, path)
    title = game_title(games, case[0])
    if side == "captain":
        title = f"{texts.load(case[0]).labels.key_back} \u00b7 {title}"
    assert browser.execute_script("return document.title") == title
    rtl = case[0] == "fa"
    assert browser.execute_script("return document.documentElement.lang") == case[0]
    assert browser.execute_script("return document.documentElement.dir") == ("rtl" if rtl else "ltr")
    assert browser.execute_script("return getComputedStyle(document.body).direction") == ("rtl" if rtl else "ltr")


@needs_chromium
@pytest.mark.parametrize("width", [1000, 390])                # a desktop and a phone
@html_sides
@html_cases
def test_html_board_cells_are_equal_and_hold_their_words(browser, made, case, side, width):
    """Every cell as wide as every other, every word inside its cell, nothing wider than the window."""
    path, games = board_file(made, case, "html", side)
    edition = editions.EDITIONS[case[1]]
    open_file(browser, path, width)
    found = boards(browser)
    assert len(found) == len(games)
    for board in found:
        widths = [cell["rect"]["width"] for cell in board["cells"]]
        assert len(widths) == edition.rows * edition.cols
        assert max(widths) - min(widths) <= 1, widths
        assert all(cell["scroll"] <= cell["client"] for cell in board["cells"]), "a word runs out of its cell"
    page = browser.execute_script("const e = document.documentElement; return [e.scrollWidth, e.clientWidth]")
    assert page[0] <= page[1], f"the page scrolls sideways: {page}"


@needs_chromium
@html_sides
@html_cases
def test_html_board_reads_from_the_languages_side(browser, made, case, side):
    """The first word of a Persian board is at the right, of an English one at the left."""
    path, _ = board_file(made, case, "html", side)
    open_file(browser, path)
    for board in boards(browser):
        table, first, last = board["table"], board["cells"][0]["rect"], board["cells"][-1]["rect"]
        if case[0] == "fa":
            assert abs(first["right"] - table["right"]) <= 1 and first["left"] > last["left"]
        else:
            assert abs(first["left"] - table["left"]) <= 1 and first["left"] < last["left"]


BACKGROUNDS = """return Array.from(new Set(Array.from(document.querySelectorAll("td"))
    .map(td => getComputedStyle(td).backgroundColor).filter(c => c !== "rgba(0, 0, 0, 0)")));"""


def colour_share(image, css_rgb: str) -> float:
    """The share of the screenshot's pixels in a CSS ``rgb(r, g, b)`` colour (within a few levels)."""
    want = tuple(int(v) for v in re.findall(r"\d+", css_rgb)[:3])
    near = sum(count for count, rgb in image.getcolors(image.width * image.height)
               if max(abs(a - b) for a, b in zip(rgb, want)) <= 3)
    return near / (image.width * image.height)


@needs_chromium
@html_cases
def test_html_boards_screenshot(browser, made, case, tmp_path):
    """A screenshot of each side's page (saved under tmp_path): not blank, text and borders drawn;
    on the captains' page each cell colour (red, blue, bystander, assassin) is painted."""
    from PIL import Image

    for side in SIDES:
        path, _ = board_file(made, case, "html", side)
        open_file(browser, path)
        png = browser.get_screenshot_as_png()
        (tmp_path / f"{case_id(case)}-{side}.png").write_bytes(png)
        image = Image.open(io.BytesIO(png)).convert("RGB")
        pixels = image.getcolors(image.width * image.height)
        assert len(pixels) > 1, "a blank screenshot"
        dark = sum(count for count, rgb in pixels if max(rgb) < 128)
        assert dark / (image.width * image.height) > 0.005, "no text or borders drawn"
        backgrounds = browser.execute_script(BACKGROUNDS)
        assert len(backgrounds) == (4 if side == "captain" else 0), backgrounds
        for colour in backgrounds:
            assert colour_share(image, colour) > 0.001, f"{colour} is not on the screen"


ROWS = """return Array.from(document.querySelectorAll("table")).map(table =>
    Array.from(table.querySelectorAll("tr")).map(tr =>
        Array.from(tr.querySelectorAll("th, td")).map(cell => ({
            text: cell.innerText.trim(), height: cell.getBoundingClientRect().height}))));"""


@needs_chromium
@html_sides
@html_cases
def test_markdown_boards_render_in_a_browser_without_an_empty_row(browser, made, case, side, tmp_path):
    """The Markdown boards rendered as GitHub renders tables (markdown-it-py, CommonMark with
    tables), shown in Chromium and photographed: one table per game, exactly the board's rows,
    every cell holding its word (no empty header row), and the screenshot not blank."""
    from markdown_it import MarkdownIt
    from PIL import Image

    path, games = board_file(made, case, "markdown", side)
    edition = editions.EDITIONS[case[1]]
    page = tmp_path / f"{case_id(case)}-{side}-markdown.html"
    body = MarkdownIt("commonmark").enable("table").render(path.read_text("utf-8"))
    page.write_text(f'<!DOCTYPE html><html lang="{case[0]}"><head><meta charset="utf-8"></head>'
                    f'<body>{body}</body></html>', "utf-8")
    open_file(browser, page)
    shown = browser.execute_script(ROWS)
    assert len(shown) == len(games)
    for table, game in zip(shown, games):
        assert len(table) == edition.rows, "an extra or a missing row"
        words = [forum_boards._name(item) for item in game.items]
        for row, cells in enumerate(table):
            wanted = words[row * edition.cols:(row + 1) * edition.cols]
            # a captain's cell is the word, then its symbol and type's name
            assert [c["text"][:len(w)] for c, w in zip(cells, wanted)] == wanted
            assert len(cells) == edition.cols and all(c["height"] > 5 for c in cells), "an empty row"
    png = browser.get_screenshot_as_png()
    (tmp_path / f"{case_id(case)}-{side}-markdown.png").write_bytes(png)
    image = Image.open(io.BytesIO(png)).convert("RGB")
    assert len(image.getcolors(image.width * image.height)) > 1, "a blank screenshot"
