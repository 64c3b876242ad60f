"""Trafficars traffic jam benchmarks (see benches/common.py)."""

from __future__ import annotations

from typing import Any

from benches.common import define_benchmarks

CONFIG: dict[str, Any] = {"players": 4}
"""The players and options this game is measured with here and by ``make compare``/``make perf``."""

SEARCH_DECISIONS = 3
"""Decisions ``make search-perf`` measures (about half a second of native work; default 10)."""

test_full_game, test_batch, test_operation = define_benchmarks(
    "trafficars", CONFIG, batch_games=20_000
)
