"""Balance of a game: seat advantage on mirrored bots, length, margins, lead changes, luck."""

from __future__ import annotations

import json
import math
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

import numpy as np
import numpy.typing as npt

from cardtable._inputs import shown
from cardtable._rng import derive_seed
from cardtable.analysis import _report, _runs
from cardtable.analysis._games import score_label, spec
from cardtable.analysis._report import Report, ResultOutputs, Section, command_line, figure, svg_of
from cardtable.analysis._runs import Progress, Runs
from cardtable.analysis._stats import (
    Estimate,
    Record,
    clip,
    cluster_mean,
    holm,
    json_dict,
    mean_estimate,
    proportion,
)
from cardtable.analysis._text import (
    check_width,
    literal,
    options_text,
    plain_text,
    text_table,
    unmarked,
)
from cardtable.analysis._trace import (
    GameTrace,
    decided_at,
    lead_changes,
    leader_counts,
    leader_shares,
    replay,
)
from cardtable.bots import default_bot
from cardtable.errors import InvalidOptionError, InvalidStateError

if TYPE_CHECKING:
    import pyarrow

__all__ = ["BalanceResult", "SeatBalance", "balance", "default_bot", "margins"]

_QUANTILES = (0.05, 0.25, 0.5, 0.75, 0.95)


@dataclass(frozen=True)
class SeatBalance(Record):
    """One seat of the mirrored games.

    Attributes:
        seat: The seat (0 moves first where the game has a first player).
        win_rate: Share of games the seat won (a shared win counts for every co-winner), with its
            Wilson interval.
        sole_wins: Games the seat won alone.
        score: Mean final score with its t interval. Unlike the other intervals of a balance
            study, it is not clipped to the range the quantity can take: the study does not know
            the range of a game's scores (some games' scores go below 0).
        p_value: Exact two-sided binomial test of the seat's share of the games won alone against
            1/players, Holm-adjusted over the seats (with 2 players the two seats' tests are one
            test, not adjusted: both are :attr:`BalanceResult.seat_p_value`); NaN (``None`` in
            ``to_dict``) when no game had a sole winner, which leaves the test nothing to count.
    """

    seat: int
    win_rate: Estimate
    sole_wins: int
    score: Estimate
    p_value: float


@dataclass(frozen=True)
class Distribution:
    """A numeric distribution: mean with its interval, quantiles, and a histogram.

    Attributes:
        mean: The mean with its t interval.
        quantiles: ``{0.05: ..., 0.25: ..., 0.5: ..., 0.75: ..., 0.95: ...}``.
        values: The distinct values seen (or bin left edges), ascending.
        counts: Games per value (or bin).
    """

    mean: Estimate
    quantiles: dict[float, float]
    values: list[float]
    counts: list[int]

    @staticmethod
    def of(
        x: npt.NDArray[Any],
        max_bins: int = 60,
        *,
        low: float = -math.inf,
        high: float = math.inf,
    ) -> Distribution:
        """The distribution of ``x``.

        Args:
            x: The values, one per game.
            max_bins: More distinct values than this are grouped into 40 bins.
            low: The least value the quantity can take: the mean's interval is clipped to it
                (a share of the game, a margin or a count cannot go below 0, however few the
                games).
            high: The greatest value it can take (1 for a share).

        Returns:
            The mean with its interval, the quantiles and the histogram.
        """
        a = np.asarray(x, dtype=np.float64)
        quantiles = {q: float(np.quantile(a, q)) for q in _QUANTILES} if a.size else {}
        if a.size and np.all(a == np.round(a)) and np.unique(a).size <= max_bins:
            values, counts = np.unique(a, return_counts=True)
        elif a.size:
            counts, edges = np.histogram(a, bins=min(max_bins, 40))
            values = edges[:-1]
        else:
            values, counts = np.array([]), np.array([], dtype=np.int64)
        return Distribution(
            clip(mean_estimate(a), low, high),
            quantiles,
            [float(v) for v in values],
            [int(c) for c in counts],
        )

    def to_dict(self) -> dict[str, Any]:
        """A JSON-friendly dict."""
        return {
            "mean": self.mean.to_dict(),
            "quantiles": {str(k): v for k, v in self.quantiles.items()},
            "values": self.values,
            "counts": self.counts,
        }


