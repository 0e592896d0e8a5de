"""The add-on's importer against each Blender's own (3.4, 4.5 LTS and 5.0):
the same files imported by ``wm.obj_import`` and by
``import_scene.oxport_obj`` in two fresh Blender processes, and everything
each made compared: objects and their order, names, matrices, vertices,
faces, edges (as a set, with each corner's edge by its vertices: Blender's
own order depends on its thread count), smooth flags, UVs, normals, colors, materials (node trees,
values, images) and vertex groups."""

from __future__ import annotations

import json
import pickle
import subprocess
from pathlib import Path

import numpy as np
import pytest

from conftest import BLENDERS, ROOT, blender_python
from test_blender_addon import FEATURES, TEXTURES, export_both, version  # noqa: F401  (fixture)

DUMP = ROOT / "integrations" / "blender" / "tests" / "import_dump.py"
MATERIALS = ROOT / "integrations" / "blender" / "tests" / "materials_scene.py"


def run_dump(version: str, mode: str, paths: list[Path], out: Path, options: dict | None = None,
             each: bool = False) -> dict:
    """Runs import_dump.py; gives what its OXPORT_IMPORT line says."""
    command = [*blender_python(version), str(DUMP), "--", str(ROOT), mode, str(out), *map(str, paths)]
    if options:
        command += ["--options", json.dumps(options)]
    if each:
        command.append("--each")
    result = subprocess.run(command, capture_output=True, text=True, timeout=900)
    lines = [line for line in result.stdout.splitlines() if line.startswith("OXPORT_IMPORT ")]
    if result.returncode != 0 or not lines:
        pytest.fail(f"Blender failed:\n{result.stdout[-4000:]}\n{result.stderr[-4000:]}")
    return dict(json.loads(lines[-1].split(" ", 1)[1]))


def load(out: Path) -> tuple[dict, dict]:
    """What import_dump.py saved at ``out``: the JSON part and the arrays."""
    with open(str(out) + ".arrays", "rb") as f:
        data = {key: np.frombuffer(raw, dtype=np.dtype(code)) for key, (code, raw) in pickle.load(f).items()}
    return json.loads(Path(str(out) + ".json").read_text()), data


def imported(version: str, mode: str, paths: list[Path], out: Path, options: dict | None = None) -> tuple[dict, dict]:
    run_dump(version, mode, paths, out, options)
    return load(out)


def difference(ours: tuple[dict, dict], theirs: tuple[dict, dict]) -> str | None:
    """The first thing two imports made differently (None: nothing)."""
    (our_scene, our_arrays), (their_scene, their_arrays) = ours, theirs
    names = [o["name"] for o in our_scene["objects"]], [o["name"] for o in their_scene["objects"]]
    if names[0] != names[1]:
        return f"objects {names[0]} against Blender's {names[1]}"
    for a, b in zip(our_scene["objects"], their_scene["objects"]):
        a, b = dict(a), dict(b)
        matrix_a, matrix_b = a.pop("matrix"), b.pop("matrix")
        if not np.allclose(matrix_a, matrix_b, atol=1e-6):
            return f"{a['name']}: matrix {matrix_a} against Blender's {matrix_b}"
        for key in sorted(set(a) | set(b)):
            if a.get(key) != b.get(key):
                return f"{a['name']}: {key} {a.get(key)!r:.300} against Blender's {b.get(key)!r:.300}"
    if sorted(our_arrays) != sorted(their_arrays):
        return f"arrays {sorted(set(our_arrays) ^ set(their_arrays))} made by one importer only"
    for key, value in their_arrays.items():
        # (Bit for bit: NaNs too.)
        if our_arrays[key].tobytes() != value.tobytes():
            return f"array {key}: {our_arrays[key][:12]} against Blender's {value[:12]}"
    for key in ("collections", "materials", "images", "active"):
        if our_scene[key] != their_scene[key]:
            return f"{key} {our_scene[key]!r:.300} against Blender's {their_scene[key]!r:.300}"
    return None


