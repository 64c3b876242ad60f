"""How two states of the rules are compared, field by field (the core of cardtable.testing).

The fields (:data:`ALL_FIELDS`), how each is read from a state and what counts as the same, the
differences in words, and the divergence they make: a leaf of the test kit, which re-exports the
public names (use them from :mod:`cardtable.testing`). Must not: draw examples or play games.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from cardtable._inputs import MAX_SEED, as_int, check_int, shown
from cardtable.errors import InvalidOptionError
from cardtable.protocols import RULES_FIELDS, RulesState


@dataclass
class Divergence:
    """The first point where two implementations disagree.

    Attributes:
        history: Every action and chance outcome applied to both before they disagreed. It replays
            on ``new_state()`` without a seed, also after a seeded start: it is then the first
            implementation's ``history``, with the chance outcomes that the seed drew (the
            differences show the second one's history where it differs).
        differences: One line per differing field, with both values (or the exception raised).
        seed: The seed given to both ``new_state`` calls (``None``: explicit chance nodes).
        game_id: The game played, if known (shown with ``config`` so that the message reproduces
            the divergence on its own).
        config: The ``make`` keyword arguments of the game (``players`` and options), if known.
        labels: The names of the two implementations in ``differences`` (``equivalence_test``:
            ``("cardtable", "yours")``).
    """

    history: list[int]
    differences: list[str] = field(default_factory=list)
    seed: int | None = None
    game_id: str | None = None
    config: dict[str, Any] | None = None
    labels: tuple[str, str] = ("A", "B")

    def __str__(self) -> str:
        where = ""
        if self.game_id is not None:
            arguments = ", ".join(f"{k}={shown(v)}" for k, v in (self.config or {}).items())
            where = f" on {self.game_id}" + (f" with {arguments}" if arguments else "")
        if self.seed is None:
            head = f"implementations diverge{where} after history {self.history}:"
        else:  # the history is the first one's, with the chance outcomes the seed drew
            head = (
                f"implementations diverge{where} from new_state({self.seed}) after "
                f"{self.labels[0]}'s history {self.history} (its chance outcomes included: it "
                "replays on new_state() without a seed):"
            )
        return "\n".join([head, *(f"  {d}" for d in self.differences)])


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


_Sides = tuple[str, str]
"""The names of the two implementations in difference lines (``("A", "B")`` by default)."""

_AB: _Sides = ("A", "B")


@dataclass(frozen=True)
class _Wording:
    """How :func:`_walk` words a difference.

    Each field is given the label of the place: a key only in the second value, a key only in
    the first, and two values that differ.
    """

    only_second: Callable[[str, Any], str]
    only_first: Callable[[str, Any], str]
    differ: Callable[[str, Any, Any], str]


def _walk(name: str, a: Any, b: Any, out: list[str], wording: _Wording) -> None:
    """One line per difference between ``a`` and ``b``.

    Mappings are walked key by key (``name[key]``); other values are compared in
    :func:`_canonical` form.
    """
    if isinstance(a, Mapping) and isinstance(b, Mapping):
        for key in sorted(set(a) | set(b), key=str):
            label = f"{name}[{shown(key)}]"
            if key not in a:
                out.append(wording.only_second(label, b[key]))
            elif key not in b:
                out.append(wording.only_first(label, a[key]))
            else:
                _walk(label, a[key], b[key], out, wording)
    elif not _same(a, b):
        out.append(wording.differ(name, a, b))


def _diff(name: str, a: Any, b: Any, out: list[str], sides: _Sides = _AB) -> None:
    """The difference lines of two implementations' values (``sides`` names them)."""
    first, second = sides
    wording = _Wording(
        only_second=lambda label, v: f"{label}: missing in {first}, {second} has {shown(v)}",
        only_first=lambda label, v: f"{label}: {first} has {shown(v)}, missing in {second}",
        differ=lambda label, x, y: f"{label}: {first} = {shown(x)}, {second} = {shown(y)}",
    )
    _walk(name, a, b, out, wording)


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
            return f"{shown(pair)} is not an (outcome, probability) pair"
        outcome, probability = as_int(parts[0]), parts[1]
        if isinstance(probability, np.generic):
            probability = probability.item()
        if outcome is None or isinstance(probability, bool):
            return f"{shown(pair)} is not an (outcome, probability) pair"
        if not isinstance(probability, (int, float)):
            return f"{shown(pair)} is not an (outcome, probability) pair"
        if outcome in result:
            return f"outcome {outcome} is listed twice"
        result[outcome] = float(probability)
    return result


