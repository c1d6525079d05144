"""Pictures of the deduction game's things (issue 26, point 9; docs/design.md §10.6): one picture for
every suspect, crime and location, no two the same in a theme, recorded once in the manifest with
the SHA-256 of its bytes; the card, the evidence card, the tile, the board and the notepad all draw
that one (the drawing log of kitgen/games/deduction/pictures.py, and the pictures' colours read
back from the rasters); the same theme gives the same bytes; a teacher's theme without pictures
gets generated ones; a theme's own picture file is used; a bad one is refused in one line."""

import hashlib
import io
import subprocess
import sys

import numpy as np
import pytest
import yaml

from kitgen.games.deduction import build, pictures, theme as theme_mod
from kitgen.games.deduction.render import portraits

KINDS = ("suspects", "crimes", "locations")
# what draws each kind's picture: suspects and crimes are dealt on tiles, locations stand on the board
DRAWERS = {"suspects": {"card", "evidence", "tile", "notepad"}, "crimes": {"card", "evidence", "tile", "notepad"},
           "locations": {"card", "evidence", "board", "notepad"}}


def built(lang: str, players: int, theme_path=None):
    """(files by name, manifest, drawing log) of a kit built in this process."""
    pictures.log = []
    try:
        files, manifest = build.build_files(build.load(theme_path, lang if theme_path is None else None, players))
        return {f.name: f.data for f in files}, manifest, pictures.log
    finally:
        pictures.log = None


@pytest.fixture(scope="module", params=[("en", 2), ("ru", 5)], ids=["en-2", "ru-5"])
def kit(request):
    lang, players = request.param
    return (lang, *built(lang, players))


def test_every_thing_has_one_picture_of_its_own_recorded_once(kit):
    lang, _, manifest, _ = kit
    theme = theme_mod.load(theme_mod.resolve(None, lang))
    records = manifest["pictures"]
    things = [(kind[:-1], e.name) for kind in KINDS for e in getattr(theme, kind)]
    assert [(r["kind"], r["name"]) for r in records] == things           # once each, in the theme's order
    assert len({r["sha256"] for r in records}) == len(records)           # distinct within the theme
    data = yaml.safe_load(theme_mod.resolve(None, lang).read_text("utf-8"))
    for r in records:
        if r["kind"] == "suspect":                                       # the theme names none: drawn by kitgen
            assert r["source"] == f"generated:{portraits.ALGORITHM}"
        else:                                                            # chosen by hand in the theme
            entry = next(e for e in data[r["kind"] + "s"] if e["name"] == r["name"])
            assert r["source"] == "icon:" + entry["picture"].replace(":", "/")
            reference, svg = pictures.kernel.icon(entry["picture"], "t", None)
            assert r["sha256"] == hashlib.sha256(svg).hexdigest()
    assert "py-phosphor-icons" in manifest["libraries"] and "svglib" in manifest["libraries"]


def test_every_component_draws_the_one_picture(kit):
    _, _, manifest, log = kit
    recorded = {(r["kind"] + "s", r["name"]): r["sha256"] for r in manifest["pictures"]}
    drawn: dict = {}
    for component, kind, name, digest in log:
        assert digest == recorded[(kind, name)], (component, kind, name)   # never another picture
        drawn.setdefault((kind, name), set()).add(component)
    for (kind, name) in recorded:
        assert drawn[(kind, name)] == DRAWERS[kind], (kind, name)


def test_the_portraits_differ_at_a_glance_and_print_in_black_and_white(kit):
    lang, _, manifest, _ = kit
    theme = theme_mod.load(theme_mod.resolve(None, lang))
    taken: set = set()
    shown = [portraits.portrait(theme.id, e.name, taken) for e in theme.suspects]
    assert len(taken) == len(theme.suspects)                # no two share hair or hat, colours, glasses, face
    suspects = [r for r in manifest["pictures"] if r["kind"] == "suspect"]
    assert [hashlib.sha256(s).hexdigest() for s in shown] == [r["sha256"] for r in suspects]
    for svg in shown:
        assert b"opacity" not in svg and b"href" not in svg                # nothing PDF/X-1a refuses
        assert svg.count(portraits.INK.encode()) > 10                      # outlined: reads without colour


def test_the_same_theme_gives_the_same_pictures_and_pdfs():
    first, m1, _ = built("en", 3)
    second, m2, _ = built("en", 3)
    assert m1["pictures"] == m2["pictures"]
    for name in ("cards.pdf", "tiles.pdf", "board.pdf", "notepad.pdf"):
        assert first[name] == second[name], name


def _raster(pdf: bytes, page: int = 0, dpi: int = 100):
    import pypdfium2 as pdfium

    document = pdfium.PdfDocument(pdf)
    return document[page].render(scale=dpi / 72).to_pil().convert("RGB")


def test_the_portrait_is_printed_on_card_tile_and_notepad():
    """A portrait's own colours (backdrop and clothes) are on the first page of the cards, the tiles
    and the notepad, where the old emblems had only the deck's colour."""
    files, manifest, _ = built("en", 2)
    theme = theme_mod.load(theme_mod.resolve(None, "en"))
    f = portraits.features(portraits.seed_of(theme.id, theme.suspects[0].name))
    wanted = tuple(int(f["backdrop"][i:i + 2], 16) for i in (1, 3, 5))
    for name in ("cards.pdf", "tiles.pdf", "notepad.pdf"):
        pixels = np.asarray(_raster(files[name], dpi=150), dtype=int)
        near = int((np.abs(pixels - np.array(wanted)).max(axis=2) <= 6).sum())
        assert near > 20, name


