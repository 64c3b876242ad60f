"""Tools to property-test an implementation of these rules against another one.

Everything here works on any object following :class:`cardtable.protocols.StateProtocol`, so it
checks our Rust engine against our reference, and your own engine, variant or forward model against
either of them::

    from hypothesis import given
    import cardtable
    from cardtable.testing import assert_equivalent, choice_sequences

    @given(choices=choice_sequences())
    def test_my_engine(choices):
        assert_equivalent(
            cardtable.make("turn_the_tide", players=4, backend="reference"),
            MyTurnTheTide(players=4),
            choices,
        )

This module does not need the compiled extension.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np
from hypothesis import strategies as st

from cardtable._inputs import as_int
from cardtable._rng import SplitMix64
from cardtable.errors import InvalidOptionError
from cardtable.protocols import (
    RULES_FIELDS,
    GameProtocol,
    RulesGame,
    RulesState,
    StateProtocol,
)

__all__ = [
    "ALL_FIELDS",
    "DEFAULT_MAX_EXAMPLES",
    "FIRST_LEGAL_STEPS",
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
        history: The actions and chance outcomes applied to both before they disagreed.
        differences: One line per differing field, with both values.
    """

    history: list[int]
    differences: list[str] = field(default_factory=list)

    def __str__(self) -> str:
        lines = [f"implementations diverge after history {self.history}:"]
        lines += [f"  {d}" for d in self.differences]
        return "\n".join(lines)


class DivergenceError(AssertionError):
    """Raised when two implementations disagree; ``.divergence`` has the details."""

    def __init__(self, divergence: Divergence) -> None:
        super().__init__(str(divergence))
        self.divergence = divergence


def _diff(name: str, a: Any, b: Any, out: list[str]) -> None:
    if isinstance(a, dict) and isinstance(b, dict):
        for key in sorted(set(a) | set(b), key=str):
            if key not in a:
                out.append(f"{name}[{key!r}]: missing in A, B has {b[key]!r}")
            elif key not in b:
                out.append(f"{name}[{key!r}]: A has {a[key]!r}, missing in B")
            else:
                _diff(f"{name}[{key!r}]", a[key], b[key], out)
        return
    if _canonical(a) != _canonical(b):
        out.append(f"{name}: A = {a!r}, B = {b!r}")


def _canonical(value: Any) -> Any:
    """A JSON-like form in which ``True`` and ``1`` differ and tuples equal lists."""
    if isinstance(value, bool):
        return ("bool", value)
    if isinstance(value, (list, tuple)):
        return [_canonical(v) for v in value]
    if isinstance(value, dict):
        return {k: _canonical(v) for k, v in value.items()}
    return value


DEFAULT_MAX_EXAMPLES: int | None = None
"""Hypothesis examples of :func:`equivalence_test` tests that set none (``None``: the active
profile's); the pytest option ``--cardtable-examples`` sets it."""

FIRST_LEGAL_STEPS = 200
"""Steps played with the first legal action after a choice sequence runs out (then random)."""

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
"""Everything :func:`compare_states` can compare (the default: all of it)."""


def compare_states(
    a: RulesState,
    b: RulesState,
    players: int,
    fields: Sequence[str] = ALL_FIELDS,
    *,
    tensor_seats: Iterable[int] | None = None,
) -> list[str]:
    """Lists every difference between two states in the chosen ``fields`` (empty if none).

    Args:
        a: One state.
        b: The other state.
        players: Number of seats (for ``observations``).
        fields: Any of :data:`ALL_FIELDS`: ``current_player``, ``is_chance_node``, ``is_terminal``,
            ``legal_actions`` (sorted legal actions), ``chance_outcomes`` (with probabilities),
            ``scores``, ``winners``, ``to_dict`` (the canonical state), ``observations`` (every
            seat's ``observation(p)``), ``observation_tensors`` (shape, dtype and every bit of
            ``observation_tensor(p)`` for the seats ``tensor_seats``, default every seat) and
            ``legal_action_mask``.
        tensor_seats: The seats whose observation tensors are compared (default: all).

    Raises:
        ValueError: On an unknown field name.
    """
    unknown = [f for f in fields if f not in ALL_FIELDS]
    if unknown:
        raise ValueError(f"unknown fields {unknown}; choose from {list(ALL_FIELDS)}")
    getters: dict[str, Callable[[Any], Any]] = {
        "current_player": lambda s: s.current_player,
        "is_chance_node": lambda s: s.is_chance_node,
        "is_terminal": lambda s: s.is_terminal,
        "legal_actions": lambda s: s.legal_actions(),
        "chance_outcomes": lambda s: s.chance_outcomes(),
        "scores": lambda s: s.scores,
        "winners": lambda s: s.winners,
        "to_dict": lambda s: s.to_dict(),
    }
    out: list[str] = []
    for name in fields:
        if name == "observations":
            for p in range(players):
                obs_a = getattr(a, "observation")(p)  # noqa: B009 - not part of RulesState
                obs_b = getattr(b, "observation")(p)  # noqa: B009
                _diff(f"observation({p})", obs_a, obs_b, out)
        elif name == "observation_tensors":
            for p in range(players) if tensor_seats is None else tensor_seats:
                tensor_a = getattr(a, "observation_tensor")(p)  # noqa: B009
                tensor_b = getattr(b, "observation_tensor")(p)  # noqa: B009
                _diff_arrays(f"observation_tensor({p})", tensor_a, tensor_b, out)
        elif name == "legal_action_mask":
            mask_a = getattr(a, "legal_action_mask")()  # noqa: B009
            mask_b = getattr(b, "legal_action_mask")()  # noqa: B009
            _diff_arrays("legal_action_mask()", mask_a, mask_b, out)
        else:
            label = name + ("()" if name in ("legal_actions", "chance_outcomes", "to_dict") else "")
            _diff(label, getters[name](a), getters[name](b), out)
    return out


