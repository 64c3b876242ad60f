"""Tournaments: every bot in every seat, on duplicate deals, with paired comparisons and ratings."""

from __future__ import annotations

import itertools
import math
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import numpy as np
import numpy.typing as npt

from cardtable._inputs import shown
from cardtable._rng import derive_seed
from cardtable._study_defaults import (
    MAX_RATING_BOOTSTRAP,
    MIN_RATING_BOOTSTRAP,
    RATING_BOOTSTRAP,
    RATING_GAMES,
)
from cardtable.analysis import _runs
from cardtable.analysis._differences import (
    FEW_DEALS,
    Difference,
    PairedDifference,
    clear,
    difference_text,
    flipped,
    metric_name,
    paired_estimate,
    unit_means,
    unpaired_estimate,
    within,
)
from cardtable.analysis._games import score_label, spec
from cardtable.analysis._ratings import Rating, rate_games
from cardtable.analysis._report import (
    Report,
    ResultOutputs,
    Section,
    chart_label,
    command_line,
    figure,
    legend_above,
    rerun_text,
    svg_of,
    text_color,
)
from cardtable.analysis._runs import Progress, Runs
from cardtable.analysis._stats import Estimate, Record, clip, cluster_mean, record_dict
from cardtable.analysis._text import (
    check_width,
    literal,
    options_text,
    plain_text,
    plural,
    text_table,
)
from cardtable.errors import InvalidOptionError

if TYPE_CHECKING:
    import pyarrow

    from cardtable._simulation import PythonPolicy

__all__ = ["BotResult", "PairedDifference", "TournamentResult", "tournament"]


_METRICS = ("win", "score", "place")
"""The metrics of the paired differences, by their short names."""


@dataclass(frozen=True)
class BotResult(Record):
    """One bot over all the seats and games it played.

    Attributes:
        bot: The bot.
        seat_games: Seat-games played (a bot holding two seats of a game counts twice).
        win_rate: Share of its seat-games won (a shared win counts for every co-winner).
        place: Mean finishing place (1 = best; ties share the better place).
        score: Mean final score.
    """

    bot: str
    seat_games: int
    win_rate: Estimate
    place: Estimate
    score: Estimate


_DICT_FIELDS = (
    "game_id",
    "players",
    "options",
    "seed",
    "duplicate",
    "rotate_seats",
    "bots_given",
    "games",
    "lineups",
    "seeds",
    "results",
    "head_to_head",
    "differences",
    "ratings",
    "rating_bootstrap",
    "rating_games",
    "seconds",
)
"""The fields of :meth:`TournamentResult.to_dict`, in order (``results`` under the key ``bots``)."""


