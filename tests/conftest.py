"""Shared fixtures: the two backends and the Hypothesis profiles.

Hypothesis runs a modest profile by default; set ``CARDTABLE_HYPOTHESIS=deep`` for a long run.
"""

from __future__ import annotations

import os

import pytest
from hypothesis import HealthCheck, settings

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
settings.load_profile(os.environ.get("CARDTABLE_HYPOTHESIS", "default"))

BACKENDS = ("rust", "reference")


@pytest.fixture(params=BACKENDS)
def backend(request: pytest.FixtureRequest) -> str:
    """Each test using it runs once per backend."""
    value: str = request.param
    return value
