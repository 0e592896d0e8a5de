"""oxport.seekable: round trips through Python's file-object consumers, and
interoperability with the real tools: the ``zstd`` CLI, pyzstd's
``SeekableZstdFile``, Blender's compressed ``.blend`` files, and byte-range
reads over HTTP (nginx) through fsspec."""

from __future__ import annotations

import io
import os
import pickle
import random
import shutil
import socket
import subprocess
import tarfile
import time
import zipfile
from pathlib import Path
from typing import Iterator

import pytest

import oxport
import oxport.seekable
from conftest import SCRIPTS, blender

ZSTD_MAGIC = b"\x28\xb5\x2f\xfd"


def data(size: int, seed: int = 1) -> bytes:
    """Bytes that compress about 3:1, with no period that lines up with frames."""
    rng = random.Random(seed)
    words = [bytes(rng.randrange(97, 123) for _ in range(rng.randrange(2, 9))) for _ in range(500)]
    out = bytearray()
    while len(out) < size:
        out += rng.choice(words) + b" "
        if rng.random() < 0.05:
            out += rng.randbytes(8)
    return bytes(out[:size])


def zstd_tool() -> str:
    found = shutil.which("zstd")
    if found is None:
        pytest.skip("the zstd tool is not installed")
    return found


@pytest.fixture(scope="module")
def payload() -> bytes:
    return data(3_000_000)


def test_file_object_reads_and_seeks(payload: bytes, tmp_path: Path) -> None:
    archive = tmp_path / "a.zst"
    with oxport.seekable.open(archive, "wb", frame_size=100_000, threads=2) as f:
        assert f.writable() and not f.readable()
        for start in range(0, len(payload), 77_777):
            f.write(payload[start : start + 77_777])
    assert f.packed == oxport.seekable.Packed(30, len(payload), archive.stat().st_size)
    with oxport.seekable.open(archive) as f:
        assert f.readable() and f.seekable() and not f.writable()
        assert f.size == len(payload)
        assert len(f.frames) == 30 and f.frames[1].offset == 100_000
        assert f.read(10) == payload[:10]
        assert f.tell() == 10
        f.seek(-5, io.SEEK_END)
        assert f.read() == payload[-5:]
        assert f.read(100) == b""
        rng = random.Random(7)
        for _ in range(200):
            offset, size = rng.randrange(len(payload) + 10), rng.randrange(300_000)
            f.seek(offset)
            assert f.read(size) == payload[offset : offset + size]
        f.seek(123_456)
        buffer = bytearray(250_000)
        assert f.readinto(buffer) == 250_000
        assert bytes(buffer) == payload[123_456:373_456]
    assert f.closed
    with pytest.raises(ValueError):
        f.read(1)


def test_tarfile_zipfile_pickle_and_copyfileobj(payload: bytes, tmp_path: Path) -> None:
    tar_path = tmp_path / "files.tar"
    with tarfile.open(tar_path, "w") as tar:
        for i in range(5):
            member = tarfile.TarInfo(f"file{i}.bin")
            member.size = 400_000
            tar.addfile(member, io.BytesIO(payload[i * 400_000 : (i + 1) * 400_000]))
    packed = oxport.seekable.pack(tar_path, tmp_path / "files.tar.zst", frame_size=64 << 10)
    assert packed.input_bytes == tar_path.stat().st_size
    with oxport.seekable.open(tmp_path / "files.tar.zst") as f, tarfile.open(fileobj=f, mode="r:") as tar:
        member = tar.extractfile("file3.bin")
        assert member is not None and member.read() == payload[1_200_000:1_600_000]

    zip_path = tmp_path / "files.zip"
    with zipfile.ZipFile(zip_path, "w") as z:
        z.writestr("a.bin", payload[:500_000])
        z.writestr("b.bin", payload[500_000:900_000])
    oxport.seekable.pack(zip_path, tmp_path / "files.zip.zst", frame_size=32 << 10)
    with oxport.seekable.open(tmp_path / "files.zip.zst") as f, zipfile.ZipFile(f) as z:
        assert z.read("b.bin") == payload[500_000:900_000]

    value = {"payload": payload[:100_000], "numbers": list(range(1000))}
    with oxport.seekable.open(tmp_path / "value.pickle.zst", "wb") as f:
        pickle.dump(value, f)
    with oxport.seekable.open(tmp_path / "value.pickle.zst") as f:
        assert pickle.load(f) == value

    with oxport.seekable.open(tmp_path / "files.tar.zst") as f, open(tmp_path / "copy.tar", "wb") as out:
        shutil.copyfileobj(f, out)
    assert (tmp_path / "copy.tar").read_bytes() == tar_path.read_bytes()
    assert oxport.seekable.unpack(tmp_path / "files.tar.zst", tmp_path / "unpacked.tar") == packed.input_bytes
    assert (tmp_path / "unpacked.tar").read_bytes() == tar_path.read_bytes()


