"""Zstandard compression with the API of Python 3.14's ``compression.zstd``.

A drop-in for ``compression.zstd`` (and ``backports.zstd``): the same
functions, classes, parameters and exceptions, so that::

    from oxport import zstd

    packed = zstd.compress(data, level=10)
    assert zstd.decompress(packed) == data

works as it does with the standard library, faster:

- :func:`decompress` allocates its result once, at the exact size, when the
  frames record their sizes (one-shot compressors always write it), takes
  time linear in the input however many frames it holds, and decompresses
  the frames of a large multi-frame input on every core (``threads``).
- :func:`compress` and the streams write straight into the ``bytes`` they
  return; a growing result is enlarged in place, never assembled from pieces.
- :func:`compress_into` and :func:`decompress_into` fill a caller's buffer.
- :func:`decompress` takes ``max_output_size``: a decompression bomb stops with
  :class:`ZstdError` before it allocates.

Inputs are any bytes-like object, read in place; large ones are worked on
without the GIL.
"""

from __future__ import annotations

import builtins
import enum
import io
import os
import sys
from collections.abc import Iterable, Mapping
from typing import TYPE_CHECKING, Any, Literal, Optional, Union

from . import _native
from ._native import ZstdCompressor, ZstdDecompressor, ZstdDict, ZstdError

if TYPE_CHECKING:
    from _typeshed import ReadableBuffer, StrOrBytesPath, WriteableBuffer

if sys.version_info >= (3, 14):  # Python 3.14 moved the stream helpers.
    from compression._common import _streams
else:
    import _compression as _streams

__all__ = [
    "COMPRESSION_LEVEL_DEFAULT",
    "CompressionParameter",
    "DecompressionParameter",
    "FrameInfo",
    "Strategy",
    "ZstdCompressor",
    "ZstdDecompressor",
    "ZstdDict",
    "ZstdError",
    "ZstdFile",
    "compress",
    "compress_bound",
    "compress_into",
    "decompress",
    "decompress_into",
    "decompressed_size",
    "finalize_dict",
    "get_frame_info",
    "get_frame_size",
    "open",
    "train_dict",
    "zstd_version",
    "zstd_version_info",
]

COMPRESSION_LEVEL_DEFAULT: int = _native.ZSTD_DEFAULT_LEVEL
"""zstd's default compression level (3)."""

zstd_version_info: tuple[int, int, int] = (
    _native.ZSTD_VERSION_NUMBER // 10000,
    _native.ZSTD_VERSION_NUMBER // 100 % 100,
    _native.ZSTD_VERSION_NUMBER % 100,
)
"""The version of the zstd library built in, as integers."""

zstd_version: str = ".".join(map(str, zstd_version_info))
"""The version of the zstd library built in."""

_ZstdDictArg = Union[ZstdDict, tuple[ZstdDict, int], None]

compress = _native.zstd_compress
compress_into = _native.zstd_compress_into
compress_bound = _native.zstd_compress_bound
decompress = _native.zstd_decompress
decompress_into = _native.zstd_decompress_into
decompressed_size = _native.zstd_decompressed_size
get_frame_size = _native.zstd_get_frame_size


class CompressionParameter(enum.IntEnum):
    """Compression parameters: the keys of ``options`` (zstd's own codes)."""

    compression_level = 100
    window_log = 101
    hash_log = 102
    chain_log = 103
    search_log = 104
    min_match = 105
    target_length = 106
    strategy = 107
    enable_long_distance_matching = 160
    ldm_hash_log = 161
    ldm_min_match = 162
    ldm_bucket_size_log = 163
    ldm_hash_rate_log = 164
    content_size_flag = 200
    checksum_flag = 201
    dict_id_flag = 202
    nb_workers = 400
    job_size = 401
    overlap_log = 402

    def bounds(self) -> tuple[int, int]:
        """The lowest and highest values zstd accepts."""
        return _native.zstd_parameter_bounds(self.value, True)


class DecompressionParameter(enum.IntEnum):
    """Decompression parameters: the keys of ``options``."""

    window_log_max = 100

    def bounds(self) -> tuple[int, int]:
        """The lowest and highest values zstd accepts."""
        return _native.zstd_parameter_bounds(self.value, False)


class Strategy(enum.IntEnum):
    """Match-finding strategies, fastest first (``CompressionParameter.strategy``)."""

    fast = 1
    dfast = 2
    greedy = 3
    lazy = 4
    lazy2 = 5
    btlazy2 = 6
    btopt = 7
    btultra = 8
    btultra2 = 9


class FrameInfo:
    """What a frame header records: the decompressed size (``None`` when not
    recorded) and the dictionary id (0: none recorded)."""

    __slots__ = ("decompressed_size", "dictionary_id")

    decompressed_size: Optional[int]
    dictionary_id: int

    def __init__(self, decompressed_size: Optional[int], dictionary_id: int) -> None:
        object.__setattr__(self, "decompressed_size", decompressed_size)
        object.__setattr__(self, "dictionary_id", dictionary_id)

    def __repr__(self) -> str:
        return (
            f"FrameInfo(decompressed_size={self.decompressed_size}, "
            f"dictionary_id={self.dictionary_id})"
        )

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError(f"can't set attribute {name!r}")


