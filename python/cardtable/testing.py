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

import copy
import hashlib
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from itertools import chain
from typing import TYPE_CHECKING, Any

from cardtable._extras import require

require("hypothesis", "testing", "cardtable.testing")

from hypothesis import strategies as st
from hypothesis.database import ExampleDatabase

from cardtable._inputs import MAX_SEED, as_int, check_int, is_choice, shown
from cardtable._rng import SplitMix64
from cardtable._state_compare import (
    _AB,
    _GETTERS,
    ALL_FIELDS,
    CHANCE_ABS_TOL,
    CHANCE_REL_TOL,
    MAX_PLAYERS,
    Divergence,
    DivergenceError,
    _ask,
    _canonical,
    _check_game,
    _compare,
    _diff_arrays,
    _diff_chance,
    _fields,
    _labels,
    _Raised,
    _read_field,
    _reference_game,
    _require,
    _same,
    _seed,
    _Sides,
    _walk,
    _Wording,
    assert_same_state,
    compare_states,
)
from cardtable.errors import IllegalActionError, InvalidOptionError, InvalidStateError
from cardtable.protocols import RULES_FIELDS, GameProtocol, RulesGame, StateProtocol

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
    "SplitMix64",
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
    labels: Sequence[str] = _AB,
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

    With a ``seed``, chance outcomes are drawn inside ``new_state`` and ``apply``, so both
    ``history`` members are compared too (as lists of ints; skipped if either state has no
    ``history``): an implementation that draws other chance outcomes from the same seed diverges
    there, with both histories shown.

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
        labels: The names of ``game_a`` and ``game_b`` in the report (default ``("A", "B")``).

    Returns:
        The history played: every action and chance outcome (read from ``game_a``'s state, which
        with a ``seed`` includes the chance outcomes drawn inside ``new_state`` and ``apply``), so
        that it replays on ``new_state()`` without a seed.

    Raises:
        DivergenceError: At the first disagreement, with the history that reproduces it and, if
            ``game_a`` (or else ``game_b``) has a ``game_id``, the game's players and options.
        InvalidOptionError: On a bad argument, or an implementation without a member that
            ``fields`` needs (the message names it).
    """
    names = _fields(fields)
    steps = check_int("max_steps", max_steps, 0)
    start = None if seed is None else _seed(seed)
    sides = _labels(labels)
    _check_game(game_a, "game_a")
    _check_game(game_b, "game_b")
    game_id, config = _game_of(game_a)
    if game_id is None:
        game_id, config = _game_of(game_b)
    run = _Run(game_a, game_b, names, start, sides, game_id, config)
    return run.play(choices, steps, None)


def _game_of(game: object) -> tuple[str | None, dict[str, Any] | None]:
    """A game's id and ``make`` keyword arguments (players and options), where it has them."""
    game_id = getattr(game, "game_id", None)
    if not isinstance(game_id, str):
        return None, None
    config: dict[str, Any] = {"players": getattr(game, "players", None)}
    options = getattr(game, "options", None)
    if isinstance(options, Mapping):
        config.update(options)
    return game_id, config


@dataclass(frozen=True)
class _Probes:
    """What :func:`equivalence_test` checks beyond the compared fields, and where.

    A probe whose step the game does not reach is made at its last state (the end, usually).

    Attributes:
        illegal_at: The step before which an action that is not legal is tried on both states.
        illegal_pick: Which one, among the ids ``0..num_actions-1`` that are not legal, then
            ``-1`` and ``num_actions`` (modulo their number: 0, the smallest, shrinks best).
        clone_at: The step before which both states are cloned (if the second one's state has a
            ``clone`` method).
        clone_choices: The choice values of the steps then played on both clones, one per step.
    """

    illegal_at: int
    illegal_pick: int
    clone_at: int
    clone_choices: tuple[int, ...]


_CLONE_STEPS = 12
"""The most steps :func:`equivalence_test` plays on the clones of a probe."""


def _probes() -> st.SearchStrategy[_Probes | None]:
    """The drawn probes of an example (early steps often: short games reach them too).

    ``None`` (no probes, a quarter of the examples) comes first: a divergence that needs no
    probe shrinks in one step past all of their choices.
    """
    step = st.integers(0, 15) | st.integers(0, 255)
    clone_choices = st.lists(st.integers(0, 1023), max_size=_CLONE_STEPS).map(tuple)
    probes = st.builds(_Probes, step, st.integers(0, 1023), step, clone_choices)
    return st.one_of(st.none(), probes, probes, probes)


