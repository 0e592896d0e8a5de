"""oxport: fast, exact I/O for 3D and VFX data.

Write meshes as Wavefront OBJ, the same bytes Blender 3.4's exporter writes,
on every core::

    import numpy as np
    import oxport

    mesh = oxport.Mesh(
        "triangle",
        positions=np.array([[0, 0, 0], [1, 0, 0], [0, 1, 0]], np.float32),
        face_offsets=np.array([0, 3], np.uint32),
        position_indices=np.array([0, 1, 2], np.uint32),
    )
    oxport.write_obj("triangle.obj", [mesh])

Arrays are any array-like: buffers (numpy arrays, ``array.array``,
``memoryview``) of float32 and 32-bit integers are used without copies, other
buffers and lists of numbers are converted once; numpy is not needed to import
oxport or to write. Meshes read from files (:func:`read_obj`) give read-only numpy arrays
of oxport's own memory, without copies.

Errors: what a file holds raises a subclass of :class:`Error` (:class:`ParseError`
for text that does not parse, with the file and line; :class:`CorruptError` for
damaged or truncated binary data, with the byte offset; :class:`UnsupportedError`
for valid input oxport does not handle yet); a bad argument raises ``ValueError``
or ``TypeError`` naming it; the system's refusals raise ``OSError`` (its subclass
as for Python's own I/O, with the path) and ``MemoryError``. An output larger
than the limit a caller set (``max_output_size``) raises ``oxport.zstd.ZstdError``
or ``oxport.deflate.DeflateError``, both subclasses of :class:`Error`.
"""

from __future__ import annotations

from . import color, deflate, exr, seekable, zstd
from ._native import BuildInfo, CorruptError, Error, ParseError, UnsupportedError, __version__, build_info
from ._obj import (
    FreeFormCurve,
    Material,
    Mesh,
    ObjConversion,
    ObjWriter,
    Scene,
    TextureMap,
    ReadWarning,
    WriteArgs,
    WriteOptions,
    WriteSummary,
    convert_obj,
    mtl_path,
    read_mtl,
    read_obj,
    write_mtl,
    write_obj,
)

__all__ = [
    "BuildInfo",
    "CorruptError",
    "Error",
    "FreeFormCurve",
    "Material",
    "Mesh",
    "ObjConversion",
    "ObjWriter",
    "ParseError",
    "Scene",
    "TextureMap",
    "UnsupportedError",
    "ReadWarning",
    "WriteArgs",
    "WriteOptions",
    "WriteSummary",
    "__version__",
    "build_info",
    "color",
    "convert_obj",
    "deflate",
    "exr",
    "mtl_path",
    "read_mtl",
    "read_obj",
    "seekable",
    "write_mtl",
    "write_obj",
    "zstd",
]
