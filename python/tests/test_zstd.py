"""oxport.zstd against the standard library's behaviour (``backports.zstd``,
the same code as Python 3.14's ``compression.zstd``): every case runs with
both modules and must give the same result, or raise the same exception.
Then what oxport adds: exact-size outputs, linear multi-frame input,
caller buffers, output limits, and round trips found by hypothesis."""

from __future__ import annotations

import array
import io
import os
import threading
import tracemalloc
from typing import Any, Callable

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from oxport import zstd as ox

try:  # the standard library's own module from Python 3.14, its backport before
    from compression import zstd as ref  # type: ignore[import-not-found, unused-ignore]
except ImportError:
    from backports import zstd as ref

TEXT = b"".join(b"vertex %d %d %d\n" % (i, i * 7 % 101, i * 13 % 97) for i in range(20_000))
NOISE = os.urandom(50_000)
SAMPLES = [b"material %d { color %d %d %d; roughness 0.%d }\n" % (i, i % 7, i % 5, i % 3, i) * 3 for i in range(300)]


def outcome(case: Callable[[Any], Any], module: Any) -> tuple[str, Any]:
    try:
        return ("ok", normal(case(module)))
    except Exception as error:  # the type is what must match
        return ("raises", type(error).__name__)


def normal(value: Any) -> Any:
    """Results as plain values that compare across the two modules."""
    if isinstance(value, (bytes, int, str, bool, type(None), float)):
        return value
    if isinstance(value, (list, tuple)):
        return tuple(normal(v) for v in value)
    name = type(value).__name__
    if name == "FrameInfo":
        return ("FrameInfo", value.decompressed_size, value.dictionary_id)
    if name == "ZstdDict":
        return ("ZstdDict", value.dict_id, value.dict_content)
    return (name, repr(value))


def frames(m: Any, *parts: bytes, **kwargs: Any) -> bytes:
    return b"".join(m.compress(p, **kwargs) for p in parts)


def streamed(m: Any, data: bytes) -> bytes:
    """A frame without a content size, as streaming writers make them."""
    c = m.ZstdCompressor()
    return c.compress(data) + c.flush()


def decompressor_steps(m: Any, data: bytes, steps: list[tuple[int, int]]) -> list[Any]:
    """Feeds ``data`` in pieces with max_length limits, recording what the
    decompressor says after each call."""
    d = m.ZstdDecompressor()
    seen: list[Any] = []
    at = 0
    for take, max_length in steps:
        try:
            out = d.decompress(data[at : at + take], max_length)
            seen.append((len(out), out[:20], d.eof, d.needs_input, d.unused_data))
        except Exception as error:
            seen.append(type(error).__name__)
        at += take
    return seen


def compressor_steps(m: Any, calls: list[tuple[str, Any]]) -> list[Any]:
    c = m.ZstdCompressor(level=5)
    seen: list[Any] = []
    for method, argument in calls:
        try:
            if method == "compress":
                seen.append((c.compress(*argument), c.last_mode))
            elif method == "flush":
                seen.append((c.flush(*argument), c.last_mode))
            else:
                seen.append(c.set_pledged_input_size(argument))
        except Exception as error:
            seen.append(type(error).__name__)
    return seen


def skippable(payload: bytes) -> bytes:
    return (0x184D2A5E).to_bytes(4, "little") + len(payload).to_bytes(4, "little") + payload


