"""Tools to property-test an implementation of these rules against another one.

Everything here works on any object following :class:`cardtable.protocols.RulesState` (and
:class:`~cardtable.protocols.StateProtocol` for the fields beyond :data:`RULES_FIELDS`), so it
checks our Rust engine against our reference, and your own engine, variant or forward model against
either of them::

    from hypothesis import given
    import cardtable
    from cardtable.testing import RULES_FIELDS, assert_equivalent, choice_sequences

    @given(choices=choice_sequences())
    def test_my_engine(choices):
        assert_equivalent(
            cardtable.make("turn_the_tide", players=4, backend="reference"),
            MyTurnTheTide(players=4),
            choices,
            fields=RULES_FIELDS,  # the default, ALL_FIELDS, also needs our state formats
        )

This module does not need the compiled extension.
"""

from __future__ import annotations

import hashlib
import math
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from itertools import chain
from typing import TYPE_CHECKING, Any

import numpy as np
from hypothesis import strategies as st
from hypothesis.database import ExampleDatabase

from cardtable._inputs import MAX_SEED, as_int, check_int
from cardtable._rng import SplitMix64
from cardtable.errors import InvalidOptionError, InvalidStateError
from cardtable.protocols import RULES_FIELDS, GameProtocol, RulesGame, RulesState, StateProtocol

if TYPE_CHECKING:
    from hypothesis.database import ListenerEventT

    from cardtable.reference import ReferenceGame
    from cardtable.reference._options import OptionSpec

__all__ = [
    "ALL_FIELDS",
    "CHANCE_ABS_TOL",
    "CHANCE_REL_TOL",
    "DEFAULT_MAX_EXAMPLES",
    "FIRST_LEGAL_STEPS",
    "MAX_PLAYERS",
    "MAX_STEPS",
    "RULES_FIELDS",
    "Divergence",
    "DivergenceError",
    "assert_equivalent",
    "assert_same_state",
    "choice_sequences",
    "compare_states",
    "equivalence_test",
    "game_configs",
    "perft",
    "play_random",
    "playthrough",
    "random_choices",
    "reachable_states",
]


@dataclass
class Divergence:
    """The first point where two implementations disagree.

    Attributes:
        history: Every action and chance outcome applied to both before they disagreed. It replays
            on ``new_state()`` without a seed, also after a seeded start (it then includes the
            chance outcomes that the seed drew).
        differences: One line per differing field, with both values (or the exception raised).
        seed: The seed given to both ``new_state`` calls (``None``: explicit chance nodes).
    """

    history: list[int]
    differences: list[str] = field(default_factory=list)
    seed: int | None = None

    def __str__(self) -> str:
        start = ""
        if self.seed is not None:  # the history then holds the chance outcomes the seed drew
            start = f" (from new_state({self.seed}); the history replays on new_state())"
        lines = [f"implementations diverge after history {self.history}{start}:"]
        lines += [f"  {d}" for d in self.differences]
        return "\n".join(lines)


class DivergenceError(AssertionError):
    """Raised when two implementations disagree; ``.divergence`` has the details."""

    def __init__(self, divergence: Divergence) -> None:
        super().__init__(str(divergence))
        self.divergence = divergence


def _canonical(value: Any) -> Any:
    """A JSON-like form in which ``True`` and ``1`` differ and tuples equal lists.

    NumPy scalars and arrays become their Python values (``numpy.bool_`` a ``bool``).
    """
    kind = type(value)  # the exact types first: this runs on every value of every state
    if kind is int or kind is str or kind is float or value is None:
        return value
    if kind is list or kind is tuple:
        return [_canonical(v) for v in value]
    if kind is dict:
        return {k: _canonical(v) for k, v in value.items()}
    if isinstance(value, (np.ndarray, np.generic)):
        return _canonical(value.tolist())
    if isinstance(value, bool):
        return ("bool", value)
    if isinstance(value, (list, tuple)):
        return [_canonical(v) for v in value]
    if isinstance(value, Mapping):
        return {k: _canonical(v) for k, v in value.items()}
    return value


def _same(a: Any, b: Any) -> bool:
    """Whether two values are equal in :func:`_canonical` form (``False`` if that raises)."""
    try:
        return bool(_canonical(a) == _canonical(b))
    except Exception:
        return False


def _diff(name: str, a: Any, b: Any, out: list[str]) -> None:
    if isinstance(a, (dict, Mapping)) and isinstance(b, (dict, Mapping)):
        for key in sorted(set(a) | set(b), key=str):
            if key not in a:
                out.append(f"{name}[{key!r}]: missing in A, B has {b[key]!r}")
            elif key not in b:
                out.append(f"{name}[{key!r}]: A has {a[key]!r}, missing in B")
            else:
                _diff(f"{name}[{key!r}]", a[key], b[key], out)
        return
    if not _same(a, b):
        out.append(f"{name}: A = {a!r}, B = {b!r}")


CHANCE_REL_TOL = 1e-9
"""Relative tolerance of chance probabilities in :func:`compare_states` (``math.isclose``)."""

CHANCE_ABS_TOL = 1e-12
"""Absolute tolerance of chance probabilities in :func:`compare_states` (``math.isclose``)."""

MAX_PLAYERS = 64
"""The most seats :func:`compare_states` compares (the engine's seat sets are 64 bits wide); a
larger count was accepted and looped for as long as it said."""

_SHOWN = 8
"""Differing entries (chance outcomes, tensor entries) named in one difference line."""


