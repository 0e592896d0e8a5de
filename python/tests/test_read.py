"""oxport.read_obj: Blender's files read back and written again give the same
bytes; random scenes survive write and read; bad files give the expected
errors and valid ones the expected warnings (crates/oxport/tests/data, shared
with the Rust tests)."""

from __future__ import annotations

import dataclasses
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import oxport
from conftest import blender_export
from test_blender_bytes import assert_same_file

DATA = Path(__file__).parents[2] / "crates" / "oxport" / "tests" / "data"
INVALID = DATA / "invalid"
VALID = DATA / "valid"


def round_trip(reference: Path, out: Path, threads: int | None = None) -> None:
    scene = oxport.read_obj(reference, threads=threads)
    assert scene.mtl_header, "the MTL file beside it is read"
    scene.write_obj(out)
    assert_same_file(out, reference)
    assert_same_file(out.with_suffix(".mtl"), reference.with_suffix(".mtl"))


@pytest.mark.parametrize("level", [2, 5, 6])
def test_blender_monkey_round_trips(level: int, refdata: Path, tmp_path: Path) -> None:
    reference = blender_export("monkey.py", [str(level)], refdata / f"monkey{level}.obj")
    round_trip(reference, tmp_path / reference.name)


@pytest.mark.parametrize("threads", [1, 2, 8])
@pytest.mark.parametrize("seed", [1, 2, 3])
def test_blender_scene_round_trips(seed: int, threads: int, refdata: Path, tmp_path: Path) -> None:
    reference = blender_export("scene.py", ["400", str(seed)], refdata / f"scene400_{seed}.obj")
    round_trip(reference, tmp_path / reference.name, threads)
    scene = oxport.read_obj(reference, threads=threads)
    assert len(scene.meshes) == 400
    assert scene.mtllibs == [reference.with_suffix(".mtl").name]
    assert len(scene.materials) > 1


@pytest.mark.parametrize("name", sorted(p.name for p in INVALID.glob("*.obj")))
def test_invalid_files_give_the_expected_error(name: str) -> None:
    expected = dict(line.split(":", 1) for line in (INVALID / "expected.txt").read_text().splitlines())
    with pytest.raises((oxport.ParseError, oxport.UnsupportedError)) as raised:
        oxport.read_obj(INVALID / name)
    message = str(raised.value)
    assert message.endswith(f"{name}:{expected[name]}"), message


def test_every_invalid_file_has_an_expected_error() -> None:
    names = (line.split(":", 1)[0] for line in (INVALID / "expected.txt").read_text().splitlines())
    assert {name for name in names if name.endswith(".obj")} == {p.name for p in INVALID.glob("*.obj")}


def test_valid_files_read_with_their_warnings() -> None:
    expected: dict[str, list[str]] = {}
    for line in (VALID / "expected.txt").read_text().splitlines():
        name, text = line.split(": ", 1)
        expected.setdefault(name, []).append(text)
    assert set(expected) == {p.name for p in VALID.glob("*.obj")}
    for name, texts in expected.items():
        scene = oxport.read_obj(VALID / name)
        seen = [str(dataclasses.replace(w, path=None)).replace(str(VALID), ".") for w in scene.warnings]
        assert seen == ([] if texts == ["no warnings"] else texts), name
        assert all(w.path == str(VALID / name) for w in scene.warnings)


def test_leniency_passwd_and_mtl_root(tmp_path: Path) -> None:
    # A face of two corners is an edge; mtllib leaving the folder is not opened,
    # and nothing of the file it names reaches an error or a warning.
    inner = tmp_path / "scenes"
    inner.mkdir()
    (tmp_path / "above.mtl").write_text("newmtl red\nKd 1 0 0\n")
    path = inner / "scene.obj"
    path.write_text("mtllib ../above.mtl\nmtllib /etc/passwd\nv 0 0 0\nv 1 0 0\nf 1 2\n")
    scene = oxport.read_obj(path)
    assert np.asarray(scene.meshes[0].edges).tolist() == [[0, 1]]
    assert scene.materials == [] and scene.mtl_files == []
    assert [w.line for w in scene.warnings] == [5, 0, 0]
    assert "root:" not in " ".join(w.what for w in scene.warnings)
    with pytest.raises(oxport.ParseError, match="a face needs 3 corners"):
        oxport.read_obj(path, strict=True)
    widened = oxport.read_obj(path, mtl_root=tmp_path)
    assert [m.name for m in widened.materials] == ["red"]
    assert widened.mtl_files == [inner / "../above.mtl"]
    assert oxport.read_obj(path, materials=False).warnings == scene.warnings[:1]
    with pytest.raises(ValueError, match="threads is 0: give at least 1, or leave it unset for one per core"):
        oxport.read_obj(path, threads=0)


