"""OpenEXR scan line images: read and write with NONE, RLE, ZIPS, ZIP and ZSTD
(OpenEXR 3.5's layout), read PIZ; chunks compressed in parallel.

::

    import numpy as np
    from oxport import exr

    rgb = {c: np.random.rand(540, 960).astype(np.float16) for c in "RGB"}
    exr.write("render.exr", rgb, compression="zstd")
    header, channels = exr.read("render.exr")
    channels["R"].shape, channels["R"].dtype      # (540, 960), float16

Channels are ``(height, width)`` numpy arrays of float16 (HALF), float32
(FLOAT) or uint32 (UINT), named as in the file (``ViewLayer.Combined.R``).
Header values take the shapes the ``openexr`` package gives them, so a header
read by one can be written by the other: boxes as two numpy vectors, vectors
and matrices as numpy arrays (float32 or float64 by type, int32 for integer
ones), ``double`` as a 1-element float64 array, ``rational`` as a
``Fraction``, strings and numbers as such; ``compression`` and ``lineOrder``
are names (``"zip"``, ``"increasing_y"``); ``channels`` a list of
:class:`Channel`; other types (``keycode``, ``timecode``, ``tiledesc``,
``envmap``, ``preview`` and types oxport does not know) come as
:class:`Attribute` with the type named. Tiled, deep and multi-part files,
and the lossy methods raise :class:`oxport.UnsupportedError`.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from dataclasses import dataclass
from fractions import Fraction
from typing import TYPE_CHECKING, Any, Literal, Optional, Union

from . import _native

if TYPE_CHECKING:
    import numpy as np
    import numpy.typing as npt

__all__ = ["Attribute", "Channel", "PixelType", "convert", "read", "read_header", "write"]

PixelType = Literal["half", "float", "uint"]
Compression = Literal["none", "rle", "zips", "zip", "zstd"]

_DTYPES = {"half": "<f2", "float": "<f4", "uint": "<u4"}


@dataclass(frozen=True)
class Channel:
    """An entry of the ``channels`` attribute."""

    name: str
    pixel_type: PixelType
    linear: bool = False
    x_sampling: int = 1
    y_sampling: int = 1


@dataclass(frozen=True)
class Attribute:
    """A header value with its OpenEXR type named: for the types a plain
    Python value does not imply (``keycode``: 7 ints; ``timecode``: 2 ints;
    ``tiledesc``: x size, y size, mode; ``envmap``: an int; ``preview``:
    width, height, RGBA bytes) and for any other type name, whose value is
    its bytes."""

    type: str
    value: Any


def _to_python(type_name: str, value: Any) -> Any:
    """A value from the native module in the ``openexr`` package's shape."""
    import numpy as np

    if type_name in ("box2i", "box2f"):
        dtype = np.int32 if type_name == "box2i" else np.float32
        return (np.array(value[0], dtype), np.array(value[1], dtype))
    vectors: dict[str, type[Any]] = {"v2i": np.int32, "v3i": np.int32, "v2f": np.float32,
                                     "v3f": np.float32, "v2d": np.float64, "v3d": np.float64}
    if type_name in vectors:
        return np.array(value, vectors[type_name])
    matrices: dict[str, tuple[type[Any], int]] = {
        "m33f": (np.float32, 3), "m33d": (np.float64, 3), "m44f": (np.float32, 4), "m44d": (np.float64, 4)}
    if type_name in matrices:
        dtype, n = matrices[type_name]
        return np.array(value, dtype).reshape(n, n)
    if type_name == "double":
        return np.array([value], np.float64)
    if type_name == "rational":
        return Fraction(value[0], value[1]) if value[1] else Attribute("rational", value)
    if type_name == "chlist":
        return [Channel(*entry) for entry in value]
    if type_name in ("float", "int", "string", "stringvector", "floatvector", "chromaticities",
                     "compression", "lineOrder"):
        return value
    return Attribute(type_name, value)


def _from_python(name: str, value: Any) -> tuple[str, Any]:
    """The OpenEXR type and native value of a header value."""
    import numpy as np

    if isinstance(value, Attribute):
        return value.type, value.value
    if name == "compression":
        return "compression", str(value)
    if name == "lineOrder":
        # The openexr package's enum (LineOrder.INCREASING_Y) or a name.
        return "lineOrder", str(getattr(value, "name", value)).lower()
    if isinstance(value, bool):
        raise TypeError(f"header {name!r}: a bool has no OpenEXR type; use int or Attribute")
    if isinstance(value, (int, np.integer)):
        return "int", int(value)
    if isinstance(value, (float, np.floating)):
        return "float", float(value)
    if isinstance(value, str):
        return "string", value
    if isinstance(value, Fraction):
        return "rational", (value.numerator, value.denominator)
    if isinstance(value, list) and value and all(isinstance(v, Channel) for v in value):
        return "chlist", [(c.name, c.pixel_type, c.linear, c.x_sampling, c.y_sampling) for c in value]
    if isinstance(value, list) and all(isinstance(v, str) for v in value):
        return "stringvector", value
    if isinstance(value, list) and all(isinstance(v, (int, float)) for v in value):
        return "floatvector", [float(v) for v in value]
    if isinstance(value, tuple) and len(value) == 8 and all(isinstance(v, (int, float)) for v in value):
        return "chromaticities", value
    if isinstance(value, tuple) and len(value) == 2:
        lo, hi = np.asarray(value[0]), np.asarray(value[1])
        if lo.shape == hi.shape == (2,):
            if lo.dtype.kind in "iu" and hi.dtype.kind in "iu":
                return "box2i", (tuple(int(v) for v in lo), tuple(int(v) for v in hi))
            return "box2f", (tuple(float(v) for v in lo), tuple(float(v) for v in hi))
    if isinstance(value, np.ndarray):
        kind = "i" if value.dtype.kind in "iu" else "d" if value.dtype == np.float64 else "f"
        shape = value.shape
        if shape == (1,) and kind == "d":
            return "double", float(value[0])
        if shape in ((2,), (3,)):
            return f"v{shape[0]}{kind}", [v.item() for v in value]
        if shape in ((3, 3), (4, 4)) and kind != "i":
            return f"m{shape[0]}{shape[0]}{kind}", [float(v) for v in value.ravel()]
    raise TypeError(
        f"header {name!r}: no OpenEXR type for {type(value).__name__} {value!r}; "
        "wrap it in oxport.exr.Attribute(type, value)")


