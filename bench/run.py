"""Benchmark: kitgen against the hand-written baseline, in one invocation.

usage: python bench/run.py [--keys N] [--big N]
Prints the seconds of each, the ratio kitgen / baseline, the peak memory of a
big key deck, how much slower the first build on a new machine is (an empty
font cache) than the next, and how long `kitgen --help` takes. Not a test:
numbers only."""

import argparse
import os
import subprocess
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent


PROBE = ("import resource, subprocess, sys, time; t = time.perf_counter(); "
         "subprocess.run(sys.argv[1:], check=True, capture_output=True); "
         "print(time.perf_counter() - t, resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)")


def timed(cmd, env=None) -> tuple[float, int]:
    """Seconds and peak memory (MB) of a command, measured by a fresh parent so
    that the peak is this command's alone."""
    out = subprocess.run([sys.executable, "-c", PROBE, *cmd], check=True, capture_output=True, text=True,
                         env=env).stdout
    seconds, peak_kb = out.split()
    return float(seconds), int(peak_kb) // 1024


def best(cmd, runs=3, env=None) -> tuple[float, int]:
    results = [timed(cmd, env) for _ in range(runs)]
    return min(r[0] for r in results), max(r[1] for r in results)


def cold_and_warm(py, tmp, runs=3) -> tuple[float, float]:
    """The default build with an empty font cache (a new machine: the bold is cut) and with
    a warm one, best of ``runs`` each, in caches of their own (never the user's)."""
    colds = []
    for i in range(runs):
        env = dict(os.environ, KITGEN_CACHE=f"{tmp}/cold-cache-{i}")
        colds.append(timed([py, "-m", "kitgen", "build", "--out", f"{tmp}/cold"], env)[0])
    warm, _ = best([py, "-m", "kitgen", "build", "--out", f"{tmp}/cold"], runs,
                   dict(os.environ, KITGEN_CACHE=f"{tmp}/cold-cache-0"))
    return min(colds), warm


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--keys", type=int, default=480, help="key cards for the ratio")
    parser.add_argument("--big", type=int, default=10_000, help="key cards for the memory run (0: skip)")
    args = parser.parse_args()
    py = sys.executable
    with tempfile.TemporaryDirectory() as tmp:
        base, _ = best([py, str(HERE / "baseline.py"), str(args.keys), f"{tmp}/baseline.pdf"])
        ours, _ = best([py, "-m", "kitgen", "keys", "--count", str(args.keys), "--out", tmp])
        print(f"key cards x{args.keys}: baseline {base:.2f} s, kitgen {ours:.2f} s, ratio {ours / base:.2f}")
        kit_base, _ = best([py, str(HERE / "baseline_kit.py"), f"{tmp}/baseline-kit"])
        kit, kit_mb = best([py, "-m", "kitgen", "build", "--out", tmp])
        print(f"default words kit (five PDFs): baseline {kit_base:.2f} s, kitgen {kit:.2f} s, "
              f"ratio {kit / kit_base:.2f}, kitgen peak {kit_mb} MB")
        if args.big:
            big_base, _ = timed([py, str(HERE / "baseline.py"), str(args.big), f"{tmp}/big.pdf"])
            big, big_mb = timed([py, "-m", "kitgen", "keys", "--count", str(args.big), "--out", tmp])
            print(f"key cards x{args.big}: baseline {big_base:.1f} s, kitgen {big:.1f} s, "
                  f"ratio {big / big_base:.2f}, kitgen peak memory {big_mb} MB")
        cold, warm = cold_and_warm(py, tmp)
        print(f"first build on a new machine (empty font cache): {cold:.2f} s, then {warm:.2f} s, "
              f"ratio {cold / warm:.2f}")
        help_s, _ = best([py, "-m", "kitgen", "--help"], runs=5)
        print(f"kitgen --help: {help_s:.3f} s")


if __name__ == "__main__":
    main()
