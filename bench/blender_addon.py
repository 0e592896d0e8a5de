"""The oxport add-on against Blender's own exporter and importer, each in one
Blender process per scene, alternating runs: on Blender 3.4 (Debian's) and
5.0 (PyPI's bpy, `make bpy-venvs`), the monkey subdivided 6 times and the
many-object scene of integrations/blender/refdata/scene.py. Writes its
sections of docs/benchmarks.md. Run: make bench-blender (or .venv/bin/python
bench/blender_addon.py [--runs N] [--versions 3.4,5.0])."""

from __future__ import annotations

import argparse
import json
import shutil
import statistics
import subprocess
import tempfile

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


def run(version: str, runner, script: str, args: list[str], runs: int) -> dict:
    with tempfile.TemporaryDirectory(dir=ROOT / "target") as directory:
        result = subprocess.run(
            [*command(version), str(runner), "--", str(ROOT), str(SCRIPTS / script), directory, str(runs), *args],
            capture_output=True, text=True, check=True,
        )
    line = next(line for line in result.stdout.splitlines() if line.startswith("OXPORT_BENCH "))
    return json.loads(line.split(" ", 1)[1])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--versions", default="3.4,5.0", help="Blender versions, of 3.4, 4.5 and 5.0")
    parser.add_argument("--objects", type=int, default=24303, help="objects in the scene exported")
    parser.add_argument("--import-objects", type=int, default=1500, help="objects in the scene imported")
    args = parser.parse_args()
    versions = args.versions.split(",")
    (ROOT / "target").mkdir(exist_ok=True)
    export_rows, import_rows = [], []
    for version in versions:
        for label, script, script_args in [
            ("monkey, subdivided 6 times", "monkey.py", ["6"]),
            (f"scene.py, {args.objects:,} objects", "scene.py", [str(args.objects), "1"]),
        ]:
            r = run(version, EXPORT, script, script_args, args.runs)
            blender, oxport = statistics.median(r["blender"]), statistics.median(r["oxport"])
            gather, write = statistics.median(r["gather"]), statistics.median(r["write"])
            direct, direct_write = statistics.median(r["direct"]), statistics.median(r["direct_write"])
            export_rows.append([
                version, label, f"{r['faces']:,}", f"{r['bytes'] / 1e6:.0f} MB", "yes" if r["identical"] else "**no**",
                f"{blender:.3f} s", f"{oxport:.3f} s ({gather:.3f} + {write:.3f})", f"**{blender / oxport:.1f}×**",
                f"{direct:.3f} s (writing {direct_write:.3f})", f"**{blender / direct:.1f}×**",
            ])
            print("export", version, label, json.dumps(r))
        for label, script, script_args in [
            ("monkey, subdivided 6 times", "monkey.py", ["6"]),
            (f"scene.py, {args.import_objects:,} objects", "scene.py", [str(args.import_objects), "1"]),
        ]:
            r = run(version, IMPORT, script, script_args, args.runs)
            blender, oxport = statistics.median(r["blender"]), statistics.median(r["oxport"])
            read, build = statistics.median(r["read"]), statistics.median(r["build"])
            objects, faces = r["counts"]["oxport"]
            same = "yes" if r["counts"]["oxport"] == r["counts"]["blender"] else "**no**"
            import_rows.append([
                version, label, f"{objects:,}", f"{faces:,}", f"{r['bytes'] / 1e6:.0f} MB", same,
                f"{blender:.3f} s", f"{oxport:.3f} s ({read:.3f} + {build:.3f})", f"**{blender / oxport:.2f}×**",
            ])
            print("import", version, label, json.dumps(r))
    command_line = (f"`make bench-blender` (`.venv/bin/python bench/blender_addon.py --runs {args.runs} "
                    f"--versions {args.versions} --objects {args.objects} --import-objects {args.import_objects}`)")
    export_text = f"""## Blender add-on against Blender's exporter

In one Blender process per scene (Blender 3.4, Debian's; 5.0, PyPI's `bpy`), in
rotating order: `bpy.ops.wm.obj_export`, the oxport add-on's export (gathering
through Blender's Python API included), and the add-on with its Direct I/O
option (`O_DIRECT`: on this virtual machine the kernel hands out page-cache
pages slowly, while direct writes are several times faster). Each writes a new
file: its own previous one is removed and the disk synced just before it runs.
Medians of {args.runs} runs. The add-on builds each mesh in oxport's Rust core
(Blender's float math, normal and UV merging) and writes it while Python
gathers the next ones through `foreach_get`; its time is split into gathering
(until the last object is gathered) and the rest of the writing after that.
"Same bytes" compares all three files.
Machine: {machine()}.

Command: {command_line}.

{table(["Blender", "scene", "faces", "OBJ", "same bytes", "Blender", "add-on (gathering + rest of writing)",
        "speed-up", "add-on, Direct I/O", "speed-up"], export_rows)}
"""
    import_text = f"""## Blender add-on against Blender's importer

In one Blender process per scene, alternating, after a warm-up round that is
not counted: `bpy.ops.wm.obj_import` and the add-on's importer
(`import_scene.oxport_obj`, its defaults: those of the running Blender's
importer) on the file Blender's own exporter wrote of the scene, everything
removed before each import. The add-on's time is split into reading (oxport's
reader on all cores, the arrays of each mesh) and building the Blender data
(`foreach_set` of whole arrays; custom normals; `validate`). "Same counts":
objects and faces; the data itself is compared attribute by attribute in
`python/tests/test_blender_import.py`. Medians of {args.runs} runs.
Machine: {machine()}.

Command: {command_line}.

{table(["Blender", "scene", "objects", "faces", "OBJ", "same counts", "Blender", "add-on (reading + building)",
        "speed-up"], import_rows)}
"""
    update_section("blender-addon", export_text)
    update_section("blender-import", import_text)
    print(export_text)
    print(import_text)


if __name__ == "__main__":
    main()
