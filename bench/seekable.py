"""Seekable archives side by side: pack against ``zstd -T2 -3`` and against
Blender's own compressed save, unpack against ``zstd -d``, and random 4 KiB
reads through Python file objects against pyzstd's ``SeekableZstdFile`` and
indexed_zstd.

The contenders alternate (the order rotates every round), the first round is
a warm-up and not counted, outputs are removed and the disk synced before each
run; medians. The data is a tar of scene files Blender wrote (OBJ files and an
uncompressed ``.blend``, about 570 MB), made once into target/refdata.

Run: make bench-seekable  (or .venv/bin/python bench/seekable.py [--runs N])
"""

from __future__ import annotations

import argparse
import json
import os
import random
import shutil
import statistics
import subprocess
import sys
import tarfile
import time
from pathlib import Path
from typing import Callable

from docs import ROOT, machine, table, update_section
from obj_read import REFDATA, SCRIPTS, blender_file

OXPORT = ROOT / "target" / "release" / "oxport"
WORK = ROOT / "target" / "bench-seekable"


def blend(objects: int) -> Path:
    """An uncompressed .blend of the shared many-object scene (Blender saves it
    compressed; oxport unpacks it once)."""
    plain = REFDATA / f"scene{objects}_1.plain.blend"
    if not plain.exists():
        packed = REFDATA / f"scene{objects}_1.blend"
        if not packed.exists():
            partial = REFDATA / "partial"
            partial.mkdir(parents=True, exist_ok=True)
            subprocess.run(["blender", "-b", "--factory-startup", "--python", str(SCRIPTS / "scene.py"), "--",
                            str(objects), "1", str(partial / "scene.obj"), str(partial / packed.name)],
                           check=True, capture_output=True)
            (partial / packed.name).replace(packed)
        import oxport.seekable
        oxport.seekable.unpack(packed, plain)
    return plain


def scenes_tar() -> Path:
    tar = WORK / "scenes.tar"
    if not tar.exists():
        members = [blender_file("monkey5", "monkey.py", ["5"])]
        members += [blender_file(f"scene400_{seed}", "scene.py", ["400", str(seed)]) for seed in (1, 2, 3)]
        members += [blender_file("scene4000_1", "scene.py", ["4000", "1"]), blend(300)]
        with tarfile.open(tar, "w") as out:
            for member in members:
                out.add(member, arcname=member.name)
    return tar


def timed(command: list[str], clean: list[Path]) -> float:
    for path in clean:
        path.unlink(missing_ok=True)
    os.sync()
    start = time.perf_counter()
    subprocess.run(command, check=True, capture_output=True)
    return time.perf_counter() - start


def alternate(contenders: dict[str, Callable[[], float]], runs: int) -> dict[str, list[float]]:
    times: dict[str, list[float]] = {name: [] for name in contenders}
    names = list(contenders)
    for run in range(runs + 1):
        order = names[run % len(names):] + names[:run % len(names)]
        for name in order:
            value = contenders[name]()
            if run > 0:
                times[name].append(value)
    return times


def pack_section(tar: Path, runs: int) -> str:
    ours, theirs = WORK / "oxport.zst", WORK / "zstd.zst"
    times = alternate({
        "oxport zst pack -l 3 -T 2": lambda: timed([str(OXPORT), "zst", "pack", "-l", "3", "-T", "2", str(tar), str(ours)], [ours]),
        "zstd -T2 -3": lambda: timed(["zstd", "-q", "-T2", "-3", str(tar), "-o", str(theirs)], [theirs]),
    }, runs)
    size = tar.stat().st_size
    sizes = {"oxport zst pack -l 3 -T 2": ours.stat().st_size, "zstd -T2 -3": theirs.stat().st_size}
    reference = statistics.median(times["zstd -T2 -3"])
    rows = [(name, f"{statistics.median(t):.3f}", f"{size / statistics.median(t) / 1e6:.0f}",
             f"{reference / statistics.median(t):.2f}×", f"{sizes[name] / 1e6:.1f}", f"{100 * sizes[name] / size:.2f}%",
             f"{100 * (sizes[name] / sizes['zstd -T2 -3'] - 1):+.2f}%")
            for name, t in times.items()]
    return table(["pack", "median s", "MB/s", "speed vs zstd", "archive MB", "of the input", "size vs zstd"], rows)