def assert_same_import(version: str, paths: list[Path], tmp_path: Path, options: dict | None = None) -> None:
    theirs = imported(version, "blender", paths, tmp_path / "blender", options)
    ours = imported(version, "oxport", paths, tmp_path / "oxport", options)
    found = difference(ours, theirs)
    assert found is None, found


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


@pytest.mark.parametrize("options", [{}, {"import_vertex_groups": True}, {"forward_axis": "Y", "up_axis": "Z", "global_scale": 2.5},
                                     {"clamp_size": 0.5, "global_scale": 2.0}],
                         ids=["defaults", "vertex_groups", "axes", "clamp_size"])
def test_features(options: dict, tmp_path: Path, version: str) -> None:
    """Point colors, loose edges, flat and smooth faces, vertex groups."""
    made = {"export_colors": True, "export_vertex_groups": True, "export_materials": True}
    path = blender_file(tmp_path, str(FEATURES), ["1"], "features.obj", version, made)
    assert_same_import(version, [path], tmp_path, options)


def test_clamp_size_of_many_objects(tmp_path: Path, version: str) -> None:
    """Every object scaled alike, to fit the objects together in clamp_size
    (from 4.5; 3.4 scales none)."""
    path = blender_file(tmp_path, "scene.py", ["20", "2"], "scene.obj", version)
    for clamp in (3.0, 1000.0):
        assert_same_import(version, [path], tmp_path, {"clamp_size": clamp})


SPLIT = """v 0 0 0
v 1 0 0
v 0 1 0
v 1 1 0
v 2 1 0
v 2 2 0
usemtl m0
f 1 2 3
o A
s 1
g g1
usemtl m1
f 1 2 3
g g2
f 2 3 4
o B
f 4 5 6
g off
usemtl m2
f 1 5 6
g g1
s 2
f 3 4 5
"""


# Splits of Blender's test scene oxport still imports otherwise, and why.
SPLIT_DIFFERENT: dict[tuple[str, str], str] = {}


@pytest.mark.parametrize("options", [{"use_split_objects": False}, {"use_split_groups": True},
                                     {"use_split_objects": False, "use_split_groups": True},
                                     {"import_vertex_groups": True}],
                         ids=["one_object", "groups", "groups_alone", "vertex_groups"])
@pytest.mark.parametrize("blender", ["4.5", "5.0"])  # (3.4's importer has neither option)
def test_objects_split_by_o_and_g(options: dict, blender: str, tmp_path: Path, request: pytest.FixtureRequest) -> None:
    """Objects per ``o``, per ``g``, per both or one for the file, each
    starting flat, with the materials their ``usemtl`` statements name, in
    Blender's order (several of one name too); on a hand-made file and on a
    Blender scene written with its groups."""
    made = {"export_colors": True, "export_vertex_groups": True, "export_materials": True}
    features = blender_file(tmp_path, str(FEATURES), ["1"], "features.obj", blender, made)
    split = tmp_path / "split.obj"
    split.write_text(SPLIT)
    split_id = request.node.callspec.id.split("-")[-1]
    for path in (split, features):
        (tmp_path / path.stem).mkdir()
        theirs = imported(blender, "blender", [path], tmp_path / path.stem / "blender", options)
        ours = imported(blender, "oxport", [path], tmp_path / path.stem / "oxport", options)
        found = difference(ours, theirs)
        if (split_id, path.stem) in SPLIT_DIFFERENT:
            assert found is not None, f"{path.name} now imports as Blender imports it: take it out of SPLIT_DIFFERENT"
        else:
            assert found is None, f"{path.name}: {found}"


