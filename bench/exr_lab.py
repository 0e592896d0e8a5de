"""The filter lab on Cycles renders: `oxport exr lab` over the shared render
script's images (960×540 multilayer, half and float passes; RGBA float),
writing the chart to docs/images/exr_lab.png and the table into the "exr-lab"
section of docs/benchmarks.md. Speeds are per core (the lab runs on one
thread), the fastest of 3 rounds.

Run: make bench-exr-lab  (or .venv/bin/python bench/exr_lab.py)
"""

from __future__ import annotations

import shutil
import subprocess
import tempfile
from pathlib import Path

from docs import ROOT, machine, update_section
from exr import renders

OXPORT = ROOT / "target" / "release" / "oxport"


def main() -> None:
    subprocess.run(["cargo", "build", "--release", "-p", "oxport-cli", "--quiet"], check=True, cwd=ROOT)
    images = [*renders(1), *renders(2)]
    with tempfile.TemporaryDirectory() as out:
        subprocess.run([str(OXPORT), "exr", "lab", *map(str, images), "--out", out], check=True)
        table = (Path(out) / "lab.md").read_text()
        target = ROOT / "docs" / "images" / "exr_lab.png"
        target.parent.mkdir(parents=True, exist_ok=True)
        shutil.copy(Path(out) / "lab.png", target)
    names = ", ".join(p.name for p in images)
    update_section("exr-lab", "\n".join([
        "## OpenEXR filter lab",
        "",
        f"`.venv/bin/python bench/exr_lab.py` ({machine()}): `oxport exr lab` on {names} "
        "(Cycles, integrations/blender/refdata/render.py, seeds 1 and 2). Each chunk of 16 lines is filtered and "
        "compressed on one thread, then decompressed and checked; the fastest of 3 rounds.",
        "",
        "![ratio against compression speed](images/exr_lab.png)",
        "",
        table.strip(),
    ]))
    print(table)


if __name__ == "__main__":
    main()
