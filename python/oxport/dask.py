"""Past one machine: many files converted on a Dask cluster, render
sequences as Dask arrays, OBJ libraries as Dask bags.

Needs the ``dask`` extra (``pip install 'oxport[dask]'``); ``import oxport``
does not. oxport brings no scheduler of its own: the same call runs on a
laptop's ``LocalCluster`` and on a cluster of hundreds of workers::

    from dask.distributed import Client
    import oxport.dask

    client = Client()                       # a LocalCluster; or Client("tcp://scheduler:8786")
    summary = oxport.dask.convert("renders/*.exr", "zstd/", kind="exr", compression="zstd")
    print(summary)                          # 200 of 200 files converted, 1860.3 MB -> 1379.9 MB, 0 failed
    frames = oxport.dask.exr_stack("zstd/*.exr", channels=["R", "G", "B"])
    frames.mean(axis=(1, 2)).compute()      # mean color of every frame

Each file is one task running oxport's native conversion with the threads
its worker was given (tasks on a worker share one pool of that many
threads, so a worker never runs more threads than it has cores). Outputs
are written whole or not at all: a task retried after its worker died
writes its file again, and the batch removes what the dead writer left.

Inputs are paths the workers can see (a shared file system), globs of them,
or URLs (``s3://bucket/shot/*.exr``, ``gs://``, ``az://``, ``https://...``):
oxport reads a URL's object by byte range itself, fetching only what a task
needs. Outputs go to a directory every worker can write to, or to a bucket's
prefix (``output_dir="s3://bucket/out/"``), each object published whole
when its conversion has finished. Other fsspec URLs (``file://``,
``memory://``...) are read through fsspec: a worker copies the file into its
local directory first.
"""

from __future__ import annotations

import argparse
import collections
import contextlib
import glob
import os
import shutil
import sys
import tempfile
import threading
import time
import uuid
from collections.abc import Iterable, Iterator, Sequence
from typing import TYPE_CHECKING, Any, Callable, Literal, NamedTuple, Optional, Union

try:
    import dask.array
    import dask.bag
    import distributed
    from dask.delayed import delayed
except ModuleNotFoundError as error:  # pragma: no cover - the extra is not installed
    raise ModuleNotFoundError(f"oxport.dask needs Dask: pip install 'oxport[dask]' ({error})") from error

from . import _native, exr
from ._obj import Scene, read_obj

if TYPE_CHECKING:
    import numpy as np

__all__ = ["ConvertSummary", "Kind", "convert", "exr_stack", "main", "read_obj_bag"]

Kind = Literal["exr", "obj", "seekable"]
"""What :func:`convert` does to each file: ``"exr"`` recompresses an OpenEXR
file (:func:`oxport.exr.convert`), ``"obj"`` writes an OBJ file again with
other precisions (:func:`oxport.convert_obj`), ``"seekable"`` packs any file
into a seekable Zstandard archive ``NAME.zst`` (:func:`oxport.seekable.pack`)."""

_Path = Union[str, "os.PathLike[str]"]
Inputs = Union[_Path, Iterable[_Path]]
"""A path, a glob (``shot/*.exr``), an fsspec URL (globs allowed), or a list of them."""

class ConvertSummary(NamedTuple):
    """What :func:`convert` did."""

    files: int
    """Files converted."""
    bytes_in: int
    """Their size."""
    bytes_out: int
    """The size of what was written (for OBJ files, with their MTL files)."""
    failures: list[tuple[str, str]]
    """``(input, error message)`` for each file that was not converted (the
    message names the input)."""

    def __str__(self) -> str:
        total = self.files + len(self.failures)
        return (f"{self.files} of {total} files converted, {self.bytes_in / 1e6:.1f} MB -> "
                f"{self.bytes_out / 1e6:.1f} MB, {len(self.failures)} failed"
                + "".join(f"\n  {message}" for _, message in self.failures))


