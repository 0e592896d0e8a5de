"""Runs inside Blender: imports OBJ files with Blender's importer
(``wm.obj_import``) or with the add-on (``import_scene.oxport_obj``) into the
empty scene, then saves what was made: per object of the active collection
and then of its child collections (depth first), in order, its name, matrix,
mesh arrays (its edges as a set), materials (node trees with their values and images) and vertex
groups; the child collections' tree.

blender -b --factory-startup --python import_dump.py -- ROOT MODE OUT OBJ... [--options JSON]
python import_dump.py -- ROOT MODE OUT OBJ... [--options JSON]     (PyPI's bpy)

MODE is ``blender`` or ``oxport``; OUT gets ``OUT.arrays`` (a pickled dict
of ``(typecode, bytes)``: Debian's Blender has no numpy) and ``OUT.json``
(the rest). Prints one line starting with OXPORT_IMPORT, then
ends the process."""

import json
import os
import pickle
import sys
import time
from array import array

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from blender_process import arguments, run  # noqa: E402


def main() -> None:
    argv, options = arguments()
    each = "--each" in argv
    if each:
        argv.remove("--each")
    root, mode, out, *paths = argv
    sys.path.insert(0, os.path.join(root, "python"))
    sys.path.insert(0, os.path.join(root, "integrations", "blender"))

    import bpy

    bpy.ops.wm.read_factory_settings(use_empty=True)
    if mode == "oxport":
        import oxport_obj

        oxport_obj.register()
    if not each:
        start = time.perf_counter()
        import_files(bpy, mode, paths, options)
        seconds = time.perf_counter() - start
        objects = dump(bpy, out, seconds)
        print("OXPORT_IMPORT " + json.dumps({"seconds": seconds, "objects": objects}))
        return
    # Each file into a scene of its own: OUT-0, OUT-1, ... and one line
    # with what each import raised (None where it finished).
    errors = []
    for i, path in enumerate(paths):
        bpy.ops.wm.read_factory_settings(use_empty=True)
        try:
            start = time.perf_counter()
            import_files(bpy, mode, [path], options)
        except Exception as error:  # noqa: BLE001  (reported, and compared by the test)
            errors.append(f"{type(error).__name__}: {error}")
            continue
        dump(bpy, f"{out}-{i}", time.perf_counter() - start)
        errors.append(None)
    print("OXPORT_IMPORT " + json.dumps({"errors": errors}))


def curve(bpy, obj) -> dict:
    """A curve object: its name, matrix and splines (NURBS: order,
    flags, points with weights), and the points Blender evaluates of it,
    which its knots place (Blender's Python API shows no custom knots)."""
    splines = []
    for spline in obj.data.splines:
        splines.append({
            "type": spline.type, "order": [spline.order_u, spline.order_v],
            "resolution": [spline.resolution_u, spline.resolution_v], "smooth": spline.use_smooth,
            "cyclic": spline.use_cyclic_u, "endpoint": spline.use_endpoint_u, "bezier": spline.use_bezier_u,
            "points": [list(p.co) for p in spline.points], "weights": [p.weight for p in spline.points],
            "radii": [p.radius for p in spline.points], "tilts": [p.tilt for p in spline.points],
        })
    evaluated = obj.evaluated_get(bpy.context.evaluated_depsgraph_get())
    mesh = evaluated.to_mesh()
    shape = [list(v.co) for v in mesh.vertices] if mesh is not None else None  # (None: nothing to draw)
    evaluated.to_mesh_clear()
    return {"name": obj.name, "type": "CURVE", "data": obj.data.name, "matrix": [list(row) for row in obj.matrix_world],
            "dimensions": obj.data.dimensions, "resolution": [obj.data.resolution_u, obj.data.resolution_v],
            "splines": splines, "evaluated": shape, "selected": obj.select_get()}


def import_files(bpy, mode: str, paths: list, options: dict) -> None:
    if mode == "blender":
        for path in paths:
            bpy.ops.wm.obj_import(filepath=path, **options)
    else:
        files = [{"name": os.path.basename(p)} for p in paths]
        result = bpy.ops.import_scene.oxport_obj(filepath=paths[0], directory=os.path.dirname(paths[0]),
                                                 files=files, **options)
        assert result == {"FINISHED"}, result


def walk(collection):
    """The objects of ``collection`` and then of its children, depth first."""
    yield from collection.objects
    for child in collection.children:
        yield from walk(child)


def collections(collection) -> list:
    """The child collections of ``collection``: names, objects, children."""
    return [{"name": c.name, "objects": [o.name for o in c.objects], "children": collections(c)}
            for c in collection.children]


