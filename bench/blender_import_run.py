"""Runs inside Blender (see bench/blender_addon.py): builds a scene with a
shared reference script, which writes it with Blender's exporter, then times
Blender's importer (``wm.obj_import``) and the oxport add-on's
(``import_scene.oxport_obj``) on that file alternately in this one process,
removing everything before each import. Prints one JSON line starting with
OXPORT_BENCH.

blender -b --factory-startup --python bench/blender_import_run.py -- ROOT SCRIPT OUT_DIR RUNS [SCRIPT_ARGS...]
python bench/blender_import_run.py -- ROOT SCRIPT OUT_DIR RUNS [SCRIPT_ARGS...]     (PyPI's bpy)"""

import gc
import json
import os
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "integrations", "blender", "tests"))
from blender_process import run  # noqa: E402


def main() -> None:
    root, script, out_dir, runs, *script_args = sys.argv[sys.argv.index("--") + 1:]
    sys.path.insert(0, os.path.join(root, "python"))
    sys.path.insert(0, os.path.join(root, "integrations", "blender"))

    import bpy

    os.makedirs(out_dir, exist_ok=True)
    path = os.path.join(out_dir, "scene.obj")
    sys.argv = [sys.argv[0], "--", *script_args, path]
    exec(compile(open(script).read(), script, "exec"), {"__name__": "__main__"})

    from oxport_obj import importer

    def clear() -> None:
        """Removes every object, mesh, material and image, so that each import
        starts from the same empty file."""
        for collection in (bpy.data.objects, bpy.data.meshes, bpy.data.materials, bpy.data.images):
            bpy.data.batch_remove(list(collection))
        bpy.context.view_layer.update()
        gc.collect()

    times = {"blender": [], "oxport": [], "read": [], "build": []}
    counts = {}

    def run_blender() -> None:
        clear()
        start = time.perf_counter()
        bpy.ops.wm.obj_import(filepath=path)
        times["blender"].append(time.perf_counter() - start)
        counts["blender"] = (len(bpy.data.objects), sum(len(m.polygons) for m in bpy.data.meshes))

    def run_oxport() -> None:
        clear()
        start = time.perf_counter()
        report = importer.import_files(bpy.context, [path], {})
        times["oxport"].append(time.perf_counter() - start)
        times["read"].append(report.read_seconds)
        times["build"].append(report.build_seconds)
        counts["oxport"] = (len(bpy.data.objects), sum(len(m.polygons) for m in bpy.data.meshes))

    for run in range(int(runs) + 1):  # the first round warms up, uncounted
        order = [run_blender, run_oxport] if run % 2 == 0 else [run_oxport, run_blender]
        for step in order:
            step()
        if run == 0:
            for values in times.values():
                values.clear()
    print("OXPORT_BENCH " + json.dumps({"version": bpy.app.version_string, "counts": counts,
                                        "bytes": os.path.getsize(path), **times}))


run(main)