def _outcome_map(value: Any) -> dict[int, float] | str:
    """``chance_outcomes()`` as ``{outcome: probability}``, or why it is not a list of pairs."""
    items = value.tolist() if isinstance(value, np.ndarray) else value
    if isinstance(items, (str, bytes, Mapping)) or not isinstance(items, Iterable):
        return "not a list of (outcome, probability) pairs"
    result: dict[int, float] = {}
    for pair in items:
        parts = pair.tolist() if isinstance(pair, np.ndarray) else pair
        if not isinstance(parts, (list, tuple)) or len(parts) != 2:
            return f"{pair!r} is not an (outcome, probability) pair"
        outcome, probability = as_int(parts[0]), parts[1]
        if isinstance(probability, np.generic):
            probability = probability.item()
        if outcome is None or isinstance(probability, bool):
            return f"{pair!r} is not an (outcome, probability) pair"
        if not isinstance(probability, (int, float)):
            return f"{pair!r} is not an (outcome, probability) pair"
        if outcome in result:
            return f"outcome {outcome} is listed twice"
        result[outcome] = float(probability)
    return result


def _diff_chance(name: str, a: Any, b: Any, out: list[str]) -> None:
    """Reports chance outcomes that differ as ``{outcome: probability}`` (order aside).

    Probabilities agree within :data:`CHANCE_REL_TOL` and :data:`CHANCE_ABS_TOL`.
    """
    map_a, map_b = _outcome_map(a), _outcome_map(b)
    if isinstance(map_a, str) or isinstance(map_b, str):
        if not _same(a, b):
            why = "; ".join(
                f"{s}: {m}" for s, m in (("A", map_a), ("B", map_b)) if isinstance(m, str)
            )
            out.append(f"{name}: A = {a!r}, B = {b!r} ({why})")
        return
    entries = []
    for outcome in sorted(set(map_a) | set(map_b)):
        if outcome not in map_b:
            entries.append(f"outcome {outcome} has p={map_a[outcome]!r} in A, is missing in B")
        elif outcome not in map_a:
            entries.append(f"outcome {outcome} is missing in A, has p={map_b[outcome]!r} in B")
        elif not math.isclose(
            map_a[outcome], map_b[outcome], rel_tol=CHANCE_REL_TOL, abs_tol=CHANCE_ABS_TOL
        ):
            entries.append(f"outcome {outcome}: A has p={map_a[outcome]!r}, B p={map_b[outcome]!r}")
    if entries:
        more = f"; and {len(entries) - _SHOWN} more" if len(entries) > _SHOWN else ""
        out.append(f"{name}: " + "; ".join(entries[:_SHOWN]) + more)


DEFAULT_MAX_EXAMPLES: int | None = None
"""Hypothesis examples of :func:`equivalence_test` tests that set none (``None``: the active
profile's); the pytest option ``--cardtable-examples`` sets it."""

FIRST_LEGAL_STEPS = 200
"""Steps played with the first legal action after a choice sequence runs out (then random)."""

MAX_STEPS = 100_000
"""The most steps :func:`play_random` and :func:`playthrough` play (and :func:`assert_equivalent`
by default): no game of ours comes near it, and a state that never ends raises
:class:`~cardtable.errors.InvalidStateError` instead of playing for ever."""


def _legal_here(state: Any, played: Sequence[int], start: str) -> Any:
    """``state.legal_actions()`` of a state that is not terminal (``played`` from ``start``).

    Raises:
        InvalidStateError: If it has none: the state could never end.
    """
    legal = state.legal_actions()
    if len(legal) == 0:
        raise InvalidStateError(
            f"legal_actions(): the state ({type(state).__name__}) is not terminal but has no "
            f"legal actions, after the steps {list(played)} from {start}"
        )
    return legal


def _unfinished(state: Any, what: str) -> InvalidStateError:
    """The error of a game that :func:`play_random` or :func:`playthrough` could not end."""
    return InvalidStateError(
        f"{what}: the game did not end within {MAX_STEPS} steps (MAX_STEPS): the state "
        f"({type(state).__name__}) never became terminal"
    )


ALL_FIELDS: tuple[str, ...] = (
    "current_player",
    "is_chance_node",
    "is_terminal",
    "legal_actions",
    "chance_outcomes",
    "scores",
    "winners",
    "to_dict",
    "observations",
    "observation_tensors",
    "legal_action_mask",
)
"""Everything :func:`compare_states` can compare (its default, and :func:`assert_equivalent`'s:
right for our two backends; an implementation with formats of its own uses :data:`RULES_FIELDS`)."""

_GETTERS: dict[str, Callable[[Any], Any]] = {
    "current_player": lambda s: s.current_player,
    "is_chance_node": lambda s: s.is_chance_node,
    "is_terminal": lambda s: s.is_terminal,
    "legal_actions": lambda s: s.legal_actions(),
    "chance_outcomes": lambda s: s.chance_outcomes(),
    "scores": lambda s: s.scores,
    "winners": lambda s: s.winners,
    "to_dict": lambda s: s.to_dict(),
    "legal_action_mask": lambda s: s.legal_action_mask(),
}

_PROPERTIES = ("current_player", "is_chance_node", "is_terminal", "scores", "winners")
"""The fields read as properties (the others are method calls)."""

_MEMBERS = {"observations": "observation", "observation_tensors": "observation_tensor"}
"""The state member each field reads, where its name differs from the field's."""


class _Raised:
    """What a state's member raised instead of answering."""

    __slots__ = ("error",)

    def __init__(self, error: Exception) -> None:
        self.error = error

    def __repr__(self) -> str:
        return f"raises {self.error!r}"


