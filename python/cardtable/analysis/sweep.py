"""Option sweeps: the product of option values, one Parquet row per option set and seat."""

from __future__ import annotations

import itertools
import math
import re
import statistics
import time
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

import numpy as np
import numpy.typing as npt

from cardtable._inputs import shown
from cardtable.analysis import _runs
from cardtable.analysis._differences import (
    FEW_DEALS,
    Difference,
    PairedDifference,
    clear,
    difference_text,
    metric_name,
    paired_estimate,
    unit_means,
    verdict,
    within,
)
from cardtable.analysis._games import spec
from cardtable.analysis._report import (
    Report,
    ResultOutputs,
    Section,
    chart_label,
    command_line,
    figure,
    rerun_text,
    svg_of,
    text_color,
)
from cardtable.analysis._runs import Progress, Runs
from cardtable.analysis._stats import (
    Estimate,
    Record,
    clip,
    cluster_mean,
    json_value,
    mean_estimate,
    proportion,
    record_dict,
    unpaired_share_difference,
    welch_difference,
)
from cardtable.analysis._text import (
    check_width,
    literal,
    option_text,
    options_text,
    plain_text,
    plural,
    summary_title,
    text_table,
    unmarked,
)
from cardtable.analysis.balance import default_bot, margins
from cardtable.errors import InvalidOptionError
from cardtable.reference._options import plain_json

if TYPE_CHECKING:
    import pyarrow

    from cardtable._simulation import PythonPolicy

__all__ = ["NEARLY_ALL", "SweepPoint", "SweepResult", "sweep"]

ADVANTAGE = "seat 0 advantage"
"""The metric of seat 0's win rate minus the share each seat would win if all were equal."""

NEARLY_ALL = 0.95
"""The share of games from which a sweep's findings warn: an option set whose games end in a
shared win at least this often is degenerate, and a bot that wins at least this share of its
games leaves its win rate little room to show what the options change."""


@dataclass(frozen=True)
class SweepPoint(Record):
    """The results of one option set.

    Attributes:
        options: The swept options' values.
        seed: The ``simulate`` seed of every seat assignment of this option set.
        metrics: Metric name → estimate: ``win rate: <bot>`` per bot (only with more than one
            distinct bot: with one bot in every seat its win rate is only the share each seat
            would win were all equal), ``seat 0 advantage`` (a :class:`Difference`: seat 0's
            win rate minus that equal share), ``mean length``, ``mean margin``, ``shared wins``.
        per_deal: Metric name → its mean in each deal (entry ``g``: game ``g`` of every seat
            assignment, seeded ``derive_seed(seed, g)``), what the paired differences are taken
            over; not part of :meth:`to_dict`.
        effective: The value the game gives each swept option, where it differs from the one
            given (``rounds=None`` plays as ``rounds=4`` in a four-player Turn the Tide); not
            part of :meth:`to_dict`.
    """

    options: dict[str, Any]
    seed: int
    metrics: dict[str, Estimate]
    per_deal: dict[str, npt.NDArray[np.float64]] = field(repr=False, compare=False)
    effective: dict[str, Any] = field(default_factory=dict, repr=False, compare=False)

    def to_dict(self) -> dict[str, Any]:
        """The options, seed and metrics, as strict JSON (an undefined number is ``None``)."""
        return record_dict(self, ("options", "seed", "metrics"))


