"""Soak test: plays every game and option set for a given time and reports games played and errors.

Not part of the test suite. Each round visits every option set of ``tests/configs.py`` and plays
it on four paths: the Rust batch path (``simulate`` with built-in bots, per-game arrays kept or
not), the Python-policy path (``simulate`` with a Python policy in one seat), the per-step path
(a Rust and a reference state stepped side by side and compared after every step, with a pickle
round trip and a clone on the way) and ``VectorEnv``. The batch size of the batch path grows until
one call takes about a second. Any exception is counted with its game and path and printed at the
end; the exit status is 1 if there was any.

Usage::

    python benches/soak.py --seconds 600
"""

from __future__ import annotations

import argparse
import pickle
import sys
import time
import traceback
from collections import Counter
from functools import partial
from pathlib import Path
from typing import Any

import numpy as np

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

import cardtable  # noqa: E402
from cardtable._rng import SplitMix64  # noqa: E402
from cardtable.sim import PolicyBatch  # noqa: E402
from tests.configs import ALL, config_id  # noqa: E402

BATCH_SECONDS = 2.0
"""Time spent on the batch path per option set and round."""
POLICY_SECONDS = 1.0
"""Time after which the Python-policy path stops its run (interrupting it cleanly)."""
KEEP_CAP = 10**6
"""Most games of one call that keeps the per-game arrays."""


class Soak:
    """Counters of one soak run."""

    def __init__(self, seed: int) -> None:
        """Starts empty counters; ``seed`` makes the run reproducible."""
        self.games: Counter[str] = Counter()
        self.errors: list[str] = []
        self.rng = SplitMix64(seed)
        self.batch: dict[str, int] = {}

    def guard(self, path: str, label: str, fn: Any) -> None:
        """Runs ``fn`` and records any exception under ``path`` and ``label``."""
        try:
            fn()
        except Exception:
            self.errors.append(f"{path} {label}:\n{traceback.format_exc()}")

    def batch_path(self, game_id: str, config: dict[str, Any], label: str) -> None:
        """Built-in bots on the Rust batch path for about ``BATCH_SECONDS``, in calls of ~1 s."""
        info = next(g for g in cardtable.games() if g.id == game_id)
        players = config["players"]
        start = time.perf_counter()
        while time.perf_counter() - start < BATCH_SECONDS:
            bots = [info.bots[self.rng.below(len(info.bots))] for _ in range(players)]
            keep = self.rng.below(2) == 0
            n = self.batch.get(label, 1000)
            if keep:
                n = min(n, KEEP_CAP)
            began = time.perf_counter()
            result = cardtable.simulate(
                game_id,
                games=n,
                bots=bots,
                seed=self.rng.next(),
                keep_games=keep,
                progress=False,
                **config,
            )
            elapsed = time.perf_counter() - began
            if result.games_played != n or result.interrupted:
                raise AssertionError(f"{result.games_played} of {n} games played")
            if keep and result.lengths is not None and not (result.lengths > 0).all():
                raise AssertionError("a kept game has no decisions")
            self.games["batch"] += n
            # Aim at calls of about a second.
            scale = min(16.0, max(0.25, 1.0 / max(elapsed, 1e-3)))
            self.batch[label] = max(1000, min(int(n * scale), 10**8))

    def policy_path(self, game_id: str, config: dict[str, Any]) -> None:
        """A Python policy (uniformly random legal actions) in seat 0, random bots elsewhere."""
        rng = np.random.default_rng(self.rng.next() % 2**32)

        def policy(batch: PolicyBatch) -> list[int]:
            return [int(rng.choice(legal)) for legal in batch.legal_actions]

        bots: list[Any] = [policy] + ["random"] * (config["players"] - 1)
        stop_at = time.perf_counter() + POLICY_SECONDS
        result = cardtable.simulate(
            game_id,
            games=200,
            bots=bots,
            seed=self.rng.next(),
            progress=lambda done, total: time.perf_counter() < stop_at,
            **config,
        )
        self.games["policy"] += result.games_played

    def step_path(self, game_id: str, config: dict[str, Any]) -> None:
        """One game stepped on both backends with the same random actions, compared each step."""
        seed = self.rng.next()
        rust = cardtable.make(game_id, **config).new_state(seed=seed)
        ref = cardtable.make(game_id, backend="reference", **config).new_state(seed=seed)
        step = 0
        while not rust.is_terminal:
            legal = rust.legal_actions()
            if legal != ref.legal_actions():
                raise AssertionError(f"legal actions differ at step {step}")
            action = legal[self.rng.below(len(legal))]
            rust.apply(action)
            ref.apply(action)
            step += 1
            if step % 17 == 0:
                rust = pickle.loads(pickle.dumps(rust))
                ref = ref.clone()
            if rust.to_dict() != ref.to_dict():
                raise AssertionError(f"states differ after step {step}")
        if not ref.is_terminal or rust.winners != ref.winners:
            raise AssertionError("the game ends differently")
        self.games["per-step"] += 1

    def vector_path(self, game_id: str, config: dict[str, Any]) -> None:
        """A VectorEnv of 64 envs stepped with random legal actions for 50 steps."""
        options = {k: v for k, v in config.items() if k != "players"}
        env = cardtable.VectorEnv(
            game_id, 64, players=config["players"], seed=self.rng.next(), **options
        )
        rng = np.random.default_rng(self.rng.next() % 2**32)
        _, info = env.reset()
        for _ in range(50):
            mask = info["action_mask"]
            scores = rng.random(mask.shape)
            scores[~mask] = -1.0
            _, _, terminated, _, info = env.step(scores.argmax(axis=1))
            self.games["vector"] += int(terminated.sum())

    def round(self, deadline: float) -> None:
        """Every option set once on every path (until ``deadline``)."""
        for game_id, config in ALL:
            if time.perf_counter() >= deadline:
                return
            label = config_id(game_id, config)
            self.guard("batch", label, partial(self.batch_path, game_id, config, label))
            self.guard("policy", label, partial(self.policy_path, game_id, config))
            self.guard("per-step", label, partial(self.step_path, game_id, config))
            self.guard("vector", label, partial(self.vector_path, game_id, config))


def main(argv: list[str] | None = None) -> int:
    """Runs the soak for ``--seconds`` and prints the games played per path and the errors."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seconds", type=float, default=600.0, help="how long to run")
    parser.add_argument("--seed", type=int, default=0, help="seed of the run")
    args = parser.parse_args(argv)
    soak = Soak(args.seed)
    start = time.perf_counter()
    rounds = 0
    deadline = start + args.seconds
    while time.perf_counter() < deadline:
        soak.round(deadline)
        rounds += 1
    elapsed = time.perf_counter() - start
    total = sum(soak.games.values())
    print(
        f"soak: {elapsed:.0f} s, {rounds} rounds (the last may be partial) "
        f"over {len(ALL)} option sets"
    )
    for path in ("batch", "policy", "per-step", "vector"):
        print(f"  {path:>9}: {soak.games[path]:>14,} games")
    print(f"  {'total':>9}: {total:>14,} games, {len(soak.errors)} errors")
    for err in soak.errors[:20]:
        print(err)
    return 1 if soak.errors else 0


if __name__ == "__main__":
    raise SystemExit(main())
