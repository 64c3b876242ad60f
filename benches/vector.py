"""VectorEnv throughput against the same game driven through the PettingZoo adapter.

Both play Turn the Tide (4 players) with uniformly random legal actions for every seat, and count
agent decisions. ``VectorEnv`` steps 1024 games per call in Rust; the PettingZoo loop makes one
Python call per decision, as PettingZoo's AEC API does. Run ``python -m benches.vector`` for the
steps/s of both and their ratio. The last figures it prints are the time of one ``VectorEnv.step``
call with reused buffers for a few envs and for many, with the binding's packed output arrays and
with the same arrays in a plain dict.
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


SMALL_BATCHES = (1, 16, 64, 1024)
"""Env counts of the per-call timings (learners often step a few envs at a time)."""


def reused_stepper(num_envs: int, packed: bool = True) -> tuple[Callable[[], None], int]:
    """One ``VectorEnv.step`` with ``reuse_buffers=True`` and ``observations=False``, each env's
    first legal action chosen outside the step; decisions per call.

    ``packed=False`` gives the step the same arrays in a plain dict, which the binding borrows
    one by one (eight borrows a call) instead of through the three packed arrays behind them.
    """
    env = cardtable.VectorEnv(
        GAME,
        num_envs,
        players=PLAYERS,
        agent_seats="all",
        seed=0,
        threads=1,
        reuse_buffers=True,
        observations=False,
    )
    _, info = env.reset()
    if not packed:
        env._out = dict(env._env.output_buffers())
    mask = info["action_mask"]
    actions = np.zeros(num_envs, np.int64)

    def step() -> None:
        np.argmax(mask, axis=1, out=actions)
        env.step(actions)

    return step, num_envs


@pytest.mark.parametrize("num_envs", [1, 64])
def test_vector_env_small_batch_steps(benchmark: BenchmarkFixture, num_envs: int) -> None:
    step, decisions = reused_stepper(num_envs)
    benchmark.group = "VectorEnv: one step call, reused buffers"
    benchmark.extra_info.update({"game": GAME, "num_envs": num_envs, "decisions": decisions})
    benchmark(step)


def microseconds_per_call(stepper: tuple[Callable[[], None], int], seconds: float) -> float:
    """Microseconds per call of a stepper (choosing the actions included), over ``seconds``."""
    return stepper[1] / decisions_per_second(stepper, seconds) * 1e6


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
    print()
    print("One step call with reuse_buffers=True, observations=False (actions chosen by argmax):")
    print("µs per call with the packed output arrays, and with the same arrays in a plain dict")
    for n in SMALL_BATCHES:
        packed = microseconds_per_call(reused_stepper(n), 2.0)
        plain = microseconds_per_call(reused_stepper(n, packed=False), 2.0)
        ratio = plain / packed
        print(f"{n:5d} envs: packed {packed:7.2f} µs, plain dict {plain:7.2f} µs, {ratio:.2f}x")


if __name__ == "__main__":
    main()