_Snapshot = dict[str, tuple[str, Any]]
"""A state's compared fields at one moment: per field, its kind and a copy of its value."""


def _copy(value: Any) -> Any:
    """A deep copy of a field's value (its :func:`_canonical` form if it cannot be copied)."""
    try:
        return copy.deepcopy(value)
    except Exception:
        return _canonical(value)


def _snapshot(state: Any, side: str, names: Sequence[str], players: int) -> _Snapshot:
    """What :func:`compare_states` would read of ``state`` in ``names``, copied."""
    seats = range(players)
    return {
        label: (kind, _copy(value))
        for name in names
        for label, kind, value in _read_field(state, side, name, seats, seats)
    }


def _short(value: Any) -> str:
    """``repr(value)``, cut after a few hundred characters."""
    text = repr(value)
    return text if len(text) <= 300 else text[:300] + "..."


_CHANGES = _Wording(
    only_second=lambda label, v: f"{label} appeared: {_short(v)}",
    only_first=lambda label, v: f"{label} disappeared (it was {_short(v)})",
    differ=lambda label, old, new: f"{label} changed from {_short(old)} to {_short(new)}",
)
"""How :func:`_changes` words what a step on a clone changed in the original."""


def _changes(before: _Snapshot, after: _Snapshot) -> list[str]:
    """One line per field (or part of one) that differs between two snapshots of a state."""
    out: list[str] = []
    for label, (kind, old) in before.items():
        new = after[label][1]
        if isinstance(old, _Raised) or isinstance(new, _Raised):
            if repr(old) != repr(new):
                out.append(f"{label} changed from {_short(old)} to {_short(new)}")
        elif kind == "array":
            lines: list[str] = []
            _diff_arrays(label, old, new, lines, ("before", "after"))
            out += [f"{label} changed: {line.split(': ', 1)[1]}" for line in lines]
        elif kind == "chance":
            lines = []
            _diff_chance(label, old, new, lines)
            if lines:
                out.append(f"{label} changed from {_short(old)} to {_short(new)}")
        else:
            _walk(label, old, new, out, _CHANGES)
    return out


