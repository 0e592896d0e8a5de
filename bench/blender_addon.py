"""The oxport add-on, installed as a user installs it, against Blender's own
exporter and importer, each in one Blender process per scene, alternating
runs: on Blender 3.4 (Debian's), 4.5 and 5.0 (PyPI's bpy, `make
bpy-venvs`), the monkey subdivided 6 times and the many-object scene of
integrations/blender/refdata/scene.py. The add-on's packages are built once
(integrations/blender/build.py) and installed into a fresh Blender user
folder for each process. Writes its sections of docs/benchmarks.md. Run:
make bench-blender (or .venv/bin/python bench/blender_addon.py [--runs N]
[--versions 3.4,5.0] [--packages DIR])."""

from __future__ import annotations

import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

from docs import ROOT, machine, table, update_section

SCRIPTS = ROOT / "integrations" / "blender" / "refdata"
EXPORT = ROOT / "bench" / "blender_addon_run.py"
IMPORT = ROOT / "bench" / "blender_import_run.py"
BPY = {"4.5": ROOT / ".venv-bpy45" / "bin" / "python", "5.0": ROOT / ".venv-bpy50" / "bin" / "python"}


def command(version: str) -> list[str]:
    """What runs a script in Blender ``version``."""
    if version == "3.4":
        if shutil.which("blender") is None:
            raise SystemExit("Blender 3.4 is not installed (apt-get install -y blender)")
        return ["blender", "-b", "--factory-startup", "--python"]
    if not BPY[version].exists():
        raise SystemExit(f"Blender {version} is not installed: make bpy-venvs")
    return [str(BPY[version])]


def package(folder: Path, version: str) -> Path:
    """The package Blender ``version`` installs: the extension from 4.2, the
    legacy zip before."""
    (found,) = folder.glob("oxport_obj-*-legacy.zip" if version == "3.4" else "oxport_obj-*-linux_x64.zip")
    return found