def _ask(state: Any, side: str, name: str, get: Callable[[Any], Any]) -> Any:
    """``get(state)`` for the field ``name``, or :class:`_Raised` if the state raised.

    Raises:
        InvalidOptionError: If the state lacks the member the field needs.
    """
    member = _MEMBERS.get(name, name)
    try:
        return get(state)
    except AttributeError as err:
        if err.name == member:
            hint = (
                "every implementation needs it (see cardtable.protocols.RulesState)"
                if name in RULES_FIELDS
                else "implement it or compare fewer fields, e.g. fields=RULES_FIELDS"
            )
            raise InvalidOptionError(
                f"implementation {side} ({type(state).__name__}) has no {member!r}, which the "
                f"field {name!r} needs: {hint}"
            ) from None
        return _Raised(err)
    except Exception as err:
        return _Raised(err)


def _fields(fields: object) -> tuple[str, ...]:
    """The field names ``fields`` holds, checked against :data:`ALL_FIELDS`."""
    if isinstance(fields, (str, bytes)) or not isinstance(fields, Iterable):
        raise InvalidOptionError(
            f"fields must be a sequence of field names such as RULES_FIELDS, got {fields!r}"
        )
    names = tuple(fields)
    unknown = [f for f in names if f not in ALL_FIELDS]
    if unknown:
        raise InvalidOptionError(f"unknown fields {unknown}; choose from {list(ALL_FIELDS)}")
    return names


def _seed(value: object) -> int:
    """A seed: an int in ``0..2**64-1``, like every seed of the package."""
    return check_int("seed", value, 0, MAX_SEED)


def _require(obj: object, what: str, members: Iterable[str], kind: str) -> None:
    """Raises :class:`InvalidOptionError` if ``obj`` lacks one of ``members``."""
    for member in members:
        if not hasattr(obj, member):
            raise InvalidOptionError(
                f"{what} ({type(obj).__name__}) is not {kind}: it has no {member!r} "
                "(see cardtable.protocols)"
            )


def _check_game(game: object, what: str) -> None:
    """Raises :class:`InvalidOptionError` unless ``game`` has a ``new_state`` method."""
    if not callable(getattr(game, "new_state", None)):
        raise InvalidOptionError(
            f"{what} ({type(game).__name__}) is not a game: it has no new_state(seed) method "
            "(see cardtable.protocols.RulesGame)"
        )


def compare_states(
    a: RulesState,
    b: RulesState,
    players: int,
    fields: Sequence[str] = ALL_FIELDS,
    *,
    tensor_seats: Iterable[int] | None = None,
) -> list[str]:
    """Lists every difference between two states in the chosen ``fields`` (empty if none).

    Values compare as JSON-like data: tuples equal lists, NumPy scalars and arrays compare by their
    Python values, and ``True`` differs from ``1``. A member that raises is a difference (the line
    shows the exception).

    Args:
        a: One state.
        b: The other state.
        players: Number of seats (for ``observations``), at most :data:`MAX_PLAYERS`.
        fields: Any of :data:`ALL_FIELDS` (the default, which needs every member of
            :class:`~cardtable.protocols.StateProtocol`): ``current_player``, ``is_chance_node``,
            ``is_terminal``, ``legal_actions`` (sorted legal actions), ``chance_outcomes``
            (``{outcome: probability}`` in any order, probabilities within :data:`CHANCE_REL_TOL`
            or :data:`CHANCE_ABS_TOL`), ``scores``, ``winners``, ``to_dict`` (the canonical
            state), ``observations`` (every seat's ``observation(p)``), ``observation_tensors``
            (shape, dtype and every entry of ``observation_tensor(p)``, with ``-0.0`` equal to
            ``0.0`` and NaN to NaN, for the seats ``tensor_seats``, default every seat) and
            ``legal_action_mask``.
        tensor_seats: The seats whose observation tensors are compared (default: all), distinct
            ints in ``0..players-1``.

    Raises:
        InvalidOptionError: On an unknown field name, a bad ``players`` or ``tensor_seats``, or a
            state without a member that ``fields`` needs.
    """
    names = _fields(fields)
    seats = range(check_int("players", players, 0, MAX_PLAYERS))
    chosen = seats if tensor_seats is None else _seat_list(tensor_seats, seats)
    out: list[str] = []
    for name in names:
        if name == "observations":
            for p in seats:
                obs_a = _ask(a, "A", name, lambda s: s.observation(p))  # noqa: B023 - called now
                obs_b = _ask(b, "B", name, lambda s: s.observation(p))  # noqa: B023
                _report(f"observation({p})", obs_a, obs_b, out, _diff)
        elif name == "observation_tensors":
            for p in chosen:
                tensor_a = _ask(a, "A", name, lambda s: s.observation_tensor(p))  # noqa: B023
                tensor_b = _ask(b, "B", name, lambda s: s.observation_tensor(p))  # noqa: B023
                _report(f"observation_tensor({p})", tensor_a, tensor_b, out, _diff_arrays)
        else:
            get = _GETTERS[name]
            value_a, value_b = _ask(a, "A", name, get), _ask(b, "B", name, get)
            label = name + ("" if name in _PROPERTIES else "()")
            diff = {"chance_outcomes": _diff_chance, "legal_action_mask": _diff_arrays}
            _report(label, value_a, value_b, out, diff.get(name, _diff))
    return out


