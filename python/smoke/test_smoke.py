"""The installed package, whatever built it: one test per area, run by
`make test-wheel` against the wheel in a fresh virtual environment of another
Python than the one that built it, with no Rust toolchain on PATH. These
tests import only what the wheel and its `dask` extra install."""

from __future__ import annotations

import io
import os
import shutil
import subprocess
import sys
import sysconfig
from pathlib import Path

import numpy as np
import pytest

import oxport


def test_installed_not_source() -> None:
    # The package under test is the installed wheel, not the checkout's python/.
    assert "site-packages" in Path(oxport.__file__).parts
    assert shutil.which("cargo") is None and shutil.which("rustc") is None


def test_build_info() -> None:
    info = oxport.build_info()
    assert info.version == oxport.__version__
    assert info.zstd_version.startswith("1.")
    assert set(info.engines) == {"isal", "direct"}
    expected = os.environ.get("OXPORT_EXPECT_ENGINES")
    if expected is not None:
        assert {name for name, on in info.engines.items() if on and name != "direct"} == set(expected.split())
    assert "isal" in str(info)


def test_obj_write_read(tmp_path: Path) -> None:
    mesh = oxport.Mesh(
        "quad",
        positions=np.array([[0, 0, 0], [1, 0, 0], [1, 1, 0], [0, 1, 0]], np.float32),
        face_offsets=np.array([0, 4]),
        position_indices=np.array([0, 1, 2, 3]),
    )
    path = tmp_path / "quad.obj"
    oxport.write_obj(path, [mesh])
    assert b"v 1.000000 1.000000 0.000000\n" in path.read_bytes()
    scene = oxport.read_obj(path)
    (read,) = scene.meshes
    assert read.name == "quad"
    np.testing.assert_array_equal(read.positions, mesh.positions)
    np.testing.assert_array_equal(read.position_indices, [0, 1, 2, 3])


def test_seekable_pack_and_random_read(tmp_path: Path) -> None:
    data = bytes(range(256)) * 4096 + os.urandom(100_000)
    src = tmp_path / "data.bin"
    src.write_bytes(data)
    archive = tmp_path / "data.bin.zst"
    oxport.seekable.pack(src, archive, frame_size=64 * 1024)
    with oxport.seekable.open(archive) as f:
        f.seek(700_000)
        assert f.read(5000) == data[700_000:705_000]
    with archive.open("rb") as raw, oxport.seekable.open(io.BufferedReader(raw)) as f:  # a file object
        f.seek(len(data) - 10)
        assert f.read() == data[-10:]


