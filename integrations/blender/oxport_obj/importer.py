"""Importing OBJ files: each file read on all cores into the arrays of its
meshes (``oxport.blender.import_obj``), which are then copied into Blender
meshes whole (``foreach_set``), with the data Blender's own importer makes;
its free-form curves become NURBS curve objects among them, in Blender's
order.

The materials are the one part made by Blender's importer itself: a small
OBJ file that uses each material once, with the original's ``mtllib``
statements, is imported with ``wm.obj_import`` and its object removed, so
that the node trees, images and names are Blender's own."""

from __future__ import annotations

import os
import time
from array import array
from dataclasses import dataclass, field

import bpy
from bpy_extras.io_utils import axis_conversion
from mathutils import Matrix

from .options import NotSupported, axis  # noqa: F401 (the operator catches importer.NotSupported)
from .package import numpy, oxport

__all__ = ["ImportReport", "import_files"]


@dataclass
class ImportReport:
    """What an import did: ``read_seconds`` reading and building the arrays,
    ``build_seconds`` making the Blender data from them."""

    files: int = 0
    objects: int = 0
    faces: int = 0
    read_seconds: float = 0.0
    build_seconds: float = 0.0
    warnings: list = field(default_factory=list)

    def summary(self) -> str:
        return (f"oxport: {self.files} file(s), {self.objects} objects, {self.faces} faces; "
                f"reading {self.read_seconds:.3f} s, building {self.build_seconds:.3f} s")


def import_files(context, paths: list, options: dict) -> ImportReport:
    """Imports OBJ files as ``bpy.ops.wm.obj_import(filepath=..., **options)``
    imports each: their objects linked to the active collection (or, with
    ``collection_separator``, to the collections their names give under it),
    selected, the last one active."""
    report = ImportReport()
    version = tuple(bpy.app.version[:2])
    for obj in context.selected_objects:
        obj.select_set(False)
    for path in paths:
        _import_file(context, path, options, version, report)
    return report


def _import_file(context, path: str, options: dict, version: tuple, report: ImportReport) -> None:
    start = time.perf_counter()
    scene = oxport.blender.import_obj(path, blender_version=version,
                                      vertex_groups=options.get("import_vertex_groups", False),
                                      clamp_size=options.get("clamp_size", 0.0),
                                      global_scale=options.get("global_scale", 1.0),
                                      split_objects=options.get("use_split_objects", True),
                                      split_groups=options.get("use_split_groups", False),
                                      collection_separator=options.get("collection_separator", ""),
                                      close_spline_loops=options.get("close_spline_loops", True))
    report.read_seconds += time.perf_counter() - start
    for warning in scene.warnings:
        report.warnings.append(f"{path}: line {warning.line}: {warning.what}")
    start = time.perf_counter()
    meshes = scene.meshes  # the objects Blender makes, in its order
    materials = _blender_materials(path, scene.mtllibs, meshes, options)
    matrix = (axis_conversion(from_forward=axis(options.get("forward_axis", "NEGATIVE_Z")),
                              from_up=axis(options.get("up_axis", "Y")), to_forward="Y", to_up="Z").to_4x4()
              @ Matrix.Scale(options.get("global_scale", 1.0), 4))
    collection = context.view_layer.active_layer_collection.collection
    validate = options.get("validate_meshes", oxport.blender.Exporter(version).validates_meshes)
    normals = _CustomNormals()
    created = []  # (in the order Blender makes them: the last is active)
    try:
        # The meshes first, with their materials: appending one walks every
        # object of the file, so it costs least before the objects exist.
        # Each mesh's custom normals are computed while it is made.
        built = []
        for imported in meshes:
            normals.add(imported, version)
            mesh = _mesh(imported, version)
            for name in imported.materials:
                mesh.materials.append(materials[name])
            built.append(mesh)
        # The objects, while oxport computes the normals; the curves among
        # them, in the order Blender makes them.
        curves = list(scene.curves)
        meshes_made = []
        for index, (imported, mesh) in enumerate(zip(meshes, built)):
            while curves and curves[0].made_after <= index:
                created.append(_curve_object(curves.pop(0), collection, options))
            obj = bpy.data.objects.new(imported.name, mesh)
            _collection(collection, imported.collections).objects.link(obj)
            meshes_made.append(obj)
            created.append(obj)
            for name, vertices in imported.vertex_groups:
                obj.vertex_groups.new(name=name).add(vertices.tolist(), 1.0, "REPLACE")
            report.faces += len(imported.smooth_faces)
        created += [_curve_object(curve, collection, options) for curve in curves]
        for obj in created:
            obj.matrix_basis = matrix
            if scene.scale is not None:
                obj.scale = (scene.scale,) * 3
        # The normals, then validation, as Blender's importer does them.
        encoded = normals.results()
        for imported, obj, custom in zip(meshes, meshes_made, encoded):
            if custom is not None:
                normals.store(obj.data, custom)
            elif imported.corner_normals is not None:
                normals.set(obj, imported.corner_normals, version)
            # (Blender validates a mesh that had a face skipped in any case;
            # oxport knows when it would change nothing: then it is skipped.)
            if (validate or imported.faces_skipped) and not imported.valid:
                obj.data.validate()
    finally:
        normals.close()
    for obj in created:
        obj.select_set(True)
    if created:
        context.view_layer.objects.active = created[-1]
    report.objects += len(created)
    report.files += 1
    report.build_seconds += time.perf_counter() - start