def _seat_list(seats: Iterable[int], valid: range) -> list[int]:
    """``tensor_seats`` as a list of distinct seats of ``valid``.

    Reading stops at the first bad item, so an endless or huge iterable is refused at once.
    """
    if isinstance(seats, (str, bytes)) or not isinstance(seats, Iterable):
        raise InvalidOptionError(f"tensor_seats must be an iterable of ints, got {seats!r}")
    out: list[int] = []
    for item in seats:
        seat = as_int(item)
        if seat is None or seat not in valid or seat in out:
            again = " twice" if seat in out else ""
            raise InvalidOptionError(
                f"tensor_seats must hold distinct int seats in 0..={len(valid) - 1} "
                f"(players={len(valid)}), got {item!r}{again}"
            )
        out.append(seat)
    return out


def _report(
    label: str, a: Any, b: Any, out: list[str], diff: Callable[[str, Any, Any, list[str]], None]
) -> None:
    """``diff`` of two answers, or one line if either side raised."""
    if isinstance(a, _Raised) or isinstance(b, _Raised):
        shown = [
            f"{side} {v!r}" if isinstance(v, _Raised) else f"{side} = {v!r}"
            for side, v in (("A", a), ("B", b))
        ]
        out.append(f"{label}: {', '.join(shown)}")
    else:
        diff(label, a, b, out)


def _diff_arrays(name: str, a: Any, b: Any, out: list[str]) -> None:
    """Reports arrays that differ in shape, dtype or any entry.

    Entries compare by value, except that NaN equals NaN at the same place (``-0.0`` equals
    ``0.0``); the line names the first differing flat indices.
    """
    try:
        x, y = np.asarray(a), np.asarray(b)
    except Exception as err:
        out.append(f"{name}: A = {a!r}, B = {b!r}, not both arrays ({err!r})")
        return
    if x.shape != y.shape or x.dtype != y.dtype:
        out.append(f"{name}: A has shape {x.shape} {x.dtype}, B has shape {y.shape} {y.dtype}")
        return
    try:
        differ = np.asarray(x != y, dtype=bool)
        if np.issubdtype(x.dtype, np.inexact):
            differ &= ~(np.isnan(x) & np.isnan(y))
        where = np.flatnonzero(differ.reshape(-1))
    except Exception as err:
        if not _same(x, y):
            out.append(f"{name}: A = {x.tolist()!r}, B = {y.tolist()!r} (not comparable: {err!r})")
        return
    if where.size:
        shown = where[:_SHOWN].tolist()
        flat_a, flat_b = x.reshape(-1), y.reshape(-1)
        out.append(
            f"{name}: {where.size} of {x.size} entries differ, first at flat indices {shown}: "
            f"A = {flat_a[shown].tolist()}, B = {flat_b[shown].tolist()}"
        )


def assert_same_state(
    a: RulesState,
    b: RulesState,
    players: int,
    fields: Sequence[str] = ALL_FIELDS,
    history: Sequence[int] | None = None,
    *,
    tensor_seats: Iterable[int] | None = None,
) -> None:
    """Raises :class:`DivergenceError` if :func:`compare_states` finds any difference.

    ``history`` (default: ``a.history``) is what the error reports as the reproduction.
    """
    differences = compare_states(a, b, players, fields, tensor_seats=tensor_seats)
    if differences:
        played = list(getattr(a, "history", [])) if history is None else list(history)
        raise DivergenceError(Divergence(played, differences))


def random_choices(seed: int) -> Iterator[int]:
    """An endless stream of choice indices from a seeded SplitMix64 (see :func:`assert_equivalent`).

    Each value is a 64-bit integer; the driver takes it modulo the number of legal actions.

    Raises:
        InvalidOptionError: Unless ``seed`` is an int in ``0..2**64-1``.
    """
    rng = SplitMix64(_seed(seed))

    def stream() -> Iterator[int]:
        while True:
            yield rng.next()

    return stream()


def choice_sequences(max_length: int = 2000) -> st.SearchStrategy[list[int]]:
    """Hypothesis strategy for choice sequences: each value picks ``legal[value % len(legal)]``.

    Shrinking makes sequences shorter and values smaller, which means earlier legal actions; see
    :func:`assert_equivalent` for how an exhausted sequence continues.

    Raises:
        InvalidOptionError: Unless ``max_length`` is an int ``>= 0``.
    """
    length = check_int("max_length", max_length, 0)
    return st.lists(st.integers(min_value=0, max_value=1023), max_size=length)


def _full_history(state: Any, chosen: list[int]) -> list[int]:
    """``state.history`` (every action and chance outcome), or ``chosen`` if it has none."""
    try:
        return [int(x) for x in state.history]
    except Exception:
        return list(chosen)


_NO_MORE: Any = object()
"""What :func:`assert_equivalent` reads once ``choices`` is exhausted: no choice value is it."""


