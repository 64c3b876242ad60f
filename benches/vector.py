"""VectorEnv throughput against the same game driven through the PettingZoo adapter.

Both play Turn the Tide (4 players) with uniformly random legal actions for every seat, and count
agent decisions. ``VectorEnv`` steps 1024 games per call in Rust; the PettingZoo loop makes one
Python call per decision, as PettingZoo's AEC API does. Run ``python -m benches.vector`` for the
steps/s of both and their ratio.
"""

from __future__ import annotations

import time
from collections.abc import Callable

import numpy as np
import numpy.typing as npt
import pytest
from pytest_benchmark.fixture import BenchmarkFixture

import cardtable

GAME = "turn_the_tide"
PLAYERS = 4
NUM_ENVS = 1024


def random_legal(rng: np.random.Generator, mask: npt.NDArray[np.bool_]) -> npt.NDArray[np.int64]:
    """One uniformly random legal action per row, vectorized (0 for a row without one)."""
    scores = rng.random(mask.shape, dtype=np.float32)
    np.putmask(scores, ~mask, -1.0)
    best: npt.NDArray[np.int64] = scores.argmax(axis=1).astype(np.int64)
    return best


def vector_stepper(num_envs: int = NUM_ENVS) -> tuple[Callable[[], None], int]:
    """A function doing one ``VectorEnv.step`` with random legal actions; decisions per call."""
    env = cardtable.VectorEnv(GAME, num_envs, players=PLAYERS, agent_seats="all", seed=0)
    rng = np.random.default_rng(0)
    _, info = env.reset()
    mask = info["action_mask"]

    def step() -> None:
        nonlocal mask
        *_, info = env.step(random_legal(rng, mask))
        mask = info["action_mask"]

    return step, num_envs


def pettingzoo_stepper() -> tuple[Callable[[], None], int]:
    """A function doing one PettingZoo AEC step (random legal action); decisions per call."""
    from cardtable.adapters.pettingzoo import env as make_aec

    aec = make_aec(GAME, players=PLAYERS)
    rng = np.random.default_rng(0)
    aec.reset(seed=0)

    def step() -> None:
        if not aec.agents:
            aec.reset()
        obs, _, terminated, truncated, _ = aec.last()
        if terminated or truncated:
            aec.step(None)
        else:
            aec.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))

    return step, 1


def test_vector_env_1024_steps(benchmark: BenchmarkFixture) -> None:
    step, decisions = vector_stepper()
    benchmark.group = "VectorEnv vs PettingZoo: agent decisions"
    benchmark.extra_info.update({"game": GAME, "num_envs": NUM_ENVS, "decisions": decisions})
    benchmark(step)


def test_pettingzoo_aec_steps(benchmark: BenchmarkFixture) -> None:
    pytest.importorskip("pettingzoo")
    step, decisions = pettingzoo_stepper()
    benchmark.group = "VectorEnv vs PettingZoo: agent decisions"
    benchmark.extra_info.update({"game": GAME, "num_envs": 1, "decisions": decisions})
    benchmark(step)


def decisions_per_second(stepper: tuple[Callable[[], None], int], seconds: float) -> float:
    """Agent decisions per second of a stepper, measured for about ``seconds``."""
    step, decisions = stepper
    step()  # warm up
    calls, start = 0, time.perf_counter()
    while time.perf_counter() - start < seconds:
        step()
        calls += 1
    return calls * decisions / (time.perf_counter() - start)


def vector_rates(
    seconds: float, num_envs: int = NUM_ENVS, observations: bool = True
) -> tuple[float, float]:
    """``VectorEnv`` decisions per second, with the NumPy random policy and in ``step`` alone.

    One loop, timed twice: the whole loop (choosing actions with :func:`random_legal` and stepping)
    and the time spent inside ``env.step`` only.
    """
    env = cardtable.VectorEnv(
        GAME, num_envs, players=PLAYERS, agent_seats="all", seed=0, observations=observations
    )
    rng = np.random.default_rng(0)
    _, info = env.reset()
    mask = info["action_mask"]
    calls, in_step, start = 0, 0.0, time.perf_counter()
    while time.perf_counter() - start < seconds:
        actions = random_legal(rng, mask)
        before = time.perf_counter()
        *_, info = env.step(actions)
        in_step += time.perf_counter() - before
        mask = info["action_mask"]
        calls += 1
    total = time.perf_counter() - start
    return calls * num_envs / total, calls * num_envs / in_step


def main() -> None:
    """Prints every figure the README quotes: both rates, the stepping alone, the ratios."""
    with_policy, stepping = vector_rates(5.0)
    aec = decisions_per_second(pettingzoo_stepper(), 5.0)
    print(f"{GAME}, {PLAYERS} players, random legal actions for every seat")
    print(f"VectorEnv ({NUM_ENVS} envs), with the NumPy policy: {with_policy:14,.0f} decisions/s")
    print(f"VectorEnv ({NUM_ENVS} envs), step calls alone:      {stepping:14,.0f} decisions/s")
    print(f"PettingZoo AEC adapter, one call per decision:  {aec:14,.0f} decisions/s")
    print(f"ratio VectorEnv / PettingZoo: {with_policy / aec:,.1f}x")
    print(f"ratio VectorEnv step calls alone / PettingZoo: {stepping / aec:,.1f}x")
    lazy_policy, lazy_stepping = vector_rates(5.0, observations=False)
    print(f"VectorEnv, observations=False, with the policy: {lazy_policy:14,.0f} decisions/s")
    print(f"VectorEnv, observations=False, step calls alone: {lazy_stepping:13,.0f} decisions/s")


if __name__ == "__main__":
    main()