# Free-form curves: clamped, Bezier, uniform, uneven (custom) knots, a
# rational cyclic one, degrees too high and missing, relative indices, the
# object of positions alone a `cstype` turns into a curve, faces given to a
# curve (dropped), groups naming curves (and `g off`), a curve without
# points, a surface and a Bezier type (skipped), names that sort curves
# among the meshes; on 4.5 and 5.0 a separator in some names. Damaged
# statements read as Blender reads them: a bad range, non-integer points,
# `parm u0`, a knot that is not a number, knots over two `parm` lines.
CURVES = """\
v 0 0 0
v 1 0 0
v 1 1 0
v 0 1 0
v 0 2 1
v 1 2 1
g Open
cstype bspline
deg 3
curv 0.0 1.0 1 2 3 4 5 6
parm u 0 0 0 0 0.333333 0.666667 1 1 1 1
end
o Mesh
v 0 0 5
v 1 0 5
v 1 1 5
f -3 -2 -1
v 2 2 2 0.5
v 3 2 2 2.0
v 3 3 2
v 2 3 2
cstype rat bspline
deg 2
curv 0.0 1.0 -4 -3 -2 -1 -4 -3
parm u 0 1 2 3 4 5 6 7 8
end
cstype bspline
deg 1
curv 0 1 1 2 3 4
parm u 0 0 1 2 3 3
end
g Bez
cstype bspline
deg 3
curv 0 1 1 2 3 4 5 6 7
parm u 0 0 0 0 1 1 1 2 2 2 2
end
cstype bspline
deg 2
curv 0 1 1 2 3 4 5
parm u 0 0.1 0.5 0.7 1.5 1.6 3 4
end
cstype bspline
deg 5
curv 0 1 1 2 3
parm u 0 1 2 3 4 5 6 7 8
end
o Zeta
cstype bspline
deg 2
curv 0 1 1 2 3 4 1 2
parm u 0 1 2 3 4 5 6 7 8
end
f 1 2 3
l 1 4
o alpha
f 1 2 3
cstype bspline
curv 0 1 1 2 3
parm u 0 0 1 1 1
end
cstype bspline
deg 2
curv 0 1
end
g off
cstype bspline
deg 3
curv 0 1 -5 -4 -3 -2 -1 -5 -4 -3
parm u 0 0 0 0 1 2 3 4 5 5 5 5
parm v 0 1
end
surf 0 1 0 1 1 2 3 4
g Beta
cstype bezier
deg 3
curv 0 1 1 2 3 4
end
o in/side
f 2 3 4
g nested/group
cstype bspline
deg 3
curv 0 1 1 2 3 4 5 1 2 3
parm u 0 0 0 0 1 2 3 4 4 4 4
end
o damaged
cstype bspline
deg 2.5
curv 0 1 1 +2 3.5 4
parm u0 0 0
parm u 1 x 3
end
o unread
cstype bspline
deg x
curv a 1 1 2 3
parm v 0 1
end
o two_parms
cstype bspline
deg 2
curv 0 1 1 2 3 4 5
parm u 0 0 0 1 2 3
parm u 3 3 3
end
"""


# The importer options a curve import is compared under: 3.4's importer has
# neither close_spline_loops nor collection_separator, and crashes clamping a
# file with curves, so it runs with its defaults only.
CURVE_OPTIONS = {"open_loops": {"close_spline_loops": False}, "collections": {"collection_separator": "/"},
                 "clamp_size": {"clamp_size": 2.0}}


@pytest.mark.parametrize("version, options", [
    *(pytest.param(v, {}, id=f"blender{v.replace('.', '')}-default") for v in BLENDERS),
    *(pytest.param(v, o, id=f"blender{v.replace('.', '')}-{name}")
      for v in BLENDERS if v != "3.4" for name, o in CURVE_OPTIONS.items())])
def test_free_form_curves(options: dict, tmp_path: Path, version: str) -> None:
    """Free-form curves as each version's importer makes them (order,
    flags, points and weights, and the points Blender evaluates, which
    custom knots place), among the meshes in its order: on a hand-made file
    and on a Blender scene's Bezier and NURBS curves and surface written as
    NURBS by that version's exporter."""
    path = tmp_path / "curves.obj"
    path.write_text(CURVES)
    written = blender_file(tmp_path, str(FEATURES), ["1", "curves"], "curves_nurbs.obj", version,
                           {"export_curves_as_nurbs": True})
    assert "cstype bspline" in written.read_text()
    for source in (path, written):
        (tmp_path / source.stem).mkdir()
        assert_same_import(version, [source], tmp_path / source.stem, options)
        theirs, _ = load(tmp_path / source.stem / "blender")
        assert any(o.get("type") == "CURVE" for o in theirs["objects"]), source.name