@dataclass
class SweepResult(ResultOutputs):
    """What :func:`sweep` returns.

    Attributes:
        game_id: The game.
        players: Seats.
        grid: The swept options and their values.
        fixed: Options held fixed.
        bots: The bots, as given (a Python policy by its label ``policy:<name>``, see
            :func:`sweep`).
        rotate_seats: Whether every seat assignment was played (``False``: only ``bots``).
        lineups: Seat assignments played for every option set.
        games: Games (deals) per seat assignment.
        seed: The sweep's seed (the ``simulate`` seed of every option set and seat assignment).
        points: One per option set, in grid order.
        rows: One dict per option set, seat assignment and seat (the Parquet table).
        seconds: Wall time.
        baseline: The index in ``points`` of the option set the summary, the report and
            :meth:`to_dict` give the :attr:`differences` from.
        default_bots: Whether ``bots`` is the default lineup (no bots were given): the game's
            heuristic bot against ``random`` in the other seats.
    """

    game_id: str
    players: int
    grid: dict[str, list[Any]]
    fixed: dict[str, Any]
    bots: list[str]
    rotate_seats: bool
    lineups: list[tuple[str, ...]]
    games: int
    seed: int
    points: list[SweepPoint]
    rows: list[dict[str, Any]] = field(repr=False)
    seconds: float = 0.0
    baseline: int = 0
    default_bots: bool = False

    @property
    def metrics(self) -> list[str]:
        """The metric names, in plot order."""
        return list(self.points[0].metrics) if self.points else []

    @property
    def differences(self) -> list[PairedDifference]:
        """Every other option set − the baseline, in every metric (option sets in grid order)."""
        return [
            self.difference(i, self.baseline, metric)
            for i in range(len(self.points))
            if i != self.baseline
            for metric in self.metrics
        ]

    def difference(
        self,
        a: int | Mapping[str, Any],
        b: int | Mapping[str, Any],
        metric: str | None = None,
    ) -> PairedDifference:
        """The difference ``a − b`` between two option sets in one metric.

        Every option set plays the same seat assignments from the sweep's seed, so game ``g`` of
        every option set is seeded ``derive_seed(seed, g)``: the option sets always share their
        deals' seeds, and the paired interval (over deals, of a's mean − b's mean in that deal) is
        always valid. The same seed deals the same cards when the options leave the deal alone
        (a scoring or end-of-game rule, say); an option that changes the deal itself (the deck,
        the hand size) keeps the pairing valid but cancels less of the deal's luck, and the paired
        interval is then about as wide as the unpaired one.

        Args:
            a: An option set: its index in :attr:`points` (grid order) or its swept options'
                values, e.g. ``{"lanes": 4, "max_cars": 3}`` (an option may be left out when the
                others single out one option set).
            b: The option set it is compared with, given as ``a``.
            metric: One of :attr:`metrics` as the tables show it, e.g. ``"win rate: greedy"`` or
                ``"mean length"``, or by its short name as a tournament's: ``"win: greedy"``,
                ``"seat 0"``, ``"length"``, ``"margin"``, ``"shared"`` (in any case, with ``_``
                for a space; the bot exactly as :attr:`bots` spells it). ``None``: the first,
                the first bot's win rate (seat 0's advantage with one bot in every seat).

        Returns:
            ``a − b`` paired by deal, and unpaired (over the two option sets' per-deal means, as
            if each had been played on deals of its own: Welch's interval, or for shares
            Newcombe's hybrid score interval, which never has zero width). A difference of win
            rates or shared wins is one of shares (Tango's interval paired; ``0.05`` is 5
            percentage points); one of seat 0's advantages is written in points too but is a
            difference of means (the t interval). Its ``metric`` is the name of :attr:`metrics`.

        Raises:
            InvalidOptionError: Unless ``a`` and ``b`` each single out an option set of the sweep
                and are two different ones, and ``metric`` is one of :attr:`metrics` (the message
                lists the valid choices).
        """
        i = self._index(a, "a")
        j = self._index(b, "b")
        metric = self.metrics[0] if metric is None else metric_name(metric, self.metrics)
        if i == j:
            raise InvalidOptionError(
                f"a difference needs two different option sets, got {_option_text(self, i)} twice"
            )
        pa, pb = self.points[i].per_deal[metric], self.points[j].per_deal[metric]
        share = _is_share(metric)
        return PairedDifference(
            _option_text(self, i),
            _option_text(self, j),
            metric,
            paired_estimate(pa, pb, share=share),
            _unpaired(pa, pb, share),
        )

    @property
    def effects(self) -> list[PairedDifference]:
        """Each swept option's own effect on every metric, averaged over the other options.

        For every option with more than one value, each of its later values against its first
        (``lanes=4`` − ``lanes=3``), in every metric: the mean over the option sets with the later
        value minus the mean over those with the first, which hold the other options at each of
        their values alike (the grid is a full product), so the difference is the option's own
        (main) effect. Paired by deal: per deal, the option sets' means in that deal are averaged on
        each side first, and the interval is the t interval over deals of the difference (Tango's
        for shares, as in :meth:`difference`); unpaired, Welch's over the two sides' per-deal means
        (Newcombe's for shares). With one swept option these are the differences from the first
        option set. How the options combine (an option whose effect depends on another's value)
        shows in the option sets themselves.

        Returns:
            One :class:`PairedDifference` per option, later value and metric (options in grid
            order, then values, then :attr:`metrics`), with ``a`` and ``b`` naming the option's
            two values (``lanes=4``, ``lanes=3``).
        """
        return [
            self._effect(option, value, metric)
            for option, values in self.grid.items()
            for value in values[1:]
            for metric in self.metrics
        ]

    def _effect(self, option: str, value: Any, metric: str) -> PairedDifference:
        """``option`` at ``value`` − at its first value in ``metric``, over the other options."""
        first = self.grid[option][0]
        sides = [
            np.mean(
                [p.per_deal[metric] for p in self.points if _same(p.options[option], v)], axis=0
            )
            for v in (value, first)
        ]
        share = _is_share(metric)
        a, b = sides
        return PairedDifference(
            options_text({option: value}),
            options_text({option: first}),
            metric,
            paired_estimate(a, b, share=share),
            _unpaired(a, b, share),
        )

    def _index(self, point: object, what: str) -> int:
        """The index in :attr:`points` of the option set ``point`` names.

        Raises:
            InvalidOptionError: Unless it singles out one (the message says how to name one).
        """
        return _point_index(point, self.grid, [p.options for p in self.points], what)

    def to_dict(self) -> dict[str, Any]:
        """Everything (the rows included), the :attr:`differences` and :attr:`effects`, as JSON.

        An undefined number is ``None``.
        """
        return {
            "kind": "sweep",
            **record_dict(self),
            "differences": json_value(self.differences),
            "effects": json_value(self.effects),
        }

    def to_arrow(self) -> pyarrow.Table:
        """The rows as a table.

        Row r is reproduced by ``cardtable.simulate(game_id, players=players, games=r["games"],
        bots=split_bot_specs(r["lineup"]), seed=r["seed"], **options).seats[r["seat"]]`` with
        the row's option columns (and the fixed options) as ``options``;
        :func:`cardtable.bots.split_bot_specs` keeps the commas of a bot's parameters inside its
        spec. A Python policy is named by its label (``policy:<name>``): put the policy itself in
        its seats to replay a row.
        """
        import pyarrow as pa

        columns: dict[str, Any] = (
            {k: [r[k] for r in self.rows] for k in self.rows[0]} if self.rows else {}
        )
        if "seed" in columns:
            columns["seed"] = pa.array(columns["seed"], type=pa.uint64())
        table = pa.table(columns)
        meta = {
            "game_id": self.game_id,
            "players": str(self.players),
            "fixed_options": repr(self.fixed),
            "grid": repr(self.grid),
        }
        return table.replace_schema_metadata(meta)

    def summary_table(self, width: int | None = None) -> str:
        """One line per option set with every metric, then the differences from the baseline.

        The differences (each other option set − the baseline, paired by deal) follow in a second
        table, with one line on how much wider the unpaired intervals would be, then, with several
        swept options, each option's own effect (:attr:`effects`); last, in words, the lineup
        (the default one; one bot in every seat), what seat 0's advantage is, the null values the
        game plays as another, and the warnings of the report's findings. The columns are
        headed by the names :meth:`difference` takes; a heading or cell too long for its column
        (a bot's win rate, the bot with its parameters) is folded onto more lines, never cut.

        Args:
            width: As for :meth:`TournamentResult.summary_table`, with ``None`` for 160.

        Raises:
            InvalidOptionError: On a bad ``width``.
        """
        width = check_width(width, 160)
        t = text_table(
            summary_title(
                self.game_id,
                self.players,
                self.fixed,
                f"{self.players} players",
                f"bots {', '.join(self.bots)}",
                f"{plural(len(self.lineups), 'seat assignment')} × {self.games:,} deals per "
                "option set",
                f"seed {self.seed}",
            ),
            [*self.grid, *self.metrics],
            (
                [
                    *[option_text(p.options[k]) for k in self.grid],
                    *[_fmt_metric(m, p.metrics[m]) for m in self.metrics],
                ]
                for p in self.points
            ),
        )
        parts: list[Any] = [t]
        if len(self.points) >= 2:
            parts += self._difference_tables()
        notes = [
            *map(unmarked, _lineup_notes(self)),  # findings, with their markup
            _ADVANTAGE_TEXT,
            *_resolved_notes(self),  # plain notes
            *map(unmarked, _warnings(self)),
        ]
        return plain_text(width, *parts, *["• " + n for n in notes])

    def _difference_tables(self) -> list[Any]:
        """The summary's differences from the baseline, then each option's own effect."""
        differences = self.differences
        per_set = len(self.metrics)
        others = [i for i in range(len(self.points)) if i != self.baseline]
        rows = [
            [
                *[option_text(self.points[i].options[k]) for k in self.grid],
                *[
                    _fmt_difference(c.paired, c.metric, unit=False)
                    for c in differences[n * per_set : (n + 1) * per_set]
                ],
            ]
            for n, i in enumerate(others)
        ]
        parts: list[Any] = [
            text_table(
                f"differences from the baseline {_option_text(self, self.baseline)}: option set "
                "− baseline, paired by deal (95% CI; shares and seat 0's advantage in percentage "
                "points)",
                [*self.grid, *self.metrics],
                rows,
            )
        ]
        gain = _pairing_gain(differences)
        if gain is not None:
            parts.append(_gain_text(gain))
        if len(self.grid) > 1:
            effects = iter(self.effects)  # options, then their later values, then metrics
            rows = [
                [
                    f"{option}: {option_text(value)} − {option_text(values[0])}",
                    *[_fmt_difference(next(effects).paired, m, unit=False) for m in self.metrics],
                ]
                for option, values in self.grid.items()
                for value in values[1:]
            ]
            parts.append(
                text_table(
                    "each option's own effect: its value − its first value, averaged over the "
                    "other options' values, paired by deal (95% CI; shares and seat 0's "
                    "advantage in percentage points)",
                    ["option", *self.metrics],
                    rows,
                    left=("option",),
                )
            )
        return parts

    def report(self) -> Report:
        """The HTML report: what changes, the differences from the baseline, a plot per metric."""
        return _sweep_report(self)