@dataclass
class TournamentResult(ResultOutputs, _runs.FromRuns):
    """What :func:`tournament` returns.

    Attributes:
        game_id: The game.
        players: Seats.
        options: Effective options.
        seed: The tournament's seed.
        duplicate: Whether every assignment replayed the same deals.
        rotate_seats: Whether every seat assignment was played (``False``: only the one given).
        bots_given: The bots as given (the first seat assignment is made from them), a Python
            policy by its label ``policy:<name>`` (see :func:`tournament`).
        bots: The distinct bots (a Python policy by its label).
        lineups: The seat assignments played (the bot of each seat).
        seeds: The ``simulate`` seed of each assignment.
        games: Games per assignment (deals).
        results: One per bot.
        head_to_head: ``head_to_head[a][b]``: share of the games with both in which a finished ahead
            of b (a tie counts half), with its interval (``None`` on the diagonal).
        differences: Paired differences for every pair of bots and metric.
        ratings: One per bot (openskill, bootstrap intervals).
        rating_bootstrap: Bootstrap replicates of the rating intervals.
        rating_games: Games rated per fit.
        runs: The per-game data.
        seconds: Wall time of the whole tournament.

    ``game_id``, ``players``, ``options``, ``games``, ``bots``, ``lineups`` and ``seeds`` are read
    from ``runs``.
    """

    seed: int
    duplicate: bool
    rotate_seats: bool
    bots_given: list[str]
    results: list[BotResult]
    head_to_head: list[list[Estimate | None]]
    differences: list[PairedDifference]
    ratings: list[Rating]
    rating_bootstrap: int
    rating_games: int
    runs: Runs
    seconds: float

    @property
    def bots(self) -> list[str]:
        """The distinct bots."""
        return self.runs.bots

    @property
    def lineups(self) -> list[tuple[str, ...]]:
        """The seat assignments played (the bot of each seat)."""
        return self.runs.lineups

    @property
    def seeds(self) -> list[int]:
        """The ``simulate`` seed of each assignment."""
        return self.runs.seeds

    def difference(self, a: str, b: str, metric: str = "win") -> PairedDifference:
        """The difference ``a − b`` in ``metric``, paired by deal.

        Args:
            a: A bot of the tournament, as :attr:`bots` spells it.
            b: Another one.
            metric: ``"win"``, ``"score"`` or ``"place"``, or the name a table gives it:
                ``"win rate"``, ``"mean score"``, ``"mean place"`` (also ``"finishing place"``,
                in any case and with a heading's remark in brackets, e.g.
                ``"mean score (lower is better)"``).

        Returns:
            The difference; its ``metric`` is the short name.

        Raises:
            InvalidOptionError: Unless ``a`` and ``b`` are two different bots of the tournament
                and ``metric`` names one of the three (the message lists the names).
        """
        self._index(a)
        self._index(b)
        metric = metric_name(metric, _METRICS)
        for d in self.differences:
            if d.metric == metric and (d.a, d.b) == (a, b):
                return d
            if d.metric == metric and (d.a, d.b) == (b, a):
                return PairedDifference(a, b, metric, flipped(d.paired), flipped(d.unpaired))
        raise InvalidOptionError(f"a difference needs two different bots, got {shown(a)} twice")

    def result(self, bot: str) -> BotResult:
        """The result of ``bot``.

        Raises:
            InvalidOptionError: If ``bot`` is not a bot of the tournament.
        """
        return self.results[self._index(bot)]

    def _index(self, bot: object) -> int:
        """The index of ``bot`` in :attr:`bots` (and :attr:`results`).

        Raises:
            InvalidOptionError: If ``bot`` is not a bot of the tournament (the message names them).
        """
        if not isinstance(bot, str) or bot not in self.bots:
            raise InvalidOptionError(
                f"{shown(bot)} is not a bot of this tournament; its bots: {', '.join(self.bots)}"
            )
        return self.bots.index(bot)

    def to_dict(self) -> dict[str, Any]:
        """Everything but the per-game data, as strict JSON (an undefined number is ``None``)."""
        return {"kind": "tournament", **record_dict(self, _DICT_FIELDS, results="bots")}

    def to_arrow(self) -> pyarrow.Table:
        """One row per seat of every game.

        Columns ``lineup``, ``seed``, ``game``, ``deal``, ``seat``, ``bot``, ``score``, ``win``,
        ``place``, ``length``. A row is seat ``seat`` of game ``game`` of
        ``simulate(game_id, bots=split_bot_specs(lineup), seed=seed, ...)``: ``lineup`` joins the
        seats' bots with commas, and :func:`cardtable.bots.split_bot_specs` keeps the commas of a
        bot's parameters (``mcts:iterations=300,c=0.7``) inside its spec. A Python policy is
        named by its label (``policy:<name>``): put the policy itself in its seats to replay a
        row.
        """
        return _runs_table(self.runs)

    def summary_table(self, width: int | None = None) -> str:
        """The results as text tables (bots, differences, head to head).

        Every bot is named in full: a name too long for its column is folded onto more lines,
        never cut.

        Args:
            width: The width of the text in characters, at least 40 (``None``: 120). A table
                with too many columns for it comes out wider.

        Raises:
            InvalidOptionError: On a bad ``width``.
        """
        width = check_width(width, 120)
        t = text_table(
            self._summary_title(
                f"{self.players} players",
                f"{plural(len(self.lineups), 'seat assignment')} × "
                f"{self.games:,} {'duplicate ' if self.duplicate else ''}deals",
                f"seed {self.seed}",
            ),
            (
                "bot",
                "seat-games",
                "win rate (95% CI)",
                "mean place",
                score_label(self.game_id, "mean score"),
                "Elo",
            ),
            (
                (
                    r.bot,
                    f"{r.seat_games:,}",
                    r.win_rate.fmt(3, percent=True),
                    r.place.fmt(3),
                    r.score.fmt(2),
                    rating.elo.fmt(0),
                )
                for r, rating in zip(self.results, self.ratings, strict=True)
            ),
            left=("bot",),
        )
        if not self.differences:
            return plain_text(width, t)
        d = text_table(
            "paired differences (a − b, per deal)",
            (
                "a − b",
                "win rate",
                score_label(self.game_id, "score"),
                "place",
                "score CI, unpaired",
            ),
            (
                (
                    f"{a} − {b}",
                    difference_text(cells[0].paired, percent=True),
                    difference_text(cells[1].paired),
                    difference_text(cells[2].paired),
                    f"{cells[1].unpaired.low:+.2f}…{cells[1].unpaired.high:+.2f}",
                )
                for a, b in itertools.combinations(self.bots, 2)
                for cells in [[self.difference(a, b, m) for m in _METRICS]]
            ),
            left=("a − b",),
        )
        h = text_table(
            "head to head: share of games the row bot finished ahead of the column",
            ("", *self.bots),
            (
                (a, *["—" if e is None else e.fmt(3, percent=True) for e in self.head_to_head[i]])
                for i, a in enumerate(self.bots)
            ),
            left=("",),
        )
        return plain_text(width, t, d, h)

    def report(self) -> Report:
        """The HTML report."""
        return _tournament_report(self)


