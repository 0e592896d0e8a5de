"""Builds dist/oxport_obj.zip: the Blender add-on with the ``oxport`` package
and its native module inside it (``oxport_obj/oxport/``), built for the
Python of the Blender on the PATH, so that Preferences > Add-ons > Install...
is all it takes (nothing on ``sys.path`` to change).

Run: make blender-addon (python integrations/blender/build_zip.py [--blender BLENDER]).
"""

from __future__ import annotations

import argparse
import shutil
import subprocess
import sys
import tempfile
import zipfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
ADDON = ROOT / "integrations" / "blender" / "oxport_obj"


def blender_python(blender: str) -> str:
    """The ``X.Y`` of the Python that ``blender`` runs."""
    result = subprocess.run(
        [blender, "-b", "--factory-startup", "--python-expr",
         "import sys; print('OXPORT_PYTHON %d.%d' % sys.version_info[:2])"],
        capture_output=True, text=True, check=True)
    for line in result.stdout.splitlines():
        if line.startswith("OXPORT_PYTHON "):
            return line.split()[1]
    raise SystemExit(f"{blender} did not say its Python version:\n{result.stdout[-2000:]}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--blender", default=shutil.which("blender") or "blender")
    parser.add_argument("--out", type=Path, default=ROOT / "dist" / "oxport_obj.zip")
    args = parser.parse_args()
    version = blender_python(args.blender)
    interpreter = shutil.which(f"python{version}")
    if interpreter is None:
        raise SystemExit(f"Blender runs Python {version}; python{version} is needed to build for it")
    maturin = Path(sys.executable).with_name("maturin")
    with tempfile.TemporaryDirectory() as wheels:
        subprocess.run([str(maturin), "build", "--release", "--strip", "--quiet", "-i", interpreter,
                        "--out", wheels], cwd=ROOT, check=True)
        (wheel,) = Path(wheels).glob("oxport-*.whl")
        args.out.parent.mkdir(parents=True, exist_ok=True)
        partial = args.out.with_suffix(".partial")
        with zipfile.ZipFile(wheel) as source, zipfile.ZipFile(partial, "w", zipfile.ZIP_DEFLATED) as out:
            for path in sorted(ADDON.rglob("*")):
                if path.is_file() and "__pycache__" not in path.parts:
                    out.write(path, f"oxport_obj/{path.relative_to(ADDON)}")
            for name in source.namelist():
                if name.startswith("oxport/"):
                    out.writestr(f"oxport_obj/{name}", source.read(name))
        partial.replace(args.out)
    print(f"{args.out}: the add-on with oxport for Blender's Python {version}")


if __name__ == "__main__":
    main()
