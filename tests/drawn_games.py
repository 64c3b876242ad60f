"""Whole games whose every choice Hypothesis draws, played on two backends at once.

Every decision and every chance outcome of the game comes from ``st.data()``, so shrinking works
on the whole game and no fixed seed or fallback policy decides anything. At each decision a
*player* drawn once per game shapes the choice: ``uniform`` picks any legal action, the others
prefer some actions (a Deep Regrets player that hoards money, a Trafficars player that fills
lanes, ...) with a weight also drawn per game, so that games reach the boundaries of the rules
(money cap, full lanes, eliminations) that uniform play seldom reaches. Chance outcomes are drawn
uniformly over the outcomes.

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


def _extremes(state: Any, legal: list[int]) -> list[int]:
    """The lowest and the highest legal action (highest and lowest cards, first and last
    lanes): play at the edges of every range."""
    return [legal[0], legal[-1]]


# ----- Deep Regrets -----
_DR_SELL, _DR_MOUNT, _DR_CATCH, _DR_MAKE_PORT = 10, 11, 6, 2
_DR_CATCH_BY_SHOWING, _DR_CATCH_BY_DISCARDING = 18, 19
_DR_CAST = range(32, 41)
_DR_SHOPS = range(82, 94)
_DR_FISH = range(165, 300)
_DR_KEEP_ALL, _DR_DRAW_A_DINK = 0, 8
_DR_REGRETS = range(70, 74)
_DR_ABILITY_SEEKING = frozenset({6, 14, 15, 16, 18, 19, 20, 21, 22, 23})


def _dr_hoard_money(state: Any, legal: list[int]) -> list[int]:
    """Catch, go to port and sell everything; never shop or mount: money piles up against its
    cap."""
    fish = [a for a in legal if a in _DR_FISH]
    if fish and all(a == 0 or a in _DR_FISH for a in legal):  # choosing a fish: sell it
        return fish
    if _DR_SELL in legal:
        return [_DR_SELL]
    good = {_DR_CATCH, _DR_CATCH_BY_SHOWING, _DR_CATCH_BY_DISCARDING, _DR_MAKE_PORT}
    preferred = [a for a in legal if a in good or a in _DR_CAST]
    return preferred or [
        a for a in legal if a not in _DR_SHOPS and a != _DR_MOUNT and a not in fish
    ]


def _dr_hoard_regrets(state: Any, legal: list[int]) -> list[int]:
    """Keep every regret (draw a dink as the reward, keep all at port) and dive: madness climbs
    through its tiers and the regret deck runs out."""
    if _DR_DRAW_A_DINK in legal:
        return [_DR_DRAW_A_DINK]
    if any(a in _DR_REGRETS for a in legal) and _DR_KEEP_ALL in legal:
        return [_DR_KEEP_ALL]
    return [a for a in legal if a in _DR_ABILITY_SEEKING or a in _DR_CAST or a in _DR_FISH]


def _dr_seek_abilities(state: Any, legal: list[int]) -> list[int]:
    """Cast, catch, use items and abilities: reveal, catch and item effects fire often."""
    return [
        a
        for a in legal
        if a in _DR_ABILITY_SEEKING or 300 <= a < 315 or 100 <= a < 145 or a in _DR_CAST
    ]


_DR_MOUNT_IDS = frozenset({_DR_MOUNT, 79, 80, 81})
_DR_STAY_AT_SEA, _DR_DECLINE = 1, 7
_DR_DICE = range(50, 65)
_DR_DEEPEST_CASTS = range(38, 41)


def _dr_mount_trophies(state: Any, legal: list[int]) -> list[int]:
    """Catch fish, make port and mount them: all three mount slots fill up."""
    mount = [a for a in legal if a in _DR_MOUNT_IDS]
    if mount:
        return mount
    fish = [a for a in legal if a in _DR_FISH]
    if fish and all(a in _DR_FISH for a in legal):  # choosing the fish to mount
        return fish
    good = {_DR_CATCH, _DR_CATCH_BY_SHOWING, _DR_CATCH_BY_DISCARDING, _DR_MAKE_PORT}
    return [a for a in legal if a in good or a in _DR_CAST or a in _DR_DICE]


def _dr_drain_the_sea(state: Any, legal: list[int]) -> list[int]:
    """Stay at sea and keep every regret (more madness, more Fresh dice). Until The Plug is out,
    dig through the deepest shoals (sink, reveal, pay and catch); then cast wherever a top is
    face down (the next morning discards what is left face up): every turn then costs the sea
    a fish, and the sea runs dry."""
    if _DR_DRAW_A_DINK in legal:
        return [_DR_DRAW_A_DINK]
    if any(a in _DR_REGRETS for a in legal) and _DR_KEEP_ALL in legal:
        return [_DR_KEEP_ALL]
    casts = [a for a in legal if a in _DR_CAST]
    at_pay = _DR_DECLINE in legal
    if not casts and not at_pay:
        return [a for a in legal if a == _DR_STAY_AT_SEA or a in _DR_DICE]
    if at_pay:
        good = {_DR_CATCH, _DR_CATCH_BY_SHOWING, _DR_CATCH_BY_DISCARDING}
        return [a for a in legal if a in good or a in _DR_DICE]
    seen = state.observation(state.current_player)
    hidden = [a for a in casts if seen["shoals"][a - _DR_CAST.start]["top"] is None]
    if seen["plug"]:
        return hidden or casts
    if hidden and hidden[-1] in _DR_DEEPEST_CASTS:
        return [hidden[-1]]
    return [a for a in legal if a in _DR_DICE] or hidden[-1:] or casts[-1:]


# ----- Trafficars -----
_TC_LANE, _TC_FREE_PLACE = 100, 110


def _tc_fill_lanes(state: Any, legal: list[int]) -> list[int]:
    """Send every card to the lane with the most cars: lanes fill up, so full-lane penalties,
    police into a full lane, tow trucks as 5th car and ambulance overflows happen."""
    lanes = [a for a in legal if _TC_LANE <= a < _TC_FREE_PLACE]
    if not lanes:
        return []
    cars = state.observation(state.current_player)["cars"]
    most = max(cars[a - _TC_LANE] for a in lanes)
    return [a for a in lanes if cars[a - _TC_LANE] == most]


def _tc_fill_free_places(state: Any, legal: list[int]) -> list[int]:
    """Take a free place whenever one is offered, else play a special card if holding one."""
    free = [a for a in legal if a >= _TC_FREE_PLACE]
    if free:
        return free
    if all(a < _TC_LANE for a in legal):  # committing a card: specials have ids 51..62
        return [a for a in legal if a > 50]
    return []


_TC_POLICE = range(57, 60)
_TC_SPECIALS = range(54, 63)  # ambulances, police cars, tow trucks
_TC_NUMBERS = {51: 10, 52: 20, 53: 30}  # trailers; a car's number is its id


def _tc_end_value(lane: list[Any]) -> int | None:
    """The number a lane ends in, or ``None`` when it is open (an ambulance or a police car)."""
    top = int(lane[-1][-1])
    return None if top in _TC_SPECIALS else _TC_NUMBERS.get(top, top)


def _tc_fill_every_lane(state: Any, legal: list[int]) -> list[int]:
    """Fill every lane up to the limit and keep it there: commit numbered cards that go to a lane
    with room, send them to the longest lane with room and take the shortest lane when too low;
    keep the ambulances, police cars and tow trucks until every lane is full, then play them,
    police cars first. Police cars then meet a table of full lanes, and ambulances and tow trucks
    come as 5th cars."""
    obs = state.observation(state.current_player)
    cars: list[int] = obs["cars"]
    limit = state.to_dict()["options"]["max_cars"]
    room = [limit is None or n < limit for n in cars]
    if legal[-1] >= _TC_LANE:  # a resolution choice
        lanes = [a for a in legal if _TC_LANE <= a < _TC_FREE_PLACE]
        if obs["decision"] == "take":
            fewest = min(cars[a - _TC_LANE] for a in lanes)
            return [a for a in lanes if cars[a - _TC_LANE] == fewest]
        with_room = [a for a in lanes if room[a - _TC_LANE]]
        if not with_room:
            return []
        most = max(cars[a - _TC_LANE] for a in with_room)
        return [a for a in with_room if cars[a - _TC_LANE] == most]
    specials = [a for a in legal if a in _TC_SPECIALS]
    if not any(room):
        return [a for a in specials if a in _TC_POLICE] or specials
    ends = [_tc_end_value(lane) for lane in obs["lanes"]]

    def fits_with_room(card: int) -> bool:
        x = _TC_NUMBERS.get(card, card)
        below = [v for v in ends if v is not None and v < x]
        targets = [k for k, v in enumerate(ends) if v is None or (below and v == max(below))]
        return any(room[k] for k in targets)

    return [a for a in legal if a not in _TC_SPECIALS and fits_with_room(a)]


# ----- goofspiel -----
def _goofspiel_match(state: Any, legal: list[int]) -> list[int]:
    """Bid the point card's own value: when both seats do, the bids tie."""
    if state.is_chance_node:
        return []
    point = state.observation(state.current_player)["point_card"]
    return [a for a in legal if a + 1 == point]