def _runs_table(runs: Runs) -> pyarrow.Table:
    import pyarrow as pa

    flat = runs.seat_games()
    lineup_names = [",".join(x) for x in runs.lineups]
    columns = {
        "lineup": [lineup_names[i] for i in flat["lineup"]],
        "seed": np.array(runs.seeds, dtype=np.uint64)[flat["lineup"]],
        "game": flat["game"].astype(np.int64),
        "deal": flat["deal"].astype(np.int64),
        "seat": flat["seat"].astype(np.int64),
        "bot": [runs.bots[i] for i in flat["bot"]],
        "score": runs.scores.reshape(-1),
        "win": runs.winners.reshape(-1),
        "place": runs.places.reshape(-1),
        "length": np.repeat(runs.lengths.reshape(-1), runs.players),
    }
    meta = {"game_id": runs.game_id, "players": str(runs.players), "options": repr(runs.options)}
    return pa.table(columns, metadata=meta)


def bot_results(runs: Runs) -> list[BotResult]:
    """Per-bot win rate, place and score, with intervals clustered by deal."""
    flat = runs.seat_games()
    out = []
    for i, name in enumerate(runs.bots):
        mask = flat["bot"] == i
        deals = flat["deal"][mask]
        out.append(
            BotResult(
                bot=name,
                seat_games=int(mask.sum()),
                win_rate=cluster_mean(flat["win"][mask], deals, share=True),
                # A place lies in 1..players: its t interval is clipped to that range.
                place=clip(cluster_mean(flat["place"][mask], deals), 1, runs.players),
                score=cluster_mean(flat["score"][mask], deals),
            )
        )
    return out


def _per_deal_means(
    flat: dict[str, npt.NDArray[Any]], bot: int, metric: str, n_deals: int
) -> npt.NDArray[np.float64]:
    mask = flat["bot"] == bot
    return unit_means(flat[metric][mask], flat["deal"][mask], n_deals)


def _per_game_means(
    flat: dict[str, npt.NDArray[Any]], bot: int, metric: str, shape: tuple[int, ...]
) -> npt.NDArray[np.float64]:
    games = flat["lineup"] * shape[1] + flat["game"]
    mask = flat["bot"] == bot
    return unit_means(flat[metric][mask], games[mask], shape[0] * shape[1])


