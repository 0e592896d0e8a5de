"""Deep tiled parts with mipmap and ripmap levels, which the ``openexr``
package can neither write nor read past the first level: files OpenEXR's
own library writes (``tools/deep_levels.cpp`` on Debian's
``libopenexr-dev``, 3.1) read to the samples that library reads back, every
level; files oxport writes read in that library to the samples written; a
conversion keeps every level.

oxport's compressed deep tiles are written as OpenEXR 3.5 writes them: a
count table that compressing does not make smaller than the tile's (cut by
the data window) is stored with that size, which OpenEXR 3.1 takes as
compressed (it stores such tables with a whole tile's size). So the tables
oxport writes are read here by 3.1 uncompressed, where both versions agree;
the package (3.5) reads the first level of compressed ones
(``test_exr_write_layouts.py``)."""

from __future__ import annotations

import subprocess
from pathlib import Path

import numpy as np
import pytest

from conftest import openexr_tool
from oxport import exr
from test_exr_write_layouts import deep_pixels

CHANNELS = {"A": np.float16, "Z": np.float32, "id": np.uint32}


@pytest.fixture(scope="module")
def deep_levels(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The tool, built here."""
    return openexr_tool("deep_levels", tmp_path_factory)


def theirs(tool: Path, path: Path, out: Path) -> dict[tuple[int, int], exr.DeepPixels]:
    """Every level of the deep tiled file ``path`` as OpenEXR's
    DeepTiledInputFile reads it."""
    out.mkdir()
    subprocess.run([str(tool), "read", str(path), str(out)], check=True)
    with exr.open(path) as f:
        shapes = {(lv.x, lv.y): (lv.height, lv.width) for lv in f.parts[0].levels}
    levels = {}
    for counts in sorted(out.glob("*.counts")):
        lx, ly = map(int, counts.stem.split("_"))
        levels[lx, ly] = exr.DeepPixels(
            np.fromfile(counts, "<u4").reshape(shapes[lx, ly]),
            {name: np.fromfile(out / f"{lx}_{ly}.{name}", dtype) for name, dtype in CHANNELS.items()})
    return levels


def same_samples(ours: exr.DeepPixels, expected: exr.DeepPixels, where: object) -> None:
    assert ours.counts.shape == expected.counts.shape, where
    assert np.array_equal(ours.counts, expected.counts), where
    for name in CHANNELS:
        assert ours.channels[name].tobytes() == expected.channels[name].tobytes(), (where, name)


def level_sizes(width: int, height: int, mode: str, rounding: str) -> list[tuple[int, int, int, int]]:
    """``(x, y, width, height)`` of every level, as OpenEXR orders them."""
    def size(n: int, level: int) -> int:
        return max(1, (n + (1 << level) - 1) >> level if rounding == "up" else n >> level)

    def count(n: int) -> int:
        return next(level for level in range(64) if size(n, level) == 1) + 1

    if mode == "mipmap":
        return [(lv, lv, size(width, lv), size(height, lv)) for lv in range(max(count(width), count(height)))]
    return [(lx, ly, size(width, lx), size(height, ly)) for ly in range(count(height)) for lx in range(count(width))]


CASES = [((13, 9), (4, 3), "mipmap", "down", "zips"), ((37, 23), (8, 5), "ripmap", "up", "rle"),
         ((1, 17), (2, 2), "mipmap", "up", "none"), ((20, 3), (16, 16), "ripmap", "down", "zips")]


@pytest.mark.parametrize(("size", "tile", "mode", "rounding", "method"), CASES)
def test_openexrs_deep_levels_read_to_its_samples(deep_levels: Path, tmp_path: Path, size: tuple[int, int],
                                                  tile: tuple[int, int], mode: str, rounding: str,
                                                  method: str) -> None:
    path = tmp_path / "deep.exr"
    subprocess.run([str(deep_levels), "write", str(path), *map(str, (*size, *tile)), mode, rounding, method],
                   check=True)
    expected = theirs(deep_levels, path, tmp_path / "theirs")
    with exr.open(path) as f:
        part = f.parts[0]
        assert part.type == "deeptile"
        assert [(lv.x, lv.y, lv.width, lv.height) for lv in part.levels] == level_sizes(*size, mode, rounding)
        assert sorted((lv.x, lv.y) for lv in part.levels) == sorted(expected)
        for lv in part.levels:
            same_samples(f.read_deep(level=(lv.x, lv.y), threads=2), expected[lv.x, lv.y], (lv.x, lv.y))
        # A window of the last level but one, across its tiles.
        lv = part.levels[-2] if len(part.levels) > 1 else part.levels[0]
        window = ((lv.width // 3, lv.height // 2), (lv.width - 1, lv.height - 1))
        (x0, y0), (x1, y1) = window
        got = f.read_deep(level=(lv.x, lv.y), window=window)
        assert np.array_equal(got.counts, expected[lv.x, lv.y].counts[y0:y1 + 1, x0:x1 + 1])


@pytest.mark.parametrize(("size", "tile", "mode", "rounding"), [case[:4] for case in CASES])
def test_deep_levels_oxport_writes_read_in_openexr(deep_levels: Path, tmp_path: Path, size: tuple[int, int],
                                                   tile: tuple[int, int], mode: str, rounding: str) -> None:
    """Uncompressed: the tables both OpenEXR versions read alike (the
    module's docstring)."""
    width, height = size
    levels = [deep_pixels(h, w, seed=x + 7 * y) for x, y, w, h in level_sizes(width, height, mode, rounding)]
    path = tmp_path / "deep.exr"
    exr.write(path, levels, tiles=tile, levels=mode, rounding=rounding, compression="none")  # type: ignore[arg-type]
    expected = theirs(deep_levels, path, tmp_path / "theirs")
    assert len(expected) == len(levels)
    for (x, y, _, _), written in zip(level_sizes(width, height, mode, rounding), levels):
        same_samples(expected[x, y], written, (x, y))


def test_a_conversion_keeps_every_deep_level(deep_levels: Path, tmp_path: Path) -> None:
    source, converted = tmp_path / "source.exr", tmp_path / "converted.exr"
    subprocess.run([str(deep_levels), "write", str(source), "21", "10", "4", "4", "ripmap", "down", "none"],
                   check=True)
    exr.convert(source, converted, compression="zips", tiles=(8, 3), levels="ripmap", rounding="down")
    before = theirs(deep_levels, source, tmp_path / "before")
    with exr.open(converted) as f:
        part = f.parts[0]
        assert part.tiles is not None and part.tiles.value == (8, 3, 2)  # ripmap, rounded down
        assert sorted((lv.x, lv.y) for lv in part.levels) == sorted(before)
        for key, expected in before.items():
            same_samples(f.read_deep(level=key), expected, key)
    # Levels the input does not have are not made for a deep part: it has one.
    exr.convert(source, converted, compression="rle", tiles=(8, 8), levels="mipmap")
    with exr.open(converted) as f:
        assert [(lv.x, lv.y) for lv in f.parts[0].levels] == [(0, 0)]
        same_samples(f.read_deep(), before[0, 0], "mipmap asked of a ripmap")
