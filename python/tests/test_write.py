"""The Python API of the OBJ writer: inputs, errors, atomic files, round trips."""

from __future__ import annotations

import array
import ctypes
import os
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import oxport
from objparse import read_obj


QUAD = np.array([[0, 0, 0], [1, 0, 0], [1, 1, 0], [0, 1, 0]], np.float32)


def quad(**extra: object) -> oxport.Mesh:
    return oxport.Mesh("quad", QUAD, np.array([0, 4]), np.array([0, 1, 2, 3]), **extra)  # type: ignore[arg-type]


def test_numpy_array_array_and_memoryview_give_the_same_file(tmp_path: Path) -> None:
    flat = [0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 1.0, 0.0]
    inputs = [
        (np.array(flat, np.float32).reshape(3, 3), np.array([0, 3], np.int64), np.array([0, 1, 2], np.uint32)),
        (array.array("f", flat), array.array("i", [0, 3]), array.array("I", [0, 1, 2])),
        (memoryview(array.array("f", flat)), memoryview(array.array("q", [0, 3])), memoryview(array.array("H", [0, 1, 2]))),
    ]
    texts = []
    for i, (positions, offsets, indices) in enumerate(inputs):
        out = tmp_path / f"{i}.obj"
        oxport.write_obj(out, [oxport.Mesh("t", positions, offsets, indices)])
        texts.append(out.read_text())
    assert texts[0] == texts[1] == texts[2]
    assert texts[0].endswith("f 1 2 3\n")


def test_attributes_are_the_given_objects() -> None:
    positions = np.zeros((4, 3), np.float32)
    mesh = oxport.Mesh("m", positions, np.array([0, 4]), np.array([0, 1, 2, 3], np.int32))
    assert mesh.positions is positions
    assert mesh.uvs is None
    assert mesh.name == "m"
    assert mesh.face_count == 1


def test_forms_of_faces(tmp_path: Path) -> None:
    uvs = np.array([[0, 0], [1, 0], [1, 1], [0, 1]], np.float32)
    normals = np.array([[0, 0, 1]], np.float32)
    mesh = quad(uvs=uvs, uv_indices=np.arange(4), normals=normals, normal_indices=np.zeros(4, np.int32))
    out = tmp_path / "a.obj"
    oxport.write_obj(out, [mesh, mesh])
    lines = out.read_text().splitlines()
    assert lines[:7] == ["o quad", "v 0.000000 0.000000 0.000000", "v 1.000000 0.000000 0.000000",
                         "v 1.000000 1.000000 0.000000", "v 0.000000 1.000000 0.000000",
                         "vn 0.0000 0.0000 1.0000", "vt 0.000000 0.000000"]
    faces = [line for line in lines if line.startswith("f ")]
    assert faces == ["f 1/1/1 2/2/1 3/3/1 4/4/1", "f 5/5/2 6/6/2 7/7/2 8/8/2"]
    oxport.write_obj(out, [mesh], uvs=False)
    assert "f 1//1 2//1 3//1 4//1\n" in out.read_text()
    oxport.write_obj(out, [mesh], normals=False)
    assert "f 1/1 2/2 3/3 4/4\n" in out.read_text()
    assert "vn" not in out.read_text()


def test_groups_are_written_where_they_change(tmp_path: Path) -> None:
    positions = np.zeros((3, 3), np.float32)
    mesh = oxport.Mesh(
        "m", positions, np.array([0, 3, 6, 9]), np.array([0, 1, 2] * 3),
        smooth=np.array([1, 1, 0]), groups=["left", "right"], group_indices=np.array([0, 0, 1]),
        materials=["a"], material_indices=np.array([0, 0, 0]),
    )
    assert list(mesh.groups or []) == ["left", "right"]
    assert np.asarray(mesh.group_indices).tolist() == [0, 0, 1]
    out = tmp_path / "g.obj"
    oxport.write_obj(out, [mesh])
    faces = out.read_text().split("v 0.000000 0.000000 0.000000\n")[-1]
    assert faces == "s 1\ng left\nusemtl a\nf 1 2 3\nf 1 2 3\ns 0\ng right\nf 1 2 3\n"
    with pytest.raises(ValueError, match="group_indices"):
        oxport.Mesh("m", positions, np.array([0, 3]), np.array([0, 1, 2]),
                    groups=["only"], group_indices=np.array([1]))