def convert(inputs: Inputs, output_dir: _Path, *, kind: Kind = "exr",
            client: Optional[distributed.Client] = None, progress: Optional[bool] = None,
            **options: Any) -> ConvertSummary:
    """Converts every file of ``inputs`` into ``output_dir`` (a directory,
    or a URL's prefix: ``s3://bucket/out/``), one Dask task per file, on
    ``client``'s cluster (``None``: the current client).

    Each output takes its input's name (``NAME.zst`` for ``kind="seekable"``;
    an OBJ file's materials go to ``NAME.mtl`` beside it). ``options`` are
    the conversion's: ``compression`` and ``level`` for ``"exr"``;
    ``level``, ``frame_size`` and ``checksums`` for ``"seekable"``;
    ``precision``, ``uv_precision``, ``normal_precision``, ``strict``... for
    ``"obj"``. Threads are not an option: each task uses its worker's.

    A file that cannot be converted (not a valid file, unreadable, a worker
    lost too often while converting it) is reported in
    :attr:`ConvertSummary.failures` with its error; the others are converted
    all the same. ``progress``: a progress bar on standard output (``None``:
    when standard error is a terminal).

    Raises:
        ValueError: no client, an unknown ``kind``, inputs that match no
            file, two inputs that would write the same output, or an
            ``output_dir`` URL oxport does not write to (fsspec's).
        TypeError: an option the conversion does not take.
    """
    output_dir = os.fspath(output_dir)
    remote = _native.is_url(output_dir)
    if not remote and _is_url(output_dir):
        raise ValueError(f"output_dir: {output_dir} is not a URL oxport writes to "
                         "(s3://, gs://, az://, http(s)://) nor a directory")
    job = _job(kind, _expand(inputs), output_dir if remote else os.path.abspath(output_dir), options)
    return _run(job, _client(client), progress)


def _job(kind: str, sources: list[str], output_dir: str, options: dict[str, Any]) -> _native.BatchJob:
    """The typed job of :func:`convert`'s keywords: each conversion's
    constructor takes its own options, and refuses others."""
    constructors: dict[str, Callable[..., _native.BatchJob]] = {
        "exr": _native.BatchJob.exr, "seekable": _native.BatchJob.seekable, "obj": _native.BatchJob.obj}
    if kind not in constructors:
        raise ValueError(f"kind: expected 'exr', 'obj' or 'seekable', got {kind!r}")
    try:
        return constructors[kind](sources, output_dir, **options)
    except TypeError as error:
        raise TypeError(f"the {kind} conversion: {error}") from None


def _run(job: _native.BatchJob, client: distributed.Client, progress: Optional[bool]) -> ConvertSummary:
    """Runs ``job``, one task per file, on ``client``'s cluster."""
    targets = job.plan()
    conversion = job.conversion
    batch = uuid.uuid4().hex[:12]
    futures = [
        client.submit(_convert_file, conversion, source, target, pure=False,
                      key=f"oxport-{conversion.kind}-{_name(target)}-{batch}-{i}")
        for i, (source, target) in enumerate(zip(job.inputs, targets))
    ]
    if progress if progress is not None else sys.stderr.isatty():
        distributed.progress(futures)
    distributed.wait(futures)
    files = bytes_in = bytes_out = 0
    failures: list[tuple[str, str]] = []
    for source, future in zip(job.inputs, futures):
        if future.status == "cancelled":
            message = "the task was cancelled (the client or the scheduler went away)"
            failures.append((source, _native.batch_located(source, message)))
            continue
        if future.status != "finished":
            error = future.exception()
            failures.append((source, _native.batch_located(source, f"{type(error).__name__}: {error}")))
            continue
        result = future.result()
        if isinstance(result, str):
            failures.append((source, result))
        else:
            files += 1
            bytes_in += result.bytes_in
            bytes_out += result.bytes_out
    # Every task has ended: a temporary file beside an output is what a
    # killed worker left in the middle of writing it. (An object is
    # published only when whole: a killed worker left nothing in the bucket.)
    job.remove_temporaries(targets)
    return ConvertSummary(files, bytes_in, bytes_out, failures)