@pytest.mark.parametrize("size", [0, 1000, 3 << 20])
def test_zstd_round_trip(size: int) -> None:
    data = (b"oxport " * (size // 7 + 1))[:size]
    frame = oxport.zstd.compress(data, level=3)
    assert oxport.zstd.decompress(frame) == data


@pytest.mark.parametrize("level", [1, 3, 6, 12])
@pytest.mark.parametrize("format", ["zlib", "gzip", "raw"])
def test_deflate_round_trip(level: int, format: str) -> None:
    data = os.urandom(1000) + b"abc" * 100_000
    packed = oxport.deflate.compress(data, level, format=format)  # type: ignore[arg-type]
    assert len(packed) < len(data)
    assert oxport.deflate.decompress(packed, format=format) == data  # type: ignore[arg-type]


def test_exr_write_read(tmp_path: Path) -> None:
    rng = np.random.default_rng(1)
    channels = {name: rng.random((37, 53)).astype(np.float16) for name in "RGB"}
    path = tmp_path / "image.exr"
    oxport.exr.write(path, channels, compression="zip")
    assert path.read_bytes()[:4] == b"\x76\x2f\x31\x01"
    header, read = oxport.exr.read(path)
    assert header["compression"] == "zip"
    for name, plane in channels.items():
        np.testing.assert_array_equal(read[name], plane)


def test_color_conversion() -> None:
    # CSS Color 4's Oklab of sRGB red.
    oklab = oxport.color.convert(np.array([[1.0, 0.0, 0.0]]), "srgb", "oklab")
    np.testing.assert_allclose(oklab[0], [0.62795536, 0.22486306, 0.12584630], atol=1e-6)
    back = oxport.color.convert(oklab, "oklab", "srgb")
    np.testing.assert_allclose(back[0], [1.0, 0.0, 0.0], atol=1e-12)


def test_dask_extra(tmp_path: Path) -> None:
    # `pip install 'oxport[dask]'` brings what oxport.dask imports and runs on.
    import oxport.dask

    for frame in range(3):
        plane = np.full((4, 6), frame, np.float32)
        oxport.exr.write(tmp_path / f"f{frame}.exr", {"Y": plane}, compression="none")
    stack = oxport.dask.exr_stack(sorted(str(p) for p in tmp_path.glob("f*.exr")), "Y")
    assert stack.shape == (3, 4, 6)
    np.testing.assert_array_equal(stack.compute(scheduler="synchronous")[:, 0, 0], [0, 1, 2])
    import distributed  # convert() runs on a distributed Client

    assert distributed.Client is not None


def test_module_is_the_wheel_for_this_python() -> None:
    # 3.10 and later load the abi3 module; 3.9 its own.
    name = Path(oxport._native.__file__).name
    if sys.version_info >= (3, 10):
        assert name == "_native.abi3.so", name
    else:
        assert name.startswith("_native.cpython-39-"), name


def tool() -> list[str]:
    """The `oxport` command pip installed beside this interpreter. Under an
    emulator (OXPORT_TEST_RUNNER: qemu-user, for the aarch64 wheel) the
    script's interpreter is started through it, as no binfmt_misc entry
    would start it."""
    scripts = Path(sysconfig.get_path("scripts"))
    command = scripts / ("oxport.exe" if os.name == "nt" else "oxport")
    assert command.is_file(), f"pip installed no oxport command into {scripts}"
    runner = os.environ.get("OXPORT_TEST_RUNNER")
    return [runner, sys.executable, str(command)] if runner else [str(command)]


def test_command_line_tool(tmp_path: Path) -> None:
    # The command the wheel installs is the tool: its version, a job, and
    # its exit statuses (0 done, 1 failed, 2 a command line it refuses).
    run = subprocess.run([*tool(), "--version"], capture_output=True, text=True)
    assert run.returncode == 0, run.stderr
    assert run.stdout.splitlines()[0] == f"oxport {oxport.__version__}"
    assert any(line.startswith(("+isal", "-isal")) for line in run.stdout.splitlines())
    data = os.urandom(50_000) + b"oxport " * 100_000
    (tmp_path / "data.bin").write_bytes(data)
    run = subprocess.run([*tool(), "zst", "pack", str(tmp_path / "data.bin"), str(tmp_path / "data.zst")],
                         capture_output=True, text=True)
    assert run.returncode == 0, run.stderr
    with oxport.seekable.open(tmp_path / "data.zst") as f:
        assert f.read() == data
    run = subprocess.run([*tool(), "zst", "unpack", str(tmp_path / "missing.zst"), str(tmp_path / "out")],
                         capture_output=True, text=True)
    assert run.returncode == 1 and run.stderr.startswith("oxport: ") and "missing.zst" in run.stderr, run.stderr
    run = subprocess.run([*tool(), "zst", "nonsense"], capture_output=True, text=True)
    assert run.returncode == 2 and "nonsense" in run.stderr, run.stderr


def dwa_channels(height: int, width: int) -> dict[str, np.ndarray]:
    """An R, G, B triple (a Y'CbCr block through the DCT both ways), a Y
    alone, and A by runs: every lossy path of DWA."""
    rng = np.random.default_rng(height * width)
    y, x = np.mgrid[0:height, 0:width]
    smooth = np.sin(x / 6.0) * np.cos(y / 4.0) + 1.5
    return {
        "R": (smooth + rng.normal(0, 0.05, smooth.shape)).astype(np.float16),
        "G": (smooth * 0.6 + rng.normal(0, 0.2, smooth.shape)).astype(np.float16),
        "B": (np.abs(rng.normal(0, 20, smooth.shape))).astype(np.float16),
        "Y": (smooth ** 3 * 4).astype(np.float16),
        "A": np.where(x > width // 3, 1.0, 0.25).astype(np.float16),
    }


@pytest.mark.parametrize("method", ["dwaa", "dwab"])
def test_exr_dwa_is_openexrs(tmp_path: Path, method: str) -> None:
    # DWA's DCT and colour transforms round as the OpenEXR library built for
    # this platform rounds them (on aarch64, with fused multiply-adds):
    # the pixels it decodes and the bytes it writes are the package's.
    OpenEXR = pytest.importorskip("OpenEXR", reason="the openexr package is the reference")
    for shape in [(41, 67), (8, 8), (203, 9)]:
        channels = dwa_channels(*shape)
        theirs = tmp_path / "theirs.exr"
        compression = getattr(OpenEXR, f"{method.upper()}_COMPRESSION")
        with OpenEXR.File({"compression": compression, "type": OpenEXR.scanlineimage}, dict(channels)) as f:
            f.write(str(theirs))
        with OpenEXR.File(str(theirs), separate_channels=True) as f:
            decoded = {name: c.pixels.copy() for name, c in f.parts[0].channels.items()}
        _, read = oxport.exr.read(theirs)
        assert sorted(read) == sorted(decoded)
        for name, plane in decoded.items():
            assert read[name].view(np.uint16).tobytes() == plane.view(np.uint16).tobytes(), (shape, name)
        ours = tmp_path / "ours.exr"
        oxport.exr.write(ours, channels, compression=method)  # type: ignore[arg-type]
        assert ours.read_bytes() == theirs.read_bytes(), shape
