"""Benchmark: kitgen against the hand-written baselines and its own targets, in one invocation.

usage: python bench/run.py [--runs N] [--kit-runs N] [--keys N] [--readme]

Prints, for every speed target of issue 15, kitgen's figure, what it is measured
against, the ratio and whether the target is met; times are the best of ``--runs``
runs (default 3; the four kit builds -- the baseline kit, English, Persian, pictures --
the best of ``--kit-runs`` rounds, default 5, run in turn) and the spread of those
runs is printed beside them, so the noise of the machine shows. Peak memory is the
whole process tree's (a worker's pages count once: the sum of each process's
proportional set size, sampled every 20 ms), taken in runs of their own: reading
a process's memory slows it, so timed runs are never sampled.
Builds use the machine's kitgen cache (cut fonts, pictures), warm after the
first run, as a user's is; the first build of a picture deck (an empty picture
cache) and of anything on a new machine (an empty cache) are measured apart.
``--readme`` also rewrites the performance table of docs/reference/performance.md (the site's page
that was README's section) from the figures. Not a test: numbers only (tests never time anything).

Before measuring, kitgen's modules are byte-compiled, as ``pip install`` does for an
installed package: a machine with PYTHONDONTWRITEBYTECODE set would otherwise compile
them on every run, a cost no installed kitgen has (the baselines' libraries are
byte-compiled by their installs too)."""

import argparse
import compileall
import hashlib
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
PY = sys.executable

# Before issue 15 (commit 4522a6c, this machine): the figures the targets compare sizes with.
BEFORE_KEYS_BYTES = {10_000: 23_152_156}          # keys-*.pdf of `kitgen keys --count 10000`, all volumes
BEFORE_KIT_KEYS_PDF = 105_731                      # keys.pdf of the default kit


@dataclass
class Run:
    seconds: float          # best of the runs
    spread: tuple[float, float]
    peak_mb: float          # the process tree's peak (largest over the runs)


def _tree(pid: int) -> list[int]:
    out, todo = [], [pid]
    while todo:
        p = todo.pop()
        out.append(p)
        try:
            with open(f"/proc/{p}/task/{p}/children") as handle:
                todo += [int(c) for c in handle.read().split()]
        except OSError:
            pass
    return out


def _pss_kb(pid: int) -> int:
    try:
        with open(f"/proc/{pid}/smaps_rollup") as handle:
            for line in handle:
                if line.startswith("Pss:"):
                    return int(line.split()[1])
    except OSError:
        pass
    return 0


def once(cmd, env=None, sample=False) -> tuple[float, float]:
    """Seconds and the tree's peak memory (MB) of one run of ``cmd``."""
    cmd = [str(part) for part in cmd]
    with tempfile.TemporaryFile() as errors:
        start = time.perf_counter()
        proc = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=errors, env=env, cwd=ROOT)
        peak = 0
        while proc.poll() is None:
            if sample:
                peak = max(peak, sum(_pss_kb(p) for p in _tree(proc.pid)))
            time.sleep(0.02)
        seconds = time.perf_counter() - start
        if proc.returncode:
            errors.seek(0)
            raise SystemExit(f"failed: {' '.join(cmd)}\n{errors.read().decode()}")
    return seconds, peak / 1024


def best(cmd, runs: int, env=None, sample=False) -> Run:
    results = [once(cmd, env, sample) for _ in range(runs)]
    times = [r[0] for r in results]
    return Run(min(times), (min(times), max(times)), max(r[1] for r in results))


def interleaved(commands, runs: int) -> list[Run]:
    """Each of ``commands`` run ``runs`` times, one of each per round."""
    results = [[] for _ in commands]
    for _ in range(runs):
        for found, cmd in zip(results, commands):
            found.append(once(cmd))
    return [Run(min(t for t, _ in found), (min(t for t, _ in found), max(t for t, _ in found)),
                max(m for _, m in found)) for found in results]


def kitgen(*args) -> list[str]:
    return [PY, "-m", "kitgen", *map(str, args)]


def font_cache() -> Path:
    """The font cache kitgen uses here (its cut fonts are copied into a fresh cache)."""
    sys.path.insert(0, str(ROOT))
    from kitgen import fonts

    return fonts.cache_dir()


def folder_bytes(folder: Path, pattern: str) -> int:
    return sum(p.stat().st_size for p in folder.glob(pattern))


def hashes(folder: Path) -> dict:
    return {p.name: hashlib.sha256(p.read_bytes()).hexdigest() for p in sorted(folder.iterdir())}