TEACHER = """game: deduction
id: forum
name: The Forum Mystery
suspects: [Brutus, Cassius, Casca, Cinna, Portia]
crimes: [Forgery, {name: Bribery, picture: "phosphor:coins"}, Arson, Theft]
locations:
  - {name: Senate, at: [0.3, 0.2]}
  - {name: Forum, at: [0.7, 0.2]}
  - {name: Temple, picture: "phosphor:bank"}
  - {name: Baths}
  - {name: Market}
  - {name: Harbour}
roads: [[Senate, Forum], [Forum, Temple], [Temple, Baths], [Baths, Market], [Market, Senate], [Market, Harbour],
        [Harbour, Temple]]
"""


def test_a_teachers_theme_without_pictures_gets_distinct_generated_ones(tmp_path):
    (tmp_path / "forum.yaml").write_text(TEACHER)
    _, manifest, log = built(None, 2, str(tmp_path / "forum.yaml"))
    records = {r["name"]: r for r in manifest["pictures"]}
    assert len(records) == 15 and len({r["sha256"] for r in records.values()}) == 15
    assert records["Bribery"]["source"] == "icon:phosphor/coins" and records["Temple"]["source"] == "icon:phosphor/bank"
    chosen = [r["source"] for r in records.values() if r["kind"] != "suspect"]
    assert len(set(chosen)) == len(chosen) and all(s.startswith("icon:phosphor/") for s in chosen)
    suspects = ("Brutus", "Cassius", "Casca", "Cinna", "Portia")
    assert all(records[n]["source"] == f"generated:{portraits.ALGORITHM}" for n in suspects)
    assert {c for c, kind, name, _ in log if name == "Brutus"} == DRAWERS["suspects"]
    again = pictures.resolve(theme_mod.load(tmp_path / "forum.yaml"))
    assert [d.sha256 for d in again] == [r["sha256"] for r in manifest["pictures"]]   # deterministic


def _png(colour) -> bytes:
    from PIL import Image

    buffer = io.BytesIO()
    Image.new("RGB", (300, 300), colour).save(buffer, format="PNG")
    return buffer.getvalue()


def test_a_theme_naming_a_picture_file_uses_it(tmp_path):
    png = _png((12, 200, 40))
    (tmp_path / "pics").mkdir()
    (tmp_path / "pics" / "brutus.png").write_bytes(png)
    (tmp_path / "forum.yaml").write_text(TEACHER.replace("suspects: [Brutus,",
                                                          "suspects: [{name: Brutus, picture: pics/brutus.png},"))
    files, manifest, log = built(None, 2, str(tmp_path / "forum.yaml"))
    brutus = next(r for r in manifest["pictures"] if r["name"] == "Brutus")
    assert brutus["source"] == "file" and brutus["sha256"] == hashlib.sha256(png).hexdigest()
    assert {c for c, _, name, digest in log if name == "Brutus" and digest == brutus["sha256"]} == DRAWERS["suspects"]
    pixels = np.asarray(_raster(files["tiles.pdf"], dpi=100), dtype=int)
    assert int((pixels == (12, 200, 40)).all(axis=2).sum()) > 50         # the file's own colour, on the tile


@pytest.mark.parametrize("content, message", [
    (b"not a picture at all", "is not a readable PNG or JPEG image"),
    (None, "not found"),
])
def test_a_bad_picture_file_is_refused_in_one_line(tmp_path, content, message):
    if content is not None:
        (tmp_path / "bad.png").write_bytes(content)
    (tmp_path / "forum.yaml").write_text(TEACHER.replace("Arson,", "{name: Arson, picture: bad.png},"))
    out = subprocess.run([sys.executable, "-m", "kitgen", "build", "forum.yaml", "--players", "2", "--out", "o"],
                         cwd=tmp_path, capture_output=True, text=True)
    assert out.returncode == 2, out.stderr
    lines = out.stderr.strip().splitlines()
    assert len(lines) == 1 and "forum.yaml:5" in lines[0] and "bad.png" in lines[0], out.stderr
    assert "Traceback" not in out.stderr and not (tmp_path / "o").exists()


@pytest.mark.parametrize("lang, credit", [("en", "pictograms: Phosphor Icons"), ("ru", "значки Phosphor")])
def test_the_icon_set_is_credited_in_the_rules(lang, credit):
    files, _, _ = built(lang, 2)
    text = subprocess.run(["pdftotext", "-", "-"], input=files["rules.pdf"], capture_output=True).stdout.decode()
    text = " ".join(text.split())
    assert credit in text and pictures.icon_set_version() in text and "MIT" in text


def test_a_theme_giving_two_things_the_same_picture_is_refused(tmp_path):
    (tmp_path / "forum.yaml").write_text(TEACHER.replace("Arson,", '{name: Arson, picture: "phosphor:coins"},'))
    out = subprocess.run([sys.executable, "-m", "kitgen", "build", "forum.yaml", "--players", "2", "--out", "o"],
                         cwd=tmp_path, capture_output=True, text=True)
    lines = out.stderr.strip().splitlines()
    assert out.returncode == 2 and len(lines) == 1, out.stderr
    assert "forum.yaml:5" in lines[0] and "'Arson' has the same picture as 'Bribery'" in lines[0], out.stderr
