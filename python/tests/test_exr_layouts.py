"""oxport.exr on every layout OpenEXR has: multi-part, tiled with mipmap
levels, subsampled luminance/chroma channels, and the PXR24, B44 and B44A
methods, checked pixel for pixel against the ``openexr`` package (3.5) and,
for the levels past the first (which that package does not read), against
OpenImageIO. Files come from OpenEXR's sample images (kept in the
repository) and from the ``openexr`` package's own writer."""

from __future__ import annotations

import io
from pathlib import Path

import numpy as np
import pytest

import oxport
from oxport import exr

from exrcompare import same, same_deep, theirs

OpenEXR = pytest.importorskip("OpenEXR")

IMAGES = Path(__file__).resolve().parents[2] / "crates/oxport/tests/data/valid/openexr-images"
REAL = sorted(IMAGES.glob("*.exr"))


def test_the_sample_images_are_here() -> None:
    assert len(REAL) == 7, REAL


@pytest.mark.parametrize("path", REAL, ids=lambda p: p.name)
def test_real_files_read_to_the_packages_pixels(path: Path) -> None:
    expected = theirs(path)
    with exr.open(path) as f:
        assert len(f.parts) == len(expected)
        for part, pixels in zip(f.parts, expected):
            for threads in (1, 2):
                if part.type.startswith("deep"):
                    same_deep(f.read_deep(part.index, threads=threads), pixels)
                else:
                    same(f.read(part.index, threads=threads), pixels)


@pytest.mark.parametrize("name", ["ColorCodedLevels.exr", "MirrorPattern.exr"])
def test_every_mipmap_level_reads_as_openimageio_reads_it(name: str) -> None:
    oiio = pytest.importorskip("OpenImageIO")
    path = IMAGES / name
    f = exr.open(path)
    part = f.parts[0]
    assert part.type == "tiledimage" and part.tiles is not None
    levels = part.levels
    width, height = levels[0].width, levels[0].height
    # Mipmap levels halve, rounded down, to 1×1.
    assert [(lv.x, lv.y) for lv in levels] == [(n, n) for n in range(len(levels))]
    assert levels[-1].width == 1 and levels[-1].height == 1
    assert all(lv.width == max(1, width >> lv.x) and lv.height == max(1, height >> lv.y) for lv in levels)
    reader = oiio.ImageInput.open(str(path))
    try:
        for lv in levels:
            assert reader.seek_subimage(0, lv.x)
            pixels = reader.read_image(format="unknown")
            names = reader.spec().channelnames
            ours = f.read(level=lv.x)
            for i, channel in enumerate(names):
                assert ours[channel].shape == (lv.height, lv.width)
                assert ours[channel].tobytes() == np.ascontiguousarray(pixels[..., i]).tobytes(), (lv, channel)
    finally:
        reader.close()
    with pytest.raises(ValueError, match="level"):
        f.read(level=len(levels))


