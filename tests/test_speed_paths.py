"""What the speed work must not change (docs/design.md §3.3, §8.9, §8.10): key volumes drawn by
worker processes give the same bytes, stream to disk and hold no finished volume in memory; shared
art is defined once a document; the deck's compact uniqueness check decides as the full one did."""

import functools
import hashlib
import os
import re
import subprocess
import sys
import tracemalloc

import pytest

from kitgen.games.codenames import editions, key_deck, key_volumes
from kitgen.render import qr, shaping, text


def kitgen(*args, env=None):
    done = subprocess.run([sys.executable, "-m", "kitgen", *map(str, args)], capture_output=True, text=True,
                          env=env)
    assert done.returncode == 0, done.stderr
    return done


def hashes(folder):
    return {p.relative_to(folder).as_posix(): hashlib.sha256(p.read_bytes()).hexdigest()
            for p in sorted(folder.rglob("*")) if p.is_file()}


def test_volumes_are_the_same_bytes_for_any_number_of_workers_and_hash_seed(tmp_path):
    found = []
    for jobs, seed in ((1, "1"), (2, "2"), (3, "77")):
        out = tmp_path / f"jobs-{jobs}"
        kitgen("keys", "--count", 60, "--volume-pages", 4, "--jobs", jobs, "--out", out,
               env=dict(os.environ, PYTHONHASHSEED=seed))
        found.append(hashes(out))
    assert sorted(found[0]) == ["classic-en-keys-60/keys-001.pdf", "classic-en-keys-60/keys-002.pdf",
                                "classic-en-keys-60/keys-003.pdf", "classic-en-keys-60/manifest.json"]
    assert found[0] == found[1] == found[2]


def test_a_kit_is_the_same_bytes_whatever_the_hash_seed(tmp_path):
    """Forms are defined in a fixed order, never a set's, whose order changes with string hashing."""
    for seed in ("1", "2"):
        kitgen("build", "--keys", 12, "--out", tmp_path / seed, env=dict(os.environ, PYTHONHASHSEED=seed))
    assert hashes(tmp_path / "1") == hashes(tmp_path / "2")


def _peak(tmp_path, count: int) -> int:
    tracemalloc.start()
    try:
        key_volumes.build(count, "words", "flat", tmp_path / str(count), None, None, None, volume_pages=2, jobs=1)
        return tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()


def test_memory_does_not_grow_with_the_number_of_keys(tmp_path, monkeypatch):
    """Five times the keys in 12-key volumes: a finished volume's bytes and its manifest entries
    (about 6 KB a key together) are on disk, not in memory; the deck is a short string a key."""
    # the QR caches (512 entries each) fill up over the first 512 keys; made small here, they stay
    # out of the sum. A key's number label is neither fitted nor shaped through a cache.
    for module, name in ((qr, "rows"), (qr, "_mask_hex")):
        monkeypatch.setattr(module, name, functools.lru_cache(maxsize=32)(getattr(module, name).__wrapped__))
    _peak(tmp_path, 12)                        # fonts, forms' names and matrices' tables made
    small, large = _peak(tmp_path, 120), _peak(tmp_path, 600)
    assert large - small < 250_000, (small, large)


def test_key_numbers_do_not_fill_the_text_caches(tmp_path):
    """A key's number is new on every key: fitting and drawing it leaves nothing in the caches
    of fitted and shaped text (bounded at 8,192 and 4,096, they would otherwise fill a long run's
    memory, in every worker)."""
    key_volumes.build(24, "words", "numbers", tmp_path / "a", None, None, None, volume_pages=2, jobs=1)
    before = text.fit.cache_info().currsize, shaping._line.cache_info().currsize
    key_volumes.build(240, "words", "numbers", tmp_path / "b", None, None, None, volume_pages=2, jobs=1)
    after = text.fit.cache_info().currsize, shaping._line.cache_info().currsize
    assert after[0] - before[0] <= 2 and after[1] == before[1], (before, after)


def test_a_run_stopped_midway_leaves_nothing(tmp_path, monkeypatch):
    real = key_volumes._volume

    def volume(task):
        if task[0] == 2:
            raise KeyboardInterrupt
        return real(task)

    monkeypatch.setattr(key_volumes, "_volume", volume)
    with pytest.raises(KeyboardInterrupt):
        key_volumes.build(60, "words", "stop", tmp_path, None, None, None, volume_pages=4, jobs=1)
    assert list(tmp_path.iterdir()) == []


def _forms(pdf: bytes) -> list[bytes]:
    return re.findall(rb"/Subtype /Form", pdf)


@pytest.mark.parametrize("edition", ["words", "pictures"])
def test_shared_art_is_defined_once_a_document(tmp_path, edition):
    result = key_volumes.build(240, edition, "forms", tmp_path, None, None, None, jobs=1)
    data = (result.target / "keys-001.pdf").read_bytes()
    # two team backgrounds, four cell types, one back, however many keys
    assert len(_forms(data)) == 7
    assert len(set(re.findall(rb"/FormXob\.(kg[0-9a-f]{16}) ", data))) == 7      # in the pages' resources


