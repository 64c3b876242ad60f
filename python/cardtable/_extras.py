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


def _first_missing(modules: str | tuple[str, ...]) -> str | None:
    """The first of ``modules`` (one top-level module name or several) not installed, if any."""
    names = (modules,) if isinstance(modules, str) else modules
    return next((name for name in names if find_spec(name) is None), None)


def missing_extra(modules: str | tuple[str, ...], extra: str, what: str) -> str | None:
    """What to tell a user of ``what`` if one of ``modules`` (top-level modules) is not installed.

    Returns:
        ``None`` if they all are, else, for the first one missing, ``WHAT needs MODULE, which is
        not installed: pip install "cardtable[EXTRA]" (from a clone: pip install ".[EXTRA]")``.
    """
    module = _first_missing(modules)
    if module is None:
        return None
    return (
        f"{what} needs {module}, which is not installed: "
        f'pip install "cardtable[{extra}]" (from a clone: pip install ".[{extra}]")'
    )


def require(modules: str | tuple[str, ...], extra: str, what: str) -> None:
    """Fails unless ``modules`` (one name or several) are installed, naming the extra.

    Raises:
        ModuleNotFoundError: If one is not (``name`` is the first missing, as Python's own).

    Examples:
        >>> require("numpy", "arrow", "this example")  # installed: nothing happens
    """
    message = missing_extra(modules, extra, what)
    if message is not None:
        raise ModuleNotFoundError(message, name=_first_missing(modules))
