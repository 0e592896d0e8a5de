"""Stubs of the native module; checked against it with ``mypy.stubtest``."""

import os

import numpy
import numpy.typing as npt
from pathlib import Path
from collections.abc import Iterable, Mapping
from typing import IO, Any, BinaryIO, Final, Literal, Optional, Sequence, Union, final

from _typeshed import ReadableBuffer, WriteableBuffer

from ._obj import Material, ObjConversion, ReadWarning, Scene, WriteSummary
from .blender import ImportedScene
from .exr import DeepPixels, Part
from .seekable import Frame, Packed

__version__: str

#: An array-like of numbers: a buffer (numpy array, ``array.array``,
#: ``memoryview``), or a list or tuple of numbers (flat, or rows).
_ArrayLike = Any
#: A matrix as rows of numbers (a ``mathutils._Matrix`` works).
_Matrix = Sequence[Sequence[float]]
#: Decimals: 0 to 9 (``printf("%.Nf")``), or ``"shortest"``.
_Precision = Union[int, Literal["shortest"]]
_StrPath = Union[str, os.PathLike[str]]

class Error(Exception): ...
class ParseError(Error): ...
class CorruptError(Error): ...
class UnsupportedError(Error): ...

@final
class Mesh:
    def __new__(
        cls,
        name: str,
        positions: _ArrayLike,
        face_offsets: _ArrayLike,
        position_indices: _ArrayLike,
        *,
        uvs: Optional[_ArrayLike] = None,
        uv_indices: Optional[_ArrayLike] = None,
        normals: Optional[_ArrayLike] = None,
        normal_indices: Optional[_ArrayLike] = None,
        colors: Optional[_ArrayLike] = None,
        smooth: Optional[_ArrayLike] = None,
        materials: Optional[Sequence[str]] = None,
        material_indices: Optional[_ArrayLike] = None,
        groups: Optional[Sequence[str]] = None,
        group_indices: Optional[_ArrayLike] = None,
        edges: Optional[_ArrayLike] = None,
        points: Optional[_ArrayLike] = None,
    ) -> Mesh: ...
    @property
    def name(self) -> str: ...
    @property
    def positions(self) -> Any: ...
    @property
    def face_offsets(self) -> Any: ...
    @property
    def position_indices(self) -> Any: ...
    @property
    def uvs(self) -> Optional[Any]: ...
    @property
    def uv_indices(self) -> Optional[Any]: ...
    @property
    def normals(self) -> Optional[Any]: ...
    @property
    def normal_indices(self) -> Optional[Any]: ...
    @property
    def colors(self) -> Optional[Any]: ...
    @property
    def smooth(self) -> Optional[Any]: ...
    @property
    def materials(self) -> Optional[list[str]]: ...
    @property
    def material_indices(self) -> Optional[Any]: ...
    @property
    def groups(self) -> Optional[list[str]]: ...
    @property
    def group_indices(self) -> Optional[Any]: ...
    @property
    def edges(self) -> Optional[Any]: ...
    @property
    def points(self) -> Optional[Any]: ...
    @property
    def face_count(self) -> int: ...
    def with_edges(self, edges: _ArrayLike) -> Mesh: ...
    def __getnewargs_ex__(self) -> tuple[tuple[Any, ...], dict[str, Any]]: ...

@final
class WriteOptions:
    def __new__(
        cls,
        *,
        header: Optional[str] = None,
        mtllib: Optional[str] = None,
        precision: Optional[_Precision] = None,
        uv_precision: Optional[_Precision] = None,
        normal_precision: Optional[_Precision] = None,
        color_precision: Optional[_Precision] = None,
        normals: bool = True,
        uvs: bool = True,
        colors: bool = True,
        materials: bool = True,
        object_groups: bool = False,
        deduplicate_normals: bool = False,
        deduplicate_uvs: bool = False,
        threads: Optional[int] = None,
        direct: bool = False,
        blender_version: Optional[tuple[int, int]] = None,
    ) -> WriteOptions: ...

