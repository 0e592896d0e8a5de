"""OpenEXR images. Read: every layout (scan-line and tiled parts with their
mipmap or ripmap levels, multi-part and multi-view files, deep parts,
subsampled channels) and every lossless method and lossy one but LJ2K
(HTJ2K256 and HTJ2K32 too), to the pixels the OpenEXR library decodes, bit
for bit; :func:`open` reads only the chunks a read needs.
Written: scan-line and tiled parts (one level, or mipmap and ripmap levels
given or made as ``exrmaketiled`` makes them), deep scan-line and tiled
parts (with mipmap or ripmap levels, each given), and multi-part files of
any of them (:func:`write_parts`), with NONE, RLE, ZIPS, ZIP, PIZ, PXR24,
B44, B44A, DWAA, DWAB, ZSTD, HTJ2K256 and HTJ2K32 (OpenEXR's bytes, the
lossy ones too; HTJ2K's codestreams but for their comment, which names the
encoder). Chunks are compressed and decompressed in parallel.

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

    header, yc = exr.read("Rec709_YC.exr")        # luminance/chroma
    r, g, b = exr.rgb_from_yc(yc["Y"], yc["RY"], yc["BY"],
                              chromaticities=header.get("chromaticities"))

    exr.write("texture.exr", rgb, tiles=(64, 64), levels="mipmap")   # levels made
    exr.write_parts("stereo.exr", [
        exr.OutputPart(rgb, name="rgba.left", header={"view": "left"}, compression="dwaa"),
        exr.OutputPart(rgb, name="rgba.right", header={"view": "right"}, compression="dwaa")])

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
:class:`Attribute` with the type named. LJ2K files (OpenEXR 3.5's
experimental lossy HTJ2K) raise :class:`oxport.UnsupportedError`.
"""

from __future__ import annotations

import os
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, BinaryIO, Literal, Optional, Union

from . import _native
from ._files import Output

if TYPE_CHECKING:
    import numpy as np
    import numpy.typing as npt

__all__ = ["Attribute", "Channel", "DeepPixels", "File", "Level", "OutputPart", "Part", "PixelType", "Pixels", "Window",
           "convert", "open", "read", "read_header", "rgb_from_yc", "write", "write_parts", "yc_from_rgb"]

