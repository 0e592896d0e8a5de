"""oxport.exr against the OpenEXR library (the ``openexr`` package, 3.5):
byte-identical files for every compression oxport writes, pixels and
attributes read both ways, damaged files refused with clear errors."""

from __future__ import annotations

import re
from fractions import Fraction
from pathlib import Path
from typing import Any

import numpy as np
import pytest

import oxport
from oxport import exr

OpenEXR = pytest.importorskip("OpenEXR")

METHODS = {
    "none": OpenEXR.NO_COMPRESSION,
    "rle": OpenEXR.RLE_COMPRESSION,
    "zips": OpenEXR.ZIPS_COMPRESSION,
    "zip": OpenEXR.ZIP_COMPRESSION,
    "zstd": OpenEXR.ZSTD_COMPRESSION,
    "piz": OpenEXR.PIZ_COMPRESSION,
}


def image(height: int, width: int, seed: int = 1) -> dict[str, np.ndarray]:
    """Render-like channels of every pixel type: smooth ramps with noise, a
    constant, integer ids, names as Blender's multilayer files have them."""
    rng = np.random.default_rng(seed)
    ramp = np.linspace(0.0, 4.0, height * width).reshape(height, width)
    return {
        "R": (ramp + rng.normal(0, 0.01, ramp.shape)).astype(np.float16),
        "G": ramp.astype(np.float16),
        "B": np.full(ramp.shape, 0.5, np.float16),
        "Z": (ramp * 3 + rng.normal(0, 1e-3, ramp.shape)).astype(np.float32),
        "ViewLayer.Combined.A": np.ones(ramp.shape, np.float32),
        "ViewLayer.CryptoObject.id": (np.arange(height * width).reshape(ramp.shape) // 7).astype(np.uint32),
    }


def openexr_write(path: Path, channels: dict[str, np.ndarray], method: str, header: dict[str, Any] | None = None) -> None:
    codes = METHODS
    full = {"compression": codes[method], "type": OpenEXR.scanlineimage, **(header or {})}
    with OpenEXR.File(full, dict(channels)) as f:
        f.write(str(path))


def openexr_read(path: Path) -> tuple[dict[str, Any], dict[str, np.ndarray]]:
    with OpenEXR.File(str(path), separate_channels=True) as f:
        return dict(f.header()), {name: c.pixels.copy() for name, c in f.channels().items()}


def same_pixels(a: dict[str, np.ndarray], b: dict[str, np.ndarray]) -> None:
    assert sorted(a) == sorted(b)
    for name in a:
        assert a[name].dtype == b[name].dtype, name
        assert a[name].shape == b[name].shape, name
        # Bits, not values: NaN payloads and signed zeros must survive.
        assert a[name].tobytes() == b[name].tobytes(), name


def same_header(ours: dict[str, Any], theirs: dict[str, Any]) -> None:
    """The same attributes and values; the openexr package adds ``type``
    (scanlineimage) to the header it reports when the file has none."""
    theirs = {k: v for k, v in theirs.items() if k != "type" or "type" in ours}
    assert {k: plain(v) for k, v in ours.items()} == {k: plain(v) for k, v in theirs.items()}


def plain(value: Any) -> Any:
    """A header value from either library as plain Python, to compare."""
    if isinstance(value, exr.Channel):
        return (value.name, value.x_sampling, value.y_sampling, value.linear)
    if isinstance(value, OpenEXR.Channel):
        return (value.name, value.xSampling, value.ySampling, value.pLinear)
    if isinstance(value, np.ndarray):
        return (str(value.dtype), value.tolist())
    if isinstance(value, (list, tuple)):
        return [plain(v) for v in value]
    if hasattr(value, "name") and type(value).__module__ == "OpenEXR":
        name = value.name.lower()
        if name.endswith("_compression"):
            return {"no": "none"}.get(name.removesuffix("_compression"), name.removesuffix("_compression"))
        return name
    return value


@pytest.mark.parametrize("method", METHODS)
@pytest.mark.parametrize("shape", [(1, 1), (37, 53), (100, 17)])
def test_files_are_byte_identical_to_openexr_and_read_both_ways(tmp_path: Path, method: str, shape: tuple[int, int]) -> None:
    channels = image(*shape)
    theirs, ours = tmp_path / "openexr.exr", tmp_path / "oxport.exr"
    openexr_write(theirs, channels, method)
    exr.write(ours, channels, compression=method)  # type: ignore[arg-type]
    assert ours.read_bytes() == theirs.read_bytes()
    header, pixels = exr.read(theirs)
    same_pixels(pixels, channels)
    their_header, their_pixels = openexr_read(ours)
    same_pixels(their_pixels, channels)
    assert header["compression"] == method
    same_header(header, their_header)


@pytest.mark.parametrize("method", ["zip", "zips", "zstd"])
def test_levels_other_than_openexrs_are_read_by_openexr(tmp_path: Path, method: str) -> None:
    channels = image(40, 30)
    for level in ([0, 1, 9, 12] if method != "zstd" else [-5, 1, 19]):
        path = tmp_path / f"{level}.exr"
        exr.write(path, channels, compression=method, level=level)  # type: ignore[arg-type]
        same_pixels(openexr_read(path)[1], channels)


def test_every_attribute_type_is_kept_both_ways(tmp_path: Path) -> None:
    header = {
        "box2i": (np.array([-3, 4], np.int32), np.array([10, 20], np.int32)),
        "box2f": (np.array([0.5, 1.5], np.float32), np.array([2.5, 3.5], np.float32)),
        "chromaticities": (0.64, 0.33, 0.3, 0.6, 0.15, 0.06, 0.3127, 0.329),
        "double": np.array([1.0 / 3.0], np.float64),
        "float": 0.25,
        "floatvector": [1.0, 2.5, -3.0],
        "int": -7,
        "m33f": np.arange(9, dtype=np.float32).reshape(3, 3),
        "m33d": np.arange(9, dtype=np.float64).reshape(3, 3) / 7,
        "m44f": np.arange(16, dtype=np.float32).reshape(4, 4),
        "m44d": np.arange(16, dtype=np.float64).reshape(4, 4) / 3,
        "rational": Fraction(24000, 1001),
        "owner": "oxport ünïcode",
        "stringvector": ["left", "right", ""],
        "v2i": np.array([1, 2], np.int32),
        "v2f": np.array([1.5, 2.5], np.float32),
        "v2d": np.array([1 / 3, 2 / 3], np.float64),
        "v3i": np.array([1, 2, 3], np.int32),
        "v3f": np.array([1.5, 2.5, 3.5], np.float32),
        "v3d": np.array([1 / 3, 2 / 3, 1.0], np.float64),
        "lineOrder": OpenEXR.DECREASING_Y,
    }
    channels = image(9, 11)
    theirs = tmp_path / "theirs.exr"
    openexr_write(theirs, channels, "zip", header)
    ours_header, pixels = exr.read(theirs)
    same_pixels(pixels, channels)
    their_header = openexr_read(theirs)[0]
    same_header(ours_header, their_header)
    same_header(exr.read_header(theirs), their_header)
    # Written back by oxport from its own reading: the same bytes, read the same by OpenEXR.
    ours = tmp_path / "ours.exr"
    exr.write(ours, pixels, header=ours_header, compression="zip")
    assert ours.read_bytes() == theirs.read_bytes()
    # And from the openexr package's own header dict.
    again = tmp_path / "again.exr"
    exr.write(again, pixels, header=their_header, compression="zip")
    assert again.read_bytes() == theirs.read_bytes()


def test_types_without_a_python_shape_come_as_attributes(tmp_path: Path) -> None:
    channels = {"Y": np.zeros((2, 2), np.float32)}
    extra = {
        "keyCode": exr.Attribute("keycode", (12, 34, 567890, 1234, 5, 4, 64)),
        "timeCode": exr.Attribute("timecode", (0x01020304, 5)),
        "envmap": exr.Attribute("envmap", 1),
        "custom": exr.Attribute("myStudioType", b"\x00\x01opaque"),
        "preview": exr.Attribute("preview", (2, 1, bytes(range(8)))),
    }
    path = tmp_path / "t.exr"
    exr.write(path, channels, header=extra, compression="none")
    header, _ = exr.read(path)
    for name, attribute in extra.items():
        assert header[name] == attribute
    their_header, pixels = openexr_read(path)
    same_pixels(pixels, channels)
    assert their_header["envmap"] == OpenEXR.ENVMAP_CUBE
    assert their_header["custom"].data == b"\x00\x01opaque"


def test_blender_style_names_and_linear_flags(tmp_path: Path) -> None:
    name = "ViewLayer.Denoising Albedo.A_with_a_name_longer_than_31_bytes"
    channels = {name: np.ones((3, 4), np.float16)}
    path = tmp_path / "long.exr"
    exr.write(path, channels, header={"channels": [exr.Channel(name, "half", linear=True)]})
    header, pixels = exr.read(path)
    assert header["channels"] == [exr.Channel(name, "half", linear=True)]
    same_pixels(openexr_read(path)[1], channels)


def test_threads_change_nothing_and_zero_is_an_error(tmp_path: Path) -> None:
    channels = image(300, 64)
    one, every = tmp_path / "1.exr", tmp_path / "n.exr"
    exr.write(one, channels, compression="zip", threads=1)
    exr.write(every, channels, compression="zip")
    assert one.read_bytes() == every.read_bytes()
    same_pixels(exr.read(every, threads=1)[1], channels)
    with pytest.raises(ValueError, match="threads"):
        exr.read(every, threads=0)
    with pytest.raises(ValueError, match="threads"):
        exr.write(one, channels, threads=0)


def test_a_broken_offset_table_is_rebuilt(tmp_path: Path) -> None:
    channels = image(50, 20)
    path = tmp_path / "t.exr"
    exr.write(path, channels, compression="zip")
    data = bytearray(path.read_bytes())
    header_end = data.index(b"scanlineimage") + len(b"scanlineimage") + 1
    chunks = -(-50 // 16)
    data[header_end:header_end + 8 * chunks] = bytes(8 * chunks)
    path.write_bytes(bytes(data))
    same_pixels(exr.read(path)[1], channels)


def test_damaged_files_are_refused_with_clear_errors(tmp_path: Path) -> None:
    channels = image(40, 30)
    for method in METHODS:
        path = tmp_path / f"{method}.exr"
        exr.write(path, channels, compression=method)  # type: ignore[arg-type]
        data = path.read_bytes()
        cut = tmp_path / "cut.exr"
        for length in range(0, len(data), max(1, len(data) // 97)):
            cut.write_bytes(data[:length])
            with pytest.raises(oxport.CorruptError):
                exr.read(cut)
        # One flipped bit: refused with a CorruptError that says where (or an
        # UnsupportedError naming what), or read as an image of as many
        # channels of the same shapes (a flip in the pixels, a name or an
        # attribute's value); never another exception.
        rng = np.random.default_rng(7)
        refused = 0
        for _ in range(200):
            damaged = bytearray(data)
            damaged[int(rng.integers(len(data)))] ^= 1 << int(rng.integers(8))
            cut.write_bytes(bytes(damaged))
            try:
                _, pixels = exr.read(cut)
            except oxport.CorruptError as error:
                # The file, then what is wrong and where.
                assert re.match(re.escape(str(cut)) + r": corrupt input( at byte \d+)?: \S", str(error)), error
                refused += 1
                continue
            except oxport.UnsupportedError as error:
                assert str(error).startswith("unsupported: "), error
                refused += 1
                continue
            assert sorted(p.shape for p in pixels.values()) == sorted(p.shape for p in channels.values())
        assert refused > 0, f"{method}: none of 200 damaged files refused"
    with pytest.raises(oxport.CorruptError, match="not an OpenEXR file"):
        (tmp_path / "text.exr").write_bytes(b"hello world, not an image")
        exr.read(tmp_path / "text.exr")


@pytest.mark.parametrize("shape", [(1, 1), (37, 53), (100, 17), (33, 200)])
def test_piz_files_from_openexr_are_read_pixel_exact(tmp_path: Path, shape: tuple[int, int]) -> None:
    channels = image(*shape)
    path = tmp_path / "piz.exr"
    openexr_write(path, channels, "piz")
    header, pixels = exr.read(path)
    assert header["compression"] == "piz"
    same_pixels(pixels, channels)


def test_piz_with_values_over_the_whole_16_bit_range(tmp_path: Path) -> None:
    # Values of 2^14 and more take the wavelet's modulo variant; random bits
    # make long Huffman codes.
    rng = np.random.default_rng(3)
    channels = {"R": rng.integers(0, 65535, (50, 70), dtype=np.uint16).view(np.float16),
                "U": rng.integers(0, 2**32 - 1, (50, 70), dtype=np.uint32)}
    path = tmp_path / "piz.exr"
    openexr_write(path, channels, "piz")
    same_pixels(exr.read(path)[1], channels)


def test_what_oxport_does_not_read_is_unsupported(tmp_path: Path) -> None:
    channels = image(8, 8)
    lossy = tmp_path / "lj2k.exr"
    with OpenEXR.File({"compression": OpenEXR.LJ2K_COMPRESSION, "type": OpenEXR.scanlineimage}, channels) as f:
        f.write(str(lossy))
    with pytest.raises(oxport.UnsupportedError, match="lj2k compression .*lossy HTJ2K.*bit for bit"):
        exr.read(lossy)
    # The header is still there to see.
    assert exr.read_header(lossy)["compression"] == "lj2k"


def test_bad_arguments_are_errors_naming_them(tmp_path: Path) -> None:
    path = tmp_path / "t.exr"
    with pytest.raises(TypeError, match="float16, float32 or uint32"):
        exr.write(path, {"R": np.zeros((2, 2), np.float64)})
    with pytest.raises(ValueError, match="same shape"):
        exr.write(path, {"R": np.zeros((2, 2), np.float32), "G": np.zeros((2, 3), np.float32)})
    with pytest.raises(ValueError, match="unknown compression"):
        exr.write(path, {"R": np.zeros((2, 2), np.float32)}, compression="lzma")  # type: ignore[arg-type]
    with pytest.raises(oxport.UnsupportedError, match="writing lj2k"):
        exr.write(path, {"R": np.zeros((2, 2), np.float32)}, compression="lj2k")  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="level"):
        exr.write(path, {"R": np.zeros((2, 2), np.float32)}, compression="zip", level=13)
    with pytest.raises(TypeError, match="no OpenEXR type"):
        exr.write(path, {"R": np.zeros((2, 2), np.float32)}, header={"odd": object()})
    assert not path.exists()


def test_convert_recompresses_in_place_with_pixels_unchanged(tmp_path: Path) -> None:
    channels = image(64, 48)
    path = tmp_path / "t.exr"
    openexr_write(path, channels, "zip", {"owner": "studio"})
    before = path.stat().st_size
    sizes = exr.convert(path, path, compression="zstd")
    assert sizes == (before, path.stat().st_size)
    header, pixels = openexr_read(path)
    same_pixels(pixels, channels)
    assert header["owner"] == "studio"
    assert header["compression"] == OpenEXR.ZSTD_COMPRESSION
