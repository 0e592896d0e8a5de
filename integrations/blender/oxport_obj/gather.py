"""Gathering a Blender scene's objects into oxport meshes: the objects to
export, each mesh's arrays fetched with ``foreach_get``, built in oxport."""

from __future__ import annotations

import ctypes
import time
from array import array

import bpy
from mathutils import Matrix

from .options import NotSupported
from .package import numpy, oxport


def buffer(typecode: str, count: int, zeroed: bool = False):
    """A buffer of ``count`` items of ``typecode`` (an ``array`` type code)
    for ``foreach_get`` to fill: numpy's where Blender has numpy (left
    uninitialized unless ``zeroed``); else a zeroed ``array`` (repetition
    doubles a memcpy)."""
    if numpy is not None:
        return (numpy.zeros if zeroed else numpy.empty)(count, dtype=typecode)
    return array(typecode, (0,)) * count


def objects(context, depsgraph, options: dict):
    """The objects Blender's exporter writes, in its order: the evaluated
    depsgraph's visible objects and instances (collection and particle
    instances, the meshes of curves' and surfaces' geometry), as
    (evaluated object, matrix, kind): the world matrix, or the identity
    with ``apply_transform=False`` (5.0). With ``collection`` (4.2+), those
    the collection holds, directly or in its children, or whose instancer
    it holds: Blender builds a depsgraph of the collection, which iterates
    in the scene's order. Must be used while iterating: instance objects
    exist only for their step."""
    selected_only = options.get("export_selected_objects", False)
    apply_transform = options.get("apply_transform", True)
    members = None
    if options.get("collection"):
        name = options["collection"]
        collection = bpy.data.collections.get(name)
        if collection is None:
            raise ValueError(f"OBJ Export: Unable to find collection '{name}'")
        members = set(collection.all_objects)
    view_layer = context.view_layer
    for instance in depsgraph.object_instances:
        ob = instance.object
        if selected_only or members is not None:
            # An instance is selected, or in the collection, when what makes it is.
            source = (instance.parent if instance.is_instance else ob).original
            if selected_only and not source.select_get(view_layer=view_layer):
                continue
            if members is not None and source not in members:
                continue
        matrix = instance.matrix_world.copy() if apply_transform else Matrix.Identity(4)
        if ob.type == "MESH":
            yield ob, matrix, "mesh"
        elif ob.type == "CURVE":
            # The first spline's type decides: Bézier and NURBS curves are
            # written as meshes (their edges and any faces), other curves not;
            # with export_curves_as_nurbs, NURBS (and empty) curves as curves.
            splines = ob.data.splines
            kind = splines[0].type if len(splines) else None
            if options.get("export_curves_as_nurbs", False) and kind in ("NURBS", None):
                yield ob, matrix, "nurbs"
            elif kind in ("BEZIER", "NURBS"):
                yield ob, matrix, "mesh"


def nurbs_curves(ob, matrix, axes, scale: float) -> list:
    """A NURBS curve object's curves, as the running Blender writes them after
    all the meshes (``oxport.blender.nurbs_curves``)."""
    splines = []
    for spline in ob.data.splines:
        if spline.type != "NURBS":
            raise NotSupported(f"object {ob.name!r}: a {spline.type} spline in a NURBS curve "
                               "is not exported yet")
        count = len(spline.points)
        points = buffer("f", 4 * count)
        spline.points.foreach_get("co", points)
        xyz = array("f", (points[i] for i in range(4 * count) if i % 4 != 3))
        splines.append(oxport.blender.NurbsSpline(
            xyz, order=spline.order_u, cyclic=spline.use_cyclic_u, endpoint=spline.use_endpoint_u,
            bezier=spline.use_bezier_u))
    return oxport.blender.nurbs_curves(ob.name, matrix, axes, splines, scale=scale,
                                       blender_version=tuple(bpy.app.version[:2]))


# Meshes with fewer corners are handed over with their loose edges; bigger ones
# first, their edges following while the build runs.
_OVERLAP_CORNERS = 200_000


# Typecodes for foreach_get: when the buffer's type is the field's own
# (unsigned for vertex and loop indices), Blender copies the array in one go
# instead of converting item by item (10 to 20 times faster).
_INDEX = "I"
# Flags and shorts have no such fast path; 32-bit buffers convert fastest.
_FLAG = "I"


