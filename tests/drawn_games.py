"""Whole games whose every choice Hypothesis draws, played on two backends at once.

Every decision and every chance outcome of the game comes from ``st.data()``, so shrinking works
on the whole game and no fixed seed or fallback policy decides anything. At each decision a
*player* drawn once per game shapes the choice: ``uniform`` picks any legal action, the others
prefer some actions (a Deep Regrets player that hoards money, a Trafficars player that fills
lanes, ...) with a weight also drawn per game, so that games reach the boundaries of the rules
(money cap, full lanes, eliminations) that uniform play seldom reaches. A game declares its own
players in ``GAME.drawn_players`` of its scenario file ``tests/games/<game_id>.py`` (built from
:class:`Player` and the generic preferences here, such as :func:`extremes`), or plays with
:data:`DEFAULT_PLAYERS`. Chance outcomes are drawn uniformly over the outcomes.

Comparing everything after every step costs milliseconds per step, so every step compares the
cheap part that still pins the game down (whose move, the legal actions, and at chance nodes the
outcomes with their probabilities, whether the game is over), and the whole state (``to_dict``,
every observation and observation tensor, scores, winners) is compared at the start, at a few
steps drawn by Hypothesis, and at the end. A rule difference changes the legal actions, the
outcomes, the player to move or the end of the game within a few steps, or else shows in the
full comparisons (the end included).

Every step of one game in :data:`EVENT_CHECK_EVERY` also compares the *rule events* it triggers
(``state.rule_events_of(action)``, listed in each game's contract under "Rule events"), and every
step of every game records them with ``event()``, so that
``--hypothesis-show-statistics`` shows which rules the drawn games reached; a caller may also count
them (``events=``), which the coverage test does.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from hypothesis import event, target
from hypothesis import strategies as st

from cardtable.testing import Divergence, DivergenceError, compare_states
from tests.game_info import load

CHEAP_FIELDS = ("current_player", "is_terminal", "legal_actions")
"""Compared after every step (plus ``chance_outcomes`` at chance nodes)."""

EVENT_CHECK_EVERY = 4
"""The backends' rule events are compared at every step of one drawn game out of this many (the
Rust events are counted in every game)."""

PREFERENCE_WEIGHTS = (1, 4, 16)
"""How many times likelier a preferred action is than any legal one (drawn per game)."""

Prefer = Callable[[Any, list[int]], list[int]]
"""Given the state (of the backend that drives the game) and the legal actions, the actions a
player prefers (empty: no preference here)."""


@dataclass(frozen=True)
class Player:
    """A way of choosing among legal actions.

    Attributes:
        name: Shown in Hypothesis statistics (``event``).
        prefer: The preferred actions, or ``None`` for uniform play.
    """

    name: str
    prefer: Prefer | None = None


def extremes(state: Any, legal: list[int]) -> list[int]:
    """The lowest and the highest legal action (highest and lowest cards, first and last
    lanes): play at the edges of every range."""
    return [legal[0], legal[-1]]


DEFAULT_PLAYERS: tuple[Player, ...] = (Player("uniform"), Player("extremes", extremes))
"""The players of a game whose ``GAME.drawn_players`` is ``None``: any legal action, or an extreme
one."""


def players_of(game_id: str) -> tuple[Player, ...]:
    """The players a drawn game of ``game_id`` may use: its ``GAME.drawn_players`` (in its scenario
    file ``tests/games/<game_id>.py``), else :data:`DEFAULT_PLAYERS`."""
    players = load(game_id).drawn_players
    return DEFAULT_PLAYERS if players is None else players


def draw_index(data: st.DataObject, count: int) -> int:
    """An index in ``0..count-1`` drawn by Hypothesis (shrinking towards 0).

    One such draw per step of a game of hundreds of steps: it goes straight to the choice
    sequence, since ``data.draw`` costs about eight times more per draw (it records every draw
    for the report; the history of a failure is in the :class:`DivergenceError` anyway).
    """
    conjecture = getattr(data, "conjecture_data", None)
    if conjecture is not None and hasattr(conjecture, "draw_integer"):
        return int(conjecture.draw_integer(0, count - 1))
    return data.draw(st.integers(0, count - 1))


def length_bucket(steps: int) -> str:
    """A coarse label for a game's length, for Hypothesis statistics."""
    bound = 16
    while steps >= bound:
        bound *= 2
    return f"steps < {bound}"


