"""How a script run in Blender ends: ``run(main)`` calls ``main``, prints
its traceback if it raises, flushes the output and ends the process at once
(status 1 after an exception), because PyPI's bpy 4.5 can hang at
interpreter exit after an exception (its global state's destructor waits on
a condition variable)."""

import os
import sys
import traceback


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