def _curve_object(imported, collection, options: dict):
    """The curve object of ``imported`` (an ``oxport.blender.ImportedCurve``)
    as Blender's importer makes it: one NURBS spline in a 3D curve of
    resolution 12, linked into its collection. A curve Blender's Python API
    cannot make (custom knots; in 3.4, an order its points do not allow) is
    made by Blender's own importer from its statements (``imported.obj``)."""
    if imported.obj is not None:
        return _blender_curve(imported, collection, options.get("close_spline_loops", True))
    curve = bpy.data.curves.new(imported.name, "CURVE")
    curve.dimensions = "3D"
    curve.resolution_u = curve.resolution_v = 12
    spline = curve.splines.new("NURBS")
    spline.points.add(len(imported.points) - 1)
    spline.points.foreach_set("co", [x for point in imported.points for x in point])
    spline.order_u = imported.order
    spline.resolution_u = spline.resolution_v = 12
    spline.use_cyclic_u = imported.cyclic
    spline.use_bezier_u = imported.bezier
    spline.use_endpoint_u = imported.endpoint
    # (Blender gives v the order of u; the property clamps it to the one row
    # of points, a copy does not.)
    curve.splines.foreach_set("order_v", [imported.order])
    obj = bpy.data.objects.new(imported.name, curve)
    _collection(collection, imported.collections).objects.link(obj)
    return obj


def _blender_curve(imported, collection, close_loops: bool):
    """The curve of ``imported.obj`` made by ``wm.obj_import`` from a file of
    its statements alone, moved into its collection."""
    folder = bpy.app.tempdir or os.path.dirname(os.path.abspath(__file__))
    path = os.path.join(folder, f".oxport-curve-{os.getpid()}.obj")
    objects_before = set(bpy.data.objects)
    try:
        with open(path, "w", encoding="utf-8") as f:
            f.write(imported.obj)
        extra = {"close_spline_loops": close_loops} if bpy.app.version >= (4, 5) else {}
        bpy.ops.wm.obj_import(filepath=path, **extra)
    finally:
        if os.path.exists(path):
            os.remove(path)
    (obj,) = [o for o in bpy.data.objects if o not in objects_before]
    for owner in list(obj.users_collection):
        owner.objects.unlink(obj)
    _collection(collection, imported.collections).objects.link(obj)
    obj.select_set(False)
    return obj


def _collection(parent, path: list):
    """The collection at ``path`` under ``parent``, each step the child of
    that name or, where there is none, a new one (named as Blender names
    new data: ``.001`` added where the name is taken), as Blender's importer
    finds or makes them."""
    for name in path:
        child = next((c for c in parent.children if c.name == name), None)
        if child is None:
            child = bpy.data.collections.new(name)
            parent.children.link(child)
        parent = child
    return parent


