# Blender script: objects in nested collections, for collection exporters
# (`wm.obj_export(collection=...)`, Blender 4.2+): an object in two
# collections, an instance of one collection in another, objects hidden, an
# excluded collection. Exports the whole scene with Blender's OBJ exporter.
# Usage: blender -b --factory-startup --python collections_scene.py -- SEED OUT.obj
import random
import sys

import bpy

argv = sys.argv[sys.argv.index("--") + 1:]
seed, out = int(argv[0]), argv[1]
rng = random.Random(seed)
bpy.ops.wm.read_factory_settings(use_empty=True)
scene = bpy.context.scene


def collection(name, parent):
    made = bpy.data.collections.new(name)
    parent.children.link(made)
    return made


a = collection("A", scene.collection)
b = collection("B", a)
c = collection("C", scene.collection)
d = collection("D", b)


def mesh(name, into):
    rng.choice([bpy.ops.mesh.primitive_cube_add, bpy.ops.mesh.primitive_uv_sphere_add,
                bpy.ops.mesh.primitive_monkey_add])(
        location=(rng.uniform(-5, 5), rng.uniform(-5, 5), rng.uniform(0, 3)),
        rotation=(rng.uniform(0, 3), rng.uniform(0, 3), rng.uniform(0, 3)))
    ob = bpy.context.active_object
    ob.name = name
    for other in list(ob.users_collection):
        other.objects.unlink(ob)
    into.objects.link(ob)
    return ob


mesh("in D (excluded)", d)
mesh("b in A", a)
mesh("a in B", b)
mesh("m in C", c)
mesh("c in A", a).scale = (1.5, 0.5, 2.0)
shared = mesh("shared by B and C", b)
c.objects.link(shared)
mesh("hidden in B", b).hide_set(True)
mesh("no viewport in B", b).hide_viewport = True
mesh("no render in A", a).hide_render = True
instancer = bpy.data.objects.new("instance of C", None)
instancer.instance_type = "COLLECTION"
instancer.instance_collection = c
instancer.location = (8, 0, 0)
a.objects.link(instancer)
bpy.context.view_layer.layer_collection.children["A"].children["B"].children["D"].exclude = True
bpy.context.view_layer.update()

bpy.ops.wm.obj_export(filepath=out)
