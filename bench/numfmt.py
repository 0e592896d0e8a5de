"""Number formatting: runs the Rust benchmarks (oxport, glibc snprintf and
Rust's format! side by side) and writes their tables, and a PNG chart of the
scaling across threads, into docs/benchmarks.md.
Run: make bench-numfmt (or .venv/bin/python bench/numfmt.py)."""

from __future__ import annotations

import csv
import io
import os
import re
import subprocess
from collections import defaultdict

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

from docs import ROOT, machine, table, update_section  # noqa: E402


VALUES_PER_THREAD = 4_000_000


def single_value() -> None:
    """Criterion's per-value times for one f32 at 6 decimals and one u32."""
    output = subprocess.run(
        ["cargo", "bench", "-q", "-p", "oxport", "--features", "bench", "--bench", "numfmt", "--", "--noplot"],
        cwd=ROOT, check=True, capture_output=True, text=True,
    ).stdout
    # "f32 at 6 decimals/oxport/10000\n  time:   [64.8 µs 65.0 µs 65.3 µs]"
    pattern = re.compile(r"^(\S.*?)/(\S.*?)/(\d+)\s+time:\s+\[\S+ \S+ (\S+) (\S+) \S+ \S+\]", re.M)
    units = {"ns": 1e-9, "µs": 1e-6, "us": 1e-6, "ms": 1e-3, "s": 1.0}
    rows = []
    for group, method, count, value, unit in pattern.findall(output.replace("\n                        ", " ")):
        rows.append([group, method, f"{float(value) * units[unit] / int(count) * 1e9:.1f} ns"])
    assert rows, output
    text = f"""## Number formatting, one value at a time

Criterion, median time per value over 10,000 values (coordinates of a few units,
integers below 10 million), one core. Machine: {machine()}.

Command: `make bench-numfmt` (`cargo bench -p oxport --features bench --bench numfmt`).

{table(["what", "method", "time per value"], rows)}
"""
    update_section("numfmt-single", text)
    print(text)


def main() -> None:
    single_value()
    output = subprocess.run(
        ["cargo", "bench", "-q", "-p", "oxport", "--features", "bench", "--bench", "numfmt_scaling"],
        cwd=ROOT, check=True, capture_output=True, text=True,
    ).stdout
    results: dict[str, dict[int, float]] = defaultdict(dict)
    for row in csv.DictReader(io.StringIO(output)):
        results[row["method"]][int(row["threads"])] = float(row["seconds"])
    threads = sorted(next(iter(results.values())))
    rows = []
    for method, times in results.items():
        rows.append([method] + [f"{times[t]:.3f} s" for t in threads] + [f"{times[threads[0]] / results['oxport'][threads[0]]:.1f}×"])
    cores = os.cpu_count() or 1
    figure, axes = plt.subplots(figsize=(6, 3.6), dpi=120)
    for method, times in results.items():
        # Core time per value: flat when threads do not slow each other down.
        per_value = [times[t] * min(t, cores) / (t * VALUES_PER_THREAD) * 1e9 for t in threads]
        axes.plot(threads, per_value, marker="o", label=method)
    axes.set_xlabel(f"threads (each: 2M integers + 2M floats), {cores} cores")
    axes.set_ylabel("core time per value (ns)")
    axes.set_xticks(threads)
    axes.set_ylim(bottom=0)
    axes.set_title("Formatting across threads: flat means no contention")
    axes.legend()
    axes.grid(alpha=0.3)
    figure.tight_layout()
    chart = ROOT / "docs" / "numfmt-scaling.png"
    figure.savefig(chart)
    text = f"""## Number formatting across threads

Each of T threads formats 2 million `u32` and 2 million `f32` (6 decimals) into
its own buffer; the table gives the wall time, median of 5 runs: with one
thread per core it stays flat when threads do not contend (no locale, no
locks); with more threads than cores it grows by threads/cores by construction.
The chart divides that out: core time per value, flat when nothing contends.
Machine: {machine()}.

Command: `make bench-numfmt` (`cargo bench -p oxport --features bench --bench numfmt_scaling`, then `bench/numfmt.py`).

{table(["method"] + [f"{t} thread{'s' if t > 1 else ''}" for t in threads] + ["1-thread time vs oxport"], rows)}

![formatting across threads](numfmt-scaling.png)
"""
    update_section("numfmt-scaling", text)
    print(text)


if __name__ == "__main__":
    main()
