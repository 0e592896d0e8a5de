"""Runs inside Blender (see bench/blender_addon.py): builds a scene with a
shared reference script, then times Blender's exporter and the oxport add-on
alternately in this one process. Prints one JSON line starting with OXPORT_BENCH.

blender -b --factory-startup --python bench/blender_addon_run.py -- ROOT SCRIPT OUT_DIR RUNS [SCRIPT_ARGS...]
python bench/blender_addon_run.py -- ROOT SCRIPT OUT_DIR RUNS [SCRIPT_ARGS...]     (PyPI's bpy)"""

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

from oxport_obj import export  # noqa: E402

os.remove(first)
os.remove(os.path.splitext(first)[0] + ".mtl")
# The same file name in two folders, so that the mtllib lines agree.
blender_path = os.path.join(out_dir, "blender", "scene.obj")
oxport_path = os.path.join(out_dir, "oxport", "scene.obj")
os.makedirs(os.path.dirname(blender_path), exist_ok=True)
os.makedirs(os.path.dirname(oxport_path), exist_ok=True)
direct_path = os.path.join(out_dir, "direct", "scene.obj")
os.makedirs(os.path.dirname(direct_path), exist_ok=True)
blender_times, oxport_times, gather_times, write_times = [], [], [], []
direct_times, direct_write_times = [], []
steps = {}
def fresh(path):
    """Each exporter writes a new file: its own last one is removed (its pages
    freed for it to reuse) and the disk flushed just before it runs."""
    if os.path.exists(path):
        os.remove(path)
    os.sync()


def run_blender():
    fresh(blender_path)
    start = time.perf_counter()
    bpy.ops.wm.obj_export(filepath=blender_path)
    blender_times.append(time.perf_counter() - start)


def run_oxport():
    global steps
    fresh(oxport_path)
    start = time.perf_counter()
    report = export.export(bpy.context, oxport_path, {})
    oxport_times.append(time.perf_counter() - start)
    gather_times.append(report.gather_seconds)
    write_times.append(report.write_seconds)
    steps = report.per_step
    return report


def run_direct():
    fresh(direct_path)
    start = time.perf_counter()
    report = export.export(bpy.context, direct_path, {"oxport_direct_io": True})
    direct_times.append(time.perf_counter() - start)
    direct_write_times.append(report.write_seconds)


for run in range(runs):
    # Rotate the order, so that none always meets another's leftovers.
    order = [run_blender, run_oxport, run_direct]
    order = order[run % 3:] + order[:run % 3]
    for exporter in order:
        result = exporter()
        if exporter is run_oxport:
            report = result
same = open(blender_path, "rb").read() == open(oxport_path, "rb").read() == open(direct_path, "rb").read()
print("OXPORT_BENCH " + json.dumps({
    "objects": report.objects, "faces": report.faces, "bytes": report.bytes, "identical": same,
    "blender": blender_times, "oxport": oxport_times, "gather": gather_times, "write": write_times,
    "steps": steps, "direct": direct_times, "direct_write": direct_write_times,
}))
sys.stdout.flush()
os._exit(0)  # PyPI's bpy 4.5 can hang at interpreter exit