def paired_differences(runs: Runs) -> list[PairedDifference]:
    """``a − b`` for every pair of bots and metric: paired over deals, and unpaired."""
    flat = runs.seat_games()
    n_deals = int(runs.deal.max()) + 1
    out = []
    for (i, a), (j, b) in itertools.combinations(enumerate(runs.bots), 2):
        for metric in _METRICS:
            share = metric == "win"
            ma = _per_deal_means(flat, i, metric, n_deals)
            mb = _per_deal_means(flat, j, metric, n_deals)
            paired = paired_estimate(ma, mb, share=share)
            ga = _per_game_means(flat, i, metric, runs.scores.shape[:2])
            gb = _per_game_means(flat, j, metric, runs.scores.shape[:2])
            # Game by game, every game an independent unit: the deals they share are ignored.
            unpaired = unpaired_estimate(ga, gb, share=share)
            if metric == "place":  # two places differ by at most the seats less one
                paired, unpaired = (_within_places(d, runs.players) for d in (paired, unpaired))
            out.append(PairedDifference(a, b, metric, paired, unpaired))
    return out


def _within_places(d: Difference, players: int) -> Difference:
    """A difference of mean places with its interval clipped to ``±(players − 1)``."""
    return within(clip(d, 1.0 - players, players - 1.0), share=False, no_spread=d.no_spread)


def head_to_head(runs: Runs) -> list[list[Estimate | None]]:
    """Share of games in which bot a finished ahead of bot b (ties count half), per pair."""
    k = len(runs.bots)
    index = {b: i for i, b in enumerate(runs.bots)}
    outcome: dict[tuple[int, int], list[npt.NDArray[np.float64]]] = {}
    clusters: dict[tuple[int, int], list[npt.NDArray[np.int64]]] = {}
    for li, lineup in enumerate(runs.lineups):
        pl = runs.places[li]
        for p, q in itertools.permutations(range(runs.players), 2):
            a, b = index[lineup[p]], index[lineup[q]]
            if a == b:
                continue
            value = (pl[:, p] < pl[:, q]) + 0.5 * (pl[:, p] == pl[:, q])
            outcome.setdefault((a, b), []).append(value.astype(np.float64))
            clusters.setdefault((a, b), []).append(runs.deal[li])
    matrix: list[list[Estimate | None]] = [[None] * k for _ in range(k)]
    for (a, b), values in outcome.items():
        matrix[a][b] = cluster_mean(
            np.concatenate(values), np.concatenate(clusters[(a, b)]), share=True
        )
    return matrix


