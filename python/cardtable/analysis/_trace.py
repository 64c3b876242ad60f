"""Replaying single games of a ``simulate`` run step by step, exactly, to read their score trace.

Game ``g`` of ``simulate(..., seed=s)`` is ``new_state(seed=derive_seed(s, g))`` and the built-in
bot in seat ``p`` draws from ``SplitMix64(derive_seed(derive_seed(s, g), p + 1))``. The per-step
bot (``cardtable.bot``) takes any seed below 2**64, so every game of a run can be rebuilt.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
import numpy.typing as npt

from cardtable._inputs import shown
from cardtable._rng import derive_seed
from cardtable.analysis._games import spec
from cardtable.analysis._runs import check_count, check_seed

__all__ = ["GameTrace", "decided_at", "lead_changes", "replay", "replayable"]


def _bot_seeds(seed: int, game: int, players: int) -> list[int]:
    game_seed = derive_seed(seed, game)
    return [derive_seed(game_seed, p + 1) for p in range(players)]


def replayable(seed: int, game: int, bots: Sequence[str]) -> bool:
    """Whether game ``game`` of a run with ``seed`` and ``bots`` can be replayed exactly.

    Always ``True`` for a valid seed and game index: the per-step bot takes every bot seed a run
    derives (kept for code written when seeds of 2**63 and more could not be rebuilt).

    Raises:
        InvalidOptionError: On a seed or game index that is not an int in ``0..2**64``.
    """
    check_seed(seed)
    check_count("game", game, 0)
    return True


@dataclass(frozen=True)
class GameTrace:
    """One replayed game.

    Attributes:
        game: Its index in the run.
        history: Every chance outcome and action, in order.
        trace: ``[decisions + 1, players]`` the public score trace at the start and after every
            decision (chance nodes in between resolve themselves).
        scores: Final scores.
        winners: Winning seats.
        decisions: Player decisions.
    """

    game: int
    history: list[int]
    trace: npt.NDArray[np.float64]
    scores: list[int]
    winners: list[int]
    decisions: int


def replay(
    game_id: str,
    players: int,
    bots: Sequence[str],
    seed: int,
    game: int,
    **options: Any,
) -> GameTrace:
    """Replays game ``game`` of ``simulate(game_id, bots=bots, seed=seed, ...)`` step by step.

    Raises:
        InvalidOptionError: On a bad game, option or bot, a bot count other than the players, or
            a seed or game index that is not an int in ``0..2**64``.
    """
    from cardtable import _core
    from cardtable.errors import InvalidOptionError

    seed = check_seed(seed)
    game = check_count("game", game, 0)
    if isinstance(bots, str) or not isinstance(bots, Sequence):
        raise InvalidOptionError(
            f"bots must be a list of bot names, one per seat, got {shown(bots)}"
        )
    if not all(isinstance(b, str) for b in bots):
        raise InvalidOptionError(f"bots must be built-in bot names, got {shown(list(bots))}")
    rust_game = _core.Game(game_id, players, options)
    if len(bots) != rust_game.players:
        raise InvalidOptionError(
            f"{game_id}: {len(bots)} bots given for {rust_game.players} players"
        )
    state = rust_game.new_state(derive_seed(seed, game))
    bot_seeds = _bot_seeds(seed, game, len(bots))
    seats = [_core.Bot(rust_game, name, p, bot_seeds[p]) for p, name in enumerate(bots)]
    read = spec(game_id).trace
    trace = [read(state)]
    while not state.is_terminal:
        state.apply(seats[state.current_player].act(state))
        for seat in seats:
            seat.observe(state)
        trace.append(read(state))
    return GameTrace(
        game=game,
        history=list(state.history),
        trace=np.array(trace, dtype=np.float64),
        scores=list(state.scores),
        winners=list(state.winners),
        decisions=len(trace) - 1,
    )


def _leaders(trace: npt.NDArray[np.float64], higher_is_better: bool) -> npt.NDArray[np.bool_]:
    t = trace if higher_is_better else -trace
    result: npt.NDArray[np.bool_] = t == t.max(axis=1, keepdims=True)
    return result


def lead_changes(trace: npt.NDArray[np.float64], higher_is_better: bool) -> int:
    """How often the sole leader changes.

    Counts the steps where a seat leads alone and the last seat that led alone was another one
    (shared leads in between do not count).
    """
    leaders = _leaders(trace, higher_is_better)
    changes, last = 0, -1
    for row in leaders:
        if row.sum() == 1:
            seat = int(np.flatnonzero(row)[0])
            if last >= 0 and seat != last:
                changes += 1
            last = seat
    return changes


def decided_at(
    trace: npt.NDArray[np.float64], winners: Sequence[int], higher_is_better: bool
) -> float:
    """The share of the game's decisions after which the winners always lead.

    The earliest step from which, at every later step, the leaders are exactly the eventual
    winners, divided by the number of decisions (0 = from the start, 1 = only at the very end).
    """
    leaders = _leaders(trace, higher_is_better)
    target = np.zeros(leaders.shape[1], dtype=bool)
    target[list(winners)] = True
    matches = (leaders == target).all(axis=1)
    steps = len(matches) - 1
    if steps <= 0:
        return 0.0
    if not matches[-1]:
        return 1.0  # the winners were settled by a tie-break the trace does not show
    first = len(matches)
    for i in range(len(matches) - 1, -1, -1):
        if not matches[i]:
            break
        first = i
    return first / steps


def leader_wins_at(
    traces: Sequence[GameTrace], higher_is_better: bool, points: int = 21
) -> npt.NDArray[np.float64]:
    """How often a sole leader goes on to win, at ``points`` evenly spaced shares of the game.

    Entry k: the share of games in which a seat leading alone after ``k / (points − 1)`` of the
    decisions is among the winners (NaN where no seat led alone).
    """
    return leader_shares(*leader_counts(traces, higher_is_better, points))


def leader_shares(
    hits: npt.NDArray[np.int64], seen: npt.NDArray[np.int64]
) -> npt.NDArray[np.float64]:
    """:func:`leader_wins_at` from the counts of :func:`leader_counts` (NaN where ``seen`` is 0)."""
    with np.errstate(invalid="ignore", divide="ignore"):
        out: npt.NDArray[np.float64] = np.where(seen > 0, hits / np.maximum(seen, 1), np.nan)
    return out


def leader_counts(
    traces: Sequence[GameTrace], higher_is_better: bool, points: int = 21
) -> tuple[npt.NDArray[np.int64], npt.NDArray[np.int64]]:
    """The counts behind :func:`leader_wins_at`.

    Per point: the games whose sole leader then won, and the games with a sole leader there.
    """
    hits = np.zeros(points, dtype=np.int64)
    seen = np.zeros(points, dtype=np.int64)
    for t in traces:
        leaders = _leaders(t.trace, higher_is_better)
        for k, x in enumerate(np.linspace(0, 1, points)):
            row = leaders[round(x * (len(leaders) - 1))]
            if row.sum() == 1:
                seen[k] += 1
                hits[k] += int(np.flatnonzero(row)[0]) in t.winners
    return hits, seen
