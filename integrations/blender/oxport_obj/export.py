"""Gathering a Blender scene into oxport meshes and writing them."""

from __future__ import annotations

import ctypes
import os
import threading
import time
from array import array
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import dataclass, field

import bpy
from bpy_extras.io_utils import axis_conversion

try:
    # The copy of the package that the add-on's zip carries (make blender-addon).
    from . import oxport
    from .oxport import blender as _blender  # noqa: F401  (oxport.blender)
except ImportError:
    # An oxport installed beside Blender's Python (development, pip).
    import oxport
    import oxport.blender


class NotSupported(Exception):
    """An option or a kind of object that the add-on does not export yet."""


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
}


def _check_options(options: dict) -> None:
    unknown = set(options) - set(_NOT_YET) - _SUPPORTED
    if unknown:
        raise NotSupported("unknown options: " + ", ".join(sorted(unknown)))
    if options.get("export_material_groups") and options.get("export_vertex_groups"):
        raise NotSupported("oxport OBJ export does not support material groups and vertex groups "
                           "together yet (use File > Export > Wavefront (.obj) for them)")
    refused = [f"{name}={options[name]!r} ({why})" for name, (default, why) in _NOT_YET.items()
               if name in options and options[name] != default]
    if refused:
        raise NotSupported("oxport OBJ export does not support these options yet: " + ", ".join(refused)
                           + " (use File > Export > Wavefront (.obj) for them)")


def _axis(identifier: str) -> str:
    return identifier.replace("NEGATIVE_", "-")


def _buffer(typecode: str, count: int) -> array:
    """A zeroed buffer for ``foreach_get``, allocated once (repetition doubles a memcpy)."""
    return array(typecode, (0,)) * count


def _mtl_material(material: bpy.types.Material, paths: "_TexturePaths", pbr: bool) -> oxport.Material:
    """Blender 3.4's MTL values for a material (``oxport.blender.mtl_material``):
    from its Principled BSDF when one feeds the material output, from the
    material's viewport values otherwise; image textures linked to the BSDF
    as texture maps."""
    bsdf = _principled_bsdf(material)
    values = None
    if bsdf is not None:
        inputs = bsdf.inputs
        value = lambda name: inputs[name].default_value  # noqa: E731
        values = oxport.blender.Bsdf(
            roughness=value("Roughness"), specular=value("Specular"), metallic=value("Metallic"),
            ior=value("IOR"), alpha=value("Alpha"), base_color=tuple(value("Base Color")[:3]),
            emission=tuple(value("Emission")[:3]),
            emission_strength=value("Emission Strength") if "Emission Strength" in inputs else None,
            sheen=value("Sheen"), clearcoat=value("Clearcoat"),
            clearcoat_roughness=value("Clearcoat Roughness"), anisotropic=value("Anisotropic"),
            anisotropic_rotation=value("Anisotropic Rotation"), transmission=value("Transmission"),
        )
    return oxport.blender.mtl_material(
        material.name, roughness=material.roughness, specular_intensity=material.specular_intensity,
        metallic=material.metallic, diffuse_color=tuple(material.diffuse_color), bsdf=values,
        maps=_texture_maps(material, bsdf, paths, pbr) if bsdf is not None else [], pbr=pbr)


# The texture maps Blender 3.4 writes, in its order: MTL statement, BSDF input;
# with the PBR extensions, and without them.
_PBR_TEXTURE_MAPS = [("map_Kd", "Base Color"), ("map_Pm", "Metallic"), ("map_Ks", "Specular"),
                     ("map_Pr", "Roughness"), ("map_Ps", "Sheen"), ("map_Ke", "Emission"),
                     ("map_d", "Alpha"), ("map_Bump", "Normal")]
_TEXTURE_MAPS = [("map_Kd", "Base Color"), ("map_Ks", "Specular"), ("map_Ns", "Roughness"),
                 ("map_refl", "Metallic"), ("map_Ke", "Emission"), ("map_d", "Alpha"),
                 ("map_Bump", "Normal")]


