"""The smoke suite's one rule beyond its tests: a skip the run does not
expect fails it (python/testing/expected_skips.py). Nothing else is put on
the path: the package under test is the installed one."""

from __future__ import annotations

import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "python" / "testing"))
from expected_skips import pytest_sessionfinish  # noqa: E402,F401  (a skip CI does not expect fails the run)
