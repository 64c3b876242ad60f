"""Differences ``a − b`` paired by deal, shared by tournaments (bots) and sweeps (option sets).

Two things played on the same deals are compared deal by deal: the mean over deals of (a's mean −
b's mean in that deal). The deal's luck, common to both, cancels. A difference of means (score,
place, length, margin) has the Student-t interval over deals; a difference of shares (win rates,
shared wins) Tango's score interval for paired proportions
(:func:`cardtable.analysis._stats.paired_share_difference`), which never has zero width, however
few the deals. Each study also gives the interval the same difference would get without the
pairing, to show what the shared deals gain.

A difference is called clear only when its interval excludes 0 and the deals' differences spread:
a sample in which every deal gave the same difference (two deals both won by the same bot, or a
length that an option fixes) says so instead (:func:`verdict`).
"""

from __future__ import annotations

import math
import re
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from cardtable._inputs import shown
from cardtable.analysis._stats import (
    Estimate,
    Record,
    clip,
    mean_estimate,
    paired_share_difference,
    t_quantile,
    unpaired_share_difference,
)
from cardtable.errors import InvalidOptionError

__all__ = [
    "FEW_DEALS",
    "METRIC_WORDS",
    "Difference",
    "PairedDifference",
    "clear",
    "difference_text",
    "flipped",
    "metric_name",
    "paired_estimate",
    "unit_means",
    "unpaired_estimate",
    "verdict",
    "within",
]

FEW_DEALS = 10
"""Fewer deals than this that all gave the same difference are too few to tell anything from."""

METRIC_WORDS: dict[str, tuple[str, ...]] = {
    "win": ("win rate", "win_rate"),
    "score": ("mean score",),
    "place": ("mean place", "finishing place"),
    "seat 0": ("seat 0 advantage", "seat advantage"),
    "length": ("mean length",),
    "margin": ("mean margin",),
    "shared": ("shared wins", "shared win rate", "shared_win_rate"),
}
"""Each metric's short name → the names the tables and reports give it (one place for both
studies). A metric may be named by any of them, in any case, with ``_`` for a space and with
the remark in brackets a heading adds (``mean score (lower is better)``, ``win rate (95% CI)``).
A sweep's per-bot metric adds the bot after a colon (``win rate: greedy``, short ``win: greedy``).
"""

_SHORT = {
    " ".join(long.replace("_", " ").split()): short
    for short, longs in METRIC_WORDS.items()
    for long in (short, *longs)
}
"""A metric's words (spaces for ``_``, lower case, single spaces) → its short name."""

_REMARK = re.compile(r"\s*\([^()]*\)\s*$")
"""A remark in brackets at the end of a heading: ``(95% CI)``, ``(lower is better)``."""


def _key(name: str) -> str:
    """The words of a metric name, with the metric as its short name: ``win: greedy``.

    The metric's words (before the first colon) are compared in lower case, with single spaces,
    ``_`` as a space and without a remark in brackets; a bot after the colon is kept exactly.
    """
    words, colon, bot = name.partition(":")
    words = " ".join(_REMARK.sub("", words).replace("_", " ").lower().split())
    words = _SHORT.get(words, words)
    return f"{words}: {bot.strip()}" if colon else words


def metric_name(metric: object, metrics: Sequence[str]) -> str:
    """The one of ``metrics`` that ``metric`` names, by its own name or another of its names.

    ``metric`` may be a name of :data:`METRIC_WORDS` for the same metric: the short name
    (``"win"``) or the one a table shows (``"win rate"``, ``"mean score (lower is better)"``,
    ``"win rate: greedy"`` for ``"win: greedy"``).

    Args:
        metric: The name given.
        metrics: The study's metrics, as its results name them.

    Returns:
        The metric as ``metrics`` names it.

    Raises:
        InvalidOptionError: Unless ``metric`` is a string naming exactly one of ``metrics``;
            the message lists them with the other names each may be given by.
    """
    if isinstance(metric, str):
        if metric in metrics:
            return metric
        found = [m for m in metrics if _key(m) == _key(metric)]
        if len(found) == 1:
            return found[0]
    others = [_other_name(m) for m in metrics]
    raise InvalidOptionError(
        f"metric must be one of {', '.join(map(repr, metrics))} (also named "
        f"{', '.join(map(repr, others))}), got {shown(metric)}"
    )