class _TexturePaths:
    """Image paths as written into an MTL file (``path_mode``), and the images
    to copy beside it for ``COPY``."""

    def __init__(self, mtl_path: str, mode: str):
        self.source = os.path.dirname(bpy.data.filepath) if bpy.data.filepath else ""
        self.destination = os.path.dirname(mtl_path)
        self.mode = mode
        self.copies: set = set()

    def reference(self, image) -> str:
        from bpy_extras.io_utils import path_reference

        path = image.filepath
        if image.packed_file is not None:
            # Blender 3.4 names a packed image by its file name alone (to be
            # unpacked beside the MTL file); made "relative", that name is
            # taken from the root directory.
            path = path[path.rfind("/") + 1:]
            if self.mode == "RELATIVE":
                return os.path.relpath("/" + path, self.destination).replace("\\", "/")
            return path
        path = path_reference(path, self.source, self.destination, self.mode,
                              copy_set=self.copies, library=image.library)
        return path.replace("\\", "/")

    def copy(self) -> None:
        from bpy_extras.io_utils import path_reference_copy

        path_reference_copy(self.copies)


def _linked_node(socket, kind: str):
    """The first node of type ``kind`` linked into ``socket``."""
    return next((link.from_node for link in socket.links if link.from_node.bl_idname == kind), None)


def _texture_maps(material, bsdf, paths: _TexturePaths, pbr: bool) -> list:
    """Image textures linked to ``bsdf`` as Blender 3.4 writes them.

    Blender 3.4 looks a texture's Mapping node up on the tree's first Image
    Texture node (not on the texture itself), and its offset and scale go to
    every map of the material: reproduced as it is."""
    tree = material.node_tree
    first_texture = next((n for n in tree.nodes if n.bl_idname == "ShaderNodeTexImage"), None)
    mapping = _linked_node(first_texture.inputs["Vector"], "ShaderNodeMapping") if first_texture else None
    options = []
    if mapping is not None:
        location = tuple(mapping.inputs["Location"].default_value)
        scale = tuple(mapping.inputs["Scale"].default_value)
        if location != (0.0, 0.0, 0.0):
            options.append("-o " + " ".join("%g" % x for x in location))
        if scale != (1.0, 1.0, 1.0):
            options.append("-s " + " ".join("%g" % x for x in scale))
    maps = []
    for key, socket in _PBR_TEXTURE_MAPS if pbr else _TEXTURE_MAPS:
        source = bsdf.inputs[socket]
        strength = None
        if socket == "Normal":
            normal_map = _linked_node(source, "ShaderNodeNormalMap")
            if normal_map is None:
                continue
            strength = normal_map.inputs["Strength"].default_value
            source = normal_map.inputs["Color"]
        texture = _linked_node(source, "ShaderNodeTexImage")
        image = texture.image if texture is not None else None
        if image is None or not image.filepath:
            continue
        if image.source == "SEQUENCE":
            raise NotSupported(f"material {material.name!r}: image sequence {image.name!r} "
                               "is not exported yet")
        extra = options + (["-bm %f" % strength] if strength is not None and strength > 0.0001 else [])
        maps.append(oxport.TextureMap(key=key, options=" ".join(extra), path=paths.reference(image)))
    return maps


def _principled_bsdf(material: bpy.types.Material):
    tree = material.node_tree
    if tree is None:
        return None
    for node in tree.nodes:
        if node.bl_idname == "ShaderNodeOutputMaterial":
            bsdf = _linked_node(node.inputs[0], "ShaderNodeBsdfPrincipled")
            if bsdf is not None:
                return bsdf
    return None


def _objects(context, depsgraph, options: dict):
    """The objects Blender 3.4's exporter writes, in its order: the evaluated
    depsgraph's visible objects and instances (collection and particle
    instances, the meshes of curves' and surfaces' geometry), as
    (evaluated object, world matrix). Must be used while iterating: instance
    objects exist only for their step."""
    selected_only = options.get("export_selected_objects", False)
    view_layer = context.view_layer
    for instance in depsgraph.object_instances:
        ob = instance.object
        if selected_only:
            # An instance is selected when what makes it is.
            source = instance.parent if instance.is_instance else ob
            if not source.original.select_get(view_layer=view_layer):
                continue
        if ob.type == "MESH":
            yield ob, instance.matrix_world.copy(), "mesh"
        elif ob.type == "CURVE":
            # The first spline's type decides: Bézier and NURBS curves are
            # written as meshes (their edges and any faces), other curves not;
            # with export_curves_as_nurbs, NURBS (and empty) curves as curves.
            splines = ob.data.splines
            kind = splines[0].type if len(splines) else None
            if options.get("export_curves_as_nurbs", False) and kind in ("NURBS", None):
                yield ob, instance.matrix_world.copy(), "nurbs"
            elif kind in ("BEZIER", "NURBS"):
                yield ob, instance.matrix_world.copy(), "mesh"


