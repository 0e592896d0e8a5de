"""The installable add-on: `make blender-addon`'s zip installed into a fresh
Blender user folder with Preferences > Add-ons > Install... (the operator
behind it), enabled, and exporting the same bytes as Blender's exporter, with
the oxport package the zip carries (nothing on sys.path)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from conftest import ROOT, blender
from test_blender_bytes import assert_same_file


def test_the_zip_installs_and_exports_blenders_bytes(tmp_path: Path) -> None:
    executable = blender()
    zip_path = tmp_path / "oxport_obj.zip"
    subprocess.run([sys.executable, str(ROOT / "integrations" / "blender" / "build_zip.py"),
                    "--blender", executable, "--out", str(zip_path)], check=True, timeout=1800)
    user = tmp_path / "user"
    environment = dict(os.environ, BLENDER_USER_SCRIPTS=str(user / "scripts"),
                       BLENDER_USER_CONFIG=str(user / "config"), PYTHONPATH="")
    script = ROOT / "integrations" / "blender" / "tests" / "install_zip.py"
    result = subprocess.run(
        [executable, "-b", "--factory-startup", "--python-exit-code", "1", "--python", str(script),
         "--", str(zip_path), str(tmp_path / "out")],
        capture_output=True, text=True, timeout=900, env=environment)
    lines = [line for line in result.stdout.splitlines() if line.startswith("OXPORT_ZIP ")]
    assert result.returncode == 0 and lines, result.stdout[-3000:] + result.stderr[-3000:]
    outcome, package = lines[0].split(" ", 2)[1:]
    assert outcome == "['FINISHED']"
    # The package is the zip's copy, installed into the user folder.
    assert Path(package).is_relative_to(user / "scripts" / "addons" / "oxport_obj" / "oxport"), package
    for name in ("scene.obj", "scene.mtl"):
        assert_same_file(tmp_path / "out" / "oxport" / name, tmp_path / "out" / "blender" / name)
