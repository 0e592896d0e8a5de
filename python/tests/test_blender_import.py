"""The add-on's importer against each Blender's own (3.4, 4.5 LTS and 5.0):
the same files imported by ``wm.obj_import`` and by
``import_scene.oxport_obj`` in two fresh Blender processes, and everything
each made compared: objects and their order, names, matrices, vertices,
faces, edges, smooth flags, UVs, normals, colors, materials (node trees,
values, images) and vertex groups."""

from __future__ import annotations

import json
import pickle
import subprocess
from pathlib import Path

import numpy as np
import pytest

from conftest import ROOT, blender_python
from test_blender_addon import FEATURES, TEXTURES, export_both, version  # noqa: F401  (fixture)

DUMP = ROOT / "integrations" / "blender" / "tests" / "import_dump.py"
MATERIALS = ROOT / "integrations" / "blender" / "tests" / "materials_scene.py"


def imported(version: str, mode: str, paths: list[Path], out: Path, options: dict | None = None) -> tuple[dict, dict]:
    command = [*blender_python(version), str(DUMP), "--", str(ROOT), mode, str(out), *map(str, paths)]
    if options:
        command += ["--options", json.dumps(options)]
    result = subprocess.run(command, capture_output=True, text=True, timeout=900)
    if result.returncode != 0 or "OXPORT_IMPORT " not in result.stdout:
        pytest.fail(f"Blender failed:\n{result.stdout[-4000:]}\n{result.stderr[-4000:]}")
    with open(str(out) + ".arrays", "rb") as f:
        data = {key: np.frombuffer(raw, dtype=np.dtype(code)) for key, (code, raw) in pickle.load(f).items()}
    return json.loads(Path(str(out) + ".json").read_text()), data


def assert_same_import(version: str, paths: list[Path], tmp_path: Path, options: dict | None = None) -> None:
    theirs, their_arrays = imported(version, "blender", paths, tmp_path / "blender", options)
    ours, our_arrays = imported(version, "oxport", paths, tmp_path / "oxport", options)
    assert [o["name"] for o in ours["objects"]] == [o["name"] for o in theirs["objects"]]
    for a, b in zip(ours["objects"], theirs["objects"]):
        matrix_a, matrix_b = a.pop("matrix"), b.pop("matrix")
        assert np.allclose(matrix_a, matrix_b, atol=1e-6), (a["name"], matrix_a, matrix_b)
        assert a == b
    assert sorted(our_arrays) == sorted(their_arrays)
    for key, theirs_value in their_arrays.items():
        assert np.array_equal(our_arrays[key], theirs_value), key
    assert ours["materials"] == theirs["materials"]
    assert ours["images"] == theirs["images"]
    assert ours["active"] == theirs["active"]


def blender_file(tmp_path: Path, script: str, args: list[str], name: str, version: str,
                 options: dict | None = None) -> Path:
    """A file written by Blender's own exporter from one of the test scenes."""
    export_both(tmp_path / "made", script, args, name, options, version=version)
    return tmp_path / "made" / "blender" / name


def test_monkey(tmp_path: Path, version: str) -> None:
    path = blender_file(tmp_path, "monkey.py", ["3"], "monkey.obj", version)
    assert_same_import(version, [path], tmp_path)


def test_many_objects(tmp_path: Path, version: str) -> None:
    path = blender_file(tmp_path, "scene.py", ["200", "5"], "scene.obj", version)
    assert_same_import(version, [path], tmp_path)


def test_materials(tmp_path: Path, version: str) -> None:
    path = blender_file(tmp_path, str(MATERIALS), ["1"], "materials.obj", version, {"export_pbr_extensions": True})
    assert_same_import(version, [path], tmp_path)


def test_textures(tmp_path: Path, version: str) -> None:
    path = blender_file(tmp_path, str(TEXTURES), ["1"], "textures.obj", version)
    assert_same_import(version, [path], tmp_path)


@pytest.mark.parametrize("options", [{}, {"import_vertex_groups": True}, {"forward_axis": "Y", "up_axis": "Z", "global_scale": 2.5}],
                         ids=["defaults", "vertex_groups", "axes"])
def test_features(options: dict, tmp_path: Path, version: str) -> None:
    """Point colors, loose edges, flat and smooth faces, vertex groups."""
    made = {"export_colors": True, "export_vertex_groups": True, "export_materials": True}
    path = blender_file(tmp_path, str(FEATURES), ["1"], "features.obj", version, made)
    assert_same_import(version, [path], tmp_path, options)


def test_several_files_at_once(tmp_path: Path, version: str) -> None:
    first = blender_file(tmp_path, "monkey.py", ["1"], "monkey.obj", version)
    second = blender_file(tmp_path, "scene.py", ["20", "2"], "scene.obj", version)
    assert_same_import(version, [first, second], tmp_path)


def test_options_not_supported_yet_are_refused(tmp_path: Path) -> None:
    path = tmp_path / "tri.obj"
    path.write_text("v 0 0 0\nv 1 0 0\nv 0 1 0\nf 1 2 3\n")
    command = [*blender_python("5.0"), str(DUMP), "--", str(ROOT), "oxport", str(tmp_path / "out"), str(path),
               "--options", json.dumps({"use_split_groups": True})]
    result = subprocess.run(command, capture_output=True, text=True, timeout=900)
    assert result.returncode != 0
    assert ("oxport OBJ import does not support these options yet: use_split_groups=True "
            "(groups are not split into objects yet)") in result.stdout + result.stderr
