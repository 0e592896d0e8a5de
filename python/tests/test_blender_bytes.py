"""oxport writes the same bytes as Blender 3.4's OBJ exporter: files that
Blender wrote are read back into arrays (by the test's own small reader) and
written again by oxport.write_obj; OBJ and MTL must be identical."""

from __future__ import annotations

from pathlib import Path

import pytest

import oxport
from conftest import blender_export
from objparse import read_mtl, read_obj


def rewrite(reference: Path, out: Path, threads: int | None = None) -> None:
    parsed = read_obj(str(reference))
    header, materials = read_mtl(str(reference.with_suffix(".mtl")))
    summary = oxport.write_obj(
        out,
        parsed.meshes,
        header="\n".join(parsed.header),
        mtllib=parsed.mtllib,
        mtl_materials=materials,
        mtl_header="\n".join(header),
        threads=threads,
    )
    assert summary.bytes == out.stat().st_size
    assert summary.objects == len(parsed.meshes)


def assert_same_file(ours: Path, theirs: Path) -> None:
    a, b = ours.read_bytes(), theirs.read_bytes()
    if a != b:
        lines_a, lines_b = a.split(b"\n"), b.split(b"\n")
        for number, (x, y) in enumerate(zip(lines_a, lines_b), 1):
            if x != y:
                pytest.fail(f"{ours.name} differs from Blender's at line {number}: {x!r} != {y!r}")
        pytest.fail(f"{ours.name}: {len(lines_a)} lines, Blender's has {len(lines_b)}")


@pytest.mark.parametrize("level", [2, 5])
def test_monkey(level: int, refdata: Path, tmp_path: Path) -> None:
    reference = blender_export("monkey.py", [str(level)], refdata / f"monkey{level}.obj")
    out = tmp_path / reference.name
    rewrite(reference, out)
    assert_same_file(out, reference)
    assert_same_file(out.with_suffix(".mtl"), reference.with_suffix(".mtl"))


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_many_object_scene(seed: int, refdata: Path, tmp_path: Path) -> None:
    reference = blender_export("scene.py", ["400", str(seed)], refdata / f"scene400_{seed}.obj")
    out = tmp_path / reference.name
    rewrite(reference, out)
    assert_same_file(out, reference)
    assert_same_file(out.with_suffix(".mtl"), reference.with_suffix(".mtl"))


@pytest.mark.parametrize("threads", [1, 2, 8])
@pytest.mark.parametrize("scene", ["monkey5", "scene400_1"])
def test_same_bytes_whatever_the_thread_count(scene: str, threads: int, refdata: Path, tmp_path: Path) -> None:
    if scene == "monkey5":
        reference = blender_export("monkey.py", ["5"], refdata / "monkey5.obj")
    else:
        reference = blender_export("scene.py", ["400", "1"], refdata / "scene400_1.obj")
    out = tmp_path / reference.name
    rewrite(reference, out, threads=threads)
    assert_same_file(out, reference)