def _mesh(imported, version: tuple):
    """A Blender mesh of ``imported``'s arrays, made in the order Blender's
    importer makes it: faces, edges, UVs, colors (custom normals come next,
    on the object). From 4.0 the edges are oxport's (``imported.edges``, in
    another order than Blender's own, which depends on its thread count);
    3.4's are Blender's."""
    mesh = bpy.data.meshes.new(imported.name)
    offsets = imported.face_offsets
    mesh.vertices.add(len(imported.positions))
    mesh.loops.add(len(imported.corner_vertices))
    mesh.polygons.add(len(offsets) - 1)
    if version >= (4, 0):
        mesh.edges.add(len(imported.edges))
        # The attributes themselves: one copy each (the element properties
        # of vertices, loops and polygons are read one by one).
        attributes = mesh.attributes
        attributes["position"].data.foreach_set("vector", _flat(imported.positions))
        if len(imported.edges):
            attributes[".edge_verts"].data.foreach_set("value", _flat(imported.edges, "i"))
        if len(imported.corner_vertices):  # (a mesh without faces has no such attribute)
            attributes[".corner_vert"].data.foreach_set("value", _flat(imported.corner_vertices, "i"))
            attributes[".corner_edge"].data.foreach_set("value", _flat(imported.corner_edges, "i"))
        attributes.new("sharp_face", "BOOLEAN", "FACE").data.foreach_set("value", ~imported.smooth_faces)
    else:
        mesh.vertices.foreach_set("co", _flat(imported.positions))
        mesh.loops.foreach_set("vertex_index", _flat(imported.corner_vertices))
        mesh.polygons.foreach_set("loop_total", _flat(imported.face_sizes))
        mesh.polygons.foreach_set("use_smooth", _flat(imported.smooth_faces))
    # An attribute of its own on every version (3.4's property makes none for zeros).
    mesh.attributes.new("material_index", "INT", "FACE").data.foreach_set(
        "value", _flat(imported.material_indices, "i"))
    mesh.polygons.foreach_set("loop_start", _flat(offsets[:len(offsets) - 1]))
    if version < (4, 0):
        if len(imported.loose_edges):
            mesh.edges.add(len(imported.loose_edges))
            mesh.edges.foreach_set("vertices", _flat(imported.loose_edges))
        mesh.update(calc_edges=True)
    else:
        mesh.update()
    if imported.corner_uvs is not None:
        layer = mesh.uv_layers.new(name="UVMap", do_init=False)
        if version >= (4, 0):
            # The layer's attribute: one copy (the layer's items are set one by one).
            mesh.attributes[layer.name].data.foreach_set("vector", _flat(imported.corner_uvs))
        else:
            layer.data.foreach_set("uv", _flat(imported.corner_uvs))
    if imported.colors is not None:
        colors = mesh.color_attributes.new("Color", "FLOAT_COLOR", "POINT")
        colors.data.foreach_set("color", _flat(imported.colors))
        mesh.color_attributes.active_color = colors
        if version >= (4, 0):
            mesh.color_attributes.render_color_index = mesh.color_attributes.active_color_index
    return mesh


class _CustomNormals:
    """Sets custom normals as Blender's importer does (``mesh_set_custom_normals``:
    encoded in each corner's normal space, edges marked sharp where the
    normals of a fan part). On Blender 4.5 and 5.0 oxport computes them
    (``oxport.blender.CustomNormalsStream``: on all cores, while the next
    meshes are made) and they are copied into
    the ``custom_normal`` and ``sharp_edge`` attributes. Elsewhere Blender's
    own function runs: through ``normals_split_custom_set``, where Python's
    float conversion costs more than the work, or, from Blender 4.5 for big
    meshes, from C: the normals go in as a corner attribute and a
    geometry-nodes modifier (Set Mesh Normal, tangent space) is applied."""

    ATTRIBUTE = ".oxport_normal"

    def __init__(self) -> None:
        self.tree = None
        self.stream = None
        #: Per mesh handed to the stream, its number among those added.
        self.streamed: list = []
        self.count = 0

    #: Below this many corners, ``normals_split_custom_set`` costs less than
    #: applying a modifier (an operator call and a copy of the mesh).
    SMALL = 50_000

    def add(self, imported, version: tuple) -> None:
        """Hands the next mesh (they are numbered in the order added) to
        oxport, which computes its custom normals (Blender 4.5 and 5.0)
        against its own edges, those the mesh is given."""
        index = self.count
        self.count += 1
        if (version < (4, 5) or numpy is None or imported.corner_normals is None
                or not len(imported.corner_vertices)):
            return
        if self.stream is None:
            self.stream = oxport.blender.CustomNormalsStream()
        self.stream.add(imported)
        self.streamed.append(index)

    def results(self) -> list:
        """Per mesh added, its custom normals as oxport computed them, or
        None: no normals, or left to Blender (:meth:`set`)."""
        encoded = [None] * self.count
        if self.stream is not None:
            for index, normals in zip(self.streamed, self.stream.finish()):
                encoded[index] = normals
        return encoded

    @staticmethod
    def store(mesh, custom) -> None:
        """Copies normals from :meth:`results` into the mesh's attributes."""
        attributes = mesh.attributes
        attributes.new("custom_normal", "INT16_2D", "CORNER").data.foreach_set(
            "value", custom.encoded.reshape(-1))
        sharp = attributes.get("sharp_edge") or attributes.new("sharp_edge", "BOOLEAN", "EDGE")
        sharp.data.foreach_set("value", custom.sharp_edges)

    def set(self, obj, normals, version: tuple) -> None:
        """Blender's own function sets the normals (``normals``: per corner)."""
        mesh = obj.data
        if not hasattr(bpy.types, "GeometryNodeSetMeshNormal") or len(normals) < self.SMALL:
            if version < (4, 1):
                mesh.use_auto_smooth = True
            # float64 rows (numpy's, where Blender has it) are read without
            # making Python floats first.
            rows = normals.astype("<f8") if hasattr(normals, "astype") else normals.tolist()
            mesh.normals_split_custom_set(rows)
            return
        mesh.attributes.new(self.ATTRIBUTE, "FLOAT_VECTOR", "CORNER").data.foreach_set(
            "vector", _flat(normals))
        modifier = obj.modifiers.new("oxport normals", "NODES")
        modifier.node_group = self._tree()
        with bpy.context.temp_override(object=obj, active_object=obj):
            bpy.ops.object.modifier_apply(modifier=modifier.name)

    def _tree(self):
        if self.tree is None:
            tree = bpy.data.node_groups.new(".oxport custom normals", "GeometryNodeTree")
            tree.interface.new_socket("Geometry", in_out="INPUT", socket_type="NodeSocketGeometry")
            tree.interface.new_socket("Geometry", in_out="OUTPUT", socket_type="NodeSocketGeometry")
            given, result = tree.nodes.new("NodeGroupInput"), tree.nodes.new("NodeGroupOutput")
            normal = tree.nodes.new("GeometryNodeSetMeshNormal")
            normal.mode, normal.domain = "TANGENT_SPACE", "CORNER"
            values = tree.nodes.new("GeometryNodeInputNamedAttribute")
            values.data_type = "FLOAT_VECTOR"
            values.inputs["Name"].default_value = self.ATTRIBUTE
            remove = tree.nodes.new("GeometryNodeRemoveAttribute")
            remove.inputs["Name"].default_value = self.ATTRIBUTE
            tree.links.new(given.outputs[0], normal.inputs["Mesh"])
            tree.links.new(values.outputs["Attribute"], normal.inputs["Custom Normal"])
            tree.links.new(normal.outputs[0], remove.inputs[0])
            tree.links.new(remove.outputs[0], result.inputs[0])
            self.tree = tree
        return self.tree

    def close(self) -> None:
        if self.stream is not None:
            self.stream.close()
            self.stream = None
        if self.tree is not None:
            bpy.data.node_groups.remove(self.tree)
            self.tree = None


