"""What Python policies and VectorEnv cost next to the all-Rust batch runner, on one thread.

Two ratios, each measured in one process so that the machine's load affects both sides alike:

- games/s of ``simulate`` with a Python policy that reads only legal actions in seat 0 (random
  bots elsewhere) over games/s with random bots in every seat (target: at least 0.25);
- time per agent decision of ``VectorEnv.step`` (every seat an agent, buffers reused, random legal
  actions chosen outside the timed call) over time per decision of the batch runner (target: at
  most 3), with the observation tensors written at every step and with ``observations=False``
  (tensors on demand through ``VectorEnv.observe``). Decisions are the env-steps that made one:
  the step after an env's game ended (``info["autoreset"]``) ignores its action and starts the
  next game, so it is not counted.

The same ratios counted in instructions, which do not depend on the machine's load, are measured
by ``python benches/perf.py --vector``. The table's last column is the engine's share of the
``observations=False`` ratio: the same step timed without Python around it, against the batch
runner in the same process (the release example ``vector_speed``, built with cargo).

Run ``python -m benches.policy [GAME ...]`` for both, as a table over every game (or the games
named), each measured with the players and options of ``benches.common.configs()``; ``make bench``
runs the pytest-benchmark versions, for Turn the Tide with 4 players (the ``VectorEnv`` ones also
choose the actions outside the timed call, in ``benchmark.pedantic``'s setup, and time one step of
1,024 envs per round; then they play every env to the end of a game and check that it ended).
"""

from __future__ import annotations

import argparse
import functools
import re
import subprocess
import time
from collections.abc import Callable, Mapping
from typing import Any

import numpy as np
import numpy.typing as npt
import pytest
from pytest_benchmark.fixture import BenchmarkFixture

import cardtable
from benches.common import configs
from benches.perf import build_example, example_path
from cardtable import PolicyBatch
from cardtable.sim import PythonPolicy

GAME = "turn_the_tide"
CONFIG = configs()[GAME]
"""Players and options of :data:`GAME` (4 players) in the pytest benchmarks."""
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


def run_all_random(
    games: int = GAMES, game_id: str = GAME, config: Mapping[str, Any] = CONFIG
) -> cardtable.SimulationResult:
    return cardtable.simulate(game_id, games=games, seed=0, threads=1, progress=False, **config)


def run_with_policy(
    games: int = GAMES,
    batch_size: int = BATCH,
    policy: PythonPolicy = legal_only,
    game_id: str = GAME,
    config: Mapping[str, Any] = CONFIG,
) -> cardtable.SimulationResult:
    return cardtable.simulate(
        game_id,
        games=games,
        seed=0,
        threads=1,
        progress=False,
        bots=[policy] + ["random"] * (int(config["players"]) - 1),
        batch_size=batch_size,
        **config,
    )


def random_legal(rng: np.random.Generator, mask: npt.NDArray[np.bool_]) -> npt.NDArray[np.int64]:
    """One uniformly random legal action per row (0 for a row without one)."""
    scores = rng.random(mask.shape, dtype=np.float32)
    np.putmask(scores, ~mask, -1.0)
    best: npt.NDArray[np.int64] = scores.argmax(axis=1).astype(np.int64)
    return best