def _nurbs_curves(ob, matrix, axes, scale: float) -> list:
    """A NURBS curve object's curves, as Blender 3.4 writes them after all the
    meshes (``oxport.blender.nurbs_curves``)."""
    splines = []
    for spline in ob.data.splines:
        if spline.type != "NURBS":
            raise NotSupported(f"object {ob.name!r}: a {spline.type} spline in a NURBS curve "
                               "is not exported yet")
        count = len(spline.points)
        points = _buffer("f", 4 * count)
        spline.points.foreach_get("co", points)
        xyz = array("f", (points[i] for i in range(4 * count) if i % 4 != 3))
        splines.append((xyz, spline.order_u, spline.use_cyclic_u, spline.use_endpoint_u))
    return oxport.blender.nurbs_curves(ob.name, matrix, axes, splines, scale=scale)


# Meshes with fewer corners are built in batches; bigger ones one at a time, the
# gathering waiting until the build thread is inside oxport before it goes on.
_OVERLAP_CORNERS = 200_000


# Typecodes for foreach_get: when the buffer's type is the field's own
# (unsigned for vertex and loop indices), Blender copies the array in one go
# instead of converting item by item (10 to 20 times faster).
_INDEX = "I"
# Flags and shorts have no such fast path; 32-bit buffers convert fastest.
_FLAG = "I"


class _Polygons:
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
        starts = _buffer(_INDEX, faces)
        polygons.foreach_get("loop_start", starts)
        smooth = self._raw_smooth(polygons, faces, starts) if faces and self.raw else None
        if smooth is None:
            smooth = _buffer(_FLAG, faces)
            polygons.foreach_get("use_smooth", smooth)
        materials = None
        if with_materials:
            materials = _buffer("i", faces)
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


def _loose_edges(me, corners: int):
    """The loose edges as pairs of vertex indices, or None when there are none."""
    if not len(me.edges):
        return None
    # Only edges that no face uses can be flagged loose, and fetching each
    # corner's edge is 10 times faster than fetching the flags.
    corner_edges = _buffer(_INDEX, corners)
    me.loops.foreach_get("edge_index", corner_edges)
    if oxport.blender.unused_edges(corner_edges, len(me.edges)) == 0:
        return None
    loose = _buffer(_FLAG, len(me.edges))
    me.edges.foreach_get("is_loose", loose)
    if loose.tobytes().find(b"\1") < 0:  # memchr, not a Python loop
        return None
    pairs = _buffer(_INDEX, 2 * len(me.edges))
    me.edges.foreach_get("vertices", pairs)
    edges = array(_INDEX)
    for i, is_loose in enumerate(loose):
        if is_loose:
            edges.extend((pairs[2 * i], pairs[2 * i + 1]))
    return edges


def _gather(ob, matrix, options: dict, axes, stream, polygons: _Polygons, timings: dict):
    """One evaluated object: ``foreach_get`` into buffers; the mesh is then
    built in oxport's Rust core and written on the stream's threads (which run
    without the GIL) while this thread goes on to the next object. Returns the
    object's materials."""
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
    triangulated.use_auto_smooth = me.use_auto_smooth
    triangulated.auto_smooth_angle = me.auto_smooth_angle
    return triangulated