CASES: dict[str, Callable[[Any], Any]] = {
    # One-shot compression: the same libzstd, the same calls, the same bytes.
    **{
        f"compress level {level}": (lambda m, level=level: m.compress(TEXT, level))
        for level in (-50, -1, 1, 3, 10, 17, 19, 22)
    },
    "compress default": lambda m: m.compress(TEXT),
    "compress empty": lambda m: m.compress(b""),
    "compress noise": lambda m: m.compress(NOISE, 3),
    "compress memoryview": lambda m: m.compress(memoryview(TEXT)[100:5000]),
    "compress array": lambda m: m.compress(array.array("i", range(1000))),
    "compress bytearray": lambda m: m.compress(bytearray(TEXT[:999])),
    "compress str": lambda m: m.compress("text"),
    "compress checksum": lambda m: m.compress(TEXT, options={m.CompressionParameter.checksum_flag: 1}),
    "compress no size": lambda m: m.compress(TEXT, options={m.CompressionParameter.content_size_flag: 0}),
    "compress window": lambda m: m.compress(TEXT, options={m.CompressionParameter.window_log: 12, m.CompressionParameter.strategy: m.Strategy.btultra2}),
    "compress ldm": lambda m: m.compress(TEXT, options={m.CompressionParameter.enable_long_distance_matching: 1, m.CompressionParameter.window_log: 27}),
    "compress workers": lambda m: m.compress(TEXT * 20, options={m.CompressionParameter.nb_workers: 2, m.CompressionParameter.compression_level: 5}),
    "compress level and options": lambda m: m.compress(TEXT, 3, {}),
    "compress level too high": lambda m: m.compress(TEXT, 23),
    "compress level too low": lambda m: m.compress(TEXT, -200_000),
    "compress level huge": lambda m: m.compress(TEXT, 2**40),
    "compress level str": lambda m: m.compress(TEXT, "3"),
    "compress level float": lambda m: m.compress(TEXT, 3.0),
    "compress options list": lambda m: m.compress(TEXT, options=[1]),
    "compress unknown key": lambda m: m.compress(TEXT, options={9999: 1}),
    "compress str key": lambda m: m.compress(TEXT, options={"window_log": 1}),
    "compress huge key": lambda m: m.compress(TEXT, options={2**40: 1}),
    "compress huge value": lambda m: m.compress(TEXT, options={101: 2**40}),
    "compress str value": lambda m: m.compress(TEXT, options={101: "x"}),
    "compress illegal value": lambda m: m.compress(TEXT, options={101: 100}),
    "compress level in options too high": lambda m: m.compress(TEXT, options={100: 50}),
    "compress decompression key": lambda m: m.compress(TEXT, options={m.DecompressionParameter.window_log_max: 20}),
    "compress errors in order": lambda m: m.compress(TEXT, options={101: 100, "x": 1}),
    "compress flag 2": lambda m: m.compress(TEXT, options={m.CompressionParameter.checksum_flag: 2}),
    # One-shot decompression.
    "decompress one": lambda m: m.decompress(ref.compress(TEXT)),
    "decompress frames": lambda m: m.decompress(frames(ref, TEXT, NOISE, b"", TEXT[:7])),
    "decompress unsized": lambda m: m.decompress(streamed(ref, TEXT) + ref.compress(NOISE)),
    "decompress skippable": lambda m: m.decompress(skippable(b"meta") + ref.compress(TEXT) + skippable(b"")),
    "decompress only skippable": lambda m: m.decompress(skippable(b"abc")),
    "decompress empty": lambda m: m.decompress(b""),
    "decompress garbage": lambda m: m.decompress(b"garbage!"),
    "decompress truncated": lambda m: m.decompress(ref.compress(TEXT)[:-1]),
    "decompress truncated unsized": lambda m: m.decompress(streamed(ref, TEXT)[:-3]),
    "decompress header only": lambda m: m.decompress(ref.compress(TEXT)[:6]),
    "decompress trailing": lambda m: m.decompress(ref.compress(TEXT) + b"xx"),
    "decompress trailing zeros": lambda m: m.decompress(ref.compress(TEXT) + b"\0\0\0\0"),
    "decompress damaged": lambda m: m.decompress(bytes(b ^ (i == 200) for i, b in enumerate(ref.compress(TEXT)))),
    "decompress memoryview": lambda m: m.decompress(memoryview(ref.compress(TEXT))),
    "decompress str": lambda m: m.decompress("text"),
    "decompress big window": lambda m: m.decompress(ref.compress(NOISE, options={101: 28, 160: 1})),
    "decompress big window allowed": lambda m: m.decompress(ref.compress(NOISE, options={101: 28, 160: 1}), options={m.DecompressionParameter.window_log_max: 28}),
    "decompress options list": lambda m: m.decompress(b"", options=[]),
    "decompress unknown key": lambda m: m.decompress(ref.compress(TEXT), options={999: 1}),
    "decompress compression key": lambda m: m.decompress(ref.compress(TEXT), options={m.CompressionParameter.window_log: 10}),
    "decompress illegal value": lambda m: m.decompress(ref.compress(TEXT), options={100: 100}),
    # Streams.
    "compressor continue flush": lambda m: compressor_steps(m, [("compress", (TEXT[:5000],)), ("compress", (TEXT[5000:9000], 1)), ("flush", ()), ("compress", (b"", 2))]),
    "compressor frame": lambda m: compressor_steps(m, [("compress", (TEXT, 2)), ("compress", (NOISE, 2))]),
    "compressor bad mode": lambda m: compressor_steps(m, [("compress", (b"a", 5)), ("flush", (0,)), ("flush", (3,))]),
    "compressor pledge": lambda m: compressor_steps(m, [("pledge", 3), ("compress", (b"abc",)), ("flush", ())]),
    "compressor pledge broken": lambda m: compressor_steps(m, [("pledge", 10), ("compress", (b"abc",)), ("flush", ()), ("compress", (b"x", 2))]),
    "compressor pledge late": lambda m: compressor_steps(m, [("compress", (b"abc",)), ("pledge", 3)]),
    "compressor pledge values": lambda m: compressor_steps(m, [("pledge", -1), ("pledge", 2**64), ("pledge", 2**64 - 2), ("pledge", 2**64 - 3), ("pledge", None), ("pledge", "a"), ("pledge", 1.5)]),
    "compressor str": lambda m: m.ZstdCompressor().compress("abc"),
    "compressor level and options": lambda m: m.ZstdCompressor(3, {}),
    "decompressor pieces": lambda m: decompressor_steps(m, ref.compress(TEXT) + b"tail", [(10, -1), (1000, 100), (0, 0), (0, -1), (10**9, -1), (0, -1)]),
    "decompressor exact max": lambda m: decompressor_steps(m, ref.compress(TEXT[:1000]), [(10**9, 1000), (0, 5), (0, -1)]),
    "decompressor unsized": lambda m: decompressor_steps(m, streamed(ref, TEXT) + b"x", [(100, 50), (10**9, 10**6), (0, -1)]),
    "decompressor skippable": lambda m: decompressor_steps(m, skippable(b"abc") + ref.compress(b"x"), [(10**9, -1), (1, -1)]),
    "decompressor garbage": lambda m: decompressor_steps(m, b"garbage data", [(100, -1)]),
    "decompressor after eof": lambda m: decompressor_steps(m, ref.compress(b"x") * 2, [(10**9, -1), (5, -1)]),
    "decompressor max zero": lambda m: decompressor_steps(m, ref.compress(TEXT), [(100, 0), (0, 0), (10**9, 0), (0, 10)]),
    "decompressor fresh": lambda m: (lambda d: (d.eof, d.needs_input, d.unused_data))(m.ZstdDecompressor()),
    # Dictionaries.
    "train": lambda m: m.train_dict(SAMPLES, 4096),
    "train empty": lambda m: m.train_dict([], 4096),
    "train empty samples": lambda m: m.train_dict([b"", b""], 4096),
    "train zero size": lambda m: m.train_dict(SAMPLES, 0),
    "train float size": lambda m: m.train_dict(SAMPLES, 4096.0),
    "train too few": lambda m: m.train_dict([b"abc"], 4096),
    "finalize": lambda m: m.finalize_dict(m.ZstdDict(b"".join(SAMPLES[:20]), is_raw=True), SAMPLES, 4096, 5),
    "finalize not dict": lambda m: m.finalize_dict(b"abc", SAMPLES, 4096, 5),
    "dict raw": lambda m: m.ZstdDict(b"12345678", is_raw=True),
    "dict short": lambda m: m.ZstdDict(b"1234", is_raw=True),
    "dict invalid": lambda m: m.ZstdDict(b"12345678"),
    "dict uses": lambda m: (lambda d: (d.as_digested_dict[1], d.as_undigested_dict[1], d.as_prefix[1], len(d)))(m.ZstdDict(b"12345678", is_raw=True)),
    "dict arg wrong": lambda m: m.compress(TEXT, zstd_dict=b"x"),
    "dict arg bad use": lambda m: m.compress(TEXT, zstd_dict=(m.ZstdDict(b"12345678", is_raw=True), 5)),
    **{
        f"dict {use}": (
            lambda m, use=use: (
                lambda d: (
                    [m.compress(s, 3, zstd_dict=getattr(d, use)) for s in SAMPLES[:5]],
                    m.decompress(b"".join(m.compress(s, zstd_dict=getattr(d, use)) for s in SAMPLES[:5]), zstd_dict=getattr(d, use)),
                )
            )(m.ZstdDict(ref.train_dict(SAMPLES, 4096).dict_content))
        )
        for use in ("as_digested_dict", "as_undigested_dict", "as_prefix")
    },
    # A plain ZstdDict compresses undigested (loaded with the frame's own
    # parameters) and decompresses digested; a big input shows the difference.
    "dict plain compress": lambda m: (lambda d: [m.compress(TEXT * 4, level, zstd_dict=d) for level in (1, 3, 19)])(m.ZstdDict(ref.train_dict(SAMPLES, 4096).dict_content)),
    "dict plain compressor": lambda m: (lambda c: c.compress(TEXT * 4) + c.flush())(m.ZstdCompressor(5, zstd_dict=m.ZstdDict(ref.train_dict(SAMPLES, 4096).dict_content))),
    "dict use huge": lambda m: m.compress(TEXT, zstd_dict=(m.ZstdDict(b"12345678", is_raw=True), 2**1000)),
    "dict use huge negative": lambda m: m.ZstdDecompressor((m.ZstdDict(b"12345678", is_raw=True), -(2**1000))),
    "dict use float": lambda m: m.ZstdCompressor(zstd_dict=(m.ZstdDict(b"12345678", is_raw=True), 1.0)),
    "dict use bool": lambda m: m.compress(TEXT[:100], zstd_dict=(m.ZstdDict(b"12345678", is_raw=True), True)),
    "dict missing": lambda m: m.decompress(ref.compress(SAMPLES[0], zstd_dict=ref.train_dict(SAMPLES, 4096))),
    "dict raw prefix": lambda m: (lambda d: m.decompress(m.compress(TEXT[:3000], zstd_dict=d.as_prefix), zstd_dict=d.as_prefix))(m.ZstdDict(TEXT[1000:2000], is_raw=True)),
    # Frame headers and parameters.
    "frame info": lambda m: m.get_frame_info(ref.compress(TEXT)),
    "frame info unsized": lambda m: m.get_frame_info(streamed(ref, TEXT)),
    "frame info skippable": lambda m: m.get_frame_info(skippable(b"abc")),
    "frame info short": lambda m: m.get_frame_info(b"ab"),
    "frame info dict": lambda m: m.get_frame_info(ref.compress(SAMPLES[0], zstd_dict=ref.train_dict(SAMPLES, 4096)))[1:],
    "frame size": lambda m: m.get_frame_size(ref.compress(TEXT) + b"more"),
    "frame size bad": lambda m: m.get_frame_size(b"xx"),
    "frame size truncated": lambda m: m.get_frame_size(ref.compress(TEXT)[:-1]),
    "bounds": lambda m: [(p.name, p.value, p.bounds()) for p in m.CompressionParameter] + [(p.name, p.value, p.bounds()) for p in m.DecompressionParameter],
    "strategies": lambda m: [(s.name, s.value) for s in m.Strategy],
    "default level": lambda m: m.COMPRESSION_LEVEL_DEFAULT,
    "version": lambda m: (m.zstd_version, m.zstd_version_info),
    "flush constants": lambda m: (m.ZstdCompressor.CONTINUE, m.ZstdCompressor.FLUSH_BLOCK, m.ZstdCompressor.FLUSH_FRAME, m.ZstdFile.FLUSH_BLOCK, m.ZstdFile.FLUSH_FRAME),
}