class _Run:
    """One game played on two implementations at once (see :func:`assert_equivalent`)."""

    def __init__(
        self,
        game_a: Any,
        game_b: Any,
        names: tuple[str, ...],
        start: int | None,
        sides: _Sides,
        game_id: str | None,
        config: dict[str, Any] | None,
    ) -> None:
        players = as_int(getattr(game_a, "players", None))
        if players is None or players < 1:
            raise InvalidOptionError(f"game_a.players must be an int >= 1, got {shown(players)}")
        self.game_a, self.game_b = game_a, game_b
        self.names, self.start, self.sides = names, start, sides
        self.game_id, self.config = game_id, config
        self.players = players
        self.seats = range(players)
        self.chosen: list[int] = []
        self.a: Any = None  # the states, once new_state has made them
        self.b: Any = None
        self.cloned: str | None = None  # how a clone was played, for a later divergence

    def played(self) -> list[int]:
        """The history so far: the actions chosen, or with a seed the first state's history."""
        return self.chosen if self.start is None else _full_history(self.a, self.chosen)

    def diverge(self, history: list[int], lines: list[str]) -> DivergenceError:
        """The error reporting ``lines`` after ``history``.

        After a seeded start it adds the second history where it differs, and a note if a clone
        was played before.
        """
        lines = list(lines)
        first, second = self.sides
        has_history = any(line.startswith("history") for line in lines)
        if (
            self.start is not None
            and not has_history
            and self.b is not None
            and _has(self.b, "history")
        ):
            # The history reported is the first state's: show the second one's if it differs.
            theirs = _ask(self.b, second, "history", _GETTERS["history"])
            ours = _full_history(self.a, self.chosen)
            if history == ours and not isinstance(theirs, _Raised) and not _same(theirs, ours):
                lines.append(f"history: {first} = {shown(ours)}, {second} = {shown(theirs)}")
        if self.cloned is not None:
            lines.append(
                f"(earlier, {self.cloned}: if the history alone does not reproduce this, the clone "
                "shares state with its original)"
            )
        divergence = Divergence(
            list(history), lines, self.start, self.game_id, self.config, self.sides
        )
        return DivergenceError(divergence)

    def ask_a(self, name: str) -> Any:
        """A field of the first state (a divergence if it raises)."""
        value = _ask(self.a, self.sides[0], name, _GETTERS[name])
        if isinstance(value, _Raised):
            raise self.diverge(self.played(), [f"{name}: {self.sides[0]} {shown(value)}"]) from (
                value.error
            )
        return value

    def check(self, seats: Iterable[int]) -> None:
        """Both states agree on the compared fields (tensors of ``seats``)."""
        differences = _compare(self.a, self.b, self.names, self.seats, seats, self.sides)
        if differences:
            raise self.diverge(self.played(), differences)

    def apply_both(self, a: Any, b: Any, action: int, history: list[int], where: str = "") -> None:
        """Applies ``action`` to ``a`` (the first side's state), then to ``b``.

        Raises:
            DivergenceError: Naming the side that raised (``where`` goes before ``apply``), with
                ``history`` as the reproduction.
        """
        first, second = self.sides
        try:
            a.apply(action)
        except Exception as err:
            raise self.diverge(
                history, [f"{where}apply({action}): {first} raises {shown(err)}"]
            ) from err
        try:
            b.apply(action)
        except Exception as err:
            line = f"{where}apply({action}): {first} accepts it, {second} raises {shown(err)}"
            raise self.diverge(history, [line]) from err

    def play(self, choices: Iterable[int], steps: int, probes: _Probes | None) -> list[int]:
        """Plays ``choices`` (see :func:`assert_equivalent`), with the ``probes`` if any."""
        if isinstance(choices, (str, bytes)) or not isinstance(choices, Iterable):
            raise InvalidOptionError(f"choices must be an iterable of ints, got {shown(choices)}")
        first, second = self.sides
        start = self.start
        try:
            self.a = self.game_a.new_state(start)
        except Exception as err:
            raise self.diverge([], [f"new_state({start}): {first} raises {shown(err)}"]) from err
        try:
            self.b = self.game_b.new_state(start)
        except Exception as err:
            line = f"new_state({start}): {first} returns a state, {second} raises {shown(err)}"
            raise self.diverge([], [line]) from err
        # A seed draws chance outcomes inside new_state and apply: compare them too.
        compared = "history" in self.names or start is None
        if not compared and all(_has(state, "history") for state in (self.a, self.b)):
            self.names = (*self.names, "history")
        self.check(self.seats)
        it = iter(choices)
        fallback = SplitMix64(0x5EED)
        exhausted_at: int | None = None
        illegal_due = clone_due = probes is not None
        for step in range(steps):
            if self.ask_a("is_terminal"):
                break
            legal = list(self.ask_a("legal_actions"))
            if not legal:
                line = f"legal_actions(): {first} is not terminal but has no legal actions"
                raise self.diverge(self.played(), [line])
            if probes is not None and illegal_due and step == probes.illegal_at:
                illegal_due = False
                self.try_illegal(legal, probes.illegal_pick)
            if probes is not None and clone_due and step == probes.clone_at:
                clone_due = False
                self.try_clone(probes.clone_choices)
            choice = next(it, _NO_MORE)
            if choice is _NO_MORE:
                # First legal actions shrink best; random ones end games a fixed policy could loop.
                exhausted_at = step if exhausted_at is None else exhausted_at
                choice = 0 if step - exhausted_at < FIRST_LEGAL_STEPS else fallback.next()
            index = as_int(choice)
            if index is None:
                raise InvalidOptionError(f"choices must be ints, got {shown(choice)}")
            action = legal[index % len(legal)]
            # With a seed, apply draws chance outcomes too: the history before it is A's own.
            before = list(self.chosen) if start is None else _full_history(self.a, self.chosen)
            self.chosen.append(action)
            self.apply_both(self.a, self.b, action, before)
            self.check(self.seats if self.ask_a("is_terminal") else [step % self.players])
        if probes is not None:  # a probe the game did not reach: at its last state
            terminal = self.ask_a("is_terminal")
            legal = [] if terminal else list(self.ask_a("legal_actions"))
            if illegal_due:
                self.try_illegal(legal, probes.illegal_pick)
            if clone_due:
                self.try_clone(() if terminal else probes.clone_choices)
        return list(self.played())

    def try_illegal(self, legal: list[int], pick: int) -> None:
        """Applies an action that is not legal to both states.

        Each must raise ``IllegalActionError`` and stay unchanged.
        """
        first, second = self.sides
        size = as_int(getattr(self.game_a, "num_actions", None)) or 0
        allowed = set(legal)
        candidates = [x for x in range(size) if x not in allowed] + [-1, size]
        action = candidates[pick % len(candidates)]
        history = list(self.played())
        head = f"apply({action}) of an action that is not legal (legal: {legal}):"
        before = _snapshot(self.b, second, self.names, self.players)
        try:
            self.a.apply(action)
        except IllegalActionError:
            pass
        except Exception as err:
            line = f"{head} {first} raises {shown(err)} instead of IllegalActionError"
            raise self.diverge(history, [line]) from err
        else:
            raise self.diverge(history, [f"{head} {first} accepts it"])
        problems: list[str] = []
        cause: Exception | None = None
        try:
            self.b.apply(action)
        except IllegalActionError:
            pass
        except Exception as err:
            cause = err
            problems.append(
                f"{second} raised {shown(err)} instead of IllegalActionError (raise "
                "cardtable.errors.IllegalActionError, or a subclass, for an action that is not "
                "legal)"
            )
        else:
            problems.append(f"{second} accepts it ({first} raises IllegalActionError)")
        changes = _changes(before, _snapshot(self.b, second, self.names, self.players))
        if changes:
            problems.append(f"{second} changed its state: its " + "; its ".join(changes))
        if problems:
            raise self.diverge(history, [f"{head} " + "; and ".join(problems)]) from cause

    def try_clone(self, choices: Sequence[int]) -> None:
        """Clones both states and plays ``choices`` on the clones, which must agree.

        The second original must be unchanged afterwards. Skipped if the second state has no
        ``clone``.
        """
        first, second = self.sides
        if not callable(getattr(self.b, "clone", None)):
            return
        history = list(self.played())
        try:
            clone_a = self.a.clone()
        except Exception as err:
            raise self.diverge(history, [f"clone(): {first} raises {shown(err)}"]) from err
        before = _snapshot(self.b, second, self.names, self.players)
        try:
            clone_b = self.b.clone()
        except Exception as err:
            line = f"clone(): {first} returns a copy, {second} raises {shown(err)}"
            raise self.diverge(history, [line]) from err
        if clone_b is self.b or clone_b is None:
            what = "None" if clone_b is None else "the state itself"
            raise self.diverge(history, [f"clone(): {second} returns {what}, not a copy"])
        sides = ("the original", "its clone")
        at_once = _compare(self.b, clone_b, self.names, self.seats, self.seats, sides)
        if at_once:
            head = f"clone() is not a copy: right after cloning, {second} differs from its clone:"
            raise self.diverge(history, [head, *(f"  {line}" for line in at_once)])
        done: list[int] = []
        for index, choice in enumerate(choices):
            if clone_a.is_terminal:
                break
            legal = list(clone_a.legal_actions())
            action = legal[choice % len(legal)]
            where = f"on clones made here, after the steps {done} on both: "
            self.apply_both(clone_a, clone_b, action, history, where)
            done.append(action)
            seat = [index % self.players]
            differences = _compare(clone_a, clone_b, self.names, self.seats, seat, self.sides)
            if differences:
                where = f"on clones made here, after the steps {done} on both:"
                raise self.diverge(history, [where, *(f"  {line}" for line in differences)])
        after = _snapshot(self.b, second, self.names, self.players)
        steps = f"{len(done)} step{'' if len(done) == 1 else 's'} {done}"
        changes = _changes(before, after)
        if changes:
            line = (
                f"clone() is not independent: after playing {steps} on a clone, the original's "
                + "; its ".join(changes)
            )
            raise self.diverge(history, [line])
        if done:
            self.cloned = f"clone() was called at history {history} and {steps} played on the clone"