def _divergence(a: Any, b: Any, players: int, history: list[int], fields: Sequence[str]) -> None:
    differences = compare_states(a, b, players, fields)
    if differences:
        raise DivergenceError(Divergence(list(history), differences))


def play_drawn_game(
    data: st.DataObject,
    game_a: Any | None,
    game_b: Any,
    players: Sequence[Player],
    *,
    typical_length: int,
    full_checks: int = 2,
    max_steps: int = 100_000,
    events: Counter[str] | None = None,
) -> list[int]:
    """Plays one complete game on both implementations, every choice drawn from ``data``.

    ``game_b`` drives (its legal actions and the player's preferences are read from it), and
    ``game_a`` must agree: see the module docstring for what is compared when.

    Args:
        data: Hypothesis's ``st.data()``.
        game_a: One implementation (the reference); ``None`` plays ``game_b`` alone (nothing is
            compared, only the rule events are counted).
        game_b: The other, same players and options (Rust: the faster one drives).
        players: The players to draw from.
        typical_length: About how many steps a game has: the ``full_checks`` steps with a full
            comparison (besides the start and the end) are drawn from ``0..typical_length``.
        full_checks: How many steps in the game get a full comparison.
        max_steps: A game longer than this fails the test.
        events: If given, every rule event of every step is counted into it.

    Returns:
        The history played.

    Raises:
        DivergenceError: At the first disagreement, with the history that reproduces it.
    """
    player = data.draw(st.sampled_from(players), label="player")
    weight = 0
    if player.prefer is not None:
        weight = data.draw(st.sampled_from(PREFERENCE_WEIGHTS), label="preference weight")
    event(f"player: {player.name}")
    b = game_b.new_state()
    a = None if game_a is None else game_a.new_state()
    seats = game_b.players
    history: list[int] = []
    with_events = bool(b.rule_event_names)
    # The reference's events cost a copy of its state per step (several applies' worth), so
    # they are compared in one drawn game out of EVENT_CHECK_EVERY (0 first: shrinks to checking).
    compare_events = (
        a is not None
        and with_events
        and data.draw(st.integers(0, EVENT_CHECK_EVERY - 1), label="compare rule events") == 0
    )
    if a is not None:
        _divergence(a, b, seats, history, ("to_dict", "observations", "observation_tensors"))
    full_at = {
        data.draw(st.integers(0, typical_length), label="full comparison at step")
        for _ in range(full_checks)
    }
    for step in range(max_steps + 1):
        chance = b.is_chance_node
        legal = b.legal_actions()
        if a is None:
            pass
        elif (
            a.current_player != b.current_player
            or a.is_terminal != b.is_terminal
            or a.legal_actions() != legal
            or (chance and a.chance_outcomes() != b.chance_outcomes())
        ):
            _divergence(a, b, seats, history, (*CHEAP_FIELDS, "chance_outcomes"))
        if a is not None and step in full_at:
            _divergence(a, b, seats, history, ("to_dict", "observations", "observation_tensors"))
        if b.is_terminal:
            break
        assert step < max_steps, f"no end after {max_steps} steps"
        preferred = [] if chance or player.prefer is None else player.prefer(b, legal)
        count = weight * len(preferred) + len(legal)
        index = draw_index(data, count)
        action = (
            legal[index] if index < len(legal) else preferred[(index - len(legal)) % len(preferred)]
        )
        history.append(action)
        fired = b.rule_events_of(action) if with_events else []
        b.apply(action)
        for name in fired:
            event(f"rule event: {name}")
            if events is not None:
                events[name] += 1
        if a is None:
            continue
        try:
            fired_a = a.rule_events_of(action) if compare_events else fired
            a.apply(action)
        except Exception as err:
            raise DivergenceError(
                Divergence(history[:-1], [f"apply({action}): B accepts it, A raises {err!r}"])
            ) from err
        if fired_a != fired:
            raise DivergenceError(
                Divergence(history[:-1], [f"rule events of {action}: A {fired_a}, B {fired}"])
            )
    if a is None:
        return history
    _divergence(
        a,
        b,
        seats,
        history,
        ("scores", "winners", "to_dict", "observations", "observation_tensors"),
    )
    event(length_bucket(len(history)))
    target(float(len(history)), label="steps")
    return history
