"""OBJ reading side by side: oxport against rapidobj, tinyobjloader and
trimesh, on files Blender 3.4 wrote (the monkey subdivided 6 times, and a
4,000-object scene of integrations/blender/refdata/scene.py), time to numpy arrays.

Each reader runs in a process of its own (bench/obj_read_worker.py; rapidobj's
wheels need Python >= 3.12, so it runs in the Python 3.13 venv that
bench/python313.sh builds), all started before the first run; the file is in
the page cache (read once before), and the readers take turns in a rotating
order, medians of several runs. Writes its section of docs/benchmarks.md.
Run: make bench-read (or .venv/bin/python bench/obj_read.py [--runs N]).
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
from pathlib import Path

from docs import ROOT, machine, table, update_section

SCRIPTS = ROOT / "integrations" / "blender" / "refdata"
REFDATA = ROOT / "target" / "refdata"
WORKER = ROOT / "bench" / "obj_read_worker.py"
# The slow readers run fewer times.
SLOW = {"trimesh"}


class Worker:
    def __init__(self, name: str, python: str) -> None:
        self.name = name
        self.process = subprocess.Popen([python, str(WORKER), name], stdin=subprocess.PIPE,
                                        stdout=subprocess.PIPE, text=True)
        self.answer()

    def answer(self) -> dict:
        assert self.process.stdout is not None
        line = self.process.stdout.readline()
        if not line:
            raise RuntimeError(f"the {self.name} worker stopped")
        return json.loads(line)

    def read(self, path: Path) -> dict:
        assert self.process.stdin is not None
        self.process.stdin.write(f"{path}\n")
        self.process.stdin.flush()
        return self.answer()

    def close(self) -> None:
        assert self.process.stdin is not None
        self.process.stdin.close()
        self.process.wait()


def blender_file(name: str, script: str, args: list[str]) -> Path:
    """A file Blender wrote, made once and kept in target/refdata."""
    out = REFDATA / f"{name}.obj"
    if not out.exists():
        partial = REFDATA / "partial"
        partial.mkdir(parents=True, exist_ok=True)
        subprocess.run(["blender", "-b", "--factory-startup", "--python", str(SCRIPTS / script), "--",
                        *args, str(partial / out.name)], check=True, capture_output=True)
        (partial / out.name).with_suffix(".mtl").replace(out.with_suffix(".mtl"))
        (partial / out.name).replace(out)
    return out


def staged(obj: Path, directory: Path) -> Path:
    """The file in `directory` with its MTL under the name its `mtllib` gives
    (rapidobj stops on a missing MTL)."""
    link = directory / obj.name
    if not link.exists():
        link.symlink_to(obj)
    with open(obj, "rb") as f:
        for line in f:
            if line.startswith(b"mtllib "):
                shutil.copy(obj.with_suffix(".mtl"), directory / line[7:].decode().strip())
                break
            if not line.startswith(b"#"):
                break
    # Into the page cache, so that no reader pays for the disk.
    with open(obj, "rb") as f:
        while f.read(1 << 24):
            pass
    return link


def measure(workers: list[Worker], path: Path, runs: int) -> dict[str, list[dict]]:
    results: dict[str, list[dict]] = {w.name: [] for w in workers}
    for run in range(runs):
        order = workers[run % len(workers):] + workers[:run % len(workers)]
        for worker in order:
            if worker.name in SLOW and len(results[worker.name]) >= max(1, runs // 2):
                continue
            results[worker.name].append(worker.read(path))
            print(f"  {path.name} {worker.name}: {results[worker.name][-1]['seconds']:.3f} s", file=sys.stderr)
    return results


def section(path: Path, results: dict[str, list[dict]]) -> str:
    size = path.stat().st_size
    medians = {name: statistics.median(r["seconds"] for r in runs) for name, runs in results.items()}
    ours = medians["oxport"]
    rows = []
    for name, runs in sorted(results.items(), key=lambda item: medians[item[0]]):
        last = runs[-1]
        rows.append([
            name, f"{medians[name]:.3f} s", f"{medians[name] / ours:.1f}×",
            ", ".join(f"{r['seconds']:.3f}" for r in runs),
            f"{size / 1e6 / medians[name]:.0f} MB/s", f"{last['peak'] / 2**20:.0f} MiB",
            f"{last['vertices']:,}", f"{last['faces']:,}",
        ])
    return (f"`{path.name}`: {size / 1e6:.0f} MB. **oxport takes {ours / medians['rapidobj']:.2f} of "
            f"rapidobj's time.**\n\n" if "rapidobj" in medians else f"`{path.name}`: {size / 1e6:.0f} MB.\n\n") + table(
        ["reader", "median", "time vs oxport", "runs (s)", "throughput", "peak memory", "vertices", "faces"], rows)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=7, help="runs of each reader (median taken); trimesh runs half as many")
    parser.add_argument("--objects", type=int, default=4000, help="objects in the many-object scene")
    args = parser.parse_args()
    if shutil.which("blender") is None or not SCRIPTS.is_dir():
        raise SystemExit("Blender is needed to make the files (apt-get install -y blender)")
    python313 = subprocess.run([str(ROOT / "bench" / "python313.sh")], check=True, capture_output=True,
                               text=True).stdout.strip()
    files = [
        blender_file("monkey6", "monkey.py", ["6"]),
        blender_file(f"scene{args.objects}_1", "scene.py", [str(args.objects), "1"]),
    ]
    directory = ROOT / "target" / "bench-read"
    directory.mkdir(parents=True, exist_ok=True)
    workers = [Worker("oxport", sys.executable), Worker("rapidobj", python313),
               Worker("tinyobjloader", sys.executable), Worker("trimesh", sys.executable)]
    sections = [f"""## OBJ import

Machine: {machine()}; oxport on {os.cpu_count()} threads. Time from the call to
numpy arrays of what the reader gives (oxport: positions, UVs, normals, faces and
their indices per object; rapidobj: positions, triangles, UVs and their indices,
without normals; tinyobjloader: positions, UVs, normals, polygon indices and
sizes per object; trimesh: positions and triangles per object), each reader in a
process of its own, the file in the page cache, readers in rotating order,
medians of {args.runs} runs (trimesh: {max(1, args.runs // 2)}). rapidobj {rapidobj_version(python313)}
(Python 3.13), tinyobjloader {version("tinyobjloader")}, trimesh {version("trimesh")}.
rapidobj and trimesh triangulate, so their face counts are of triangles.
Peak memory is the process's peak resident set: for oxport it includes the pages of
the memory-mapped file (page cache, shared and reclaimable), which the others read
into buffers instead.

Command: `make bench-read` (`.venv/bin/python bench/obj_read.py --runs {args.runs}`).
"""]
    try:
        for obj in files:
            path = staged(obj, directory)
            sections.append(section(path, measure(workers, path, args.runs)))
    finally:
        for worker in workers:
            worker.close()
    text = "\n\n".join(sections)
    update_section("obj-read", text)
    print(text)


def version(package: str) -> str:
    from importlib.metadata import version as installed

    return installed(package)


def rapidobj_version(python: str) -> str:
    return subprocess.run([python, "-c", "from importlib.metadata import version; print(version('rapidobj'))"],
                          check=True, capture_output=True, text=True).stdout.strip()


if __name__ == "__main__":
    main()
