"""Shared fixtures: the two backends and the Hypothesis profiles.

Hypothesis runs a modest profile by default (25 examples per property); set
``CARDTABLE_HYPOTHESIS=deep`` for a long run (1,000), or to a whole number for that many examples.
``CARDTABLE_HYPOTHESIS=mutants`` (used by ``python -m tests.mutants``) neither shrinks nor keeps a
database: it only needs to know whether a test fails.
"""

from __future__ import annotations

import os
from typing import Any

import pytest
from hypothesis import HealthCheck, Phase, settings

import cardtable
from cardtable import GameProtocol
from tests.configs import ALL, IDS

settings.register_profile(
    "default",
    max_examples=25,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
settings.register_profile(
    "deep",
    max_examples=1000,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
settings.register_profile(
    "mutants",
    parent=settings.get_profile("default"),
    phases=[Phase.explicit, Phase.generate],
    database=None,
)


def _profile(value: str) -> str:
    """The profile ``CARDTABLE_HYPOTHESIS`` names: a registered one, or ``examples-N`` (the deep
    profile with ``N`` examples) for a whole number ``N``."""
    if value in ("default", "deep", "mutants"):
        return value
    if value.isdigit() and int(value) > 0:
        name = f"examples-{int(value)}"
        settings.register_profile(
            name, parent=settings.get_profile("deep"), max_examples=int(value)
        )
        return name
    raise pytest.UsageError(
        f"CARDTABLE_HYPOTHESIS must be default, deep, mutants or a whole number >= 1, got {value!r}"
    )


PROFILE = _profile(os.environ.get("CARDTABLE_HYPOTHESIS", "default"))
settings.load_profile(PROFILE)
DEEP = PROFILE not in ("default", "mutants")
"""A long Hypothesis run (``deep`` or a number of examples): tests get :data:`SLOW_TIMEOUT`."""

BACKENDS = ("rust", "reference")


@pytest.fixture(params=BACKENDS)
def backend(request: pytest.FixtureRequest) -> str:
    """Each test using it runs once per backend."""
    value: str = request.param
    return value


@pytest.fixture(params=ALL, ids=IDS)
def configured_game(request: pytest.FixtureRequest, backend: str) -> GameProtocol:
    """Each test using it runs once per option set of every game (``tests/configs.py``) and
    backend, with that game."""
    game_id, config = request.param
    return cardtable.make(game_id, backend=backend, **config)  # type: ignore[arg-type]


def pytest_addoption(parser: pytest.Parser) -> None:
    """``--slow`` (or ``CARDTABLE_SLOW=1``) also runs the tests marked ``slow``."""
    parser.addoption("--slow", action="store_true", help="also run the tests marked slow")


SLOW_TIMEOUT = 4 * 3600
"""Seconds a ``slow`` test may run before pytest-timeout stops it (the suite's own limit, 900 s
in ``pyproject.toml``, is for a hung test; a strength match of 200 Deep Regrets games at 4,000
iterations has taken 1,100 s on a loaded machine)."""


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Skips the ``slow`` tests unless asked for (they are for deliberate, long runs), and gives
    them :data:`SLOW_TIMEOUT` when they run (unless a test sets its own); in a :data:`DEEP` run,
    every test gets it (a thousand drawn games of Trafficars memory in the reference take longer
    than the 900 s that stops a hung test)."""
    slow = config.getoption("--slow") or os.environ.get("CARDTABLE_SLOW") == "1"
    for item in items:
        if (DEEP or (slow and "slow" in item.keywords)) and item.get_closest_marker(
            "timeout"
        ) is None:
            item.add_marker(pytest.mark.timeout(SLOW_TIMEOUT))
    if slow:
        return
    skip = pytest.mark.skip(reason="slow: run with --slow or CARDTABLE_SLOW=1")
    for item in items:
        if "slow" in item.keywords:
            item.add_marker(skip)


OPTIONAL_SKIP_PREFIXES = ("could not import", "optional:")
"""Skip reasons of tests that need an optional dependency or tool (``pytest.importorskip``, or a
reason starting with ``optional:``)."""


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item: pytest.Item, call: pytest.CallInfo[None]) -> Any:
    """Under ``CI=true`` a test that needs a missing optional dependency fails instead of skipping.

    CI installs every extra, so such a skip there means a broken install step, not a missing
    optional feature.
    """
    outcome = yield
    report = outcome.get_result()
    if os.environ.get("CI") != "true" or not report.skipped:
        return
    longrepr = report.longrepr
    reason = longrepr[2] if isinstance(longrepr, tuple) and len(longrepr) == 3 else ""
    reason = reason.removeprefix("Skipped: ")
    if reason.startswith(OPTIONAL_SKIP_PREFIXES):
        report.outcome = "failed"
        report.longrepr = f"CI=true: a needed optional dependency or tool is missing: {reason}"
