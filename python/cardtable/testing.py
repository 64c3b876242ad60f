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

from cardtable._rng import SplitMix64
from cardtable.protocols import GameProtocol, StateProtocol

__all__ = [
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


def compare_states(
    a: StateProtocol,
    b: StateProtocol,
    players: int,
    *,
    tensor_seats: Iterable[int] | None = None,
) -> list[str]:
    """Lists every observable difference between two states (empty if none).

    Compared: ``current_player``, ``is_chance_node``, ``is_terminal``, ``legal_actions()``,
    ``chance_outcomes()``, ``scores``, ``winners``, ``to_dict()``, every seat's
    ``observation(p)`` and, when both states have them, ``legal_action_mask()`` and the
    ``observation_tensor(p)`` (shape, dtype and every bit) of the seats ``tensor_seats``
    (default: every seat).
    """
    out: list[str] = []
    _diff("current_player", a.current_player, b.current_player, out)
    _diff("is_chance_node", a.is_chance_node, b.is_chance_node, out)
    _diff("is_terminal", a.is_terminal, b.is_terminal, out)
    _diff("legal_actions()", a.legal_actions(), b.legal_actions(), out)
    _diff("chance_outcomes()", a.chance_outcomes(), b.chance_outcomes(), out)
    _diff("scores", a.scores, b.scores, out)
    _diff("winners", a.winners, b.winners, out)
    _diff("to_dict()", a.to_dict(), b.to_dict(), out)
    for p in range(players):
        _diff(f"observation({p})", a.observation(p), b.observation(p), out)
    tensor_a = getattr(a, "observation_tensor", None)
    tensor_b = getattr(b, "observation_tensor", None)
    if callable(tensor_a) and callable(tensor_b):
        for p in range(players) if tensor_seats is None else tensor_seats:
            _diff_arrays(f"observation_tensor({p})", tensor_a(p), tensor_b(p), out)
    mask_a = getattr(a, "legal_action_mask", None)
    mask_b = getattr(b, "legal_action_mask", None)
    if callable(mask_a) and callable(mask_b):
        _diff_arrays("legal_action_mask()", mask_a(), mask_b(), out)
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
    a: StateProtocol,
    b: StateProtocol,
    players: int,
    *,
    tensor_seats: Iterable[int] | None = None,
) -> None:
    """Raises :class:`DivergenceError` if :func:`compare_states` finds any difference."""
    differences = compare_states(a, b, players, tensor_seats=tensor_seats)
    if differences:
        raise DivergenceError(Divergence(list(a.history), differences))


def random_choices(seed: int) -> Iterator[int]:
    """An endless stream of choice indices from a seeded SplitMix64 (see :func:`assert_equivalent`).

    Each value is a 64-bit integer; the driver takes it modulo the number of legal actions.
    """
    rng = SplitMix64(seed)
    while True:
        yield rng.next()


def choice_sequences(max_length: int = 2000) -> st.SearchStrategy[list[int]]:
    """Hypothesis strategy for choice sequences: each value picks ``legal[value % len(legal)]``.

    Shrinking makes sequences shorter and values smaller, which means earlier legal actions; an
    exhausted sequence continues with seeded random choices.
    """
    return st.lists(st.integers(min_value=0, max_value=1023), max_size=max_length)


def assert_equivalent(
    game_a: GameProtocol,
    game_b: GameProtocol,
    choices: Iterable[int],
    *,
    max_steps: int = 100_000,
    seed: int | None = None,
) -> list[int]:
    """Plays the same game on two implementations and checks they agree after every step.

    Both start with ``new_state(seed)``. At each step the next value ``c`` of ``choices`` selects
    ``legal[c % len(legal)]`` for a decision or an explicit chance node; once ``choices`` is
    exhausted the game continues with seeded random choices (so it ends even in games that a fixed
    policy could loop in forever). After every step both states must agree on everything
    :func:`compare_states` checks; observation tensors are compared for every seat at the start
    and at the end, and for one seat per step in between, in turn (step ``i``: seat
    ``i mod players``), which keeps the check cheap while every seat is covered.

    Args:
        game_a: One implementation (e.g. ``cardtable.make(..., backend="reference")``).
        game_b: The other, with the same players and options.
        choices: Choice values, e.g. from :func:`choice_sequences` or :func:`random_choices`.
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
    assert_same_state(a, b, players)
    it = iter(choices)
    fallback = SplitMix64(len(a.history))
    for step in range(max_steps):
        if a.is_terminal:
            break
        legal = a.legal_actions()
        choice = next(it, None)
        action = legal[(fallback.next() if choice is None else choice) % len(legal)]
        a.apply(action)
        b.apply(action)
        seats = None if a.is_terminal else [step % players]
        assert_same_state(a, b, players, tensor_seats=seats)
    return list(a.history)


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

    Each option keeps its default or takes a value near it (booleans either way, choices any), and
    only combinations the game accepts are generated. Needs no compiled extension.
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
            values: st.SearchStrategy[Any] = st.integers(max(0, centre - 8), centre + 8)
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
    if depth == 0 or state.is_terminal:
        return 1
    total = 0
    for action in state.legal_actions():
        child = state.clone()
        child.apply(action)
        total += perft(child, depth - 1)
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
    factory: Callable[..., GameProtocol],
    *,
    reference_backend: str = "rust",
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
        assert_equivalent(ours, factory(**config), choices)

    if max_examples is not None:
        test = settings(max_examples=max_examples)(test)
    test.__name__ = f"test_{game_id}_equivalence"
    return test
