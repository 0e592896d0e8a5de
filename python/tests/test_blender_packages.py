"""The installable add-on: `make blender-addon`'s packages installed into a
fresh Blender user folder as Preferences installs them (the extension on
Blender 4.5 and 5.0, checked first by Blender's own extension validator;
the legacy zip on 3.4), enabled, and exporting the same bytes as Blender's
exporter with the oxport package the package carries (nothing on sys.path)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from conftest import BLENDERS, BPY_VENVS, ROOT, blender_python
from test_blender_bytes import assert_same_file


@pytest.fixture(scope="module")
def packages(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    """The Linux x86_64 extension and the legacy zip: `make dist`'s when
    OXPORT_DIST names its folder (`make test` does), else built once here."""
    dist = os.environ.get("OXPORT_DIST")
    if dist:
        out = Path(dist)
    else:
        out = tmp_path_factory.mktemp("packages")
        subprocess.run([sys.executable, str(ROOT / "integrations" / "blender" / "build.py"), "--out", str(out)],
                       check=True, timeout=1800)
    (extension,) = out.glob("oxport_obj-*-linux_x64.zip")
    (legacy,) = out.glob("oxport_obj-*-legacy.zip")
    return {"extension": extension, "legacy": legacy}


@pytest.mark.parametrize("version", BLENDERS)
def test_the_package_installs_and_exports_blenders_bytes(version: str, packages: dict[str, Path],
                                                         tmp_path: Path) -> None:
    command = blender_python(version)
    user = tmp_path / "user"
    environment = dict(os.environ, BLENDER_USER_SCRIPTS=str(user / "scripts"),
                       BLENDER_USER_CONFIG=str(user / "config"), BLENDER_USER_RESOURCES=str(user),
                       PYTHONPATH="")
    if version == "3.4":
        package = packages["legacy"]
        installed = user / "scripts" / "addons" / "oxport_obj" / "oxport"
    else:
        package = packages["extension"]
        installed = user / "extensions" / ".local" / "lib" / "python3.11" / "site-packages" / "oxport"
        # Blender's own validator (the one `blender --command extension validate` runs).
        python = BPY_VENVS[version] / "bin" / "python"
        (validator,) = (python.parents[1] / "lib").glob("python3.*/site-packages/bpy/*/scripts/addons_core/bl_pkg/cli/blender_ext.py")
        result = subprocess.run([str(python), str(validator), "validate", str(package)],
                                capture_output=True, text=True, timeout=300)
        assert result.returncode == 0, result.stdout + result.stderr
    script = ROOT / "integrations" / "blender" / "tests" / "install_addon.py"
    result = subprocess.run([*command, str(script), "--", str(package), str(tmp_path / "out")],
                            capture_output=True, text=True, timeout=900, env=environment)
    lines = [line for line in result.stdout.splitlines() if line.startswith("OXPORT_INSTALLED ")]
    assert result.returncode == 0 and lines, result.stdout[-3000:] + result.stderr[-3000:]
    outcome, location = lines[0].split(" ", 2)[1:]
    assert outcome == "['FINISHED']"
    # The package is the one the add-on carries, installed into the user folder.
    assert Path(location).is_relative_to(installed), location
    for name in ("scene.obj", "scene.mtl"):
        assert_same_file(tmp_path / "out" / "oxport" / name, tmp_path / "out" / "blender" / name)