_ADVANTAGE_TEXT = (
    "seat 0 advantage: seat 0's win rate minus the share each seat would win if all were equal "
    "(1/players, more with shared wins, which count for every co-winner), in percentage points; "
    "0 for equal seats."
)
"""What the seat 0 advantage is, for the summary and the report."""


def _lineup_notes(s: SweepResult) -> list[str]:
    """What the lineup means for the metrics: the default one, one bot, seat 0 never rotated."""
    bots = list(dict.fromkeys(b for lineup in s.lineups for b in lineup))
    notes = []
    if s.default_bots:
        notes.append(
            f"No bots were given: the default lineup, {literal(s.bots[0])} (the game's heuristic "
            "bot) against random in the other seats."
        )
    if len(bots) == 1:
        notes.append(
            f"With {literal(bots[0])} in every seat, a bot's win rate would only be the share "
            "each seat "
            "wins were all equal, which says nothing of its strength: the option sets are "
            "compared by seat 0's advantage, length, margin and shared wins."
        )
    elif not s.rotate_seats:
        notes.append(
            f"Seat 0 holds {literal(s.lineups[0][0])} in every game (the seats are not rotated), "
            "so its "
            "advantage includes that bot's strength."
        )
    return notes


def _warnings(s: SweepResult) -> list[str]:
    """Option sets whose numbers say little: (nearly) all ties; a bot that (nearly) always wins.

    At :data:`NEARLY_ALL` or more. A bot is only named for the option sets that are not ties,
    where its wins are its own.
    """
    ties = [p for p in s.points if p.metrics["shared wins"].value >= NEARLY_ALL]
    out = []
    if ties:
        where = _where(s, ties, "shared wins")
        out.append(
            f"**Degenerate: nearly every game ends in a shared win**{where}. A tie decides "
            "nothing, so the win rates and seat 0's advantage there say little about the bots or "
            "the seats."
        )
    rest = [p for p in s.points if all(p is not t for t in ties)]
    for metric in (m for m in s.metrics if m.startswith("win rate: ")):
        high = [p for p in rest if p.metrics[metric].value >= NEARLY_ALL]
        if high:
            out.append(
                f"**{literal(metric.removeprefix('win rate: '))} wins nearly every game**"
                f"{_where(s, high, metric)}. Its win rate has little room left to show what the "
                "options change (stronger opponents would show more)."
            )
    return out


def _where(s: SweepResult, points: list[SweepPoint], metric: str) -> str:
    """`` in every option set (at least 95%)``, or ``: <value> in <option set>; ...``."""
    if len(points) == len(s.points):
        return f" in every option set (at least {100 * NEARLY_ALL:.0f}%)"
    if len(points) > MAX_LISTED:  # the values are in the table of all option sets
        return (
            f" in {len(points)} of the {len(s.points)} option sets (at least "
            f"{100 * NEARLY_ALL:.0f}%): " + "; ".join(literal(_option_label(s, p)) for p in points)
        )
    return ": " + "; ".join(
        f"{_fmt_metric(metric, p.metrics[metric])} in {literal(_option_label(s, p))}"
        for p in points
    )


def _unpaired(a: npt.NDArray[np.float64], b: npt.NDArray[np.float64], share: bool) -> Difference:
    """``a − b`` of two option sets' per-deal means as if each had been played on deals of its own.

    Welch's t interval for a difference of means; Newcombe's hybrid score interval for one of
    shares (:func:`~cardtable.analysis._stats.unpaired_share_difference`), which never has zero
    width (Welch's has when neither side spreads, as a win rate of 0% on both).
    """
    x, y = a[~np.isnan(a)], b[~np.isnan(b)]
    return within(unpaired_share_difference(x, y) if share else welch_difference(x, y), share)


def _is_share(metric: str) -> bool:
    """Whether ``metric`` is a share of games (a win rate, the shared wins): Wilson intervals."""
    return metric.startswith("win rate: ") or metric == "shared wins"


def _in_points(metric: str) -> bool:
    """Whether ``metric`` is written in percent: a share, or seat 0's advantage (in points)."""
    return _is_share(metric) or metric == ADVANTAGE


def _fmt_metric(metric: str, e: Estimate) -> str:
    """A metric's estimate: a share in percent, seat 0's advantage in signed points."""
    return e.fmt(3, percent=True) if _in_points(metric) else e.fmt(2)


def _unit(metric: str) -> str:
    """The unit of ``metric`` for a chart's axis or caption: `` (%)``, `` (points)``, ..."""
    if _is_share(metric):
        return " (%)"
    return {
        ADVANTAGE: " (percentage points)",
        "mean length": " (decisions per game)",
        "mean margin": " (points)",
    }.get(metric, "")