PixelType = Literal["half", "float", "uint"]
Compression = Literal["none", "rle", "zips", "zip", "piz", "pxr24", "b44", "b44a", "dwaa", "dwab", "zstd",
                      "htj2k256", "htj2k32"]

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
    its bytes. Header values are converted to and from their OpenEXR types
    in the native module, once."""

    type: str
    value: Any


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
        self.parts: list[Part] = self._reader.parts()

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
        return self._reader.read(self.part(part).index, level=level, channels=channels, window=window,
                                 threads=threads)

    def read_deep(self, part: Union[int, str] = 0, *, level: Union[int, tuple[int, int]] = 0,
                  channels: Optional[Sequence[str]] = None, window: Optional[Window] = None,
                  threads: Optional[int] = None) -> DeepPixels:
        """Reads the samples of a deep part (``deepscanline`` or
        ``deeptile``), with the arguments :meth:`read` takes."""
        return self._reader.read_deep(self.part(part).index, level=level, channels=channels, window=window,
                                      threads=threads)

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


LevelMode = Literal["one", "mipmap", "ripmap"]
Rounding = Literal["down", "up"]

_TYPES = {dtype: name for name, dtype in _DTYPES.items()}


Pixels = Union[Mapping[str, Union["npt.ArrayLike", Sequence["np.ndarray"]]], DeepPixels, Sequence[DeepPixels]]
"""A part's pixels to write: name → array (or one array per level), a
:class:`DeepPixels`, or one :class:`DeepPixels` per level."""


@dataclass(frozen=True)
class OutputPart:
    """A part to write with :func:`write_parts` (or, alone, :func:`write`).

    ``channels``: name → ``(height, width)`` array of float16, float32 or
    uint32, all the same shape; for a part with levels, each name may map
    to a list of numpy arrays instead, one per level in the order of
    :attr:`Part.levels` (give only the full resolution and oxport makes
    the other levels with ``exrmaketiled``'s filter, clamped at the edges).
    A :class:`DeepPixels` makes a deep part; a list of them, one per level
    in the order of :attr:`Part.levels`, a deep tiled part with mipmap or
    ripmap levels (every level given: no filter makes a deep part's
    smaller levels).

    A channel the ``header``'s ``channels`` list samples every (x, y)
    pixels (luminance/chroma: ``RY`` and ``BY`` every 2×2) takes an array
    that much smaller; scan-line parts only, as OpenEXR has them.

    ``name``: the part's name (every part of a multi-part file needs one).
    ``header``: attributes to write besides the required ones (a header from
    :func:`read` or from the ``openexr`` package works; its ``type``,
    ``tiles`` and ``chunkCount`` are replaced by what this part is).
    ``compression``: ``"none"``, ``"rle"``, ``"zips"``, ``"zip"``,
    ``"piz"`` (wavelet + Huffman, lossless), ``"pxr24"`` (FLOAT channels
    keep their top 24 bits, rounded), ``"b44"`` or ``"b44a"`` (HALF
    channels in 4×4 blocks of 14 bytes, lossy; b44a stores flat blocks in
    3), ``"dwaa"`` or ``"dwab"`` (R, G, B, Y, RY, BY as quantized 8×8 DCT
    blocks at OpenEXR's default quality, A by runs; 32 or 256 lines a chunk),
    ``"zstd"``, or ``"htj2k256"`` or ``"htj2k32"`` (lossless JPEG 2000
    with high-throughput block coding, 256 or 32 lines a chunk); deep parts
    take ``none``, ``rle`` or ``zips``. ``None``: ``zip``, or ``zips`` for
    a deep part.
    ``tiles``: ``(width, height)`` of a tile, for a tiled part (``None``:
    scan lines). ``levels``: ``"one"``, ``"mipmap"`` or ``"ripmap"``, for a
    tiled part; ``rounding``: how level sizes round, ``"down"`` or
    ``"up"``."""

    channels: Pixels
    name: Optional[str] = None
    header: Optional[Mapping[str, Any]] = None
    compression: Optional[Compression] = None
    tiles: Optional[tuple[int, int]] = None
    levels: LevelMode = "one"
    rounding: Rounding = "down"

    def _native(self) -> _native.ExrNewPart:
        """The part as the native writer takes it. The header written, and
        the file's order of channels, are the library's rule
        (``oxport::exr::NewPart``)."""
        import numpy as np

        if self.tiles is None and self.levels != "one":
            raise ValueError(f"levels={self.levels!r} needs tiles=(width, height)")
        given = dict(self.header or {})
        arrays: dict[str, list[np.ndarray]] = {}
        counts: Optional[list[np.ndarray]] = None
        deep = [self.channels] if isinstance(self.channels, DeepPixels) else self.channels
        if isinstance(deep, (list, tuple)) and deep and all(isinstance(d, DeepPixels) for d in deep):
            counts = [np.ascontiguousarray(level.counts, "<u4") for level in deep]
            for level in counts:
                if level.ndim != 2:
                    raise TypeError(f"counts: expected a 2-D array, got {level.ndim}-D")
            height, width = counts[0].shape
            names = list(deep[0].channels)
            for level in deep:
                if list(level.channels) != names:
                    raise ValueError(f"channels: every level needs the same channels, got {names} and "
                                     f"{list(level.channels)}")
                for name, samples in level.channels.items():
                    arrays.setdefault(name, []).append(_samples(name, samples, 1))
        elif not isinstance(self.channels, Mapping):
            raise TypeError("channels: expected a mapping of names to arrays, a DeepPixels or a list of "
                            f"DeepPixels, got {type(self.channels).__name__}")
        else:
            for name, planes in self.channels.items():
                arrays[name] = [_samples(name, level, 2) for level in _levels(planes)]
            # A channel the header says is subsampled holds a sample every
            # (x, y) pixels: its array is that much smaller.
            sampling = {c.name: (c.x_sampling, c.y_sampling)
                        for c in given.get("channels", []) if isinstance(c, Channel)}
            shapes = {(a[0].shape[0] * sampling.get(n, (1, 1))[1], a[0].shape[1] * sampling.get(n, (1, 1))[0])
                      for n, a in arrays.items()}
            if len(shapes) > 1:
                raise ValueError(f"channels: every channel needs the same shape (times its sampling), got "
                                 f"{sorted(shapes)}")
            height, width = shapes.pop() if shapes else (0, 0)
            if len({len(a) for a in arrays.values()}) > 1:
                raise ValueError("channels: every channel needs the same number of levels")
        if not arrays:
            raise ValueError("channels: an image needs at least one channel")
        if self.name is not None:
            given["name"] = self.name
        # The part's channels are its arrays'; a given list only lends them
        # its linear flags and sampling (other packages' entries are passed over).
        known = [c for c in given.pop("channels", []) if isinstance(c, Channel)]
        if known:
            given["channels"] = known
        tiles = None if self.tiles is None else (int(self.tiles[0]), int(self.tiles[1]))
        return _native.ExrNewPart(
            width=width, height=height,
            channels={name: _TYPES[a[0].dtype.str] for name, a in arrays.items()},
            levels=[list(planes) for planes in zip(*arrays.values())],
            attributes=given,
            compression=self.compression, tiles=tiles, level_mode=self.levels, rounding=self.rounding,
            counts=counts)


def _levels(value: Union[npt.ArrayLike, Sequence[np.ndarray]]) -> list[Any]:
    """A channel's levels: a list (or tuple) of numpy arrays is one per
    level; anything else is one array."""
    import numpy as np

    if isinstance(value, (list, tuple)) and value and all(isinstance(v, np.ndarray) for v in value):
        return list(value)
    return [value]


def _samples(name: str, value: npt.ArrayLike, ndim: int) -> np.ndarray:
    """A channel's array, little-endian and contiguous, or a clear error."""
    import numpy as np

    array = np.asarray(value)
    if array.dtype.newbyteorder("=") not in (np.float16, np.float32, np.uint32) or array.ndim != ndim:
        raise TypeError(f"channel {name!r}: expected a {ndim}-D array of float16, float32 or uint32, "
                        f"got {array.ndim}-D {array.dtype}")
    return np.ascontiguousarray(array, array.dtype.newbyteorder("<"))


def write(path: Output,
          channels: Pixels, *,
          header: Optional[Mapping[str, Any]] = None, compression: Optional[Compression] = None,
          tiles: Optional[tuple[int, int]] = None, levels: LevelMode = "one",
          rounding: Rounding = "down", level: Optional[int] = None,
          threads: Optional[int] = None) -> None:
    """Writes ``channels`` (name → ``(height, width)`` array of float16,
    float32 or uint32, all the same shape; or a :class:`DeepPixels`, or one
    per level) as a single-part OpenEXR file at ``path`` (a path, a URL, or
    a writable binary file object, which receives the file once it is
    whole), whole or not at all.

    ``header``, ``compression``, ``tiles``, ``levels`` and ``rounding``: as
    :class:`OutputPart` has them (scan lines unless ``tiles`` is given;
    ``levels="mipmap"`` with one array per channel has oxport make the
    levels). ``level``: deflate 0 to 12 for zip, zips and pxr24, zstd's
    levels for zstd; ``None`` is OpenEXR's default (4 and 5), which writes
    the bytes OpenEXR writes. ``threads``: ``None`` is one per core."""
    part = OutputPart(channels, header=header, compression=compression, tiles=tiles, levels=levels,
                      rounding=rounding)
    _native.exr_write(path, [part._native()], level=level, threads=threads)


def write_parts(path: Output, parts: Sequence[OutputPart], *,
                level: Optional[int] = None, threads: Optional[int] = None) -> None:
    """Writes ``parts`` as one OpenEXR file at ``path`` (multi-part for more
    than one; each then needs a unique ``name``), whole or not at all;
    ``path`` as :func:`write` takes it.
    The parts share a display window (OpenEXR requires it): the first one a
    part's ``header`` gives, else the smallest that holds every part.
    Chunks of every part are compressed in parallel. ``level`` and
    ``threads``: as :func:`write` has them, for every part."""
    if not parts:
        raise ValueError("parts: a file needs at least one part")
    native = [p._native() for p in parts]
    _native.exr_write(path, native, level=level, threads=threads)


def rgb_from_yc(y: npt.ArrayLike, ry: Optional[npt.ArrayLike] = None, by: Optional[npt.ArrayLike] = None,
                *, chromaticities: Optional[Sequence[float]] = None
                ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """R, G and B (float16, ``y``'s shape) from a luminance/chroma image as
    OpenEXR's ``RgbaInputFile`` makes them, to the same halves: ``y`` (a
    ``(height, width)`` float16 array; height and width even when there is
    chroma) and ``ry`` and ``by`` (``(height / 2, width / 2)``, the chroma
    sampled every 2×2 pixels, as :func:`read` gives a file's ``RY`` and
    ``BY``; both ``None`` for luminance alone). ``chromaticities``: the
    file's (its header's ``chromaticities``: red, green, blue and white x
    and y), ``None`` for Rec. 709. The chroma is filled in across and down
    with OpenEXR's filters, turned to RGB with the luminance weights of the
    chromaticities, and pixels much more saturated than their neighbours are
    desaturated, as OpenEXR does."""
    import numpy as np

    luma = _half_plane("y", y)
    height, width = luma.shape
    chroma = [_half_plane(n, v) for n, v in (("ry", ry), ("by", by)) if v is not None]
    if len(chroma) == 1:
        raise ValueError("ry and by: both or neither")
    for name, c in zip(("ry", "by"), chroma):
        if c.shape != (height // 2, width // 2):
            raise ValueError(f"{name}: shape {c.shape}, expected {(height // 2, width // 2)} for y of {luma.shape}")
    ry_plane, by_plane = chroma if chroma else (None, None)
    r, g, b = _native.exr_rgb_from_yc(width, height, luma, ry_plane, by_plane,
                                      _chromaticities(chromaticities))
    return (r.view(np.float16).reshape(height, width), g.view(np.float16).reshape(height, width),
            b.view(np.float16).reshape(height, width))


def yc_from_rgb(r: npt.ArrayLike, g: npt.ArrayLike, b: npt.ArrayLike, *,
                chromaticities: Optional[Sequence[float]] = None, chroma: bool = True
                ) -> tuple[np.ndarray, Optional[np.ndarray], Optional[np.ndarray]]:
    """Luminance/chroma from R, G and B (``(height, width)`` float16 arrays)
    as OpenEXR's ``RgbaOutputFile`` writes them, to the same halves: Y, and
    RY and BY sampled every 2×2 pixels (``(height / 2, width / 2)``; height
    and width even), ready to write as a file's ``Y``, ``RY`` and ``BY``
    channels. The chroma is low-passed across and down with OpenEXR's
    filter; Y keeps 7 bits of significand and the chroma 5, as OpenEXR
    rounds them. ``chromaticities``: as :func:`rgb_from_yc`. ``chroma=False``:
    Y alone (unrounded, as OpenEXR writes luminance-only files), RY and BY
    ``None``."""
    import numpy as np

    planes = [_half_plane(n, v) for n, v in (("r", r), ("g", g), ("b", b))]
    if len({p.shape for p in planes}) != 1:
        raise ValueError(f"r, g, b: every plane needs the same shape, got {[p.shape for p in planes]}")
    height, width = planes[0].shape
    luma, c = _native.exr_yc_from_rgb(width, height, planes[0], planes[1], planes[2],
                                      _chromaticities(chromaticities), chroma)
    y = luma.view(np.float16).reshape(height, width)
    if c is None:
        return y, None, None
    shape = (height // 2, width // 2)
    return y, c[0].view(np.float16).reshape(shape), c[1].view(np.float16).reshape(shape)


def _half_plane(name: str, value: npt.ArrayLike) -> np.ndarray:
    """A 2-D float16 array, little-endian and contiguous, or a clear error."""
    import numpy as np

    array = np.asarray(value)
    if array.dtype != np.float16 or array.ndim != 2:
        raise TypeError(f"{name}: expected a 2-D float16 array, got {array.ndim}-D {array.dtype}")
    return np.ascontiguousarray(array, "<f2")


def _chromaticities(value: Optional[Sequence[float]]) -> Any:
    """The chromaticities as the native module takes them (8 floats)."""
    if value is None:
        return None
    numbers = tuple(float(v) for v in value)
    if len(numbers) != 8:
        raise ValueError(f"chromaticities: 8 numbers (red, green, blue, white x and y), got {len(numbers)}")
    return numbers


def convert(src: Union[str, os.PathLike[str]], dst: Output, *,
            compression: Compression = "zstd", level: Optional[int] = None,
            threads: Optional[int] = None, scanlines: bool = False,
            tiles: Optional[tuple[int, int]] = None, levels: LevelMode = "one",
            rounding: Rounding = "down") -> tuple[int, int]:
    """Rewrites the OpenEXR file ``src`` as ``dst`` with another compression:
    every part and level, the pixels and attributes unchanged (``dst`` may
    be ``src``, replaced only once the new file is whole). Deep parts take
    ``compression`` when OpenEXR allows it for deep data (none, rle, zips),
    zips otherwise. Returns the sizes of ``src`` and ``dst`` in bytes.
    ``dst`` may be a writable binary file object, which receives the file
    once it is whole.

    ``scanlines``: store every part as scan lines (a tiled part's full
    resolution; its other levels are left out). ``tiles``: store every part
    in tiles of ``(width, height)`` with ``levels`` and ``rounding``; a part
    with the same levels and rounding keeps its own, others have theirs
    made as ``exrmaketiled`` makes them."""
    return _native.exr_convert(
        src, dst, compression=compression, level=level, threads=threads, scanlines=scanlines, tiles=tiles,
        levels=levels, rounding=rounding)