def tournament(
    game_id: str,
    *,
    players: int,
    bots: Sequence[str | PythonPolicy],
    games: int = 1000,
    seed: int = 0,
    rotate_seats: bool = True,
    duplicate: bool = True,
    threads: int | None = None,
    progress: bool | Callable[[int, int], object] = True,
    rating_bootstrap: int = RATING_BOOTSTRAP,
    rating_games: int = RATING_GAMES,
    **options: Any,
) -> TournamentResult:
    """Plays every bot in every seat, on duplicate deals, and compares them.

    Seat assignments: with as many bots as seats, their rotations; with fewer, the list repeated to
    fill the table and rotated; with more, every ordered choice of distinct bots (see
    ``docs/studies.md``). Each assignment is one ``cardtable.simulate`` run. With ``duplicate``
    every assignment uses the tournament's ``seed``, so game ``g`` starts from the same deal in
    every assignment (a Python policy included: ``simulate`` seeds game ``g`` and every built-in
    bot's seat the same way whoever sits elsewhere); otherwise assignment ``i`` uses
    ``derive_seed(seed, i)``.

    A bot is a built-in bot name or a Python policy, as ``simulate`` takes them: a callable
    taking a :class:`cardtable.PolicyBatch` and returning one legal action per row. The results
    name a policy as ``simulate`` does, ``policy:<name>`` (its ``__name__``, else its type's
    name); a second, distinct policy of the same name is ``policy:<name>#2`` (then ``#3``, ...),
    and the same policy object given twice is one bot. A run with a policy cannot be repeated
    from the command line, and its report says so instead of giving a command.

    Args:
        game_id: The game.
        players: Seats.
        bots: Built-in bot names (see ``cardtable.games()``) and Python policies, at least two
            distinct bots; with more bots than seats (and ``rotate_seats``) each bot at most once.
        games: Deals (games per seat assignment).
        seed: The tournament's seed.
        rotate_seats: Play every assignment (``False``: only the first, as given).
        duplicate: Replay the same deals under every assignment.
        threads: Worker threads, as in ``simulate`` (results do not depend on it): an assignment
            that seats a Python policy is stepped in the calling thread, batch by batch, whatever
            ``threads`` says.
        progress: A progress bar (``True``), nothing, or a ``progress(done, total)`` callable;
            a callable that returns ``False`` stops the study (as Ctrl-C does: it raises
            ``KeyboardInterrupt``).
        rating_bootstrap: Bootstrap replicates for the rating intervals: 0 (no intervals) or
            :data:`~cardtable._study_defaults.MIN_RATING_BOOTSTRAP` (50) to
            :data:`~cardtable._study_defaults.MAX_RATING_BOOTSTRAP` (each refits every rated
            game); fewer replicates cannot place a 95% interval's ends (the 2.5th and 97.5th
            percentiles of a handful are its lowest and highest).
        rating_games: Games rated per fit, at least 1 (a seeded sample of whole deals beyond
            that).
        **options: The game's options.

    Returns:
        Per-bot results, head-to-head shares, paired differences and ratings.

    Raises:
        InvalidOptionError: On a bad game, option, bot, count or seed, or a bot given twice
            where every assignment of distinct bots is played.
        IllegalActionError: If a Python policy returns an action that is not legal (``simulate``'s
            error, naming the policy, its game and seat).
        CapacityError: If the games' results would not fit in memory.
        KeyboardInterrupt: If stopped with Ctrl-C or by the ``progress`` callable.
    """
    from cardtable import _core

    labels, policies = _runs.study_bots(bots, "tournament bots")
    start = time.perf_counter()
    games, seed, threads = _runs.check_run(games, seed, threads)
    rotate_seats = _runs.check_flag("rotate_seats", rotate_seats)
    duplicate = _runs.check_flag("duplicate", duplicate)
    rating_bootstrap = _runs.check_count(
        "rating_bootstrap", rating_bootstrap, 0, MAX_RATING_BOOTSTRAP
    )
    if 0 < rating_bootstrap < MIN_RATING_BOOTSTRAP:
        raise InvalidOptionError(
            f"rating_bootstrap must be 0 (no rating intervals) or at least "
            f"{MIN_RATING_BOOTSTRAP} (fewer replicates cannot place the ends of a 95% "
            f"interval), got {rating_bootstrap}"
        )
    rating_games = _runs.check_count("rating_games", rating_games, 1)
    game = _core.Game(game_id, players, options)
    for name in dict.fromkeys(labels):  # an unknown bot is named before the count is checked
        if name not in policies:
            _core.Bot(game, name, 0, 0)
    if len(set(labels)) < 2:
        raise InvalidOptionError(
            f"a tournament needs at least two distinct bots, got {', '.join(labels) or 'none'}"
        )
    lineups = _runs.seat_assignments(game, labels, rotate_seats, policies)
    seeds = [seed if duplicate else derive_seed(seed, i) for i in range(len(lineups))]
    total = games * len(lineups)
    with _runs.fewer_games_on_memory_error(f"the tournament's {total:,} games"):
        with Progress(progress, total, "tournament") as bar:
            runs = _runs.run_lineups(
                game_id,
                game.players,
                lineups,
                seeds,
                games,
                options,
                threads,
                bar,
                policies=policies,
            )
        flat = runs.seat_games()
        ratings = rate_games(
            runs.bots,
            flat["bot"].reshape(-1, runs.players).astype(np.int64),
            runs.places.reshape(-1, runs.players),
            runs.deal.reshape(-1),
            players=runs.players,
            seed=derive_seed(seed, 0xBEEF),
            bootstrap=rating_bootstrap,
            max_games=rating_games,
        )
        results, h2h, differences = bot_results(runs), head_to_head(runs), paired_differences(runs)
    return TournamentResult(
        seed=seed,
        duplicate=duplicate,
        rotate_seats=rotate_seats,
        bots_given=labels,
        results=results,
        head_to_head=h2h,
        differences=differences,
        ratings=ratings,
        rating_bootstrap=rating_bootstrap,
        rating_games=rating_games,
        runs=runs,
        seconds=time.perf_counter() - start,
    )


