"""oxport.color against coloraide (CSS Color 4's reference algorithms in
Python): every conversion on 10,000 random colors within 1e-6 (float64),
CSS Color 4's own examples, round trips, dtypes and bad arguments."""

from __future__ import annotations

import math
import struct
from pathlib import Path

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


def test_css_color_4_premultiplied_alpha_example() -> None:
    # CSS Color 4, §12.3 (interpolating with alpha): rgb(24% 12% 98% / 0.4) and
    # rgb(62% 26% 64% / 0.6) halfway in sRGB are rgb(46.8% 20.4% 77.6% / 0.5).
    middle = color.gradient([[0.24, 0.12, 0.98, 0.4], [0.62, 0.26, 0.64, 0.6]], 3, space="srgb")[1]
    assert middle == pytest.approx([0.468, 0.204, 0.776, 0.5], abs=1e-12)


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
    with pytest.raises(ValueError, match=r"shape \(\.\.\., 3\) or \(\.\.\., 4\)"):
        color.convert(np.zeros((3, 5)), "srgb", "oklab")
    with pytest.raises(ValueError, match="8-bit samples hold sRGB only, but the input is linear"):
        color.convert(eight, "linear", "oklab")
    with pytest.raises(ValueError, match="threads"):
        color.convert(many, "srgb", "oklab", threads=0)
    with pytest.raises(TypeError):
        color.convert(np.array([["a", "b", "c"]]), "srgb", "oklab")
    assert math.isnan(color.convert([math.nan, 0.0, 0.0], "srgb", "oklab")[0])


DTYPES = [np.uint8, np.float16, np.float32, np.float64]


def rounded(values: np.ndarray, dtype: type) -> np.ndarray:
    """float64 values rounded into ``dtype`` as numpy rounds them (8-bit:
    clamped, nearest of 0..255)."""
    if dtype is np.uint8:
        return np.rint(np.clip(values, 0.0, 1.0) * 255.0).astype(np.uint8)
    return values.astype(dtype)


@pytest.mark.parametrize("channels", [3, 4])
@pytest.mark.parametrize("src_dtype", DTYPES)
@pytest.mark.parametrize("dst_dtype", DTYPES)
def test_images_of_every_dtype_into_every_other(channels: int, src_dtype: type,
                                                dst_dtype: type) -> None:
    # A small image of sRGB pixels (alpha last): each result is the float64
    # conversion of the input's values rounded once into the output's type.
    rng = np.random.default_rng(channels)
    image = rounded(rng.uniform(0.0, 1.0, size=(37, 23, channels)), src_dtype)
    values = image / 255.0 if src_dtype is np.uint8 else image.astype(np.float64)
    for dst in ("srgb", "linear", "oklab", "oklch"):
        if dst_dtype is np.uint8 and dst != "srgb":
            with pytest.raises(ValueError, match=f"but the output is {dst}"):
                color.convert(image, "srgb", dst, dtype=dst_dtype)  # type: ignore[arg-type]
            continue
        ours = color.convert(image, "srgb", dst, dtype=dst_dtype)  # type: ignore[arg-type]
        assert ours.dtype == dst_dtype and ours.shape == image.shape
        exact = values.copy()
        exact[..., :3] = color.convert(values[..., :3], "srgb", dst)  # type: ignore[arg-type]
        want = rounded(exact, dst_dtype)
        if dst_dtype is np.float64:
            assert np.all(np.abs(ours - want) <= 1e-12 * np.maximum(np.abs(want), 1.0))
        else:
            # The float64 results straddle a rounding at most rarely.
            assert np.mean(ours != want) < 1e-3, (dst, np.mean(ours != want))
            step = 1 if dst_dtype is np.uint8 else np.spacing(np.abs(want).astype(dst_dtype))
            assert np.all(np.abs(ours.astype(np.float64) - want.astype(np.float64)) <= step)
        if channels == 4:
            # Alpha passed through, rounded into the output's type.
            assert np.array_equal(ours[..., 3], rounded(values[..., 3], dst_dtype))
        # In place, where the dtype allows: the same samples.
        if dst_dtype is src_dtype:
            again = image.copy()
            assert color.convert(again, "srgb", dst, out=again) is again  # type: ignore[arg-type]
            assert np.array_equal(again, ours)
        # Into an array given.
        given = np.full(image.shape, 7, dst_dtype)
        assert color.convert(image, "srgb", dst, out=given) is given  # type: ignore[arg-type]
        assert np.array_equal(given, ours)


