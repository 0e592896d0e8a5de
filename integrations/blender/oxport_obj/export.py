"""Exporting a Blender scene: its objects gathered into oxport meshes and
written while later ones are gathered, its materials into the MTL file."""

from __future__ import annotations

import os
import time

import bpy
from bpy_extras.io_utils import axis_conversion

from .gather import Polygons, gather, nurbs_curves, objects
from .materials import TexturePaths, mtl_material
from .options import NotSupported, Report, axis, check_options
from .package import oxport

__all__ = ["NotSupported", "Report", "export"]


def export(context, filepath: str, options: dict) -> Report:
    """Exports the scene like ``bpy.ops.wm.obj_export(filepath=..., **options)``:
    with ``export_animation``, one OBJ (and MTL) per frame from ``start_frame``
    to ``end_frame``, the scene's frame restored afterwards."""
    check_options(options)
    if not options.get("export_animation", False):
        return _export_frame(context, filepath, options)
    scene = context.scene
    original = scene.frame_current
    rules = oxport.blender.Exporter(tuple(bpy.app.version[:2]))
    total = Report()
    try:
        for frame in range(options.get("start_frame", 0), options.get("end_frame", 1) + 1):
            scene.frame_set(frame)
            report = _export_frame(context, rules.frame_path(filepath, frame), options)
            total.objects += report.objects
            total.faces += report.faces
            total.bytes += report.bytes
            total.gather_seconds += report.gather_seconds
            total.write_seconds += report.write_seconds
    finally:
        scene.frame_set(original)
    return total


def _export_frame(context, filepath: str, options: dict) -> Report:
    report = Report()
    start = time.perf_counter()
    depsgraph = context.evaluated_depsgraph_get()
    axes = axis_conversion(from_forward="Y", from_up="Z",
                           to_forward=axis(options.get("forward_axis", "NEGATIVE_Z")),
                           to_up=axis(options.get("up_axis", "Y")))
    version = bpy.app.version_string
    rules = oxport.blender.Exporter(tuple(bpy.app.version[:2]))
    write_materials = options.get("export_materials", True)
    mtl_path = oxport.mtl_path(filepath)
    # Meshes are written as soon as they are built, while later ones are gathered.
    writer = oxport.ObjWriter(
        filepath,
        header=f"Blender {version}\nwww.blender.org",
        mtllib=os.path.basename(mtl_path) if write_materials else None,
        normals=options.get("export_normals", True),
        uvs=options.get("export_uv", True),
        materials=write_materials,
        colors=options.get("export_colors", False),
        object_groups=options.get("export_object_groups", False),
        direct=options.get("oxport_direct_io", False),
        blender_version=tuple(bpy.app.version[:2]),
    )
    materials: list = []
    try:
        polygons = Polygons()
        # Each mesh is built and written on oxport's threads while the next is gathered.
        with oxport.blender.MeshStream(writer) as stream:
            nurbs = []  # written after the meshes, as Blender does
            found = 0
            for ob, matrix, kind in objects(context, depsgraph, options):
                found += 1
                if kind == "nurbs":
                    nurbs += nurbs_curves(ob, matrix, axes, options.get("global_scale", 1.0))
                    continue
                slots = gather(ob, matrix, options, axes, stream, polygons, report.per_step)
                for material in slots:
                    if material is not None and material not in materials:
                        materials.append(material)
            report.gather_seconds = time.perf_counter() - start
            start = time.perf_counter()
            stream.finish()
        if not found and not rules.writes_empty_files:
            writer.abort()
            report.warnings.append("OBJ Export: No information to write")
            return report
        writer.write_curves(nurbs)
        paths = TexturePaths(mtl_path, options.get("path_mode", "AUTO"))
        if write_materials:
            # The MTL file is written as the OBJ file is completed, never after it.
            pbr = options.get("export_pbr_extensions", False)
            mtl = sorted((mtl_material(m, paths, pbr) for m in materials), key=lambda m: m.name.encode())
            blend = os.path.basename(bpy.data.filepath) if bpy.data.filepath else "None"
            summary = writer.close(mtl_materials=mtl,
                                   mtl_header=f"Blender {version} MTL File: '{blend}'\nwww.blender.org")
        else:
            summary = writer.close()
    except BaseException:
        writer.abort()
        raise
    if write_materials:
        paths.copy()
    report.write_seconds = time.perf_counter() - start
    report.objects, report.faces, report.bytes = summary.objects, summary.faces, summary.bytes
    return report
