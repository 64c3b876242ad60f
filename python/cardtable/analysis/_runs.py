"""Running many seat assignments of one game in Rust, with one progress bar, as one table."""

from __future__ import annotations

import itertools
import math
from collections.abc import Callable, Collection, Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import numpy as np
import numpy.typing as npt

from cardtable._inputs import check_int, check_threads, shown
from cardtable._simulation import PythonPolicy, check_progress, stops
from cardtable.analysis._games import spec
from cardtable.analysis._text import summary_title
from cardtable.errors import CapacityError, InvalidOptionError

if TYPE_CHECKING:
    from cardtable import _core

__all__ = [
    "Progress",
    "Runs",
    "check_count",
    "check_flag",
    "check_run",
    "check_seed",
    "check_threads",
    "equal_shares",
    "fewer_games_on_memory_error",
    "lineups_for",
    "places",
    "policy_labels",
    "run_lineups",
    "seat_assignments",
    "study_bots",
]

_BELOW_2_64 = (1 << 64) - 1


def check_count(name: str, value: object, low: int, high: int = _BELOW_2_64) -> int:
    """``value`` as an int in ``low..=high``, by the rule of :func:`cardtable.simulate`.

    An ``int`` or a NumPy integer; never a bool, a float or a string (``docs/errors.md``).

    Raises:
        InvalidOptionError: If it is not.
    """
    return check_int(name, value, low, high)


def check_run(games: object, seed: object, threads: object) -> tuple[int, int, int | None]:
    """A study's game count, seed and worker threads.

    The count is an int >= 2 (an interval needs two games) below 2**64, the seed is checked by
    :func:`check_seed` and the threads by :func:`check_threads`.

    Raises:
        InvalidOptionError: If one is not.
    """
    return check_count("games", games, 2), check_seed(seed), check_threads(threads)


def check_seed(seed: object) -> int:
    """A study's seed, checked as :func:`cardtable.simulate` checks its own: an int in 0..2**64.

    Raises:
        InvalidOptionError: If it is not.
    """
    return check_count("seed", seed, 0)


def check_flag(name: str, value: object) -> bool:
    """A study's switch: exactly ``True`` or ``False`` (``0`` and ``1`` are refused).

    Raises:
        InvalidOptionError: If it is not.
    """
    if not isinstance(value, bool):
        raise InvalidOptionError(f"{name} must be True or False, got {shown(value)}")
    return value


def study_bots(bots: object, what: str) -> tuple[list[str], dict[str, PythonPolicy]]:
    """A study's bots as :func:`cardtable.simulate` names them, and the policy behind each label.

    A bot is a built-in bot name or a Python policy: whatever ``simulate`` takes as a seat's bot
    (a callable taking a :class:`cardtable.PolicyBatch`). A built-in bot keeps its name; a policy
    is labelled ``policy:<name>`` by ``simulate``'s own rule (:func:`cardtable.sim.bot_labels`):
    a second, distinct policy of the same name gets ``#2`` (then ``#3``, ...), and the same
    policy given twice (the same object, or the same method of the same object) keeps one label,
    so it is one bot. Built-in names are not checked here (the game does that), except that a
    policy's label is refused as one.

    Args:
        bots: The bots as given.
        what: How the messages name the argument (``"tournament bots"``).

    Returns:
        One label per bot given, in order, and the policy of every policy label.

    Raises:
        InvalidOptionError: If ``bots`` is not a list, or one of them is neither a string nor a
            callable, or is a policy's label (``policy:...``) given as a string.
    """
    from cardtable.sim import bot_labels

    if isinstance(bots, str) or not isinstance(bots, Sequence):
        raise InvalidOptionError(
            f"{what} must be a list of built-in bot names or Python policies, got {shown(bots)}"
        )
    given: list[str | PythonPolicy] = list(bots)
    for i, bot in enumerate(given):
        if not isinstance(bot, str) and not callable(bot):
            raise InvalidOptionError(
                f"{what} must be built-in bot names or Python policies (callables taking a "
                f"PolicyBatch), got {shown(bot)} at index {i}"
            )
        if isinstance(bot, str) and bot.startswith("policy:"):
            raise InvalidOptionError(
                f"{what}: {shown(bot)} at index {i} is how a study labels a Python policy, not a "
                "built-in bot; give the policy (the callable) itself"
            )
    labels = bot_labels(given)
    policies = {
        label: bot for label, bot in zip(labels, given, strict=True) if not isinstance(bot, str)
    }
    return labels, policies


