"""Refresh decks/openmoji/ from an OpenMoji release: the colour SVG of every drawing the built-in
scenes deck names, verbatim, with their SHA-256 (SHA256SUMS: `sha256sum -c SHA256SUMS` checks them), the
set's licence, and the index (sources.json, a drawing a line) that kitgen's composer reads (docs/design.md
§8.14). Nothing here runs in a build; it is how the folder was made:

    npm pack openmoji@17.0.0 && tar xzf openmoji-17.0.0.tgz
    python tools/openmoji_sources.py package decks/scenes-en.yaml decks/openmoji

Each drawing is known in the deck by its slug (its OpenMoji annotation in lower case, words joined
by '-'); its ink box (the bounds svglib gives, widened by half of OpenMoji's 2-unit line) is what
the composer places it by."""

import hashlib
import io
import json
import re
import shutil
import sys
from pathlib import Path

import yaml


def slug(annotation: str) -> str:
    return re.sub(r"[^a-z0-9]+", "-", annotation.lower()).strip("-")


def ink_box(data: bytes) -> list[float]:
    """The drawing's ink box in its own user units (svglib's bounds taken back through the page
    transform it adds), widened by half of OpenMoji's 2-unit line."""
    from svglib.svglib import svg2rlg

    drawing = svg2rlg(io.BytesIO(data))
    x0, y0, x1, y1 = drawing.getBounds()
    a, b, c, d, e, f = drawing.contents[0].transform
    assert b == c == 0, "a drawing's page transform is a scale and a shift"
    xs = sorted(((x0 - e) / a, (x1 - e) / a))
    ys = sorted(((y0 - f) / d, (y1 - f) / d))
    return [round(v, 3) for v in (xs[0] - 1, ys[0] - 1, xs[1] + 1, ys[1] + 1)]


def main(package: Path, deck: Path, folder: Path) -> None:
    meta = json.loads((package / "package.json").read_text())
    emoji = {}
    for entry in json.loads((package / "data" / "openmoji.json").read_text()):
        if not entry["skintone"] and not entry["skintone_combination"]:
            emoji.setdefault(slug(entry["annotation"]), entry)
    used = sorted({p[k] for p in yaml.safe_load(deck.read_text())["pictures"] for k in ("a", "b")})
    folder.mkdir(parents=True, exist_ok=True)
    for old in folder.glob("*.svg"):
        old.unlink()
    drawings, sums = {}, []
    for name in used:
        entry = emoji[name]
        data = (package / "color" / "svg" / f"{entry['hexcode']}.svg").read_bytes()
        # transparency asks PDF for a named graphics state: no --pdfx build, no stored operators
        assert b"opacity" not in data, f"{name} has transparency; choose another drawing"
        (folder / f"{entry['hexcode']}.svg").write_bytes(data)
        drawings[name] = {"code": entry["hexcode"], "author": entry["openmoji_author"], "box": ink_box(data)}
        sums.append(f"{hashlib.sha256(data).hexdigest()}  {entry['hexcode']}.svg\n")
    shutil.copyfile(package / "LICENSE.txt", folder / "LICENSE.txt")
    (folder / "SHA256SUMS").write_text("".join(sorted(sums, key=lambda line: line.split()[1])))
    head = {"set": "OpenMoji", "version": meta["version"], "licence": "CC BY-SA 4.0", "home": "https://openmoji.org"}
    lines = [f"  {json.dumps(k)}: {json.dumps(v)},\n" for k, v in head.items()]
    rows = [f"    {json.dumps(name)}: {json.dumps(d, ensure_ascii=False)}" for name, d in drawings.items()]
    (folder / "sources.json").write_text("{\n" + "".join(lines) + '  "drawings": {\n' + ",\n".join(rows) + "\n  }\n}\n",
                                         encoding="utf-8")
    print(f"{len(drawings)} drawings into {folder}")


if __name__ == "__main__":
    main(Path(sys.argv[1]), Path(sys.argv[2]), Path(sys.argv[3]))