def test_strict_mode_refuses_unknown_statements(tmp_path: Path) -> None:
    path = tmp_path / "unknown.obj"
    path.write_text("v 0 0 0\nv 1 0 0\nv 0 1 0\nweird 1 2\nf 1 2 3\n")
    assert oxport.read_obj(path).skipped == 1
    with pytest.raises(oxport.ParseError, match=r"unknown.obj:4: unknown statement \"weird\""):
        oxport.read_obj(path, strict=True)
    with pytest.raises(FileNotFoundError):
        oxport.read_obj(tmp_path / "missing.obj")


finite = st.floats(-1e6, 1e6, allow_nan=False, width=32)


@st.composite
def meshes(draw: st.DrawFn) -> list[oxport.Mesh]:
    result = []
    for m in range(draw(st.integers(1, 4))):
        count = draw(st.integers(3, 12))
        positions = np.array(draw(st.lists(st.tuples(finite, finite, finite), min_size=count, max_size=count)),
                             np.float32)
        sizes = draw(st.lists(st.integers(3, 5), min_size=1, max_size=8))
        corners = np.array(draw(st.lists(st.integers(0, count - 1), min_size=sum(sizes), max_size=sum(sizes))),
                           np.uint32)
        uvs = np.array(draw(st.lists(st.tuples(finite, finite), min_size=2, max_size=2)), np.float32)
        result.append(oxport.Mesh(
            f"mesh_{m}", positions, np.concatenate([[0], np.cumsum(sizes)]).astype(np.uint32), corners,
            uvs=uvs, uv_indices=corners % 2,
            smooth=np.array(draw(st.lists(st.integers(0, 3), min_size=len(sizes), max_size=len(sizes))),
                            np.uint32),
        ))
    return result


@settings(max_examples=60, deadline=None)
@given(meshes())
def test_random_scenes_survive_write_and_read(tmp_path_factory: pytest.TempPathFactory,
                                               written: list[oxport.Mesh]) -> None:
    path = tmp_path_factory.mktemp("random") / "r.obj"
    oxport.write_obj(path, written, precision="shortest", uv_precision="shortest")
    scene = oxport.read_obj(path)
    assert [m.name for m in scene.meshes] == [m.name for m in written]
    for ours, theirs in zip(scene.meshes, written):
        for field in ("positions", "face_offsets", "position_indices", "uvs", "uv_indices", "smooth"):
            a, b = np.asarray(getattr(ours, field)), np.asarray(getattr(theirs, field))
            assert a.tobytes() == b.astype(a.dtype).tobytes(), field


def test_arrays_are_read_only_numpy_views_of_oxport_memory(tmp_path: Path) -> None:
    path = tmp_path / "quad.obj"
    path.write_text("o quad\nv 0 0 0\nv 1 0 0\nv 1 1 0\nv 0 1 0\nvn 0 0 1\nf 1//1 2//1 3//1 4//1\nl 1 3\n")
    mesh = oxport.read_obj(path).meshes[0]
    positions, edges = mesh.positions, mesh.edges
    assert isinstance(positions, np.ndarray) and positions.dtype == np.float32 and positions.shape == (4, 3)
    assert isinstance(edges, np.ndarray) and edges.dtype == np.uint32 and edges.shape == (1, 2)
    # Views of the mesh's memory, not copies: the array does not own its data
    # and two arrays of the same field share it.
    assert not positions.flags.owndata
    assert np.shares_memory(positions, mesh.positions)
    with pytest.raises(ValueError):
        positions[0, 0] = 5.0
    # The arrays keep the mesh alive.
    del mesh
    assert positions[2].tolist() == [1.0, 1.0, 0.0]
    assert edges.tolist() == [[0, 2]]


