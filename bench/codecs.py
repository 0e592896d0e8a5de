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

Each cell times every contender on the same input in the same process. The
contenders alternate (the order rotates every round), the first round is a
warm-up and not counted (for 1 GiB inputs it runs on a 64 MiB slice), small
inputs are timed as loops of many calls (at least 50 ms per sample); medians.
Everything happens in memory: nothing is written to disk. Results are
``bytes`` for every contender but cramjam, which returns its own buffer
type (no copy counted for it). pyzstd is a Python layer over backports.zstd,
so its column and the stdlib's time the same C code: the table says how far
apart they land, the resolution of the verdicts between bindings of the same
libzstd. The data is the scene files Blender wrote for
the seekable benchmark (OBJ text and uncompressed ``.blend``), repeated to
1 GiB; the small inputs are slices of it.

Run: make bench-codecs  (or .venv/bin/python bench/codecs.py [--runs N]
[--big-levels 3,10], which leaves out 1 GiB at level 17: 2.5 hours of the run)
"""

from __future__ import annotations

import argparse
import gc
import json
import statistics
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


def corpus() -> bytes:
    tar = scenes_tar().read_bytes()
    data = (tar * (GiB // len(tar) + 1))[:GiB]
    return data


def per_call(fn: Callable[[], Any], calls: int) -> float:
    gc.collect()
    start = time.perf_counter()
    for _ in range(calls):
        fn()
    return (time.perf_counter() - start) / calls


CACHE = ROOT / "target" / "bench-codecs.json"
cache: dict[str, dict[str, float]] = {}


def cell(contenders: dict[str, Callable[[], Any]], runs: int,
         warmups: dict[str, Callable[[], Any]] | None = None, key: str = "") -> dict[str, float]:
    """Median seconds per call of each contender, alternating. Finished cells
    are kept in target/bench-codecs.json, so that an interrupted run goes on
    where it stopped (``--fresh`` starts over)."""
    if key and (hit := cached(key, list(contenders))):
        return hit
    result = measure(contenders, runs, warmups)
    if key:
        cache[key] = result
        CACHE.write_text(json.dumps(cache, indent=1))
    return result


def cached(key: str, names: list[str]) -> dict[str, float] | None:
    """The cell's finished result, if every contender in it was measured."""
    hit = cache.get(key)
    return hit if hit is not None and set(hit) == set(names) else None


def measure(contenders: dict[str, Callable[[], Any]], runs: int,
            warmups: dict[str, Callable[[], Any]] | None) -> dict[str, float]:
    calls: dict[str, int] = {}
    for name, fn in (warmups or contenders).items():
        once = per_call(fn, 1)
        calls[name] = 1 if warmups else max(1, int(0.05 / max(once, 1e-9)))
        if not warmups and calls[name] > 1:
            per_call(fn, calls[name])
    times: dict[str, list[float]] = {name: [] for name in contenders}
    names = list(contenders)
    for run in range(runs):
        order = names[run % len(names):] + names[:run % len(names)]
        for name in order:
            times[name].append(per_call(contenders[name], calls[name]))
            if warmups:  # a long cell: say where it is
                print(f"  round {run + 1}/{runs} {name}: {fmt(times[name][-1])}", file=sys.stderr, flush=True)
    return {name: statistics.median(t) for name, t in times.items()}


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


def zstd_row(label: str, result: dict[str, float]) -> list[str]:
    """A zstd cell's row; its pyzstd/stdlib ratio is kept for the note."""
    SAME_CODE.append(result["pyzstd"] / result["stdlib"])
    return row(label, result, ZSTD)


def label(size: int) -> str:
    return f"{size // GiB} GiB" if size >= GiB else f"{size // MiB} MiB" if size >= MiB else f"{size // KiB} KiB"


