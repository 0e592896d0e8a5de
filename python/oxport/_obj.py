"""Wavefront OBJ and MTL: the typed facade over ``oxport._native``."""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from typing import Any, Literal, NamedTuple, Optional, Sequence, Tuple, Union

from . import _native

#: Decimals of a kind of number: 0 to 9 (``printf("%.Nf")``), or ``"shortest"``
#: (the shortest text that reads back as the same float32).
Precision = Union[int, Literal["shortest"]]

#: Anything with the buffer protocol: a numpy array, ``array.array``, ``memoryview``.
Buffer = Any


class Mesh:
    """A polygon mesh in the OBJ model, as structure of arrays.

    Face ``i`` uses corners ``face_offsets[i]:face_offsets[i + 1]``; corner ``c``
    uses position ``position_indices[c]``, and where given ``uv_indices[c]`` and
    ``normal_indices[c]``. Indices are 0-based and local to the mesh.

    Args:
        name: the object name (``o NAME``).
        positions: ``(V, 3)`` or flat ``(3V,)`` float32.
        face_offsets: ``(F + 1,)`` increasing integers starting at 0.
        position_indices: ``(C,)`` integers.
        uvs: ``(T, 2)`` float32, with ``uv_indices`` ``(C,)``.
        normals: ``(N, 3)`` float32, with ``normal_indices`` ``(C,)``.
        colors: ``(V, 3)`` float32, written as ``v x y z r g b``.
        smooth: ``(F,)`` smooth group per face, 0 for flat (``s 0``, ``s 1``...).
        materials: material names, with ``material_indices`` ``(F,)`` into them.
        groups: group names, with ``group_indices`` ``(F,)`` into them
            (``g NAME`` where a face's group differs from the previous face's).
        edges: ``(E, 2)`` loose edges as pairs of position indices (``l a b``).

    The arrays are used in place, not copied, when they are C-contiguous
    float32 and 32-bit integers (other integer types are converted); they must
    not be changed while a write is running. The attributes give back the
    objects passed; those of meshes made by oxport (:func:`read_obj`) are
    read-only numpy arrays of oxport's own memory, without a copy.

    Raises:
        ValueError: a wrong shape, type or index, with the argument named.
    """

    __slots__ = ("_native",)

    def __init__(
        self,
        name: str,
        positions: Buffer,
        face_offsets: Buffer,
        position_indices: Buffer,
        *,
        uvs: Optional[Buffer] = None,
        uv_indices: Optional[Buffer] = None,
        normals: Optional[Buffer] = None,
        normal_indices: Optional[Buffer] = None,
        colors: Optional[Buffer] = None,
        smooth: Optional[Buffer] = None,
        materials: Optional[Sequence[str]] = None,
        material_indices: Optional[Buffer] = None,
        groups: Optional[Sequence[str]] = None,
        group_indices: Optional[Buffer] = None,
        edges: Optional[Buffer] = None,
    ) -> None:
        self._native = _native.Mesh(
            name,
            positions,
            face_offsets,
            position_indices,
            uvs=uvs,
            uv_indices=uv_indices,
            normals=normals,
            normal_indices=normal_indices,
            colors=colors,
            smooth=smooth,
            materials=list(materials) if materials is not None else None,
            material_indices=material_indices,
            groups=list(groups) if groups is not None else None,
            group_indices=group_indices,
            edges=edges,
        )

    @classmethod
    def _wrap(cls, native: "_native.Mesh") -> "Mesh":
        mesh = cls.__new__(cls)
        mesh._native = native
        return mesh

    @property
    def name(self) -> str:
        return self._native.name

    @property
    def positions(self) -> Buffer:
        return self._native.field("positions")

    @property
    def face_offsets(self) -> Buffer:
        return self._native.field("face_offsets")

    @property
    def position_indices(self) -> Buffer:
        return self._native.field("position_indices")

    @property
    def uvs(self) -> Optional[Buffer]:
        return self._native.field("uvs")

    @property
    def uv_indices(self) -> Optional[Buffer]:
        return self._native.field("uv_indices")

    @property
    def normals(self) -> Optional[Buffer]:
        return self._native.field("normals")

    @property
    def normal_indices(self) -> Optional[Buffer]:
        return self._native.field("normal_indices")

    @property
    def colors(self) -> Optional[Buffer]:
        return self._native.field("colors")

    @property
    def smooth(self) -> Optional[Buffer]:
        return self._native.field("smooth")

    @property
    def materials(self) -> Optional[Sequence[str]]:
        return self._native.field("materials")

    @property
    def material_indices(self) -> Optional[Buffer]:
        return self._native.field("material_indices")

    @property
    def groups(self) -> Optional[Sequence[str]]:
        return self._native.field("groups")

    @property
    def group_indices(self) -> Optional[Buffer]:
        return self._native.field("group_indices")

    @property
    def edges(self) -> Optional[Buffer]:
        return self._native.field("edges")

    @property
    def face_count(self) -> int:
        return self._native.face_count()

    def with_edges(self, edges: Buffer) -> "Mesh":
        """A copy of this mesh whose loose edges (``l a b``) are ``edges``, ``(E, 2)`` integers."""
        return Mesh._wrap(self._native.with_edges(edges))

    def __repr__(self) -> str:
        return repr(self._native)


