"""Batch simulation: millions of whole games in Rust on all cores, summarized.

``simulate`` runs every game inside the Rust engine with the GIL released; per-game results come
back as NumPy arrays and the summary is computed from exact integer totals, so the same seed gives
the same result for any number of threads, and for a run split over many machines with
``backend="ray"``.

Game ``g`` of a run with seed ``s`` is exactly the seeded game
``make(...).new_state(seed=derive_seed(s, g))`` and the bot in seat ``p`` draws from
``SplitMix64(derive_seed(derive_seed(s, g), p + 1))`` (see ``docs/rng.md``).

This module owns the entry point :func:`simulate`: checking its arguments and choosing where the
games run (the engine's threads, ``_policy`` for Python policies, ``_ray``). The result types live
in the leaf ``_simulation`` (re-exported here); this module plays no rules itself (the engine
does) and must not be imported by ``_policy``, ``_ray`` or the renderers, which import the leaf.
"""

from __future__ import annotations

import inspect
from collections.abc import Callable, Sequence
from functools import partial
from typing import Any, Literal

from cardtable import _rng
from cardtable._inputs import MAX_SEED, check_bool, check_int, check_threads, is_choice, shown
from cardtable._simulation import (
    BotSummary,
    PolicyBatch,
    PythonPolicy,
    SeatSummary,
    SimulationResult,
    check_progress,
    result_from_raw,
    run_local,
)
from cardtable.errors import InvalidOptionError

__all__ = [
    "BotSummary",
    "PolicyBatch",
    "PythonPolicy",
    "SeatSummary",
    "SimulationResult",
    "derive_seed",
    "simulate",
]


def _argument_hint(options: dict[str, Any], error: str) -> str:
    """A hint for the game's refusal ``error`` of ``options``.

    ``"; did you mean threads= (an argument of simulate)?"`` when a keyword the game refused as
    an unknown option is a near miss of one of :func:`simulate`'s own arguments, else ``""``.
    """
    import difflib

    for key in options:
        if f'unknown option "{key}"' not in error:
            continue
        close = difflib.get_close_matches(key, _own_arguments(), n=1, cutoff=0.75)
        if close:
            return f"; did you mean {close[0]}= (an argument of simulate)?"
    return ""


def _own_arguments() -> list[str]:
    """The keyword arguments of :func:`simulate` itself (every other keyword is a game option)."""
    return [
        name
        for name, p in inspect.signature(simulate).parameters.items()
        if p.kind is inspect.Parameter.KEYWORD_ONLY
    ]


MAX_BATCH = 1 << 20
"""The largest ``batch_size`` (games stepped together for Python policies)."""


