"""oxport.blender outside Blender: what the add-on hands to the Rust core."""

from __future__ import annotations

import array
import math
from pathlib import Path

import numpy as np
import pytest

import oxport
import oxport.blender

IDENTITY4 = [[1.0, 0.0, 0.0, 0.0], [0.0, 1.0, 0.0, 0.0], [0.0, 0.0, 1.0, 0.0], [0.0, 0.0, 0.0, 1.0]]
# Blender's default OBJ axes (forward -Z, up Y): (x, y, z) -> (x, z, -y).
Y_UP = [[1.0, 0.0, 0.0], [0.0, 0.0, 1.0], [0.0, -1.0, 0.0]]


def quad_mesh(**extra: object) -> oxport.Mesh:
    positions = array.array("f", [0, 0, 0, 1, 0, 0, 1, 1, 0, 0, 1, 0])
    return oxport.blender.mesh(oxport.blender.Gathered(
        "quad", IDENTITY4, Y_UP, positions, array.array("i", [0, 1, 2, 3]), array.array("i", [0]),
        **extra,  # type: ignore[arg-type]
    ))


def test_axes_and_scale_transform_positions() -> None:
    mesh = quad_mesh(scale=2.0)
    positions = np.asarray(mesh.positions)
    assert positions.tolist() == [[0, 0, 0], [2, 0, 0], [2, 0, -2], [0, 0, -2]]
    assert np.asarray(mesh.face_offsets).tolist() == [0, 4]


def test_normals_are_rounded_to_four_digits_and_merged() -> None:
    s = 1 / math.sqrt(2)
    corner_normals = array.array("f", [0, 0, 1, 0, 0, 1, s, 0, s, 0, 0, 1.00001])
    mesh = quad_mesh(corner_normals=corner_normals, smooth=array.array("b", [1]))
    normals = np.asarray(mesh.normals)
    # (0, 0, 1) becomes (0, 1, 0) with Y up; zeros round to -0.
    expected = np.array([[0.0, 1.0, 0.0], [0.7071, 0.7071, 0.0]], np.float32)
    assert normals.tolist() == expected.tolist()
    assert math.copysign(1, normals[0][0]) == -1
    assert np.asarray(mesh.normal_indices).tolist() == [0, 0, 1, 0]


def test_vertex_normals_on_smooth_faces_face_normals_on_flat_ones() -> None:
    rng = np.random.default_rng(3)
    vertex_normals = rng.normal(size=(4, 3)).astype(np.float32)
    corners = np.array([0, 1, 2, 3], np.int32)
    by_corner = quad_mesh(corner_normals=vertex_normals[corners].reshape(-1), smooth=array.array("b", [1]))
    by_vertex = quad_mesh(vertex_normals=vertex_normals.reshape(-1), smooth=array.array("b", [1]))
    assert np.asarray(by_corner.normals).tolist() == np.asarray(by_vertex.normals).tolist()
    assert np.asarray(by_corner.normal_indices).tolist() == np.asarray(by_vertex.normal_indices).tolist()
    # A flat face takes its own normal, (0, 0, 1) turned Y up, whatever the vertices say.
    flat = quad_mesh(vertex_normals=vertex_normals.reshape(-1), smooth=array.array("b", [0]))
    assert np.asarray(flat.normals).tolist() == [[0.0, 1.0, 0.0]]
    assert np.asarray(flat.normal_indices).tolist() == [0, 0, 0, 0]
    with pytest.raises(ValueError, match="give one of them"):
        quad_mesh(vertex_normals=vertex_normals.reshape(-1), corner_normals=vertex_normals.reshape(-1))


