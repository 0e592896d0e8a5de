"""Files oxport.exr writes in every layout (tiled with mipmap and ripmap
levels, multi-part, deep scan-line and deep tiled parts), read by the
``openexr`` package (3.5) and, for levels past the first, by OpenImageIO, to
the pixels written; and the levels oxport makes, against those OpenEXR's
``exrmaketiled`` makes from the same image."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import numpy as np
import pytest

from oxport import exr

from exrcompare import same, same_deep, theirs

OpenEXR = pytest.importorskip("OpenEXR")


def exrmaketiled() -> str:
    tool = shutil.which("exrmaketiled")
    if tool is None:
        pytest.skip("exrmaketiled is not installed (apt-get install openexr)")
    return tool


def image(height: int, width: int, seed: int = 1) -> dict[str, np.ndarray]:
    """Smooth values with noise, a stripe of large ones and a zero corner,
    in each pixel type."""
    rng = np.random.default_rng(seed)
    y, x = np.mgrid[0:height, 0:width]
    base = np.sin(x / 5.0) * np.cos(y / 7.0) * 4 + rng.normal(0, 0.3, (height, width))
    base[:, width // 3] = 6.0e4
    base[:2, :2] = 0.0
    return {
        "A": base.astype(np.float32),
        "B": base.astype(np.float16),
        "G": (base * 1.0e30).astype(np.float32),
        "ID": rng.integers(0, 2**32, (height, width), dtype=np.uint32),
    }


def all_levels(path: Path, part: int = 0) -> dict[tuple[int, int], dict[str, np.ndarray]]:
    with exr.open(path) as f:
        return {(lv.x, lv.y): f.read(part, level=(lv.x, lv.y)) for lv in f.parts[part].levels}


@pytest.mark.parametrize("levels", ["mipmap", "ripmap"])
@pytest.mark.parametrize("rounding", ["down", "up"])
def test_levels_are_those_exrmaketiled_makes(tmp_path: Path, levels: str, rounding: str) -> None:
    tool = exrmaketiled()
    pixels = image(23, 37)
    flat = tmp_path / "flat.exr"
    exr.write(flat, pixels, compression="zip")
    theirs_path = tmp_path / "theirs.exr"
    subprocess.run([tool, "-m" if levels == "mipmap" else "-r", "-d" if rounding == "down" else "-u",
                    "-t", "8", "4", "-z", "zip", str(flat), str(theirs_path)], check=True,
                   capture_output=True)
    ours_path = tmp_path / "ours.exr"
    exr.write(ours_path, pixels, tiles=(8, 4), levels=levels, rounding=rounding)  # type: ignore[arg-type]
    expected = all_levels(theirs_path)
    got = all_levels(ours_path)
    assert list(got) == list(expected)
    assert len(got) > 4
    for key in expected:
        same(got[key], expected[key])


@pytest.mark.parametrize("levels", ["one", "mipmap", "ripmap"])
@pytest.mark.parametrize("compression", ["none", "rle", "zips", "zip", "piz", "pxr24", "zstd", "htj2k256", "htj2k32"])
def test_tiled_files_read_back_by_openexr_and_openimageio(tmp_path: Path, levels: str, compression: str) -> None:
    oiio = pytest.importorskip("OpenImageIO")
    pixels = {k: v for k, v in image(19, 30, seed=3).items() if k != "G"}
    if compression == "pxr24":
        pixels["A"] = (pixels["A"].view(np.uint32) & 0xFFFFFF00).view(np.float32)
    # The caller's own levels: each level's values are its number.
    path = tmp_path / "tiled.exr"
    exr.write(path, pixels, tiles=(7, 5), levels=levels, compression=compression)  # type: ignore[arg-type]
    expected_levels = all_levels(path)
    same(theirs(path)[0], pixels)
    with OpenEXR.File(str(path)) as f:
        tiles = f.header()["tiles"]
        assert (tiles.xSize, tiles.ySize) == (7, 5)
        assert f.header()["type"] == OpenEXR.tiledimage
    if levels != "ripmap":
        # OpenImageIO reads mipmap levels as subimages' miplevels.
        reader = oiio.ImageInput.open(str(path))
        try:
            for n, key in enumerate(expected_levels):
                assert reader.seek_subimage(0, n)
                for i, name in enumerate(reader.spec().channelnames):
                    # One channel at a time, each in its own type.
                    read = reader.read_image(0, n, i, i + 1, reader.spec().channelformat(i))
                    assert read.tobytes() == expected_levels[key][name].tobytes(), (key, name)
        finally:
            reader.close()


def test_levels_given_by_the_caller_are_written_as_given(tmp_path: Path) -> None:
    with exr.open(_mip_template(tmp_path)) as f:
        shapes = [(lv.height, lv.width) for lv in f.parts[0].levels]
    given = {"Y": [np.full(shape, n, np.float32) for n, shape in enumerate(shapes)]}
    path = tmp_path / "given.exr"
    exr.write(path, given, tiles=(4, 4), levels="mipmap")
    for n, (key, planes) in enumerate(all_levels(path).items()):
        assert key == (n, n)
        assert (planes["Y"] == n).all()
    # The wrong number of levels, or the wrong size, is refused.
    with pytest.raises(ValueError, match="levels"):
        exr.write(path, {"Y": given["Y"][:2]}, tiles=(4, 4), levels="mipmap")
    wrong = list(given["Y"])
    wrong[1] = np.zeros((3, 3), np.float32)
    with pytest.raises(ValueError, match=r"level \(1, 1\)"):
        exr.write(path, {"Y": wrong}, tiles=(4, 4), levels="mipmap")
    with pytest.raises(ValueError, match="tiles"):
        exr.write(path, {"Y": given["Y"][0]}, levels="mipmap")


def _mip_template(tmp_path: Path) -> Path:
    path = tmp_path / "template.exr"
    exr.write(path, {"Y": np.zeros((20, 13), np.float32)}, tiles=(4, 4), levels="mipmap")
    return path


def deep_pixels(height: int, width: int, seed: int) -> exr.DeepPixels:
    rng = np.random.default_rng(seed)
    counts = rng.integers(0, 4, (height, width)).astype(np.uint32)
    counts[0, :3] = 0
    total = int(counts.sum())
    return exr.DeepPixels(counts, {
        "A": rng.random(total).astype(np.float16),
        "Z": rng.random(total).astype(np.float32) * 100,
        "id": rng.integers(0, 2**32, total, dtype=np.uint32),
    })


def test_a_multipart_file_of_every_layout_reads_in_openexr(tmp_path: Path) -> None:
    left, right = image(21, 34, seed=4), image(21, 34, seed=5)
    deep_scan, deep_tiles = deep_pixels(9, 11, 6), deep_pixels(10, 7, 7)
    parts = [
        exr.OutputPart(left, name="rgba.left", header={"view": "left"}, compression="zip"),
        exr.OutputPart(right, name="rgba.right", header={"view": "right"}, compression="zstd",
                       tiles=(16, 8)),
        exr.OutputPart({"Y": left["A"]}, name="texture", compression="rle", tiles=(8, 8), levels="mipmap"),
        exr.OutputPart(deep_scan, name="deep", compression="zips"),
        exr.OutputPart(deep_tiles, name="deep.tiles", compression="rle", tiles=(4, 3)),
        exr.OutputPart(deep_pixels(5, 6, 8), name="deep.none", compression="none"),
    ]
    path = tmp_path / "multi.exr"
    exr.write_parts(path, parts, threads=2)
    read = theirs(path)
    assert len(read) == len(parts)
    same(read[0], left)
    same(read[1], right)
    same(read[2], {"Y": left["A"]})
    same_deep(deep_scan, read[3])
    same_deep(deep_tiles, read[4])
    with OpenEXR.File(str(path)) as f:
        names = [p.header["name"] for p in f.parts]
        assert names == [p.name for p in parts]
        assert f.parts[0].header["view"] == "left"
        assert f.parts[3].header["type"] == OpenEXR.deepscanline
        assert f.parts[4].header["type"] == OpenEXR.deeptile
    with exr.open(path) as f:
        assert f.views == ["left", "right"]
        assert [p.type for p in f.parts] == ["scanlineimage", "tiledimage", "tiledimage", "deepscanline",
                                             "deeptile", "deepscanline"]
        got = f.read_deep("deep.none")
        assert isinstance(parts[5].channels, exr.DeepPixels)
        assert got.counts.tobytes() == parts[5].channels.counts.tobytes()
    assert isinstance(parts[5].channels, exr.DeepPixels)
    same_deep(parts[5].channels, read[5])


def test_a_single_deep_part_reads_in_openexr(tmp_path: Path) -> None:
    pixels = deep_pixels(13, 17, 9)
    for compression in ("none", "rle", "zips"):
        path = tmp_path / f"deep-{compression}.exr"
        exr.write(path, pixels, compression=compression)  # type: ignore[arg-type]
        same_deep(pixels, theirs(path)[0])
        got = exr.open(path).read_deep()
        assert got.counts.tobytes() == pixels.counts.tobytes()
        for name in pixels.channels:
            assert got.channels[name].tobytes() == pixels.channels[name].tobytes()


def test_bad_parts_are_refused_with_reasons(tmp_path: Path) -> None:
    path = tmp_path / "bad.exr"
    y = {"Y": np.zeros((4, 4), np.float32)}
    with pytest.raises(ValueError, match="needs a name"):
        exr.write_parts(path, [exr.OutputPart(y, name="a"), exr.OutputPart(y)])
    with pytest.raises(ValueError, match="named"):
        exr.write_parts(path, [exr.OutputPart(y, name="a"), exr.OutputPart(y, name="a")])
    with pytest.raises(ValueError, match="at least one part"):
        exr.write_parts(path, [])
    with pytest.raises(ValueError, match="deep parts"):
        exr.write(path, deep_pixels(3, 3, 1), compression="zstd")
    counts = np.ones((2, 2), np.uint32)
    with pytest.raises(ValueError, match="samples"):
        exr.write(path, exr.DeepPixels(counts, {"Z": np.zeros(3, np.float32)}))
    assert not path.exists()
    with pytest.raises(ValueError, match="has 3 levels: give the samples of every one"):
        exr.write(path, deep_pixels(4, 4, 1), tiles=(2, 2), levels="mipmap")


@pytest.mark.parametrize("method", ["b44", "b44a", "pxr24"])
@pytest.mark.parametrize("shape", [(1, 1), (37, 53), (70, 18)])
def test_lossy_methods_write_openexrs_bytes(tmp_path: Path, method: str, shape: tuple[int, int]) -> None:
    """The same file as the openexr package writes from the same image, so
    the same quantized pixels: smooth and noisy HALF channels with flat
    blocks, infinities, NaNs, signed zeros and subnormals, one of them
    ``linear`` (coded through exp(x/8)), and FLOAT and UINT channels."""
    rng = np.random.default_rng(sum(shape))
    height, width = shape
    y, x = np.mgrid[0:height, 0:width]
    smooth = (np.sin(x / 9.0) + np.cos(y / 4.0) * 3).astype(np.float16)
    noisy = rng.normal(0, 100, shape).astype(np.float16)
    special = np.array([np.inf, -np.inf, np.nan, -0.0, 0.0, 6e-8, -6e-8, 65504, -65504], np.float16)
    noisy.ravel()[: min(noisy.size, special.size)] = special[: noisy.size]
    flat = np.full(shape, 0.25, np.float16)
    flat[height // 2:, width // 2:] = -3.0
    linear = np.abs(rng.normal(1, 2, shape)).astype(np.float16)
    channels = {
        "A": flat, "B": noisy, "G": smooth, "L": linear,
        "Z": rng.normal(0, 1e4, shape).astype(np.float32),
        "id": rng.integers(0, 2**32, shape, dtype=np.uint32),
    }
    code = getattr(OpenEXR, f"{method.upper()}_COMPRESSION")
    their_channels = {k: OpenEXR.Channel(v, 1, 1, k == "L") for k, v in channels.items()}
    reference = tmp_path / "theirs.exr"
    with OpenEXR.File({"compression": code, "type": OpenEXR.scanlineimage}, their_channels) as f:
        f.write(str(reference))
    header = {"channels": [exr.Channel("L", "half", linear=True)]}
    ours = tmp_path / "ours.exr"
    exr.write(ours, channels, header=header, compression=method)  # type: ignore[arg-type]
    decoded = theirs(reference)[0]
    same(theirs(ours)[0], decoded)
    same(exr.read(ours)[1], decoded)
    assert ours.read_bytes() == reference.read_bytes()


def dwa_image(shape: tuple[int, int], seed: int) -> tuple[dict[str, np.ndarray], set[str]]:
    """Channels DWA codes every way: an R, G, B triple (HALF) and a layer's
    (FLOAT), Y, BY, RY (one ``linear``), A by runs, others as they are;
    smooth, noisy, flat, huge and special values. Returns the channels and
    the names of the ``linear`` ones."""
    rng = np.random.default_rng(seed)
    height, width = shape
    y, x = np.mgrid[0:height, 0:width]
    smooth = np.sin(x / 7.0) * np.cos(y / 5.0) * 2 + 1
    channels: dict[str, np.ndarray] = {
        "R": (smooth + rng.normal(0, 0.05, shape)).astype(np.float16),
        "G": (smooth * 0.5).astype(np.float16),
        "B": np.abs(rng.normal(0, 30, shape)).astype(np.float16),
        "A": np.where(x > width // 2, 1.0, 0.0).astype(np.float16),
        "layer.R": (smooth * 1000).astype(np.float32),
        "layer.G": rng.normal(0, 1e5, shape).astype(np.float32),
        "layer.B": np.full(shape, 0.18, np.float32),
        "Y": rng.random(shape).astype(np.float16),
        "BY": (rng.random(shape) - 0.5).astype(np.float16),
        "RY": (rng.random(shape) * 4).astype(np.float16),
        "Z": rng.normal(0, 100, shape).astype(np.float32),
        "id": rng.integers(0, 2**32, shape, dtype=np.uint32),
    }
    special = np.array([np.inf, -np.inf, np.nan, -0.0, 6e-8, -6e-8, 65504, -65504, 1e-4], np.float16)
    n = min(channels["B"].size, special.size)
    channels["B"].ravel()[:n] = special[:n]
    return channels, {"BY"}


@pytest.mark.parametrize("method", ["dwaa", "dwab"])
@pytest.mark.parametrize("shape", [(1, 1), (7, 13), (45, 70), (300, 9)])
def test_dwa_files_are_openexrs_bytes(tmp_path: Path, method: str, shape: tuple[int, int]) -> None:
    """Scan-line DWAA and DWAB files oxport writes are the files the
    openexr package writes from the same image, so they decode to the same
    quantized pixels."""
    channels, linear = dwa_image(shape, sum(shape))
    code = getattr(OpenEXR, f"{method.upper()}_COMPRESSION")
    their_channels = {k: OpenEXR.Channel(v, 1, 1, k in linear) for k, v in channels.items()}
    reference = tmp_path / "theirs.exr"
    with OpenEXR.File({"compression": code, "type": OpenEXR.scanlineimage}, their_channels) as f:
        f.write(str(reference))
    header = {"channels": [exr.Channel(name, "half", linear=True) for name in linear]}
    ours = tmp_path / "ours.exr"
    exr.write(ours, channels, header=header, compression=method)  # type: ignore[arg-type]
    decoded = theirs(reference)[0]
    same(theirs(ours)[0], decoded)
    assert ours.read_bytes() == reference.read_bytes()


@pytest.mark.parametrize("method", ["dwaa", "dwab"])
def test_dwa_tiles_decode_to_openexrs_pixels(tmp_path: Path, method: str) -> None:
    """Tiled DWA (DWAA codes a tile's AC coefficients with zlib, as OpenEXR
    does): the package reads oxport's file to the pixels it reads from its
    own."""
    channels, _ = dwa_image((50, 37), 11)
    code = getattr(OpenEXR, f"{method.upper()}_COMPRESSION")
    tile = OpenEXR.TileDescription()
    tile.xSize, tile.ySize, tile.mode, tile.roundingMode = 16, 16, OpenEXR.ONE_LEVEL, OpenEXR.ROUND_DOWN
    reference = tmp_path / "theirs.exr"
    with OpenEXR.File({"compression": code, "type": OpenEXR.tiledimage, "tiles": tile},
                      {k: OpenEXR.Channel(v) for k, v in channels.items()}) as f:
        f.write(str(reference))
    ours = tmp_path / "ours.exr"
    exr.write(ours, channels, tiles=(16, 16), compression=method)  # type: ignore[arg-type]
    same(theirs(ours)[0], theirs(reference)[0])
    same(exr.read(ours)[1], theirs(reference)[0])


def test_a_multipart_file_is_the_packages_bytes(tmp_path: Path) -> None:
    """Scan-line and tiled parts (a stereo pair, a texture): the file the
    openexr package writes from the same parts."""
    left, right = image(20, 33, seed=12), image(20, 33, seed=13)
    tile = OpenEXR.TileDescription()
    tile.xSize, tile.ySize, tile.mode, tile.roundingMode = 16, 8, OpenEXR.ONE_LEVEL, OpenEXR.ROUND_DOWN
    reference = tmp_path / "theirs.exr"
    their_parts = [
        OpenEXR.Part({"compression": OpenEXR.ZIP_COMPRESSION, "type": OpenEXR.scanlineimage, "view": "left"},
                     dict(left), name="rgba.left"),
        OpenEXR.Part({"compression": OpenEXR.PIZ_COMPRESSION, "type": OpenEXR.tiledimage, "tiles": tile,
                      "view": "right"}, dict(right), name="rgba.right"),
    ]
    with OpenEXR.File(their_parts) as f:
        f.write(str(reference))
    ours = tmp_path / "ours.exr"
    exr.write_parts(ours, [
        exr.OutputPart(left, name="rgba.left", header={"view": "left"}, compression="zip"),
        exr.OutputPart(right, name="rgba.right", header={"view": "right"}, compression="piz", tiles=(16, 8)),
    ])
    assert ours.read_bytes() == reference.read_bytes()


def test_subsampled_channels_write_the_packages_bytes(tmp_path: Path) -> None:
    """Luminance/chroma from exr.yc_from_rgb, RY and BY every 2×2 pixels:
    the file the openexr package writes from the same channels."""
    rng = np.random.default_rng(14)
    rgb = [rng.random((10, 16)).astype(np.float16) for _ in range(3)]
    y, ry, by = exr.yc_from_rgb(*rgb)
    assert ry is not None and by is not None
    reference = tmp_path / "theirs.exr"

    def padded(chroma: np.ndarray) -> np.ndarray:
        # The package takes every channel at the image's shape and reads a
        # subsampled one's samples from the start of its buffer, in order.
        full = np.zeros_like(y)
        full.ravel()[:chroma.size] = chroma.ravel()
        return full

    with OpenEXR.File({"compression": OpenEXR.PIZ_COMPRESSION, "type": OpenEXR.scanlineimage},
                      {"Y": OpenEXR.Channel(y), "RY": OpenEXR.Channel(padded(ry), 2, 2),
                       "BY": OpenEXR.Channel(padded(by), 2, 2)}) as f:
        f.write(str(reference))
    same(theirs(reference)[0], {"Y": y, "RY": ry, "BY": by})
    ours = tmp_path / "ours.exr"
    header = {"channels": [exr.Channel(n, "half", x_sampling=2, y_sampling=2) for n in ("RY", "BY")]}
    exr.write(ours, {"Y": y, "RY": ry, "BY": by}, header=header, compression="piz")
    assert ours.read_bytes() == reference.read_bytes()
    same(exr.read(ours)[1], {"Y": y, "RY": ry, "BY": by})
    with pytest.raises(ValueError, match="times its sampling"):
        exr.write(ours, {"Y": y, "RY": ry[:4], "BY": by}, header=header)
