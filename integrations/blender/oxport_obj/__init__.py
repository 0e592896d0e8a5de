"""Export Blender scenes as Wavefront OBJ through oxport: the bytes the
running Blender's own exporter (``wm.obj_export``; 3.4, 4.5 and 5.0 are
checked) writes, in a fraction of the time.

The operator ``bpy.ops.export_scene.oxport_obj`` takes the options of the
running Blender's ``wm.obj_export``, with the same names and defaults."""

from __future__ import annotations

bl_info = {
    "name": "oxport OBJ exporter",
    "author": "oxport",
    "version": (0, 1, 0),
    "blender": (3, 4, 0),
    "location": "File > Export > Wavefront (.obj) via oxport",
    "description": "Exports OBJ + MTL through oxport: Blender's bytes, many times faster",
    "category": "Import-Export",
}

import bpy  # noqa: E402
from bpy_extras.io_utils import ExportHelper  # noqa: E402

from . import export  # noqa: E402

# The options of wm.obj_export, copied at registration so that names, types,
# defaults and enum items are those of the running Blender.
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


def _exporter_options() -> dict:
    properties = {}
    for prop in bpy.ops.wm.obj_export.get_rna_type().properties:
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
        options = {name: getattr(self, name) for name in _exporter_options()}
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


def _menu(self, context):
    self.layout.operator(EXPORT_SCENE_OT_oxport_obj.bl_idname, text="Wavefront (.obj) via oxport")


def register():
    EXPORT_SCENE_OT_oxport_obj.__annotations__.update(_exporter_options())
    bpy.utils.register_class(EXPORT_SCENE_OT_oxport_obj)
    bpy.types.TOPBAR_MT_file_export.append(_menu)


def unregister():
    bpy.types.TOPBAR_MT_file_export.remove(_menu)
    bpy.utils.unregister_class(EXPORT_SCENE_OT_oxport_obj)