def _other_name(metric: str) -> str:
    """Another name ``metric`` may be given by: the table's for a short name, else the short one.

    ``win`` → ``win rate``, ``mean length`` → ``length``, ``win rate: greedy`` → ``win: greedy``.
    """
    words, colon, bot = metric.partition(":")
    short = _key(words)
    name = METRIC_WORDS[short][0] if short == words and short in METRIC_WORDS else short
    return f"{name}: {bot.strip()}" if colon else name


@dataclass(frozen=True)
class Difference(Estimate):
    """The estimate of a difference (``a − b``, or a share above another) with its 95% interval.

    An :class:`Estimate` that writes itself as a difference: with its sign, and a difference of
    shares in percentage points, as the study tables write it (``+4.2 pts (+1.0…+7.4)``, where a
    share would read ``4.2% (1.0–7.4%)``). A number that rounds to zero has no sign.

    Attributes:
        no_spread: Whether every deal gave the same difference: a sample without spread, from
            which no difference is called clear (a difference of means then has a zero-width
            interval, written ``+8.00 (all 4 deals alike)``).
    """

    no_spread: bool = False

    def fmt(self, digits: int = 3, percent: bool = False) -> str:
        """``+0.420 (+0.100…+0.740)``, or ``+4.2 pts (+1.0…+7.4)`` with ``percent``.

        Args:
            digits: As for :meth:`Estimate.fmt`: the decimals, two fewer in percentage points.
            percent: Whether it is a difference of shares, written in percentage points.

        Returns:
            The text; only the value when the interval is undefined, ``—`` when the value is.
        """
        decimals = max(digits - 2, 0) if percent else digits
        return _signed_text(self, 100 if percent else 1, decimals, " pts" if percent else "")


@dataclass(frozen=True)
class PairedDifference(Record):
    """``a − b`` in one metric, paired by deal and, for comparison, as if the games were unpaired.

    Attributes:
        a: First: a bot (tournament) or an option set (sweep, its swept options as
            ``lanes=4, max_cars=3``).
        b: Second, as ``a``.
        metric: Tournament: ``"win"`` (win rate), ``"score"`` or ``"place"``. Sweep: one of
            :attr:`cardtable.analysis.SweepResult.metrics`. The name the study lists, whichever
            of the metric's names (:data:`METRIC_WORDS`) it was asked by.
        paired: Mean over deals of (a's mean − b's mean in that deal), with its t interval (a
            :class:`Difference`: its ``fmt`` writes the sign, and a difference of shares in
            percentage points).
        unpaired: The same difference with an interval that ignores that the games share deals.
            Tournament: the mean over games of (a's mean − b's mean in that game) with the t
            interval that treats every game as independent, about what a tournament without
            duplicate deals would give with as many games. Sweep: the difference of the two option
            sets' means with an interval over their per-deal means as if each option set had been
            played on deals of its own: Welch's t interval, or for shares Newcombe's hybrid
            score interval (never of zero width).
    """

    a: str
    b: str
    metric: str
    paired: Difference
    unpaired: Difference


def unit_means(values: npt.ArrayLike, units: npt.ArrayLike, size: int) -> npt.NDArray[np.float64]:
    """The mean of ``values`` per unit ``0..size-1`` (a deal or a game); NaN for a unit without any.

    Args:
        values: One value per observation.
        units: The unit (an int in ``0..size-1``) of each observation.
        size: The number of units.

    Returns:
        ``size`` means.
    """
    v = np.asarray(values, dtype=np.float64)
    u = np.asarray(units, dtype=np.int64)
    sums = np.bincount(u, weights=v, minlength=size)
    counts = np.bincount(u, minlength=size)
    with np.errstate(invalid="ignore", divide="ignore"):
        result: npt.NDArray[np.float64] = sums / counts
    return result


