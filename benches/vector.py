"""VectorEnv throughput against the same game driven through the PettingZoo adapter.

Both play Turn the Tide (4 players) with uniformly random legal actions for every seat, and count
agent decisions: a ``VectorEnv`` env-step whose ``info["autoreset"]`` is true (the step after that
env's game ended, which ignores the action and starts the next game) is not one, nor is a
PettingZoo ``step(None)`` of an agent whose game ended. ``VectorEnv`` steps 1024 games per call
in Rust; the PettingZoo loop makes one Python call per decision, as PettingZoo's AEC API does.
Run ``python -m benches.vector`` for the decisions/s of both and their ratio. The last figures it
prints are the time of one ``VectorEnv.step`` call with reused buffers for a few envs and for
many, with the binding's packed output arrays and with the same arrays in a plain dict.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any

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


Stepper = Callable[[], int]
"""One step of a loop; returns the agent decisions it made."""


def vector_stepper(num_envs: int = NUM_ENVS) -> Stepper:
    """A function doing one ``VectorEnv.step`` with random legal actions; returns the decisions it
    made: one per env, except the envs whose step is an autoreset (``info["autoreset"]``: the step
    after a game ended ignores the action and starts the next game)."""
    env = cardtable.VectorEnv(GAME, num_envs, players=PLAYERS, agent_seats="all", seed=0)
    rng = np.random.default_rng(0)
    _, info = env.reset()
    mask = info["action_mask"]

    def step() -> int:
        nonlocal mask
        *_, info = env.step(random_legal(rng, mask))
        mask = info["action_mask"]
        return int(np.count_nonzero(~info["autoreset"]))

    return step


def pettingzoo_stepper() -> Stepper:
    """A function doing one PettingZoo AEC call; returns the decisions it made: 1 for a random legal
    action, 0 for the ``step(None)`` of an agent whose game ended (and the ``reset`` after the
    last one)."""
    from cardtable.adapters.pettingzoo import env as make_aec

    aec = make_aec(GAME, players=PLAYERS)
    rng = np.random.default_rng(0)
    aec.reset(seed=0)

    def step() -> int:
        if not aec.agents:
            aec.reset()
            return 0
        obs, _, terminated, truncated, _ = aec.last()
        if terminated or truncated:
            aec.step(None)
            return 0
        aec.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
        return 1

    return step


def plays_on(step: Stepper, calls: int) -> int:
    """The decisions of ``calls`` more calls of ``step`` (to check that a benchmark's steps
    play)."""
    return sum(step() for _ in range(calls))


def test_vector_env_1024_steps(benchmark: BenchmarkFixture) -> None:
    step = vector_stepper()
    benchmark.group = "VectorEnv vs PettingZoo: agent decisions"
    benchmark.extra_info.update({"game": GAME, "num_envs": NUM_ENVS})
    decisions = benchmark(step)
    assert 0 < decisions <= NUM_ENVS
    # About a game per env: every env ends a game, so some steps are autoresets.
    later = plays_on(step, 400)
    assert NUM_ENVS * 300 < later < NUM_ENVS * 400


def test_pettingzoo_aec_steps(benchmark: BenchmarkFixture) -> None:
    pytest.importorskip("pettingzoo")
    step = pettingzoo_stepper()
    benchmark.group = "VectorEnv vs PettingZoo: agent decisions"
    benchmark.extra_info.update({"game": GAME, "num_envs": 1})
    assert benchmark(step) in (0, 1)
    # A few games: most calls are decisions, the ended agents' calls and the resets are not.
    later = plays_on(step, 1000)
    assert 900 < later < 1000


def decisions_per_second(step: Stepper, seconds: float) -> float:
    """Agent decisions per second of a stepper, measured for about ``seconds``."""
    step()  # warm up
    decisions, start = 0, time.perf_counter()
    while time.perf_counter() - start < seconds:
        decisions += step()
    return decisions / (time.perf_counter() - start)


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
    decisions, in_step, start = 0, 0.0, time.perf_counter()
    while time.perf_counter() - start < seconds:
        actions = random_legal(rng, mask)
        before = time.perf_counter()
        *_, info = env.step(actions)
        in_step += time.perf_counter() - before
        mask = info["action_mask"]
        decisions += int(np.count_nonzero(~info["autoreset"]))
    total = time.perf_counter() - start
    return decisions / total, decisions / in_step


SMALL_BATCHES = (1, 16, 64, 1024)
"""Env counts of the per-call timings (learners often step a few envs at a time)."""


def reused_stepper(num_envs: int, packed: bool = True) -> Callable[[], tuple[Any, ...]]:
    """One ``VectorEnv.step`` with ``reuse_buffers=True`` and ``observations=False``, each env's
    first legal action chosen by ``argmax`` in the call; returns the step's result.

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

    def step() -> tuple[Any, ...]:
        np.argmax(mask, axis=1, out=actions)
        return env.step(actions)

    return step


@pytest.mark.parametrize("num_envs", [1, 64])
def test_vector_env_small_batch_steps(benchmark: BenchmarkFixture, num_envs: int) -> None:
    step = reused_stepper(num_envs)
    benchmark.group = "VectorEnv: one step call, reused buffers"
    benchmark.extra_info.update({"game": GAME, "num_envs": num_envs})
    _, _, _, _, info = benchmark(step)
    started = info["game_index"].copy()
    # Played on, every env ends a game (a reward for some seat) and starts the next one.
    ended = np.zeros(num_envs, dtype=bool)
    rewarded = False
    for _ in range(2000):
        _, _, terminated, _, info = step()
        ended |= terminated
        rewarded = rewarded or bool(info["rewards"].any())
    assert ended.all() and rewarded and (info["game_index"] > started).all()


def microseconds_per_call(step: Callable[[], object], seconds: float) -> float:
    """Microseconds per call of ``step`` (choosing the actions included), over ``seconds``."""
    step()  # warm up
    calls, start = 0, time.perf_counter()
    while time.perf_counter() - start < seconds:
        step()
        calls += 1
    return (time.perf_counter() - start) / calls * 1e6


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
