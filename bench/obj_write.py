"""OBJ export side by side, in one run on one machine:

1. Blender 3.4's exporter on the monkey subdivided 6 times (2M faces, 338 MB)
   against oxport writing the same data (Blender's file parsed back into
   arrays), when Blender is installed;
2. oxport against trimesh's OBJ export and a numpy ``savetxt`` writer on the
   same arrays.

Every writer writes a new file in the same directory (the old one is removed
and the disk synced first, so no run reuses another's page cache), medians of
several runs. Writes its section of docs/benchmarks.md.
Run: make bench-obj (or .venv/bin/python bench/obj_write.py [--runs N]).
"""

from __future__ import annotations

import argparse
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

import oxport
from docs import ROOT, machine, median_time, table, update_section

sys.path.insert(0, str(ROOT / "python" / "tests"))
from objparse import read_obj  # noqa: E402

SCRIPTS = ROOT / "integrations" / "blender" / "refdata"
REFDATA = ROOT / "target" / "refdata"


def fresh(path: Path) -> None:
    """No file at ``path`` and nothing dirty in the page cache."""
    if path.exists():
        path.unlink()
    os.sync()


def timed(path: Path, write) -> float:
    fresh(path)
    start = time.perf_counter()
    write()
    return time.perf_counter() - start


def blender_export_seconds(level: int, out: Path) -> float:
    fresh(out)
    result = subprocess.run(
        ["blender", "-b", "--factory-startup", "--python", str(SCRIPTS / "monkey.py"), "--", str(level), str(out)],
        capture_output=True, text=True, check=True,
    )
    return float(re.search(r"EXPORT_SECONDS ([0-9.]+)", result.stdout).group(1))


def savetxt_writer(path: Path, positions: np.ndarray, normals: np.ndarray, uvs: np.ndarray, corners: np.ndarray) -> None:
    """OBJ with numpy alone: one savetxt per kind of line (quads only)."""
    with open(path, "wb") as f:
        f.write(b"o mesh\n")
        np.savetxt(f, positions, fmt="v %.6f %.6f %.6f")
        np.savetxt(f, normals, fmt="vn %.4f %.4f %.4f")
        np.savetxt(f, uvs, fmt="vt %.6f %.6f")
        np.savetxt(f, corners.reshape(-1, 12) + 1, fmt="f %d/%d/%d %d/%d/%d %d/%d/%d %d/%d/%d")


def uv_sphere(segments: int, rings: int) -> dict[str, np.ndarray]:
    """A quad-only UV sphere (poles as degenerate quads) built with numpy."""
    theta = np.linspace(0, np.pi, rings + 1, dtype=np.float32)[:, None]
    phi = np.linspace(0, 2 * np.pi, segments, endpoint=False, dtype=np.float32)[None, :]
    positions = np.stack([np.sin(theta) * np.cos(phi), np.sin(theta) * np.sin(phi), np.cos(theta) + 0 * phi], -1)
    positions = positions.reshape(-1, 3).astype(np.float32)
    uvs = np.stack(np.meshgrid(np.linspace(0, 1, segments + 1), np.linspace(1, 0, rings + 1)), -1).reshape(-1, 2)
    i, j = np.meshgrid(np.arange(rings), np.arange(segments), indexing="ij")
    v = lambda a, b: a * segments + b % segments  # noqa: E731
    t = lambda a, b: a * (segments + 1) + b  # noqa: E731
    quads_v = np.stack([v(i, j), v(i + 1, j), v(i + 1, j + 1), v(i, j + 1)], -1).reshape(-1)
    quads_t = np.stack([t(i, j), t(i + 1, j), t(i + 1, j + 1), t(i, j + 1)], -1).reshape(-1)
    return dict(positions=positions, normals=positions.copy(), uvs=uvs.astype(np.float32),
                position_indices=quads_v.astype(np.uint32), uv_indices=quads_t.astype(np.uint32))


