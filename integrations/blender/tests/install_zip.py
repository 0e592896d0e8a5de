"""Runs inside Blender with a fresh user folder (BLENDER_USER_SCRIPTS,
BLENDER_USER_CONFIG): installs the add-on zip as Preferences > Add-ons >
Install... does, enables it, and exports the startup scene with a subdivided
monkey twice, with Blender's exporter and with the add-on, into two folders
under one file name.

blender -b --factory-startup --python install_zip.py -- ZIP OUT_DIR
Prints one line starting with OXPORT_ZIP: where the oxport package came from."""

import os
import sys

import bpy

zip_path, out_dir = sys.argv[sys.argv.index("--") + 1:]
bpy.ops.preferences.addon_install(filepath=zip_path)
bpy.ops.preferences.addon_enable(module="oxport_obj")

bpy.ops.mesh.primitive_monkey_add(location=(2.0, 0.0, 0.0))
monkey = bpy.context.active_object
monkey.modifiers.new("subdivision", "SUBSURF").levels = 2
bpy.ops.object.shade_smooth()

for folder in ("blender", "oxport"):
    os.makedirs(os.path.join(out_dir, folder), exist_ok=True)
bpy.ops.wm.obj_export(filepath=os.path.join(out_dir, "blender", "scene.obj"))
result = bpy.ops.export_scene.oxport_obj(filepath=os.path.join(out_dir, "oxport", "scene.obj"))

from oxport_obj import export  # noqa: E402

print("OXPORT_ZIP", sorted(result), export.oxport.__file__)
