"""Wavefront OBJ and MTL: the typed facade over ``oxport._native``."""

from __future__ import annotations

import os
import sys
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any, BinaryIO, Literal, NamedTuple, Optional, Sequence, Tuple, TypedDict, Union

from . import _native
from ._native import Mesh as Mesh, TextureMap as TextureMap, WriteOptions as WriteOptions

if sys.version_info >= (3, 11):
    from typing import Unpack
elif TYPE_CHECKING:
    from typing_extensions import Unpack

#: Decimals of a kind of number: 0 to 9 (``printf("%.Nf")``), or ``"shortest"``
#: (the shortest text that reads back as the same float32).
Precision = Union[int, Literal["shortest"]]

#: An array-like of numbers: a buffer (numpy array, ``array.array``,
#: ``memoryview``), or a list or tuple of numbers.
Buffer = Any


class WriteArgs(TypedDict, total=False):
    """The keyword arguments of :func:`write_obj` and :class:`ObjWriter`
    (those of :class:`WriteOptions`). The defaults are Blender 3.4's.

    header: text written first, each line as ``# line``.
    mtllib: the ``mtllib`` statement (with ``mtl_materials`` and no ``mtllib``,
        the MTL file is named after the OBJ file).
    precision: decimals of positions (0 to 9, or ``"shortest"``; 6).
    uv_precision: decimals of UVs (6).
    normal_precision: decimals of normals (4).
    color_precision: decimals of vertex colors (4).
    normals, uvs, colors, materials: write these when the meshes have them (True).
    object_groups: start each mesh with ``g NAME`` instead of ``o NAME``.
    deduplicate_normals, deduplicate_uvs: merge values whose text is the
        same, keeping the first appearance (what Blender does with normals).
    threads: encoding threads; None is one per core, 0 is an error.
    direct: write around the page cache (``O_DIRECT`` on Linux, where the
        file system allows it; buffered otherwise; the summary says which):
        much faster for big files where the kernel is slow to hand out cache
        pages (virtual machines), at the price of the file not being in the
        cache afterwards.
    blender_version: ``(major, minor)`` of the Blender exporter whose layout
        curves and texture map options take (``bpy.app.version[:2]``; None: 3.4).
    """

    header: Optional[str]
    mtllib: Optional[str]
    precision: Precision
    uv_precision: Precision
    normal_precision: Precision
    color_precision: Precision
    normals: bool
    uvs: bool
    colors: bool
    materials: bool
    object_groups: bool
    deduplicate_normals: bool
    deduplicate_uvs: bool
    threads: Optional[int]
    direct: bool
    blender_version: Optional[Tuple[int, int]]


@dataclass
class Material:
    """A material as MTL describes it. The defaults are Blender's; a property
    set to None has no line in the file."""

    name: str
    specular_exponent: Optional[float] = 250.0
    """``Ns``"""
    ambient: Optional[Tuple[float, float, float]] = (1.0, 1.0, 1.0)
    """``Ka``"""
    diffuse: Optional[Tuple[float, float, float]] = (0.8, 0.8, 0.8)
    """``Kd``"""
    specular: Optional[Tuple[float, float, float]] = (0.5, 0.5, 0.5)
    """``Ks``"""
    emissive: Optional[Tuple[float, float, float]] = (0.0, 0.0, 0.0)
    """``Ke``"""
    ior: Optional[float] = 1.45
    """``Ni``"""
    dissolve: Optional[float] = 1.0
    """``d`` (1 is opaque)"""
    illum: Optional[int] = 2
    roughness: Optional[float] = None
    """``Pr``: Blender's PBR extensions, written after ``illum``."""
    metallic: Optional[float] = None
    """``Pm``"""
    sheen: Optional[float] = None
    """``Ps``"""
    clearcoat: Optional[float] = None
    """``Pc``"""
    clearcoat_roughness: Optional[float] = None
    """``Pcr``"""
    anisotropy: Optional[float] = None
    """``aniso``"""
    anisotropy_rotation: Optional[float] = None
    """``anisor``"""
    transmission_filter: Optional[Tuple[float, float, float]] = None
    """``Tf`` (its color form)"""
    statements: list[Tuple[str, str]] = field(default_factory=list)
    """The statements no field holds, as read (``("sharpness", "60")``),
    written after the fields above in this order as ``KEY VALUE``."""
    maps: list[TextureMap] = field(default_factory=list)


