"""What Blender's OBJ exporter computes before it writes, for meshes
gathered from Blender's Python API: used by the Blender add-on
(``integrations/blender/oxport_obj``), usable from any Blender script.

Each evaluated Blender mesh is given as a :class:`Gathered` (its arrays, as
``foreach_get`` fetches them); :func:`mesh` and :func:`meshes` turn them into
the :class:`oxport.Mesh` Blender's exporter writes::

    gathered = oxport.blender.Gathered(
        ob.name, ob.matrix_world, axes, positions, corner_vertices, face_starts,
        vertex_normals=normals, smooth=smooth)
    mesh = oxport.blender.mesh(gathered)

Positions are transformed by ``axes @ matrix_world`` and ``scale`` with
Blender's float arithmetic; normals by the inverse transpose, then
normalized, rounded to 4 digits and merged; UVs merged; faces sorted by
material when ``material_indices`` is given. ``blender_version`` says whose
exporter's rules to follow: before 4.1 those of 3.4 (normals per corner,
merged in corner order; UVs merged per vertex within 0.0001), from 4.1 those
of 4.5 and 5.0 (the normals of the mesh's ``normals_domain``, merged in that
domain's order; equal UVs merged across the mesh). 3.4, 4.5 and 5.0 are
checked against their own exporters.

:class:`Gathered`'s arguments:
    name: the object name (spaces are written as underscores, as Blender
        writes them; so are material names). matrix_world: ``Object.matrix_world`` (rows).
    axes: the axis conversion (rows), e.g. ``bpy_extras.io_utils.axis_conversion``.
    positions: ``vertices.foreach_get("co")``, float32.
    corner_vertices: ``loops.foreach_get("vertex_index")``.
    face_starts: ``polygons.foreach_get("loop_start")``.
    scale: the exporter's ``global_scale``.
    corner_normals: ``loops.foreach_get("normal")`` after ``calc_normals_split()``
        (4.1+: ``corner_normals.foreach_get("vector")`` when ``normals_domain``
        is ``CORNER``).
    vertex_normals: ``vertices.foreach_get("normal")`` instead of
        ``corner_normals`` when the mesh has neither auto smooth nor custom
        normals: Blender's split normals are then the vertex normals on smooth
        faces and, on flat faces, the face normals it caches, which oxport
        computes as Blender does (Newell's method in float32). 4.1+:
        ``vertex_normals.foreach_get("vector")`` when ``normals_domain`` is
        ``POINT``.
    face_normals: 4.1+: ``polygon_normals.foreach_get("vector")`` when
        ``normals_domain`` is ``FACE``.
    blender_version: ``bpy.app.version[:2]``; None: 3.4.
    corner_uvs: the active UV layer's ``data.foreach_get("uv")``.
    smooth: per face smooth group (``use_smooth`` as 0/1 without smooth groups).
    material_indices: ``polygons.foreach_get("material_index")``, with
        ``materials`` the names of the object's material slots.
    edges: loose edges as pairs of vertex indices, in the order to write.
    vertex_colors: the active color attribute on the point domain, linear
        RGBA: written in sRGB, converted as Blender does.
    corner_colors, corner_colors_srgb8: the active color attribute on the
        face corner domain instead: float colors (``data.foreach_get("color")``)
        or byte colors (``data.foreach_get("color_srgb")``), averaged per
        vertex as Blender averages them.
    corner_edges, sharp_edges: ``loops.foreach_get("edge_index")`` and
        ``edges.foreach_get("use_edge_sharp")``: with both, smooth faces are
        written with Blender's smooth groups (``export_smooth_groups``)
        instead of ``s 1``; as bits with ``smooth_group_bitflags``.
    material_groups: the object name: ``g OBJECT_MATERIAL`` before each
        ``usemtl`` (``export_material_groups``).
    vertex_group_names, vertex_group_offsets, vertex_group_indices,
        vertex_group_weights: the object's vertex groups and each vertex's
        weights (vertex ``v``'s are entries ``offsets[v]:offsets[v + 1]``):
        ``g NAME`` where a face's group changes (``export_vertex_groups``).
        Not together with ``material_groups``.

Arrays that do not agree with each other raise ``ValueError`` naming the
argument, when the mesh is built.
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from typing import Optional, Sequence, Union

from . import _native
from ._native import BlenderExporter as Exporter
from ._native import Bsdf, Curve, CustomNormals, Gathered, ImageTexture, ImportedMesh, LooseEdges, Mesh, NurbsSpline
from ._obj import Buffer, Material, ObjWriter, ReadWarning

__all__ = ["Bsdf", "Curve", "CustomNormals", "CustomNormalsStream", "Exporter", "Gathered", "ImageTexture", "ImportedCurve", "ImportedMesh", "ImportedScene", "import_obj",
           "LooseEdges", "mesh", "meshes", "MeshStream", "mtl_material", "nurbs_curves", "NurbsSpline", "unused_edges"]

#: A matrix as rows of numbers (a ``mathutils.Matrix`` works).
Matrix = Sequence[Sequence[float]]


def mesh(gathered: Gathered) -> Mesh:
    """The mesh Blender 3.4's exporter writes for one evaluated Blender mesh
    (built in Rust without the GIL)."""
    return _native.blender_meshes([gathered])[0]


def meshes(items: Sequence[Gathered], *, threads: Optional[int] = None) -> list[Mesh]:
    """:func:`mesh` for many meshes at once, built in parallel on ``threads``
    threads (None: one per core) in one call without the GIL (for scenes of
    many small objects, where a call per object would cost more than the work)."""
    return _native.blender_meshes(items, threads=threads)


class MeshStream:
    """Meshes written into ``writer`` as they are gathered: each
    :class:`Gathered` handed over is built and written in order on oxport's
    threads (``threads``; None: one per core) while the caller gathers the
    next, which is how the add-on exports a scene. The caller waits only for
    room (a bounded number of meshes are gathered and not yet written). The
    writer's file is the stream's until :meth:`finish`; ``close`` (or
    leaving a ``with`` block) stops an unfinished stream, the file dropped.
    The arrays of a :class:`Gathered` handed over are read on oxport's
    threads: they must not change until :meth:`finish` returns::

        writer = oxport.ObjWriter(path, blender_version=bpy.app.version[:2])
        with oxport.blender.MeshStream(writer) as stream:
            for ob in objects:
                stream.add(oxport.blender.Gathered(...))
            stream.finish()
        writer.close()
    """

    def __init__(self, writer: ObjWriter, *, threads: Optional[int] = None) -> None:
        self._native = _native.MeshStream(writer._native, threads=threads)

    def add(self, gathered: Gathered) -> None:
        """Hands over ``gathered`` (its loose edges among its arrays); an
        error of an earlier mesh is raised here."""
        self._native.add(gathered)

    def add_then_edges(self, gathered: Gathered) -> LooseEdges:
        """Hands over ``gathered`` without its loose edges, which follow by
        the returned :class:`LooseEdges` (``send(edges)``, or ``cancel()``
        when fetching them failed): a big mesh builds while they are fetched."""
        return self._native.add_then_edges(gathered)

    def finish(self) -> None:
        """Waits until every mesh is written and gives the file back to the
        writer, which then takes curves and is closed; the first error of any
        mesh is raised."""
        self._native.finish()

    def close(self) -> None:
        """Stops the stream if unfinished (meshes not written are dropped)."""
        self._native.close()

    def __enter__(self) -> MeshStream:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


class CustomNormalsStream:
    """Blender 4.5's and 5.0's custom normals for imported meshes, as its
    importer stores them (``mesh_set_custom_normals``: the ``custom_normal``
    and ``sharp_edge`` attributes), computed in order on oxport's threads
    (``threads``; None: one per core) while the caller makes the meshes:
    each against its own edges (``ImportedMesh.edges`` and
    ``corner_edges``, which the caller gives Blender). The caller waits
    only for room (a bounded number of meshes wait). ``close`` (or leaving
    a ``with`` block) stops an unfinished stream::

        with oxport.blender.CustomNormalsStream() as stream:
            for imported in scene.meshes:
                stream.add(imported)
            ...  # the Blender meshes made, with the meshes' edges
            normals = stream.finish()
    """

    def __init__(self, *, threads: Optional[int] = None) -> None:
        self._native = _native.CustomNormalsStream(threads=threads)

    def add(self, mesh: ImportedMesh) -> None:
        """Hands over ``mesh``; an error of an earlier mesh is raised here."""
        self._native.add(mesh)

    def finish(self) -> list[Optional[CustomNormals]]:
        """Waits for every mesh: per mesh, in the order handed over, its
        :class:`CustomNormals`, or None for a mesh without normals or where
        only Blender's own function reproduces them (a face that uses a
        vertex twice). The first error of any mesh is raised."""
        return self._native.finish()

    def close(self) -> None:
        """Stops the stream if unfinished."""
        self._native.close()

    def __enter__(self) -> CustomNormalsStream:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def unused_edges(corner_edges: Buffer, edge_count: int) -> int:
    """How many of ``edge_count`` edges no corner uses, given
    ``loops.foreach_get("edge_index")``. Blender flags loose (``is_loose``)
    only edges that no face uses: when this is 0, there are no loose edges to
    look for (and ``edges.foreach_get("is_loose")``, 10 times slower than
    fetching ``edge_index`` into an unsigned buffer, can be skipped)."""
    return _native.blender_unused_edges(corner_edges, edge_count)


def mtl_material(
    name: str,
    *,
    roughness: float,
    specular_intensity: float,
    metallic: float,
    diffuse_color: Sequence[float],
    bsdf: Optional[Bsdf] = None,
    textures: Sequence[ImageTexture] = (),
    pbr: bool = False,
    blender_version: Optional[tuple[int, int]] = None,
) -> Material:
    """The MTL material the exporter of ``blender_version``
    (``bpy.app.version[:2]``; None: 3.4) writes for a Blender material: from
    ``bsdf`` (its Principled BSDF's inputs) when one feeds the material
    output, from its viewport values (``Material.roughness``,
    ``specular_intensity``, ``metallic``, ``diffuse_color``) otherwise, with
    Blender's float arithmetic (``Ns`` from roughness, ``illum`` from
    specular, metallic and alpha); with ``pbr`` the PBR extensions (``Pr``,
    ``Pm``... in place of ``Ns`` and ``Ka``). ``textures`` are the image
    textures linked to the BSDF: the maps that version writes of them come in
    its order with their options (``-o``, ``-s``, ``-bm``), and the
    properties they give have no line. Spaces in the name become
    underscores, as Blender writes them."""
    return _native.blender_mtl_material(
        name, roughness=roughness, specular_intensity=specular_intensity, metallic=metallic,
        diffuse_color=diffuse_color, bsdf=bsdf, textures=textures, pbr=pbr,
        blender_version=blender_version)


def nurbs_curves(
    name: str,
    matrix_world: Matrix,
    axes: Matrix,
    splines: Sequence[NurbsSpline],
    *,
    scale: float = 1.0,
    blender_version: Optional[tuple[int, int]] = None,
) -> list[Curve]:
    """The curves the exporter of ``blender_version`` (``bpy.app.version[:2]``;
    None: 3.4) writes for a NURBS curve object ("curves as NURBS"), for
    :meth:`oxport.ObjWriter.write_curves` (whose ``blender_version`` lays
    their statements out as that version does): the control points of each spline
    placed by ``axes @ matrix_world`` and ``scale`` with Blender's float
    arithmetic, and its knots as that version computes them (from the
    spline's order, cyclic, endpoint and Bézier flags). A spline whose order
    is outside 1..64 is a ValueError."""
    return _native.blender_nurbs_curves(name, matrix_world, axes, splines, scale=scale,
                                        blender_version=blender_version)


@dataclass
class ImportedCurve:
    """A curve object as Blender's importer makes it of a free-form curve
    (``cstype bspline``, ``deg``, ``curv``, ``parm u``): one NURBS spline,
    the curve ``3D`` with a resolution of 12."""

    #: The object's and the curve's name (after its collections, with a
    #: collection separator).
    name: str
    #: With a collection separator, the collections it is linked into,
    #: outermost first.
    collections: list[str]
    #: The spline's points (``points[].co``): x, y, z and weight.
    points: list[tuple[float, float, float, float]]
    #: ``order_u``
    order: int
    #: ``use_cyclic_u``
    cyclic: bool
    #: ``use_endpoint_u``
    endpoint: bool
    #: ``use_bezier_u``
    bezier: bool
    #: Knots of Blender's custom mode (4.5, 5.0), which its Python API does
    #: not set; None for knots Blender computes.
    custom_knots: Optional[list[float]] = None
    #: With custom knots, the curve's OBJ statements, from which the running
    #: Blender's own importer makes it.
    obj: Optional[str] = None
    #: How many of :attr:`ImportedScene.meshes` Blender makes before it.
    made_after: int = 0


@dataclass
class ImportedScene:
    """An OBJ file as Blender's importer builds it (:func:`import_obj`)."""

    #: The mesh objects Blender makes, in the order it makes them: by name,
    #: case aside; an object without vertices is not made.
    meshes: list[ImportedMesh]
    #: The ``mtllib`` statements' texts, in file order.
    mtllibs: list[str]
    #: The curve objects Blender makes of the free-form curves, in the
    #: order it makes them (sorted by name among the meshes:
    #: :attr:`ImportedCurve.made_after`).
    curves: list[ImportedCurve] = field(default_factory=list)
    #: What the read passed over (free-form surfaces among them).
    warnings: list[ReadWarning] = field(default_factory=list)
    #: The scale Blender gives every object for ``clamp_size`` (None: their
    #: own).
    scale: Optional[float] = None


def import_obj(
    path: Union[str, os.PathLike[str]],
    *,
    blender_version: Optional[tuple[int, int]] = None,
    vertex_groups: bool = False,
    clamp_size: float = 0.0,
    global_scale: float = 1.0,
    split_objects: bool = True,
    split_groups: bool = False,
    collection_separator: str = "",
    close_spline_loops: bool = True,
    threads: Optional[int] = None,
) -> ImportedScene:
    """Reads an OBJ file on ``threads`` threads (None: one per core) into the
    meshes Blender's importer (``wm.obj_import``) of ``blender_version``
    (``bpy.app.version[:2]``; None: 3.4) builds: per object the vertices its
    faces and ``l`` lines use, in file order; the faces' corners, UVs and
    normals (normalized as Blender does); which faces are flat (from 4.1, with
    normals, only faces of near-zero area); the materials the object's
    ``usemtl`` statements name, and each face's; loose edges; vertex colors
    made linear; with ``vertex_groups``, the ``g`` groups' vertices. The
    object before the first ``o`` is named after the file, and an ``o``
    after an object without faces or lines renames it; the objects come in
    the order Blender makes them (by name, case aside), those without
    vertices left out. Faces with an index out of range and faces of 1 or 2
    corners are skipped, the positions Blender keeps of them kept as loose
    vertices; numbers are read as Blender reads them (``1.#IND`` is 1, a
    missing one 0); ``p`` statements are skipped, as Blender skips them. MTL
    files are not read. With ``clamp_size``, the
    scale Blender gives the objects (``ImportedScene.scale``; from 4.5: to
    fit them together in ``clamp_size`` at ``global_scale``).
    ``split_objects`` and ``split_groups``: an object per ``o`` (else one
    for the file) and per ``g`` (``use_split_objects``,
    ``use_split_groups``); each object starts with the smooth state off.
    ``collection_separator`` (one ASCII character, or "" for none): each
    object named after the part of its name after the last separator and
    given the collections the parts before it name
    (``ImportedMesh.collections``), as Blender 4.1+ links them.

    Free-form B-spline curves (``cstype bspline``; from 4.5 ``rat bspline``
    too) become :class:`ImportedCurve` objects, with each version's order,
    knot flags and weights; with ``close_spline_loops`` (4.5, 5.0), a curve
    whose last points repeat its first, with knots to match, is cyclic
    without them. A ``cstype`` after an object without faces or lines
    turns it into the curve, and faces given to a curve are dropped, as
    Blender drops them; surfaces are skipped (a warning). A curve with a
    control point index out of range is skipped (a warning), where Blender
    would read past its vertices.

    The faces of one object make one mesh whatever they have (UVs,
    normals), zeros where a corner has none, as Blender makes it; from 4.5
    a mesh has vertex colors when every vertex it uses has one. Where this
    differs from Blender's own parser: for 3.4, an object with vertex colors
    on some of its vertices only has them (black elsewhere; 3.4 makes none
    unless one run of colored vertices covers the object's)."""
    return _native.blender_import_obj(
        path, blender_version=blender_version, vertex_groups=vertex_groups, clamp_size=clamp_size,
        global_scale=global_scale, split_objects=split_objects, split_groups=split_groups,
        collection_separator=collection_separator, close_spline_loops=close_spline_loops,
        threads=threads)