@pytest.mark.parametrize("name", sorted(CASES))
def test_same_as_the_standard_library(name: str) -> None:
    case = CASES[name]
    assert outcome(case, ox) == outcome(case, ref)


def file_roundtrip(m: Any, tmp: str) -> Any:
    """Writes with ZstdFile in several ways, then reads back as several ways."""
    seen: list[Any] = []
    path = os.path.join(tmp, f"{m.__name__}.zst")
    with m.ZstdFile(path, "w", level=7) as f:
        seen.append(f.write(TEXT[:40_000]))
        f.flush()
        seen.append(f.tell())
        f.flush(m.ZstdFile.FLUSH_FRAME)
        seen.append(f.write(memoryview(NOISE)))
        seen.append((f.mode, f.writable(), f.readable(), f.seekable()))
    with open(path, "rb") as raw:
        seen.append(raw.read())
    with m.open(path) as f:
        seen.append(f.read(10))
        seen.append(f.readline())
        seen.append(f.peek(1)[:1])
        seen.append(f.read1(100))
        seen.append(f.seek(-5, 2))
        seen.append(f.read())
        seen.append(f.seek(3))
        seen.append(f.tell())
        buf = bytearray(7)
        seen.append((f.readinto(buf), bytes(buf)))
        seen.append(sum(1 for _ in f))
    with m.open(path, "rt", encoding="ascii", errors="replace") as f:
        seen.append(f.readline())
    buffer = io.BytesIO()
    with m.ZstdFile(buffer, "wb", options={m.CompressionParameter.checksum_flag: 1}) as f:
        f.write(b"abc")
    seen.append(buffer.getvalue())
    seen.append(m.ZstdFile(io.BytesIO(buffer.getvalue() + m.compress(b"def"))).read())
    for bad in (
        lambda: m.ZstdFile(path, "r", level=3),
        lambda: m.ZstdFile(path, "q"),
        lambda: m.ZstdFile(3.5),
        lambda: m.open(path, "rb", encoding="utf-8"),
        lambda: m.ZstdFile(io.BytesIO(b"junk")).read(),
        lambda: m.ZstdFile(io.BytesIO(m.compress(TEXT)[:-2])).read(),
        lambda: m.ZstdFile(path).write(b"x"),
        lambda: m.ZstdFile(io.BytesIO(), "w").read(),
    ):
        try:
            seen.append(("ok", bad()))
        except Exception as error:
            seen.append(type(error).__name__)
    f = m.ZstdFile(path)
    f.close()
    f.close()
    seen.append(f.closed)
    try:
        f.read()
    except ValueError:
        seen.append("closed")
    return seen


