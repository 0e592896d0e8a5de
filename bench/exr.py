"""oxport.exr against the OpenEXR library (the ``openexr`` package 3.5)
writing and reading the same images with ZIP and ZSTD, side by side.

Images: Cycles renders from the shared render script at 960×540 (the
multilayer file: half and float passes; and the RGBA float file) and a 4K
RGBA half image tiled from the render's pixels. Each cell times both
libraries on the same image in the same process: they alternate (the order
flips every round), a warm-up round is not counted, outputs are removed and
the disk synced before each write, reads come from the page cache; medians.
oxport runs with its default (chunks on every core); the package with its
default (one thread) and with its thread pool set to 2. MB/s is of the
uncompressed pixels.

A second table reads the layouts and methods pipelines exchange, written
by the package: the 4K image in 64×64 tiles (ZIP and PIZ), as four parts of
a multi-part file (ZIP), and with DWAA and DWAB; oxport reads every part,
the package its whole file; and with HTJ2K256 and HTJ2K32. A third writes
the same files with both. Beside
the speed-ups at 2 threads, oxport's time on one thread gives the per-core
ratio.

Run: make bench-exr  (or .venv/bin/python bench/exr.py [--runs N] [--only layouts])
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
from pathlib import Path
from typing import Callable, Optional

import numpy as np
import OpenEXR

from docs import ROOT, alternate, machine, medians, table, update_section

from oxport import exr

SCRIPTS = ROOT / "integrations" / "blender" / "refdata"
WORK = ROOT / "target" / "bench-exr"
METHODS = {"zip": OpenEXR.ZIP_COMPRESSION, "zstd": OpenEXR.ZSTD_COMPRESSION}


def renders(seed: int = 1, width: int = 960, height: int = 540) -> tuple[Path, Path]:
    out = ROOT / "target" / "refdata" / f"renders_{width}x{height}"
    layers, rgba = out / f"render_{seed:03d}_layers.exr", out / f"render_{seed:03d}_rgba32.exr"
    if not (layers.exists() and rgba.exists()):
        partial = out / "partial"
        partial.mkdir(parents=True, exist_ok=True)
        print(f"rendering {width}×{height} with Cycles (about a minute)", file=sys.stderr, flush=True)
        subprocess.run(["blender", "-b", "--factory-startup", "--python", str(SCRIPTS / "render.py"), "--",
                        str(partial), str(seed), str(width), str(height)], check=True, capture_output=True)
        for path in (layers, rgba):
            (partial / path.name).replace(path)
    return layers, rgba


def images() -> dict[str, dict[str, np.ndarray]]:
    layers, rgba = renders()
    found = {"Cycles multilayer 960×540": exr.read(layers)[1], "Cycles RGBA float 960×540": exr.read(rgba)[1]}
    _, pixels = exr.read(rgba)
    found["4K RGBA half (tiled render)"] = {
        c: np.tile(pixels[c], (4, 4))[:2160, :3840].astype(np.float16) for c in "RGBA"}
    return found


def clear(path: Path) -> None:
    path.unlink(missing_ok=True)
    os.sync()


def openexr_write(path: Path, channels: dict[str, np.ndarray], method: str, threads: int = 0) -> None:
    OpenEXR.set_global_thread_count(threads)
    # A copy: the package replaces the arrays of the dict it is given by its Channel objects.
    with OpenEXR.File({"compression": METHODS[method], "type": OpenEXR.scanlineimage}, dict(channels)) as f:
        f.write(str(path))
    OpenEXR.set_global_thread_count(0)


def openexr_read(path: Path, threads: int = 0) -> dict[str, np.ndarray]:
    OpenEXR.set_global_thread_count(threads)
    with OpenEXR.File(str(path), separate_channels=True) as f:
        pixels = {name: c.pixels for name, c in f.channels().items()}
    OpenEXR.set_global_thread_count(0)
    return pixels


def tiles(size: int) -> object:
    t = OpenEXR.TileDescription()
    t.xSize, t.ySize, t.mode, t.roundingMode = size, size, OpenEXR.ONE_LEVEL, OpenEXR.ROUND_DOWN
    return t


def openexr_read_all(path: Path, threads: int = 0) -> list[dict[str, np.ndarray]]:
    """Every part, as the package reads a file: all of it."""
    OpenEXR.set_global_thread_count(threads)
    with OpenEXR.File(str(path), separate_channels=True) as f:
        parts = [{name: c.pixels for name, c in part.channels.items()} for part in f.parts]
    OpenEXR.set_global_thread_count(0)
    return parts


def oxport_read_all(path: Path, threads: Optional[int] = None) -> list[dict[str, np.ndarray]]:
    with exr.open(path) as f:
        return [f.read(part.index, threads=threads) for part in f.parts]


def layouts(runs: int) -> None:
    """Reads of tiled, multi-part and DWA files the package wrote, and
    writes of the same files by both."""
    pixels = images()["4K RGBA half (tiled render)"]
    raw = sum(a.nbytes for a in pixels.values())
    scan = {"type": OpenEXR.scanlineimage}
    tiled = {"type": OpenEXR.tiledimage, "tiles": tiles(64)}
    # label: (the package's header, oxport's compression (None: read only), oxport's tiles)
    files: dict[str, tuple[dict[str, object], Optional[str], Optional[tuple[int, int]]]] = {
        "4K RGBA half, 64×64 tiles, ZIP": ({"compression": OpenEXR.ZIP_COMPRESSION, **tiled}, "zip", (64, 64)),
        "4K RGBA half, 64×64 tiles, PIZ": ({"compression": OpenEXR.PIZ_COMPRESSION, **tiled}, "piz", (64, 64)),
        "4K RGBA half, DWAA": ({"compression": OpenEXR.DWAA_COMPRESSION, **scan}, "dwaa", None),
        "4K RGBA half, DWAB": ({"compression": OpenEXR.DWAB_COMPRESSION, **scan}, "dwab", None),
        "4K RGBA half, HTJ2K256": ({"compression": OpenEXR.HTJ2K256_COMPRESSION, **scan}, "htj2k256", None),
        "4K RGBA half, HTJ2K32": ({"compression": OpenEXR.HTJ2K32_COMPRESSION, **scan}, "htj2k32", None),
    }
    reads, writes = [], []
    for label, (header, method, tile) in files.items():
        path = WORK / "layout.exr"

        def theirs(path: Path, threads: int = 0, header: dict[str, object] = header) -> None:
            OpenEXR.set_global_thread_count(threads)
            with OpenEXR.File(header, dict(pixels)) as f:
                f.write(str(path))
            OpenEXR.set_global_thread_count(0)

        def ours(path: Path, threads: Optional[int] = None, method: Optional[str] = method,
                 tile: Optional[tuple[int, int]] = tile) -> None:
            exr.write(path, pixels, compression=method, tiles=tile, threads=threads)  # type: ignore[arg-type]

        theirs(path)
        reads.append(layout_row(label, path, raw, runs))
        if method is not None:
            writes.append(write_row(label, ours, theirs, raw, runs))
    # Four parts of a quarter each (the 4K image cut in four), ZIP.
    quarters = [{c: np.ascontiguousarray(a[:, i * 960:(i + 1) * 960]) for c, a in pixels.items()} for i in range(4)]

    def theirs_parts(path: Path, threads: int = 0) -> None:
        OpenEXR.set_global_thread_count(threads)
        parts = [OpenEXR.Part({"compression": OpenEXR.ZIP_COMPRESSION, **scan}, dict(q), name=f"part{i}")
                 for i, q in enumerate(quarters)]
        with OpenEXR.File(parts) as f:
            f.write(str(path))
        OpenEXR.set_global_thread_count(0)

    def ours_parts(path: Path, threads: Optional[int] = None) -> None:
        exr.write_parts(path, [exr.OutputPart(q, name=f"part{i}", compression="zip")
                               for i, q in enumerate(quarters)], threads=threads)

    path = WORK / "layout.exr"
    theirs_parts(path)
    label = "4 parts of 960×2160 RGBA half, ZIP"
    reads.append(layout_row(label, path, raw, runs))
    writes.append(write_row(label, ours_parts, theirs_parts, raw, runs))
    path.unlink()
    text = "\n".join([
        "### Layouts and methods the package wrote",
        "",
        f"`.venv/bin/python bench/exr.py --runs {runs} --only layouts` ({machine()}; openexr "
        f"{OpenEXR.__version__}). Reads of files the package wrote (every part of the multi-part file); "
        "medians of alternating runs from the page cache, a warm-up not counted. Speed-up: the package's time "
        "over oxport's (every core), with the package's default pool (0: one thread), at 2 threads, and "
        "oxport on one thread against the package's default (per core).",
        "",
        table(["file", "MB", "read MB/s oxport / openexr", "speed-up", "vs openexr 2 threads",
               "per core (oxport 1 thread)"], reads),
        "",
        "Writes of the same files (the package's and oxport's at their defaults; outputs removed and the disk "
        "synced before each run). Sizes: oxport's file against the package's; the same bytes where it says so.",
        "",
        table(["file", "MB", "output MB oxport / openexr", "write MB/s oxport / openexr", "speed-up",
               "vs openexr 2 threads", "per core (oxport 1 thread)"], writes),
    ])
    update_section("exr-layouts", text)
    print(text)


def layout_row(label: str, path: Path, raw: int, runs: int) -> list[str]:
    print(label, file=sys.stderr, flush=True)
    read = medians(alternate({
        "oxport": lambda: oxport_read_all(path),
        "oxport 1 thread": lambda: oxport_read_all(path, 1),
        "openexr": lambda: openexr_read_all(path),
        "openexr 2 threads": lambda: openexr_read_all(path, 2),
    }, runs))
    mb = raw / 1e6
    return [label, f"{mb:.1f}", f"{mb / read['oxport']:.0f} / {mb / read['openexr']:.0f}",
            f"**{read['openexr'] / read['oxport']:.2f}×**",
            f"{read['openexr 2 threads'] / read['oxport']:.2f}×",
            f"{read['openexr'] / read['oxport 1 thread']:.2f}×"]


def write_row(label: str, ours: Callable[..., None], theirs: Callable[..., None], raw: int,
              runs: int) -> list[str]:
    """Times ``ours(path, threads)`` against ``theirs(path, threads)``."""
    print(f"{label} (write)", file=sys.stderr, flush=True)
    paths = {name: WORK / f"write-{i}.exr" for i, name in
             enumerate(["oxport", "oxport 1 thread", "openexr", "openexr 2 threads"])}
    write = medians(alternate({
        "oxport": lambda: ours(paths["oxport"]),
        "oxport 1 thread": lambda: ours(paths["oxport 1 thread"], 1),
        "openexr": lambda: theirs(paths["openexr"]),
        "openexr 2 threads": lambda: theirs(paths["openexr 2 threads"], 2),
    }, runs, before=lambda name: clear(paths[name])))
    mine, reference = paths["oxport"].read_bytes(), paths["openexr"].read_bytes()
    size = f"{len(mine) / 1e6:.2f} / {len(reference) / 1e6:.2f}" + (" (same bytes)" if mine == reference else "")
    for path in paths.values():
        path.unlink(missing_ok=True)
    mb = raw / 1e6
    return [label, f"{mb:.1f}", size, f"{mb / write['oxport']:.0f} / {mb / write['openexr']:.0f}",
            f"**{write['openexr'] / write['oxport']:.2f}×**",
            f"{write['openexr 2 threads'] / write['oxport']:.2f}×",
            f"{write['openexr'] / write['oxport 1 thread']:.2f}×"]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--runs", type=int, default=7)
    parser.add_argument("--only", choices=["scanlines", "layouts"])
    args = parser.parse_args()
    WORK.mkdir(parents=True, exist_ok=True)
    if args.only != "scanlines":
        layouts(args.runs)
    if args.only == "layouts":
        return
    rows = []
    for label, channels in images().items():
        raw = sum(a.nbytes for a in channels.values())
        for method in METHODS:
            ours, theirs = WORK / f"oxport.{method}.exr", WORK / f"openexr.{method}.exr"
            print(f"{label}, {method}", file=sys.stderr, flush=True)
            two = WORK / f"openexr2.{method}.exr"
            outputs = {"oxport": ours, "openexr": theirs, "openexr 2 threads": two}
            write = medians(alternate({
                "oxport": lambda: exr.write(ours, channels, compression=method),  # type: ignore[arg-type]
                "openexr": lambda: openexr_write(theirs, channels, method),
                "openexr 2 threads": lambda: openexr_write(two, channels, method, 2),
            }, args.runs, before=lambda name: clear(outputs[name])))
            sizes = {"oxport": ours.stat().st_size, "openexr": theirs.stat().st_size}
            read = medians(alternate({
                "oxport": lambda: exr.read(ours),
                "openexr": lambda: openexr_read(theirs),
                "openexr 2 threads": lambda: openexr_read(theirs, 2),
            }, args.runs))
            mb = raw / 1e6
            rows.append([
                label, method, f"{mb:.1f}",
                f"{sizes['oxport'] / 1e6:.2f} / {sizes['openexr'] / 1e6:.2f} ({100 * (sizes['oxport'] / sizes['openexr'] - 1):+.2f}%)",
                f"{mb / write['oxport']:.0f} / {mb / write['openexr']:.0f}",
                f"**{write['openexr'] / write['oxport']:.2f}×** ({write['openexr 2 threads'] / write['oxport']:.2f}×)",
                f"{mb / read['oxport']:.0f} / {mb / read['openexr']:.0f}",
                f"**{read['openexr'] / read['oxport']:.2f}×** ({read['openexr 2 threads'] / read['oxport']:.2f}×)",
            ])
            for path in (ours, theirs, two):
                path.unlink()
    text = "\n".join([
        "## OpenEXR: oxport.exr against the openexr package",
        "",
        f"`.venv/bin/python bench/exr.py --runs {args.runs}` ({machine()}; openexr {OpenEXR.__version__}). "
        "Both write and read the same pixels; medians of alternating runs, a warm-up not counted, outputs "
        "removed and the disk synced before each write, reads from the page cache. MB/s of uncompressed pixels. "
        "Speed-up: openexr's time over oxport's with the package's default (one thread: its global pool is 0), "
        "in parentheses with its pool set to 2 threads (`OpenEXR.set_global_thread_count(2)`).",
        "",
        table(["image", "method", "pixels MB", "file MB oxport / openexr", "write MB/s oxport / openexr",
               "write speed-up (vs 2 threads)", "read MB/s oxport / openexr", "read speed-up (vs 2 threads)"], rows),
    ])
    update_section("exr", text)
    print(text)


if __name__ == "__main__":
    main()
