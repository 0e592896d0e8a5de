"""oxport.zstd and oxport.deflate side by side with the other Python bindings.

zstd: the standard library's ``compression.zstd`` (``backports.zstd`` on this
Python, the same C code), ``zstandard``, ``pyzstd`` and ``cramjam``;
compression and decompression of 1 KiB, 1 MiB and 1 GiB at levels 3, 10 and
17, and decompression of 64 MiB and 256 MiB inputs made of 128 or 512 frames
(on one thread too).
deflate (zlib format): the standard library's ``zlib``, ``deflate`` (PyPI, also
libdeflate) and ``isal`` (ISA-L; its levels go 0 to 3 and it refuses the
others, so it is in the level 1 and 3 cells only; ``deflate``'s zlib
decompression needs the decompressed size, so every contender is given it as
the size of its first buffer); 1 KiB, 1 MiB and 64 MiB at levels 1, 3, 6, 9,
each contender's output size shown; gzip decompression of the 64 MiB input.

Each cell times every contender on the same input, in several fresh
processes one after another (``--processes``; 3 from 64 MiB on): what one
process's memory layout and allocator state do to one contender (the same C
code lands up to a third apart within one process) then varies across
processes instead of deciding the cell. In each process the contenders take
turns (the order rotates every round, and starts elsewhere in each process)
for ``--runs`` counted rounds (one at 1 GiB) after a warm-up round (at 1 GiB
on a 64 MiB slice); small inputs are timed as loops of many calls (at least
50 ms per sample); the median of all samples.
Everything happens in memory: nothing is written to disk. Results are
``bytes`` for every contender but cramjam, which returns its own buffer
type (no copy counted for it). pyzstd is a Python layer over backports.zstd,
so its column and the stdlib's time the same C code: the table says how far
apart they land, the resolution of the verdicts between bindings of the same
libzstd. The data is the scene files Blender wrote for
the seekable benchmark (OBJ text and uncompressed ``.blend``), repeated to
1 GiB; the small inputs are slices of it.

Run: make bench-codecs  (or .venv/bin/python bench/codecs.py [--runs N]
[--processes N] [--big-levels 3,10], which leaves out 1 GiB at level 17:
2.5 hours of the run)
"""

from __future__ import annotations

import argparse
import ctypes
import gc
import gzip
import json
import statistics
import subprocess
import sys
import time
import zlib
from importlib import metadata
from typing import Any, Callable

import cramjam
import deflate as deflate_pypi
import isal.igzip
import isal.isal_zlib
import pyzstd
import zstandard
from backports import zstd as stdlib_zstd

from docs import ROOT, machine, table, update_section
from seekable import scenes_tar

from oxport import deflate as ox_deflate
from oxport import zstd as ox_zstd

KiB, MiB, GiB = 1 << 10, 1 << 20, 1 << 30
ZSTD = ["oxport", "stdlib", "zstandard", "pyzstd", "cramjam"]
DEFLATE = ["oxport", "stdlib", "deflate", "isal"]
# One process's samples: seconds per call of each round, and the size of each
# contender's output; a cell's result: the medians, and those sizes.
Sample = dict[str, dict[str, Any]]
Result = dict[str, dict[str, Any]]
# The single-input cells below 1 GiB take their input from here on.
SLICE = 200 * MiB
# A 1 GiB cell's warm-up round runs on the first 64 MiB.
WARM = 64 * MiB