def test_zstd_file_as_the_standard_library(tmp_path: Any) -> None:
    assert file_roundtrip(ox, str(tmp_path)) == file_roundtrip(ref, str(tmp_path))


def test_outputs_are_allocated_once_at_their_size() -> None:
    data = os.urandom(1 << 16) * 512  # 32 MiB
    packed = ox.compress(data, 1)
    tracemalloc.start()
    try:
        tracemalloc.reset_peak()
        out = ox.decompress(packed)
        sized_peak = tracemalloc.get_traced_memory()[1]
        del out
        unsized = streamed(ox, data)
        tracemalloc.reset_peak()
        out = ox.decompress(unsized)
        unsized_peak = tracemalloc.get_traced_memory()[1]
        del out
    finally:
        tracemalloc.stop()
    assert len(data) <= sized_peak < len(data) + (1 << 20)
    # Grown in place: never the result plus a copy of it.
    assert unsized_peak < 1.6 * len(data), unsized_peak


def test_many_frames_in_parallel_and_in_order() -> None:
    parts = [os.urandom(97) * (1000 + i) for i in range(512)]
    packed = b"".join(ox.compress(p, 1) for p in parts)
    expected = b"".join(parts)
    assert ox.decompressed_size(packed) == len(expected)
    for threads in (1, 2, None):
        assert ox.decompress(packed, threads=threads) == expected
    with pytest.raises(ValueError, match="threads"):
        ox.decompress(packed, threads=0)
    assert ref.decompress(packed) == expected