@dataclass
class TextureMap:
    """A texture map line of a material: ``map_Kd -s 2 2 1 textures/wood.png``."""

    key: str
    """The statement: ``map_Kd``, ``map_Ks``, ``map_Bump``, ``bump``, ``disp``..."""
    path: str
    options: str = ""
    """The options between statement and path (``-o 0.5 0 0 -bm 2``), as written."""


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
    statements: list[Tuple[str, str]] = field(default_factory=list)
    """Other statements, written after ``illum`` in this order as ``KEY VALUE``
    (Blender's PBR extensions: ``("Pr", "0.500000")``...)."""
    maps: list[TextureMap] = field(default_factory=list)


class WriteSummary(NamedTuple):
    """What a write produced."""

    bytes: int
    objects: int
    vertices: int
    faces: int
    threads: int


def _lines(text: Optional[str]) -> list[str]:
    return [] if text is None else text.split("\n")


def _options(header: Optional[str], **options: Any) -> dict[str, Any]:
    """The native writers' options dict: keyword arguments as they are, the header as lines."""
    return dict(options, header=_lines(header))


def _natives(meshes: Sequence[Mesh]) -> list["_native.Mesh"]:
    if isinstance(meshes, Mesh):
        raise ValueError("meshes: expected a list of Mesh, got one Mesh")
    natives = []
    for i, mesh in enumerate(meshes):
        if not isinstance(mesh, Mesh):
            raise ValueError(f"meshes[{i}]: expected oxport.Mesh, got {type(mesh).__name__}")
        natives.append(mesh._native)
    return natives


