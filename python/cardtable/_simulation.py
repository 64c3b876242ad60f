"""What a simulation run is made of: the policy batches, the results and their arithmetic.

A leaf of the simulation layer: :mod:`cardtable.sim` (the entry point), ``_policy`` (Python
policies), ``_ray`` (runs split over machines) and :mod:`cardtable.render.replay` all build on these
types; this module imports none of them (the replay viewer only inside
:meth:`SimulationResult.replay`).
"""

from __future__ import annotations

import errno
import functools
import inspect
import itertools
import json
import math
import os
import time
from collections.abc import Callable, Iterable, Sequence, Sized
from dataclasses import dataclass, field, fields
from typing import TYPE_CHECKING, Any, Protocol

import numpy as np
import numpy.typing as npt

from cardtable._extras import require
from cardtable._inputs import (
    MAX_SEED,
    as_int,
    as_items,
    check_int,
    check_path,
    check_threads,
    shown,
    write_whole,
)
from cardtable._option_text import changed_options, options_text
from cardtable._rich_text import plain_text
from cardtable._version import VERSION
from cardtable._words import plural
from cardtable.errors import CapacityError, InvalidOptionError, InvalidStateError

if TYPE_CHECKING:
    import pyarrow

    from cardtable import _core
    from cardtable.render.replay import Replay

__all__ = [
    "BotSummary",
    "PolicyBatch",
    "PolicySource",
    "PythonPolicy",
    "SeatSummary",
    "SimulationResult",
    "check_progress",
    "merge_raw",
    "result_from_raw",
    "run_local",
    "wilson_interval",
]

_Z95 = 1.959963984540054


class PolicySource(Protocol):
    """Where a lazy :class:`PolicyBatch` reads what it was not given (the run's current step)."""

    def observations(self) -> list[dict[str, Any]]:
        """Every pending row's observation dict."""
        ...

    def legal_actions(self) -> list[list[int]]:
        """Every pending row's sorted legal actions."""
        ...

    def tensors(self) -> npt.NDArray[np.float32]:
        """Every pending row's ``observation_tensor``, ``[rows, *observation_shape]``."""
        ...

    def legal_masks(self) -> npt.NDArray[np.bool_]:
        """Every pending row's legal-action mask, ``[rows, num_actions]``."""
        ...


class PolicyBatch:
    """The decisions a Python policy is asked for at once, one row per waiting game.

    In :func:`cardtable.simulate` nothing is converted until the policy reads it: a policy that
    only reads ``legal_actions`` never pays for observation dicts. Read a batch during the policy
    call only; once the policy has answered, the games have moved on and reading an attribute
    not read before raises :class:`~cardtable.errors.InvalidStateError`.

    Attributes:
        games: Index of each game in the run.
        seats: The seat to move in each game.
        observations: Each seat's ``observation(p)`` as a dict (built on first access).
        legal_actions: Each seat's sorted legal actions (built on first access).
        tensors: Each seat's ``observation_tensor(p)`` as one float32 array
            ``[len(batch), *observation_shape]`` (built on first access); cheaper than
            ``observations`` when the policy feeds a network.
        legal_flat: All rows' legal actions one after another (uint32), with
            ``legal_offsets`` (``len(batch) + 1`` entries): row ``r``'s are
            ``legal_flat[legal_offsets[r]:legal_offsets[r + 1]]``. Costs nothing to read.
        legal_mask: The legal actions as a bool array ``[len(batch), num_actions]`` (built on
            first access, by the engine in ``simulate``), the mask a network's logits need; the
            same as ``VectorEnv``'s ``action_mask``.
    """

    __slots__ = (
        "_games",
        "_legal",
        "_legal_flat",
        "_legal_mask",
        "_num_actions",
        "_observations",
        "_rows",
        "_seats",
        "_source",
        "_tensors",
    )

    def __init__(
        self,
        games: Sequence[int] | npt.NDArray[np.integer[Any]],
        seats: Sequence[int] | npt.NDArray[np.integer[Any]],
        observations: list[dict[str, Any]] | None = None,
        legal_actions: list[list[int]] | None = None,
        *,
        tensors: npt.NDArray[np.float32] | None = None,
        source: PolicySource | None = None,
        rows: npt.NDArray[np.intp] | None = None,
        legal_flat: tuple[npt.NDArray[np.uint32], npt.NDArray[np.uint64]] | None = None,
        num_actions: int | None = None,
    ) -> None:
        """A batch given in full, or read lazily from ``source`` (its rows ``rows``, else all).

        Args:
            games: Index of each game in the run.
            seats: The seat to move in each game.
            observations: The observation dicts (read from ``source`` when ``None``).
            legal_actions: The legal actions (read from ``source`` when ``None``).
            tensors: The observation tensors (read from ``source`` when ``None``).
            source: Where to read what is not given.
            rows: Which of the source's rows are this batch's (all when ``None``).
            legal_flat: The legal actions as ``(flat, offsets)`` (built from ``legal_actions``
                when ``None``).
            num_actions: The game's number of action ids, the width of ``legal_mask`` (which
                cannot be read without it).

        Raises:
            InvalidOptionError: If ``num_actions`` is not an int of at least 0, or (for a batch
                made by hand, without ``source``) ``seats`` or any of the given lists has
                another length than ``games``, or a legal action is not an int in
                ``0..2**32-1``.
        """
        if source is None:
            legal_actions = _hand_made_rows(games, seats, observations, legal_actions, tensors)
        self._games: Sequence[int] | npt.NDArray[np.integer[Any]] = games
        self._seats: Sequence[int] | npt.NDArray[np.integer[Any]] = seats
        self._observations = observations
        self._legal = legal_actions
        self._tensors = tensors
        self._source = source
        self._rows = rows
        self._legal_flat = legal_flat
        self._num_actions = (
            None if num_actions is None else check_int("num_actions", num_actions, 0)
        )
        self._legal_mask: npt.NDArray[np.bool_] | None = None

    def __len__(self) -> int:
        return len(self._games)

    def _from_source(self, what: str) -> PolicySource:
        if self._source is None:
            raise InvalidStateError(
                f"this batch has no {what}: it was made without them, or the policy has already "
                "answered it, so its games have moved on; read what the policy needs during the "
                "call"
            )
        return self._source

    def _pick(self, items: list[Any]) -> list[Any]:
        if self._rows is None:
            return items
        return [items[r] for r in self._rows.tolist()]

    @property
    def games(self) -> list[int]:
        """Index of each game in the run."""
        if not isinstance(self._games, list):
            self._games = _int_list(self._games)
        return self._games

    @property
    def seats(self) -> list[int]:
        """The seat to move in each game."""
        if not isinstance(self._seats, list):
            self._seats = _int_list(self._seats)
        return self._seats

    @property
    def observations(self) -> list[dict[str, Any]]:
        """Each seat's ``observation(p)`` (built on first access)."""
        if self._observations is None:
            self._observations = self._pick(self._from_source("observations").observations())
        return self._observations

    @property
    def legal_actions(self) -> list[list[int]]:
        """Each seat's sorted legal actions (built on first access)."""
        if self._legal is None:
            self._legal = self._pick(self._from_source("legal actions").legal_actions())
        return self._legal

    @property
    def tensors(self) -> npt.NDArray[np.float32]:
        """Each seat's ``observation_tensor`` rows, ``[len(batch), *observation_shape]`` float32."""
        if self._tensors is None:
            all_rows = self._from_source("observation tensors").tensors()
            self._tensors = all_rows if self._rows is None else all_rows[self._rows]
        return self._tensors

    @property
    def legal_flat(self) -> npt.NDArray[np.uint32]:
        """All rows' legal actions one after another (see ``legal_offsets``)."""
        return self._flat()[0]

    @property
    def legal_offsets(self) -> npt.NDArray[np.uint64]:
        """Where each row's legal actions start in ``legal_flat``, then its length."""
        return self._flat()[1]

    def _flat(self) -> tuple[npt.NDArray[np.uint32], npt.NDArray[np.uint64]]:
        if self._legal_flat is None:
            legal = self.legal_actions
            offsets = np.zeros(len(legal) + 1, dtype=np.uint64)
            np.cumsum([len(row) for row in legal], out=offsets[1:])
            flat = np.fromiter(
                (a for row in legal for a in row), dtype=np.uint32, count=int(offsets[-1])
            )
            self._legal_flat = (flat, offsets)
        return self._legal_flat

    @property
    def legal_mask(self) -> npt.NDArray[np.bool_]:
        """Whether action ``a`` is legal in row ``r``, at ``[r, a]`` (built on first access).

        Raises:
            InvalidOptionError: If the batch was made by hand without ``num_actions``, or with a
                legal action at or above it.
        """
        if self._legal_mask is None:
            if self._source is not None:
                all_rows = self._source.legal_masks()
                self._legal_mask = all_rows if self._rows is None else all_rows[self._rows]
            else:
                self._legal_mask = self._mask_of_flat()
        return self._legal_mask

    def _mask_of_flat(self) -> npt.NDArray[np.bool_]:
        width = self._num_actions
        if width is None:
            raise InvalidOptionError(
                "this batch was made without num_actions, so it has no legal_mask"
            )
        flat, offsets = self._flat()
        if flat.size and int(flat.max()) >= width:
            raise InvalidOptionError(
                f"action {int(flat.max())} is out of range for num_actions {width}"
            )
        starts = np.arange(len(self), dtype=np.intp) * width
        mask = np.zeros(len(self) * width, dtype=np.bool_)
        mask[np.repeat(starts, np.diff(offsets).astype(np.intp)) + flat] = True
        return mask.reshape(len(self), width)

    def detach(self) -> None:
        """Forgets the source: attributes not read so far can no longer be read."""
        self._source = None

    def __repr__(self) -> str:
        return f"<PolicyBatch of {len(self)} rows>"


