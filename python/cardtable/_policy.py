"""Python policies in batch runs.

The engine steps many games together and asks each policy for a whole batch of decisions at once
(see :func:`cardtable.simulate`).
"""

from __future__ import annotations

import gc
import threading
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from typing import Any

import numpy as np
import numpy.typing as npt

from cardtable import _core
from cardtable._inputs import as_int, shown
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
    first_game: int = 0,
) -> dict[str, Any]:
    """Plays games ``first_game ..`` (``games`` of them) where some seats are Python policies.

    Returns the raw result dict.

    Seats with the same policy object share one call per step. Ctrl-C stops the run cleanly and the
    games completed so far are returned (marked interrupted).
    """
    specs = [b if isinstance(b, str) else None for b in bots]
    runner = _core.Lockstep(
        game,
        games=games,
        seed=seed,
        bots=specs,
        batch=batch_size,
        keep_games=keep_games,
        first_game=first_game,
    )
    # Seats with the same policy object form one group; `group_of[seat]` is the seat's group.
    policies: list[PythonPolicy] = []
    group_of = np.full(len(bots), -1, dtype=np.intp)
    for seat, bot in enumerate(bots):
        if isinstance(bot, str):
            continue
        for k, known in enumerate(policies):
            if known is bot:
                group_of[seat] = k
                break
        else:
            group_of[seat] = len(policies)
            policies.append(bot)
    with Progress(progress, games) as report, _batch_lists_uncounted(batch_size):
        try:
            runner.advance()  # the built-in seats play up to the policies' first decisions
            while not runner.is_done:
                step = _Step(runner)
                game_ids, seats, legal_flat, offsets = runner.pending_flat()
                answers: list[_Answer] = []
                actions: list[int] | npt.NDArray[np.int64]
                if len(policies) == 1:
                    batch = PolicyBatch(
                        game_ids,
                        seats,
                        source=step,
                        legal_flat=(legal_flat, offsets),
                        num_actions=game.num_actions,
                    )
                    answer = _ask(policies[0], batch)
                    answers.append((policies[0], None, batch, answer))
                    if type(answer) is list and len(answer) == len(batch):
                        actions = answer  # every item is checked by the engine
                    else:
                        actions = _as_actions(policies[0], answer, batch)
                else:
                    groups = group_of[seats]
                    lengths = np.diff(offsets).astype(np.intp)
                    actions = np.empty(len(seats), dtype=np.int64)
                    for k, policy in enumerate(policies):
                        rows = np.flatnonzero(groups == k)
                        if not rows.size:
                            continue
                        batch = PolicyBatch(
                            game_ids[rows],
                            seats[rows],
                            source=step,
                            rows=rows,
                            legal_flat=_rows_flat(legal_flat, lengths, rows),
                            num_actions=game.num_actions,
                        )
                        answer = _ask(policy, batch)
                        answers.append((policy, rows, batch, answer))
                        actions[rows] = _as_actions(policy, answer, batch)
                try:
                    runner.act(actions)
                except IllegalActionError:
                    # The engine checked every action before applying any: find the row at fault
                    # to name its policy, row, game and seat, from the engine's lists (the ones
                    # a policy was handed may have been changed by it).
                    _explain(answers, runner.legal_actions())
                    raise
                if report is not None and not report(runner.games_played):
                    break
        except KeyboardInterrupt:
            pass
    result: dict[str, Any] = runner.take_result()
    return result


def _rows_flat(
    flat: npt.NDArray[np.uint32], lengths: npt.NDArray[np.intp], rows: npt.NDArray[np.intp]
) -> tuple[npt.NDArray[np.uint32], npt.NDArray[np.uint64]]:
    """Rows ``rows`` (increasing) of a step's flat legal actions, as ``(flat, offsets)``.

    ``flat`` holds every row's legal actions one after another, ``lengths`` how many each row has.
    """
    keep = np.zeros(len(lengths), dtype=np.bool_)
    keep[rows] = True
    offsets = np.zeros(len(rows) + 1, dtype=np.uint64)
    np.cumsum(lengths[rows], out=offsets[1:])
    return flat[np.repeat(keep, lengths)], offsets


# Room for the few other objects of a step (its batch, answer, ...) besides the row lists.
_STEP_OBJECTS = 64


class _Room:
    """The collector's first threshold as set by the runs in progress (in any thread)."""

    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.rooms: list[int] = []  # per run in progress: the containers it keeps alive
        self.base: tuple[int, ...] = ()  # the threshold before the first of them
        self.raised: tuple[int, ...] = ()  # the threshold they set

    def set(self) -> None:
        self.raised = (self.base[0] + sum(self.rooms), *self.base[1:])
        gc.set_threshold(*self.raised)


_ROOM = _Room()


@contextmanager
def _batch_lists_uncounted(batch_size: int) -> Iterator[None]:
    """Raises the collector's first threshold by one batch of row lists while a run lasts.

    A step builds one legal-action list per row and frees them at the next step. Counted against
    the usual threshold (700 new containers), a batch of 1024 rows set off a young collection at
    nearly every step and, through the lists alive at that moment, the occasional full one: a
    third of the time of a policy that reads ``legal_actions``. With the batch's lists left out,
    the collector runs as often as it would without them. Runs in several threads add their
    batches; the last one to end restores the threshold, unless someone (a policy) set one of
    their own meanwhile, which is then kept.
    """
    room = batch_size + _STEP_OBJECTS
    with _ROOM.lock:
        current = gc.get_threshold()
        if current[0] == 0:  # collections are off: nothing to space out
            room = 0
        else:
            if not _ROOM.rooms or current != _ROOM.raised:
                _ROOM.base = current
            _ROOM.rooms.append(room)
            _ROOM.set()
    try:
        yield
    finally:
        if room:
            with _ROOM.lock:
                _ROOM.rooms.remove(room)
                if gc.get_threshold() == _ROOM.raised:
                    if _ROOM.rooms:
                        _ROOM.set()
                    else:
                        gc.set_threshold(*_ROOM.base)