def _diff_chance(name: str, a: Any, b: Any, out: list[str], sides: _Sides = _AB) -> None:
    """Reports chance outcomes that differ as ``{outcome: probability}`` (order aside).

    Probabilities agree within :data:`CHANCE_REL_TOL` and :data:`CHANCE_ABS_TOL`.
    """
    first, second = sides
    map_a, map_b = _outcome_map(a), _outcome_map(b)
    if isinstance(map_a, str) or isinstance(map_b, str):
        if not _same(a, b):
            why = "; ".join(
                f"{s}: {m}" for s, m in ((first, map_a), (second, map_b)) if isinstance(m, str)
            )
            out.append(f"{name}: {first} = {shown(a)}, {second} = {shown(b)} ({why})")
        return
    entries = []
    for outcome in sorted(set(map_a) | set(map_b)):
        if outcome not in map_b:
            entries.append(
                f"outcome {outcome} has p={shown(map_a[outcome])} in {first}, "
                f"is missing in {second}"
            )
        elif outcome not in map_a:
            entries.append(
                f"outcome {outcome} is missing in {first}, "
                f"has p={shown(map_b[outcome])} in {second}"
            )
        elif not math.isclose(
            map_a[outcome], map_b[outcome], rel_tol=CHANCE_REL_TOL, abs_tol=CHANCE_ABS_TOL
        ):
            entries.append(
                f"outcome {outcome}: {first} has p={shown(map_a[outcome])}, "
                f"{second} p={shown(map_b[outcome])}"
            )
    if entries:
        more = f"; and {len(entries) - _SHOWN} more" if len(entries) > _SHOWN else ""
        out.append(f"{name}: " + "; ".join(entries[:_SHOWN]) + more)


ALL_FIELDS: tuple[str, ...] = (
    "current_player",
    "is_chance_node",
    "is_terminal",
    "legal_actions",
    "chance_outcomes",
    "scores",
    "winners",
    "history",
    "to_dict",
    "observations",
    "observation_tensors",
    "legal_action_mask",
)
"""Everything :func:`compare_states` can compare (its default, and :func:`assert_equivalent`'s:
right for our two backends; an implementation with formats of its own uses :data:`RULES_FIELDS`)."""


def _sorted_seats(value: Any) -> Any:
    """``winners`` as a sorted list, if it is a list of ints (else as it is, to be reported)."""
    seats = _canonical(value)
    if isinstance(seats, list) and all(type(seat) is int for seat in seats):
        return sorted(seats)
    return value


_GETTERS: dict[str, Callable[[Any], Any]] = {
    "current_player": lambda s: s.current_player,
    "is_chance_node": lambda s: s.is_chance_node,
    "is_terminal": lambda s: s.is_terminal,
    "legal_actions": lambda s: s.legal_actions(),
    "chance_outcomes": lambda s: s.chance_outcomes(),
    "scores": lambda s: s.scores,
    "winners": lambda s: _sorted_seats(s.winners),
    "history": lambda s: s.history,
    "to_dict": lambda s: s.to_dict(),
    "legal_action_mask": lambda s: s.legal_action_mask(),
}

_PROPERTIES = ("current_player", "is_chance_node", "is_terminal", "scores", "winners", "history")
"""The fields read as properties (the others are method calls)."""

_MEMBERS = {"observations": "observation", "observation_tensors": "observation_tensor"}
"""The state member each field reads, where its name differs from the field's."""


class _Raised:
    """What a state's member raised instead of answering."""

    __slots__ = ("error",)

    def __init__(self, error: Exception) -> None:
        self.error = error

    def __repr__(self) -> str:
        return f"raises {shown(self.error)}"


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
                f"the state of implementation {side} ({type(state).__name__}) has no "
                f"{shown(member)}, which the field {shown(name)} needs: {hint}"
            ) from None
        return _Raised(err)
    except Exception as err:
        return _Raised(err)