_MAX_ACTION = (1 << 32) - 1
"""The largest action id a batch can hold (``legal_flat`` is uint32)."""


def _hand_made_rows(
    games: object,
    seats: object,
    observations: object,
    legal_actions: object,
    tensors: object,
) -> list[list[int]] | None:
    """The legal-action lists of a batch made by hand, checked and as plain ints.

    Raises:
        InvalidOptionError: If ``seats``, ``observations``, ``legal_actions`` or ``tensors`` has
            another length than ``games``, or a legal action is not an int in
            ``0..2**32-1``.
    """
    rows = _length(games)
    if rows is None:
        raise InvalidOptionError(f"games must be a sequence of ints, got {shown(games)}")
    given = (("seats", seats), ("observations", observations), ("tensors", tensors))
    for name, value in (*given, ("legal_actions", legal_actions)):
        if value is not None and _length(value) != rows:
            raise InvalidOptionError(
                f"{name} must have one entry per game ({rows}), got {shown(value)}"
            )
    if legal_actions is None:
        return None
    checked: list[list[int]] = []
    for row in as_items(legal_actions) or []:
        items = as_items(row)
        ids = [None] if items is None else [as_int(a) for a in items]
        if any(a is None or not 0 <= a <= _MAX_ACTION for a in ids):
            raise InvalidOptionError(
                f"each row of legal_actions must be a list of ints in 0..={_MAX_ACTION}, "
                f"got {shown(row)}"
            )
        checked.append([a for a in ids if a is not None])
    return checked


def _length(value: object) -> int | None:
    """The length of a sized sequence (list, tuple, array of at least one dimension), or ``None``.

    Not a sequence here: a str or bytes, or a 0-d NumPy array (``Sized`` but without a length).
    """
    if isinstance(value, str | bytes) or not isinstance(value, Sized):
        return None
    try:
        return len(value)
    except TypeError:  # a 0-d array
        return None


def _int_list(items: Sequence[int] | npt.NDArray[np.integer[Any]]) -> list[int]:
    if isinstance(items, np.ndarray):
        out: list[int] = items.tolist()
        return out
    return [int(i) for i in items]


PythonPolicy = Callable[[PolicyBatch], "Sequence[int] | npt.NDArray[np.integer[Any]]"]
"""A Python bot: called with a :class:`PolicyBatch`, returns one legal action per row (a sequence
of ints or a 1-d integer NumPy array)."""


def wilson_interval(successes: float, trials: int) -> tuple[float, float]:
    """The 95% Wilson score interval of a proportion (``(0, 1)`` when there are no trials)."""
    if trials == 0:
        return (0.0, 1.0)
    p = successes / trials
    z2 = _Z95 * _Z95
    denom = 1 + z2 / trials
    centre = (p + z2 / (2 * trials)) / denom
    half = _Z95 * math.sqrt(max(p * (1 - p) / trials + z2 / (4 * trials * trials), 0.0)) / denom
    return (max(0.0, centre - half), min(1.0, centre + half))


_INT64_MAX = (1 << 63) - 1
"""The largest game number the ``game`` column of :meth:`SimulationResult.to_arrow` holds as
``int64``."""


