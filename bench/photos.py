"""How well `kitgen verify` reads phone photos: simulated photos (tests/photosim.py) of
key cards and whole sheets, taken by hand from above, each also with one cell repainted.

usage: python bench/photos.py [--cards N] [--sheets N] [--kits words,pictures,saver,grey] [--jobs J] [--handheld]

For each kit it builds the kit, photographs single cut cards and whole sheets with
seeded distortions, runs `verify` with the kit's manifest on each photo (saved as JPEG,
as a phone would), and prints the pass rate per distortion level. A photo passes when
every key in it is found and every cell reads as its QR says; a repainted photo must fail
on the repainted key (a pass there is a false pass). ``--handheld``: the photos of a phone held at arm's
length (photosim.HANDHELD: cards from 300 px wide, defocus to sigma 2.5 px, a shake of up to 6 px at any
angle), with the levels of issue 30. Not a test: numbers only."""

import argparse
import json
import random
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from collections import defaultdict
from multiprocessing import Pool
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent / "tests"))

KITS = {"words": [], "pictures": ["--edition", "pictures"], "saver": ["--ink", "saver"], "grey": []}
LEVELS = {
    "tilt": [(0, 10), (10, 20), (20, 30), (30, 35.01)],
    "width": [(400, 600), (600, 900), (900, 1400.01)],
    "blur": [(0, 0.5), (0.5, 1.0), (1.0, 1.51)],
    "quality": [(60, 70), (70, 80), (80, 91)],
}
HANDHELD_LEVELS = {
    "tilt": LEVELS["tilt"],
    "width": [(300, 400), (400, 600), (600, 900), (900, 1400.01)],
    "blur": [(0, 1.0), (1.0, 1.5), (1.5, 2.0), (2.0, 2.51)],
    "motion": [(0, 2), (2, 4), (4, 6.01)],
    "quality": LEVELS["quality"],
}

_state: dict = {}


def _setup(folder: str, grey: bool, handheld: bool = False):
    from kitgen.games.codenames import verify

    folder = Path(folder)
    _state.update(folder=folder, grey=grey, handheld=handheld, pages={},
                  secret=verify.load_manifest(str(folder / "manifest.json")),
                  manifest=json.loads((folder / "manifest.json").read_text()))


def _page(number: int, dpi: int):
    from raster import render_page

    key = (number, dpi)
    if key not in _state["pages"]:
        image = render_page(str(_state["folder"] / "keys.pdf"), number - 1, dpi)
        _state["pages"][key] = image.convert("L").convert("RGB") if _state["grey"] else image
    return _state["pages"][key]


def _card_box(entry, dpi, page):
    s = dpi / 72
    height = page.height / s
    x0, y0, x1, y1 = entry["card"]
    return round(x0 * s), round((height - y1) * s), round(x1 * s), round((height - y0) * s)


def _one(job):
    """(kind, seed) -> the shot's levels, passed, repainted-passed, seconds."""
    from kitgen.games.codenames import layout as layout_mod, verify
    from kitgen.games.codenames.model import layout_overlays

    import photosim

    kind, seed = job
    manifest, secret = _state["manifest"], _state["secret"]
    keys = manifest["keys"]
    rng = random.Random(seed)
    if kind == "card":
        entry = rng.choice(keys)
        dpi = 500
        page = _page(entry["page"], dpi)
        box = _card_box(entry, dpi, page)
        source = page.crop(box)
        expected = [entry]
        offset = box[:2]
    else:
        number = rng.choice(sorted({e["page"] for e in keys}))
        dpi = 300
        source = _page(number, dpi)
        expected = [e for e in keys if e["page"] == number]
        offset = (0, 0)
    card_px = _card_box(expected[0], dpi, _page(expected[0]["page"], dpi))
    shot = photosim.draw_shot(seed, source.size, card_px[2] - card_px[0],
                              frames=photosim.FRAMES if kind == "card" else photosim.FRAMES[3:],
                              profile=photosim.HANDHELD if _state["handheld"] else photosim.STEADY)
    target = expected[rng.randrange(len(expected))]
    # the repainted cell: any cell, painted as another type
    grid = "".join(target["payload"].split(":")[4].split("/"))
    index = rng.randrange(len(grid))
    other = rng.choice([k for k in "RBNA" if k != grid[index]])
    layout = layout_mod.load(secret.layout, layout_overlays(secret.ink, secret.colour))
    s = dpi / 72
    x0, y0, x1, y1 = target["cells"][index]
    height = _page(target["page"], dpi).height / s
    cell = (x0 * s - offset[0], (height - y1) * s - offset[1], x1 * s - offset[0], (height - y0) * s - offset[1])
    forged = photosim.repaint(source, cell, other, layout, layout.key_card.grid.symbol)
    if _state["grey"]:
        forged = forged.convert("L").convert("RGB")
    outcome, seconds, zbar = [], 0.0, None
    with tempfile.TemporaryDirectory() as tmp:
        for picture in (source, forged):
            path = Path(tmp) / "photo.jpg"
            path.write_bytes(photosim.take(picture, shot))
            if zbar is None and shutil.which("zbarimg"):        # the same photo, decoded by zbarimg alone
                start = time.perf_counter()
                subprocess.run(["zbarimg", "-q", "--raw", str(path)], capture_output=True)
                zbar = time.perf_counter() - start
            start = time.perf_counter()
            try:
                results, error = verify.verify(str(path), secret), []
            except Exception as err:            # noqa: BLE001 - a bench counts every failure
                results, error = [], [f"{type(err).__name__}: {err}"]
            found = {r.payload: r for r in results}
            outcome.append((all(e["payload"] in found and found[e["payload"]].ok for e in expected)
                            and len(results) == len(expected),
                            target["payload"] in found and found[target["payload"]].ok,
                            error + [p for r in results for p in r.problems][:2]
                            + ([f"{len(results)} of {len(expected)} found"] if len(results) != len(expected) else [])))
            seconds += (time.perf_counter() - start) / 2
    genuine, forged_result = outcome[-2], outcome[-1]
    levels = {"tilt": shot.tilt, "width": shot.width * (card_px[2] - card_px[0]) / source.size[0],
              "blur": shot.blur, "motion": shot.motion, "quality": shot.quality}
    return kind, seed, levels, genuine[0], forged_result[1], genuine[2], seconds, zbar