def within(e: Estimate, share: bool, no_spread: bool = False) -> Difference:
    """``e`` as a :class:`Difference`; one of two shares (``share``) clipped to −1..1, its range.

    Args:
        e: The estimate.
        share: Whether it is a difference of shares.
        no_spread: Whether every deal gave the same difference (see :class:`Difference`).
    """
    c = clip(e, -1.0, 1.0) if share else e
    return Difference(c.value, c.low, c.high, c.n, no_spread)


def paired_estimate(
    a: npt.NDArray[np.float64], b: npt.NDArray[np.float64], *, share: bool = False
) -> Difference:
    """The mean of ``a − b`` over the units where both are defined, with its 95% interval.

    A difference of means gets the t interval over the units (zero width when every unit gave
    the same difference); one of shares Tango's score interval for paired proportions
    (:func:`cardtable.analysis._stats.paired_share_difference`), which never has zero width.

    Args:
        a: Per unit (deal, or game) means of the first.
        b: Per unit means of the second, unit for unit.
        share: Whether the metric is a share in [0, 1] (the interval is Tango's, within −1..1).

    Returns:
        The paired difference; ``n`` is the number of units both have, and ``no_spread`` whether
        they all gave the same difference.
    """
    both = ~np.isnan(a) & ~np.isnan(b)
    d = (a - b)[both]
    no_spread = bool(d.size) and bool(np.all(d == d[0]))
    e = paired_share_difference(a[both], b[both]) if share else mean_estimate(d)
    return within(e, share, no_spread)


def unpaired_estimate(
    a: npt.NDArray[np.float64], b: npt.NDArray[np.float64], *, share: bool = False
) -> Difference:
    """``a``'s mean over its units minus ``b``'s over theirs, the units taken as independent.

    The interval is Student's over the units with the linearized variance of the difference of
    the two means: a unit holding both counts what they share (two bots of one game, say), a unit
    holding one counts it alone. Where both are defined in every unit it is
    :func:`paired_estimate`; where some units hold only one of them (a tournament with more bots
    than seats), every unit of each still counts, so the value is the same difference as the
    paired one.

    A difference of shares takes the wider of this interval and Newcombe's hybrid score interval
    (:func:`~cardtable.analysis._stats.unpaired_share_difference`, each side's units as
    independent, as a sweep's unpaired difference of shares has it) at each end: near 0% or 100%
    Student's interval is far too narrow (of zero width when no unit spreads, as a bot that won
    every game it sat in against one that never did), and where the two bots share games
    Newcombe's alone is too narrow (in a game of two, one's win is the other's loss).

    Args:
        a: Per unit (a game, say) means of the first; NaN where it has none.
        b: Per unit means of the second, unit for unit.
        share: Whether the metric is a share (the interval is clipped to −1..1).

    Returns:
        The difference; ``n`` is the number of units that hold either.
    """
    has_a, has_b = ~np.isnan(a), ~np.isnan(b)
    n_a, n_b = int(has_a.sum()), int(has_b.sum())
    either = has_a | has_b
    n = int(either.sum())
    if n_a == 0 or n_b == 0:
        return Difference(math.nan, math.nan, math.nan, n)
    mean_a, mean_b = float(a[has_a].mean()), float(b[has_b].mean())
    value = mean_a - mean_b
    if n < 2:
        return Difference(value, math.nan, math.nan, n)
    # Each unit's part in the difference of the two means, about its expectation.
    part = np.where(has_a, a - mean_a, 0.0) / n_a - np.where(has_b, b - mean_b, 0.0) / n_b
    half = t_quantile(n - 1) * math.sqrt(n / (n - 1) * float(np.sum(part[either] ** 2)))
    low, high = value - half, value + half
    if share:
        score = unpaired_share_difference(a[has_a], b[has_b])
        low, high = min(low, score.low), max(high, score.high)
    return within(Estimate(value, low, high, n), share)


