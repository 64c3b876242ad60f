"""Interval estimates and tests used by the studies, on SciPy's distributions.

Every interval is a 95% interval. Observations that share a deal are not independent, so means are
taken per cluster (a deal, replayed under every seat rotation) first and the interval is the
Student-t interval over the cluster means.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, fields
from typing import Any

import numpy as np
import numpy.typing as npt

__all__ = [
    "Estimate",
    "Record",
    "clip",
    "cluster_mean",
    "holm",
    "json_dict",
    "json_value",
    "mean_estimate",
    "paired_share_difference",
    "proportion",
    "record_dict",
    "t_quantile",
    "unpaired_share_difference",
    "welch_difference",
    "z_quantile",
]

LEVEL = 0.95


def t_quantile(df: float) -> float:
    """Student's t quantile of the two-sided :data:`LEVEL` interval with ``df`` degrees of freedom.

    SciPy is imported here, when a study first needs it, so that ``cardtable`` commands that
    run no study start without it (it takes longer to import than most commands to run).
    """
    from scipy import stats

    return float(stats.t.ppf(0.5 + LEVEL / 2, df))


def z_quantile() -> float:
    """The standard normal quantile of the two-sided :data:`LEVEL` interval (1.96)."""
    from scipy import stats

    return float(stats.norm.ppf(0.5 + LEVEL / 2))


@dataclass(frozen=True)
class Estimate:
    """A point estimate with its 95% interval.

    Attributes:
        value: The estimate.
        low: Lower end of the 95% interval.
        high: Upper end of the 95% interval.
        n: Independent units it rests on (games, deals or seat-games).
    """

    value: float
    low: float
    high: float
    n: int

    def to_dict(self) -> dict[str, float | int | None]:
        """The estimate as a strict JSON dict: an undefined value or interval end is ``None``."""
        return record_dict(self)

    def contains(self, x: float) -> bool:
        """Whether ``x`` lies in the interval."""
        return self.low <= x <= self.high

    def fmt(self, digits: int = 3, percent: bool = False) -> str:
        """``value (low–high)``, as percentages with ``percent``.

        Without an interval (an end undefined, as a rating's without bootstrap replicates or a
        mean of one unit) only the value, never ``nan–nan``; an undefined value is ``—``. An
        interval with a negative end is written ``low…high`` (``-2.56…-1.48``): a dash before a
        minus sign (``-2.56–-1.48``) reads as a double minus.
        """
        if not math.isfinite(self.value):
            return "—"
        scale, unit, d = (100, "%", max(digits - 2, 0)) if percent else (1, "", digits)
        value = f"{scale * self.value:.{d}f}{unit}"
        if not (math.isfinite(self.low) and math.isfinite(self.high)):
            return value
        # An interval narrower than the digits shown gets more of them, up to four more (a rare
        # win's 0.000–0.047% is not 0.0–0.0%).
        e = d
        while (
            e < d + 4
            and self.low < self.high
            and f"{scale * self.low:.{e}f}" == f"{scale * self.high:.{e}f}"
        ):
            e += 1
        dash = "…" if self.low < 0 else "–"
        return f"{value} ({scale * self.low:.{e}f}{dash}{scale * self.high:.{e}f}{unit})"


def mean_estimate(x: npt.ArrayLike) -> Estimate:
    """The mean of independent observations with its Student-t 95% interval."""
    a = np.asarray(x, dtype=np.float64)
    n = int(a.size)
    if n == 0:
        return Estimate(math.nan, math.nan, math.nan, 0)
    mean = float(a.mean())
    if n == 1:
        return Estimate(mean, math.nan, math.nan, 1)
    sem = float(a.std(ddof=1)) / math.sqrt(n)
    half = t_quantile(n - 1) * sem
    return Estimate(mean, mean - half, mean + half, n)


def _two_samples(
    x: npt.ArrayLike, y: npt.ArrayLike
) -> tuple[npt.NDArray[np.float64], npt.NDArray[np.float64], int]:
    """``x`` and ``y`` as float arrays, and how many observations they hold together."""
    a = np.asarray(x, dtype=np.float64)
    b = np.asarray(y, dtype=np.float64)
    return a, b, int(a.size + b.size)


def welch_difference(x: npt.ArrayLike, y: npt.ArrayLike) -> Estimate:
    """``mean(x) − mean(y)`` of two independent samples, with Welch's t 95% interval.

    The interval's degrees of freedom are Welch–Satterthwaite's; two samples without spread give a
    zero-width interval, and a sample of fewer than two observations no interval.

    Args:
        x: The first sample.
        y: The second sample.

    Returns:
        The difference; ``n`` counts the observations of both.
    """
    a, b, n = _two_samples(x, y)
    if a.size == 0 or b.size == 0:
        return Estimate(math.nan, math.nan, math.nan, n)
    value = float(a.mean() - b.mean())
    if a.size < 2 or b.size < 2:
        return Estimate(value, math.nan, math.nan, n)
    va = float(a.var(ddof=1)) / a.size
    vb = float(b.var(ddof=1)) / b.size
    spread = va + vb
    if spread == 0.0:
        return Estimate(value, value, value, n)
    df = spread**2 / (va**2 / (a.size - 1) + vb**2 / (b.size - 1))
    half = t_quantile(df) * math.sqrt(spread)
    return Estimate(value, value - half, value + half, n)


def unpaired_share_difference(x: npt.ArrayLike, y: npt.ArrayLike) -> Estimate:
    """``mean(x) − mean(y)`` of two shares over independent units, with a 95% interval.

    The interval is Newcombe's hybrid score interval (method 10 of Newcombe 1998), built from each
    side's own interval: :func:`cluster_mean`'s with ``share`` and every unit its own cluster,
    Wilson's at the side's effective number of units: for one 0/1 outcome per unit that is ``n − 1``
    times ``(z / t)²``, a little below Newcombe's ``n`` (56/70 against 48/80 gives 0.049–0.337 where
    Newcombe's gives 0.052–0.334); for shares between 0 and 1 per unit (a bot's wins over a deal's
    seat rotations) it counts how much they spread, as :func:`cluster_mean` does; for a side that
    does not spread, its ``n`` times ``(z / t)²``. Unlike Welch's t interval
    (:func:`welch_difference`) it never has zero width: two sides that never (or always) won differ
    by 0 with an interval about it, not ``0–0``.

    Args:
        x: The first side's share per unit, in [0, 1].
        y: The second side's, over units of its own.

    Returns:
        The difference; ``n`` counts the units of both.
    """
    a, b, n = _two_samples(x, y)
    if a.size == 0 or b.size == 0:
        return Estimate(math.nan, math.nan, math.nan, n)
    ea = cluster_mean(a, np.arange(a.size), share=True)
    eb = cluster_mean(b, np.arange(b.size), share=True)
    value = ea.value - eb.value
    low = value - math.hypot(ea.value - ea.low, eb.high - eb.value)
    high = value + math.hypot(ea.high - ea.value, eb.value - eb.low)
    return Estimate(value, low, high, n)


def cluster_mean(
    values: npt.ArrayLike, clusters: npt.ArrayLike, *, share: bool = False
) -> Estimate:
    """The mean of ``values`` with a 95% interval that treats each cluster as one unit.

    Each cluster's mean is taken first; the estimate is their mean (clusters of equal size, as in a
    balanced tournament, give the plain mean) and the interval is the Student-t interval over the
    cluster means. A metric that is the same in every unit gets a zero-width interval; one whose
    cluster means agree while its units differ (places 1 and 2 in every deal of a two-seat game)
    gets the t interval over the units taken as independent, since the clusters show no spread to
    read one from and a zero-width interval would claim certainty.

    With ``share`` the values are a share in [0, 1] (a 0/1 outcome, or a share with ties counting
    half) and the interval is Wilson's at the effective sample size of the clustered design
    (Kish): the units (``values``) discounted by the spread of the cluster means, ``p(1 - p) /
    var(mean)``, with Korn and Graubard's adjustment for the clusters' degrees of freedom (times
    ``(z / t)²``, ``t`` Student's quantile with one fewer degrees of freedom than clusters). In the
    middle of the range it is the t interval over the clusters, whatever their number; near 0% or
    100%, where the t interval is far too narrow (one win in 12,000 seat-games would get
    ``0.0–0.0%``), it stays a proper interval that widens as the share grows. The effective size
    may exceed the units: a bot holding two seats of a game cannot win both, so its per-deal shares
    spread less than independent games' would. A share with no spread across the clusters (one
    that never or always happened, or a few deals that happened to agree) has no design effect to
    read: its units count as independent, with the same adjustment for the clusters' degrees of
    freedom (two clusters without spread count for 2.4% of their units).
    """
    v = np.asarray(values, dtype=np.float64)
    c = np.asarray(clusters)
    if v.size == 0:
        return Estimate(math.nan, math.nan, math.nan, 0)
    _, inverse = np.unique(c, return_inverse=True)
    sums = np.bincount(inverse, weights=v)
    counts = np.bincount(inverse)
    means = sums / counts
    if not share:
        e = mean_estimate(means)
        if e.low == e.high and v.min() != v.max():  # the clusters agree, their units do not
            units = mean_estimate(v)
            half = (units.high - units.low) / 2
            return Estimate(e.value, e.value - half, e.value + half, e.n)
        return e
    n = int(means.size)
    share_value = float(means.mean())
    spread = float(means.var(ddof=1)) / n if n > 1 else 0.0
    effective = float(v.size)
    if 0.0 < share_value < 1.0 and spread > 0.0:
        effective = share_value * (1.0 - share_value) / spread  # Kish's
    if n > 1:  # Korn and Graubard: the clusters' degrees of freedom, with spread or without
        effective *= (z_quantile() / t_quantile(n - 1)) ** 2
    low, high = _wilson(share_value, effective)
    return Estimate(share_value, low, high, n)


def _wilson(share: float, trials: float) -> tuple[float, float]:
    """The 95% Wilson score interval of a share observed over ``trials``.

    ``trials`` may be an effective sample size (not a whole number), and the share the mean of
    the trials' outcomes in [0, 1].
    """
    z = z_quantile()
    z2n = z * z / trials
    centre = (share + z2n / 2) / (1 + z2n)
    half = z / (1 + z2n) * math.sqrt(share * (1 - share) / trials + z2n / (4 * trials))
    # At 0 (or 1) the interval ends there exactly, whatever the rounding.
    low = 0.0 if share <= 0.0 else max(centre - half, 0.0)
    high = 1.0 if share >= 1.0 else min(centre + half, 1.0)
    return low, high


def paired_share_difference(a: npt.ArrayLike, b: npt.ArrayLike) -> Estimate:
    """``mean(a) − mean(b)`` of two shares paired unit by unit, with Tango's score 95% interval.

    ``a`` and ``b`` hold, unit for unit (a deal), a share in [0, 1]: a 0/1 outcome or the mean of
    several (a bot's wins over a deal's seat rotations). For 0/1 outcomes the units are the pairs
    of a paired 2×2 table: ``b12`` units where only ``a`` happened, ``b21`` where only ``b`` did,
    and the interval is Tango's (1998) score interval for the difference of paired proportions:
    the differences ``Δ`` that the score test of ``b12 − b21 − nΔ`` (with the cell shares' maximum
    likelihood estimates under ``Δ``) does not reject at 5%. Unlike the t interval over the units,
    it never has zero width: two deals that both went to ``a`` give ``+100 pts (−31.5…+100)``, not
    ``(+100…+100)``.

    Shares between 0 and 1 generalize the table: each unit's difference ``d = a − b`` counts as
    ``max(d, 0)`` of a unit for ``a`` and ``max(−d, 0)`` for ``b``, and the units are taken at the
    design's effective number (Kish, as :func:`cluster_mean`): the variance of such a table's
    differences, ``q12 + q21 − Δ²``, over the observed variance of ``d``, times the units, times
    ``(z / t)²`` for the units' degrees of freedom (Korn and Graubard). Away from ±100 points the
    interval is then the t interval over the units; near them it stays a proper interval. Where
    every difference is −1, 0 or 1 (0/1 outcomes) the variance follows from the table, and where
    the differences do not spread (all the same) there is none to read: the units then count as
    they are, and the interval is Tango's.

    Args:
        a: The first share per unit.
        b: The second share per unit, unit for unit (no NaN in either).

    Returns:
        The difference; ``n`` is the number of units.
    """
    d = np.asarray(a, dtype=np.float64) - np.asarray(b, dtype=np.float64)
    n = int(d.size)
    if n == 0:
        return Estimate(math.nan, math.nan, math.nan, 0)
    value = float(d.mean())
    ahead = float(np.maximum(d, 0.0).mean())
    behind = float(np.maximum(-d, 0.0).mean())
    table_variance = ahead + behind - value**2
    spread = float(d.var(ddof=1)) if n > 1 else 0.0
    units = float(n)
    binary = bool(np.all((d == 0) | (np.abs(d) == 1)))
    if spread > 0.0 and table_variance > 0.0 and not binary:
        units = n * table_variance / spread * (z_quantile() / t_quantile(n - 1)) ** 2
    low, high = _tango(ahead * units, behind * units, units)
    return Estimate(value, min(low, value), max(high, value), n)


def _tango(b12: float, b21: float, n: float) -> tuple[float, float]:
    """Tango's 95% score interval for ``p1 − p2`` of ``n`` pairs, ``b12`` and ``b21`` discordant.

    The counts may be effective (not whole numbers). The score statistic decreases in ``Δ`` from
    ``+∞`` at −1 to −∞ at 1: each end is found by bisection to within about 1e-12.
    """
    z = z_quantile()

    def score(delta: float) -> float:
        numerator = b12 - b21 - n * delta
        b = -b12 - b21 + (2 * n - b12 + b21) * delta
        c = -b21 * delta * (1 - delta)
        q21 = (math.sqrt(max(b * b - 8 * n * c, 0.0)) - b) / (4 * n)
        variance = n * (2 * q21 + delta * (1 - delta))
        if variance <= 0.0:
            return math.copysign(math.inf, numerator) if numerator else 0.0
        return numerator / math.sqrt(variance)

    def root(low: float, high: float, target: float) -> float:
        # score(low) > target > score(high): the root lies between.
        for _ in range(60):
            middle = (low + high) / 2
            if score(middle) > target:
                low = middle
            else:
                high = middle
        return (low + high) / 2

    estimate = (b12 - b21) / n
    lower = -1.0 if score(-1.0) <= z else root(-1.0, estimate, z)
    upper = 1.0 if score(1.0) >= -z else root(estimate, 1.0, -z)
    return lower, upper


def clip(e: Estimate, low: float, high: float) -> Estimate:
    """``e`` with its interval clipped to ``low..high`` (the range the quantity can take)."""
    return Estimate(e.value, min(max(e.low, low), high), max(min(e.high, high), low), e.n)


def proportion(successes: int, trials: int) -> Estimate:
    """A proportion of independent trials with its 95% Wilson interval."""
    if trials == 0:  # nothing observed: neither a value nor an interval
        return Estimate(math.nan, math.nan, math.nan, 0)
    low, high = _wilson(successes / trials, trials)
    return Estimate(successes / trials, low, high, trials)


def holm(pvalues: list[float]) -> list[float]:
    """Holm's step-down adjustment of several p-values (controls the family-wise error)."""
    m = len(pvalues)
    order = sorted(range(m), key=lambda i: pvalues[i])
    adjusted = [0.0] * m
    running = 0.0
    for rank, i in enumerate(order):
        running = max(running, min(1.0, (m - rank) * pvalues[i]))
        adjusted[i] = running
    return adjusted


