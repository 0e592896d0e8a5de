# Blender script: objects whose materials use image textures (saved as PNG files
# in an "images" folder beside the export's folder): a texture on each BSDF input
# Blender's exporter knows (and Sheen, which it leaves out), a normal map, a
# Mapping node on the first texture; a second material with its own Mapping
# (which Blender 3.4 ignores) and a default-strength normal map; a material
# whose image has no file; packed images. Exports it with Blender's OBJ exporter.
# Usage: blender -b --factory-startup --python textures_scene.py -- SEED OUT.obj
import os
import random
import sys

import bpy

argv = sys.argv[sys.argv.index("--") + 1:]
seed, out = int(argv[0]), argv[-1]
rng = random.Random(seed)
bpy.ops.wm.read_factory_settings(use_empty=True)
folder = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(out))), "images")
os.makedirs(folder, exist_ok=True)


def image(name, saved=True):
    img = bpy.data.images.new(name, 4, 4)
    if saved:
        img.filepath_raw = os.path.join(folder, f"{name}.png")
        img.file_format = "PNG"
        img.save()
    return img


# The Principled BSDF's inputs by their Blender 3.4 names, as Blender 4.0+
# names them.
RENAMED = {"Specular": "Specular IOR Level", "Emission": "Emission Color", "Sheen": "Sheen Weight",
           "Clearcoat": "Coat Weight", "Transmission": "Transmission Weight"}


def socket(bsdf, name):
    """The BSDF input called ``name`` in Blender 3.4, in any version."""
    if "Specular IOR Level" in bsdf.inputs:
        name = RENAMED.get(name, name)
    return bsdf.inputs[name]


def textured(name, sockets, mapping_on=None, normal_strength=None, saved=True):
    material = bpy.data.materials.new(name)
    material.use_nodes = True
    tree = material.node_tree
    bsdf = tree.nodes["Principled BSDF"]
    bsdf.inputs["Roughness"].default_value = rng.random()
    for name_in_3_4 in sockets:
        texture = tree.nodes.new("ShaderNodeTexImage")
        texture.image = image(f"{name}_{name_in_3_4}".replace(" ", "_").lower(), saved)
        output = "Alpha" if name_in_3_4 == "Alpha" else "Color"
        tree.links.new(texture.outputs[output], socket(bsdf, name_in_3_4))
        if name_in_3_4 == mapping_on:
            mapping = tree.nodes.new("ShaderNodeMapping")
            mapping.inputs["Location"].default_value = (rng.random(), 0.25, 0.0)
            mapping.inputs["Scale"].default_value = (2.0, rng.uniform(1, 3), 1.0)
            tree.links.new(mapping.outputs["Vector"], texture.inputs["Vector"])
    if normal_strength is not None:
        normal_map = tree.nodes.new("ShaderNodeNormalMap")
        normal_map.inputs["Strength"].default_value = normal_strength
        texture = tree.nodes.new("ShaderNodeTexImage")
        texture.image = image(f"{name}_normal".lower(), saved)
        tree.links.new(texture.outputs["Color"], normal_map.inputs["Color"])
        tree.links.new(normal_map.outputs["Normal"], bsdf.inputs["Normal"])
    return material


materials = [
    textured("Everything", ["Base Color", "Specular", "Roughness", "Alpha", "Metallic", "Emission",
                            "Sheen"], mapping_on="Base Color", normal_strength=rng.uniform(0.2, 2)),
    textured("Second Mapping", ["Base Color", "Roughness"], mapping_on="Roughness", normal_strength=1.0),
    textured("No File", ["Base Color"], saved=False),
    textured("Packed", ["Base Color", "Emission"]),
]
for image in bpy.data.images:  # packed into the .blend: written by file name
    if image.name.startswith("packed_"):
        image.pack()
for i, material in enumerate(materials):
    bpy.ops.mesh.primitive_cube_add(location=(3 * i, 0, 0))
    bpy.context.active_object.data.materials.append(material)

bpy.ops.wm.obj_export(filepath=out)