def assert_equivalent(
    game_a: RulesGame,
    game_b: RulesGame,
    choices: Iterable[int],
    *,
    fields: Sequence[str] = ALL_FIELDS,
    max_steps: int = MAX_STEPS,
    seed: int | None = None,
) -> list[int]:
    """Plays the same game on two implementations and checks they agree after every step.

    Both start with ``new_state(seed)``. At each step the next value ``c`` of ``choices`` selects
    ``legal[c % len(legal)]`` (from ``game_a``'s legal actions) for a decision or an explicit chance
    node. Once ``choices`` is exhausted the game continues with the first legal action for
    :data:`FIRST_LEGAL_STEPS` steps (which shrinks well), then with seeded random choices (so it
    ends even in games that a fixed policy could loop in forever). After every step both states must
    agree on ``fields`` (see :func:`compare_states`); observation tensors are compared for every
    seat at the start and at the end, and for one seat per step in between, in turn (step ``i``:
    seat ``i mod players``), which keeps the check cheap while every seat is covered. An exception
    raised by either implementation (in ``new_state``, ``apply`` or any compared member) is a
    divergence too.

    Args:
        game_a: One implementation (e.g. ``cardtable.make(..., backend="reference")``).
        game_b: The other, with the same players and options.
        choices: Choice values (ints), e.g. from :func:`choice_sequences` or
            :func:`random_choices`.
        fields: What must agree: everything by default (right for our two backends, and needing
            every member of :class:`~cardtable.protocols.StateProtocol`); use :data:`RULES_FIELDS`
            for an implementation with its own state and observation formats.
        max_steps: Stop after this many steps even if the game is not over (default
            :data:`MAX_STEPS`).
        seed: Passed to both ``new_state`` calls (``None``: explicit chance nodes), an int in
            ``0..2**64-1``.

    Returns:
        The history played: every action and chance outcome (read from ``game_a``'s state, which
        with a ``seed`` includes the chance outcomes drawn inside ``new_state`` and ``apply``), so
        that it replays on ``new_state()`` without a seed.

    Raises:
        DivergenceError: At the first disagreement, with the history that reproduces it.
        InvalidOptionError: On a bad argument, or an implementation without a member that
            ``fields`` needs (the message names it).
    """
    names = _fields(fields)
    steps = check_int("max_steps", max_steps, 0)
    start = None if seed is None else _seed(seed)
    _check_game(game_a, "game_a")
    _check_game(game_b, "game_b")
    players = as_int(getattr(game_a, "players", None))
    if players is None or players < 1:
        raise InvalidOptionError(f"game_a.players must be an int >= 1, got {players!r}")
    if isinstance(choices, (str, bytes)) or not isinstance(choices, Iterable):
        raise InvalidOptionError(f"choices must be an iterable of ints, got {choices!r}")
    chosen: list[int] = []

    def played() -> list[int]:
        return chosen if start is None else _full_history(a, chosen)

    def diverge(history: list[int], line: str) -> DivergenceError:
        return DivergenceError(Divergence(list(history), [line], start))

    try:
        a = game_a.new_state(start)
    except Exception as err:
        raise diverge([], f"new_state({start}): A raises {err!r}") from err
    try:
        b = game_b.new_state(start)
    except Exception as err:
        raise diverge([], f"new_state({start}): A returns a state, B raises {err!r}") from err

    def ask_a(name: str) -> Any:
        value = _ask(a, "A", name, _GETTERS[name])
        if isinstance(value, _Raised):
            raise diverge(played(), f"{name}: A {value!r}") from value.error
        return value

    def check(seats: list[int] | None) -> None:
        differences = compare_states(a, b, players, names, tensor_seats=seats)
        if differences:
            raise DivergenceError(Divergence(list(played()), differences, start))

    check(None)
    it = iter(choices)
    fallback = SplitMix64(0x5EED)
    exhausted_at: int | None = None
    for step in range(steps):
        if ask_a("is_terminal"):
            break
        legal = list(ask_a("legal_actions"))
        if not legal:
            raise diverge(played(), "legal_actions(): A is not terminal but has no legal actions")
        choice = next(it, _NO_MORE)
        if choice is _NO_MORE:
            # First legal actions shrink best; random ones end games a fixed policy could loop in.
            exhausted_at = step if exhausted_at is None else exhausted_at
            choice = 0 if step - exhausted_at < FIRST_LEGAL_STEPS else fallback.next()
        index = as_int(choice)
        if index is None:
            raise InvalidOptionError(f"choices must be ints, got {choice!r}")
        action = legal[index % len(legal)]
        # With a seed, apply draws chance outcomes too: the history before it is A's own.
        before = None if start is None else _full_history(a, chosen)
        chosen.append(action)
        try:
            a.apply(action)
        except Exception as err:
            line = f"apply({action}): A raises {err!r}"
            raise diverge(chosen[:-1] if before is None else before, line) from err
        try:
            b.apply(action)
        except Exception as err:
            line = f"apply({action}): A accepts it, B raises {err!r}"
            raise diverge(chosen[:-1] if before is None else before, line) from err
        check(None if ask_a("is_terminal") else [step % players])
    return list(played())


def play_random(
    state: StateProtocol, seed: int, *, policy: Callable[[Sequence[int]], int] | None = None
) -> StateProtocol:
    """Plays ``state`` to the end with uniformly random legal actions (chance too, if explicit).

    The choice is ``legal[rng.below(len(legal))]`` with a SplitMix64 seeded with ``seed`` (an int
    in ``0..2**64-1``), exactly like the engine's built-in ``random`` bot.

    Raises:
        InvalidOptionError: On a bad ``seed`` or ``policy``, or a ``state`` that is not a state.
        InvalidStateError: If the state has no legal actions before its end, or does not end
            within :data:`MAX_STEPS` steps.
    """
    rng = SplitMix64(_seed(seed))
    if policy is not None and not callable(policy):
        raise InvalidOptionError(f"policy must be None or a callable, got {policy!r}")
    _require(state, "state", ("is_terminal", "legal_actions", "apply"), "a state")
    applied: list[int] = []
    while not state.is_terminal:
        if len(applied) == MAX_STEPS:
            raise _unfinished(state, "play_random")
        legal = _legal_here(state, applied, "the given state")
        action = policy(legal) if policy else legal[rng.below(len(legal))]
        state.apply(action)
        applied.append(action)
    return state


