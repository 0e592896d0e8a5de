"""Stubs of the native module; checked against it with ``mypy.stubtest``."""

from typing import Any, Optional, Sequence, final

__version__: str

class Error(Exception): ...
class ParseError(Error): ...
class CorruptError(Error): ...
class UnsupportedError(Error): ...

@final
class Mesh:
    def __new__(
        cls,
        name: str,
        positions: Any,
        face_offsets: Any,
        position_indices: Any,
        *,
        uvs: Optional[Any] = None,
        uv_indices: Optional[Any] = None,
        normals: Optional[Any] = None,
        normal_indices: Optional[Any] = None,
        colors: Optional[Any] = None,
        smooth: Optional[Any] = None,
        materials: Optional[Any] = None,
        material_indices: Optional[Any] = None,
        edges: Optional[Any] = None,
    ) -> Mesh: ...
    @property
    def name(self) -> str: ...
    def field(self, field: str) -> Optional[Any]: ...
    def face_count(self) -> int: ...
    def with_edges(self, edges: Any) -> Mesh: ...

def write_obj(
    path: str,
    meshes: Sequence[Mesh],
    *,
    header: Sequence[str],
    mtllib: Optional[str],
    precision: int | str,
    uv_precision: int | str,
    normal_precision: int | str,
    normals: bool,
    uvs: bool,
    colors: bool,
    materials: bool,
    deduplicate_normals: bool,
    deduplicate_uvs: bool,
    threads: Optional[int],
    direct: bool = False,
) -> tuple[int, int, int, int, int]: ...
def write_mtl(path: str, materials: Sequence[Any], *, header: Sequence[str]) -> None: ...
def format_fixed(values: Any, precision: int) -> bytes: ...
def blender_meshes(items: Sequence[dict[str, Any]]) -> list[Mesh]: ...