def exr_stack(paths: Inputs, channels: Union[str, Sequence[str], None] = None) -> dask.array.Array:
    """The frames of an OpenEXR sequence as one lazy Dask array: shape
    ``(frames, height, width, channels)``, or ``(frames, height, width)``
    when ``channels`` names one channel; one chunk per frame, with the dtype
    of the file (float16, float32 or uint32).

    A computation reads only what its slices ask for: ``stack[:, y0:y1,
    x0:x1]`` reads that window of each frame (Dask hands the slice to the
    read), and only the chunks of the file that hold it, which for a URL are
    the only bytes fetched (besides the header and offset tables). Each
    worker keeps the frames it opened for the stack, so a frame's header is
    read once per worker.

    ``channels``: the channels in the order wanted (``None``: every channel,
    in file order); they must share one pixel type. The shape and channels
    come from the first frame's header; a frame that differs fails the
    computation with an error naming it. The frames must not change while
    the stack is in use.
    """
    import numpy as np

    sources = _expand(paths)
    with _open_exr(sources[0]) as first:
        header = first.part(0).header
    types = {c.name: c.pixel_type for c in header["channels"]}
    names = list(types) if channels is None else [channels] if isinstance(channels, str) else list(channels)
    missing = [n for n in names if n not in types]
    if missing or not names:
        raise ValueError(f"channels: {sources[0]} has no channel {missing[0]!r}" if missing
                         else "channels: no channel asked for")
    kinds = {types[n] for n in names}
    if len(kinds) > 1:
        raise ValueError(f"channels: {', '.join(f'{n} is {types[n]}' for n in names)}; "
                         "choose channels of one pixel type")
    dtype = np.dtype(exr._DTYPES[kinds.pop()])
    low, high = header["dataWindow"]
    size = (int(high[1] - low[1] + 1), int(high[0] - low[0] + 1))
    frames = _Frames(sources, names, size, dtype, single=isinstance(channels, str))
    return dask.array.from_array(frames, chunks=(1, *frames.shape[1:]), name=f"exr-stack-{frames.token}",
                                 asarray=False, meta=np.empty((0,) * frames.ndim, dtype))


class _Frames:
    """The frames of a sequence as an array Dask slices: each slice is one
    read per frame of the rows, columns and channels it covers."""

    def __init__(self, sources: list[str], names: list[str], size: tuple[int, int], dtype: np.dtype[Any],
                 single: bool) -> None:
        self.sources = sources
        self.names = names
        self.size = size
        self.dtype = dtype
        self.single = single
        self.shape: tuple[int, ...] = (len(sources), *size) + (() if single else (len(names),))
        self.ndim = len(self.shape)
        #: Names this stack's open frames in a worker's cache.
        self.token = uuid.uuid4().hex

    def __dask_tokenize__(self) -> str:
        return self.token

    def __getitem__(self, key: Any) -> np.ndarray:
        import numpy as np

        key = key if isinstance(key, tuple) else (key,)
        if len(key) > self.ndim or any(k is None or k is Ellipsis for k in key):
            return self[(slice(None),) * self.ndim][key]
        key = key + (slice(None),) * (self.ndim - len(key))
        # The indices each axis picks (an integer: one, and its axis dropped).
        picked = [np.arange(n)[k] for k, n in zip(key, self.shape)]
        if sum(not isinstance(k, slice) and np.ndim(p) == 1 for k, p in zip(key, picked)) > 1:
            # Several index arrays pair up (numpy's rule), not one per axis.
            return self[(slice(None),) * self.ndim][key]
        axes = [np.atleast_1d(p) for p in picked]
        frames, rows, columns = axes[:3]
        chosen = axes[3] if not self.single else [0]
        out = np.empty(tuple(map(len, axes)), self.dtype)
        if out.size:
            top, left = int(rows.min()), int(columns.min())
            box = (top, left, int(rows.max()), int(columns.max()))
            names = [self.names[c] for c in chosen]
            inside = np.ix_(rows - top, columns - left)
            for i, frame in enumerate(frames):
                planes = self._read(self.sources[frame], sorted(set(names)), box)
                parts = [planes[n][inside] for n in names]
                out[i] = parts[0] if self.single else np.stack(parts, axis=-1)
        return out[tuple(0 if np.ndim(p) == 0 else slice(None) for p in picked)]

    def _read(self, source: str, names: list[str], box: tuple[int, int, int, int]) -> dict[str, np.ndarray]:
        """Channels ``names`` of the window ``box`` (top, left, bottom, right,
        inclusive, from the data window's corner) of frame ``source``; an
        error names the frame."""
        try:
            return self._read_frame(source, names, box)
        except (_native.Error, OSError) as error:
            message = _native.batch_located(source, str(error))
            if message == str(error):
                raise
            raise type(error)(message) from error

    def _read_frame(self, source: str, names: list[str], box: tuple[int, int, int, int]) -> dict[str, np.ndarray]:
        file = _open_frame(self.token, source)
        header = file.part(0).header
        low, high = header["dataWindow"]
        size = (int(high[1] - low[1] + 1), int(high[0] - low[0] + 1))
        if size != self.size:
            raise ValueError(f"{source}: {size[1]}x{size[0]} pixels, the first frame {self.size[1]}x{self.size[0]}")
        types = {c.name: exr._DTYPES[c.pixel_type] for c in header["channels"]}
        missing = [n for n in names if n not in types]
        if missing:
            raise ValueError(f"{source}: no channel {missing[0]!r} (the first frame has it)")
        other = sorted({str(types[n]) for n in names if types[n] != self.dtype})
        if other:
            raise ValueError(f"{source}: pixels of {', '.join(other)}, the first frame {self.dtype}")
        top, left, bottom, right = box
        window = ((low[0] + left, low[1] + top), (low[0] + right, low[1] + bottom))
        return file.read(channels=names, window=window, threads=_threads())


