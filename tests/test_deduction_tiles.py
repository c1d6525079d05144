"""The deduction game's tiles are legible across a table (issue 26, point 8): every tile name,
the blanks ("No suspect", "No crime") too, at one size of at least the layout's minimum (7 pt),
broken onto at most two lines where it must be, read from tiles.pdf itself; and a theme with a
name that cannot fit is refused in one line."""

import subprocess
import sys
from collections import Counter

import pypdfium2 as pdfium
import pytest
import yaml

from kitgen import layouts
from kitgen.games.deduction import texts, theme as theme_mod

from raster import page_chars


@pytest.fixture(scope="module")
def built(tmp_path_factory):
    out = tmp_path_factory.mktemp("tiles")
    for lang, players in (("en", "2"), ("ru", "5")):
        done = subprocess.run([sys.executable, "-m", "kitgen", "build", "--game", "deduction", "--lang", lang,
                               "--players", players, "--out", str(out)], cwd=out, capture_output=True, text=True)
        assert done.returncode == 0, done.stderr
    return out


def printed_lines(pdf) -> list[list[tuple[str, float, float]]]:
    """Each page's text as lines (by baseline, left to right within a tile): (text, size, x) each."""
    document = pdfium.PdfDocument(pdf)
    return [[(ch, size, x, round(y, 1)) for ch, size, x, y in page_chars(page)] for page in document]


@pytest.mark.parametrize("lang", ["en", "ru"])
def test_every_tile_name_is_set_at_one_legible_size(built, lang):
    theme = theme_mod.load(theme_mod.resolve(None, lang))
    labels = texts.load(lang).labels
    names = [e.name for e in theme.suspects + theme.crimes] + [labels.no_suspect, labels.no_crime]
    minimum = layouts.load("default").city_tile.name.min_size
    assert minimum == 7
    fronts = [chars for chars in printed_lines(built / f"deduction-{lang}" / "tiles.pdf")
              if "".join(c for c, *_ in chars).find(names[0].replace(" ", "")) >= 0]
    assert len(fronts) == 1
    chars = fronts[0]
    sizes = Counter(size for _, size, _, _ in chars)
    assert len(sizes) == 1, sizes                               # one size for every name, the blanks too
    (size,) = sizes
    assert size >= minimum
    words = Counter(word for name in names for word in name.split())
    by_line: dict[float, list] = {}
    for ch, _, x, y in chars:
        by_line.setdefault(y, []).append((x, ch))
    baselines = sorted(by_line, reverse=True)
    # tiles lie in rows 20 mm apart: the baselines of one row of tiles are the lines of its names
    rows, current = [], [baselines[0]]
    for y in baselines[1:]:
        if current[-1] - y > 20:
            rows.append(current)
            current = [y]
        else:
            current.append(y)
    rows.append(current)
    for row in rows:                     # in each row of tiles, each tile's name (chars 12 pt apart or more
        placed = sorted((x, y) for ch, _, x, y in chars if y in row)          # start another) on <= 2 lines
        tiles, current = [], [placed[0]]
        for x, y in placed[1:]:
            if x - current[-1][0] > 12:
                tiles.append(current)
                current = []
            current.append((x, y))
        tiles.append(current)
        assert len(tiles) == 7 and all(len({y for _, y in tile}) <= 2 for tile in tiles), tiles
    text = "".join(ch for y in baselines for _, ch in sorted(by_line[y]))
    for word in words:
        assert word in text, word


def test_a_theme_with_a_tile_name_that_cannot_fit_is_refused(tmp_path):
    source = theme_mod.resolve(None, "en")
    data = yaml.safe_load(source.read_text(encoding="utf-8"))
    data["crimes"][0] = "Unbelievable misappropriation"
    path = tmp_path / "long.yaml"
    path.write_text(yaml.safe_dump(data, allow_unicode=True), encoding="utf-8")
    done = subprocess.run([sys.executable, "-m", "kitgen", "build", str(path), "--out", str(tmp_path / "out")],
                          cwd=tmp_path, capture_output=True, text=True)
    assert done.returncode == 2
    assert done.stderr.splitlines() == [
        f"kitgen: error: {path}: 1 name(s) do not fit even at the layout's smallest size: Unbelievable "
        "misappropriation (a tile, in 2 lines); shorten them"]
    assert not (tmp_path / "out").exists()
