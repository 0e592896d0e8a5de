"""The package's `oxport` command (and `python -m oxport`) is the command
line tool: for the same arguments, the same output on stdout and stderr and
the same exit status as the standalone binary."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import sysconfig
from pathlib import Path

import pytest


def package_commands() -> list[list[str]]:
    command = Path(sysconfig.get_path("scripts")) / "oxport"
    found = [[sys.executable, "-m", "oxport"]]
    if command.is_file():
        found.append([str(command)])
    return found


@pytest.mark.parametrize("args", [
    ["--help"],
    ["zst", "pack", "--help"],
    ["nonsense"],
    ["zst", "pack"],
    ["exr", "convert", "-c", "nope", "a.exr", "b.exr"],
    ["zst", "unpack", "missing.zst", "out.bin"],
    ["obj", "info", "missing.obj"],
])
def test_the_command_is_the_binary(cli: Path, args: list[str], tmp_path: Path) -> None:
    expected = subprocess.run([str(cli), *args], capture_output=True, text=True, cwd=tmp_path)
    assert expected.returncode in (0, 1, 2)
    for command in package_commands():
        got = subprocess.run([*command, *args], capture_output=True, text=True, cwd=tmp_path)
        assert (got.returncode, got.stdout, got.stderr) == (expected.returncode, expected.stdout, expected.stderr)


def test_the_command_does_the_work(tmp_path: Path) -> None:
    data = os.urandom(10_000) * 30
    (tmp_path / "data.bin").write_bytes(data)
    for i, command in enumerate(package_commands()):
        archive = tmp_path / f"data{i}.zst"
        done = subprocess.run([*command, "zst", "pack", str(tmp_path / "data.bin"), str(archive)],
                              capture_output=True, text=True)
        assert done.returncode == 0, done.stderr
        back = tmp_path / f"back{i}.bin"
        done = subprocess.run([*command, "zst", "unpack", str(archive), str(back)], capture_output=True, text=True)
        assert done.returncode == 0 and back.read_bytes() == data, done.stderr
    if shutil.which("zstd"):
        assert subprocess.run(["zstd", "-t", "-q", str(tmp_path / "data0.zst")]).returncode == 0


def test_version_is_the_packages(cli: Path) -> None:
    import oxport

    for command in package_commands():
        lines = subprocess.run([*command, "--version"], capture_output=True, text=True, check=True).stdout.splitlines()
        assert lines[0] == f"oxport {oxport.__version__}"
        # The engines the package's build has (the binary may have the lab's ZFP too).
        engines = {line[1:].split(":")[0]: line[0] == "+" for line in lines[1:] if line[:1] in "+-"}
        assert {name: on for name, on in engines.items() if name != "zfp"} == oxport.build_info().engines
