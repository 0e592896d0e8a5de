"""The Blender add-on against each Blender's own exporter (3.4, 4.5 LTS and
5.0), in the same Blender process: the scene is built by a shared reference
script, exported by ``wm.obj_export`` into one folder and by
``export_scene.oxport_obj`` into another under the same name, with the same
options; OBJ and MTL must be identical bytes."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

import pytest

from conftest import BLENDERS, ROOT, SCRIPTS, blender_python
from test_blender_bytes import assert_same_file

RUNNER = ROOT / "integrations" / "blender" / "tests" / "run_in_blender.py"


@pytest.fixture(params=BLENDERS, ids=lambda v: "blender" + v.replace(".", ""))
def version(request: pytest.FixtureRequest) -> str:
    """The Blender a test runs in."""
    return str(request.param)


def export_both(tmp_path: Path, script: str, args: list[str], name: str, options: dict | None = None,
                version: str = "3.4") -> dict:
    command = [*blender_python(version), str(RUNNER), "--",
               str(ROOT), str(SCRIPTS / script), str(tmp_path), name, *args]
    if options:
        command += ["--options", json.dumps(options)]
    result = subprocess.run(command, capture_output=True, text=True, timeout=900)
    lines = [line for line in result.stdout.splitlines() if line.startswith("OXPORT_REPORT ")]
    if result.returncode != 0 or not lines:
        pytest.fail(f"Blender failed:\n{result.stdout[-4000:]}\n{result.stderr[-4000:]}")
    report = json.loads(lines[-1].split(" ", 1)[1])
    assert report["result"] == ["FINISHED"], result.stdout[-4000:]
    return report


def assert_same_export(tmp_path: Path, name: str, mtl: bool = True) -> None:
    ours, theirs = tmp_path / "oxport" / name, tmp_path / "blender" / name
    assert_same_file(ours, theirs)
    if mtl:
        assert_same_file(ours.with_suffix(".mtl"), theirs.with_suffix(".mtl"))
    else:
        assert not ours.with_suffix(".mtl").exists()


@pytest.mark.parametrize("level", [2, 5])
def test_monkey(level: int, tmp_path: Path, version: str) -> None:
    export_both(tmp_path, "monkey.py", [str(level)], f"monkey{level}.obj", version=version)
    assert_same_export(tmp_path, f"monkey{level}.obj")


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_many_object_scene(seed: int, tmp_path: Path, version: str) -> None:
    export_both(tmp_path, "scene.py", ["400", str(seed)], "scene.obj", version=version)
    assert_same_export(tmp_path, "scene.obj")


@pytest.mark.parametrize("options", [{}, {"export_material_groups": True}, {"export_pbr_extensions": True}],
                         ids=["plain", "groups", "pbr"])
@pytest.mark.parametrize("seed", [1, 2])
def test_node_and_viewport_materials(seed: int, options: dict, tmp_path: Path, version: str) -> None:
    script = ROOT / "integrations" / "blender" / "tests" / "materials_scene.py"
    export_both(tmp_path, str(script), [str(seed)], "materials.obj", options, version=version)
    assert_same_export(tmp_path, "materials.obj")


@pytest.mark.parametrize(
    "options",
    [
        {"export_normals": False},
        {"export_uv": False},
        {"export_materials": False},
        {"export_normals": False, "export_uv": False},
        {"forward_axis": "Y", "up_axis": "Z"},
        {"forward_axis": "NEGATIVE_X", "up_axis": "NEGATIVE_Y"},
        {"forward_axis": "X", "up_axis": "Z"},
        {"global_scale": 2.5},
        {"global_scale": 0.01, "forward_axis": "Z", "up_axis": "NEGATIVE_Y"},
        {"export_selected_objects": True},
        {"export_smooth_groups": True},
        {"export_smooth_groups": True, "smooth_group_bitflags": True, "export_normals": False},
    ],
    ids=lambda o: ",".join(f"{k}={v}" for k, v in o.items()),
)
def test_options(options: dict, tmp_path: Path, version: str) -> None:
    export_both(tmp_path, "scene.py", ["60", "4"], "options.obj", options, version=version)
    assert_same_export(tmp_path, "options.obj", mtl=options.get("export_materials", True))


COLLECTIONS = ROOT / "integrations" / "blender" / "tests" / "collections_scene.py"


@pytest.mark.parametrize("version", ["4.5", "5.0"], ids=["blender45", "blender50"])
@pytest.mark.parametrize("name", ["A", "B", "C"])
def test_collection_exporters_export_the_collection(name: str, tmp_path: Path, version: str) -> None:
    """Blender 4.2+'s `collection` option (3.4's exporter has none): the
    objects the collection holds, directly or in its children, and the
    instances its instancers make, in the scene's order; hidden and excluded
    objects left out."""
    export_both(tmp_path, str(COLLECTIONS), ["1"], "collection.obj", {"collection": name}, version=version)
    assert_same_export(tmp_path, "collection.obj")


def test_apply_transform_off_writes_objects_in_their_own_space(tmp_path: Path) -> None:
    """Blender 5.0's `apply_transform` option (3.4's and 4.5's exporters have none)."""
    version = "5.0"
    options = {"apply_transform": False, "global_scale": 2.5, "forward_axis": "X", "up_axis": "Z"}
    export_both(tmp_path, "scene.py", ["60", "4"], "local.obj", options, version=version)
    assert_same_export(tmp_path, "local.obj")