@dataclass(frozen=True)
class SeatSummary:
    """Results of one seat over a run.

    Attributes:
        seat: The seat.
        bot: The bot that played it.
        games: Games counted.
        wins: Games in which the seat was among the winners (a shared win counts for each
            co-winner).
        win_share: Wins with a shared win split evenly among its winners (sums to ``games`` over
            all seats).
        win_rate: ``wins / games`` (the seats' win rates sum above 1 when wins are shared).
        win_rate_ci95: 95% Wilson interval of ``win_rate``.
        score_mean: Mean final score.
        score_std: Sample standard deviation of the final score (0 for a single game).
        score_min: Lowest final score.
        score_max: Highest final score.
    """

    seat: int
    bot: str
    games: int
    wins: int
    win_share: float
    win_rate: float
    win_rate_ci95: tuple[float, float]
    score_mean: float
    score_std: float
    score_min: int
    score_max: int


@dataclass(frozen=True)
class BotSummary:
    """Results of one bot over all the seats it played.

    Attributes:
        bot: The bot.
        seats: The seats it played.
        games: Seat-games counted (games × seats).
        win_rate: Share of those seat-games won (shared wins count for every co-winner).
        win_rate_ci95: 95% Wilson interval of ``win_rate``, treating the seat-games as
            independent. The seats of one game are not (a bot against itself in every seat wins
            about ``1 / seats`` of them by construction), so the interval is wider or narrower
            than the truth: for a comparison of bots, a tournament's intervals, clustered by
            deal, are the ones to read (``docs/studies.md``).
        score_mean: Mean final score.
        score_std: Sample standard deviation of the final score (0 for a single seat-game).
    """

    bot: str
    seats: tuple[int, ...]
    games: int
    win_rate: float
    win_rate_ci95: tuple[float, float]
    score_mean: float
    score_std: float


def _mean_std(n: int, total: int, squares: int) -> tuple[float, float]:
    if n == 0:
        return (math.nan, math.nan)
    mean = total / n
    if n == 1:
        return (mean, 0.0)
    # Exact integer arithmetic before the one division keeps this independent of summation order.
    var = (squares * n - total * total) / (n * (n - 1))
    return (mean, math.sqrt(max(var, 0.0)))