def test_blender_4_meshes_take_the_normals_of_their_domain_and_merge_equal_uvs() -> None:
    up = array.array("f", [0, 0, 1])
    # A face's normal: one per face, turned Y up.
    flat = quad_mesh(face_normals=up, blender_version=(5, 0))
    assert np.asarray(flat.normals).tolist() == [[0.0, 1.0, 0.0]]
    assert np.asarray(flat.normal_indices).tolist() == [0, 0, 0, 0]
    with pytest.raises(ValueError, match="face_normals"):
        quad_mesh(face_normals=up)  # Blender 3.4's exporter has no face normals
    with pytest.raises(ValueError, match="face_normals: 2 entries for 1 faces"):
        quad_mesh(face_normals=up * 2, blender_version=(4, 5))
    # Equal UVs at two vertices are one UV from 4.1 on, two in 3.4.
    uvs = array.array("f", [0.5, 0.5, 1, 0, 0.5, 0.5, 0, 1])
    assert len(np.asarray(quad_mesh(corner_uvs=uvs, blender_version=(4, 5)).uvs)) == 3
    assert len(np.asarray(quad_mesh(corner_uvs=uvs).uvs)) == 4


def test_unused_edges_are_counted_and_bad_indices_refused() -> None:
    assert oxport.blender.unused_edges(array.array("I", [0, 1, 2, 3]), 4) == 0
    assert oxport.blender.unused_edges(array.array("I", [0, 1, 1]), 5) == 3
    with pytest.raises(ValueError, match="uses edge 9 of 4"):
        oxport.blender.unused_edges(array.array("I", [0, 9]), 4)


def test_faces_are_sorted_by_material_and_batches_equal_single_calls() -> None:
    positions = array.array("f", [0.0] * 18)
    corner_vertices = array.array("i", [0, 1, 2, 3, 4, 5])
    arguments = dict(
        name="m", matrix_world=IDENTITY4, axes=Y_UP, positions=positions,
        corner_vertices=corner_vertices, face_starts=array.array("i", [0, 3]),
        material_indices=array.array("i", [1, 0]), materials=["b", "a"],
    )
    single = oxport.blender.mesh(oxport.blender.Gathered(**arguments))  # type: ignore[arg-type]
    assert np.asarray(single.position_indices).tolist() == [3, 4, 5, 0, 1, 2]
    assert np.asarray(single.material_indices).tolist() == [0, 1]
    items = [oxport.blender.Gathered(**arguments), oxport.blender.Gathered(**dict(arguments, name="n"))]  # type: ignore[arg-type]
    batch = oxport.blender.meshes(items)
    assert [m.name for m in batch] == ["m", "n"]
    assert np.asarray(batch[0].position_indices).tolist() == [3, 4, 5, 0, 1, 2]


def test_bad_input_is_an_error_not_a_crash() -> None:
    with pytest.raises(ValueError, match="corner_vertices: entry 1 is vertex 9 of 1"):
        oxport.blender.mesh(oxport.blender.Gathered("bad", IDENTITY4, Y_UP, array.array("f", [0.0] * 3),
                                                    array.array("i", [0, 9, 0]), array.array("i", [0])))
    with pytest.raises(ValueError, match="face_starts: face 1 does not start after face 0"):
        oxport.blender.mesh(oxport.blender.Gathered("bad", IDENTITY4, Y_UP, array.array("f", [0.0] * 9),
                                                    array.array("i", [0, 1, 2]), array.array("i", [0, 0])))
    with pytest.raises(ValueError, match="matrix_world: expected 4 rows of 4 numbers"):
        oxport.blender.Gathered("bad", [[1.0]], Y_UP, array.array("f"), array.array("i"), array.array("i"))
    # Loops without faces, and loose edges past the vertices (unchecked before).
    with pytest.raises(ValueError, match="face_starts: no faces for 3 loops"):
        oxport.blender.mesh(oxport.blender.Gathered("bad", IDENTITY4, Y_UP, [0.0] * 9, [0, 1, 2], []))
    with pytest.raises(ValueError, match="edges: entry 1 is vertex 7 of 3"):
        oxport.blender.mesh(oxport.blender.Gathered("bad", IDENTITY4, Y_UP, [0.0] * 9, [0, 1, 2], [0],
                                                    edges=[[0, 7]]))
    with pytest.raises(ValueError, match="threads is 0: give at least 1, or leave it unset for one per core"):
        oxport.blender.meshes([], threads=0)


def test_with_edges_keeps_the_rest() -> None:
    mesh = quad_mesh()
    edged = mesh.with_edges(array.array("i", [0, 2]))
    assert np.asarray(edged.edges).tolist() == [[0, 2]]
    assert np.asarray(edged.positions).tolist() == np.asarray(mesh.positions).tolist()
    assert mesh.edges is None