def _fmt_difference(e: Estimate, metric: str, unit: bool = True) -> str:
    """A difference in ``metric``: of shares in percentage points (``pts`` with ``unit``)."""
    return difference_text(e, percent=_in_points(metric), unit=unit)


def _point_metrics(
    runs: Runs, higher: bool
) -> tuple[dict[str, Estimate], dict[str, npt.NDArray[np.float64]]]:
    """Each metric of an option set with its interval, and its mean in each deal."""
    flat = runs.seat_games()
    samples: dict[str, tuple[npt.NDArray[Any], npt.NDArray[Any]]] = {}
    # With one bot in every seat, its win rate is only the share each seat would win were all
    # equal (shared wins counting for every winner): no strength, so no metric.
    if len(runs.bots) > 1:
        for i, b in enumerate(runs.bots):
            mask = flat["bot"] == i
            samples[f"win rate: {b}"] = (flat["win"][mask], flat["deal"][mask])
    deals = runs.deal.reshape(-1)
    winners = runs.winners.reshape(-1, runs.players)
    # Per game: seat 0's win minus the share each seat would win were all equal, so a variant
    # with more shared wins does not read as a better seat 0.
    samples[ADVANTAGE] = (winners[:, 0] - _runs.equal_shares(winners), deals)
    samples["mean length"] = (runs.lengths.reshape(-1), deals)
    m = margins(runs.scores.reshape(-1, runs.players), winners, higher)
    samples["mean margin"] = (m, deals)
    shared = (winners.sum(axis=1) > 1).astype(float)
    samples["shared wins"] = (shared, deals)
    n_deals = int(runs.deal.max()) + 1
    metrics = {k: cluster_mean(v, d, share=_is_share(k)) for k, (v, d) in samples.items()}
    # Written as a difference; a game's advantage lies within ±(players − 1) / players.
    bound = (runs.players - 1) / runs.players
    metrics[ADVANTAGE] = within(clip(metrics[ADVANTAGE], -bound, bound), share=False)
    for name in ("mean length", "mean margin"):  # never below 0 (the winners score best)
        metrics[name] = clip(metrics[name], 0.0, math.inf)
    per_deal = {k: unit_means(v, d, n_deals) for k, (v, d) in samples.items()}
    return metrics, per_deal


MAX_GRID_VALUES = 1_000
"""The most values a sweep tries for one option (the grid is the product of all options')."""


def _check_grid(grid: object) -> dict[str, list[Any]]:
    """The grid as a dict of option name → list of values, each iterable read once.

    Raises:
        InvalidOptionError: Unless ``grid`` maps option names to non-empty collections of at most
            :data:`MAX_GRID_VALUES` distinct values.
    """
    if not isinstance(grid, Mapping):
        raise InvalidOptionError(
            f"grid must be a dict of option name → values to try, got {type(grid).__name__}"
        )
    out: dict[str, list[Any]] = {}
    for key, values in grid.items():
        if not isinstance(key, str):
            raise InvalidOptionError(f"grid keys must be option names (str), got {shown(key)}")
        if isinstance(values, str | bytes | Mapping) or not isinstance(values, Iterable):
            raise InvalidOptionError(
                f"grid[{shown(key)}] must be a list of the values to try, got {shown(values)}"
            )
        # Read no further than one value past the limit: a huge range or an endless iterator is
        # refused without being read (or held) whole.
        out[key] = list(itertools.islice(values, MAX_GRID_VALUES + 1))
        if len(out[key]) > MAX_GRID_VALUES:
            raise InvalidOptionError(
                f"grid[{shown(key)}] lists more than {MAX_GRID_VALUES:,} values to try"
            )
        if not out[key]:
            raise InvalidOptionError(f"grid[{shown(key)}] has no values to try")
        for i, value in enumerate(out[key]):
            if any(_same(value, other) for other in out[key][:i]):
                raise InvalidOptionError(f"grid[{shown(key)}] lists {shown(value)} twice")
    if not out:
        raise InvalidOptionError("the grid needs at least one option with at least one value")
    return out


def _same(a: object, b: object) -> bool:
    """Whether two option values are the same value.

    ``5`` and ``5.0`` are; ``1`` and ``True`` are not, as an option reads them differently.
    """
    if isinstance(a, bool) != isinstance(b, bool):
        return False
    try:
        return bool(a == b)
    except (TypeError, ValueError):  # values that cannot be compared (e.g. arrays) differ
        return False


def _point_index(
    point: object, grid: Mapping[str, list[Any]], options: Sequence[Mapping[str, Any]], what: str
) -> int:
    """The index in ``options`` (the option sets, in grid order) of the one ``point`` names.

    Args:
        point: An index (an int in ``0..len(options)-1``) or a dict of swept options' values.
        grid: The swept options and their values (for the messages).
        options: The option sets' swept options, in grid order.
        what: The argument's name (for the messages).

    Raises:
        InvalidOptionError: Unless ``point`` singles out one option set; the message lists the
            swept options and their values.
    """
    choices = (
        f"the option sets are numbered 0..{len(options) - 1} in grid order and named by the "
        "values of their swept options: "
        + "; ".join(f"{k} ∈ {{{', '.join(map(option_text, v))}}}" for k, v in grid.items())
    )
    if isinstance(point, int | np.integer) and not isinstance(point, bool):
        if not 0 <= point < len(options):
            raise InvalidOptionError(
                f"{what}: there is no option set {shown(int(point))}; {choices}"
            )
        return int(point)
    if not isinstance(point, Mapping):
        raise InvalidOptionError(f"{what} must name an option set, got {shown(point)}; {choices}")
    for key in point:
        if key not in grid:
            raise InvalidOptionError(f"{what}: {shown(key)} is not a swept option; {choices}")
    given = _plain(point)

    def names(swept: object, value: object) -> bool:  # 3.0 names no option set an int option has
        return _same(swept, value) and isinstance(swept, float) == isinstance(value, float)

    matches = [
        i for i, values in enumerate(options) if all(names(values[k], v) for k, v in given.items())
    ]
    if len(matches) == 1:
        return matches[0]
    if not matches:
        raise InvalidOptionError(f"{what}: no option set has {options_text(given)}; {choices}")
    missing = ", ".join(k for k in grid if k not in given)
    raise InvalidOptionError(
        f"{what}: {options_text(given) if given else 'an empty dict'} fits {len(matches)} option "
        f"sets; give the value of {missing} as well ({choices})"
    )