def _reproduce(t: TournamentResult) -> str | None:
    """The command that runs ``t`` again (every setting that changes its results).

    ``None`` if ``t`` seated a Python policy: no command line can seat it, and a command naming
    its label would be refused (or, were the label a bot's name, run something else).
    """
    if _runs.policy_labels(t.bots):
        return None
    words: list[object] = ["cardtable", "tournament", t.game_id, "--players", t.players]
    words += ["--bots", ",".join(t.bots_given), "--games", t.games, "--seed", t.seed]
    words += [] if t.rotate_seats else ["--no-rotate"]
    words += [] if t.duplicate else ["--no-duplicate"]
    if t.rating_bootstrap != RATING_BOOTSTRAP:
        words += ["--rating-bootstrap", t.rating_bootstrap]
    if t.rating_games != RATING_GAMES:
        words += ["--rating-games", t.rating_games]
    return command_line(*words, options=t.options)


def _tournament_report(t: TournamentResult) -> Report:
    n = t.players
    fair = float(_runs.equal_shares(t.runs.winners).mean())
    # The headline compares the best bot with the runner-up (the next highest win rate): is the
    # best clearly ahead of its nearest rival? With two bots that is the one pair.
    order = sorted(t.results, key=lambda r: -r.win_rate.value)
    best, runner_up, last = order[0], order[1], order[-1]
    direction = "higher" if spec(t.game_id).higher_is_better else "lower"
    report = Report(
        title=f"Tournament: {t.game_id}, {n} players",
        subtitle=(
            f"Bots {', '.join(t.bots)}; {plural(len(t.lineups), 'seat assignment')}, "
            + (
                f"each playing the same {t.games:,} deals"
                if t.duplicate
                else f"{t.games:,} games each"
            )
            + f"; options: {options_text(t.options)}; seed {t.seed}."
        ),
        footer=(
            f"Made by cardtable.tournament in {t.seconds:.1f} s. Every interval is a 95% interval; "
            f"games on the same deal count as one unit. {rerun_text(_reproduce(t), t.bots)}"
        ),
    )
    s = Section("Who is stronger")
    s.findings.append(
        f"**{literal(best.bot)}** wins {best.win_rate.fmt(3, percent=True)} of its games, the "
        f"runner-up **{literal(runner_up.bot)}** {runner_up.win_rate.fmt(3, percent=True)}"
        + (
            f" and the last, {literal(last.bot)}, {last.win_rate.fmt(3, percent=True)}"
            if len(order) > 2
            else ""
        )
        + f"; with {n} equal players each would win about {100 * fair:.0f}% (shared wins "
        "counting for every winner)."
    )
    d = t.difference(best.bot, runner_up.bot, "win")
    s.findings.append(
        f"On the same deals, the win rate of {literal(best.bot)} minus that of the runner-up "
        f"{literal(runner_up.bot)} is {d.paired.fmt(3, percent=True)} (with its 95% interval): "
        + _verdict_text(d.paired)
    )
    ds = t.difference(best.bot, runner_up.bot, "score")
    paired_width = ds.paired.high - ds.paired.low
    # Widths compare only where the paired interval has one (deals that all differ alike do not).
    if t.duplicate and not ds.paired.no_spread and paired_width > 0:
        if ds.paired.n < FEW_DEALS:
            s.findings.append(
                f"With {ds.paired.n} deals the interval widths cannot tell how much duplicate "
                "deals sharpen the score comparison: the paired interval's t quantile over so "
                "few deals is large whatever the pairing cancels."
            )
        elif ds.unpaired.high > ds.unpaired.low:
            ratio = (ds.unpaired.high - ds.unpaired.low) / paired_width
            s.findings.append(
                f"Duplicate deals make the score comparison {ratio:.1f}× as precise as the same "
                "games compared without pairing (interval widths)."
                if ratio >= 1.05
                else "Duplicate deals make the score comparison no more precise here than the "
                "same games compared without pairing (interval widths): the deals' luck, which "
                "pairing cancels, is small next to the games' own."
            )
    s.add_table(
        [
            "bot",
            "seat-games",
            "win rate",
            "mean place (1 = best)",
            f"mean score ({direction} is better)",
        ],
        [
            [r.bot, f"{r.seat_games:,}", r.win_rate.fmt(3, True), r.place.fmt(2), r.score.fmt(2)]
            for r in t.results
        ],
        "Each bot over all its seat-games, with 95% intervals.",
    )
    with figure(7.5, 0.6 + 0.45 * _label_lines(t.bots)) as (fig, ax):
        names = [chart_label(r.bot) for r in t.results][::-1]
        vals = [100 * r.win_rate.value for r in t.results][::-1]
        lo = [100 * (r.win_rate.value - r.win_rate.low) for r in t.results][::-1]
        hi = [100 * (r.win_rate.high - r.win_rate.value) for r in t.results][::-1]
        ax.barh(names, vals, xerr=[lo, hi], color="#4c78a8", capsize=4)
        ax.axvline(
            100 * fair, color="#e45756", linestyle="--", label=f"even game ({100 * fair:.0f}%)"
        )
        ax.set_xlabel("win rate (%)")
        legend_above(ax)
        s.add_figure(
            svg_of(fig), "Win rate per bot with its 95% interval; the dashed line is an even game."
        )
    report.sections.append(s)

    h = Section("Head to head")
    h.findings.append(
        "Each cell: how often the row's bot finished ahead of the column's bot in the games where "
        "both played (a tie counts half)."
    )
    k = len(t.bots)
    with figure(1.6 + 1.0 * k, 1.2 + 0.8 * k) as (fig, ax):
        m = np.array(
            [[np.nan if e is None else 100 * e.value for e in row] for row in t.head_to_head]
        )
        im = ax.imshow(m, cmap="RdBu", vmin=0, vmax=100)
        ax.grid(False)
        # Long names (a search bot's parameters) slant rather than run into each other, and
        # break after their commas.
        labels = [chart_label(b) for b in t.bots]
        slant = max(map(len, t.bots)) > 10
        ax.set_xticks(
            range(k), labels, rotation=30 if slant else 0, ha="right" if slant else "center"
        )
        ax.set_yticks(range(k), labels)
        ax.set_xlabel("opponent")
        for i in range(k):
            for j in range(k):
                e = t.head_to_head[i][j]
                if e is not None and not np.isnan(m[i, j]):
                    # The share and its interval to a tenth of a point (99.6% is not 100%), in
                    # black or white, whichever contrasts more with the cell's colour.
                    ax.text(
                        j,
                        i,
                        f"{m[i, j]:.1f}%\n({100 * e.low:.1f}–{100 * e.high:.1f})",
                        ha="center",
                        va="center",
                        fontsize=9,
                        color=text_color(im.cmap(im.norm(m[i, j]))),
                    )
        fig.colorbar(im, ax=ax, label="finished ahead (%)")
        h.add_figure(
            svg_of(fig),
            "Share of games the row bot finished ahead of the column bot, with its 95% interval.",
        )
    report.sections.append(h)

    r = Section("Ratings")
    r.findings.append(
        "Ratings from openskill's "
        + ("Bradley–Terry" if n == 2 else "Plackett–Luce")
        + " model on the finishing places, shown on the Elo scale (the bots average 1500; "
        "200 points ≈ finishing ahead 76% of the time)."
    )
    # None without bootstrap replicates, nor from replicates all alike (every deal went one way).
    intervals = any(math.isfinite(x.elo.low) for x in t.ratings)
    r.add_table(
        ["bot", "Elo (95% interval)" if intervals else "Elo", "openskill μ", "σ"],
        [[x.bot, x.elo.fmt(0), x.mu.fmt(2), f"{x.sigma:.2f}"] for x in t.ratings],
        "Ratings: Elo scale, openskill's μ and σ.",
    )
    with figure(7.5, 0.6 + 0.45 * _label_lines(t.bots)) as (fig, ax):
        names = [chart_label(x.bot) for x in t.ratings][::-1]
        vals = [x.elo.value for x in t.ratings][::-1]
        ax.errorbar(
            vals,
            names,
            xerr=[
                [max(0.0, x.elo.value - x.elo.low) for x in t.ratings][::-1],
                [max(0.0, x.elo.high - x.elo.value) for x in t.ratings][::-1],
            ]
            if intervals
            else None,
            fmt="o",
            color="#54a24b",
            capsize=5,
        )
        ax.set_xlabel("rating (Elo scale)")
        r.add_figure(
            svg_of(fig),
            "Ratings with bootstrap 95% intervals (deals resampled)."
            if intervals
            else "Ratings, without intervals (no bootstrap replicates)."
            if t.rating_bootstrap == 0
            else "Ratings, without intervals: every deal went the same way, so the resampled "
            "deals do not spread.",
        )
    report.sections.append(r)

    report.sections.append(_scores_section(t, direction))
    return report