def record_dict(record: Any, names: Sequence[str] | None = None, **keys: str) -> dict[str, Any]:
    """The strict JSON dict of a result dataclass (see :func:`json_value`).

    Its fields in order (or the fields ``names``, in that order), each value as :func:`json_value`
    makes it, under the field's name or the key ``keys`` gives it.
    """
    names = [f.name for f in fields(record)] if names is None else names
    return {keys.get(name, name): json_value(getattr(record, name)) for name in names}


def json_dict(items: Mapping[str, Any]) -> dict[str, Any]:
    """A dict of values as :func:`json_value` makes each of them."""
    return {key: json_value(value) for key, value in items.items()}


def json_value(value: Any) -> Any:
    """``value`` made strict JSON: anything with a ``to_dict`` as that dict, tuples as lists.

    Lists, tuples, dicts and the dicts of ``to_dict`` are converted item by item; NaN and the
    infinities (an undefined estimate, such as an interval without bootstrap replicates) become
    ``None``; other values are kept as they are.
    """
    if hasattr(value, "to_dict"):
        return json_value(value.to_dict())
    if isinstance(value, float) and not math.isfinite(value):
        return None
    if isinstance(value, list | tuple):
        return [json_value(v) for v in value]
    if isinstance(value, dict):
        return json_dict(value)
    return value


class Record:
    """A result dataclass whose JSON-friendly dict is :func:`record_dict` of itself."""

    def to_dict(self) -> dict[str, Any]:
        """A JSON-friendly dict."""
        return record_dict(self)
