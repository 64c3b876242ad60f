"""Trafficars overtaking lane benchmarks (see benches/common.py)."""

from __future__ import annotations

from benches.common import define_benchmarks

test_full_game, test_batch, test_operation = define_benchmarks(
    "trafficars_overtaking", {"players": 4}, batch_games=5_000
)
