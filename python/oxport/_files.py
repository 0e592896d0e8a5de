"""What writers take as their output."""

from __future__ import annotations

import os
from typing import BinaryIO, Union

Output = Union[str, "os.PathLike[str]", BinaryIO]
"""Where an output goes: a path, a URL (``s3://bucket/key``...), or a
writable binary file object, which receives the file once it is whole (it is
written to an unnamed temporary file first): on any error nothing reaches
the object. Whether the object then publishes what it holds (nothing) when
closed is its own rule (fsspec's transactions publish nothing; a URL given
to oxport itself is published only when complete)."""
