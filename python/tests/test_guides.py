"""The README's and the guides' examples run as written (docs/guide/*.md).

Each guide's ```python and ```sh blocks run in order in one folder that
holds the files they name (OpenEXR's sample images, a tar of scene files, a
few renders and OBJ assets); the ```sh blocks with the `oxport` under test
first on the PATH. A block whose info string goes on after the language
(```python needs-blender, ```sh needs-a-cluster) needs what a test cannot
have here (a Blender, a cluster, a bucket, the network, the repository's
make): it is not run, and what it shows is run by the tests of its area.
The ```rust blocks are doc tests of the library (crates/oxport/src/lib.rs).
"""

from __future__ import annotations

import io
import os
import re
import shutil
import subprocess
import tarfile
from pathlib import Path

import numpy as np
import pytest

from conftest import ROOT

import oxport
from oxport import exr

GUIDES = [ROOT / "README.md", *sorted((ROOT / "docs" / "guide").glob("*.md"))]
SAMPLES = ROOT / "crates" / "oxport" / "tests" / "data" / "valid" / "openexr-images"
BLOCK = re.compile(r"^```(\w+)([^\n]*)\n(.*?)^```", re.S | re.M)
#: What a block not run may need, by the word its info string gives.
NEEDS = {"needs-blender", "needs-a-cluster", "needs-a-bucket", "needs-a-server", "needs-the-network",
         "needs-the-repository"}


def blocks(guide: Path) -> list[tuple[str, str, int, str]]:
    """(language, the rest of the info string, line, code) of every fenced block."""
    text = guide.read_text()
    return [(m.group(1), m.group(2).strip(), text.count("\n", 0, m.start()) + 1, m.group(3))
            for m in BLOCK.finditer(text)]


def make_files(folder: Path) -> None:
    """The files the examples name."""
    for name in ("stripes.exr", "Garden.exr", "ColorCodedLevels.exr", "Trunks_deep.exr"):
        shutil.copy(SAMPLES / name, folder / name)
    rng = np.random.default_rng(7)
    words = np.array([b"mesh ", b"vertex ", b"material ", b"0.25 ", b"1.0 ", b"\n"])
    blend = b"BLENDER-v300" + b"".join(rng.choice(words, 60_000))
    (folder / "scene.blend").write_bytes(blend)
    with tarfile.open(folder / "scenes.tar", "w") as tar:
        for name, data in (("scene.blend", blend), ("notes.txt", b"shot 10\n" * 1000)):
            info = tarfile.TarInfo(name)
            info.size = len(data)
            tar.addfile(info, io.BytesIO(data))
    (folder / "renders").mkdir()
    for frame in range(1, 5):
        image = {f"ViewLayer.Combined.{c}": rng.random((54, 96), dtype=np.float32) for c in "RGB"}
        exr.write(folder / "renders" / f"shot.{frame:04d}.exr", image, compression="zip")
    quad = oxport.Mesh("quad", positions=np.array([[0, 0, 0], [1, 0, 0], [1, 1, 0], [0, 1, 0]], np.float32),
                       face_offsets=np.array([0, 4]), position_indices=np.array([0, 1, 2, 3]))
    for name in ("chairs/chair.obj", "tables/table.obj"):
        (folder / "assets" / name).parent.mkdir(parents=True, exist_ok=True)
        oxport.write_obj(folder / "assets" / name, [quad])


def test_every_block_is_run_or_says_what_it_needs() -> None:
    for guide in GUIDES:
        for language, rest, line, _ in blocks(guide):
            assert language in {"python", "sh", "rust"}, f"{guide.name}:{line}: a ```{language} block"
            assert not rest or rest in NEEDS, f"{guide.name}:{line}: ```{language} {rest}: not one of {NEEDS}"


@pytest.mark.parametrize("guide", GUIDES, ids=lambda p: p.name)
def test_the_examples_run(guide: Path, tmp_path: Path, cli: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    make_files(tmp_path)
    monkeypatch.chdir(tmp_path)
    env = {**os.environ, "PATH": f"{cli.parent}{os.pathsep}{os.environ['PATH']}"}
    ran = 0
    for language, rest, line, code in blocks(guide):
        if rest:
            continue
        where = f"{guide.relative_to(ROOT)}:{line}"
        if language == "python":
            exec(compile(code, where, "exec"), {"__name__": "__guide__"})
        elif language == "sh":
            result = subprocess.run(["bash", "-e", "-o", "pipefail", "-c", code], env=env,
                                    capture_output=True, text=True)
            assert result.returncode == 0, f"{where}:\n{result.stdout}\n{result.stderr}"
        ran += language != "rust"
    # The add-on's examples need Blender (test_blender_addon.py runs them);
    # the platforms' are make's.
    if guide.name not in {"blender.md", "platforms.md"}:
        assert ran, f"{guide.name}: no example ran"