class WriteSummary(NamedTuple):
    """What a write produced."""

    bytes: int
    objects: int
    vertices: int
    faces: int
    threads: int
    direct: bool
    """Whether the file was written around the page cache (``direct=True``
    and a file system that allows it)."""


def write_obj(
    path: Union[str, os.PathLike[str]],
    meshes: Sequence[Mesh],
    *,
    mtl_materials: Optional[Sequence[Material]] = None,
    mtl_header: Optional[str] = None,
    **options: Unpack[WriteArgs],
) -> WriteSummary:
    """Writes ``meshes`` as a Wavefront OBJ file, in parallel, atomically.

    With the defaults the bytes are those of Blender 3.4's exporter for the same
    data: ``v`` and ``vt`` with 6 decimals, ``vn`` with 4, per object ``o``, its
    ``v``, ``vn``, ``vt``, then its faces with ``s`` and ``usemtl`` where they
    change, then ``l`` for loose edges. The GIL is released while writing.

    Args:
        path: the OBJ file. It is written beside under a temporary name and
            renamed when complete: it never exists half-written.
        meshes: the objects, in file order.
        mtl_materials: materials to write into an MTL file beside ``path``, in
            this order, named by ``mtllib`` or else after ``path`` (``.mtl``).
        mtl_header: the MTL file's comment lines.
        options: see :class:`WriteArgs`.

    Raises:
        ValueError: bad options or meshes, with the argument named.
        OSError: the file cannot be written (the path is in the error).
    """
    return _native.write_obj(
        path, meshes, WriteOptions(**options), mtl_materials=mtl_materials, mtl_header=mtl_header)


class ObjWriter:
    """An OBJ file written batch after batch, for meshes that become ready one
    after the other (the Blender add-on writes each while it gathers the next).
    The bytes are those of one :func:`write_obj` call with all the meshes.

    The file is written under a temporary name and appears under ``path`` only
    when :meth:`close` completes; :meth:`abort`, or leaving a ``with`` block by
    an exception, removes it. The options are :func:`write_obj`'s; the MTL file
    is written by :meth:`close`.

    ::

        with oxport.ObjWriter("scene.obj", mtllib="scene.mtl") as writer:
            for batch in batches:
                writer.write(batch)
        print(writer.summary)
    """

    def __init__(self, path: Union[str, os.PathLike[str]], **options: Unpack[WriteArgs]) -> None:
        self._native = _native.ObjWriter(path, WriteOptions(**options))
        self.summary: Optional[WriteSummary] = None

    def write(self, meshes: Sequence[Mesh]) -> None:
        """Writes ``meshes`` after those already written (the GIL is released)."""
        self._native.write(meshes)

    def write_curves(self, curves: Sequence["_native.Curve"]) -> None:
        """Writes free-form curves (``oxport.blender.nurbs_curves``) after
        what was written: Blender writes them after every mesh, with relative
        indices."""
        self._native.write_curves(curves)

    def write_text(self, text: str) -> None:
        """Writes ``text`` as it is, after what was written: for statements the
        mesh model does not have (free-form curves: ``cstype``, ``curv``...).
        Meshes written later do not count ``v`` lines in it in their indices."""
        self._native.write_text(text)

    def close(self, *, mtl_materials: Optional[Sequence[Material]] = None,
              mtl_header: Optional[str] = None) -> WriteSummary:
        """Completes the file under its name and returns what was written.
        With ``mtl_materials``, they are first written (with ``mtl_header``'s
        comment lines) as the MTL file the OBJ file names (``mtllib``, beside
        it): the OBJ file never names an MTL file that was not written, and
        when the MTL file cannot be written neither file appears."""
        self.summary = self._native.close(mtl_materials=mtl_materials, mtl_header=mtl_header)
        return self.summary

    def abort(self) -> None:
        """Gives up: nothing appears under the file's name."""
        self._native.abort()

    def __enter__(self) -> "ObjWriter":
        return self

    def __exit__(self, kind: Any, error: Any, traceback: Any) -> None:
        if kind is None:
            self.close()
        else:
            self.abort()


