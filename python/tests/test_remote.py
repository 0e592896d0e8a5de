"""Object storage: the command line tool reading and writing ``s3://`` URLs
against a real S3 endpoint (moto's, served over HTTP by this process; see
``s3server.py``), with the bytes each read fetched counted at the server.

Outputs must be the bytes the same conversion writes to local files, reads
must fetch only what they need, and a write that fails or is killed must
leave no object and no pending multipart upload behind."""

from __future__ import annotations

import os
import signal
import subprocess
import threading
import time
import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from distributed import Client, LocalCluster

import oxport
import oxport.dask as od
import oxport.exr as exr
import oxport.seekable as seekable
from s3server import S3Server
from test_dask import batch_inputs, data_files


@pytest.fixture(scope="session")
def s3() -> Iterator[S3Server]:
    """The endpoint, with this process's environment pointing at it (for
    s3fs and boto3 here, and the tool's subprocesses)."""
    server = S3Server().start()
    saved = {name: os.environ.get(name) for name in server.environment()}
    os.environ.update(server.environment())
    try:
        yield server
    finally:
        for name, value in saved.items():
            if value is None:
                os.environ.pop(name, None)
            else:
                os.environ[name] = value
        server.stop()


@pytest.fixture(scope="module")
def cluster(s3: S3Server) -> Iterator[Client]:
    """A LocalCluster of 2 worker processes, started with the endpoint in
    their environment."""
    with LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address=":0") as workers:
        with Client(workers) as client:
            yield client


@pytest.fixture
def bucket(s3: S3Server) -> str:
    """A new, empty bucket."""
    import s3fs

    name = f"b-{uuid.uuid4().hex[:12]}"
    s3fs.S3FileSystem(skip_instance_cache=True).mkdir(name)
    return name


def fs() -> Any:
    import s3fs

    return s3fs.S3FileSystem(skip_instance_cache=True)


def run(cli: Path, *args: str, check: bool = True) -> subprocess.CompletedProcess[str]:
    done = subprocess.run([str(cli), *args], capture_output=True, text=True, env=os.environ.copy())
    if check and done.returncode != 0:
        raise AssertionError(f"oxport {' '.join(args)} failed: {done.stderr}")
    return done


def pending_uploads(bucket: str) -> list[Any]:
    """The bucket's multipart uploads begun and neither completed nor
    aborted."""
    return list(fs().list_multipart_uploads(bucket))


def frame(path: Path, seed: int, tiles: bool = True) -> bytes:
    rng = np.random.default_rng(seed)
    channels = {c: rng.random((300, 420)).astype(np.float16) for c in "RGB"}
    exr.write(path, channels, tiles=(64, 64) if tiles else None, compression="zip")
    return path.read_bytes()


def test_exr_convert_from_and_to_a_bucket_writes_the_local_bytes(
        cli: Path, bucket: str, tmp_path: Path) -> None:
    remote = fs()
    for i in range(3):
        frame(tmp_path / f"f{i}.exr", i, tiles=i != 1)
        remote.put_file(str(tmp_path / f"f{i}.exr"), f"{bucket}/in/f{i}.exr")
    # One file to one object, then several to a prefix.
    run(cli, "exr", "convert", f"s3://{bucket}/in/f0.exr", f"s3://{bucket}/one.exr", "-c", "piz")
    run(cli, "exr", "convert", *(f"s3://{bucket}/in/f{i}.exr" for i in range(3)),
        f"s3://{bucket}/out/", "-c", "zstd")
    run(cli, "exr", "convert", str(tmp_path / "f0.exr"), str(tmp_path / "one.exr"), "-c", "piz")
    (tmp_path / "out").mkdir()
    run(cli, "exr", "convert", *(str(tmp_path / f"f{i}.exr") for i in range(3)),
        str(tmp_path / "out"), "-c", "zstd")
    assert remote.cat_file(f"{bucket}/one.exr") == (tmp_path / "one.exr").read_bytes()
    assert sorted(remote.ls(f"{bucket}/out")) == [f"{bucket}/out/f{i}.exr" for i in range(3)]
    for i in range(3):
        assert remote.cat_file(f"{bucket}/out/f{i}.exr") == (tmp_path / "out" / f"f{i}.exr").read_bytes()
    info = run(cli, "exr", "info", f"s3://{bucket}/one.exr").stdout
    assert f"s3://{bucket}/one.exr: {(tmp_path / 'one.exr').stat().st_size} bytes, one part" in info
    # A local file into a bucket, and back.
    run(cli, "exr", "convert", str(tmp_path / "f2.exr"), f"s3://{bucket}/up.exr", "-c", "piz")
    run(cli, "exr", "convert", f"s3://{bucket}/up.exr", str(tmp_path / "down.exr"), "-c", "zstd")
    assert (tmp_path / "down.exr").read_bytes() == (tmp_path / "out" / "f2.exr").read_bytes()
    assert pending_uploads(bucket) == []