# Lines of every length and form: more than two points (3.4 makes the
# first edge alone), one point (3.4: an edge to the last vertex; later: a
# loose vertex), UV indices, relative indices; damaged ones as each reads
# them: an index beyond 32 bits, `++4`, a word that is no index (from 4.5 the
# line ends there, or is skipped without a first point). Faces naming a
# position or UV declared after them (skipped, by every version).
LINES = """\
v 0 0 0
v 1 0 0
v 1 1 0
v 0 1 0
v 0 2 1
v 1 2 1
vt 0 0
vt 1 1
l 1 2 3 4
l 5
l 3/1 4/2
l -1 -2
o second
v 3 3 3
v 4 4 4
f 1 2 7
l 8 2 1
l 99999999999 2
l +3 ++4
l 2 x 3
l y 1
l 1/1 2/2/2 3
f 2 7 9
f 1/3 7/3 8/3
v 5 5 5
vt 0.5 0.5
f 2 7 9
f 1/3 7/3 8/3
"""


def test_lines(tmp_path: Path, version: str) -> None:
    path = tmp_path / "lines.obj"
    path.write_text(LINES)
    assert_same_import(version, [path], tmp_path)


def test_several_files_at_once(tmp_path: Path, version: str) -> None:
    first = blender_file(tmp_path, "monkey.py", ["1"], "monkey.obj", version)
    second = blender_file(tmp_path, "scene.py", ["20", "2"], "scene.obj", version)
    assert_same_import(version, [first, second], tmp_path)


# Objects whose names give collections: nested, repeated, with empty parts,
# a name taken by a collection elsewhere (Blender then makes "b.001" and
# another for the next object, as it looks among the children by name), an
# object without a name.
COLLECTIONS = """\
v 0 0 0
v 1 0 0
v 0 1 0
o a/b/one
f 1 2 3
o a/two
f 1 2 3
o b/three
f 1 2 3
o b/four
f 1 2 3
o /lead
f 1 2 3
o x//y/
f 1 2 3
o A/b/five
f 1 2 3
o plain
f 1 2 3
o a.b.c
f 1 2 3
o\x20
f 1 2 3
"""


@pytest.mark.parametrize("separator", ["/", ".", ""])
@pytest.mark.parametrize("blender", ["4.5", "5.0"])  # (3.4's importer has no such option)
def test_collections_from_names(separator: str, blender: str, tmp_path: Path) -> None:
    """``collection_separator``: objects linked into the collections their
    names give, made as Blender's importer makes them."""
    path = tmp_path / "collections.obj"
    path.write_text(COLLECTIONS)
    options = {"collection_separator": separator}
    theirs = imported(blender, "blender", [path], tmp_path / "blender", options)
    ours = imported(blender, "oxport", [path], tmp_path / "oxport", options)
    assert bool(theirs[0]["collections"]) == bool(separator)
    assert difference(ours, theirs) is None


# One object whose faces mix layouts (UVs, normals, both, neither), within a
# face too, and one without normals in a file with some.
MIXED = """\
v 0 0 0
v 1 0 0
v 0 1 0
v 1 1 0
vt 0 0
vt 1 0
vt 0 1
vn 0 0 1
f 1/1 2/2 3/3
f 2 4 3
f 1//1 2//1 4//1
f 2/1/1 3/2/1 4/3/1
f 1/1 2 4/3
o b
v 5 5 5
f 1 2 5
s 1
f 2 3 5
"""


def test_faces_that_mix_layouts(tmp_path: Path, version: str) -> None:
    """One mesh of faces with UVs and normals and faces without (zeros
    where a corner has none), as Blender's importer makes it."""
    path = tmp_path / "mixed.obj"
    path.write_text(MIXED)
    assert_same_import(version, [path], tmp_path)


