"""``python -m oxport``: the command line tool (see :mod:`oxport._cli`)."""

from ._cli import main

main()
