"""oxport.deflate against the standard library: zlib and gzip read what
oxport writes, oxport reads what they write, at every level."""

from __future__ import annotations

import gzip
import os
import tracemalloc
import zlib

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import oxport
from oxport import deflate

TEXT = b"".join(b"f %d/%d %d/%d %d/%d\n" % (i, i, i + 1, i, i + 2, i) for i in range(30_000))


def stdlib_compress(data: bytes, level: int, format: str) -> bytes:
    if format == "gzip":
        return gzip.compress(data, level)
    wbits = {"zlib": 15, "raw": -15}[format]
    c = zlib.compressobj(level, zlib.DEFLATED, wbits)
    return c.compress(data) + c.flush()


def stdlib_decompress(data: bytes, format: str) -> bytes:
    if format == "gzip":
        return gzip.decompress(data)
    return zlib.decompress(data, {"zlib": 15, "raw": -15}[format])


@pytest.mark.parametrize("format", ["zlib", "gzip", "raw"])
@pytest.mark.parametrize("level", [0, 1, 2, 3, 4, 6, 9, 12])
def test_the_standard_library_reads_oxport_and_back(format: str, level: int) -> None:
    for data in (b"", b"x", TEXT, os.urandom(70_000)):
        for engine in ("fastest", "libdeflate"):
            packed = deflate.compress(data, level, format=format, engine=engine)  # type: ignore[arg-type]
            assert stdlib_decompress(packed, format) == data
            out = bytearray(deflate.compress_bound(len(data), format=format))  # type: ignore[arg-type]
            n = deflate.compress_into(data, out, level, format=format, engine=engine)  # type: ignore[arg-type]
            assert out[:n] == packed
        theirs = stdlib_compress(data, min(level, 9), format)
        assert deflate.decompress(theirs, format=format) == data  # type: ignore[arg-type]


def test_isal_compresses_the_fast_levels() -> None:
    """With ISA-L built in, levels 1 to 3 are ISA-L's (other bytes than
    libdeflate's), the rest libdeflate's; without it, every level is
    libdeflate's."""
    isal = oxport.build_info().engines["isal"]
    for level in range(13):
        fastest = deflate.compress(TEXT, level)
        libdeflate = deflate.compress(TEXT, level, engine="libdeflate")
        assert (fastest != libdeflate) == (isal and 1 <= level <= 3), level
        # The wrapper is the same: header and Adler-32.
        assert fastest[:2] == libdeflate[:2] and fastest[-4:] == libdeflate[-4:]
    with pytest.raises(ValueError, match="engine"):
        deflate.compress(TEXT, engine="zlib")  # type: ignore[arg-type]


def test_gzip_members_and_padding_like_gzip_decompress() -> None:
    packed = gzip.compress(TEXT) + b"\0" * 5 + deflate.compress(b"second", 1, format="gzip") + b"\0"
    assert deflate.decompress(packed, format="gzip") == gzip.decompress(packed)
    assert deflate.decompress(b"", format="gzip") == gzip.decompress(b"") == b""
    with pytest.raises(deflate.DeflateError):
        deflate.decompress(packed + b"junk", format="gzip")


def test_damaged_input_and_arguments() -> None:
    packed = deflate.compress(TEXT)
    for bad in (b"", packed[:-3], packed[:10], b"not deflate at all", packed + b"\0"):
        with pytest.raises(deflate.DeflateError):
            deflate.decompress(bad)
    assert issubclass(deflate.DeflateError, oxport.Error)
    with pytest.raises(ValueError, match="level"):
        deflate.compress(TEXT, 13)
    with pytest.raises(ValueError, match="format"):
        deflate.compress(TEXT, format="lzma")  # type: ignore[arg-type]
    with pytest.raises(TypeError):
        deflate.compress("text")  # type: ignore[arg-type]


@pytest.mark.parametrize("format", ["zlib", "gzip", "raw"])
def test_the_output_limit_stops_a_bomb(format: str) -> None:
    bomb = deflate.compress(bytes(256 << 20), 1, format=format)  # type: ignore[arg-type]
    tracemalloc.start()
    try:
        with pytest.raises(deflate.DeflateError, match="limit"):
            deflate.decompress(bomb, format=format, max_output_size=1 << 20)  # type: ignore[arg-type]
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert peak < 4 << 20, peak
    assert len(deflate.decompress(bomb, format=format, max_output_size=256 << 20)) == 256 << 20  # type: ignore[arg-type]


def test_gzip_output_is_allocated_once() -> None:
    data = os.urandom(1 << 16) * 256
    packed = deflate.compress(data, 1, format="gzip")
    tracemalloc.start()
    try:
        out = deflate.decompress(packed, format="gzip")
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert out == data
    assert peak < len(data) + (1 << 20), peak


def test_into_caller_buffers() -> None:
    out = bytearray(deflate.compress_bound(len(TEXT), format="gzip"))
    n = deflate.compress_into(TEXT, out, 6, format="gzip")
    assert gzip.decompress(out[:n]) == TEXT
    back = bytearray(len(TEXT))
    assert deflate.decompress_into(bytes(out[:n]), back, format="gzip") == len(TEXT)
    assert back == TEXT
    with pytest.raises(ValueError, match="too small"):
        deflate.decompress_into(bytes(out[:n]), bytearray(10), format="gzip")


@settings(max_examples=200, deadline=None)
@given(data=st.binary(max_size=20_000), level=st.integers(0, 12), format=st.sampled_from(["zlib", "gzip", "raw"]))
def test_round_trips(data: bytes, level: int, format: str) -> None:
    packed = deflate.compress(data, level, format=format)  # type: ignore[arg-type]
    assert deflate.decompress(packed, format=format) == data  # type: ignore[arg-type]
    assert stdlib_decompress(packed, format) == data
