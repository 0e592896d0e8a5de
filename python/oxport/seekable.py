"""Zstandard seekable archives: independent zstd frames and a seek table, so
that any byte range is read by decompressing only the frames it lies in.
Blender's compressed ``.blend`` files are such archives.

Read a range of a local or remote archive, as a file object that ``tarfile``,
``zipfile``, ``pickle`` and ``shutil.copyfileobj`` accept::

    import oxport.seekable

    with oxport.seekable.open("scene.blend") as f:
        f.seek(1 << 20)
        header = f.read(4096)

    import fsspec  # HTTP, S3...: only the seek table and the frames read are fetched
    with fsspec.open("https://example.com/big.tar.zst", "rb") as remote:
        with oxport.seekable.open(remote) as f:
            f.seek(400_000_000)
            f.read(4096)

Write one, compressed on every core::

    with oxport.seekable.open("data.zst", "wb", level=3, frame_size=256 << 10) as f:
        f.write(payload)

    oxport.seekable.pack("scene.tar", "scene.tar.zst")
    oxport.seekable.unpack("scene.tar.zst", "scene.tar")

Archives without a seek table (what the ``zstd`` tool writes) are read too:
indexed from their frame headers, or decompressed in order when the frames
do not record their sizes (a seek backwards then starts over).
"""

from __future__ import annotations

import io
import os
from typing import IO, Literal, NamedTuple, Optional, Union

from ._files import Output
from ._native import (
    SEEKABLE_CHECKSUMS,
    SEEKABLE_FRAME_SIZE,
    SEEKABLE_LEVEL,
    SeekableReader,
    SeekableWriter,
    seekable_pack,
    seekable_unpack,
)

__all__ = ["Frame", "Packed", "SeekableFile", "open", "pack", "unpack"]

#: The library's defaults (``oxport::seekable::WriteOptions``): zstd level 3;
#: frames of 2 MiB, which cost about 1.4% in size against one zstd stream;
#: a checksum per frame.
DEFAULT_LEVEL: int = SEEKABLE_LEVEL
DEFAULT_FRAME_SIZE: int = SEEKABLE_FRAME_SIZE
DEFAULT_CHECKSUMS: bool = SEEKABLE_CHECKSUMS

_Path = Union[str, "os.PathLike[str]"]


class Packed(NamedTuple):
    """What writing an archive produced."""

    frames: int
    input_bytes: int
    output_bytes: int


class Frame(NamedTuple):
    """One frame of an archive."""

    compressed_offset: int
    compressed_size: int
    offset: int
    size: int
    #: The low 32 bits of the XXH64 of the frame's data, when the seek table has checksums.
    checksum: Optional[int]


