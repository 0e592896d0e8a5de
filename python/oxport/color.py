"""Colors: sRGB (8-bit and float), linear sRGB, Oklab and Oklch with CSS
Color 4's definitions and matrices, converted over whole numpy arrays on
every core::

    import numpy as np
    from oxport import color

    oklch = color.convert(np.array([[1.0, 0.0, 0.0]]), "srgb", "oklch")
    # array([[ 0.62795536,  0.25768330, 29.23388028]])

Hues are degrees in [0, 360); an achromatic color keeps the angle of its
(tiny) a and b.
"""

from __future__ import annotations

import os
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Literal, Optional, Union, cast

from . import _native

if TYPE_CHECKING:
    import numpy as np
    import numpy.typing as npt

#: A color space: ``"srgb"`` (encoded, what ``#rrggbb`` means), ``"linear"``
#: (or ``"srgb-linear"``: linear-light sRGB), ``"oklab"``, ``"oklch"``.
Space = Literal["srgb", "linear", "srgb-linear", "oklab", "oklch"]


#: The sample types :func:`convert` reads and writes without a copy.
Dtype = Literal["uint8", "float16", "float32", "float64"]
_DTYPES = ("uint8", "float16", "float32", "float64")


def convert(colors: npt.ArrayLike, src: Space, dst: Space, *,
            dtype: Optional[npt.DTypeLike] = None, out: Optional[np.ndarray] = None,
            threads: Optional[int] = None) -> np.ndarray:
    """``colors`` converted from ``src`` to ``dst``: an array of shape
    ``(..., 3)``, or ``(..., 4)`` with alpha last (passed through).

    Samples are uint8 (8-bit sRGB: value / 255, only where the space is
    ``"srgb"``), float16, float32 or float64; other numbers are read as
    float64. Each result is computed in float64 and rounded once into the
    output's type (uint8: clamped to [0, 1], nearest of 0..255).

    The result is a new array of ``dtype`` (by default the input's float
    type; float64 for integers), or ``out``: a C-contiguous array of the
    same shape and any of the four types, which may be ``colors`` itself
    to convert in place. ``threads``: ``None`` is one per core (large arrays
    are cut in parallel pieces)."""
    import numpy as np

    if out is not None and dtype is not None and np.dtype(dtype) != out.dtype:
        raise ValueError(f"dtype: {np.dtype(dtype)} disagrees with out's {out.dtype}")
    if out is not None and out is colors:
        # In place: the array itself, whose dtype and layout must do.
        _native.color_convert(out, out, src, dst, threads=threads)
        return out
    array = np.asarray(colors)
    if array.ndim == 0 or array.shape[-1] not in (3, 4):
        raise ValueError(f"colors: expected an array of shape (..., 3) or (..., 4), "
                         f"got {array.shape}")
    if array.dtype.name not in _DTYPES:
        if array.dtype.kind not in "fiub":
            raise TypeError(f"colors: expected numbers, got {array.dtype}")
        array = array.astype(np.float64)
    array = np.ascontiguousarray(array)
    if out is None:
        if dtype is None:
            dtype = np.float64 if array.dtype == np.uint8 else array.dtype
        if np.dtype(dtype).name not in _DTYPES:
            raise TypeError(f"dtype: expected one of {', '.join(_DTYPES)}, got {np.dtype(dtype)}")
        out = np.empty(array.shape, dtype=dtype)
    _native.color_convert(array, out, src, dst, threads=threads)
    return out


#: How Oklch hues travel between stops (CSS Color 4).
HueMethod = Literal["shorter", "longer", "increasing", "decreasing"]
#: How colors outside sRGB are brought in: CSS Color 4's gamut mapping
#: (``"map"``), clamping each channel (``"clip"``), or not at all (``"none"``).
Fit = Literal["map", "clip", "none"]
#: A color: a hex string (``"#rgb"``, ``"#rgba"``, ``"#rrggbb"``,
#: ``"#rrggbbaa"``) or 3 or 4 sRGB floats (alpha last, 1 if missing).
ColorLike = Union[str, Sequence[float]]
#: A stop: a color, or ``(color, position)`` with the position in [0, 1].
StopLike = Union[ColorLike, tuple[ColorLike, Optional[float]]]


def parse_hex(text: str) -> tuple[float, float, float, float]:
    """The sRGB color and alpha of a hex color, each in [0, 1]."""
    return _native.color_parse_hex(text)


def _color(value: ColorLike) -> tuple[float, float, float, float]:
    if isinstance(value, str):
        return parse_hex(value)
    numbers = [float(v) for v in value]
    if len(numbers) == 3:
        numbers.append(1.0)
    if len(numbers) != 4:
        raise ValueError(f"a color has 3 or 4 components, got {len(numbers)}: {value!r}")
    return numbers[0], numbers[1], numbers[2], numbers[3]


def _stop(value: StopLike) -> tuple[float, float, float, float, Optional[float]]:
    # (color, position): a pair whose first item is itself a color.
    if isinstance(value, tuple) and len(value) == 2 and not isinstance(value[0], (int, float)):
        color, position = value
        return (*_color(color), None if position is None else float(position))
    return (*_color(cast(ColorLike, value)), None)


def gradient(stops: Sequence[StopLike], n: int, *, space: Space = "oklab",
             hue: HueMethod = "shorter", fit: Fit = "map",
             threads: Optional[int] = None) -> np.ndarray:
    """The gradient through ``stops`` sampled at ``n`` evenly spaced points
    from 0 to 1, as an ``(n, 4)`` float64 array of sRGB and alpha.

    Stops are colors, or ``(color, position)`` pairs; missing positions are
    spread as CSS spreads them. Each pair of neighbours is interpolated in
    ``space`` with alpha premultiplied; in ``"oklch"`` hues follow ``hue``
    and a powerless (achromatic) hue takes its neighbour's. ``fit`` says
    how results outside sRGB come back into it. ``threads``: ``None`` is
    one per core (many samples are cut in parallel pieces)."""
    return _native.color_gradient([_stop(s) for s in stops], n, space=space, hue=hue, fit=fit,
                                  threads=threads)


def render_gradients(path: Union[str, os.PathLike[str]],
                     gradients: Optional[Mapping[str, Sequence[StopLike]]] = None, *,
                     presets: Union[str, Sequence[str]] = (),
                     spaces: Sequence[Space] = ("srgb", "linear", "oklab"),
                     hue: HueMethod = "shorter", fit: Fit = "map", width: int = 1024) -> None:
    """Draws gradient strips as an 8-bit sRGB PNG at ``path`` (whole or not
    at all): for each gradient (``title → stops``) and each preset (a name
    from :data:`PRESETS`, or ``"all"``), a title and one strip per space of
    ``spaces``, ``width`` pixels wide; translucent colors over a
    checkerboard."""
    names = [presets] if isinstance(presets, str) else list(presets)
    panels = [(title, [_stop(s) for s in stops]) for title, stops in (gradients or {}).items()]
    _native.color_render_gradients(path, panels, names, list(spaces), hue=hue, fit=fit, width=width)


#: The preset gradients :func:`render_gradients` draws by name.
PRESETS: tuple[str, ...] = tuple(_native.color_preset_names())