def test_an_exception_inside_with_leaves_no_archive(tmp_path: Path) -> None:
    target = tmp_path / "never.zst"
    with pytest.raises(RuntimeError):
        with oxport.seekable.open(target, "wb") as f:
            f.write(b"x" * 1000)
            raise RuntimeError("stop")
    assert not target.exists()
    assert list(tmp_path.iterdir()) == []


def test_arguments_are_checked(tmp_path: Path) -> None:
    with pytest.raises(ValueError, match="threads"):
        oxport.seekable.open(tmp_path / "a.zst", "wb", threads=0)
    with pytest.raises(ValueError, match="level"):
        oxport.seekable.open(tmp_path / "a.zst", "wb", level=100)
    with pytest.raises(ValueError, match="frame_size"):
        oxport.seekable.open(tmp_path / "a.zst", "wb", frame_size=0)
    with pytest.raises(ValueError, match="mode"):
        oxport.seekable.open(tmp_path / "a.zst", "ab")  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="file"):
        oxport.seekable.open(12)  # type: ignore[arg-type]
    with pytest.raises(FileNotFoundError):
        oxport.seekable.open(tmp_path / "missing.zst")
    assert not (tmp_path / "a.zst").exists()


@pytest.mark.parametrize("checksums", [True, False])
def test_zstd_decompresses_oxport_archives(checksums: bool, payload: bytes, tmp_path: Path) -> None:
    zstd = zstd_tool()
    source = tmp_path / "payload"
    source.write_bytes(payload)
    oxport.seekable.pack(source, tmp_path / "a.zst", frame_size=256 << 10, checksums=checksums, level=-3)
    out = subprocess.run([zstd, "-d", "-c", str(tmp_path / "a.zst")], capture_output=True, check=True)
    assert out.stdout == payload


def test_oxport_reads_what_zstd_writes(payload: bytes, tmp_path: Path) -> None:
    zstd = zstd_tool()
    source = tmp_path / "payload"
    source.write_bytes(payload)
    # With the size in the header (a file), and without it (a pipe), and
    # several frames in one file.
    subprocess.run([zstd, "-q", "-3", str(source), "-o", str(tmp_path / "sized.zst")], check=True)
    with open(source, "rb") as pipe_in, open(tmp_path / "piped.zst", "wb") as pipe_out:
        subprocess.run([zstd, "-q", "-c"], stdin=pipe_in, stdout=pipe_out, check=True)
    two = (tmp_path / "sized.zst").read_bytes() + (tmp_path / "piped.zst").read_bytes()
    (tmp_path / "two.zst").write_bytes(two)
    for name, expected, index in [
        ("sized.zst", payload, "frame headers"),
        ("piped.zst", payload, "none"),
        ("two.zst", payload + payload, "none"),
    ]:
        reader = oxport._native.SeekableReader(tmp_path / name)
        assert reader.index == index
        with oxport.seekable.open(tmp_path / name) as f:
            f.seek(2_500_000)
            assert f.read(1000) == expected[2_500_000:2_501_000], name
            f.seek(10)
            assert f.read(10) == expected[10:20], name
            assert f.size == len(expected)
        assert oxport.seekable.unpack(tmp_path / name, tmp_path / "out") == len(expected)
        assert (tmp_path / "out").read_bytes() == expected


