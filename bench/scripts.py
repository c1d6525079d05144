"""Benchmark: the kits of the shaped scripts against the English kit, in one invocation (issue 28).

usage: python bench/scripts.py [--runs N] [--langs ja,hi,...]

Builds the English kit and each language's kit in turn, round after round (so that a slow spell of
the machine falls on all alike), with the machine's warm font cache; prints each language's best
time and its ratio to English (target: at most 1.5x for Japanese and Hindi). Then each language's
first build on a new machine (an empty font cache: its fonts are cut, a CJK font cut down to the
kit's characters) against its warm build (target: at most 5x), and the size of the fonts embedded in
its codenames.pdf (subsets, not whole fonts). Not a test: numbers only."""

import argparse
import compileall
import os
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

from run import best, interleaved, kitgen, once  # noqa: E402  (the bench's own helpers)


def embedded_fonts(pdf: Path) -> tuple[int, int]:
    """How many fonts codenames.pdf embeds, and their bytes."""
    import pikepdf

    count = size = 0
    with pikepdf.open(pdf) as document:
        seen = set()
        for page in document.pages:
            for font in page.Resources.get("/Font", {}).values():
                stream = font.FontDescriptor.FontFile2
                if stream.objgen not in seen:
                    seen.add(stream.objgen)
                    count += 1
                    size += len(stream.read_raw_bytes())
    return count, size


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--runs", type=int, default=5, help="rounds of the kit builds; the best counts")
    parser.add_argument("--langs", default="ja,hi,zh,ko,th,he,ar")
    args = parser.parse_args()
    langs = args.langs.split(",")
    compileall.compile_dir(str(HERE.parent / "kitgen"), quiet=1)      # as an installed kitgen is (bench/run.py)
    with tempfile.TemporaryDirectory() as tmp:
        tmp = Path(tmp)
        for lang in ["en"] + langs:            # the warm cache: every font cut once
            once(kitgen("build", "--lang", lang, "--out", tmp / lang))
        runs = interleaved([kitgen("build", "--lang", lang, "--out", tmp / lang) for lang in ["en"] + langs],
                           args.runs)
        english = runs[0]
        print(f"English kit: {english.seconds:.2f} s (runs {english.spread[0]:.2f}-{english.spread[1]:.2f} s)")
        rows = []
        for lang, run in zip(langs, runs[1:]):
            count, size = embedded_fonts(next((tmp / lang).iterdir()) / "codenames.pdf")
            cold = min(once(kitgen("build", "--lang", lang, "--out", tmp / f"cold-{lang}"),
                            dict(os.environ, KITGEN_CACHE=str(tmp / f"cache-{lang}-{i}")))[0] for i in range(2))
            warm = best(kitgen("build", "--lang", lang, "--out", tmp / f"cold-{lang}"), 2,
                        dict(os.environ, KITGEN_CACHE=str(tmp / f"cache-{lang}-0")))
            rows.append(f"| {lang} | {run.seconds:.2f} s | {run.seconds / english.seconds:.2f}x | {cold:.2f} s | "
                        f"{cold / warm.seconds:.2f}x | {count} subsets, {size / 1024:.0f} KiB |")
            print(rows[-1], flush=True)
        print("\n| language | warm build | against English | first build (empty cache) | against its warm build "
              "| fonts in codenames.pdf |\n|---|---|---|---|---|---|\n" + "\n".join(rows))


if __name__ == "__main__":
    main()
