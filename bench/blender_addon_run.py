"""Runs inside Blender (see bench/blender_addon.py), with a fresh user folder:
installs the add-on's package as a user does, builds a scene with a shared
reference script, then times in rotating order, in this one process:
Blender's exporter (``bpy.ops.wm.obj_export``), the installed add-on's
operator (``bpy.ops.export_scene.oxport_obj``), the same with its Direct I/O
option, and the installed add-on's export function called directly (which
reports its gathering and writing), after a warm-up round that is not
counted. Prints one JSON line starting with OXPORT_BENCH.

blender -b --factory-startup --python bench/blender_addon_run.py -- ROOT SCRIPT OUT_DIR RUNS PACKAGE [SCRIPT_ARGS...]
python bench/blender_addon_run.py -- ROOT SCRIPT OUT_DIR RUNS PACKAGE [SCRIPT_ARGS...]     (PyPI's bpy)

PACKAGE is the add-on's zip, or a checkout whose source tree is taken
(bench/ab_blender_addon.py compares two)."""

import json
import os
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "integrations", "blender", "tests"))
from blender_process import addon_module, install_addon, reference_scene, run  # noqa: E402


def main() -> None:
    _root, script, out_dir, runs, package, *script_args = sys.argv[sys.argv.index("--") + 1:]
    import bpy

    os.makedirs(out_dir, exist_ok=True)
    first = os.path.join(out_dir, "first.obj")
    reference_scene(script, [*script_args, first])
    os.remove(first)
    os.remove(os.path.splitext(first)[0] + ".mtl")
    # (After the script, which loads the factory settings.)
    install_addon(package)
    export = addon_module("export")

    # The same file name in separate folders, so that the mtllib lines agree.
    paths = {}
    for name in ("blender", "operator", "direct", "function"):
        paths[name] = os.path.join(out_dir, name, "scene.obj")
        os.makedirs(os.path.dirname(paths[name]), exist_ok=True)
    times = {name: [] for name in paths}
    times.update(gather=[], write=[])
    report = None

    def timed(name, call) -> None:
        """Each exporter writes a new file: its own last one is removed (its
        pages freed for it to reuse) and the disk synced just before it runs."""
        if os.path.exists(paths[name]):
            os.remove(paths[name])
        os.sync()
        start = time.perf_counter()
        result = call(paths[name])
        times[name].append(time.perf_counter() - start)
        return result

    def function(path):
        nonlocal report
        report = export.export(bpy.context, path, {})
        times["gather"].append(report.gather_seconds)
        times["write"].append(report.write_seconds)

    exporters = [
        ("blender", lambda path: bpy.ops.wm.obj_export(filepath=path)),
        ("operator", lambda path: bpy.ops.export_scene.oxport_obj(filepath=path)),
        ("direct", lambda path: bpy.ops.export_scene.oxport_obj(filepath=path, oxport_direct_io=True)),
        ("function", function),
    ]
    for run_ in range(int(runs) + 1):  # the first round warms up, uncounted
        # Rotated, so that none always meets another's leftovers.
        for name, call in exporters[run_ % 4:] + exporters[:run_ % 4]:
            timed(name, call)
        if run_ == 0:
            for values in times.values():
                values.clear()
    contents = {open(path, "rb").read() for path in paths.values()}
    print("OXPORT_BENCH " + json.dumps({
        "version": bpy.app.version_string, "objects": report.objects, "faces": report.faces,
        "bytes": report.bytes, "identical": len(contents) == 1, "steps": report.per_step, **times,
    }))


run(main)
