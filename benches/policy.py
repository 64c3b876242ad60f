"""What Python policies and VectorEnv cost next to the all-Rust batch runner, on one thread.

Two ratios, each measured in one process so that the machine's load affects both sides alike:

- games/s of ``simulate`` with a Python policy that reads only legal actions in seat 0 (random
  bots elsewhere) over games/s with random bots in every seat (target: at least 0.25);
- time per agent decision of ``VectorEnv.step`` (every seat an agent, buffers reused, random legal
  actions chosen outside the timed call) over time per decision of the batch runner (target: at
  most 3), with the observation tensors written at every step and with ``observations=False``
  (tensors on demand through ``VectorEnv.observe``).

The same ratios counted in instructions, which do not depend on the machine's load, are measured
by ``python benches/perf.py --vector``.

Run ``python -m benches.policy`` for both; ``make bench`` runs the pytest-benchmark versions.
"""

from __future__ import annotations

import time
from collections.abc import Callable

import numpy as np
import numpy.typing as npt
import pytest
from pytest_benchmark.fixture import BenchmarkFixture

import cardtable
from cardtable import PolicyBatch
from cardtable.sim import PythonPolicy

GAME = "turn_the_tide"
PLAYERS = 4
GAMES = 4000
NUM_ENVS = 1024
BATCH = 1024


def legal_only(batch: PolicyBatch) -> list[int]:
    """The first legal action of every row: reads nothing but the legal actions."""
    return [legal[0] for legal in batch.legal_actions]


def legal_only_flat(batch: PolicyBatch) -> npt.NDArray[np.uint32]:
    """The same actions as :func:`legal_only`, read from the flat legal arrays (no lists built)."""
    return batch.legal_flat[batch.legal_offsets[:-1].astype(np.intp)]


def legal_only_mask(batch: PolicyBatch) -> npt.NDArray[np.intp]:
    """The same actions as :func:`legal_only`, read from the legal-action mask (a network's)."""
    first: npt.NDArray[np.intp] = batch.legal_mask.argmax(axis=1)
    return first


def run_all_random(games: int = GAMES) -> cardtable.SimulationResult:
    return cardtable.simulate(GAME, players=PLAYERS, games=games, seed=0, threads=1, progress=False)


def run_with_policy(
    games: int = GAMES,
    batch_size: int = BATCH,
    policy: PythonPolicy = legal_only,
) -> cardtable.SimulationResult:
    return cardtable.simulate(
        GAME,
        players=PLAYERS,
        games=games,
        seed=0,
        threads=1,
        progress=False,
        bots=[policy] + ["random"] * (PLAYERS - 1),
        batch_size=batch_size,
    )


def random_legal(rng: np.random.Generator, mask: npt.NDArray[np.bool_]) -> npt.NDArray[np.int64]:
    """One uniformly random legal action per row (0 for a row without one)."""
    scores = rng.random(mask.shape, dtype=np.float32)
    np.putmask(scores, ~mask, -1.0)
    best: npt.NDArray[np.int64] = scores.argmax(axis=1).astype(np.int64)
    return best


def vector_stepper(reuse_buffers: bool = True, observations: bool = True) -> Callable[[], float]:
    """A function doing one ``VectorEnv.step``; returns the seconds spent inside the step."""
    env = cardtable.VectorEnv(
        GAME,
        NUM_ENVS,
        players=PLAYERS,
        agent_seats="all",
        seed=0,
        threads=1,
        reuse_buffers=reuse_buffers,
        observations=observations,
    )
    rng = np.random.default_rng(0)
    _, info = env.reset()
    mask = info["action_mask"]

    def step() -> float:
        nonlocal mask
        actions = random_legal(rng, mask)
        start = time.perf_counter()
        *_, info = env.step(actions)
        spent = time.perf_counter() - start
        mask = info["action_mask"]
        return spent

    return step


def games_per_second(run: Callable[[], cardtable.SimulationResult], repeat: int = 3) -> float:
    best = float("inf")
    for _ in range(repeat):
        start = time.perf_counter()
        result = run()
        best = min(best, time.perf_counter() - start)
    return result.games_played / best


def seconds_per_decision_batch(repeat: int = 3) -> float:
    best = float("inf")
    for _ in range(repeat):
        start = time.perf_counter()
        result = run_all_random()
        best = min(best, (time.perf_counter() - start) / result.decisions)
    return best


