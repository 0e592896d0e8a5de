"""oxport.exr with Blender 3.4: Cycles renders (the shared render script's
multilayer half/float file and its RGBA float file, both ZIP) read
pixel-exact as OpenEXR reads them; files oxport writes loaded by Blender with
the pixels oxport wrote."""

from __future__ import annotations

import subprocess
from pathlib import Path

import numpy as np
import pytest

from conftest import REFDATA, SCRIPTS, blender
from oxport import exr
from test_exr import OpenEXR, openexr_read, same_header, same_pixels

LOADER = Path(__file__).with_name("blender_exr_load.py")


def render(seed: int, width: int = 320, height: int = 180) -> tuple[Path, Path]:
    """The shared script's two renders for ``seed``, made once and cached."""
    out = REFDATA / f"renders_{width}x{height}"
    layers, rgba = out / f"render_{seed:03d}_layers.exr", out / f"render_{seed:03d}_rgba32.exr"
    if not (layers.exists() and rgba.exists()):
        partial = out / "partial"
        partial.mkdir(parents=True, exist_ok=True)
        command = [blender(), "-b", "--factory-startup", "--python", str(SCRIPTS / "render.py"), "--",
                   str(partial), str(seed), str(width), str(height)]
        result = subprocess.run(command, capture_output=True, text=True, timeout=900)
        if result.returncode != 0 or "RENDERED" not in result.stdout:
            raise RuntimeError(f"{' '.join(command)} failed:\n{result.stdout[-3000:]}\n{result.stderr[-3000:]}")
        for path in (layers, rgba):
            (partial / path.name).replace(path)
    return layers, rgba


@pytest.mark.parametrize("seed", [1, 2])
def test_cycles_renders_are_read_pixel_exact(seed: int) -> None:
    for path in render(seed):
        header, pixels = exr.read(path)
        their_header, their_pixels = openexr_read(path)
        assert header["compression"] == "zip"
        same_pixels(pixels, their_pixels)
        same_header(header, their_header)
    _, layers = exr.read(render(seed)[0])
    # Blender's multilayer names, both pixel types.
    assert "ViewLayer.Combined.R" in layers
    assert {str(a.dtype) for a in layers.values()} == {"float16", "float32"}


def test_blender_loads_what_oxport_writes(tmp_path: Path) -> None:
    _, rgba = render(1)
    _, pixels = exr.read(rgba)
    height, width = pixels["R"].shape
    jobs = []
    for method in ["none", "rle", "zips", "zip"]:
        for name, dtype in [("float", np.float32), ("half", np.float16)]:
            path = tmp_path / f"{method}_{name}.exr"
            exr.write(path, {c: pixels[c].astype(dtype) for c in "RGBA"}, compression=method)  # type: ignore[arg-type]
            jobs += [str(path), str(path.with_suffix(".f32"))]
    command = [blender(), "-b", "--factory-startup", "--python", str(LOADER), "--", *jobs]
    result = subprocess.run(command, capture_output=True, text=True, timeout=900)
    assert result.returncode == 0, result.stdout[-3000:] + result.stderr[-3000:]
    assert result.stdout.count("OXPORT_LOADED") == len(jobs) // 2, result.stdout[-3000:]
    for source in jobs[::2]:
        loaded = np.fromfile(Path(source).with_suffix(".f32"), np.float32).reshape(height, width, 4)[::-1]
        _, written = exr.read(source)
        expected = np.stack([written[c].astype(np.float32) for c in "RGBA"], axis=-1)
        assert np.array_equal(loaded, expected), source