class Polygons:
    """Each polygon's loop start, smooth flag and material index.

    ``foreach_get`` copies ``loop_start`` in one go (into an unsigned buffer)
    but converts ``use_smooth`` (a flag bit) item by item. In Blender 3.4 a
    mesh's polygons are one array of 12-byte ``MPoly`` records: loop start and
    loop count as ints, a legacy material short, the flags byte. The flags are
    read from one copy of that array, used only where the records are where
    they must be: the last polygon's address is the first's plus 12 bytes per
    polygon (so the copy stays inside the array), and every record's loop
    start equals ``foreach_get``'s. Otherwise ``foreach_get`` reads the flags.
    Material indices are the ``material_index`` attribute (none: all 0)."""

    RECORD = 12
    SMOOTH = 1  # ME_SMOOTH

    def __init__(self):
        self.raw = bpy.app.version[:2] == (3, 4)
        # bytes.translate table: the flags byte to 0 or 1 (its ME_SMOOTH bit).
        self.smooth_bit = bytes(b & self.SMOOTH for b in range(256))

    def read(self, me, faces: int, with_materials: bool):
        polygons = me.polygons
        starts = buffer(_INDEX, faces)
        polygons.foreach_get("loop_start", starts)
        smooth = self._raw_smooth(polygons, faces, starts) if faces and self.raw else None
        sharp = _flags(me, "sharp_face", "FACE", faces) if smooth is None else None
        if sharp is not None:
            smooth = ~sharp
        elif smooth is None:
            smooth = buffer(_FLAG, faces)
            polygons.foreach_get("use_smooth", smooth)
        materials = None
        if with_materials:
            materials = buffer("i", faces, zeroed=True)  # no attribute: all 0
            attribute = me.attributes.get("material_index")
            if attribute is not None and attribute.domain == "FACE" and attribute.data_type == "INT":
                attribute.data.foreach_get("value", materials)  # one copy, no conversion
            elif attribute is not None:
                polygons.foreach_get("material_index", materials)
        return starts, smooth, materials

    def _raw_smooth(self, polygons, faces: int, starts):
        first = polygons[0].as_pointer()
        if polygons[faces - 1].as_pointer() - first != self.RECORD * (faces - 1):
            return None
        records = bytearray(self.RECORD * faces)
        ctypes.memmove((ctypes.c_char * len(records)).from_buffer(records), first, len(records))
        view = memoryview(records)
        if view.cast("I")[0::3].tobytes() != starts.tobytes():
            return None
        smooth = array("B")
        smooth.frombytes(view[10::self.RECORD].tobytes().translate(self.smooth_bit))
        return smooth


def _vertex_weights(ob, me) -> dict:
    """The object's vertex groups and each vertex's weights (a Python loop:
    Blender has no bulk access to them)."""
    offsets, indices, weights = array(_INDEX, (0,)), array(_INDEX), array("f")
    for vertex in me.vertices:
        for element in vertex.groups:
            indices.append(element.group)
            weights.append(element.weight)
        offsets.append(len(indices))
    return dict(vertex_group_names=[group.name for group in ob.vertex_groups],
                vertex_group_offsets=offsets, vertex_group_indices=indices,
                vertex_group_weights=weights)


def _indices(me, attribute: str, elements, element_key: str, count: int):
    """A mesh's index array (corner vertices, corner edges): from its integer
    attribute where Blender has one (4.0+: one copy into a signed buffer),
    else from its elements' property (3.4: one copy into an unsigned buffer;
    4.x's element properties are read one by one, many times slower)."""
    found = me.attributes.get(attribute) if bpy.app.version >= (4, 0) and count else None
    if found is not None:
        out = buffer("i", count)
        found.data.foreach_get("value", out)
    else:
        out = buffer(_INDEX, count)
        elements.foreach_get(element_key, out)
    return out


def _flags(me, attribute: str, domain: str, count: int):
    """A boolean attribute of Blender 4.0+ (``sharp_face``, ``sharp_edge``) as
    bytes, all false where the mesh has none; None where it cannot be read
    in one copy (3.4, or no numpy), for the caller's slower way."""
    if bpy.app.version < (4, 0) or numpy is None:
        return None
    found = me.attributes.get(attribute)
    if found is None or found.domain != domain or found.data_type != "BOOLEAN":
        return numpy.zeros(count, dtype=bool)
    out = numpy.empty(count, dtype=bool)
    found.data.foreach_get("value", out)
    return out