def _fields(fields: object) -> tuple[str, ...]:
    """The field names ``fields`` holds, checked against :data:`ALL_FIELDS`."""
    if isinstance(fields, (str, bytes)) or not isinstance(fields, Iterable):
        raise InvalidOptionError(
            f"fields must be a sequence of field names such as RULES_FIELDS, got {shown(fields)}"
        )
    names = tuple(fields)
    unknown = [f for f in names if f not in ALL_FIELDS]
    if unknown:
        raise InvalidOptionError(
            f"unknown fields {', '.join(map(shown, unknown))}; choose from {', '.join(ALL_FIELDS)}"
        )
    return names


def _seed(value: object) -> int:
    """A seed: an int in ``0..2**64-1``, like every seed of the package."""
    return check_int("seed", value, 0, MAX_SEED)


def _require(obj: object, what: str, members: Iterable[str], kind: str) -> None:
    """Raises :class:`InvalidOptionError` if ``obj`` lacks one of ``members``."""
    for member in members:
        if not hasattr(obj, member):
            raise InvalidOptionError(
                f"{what} ({type(obj).__name__}) is not {kind}: it has no {shown(member)} "
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
    labels: Sequence[str] = _AB,
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
            or :data:`CHANCE_ABS_TOL`), ``scores``, ``winners`` (as sorted lists: the order of
            the seats does not matter), ``history`` (every action and chance outcome applied),
            ``to_dict`` (the canonical state), ``observations`` (every seat's
            ``observation(p)``), ``observation_tensors`` (shape, dtype and every entry of
            ``observation_tensor(p)``, with ``-0.0`` equal to ``0.0`` and NaN to NaN, for the
            seats ``tensor_seats``, default every seat) and ``legal_action_mask``.
        tensor_seats: The seats whose observation tensors are compared (default: all), distinct
            ints in ``0..players-1``.
        labels: The names of ``a`` and ``b`` in the difference lines, two distinct strings
            (default ``("A", "B")``).

    Raises:
        InvalidOptionError: On an unknown field name, a bad ``players``, ``tensor_seats`` or
            ``labels``, or a state without a member that ``fields`` needs.
    """
    names = _fields(fields)
    sides = _labels(labels)
    seats = range(check_int("players", players, 0, MAX_PLAYERS))
    chosen = seats if tensor_seats is None else _seat_list(tensor_seats, seats)
    return _compare(a, b, names, seats, chosen, sides)


_KINDS = {"chance_outcomes": "chance", "legal_action_mask": "array", "legal_actions": "actions"}
"""How a field's value differs from another's, when it is not a plain value (:data:`_DIFFS`)."""


def _read_field(
    state: Any, side: str, name: str, seats: Iterable[int], chosen: Iterable[int]
) -> list[tuple[str, str, Any]]:
    """What :func:`compare_states` reads of ``state`` for the field ``name``.

    One ``(label, kind, answer)`` per value (per seat of ``seats`` for observations, of ``chosen``
    for tensors); the kind picks the diff in :data:`_DIFFS`.
    """
    if name == "observations":
        return [
            (f"observation({p})", "", _ask(state, side, name, lambda s: s.observation(p)))  # noqa: B023 - called now
            for p in seats
        ]
    if name == "observation_tensors":
        return [
            (
                f"observation_tensor({p})",
                "array",
                _ask(state, side, name, lambda s: s.observation_tensor(p)),  # noqa: B023
            )
            for p in chosen
        ]
    label = name + ("" if name in _PROPERTIES else "()")
    return [(label, _KINDS.get(name, ""), _ask(state, side, name, _GETTERS[name]))]


def _compare(
    a: Any, b: Any, names: Sequence[str], seats: Iterable[int], chosen: Iterable[int], sides: _Sides
) -> list[str]:
    """:func:`compare_states` with its arguments checked (``chosen``: the tensor seats)."""
    first, second = sides
    seats, chosen = list(seats), list(chosen)
    out: list[str] = []
    for name in names:
        read_a = _read_field(a, first, name, seats, chosen)
        read_b = _read_field(b, second, name, seats, chosen)
        for (label, kind, value_a), (_, _, value_b) in zip(read_a, read_b, strict=True):
            _report(label, value_a, value_b, out, _DIFFS[kind], sides)
    return out


def _labels(labels: object) -> _Sides:
    """``labels`` as two distinct non-empty strings."""
    if isinstance(labels, (list, tuple)) and len(labels) == 2:
        first, second = labels
        named = isinstance(first, str) and isinstance(second, str) and first and second
        if named and second != first:
            return first, second
    raise InvalidOptionError(
        f"labels must be two distinct non-empty strings, such as ('A', 'B'), got {shown(labels)}"
    )


def _seat_list(seats: Iterable[int], valid: range) -> list[int]:
    """``tensor_seats`` as a list of distinct seats of ``valid``.

    Reading stops at the first bad item, so an endless or huge iterable is refused at once.
    """
    if isinstance(seats, (str, bytes)) or not isinstance(seats, Iterable):
        raise InvalidOptionError(f"tensor_seats must be an iterable of ints, got {shown(seats)}")
    out: list[int] = []
    for item in seats:
        seat = as_int(item)
        if seat is None or seat not in valid or seat in out:
            again = " twice" if seat in out else ""
            raise InvalidOptionError(
                f"tensor_seats must hold distinct int seats in 0..={len(valid) - 1} "
                f"(players={len(valid)}), got {shown(item)}{again}"
            )
        out.append(seat)
    return out


def _report(
    label: str,
    a: Any,
    b: Any,
    out: list[str],
    diff: Callable[[str, Any, Any, list[str], _Sides], None],
    sides: _Sides = _AB,
) -> None:
    """``diff`` of two answers, or one line if either side raised."""
    if isinstance(a, _Raised) or isinstance(b, _Raised):
        answers = [
            f"{side} {shown(v)}" if isinstance(v, _Raised) else f"{side} = {shown(v)}"
            for side, v in zip(sides, (a, b), strict=True)
        ]
        out.append(f"{label}: {', '.join(answers)}")
    else:
        diff(label, a, b, out, sides)


def _diff_arrays(name: str, a: Any, b: Any, out: list[str], sides: _Sides = _AB) -> None:
    """Reports arrays that differ in shape, dtype or any entry.

    Entries compare by value, except that NaN equals NaN at the same place (``-0.0`` equals
    ``0.0``); the line names the first differing flat indices.
    """
    first, second = sides
    try:
        x, y = np.asarray(a), np.asarray(b)
    except Exception as err:
        out.append(
            f"{name}: {first} = {shown(a)}, {second} = {shown(b)}, not both arrays ({shown(err)})"
        )
        return
    if x.shape != y.shape or x.dtype != y.dtype:
        out.append(
            f"{name}: {first} has shape {x.shape} {x.dtype}, {second} has shape {y.shape} {y.dtype}"
        )
        return
    try:
        differ = np.asarray(x != y, dtype=bool)
        if np.issubdtype(x.dtype, np.inexact):
            differ &= ~(np.isnan(x) & np.isnan(y))
        where = np.flatnonzero(differ.reshape(-1))
    except Exception as err:
        if not _same(x, y):
            out.append(
                f"{name}: {first} = {x.tolist()!r}, {second} = {y.tolist()!r} "
                f"(not comparable: {shown(err)})"
            )
        return
    if where.size:
        first_differing = where[:_SHOWN].tolist()
        flat_a, flat_b = x.reshape(-1), y.reshape(-1)
        out.append(
            f"{name}: {where.size} of {x.size} entries differ, first at flat indices "
            f"{first_differing}: {first} = {flat_a[first_differing].tolist()}, "
            f"{second} = {flat_b[first_differing].tolist()}"
        )


def _diff_actions(name: str, a: Any, b: Any, out: list[str], sides: _Sides = _AB) -> None:
    """Reports legal actions that differ, with the actions only one side lists.

    ``legal_actions(): A = [0, 1, 2], B = [1, 2, 3] (only in A: [0]; only in B: [3])``.
    """
    before = len(out)
    _diff(name, a, b, out, sides)
    if len(out) > before:
        out[-1] += _only_in(a, b, sides)


def _action_key(action: Any) -> Any:
    """``action`` in :func:`_canonical` form, hashable (``True`` and ``1`` stay apart)."""
    canonical = _canonical(action)
    try:
        hash(canonical)
    except TypeError:  # a list or a dict: compared by its text
        return ("unhashable", repr(canonical))
    return canonical


def _shown_actions(actions: list[Any]) -> str:
    return repr(_canonical(actions))


def _only_in(
    a: Any, b: Any, sides: _Sides, show: Callable[[list[Any]], str] = _shown_actions
) -> str:
    """What tells two lists of legal actions apart: the actions only one of them holds.

    The end of a difference line, for :func:`compare_states` and the conformance reports:
    ``" (only in A: [0]; only in B: [3])"`` (each action once, in its list's order, shown by
    ``show``), or ``" (the same actions, reordered or repeated)"`` when both hold the same ones.
    Empty unless both are sequences of actions (not strings or mappings).

    Args:
        a: The first side's actions.
        b: The second side's.
        sides: The names of the two sides.
        show: Writes a list of actions (default: its :func:`_canonical` form's ``repr``).
    """
    if any(isinstance(v, (str, bytes, Mapping)) for v in (a, b)):
        return ""
    try:
        first, second = list(a), list(b)
        keys_a, keys_b = [_action_key(x) for x in first], [_action_key(x) for x in second]
    except Exception:  # not lists of actions: the difference line says enough
        return ""
    set_a, set_b = set(keys_a), set(keys_b)
    parts = []
    for side, values, keys, others in (
        (sides[0], first, keys_a, set_b),
        (sides[1], second, keys_b, set_a),
    ):
        only = {key: value for key, value in zip(keys, values, strict=True) if key not in others}
        if only:
            parts.append(f"only in {side}: {show(list(only.values()))}")
    if not parts:
        return " (the same actions, reordered or repeated)"
    return f" ({'; '.join(parts)})"


def _reference_game(
    reference: Callable[..., Any], name: str, game_id: str, config: Mapping[str, Any]
) -> Any:
    """The game that a reference makes from ``config``, checked to be a game of ``game_id``.

    A reference (``equivalence_test(reference=...)``, ``cardtable conformance --reference``) is
    compared instead of our game: it makes the game from the same ``make`` keyword arguments
    (``players`` and the options), and the game must say it is one of ``game_id`` (its
    ``game_id``, as our games and their subclasses do), so that a reference of another game is
    refused instead of compared.

    Args:
        reference: The class or factory.
        name: Its name in messages.
        game_id: The game it stands for.
        config: The ``make`` keyword arguments.

    Raises:
        InvalidOptionError: If ``reference`` raises (it refuses ``config``), or returns something
            that is not a game of ``game_id`` (no ``new_state()``, another ``game_id`` or none).
    """
    arguments = ", ".join(f"{key}={shown(value)}" for key, value in config.items())
    call = f"{name}({arguments})"
    try:
        game = reference(**config)
    except Exception as err:
        raise InvalidOptionError(
            f"the reference refuses {call}: {type(err).__name__}: {err} (it must take the make "
            f"arguments of {game_id}: players and its options)"
        ) from err
    found = getattr(game, "game_id", None)
    if not callable(getattr(game, "new_state", None)):
        got = f"{type(game).__name__}, which has no new_state()"
    elif found != game_id:
        got = f"a game with game_id {shown(found)}"
    else:
        return game
    raise InvalidOptionError(
        f"{call} must return a game of {game_id} (with game_id {shown(game_id)} and "
        f"new_state(), as cardtable's games), got {got}"
    )


_DIFFS: dict[str, Callable[[str, Any, Any, list[str], _Sides], None]] = {
    "": _diff,
    "actions": _diff_actions,
    "chance": _diff_chance,
    "array": _diff_arrays,
}
"""The diff of each kind of field value (:func:`_read_field`)."""


def assert_same_state(
    a: RulesState,
    b: RulesState,
    players: int,
    fields: Sequence[str] = ALL_FIELDS,
    history: Sequence[int] | None = None,
    *,
    tensor_seats: Iterable[int] | None = None,
    labels: Sequence[str] = _AB,
) -> None:
    """Raises :class:`DivergenceError` if :func:`compare_states` finds any difference.

    ``history`` (default: ``a.history``) is what the error reports as the reproduction; the other
    arguments are those of :func:`compare_states`.
    """
    differences = compare_states(a, b, players, fields, tensor_seats=tensor_seats, labels=labels)
    if differences:
        played = list(getattr(a, "history", [])) if history is None else list(history)
        raise DivergenceError(Divergence(played, differences, labels=_labels(labels)))
