"""Runs inside Blender (see bench/blender_addon.py), with a fresh user folder:
builds a scene with a shared reference script, which writes it with
Blender's exporter, installs the add-on's package as a user does, then times
in rotating order, in this one process, after a warm-up round that is not
counted: Blender's importer (``bpy.ops.wm.obj_import``), the installed
add-on's operator (``bpy.ops.import_scene.oxport_obj``) and its import
function called directly (which reports its reading and building), on that
file, everything removed before each import. Prints one JSON line starting
with OXPORT_BENCH.

blender -b --factory-startup --python bench/blender_import_run.py -- ROOT SCRIPT OUT_DIR RUNS PACKAGE [SCRIPT_ARGS...]
python bench/blender_import_run.py -- ROOT SCRIPT OUT_DIR RUNS PACKAGE [SCRIPT_ARGS...]     (PyPI's bpy)

PACKAGE is the add-on's zip, or a checkout whose source tree is taken
(bench/ab_blender_addon.py compares two)."""

import gc
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
    path = os.path.join(out_dir, "scene.obj")
    reference_scene(script, [*script_args, path])
    # (After the script, which loads the factory settings.)
    install_addon(package)
    importer = addon_module("importer")

    def clear() -> None:
        """Removes every object, mesh, material and image, so that each import
        starts from the same empty file."""
        for collection in (bpy.data.objects, bpy.data.meshes, bpy.data.materials, bpy.data.images):
            bpy.data.batch_remove(list(collection))
        bpy.context.view_layer.update()
        gc.collect()

    times = {"blender": [], "operator": [], "function": [], "read": [], "build": []}
    counts = {}

    def function() -> None:
        report = importer.import_files(bpy.context, [path], {})
        times["read"].append(report.read_seconds)
        times["build"].append(report.build_seconds)

    importers = [
        ("blender", lambda: bpy.ops.wm.obj_import(filepath=path)),
        ("operator", lambda: bpy.ops.import_scene.oxport_obj(filepath=path)),
        ("function", function),
    ]
    for run_ in range(int(runs) + 1):  # the first round warms up, uncounted
        for name, call in importers[run_ % 3:] + importers[:run_ % 3]:
            clear()
            start = time.perf_counter()
            call()
            times[name].append(time.perf_counter() - start)
            counts[name] = (len(bpy.data.objects), sum(len(m.polygons) for m in bpy.data.meshes))
        if run_ == 0:
            for values in times.values():
                values.clear()
    print("OXPORT_BENCH " + json.dumps({"version": bpy.app.version_string, "counts": counts,
                                        "bytes": os.path.getsize(path), **times}))


run(main)