def test_texture_maps_follow_the_blender_version(tmp_path: Path) -> None:
    bsdf = oxport.blender.Bsdf(roughness=0.5, specular=0.5, metallic=0.0, ior=1.45, alpha=1.0,
                               base_color=(0.8, 0.8, 0.8), emission=(1.0, 1.0, 1.0), emission_strength=0.0)
    textures = [oxport.blender.ImageTexture("Emission", "glow.png"),
                oxport.blender.ImageTexture("Base Color", "wood.png", location=(0.1, 0.0, 0.0))]
    common = dict(roughness=0.5, specular_intensity=0.5, metallic=0.0, diffuse_color=(1, 1, 1, 1),
                  bsdf=bsdf, textures=textures)
    old = oxport.blender.mtl_material("wood", **common)  # type: ignore[arg-type]
    assert [(m.key, m.offset) for m in old.maps] == [("map_Kd", (pytest.approx(0.1), 0, 0)), ("map_Ke", None)]
    new = oxport.blender.mtl_material("wood", blender_version=(5, 0), **common)  # type: ignore[arg-type]
    assert [(m.key, m.offset) for m in new.maps] == [("map_Kd", (pytest.approx(0.1), 0, 0))]
    # The numbers as each version writes them: %g in 3.4, the shortest round trip from 4.1.
    mapped = oxport.Material("m", maps=[oxport.TextureMap("map_Kd", "wood.png", offset=(0.76377463, 0.25, 0))])
    for version, line in [((3, 4), "map_Kd -o 0.763775 0.25 0 wood.png"),
                          ((5, 0), "map_Kd -o 0.76377463 0.25 0 wood.png")]:
        oxport.write_mtl(tmp_path / "m.mtl", [mapped], blender_version=version)
        assert line in (tmp_path / "m.mtl").read_text().splitlines()
    assert list(new.emissive or ()) == [0.0, 0.0, 0.0] and old.emissive is None


def test_an_unknown_texture_input_is_named() -> None:
    with pytest.raises(ValueError, match='input: "Clearcoat" is not one of Base Color, Metallic'):
        oxport.blender.ImageTexture("Clearcoat", "coat.png")


def test_nurbs_knots_follow_the_blender_version() -> None:
    # Blender's NURBS circle: cyclic, endpoint and Bezier knots, order 3.
    points = np.array([[i, 0, 0] for i in range(8)], dtype=np.float32)
    circle = oxport.blender.NurbsSpline(points, order=3, cyclic=True, endpoint=True, bezier=True)
    old, = oxport.blender.nurbs_curves("c", IDENTITY4, Y_UP, [circle])
    new, = oxport.blender.nurbs_curves("c", IDENTITY4, Y_UP, [circle], blender_version=(4, 5))
    assert len(old.points) == len(new.points) == 8
    with pytest.raises(ValueError, match="spline 0: order 0 is outside 1..=64"):
        oxport.blender.nurbs_curves("c", IDENTITY4, Y_UP, [oxport.blender.NurbsSpline(points, order=0)])


def test_curves_are_written_in_the_layout_of_their_version(tmp_path: Path) -> None:
    points = np.array([[i, 0, 0] for i in range(4)], dtype=np.float32)
    spline = oxport.blender.NurbsSpline(points, order=4)
    texts = []
    for version in [(3, 4), (4, 5), (5, 0)]:
        curves = oxport.blender.nurbs_curves("c", IDENTITY4, Y_UP, [spline], blender_version=version)
        with oxport.ObjWriter(tmp_path / "c.obj", blender_version=version) as writer:
            writer.write_curves(curves)
        texts.append((tmp_path / "c.obj").read_text().split("g c\n", 1)[1])
    assert texts[0].startswith("cstype bspline\ndeg 3\ncurv 0.0 1.0 -1 -2 -3 -4\n")
    assert texts[1] == ("cstype bspline\ndeg 3\ncurv 3.000000 4.000000 -1 -2 -3 -4\n"
                        "parm u 0.000000 1.000000 2.000000 3.000000 4.000000 5.000000 6.000000 7.000000\nend\n")
    assert texts[2].startswith("cstype bspline\ndeg 3\nv 0.000000")


