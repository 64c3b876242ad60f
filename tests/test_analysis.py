"""Balance studies: the statistics on synthetic data, and tournaments, balance and sweeps on real
games (duplicate deals, exact replays, reproducible rows, thread independence)."""

from __future__ import annotations

import functools
import importlib
import io
import itertools
import math
from collections.abc import Callable
from html import unescape
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt
import pytest

import cardtable
from cardtable._rng import derive_seed
from cardtable.analysis import (
    Difference,
    TournamentResult,
    _runs,
    _trace,
    balance,
    replay,
    replayable,
    sweep,
    tournament,
)
from cardtable.analysis._differences import (
    clear,
    difference_text,
    paired_estimate,
    unpaired_estimate,
)
from cardtable.analysis._ratings import rate_games
from cardtable.analysis._runs import lineups_for, places
from cardtable.analysis._stats import (
    Estimate,
    clip,
    cluster_mean,
    holm,
    json_value,
    mean_estimate,
    paired_share_difference,
    proportion,
    unpaired_share_difference,
    welch_difference,
)
from cardtable.analysis.balance import margins
from cardtable.analysis.sweep import SweepResult
from cardtable.bots import split_bot_specs
from tests.command_line import run_cli
from tests.game_info import all_games

REPS = 4000  # coverage 95% ± 1.5% is about ± 4.4 standard errors at this size


def _coverage(hits: list[bool]) -> float:
    return sum(hits) / len(hits)


# --- interval coverage on synthetic data -------------------------------------------------------


def replayed_row(row: dict[str, Any], **options: Any) -> cardtable.SimulationResult:
    """The Turn the Tide (3 players) run a study table's row came from, up to the row's game."""
    return cardtable.simulate(
        "turn_the_tide",
        players=3,
        games=row["game"] + 1,
        bots=split_bot_specs(row["lineup"]),
        seed=row["seed"],
        progress=False,
        **options,
    )


def test_mean_interval_covers_95_percent() -> None:
    rng = np.random.default_rng(1)
    # Integer, score-like data (the t interval is for means of moderately many such games).
    hits = [mean_estimate(rng.poisson(6.0, size=60)).contains(6.0) for _ in range(REPS)]
    assert abs(_coverage(hits) - 0.95) <= 0.015


def _clustered_coverage(
    seed: int,
    shape: tuple[int, int],
    draw: Callable[[np.random.Generator, npt.NDArray[np.int64]], npt.NDArray[np.float64]],
    estimate: Callable[[npt.NDArray[np.float64], npt.NDArray[np.int64]], Estimate],
    truth: float,
    reps: int = REPS,
) -> float:
    """Share of ``reps`` samples of ``shape`` = (deals, games per deal) whose interval covers
    ``truth``; ``draw(rng, deal_of_each_game)`` draws one sample."""
    rng = np.random.default_rng(seed)
    deals = np.repeat(np.arange(shape[0]), shape[1])
    return _coverage([estimate(draw(rng, deals), deals).contains(truth) for _ in range(reps)])


def _deal_luck(rng: np.random.Generator, deals: npt.NDArray[np.int64]) -> npt.NDArray[np.float64]:
    """Scores around 5 where every deal shifts its games by a shared luck term."""
    return 5.0 + rng.normal(0, 2.0, size=60)[deals] + rng.normal(0, 1.0, size=deals.size)


def test_cluster_interval_covers_95_percent_with_deal_effects() -> None:
    # 60 deals × 4 seat-games; every deal shifts its games by a shared luck term.
    assert abs(_clustered_coverage(2, (60, 4), _deal_luck, cluster_mean, 5.0) - 0.95) <= 0.015


def test_naive_interval_undercovers_clustered_data() -> None:
    # The reason for clustering: ignoring the deals would give far too narrow intervals.
    coverage = _clustered_coverage(
        3, (60, 4), _deal_luck, lambda values, _: mean_estimate(values), 5.0, reps=500
    )
    assert coverage < 0.8


def test_win_rate_interval_covers_95_percent() -> None:
    rng = np.random.default_rng(4)
    hits = [proportion(int(rng.binomial(400, 0.37)), 400).contains(0.37) for _ in range(REPS)]
    assert abs(_coverage(hits) - 0.95) <= 0.015


def test_clustered_win_rate_interval_covers_95_percent() -> None:
    def wins(rng: np.random.Generator, deals: npt.NDArray[np.int64]) -> npt.NDArray[np.float64]:
        p = np.clip(0.3 + rng.normal(0, 0.15, size=100), 0, 1)[deals]
        return (rng.random(deals.size) < p).astype(float)

    coverage = _clustered_coverage(5, (100, 3), wins, cluster_mean, 0.3)
    assert abs(coverage - 0.95) <= 0.02  # the clipped mean is 0.3 within 0.001