def _plain(values: Mapping[str, Any]) -> dict[str, Any]:
    """``values`` with plain JSON values (NumPy scalars as Python ones).

    Raises:
        InvalidOptionError: On a value that is not JSON-compatible.
    """
    plain = plain_json(values, InvalidOptionError)
    assert isinstance(plain, dict)
    return plain


def sweep(
    game_id: str,
    *,
    players: int,
    grid: Mapping[str, Iterable[Any]],
    bots: Sequence[str | PythonPolicy] | None = None,
    games: int = 2000,
    seed: int = 0,
    rotate_seats: bool = True,
    threads: int | None = None,
    progress: bool | Callable[[int, int], object] = True,
    baseline: int | Mapping[str, Any] = 0,
    **options: Any,
) -> SweepResult:
    """Runs every combination of the ``grid``'s option values.

    For each option set ``i`` (in the order of ``itertools.product`` over the grid), every seat
    assignment of ``bots`` (as in :func:`cardtable.analysis.tournament`) is one ``simulate`` run
    with seed ``seed``: the same deals for every assignment and every option set, so that an
    option that changes nothing gives the same results and option sets are compared on the same
    deals. :meth:`SweepResult.difference` compares two option sets on those shared deals.

    Args:
        game_id: The game.
        players: Seats.
        grid: Option name → the values to try, e.g. ``{"lanes": [2, 3], "max_cars": [3, 4, 5]}``
            (any iterable of values but a string, read once).
        bots: Bots to seat (``None``: the default lineup, ``greedy``, or the game's best-named
            bot, against ``random`` in the other seats, which the summary and the report name as
            the default; an empty list is refused): built-in bot names and
            Python policies, named in the results as in :func:`cardtable.analysis.tournament`
            (``policy:<name>``). A sweep with a policy cannot be repeated from the command line,
            and its report says so instead of giving a command.
        games: Games (deals) per seat assignment and option set.
        seed: The sweep's seed.
        rotate_seats: Play every seat assignment (``False``: only ``bots`` as given).
        threads: Worker threads, as in ``simulate`` (results do not depend on it): an assignment
            that seats a Python policy is stepped in the calling thread whatever it says.
        progress: A progress bar (``True``), nothing, or a ``progress(done, total)`` callable;
            as in :func:`cardtable.simulate`, returning ``False`` stops the study (as Ctrl-C
            does: it raises ``KeyboardInterrupt``).
        baseline: The option set the summary, the report and ``to_dict`` give the differences
            from: its index in grid order or its swept options' values, e.g. ``{"lanes": 3}``
            (the first option set by default).
        **options: Options held fixed.

    Returns:
        One point per option set and one row per option set, assignment and seat.

    Raises:
        InvalidOptionError: On a grid that is not a dict of non-empty lists of values, an option
            both swept and fixed, any option set the game rejects, a baseline that names no
            single option set, a bad bot, count or seed, or a bot given twice among more bots
            than seats (all checked before anything runs).
        IllegalActionError: If a Python policy returns an action that is not legal.
        CapacityError: If an option set's results would not fit in memory.
        KeyboardInterrupt: If stopped with Ctrl-C or by the ``progress`` callable.
    """
    from cardtable import _core

    start = time.perf_counter()
    checked = _check_grid(grid)
    both = set(checked) & set(options)
    if both:
        raise InvalidOptionError(f"options both swept and fixed: {sorted(both)}")
    games, seed, threads = _runs.check_run(games, seed, threads)
    rotate_seats = _runs.check_flag("rotate_seats", rotate_seats)
    labels, policies = ([], {}) if bots is None else _runs.study_bots(bots, "bots")
    names = list(checked)
    combos = [
        dict(zip(names, values, strict=True)) for values in itertools.product(*checked.values())
    ]
    combo_games = [_core.Game(game_id, players, {**options, **combo}) for combo in combos]
    # Stored as plain JSON values (a NumPy integer as an int), so the result serializes.
    plain_grid = _plain(checked)
    options = _plain(options)
    combos = [_plain(combo) for combo in combos]
    base_index = _point_index(baseline, plain_grid, combos, "baseline")
    n = combo_games[0].players
    bot_list = [default_bot(game_id)] + ["random"] * (n - 1) if bots is None else labels
    lineups = _runs.seat_assignments(combo_games[0], bot_list, rotate_seats, policies)
    for combo_game in combo_games[1:]:  # every option set must seat every bot
        _runs.seat_assignments(combo_game, bot_list, rotate_seats, policies)
    higher = spec(game_id).higher_is_better
    points, rows = [], []
    per_set = games * len(lineups)
    with (
        _runs.fewer_games_on_memory_error(f"the {per_set:,} games of an option set"),
        Progress(progress, per_set * len(combos), "sweep") as bar,
    ):
        for i, combo in enumerate(combos):
            # The same deals for every option set (common random numbers): an option that
            # changes nothing gives the same results, and two option sets are compared on the
            # same seeds.
            seeds, base = [seed] * len(lineups), i * per_set
            runs = _runs.run_lineups(
                game_id,
                n,
                lineups,
                seeds,
                games,
                {**options, **combo},
                threads,
                bar,
                base=base,
                policies=policies,
            )
            metrics, per_deal = _point_metrics(runs, higher)
            effective = {
                k: combo_games[i].options[k]
                for k in names
                if k in combo_games[i].options and not _same(combo_games[i].options[k], combo[k])
            }
            points.append(SweepPoint(dict(combo), seed, metrics, per_deal, effective))
            game_margins = margins(
                runs.scores.reshape(-1, n), runs.winners.reshape(-1, n), higher
            ).reshape(len(lineups), games)
            for li, lineup in enumerate(lineups):
                sc, win = runs.scores[li], runs.winners[li]
                for p in range(n):
                    wr = proportion(int(win[:, p].sum()), games)
                    sm = mean_estimate(sc[:, p])
                    rows.append(
                        {
                            **{k: combo[k] for k in names},
                            "lineup": ",".join(lineup),
                            "rotation": li,
                            "seat": p,
                            "bot": lineup[p],
                            "seed": seed,
                            "games": games,
                            "wins": int(win[:, p].sum()),
                            "win_rate": wr.value,
                            "win_rate_low": wr.low,
                            "win_rate_high": wr.high,
                            "score_mean": sm.value,
                            "score_low": sm.low,
                            "score_high": sm.high,
                            "place_mean": float(runs.places[li, :, p].mean()),
                            "length_mean": float(runs.lengths[li].mean()),
                            "margin_mean": float(game_margins[li].mean()),
                            "shared_win_rate": float((win.sum(axis=1) > 1).mean()),
                        }
                    )
    return SweepResult(
        game_id=game_id,
        players=n,
        grid=plain_grid,
        fixed=dict(options),
        bots=bot_list,
        rotate_seats=rotate_seats,
        lineups=lineups,
        games=games,
        seed=seed,
        points=points,
        rows=rows,
        seconds=time.perf_counter() - start,
        baseline=base_index,
        default_bots=bots is None,
    )


