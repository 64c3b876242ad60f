"""Reading and validating game options in the reference backend."""

from __future__ import annotations

import builtins
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from cardtable.errors import InvalidOptionError

__all__ = ["OptionReader", "OptionSpec"]


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
        self._given = dict(given)
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