def test_subsampled_channels_have_their_own_resolution() -> None:
    with exr.open(IMAGES / "Rec709_YC.exr") as f:
        part = f.parts[0]
        sampling = {c.name: (c.x_sampling, c.y_sampling) for c in part.channels}
        assert sampling["RY"] == sampling["BY"] == (2, 2) and sampling["Y"] == (1, 1)
        pixels = f.read()
        assert pixels["RY"].shape == (pixels["Y"].shape[0] // 2, pixels["Y"].shape[1] // 2)
        # A window at odd coordinates holds the chroma samples inside it.
        window = ((3, 5), (10, 12))
        part_of = f.read(window=window)
        same(part_of, {"Y": pixels["Y"][5:13, 3:11], "RY": pixels["RY"][3:7, 2:6], "BY": pixels["BY"][3:7, 2:6]})


def tiles(x: int, y: int) -> object:
    """The openexr package's one-level tile description."""
    t = OpenEXR.TileDescription()
    t.xSize, t.ySize, t.mode, t.roundingMode = x, y, OpenEXR.ONE_LEVEL, OpenEXR.ROUND_DOWN
    return t


def openexr_parts(path: Path) -> dict[str, dict[str, np.ndarray]]:
    """A multi-part file as pipelines write them, by the openexr package:
    scan-line and tiled parts, every method it has, a stereo pair."""
    rng = np.random.default_rng(7)
    height, width = 70, 45
    ramp = np.linspace(0, 3, height * width).reshape(height, width)
    layers = {}
    methods = ["ZIP", "PIZ", "PXR24", "B44", "B44A", "RLE", "ZSTD"]
    parts = []
    for i, method in enumerate(methods):
        channels = {
            "R": (ramp + rng.normal(0, 0.05, ramp.shape)).astype(np.float16),
            "G": np.full(ramp.shape, 0.25 * i, np.float16),
            "Z": (ramp * 7 + rng.normal(0, 1e-3, ramp.shape)).astype(np.float32),
            "id": rng.integers(0, 2**32, ramp.shape, dtype=np.uint32),
        }
        header = {
            "compression": getattr(OpenEXR, f"{method}_COMPRESSION"),
            "type": OpenEXR.scanlineimage if i % 2 == 0 else OpenEXR.tiledimage,
            "view": "left" if i % 2 == 0 else "right",
        }
        if i % 2:
            header["tiles"] = tiles(16, 8)
        name = f"{method.lower()}"
        parts.append(OpenEXR.Part(header, {k: OpenEXR.Channel(v) for k, v in channels.items()}, name=name))
        layers[name] = channels
    with OpenEXR.File(parts) as f:
        f.write(str(path))
    return layers


def test_multipart_files_read_every_part_by_index_and_name(tmp_path: Path) -> None:
    path = tmp_path / "parts.exr"
    openexr_parts(path)
    expected = theirs(path)
    with exr.open(path) as f:
        assert f.multipart
        assert [p.name for p in f.parts] == ["zip", "piz", "pxr24", "b44", "b44a", "rle", "zstd"]
        assert [p.type for p in f.parts] == ["scanlineimage", "tiledimage"] * 3 + ["scanlineimage"]
        assert f.views == ["left", "right"]
        for part, pixels in zip(f.parts, expected):
            same(f.read(part.index), pixels)
            same(f.read(part.name), pixels)
        header, channels = exr.read(path, part="b44a")
        assert header["name"] == "b44a"
        same(channels, expected[4])
        with pytest.raises(KeyError, match="parts"):
            f.read("nope")
        with pytest.raises(IndexError):
            f.read(7)


def test_windows_and_channel_subsets_are_slices_of_the_whole(tmp_path: Path) -> None:
    path = tmp_path / "parts.exr"
    openexr_parts(path)
    with exr.open(path) as f:
        for part in f.parts:
            whole = f.read(part.index)
            for (x0, y0), (x1, y1) in [((0, 0), (44, 69)), ((5, 3), (20, 40)), ((44, 69), (44, 69)), ((17, 9), (17, 60))]:
                got = f.read(part.index, channels=["Z", "G"], window=((x0, y0), (x1, y1)))
                assert list(got) == ["Z", "G"]
                for name in got:
                    assert got[name].tobytes() == np.ascontiguousarray(whole[name][y0:y1 + 1, x0:x1 + 1]).tobytes()
        with pytest.raises(ValueError, match="window"):
            f.read(0, window=((0, 0), (45, 10)))
        # The library selects channels by name: a name the part lacks is
        # its error, naming the part's channels.
        with pytest.raises(ValueError, match=r'channels \["Q"\]: the part has \["G", "R", "Z", "id"\]'):
            f.read(0, channels=["Q"])


class Counting(io.BytesIO):
    """A file object that counts the bytes read from it."""

    def __init__(self, data: bytes) -> None:
        super().__init__(data)
        self.fetched = 0

    def read(self, n: int | None = -1) -> bytes:
        data = super().read(n)
        self.fetched += len(data)
        return data


def test_a_window_of_a_tiled_file_fetches_only_its_tiles(tmp_path: Path) -> None:
    path = tmp_path / "tiled.exr"
    size = 512
    ramp = np.linspace(0, 1, size * size, dtype=np.float32).reshape(size, size)
    header = {"compression": OpenEXR.ZIP_COMPRESSION, "type": OpenEXR.tiledimage,
              "tiles": tiles(64, 64)}
    with OpenEXR.File(header, {"Y": ramp}) as f:
        f.write(str(path))
    data = path.read_bytes()
    source = Counting(data)
    with exr.open(source) as f:
        opened = source.fetched
        window = f.read(window=((70, 10), (100, 60)))["Y"]
        assert window.tobytes() == ramp[10:61, 70:101].tobytes()
    # One tile of 64 × 64 floats compresses to a few KiB; the whole file is
    # 64 of them: the read fetched one tile and nothing else.
    tile = source.fetched - opened
    assert 0 < tile < len(data) / 32, (tile, len(data))


def test_pxr24_files_oxport_writes_read_back_as_openexrs_own(tmp_path: Path) -> None:
    rng = np.random.default_rng(3)
    channels = {
        "R": rng.normal(0, 2, (37, 53)).astype(np.float16),
        "Z": rng.normal(0, 1e4, (37, 53)).astype(np.float32),
        "id": rng.integers(0, 2**32, (37, 53), dtype=np.uint32),
    }
    ours, reference = tmp_path / "ours.exr", tmp_path / "theirs.exr"
    exr.write(ours, channels, compression="pxr24")
    with OpenEXR.File({"compression": OpenEXR.PXR24_COMPRESSION, "type": OpenEXR.scanlineimage},
                      dict(channels)) as f:
        f.write(str(reference))
    decoded = theirs(reference)[0]
    same(theirs(ours)[0], decoded)
    same(exr.read(ours)[1], decoded)
    # FLOAT keeps its top 24 bits, rounded; HALF and UINT are exact.
    assert decoded["R"].tobytes() == channels["R"].tobytes()
    assert decoded["id"].tobytes() == channels["id"].tobytes()
    assert np.all(decoded["Z"].view(np.uint32) & 0xff == 0)


def test_b44_linear_channels_go_through_the_log_table(tmp_path: Path) -> None:
    rng = np.random.default_rng(5)
    values = np.abs(rng.normal(1, 0.5, (21, 30))).astype(np.float16)
    path = tmp_path / "linear.exr"
    for method in ("B44", "B44A"):
        with OpenEXR.File({"compression": getattr(OpenEXR, f"{method}_COMPRESSION"), "type": OpenEXR.scanlineimage},
                          {"L": OpenEXR.Channel(values, 1, 1, True), "N": OpenEXR.Channel(values)}) as f:
            f.write(str(path))
        same(exr.read(path)[1], theirs(path)[0])


def same_file(a: Path, b: Path) -> None:
    """Every part and level of ``a`` and ``b`` holds the same pixels."""
    with exr.open(a) as one, exr.open(b) as two:
        assert [(p.type, p.name, p.levels) for p in one.parts] == [(p.type, p.name, p.levels) for p in two.parts]
        for part in one.parts:
            if part.type.startswith("deep"):
                x, y = one.read_deep(part.index), two.read_deep(part.index)
                assert x.counts.tobytes() == y.counts.tobytes()
                assert {k: v.tobytes() for k, v in x.channels.items()} == {
                    k: v.tobytes() for k, v in y.channels.items()}
            else:
                for level in part.levels:
                    same(one.read(part.index, level=(level.x, level.y)),
                         two.read(part.index, level=(level.x, level.y)))


def test_convert_keeps_every_part_and_level(tmp_path: Path) -> None:
    parts = tmp_path / "parts.exr"
    openexr_parts(parts)
    for src in [parts, *REAL]:
        out = tmp_path / f"zstd-{src.name}"
        exr.convert(src, out, compression="zstd")
        same_file(src, out)
        # The openexr package reads the result to the pixels it read before.
        for mine, before in zip(theirs(out), theirs(src)):
            assert sorted(mine) == sorted(before)
            for name in mine:
                if mine[name].dtype == object:
                    assert all((x is None and y is None) or x.tobytes() == y.tobytes()
                               for x, y in zip(mine[name].ravel(), before[name].ravel()))
                else:
                    assert mine[name].tobytes() == before[name].tobytes(), (src.name, name)
        with exr.open(out) as f:
            flat = [p for p in f.parts if not p.type.startswith("deep")]
            assert all(p.header["compression"] == "zstd" for p in flat)
            assert all(p.header["compression"] == "zips" for p in f.parts if p.type.startswith("deep"))


def test_convert_stores_parts_as_scan_lines_or_other_tiles(tmp_path: Path) -> None:
    mirror = IMAGES / "MirrorPattern.exr"
    flat = tmp_path / "flat.exr"
    exr.convert(mirror, flat, compression="zip", scanlines=True)
    with exr.open(flat) as f:
        assert f.parts[0].type == "scanlineimage" and f.parts[0].tiles is None
        assert len(f.parts[0].levels) == 1
        same(f.read(), exr.open(mirror).read())
    same(theirs(flat)[0], exr.read(mirror)[1])
    # Other tiles, same levels: the levels are kept as they were.
    retiled = tmp_path / "retiled.exr"
    exr.convert(mirror, retiled, tiles=(16, 32), levels="mipmap")
    same_file(mirror, retiled)
    assert exr.open(retiled).parts[0].tiles == exr.Attribute("tiledesc", (16, 32, 1))
    # Garden is one level: a ripmap is made.
    garden = IMAGES / "Garden.exr"
    rip = tmp_path / "rip.exr"
    exr.convert(garden, rip, tiles=(64, 64), levels="ripmap", rounding="up")
    with exr.open(rip) as f, exr.open(garden) as g:
        assert len(f.parts[0].levels) > 10
        same(f.read(), g.read())
    same(theirs(rip)[0], theirs(garden)[0])
    with pytest.raises(ValueError, match="one or the other"):
        exr.convert(garden, rip, scanlines=True, tiles=(8, 8))
    with pytest.raises(ValueError, match="levels"):
        exr.convert(garden, rip, tiles=(8, 8), levels="pyramid")  # type: ignore[arg-type]


def deep_channels(height: int, width: int, seed: int) -> dict[str, np.ndarray]:
    """Deep channels of every type as the openexr package takes them: object
    arrays of each pixel's samples (None for none), the same count across
    channels."""
    rng = np.random.default_rng(seed)
    counts = rng.integers(0, 5, (height, width))
    counts[0, :] = 0
    out: dict[str, np.ndarray] = {}
    for name, dtype in (("A", np.float16), ("Z", np.float32), ("id", np.uint32)):
        pixels = np.empty((height, width), dtype=object)
        for index in np.ndindex(height, width):
            n = counts[index]
            if n:
                pixels[index] = (rng.random(n) * 100).astype(dtype)
        out[name] = pixels
    return out


@pytest.mark.parametrize("method", ["NO", "RLE", "ZIPS"])
@pytest.mark.parametrize("storage", ["deepscanline", "deeptile"])
def test_deep_parts_read_to_the_packages_samples(tmp_path: Path, method: str, storage: str) -> None:
    channels = deep_channels(37, 23, seed=len(method))
    header = {"type": getattr(OpenEXR, storage), "compression": getattr(OpenEXR, f"{method}_COMPRESSION")}
    if storage == "deeptile":
        header["tiles"] = tiles(8, 5)
    path = tmp_path / "deep.exr"
    with OpenEXR.File(header, dict(channels)) as f:
        f.write(str(path))
    expected = theirs(path)[0]
    with exr.open(path) as f:
        assert f.parts[0].type == storage
        whole = f.read_deep()
        same_deep(whole, expected)
        # A window and a subset of channels: the same samples.
        part_of = f.read_deep(channels=["Z"], window=((3, 2), (19, 30)), threads=2)
        assert part_of.counts.tobytes() == np.ascontiguousarray(whole.counts[2:31, 3:20]).tobytes()
        same_deep(part_of, {"Z": expected["Z"][2:31, 3:20]})
        with pytest.raises(ValueError, match="deep"):
            f.read()
    with exr.open(IMAGES / "stripes.exr") as flat, pytest.raises(ValueError, match="not deep"):
        flat.read_deep()


def dwa_cases(height: int, width: int) -> dict[str, dict[str, np.ndarray]]:
    """Images that take every path of the DWA decoder: R, G, B triples
    (half and float, in layers), alone-standing DCT channels (Y), RLE (A),
    channels stored as they are (Z, id), constant blocks, HDR and negative
    values."""
    rng = np.random.default_rng(11)
    yy, xx = np.mgrid[0:height, 0:width]
    smooth = np.sin(xx / 9.0) * np.cos(yy / 7.0) + 1.2

    def noisy(scale: float) -> np.ndarray:
        return smooth * scale + rng.normal(0, 0.05, smooth.shape)

    return {
        "rgb_half": {c: noisy(s).astype(np.float16) for c, s in zip("RGB", (1, 0.7, 0.3))},
        "rgba_float": {**{c: noisy(s).astype(np.float32) for c, s in zip("RGB", (2, 1, 0.5))},
                       "A": np.clip(noisy(0.4), 0, 1).astype(np.float32)},
        "layers": {"left.R": noisy(1).astype(np.float16), "left.G": noisy(1).astype(np.float16),
                   "left.B": noisy(1).astype(np.float16), "Y": noisy(1).astype(np.float16),
                   "Z": noisy(10).astype(np.float32), "id": rng.integers(0, 1000, smooth.shape, dtype=np.uint32)},
        "flat": {"R": np.full(smooth.shape, 0.5, np.float16), "G": np.zeros(smooth.shape, np.float16),
                 "B": np.full(smooth.shape, 3.0, np.float16)},
        "hdr": {"R": (noisy(1) ** 4 * 100).astype(np.float16), "G": (-noisy(1)).astype(np.float16),
                "B": noisy(1).astype(np.float16)},
    }


@pytest.mark.parametrize("method", ["DWAA", "DWAB"])
@pytest.mark.parametrize("case", ["rgb_half", "rgba_float", "layers", "flat", "hdr"])
def test_dwa_reads_to_the_packages_pixels_bit_for_bit(tmp_path: Path, method: str, case: str) -> None:
    channels = dwa_cases(300, 83)[case]
    path = tmp_path / "dwa.exr"
    with OpenEXR.File({"compression": getattr(OpenEXR, f"{method}_COMPRESSION"), "type": OpenEXR.scanlineimage},
                      dict(channels)) as f:
        f.write(str(path))
    for threads in (1, 2):
        same(exr.read(path, threads=threads)[1], theirs(path)[0])


def test_dwa_tiles_subsampled_and_linear_channels(tmp_path: Path) -> None:
    rng = np.random.default_rng(4)
    smooth = np.add.outer(np.linspace(0, 2, 64), np.linspace(0, 1, 90))
    path = tmp_path / "tiled.exr"
    rgb = {c: (smooth * s + rng.normal(0, 0.02, smooth.shape)).astype(np.float16) for c, s in zip("RGB", (1, 2, 3))}
    with OpenEXR.File({"compression": OpenEXR.DWAA_COMPRESSION, "type": OpenEXR.tiledimage, "tiles": tiles(40, 24),
                       "dwaCompressionLevel": 200.0}, dict(rgb)) as f:
        f.write(str(path))
    same(exr.read(path)[1], theirs(path)[0])
    # Luminance/chroma with 2×2 chroma, and a channel marked linear
    # (coded without the perceptual transfer).
    yc = tmp_path / "yc.exr"
    # The package takes subsampled channels at full size and keeps every
    # other sample.
    small = smooth
    with OpenEXR.File({"compression": OpenEXR.DWAB_COMPRESSION, "type": OpenEXR.scanlineimage}, {
            "Y": OpenEXR.Channel(smooth.astype(np.float16)),
            "RY": OpenEXR.Channel((small - 1).astype(np.float16), 2, 2),
            "BY": OpenEXR.Channel((1 - small).astype(np.float16), 2, 2),
            "L.Y": OpenEXR.Channel(smooth.astype(np.float16), 1, 1, True)}) as f:
        f.write(str(yc))
    same(exr.read(yc)[1], theirs(yc)[0])