def write_obj(
    path: Union[str, os.PathLike[str]],
    meshes: Sequence[Mesh],
    *,
    header: Optional[str] = None,
    mtllib: Optional[str] = None,
    mtl_materials: Optional[Sequence[Material]] = None,
    mtl_header: Optional[str] = None,
    precision: Precision = 6,
    uv_precision: Precision = 6,
    normal_precision: Precision = 4,
    color_precision: Precision = 4,
    normals: bool = True,
    uvs: bool = True,
    colors: bool = True,
    materials: bool = True,
    object_groups: bool = False,
    deduplicate_normals: bool = False,
    deduplicate_uvs: bool = False,
    threads: Optional[int] = None,
    direct: bool = False,
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
        header: text written first, each line as ``# line``.
        mtllib: the ``mtllib`` statement. With ``mtl_materials`` and no
            ``mtllib``, the MTL file is named after ``path`` (``.mtl``).
        mtl_materials: materials to write into the MTL file, in this order
            (the file is written beside ``path`` under the ``mtllib`` name).
        mtl_header: the MTL file's comment lines.
        precision: decimals of positions (0 to 9, or ``"shortest"``).
        uv_precision: decimals of UVs.
        normal_precision: decimals of normals.
        color_precision: decimals of vertex colors.
        normals, uvs, colors, materials: write these when the meshes have them.
        object_groups: start each mesh with ``g NAME`` instead of ``o NAME``.
        deduplicate_normals, deduplicate_uvs: merge values whose text is the
            same, keeping the first appearance (what Blender does with normals).
        threads: encoding threads; None is one per core.
        direct: write around the page cache (``O_DIRECT`` on Linux, where the
            file system allows it; buffered otherwise): much faster for big files
            where the kernel is slow to hand out cache pages (virtual machines),
            at the price of the file not being in the cache afterwards.

    Raises:
        ValueError: bad options or meshes, with the argument named.
        OSError: the file cannot be written (the path is in the error).
    """
    natives = _natives(meshes)
    path = os.fspath(path)
    if mtl_materials is not None and mtllib is None:
        mtllib = os.path.basename(os.path.splitext(path)[0] + ".mtl")
    if mtl_materials is not None:
        assert mtllib is not None
        mtl_path = os.path.join(os.path.dirname(path), mtllib)
        write_mtl(mtl_path, mtl_materials, header=mtl_header)
    options = _options(
        header, mtllib=mtllib, precision=precision, uv_precision=uv_precision,
        normal_precision=normal_precision, color_precision=color_precision, normals=normals,
        uvs=uvs, colors=colors, materials=materials, object_groups=object_groups,
        deduplicate_normals=deduplicate_normals, deduplicate_uvs=deduplicate_uvs,
        threads=threads, direct=direct,
    )
    return WriteSummary(*_native.write_obj(path, natives, options))


class ObjWriter:
    """An OBJ file written batch after batch, for meshes that become ready one
    after the other (the Blender add-on writes each while it gathers the next).
    The bytes are those of one :func:`write_obj` call with all the meshes.

    The file is written under a temporary name and appears under ``path`` only
    when :meth:`close` completes; :meth:`abort`, or leaving a ``with`` block by
    an exception, removes it. The options are :func:`write_obj`'s (the MTL file
    is written separately, with :func:`write_mtl`).

    ::

        with oxport.ObjWriter("scene.obj", mtllib="scene.mtl") as writer:
            for batch in batches:
                writer.write(batch)
        print(writer.summary)
    """

    def __init__(
        self,
        path: Union[str, os.PathLike[str]],
        *,
        header: Optional[str] = None,
        mtllib: Optional[str] = None,
        precision: Precision = 6,
        uv_precision: Precision = 6,
        normal_precision: Precision = 4,
        color_precision: Precision = 4,
        normals: bool = True,
        uvs: bool = True,
        colors: bool = True,
        materials: bool = True,
        object_groups: bool = False,
        deduplicate_normals: bool = False,
        deduplicate_uvs: bool = False,
        threads: Optional[int] = None,
        direct: bool = False,
    ) -> None:
        options = _options(
            header, mtllib=mtllib, precision=precision, uv_precision=uv_precision,
            normal_precision=normal_precision, color_precision=color_precision, normals=normals,
            uvs=uvs, colors=colors, materials=materials, object_groups=object_groups,
            deduplicate_normals=deduplicate_normals, deduplicate_uvs=deduplicate_uvs,
            threads=threads, direct=direct,
        )
        self._native = _native.ObjWriter(os.fspath(path), options)
        self.summary: Optional[WriteSummary] = None

    def write(self, meshes: Sequence[Mesh]) -> None:
        """Writes ``meshes`` after those already written (the GIL is released)."""
        self._native.write(_natives(meshes))

    def write_text(self, text: str) -> None:
        """Writes ``text`` as it is, after what was written: for statements the
        mesh model does not have (free-form curves: ``cstype``, ``curv``...).
        Meshes written later do not count ``v`` lines in it in their indices."""
        self._native.write_text(text)

    def close(self) -> WriteSummary:
        """Completes the file under its name and returns what was written."""
        self.summary = WriteSummary(*self._native.close())
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
) -> None:
    """Writes ``materials`` as an MTL file in Blender's layout, atomically."""
    _native.write_mtl(os.fspath(path), list(materials), header=_lines(header))


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
    """Statements skipped: unknown ones, and those not kept yet (``p``, free-form curves)."""
    materials: list[Material] = field(default_factory=list)
    """The materials of the ``mtllib`` files found beside the OBJ file, in file order."""
    mtl_header: list[str] = field(default_factory=list)
    """The comment lines that open the (first) MTL file."""

    def write_obj(self, path: Union[str, os.PathLike[str]], **options: Any) -> WriteSummary:
        """Writes the scene with :func:`write_obj`, with its header comments,
        its first ``mtllib`` and its materials (into that MTL file beside
        ``path``) unless ``options`` say otherwise."""
        options.setdefault("header", "\n".join(self.header) if self.header else None)
        options.setdefault("mtllib", self.mtllibs[0] if self.mtllibs else None)
        if (self.materials or self.mtl_header) and options["mtllib"] is not None:
            options.setdefault("mtl_materials", self.materials)
            options.setdefault("mtl_header", "\n".join(self.mtl_header) if self.mtl_header else None)
        return write_obj(path, self.meshes, **options)


