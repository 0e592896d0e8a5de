"""Each platform's artifacts in dist/: named as the issue of each format
wants, holding what they should, for the right processor, and linking
nothing but what the system has (Linux: glibc 2.17; Windows: its own DLLs,
the Python module python3.dll; macOS: libSystem, libiconv, libcharset and the two
frameworks object storage needs). The Linux tools run here; the others are
run by test_tools.py."""

from __future__ import annotations

import re
import shutil
import subprocess
import tarfile
import tomllib
import zipfile
from pathlib import Path

import pytest

from conftest import DIST, PLATFORMS, ROOT, Platform, need, run, runner, tool_archive, version, wheel_of

#: What a Windows program or module of oxport may import: the system's DLLs.
WINDOWS_DLLS = {
    "advapi32.dll", "kernel32.dll", "ntdll.dll", "msvcrt.dll", "ws2_32.dll", "bcrypt.dll", "bcryptprimitives.dll",
    "crypt32.dll", "userenv.dll", "api-ms-win-core-synch-l1-2-0.dll",
}
#: What a macOS program or module of oxport may link (README: Platforms).
MACOS_LIBRARIES = {
    "/usr/lib/libSystem.B.dylib", "/usr/lib/libiconv.2.dylib", "/usr/lib/libcharset.1.dylib",
    "/System/Library/Frameworks/CoreFoundation.framework/Versions/A/CoreFoundation",
    "/System/Library/Frameworks/Security.framework/Versions/A/Security",
}
#: What a Linux program of oxport may need: glibc's libraries (and libgcc's).
LINUX_LIBRARIES = {"libc.so.6", "libm.so.6", "libdl.so.2", "libpthread.so.0", "librt.so.1", "libgcc_s.so.1",
                   "ld-linux-x86-64.so.2", "ld-linux-aarch64.so.1"}


def tool(name: str) -> str:
    found = shutil.which(name)
    if found is None:
        pytest.fail(f"{name} is missing (llvm, binutils-mingw-w64: installed by .ci/run)")
    return found


def check_binary(path: Path, platform: Platform) -> None:
    """`path` is a program or module of `platform`'s format and processor,
    linking only what the platform's system has."""
    if platform.system == "windows":
        dump = run([tool("x86_64-w64-mingw32-objdump"), "-p", str(path)]).stdout
        assert "file format pei-x86-64" in dump, dump[:300]
        dlls = {name.lower() for name in re.findall(r"DLL Name: (\S+)", dump)}
        allowed = WINDOWS_DLLS | ({"python3.dll"} if path.suffix == ".pyd" else set())
        assert dlls <= allowed, f"{path.name} imports {sorted(dlls - allowed)}"
        assert "kernel32.dll" in dlls
    elif platform.system == "macos":
        headers = run([tool("llvm-objdump"), "--macho", "--private-headers", str(path)]).stdout
        cpu = "ARM64" if platform.machine == "arm64" else "X86_64"
        assert re.search(rf"MH_MAGIC_64\s+{cpu}\b", headers), headers[:500]
        minimum = platform.wheel.split("_")[1] + "." + platform.wheel.split("_")[2]
        # LC_BUILD_VERSION's minos, or before macOS 10.14 LC_VERSION_MIN_MACOSX.
        pattern = rf"(minos|LC_VERSION_MIN_MACOSX\s+cmdsize \d+\s+version) {re.escape(minimum)}\b"
        assert re.search(pattern, headers), f"{path.name}: not for macOS {minimum}"
        dylibs = run([tool("llvm-objdump"), "--macho", "--dylibs-used", str(path)]).stdout.splitlines()[1:]
        used = {line.split(" (compatibility")[0].strip() for line in dylibs if line.strip()}
        # A module's own name (LC_ID_DYLIB) is listed first.
        own = run([tool("llvm-objdump"), "--macho", "--dylib-id", str(path)]).stdout.splitlines()[1:]
        used -= {line.strip() for line in own}
        assert used <= MACOS_LIBRARIES, f"{path.name} links {sorted(used - MACOS_LIBRARIES)}"
        assert "/usr/lib/libSystem.B.dylib" in used
    else:
        header = run([tool("llvm-readelf"), "-h", str(path)]).stdout
        assert ("AArch64" if platform.machine == "aarch64" else "X86-64") in header, header
        needed = set(re.findall(r"Shared library: \[(\S+)\]", run([tool("llvm-readelf"), "-d", str(path)]).stdout))
        assert needed <= LINUX_LIBRARIES, f"{path.name} needs {sorted(needed - LINUX_LIBRARIES)}"
        glibc = re.findall(r"GLIBC_(\d+)\.(\d+)", run([tool("llvm-readelf"), "-V", str(path)]).stdout)
        newest = max((int(a), int(b)) for a, b in glibc)
        assert newest <= (2, 17), f"{path.name} needs glibc {newest[0]}.{newest[1]}"