def _loose_edges(me, corners: int):
    """The loose edges as pairs of vertex indices, or None when there are none."""
    if not len(me.edges):
        return None
    # Only edges that no face uses can be flagged loose, and fetching each
    # corner's edge is 10 times faster than fetching the flags.
    corner_edges = _indices(me, ".corner_edge", me.loops, "edge_index", corners)
    if oxport.blender.unused_edges(corner_edges, len(me.edges)) == 0:
        return None
    loose = buffer(_FLAG, len(me.edges))
    me.edges.foreach_get("is_loose", loose)
    if loose.tobytes().find(b"\1") < 0:  # memchr, not a Python loop
        return None
    pairs = buffer(_INDEX, 2 * len(me.edges))
    me.edges.foreach_get("vertices", pairs)
    edges = array(_INDEX)
    for i, is_loose in enumerate(loose):
        if is_loose:
            edges.extend((pairs[2 * i], pairs[2 * i + 1]))
    return edges


def gather(ob, matrix, options: dict, axes, stream, polygons: Polygons, timings: dict):
    """One evaluated object: ``foreach_get`` into buffers, handed to the
    stream (``oxport.blender.MeshStream``), which builds and writes the mesh
    on oxport's threads (without the GIL) while this thread goes on to the
    next object. Returns the object's materials."""
    if ob.type != "MESH":
        # Curves: a mesh made from the evaluated object, as Blender's exporter
        # makes one (never triangulated there).
        try:
            return _gather_mesh(ob, matrix, ob.to_mesh(), options, axes, stream, polygons, timings)
        finally:
            ob.to_mesh_clear()
    # The evaluated mesh itself, as Blender's exporter uses it: no copy, and the
    # same cached vertex normals (Blender sums them in parallel, so two separate
    # computations can differ in the last bit, and a rounded normal with them).
    me = ob.data
    if not options.get("apply_modifiers", True) and ob.original.modifiers:
        # Blender then takes the mesh before its modifiers (shape keys not applied).
        me = ob.original.data
    if not (options.get("export_triangulated_mesh", False) and len(me.polygons)):
        return _gather_mesh(ob, matrix, me, options, axes, stream, polygons, timings)
    triangulated = _triangulated(me)
    try:
        return _gather_mesh(ob, matrix, triangulated, options, axes, stream, polygons, timings)
    finally:
        bpy.data.meshes.remove(triangulated)


def _triangulated(me):
    """A copy of ``me`` with its faces triangulated as Blender 3.4's exporter
    does (BMesh: quads split by the "beauty" rule, n-gons by ear clipping).
    Its normals are computed afresh from the triangles, as in that export
    (where they are not reproducible to the bit: Blender sums them in parallel)."""
    import bmesh

    bm = bmesh.new()
    try:
        bm.from_mesh(me)
        result = bmesh.ops.triangulate(bm, faces=bm.faces[:], quad_method="BEAUTY",
                                       ngon_method="EAR_CLIP")
        # A triangle equal to a face already there is dropped, as Blender does.
        doubles = list(result["face_map_double"].keys())
        if doubles:
            bmesh.ops.delete(bm, geom=doubles, context="FACES_ONLY")
        triangulated = bpy.data.meshes.new(me.name)
        bm.to_mesh(triangulated)
    finally:
        bm.free()
    if hasattr(me, "use_auto_smooth"):  # Blender 4.0 and older
        triangulated.use_auto_smooth = me.use_auto_smooth
        triangulated.auto_smooth_angle = me.auto_smooth_angle
    return triangulated


