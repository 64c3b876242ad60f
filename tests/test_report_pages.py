"""The studies' HTML reports as pages: what their charts show, how they read, and how they lay out.

Each test's docstring says what a review of the reports found wrong before.
"""

from __future__ import annotations

import importlib
import re
from collections.abc import Callable, Iterator
from html import unescape
from pathlib import Path
from typing import Any

import numpy as np
import pytest

import cardtable
from cardtable.analysis import TournamentResult, balance, sweep, tournament
from cardtable.analysis._report import chart_label, text_color
from cardtable.analysis._stats import Estimate
from cardtable.analysis._text import literal, unmarked
from tests.browser import headless_chromium


def _goofspiel_tournament(**kw: Any) -> TournamentResult:
    settings: dict[str, Any] = {"games": 20, "seed": 1, "rating_bootstrap": 0, **kw}
    return tournament("goofspiel", players=2, bots=["greedy", "random"], progress=False, **settings)


def _module(name: str) -> Any:
    """The module ``cardtable.analysis.<name>`` (the package's attribute is its study function)."""
    return importlib.import_module(f"cardtable.analysis.{name}")


def _figures(module: Any, monkeypatch: pytest.MonkeyPatch) -> list[Any]:
    """The matplotlib figures ``module`` turns into SVG from now on (kept after they are closed)."""
    kept: list[Any] = []
    real = module.svg_of

    def keep(fig: Any) -> str:
        kept.append(fig)
        svg: str = real(fig)
        return svg

    monkeypatch.setattr(module, "svg_of", keep)
    return kept


def _policy(name: str) -> Callable[[cardtable.PolicyBatch], list[int]]:
    """A policy that bids its lowest card, under ``name``."""

    def lowest(batch: cardtable.PolicyBatch) -> list[int]:
        return [legal[0] for legal in batch.legal_actions]

    lowest.__name__ = name
    return lowest


# --- what the charts show ------------------------------------------------------------------------