def get_frame_info(frame_buffer: ReadableBuffer) -> FrameInfo:
    """The header of the frame at the start of ``frame_buffer`` (6 to 18
    bytes are enough)."""
    return FrameInfo(*_native.zstd_get_frame_info(frame_buffer))


def train_dict(samples: Iterable[ReadableBuffer], dict_size: int) -> ZstdDict:
    """A dictionary of at most ``dict_size`` bytes trained on ``samples``
    (bytes-like objects, typically many small files)."""
    return _native.zstd_train_dict(samples, dict_size)


def finalize_dict(
    zstd_dict: ZstdDict, /, samples: Iterable[ReadableBuffer], dict_size: int, level: int
) -> ZstdDict:
    """``zstd_dict`` (often raw content) completed with the statistics of
    ``samples`` for compression at ``level``."""
    return _native.zstd_finalize_dict(zstd_dict, samples, dict_size, level)


_MODE_CLOSED, _MODE_READ, _MODE_WRITE = 0, 1, 2


class ZstdFile(_streams.BaseStream):
    """A file object that compresses what is written to it, or decompresses
    what is read from it (every frame, one after another).

    ``file`` is a path or a binary file object; ``mode`` is ``"r"`` (default),
    ``"w"``, ``"x"`` or ``"a"`` (``b`` may follow). ``level``, ``options``
    and ``zstd_dict`` are as for :class:`ZstdCompressor` (writing) or
    :class:`ZstdDecompressor` (reading).
    """

    FLUSH_BLOCK: Literal[1] = ZstdCompressor.FLUSH_BLOCK
    FLUSH_FRAME: Literal[2] = ZstdCompressor.FLUSH_FRAME

    def __init__(
        self,
        file: Union[StrOrBytesPath, io.IOBase, object],
        /,
        mode: str = "r",
        *,
        level: Optional[int] = None,
        options: Optional[Mapping[int, int]] = None,
        zstd_dict: _ZstdDictArg = None,
    ) -> None:
        self._fp: Any = None
        self._close_fp = False
        self._mode = _MODE_CLOSED
        self._buffer: Optional[io.BufferedReader] = None
        if not isinstance(mode, str):
            raise ValueError("mode must be a str")
        if options is not None and not isinstance(options, dict):
            raise TypeError("options must be a dict or None")
        mode = mode.removesuffix("b")
        if mode == "r":
            if level is not None:
                raise TypeError("level is illegal in read mode")
            self._mode = _MODE_READ
        elif mode in {"w", "a", "x"}:
            if level is not None and not isinstance(level, int):
                raise TypeError("level must be int or None")
            self._compressor = ZstdCompressor(level=level, options=options, zstd_dict=zstd_dict)
            self._pos = 0
            self._mode = _MODE_WRITE
        else:
            raise ValueError(f"Invalid mode: {mode!r}")

        if isinstance(file, (str, bytes, os.PathLike)):
            self._fp = builtins.open(file, mode + "b")
            self._close_fp = True
        elif (mode == "r" and hasattr(file, "read")) or (mode != "r" and hasattr(file, "write")):
            self._fp = file
        else:
            raise TypeError("file must be a file-like object or a str, bytes, or PathLike object")

        if self._mode == _MODE_READ:
            raw = _streams.DecompressReader(
                self._fp, ZstdDecompressor, zstd_dict=zstd_dict, options=options
            )
            self._buffer = io.BufferedReader(raw)

    def _check_not_closed(self) -> None:
        if self.closed:
            raise ValueError("I/O operation on closed file")

    def _check_can_read(self) -> None:
        if self._mode != _MODE_READ:
            self._check_not_closed()
            raise io.UnsupportedOperation("File not open for reading")

    def _check_can_write(self) -> None:
        if self._mode != _MODE_WRITE:
            self._check_not_closed()
            raise io.UnsupportedOperation("File not open for writing")

    def close(self) -> None:
        """Flushes and closes the file (and the underlying file when this
        object opened it). Closing twice does nothing."""
        if self._fp is None:
            return
        try:
            if self._mode == _MODE_READ:
                if getattr(self, "_buffer", None) is not None:
                    assert self._buffer is not None
                    self._buffer.close()
                    self._buffer = None
            elif self._mode == _MODE_WRITE:
                self.flush(self.FLUSH_FRAME)
                self._compressor = None  # type: ignore[assignment]
        finally:
            self._mode = _MODE_CLOSED
            try:
                if self._close_fp:
                    self._fp.close()
            finally:
                self._fp = None
                self._close_fp = False

    def write(self, data: ReadableBuffer, /) -> int:
        """Compresses ``data``; the number of bytes taken (all of them)."""
        self._check_can_write()
        length = memoryview(data).nbytes
        compressed = self._compressor.compress(data)
        self._fp.write(compressed)
        self._pos += length
        return length

    def flush(self, mode: Literal[1, 2] = ZstdCompressor.FLUSH_BLOCK) -> None:
        """Writes out what is compressed so far: ``FLUSH_BLOCK`` (default) or
        ``FLUSH_FRAME``. Does nothing in read mode."""
        if self._mode == _MODE_READ:
            return
        self._check_not_closed()
        if mode not in {self.FLUSH_BLOCK, self.FLUSH_FRAME}:
            raise ValueError(
                "Invalid mode argument, expected either "
                "ZstdFile.FLUSH_FRAME or ZstdFile.FLUSH_BLOCK"
            )
        if self._compressor.last_mode == mode:
            return
        data = self._compressor.flush(mode)
        self._fp.write(data)
        if hasattr(self._fp, "flush"):
            self._fp.flush()

    def read(self, size: Optional[int] = -1) -> bytes:
        """Up to ``size`` decompressed bytes (all of them when negative or
        ``None``); ``b""`` at the end."""
        if size is None:
            size = -1
        self._check_can_read()
        assert self._buffer is not None
        return self._buffer.read(size)

    def read1(self, size: int = -1) -> bytes:
        """Decompressed bytes from at most one read of the underlying file."""
        self._check_can_read()
        assert self._buffer is not None
        if size < 0:
            size = io.DEFAULT_BUFFER_SIZE
        return self._buffer.read1(size)

    def readinto(self, b: WriteableBuffer) -> int:
        """Decompressed bytes into ``b``; the count."""
        self._check_can_read()
        assert self._buffer is not None
        return self._buffer.readinto(b)

    def readinto1(self, b: WriteableBuffer) -> int:
        """Decompressed bytes into ``b`` from at most one underlying read."""
        self._check_can_read()
        assert self._buffer is not None
        return self._buffer.readinto1(b)

    def readline(self, size: Optional[int] = -1) -> bytes:
        """One line of decompressed bytes."""
        self._check_can_read()
        assert self._buffer is not None
        return self._buffer.readline(size)

    def seek(self, offset: int, whence: int = io.SEEK_SET) -> int:
        """Moves in the decompressed data (emulated: backwards reads again
        from the start). Only in read mode."""
        self._check_can_read()
        assert self._buffer is not None
        return self._buffer.seek(offset, whence)

    def peek(self, size: int = -1) -> bytes:
        """Buffered decompressed bytes without moving (at least one unless at the end)."""
        self._check_can_read()
        assert self._buffer is not None
        return self._buffer.peek(size)

    def __next__(self) -> bytes:
        self._check_can_read()
        assert self._buffer is not None
        if ret := self._buffer.readline():
            return ret
        raise StopIteration

    def tell(self) -> int:
        """The position in the decompressed data."""
        self._check_not_closed()
        if self._mode == _MODE_READ:
            assert self._buffer is not None
            return self._buffer.tell()
        return self._pos

    def fileno(self) -> int:
        """The file descriptor of the underlying file."""
        self._check_not_closed()
        return self._fp.fileno()  # type: ignore[no-any-return]

    @property
    def name(self) -> Union[str, bytes]:
        """The name of the underlying file."""
        self._check_not_closed()
        return self._fp.name  # type: ignore[no-any-return]

    @property
    def mode(self) -> Literal["rb", "wb"]:
        """``"rb"`` or ``"wb"``."""
        return "wb" if self._mode == _MODE_WRITE else "rb"

    @property
    def closed(self) -> bool:
        """Whether the file is closed."""
        return self._mode == _MODE_CLOSED

    def seekable(self) -> bool:
        """Whether the file can seek (read mode over a seekable file)."""
        return self.readable() and self._buffer is not None and self._buffer.seekable()

    def readable(self) -> bool:
        """Whether the file is open for reading."""
        self._check_not_closed()
        return self._mode == _MODE_READ

    def writable(self) -> bool:
        """Whether the file is open for writing."""
        self._check_not_closed()
        return self._mode == _MODE_WRITE


