"""HTJ2K (OpenEXR 3.4's lossless High-Throughput JPEG 2000) against the
``openexr`` package (3.5, whose wheels carry OpenJPH): files it writes with
HTJ2K256 and HTJ2K32 read to the pixels it reads, bit for bit — OpenEXR's
sample images and a second set of real files (the HDR studio lights Blender
ships, in the ``bpy`` package the Blender tests install), re-encoded by the
package, and images made to reach every path of the decoder: every pixel
type over its whole range of bits, odd sizes down to a single pixel, row
and column, R, G and B under the color transform (also as red/green/blue
and in layers), tiles and several parts.

Written: the same images written by oxport read back in the package to the
pixels written, and their chunks are the bytes of the package's own (but
for the codestream's comment, which names the encoder); tiles with mipmap
levels in test_exr_write_layouts.py."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from oxport import exr

from exrcompare import same, theirs

OpenEXR = pytest.importorskip("OpenEXR")

ROOT = Path(__file__).resolve().parents[2]
IMAGES = ROOT / "crates/oxport/tests/data/valid/openexr-images"
SAMPLES = sorted(p for p in IMAGES.glob("*.exr") if "deep" not in p.name)
METHODS = {"htj2k256": OpenEXR.HTJ2K256_COMPRESSION, "htj2k32": OpenEXR.HTJ2K32_COMPRESSION}


def studio_lights() -> list[Path]:
    """The studio lights of the newest Blender package the tests installed
    (``.venv-bpy50``, ``.venv-bpy45``): HDR EXR files of Blender's artists."""
    for venv in (".venv-bpy50", ".venv-bpy45"):
        found = sorted((ROOT / venv).glob("lib/python*/site-packages/bpy/*/datafiles/studiolights/world/*.exr"))
        if found:
            return found
    return []


LIGHTS = studio_lights()


def reencode(source: Path, target: Path, method: str) -> None:
    """`source` written again by the package, every part with `method`
    (tiled parts with their first level alone: the package reads and writes
    no other)."""
    parts = []
    with OpenEXR.File(str(source), separate_channels=True) as f:
        for part in f.parts:
            header = dict(part.header)
            header["compression"] = METHODS[method]
            tiles = header.get("tiles")
            if tiles is not None:
                header["tiles"] = one_level(tiles.xSize, tiles.ySize)
            (x0, y0), (x1, y1) = header["dataWindow"]
            shape = (int(y1 - y0 + 1), int(x1 - x0 + 1))
            channels = {}
            for name, channel in part.channels.items():
                # The package takes a subsampled channel at the image's shape,
                # its samples from the start of the buffer.
                full = np.zeros(shape, channel.pixels.dtype)
                full.ravel()[: channel.pixels.size] = channel.pixels.ravel()
                channels[name] = OpenEXR.Channel(full, channel.xSampling, channel.ySampling)
            parts.append(OpenEXR.Part(header, channels, name=str(header.get("name", ""))))
    with OpenEXR.File(parts) as f:
        f.write(str(target))


def one_level(width: int, height: int) -> object:
    tiles = OpenEXR.TileDescription()
    tiles.xSize, tiles.ySize, tiles.mode, tiles.roundingMode = width, height, OpenEXR.ONE_LEVEL, OpenEXR.ROUND_DOWN
    return tiles


def reads_as_the_package(path: Path) -> None:
    expected = theirs(path)
    with exr.open(path) as f:
        assert len(f.parts) == len(expected)
        for part, pixels in zip(f.parts, expected):
            for threads in (1, 2):
                same(f.read(part.index, threads=threads), pixels)


@pytest.mark.parametrize("method", METHODS)
@pytest.mark.parametrize("path", SAMPLES, ids=lambda p: p.name)
def test_openexrs_samples_reencoded_read_to_the_packages_pixels(tmp_path: Path, path: Path, method: str) -> None:
    target = tmp_path / path.name
    reencode(path, target, method)
    assert exr.read_header(target)["compression"] == method
    reads_as_the_package(target)


def test_the_studio_lights_are_here() -> None:
    if not LIGHTS:
        pytest.skip("no bpy package in .venv-bpy50 or .venv-bpy45 (make bpy-venvs installs them)")
    assert len(LIGHTS) >= 5, LIGHTS


@pytest.mark.parametrize("method", METHODS)
@pytest.mark.parametrize("source", LIGHTS, ids=lambda p: p.name)
def test_blenders_studio_lights_reencoded_read_to_the_packages_pixels(tmp_path: Path, source: Path, method: str) -> None:
    target = tmp_path / source.name
    reencode(source, target, method)
    reads_as_the_package(target)


