"""The optional dependencies: the error that names the extra to install when one is missing.

A leaf module (it imports nothing of the package), so that a module can check its extra before
importing the library.
"""

from __future__ import annotations

from importlib.util import find_spec

__all__ = ["ANALYSIS_MODULES", "missing_extra", "require"]

ANALYSIS_MODULES = ("scipy", "openskill", "matplotlib", "pyarrow")
"""What the ``analysis`` extra installs that the studies need (``cardtable.analysis`` refuses to
import without them; the command line then offers study commands that say so)."""


def missing_extra(module: str, extra: str, what: str) -> str | None:
    """What to tell a user of ``what`` if ``module`` (a top-level module) is not installed.

    Returns:
        ``None`` if it is installed, else ``WHAT needs MODULE, which is not installed: pip
        install "cardtable[EXTRA]" (from a clone: pip install ".[EXTRA]")``.
    """
    if find_spec(module) is not None:
        return None
    return (
        f"{what} needs {module}, which is not installed: "
        f'pip install "cardtable[{extra}]" (from a clone: pip install ".[{extra}]")'
    )


def require(module: str, extra: str, what: str) -> None:
    """Fails unless ``module`` is installed, naming the extra that installs it.

    Raises:
        ModuleNotFoundError: If it is not (``name`` is ``module``, as Python's own).

    Examples:
        >>> require("numpy", "arrow", "this example")  # installed: nothing happens
    """
    message = missing_extra(module, extra, what)
    if message is not None:
        raise ModuleNotFoundError(message, name=module)