def test_smooth_groups_materials_colors_edges(tmp_path: Path) -> None:
    positions = np.array([[0, 0, 0], [1, 0, 0], [1, 1, 0], [0, 1, 0]], np.float32)
    mesh = oxport.Mesh(
        "m", positions, np.array([0, 3, 6, 9]), np.array([0, 1, 2, 0, 2, 3, 1, 2, 3]),
        smooth=np.array([1, 1, 0], np.uint8), materials=["red", "blue"],
        material_indices=np.array([0, 1, 1]), colors=np.full((4, 3), 0.5, np.float32),
        edges=np.array([[0, 2]], np.uint32),
    )
    out = tmp_path / "m.obj"
    oxport.write_obj(out, [mesh], header="made by a test", mtllib="m.mtl")
    assert out.read_text() == (
        "# made by a test\nmtllib m.mtl\no m\n"
        "v 0.000000 0.000000 0.000000 0.5000 0.5000 0.5000\n"
        "v 1.000000 0.000000 0.000000 0.5000 0.5000 0.5000\n"
        "v 1.000000 1.000000 0.000000 0.5000 0.5000 0.5000\n"
        "v 0.000000 1.000000 0.000000 0.5000 0.5000 0.5000\n"
        "s 1\nusemtl red\nf 1 2 3\nusemtl blue\nf 1 3 4\ns 0\nf 2 3 4\nl 1 3\n"
    )
    oxport.write_obj(out, [mesh], materials=False, colors=False)
    assert "usemtl" not in out.read_text()
    assert "v 0.000000 0.000000 0.000000\n" in out.read_text()


def test_points(tmp_path: Path) -> None:
    """Positions without faces or lines are written as ``p``, and kept by a
    copy or a pickle."""
    import pickle
    positions = np.array([[0, 0, 0], [1, 0, 0], [1, 1, 0], [0, 1, 0]], np.float32)
    mesh = oxport.Mesh("m", positions, np.array([0, 3]), np.array([0, 1, 2]), points=np.array([3]))
    assert mesh.points is not None and mesh.points.tolist() == [3]
    out = tmp_path / "p.obj"
    oxport.write_obj(out, [mesh])
    assert out.read_text().endswith("f 1 2 3\np 4\n")
    assert pickle.loads(pickle.dumps(mesh)).points.tolist() == [3]
    with pytest.raises(ValueError, match="points\\[0\\] = 4 is out of range for 4 positions"):
        oxport.Mesh("m", positions, np.array([0, 3]), np.array([0, 1, 2]), points=[4])


def test_deduplication_keeps_first_appearance(tmp_path: Path) -> None:
    normals = np.array([[0, 0, 1], [0, 0, 1.00001], [1, 0, 0]], np.float32)
    mesh = quad(normals=normals, normal_indices=np.array([2, 0, 1, 0]))
    out = tmp_path / "d.obj"
    oxport.write_obj(out, [mesh], deduplicate_normals=True)
    text = out.read_text()
    assert text.count("vn ") == 2
    assert "vn 1.0000 0.0000 0.0000\nvn 0.0000 0.0000 1.0000\n" in text
    assert "f 1//1 2//2 3//2 4//2\n" in text


