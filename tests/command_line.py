"""Running a ``cardtable`` command in-process, as the command-line tests do."""

from __future__ import annotations

from click.testing import CliRunner

from cardtable.cli import main


def run_cli(*args: str, exit_code: int = 0, input: str | None = None) -> str:
    """The output of ``cardtable ARGS`` fed ``input``; fails unless it exits with ``exit_code``."""
    result = CliRunner().invoke(main, list(args), input=input)
    assert result.exit_code == exit_code, result.output
    return result.output