def test_pyzstd_reads_oxport_archives_and_oxport_reads_pyzstds(payload: bytes, tmp_path: Path) -> None:
    pyzstd = pytest.importorskip("pyzstd")
    source = tmp_path / "payload"
    source.write_bytes(payload)
    oxport.seekable.pack(source, tmp_path / "ours.zst", frame_size=100_000)
    with pyzstd.SeekableZstdFile(tmp_path / "ours.zst", "r") as f:
        f.seek(1_234_567)
        assert f.read(50_000) == payload[1_234_567:1_284_567]
        f.seek(0)
        assert f.read() == payload
    with pyzstd.SeekableZstdFile(tmp_path / "theirs.zst", "w", max_frame_content_size=300_000) as f:
        f.write(payload)
    reader = oxport._native.SeekableReader(tmp_path / "theirs.zst")
    assert reader.index == "seek table"
    assert len(reader.frames()) == 10
    with oxport.seekable.open(tmp_path / "theirs.zst") as f:
        f.seek(2_999_000)
        assert f.read() == payload[2_999_000:]
        f.seek(299_990)
        assert f.read(20) == payload[299_990:300_010]


def damaged(archive: bytes, at: int, xor: int) -> bytes:
    out = bytearray(archive)
    out[at] ^= xor
    return bytes(out)


def read_all(path: Path) -> bytes:
    with oxport.seekable.open(path) as f:
        return f.read()


def test_damaged_archives_are_clear_errors(payload: bytes, tmp_path: Path) -> None:
    source = tmp_path / "payload"
    source.write_bytes(payload[:1_000_000])
    oxport.seekable.pack(source, tmp_path / "good.zst", frame_size=100_000)
    good = (tmp_path / "good.zst").read_bytes()
    frames = oxport._native.SeekableReader(tmp_path / "good.zst").frames()
    table = frames[-1][0] + frames[-1][1]
    cases = {
        # Truncated: the end is gone, so is the table; the frames run out.
        "truncated": (good[: table - 100], "truncated"),
        # The table's frame count or an entry's size lie.
        "bad count": (damaged(good, len(good) - 9, 1), "seek table"),
        "lying size": (damaged(good, table + 8 + 4, 1), "disagrees with the seek table"),
        "lying compressed size": (damaged(good, table + 8, 1), "seek table entries: frames"),
        "bad checksum": (damaged(good, table + 8 + 12 * 3 + 8, 1), "checksum mismatch"),
        "bad data": (damaged(good, frames[4][0] + 200, 0x20), "corrupt input"),
        "reserved bits": (damaged(good, len(good) - 5, 0x04), "reserved bits"),
        "not zstd": (b"PK\x03\x04 certainly not zstd", "not a zstd frame"),
    }
    for name, (archive, message) in cases.items():
        path = tmp_path / f"{name}.zst"
        path.write_bytes(archive)
        with pytest.raises(oxport.CorruptError, match=message):
            read_all(path)
        with pytest.raises(oxport.CorruptError):
            oxport.seekable.unpack(path, tmp_path / "out")
        assert not (tmp_path / "out").exists(), name


def blend_files(tmp_path: Path) -> tuple[Path, int]:
    """A compressed .blend saved by Blender (cached in target/refdata) and its object count."""
    from conftest import REFDATA

    target = REFDATA / "scene300_1.blend"
    if not target.exists():
        partial = REFDATA / "partial"
        partial.mkdir(parents=True, exist_ok=True)
        command = [
            blender(), "-b", "--factory-startup", "--python", str(SCRIPTS / "scene.py"), "--",
            "300", "1", str(tmp_path / "scene.obj"), str(partial / target.name),
        ]  # fmt: skip
        result = subprocess.run(command, capture_output=True, text=True, timeout=900)
        if result.returncode != 0 or not (partial / target.name).exists():
            raise RuntimeError(f"{' '.join(command)} failed:\n{result.stdout[-3000:]}\n{result.stderr[-3000:]}")
        (partial / target.name).replace(target)
    return target, 300


