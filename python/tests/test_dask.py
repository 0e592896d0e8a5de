"""oxport.dask on a real dask.distributed LocalCluster of 2 worker processes:
outputs identical to the single-process path, both workers used, a worker
killed in the middle of a batch survived, bad files reported; sequences as
Dask arrays and OBJ files as Dask bags; the command line's --scheduler."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import numpy as np
import pytest
from distributed import Client, LocalCluster, get_task_stream

import oxport
import oxport.dask as od
from oxport import exr, seekable
from test_seekable import nginx  # noqa: F401  (the fixture: nginx serving a folder over HTTP)

ROOT = Path(__file__).parents[2]


@pytest.fixture(scope="module")
def client() -> Iterator[Client]:
    with LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address=":0") as cluster:
        with Client(cluster) as client:
            yield client


def frames(folder: Path, count: int, size: tuple[int, int] = (135, 240)) -> list[Path]:
    """Smooth RGBA half frames with a float depth, ZIP-compressed as renders are."""
    folder.mkdir(parents=True, exist_ok=True)
    y, x = np.mgrid[0:size[0], 0:size[1]].astype(np.float32)
    paths = []
    for i in range(count):
        channels = {c: (np.sin(x / (9 + k) + i) * np.cos(y / 7 - k)).astype(np.float16)
                    for k, c in enumerate("RGBA")}
        channels["Z"] = (x * y / (i + 1)).astype(np.float32)
        path = folder / f"shot.{i:04}.exr"
        exr.write(path, channels, compression="zip", header={"owner": f"frame {i}"})
        paths.append(path)
    return paths


def obj_files(folder: Path, count: int) -> list[Path]:
    folder.mkdir(parents=True, exist_ok=True)
    rng = np.random.default_rng(7)
    paths = []
    for i in range(count):
        positions = rng.random((30, 3), np.float32) * 10
        corners = rng.integers(0, 30, 60).astype(np.uint32)
        mesh = oxport.Mesh(f"part{i}", positions, np.arange(0, 61, 3, dtype=np.uint32), corners,
                           materials=["paint"], material_indices=np.zeros(20, np.uint32))
        path = folder / f"asset{i:03}.obj"
        oxport.write_obj(path, [mesh], mtl_materials=[oxport.Material("paint", diffuse=(0.8, 0.1, 0.1))],
                         precision="shortest")
        paths.append(path)
    return paths


def data_files(folder: Path, count: int) -> list[Path]:
    folder.mkdir(parents=True, exist_ok=True)
    rng = np.random.default_rng(3)
    paths = []
    for i in range(count):
        path = folder / f"scene{i}.blend"
        path.write_bytes((rng.integers(0, 8, 300_000 + 1000 * i, np.uint8) * 3).tobytes())
        paths.append(path)
    return paths


def batch_inputs(kind: str, folder: Path, count: int) -> tuple[list[Path], dict[str, object]]:
    """``count`` files of ``kind`` in ``folder``, and the options a batch
    converts them with."""
    if kind == "exr":
        return frames(folder, count), {"compression": "zstd"}
    if kind == "obj":
        return obj_files(folder, count), {"precision": 3}
    return data_files(folder, count), {"level": 5, "frame_size": 65536}


def temporaries(folder: Path) -> list[Path]:
    return sorted(folder.glob("*.oxport-tmp")) + sorted(folder.glob(".*.oxport-tmp"))


@pytest.mark.parametrize("kind", ["exr", "obj", "seekable"])
def test_outputs_are_those_of_the_single_process_path(client: Client, tmp_path: Path, kind: str) -> None:
    inputs, options = batch_inputs(kind, tmp_path / "in", 12)
    expected = tmp_path / "expected"
    expected.mkdir()
    for path in inputs:
        if kind == "exr":
            exr.convert(path, expected / path.name, **options)  # type: ignore[arg-type]
        elif kind == "obj":
            oxport.convert_obj(path, expected / path.name, **options)  # type: ignore[arg-type]
        else:
            seekable.pack(path, expected / (path.name + ".zst"), **options)  # type: ignore[arg-type]

    with get_task_stream(client) as stream:
        summary = od.convert(str(tmp_path / "in" / f"*{inputs[0].suffix}"), tmp_path / "out", kind=kind, client=client,
                             progress=False, **options)
    if kind == "obj":
        assert summary.files == 12 and summary.failures == [], summary
    else:
        assert summary == (12, sum(p.stat().st_size for p in inputs),
                           sum(p.stat().st_size for p in (tmp_path / "out").iterdir()), []), summary
    written = sorted(p.name for p in (tmp_path / "out").iterdir())
    assert written == sorted(p.name for p in expected.iterdir())
    for name in written:
        assert (tmp_path / "out" / name).read_bytes() == (expected / name).read_bytes(), name
    if kind == "exr":
        for name in written:
            ours, theirs = exr.read(tmp_path / "out" / name)[1], exr.read(expected / name)[1]
            assert all(np.array_equal(ours[c], theirs[c]) for c in theirs), name
    # Both worker processes took tasks.
    assert len({task["worker"] for task in stream.data}) == 2, stream.data


def test_a_worker_killed_in_the_middle_of_a_batch(tmp_path: Path) -> None:
    # One archive that takes a second or more to write on one thread, among small frames:
    # the worker writing it is killed once its temporary file is there.
    big = tmp_path / "in" / "big.blend"
    big.parent.mkdir(parents=True)
    big.write_bytes((np.random.default_rng(5).integers(0, 16, 48 << 20, np.uint8) * 7).tobytes())
    inputs = [big, *data_files(tmp_path / "in", 10)]
    out = tmp_path / "out"
    with LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address=":0") as cluster:
        with Client(cluster) as client:
            pids = client.run(os.getpid)
            result: list[od.ConvertSummary] = []
            batch = threading.Thread(target=lambda: result.append(
                od.convert(inputs, out, kind="seekable", client=client, progress=False, level=9)))
            batch.start()
            deadline = time.monotonic() + 60
            while not list(out.glob(".big.blend.zst.*.oxport-tmp")):
                assert time.monotonic() < deadline, "the big archive was never started"
                time.sleep(0.005)
            writer = next(address for address, keys in client.processing().items()
                          if any("big.blend.zst" in str(key) for key in keys))
            os.kill(pids[writer], signal.SIGKILL)
            # The killed writer's temporary file is still there: nothing of it was cleaned up.
            left = list(out.glob(".big.blend.zst.*.oxport-tmp"))
            batch.join(timeout=300)
            assert not batch.is_alive()
    assert left, "the worker was killed after it had finished writing"
    summary = result[0]
    assert summary.files == len(inputs) and summary.failures == [], summary
    for path in inputs:
        archive = out / (path.name + ".zst")
        with seekable.open(archive) as unpacked:
            assert unpacked.read() == path.read_bytes(), path.name
    assert temporaries(out) == []
    assert sorted(p.name for p in out.iterdir()) == sorted(p.name + ".zst" for p in inputs)


def test_bad_files_are_reported_and_the_rest_converted(client: Client, tmp_path: Path) -> None:
    good = frames(tmp_path / "in", 4)
    garbage = tmp_path / "in" / "garbage.exr"
    garbage.write_bytes(b"this is not an image")
    truncated = tmp_path / "in" / "truncated.exr"
    truncated.write_bytes(good[0].read_bytes()[:3000])
    missing = tmp_path / "in" / "missing.exr"
    summary = od.convert([*good, garbage, truncated, missing], tmp_path / "out", client=client,
                         progress=False, compression="zstd")
    assert summary.files == 4
    failures = dict(summary.failures)
    assert set(failures) == {str(garbage), str(truncated), str(missing)}
    assert "not an OpenEXR file" in failures[str(garbage)]
    assert "truncated" in failures[str(truncated)] or "corrupt" in failures[str(truncated)]
    assert "No such file" in failures[str(missing)]
    assert all(path in message for path, message in summary.failures)
    assert sorted(p.name for p in (tmp_path / "out").iterdir()) == [p.name for p in good]
    assert "4 of 7 files converted" in str(summary) and str(garbage) in str(summary)


def test_fsspec_urls_are_read_by_the_workers(client: Client, tmp_path: Path) -> None:
    inputs = frames(tmp_path / "in", 3)
    summary = od.convert(f"file://{tmp_path}/in/*.exr", tmp_path / "out", client=client, progress=False)
    assert summary.files == 3 and summary.failures == []
    for path in inputs:
        exr.convert(path, tmp_path / "expected.exr")
        assert (tmp_path / "out" / path.name).read_bytes() == (tmp_path / "expected.exr").read_bytes()
    summary = od.convert([f"file://{tmp_path}/in/none.exr"], tmp_path / "out", client=client, progress=False)
    assert summary.failures and summary.failures[0][0] == f"file://{tmp_path}/in/none.exr"


def test_http_urls_through_nginx(client: Client, nginx: tuple[str, Path, Path], tmp_path: Path) -> None:
    url, www, _ = nginx
    inputs = frames(www, 3)
    blends = data_files(www, 2)
    urls = [f"{url}/{p.name}" for p in inputs]
    summary = od.convert(urls, tmp_path / "out", client=client, progress=False, compression="zips")
    assert summary.files == 3 and summary.failures == [], summary
    for path in inputs:
        exr.convert(path, tmp_path / "expected.exr", compression="zips")
        assert (tmp_path / "out" / path.name).read_bytes() == (tmp_path / "expected.exr").read_bytes()
    packed = od.convert([f"{url}/{p.name}" for p in blends], tmp_path / "packed", kind="seekable",
                        client=client, progress=False)
    assert packed.files == 2 and packed.bytes_in == sum(p.stat().st_size for p in blends)
    stack = od.exr_stack(urls, channels="Z")
    assert np.array_equal(stack[2].compute(), exr.read(inputs[2])[1]["Z"])
    missing = od.convert([f"{url}/gone.exr"], tmp_path / "out", client=client, progress=False)
    assert missing.files == 0 and missing.failures[0][0] == f"{url}/gone.exr"
    assert "gone.exr" in missing.failures[0][1]


def test_bad_arguments_fail_before_any_task(client: Client, tmp_path: Path) -> None:
    inputs = frames(tmp_path / "in", 1)
    with pytest.raises(TypeError, match="the exr conversion: .*compresion"):
        od.convert(inputs, tmp_path / "out", client=client, compresion="zstd")
    with pytest.raises(TypeError, match="the obj conversion: .*'precison'"):
        od.convert(inputs, tmp_path / "out", kind="obj", client=client, precison=3)
    for kind in ("exr", "seekable", "obj"):
        with pytest.raises(TypeError, match=f"^the {kind} conversion: threads: each task uses the threads of its worker"):
            od.convert(inputs, tmp_path / "out", kind=kind, client=client, threads=2)  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="kind"):
        od.convert(inputs, tmp_path / "out", client=client, kind="png")  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="no file matches"):
        od.convert(str(tmp_path / "nothing" / "*.exr"), tmp_path / "out", client=client)
    (tmp_path / "other").mkdir()
    twin = tmp_path / "other" / inputs[0].name
    twin.write_bytes(inputs[0].read_bytes())
    with pytest.raises(ValueError, match="would both write"):
        od.convert([inputs[0], twin], tmp_path / "out", client=client)
    # Two OBJ files whose MTL files would be one.
    meshes = [tmp_path / "other" / "m.obj", tmp_path / "other" / "m.OBJ"]
    for path in meshes:
        path.write_text("o a\nv 0 0 0\nv 1 0 0\nv 0 1 0\nf 1 2 3\n")
    with pytest.raises(ValueError, match="would both write .*m.mtl"):
        od.convert(meshes, tmp_path / "out", kind="obj", client=client)
    assert not (tmp_path / "out").exists()


def test_exr_stack_reads_frames_lazily_with_the_files_dtype(client: Client, tmp_path: Path) -> None:
    paths = frames(tmp_path, 5)
    stack = od.exr_stack(str(tmp_path / "*.exr"), channels=["R", "G", "B"])
    assert stack.shape == (5, 135, 240, 3) and stack.dtype == np.float16
    assert stack.chunks[0] == (1,) * 5
    expected = np.stack([np.stack([exr.read(p)[1][c] for c in "RGB"], axis=-1) for p in paths])
    assert np.array_equal(stack.compute(), expected)
    # A slice is read alone, the slice handed down to each frame's read.
    for key in [(slice(None), slice(10, 50, 3), slice(200, 5, -7), 1), ([4, 0, 2], slice(-5, None)),
                (slice(0, 2), slice(100, 102), slice(None), [2, 0]), (slice(1, 3), 134, 239)]:
        assert np.array_equal(stack[key].compute(), expected[key]), key
    depth = od.exr_stack(paths, channels="Z")
    assert depth.shape == (5, 135, 240) and depth.dtype == np.float32
    assert np.array_equal(depth[3].compute(), exr.read(paths[3])[1]["Z"])
    with pytest.raises(ValueError, match="one pixel type"):
        od.exr_stack(paths)
    with pytest.raises(ValueError, match="no channel 'Q'"):
        od.exr_stack(paths, channels="Q")
    # A damaged frame fails the computation, naming the frame.
    cut = tmp_path / "cut" / "shot.0009.exr"
    cut.parent.mkdir()
    cut.write_bytes(paths[0].read_bytes()[:5000])
    with pytest.raises(oxport.CorruptError, match=f"{cut}: corrupt input"):
        od.exr_stack([*paths, cut], channels="Z")[:, 100:110].compute()
    # A frame of another size fails the computation, naming the frame.
    odd = frames(tmp_path / "odd", 1, size=(20, 30))[0]
    with pytest.raises(ValueError, match=r"shot.0000.exr: 30x20 pixels, the first frame 240x135"):
        od.exr_stack([*paths, odd], channels="Z").compute()


def test_read_obj_bag_gives_the_scenes(client: Client, tmp_path: Path) -> None:
    paths = obj_files(tmp_path, 4)
    scenes = od.read_obj_bag(paths).compute()
    assert len(scenes) == 4
    for path, scene in zip(paths, scenes):
        expected = oxport.read_obj(path)
        assert [m.name for m in scene.meshes] == [m.name for m in expected.meshes]
        assert np.array_equal(scene.meshes[0].positions, expected.meshes[0].positions)
        assert [m.name for m in scene.materials] == ["paint"]
    counts = od.read_obj_bag(paths).map(lambda s: sum(m.face_count for m in s.meshes)).sum().compute()
    assert counts == 4 * 20


def test_the_command_line_runs_on_a_scheduler(client: Client, tmp_path: Path) -> None:
    binary = ROOT / "target" / "debug" / "oxport"
    assert binary.exists(), "build the command line first: cargo build -p oxport-cli"
    inputs = frames(tmp_path / "in", 3)
    env = {**os.environ, "OXPORT_PYTHON": sys.executable}
    address = client.scheduler.address
    run = subprocess.run([str(binary), "exr", "convert", "--scheduler", address, *map(str, inputs),
                          str(tmp_path / "out"), "-c", "zips"], capture_output=True, text=True, env=env)
    assert run.returncode == 0, run.stderr
    assert "3 of 3 files converted" in run.stderr
    for path in inputs:
        exr.convert(path, tmp_path / "expected.exr", compression="zips")
        assert (tmp_path / "out" / path.name).read_bytes() == (tmp_path / "expected.exr").read_bytes()
    data = data_files(tmp_path / "data", 2)
    run = subprocess.run([str(binary), "zst", "pack", "--scheduler", address, *map(str, data),
                          str(tmp_path / "packed"), "--level", "7", "--frame-size", "64K"],
                         capture_output=True, text=True, env=env)
    assert run.returncode == 0, run.stderr
    for path in data:
        seekable.pack(path, tmp_path / "expected.zst", level=7, frame_size=65536)
        assert (tmp_path / "packed" / (path.name + ".zst")).read_bytes() == (tmp_path / "expected.zst").read_bytes()
    # A bad file: reported, the exit status says so.
    (tmp_path / "bad.exr").write_bytes(b"nope")
    run = subprocess.run([str(binary), "exr", "convert", "--scheduler", address, str(tmp_path / "bad.exr"),
                          str(inputs[0]), str(tmp_path / "out2")], capture_output=True, text=True, env=env)
    assert run.returncode == 1 and "bad.exr" in run.stderr and "1 of 2 files converted" in run.stderr
    # Relative paths reach the workers made absolute; one input goes to the file named.
    run = subprocess.run([str(binary), "exr", "convert", "--scheduler", address,
                          str(inputs[0].relative_to(tmp_path)), "one.exr", "-c", "zip"],
                         capture_output=True, text=True, env=env, cwd=tmp_path)
    assert run.returncode == 0, run.stderr
    exr.convert(inputs[0], tmp_path / "expected.exr", compression="zip")
    assert (tmp_path / "one.exr").read_bytes() == (tmp_path / "expected.exr").read_bytes()
    # What the command line hands over is a typed job: other text is refused, naming why.
    run = subprocess.run([sys.executable, "-m", "oxport.dask", "--scheduler", address, "--job", "-"],
                         input='{"inputs": [], "output": {"file": "x"}}', capture_output=True, text=True)
    assert run.returncode == 1 and "not a batch job" in run.stderr, run.stderr
