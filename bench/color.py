"""oxport.color against colour-science (numpy) and coloraide (pure Python),
side by side in one process:

1. every pair of spaces (sRGB, linear sRGB, Oklab, Oklch) on --n random
   float64 colors;
2. sRGB → Oklab and back for each sample type (uint8, float16, float32,
   float64);
3. a 4K RGBA float16 frame (3840 × 2160, alpha last, as an OpenEXR
   render holds it), linear to sRGB and to Oklab;
4. --n gradient samples.

Each contender converts the same array into a new one; they alternate, a
warm-up round is not counted, medians of --runs rounds. oxport runs on
every core and on one thread; numpy (under colour-science) has no thread
pool, so its one setting is its best. coloraide converts one color at a
time in Python: it gets a 20,000-color slice and its time is scaled to the
whole (per-color cost), as the tables say. colour-science computes in
float64: for other types it is given the same array and its result is cast
to the type (uint8 divided by 255 first, and rounded back after), so that
both produce the same output. colour-science has no gradient function: its
gradient is the same Oklab interpolation written in numpy (lerp, then
colour's Oklab → sRGB), without gamut mapping; oxport's gradient is shown
with fit="none" for the like-for-like figure.

Run: make bench-color  (or .venv/bin/python bench/color.py [--runs N] [--n N])
"""

from __future__ import annotations

import argparse
import statistics
import warnings
from typing import Any, Callable

import numpy as np

from docs import ROOT, alternate, machine, medians, table, timed, update_section

from oxport import color

with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    import colour  # colour-science
from coloraide import Color

SLICE = 20_000
SPACES = ["srgb", "linear", "oklab", "oklch"]
NAMES = {"srgb": "sRGB", "linear": "linear", "oklab": "Oklab", "oklch": "Oklch"}
CSS = {"srgb": "srgb", "linear": "srgb-linear", "oklab": "oklab", "oklch": "oklch"}


def quiet(fn: Callable[..., np.ndarray]) -> Callable[..., np.ndarray]:
    def run(*args: Any) -> np.ndarray:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            return fn(*args)
    return run


# colour-science's way from each space to CIE XYZ and back (sRGB through its
# own decoding; linear without it), and Oklab ↔ Oklch.
@quiet
def colour_to_xyz(x: np.ndarray, space: str) -> np.ndarray:
    if space == "oklch":
        x = colour.Oklch_to_Oklab(x)
    if space in ("oklab", "oklch"):
        return colour.Oklab_to_XYZ(x)
    return colour.sRGB_to_XYZ(x, apply_cctf_decoding=space == "srgb")


@quiet
def colour_from_xyz(xyz: np.ndarray, space: str) -> np.ndarray:
    if space in ("oklab", "oklch"):
        lab = colour.XYZ_to_Oklab(xyz)
        return colour.Oklab_to_Oklch(lab) if space == "oklch" else lab
    return colour.XYZ_to_sRGB(xyz, apply_cctf_encoding=space == "srgb")


@quiet
def colour_convert(x: np.ndarray, src: str, dst: str) -> np.ndarray:
    """``x`` from ``src`` to ``dst`` by colour-science's shortest way."""
    if {src, dst} == {"srgb", "linear"}:
        return colour.models.eotf_sRGB(x) if src == "srgb" else colour.models.eotf_inverse_sRGB(x)
    if {src, dst} == {"oklab", "oklch"}:
        return colour.Oklab_to_Oklch(x) if src == "oklab" else colour.Oklch_to_Oklab(x)
    return colour_from_xyz(colour_to_xyz(x, src), dst)


def colour_typed(x: np.ndarray, src: str, dst: str, dtype: Any) -> np.ndarray:
    """colour-science on samples of ``dtype``: computed in float64, the
    result rounded into ``dtype`` as oxport's is."""
    values = x / 255.0 if x.dtype == np.uint8 else x
    out = colour_convert(values, src, dst)
    if np.dtype(dtype) == np.uint8:
        return np.rint(np.clip(out, 0.0, 1.0) * 255.0).astype(np.uint8)
    return out.astype(dtype, copy=False)


def coloraide_convert(colors: np.ndarray, src: str, dst: str) -> None:
    for c in colors:
        Color(CSS[src], list(c)).convert(CSS[dst]).coords()