@dataclass(eq=False)
class SimulationResult:
    """What :func:`simulate` returns.

    Two results compare equal (``==``) when every field is equal, the per-game arrays element by
    element and in the same dtype: the same seed gives equal results on any thread count.

    Attributes:
        game_id: The game.
        players: Number of players.
        options: The game's effective options.
        bots: The bot of each seat (Python policies as ``policy:<name>``, see ``simulate``).
        seed: The run's seed.
        games_requested: Games asked for.
        games_played: Games completed (fewer only when interrupted).
        interrupted: Whether the run was stopped early (Ctrl-C or the progress callback).
        decisions: Total player decisions over all completed games.
        scores: ``[games, players]`` final scores, or ``None`` with ``keep_games=False``; in the
            smallest of ``int16``, ``int32`` and ``int64`` that holds every score of the run
            (``int16`` for every built-in game), so convert before arithmetic that could
            overflow (``result.scores.astype(np.int64)``).
        winners: ``[games, players]`` ``bool``, whether each seat won, or ``None``.
        lengths: ``[games]`` ``uint32`` decisions per game (0 for a game not played because the
            run stopped), or ``None``. A kept game costs ``3 × players + 4`` bytes (16 with four
            players), in these arrays as during the run (the engine fills them in place).
        first_game: The number of the run's first game: row ``i`` of the arrays is game
            ``first_game + i`` (``simulate(first_game=...)``; 0 for a whole run).
        version: The version of cardtable that played the games (``cardtable.__version__``;
            ``""`` for a table saved before versions were recorded). A game's result may differ
            between versions, so :meth:`merge` and :meth:`resume` refuse to mix two.
        seats: Per-seat summary.
    """

    game_id: str
    players: int
    options: dict[str, Any]
    bots: list[str]
    seed: int
    games_requested: int
    games_played: int
    interrupted: bool
    decisions: int
    scores: npt.NDArray[np.signedinteger[Any]] | None
    winners: npt.NDArray[np.bool_] | None
    lengths: npt.NDArray[np.uint32] | None
    first_game: int = 0
    version: str = VERSION
    seats: list[SeatSummary] = field(default_factory=list)
    _totals: list[dict[str, int]] = field(default_factory=list, repr=False)

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, SimulationResult):
            return NotImplemented
        # ``seats`` is computed from the exact totals (compared instead), and holds NaN rates for
        # a run of no games.
        for f in fields(self):
            if f.name == "seats":
                continue
            a, b = getattr(self, f.name), getattr(other, f.name)
            if isinstance(a, np.ndarray) or isinstance(b, np.ndarray):
                same = (
                    isinstance(a, np.ndarray)
                    and isinstance(b, np.ndarray)
                    and a.dtype == b.dtype
                    and np.array_equal(a, b)
                )
                if not same:
                    return False
            elif a != b:
                return False
        return True

    __hash__ = None  # type: ignore[assignment]  # mutable, compared by value

    @classmethod
    def merge(cls, results: Iterable[SimulationResult]) -> SimulationResult:
        """Joins the results of consecutive game ranges of one run: the whole range's result.

        Runs of the same game, players, options, bots and seed whose ranges
        (``simulate(first_game=...)``) follow each other, without a gap or an overlap, are parts
        of one run, on one machine or many: the merged result equals one run of the whole range
        (``==``), summary and per-game arrays alike. The parts may be given in any order.

        Args:
            results: The parts (at least one).

        Returns:
            The result of the whole range (``interrupted`` if any part was).

        Raises:
            InvalidOptionError: If there is no part, the parts are of different runs, their ranges
                leave a gap or overlap, or some kept per-game arrays and some did not.
        """
        # An empty part sorts before a part starting at the same game.
        parts = sorted(_as_results(results), key=lambda r: (r.first_game, r.games_requested))
        head = parts[0]
        for r in parts[1:]:
            differ = [
                f"{name} {shown(getattr(head, name))} and {shown(getattr(r, name))}"
                for name in ("game_id", "players", "options", "bots", "seed")
                if getattr(r, name) != getattr(head, name)
            ]
            if differ:
                raise InvalidOptionError(
                    f"the results are of different runs: {'; '.join(differ)} (parts of one run "
                    "share the game, players, options, bots and seed)"
                )
        versions = sorted({r.version for r in parts} - {""})
        if len(versions) > 1:
            raise InvalidOptionError(
                f"the parts were played by different versions of cardtable ({', '.join(versions)})"
                ", and a game's result may differ between versions: play every part with one"
            )
        for a, b in itertools.pairwise(parts):
            end = a.first_game + a.games_requested
            if b.first_game != end:
                raise InvalidOptionError(
                    f"the ranges must follow each other: games {a.first_game}..{end - 1} are "
                    f"followed by games from {b.first_game}, not from {end}"
                )
        if len({r.scores is None for r in parts}) > 1:
            raise InvalidOptionError(
                "some results kept per-game arrays and some did not (keep_games): merge runs "
                "made the same way"
            )
        raw = merge_raw([r._raw() for r in parts], head.players)
        from cardtable import _core

        game = _core.Game(head.game_id, head.players, head.options)
        games = sum(r.games_requested for r in parts)
        version = versions[0] if len(versions) == 1 and all(r.version for r in parts) else ""
        return result_from_raw(raw, game, head.bots, head.seed, games, head.first_game, version)

    def resume(
        self,
        *,
        threads: int | None = None,
        progress: bool | Callable[[int, int], object] = True,
    ) -> SimulationResult:
        """Plays the games an interrupted run did not complete; returns the whole run's result.

        The games of the run's range that the run did not complete (``lengths == 0``: a run
        stopped with Ctrl-C or by its progress callback completes games all over its range) are
        played now, each exactly as the run would have played it (game ``g`` is always the seeded
        game ``derive_seed(seed, g)``), and filled in: the result equals that of an uninterrupted
        run (``==``). A result with every game completed comes back as it is. Interrupted again,
        it returns what it has, still ``interrupted`` (resume that in turn).

        Args:
            threads: Worker threads (``None``: one per core).
            progress: As for :func:`cardtable.simulate`, over the games still to play.

        Raises:
            InvalidOptionError: If the run kept no per-game arrays (``keep_games=False``: it does
                not say which games it completed) or used Python policies (they are not part of
                the result), if another version of cardtable played it (``version``), or on a
                bad ``threads`` or ``progress``.
        """
        from cardtable import _core

        check_progress(progress)
        threads = check_threads(threads)
        if self.scores is None or self.winners is None or self.lengths is None:
            raise InvalidOptionError(
                "a run made with keep_games=False does not say which games it completed: "
                "run it again (or the missing range with first_game=)"
            )
        policies = [b for b in self.bots if b.startswith("policy:")]
        if policies:
            raise InvalidOptionError(
                f"the run used Python policies ({', '.join(policies)}), which a result does not "
                "keep: play the missing games with simulate(first_game=...) and the same policies"
            )
        missing = np.flatnonzero(self.lengths == 0)
        if not len(missing) and not self.interrupted:
            return self
        if self.version and self.version != VERSION:
            raise InvalidOptionError(
                f"the run was played by cardtable {self.version} and this is {VERSION}: a game's "
                f"result may differ between versions, so resume it with cardtable {self.version} "
                f"(pip install 'cardtable=={self.version}')"
            )
        # The missing games as ranges [start, end) of rows.
        breaks = np.flatnonzero(np.diff(missing) != 1) + 1
        ranges = [(int(r[0]), int(r[-1]) + 1) for r in np.split(missing, breaks)]
        game = _core.Game(self.game_id, self.players, self.options)
        scores, winners, lengths = self.scores.copy(), self.winners.copy(), self.lengths.copy()
        done = 0
        with Progress(progress, len(missing)) as report:
            for start, end in ranges:
                shifted = None
                if report is not None:
                    shifted = functools.partial(_shifted_report, report, done)
                try:
                    raw = _core.simulate(
                        game,
                        games=end - start,
                        seed=self.seed,
                        bots=self.bots,
                        threads=threads,
                        first_game=self.first_game + start,
                        progress=shifted,
                    )
                except KeyboardInterrupt:  # as the range ended: keep the ranges done before it
                    break
                scores[start:end] = raw["scores"]
                winners[start:end] = raw["winners"]
                lengths[start:end] = raw["lengths"]
                done += end - start
                if raw["interrupted"]:
                    break
        played = lengths > 0
        raw = {
            "games_played": int(played.sum()),
            "interrupted": not played.all(),
            "decisions": int(lengths.astype(np.uint64).sum()),
            "share_denominator": SHARE_DENOMINATOR,
            "seats": seat_totals(scores[played], winners[played]),
            "scores": scores,
            "winners": winners,
            "lengths": lengths,
        }
        return result_from_raw(
            raw, game, self.bots, self.seed, self.games_requested, self.first_game, self.version
        )

    def _raw(self) -> dict[str, Any]:
        """This result as the engine's raw result dict (what :func:`merge_raw` joins)."""
        raw: dict[str, Any] = {
            "games_played": self.games_played,
            "interrupted": self.interrupted,
            "decisions": self.decisions,
            "chance_steps": 0,  # not kept in a result
            "share_denominator": SHARE_DENOMINATOR,
            "seats": self._totals,
        }
        if self.scores is not None:
            raw.update(scores=self.scores, winners=self.winners, lengths=self.lengths)
        return raw

    @property
    def by_bot(self) -> list[BotSummary]:
        """Summary per distinct bot, pooled over the seats it played."""
        out = []
        for bot in dict.fromkeys(self.bots):
            seats = tuple(i for i, b in enumerate(self.bots) if b == bot)
            n = self.games_played * len(seats)
            wins = sum(self._totals[s]["wins"] for s in seats)
            total = sum(self._totals[s]["score_sum"] for s in seats)
            squares = sum(self._totals[s]["score_sq_sum"] for s in seats)
            mean, std = _mean_std(n, total, squares)
            out.append(
                BotSummary(
                    bot=bot,
                    seats=seats,
                    games=n,
                    win_rate=wins / n if n else math.nan,
                    win_rate_ci95=wilson_interval(wins, n),
                    score_mean=mean,
                    score_std=std,
                )
            )
        return out

    def replay(self, game: int, title: str | None = None) -> Replay:
        """Rebuilds game ``game`` of this run from its seed as a replay viewer.

        The seeding contract makes this exact: the game is ``new_state(seed=derive_seed(seed,
        game))`` with the bots seeded as in the run; the rebuilt game must end with the run's
        scores. ``result.replay(g).save("game.html")`` writes the viewer.

        ``game`` is the game's number in the run: an int (NumPy integers too) in ``first_game ..
        first_game + games_requested - 1`` (``0 ..`` for a run of the whole range). When the run
        kept per-game arrays it must be a game the run completed (its ``lengths`` entry is not 0:
        a run stopped early, with Ctrl-C, completed games all over the range). A run that kept no
        arrays does not say which games it completed, so any game of its range is rebuilt
        (exactly the game the run plays with that number).

        Raises:
            InvalidOptionError: If ``game`` is not an int or not a game the run completed, if the
                run used Python policies, or if the game cannot be rebuilt with the per-step bots.
        """
        from cardtable.render.replay import replay_run_game

        if self.games_played == 0:
            raise InvalidOptionError("the run completed no games: there is none to replay")
        first = self.first_game
        g = check_int("game", game, first, first + self.games_requested - 1)
        if self.lengths is not None and self.lengths[g - first] == 0:
            raise InvalidOptionError(
                f"game {g} was not completed: the run was stopped before it (its completed "
                "games are those with lengths > 0)"
            )
        expected = None if self.scores is None else [int(x) for x in self.scores[g - first]]
        return replay_run_game(
            self.game_id,
            self.players,
            self.bots,
            seed=self.seed,
            game=g,
            options=self.options,
            expected_scores=expected,
            title=title,
        )

    def summary_table(self) -> str:
        """The summary as a text table: one row per seat, then one per bot that holds several.

        The title names the options that differ from the game's defaults (as ``-o`` takes them)
        and the caption the mean game length in decisions.
        """
        from rich.table import Table

        changed = self._changed_options()
        last = self.first_game + self.games_requested - 1
        part = f" {self.first_game:,}–{last:,}" if self.first_game and self.games_requested else ""
        title = (
            f"{self.game_id}{f' ({changed})' if changed else ''}, {self.players} players, "
            f"{plural(self.games_played, 'game')}{part}"
            f"{' (interrupted)' if self.interrupted else ''}, "
            f"seed {self.seed}"
        )
        caption = (
            f"{self.decisions / self.games_played:,.1f} decisions a game on average"
            if self.games_played
            else "no game was completed: nothing to summarize"
        )
        # As wide as the title (within the console's 110 columns), so that it stays on one line.
        table = Table(title=title, caption=caption, min_width=min(len(title), 110))
        for col in ("seat", "bot", "win rate", "95% CI", "mean score", "std", "min", "max"):
            # A long bot spec folds onto more lines rather than being cut: two settings of one
            # bot that share a long beginning must still read apart.
            table.add_column(
                col,
                justify="left" if col == "bot" else "right",
                overflow="fold" if col == "bot" else "ellipsis",
            )
        if not self.games_played:
            for s in self.seats:
                table.add_row(str(s.seat), s.bot, *["–"] * 6)
            return plain_text(110, table)
        for s in self.seats:
            table.add_row(
                str(s.seat),
                s.bot,
                f"{s.win_rate:.4f}",
                f"{s.win_rate_ci95[0]:.4f}–{s.win_rate_ci95[1]:.4f}",
                f"{s.score_mean:.3f}",
                f"{s.score_std:.3f}",
                str(s.score_min),
                str(s.score_max),
            )
        pooled = [b for b in self.by_bot if len(b.seats) > 1]  # one seat: its row says it all
        if pooled:
            table.add_section()
            for b in pooled:
                table.add_row(
                    ",".join(map(str, b.seats)),
                    b.bot,
                    f"{b.win_rate:.4f}",
                    f"{b.win_rate_ci95[0]:.4f}–{b.win_rate_ci95[1]:.4f}",
                    f"{b.score_mean:.3f}",
                    f"{b.score_std:.3f}",
                    "",
                    "",
                )
        return plain_text(110, table)

    def __str__(self) -> str:
        return self.summary_table()

    def _changed_options(self) -> str:
        """The options that differ from the game's defaults at this player count.

        As ``key=value`` pairs (values as ``cardtable simulate -o`` reads them), comma-separated;
        empty when every option has its default.
        """
        changed = changed_options(self.game_id, self.players, self.options)
        return options_text(changed) if changed else ""

    def game_columns(self) -> dict[str, npt.NDArray[Any]]:
        """The completed games as NumPy columns: ``game``, ``length``, ``score_<p>``, ``win_<p>``.

        One row per completed game (``lengths > 0``), in game order; ``game`` is the game's number
        in the run (``first_game`` on), as ``int64`` (``uint64`` for numbers from 2**63 on). The
        columns of :meth:`to_arrow` and of ``cardtable simulate --out``.

        Raises:
            InvalidOptionError: If the run was made with ``keep_games=False``.
        """
        if self.scores is None or self.winners is None or self.lengths is None:
            raise InvalidOptionError("per-game results were not kept (keep_games=False)")
        played = self.lengths > 0
        wide = self.first_game + self.games_requested > _INT64_MAX + 1
        number = np.uint64 if wide else np.int64
        columns: dict[str, npt.NDArray[Any]] = {
            "game": np.flatnonzero(played).astype(number) + number(self.first_game),
            "length": self.lengths[played],
        }
        for p in range(self.players):
            columns[f"score_{p}"] = self.scores[played, p]
        for p in range(self.players):
            columns[f"win_{p}"] = self.winners[played, p]
        return columns

    def to_arrow(self) -> pyarrow.Table:
        """Per-game results as a PyArrow table: :meth:`game_columns`, with the run's metadata.

        Raises:
            InvalidOptionError: If the run was made with ``keep_games=False``.
        """
        require("pyarrow", "arrow", "a table of the results")
        import pyarrow as pa

        columns = self.game_columns()
        meta = {
            "game_id": self.game_id,
            "players": str(self.players),
            "bots": json.dumps(self.bots),
            "seed": str(self.seed),
            "options": json.dumps(self.options),
            "first_game": str(self.first_game),
            "games_requested": str(self.games_requested),
            "interrupted": json.dumps(self.interrupted),
            "cardtable_version": self.version,
        }
        return pa.table(columns, metadata=meta)

    def to_parquet(self, path: str | os.PathLike[str]) -> None:
        """Writes :meth:`to_arrow` to a Parquet file.

        The file is written whole or not at all (:func:`cardtable._inputs.writing`).

        Raises:
            InvalidOptionError: If ``path`` is not a ``str`` or a path.
            OSError: If the file cannot be written.
        """
        require("pyarrow", "arrow", "a Parquet file of the results")
        import pyarrow.parquet as pq

        # With page checksums, which from_parquet verifies: a damaged file is refused, not read
        # as other games.
        write_whole(path, lambda f: pq.write_table(self.to_arrow(), f, write_page_checksum=True))

    @classmethod
    def from_arrow(cls, table: pyarrow.Table) -> SimulationResult:
        """The result a :meth:`to_arrow` table (or a ``--out`` Parquet file) was written from.

        The run's game, players, bots, options and seed are read from the table's metadata, the
        games from its rows; the summary is computed from the games again, exactly as the run
        computed it, so ``SimulationResult.from_arrow(r.to_arrow()) == r``. Tables of the parts
        of a run (``first_game``) load and :meth:`merge` like the parts themselves. A table from
        before ``first_game`` existed is read as a whole run of its games (interrupted if some of
        them are missing).

        Everything is checked before the per-game arrays are made: the columns' types (``game``
        and ``length`` integers, ``score_<p>`` integers that fit ``int64``, ``win_<p>``
        booleans, none of them null), each row a completed game (``length`` in
        ``1..=2**32-1``), the seed and the bots as :func:`cardtable.simulate` checks them (a
        Python policy's ``policy:<name>`` label is kept as it is), and one row per game of the
        range unless the run was interrupted.

        Raises:
            InvalidOptionError: If ``table`` is not such a table (no metadata, other columns, a
                column of another type or with nulls, values or metadata no run writes); the
                message names the column or key.
            CapacityError: If the run's per-game arrays (``games_requested`` games) would not fit
                in memory.
        """
        from cardtable import _core

        try:
            meta = {k.decode(): v.decode() for k, v in (table.schema.metadata or {}).items()}
            players = int(meta["players"])
            game = _core.Game(meta["game_id"], players, _metadata_json(meta, "options"))
            games = _int_column(table, "game", 0, MAX_SEED).astype(np.uint64)
            lengths = _int_column(table, "length", 1, _MAX_LENGTH).astype(np.uint32)
            scores = np.stack([_score_column(table, p) for p in range(players)], 1)
            winners = np.stack([_win_column(table, p) for p in range(players)], 1)
            first = int(meta.get("first_game", "0"))
            last = int(games.max()) + 1 if len(games) else 0
            requested = int(meta.get("games_requested", str(last)))
            # A table from before ``interrupted`` was saved: interrupted if it lacks games.
            interrupted = (
                _metadata_json(meta, "interrupted")
                if "interrupted" in meta
                else len(games) < requested
            )
            seed = check_int("seed", int(meta["seed"]), 0, MAX_SEED)
            bots = _bots_of(meta)
            problem = _table_problem(games, first, requested, len(bots), players, interrupted)
            if problem is None:
                _check_bot_specs(game, bots)
        except InvalidOptionError as err:  # a check of a column, the seed, the bots or the game
            problem = str(err)
        except (AttributeError, KeyError, ValueError, TypeError, OverflowError) as err:
            problem = repr(err)
        if problem is not None:
            raise InvalidOptionError(
                f"not a table of SimulationResult.to_arrow (or simulate --out): {problem}"
            )
        what = f"the per-game results of {requested} games (the table's games_requested)"
        hint = "load the table on a machine with more memory"
        _core.ensure_fits(requested * (players * (scores.itemsize + 1) + 4), what, hint)
        rows = (games - np.uint64(first)).astype(np.int64)
        try:
            full_scores = np.zeros((requested, players), dtype=scores.dtype)
            full_winners = np.zeros((requested, players), dtype=np.bool_)
            full_lengths = np.zeros(requested, dtype=np.uint32)
        except MemoryError as err:  # where the system does not tell the memory available
            raise CapacityError(f"{what} would not fit in memory; {hint}") from err
        full_scores[rows], full_winners[rows], full_lengths[rows] = scores, winners, lengths
        raw = {
            "games_played": len(rows),
            "interrupted": interrupted,
            "decisions": int(lengths.astype(np.uint64).sum()),
            "share_denominator": SHARE_DENOMINATOR,
            "seats": seat_totals(scores, winners),
            "scores": full_scores,
            "winners": full_winners,
            "lengths": full_lengths,
        }
        version = meta.get("cardtable_version", "")  # "": saved before versions were kept
        return result_from_raw(raw, game, bots, seed, requested, first, version)

    @classmethod
    def from_parquet(cls, path: str | os.PathLike[str]) -> SimulationResult:
        """:meth:`from_arrow` of a Parquet file written by :meth:`to_parquet` or ``--out``.

        Raises:
            InvalidOptionError: If ``path`` is not a ``str`` or a path, or the file is not such a
                table (not Parquet at all, say).
            CapacityError: As :meth:`from_arrow`.
            OSError: If the file cannot be read (``FileNotFoundError`` if it does not exist,
                ``IsADirectoryError`` for a directory), or a page fails its checksum (a damaged
                file written with checksums, as :meth:`to_parquet` writes them).
        """
        require("pyarrow", "arrow", "reading a Parquet file of results")
        import pyarrow as pa
        import pyarrow.parquet as pq

        name = os.fspath(check_path(path))
        if os.path.isdir(name):  # pyarrow would read the Parquet files in it as one dataset
            raise IsADirectoryError(errno.EISDIR, os.strerror(errno.EISDIR), name)
        try:
            table = pq.read_table(name, page_checksum_verification=True)
        except (OSError, MemoryError):
            raise
        except pa.ArrowException as err:
            raise InvalidOptionError(
                f"not a Parquet file of SimulationResult.to_parquet (or simulate --out): {err}"
            ) from None
        return cls.from_arrow(table)


