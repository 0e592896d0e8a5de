"""oxport.color against coloraide (CSS Color 4's reference algorithms in
Python): every conversion on 10,000 random colors within 1e-6 (float64),
CSS Color 4's own examples, round trips, dtypes and bad arguments."""

from __future__ import annotations

import math

import numpy as np
import pytest
from coloraide import Color

from oxport import color

SPACES = {"srgb": "srgb", "linear": "srgb-linear", "oklab": "oklab", "oklch": "oklch"}


def random_srgb(n: int, seed: int = 7) -> np.ndarray:
    # Mostly in gamut, some outside it (negative and above 1), as CSS allows.
    return np.random.default_rng(seed).uniform(-0.1, 1.1, size=(n, 3))


def hue_distance(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    d = np.abs(a - b) % 360.0
    return np.asarray(np.minimum(d, 360.0 - d))


@pytest.mark.parametrize("src", SPACES)
@pytest.mark.parametrize("dst", SPACES)
def test_every_conversion_matches_coloraide(src: str, dst: str) -> None:
    start = random_srgb(10_000)
    if src != "srgb":
        start = np.array([Color("srgb", list(c)).convert(SPACES[src]).coords(nans=False) for c in start])
    ours = color.convert(start, src, dst)  # type: ignore[arg-type]
    theirs = np.array([Color(SPACES[src], list(c)).convert(SPACES[dst]).coords(nans=False)
                       for c in start])
    if dst == "oklch":
        # Hue is meaningless for (near) achromatic colors: compare it where chroma is real.
        chromatic = theirs[:, 1] > 1e-4
        assert np.max(np.abs(ours[:, :2] - theirs[:, :2])) < 1e-6
        assert np.max(hue_distance(ours[chromatic, 2], theirs[chromatic, 2])) < 1e-6
    else:
        assert np.max(np.abs(ours - theirs)) < 1e-6, (src, dst)


def test_css_color_4_examples() -> None:
    # CSS Color 4, §9 (Oklab and Oklch examples) and the sRGB primaries.
    red = color.convert([1.0, 0.0, 0.0], "srgb", "oklch")
    assert red == pytest.approx([0.62796, 0.25768, 29.2339], abs=1e-4)
    white = color.convert([1.0, 1.0, 1.0], "srgb", "oklab")
    assert white == pytest.approx([1.0, 0.0, 0.0], abs=1e-7)
    assert color.convert([0.0, 0.0, 0.0], "srgb", "oklab") == pytest.approx([0, 0, 0], abs=0)
    # oklch(70% 0.1 120) is rgb(60.8% 69.2% 42.7%)-ish: check against coloraide exactly.
    lch = [0.7, 0.1, 120.0]
    ours = color.convert(lch, "oklch", "srgb")
    assert ours == pytest.approx(Color("oklch", lch).convert("srgb").coords(), abs=1e-9)


def test_round_trips_within_1e_12() -> None:
    start = random_srgb(10_000, seed=3)
    for via in ("linear", "oklab", "oklch"):
        back = color.convert(color.convert(start, "srgb", via), via, "srgb")
        assert np.max(np.abs(back - start)) < 1e-12, via


def test_dtypes_shapes_threads_and_errors() -> None:
    eight = np.array([[255, 0, 0], [0, 128, 255]], np.uint8)
    as_float = color.convert(eight, "srgb", "oklab")
    assert as_float.dtype == np.float64
    assert np.allclose(as_float, color.convert(eight / 255.0, "srgb", "oklab"))
    single = color.convert(np.ones((4, 5, 3), np.float32), "srgb", "oklch")
    assert single.dtype == np.float32 and single.shape == (4, 5, 3)
    many = random_srgb(200_000)
    assert np.array_equal(color.convert(many, "srgb", "oklab", threads=1),
                          color.convert(many, "srgb", "oklab", threads=2))
    # The input is never changed.
    copy = many.copy()
    color.convert(many, "srgb", "oklch")
    assert np.array_equal(copy, many)
    with pytest.raises(ValueError, match="src"):
        color.convert(many, "hsl", "oklab")  # type: ignore[arg-type]
    with pytest.raises(ValueError, match=r"shape \(\.\.\., 3\)"):
        color.convert(np.zeros((3, 4)), "srgb", "oklab")
    with pytest.raises(ValueError, match="uint8"):
        color.convert(eight, "linear", "oklab")
    with pytest.raises(ValueError, match="threads"):
        color.convert(many, "srgb", "oklab", threads=0)
    with pytest.raises(TypeError):
        color.convert(np.array([["a", "b", "c"]]), "srgb", "oklab")
    assert math.isnan(color.convert([math.nan, 0.0, 0.0], "srgb", "oklab")[0])