def _gather_mesh(ob, matrix, me, options: dict, axes, stream, polygons: _Polygons, timings: dict):
    t0 = time.perf_counter()
    vertices, corners, faces = len(me.vertices), len(me.loops), len(me.polygons)
    positions = _buffer("f", 3 * vertices)
    me.vertices.foreach_get("co", positions)
    corner_vertices = _buffer(_INDEX, corners)
    me.loops.foreach_get("vertex_index", corner_vertices)
    slots = [slot.material for slot in ob.material_slots]
    with_materials = bool(options.get("export_materials", True) and slots and faces)
    face_starts, smooth, material_indices = polygons.read(me, faces, with_materials)
    if not faces:
        smooth = None
    normals = {}
    if options.get("export_normals", True) and faces:
        t = time.perf_counter()
        if me.use_auto_smooth or me.has_custom_normals:
            me.calc_normals_split()
            normals["corner_normals"] = _buffer("f", 3 * corners)
            me.loops.foreach_get("normal", normals["corner_normals"])
        else:
            # Blender's split normals are then the vertex normals on smooth
            # faces (the same floats) and its cached face normals on flat ones,
            # which oxport computes as Blender does: 4 times fewer values to fetch.
            if hasattr(me, "vertex_normals"):  # the cached array itself, a little faster
                normals["vertex_normals"] = _buffer("f", 3 * vertices)
                me.vertex_normals.foreach_get("vector", normals["vertex_normals"])
            else:
                normals["vertex_normals"] = _buffer("f", 3 * vertices)
                me.vertices.foreach_get("normal", normals["vertex_normals"])
        timings["normals"] = timings.get("normals", 0.0) + time.perf_counter() - t
    uvs = None
    if options.get("export_uv", True) and faces and me.uv_layers.active is not None:
        uvs = _buffer("f", 2 * corners)
        me.uv_layers.active.data.foreach_get("uv", uvs)
    names = None
    if with_materials:
        # An empty slot is written as "usemtl " with no name, as Blender does.
        names = [m.name.replace(" ", "_") if m is not None else "" for m in slots]
    colors = {}
    if options.get("export_colors", False):
        attribute = me.color_attributes.active_color
        if attribute is not None and attribute.domain == "POINT":
            colors["vertex_colors"] = _buffer("f", 4 * vertices)
            attribute.data.foreach_get("color", colors["vertex_colors"])
        elif attribute is not None and attribute.data_type == "BYTE_COLOR":
            # Averaged per vertex in oxport as Blender does, on the bytes.
            colors["corner_colors_srgb8"] = _buffer("f", 4 * corners)
            attribute.data.foreach_get("color_srgb", colors["corner_colors_srgb8"])
        elif attribute is not None:
            colors["corner_colors"] = _buffer("f", 4 * corners)
            attribute.data.foreach_get("color", colors["corner_colors"])
    groups = {}
    if options.get("export_smooth_groups", False) and faces:
        groups["corner_edges"] = _buffer(_INDEX, corners)
        me.loops.foreach_get("edge_index", groups["corner_edges"])
        groups["sharp_edges"] = _buffer(_FLAG, len(me.edges))
        me.edges.foreach_get("use_edge_sharp", groups["sharp_edges"])
        groups["smooth_group_bitflags"] = options.get("smooth_group_bitflags", False)
    if options.get("export_material_groups", False):
        groups["material_groups"] = ob.name.replace(" ", "_")
    if options.get("export_vertex_groups", False):
        groups.update(_vertex_weights(ob, me))
    # Blender writes spaces in names as underscores (object groups: OBJECT_MESH).
    name = ob.name
    if options.get("export_object_groups", False):
        name = f"{name}_{me.name}"
    name = name.replace(" ", "_")
    arguments = dict(
        name=name, **colors, matrix_world=matrix, axes=axes,
        positions=positions, corner_vertices=corner_vertices, face_starts=face_starts,
        scale=options.get("global_scale", 1.0), corner_uvs=uvs, smooth=smooth,
        material_indices=material_indices, materials=names, **normals, **groups,
    )
    timings["fetch"] = timings.get("fetch", 0.0) + time.perf_counter() - t0
    t0 = time.perf_counter()
    if corners < _OVERLAP_CORNERS:
        # Small meshes are built in batches: a thread hand-off per mesh would
        # cost more than the work.
        arguments["edges"] = _loose_edges(me, corners)
        stream.add(oxport.blender.Gathered(**arguments), corners)
    else:
        stream.flush()  # what came before is written before this mesh
        started = threading.Event()
        edges: Future = Future()

        def build():
            started.set()
            mesh = oxport.blender.mesh(oxport.blender.Gathered(**arguments))
            loose = edges.result()
            return [mesh if loose is None else mesh.with_edges(loose)]

        stream.submit(build)
        # foreach_get keeps the GIL for its whole call: let the build thread get
        # into oxport (which lets the GIL go) before fetching the loose edges.
        started.wait()
        try:
            loose = _loose_edges(me, corners)
        except BaseException as error:
            edges.set_exception(error)  # the build thread must not wait forever
            raise
        edges.set_result(loose)
    timings["build"] = timings.get("build", 0.0) + time.perf_counter() - t0
    return slots


