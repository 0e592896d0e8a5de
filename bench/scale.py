"""A 200-frame batch (ZIP renders recompressed to ZSTD) through
``oxport.dask.convert`` on a ``LocalCluster``, side by side with the plain
single-process loop over ``oxport.exr.convert``.

Frames: the Cycles multilayer render (960×540, 13 half and float passes,
ZIP) of the shared render script, each frame shifted by a few pixels so
that no two are alike. Contenders:

- loop: ``for f in frames: oxport.exr.convert(f, out / f.name, compression="zstd")``
  in this process, each file's chunks on both cores;
- LocalCluster of 2 worker processes × 1 thread: one task per file, each
  with one thread (its worker's);
- LocalCluster of 1 worker process × 2 threads: two tasks at a time, sharing
  one pool of 2 threads.

The clusters are started once, before timing (their start-up is reported
apart). Contenders alternate (the order flips every round), a warm-up round
is not counted, outputs are removed and the disk synced before each run,
inputs come from the page cache; medians.

Run: make bench-dask  (or .venv/bin/python bench/scale.py [--runs N] [--frames N])
"""

from __future__ import annotations

import argparse
import os
import shutil
import statistics
import time
from pathlib import Path
from typing import Callable

import numpy as np
from distributed import Client, LocalCluster

from docs import ROOT, alternate, machine, table, update_section
from exr import renders

import oxport.dask
from oxport import exr

WORK = ROOT / "target" / "bench-dask"
SCALE = ROOT / "docs" / "guide" / "scale.md"


def make_frames(count: int, step: int = 1) -> list[Path]:
    """``count`` frames of the render, every ``step``-th pixel of it."""
    folder = WORK / f"frames{count}_{step}"
    paths = [folder / f"shot.{i:04}.exr" for i in range(count)]
    if all(p.exists() for p in paths):
        return paths
    folder.mkdir(parents=True, exist_ok=True)
    header, pixels = exr.read(renders()[0])
    for name in ("channels", "dataWindow", "displayWindow"):
        header.pop(name)
    for i, path in enumerate(paths):
        shifted = {name: np.ascontiguousarray(np.roll(plane, 3 * i, axis=1)[::step, ::step])
                   for name, plane in pixels.items()}
        exr.write(path, shifted, header=header, compression="zip")
    return paths


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--frames", type=int, default=200)
    args = parser.parse_args()
    # Before any cluster: Dask sets OMP_NUM_THREADS=1 in this process, which `nproc` obeys.
    where = machine()
    out = WORK / "out"

    def clear(_: str) -> None:
        shutil.rmtree(out, ignore_errors=True)
        out.mkdir(parents=True)
        os.sync()

    starts = {}
    clusters = {}
    for name, workers, threads in [("2 workers × 1 thread", 2, 1), ("1 worker × 2 threads", 1, 2)]:
        start = time.perf_counter()
        cluster = LocalCluster(n_workers=workers, threads_per_worker=threads, processes=True,
                               dashboard_address=":0")
        client = Client(cluster)
        starts[name] = time.perf_counter() - start
        clusters[name] = (cluster, client)

    rows = []
    sizes = []
    # The renders, then thumbnails (every 10th pixel: 96×54) where Dask's cost per file shows.
    for label, step in [("960×540", 1), ("96×54", 10)]:
        frames = make_frames(args.frames, step)
        size = sum(p.stat().st_size for p in frames)

        def loop() -> None:
            for frame in frames:
                exr.convert(frame, out / frame.name, compression="zstd")

        def on(client: Client) -> Callable[[], None]:
            def run() -> None:
                summary = oxport.dask.convert(frames, out, kind="exr", client=client, progress=False,
                                              compression="zstd")
                assert summary.files == len(frames) and not summary.failures, summary
            return run

        contenders: dict[str, Callable[[], None]] = {"loop (one process)": loop}
        contenders.update({f"LocalCluster, {name}": on(client) for name, (_, client) in clusters.items()})
        times = alternate(contenders, args.runs, before=clear, log=label)
        sizes.append(f"{label}: {size / 1e6:.1f} MB of ZIP in, "
                     f"{sum(p.stat().st_size for p in out.iterdir()) / 1e6:.1f} MB of ZSTD out")
        loop_time = statistics.median(times["loop (one process)"])
        for name, values in times.items():
            median = statistics.median(values)
            rows.append([
                f"{len(frames)} × {label}", name, f"{median:.2f} s", f"{min(values):.2f}–{max(values):.2f} s",
                f"{len(frames) / median:.0f}", f"{size / 1e6 / median:.0f}",
                f"{median / loop_time:.2f}×",
                "—" if name.startswith("loop") else f"{1000 * (median - loop_time) / len(frames):+.1f} ms",
            ])
    for cluster, client in clusters.values():
        client.close()
        cluster.close()

    text = "\n".join([
        f"`.venv/bin/python bench/scale.py --runs {args.runs} --frames {args.frames}` ({where}; "
        f"dask {__import__('dask').__version__}). {'; '.join(sizes)}. Medians of {args.runs} alternating runs "
        "after a warm-up; outputs removed and the disk synced before each run; inputs from the page cache. "
        "Cluster start-up, not in the times: "
        + ", ".join(f"{name} {seconds:.1f} s" for name, seconds in starts.items()) + ".",
        "",
        table(["batch", "contender", "time", "range", "files/s", "MB/s in", "time vs loop",
               "cost per file vs loop"], rows),
    ])
    update_section("dask-batch", text, SCALE)
    print(text)


if __name__ == "__main__":
    main()