def _game_class(game_id: object) -> type[ReferenceGame[Any]]:
    """The reference class of a registered game id."""
    from cardtable import reference

    if not isinstance(game_id, str) or game_id not in reference.GAMES:
        raise InvalidOptionError(
            f"unknown game {game_id!r}; registered games: {', '.join(reference.GAMES)}"
        )
    return reference.GAMES[game_id]


def _valid_config(game_id: str, config: dict[str, Any]) -> bool:
    from cardtable import reference

    try:
        reference.make(game_id, **config)
    except InvalidOptionError:
        return False
    return True


def _option_values(spec: OptionSpec) -> st.SearchStrategy[Any]:
    """Values of an option: booleans either way, choices any, integers near the default or not."""
    if spec.kind == "bool":
        return st.booleans()
    if spec.kind == "str":
        return st.sampled_from(spec.choices)
    centre = spec.default if isinstance(spec.default, int) else 3
    near = st.integers(max(spec.low, centre - 8), min(spec.high, centre + 8))
    values: st.SearchStrategy[Any] = near | st.integers(spec.low, spec.high)
    return st.none() | values if spec.kind == "int | None" else values


def _option_domain(spec: OptionSpec) -> list[Any]:
    """The values of an option tried when looking for a configuration that accepts the pins."""
    if spec.kind == "bool":
        return [False, True]
    if spec.kind == "str":
        return list(spec.choices)
    values: list[Any] = list(range(spec.low, min(spec.high, spec.low + 255) + 1))
    return [None, *values] if spec.kind == "int | None" else values


def _check_pin(game_id: str, cls: type[ReferenceGame[Any]], name: str, value: Any) -> None:
    """Checks one fixed option alone against its declaration (type, bounds, choices)."""
    from cardtable.reference._options import OptionReader

    specs = {spec.name: spec for spec in cls.option_specs}
    if name not in specs:
        known = ", ".join(["players", *specs])
        raise InvalidOptionError(f"{game_id}: unknown option {name!r} (known: {known})")
    # Checks it (a value that is not JSON too), naming game and option.
    OptionReader(game_id, {name: value}, cls.option_specs)


def _bases(game_id: str, fixed: dict[str, Any]) -> dict[int, dict[str, Any]]:
    """A configuration the game accepts with the ``fixed`` keyword arguments, per player count.

    Each fixed option is checked alone first (the error names it); then, per player count, the
    other options at their defaults, or else one of them changed.
    """
    cls = _game_class(game_id)
    counts = list(range(cls.min_players, cls.max_players + 1))
    if "players" in fixed:
        players = as_int(fixed["players"])
        if players not in counts:
            raise InvalidOptionError(
                f"{game_id}: players must be in {cls.min_players}..={cls.max_players}, "
                f"got {fixed['players']!r}"
            )
        assert players is not None
        counts = [players]
    pins = {k: v for k, v in fixed.items() if k != "players"}
    for name, value in pins.items():
        _check_pin(game_id, cls, name, value)
    free = [spec for spec in cls.option_specs if spec.name not in pins]
    bases: dict[int, dict[str, Any]] = {}
    for players in counts:
        base = {"players": players, **pins}
        changed = ({**base, s.name: v} for s in free for v in _option_domain(s))
        found = next((c for c in chain([base], changed) if _valid_config(game_id, c)), None)
        if found is not None:
            bases[players] = found
    if not bases:
        from cardtable import reference

        try:
            reference.make(game_id, **{"players": counts[0], **pins})
            reason = ""
        except InvalidOptionError as err:
            reason = f" (e.g. {err})"
        raise InvalidOptionError(
            f"{game_id}: the fixed options {fixed} are refused with every player count, the other "
            f"options at their defaults or one of them changed{reason}"
        )
    return bases


_DEFAULT: Any = object()
"""A drawn option left out of the configuration (so at its default)."""


def game_configs(game_id: str, **fixed: Any) -> st.SearchStrategy[dict[str, Any]]:
    """Hypothesis strategy for valid ``make`` keyword arguments (``players`` included) of a game.

    Each option keeps its default or takes another value: booleans either way, choices any, and
    integers near the default or anywhere in the option's range. ``fixed`` keyword arguments
    (``players`` or options) are in every configuration. Only combinations the game accepts are
    generated, without filtering: a drawn configuration the game refuses falls back to a valid
    one, option by option. Needs no compiled extension.

    Raises:
        InvalidOptionError: On an unknown game, or fixed arguments the game refuses: an unknown
            option or a bad value (the message names it), or a combination that no player count
            accepts with the other options at their defaults or one of them changed.
    """
    bases = _bases(game_id, fixed)
    specs = [spec for spec in _game_class(game_id).option_specs if spec.name not in fixed]
    drawn = {spec.name: st.just(_DEFAULT) | _option_values(spec) for spec in specs}

    def setting(config: dict[str, Any], name: str, value: Any) -> dict[str, Any]:
        out = {k: v for k, v in config.items() if k != name}
        return out if value is _DEFAULT else {**out, name: value}

    @st.composite
    def configs(draw: st.DrawFn) -> dict[str, Any]:
        players = draw(st.sampled_from(sorted(bases)))
        values = {name: draw(strategy) for name, strategy in drawn.items()}
        whole = {"players": players, **{k: v for k, v in fixed.items() if k != "players"}}
        for name, value in values.items():
            whole = setting(whole, name, value)
        if _valid_config(game_id, whole):
            return whole
        # Refused: from the accepted base, take each drawn value that keeps it accepted.
        config = bases[players]
        for name, value in values.items():
            candidate = setting(config, name, value)
            if candidate != config and _valid_config(game_id, candidate):
                config = candidate
        return config

    return configs()


