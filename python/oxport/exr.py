"""OpenEXR images. Read: every layout (scan-line and tiled parts with their
mipmap or ripmap levels, multi-part and multi-view files, deep parts,
subsampled channels) and every method but HTJ2K, to the pixels the OpenEXR
library decodes, bit for bit; :func:`open` reads only the chunks a read needs.
Written: single-part scan-line files with NONE, RLE, ZIPS, ZIP, PXR24 and ZSTD
(OpenEXR 3.5's layout). Chunks are compressed and decompressed in parallel.

::

    import numpy as np
    from oxport import exr

    rgb = {c: np.random.rand(540, 960).astype(np.float16) for c in "RGB"}
    exr.write("render.exr", rgb, compression="zstd")
    header, channels = exr.read("render.exr")
    channels["R"].shape, channels["R"].dtype      # (540, 960), float16

    with exr.open("shot.exr") as f:               # headers and offset tables only
        [p.name for p in f.parts], f.views        # ['rgba.left', ...], ['left', 'right']
        f.read("rgba.left", channels=["R"], window=((0, 0), (255, 255)))
        f.read(0, level=3)                        # a mipmap level
        f.read_deep("deep").counts                # samples per pixel

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
:class:`Attribute` with the type named. HTJ2K files raise
:class:`oxport.UnsupportedError`.
"""

from __future__ import annotations

import os
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import TYPE_CHECKING, Any, BinaryIO, Literal, Optional, Union

from . import _native

if TYPE_CHECKING:
    import numpy as np
    import numpy.typing as npt

__all__ = ["Attribute", "Channel", "DeepPixels", "File", "Level", "Part", "PixelType", "Window", "convert", "open",
           "read", "read_header", "write"]

PixelType = Literal["half", "float", "uint"]
Compression = Literal["none", "rle", "zips", "zip", "pxr24", "zstd"]

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


@dataclass(frozen=True)
class Level:
    """One level of a part: its number across (``x``) and down (``y``) and its
    size in pixels. Scan-line parts and one-level tiled parts have one,
    ``(0, 0)``; a mipmap has ``(0, 0), (1, 1), ...``; a ripmap every
    ``(x, y)``."""

    x: int
    y: int
    width: int
    height: int


@dataclass(frozen=True)
class Part:
    """A part of a file: its header (as :func:`read` gives it) and what it
    holds. A single-part file has one part."""

    index: int
    header: dict[str, Any]
    #: ``"scanlineimage"``, ``"tiledimage"``, ``"deepscanline"`` or ``"deeptile"``.
    type: str
    levels: list[Level]

    @property
    def name(self) -> Optional[str]:
        """The ``name`` attribute (every part of a multi-part file has one)."""
        return self.header.get("name")

    @property
    def view(self) -> Optional[str]:
        """The ``view`` attribute: the view of a stereo file this part holds."""
        return self.header.get("view")

    @property
    def channels(self) -> list[Channel]:
        return list(self.header["channels"])

    @property
    def tiles(self) -> Optional[Attribute]:
        """The ``tiles`` attribute of a tiled part: x size, y size, mode."""
        return self.header.get("tiles")


@dataclass(frozen=True)
class DeepPixels:
    """The samples of a window of a deep part: ``counts[y, x]`` samples at
    each pixel, and each channel's samples in one flat array, pixel after
    pixel (row after row), so that pixel ``(y, x)``'s samples of a channel
    are ``channels[name][offsets[i]:offsets[i + 1]]`` with ``i = y * width
    + x``."""

    counts: np.ndarray
    channels: dict[str, np.ndarray]

    @property
    def offsets(self) -> np.ndarray:
        """Where each pixel's samples start (``height * width + 1`` entries,
        the last the total), as uint64."""
        import numpy as np

        out = np.zeros(self.counts.size + 1, np.uint64)
        np.cumsum(self.counts.ravel(), out=out[1:])
        return out

    def per_pixel(self, name: str) -> np.ndarray:
        """Channel ``name`` in the ``openexr`` package's form: a ``(height,
        width)`` object array holding each pixel's samples as an array, or
        ``None`` where a pixel has none."""
        import numpy as np

        counts = self.counts
        offsets = self.offsets
        samples = self.channels[name]
        out = np.empty(counts.shape, dtype=object)
        flat = out.reshape(-1)
        for i in np.flatnonzero(counts.ravel()):
            flat[i] = samples[offsets[i]:offsets[i + 1]]
        return out


Window = tuple[tuple[int, int], tuple[int, int]]
"""A pixel rectangle ``((x_min, y_min), (x_max, y_max))``, inclusive, as
``dataWindow`` is."""


