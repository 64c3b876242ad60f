"""``python -m cardtable``: the command line (see ``cardtable --help``)."""

from cardtable.cli import main

main()