def test_without_numpy_arrays_are_memoryviews(tmp_path: Path) -> None:
    # Blender builds without numpy: the arrays are then read-only memoryviews.
    import subprocess
    import sys

    path = tmp_path / "tri.obj"
    path.write_text("v 0 0 0\nv 1 0 0\nv 0 1 0\nf 1 2 3\n")
    script = (
        "import sys; sys.modules['numpy'] = None\n"
        "import oxport\n"
        f"mesh = oxport.read_obj({str(path)!r}).meshes[0]\n"
        "p = mesh.positions\n"
        "assert isinstance(p, memoryview) and p.readonly and p.shape == (3, 3) and p.format == 'f', p\n"
        "assert p.tolist()[1] == [1.0, 0.0, 0.0]\n"
        "assert mesh.position_indices.tolist() == [0, 1, 2]\n"
    )
    result = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True)
    assert result.returncode == 0, result.stderr


def test_a_scene_written_beside_the_file_read_names_its_mtl_after_the_output(tmp_path: Path) -> None:
    # One rule (oxport.obj.write_scene) for Scene.write_obj, convert_obj and
    # `oxport obj convert`: the MTL file is named after the output, so that
    # writing beside the file read never replaces the MTL file it names.
    source = tmp_path / "in.obj"
    source.write_text("# by hand\nmtllib in.mtl\no a\nv 0 0 0\nv 1 0 0\nv 0 1 0\nusemtl red\nf 1 2 3\n")
    (tmp_path / "in.mtl").write_text("# by hand\nnewmtl red\nKd 0.8 0.1 0.1\n")
    oxport.read_obj(source).write_obj(tmp_path / "out.obj")
    assert (tmp_path / "in.mtl").read_text() == "# by hand\nnewmtl red\nKd 0.8 0.1 0.1\n"
    assert "mtllib out.mtl\n" in (tmp_path / "out.obj").read_text()
    assert "newmtl red\n" in (tmp_path / "out.mtl").read_text()
    (tmp_path / "c").mkdir()
    oxport.convert_obj(source, tmp_path / "c" / "out.obj")
    for name in ("out.obj", "out.mtl"):
        assert (tmp_path / name).read_bytes() == (tmp_path / "c" / name).read_bytes()
    # mtllib names the MTL file; without MTL files read, the first mtllib is kept.
    oxport.read_obj(source).write_obj(tmp_path / "named.obj", mtllib="lib.mtl")
    assert "newmtl red\n" in (tmp_path / "lib.mtl").read_text()
    bare = oxport.read_obj(source, materials=False)
    bare.write_obj(tmp_path / "bare.obj")
    assert "mtllib in.mtl\n" in (tmp_path / "bare.obj").read_text()
    assert not (tmp_path / "bare.mtl").exists()
    # Materials made by hand are written too, named after the output.
    built = oxport.Scene(meshes=bare.meshes, materials=[oxport.Material("red", diffuse=(0.8, 0.1, 0.1))])
    built.write_obj(tmp_path / "built.obj")
    assert "mtllib built.mtl\n" in (tmp_path / "built.obj").read_text()
    assert "newmtl red\n" in (tmp_path / "built.mtl").read_text()


@pytest.mark.parametrize("precision", [None, 2])
def test_convert_obj_writes_what_read_and_write_do(precision: int | None, refdata: Path,
                                                   tmp_path: Path) -> None:
    reference = blender_export("scene.py", ["400", "1"], refdata / "scene400_1.obj")
    converted, expected = tmp_path / "c" / reference.name, tmp_path / "e" / reference.name
    converted.parent.mkdir()
    expected.parent.mkdir()
    options = {} if precision is None else {"precision": precision}
    done = oxport.convert_obj(reference, converted, **options)  # type: ignore[arg-type]
    oxport.read_obj(reference).write_obj(expected, **options)  # type: ignore[arg-type]
    assert_same_file(converted, expected)
    assert_same_file(converted.with_suffix(".mtl"), expected.with_suffix(".mtl"))
    if precision is None:
        assert_same_file(converted, reference)
    assert done.bytes_read == reference.stat().st_size
    assert done.written.bytes == converted.stat().st_size
    assert done.materials > 1 and done.warnings == [] and done.skipped == 0


