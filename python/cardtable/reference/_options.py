"""Game options of the reference backend, declared once.

Each game lists its :class:`OptionSpec` s (name, type, default, bounds, doc) in ``option_specs``;
its ``_configure`` reads the caller's options through an :class:`OptionReader` built from those
specs, so defaults and bounds are written in one place, and the reader records every effective
value, which :attr:`ReferenceGame.options` returns. The mirror of ``rust/engine/src/options.rs``.

This module owns parsing and validation of option values; it knows nothing of any game.
"""

from __future__ import annotations

import builtins
import json
import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from cardtable._inputs import MAX_DEPTH, MAX_VALUES, as_int, shown
from cardtable.errors import CardtableError, InvalidOptionError

__all__ = [
    "MAX_DEPTH",
    "OptionReader",
    "OptionSpec",
    "as_int",
    "bool_option",
    "choice_option",
    "int_option",
    "optional_int_option",
    "plain_json",
    "plain_options",
]


def _utf8(text: str) -> bool:
    """Whether ``text`` (as stored) is valid UTF-8: no lone surrogate, which JSON cannot hold."""
    try:
        str.encode(text, "utf-8")
    except UnicodeEncodeError:
        return False
    return True


def _plain(value: object, depth: builtins.int, left: list[builtins.int]) -> object:
    """``value`` as plain JSON; ``left[0]`` counts down the values that may still be read."""
    left[0] -= 1
    if left[0] < 0:
        raise ValueError(f"more than {MAX_VALUES} values")
    if value is None or isinstance(value, bool):
        return value
    # Subclasses of str, float, dict, list and tuple are read by what they store, as the engine
    # reads them, whatever their own methods say: ``str.__str__``, ``float.__float__``,
    # ``dict.items`` and ``list.__iter__`` / ``tuple.__iter__`` of the base class.
    if isinstance(value, str):
        if not _utf8(value):
            raise ValueError("a str that is not valid UTF-8")
        return str.__str__(value)
    if isinstance(value, float):
        stored = float.__float__(value)
        if not math.isfinite(stored):  # written as the engine writes it: NaN, inf, -inf
            raise ValueError(f"{'NaN' if math.isnan(stored) else stored} is not a finite number")
        return stored
    if isinstance(value, (dict, list, tuple)):
        if depth >= MAX_DEPTH:
            raise ValueError(f"nested deeper than {MAX_DEPTH} levels")
        if isinstance(value, dict):
            out: dict[str, object] = {}
            for key, item in dict.items(value):
                if not isinstance(key, str):
                    raise ValueError(f"dict key {shown(key)} is not a str")
                if not _utf8(key):
                    raise ValueError("a dict key that is not valid UTF-8")
                out[str.__str__(key)] = _plain(item, depth + 1, left)
            return out
        items = list.__iter__(value) if isinstance(value, list) else tuple.__iter__(value)
        return [_plain(item, depth + 1, left) for item in items]
    number = as_int(value)
    if number is not None:
        if not -(1 << 63) <= number < 1 << 64:
            raise ValueError(f"the integer {number} is out of range {-(1 << 63)}..={(1 << 64) - 1}")
        return number
    raise ValueError(f"a value of type {_type_name(value)} is not accepted")


def _type_name(value: object) -> str:
    """The fully qualified name of ``value``'s type, as the engine's bindings give it.

    ``numpy.bool`` rather than ``bool``, which would read as if plain bools were refused.
    """
    kind = type(value)
    if kind.__module__ in ("builtins", "__main__"):
        return kind.__qualname__
    return f"{kind.__module__}.{kind.__qualname__}"


def plain_json(value: object, error: type[CardtableError]) -> object:
    """``value`` as plain JSON data under the package's input rules, or ``error``.

    The rules (``docs/errors.md``), the same as the engine's: ``None``, ``bool``, integers (``int``
    or any type with ``__index__``, such as NumPy integers, in ``-2**63..2**64``), finite floats,
    ``str``, lists and tuples (as lists), dicts with ``str`` keys, nested at most
    :data:`MAX_DEPTH` deep and :data:`MAX_VALUES` values in all; a subclass of one of these is read
    by what it stores. Anything else (NaN, infinities, sets, bytes, other objects) is refused.
    """
    try:
        return _plain(value, 0, [MAX_VALUES])
    except ValueError as err:
        raise error(f"not JSON-compatible: {err}") from None


def plain_options(game: str, given: Mapping[str, object]) -> dict[str, object]:
    """The options ``given`` to game ``game`` as plain JSON, by the rules of :func:`plain_json`.

    The same as ``plain_json(dict(given), InvalidOptionError)``, but a value that is not JSON (NaN,
    say) is refused naming the game and the option, as the engine does:
    ``turn_the_tide: option rounds: not JSON-compatible: NaN is not a finite number``.

    Raises:
        InvalidOptionError: On the first option (in the order given) whose value is not JSON, or a
            name that is not a str.
    """
    left = [MAX_VALUES - 1]  # the dict of the options is one value
    out: dict[str, object] = {}
    for name, value in dict.items(dict(given)):
        if not isinstance(name, str):
            raise InvalidOptionError(f"not JSON-compatible: dict key {shown(name)} is not a str")
        if not _utf8(name):  # not printable in a message either
            raise InvalidOptionError("not JSON-compatible: a dict key that is not valid UTF-8")
        try:
            out[str.__str__(name)] = _plain(value, 1, left)
        except ValueError as err:
            raise InvalidOptionError(f"{game}: option {name}: not JSON-compatible: {err}") from None
    return out


