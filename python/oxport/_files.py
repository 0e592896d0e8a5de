"""Outputs given as binary file objects (an ``fsspec`` file opened for
writing, ``io.BytesIO``...): the output is written as a file first, whole
or not at all as every output is, then copied into the object. On any
error nothing reaches the object; whether it then publishes what it holds
(nothing) when closed is its own rule (fsspec's transactions publish
nothing; a URL given to oxport itself is published only when complete)."""

from __future__ import annotations

import os
import shutil
import tempfile
from typing import BinaryIO, Callable, TypeVar, Union

Output = Union[str, "os.PathLike[str]", BinaryIO]
"""Where an output goes: a path, a URL (``s3://bucket/key``...), or a
writable binary file object."""

T = TypeVar("T")


def write_to(dst: Output, write: Callable[[Union[str, os.PathLike[str]]], T]) -> T:
    """``write(dst)``, or for a file object ``write`` to a temporary file
    that is then copied into ``dst``."""
    if isinstance(dst, (str, os.PathLike)):
        return write(dst)
    if not hasattr(dst, "write"):
        raise TypeError(f"expected a path, a URL or a writable binary file object, got {type(dst).__name__}")
    with tempfile.TemporaryDirectory(prefix="oxport-") as folder:
        path = os.path.join(folder, "output")
        result = write(path)
        with open(path, "rb") as done:
            shutil.copyfileobj(done, dst, 8 << 20)
    return result
