"""Builds the installable add-on, with the ``oxport`` package and its native
module inside, in two forms:

- ``dist/oxport_obj-VERSION-PLATFORM.zip``, one per platform a wheel is
  given for (``linux_x64``, ``linux_arm64``, ``windows_x64``,
  ``macos_arm64``, ``macos_x64``): the extension for Blender 4.2 and later
  as Blender's own ``extension build --split-platforms`` makes it (the
  manifest lists every platform and wheel, and its generated section names
  the zip's platform and the one wheel it holds, in ``wheels/``), for
  Preferences > Get Extensions > Install from Disk or
  ``blender --command extension install-file -r user_default FILE``;
- ``dist/oxport_obj-VERSION-legacy.zip``: the add-on for Blender 3.4 to 4.1
  on Linux x86_64, with the package copied inside it
  (``oxport_obj/oxport/``), for Preferences > Add-ons > Install.

The wheels are abi3 (CPython 3.10 and later, 3.11 on Windows: Blender 3.4's
Python 3.10, Debian's 3.11, 4.2+'s 3.11). By default one wheel is built for
this machine with maturin; ``--wheel`` takes wheels built elsewhere (``make
dist`` gives every platform's).

Run: make blender-addon (python integrations/blender/build.py [--wheel WHEEL ...] [--out DIR]).
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


def platform_of(wheel: str) -> str:
    """The Blender platform of an oxport wheel, by its platform tag."""
    tag = wheel.removesuffix(".whl").rsplit("-", 1)[-1]
    system = ("linux" if tag.startswith(("manylinux", "musllinux", "linux")) else "windows" if tag.startswith("win")
              else "macos" if tag.startswith("macosx") else None)
    machine = "x64" if tag.endswith(("x86_64", "amd64")) else "arm64" if tag.endswith(("aarch64", "arm64")) else None
    if system is None or machine is None:
        raise SystemExit(f"{wheel}: no Blender platform for its tag {tag}")
    return f"{system}-{machine}"


def toml_strings(values: list[str]) -> str:
    return "[" + ", ".join(f'"{value}"' for value in values) + "]"


def manifest(wheels: list[str], version: str, platform: str) -> str:
    """The extension's manifest listing every one of ``wheels`` and its
    platform, with the section Blender's split build generates for the zip
    of ``platform``; the source's version must be ``version``."""
    text = (ADDON / MANIFEST).read_text()
    declared = tomllib.loads(text)["version"]
    if declared != version:
        raise SystemExit(f"{ADDON / MANIFEST}: version {declared}, but the package is {version}")
    platforms = sorted({platform_of(wheel) for wheel in wheels})
    for key, values in (("platforms", platforms), ("wheels", [f"./wheels/{wheel}" for wheel in wheels])):
        text, count = re.subn(rf"(?m)^{key} = \[.*\]$", f"{key} = {toml_strings(values)}", text)
        if count != 1:
            raise SystemExit(f"{ADDON / MANIFEST}: no line `{key} = [...]` to fill in")
    mine = [f"./wheels/{wheel}" for wheel in wheels if platform_of(wheel) == platform]
    return (text + "\n\n# BEGIN GENERATED CONTENT.\n# This must not be included in source manifests.\n"
            f"[build.generated]\nplatforms = {toml_strings([platform])}\nwheels = {toml_strings(mine)}\n"
            "# END GENERATED CONTENT.\n")


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


def build(wheels: list[Path], out_dir: Path) -> list[Path]:
    """Writes an extension per platform of ``wheels`` and, given a Linux
    x86_64 wheel, the legacy zip into ``out_dir``; returns their paths."""
    for wheel in wheels:
        if "-abi3-" not in wheel.name:
            raise SystemExit(f"{wheel}: not an abi3 wheel (Blender's Python differs from the one that built it)")
    platforms = [platform_of(wheel.name) for wheel in wheels]
    if len(set(platforms)) != len(platforms):
        raise SystemExit(f"two wheels for one platform: {', '.join(w.name for w in wheels)}")
    version = package_version()
    sources = [(path.relative_to(ADDON).as_posix(), path.read_bytes()) for path in addon_files()]
    names = [wheel.name for wheel in wheels]
    written = []
    for wheel, platform in zip(wheels, platforms):
        extension = out_dir / f"oxport_obj-{version}-{platform.replace('-', '_')}.zip"
        write_zip(extension, [*sources, (MANIFEST, manifest(names, version, platform).encode()),
                              (f"wheels/{wheel.name}", wheel.read_bytes())])
        written.append(extension)
    if "linux-x64" in platforms:
        with zipfile.ZipFile(wheels[platforms.index("linux-x64")]) as source:
            package = [(f"oxport_obj/{name}", source.read(name))
                       for name in source.namelist() if name.startswith("oxport/")]
        legacy = out_dir / f"oxport_obj-{version}-legacy.zip"
        write_zip(legacy, [*((f"oxport_obj/{name}", data) for name, data in sources), *package])
        written.append(legacy)
    return written


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--wheel", type=Path, action="append",
                        help="an abi3 oxport wheel to bundle, one per platform (default: build one for this machine)")
    parser.add_argument("--out", type=Path, default=ROOT / "dist", help="the output folder (default: dist)")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as wheels:
        for path in build(args.wheel or [build_wheel(Path(wheels))], args.out):
            print(path)


if __name__ == "__main__":
    main()