def _verdict_text(d: Estimate) -> str:
    """The headline's verdict on the best bot's lead over the runner-up (see ``verdict``)."""
    if clear(d):
        return "**a clear difference**."
    if isinstance(d, Difference) and d.no_spread and d.value != 0:
        few = (
            f", too few to tell a difference from (at least {FEW_DEALS} would be needed)"
            if d.n < FEW_DEALS
            else ""
        )
        return f"**the same in each of the {d.n:,} deals**{few}."
    return "**not distinguishable** with these games."


def _label_lines(bots: Sequence[str]) -> int:
    """How many lines the bots' names take on a chart's axis (see ``chart_label``)."""
    return sum(chart_label(b).count("\n") + 1 for b in bots)


_LINE_STYLES = ("-", "--", ":", "-.")
"""The histogram's line styles, bot by bot (with the colour): told apart without colour too."""


def _scores_section(t: TournamentResult, direction: str) -> Section:
    """The distribution of final scores per bot: each bar a share of the bot's seat-games.

    The bins are the same for every bot (one per score where the scores span fewer than 80
    points, else 40 over their range), so the bots' bars compare bin by bin. When every
    seat-game ended on the same score there is nothing to draw, and the section says so.
    """
    sc = Section("Scores")
    flat = t.runs.seat_games()
    scores = flat["score"]
    low, high = float(scores.min()), float(scores.max())
    if low == high:
        sc.add_note(f"Every seat-game ended with a score of {low:g}: no distribution to show.")
        return sc
    whole = bool(np.all(scores == np.round(scores)))
    edges = (
        np.arange(low, high + 2) - 0.5 if whole and high - low < 80 else np.linspace(low, high, 41)
    )
    with figure() as (fig, ax):
        for i, b in enumerate(t.bots):
            values = scores[flat["bot"] == i]
            ax.hist(
                values,
                bins=edges,
                weights=np.full(values.size, 100.0 / values.size),
                histtype="step",
                linewidth=1.6,
                linestyle=_LINE_STYLES[i % len(_LINE_STYLES)],
                label=chart_label(b),
            )
        ax.set_xlabel(f"final score ({direction} is better)")
        ax.set_ylabel("share of the bot's seat-games (%)")
        legend_above(ax, columns=min(len(t.bots), 3))
        sc.add_figure(
            svg_of(fig),
            "Distribution of final scores per bot: each bar is the share of the bot's "
            "seat-games that ended on that score (the same bins for every bot; a line style "
            "per bot).",
        )
    return sc