def test_random_reads_of_a_blend_that_blender_compressed(tmp_path: Path) -> None:
    zstd = zstd_tool()
    blend, _ = blend_files(tmp_path)
    assert blend.read_bytes()[:4] == ZSTD_MAGIC
    expected = subprocess.run([zstd, "-d", "-c", str(blend)], capture_output=True, check=True).stdout
    assert expected[:7] == b"BLENDER"
    reader = oxport._native.SeekableReader(blend)
    assert reader.index == "seek table" and not reader.checksums
    assert reader.size == len(expected)
    rng = random.Random(3)
    with oxport.seekable.open(blend) as f:
        for _ in range(300):
            offset, size = rng.randrange(len(expected)), rng.choice([1, 100, 4096, 70_000, 3_000_000])
            f.seek(offset)
            assert f.read(size) == expected[offset : offset + size], offset
        assert f.size == len(expected)
    assert oxport.seekable.unpack(blend, tmp_path / "plain.blend") == len(expected)
    assert (tmp_path / "plain.blend").read_bytes() == expected


BLENDER_COUNT = "import bpy; print('OBJECTS', len(bpy.data.objects))"


def test_blender_opens_a_blend_packed_by_oxport(tmp_path: Path) -> None:
    blend, objects = blend_files(tmp_path)
    plain = tmp_path / "plain.blend"
    oxport.seekable.unpack(blend, plain)
    assert plain.read_bytes()[:7] == b"BLENDER"
    packed = tmp_path / "packed.blend"
    oxport.seekable.pack(plain, packed, frame_size=1 << 20, threads=2)
    command = [blender(), "-b", "--factory-startup", str(packed), "--python-expr", BLENDER_COUNT]
    result = subprocess.run(command, capture_output=True, text=True, timeout=600)
    assert f"OBJECTS {objects}" in result.stdout, result.stdout[-3000:] + result.stderr[-3000:]


# -- byte ranges over HTTP ------------------------------------------------


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@pytest.fixture()
def nginx(tmp_path: Path) -> Iterator[tuple[str, Path, Path]]:
    """nginx serving ``www/`` with byte ranges; yields its URL, the folder and
    its access log (one ``$bytes_sent`` per request)."""
    binary = shutil.which("nginx") or ("/usr/sbin/nginx" if os.path.exists("/usr/sbin/nginx") else None)
    if binary is None:
        pytest.skip("nginx is not installed")
    www = tmp_path / "www"
    www.mkdir()
    port = free_port()
    log = tmp_path / "access.log"
    user = "user root;" if os.geteuid() == 0 else ""
    temp = {name: tmp_path / name for name in ("body", "proxy", "fastcgi", "uwsgi", "scgi")}
    config = tmp_path / "nginx.conf"
    config.write_text(
        f"""{user}
worker_processes 1;
daemon off;
pid {tmp_path}/nginx.pid;
error_log {tmp_path}/error.log;
events {{ worker_connections 64; }}
http {{
    log_format sent '$bytes_sent';
    access_log {log} sent;
    client_body_temp_path {temp['body']};
    proxy_temp_path {temp['proxy']};
    fastcgi_temp_path {temp['fastcgi']};
    uwsgi_temp_path {temp['uwsgi']};
    scgi_temp_path {temp['scgi']};
    server {{
        listen 127.0.0.1:{port};
        root {www};
    }}
}}
"""
    )
    process = subprocess.Popen([binary, "-p", str(tmp_path), "-c", str(config), "-e", str(tmp_path / "error.log")])
    try:
        deadline = time.monotonic() + 10
        while True:
            try:
                socket.create_connection(("127.0.0.1", port), timeout=0.2).close()
                break
            except OSError:
                if process.poll() is not None or time.monotonic() > deadline:
                    raise RuntimeError(f"nginx did not start: {(tmp_path / 'error.log').read_text()}")
                time.sleep(0.05)
        yield f"http://127.0.0.1:{port}", www, log
    finally:
        process.terminate()
        process.wait(timeout=10)


def bytes_sent(log: Path) -> int:
    # nginx writes a request's line when the request ends.
    return sum(int(line) for line in log.read_text().split())