def seconds_per_decision_vector(
    steps: int = 200, reuse_buffers: bool = True, observations: bool = True
) -> float:
    step = vector_stepper(reuse_buffers, observations)
    for _ in range(20):
        step()
    best = float("inf")
    for _ in range(3):
        best = min(best, sum(step() for _ in range(steps)) / (steps * NUM_ENVS))
    return best


def test_all_random_games(benchmark: BenchmarkFixture) -> None:
    benchmark.group = "Python policy vs all-random: games"
    benchmark.extra_info.update({"game": GAME, "games": GAMES, "bots": "random"})
    result = benchmark(run_all_random)
    assert result.games_played == GAMES


def test_legal_only_policy_games(benchmark: BenchmarkFixture) -> None:
    benchmark.group = "Python policy vs all-random: games"
    benchmark.extra_info.update({"game": GAME, "games": GAMES, "bots": "legal_only + random"})
    result = benchmark(run_with_policy)
    assert result.games_played == GAMES


@pytest.mark.parametrize(
    ("name", "policy"),
    [("legal_only_flat", legal_only_flat), ("legal_only_mask", legal_only_mask)],
    ids=["flat", "mask"],
)
def test_legal_only_array_policy_games(
    benchmark: BenchmarkFixture, name: str, policy: PythonPolicy
) -> None:
    """The legal-only policy reading NumPy arrays: the same games as the one reading lists."""
    benchmark.group = "Python policy vs all-random: games"
    benchmark.extra_info.update({"game": GAME, "games": GAMES, "bots": f"{name} + random"})
    result = benchmark(lambda: run_with_policy(policy=policy))
    assert result.games_played == GAMES
    assert np.array_equal(result.scores, run_with_policy(games=GAMES).scores)  # type: ignore[arg-type]


def test_vector_env_step_reused_buffers(benchmark: BenchmarkFixture) -> None:
    step = vector_stepper(reuse_buffers=True)
    benchmark.group = "VectorEnv step (1024 decisions)"
    benchmark.extra_info.update({"game": GAME, "num_envs": NUM_ENVS, "reuse_buffers": True})
    benchmark(step)


def test_vector_env_step_fresh_buffers(benchmark: BenchmarkFixture) -> None:
    step = vector_stepper(reuse_buffers=False)
    benchmark.group = "VectorEnv step (1024 decisions)"
    benchmark.extra_info.update({"game": GAME, "num_envs": NUM_ENVS, "reuse_buffers": False})
    benchmark(step)


def test_vector_env_step_without_observations(benchmark: BenchmarkFixture) -> None:
    step = vector_stepper(reuse_buffers=True, observations=False)
    benchmark.group = "VectorEnv step (1024 decisions)"
    benchmark.extra_info.update(
        {"game": GAME, "num_envs": NUM_ENVS, "reuse_buffers": True, "observations": False}
    )
    benchmark(step)


def main() -> None:
    random_rate = games_per_second(run_all_random)
    policy_rate = games_per_second(run_with_policy)
    flat_rate = games_per_second(lambda: run_with_policy(policy=legal_only_flat))
    mask_rate = games_per_second(lambda: run_with_policy(policy=legal_only_mask))
    print(f"{GAME} {PLAYERS}p, one thread")
    print(f"  all random:                 {random_rate:12,.0f} games/s")
    print(f"  legal-only policy + random: {policy_rate:12,.0f} games/s")
    print(f"  legal-only, flat arrays:    {flat_rate:12,.0f} games/s")
    print(f"  legal-only, mask:           {mask_rate:12,.0f} games/s")
    print(f"  ratio (lists):              {policy_rate / random_rate:12.3f}  (target >= 0.25)")
    print(f"  ratio (flat arrays):        {flat_rate / random_rate:12.3f}")
    print(f"  ratio (mask):               {mask_rate / random_rate:12.3f}")
    batch = seconds_per_decision_batch()
    reused = seconds_per_decision_vector(reuse_buffers=True)
    fresh = seconds_per_decision_vector(reuse_buffers=False)
    lazy = seconds_per_decision_vector(observations=False)
    print(f"  batch runner:               {batch * 1e9:12.1f} ns/decision")
    print(f"  VectorEnv, reused buffers:  {reused * 1e9:12.1f} ns/decision")
    print(f"  VectorEnv, fresh buffers:   {fresh * 1e9:12.1f} ns/decision")
    print(f"  VectorEnv, no observations: {lazy * 1e9:12.1f} ns/decision")
    print(f"  ratio (reused):             {reused / batch:12.2f}  (target <= 3)")
    print(f"  ratio (no observations):    {lazy / batch:12.2f}")


if __name__ == "__main__":
    main()
