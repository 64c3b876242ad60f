"""Turn the Tide benchmarks: hot operations, full games per backend, batch runs per thread count."""

from __future__ import annotations

import pytest
from pytest_benchmark.fixture import BenchmarkFixture

from benches.common import BACKENDS, OPERATIONS, bench_batch, bench_full_game, bench_operations

GAME = "turn_the_tide"
CONFIG = {"players": 4}


@pytest.mark.parametrize("backend", BACKENDS)
def test_full_game(benchmark: BenchmarkFixture, backend: str) -> None:
    bench_full_game(benchmark, GAME, backend, CONFIG)


@pytest.mark.parametrize("threads", [1, 2])
def test_batch(benchmark: BenchmarkFixture, threads: int) -> None:
    bench_batch(benchmark, GAME, threads, 20_000, CONFIG)


@pytest.mark.parametrize("op", OPERATIONS)
@pytest.mark.parametrize("backend", BACKENDS)
def test_operation(benchmark: BenchmarkFixture, backend: str, op: str) -> None:
    bench_operations(benchmark, GAME, backend, op, CONFIG)