def _metric_plot(s: SweepResult, metric: str) -> str:
    """The plot of ``metric`` over the option sets, each value with its 95% interval.

    One swept option: a line over its values, on a numeric axis where they are all numbers (so
    ``num_cards`` 1, 2, 4, 8 are spaced as numbers, not as categories). Two: a heat map whose
    cells give the value and its interval. More: a dot per option set.
    """
    names = list(s.grid)
    scale = 100.0 if _in_points(metric) else 1.0
    digits = 1 if _in_points(metric) else 2
    unit = _unit(metric)
    title = chart_label(metric, 40)
    if len(names) == 2:
        return _heat_map(s, metric, scale, digits)
    labels = [chart_label(_option_label(s, p), 30) for p in s.points]
    vals = [scale * p.metrics[metric].value for p in s.points]
    err = [
        [max(0.0, scale * (p.metrics[metric].value - p.metrics[metric].low)) for p in s.points],
        [max(0.0, scale * (p.metrics[metric].high - p.metrics[metric].value)) for p in s.points],
    ]
    lines = sum(label.count("\n") + 1 for label in labels)
    with figure(7.5, 3.0 if len(names) == 1 else 0.8 + 0.4 * lines) as (fig, ax):
        if len(names) == 1:
            (option,) = names
            xs = _numeric_axis(s, option)
            if xs is None:
                ax.errorbar(labels, vals, yerr=err, marker="o", capsize=5, color="#4c78a8")
            else:
                from matplotlib.ticker import MaxNLocator

                ax.errorbar(xs, vals, yerr=err, marker="o", capsize=5, color="#4c78a8")
                if len(xs) <= 12:
                    ax.set_xticks(xs, [option_text(v) for v in s.grid[option]])
                elif all(float(x).is_integer() for x in xs):
                    ax.xaxis.set_major_locator(MaxNLocator(integer=True))
            ax.set_xlabel(option)
            ax.set_ylabel(chart_label(metric, 30) + unit)
        else:
            ax.errorbar(vals, labels, xerr=err, fmt="o", capsize=4, color="#4c78a8")
            ax.set_xlabel(chart_label(metric, 40) + unit)
        ax.set_title(title)
        return svg_of(fig)


def _numeric_axis(s: SweepResult, option: str) -> list[float] | None:
    """The values of ``option`` as numbers for a chart's axis, or ``None`` unless all are.

    A bool, a null, a string or a value the game plays as another (``null (= 4)``) makes the
    values categories.
    """
    values = s.grid[option]
    if any(option in p.effective for p in s.points):
        return None
    if not all(isinstance(v, int | float) and not isinstance(v, bool) for v in values):
        return None
    xs = [float(v) for v in values]
    return xs if all(math.isfinite(x) for x in xs) else None


def _interval_text(low: float, high: float, digits: int) -> str:
    """``(low–high)``, or ``(low…high)`` when an end is negative (no ``-2.5–-1.0``)."""
    dash = "…" if low < 0 else "–"
    return f"({low:.{digits}f}{dash}{high:.{digits}f})"


def _heat_map(s: SweepResult, metric: str, scale: float, digits: int) -> str:
    """The heat map of ``metric`` over two swept options: each cell its value and interval.

    A cell gives the interval's ends, as the tournament's head-to-head map does (a Wilson interval
    near 0% or 100% is lopsided, and ``100.0 ±24.5`` would reach past 100), in black or white,
    whichever contrasts more with its colour.
    """
    a, b = list(s.grid)
    va, vb = s.grid[a], s.grid[b]
    m = np.full((len(va), len(vb)), np.nan)
    cells: dict[tuple[int, int], Estimate] = {}
    for p in s.points:
        i = next(k for k, v in enumerate(va) if _same(v, p.options[a]))
        j = next(k for k, v in enumerate(vb) if _same(v, p.options[b]))
        cells[(i, j)] = p.metrics[metric]
        m[i, j] = scale * p.metrics[metric].value
    with figure(1.8 + 1.3 * len(vb), 1.2 + 0.75 * len(va)) as (fig, ax):
        im = ax.imshow(m, cmap="viridis", aspect="auto", origin="lower")
        ax.grid(False)
        ax.set_xticks(range(len(vb)), [chart_label(_value_label(s, b, v), 12) for v in vb])
        ax.set_yticks(range(len(va)), [chart_label(_value_label(s, a, v), 12) for v in va])
        ax.set_xlabel(b)
        ax.set_ylabel(a)
        for (i, j), e in cells.items():
            if np.isnan(m[i, j]):
                continue
            ax.text(
                j,
                i,
                f"{scale * e.value:.{digits}f}\n"
                + _interval_text(scale * e.low, scale * e.high, digits),
                ha="center",
                va="center",
                fontsize=8,
                color=text_color(im.cmap(im.norm(m[i, j]))),
            )
        fig.colorbar(im, ax=ax, label=chart_label(metric, 30) + _unit(metric))
        ax.set_title(chart_label(metric, 40))
        return svg_of(fig)


def _constant(s: SweepResult, metric: str) -> bool:
    """Whether ``metric`` has the same estimate and interval in every option set."""
    first = s.points[0].metrics[metric]
    return all(
        (p.metrics[metric].value, p.metrics[metric].low, p.metrics[metric].high)
        == (first.value, first.low, first.high)
        for p in s.points
    )


def _option_text(s: SweepResult, p: SweepPoint | int) -> str:
    """The swept options of an option set (a point or its index), ``lanes=3, max_cars=4``."""
    point = s.points[p] if isinstance(p, int) else p
    return options_text({k: point.options[k] for k in s.grid})


def _value_label(s: SweepResult, option: str, value: Any) -> str:
    """A swept value as ``-o`` reads it, with the value the game plays it as where that differs.

    ``null (= 4)`` for Turn the Tide's ``rounds=null`` at four players; ``3`` for ``lanes=3``.
    """
    text = option_text(value)
    for p in s.points:
        if _same(p.options[option], value) and option in p.effective:
            return f"{text} (= {option_text(p.effective[option])})"
    return text


