"""Blender script: objects with node materials (Principled BSDF with varied
roughness, specular, metallic, IOR, alpha, emission), viewport-only materials,
names with spaces, a material shared by two objects, an empty slot and
material indices past the slots; exported with
Blender's own OBJ exporter.

blender -b --factory-startup --python materials_scene.py -- SEED OUT.obj"""

import random
import sys

import bpy

argv = sys.argv[sys.argv.index("--") + 1:]
seed, out = int(argv[0]), argv[1]
rng = random.Random(seed)
bpy.ops.wm.read_factory_settings(use_empty=True)

# The Principled BSDF's inputs by their Blender 3.4 names, as Blender 4.0+
# names them.
RENAMED = {"Specular": "Specular IOR Level", "Emission": "Emission Color", "Sheen": "Sheen Weight",
           "Clearcoat": "Coat Weight", "Transmission": "Transmission Weight"}


def socket(bsdf, name):
    """The BSDF input called ``name`` in Blender 3.4, in any version."""
    if "Specular IOR Level" in bsdf.inputs:
        name = RENAMED.get(name, name)
    return bsdf.inputs[name]


materials = []
for i in range(8):
    material = bpy.data.materials.new(f"node material {i}" if i % 2 else f"node_{i}")
    material.use_nodes = True
    bsdf = material.node_tree.nodes["Principled BSDF"]
    socket(bsdf, "Base Color").default_value = (rng.random(), rng.random(), rng.random(), 1.0)
    socket(bsdf, "Roughness").default_value = rng.random()
    socket(bsdf, "Specular").default_value = rng.choice([0.0, 0.25, 0.5, rng.random()])
    socket(bsdf, "Metallic").default_value = rng.choice([0.0, 1.0, rng.random()])
    socket(bsdf, "IOR").default_value = rng.uniform(1.0, 2.5)
    socket(bsdf, "Alpha").default_value = rng.choice([1.0, rng.random()])
    socket(bsdf, "Emission").default_value = (rng.random(), rng.random(), rng.random(), 1.0)
    socket(bsdf, "Emission Strength").default_value = rng.choice([0.0, rng.uniform(0.1, 5.0)])
    for name in ("Transmission", "Sheen", "Clearcoat", "Anisotropic", "Anisotropic Rotation"):
        socket(bsdf, name).default_value = rng.choice([0.0, rng.random()])  # PBR extensions
    materials.append(material)
for i in range(3):
    material = bpy.data.materials.new(f"viewport {i}")
    material.diffuse_color = (rng.random(), rng.random(), rng.random(), rng.choice([1.0, 0.5]))
    material.roughness = rng.random()
    material.metallic = rng.choice([0.0, rng.random()])
    material.specular_intensity = rng.choice([0.0, 0.5, rng.random()])
    materials.append(material)

for i in range(6):
    rng.choice([bpy.ops.mesh.primitive_cube_add, bpy.ops.mesh.primitive_uv_sphere_add,
                bpy.ops.mesh.primitive_monkey_add])(location=(rng.uniform(-5, 5), rng.uniform(-5, 5), 0))
    ob = bpy.context.active_object
    ob.name = f"object {i}"
    for material in rng.sample(materials, 3):
        ob.data.materials.append(material)
    for polygon in ob.data.polygons:
        polygon.material_index = rng.randrange(3)
        polygon.use_smooth = rng.random() < 0.5

# An empty slot between two materials, and faces whose index is past the slots.
bpy.ops.mesh.primitive_cube_add(location=(0, 0, 4))
ob = bpy.context.active_object
ob.name = "empty slots"
for material in (materials[0], None, materials[1]):
    ob.data.materials.append(material)
for polygon in ob.data.polygons:
    polygon.material_index = polygon.index % 5

bpy.ops.wm.obj_export(filepath=out, export_selected_objects=False)