@final
class TextureMap:
    key: str
    path: str
    offset: Optional[tuple[float, float, float]]
    scale: Optional[tuple[float, float, float]]
    turbulence: Optional[tuple[float, float, float]]
    range: Optional[tuple[float, float]]
    bump_multiplier: Optional[float]
    boost: Optional[float]
    resolution: Optional[int]
    clamp: Optional[bool]
    blend_u: Optional[bool]
    blend_v: Optional[bool]
    color_correction: Optional[bool]
    channel: Optional[str]
    projection: Optional[str]
    def __new__(
        cls,
        key: str,
        path: str,
        *,
        offset: Optional[tuple[float, float, float]] = None,
        scale: Optional[tuple[float, float, float]] = None,
        turbulence: Optional[tuple[float, float, float]] = None,
        range: Optional[tuple[float, float]] = None,
        bump_multiplier: Optional[float] = None,
        boost: Optional[float] = None,
        resolution: Optional[int] = None,
        clamp: Optional[bool] = None,
        blend_u: Optional[bool] = None,
        blend_v: Optional[bool] = None,
        color_correction: Optional[bool] = None,
        channel: Optional[str] = None,
        projection: Optional[str] = None,
    ) -> TextureMap: ...

def write_obj(
    path: _StrPath,
    meshes: Sequence[Mesh],
    options: WriteOptions,
    *,
    mtl_materials: Optional[Sequence[Material]] = None,
    mtl_header: Optional[str] = None,
) -> WriteSummary: ...

def write_scene(
    path: _StrPath,
    meshes: Sequence[Mesh],
    options: WriteOptions,
    *,
    header: Sequence[str],
    mtllibs: Sequence[str],
    materials: Sequence[Material],
    mtl_header: Sequence[str],
    mtl_files: Sequence[_StrPath],
) -> WriteSummary: ...

@final
class ObjWriter:
    def __new__(cls, path: _StrPath, options: WriteOptions) -> ObjWriter: ...
    def write(self, meshes: Sequence[Mesh]) -> None: ...
    def write_text(self, text: str) -> None: ...
    def write_curves(self, curves: Sequence[Curve]) -> None: ...
    def close(
        self, *, mtl_materials: Optional[Sequence[Material]] = None, mtl_header: Optional[str] = None
    ) -> WriteSummary: ...
    def abort(self) -> None: ...

def write_mtl(
    path: _StrPath,
    materials: Sequence[Material],
    *,
    header: Optional[str] = None,
    blender_version: Optional[tuple[int, int]] = None,
) -> None: ...
def mtl_path(path: _StrPath) -> str: ...
def read_obj(
    path: Union[_StrPath, BinaryIO],
    *,
    threads: Optional[int] = None,
    strict: bool = False,
    materials: bool = True,
    mtl_root: Optional[_StrPath] = None,
) -> Scene: ...
def read_mtl(path: _StrPath) -> tuple[list[Material], list[str]]: ...
def convert_obj(
    src: _StrPath,
    dst: _StrPath,
    options: WriteOptions,
    *,
    strict: bool = False,
    materials: bool = True,
    mtl_root: Optional[_StrPath] = None,
) -> ObjConversion: ...
def is_url(location: _StrPath) -> bool: ...

@final
class BatchJob:
    @staticmethod
    def exr(
        inputs: Sequence[_StrPath],
        output_dir: _StrPath,
        *,
        compression: str = "zstd",
        level: Optional[int] = None,
        scanlines: bool = False,
        tiles: Optional[tuple[int, int]] = None,
        levels: str = "one",
        rounding: str = "down",
        threads: None = None,
    ) -> BatchJob: ...
    @staticmethod
    def seekable(
        inputs: Sequence[_StrPath],
        output_dir: _StrPath,
        *,
        level: Optional[int] = None,
        frame_size: Optional[int] = None,
        checksums: Optional[bool] = None,
        threads: None = None,
    ) -> BatchJob: ...
    @staticmethod
    def obj(
        inputs: Sequence[_StrPath],
        output_dir: _StrPath,
        *,
        strict: bool = False,
        read_materials: bool = True,
        mtl_root: Optional[_StrPath] = None,
        **writing: Any,
    ) -> BatchJob: ...
    @staticmethod
    def from_json(text: str) -> BatchJob: ...
    def to_json(self) -> str: ...
    @property
    def inputs(self) -> list[str]: ...
    @property
    def output(self) -> str: ...
    @property
    def conversion(self) -> BatchConversion: ...
    def plan(self) -> list[str]: ...
    def remove_temporaries(self, targets: Sequence[_StrPath]) -> int: ...