def _option_label(s: SweepResult, p: SweepPoint | int) -> str:
    """:func:`_option_text` with each value as :func:`_value_label` writes it, for the eye."""
    point = s.points[p] if isinstance(p, int) else p
    return ", ".join(f"{k}={_value_label(s, k, point.options[k])}" for k in s.grid)


def _resolved_notes(s: SweepResult) -> list[str]:
    """One sentence per swept value the game plays as another (``rounds=null`` as ``4``)."""
    return [
        f"{k}={option_text(v)} plays as {k}={option_text(p.effective[k])} here."
        for k, values in s.grid.items()
        for v in values
        for p in [next(p for p in s.points if _same(p.options[k], v))]
        if k in p.effective
    ]


def _reproduce(s: SweepResult) -> str | None:
    """The command that runs ``s`` again (every setting that changes its results).

    ``None`` if ``s`` seated a Python policy, which no command line can seat.
    """
    if _runs.policy_labels(s.bots):
        return None
    words: list[object] = ["cardtable", "sweep", s.game_id, "--players", s.players]
    for key, values in s.grid.items():
        words += ["--grid", f"{key}={','.join(option_text(v) for v in values)}"]
    words += [] if s.default_bots else ["--bots", ",".join(s.bots)]  # none given: the default
    words += ["--games", s.games, "--seed", s.seed]
    words += [] if s.rotate_seats else ["--no-rotate"]
    if s.baseline != 0:
        base = s.points[s.baseline].options
        words += [w for k in s.grid for w in ("--baseline", f"{k}={option_text(base[k])}")]
    return command_line(*words, options=s.fixed)


def _pairing_gain(differences: Sequence[PairedDifference]) -> float | None:
    """The median over ``differences`` of the unpaired interval's width over the paired one's.

    ``None`` if no difference has two intervals of positive width.
    """
    ratios = [
        (d.unpaired.high - d.unpaired.low) / (d.paired.high - d.paired.low)
        for d in differences
        if d.paired.high > d.paired.low and d.unpaired.high > d.unpaired.low
    ]
    return statistics.median(ratios) if ratios else None


def _gain_text(gain: float) -> str:
    """What pairing by deal gains, in words."""
    return (
        "Unpaired, as if each option set had been played on deals of its own, these intervals "
        f"would be {gain:.1f}× as wide (the median ratio of the interval widths)."
    )


def _unbroken(text: str) -> str:
    """A difference's text for a narrow table cell: it wraps only between value and interval.

    ``+4.2 pts (+1.0…+7.4)`` keeps ``+4.2 pts`` and ``(+1.0…+7.4)`` whole (a no-break space, and
    word joiners around the ellipsis, which a browser may break after).
    """
    text = text.replace(" pts", "\u00a0pts").replace("…", "\u2060…\u2060")
    return re.sub(r"\(all ([\d,]+) deals alike\)", "(all\u00a0\\1\u00a0deals\u00a0alike)", text)


def _differences_section(s: SweepResult, changing: list[str]) -> Section:
    """Every other option set − the baseline in each metric that changes, paired by deal."""
    base = _option_text(s, s.baseline)
    section = Section(f"Differences from the baseline ({base})")
    others = [i for i in range(len(s.points)) if i != s.baseline]
    cells = {i: {m: s.difference(i, s.baseline, m) for m in changing} for i in others}
    section.findings.append(
        f"Each cell is an option set's value minus the baseline's ({literal(base)}), paired by "
        "deal: the mean over deals of the difference in that deal, with its 95% interval (shares "
        "and seat 0's advantage in percentage points; a difference of shares has Tango's score "
        "interval, which never has zero width). Every option set plays the same deal seeds, so "
        "the luck of the deal cancels as far as the options leave the deal alone."
    )
    counts = [
        f"**{literal(m)}** in {sum(clear(cells[i][m].paired) for i in others)} of {len(others)}"
        for m in changing
    ]
    section.findings.append(
        "Clearly different from the baseline (the interval excludes 0, and the deals' differences "
        "spread): " + ", ".join(counts) + "."
    )
    alike = [
        (m, n) for m in changing for n in [sum(_alike(cells[i][m].paired) for i in others)] if n
    ]
    if alike:
        section.findings.append(
            "The same difference in every deal, which is called neither clear nor not (a sample "
            "without spread shows no uncertainty because it has none to show"
            + (
                f"; fewer than {FEW_DEALS} such deals are too few to tell"
                if s.games < FEW_DEALS
                else ""
            )
            + "): "
            + ", ".join(f"**{literal(m)}** in {n} of {len(others)}" for m, n in alike)
            + "."
        )
    gain = _pairing_gain([c for i in others for c in cells[i].values()])
    if gain is not None:
        section.findings.append(_gain_text(gain))
    names = list(s.grid)
    section.add_table(
        [*names, *changing],
        [
            [
                *[_value_label(s, k, s.points[i].options[k]) for k in names],
                *[_unbroken(_fmt_difference(cells[i][m].paired, m)) for m in changing],
            ]
            for i in others
        ],
        f"Each option set − the baseline ({base}), paired by deal, with 95% intervals; shares "
        "and seat 0's advantage in percentage points.",
        row_headers=len(names),
    )
    same = [m for m in s.metrics if m not in changing]
    if same:
        section.add_note("Left out, the same in every option set: " + ", ".join(same) + ".")
    return section


def _alike(d: Estimate) -> bool:
    """Whether every deal gave the same, nonzero difference (see ``verdict``)."""
    return isinstance(d, Difference) and d.no_spread and d.value != 0


MAX_LISTED = 8
"""The most changes of one option in one metric that the report's findings list one by one; more
are summed up (how many are clear, the largest), and the table gives each."""