def simulate(
    game_id: str,
    *,
    games: int,
    players: int,
    bots: Sequence[str | PythonPolicy] | None = None,
    seed: int = 0,
    threads: int | None = None,
    keep_games: bool = True,
    progress: bool | Callable[[int, int], object] = True,
    backend: Literal["local", "ray"] = "local",
    ray_chunks: int | None = None,
    batch_size: int = 256,
    first_game: int = 0,
    **options: Any,
) -> SimulationResult:
    """Plays many whole games with built-in bots (or Python policies) and summarizes them.

    Args:
        game_id: A registered game id (see :func:`cardtable.games`).
        games: Number of games.
        players: Number of players.
        bots: One per seat: a built-in bot name (``"random"``, ``"greedy"``, ``"forgetful:0.2"``,
            ...; see ``cardtable.games()``) or a Python policy (a callable taking a
            :class:`PolicyBatch`, reading only what it needs of it: observations are built only
            when read). Default: ``"random"`` in every seat. In the result a policy is labelled
            ``"policy:<name>"`` (its ``__name__``, else its type's name), and a second distinct
            policy of the same name ``"policy:<name>#2"`` (then ``#3``, ...); the same callable
            in several seats keeps one label. So a policy is never pooled in ``by_bot`` with a
            built-in bot or another policy.
        seed: The run's seed; the same seed gives the same result for any thread count.
        threads: Worker threads (default: all cores). With a Python policy in any seat the games
            are stepped in the calling thread, batch by batch, whatever ``threads`` says (the
            policy is Python code); a ``VectorEnv`` with several threads steps built-in opponents
            in parallel.
        keep_games: Keep per-game arrays (``scores`` in the smallest of int16/int32/int64 that
            holds them, ``winners`` bool, ``lengths`` uint32; see :class:`SimulationResult`);
            with ``False`` the summary is computed in fixed memory, for runs of 10⁸ games and
            more.
        progress: Show a progress bar (``True``), nothing (``False``), or call
            ``progress(done, total)`` about ten times a second (return ``False`` to stop).
        backend: ``"local"``, or ``"ray"`` to split the games into chunks run as Ray tasks (needs
            ``pip install cardtable[ray]`` and a running or a local Ray cluster); the results
            are identical.
        ray_chunks: Number of Ray tasks (default: twice the cluster's CPUs); only with
            ``backend="ray"``.
        first_game: The number of the run's first game: the run plays games ``first_game ..
            first_game + games - 1`` of the run seeded ``seed`` (game ``g`` is always
            ``new_state(seed=derive_seed(seed, g))``). Runs of consecutive ranges, on one machine
            or many, are parts of one run: :meth:`SimulationResult.merge` joins them into the
            result of the whole range (a part keeps its whole range even if interrupted).
        batch_size: With Python policies: games stepped together per policy call. While such a
            run lasts, the garbage collector's first threshold (``gc.get_threshold()[0]``) is
            raised by ``batch_size`` plus a few, so that the batch's legal-action lists do not set
            off a collection at every step; it is restored afterwards.
        **options: The game's options.

    Returns:
        The per-game arrays and the summary. If the run was interrupted (Ctrl-C), ``interrupted``
        is ``True`` and the summary covers the ``games_played`` games completed so far; the
        per-game arrays keep the requested size, a game not completed having length 0 and zero
        scores and winners (``result.lengths > 0`` selects the completed ones, which may lie
        anywhere in the range: each thread plays its own part of it). Ctrl-C that comes once
        every game is played (the engine checks for it about ten times a second and after the
        last game: a short run's only check) raises ``KeyboardInterrupt``, as right after the
        call.

    Raises:
        InvalidOptionError: On a bad game, option, bot, count or backend, or a ``progress``
            that is not ``True``, ``False`` or a callable taking ``(done, total)``.
    """
    from cardtable import _core

    games = check_int("games", games, 0, MAX_SEED)
    seed = check_int("seed", seed, 0, MAX_SEED)
    first_game = check_int("first_game", first_game, 0, MAX_SEED - games)
    threads = check_threads(threads)
    batch_size = check_int("batch_size", batch_size, 1, MAX_BATCH)
    check_bool("keep_games", keep_games)
    check_progress(progress)  # before any runner or cluster is set up
    try:
        game = _core.Game(game_id, players, options)
    except InvalidOptionError as err:
        raise InvalidOptionError(f"{err}{_argument_hint(options, str(err))}") from None
    if bots is None:
        bots = ["random"] * game.players
    if isinstance(bots, str) or not isinstance(bots, Sequence):
        raise InvalidOptionError(f"bots must be a list of bot names or policies, got {shown(bots)}")
    bots = list(bots)
    if len(bots) != game.players:
        raise InvalidOptionError(f"{game_id}: {len(bots)} bots given for {game.players} players")
    for seat, b in enumerate(bots):
        if not isinstance(b, str) and not callable(b):
            raise InvalidOptionError(
                f"bots[{seat}] must be a bot name or a Python policy (a callable), got {shown(b)}"
            )
    names = bot_labels(bots)
    if ray_chunks is not None and not is_choice(backend, "ray"):
        raise InvalidOptionError(
            f"ray_chunks={shown(ray_chunks)} goes with backend='ray' (the local backend splits the "
            "games over its threads itself)"
        )
    run: partial[dict[str, Any]]
    if any(not isinstance(b, str) for b in bots):
        if not is_choice(backend, "local"):
            raise InvalidOptionError("Python policies run only with backend='local'")
        from cardtable._policy import run_with_policies

        run = partial(run_with_policies, game, bots, batch_size=batch_size)
    elif is_choice(backend, "local"):
        run = partial(run_local, game, names, threads=threads)
    elif is_choice(backend, "ray"):
        from cardtable._ray import simulate_ray

        run = partial(simulate_ray, game, names, chunks=ray_chunks)
    else:
        raise InvalidOptionError(f"backend must be 'local' or 'ray', got {shown(backend)}")
    raw = run(
        games=games, seed=seed, keep_games=keep_games, progress=progress, first_game=first_game
    )
    return result_from_raw(raw, game, names, seed, games, first_game)


