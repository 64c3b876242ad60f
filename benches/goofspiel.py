"""Goofspiel benchmarks (see benches/common.py)."""

from __future__ import annotations

from benches.common import define_benchmarks

test_full_game, test_batch, test_operation = define_benchmarks(
    "goofspiel", {"players": 2, "num_cards": 13}, batch_games=50_000
)