def _effects_findings(s: SweepResult, changing: list[str]) -> list[str]:
    """Per metric that changes, each option's own effect on it, with its interval, in words.

    With several swept options each is :attr:`SweepResult.effects` (averaged over the others), so
    that an option that only changes the length is not read as changing the win rates. An option
    with more than :data:`MAX_LISTED` later values is summed up rather than listed.
    """
    several = len(s.grid) > 1
    effects = {(e.a, e.metric): e for e in s.effects}
    comparisons = sum(len(v) - 1 for v in s.grid.values()) * len(changing)
    intro = (
        "Each option's own effect: the change in a metric when the option goes from its first "
        "value to another, averaged over the values of the other options"
        if several
        else f"The change in each metric when {literal(next(iter(s.grid)))} goes from its first "
        "value to another"
    )
    out = [
        intro + ", paired by deal, with its 95% interval; **clear** when the interval excludes 0 "
        "and the deals' differences spread, else not distinguishable from no change with these "
        "games (a change that was the same in every deal is said so)."
        + (" How the options combine shows in the table of all option sets." if several else "")
        + (
            f" Of these {comparisons} comparisons, about 1 in 20 of those where an option "
            "changes nothing still comes out clear by chance."
            if comparisons >= 10
            else ""
        )
    ]
    for metric in changing:
        levels = "" if several else _levels_text(s, metric) + "; "
        parts = []
        for option, values in s.grid.items():
            changes = [
                (value, effects[(options_text({option: value}), metric)].paired)
                for value in values[1:]
            ]
            if len(changes) > MAX_LISTED:
                parts.append(_changes_summary(s, option, metric, changes))
                continue
            parts += [
                f"{literal(option)} {literal(_value_label(s, option, values[0]))} → "
                f"{literal(_value_label(s, option, value))}: {_fmt_difference(d, metric)}, "
                + verdict(d)
                for value, d in changes
            ]
        out.append(f"**{literal(metric)}**: {levels}" + "; ".join(parts) + ".")
    return out


def _levels_text(s: SweepResult, metric: str) -> str:
    """Each option set's value of ``metric`` (one swept option), or their range when many."""
    if len(s.points) <= MAX_LISTED + 1:
        return ", ".join(
            f"{_fmt_metric(metric, p.metrics[metric])} with {literal(_option_label(s, p))}"
            for p in s.points
        )
    low = min(s.points, key=lambda p: p.metrics[metric].value)
    high = max(s.points, key=lambda p: p.metrics[metric].value)
    return (
        f"from {_fmt_metric(metric, low.metrics[metric])} with {literal(_option_label(s, low))} "
        f"to {_fmt_metric(metric, high.metrics[metric])} with "
        f"{literal(_option_label(s, high))} over the {len(s.points)} option sets"
    )


def _changes_summary(
    s: SweepResult, option: str, metric: str, changes: list[tuple[Any, Difference]]
) -> str:
    """Many changes of ``option`` in ``metric`` in one clause: the verdicts counted, the largest.

    Args:
        s: The sweep.
        option: The swept option.
        metric: The metric.
        changes: Each later value of the option with its change from the first value.
    """
    first = literal(_value_label(s, option, s.grid[option][0]))
    up = sum(clear(d) and d.value > 0 for _, d in changes)
    down = sum(clear(d) and d.value < 0 for _, d in changes)
    alike = sum(_alike(d) for _, d in changes)
    rest = len(changes) - up - down - alike
    value, largest = max(changes, key=lambda c: abs(c[1].value))
    counts = [
        f"**clearly higher** with {up}" if up else "clearly higher with none",
        f"**clearly lower** with {down}" if down else "clearly lower with none",
    ]
    if alike:
        few = f" (fewer than {FEW_DEALS} deals: too few to tell)" if s.games < FEW_DEALS else ""
        counts.append(f"the same in every deal with {alike}{few}")
    counts.append(f"not distinguishable with {rest}")
    return (
        f"{literal(option)} {first} → each of its {len(changes)} other values: "
        + ", ".join(counts)
        + f"; the largest change, {_fmt_difference(largest, metric)}, with "
        f"{literal(option)}={literal(_value_label(s, option, value))} (every one in the table of "
        "differences)"
    )


def _sweep_report(s: SweepResult) -> Report:
    fixed = options_text(s.fixed) if s.fixed else "defaults otherwise"
    report = Report(
        title=f"Option sweep: {s.game_id}, {s.players} players",
        subtitle=(
            f"Bots {', '.join(s.bots)}"
            + (
                " (the default lineup, as no bots were given: the game's heuristic bot against "
                "random players)"
                if s.default_bots
                else ""
            )
            + f" in {plural(len(s.lineups), 'seat assignment')}, "
            f"{s.games:,} deals each, for every combination of "
            + "; ".join(f"{k} ∈ {{{', '.join(map(option_text, v))}}}" for k, v in s.grid.items())
            + f" ({fixed}); seed {s.seed}."
        ),
        footer=(
            f"Made by cardtable.sweep in {s.seconds:.1f} s. Each number is shown with its 95% "
            "interval (low–high, or low…high where an end is negative). "
            f"{rerun_text(_reproduce(s), s.bots)} Every row of the Parquet table is reproducible "
            "from its seed with cardtable.simulate."
        ),
    )
    summary = Section("What changes")
    summary.findings += _warnings(s)
    summary.findings += [n for n in _lineup_notes(s) if not n.startswith("No bots were given")]
    # With one option set there is nothing to compare: every metric is listed as measured.
    changing = [m for m in s.metrics if len(s.points) > 1 and not _constant(s, m)]
    if changing:
        summary.findings += _effects_findings(s, changing)
    same = [m for m in s.metrics if m not in changing]
    if same:
        summary.findings.append(
            ("The same in every option set: " if len(s.points) > 1 else "One option set: ")
            + ", ".join(f"**{literal(m)}** {_fmt_metric(m, s.points[0].metrics[m])}" for m in same)
            + "."
        )
    for note in [_ADVANTAGE_TEXT, *_resolved_notes(s)]:
        summary.add_note(note)
    report.sections.append(summary)
    if changing:
        report.sections.append(_differences_section(s, changing))
        plots = Section("A plot per metric that changes", side_by_side=True)
        for metric in changing:
            plots.add_figure(_metric_plot(s, metric), _plot_caption(s, metric))
        report.sections.append(plots)
    table = Section("All option sets")
    names = list(s.grid)
    table.add_table(
        [*names, *s.metrics],
        [
            [
                *[_value_label(s, k, p.options[k]) for k in names],
                *[_unbroken(_fmt_metric(m, p.metrics[m])) for m in s.metrics],
            ]
            for p in s.points
        ],
        "Every option set's metrics with 95% intervals (shares in %, seat 0's advantage in "
        "percentage points, length in decisions, margin in points).",
        row_headers=len(names),
    )
    report.sections.append(table)
    return report


def _plot_caption(s: SweepResult, metric: str) -> str:
    """A metric plot's caption: the metric with its unit, and what the plot shows."""
    shape = {
        1: "over the option's values",
        2: "per option set, the cell giving its value and interval",
    }.get(len(s.grid), "per option set")
    return f"{metric}{_unit(metric)} {shape}, with 95% intervals."
