"""Builds what oxport ships, for every platform it ships for, into dist/
(`make dist`):

- a wheel per platform: abi3 for CPython 3.10 and later on Linux x86_64 and
  aarch64 (manylinux2014: glibc 2.17) and macOS arm64 (11.0) and x86_64
  (10.12), for 3.11 and later on Windows x86_64 (see
  crates/oxport-python/Cargo.toml), and a wheel for CPython 3.9 on Linux
  x86_64; each carries the command line tool as its `oxport` command;
- the command line tool alone: oxport-VERSION-TARGET.tar.gz holding `oxport`
  (Linux, macOS) and oxport-VERSION-TARGET.zip holding `oxport.exe`
  (Windows), TARGET as Rust names it;
- the Blender extension per platform, as Blender's `--split-platforms` build
  makes them (oxport_obj-VERSION-windows_x64.zip, ...), and the legacy zip
  for Blender 3.4 to 4.1 (integrations/blender/build.py);
- the sdist.

Linux and macOS binaries are linked by zig's toolchain (the `ziglang`
package; Linux against glibc 2.17, macOS against link stubs of the two
frameworks object storage needs, tools/macos/sdk), Windows ones by
mingw-w64 with its runtime linked in: each needs only what its system has.
`--isal` builds ISA-L in wherever it builds (not on Windows: isal-sys hands
autotools Rust's name for the target, which they do not know).

Run: make dist (python tools/dist.py [--isal] [--only wheels|cli|blender|sdist]
[--target TARGET ...] [--inspect-only SYSTEM] [--out DIR]).
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tarfile
import tomllib
import zipfile
from dataclasses import dataclass, replace
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
#: The oldest glibc the Linux builds run on: manylinux2014's.
GLIBC = "2.17"
sys.path.insert(0, str(ROOT / "integrations" / "blender"))
import build as blender  # noqa: E402  (integrations/blender/build.py)


@dataclass(frozen=True)
class Target:
    """A platform oxport ships for."""

    rust: str  # Rust's name of the target
    system: str  # "linux", "macos" or "windows"
    macos: str = ""  # the oldest macOS it runs on (MACOSX_DEPLOYMENT_TARGET)
    optimized: bool = True  # False: built without optimization (see --inspect-only)

    @property
    def exe(self) -> str:
        return "oxport.exe" if self.system == "windows" else "oxport"

    @property
    def zig(self) -> bool:
        return self.system != "windows"

    @property
    def zig_target(self) -> str:
        """zig's name of the target: glibc 2.17 on Linux, the oldest macOS."""
        arch = self.rust.split("-")[0]
        return f"{arch}-linux-gnu.{GLIBC}" if self.system == "linux" else f"{arch}-macos.{self.macos}-none"

    @property
    def isal(self) -> bool:
        """Whether ISA-L builds for it (see the module's docs)."""
        return self.system != "windows"

    def env(self) -> dict[str, str]:
        """What its builds run with (every build of a target the same, so
        that its dependencies are built once)."""
        env = dict(os.environ, PATH=f"{ROOT / '.venv' / 'bin'}{os.pathsep}{os.environ['PATH']}")
        # What ships is stripped: the release profile's line tables would
        # only cost each build its time.
        env["CARGO_PROFILE_RELEASE_DEBUG"] = "false"
        if not self.optimized:
            env["CARGO_PROFILE_RELEASE_OPT_LEVEL"] = "0"
        if self.zig:
            # zig links and compiles C through our wrappers, at one path for
            # maturin, cargo-zigbuild and the tests: with the tools' own,
            # each would find every crate's linker changed and rebuild it.
            cross = ROOT / "tools" / "cross"
            name = self.rust.replace("-", "_")
            env["OXPORT_ZIG_TARGET"] = self.zig_target
            env[f"CARGO_TARGET_{name.upper()}_LINKER"] = str(cross / "zig-cc.sh")
            env[f"CC_{name}"] = str(cross / "zig-cc.sh")
            env[f"AR_{name}"] = str(cross / "zig-ar.sh")
            env[f"RANLIB_{name}"] = str(cross / "zig-ranlib.sh")
        if self.system == "macos":
            env["SDKROOT"] = str(ROOT / "tools" / "macos" / "sdk")
            env["MACOSX_DEPLOYMENT_TARGET"] = self.macos
        return env


TARGETS = [
    Target("x86_64-unknown-linux-gnu", "linux"),
    Target("aarch64-unknown-linux-gnu", "linux"),
    Target("x86_64-pc-windows-gnu", "windows"),
    Target("aarch64-apple-darwin", "macos", macos="11.0"),
    Target("x86_64-apple-darwin", "macos", macos="10.12"),
]


def version() -> str:
    with open(ROOT / "Cargo.toml", "rb") as f:
        return str(tomllib.load(f)["workspace"]["package"]["version"])


def run(command: list[str], env: dict[str, str] | None = None) -> None:
    print("+", " ".join(command), flush=True)
    subprocess.run(command, cwd=ROOT, env=env, check=True)


def cargo(target: Target, command: str) -> list[str]:
    """Cargo's `command` for `target`: through cargo-zigbuild where zig links
    (for Linux, against glibc 2.17)."""
    if target.zig:
        glibc = f".{GLIBC}" if target.system == "linux" else ""
        return ["cargo-zigbuild", command, "--target", target.rust + glibc]
    return ["cargo", command, "--target", target.rust]


def features(target: Target, isal: bool, *extra: str) -> list[str]:
    wanted = [*extra, *(["isal"] if isal and target.isal else [])]
    return ["--features", " ".join(wanted)] if wanted else []


