"""Two builds of the `oxport` binary side by side (a change against the
commit before it): `oxport obj write --scene SCENE` and `oxport obj info FILE`,
the two builds alternating in a rotating order, the first round not counted,
the output removed and the disk synced before each write, medians of the times
the binary reports for the write and the read itself.

Run: .venv/bin/python bench/ab_cli.py --old OLD/oxport --new target/release/oxport \\
        --scene sphere:10 --read target/refdata/monkey6.obj [--runs N]
"""

from __future__ import annotations

import argparse
import os
import re
import statistics
import subprocess
import tempfile
from pathlib import Path


def seconds(binary: str, arguments: list[str], pattern: str) -> float:
    text = subprocess.run([binary, *arguments], capture_output=True, text=True, check=True).stdout
    found = re.search(pattern, text)
    assert found is not None, text
    return float(found.group(1))


def compare(binaries: dict[str, str], runs: int, measure) -> str:
    times: dict[str, list[float]] = {name: [] for name in binaries}
    for run in range(runs + 1):
        order = list(binaries.items())
        if run % 2:
            order.reverse()
        for name, binary in order:
            value = measure(name, binary)
            if run > 0:
                times[name].append(value)
    old, new = statistics.median(times["old"]), statistics.median(times["new"])
    return (f"old {old:.3f} s, new {new:.3f} s, new/old {new / old:.3f} "
            f"(old runs {times['old']}, new runs {times['new']})")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--old", required=True)
    parser.add_argument("--new", required=True)
    parser.add_argument("--scene", action="append", default=[])
    parser.add_argument("--read", action="append", default=[], type=Path)
    parser.add_argument("--runs", type=int, default=13)
    args = parser.parse_args()
    binaries = {"old": args.old, "new": args.new}
    with tempfile.TemporaryDirectory(dir=Path(__file__).resolve().parents[1] / "target") as folder:
        for scene in args.scene:
            def write(name: str, binary: str) -> float:
                out = Path(folder) / f"{name}.obj"
                for path in (out, out.with_suffix(".mtl")):
                    path.unlink(missing_ok=True)
                os.sync()
                return seconds(binary, ["obj", "write", "--scene", scene, "--out", str(out)], r"MB in ([0-9.]+) s")
            print(f"write {scene}: {compare(binaries, args.runs, write)}")
    for path in args.read:
        def read(name: str, binary: str) -> float:
            return seconds(binary, ["obj", "info", str(path)], r"read in ([0-9.]+) s")
        print(f"read {path.name}: {compare(binaries, args.runs, read)}")


if __name__ == "__main__":
    main()