def test_output_limit_stops_a_bomb_before_it_allocates() -> None:
    bomb = ox.compress(bytes(1 << 30), 1)
    assert len(bomb) < 100_000
    streamed_bomb = streamed(ox, bytes(64 << 20))
    tracemalloc.start()
    try:
        with pytest.raises(ox.ZstdError, match="limit"):
            ox.decompress(bomb, max_output_size=1 << 20)
        with pytest.raises(ox.ZstdError, match="limit"):
            ox.decompress(streamed_bomb, max_output_size=1 << 20)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert peak < 8 << 20, peak
    assert ox.decompress(ox.compress(b"abc"), max_output_size=3) == b"abc"
    # A header that claims far more than its blocks can hold is refused, not allocated.
    lie = bytearray(ox.compress(b"hello"))
    lie[4] |= 0xC0
    with pytest.raises(ox.ZstdError):
        ox.decompress(bytes(lie))


def test_into_caller_buffers() -> None:
    packed = ox.compress(TEXT, 3)
    out = bytearray(ox.compress_bound(len(TEXT)))
    n = ox.compress_into(TEXT, out, 3)
    assert bytes(out[:n]) == packed
    back = bytearray(len(TEXT))
    assert ox.decompress_into(packed, back) == len(TEXT) and back == TEXT
    view = memoryview(bytearray(len(TEXT) + 10))[5:]
    assert ox.decompress_into(streamed(ox, TEXT), view) == len(TEXT)
    assert bytes(view[: len(TEXT)]) == TEXT
    with pytest.raises(ox.ZstdError, match="too small"):
        ox.decompress_into(packed, bytearray(100))
    with pytest.raises(ox.ZstdError, match="too small"):
        ox.compress_into(NOISE, bytearray(100))
    with pytest.raises(TypeError):
        ox.decompress_into(packed, b"read only")