class _Stream:
    """Meshes built on one thread and written on another, in order, while the
    main thread gathers the next objects: building a batch overlaps with
    writing the one before it (where the kernel's copy into the page cache
    costs as much as formatting). Small meshes' arguments are handed over a
    batch at a time. At most ``ahead`` built batches wait to be written."""

    def __init__(self, writer, corners_per_batch: int = 500_000, ahead: int = 4):
        self.writer = writer
        self.corners_per_batch = corners_per_batch
        self.items: list = []
        self.corners = 0
        self.builder = ThreadPoolExecutor(max_workers=1, thread_name_prefix="oxport-build")
        self.writes = ThreadPoolExecutor(max_workers=1, thread_name_prefix="oxport-write")
        self.room = threading.Semaphore(ahead)
        self.tasks: list = []

    def add(self, gathered: "oxport.blender.Gathered", corners: int) -> None:
        self.items.append(gathered)
        self.corners += corners
        if self.corners >= self.corners_per_batch:
            self.flush()

    def flush(self) -> None:
        if self.items:
            items, self.items, self.corners = self.items, [], 0
            self.submit(lambda: oxport.blender.meshes(items))

    def submit(self, build) -> None:
        """Runs ``build`` (which returns meshes) on the build thread, then
        writes its meshes after those submitted before."""

        def build_then_queue():
            meshes = build()
            self.room.acquire()
            return self.writes.submit(write, meshes)

        def write(meshes):
            try:
                self.writer.write(meshes)
            finally:
                self.room.release()

        self.tasks.append(self.builder.submit(build_then_queue))

    def wait(self) -> None:
        """Waits for every batch to be written; the first failure is raised."""
        for task in self.tasks:
            task.result().result()

    def close(self) -> None:
        """Stops the threads; batches not yet started are dropped."""
        for pool in (self.builder, self.writes):
            pool.shutdown(wait=True, cancel_futures=True)


def frame_path(filepath: str, frame: int) -> str:
    """The file of one frame of an animation, named as Blender 3.4 names it:
    the frame number, without padding, in place of the extension, then ``.obj``
    (``scene.obj`` at frame 12 is ``scene12.obj``)."""
    return f"{os.path.splitext(filepath)[0]}{frame}.obj"


def export(context, filepath: str, options: dict) -> Report:
    """Exports the scene like ``bpy.ops.wm.obj_export(filepath=..., **options)``:
    with ``export_animation``, one OBJ (and MTL) per frame from ``start_frame``
    to ``end_frame``, the scene's frame restored afterwards."""
    _check_options(options)
    if not options.get("export_animation", False):
        return _export_frame(context, filepath, options)
    scene = context.scene
    original = scene.frame_current
    total = Report()
    try:
        for frame in range(options.get("start_frame", 0), options.get("end_frame", 1) + 1):
            scene.frame_set(frame)
            report = _export_frame(context, frame_path(filepath, frame), options)
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
                           to_forward=_axis(options.get("forward_axis", "NEGATIVE_Z")),
                           to_up=_axis(options.get("up_axis", "Y")))
    version = bpy.app.version_string
    write_materials = options.get("export_materials", True)
    mtl_path = os.path.splitext(filepath)[0] + ".mtl"
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
    )
    materials: list = []
    try:
        stream = _Stream(writer)
        polygons = _Polygons()
        try:
            nurbs = []  # written after the meshes, as Blender does
            for ob, matrix, kind in _objects(context, depsgraph, options):
                if kind == "nurbs":
                    nurbs += _nurbs_curves(ob, matrix, axes, options.get("global_scale", 1.0))
                    continue
                slots = _gather(ob, matrix, options, axes, stream, polygons, report.per_step)
                for material in slots:
                    if material is not None and material not in materials:
                        materials.append(material)
            stream.flush()
            report.gather_seconds = time.perf_counter() - start
            start = time.perf_counter()
            stream.wait()
        finally:
            stream.close()
        writer.write_curves(nurbs)
        summary = writer.close()
    except BaseException:
        writer.abort()
        raise
    if write_materials:
        paths = _TexturePaths(mtl_path, options.get("path_mode", "AUTO"))
        pbr = options.get("export_pbr_extensions", False)
        mtl = sorted((_mtl_material(m, paths, pbr) for m in materials), key=lambda m: m.name.encode())
        blend = os.path.basename(bpy.data.filepath) if bpy.data.filepath else "None"
        oxport.write_mtl(mtl_path, mtl, header=f"Blender {version} MTL File: '{blend}'\nwww.blender.org")
        paths.copy()
    report.write_seconds = time.perf_counter() - start
    report.objects, report.faces, report.bytes = summary.objects, summary.faces, summary.bytes
    return report
