"""The package works vendored under another package's name, as the Blender
extension carries it (``oxport_obj.oxport``): results the binding builds as
facade classes come from the vendored copy, not from an ``oxport`` that is
not installed there."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import oxport

SCRIPT = r"""
import sys
sys.path[:] = [p for p in sys.path if p and p != {source!r}]
sys.path.insert(0, {root!r})
from carrier import oxport as ox

scene = ox.read_obj({obj!r})
assert type(scene).__module__ == 'carrier.oxport._obj', type(scene)
assert [type(m).__module__ for m in scene.materials] == ['carrier.oxport._obj']
assert [type(w).__module__ for w in scene.warnings] == ['carrier.oxport._obj'], scene.warnings

ox.exr.write({exr!r}, {{'Y': __import__('numpy').zeros((2, 2), 'float32')}}, header={{'owner': 'x'}})
header, _ = ox.exr.read({exr!r})
channel = header['channels'][0]
assert type(channel).__module__ == 'carrier.oxport.exr', type(channel)

data = ox.zstd.compress(b'abc' * 100, options={{ox.zstd.CompressionParameter.checksum_flag: 1}})
assert ox.zstd.decompress(data) == b'abc' * 100
try:
    ox.zstd.compress(b'', options={{ox.zstd.DecompressionParameter.window_log_max: 1}})
except TypeError:
    pass
else:
    raise AssertionError('a decompression parameter was taken for compression')
assert 'oxport' not in sys.modules
print('ok')
"""


def test_a_vendored_copy_builds_its_own_results(tmp_path: Path) -> None:
    source = Path(oxport.__file__).parent
    shutil.copytree(source, tmp_path / "carrier" / "oxport", ignore=shutil.ignore_patterns("__pycache__"))
    (tmp_path / "carrier" / "__init__.py").write_text("")
    obj = tmp_path / "cube.obj"
    obj.write_text("mtllib cube.mtl\nv 0 0 0\nv 1 0 0\nv 0 1 0\nusemtl red\nf 1 2 3\nzz unknown\n")
    (tmp_path / "cube.mtl").write_text("newmtl red\nKd 1 0 0\n")
    script = SCRIPT.format(
        root=str(tmp_path), source=str(source.parent), obj=str(obj), exr=str(tmp_path / "a.exr")
    )
    result = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, cwd=tmp_path, check=False
    )
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == "ok"