def corpus(end: int = GiB) -> bytes:
    """The scene files repeated to ``end`` bytes: the same bytes at the same
    offsets whatever ``end`` is, so that a worker builds only what its cell
    reads."""
    tar = scenes_tar().read_bytes()
    return (tar * (end // len(tar) + 1))[:end]


def parse(key: str) -> tuple[str, int, int]:
    """A cell's key: ``"<what> <input size> <level or frame count>"``, the
    first part two words (``zstd compress``, ``deflate decompress``, ...)."""
    codec, op, size, arg = key.split()
    return f"{codec} {op}", int(size), int(arg)


def span(key: str) -> tuple[int, int]:
    """Where in the corpus a cell's input lies: from its start for 1 GiB and
    the multi-frame and zero-fill cells, from 200 MiB on for the others."""
    what, size, _ = parse(key)
    start = 0 if size >= GiB or what in ("zstd frames", "zstd frames1", "zero fill") else SLICE
    return start, start + size


def packed_input(piece: bytes, level: int) -> bytes:
    """A 1 GiB decompression cell's input, compressed once and kept in
    target/ (at level 17 that takes 9 minutes; each process of the cell reads
    it), compressed again if it no longer decompresses to ``piece``."""
    path = ROOT / "target" / f"bench-codecs-{len(piece)}-{level}.zst"
    if path.exists():
        packed = path.read_bytes()
        if ox_zstd.decompress(packed) == piece:
            return packed
    packed = stdlib_zstd.compress(piece, level)
    path.with_suffix(".tmp").write_bytes(packed)
    path.with_suffix(".tmp").replace(path)
    return packed


def build(key: str, data: bytes, warm: bool = False) -> dict[str, Callable[[], Any]]:
    """The contenders of one cell, on its input (``warm``: on the 64 MiB the
    warm-up round of a 1 GiB cell runs on, compressed at level 3)."""
    what, size, arg = parse(key)
    start, end = (0, WARM) if warm else span(key)
    piece, level = data[start:end], 3 if warm else arg
    if what == "zstd compress":
        zc = zstandard.ZstdCompressor(level=arg)
        return {
            "oxport": lambda: ox_zstd.compress(piece, arg),
            "stdlib": lambda: stdlib_zstd.compress(piece, arg),
            "zstandard": lambda: zc.compress(piece),
            "pyzstd": lambda: pyzstd.compress(piece, arg),
            "cramjam": lambda: cramjam.zstd.compress(piece, level=arg),
        }
    if what == "zstd decompress":
        if size >= GiB and not warm:
            packed = packed_input(piece, level)
        else:
            packed = stdlib_zstd.compress(piece, level)
            assert ox_zstd.decompress(packed) == piece
        zd = zstandard.ZstdDecompressor()
        return {
            "oxport": lambda: ox_zstd.decompress(packed),
            "stdlib": lambda: stdlib_zstd.decompress(packed),
            "zstandard": lambda: zd.decompress(packed),
            "pyzstd": lambda: pyzstd.decompress(packed),
            "cramjam": lambda: cramjam.zstd.decompress(packed),
        }
    if what in ("zstd frames", "zstd frames1"):
        step = len(piece) // arg
        packed = b"".join(stdlib_zstd.compress(piece[i:i + step], 3) for i in range(0, len(piece), step))
        assert ox_zstd.decompress(packed) == piece
        if what == "zstd frames1":
            return {"oxport 1 thread": lambda: ox_zstd.decompress(packed, threads=1),
                    "stdlib": lambda: stdlib_zstd.decompress(packed)}
        zd = zstandard.ZstdDecompressor()
        return {
            "oxport": lambda: ox_zstd.decompress(packed),
            "stdlib": lambda: stdlib_zstd.decompress(packed),
            # Its one-shot decompress reads only the first frame.
            "zstandard": lambda: zd.decompressobj(read_across_frames=True).decompress(packed),
            "pyzstd": lambda: pyzstd.decompress(packed),
            "cramjam": lambda: cramjam.zstd.decompress(packed),
        }
    if what == "deflate compress":
        contenders = {
            "oxport": lambda: ox_deflate.compress(piece, arg),
            "stdlib": lambda: zlib.compress(piece, arg),
            "deflate": lambda: deflate_pypi.zlib_compress(piece, arg),
        }
        if arg <= 3:
            contenders["isal"] = lambda: isal.isal_zlib.compress(piece, arg)
        return contenders
    if what == "deflate decompress":
        packed = zlib.compress(piece, arg)
        assert ox_deflate.decompress(packed) == piece
        # deflate's zlib decompression needs the size: every contender is given it.
        return {
            "oxport": lambda: ox_deflate.decompress(packed, bufsize=len(piece)),
            "stdlib": lambda: zlib.decompress(packed, bufsize=len(piece)),
            "deflate": lambda: deflate_pypi.zlib_decompress(packed, len(piece)),
            "isal": lambda: isal.isal_zlib.decompress(packed, bufsize=len(piece)),
        }
    if what == "gzip decompress":
        packed = gzip.compress(piece, arg)
        return {
            "oxport": lambda: ox_deflate.decompress(packed, format="gzip"),
            "stdlib": lambda: gzip.decompress(packed),
            "deflate": lambda: deflate_pypi.gzip_decompress(packed),
            "isal": lambda: isal.igzip.decompress(packed),
        }
    if what == "zero fill":
        packed = ox_zstd.compress(piece, arg)
        return {"zero fill": lambda: zero_filled(size), "oxport": lambda: ox_zstd.decompress(packed)}
    raise ValueError(f"no such cell: {key}")


def zero_filled(n: int) -> None:
    """A fresh ``bytes`` of n bytes set to zero: what pyo3's
    ``PyBytes::new_with`` does before its closure runs (oxport allocates with
    ``PyBytes_FromStringAndSize(NULL, n)`` and lets the decompressor write
    first)."""
    out = ALLOC(None, n)
    ctypes.memset(ctypes.cast(ctypes.c_char_p(out), ctypes.c_void_p), 0, n)


ALLOC = ctypes.pythonapi.PyBytes_FromStringAndSize
ALLOC.restype = ctypes.py_object
ALLOC.argtypes = [ctypes.c_char_p, ctypes.c_ssize_t]


def per_call(fn: Callable[[], Any], calls: int) -> tuple[float, int]:
    """Seconds per call of ``calls`` calls, and the size of the last result."""
    gc.collect()
    start = time.perf_counter()
    for _ in range(calls):
        out = fn()
    seconds = (time.perf_counter() - start) / calls
    return seconds, 0 if out is None else len(out)


def samples(contenders: dict[str, Callable[[], Any]], runs: int, first: int = 0,
            warmups: dict[str, Callable[[], Any]] | None = None, loud: bool = False) -> Sample:
    """``runs`` counted rounds after a warm-up round; in every round each
    contender is timed once, in an order that rotates (starting at ``first``).
    A sample of a quick call is a loop of calls lasting at least 50 ms.
    Returns the seconds per call of every round and the size of each
    contender's last result."""
    calls: dict[str, int] = {}
    for name, fn in (warmups or contenders).items():
        once, _ = per_call(fn, 1)
        calls[name] = 1 if warmups else max(1, int(0.05 / max(once, 1e-9)))
        if not warmups and calls[name] > 1:
            per_call(fn, calls[name])
    times: dict[str, list[float]] = {name: [] for name in contenders}
    sizes: dict[str, int] = {}
    names = list(contenders)
    for run in range(runs):
        turn = (first + run) % len(names)
        for name in names[turn:] + names[:turn]:
            seconds, sizes[name] = per_call(contenders[name], calls[name])
            times[name].append(seconds)
            if loud:  # a long cell: say where it is
                print(f"  round {run + 1}/{runs} {name}: {fmt(seconds)}", file=sys.stderr, flush=True)
    return {"seconds": times, "bytes": sizes}


def in_processes(key: str, processes: int, runs: int) -> Sample:
    """One cell timed in ``processes`` fresh Python processes, one after
    another, each starting its rotation of the contenders elsewhere: what one
    process's memory layout and allocator state do to a contender varies
    from process to process, and goes into the median instead of deciding it."""
    result: Sample = {"seconds": {}, "bytes": {}}
    for process in range(processes):
        out = subprocess.run([sys.executable, __file__, "--worker", key, "--runs", str(runs),
                              "--first", str(process)], check=True, stdout=subprocess.PIPE, text=True).stdout
        sample = json.loads(out)
        for name, seconds in sample["seconds"].items():
            result["seconds"].setdefault(name, []).extend(seconds)
        result["bytes"] = sample["bytes"]
    return result


CACHE = ROOT / "target" / "bench-codecs.json"
cache: dict[str, Result] = {}


def cell(key: str, names: list[str], args: argparse.Namespace) -> Result:
    """The medians of one cell (seconds per call) and the size of each
    contender's output, from ``--processes`` fresh processes (3 from 64 MiB
    on, each one round at 1 GiB). Finished cells are kept in
    target/bench-codecs.json, so that an interrupted run goes on where it
    stopped (``--fresh`` starts over)."""
    hit = cache.get(key)
    if hit is not None and set(hit.get("seconds", {})) == set(names):
        return hit
    print(key, file=sys.stderr, flush=True)
    _, size, _ = parse(key)
    sample = in_processes(key, args.processes if size < 64 * MiB else min(args.processes, 3),
                          args.runs if size < GiB else 1)
    result: Result = {"seconds": {name: statistics.median(t) for name, t in sample["seconds"].items()},
                      "bytes": sample["bytes"]}
    cache[key] = result
    CACHE.write_text(json.dumps(cache, indent=1))
    return result


def fmt(seconds: float) -> str:
    if seconds < 1e-3:
        return f"{seconds * 1e6:.1f} µs"
    if seconds < 1:
        return f"{seconds * 1e3:.2f} ms"
    return f"{seconds:.2f} s"


def row(label: str, result: dict[str, float], names: list[str],
        ratios: dict[str, float] | None = None) -> list[str]:
    """``time (percent of the stdlib's time)`` per contender (and its
    compressed size / input size when ``ratios`` are given), and whether
    oxport is the fastest or within 3% of it; if not, who is, and how much
    larger its output is when it is."""
    base = result["stdlib"]
    cells = [label]
    for name in names:
        if name not in result:
            cells.append("n/a")
            continue
        text = f"{fmt(result[name])} ({100 * result[name] / base:.0f}%)"
        if ratios:
            text += f" [{ratios[name]:.3f}]"
        cells.append(text)
    winner = min(result, key=lambda name: result[name])
    if result["oxport"] <= 1.03 * result[winner]:
        cells.append("yes")
    else:
        verdict = f"no: {winner} {result['oxport'] / result[winner]:.2f}x faster"
        if ratios and ratios[winner] > ratios["oxport"]:
            verdict += f", its output {100 * (ratios[winner] / ratios['oxport'] - 1):.0f}% larger"
        cells.append(verdict)
    return cells


# pyzstd's time over the stdlib's in every zstd cell: the same C code (below).
SAME_CODE: list[float] = []


def same_code_note() -> str:
    """How far apart two columns that run the same C code land in this run:
    pyzstd 0.20 is a Python layer over backports.zstd (its ``compress`` and
    ``decompress`` call backports.zstd's, the level passed in ``options``)."""
    low, high = min(SAME_CODE), max(SAME_CODE)
    return (f"pyzstd {pyzstd.__version__} is a Python layer over backports.zstd (its `compress` and"
            " `decompress` call those of `backports.zstd`, the level passed in `options`): the stdlib and"
            f" pyzstd columns run the same C code. Across the {len(SAME_CODE)} zstd cells above, pyzstd's time"
            f" is {low:.2f} to {high:.2f} times the stdlib's (median {statistics.median(SAME_CODE):.2f}):"
            " that is how far apart the same code lands in this table, against which the 3% verdicts"
            " between bindings of the same libzstd are to be read.")


def zstd_row(label: str, result: Result) -> list[str]:
    """A zstd cell's row; its pyzstd/stdlib ratio is kept for the note."""
    seconds = result["seconds"]
    SAME_CODE.append(seconds["pyzstd"] / seconds["stdlib"])
    return row(label, seconds, ZSTD)


def label(size: int) -> str:
    return f"{size // GiB} GiB" if size >= GiB else f"{size // MiB} MiB" if size >= MiB else f"{size // KiB} KiB"


def zstd_tables(args: argparse.Namespace, big_levels: set[int]) -> tuple[list[list[str]], list[list[str]]]:
    compress_rows, decompress_rows = [], []
    for size in (KiB, MiB, GiB):
        for level in (3, 10, 17):
            if size == GiB and level not in big_levels:
                continue
            name = f"{label(size)}, level {level}"
            compress_rows.append(zstd_row(name, cell(f"zstd compress {size} {level}", ZSTD, args)))
            decompress_rows.append(zstd_row(name, cell(f"zstd decompress {size} {level}", ZSTD, args)))
    for total in (64 * MiB, 256 * MiB):
        for count in (128, 512):
            result = cell(f"zstd frames {total} {count}", ZSTD, args)
            one = cell(f"zstd frames1 {total} {count}", ["oxport 1 thread", "stdlib"], args)["seconds"]
            result_row = zstd_row(f"{label(total)} in {count} frames", result)
            result_row[1] += (f"; 1 thread {fmt(one['oxport 1 thread'])}"
                              f" ({100 * one['oxport 1 thread'] / one['stdlib']:.0f}%)")
            decompress_rows.append(result_row)
    return compress_rows, decompress_rows


def deflate_tables(args: argparse.Namespace) -> tuple[list[list[str]], list[list[str]]]:
    compress_rows, decompress_rows = [], []
    for size in (KiB, MiB, 64 * MiB):
        for level in (1, 3, 6, 9):
            names = DEFLATE if level <= 3 else DEFLATE[:-1]
            result = cell(f"deflate compress {size} {level}", names, args)
            ratios = {name: n / size for name, n in result["bytes"].items()}
            compress_rows.append(row(f"{label(size)}, level {level}", result["seconds"], DEFLATE, ratios))
            result = cell(f"deflate decompress {size} {level}", DEFLATE, args)
            decompress_rows.append(row(f"{label(size)}, level {level}", result["seconds"], DEFLATE))
    result = cell(f"gzip decompress {64 * MiB} 6", DEFLATE, args)
    decompress_rows.append(row("gzip, 64 MiB, level 6", result["seconds"], DEFLATE))
    return compress_rows, decompress_rows


def zero_fill_rows(args: argparse.Namespace) -> list[list[str]]:
    """What zero-filling an output before decompressing into it would cost:
    a fresh ``bytes`` of n bytes set to zero, against oxport decompressing n
    bytes."""
    rows = []
    for size in (MiB, 64 * MiB, GiB):
        result = cell(f"zero fill {size} 3", ["zero fill", "oxport"], args)["seconds"]
        rows.append([label(size), fmt(result["zero fill"]), fmt(result["oxport"]),
                     f"{100 * result['zero fill'] / result['oxport']:.0f}%"])
    return rows


def worker(key: str, runs: int, first: int) -> None:
    """One process's samples of one cell, as JSON on standard output (a
    1 GiB cell says each call's time on standard error as it ends)."""
    data = corpus(span(key)[1])
    big = parse(key)[1] >= GiB
    json.dump(samples(build(key, data), runs, first, build(key, data, warm=True) if big else None, big),
              sys.stdout)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--runs", type=int, default=3, help="counted rounds per process (1 GiB: one)")
    parser.add_argument("--processes", type=int, default=5,
                        help="fresh processes per cell (at most 3 from 64 MiB)")
    parser.add_argument("--big-levels", default="3,10,17",
                        help="levels measured at 1 GiB (at level 17 one call takes 8-9 minutes here,"
                             " the cell about 2.5 hours)")
    parser.add_argument("--only", choices=["zstd", "deflate"], help="one table set only")
    parser.add_argument("--fresh", action="store_true", help="measure every cell again")
    parser.add_argument("--worker", metavar="CELL", help=argparse.SUPPRESS)
    parser.add_argument("--first", type=int, default=0, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.worker:
        worker(args.worker, args.runs, args.first)
        return
    if CACHE.exists() and not args.fresh:
        cache.update(json.loads(CACHE.read_text()))
    big_levels = {int(level) for level in args.big_levels.split(",") if level}
    versions = (f"zstd {ox_zstd.zstd_version}; backports.zstd {metadata.version('backports.zstd')}, "
                f"zstandard {zstandard.__version__}, pyzstd {pyzstd.__version__}, cramjam {cramjam.__version__}, "
                f"deflate {metadata.version('deflate')}, "
                f"isal {isal.__version__}, zlib {zlib.ZLIB_RUNTIME_VERSION}")
    header_zstd = ["input", *ZSTD, "oxport fastest (within 3%)?"]
    header_deflate = ["input", *DEFLATE, "oxport fastest (within 3%)?"]
    parts = [
        "## Python compression bindings",
        "",
        f"`.venv/bin/python bench/codecs.py --runs {args.runs} --processes {args.processes}"
        f" --big-levels {args.big_levels}` ({machine()}; {versions}). Median time per call and, in"
        " parentheses, the percentage of the standard library's time (lower is faster). Every cell is"
        f" timed in {args.processes} fresh processes (3 from 64 MiB), each running {args.runs} counted"
        " rounds (1 GiB: one) after a warm-up (1 GiB: on 64 MiB), the contenders in turns; the median"
        " is over all of them. All in memory.",
    ]
    if args.only in (None, "zstd"):
        compress_rows, decompress_rows = zstd_tables(args, big_levels)
        parts += ["", "### zstd: compress", "", table(header_zstd, compress_rows),
                  "", "### zstd: decompress (input compressed by the stdlib at the level shown)", "",
                  table(header_zstd, decompress_rows), "", same_code_note()]
    if args.only in (None, "deflate"):
        compress_rows, decompress_rows = deflate_tables(args)
        parts += ["", "### deflate (zlib format): compress, [compressed size / input size]", "",
                  table(header_deflate, compress_rows),
                  "", "### deflate: decompress (input compressed by the stdlib)", "",
                  table(header_deflate, decompress_rows)]
    if args.only is None:
        parts += ["", "### Zero-filling the output first", "",
                  "What `PyBytes::new_with` (which zero-fills before the closure runs) would add: a fresh"
                  " `bytes` of n bytes set to zero, against oxport decompressing n bytes (level 3) into"
                  " memory it does not fill first.", "",
                  table(["output", "allocate and zero-fill", "oxport decompress", "added"],
                        zero_fill_rows(args))]
    text = "\n".join(parts)
    print(text)
    if args.only is None:
        update_section("codecs", text)


if __name__ == "__main__":
    main()