def read(path: Union[str, os.PathLike[str]], *, threads: Optional[int] = None
         ) -> tuple[dict[str, Any], dict[str, np.ndarray]]:
    """Reads the single-part scan line OpenEXR file ``path``: its header
    (every attribute, in file order) and its channels, each a ``(height,
    width)`` array of float16, float32 or uint32. Chunks are decompressed on
    ``threads`` threads (``None``: one per core), straight into the
    arrays."""
    attributes, (width, height), planes = _native.exr_read(path, threads=threads)
    header = {name: _to_python(type_name, value) for name, type_name, value in attributes}
    channels = {name: plane.view(_DTYPES[pixel_type]).reshape(height, width)
                for name, pixel_type, plane in planes}
    return header, channels


def read_header(path: Union[str, os.PathLike[str]]) -> dict[str, Any]:
    """Reads the header of the OpenEXR file ``path`` (every attribute, in file
    order, as :func:`read` gives them) without its pixels; the offset table is
    checked as :func:`read` would."""
    attributes, _ = _native.exr_read_header(path)
    return {name: _to_python(type_name, value) for name, type_name, value in attributes}


def write(path: Union[str, os.PathLike[str]], channels: Mapping[str, npt.ArrayLike], *,
          header: Optional[Mapping[str, Any]] = None, compression: Compression = "zip",
          level: Optional[int] = None, threads: Optional[int] = None) -> None:
    """Writes ``channels`` (name → ``(height, width)`` array of float16,
    float32 or uint32, all the same shape) as a scan line OpenEXR file at
    ``path``, whole or not at all.

    ``header``: attributes to write besides the required ones (a header from
    :func:`read` or from the ``openexr`` package works); ``channels`` and
    ``compression`` come from the arguments, the other required attributes
    from ``header`` when it has them. ``compression``: ``"none"``,
    ``"rle"``, ``"zips"``, ``"zip"`` or ``"zstd"``. ``level``: deflate 0 to
    12 for zip and zips, zstd's levels for zstd; ``None`` is OpenEXR's
    default (4 and 5), which writes the bytes OpenEXR writes. ``threads``:
    ``None`` is one per core."""
    import numpy as np

    if not channels:
        raise ValueError("channels: an image needs at least one channel")
    types: dict[np.dtype[Any], PixelType] = {
        np.dtype(np.float16): "half", np.dtype(np.float32): "float", np.dtype(np.uint32): "uint"}
    arrays: dict[str, np.ndarray] = {}
    for name in sorted(channels, key=lambda n: n.encode()):
        array = np.asarray(channels[name])
        if array.dtype.newbyteorder("=") not in types or array.ndim != 2:
            raise TypeError(f"channel {name!r}: expected a 2-D array of float16, float32 or uint32, "
                            f"got {array.ndim}-D {array.dtype}")
        arrays[name] = np.ascontiguousarray(array, array.dtype.newbyteorder("<"))
    shapes = {a.shape for a in arrays.values()}
    if len(shapes) != 1:
        raise ValueError(f"channels: every channel needs the same shape, got {sorted(shapes)}")
    height, width = shapes.pop()
    given = dict(header or {})
    previous = {c.name: c for c in given.get("channels", []) if isinstance(c, Channel)}
    window = (np.array([0, 0], np.int32), np.array([width - 1, height - 1], np.int32))
    full: dict[str, Any] = {
        "dataWindow": window,
        "displayWindow": window,
        "lineOrder": "increasing_y",
        "pixelAspectRatio": 1.0,
        "screenWindowCenter": np.array([0.0, 0.0], np.float32),
        "screenWindowWidth": 1.0,
        "type": "scanlineimage",
    }
    full.update({k: v for k, v in given.items() if not (k == "type" and not isinstance(v, str))})
    full["channels"] = [
        Channel(name, types[a.dtype.newbyteorder("=")],
                previous[name].linear if name in previous else False)
        for name, a in arrays.items()]
    full["compression"] = compression
    attributes = [(name, *_from_python(name, full[name])) for name in sorted(full)]
    _native.exr_write(path, attributes, list(arrays.values()), level=level, threads=threads)


def convert(src: Union[str, os.PathLike[str]], dst: Union[str, os.PathLike[str]], *,
            compression: Compression = "zstd", level: Optional[int] = None,
            threads: Optional[int] = None) -> tuple[int, int]:
    """Rewrites the OpenEXR file ``src`` as ``dst`` with another compression
    (pixels and attributes unchanged; ``dst`` may be ``src``, replaced only
    once the new file is whole). Returns the sizes of ``src`` and ``dst`` in
    bytes."""
    return _native.exr_convert(src, dst, compression=compression, level=level, threads=threads)
