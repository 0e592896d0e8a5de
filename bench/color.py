"""oxport.color against colour-science (numpy) and coloraide (pure Python):
conversions of 10 million random sRGB colors to Oklab and back, to Oklch,
and 10 million gradient samples, side by side in one process.

Each contender converts the same float64 array; they alternate, a warm-up
round is not counted, medians of --runs rounds. coloraide converts one
color at a time in Python: it gets a 20,000-color slice and its time is
scaled to 10 million (per-color cost), as the table says. colour-science
has no gradient function: its gradient is the same Oklab interpolation
written in numpy (lerp, then colour's Oklab → sRGB), without gamut mapping;
oxport's gradient row maps into gamut (CSS Color 4) as it does by default,
and is also shown with fit="none" for the like-for-like figure.

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


def colour_srgb_to_oklab(rgb: np.ndarray) -> np.ndarray:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return colour.XYZ_to_Oklab(colour.sRGB_to_XYZ(rgb))


def colour_oklab_to_srgb(lab: np.ndarray) -> np.ndarray:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return colour.XYZ_to_sRGB(colour.Oklab_to_XYZ(lab))


def colour_srgb_to_oklch(rgb: np.ndarray) -> np.ndarray:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return colour.Oklab_to_Oklch(colour.XYZ_to_Oklab(colour.sRGB_to_XYZ(rgb)))


def coloraide_convert(colors: np.ndarray, src: str, dst: str) -> None:
    for c in colors:
        Color(src, list(c)).convert(dst).coords()


def numpy_gradient(n: int) -> np.ndarray:
    """Blue to yellow in Oklab: the same arithmetic, in numpy with colour's conversions."""
    a, b = colour_srgb_to_oklab(np.array([[0.0, 0.0, 1.0], [1.0, 1.0, 0.0]]))
    t = np.linspace(0.0, 1.0, n)[:, None]
    return colour_oklab_to_srgb(a + (b - a) * t)


def coloraide_gradient(n: int) -> None:
    ramp = Color.interpolate(["#0000ff", "#ffff00"], space="oklab", out_space="srgb")
    for k in range(n):
        ramp(k / (n - 1)).coords()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--n", type=int, default=10_000_000)
    args = parser.parse_args()
    n = args.n
    rgb = np.random.default_rng(1).uniform(0.0, 1.0, size=(n, 3))
    lab = color.convert(rgb, "srgb", "oklab")
    # The contenders agree before they are timed (colour-science uses IEC
    # 61966-2-1's 4-digit sRGB matrix and Ottosson's first Oklab matrices,
    # CSS Color 4 more precise ones: they differ in the fourth decimal).
    assert np.max(np.abs(colour_srgb_to_oklab(rgb[:1000]) - lab[:1000])) < 1e-3
    rows = []
    cases: list[tuple[str, dict[str, Callable[[], Any]], Callable[[], Any]]] = [
        ("sRGB → Oklab", {
            "oxport": lambda: color.convert(rgb, "srgb", "oklab"),
            "oxport 1 thread": lambda: color.convert(rgb, "srgb", "oklab", threads=1),
            "colour-science": lambda: colour_srgb_to_oklab(rgb),
        }, lambda: coloraide_convert(rgb[:SLICE], "srgb", "oklab")),
        ("Oklab → sRGB", {
            "oxport": lambda: color.convert(lab, "oklab", "srgb"),
            "oxport 1 thread": lambda: color.convert(lab, "oklab", "srgb", threads=1),
            "colour-science": lambda: colour_oklab_to_srgb(lab),
        }, lambda: coloraide_convert(lab[:SLICE], "oklab", "srgb")),
        ("sRGB → Oklch", {
            "oxport": lambda: color.convert(rgb, "srgb", "oklch"),
            "oxport 1 thread": lambda: color.convert(rgb, "srgb", "oklch", threads=1),
            "colour-science": lambda: colour_srgb_to_oklch(rgb),
        }, lambda: coloraide_convert(rgb[:SLICE], "srgb", "oklch")),
        ("gradient samples, Oklab (no gamut mapping)", {
            "oxport": lambda: color.gradient(["#00f", "#ff0"], n, fit="none"),
            "oxport 1 thread": lambda: color.gradient(["#00f", "#ff0"], n, fit="none", threads=1),
            "colour-science": lambda: numpy_gradient(n),
        }, lambda: coloraide_gradient(SLICE)),
    ]
    for label, contenders, slow in cases:
        print(label, flush=True)
        t = medians(alternate(contenders, args.runs))
        aide = statistics.median(timed(slow) for _ in range(3)) * n / SLICE
        ns = {k: v / n * 1e9 for k, v in t.items()}
        rows.append([
            label,
            f"{ns['oxport']:.1f} ({ns['oxport 1 thread']:.1f})",
            f"{ns['colour-science']:.1f}",
            f"{aide / n * 1e9:,.0f}",
            f"**{t['colour-science'] / t['oxport']:.1f}×** ({t['colour-science'] / t['oxport 1 thread']:.1f}×)",
            f"{aide / t['oxport']:,.0f}×",
        ])
    strips = ROOT / "docs" / "images" / "gradients.png"
    strips.parent.mkdir(parents=True, exist_ok=True)
    color.render_gradients(strips, presets="all", spaces=["srgb", "linear", "oklab", "oklch"], width=768)
    text = "\n".join([
        "## Color conversions and gradients",
        "",
        "The presets, each interpolated in sRGB, linear sRGB, Oklab and Oklch (shorter hue), mapped "
        "into sRGB with CSS Color 4's gamut mapping "
        "(`oxport gradient --preset all --spaces srgb,linear,oklab,oklch --width 768 --out gradients.png`):",
        "",
        "![the preset gradients in four spaces](images/gradients.png)",
        "",
        f"`.venv/bin/python bench/color.py --runs {args.runs} --n {n}` ({machine()}; "
        f"colour-science {colour.__version__}, coloraide {__import__('coloraide').__version__}). "
        f"{n:,} random float64 sRGB colors (and their Oklab values); nanoseconds per color, medians of "
        "alternating runs after a warm-up. oxport on every core (in parentheses: one thread). "
        f"coloraide converts one color at a time in Python: timed on {SLICE:,} colors and scaled. The "
        "colour-science gradient is the same Oklab interpolation in numpy with its conversions.",
        "",
        table(["work", "oxport ns/color (1 thread)", "colour-science ns/color", "coloraide ns/color",
               "speed-up vs colour-science (1 thread)", "vs coloraide"], rows),
    ])
    update_section("color", text)
    print(text)


if __name__ == "__main__":
    main()
