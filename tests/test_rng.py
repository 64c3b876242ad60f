"""The Python RNG against the test vectors shared with the Rust test suite."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from cardtable._rng import SplitMix64, derive_seed
from cardtable.errors import InvalidOptionError

# In the engine crate, so that its packaged tests have them too.
VECTORS: dict[str, Any] = json.loads(
    (Path(__file__).parents[1] / "rust/engine/tests/data/rng_vectors.json").read_text()
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


def test_below_rejects_what_is_not_a_positive_whole_number() -> None:
    for n in (0, -3, 2.0, True, "5", None, np.array([5]), 2**64 + 1):
        with pytest.raises(InvalidOptionError, match=r"whole number n in 1..=2\*\*64"):
            SplitMix64(0).below(n)  # type: ignore[arg-type]
    assert SplitMix64(7).below(np.int64(10)) == SplitMix64(7).below(10)
    assert SplitMix64(7).below(2**64) == SplitMix64(7).next()  # the whole output
    for weights in ([(0, 2**63), (1, 2**63), (2, 1)], [(0, -1), (1, 3)], [(0, 1.5)], [(0, 0)]):
        with pytest.raises(InvalidOptionError):
            SplitMix64(0).pick_weighted(weights)  # type: ignore[arg-type]


def test_the_rng_is_public_in_the_testing_module() -> None:
    """A Python implementation tested with ``seed=`` draws its chance outcomes from ours."""
    from cardtable.testing import SplitMix64 as Public

    assert Public is SplitMix64


def test_the_public_derive_seed_seeds_a_run_as_simulate_does() -> None:
    import cardtable

    result = cardtable.simulate(
        "goofspiel", games=4, players=2, bots=["greedy", "random"], seed=7, progress=False
    )
    assert result.scores is not None
    game = cardtable.make("goofspiel", players=2)
    for g in range(4):
        g_seed = cardtable.derive_seed(np.uint64(7), g)  # type: ignore[arg-type]
        assert g_seed == derive_seed(7, g)
        state = game.new_state(seed=g_seed)
        seats = [
            cardtable.bot(game, name, p, seed=cardtable.derive_seed(g_seed, p + 1))
            for p, name in enumerate(["greedy", "random"])
        ]
        while not state.is_terminal:
            state.apply(seats[state.current_player].act(state))
        assert state.scores == [int(x) for x in result.scores[g]]
    for bad in (-1, 2**64, 1.0, True, "1", None):
        with pytest.raises(cardtable.InvalidOptionError, match="must be an int in 0"):
            cardtable.derive_seed(bad, 0)  # type: ignore[arg-type]
        with pytest.raises(cardtable.InvalidOptionError, match="index must be an int in 0"):
            cardtable.derive_seed(0, bad)  # type: ignore[arg-type]
