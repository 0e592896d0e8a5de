"""Writes a benchmark's section into docs/benchmarks.md, between the markers
``<!-- NAME:start -->`` and ``<!-- NAME:end -->``, leaving the rest alone."""

from __future__ import annotations

import datetime
import platform
import statistics
import subprocess
from pathlib import Path
from typing import Callable, Sequence

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


def table(header: Sequence[str], rows: Sequence[Sequence[object]]) -> str:
    lines = ["| " + " | ".join(header) + " |", "|" + "|".join(" --- " for _ in header) + "|"]
    lines += ["| " + " | ".join(str(c) for c in row) + " |" for row in rows]
    return "\n".join(lines)