def test_a_bot_in_two_seats_of_each_game_gets_a_win_rate_interval_that_covers_95_percent() -> None:
    """A bot holding two seats of a game cannot win both, so its per-deal shares spread less than
    independent games' would. The effective size capped at the seat-games gave Wilson's interval
    of independent seat-games, far too wide: it covered 98.8% here (a tournament audit saw 200
    of 200)."""

    def wins(rng: np.random.Generator, deals: npt.NDArray[np.int64]) -> npt.NDArray[np.float64]:
        p = np.clip(0.3 + rng.normal(0, 0.08, size=10), 0, 0.5)[deals[::2]]
        u = rng.random(deals.size // 2)
        out = np.empty(deals.size)
        out[::2] = u < p  # the bot's first seat of each game wins
        out[1::2] = (p <= u) & (u < 2 * p)  # or its second, never both
        return out

    # 10 deals of 4 games, 2 seat-games each; the clipped mean is 0.3 (the clip is symmetric).
    coverage = _clustered_coverage(8, (10, 8), wins, cluster_mean, 0.3)
    assert abs(coverage - 0.95) <= 0.015


def test_a_few_deals_that_agree_by_chance_get_an_interval() -> None:
    """Four deals won once in two games each: the shares agree by chance, not by design, and the
    interval was 50.0% (50.0–50.0%). With no spread to read a design effect from, the seat-games
    count as independent, with the deals' degrees of freedom as where they spread."""
    from scipy import stats

    e = cluster_mean(np.tile([1.0, 0.0], 4), np.repeat(np.arange(4), 2), share=True)
    assert e.value == 0.5
    z, t = stats.norm.ppf(0.975), stats.t.ppf(0.975, 3)
    n = 8 * (z / t) ** 2  # the effective seat-games: 8 at the deals' degrees of freedom
    half = z / (1 + z * z / n) * math.sqrt(0.25 / n + z * z / (4 * n * n))
    assert (e.low, e.high) == pytest.approx((0.5 - half, 0.5 + half), abs=1e-9)  # Wilson at n
    assert e.high - e.low > 0.5687  # wider than Wilson for 4 of 8 (0.2152–0.7848)


def test_the_share_interval_is_the_t_interval_over_few_deals_too() -> None:
    # Away from 0 and 1, with 6 deals: the degrees-of-freedom adjustment gives Student's width.
    rng = np.random.default_rng(2)
    wins = (rng.random(6 * 40) < np.repeat(rng.uniform(0.3, 0.6, 6), 40)).astype(float)
    e = cluster_mean(wins, np.repeat(np.arange(6), 40), share=True)
    t = mean_estimate(wins.reshape(6, 40).mean(axis=1))
    assert e.high - e.low == pytest.approx(t.high - t.low, rel=0.02)


def test_unpaired_differences_count_every_game_of_each_bot() -> None:
    """With more bots than seats the unpaired difference took only the games that seated both
    (160 of 480 here) and measured another thing: −1.77 points against the paired −1.24, and the
    report called the pairing 1.7× as precise where it gains 1.1× (``greedy:3``, plain ``greedy``
    when this was found, keeps these games)."""

    def ran(*bots: str) -> Any:
        return tournament(
            "trafficars", players=2, bots=list(bots), games=80, seed=8, progress=False
        )

    def widths(d: Any) -> float:
        return float((d.unpaired.high - d.unpaired.low) / (d.paired.high - d.paired.low))

    t = ran("greedy:3", "random", "greedy:1")
    for metric in ("score", "win", "place"):
        d = t.difference("greedy:3", "greedy:1", metric)
        assert d.unpaired.value == pytest.approx(d.paired.value, abs=1e-12)
        assert d.unpaired.n == 480  # every game that seats either bot
    assert 1.05 < widths(t.difference("greedy:3", "greedy:1", "score")) < 1.15
    assert "make the score comparison 1.1× as precise" in t.report().render()
    # Two bots on the same deals: the pairing gains nothing in the score, and says so.
    two = ran("greedy:3", "random")
    assert widths(two.difference("greedy:3", "random", "score")) < 1.05
    assert "no more precise here than the same games" in " ".join(two.report().render().split())


def test_the_unpaired_estimate_is_the_paired_one_where_both_are_always_there() -> None:
    rng = np.random.default_rng(3)
    a, b = rng.normal(1.0, 1.0, 50), rng.normal(0.5, 1.0, 50)
    same, paired = unpaired_estimate(a, b), paired_estimate(a, b)
    assert (same.value, same.low, same.high) == pytest.approx(
        (paired.value, paired.low, paired.high)
    )
    assert same.n == paired.n
    # One unit each alone: the means are over each one's units, the interval over all of them.
    a[::2], b[1::2] = np.nan, np.nan
    e = unpaired_estimate(a, b)
    assert e.value == pytest.approx(np.nanmean(a) - np.nanmean(b)) and e.n == 50
    welch = welch_difference(a[1::2], b[::2])  # disjoint units: Welch's, but for the df
    assert e.high - e.low == pytest.approx(welch.high - welch.low, rel=0.05)


def test_paired_difference_interval_covers_95_percent() -> None:
    rng = np.random.default_rng(6)
    hits = []
    for _ in range(REPS):
        luck = rng.normal(0, 3.0, size=80)
        a = 1.5 + luck + rng.normal(0, 1.0, size=80)
        b = luck + rng.normal(0, 1.0, size=80)
        hits.append(mean_estimate(a - b).contains(1.5))
    assert abs(_coverage(hits) - 0.95) <= 0.015


def test_welch_difference_is_scipys_welch_interval() -> None:
    from scipy import stats

    rng = np.random.default_rng(7)
    x, y = rng.normal(1.0, 2.0, size=40), rng.normal(0.0, 0.5, size=25)
    d = welch_difference(x, y)
    ci = stats.ttest_ind(x, y, equal_var=False).confidence_interval()
    assert d.value == pytest.approx(x.mean() - y.mean())
    assert (d.low, d.high) == pytest.approx((ci.low, ci.high))
    assert d.n == 65
    same = welch_difference([2.0, 2.0], [1.0, 1.0, 1.0])
    assert (same.value, same.low, same.high) == (1.0, 1.0, 1.0)
    assert math.isnan(welch_difference([1.0], [2.0, 3.0]).low)


def test_an_unpaired_difference_of_shares_never_has_zero_width() -> None:
    """Two sides that never won: Welch's interval is 0–0; Newcombe's is Wilson's ends combined."""
    # (The package's ``sweep`` is the function; its module is found by name.)
    sweep_module = importlib.import_module("cardtable.analysis.sweep")

    none = np.zeros(40)
    assert welch_difference(none, none).high == 0.0
    d = unpaired_share_difference(none, none)
    n = 40 * (1.959964 / 2.022691) ** 2  # 40 deals at their degrees of freedom (t at 39)
    wilson_high = 1.959964**2 / (n + 1.959964**2)  # Wilson's upper end of 0 in n
    assert d.value == 0.0 and d.n == 80
    assert (d.low, d.high) == pytest.approx((-wilson_high, wilson_high), rel=1e-3)
    # The sweep's unpaired difference of a share takes it; of a mean, Welch's still.
    a, b = np.zeros(40), np.r_[np.zeros(39), np.nan]
    share = sweep_module._unpaired(a, b, share=True)
    assert share.low < 0.0 < share.high and share.n == 79
    assert sweep_module._unpaired(a, b, share=False).high == 0.0
    # So does a tournament's unpaired difference of shares when its games do not spread.
    won, lost = np.ones(4), np.zeros(4)
    flat = unpaired_estimate(won, lost, share=True)
    assert flat.value == 1.0 and -1.0 < flat.low < 1.0 and flat.high == 1.0
    assert (unpaired_estimate(won, lost).low, unpaired_estimate(won, lost).high) == (1.0, 1.0)
    # A side of one unit still gets an interval, one with no unit none.
    one = unpaired_share_difference([1.0], [0.0, 1.0])
    assert -1.0 < one.low < 0.0 and 0.9 < one.high <= 1.0
    assert math.isnan(unpaired_share_difference([], [0.5]).value)


def test_the_unpaired_share_interval_covers_about_95_percent() -> None:
    """0/1 outcomes near the edge (90% against 95% over 60 units each), where Welch's is poor."""
    rng = np.random.default_rng(12)
    hits = []
    for _ in range(REPS):
        x = (rng.random(60) < 0.90).astype(float)
        y = (rng.random(60) < 0.95).astype(float)
        hits.append(unpaired_share_difference(x, y).contains(-0.05))
    assert 0.93 <= _coverage(hits) <= 0.98


def test_holm_adjustment() -> None:
    assert holm([0.01, 0.04, 0.03]) == pytest.approx([0.03, 0.06, 0.06])
    assert holm([0.5, 0.9]) == pytest.approx([1.0, 1.0])


def test_never_seen_share_keeps_an_interval() -> None:
    e = cluster_mean(np.zeros(30), np.arange(30), share=True)
    assert e.value == 0 and e.low == 0 and e.high > 0.05
    e = cluster_mean(np.ones(30), np.arange(30), share=True)
    assert e.value == 1 and e.low < 0.95 and e.high == 1


@pytest.mark.parametrize("value", [0.0, 1.0, 2.0, 24.0])
def test_constant_metric_that_is_no_share_gets_a_zero_width_interval(value: float) -> None:
    # A place, score or margin that is 0 or 1 in every deal is not a 0/1 outcome: no Wilson.
    e = cluster_mean(np.full(30, value), np.arange(30))
    assert (e.value, e.low, e.high) == (value, value, value)


def test_share_intervals_stay_within_0_and_1() -> None:
    # 9 deals out of 10 won: the t interval, 0.9 ± 0.23, would end above 100%; Wilson's at the
    # effective sample size (Kish's 9 times (z / t₉)², 6.76) is 0.523–0.987 (Clopper-Pearson's for
    # 9 of 10: 0.555–0.997).
    high = cluster_mean(np.r_[np.ones(9), 0.0], np.arange(10), share=True)
    assert high.value == pytest.approx(0.9)
    assert (high.low, high.high) == pytest.approx((0.5234, 0.9866), abs=1e-4)
    low = cluster_mean(np.r_[np.zeros(14), 1.0], np.arange(15), share=True)
    assert 0 < low.low < low.value < low.high < 0.35  # Wilson for 1 of 15: 0.012–0.30
    # Not a share: the same values keep their t interval.
    assert cluster_mean(np.r_[np.ones(9), 0.0], np.arange(10)).high > 1


def test_studies_give_possible_intervals() -> None:
    t = tournament(
        "goofspiel", players=2, bots=["greedy", "random"], games=10, seed=0, progress=False
    )
    place = t.result("greedy").place  # greedy wins every game: place 1, exactly
    assert (place.value, place.low, place.high) == (1, 1, 1)
    assert t.result("greedy").win_rate.high == 1 and t.result("random").win_rate.low == 0
    s = sweep(
        "goofspiel", players=2, grid={"num_cards": [5]}, bots=["greedy"], games=10, progress=False
    )
    margin = s.points[0].metrics["mean margin"]  # greedy against itself ties every game
    assert (margin.value, margin.low, margin.high) == (0, 0, 0)
    s = sweep("trafficars", players=3, grid={"max_cars": [3, 4]}, games=10, progress=False)
    for point in s.points:
        for metric, e in point.metrics.items():
            if "win" in metric:
                assert 0 <= e.low <= e.value <= e.high <= 1, (metric, e)


# --- ratings ----------------------------------------------------------------------------------


def _plackett_luce_games(theta: np.ndarray, games: int, seed: int) -> tuple[np.ndarray, np.ndarray]:
    rng = np.random.default_rng(seed)
    n = len(theta)
    bots = np.array([rng.permutation(n) for _ in range(games)])
    place = np.zeros_like(bots)
    for g in range(games):
        order = np.argsort(-(theta[bots[g]] + rng.gumbel(size=n)))  # a Plackett–Luce draw
        place[g, order] = np.arange(1, n + 1)
    return bots, place


@pytest.mark.parametrize(("theta", "seed"), [([0.0, 0.4, 0.8, 1.2], 1), ([0.0, 0.7], 2)])
def test_ratings_recover_known_strengths(theta: list[float], seed: int) -> None:
    strengths = np.array(theta)
    bots, place = _plackett_luce_games(strengths, 500, seed)
    names = [f"bot{i}" for i in range(len(theta))]
    ratings = rate_games(
        names, bots, place, np.arange(len(bots)), players=len(theta), seed=0, bootstrap=60
    )
    elo = [r.elo.value for r in ratings]
    assert elo == sorted(elo)  # the right order
    true = 1500 + 400 * math.log10(math.e) * (strengths - strengths.mean())
    for r, t in zip(ratings, true, strict=True):
        assert r.elo.contains(t), (r, t)
        assert r.elo.high - r.elo.low < 150


@pytest.mark.parametrize("seed", [6, 9])
def test_a_rating_lies_inside_its_own_interval(seed: int) -> None:
    """With ten bootstrap replicates, a rating fell outside its interval: the point estimate
    averages four orders of the games and each replicate is rated in one, and the order's noise
    moved the raw percentiles off the point. The interval is now the replicates' spread around
    it."""
    bots, place = _plackett_luce_games(np.array([0.0, 0.1, 0.2, 0.3]), 500, seed)
    names = [f"bot{i}" for i in range(4)]
    ratings = rate_games(
        names, bots, place, np.arange(len(bots)), players=4, seed=seed, bootstrap=10
    )
    for r in ratings:
        assert r.elo.low < r.elo.value < r.elo.high, r
        assert r.mu.low < r.mu.value < r.mu.high, r


# --- small pieces ------------------------------------------------------------------------------


def test_places_and_margins() -> None:
    scores = np.array([[5, 3, 5, 1], [2, 7, 7, 0]])
    winners = np.array([[1, 0, 1, 0], [0, 1, 1, 0]], dtype=bool)
    assert places(scores, winners, True).tolist() == [[1, 3, 1, 4], [3, 1, 1, 4]]
    assert margins(scores, winners, True).tolist() == [2.0, 5.0]
    low = np.array([[3, 1, 4]])
    assert places(low, np.array([[0, 1, 0]], dtype=bool), False).tolist() == [[2, 1, 3]]
    assert margins(low, np.array([[0, 1, 0]], dtype=bool), False).tolist() == [2.0]
    assert margins(low, np.ones((1, 3), dtype=bool), False).tolist() == [0.0]


def test_lead_changes_and_decided_at() -> None:
    trace = np.array([[0, 0], [1, 0], [1, 2], [1, 1], [3, 1], [3, 4], [5, 4]], dtype=float)
    assert _trace.lead_changes(trace, True) == 4  # 0 → 1 → 0 → 1 → 0 (ties do not count)
    assert _trace.decided_at(trace, [0], True) == pytest.approx(6 / 6)
    assert _trace.decided_at(trace[:5], [0], True) == pytest.approx(4 / 4)
    steady = np.array([[0, 0], [2, 0], [3, 1], [4, 1]], dtype=float)
    assert _trace.decided_at(steady, [0], True) == pytest.approx(1 / 3)
    assert _trace.lead_changes(-steady, False) == 0


def test_leader_shares_come_with_the_games_they_rest_on() -> None:
    # One game of two: seat 0 leads alone from the first decision on and wins; at the start
    # nobody leads alone. The plot's point at 0% rests on no game, every later one on one game.
    trace = np.array([[0, 0], [1, 0], [2, 0], [3, 1]], dtype=float)
    game = _trace.GameTrace(0, [], trace, [3, 1], [0], 3)
    hits, seen = _trace.leader_counts([game], True, points=4)
    assert seen.tolist() == [0, 1, 1, 1] and hits.tolist() == [0, 1, 1, 1]
    shares = _trace.leader_wins_at([game], True, points=4)
    assert np.isnan(shares[0]) and shares[1:].tolist() == [1.0, 1.0, 1.0]
    b = balance("goofspiel", players=2, games=30, progress=False, trace_games=10, weaker=None)
    assert len(b.leader_games) == len(b.leader_wins) and max(b.leader_games) <= 10
    assert b.to_dict()["leader_games"] == b.leader_games
    assert b.to_dict()["leader_hits"] == b.leader_hits
    for (_, share), won, had in zip(b.leader_wins, b.leader_hits, b.leader_games, strict=True):
        assert 0 <= won <= had and (np.isnan(share) if had == 0 else share == won / had)
    assert "had a sole leader then" in b.summary_table() or np.isnan(b.leader_wins[10][1])


def test_lineups() -> None:
    assert lineups_for(3, ["a", "b", "c"], True) == [
        ("a", "b", "c"),
        ("b", "c", "a"),
        ("c", "a", "b"),
    ]
    assert lineups_for(4, ["g", "r"], True) == [("g", "r", "g", "r"), ("r", "g", "r", "g")]
    assert len(lineups_for(2, ["a", "b", "c"], True)) == 6
    assert lineups_for(3, ["a", "b", "c"], False) == [("a", "b", "c")]


# --- exact replays ---------------------------------------------------------------------------

REPLAY_CASES = [
    (game_id, run.players, run.bots, run.options)
    for game_id, info in all_games().items()
    for run in [info.replay_case(game_id)]
]
"""Each game's ``replay_run`` (``tests/games/<game_id>.py``)."""


@pytest.mark.parametrize(("game_id", "players", "bots", "options"), REPLAY_CASES)
def test_replay_equals_the_simulated_game(
    game_id: str, players: int, bots: list[str], options: dict[str, Any]
) -> None:
    seed = 11
    result = cardtable.simulate(
        game_id, players=players, games=40, bots=bots, seed=seed, progress=False, **options
    )
    assert result.scores is not None and result.lengths is not None
    # Every game: bot seeds of 2**63 and more included (the per-step bot takes any 64-bit seed).
    assert any(s >> 63 for g in range(40) for s in _bot_seeds(seed, g, players))
    games = range(40)
    for g in games:
        t = replay(game_id, players, bots, seed, g, **options)
        assert t.scores == result.scores[g].tolist()
        assert t.decisions == result.lengths[g]
        assert t.trace.shape == (t.decisions + 1, players)
        if game_id != "deep_regrets":
            assert t.trace[-1].tolist() == t.scores  # the trace ends at the final scores
    # The history is the whole game: replayed on a state with explicit chance nodes, it ends
    # in the same scores.
    t = replay(game_id, players, bots, seed, games[0], **options)
    state = cardtable.make(game_id, players=players, **options).new_state()
    for a in t.history:
        state.apply(a)
    assert state.is_terminal and list(state.scores) == t.scores


def _bot_seeds(seed: int, game: int, players: int) -> list[int]:
    return [derive_seed(derive_seed(seed, game), p + 1) for p in range(players)]


def test_games_with_large_bot_seeds_are_replayed() -> None:
    # Game 0 of seed 3 seats a greedy bot whose seed is 2**63 or more: once refused, now rebuilt
    # exactly, and a balance study traces every game it is asked to.
    bots = ["greedy"] * 4
    assert any(s >> 63 for s in _bot_seeds(3, 0, 4))
    assert replayable(3, 0, bots)
    run = cardtable.simulate("turn_the_tide", players=4, games=1, bots=bots, seed=3, progress=False)
    assert run.scores is not None
    assert replay("turn_the_tide", 4, bots, 3, 0).scores == run.scores[0].tolist()
    b = balance("turn_the_tide", players=4, games=40, trace_games=30, weaker=None, progress=False)
    assert [t.game for t in b.traced] == list(range(30))


# --- tournaments -------------------------------------------------------------------------------


def greedy_against_random_at_trafficars(
    players: int, games: int, seed: int, rating_bootstrap: int, **options: Any
) -> TournamentResult:
    """The greedy bot against the random bot at trafficars, without a progress bar."""
    return tournament(
        "trafficars",
        players=players,
        bots=["greedy", "random"],
        games=games,
        seed=seed,
        progress=False,
        rating_bootstrap=rating_bootstrap,
        **options,
    )


def test_stronger_bot_comes_out_ahead() -> None:
    t = greedy_against_random_at_trafficars(players=3, games=150, seed=3, rating_bootstrap=50)
    g, r = t.result("greedy"), t.result("random")
    assert g.win_rate.low > r.win_rate.high
    assert g.place.high < r.place.low
    assert t.difference("greedy", "random", "win").paired.low > 0
    assert t.difference("random", "greedy", "score").paired.low > 0  # penalties: lower is better
    hh = t.head_to_head
    assert hh[0][1] is not None and hh[0][1].low > 0.5
    assert t.ratings[0].elo.low > t.ratings[1].elo.high
    text = t.summary_table()
    assert "greedy − random" in text and "head to head" in text


def test_identical_bots_with_rotated_seats_show_no_difference() -> None:
    bots = ["forgetful:0.3", "forgetful:0.30"]  # the same bot under two names
    t = tournament("trafficars_memory", players=2, bots=bots, games=200, seed=4, progress=False)
    for metric in ("win", "score", "place"):
        d = t.difference(bots[0], bots[1], metric).paired
        assert d.value == 0 and d.no_spread and not clear(d)
        if metric == "win":  # Tango's interval of a share never collapses: ±1.9 points here
            assert d.low == pytest.approx(-d.high) and 0.01 < d.high < 0.03
        else:
            assert d.low == 0 and d.high == 0
    # Without duplicate deals the games differ, and the interval still covers no difference.
    u = tournament(
        "trafficars_memory",
        players=2,
        bots=bots,
        games=300,
        seed=4,
        duplicate=False,
        progress=False,
        rating_bootstrap=0,
    )
    for metric in ("win", "score"):
        assert u.difference(bots[0], bots[1], metric).paired.contains(0.0)


def test_duplicate_deals_share_the_deal_and_narrow_the_interval() -> None:
    opts: dict[str, Any] = {"hand_size": 3}
    t = greedy_against_random_at_trafficars(
        players=2, games=400, seed=5, rating_bootstrap=0, **opts
    )
    assert t.seeds[0] == t.seeds[1] == 5
    # Histories: game g starts with the same chance outcomes under every seat assignment.
    checked = 0
    for g in range(40):
        deal = (
            cardtable.make("trafficars", players=2, **opts)
            .new_state(seed=derive_seed(5, g))
            .history
        )
        histories = []
        for i, (s, lineup) in enumerate(zip(t.seeds, t.lineups, strict=True)):
            trace = replay("trafficars", 2, lineup, s, g, **opts)
            assert trace.scores == t.runs.scores[i, g].tolist()
            assert trace.history[: len(deal)] == deal
            histories.append(trace.history)
        checked += histories[0] != histories[1]  # same deal, different play
    assert checked >= 3
    d = t.difference("greedy", "random", "score")
    assert d.paired.high - d.paired.low < d.unpaired.high - d.unpaired.low


def test_tournament_rows_reproduce_from_their_seed() -> None:
    t = tournament(
        "turn_the_tide",
        players=3,
        bots=["greedy", "random", "random"],
        games=30,
        seed=6,
        progress=False,
        rating_bootstrap=0,
        rounds=1,
    )
    rows = t.to_arrow().to_pylist()
    assert len(rows) == 3 * 30 * 3
    for row in rows[::37]:
        r = replayed_row(row, rounds=1)
        assert r.scores is not None and r.winners is not None
        assert r.scores[row["game"], row["seat"]] == row["score"]
        assert bool(r.winners[row["game"], row["seat"]]) == row["win"]


def _without_time(d: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in d.items() if k != "seconds"}


def _same_on_one_and_two_threads(run: Callable[[int], Any]) -> None:
    """``run(threads)`` gives the same result, but for its timing, on one and on two threads."""
    one, two = run(1), run(2)
    assert _without_time(one.to_dict()) == _without_time(two.to_dict())


def test_results_do_not_depend_on_threads() -> None:
    kw: dict[str, Any] = {"players": 3, "seed": 8, "progress": False}
    _same_on_one_and_two_threads(
        lambda threads: tournament(
            "trafficars_overtaking",
            bots=["greedy", "random"],
            games=1500,
            threads=threads,
            rating_bootstrap=50,
            **kw,
        )
    )
    _same_on_one_and_two_threads(
        lambda threads: balance(
            "trafficars_overtaking", games=1200, trace_games=10, threads=threads, **kw
        )
    )
    _same_on_one_and_two_threads(
        lambda threads: sweep(
            "goofspiel",
            players=2,
            grid={"num_cards": [3, 5]},
            games=1100,
            seed=8,
            threads=threads,
            progress=False,
        )
    )


# --- balance -----------------------------------------------------------------------------------


def test_balance_finds_the_seat_advantage_of_the_overtaking_game() -> None:
    b = balance(
        "trafficars_overtaking", players=3, games=1500, seed=1, trace_games=40, progress=False
    )
    assert b.bot == "greedy"
    assert b.seat_p_value < 1e-6
    assert b.seats[0].win_rate.low > b.seats[2].win_rate.high
    assert len(b.traced) == 40
    assert b.luck is not None and b.luck.upset_rate.high < 1 / 3
    assert 0 <= b.luck.deal_share <= 1 and b.luck.bot_share > 0.05
    said = " ".join(b.findings())
    assert "Seat 0 wins more often than an equal share" in said
    assert "seat 2 wins less often than an equal share" in said


def test_balance_of_two_seats_gives_one_p_value_for_its_one_test() -> None:
    """With 2 players the seat table showed twice the headline p-value: the two seats' tests (one
    test, seat 1 winning alone whenever seat 0 does not) were Holm-adjusted as if independent."""
    b = balance(
        "trafficars_overtaking",
        players=2,
        games=400,
        seed=1,
        trace_games=0,
        weaker=None,
        progress=False,
    )
    from scipy import stats

    sole = [s.sole_wins for s in b.seats]
    exact = stats.binomtest(sole[0], sum(sole), 0.5).pvalue
    assert b.seat_p_value == pytest.approx(exact) and b.seat_p_value < 0.05
    assert [s.p_value for s in b.seats] == [b.seat_p_value, b.seat_p_value]


def test_balance_of_a_symmetric_game_shows_no_seat_advantage() -> None:
    # goofspiel's seats differ only by who bids first, and bids stay hidden until both are in.
    b = balance(
        "goofspiel",
        players=2,
        bot="random",
        games=3000,
        seed=2,
        trace_games=30,
        weaker=None,
        progress=False,
    )
    assert b.seat_p_value > 0.01
    assert b.luck is None
    assert b.length.mean.value == 24
    assert all(0 <= x <= 1 for x in b.decided.values)


# --- sweeps ------------------------------------------------------------------------------------


def test_sweep_rows_reproduce_from_their_seed(tmp_path: Any) -> None:
    import pyarrow.parquet as pq

    s = sweep(
        "trafficars",
        players=3,
        grid={"lanes": [2, 3], "max_cars": [3, None]},
        games=60,
        seed=9,
        progress=False,
        hand_size=6,
    )
    assert len(s.points) == 4 and len(s.rows) == 4 * 3 * 3
    s.to_parquet(tmp_path / "sweep.parquet")
    rows = pq.read_table(tmp_path / "sweep.parquet").to_pylist()
    assert rows == s.rows
    for row in rows[::5]:
        r = cardtable.simulate(
            "trafficars",
            players=3,
            games=row["games"],
            bots=split_bot_specs(row["lineup"]),
            seed=row["seed"],
            progress=False,
            hand_size=6,
            lanes=row["lanes"],
            max_cars=row["max_cars"],
        )
        assert r.seats[row["seat"]].wins == row["wins"]
        assert r.seats[row["seat"]].score_mean == pytest.approx(row["score_mean"])
    assert "win rate: greedy" in s.summary_table()


def test_sweep_rejects_bad_grids() -> None:
    with pytest.raises(cardtable.InvalidOptionError):
        sweep("trafficars", players=3, grid={}, games=10, progress=False)
    with pytest.raises(cardtable.InvalidOptionError):
        sweep("trafficars", players=3, grid={"lanes": [2, 9]}, games=10, progress=False)
    with pytest.raises(cardtable.InvalidOptionError):
        sweep("trafficars", players=3, grid={"lanes": [2]}, games=10, progress=False, lanes=3)


def test_a_rare_win_gets_an_interval_no_narrower_than_no_win() -> None:
    # One win in 12,000 seat-games (1,000 deals of 12): the t interval over deals was about
    # 0.000%–0.025%, narrower than the Wilson interval that no win at all got (0.0%–0.4%).
    deals = np.repeat(np.arange(1000), 12)
    none = cluster_mean(np.zeros(12000), deals, share=True)
    wins = np.zeros(12000)
    wins[5] = 1
    one = cluster_mean(wins, deals, share=True)
    assert none.low == 0.0 < one.low and 0.0 < none.high < one.high
    # Shown with the digits that tell them apart (they read 0.0% (0.0–0.0%) alike).
    assert none.fmt(3, percent=True) == "0.0% (0.00–0.03%)"
    assert one.fmt(3, percent=True) == "0.0% (0.00–0.05%)"
    # The upper end never falls as wins rise.
    highs = []
    for won in range(40):
        wins = np.zeros(12000)
        wins[np.arange(won) * 37] = 1
        highs.append(cluster_mean(wins, deals, share=True).high)
    assert highs == sorted(highs)
    # Away from 0 and 1 it is the t interval over deals, within a few parts in a thousand.
    rng = np.random.default_rng(0)
    common = rng.random(4000) < 0.25
    e = cluster_mean(common, np.repeat(np.arange(1000), 4), share=True)
    t = clip(mean_estimate(common.reshape(1000, 4).mean(axis=1)), 0.0, 1.0)
    assert e.value == t.value and (e.low, e.high) == pytest.approx((t.low, t.high), abs=1e-3)


def test_summary_titles_name_the_options_that_differ_from_the_defaults() -> None:
    # Two runs with -o days=5 and -o days=6 printed the same title.
    short = tournament(
        "deep_regrets", players=2, bots=["greedy", "random"], games=2, days=5, progress=False
    )
    assert "deep_regrets, 2 players, options days=5, 2 seat assignments" in short.summary_table()
    usual = tournament(
        "deep_regrets", players=2, bots=["greedy", "random"], games=2, days=6, progress=False
    )
    assert "deep_regrets, 2 players, 2 seat assignments" in usual.summary_table()
    b = balance(
        "turn_the_tide", players=3, games=20, progress=False, rounds=2, trace_games=0, weaker=None
    )
    assert "turn_the_tide, 3 × greedy, options rounds=2, 20 games" in b.summary_table()
    s = sweep(
        "goofspiel",
        players=2,
        grid={"num_cards": [4, 5]},
        games=5,
        rotate_seats=False,
        progress=False,
    )
    assert ", 1 seat assignment × 5 deals per option set" in s.summary_table()


def test_head_to_head_shows_its_intervals_to_a_tenth_of_a_point() -> None:
    # The report's heat map printed 99.6% as "100%" and no interval anywhere but the JSON.
    t = tournament("goofspiel", players=2, bots=["greedy", "random"], games=40, progress=False)
    ahead = t.head_to_head[0][1]
    assert ahead is not None
    html = t.report().render()
    # Each line of a cell is an SVG text element of its own.
    assert f">{100 * ahead.value:.1f}%<" in html
    assert f">({100 * ahead.low:.1f}–{100 * ahead.high:.1f})<" in html
    assert ahead.fmt(3, percent=True) in t.summary_table()


def test_sweep_refuses_a_value_listed_twice() -> None:
    for values in ([5, 5], [5, 6, 5.0]):
        with pytest.raises(cardtable.InvalidOptionError, match=r"grid\['days'\] lists 5"):
            sweep("deep_regrets", players=2, grid={"days": values}, games=4, progress=False)


def _sweep_of_an_option_that_changes_nothing(games: int) -> SweepResult:
    """With three players a round ends as soon as two remain, so the recheck after an elimination
    never happens: the option changes nothing, and on the same deals nothing differs."""
    return sweep(
        "turn_the_tide",
        players=3,
        grid={"recheck_after_elimination": [True, False]},
        bots=["greedy", "random", "random"],
        games=games,
        seed=7,
        progress=False,
    )


def test_sweep_plays_the_same_deals_for_every_option_set() -> None:
    s = _sweep_of_an_option_that_changes_nothing(40)
    first, second = s.points
    assert first.seed == second.seed == 7
    assert first.metrics == second.metrics
    html = s.report().render()
    summary = html[html.index("What changes") : html.index("All option sets")]
    assert "The same in every option set" in summary and "from " not in summary
    assert "A plot per metric" not in html  # no metric changes: no plots of them
    # An option that does change the game is still reported as a change.
    changed = sweep(
        "turn_the_tide", players=3, grid={"rounds": [1, 2]}, games=40, seed=7, progress=False
    )
    html = changed.report().render()
    d = changed.difference(1, 0, "mean length").paired
    assert f"mean length</strong>: {changed.points[0].metrics['mean length'].fmt(2)} with " in html
    assert f"rounds 1 → 2: {d.fmt(2)}, <strong>clear</strong>" in html
    assert "A plot per metric that changes" in html
    # Values are written as -o reads them (null, true), not as Python prints them, and a null
    # the game plays as a number says which.
    nulls = sweep(
        "turn_the_tide", players=3, grid={"rounds": [None, 1]}, games=10, seed=7, progress=False
    )
    assert nulls.points[0].effective == {"rounds": 3} and nulls.points[1].effective == {}
    page = nulls.report().render()
    assert "rounds ∈ {null, 1}" in page and "None" not in page
    assert '<th scope="row"><span class="name">null (= 3)</span></th>' in page
    assert '<th scope="row"><span class="name">1</span></th>' in page
    assert "rounds=null plays as rounds=3 here." in page
    text = nulls.summary_table()
    assert "None" not in text and "rounds=null plays as rounds=3 here." in text
    # One option set: nothing to compare.
    one = sweep("turn_the_tide", players=3, grid={"rounds": [1]}, games=10, progress=False)
    page = one.report().render()
    assert "One option set:" in page and "The same in every option set" not in page


def _goofspiel_card_sweep(**kw: Any) -> SweepResult:
    """Greedy against random at goofspiel with 4 and with 6 cards, on 200 deals."""
    settings: dict[str, Any] = {
        "grid": {"num_cards": [4, 6]},
        "bots": ["greedy", "random"],
        "games": 200,
        "seed": 3,
        **kw,
    }
    return sweep("goofspiel", players=2, progress=False, **settings)


def test_sweep_difference_is_paired_by_deal() -> None:
    from scipy import stats

    s = _goofspiel_card_sweep()
    for metric in s.metrics:
        d = s.difference({"num_cards": 6}, {"num_cards": 4}, metric)
        expected = s.points[1].metrics[metric].value - s.points[0].metrics[metric].value
        assert d.paired.value == pytest.approx(expected, abs=1e-12)
        assert d.unpaired.value == pytest.approx(expected, abs=1e-12)
        assert (d.a, d.b, d.metric) == ("num_cards=6", "num_cards=4", metric)
        assert d.paired.n == 200 and d.unpaired.n == 400
        back = s.difference(0, 1, metric)
        assert (back.paired.value, back.paired.low) == (-d.paired.value, -d.paired.high)
    # The per-game arrays of the same runs, from simulate: deal g is game g of every lineup.
    greedy_wins, game_margins = [], []
    for cards in (4, 6):
        wins, margin = [], []
        for lineup in s.lineups:
            r = cardtable.simulate(
                "goofspiel",
                players=2,
                games=200,
                bots=list(lineup),
                seed=3,
                progress=False,
                num_cards=cards,
            )
            assert r.winners is not None and r.scores is not None
            wins.append(r.winners[:, lineup.index("greedy")].astype(float))
            margin.append(margins(r.scores, r.winners, True))
        greedy_wins.append(np.mean(wins, axis=0))
        game_margins.append(np.mean(margin, axis=0))
    for metric, per_deal in (("win rate: greedy", greedy_wins), ("mean margin", game_margins)):
        diff = per_deal[1] - per_deal[0]
        half = stats.t.ppf(0.975, diff.size - 1) * diff.std(ddof=1) / math.sqrt(diff.size)
        d = s.difference(1, 0, metric)
        if metric == "mean margin":  # a mean: the t interval over deals
            assert (d.paired.low, d.paired.high) == pytest.approx(
                (diff.mean() - half, diff.mean() + half)
            )
        else:  # a share: Tango's interval at the effective deals, near the t interval here
            tango = paired_share_difference(per_deal[1], per_deal[0])
            assert (d.paired.low, d.paired.high) == pytest.approx((tango.low, tango.high))
            assert d.paired.high - d.paired.low == pytest.approx(2 * half, rel=0.1)
        ci = stats.ttest_ind(per_deal[1], per_deal[0], equal_var=False).confidence_interval()
        if metric == "mean margin":  # a mean: Welch's interval
            assert (d.unpaired.low, d.unpaired.high) == pytest.approx((ci.low, ci.high))
        else:  # a share: Newcombe's, near Welch's away from the edges
            newcombe = unpaired_share_difference(per_deal[1], per_deal[0])
            assert (d.unpaired.low, d.unpaired.high) == pytest.approx((newcombe.low, newcombe.high))
            assert d.unpaired.high - d.unpaired.low == pytest.approx(ci.high - ci.low, rel=0.1)
    # greedy's win rate is a share: the first metric, and the default.
    assert s.difference(1, 0) == s.difference(1, 0, "win rate: greedy")


def test_sweep_difference_of_identical_option_sets_is_exactly_zero() -> None:
    s = _sweep_of_an_option_that_changes_nothing(100)
    for d in s.differences:
        assert d.paired.value == 0.0 and d.paired.no_spread and not clear(d.paired)
        if d.metric.startswith("win rate") or d.metric in ("seat 0 advantage", "shared wins"):
            # A share's interval (Tango's) keeps its width; seat 0's advantage is a mean.
            assert d.paired.low < 0 < d.paired.high or d.metric == "seat 0 advantage"
        else:
            assert (d.paired.low, d.paired.high) == (0.0, 0.0)
        assert d.unpaired.value == 0.0
    # Unpaired, the deals' luck stays in the interval.
    assert s.difference(1, 0, "mean length").unpaired.high > 0


def test_sweep_difference_refuses_bad_arguments() -> None:
    s = _goofspiel_card_sweep(games=4)
    choices = "numbered 0..1 in grid order and named by the values of their swept options: "
    cases: list[tuple[Callable[[], object], str]] = [
        (lambda: s.difference(2, 0), "a: there is no option set 2; the option sets are"),
        (lambda: s.difference(0, -1), "b: there is no option set -1"),
        (lambda: s.difference(True, 0), "a must name an option set, got True"),
        (lambda: s.difference("num_cards=4", 0), "got 'num_cards=4'"),  # type: ignore[arg-type]
        (lambda: s.difference({"cards": 4}, 0), "a: 'cards' is not a swept option"),
        (lambda: s.difference({"num_cards": 5}, 0), "a: no option set has num_cards=5"),
        (lambda: s.difference(0, {"num_cards": 4}), "two different option sets, got num_cards=4"),
        (lambda: s.difference(0, 1, "elo"), "metric must be one of 'win rate: greedy', "),
        (lambda: s.difference(0, 1, "win rate"), "'mean length', 'mean margin', 'shared wins'"),
    ]
    for call, message in cases:
        with pytest.raises(cardtable.InvalidOptionError) as err:
            call()
        assert message in str(err.value)
        if "option set" in message and "different" not in message:
            assert choices + "num_cards ∈ {4, 6}" in str(err.value)
    grid: dict[str, list[Any]] = {"lanes": [2, 3], "max_cars": [3, 4]}
    t = sweep("trafficars", players=3, grid=grid, games=4, progress=False)
    with pytest.raises(cardtable.InvalidOptionError, match="lanes=3 fits 2 option sets; give "):
        t.difference({"lanes": 3}, 0)
    assert t.difference({"lanes": 3, "max_cars": 4}, {"lanes": np.int64(2), "max_cars": 4}) == (
        t.difference(3, 1)
    )


def test_sweep_outputs_show_the_differences_from_the_baseline() -> None:
    import json

    s = _goofspiel_card_sweep(games=50)
    assert s.baseline == 0
    assert [(d.a, d.b) for d in s.differences] == [("num_cards=6", "num_cards=4")] * 6
    text = s.summary_table()
    assert "differences from the baseline num_cards=4: option set − baseline, paired by" in text
    assert _fmt_row(s.difference(1, 0, "mean length")) in text
    d = s.to_dict()
    assert json.loads(json.dumps(d, allow_nan=False)) == d
    assert d["baseline"] == 0 and len(d["differences"]) == 6
    first = d["differences"][0]
    assert (first["a"], first["b"], first["metric"]) == ("num_cards=6", "num_cards=4", s.metrics[0])
    assert first["paired"] == s.differences[0].paired.to_dict()
    assert "per_deal" not in d["points"][0]
    html = s.report().render()
    assert "Differences from the baseline (num_cards=4)" in html
    assert "num_cards 4 → 6: " in html
    # Another baseline: the differences from it.
    other = _goofspiel_card_sweep(games=50, baseline={"num_cards": 6})
    assert other.baseline == 1 and other.differences[0].b == "num_cards=6"
    assert "differences from the baseline num_cards=6" in other.summary_table()
    assert "Differences from the baseline (num_cards=6)" in other.report().render()
    # One option set: nothing to compare.
    one = _goofspiel_card_sweep(games=4, grid={"num_cards": [4]})
    assert one.differences == [] and "differences from" not in one.summary_table()
    assert one.to_dict()["differences"] == []


def _fmt_row(d: Any) -> str:
    """The summary's cell of a difference of mean lengths: the same in every deal (goofspiel's
    length is fixed by its cards), so no interval but the deals it rests on."""
    assert d.paired.no_spread and d.paired.low == d.paired.high
    return f"{d.paired.value:+.2f} (all {d.paired.n} deals alike)"


@pytest.mark.parametrize(
    ("baseline", "message"),
    [
        (2, "baseline: there is no option set 2"),
        ({"num_cards": 5}, "baseline: no option set has num_cards=5"),
        # 4.0 was taken for the option set num_cards=4, a value the game itself refuses.
        ({"num_cards": 4.0}, "baseline: no option set has num_cards=4.0"),
        ({"cards": 4}, "baseline: 'cards' is not a swept option"),
        ("num_cards=4", "baseline must name an option set"),
    ],
)
def test_sweep_refuses_a_bad_baseline_before_playing(
    baseline: object, message: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    _refused_before_the_progress_bar(
        monkeypatch, lambda: _goofspiel_card_sweep(games=4, baseline=baseline), message
    )


def _refused_before_the_progress_bar(
    monkeypatch: pytest.MonkeyPatch, study: Callable[[], object], match: str
) -> None:
    """``study()`` raises InvalidOptionError matching ``match`` before any progress bar starts."""
    started: list[object] = []

    def enter(bar: _runs.Progress) -> _runs.Progress:
        started.append(bar)
        return bar

    monkeypatch.setattr(_runs.Progress, "__enter__", enter)
    with pytest.raises(cardtable.InvalidOptionError, match=match):
        study()
    assert started == []


def test_sweep_command_prints_the_differences() -> None:

    args = ["sweep", "goofspiel", "-p", "2", "--grid", "num_cards=4,6", "-n", "50", "--no-progress"]
    output = run_cli(*args)
    assert "differences from the baseline num_cards=4" in output
    s = _goofspiel_card_sweep(games=50, bots=None)
    assert _fmt_row(s.difference(1, 0, "mean length")) in output
    output = run_cli(*args, "--baseline", "num_cards=6")
    assert "differences from the baseline num_cards=6" in output
    output = run_cli(*args, "--baseline", "num_cards=5", exit_code=2)
    assert "no option set has num_cards=5" in output and "num_cards ∈ {4, 6}" in output


def test_sweep_measures_seat_0_against_the_equal_share() -> None:
    """Seat 0's advantage is its win rate minus the share every seat would win were all equal.

    More shared wins raise every seat's win rate alike: seat 0's win rate rose with them (from
    10% to 100% here, every game of the last variant a tie), its advantage does not.
    """
    grid: dict[str, list[Any]] = {"too_low": ["take", "insert"], "max_cars": [4, None]}
    s = sweep(
        "trafficars", players=4, bots=["greedy"], grid=grid, games=100, seed=1, progress=False
    )
    assert "seat 0 advantage" in s.metrics and "seat 0 win rate" not in s.metrics
    per_deal = []
    for point in s.points:
        r = cardtable.simulate(
            "trafficars",
            players=4,
            games=100,
            bots=["greedy"] * 4,
            seed=1,
            progress=False,
            **point.options,
        )
        assert r.winners is not None
        w = r.winners.astype(float)
        advantage = w[:, 0] - w.sum(axis=1) / 4  # seat 0's win minus the game's equal share
        e = point.metrics["seat 0 advantage"]
        assert isinstance(e, Difference)
        assert e.value == pytest.approx(advantage.mean(), abs=1e-12)
        assert (e.low, e.high) == pytest.approx(
            (mean_estimate(advantage).low, mean_estimate(advantage).high)
        )
        per_deal.append(advantage)
    tie = s.points[3]  # too_low=insert, max_cars=null: every game a tie of all four
    assert tie.metrics["shared wins"].value == 1.0
    assert (tie.metrics["seat 0 advantage"].value, tie.per_deal["seat 0 advantage"].max()) == (0, 0)
    # The paired difference of the new metric is the t interval over deals of its difference.
    d = s.difference(3, 0, "seat 0 advantage")
    expected = mean_estimate(per_deal[3] - per_deal[0])
    assert (d.paired.value, d.paired.low, d.paired.high) == pytest.approx(
        (expected.value, expected.low, expected.high)
    )
    assert "seat 0 advantage: seat 0's win rate minus the share each seat would win" in str(s)
    # Not rotated, seat 0 always holds the first bot: its advantage is partly that bot's strength.
    fixed = sweep(
        "trafficars",
        players=3,
        grid={"lanes": [2, 3]},
        bots=["greedy", "random", "random"],
        rotate_seats=False,
        games=10,
        progress=False,
    )
    said = "Seat 0 holds greedy in every game (the seats are not rotated), so its advantage"
    assert said in " ".join(str(fixed).split()) and said in unescape(fixed.report().render())


def test_sweep_effects_are_each_options_own() -> None:
    """``highest_chooses_tide`` only changes how many decisions a mirrored game takes: its own
    effect on everything else is exactly 0, however much the other option moves it."""
    grid: dict[str, list[Any]] = {
        "highest_chooses_tide": [False, True],
        "recheck_after_elimination": [True, False],
    }
    s = sweep(
        "turn_the_tide", players=4, bots=["greedy"], grid=grid, games=200, seed=2, progress=False
    )
    effects = {(e.a, e.metric): e for e in s.effects}
    assert len(s.effects) == 2 * len(s.metrics)
    for metric in s.metrics:
        own = effects[("highest_chooses_tide=true", metric)]
        assert own.b == "highest_chooses_tide=false"
        if metric == "mean length":
            assert own.paired.low > 0
        else:
            assert own.paired.value == 0 and own.paired.no_spread and not clear(own.paired)
            # A mean's interval has no width; a share's (Tango's) never collapses.
            width = 0 if metric != "shared wins" else pytest.approx(0.0377, abs=1e-3)
            assert own.paired.high - own.paired.low == width, metric
        # The main effect: the mean over the other option's values of the two option sets'
        # difference, paired by deal over the per-deal means averaged on each side.
        other = effects[("recheck_after_elimination=false", metric)]
        m = {tuple(p.options.values()): p for p in s.points}
        value = (
            m[(False, False)].metrics[metric].value
            + m[(True, False)].metrics[metric].value
            - m[(False, True)].metrics[metric].value
            - m[(True, True)].metrics[metric].value
        ) / 2
        assert other.paired.value == pytest.approx(value, abs=1e-12)
        a = (m[(False, False)].per_deal[metric] + m[(True, False)].per_deal[metric]) / 2
        b = (m[(False, True)].per_deal[metric] + m[(True, True)].per_deal[metric]) / 2
        share = metric == "shared wins"
        assert other.paired == paired_estimate(a, b, share=share)
        unpaired = welch_difference(a, b)
        assert other.unpaired.value == pytest.approx(unpaired.value)
    html = s.report().render()
    for metric in ("seat 0 advantage", "mean margin", "shared wins"):
        start = html.index(f"<strong>{metric}</strong>:")
        finding = html[start : html.index("</li>", start)]
        assert "highest_chooses_tide false → true: 0.0" in finding
        assert "not distinguishable" in finding.split(";")[0]
    changes = html[html.index("What changes") : html.index("Differences from the baseline")]
    assert "averaged over the values of the other options" in changes
    assert "(highest_chooses_tide=false, recheck" not in changes  # no option set is named
    text = str(s)
    assert "each option's own effect: its value − its first value, averaged over" in text
    assert "highest_chooses_tide: true − false" in text
    assert s.to_dict()["effects"] == json_value(s.effects)
    # One swept option: its effects are the differences from its first value.
    one = _goofspiel_card_sweep(games=50)
    assert one.effects == one.differences
    assert "each option's own effect" not in str(one)


def test_sweep_of_one_bot_gives_no_win_rate_and_warns_of_ties() -> None:
    grid: dict[str, list[Any]] = {"too_low": ["take", "insert"], "max_cars": [4, None]}
    s = sweep(
        "trafficars", players=4, bots=["greedy"], grid=grid, games=100, seed=1, progress=False
    )
    assert s.metrics == ["seat 0 advantage", "mean length", "mean margin", "shared wins"]
    assert s.difference(1, 0).metric == "seat 0 advantage"
    warning = "Degenerate: nearly every game ends in a shared win: 100.0% (96.2–100.0%) in "
    page = unescape(s.report().render()).replace("<strong>", "").replace("</strong>", "")
    for text in (str(s), page):
        assert "With greedy in every seat, a bot's win rate would only be the share" in text
        assert warning + "too_low=insert, max_cars=null. A tie decides nothing" in text
        assert "win rate: greedy" not in text and "wins nearly every game" not in text
    fair = sweep(
        "trafficars", players=4, bots=["greedy"], grid={"max_cars": [4]}, games=40, progress=False
    )
    assert "Degenerate" not in str(fair) and "Degenerate" not in fair.report().render()


def test_sweep_warns_of_a_bot_that_wins_nearly_every_game() -> None:
    always = sweep(
        "turn_the_tide",
        players=4,
        grid={"highest_chooses_tide": [True]},
        games=200,
        seed=2,
        progress=False,
    )
    assert always.points[0].metrics["win rate: greedy"].value > 0.95
    said = "greedy wins nearly every game in every option set (at least 95%). Its win rate"
    assert said in str(always) and f"<strong>{said[:29]}</strong>{said[29:]}" in (
        always.report().render()
    )
    often = sweep("turn_the_tide", players=4, grid={"rounds": [2, 4]}, games=200, progress=False)
    assert max(p.metrics["win rate: greedy"].value for p in often.points) < 0.95
    assert "nearly every game" not in str(often)


def test_sweep_names_its_default_lineup() -> None:
    s = sweep("goofspiel", players=2, grid={"num_cards": [3, 4]}, games=10, progress=False)
    assert s.default_bots and s.bots == ["greedy", "random"]
    said = "No bots were given: the default lineup, greedy (the game's heuristic bot) against"
    assert said in str(s)
    report = s.report()
    assert report.subtitle.startswith(
        "Bots greedy, random (the default lineup, as no bots were given: the game's heuristic "
        "bot against random players) in 2 seat assignments"
    )
    assert "--bots" not in report.footer  # run again, it seats the default lineup again
    given = sweep(
        "goofspiel",
        players=2,
        grid={"num_cards": [3, 4]},
        bots=["greedy", "random"],
        games=10,
        progress=False,
    )
    assert not given.default_bots and "default lineup" not in str(given)
    assert "default lineup" not in given.report().render() and "--bots" in given.report().footer
    assert given.points == s.points


def test_differences_are_written_with_their_sign_in_points() -> None:
    d = Difference(-0.631, -0.729, -0.534, 50)
    assert d.fmt(3, percent=True) == "-63.1 pts (-72.9…-53.4)"
    assert d.fmt(2) == "-0.63 (-0.73…-0.53)"
    assert Difference(0.05, math.nan, math.nan, 1).fmt(3, percent=True) == "+5.0 pts"
    # A number that rounds to zero has no sign: no "-0.0".
    tiny = Estimate(-1e-5, -4e-4, 3e-5, 10)
    assert difference_text(tiny, percent=True) == "0.0 pts (0.0…0.0)"
    assert difference_text(Estimate(-0.004, -0.02, 0.004, 10)) == "0.00 (-0.02…0.00)"
    # An interval that excludes zero does not read as touching it: it was "(0.0…+8.4)".
    assert difference_text(Estimate(0.042, 4e-5, 0.084, 50), True) == "+4.2 pts (+0.004…+8.4)"
    assert difference_text(Estimate(-0.42, -0.74, -1e-5, 50)) == "-0.42 (-0.74…-0.00001)"
    t = _goofspiel_tournament(games=20, rating_bootstrap=0)
    paired = t.difference("greedy", "random").paired
    assert isinstance(paired, Difference) and paired.fmt(3, percent=True).endswith(")")
    assert " pts (" in paired.fmt(3, percent=True) and "%" not in paired.fmt(3, percent=True)
    assert "-0.0" not in str(t) and "-0.00" not in str(_goofspiel_card_sweep(games=30))


# --- every game ------------------------------------------------------------------------------


def study_case(game_id: str) -> tuple[int, dict[str, list[Any]]]:
    """The players (the scenario file's small game's) and the sweep grid of the smoke test of
    every study: ``GAME.sweep_grid``, else the game's first bool or choice option."""
    test_info = all_games()[game_id]
    players = int(test_info.small_game()["players"])
    if test_info.sweep_grid is not None:
        return players, test_info.sweep_grid
    info = next(g for g in cardtable.games() if g.id == game_id)
    for option in info.options:
        if option.type == "bool":
            return players, {option.name: [option.default, not option.default]}
        if len(option.choices) >= 2:
            return players, {option.name: list(option.choices[:2])}
    assert not info.options, (
        f"say in GAME.sweep_grid of tests/games/{game_id}.py which option values the sweep of "
        "the study smoke test runs"
    )
    return players, {}


@pytest.mark.parametrize("game_id", sorted(g.id for g in cardtable.games()))
def test_every_study_runs_on_every_game(game_id: str) -> None:
    players, grid = study_case(game_id)
    info = next(g for g in cardtable.games() if g.id == game_id)
    t = tournament(
        game_id,
        players=players,
        bots=list(info.bots[:2]),
        games=12,
        seed=1,
        progress=False,
        rating_bootstrap=50,
    )
    assert sum(r.seat_games for r in t.results) == 12 * len(t.lineups) * players
    t.report().render()
    b = balance(
        game_id, players=players, games=40, trace_games=4, luck_games=6, seed=1, progress=False
    )
    assert len(b.traced) >= 1
    assert b.to_arrow().num_rows == 40
    b.report().render()
    if grid:
        s = sweep(game_id, players=players, grid=grid, games=8, seed=1, progress=False)
        assert len(s.rows) == 2 * len(s.lineups) * players
        s.report().render()


# --- command line ------------------------------------------------------------------------------


def test_cli_writes_json_and_parquet(tmp_path: Any) -> None:
    import json

    import pyarrow.parquet as pq
    from click.testing import CliRunner

    from cardtable.cli import main

    output = run_cli(
        "tournament",
        "goofspiel",
        "-p",
        "2",
        "-b",
        "greedy,random",
        "-n",
        "30",
        "--rating-bootstrap",
        "50",
        "-o",
        "num_cards=5",
        "--no-progress",
        "--json",
        "-",
    )
    data = json.loads(output)
    assert data["kind"] == "tournament" and data["options"] == {"num_cards": 5}
    assert [b["bot"] for b in data["bots"]] == ["greedy", "random"]
    pq_path, js = tmp_path / "b.parquet", tmp_path / "b.json"
    output = run_cli(
        "balance",
        "trafficars_overtaking",
        "-p",
        "3",
        "-n",
        "50",
        "--trace-games",
        "5",
        "--no-progress",
        "--json",
        str(js),
        "--parquet",
        str(pq_path),
    )
    assert "won alone" in output and json.loads(js.read_text())["games"] == 50
    assert pq.read_table(pq_path).num_rows == 50
    run_cli(
        "sweep",
        "goofspiel",
        "-p",
        "2",
        "--grid",
        "num_cards=3,4",
        "-n",
        "10",
        "--no-progress",
        "--parquet",
        str(pq_path),
    )
    assert pq.read_table(pq_path).num_rows == 2 * 2 * 2
    runner = CliRunner()
    bad = runner.invoke(main, ["sweep", "goofspiel", "-p", "2", "--grid", "num_cards", "-n", "10"])
    assert bad.exit_code != 0
    bad = runner.invoke(main, ["tournament", "goofspiel", "-p", "2", "-b", "greedy", "-n", "10"])
    assert bad.exit_code != 0 and "two distinct bots" in bad.output


def test_study_commands_write_their_tables_as_csv(tmp_path: Path) -> None:
    import csv

    import pyarrow.parquet as pq

    for study in ("tournament", "balance", "sweep"):
        parquet, table_csv = tmp_path / f"{study}.parquet", tmp_path / f"{study}.csv"
        extra = ["--trace-games", "2"] if study == "balance" else []
        output = run_cli(
            *STUDY_COMMANDS[study],
            "--no-progress",
            *extra,
            "--parquet",
            str(parquet),
            "--csv",
            str(table_csv),
        )
        assert f"wrote {table_csv}" in output
        expected = pq.read_table(parquet).to_pylist()
        with table_csv.open(newline="", encoding="utf-8") as f:
            rows = list(csv.DictReader(f))
        assert len(rows) == len(expected) and list(rows[0]) == list(expected[0])
        for row, want in zip(rows, expected, strict=True):
            for key, value in want.items():
                cell = row[key]
                if value is None or (isinstance(value, float) and math.isnan(value)):
                    assert cell == "", (study, key)  # undefined or missing: an empty cell
                elif isinstance(value, bool):
                    assert cell == str(value).lower(), (study, key)
                elif isinstance(value, int | float):
                    assert float(cell) == pytest.approx(value), (study, key)
                else:
                    assert cell == value, (study, key)


@pytest.mark.parametrize(
    "study",
    [
        lambda: tournament("goofspiel", players=2, bots=["greedy", "nosuch"], games=2),
        lambda: balance("deep_regrets", players=2, bot="greedy:2", games=3),
        lambda: balance("turn_the_tide", players=3, bot="greedy", weaker="nosuch", games=3),
        lambda: sweep(
            "trafficars",
            players=3,
            grid={"lanes": [2, 3]},
            bots=["greedy:99", "random", "random"],
            games=10,
        ),
    ],
    ids=["tournament", "balance", "balance-weaker", "sweep"],
)
def test_studies_reject_bad_bots_before_the_progress_bar(
    study: Callable[[], object], monkeypatch: pytest.MonkeyPatch
) -> None:
    """A bad bot name or parameter is an error before the progress bar starts, not after."""
    _refused_before_the_progress_bar(monkeypatch, study, "bot")


# --- findings, report footers, bad input -------------------------------------------------------


def test_close_games_are_counted_from_the_exact_margins() -> None:
    # 40 cards: far more than 60 distinct margins, so the margin distribution is binned.
    b = balance(
        "goofspiel",
        players=2,
        bot="random",
        weaker=None,
        games=600,
        trace_games=0,
        progress=False,
        num_cards=40,
    )
    assert len(b.margin.values) == 40  # bins, not values
    exact = margins(b.runs.scores[0], b.runs.winners[0], True)
    alone = b.runs.winners[0].sum(axis=1) == 1  # a draw is no close game: counted apart
    close, decided = int((exact[alone] <= 1).sum()), int(alone.sum())
    assert 0 < close < 60 and b.close_games.value == close / decided
    said = f"of the others {100 * close / decided:.1f}% are decided by at most one point"
    assert said in " ".join(b.summary_table(width=400).split())


def _reproduced(result: Any) -> None:
    """The report footer's command gives ``result`` again (but for its timing)."""
    import json
    import shlex

    command = result.report().footer.split("Reproduce with `")[1].split("`")[0]
    words = shlex.split(command)
    assert words[0] == "cardtable"
    again = json.loads(run_cli(*words[1:], "--no-progress", "--json", "-"))
    assert _without_time(again) == _without_time(result.to_dict())


def test_tournament_footer_reproduces_the_run() -> None:
    bots = ["greedy", "random", "random", "random"]
    kw: dict[str, Any] = {"games": 12, "seed": 3, "progress": False, "too_low": "insert"}
    _reproduced(tournament("trafficars", players=4, bots=bots, rating_bootstrap=50, **kw))
    _reproduced(
        tournament("trafficars", players=4, bots=bots, duplicate=False, rating_games=9, **kw)
    )
    _reproduced(tournament("trafficars", players=3, bots=bots[:3], rotate_seats=False, **kw))


def test_balance_and_sweep_footers_reproduce_the_run() -> None:
    _reproduced(balance("goofspiel", players=2, games=30, seed=4, trace_games=3, progress=False))
    _reproduced(
        balance("goofspiel", players=2, games=30, trace_games=50, luck_games=7, progress=False)
    )
    _reproduced(balance("goofspiel", players=2, games=30, weaker=None, progress=False))
    grid: dict[str, list[Any]] = {"lanes": [2, 3], "max_cars": [3, None]}
    bots = ["random", "greedy", "random"]
    kw: dict[str, Any] = {"games": 6, "seed": 5, "progress": False, "hand_size": 5}
    _reproduced(sweep("trafficars", players=3, grid=grid, bots=bots, rotate_seats=False, **kw))
    _reproduced(sweep("trafficars", players=3, grid={"too_low": ["take", "insert"]}, **kw))
    base = {"lanes": 3, "max_cars": None}
    _reproduced(sweep("trafficars", players=3, grid=grid, bots=bots, baseline=base, **kw))


def _goofspiel_tournament(**kw: Any) -> TournamentResult:
    return tournament("goofspiel", players=2, bots=["greedy", "random"], progress=False, **kw)


def _goofspiel_balance(**kw: Any) -> Any:
    return balance("goofspiel", players=2, progress=False, **kw)


def _goofspiel_sweep(**kw: Any) -> Any:
    return sweep("goofspiel", players=2, progress=False, **{"grid": {"num_cards": [3]}, **kw})


BAD_INPUTS: dict[str, Callable[[], object]] = {
    "sweep seed True": lambda: _goofspiel_sweep(games=4, seed=True),
    "sweep seed 2**64": lambda: _goofspiel_sweep(games=4, seed=2**64),
    "sweep seed -1": lambda: _goofspiel_sweep(games=4, seed=-1),
    "sweep seed 1.0": lambda: _goofspiel_sweep(games=4, seed=1.0),
    "balance seed 1.0": lambda: _goofspiel_balance(games=4, seed=1.0),
    "tournament seed -1": lambda: _goofspiel_tournament(games=4, seed=-1, duplicate=False),
    "tournament seed 2**64": lambda: _goofspiel_tournament(games=4, seed=2**64, duplicate=False),
    "games 3.0": lambda: _goofspiel_tournament(games=3.0),
    "threads 0": lambda: _goofspiel_balance(games=4, threads=0),
    "duplicate 1": lambda: _goofspiel_tournament(games=4, duplicate=1),
    "rating_bootstrap -5": lambda: _goofspiel_tournament(games=4, rating_bootstrap=-5),
    "rating_bootstrap 1.5": lambda: _goofspiel_tournament(games=4, rating_bootstrap=1.5),
    "rating_bootstrap 1": lambda: _goofspiel_tournament(games=4, rating_bootstrap=1),
    "rating_games 0": lambda: _goofspiel_tournament(games=4, rating_games=0),
    "rating_games -5": lambda: _goofspiel_tournament(games=4, rating_games=-5),
    "grid value 3": lambda: _goofspiel_sweep(games=4, grid={"num_cards": 3}),
    "grid of pairs": lambda: _goofspiel_sweep(games=4, grid=[("num_cards", [3])]),
    "grid value string": lambda: _goofspiel_sweep(games=4, grid={"num_cards": "34"}),
    "grid no values": lambda: _goofspiel_sweep(games=4, grid={"num_cards": iter([])}),
    "replay one bot": lambda: replay("goofspiel", 2, ["random"], 0, 0),
    "replay game -1": lambda: replay("goofspiel", 2, ["random", "random"], 0, -1),
    "replay seed 2**64": lambda: replay("goofspiel", 2, ["random", "random"], 2**64, 0),
    "trace_games -1": lambda: _goofspiel_balance(games=4, trace_games=-1),
    "trace_games 1.5": lambda: _goofspiel_balance(games=4, trace_games=1.5),
    "trace_games True": lambda: _goofspiel_balance(games=4, trace_games=True),
    "luck_games -1": lambda: _goofspiel_balance(games=4, luck_games=-1),
    "luck_games 1": lambda: _goofspiel_balance(games=4, luck_games=1),
}


@pytest.mark.parametrize("case", sorted(BAD_INPUTS))
def test_studies_refuse_bad_input(case: str) -> None:
    with pytest.raises(cardtable.InvalidOptionError):
        BAD_INPUTS[case]()


def test_studies_take_numpy_integers_and_any_iterable_grid() -> None:
    b = _goofspiel_balance(games=np.int64(6), seed=np.uint64(2), trace_games=np.int32(2))
    assert (b.games, b.seed, len(b.traced)) == (6, 2, 2) and type(b.seed) is int
    s = _goofspiel_sweep(games=4, grid={"num_cards": (n for n in [3, 4])})
    assert s.grid == {"num_cards": [3, 4]} and len(s.points) == 2


def test_running_out_of_memory_says_to_play_fewer_games() -> None:

    with pytest.raises(cardtable.CapacityError, match="play fewer games") as err:
        _goofspiel_tournament(games=10**12)
    assert "keep_games" not in str(err.value)
    with pytest.raises(cardtable.CapacityError, match="play fewer games"):
        _goofspiel_sweep(games=10**12)
    output = run_cli("balance", "goofspiel", "-p", "2", "-n", str(10**12), exit_code=2)
    assert "fewer games" in output and "keep_games" not in output


STUDY_COMMANDS = {
    "tournament": ["tournament", "goofspiel", "-p", "2", "-b", "greedy,random", "-n", "4"],
    "balance": ["balance", "goofspiel", "-p", "2", "-n", "4"],
    "sweep": ["sweep", "goofspiel", "-p", "2", "--grid", "num_cards=3,4", "-n", "4"],
}
BAD_ARGUMENTS: dict[str, tuple[str, list[str], str]] = {
    "grid twice": ("sweep", ["--grid", "lanes=3", "--grid", "lanes=4"], "lanes is given twice"),
    "baseline not swept": ("sweep", ["--baseline", "lanes=3"], "'lanes' is not a swept option"),
    "baseline no pair": ("sweep", ["--baseline", "num_cards"], "expected KEY=VALUE"),
    "sweep seed -1": ("sweep", ["--seed", "-1"], "--seed"),
    "sweep seed 2**64": ("sweep", ["--seed", str(2**64)], "--seed"),
    "tournament seed 2**64": ("tournament", ["--no-duplicate", "--seed", str(2**64)], "--seed"),
    "rating bootstrap -5": ("tournament", ["--rating-bootstrap", "-5"], "--rating-bootstrap"),
    "rating bootstrap 1": ("tournament", ["--rating-bootstrap", "1"], "--rating-bootstrap"),
    "rating bootstrap 49": ("tournament", ["--rating-bootstrap", "49"], "at least 50"),
    "rating games 0": ("tournament", ["--rating-games", "0"], "--rating-games"),
    "trace games -3": ("balance", ["--trace-games", "-3"], "--trace-games"),
    "luck games -1": ("balance", ["--luck-games", "-1"], "--luck-games"),
    "luck games 1": ("balance", ["--luck-games", "1"], "--luck-games"),
    "games 1": ("balance", ["-n", "1"], "--games"),
    "threads 0": ("sweep", ["--threads", "0"], "--threads"),
    "tournament json in no directory": ("tournament", ["--json", "nodir/x.json"], "--json"),
    "tournament report in no directory": ("tournament", ["--report", "nodir/x.html"], "--report"),
    "balance parquet in no directory": ("balance", ["--parquet", "nodir/x.pq"], "--parquet"),
    "sweep report in no directory": ("sweep", ["--report", "nodir/x.html"], "--report"),
    "parquet to standard output": ("balance", ["--parquet", "-"], "--parquet"),
    "csv to standard output": ("balance", ["--csv", "-"], "--csv"),
    "parquet named csv": (
        "sweep",
        ["--parquet", "sw.csv"],
        "writes Parquet: name the file FILE.parquet or FILE.pq, got 'sw.csv' (--csv writes that",
    ),
    "parquet without extension": ("tournament", ["--parquet", "table"], "got 'table'"),
    "csv named parquet": (
        "balance",
        ["--csv", "b.parquet"],
        "writes CSV: name the file FILE.csv, got 'b.parquet' (--parquet writes that format)",
    ),
    "csv and parquet one file": (
        "sweep",
        ["--csv", "t.csv", "--parquet", "t.csv"],
        "--parquet",
    ),
    "report to standard output": ("sweep", ["--report", "-"], "--report"),
    "report and json one file": (
        "tournament",
        ["--report", "same.html", "--json", "./same.html"],
        "--json and --report name the same file",
    ),
    "bad game option": ("tournament", ["-o", "num_cards=99"], "num_cards"),
}


@pytest.mark.parametrize("case", sorted(BAD_ARGUMENTS))
def test_study_commands_refuse_bad_arguments_before_running(
    case: str, tmp_path: Any, monkeypatch: pytest.MonkeyPatch
) -> None:

    monkeypatch.chdir(tmp_path)
    study, args, message = BAD_ARGUMENTS[case]
    output = run_cli(*STUDY_COMMANDS[study], "--no-progress", *args, exit_code=2)
    assert message in output and "took" not in output  # refused before the study ran
    assert list(tmp_path.iterdir()) == []  # and nothing was written


# --- progress, strict JSON, output paths, bot names, wording -----------------------------------

QUICK_STUDIES: dict[str, Callable[..., Any]] = {
    "tournament": lambda **kw: tournament(
        "goofspiel", players=2, bots=["greedy", "random"], games=2, rating_bootstrap=0, **kw
    ),
    "balance": lambda **kw: balance(
        "goofspiel", players=2, games=2, trace_games=0, weaker=None, **kw
    ),
    "sweep": lambda **kw: sweep("goofspiel", players=2, grid={"num_cards": [3]}, games=2, **kw),
}
"""Each study on two goofspiel games, given ``progress``."""


@pytest.mark.parametrize("progress", [1, 0, "yes", None, np.True_])
@pytest.mark.parametrize("study", sorted(QUICK_STUDIES))
def test_studies_refuse_a_progress_that_is_no_bool_or_callable(
    study: str, progress: object
) -> None:
    """``progress`` follows ``simulate``'s rule: exactly True or False, or a callable.

    The studies used to run with ``progress=1``, ``0``, ``"yes"`` or ``None`` (they hand
    ``simulate`` a callable of their own), while ``simulate(progress=1)`` refuses it.
    """
    run = QUICK_STUDIES[study]
    with pytest.raises(cardtable.InvalidOptionError, match="progress must be True, False or"):
        run(progress=progress)


@pytest.mark.parametrize("study", sorted(QUICK_STUDIES))
def test_studies_call_a_progress_callable(study: str) -> None:
    """A callable ``progress`` passes the check and is called up to the study's total."""
    calls: list[tuple[int, int]] = []
    QUICK_STUDIES[study](progress=lambda done, total: calls.append((done, total)))
    assert calls and calls[-1][0] == calls[-1][1]


STRICT_JSON_CASES: dict[str, tuple[Callable[[], Any], Callable[[dict[str, Any]], object]]] = {
    # No seat leads alone at the start of Turn the Tide: the first point of the curve is undefined.
    "balance leader_wins": (
        lambda: balance("turn_the_tide", players=3, games=4, progress=False),
        lambda d: d["leader_wins"][0][1],
    ),
    "balance without traces": (
        lambda: _goofspiel_balance(games=4, trace_games=0, weaker=None),
        lambda d: d["lead_changes"]["mean"]["value"],
    ),
    "tournament without rating intervals": (
        lambda: _goofspiel_tournament(games=4, rating_bootstrap=0),
        lambda d: d["ratings"][0]["elo"]["low"],
    ),
}


@pytest.mark.parametrize("case", sorted(STRICT_JSON_CASES))
def test_study_results_are_strict_json(case: str) -> None:
    """``to_dict()`` is standard JSON: an undefined number is None, never NaN.

    ``BalanceResult.to_dict()`` held NaN (in ``leader_wins``, and in the trace statistics without
    traced games), as did a tournament's rating intervals without bootstrap replicates; only the
    command line's JSON output cleaned them.
    """
    import json

    run, undefined = STRICT_JSON_CASES[case]
    d = run().to_dict()
    assert json.loads(json.dumps(d, allow_nan=False)) == d
    assert undefined(d) is None


def test_an_estimate_without_an_interval_prints_none() -> None:
    assert Estimate(0.5, 0.25, 0.75, 9).fmt(2) == "0.50 (0.25–0.75)"
    assert Estimate(0.5, 0.25, 0.75, 9).fmt(3, percent=True) == "50.0% (25.0–75.0%)"
    assert Estimate(1523.4, math.nan, math.nan, 9).fmt(0) == "1523"
    assert Estimate(0.5, math.nan, math.nan, 1).fmt(3, percent=True) == "50.0%"
    assert Estimate(math.nan, math.nan, math.nan, 0).fmt(2) == "—"


def test_tournament_without_rating_bootstrap_shows_no_rating_interval(tmp_path: Path) -> None:
    """With ``--rating-bootstrap 0`` there is no rating interval: the text and the report showed
    ``2023 (nan–nan)``; now they show the rating alone, and the JSON has null ends."""
    import json

    t = _goofspiel_tournament(games=4, rating_bootstrap=0)
    table = t.summary_table()
    assert "nan" not in table
    for rating in t.ratings:
        assert math.isnan(rating.elo.low) and f" {rating.elo.value:.0f} │" in table
    args = [*STUDY_COMMANDS["tournament"], "--no-progress", "--rating-bootstrap", "0"]
    assert "nan" not in run_cli(*args)
    report = tmp_path / "t.html"
    ratings = json.loads(run_cli(*args, "--json", "-", "--report", str(report)))["ratings"]
    assert all(r[k]["low"] is None and r[k]["high"] is None for r in ratings for k in ("elo", "mu"))
    html = report.read_text(encoding="utf-8")
    assert "nan–nan" not in html and "(nan" not in html and "Elo (95% interval)" not in html
    # With replicates that spread (three cards: random wins some deals; with thirteen greedy wins
    # every deal, and replicates all alike give no interval either).
    spread = _goofspiel_tournament(games=4, rating_bootstrap=50, num_cards=3)
    assert "Elo (95% interval)" in spread.report().render()


@pytest.mark.parametrize("path", [None, 5, b"out.parquet", ["out.parquet"]])
def test_study_writers_refuse_what_is_no_path(
    path: object, tmp_path: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Every writer of a study result takes a str or an os.PathLike, nothing else.

    ``to_parquet(None)`` or ``to_parquet(5)`` wrote files named ``None`` and ``5``;
    ``write_report(None)`` raised a bare ``TypeError``.
    """
    monkeypatch.chdir(tmp_path)
    results = [run(progress=False) for run in QUICK_STUDIES.values()]
    writers = [w for r in results for w in (r.to_parquet, r.write_report)]
    for write in [*writers, results[0].report().write]:
        with pytest.raises(cardtable.InvalidOptionError, match="path must be a str or"):
            write(path)
    assert list(tmp_path.iterdir()) == []


def test_tournament_lookups_name_the_bots() -> None:
    """Asking a tournament for a bot it did not play is an InvalidOptionError naming its bots.

    ``result("nosuch")`` raised a bare ``StopIteration`` and ``difference`` a ``KeyError``.
    """
    t = _goofspiel_tournament(games=2, rating_bootstrap=0)
    for lookup in (
        lambda: t.result("nosuch"),
        lambda: t.difference("greedy", "nosuch"),
        lambda: t.difference("nosuch", "random", "score"),
    ):
        with pytest.raises(cardtable.InvalidOptionError, match="its bots: greedy, random"):
            lookup()
    with pytest.raises(cardtable.InvalidOptionError, match="two different bots"):
        t.difference("greedy", "greedy")
    with pytest.raises(cardtable.InvalidOptionError, match="metric must be one of"):
        t.difference("greedy", "random", "elo")
    assert t.result("random").bot == "random"
    assert t.difference("random", "greedy").paired.value < 0


def test_empty_bot_specs_are_refused() -> None:
    """An empty bot name or list is refused, as ``weaker=""`` and ``tournament(bots=[])`` are.

    ``balance(bot="")`` and ``sweep(bots=[])`` (and ``--bot ""``, ``--bots ""`` at the command
    line) used to run with the default bots.
    """

    with pytest.raises(cardtable.InvalidOptionError, match='unknown bot ""'):
        _goofspiel_balance(games=2, bot="")
    with pytest.raises(cardtable.InvalidOptionError, match="give at least one bot"):
        _goofspiel_sweep(games=2, bots=[])
    for command, option, message in (
        ("balance", "--bot", 'unknown bot ""'),
        ("sweep", "--bots", "give at least one bot"),
    ):
        output = run_cli(*STUDY_COMMANDS[command], "--no-progress", option, "", exit_code=2)
        assert message in output and "took" not in output and "Traceback" not in output


def test_balance_findings_say_when_the_seats_are_even() -> None:
    """Seats that all win equally often are "even", not "seat 0 most often … seat 0 least"."""
    b = _goofspiel_balance(bot="greedy", games=20, trace_games=0, weaker=None)
    assert len({s.win_rate.value for s in b.seats}) == 1
    text = str(b)
    assert "the seats are even: each wins 100.0%" in text and "most often" not in text
    uneven = _goofspiel_balance(bot="random", games=20, trace_games=0, weaker=None)
    assert len({s.win_rate.value for s in uneven.seats}) == 2
    assert "wins most often" in str(uneven) and "the seats are even" not in str(uneven)


def test_balance_has_nothing_to_measure_when_every_seat_wins() -> None:
    """Goofspiel's greedy against itself draws every game: no winner stands apart, so there is no
    point at which it is decided (the findings read "leads for good after 0% of the game")."""
    import json

    b = _goofspiel_balance(bot="greedy", games=20, trace_games=10, weaker="random")
    assert all(len(t.winners) == 2 for t in b.traced)
    assert b.decided.values == [] and b.decided.mean.n == 0
    text = " ".join(str(b).split())
    assert "every one of the 10 traced games ended with every seat sharing the win" in text
    assert "leads for good after" not in text and "after 0%" not in text
    assert b.to_arrow().column("decided").null_count == 20
    assert json.loads(json.dumps(b.to_dict(), allow_nan=False))["decided"]["mean"]["value"] is None
    assert "nothing to measure" in b.report().render()
    # Nor a chart of how often a sole leader wins (it was an empty axis from −0.04 to 0.04).
    assert "How often a player who leads alone" not in b.report().render()
    # Equal seats would each win (share) every game; the luck finding says so, not "even game".
    assert b.equal_share == 1.0
    assert "in the mirrored games, all of which end in a shared win" in text
    # Random against itself: its drawn games are left out, the others measured.
    r = _goofspiel_balance(bot="random", games=200, trace_games=60, weaker=None, num_cards=4)
    decisive = [t for t in r.traced if len(t.winners) < 2]
    assert 0 < len(decisive) < len(r.traced) and r.decided.mean.n == len(decisive)
    expected = np.mean([_trace.decided_at(t.trace, t.winners, True) for t in decisive])
    assert r.decided.mean.value == pytest.approx(expected)
    said = f"the {len(decisive)} of the {len(r.traced)} traced games that some seat lost"
    assert said in " ".join(str(r).split())
    column = r.to_arrow().column("decided").to_numpy()
    assert [g for g in range(200) if not np.isnan(column[g])] == [t.game for t in decisive]
    assert r.equal_share == pytest.approx(np.mean([s.win_rate.value for s in r.seats]))


@pytest.mark.parametrize(
    ("values", "ticks"),
    [
        (np.zeros(30), ["0"]),  # read -0.4, -0.2, 0.0, 0.2, 0.4
        (np.array([0, 1, 1, 2, 5]), ["0", "1", "2", "5"]),
        (np.arange(40) % 20, ["0", "3", "6", "9", "12", "15", "18"]),
    ],
)
def test_histograms_of_counts_have_whole_number_ticks(
    values: npt.NDArray[Any], ticks: list[str]
) -> None:
    import re

    from cardtable.analysis.balance import Distribution, _bar_distribution

    svg = _bar_distribution(Distribution.of(values), "lead changes per game", "#b279a2")
    assert re.findall(r'<g id="xtick_\d+">.*?<text[^>]*>([^<]*)</text>', svg, re.S) == ticks


def test_balance_summary_says_which_score_trace_it_reads() -> None:
    """Deep Regrets hides its scores until the end: the lead changes follow the fish held, which
    the terminal summary says as the report does."""
    b = balance("deep_regrets", players=2, games=4, trace_games=2, weaker=None, progress=False)
    said = (
        "Lead changes and when the winner is decided are read from the score trace: scores are "
        "hidden until the end: the fish each seat holds or has mounted"
    )
    assert said in " ".join(b.summary_table(width=400).split())
    assert said in unescape(b.report().render())
    untraced = balance(
        "deep_regrets", players=2, games=4, trace_games=0, weaker=None, progress=False
    )
    assert "score trace" not in str(untraced)


def test_tournament_report_compares_the_best_bot_with_the_runner_up() -> None:
    bots = ["greedy", "random", "mcts:iterations=20"]
    t = tournament("goofspiel", players=2, bots=bots, games=60, rating_bootstrap=0, progress=False)
    order = sorted(t.results, key=lambda r: -r.win_rate.value)
    best, runner_up, last = (r.bot for r in (order[0], order[1], order[-1]))
    assert last == "random"
    findings = unescape(t.report().render())
    d = t.difference(best, runner_up, "win").paired
    assert (
        f"On the same deals, the win rate of {best} minus that of the runner-up {runner_up} is "
        f"{d.fmt(3, percent=True)} (with its 95% interval)"
    ) in findings
    assert f"the runner-up <strong>{runner_up}</strong>" in findings
    assert f"and the last, {last}, " in findings
    fair = float(t.runs.winners.sum(axis=-1).mean()) / 2
    assert f"each would win about {100 * fair:.0f}% (shared wins counting" in findings


@pytest.mark.parametrize("bots", [["nope"], ["nope", "nope"], ["nope", "greedy"]])
def test_tournament_names_an_unknown_bot_before_counting_distinct_bots(bots: list[str]) -> None:
    """``cardtable tournament -b nope`` said "a tournament needs at least two distinct bots"
    instead of naming the unknown bot (in the words of every unknown-bot error of the package)."""

    message = 'goofspiel: unknown bot "nope"; built-in bots: random, greedy, flatmc, mcts'
    with pytest.raises(cardtable.InvalidOptionError) as err:
        tournament("goofspiel", players=2, bots=bots, games=2, progress=False)
    assert str(err.value) == message
    output = run_cli(*STUDY_COMMANDS["tournament"][:4], "-b", ",".join(bots), exit_code=2)
    assert message in output and "distinct" not in output
    with pytest.raises(cardtable.InvalidOptionError, match="two distinct bots, got greedy"):
        tournament("goofspiel", players=2, bots=["greedy"], games=2, progress=False)


def test_tournament_refuses_a_bot_given_twice_among_more_bots_than_seats() -> None:
    """``greedy, greedy, random`` at two seats used to play greedy against itself."""
    with pytest.raises(cardtable.InvalidOptionError, match="bot 'greedy' is given twice"):
        tournament("goofspiel", players=2, bots=["greedy", "greedy", "random"], games=2)


def test_sweep_refuses_a_bot_given_twice_among_more_bots_than_seats() -> None:
    """``sweep`` took ``greedy, random, random`` at two seats: it played every greedy-random
    assignment twice and added random-against-random games, and its win rates and seat advantage
    came out wrong without a word, where ``tournament`` refused the same bots."""
    grid = {"num_cards": [3, 4]}
    with pytest.raises(cardtable.InvalidOptionError, match="bot 'random' is given twice"):
        sweep("goofspiel", players=2, grid=grid, bots=["greedy", "random", "random"], games=2)
    output = run_cli(
        "sweep",
        "goofspiel",
        "-p",
        "2",
        "--bots",
        "greedy,random,random",
        "--grid",
        "num_cards=3,4",
        "--games",
        "2",
        exit_code=2,
    )
    assert "bot 'random' is given twice" in output


def test_sweep_results_of_numpy_values_are_plain_json(tmp_path: Path) -> None:
    """NumPy option values (swept or fixed) made ``to_dict`` and the report fail to serialize."""
    import json

    s = sweep(
        "trafficars",
        players=2,
        grid={"lanes": np.array([2, 3])},
        games=4,
        progress=False,
        hand_size=np.int64(5),
    )
    assert s.grid == {"lanes": [2, 3]} and type(s.grid["lanes"][0]) is int
    assert type(s.fixed["hand_size"]) is int and type(s.points[0].options["lanes"]) is int
    again = json.loads(json.dumps(s.to_dict()))
    assert again["grid"] == {"lanes": [2, 3]} and again["fixed"] == {"hand_size": 5}
    s.write_report(tmp_path / "sweep.html")
    assert (tmp_path / "sweep.html").read_text(encoding="utf-8").startswith("<!DOCTYPE html>")


def test_text_summaries_say_when_a_lower_score_is_better() -> None:
    """Trafficars counts penalty cards: its score columns say so; Turn the Tide's do not."""
    from cardtable.analysis import balance, tournament

    lower = tournament("trafficars", bots=["greedy", "random"], players=3, games=20, progress=False)
    assert "mean score (lower is better)" in lower.summary_table()
    assert "score (lower is better)" in lower.summary_table().split("paired differences")[1]
    b = balance("trafficars", players=3, games=30, progress=False)
    assert "mean score (lower is better)" in b.summary_table()
    higher = tournament(
        "turn_the_tide", bots=["greedy", "random"], players=3, games=6, progress=False
    )
    assert "lower is better" not in higher.summary_table()


# --- balance findings: which seat differs, draws, nulls, bounded intervals, stopping ----------


def _flat(text: str) -> str:
    """``text`` with its line breaks and runs of spaces as single spaces (a wrapped summary)."""
    return " ".join(unescape(text).split())


def test_balance_headline_gives_each_seat_its_own_p_value() -> None:
    """The headline read "seat 0 wins most often: 40.5% … seat 2 least: 23.0% … The seats are
    not equal (exact test p = 0.0048)", but 0.0048 was seat 2's Holm-adjusted p-value (it wins
    less than an equal share): seat 0's lead (adjusted p = 0.071) is within chance. Every output
    (summary, report, command line) now names the seat that differs and its direction."""
    b = balance(
        "trafficars_overtaking", players=3, games=200, seed=4, trace_games=0, progress=False
    )
    best = max(b.seats, key=lambda s: s.win_rate.value)
    worst = min(b.seats, key=lambda s: s.win_rate.value)
    assert (best.seat, worst.seat) == (0, 2)
    assert worst.p_value == b.seat_p_value < 0.05 <= best.p_value  # the case of the finding
    fair = sum(s.sole_wins for s in b.seats) / 3
    assert worst.sole_wins < fair
    verdict = (
        f"Seat 2 wins less often than an equal share ({worst.sole_wins} of the "
        f"{sum(s.sole_wins for s in b.seats)} games won alone; Holm-adjusted exact test "
        f"p = {worst.p_value:.2g}); seat 0's lead is not distinguishable from chance "
        f"(p = {best.p_value:.2g})."
    )
    cli = run_cli(
        "balance", "trafficars_overtaking", "-p", "3", "-n", "200", "--seed", "4",
        "--trace-games", "0", "--no-progress",
    )  # fmt: skip
    for text in (b.summary_table(width=400), b.report().render(), cli):
        flat = _flat(text).replace("**", "")
        assert verdict in flat.replace("<strong>", "").replace("</strong>", "")
        assert "The seats are not equal" not in flat


def test_balance_two_seats_say_which_seat_is_ahead() -> None:
    b = balance(
        "trafficars_overtaking", players=2, games=400, seed=1, trace_games=0, weaker=None,
        progress=False,
    )  # fmt: skip
    ahead, behind = sorted(b.seats, key=lambda s: -s.sole_wins)
    assert b.seat_p_value < 0.05
    said = (
        f"Seat {ahead.seat} wins more often than an equal share and seat {behind.seat} less "
        f"often (seat {ahead.seat} won {ahead.sole_wins} of the "
        f"{ahead.sole_wins + behind.sole_wins} games won alone; exact test "
        f"p = {b.seat_p_value:.2g})."
    )
    assert said in _flat(b.summary_table(width=400))


def test_balance_draws_are_not_games_decided_by_one_point() -> None:
    """Goofspiel's greedy against itself draws every game; the summary said "100% of games are
    decided by at most one point and 100.0% end in a shared win", and of the luck measure that
    random "still wins 2.5% … (an even game: 100%, as in the mirrored games)": the 100% is every
    seat sharing every drawn game, no even game."""
    import json

    b = _goofspiel_balance(games=200, seed=3, trace_games=0)
    assert b.runs.winners[0].all() and b.close_games.n == 0 and math.isnan(b.close_games.value)
    assert json.loads(json.dumps(b.to_dict(), allow_nan=False))["close_games"]["value"] is None
    text = _flat(b.summary_table(width=400))
    assert "decided by at most one point" not in text
    assert "Every one of the 200 games ends with every seat sharing the win" in text
    assert b.luck is not None and b.luck.upset_alone.value <= b.luck.upset_rate.value
    assert "an even game" not in text
    assert (
        "A greedy player in its seat wins 100% in the mirrored games, all of which end in a "
        "shared win (counted for every winner)."
    ) in text
    # Some shared wins, some sole winners: the close games are a share of the games won alone.
    t = balance("turn_the_tide", players=4, games=300, seed=0, trace_games=0, progress=False)
    w = t.runs.winners[0]
    alone = w.sum(axis=1) == 1
    assert 0 < alone.sum() < 300 and t.close_games.n == alone.sum()
    exact = margins(t.runs.scores[0], w, True)
    assert t.close_games.value == pytest.approx((exact[alone] <= 1).mean())
    text = _flat(t.summary_table(width=400))
    assert f"{100 * t.shared_wins.value:.1f}% of games end in a shared win, and of the " in text
    assert "an even game" not in text and "in the mirrored games, " in text
    report = _flat(t.report().render())
    assert "of the others" in report and "shared wins counting for every winner" in report


def test_balance_parquet_has_nulls_not_nan_for_untraced_games(tmp_path: Path) -> None:
    """``lead_changes`` and ``decided`` of the 40 untraced games of 50 were NaN (null_count 0) in
    ``to_arrow()`` and the Parquet file, where the docs promise an empty cell."""
    import pyarrow.csv as pcsv
    import pyarrow.parquet as pq

    path, csv = tmp_path / "bal.parquet", tmp_path / "bal.csv"
    run_cli(
        "balance", "goofspiel", "-p", "2", "--games", "50", "--trace-games", "10",
        "--parquet", str(path), "--csv", str(csv), "--no-progress",
    )  # fmt: skip
    for table in (pq.read_table(path), pcsv.read_csv(csv)):
        assert table.column("lead_changes").null_count == 40
        assert table.column("decided").null_count == 50  # greedy draws every game: no loser
    r = _goofspiel_balance(bot="random", games=50, trace_games=10, weaker=None, num_cards=4)
    decided = r.to_arrow().column("decided")
    decisive = [t.game for t in r.traced if len(t.winners) < 2]
    assert decided.null_count == 50 - len(decisive) and len(decisive) > 0
    assert [g for g, v in enumerate(decided.to_pylist()) if v is not None] == decisive
    assert not any(math.isnan(v) for v in decided.to_pylist() if v is not None)
    assert r.to_arrow().column("lead_changes").to_pylist()[10:] == [None] * 40


def test_balance_intervals_stay_within_what_each_quantity_can_take() -> None:
    """Two games of five-seat Trafficars gave ``decided`` 0.536 (−1.38…2.45), a share of the
    game, and a winning margin's interval below 0 (the winners score best: never negative). Seed
    2 gives two such games with today's ``greedy`` (seed 1 did with the sampling one)."""
    b = balance("trafficars", players=5, games=2, seed=2, trace_games=2, progress=False)
    game_margins = margins(b.runs.scores[0], b.runs.winners[0], False)
    assert game_margins.min() >= 0 and mean_estimate(game_margins).low < 0  # unclipped: below 0
    assert 0 <= b.decided.mean.low <= b.decided.mean.value <= b.decided.mean.high <= 1
    for d in (b.margin, b.length, b.lead_changes):
        assert 0 <= d.mean.low <= d.mean.value <= d.mean.high
    raw = [_trace.decided_at(t.trace, t.winners, False) for t in b.traced]
    assert mean_estimate(raw).low < 0 < mean_estimate(raw).value  # what clipping corrects
    s = sweep("trafficars", players=5, grid={"lanes": [3]}, games=2, seed=1, progress=False)
    for metric in ("mean margin", "mean length"):
        assert s.points[0].metrics[metric].low >= 0


@pytest.mark.parametrize("study", sorted(QUICK_STUDIES))
def test_a_progress_callable_returning_false_stops_the_study(study: str) -> None:
    """``simulate`` stops when its progress callable returns False; the studies ignored the
    return value and played on. Now False stops a study as Ctrl-C does (KeyboardInterrupt),
    and nothing is reported after it."""
    calls: list[int] = []

    def stop(done: int, total: int) -> bool:
        calls.append(done)
        return False

    with pytest.raises(KeyboardInterrupt):
        QUICK_STUDIES[study](progress=stop)
    assert len(calls) == 1


def test_a_progress_callable_stops_a_balance_among_its_score_traces() -> None:
    calls: list[int] = []

    def stop_at_the_first_trace(done: int, total: int) -> bool | None:
        calls.append(done)
        return False if done > 4 else None  # None goes on, as any value but False

    with pytest.raises(KeyboardInterrupt):
        balance("goofspiel", players=2, games=4, trace_games=4, progress=stop_at_the_first_trace)
    assert calls[-1] == 5 and calls.count(5) == 1


# --- bot and metric names in the tables --------------------------------------------------------

# Three settings of one search bot: long names that differ only towards their end.
SEARCH_BOTS = [f"mcts:iterations=20,c={c},rollout=random,reward=win" for c in ("0.3", "1.5", "0.7")]


def _cells(text: str) -> list[list[str]]:
    """The pieces of the table cells on each line of ``text``, stripped (a row of each line)."""
    import re

    return [[c.strip() for c in re.split("[│┃]", line)[1:-1]] for line in text.splitlines()]


def _column_texts(text: str) -> list[str]:
    """The text of each column of the tables in ``text``, its pieces on every line joined.

    A cell folded onto several lines reads whole again: the pieces are joined, and spaces are
    left out (a cell may wrap at one).
    """
    columns: dict[int, list[str]] = {}
    for row in _cells(text):
        for i, piece in enumerate(row):
            columns.setdefault(i, []).append(piece.replace(" ", ""))
    return ["".join(pieces) for pieces in columns.values()]


def _shows_in_full(text: str, names: list[str]) -> bool:
    """Whether every name is in a column of ``text`` in full, and no cell is cut with ``…``."""
    columns = _column_texts(text)
    cut = [piece for row in _cells(text) for piece in row if piece.endswith("…")]
    return not cut and all(any(n.replace(" ", "") in col for col in columns) for n in names)


def _search_tournament() -> TournamentResult:
    return tournament(
        "turn_the_tide",
        players=3,
        bots=SEARCH_BOTS,
        games=3,
        progress=False,
        rating_bootstrap=0,
    )


def test_tournament_tables_name_every_bot_in_full_however_narrow() -> None:
    """Bot names too long for a column were cut: three settings of mcts all read
    ``mcts:iterations=300,c…``. Now they are folded onto more lines, never cut."""
    from rich.console import Console

    from cardtable.analysis._text import text_table

    t = _search_tournament()
    for width in (None, 120, 80, 40):
        text = t.summary_table() if width is None else t.summary_table(width=width)
        assert _shows_in_full(text, SEARCH_BOTS), text
        bots, rest = text.split("paired differences")
        differences, head_to_head = rest.split("head to head")
        assert all(name in _column_texts(bots)[0] for name in SEARCH_BOTS)
        pairs = [f"{a}−{b}" for a, b in itertools.combinations(SEARCH_BOTS, 2)]
        assert all(pair in _column_texts(differences)[0] for pair in pairs)
        assert all(name in _column_texts(head_to_head)[0] for name in SEARCH_BOTS)
        headings = "".join(_column_texts(head_to_head.split("┡")[0])[1:])
        assert headings == "".join(SEARCH_BOTS)
    # The Arrow table's lineup joins the bots with commas; split_bot_specs gives them back whole.
    for row in t.to_arrow().to_pylist()[-3:]:
        r = replayed_row(row)
        assert r.bots[row["seat"]] == row["bot"] and r.scores is not None
        assert r.scores[row["game"], row["seat"]] == row["score"]
    # A table with more columns than the width holds comes out wider, every cell whole.
    names = [f"mcts:iterations=20,c=0.{i},rollout=random,reward=win" for i in range(10)]
    rows = [(n, *["50.0% (40.1–60.2%)"] * len(names)) for n in names]
    console = Console(width=80, record=True, file=io.StringIO())
    console.print(text_table("head to head", ("", *names), rows, left=("",)), crop=False)
    assert _shows_in_full(console.export_text(), names)


@functools.cache
def search_bot_sweep() -> SweepResult:
    """A small sweep of ``SEARCH_BOTS`` (bots with parameters, whose names share a long start)."""
    return sweep(
        "turn_the_tide",
        players=3,
        grid={"rounds": [1, 2]},
        bots=SEARCH_BOTS,
        games=2,
        progress=False,
    )


def test_place_intervals_stay_within_the_places() -> None:
    """A bot that nearly always wins has a mean place just above 1: its t interval, clipped, does
    not reach below place 1 (nor the loser's above the last place)."""
    t = tournament(
        "goofspiel", players=2, bots=["greedy", "random"], games=20, seed=1, progress=False
    )
    greedy, random = t.result("greedy").place, t.result("random").place
    assert 1 < greedy.value < greedy.high and greedy.low == 1
    assert random.low < random.value < 2 and random.high == 2


def test_study_tables_name_every_bot_in_full() -> None:
    """The sweep's metric headings (``win rate: <bot>``) and its title, and the balance title,
    name the bots in full too."""
    s = search_bot_sweep()
    for width in (None, 80):
        text = s.summary_table(width=width)
        assert _shows_in_full(text, [f"win rate: {name}" for name in SEARCH_BOTS]), text
    assert ", ".join(SEARCH_BOTS) in " ".join(s.summary_table(width=400).split())
    b = balance("turn_the_tide", players=3, bot=SEARCH_BOTS[0], games=2, trace_games=0)
    assert SEARCH_BOTS[0] in "".join(b.summary_table(width=40).split())


@pytest.mark.parametrize("width", [0, 39, True, 80.0, "80"])
def test_summary_width_is_checked(width: object) -> None:
    t = _goofspiel_tournament(games=2, rating_bootstrap=0)
    for result in (t, _goofspiel_balance(games=2, trace_games=0), _goofspiel_sweep(games=2)):
        with pytest.raises(cardtable.InvalidOptionError, match="width must be an int in 40"):
            result.summary_table(width=width)  # type: ignore[arg-type]


def test_tournament_difference_takes_the_metric_names_the_tables_show() -> None:
    """``difference(a, b, "win rate")`` failed with "metric must be one of win, score, place"
    while the tables head the column "win rate"."""
    t = _goofspiel_tournament(games=6, rating_bootstrap=0)
    names = {
        "win": ["win rate", "Win rate", "win_rate", "win rate (95% CI)", " win  rate "],
        "score": ["mean score", "mean score (lower is better)", "score (higher is better)"],
        "place": ["mean place", "mean place (1 = best)", "finishing place", "PLACE"],
    }
    for short, others in names.items():
        d = t.difference("greedy", "random", short)
        assert d.metric == short
        for name in others:
            assert t.difference("greedy", "random", name) == d, name
    # Every metric heading of the tables and of the report names its metric.
    table = t.summary_table().split("paired differences")[1].splitlines()[2]
    headings = [h.strip() for h in table.split("┃")[2:-2]]
    assert headings == ["win rate", "score", "place"]
    assert [t.difference("greedy", "random", h).metric for h in headings] == [
        "win",
        "score",
        "place",
    ]
    for bad in ("elo", "win rate: greedy", "", None, 1):
        with pytest.raises(cardtable.InvalidOptionError) as err:
            t.difference("greedy", "random", bad)  # type: ignore[arg-type]
        assert str(err.value).startswith(
            "metric must be one of 'win', 'score', 'place' "
            "(also named 'win rate', 'mean score', 'mean place'), got "
        )


def test_sweep_difference_takes_short_metric_names_as_a_tournament_does() -> None:
    s = _goofspiel_card_sweep(games=6)
    assert s.metrics == [
        "win rate: greedy",
        "win rate: random",
        "seat 0 advantage",
        "mean length",
        "mean margin",
        "shared wins",
    ]
    short = ["win: greedy", "win: random", "seat 0", "length", "margin", "shared"]
    for metric, name in zip(s.metrics, short, strict=True):
        d = s.difference(1, 0, metric)
        assert d.metric == metric
        words, colon, bot = metric.partition(":")
        for other in (name, words.upper() + colon + bot, words.replace(" ", "_") + colon + bot):
            assert s.difference(1, 0, other) == d, other
    assert s.difference(1, 0, "win_rate:greedy") == s.difference(1, 0, "win rate: greedy")
    with pytest.raises(cardtable.InvalidOptionError) as err:
        s.difference(1, 0, "win: Greedy")  # the bot as the sweep spells it
    assert "(also named 'win: greedy', 'win: random', 'seat 0', 'length', 'margin', " in str(
        err.value
    )
    assert s.difference(1, 0, "seat advantage") == s.difference(1, 0, "seat 0 advantage")
    with pytest.raises(cardtable.InvalidOptionError, match="'seat 0 advantage'"):
        s.difference(1, 0, "seat 0 win rate")  # no longer a metric: not silently another one
    # A bot with parameters: its name after the colon, commas and all.
    t = search_bot_sweep()
    for name in SEARCH_BOTS:
        assert t.difference(1, 0, f"win: {name}").metric == f"win rate: {name}"


# --- Python policies in tournaments and sweeps -------------------------------------------------


def plays_greedy(batch: cardtable.PolicyBatch) -> list[int]:
    """Goofspiel's built-in ``greedy`` as a policy: the bid of the point card's rank.

    The point card's rank among the point cards left picks the card of that rank in the hand (the
    highest card when the hand is shorter), exactly as the Rust bot does.
    """
    bids = []
    for obs, legal in zip(batch.observations, batch.legal_actions, strict=True):
        rank = sum(1 for card in obs["remaining_points"] if card < obs["point_card"])
        bids.append(legal[min(rank, len(legal) - 1)])
    return bids


def _first_legal_policy() -> Callable[[cardtable.PolicyBatch], list[int]]:
    """A new policy named ``first`` that plays the first legal action of every row."""

    def first(batch: cardtable.PolicyBatch) -> list[int]:
        return [legal[0] for legal in batch.legal_actions]

    return first


def test_a_policy_that_plays_like_a_built_in_bot_gives_that_bots_tournament() -> None:
    """Seated beside built-in bots, a policy plays the same deals, game by game, as the built-in
    bot it imitates: the results are that bot's tournament with the policy's name in its place."""
    import json

    kw: dict[str, Any] = {"games": 60, "seed": 7, "progress": False, "rating_bootstrap": 50}
    t = tournament("goofspiel", players=2, bots=[plays_greedy, "random"], **kw)
    built_in = tournament("goofspiel", players=2, bots=["greedy", "random"], **kw)
    name = "policy:plays_greedy"
    assert t.bots == t.bots_given == [name, "random"]
    assert t.lineups == [(name, "random"), ("random", name)]
    assert t.seeds == built_in.seeds == [7, 7]
    np.testing.assert_array_equal(t.runs.scores, built_in.runs.scores)
    np.testing.assert_array_equal(t.runs.winners, built_in.runs.winners)
    assert len(np.unique(t.runs.scores[:, :, 0])) > 5  # the deals differ from one another
    # Everything else is computed from those games: the same numbers under the policy's name.
    same = json.dumps(_without_time(built_in.to_dict())).replace('"greedy"', f'"{name}"')
    assert json.dumps(_without_time(t.to_dict()), allow_nan=False) == same
    assert t.result(name).win_rate == built_in.result("greedy").win_rate
    for metric in ("win", "score", "place"):
        d, e = t.difference(name, "random", metric), built_in.difference("greedy", "random", metric)
        assert (d.a, d.paired, d.unpaired) == (name, e.paired, e.unpaired)
    assert [r.bot for r in t.ratings] == [name, "random"]
    assert [r.elo for r in t.ratings] == [r.elo for r in built_in.ratings]
    text = t.summary_table(width=160)
    assert f"{name} − random" in text and text.count(name) >= 3  # results, difference, h2h
    rows = t.to_arrow().to_pylist()
    assert {r["bot"] for r in rows} == {name, "random"}
    assert {r["lineup"] for r in rows} == {f"{name},random", f"random,{name}"}
    page = t.report().render()
    assert name in page and "greedy" not in page.replace(name, "")


def test_tournament_of_two_alike_policies_replays_every_deal() -> None:
    """Two policies that play alike (both named ``first``, told apart by ``#2``) play the same game
    on deal g in both seat assignments: only the deal decides it, and it is duplicated."""
    a, b = _first_legal_policy(), _first_legal_policy()
    kw: dict[str, Any] = {"games": 40, "seed": 2, "progress": False, "rating_bootstrap": 0}
    t = tournament("trafficars", players=2, bots=[a, b], **kw)
    assert t.bots == ["policy:first", "policy:first#2"]
    assert t.lineups == [("policy:first", "policy:first#2"), ("policy:first#2", "policy:first")]
    np.testing.assert_array_equal(t.runs.scores[0], t.runs.scores[1])
    assert len({tuple(s) for s in t.runs.scores[0].tolist()}) > 5  # the deals differ
    for metric in ("win", "score", "place"):
        d = t.difference("policy:first", "policy:first#2", metric).paired
        assert d.value == 0 and d.no_spread and not clear(d)  # the same in every deal
        # A mean's interval has no width; a share's (Tango's) keeps one: ±8.8 points of 40.
        assert (d.low, d.high) == pytest.approx(
            (-0.0876, 0.0876) if metric == "win" else (0, 0), abs=1e-4
        )
    fresh = tournament("trafficars", players=2, bots=[a, b], duplicate=False, **kw)
    assert not np.array_equal(fresh.runs.scores[0], fresh.runs.scores[1])


def test_the_same_policy_given_twice_is_one_bot() -> None:
    first = _first_legal_policy()
    kw: dict[str, Any] = {"games": 4, "progress": False, "rating_bootstrap": 0}
    t = tournament("trafficars", players=3, bots=[first, first, "random"], **kw)
    p = "policy:first"
    assert t.bots == [p, "random"] and t.bots_given == [p, p, "random"]
    assert t.lineups == [(p, p, "random"), (p, "random", p), ("random", p, p)]
    assert t.result(p).seat_games == 2 * 3 * 4
    with pytest.raises(cardtable.InvalidOptionError, match="bot 'policy:first' is given twice"):
        tournament("goofspiel", players=2, bots=[first, "random", first], **kw)
    with pytest.raises(cardtable.InvalidOptionError, match="two distinct bots, got policy:first,"):
        tournament("goofspiel", players=2, bots=[first, first], **kw)

    # A method of one object is one policy, although each access makes a new bound method.
    class Agent:
        def act(self, batch: cardtable.PolicyBatch) -> list[int]:
            return first(batch)

    agent = Agent()
    assert agent.act is not agent.act
    t = tournament("trafficars", players=3, bots=[agent.act, agent.act, "random"], **kw)
    assert t.bots == ["policy:act", "random"]
    other = tournament("trafficars", players=3, bots=[agent.act, Agent().act, "random"], **kw)
    assert other.bots == ["policy:act", "policy:act#2", "random"]


@pytest.mark.parametrize(
    ("bots", "message"),
    [
        (
            [3, "random"],
            "tournament bots must be built-in bot names or Python policies (callables taking a "
            "PolicyBatch), got 3 at index 0",
        ),
        (
            ["random", None],
            "tournament bots must be built-in bot names or Python policies (callables taking a "
            "PolicyBatch), got None at index 1",
        ),
        (
            "greedy,random",
            "tournament bots must be a list of built-in bot names or Python policies, got "
            "'greedy,random'",
        ),
        (
            ["nope", plays_greedy],
            'goofspiel: unknown bot "nope"; built-in bots: random, greedy, flatmc, mcts',
        ),
        (  # a policy's label is no bot name
            ["policy:plays_greedy", "random"],
            "tournament bots: 'policy:plays_greedy' at index 0 is how a study labels a Python "
            "policy, not a built-in bot; give the policy (the callable) itself",
        ),
        (  # not even beside the policy it labels
            [plays_greedy, "policy:plays_greedy"],
            "tournament bots: 'policy:plays_greedy' at index 1 is how a study labels a Python "
            "policy, not a built-in bot; give the policy (the callable) itself",
        ),
    ],
)
def test_tournament_names_a_bad_bot_beside_policies(bots: Any, message: str) -> None:
    with pytest.raises(cardtable.InvalidOptionError) as err:
        tournament("goofspiel", players=2, bots=bots, games=2, progress=False)
    assert str(err.value) == message


def test_a_policy_playing_an_illegal_action_stops_the_tournament_with_simulates_error() -> None:
    def bids_nothing(batch: cardtable.PolicyBatch) -> list[int]:
        return [99] * len(batch)

    with pytest.raises(cardtable.IllegalActionError) as err:
        tournament("goofspiel", players=2, bots=["greedy", bids_nothing], games=4, progress=False)
    assert str(err.value).startswith("policy 'bids_nothing', row 0 of its batch (game 0, seat 1)")
    assert "action 99 is not legal" in str(err.value)


def test_ctrl_c_in_a_policy_stops_the_tournament() -> None:
    def interrupted(batch: cardtable.PolicyBatch) -> list[int]:
        raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        tournament("goofspiel", players=2, bots=[interrupted, "random"], games=4, progress=False)


def test_a_run_with_a_policy_gives_no_command_to_repeat_it() -> None:
    """No command line seats a Python policy: the footer says so instead of printing a command
    that would be refused, or run something else."""
    from cardtable.analysis.sweep import _reproduce as sweep_command
    from cardtable.analysis.tournament import _reproduce as tournament_command

    kw: dict[str, Any] = {"games": 4, "progress": False}
    t = tournament("goofspiel", players=2, bots=[plays_greedy, "random"], **kw)
    assert tournament_command(t) is None
    footer = t.report().footer
    assert "Reproduce with" not in footer and "cardtable tournament" not in footer
    assert (
        "The run includes the Python policy policy:plays_greedy, so it cannot be repeated from "
        "the command line" in footer
    )
    assert "cannot be repeated from the command line" in t.report().render()
    first, other = _first_legal_policy(), _first_legal_policy()
    two = tournament("trafficars", players=3, bots=[first, other, "greedy"], **kw)
    assert "the Python policies policy:first, policy:first#2, so" in two.report().footer
    s = sweep("goofspiel", players=2, grid={"num_cards": [3, 4]}, bots=[first, "random"], **kw)
    assert sweep_command(s) is None
    assert "Reproduce with" not in s.report().footer
    assert "includes the Python policy policy:first, so" in s.report().footer
    # Built-in bots only: the command as before.
    command = tournament_command(
        tournament("goofspiel", players=2, bots=["greedy", "random"], **kw)
    )
    assert command is not None and command.startswith("cardtable tournament goofspiel")


def test_results_with_a_policy_do_not_depend_on_threads() -> None:
    _same_on_one_and_two_threads(
        lambda threads: tournament(
            "goofspiel",
            players=2,
            bots=[plays_greedy, "greedy", "random"],
            games=30,
            threads=threads,
            progress=False,
            rating_bootstrap=50,
        )
    )


def test_sweep_seats_a_policy_like_the_built_in_bot_it_imitates() -> None:
    import json

    kw: dict[str, Any] = {"grid": {"num_cards": [5, 9]}, "games": 30, "seed": 4, "progress": False}
    s = sweep("goofspiel", players=2, bots=[plays_greedy, "random"], **kw)
    built_in = sweep("goofspiel", players=2, bots=["greedy", "random"], **kw)
    name = "policy:plays_greedy"
    assert s.bots == [name, "random"] and s.lineups == [(name, "random"), ("random", name)]
    assert s.metrics[0] == f"win rate: {name}"
    same = json.dumps(_without_time(built_in.to_dict())).replace("greedy", name)
    assert json.dumps(_without_time(s.to_dict()), allow_nan=False) == same
    d = s.difference({"num_cards": 9}, {"num_cards": 5}, f"win: {name}")
    e = built_in.difference({"num_cards": 9}, {"num_cards": 5}, "win: greedy")
    assert (d.metric, d.paired, d.unpaired) == (f"win rate: {name}", e.paired, e.unpaired)
    assert {r["bot"] for r in s.to_arrow().to_pylist()} == {name, "random"}
    with pytest.raises(cardtable.InvalidOptionError) as err:
        sweep("goofspiel", players=2, bots=[plays_greedy, 2.5], **kw)  # type: ignore[list-item]
    assert str(err.value) == (
        "bots must be built-in bot names or Python policies (callables taking a PolicyBatch), "
        "got 2.5 at index 1"
    )


def test_study_specs_come_from_the_engine_and_the_drawing_modules(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from cardtable.analysis._games import spec
    from cardtable.render import drawing

    for info in cardtable.games():
        s = spec(info.id)
        assert s.higher_is_better == info.higher_score_is_better
        assert s.trace_doc == drawing(info.id).SCORE_TRACE  # type: ignore[attr-defined]
    state = cardtable.make("goofspiel", players=2).new_state(seed=1)
    while not state.is_terminal:
        state.apply(state.legal_actions()[0])
    assert spec("goofspiel").trace(state) == [float(x) for x in state.scores]
    # A game whose drawing declares no trace is traced by its running scores.
    monkeypatch.delattr(drawing("trafficars"), "SCORE_TRACE")
    assert spec("trafficars").trace_doc == "the running scores (lower is better)"
    monkeypatch.setattr(drawing("trafficars"), "score_trace", lambda s: [0.0], raising=False)
    assert spec("trafficars").trace_doc == "the game's own score trace (lower is better)"
    with pytest.raises(cardtable.InvalidOptionError, match="unknown game"):
        spec("no_such_game")


def test_a_report_legend_sits_above_the_plot_and_covers_no_bar() -> None:
    """The tournament and balance charts put their legend inside the axes at the lower right, on
    top of the last bar and its interval; it now sits above the plot."""
    from cardtable.analysis._report import figure, legend_above

    with figure(7.5, 3.0) as (fig, ax):
        bars = ax.bar(["seat 0", "seat 1", "seat 2"], [40, 35, 25], yerr=5)
        ax.axhline(33, linestyle="--", label="equal seats (33.3%)")
        legend_above(ax)
        renderer = fig.canvas.get_renderer()
        box = ax.get_legend().get_window_extent(renderer)
        assert box.y0 >= ax.get_window_extent(renderer).y1 - 1
        for bar in bars:
            assert not box.overlaps(bar.get_window_extent(renderer))
        import matplotlib.pyplot as plt

        plt.close(fig)


# ----- inputs a study refuses (from a hostile-input probe of the studies) -----


@pytest.mark.parametrize(
    "args",
    [
        ["tournament", "goofspiel", "-p", "2", "-n", "4", "-b", "greedy,random", "-o", "seed=3"],
        ["balance", "goofspiel", "-p", "2", "-n", "4", "-o", "bot=random"],
        ["sweep", "goofspiel", "-p", "2", "-n", "4", "-g", "num_cards=2,3", "-o", "baseline=0"],
    ],
    ids=["tournament seed", "balance bot", "sweep baseline"],
)
def test_a_study_setting_given_as_a_game_option_is_a_usage_error(args: list[str]) -> None:
    # It was a TypeError traceback ("got multiple values for keyword argument"), status 1.
    output = run_cli(*args, exit_code=2)
    assert "is not a game option of goofspiel" in output and "Traceback" not in output


def test_more_bots_than_seats_without_rotation_are_refused(tmp_path: Path) -> None:
    """Without seat rotation every game seats the first bots: the others were dropped without a
    word, and a repeated first bot crashed the report after the JSON and CSV were written."""
    with pytest.raises(cardtable.InvalidOptionError, match="would never play"):
        tournament(
            "goofspiel",
            players=2,
            bots=["greedy", "greedy", "random"],
            games=4,
            rotate_seats=False,
            progress=False,
        )
    json_path, report = tmp_path / "r.json", tmp_path / "r.html"
    args = ["-b", "greedy,greedy,random", "--no-rotate", "--json", str(json_path)]
    run_cli(
        "tournament", "goofspiel", "-p", "2", "-n", "4", *args, "--report", str(report), exit_code=2
    )
    assert not json_path.exists() and not report.exists()


def test_too_many_seat_assignments_are_refused_before_any_is_made() -> None:
    # 40 bots at 5 seats: 78,960,960 ordered choices were built in memory (a raw MemoryError).
    bots = [f"greedy:{i}" for i in range(1, 41)]
    with pytest.raises(cardtable.CapacityError, match="78,960,960 seat assignments"):
        tournament("trafficars", players=5, bots=bots, games=2, progress=False)
    assert len(lineups_for(5, bots[:12], True)) == 95_040  # the most the docs name


def test_rating_bootstrap_has_an_upper_bound() -> None:
    # A huge count ran on for days with the progress bar already full.
    with pytest.raises(cardtable.InvalidOptionError, match="rating_bootstrap"):
        tournament(
            "goofspiel", players=2, bots=["greedy", "random"], games=2, rating_bootstrap=2**63
        )


def test_study_helpers_name_values_that_cannot_be_printed() -> None:
    s = sweep("goofspiel", players=2, grid={"num_cards": [2, 3]}, games=2, progress=False)
    with pytest.raises(cardtable.InvalidOptionError, match="about 5001 digits"):
        s.difference(10**5000, 0)
    # The list is written item by item, the int by its size (it was "<unprintable list object>").
    with pytest.raises(
        cardtable.InvalidOptionError, match=r"got \['greedy', <an int of about 5001 digits>\]"
    ):
        replay("goofspiel", 2, ["greedy", 10**5000], 0, 0)  # type: ignore[list-item]


def test_a_sweep_refuses_a_huge_or_endless_list_of_values_without_reading_it() -> None:
    # range(10**19) was an OverflowError, itertools.count() ran until memory ran out, and a list
    # of 100,000 values took minutes in the duplicate check before its values were checked.
    for values in (range(10**19), itertools.count(), range(1, 100_000)):
        with pytest.raises(cardtable.InvalidOptionError, match="more than 1,000 values"):
            sweep("goofspiel", players=2, grid={"num_cards": values}, games=2, progress=False)


# --- paired differences of shares: Tango's interval, and what is called clear --------------------


def _tango_from_its_definition(b12: int, b21: int, n: int) -> tuple[float, float]:
    """Tango's 95% interval for paired proportions, from the definition: the Δ whose score
    statistic, with the cell shares' maximum likelihood under Δ found numerically, is within
    ±1.96 (no closed form, unlike the one the studies use)."""
    from scipy import optimize, special, stats

    z = float(stats.norm.ppf(0.975))

    def score(delta: float) -> float:
        def minus_log_likelihood(q21: float) -> float:
            q12 = q21 + delta
            return -float(
                special.xlogy(b12, q12)
                + special.xlogy(b21, q21)
                + special.xlogy(n - b12 - b21, 1 - q12 - q21)
            )

        low, high = max(0.0, -delta), (1 - delta) / 2
        q21 = optimize.minimize_scalar(
            minus_log_likelihood, bounds=(low, high), method="bounded", options={"xatol": 1e-13}
        ).x
        return float((b12 - b21 - n * delta) / math.sqrt(n * (2 * q21 + delta * (1 - delta))))

    estimate = (b12 - b21) / n
    lower = optimize.brentq(lambda d: score(d) - z, -1 + 1e-9, estimate, xtol=1e-12)
    upper = optimize.brentq(lambda d: score(d) + z, estimate, 1 - 1e-9, xtol=1e-12)
    return lower, upper


@pytest.mark.parametrize(("b12", "b21", "n"), [(1, 7, 21), (6, 16, 161), (40, 20, 160), (3, 0, 5)])
def test_a_difference_of_paired_0_1_outcomes_gets_tangos_interval(
    b12: int, b21: int, n: int
) -> None:
    """The paired difference of shares was the t interval over deals, which has zero width when
    every deal gives the same difference. Of 0/1 outcomes it is now Tango's score interval."""
    a = np.r_[np.ones(b12), np.zeros(b21), np.ones(n - b12 - b21)]
    b = np.r_[np.zeros(b12), np.ones(b21), np.ones(n - b12 - b21)]
    e = paired_share_difference(a, b)
    assert e.value == pytest.approx((b12 - b21) / n) and e.n == n
    assert (e.low, e.high) == pytest.approx(_tango_from_its_definition(b12, b21, n), abs=1e-6)
    if (b12, b21, n) == (1, 7, 21):  # Fagerland, Lydersen and Laake's airway example
        assert (e.low, e.high) == pytest.approx((-0.517, -0.026), abs=1e-3)


@pytest.mark.parametrize(("shift", "deals"), [(0.4, 60), (2.5, 12), (3.5, 12)])
def test_a_paired_difference_of_shares_covers_95_percent(shift: float, deals: int) -> None:
    """Per-deal shares of two rotations (0, ½ or 1), each deal's luck shared by both bots. Near
    ±100 points and with few deals the t interval over deals covered 88–90% here; Tango's interval
    at the effective number of deals covers at least 95%, and 95 ± 1.5% with many deals."""
    from scipy.special import expit

    rng = np.random.default_rng(12)
    big = rng.normal(0, 1.0, 1_000_000)
    truth = float(np.mean(expit(shift + big) - expit(-shift + big)))
    hits = []
    for _ in range(2000):
        luck = rng.normal(0, 1.0, deals)
        a = rng.binomial(2, expit(shift + luck)) / 2
        b = rng.binomial(2, expit(-shift + luck)) / 2
        hits.append(paired_share_difference(a, b).contains(truth))
    coverage = _coverage(hits)
    assert (abs(coverage - 0.95) <= 0.02) if deals == 60 else (0.945 <= coverage <= 0.99)


def test_a_tournament_of_two_deals_claims_no_certain_difference() -> None:
    """``cardtable tournament goofspiel -p 2 -b greedy,random -n 2`` printed greedy − random
    ``+100.0 pts (+100.0…+100.0)`` while the win rates were 51–100% and 0–49%, and its report called
    it **a clear difference**: two deals claimed certainty. The interval (Tango's) now has width,
    and a sample in which every deal gave the same difference is said so, never called clear."""
    t = _goofspiel_tournament(games=2, rating_bootstrap=0)
    win = t.difference("greedy", "random", "win").paired
    assert win.value == 1 and win.no_spread and not clear(win)
    assert (win.low, win.high) == pytest.approx((-0.3152, 1.0), abs=1e-4)
    place = t.difference("greedy", "random", "place").paired
    assert place.low == place.high == -1 and place.no_spread and not clear(place)
    text = t.summary_table(width=300)
    assert "+100.0 pts (-31.5…+100.0)" in text
    assert "(+100.0…+100.0)" not in text and "-1.00 (all 2 deals alike)" in text
    page = " ".join(unescape(t.report().render()).split())
    assert "the same in each of the 2 deals</strong>, too few to tell" in page
    assert "a clear difference" not in page
    assert t.to_dict()["differences"][0]["paired"]["no_spread"] is True


def test_a_sweep_on_four_deals_calls_no_change_clear_that_every_deal_repeats() -> None:
    """``cardtable sweep goofspiel -g num_cards=1,...,40 -n 4`` marked 37 changes of random's win
    rate clear, from zero-width intervals of four deals that all agreed (and the lengths, which
    the cards fix). Now such a change is "the same in every deal" and, under 10 deals, too few to
    tell; the findings sum up an option's many values instead of listing 36 KB of them."""
    s = sweep(
        "goofspiel", players=2, grid={"num_cards": list(range(1, 13))}, games=4, progress=False
    )
    alike = [d for d in s.differences if d.paired.no_spread and d.paired.value != 0]
    assert len(alike) > 20 and not any(clear(d.paired) for d in alike)
    for d in s.differences:
        if d.metric.startswith("win rate") or d.metric == "shared wins":
            assert d.paired.high > d.paired.low  # a share's interval never collapses
    page = " ".join(unescape(s.report().render()).split())
    assert "<strong>win rate: random</strong> in 0 of 11" in page
    assert "<strong>mean length</strong> in 0 of 11" in page
    assert "the same in every deal with 10 (fewer than 10 deals: too few to tell)" in page
    assert "num_cards 1 → each of its 11 other values" in page and "num_cards 1 → 7:" not in page
    summary = page[page.index("What changes") : page.index("Differences from the baseline")]
    assert len(summary) < 6000


@pytest.mark.parametrize("replicates", [2, 10, 49])
def test_a_rating_interval_needs_enough_bootstrap_replicates(replicates: int) -> None:
    """``rating_bootstrap=2`` was taken, and its two replicates' spread shown as a 95% interval
    (whose ends are the 2.5th and 97.5th percentiles of the replicates)."""
    from cardtable._study_defaults import MIN_RATING_BOOTSTRAP

    assert MIN_RATING_BOOTSTRAP == 50
    message = f"rating_bootstrap must be 0 .* or at least 50 .*got {replicates}"
    with pytest.raises(cardtable.InvalidOptionError, match=message):
        _goofspiel_tournament(games=2, rating_bootstrap=replicates)
    assert _goofspiel_tournament(games=2, rating_bootstrap=50).rating_bootstrap == 50


def test_balance_without_a_sole_winner_says_the_seats_cannot_be_tested() -> None:
    """No game had a sole winner, so the exact test had nothing to count, yet the findings said
    "No seat advantage shows (exact test p = 1)"."""
    import json

    b = balance(
        "trafficars",
        players=5,
        games=100,
        trace_games=0,
        weaker=None,
        progress=False,
        hand_size=1,
        lanes=1,
        max_number=5,
    )
    assert all(s.sole_wins == 0 for s in b.seats)
    assert math.isnan(b.seat_p_value) and math.isnan(b.seat_chi2_p_value)
    assert all(math.isnan(s.p_value) for s in b.seats)
    data = json.loads(json.dumps(b.to_dict(), allow_nan=False))
    assert data["seat_p_value"] is None and data["seats"][0]["p_value"] is None
    text = " ".join(str(b).split())
    page = " ".join(unescape(b.report().render()).split())
    for shown in (text, page):
        assert "The seats cannot be tested for an advantage: no game had a sole winner" in (
            shown.replace("<strong>", "").replace("</strong>", "")
        )
        assert "No seat advantage shows" not in shown and "p = 1" not in shown
    assert "nan" not in text and "nan" not in page


# ----- small and degenerate samples --------------------------------------------------------------
def _greedy_sweeps_two_deals() -> Any:
    """greedy against random in goofspiel, two deals: greedy wins all four games."""
    return tournament(
        "goofspiel", players=2, bots=["greedy", "random"], games=2, seed=1, progress=False
    )


def test_a_rating_from_replicates_all_alike_has_no_interval() -> None:
    """Every deal went to greedy: every bootstrap resample is the same games, and the rating read
    `1721 (1721–1721)` with the point a rounding error outside its own interval."""
    t = _greedy_sweeps_two_deals()
    for r in t.ratings:
        assert math.isfinite(r.elo.value) and math.isnan(r.elo.low) and math.isnan(r.elo.high)
        assert "–" not in r.elo.fmt(0)
    # The report says so, not "with bootstrap 95% intervals" above a table without any.
    text = " ".join(t.report().render().split())
    assert "Ratings, without intervals: every deal went the same way" in text
    assert "Elo (95% interval)" not in text and "Ratings with bootstrap" not in text
    # Replicates that spread: the interval holds the point, however skewed they are.
    from cardtable.analysis._ratings import _around

    low, high = _around(10.0, [0.0, 0.0, 0.0, 100.0])
    assert low <= 10.0 <= high
    assert all(math.isnan(end) for end in _around(5.0, [5.0] * 50))  # no interval


def test_the_report_compares_interval_widths_only_where_it_can() -> None:
    """Paired score differences all alike gave `1149599145241.8× as precise`; two deals blamed
    the games' own luck for what Student's t at one degree of freedom does."""
    alike = tournament(
        "goofspiel",
        players=2,
        bots=["greedy", "random"],
        games=3,
        seed=4,
        num_cards=2,
        progress=False,
        rating_bootstrap=0,
    )
    assert alike.difference("greedy", "random", "score").paired.no_spread
    assert "as precise" not in _flat(alike.report().render())
    few = " ".join(_greedy_sweeps_two_deals().report().render().split())
    assert "With 2 deals the interval widths cannot tell" in few
    assert "as precise" not in few and "no more precise" not in few


def test_means_whose_deals_agree_but_whose_games_do_not_keep_an_interval() -> None:
    """Places 2, 1, 2, 1, … in every deal read `1.500 (1.500–1.500)`."""
    e = cluster_mean([1.0, 2.0, 1.0, 2.0, 1.0, 2.0], [0, 0, 1, 1, 2, 2])
    units = mean_estimate([1.0, 2.0, 1.0, 2.0, 1.0, 2.0])
    assert e.value == 1.5 and e.n == 3
    assert (e.low, e.high) == pytest.approx((units.low, units.high))
    same = cluster_mean([3.0] * 6, [0, 0, 1, 1, 2, 2])
    assert (same.low, same.high) == (3.0, 3.0)  # the same in every game: nothing to spread


def test_place_differences_and_seat_advantages_stay_in_their_range() -> None:
    bots = ["greedy", "random", "greedy:2"]
    t = tournament("trafficars", players=2, bots=bots, games=3, seed=1, progress=False)
    for d in t.differences:
        if d.metric == "place":
            for e in (d.paired, d.unpaired):
                assert -1.0 <= e.low <= e.value <= e.high <= 1.0
    s = sweep("trafficars", players=3, grid={"lanes": [1, 3]}, games=2, seed=1, progress=False)
    for point in s.points:
        advantage = point.metrics["seat 0 advantage"]
        assert -2 / 3 <= advantage.low <= advantage.value <= advantage.high <= 2 / 3


def test_the_unpaired_share_interval_never_narrows_as_the_sample_improves() -> None:
    """19 of 20 wins against 0 of 20 gave a higher lower end (+85.0) than 20 of 20 (+77.2)."""
    b = np.r_[np.full(20, np.nan), np.zeros(20)]
    nineteen = unpaired_estimate(np.r_[np.ones(19), 0.0, np.full(20, np.nan)], b, share=True)
    twenty = unpaired_estimate(np.r_[np.ones(20), np.full(20, np.nan)], b, share=True)
    assert nineteen.low < twenty.low
    assert nineteen.low <= unpaired_share_difference(np.r_[np.ones(19), 0.0], np.zeros(20)).low


def test_nothing_observed_is_a_proportion_without_an_interval() -> None:
    e = proportion(0, 0)
    assert math.isnan(e.value) and math.isnan(e.low) and math.isnan(e.high) and e.n == 0