@pytest.mark.parametrize(
    "change, message",
    [
        (dict(positions="0 0 0"), "positions: expected an array-like of numbers"),
        (dict(positions=[[0, 0], [0, 0]]), "positions: entry 0 is not a number or rows of 3"),
        (dict(positions=np.zeros((4, 4), np.float32)), "positions: expected shape (N, 3)"),
        (dict(position_indices=np.array([0, 1, 2, 4])), "position_indices[3] = 4 is out of range for 4"),
        (dict(position_indices=np.array([0, 1, 2, -1])), "position_indices: entry 3 (-1)"),
        (dict(position_indices=np.array([0, 1, 2, -1], np.int32)), "position_indices: entry 3 is negative"),
        (dict(face_offsets=np.array([0, 3])), "face_offsets ends at 3 but position_indices has 4"),
        (dict(face_offsets=np.array([0, 2, 2, 4])), "face_offsets must increase"),
        (dict(face_offsets=[0, "4"]), "face_offsets: entry 1 is not an integer from 0 to 2^32 - 1"),
        (dict(face_offsets=[0, -4]), "face_offsets: entry 1 is not an integer"),
        (dict(materials="red", material_indices=[0]), "materials: expected a sequence of names, got one str"),
        (dict(uvs=np.zeros((4, 2), np.float32)), "uvs are given without uv_indices"),
        (dict(smooth=np.zeros(2, np.uint32)), "smooth has 2 entries for 1 faces"),
        (dict(material_indices=np.zeros(1, np.uint32)), "material_indices[0] = 0 is out of range for 0"),
        (dict(positions=np.zeros((4, 3), np.float32).astype("U3")), "positions"),
    ],
)
def test_bad_meshes_name_the_argument(change: dict, message: str) -> None:
    arguments = dict(
        positions=np.zeros((4, 3), np.float32),
        face_offsets=np.array([0, 4]),
        position_indices=np.array([0, 1, 2, 3]),
    )
    arguments.update(change)
    with pytest.raises(ValueError) as error:
        oxport.Mesh("bad", **arguments)
    assert message in str(error.value)


def test_array_likes_are_converted_once(tmp_path: Path) -> None:
    # Lists, tuples, rows and other numeric types: the bytes of float32 and uint32 arrays.
    expected = tmp_path / "arrays.obj"
    oxport.write_obj(expected, [quad()])
    converted = oxport.Mesh(
        "quad",
        positions=[[0, 0, 0], [1, 0, 0], (1, 1, 0), [0.0, 1.0, 0.0]],
        face_offsets=(0, 4),
        position_indices=np.array([0, 1, 2, 3], np.int64),
    )
    flat = oxport.Mesh("quad", np.zeros(12, np.float64) + QUAD.reshape(-1), [0, 4], [0, 1, 2, 3])
    for i, mesh in enumerate([converted, flat]):
        out = tmp_path / f"{i}.obj"
        oxport.write_obj(out, [mesh])
        assert out.read_bytes() == expected.read_bytes()


def test_bad_options(tmp_path: Path) -> None:
    with pytest.raises(ValueError, match="^precision: 10: a precision is 0 to 9 decimals, or shortest$"):
        oxport.write_obj(tmp_path / "x.obj", [quad()], precision=10)
    with pytest.raises(ValueError, match="normal_precision"):
        oxport.write_obj(tmp_path / "x.obj", [quad()], normal_precision="short")
    with pytest.raises(ValueError, match="threads"):
        oxport.write_obj(tmp_path / "x.obj", [quad()], threads=0)
    with pytest.raises(ValueError, match="meshes"):
        oxport.write_obj(tmp_path / "x.obj", quad())  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="line break"):
        oxport.write_obj(tmp_path / "x.obj", [quad()], mtllib="a\nb")
    assert not list(tmp_path.iterdir())


def test_io_errors_name_the_path_and_leave_nothing(tmp_path: Path) -> None:
    missing = tmp_path / "no" / "such" / "dir" / "x.obj"
    with pytest.raises(OSError) as error:
        oxport.write_obj(missing, [quad()])
    assert error.value.filename == str(missing)
    # A directory in the way of the rename: the temporary file must not stay behind.
    blocked = tmp_path / "blocked.obj"
    (blocked / "inside").mkdir(parents=True)
    with pytest.raises(OSError) as error:
        oxport.write_obj(blocked, [quad()])
    assert error.value.filename == str(blocked)
    assert [p.name for p in tmp_path.iterdir()] == ["blocked.obj"]


