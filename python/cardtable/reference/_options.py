"""Reading and validating game options in the reference backend."""

from __future__ import annotations

import builtins
import math
import operator
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from cardtable.errors import CardtableError, InvalidOptionError

__all__ = ["MAX_DEPTH", "OptionReader", "OptionSpec", "as_int", "plain_json"]

MAX_DEPTH = 64
"""Deepest nesting of lists and dicts accepted in options and state dicts (as in the engine)."""


def as_int(value: object) -> builtins.int | None:
    """``value`` as an int if it is an integer type other than bool (NumPy integers included)."""
    if isinstance(value, bool):
        return None
    try:
        return operator.index(value)  # type: ignore[arg-type]
    except TypeError:
        return None


def _plain(value: object, depth: builtins.int) -> object:
    if value is None or isinstance(value, (bool, str)):
        return value
    if isinstance(value, float):
        if not math.isfinite(value):
            raise ValueError(f"{value} is not a finite number")
        return float(value)
    if isinstance(value, (dict, list, tuple)):
        if depth >= MAX_DEPTH:
            raise ValueError(f"nested deeper than {MAX_DEPTH} levels")
        if isinstance(value, dict):
            out: dict[str, object] = {}
            for key, item in value.items():
                if not isinstance(key, str):
                    raise ValueError(f"dict key {key!r} is not a str")
                out[str(key)] = _plain(item, depth + 1)
            return out
        return [_plain(item, depth + 1) for item in value]
    number = as_int(value)
    if number is not None:
        if not -(1 << 63) <= number < 1 << 64:
            raise ValueError(f"the integer {number} is out of range -2**63..2**64")
        return number
    raise ValueError(f"a value of type {type(value).__name__} is not accepted")


def plain_json(value: object, error: type[CardtableError]) -> object:
    """``value`` as plain JSON data under the package's input rules, or ``error``.

    The rules (``docs/errors.md``), the same as the engine's: ``None``, ``bool``, integers (``int``
    or any type with ``__index__``, such as NumPy integers, in ``-2**63..2**64``), finite floats,
    ``str``, lists and tuples (as lists), dicts with ``str`` keys, nested at most
    :data:`MAX_DEPTH` deep. Anything else (NaN, infinities, sets, bytes, other objects) is refused.
    """
    try:
        return _plain(value, 0)
    except ValueError as err:
        raise error(f"not JSON-compatible: {err}") from None


@dataclass(frozen=True)
class OptionSpec:
    """One documented option of a game.

    Attributes:
        name: The keyword name.
        kind: ``"bool"``, ``"int"``, ``"int | None"`` or ``"str"``.
        default: The default value.
        doc: One line saying what it does.
        choices: The accepted strings of a ``"str"`` option.
    """

    name: str
    kind: str
    default: object
    doc: str
    choices: tuple[str, ...] = ()


def _is_int(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


class OptionReader:
    """Options given by the caller, consumed one by one; leftovers are unknown options."""

    def __init__(self, game: str, given: Mapping[str, object]) -> None:
        """Wraps the options ``given`` for game ``game``."""
        self._game = game
        plain = plain_json(dict(given), InvalidOptionError)
        assert isinstance(plain, dict)
        self._given: dict[str, object] = plain
        self._used: list[str] = []

    def _bad(self, name: str, expected: str, value: object) -> InvalidOptionError:
        return InvalidOptionError(f"{self._game}: option {name} must be {expected}, got {value!r}")

    def _get(self, name: str) -> tuple[bool, object]:
        self._used.append(name)
        return (name in self._given, self._given.get(name))

    def bool(self, name: str, default: builtins.bool) -> builtins.bool:
        """Reads a boolean option."""
        present, value = self._get(name)
        if not present:
            return default
        if not isinstance(value, bool):
            raise self._bad(name, "a bool", value)
        return value

    def int(
        self, name: str, default: builtins.int, low: builtins.int, high: builtins.int
    ) -> builtins.int:
        """Reads an integer option in ``low..high`` inclusive."""
        present, value = self._get(name)
        if not present:
            return default
        if not _is_int(value) or not low <= value <= high:  # type: ignore[operator]
            raise self._bad(name, f"an int in {low}..={high}", value)
        assert isinstance(value, builtins.int)
        return value

    def optional_int(
        self, name: str, default: builtins.int | None, low: builtins.int, high: builtins.int
    ) -> builtins.int | None:
        """Reads an integer option in ``low..high`` inclusive that may also be ``None``."""
        present, value = self._get(name)
        if not present:
            return default
        if value is None:
            return None
        if not _is_int(value) or not low <= value <= high:  # type: ignore[operator]
            raise self._bad(name, f"an int in {low}..={high}", value)
        assert isinstance(value, builtins.int)
        return value

    def choice(self, name: str, default: str, choices: Sequence[str]) -> str:
        """Reads a string option that must be one of ``choices``."""
        present, value = self._get(name)
        if not present:
            return default
        if not isinstance(value, str) or value not in choices:
            raise self._bad(name, f"one of {list(choices)}", value)
        return value

    def finish(self) -> None:
        """Raises :class:`InvalidOptionError` for any option that was given but never read."""
        unknown = sorted(k for k in self._given if k not in self._used)
        if unknown:
            raise InvalidOptionError(
                f"{self._game}: unknown option {unknown[0]!r} (known: {', '.join(self._used)})"
            )