def test_errors_are_oxport_errors() -> None:
    import oxport

    assert issubclass(ox.ZstdError, oxport.Error)
    with pytest.raises(ox.ZstdError, match="Unknown frame descriptor"):
        ox.decompress(b"not zstd")


def test_a_shared_stream_is_safe_across_threads() -> None:
    compressor = ox.ZstdCompressor(level=1)
    errors: list[BaseException] = []

    def work() -> None:
        try:
            for _ in range(200):
                compressor.compress(TEXT[:20_000])
        except BaseException as error:  # pragma: no cover - reported below
            errors.append(error)

    threads = [threading.Thread(target=work) for _ in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert not errors
    compressor.flush()
    assert ox.decompress(compressor.compress(b"after", ox.ZstdCompressor.FLUSH_FRAME)) == b"after"


@settings(max_examples=150, deadline=None)
@given(
    data=st.binary(max_size=5000),
    level=st.integers(-5, 19),
    cuts=st.lists(st.integers(0, 5000), max_size=6),
    max_length=st.one_of(st.just(-1), st.integers(1, 3000)),
)
def test_round_trips(data: bytes, level: int, cuts: list[int], max_length: int) -> None:
    packed = ox.compress(data, level)
    assert packed == ref.compress(data, level)
    assert ox.decompress(packed) == data
    c = ox.ZstdCompressor(level)
    pieces = [data[a:b] for a, b in zip([0, *sorted(cuts)], [*sorted(cuts), len(data)])]
    stream = b"".join(c.compress(p) for p in pieces) + c.flush()
    assert ref.decompress(stream) == data
    d = ox.ZstdDecompressor()
    out = b""
    for p in [stream[:7], stream[7:]]:
        out += d.decompress(p, max_length)
    while not d.eof and not d.needs_input:
        out += d.decompress(b"", max_length)
    assert out == data and d.eof


def test_file_flush_and_iteration_as_the_standard_library(tmp_path: Any) -> None:
    def case(module: Any) -> list:
        seen = []
        with module.ZstdFile(tmp_path / f"{module.__name__}.zst", "w") as f:
            f.write(TEXT[:1000])
            seen.append(f.flush())
            seen.append(f.flush(f.FLUSH_BLOCK))
            seen.append(f.flush(f.FLUSH_FRAME))
            for call in (lambda: next(f), f.read, f.readline, lambda: f.peek(1)):
                seen.append(outcome(lambda _: call(), module))
        with module.ZstdFile(tmp_path / f"{module.__name__}.zst") as f:
            seen.append(f.flush())
            seen.append(next(f))
        return seen

    ours, theirs = case(ox), case(ref)
    assert ours == theirs
    assert ours[:3] == [None, None, None]
    assert ours[3] == ("raises", "UnsupportedOperation")


def test_corrupted_dictionaries_fail_as_the_standard_library() -> None:
    # A dictionary's magic number, then content zstd cannot parse.
    corrupted = b"\x37\xa4\x30\xec" + bytes(range(200)) * 2
    for module in (ox, ref):
        dictionary = module.ZstdDict(corrupted)
        with pytest.raises(module.ZstdError, match=r"^Failed to create a ZSTD_CDict instance from Zstandard dictionary content\.$"):
            module.compress(b"data", zstd_dict=dictionary.as_digested_dict)
        with pytest.raises(module.ZstdError, match=r"^Failed to create a ZSTD_DDict instance from Zstandard dictionary content\.$"):
            module.decompress(ref.compress(b"data"), zstd_dict=dictionary)
