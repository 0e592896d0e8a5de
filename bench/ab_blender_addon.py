"""The Blender add-on of two checkouts side by side (a change against the
commit before it): Blender processes of each alternate, each running Blender's
exporter (or importer) and that checkout's add-on in rotating order
(bench/blender_addon_run.py or bench/blender_import_run.py of the checkout,
with the add-on and built package of its source tree, called as functions). Prints medians over all rounds.

Run: .venv/bin/python bench/ab_blender_addon.py --old OLD_CHECKOUT [--rounds 4] [--script monkey.py 6]
     [--import] [--blender 3.4|4.5|5.0]
(each checkout built with `make build`; 4.5 and 5.0 are PyPI's bpy, `make bpy-venvs`).
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
from pathlib import Path

from blender_addon import command

ROOT = Path(__file__).resolve().parents[1]
SCRIPTS = ROOT / "integrations" / "blender" / "refdata"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--old", type=Path, required=True, help="the other checkout")
    parser.add_argument("--rounds", type=int, default=4)
    parser.add_argument("--runs", type=int, default=4, help="runs per Blender process")
    parser.add_argument("--script", nargs="+", default=["monkey.py", "6"])
    parser.add_argument("--import", dest="importing", action="store_true", help="time importing, not exporting")
    parser.add_argument("--blender", default="3.4", choices=["3.4", "4.5", "5.0"])
    args = parser.parse_args()
    trees = {"old": args.old.resolve(), "new": ROOT}
    runner = "blender_import_run.py" if args.importing else "blender_addon_run.py"
    keys = ("blender", "function", "read", "build") if args.importing else ("blender", "function", "direct")
    times: dict[str, dict[str, list[float]]] = {name: {key: [] for key in keys} for name in trees}
    for round_ in range(args.rounds):
        for name in (["old", "new"] if round_ % 2 == 0 else ["new", "old"]):
            root = trees[name]
            (root / "target" / "abb").mkdir(parents=True, exist_ok=True)
            out = subprocess.run(
                [*command(args.blender), str(root / "bench" / runner),
                 "--", str(root), str(SCRIPTS / args.script[0]), str(root / "target" / "abb"), str(args.runs),
                 str(root), *args.script[1:]],
                capture_output=True, text=True, check=True).stdout
            line = next(line for line in out.splitlines() if line.startswith("OXPORT_BENCH "))
            result = json.loads(line.split(" ", 1)[1])
            for key in keys:
                times[name][key] += result[key]
    for name, t in times.items():
        blender, addon, *rest = (statistics.median(t[key]) for key in keys)
        if args.importing:
            read, build = rest
            print(f"{name}: Blender {blender:.3f} s, add-on {addon:.3f} s ({blender / addon:.2f}×; "
                  f"reading {read:.3f} s, building {build:.3f} s)")
        else:
            (direct,) = rest
            print(f"{name}: Blender {blender:.3f} s, add-on {addon:.3f} s ({blender / addon:.2f}×), "
                  f"Direct I/O {direct:.3f} s ({blender / direct:.2f}×)")


if __name__ == "__main__":
    main()
