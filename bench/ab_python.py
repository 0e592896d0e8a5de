"""Builds of the Python extension side by side, each installed in its own
virtual environment: the time of one small call (where the binding's own
cost shows: argument parsing, the result object), in fresh processes, the
environments in a rotating order, the first process of each not counted;
the median over every timed round of every process.

Made to compare a change of the binding's build (the abi3 module against
one built for a single Python version; pyo3's abi3 for 3.9 parses arguments
through a tuple and a dict where 3.10's fast calls pass an array):

    .venv/bin/python bench/ab_python.py full=/tmp/v1/bin/python abi3=/tmp/v2/bin/python [--processes 7]
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys

# Each case: setup code, then the call timed.
CASES = {
    "zstd.compress 1 KiB level 3": ("data = bytes(range(256)) * 4", "zstd.compress(data, 3)"),
    "zstd.compress 1 KiB level=3": ("data = bytes(range(256)) * 4", "zstd.compress(data, level=3)"),
    "zstd.decompress 1 KiB": ("frame = zstd.compress(bytes(range(256)) * 4)", "zstd.decompress(frame)"),
    "deflate.compress 1 KiB level 6": ("data = bytes(range(256)) * 4", "deflate.compress(data, 6)"),
    "deflate.decompress 1 KiB gzip": (
        "gz = deflate.compress(bytes(range(256)) * 4, format='gzip')",
        "deflate.decompress(gz, format='gzip')",
    ),
    "color.convert 1 color": (
        "import numpy as np; c = np.array([[0.5, 0.2, 0.1]])",
        "color.convert(c, 'srgb', 'oklab')",
    ),
}

WORKER = r"""
import json, sys, timeit
from oxport import color, deflate, zstd
out = {}
for name, (setup, call) in json.loads(sys.argv[1]).items():
    scope = {"zstd": zstd, "deflate": deflate, "color": color}
    exec(setup, scope)
    timer = timeit.Timer(call, globals=scope)
    number, _ = timer.autorange()
    timer.timeit(number)  # warm-up, not counted
    out[name] = [t / number for t in timer.repeat(5, number)]
print(json.dumps(out))
"""


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("builds", nargs="+", help="NAME=PYTHON: a build and the interpreter it is installed in")
    parser.add_argument("--processes", type=int, default=7, help="fresh processes per build (default 7)")
    args = parser.parse_args()
    builds = dict(b.split("=", 1) for b in args.builds)
    samples: dict[str, dict[str, list[float]]] = {b: {c: [] for c in CASES} for b in builds}
    names = list(builds)
    for process in range(args.processes + 1):
        order = names[process % len(names):] + names[:process % len(names)]
        for name in order:
            result = subprocess.run([builds[name], "-c", WORKER, json.dumps(CASES)],
                                    capture_output=True, text=True, check=True)
            if process > 0:
                for case, times in json.loads(result.stdout).items():
                    samples[name][case].extend(times)
    first = names[0]
    header = "| call | " + " | ".join(names) + " | " + " | ".join(f"{n}/{first}" for n in names[1:]) + " |"
    print(header)
    print("|" + " --- |" * (1 + 2 * len(names) - 1))
    for case in CASES:
        medians = {n: statistics.median(samples[n][case]) for n in names}
        cells = [f"{medians[n] * 1e9:.0f} ns" for n in names]
        ratios = [f"{medians[n] / medians[first]:.3f}" for n in names[1:]]
        print(f"| {case} | " + " | ".join(cells + ratios) + " |")
    print(f"\n{sys.executable} {' '.join(sys.argv)}")


if __name__ == "__main__":
    main()