def refused_export(out: Path, options: str = "") -> str:
    """Exports the default scene with the add-on in Blender 5.0 with
    ``options`` (Python keyword arguments); its standard output, which must
    report the operator's refusal (``REFUSED`` and the message)."""
    code = "\n".join([
        "import os, sys",
        f"sys.path[:0] = [{str(ROOT / 'python')!r}, {str(ROOT / 'integrations' / 'blender')!r}]",
        "import bpy, oxport_obj",
        "oxport_obj.register()",
        "try:",
        f"    bpy.ops.export_scene.oxport_obj(filepath={str(out)!r}, {options})",
        "    print('WRITTEN')",
        "except RuntimeError as error:",
        "    print('REFUSED', error)",
        "sys.stdout.flush()",
        "os._exit(0)",
    ])
    result = subprocess.run([*blender_python("5.0"), "-c", code], capture_output=True, text=True, timeout=900)
    assert "REFUSED" in result.stdout, result.stdout[-2000:] + result.stderr[-2000:]
    return result.stdout


def test_a_missing_collection_is_an_error(tmp_path: Path) -> None:
    """The add-on's own report, worded as Blender's, and no file."""
    out = tmp_path / "m.obj"
    stdout = refused_export(out, "collection='no such collection'")
    assert "OBJ Export: Unable to find collection 'no such collection'" in stdout
    assert not out.exists()


FEATURES = ROOT / "integrations" / "blender" / "tests" / "features_scene.py"


def read_geometry(path: Path) -> list[tuple[str, list, list]]:
    """Objects of an OBJ file as (name, faces, edges): each face its smooth
    group, its material and its corners as (position text, UV text, normal
    floats), rotated to start at its smallest corner; faces sorted."""
    v: list[str] = []
    vt: list[str] = []
    vn: list[tuple[float, ...]] = []
    objects: list[tuple[str, list, list]] = []
    smooth = material = None
    for line in path.read_text().splitlines():
        tag, _, rest = line.partition(" ")
        if tag == "o":
            objects.append((rest, [], []))
        elif tag == "v":
            v.append(rest)
        elif tag == "vt":
            vt.append(rest)
        elif tag == "vn":
            vn.append(tuple(float(x) for x in rest.split()))
        elif tag == "s":
            smooth = rest
        elif tag == "usemtl":
            material = rest
        elif tag == "f":
            corners = []
            for corner in rest.split():
                i, _, tail = corner.partition("/")
                t, _, n = tail.partition("/")
                corners.append((v[int(i) - 1], vt[int(t) - 1] if t else None, vn[int(n) - 1] if n else None))
            start = min(range(len(corners)), key=lambda c: corners[c][:2])
            objects[-1][1].append((smooth, material, corners[start:] + corners[:start]))
        elif tag == "l":
            objects[-1][2].append(tuple(v[int(i) - 1] for i in rest.split()))
    for _, faces, _ in objects:
        faces.sort(key=lambda f: (f[0] or "", f[1] or "", [c[:2] for c in f[2]]))
    return objects