def noise(run: Run) -> str:
    low, high = run.spread
    return f"{low:.2f}-{high:.2f} s"


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--runs", type=int, default=3, help="runs of each timing; the best counts")
    parser.add_argument("--kit-runs", type=int, default=5, help="rounds of the four kit builds (they are short)")
    parser.add_argument("--keys", type=int, default=10_000, help="key cards of the big run")
    parser.add_argument("--readme", action="store_true",
                        help="rewrite the performance table of docs/reference/performance.md")
    args = parser.parse_args()
    compileall.compile_dir(str(ROOT / "kitgen"), quiet=1)
    runs, n = args.runs, args.keys
    rows = []           # (what, against, kitgen, ratio, target, met, noise)

    def row(what, against, ours, ratio, target, met, spread=""):
        rows.append((what, against, ours, ratio, target, "yes" if met else "**no**", spread))
        print(f"{what}: {ours} against {against}: {ratio} (target {target}) {'met' if met else 'NOT MET'}"
              + (f"  [runs {spread}]" if spread else ""), flush=True)

    with tempfile.TemporaryDirectory() as tmp:
        tmp = Path(tmp)
        base = best([PY, HERE / "baseline.py", n, tmp / "baseline.pdf"], runs)
        keys = best(kitgen("keys", "--count", n, "--out", tmp / "k2"), runs)
        keys.peak_mb = once(kitgen("keys", "--count", n, "--out", tmp / "k2"), sample=True)[1]
        serial = best(kitgen("keys", "--count", n, "--jobs", 1, "--out", tmp / "k1"), runs)
        row(f"`kitgen keys --count {n}` (both cores)", f"baseline {base.seconds:.1f} s", f"{keys.seconds:.1f} s",
            f"{keys.seconds / base.seconds:.2f}x", "<= 0.30x", keys.seconds / base.seconds <= 0.3,
            f"{noise(keys)}; baseline {noise(base)}")
        row(f"`kitgen keys --count {n} --jobs 1`", f"baseline {base.seconds:.1f} s", f"{serial.seconds:.1f} s",
            f"{serial.seconds / base.seconds:.2f}x", "(one core, for reference)", True, noise(serial))
        folder = next((tmp / "k2").iterdir())
        same = hashes(folder) == hashes(next((tmp / "k1").iterdir()))
        row("the same bytes with 1 and 2 workers", "--jobs 1", "all files" if same else "differ", "-", "identical",
            same)
        row(f"peak memory, {n} keys (both cores)", "-", f"{keys.peak_mb:.0f} MB", "-", "<= 120 MB",
            keys.peak_mb <= 120)
        small = best(kitgen("keys", "--count", 5000, "--out", tmp / "m"), 1, sample=True)
        large = best(kitgen("keys", "--count", 20000, "--out", tmp / "m"), 1, sample=True)
        row("peak memory, 20,000 keys against 5,000", f"{small.peak_mb:.0f} MB", f"{large.peak_mb:.0f} MB",
            f"{large.peak_mb / small.peak_mb:.2f}x", "<= 1.10x (flat)", large.peak_mb <= 1.1 * small.peak_mb)
        # issue 30: the keys just made, verified from the kit's folder (its manifest's places), both cores
        check = best(kitgen("verify", folder), runs)
        check.peak_mb = once(kitgen("verify", folder), sample=True)[1]
        row(f"`kitgen verify` of those {n} keys (both cores)", f"making them {keys.seconds:.1f} s",
            f"{check.seconds:.1f} s", f"{check.seconds / keys.seconds:.1f}x", "<= 10x",
            check.seconds <= 10 * keys.seconds, noise(check))
        row(f"peak memory, verifying {n} keys", "-", f"{check.peak_mb:.0f} MB", "-", "<= 300 MB",
            check.peak_mb <= 300)
        size = folder_bytes(folder, "keys-*.pdf")
        if n in BEFORE_KEYS_BYTES:
            row(f"keys PDFs, {n} keys", f"{BEFORE_KEYS_BYTES[n] / 1e6:.1f} MB before", f"{size / 1e6:.1f} MB",
                f"{size / BEFORE_KEYS_BYTES[n]:.2f}x", "<= 1.00x", size <= BEFORE_KEYS_BYTES[n])

        # the kits are measured in turn, round after round, so that a slow spell of the machine
        # falls on all of them alike rather than on whichever ran then
        kit_base, english, persian, pictures = interleaved(
            [[PY, HERE / "baseline_kit.py", tmp / "baseline-kit"], kitgen("build", "--out", tmp / "en"),
             kitgen("build", "--lang", "fa", "--out", tmp / "fa"),
             kitgen("build", "--edition", "pictures", "--out", tmp / "pic")], args.kit_runs)
        row("the default words kit (five PDFs)", f"baseline {kit_base.seconds:.2f} s", f"{english.seconds:.2f} s",
            f"{english.seconds / kit_base.seconds:.2f}x", "<= 1.00x", english.seconds <= kit_base.seconds,
            f"{noise(english)}; baseline {noise(kit_base)}")
        kit_keys = (tmp / "en" / "classic-en" / "keys.pdf").stat().st_size
        row("the default kit's keys.pdf", f"{BEFORE_KIT_KEYS_PDF / 1e3:.0f} KB before", f"{kit_keys / 1e3:.0f} KB",
            f"{kit_keys / BEFORE_KIT_KEYS_PDF:.2f}x", "<= 1.00x", kit_keys <= BEFORE_KIT_KEYS_PDF)
        row("the Persian kit (`--lang fa`)", f"English {english.seconds:.2f} s", f"{persian.seconds:.2f} s",
            f"{persian.seconds / english.seconds:.2f}x", "<= 1.50x", persian.seconds <= 1.5 * english.seconds,
            noise(persian))
        row("the pictures kit (`--edition pictures`)", f"English {english.seconds:.2f} s",
            f"{pictures.seconds:.2f} s", f"{pictures.seconds / english.seconds:.2f}x", "<= 1.50x",
            pictures.seconds <= 1.5 * english.seconds, noise(pictures))
        fresh = []                 # an empty picture cache (the fonts already cut): a deck's first build
        for i in range(runs):
            cache = tmp / f"pictures-cache-{i}"
            shutil.copytree(font_cache(), cache / "fonts")
            fresh.append(once(kitgen("build", "--edition", "pictures", "--out", tmp / "pic"),
                              dict(os.environ, KITGEN_CACHE=str(cache)))[0])
        row("the pictures kit, its first build (empty picture cache)", f"English {english.seconds:.2f} s",
            f"{min(fresh):.2f} s", f"{min(fresh) / english.seconds:.2f}x", "(once per deck, for reference)", True,
            f"{min(fresh):.2f}-{max(fresh):.2f} s")
        games = best(kitgen("game", "--count", 1000, "--format", "pdf", "--out", tmp / "g"), runs)
        per_game = games.seconds / 1000 * 1000
        games_pdf = next((tmp / "g").glob("*/games.pdf")).stat().st_size
        row("`kitgen game --count 1000 --format pdf`, per game", "-",
            f"{per_game:.1f} ms, {games_pdf / 1000 / 1000:.1f} KB", "-", "<= 3 ms", per_game <= 3, noise(games))

        colds = [once(kitgen("build", "--out", tmp / "cold"),
                      dict(os.environ, KITGEN_CACHE=str(tmp / f"cache-{i}")))[0] for i in range(runs)]
        warm = best(kitgen("build", "--out", tmp / "cold"), runs, dict(os.environ, KITGEN_CACHE=str(tmp / "cache-0")))
        print(f"first build on a new machine (empty font cache): {min(colds):.2f} s, then {warm.seconds:.2f} s, "
              f"ratio {min(colds) / warm.seconds:.2f}")
        help_run = best(kitgen("--help"), 5)
        print(f"kitgen --help: {help_run.seconds:.3f} s")

    table = ["| what | against | kitgen | ratio | target | met | runs (min-max) |", "|---|---|---|---|---|---|---|"]
    table += ["| " + " | ".join(r) + " |" for r in rows]
    table += ["", f"The first build on a new machine (an empty font cache: the bold is cut) takes {min(colds):.2f} s "
              f"against {warm.seconds:.2f} s for the next; `kitgen --help` takes {help_run.seconds:.2f} s."]
    print("\n" + "\n".join(table))
    if args.readme:
        readme = ROOT / "docs" / "reference" / "performance.md"
        text = readme.read_text(encoding="utf-8")
        block = "<!-- bench:start -->\n" + "\n".join(table) + "\n<!-- bench:end -->"
        text, count = re.subn(r"<!-- bench:start -->.*?<!-- bench:end -->", lambda _: block, text, flags=re.S)
        if count != 1:
            raise SystemExit("docs/reference/performance.md has no <!-- bench:start --> ... <!-- bench:end --> block")
        readme.write_text(text, encoding="utf-8")
        print("docs/reference/performance.md: performance table rewritten")


if __name__ == "__main__":
    main()