_OPEN_FRAMES: collections.OrderedDict[tuple[str, str], exr.File] = collections.OrderedDict()
_OPEN_FRAMES_LOCK = threading.Lock()
_OPEN_FRAMES_MAX = 64
"""Frames a worker keeps open (headers and offset tables read), the most
recently read last."""


def _open_frame(token: str, source: str) -> exr.File:
    """Frame ``source`` of the stack ``token``, opened once per process."""
    key = (token, source)
    with _OPEN_FRAMES_LOCK:
        file = _OPEN_FRAMES.get(key)
        if file is not None:
            _OPEN_FRAMES.move_to_end(key)
            return file
    file = _open_exr(source)
    with _OPEN_FRAMES_LOCK:
        _OPEN_FRAMES[key] = file
        while len(_OPEN_FRAMES) > _OPEN_FRAMES_MAX:
            _OPEN_FRAMES.popitem(last=False)
    return file


def _open_exr(source: str) -> exr.File:
    """An OpenEXR file by path or URL: oxport's own URLs read by range, other
    fsspec URLs through an fsspec file object (read by range too)."""
    if _is_url(source) and not _native.is_url(source):
        import fsspec

        return exr.open(fsspec.open(source, "rb").open())
    return exr.open(source)


def read_obj_bag(paths: Inputs, *, strict: bool = False, materials: bool = True) -> dask.bag.Bag:
    """The OBJ files of ``paths`` as a Dask bag of :class:`oxport.Scene`, one
    partition per file, each read by :func:`oxport.read_obj` (with
    ``strict`` and ``materials``) on its worker when computed. Scenes (their
    meshes' arrays) pickle, so they move between workers and to the
    client."""
    sources = _expand(paths)
    return dask.bag.from_sequence(sources, partition_size=1).map(_read_scene, strict, materials)