_MAX_LENGTH = (1 << 32) - 1
"""The most decisions a game's ``length`` holds (``uint32``)."""


def _checked_column(table: pyarrow.Table, name: str, kind: str) -> npt.NDArray[Any]:
    """Column ``name`` of a saved table as a NumPy array, if it is of ``kind`` without nulls.

    ``kind`` is ``"integers"`` (any signed or unsigned integer type) or ``"booleans"``.

    Raises:
        InvalidOptionError: If it is of another type or holds nulls.
        KeyError: If there is no such column.
    """
    import pyarrow as pa

    column = table.column(name)
    is_kind = pa.types.is_integer if kind == "integers" else pa.types.is_boolean
    if not is_kind(column.type):
        raise InvalidOptionError(f"column {name} is of type {column.type}, not {kind}")
    if column.null_count:
        raise InvalidOptionError(f"column {name} has {column.null_count} nulls")
    values: npt.NDArray[Any] = column.to_numpy()
    return values


def _int_column(table: pyarrow.Table, name: str, low: int, high: int) -> npt.NDArray[Any]:
    """Integer column ``name`` of a saved table, its values in ``low..=high``.

    Raises:
        InvalidOptionError: If it is not a column of integers in that range without nulls.
        KeyError: If there is no such column.
    """
    values = _checked_column(table, name, "integers")
    if len(values):
        smallest, largest = int(values.min()), int(values.max())
        if smallest < low or largest > high:
            bad = smallest if smallest < low else largest
            raise InvalidOptionError(f"column {name} holds {bad}, not in {low}..={high}")
    return values