def test_a_small_read_over_http_fetches_only_the_frames_it_needs(
    nginx: tuple[str, Path, Path], tmp_path: Path
) -> None:
    fsspec = pytest.importorskip("fsspec")
    pytest.importorskip("aiohttp")
    url, www, log = nginx
    # 512 MiB that do not compress: the archive is as large as its data.
    size = 512 << 20
    source = tmp_path / "big"
    with open(source, "wb") as out:
        for _ in range(size >> 24):
            out.write(os.urandom(1 << 24))
    packed = oxport.seekable.pack(source, www / "big.zst", frame_size=256 << 10, level=1)
    assert packed.output_bytes > size
    expected = {}
    with open(source, "rb") as f:
        for offset in (100_000_000, 400_000_123):
            f.seek(offset)
            expected[offset] = f.read(4096)
    source.unlink()

    def fetch(**options: object) -> int:
        """Bytes the server sent for the two reads through fsspec with ``options``."""
        log.write_text("")
        with fsspec.open(f"{url}/big.zst", "rb", **options) as remote:
            with oxport.seekable.open(remote) as f:
                assert f.size == size
                for offset, data in expected.items():
                    f.seek(offset)
                    assert f.read(4096) == data
        return bytes_sent(log)

    # fsspec's defaults read ahead 5 MB blocks.
    sent = fetch()
    assert 0 < sent < 16 << 20, f"{sent} bytes sent for two 4 KiB reads of a {packed.output_bytes}-byte archive"
    # Without its cache, only what the reads ask for: the footer, the seek
    # table (2,048 entries of 12 bytes), and at most the two 256 KiB frames
    # (a frame is fetched only up to the blocks the read needs), with the
    # HTTP headers of each request.
    sent = fetch(cache_type="none")
    table = 8 + 12 * packed.frames + 9
    assert table < sent < table + 2 * (256 << 10) + (64 << 10), sent


def test_writes_into_file_objects_are_whole_or_nothing(tmp_path: Path) -> None:
    """A file object given as the output gets the file only once it is
    whole: an unpack that fails at its last frame, after the others were
    written, gives it nothing; an exception its own ``write`` raises is
    raised as it was; a damaged input is named in its error."""
    original = data(600_000, seed=4)
    (tmp_path / "in").write_bytes(original)
    packed = io.BytesIO()
    result = oxport.seekable.pack(tmp_path / "in", packed, frame_size=100_000, threads=2)
    assert result.input_bytes == len(original)
    archive = bytearray(packed.getvalue())
    assert len(archive) == result.output_bytes
    with oxport.seekable.open(io.BytesIO(bytes(archive))) as reader:
        frames = reader.frames
    assert len(frames) == 6
    # Damage the middle of the last frame's compressed data.
    last = frames[-1]
    archive[last.compressed_offset + last.compressed_size // 2] ^= 0xFF
    (tmp_path / "bad.zst").write_bytes(bytes(archive))
    unpacked = io.BytesIO()
    with pytest.raises(oxport.CorruptError):
        oxport.seekable.unpack(tmp_path / "bad.zst", unpacked, threads=1)
    assert unpacked.getvalue() == b""

    class Quota(io.RawIOBase):
        """Takes 1 MB, then raises its own exception."""

        def __init__(self) -> None:
            self.taken = 0

        def writable(self) -> bool:
            return True

        def write(self, b: "bytes | bytearray | memoryview") -> int:  # type: ignore[override]
            if self.taken + len(b) > 1 << 20:
                raise PermissionError("quota exceeded")
            self.taken += len(b)
            return len(b)

    (tmp_path / "big").write_bytes(data(3 << 20, seed=5))
    oxport.seekable.pack(tmp_path / "big", tmp_path / "big.zst")
    with pytest.raises(PermissionError, match="quota exceeded"):
        oxport.seekable.unpack(tmp_path / "big.zst", Quota())
    # A file opened by path: nothing in it either.
    with open(tmp_path / "out", "wb") as file, pytest.raises(oxport.CorruptError) as refused:
        oxport.seekable.unpack(tmp_path / "bad.zst", file)
    assert str(refused.value).startswith(str(tmp_path / "bad.zst")), refused.value
    assert (tmp_path / "out").read_bytes() == b""
    with pytest.raises(TypeError, match="writable binary file object, got int"):
        oxport.seekable.unpack(tmp_path / "big.zst", 3)  # type: ignore[arg-type]
