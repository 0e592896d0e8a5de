"""Builds the installable add-on, with the ``oxport`` package and its native
module inside, in two forms:

- ``dist/oxport_obj-VERSION.zip``: the extension for Blender 4.2 and later
  (``blender_manifest.toml``, the wheel in ``wheels/``), for Preferences >
  Get Extensions > Install from Disk or
  ``blender --command extension install-file -r user_default FILE``;
- ``dist/oxport_obj-VERSION-legacy.zip``: the add-on for Blender 3.4 to 4.1,
  with the package copied inside it (``oxport_obj/oxport/``), for
  Preferences > Add-ons > Install.

Both carry one abi3 wheel's contents (CPython 3.10 and later: Blender 3.4's
Python 3.10, Debian's 3.11, 4.2+'s 3.11). By default the wheel is built for
this machine with maturin; ``--wheel`` takes one built elsewhere (``make
wheel``'s manylinux2014 wheel, for other Linux machines).

Run: make blender-addon (python integrations/blender/build.py [--wheel WHEEL] [--out DIR]).
"""

from __future__ import annotations

import argparse
import re
import subprocess
import sys
import tempfile
import tomllib
import zipfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
ADDON = ROOT / "integrations" / "blender" / "oxport_obj"
MANIFEST = "blender_manifest.toml"


def package_version() -> str:
    with open(ROOT / "Cargo.toml", "rb") as f:
        return str(tomllib.load(f)["workspace"]["package"]["version"])


def addon_files() -> list[Path]:
    """The add-on's source files, the manifest left out."""
    return [path for path in sorted(ADDON.rglob("*"))
            if path.is_file() and "__pycache__" not in path.parts and path.name != MANIFEST]


def manifest(wheel: str, version: str) -> str:
    """The extension's manifest naming ``wheel``; the source's version must be ``version``."""
    text = (ADDON / MANIFEST).read_text()
    declared = tomllib.loads(text)["version"]
    if declared != version:
        raise SystemExit(f"{ADDON / MANIFEST}: version {declared}, but the package is {version}")
    text, count = re.subn(r"(?m)^wheels = \[\]$", f'wheels = ["./wheels/{wheel}"]', text)
    if count != 1:
        raise SystemExit(f"{ADDON / MANIFEST}: no line `wheels = []` to fill in")
    return text


def build_wheel(out: Path) -> Path:
    """An abi3 wheel for this machine (maturin, release, stripped)."""
    maturin = Path(sys.executable).with_name("maturin")
    subprocess.run([str(maturin), "build", "--release", "--strip", "--quiet", "--features", "abi3",
                    "-i", sys.executable, "--out", str(out)], cwd=ROOT, check=True)
    (wheel,) = out.glob("oxport-*-abi3-*.whl")
    return wheel


def write_zip(path: Path, entries: list[tuple[str, bytes]]) -> None:
    """Writes ``path`` whole or not at all."""
    path.parent.mkdir(parents=True, exist_ok=True)
    partial = path.with_suffix(".partial")
    with zipfile.ZipFile(partial, "w", zipfile.ZIP_DEFLATED) as out:
        for name, data in entries:
            out.writestr(name, data)
    partial.replace(path)


def build(wheel: Path, out_dir: Path) -> tuple[Path, Path]:
    """Writes the extension and the legacy zip into ``out_dir``; returns their paths."""
    if "-abi3-" not in wheel.name:
        raise SystemExit(f"{wheel}: not an abi3 wheel (Blender's Python differs from the one that built it)")
    version = package_version()
    sources = [(path.relative_to(ADDON).as_posix(), path.read_bytes()) for path in addon_files()]
    extension = out_dir / f"oxport_obj-{version}.zip"
    write_zip(extension, [*sources, (MANIFEST, manifest(wheel.name, version).encode()),
                          (f"wheels/{wheel.name}", wheel.read_bytes())])
    with zipfile.ZipFile(wheel) as source:
        package = [(f"oxport_obj/{name}", source.read(name))
                   for name in source.namelist() if name.startswith("oxport/")]
    legacy = out_dir / f"oxport_obj-{version}-legacy.zip"
    write_zip(legacy, [*((f"oxport_obj/{name}", data) for name, data in sources), *package])
    return extension, legacy


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--wheel", type=Path, help="an abi3 oxport wheel to bundle (default: build one)")
    parser.add_argument("--out", type=Path, default=ROOT / "dist", help="the output folder (default: dist)")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as wheels:
        wheel = args.wheel or build_wheel(Path(wheels))
        for path in build(wheel, args.out):
            print(path)


if __name__ == "__main__":
    main()