def test_existing_file_survives_a_failed_write(tmp_path: Path) -> None:
    out = tmp_path / "keep.obj"
    out.write_text("precious")
    with pytest.raises(ValueError):
        oxport.write_obj(out, [quad()], precision=11)
    assert out.read_text() == "precious"
    oxport.write_obj(out, [quad()])
    assert out.read_text().startswith("o quad\n")
    assert [p.name for p in tmp_path.iterdir()] == ["keep.obj"]


def test_full_disk_is_an_error(tmp_path: Path) -> None:
    if not os.path.exists("/dev/full"):
        pytest.skip("no /dev/full")
    with pytest.raises(OSError) as error:
        oxport.write_obj("/dev/full", [quad()])
    assert error.value.filename == "/dev/full"


finite32 = st.floats(width=32, allow_nan=False, allow_infinity=False)


@settings(max_examples=60, deadline=None)
@given(
    st.lists(st.tuples(finite32, finite32, finite32), min_size=3, max_size=40),
    st.integers(min_value=1, max_value=8),
    st.data(),
)
def test_shortest_precision_round_trips_bit_exactly(points: list, threads: int, data: st.DataObject) -> None:
    positions = np.array(points, np.float32)
    sizes = data.draw(st.lists(st.integers(3, 6), min_size=1, max_size=10))
    indices = np.array(data.draw(st.lists(st.integers(0, len(points) - 1), min_size=sum(sizes), max_size=sum(sizes))))
    offsets = np.concatenate([[0], np.cumsum(sizes)])
    mesh = oxport.Mesh("random", positions, offsets, indices)
    import tempfile

    with tempfile.TemporaryDirectory() as directory:
        out = os.path.join(directory, "r.obj")
        oxport.write_obj(out, [mesh], precision="shortest", threads=threads)
        with open(out, "rb") as f:
            lines = f.read().split(b"\n")
    values = [float(x) for line in lines if line.startswith(b"v ") for x in line.split()[1:]]
    assert np.array_equal(np.array(values, np.float32).view(np.uint32), positions.reshape(-1).view(np.uint32))
    faces = [line for line in lines if line.startswith(b"f ")]
    read = [int(x) - 1 for line in faces for x in line.split()[1:]]
    assert read == indices.tolist()
    assert [len(line.split()) - 1 for line in faces] == sizes


@settings(max_examples=200, deadline=None)
@given(st.lists(st.floats(allow_nan=False, allow_infinity=False), min_size=1, max_size=50), st.integers(0, 9))
def test_fixed_matches_python_percent_formatting(values: list, precision: int) -> None:
    # Python's "%.Nf" is correctly rounded with ties to even, as glibc's printf.
    ours = oxport._native.format_fixed(np.array(values, np.float64), precision).decode().split("\n")[:-1]
    assert ours == ["%.*f" % (precision, v) for v in values]
    with np.errstate(over="ignore"):  # beyond float32: inf, printed as "inf" by both
        singles = np.array(values, np.float64).astype(np.float32)
    ours = oxport._native.format_fixed(singles, precision).decode().split("\n")[:-1]
    assert ours == ["%.*f" % (precision, float(v)) for v in singles]


def test_the_test_reader_reads_what_oxport_writes(tmp_path: Path) -> None:
    mesh = quad(smooth=np.array([1]), materials=["m"], material_indices=np.array([0]))
    out = tmp_path / "q.obj"
    oxport.write_obj(out, [mesh], mtllib="q.mtl")
    parsed = read_obj(str(out))
    assert parsed.mtllib == "q.mtl"
    again = tmp_path / "again.obj"
    oxport.write_obj(again, parsed.meshes, mtllib="q.mtl")
    assert again.read_bytes() == out.read_bytes()


