"""Export and import Wavefront OBJ through oxport: the bytes the running
Blender's own exporter (``wm.obj_export``; 3.4, 4.5 and 5.0 are checked)
writes, and the data its importer (``wm.obj_import``) makes, in a fraction
of the time.

The operators ``bpy.ops.export_scene.oxport_obj`` and
``bpy.ops.import_scene.oxport_obj`` take the options of the running
Blender's ``wm.obj_export`` and ``wm.obj_import``, with the same names and
defaults."""

from __future__ import annotations

import os

bl_info = {
    "name": "oxport OBJ",
    "author": "oxport",
    "version": (0, 1, 0),
    "blender": (3, 4, 0),
    "location": "File > Export / Import > Wavefront (.obj) via oxport",
    "description": "Exports and imports OBJ + MTL through oxport: Blender's bytes and data, many times faster",
    "category": "Import-Export",
}

import bpy  # noqa: E402
from bpy_extras.io_utils import ExportHelper, ImportHelper  # noqa: E402

from . import export, importer  # noqa: E402

# The options of wm.obj_export and wm.obj_import, copied at registration so
# that names, types, defaults and enum items are those of the running Blender.
_SKIPPED = {"rna_type", "filepath", "directory", "filename", "check_existing", "filter_blender",
            "filter_backup", "filter_image", "filter_movie", "filter_python", "filter_font",
            "filter_sound", "filter_text", "filter_archive", "filter_btx", "filter_collada",
            "filter_alembic", "filter_usd", "filter_obj", "filter_volume", "filter_folder",
            "filter_blenlib", "filemode", "display_type", "sort_method", "filter_glob"}


def _copy_property(prop: bpy.types.Property):
    common = {"name": prop.name, "description": prop.description}
    if prop.type == "BOOLEAN":
        return bpy.props.BoolProperty(default=prop.default, **common)
    if prop.type == "INT":
        return bpy.props.IntProperty(default=prop.default, min=prop.hard_min, max=prop.hard_max,
                                     soft_min=prop.soft_min, soft_max=prop.soft_max, **common)
    if prop.type == "FLOAT":
        return bpy.props.FloatProperty(default=prop.default, min=prop.hard_min, max=prop.hard_max,
                                       soft_min=prop.soft_min, soft_max=prop.soft_max, **common)
    if prop.type == "ENUM":
        items = [(item.identifier, item.name, item.description) for item in prop.enum_items]
        return bpy.props.EnumProperty(items=items, default=prop.default, **common)
    if prop.type == "STRING":
        return bpy.props.StringProperty(default=prop.default, **common)
    return None


def _options(operator) -> dict:
    properties = {}
    for prop in operator.get_rna_type().properties:
        if prop.identifier in _SKIPPED:
            continue
        copied = _copy_property(prop)
        if copied is not None:
            properties[prop.identifier] = copied
    return properties


class EXPORT_SCENE_OT_oxport_obj(bpy.types.Operator, ExportHelper):
    """Export the scene as Wavefront OBJ through oxport (Blender's bytes, faster)"""

    bl_idname = "export_scene.oxport_obj"
    bl_label = "Export OBJ (oxport)"
    bl_options = {"PRESET"}
    filename_ext = ".obj"
    filter_glob: bpy.props.StringProperty(default="*.obj;*.mtl", options={"HIDDEN"})
    oxport_direct_io: bpy.props.BoolProperty(
        name="Direct I/O",
        description="Write around the page cache (O_DIRECT where the file system allows it): "
                    "much faster for big files on machines where the kernel hands out cache "
                    "pages slowly; the file is then not in the cache afterwards",
        default=False,
    )

    def execute(self, context):
        options = {name: getattr(self, name) for name in _options(bpy.ops.wm.obj_export)}
        options["oxport_direct_io"] = self.oxport_direct_io
        try:
            report = export.export(context, self.filepath, options)
        except export.NotSupported as error:
            self.report({"ERROR"}, str(error))
            return {"CANCELLED"}
        except (OSError, ValueError) as error:
            self.report({"ERROR"}, f"oxport OBJ export failed: {error}")
            return {"CANCELLED"}
        for warning in report.warnings:
            self.report({"WARNING"}, warning)
        self.report({"INFO"}, report.summary())
        return {"FINISHED"}


class IMPORT_SCENE_OT_oxport_obj(bpy.types.Operator, ImportHelper):
    """Import Wavefront OBJ files through oxport (the data of Blender's importer, faster)"""

    bl_idname = "import_scene.oxport_obj"
    bl_label = "Import OBJ (oxport)"
    bl_options = {"PRESET", "UNDO"}
    filename_ext = ".obj"
    filter_glob: bpy.props.StringProperty(default="*.obj", options={"HIDDEN"})
    files: bpy.props.CollectionProperty(type=bpy.types.OperatorFileListElement,
                                        options={"HIDDEN", "SKIP_SAVE"})
    directory: bpy.props.StringProperty(subtype="DIR_PATH", options={"HIDDEN", "SKIP_SAVE"})

    def execute(self, context):
        options = {name: getattr(self, name) for name in _options(bpy.ops.wm.obj_import)}
        paths = [os.path.join(self.directory, f.name) for f in self.files if f.name] or [self.filepath]
        try:
            report = importer.import_files(context, paths, options)
        except importer.NotSupported as error:
            self.report({"ERROR"}, str(error))
            return {"CANCELLED"}
        except (OSError, ValueError) as error:
            self.report({"ERROR"}, f"oxport OBJ import failed: {error}")
            return {"CANCELLED"}
        for warning in report.warnings:
            self.report({"WARNING"}, warning)
        self.report({"INFO"}, report.summary())
        return {"FINISHED"}


def _export_menu(self, context):
    self.layout.operator(EXPORT_SCENE_OT_oxport_obj.bl_idname, text="Wavefront (.obj) via oxport")


def _import_menu(self, context):
    self.layout.operator(IMPORT_SCENE_OT_oxport_obj.bl_idname, text="Wavefront (.obj) via oxport")


def register():
    EXPORT_SCENE_OT_oxport_obj.__annotations__.update(_options(bpy.ops.wm.obj_export))
    IMPORT_SCENE_OT_oxport_obj.__annotations__.update(_options(bpy.ops.wm.obj_import))
    bpy.utils.register_class(EXPORT_SCENE_OT_oxport_obj)
    bpy.utils.register_class(IMPORT_SCENE_OT_oxport_obj)
    bpy.types.TOPBAR_MT_file_export.append(_export_menu)
    bpy.types.TOPBAR_MT_file_import.append(_import_menu)


def unregister():
    bpy.types.TOPBAR_MT_file_import.remove(_import_menu)
    bpy.types.TOPBAR_MT_file_export.remove(_export_menu)
    bpy.utils.unregister_class(IMPORT_SCENE_OT_oxport_obj)
    bpy.utils.unregister_class(EXPORT_SCENE_OT_oxport_obj)