def _score_column(table: pyarrow.Table, seat: int) -> npt.NDArray[np.signedinteger[Any]]:
    """Seat ``seat``'s scores (``score_<seat>``) as signed integers, ``int16`` at least.

    Raises:
        InvalidOptionError: If the column is not of integers that fit ``int64``, without nulls.
        KeyError: If there is no such column.
    """
    name = f"score_{seat}"
    values = _int_column(table, name, -_INT64_MAX - 1, _INT64_MAX)
    if values.dtype == np.uint64:
        return values.astype(np.int64)
    return values.astype(np.promote_types(values.dtype, np.int16))


def _win_column(table: pyarrow.Table, seat: int) -> npt.NDArray[np.bool_]:
    """Whether seat ``seat`` won each game (``win_<seat>``).

    Raises:
        InvalidOptionError: If the column is not of booleans without nulls.
        KeyError: If there is no such column.
    """
    return _checked_column(table, f"win_{seat}", "booleans")


def _metadata_json(meta: dict[str, str], key: str) -> Any:
    """The JSON value of metadata ``key`` of a saved table.

    Raises:
        InvalidOptionError: If it nests too deep for Python's JSON reader (which would exhaust
            the recursion limit; the engine refuses options nested deeper than 64 levels).
        KeyError: If there is no such key.
        ValueError: If it is not JSON.
    """
    try:
        return json.loads(meta[key])
    except RecursionError:
        raise InvalidOptionError(
            f"the metadata's {key} is JSON nested too deep to read ({meta[key]:.40}...)"
        ) from None