def write_mtl(
    path: Union[str, os.PathLike[str]],
    materials: Sequence[Material],
    *,
    header: Optional[str] = None,
    blender_version: Optional[Tuple[int, int]] = None,
) -> None:
    """Writes ``materials`` as an MTL file in Blender's layout, atomically,
    texture map options as the exporter of ``blender_version`` writes them
    (None: 3.4)."""
    _native.write_mtl(path, materials, header=header, blender_version=blender_version)


def mtl_path(obj_path: Union[str, os.PathLike[str]]) -> str:
    """The MTL file oxport writes beside the OBJ file ``obj_path`` when no
    ``mtllib`` names another: its name with the extension ``.mtl``
    (``scene.obj``: ``scene.mtl``). The one rule of the writers, the batches
    (``oxport.dask``, the command line) and the Blender add-on."""
    return str(_native.mtl_path(obj_path))


@dataclass(frozen=True)
class ReadWarning:
    """Something a read passed over: where it first happened, what, and how
    many times (one warning per kind of thing, not one per line)."""

    path: Optional[str]
    line: int
    """The first line (1-based; 0 for the file as a whole)."""
    what: str
    count: int

    def __str__(self) -> str:
        where = ":".join(str(p) for p in (self.path, self.line or None) if p is not None)
        times = f" ({self.count} times)" if self.count > 1 else ""
        return f"{where}: {self.what}{times}" if where else f"{self.what}{times}"


@dataclass
class FreeFormCurve:
    """A free-form B-spline curve of an OBJ file (``cstype bspline`` or
    ``cstype rat bspline``, then ``deg``, ``curv`` and ``parm u``)."""

    name: str
    """The object it is named after: the current group's name, else the
    object's."""
    group: str
    """The group current at its ``cstype`` ("" for none)."""
    rational: bool
    """``cstype rat bspline``"""
    degree: int
    """``deg`` as given (0 where there is none)."""
    range: tuple[float, float]
    """``curv``'s parameter range."""
    controls: list[int]
    """The control points' indices among the file's positions (0-based)."""
    points: list[tuple[float, float, float]]
    """The control points."""
    weights: list[float]
    """Their weights (``v x y z w``; 1 where the line gives none)."""
    knots: list[float]
    """``parm u``'s knots."""
    meshes_before: int
    """How many of :attr:`Scene.meshes` come before it in the file."""


@dataclass
class Scene:
    """What an OBJ file holds, as :func:`read_obj` reads it."""

    meshes: list[Mesh]
    """One mesh per object (``o``), with the elements declared in it."""
    mtllibs: list[str] = field(default_factory=list)
    """The ``mtllib`` statements' texts, in file order."""
    header: list[str] = field(default_factory=list)
    """The comment lines that open the file (without ``# ``)."""
    skipped: int = 0
    """Statements skipped: unknown ones, and those not kept (free-form
    surfaces, curves of other types than B-splines)."""
    curves: list[FreeFormCurve] = field(default_factory=list)
    """The free-form B-spline curves, in file order."""
    warnings: list[ReadWarning] = field(default_factory=list)
    """What the read passed over: each kind once, with its first line and count."""
    materials: list[Material] = field(default_factory=list)
    """The materials of the MTL files read, in file order."""
    mtl_header: list[str] = field(default_factory=list)
    """The comment lines that open the (first) MTL file."""
    mtl_files: list[Path] = field(default_factory=list)
    """The MTL files read."""

    def write_obj(self, path: Union[str, os.PathLike[str]], **options: Unpack[WriteArgs]) -> WriteSummary:
        """Writes the scene again as ``path``, as :func:`convert_obj` and
        ``oxport obj convert`` do: its header comments unless ``header`` is
        given; when MTL files were read or it has materials, an MTL file
        beside ``path`` named by ``mtllib`` or else after ``path``
        (``out.obj``: ``out.mtl``, never the name read, which a write beside
        the file read would replace); otherwise its first ``mtllib`` as it
        was, unless ``mtllib`` gives another. Both files are atomic, and the
        OBJ file never names an MTL file that was not written."""
        return _native.write_scene(
            path, self.meshes, WriteOptions(**options),
            header=self.header, mtllibs=self.mtllibs, materials=self.materials,
            mtl_header=self.mtl_header, mtl_files=self.mtl_files,
        )