def test_import_keeps_the_used_vertices_in_file_order(tmp_path: Path) -> None:
    path = tmp_path / "parts.obj"
    path.write_text("v 0 0 0\nv 1 0 0\nv 1 1 0\nv 5 5 5\nvn 0 0 2\nf 1//1 2//1 3//1\n"
                    "o Second\nv 2 0 0\nv 3 0 0\nv 3 1 0\nusemtl red\ns 1\nf 5 6 7\nl 6 7\n"
                    "g grp\nf 7 6 5\n")
    scene = oxport.blender.import_obj(path, blender_version=(5, 0), vertex_groups=True)
    first, second = scene.meshes
    assert first.name == "parts"  # the object before the first `o`
    assert first.positions.tolist() == [[0, 0, 0], [1, 0, 0], [1, 1, 0]]  # 5 5 5 is not used
    assert first.corner_normals is not None and first.corner_normals.tolist()[0] == [0, 0, 1]
    assert first.smooth_faces.tolist() == [True]  # with normals, Blender 4.1+ smooths
    assert oxport.blender.import_obj(path).meshes[0].smooth_faces.tolist() == [False]  # 3.4: `s` decides
    assert second.corner_vertices.tolist() == [0, 1, 2, 2, 1, 0]
    assert second.loose_edges.tolist() == [[1, 2]]
    # Every edge, the loose one first (which the faces use), and each corner's.
    assert second.edges.tolist() == [[1, 2], [0, 1], [0, 2]]
    assert second.corner_edges.tolist() == [1, 0, 2, 0, 1, 2]
    assert second.materials == ["red"] and second.material_indices.tolist() == [0, 0]
    assert [(name, v.tolist()) for name, v in second.vertex_groups] == [("grp", [0, 1, 2])]
    assert second.positions.flags.writeable is False
    assert scene.curves == []
    path.write_text("v 0 0 0\nv 1 0 0\nv 0 1 0 0.5\nf 1 2 3\ncstype rat bspline\ndeg 1\ncurv 0.0 1.0 -1 -2\nend\n")
    curve, = oxport.blender.import_obj(path, blender_version=(5, 0)).curves
    assert (curve.name, curve.order, curve.made_after) == ("New object", 2, 0)  # (sorted before "parts")
    assert curve.points == [(0.0, 1.0, 0.0, 0.5), (1.0, 0.0, 0.0, 1.0)]
    assert oxport.blender.import_obj(path).curves == []  # (3.4 reads no rational curves)


def test_the_version_rules_are_the_librarys() -> None:
    old, new = oxport.blender.Exporter(), oxport.blender.Exporter((4, 5))
    assert old.frame_path("out/scene.obj", 12) == "out/scene12.obj"
    assert new.frame_path("out/scene.obj", 12) == "out/scene0012.obj"
    assert old.writes_empty_files and new.writes_empty_files
    assert not oxport.blender.Exporter((5, 0)).writes_empty_files
    assert not old.validates_meshes and new.validates_meshes
    assert repr(new) == "Exporter(Blender45)"


def test_names_are_written_with_underscores(tmp_path: Path) -> None:
    gathered = oxport.blender.Gathered(
        "My Cube", IDENTITY4, Y_UP, np.zeros((3, 3), np.float32), np.arange(3, dtype=np.int32),
        np.array([0], np.int32), material_indices=np.array([0], np.int32), materials=["Red Paint"],
        material_groups="My Cube")
    mesh = oxport.blender.mesh(gathered)
    assert mesh.name == "My_Cube"
    oxport.write_obj(tmp_path / "n.obj", [mesh])
    text = (tmp_path / "n.obj").read_text()
    assert "o My_Cube\n" in text and "g My_Cube_Red_Paint\nusemtl Red_Paint\n" in text


