"""Runs inside Blender (see bench/blender_addon.py): builds a scene with a
shared reference script, then times Blender's exporter and the oxport add-on
alternately in this one process. Prints one JSON line starting with OXPORT_BENCH.

blender -b --factory-startup --python bench/blender_addon_run.py -- ROOT SCRIPT OUT_DIR RUNS [SCRIPT_ARGS...]"""

import json
import os
import sys
import time

argv = sys.argv[sys.argv.index("--") + 1:]
root, script, out_dir, runs, *script_args = argv
runs = int(runs)
sys.path.insert(0, os.path.join(root, "python"))
sys.path.insert(0, os.path.join(root, "integrations", "blender"))

import bpy  # noqa: E402

os.makedirs(out_dir, exist_ok=True)
first = os.path.join(out_dir, "first.obj")
sys.argv = [sys.argv[0], "--", *script_args, first]
exec(compile(open(script).read(), script, "exec"), {"__name__": "__main__"})

import oxport_obj  # noqa: E402
from oxport_obj import export  # noqa: E402

os.remove(first)
os.remove(os.path.splitext(first)[0] + ".mtl")
# The same file name in two folders, so that the mtllib lines agree.
blender_path = os.path.join(out_dir, "blender", "scene.obj")
oxport_path = os.path.join(out_dir, "oxport", "scene.obj")
os.makedirs(os.path.dirname(blender_path), exist_ok=True)
os.makedirs(os.path.dirname(oxport_path), exist_ok=True)
blender_times, oxport_times, gather_times, write_times = [], [], [], []
steps = {}
for run in range(runs):
    # Each exporter writes a new file: remove the last one and flush the disk first.
    for path in (blender_path, oxport_path):
        if os.path.exists(path):
            os.remove(path)
    os.sync()
    start = time.perf_counter()
    bpy.ops.wm.obj_export(filepath=blender_path)
    blender_times.append(time.perf_counter() - start)
    os.sync()
    start = time.perf_counter()
    report = export.export(bpy.context, oxport_path, {})
    oxport_times.append(time.perf_counter() - start)
    gather_times.append(report.gather_seconds)
    write_times.append(report.write_seconds)
    steps = report.per_step
same = open(blender_path, "rb").read() == open(oxport_path, "rb").read()
print("OXPORT_BENCH " + json.dumps({
    "objects": report.objects, "faces": report.faces, "bytes": report.bytes, "identical": same,
    "blender": blender_times, "oxport": oxport_times, "gather": gather_times, "write": write_times,
    "steps": steps,
}))