@pytest.mark.parametrize("platform", PLATFORMS, ids=lambda p: p.rust)
def test_each_wheel_is_abi3_with_its_module_and_the_command(platform: Platform, tmp_path: Path) -> None:
    wheel = wheel_of(platform)
    with zipfile.ZipFile(wheel) as z:
        names = z.namelist()
        module = "oxport/_native.pyd" if platform.system == "windows" else "oxport/_native.abi3.so"
        assert module in names, names
        entry_points = z.read(f"oxport-{version()}.dist-info/entry_points.txt").decode()
        assert "oxport = oxport._cli:main" in entry_points.replace("oxport=", "oxport = ")
        tags = re.findall(r"^Tag: (.+)$", z.read(f"oxport-{version()}.dist-info/WHEEL").decode(), re.M)
        python = "cp311" if platform.system == "windows" else "cp310"
        assert all(tag.startswith(f"{python}-abi3-") for tag in tags), tags
        z.extract(module, tmp_path)
    check_binary(tmp_path / module, platform)
    if platform.system == "linux":
        shown = run([str(ROOT / ".venv" / "bin" / "auditwheel"), "show", str(wheel)])
        assert f'"{platform.wheel}"' in shown.stdout, shown.stdout + shown.stderr


def test_the_cp39_wheel_and_the_sdist() -> None:
    (cp39,) = DIST.glob(f"oxport-{version()}-cp39-cp39-*manylinux_2_17_x86_64.whl") or [need(DIST / "cp39 wheel")]
    with zipfile.ZipFile(cp39) as z:
        assert any(name.startswith("oxport/_native.cpython-39-") for name in z.namelist())
    with tarfile.open(need(DIST / f"oxport-{version()}.tar.gz")) as sdist:
        names = sdist.getnames()
    for part in ("crates/oxport/src/lib.rs", "crates/oxport-cli/src/lib.rs", "python/oxport/_cli.py", "pyproject.toml"):
        assert f"oxport-{version()}/{part}" in names, part


@pytest.mark.parametrize("platform", PLATFORMS, ids=lambda p: p.rust)
def test_each_tool_archive_holds_the_tool_for_its_platform(platform: Platform, tools: dict[str, Path]) -> None:
    archive = tool_archive(platform)
    exe = "oxport.exe" if platform.system == "windows" else "oxport"
    inside = f"oxport-{version()}-{platform.rust}/{exe}"
    if archive.suffix == ".zip":
        with zipfile.ZipFile(archive) as z:
            assert inside in z.namelist()
    else:
        with tarfile.open(archive) as t:
            member = t.getmember(inside)
            assert member.mode & 0o111 == 0o111, oct(member.mode)
    check_binary(tools[platform.rust], platform)


@pytest.mark.parametrize("platform", PLATFORMS, ids=lambda p: p.rust)
def test_each_tool_runs_and_says_what_it_has(platform: Platform, tools: dict[str, Path]) -> None:
    result = run([*runner(platform), str(tools[platform.rust]), "--version"])
    assert result.returncode == 0, result.stderr
    lines = result.stdout.splitlines()
    assert lines[0] == f"oxport {version()}"
    # ISA-L wherever it builds (not Windows: see tools/dist.py); direct writes everywhere.
    isal = "-isal" if platform.system == "windows" else "+isal"
    assert any(line.startswith(isal + ":") for line in lines), result.stdout
    assert any(line.startswith("+direct:") for line in lines), result.stdout


@pytest.mark.parametrize("platform", PLATFORMS, ids=lambda p: p.blender)
def test_each_extension_names_its_platform_and_holds_its_wheel(platform: Platform) -> None:
    import build as blender

    extension = need(DIST / f"oxport_obj-{version()}-{platform.blender.replace('-', '_')}.zip")
    wheel = wheel_of(platform)
    with zipfile.ZipFile(extension) as z:
        wheels = [name for name in z.namelist() if name.startswith("wheels/")]
        assert wheels == [f"wheels/{wheel.name}"]
        assert z.read(wheels[0]) == wheel.read_bytes()
        manifest = tomllib.loads(z.read("blender_manifest.toml").decode())
    assert manifest["build"]["generated"]["platforms"] == [platform.blender]
    assert manifest["build"]["generated"]["wheels"] == [f"./wheels/{wheel.name}"]
    assert sorted(manifest["platforms"]) == sorted(p.blender for p in PLATFORMS)
    assert blender.platform_of(wheel.name) == platform.blender


def test_blenders_validator_takes_every_extension() -> None:
    # Blender 5.0's own validator (the one `blender --command extension validate` runs).
    python = ROOT / ".venv-bpy50" / "bin" / "python"
    validators = sorted((ROOT / ".venv-bpy50" / "lib").glob(
        "python3.*/site-packages/bpy/*/scripts/addons_core/bl_pkg/cli/blender_ext.py"))
    if not validators:
        pytest.skip("Blender 5.0 (the bpy module) is not installed: make bpy-venvs")
    for platform in PLATFORMS:
        extension = DIST / f"oxport_obj-{version()}-{platform.blender.replace('-', '_')}.zip"
        result = subprocess.run([str(python), str(validators[-1]), "validate", str(extension)],
                                capture_output=True, text=True, timeout=300)
        assert result.returncode == 0, result.stdout + result.stderr


def test_the_legacy_zip_holds_the_linux_package() -> None:
    legacy = need(DIST / f"oxport_obj-{version()}-legacy.zip")
    with zipfile.ZipFile(legacy) as z:
        names = z.namelist()
    assert "oxport_obj/__init__.py" in names and "oxport_obj/oxport/_native.abi3.so" in names