def test_import_makes_objects_in_blenders_order(tmp_path: Path) -> None:
    path = tmp_path / "order.obj"
    path.write_text("o b\nv 0 0 0\nv 1 0 0\nv 0 1 0\nf 1 2 3\no Empty\no A\nf 1 2 3\no a\nf 3 2 1\n")
    names = [m.name for m in oxport.blender.import_obj(path).meshes]
    assert names == ["A", "a", "b"]  # by name, case aside; "Empty" has no vertices


def _grids(count: int) -> list[dict[str, object]]:
    """Gathered arguments of ``count`` grids of growing size, a few with loose edges."""
    objects = []
    for i in range(count):
        n = 2 + i % 40
        xs, ys = np.meshgrid(np.arange(n + 1, dtype=np.float32), np.arange(n + 1, dtype=np.float32))
        positions = np.stack([xs.ravel() + i, ys.ravel(), np.zeros(xs.size, np.float32)], axis=1)
        quads = [(y * (n + 1) + x, y * (n + 1) + x + 1, (y + 1) * (n + 1) + x + 1, (y + 1) * (n + 1) + x)
                 for y in range(n) for x in range(n)]
        objects.append(dict(
            name=f"grid {i}", matrix_world=IDENTITY4, axes=Y_UP, positions=positions,
            corner_vertices=np.array(quads, np.uint32).ravel(), face_starts=np.arange(0, 4 * n * n, 4, dtype=np.uint32),
            vertex_normals=np.tile(np.array([0, 0, 1], np.float32), (xs.size, 1)),
            smooth=np.ones(n * n, np.uint32),
            edges=np.array([[0, n]], np.uint32) if i % 7 == 3 else None,
        ))
    return objects


def test_a_stream_writes_what_one_call_writes(tmp_path: Path) -> None:
    objects = _grids(150)
    expected = tmp_path / "expected.obj"
    oxport.write_obj(expected, oxport.blender.meshes([oxport.blender.Gathered(**o) for o in objects]))  # type: ignore[arg-type]
    writer = oxport.ObjWriter(tmp_path / "streamed.obj")
    with oxport.blender.MeshStream(writer, threads=2) as stream:
        for i, o in enumerate(objects):
            if i % 11 == 0:
                # The loose edges follow the mesh, as a big mesh's do in the add-on.
                edges = stream.add_then_edges(oxport.blender.Gathered(**dict(o, edges=None)))  # type: ignore[arg-type]
                edges.send(o["edges"])
            else:
                stream.add(oxport.blender.Gathered(**o))  # type: ignore[arg-type]
        stream.finish()
    writer.close()
    assert (tmp_path / "streamed.obj").read_bytes() == expected.read_bytes()


def test_a_stream_that_fails_leaves_no_file_and_never_hangs(tmp_path: Path) -> None:
    objects = _grids(30)
    writer = oxport.ObjWriter(tmp_path / "out.obj")
    stream = oxport.blender.MeshStream(writer)
    stream.add(oxport.blender.Gathered(**objects[0]))  # type: ignore[arg-type]
    stream.add(oxport.blender.Gathered(**dict(objects[1], corner_vertices=np.full(4 * 9, 99, np.uint32))))  # type: ignore[arg-type]
    with pytest.raises(ValueError, match='object "grid 1": corner_vertices: entry 0 is vertex 99 of 16'):
        for o in objects[2:]:
            stream.add(oxport.blender.Gathered(**o))  # type: ignore[arg-type]
        stream.finish()
    stream.close()
    writer.abort()
    assert list(tmp_path.iterdir()) == []
    # Edges that never come: cancelled, or the stream closed while the mesh waits.
    for end in ("cancel", "close"):
        writer = oxport.ObjWriter(tmp_path / "out.obj")
        stream = oxport.blender.MeshStream(writer)
        edges = stream.add_then_edges(oxport.blender.Gathered(**objects[0]))  # type: ignore[arg-type]
        if end == "cancel":
            edges.cancel()
            with pytest.raises(ValueError, match="loose edges never came"):
                stream.finish()
        stream.close()
        writer.abort()
        assert list(tmp_path.iterdir()) == []
    with pytest.raises(ValueError, match="the writer is closed"):
        oxport.blender.MeshStream(writer)
