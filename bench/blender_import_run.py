"""Runs inside Blender (see bench/blender_addon.py): times Blender's importer
(``wm.obj_import``) and the oxport add-on's (``import_scene.oxport_obj``)
alternately on one OBJ file in this one process, removing what each made
before the next runs. Prints one JSON line starting with OXPORT_BENCH.

blender -b --factory-startup --python bench/blender_import_run.py -- ROOT OBJ RUNS
python bench/blender_import_run.py -- ROOT OBJ RUNS      (PyPI's bpy)"""

import gc
import json
import os
import sys
import time
import traceback


def main() -> None:
    root, path, runs = sys.argv[sys.argv.index("--") + 1:]
    sys.path.insert(0, os.path.join(root, "python"))
    sys.path.insert(0, os.path.join(root, "integrations", "blender"))

    import bpy

    from oxport_obj import importer

    def clear() -> None:
        """Removes every object, mesh, material and image, so that each import
        starts from the same empty file."""
        for collection in (bpy.data.objects, bpy.data.meshes, bpy.data.materials, bpy.data.images):
            bpy.data.batch_remove(list(collection))
        bpy.context.view_layer.update()
        gc.collect()

    bpy.ops.wm.read_factory_settings(use_empty=True)
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
    print("OXPORT_BENCH " + json.dumps({"version": bpy.app.version_string, "counts": counts, **times}))


status = 0
try:
    main()
except BaseException:
    traceback.print_exc()
    status = 1
sys.stdout.flush()
sys.stderr.flush()
os._exit(status)
