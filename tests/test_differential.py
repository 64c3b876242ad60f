"""Differential tests of the Rust engine against the reference.

Hypothesis picks every chance outcome and action; after every step both backends agree on everything
DESIGN.md lists.
"""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given

import cardtable
from cardtable.testing import assert_equivalent, choice_sequences, random_choices
from tests.configs import ALL, IDS


@pytest.mark.parametrize(("game_id", "config"), ALL, ids=IDS)
def test_backends_agree_on_hypothesis_choices(game_id: str, config: dict[str, Any]) -> None:
    rust = cardtable.make(game_id, backend="rust", **config)
    ref = cardtable.make(game_id, backend="reference", **config)

    @given(choices=choice_sequences())
    def run(choices: list[int]) -> None:
        assert_equivalent(ref, rust, choices)

    run()


@pytest.mark.parametrize(("game_id", "config"), ALL, ids=IDS)
def test_backends_agree_on_random_games(game_id: str, config: dict[str, Any]) -> None:
    rust = cardtable.make(game_id, backend="rust", **config)
    ref = cardtable.make(game_id, backend="reference", **config)
    for seed in range(4):
        assert_equivalent(ref, rust, random_choices(seed))