def compare_python_writers(runs: int, directory: Path) -> str:
    import trimesh

    sphere = uv_sphere(2048, 1024)  # 2M quads
    faces = len(sphere["position_indices"]) // 4
    offsets = np.arange(0, 4 * faces + 1, 4, dtype=np.uint32)
    mesh = oxport.Mesh("mesh", sphere["positions"], offsets, sphere["position_indices"], uvs=sphere["uvs"],
                       uv_indices=sphere["uv_indices"], normals=sphere["normals"],
                       normal_indices=sphere["position_indices"], smooth=np.ones(faces, np.uint32))
    out = directory / "bench.obj"
    rows = []
    oxport_seconds, _ = median_time(lambda: timed(out, lambda: oxport.write_obj(out, [mesh])), runs)
    size = out.stat().st_size
    rows.append(["oxport.write_obj (quads, v/vt/vn)", f"{size / 1e6:.0f} MB", f"{oxport_seconds:.3f} s", "1.0×"])
    corners = np.stack([sphere["position_indices"], sphere["uv_indices"], sphere["position_indices"]], -1)
    seconds, _ = median_time(lambda: timed(out, lambda: savetxt_writer(
        out, sphere["positions"], sphere["normals"], sphere["uvs"], corners)), max(1, runs // 2))
    rows.append(["numpy savetxt, same lines", f"{out.stat().st_size / 1e6:.0f} MB", f"{seconds:.3f} s", f"{seconds / oxport_seconds:.1f}×"])

    # trimesh keeps triangles and per-vertex normals: give both writers that same triangle mesh.
    quads = sphere["position_indices"].reshape(-1, 4)
    triangles = np.concatenate([quads[:, [0, 1, 2]], quads[:, [0, 2, 3]]])
    tri = trimesh.Trimesh(vertices=sphere["positions"], faces=triangles, vertex_normals=sphere["normals"], process=False)
    tri_mesh = oxport.Mesh("mesh", sphere["positions"], np.arange(0, 3 * len(triangles) + 1, 3, dtype=np.uint32),
                           triangles.reshape(-1).astype(np.uint32), normals=sphere["normals"],
                           normal_indices=triangles.reshape(-1).astype(np.uint32))
    ox_tri, _ = median_time(lambda: timed(out, lambda: oxport.write_obj(out, [tri_mesh])), runs)
    rows.append(["oxport.write_obj (triangles, v//vn)", f"{out.stat().st_size / 1e6:.0f} MB", f"{ox_tri:.3f} s", "1.0×"])

    def trimesh_write() -> None:
        text = trimesh.exchange.obj.export_obj(tri, include_normals=True, include_texture=False)
        with open(out, "w") as f:
            f.write(text)

    seconds, _ = median_time(lambda: timed(out, trimesh_write), max(1, runs // 2))
    rows.append(["trimesh export_obj, same triangles", f"{out.stat().st_size / 1e6:.0f} MB", f"{seconds:.3f} s", f"{seconds / ox_tri:.1f}×"])
    out.unlink()
    return table(["writer (2M-quad sphere)", "file", "median time", "time vs oxport"], rows)


def compare_blender(runs: int, directory: Path) -> str:
    level = 6
    reference = REFDATA / f"monkey{level}.obj"
    REFDATA.mkdir(parents=True, exist_ok=True)
    blender_out = directory / reference.name  # its mtllib names the MTL beside it
    oxport_out = directory / "oxport.obj"
    blender_times, oxport_times = [], []
    parsed = None
    for run in range(runs):
        # Alternate the two so that both see the same machine state.
        blender_times.append(blender_export_seconds(level, blender_out))
        if parsed is None:
            shutil.copy(blender_out, reference)
            shutil.copy(blender_out.with_suffix(".mtl"), reference.with_suffix(".mtl"))
            parsed = read_obj(str(blender_out))
        oxport_times.append(timed(oxport_out, lambda: oxport.write_obj(
            oxport_out, parsed.meshes, header="\n".join(parsed.header), mtllib=parsed.mtllib)))
    identical = oxport_out.read_bytes() == blender_out.read_bytes()
    size = blender_out.stat().st_size
    blender_median = sorted(blender_times)[runs // 2]
    oxport_median = sorted(oxport_times)[runs // 2]
    rows = [
        ["Blender 3.4 `wm.obj_export`", f"{blender_median:.3f} s", ", ".join(f"{t:.2f}" for t in blender_times), f"{size / 1e6 / blender_median:.0f} MB/s"],
        ["oxport.write_obj, same data", f"{oxport_median:.3f} s", ", ".join(f"{t:.2f}" for t in oxport_times), f"{size / 1e6 / oxport_median:.0f} MB/s"],
    ]
    faces = sum(m.face_count for m in parsed.meshes)
    return (
        f"Monkey subdivided {level} times: {faces:,} faces, {size / 1e6:.0f} MB of OBJ. "
        f"oxport's file is {'byte-identical to' if identical else 'DIFFERENT from'} Blender's. "
        f"**oxport takes 1/{blender_median / oxport_median:.1f} of Blender's time.**\n\n"
        + table(["exporter", "median", "runs (s)", "throughput"], rows)
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=5, help="runs of each writer (median taken)")
    parser.add_argument("--dir", type=Path, default=None, help="where to write (default: a temporary directory under target/)")
    args = parser.parse_args()
    (ROOT / "target").mkdir(exist_ok=True)
    directory = args.dir or Path(tempfile.mkdtemp(prefix="bench-obj-", dir=ROOT / "target"))
    directory.mkdir(parents=True, exist_ok=True)
    threads = os.cpu_count()
    sections = [f"""## OBJ export

Machine: {machine()}; oxport on {threads} threads. Each writer writes a new file
(the previous one removed and the disk synced first); medians of {args.runs} runs.

Command: `make bench-obj` (`.venv/bin/python bench/obj_write.py --runs {args.runs}`).
"""]
    if shutil.which("blender") and SCRIPTS.is_dir():
        sections.append("### Against Blender 3.4's exporter\n\n" + compare_blender(args.runs, directory))
    else:
        sections.append("### Against Blender 3.4's exporter\n\nBlender is not installed: not measured in this run.")
    sections.append("### Against Python writers\n\n" + compare_python_writers(args.runs, directory))
    text = "\n\n".join(sections)
    update_section("obj-write", text)
    print(text)
    shutil.rmtree(directory, ignore_errors=True)


if __name__ == "__main__":
    main()