def _flat(rows, typecode: str | None = None):
    """An array (of rows) as ``foreach_set`` takes it: a flat numpy array,
    its items reinterpreted as ``typecode`` if given (``"i"``: signed, which
    integer attributes copy in one go); where Blender has no numpy (Debian's
    3.4), oxport's arrays are memoryviews, which its ``foreach_set`` does not
    read: copied then into an ``array`` (or a list, for booleans)."""
    if not isinstance(rows, memoryview):
        flat = rows.reshape(-1)
        return flat.view(typecode) if typecode else flat
    if rows.format == "?":
        return rows.tolist()
    flat = array(typecode or rows.format)
    flat.frombytes(rows.cast("B"))
    return flat


def _blender_materials(path: str, mtllibs: list, meshes: list, options: dict) -> dict:
    """The materials the meshes use, made by Blender's own importer from the
    MTL files the OBJ file names, in the order Blender makes them."""
    names = list(dict.fromkeys(name for m in meshes for name in m.materials))
    if not names:
        return {}
    folder = os.path.dirname(os.path.abspath(path))
    # Beside the original, so that MTL and texture paths resolve as they do for it.
    dummy = os.path.join(folder, f".oxport-materials-{os.getpid()}.obj")
    lines = [f"mtllib {library}" for library in mtllibs]
    default = os.path.splitext(os.path.basename(path))[0] + ".mtl"
    if os.path.exists(os.path.join(folder, default)):
        lines.append(f"mtllib {default}")
    lines += ["v 0 0 0", "v 1 0 0", "v 0 1 0"]
    for name in names:
        lines += [f"usemtl {name}", "f 1 2 3"]
    objects_before = set(bpy.data.objects)
    try:
        with open(dummy, "w", encoding="utf-8") as f:
            f.write("\n".join(lines) + "\n")
        extra = {}
        if "mtl_name_collision_mode" in options:
            extra["mtl_name_collision_mode"] = options["mtl_name_collision_mode"]
        bpy.ops.wm.obj_import(filepath=dummy, **extra)
    finally:
        if os.path.exists(dummy):
            os.remove(dummy)
    (made,) = [obj for obj in bpy.data.objects if obj not in objects_before]
    materials = dict(zip(names, (slot.material for slot in made.material_slots)))
    mesh = made.data
    bpy.data.objects.remove(made)
    bpy.data.meshes.remove(mesh)
    return materials