@final
class BatchConversion:
    @property
    def kind(self) -> str: ...
    def run(self, input: _StrPath, target: _StrPath, *, threads: Optional[int] = None) -> BatchDone: ...
    @staticmethod
    def from_json(text: str) -> BatchConversion: ...
    def __reduce__(self) -> tuple[Any, tuple[str]]: ...

@final
class BatchDone:
    def __new__(cls, *, bytes_in: int, bytes_out: int) -> BatchDone: ...
    def __getnewargs_ex__(self) -> tuple[tuple[()], dict[str, int]]: ...
    @property
    def bytes_in(self) -> int: ...
    @property
    def bytes_out(self) -> int: ...

def batch_located(path: _StrPath, message: str) -> str: ...

@final
class BuildInfo:
    @property
    def version(self) -> str: ...
    @property
    def zstd_version(self) -> str: ...
    @property
    def engines(self) -> dict[str, bool]: ...

def build_info() -> BuildInfo: ...
def cli(args: Sequence[str]) -> int: ...

@final
class MeshStream:
    def __new__(cls, writer: ObjWriter, *, threads: Optional[int] = None) -> MeshStream: ...
    def add(self, gathered: Gathered) -> None: ...
    def add_then_edges(self, gathered: Gathered) -> LooseEdges: ...
    def finish(self) -> None: ...
    def close(self) -> None: ...

@final
class LooseEdges:
    def send(self, edges: Optional[_ArrayLike]) -> None: ...
    def cancel(self) -> None: ...

@final
class Gathered:
    def __new__(
        cls,
        name: str,
        matrix_world: _Matrix,
        axes: _Matrix,
        positions: _ArrayLike,
        corner_vertices: _ArrayLike,
        face_starts: _ArrayLike,
        *,
        scale: float = 1.0,
        corner_normals: Optional[_ArrayLike] = None,
        vertex_normals: Optional[_ArrayLike] = None,
        face_normals: Optional[_ArrayLike] = None,
        blender_version: Optional[tuple[int, int]] = None,
        corner_uvs: Optional[_ArrayLike] = None,
        smooth: Optional[_ArrayLike] = None,
        material_indices: Optional[_ArrayLike] = None,
        materials: Optional[Sequence[str]] = None,
        edges: Optional[_ArrayLike] = None,
        vertex_colors: Optional[_ArrayLike] = None,
        corner_colors: Optional[_ArrayLike] = None,
        corner_colors_srgb8: Optional[_ArrayLike] = None,
        corner_edges: Optional[_ArrayLike] = None,
        sharp_edges: Optional[_ArrayLike] = None,
        smooth_group_bitflags: bool = False,
        material_groups: Optional[str] = None,
        vertex_group_names: Optional[Sequence[str]] = None,
        vertex_group_offsets: Optional[_ArrayLike] = None,
        vertex_group_indices: Optional[_ArrayLike] = None,
        vertex_group_weights: Optional[_ArrayLike] = None,
    ) -> Gathered: ...
    @property
    def name(self) -> str: ...

def blender_meshes(items: Sequence[Gathered], *, threads: Optional[int] = None) -> list[Mesh]: ...
def blender_unused_edges(corner_edges: _ArrayLike, edge_count: int) -> int: ...
@final
class Bsdf:
    def __new__(
        cls,
        *,
        roughness: float,
        specular: float,
        metallic: float,
        ior: float,
        alpha: float,
        base_color: Sequence[float],
        emission: Sequence[float],
        emission_strength: Optional[float] = None,
        sheen: float = 0.0,
        clearcoat: float = 0.0,
        clearcoat_roughness: float = 0.0,
        anisotropic: float = 0.0,
        anisotropic_rotation: float = 0.0,
        transmission: float = 0.0,
    ) -> Bsdf: ...

