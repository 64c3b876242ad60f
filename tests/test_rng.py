"""The Python RNG against the test vectors shared with the Rust test suite."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from cardtable._rng import SplitMix64, derive_seed

VECTORS: dict[str, Any] = json.loads(
    (Path(__file__).parent / "data" / "rng_vectors.json").read_text()
)


def test_published_splitmix64_reference_values() -> None:
    rng = SplitMix64(1234567)
    assert [rng.next() for _ in range(3)] == [
        6457827717110365317,
        3203168211198807973,
        9817491932198370423,
    ]


@pytest.mark.parametrize("case", VECTORS["next"], ids=lambda c: f"seed{c['seed']}")
def test_next(case: dict[str, Any]) -> None:
    rng = SplitMix64(case["seed"])
    assert [rng.next() for _ in range(8)] == case["outputs"]


@pytest.mark.parametrize("case", VECTORS["below"], ids=lambda c: f"seed{c['seed']}-n{c['n']}")
def test_below(case: dict[str, Any]) -> None:
    rng = SplitMix64(case["seed"])
    outputs = [rng.below(case["n"]) for _ in range(10)]
    assert outputs == case["outputs"]
    assert all(0 <= x < case["n"] for x in outputs)


@pytest.mark.parametrize("case", VECTORS["pick_weighted"], ids=lambda c: f"seed{c['seed']}")
def test_pick_weighted(case: dict[str, Any]) -> None:
    rng = SplitMix64(case["seed"])
    weights = [(o, w) for o, w in case["weights"]]
    assert [rng.pick_weighted(weights) for _ in range(20)] == case["outputs"]


@pytest.mark.parametrize("case", VECTORS["derive_seed"], ids=lambda c: f"seed{c['seed']}")
def test_derive_seed(case: dict[str, Any]) -> None:
    assert [derive_seed(case["seed"], i) for i in case["index"]] == case["outputs"]


def test_below_rejects_non_positive() -> None:
    with pytest.raises(ValueError):
        SplitMix64(0).below(0)