def _bots_of(meta: dict[str, str]) -> list[str]:
    """The bots of a saved table's metadata.

    A JSON list of specs, or (in tables written before that) the specs joined with commas.

    Raises:
        InvalidOptionError: If the list nests too deep to read.
        KeyError: If the metadata has no bots.
        ValueError: If it is neither.
    """
    from cardtable.bots import split_bot_specs

    text = meta["bots"]
    if not text.startswith("["):
        return split_bot_specs(text)
    bots = _metadata_json(meta, "bots")
    if not isinstance(bots, list) or not all(isinstance(b, str) for b in bots):
        raise ValueError(f"bots is not a list of bot specs: {shown(text):.80}")
    return bots


def _check_bot_specs(game: _core.Game, bots: list[str]) -> None:
    """Checks a saved table's bots as :func:`cardtable.simulate` does, one per seat.

    A Python policy's label (``policy:<name>``, which no built-in bot has) is not a bot to seat:
    a result does not keep the policy.

    Raises:
        InvalidOptionError: On an unknown bot or a bad parameter (the engine's message, after
            ``bots: ``).
    """
    from cardtable.bots import bot

    for seat, spec in enumerate(bots):
        if spec.startswith("policy:"):
            continue
        try:
            bot(game, spec, seat)
        except InvalidOptionError as err:
            raise InvalidOptionError(f"bots: {err}") from None


def _table_problem(
    games: npt.NDArray[np.uint64],
    first: int,
    requested: int,
    bots: int,
    players: int,
    interrupted: object,
) -> str | None:
    """What makes a saved table's games and metadata not those of a run, or ``None``.

    A table has one row per completed game (:meth:`SimulationResult.game_columns`): all the
    games of its range unless the run was interrupted.
    """
    if bots != players:
        return f"{bots} bots for {players} players"
    if not 0 <= requested <= MAX_SEED or not 0 <= first <= MAX_SEED - requested:
        return f"games {first}.. ({requested} of them) are not a range of a run"
    if not isinstance(interrupted, bool):
        return f"interrupted is {shown(interrupted)}, not a bool"
    if len(games) and (int(games.min()) < first or int(games.max()) >= first + requested):
        return f"game numbers outside the run's range {first}..{first + requested - 1}"
    if len(np.unique(games)) != len(games):
        return "a game number is given twice"
    if not interrupted and len(games) != requested:
        return (
            f"interrupted is false, so the run completed all its {requested} games (one row "
            f"each), but the table has {len(games)} rows"
        )
    return None


SHARE_DENOMINATOR = 27_720
"""The engine's denominator of a seat's win shares (divisible by every winner count 1..12): a
win shared by ``k`` winners adds ``SHARE_DENOMINATOR // k`` to each."""


