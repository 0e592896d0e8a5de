"""What `make dist` wrote into dist/, for the checks of `make test-dist`:
every platform's wheel, command line tool and Blender extension."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import tarfile
import tomllib
import zipfile
from dataclasses import dataclass
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
DIST = Path(os.environ.get("OXPORT_DIST", ROOT / "dist"))
sys.path.insert(0, str(ROOT / "tools"))
sys.path.insert(0, str(ROOT / "integrations" / "blender"))
sys.path.insert(0, str(ROOT / "python" / "testing"))
from expected_skips import pytest_sessionfinish  # noqa: E402,F401  (a skip CI does not expect fails the run)


def version() -> str:
    with open(ROOT / "Cargo.toml", "rb") as f:
        return str(tomllib.load(f)["workspace"]["package"]["version"])


@dataclass(frozen=True)
class Platform:
    """A platform oxport ships for, as each tool names it."""

    rust: str  # Rust's target
    wheel: str  # the end of the abi3 wheel's platform tag
    blender: str  # Blender's platform
    system: str  # linux, windows or macos
    machine: str  # as ELF, PE and Mach-O headers name it (llvm-readobj)


PLATFORMS = [
    Platform("x86_64-unknown-linux-gnu", "manylinux_2_17_x86_64", "linux-x64", "linux", "x86_64"),
    Platform("aarch64-unknown-linux-gnu", "manylinux_2_17_aarch64", "linux-arm64", "linux", "aarch64"),
    Platform("x86_64-pc-windows-gnu", "win_amd64", "windows-x64", "windows", "x86_64"),
    Platform("aarch64-apple-darwin", "macosx_11_0_arm64", "macos-arm64", "macos", "arm64"),
    Platform("x86_64-apple-darwin", "macosx_10_12_x86_64", "macos-x64", "macos", "x86_64"),
]


# The platforms dist/ was built for, as Rust names them (OXPORT_DIST_TARGETS;
# unset: every one). `make test` leaves macOS x86_64 out.
_BUILT = os.environ.get("OXPORT_DIST_TARGETS", "").split()
if _BUILT:
    PLATFORMS = [p for p in PLATFORMS if p.rust in _BUILT]


def need(path: Path) -> Path:
    if not path.exists():
        pytest.fail(f"{path} is missing: make dist")
    return path


def wheel_of(platform: Platform) -> Path:
    """The platform's abi3 wheel."""
    found = [p for p in DIST.glob(f"oxport-{version()}-*-abi3-*.whl") if p.name.endswith(f"{platform.wheel}.whl")]
    if len(found) != 1:
        pytest.fail(f"{len(found)} abi3 wheels for {platform.rust} in {DIST}: make dist")
    return found[0]


def tool_archive(platform: Platform) -> Path:
    suffix = ".zip" if platform.system == "windows" else ".tar.gz"
    return need(DIST / f"oxport-{version()}-{platform.rust}{suffix}")


@pytest.fixture(scope="session")
def tools(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    """Each platform's command line tool, unpacked from its archive."""
    out = tmp_path_factory.mktemp("tools")
    found = {}
    for platform in PLATFORMS:
        archive = tool_archive(platform)
        if archive.suffix == ".zip":
            with zipfile.ZipFile(archive) as z:
                z.extractall(out)
        else:
            with tarfile.open(archive) as t:
                t.extractall(out, filter="data")
        exe = "oxport.exe" if platform.system == "windows" else "oxport"
        found[platform.rust] = out / f"oxport-{version()}-{platform.rust}" / exe
    return found


def runner(platform: Platform) -> list[str]:
    """What starts a program of `platform` here: nothing for Linux x86_64,
    Wine for Windows, qemu-user for aarch64 Linux; macOS's cannot run here
    (a skip)."""
    if platform.system == "windows":
        if shutil.which("wine64") is None and not Path("/usr/lib/wine/wine64").exists():
            pytest.skip("Wine is not installed (apt-get install wine64)")
        return [str(ROOT / "tools" / "cross" / "wine-run.sh")]
    if platform.machine == "aarch64":
        if shutil.which("qemu-aarch64") is None:
            pytest.skip("qemu-user is not installed (apt-get install qemu-user)")
        return [str(ROOT / "tools" / "cross" / "qemu-run.sh")]
    if platform.system == "macos":
        pytest.skip("macOS programs are built and inspected here, not run")
    return []


def run(command: list[str], **kwargs: object) -> subprocess.CompletedProcess[str]:
    return subprocess.run(command, capture_output=True, text=True, timeout=600, **kwargs)  # type: ignore[call-overload, no-any-return]
