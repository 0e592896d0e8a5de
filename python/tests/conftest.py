from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

sys.path.insert(0, os.path.dirname(__file__))

ROOT = Path(__file__).resolve().parents[2]
#: Reference files made by Blender, cached across runs (never committed).
REFDATA = ROOT / "target" / "refdata"
#: The scripts that make reference data with Blender (integrations/blender/refdata).
SCRIPTS = ROOT / "integrations" / "blender" / "refdata"


def blender() -> str:
    """The Blender executable, or a skip (a failure when OXPORT_REQUIRE_BLENDER=1)."""
    found = shutil.which("blender")
    if found is None or not SCRIPTS.is_dir():
        reason = "Blender is not installed" if found is None else f"{SCRIPTS} is missing"
        if os.environ.get("OXPORT_REQUIRE_BLENDER") == "1":
            pytest.fail(f"{reason}, and OXPORT_REQUIRE_BLENDER=1")
        pytest.skip(reason)
    return found


def blender_export(script: str, args: list[str], out: Path) -> Path:
    """Runs one of the reference Blender scripts with ``args`` and ``out`` (its OBJ
    path) once; later calls reuse the files, which are only moved into place
    once Blender has written them whole."""
    if not out.exists():
        partial = out.parent / "partial"
        partial.mkdir(parents=True, exist_ok=True)
        command = [blender(), "-b", "--factory-startup", "--python", str(SCRIPTS / script), "--", *args, str(partial / out.name)]
        result = subprocess.run(command, capture_output=True, text=True, timeout=900)
        written = partial / out.name
        if result.returncode != 0 or not written.exists():
            raise RuntimeError(f"{' '.join(command)} failed:\n{result.stdout[-3000:]}\n{result.stderr[-3000:]}")
        written.with_suffix(".mtl").replace(out.with_suffix(".mtl"))
        written.replace(out)
    return out


@pytest.fixture(scope="session")
def refdata() -> Path:
    return REFDATA