def seat_totals(scores: npt.NDArray[Any], winners: npt.NDArray[np.bool_]) -> list[dict[str, int]]:
    """Each seat's exact totals over the games (rows) of ``scores`` and ``winners``.

    As the engine sums them: ``wins``, ``win_shares``, ``score_sum``, ``score_sq_sum``,
    ``score_min`` and ``score_max`` (of no games: the int64 bounds, as the engine's). Sums are
    exact: in int64 for 16-bit scores (below 2**33 games), in Python ints for wider ones.
    """
    count = winners.sum(axis=1)
    share = np.where(count > 0, SHARE_DENOMINATOR // np.maximum(count, 1), 0)
    wide = scores.astype(np.int64 if scores.dtype.itemsize <= 2 else object)
    totals = []
    for p in range(scores.shape[1]):
        column = wide[:, p]
        totals.append(
            {
                "wins": int(winners[:, p].sum()),
                "win_shares": int(share[winners[:, p]].sum()),
                "score_sum": int(column.sum()),
                "score_sq_sum": int((column * column).sum()),
                "score_min": int(column.min()) if len(column) else _INT64_MAX,
                "score_max": int(column.max()) if len(column) else -_INT64_MAX - 1,
            }
        )
    return totals


def run_local(
    game: _core.Game,
    bots: list[str],
    games: int,
    seed: int,
    keep_games: bool,
    progress: bool | Callable[[int, int], object],
    threads: int | None = None,
    first_game: int = 0,
) -> dict[str, Any]:
    """Games ``first_game ..`` of a run of built-in bots on this machine's engine threads.

    Returns:
        The engine's raw result dict (see :func:`result_from_raw`).
    """
    from cardtable import _core

    with Progress(progress, games) as report:
        raw: dict[str, Any] = _core.simulate(
            game,
            games=games,
            seed=seed,
            bots=bots,
            threads=threads,
            keep_games=keep_games,
            first_game=first_game,
            progress=report,
        )
    return raw


def result_from_raw(
    raw: dict[str, Any],
    game: _core.Game,
    bots: list[str],
    seed: int,
    games: int,
    first_game: int = 0,
    version: str = VERSION,
) -> SimulationResult:
    """The :class:`SimulationResult` of ``games`` games of ``game`` from ``first_game`` on.

    ``version`` is the version of cardtable that played them (``""``: unknown).
    """
    n = int(raw["games_played"])
    seats = []
    totals = []
    denominator = int(raw["share_denominator"])
    for p, t in enumerate(raw["seats"]):
        mean, std = _mean_std(n, int(t["score_sum"]), int(t["score_sq_sum"]))
        totals.append({k: int(v) for k, v in t.items()})
        seats.append(
            SeatSummary(
                seat=p,
                bot=bots[p],
                games=n,
                wins=int(t["wins"]),
                win_share=int(t["win_shares"]) / denominator,
                win_rate=int(t["wins"]) / n if n else math.nan,
                win_rate_ci95=wilson_interval(int(t["wins"]), n),
                score_mean=mean,
                score_std=std,
                score_min=int(t["score_min"]) if n else 0,
                score_max=int(t["score_max"]) if n else 0,
            )
        )
    return SimulationResult(
        game_id=game.game_id,
        players=game.players,
        options=game.options,
        bots=bots,
        seed=seed,
        games_requested=games,
        games_played=n,
        interrupted=bool(raw["interrupted"]),
        decisions=int(raw["decisions"]),
        scores=raw.get("scores"),
        winners=raw.get("winners"),
        lengths=raw.get("lengths"),
        first_game=first_game,
        version=version,
        seats=seats,
        _totals=totals,
    )


def _as_results(results: object) -> list[SimulationResult]:
    """``results`` as a non-empty list of :class:`SimulationResult`.

    Raises:
        InvalidOptionError: Otherwise.
    """
    parts = as_items(results)
    if not parts or not all(isinstance(r, SimulationResult) for r in parts):
        raise InvalidOptionError(
            f"merge takes one or more SimulationResults (a list of them), got {shown(results):.80}"
        )
    return [r for r in parts if isinstance(r, SimulationResult)]


def merge_raw(parts: Sequence[dict[str, Any]], players: int) -> dict[str, Any]:
    """Merges raw results of consecutive game ranges (in order) into one."""
    seats = []
    for p in range(players):
        rows = [part["seats"][p] for part in parts]
        seats.append(
            {
                "wins": sum(r["wins"] for r in rows),
                "win_shares": sum(r["win_shares"] for r in rows),
                "score_sum": sum(r["score_sum"] for r in rows),
                "score_sq_sum": sum(r["score_sq_sum"] for r in rows),
                "score_min": min(r["score_min"] for r in rows),
                "score_max": max(r["score_max"] for r in rows),
            }
        )
    merged: dict[str, Any] = {
        "games_played": sum(p["games_played"] for p in parts),
        "interrupted": any(p["interrupted"] for p in parts),
        "decisions": sum(p["decisions"] for p in parts),
        "chance_steps": sum(p["chance_steps"] for p in parts),
        "share_denominator": parts[0]["share_denominator"],
        "seats": seats,
    }
    if all("scores" in p for p in parts):
        merged["scores"] = np.concatenate([p["scores"] for p in parts])
        merged["winners"] = np.concatenate([p["winners"] for p in parts])
        merged["lengths"] = np.concatenate([p["lengths"] for p in parts])
    return merged


def _shifted_report(report: Callable[[int], bool], offset: int, done: int) -> bool:
    """``report(offset + done)``: one bar's count over several engine runs."""
    return report(offset + done)


_REDRAW_SECONDS = 0.1
"""The progress bar is redrawn at most this often (the last count is always drawn)."""


def stops(answer: object) -> bool:
    """Whether a progress callable's ``answer`` asks the work to stop: ``False`` (NumPy's too).

    Anything else (``None``, ``True``, any other value) lets it go on.
    """
    return answer is False or (isinstance(answer, np.bool_) and not answer)


def check_progress(
    progress: bool | Callable[[int, int], object],
) -> bool | Callable[[int, int], object]:
    """``progress`` if it is ``True`` (a bar), ``False`` or a callable ``progress(done, total)``.

    The rule of ``simulate``, ``search`` and the studies. A callable is called with two
    positional ints (the units done so far and the total), so one whose signature cannot take
    them is refused before any work starts; one whose signature cannot be inspected (some
    built-ins) is accepted.

    Raises:
        InvalidOptionError: If ``progress`` is anything else (``0``, ``1``, ``"yes"``, ``None``,
            ``numpy.True_``: a boolean is exactly ``True`` or ``False``, docs/errors.md), or a
            callable that cannot be called as ``progress(done, total)``.
    """
    if progress is not True and progress is not False and not callable(progress):
        raise InvalidOptionError(
            "progress must be True, False or a callable progress(done, total), got "
            f"{shown(progress)}"
        )
    if callable(progress):
        try:
            signature = inspect.signature(progress)
        except (TypeError, ValueError):  # no signature to inspect: called as it is
            return progress
        try:
            signature.bind(0, 0)
        except TypeError:
            raise InvalidOptionError(
                "a progress callable must accept two positional arguments, progress(done, "
                f"total), got {shown(progress)} with the signature {signature}"
            ) from None
    return progress


class Progress:
    """Adapts ``progress=`` to the engine's ``progress(done)`` callback, with a rich bar.

    The bar is drawn on standard error, so that the summary on standard output can be redirected
    or piped without it.
    """

    def __init__(
        self,
        progress: bool | Callable[[int, int], object],
        total: int,
        *,
        doing: str = "simulating",
        unit: str = "games",
    ) -> None:
        """Checks ``progress`` before the run starts.

        Args:
            progress: ``True`` (a bar), ``False`` (nothing) or a callable ``progress(done, total)``.
            total: The number of games of the run (or of whatever ``unit`` counts).
            doing: What the bar says the work is.
            unit: What the work counts, for the rate.

        Raises:
            InvalidOptionError: As :func:`check_progress`.
        """
        self._spec = check_progress(progress)
        self._total = total
        self._doing, self._unit = doing, unit
        self._bar: Any = None
        self._task: Any = None
        self._done = 0
        self._drawn = 0.0  # when the bar was last redrawn (time.monotonic)

    def __enter__(self) -> Callable[[int], bool] | None:
        if self._spec is False:
            return None
        if callable(self._spec):
            callback = self._spec
            return lambda done: not stops(callback(done, self._total))
        from rich.console import Console
        from rich.progress import (
            BarColumn,
            MofNCompleteColumn,
            Progress,
            TextColumn,
            TimeElapsedColumn,
            TimeRemainingColumn,
        )

        self._bar = Progress(
            TextColumn(self._doing),
            BarColumn(),
            MofNCompleteColumn(),
            TextColumn("{task.fields[rate]}"),
            TimeElapsedColumn(),
            TextColumn("ETA"),
            TimeRemainingColumn(),
            console=Console(stderr=True),
            transient=False,
        )
        self._bar.start()
        self._task = self._bar.add_task(self._unit, total=self._total, rate="")

        def report(done: int) -> bool:
            self._done = done
            now = time.monotonic()
            if now - self._drawn < _REDRAW_SECONDS and done < self._total:
                return True  # a Python-policy run reports every step: redrawing each costs more
            self._drawn = now
            task = self._bar.tasks[0]
            speed = task.speed
            self._bar.update(
                self._task, completed=done, rate=f"{speed:,.0f} {self._unit}/s" if speed else ""
            )
            return True

        return report

    def __exit__(self, exc_type: type[BaseException] | None, *exc: object) -> None:
        if self._bar is not None:
            self._bar.update(self._task, completed=self._done)  # the last count reported
            if exc_type is not None and not self._bar.tasks[0].completed:
                # A run refused before its first game (a bad bot name, say) leaves no empty
                # bar above its error.
                self._bar.update(self._task, visible=False)
            self._bar.stop()