@final
class ImageTexture:
    """An image texture linked to an input of a material's Principled BSDF:
    ``input`` by its Blender 3.4 name (``"Base Color"``, ``"Metallic"``,
    ``"Specular"``, ``"Roughness"``, ``"Sheen"``, ``"Emission"``,
    ``"Alpha"``, ``"Normal"``: through a Normal Map node), ``path`` as the
    MTL file names the image, the ``location`` and ``scale`` of the Mapping
    node Blender finds for it (default: none, (0, 0, 0) and (1, 1, 1)), and
    the Normal Map node's ``normal_strength``."""
    def __new__(
        cls,
        input: str,
        path: str,
        *,
        location: Sequence[float] = ...,
        scale: Sequence[float] = ...,
        normal_strength: float = 0.0,
    ) -> ImageTexture: ...
    @property
    def input(self) -> str: ...
    @property
    def path(self) -> str: ...

def blender_mtl_material(
    name: str,
    *,
    roughness: float,
    specular_intensity: float,
    metallic: float,
    diffuse_color: Sequence[float],
    bsdf: Optional[Bsdf] = None,
    textures: Sequence[ImageTexture] = ...,
    pbr: bool = False,
    blender_version: Optional[tuple[int, int]] = None,
) -> Material: ...

@final
class Curve:
    @property
    def name(self) -> str: ...
    @property
    def points(self) -> list[tuple[float, float, float]]: ...

@final
class BlenderExporter:
    """The rules of Blender's exporter and importer of ``blender_version``
    (``bpy.app.version[:2]``; None: 3.4) that are not arithmetic."""

    def __new__(cls, blender_version: Optional[tuple[int, int]] = None) -> BlenderExporter: ...
    def frame_path(self, path: str, frame: int) -> str:
        """The file of one frame of an animation: ``path`` without its
        extension, the frame number (four digits from 4.1), ``.obj``."""
    @property
    def writes_empty_files(self) -> bool:
        """Whether an export that finds nothing leaves a file (an empty one
        in 3.4; from 4.1 no file, and one already there is left alone)."""
    @property
    def validates_meshes(self) -> bool:
        """The importer's ``validate_meshes`` default (on from 4.1)."""

@final
class NurbsSpline:
    """One NURBS spline of a Blender curve object: its control points
    (``points[].co`` without the weight, (N, 3) float32), ``order_u``,
    ``use_cyclic_u``, ``use_endpoint_u`` and ``use_bezier_u``."""
    def __new__(
        cls,
        points: _ArrayLike,
        *,
        order: int,
        cyclic: bool = False,
        endpoint: bool = False,
        bezier: bool = False,
    ) -> NurbsSpline: ...

@final
class ImportedMesh:
    """One mesh object as Blender's OBJ importer builds it (read-only arrays)."""
    @property
    def name(self) -> str: ...
    @property
    def positions(self) -> npt.NDArray[numpy.float32]: ...
    @property
    def face_offsets(self) -> npt.NDArray[numpy.uint32]: ...
    @property
    def corner_vertices(self) -> npt.NDArray[numpy.uint32]: ...
    @property
    def corner_uvs(self) -> Optional[npt.NDArray[numpy.float32]]: ...
    @property
    def corner_normals(self) -> Optional[npt.NDArray[numpy.float32]]: ...
    @property
    def face_sizes(self) -> npt.NDArray[numpy.uint32]: ...
    @property
    def smooth_faces(self) -> npt.NDArray[numpy.bool_]: ...
    @property
    def material_indices(self) -> npt.NDArray[numpy.uint32]: ...
    @property
    def collections(self) -> list[str]:
        """With a collection separator, the collections the object is linked
        into, outermost first (else empty)."""
    @property
    def materials(self) -> list[str]: ...
    @property
    def loose_edges(self) -> npt.NDArray[numpy.uint32]:
        """The ``l`` lines' edges: the first of ``edges``."""
    @property
    def edges(self) -> npt.NDArray[numpy.uint32]:
        """Every edge (``.edge_verts``), the loose ones first, then the
        faces' by smaller vertex and first use."""
    @property
    def corner_edges(self) -> npt.NDArray[numpy.uint32]:
        """Each corner's edge (``.corner_edge``)."""
    @property
    def colors(self) -> Optional[npt.NDArray[numpy.float32]]: ...
    @property
    def vertex_groups(self) -> list[tuple[str, npt.NDArray[numpy.uint32]]]: ...
    @property
    def valid(self) -> bool:
        """Blender's ``Mesh.validate`` would change nothing in this mesh."""
    @property
    def faces_skipped(self) -> bool:
        """The object had a face skipped for an index out of range or 0:
        Blender's importer then validates its mesh, whatever
        ``validate_meshes`` says."""