def _diff_arrays(name: str, a: Any, b: Any, out: list[str]) -> None:
    """Reports arrays that differ in shape, dtype or any entry (bit for bit)."""
    x, y = np.asarray(a), np.asarray(b)
    if x.shape != y.shape or x.dtype != y.dtype:
        out.append(f"{name}: A has shape {x.shape} {x.dtype}, B has shape {y.shape} {y.dtype}")
    elif x.tobytes() != y.tobytes():
        where = np.flatnonzero(x.reshape(-1) != y.reshape(-1))[:8].tolist()
        out.append(
            f"{name}: entries {where} differ: A = {x.reshape(-1)[where].tolist()}, "
            f"B = {y.reshape(-1)[where].tolist()}"
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
    """
    rng = SplitMix64(seed)
    while True:
        yield rng.next()


def choice_sequences(max_length: int = 2000) -> st.SearchStrategy[list[int]]:
    """Hypothesis strategy for choice sequences: each value picks ``legal[value % len(legal)]``.

    Shrinking makes sequences shorter and values smaller, which means earlier legal actions; see
    :func:`assert_equivalent` for how an exhausted sequence continues.
    """
    return st.lists(st.integers(min_value=0, max_value=1023), max_size=max_length)


def assert_equivalent(
    game_a: RulesGame,
    game_b: RulesGame,
    choices: Iterable[int],
    *,
    fields: Sequence[str] = ALL_FIELDS,
    max_steps: int = 100_000,
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
    seat ``i mod players``), which keeps the check cheap while every seat is covered.

    Args:
        game_a: One implementation (e.g. ``cardtable.make(..., backend="reference")``).
        game_b: The other, with the same players and options.
        choices: Choice values, e.g. from :func:`choice_sequences` or :func:`random_choices`.
        fields: What must agree: everything by default (right for our two backends); use
            :data:`RULES_FIELDS` for an implementation with its own state and observation formats.
        max_steps: Stop after this many steps even if the game is not over.
        seed: Passed to both ``new_state`` calls (``None``: explicit chance nodes).

    Returns:
        The history played.

    Raises:
        DivergenceError: At the first disagreement, with the history that reproduces it.
    """
    a = game_a.new_state(seed)
    b = game_b.new_state(seed)
    players = game_a.players
    history: list[int] = []
    assert_same_state(a, b, players, fields, history)
    it = iter(choices)
    fallback = SplitMix64(0x5EED)
    exhausted_at: int | None = None
    for step in range(max_steps):
        if a.is_terminal:
            break
        legal = a.legal_actions()
        choice = next(it, None)
        if choice is None:
            # First legal actions shrink best; random ones end games a fixed policy could loop in.
            exhausted_at = step if exhausted_at is None else exhausted_at
            choice = 0 if step - exhausted_at < FIRST_LEGAL_STEPS else fallback.next()
        action = legal[choice % len(legal)]
        history.append(action)
        a.apply(action)
        try:
            b.apply(action)
        except Exception as err:
            raise DivergenceError(
                Divergence(history[:-1], [f"apply({action}): A accepts it, B raises {err!r}"])
            ) from err
        seats = None if a.is_terminal else [step % players]
        assert_same_state(a, b, players, fields, history, tensor_seats=seats)
    return history


def play_random(
    state: StateProtocol, seed: int, *, policy: Callable[[Sequence[int]], int] | None = None
) -> StateProtocol:
    """Plays ``state`` to the end with uniformly random legal actions (chance too, if explicit).

    The choice is ``legal[rng.below(len(legal))]`` with a SplitMix64 seeded with ``seed``, exactly
    like the engine's built-in ``random`` bot.
    """
    rng = SplitMix64(seed)
    while not state.is_terminal:
        legal = state.legal_actions()
        state.apply(policy(legal) if policy else legal[rng.below(len(legal))])
    return state


def _valid_config(game_id: str, config: dict[str, Any]) -> bool:
    from cardtable import reference
    from cardtable.errors import InvalidOptionError

    try:
        reference.make(game_id, **config)
    except InvalidOptionError:
        return False
    return True


def game_configs(game_id: str) -> st.SearchStrategy[dict[str, Any]]:
    """Hypothesis strategy for valid ``make`` keyword arguments (``players`` included) of a game.

    Each option keeps its default or takes another value: booleans either way, choices any, and
    integers near the default or anywhere in the option's range. Only combinations the game
    accepts are generated. Needs no compiled extension.
    """
    from cardtable import reference

    cls = reference.GAMES[game_id]
    fields: dict[str, st.SearchStrategy[Any]] = {
        "players": st.integers(cls.min_players, cls.max_players)
    }
    optional: dict[str, st.SearchStrategy[Any]] = {}
    for spec in cls.option_specs:
        if spec.kind == "bool":
            optional[spec.name] = st.booleans()
        elif spec.kind == "str":
            optional[spec.name] = st.sampled_from(spec.choices)
        else:
            centre = spec.default if isinstance(spec.default, int) else 3
            near = st.integers(max(spec.low, centre - 8), min(spec.high, centre + 8))
            values: st.SearchStrategy[Any] = near | st.integers(spec.low, spec.high)
            if spec.kind == "int | None":
                values = st.none() | values
            optional[spec.name] = values
    return st.fixed_dictionaries(fields, optional=optional).filter(
        lambda config: _valid_config(game_id, config)
    )


@st.composite
def reachable_states(draw: st.DrawFn, game: GameProtocol, max_steps: int = 400) -> StateProtocol:
    """Hypothesis strategy for states of ``game`` reached by up to ``max_steps`` chosen steps.

    Chance outcomes are chosen like actions, so any reachable state can come out.
    """
    state = game.new_state()
    steps = draw(st.integers(0, max_steps))
    for _ in range(steps):
        if state.is_terminal:
            break
        legal = state.legal_actions()
        state.apply(legal[draw(st.integers(0, len(legal) - 1))])
    return state


def perft(state: StateProtocol, depth: int) -> int:
    """The number of distinct sequences of ``depth`` steps from ``state``.

    Actions and chance outcomes both count as steps; a sequence that ends the game earlier counts
    once. Rust states count in Rust (all cores); any other state is explored by cloning.
    """
    native = getattr(state, "perft", None)
    if callable(native):
        result: int = native(depth)
        return result
    steps = as_int(depth)
    if steps is None or not 0 <= steps < 1 << 32:
        raise InvalidOptionError(f"depth must be an int in 0..={(1 << 32) - 1}, got {depth!r}")
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


def playthrough(game: GameProtocol, seed: int) -> str:
    """A text record of the seeded game played with the ``random`` choice rule of ``play_random``.

    Every step lists the player to move, the legal actions with their labels, the observation of the
    player to move (at decisions), the scores and the action taken; any rule change shows up as a
    diff of this text (see ``make golden``).
    """
    import json

    state = game.new_state(seed=seed)
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
        legal = state.legal_actions()
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

    Args:
        game_id: The registered game.
        factory: Creates your implementation from ``make`` keyword arguments.
        reference_backend: Our backend to compare against (``"rust"`` or ``"reference"``).
        fields: What must agree after every step (default :data:`RULES_FIELDS`; use
            :data:`ALL_FIELDS` if your implementation also reproduces our observation and state
            formats).
        max_examples: Hypothesis examples (default: the active profile's).
        **fixed: Keyword arguments held fixed, e.g. ``players=4``.
    """
    from hypothesis import given, settings

    import cardtable

    configs = (
        game_configs(game_id)
        .map(lambda c: {**c, **fixed})
        .filter(lambda c: _valid_config(game_id, c))
    )

    @given(config=configs, choices=choice_sequences())
    def test(config: dict[str, Any], choices: list[int]) -> None:
        ours = cardtable.make(game_id, backend=reference_backend, **config)  # type: ignore[arg-type]
        assert_equivalent(ours, factory(**config), choices, fields=fields)

    examples = max_examples if max_examples is not None else DEFAULT_MAX_EXAMPLES
    if examples is not None:
        test = settings(max_examples=examples)(test)
    test.__name__ = f"test_{game_id}_equivalence"
    return test