def test_the_gil_is_released_while_writing(tmp_path: Path) -> None:
    """With a switch interval of 100 s, the main thread gives the GIL away only
    when it blocks or a native call releases it: the counting thread, which
    yields the GIL at every step, can only count while write_obj runs if the
    writer released the GIL."""
    import sys
    import threading
    import time

    positions = np.random.default_rng(1).random((300_000, 3), dtype=np.float32)
    corners = np.arange(300_000, dtype=np.uint32)
    mesh = oxport.Mesh("big", positions, np.arange(0, 300_001, 3, dtype=np.uint32), corners)
    counted = [0]
    stop = threading.Event()

    def count() -> None:
        while not stop.is_set():
            counted[0] += 1
            time.sleep(0)  # releases the GIL and takes it back

    interval = sys.getswitchinterval()
    sys.setswitchinterval(100)
    try:
        thread = threading.Thread(target=count)
        thread.start()
        time.sleep(0.01)
        before = counted[0]
        for _ in range(5):
            oxport.write_obj(tmp_path / "big.obj", [mesh], threads=1)
        during = counted[0] - before
    finally:
        stop.set()
        sys.setswitchinterval(interval)
    thread.join()
    assert during > 0, "no other Python thread ran while write_obj was writing"


def test_empty_arrays_of_any_alignment(tmp_path: Path) -> None:
    empty_f = array.array("f")
    empty_i = array.array("i")
    mesh = oxport.Mesh("empty", empty_f, empty_i, empty_i, edges=array.array("i"))
    oxport.write_obj(tmp_path / "e.obj", [mesh])
    assert (tmp_path / "e.obj").read_text() == "o empty\n"


def test_direct_io_gives_the_same_file(tmp_path: Path) -> None:
    rng = np.random.default_rng(5)
    positions = rng.random((200_000, 3), dtype=np.float32)
    corners = rng.integers(0, 200_000, 600_000).astype(np.uint32)
    mesh = oxport.Mesh("m", positions, np.arange(0, 600_001, 3, dtype=np.uint32), corners)
    buffered, direct = tmp_path / "buffered.obj", tmp_path / "direct.obj"
    oxport.write_obj(buffered, [mesh])
    summary = oxport.write_obj(direct, [mesh], direct=True)
    assert summary.bytes == direct.stat().st_size
    assert direct.read_bytes() == buffered.read_bytes()


def test_obj_writer_streams_what_write_obj_writes(tmp_path: Path) -> None:
    meshes = [quad(smooth=np.array([1]), materials=["m"], material_indices=np.array([0])) for _ in range(5)]
    whole, streamed = tmp_path / "whole.obj", tmp_path / "streamed.obj"
    oxport.write_obj(whole, meshes, header="h", mtllib="x.mtl")
    with oxport.ObjWriter(streamed, header="h", mtllib="x.mtl") as writer:
        writer.write(meshes[:2])
        writer.write([])
        writer.write(meshes[2:])
    assert writer.summary is not None and writer.summary.objects == 5
    assert streamed.read_bytes() == whole.read_bytes()
    with pytest.raises(ValueError, match="closed"):
        writer.write(meshes)


def test_obj_writer_writes_its_mtl_file_as_it_closes(tmp_path: Path) -> None:
    red = [oxport.Material("red", diffuse=(0.8, 0.1, 0.1))]
    writer = oxport.ObjWriter(tmp_path / "a.obj", mtllib="lib.mtl")
    writer.write([quad()])
    writer.close(mtl_materials=red, mtl_header="made here")
    oxport.write_mtl(tmp_path / "expected.mtl", red, header="made here")
    assert (tmp_path / "lib.mtl").read_bytes() == (tmp_path / "expected.mtl").read_bytes()
    # Materials without an mtllib to name them, or an MTL file that cannot be
    # written: neither file appears.
    writer = oxport.ObjWriter(tmp_path / "b.obj")
    with pytest.raises(ValueError, match="mtllib"):
        writer.close(mtl_materials=red)
    (tmp_path / "c.mtl").mkdir()
    writer = oxport.ObjWriter(tmp_path / "c.obj", mtllib="c.mtl")
    with pytest.raises(OSError, match="c.mtl"):
        writer.close(mtl_materials=red)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["a.obj", "c.mtl", "expected.mtl", "lib.mtl"]