def reachable_states(game: GameProtocol, max_steps: int = 400) -> st.SearchStrategy[StateProtocol]:
    """Hypothesis strategy for states of ``game`` reached by up to ``max_steps`` chosen steps.

    Chance outcomes are chosen like actions, so any reachable state can come out.

    Raises:
        InvalidOptionError: If ``game`` is not a game or ``max_steps`` not an int ``>= 0``.
        InvalidStateError: When drawn, if a state that is not terminal has no legal actions.
    """
    _check_game(game, "game")
    most = check_int("max_steps", max_steps, 0)

    @st.composite
    def states(draw: st.DrawFn) -> StateProtocol:
        state = game.new_state()
        steps = draw(st.integers(0, most))
        applied: list[int] = []
        for _ in range(steps):
            if state.is_terminal:
                break
            legal = _legal_here(state, applied, "new_state()")
            applied.append(legal[draw(st.integers(0, len(legal) - 1))])
            state.apply(applied[-1])
        return state

    return states()


def perft(state: StateProtocol, depth: int) -> int:
    """The number of distinct sequences of ``depth`` steps from ``state``.

    Actions and chance outcomes both count as steps; a sequence that ends the game earlier counts
    once. Rust states count in Rust (all cores); any other state is explored by cloning.
    """
    native = getattr(state, "perft", None)
    if callable(native):
        result: int = native(depth)
        return result
    steps = check_int("depth", depth, 0, (1 << 32) - 1)
    _require(state, "perft's state", ("is_terminal", "legal_actions", "clone", "apply"), "a state")
    return _perft(state, steps)


def _perft(state: StateProtocol, depth: int) -> int:
    """:func:`perft` of a state without a native count, by cloning."""
    if depth == 0 or state.is_terminal:
        return 1
    total = 0
    for action in state.legal_actions():
        child = state.clone()
        child.apply(action)
        total += _perft(child, depth - 1)
    return total


_PLAYTHROUGH_STATE: tuple[str, ...] = ("history", "is_terminal", "legal_actions", "apply")
_PLAYTHROUGH_STATE += ("current_player", "action_label", "observation", "scores", "winners")
"""What :func:`playthrough` reads of a state."""


def playthrough(game: GameProtocol, seed: int) -> str:
    """A text record of the seeded game played with the ``random`` choice rule of ``play_random``.

    Every step lists the player to move, the legal actions with their labels, the observation of the
    player to move (at decisions), the scores and the action taken; any rule change shows up as a
    diff of this text (see ``make golden``). ``seed`` is an int in ``0..2**64-1``.

    Raises:
        InvalidOptionError: On a bad ``seed``, or a ``game`` or state lacking a member it reads.
        InvalidStateError: If the state has no legal actions before its end, or does not end
            within :data:`MAX_STEPS` steps.
    """
    import json

    seed = _seed(seed)
    _check_game(game, "game")
    _require(game, "game", ("game_id", "players", "options"), "a GameProtocol game")
    state = game.new_state(seed=seed)
    _require(state, "its state", _PLAYTHROUGH_STATE, "a StateProtocol state")
    rng = SplitMix64(seed)
    lines = [
        f"game: {game.game_id}",
        f"players: {game.players}",
        f"options: {json.dumps(game.options, sort_keys=True)}",
        f"seed: {seed}",
        f"history at start: {state.history}",
    ]
    step = 0
    while not state.is_terminal:
        if step == MAX_STEPS:
            raise _unfinished(state, "playthrough")
        legal = _legal_here(state, state.history, f"new_state() (its history, seed {seed})")
        player = state.current_player
        lines.append(f"-- step {step}: player {player}")
        lines.append("legal: " + ", ".join(f"{a}={state.action_label(a)}" for a in legal))
        lines.append("observation: " + json.dumps(state.observation(player), sort_keys=True))
        lines.append(f"scores: {state.scores}")
        action = legal[rng.below(len(legal))]
        before = len(state.history)
        state.apply(action)
        lines.append(f"apply: {action} ({state.history[before + 1 :] or 'no chance'})")
        step += 1
    lines.append("-- terminal")
    for p in range(game.players):
        lines.append(f"observation {p}: {json.dumps(state.observation(p), sort_keys=True)}")
    lines.append(f"scores: {state.scores}")
    lines.append(f"winners: {state.winners}")
    return "\n".join(lines) + "\n"


def _qualified_name(obj: object) -> str:
    """A name of a callable that is stable across runs: module and qualified name.

    Lambdas and local functions add their first line (so that two in a module differ); a
    ``functools.partial`` names its function; another callable object names its class.
    """
    name = getattr(obj, "__qualname__", None)
    if not isinstance(name, str):
        inner = getattr(obj, "func", None)
        if callable(inner) and inner is not obj:
            return f"partial({_qualified_name(inner)})"
        return f"{_qualified_name(type(obj))}()"
    module = getattr(obj, "__module__", None) or "?"
    code = getattr(obj, "__code__", None)
    line = f":{code.co_firstlineno}" if "<" in name and code is not None else ""
    return f"{module}.{name}{line}"


