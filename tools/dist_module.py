"""Puts the extension module of a wheel `make dist` built into python/oxport
and the package on this Python's path, as `maturin develop` does, without
building it again (`make test`: the Python tests run the module that ships).

Run: python tools/dist_module.py WHEEL
"""

from __future__ import annotations

import sys
import sysconfig
import zipfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PACKAGE = ROOT / "python" / "oxport"


def main() -> None:
    (wheel,) = sys.argv[1:]
    with zipfile.ZipFile(wheel) as z:
        (module,) = [n for n in z.namelist() if n.startswith("oxport/_native.") and n.endswith((".so", ".pyd"))]
        # Another build's module would be imported before this one.
        for old in PACKAGE.glob("_native.*"):
            if old.suffix in (".so", ".pyd"):
                old.unlink()
        target = PACKAGE / Path(module).name
        partial = target.with_suffix(".partial")
        partial.write_bytes(z.read(module))
        partial.chmod(0o755)
        partial.replace(target)
    # The package from the source tree (python/), as an editable install.
    site = Path(sysconfig.get_paths()["purelib"])
    (site / "oxport.pth").write_text(f"{ROOT / 'python'}\n")
    print(target)


if __name__ == "__main__":
    main()
