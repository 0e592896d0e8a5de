"""One OBJ reader in a process of its own, driven by bench/obj_read.py.

Run as ``python obj_read_worker.py READER``; reads one OBJ path per line of
stdin and answers one JSON line per path: the seconds from the call to the
reader to numpy arrays of everything it read (positions, faces, UVs, normals
and their indices where the reader gives them), the counts it found, and the
process's peak resident memory so far.
"""

from __future__ import annotations

import json
import resource
import sys
import time
from typing import Any, Callable

import numpy as np


def oxport_read(path: str) -> tuple[Any, int, int]:
    import oxport

    scene = oxport.read_obj(path)
    arrays = [np.asarray(getattr(mesh, field)) for mesh in scene.meshes
              for field in ("positions", "face_offsets", "position_indices", "uvs", "uv_indices",
                            "normals", "normal_indices")
              if getattr(mesh, field) is not None]
    vertices = sum(len(mesh.positions) for mesh in scene.meshes)
    faces = sum(max(len(mesh.face_offsets) - 1, 0) for mesh in scene.meshes)
    return (scene, arrays), vertices, faces


def rapidobj_read(path: str) -> tuple[Any, int, int]:
    import rapidobj

    result = rapidobj.parse_obj(path)
    if not result.ok:
        raise RuntimeError(f"rapidobj: {result.error_message}")
    arrays = [np.asarray(a) for a in (result.vertices, result.faces, result.texcoords,
                                      result.wedge_texcoord_indices, result.wedge_material_ids)]
    return (result, arrays), len(arrays[0]), len(arrays[1])


def tinyobjloader_read(path: str) -> tuple[Any, int, int]:
    import tinyobjloader

    reader = tinyobjloader.ObjReader()
    config = tinyobjloader.ObjReaderConfig()
    config.triangulate = False  # polygons as the file has them, like oxport
    if not reader.ParseFromFile(path, config):
        raise RuntimeError(f"tinyobjloader: {reader.Error()}")
    attrib = reader.GetAttrib()
    arrays = [attrib.numpy_vertices(), attrib.numpy_texcoords(), attrib.numpy_normals()]
    faces = 0
    for shape in reader.GetShapes():
        counts = shape.mesh.numpy_num_face_vertices()
        arrays += [shape.mesh.numpy_indices(), counts]
        faces += len(counts)
    return (reader, arrays), len(arrays[0]) // 3, faces


def trimesh_read(path: str) -> tuple[Any, int, int]:
    import trimesh

    loaded = trimesh.load(path, process=False, maintain_order=True)
    meshes = list(loaded.geometry.values()) if isinstance(loaded, trimesh.Scene) else [loaded]
    arrays = [np.asarray(a) for mesh in meshes for a in (mesh.vertices, mesh.faces)]
    return (loaded, arrays), sum(len(m.vertices) for m in meshes), sum(len(m.faces) for m in meshes)


READERS: dict[str, Callable[[str], tuple[Any, int, int]]] = {
    "oxport": oxport_read,
    "rapidobj": rapidobj_read,
    "tinyobjloader": tinyobjloader_read,
    "trimesh": trimesh_read,
}


def main() -> None:
    read = READERS[sys.argv[1]]
    print(json.dumps({"ready": True}), flush=True)
    for line in sys.stdin:
        path = line.rstrip("\n")
        start = time.perf_counter()
        kept, vertices, faces = read(path)
        seconds = time.perf_counter() - start
        del kept
        peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024
        print(json.dumps({"seconds": seconds, "vertices": vertices, "faces": faces, "peak": peak}), flush=True)


if __name__ == "__main__":
    main()