def open(  # noqa: A001 - the name of the standard library's function
    file: Union[StrOrBytesPath, io.IOBase, object],
    /,
    mode: str = "rb",
    *,
    level: Optional[int] = None,
    options: Optional[Mapping[int, int]] = None,
    zstd_dict: _ZstdDictArg = None,
    encoding: Optional[str] = None,
    errors: Optional[str] = None,
    newline: Optional[str] = None,
) -> Union[ZstdFile, io.TextIOWrapper]:
    """A :class:`ZstdFile` in binary modes (``"rb"``, ``"wb"``, ``"xb"``,
    ``"ab"``), or a text stream over one in text modes (``"rt"``...)."""
    text_mode = "t" in mode
    mode = mode.replace("t", "")
    if text_mode:
        if "b" in mode:
            raise ValueError(f"Invalid mode: {mode!r}")
    else:
        if encoding is not None:
            raise ValueError("Argument 'encoding' not supported in binary mode")
        if errors is not None:
            raise ValueError("Argument 'errors' not supported in binary mode")
        if newline is not None:
            raise ValueError("Argument 'newline' not supported in binary mode")
    binary_file = ZstdFile(file, mode, level=level, options=options, zstd_dict=zstd_dict)
    if text_mode:
        return io.TextIOWrapper(binary_file, encoding, errors, newline)
    return binary_file