def test_obj_writer_leaves_nothing_when_abandoned(tmp_path: Path) -> None:
    with pytest.raises(RuntimeError):
        with oxport.ObjWriter(tmp_path / "gone.obj") as writer:
            writer.write([quad()])
            raise RuntimeError("export cancelled")
    assert list(tmp_path.iterdir()) == []
    with pytest.raises(ValueError, match="precision"):
        oxport.ObjWriter(tmp_path / "bad.obj", precision=12)
    assert list(tmp_path.iterdir()) == []


def test_mtl_properties_set_to_none_have_no_line(tmp_path: Path) -> None:
    path = tmp_path / "m.mtl"
    textured = oxport.Material("wood", diffuse=None, specular_exponent=None,
                               maps=[oxport.TextureMap("map_Kd", "wood.png", scale=(2, 2, 1))])
    oxport.write_mtl(path, [oxport.Material("plain"), textured])
    text = path.read_text()
    plain, wood = text.split("newmtl wood\n")
    assert "Kd 0.800000 0.800000 0.800000\n" in plain and "Ns 250.000000\n" in plain
    assert "\nKd " not in wood and "\nNs " not in wood
    assert wood.endswith("illum 2\nmap_Kd -s 2 2 1 wood.png\n")


def test_mtl_pbr_extensions_and_statements_follow_illum(tmp_path: Path) -> None:
    path = tmp_path / "s.mtl"
    material = oxport.Material("pbr", roughness=0.5, transmission_filter=(1.0, 1.0, 1.0),
                               statements=[("sharpness", "60")])
    oxport.write_mtl(path, [material])
    assert path.read_text().endswith("illum 2\nPr 0.500000\nTf 1.000000 1.000000 1.000000\nsharpness 60\n")
    (back,), _ = oxport.read_mtl(path)
    assert (back.roughness, back.transmission_filter, back.statements) == (0.5, [1.0, 1.0, 1.0], [("sharpness", "60")])


def test_buffer_layouts_and_formats(tmp_path: Path) -> None:
    # Strided and Fortran-ordered buffers are copied out in C order; `l` is
    # as wide as the item (ctypes says `<l` for its 8-byte c_long); other
    # byte orders are refused.
    expected = tmp_path / "expected.obj"
    oxport.write_obj(expected, [quad(smooth=np.array([1], np.uint32))])
    wide = np.zeros((4, 6), np.float32)
    wide[:, ::2] = QUAD
    layouts = [
        oxport.Mesh("quad", wide[:, ::2], np.array([0, 4]), np.repeat(np.arange(4), 2)[::2],
                    smooth=np.array([True])),
        oxport.Mesh("quad", np.asfortranarray(QUAD.astype(np.float64)), array.array("l", [0, 4]),
                    (ctypes.c_long * 4)(0, 1, 2, 3),
                    smooth=[1]),
    ]
    for i, mesh in enumerate(layouts):
        out = tmp_path / f"{i}.obj"
        oxport.write_obj(out, [mesh])
        assert out.read_bytes() == expected.read_bytes(), i
    with pytest.raises(ValueError, match="positions: expected numbers"):
        oxport.Mesh("quad", QUAD.astype(">f4"), [0, 4], [0, 1, 2, 3])
    with pytest.raises(ValueError, match="position_indices: entry 2 is negative"):
        oxport.Mesh("quad", QUAD, [0, 4], np.array([0, 1, -2, 3], np.int32))