def _gather_mesh(ob, matrix, me, options: dict, axes, stream, polygons: Polygons, timings: dict):
    t0 = time.perf_counter()
    vertices, corners, faces = len(me.vertices), len(me.loops), len(me.polygons)
    positions = buffer("f", 3 * vertices)
    found = me.attributes.get("position") if bpy.app.version >= (4, 0) and vertices else None
    (found.data if found is not None else me.vertices).foreach_get(
        "vector" if found is not None else "co", positions)
    corner_vertices = _indices(me, ".corner_vert", me.loops, "vertex_index", corners)
    slots = [slot.material for slot in ob.material_slots]
    with_materials = bool(options.get("export_materials", True) and slots and faces)
    face_starts, smooth, material_indices = polygons.read(me, faces, with_materials)
    if not faces:
        smooth = None
    normals = {}
    if options.get("export_normals", True) and faces:
        t = time.perf_counter()
        if hasattr(me, "normals_domain"):
            # Blender 4.1+: the normals are on one domain, as the mesh needs
            # (faces: all flat; points: all smooth).
            domain = me.normals_domain
            if domain == "CORNER":
                normals["corner_normals"] = buffer("f", 3 * corners)
                me.corner_normals.foreach_get("vector", normals["corner_normals"])
            elif domain == "FACE":
                normals["face_normals"] = buffer("f", 3 * faces)
                me.polygon_normals.foreach_get("vector", normals["face_normals"])
            else:
                normals["vertex_normals"] = buffer("f", 3 * vertices)
                me.vertex_normals.foreach_get("vector", normals["vertex_normals"])
        elif me.use_auto_smooth or me.has_custom_normals:
            me.calc_normals_split()
            normals["corner_normals"] = buffer("f", 3 * corners)
            me.loops.foreach_get("normal", normals["corner_normals"])
        else:
            # Blender's split normals are then the vertex normals on smooth
            # faces (the same floats) and its cached face normals on flat ones,
            # which oxport computes as Blender does: 4 times fewer values to fetch.
            if hasattr(me, "vertex_normals"):  # the cached array itself, a little faster
                normals["vertex_normals"] = buffer("f", 3 * vertices)
                me.vertex_normals.foreach_get("vector", normals["vertex_normals"])
            else:
                normals["vertex_normals"] = buffer("f", 3 * vertices)
                me.vertices.foreach_get("normal", normals["vertex_normals"])
        timings["normals"] = timings.get("normals", 0.0) + time.perf_counter() - t
    uvs = None
    if options.get("export_uv", True) and faces and me.uv_layers.active is not None:
        uvs = buffer("f", 2 * corners)
        layer = me.uv_layers.active
        # The layer's attribute (3.5+): one copy, where the layer's own items are read one by one.
        found = me.attributes.get(layer.name) if bpy.app.version >= (4, 0) else None
        if found is not None and found.domain == "CORNER" and found.data_type == "FLOAT2":
            found.data.foreach_get("vector", uvs)
        else:
            layer.data.foreach_get("uv", uvs)
    names = None
    if with_materials:
        # An empty slot is written as "usemtl " with no name, as Blender does.
        names = [m.name if m is not None else "" for m in slots]
    colors = {}
    if options.get("export_colors", False):
        attribute = me.color_attributes.active_color
        if attribute is not None and attribute.domain == "POINT":
            colors["vertex_colors"] = buffer("f", 4 * vertices)
            attribute.data.foreach_get("color", colors["vertex_colors"])
        elif attribute is not None and attribute.data_type == "BYTE_COLOR":
            # Averaged per vertex in oxport as Blender does, on the bytes.
            colors["corner_colors_srgb8"] = buffer("f", 4 * corners)
            attribute.data.foreach_get("color_srgb", colors["corner_colors_srgb8"])
        elif attribute is not None:
            colors["corner_colors"] = buffer("f", 4 * corners)
            attribute.data.foreach_get("color", colors["corner_colors"])
    groups = {}
    if options.get("export_smooth_groups", False) and faces:
        groups["corner_edges"] = _indices(me, ".corner_edge", me.loops, "edge_index", corners)
        sharp = _flags(me, "sharp_edge", "EDGE", len(me.edges))
        if sharp is None:
            sharp = buffer(_FLAG, len(me.edges))
            me.edges.foreach_get("use_edge_sharp", sharp)
        groups["sharp_edges"] = sharp
        groups["smooth_group_bitflags"] = options.get("smooth_group_bitflags", False)
    if options.get("export_material_groups", False):
        groups["material_groups"] = ob.name
    if options.get("export_vertex_groups", False):
        groups.update(_vertex_weights(ob, me))
    # Object groups: OBJECT_MESH (oxport writes spaces as underscores, as Blender does).
    name = ob.name
    if options.get("export_object_groups", False):
        name = f"{name}_{me.name}"
    arguments = dict(
        name=name, **colors, matrix_world=matrix, axes=axes,
        positions=positions, corner_vertices=corner_vertices, face_starts=face_starts,
        scale=options.get("global_scale", 1.0), corner_uvs=uvs, smooth=smooth,
        blender_version=bpy.app.version[:2],
        material_indices=material_indices, materials=names, **normals, **groups,
    )
    timings["fetch"] = timings.get("fetch", 0.0) + time.perf_counter() - t0
    t0 = time.perf_counter()
    if corners < _OVERLAP_CORNERS:
        arguments["edges"] = _loose_edges(me, corners)
        stream.add(oxport.blender.Gathered(**arguments))
    else:
        # Its build starts on oxport's threads while the loose edges are fetched.
        edges = stream.add_then_edges(oxport.blender.Gathered(**arguments))
        try:
            loose = _loose_edges(me, corners)
        except BaseException:
            edges.cancel()
            raise
        edges.send(loose)
    timings["build"] = timings.get("build", 0.0) + time.perf_counter() - t0
    return slots