def to_null(command: list[str]) -> float:
    start = time.perf_counter()
    subprocess.run(command, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    return time.perf_counter() - start


def unpack_section(runs: int) -> str:
    archive, out = WORK / "oxport.zst", WORK / "out"
    times = alternate({
        "oxport zst unpack A OUT": lambda: timed([str(OXPORT), "zst", "unpack", str(archive), str(out)], [out]),
        "zstd -d A -o OUT": lambda: timed(["zstd", "-q", "-d", str(archive), "-o", str(out)], [out]),
    }, runs)
    size = out.stat().st_size
    out.unlink()
    times.update(alternate({
        "oxport zst unpack A - > /dev/null": lambda: to_null([str(OXPORT), "zst", "unpack", str(archive), "-"]),
        "zstd -dc A > /dev/null": lambda: to_null(["zstd", "-q", "-dc", str(archive)]),
    }, runs))
    rows = []
    for name, t in times.items():
        reference = statistics.median(times["zstd -d A -o OUT" if "OUT" in name else "zstd -dc A > /dev/null"])
        rows.append((name, f"{statistics.median(t):.3f}", f"{size / statistics.median(t) / 1e6:.0f}",
                     f"{reference / statistics.median(t):.2f}×"))
    return table(["unpack A (the oxport archive above)", "median s", "MB/s", "speed vs zstd"], rows)


BLENDER_SAVE = """
import bpy, json, sys, time
out, runs = sys.argv[sys.argv.index("--") + 1], int(sys.argv[-1])
times = {True: [], False: []}
for run in range(runs + 1):
    for compress in ((True, False) if run % 2 else (False, True)):
        start = time.perf_counter()
        bpy.ops.wm.save_as_mainfile(filepath=out + ("compressed.blend" if compress else "plain.blend"), compress=compress, copy=True)
        if run:
            times[compress].append(time.perf_counter() - start)
print("SAVE " + json.dumps({"compressed": times[True], "plain": times[False]}))
"""


def blender_section(runs: int) -> str:
    plain = blend(4000)
    script = WORK / "save.py"
    script.write_text(BLENDER_SAVE)
    result = subprocess.run(["blender", "-b", "--factory-startup", str(plain), "--python", str(script), "--",
                             str(WORK / "blender-"), str(runs)], check=True, capture_output=True, text=True)
    line = next(line for line in result.stdout.splitlines() if line.startswith("SAVE"))
    saves = json.loads(line[len("SAVE "):])
    compressed, uncompressed = saves["compressed"], saves["plain"]
    saved = WORK / "blender-plain.blend"
    packed = WORK / "packed.blend"
    pack = alternate({"pack": lambda: timed([str(OXPORT), "zst", "pack", "-l", "3", str(saved), str(packed)], [packed])}, runs)["pack"]
    save_c, save_u, pack_t = statistics.median(compressed), statistics.median(uncompressed), statistics.median(pack)
    size_b = (WORK / "blender-compressed.blend").stat().st_size
    rows = [
        ("Blender: save compressed (level 3, its frames of about 2 MB)", f"{save_c:.3f}", f"{size_b / 1e6:.1f}"),
        ("Blender: save uncompressed", f"{save_u:.3f}", f"{saved.stat().st_size / 1e6:.1f}"),
        ("oxport zst pack -l 3 of the uncompressed save (2 MiB frames)", f"{pack_t:.3f}", f"{packed.stat().st_size / 1e6:.1f}"),
    ]
    return ("Blender compresses while it writes (on its other threads), so compression adds little to its save; "
            "packing a file afterwards costs the time of the pack. Scene of 4,000 objects:\n\n"
            + table(["what", "median s", "file MB"], rows))


def reads_section(tar: Path, runs: int, reads: int) -> str:
    import indexed_zstd
    import pyzstd
    import oxport.seekable

    archive = WORK / "frames256k.zst"
    if not archive.exists():
        subprocess.run([str(OXPORT), "zst", "pack", "--frame-size", "256K", str(tar), str(archive)], check=True, capture_output=True)
    subprocess.run(["cat", str(archive)], stdout=subprocess.DEVNULL, check=True)  # into the page cache
    size = tar.stat().st_size
    rng = random.Random(1)
    offsets = [rng.randrange(size - 4096) for _ in range(reads)]
    files = {
        "oxport.seekable.open": oxport.seekable.open(archive),
        "pyzstd.SeekableZstdFile": pyzstd.SeekableZstdFile(archive, "r"),
        "indexed_zstd.IndexedZstdFile": indexed_zstd.IndexedZstdFile(str(archive)),
    }
    samples: dict[str, list[float]] = {name: [] for name in files}

    def one_round(name: str) -> float:
        f = files[name]
        took = []
        for offset in offsets:
            start = time.perf_counter()
            f.seek(offset)
            f.read(4096)
            took.append(time.perf_counter() - start)
        samples[name].extend(took)
        return 0.0

    for name in files:  # warm-up, not counted
        one_round(name)
        samples[name].clear()
    alternate({name: (lambda name=name: one_round(name)) for name in files}, runs)
    reference = statistics.median(samples["pyzstd.SeekableZstdFile"])
    rows = []
    for name, took in samples.items():
        took.sort()
        p50, p99 = took[len(took) // 2], took[int(len(took) * 0.99)]
        rows.append((name, f"{p50 * 1e3:.3f}", f"{p99 * 1e3:.3f}", f"{reference / p50:.2f}×"))
    return (f"{reads} reads of 4 KiB at random offsets per round, {runs} rounds, from a "
            f"{archive.stat().st_size / 1e6:.0f} MB archive of 256 KiB frames in the page cache:\n\n"
            + table(["random 4 KiB reads", "p50 ms", "p99 ms", "p50 speed vs pyzstd"], rows))


def version(command: list[str]) -> str:
    return subprocess.run(command, capture_output=True, text=True).stdout.strip().splitlines()[0]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--reads", type=int, default=2000)
    args = parser.parse_args()
    WORK.mkdir(parents=True, exist_ok=True)
    subprocess.run(["cargo", "build", "--release", "-q", "-p", "oxport-cli"], check=True, cwd=ROOT)
    tar = scenes_tar()
    from importlib.metadata import version as installed
    command = " ".join([".venv/bin/python", "bench/seekable.py", *sys.argv[1:]])
    text = f"""## Seekable archives

`{command}` (`make bench-seekable` runs it with the defaults; {machine()}; zstd `{version(['zstd', '--version'])}`, pyzstd {installed('pyzstd')},
indexed_zstd {installed('indexed_zstd')}). Input: a {tar.stat().st_size / 1e6:.0f} MB tar of scene files
Blender wrote (OBJ and an uncompressed `.blend`). Contenders alternate, first round not counted, outputs
removed and the disk synced before each run; medians of {args.runs} runs. oxport's frames are 2 MiB by default.

{pack_section(tar, args.runs)}

{unpack_section(args.runs)}

Unpacking into a file includes the kernel's copy into the page cache, whose time varies from run to
run on these virtual machines; the `/dev/null` rows show the decompression alone.

{blender_section(args.runs)}

{reads_section(tar, args.runs, args.reads)}
"""
    update_section("seekable", text)
    print(text)
    shutil.rmtree(WORK / "partial", ignore_errors=True)


if __name__ == "__main__":
    main()
