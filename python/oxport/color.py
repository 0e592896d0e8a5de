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

from typing import TYPE_CHECKING, Literal, Optional

from . import _native

if TYPE_CHECKING:
    import numpy as np
    import numpy.typing as npt

#: A color space: ``"srgb"`` (encoded, what ``#rrggbb`` means), ``"linear"``
#: (or ``"srgb-linear"``: linear-light sRGB), ``"oklab"``, ``"oklch"``.
Space = Literal["srgb", "linear", "srgb-linear", "oklab", "oklch"]


def convert(colors: npt.ArrayLike, src: Space, dst: Space, *,
            threads: Optional[int] = None) -> np.ndarray:
    """``colors`` (an array of shape ``(..., 3)``) converted from ``src`` to
    ``dst``, as a new array of the same shape: float32 stays float32, other
    floats and integers become float64; uint8 is 8-bit sRGB (``src`` must be
    ``"srgb"``), read as ``value / 255``. ``threads``: ``None`` is one per
    core (large arrays are cut in parallel pieces)."""
    import numpy as np

    array = np.asarray(colors)
    if array.ndim == 0 or array.shape[-1] != 3:
        raise ValueError(f"colors: expected an array of shape (..., 3), got {array.shape}")
    if array.dtype == np.uint8:
        if src != "srgb":
            raise ValueError(f"colors: uint8 colors are 8-bit sRGB, but src is {src!r}")
        out = array.astype(np.float64) / 255.0
    elif array.dtype == np.float32:
        out = np.array(array, dtype=np.float32, order="C", copy=True)
    elif array.dtype.kind in "fiub":
        out = np.array(array, dtype=np.float64, order="C", copy=True)
    else:
        raise TypeError(f"colors: expected numbers, got {array.dtype}")
    _native.color_convert(out.reshape(-1), src, dst, threads=threads)
    return out