class _KeyedDatabase(ExampleDatabase):
    """The example database of one test: another database, each key prefixed with the test's own.

    Hypothesis keys its database by a digest of the test function, which is the same for every
    test :func:`equivalence_test` builds; the prefix (a digest of a description of the test) keeps
    each test's examples apart in the one database the user configured.

    Args:
        wrapped: The database that holds the examples.
        key: What tells this test from the others.
    """

    def __init__(self, wrapped: ExampleDatabase, key: str) -> None:
        super().__init__()
        self.wrapped = wrapped
        self.key = key
        self._prefix = hashlib.sha256(key.encode()).digest()  # fixed length: keys stay apart

    def __repr__(self) -> str:
        return f"{type(self).__name__}({self.wrapped!r}, {self.key!r})"

    def save(self, key: bytes, value: bytes) -> None:
        """Saves ``value`` under this test's ``key``."""
        self.wrapped.save(self._prefix + key, value)

    def fetch(self, key: bytes) -> Iterable[bytes]:
        """The values saved under this test's ``key``."""
        return self.wrapped.fetch(self._prefix + key)

    def delete(self, key: bytes, value: bytes) -> None:
        """Removes ``value`` from this test's ``key``."""
        self.wrapped.delete(self._prefix + key, value)

    def move(self, src: bytes, dest: bytes, value: bytes) -> None:
        """Moves ``value`` from this test's ``src`` to its ``dest``."""
        self.wrapped.move(self._prefix + src, self._prefix + dest, value)

    def _start_listening(self) -> None:
        self.wrapped.add_listener(self._forward)

    def _stop_listening(self) -> None:
        self.wrapped.remove_listener(self._forward)

    def _forward(self, event: ListenerEventT) -> None:
        """Passes on a change of the wrapped database under this test's keys, without the prefix."""
        size = len(self._prefix)
        if event[0] == "save":
            key, value = event[1]
            if key.startswith(self._prefix):
                self._broadcast_change(("save", (key[size:], value)))
        else:
            key, maybe = event[1]
            if key.startswith(self._prefix):
                self._broadcast_change(("delete", (key[size:], maybe)))


def equivalence_test(
    game_id: str,
    factory: Callable[..., RulesGame],
    *,
    reference_backend: str = "rust",
    fields: Sequence[str] = RULES_FIELDS,
    max_examples: int | None = None,
    **fixed: Any,
) -> Callable[[], None]:
    """Builds a Hypothesis test that your implementation of ``game_id`` follows our rules.

    ``factory(**config)`` must return your game for the ``make`` keyword arguments ``config``
    (``players`` and options). Hypothesis draws configurations (``fixed`` keyword arguments pin
    some) and choice sequences; the test fails with the shrunk first divergence::

        from cardtable.testing import equivalence_test
        test_my_tide = equivalence_test("turn_the_tide", MyTurnTheTide)

    Every test built here has keys of its own in the example database of the active Hypothesis
    profile (none if that is ``None``), made of the game, the factory's qualified name, the
    backend, the fields and the fixed arguments: one test's saved failure is replayed by that
    test, never erased by another. The test comes with a Hypothesis ``settings`` object for this
    (and ``max_examples``), and Hypothesis allows one per test: choose other settings (a deadline,
    the phases, another database) in a settings profile, as for any test.

    Args:
        game_id: The registered game.
        factory: Creates your implementation from ``make`` keyword arguments.
        reference_backend: Our backend to compare against (``"rust"`` or ``"reference"``).
        fields: What must agree after every step (default :data:`RULES_FIELDS`; use
            :data:`ALL_FIELDS` if your implementation also reproduces our observation and state
            formats).
        max_examples: Hypothesis examples, an int ``>= 1`` (default: the active profile's).
        **fixed: Keyword arguments held fixed, e.g. ``players=4``.

    Raises:
        InvalidOptionError: At once, on an unknown game, a fixed argument the game refuses (see
            :func:`game_configs`), a factory that is not callable, an unknown backend, bad
            ``fields`` or ``max_examples``.
    """
    from hypothesis import given, settings

    import cardtable

    configs = game_configs(game_id, **fixed)
    if not callable(factory):
        raise InvalidOptionError(f"factory must be a callable returning a game, got {factory!r}")
    if reference_backend not in ("rust", "reference"):
        raise InvalidOptionError(
            f"reference_backend must be 'rust' or 'reference', got {reference_backend!r}"
        )
    names = _fields(fields)
    examples = max_examples if max_examples is not None else DEFAULT_MAX_EXAMPLES
    if examples is not None:
        examples = check_int("max_examples", examples, 1)

    @given(config=configs, choices=choice_sequences())
    def test(config: dict[str, Any], choices: list[int]) -> None:
        ours = cardtable.make(game_id, backend=reference_backend, **config)  # type: ignore[arg-type]
        call = f"factory(**{config!r})"
        try:
            theirs = factory(**config)
        except Exception as err:
            line = f"{call} raises {err!r} (our make accepts these arguments)"
            raise DivergenceError(Divergence([], [line])) from err
        _check_game(theirs, f"the result of {call}")
        assert_equivalent(ours, theirs, choices, fields=names)

    pinned = sorted(fixed.items())
    key = (
        f"cardtable.testing.equivalence_test({game_id!r}, {_qualified_name(factory)}, "
        f"reference_backend={reference_backend!r}, fields={names!r}, fixed={pinned!r})"
    )
    profile = settings()  # the active profile, as @given has just taken it
    database = None if profile.database is None else _KeyedDatabase(profile.database, key)
    chosen = profile.max_examples if examples is None else examples
    test = settings(profile, max_examples=chosen, database=database)(test)
    test.__name__ = test.__qualname__ = f"test_{game_id}_equivalence"
    return test