PLAYERS: dict[str, tuple[Player, ...]] = {
    "deep_regrets": (
        Player("uniform"),
        Player("hoard money", _dr_hoard_money),
        Player("hoard regrets", _dr_hoard_regrets),
        Player("seek abilities", _dr_seek_abilities),
        Player("mount trophies", _dr_mount_trophies),
        Player("drain the sea", _dr_drain_the_sea),
    ),
    "goofspiel": (
        Player("uniform"),
        Player("extremes", _extremes),
        Player("match", _goofspiel_match),
    ),
    "trafficars": (
        Player("uniform"),
        Player("fill lanes", _tc_fill_lanes),
        Player("fill free places", _tc_fill_free_places),
        Player("fill every lane", _tc_fill_every_lane),
        Player("extremes", _extremes),
    ),
}
"""Per game: the players a drawn game may use (``uniform`` first, so it shrinks to it); a game not
listed uses :data:`DEFAULT_PLAYERS`."""

DEFAULT_PLAYERS: tuple[Player, ...] = (Player("uniform"), Player("extremes", _extremes))
"""The players of a game without its own in :data:`PLAYERS`: any legal action, or an extreme one."""


def players_of(game_id: str) -> tuple[Player, ...]:
    """The players a drawn game of ``game_id`` may use."""
    return PLAYERS.get(game_id, DEFAULT_PLAYERS)


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
