"""Deep Regrets benchmarks (see benches/common.py)."""

from __future__ import annotations

from benches.common import define_benchmarks

test_full_game, test_batch, test_operation = define_benchmarks(
    "deep_regrets", {"players": 4}, batch_games=2_000
)