class File:
    """An OpenEXR file whose headers and offset tables are read, its pixels
    not yet (:func:`open` makes one). Reads fetch and decode only the chunks
    that hold the part, level, channels and window asked for, so a file
    object over HTTP or S3 transfers only those bytes."""

    def __init__(self, file: Union[str, os.PathLike[str], BinaryIO]) -> None:
        self._reader = _native.ExrReader(file)
        self.parts: list[Part] = [
            Part(index, {name: _to_python(type_name, value) for name, type_name, value in attributes},
                 type_name, [Level(*level) for level in levels])
            for index, (attributes, type_name, levels) in enumerate(self._reader.parts())]

    @property
    def multipart(self) -> bool:
        """Whether the file is multi-part."""
        return self._reader.multipart

    @property
    def views(self) -> list[str]:
        """The views of a stereo file: the ``multiView`` attribute of a
        single-part file, or the ``view`` of each part, in order."""
        multi = self.parts[0].header.get("multiView")
        if isinstance(multi, list):
            return list(multi)
        return list(dict.fromkeys(p.view for p in self.parts if p.view is not None))

    def part(self, part: Union[int, str]) -> Part:
        """A part by index or by name."""
        if isinstance(part, str):
            for p in self.parts:
                if p.name == part:
                    return p
            names = [p.name for p in self.parts]
            raise KeyError(f"part {part!r}: the file's parts are {names}")
        if not 0 <= part < len(self.parts):
            raise IndexError(f"part {part}: the file has {len(self.parts)} parts")
        return self.parts[part]

    def read(self, part: Union[int, str] = 0, *, level: Union[int, tuple[int, int]] = 0,
             channels: Optional[Sequence[str]] = None, window: Optional[Window] = None,
             threads: Optional[int] = None) -> dict[str, np.ndarray]:
        """Reads ``channels`` (names; ``None``: every channel) of ``window``
        (in the level's pixel coordinates; ``None``: the level's whole data
        window) of level ``level`` (``n`` is ``(n, n)``) of part ``part`` (an
        index or a name). Each channel is a ``(height, width)`` array of
        float16, float32 or uint32; a subsampled channel (``x_sampling`` 2)
        has the samples that fall in the window, fewer than its pixels. A
        deep part is read with :meth:`read_deep`."""
        chosen, indices, box, levels = self._selection(part, level, channels, window)
        planes = self._reader.read(chosen.index, levels, indices, box, threads=threads)
        return {name: plane.view(_DTYPES[pixel_type]).reshape(height, width)
                for name, pixel_type, width, height, plane in planes}

    def read_deep(self, part: Union[int, str] = 0, *, level: Union[int, tuple[int, int]] = 0,
                  channels: Optional[Sequence[str]] = None, window: Optional[Window] = None,
                  threads: Optional[int] = None) -> DeepPixels:
        """Reads the samples of a deep part (``deepscanline`` or
        ``deeptile``), with the arguments :meth:`read` takes."""
        chosen, indices, box, levels = self._selection(part, level, channels, window)
        width, height, counts, planes = self._reader.read_deep(chosen.index, levels, indices, box,
                                                               threads=threads)
        return DeepPixels(counts.view("<u4").reshape(height, width),
                          {name: samples.view(_DTYPES[pixel_type]) for name, pixel_type, samples in planes})

    def _selection(self, part: Union[int, str], level: Union[int, tuple[int, int]],
                   channels: Optional[Sequence[str]], window: Optional[Window]
                   ) -> tuple[Part, Optional[list[int]], Optional[tuple[int, int, int, int]], tuple[int, int]]:
        chosen = self.part(part)
        names = [c.name for c in chosen.channels]
        indices = None
        if channels is not None:
            missing = [c for c in channels if c not in names]
            if missing:
                raise KeyError(f"channels {missing}: part {chosen.index} has {names}")
            indices = [names.index(c) for c in channels]
        box = None
        if window is not None:
            (x_min, y_min), (x_max, y_max) = window
            box = (int(x_min), int(y_min), int(x_max), int(y_max))
        levels = (level, level) if isinstance(level, int) else (int(level[0]), int(level[1]))
        return chosen, indices, box, levels

    def close(self) -> None:
        """Closes the file (a file object passed in stays open)."""
        self._reader = None  # type: ignore[assignment]

    def __enter__(self) -> File:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def open(file: Union[str, os.PathLike[str], BinaryIO]) -> File:
    """Opens the OpenEXR file ``file`` (a path, or a readable, seekable binary
    file object such as an ``fsspec`` file): reads its headers and offset
    tables, not its pixels. Every layout OpenEXR writes is listed: scan-line
    and tiled parts (with their mipmap or ripmap levels), deep parts,
    multi-part and multi-view files."""
    return File(file)


def read(path: Union[str, os.PathLike[str], BinaryIO], *, part: Union[int, str] = 0,
         level: Union[int, tuple[int, int]] = 0, threads: Optional[int] = None
         ) -> tuple[dict[str, Any], dict[str, np.ndarray]]:
    """Reads part ``part`` (index or name) of the OpenEXR file ``path`` whole
    (level ``level`` of a tiled part): its header (every attribute, in file
    order) and its channels, each a ``(height, width)`` array of float16,
    float32 or uint32. Chunks are decompressed on ``threads`` threads
    (``None``: one per core), straight into the arrays."""
    with open(path) as f:
        return f.part(part).header, f.read(part, level=level, threads=threads)


def read_header(path: Union[str, os.PathLike[str], BinaryIO], *, part: Union[int, str] = 0
                ) -> dict[str, Any]:
    """Reads the header of part ``part`` of the OpenEXR file ``path`` (every
    attribute, in file order, as :func:`read` gives them) without its
    pixels; the offset tables are read and checked as :func:`read` would."""
    with open(path) as f:
        return f.part(part).header


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
    ``"rle"``, ``"zips"``, ``"zip"``, ``"pxr24"`` (FLOAT channels keep their
    top 24 bits, rounded) or ``"zstd"``. ``level``: deflate 0 to 12 for zip,
    zips and pxr24, zstd's levels for zstd; ``None`` is OpenEXR's
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
    # The file is one part of scan lines, whatever the header came from.
    skip = {"type", "tiles", "chunkCount"}
    full.update({k: v for k, v in given.items() if k not in skip})
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