def bot_labels(bots: Sequence[str | PythonPolicy]) -> list[str]:
    """The label of each seat's bot: a built-in bot's name, or ``policy:<name>`` for a policy.

    ``<name>`` is the policy's ``__name__`` (its type's name if it has none); a policy distinct
    from an earlier one of the same label gets ``#2``, ``#3``, ... appended, so labels never
    collide with a built-in bot (none is named ``policy``) or with another policy, while the same
    callable in several seats keeps one label (the same method of the same object too:
    ``agent.act`` given twice is one policy). A comma in the name becomes ``;``, so that a lineup
    of labels joined by commas (a study's ``lineup`` column) splits back into its labels.

    Args:
        bots: One built-in bot name or Python policy per seat.

    Returns:
        One label per seat.
    """
    seen: list[tuple[PythonPolicy, str]] = []
    labels = []
    for b in bots:
        if isinstance(b, str):
            labels.append(b)
            continue
        label = next((lab for p, lab in seen if _same_policy(p, b)), None)
        if label is None:
            name = getattr(b, "__name__", None)
            name = name if isinstance(name, str) else type(b).__name__
            base = f"policy:{name.replace(',', ';')}"
            label, n = base, 1
            while any(label == lab for _, lab in seen):
                n += 1
                label = f"{base}#{n}"
            seen.append((b, label))
        labels.append(label)
    return labels


def _same_policy(a: PythonPolicy, b: PythonPolicy) -> bool:
    """Whether ``a`` and ``b`` are one policy: the same object, or one method of one object.

    ``agent.act`` makes a new bound method at every access; those compare equal.
    """
    if a is b:
        return True
    return inspect.ismethod(a) and inspect.ismethod(b) and a == b


def derive_seed(seed: int, index: int) -> int:
    """The seed of sub-stream ``index`` of ``seed``: how a run seeds its games and their bots.

    Game ``g`` of ``simulate(..., seed=s)`` is ``make(...).new_state(seed=derive_seed(s, g))``, and
    the built-in bot in its seat ``p`` is seeded with ``derive_seed(derive_seed(s, g), p + 1)``
    (``docs/rng.md``)::

        g_seed = cardtable.derive_seed(7, 12)           # game 12 of a run with seed 7
        state = game.new_state(seed=g_seed)
        bots = [cardtable.bot(game, "greedy", p, seed=cardtable.derive_seed(g_seed, p + 1))
                for p in range(game.players)]

    Args:
        seed: The run's seed (or a game's), an int in ``0..2**64 - 1`` (NumPy integers too).
        index: The sub-stream, an int in ``0..2**64 - 1``.

    Returns:
        An int in ``0..2**64 - 1``.

    Raises:
        InvalidOptionError: If ``seed`` or ``index`` is not such an int.
    """
    return _rng.derive_seed(
        check_int("seed", seed, 0, MAX_SEED), check_int("index", index, 0, MAX_SEED)
    )
