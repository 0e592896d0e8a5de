"""Rules that several areas share, checked across them: each is one function
in the library, so that every API applies it the same way."""

from __future__ import annotations

from pathlib import Path
from typing import Any, Callable

import numpy as np
import pytest

from oxport import deflate, exr, seekable


def _exr(path: Path, compression: str, level: int) -> None:
    exr.write(path / "x.exr", {"Y": np.zeros((4, 4), np.float32)}, compression=compression, level=level)


LEVELS: dict[str, tuple[Callable[[Path], Any], str]] = {
    "deflate": (lambda path: deflate.compress(b"data", level=13), "deflate"),
    "gzip": (lambda path: deflate.compress(b"data", -1, format="gzip"), "deflate"),
    "exr zip": (lambda path: _exr(path, "zip", 13), "deflate"),
    "exr pxr24": (lambda path: _exr(path, "pxr24", 13), "deflate"),
    "exr zstd": (lambda path: _exr(path, "zstd", 23), "zstd"),
    "seekable": (lambda path: seekable.pack(__file__, path / "x.zst", level=23), "zstd"),
}


@pytest.mark.parametrize("name", sorted(LEVELS))
def test_a_level_outside_its_codecs_is_refused_in_one_wording(name: str, tmp_path: Path) -> None:
    call, codec = LEVELS[name]
    with pytest.raises(ValueError, match=rf"^level -?\d+: {codec}'s levels are -?\d+ to \d+$"):
        call(tmp_path)
    assert list(tmp_path.iterdir()) == []


def test_the_seekable_defaults_are_the_librarys(tmp_path: Path) -> None:
    data = bytes(range(256)) * 40_000
    (tmp_path / "in").write_bytes(data)
    packed = seekable.pack(tmp_path / "in", tmp_path / "a.zst")
    explicit = seekable.pack(tmp_path / "in", tmp_path / "b.zst", level=3, frame_size=2 << 20, checksums=True)
    assert (tmp_path / "a.zst").read_bytes() == (tmp_path / "b.zst").read_bytes()
    assert packed.frames == explicit.frames == 5
    assert (seekable.DEFAULT_LEVEL, seekable.DEFAULT_FRAME_SIZE, seekable.DEFAULT_CHECKSUMS) == (3, 2 << 20, True)


@pytest.mark.parametrize("value", [10, -1, "12", "short"])
def test_a_precision_is_checked_by_one_rule(value: Any, tmp_path: Path) -> None:
    import oxport

    mesh = oxport.Mesh("t", [[0, 0, 0], [1, 0, 0], [0, 1, 0]], [0, 3], [0, 1, 2])
    with pytest.raises(ValueError, match=r"^uv_precision: .*: a precision is 0 to 9 decimals, or shortest$"):
        oxport.write_obj(tmp_path / "x.obj", [mesh], uv_precision=value)
    assert list(tmp_path.iterdir()) == []


@pytest.mark.parametrize("name", ["scene.obj", "a.b.OBJ", "noext", ".obj"])
def test_the_mtl_file_beside_an_obj_file_is_named_by_one_rule(name: str, tmp_path: Path) -> None:
    import oxport

    expected = str(tmp_path / (Path(name).stem + ".mtl")) if name != ".obj" else str(tmp_path / ".obj.mtl")
    assert oxport.mtl_path(tmp_path / name) == expected
    # The writer writes it there and names it in the OBJ file.
    mesh = oxport.Mesh("m", np.eye(3, dtype=np.float32), [0, 3], [0, 1, 2],
                       materials=["red"], material_indices=[0])
    oxport.write_obj(tmp_path / name, [mesh], mtl_materials=[oxport.Material("red")])
    assert Path(expected).is_file()
    assert f"mtllib {Path(expected).name}\n" in (tmp_path / name).read_text()
    # A batch claims it (two inputs whose MTL files would be one are refused).
    job = oxport._native.BatchJob.obj([str(tmp_path / "in" / name)], str(tmp_path / "out"))
    [target] = job.plan()
    assert target == str(tmp_path / "out" / name)
    if name != ".obj":
        twin = oxport._native.BatchJob.obj([str(tmp_path / "in" / name), str(tmp_path / "in" / (Path(name).stem + ".x"))],
                                           str(tmp_path / "out"))
        with pytest.raises(ValueError, match="would both write .*mtl"):
            twin.plan()


def test_every_error_crosses_processes() -> None:
    # Dask workers and multiprocessing pickle what a task raised: each of
    # oxport's errors must come back as itself, message and all.
    import pickle

    import oxport
    from oxport import zstd

    for kind in [oxport.Error, oxport.ParseError, oxport.CorruptError, oxport.UnsupportedError,
                 zstd.ZstdError, deflate.DeflateError]:
        error = pickle.loads(pickle.dumps(kind("shot.0009.exr: corrupt input at byte 474")))
        assert type(error) is kind and str(error) == "shot.0009.exr: corrupt input at byte 474"