def test_a_small_read_of_an_archive_in_a_bucket_fetches_under_two_frames(
        cli: Path, s3: S3Server, bucket: str, tmp_path: Path) -> None:
    payload = np.random.default_rng(3).integers(0, 256, 3_000_000, dtype=np.uint8).tobytes()
    (tmp_path / "blob").write_bytes(payload)
    frame_size = 256 << 10
    run(cli, "zst", "pack", str(tmp_path / "blob"), f"s3://{bucket}/blob.zst", "--frame-size", "256K")
    run(cli, "zst", "pack", str(tmp_path / "blob"), str(tmp_path / "blob.zst"), "--frame-size", "256K")
    assert fs().cat_file(f"{bucket}/blob.zst") == (tmp_path / "blob.zst").read_bytes()
    s3.reset()
    done = subprocess.run([str(cli), "zst", "cat", f"s3://{bucket}/blob.zst", "--offset", "1000000",
                           "--length", "4096"], capture_output=True, env=os.environ.copy())
    assert done.returncode == 0, done.stderr
    assert done.stdout == payload[1_000_000:1_004_096]
    fetched = s3.fetched(bucket, "blob.zst")
    assert 0 < fetched < 2 * frame_size, f"a 4 KiB read fetched {fetched} bytes"
    # The seek table's footer, the table, and the frame up to the range in
    # one request (a remote source reads a megabyte at a time).
    assert len(s3.gets(bucket, "blob.zst")) == 3, s3.gets(bucket, "blob.zst")
    # Unpacked from the bucket into it, and to a local file.
    run(cli, "zst", "unpack", f"s3://{bucket}/blob.zst", f"s3://{bucket}/blob")
    run(cli, "zst", "unpack", f"s3://{bucket}/blob.zst", str(tmp_path / "back"))
    assert fs().cat_file(f"{bucket}/blob") == payload
    assert (tmp_path / "back").read_bytes() == payload


def test_obj_convert_publishes_the_obj_and_its_mtl(cli: Path, bucket: str, tmp_path: Path) -> None:
    (tmp_path / "scene.obj").write_text(
        "mtllib scene.mtl\no tri\nv 0 0 0\nv 1 0 0\nv 0 1 0\nusemtl red\nf 1 2 3\n")
    (tmp_path / "scene.mtl").write_text("newmtl red\nKd 1 0 0\n")
    remote = fs()
    remote.put_file(str(tmp_path / "scene.obj"), f"{bucket}/scene.obj")
    run(cli, "obj", "convert", str(tmp_path / "scene.obj"), f"s3://{bucket}/out/scene.obj", "--precision", "3")
    run(cli, "obj", "convert", str(tmp_path / "scene.obj"), str(tmp_path / "local.obj"), "--precision", "3")
    assert sorted(remote.ls(f"{bucket}/out")) == [f"{bucket}/out/scene.mtl", f"{bucket}/out/scene.obj"]
    local_obj = (tmp_path / "local.obj").read_text().replace("local.mtl", "scene.mtl")
    assert remote.cat_file(f"{bucket}/out/scene.obj").decode() == local_obj
    assert remote.cat_file(f"{bucket}/out/scene.mtl") == (tmp_path / "local.mtl").read_bytes()
    # From the bucket: the OBJ is fetched, and its MTL beside it; the same
    # bytes as the local conversion.
    remote.put_file(str(tmp_path / "scene.mtl"), f"{bucket}/scene.mtl")
    done = run(cli, "obj", "convert", f"s3://{bucket}/scene.obj", str(tmp_path / "from.obj"),
               "--precision", "3")
    assert done.stderr == ""
    assert (tmp_path / "from.obj").read_text() == (tmp_path / "local.obj").read_text().replace(
        "local.mtl", "from.mtl")
    assert (tmp_path / "from.mtl").read_bytes() == (tmp_path / "local.mtl").read_bytes()
    # An MTL that is not there, and one that leaves the OBJ's prefix, are
    # warnings naming them (errors with --strict); neither is fetched.
    remote.pipe_file(f"{bucket}/sub/odd.obj",
                     b"mtllib gone.mtl\nmtllib ../scene.mtl\no tri\nv 0 0 0\nv 1 0 0\nv 0 1 0\nf 1 2 3\n")
    done = run(cli, "obj", "convert", f"s3://{bucket}/sub/odd.obj", str(tmp_path / "odd.obj"))
    assert f"s3://{bucket}/sub/gone.mtl" in done.stderr and "../scene.mtl" in done.stderr, done.stderr
    assert "outside" in done.stderr
    failed = subprocess.run([str(cli), "obj", "convert", "--strict", f"s3://{bucket}/sub/odd.obj",
                             str(tmp_path / "strict.obj")], capture_output=True, text=True)
    assert failed.returncode != 0 and "gone.mtl" in failed.stderr, failed.stderr
    assert "3 vertices" in run(cli, "obj", "info", f"s3://{bucket}/scene.obj").stdout


