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
or fsspec URLs (``s3://bucket/shot/*.exr``, ``https://...``): a worker copies
a URL's file into its local directory, converts it, and removes the copy.
Outputs go to a directory every worker can write to.
"""

from __future__ import annotations

import argparse
import contextlib
import glob
import inspect
import os
import shutil
import sys
import tempfile
import time
import uuid
from collections.abc import Iterable, Iterator, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any, Callable, Literal, NamedTuple, Optional, Union

try:
    import dask.array
    import dask.bag
    import distributed
    from dask.delayed import delayed
except ModuleNotFoundError as error:  # pragma: no cover - the extra is not installed
    raise ModuleNotFoundError(f"oxport.dask needs Dask: pip install 'oxport[dask]' ({error})") from error

from . import _native, exr, seekable
from ._obj import Scene, WriteArgs, convert_obj, mtl_path, read_obj

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

_CONVERTERS: dict[str, Callable[..., Any]] = {
    "exr": exr.convert,
    "obj": convert_obj,
    "seekable": seekable.pack,
}


class ConvertSummary(NamedTuple):
    """What :func:`convert` did."""

    files: int
    """Files converted."""
    bytes_in: int
    """Their size."""
    bytes_out: int
    """The size of what was written (for OBJ files, with their MTL files)."""
    failures: list[tuple[str, str]]
    """``(input, error message)`` for each file that was not converted."""

    def __str__(self) -> str:
        total = self.files + len(self.failures)
        return (f"{self.files} of {total} files converted, {self.bytes_in / 1e6:.1f} MB -> "
                f"{self.bytes_out / 1e6:.1f} MB, {len(self.failures)} failed"
                + "".join(f"\n  {message if path in message else f'{path}: {message}'}"
                          for path, message in self.failures))


def convert(inputs: Inputs, output_dir: _Path, *, kind: Kind = "exr",
            client: Optional[distributed.Client] = None, progress: Optional[bool] = None,
            **options: Any) -> ConvertSummary:
    """Converts every file of ``inputs`` into ``output_dir``, one Dask task
    per file, on ``client``'s cluster (``None``: the current client).

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
            file, or two inputs that would write the same output.
        TypeError: an option the conversion does not take.
    """
    _check_options(kind, options)
    sources = _expand(inputs)
    output_dir = os.path.abspath(output_dir)
    targets = _targets(sources, output_dir, kind)
    client = _client(client)
    os.makedirs(output_dir, exist_ok=True)
    batch = uuid.uuid4().hex[:12]
    futures = [
        client.submit(_convert_file, kind, source, target, options, pure=False,
                      key=f"oxport-{kind}-{Path(target).name}-{batch}-{i}")
        for i, (source, target) in enumerate(zip(sources, targets))
    ]
    if progress if progress is not None else sys.stderr.isatty():
        distributed.progress(futures)
    distributed.wait(futures)
    files = bytes_in = bytes_out = 0
    failures: list[tuple[str, str]] = []
    for source, future in zip(sources, futures):
        if future.status == "cancelled":
            failures.append((source, "the task was cancelled (the client or the scheduler went away)"))
            continue
        if future.status != "finished":
            error = future.exception()
            failures.append((source, f"{type(error).__name__}: {error}"))
            continue
        result = future.result()
        if isinstance(result, str):
            failures.append((source, result))
        else:
            files += 1
            bytes_in += result[0]
            bytes_out += result[1]
    # Every task has ended: a temporary file beside an output is what a
    # killed worker left in the middle of writing it.
    for target in targets:
        for path in _written(kind, target):
            _native.remove_temporaries(path)
    return ConvertSummary(files, bytes_in, bytes_out, failures)


def exr_stack(paths: Inputs, channels: Union[str, Sequence[str], None] = None) -> dask.array.Array:
    """The frames of an OpenEXR sequence as one lazy Dask array: shape
    ``(frames, height, width, channels)``, or ``(frames, height, width)``
    when ``channels`` names one channel; one chunk per frame, read by
    :func:`oxport.exr.read` when computed, with the dtype of the file
    (float16, float32 or uint32).

    ``channels``: the channels in the order wanted (``None``: every channel,
    in file order); they must share one pixel type. The shape and channels
    come from the first frame's header; a frame that differs fails the
    computation with an error naming it.
    """
    import numpy as np

    sources = _expand(paths)
    with _local(sources[0]) as first:
        header = exr.read_header(first)
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
    width, height = int(high[0] - low[0] + 1), int(high[1] - low[1] + 1)
    shape = (height, width) if isinstance(channels, str) else (height, width, len(names))
    frames = [
        dask.array.from_delayed(
            delayed(_read_frame, pure=True)(source, names, shape, dtype, isinstance(channels, str)),
            shape, dtype)
        for source in sources
    ]
    return dask.array.stack(frames)


def read_obj_bag(paths: Inputs, *, strict: bool = False, materials: bool = True) -> dask.bag.Bag:
    """The OBJ files of ``paths`` as a Dask bag of :class:`oxport.Scene`, one
    partition per file, each read by :func:`oxport.read_obj` (with
    ``strict`` and ``materials``) on its worker when computed. Scenes (their
    meshes' arrays) pickle, so they move between workers and to the
    client."""
    sources = _expand(paths)
    return dask.bag.from_sequence(sources, partition_size=1).map(_read_scene, strict, materials)


def main(argv: Optional[Sequence[str]] = None) -> int:
    """``python -m oxport.dask``: what ``oxport exr convert --scheduler`` and
    ``oxport zst pack --scheduler`` run."""
    parser = argparse.ArgumentParser(
        prog="python -m oxport.dask",
        description="Convert files on a Dask cluster, one task per file.")
    parser.add_argument("--scheduler", required=True, help="the scheduler's address (tcp://host:8786)")
    parser.add_argument("--kind", choices=sorted(_CONVERTERS), required=True)
    parser.add_argument("--out", required=True, help="the directory for the outputs")
    parser.add_argument("--compression", help="exr: none, rle, zips, zip or zstd")
    parser.add_argument("--level", type=int, help="the codec's level")
    parser.add_argument("--scanlines", action="store_true", help="exr: store every part as scan lines")
    parser.add_argument("--tiles", help="exr: store every part in tiles of WIDTHxHEIGHT pixels")
    parser.add_argument("--levels", choices=["one", "mipmap", "ripmap"], help="exr, with --tiles: the levels")
    parser.add_argument("--rounding", choices=["down", "up"], help="exr, with --tiles: level sizes rounded")
    parser.add_argument("--frame-size", type=int, help="seekable: bytes of data per frame")
    parser.add_argument("--no-checksums", action="store_true", help="seekable: no checksums in the seek table")
    parser.add_argument("inputs", nargs="+", help="files, globs or fsspec URLs")
    args = parser.parse_args(argv)
    options: dict[str, Any] = {}
    if args.compression is not None:
        options["compression"] = args.compression
    if args.level is not None:
        options["level"] = args.level
    if args.scanlines:
        options["scanlines"] = True
    if args.tiles is not None:
        width, _, height = args.tiles.lower().partition("x")
        options["tiles"] = (int(width), int(height))
    if args.levels is not None:
        options["levels"] = args.levels
    if args.rounding is not None:
        options["rounding"] = args.rounding
    if args.frame_size is not None:
        options["frame_size"] = args.frame_size
    if args.no_checksums:
        options["checksums"] = False
    start = time.perf_counter()
    try:
        with distributed.Client(args.scheduler, timeout=30) as client:
            summary = convert(args.inputs, args.out, kind=args.kind, client=client, **options)
    except (OSError, ValueError, TypeError) as error:
        print(f"oxport: {error}", file=sys.stderr)
        return 1
    print(f"{summary} in {time.perf_counter() - start:.2f} s", file=sys.stderr)
    return 1 if summary.failures else 0


def _check_options(kind: str, options: dict[str, Any]) -> None:
    if kind not in _CONVERTERS:
        raise ValueError(f"kind: expected 'exr', 'obj' or 'seekable', got {kind!r}")
    if "threads" in options:
        raise TypeError("threads: each task uses the threads of its worker, not an option")
    try:
        inspect.signature(_CONVERTERS[kind]).bind("src", "dst", **options)
    except TypeError as error:
        raise TypeError(f"the {kind} conversion: {error}") from None
    if kind == "obj":
        # convert_obj passes its other keywords on to the writer: they must be WriteArgs.
        known = set(WriteArgs.__annotations__) | {"strict", "read_materials", "mtl_root"}
        unknown = sorted(set(options) - known)
        if unknown:
            raise TypeError(f"the obj conversion: got an unexpected keyword argument {unknown[0]!r}")


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


def _targets(sources: list[str], output_dir: str, kind: str) -> list[str]:
    """Each source's output in ``output_dir``, by the library's rule
    (``oxport::batch::targets``, as the command line's batches)."""
    targets = _native.batch_targets(sources, output_dir, suffix=".zst" if kind == "seekable" else "",
                                    mtl=kind == "obj")
    return [str(t) for t in targets]


def _written(kind: str, target: str) -> list[str]:
    """The files a conversion writes for ``target``."""
    return [target, mtl_path(target)] if kind == "obj" else [target]


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
    """A local path for ``source``: itself, or for a URL a copy in the
    worker's directory, removed afterwards."""
    if not _is_url(source):
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


def _convert_file(kind: str, source: str, target: str, options: dict[str, Any]) -> Union[tuple[int, int], str]:
    """One task: converts ``source`` into ``target``; the sizes read and
    written, or the error's message."""
    threads = _threads()
    local = source
    try:
        with _local(source) as local:
            if kind == "exr":
                return exr.convert(local, target, threads=threads, **options)
            if kind == "seekable":
                packed = seekable.pack(local, target, threads=threads, **options)
                return packed.input_bytes, packed.output_bytes
            done = convert_obj(local, target, threads=threads, **options)
            written = [p for p in _written(kind, target) if os.path.exists(p)]
            return done.bytes_read, sum(os.path.getsize(p) for p in written)
    except (_native.Error, OSError, ValueError) as error:
        # A URL's file was read from a local copy: the message names the URL.
        text = str(error).replace(local, source)
        return text if source in text else f"{source}: {text}"


def _read_frame(source: str, names: list[str], shape: tuple[int, ...], dtype: np.dtype[Any],
                single: bool) -> np.ndarray:
    import numpy as np

    with _local(source) as path:
        _, planes = exr.read(path, threads=_threads())
    missing = [n for n in names if n not in planes]
    if missing:
        raise ValueError(f"{source}: no channel {missing[0]!r} (the first frame has it)")
    size = planes[names[0]].shape
    if size != shape[:2]:
        raise ValueError(f"{source}: {size[1]}x{size[0]} pixels, the first frame {shape[1]}x{shape[0]}")
    types = {planes[n].dtype for n in names}
    if types != {dtype}:
        raise ValueError(f"{source}: pixels of {', '.join(sorted(map(str, types)))}, the first frame {dtype}")
    return planes[names[0]] if single else np.stack([planes[n] for n in names], axis=-1)


def _read_scene(source: str, strict: bool, materials: bool) -> Scene:
    with _local(source) as path:
        return read_obj(path, threads=_threads(), strict=strict, materials=materials)


if __name__ == "__main__":
    # Tasks must name the module's functions by its import name, not `__main__`.
    from oxport.dask import main as _main

    sys.exit(_main())
