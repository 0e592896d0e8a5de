"""Writes the HTJ2K files the codestream tests read, with OpenEXR's own
encoder (the `openexr` package, 3.4 or later):

    .venv/bin/python crates/oxport/tests/data/htj2k/make.py

- rgb_z_id_ht256.exr, rgb_z_id_ht32.exr: B, G, R half, Z float, id uint;
  53 × 37 pixels (one chunk of HTJ2K256, two of HTJ2K32), smooth ramps with
  noise, negative values in R and B; rgb_z_id_zip.exr the same pixels in
  ZIP, to compare with.
- gray_ht256.exr: one half channel Y, 9 × 200 pixels (narrower than a code-block).
"""

from pathlib import Path

import numpy as np
import OpenEXR

HERE = Path(__file__).resolve().parent


def main() -> None:
    rng = np.random.default_rng(44)
    h, w = 37, 53
    y, x = np.mgrid[0:h, 0:w]
    ramp = (x / w + y / h).astype(np.float32)
    channels = {
        "R": (ramp * 4 - 1 + rng.normal(0, 0.01, (h, w))).astype(np.float16),
        "G": (ramp + rng.normal(0, 0.01, (h, w))).astype(np.float16),
        "B": (-ramp * 2 + rng.normal(0, 0.01, (h, w))).astype(np.float16),
        "Z": (ramp * 100 + rng.normal(0, 0.5, (h, w))).astype(np.float32),
        "id": (x * 1000 + y * 7).astype(np.uint32),
    }
    for name, method in [("ht256", OpenEXR.HTJ2K256_COMPRESSION), ("ht32", OpenEXR.HTJ2K32_COMPRESSION),
                         ("zip", OpenEXR.ZIP_COMPRESSION)]:
        header = {"compression": method, "type": OpenEXR.scanlineimage}
        OpenEXR.File(header, channels).write(str(HERE / f"rgb_z_id_{name}.exr"))
    gray = {"Y": (1 + np.arange(1800).reshape(200, 9) / 2048).astype(np.float16)}
    header = {"compression": OpenEXR.HTJ2K256_COMPRESSION, "type": OpenEXR.scanlineimage}
    OpenEXR.File(header, gray).write(str(HERE / "gray_ht256.exr"))


if __name__ == "__main__":
    main()
