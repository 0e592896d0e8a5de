"""Writes the seeds of the exr_chunk fuzz target: the first chunk of small
files the openexr package writes with each method, behind the layout bytes
the target reads. Run from the repository: .venv/bin/python fuzz/seeds/exr_chunk.py"""

import struct
import tempfile
from pathlib import Path

import numpy as np
import OpenEXR

HERE = Path(__file__).parent / "exr_chunk"
CODES = {"RLE": 1, "ZIPS": 2, "ZIP": 3, "PIZ": 4, "PXR24": 5, "B44": 6, "B44A": 7, "DWAA": 8, "DWAB": 9, "HTJ2K256": 10, "HTJ2K32": 11,
         "ZSTD": 13}
LINES = {"RLE": 1, "ZIPS": 1, "ZIP": 16, "PIZ": 32, "PXR24": 16, "B44": 32, "B44A": 32, "DWAA": 32, "DWAB": 256, "HTJ2K256": 256,
         "HTJ2K32": 32, "ZSTD": 1}


def first_chunk(path: Path) -> bytes:
    data = path.read_bytes()
    at = 8
    while data[at] != 0:  # attributes: name, type, size, value
        name_end = data.index(b"\0", at)
        type_end = data.index(b"\0", name_end + 1)
        size = struct.unpack_from("<i", data, type_end + 1)[0]
        at = type_end + 5 + size
    offset = struct.unpack_from("<Q", data, at + 1)[0]
    size = struct.unpack_from("<i", data, offset + 4)[0]
    return data[offset + 8:offset + 8 + size]


def main() -> None:
    rng = np.random.default_rng(3)
    height, width = 20, 37
    ramp = np.add.outer(np.linspace(0, 2, height), np.linspace(0, 1, width))
    # B, G, R: HALF; A: FLOAT (channels sort by name: A first).
    channels = {"A": (ramp / 2).astype(np.float32), "B": (ramp + rng.normal(0, 0.05, ramp.shape)).astype(np.float16),
                "G": ramp.astype(np.float16), "R": (ramp * 2).astype(np.float16)}
    specs = bytes([2, 1, 1, 1])  # A FLOAT, B/G/R HALF, sampling 1, not linear
    with tempfile.TemporaryDirectory() as tmp:
        for method, code in CODES.items():
            path = Path(tmp) / "seed.exr"
            with OpenEXR.File({"compression": getattr(OpenEXR, f"{method}_COMPRESSION"),
                               "type": OpenEXR.scanlineimage}, dict(channels)) as f:
                f.write(str(path))
            lines = min(LINES[method], height)
            head = bytes([code, 3]) + specs + bytes([width - 1, lines - 1, 0, 0])
            (HERE / f"{method.lower()}.bin").write_bytes(head + first_chunk(path))


if __name__ == "__main__":
    main()