def write(path: Path, channels: dict[str, np.ndarray], method: str, tiles: tuple[int, int] | None = None) -> None:
    header: dict[str, object] = {"compression": METHODS[method]}
    if tiles is None:
        header["type"] = OpenEXR.scanlineimage
    else:
        header["type"] = OpenEXR.tiledimage
        header["tiles"] = one_level(*tiles)
    with OpenEXR.File(header, dict(channels)) as f:
        f.write(str(path))


def every_bit(rng: np.random.Generator, shape: tuple[int, int]) -> dict[str, np.ndarray]:
    """Half, float and uint channels of random bits (NaN payloads, infinities,
    signed zeros, the largest magnitudes), and R, G, B halves of random bits
    that go through the color transform."""
    return {
        "R": rng.integers(0, 2**16, shape, dtype=np.uint16).view(np.float16),
        "G": rng.integers(0, 2**16, shape, dtype=np.uint16).view(np.float16),
        "B": rng.integers(0, 2**16, shape, dtype=np.uint16).view(np.float16),
        "Z": rng.integers(0, 2**32, shape, dtype=np.uint32).view(np.float32),
        "id": rng.integers(0, 2**32, shape, dtype=np.uint32),
    }


def smooth(shape: tuple[int, int], names: str = "RGB") -> dict[str, np.ndarray]:
    """A smooth image, as a renderer makes, in half and float."""
    yy, xx = np.mgrid[0 : shape[0], 0 : shape[1]]
    base = np.sin(xx / 13.0) * np.cos(yy / 9.0)
    out: dict[str, np.ndarray] = {}
    for i, name in enumerate(names.split(",") if "," in names else names):
        out[name] = (base * (i + 1) + 0.25 * i).astype(np.float16)
    out["depth"] = (base * 1e3 - 50).astype(np.float32)
    return out


SIZES = [(1, 1), (1, 300), (300, 1), (2, 2), (37, 53), (33, 129), (31, 127), (256, 160), (300, 517)]