def zstd_tables(data: bytes, runs: int, big_levels: set[int]) -> tuple[list[list[str]], list[list[str]]]:
    compress_rows, decompress_rows = [], []
    for size in (KiB, MiB, GiB):
        piece = data[200 * MiB: 200 * MiB + size] if size < GiB else data
        warm = data[:64 * MiB]
        for level in (3, 10, 17):
            if size == GiB and level not in big_levels:
                continue
            zc = zstandard.ZstdCompressor(level=level)

            def contenders(d: bytes) -> dict[str, Callable[[], Any]]:
                return {
                    "oxport": lambda: ox_zstd.compress(d, level),
                    "stdlib": lambda: stdlib_zstd.compress(d, level),
                    "zstandard": lambda: zc.compress(d),
                    "pyzstd": lambda: pyzstd.compress(d, level),
                    "cramjam": lambda: cramjam.zstd.compress(d, level=level),
                }
            print(f"zstd compress {label(size)} level {level}", file=sys.stderr, flush=True)
            result = cell(contenders(piece), runs if size < GiB else max(3, runs // 2),
                          contenders(warm) if size == GiB else None, f"zstd compress {size} {level}")
            compress_rows.append(zstd_row(f"{label(size)}, level {level}", result))
            key = f"zstd decompress {size} {level}"
            if hit := cached(key, ZSTD):  # compressing 1 GiB at level 17 takes minutes: only when measuring
                decompress_rows.append(zstd_row(f"{label(size)}, level {level}", hit))
                continue
            packed = stdlib_zstd.compress(piece, level)
            assert ox_zstd.decompress(packed) == piece
            zd = zstandard.ZstdDecompressor()
            warm_packed = stdlib_zstd.compress(warm, 3) if size == GiB else packed

            def readers(p: bytes) -> dict[str, Callable[[], Any]]:
                return {
                    "oxport": lambda: ox_zstd.decompress(p),
                    "stdlib": lambda: stdlib_zstd.decompress(p),
                    "zstandard": lambda: zd.decompress(p),
                    "pyzstd": lambda: pyzstd.decompress(p),
                    "cramjam": lambda: cramjam.zstd.decompress(p),
                }
            print(f"zstd decompress {label(size)} level {level}", file=sys.stderr, flush=True)
            result = cell(readers(packed), runs if size < GiB else max(3, runs // 2),
                          readers(warm_packed) if size == GiB else None, key)
            decompress_rows.append(zstd_row(f"{label(size)}, level {level}", result))
            del packed
    for total in (64 * MiB, 256 * MiB):
        piece = data[:total]
        for count in (128, 512):
            step = len(piece) // count
            packed = b"".join(stdlib_zstd.compress(piece[i:i + step], 3) for i in range(0, len(piece), step))
            assert ox_zstd.decompress(packed) == piece
            zd = zstandard.ZstdDecompressor()
            readers_all = {
                "oxport": lambda: ox_zstd.decompress(packed),
                "stdlib": lambda: stdlib_zstd.decompress(packed),
                # Its one-shot decompress reads only the first frame.
                "zstandard": lambda: zd.decompressobj(read_across_frames=True).decompress(packed),
                "pyzstd": lambda: pyzstd.decompress(packed),
                "cramjam": lambda: cramjam.zstd.decompress(packed),
            }
            print(f"zstd decompress {label(total)} in {count} frames", file=sys.stderr, flush=True)
            result = cell(readers_all, runs, key=f"zstd frames {total} {count}")
            one = cell({"oxport 1 thread": lambda: ox_zstd.decompress(packed, threads=1),
                        "stdlib": lambda: stdlib_zstd.decompress(packed)}, runs,
                       key=f"zstd frames {total} {count} one thread")
            result_row = zstd_row(f"{label(total)} in {count} frames", result)
            result_row[1] += (f"; 1 thread {fmt(one['oxport 1 thread'])}"
                              f" ({100 * one['oxport 1 thread'] / one['stdlib']:.0f}%)")
            decompress_rows.append(result_row)
    return compress_rows, decompress_rows


def deflate_tables(data: bytes, runs: int) -> tuple[list[list[str]], list[list[str]]]:
    compress_rows, decompress_rows = [], []
    for size in (KiB, MiB, 64 * MiB):
        piece = data[200 * MiB: 200 * MiB + size]
        for level in (1, 3, 6, 9):
            contenders = {
                "oxport": lambda: ox_deflate.compress(piece, level),
                "stdlib": lambda: zlib.compress(piece, level),
                "deflate": lambda: deflate_pypi.zlib_compress(piece, level),
            }
            if level <= 3:
                contenders["isal"] = lambda: isal.isal_zlib.compress(piece, level)
            print(f"deflate compress {label(size)} level {level}", file=sys.stderr, flush=True)
            result = cell(contenders, runs, key=f"deflate compress {size} {level}")
            ratios = {name: len(fn()) / len(piece) for name, fn in contenders.items()}
            compress_rows.append(row(f"{label(size)}, level {level}", result, DEFLATE, ratios))
            packed = zlib.compress(piece, level)
            assert ox_deflate.decompress(packed) == piece
            # deflate's zlib decompression needs the size: every contender is given it.
            readers = {
                "oxport": lambda: ox_deflate.decompress(packed, bufsize=len(piece)),
                "stdlib": lambda: zlib.decompress(packed, bufsize=len(piece)),
                "deflate": lambda: deflate_pypi.zlib_decompress(packed, len(piece)),
                "isal": lambda: isal.isal_zlib.decompress(packed, bufsize=len(piece)),
            }
            print(f"deflate decompress {label(size)} level {level}", file=sys.stderr, flush=True)
            decompress_rows.append(row(f"{label(size)}, level {level}",
                                       cell(readers, runs, key=f"deflate decompress {size} {level}"), DEFLATE))
    import gzip
    piece = data[200 * MiB: 264 * MiB]
    packed = gzip.compress(piece, 6)
    readers = {
        "oxport": lambda: ox_deflate.decompress(packed, format="gzip"),
        "stdlib": lambda: gzip.decompress(packed),
        "deflate": lambda: deflate_pypi.gzip_decompress(packed),
        "isal": lambda: isal.igzip.decompress(packed),
    }
    print("gzip decompress 64 MiB", file=sys.stderr, flush=True)
    decompress_rows.append(row("gzip, 64 MiB, level 6", cell(readers, runs, key="gzip decompress"), DEFLATE))
    return compress_rows, decompress_rows


def zero_fill_rows(data: bytes, runs: int) -> list[list[str]]:
    """What zero-filling an output before decompressing into it would cost
    (pyo3's ``PyBytes::new_with`` does it; oxport allocates with
    ``PyBytes_FromStringAndSize(NULL, n)`` and lets the decompressor write
    first): a fresh ``bytes`` of n bytes set to zero, against decompressing n
    bytes."""
    import ctypes

    alloc = ctypes.pythonapi.PyBytes_FromStringAndSize
    alloc.restype = ctypes.py_object
    alloc.argtypes = [ctypes.c_char_p, ctypes.c_ssize_t]

    def zero_filled(n: int) -> None:
        out = alloc(None, n)
        ctypes.memset(ctypes.cast(ctypes.c_char_p(out), ctypes.c_void_p), 0, n)

    rows = []
    for size in (MiB, 64 * MiB, GiB):
        packed = ox_zstd.compress(data[:size], 3)
        result = cell({"zero fill": lambda: zero_filled(size), "stdlib": lambda: ox_zstd.decompress(packed)},
                      max(3, runs // 2), key=f"zero fill {size}")
        rows.append([label(size), fmt(result["zero fill"]), fmt(result["stdlib"]),
                     f"{100 * result['zero fill'] / result['stdlib']:.0f}%"])
    return rows


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--runs", type=int, default=7, help="counted rounds per cell (1 GiB cells: half, at least 3)")
    parser.add_argument("--big-levels", default="3,10,17",
                        help="levels measured at 1 GiB (at level 17 one call takes 8-9 minutes here,"
                             " the cell about 2.5 hours)")
    parser.add_argument("--only", choices=["zstd", "deflate"], help="one table set only")
    parser.add_argument("--fresh", action="store_true", help="measure every cell again")
    args = parser.parse_args()
    if CACHE.exists() and not args.fresh:
        cache.update(json.loads(CACHE.read_text()))
    big_levels = {int(level) for level in args.big_levels.split(",") if level}
    data = corpus()
    versions = (f"zstd {ox_zstd.zstd_version}; backports.zstd {metadata.version('backports.zstd')}, "
                f"zstandard {zstandard.__version__}, pyzstd {pyzstd.__version__}, cramjam {cramjam.__version__}, "
                f"deflate {metadata.version('deflate')}, "
                f"isal {isal.__version__}, zlib {zlib.ZLIB_RUNTIME_VERSION}")
    header_zstd = ["input", *ZSTD, "oxport fastest (within 3%)?"]
    header_deflate = ["input", *DEFLATE, "oxport fastest (within 3%)?"]
    parts = [
        "## Python compression bindings",
        "",
        f"`.venv/bin/python bench/codecs.py --runs {args.runs} --big-levels {args.big_levels}`"
        f" ({machine()}; {versions}). Median time per call and, in parentheses, the"
        " percentage of the standard library's time (lower is faster). Contenders alternate,"
        " a warm-up round is not counted, all in memory.",
    ]
    if args.only in (None, "zstd"):
        compress_rows, decompress_rows = zstd_tables(data, args.runs, big_levels)
        parts += ["", "### zstd: compress", "", table(header_zstd, compress_rows),
                  "", "### zstd: decompress (input compressed by the stdlib at the level shown)", "",
                  table(header_zstd, decompress_rows), "", same_code_note()]
    if args.only in (None, "deflate"):
        compress_rows, decompress_rows = deflate_tables(data, args.runs)
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
                        zero_fill_rows(data, args.runs))]
    text = "\n".join(parts)
    print(text)
    if args.only is None:
        update_section("codecs", text)


if __name__ == "__main__":
    main()