@dataclass(frozen=True)
class Luck(Record):
    """How much luck decides, from a duplicate tournament of one weaker bot against the rest.

    Attributes:
        weaker: The weaker bot (one seat, rotated through all seats).
        stronger: The bot in the other seats.
        games: Deals (each played under every rotation).
        upset_rate: Share of its games the weaker bot wins, a shared win counting for every
            winner: the stronger bot in its seat would win the mirrored games'
            :attr:`BalanceResult.equal_share` (``1 / players`` without shared wins, 1 where
            every mirrored game ends with every seat sharing the win).
        upset_alone: Share of its games the weaker bot wins alone, with its interval as
            ``upset_rate``'s.
        stronger_win_rate: Share of its seat-games the stronger bot wins.
        deal_share: Share of the variance of final scores explained by the deal.
        bot_share: Share explained by which bot played the seat.
        seat_share: Share explained by the seat.
    """

    weaker: str
    stronger: str
    games: int
    upset_rate: Estimate
    upset_alone: Estimate
    stronger_win_rate: Estimate
    deal_share: float
    bot_share: float
    seat_share: float


@dataclass
class BalanceResult(ResultOutputs, _runs.FromRuns):
    """What :func:`balance` returns.

    Attributes:
        game_id: The game.
        players: Seats.
        options: Effective options.
        bot: The bot in every seat of the mirrored games.
        seed: The study's seed (the mirrored games are ``simulate(..., seed=seed)``).
        games: Mirrored games.
        seats: Per seat.
        seat_p_value: Exact test against equal seats: for 2 players the two-sided binomial test of
            the games won alone, else the smallest Holm-adjusted per-seat p-value; NaN (``None``
            in :meth:`to_dict`) when no game had a sole winner: the seats cannot be tested.
        seat_chi2_p_value: The chi-square test of the games won alone against equal seats (NaN
            as :attr:`seat_p_value`).
        shared_wins: Share of games with more than one winner.
        length: Decisions per game.
        margin: Winning margin: the best winner's score minus the best other score (in the
            direction where better is positive; 0 when every seat won).
        close_games: Share of the games won alone (:attr:`shared_wins` are left out: a draw is
            not decided by a point) that were decided by at most one point (margin at most 1),
            from the exact margins, with its Wilson interval; NaN (``None`` in :meth:`to_dict`)
            when no game was won alone.
        traced: The replayed games the trace statistics rest on.
        lead_changes: Lead changes per traced game.
        decided: Share of a traced game's decisions after which its winners always lead, over
            the traced games that some seat lost (in a game every seat won, such as a draw of
            two, no winner stands out from the rest: there is nothing to measure).
        leader_wins: ``(share of the game, share of games whose sole leader then wins)``; the
            share is NaN (``None`` in :meth:`to_dict`) where no traced game had a sole leader.
        leader_games: Per point of ``leader_wins``, the traced games that had a sole leader
            there (what each share rests on).
        leader_hits: Per point of ``leader_wins``, how many of those games their sole leader
            then won (the share is ``leader_hits / leader_games``).
        luck: The luck measure, or ``None`` without a weaker bot.
        trace_doc: What the game's score trace is.
        seconds: Wall time.

    ``game_id``, ``players``, ``options`` and ``games`` are read from ``runs``.
    """

    bot: str
    seed: int
    seats: list[SeatBalance]
    seat_p_value: float
    seat_chi2_p_value: float
    shared_wins: Estimate
    length: Distribution
    margin: Distribution
    close_games: Estimate
    traced: list[GameTrace]
    lead_changes: Distribution
    decided: Distribution
    leader_wins: list[tuple[float, float]]
    leader_games: list[int]
    leader_hits: list[int]
    luck: Luck | None
    trace_doc: str
    runs: Runs = field(repr=False)
    seconds: float = 0.0

    @property
    def equal_share(self) -> float:
        """The share of the games each seat would win if the seats were equal.

        The mean of the seats' win rates: ``1 / players`` without shared wins, more with them (a
        shared win counts for every co-winner), as :func:`cardtable.analysis._runs.equal_shares`.
        """
        return float(_runs.equal_shares(self.runs.winners[0]).mean())

    def to_dict(self) -> dict[str, Any]:
        """Everything but the per-game data, as strict JSON (an undefined number is ``None``)."""
        result = {
            "kind": "balance",
            "game_id": self.game_id,
            "players": self.players,
            "options": self.options,
            "bot": self.bot,
            "seed": self.seed,
            "games": self.games,
            "seats": [s.to_dict() for s in self.seats],
            "seat_p_value": self.seat_p_value,
            "seat_chi2_p_value": self.seat_chi2_p_value,
            "shared_wins": self.shared_wins.to_dict(),
            "length": self.length.to_dict(),
            "margin": self.margin.to_dict(),
            "close_games": self.close_games.to_dict(),
            "traced_games": [t.game for t in self.traced],
            "lead_changes": self.lead_changes.to_dict(),
            "decided": self.decided.to_dict(),
            "leader_wins": self.leader_wins,
            "leader_games": self.leader_games,
            "leader_hits": self.leader_hits,
            "luck": None if self.luck is None else self.luck.to_dict(),
            "trace": self.trace_doc,
            "seconds": self.seconds,
        }
        return json_dict(result)

    def to_arrow(self) -> pyarrow.Table:
        """One row per mirrored game.

        Columns ``game``, ``seed`` (the run's), ``length``, ``margin``, ``score_<p>``, ``win_<p>``,
        and, for traced games, ``lead_changes`` and ``decided`` (``decided`` only where some seat
        lost, see :attr:`decided`): null (a missing value, not NaN) in the other rows.
        """
        import pyarrow as pa

        r = self.runs
        cols: dict[str, Any] = {
            "game": np.arange(r.games, dtype=np.int64),
            "seed": np.full(r.games, self.seed, dtype=np.uint64),
            "length": r.lengths[0],
            "margin": margins(r.scores[0], r.winners[0], spec(self.game_id).higher_is_better),
        }
        for p in range(r.players):
            cols[f"score_{p}"] = r.scores[0, :, p]
        for p in range(r.players):
            cols[f"win_{p}"] = r.winners[0, :, p]
        # An untraced game (and the "decided" of a game every seat won) is null, not NaN: a
        # missing value, as a reader of the Parquet file counts it.
        lc: list[int | None] = [None] * r.games
        dec: list[float | None] = [None] * r.games
        higher = spec(self.game_id).higher_is_better
        for t in self.traced:
            lc[t.game] = lead_changes(t.trace, higher)
            if _decisive(t, r.players):
                dec[t.game] = decided_at(t.trace, t.winners, higher)
        cols["lead_changes"] = pa.array(lc, type=pa.float64())
        cols["decided"] = pa.array(dec, type=pa.float64())
        # The bots as a JSON list, as a simulation's table keeps them.
        meta = {"game_id": self.game_id, "bots": json.dumps([self.bot] * r.players)}
        return pa.table(cols, metadata=meta)

    def findings(self) -> list[str]:
        """The main results in plain words (``**`` marks emphasis)."""
        n = self.players
        out = []
        best = max(self.seats, key=lambda s: s.win_rate.value)
        worst = min(self.seats, key=lambda s: s.win_rate.value)
        clear = self.seat_p_value < 0.05
        even = self.equal_share
        # "Even" only when the exact test (on sole wins) agrees: equal win rates may hide seats
        # that share their wins and one that wins alone.
        if best.win_rate.value == worst.win_rate.value and not clear:
            seats = (
                f"the seats are even: each wins {best.win_rate.fmt(3, True)} of the games, shared "
                "wins counting for every winner. "
            )
        else:
            seats = (
                f"seat {best.seat} wins most often: {best.win_rate.fmt(3, True)}, seat "
                f"{worst.seat} least: {worst.win_rate.fmt(3, True)} (equal seats would each win "
                f"{100 * even:.1f}%, shared wins counting for every winner). "
            )
        out.append(
            f"With {literal(self.bot)} in every seat, " + seats + self._seat_verdict(best, worst)
        )
        q = self.length.quantiles
        low, high = f"{q[0.05]:.0f}", f"{q[0.95]:.0f}"
        out.append(
            f"A game lasts **{self.length.mean.value:.1f} decisions** on average "
            + (
                f"(90% of games between {low} and {high})."
                if low != high
                else f"(at least 90% of games {low} decisions long)."
            )
        )
        out.append(self._margin_finding())
        if self.traced:
            out.append(self._lead_finding())
            half = [
                (w, g)
                for (x, w), g in zip(self.leader_wins, self.leader_games, strict=True)
                if abs(x - 0.5) < 1e-9
            ]
            if half and not np.isnan(half[0][0]):
                share, count = half[0]
                out.append(
                    f"A player leading alone at half time wins {100 * share:.0f}% of the time "
                    f"({count} of the traced games had a sole leader then)."
                )
        if self.luck is not None:
            lk = self.luck
            out.append(
                f"Luck: one {literal(lk.weaker)} player against {n - 1} × {literal(lk.stronger)} "
                "still wins "
                f"**{lk.upset_rate.fmt(3, True)}** of its games{self._even_game_text()} "
                f"Of the variation in final scores, the deal explains "
                f"{100 * lk.deal_share:.0f}%, the bot {100 * lk.bot_share:.0f}%, the seat "
                f"{100 * lk.seat_share:.0f}%; the rest is how the game went."
            )
        return out

    def _seat_verdict(self, best: SeatBalance, worst: SeatBalance) -> str:
        """Which seats win more or less often than an equal share, by the exact tests.

        The tests are on the games won alone: a seat differs when its (Holm-adjusted) p-value is
        below 0.05, in the direction of its games won alone against an equal share of them. The
        seat that wins most (least) often but does not differ is said to be within chance, so
        that the p-value of one seat is never read as another's.

        Args:
            best: The seat of the highest win rate.
            worst: The seat of the lowest win rate.
        """
        if math.isnan(self.seat_p_value):
            return (
                "**The seats cannot be tested for an advantage**: no game had a sole winner, and "
                "the exact test compares the games each seat won alone."
            )
        if self.seat_p_value >= 0.05:
            return f"**No seat advantage shows** (exact test p = {self.seat_p_value:.2g})."
        alone = sum(s.sole_wins for s in self.seats)
        fair = alone / self.players
        if self.players == 2:  # one test: one seat ahead of an equal share, the other behind
            ahead, behind = sorted(self.seats, key=lambda s: -s.sole_wins)
            return (
                f"**Seat {ahead.seat} wins more often than an equal share and seat "
                f"{behind.seat} less often** (seat {ahead.seat} won {ahead.sole_wins:,} of the "
                f"{alone:,} games won alone; exact test p = {self.seat_p_value:.2g})."
            )
        differ = [s for s in self.seats if s.p_value < 0.05]
        clauses = [
            f"**seat {s.seat} wins {'more' if s.sole_wins > fair else 'less'} often than an "
            f"equal share** ({s.sole_wins:,} of "
            + (f"the {alone:,} games won alone; Holm-adjusted exact test " if i == 0 else "them; ")
            + f"p = {s.p_value:.2g})"
            for i, s in enumerate(differ)
        ]
        even = self.equal_share
        if best not in differ and best.win_rate.value > even:
            clauses.append(
                f"seat {best.seat}'s lead is not distinguishable from chance "
                f"(p = {best.p_value:.2g})"
            )
        if worst not in differ and worst.win_rate.value < even:
            clauses.append(
                f"seat {worst.seat}'s shortfall is not distinguishable from chance "
                f"(p = {worst.p_value:.2g})"
            )
        text = "; ".join(clauses) + "."
        return text[:2] + text[2].upper() + text[3:]  # after the opening "**"

    def _margin_finding(self) -> str:
        """The winning margin, the close games and the shared wins.

        A shared win is named apart: a draw (margin 0, every seat sharing the win) is no game
        decided by at most one point, so the close games are a share of the games won alone.
        """
        w = self.runs.winners[0]
        margin = (
            f"**{self.margin.mean.value:.2f} points** on average (median "
            f"{self.margin.quantiles[0.5]:.0f})"
        )
        close = 100 * self.close_games.value
        close_text = f"{close:.{0 if close >= 10 else 1}f}%"
        if self.close_games.n == self.games:
            return (
                f"The winner is ahead by {margin}; {close_text} of games are decided by at most "
                "one point and none ends in a shared win."
            )
        if self.close_games.n == 0:
            if bool(w.all()):
                return (
                    f"Every one of the {self.games:,} games ends with every seat sharing the win: "
                    "no game has a winning margin or a sole winner."
                )
            return (
                f"Every one of the {self.games:,} games ends in a shared win (none has a sole "
                f"winner); the winners are ahead of the best other seat by {margin}."
            )
        return (
            f"The winner is ahead by {margin}; {100 * self.shared_wins.value:.1f}% of games end "
            f"in a shared win, and of the others {close_text} are decided by at most one point."
        )

    def _even_game_text(self) -> str:
        """What the weaker bot's win rate compares with, ending the sentence it is part of.

        Without shared wins in the mirrored games, an even game's share (``1 / players``).
        With them, the upset rate counts the weaker bot's shared wins too and the reference is
        what each seat wins in the mirrored games, shared wins counting for every winner
        (100% when every mirrored game ends in a shared win): that is said, with the share of
        the weaker bot's games it wins alone.
        """
        assert self.luck is not None
        lk = self.luck
        even = f"{100 * self.equal_share:.0f}%"
        if self.shared_wins.value == 0:
            return f" (an even game: {even}, as in the mirrored games)."
        shared = (
            "all of which end in a shared win"
            if self.shared_wins.value == 1
            else f"{100 * self.shared_wins.value:.0f}% of which end in a shared win"
        )
        return (
            f", {100 * lk.upset_alone.value:.1f}% alone. A {literal(lk.stronger)} player in its "
            "seat wins "
            f"{even} in the mirrored games, {shared} (counted for every winner)."
        )

    def _lead_finding(self) -> str:
        """The lead changes and when the winner leads for good, over the traced games."""
        traced = len(self.traced)
        decisive = sum(_decisive(t, self.players) for t in self.traced)
        lead = f"The lead changes **{self.lead_changes.mean.value:.2f} times** per game"
        if not decisive:
            return (
                f"{lead}; every one of the {traced} traced games ended with every seat sharing "
                "the win, so no winner ever takes the lead for good: there is nothing to measure."
            )
        games = (
            f"{traced} traced games"
            if decisive == traced
            else f"the {decisive} of the {traced} traced games that some seat lost; every seat "
            "won the others, leaving nothing to measure"
        )
        return (
            f"{lead}; the winner leads for good after **{100 * self.decided.mean.value:.0f}%** "
            f"of the game on average (median {100 * self.decided.quantiles[0.5]:.0f}%; {games})."
        )

    def summary_table(self, width: int | None = None) -> str:
        """The results as text: a table per seat, then the findings.

        Args:
            width: As for :meth:`TournamentResult.summary_table`.

        Raises:
            InvalidOptionError: On a bad ``width``.
        """
        width = check_width(width, 120)
        t = text_table(
            self._summary_title(
                f"{self.players} × {self.bot}", f"{self.games:,} games", f"seed {self.seed}"
            ),
            (
                "seat",
                "win rate (95% CI)",
                "won alone",
                score_label(self.game_id, "mean score"),
                "p (Holm)",
            ),
            (
                (
                    str(s.seat),
                    s.win_rate.fmt(3, True),
                    f"{s.sole_wins:,}",
                    s.score.fmt(2),
                    _p_text(s.p_value),
                )
                for s in self.seats
            ),
        )
        notes = [*self.findings(), *([_trace_text(self.trace_doc)] if self.traced else [])]
        return plain_text(width, t, *["• " + unmarked(line) for line in notes])

    def report(self) -> Report:
        """The HTML report."""
        return _balance_report(self)


