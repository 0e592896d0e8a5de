"""The options of Blender's ``wm.obj_export`` the add-on takes, and those it
refuses; the rule by which exporter and importer refuse an option value."""

from __future__ import annotations

from dataclasses import dataclass, field


class NotSupported(Exception):
    """An option or a kind of object that the add-on does not handle yet."""


@dataclass
class Report:
    """What an export did. Meshes are built and written while later ones are
    gathered: ``gather_seconds`` runs until the last object is gathered,
    ``write_seconds`` from then until the OBJ and MTL files are complete."""

    objects: int = 0
    faces: int = 0
    bytes: int = 0
    gather_seconds: float = 0.0
    write_seconds: float = 0.0
    per_step: dict = field(default_factory=dict)
    warnings: list = field(default_factory=list)

    def summary(self) -> str:
        return (f"oxport: {self.objects} objects, {self.faces} faces, {self.bytes / 1e6:.1f} MB; "
                f"gathering {self.gather_seconds:.3f} s, then writing {self.write_seconds:.3f} s more")


# Options whose other values are refused, with the reason.
_NOT_YET = {
    # The render-mode depsgraph Blender's exporter builds (DEG_graph_new with
    # DAG_EVAL_RENDER) cannot be made from Python: only the viewport one exists.
    "export_eval_mode": ("DAG_EVAL_VIEWPORT", "Blender's Python API has no render depsgraph"),
}


# Options exported as Blender does.
_SUPPORTED = {
    "forward_axis", "up_axis", "global_scale", "apply_modifiers", "export_selected_objects",
    "export_uv", "export_normals", "export_colors", "export_materials", "export_pbr_extensions",
    "path_mode", "export_triangulated_mesh", "export_curves_as_nurbs", "export_object_groups",
    "export_material_groups", "export_vertex_groups", "export_smooth_groups",
    "smooth_group_bitflags", "export_animation", "start_frame", "end_frame", "oxport_direct_io",
    # Blender 4.2+: the collection a collection exporter exports ("": the scene).
    "collection",
    # Blender 5.0+: False writes each object in its own space.
    "apply_transform",
}


def check_options(options: dict) -> None:
    unknown = set(options) - set(_NOT_YET) - _SUPPORTED
    if unknown:
        raise NotSupported("unknown options: " + ", ".join(sorted(unknown)))
    if options.get("export_material_groups") and options.get("export_vertex_groups"):
        raise NotSupported("oxport OBJ export does not support material groups and vertex groups "
                           "together yet (use File > Export > Wavefront (.obj) for them)")
    refuse_not_yet(options, _NOT_YET, "export")


def refuse_not_yet(options: dict, not_yet: dict, action: str) -> None:
    """Raises NotSupported naming each option of ``not_yet`` (name: the one
    value handled, and why others are not) that ``options`` sets otherwise;
    ``action``: "export" or "import"."""
    refused = [f"{name}={options[name]!r} ({why})" for name, (handled, why) in not_yet.items()
               if name in options and options[name] != handled]
    if refused:
        raise NotSupported(f"oxport OBJ {action} does not support these options yet: " + ", ".join(refused)
                           + f" (use File > {action.title()} > Wavefront (.obj) for them)")


def axis(identifier: str) -> str:
    return identifier.replace("NEGATIVE_", "-")