def run(version: str, runner, script: str, args: list[str], runs: int, addon: Path) -> dict:
    with tempfile.TemporaryDirectory(dir=ROOT / "target") as directory:
        user = Path(directory) / "user"
        # A fresh user folder, and nothing of the source tree on the path.
        environment = dict(os.environ, BLENDER_USER_SCRIPTS=str(user / "scripts"),
                           BLENDER_USER_CONFIG=str(user / "config"), BLENDER_USER_RESOURCES=str(user),
                           PYTHONPATH="")
        result = subprocess.run(
            [*command(version), str(runner), "--", str(ROOT), str(SCRIPTS / script), str(Path(directory) / "out"),
             str(runs), str(addon), *args],
            capture_output=True, text=True, env=environment,
        )
    lines = [line for line in result.stdout.splitlines() if line.startswith("OXPORT_BENCH ")]
    if result.returncode != 0 or not lines:
        raise SystemExit(f"{runner.name} on Blender {version} failed:\n{result.stdout[-3000:]}{result.stderr[-3000:]}")
    return json.loads(lines[0].split(" ", 1)[1])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--versions", default="3.4,5.0", help="Blender versions, of 3.4, 4.5 and 5.0")
    parser.add_argument("--objects", type=int, default=4000, help="objects in the scene exported")
    parser.add_argument("--import-objects", type=int, default=1500, help="objects in the scene imported")
    parser.add_argument("--packages", type=Path, help="the add-on's packages (build.py's output; else built here)")
    parser.add_argument("--only", choices=["export", "import"], help="one direction only")
    args = parser.parse_args()
    versions = args.versions.split(",")
    (ROOT / "target").mkdir(exist_ok=True)
    packages = args.packages
    if packages is None:
        packages = ROOT / "target" / "bench-addon"
        subprocess.run([sys.executable, str(ROOT / "integrations" / "blender" / "build.py"), "--out", str(packages)],
                       check=True)
    median = statistics.median
    export_rows, import_rows = [], []
    for version in versions:
        addon = package(packages, version)
        for label, script, script_args in [
            ("monkey, subdivided 6 times", "monkey.py", ["6"]),
            (f"scene.py, {args.objects:,} objects", "scene.py", [str(args.objects), "1"]),
        ] if args.only != "import" else []:
            r = run(version, EXPORT, script, script_args, args.runs, addon)
            blender, operator, direct = median(r["blender"]), median(r["operator"]), median(r["direct"])
            function, gather, write = median(r["function"]), median(r["gather"]), median(r["write"])
            export_rows.append([
                version, label, f"{r['faces']:,}", f"{r['bytes'] / 1e6:.0f} MB", "yes" if r["identical"] else "**no**",
                f"{blender:.3f} s", f"{operator:.3f} s", f"**{blender / operator:.2f}×**",
                f"{direct:.3f} s", f"**{blender / direct:.2f}×**",
                f"{function:.3f} s ({gather:.3f} + {write:.3f})", f"{blender / function:.2f}×",
            ])
            print("export", version, label, json.dumps(r))
        for label, script, script_args in [
            ("monkey, subdivided 6 times", "monkey.py", ["6"]),
            (f"scene.py, {args.import_objects:,} objects", "scene.py", [str(args.import_objects), "1"]),
        ] if args.only != "export" else []:
            r = run(version, IMPORT, script, script_args, args.runs, addon)
            blender, operator = median(r["blender"]), median(r["operator"])
            function, read, build = median(r["function"]), median(r["read"]), median(r["build"])
            objects, faces = r["counts"]["operator"]
            same = "yes" if r["counts"]["operator"] == r["counts"]["blender"] == r["counts"]["function"] else "**no**"
            import_rows.append([
                version, label, f"{objects:,}", f"{faces:,}", f"{r['bytes'] / 1e6:.0f} MB", same,
                f"{blender:.3f} s", f"{operator:.3f} s", f"**{blender / operator:.2f}×**",
                f"{function:.3f} s ({read:.3f} + {build:.3f})", f"{blender / function:.2f}×",
            ])
            print("import", version, label, json.dumps(r))
    command_line = (f"`make bench-blender` (`.venv/bin/python bench/blender_addon.py --runs {args.runs} "
                    f"--versions {args.versions} --objects {args.objects} --import-objects {args.import_objects}`)")
    export_text = f"""## Blender add-on against Blender's exporter

The add-on as a user runs it: its package (`make blender-addon`) installed
into a fresh Blender user folder (the extension on 4.5 and 5.0, the legacy
zip on 3.4), and its operator called. In one Blender process per scene, in
rotating order after a warm-up round that is not counted: `bpy.ops.wm.obj_export`, the add-on's
`bpy.ops.export_scene.oxport_obj`, the same with its Direct I/O option
(`O_DIRECT`: on this virtual machine the kernel hands out page-cache pages
slowly, while direct writes are faster), and the installed add-on's export
function called without the operator, which splits its time into gathering
(through Blender's Python API, until the last object is gathered) and the
rest of the writing. Each writes a new file: its own previous one is removed
and the disk synced just before it runs. Medians of {args.runs} runs. The
add-on builds each mesh in oxport's Rust core (Blender's float math, normal
and UV merging) and writes it while Python gathers the next ones through
`foreach_get`. "Same bytes" compares all four files.
Machine: {machine()}.

Command: {command_line}.

{table(["Blender", "scene", "faces", "OBJ", "same bytes", "Blender", "add-on operator", "speed-up",
        "operator, Direct I/O", "speed-up", "function (gathering + rest of writing)", "speed-up"], export_rows)}
"""
    import_text = f"""## Blender add-on against Blender's importer

The add-on installed as for the export. In one Blender process per scene,
in rotating order after a warm-up round that is not counted:
`bpy.ops.wm.obj_import`, the add-on's `bpy.ops.import_scene.oxport_obj`
(its defaults: those of the running Blender's importer) and the installed
add-on's import function called without the operator, which splits its
time into reading (oxport's reader on all cores, the arrays of each mesh
with its edges) and building the Blender data (`foreach_set` of whole
arrays, custom normals computed by oxport meanwhile, `validate` where it
would change something), on the file Blender's own exporter wrote of the
scene, everything removed before each import. "Same counts": objects and
faces of all three; the data itself is compared attribute by attribute
(edges as sets) in `python/tests/test_blender_import.py`. Medians of
{args.runs} runs.
Machine: {machine()}.

Command: {command_line}.

{table(["Blender", "scene", "objects", "faces", "OBJ", "same counts", "Blender", "add-on operator", "speed-up",
        "function (reading + building)", "speed-up"], import_rows)}
"""
    if export_rows:
        update_section("blender-addon", export_text)
        print(export_text)
    if import_rows:
        update_section("blender-import", import_text)
        print(import_text)


if __name__ == "__main__":
    main()
