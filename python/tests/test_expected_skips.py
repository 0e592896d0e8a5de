"""The suites' rule on skips (python/testing/expected_skips.py): a run that
sets OXPORT_EXPECTED_SKIPS fails on a skip whose reason it does not name,
whether the skip is a test's or a whole module's."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from conftest import ROOT

SUITE = {
    "conftest.py": f"""
import sys
sys.path.insert(0, {str(ROOT / "python" / "testing")!r})
from expected_skips import pytest_sessionfinish
""",
    "test_tool.py": """
import pytest

def test_needs_a_tool():
    pytest.skip("the frobnicate tool is not installed")

def test_runs():
    pass
""",
    "test_module.py": """
import pytest
pytest.importorskip("a_module_nobody_has", reason="the reference package is missing")
""",
}


def run(tmp_path: Path, expected: str | None) -> subprocess.CompletedProcess[str]:
    for name, text in SUITE.items():
        (tmp_path / name).write_text(text)
    env = {k: v for k, v in os.environ.items() if k != "OXPORT_EXPECTED_SKIPS"}
    if expected is not None:
        env["OXPORT_EXPECTED_SKIPS"] = expected
    return subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", str(tmp_path)],
                          cwd=tmp_path, env=env, capture_output=True, text=True)


@pytest.mark.parametrize(("expected", "passes"), [
    (None, True),  # a developer's run: skips are skips
    ("frobnicate|reference package", True),
    (" frobnicate | reference package ", True),
    ("frobnicate", False),  # the module's skip is not expected
    ("", False),  # none expected
    ("|", False),
])
def test_a_skip_the_run_does_not_expect_fails_it(tmp_path: Path, expected: str | None, passes: bool) -> None:
    result = run(tmp_path, expected)
    assert (result.returncode == 0) == passes, result.stdout + result.stderr
    assert "1 passed, 2 skipped" in result.stdout, result.stdout
    if not passes:
        assert "skipped, not expected" in result.stdout
        if expected == "frobnicate":
            assert "test_module.py: the reference package is missing" in result.stdout
            assert "test_needs_a_tool" not in result.stdout.split("skipped, not expected")[1]