def test_a_sheet_of_games_shares_its_keys_and_board_art(tmp_path):
    kitgen("game", "--count", 6, "--out", tmp_path)
    data = next(tmp_path.glob("*/games.pdf")).read_bytes()
    # up to two team backgrounds, four cell types and one set of board frames for all six games
    assert 6 <= len(_forms(data)) <= 7


def _reference_deck(seed, edition, count):
    """The rule as first written: every orientation of every accepted grid in a set."""
    secret = key_deck.kit_secret(seed)
    prefix = f"keys/v{key_deck.ALGORITHM_VERSION}/{edition.name}/{count}/"
    firsts = [first for first, _ in key_deck.draw(seed, edition, count)]     # the starting teams are not at issue
    from kitgen.seeded import Stream

    stream = Stream(secret, prefix + "assassin")
    cells: list[int] = []
    while len(cells) < count:
        cells += stream.shuffle(list(range(edition.cells)))
    seen, out = set(), []
    for i in range(count):
        attempt = 0
        while True:
            grid = key_deck._draw_grid(secret, prefix, i, attempt, firsts[i], cells[i], edition)
            if grid not in seen:
                break
            attempt += 1
        seen.update(key_deck.rotations(grid, edition.rotations))
        out.append((firsts[i], grid))
    return out


@pytest.mark.parametrize("edition", [editions.WORDS, editions.PICTURES])
def test_the_compact_uniqueness_check_redraws_exactly_when_the_full_one_does(edition, monkeypatch):
    """Grids drawn from the same candidates for every key, so that most draws clash with an earlier
    key or a turn of one: the two rules must accept the same grids at the same attempts."""
    real = key_deck._draw_grid
    redraws = []

    def clashing(secret, prefix, index, attempt, first, assassin, ed):
        """Every key tries the same candidates in turn, each upright and then turned."""
        grid = real(secret, prefix, attempt // 2, 0, "R", 0, ed)
        if attempt % 2:
            grid = key_deck.rotations(grid, ed.rotations)[1]
        redraws.append(attempt)
        return grid

    monkeypatch.setattr(key_deck, "_draw_grid", clashing)
    expected = _reference_deck("clash", edition, 40)
    redraws.clear()
    assert list(key_deck.draw("clash", edition, 40)) == expected
    assert max(redraws) >= 3                                        # clashes did happen


def test_installed_versions_are_importlib_metadatas():
    """The manifest's library versions, read from dist-info folders, are what importlib.metadata
    says, for every library the manifest names and for packages spelt in other ways."""
    from importlib.metadata import PackageNotFoundError, version

    from kitgen import output, versions

    names = list(output.library_versions(("networkx", "numpy"))) + ["PyYAML", "pyyaml", "Pillow", "zxing_cpp",
                                                                     "typing-extensions", "no-such-package-x"]
    for name in names:
        try:
            expected = version(name)
        except PackageNotFoundError:
            expected = None
        assert versions.installed(name) == expected, name


def _one_line(draw) -> bytes:
    import io

    from kitgen import fonts
    from kitgen.render.pdf import new_canvas

    font = fonts.register("noto-sans", 400).registered_name
    buffer = io.BytesIO()
    c = new_canvas(buffer, (600, 200), {"label": font})
    draw(c, font)
    c.showPage()
    c.save()
    return buffer.getvalue()


# escapes, and more than 256 distinct characters: reportlab splits the font into two subsets
LINES = ["(A) \\ back\\slash) ((",
         "".join(chr(c) for c in [*range(0x21, 0x7f), *range(0x400, 0x4c0), *range(0xc0, 0x180)])]


@pytest.mark.parametrize("line", LINES)
@pytest.mark.parametrize("align", ["left", "centre", "right"])
def test_plain_text_is_drawn_as_reportlab_draws_it(line, align):
    """text.draw_line writes a plain line's operators itself (text._show): the page looks the same
    and gives the same text as reportlab's drawString, drawCentredString and drawRightString."""
    import pypdfium2

    from raster import render_page

    def ours(c, font):
        text.draw_line(c, line, font, 6, 300, 100, align)

    def theirs(c, font):
        c.setFont(font, 6)
        {"left": c.drawString, "centre": c.drawCentredString, "right": c.drawRightString}[align](300, 100, line)

    a, b = _one_line(ours), _one_line(theirs)
    assert a != b                                   # not the same code path
    assert render_page(a, 0, 200).tobytes() == render_page(b, 0, 200).tobytes()
    texts = [pypdfium2.PdfDocument(pdf)[0].get_textpage().get_text_range() for pdf in (a, b)]
    assert texts[0] == texts[1] == line