def abi3_feature(target: Target) -> str:
    """The binding's feature for `target`'s abi3 wheel (Windows: 3.11)."""
    return "abi3-py311" if target.system == "windows" else "abi3"


def wheel(target: Target, out: Path, isal: bool, python: str | None = None) -> None:
    """The abi3 wheel of `target`, or with `python` a wheel for that
    interpreter alone (the 3.9 one)."""
    command = [str(ROOT / ".venv" / "bin" / "maturin"), "build", "--release", "--strip", "--quiet",
               "--target", target.rust, "--out", str(out)]
    if target.zig:
        command.append("--zig")
    if target.system == "linux":
        command += ["--compatibility", "manylinux2014"]
    if python is not None:
        command += ["-i", python, *features(target, isal)]
    else:
        command += features(target, isal, abi3_feature(target))
    run(command, target.env())


def cli(target: Target, out: Path, isal: bool) -> Path:
    """The command line tool of `target`, archived into `out`."""
    # Built beside the wheel's package with its features, so that every
    # crate they share has the same features and is the wheel's build (cargo
    # unifies features over the packages of one command); only the binary
    # is compiled. Its symbols are stripped by the linker (the release
    # profile's override): stripping a signed macOS program afterwards
    # would break its signature.
    wanted = features(target, isal, abi3_feature(target))
    command = [*cargo(target, "build"), "--release", "-p", "oxport-cli", "-p", "oxport-python", "--bin", "oxport",
               "--features", " ".join(f"oxport-python/{f}" for f in wanted[1].split())]
    run(command, target.env())
    binary = ROOT / "target" / target.rust / "release" / target.exe
    name = f"oxport-{version()}-{target.rust}"
    if target.system == "windows":
        archive = out / f"{name}.zip"
        partial = archive.with_suffix(".partial")
        with zipfile.ZipFile(partial, "w", zipfile.ZIP_DEFLATED) as z:
            z.write(binary, f"{name}/{target.exe}")
            z.write(ROOT / "README.md", f"{name}/README.md")
    else:
        archive = out / f"{name}.tar.gz"
        partial = archive.with_suffix(".partial")
        with tarfile.open(partial, "w:gz") as tar:
            tar.add(binary, f"{name}/{target.exe}", filter=executable)
            tar.add(ROOT / "README.md", f"{name}/README.md", filter=readable)
    partial.replace(archive)
    print(archive, flush=True)
    return archive


def test(target: Target, isal: bool) -> None:
    """`target`'s tests, run here through the runner .cargo/config.toml
    names (Wine, qemu-user), in the release build `cli` made (the same
    environment: only the tests are compiled anew). Windows: the library's
    and the tool's (paths, files and the console differ there); aarch64
    Linux: the library's own, its NEON kernels and every codec among them
    (the rest is Linux code the x86_64 tests run)."""
    if target.system == "windows":
        packages, owner = ["-p", "oxport", "-p", "oxport-cli"], "oxport-cli"
    else:
        packages, owner = ["-p", "oxport", "--lib"], "oxport"
    wanted = features(target, isal)
    if wanted:
        wanted[1] = " ".join(f"{owner}/{feature}" for feature in wanted[1].split())
    run([*cargo(target, "test"), "--release", *packages, *wanted], target.env())


def executable(info: tarfile.TarInfo) -> tarfile.TarInfo:
    info.mode, info.uid, info.gid, info.uname, info.gname = 0o755, 0, 0, "", ""
    return info


def readable(info: tarfile.TarInfo) -> tarfile.TarInfo:
    info = executable(info)
    info.mode = 0o644
    return info


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--isal", action="store_true", help="build ISA-L in where it builds (needs nasm and autotools)")
    parser.add_argument("--only", choices=["wheels", "cli", "blender", "sdist", "tests"], action="append",
                        help="build only these (default: all but tests); tests: run the tests of the targets "
                             "that run here (Windows under Wine, aarch64 Linux under qemu; see `test`)")
    parser.add_argument("--target", choices=[t.rust for t in TARGETS], action="append",
                        help="only these targets (default: all)")
    parser.add_argument("--python39", default=os.environ.get("OLDEST_PYTHON", ""),
                        help="a CPython 3.9 for the 3.9 wheel (none: no such wheel)")
    parser.add_argument("--inspect-only", choices=["linux", "windows", "macos"], action="append", default=[],
                        help="build this system's programs without optimization, in a fraction of the time, for "
                             "checks that inspect them and never run them (`make test`: macOS)")
    parser.add_argument("--out", type=Path, default=ROOT / "dist")
    args = parser.parse_args()
    only = set(args.only or ["wheels", "cli", "blender", "sdist"])
    targets = [replace(t, optimized=t.system not in args.inspect_only) for t in TARGETS
               if args.target is None or t.rust in args.target]
    args.out.mkdir(parents=True, exist_ok=True)
    if "wheels" in only:
        for target in targets:
            wheel(target, args.out, args.isal)
        linux = [t for t in targets if t.rust == "x86_64-unknown-linux-gnu"]
        if args.python39 and linux:
            wheel(linux[0], args.out, args.isal, python=args.python39)
    if "cli" in only:
        for target in targets:
            cli(target, args.out, args.isal)
    if "blender" in only:
        for path in blender.build(sorted(args.out.glob("oxport-*-abi3-*.whl")), args.out):
            print(path, flush=True)
    if "tests" in only:
        for target in targets:
            if target.system == "windows" or target.rust.startswith("aarch64-unknown-linux"):
                test(target, args.isal)
    if "sdist" in only:
        run([str(ROOT / ".venv" / "bin" / "maturin"), "sdist", "--out", str(args.out)])


if __name__ == "__main__":
    main()