def _has(state: object, member: str) -> bool:
    """Whether ``state`` has ``member``.

    One that raises something else than ``AttributeError`` has it: comparing it reports the error.
    """
    try:
        getattr(state, member)
    except AttributeError:
        return False
    except Exception:
        return True
    return True


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
        raise InvalidOptionError(f"policy must be None or a callable, got {shown(policy)}")
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
            f"unknown game {shown(game_id)}; registered games: {', '.join(reference.GAMES)}"
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
    """The drawn values of an option: its default (:data:`_DEFAULT`) or another.

    Booleans and choices shrink to the default (the usual rules); integers shrink to their
    smallest value (the smallest game: an end-of-game bug shrinks to a short game), and are drawn
    anywhere in their range, at the default, or near it.
    """
    default = st.just(_DEFAULT)
    if spec.kind == "bool":
        return default | st.booleans()
    if spec.kind == "str":
        return default | st.sampled_from(spec.choices)
    centre = spec.default if isinstance(spec.default, int) else 3
    low, high = max(spec.low, centre - 8), min(spec.high, centre + 8)
    near: st.SearchStrategy[Any] = st.integers(low, high)
    if spec.kind == "int | None":
        near = near | st.none()
    # Hypothesis shrinks to fewer choices, then to smaller ones, and one_of to its first
    # strategy: the smallest value (one choice) first, then any value (two), and only then the
    # default, which makes a second, idle choice so as not to be simpler than a small value.
    anywhere = st.integers(spec.low, spec.high)
    after = st.booleans().map(lambda _: _DEFAULT)
    return st.one_of(st.just(spec.low), anywhere, after, after, after, near)


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
        raise InvalidOptionError(f"{game_id}: unknown option {shown(name)} (known: {known})")
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
                f"got {shown(fixed['players'])}"
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

    Each option keeps its default (a third of the time or so) or takes another value: booleans
    either way, choices any, and integers near the default or anywhere in the option's range (the
    smallest value about as often as the default). Shrinking goes to the smallest game: the
    fewest players and every integer option at its minimum, or at the smallest value that still
    fails (before its default), and booleans and choices at their defaults, so that a bug seen at
    the end of a game shrinks to a short one. ``fixed`` keyword arguments (``players`` or
    options) are in every configuration. Only combinations the game accepts are generated, without
    filtering: a drawn configuration the game refuses falls back to a valid one, option by option.
    Needs no compiled extension.

    Raises:
        InvalidOptionError: On an unknown game, or fixed arguments the game refuses: an unknown
            option or a bad value (the message names it), or a combination that no player count
            accepts with the other options at their defaults or one of them changed.
    """
    bases = _bases(game_id, fixed)
    specs = [spec for spec in _game_class(game_id).option_specs if spec.name not in fixed]
    drawn = {spec.name: _option_values(spec) for spec in specs}

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

    Raises:
        InvalidOptionError: If ``depth`` is not an int in ``0..2**32 - 1``, or ``state`` is not a
            state (it lacks ``is_terminal``, ``legal_actions``, ``clone`` or ``apply``).
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
        return f"{type(self).__name__}({shown(self.wrapped)}, {shown(self.key)})"

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


def _settings_changes(changes: object) -> dict[str, Any]:
    """The ``settings`` of :func:`equivalence_test` as a dict of ``hypothesis.settings`` keywords.

    Raises:
        InvalidOptionError: Unless ``changes`` is ``None`` or a mapping with string keys, its
            ``database`` (if any) ``None`` or an ``ExampleDatabase``: one that is not would fail
            only when the test runs, with an ``AttributeError``.
    """
    if changes is None:
        return {}
    if not isinstance(changes, Mapping) or not all(isinstance(key, str) for key in changes):
        raise InvalidOptionError(
            "settings must be None or a dict of hypothesis.settings keyword arguments, such as "
            f"{{'deadline': 500}}, got {shown(changes)}"
        )
    database = changes.get("database")
    if database is not None and not isinstance(database, ExampleDatabase):
        raise InvalidOptionError(
            "settings: database must be None or a hypothesis.database.ExampleDatabase (such as "
            f"DirectoryBasedExampleDatabase('.hypothesis/examples')), got {shown(database)}"
        )
    return dict(changes)


def _reference_label(reference: object) -> str:
    """The name of a ``reference`` in reports: its class or function name (else ``reference``)."""
    name = getattr(reference, "__name__", None)
    if not isinstance(name, str) or not name.isidentifier() or name == "yours":
        return "reference"
    return name


def equivalence_test(
    game_id: str,
    factory: Callable[..., RulesGame],
    *,
    reference_backend: str = "rust",
    reference: Callable[..., RulesGame] | None = None,
    fields: Sequence[str] = RULES_FIELDS,
    max_examples: int | None = None,
    seed: int | str | None = None,
    settings: Mapping[str, Any] | None = None,
    **fixed: Any,
) -> Callable[[], None]:
    """Builds a Hypothesis test that your implementation of ``game_id`` follows our rules.

    ``factory(**config)`` must return your game for the ``make`` keyword arguments ``config``
    (``players`` and options). Hypothesis draws configurations (``fixed`` keyword arguments pin
    some) and choice sequences; the test fails with the shrunk first divergence::

        from cardtable.testing import equivalence_test
        test_my_tide = equivalence_test("turn_the_tide", MyTurnTheTide)

    Each example plays one game on ours (named ``cardtable`` in the report) and on yours
    (``yours``) as :func:`assert_equivalent` does, and at two drawn steps (or at the end of a
    shorter game) it also checks:

    - an action that is not legal (an id in ``0..num_actions-1`` that is not in
      ``legal_actions()``, or ``-1``, or ``num_actions``): ``apply`` must raise
      :class:`~cardtable.errors.IllegalActionError` (or a subclass) and leave your state
      unchanged in every compared field;
    - ``clone()``, if your state has one: the clone equals its original, plays up to a dozen drawn
      steps like our clone, and the original is unchanged afterwards.

    A variant of the game (a house rule) is tested by passing its implementation as
    ``reference``: a subclass of our reference game whose rules you changed (see
    ``docs/testing.md``, "Testing a variant"), compared instead of ours and named after its class
    in the report.

    Every test built here has keys of its own in the example database of the active Hypothesis
    profile (none if that is ``None``), made of the game, the factory's qualified name, the
    backend (or the reference), the fields, the seed and the fixed arguments: one test's saved
    failure is replayed by that test, never erased by another. The test comes with a Hypothesis
    ``settings`` object for this: the active profile's, with the keyed database, ``max_examples``
    and no deadline (an example is a whole game, which a correct but slow implementation may
    play in more than Hypothesis' default 200 ms), then the changes given in ``settings``.
    Hypothesis allows one ``settings`` per test, so pass other settings (a deadline, the phases)
    there rather than decorating the returned test.

    Args:
        game_id: The registered game.
        factory: Creates your implementation from ``make`` keyword arguments.
        reference_backend: Our backend to compare against (``"rust"`` or ``"reference"``).
        reference: Compare against this instead of our backend: a callable (a game class, such as
            a subclass of our reference game ``cardtable.reference.goofspiel.GoofspielGame``)
            creating a game of ``game_id`` (its ``game_id`` says so, as our games' do) from the
            same ``make`` keyword arguments (``players`` and the game's options). ``None`` (the
            default): our game. Not ``factory`` itself, which would be compared with itself.
        fields: What must agree after every step (default :data:`RULES_FIELDS`; use
            :data:`ALL_FIELDS` if your implementation also reproduces our observation and state
            formats).
        max_examples: Hypothesis examples, an int ``>= 1`` (default: ``settings``'
            ``max_examples`` if given, else ``--cardtable-examples``, else the active profile's).
        seed: ``None`` (the default): chance nodes are explicit, and their outcomes are drawn
            like actions. An int in ``0..2**64-1``: every game starts with ``new_state(seed)``, so
            your state resolves its chance nodes itself with our generator (``docs/rng.md``), and
            both ``history`` members are compared too (if both states have one). ``"drawn"``:
            the same, with a seed drawn per example.
        settings: Changes to the test's Hypothesis settings, as keyword arguments of
            ``hypothesis.settings`` (e.g. ``{"deadline": 500, "phases": [Phase.generate]}``),
            applied over ours: the active profile with no deadline (a deadline of the profile is
            not used: give one here). A ``database`` given (``None`` or an ``ExampleDatabase``)
            is keyed like the profile's.
        **fixed: Keyword arguments held fixed, e.g. ``players=4``.

    Raises:
        InvalidOptionError: At once, on an unknown game, a fixed argument the game refuses (see
            :func:`game_configs`), a factory or reference that is not callable, a reference that
            is the factory, an unknown backend (or one given with ``reference``), bad
            ``fields``, ``max_examples``, ``seed`` or ``settings`` (``max_examples`` given twice
            and a ``database`` that is not an ``ExampleDatabase`` included). When the test runs,
            on a reference that refuses a drawn configuration or makes no game of ``game_id``.
    """
    from hypothesis import given
    from hypothesis import settings as hypothesis_settings

    import cardtable

    configs = game_configs(game_id, **fixed)
    if not callable(factory):
        raise InvalidOptionError(
            f"factory must be a callable returning a game, got {shown(factory)}"
        )
    if not is_choice(reference_backend, "rust", "reference"):
        raise InvalidOptionError(
            f"reference_backend must be 'rust' or 'reference', got {shown(reference_backend)}"
        )
    if reference is not None and not callable(reference):
        raise InvalidOptionError(
            f"reference must be None or a callable returning a game (a game class), got "
            f"{shown(reference)}"
        )
    if reference is factory:
        raise InvalidOptionError(
            "reference is factory: the test would compare your implementation with itself and "
            "could never fail; pass the implementation of the variant as factory and its "
            "reference as reference, or leave reference out to compare with our game"
        )
    if reference is not None and reference_backend != "rust":
        raise InvalidOptionError(
            "give reference_backend or reference, not both: the reference is compared instead "
            "of our backends"
        )
    names = _fields(fields)
    changes = _settings_changes(settings)
    if max_examples is not None and "max_examples" in changes:
        raise InvalidOptionError(
            "max_examples is given twice: as max_examples= and in settings; give it once"
        )
    examples = changes.pop("max_examples", max_examples)
    if examples is None:
        examples = DEFAULT_MAX_EXAMPLES
    if examples is not None:
        examples = check_int("max_examples", examples, 1)
    seeds: st.SearchStrategy[int | None]
    if seed is None:
        seeds = st.none()
    elif seed == "drawn":
        seeds = st.integers(0, MAX_SEED)
    elif isinstance(seed, str):
        raise InvalidOptionError(f"seed must be None, an int or 'drawn', got {shown(seed)}")
    else:
        seeds = st.just(_seed(seed))
    sides = ("cardtable" if reference is None else _reference_label(reference), "yours")

    def ours_for(config: dict[str, Any]) -> Any:
        if reference is None:
            return cardtable.make(game_id, backend=reference_backend, **config)  # type: ignore[arg-type]
        return _reference_game(reference, _qualified_name(reference), game_id, config)

    def example(
        config: dict[str, Any], choices: list[int], probes: _Probes | None, start: int | None
    ) -> DivergenceError | None:
        ours = ours_for(config)
        call = f"factory(**{shown(config)})"
        try:
            theirs = factory(**config)
        except Exception as err:
            line = f"{call} raises {shown(err)} ({sides[0]} accepts these arguments)"
            failure = DivergenceError(Divergence([], [line], start, game_id, config, sides))
            failure.__cause__ = err
            return failure
        _check_game(theirs, f"the result of {call}")
        try:
            _Run(ours, theirs, names, start, sides, game_id, config).play(
                choices, MAX_STEPS, probes
            )
        except DivergenceError as err:
            return err
        return None

    @given(config=configs, choices=choice_sequences(), probes=_probes(), start=seeds)
    def test(
        config: dict[str, Any], choices: list[int], probes: _Probes | None, start: int | None
    ) -> None:
        failure = example(config, choices, probes, start)
        if failure is not None:
            # Raised here, out of any handler, whatever the divergence: Hypothesis tells failures
            # apart by where they are raised, and one bug seen in several ways (on the clones, at
            # the end, ...) is one failure, shrunk to its simplest example. The cause stays.
            error = DivergenceError(failure.divergence)
            error.__cause__ = failure.__cause__
            raise error

    pinned = sorted(fixed.items())
    seeded = "" if seed is None else f", seed={shown(seed)}"
    ours_key = (
        f"reference_backend={shown(reference_backend)}"
        if reference is None
        else f"reference={_qualified_name(reference)}"
    )
    key = (
        f"cardtable.testing.equivalence_test({shown(game_id)}, {_qualified_name(factory)}, "
        f"{ours_key}, fields={shown(names)}{seeded}, fixed={shown(pinned)})"
    )
    profile = hypothesis_settings()  # the active profile, as @given has just taken it
    saved = changes.pop("database", profile.database)
    database = None if saved is None else _KeyedDatabase(saved, key)
    chosen = profile.max_examples if examples is None else examples
    try:
        merged = {"deadline": None, **changes, "max_examples": chosen, "database": database}
        applied = hypothesis_settings(profile, **merged)
    except Exception as err:  # hypothesis.errors.InvalidArgument, a TypeError
        raise InvalidOptionError(f"settings: {err}") from None
    test = applied(test)
    test.__name__ = test.__qualname__ = f"test_{game_id}_equivalence"
    return test
