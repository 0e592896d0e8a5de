"""oxport.exr.rgb_from_yc and yc_from_rgb against OpenEXR's own
conversions (RgbaInputFile and RgbaOutputFile, through
``tools/rgba_yca.cpp`` built against the OpenEXR library of Debian's
``libopenexr-dev``): the same halves for OpenEXR's sample luminance/chroma
image, and both ways for images of every size class (the writer's line
buffer behaves differently below 13 lines)."""

from __future__ import annotations

import subprocess
from pathlib import Path

import numpy as np
import pytest

from conftest import openexr_tool
from oxport import exr

IMAGES = Path(__file__).resolve().parents[2] / "crates/oxport/tests/data/valid/openexr-images"


@pytest.fixture(scope="module")
def rgba_yca(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The tool, built here."""
    return openexr_tool("rgba_yca", tmp_path_factory)


def theirs(tool: Path, path: Path, tmp: Path) -> np.ndarray:
    """RGBA halves, (height, width, 4), as OpenEXR's RgbaInputFile reads ``path``."""
    raw = tmp / "rgba.raw"
    subprocess.run([str(tool), "read", str(path), str(raw)], check=True)
    header = exr.read_header(path)
    (x0, y0), (x1, y1) = header["dataWindow"]
    return np.fromfile(raw, np.float16).reshape(int(y1 - y0 + 1), int(x1 - x0 + 1), 4)


def ours(path: Path) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    header, planes = exr.read(path)
    return exr.rgb_from_yc(planes["Y"], planes.get("RY"), planes.get("BY"),
                           chromaticities=header.get("chromaticities"))


def same(rgb: tuple[np.ndarray, np.ndarray, np.ndarray], rgba: np.ndarray) -> None:
    for i, (name, plane) in enumerate(zip("RGB", rgb)):
        expected = np.ascontiguousarray(rgba[..., i])
        differ = np.flatnonzero(plane.view(np.uint16) != expected.view(np.uint16))
        assert differ.size == 0, (name, differ[:5], plane.ravel()[differ[:5]], expected.ravel()[differ[:5]])


def test_openexrs_sample_image_converts_to_openexrs_rgb(rgba_yca: Path, tmp_path: Path) -> None:
    path = IMAGES / "Rec709_YC.exr"
    same(ours(path), theirs(rgba_yca, path, tmp_path))


def rgba_image(shape: tuple[int, int]) -> np.ndarray:
    """Smooth, noisy and saturated colors, grey, and negative, infinite and
    NaN components (which count as 0)."""
    rng = np.random.default_rng(sum(shape))
    height, width = shape
    y, x = np.mgrid[0:height, 0:width]
    rgba = np.stack([
        np.abs(np.sin(x / 3.0) * 4),             # smooth
        rng.random(shape) * 0.2,                 # noisy, dark
        np.where((x + y) % 5 == 0, 20.0, 0.01),  # saturated spikes
        np.ones(shape),
    ], axis=-1).astype(np.float16)
    rgba[0, 0, :3] = 0.5                         # grey
    rgba[-1, -1, :3] = [-1.0, np.inf, np.nan]
    return rgba


SHAPES = [(2, 2), (6, 10), (12, 4), (14, 8), (30, 44), (64, 18)]


@pytest.mark.parametrize("shape", SHAPES)
def test_rgb_turns_to_yc_as_openexrs_writer_turns_it(rgba_yca: Path, tmp_path: Path,
                                                    shape: tuple[int, int]) -> None:
    height, width = shape
    rgba = rgba_image(shape)
    raw, yc = tmp_path / "in.raw", tmp_path / "yc.exr"
    rgba.tofile(raw)
    subprocess.run([str(rgba_yca), "write", str(raw), str(width), str(height), str(yc)], check=True)
    _, planes = exr.read(yc)
    y, ry, by = exr.yc_from_rgb(*(np.ascontiguousarray(rgba[..., i]) for i in range(3)))
    assert ry is not None and by is not None
    for name, mine in (("Y", y), ("RY", ry), ("BY", by)):
        differ = np.flatnonzero(mine.view(np.uint16) != planes[name].view(np.uint16))
        assert differ.size == 0, (name, differ[:5], mine.ravel()[differ[:5]], planes[name].ravel()[differ[:5]])


@pytest.mark.parametrize("shape", SHAPES)
def test_images_openexr_turned_to_yc_convert_back_as_openexr_does(rgba_yca: Path, tmp_path: Path,
                                                                 shape: tuple[int, int]) -> None:
    height, width = shape
    raw, yc = tmp_path / "in.raw", tmp_path / "yc.exr"
    rgba_image(shape).tofile(raw)
    subprocess.run([str(rgba_yca), "write", str(raw), str(width), str(height), str(yc)], check=True)
    channels = {c.name for c in exr.read_header(yc)["channels"]}
    assert {"Y", "RY", "BY"} <= channels
    same(ours(yc), theirs(rgba_yca, yc, tmp_path))


def test_luminance_alone_is_grey_and_bad_arguments_are_errors() -> None:
    y = (np.arange(12, dtype=np.float16) / 4).reshape(3, 4)
    r, g, b = exr.rgb_from_yc(y)
    assert r.tobytes() == g.tobytes() == b.tobytes() == y.tobytes()
    luma, ry, by = exr.yc_from_rgb(r, g, b, chroma=False)
    assert luma.tobytes() == y.tobytes() and ry is None and by is None
    with pytest.raises(ValueError, match="even"):
        exr.yc_from_rgb(r, g, b)
    with pytest.raises(ValueError, match="8 numbers"):
        exr.rgb_from_yc(y, chromaticities=[0.1, 0.2])
    with pytest.raises(ValueError, match="both or neither"):
        exr.rgb_from_yc(y, ry=np.zeros((1, 2), np.float16))
    with pytest.raises(ValueError, match="shape"):
        exr.rgb_from_yc(np.zeros((4, 4), np.float16), np.zeros((1, 2), np.float16), np.zeros((1, 2), np.float16))
    with pytest.raises(TypeError, match="float16"):
        exr.rgb_from_yc(np.zeros((4, 4), np.float32))
