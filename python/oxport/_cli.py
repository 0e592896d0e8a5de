"""The ``oxport`` command that ``pip install oxport`` puts on the PATH, and
``python -m oxport``: the command line tool itself (the Rust function the
standalone binary runs), with its commands, output and exit statuses."""

from __future__ import annotations

import os
import signal
import sys
from typing import NoReturn

from . import _native


def main() -> NoReturn:
    """Runs the tool on this process's arguments and exits with its status."""
    # Ctrl-C ends the tool at once, as it ends the binary: Python's own
    # handler would only set a flag that nothing looks at while it works.
    signal.signal(signal.SIGINT, signal.SIG_DFL)
    # `--scheduler` runs `oxport.dask` in a Python: by default this one.
    os.environ.setdefault("OXPORT_PYTHON", sys.executable)
    sys.exit(_native.cli(["oxport", *sys.argv[1:]]))