def numpy_gradient(n: int) -> np.ndarray:
    """Blue to yellow in Oklab: the same arithmetic, in numpy with colour's conversions."""
    a, b = colour_convert(np.array([[0.0, 0.0, 1.0], [1.0, 1.0, 0.0]]), "srgb", "oklab")
    t = np.linspace(0.0, 1.0, n)[:, None]
    return colour_convert(a + (b - a) * t, "oklab", "srgb")


def coloraide_gradient(n: int) -> None:
    ramp = Color.interpolate(["#0000ff", "#ffff00"], space="oklab", out_space="srgb")
    for k in range(n):
        ramp(k / (n - 1)).coords()


def race(contenders: dict[str, Callable[[], Any]], runs: int, label: str) -> dict[str, float]:
    print(label, flush=True)
    return medians(alternate(contenders, runs))


def speedup(t: dict[str, float], reference: float) -> str:
    return f"**{reference / t['oxport']:.1f}×** ({reference / t['oxport 1 thread']:.1f}×)"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--n", type=int, default=2_000_000)
    args = parser.parse_args()
    n, runs = args.n, args.runs
    srgb = np.random.default_rng(1).uniform(0.0, 1.0, size=(n, 3))
    inputs = {space: color.convert(srgb, "srgb", space) for space in SPACES}  # type: ignore[arg-type]
    # The contenders agree before they are timed (colour-science uses IEC
    # 61966-2-1's 4-digit sRGB matrix and Ottosson's first Oklab matrices,
    # CSS Color 4 more precise ones: they differ in the fourth decimal, and
    # by up to 3e-3 in dark sRGB from Oklab, where the curve is steepest).
    for src in SPACES:
        for dst in SPACES:
            if src != dst:
                ours = color.convert(inputs[src][:1000], src, dst)  # type: ignore[arg-type]
                theirs = colour_convert(inputs[src][:1000], src, dst)
                if dst == "oklch":
                    ours, theirs = ours[:, :2], theirs[:, :2]
                assert np.max(np.abs(ours - theirs)) < 5e-3, (src, dst)

    pairs = []
    for src in SPACES:
        for dst in SPACES:
            if src == dst:
                continue
            x = inputs[src]
            t = race({
                "oxport": lambda: color.convert(x, src, dst),  # type: ignore[arg-type]
                "oxport 1 thread": lambda: color.convert(x, src, dst, threads=1),  # type: ignore[arg-type]
                "colour-science": lambda: colour_convert(x, src, dst),
            }, runs, f"{src} -> {dst}")
            aide = statistics.median(timed(lambda: coloraide_convert(x[:SLICE], src, dst))
                                     for _ in range(3)) / SLICE
            ns = {k: v / n * 1e9 for k, v in t.items()}
            pairs.append([
                f"{NAMES[src]} → {NAMES[dst]}",
                f"{ns['oxport']:.1f} ({ns['oxport 1 thread']:.1f})",
                f"{ns['colour-science']:.1f}",
                f"{aide * 1e9:,.0f}",
                speedup(t, t["colour-science"]),
                f"{aide * n / t['oxport']:,.0f}×",
            ])

    dtypes = []
    for name in ("uint8", "float16", "float32", "float64"):
        for src, dst in (("srgb", "oklab"), ("oklab", "srgb")):
            if name == "uint8":
                if src != "srgb":
                    continue
                x = np.rint(srgb * 255.0).astype(np.uint8)
            else:
                x = inputs[src].astype(name)
            out = "float64" if name == "uint8" else name
            t = race({
                "oxport": lambda: color.convert(x, src, dst, dtype=out),  # type: ignore[arg-type]
                "oxport 1 thread": lambda: color.convert(x, src, dst, dtype=out, threads=1),  # type: ignore[arg-type]
                "colour-science": lambda: colour_typed(x, src, dst, out),
            }, runs, f"{name}: {src} -> {dst}")
            ns = {k: v / n * 1e9 for k, v in t.items()}
            dtypes.append([
                f"{NAMES[src]} → {NAMES[dst]}", f"{name} → {out}",
                f"{ns['oxport']:.1f} ({ns['oxport 1 thread']:.1f})",
                f"{ns['colour-science']:.1f}",
                speedup(t, t["colour-science"]),
            ])

    # A 4K RGBA half frame of linear light (values past 1 as renders have).
    frame = np.random.default_rng(2).uniform(0.0, 1.5, size=(2160, 3840, 4)).astype(np.float16)
    frame[..., 3] = 1.0

    def colour_frame(dst: str) -> np.ndarray:
        out = np.empty_like(frame)
        out[..., :3] = colour_convert(frame[..., :3], "linear", dst)
        out[..., 3] = frame[..., 3]
        return out

    frames = []
    for dst in ("srgb", "oklab"):
        t = race({
            "oxport": lambda: color.convert(frame, "linear", dst),  # type: ignore[arg-type]
            "oxport 1 thread": lambda: color.convert(frame, "linear", dst, threads=1),  # type: ignore[arg-type]
            "colour-science": lambda: colour_frame(dst),
        }, runs, f"4K frame: linear -> {dst}")
        frames.append([
            f"linear → {NAMES[dst]}",
            f"{t['oxport'] * 1e3:.1f} ({t['oxport 1 thread'] * 1e3:.1f})",
            f"{t['colour-science'] * 1e3:.1f}",
            speedup(t, t["colour-science"]),
        ])

    t = race({
        "oxport": lambda: color.gradient(["#00f", "#ff0"], n, fit="none"),
        "oxport 1 thread": lambda: color.gradient(["#00f", "#ff0"], n, fit="none", threads=1),
        "colour-science": lambda: numpy_gradient(n),
    }, runs, "gradient")
    aide = statistics.median(timed(lambda: coloraide_gradient(SLICE)) for _ in range(3)) / SLICE
    ns = {k: v / n * 1e9 for k, v in t.items()}
    gradient = [["gradient samples, Oklab (no gamut mapping)",
                 f"{ns['oxport']:.1f} ({ns['oxport 1 thread']:.1f})", f"{ns['colour-science']:.1f}",
                 f"{aide * 1e9:,.0f}", speedup(t, t["colour-science"]), f"{aide * n / t['oxport']:,.0f}×"]]

    strips = ROOT / "docs" / "images" / "gradients.png"
    strips.parent.mkdir(parents=True, exist_ok=True)
    color.render_gradients(strips, presets="all", spaces=["srgb", "linear", "oklab", "oklch"], width=768)
    header = ["work", "oxport ns/color (1 thread)", "colour-science ns/color", "coloraide ns/color",
              "speed-up vs colour-science (1 thread)", "vs coloraide"]
    text = "\n".join([
        "## Color conversions and gradients",
        "",
        "The presets, each interpolated in sRGB, linear sRGB, Oklab and Oklch (shorter hue), mapped "
        "into sRGB with CSS Color 4's gamut mapping "
        "(`oxport gradient --preset all --spaces srgb,linear,oklab,oklch --width 768 --out gradients.png`):",
        "",
        "![the preset gradients in four spaces](images/gradients.png)",
        "",
        f"`.venv/bin/python bench/color.py --runs {runs} --n {n}` ({machine()}; "
        f"colour-science {colour.__version__}, coloraide {__import__('coloraide').__version__}, "
        f"numpy {np.__version__}). Medians of alternating runs after a warm-up; each contender "
        "converts into a new array. oxport on every core (in parentheses: one thread); numpy has no "
        f"thread pool. coloraide converts one color at a time in Python: timed on {SLICE:,} colors "
        "and scaled.",
        "",
        f"Every pair of spaces, {n:,} random float64 colors (sRGB in [0, 1], and their values in the "
        "other spaces), nanoseconds per color:",
        "",
        table(header, pairs),
        "",
        "Each sample type: the same colors stored as the type (uint8: 8-bit sRGB, into float64), "
        "converted into the same type; colour-science computes in float64 and its result is cast "
        "(and, from uint8, divided by 255 first):",
        "",
        table(["work", "samples", "oxport ns/color (1 thread)", "colour-science ns/color",
               "speed-up (1 thread)"], dtypes),
        "",
        "A 4K RGBA float16 frame (3840 × 2160, linear light up to 1.5, alpha passed through), into a "
        "new float16 frame; milliseconds per frame:",
        "",
        table(["work", "oxport ms (1 thread)", "colour-science ms", "speed-up (1 thread)"], frames),
        "",
        f"Gradients: {n:,} samples from blue to yellow in Oklab. The colour-science gradient is the "
        "same interpolation in numpy with its conversions:",
        "",
        table(header, gradient),
    ])
    update_section("color", text)
    print(text)


if __name__ == "__main__":
    main()