def clear(e: Estimate) -> bool:
    """Whether a difference is clear: its interval has width and excludes 0, and the deals spread.

    A zero-width interval (every deal gave the same difference of means) and a sample without
    spread (:attr:`Difference.no_spread`) are never clear: they show no uncertainty because they
    have no spread to read it from, not because there is none.
    """
    if isinstance(e, Difference) and e.no_spread:
        return False
    return e.low < e.high and (e.low > 0 or e.high < 0)


def verdict(e: Estimate) -> str:
    """What a paired difference says, in words (``**`` marks emphasis).

    ``**clear**`` (:func:`clear`); ``not distinguishable`` from no difference with these deals;
    or, for a sample without spread, that every deal gave the same difference, with ``too few to
    tell`` under :data:`FEW_DEALS` deals (one deal has no interval at all).
    """
    if clear(e):
        return "**clear**"
    if isinstance(e, Difference) and e.no_spread and e.value != 0:
        if e.n < 2:
            return "one deal only: too few to tell"
        few = ": too few to tell" if e.n < FEW_DEALS else ""
        return f"the same in all {e.n:,} deals{few}"
    return "not distinguishable"


def flipped(e: Estimate) -> Difference:
    """The estimate of ``b − a`` from that of ``a − b``."""
    no_spread = isinstance(e, Difference) and e.no_spread
    return Difference(-e.value, -e.high, -e.low, e.n, no_spread)


def difference_text(e: Estimate, percent: bool = False, unit: bool = True) -> str:
    """``+0.42 (+0.10…+0.74)``, or ``+4.2 pts (+1.0…+7.4)`` for a share with ``percent``.

    A number that rounds to zero is written without a sign (``0.0``, never ``-0.0``).

    Args:
        e: The difference.
        percent: Whether it is a difference of shares, shown in percentage points.
        unit: Whether to write ``pts`` after a difference in percentage points (a table whose
            heading says so leaves it out).

    Returns:
        The text; only the value when the interval is undefined, ``—`` when the value is.
    """
    scale, decimals = (100, 1) if percent else (1, 2)
    return _signed_text(e, scale, decimals, " pts" if percent and unit else "")


def _signed_text(e: Estimate, scale: float, decimals: int, unit: str) -> str:
    """``e`` times ``scale`` with its sign, ``unit`` after the value, and its interval."""
    if not np.isfinite(e.value):
        return "—"
    value = _signed(scale * e.value, decimals) + unit
    if not (np.isfinite(e.low) and np.isfinite(e.high)):
        return value
    if isinstance(e, Difference) and e.no_spread and e.low == e.high:
        return f"{value} (all {e.n:,} deals alike)"
    # An interval that excludes zero is never written as if it touched it: ``(0.0…+8.4)`` for a
    # clear difference whose low end is +0.004 points. Its end nearer zero gets up to four more
    # decimals.
    low, high = scale * e.low, scale * e.high
    near = low if low > 0 else high if high < 0 else 0.0
    d = decimals
    while near and d < decimals + 4 and float(f"{near:.{d}f}") == 0:
        d += 1
    low_text = _signed(low, d if near == low else decimals)
    high_text = _signed(high, d if near == high else decimals)
    return f"{value} ({low_text}…{high_text})"


def _signed(x: float, decimals: int) -> str:
    """``x`` with ``decimals`` decimals and its sign, none when it rounds to zero (no ``-0.0``)."""
    text = f"{x:+.{decimals}f}"
    return text[1:] if float(text) == 0 else text
