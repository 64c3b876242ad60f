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
    "play_random",
    "random_choices",
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


def compare_states(a: StateProtocol, b: StateProtocol, players: int) -> list[str]:
    """Lists every observable difference between two states (empty if none).

    Compared: ``current_player``, ``is_chance_node``, ``is_terminal``, ``legal_actions()``,
    ``chance_outcomes()``, ``scores``, ``winners``, ``to_dict()`` and every seat's
    ``observation(p)``.
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
    return out


def assert_same_state(a: StateProtocol, b: StateProtocol, players: int) -> None:
    """Raises :class:`DivergenceError` if :func:`compare_states` finds any difference."""
    differences = compare_states(a, b, players)
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

    Shrinking makes sequences shorter and values smaller, which means earlier legal actions and
    shorter games; an exhausted sequence continues with the first legal action.
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
    ``legal[c % len(legal)]`` (the first legal action once ``choices`` is exhausted) for a decision
    or an explicit chance node; both states must then agree on everything :func:`compare_states`
    checks.

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
    for _ in range(max_steps):
        if a.is_terminal:
            break
        legal = a.legal_actions()
        action = legal[next(it, 0) % len(legal)]
        a.apply(action)
        b.apply(action)
        assert_same_state(a, b, players)
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