def policy_labels(bots: Sequence[str]) -> list[str]:
    """The distinct bots of ``bots`` (labels) that are Python policies, in order.

    A policy's label starts with ``policy:`` (:func:`study_bots`); no built-in bot has that name.
    """
    return [b for b in dict.fromkeys(bots) if b.startswith("policy:")]


@contextmanager
def fewer_games_on_memory_error(games: str) -> Iterator[None]:
    """Turns running out of memory into a :class:`CapacityError` a study's user can act on.

    ``games`` names the games whose results are kept (``"the tournament's 4,000 games"``). A study
    keeps the results of every game it plays (``simulate``'s advice, ``keep_games=False``, is no
    parameter of a study), so the advice is to play fewer games.

    Raises:
        CapacityError: If the body runs out of memory.
    """
    try:
        yield
    except MemoryError as err:
        raise CapacityError(
            f"the results of {games} would not fit in memory (a study keeps every game it plays): "
            "play fewer games (games= in Python, --games on the command line)"
        ) from err


class Progress:
    """One rich progress bar (on standard error) over several runs, or nothing.

    ``enabled`` may also be a callable ``progress(done, total)``, called instead of drawing a bar.
    As for :func:`cardtable.simulate`, a callable that returns ``False`` (NumPy's too) stops the
    study: the run under way stops at once, and the study raises ``KeyboardInterrupt``, as
    Ctrl-C makes it do (see :attr:`stopped` and :meth:`stop_if_asked`). Any other return value
    goes on.
    """

    def __init__(self, enabled: bool | Callable[[int, int], object], total: int, what: str):
        """Checks ``enabled`` as :func:`cardtable.simulate` checks its ``progress``.

        Args:
            enabled: ``True`` (a bar), ``False`` (nothing) or a callable ``progress(done, total)``.
            total: The units of work of the whole study.
            what: The bar's label.

        Raises:
            InvalidOptionError: As :func:`cardtable._simulation.check_progress` (``0``, ``1``,
                ``"yes"`` and ``None`` are refused, docs/errors.md).
        """
        self._spec = check_progress(enabled)
        self.total = total
        self.done = 0
        self.stopped = False
        """Whether the ``progress`` callable has returned ``False``: the study is to stop."""
        self._bar: Any = None
        self._what = what

    def __enter__(self) -> Progress:
        if self._spec is True:
            from rich.console import Console
            from rich.progress import (
                BarColumn,
                MofNCompleteColumn,
                TextColumn,
                TimeElapsedColumn,
                TimeRemainingColumn,
            )
            from rich.progress import Progress as RichProgress

            self._bar = RichProgress(
                TextColumn(self._what),
                BarColumn(),
                MofNCompleteColumn(),
                TextColumn("{task.description}"),
                TimeElapsedColumn(),
                TextColumn("ETA"),
                TimeRemainingColumn(),
                console=Console(stderr=True),
            )
            self._bar.start()
            self._bar.add_task("", total=self.total)
        return self

    def update(self, done: int, note: str = "") -> bool:
        """Sets the units done so far.

        Returns:
            Whether to go on: ``False`` once the ``progress`` callable has returned ``False``.
        """
        self.done = done
        if self._bar is not None:
            self._bar.update(self._bar.tasks[0].id, completed=done, description=note)
        elif callable(self._spec) and stops(self._spec(done, self.total)):
            self.stopped = True
        return not self.stopped

    def stop_if_asked(self) -> None:
        """Stops the study if the ``progress`` callable asked for it.

        Raises:
            KeyboardInterrupt: If it has returned ``False`` (the study stops as on Ctrl-C).
        """
        if self.stopped:
            raise KeyboardInterrupt

    def callback(self, base: int, note: str = "") -> Callable[[int, int], bool]:
        """A ``progress=`` callable for one simulate run whose units start at ``base``.

        It returns ``False``, which stops the run, once the study's ``progress`` callable has.
        """

        def report(done: int, _total: int) -> bool:
            return self.update(base + done, note)

        return report

    def __exit__(self, *exc: object) -> None:
        if self._bar is not None:
            self._bar.stop()


def seat_assignments(
    game: _core.Game,
    bots: Sequence[str],
    rotate_seats: bool,
    policies: Collection[str] = (),
) -> list[tuple[str, ...]]:
    """:func:`lineups_for` the players of ``game``, each bot of them first seated once in it.

    A bot named in ``policies`` (the label of a Python policy, see :func:`study_bots`) is not
    seated: only built-in bots are checked.

    Raises:
        InvalidOptionError: Naming the first unknown bot or bad bot parameter, so that a study
            fails before its progress bar starts rather than after.
    """
    from cardtable import _core as core

    lineups = lineups_for(game.players, bots, rotate_seats)
    seated: set[tuple[str, int]] = set()
    for lineup in lineups:
        for seat, name in enumerate(lineup):
            if name not in policies and (name, seat) not in seated:
                seated.add((name, seat))
                core.Bot(game, name, seat, 0)
    return lineups


