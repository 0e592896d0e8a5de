"""A test whose precondition is missing skips, saying why; a run that did not
expect the skip fails.

``OXPORT_EXPECTED_SKIPS`` unset (a developer's run), a skip is a skip. Set
(``make test`` sets it), it holds the skips the run expects as fragments of
their reasons, separated by ``|``: when a skip's reason holds none of them, the
run ends failed and lists it. The Rust tests keep the same rule
(``crates/oxport/src/testing.rs``).

Each suite's ``conftest.py`` takes the hook below into its namespace.
"""

from __future__ import annotations

import os

import pytest


def expects(expected: str, reason: str) -> bool:
    """Whether ``reason`` holds one of the ``|``-separated fragments of ``expected``."""
    return any(fragment and fragment in reason for fragment in (f.strip() for f in expected.split("|")))


def _reason(report: pytest.TestReport | pytest.CollectReport) -> str:
    longrepr = report.longrepr
    if isinstance(longrepr, tuple) and len(longrepr) == 3:
        return str(longrepr[2]).removeprefix("Skipped: ")
    return str(longrepr)


@pytest.hookimpl(trylast=True)
def pytest_sessionfinish(session: pytest.Session, exitstatus: int) -> None:
    """Fails the run on a skip ``OXPORT_EXPECTED_SKIPS`` does not name."""
    expected = os.environ.get("OXPORT_EXPECTED_SKIPS")
    reporter = session.config.pluginmanager.get_plugin("terminalreporter")
    if expected is None or reporter is None:
        return
    unexpected = [
        f"{report.nodeid}: {_reason(report)}"
        for report in reporter.stats.get("skipped", [])
        if not hasattr(report, "wasxfail") and not expects(expected, _reason(report))
    ]
    if unexpected:
        reporter.write_line("")
        reporter.write_sep("=", f"{len(unexpected)} skipped, not expected (OXPORT_EXPECTED_SKIPS={expected!r})", red=True)
        for line in unexpected:
            reporter.write_line(line)
        session.exitstatus = pytest.ExitCode.TESTS_FAILED