def test_out_arrays_that_cannot_be_written_are_refused() -> None:
    image = np.random.default_rng(1).uniform(0.0, 1.0, size=(8, 8, 4))
    with pytest.raises(ValueError, match=r"out: has shape \[8, 8, 3\], colors \[8, 8, 4\]"):
        color.convert(image, "srgb", "oklab", out=np.empty((8, 8, 3)))
    with pytest.raises(ValueError, match="out: expected a C-contiguous array"):
        color.convert(image, "srgb", "oklab", out=np.empty((8, 8, 8))[..., ::2])
    with pytest.raises(ValueError, match="out: expected a numpy array of uint8, float16"):
        color.convert(image, "srgb", "oklab", out=np.empty((8, 8, 4), np.int32))
    frozen = np.empty((8, 8, 4))
    frozen.flags.writeable = False
    with pytest.raises(ValueError, match="out: cannot be written"):
        color.convert(image, "srgb", "oklab", out=frozen)
    # A view of the input is not the input: refused, not half overwritten.
    with pytest.raises(ValueError, match="overlaps the input"):
        color.convert(image, "srgb", "oklab", out=image.view())
    with pytest.raises(ValueError, match="dtype: float32 disagrees with out's float64"):
        color.convert(image, "srgb", "oklab", dtype=np.float32, out=np.empty((8, 8, 4)))
    with pytest.raises(TypeError, match="dtype: expected one of"):
        color.convert(image, "srgb", "oklab", dtype=np.int16)
    strided = np.zeros((8, 8, 8))[..., ::2]
    with pytest.raises(ValueError, match="colors: expected a C-contiguous array"):
        color.convert(strided, "srgb", "oklab", out=strided)
    # A strided input (not converted in place) is read through a copy.
    assert np.array_equal(color.convert(image[::2], "srgb", "oklab"),
                          color.convert(image, "srgb", "oklab")[::2])


HUES = ["shorter", "longer", "increasing", "decreasing"]


def random_stops(rng: np.random.Generator) -> list[tuple[list[float], float | None]]:
    count = int(rng.integers(2, 5))
    stops: list[tuple[list[float], float | None]] = []
    for _ in range(count):
        rgb = list(rng.uniform(0.0, 1.0, 3))
        alpha = float(rng.choice([1.0, rng.uniform(0.2, 1.0)]))
        position = None if rng.random() < 0.5 else float(rng.uniform(0.0, 1.0))
        stops.append((rgb + [alpha], position))
    return stops


def coloraide_gradient(stops: list[tuple[list[float], float | None]], n: int, space: str, hue: str,
                       fit: str) -> np.ndarray:
    from coloraide import stop
    colors = [stop(Color("srgb", c[:3], c[3]), p) if p is not None else Color("srgb", c[:3], c[3])
              for c, p in stops]
    ramp = Color.interpolate(colors, space=SPACES[space], hue=hue, out_space="srgb")
    out = []
    for k in range(n):
        c = ramp(k / (n - 1))
        if fit == "map":
            c.fit("srgb", method="oklch-chroma")
        elif fit == "clip":
            c.clip("srgb")
        out.append(c.coords(nans=False) + [c.alpha(nans=False)])
    return np.array(out)