MAX_LINEUPS = 100_000
"""The most seat assignments a study plays (every ordered choice of 5 of 12 bots is 95,040)."""


def lineups_for(players: int, bots: Sequence[str], rotate_seats: bool) -> list[tuple[str, ...]]:
    """The seat assignments of a tournament.

    ``players`` bots: their rotations (each bot in each seat once). Fewer: the list repeated to fill
    the table (``greedy,random`` at four seats is ``greedy,random,greedy,random``), then its
    distinct rotations. More: every ordered choice of ``players`` distinct bots. Without
    ``rotate_seats`` only the first assignment, so at most ``players`` bots.

    Raises:
        InvalidOptionError: On no bot, on more bots than seats without ``rotate_seats`` (the
            others would never play), or on a bot given twice where every ordered choice of
            distinct bots is played (it would be seated against itself and play some
            assignments twice).
        CapacityError: On more than :data:`MAX_LINEUPS` ordered choices, before any is made.
    """
    bots = list(bots)
    if not bots:
        raise InvalidOptionError("give at least one bot")
    if len(bots) > players and not rotate_seats:
        raise InvalidOptionError(
            f"{len(bots)} bots for {players} seats without seat rotation: every game would seat "
            f"the first {players} and the others would never play; give at most {players} bots, "
            "or rotate the seats"
        )
    if len(bots) > players:
        seen: set[str] = set()
        for repeated in bots:
            if repeated in seen:
                raise InvalidOptionError(
                    f"bot {shown(repeated)} is given twice: with more bots than seats, every seat "
                    "assignment of distinct bots is played, so give each bot once"
                )
            seen.add(repeated)
        count = math.perm(len(bots), players)
        if count > MAX_LINEUPS:
            raise CapacityError(
                f"{len(bots)} bots at {players} seats make {count:,} seat assignments (every "
                f"ordered choice of {players} distinct bots), more than {MAX_LINEUPS:,}: give "
                "fewer bots"
            )
        return list(itertools.permutations(bots, players))
    seats = tuple(bots[p % len(bots)] for p in range(players))
    if not rotate_seats:
        return [seats]
    return list(dict.fromkeys(seats[r:] + seats[:r] for r in range(players)))


def places(
    scores: npt.NDArray[np.int64], winners: npt.NDArray[np.bool_], higher_is_better: bool
) -> npt.NDArray[np.int64]:
    """Finishing places (1 = best; ties share the better place) from scores and winners.

    Winners take place 1; every other seat is placed after all winners and after every non-winner
    with a better score.
    """
    s = scores if higher_is_better else -scores
    w = winners.astype(bool)
    sp, sq = s[..., :, None], s[..., None, :]
    wp, wq = w[..., :, None], w[..., None, :]
    better = (wq & ~wp) | (~wq & ~wp & (sq > sp))
    result: npt.NDArray[np.int64] = (1 + better.sum(axis=-1)).astype(np.int64)
    return result


def equal_shares(winners: npt.NDArray[np.bool_]) -> npt.NDArray[np.float64]:
    """Per game, the share of it each seat would win if the seats were equal.

    A shared win counts for every co-winner, as the win rates count it, so a game's equal share is
    its number of winners over the number of seats: ``1 / players`` when one seat wins, 1 when
    every seat does. Its mean over games is the mean of the seats' win rates, what each seat
    would win were none favoured (``balance`` compares each seat with it, ``sweep`` seat 0).

    Args:
        winners: ``[..., players]`` whether each seat won (any leading shape: games, or
            assignments and games).

    Returns:
        The equal share of every game (the leading shape).
    """
    w = np.asarray(winners, dtype=bool)
    shares: npt.NDArray[np.float64] = w.sum(axis=-1) / w.shape[-1]
    return shares


