"""Runs inside Blender: builds a scene with one of the shared reference scripts
(which exports it with Blender's own exporter), then exports the same scene
with the oxport add-on, into a second folder under the same file name.

blender -b --factory-startup --python run_in_blender.py -- \
    ROOT SCRIPT OUT_DIR NAME [SCRIPT_ARGS...] [--options JSON]
python run_in_blender.py -- ...   (with PyPI's bpy module: Blender 4.5, 5.0)

Prints one JSON line starting with OXPORT_REPORT, then ends the process
(status 1 after an exception): the bpy module of Blender 4.5 can hang at
interpreter exit after an exception."""

import json
import os
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from blender_process import arguments, run  # noqa: E402


def main() -> None:
    argv, options = arguments()
    root, script, out_dir, name, *script_args = argv
    sys.path.insert(0, os.path.join(root, "python"))
    sys.path.insert(0, os.path.join(root, "integrations", "blender"))

    import bpy

    blender_path = os.path.join(out_dir, "blender", name)
    oxport_path = os.path.join(out_dir, "oxport", name)
    os.makedirs(os.path.dirname(blender_path), exist_ok=True)
    os.makedirs(os.path.dirname(oxport_path), exist_ok=True)

    # The shared script reads its arguments after "--" and exports with Blender.
    sys.argv = [sys.argv[0], "--", *script_args, blender_path]
    exec(compile(open(script).read(), script, "exec"), {"__name__": "__main__"})
    blender_seconds = None
    if options:
        # Export again with Blender, now with the options under test.
        start = time.perf_counter()
        bpy.ops.wm.obj_export(filepath=blender_path, **options)
        blender_seconds = time.perf_counter() - start

    import oxport_obj

    oxport_obj.register()
    start = time.perf_counter()
    result = bpy.ops.export_scene.oxport_obj(filepath=oxport_path, **options)
    seconds = time.perf_counter() - start
    print("OXPORT_REPORT " + json.dumps({"result": sorted(result), "seconds": seconds,
                                          "blender_seconds": blender_seconds}))


run(main)
