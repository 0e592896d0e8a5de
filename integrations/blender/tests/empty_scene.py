# Blender script: a scene without objects, exported with Blender's OBJ
# exporter (default options): Blender 3.4 and 4.5 write its header alone
# (and an empty MTL file), 5.0 writes no file.
# Usage: blender -b --factory-startup --python empty_scene.py -- OUT.obj
import sys

import bpy

out = sys.argv[sys.argv.index("--") + 1:][-1]
bpy.ops.wm.read_factory_settings(use_empty=True)
bpy.ops.wm.obj_export(filepath=out)
