"""Writes a benchmark's section into docs/benchmarks.md, between the markers
``<!-- NAME:start -->`` and ``<!-- NAME:end -->``, leaving the rest alone."""

from __future__ import annotations

import datetime
import platform
import statistics
import subprocess
import sys
import time
from pathlib import Path
from typing import Callable, Mapping, Optional, Sequence

ROOT = Path(__file__).resolve().parents[1]
DOC = ROOT / "docs" / "benchmarks.md"


def machine() -> str:
    cpu = "unknown CPU"
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                cpu = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    cores = subprocess.run(["nproc"], capture_output=True, text=True).stdout.strip()
    return f"{cpu}, {cores} cores, {platform.system()} {platform.release()}, {datetime.date.today()}"


def update_section(name: str, text: str, path: Path = DOC) -> None:
    start, end = f"<!-- {name}:start -->", f"<!-- {name}:end -->"
    doc = path.read_text() if path.exists() else "# Benchmarks\n"
    block = f"{start}\n{text.rstrip()}\n{end}"
    if start in doc and end in doc:
        before, rest = doc.split(start, 1)
        after = rest.split(end, 1)[1]
        doc = before + block + after
    else:
        doc = doc.rstrip() + "\n\n" + block + "\n"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(doc)


def median_time(run: Callable[[], float], runs: int) -> tuple[float, list[float]]:
    """Median of ``runs`` calls of ``run`` (each returns seconds), and all of them."""
    times = [run() for _ in range(runs)]
    return statistics.median(times), times


def timed(fn: Callable[[], object], before: Optional[Callable[[], None]] = None) -> float:
    """Seconds ``fn`` takes; ``before`` (outputs removed, the disk synced) runs first, untimed."""
    if before:
        before()
    start = time.perf_counter()
    fn()
    return time.perf_counter() - start


def alternate(contenders: Mapping[str, Callable[[], object]], runs: int, *,
              before: Optional[Callable[[str], None]] = None, log: Optional[str] = None) -> dict[str, list[float]]:
    """``runs`` timed calls of each contender after a warm-up round that is
    not counted, the order flipping every round; ``before(name)`` runs
    untimed before each call. With ``log``, each time goes to standard error
    after that prefix."""
    times: dict[str, list[float]] = {name: [] for name in contenders}
    names = list(contenders)
    for run in range(runs + 1):
        for name in names if run % 2 == 0 else names[::-1]:
            seconds = timed(contenders[name], (lambda: before(name)) if before else None)
            if log is not None:
                print(f"{log} round {run} {name}: {seconds:.2f} s", file=sys.stderr, flush=True)
            if run > 0:
                times[name].append(seconds)
    return times


def medians(times: Mapping[str, Sequence[float]]) -> dict[str, float]:
    return {name: statistics.median(values) for name, values in times.items()}


def table(header: Sequence[str], rows: Sequence[Sequence[object]]) -> str:
    lines = ["| " + " | ".join(header) + " |", "|" + "|".join(" --- " for _ in header) + "|"]
    lines += ["| " + " | ".join(str(c) for c in row) + " |" for row in rows]
    return "\n".join(lines)
