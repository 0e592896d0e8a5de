"""Materials as the running Blender's exporter writes them: a material's
values and image textures gathered from Blender, its MTL values and texture
maps computed by ``oxport.blender.mtl_material``."""

from __future__ import annotations

import os

import bpy

from .options import NotSupported
from .package import oxport


def mtl_material(material: bpy.types.Material, paths: "TexturePaths", pbr: bool) -> oxport.Material:
    """The MTL values the running Blender writes for a material
    (``oxport.blender.mtl_material``): from its Principled BSDF when one
    feeds the material output, from the material's viewport values
    otherwise; image textures linked to the BSDF as texture maps."""
    bsdf = _principled_bsdf(material)
    values = None
    textures: list = []
    pending: dict = {}
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
        textures, pending = _image_textures(material, bsdf, paths)
    result = oxport.blender.mtl_material(
        material.name, roughness=material.roughness, specular_intensity=material.specular_intensity,
        metallic=material.metallic, diffuse_color=tuple(material.diffuse_color), bsdf=values,
        textures=textures, pbr=pbr, blender_version=tuple(bpy.app.version[:2]))
    # Only the images of the maps written are copied (path_mode COPY), as Blender does.
    for written in result.maps:
        image, copies = pending[written.path]
        if image.source == "SEQUENCE":
            raise NotSupported(f"material {material.name!r}: image sequence {image.name!r} "
                               "is not exported yet")
        paths.copies |= copies
    return result


# The BSDF inputs an image texture can feed, by their Blender 3.4 names.
_TEXTURE_INPUTS = ("Base Color", "Metallic", "Specular", "Roughness", "Sheen", "Emission", "Alpha",
                   "Normal")

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

    def reference(self, image, copies: set) -> str:
        """The path the MTL file names ``image`` by; the copy it needs for
        ``COPY`` goes into ``copies``."""
        from bpy_extras.io_utils import path_reference

        path = image.filepath
        if image.packed_file is not None:
            # Blender names a packed image by its file name alone (to be
            # unpacked beside the MTL file); made "relative", that name is
            # taken from the root directory.
            path = path[path.rfind("/") + 1:]
            if self.mode == "RELATIVE":
                return os.path.relpath("/" + path, self.destination).replace("\\", "/")
            return path
        path = path_reference(path, self.source, self.destination, self.mode,
                              copy_set=copies, library=image.library)
        return path.replace("\\", "/")

    def copy(self) -> None:
        from bpy_extras.io_utils import path_reference_copy

        path_reference_copy(self.copies)


def _linked_node(socket, kind: str):
    """The first node of type ``kind`` linked into ``socket``."""
    return next((link.from_node for link in socket.links if link.from_node.bl_idname == kind), None)


def _image_textures(material, bsdf, paths: TexturePaths) -> tuple[list, dict]:
    """The image textures linked to ``bsdf`` (``oxport.blender.ImageTexture``),
    and for each path the image and the copies it needs.

    Blender looks a texture's Mapping node up on the tree's first Image
    Texture node (not on the texture itself), and its offset and scale go to
    every map of the material: reproduced as it is."""
    tree = material.node_tree
    first_texture = next((n for n in tree.nodes if n.bl_idname == "ShaderNodeTexImage"), None)
    mapping = _linked_node(first_texture.inputs["Vector"], "ShaderNodeMapping") if first_texture else None
    placement = {}
    if mapping is not None:
        placement = {"location": tuple(mapping.inputs["Location"].default_value),
                     "scale": tuple(mapping.inputs["Scale"].default_value)}
    textures, pending = [], {}
    for name in _TEXTURE_INPUTS:
        source = _input(bsdf, name)
        strength = 0.0
        if name == "Normal":
            normal_map = _linked_node(source, "ShaderNodeNormalMap")
            if normal_map is None:
                continue
            strength = normal_map.inputs["Strength"].default_value
            source = normal_map.inputs["Color"]
        texture = _linked_node(source, "ShaderNodeTexImage")
        image = texture.image if texture is not None else None
        if image is None or not image.filepath:
            continue
        copies: set = set()
        path = paths.reference(image, copies)
        pending[path] = (image, copies)
        textures.append(oxport.blender.ImageTexture(name, path, normal_strength=strength, **placement))
    return textures, pending


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