def assert_same_geometry(ours: Path, theirs: Path, tolerance: float = 1e-4) -> None:
    """The same objects, faces, positions, UVs, smooth groups and materials;
    normals within ``tolerance``."""
    a, b = read_geometry(ours), read_geometry(theirs)
    assert [o[0] for o in a] == [o[0] for o in b]
    for (name, faces_a, edges_a), (_, faces_b, edges_b) in zip(a, b):
        assert edges_a == edges_b, name
        assert len(faces_a) == len(faces_b), name
        for fa, fb in zip(faces_a, faces_b):
            assert fa[:2] == fb[:2] and [c[:2] for c in fa[2]] == [c[:2] for c in fb[2]], (name, fa, fb)
            for ca, cb in zip(fa[2], fb[2]):
                assert (ca[2] is None) == (cb[2] is None), (name, ca, cb)
                if ca[2] is not None:
                    # (1e-9: the printed values' own float error, 0.9421 - 0.942 > 1e-4)
                    assert max(abs(x - y) for x, y in zip(ca[2], cb[2])) <= tolerance + 1e-9, (name, ca, cb)


@pytest.mark.parametrize(
    "options",
    [
        {},
        {"apply_modifiers": False},
        {"export_colors": True},
        {"export_object_groups": True},
        {"export_colors": True, "export_object_groups": True, "export_normals": False},
        {"export_colors": True, "apply_modifiers": False, "forward_axis": "Y", "up_axis": "Z"},
        {"export_smooth_groups": True},
        {"export_smooth_groups": True, "smooth_group_bitflags": True},
        {"export_material_groups": True},
        {"export_material_groups": True, "export_object_groups": True},
        {"export_vertex_groups": True},
        {"export_vertex_groups": True, "export_materials": False, "apply_modifiers": False},
        {"export_curves_as_nurbs": True},
        {"export_curves_as_nurbs": True, "global_scale": 3.0, "forward_axis": "X", "up_axis": "Z"},
    ],
    ids=lambda o: ",".join(f"{k}={v}" for k, v in o.items()) or "defaults",
)
@pytest.mark.parametrize("seed", [1, 2])
def test_features_scene_options(options: dict, seed: int, tmp_path: Path, version: str) -> None:
    """Modifiers, point colors (float and byte), sharp edges, vertex groups,
    names with spaces; curves and a surface (but with apply_modifiers=False,
    on which Blender's own exporter crashes)."""
    curves = [] if options.get("apply_modifiers", True) is False else ["curves"]
    export_both(tmp_path, str(FEATURES), [str(seed), *curves], "features.obj", options, version=version)
    assert_same_export(tmp_path, "features.obj", mtl=options.get("export_materials", True))


@pytest.mark.parametrize(
    "script,args",
    [("features", ["1", "curves"]), ("features", ["2", "curves"]), ("scene.py", ["60", "4"]),
     ("monkey.py", ["3"])],
)
def test_triangulated_export_has_blenders_geometry(script: str, args: list[str], tmp_path: Path, version: str) -> None:
    """Blender 3.4's triangulated export is not reproducible (its normals are
    summed in parallel on a mesh made for the export): the faces, positions,
    UVs, smooth groups and materials must be Blender's, normals within 1e-4."""
    path = str(FEATURES) if script == "features" else script
    export_both(tmp_path, path, args, "tri.obj", {"export_triangulated_mesh": True}, version=version)
    ours, theirs = tmp_path / "oxport" / "tri.obj", tmp_path / "blender" / "tri.obj"
    assert_same_geometry(ours, theirs)
    assert_same_file(ours.with_suffix(".mtl"), theirs.with_suffix(".mtl"))
    # Everything is triangles, but the curve's own mesh (Blender triangulates
    # mesh objects only; the mesh instance of the curve's geometry is one).
    objects = read_geometry(ours)
    assert any(faces for _, faces, _ in objects)
    for name, faces, _ in objects:
        assert name == "Bezier_Tube" or all(len(f[2]) == 3 for f in faces), name