@pytest.mark.parametrize("method", METHODS)
@pytest.mark.parametrize("shape", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
def test_every_pixel_type_and_size_reads_to_the_packages_pixels(tmp_path: Path, shape: tuple[int, int], method: str) -> None:
    rng = np.random.default_rng(shape[0] * 1000 + shape[1])
    for name, channels in {"bits": every_bit(rng, shape), "smooth": smooth(shape)}.items():
        path = tmp_path / f"{name}.exr"
        write(path, channels, method)
        header, pixels = exr.read(path)
        assert header["compression"] == method
        same(pixels, theirs(path)[0])
        for channel, values in channels.items():
            assert pixels[channel].tobytes() == values.tobytes(), (name, channel)


@pytest.mark.parametrize("names", ["red,green,blue", "left.R,left.G,left.B", "B,G,R,A", "R,G", "Y,RY,BY"])
def test_channel_names_that_do_and_do_not_take_the_color_transform(tmp_path: Path, names: str) -> None:
    shape = (70, 90)
    channels = smooth(shape, names)
    path = tmp_path / "names.exr"
    write(path, channels, "htj2k256")
    pixels = exr.read(path)[1]
    same(pixels, theirs(path)[0])
    for channel, values in channels.items():
        assert pixels[channel].tobytes() == values.tobytes(), channel


@pytest.mark.parametrize("method", METHODS)
@pytest.mark.parametrize("tiles", [(64, 64), (32, 16), (300, 300), (17, 5)])
def test_tiled_parts_read_to_the_packages_pixels(tmp_path: Path, tiles: tuple[int, int], method: str) -> None:
    rng = np.random.default_rng(tiles[0])
    shape = (150, 203)
    channels = {**smooth(shape), "id": rng.integers(0, 2**32, shape, dtype=np.uint32)}
    path = tmp_path / "tiled.exr"
    write(path, channels, method, tiles)
    with exr.open(path) as f:
        assert f.parts[0].type == "tiledimage"
    pixels = exr.read(path)[1]
    same(pixels, theirs(path)[0])
    for channel, values in channels.items():
        assert pixels[channel].tobytes() == values.tobytes(), channel


def test_parts_of_both_methods_in_one_file(tmp_path: Path) -> None:
    shape = (90, 61)
    parts = []
    for i, method in enumerate(METHODS.values()):
        header = {"compression": method, "type": OpenEXR.scanlineimage, "name": f"part{i}"}
        parts.append(OpenEXR.Part(header, smooth(shape), name=f"part{i}"))
    path = tmp_path / "parts.exr"
    with OpenEXR.File(parts) as f:
        f.write(str(path))
    reads_as_the_package(path)


def test_a_damaged_chunk_is_corrupt(tmp_path: Path) -> None:
    import oxport

    path = tmp_path / "t.exr"
    write(path, smooth((64, 64)), "htj2k32")
    data = bytearray(path.read_bytes())
    good = exr.read(path)[1]
    # Bytes of the last chunks changed, one at a time: pixels or an error
    # (corrupt, or a marker turned into one oxport does not read), never a
    # crash or another exception.
    start = len(data) - 2 * 1024
    for at in range(max(start, 400), len(data), 7):
        damaged = bytearray(data)
        damaged[at] ^= 0x5A
        path.write_bytes(bytes(damaged))
        try:
            exr.read(path)
        except (oxport.CorruptError, oxport.UnsupportedError):
            pass
    path.write_bytes(bytes(data))
    same(exr.read(path)[1], good)


def ht_chunks(path: Path) -> list[bytes]:
    """The HTJ2K chunks of `path` in file order, each without its
    codestream's comment segment: found by OpenEXR's chunk header (the
    magic ``HT``, a channel map's length, the codestream's SOC marker) after
    the chunk's size."""
    data = path.read_bytes()
    chunks = []
    at = data.find(b"HT", 8)
    while at != -1:
        size = int.from_bytes(data[at - 4 : at], "little")
        payload = int.from_bytes(data[at + 2 : at + 6], "big")
        count = int.from_bytes(data[at + 6 : at + 8], "big")
        start = at + 6 + payload
        if payload == 2 + 2 * count and at + size <= len(data) and data[start : start + 2] == b"\xff\x4f":
            chunk = data[at : at + size]
            chunks.append(without_comment(chunk, start - at))
            at = data.find(b"HT", at + size)
        else:
            at = data.find(b"HT", at + 1)
    return chunks


def without_comment(chunk: bytes, soc: int) -> bytes:
    """`chunk` without the COM segment of its codestream's main header."""
    at = soc + 2
    while chunk[at : at + 2] != b"\xff\x90":
        length = int.from_bytes(chunk[at + 2 : at + 4], "big")
        if chunk[at : at + 2] == b"\xff\x64":
            return chunk[:at] + chunk[at + 2 + length :]
        at += 2 + length
    return chunk


def same_chunks(ours: Path, theirs_path: Path, coded: bool = True) -> None:
    """The HTJ2K chunks of both files are the same bytes; with `coded`, there
    is one at least (random bits are stored raw by both)."""
    mine, package = ht_chunks(ours), ht_chunks(theirs_path)
    assert len(mine) == len(package)
    assert len(mine) > 0 or not coded
    for n, (a, b) in enumerate(zip(mine, package)):
        assert a == b, f"chunk {n}: {len(a)} bytes against the package's {len(b)}"


@pytest.mark.parametrize("method", METHODS)
@pytest.mark.parametrize("shape", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
def test_what_oxport_writes_the_package_reads_and_its_chunks_are_the_packages(
        tmp_path: Path, shape: tuple[int, int], method: str) -> None:
    rng = np.random.default_rng(shape[0] * 1000 + shape[1] + 7)
    for name, channels in {"bits": every_bit(rng, shape), "smooth": smooth(shape)}.items():
        ours, package = tmp_path / f"{name}.exr", tmp_path / f"{name}_package.exr"
        exr.write(ours, channels, compression=method)  # type: ignore[arg-type]
        with OpenEXR.File(str(ours), separate_channels=True) as f:
            assert f.header()["compression"] == METHODS[method]
            for channel, values in channels.items():
                assert f.channels()[channel].pixels.tobytes() == values.tobytes(), (name, channel)
        write(package, channels, method)
        same_chunks(ours, package, coded=name == "smooth" and min(shape) > 1 and shape[0] * shape[1] > 64)


@pytest.mark.parametrize("method", METHODS)
@pytest.mark.parametrize("path", SAMPLES + LIGHTS, ids=lambda p: p.name)
def test_real_files_rewritten_by_oxport_are_the_packages_bytes(tmp_path: Path, path: Path, method: str) -> None:
    package, ours = tmp_path / "package.exr", tmp_path / "ours.exr"
    reencode(path, package, method)
    exr.convert(package, ours, compression=method)  # type: ignore[arg-type]
    expected = theirs(package)
    got = theirs(ours)
    assert len(got) == len(expected)
    for a, b in zip(got, expected):
        same(a, b)
    same_chunks(ours, package)
