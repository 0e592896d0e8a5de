# Blender script: a small scene exercising the exporter's options: modifiers
# (subdivision, array, bevel), sharp edges, vertex groups, point and corner colors, collection instances, hidden
# objects, curves and a surface, point colors (float and byte), corner colors,
# animation (location, rotation and scale keyframes over frames 1 to 3), names
# with spaces (objects and meshes), materials, flat and smooth faces, n-gons,
# loose edges. Exports it with Blender's OBJ exporter (default options).
# With "curves", Bezier and NURBS curves and a NURBS surface too (Blender 3.4's own
# exporter crashes on those with apply_modifiers=False).
# Usage: blender -b --factory-startup --python features_scene.py -- SEED [curves] OUT.obj
import random
import sys

import bpy

argv = sys.argv[sys.argv.index("--") + 1:]
seed, out = int(argv[0]), argv[-1]
with_curves = "curves" in argv[1:-1]
rng = random.Random(seed)
bpy.ops.wm.read_factory_settings(use_empty=True)
materials = []
for i in range(3):
    material = bpy.data.materials.new(f"feature material {i}")
    material.diffuse_color = (rng.random(), rng.random(), rng.random(), 1.0)
    materials.append(material)


def place(ob, name, mesh_name):
    ob.name = name
    ob.data.name = mesh_name
    ob.location = (rng.uniform(-5, 5), rng.uniform(-5, 5), rng.uniform(0, 3))
    ob.rotation_euler = (rng.uniform(0, 3), rng.uniform(0, 3), rng.uniform(0, 3))
    for material in rng.sample(materials, 2):
        ob.data.materials.append(material)
    for poly in ob.data.polygons:
        poly.material_index = rng.randrange(2)
        poly.use_smooth = rng.random() < 0.5
    return ob


def point_colors(ob, kind, domain="POINT"):
    attribute = ob.data.color_attributes.new("paint", kind, domain)
    for value in attribute.data:
        value.color = (rng.uniform(0, 1.2), rng.random(), rng.uniform(0, 0.01), 1.0)
    ob.data.color_attributes.active_color = attribute


bpy.ops.mesh.primitive_monkey_add()
monkey = place(bpy.context.active_object, "Monkey Head", "Suzanne Mesh")
monkey.modifiers.new("subdivision", "SUBSURF").levels = 1
point_colors(monkey, "FLOAT_COLOR")

bpy.ops.mesh.primitive_cube_add()
cubes = place(bpy.context.active_object, "Cube Row", "Cube")
cubes.modifiers.new("array", "ARRAY").count = 3
point_colors(cubes, "BYTE_COLOR")

bpy.ops.mesh.primitive_cylinder_add(vertices=12)
cylinder = place(bpy.context.active_object, "Spinning_Cylinder", "Cylinder")
cylinder.modifiers.new("bevel", "BEVEL").width = 0.05
for frame in (1, 3):
    bpy.context.scene.frame_set(frame)
    cylinder.location.z += rng.uniform(0.5, 2)
    cylinder.rotation_euler.z += rng.uniform(0.5, 2)
    cylinder.scale = (rng.uniform(0.5, 2),) * 3
    for path in ("location", "rotation_euler", "scale"):
        cylinder.keyframe_insert(path, frame=frame)
bpy.context.scene.frame_set(2)

bpy.ops.mesh.primitive_ico_sphere_add(subdivisions=2)
ico = place(bpy.context.active_object, "Ico", "Ico Mesh")
for edge in ico.data.edges:  # sharp edges split smooth groups
    edge.use_edge_sharp = rng.random() < 0.2
for poly in ico.data.polygons:
    poly.use_smooth = rng.random() < 0.9
for name in ("top side", "bottom", "ring"):  # vertex groups, one name with a space
    group = ico.vertex_groups.new(name=name)
    for vertex in ico.data.vertices:
        if rng.random() < 0.4:
            group.add([vertex.index], rng.random(), "REPLACE")
cubes.vertex_groups.new(name="unused")
point_colors(ico, "BYTE_COLOR", "CORNER")  # vertex paint's default
point_colors(cylinder, "FLOAT_COLOR", "CORNER")

bpy.ops.mesh.primitive_circle_add(vertices=16, fill_type="NOTHING")
circle = bpy.context.active_object
circle.name = "Wire Circle"
circle.location = (0, 0, rng.uniform(-2, 2))

# A collection instanced twice by empties, and objects Blender leaves out:
# one disabled in viewports, one hidden in the view layer.
props = bpy.data.collections.new("Props")
bpy.ops.mesh.primitive_cone_add(vertices=8)
cone = place(bpy.context.active_object, "Prop Cone", "Cone Mesh")
bpy.context.scene.collection.objects.unlink(cone)
props.objects.link(cone)
for i in range(2):
    empty = bpy.data.objects.new(f"Props Instance {i}", None)
    empty.instance_type = "COLLECTION"
    empty.instance_collection = props
    empty.location = (rng.uniform(-6, 6), rng.uniform(-6, 6), 0)
    bpy.context.scene.collection.objects.link(empty)
bpy.ops.mesh.primitive_cube_add(location=(0, 0, 5))
bpy.context.active_object.name = "Disabled Cube"
bpy.context.active_object.hide_viewport = True
bpy.ops.mesh.primitive_cube_add(location=(0, 0, 7))
bpy.context.active_object.name = "Hidden Cube"
bpy.context.active_object.hide_set(True)

if with_curves:
    bpy.ops.curve.primitive_bezier_curve_add(location=(2, 2, 0))
    bpy.context.active_object.name = "Bezier Wire"
    bpy.ops.curve.primitive_bezier_circle_add(location=(-2, 2, 0))
    tube = bpy.context.active_object
    tube.name = "Bezier Tube"
    tube.data.bevel_depth = 0.1  # faces, and a mesh instance besides the curve
    tube.data.materials.append(materials[0])
    bpy.ops.curve.primitive_nurbs_path_add(location=(0, -3, 1))
    bpy.context.active_object.name = "Nurbs Path"
    bpy.ops.curve.primitive_nurbs_circle_add(location=(-3, -3, 1))  # cyclic
    bpy.context.active_object.name = "Nurbs Circle"
    bpy.ops.curve.primitive_nurbs_curve_add(location=(-3, 3, 1))
    bpy.context.active_object.data.splines[0].use_endpoint_u = False
    bpy.context.active_object.name = "Nurbs Open"
    bpy.ops.curve.primitive_nurbs_circle_add(location=(3, 3, 1))
    bpy.context.active_object.name = "Nurbs Ring"  # cyclic, Bezier knots: an empty first span
    bpy.context.active_object.data.splines[0].use_endpoint_u = False
    bpy.ops.curve.primitive_nurbs_curve_add(location=(0, 3, 2))
    bpy.context.active_object.name = "Nurbs Loop"  # cyclic, endpoint knots
    loop = bpy.context.active_object.data.splines[0]
    loop.use_cyclic_u = True
    loop.order_u = 3
    bpy.ops.surface.primitive_nurbs_surface_sphere_add(location=(3, -3, 1))
    bpy.context.active_object.name = "Nurbs Sphere"

bpy.ops.wm.obj_export(filepath=out)
