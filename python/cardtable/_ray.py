"""Many machines: a batch run split into game ranges run as Ray tasks.

Game ``g``'s seeds depend only on the run's seed and ``g``, so the merged result is identical to a
local run with the same seed, whatever the number of tasks or machines.
"""

from __future__ import annotations

from collections.abc import Callable
from itertools import pairwise
from typing import TYPE_CHECKING, Any

import numpy as np

from cardtable._inputs import check_int
from cardtable.errors import CardtableError, InvalidOptionError

if TYPE_CHECKING:
    from cardtable import _core

__all__ = ["simulate_ray"]


def _run_range(
    game_id: str,
    players: int,
    options: dict[str, Any],
    bots: list[str],
    seed: int,
    keep_games: bool,
    version: str,
    first: int,
    count: int,
) -> dict[str, Any]:
    """Games ``first .. first + count`` of the run, on one thread of a Ray worker.

    Raises:
        InvalidOptionError: If the worker's cardtable is not ``version``, the driver's: its games
            could differ from the driver's.
    """
    import socket

    from cardtable import _core
    from cardtable._simulation import run_local
    from cardtable._version import VERSION

    if version != VERSION:
        raise InvalidOptionError(
            f"a Ray worker ({socket.gethostname()}) has cardtable {VERSION} and the driver "
            f"{version}: a game's result may differ between versions; install one version on "
            "every machine of the cluster"
        )

    game = _core.Game(game_id, players, options)
    return run_local(game, bots, count, seed, keep_games, False, threads=1, first_game=first)


def simulate_ray(
    game: _core.Game,
    bots: list[str],
    *,
    games: int,
    seed: int,
    keep_games: bool,
    chunks: int | None,
    progress: bool | Callable[[int, int], object],
    first_game: int = 0,
) -> dict[str, Any]:
    """Runs games ``first_game ..`` as Ray tasks over contiguous game ranges and merges them.

    Connects to the running Ray cluster (``ray.init()``) if none is connected yet, once the
    arguments are checked here: the bots, like everything the workers check, by a run of no
    games on this machine's engine.

    Raises:
        InvalidOptionError: If Ray is not installed, ``chunks`` is not an int of at least 1, or
            a bot is unknown.
        CardtableError: What a worker raised (its own error, not Ray's wrapper of it).
    """
    try:
        import ray
    except ImportError:
        raise InvalidOptionError("backend='ray' needs Ray: pip install 'cardtable[ray]'") from None
    from cardtable._simulation import Progress, merge_raw, run_local
    from cardtable._version import VERSION

    if chunks is not None:
        chunks = check_int("ray_chunks", chunks, 1)
    run_local(game, bots, 0, seed, keep_games, False, threads=1)
    if not ray.is_initialized():
        ray.init(include_dashboard=False, log_to_driver=False)
    if chunks is None:
        chunks = 2 * max(1, int(ray.cluster_resources().get("CPU", 1)))  # type: ignore[no-untyped-call]
    chunks = min(chunks, max(games, 1))
    bounds = [games * i // chunks for i in range(chunks + 1)]
    run = (game.game_id, game.players, game.options, bots, seed, keep_games, VERSION)
    task = ray.remote(_run_range)
    refs = [task.remote(*run, first_game + lo, hi - lo) for lo, hi in pairwise(bounds)]
    sizes = {ref: hi - lo for ref, (lo, hi) in zip(refs, pairwise(bounds), strict=True)}
    finished: set[Any] = set()
    stopped = False
    with Progress(progress, games) as report:
        waiting = list(refs)
        try:
            while waiting:
                ready, waiting = ray.wait(waiting, num_returns=1, timeout=0.2)
                finished.update(ready)
                done = sum(sizes[r] for r in finished)
                if report is not None and not report(done):
                    stopped = True
                    break
        except KeyboardInterrupt:
            if len(finished) == len(refs):
                raise  # every game was played: Ctrl-C is the caller's, as after the call
            stopped = True
    if not stopped or len(finished) == len(refs):  # stopped after the last range: complete
        return merge_raw(_results(ray, refs), game.players)
    for ref in refs:
        if ref not in finished:
            ray.cancel(ref)
    done_refs = [r for r in refs if r in finished]
    parts = _results(ray, done_refs) if done_refs else []
    empty = _run_range(*run, 0, 0)  # a run of no games: the summary's zeros, the arrays' shapes
    raw = merge_raw(parts or [empty], game.players)
    raw["interrupted"] = True
    if keep_games:
        # The completed ranges need not be contiguous: the per-game arrays keep the requested
        # size, with the games of unfinished ranges not played (length 0), as a local run's.
        starts = dict(zip(refs, bounds, strict=False))
        for key in ("scores", "winners", "lengths"):
            shape = (games, *np.shape(empty[key])[1:])
            dtype = np.result_type(*(np.asarray(p[key]).dtype for p in [empty, *parts]))
            full = np.zeros(shape, dtype=dtype)
            for ref, part in zip(done_refs, parts, strict=True):
                full[starts[ref] : starts[ref] + sizes[ref]] = part[key]
            raw[key] = full
    return raw


def _results(ray: Any, refs: list[Any]) -> list[dict[str, Any]]:
    """The tasks' results, in order.

    A task that failed with one of the package's errors raises that error: Ray wraps it in a
    ``RayTaskError`` whose message is the worker's coloured traceback.
    """
    try:
        results: list[dict[str, Any]] = ray.get(refs)
    except ray.exceptions.RayTaskError as failed:
        cause = getattr(failed, "cause", None)
        if isinstance(cause, CardtableError):
            raise cause from None
        raise
    return results