# Vertex colors on some vertices: B uses one without, C colored ones with an
# uncolored one between them, A colored ones only.
SOME_COLORED = """\
v 0 0 0 1 0 0
v 1 0 0 0 1 0
v 0 1 0 0 0 1
v 1 1 0
o B
f 2 3 4
o C
v 5 0 0 0.5 0.5 0.5
v 6 0 0
v 5 1 0 0.2 0.2 0.2
v 6 1 0 0.3 0.3 0.3
f 5 7 8
o A
f 1 2 3
"""


def test_vertex_colors_on_some_vertices(tmp_path: Path, version: str) -> None:
    """From 4.5 a mesh has colors when every vertex it uses has one. 3.4
    keeps them where one run of colored vertices covers the object's
    range, which oxport does not follow: there it colors the others black."""
    path = tmp_path / "colors.obj"
    path.write_text(SOME_COLORED)
    theirs = imported(version, "blender", [path], tmp_path / "blender")
    ours = imported(version, "oxport", [path], tmp_path / "oxport")
    found = difference(ours, theirs)
    if version == "3.4":
        assert found is not None, "3.4's colors now imported as it does: test it as the others"
    else:
        assert found is None, found


TINYOBJLOADER = ROOT / "target" / "test-models" / "tinyobjloader"

# tinyobjloader's files that oxport still imports otherwise than Blender
# (every version alike), and why.
DIFFERENT: dict[str, str] = {
}
# Those that differ in one version only.
DIFFERENT_IN: dict[str, dict[str, str]] = {}
# Files Blender itself crashes on (the test checks that it still does).
CRASHES = {"3.4": {"invalid-face-definition.obj"}}


def last_line(error: str) -> str:
    """An error's message without Blender's traceback and location."""
    lines = [line.strip() for line in error.splitlines() if line.strip() and not line.startswith("Location:")]
    return lines[-1] if lines else error


def test_files_of_another_project(tmp_path: Path, version: str) -> None:
    """tinyobjloader's OBJ files (edge cases of its own issues: bad and
    relative indices, NaNs, faces that mix layouts, points, materials
    missing or assigned before ``o``), each imported into an empty scene by
    Blender and by oxport: the same objects and data, or the same failure."""
    if not TINYOBJLOADER.is_dir():
        pytest.skip("tinyobjloader's test models are not downloaded (make test-models)")
    paths = sorted(TINYOBJLOADER.glob("*.obj"))
    assert len(paths) == 47
    crashes = CRASHES.get(version, set())
    for name in crashes:
        command = [*blender_python(version), str(DUMP), "--", str(ROOT), "blender", str(tmp_path / "crash"),
                   str(TINYOBJLOADER / name)]
        result = subprocess.run(command, capture_output=True, text=True, timeout=900)
        assert result.returncode != 0 and "OXPORT_IMPORT" not in result.stdout, f"Blender {version} imports {name} now"
    compared = [p for p in paths if p.name not in crashes]
    theirs = run_dump(version, "blender", compared, tmp_path / "blender", each=True)["errors"]
    ours = run_dump(version, "oxport", paths, tmp_path / "oxport", each=True)["errors"]
    found = {}
    for i, path in enumerate(paths):
        if path.name in crashes:
            if ours[i] is not None:
                found[path.name] = f"oxport failed: {last_line(ours[i])}"
            continue
        j = compared.index(path)
        if theirs[j] is not None:
            found[path.name] = f"Blender's importer failed: {last_line(theirs[j])}"
        elif ours[i] is not None:
            found[path.name] = f"oxport failed: {last_line(ours[i])}"
        else:
            differs = difference(load(tmp_path / f"oxport-{i}"), load(tmp_path / f"blender-{j}"))
            if differs is not None:
                found[path.name] = differs
    expected = {name for name in [*DIFFERENT, *DIFFERENT_IN.get(version, {})] if name not in crashes}
    unexpected = {name: why for name, why in found.items() if name not in expected}
    fixed = sorted(expected - set(found))
    assert not unexpected and not fixed, (
        "imported otherwise than Blender:\n" + "\n".join(f"{n}: {w}" for n, w in unexpected.items())
        + f"\nnow the same (take them out of DIFFERENT): {fixed}")