def read_obj(
    path: Union[str, os.PathLike[str], BinaryIO],
    *,
    threads: Optional[int] = None,
    strict: bool = False,
    materials: bool = True,
    mtl_root: Union[str, os.PathLike[str], None] = None,
) -> Scene:
    """Reads a Wavefront OBJ file, parsed on all cores, and the MTL files it names.

    The file is memory-mapped and cut into blocks at line ends; the blocks
    are parsed in parallel and stitched in order: one :class:`Mesh`
    per object, owning the ``v``, ``vt`` and ``vn`` lines declared after its
    ``o`` (an element used from elsewhere is copied in; elements declared
    where no face is belong to the objects that use them), with its faces,
    smooth groups (``s``), materials (``usemtl``), groups (``g``) and loose
    edges (``l``). Relative (negative) indices, ``\\`` continuations, CRLF,
    tabs and a missing final newline are read. Vertex colors (``v x y z r g
    b``) are kept.

    Reading is lenient, as other readers are, and what it passes over is in
    :attr:`Scene.warnings`: a face of two corners is read as a loose edge,
    faces and lines with too few corners, faces with an index out of range
    or 0 and unknown statements are skipped, UV or normal indices in a file
    without UVs or normals are ignored, MTL files that are missing, malformed or
    outside ``mtl_root`` are not read.

    Args:
        path: the OBJ file: a path, a URL (``s3://bucket/key.obj``,
            ``https://...``: fetched whole, its MTL files from beside it), or
            a readable, seekable binary file object (an ``fsspec`` file: read
            whole; it lies in no folder, so its MTL files are not read, a
            warning).
        threads: parsing threads; None is one per core, 0 is an error.
        strict: refuse what is otherwise passed over with a warning.
        materials: read the MTL files that ``mtllib`` statements name into
            :attr:`Scene.materials`.
        mtl_root: the folder MTL files may be read from, subfolders included
            (None: the OBJ file's folder). A ``mtllib`` path that leaves it
            (``../``, an absolute path, a link out) is not opened. ``"/"``
            allows any path.

    Raises:
        ParseError: the file does not parse; the message names the file, the
            line and the reason (a token that is not a number, an index out of
            range in an ``l`` line, or in a face when ``strict``...).
        UnsupportedError: an object with more than 2^32 face corners.
        ValueError: ``threads`` is 0.
        OSError: the file cannot be read.
    """
    return _native.read_obj(path, threads=threads, strict=strict, materials=materials, mtl_root=mtl_root)


class ObjConversion(NamedTuple):
    """What :func:`convert_obj` read and wrote."""

    bytes_read: int
    """The size of the OBJ file read."""
    skipped: int
    """Statements the read skipped (see :attr:`Scene.skipped`)."""
    materials: int
    """Materials read from the MTL files and written again."""
    warnings: list[ReadWarning]
    """What the read passed over."""
    written: WriteSummary
    """The OBJ file written."""


def convert_obj(
    src: Union[str, os.PathLike[str]],
    dst: Union[str, os.PathLike[str]],
    *,
    strict: bool = False,
    read_materials: bool = True,
    mtl_root: Union[str, os.PathLike[str], None] = None,
    **options: Unpack[WriteArgs],
) -> ObjConversion:
    """Reads the OBJ file ``src`` and the MTL files it names and writes them
    again as ``dst``, with other precisions (``precision=2``...): OBJ to OBJ,
    each file whole or not at all, the GIL released. The comment lines that
    open the file are kept (unless ``header`` gives others); the materials go
    to an MTL file beside ``dst`` named after it; without MTL files read the
    file's own ``mtllib`` is written again. ``threads`` serves the read and the
    write. ``strict``, ``mtl_root`` and ``read_materials`` (:func:`read_obj`'s
    ``materials``) are the read's options, the others :func:`write_obj`'s.

    The same as ``read_obj(src).write_obj(dst, ...)`` without the meshes
    coming to Python, and what ``oxport obj convert`` does.
    """
    return _native.convert_obj(src, dst, WriteOptions(**options), strict=strict, materials=read_materials,
                               mtl_root=mtl_root)


def read_mtl(path: Union[str, os.PathLike[str]]) -> tuple[list[Material], list[str]]:
    """Reads an MTL file: its materials (a property the file does not state
    is None, so that writing gives back the same lines) and the comment lines
    that open it.

    Raises:
        ParseError: the file does not parse (the message names file, line and reason).
        OSError: the file cannot be read.
    """
    return _native.read_mtl(path)