TEXTURES = ROOT / "integrations" / "blender" / "tests" / "textures_scene.py"


@pytest.mark.parametrize("pbr", [False, True], ids=["mtl", "pbr"])
@pytest.mark.parametrize("mode", ["AUTO", "ABSOLUTE", "RELATIVE", "MATCH", "STRIP", "COPY"])
def test_image_textures_and_path_modes(mode: str, pbr: bool, tmp_path: Path, version: str) -> None:
    options = {"path_mode": mode, "export_pbr_extensions": pbr}
    export_both(tmp_path, str(TEXTURES), ["1"], "textures.obj", options, version=version)
    assert_same_export(tmp_path, "textures.obj")
    ours = sorted(p.name for p in (tmp_path / "oxport").iterdir())
    theirs = sorted(p.name for p in (tmp_path / "blender").iterdir())
    assert ours == theirs  # with COPY, the images copied beside the MTL file
    if mode == "COPY":
        assert "everything_base_color.png" in ours


def test_animation_writes_one_file_per_frame(tmp_path: Path, version: str) -> None:
    options = {"export_animation": True, "start_frame": 1, "end_frame": 3}
    export_both(tmp_path, str(FEATURES), ["1", "curves"], "anim.obj", options, version=version)
    # Blender 3.4 numbers the files 1, 2, 3; 4.5 and 5.0 0001, 0002, 0003.
    names = [f"anim{frame}.obj" if version == "3.4" else f"anim{frame:04d}.obj" for frame in (1, 2, 3)]
    for name in names:
        assert_same_export(tmp_path, name)
    assert not (tmp_path / "oxport" / "anim.obj").exists()
    # The frames differ (the cylinder moves), so each file is its own frame's.
    first = (tmp_path / "oxport" / names[0]).read_bytes().splitlines()
    last = (tmp_path / "oxport" / names[2]).read_bytes().splitlines()
    assert sum(a != b for a, b in zip(first, last)) > 10


def test_an_mtl_file_that_cannot_be_written_leaves_no_obj_file(tmp_path: Path) -> None:
    """The MTL file is written as the OBJ file is completed: when it cannot
    be (a directory holds its name), the OBJ file does not appear either."""
    out = tmp_path / "m.obj"
    (tmp_path / "m.mtl").mkdir()
    assert "m.mtl" in refused_export(out)
    assert not out.exists()
    assert list(tmp_path.iterdir()) == [tmp_path / "m.mtl"]


def test_options_not_supported_yet_are_refused(tmp_path: Path, version: str) -> None:
    command = [*blender_python(version), str(RUNNER), "--",
               str(ROOT), str(SCRIPTS / "monkey.py"), str(tmp_path), "m.obj", "1",
               "--options", json.dumps({"export_eval_mode": "DAG_EVAL_RENDER"})]
    result = subprocess.run(command, capture_output=True, text=True, timeout=900)
    assert ("does not support these options yet: export_eval_mode='DAG_EVAL_RENDER' "
            "(Blender's Python API has no render depsgraph)") in result.stdout + result.stderr
    assert not (tmp_path / "oxport" / "m.obj").exists()


def test_a_scene_without_objects_gives_what_blender_gives(tmp_path: Path, version: str) -> None:
    """Up to 4.5: the header alone and an empty MTL file, as Blender writes
    them; 5.0: no file (the exporter's "no information to write")."""
    export_both(tmp_path, str(ROOT / "integrations" / "blender" / "tests" / "empty_scene.py"), [], "empty.obj",
                version=version)
    ours, theirs = tmp_path / "oxport", tmp_path / "blender"
    assert sorted(p.name for p in ours.iterdir()) == sorted(p.name for p in theirs.iterdir())
    if version != "5.0":
        assert_same_export(tmp_path, "empty.obj")
    else:
        assert not any(ours.iterdir())