def dump(bpy, out: str, seconds: float) -> int:
    """Saves what the scene holds (see the module's docstring); gives the
    number of objects."""
    version = tuple(bpy.app.version[:2])
    arrays, objects = {}, []
    collection = bpy.context.view_layer.active_layer_collection.collection
    for i, obj in enumerate(walk(collection)):
        mesh = obj.data
        key = f"{i}/"
        if obj.type == "CURVE":
            objects.append(curve(bpy, obj))
            continue

        def get(seq, attr, typecode, width, name=None):
            values = array(typecode, bytes(array(typecode).itemsize * len(seq) * width))
            seq.foreach_get(attr, values)
            arrays[key + (name or attr)] = (typecode, values.tobytes())
        get(mesh.vertices, "co", "f", 3)
        get(mesh.loops, "vertex_index", "i", 1)
        get(mesh.polygons, "loop_start", "i", 1)
        get(mesh.polygons, "loop_total", "i", 1)
        smooth = [False] * len(mesh.polygons)
        mesh.polygons.foreach_get("use_smooth", smooth)
        arrays[key + "use_smooth"] = ("b", bytes(smooth))
        get(mesh.polygons, "material_index", "i", 1)
        # The edges as a set, each corner's edge by its vertices, and the sharp
        # edges as a set: the order of the edges is Blender's own business
        # (its importer's depends on its thread count; oxport's is another).
        ends = array("i", bytes(8 * len(mesh.edges)))
        mesh.edges.foreach_get("vertices", ends)
        pairs = [(min(a, b), max(a, b)) for a, b in zip(ends[0::2], ends[1::2])]
        arrays[key + "edges"] = ("i", array("i", [v for pair in sorted(pairs) for v in pair]).tobytes())
        corner_edges = array("i", bytes(4 * len(mesh.loops)))
        mesh.loops.foreach_get("edge_index", corner_edges)
        arrays[key + "corner_edges"] = ("i", array("i", [v for e in corner_edges for v in pairs[e]]).tobytes())
        if version < (4, 1):
            mesh.calc_normals_split()
            get(mesh.loops, "normal", "f", 3)
        else:
            get(mesh.corner_normals, "vector", "f", 3, "normal")
            # How the normals are stored, as well as what they are.
            stored = mesh.attributes.get("custom_normal")
            if stored is not None and stored.data_type == "INT16_2D":
                get(stored.data, "value", "h", 2, "custom_normal")
            sharp = mesh.attributes.get("sharp_edge")
            if sharp is not None:
                flags = [False] * len(sharp.data)
                sharp.data.foreach_get("value", flags)
                marked = sorted(pair for pair, flag in zip(pairs, flags) if flag)
                arrays[key + "sharp_edge"] = ("i", array("i", [v for pair in marked for v in pair]).tobytes())
        for layer in mesh.uv_layers:
            get(layer.data, "uv", "f", 2, "uv/" + layer.name)
        for attribute in mesh.color_attributes:
            get(attribute.data, "color", "f", 4, "color/" + attribute.name)
        groups = {g.index: g.name for g in obj.vertex_groups}
        membership = [sorted((groups[e.group], e.weight) for e in v.groups) for v in mesh.vertices]
        objects.append({
            "name": obj.name, "mesh": mesh.name, "matrix": [list(row) for row in obj.matrix_world],
            "materials": [slot.material.name if slot.material else None for slot in obj.material_slots],
            "uv_layers": [layer.name for layer in mesh.uv_layers],
            "attributes": sorted((a.name, a.domain, a.data_type) for a in mesh.attributes
                                 if not a.name.startswith(".")),
            "color_attributes": [(a.name, a.domain, a.data_type) for a in mesh.color_attributes],
            "active_color": mesh.color_attributes.active_color_name if version >= (3, 5) else None,
            "vertex_groups": [g.name for g in obj.vertex_groups],
            "group_membership": membership if obj.vertex_groups else None,
            "selected": obj.select_get(),
            # Last, as it may change the mesh: whether validating finds anything left to fix.
            "validate_changes": mesh.validate(),
        })
    materials = {}
    for material in bpy.data.materials:
        tree = material.node_tree
        nodes = []
        if tree is not None:
            for node in tree.nodes:
                values = {}
                for socket in node.inputs:
                    value = getattr(socket, "default_value", None)
                    if value is not None:
                        values[socket.identifier] = list(value) if hasattr(value, "__len__") else value
                image = getattr(node, "image", None)
                nodes.append({"name": node.name, "type": node.bl_idname, "inputs": values,
                              "image": image.filepath if image else None})
            links = sorted((l.from_node.name, l.from_socket.identifier, l.to_node.name, l.to_socket.identifier)
                           for l in tree.links)
        else:
            links = []
        materials[material.name] = {"nodes": nodes, "links": links, "users": material.users}
    active = bpy.context.view_layer.objects.active
    with open(out + ".arrays", "wb") as f:
        pickle.dump(arrays, f)
    with open(out + ".json", "w") as f:
        json.dump({"objects": objects, "collections": collections(collection), "materials": materials, "images": sorted(i.filepath for i in bpy.data.images),
                   "active": active.name if active else None, "seconds": seconds}, f)
    return len(objects)


run(main)
