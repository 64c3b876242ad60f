"""The package's rule for integer inputs (``docs/errors.md``), in one leaf module.

Every Python layer that reads an integer from a caller (the reference backend, the policy runner,
pictures and replays, the adapters, the test kit) reads it here, so all of them accept and refuse
the same values as the engine's bindings. It imports nothing of the package.
"""

from __future__ import annotations

import operator

__all__ = ["as_int"]


def as_int(value: object) -> int | None:
    """``value`` as an int if it is an integer type other than bool (NumPy integers included).

    Anything whose ``__index__`` fails (a float, ``numpy.bool_``, an object whose ``__index__``
    raises) is not an integer, as the engine reads it.

    Example:
        >>> as_int(3), as_int(True), as_int(3.0)
        (3, None, None)
    """
    if isinstance(value, bool):
        return None
    try:
        return operator.index(value)  # type: ignore[arg-type]
    except (TypeError, ValueError, ArithmeticError):
        return None
