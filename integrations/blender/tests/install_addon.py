"""Runs inside Blender with a fresh user folder: installs the add-on as a user
would from Preferences (the extension with Install from Disk on Blender 4.2
and later, the legacy zip with Add-ons > Install before), enables it, and
exports the startup scene with a subdivided monkey twice, with Blender's
exporter and with the add-on, into two folders under one file name.

blender -b --factory-startup --python install_addon.py -- PACKAGE OUT_DIR
python install_addon.py -- PACKAGE OUT_DIR      (PyPI's bpy module)

Prints one line starting with OXPORT_INSTALLED: the export's result and
where the oxport package came from; then ends the process."""

import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from blender_process import addon_module, install_addon, run  # noqa: E402


def main() -> None:
    import bpy

    package, out_dir = sys.argv[sys.argv.index("--") + 1:]
    install_addon(package)

    bpy.ops.mesh.primitive_monkey_add(location=(2.0, 0.0, 0.0))
    monkey = bpy.context.active_object
    monkey.modifiers.new("subdivision", "SUBSURF").levels = 2
    bpy.ops.object.shade_smooth()

    for folder in ("blender", "oxport"):
        os.makedirs(os.path.join(out_dir, folder), exist_ok=True)
    bpy.ops.wm.obj_export(filepath=os.path.join(out_dir, "blender", "scene.obj"))
    result = bpy.ops.export_scene.oxport_obj(filepath=os.path.join(out_dir, "oxport", "scene.obj"))
    # And the importer: the file read back, one more object per mesh object.
    before = len(bpy.data.objects)
    meshes = sum(obj.type == "MESH" for obj in bpy.data.objects)
    imported = bpy.ops.import_scene.oxport_obj(filepath=os.path.join(out_dir, "blender", "scene.obj"))
    assert imported == {"FINISHED"} and len(bpy.data.objects) == before + meshes, (imported, before, meshes)

    print("OXPORT_INSTALLED", sorted(result), addon_module("package").oxport.__file__)


run(main)