def test_convert_obj_reports_warnings_and_refuses_bad_files(tmp_path: Path) -> None:
    path = tmp_path / "unknown.obj"
    path.write_text("v 0 0 0\nv 1 0 0\nv 0 1 0\nweird 1 2\nf 1 2 3\n")
    done = oxport.convert_obj(path, tmp_path / "out.obj")
    assert done.skipped == 1 and [w.what for w in done.warnings] == ['unknown statement "weird" skipped']
    with pytest.raises(oxport.ParseError, match="unknown.obj:4"):
        oxport.convert_obj(path, tmp_path / "strict.obj", strict=True)
    assert not (tmp_path / "strict.obj").exists()


def test_meshes_pickle_with_every_field(tmp_path: Path) -> None:
    import copy
    import pickle

    path = tmp_path / "full.obj"
    path.write_text("mtllib none.mtl\no quad\nv 0 0 0 1 0 0\nv 1 0 0 0 1 0\nv 1 1 0 0 0 1\nv 0 1 0 1 1 1\n"
                    "vt 0 0\nvt 1 1\nvn 0 0 1\ng side\ns 1\nusemtl red\nf 1/1/1 2/2/1 3/1/1 4/2/1\nl 1 3\n")
    mesh = oxport.read_obj(path, materials=False).meshes[0]
    for again in (pickle.loads(pickle.dumps(mesh)), copy.deepcopy(mesh)):
        assert repr(again) == repr(mesh)
        for field in ("positions", "face_offsets", "position_indices", "uvs", "uv_indices", "normals",
                      "normal_indices", "colors", "smooth", "material_indices", "group_indices", "edges"):
            a, b = getattr(again, field), getattr(mesh, field)
            assert a is not None and np.array_equal(a, b), field
        assert again.materials == mesh.materials == ["red"] and again.groups == mesh.groups == ["side"]
    # Out-of-band buffers (protocol 5, as Dask sends them) may start at any byte.
    buffers: list[pickle.PickleBuffer] = []
    data = pickle.dumps(mesh, protocol=5, buffer_callback=buffers.append)
    shifted = [memoryview(bytearray(b"\0" + bytes(b.raw())))[1:] for b in buffers]
    assert np.array_equal(pickle.loads(data, buffers=shifted).positions, mesh.positions)
    scene = oxport.read_obj(path, materials=False)
    assert pickle.loads(pickle.dumps(scene)).write_obj(tmp_path / "a.obj") == scene.write_obj(tmp_path / "b.obj")
    assert_same_file(tmp_path / "a.obj", tmp_path / "b.obj")


def test_free_form_curves_are_read(tmp_path: Path) -> None:
    """B-spline curves with their control points, weights and knots; a
    surface and a Bezier curve skipped with a warning."""
    path = tmp_path / "curves.obj"
    path.write_text("v 0 0 0\nv 1 0 0 0.5\nv 1 1 0\ng rim\ncstype rat bspline\ndeg 2\n"
                    "curv 0 1 1 2 -1\nparm u 0 0 0 1 1 1\nend\nsurf 0 1 0 1 1 2 3\ncstype bezier\n")
    scene = oxport.read_obj(path)
    (curve,) = scene.curves
    assert (curve.name, curve.rational, curve.degree, curve.range) == ("rim", True, 2, (0.0, 1.0))
    assert curve.controls == [0, 1, 2] and curve.weights == [1.0, 0.5, 1.0]
    assert curve.points[1] == (1.0, 0.0, 0.0) and curve.knots == [0, 0, 0, 1, 1, 1]
    assert {w.what for w in scene.warnings} == {
        "free-form surface statements skipped (curves alone are read)",
        "free-form curve type skipped (B-splines alone are read)"}
    with pytest.raises(oxport.ParseError, match="curves.obj:5: a free-form curve"):
        path.write_text("v 0 0 0\ncstype bspline\ndeg 1\ncurv 0 1 1 1\ncurv 0 1 1 9\n")
        oxport.read_obj(path, strict=True)