@dataclass(frozen=True)
class OptionSpec:
    """One documented option of a game: its only declaration.

    Attributes:
        name: The keyword name.
        kind: ``"bool"``, ``"int"``, ``"int | None"`` or ``"str"``.
        default: The default value (``None`` where it depends on other options).
        doc: One line saying what it does.
        choices: The accepted strings of a ``"str"`` option.
        low: The smallest accepted value of an integer option.
        high: The largest accepted value of an integer option (over every player count).
        at_most_players: Whether an integer option is also at most the player count (an option
            counted in players, such as a number of rounds).
    """

    name: str
    kind: str
    default: object
    doc: str
    choices: tuple[str, ...] = ()
    low: builtins.int = 0
    high: builtins.int = 0
    at_most_players: bool = False


def bool_option(name: str, default: bool, doc: str) -> OptionSpec:
    """A boolean option."""
    return OptionSpec(name, "bool", default, doc)


def int_option(name: str, default: int, low: int, high: int, doc: str) -> OptionSpec:
    """An integer option in ``low..high`` inclusive."""
    return OptionSpec(name, "int", default, doc, low=low, high=high)


def optional_int_option(
    name: str,
    default: int | None,
    low: int,
    high: int,
    doc: str,
    *,
    at_most_players: bool = False,
) -> OptionSpec:
    """An integer option in ``low..high`` inclusive that may be ``None``.

    With ``at_most_players`` it is also at most the player count (``high`` bounds it over every
    player count the game accepts).
    """
    return OptionSpec(
        name, "int | None", default, doc, low=low, high=high, at_most_players=at_most_players
    )


def choice_option(name: str, default: str, choices: tuple[str, ...], doc: str) -> OptionSpec:
    """A string option that must be one of ``choices``."""
    return OptionSpec(name, "str", default, doc, choices=choices)


def _is_int(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


class OptionReader:
    """Options given by the caller, checked against the game's specs as the engine does.

    First every declared option's value in declaration order (its type, bounds or choices), then
    any option given that the game does not declare. A game's ``_configure`` then reads the
    checked values and checks what the bounds cannot say alone (combinations, bounds that depend
    on the player count).
    """

    def __init__(
        self,
        game: str,
        given: Mapping[str, object],
        specs: Sequence[OptionSpec],
        players: builtins.int | None = None,
    ) -> None:
        """Checks the options ``given`` to game ``game``, whose declared options are ``specs``.

        An option counted in players (``at_most_players``) is also at most ``players``, if given.

        Raises:
            InvalidOptionError: For the first declared option given a bad value, else the first
                option (by name) that is not declared.
        """
        self._game = game
        plain = plain_options(game, given)
        self._specs = {spec.name: spec for spec in specs}
        self._values: dict[str, object] = {}
        for spec in specs:
            value = plain.get(spec.name, spec.default)
            high = spec.high
            if spec.at_most_players and players is not None:
                high = min(high, players)
            if spec.name in plain:
                self._check(spec, value, high)
            self._values[spec.name] = value
        unknown = sorted(name for name in plain if name not in self._specs)
        if unknown:
            raise InvalidOptionError(
                f"{game}: unknown option {json.dumps(unknown[0], ensure_ascii=False)} "
                f"(known: {', '.join(self._specs)})"
            )

    def _check(self, spec: OptionSpec, value: object, high: builtins.int) -> None:
        """Raises the error of option ``spec`` given ``value`` unless the value fits its kind.

        An integer must also be at most ``high``.
        """
        if spec.kind == "bool":
            ok, expected = isinstance(value, bool), "a bool"
        elif spec.kind == "str":
            ok = isinstance(value, str) and value in spec.choices
            expected = f"one of {json.dumps(list(spec.choices), ensure_ascii=False)}"
        else:
            ok = (value is None and spec.kind == "int | None") or (
                _is_int(value) and spec.low <= value <= high  # type: ignore[operator]
            )
            expected = f"an int in {spec.low}..={high}"
            if spec.kind == "int | None":
                expected += " or null (None)"
        if not ok:
            shown = json.dumps(value, ensure_ascii=False, separators=(",", ":"), sort_keys=True)
            raise InvalidOptionError(
                f"{self._game}: option {spec.name} must be {expected}, got {shown}"
            )

    def _get(self, name: str, kind: str) -> object:
        spec = self._specs.get(name)
        if spec is None or spec.kind != kind:
            raise LookupError(f"{self._game} reads the undeclared {kind} option {shown(name)}")
        return self._values[name]

    def bool(self, name: str) -> builtins.bool:
        """The value of a boolean option."""
        value = self._get(name, "bool")
        assert isinstance(value, bool)
        return value

    def int(self, name: str) -> builtins.int:
        """The value of an integer option (within its declared bounds)."""
        value = self._get(name, "int")
        assert isinstance(value, builtins.int)
        return value

    def optional_int(self, name: str) -> builtins.int | None:
        """The value of an integer option that may be ``None`` (within its declared bounds)."""
        value = self._get(name, "int | None")
        assert value is None or isinstance(value, builtins.int)
        return value

    def choice(self, name: str) -> str:
        """The value of a string option (one of its declared choices)."""
        value = self._get(name, "str")
        assert isinstance(value, str)
        return value

    def set(self, name: str, value: object) -> None:
        """Replaces the recorded value of ``name``, for defaults that depend on other options."""
        self._values[name] = value

    def finish(self) -> dict[str, object]:
        """The effective value of every declared option, in declaration order."""
        return dict(self._values)
