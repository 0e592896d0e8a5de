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

sys.path.insert(0, str(ROOT / "python" / "testing"))
from expected_skips import pytest_sessionfinish  # noqa: E402,F401  (a skip CI does not expect fails the run)


def blender() -> str:
    """The Blender executable, or a skip."""
    found = shutil.which("blender")
    if found is None or not SCRIPTS.is_dir():
        reason = "Blender is not installed" if found is None else f"{SCRIPTS} is missing"
        pytest.skip(reason)
    return found


# The Blenders the add-on is checked against: Debian's package (3.4), and
# PyPI's bpy module in a venv of its own (4.5 LTS and 5.0), which
# `make bpy-venvs` makes.
BLENDERS = ("3.4", "4.5", "5.0")
BPY_VENVS = {"4.5": ROOT / ".venv-bpy45", "5.0": ROOT / ".venv-bpy50"}


def blender_python(version: str) -> list[str]:
    """The command that runs a Python script in Blender ``version``, to be
    followed by the script, ``--`` and its arguments; a skip when that
    Blender is missing."""
    if version == "3.4":
        return [blender(), "-b", "--factory-startup", "--python"]
    python = BPY_VENVS[version] / "bin" / "python"
    if not python.exists():
        pytest.skip(f"Blender {version} (the bpy module) is not installed in {python.parent.parent}: make bpy-venvs")
    return [str(python)]


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


def openexr_tool(name: str, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """``tools/NAME.cpp`` built against the OpenEXR library of Debian's
    ``libopenexr-dev`` (OpenEXR's own C++ API, for what the ``openexr``
    package cannot do), or a skip that says what is missing."""
    flags = subprocess.run(["pkg-config", "--cflags", "--libs", "OpenEXR"], capture_output=True, text=True) \
        if shutil.which("pkg-config") else None
    if flags is None or flags.returncode != 0 or not shutil.which("g++"):
        pytest.skip("OpenEXR's library is not installed (apt-get install libopenexr-dev pkg-config g++)")
    binary = tmp_path_factory.mktemp("tools") / name
    source = Path(__file__).resolve().parent / "tools" / f"{name}.cpp"
    subprocess.run(["g++", "-O1", "-std=c++17", str(source), *flags.stdout.split(), "-o", str(binary)],
                   check=True, capture_output=True)
    return binary


@pytest.fixture(scope="session")
def refdata() -> Path:
    return REFDATA


@pytest.fixture(scope="session")
def cli() -> Path:
    """The standalone command line tool: OXPORT_CLI (`make test` names the
    one `make dist` built), else target/release/oxport, built if missing."""
    if os.environ.get("OXPORT_CLI"):
        return Path(os.environ["OXPORT_CLI"])
    binary = ROOT / "target" / "release" / "oxport"
    if not binary.exists():
        subprocess.run(["cargo", "build", "--release", "-p", "oxport-cli"], cwd=ROOT, check=True)
    return binary
