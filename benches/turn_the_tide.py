"""Turn the Tide benchmarks (see benches/common.py)."""

from __future__ import annotations

from benches.common import define_benchmarks

test_full_game, test_batch, test_operation = define_benchmarks(
    "turn_the_tide", {"players": 4}, batch_games=20_000
)