class VectorRun:
    """A ``VectorEnv`` of :data:`NUM_ENVS` envs, every seat an agent, one thread, playing
    uniformly random legal actions, and what its steps did.

    An env-step whose ``info["autoreset"]`` is true (the step after that env's game ended) makes no
    decision: it ignores the action and starts the env's next game. ``decisions`` counts the
    others, the agent decisions made; ``ended`` the games ended, ``rewarded`` the nonzero rewards.
    """

    def __init__(
        self,
        reuse_buffers: bool = True,
        observations: bool = True,
        game_id: str = GAME,
        config: Mapping[str, Any] = CONFIG,
    ) -> None:
        self.env = cardtable.VectorEnv(
            game_id,
            NUM_ENVS,
            agent_seats="all",
            seed=0,
            threads=1,
            reuse_buffers=reuse_buffers,
            observations=observations,
            **config,
        )
        self.rng = np.random.default_rng(0)
        _, info = self.env.reset()
        self.mask: npt.NDArray[np.bool_] = info["action_mask"]
        self.games_started = info["game_index"].copy()
        self.last: tuple[Any, ...] = ()
        self.decisions = self.ended = self.rewarded = 0
        self.unrecorded = False

    def choose(self) -> npt.NDArray[np.int64]:
        """Random legal actions for the envs' current masks (the timed step excludes this)."""
        return random_legal(self.rng, self.mask)

    def step(self, actions: npt.NDArray[np.int64]) -> None:
        """``VectorEnv.step`` alone; :meth:`record` reads its result."""
        self.last = self.env.step(actions)
        self.unrecorded = True

    def record(self, *_: Any) -> int:
        """Counts what the last :meth:`step` did; returns its decisions (a pedantic teardown)."""
        self.unrecorded = False
        _, rewards, terminated, _, info = self.last
        decisions = int(np.count_nonzero(~info["autoreset"]))
        self.decisions += decisions
        self.ended += int(np.count_nonzero(terminated))
        self.rewarded += int(np.count_nonzero(rewards))
        self.mask = info["action_mask"]
        return decisions

    def timed_step(self) -> tuple[float, int]:
        """One step, its actions chosen first: (seconds inside ``VectorEnv.step``, decisions)."""
        actions = self.choose()
        start = time.perf_counter()
        self.step(actions)
        spent = time.perf_counter() - start
        return spent, self.record()

    def check_plays(self, max_steps: int = 5000) -> None:
        """Asserts that the steps so far made decisions, then steps on until every env has ended
        a game (at most ``max_steps`` steps) and asserts that they did, with rewards, and started
        new ones: a ``step`` that did nothing fails here."""
        assert self.decisions > 0, "the measured steps made no decision"
        ended = np.zeros(NUM_ENVS, dtype=bool)
        for _ in range(max_steps):
            if ended.all():
                break
            self.step(self.choose())
            ended |= self.last[2]
            self.record()
        assert ended.all(), "some env never ended a game"
        assert self.rewarded > 0, "games ended without a reward"
        self.step(self.choose())  # the autoreset step of the envs that ended last
        self.record()
        started = self.last[4]["game_index"]
        assert (started > self.games_started).all(), "some env started no new game"


def vector_run_benchmark(benchmark: BenchmarkFixture, run: VectorRun, rounds: int = 300) -> None:
    """Times ``VectorEnv.step`` alone (the actions are chosen in the untimed setup), then checks
    that the steps played (:meth:`VectorRun.check_plays`)."""
    benchmark.pedantic(  # type: ignore[no-untyped-call]
        run.step,
        setup=lambda: ((run.choose(),), {}),
        teardown=run.record,
        rounds=rounds,
        warmup_rounds=10,
    )
    if run.unrecorded:  # a disabled benchmark makes one call, without the teardown
        run.record()
    run.check_plays()


def best_time(
    run: Callable[[], cardtable.SimulationResult], repeat: int = 3
) -> tuple[float, cardtable.SimulationResult]:
    """The fastest of ``repeat`` runs of ``run`` (seeded, so every run plays the same games): its
    seconds, and the result."""
    best = float("inf")
    for _ in range(repeat):
        start = time.perf_counter()
        result = run()
        best = min(best, time.perf_counter() - start)
    return best, result


def games_per_second(run: Callable[[], cardtable.SimulationResult], repeat: int = 3) -> float:
    seconds, result = best_time(run, repeat)
    return result.games_played / seconds


def seconds_per_decision_vector(
    steps: int = 200,
    reuse_buffers: bool = True,
    observations: bool = True,
    game_id: str = GAME,
    config: Mapping[str, Any] = CONFIG,
) -> float:
    """Seconds inside ``VectorEnv.step`` per agent decision (autoreset env-steps make none), the
    best of three runs of ``steps`` steps."""
    run = VectorRun(reuse_buffers, observations, game_id, config)
    for _ in range(20):
        run.timed_step()
    best = float("inf")
    for _ in range(3):
        timed = [run.timed_step() for _ in range(steps)]
        best = min(best, sum(t for t, _ in timed) / sum(d for _, d in timed))
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
    benchmark.group = "VectorEnv step (1024 envs)"
    benchmark.extra_info.update({"game": GAME, "num_envs": NUM_ENVS, "reuse_buffers": True})
    vector_run_benchmark(benchmark, VectorRun(reuse_buffers=True))