def read_obj(
    path: Union[str, os.PathLike[str]], *, threads: Optional[int] = None, strict: bool = False
) -> Scene:
    """Reads a Wavefront OBJ file, parsed on all cores.

    The file is memory-mapped and cut into blocks at line ends; the blocks
    are parsed in parallel and stitched in order: one :class:`Mesh`
    per object, owning the ``v``, ``vt`` and ``vn`` lines declared after its
    ``o`` (an element used from elsewhere is copied in), with its faces,
    smooth groups (``s``), materials (``usemtl``), groups (``g``) and loose
    edges (``l``). Relative (negative) indices, ``\\`` continuations, CRLF,
    tabs and a missing final newline are read. Vertex colors (``v x y z r g
    b``) are kept. The ``mtllib`` files found beside it are read into
    :attr:`Scene.materials`.

    Args:
        path: the OBJ file.
        threads: parsing threads; None is one per core.
        strict: unknown statements are errors; otherwise they are skipped
            and counted in :attr:`Scene.skipped`.

    Raises:
        ParseError: the file does not parse, or holds what oxport cannot
            represent (an object with faces with UVs and faces without); the
            message names the file, the line and the reason (an index out of
            range, a token that is not a number...).
        UnsupportedError: an object with more than 2^32 face corners.
        OSError: the file cannot be read.
    """
    meshes, mtllibs, header, skipped, mtl_files = _native.read_obj(
        os.fspath(path), threads=threads, strict=strict)
    scene = Scene([Mesh._wrap(m) for m in meshes], mtllibs, header, skipped)
    for library in mtl_files:
        materials, mtl_header = read_mtl(library)
        scene.materials.extend(materials)
        if not scene.mtl_header:
            scene.mtl_header = mtl_header
    return scene


def read_mtl(path: Union[str, os.PathLike[str]]) -> tuple[list[Material], list[str]]:
    """Reads an MTL file: its materials (a property the file does not state
    is None, so that writing gives back the same lines) and the comment lines
    that open it.

    Raises:
        ParseError: the file does not parse (the message names file, line and reason).
        OSError: the file cannot be read.
    """
    natives, header = _native.read_mtl(os.fspath(path))
    materials = []
    for native in natives:
        maps = [TextureMap(key, path, options) for key, path, options in native.pop("maps")]
        statements = [tuple(s) for s in native.pop("statements")]
        materials.append(Material(**native, statements=statements, maps=maps))
    return materials, header
