"""Comparing OpenEXR pixels bit for bit, for the exr tests: oxport's
against what the ``openexr`` package reads."""

from __future__ import annotations

from pathlib import Path

import numpy as np

from oxport import exr


def theirs(path: Path) -> list[dict[str, np.ndarray]]:
    """Every part's channels as the openexr package reads them (level 0; a
    deep part's as object arrays of each pixel's samples)."""
    import OpenEXR

    with OpenEXR.File(str(path), separate_channels=True) as f:
        return [{name: c.pixels.copy() for name, c in part.channels.items()} for part in f.parts]


def same(a: dict[str, np.ndarray], b: dict[str, np.ndarray]) -> None:
    """The same channels, types, shapes and bits (NaN payloads and signed
    zeros count)."""
    assert sorted(a) == sorted(b)
    for name in a:
        assert a[name].dtype == b[name].dtype, name
        assert a[name].shape == b[name].shape, name
        assert a[name].tobytes() == b[name].tobytes(), name


def same_deep(ours: exr.DeepPixels, expected: dict[str, np.ndarray]) -> None:
    """Deep samples against the package's per-pixel object arrays (None
    where a pixel has no samples)."""
    assert sorted(ours.channels) == sorted(expected)
    for name, pixels in expected.items():
        mine = ours.per_pixel(name)
        assert mine.shape == pixels.shape == ours.counts.shape, name
        for index in np.ndindex(*mine.shape):
            if mine[index] is None:
                assert pixels[index] is None, (name, index)
            else:
                assert mine[index].dtype == pixels[index].dtype, (name, index)
                assert mine[index].tobytes() == pixels[index].tobytes(), (name, index)
