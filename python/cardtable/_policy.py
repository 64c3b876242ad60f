"""Python policies in batch runs.

The engine steps many games together and asks each policy for a whole batch of decisions at once
(see :func:`cardtable.simulate`).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import numpy as np

from cardtable import _core
from cardtable._simulation import PolicyBatch, Progress, PythonPolicy
from cardtable.errors import IllegalActionError

__all__ = ["run_with_policies"]


def run_with_policies(
    game: _core.Game,
    bots: Sequence[str | PythonPolicy],
    *,
    games: int,
    seed: int,
    keep_games: bool,
    batch_size: int,
    progress: bool | Callable[[int, int], object],
) -> dict[str, Any]:
    """Plays ``games`` games where some seats are Python policies; returns the raw result dict.

    Seats with the same policy object share one call per step. Ctrl-C stops the run cleanly and the
    games completed so far are returned (marked interrupted).
    """
    specs = [b if isinstance(b, str) else None for b in bots]
    runner = _core.Lockstep(
        game, games=games, seed=seed, bots=specs, batch=batch_size, keep_games=keep_games
    )
    with Progress(progress, games) as report:
        try:
            while not runner.is_done:
                pending = runner.pending()
                observations = runner.observations()
                legal = runner.legal_actions()
                actions = [0] * len(pending)
                groups: dict[int, list[int]] = {}
                for row, (_, seat) in enumerate(pending):
                    groups.setdefault(id(bots[seat]), []).append(row)
                for rows in groups.values():
                    policy = bots[pending[rows[0]][1]]
                    assert not isinstance(policy, str)
                    batch = PolicyBatch(
                        games=[pending[r][0] for r in rows],
                        seats=[pending[r][1] for r in rows],
                        observations=[observations[r] for r in rows],
                        legal_actions=[legal[r] for r in rows],
                    )
                    answer = policy(batch)
                    try:
                        chosen = list(answer)
                    except TypeError:
                        raise IllegalActionError(
                            f"policy {getattr(policy, '__name__', policy)!r} must return a "
                            f"sequence of actions, got {answer!r}"
                        ) from None
                    if len(chosen) != len(rows):
                        raise IllegalActionError(
                            f"policy {getattr(policy, '__name__', policy)!r} returned "
                            f"{len(chosen)} actions for a batch of {len(rows)}"
                        )
                    for i, (r, a) in enumerate(zip(rows, chosen, strict=True)):
                        actions[r] = _checked_action(policy, i, a, pending[r], legal[r])
                runner.act(actions)
                if report is not None and not report(runner.games_played):
                    break
        except KeyboardInterrupt:
            pass
    result: dict[str, Any] = runner.take_result()
    return result


def _checked_action(
    policy: PythonPolicy, row: int, action: object, game_seat: tuple[int, int], legal: list[int]
) -> int:
    """A policy's answer for ``row`` of its batch as an int, if it is an exact, legal integer.

    Accepted: ``int`` and NumPy integers, never ``bool``, floats, strings or anything else that
    ``int()`` would convert.

    Raises:
        IllegalActionError: Naming the policy, the row, its game and seat.
    """
    name = getattr(policy, "__name__", policy)
    game, seat = game_seat
    where = f"policy {name!r}, row {row} of its batch (game {game}, seat {seat})"
    if isinstance(action, bool) or not isinstance(action, (int, np.integer)):
        raise IllegalActionError(f"{where}: the action must be an int, got {action!r}")
    value = int(action)
    if value not in legal:
        raise IllegalActionError(f"{where}: action {value} is not legal; legal: {legal}")
    return value
