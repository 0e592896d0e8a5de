"""OBJ files oxport did not write: assimp's test models (files from MilkShape
3D, 3ds Max's Max2Obj, Blender 2.61, hand-written ones, UTF-16 and files
without a final newline), OBJ files written by assimp's own exporter from
models in other formats, and Blender's files with CRLF line ends. Each is read
with the vertex, face and edge counts its lines say, counted here by a reader
of our own that knows only what each statement's keyword is."""

from __future__ import annotations

import re
import shutil
import subprocess
from pathlib import Path

import numpy as np
import pytest

import oxport
from test_blender_bytes import assert_same_file

MODELS = Path("/usr/share/assimp/models")

# Files of assimp's that are not valid OBJ, and why.
INVALID = {
    "number_formats.obj": '"3.1+e2" is not a number',  # assimp's leniency test
}
# Files read leniently with a warning, refused when strict: (the warning, the strict error).
LENIENT = {
    "malformed2.obj": ("a face with 0 corners skipped", "a face needs 3 corners, not 0"),
    "malformed.obj": ("a face with an index out of range or 0 skipped",
                      "position index 12 is out of range (8 declared before this line, 8 in the file)"),
}

# Files whose objects mix faces with UVs and without: read as one mesh per
# layout, the later ones with copies of the vertices they use (so more
# vertices in all than `v` lines).
MIXED = {"regr01.obj"}

# Models in other formats that assimp's exporter turns into OBJ.
CONVERTED = ["PLY/cube.ply", "STL/Spider_ascii.stl", "3DS/fels.3ds", "Collada/duck.dae", "glTF2/BoxTextured-glTF/BoxTextured.gltf",
             "X/test.x", "OFF/Cube.off", "MD2/faerie.md2", "LWO/LWO2/hierarchy.lwo", "AC/Wuson.ac"]


def assimp_models() -> Path:
    """assimp's test models, or a skip."""
    if not (MODELS / "OBJ").is_dir():
        reason = "assimp's test models are not installed (apt-get install assimp-testmodels)"
        pytest.skip(reason)
    return MODELS


def counted(path: Path) -> dict[str, int]:
    """Vertices, faces and loose edges as the file's statements say."""
    data = path.read_bytes()
    if data.startswith((b"\xfe\xff", b"\xff\xfe")):
        data = data.decode("utf-16").encode()
    counts = {"v": 0, "f": 0, "edges": 0}
    for line in data.replace(b"\\\r\n", b" ").replace(b"\\\n", b" ").splitlines():
        words = line.split()
        if not words:
            continue
        keyword = words[0].lstrip(b"\xef\xbb\xbf").decode("latin-1")
        if keyword in ("v", "f"):
            counts[keyword] += 1
        elif keyword == "l":
            counts["edges"] += len(words) - 2
    return counts


def read_counts(path: Path) -> dict[str, int]:
    scene = oxport.read_obj(path)
    for mesh in scene.meshes:
        oxport.Mesh(mesh.name, mesh.positions, mesh.face_offsets, mesh.position_indices)  # a valid mesh
    return {
        "v": sum(len(m.positions) for m in scene.meshes),
        "f": sum(len(m.face_offsets) - 1 for m in scene.meshes if len(m.face_offsets)),
        "edges": sum(len(m.edges) for m in scene.meshes if m.edges is not None),
    }


def obj_files() -> list[str]:
    return sorted(p.name for p in (MODELS / "OBJ").glob("*.obj")) + sorted(
        f"invalid/{p.name}" for p in (MODELS / "invalid").glob("*.obj"))


@pytest.mark.parametrize("name", obj_files() or ["(assimp's models are not installed)"])
def test_assimp_obj_models_read_with_their_counts(name: str) -> None:
    models = assimp_models()
    path = models / name if name.startswith("invalid/") else models / "OBJ" / name
    expected_error = INVALID.get(Path(name).name)
    if expected_error is not None:
        with pytest.raises(oxport.ParseError, match=re.escape(expected_error)):
            oxport.read_obj(path)
        return
    if Path(name).name in LENIENT:
        warning, error = LENIENT[Path(name).name]
        assert warning in [w.what for w in oxport.read_obj(path).warnings]
        with pytest.raises(oxport.ParseError, match=re.escape(error)):
            oxport.read_obj(path, strict=True)
        return
    read, expected = read_counts(path), counted(path)
    if name in MIXED:
        assert read["v"] > expected["v"]
        read["v"] = expected["v"]
    assert read == expected


def test_objects_mixing_layouts_and_latin1_names(tmp_path: Path) -> None:
    # 3ds Max's Max2Obj: faces with UVs and faces without in one object
    # (one mesh per layout), and a material named in Latin-1.
    path = assimp_models() / "OBJ" / "regr01.obj"
    scene = oxport.read_obj(path)
    assert len(scene.meshes) == 2
    assert any("Terraindæk" in m.materials for m in scene.meshes)
    assert [m.uvs is None for m in scene.meshes] == [True, False]
    scene.write_obj(tmp_path / "again.obj")
    assert read_counts(tmp_path / "again.obj")["f"] == counted(path)["f"]


@pytest.mark.parametrize("model", CONVERTED)
def test_files_written_by_assimp_read_with_their_counts(model: str, tmp_path: Path) -> None:
    models = assimp_models()
    if shutil.which("assimp") is None:
        pytest.skip("assimp is not installed")
    out = tmp_path / (Path(model).stem + ".obj")
    result = subprocess.run(["assimp", "export", str(models / model), str(out)], capture_output=True, text=True)
    assert result.returncode == 0 and out.exists(), result.stdout + result.stderr
    assert read_counts(out) == counted(out)


def test_crlf_files_read_as_their_lf_originals(refdata: Path, tmp_path: Path) -> None:
    from conftest import blender_export

    original = blender_export("monkey.py", ["2"], refdata / "monkey2.obj")
    crlf = tmp_path / "monkey2.obj"
    crlf.write_bytes(original.read_bytes().replace(b"\n", b"\r\n"))
    shutil.copy(original.with_suffix(".mtl"), tmp_path / "monkey2.mtl")
    lf_scene, crlf_scene = oxport.read_obj(original), oxport.read_obj(crlf)
    for a, b in zip(lf_scene.meshes, crlf_scene.meshes, strict=True):
        for field in ("positions", "face_offsets", "position_indices", "uvs", "uv_indices", "normals", "normal_indices"):
            assert np.array_equal(getattr(a, field), getattr(b, field)), field
    # Written again, it is Blender's file (LF) byte for byte.
    again = tmp_path / "again" / "monkey2.obj"
    again.parent.mkdir()
    crlf_scene.write_obj(again)
    assert_same_file(again, original)