@final
class CustomNormals:
    """A mesh's custom normals as Blender stores them."""
    @property
    def encoded(self) -> npt.NDArray[numpy.int16]: ...
    @property
    def sharp_edges(self) -> npt.NDArray[numpy.bool_]: ...

@final
class CustomNormalsStream:
    def __new__(cls, *, threads: Optional[int] = None) -> CustomNormalsStream: ...
    def add(self, mesh: ImportedMesh) -> None: ...
    def finish(self) -> list[Optional[CustomNormals]]: ...
    def close(self) -> None: ...

def blender_import_obj(
    path: Union[str, os.PathLike[str]],
    *,
    blender_version: Optional[tuple[int, int]] = None,
    vertex_groups: bool = False,
    clamp_size: float = 0.0,
    global_scale: float = 1.0,
    split_objects: bool = True,
    split_groups: bool = False,
    collection_separator: str = "",
    close_spline_loops: bool = True,
    threads: Optional[int] = None,
) -> ImportedScene: ...

def blender_nurbs_curves(
    name: str,
    matrix_world: _Matrix,
    axes: _Matrix,
    splines: Sequence[NurbsSpline],
    *,
    scale: float = 1.0,
    blender_version: Optional[tuple[int, int]] = None,
) -> list[Curve]: ...
def format_fixed(values: _ArrayLike, precision: int) -> bytes: ...

@final
class SeekableReader:
    def __new__(cls, file: Union[str, os.PathLike[str], IO[bytes]], *, threads: Optional[int] = None) -> SeekableReader: ...
    @property
    def size(self) -> Optional[int]: ...
    def find_size(self) -> int: ...
    @property
    def archive_size(self) -> int: ...
    @property
    def index(self) -> str: ...
    @property
    def checksums(self) -> bool: ...
    def frames(self) -> list[Frame]: ...
    def read_at(self, offset: int, size: int) -> bytes: ...
    def readinto_at(self, offset: int, buffer: Union[bytearray, memoryview]) -> int: ...

@final
class SeekableWriter:
    def __new__(
        cls,
        path: Union[str, os.PathLike[str]],
        *,
        level: Optional[int] = None,
        frame_size: Optional[int] = None,
        checksums: Optional[bool] = None,
        threads: Optional[int] = None,
    ) -> SeekableWriter: ...
    def write(self, data: Union[bytes, bytearray, memoryview]) -> int: ...
    def close(self) -> Optional[Packed]: ...
    def discard(self) -> None: ...
    @property
    def closed(self) -> bool: ...

def seekable_pack(
    src: Union[str, os.PathLike[str]],
    dst: Union[str, os.PathLike[str], BinaryIO],
    *,
    level: Optional[int] = None,
    frame_size: Optional[int] = None,
    checksums: Optional[bool] = None,
    threads: Optional[int] = None,
) -> Packed: ...

SEEKABLE_LEVEL: Final[int]
SEEKABLE_FRAME_SIZE: Final[int]
SEEKABLE_CHECKSUMS: Final[bool]
def seekable_unpack(
    src: Union[str, os.PathLike[str]], dst: Union[str, os.PathLike[str], BinaryIO], *, threads: Optional[int] = None
) -> int: ...

# oxport.zstd (the facade re-exports these under compression.zstd's names)

_ZstdDictArg = Union[ZstdDict, tuple[ZstdDict, int], None]

ZSTD_MIN_LEVEL: int
ZSTD_MAX_LEVEL: int
ZSTD_DEFAULT_LEVEL: int
ZSTD_VERSION_NUMBER: int