def test_missing_buckets_and_objects_are_one_clear_error_naming_the_url(
        cli: Path, bucket: str, tmp_path: Path) -> None:
    frame(tmp_path / "f.exr", 1)
    for args, url in [
        (["exr", "convert", "s3://no-such-bucket-here/f.exr", str(tmp_path / "x.exr")],
         "s3://no-such-bucket-here/f.exr"),
        (["exr", "convert", f"s3://{bucket}/missing.exr", str(tmp_path / "x.exr")],
         f"s3://{bucket}/missing.exr"),
        (["exr", "convert", str(tmp_path / "f.exr"), "s3://no-such-bucket-here/f.exr"],
         "s3://no-such-bucket-here/f.exr"),
        (["zst", "cat", f"s3://{bucket}/missing.zst"], f"s3://{bucket}/missing.zst"),
    ]:
        done = run(cli, *args, check=False)
        assert done.returncode != 0
        lines = [line for line in done.stderr.splitlines() if url in line]
        assert len(lines) == 1 and "not found" in lines[0], done.stderr
        assert "Traceback" not in done.stderr and "panicked" not in done.stderr
    assert not (tmp_path / "x.exr").exists()


def test_a_denied_request_is_one_clear_error_naming_the_url(
        cli: Path, s3: S3Server, bucket: str, tmp_path: Path) -> None:
    import json

    import boto3
    from moto import settings
    from moto.core.authorization import ActionAuthenticatorMixin

    # A user who may read the bucket's in/ and nothing else.
    iam = boto3.client("iam", endpoint_url=s3.url)
    user = f"reader-{uuid.uuid4().hex[:8]}"
    iam.create_user(UserName=user)
    iam.put_user_policy(UserName=user, PolicyName="read-in", PolicyDocument=json.dumps({
        "Version": "2012-10-17",
        "Statement": [{"Effect": "Allow", "Action": ["s3:GetObject"],
                       "Resource": f"arn:aws:s3:::{bucket}/in/*"}]}))
    key = iam.create_access_key(UserName=user)["AccessKey"]
    frame(tmp_path / "f.exr", 1)
    for prefix in ["in", "secret"]:
        fs().put_file(str(tmp_path / "f.exr"), f"{bucket}/{prefix}/f.exr")
    reader = {**os.environ, "AWS_ACCESS_KEY_ID": key["AccessKeyId"],
              "AWS_SECRET_ACCESS_KEY": key["SecretAccessKey"]}
    stranger = {**reader, "AWS_SECRET_ACCESS_KEY": "not-the-secret"}

    def tool(env: dict[str, str], *args: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run([str(cli), *args], capture_output=True, text=True, env=env)

    # From here on the endpoint checks every request's signature and
    # policy, as S3 does.
    saved = settings.INITIAL_NO_AUTH_ACTION_COUNT, ActionAuthenticatorMixin.request_count
    settings.INITIAL_NO_AUTH_ACTION_COUNT, ActionAuthenticatorMixin.request_count = 0, 0
    try:
        allowed = tool(reader, "exr", "convert", f"s3://{bucket}/in/f.exr", str(tmp_path / "ok.exr"))
        denied = [
            (tool(reader, "exr", "convert", f"s3://{bucket}/secret/f.exr", str(tmp_path / "x.exr")),
             f"s3://{bucket}/secret/f.exr"),
            (tool(reader, "exr", "convert", str(tmp_path / "f.exr"), f"s3://{bucket}/in/new.exr"),
             f"s3://{bucket}/in/new.exr"),
            (tool(stranger, "exr", "convert", f"s3://{bucket}/in/f.exr", str(tmp_path / "x.exr")),
             f"s3://{bucket}/in/f.exr"),
        ]
    finally:
        settings.INITIAL_NO_AUTH_ACTION_COUNT, ActionAuthenticatorMixin.request_count = saved
    assert allowed.returncode == 0, allowed.stderr
    assert (tmp_path / "ok.exr").exists()
    for done, url in denied:
        assert done.returncode != 0
        lines = [line for line in done.stderr.splitlines() if url in line]
        assert len(lines) == 1 and "access denied" in lines[0], done.stderr
        assert "Traceback" not in done.stderr and "panicked" not in done.stderr
    assert not (tmp_path / "x.exr").exists()
    assert sorted(fs().ls(bucket, refresh=True)) == [f"{bucket}/in", f"{bucket}/secret"]
    assert fs().ls(f"{bucket}/in", refresh=True) == [f"{bucket}/in/f.exr"]


def test_a_failed_conversion_publishes_nothing(cli: Path, bucket: str, tmp_path: Path) -> None:
    data = frame(tmp_path / "f.exr", 2)
    (tmp_path / "cut.exr").write_bytes(data[: len(data) // 2])
    done = run(cli, "exr", "convert", str(tmp_path / "cut.exr"), f"s3://{bucket}/cut.exr", check=False)
    assert done.returncode != 0
    assert fs().ls(bucket) == []
    assert pending_uploads(bucket) == []


def test_a_writer_killed_mid_object_leaves_no_object_and_no_pending_upload(
        cli: Path, s3: S3Server, bucket: str, tmp_path: Path) -> None:
    # 160 MB that do not compress: the archive's upload takes a while, and
    # the tool is killed once the server has begun to receive it.
    with open(tmp_path / "big", "wb") as out:
        rng = np.random.default_rng(4)
        for _ in range(10):
            out.write(rng.integers(0, 256, 16 << 20, dtype=np.uint8).tobytes())
    s3.reset()
    writer = subprocess.Popen([str(cli), "zst", "pack", str(tmp_path / "big"), f"s3://{bucket}/big.zst"],
                              stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env=os.environ.copy())
    try:
        deadline = time.monotonic() + 120
        while not any(method in ("PUT", "POST") and path.startswith(f"/{bucket}/big.zst")
                      for method, path in list(s3.started)):
            assert writer.poll() is None, "the tool ended before it began to upload"
            assert time.monotonic() < deadline, "the upload never began"
            time.sleep(0.002)
        writer.send_signal(signal.SIGKILL)
    finally:
        writer.wait()
    time.sleep(0.5)  # the server finishes with the broken request
    assert fs().ls(bucket, refresh=True) == []
    assert pending_uploads(bucket) == []


def test_a_window_of_tiled_4k_frames_by_url_fetches_a_small_fraction(
        s3: S3Server, bucket: str, cluster: Client, tmp_path: Path) -> None:
    # 4K frames of half RGB in 64×64 tiles, a smooth image with noise (as
    # renders are), compressed with zip.
    height, width = 2160, 3840
    y, x = np.mgrid[0:height, 0:width].astype(np.float32)
    remote = fs()
    total = 0
    planes = []
    for i in range(3):
        rng = np.random.default_rng(i)
        channels = {c: (np.sin(x / (300 + 50 * k + i)) * np.cos(y / 400) + 0.05 * rng.random((height, width))
                        ).astype(np.float16) for k, c in enumerate("RGB")}
        exr.write(tmp_path / f"f{i}.exr", channels, tiles=(64, 64), compression="zip")
        remote.put_file(str(tmp_path / f"f{i}.exr"), f"{bucket}/f{i}.exr")
        total += (tmp_path / f"f{i}.exr").stat().st_size
        planes.append(channels["G"])
    s3.reset()
    # A 256×256 window of one channel, not on the tiles' grid.
    window = ((1000, 700), (1255, 955))
    for i in range(3):
        with exr.open(f"s3://{bucket}/f{i}.exr") as f:
            got = f.read(channels=["G"], window=window)["G"]
        assert np.array_equal(got, planes[i][700:956, 1000:1256])
    fetched = s3.fetched(bucket)
    assert 0 < fetched < 0.05 * total, f"fetched {fetched} of {total} bytes"
    # Per frame: the first 64 KiB, which hold the header and the offset
    # table and tell the size (no HEAD), and one request per row of tiles
    # (the window's 25 tiles lie in 5 rows, each row end to end).
    requests = [r for r in s3.requests if "f0.exr" in r.path]
    assert [r.method for r in requests] == ["GET"] * 6, requests
    # The same window of the frames as a Dask array, computed by the
    # cluster's workers: each opens its frames and reads the window alone.
    stack = od.exr_stack([f"s3://{bucket}/f{i}.exr" for i in range(3)], channels="G")
    assert stack.shape == (3, height, width) and stack.chunks[0] == (1, 1, 1)
    s3.reset()
    got = cluster.compute(stack[:, 700:956, 1000:1256]).result()
    assert np.array_equal(got, np.stack([p[700:956, 1000:1256] for p in planes]))
    fetched = s3.fetched(bucket)
    assert 0 < fetched < 0.05 * total, f"the stack fetched {fetched} of {total} bytes"
    # Steps, a reversed axis and an index, as numpy gives them.
    rgb = od.exr_stack([f"s3://{bucket}/f{i}.exr" for i in range(3)], channels=["B", "G"])
    got = cluster.compute(rgb[2, 2000:1900:-3, 5:3000:700]).result()
    assert np.array_equal(got[..., 1], planes[2][2000:1900:-3, 5:3000:700])


def test_archives_and_images_open_by_url_from_python(s3: S3Server, bucket: str, tmp_path: Path) -> None:
    import oxport.seekable as seekable

    payload = np.random.default_rng(5).integers(0, 256, 2_000_000, dtype=np.uint8).tobytes()
    (tmp_path / "blob").write_bytes(payload)
    seekable.pack(tmp_path / "blob", tmp_path / "blob.zst", frame_size=128 << 10)
    fs().put_file(str(tmp_path / "blob.zst"), f"{bucket}/blob.zst")
    s3.reset()
    with seekable.open(f"s3://{bucket}/blob.zst") as archive:
        archive.seek(1_500_000)
        assert archive.read(4096) == payload[1_500_000:1_504_096]
    assert 0 < s3.fetched(bucket) < 2 * (128 << 10)
    frame(tmp_path / "f.exr", 6)
    fs().put_file(str(tmp_path / "f.exr"), f"{bucket}/f.exr")
    header, channels = exr.read(f"s3://{bucket}/f.exr")
    _, local = exr.read(tmp_path / "f.exr")
    assert all(np.array_equal(channels[c], local[c]) for c in "RGB")
    with pytest.raises(FileNotFoundError, match=f"s3://{bucket}/nothing.exr"):
        exr.read(f"s3://{bucket}/nothing.exr")
    # Objects shorter than the first read, and empty ones (which refuse a
    # range), are what they are: not images.
    for name, data in [("empty.exr", b""), ("short.exr", b"not an image")]:
        fs().pipe_file(f"{bucket}/{name}", data)
        with pytest.raises(oxport.CorruptError, match="not an OpenEXR file"):
            exr.open(f"s3://{bucket}/{name}")


def test_a_large_object_read_whole_is_fetched_in_ranges_at_once_and_obj_reads_file_objects(
        s3: S3Server, bucket: str, tmp_path: Path) -> None:
    # An OBJ file of about 20 MB, read whole from the bucket: in 8 MiB
    # ranges, fetched side by side; the scene is the local file's.
    positions = np.random.default_rng(8).random((700_000, 3), np.float32)
    corners = np.arange(699_999, dtype=np.uint32)
    mesh = oxport.Mesh("cloud", positions, np.arange(0, 700_000, 3, dtype=np.uint32), corners)
    oxport.write_obj(tmp_path / "cloud.obj", [mesh])
    size = (tmp_path / "cloud.obj").stat().st_size
    fs().put_file(str(tmp_path / "cloud.obj"), f"{bucket}/cloud.obj")
    s3.reset()
    scene = oxport.read_obj(f"s3://{bucket}/cloud.obj")
    local = oxport.read_obj(tmp_path / "cloud.obj")
    assert np.array_equal(scene.meshes[0].positions, local.meshes[0].positions)
    assert np.array_equal(scene.meshes[0].position_indices, local.meshes[0].position_indices)
    gets = s3.gets(bucket, "cloud.obj")
    assert len(gets) == -(-size // (8 << 20)) >= 3, gets
    assert sum(r.sent for r in gets) == size
    # Through an fsspec file object: the same scene; its MTL files, which
    # lie in no folder, are a warning.
    (tmp_path / "tri.obj").write_text("mtllib tri.mtl\no tri\nv 0 0 0\nv 1 0 0\nv 0 1 0\nf 1 2 3\n")
    fs().put_file(str(tmp_path / "tri.obj"), f"{bucket}/tri.obj")
    with fs().open(f"{bucket}/tri.obj", "rb") as file:
        scene = oxport.read_obj(file)
    assert scene.meshes[0].positions.shape == (3, 3) and scene.mtllibs == ["tri.mtl"]
    assert [w.what for w in scene.warnings] == [
        "MTL files not read: the OBJ file was read from a stream, which lies in no folder"]
    with fs().open(f"{bucket}/tri.obj", "rb") as file, pytest.raises(oxport.ParseError, match="MTL files not read"):
        oxport.read_obj(file, strict=True)


def test_python_writers_publish_urls_whole(s3: S3Server, bucket: str, tmp_path: Path) -> None:
    import oxport.seekable as seekable

    channels = {c: np.random.default_rng(7).random((64, 80)).astype(np.float32) for c in "RGB"}
    exr.write(f"s3://{bucket}/w.exr", channels, compression="zip")
    exr.write(tmp_path / "w.exr", channels, compression="zip")
    assert fs().cat_file(f"{bucket}/w.exr") == (tmp_path / "w.exr").read_bytes()
    (tmp_path / "blob").write_bytes(b"oxport " * 100_000)
    seekable.pack(tmp_path / "blob", f"s3://{bucket}/blob.zst")
    seekable.unpack(f"s3://{bucket}/blob.zst", f"s3://{bucket}/blob")
    assert fs().cat_file(f"{bucket}/blob") == (tmp_path / "blob").read_bytes()
    # A write that fails publishes nothing.
    with pytest.raises(ValueError):
        exr.write(f"s3://{bucket}/bad.exr", {"R": np.zeros((4, 4), np.float32),
                                               "G": np.zeros((5, 4), np.float32)})
    assert sorted(p.rsplit("/", 1)[1] for p in fs().ls(bucket, refresh=True)) == ["blob", "blob.zst", "w.exr"]
    assert pending_uploads(bucket) == []


@pytest.mark.parametrize("kind", ["exr", "obj", "seekable"])
def test_a_dask_batch_from_and_to_the_bucket_gives_the_local_batch_s_bytes(
        s3: S3Server, bucket: str, cluster: Client, tmp_path: Path, kind: str) -> None:
    inputs, options = batch_inputs(kind, tmp_path / "in", 6)
    remote = fs()
    for path in (tmp_path / "in").iterdir():  # an OBJ file's MTL file too
        remote.put_file(str(path), f"{bucket}/in/{path.name}")
    local = od.convert(inputs, tmp_path / "out", kind=kind, client=cluster, progress=False, **options)
    summary = od.convert(f"s3://{bucket}/in/*{inputs[0].suffix}", f"s3://{bucket}/out/", kind=kind,
                         client=cluster, progress=False, **options)
    assert summary == local and summary.files == 6, (summary, local)
    written = sorted(p.name for p in (tmp_path / "out").iterdir())
    assert sorted(p.rsplit("/", 1)[1] for p in remote.ls(f"{bucket}/out", refresh=True)) == written
    for name in written:
        assert remote.cat_file(f"{bucket}/out/{name}") == (tmp_path / "out" / name).read_bytes(), name
    if kind == "obj":
        # The materials came from the MTL files beside the inputs in the bucket.
        assert all((tmp_path / "out" / p.with_suffix(".mtl").name).stat().st_size > 0 for p in inputs)
    assert pending_uploads(bucket) == []


def test_a_dask_worker_killed_mid_object_leaves_nothing_in_the_bucket(
        s3: S3Server, bucket: str, tmp_path: Path) -> None:
    # One archive that takes a second or more to write on one thread, among
    # small ones: its worker is killed once it has begun writing it.
    big = tmp_path / "in" / "big.blend"
    big.parent.mkdir(parents=True)
    big.write_bytes((np.random.default_rng(5).integers(0, 16, 48 << 20, np.uint8) * 7).tobytes())
    inputs = [big, *data_files(tmp_path / "in", 4)]
    scratch = tmp_path / "scratch"
    scratch.mkdir()
    os.environ["TMPDIR"] = str(scratch)  # where the workers write before they publish
    try:
        with LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address=":0") as workers:
            with Client(workers) as client:
                pids = client.run(os.getpid)
                result: list[od.ConvertSummary] = []
                batch = threading.Thread(target=lambda: result.append(od.convert(
                    inputs, f"s3://{bucket}/out/", kind="seekable", client=client, progress=False, level=9)))
                batch.start()
                deadline = time.monotonic() + 60
                while not any(
                        any("big.blend.zst" in str(key) for key in keys) for keys in client.processing().values()
                ) or not list(scratch.glob(".oxport-upload.*")):
                    assert time.monotonic() < deadline, "the big archive was never started"
                    time.sleep(0.005)
                writer = next(address for address, keys in client.processing().items()
                              if any("big.blend.zst" in str(key) for key in keys))
                os.kill(pids[writer], signal.SIGKILL)
                # Nothing of the killed writer's archive is in the bucket.
                assert not fs().exists(f"{bucket}/out/big.blend.zst")
                batch.join(timeout=300)
                assert not batch.is_alive()
    finally:
        del os.environ["TMPDIR"]
    # The file the killed worker was writing was removed by the next write
    # on this machine, its writer's process being gone.
    assert list(scratch.glob(".oxport-upload.*")) == []
    summary = result[0]
    assert summary.files == len(inputs) and summary.failures == [], summary
    for path in inputs:
        with seekable.open(f"s3://{bucket}/out/{path.name}.zst") as unpacked:
            assert unpacked.read() == path.read_bytes(), path.name
    assert sorted(p.rsplit("/", 1)[1] for p in fs().ls(f"{bucket}/out", refresh=True)) == sorted(
        p.name + ".zst" for p in inputs)
    assert pending_uploads(bucket) == []


def test_writers_fill_a_file_object_only_once_the_output_is_whole(
        s3: S3Server, bucket: str, tmp_path: Path) -> None:
    import io

    channels = {c: np.random.default_rng(9).random((64, 80)).astype(np.float32) for c in "RGB"}
    exr.write(tmp_path / "w.exr", channels, compression="zip")
    # An fsspec file in the bucket, in a transaction: published when it ends.
    remote = fs()
    with remote.transaction, remote.open(f"{bucket}/w.exr", "wb") as file:
        exr.write(file, channels, compression="zip")
    assert remote.cat_file(f"{bucket}/w.exr") == (tmp_path / "w.exr").read_bytes()
    buffer = io.BytesIO()
    exr.convert(tmp_path / "w.exr", buffer, compression="zstd")
    exr.convert(tmp_path / "w.exr", tmp_path / "z.exr", compression="zstd")
    assert buffer.getvalue() == (tmp_path / "z.exr").read_bytes()
    (tmp_path / "blob").write_bytes(b"oxport " * 50_000)
    packed, unpacked = io.BytesIO(), io.BytesIO()
    assert seekable.pack(tmp_path / "blob", packed).input_bytes == 350_000
    (tmp_path / "blob.zst").write_bytes(packed.getvalue())
    assert seekable.unpack(tmp_path / "blob.zst", unpacked) == 350_000
    assert unpacked.getvalue() == (tmp_path / "blob").read_bytes()
    # A write that fails gives the file object nothing, and the
    # transaction publishes nothing.
    with pytest.raises(ValueError):
        with remote.transaction, remote.open(f"{bucket}/bad.exr", "wb") as file:
            exr.write(file, {"R": np.zeros((4, 4), np.float32), "G": np.zeros((5, 4), np.float32)})
    failed = io.BytesIO()
    with pytest.raises(ValueError):
        exr.write(failed, {"R": np.zeros((4, 4), np.float32), "G": np.zeros((5, 4), np.float32)})
    assert failed.getvalue() == b""
    assert remote.ls(bucket, refresh=True) == [f"{bucket}/w.exr"]
    assert pending_uploads(bucket) == []
    with pytest.raises(TypeError, match="writable binary file object"):
        exr.write(3, channels)  # type: ignore[arg-type]