def margins(
    scores: npt.NDArray[np.int64], winners: npt.NDArray[np.bool_], higher_is_better: bool
) -> npt.NDArray[np.float64]:
    """Per game: the best winner's score minus the best other score.

    Better is positive; 0 when every seat won.
    """
    s = (scores if higher_is_better else -scores).astype(np.float64)
    w = winners.astype(bool)
    best_winner = np.where(w, s, -np.inf).max(axis=1)
    best_other = np.where(~w, s, -np.inf).max(axis=1)
    result: npt.NDArray[np.float64] = np.where(np.isinf(best_other), 0.0, best_winner - best_other)
    return result


def _decisive(t: GameTrace, players: int) -> bool:
    """Whether some seat lost the traced game: only then is there a winner to see decided."""
    return len(t.winners) < players


def _trace_text(trace_doc: str) -> str:
    """The sentence that says what the lead changes and "decided at" are read from."""
    return (
        f"Lead changes and when the winner is decided are read from the score trace: {trace_doc}."
    )


def _shares(runs: Runs) -> tuple[float, float, float]:
    """Shares of the score variance explained by deal, bot and seat (balanced design)."""
    flat = runs.seat_games()
    y = flat["score"]
    total = float(((y - y.mean()) ** 2).sum())
    if total == 0:
        return (0.0, 0.0, 0.0)

    def explained(groups: npt.NDArray[Any]) -> float:
        _, inv = np.unique(groups, return_inverse=True)
        sums = np.bincount(inv, weights=y)
        counts = np.bincount(inv)
        means = sums / counts
        return float((counts * (means - y.mean()) ** 2).sum()) / total

    return explained(flat["deal"]), explained(flat["bot"]), explained(flat["seat"])


