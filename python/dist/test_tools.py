"""Each platform's command line tool, from its archive in dist/, run here on
real files no one here wrote (assimp's OBJ models, OpenEXR's sample images,
scan-line and tiled): Windows' under Wine, given Windows paths (`Z:\\...`,
`Z:/...`), aarch64 Linux's under qemu-user. Each writes the bytes the Linux
x86_64 tool writes: OBJ and MTL files read and written again, images
recompressed, and seekable archives packed (and unpacked to the files).
(DWA is left out: its rounding is each platform's OpenEXR build's, which
the smoke suite checks against the `openexr` package.)"""

from __future__ import annotations

from pathlib import Path

import pytest

from conftest import PLATFORMS, ROOT, Platform, run, runner

ASSIMP = Path("/usr/share/assimp/models/OBJ")
OBJS = ["spider.obj", "WusonOBJ.obj", "regr01.obj", "cube_usemtl.obj"]
IMAGES = ROOT / "crates" / "oxport" / "tests" / "data" / "valid" / "openexr-images"
# Tiled (mipmaps, luminance/chroma) and scan lines, in four compressions.
EXRS = ["ColorCodedLevels.exr", "MirrorPattern.exr", "Garden.exr", "stripes.exr", "GrayRampsHorizontal.exr",
        "Rec709_YC.exr"]
COMPRESSIONS = ["zip", "piz", "zstd", "b44"]

OTHERS = [p for p in PLATFORMS if p.rust != "x86_64-unknown-linux-gnu" and p.system != "macos"]


def native_path(platform: Platform, path: Path, forward: bool = False) -> str:
    """`path` as a program of `platform` names it: on Windows (Wine maps
    drive Z: to /) with a drive letter and backslashes, or with `forward`
    slashes."""
    if platform.system != "windows":
        return str(path)
    text = "Z:" + str(path.resolve())
    return text if forward else text.replace("/", "\\")


def jobs(platform: Platform, out: Path) -> list[list[str]]:
    """The tool's argument lists for every job, with outputs under `out`."""
    if not ASSIMP.is_dir():
        pytest.skip(f"{ASSIMP} is missing (apt-get install assimp-testmodels)")
    p = lambda path, forward=False: native_path(platform, path, forward)  # noqa: E731
    commands = []
    for i, name in enumerate(OBJS):
        commands.append(["obj", "convert", p(ASSIMP / name), p(out / name, forward=i % 2 == 1)])
    for name in EXRS:
        for compression in COMPRESSIONS:
            target = out / f"{Path(name).stem}.{compression}.exr"
            commands.append(["exr", "convert", "-c", compression, p(IMAGES / name), p(target)])
    for i, source in enumerate([*(IMAGES / name for name in EXRS), ASSIMP / "spider.obj"]):
        commands.append(["zst", "pack", "--frame-size", "64K", p(source), p(out / (source.name + ".zst"), i % 2 == 0)])
    return commands


def written(out: Path) -> dict[str, bytes]:
    return {path.name: path.read_bytes() for path in sorted(out.iterdir())}


@pytest.fixture(scope="module")
def linux(tools: dict[str, Path], tmp_path_factory: pytest.TempPathFactory) -> dict[str, bytes]:
    """What the Linux x86_64 tool writes."""
    platform = PLATFORMS[0]
    out = tmp_path_factory.mktemp("linux-x86_64")
    for args in jobs(platform, out):
        result = run([str(tools[platform.rust]), *args])
        assert result.returncode == 0, f"{args}: {result.stderr}"
    files = written(out)
    assert {f"{name}.zst" for name in EXRS} <= set(files) and "spider.mtl" in files
    return files


@pytest.mark.parametrize("platform", OTHERS, ids=lambda p: p.rust)
def test_each_tool_writes_the_linux_tools_bytes(platform: Platform, tools: dict[str, Path],
                                                linux: dict[str, bytes], tmp_path: Path) -> None:
    start = runner(platform)
    for args in jobs(platform, tmp_path):
        result = run([*start, str(tools[platform.rust]), *args])
        assert result.returncode == 0, f"{args}: {result.stderr}"
    ours = written(tmp_path)
    assert sorted(ours) == sorted(linux)
    for name, data in linux.items():
        assert ours[name] == data, f"{platform.rust}: {name} differs from the Linux x86_64 tool's"
    # The archives unpack to their files.
    back = tmp_path / "back"
    back.mkdir()
    for source in [IMAGES / "stripes.exr", ASSIMP / "spider.obj"]:
        archive = native_path(platform, tmp_path / (source.name + ".zst"))
        result = run([*start, str(tools[platform.rust]), "zst", "unpack", archive, native_path(platform, back / source.name)])
        assert result.returncode == 0, result.stderr
        assert (back / source.name).read_bytes() == source.read_bytes()


def test_a_windows_path_is_a_path_and_errors_name_it(tools: dict[str, Path]) -> None:
    # A drive letter is never read as a URL scheme: a missing file is the
    # system's "not found", naming the path as given; a UNC path likewise.
    (platform,) = [p for p in PLATFORMS if p.system == "windows"]
    start = runner(platform)
    for path in [r"Z:\no\such\file.exr", "C:/renders/missing.exr", r"\\server\share\missing.exr"]:
        result = run([*start, str(tools[platform.rust]), "exr", "info", path])
        assert result.returncode == 1, result.stdout + result.stderr
        (line,) = [line for line in result.stderr.splitlines() if path in line]
        assert line.startswith(f"oxport: {path}: "), result.stderr
        assert "URL" not in line and "scheme" not in line, line