@pytest.mark.parametrize("space", SPACES)
@pytest.mark.parametrize("hue", HUES)
def test_gradients_match_coloraide(space: str, hue: str) -> None:
    rng = np.random.default_rng(abs(hash((space, hue))) % 2**32)
    for _ in range(40):
        stops = random_stops(rng)
        ours = color.gradient(stops, 17, space=space, hue=hue, fit="none")  # type: ignore[arg-type]
        theirs = coloraide_gradient(stops, 17, space, hue, "none")
        assert np.max(np.abs(ours - theirs)) < 1e-6, (stops, space, hue)


@pytest.mark.parametrize("fit", ["map", "clip"])
def test_gamut_mapping_matches_coloraide(fit: str) -> None:
    rng = np.random.default_rng(11)
    worst = 0.0
    for _ in range(60):
        stops = random_stops(rng)
        ours = color.gradient(stops, 9, space="oklch", hue="longer", fit=fit)  # type: ignore[arg-type]
        theirs = coloraide_gradient(stops, 9, "oklch", "longer", fit)
        assert np.all((ours >= 0.0) & (ours <= 1.0))
        worst = max(worst, float(np.max(np.abs(ours - theirs))))
    assert worst < 1e-6


def test_stops_hex_positions_and_errors() -> None:
    assert color.parse_hex("#ff8000") == pytest.approx((1.0, 128 / 255, 0.0, 1.0))
    g = color.gradient(["#000", ("#fff", 0.5), "#fff"], 5, space="srgb")
    assert g.shape == (5, 4)
    assert g[2] == pytest.approx([1, 1, 1, 1]) and g[1] == pytest.approx([0.5, 0.5, 0.5, 1])
    # Powerless hue: white to blue in Oklch keeps blue's hue all the way.
    blue_hue = color.convert([0.0, 0.0, 1.0], "srgb", "oklch")[2]
    ramp = color.gradient(["#ffffff", "#0000ff"], 5, space="oklch", fit="none")
    hues = color.convert(ramp[1:, :3], "srgb", "oklch")[:, 2]
    assert np.allclose(hues, blue_hue, atol=1e-6)
    with pytest.raises(ValueError, match="position 2"):
        color.gradient(["#0g0", "#fff"], 3)
    with pytest.raises(ValueError, match="hue"):
        color.gradient(["#000", "#fff"], 3, hue="sideways")  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="at least one stop"):
        color.gradient([], 3)
    with pytest.raises(ValueError, match="finite"):
        color.gradient([[math.nan, 0, 0], "#fff"], 3)
    with pytest.raises(ValueError, match="3 or 4"):
        color.gradient([[0, 0], "#fff"], 3)



def read_png(path: Path) -> tuple[int, int, bytes]:
    """Width, height and the chunk types of a PNG, read by hand."""
    data = path.read_bytes()
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    width, height = struct.unpack(">II", data[16:24])
    chunks, at = [], 8
    while at < len(data):
        (length,) = struct.unpack(">I", data[at:at + 4])
        chunks.append(data[at + 4:at + 8])
        at += 12 + length
    return width, height, b" ".join(chunks)


def test_render_gradients_writes_a_png_of_the_strips(tmp_path: Path) -> None:
    out = tmp_path / "strips.png"
    color.render_gradients(out, {"black to white": ["#000", "#fff"]}, presets="all",
                           spaces=["srgb", "oklab", "oklch"], width=300)
    width, height, chunks = read_png(out)
    assert width > 300 and height > 8 * 3 * 40
    assert b"sRGB" in chunks and b"IDAT" in chunks
    assert "rainbow" in color.PRESETS
    with pytest.raises(ValueError, match="preset"):
        color.render_gradients(tmp_path / "x.png", presets="plaid")
    with pytest.raises(ValueError, match="nothing to draw"):
        color.render_gradients(tmp_path / "x.png")
    assert not (tmp_path / "x.png").exists()