class SeekableFile(io.BufferedIOBase):
    """An archive open for reading (``"rb"``) or writing (``"wb"``); made by :func:`open`."""

    def __init__(self, native: Union[SeekableReader, SeekableWriter], name: object) -> None:
        super().__init__()
        self._reader = native if isinstance(native, SeekableReader) else None
        self._writer = native if isinstance(native, SeekableWriter) else None
        self._position = 0
        self._packed: Optional[Packed] = None
        self.name = name

    # -- the state ---------------------------------------------------------

    def readable(self) -> bool:
        self._check_open()
        return self._reader is not None

    def writable(self) -> bool:
        self._check_open()
        return self._writer is not None

    def seekable(self) -> bool:
        self._check_open()
        return self._reader is not None

    @property
    def mode(self) -> str:
        return "rb" if self._reader is not None else "wb"

    def _check_open(self) -> None:
        if self.closed:
            raise ValueError("I/O operation on closed file")

    def _readable_reader(self) -> SeekableReader:
        self._check_open()
        if self._reader is None:
            raise io.UnsupportedOperation("not readable: the archive is open for writing")
        return self._reader

    # -- reading -----------------------------------------------------------

    @property
    def size(self) -> int:
        """The decompressed size (found by decompressing the archive when
        its frames do not record their sizes)."""
        return self._readable_reader().find_size()

    @property
    def frames(self) -> list[Frame]:
        """The archive's frames (empty when their sizes are not recorded)."""
        return self._readable_reader().frames()

    def read(self, size: Optional[int] = -1) -> bytes:
        reader = self._readable_reader()
        if size is None or size < 0:
            size = max(reader.find_size() - self._position, 0)
        data = reader.read_at(self._position, size)
        self._position += len(data)
        return data

    def read1(self, size: int = -1) -> bytes:
        return self.read(size)

    def readinto(self, buffer: "memoryview | bytearray") -> int:  # type: ignore[override]
        reader = self._readable_reader()
        view = memoryview(buffer).cast("B")
        count = reader.readinto_at(self._position, view)
        self._position += count
        return count

    def readinto1(self, buffer: "memoryview | bytearray") -> int:  # type: ignore[override]
        return self.readinto(buffer)

    def seek(self, offset: int, whence: int = io.SEEK_SET) -> int:
        reader = self._readable_reader()
        if whence == io.SEEK_SET:
            target = offset
        elif whence == io.SEEK_CUR:
            target = self._position + offset
        elif whence == io.SEEK_END:
            target = reader.find_size() + offset
        else:
            raise ValueError(f"whence: expected 0, 1 or 2, got {whence!r}")
        if target < 0:
            raise ValueError(f"negative seek position {target}")
        self._position = target
        return target

    def tell(self) -> int:
        self._check_open()
        return self._position

    # -- writing -----------------------------------------------------------

    def write(self, data: "bytes | bytearray | memoryview") -> int:  # type: ignore[override]
        self._check_open()
        if self._writer is None:
            raise io.UnsupportedOperation("not writable: the archive is open for reading")
        count = self._writer.write(data)
        self._position += count
        return count

    @property
    def packed(self) -> Optional[Packed]:
        """What was written, once a file open for writing is closed."""
        return self._packed

    def close(self) -> None:
        """Closes the file; an archive open for writing is finished (its last
        frames and seek table written) and put in place."""
        if self.closed:
            return
        try:
            if self._writer is not None:
                packed = self._writer.close()
                if packed is not None:
                    self._packed = packed
        finally:
            super().close()

    def __exit__(self, kind: object, value: object, traceback: object) -> None:
        # An exception inside the `with` leaves no archive behind.
        if kind is not None and self._writer is not None:
            self._writer.discard()
        super().__exit__(kind, value, traceback)  # type: ignore[arg-type]

    def __repr__(self) -> str:
        state = "closed" if self.closed else self.mode
        return f"<oxport.seekable.SeekableFile {self.name!r} {state}>"


def open(
    file: Union[_Path, IO[bytes]],
    mode: Literal["rb", "r", "wb", "w"] = "rb",
    *,
    level: int = DEFAULT_LEVEL,
    frame_size: int = DEFAULT_FRAME_SIZE,
    checksums: bool = DEFAULT_CHECKSUMS,
    threads: Optional[int] = None,
) -> SeekableFile:
    """Opens a seekable archive.

    ``file`` is a path, or (for reading) a readable, seekable binary file
    object such as an ``fsspec`` file over HTTP or S3, from which only the seek
    table and the frames a read needs are fetched.

    Writing (``"wb"``, paths only): ``level`` is zstd's (1 to 22, negative for
    faster), ``frame_size`` the decompressed bytes per frame (1 byte to 1 GiB;
    smaller frames make random reads cheaper and cost ratio), ``checksums``
    whether the seek table carries a checksum per frame. The archive appears
    when the file is closed, whole; an exception inside ``with`` leaves none.
    ``threads``: ``None`` is one per core.
    """
    if mode in ("rb", "r"):
        native_reader = SeekableReader(file, threads=threads)
        name = getattr(file, "name", file)
        return SeekableFile(native_reader, name)
    if mode in ("wb", "w"):
        if not isinstance(file, (str, os.PathLike)):
            raise TypeError(f"file: writing takes a path, got {type(file).__name__}")
        native_writer = SeekableWriter(
            file, level=level, frame_size=frame_size, checksums=checksums, threads=threads
        )
        return SeekableFile(native_writer, file)
    raise ValueError(f"mode: expected 'rb' or 'wb', got {mode!r}")


def pack(
    src: _Path,
    dst: Output,
    *,
    level: int = DEFAULT_LEVEL,
    frame_size: int = DEFAULT_FRAME_SIZE,
    checksums: bool = DEFAULT_CHECKSUMS,
    threads: Optional[int] = None,
) -> Packed:
    """Compresses the file ``src`` into the archive ``dst`` (whole or not at
    all; a path, a URL, or a writable binary file object, which receives the
    archive once it is whole), frames on every core; the options are those
    of :func:`open`."""
    return seekable_pack(src, dst, level=level, frame_size=frame_size, checksums=checksums, threads=threads)


def unpack(src: _Path, dst: Output, *, threads: Optional[int] = None) -> int:
    """Decompresses the archive ``src`` (seekable or any zstd file) into the
    file ``dst`` (whole or not at all; as :func:`pack` takes it), frames in
    parallel. Returns the size."""
    return seekable_unpack(src, dst, threads=threads)