class ZstdError(Error): ...

@final
class ZstdDict:
    def __new__(cls, dict_content: ReadableBuffer, /, *, is_raw: bool = False) -> ZstdDict: ...
    @property
    def dict_content(self) -> bytes: ...
    @property
    def dict_id(self) -> int: ...
    def __len__(self) -> int: ...
    @property
    def as_digested_dict(self) -> tuple[ZstdDict, int]: ...
    @property
    def as_undigested_dict(self) -> tuple[ZstdDict, int]: ...
    @property
    def as_prefix(self) -> tuple[ZstdDict, int]: ...

@final
class ZstdCompressor:
    CONTINUE: Final = 0
    FLUSH_BLOCK: Final = 1
    FLUSH_FRAME: Final = 2
    def __new__(
        cls,
        level: Optional[int] = None,
        options: Optional[Mapping[int, int]] = None,
        zstd_dict: _ZstdDictArg = None,
    ) -> ZstdCompressor: ...
    def compress(self, data: ReadableBuffer, mode: Literal[0, 1, 2] = 0) -> bytes: ...
    def flush(self, mode: Literal[1, 2] = 2) -> bytes: ...
    def set_pledged_input_size(self, size: Optional[int]) -> None: ...
    @property
    def last_mode(self) -> Literal[0, 1, 2]: ...

@final
class ZstdDecompressor:
    def __new__(
        cls, zstd_dict: _ZstdDictArg = None, options: Optional[Mapping[int, int]] = None
    ) -> ZstdDecompressor: ...
    def decompress(self, data: ReadableBuffer, max_length: int = -1) -> bytes: ...
    @property
    def eof(self) -> bool: ...
    @property
    def needs_input(self) -> bool: ...
    @property
    def unused_data(self) -> bytes: ...

def zstd_compress(
    data: ReadableBuffer,
    level: Optional[int] = None,
    options: Optional[Mapping[int, int]] = None,
    zstd_dict: _ZstdDictArg = None,
) -> bytes: ...
def zstd_compress_into(
    data: ReadableBuffer,
    out: WriteableBuffer,
    level: Optional[int] = None,
    options: Optional[Mapping[int, int]] = None,
    zstd_dict: _ZstdDictArg = None,
) -> int: ...
def zstd_compress_bound(size: int) -> int: ...
def zstd_decompress(
    data: ReadableBuffer,
    zstd_dict: _ZstdDictArg = None,
    options: Optional[Mapping[int, int]] = None,
    *,
    max_output_size: Optional[int] = None,
    threads: Optional[int] = None,
) -> bytes: ...
def zstd_decompress_into(
    data: ReadableBuffer,
    out: WriteableBuffer,
    zstd_dict: _ZstdDictArg = None,
    options: Optional[Mapping[int, int]] = None,
    *,
    threads: Optional[int] = None,
) -> int: ...
def zstd_decompressed_size(data: ReadableBuffer) -> Optional[int]: ...
def zstd_get_frame_info(frame_buffer: ReadableBuffer) -> tuple[Optional[int], int]: ...
def zstd_get_frame_size(frame_buffer: ReadableBuffer) -> int: ...
def zstd_parameter_bounds(code: int, is_compress: bool) -> tuple[int, int]: ...
def zstd_train_dict(samples: Iterable[ReadableBuffer], dict_size: int) -> ZstdDict: ...
def zstd_finalize_dict(
    zstd_dict: ZstdDict, samples: Iterable[ReadableBuffer], dict_size: int, level: int
) -> ZstdDict: ...

# oxport.deflate

_DeflateFormat = Literal["zlib", "gzip", "raw"]
_DeflateEngine = Literal["fastest", "libdeflate"]

class DeflateError(Error): ...

