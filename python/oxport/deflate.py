"""Deflate, zlib and gzip through libdeflate and ISA-L: one-shot, the formats
of the standard library's ``zlib`` and ``gzip`` (each reads what the other
writes).

::

    from oxport import deflate

    packed = deflate.compress(data, 6, format="gzip")
    assert gzip.decompress(packed) == data
    assert deflate.decompress(packed, format="gzip") == data

``format`` is ``"zlib"`` (``zlib.compress``), ``"gzip"`` (``gzip.compress``;
decompression reads every member, like ``gzip.decompress``) or ``"raw"``
(``wbits=-15``). Levels go from 0 (stored) through 1 (fastest) to 12
(smallest); 1 to 9 compare with zlib's.

``engine="fastest"`` (the default) compresses levels 1 to 3 with ISA-L's
igzip, the fastest deflate there is at those levels (at level 1 about 1.7×
libdeflate's speed for about 5% more output; see docs/benchmarks.md), and
levels 0 and 4 to 12 with
libdeflate (decompression is always libdeflate's). ISA-L is in the wheels and
in builds from source where nasm and autotools were present
(``oxport.build_info().engines["isal"]``); without it libdeflate compresses
every level. ``engine="libdeflate"``
uses libdeflate at every level, for its exact bytes. Results are ``bytes`` allocated at
their final size when gzip's trailer gives it; ``max_output_size`` stops a
decompression bomb with :class:`DeflateError` before it allocates.
"""

from __future__ import annotations

from ._native import DeflateError
from ._native import deflate_compress as compress
from ._native import deflate_compress_bound as compress_bound
from ._native import deflate_compress_into as compress_into
from ._native import deflate_decompress as decompress
from ._native import deflate_decompress_into as decompress_into

__all__ = [
    "DeflateError",
    "compress",
    "compress_bound",
    "compress_into",
    "decompress",
    "decompress_into",
]