@dataclass
class Runs:
    """Per-game results of several seat assignments of one game.

    Attributes:
        game_id: The game.
        players: Seats.
        options: Effective options.
        lineups: The bot of each seat, per assignment.
        seeds: The ``simulate`` seed of each assignment (equal for all with duplicate deals).
        games: Games per assignment.
        deal: ``[L, G]`` the deal id of each game (the game index with duplicate deals).
        scores: ``[L, G, players]`` final scores.
        winners: ``[L, G, players]`` whether each seat won.
        lengths: ``[L, G]`` decisions per game.
        places: ``[L, G, players]`` finishing places.
        threads: Threads used (not part of the results).
    """

    game_id: str
    players: int
    options: dict[str, Any]
    lineups: list[tuple[str, ...]]
    seeds: list[int]
    games: int
    deal: npt.NDArray[np.int64]
    scores: npt.NDArray[np.int64]
    winners: npt.NDArray[np.bool_]
    lengths: npt.NDArray[np.int64]
    places: npt.NDArray[np.int64]

    @property
    def bots(self) -> list[str]:
        """The distinct bots, in order of first appearance."""
        return list(dict.fromkeys(b for lineup in self.lineups for b in lineup))

    def seat_games(self) -> dict[str, npt.NDArray[Any]]:
        """One entry per (assignment, game, seat): flat arrays for the statistics."""
        lineups, games, n = self.scores.shape
        bot_index = {b: i for i, b in enumerate(self.bots)}
        bots = np.array([[bot_index[b] for b in lineup] for lineup in self.lineups])
        return {
            "lineup": np.repeat(np.arange(lineups), games * n),
            "game": np.tile(np.repeat(np.arange(games), n), lineups),
            "seat": np.tile(np.arange(n), lineups * games),
            "bot": np.repeat(bots, games, axis=0).reshape(-1),
            "deal": np.repeat(self.deal.reshape(-1), n),
            "score": self.scores.reshape(-1).astype(np.float64),
            "win": self.winners.reshape(-1).astype(np.float64),
            "place": self.places.reshape(-1).astype(np.float64),
        }


class FromRuns:
    """The game, players, options and games of a study result, read from its per-game data.

    A result class that keeps its :class:`Runs` as ``runs`` takes these from it, so they are
    stated once.
    """

    runs: Runs

    @property
    def game_id(self) -> str:
        """The game."""
        return self.runs.game_id

    @property
    def players(self) -> int:
        """Seats."""
        return self.runs.players

    @property
    def options(self) -> dict[str, Any]:
        """Effective options."""
        return self.runs.options

    @property
    def games(self) -> int:
        """Games (deals) per seat assignment."""
        return self.runs.games

    def _summary_title(self, seats: str, *details: str) -> str:
        """The :func:`~cardtable.analysis._text.summary_title` of this game, players and options."""
        return summary_title(self.game_id, self.players, self.options, seats, *details)


def run_lineups(
    game_id: str,
    players: int,
    lineups: list[tuple[str, ...]],
    seeds: list[int],
    games: int,
    options: dict[str, Any],
    threads: int | None,
    progress: Progress,
    *,
    base: int = 0,
    policies: Mapping[str, PythonPolicy] | None = None,
) -> Runs:
    """Simulates every assignment with ``cardtable.simulate`` and stacks the results.

    An assignment of built-in bots runs on the engine's threads; one that seats a Python policy
    (a label of ``policies``, see :func:`study_bots`) runs through ``simulate``'s Python-policy
    path, which steps its games in the calling thread whatever ``threads`` says. The results keep
    the labels.

    Raises:
        IllegalActionError: If a policy returns an action that is not legal (``simulate``'s
            error, naming the policy, its game and seat).
        KeyboardInterrupt: If a run was stopped (Ctrl-C), or the ``progress`` callable returned
            ``False``.
    """
    from cardtable import _core
    from cardtable.sim import simulate

    game = _core.Game(game_id, players, options)
    scores, winners, lengths = [], [], []
    for i, (lineup, seed) in enumerate(zip(lineups, seeds, strict=True)):
        result = simulate(
            game_id,
            games=games,
            players=players,
            bots=[policies.get(b, b) for b in lineup] if policies else list(lineup),
            seed=seed,
            threads=threads,
            progress=progress.callback(base + i * games, ",".join(lineup)),
            **options,
        )
        if result.interrupted:
            raise KeyboardInterrupt
        progress.stop_if_asked()  # a False at a run's last report: no later run starts
        assert result.scores is not None and result.winners is not None
        assert result.lengths is not None
        scores.append(result.scores)
        winners.append(result.winners)
        lengths.append(result.lengths.astype(np.int64))
    s = np.stack(scores)
    w = np.stack(winners)
    duplicate = len(set(seeds)) == 1
    deal = np.tile(np.arange(games, dtype=np.int64), (len(lineups), 1))
    if not duplicate:
        deal += np.arange(len(lineups), dtype=np.int64)[:, None] * games
    return Runs(
        game_id=game_id,
        players=game.players,
        options=dict(game.options),
        lineups=lineups,
        seeds=seeds,
        games=games,
        deal=deal,
        scores=s,
        winners=w,
        lengths=np.stack(lengths),
        places=places(s, w, spec(game_id).higher_is_better),
    )
