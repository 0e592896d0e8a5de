"""Frames in an S3 bucket against the same frames on the local disk: what
oxport fetches for a window of a sequence, and how long batches take.

The bucket is moto's S3 served by this process over HTTP on 127.0.0.1
(``python/tests/s3server.py``, the tests' endpoint), which counts at the
server the bytes of each response. Its speed is that of a Python server in
the same process, not of a cloud service: the times say what requests cost
against this endpoint; the bytes and requests are what any endpoint serves.

Frames: ``--frames`` (100) 4K frames (3840×2160) of half RGB in 64×64 tiles,
ZIP, a smooth image with noise as renders are, each with its own noise.

1. A 256×256 window of one channel (``G``), off the tiles' grid, of every
   frame, read by ``oxport.exr.open(...).read(window=..., channels=["G"])``
   in this process, and by ``oxport.dask.exr_stack(...)[:, y0:y1, x0:x1]``
   on a LocalCluster of 2 worker processes × 1 thread (the stack is made
   inside the timed run, so its first header read counts).
2. A batch: ``oxport.dask.convert`` of the first ``--batch`` (20) frames to
   ZSTD on the same cluster, from the bucket to the bucket, and from the
   disk to the disk; the outputs are compared byte for byte.

Contenders alternate (the order flips every round), a warm-up round is not
counted, outputs are removed and the disk synced before each run, local
inputs come from the page cache; medians.

With ``--latency MS`` each request waits that long at the endpoint before
it is answered, as a distant endpoint's first byte does: the window is read
and its figures printed (the batch is left out, ``docs/guide/scale.md`` alone).

Run: make bench-remote  (or .venv/bin/python bench/remote.py [--runs N] [--frames N] [--batch N] [--latency MS])
"""

from __future__ import annotations

import argparse
import os
import shutil
import statistics
import sys
from pathlib import Path
from typing import Any, Callable

import numpy as np
from distributed import Client, LocalCluster

from docs import ROOT, alternate, machine, table, update_section

sys.path.insert(0, str(ROOT / "python" / "tests"))
from s3server import S3Server  # noqa: E402

import oxport.dask  # noqa: E402
from oxport import exr  # noqa: E402

WORK = ROOT / "target" / "bench-remote"
SCALE = ROOT / "docs" / "guide" / "scale.md"
HEIGHT, WIDTH = 2160, 3840
#: The window: 256×256 pixels, not on the 64×64 tiles' grid.
TOP, LEFT, SIZE = 700, 1000, 256