def deflate_compress(
    data: ReadableBuffer, level: int = 6, *, format: _DeflateFormat = "zlib", engine: _DeflateEngine = "fastest"
) -> bytes: ...
def deflate_compress_into(
    data: ReadableBuffer,
    out: WriteableBuffer,
    level: int = 6,
    *,
    format: _DeflateFormat = "zlib",
    engine: _DeflateEngine = "fastest",
) -> int: ...
def deflate_compress_bound(size: int, *, format: _DeflateFormat = "zlib") -> int: ...
def deflate_decompress(
    data: ReadableBuffer,
    *,
    format: _DeflateFormat = "zlib",
    max_output_size: Optional[int] = None,
    bufsize: Optional[int] = None,
) -> bytes: ...
def deflate_decompress_into(data: ReadableBuffer, out: WriteableBuffer, *, format: _DeflateFormat = "zlib") -> int: ...

def color_convert(
    colors: npt.NDArray[Any], out: npt.NDArray[Any], src: str, dst: str, *, threads: Optional[int] = None
) -> None: ...
def color_parse_hex(text: str) -> tuple[float, float, float, float]: ...
def color_gradient(
    stops: list[tuple[float, float, float, float, Optional[float]]],
    samples: int,
    *,
    space: str = "oklab",
    hue: str = "shorter",
    fit: str = "map",
    threads: Optional[int] = None,
) -> npt.NDArray[numpy.float64]: ...
def color_render_gradients(
    path: Union[str, os.PathLike[str]],
    gradients: list[tuple[str, list[tuple[float, float, float, float, Optional[float]]]]],
    presets: list[str],
    spaces: list[str],
    *,
    hue: str = "shorter",
    fit: str = "map",
    width: int = 1024,
) -> None: ...
def color_preset_names() -> list[str]: ...
@final
class ExrReader:
    def __new__(cls, file: Union[str, os.PathLike[str], BinaryIO]) -> ExrReader: ...
    @property
    def multipart(self) -> bool: ...
    def parts(self) -> list[Part]: ...
    def read(
        self,
        part: int,
        *,
        level: Union[int, tuple[int, int], None] = None,
        channels: Optional[Sequence[str]] = None,
        window: Optional[tuple[tuple[int, int], tuple[int, int]]] = None,
        threads: Optional[int] = None,
    ) -> dict[str, numpy.ndarray]: ...
    def read_deep(
        self,
        part: int,
        *,
        level: Union[int, tuple[int, int], None] = None,
        channels: Optional[Sequence[str]] = None,
        window: Optional[tuple[tuple[int, int], tuple[int, int]]] = None,
        threads: Optional[int] = None,
    ) -> DeepPixels: ...

@final
class ExrNewPart:
    def __new__(
        cls,
        *,
        width: int,
        height: int,
        channels: Mapping[str, str],
        levels: Sequence[Sequence[Any]],
        attributes: Mapping[str, Any],
        compression: Optional[str] = None,
        tiles: Optional[tuple[int, int]] = None,
        level_mode: str = "one",
        rounding: str = "down",
        counts: Optional[Sequence[Any]] = None,
    ) -> ExrNewPart: ...

def exr_write(
    path: Union[str, os.PathLike[str], BinaryIO],
    parts: Sequence[ExrNewPart],
    *,
    level: Optional[int] = None,
    threads: Optional[int] = None,
) -> None: ...
def exr_convert(
    src: Union[str, os.PathLike[str]],
    dst: Union[str, os.PathLike[str], BinaryIO],
    *,
    compression: str = "zstd",
    level: Optional[int] = None,
    threads: Optional[int] = None,
    scanlines: bool = False,
    tiles: Optional[tuple[int, int]] = None,
    levels: str = "one",
    rounding: str = "down",
) -> tuple[int, int]: ...
def exr_rgb_from_yc(
    width: int,
    height: int,
    y: Any,
    ry: Optional[Any] = None,
    by: Optional[Any] = None,
    chromaticities: Optional[tuple[float, float, float, float, float, float, float, float]] = None,
) -> tuple[numpy.ndarray, numpy.ndarray, numpy.ndarray]: ...
def exr_yc_from_rgb(
    width: int,
    height: int,
    r: Any,
    g: Any,
    b: Any,
    chromaticities: Optional[tuple[float, float, float, float, float, float, float, float]] = None,
    chroma: bool = True,
) -> tuple[numpy.ndarray, Optional[tuple[numpy.ndarray, numpy.ndarray]]]: ...