def balance(
    game_id: str,
    *,
    players: int,
    bot: str | None = None,
    weaker: str | None = "random",
    games: int = 10_000,
    seed: int = 0,
    trace_games: int = 300,
    luck_games: int | None = None,
    threads: int | None = None,
    progress: bool | Callable[[int, int], object] = True,
    **options: Any,
) -> BalanceResult:
    """Measures a game's balance with the same bot in every seat.

    Args:
        game_id: The game.
        players: Seats.
        bot: The mirrored bot (``None``: ``greedy`` where the game has it; ``""`` is refused).
        weaker: A weaker bot for the luck measure (``None``: no luck measure; skipped when it is
            the mirrored bot).
        games: Mirrored games.
        seed: The study's seed: the mirrored games are ``simulate(..., seed=seed)``, the luck
            tournament uses ``derive_seed(seed, 1)``.
        trace_games: The first games of the mirrored run replayed step by step for the score
            trace (0: none).
        luck_games: Deals of the luck tournament, at least 2 (default ``games // players``, at
            least 2).
        threads: Worker threads (results do not depend on it).
        progress: A progress bar (``True``), nothing, or a ``progress(done, total)`` callable;
            as in :func:`cardtable.simulate`, returning ``False`` stops the study (as Ctrl-C
            does: it raises ``KeyboardInterrupt``).
        **options: The game's options.

    Returns:
        Seat advantage, length, margins, lead changes, how early the winner is decided, and luck.

    Raises:
        InvalidOptionError: On a bad game, option, bot, count or seed.
        CapacityError: If the games' results would not fit in memory.
        KeyboardInterrupt: If stopped with Ctrl-C or by the ``progress`` callable.
    """
    from cardtable import _core

    start = time.perf_counter()
    games, seed, threads = _runs.check_run(games, seed, threads)
    trace_games = _runs.check_count("trace_games", trace_games, 0)
    if luck_games is not None:
        luck_games = _runs.check_count("luck_games (the luck tournament's deals)", luck_games, 2)
    for name, value in (("bot", bot), ("weaker", weaker)):
        if value is not None and not isinstance(value, str):
            raise InvalidOptionError(f"{name} must be a bot name or None, got {shown(value)}")
    game = _core.Game(game_id, players, options)
    n = game.players
    bot = default_bot(game_id) if bot is None else bot
    (lineup,) = _runs.seat_assignments(game, [bot], False)
    luck_deals = max(2, games // n) if luck_games is None else luck_games
    luck_bots = [weaker, *([bot] * (n - 1))] if weaker is not None and weaker != bot else []
    luck_lineups = _runs.seat_assignments(game, luck_bots, True) if luck_bots else []
    trace_idx = range(min(trace_games, games))
    total = games + len(trace_idx) + luck_deals * len(luck_lineups)
    higher = spec(game_id).higher_is_better
    with (
        _runs.fewer_games_on_memory_error(f"the study's {total:,} games"),
        Progress(progress, total, "balance") as bar,
    ):
        runs = _runs.run_lineups(game_id, n, [lineup], [seed], games, options, threads, bar)
        traced = []
        for k, g in enumerate(trace_idx):
            t = replay(game_id, n, lineup, seed, g, **options)
            if t.scores != runs.scores[0, g].tolist() or t.decisions != runs.lengths[0, g]:
                raise InvalidStateError(f"replay of game {g} differs from the simulated game")
            traced.append(t)
            bar.update(games + k + 1, "score traces")
            bar.stop_if_asked()
        luck_runs = None
        if luck_lineups:
            luck_seeds = [derive_seed(seed, 1)] * len(luck_lineups)
            base = games + len(trace_idx)
            luck_runs = _runs.run_lineups(
                game_id, n, luck_lineups, luck_seeds, luck_deals, options, threads, bar, base=base
            )

    from scipy import stats  # see _stats.t_quantile

    w = runs.winners[0]
    sole = w.sum(axis=1) == 1
    sole_counts = w[sole].sum(axis=0).astype(int)
    sole_total = int(sole_counts.sum())
    if sole_total:
        raw_p = [float(stats.binomtest(int(c), sole_total, 1 / n).pvalue) for c in sole_counts]
        # With 2 players the seats' tests are one test (seat 1 won alone whenever seat 0 did
        # not, and the two-sided test of 1/2 is symmetric): nothing to adjust for.
        adjusted = raw_p if n == 2 else holm(raw_p)
        seat_p = raw_p[0] if n == 2 else min(adjusted)
        chi2_p = float(stats.chisquare(sole_counts).pvalue)
    else:  # no game won alone: nothing to test (a p-value of 1 would read "no advantage")
        adjusted, seat_p, chi2_p = [math.nan] * n, math.nan, math.nan
    seats = [
        SeatBalance(
            seat=p,
            win_rate=proportion(int(w[:, p].sum()), games),
            sole_wins=int(sole_counts[p]),
            score=mean_estimate(runs.scores[0, :, p]),
            p_value=adjusted[p],
        )
        for p in range(n)
    ]
    luck = None
    if luck_runs is not None and weaker is not None:  # weaker: for mypy
        flat = luck_runs.seat_games()
        weak_index = luck_runs.bots.index(weaker)
        strong_index = luck_runs.bots.index(bot)
        wmask = flat["bot"] == weak_index
        smask = flat["bot"] == strong_index
        deal_share, bot_share, seat_share = _shares(luck_runs)
        # Per seat-game (seat_games' order): whether that seat won its game alone.
        alone = flat["win"] * np.repeat((luck_runs.winners.sum(axis=-1) == 1).reshape(-1), n)
        luck = Luck(
            weaker=weaker,
            stronger=bot,
            games=luck_deals,
            upset_rate=cluster_mean(flat["win"][wmask], flat["deal"][wmask], share=True),
            upset_alone=cluster_mean(alone[wmask], flat["deal"][wmask], share=True),
            stronger_win_rate=cluster_mean(flat["win"][smask], flat["deal"][smask], share=True),
            deal_share=deal_share,
            bot_share=bot_share,
            seat_share=seat_share,
        )
    leader_hits, leader_games = leader_counts(traced, higher)  # one pass over the traces
    curve = leader_shares(leader_hits, leader_games)
    game_margins = margins(runs.scores[0], w, higher)
    return BalanceResult(
        bot=bot,
        seed=seed,
        seats=seats,
        seat_p_value=seat_p,
        seat_chi2_p_value=chi2_p,
        shared_wins=proportion(int((w.sum(axis=1) > 1).sum()), games),
        # The intervals stay within what each quantity can take: a count or a margin (the
        # winners have the best score) is never below 0, a share of the game lies in 0..1.
        length=Distribution.of(runs.lengths[0], low=0),
        margin=Distribution.of(game_margins, low=0),
        # A draw is no game decided by a point: close games are counted among the games won alone.
        close_games=proportion(int((game_margins[sole] <= 1).sum()), int(sole.sum())),
        traced=traced,
        lead_changes=Distribution.of(
            np.array([lead_changes(t.trace, higher) for t in traced]), low=0
        ),
        decided=Distribution.of(
            np.array([decided_at(t.trace, t.winners, higher) for t in traced if _decisive(t, n)]),
            low=0,
            high=1,
        ),
        leader_wins=[
            (float(x), float(v)) for x, v in zip(np.linspace(0, 1, len(curve)), curve, strict=True)
        ],
        leader_games=[int(g) for g in leader_games],
        leader_hits=[int(h) for h in leader_hits],
        luck=luck,
        trace_doc=spec(game_id).trace_doc,
        runs=runs,
        seconds=time.perf_counter() - start,
    )


def _p_text(p: float) -> str:
    """A p-value for a table, ``—`` where there was nothing to test."""
    return "—" if math.isnan(p) else f"{p:.3g}"


def _add_distribution(
    section: Section, d: Distribution, xlabel: str, color: str, caption: str, what: str
) -> None:
    """Adds the histogram of ``d`` to ``section``, or a note when it has one value only.

    A histogram of one bar (every game tied, its margin 0) shows nothing: the note says what
    every game had instead.

    Args:
        section: The section.
        d: The distribution.
        xlabel: The histogram's x axis.
        color: Its bars' colour.
        caption: Its caption.
        what: What every game had, for the note, with ``{value}`` for the value:
            ``"a winning margin of {value}"``.
    """
    if len(d.values) == 1:
        had = what.format(value=f"{d.values[0]:g}")
        section.add_note(f"{caption} Every game had {had}: no histogram.")
    elif d.values:
        section.add_figure(_bar_distribution(d, xlabel, color), caption)


def _bar_distribution(d: Distribution, xlabel: str, color: str) -> str:
    from matplotlib.ticker import MaxNLocator

    with figure(7.5, 3.0) as (fig, ax):
        ax.yaxis.set_major_locator(MaxNLocator(integer=True))  # a count of games
        widths = np.diff(d.values).min() if len(d.values) > 1 else 1.0
        ax.bar(d.values, d.counts, width=0.9 * widths, color=color, align="center")
        ax.axvline(d.mean.value, color="#333", linestyle="--", label=f"mean {d.mean.value:.2f}")
        if d.values and all(v.is_integer() for v in d.values):  # counts: whole-number ticks
            if len(d.values) <= 12:
                ax.set_xticks(d.values, [f"{v:.0f}" for v in d.values])
            else:
                ax.xaxis.set_major_locator(MaxNLocator(integer=True))
        ax.set_xlabel(xlabel)
        ax.set_ylabel("games")
        ax.legend()
        return svg_of(fig)


def _reproduce(b: BalanceResult) -> str:
    """The command that runs ``b`` again (every setting that changes its results)."""
    words: list[object] = ["cardtable", "balance", b.game_id, "--players", b.players]
    words += ["--bot", b.bot, "--games", b.games, "--seed", b.seed]
    words += ["--trace-games", len(b.traced)]
    if b.luck is None:
        words += ["--weaker", "none"]
    else:
        words += ["--weaker", b.luck.weaker, "--luck-games", b.luck.games]
    return command_line(*words, options=b.options)


def _balance_report(b: BalanceResult) -> Report:
    n = b.players
    opts = options_text(b.options)
    report = Report(
        title=f"Balance: {b.game_id}, {n} players",
        subtitle=f"{b.games:,} games with {b.bot} in every seat; options: {opts}; seed {b.seed}.",
        footer=(
            f"Made by cardtable.balance in {b.seconds:.1f} s. Every interval is a 95% interval. "
            f"Reproduce with `{_reproduce(b)}`."
        ),
    )
    score = score_label(b.game_id, "mean score")
    summary = Section("In short")
    summary.findings = b.findings()
    report.sections.append(summary)

    s = Section("Seat advantage")
    s.findings.append(
        "Every seat is played by the same bot, so any difference between seats comes from the "
        "rules (who starts, who reacts) or from chance. The p-value is an exact binomial test of "
        "the games each seat won alone against an equal share, adjusted for testing every seat."
    )
    s.add_table(
        ["seat", "win rate (95% interval)", "games won alone", score, "p-value"],
        [
            [
                f"seat {x.seat}",
                x.win_rate.fmt(3, True),
                f"{x.sole_wins:,}",
                x.score.fmt(2),
                _p_text(x.p_value),
            ]
            for x in b.seats
        ],
        "Each seat of the mirrored games, with 95% intervals and the exact test's p-value.",
    )
    with figure(7.5, 3.0) as (fig, ax):
        seats = [f"seat {x.seat}" for x in b.seats]
        vals = [100 * x.win_rate.value for x in b.seats]
        err = [
            [100 * (x.win_rate.value - x.win_rate.low) for x in b.seats],
            [100 * (x.win_rate.high - x.win_rate.value) for x in b.seats],
        ]
        ax.bar(seats, vals, yerr=err, color="#4c78a8", capsize=5)
        even = 100 * b.equal_share
        ax.axhline(even, color="#e45756", linestyle="--", label=f"equal seats ({even:.1f}%)")
        # Room for the whole of every interval and the equal-seats line, never past 100%.
        top = max(100 * x.win_rate.high for x in b.seats)
        ax.set_ylim(0, min(105.0, 1.1 * max(top, even, 1.0)))
        ax.set_ylabel("win rate (%)")
        _report.legend_above(ax)
        s.add_figure(svg_of(fig), "Win rate by seat with 95% intervals.")
    report.sections.append(s)

    ln = Section("Game length and margins")
    _add_distribution(
        ln, b.length, "decisions per game", "#72b7b2", "Game length.", "a length of {value}"
    )
    _add_distribution(
        ln,
        b.margin,
        "winning margin (points)",
        "#f58518",
        "Winning margin: the winner's score minus the best other score.",
        "a winning margin of {value}",
    )
    report.sections.append(ln)

    if b.traced:
        tr = Section("Lead changes and when the game is decided")
        tr.findings.append(_trace_text(b.trace_doc))
        if any(b.leader_games):  # no traced game had a sole leader anywhere (all shared wins)
            with figure(7.5, 3.0) as (fig, ax):
                # Each point with its 95% Wilson interval over the games it rests on: a point of a
                # handful of games (early on few games have a sole leader) shows as uncertain.
                xs = [100 * x for x, _ in b.leader_wins]
                ys = [100 * y for _, y in b.leader_wins]
                ci = [
                    proportion(h, g) if g else None
                    for h, g in zip(b.leader_hits, b.leader_games, strict=True)
                ]
                err = [
                    [0.0 if e is None else 100 * (e.value - e.low) for e in ci],
                    [0.0 if e is None else 100 * (e.high - e.value) for e in ci],
                ]
                ax.errorbar(xs, ys, yerr=err, marker="o", capsize=3, color="#54a24b")
                ax.axhline(100 / n, color="#e45756", linestyle="--", label="no information")
                ax.set_ylim(0, 105)
                ax.set_xlabel("share of the game played (%)")
                ax.set_ylabel("sole leader wins (%)")
                _report.legend_above(ax)
                tr.add_figure(
                    svg_of(fig),
                    "How often a player who leads alone at each point of the game goes on to win, "
                    "with its 95% interval over the traced games that had a sole leader there.",
                )
        _add_distribution(
            tr,
            b.lead_changes,
            "lead changes per game",
            "#b279a2",
            "Lead changes: how often the sole leader changes.",
            "{value} lead changes",
        )
        report.sections.append(tr)

    if b.luck is not None:
        lk = b.luck
        lu = Section("Luck")
        lu.findings.append(
            f"One {literal(lk.weaker)} player sits at the table with {n - 1} × "
            f"{literal(lk.stronger)}, in every seat in turn, on the same {lk.games:,} deals."
        )
        lu.add_table(
            ["measure", "value"],
            [
                [f"{lk.weaker} wins", lk.upset_rate.fmt(3, True)],
                ["… alone", lk.upset_alone.fmt(3, True)],
                [f"{lk.stronger} wins (per seat)", lk.stronger_win_rate.fmt(3, True)],
                [
                    f"a seat of the mirrored games, {lk.stronger} in every seat, wins (the equal "
                    "share, shared wins counting for every winner)",
                    f"{100 * b.equal_share:.1f}%",
                ],
                ["score variance explained by the deal", f"{100 * lk.deal_share:.1f}%"],
                ["… by the bot", f"{100 * lk.bot_share:.1f}%"],
                ["… by the seat", f"{100 * lk.seat_share:.1f}%"],
            ],
            "Luck: the weaker bot against the mirrored one, on the same deals.",
        )
        report.sections.append(lu)
    return report