def test_the_score_histogram_gives_shares_in_bins_shared_by_the_bots(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The histogram was drawn with ``density=True`` (bars whose areas sum to 1) under the label
    "share of seat-games", with bins of each bot's own range, and told the bots apart by colour
    alone."""
    import matplotlib.axes

    calls: list[dict[str, Any]] = []
    real = matplotlib.axes.Axes.hist

    def hist(self: Any, x: Any, *args: Any, **kw: Any) -> Any:
        calls.append({"x": np.asarray(x), **kw})
        return real(self, x, *args, **kw)

    monkeypatch.setattr(matplotlib.axes.Axes, "hist", hist)
    t = tournament(
        "goofspiel",
        players=2,
        bots=["greedy", "random", _policy("lowest")],
        games=12,
        seed=2,
        progress=False,
        rating_bootstrap=0,
        num_cards=6,
    )
    page = t.report().render()
    assert len(calls) == 3
    for call in calls:
        assert not call.get("density")
        counts, _ = np.histogram(call["x"], bins=call["bins"], weights=call["weights"])
        assert counts.sum() == pytest.approx(100.0)  # each bar a share of the bot's seat-games
        assert np.array_equal(call["bins"], calls[0]["bins"])
    assert len({call["linestyle"] for call in calls}) == 3
    assert "share of the bot&#x27;s seat-games (%)" in page or "share of the bot's" in page


def test_a_heat_map_cell_gives_its_interval_ends_in_a_colour_that_contrasts(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A sweep's heat-map cell read "100.0 ±24.5" for a lopsided Wilson interval (reaching past
    100), and its text was white on the lower 60% of the colour range, which is light green and
    yellow in viridis; the tournament's map picked white by distance from 50%."""
    kept = [_figures(_module(name), monkeypatch) for name in ("sweep", "tournament")]
    grid: dict[str, list[Any]] = {"lanes": [2, 3], "max_cars": [3, 4, 5]}
    s = sweep("trafficars", players=3, grid=grid, games=12, seed=1, progress=False)
    s.report().render()
    _goofspiel_tournament(games=12).report().render()
    maps = [ax for figures in kept for fig in figures for ax in fig.axes if ax.images]
    assert len(maps) >= 5
    for ax in maps:
        image: Any = ax.images[0]
        data = image.get_array()
        for text in ax.texts:
            _, interval = text.get_text().split("\n")
            assert "±" not in text.get_text()
            assert re.fullmatch(r"\(-?[\d.]+[–…]-?[\d.]+\)", interval), text.get_text()
            j, i = (round(c) for c in text.get_position())
            assert text.get_color() == text_color(image.cmap(image.norm(data[i, j])))


def test_text_colour_follows_the_relative_luminance() -> None:
    """The rule of thumb picked white text on viridis' light green (0.55) and yellow-green."""
    from matplotlib import colormaps

    viridis = colormaps["viridis"]
    assert text_color(viridis(0.0)) == "white"  # dark purple
    assert text_color(viridis(0.55)) == "black"  # the old rule: white
    assert text_color(viridis(1.0)) == "black"
    assert text_color((0.0, 0.0, 0.0, 1.0)) == "white"
    assert text_color((1.0, 1.0, 1.0, 1.0)) == "black"


def test_the_seat_chart_shows_every_interval_whole(monkeypatch: pytest.MonkeyPatch) -> None:
    """The seat chart's y axis ended at 1.3 × the highest bar, cutting off the error bars of a
    study of a few games."""
    figures = _figures(_module("balance"), monkeypatch)
    b = balance("goofspiel", players=2, bot="random", games=8, weaker=None, progress=False)
    b.report().render()
    seat_chart = figures[0].axes[0]
    assert seat_chart.get_ylabel() == "win rate (%)"
    top = seat_chart.get_ylim()[1]
    assert (
        top
        >= max(100 * s.win_rate.high for s in b.seats)
        > 1.3 * max(100 * s.win_rate.value for s in b.seats)
    )


def test_charts_with_nothing_to_show_are_left_out(monkeypatch: pytest.MonkeyPatch) -> None:
    """Goofspiel's greedy against itself draws every game: the report drew a histogram of one
    bar (every margin 0, every lead-change count 0), and the y ticks counting games read 0.25,
    0.5, ..."""
    from cardtable.analysis.balance import Distribution, _bar_distribution

    b = balance("goofspiel", players=2, games=20, trace_games=5, weaker=None, progress=False)
    page = unescape(b.report().render())
    assert "Every game had a winning margin of 0: no histogram." in page
    assert "<figcaption" not in page.split("Winning margin")[1][:300]
    figures = _figures(_module("balance"), monkeypatch)
    _bar_distribution(Distribution.of(np.array([0, 1, 1, 2])), "lead changes", "#b279a2")
    ticks = [t.get_text() for t in figures[0].axes[0].get_yticklabels() if t.get_text()]
    assert ticks and all(re.fullmatch(r"[−-]?\d+", t) for t in ticks), ticks


def test_a_one_option_sweep_plots_numbers_on_a_numeric_axis(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """``num_cards`` 2, 3, 5, 9 were spaced as four categories, one step apart."""
    figures = _figures(_module("sweep"), monkeypatch)
    s = sweep("goofspiel", players=2, grid={"num_cards": [2, 3, 5, 9]}, games=6, progress=False)
    page = unescape(s.report().render())
    line = figures[0].axes[0].lines[0]
    assert list(line.get_xdata()) == [2.0, 3.0, 5.0, 9.0]
    # Captions with the metric's unit.
    assert "mean length (decisions per game) over the option's values" in page
    assert "mean margin (points) over the option's values" in page


# --- how the pages read ---------------------------------------------------------------------------


def test_names_are_drawn_and_written_as_they_are() -> None:
    """A Python policy named ``$\\frac$`` made matplotlib raise ValueError (its name was read as
    mathtext), ``cost$x^2$`` was drawn as a formula, and ``a**b`` turned the findings' bold off
    and on."""
    bots: list[Any] = [_policy("cost$x^2$"), _policy("$\\frac$"), _policy("a**b"), "greedy"]
    t = tournament("goofspiel", players=2, bots=bots, games=3, progress=False, rating_bootstrap=0)
    page = t.report().render()  # no ValueError
    assert ">policy:cost$x^2$</text>" in page and ">policy:$\\frac$</text>" in page
    findings = page[page.index('<ul class="findings">') : page.index("</ul>")]
    assert findings.count("<strong>") == findings.count("</strong>")
    assert "policy:a**b" in findings
    best = "**" + literal("policy:a**b") + "** wins"
    assert unmarked(best) == "policy:a**b wins"


def test_every_chart_and_table_is_named_for_a_screen_reader() -> None:
    """The charts were bare ``<svg>`` elements and the tables had no caption, no header scopes
    and their row names in plain cells."""
    t = tournament(
        "goofspiel", players=2, bots=["greedy", "random"], games=6, progress=False
    )  # with rating intervals
    page = t.report().render()
    svgs = re.findall(r"<svg [^>]*>", page)
    assert len(svgs) == 4
    for tag in svgs:
        assert 'role="img"' in tag
        (label,) = re.findall(r'aria-labelledby="([^"]+)"', tag)
        assert re.search(rf'<figcaption id="{label}">[^<]+</figcaption>', page)
    tables = re.findall(r"<table>.*?</table>", page, re.S)
    assert len(tables) == 2
    for table in tables:
        assert re.search(r"<caption>[^<]+</caption>", table)
        assert "<th>" not in table and '<th scope="col">' in table
        rows = re.findall(r"<tbody>(.*?)</tbody>", table, re.S)[0].split("<tr>")[1:]
        assert all(row.startswith('<th scope="row">') for row in rows)


def test_the_same_study_gives_the_same_page_but_for_its_run_time() -> None:
    """matplotlib salted every SVG id at random, so two runs of the same seed gave different
    pages; and the figures of a page shared ids (``axes_1`` in each)."""

    def page() -> str:
        text = _goofspiel_tournament(games=8).report().render()
        return re.sub(r"in \d+\.\d s\.", "in — s.", text)

    first, second = page(), page()
    assert first == second
    ids = re.findall(r'\bid="([^"]+)"', first)
    assert len(ids) == len(set(ids)) > 50
    for ref in re.findall(r'(?:href="#|url\(#)([^")]+)', first):
        assert ref in ids  # every reference names an id of its own figure


def test_the_balance_table_says_which_score_is_better_and_minus_reads_clearly() -> None:
    """The balance page headed its score column "mean score" where the terminal says "(lower is
    better)", and an interval of negative numbers read "-2.56–-1.48"."""
    b = balance("trafficars", players=3, games=20, trace_games=0, weaker=None, progress=False)
    assert "mean score (lower is better)" in b.report().render()
    assert Estimate(-2.0, -2.56, -1.48, 5).fmt(2) == "-2.00 (-2.56…-1.48)"
    assert Estimate(0.5, -0.2, 1.2, 5).fmt(2) == "0.50 (-0.20…1.20)"
    assert Estimate(1.0, 0.5, 1.5, 5).fmt(2) == "1.00 (0.50–1.50)"


def test_a_long_bot_spec_breaks_after_its_commas_on_a_chart() -> None:
    """A search bot's spec ran on one line and widened the chart until the page shrank it."""
    spec = "mcts:iterations=8,c=1.4,rollout=greedy,reward=margin"
    lines = chart_label(spec).split("\n")
    assert "".join(lines) == spec and all(len(x) <= 22 for x in lines) and len(lines) == 3
    assert chart_label("greedy") == "greedy"


# --- how the pages lay out ------------------------------------------------------------------------


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    yield from headless_chromium("1280,1000")


@pytest.fixture(scope="module")
def long_spec_report(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("report") / "tournament.html"
    bots = ["mcts:iterations=8,c=1.4,rollout=greedy,reward=margin", "greedy", "random"]
    t = tournament(
        "goofspiel", players=2, bots=bots, games=4, progress=False, rating_bootstrap=0, num_cards=5
    )
    t.write_report(path)
    return path


@pytest.mark.parametrize("width", [390, 1280])
def test_tables_stay_in_their_cards_and_charts_keep_their_size(
    browser: Any, long_spec_report: Path, width: int
) -> None:
    """At 390 px the tables ran out of their cards (and the page scrolled sideways); at 1280 px a
    long bot spec pushed the tables past the card and widened the charts, which the page then
    shrank."""
    browser.set_window_size(width, 1000)
    browser.get(long_spec_report.as_uri())
    inner = browser.execute_script("return window.innerWidth")
    assert browser.execute_script("return document.documentElement.scrollWidth") <= inner
    overflows = browser.execute_script(
        "return Array.from(document.querySelectorAll('.card'))"
        ".map(c => c.scrollWidth - c.clientWidth)"
    )
    assert max(overflows) <= 0
    assert browser.execute_script(
        "return Array.from(document.querySelectorAll('table'))"
        ".every(t => t.parentElement.classList.contains('scroll'))"
    )
    if width == 1280:
        # The tables fit whole, and every chart is drawn at its own size.
        assert browser.execute_script(
            "return Array.from(document.querySelectorAll('.scroll'))"
            ".every(s => s.scrollWidth <= s.clientWidth)"
        )
        scales = browser.execute_script(
            "return Array.from(document.querySelectorAll('figure svg')).map(s => "
            "s.getBoundingClientRect().width / s.width.baseVal.value)"
        )
        assert min(scales) > 0.99, scales
