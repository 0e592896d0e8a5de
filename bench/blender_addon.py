"""Blender's exporter against the oxport add-on (gathering included), in the
same Blender process, alternating runs: the monkey subdivided 6 times and the
many-object scene of integrations/blender/refdata/scene.py. Writes its section of
docs/benchmarks.md. Run: make bench-blender (or .venv/bin/python bench/blender_addon.py [--runs N])."""

from __future__ import annotations

import argparse
import json
import shutil
import statistics
import subprocess
import tempfile

from docs import ROOT, machine, table, update_section

SCRIPTS = ROOT / "integrations" / "blender" / "refdata"
RUNNER = ROOT / "bench" / "blender_addon_run.py"


def run(script: str, args: list[str], runs: int) -> dict:
    with tempfile.TemporaryDirectory(dir=ROOT / "target") as directory:
        result = subprocess.run(
            ["blender", "-b", "--factory-startup", "--python", str(RUNNER), "--",
             str(ROOT), str(SCRIPTS / script), directory, str(runs), *args],
            capture_output=True, text=True, check=True,
        )
    line = next(line for line in result.stdout.splitlines() if line.startswith("OXPORT_BENCH "))
    return json.loads(line.split(" ", 1)[1])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--objects", type=int, default=24303, help="objects in the many-object scene")
    args = parser.parse_args()
    if shutil.which("blender") is None:
        raise SystemExit("Blender is not installed (apt-get install -y blender)")
    (ROOT / "target").mkdir(exist_ok=True)
    rows = []
    for label, script, script_args in [
        ("monkey, subdivided 6 times", "monkey.py", ["6"]),
        (f"scene.py, {args.objects:,} objects", "scene.py", [str(args.objects), "1"]),
    ]:
        r = run(script, script_args, args.runs)
        blender, oxport = statistics.median(r["blender"]), statistics.median(r["oxport"])
        gather, write = statistics.median(r["gather"]), statistics.median(r["write"])
        direct, direct_write = statistics.median(r["direct"]), statistics.median(r["direct_write"])
        rows.append([
            label, f"{r['faces']:,}", f"{r['bytes'] / 1e6:.0f} MB", "yes" if r["identical"] else "**no**",
            f"{blender:.3f} s", f"{oxport:.3f} s ({gather:.3f} + {write:.3f})", f"**{blender / oxport:.1f}×**",
            f"{direct:.3f} s (writing {direct_write:.3f})", f"**{blender / direct:.1f}×**",
        ])
        print(label, json.dumps(r))
    text = f"""## Blender add-on against Blender's exporter

In one Blender 3.4 process, in rotating order: `bpy.ops.wm.obj_export`, the oxport
add-on's export (gathering through Blender's Python API included), and the add-on
with its Direct I/O option (`O_DIRECT`: on this virtual machine the kernel hands
out page-cache pages slowly, ~450 MB/s for a new file, while direct writes reach
~3 GB/s). Each writes a new file: its own previous one is removed and the disk
synced just before it runs. Medians of {args.runs} runs. The add-on builds each mesh
in oxport's Rust core (Blender's float math, normal and UV merging) and writes it
while Python gathers the next ones through `foreach_get`; its time is split into
gathering (until the last object is gathered) and the rest of the writing after
that. "Same bytes" compares all three files.
Machine: {machine()}.

Command: `make bench-blender` (`.venv/bin/python bench/blender_addon.py --runs {args.runs}`).

{table(["scene", "faces", "OBJ", "same bytes", "Blender", "add-on (gathering + rest of writing)", "speed-up",
        "add-on, Direct I/O", "speed-up"], rows)}
"""
    update_section("blender-addon", text)
    print(text)


if __name__ == "__main__":
    main()
