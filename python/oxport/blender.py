"""What Blender 3.4's OBJ exporter computes before it writes, for meshes
gathered from Blender's Python API: used by the Blender add-on
(``integrations/blender/oxport_obj``), usable from any Blender script."""

from __future__ import annotations

from typing import Any, Optional, Sequence

from . import _native
from ._obj import Buffer, Mesh

#: A matrix as rows of numbers (a ``mathutils.Matrix`` works).
Matrix = Sequence[Sequence[float]]


def _blender_layout(rows: Matrix) -> list[list[float]]:
    """Rows (as mathutils gives them) to Blender's C layout, ``m[column][row]``."""
    size = len(rows)
    return [[float(rows[r][c]) for r in range(size)] for c in range(size)]


def mesh(
    name: str,
    matrix_world: Matrix,
    axes: Matrix,
    positions: Buffer,
    corner_vertices: Buffer,
    face_starts: Buffer,
    *,
    scale: float = 1.0,
    corner_normals: Optional[Buffer] = None,
    vertex_normals: Optional[Buffer] = None,
    corner_uvs: Optional[Buffer] = None,
    smooth: Optional[Buffer] = None,
    material_indices: Optional[Buffer] = None,
    materials: Optional[Sequence[str]] = None,
    edges: Optional[Buffer] = None,
    vertex_colors: Optional[Buffer] = None,
    corner_colors: Optional[Buffer] = None,
    corner_colors_srgb8: Optional[Buffer] = None,
    corner_edges: Optional[Buffer] = None,
    sharp_edges: Optional[Buffer] = None,
    smooth_group_bitflags: bool = False,
    material_groups: Optional[str] = None,
    vertex_group_names: Optional[Sequence[str]] = None,
    vertex_group_offsets: Optional[Buffer] = None,
    vertex_group_indices: Optional[Buffer] = None,
    vertex_group_weights: Optional[Buffer] = None,
) -> Mesh:
    """The mesh Blender 3.4's exporter writes for one evaluated Blender mesh.

    Positions are transformed by ``axes @ matrix_world`` and ``scale`` with
    Blender's float arithmetic; corner normals by the inverse transpose, then
    normalized, rounded to 4 digits and merged; UVs merged per vertex within
    0.0001 (Blender 3.4's rule); faces sorted by material when
    ``material_indices`` is given. The work runs in Rust without the GIL.

    Args:
        matrix_world: ``Object.matrix_world`` (rows).
        axes: the axis conversion (rows), e.g. ``bpy_extras.io_utils.axis_conversion``.
        positions: ``vertices.foreach_get("co")``, float32.
        corner_vertices: ``loops.foreach_get("vertex_index")``.
        face_starts: ``polygons.foreach_get("loop_start")``.
        corner_normals: ``loops.foreach_get("normal")`` after ``calc_normals_split()``.
        vertex_normals: ``vertices.foreach_get("normal")`` instead of
            ``corner_normals`` when the mesh has neither auto smooth nor custom
            normals: Blender's split normals are then the vertex normals on
            smooth faces (the same floats) and, on flat faces, the face normals
            it caches, which oxport computes as Blender does (Newell's method
            in float32; ``polygons.normal`` differs in the last bits). 4 times
            fewer values to fetch, and no ``calc_normals_split()``.
        corner_uvs: the active UV layer's ``data.foreach_get("uv")``.
        smooth: per face smooth group (``use_smooth`` as 0/1 without smooth groups).
        material_indices: ``polygons.foreach_get("material_index")``, with
            ``materials`` the names of the object's material slots.
        edges: loose edges as pairs of vertex indices, in the order to write.
        vertex_colors: the active color attribute on the point domain, linear
            RGBA (``data.foreach_get("color")``): written in sRGB, converted
            as Blender does.
        corner_colors, corner_colors_srgb8: the active color attribute on the
            face corner domain instead: float colors (``data.foreach_get("color")``)
            or byte colors (``data.foreach_get("color_srgb")``), averaged per
            vertex as Blender averages them.
        corner_edges, sharp_edges: ``loops.foreach_get("edge_index")`` and
            ``edges.foreach_get("use_edge_sharp")``: with both, smooth faces
            are written with Blender's smooth groups (``export_smooth_groups``)
            instead of ``s 1``; as bits with ``smooth_group_bitflags``.
        material_groups: the object name: ``g OBJECT_MATERIAL`` before each
            ``usemtl`` (``export_material_groups``).
        vertex_group_names, vertex_group_offsets, vertex_group_indices,
            vertex_group_weights: the object's vertex groups and each vertex's
            weights (vertex ``v``'s are entries ``offsets[v]:offsets[v + 1]``
            of ``indices`` and ``weights``): ``g NAME`` where a face's group
            changes, the group of most weight over its corners or ``off``
            (``export_vertex_groups``). Not together with ``material_groups``.
    """
    return meshes([dict(
        name=name, matrix_world=matrix_world, axes=axes, positions=positions,
        corner_vertices=corner_vertices, face_starts=face_starts, scale=scale,
        corner_normals=corner_normals, vertex_normals=vertex_normals, corner_uvs=corner_uvs,
        smooth=smooth, material_indices=material_indices, materials=materials, edges=edges,
        vertex_colors=vertex_colors, corner_colors=corner_colors,
        corner_colors_srgb8=corner_colors_srgb8, corner_edges=corner_edges, sharp_edges=sharp_edges,
        smooth_group_bitflags=smooth_group_bitflags, material_groups=material_groups,
        vertex_group_names=list(vertex_group_names) if vertex_group_names is not None else None,
        vertex_group_offsets=vertex_group_offsets, vertex_group_indices=vertex_group_indices,
        vertex_group_weights=vertex_group_weights,
    )])[0]


def meshes(items: Sequence[dict[str, Any]]) -> list[Mesh]:
    """:func:`mesh` for many meshes at once, each given as a dict of its
    arguments: built in parallel, in one call without the GIL (for scenes of
    many small objects, where a call per object would cost more than the work)."""
    native_items = []
    for item in items:
        native = dict(item)
        native["world"] = _blender_layout(native.pop("matrix_world"))
        native["axes"] = _blender_layout(native["axes"])
        if native.get("materials") is not None:
            native["materials"] = list(native["materials"])
        native_items.append(native)
    return [Mesh._wrap(m) for m in _native.blender_meshes(native_items)]


def unused_edges(corner_edges: Buffer, edge_count: int) -> int:
    """How many of ``edge_count`` edges no corner uses, given
    ``loops.foreach_get("edge_index")``. Blender flags loose (``is_loose``)
    only edges that no face uses: when this is 0, there are no loose edges to
    look for (and ``edges.foreach_get("is_loose")``, 10 times slower than
    fetching ``edge_index`` into an unsigned buffer, can be skipped)."""
    return _native.blender_unused_edges(corner_edges, edge_count)
