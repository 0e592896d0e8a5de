"""What the scripts run in Blender share: ``arguments()`` reads what follows
``--`` on their command line, and ``run(main)`` calls ``main``, prints its
traceback if it raises, flushes the output and ends the process at once
(status 1 after an exception), because PyPI's bpy 4.5 can hang at
interpreter exit after an exception (its global state's destructor waits on
a condition variable)."""

import json
import os
import sys
import traceback


def arguments() -> tuple:
    """The arguments after ``--``, and the operator options given as
    ``--options JSON`` among them (``{}`` without)."""
    argv = sys.argv[sys.argv.index("--") + 1:]
    options = {}
    if "--options" in argv:
        i = argv.index("--options")
        options = json.loads(argv[i + 1])
        argv = argv[:i] + argv[i + 2:]
    return argv, options


def run(main) -> None:
    status = 0
    try:
        main()
    except BaseException:
        traceback.print_exc()
        status = 1
    sys.stdout.flush()
    sys.stderr.flush()
    os._exit(status)