def bucket(name, value, levels=LEVELS):
    for lo, hi in levels[name]:
        if lo <= value < hi:
            return f"{lo:g}-{round(hi, 1):g}"
    return "other"


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--cards", type=int, default=120)
    parser.add_argument("--sheets", type=int, default=40)
    parser.add_argument("--kits", default="words,pictures,saver,grey")
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--show", type=int, default=5, help="failures to print per kit")
    parser.add_argument("--handheld", action="store_true", help="photos at arm's length (photosim.HANDHELD)")
    args = parser.parse_args()

    with tempfile.TemporaryDirectory() as tmp:
        for name in args.kits.split(","):
            out = Path(tmp) / name
            subprocess.run([sys.executable, "-m", "kitgen", "build", "--out", str(out), *KITS[name]], check=True,
                           capture_output=True)
            folder = next(out.iterdir())
            jobs = [("card", seed) for seed in range(args.cards)] + \
                   [("sheet", 100_000 + seed) for seed in range(args.sheets)]
            start = time.perf_counter()
            with Pool(args.jobs, initializer=_setup, initargs=(str(folder), name == "grey", args.handheld)) as pool:
                rows = pool.map(_one, jobs, chunksize=1)
            report(name, rows, time.perf_counter() - start, args.show, HANDHELD_LEVELS if args.handheld else LEVELS)


def report(name, rows, seconds, show, levels=LEVELS):
    print(f"\n== {name}: {len(rows)} photos, each also with a repainted cell, in {seconds:.0f} s")
    for kind in ("card", "sheet"):
        mine = [r for r in rows if r[0] == kind]
        if not mine:
            continue
        passed = sum(r[3] for r in mine)
        false = sum(r[4] for r in mine)
        print(f"  {kind}s: {passed}/{len(mine)} verified ({100 * passed / len(mine):.1f} %), "
              f"false passes {false}/{len(mine)}, {sum(r[6] for r in mine) / len(mine):.2f} s per verify")
        zbar = [r[7] for r in mine if r[7] is not None]
        if zbar:
            ours = statistics.median(r[6] for r in mine)
            print(f"    median time: verify {ours:.3f} s (in process), zbarimg {statistics.median(zbar):.3f} s "
                  f"(its own process, decoding only): {ours / statistics.median(zbar):.2f}x")
        for level in levels:
            counts = defaultdict(lambda: [0, 0])
            for r in mine:
                b = bucket(level, r[2][level], levels)
                counts[b][0] += r[3]
                counts[b][1] += 1
            cells = "  ".join(f"{b}: {p}/{n}" for b, (p, n) in sorted(counts.items(), key=lambda i: float(
                i[0].split("-")[0]) if i[0] != "other" else 1e9))
            print(f"    {level:<8} {cells}")
        for r in [r for r in mine if not r[3]][:show]:
            print(f"    FAIL seed {r[1]}: tilt {r[2]['tilt']:.0f}, card {r[2]['width']:.0f} px, "
                  f"blur {r[2]['blur']:.1f}, shake {r[2]['motion']:.1f} px: {r[5]}")


if __name__ == "__main__":
    main()