def make_frames(count: int) -> list[Path]:
    folder = WORK / "frames"
    paths = [folder / f"shot.{i:04}.exr" for i in range(count)]
    if all(p.exists() for p in paths):
        return paths
    folder.mkdir(parents=True, exist_ok=True)
    y, x = np.mgrid[0:HEIGHT, 0:WIDTH].astype(np.float32)
    smooth = [np.sin(x / (300 + 50 * k)) * np.cos(y / 400) for k in range(3)]
    for i, path in enumerate(paths):
        if path.exists():
            continue
        rng = np.random.default_rng(i)
        channels = {c: (smooth[k] + 0.05 * rng.random((HEIGHT, WIDTH), np.float32)).astype(np.float16)
                    for k, c in enumerate("RGB")}
        exr.write(path, channels, tiles=(64, 64), compression="zip")
        print(f"frame {i + 1} of {count}", file=sys.stderr, flush=True)
    return paths


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--frames", type=int, default=100)
    parser.add_argument("--batch", type=int, default=20)
    parser.add_argument("--latency", type=float, default=0.0,
                        help="milliseconds each request waits at the endpoint, as a distant one's first byte "
                             "does (the figures are then printed, not written into docs/guide/scale.md)")
    args = parser.parse_args()
    where = machine()
    frames = make_frames(args.frames)
    total = sum(p.stat().st_size for p in frames)

    server = S3Server(latency=args.latency / 1000).start()
    os.environ.update(server.environment())
    import s3fs

    bucket = "frames"
    remote = s3fs.S3FileSystem(skip_instance_cache=True)
    remote.mkdir(bucket)
    for i, path in enumerate(frames):
        remote.put_file(str(path), f"{bucket}/in/{path.name}")
        if i % 10 == 9:
            print(f"uploaded {i + 1} of {len(frames)}", file=sys.stderr, flush=True)
    urls = [f"s3://{bucket}/in/{p.name}" for p in frames]
    window = ((LEFT, TOP), (LEFT + SIZE - 1, TOP + SIZE - 1))
    expected = np.stack([exr.open(p).read(channels=["G"], window=window)["G"] for p in frames])

    cluster = LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address=":0")
    client = Client(cluster)

    # What each run of a bucket contender fetched: (bytes, requests).
    fetched: dict[str, list[tuple[int, int]]] = {}

    def counted(name: str, run: Callable[[], np.ndarray]) -> Callable[[], None]:
        def timed_run() -> None:
            server.reset()
            got = run()
            assert np.array_equal(got, expected), name
            gets = server.gets(bucket, "in/")
            fetched.setdefault(name, []).append((sum(r.sent for r in gets), len(gets)))
        return timed_run

    def by_file(sources: list[Any]) -> Callable[[], np.ndarray]:
        def run() -> np.ndarray:
            planes = []
            for source in sources:
                with exr.open(source) as f:
                    planes.append(f.read(channels=["G"], window=window)["G"])
            return np.stack(planes)
        return run

    def by_stack(sources: list[Any]) -> Callable[[], np.ndarray]:
        def run() -> np.ndarray:
            stack = oxport.dask.exr_stack(sources, channels="G")
            result: np.ndarray = client.compute(stack[:, TOP:TOP + SIZE, LEFT:LEFT + SIZE]).result()
            return result
        return run

    contenders = {
        "exr.open, local files": counted("local", by_file([str(p) for p in frames])),
        "exr.open, bucket": counted("bucket", by_file(urls)),
        "exr_stack, local files": counted("stack local", by_stack([str(p) for p in frames])),
        "exr_stack, bucket": counted("stack bucket", by_stack(urls)),
    }
    times = alternate(contenders, args.runs, log="window")
    rows = []
    for (name, values), key in zip(times.items(), ["local", "bucket", "stack local", "stack bucket"]):
        # The warm-up's counts are the first; every run fetches the same.
        sent, requests = fetched[key][-1]
        reference = statistics.median(times[name.split(",")[0] + ", local files"])
        rows.append([
            name, f"{statistics.median(values):.2f} s", f"{min(values):.2f}–{max(values):.2f} s",
            f"{statistics.median(values) / reference:.2f}×",
            "—" if "local" in name else f"{sent / 1e6:.2f} MB ({100 * sent / total:.2f}%)",
            "—" if "local" in name else f"{requests} ({requests / len(frames):.1f} per frame)",
        ])
    window_table = table(["window of every frame", "time", "range", "vs local files", "fetched",
                          "requests"], rows)
    if args.latency:
        client.close()
        cluster.close()
        server.stop()
        print(f"`.venv/bin/python bench/remote.py --runs {args.runs} --frames {args.frames} "
              f"--latency {args.latency:g}` ({where}): each request waits {args.latency:g} ms at the endpoint.")
        print(window_table)
        return

    batch = frames[:args.batch]
    batch_bytes = sum(p.stat().st_size for p in batch)
    out = WORK / "out"

    def clear(_: str) -> None:
        shutil.rmtree(out, ignore_errors=True)
        out.mkdir(parents=True)
        if remote.exists(f"{bucket}/out"):
            remote.rm(f"{bucket}/out", recursive=True)
        os.sync()

    summaries: dict[str, oxport.dask.ConvertSummary] = {}

    def converts(name: str, sources: list[str], target: str) -> Callable[[], None]:
        def run() -> None:
            summary = oxport.dask.convert(sources, target, kind="exr", client=client, progress=False,
                                          compression="zstd")
            assert summary.files == len(sources) and not summary.failures, summary
            summaries[name] = summary
        return run

    batches = {
        "disk to disk": converts("disk", [str(p) for p in batch], str(out)),
        "bucket to bucket": converts("bucket", urls[:args.batch], f"s3://{bucket}/out/"),
    }
    batch_times = alternate(batches, args.runs, before=clear, log="batch")
    # Both once more, untimed, to compare their outputs.
    clear("")
    for run in batches.values():
        run()
    for path in batch:
        assert remote.cat_file(f"{bucket}/out/{path.name}") == (out / path.name).read_bytes(), path.name
    reference = statistics.median(batch_times["disk to disk"])
    batch_rows = [[
        f"{len(batch)} frames, {name}", f"{statistics.median(values):.2f} s",
        f"{min(values):.2f}–{max(values):.2f} s", f"{batch_bytes / 1e6 / statistics.median(values):.0f}",
        f"{statistics.median(values) / reference:.2f}×",
    ] for name, values in batch_times.items()]
    batch_table = table(["ZIP to ZSTD on the cluster", "time", "range", "MB/s in", "vs disk"], batch_rows)
    client.close()
    cluster.close()
    server.stop()

    text = "\n".join([
        f"`.venv/bin/python bench/remote.py --runs {args.runs} --frames {args.frames} --batch {args.batch}` "
        f"({where}; dask {__import__('dask').__version__}). {len(frames)} frames of 3840×2160 half RGB in "
        f"64×64 tiles, ZIP: {total / 1e6:.1f} MB. The bucket: moto's S3 served by the benchmark's process "
        "on 127.0.0.1, counting the bytes it sends. Medians of "
        f"{args.runs} alternating runs after a warm-up; the window's pixels checked against the local read. "
        f"The cluster: 2 worker processes × 1 thread.",
        "",
        window_table,
        "",
        f"The batch: {batch_bytes / 1e6:.1f} MB of ZIP in, "
        f"{summaries['disk'].bytes_out / 1e6:.1f} MB of ZSTD out, the same bytes in the bucket as on the disk; "
        "outputs removed and the disk synced before each run.",
        "",
        batch_table,
    ])
    update_section("remote", text, SCALE)
    print(text)


if __name__ == "__main__":
    main()