def test_vector_env_step_fresh_buffers(benchmark: BenchmarkFixture) -> None:
    benchmark.group = "VectorEnv step (1024 envs)"
    benchmark.extra_info.update({"game": GAME, "num_envs": NUM_ENVS, "reuse_buffers": False})
    vector_run_benchmark(benchmark, VectorRun(reuse_buffers=False))


def test_vector_env_step_without_observations(benchmark: BenchmarkFixture) -> None:
    benchmark.group = "VectorEnv step (1024 envs)"
    benchmark.extra_info.update(
        {"game": GAME, "num_envs": NUM_ENVS, "reuse_buffers": True, "observations": False}
    )
    vector_run_benchmark(benchmark, VectorRun(reuse_buffers=True, observations=False))


LEGAL_ONLY: tuple[tuple[str, PythonPolicy], ...] = (
    ("lists", legal_only),
    ("flat", legal_only_flat),
    ("mask", legal_only_mask),
)
"""The legal-only policy by what it reads."""

RANDOM_SECONDS = 0.5
"""How long each game's all-random run lasts in :func:`measure` (the others take as many games)."""


def measure(game_id: str) -> dict[str, float]:
    """Every ratio of the module docstring for one game (``benches.common.configs()``' setup)."""
    config = configs()[game_id]
    start = time.perf_counter()
    run_all_random(GAMES, game_id, config)
    games = max(GAMES, int(GAMES * RANDOM_SECONDS / (time.perf_counter() - start)) // 1000 * 1000)
    # One set of all-random runs gives both the games/s and the batch runner's time per decision.
    seconds, result = best_time(functools.partial(run_all_random, games, game_id, config))
    random_rate = result.games_played / seconds
    row = {"random games/s": random_rate}
    for name, policy in LEGAL_ONLY:
        run = functools.partial(run_with_policy, games, BATCH, policy, game_id, config)
        row[name] = games_per_second(run) / random_rate
    batch = seconds / result.decisions
    steps = 50 if game_id == "deep_regrets" else 400
    for name, observations in (("vector", True), ("vector, observations=False", False)):
        spent = seconds_per_decision_vector(
            steps, observations=observations, game_id=game_id, config=config
        )
        row[name] = spent / batch
    return row


_ENGINE_RATIO = re.compile(r"step / batch runner = ([\d.]+)")


def engine_ratio(game_id: str) -> float:
    """``VectorEnv.step`` time per decision over the batch runner's, both timed inside the engine
    in one process (``vector_speed`` with ``observations=False``, :data:`NUM_ENVS` envs, one
    thread, the game's options of :func:`~benches.common.configs`; the example must be built)."""
    config = configs()[game_id]
    options = [f"{k}={v}" for k, v in config.items() if k != "players"]
    example = example_path("vector_speed")
    args = [game_id, str(config["players"]), str(NUM_ENVS), "400", "1", "reuse", "no-obs", *options]
    printed = subprocess.run(
        [str(example), *args], check=True, capture_output=True, text=True
    ).stdout
    found = _ENGINE_RATIO.search(printed)
    if found is None:
        raise RuntimeError(f"vector_speed printed no ratio:\n{printed}")
    return float(found.group(1))


def main() -> None:
    """Prints the ratios of every game named on the command line (all games without one)."""
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n\n")[0])
    parser.add_argument(
        "games", nargs="*", help=f"game ids (default: all of {', '.join(configs())})"
    )
    chosen = parser.parse_args().games or list(configs())
    unknown = [g for g in chosen if g not in configs()]
    if unknown:
        parser.error(f"unknown game ids: {', '.join(unknown)}")
    print("One thread. Share of the all-random games/s kept by the legal-only policy (target")
    print(">= 0.25), and VectorEnv.step time per decision over the batch runner's (target <= 3),")
    print("with tensors, with observations=False, and that step inside the engine alone.")
    print()
    build_example("vector_speed")
    head = ("game", "random games/s", "lists", "flat", "mask", "vector", "no obs.", "engine")
    print("| " + " | ".join(head) + " |")
    print("|---|" + "---:|" * (len(head) - 1))
    for game_id in chosen:
        row = measure(game_id)
        row["engine"] = engine_ratio(game_id)
        values = [f"{v:.2f}" for k, v in row.items() if k != "random games/s"]
        label = f"{game_id} {configs()[game_id]['players']}p"
        print(f"| {label} | {row['random games/s']:,.0f} | " + " | ".join(values) + " |")


if __name__ == "__main__":
    main()
