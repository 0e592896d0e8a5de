"""Materials as Blender 3.4's exporter writes them: a material's values and
texture maps gathered from Blender, its MTL values computed by
``oxport.blender.mtl_material``."""

from __future__ import annotations

import os

import bpy

from .options import NotSupported
from .package import oxport


def mtl_material(material: bpy.types.Material, paths: "TexturePaths", pbr: bool) -> oxport.Material:
    """Blender 3.4's MTL values for a material (``oxport.blender.mtl_material``):
    from its Principled BSDF when one feeds the material output, from the
    material's viewport values otherwise; image textures linked to the BSDF
    as texture maps."""
    bsdf = _principled_bsdf(material)
    values = None
    if bsdf is not None:
        inputs = bsdf.inputs
        value = lambda name: _input(bsdf, name).default_value  # noqa: E731
        # Blender 4.0+ writes 4 × Coat Weight where 3.4 wrote Clearcoat (which
        # held an implicit factor of 1/4).
        coat = 4.0 if "Coat Weight" in inputs else 1.0
        values = oxport.blender.Bsdf(
            roughness=value("Roughness"), specular=value("Specular"), metallic=value("Metallic"),
            ior=value("IOR"), alpha=value("Alpha"), base_color=tuple(value("Base Color")[:3]),
            emission=tuple(value("Emission")[:3]),
            emission_strength=value("Emission Strength") if "Emission Strength" in inputs else None,
            sheen=value("Sheen"), clearcoat=coat * value("Clearcoat"),
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


# The Principled BSDF's inputs by their Blender 3.4 names, as Blender 4.0+
# names them.
_RENAMED_SOCKETS = {"Specular": "Specular IOR Level", "Emission": "Emission Color",
                    "Sheen": "Sheen Weight", "Clearcoat": "Coat Weight",
                    "Clearcoat Roughness": "Coat Roughness", "Transmission": "Transmission Weight"}


def _input(bsdf, name: str):
    """The BSDF's input called ``name`` in Blender 3.4, in any version."""
    if "Specular IOR Level" in bsdf.inputs:  # Blender 4.0+
        name = _RENAMED_SOCKETS.get(name, name)
    return bsdf.inputs[name]


class TexturePaths:
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


def _texture_maps(material, bsdf, paths: TexturePaths, pbr: bool) -> list:
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
        source = _input(bsdf, socket)
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
