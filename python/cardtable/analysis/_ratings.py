"""Ratings of bots from their finishing places, with openskill and bootstrap intervals.

Two players: openskill's Bradley–Terry model; more: its Plackett–Luce model, both without the
dynamics term (``tau = 0``: a bot's strength does not drift). Every game is one match whose teams
are the seats, ranked by finishing place (ties share a rank); a bot that holds several seats of a
game gets the sum of the updates of its seats. The point estimate is the mean of the ratings
over several seeded random orders of the games (an online rating depends a little on the order).

``elo`` puts the rating on the Elo scale: ``400 · log10(e) · μ / (β·√n)``, the pairwise odds that
the model implies once the uncertainty is small, centred so that the bots average 1500; a
difference of 200 means the stronger bot finishes ahead of the weaker about 76% of the time.

Intervals come from a bootstrap over deals: the deals are drawn with replacement (each with all
its seat rotations) and the games are rated again, each replicate in one random order. The
interval is the spread of the replicates (their 2.5th and 97.5th percentiles, less their mean)
around the point estimate: the point estimate averages several orders and a replicate only one,
so the raw percentiles of a few replicates could miss the point estimate by the order's noise
alone (about ±16 Elo with 500 games) and leave it outside its own interval. When every deal went
the same way the replicates are all alike and there is no interval (the rating of a bot that won
every game also grows with the number of games: no finite rating fits a clean sweep).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

import numpy as np
import numpy.typing as npt

from cardtable.analysis._stats import Estimate, Record

__all__ = ["Rating", "rate_games"]


@dataclass(frozen=True)
class Rating(Record):
    """A bot's rating.

    Attributes:
        bot: The bot.
        mu: openskill's μ with its bootstrap 95% interval.
        sigma: openskill's σ after all games (its own uncertainty, not an interval).
        elo: The rating on the Elo scale with its bootstrap 95% interval.
    """

    bot: str
    mu: Estimate
    sigma: float
    elo: Estimate


def _model(players: int) -> Any:
    from openskill.models import BradleyTerryFull, PlackettLuce

    return BradleyTerryFull(tau=0.0) if players == 2 else PlackettLuce(tau=0.0)


def _fit(
    model: Any, bots: npt.NDArray[np.int64], ranks: npt.NDArray[np.int64], n_bots: int
) -> tuple[npt.NDArray[np.float64], npt.NDArray[np.float64]]:
    ratings = [model.rating() for _ in range(n_bots)]
    for seat_bots, seat_ranks in zip(bots.tolist(), ranks.tolist(), strict=True):
        teams = [[ratings[b]] for b in seat_bots]
        new = model.rate(teams, ranks=seat_ranks)
        if len(set(seat_bots)) == len(seat_bots):
            for b, team in zip(seat_bots, new, strict=True):
                ratings[b] = team[0]
            continue
        mu = {b: ratings[b].mu for b in seat_bots}
        var = {b: ratings[b].sigma ** 2 for b in seat_bots}
        for b, team in zip(seat_bots, new, strict=True):
            mu[b] += team[0].mu - ratings[b].mu
            var[b] *= (team[0].sigma / ratings[b].sigma) ** 2
        for b in mu:
            ratings[b] = model.rating(mu=mu[b], sigma=math.sqrt(var[b]))
    return (
        np.array([r.mu for r in ratings], dtype=np.float64),
        np.array([r.sigma for r in ratings], dtype=np.float64),
    )


def rate_games(
    names: list[str],
    bots: npt.NDArray[np.int64],
    places: npt.NDArray[np.int64],
    deals: npt.NDArray[np.int64],
    *,
    players: int,
    seed: int,
    bootstrap: int = 100,
    max_games: int = 500,
    orders: int = 4,
) -> list[Rating]:
    """Rates the bots from ``[games, players]`` seat bots and places.

    Args:
        names: Bot names, indexed by the values of ``bots``.
        bots: ``[games, players]`` bot index of each seat.
        places: ``[games, players]`` finishing places (1 = best).
        deals: ``[games]`` the deal of each game (the bootstrap resamples deals).
        players: Seats per game.
        seed: Seed of the rating order and the bootstrap.
        bootstrap: Bootstrap replicates (0: no intervals).
        max_games: Games rated per fit; with more, a seeded sample of whole deals is used.
        orders: The point estimate is the mean over this many seeded orders of the games (an
            online rating depends a little on the order it sees the games in).

    Returns:
        One rating per name.
    """
    model = _model(players)
    rng = np.random.default_rng(seed)
    unique_deals = np.unique(deals)
    per_deal = max(1, len(deals) // max(1, len(unique_deals)))
    keep_deals = max(1, min(len(unique_deals), max_games // per_deal))
    by_deal = {int(d): np.flatnonzero(deals == d) for d in unique_deals}
    scale = 400 * math.log10(math.e) / (model.beta * math.sqrt(players))

    def fit(deal_sample: npt.NDArray[np.int64]) -> tuple[npt.NDArray[Any], npt.NDArray[Any]]:
        rows = np.concatenate([by_deal[int(d)] for d in deal_sample])
        rows = rows[rng.permutation(len(rows))]
        return _fit(model, bots[rows], places[rows], len(names))

    base = unique_deals
    if keep_deals < len(unique_deals):
        base = np.sort(rng.choice(unique_deals, size=keep_deals, replace=False))
    fits = [fit(base) for _ in range(orders)]
    mu = np.mean([f[0] for f in fits], axis=0)
    sigma = np.mean([f[1] for f in fits], axis=0)
    elo = 1500 + scale * (mu - mu.mean())
    samples_mu, samples_elo = [], []
    for _ in range(bootstrap):
        m, _s = fit(rng.choice(base, size=len(base), replace=True))
        samples_mu.append(m)
        samples_elo.append(1500 + scale * (m - m.mean()))
    out = []
    for i, name in enumerate(names):
        if samples_mu:
            lo_mu, hi_mu = _around(mu[i], [s[i] for s in samples_mu])
            lo_elo, hi_elo = _around(elo[i], [s[i] for s in samples_elo])
        else:
            lo_mu = hi_mu = lo_elo = hi_elo = math.nan
        out.append(
            Rating(
                bot=name,
                mu=Estimate(float(mu[i]), float(lo_mu), float(hi_mu), len(base)),
                sigma=float(sigma[i]),
                elo=Estimate(float(elo[i]), float(lo_elo), float(hi_elo), len(base)),
            )
        )
    return out


def _around(point: float, replicates: list[float]) -> tuple[float, float]:
    """The 95% interval of ``point`` from its bootstrap ``replicates``.

    That is the replicates' 2.5th and 97.5th percentiles, shifted by ``point`` less the
    replicates' mean (see the module's docstring), and widened to ``point`` should rounding or
    skewed replicates leave it outside. Replicates that are all alike (every deal went the same
    way, so every resample is the same games) give no interval, ``(nan, nan)``: the bootstrap
    has no spread to read one from, and a zero-width interval would claim certainty.
    """
    if not replicates or min(replicates) == max(replicates):
        return math.nan, math.nan
    low, high = np.percentile(replicates, [2.5, 97.5])
    shift = point - float(np.mean(replicates))
    return min(float(low + shift), point), max(float(high + shift), point)