def main(argv: Optional[Sequence[str]] = None) -> int:
    """``python -m oxport.dask``: runs the batch job that ``oxport exr convert
    --scheduler`` and ``oxport zst pack --scheduler`` hand over as JSON
    (``oxport::batch::Job``)."""
    parser = argparse.ArgumentParser(
        prog="python -m oxport.dask",
        description="Run a batch job of the oxport command line on a Dask cluster, one task per file.")
    parser.add_argument("--scheduler", required=True, help="the scheduler's address (tcp://host:8786)")
    parser.add_argument("--job", required=True, help="the job's JSON file, or - for standard input")
    args = parser.parse_args(argv)
    start = time.perf_counter()
    try:
        if args.job == "-":
            text = sys.stdin.read()
        else:
            with open(args.job, encoding="utf-8") as file:
                text = file.read()
        job = _native.BatchJob.from_json(text)
        with distributed.Client(args.scheduler, timeout=30) as client:
            summary = _run(job, client, progress=None)
    except (OSError, ValueError, TypeError) as error:
        print(f"oxport: {error}", file=sys.stderr)
        return 1
    print(f"{summary} in {time.perf_counter() - start:.2f} s", file=sys.stderr)
    return 1 if summary.failures else 0


def _client(client: Optional[distributed.Client]) -> distributed.Client:
    if client is not None:
        return client
    try:
        return distributed.get_client()
    except ValueError:
        raise ValueError("no Dask client: start one (distributed.Client() for a LocalCluster, "
                         "Client('tcp://host:8786') for a cluster) or pass client=") from None


def _is_url(text: str) -> bool:
    return "://" in text


def _expand(inputs: Inputs) -> list[str]:
    """Every file of ``inputs``: local paths made absolute (the workers may run
    elsewhere), globs expanded, URLs kept as URLs."""
    items = [inputs] if isinstance(inputs, (str, os.PathLike)) else list(inputs)
    found: list[str] = []
    for item in items:
        text = os.fspath(item)
        magic = any(c in text for c in "*?[")
        if _is_url(text) and magic:
            import fsspec

            fs, pattern = fsspec.core.url_to_fs(text)
            matches = [fs.unstrip_protocol(p) for p in sorted(fs.glob(pattern))]
        elif _is_url(text):
            matches = [text]
        else:
            matches = [os.path.abspath(p) for p in (sorted(glob.glob(text, recursive=True)) if magic else [text])]
        if not matches:
            raise ValueError(f"inputs: no file matches {text!r}")
        found.extend(matches)
    if not found:
        raise ValueError("inputs: no files given")
    return found


def _name(source: str) -> str:
    return source.rstrip("/").rsplit("/", 1)[-1] if _is_url(source) else os.path.basename(source)


def _threads() -> Optional[int]:
    """The threads a task may use: those its worker was given (tasks on one
    worker share oxport's one pool of that many threads); every core outside
    a worker."""
    try:
        worker = distributed.get_worker()
    except ValueError:
        return None
    return max(1, int(worker.state.nthreads))


@contextlib.contextmanager
def _local(source: str) -> Iterator[str]:
    """``source`` as oxport reads it: a path or a URL oxport fetches itself
    (object storage, HTTP); for another fsspec URL, a copy in the worker's
    directory, removed afterwards."""
    if not _is_url(source) or _native.is_url(source):
        yield source
        return
    import fsspec

    try:
        folder = distributed.get_worker().local_directory
    except ValueError:
        folder = None
    with tempfile.TemporaryDirectory(prefix="oxport-", dir=folder) as scratch:
        local = os.path.join(scratch, _name(source) or "input")
        with fsspec.open(source, "rb") as remote, open(local, "wb") as copy:
            shutil.copyfileobj(remote, copy, 1 << 20)
        yield local


def _convert_file(conversion: _native.BatchConversion, source: str, target: str
                  ) -> Union[_native.BatchDone, str]:
    """One task: converts ``source`` into ``target``; the sizes read and
    written, or the error's message (naming ``source``)."""
    local = source
    try:
        with _local(source) as local:
            return conversion.run(local, target, threads=_threads())
    except (_native.Error, OSError, ValueError) as error:
        # A URL's file may have been read from a local copy: the message names the URL.
        return _native.batch_located(source, str(error).replace(local, source))


def _read_scene(source: str, strict: bool, materials: bool) -> Scene:
    with _local(source) as path:
        return read_obj(path, threads=_threads(), strict=strict, materials=materials)


if __name__ == "__main__":
    # Tasks must name the module's functions by its import name, not `__main__`.
    from oxport.dask import main as _main

    sys.exit(_main())
