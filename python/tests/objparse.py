"""A small OBJ/MTL reader for the tests: turns files that Blender wrote back
into the arrays and materials oxport writes them from. It handles what
Blender's exporter writes and nothing more."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Optional

import numpy as np

import oxport


@dataclass
class Parsed:
    header: list[str] = field(default_factory=list)
    mtllib: Optional[str] = None
    meshes: list[oxport.Mesh] = field(default_factory=list)


def _floats(lines: list[bytes], skip: int, width: int) -> Optional[np.ndarray]:
    if not lines:
        return None
    text = b" ".join(line[skip:] for line in lines)
    # Parsed as float64 then rounded: exact for the 4 to 6 decimals Blender writes.
    values = np.array(text.split(), dtype=np.float64).astype(np.float32)
    return values.reshape(-1, width)


class _Object:
    def __init__(self, name: str) -> None:
        self.name = name
        self.v: list[bytes] = []
        self.vn: list[bytes] = []
        self.vt: list[bytes] = []
        self.faces: list[bytes] = []
        self.smooth: list[int] = []
        self.material: list[int] = []
        self.materials: list[str] = []
        self.edges: list[bytes] = []


def read_obj(path: str) -> Parsed:
    parsed = Parsed()
    objects: list[_Object] = []
    current: Optional[_Object] = None
    smooth = 0
    material = -1
    with open(path, "rb") as f:
        data = f.read()
    for line in data.split(b"\n"):
        tag = line[:2]
        if tag == b"v ":
            current.v.append(line)  # type: ignore[union-attr]
        elif tag == b"f ":
            current.faces.append(line)  # type: ignore[union-attr]
            current.smooth.append(smooth)  # type: ignore[union-attr]
            current.material.append(material)  # type: ignore[union-attr]
        elif tag == b"vn":
            current.vn.append(line)  # type: ignore[union-attr]
        elif tag == b"vt":
            current.vt.append(line)  # type: ignore[union-attr]
        elif tag == b"s ":
            smooth = int(line[2:])
        elif line.startswith(b"usemtl "):
            assert current is not None
            name = line[7:].decode()
            if name not in current.materials:
                current.materials.append(name)
            material = current.materials.index(name)
        elif tag == b"l ":
            current.edges.append(line)  # type: ignore[union-attr]
        elif tag == b"o ":
            current = _Object(line[2:].decode())
            objects.append(current)
            material = -1
        elif tag == b"# ":
            parsed.header.append(line[2:].decode())
        elif line.startswith(b"mtllib "):
            parsed.mtllib = line[7:].decode()
        elif line:
            raise ValueError(f"unexpected line {line[:40]!r}")
    base_v = base_vt = base_vn = 1
    for o in objects:
        positions = _floats(o.v, 2, 3)
        if positions is None:
            positions = np.zeros((0, 3), np.float32)
        normals = _floats(o.vn, 3, 3)
        uvs = _floats(o.vt, 3, 2)
        counts = np.array([line.count(b" ") for line in o.faces], dtype=np.uint32)
        offsets = np.zeros(len(o.faces) + 1, dtype=np.uint32)
        np.cumsum(counts, out=offsets[1:])
        text = b" ".join(line[2:] for line in o.faces).replace(b"//", b"/0/")
        per_corner = 1 + (o.faces[0].split(b" ")[1].count(b"/") if o.faces else 0)
        corners = np.array(text.replace(b"/", b" ").split(), dtype=np.int64).reshape(-1, per_corner)
        position_indices = (corners[:, 0] - base_v).astype(np.uint32)
        uv_indices = normal_indices = None
        if uvs is not None:
            uv_indices = (corners[:, 1] - base_vt).astype(np.uint32)
        if normals is not None:
            normal_indices = (corners[:, per_corner - 1] - base_vn).astype(np.uint32)
        edges = None
        if o.edges:
            edges = np.array(b" ".join(e[2:] for e in o.edges).split(), dtype=np.int64).reshape(-1, 2)
            edges = (edges - base_v).astype(np.uint32)
        parsed.meshes.append(
            oxport.Mesh(
                o.name,
                positions,
                offsets if o.faces else np.zeros(0, np.uint32),
                position_indices,
                uvs=uvs,
                uv_indices=uv_indices,
                normals=normals,
                normal_indices=normal_indices,
                smooth=np.array(o.smooth, np.uint32) if o.faces else None,
                materials=o.materials,
                material_indices=np.array(o.material, np.uint32) if o.materials else None,
                edges=edges,
            )
        )
        base_v += len(positions)
        base_vt += 0 if uvs is None else len(uvs)
        base_vn += 0 if normals is None else len(normals)
    return parsed


def read_mtl(path: str) -> tuple[list[str], list[oxport.Material]]:
    header: list[str] = []
    materials: list[oxport.Material] = []
    with open(path, encoding="utf-8") as f:
        for line in f.read().split("\n"):
            key, _, rest = line.partition(" ")
            values = rest.split()
            if key == "#":
                header.append(rest)
            elif key == "newmtl":
                materials.append(oxport.Material(rest))
            elif key in ("Ka", "Kd", "Ks", "Ke"):
                name = {"Ka": "ambient", "Kd": "diffuse", "Ks": "specular", "Ke": "emissive"}[key]
                setattr(materials[-1], name, tuple(float(v) for v in values))
            elif key in ("Ns", "Ni", "d"):
                name = {"Ns": "specular_exponent", "Ni": "ior", "d": "dissolve"}[key]
                setattr(materials[-1], name, float(values[0]))
            elif key == "illum":
                materials[-1].illum = int(values[0])
            elif key.startswith("map_"):
                *options, path_ = rest.split(" ")
                fields: dict = {}
                while options:
                    flag, *options = options
                    if flag in ("-o", "-s"):
                        vector, options = options[:3], options[3:]
                        fields["offset" if flag == "-o" else "scale"] = tuple(float(v) for v in vector)
                    elif flag == "-bm":
                        fields["bump_multiplier"], options = float(options[0]), options[1:]
                    else:
                        raise ValueError(f"unexpected texture option {flag!r} in {line!r}")
                materials[-1].maps.append(oxport.TextureMap(key, path_, **fields))
            elif line:
                raise ValueError(f"unexpected MTL line {line!r}")
    return header, materials