class _Step:
    """The current step of a run, read from the runner at most once per kind."""

    __slots__ = ("_legal", "_masks", "_observations", "_runner", "_tensors")

    def __init__(self, runner: _core.Lockstep) -> None:
        self._runner = runner
        self._observations: list[dict[str, Any]] | None = None
        self._legal: list[list[int]] | None = None
        self._tensors: npt.NDArray[np.float32] | None = None
        self._masks: npt.NDArray[np.bool_] | None = None

    def observations(self) -> list[dict[str, Any]]:
        if self._observations is None:
            self._observations = self._runner.observations()
        return self._observations

    def legal_actions(self) -> list[list[int]]:
        if self._legal is None:
            self._legal = self._runner.legal_actions()
        return self._legal

    def tensors(self) -> npt.NDArray[np.float32]:
        if self._tensors is None:
            self._tensors = self._runner.observation_tensors()
        return self._tensors

    def legal_masks(self) -> npt.NDArray[np.bool_]:
        if self._masks is None:
            self._masks = self._runner.legal_masks()
        return self._masks


_Answer = tuple[PythonPolicy, "npt.NDArray[np.intp] | None", PolicyBatch, object]
"""A policy, the rows of the step it answered (``None``: all), its batch and its answer."""


def _ask(policy: PythonPolicy, batch: PolicyBatch) -> object:
    """The policy's answer; the batch cannot read the step once the policy has returned."""
    try:
        return policy(batch)
    finally:
        batch.detach()


def _name(policy: PythonPolicy) -> object:
    return getattr(policy, "__name__", policy)


def _as_actions(policy: PythonPolicy, answer: object, batch: PolicyBatch) -> npt.NDArray[np.int64]:
    """A policy's answer as int64 actions, if it is a sequence of exact ints of the right length.

    Accepted: ``int`` and NumPy integers, never ``bool``, floats, strings or anything else that
    ``int()`` would convert. Legality is checked by the engine.

    Raises:
        IllegalActionError: Naming the policy (and the row at fault, its game and seat).
    """
    rows = len(batch)
    if isinstance(answer, np.ndarray):
        if answer.ndim == 1 and answer.dtype != np.bool_ and answer.dtype.kind in "iu":
            if answer.shape[0] != rows:
                raise IllegalActionError(
                    f"policy {_name(policy)!r} returned {answer.shape[0]} actions for a batch "
                    f"of {rows}"
                )
            wide = answer.dtype.kind == "u" and answer.dtype.itemsize == 8
            if wide and answer.size and int(answer.max()) >= 2**63:
                return _slow_actions(policy, answer.tolist(), batch)
            return answer.astype(np.int64, copy=False)
        if answer.ndim == 0:
            raise IllegalActionError(
                f"policy {_name(policy)!r} must return a sequence of actions, got {shown(answer)}"
            )
        if answer.ndim > 1:  # argmax(..., keepdims=True), say
            raise IllegalActionError(
                f"policy {_name(policy)!r} returned an array of shape {answer.shape}: return one "
                f"action per row, a 1-d array of {rows}"
            )
        chosen = list(answer)
    elif isinstance(answer, Sequence) and not isinstance(answer, (str, bytes)):
        chosen = list(answer)
    else:
        # A set or dict has no row order, and an iterator could not be read again to name the
        # row at fault.
        raise IllegalActionError(
            f"policy {_name(policy)!r} must return a sequence of actions (a list, a tuple or a "
            f"1-d integer array), got {type(answer).__name__} {shown(answer)}"
        )
    if len(chosen) != rows:
        raise IllegalActionError(
            f"policy {_name(policy)!r} returned {len(chosen)} actions for a batch of {rows}"
        )
    if set(map(type, chosen)) <= {int}:
        try:
            return np.array(chosen, dtype=np.int64)
        except OverflowError:
            pass
    return _slow_actions(policy, chosen, batch)


def _slow_actions(
    policy: PythonPolicy, chosen: list[Any], batch: PolicyBatch
) -> npt.NDArray[np.int64]:
    out = np.empty(len(chosen), dtype=np.int64)
    for row, action in enumerate(chosen):
        where = (
            f"policy {_name(policy)!r}, row {row} of its batch "
            f"(game {batch.games[row]}, seat {batch.seats[row]})"
        )
        value = as_int(action)
        if value is None:
            raise IllegalActionError(f"{where}: the action must be an int, got {shown(action)}")
        if not -(2**63) <= value < 2**63:
            raise IllegalActionError(f"{where}: action {shown(value)} is not legal")
        out[row] = value
    return out


def _explain(answers: list[_Answer], legal: list[list[int]]) -> None:
    """Raises the error naming the first bad action's policy, row, game and seat, if any."""
    for policy, rows, batch, answer in answers:
        chosen = list(answer)  # type: ignore[call-overload]
        for i, action in enumerate(chosen):
            r = i if rows is None else int(rows[i])
            _checked_action(policy, i, action, (batch.games[i], batch.seats[i]), legal[r])


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
    where = f"policy {shown(name)}, row {row} of its batch (game {game}, seat {seat})"
    value = as_int(action)
    if value is None:
        raise IllegalActionError(f"{where}: the action must be an int, got {shown(action)}")
    if value not in legal:
        raise IllegalActionError(f"{where}: action {shown(value)} is not legal; legal: {legal}")
    return value
