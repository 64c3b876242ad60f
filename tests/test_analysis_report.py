"""The HTML reports open in a real headless Chromium without console errors and show their plots.

Screenshots are kept in ``tests/artifacts/`` (ignored by git) for a person to look at.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.browser import headless_chromium
from tests.command_line import run_cli

ARTIFACTS = Path(__file__).parent / "artifacts"


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    yield from headless_chromium("1100,900")


def _make(kind: str, path: Path) -> None:
    commands = {
        "tournament": [
            "tournament",
            "trafficars",
            "-p",
            "3",
            "-b",
            "greedy,random",
            "-n",
            "150",
            "--rating-bootstrap",
            "50",
        ],
        "balance": ["balance", "turn_the_tide", "-p", "4", "-n", "600", "--trace-games", "40"],
        "sweep": [
            "sweep",
            "trafficars",
            "-p",
            "3",
            "--grid",
            "lanes=2,3",
            "--grid",
            "max_cars=3,4,5",
            "-n",
            "40",
            "--baseline",
            "lanes=3",
            "--baseline",
            "max_cars=4",
        ],
    }
    run_cli(*commands[kind], "--no-progress", "--report", str(path))


@pytest.mark.parametrize(("kind", "figures"), [("tournament", 4), ("balance", 5), ("sweep", 6)])
def test_report_opens_in_a_browser_and_shows_its_plots(
    browser: Any, tmp_path: Path, kind: str, figures: int
) -> None:
    path = tmp_path / f"{kind}.html"
    _make(kind, path)
    text = path.read_text(encoding="utf-8")
    for fetch in ('src="http', 'href="http', "url(http", "@import", "<script", '<link rel="style'):
        assert fetch not in text  # nothing to fetch, nothing to run
    browser.get(path.as_uri())
    assert browser.execute_script("return document.readyState") == "complete"
    sizes = browser.execute_script(
        "return Array.from(document.querySelectorAll('figure svg'))"
        ".map(s => { const r = s.getBoundingClientRect(); return [r.width, r.height]; })"
    )
    assert len(sizes) >= figures
    assert all(w > 150 and h > 80 for w, h in sizes), sizes
    # Every plot draws something: paths or rectangles inside each SVG.
    marks = browser.execute_script(
        "return Array.from(document.querySelectorAll('figure svg'))"
        ".map(s => s.querySelectorAll('path, rect, use').length)"
    )
    assert min(marks) > 5
    errors = [e for e in browser.get_log("browser") if e["level"] in ("SEVERE", "WARNING")]
    assert errors == []
    height = browser.execute_script("return document.documentElement.scrollHeight")
    browser.set_window_size(1100, min(int(height) + 40, 16000))
    ARTIFACTS.mkdir(exist_ok=True)
    shot = ARTIFACTS / f"report-{kind}.png"
    assert browser.save_screenshot(str(shot))
    assert shot.stat().st_size > 20_000
