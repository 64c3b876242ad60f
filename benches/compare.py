"""Side-by-side speed comparison: our engines against each other and against OpenSpiel.

Every figure is measured in a fresh process (one process per measurement) that plays whole games
with uniformly random players for about ``--seconds`` seconds and reports games per second.
Ratios are taken within one run of this script, so they compare like with like on the same machine
at the same time. Usage::

    python benches/compare.py                       # every game, table on stdout
    python benches/compare.py --games goofspiel --seconds 3 --json results.json

The saved JSON records the ``cardtable`` version, the git commit and the UTC date of the run
(``"measured"``), and whether OpenSpiel was measured (without ``pyspiel`` its rows are skipped,
with a note on stderr).

Measurements per game:

- ``rust batch, 1 thread`` / ``rust batch, N threads``: ``cardtable.simulate`` (whole games in
  Rust).
- ``rust per-step API``: a Python loop calling ``legal_actions()`` and ``apply()`` on the Rust
  state.
- ``reference``: the same loop on the pure-Python reference backend.
- goofspiel only: ``openspiel per-step API`` (the same loop on ``pyspiel`` states) and
  ``openspiel C++ random bots`` (``pyspiel.evaluate_bots`` with uniform random bots, in C++).
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import random
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from benches.common import configs  # noqa: E402
from benches.perf import positive_float, provenance  # noqa: E402


def _timed(run_one: Any, seconds: float) -> dict[str, float]:
    """Repeats ``run_one() -> steps`` for about ``seconds``; returns games/s and steps/s."""
    run_one()  # warm-up
    games = steps = 0
    start = time.perf_counter()
    while True:
        steps += run_one()
        games += 1
        elapsed = time.perf_counter() - start
        if elapsed >= seconds:
            return {"games_per_s": games / elapsed, "steps_per_s": steps / elapsed}


def measure(kind: str, game_id: str, seconds: float) -> dict[str, float]:
    """One measurement, run inside its own process."""
    import cardtable

    config = configs()[game_id]
    rng = random.Random(0)
    if kind.startswith("batch"):
        threads = int(kind.split(":")[1]) or os.cpu_count() or 1
        batch = 1000
        while True:
            start = time.perf_counter()
            result = cardtable.simulate(
                game_id, games=batch, threads=threads, keep_games=False, progress=False, **config
            )
            elapsed = time.perf_counter() - start
            if elapsed >= seconds or batch >= 10**9:
                return {
                    "games_per_s": batch / elapsed,
                    "steps_per_s": result.decisions / elapsed,
                }
            batch = int(batch * min(10.0, max(2.0, 1.2 * seconds / max(elapsed, 1e-3))))
    if kind in ("rust_api", "reference"):
        backend = "rust" if kind == "rust_api" else "reference"
        game = cardtable.make(game_id, backend=backend, **config)  # type: ignore[arg-type]
        seeds = iter(range(10**9))

        def play() -> int:
            state = game.new_state(seed=next(seeds))
            steps = 0
            while not state.is_terminal:
                legal = state.legal_actions()
                state.apply(legal[rng.randrange(len(legal))])
                steps += 1
            return steps

        return _timed(play, seconds)
    if kind not in ("openspiel_api", "openspiel_cpp"):
        raise ValueError(kind)
    import pyspiel

    osgame = pyspiel.load_game("goofspiel", {"num_cards": config["num_cards"]})
    if kind == "openspiel_api":

        def play_openspiel() -> int:
            state = osgame.new_initial_state()
            steps = 0
            while not state.is_terminal():
                # Steps are the players' decisions, as in the other measurements (a seeded
                # state of ours resolves chance inside `apply`): the point cards drawn here
                # are not counted, and a simultaneous node counts its two bids.
                if state.is_chance_node():
                    outcomes = state.chance_outcomes()
                    state.apply_action(outcomes[rng.randrange(len(outcomes))][0])
                elif state.is_simultaneous_node():
                    joint = []
                    for p in (0, 1):
                        legal = state.legal_actions(p)
                        joint.append(legal[rng.randrange(len(legal))])
                    state.apply_actions(joint)
                    steps += 2
                else:
                    legal = state.legal_actions()
                    state.apply_action(legal[rng.randrange(len(legal))])
                    steps += 1
            return steps

        return _timed(play_openspiel, seconds)
    bots = [pyspiel.make_uniform_random_bot(0, 1), pyspiel.make_uniform_random_bot(1, 2)]
    seeds = iter(range(10**9))

    def play_cpp() -> int:
        pyspiel.evaluate_bots(osgame.new_initial_state(), bots, next(seeds))
        # Two bids a round; the last round, with one card left in each hand, plays itself in
        # both engines, so a game is `num_cards - 1` rounds of decisions.
        return (int(config["num_cards"]) - 1) * 2

    return _timed(play_cpp, seconds)


KINDS = [
    ("batch:1", "rust batch, 1 thread"),
    ("batch:0", f"rust batch, {os.cpu_count()} threads"),
    ("rust_api", "rust per-step API"),
    ("reference", "reference per-step"),
    ("openspiel_api", "openspiel per-step API"),
    ("openspiel_cpp", "openspiel C++ random bots"),
]


def _subprocess_measure(kind: str, game_id: str, seconds: float) -> dict[str, float] | None:
    proc = subprocess.run(
        [sys.executable, __file__, "--measure", kind, game_id, "--seconds", str(seconds)],
        capture_output=True,
        text=True,
        check=False,
    )
    if proc.returncode != 0:
        print(f"  {game_id} {kind}: failed: {proc.stderr.strip()[-300:]}", file=sys.stderr)
        return None
    result: dict[str, float] = json.loads(proc.stdout.strip().splitlines()[-1])
    return result


def main() -> int:
    """Runs the comparison (or, with ``--measure``, one measurement in this process)."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument(
        "--games", nargs="+", choices=sorted(configs()), default=None, help="(default: all)"
    )
    parser.add_argument(
        "--seconds", type=positive_float, default=2.0, help="time per measurement (above 0)"
    )
    parser.add_argument("--json", type=Path, default=None, help="also save results as JSON")
    parser.add_argument("--measure", nargs=2, metavar=("KIND", "GAME"), help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.measure:
        print(json.dumps(measure(args.measure[0], args.measure[1], args.seconds)))
        return 0

    import cardtable

    measured = provenance()  # the commit measured is the one at the start
    games = list(args.games or configs())
    try:
        import pyspiel  # noqa: F401

        have_openspiel = True
    except ImportError:
        have_openspiel = False
        if "goofspiel" in games:
            print(
                "note: pyspiel is not installed, so OpenSpiel is not measured "
                "(pip install open_spiel for its goofspiel rows)",
                file=sys.stderr,
            )
    results: dict[str, dict[str, Any]] = {}
    for game_id in games:
        results[game_id] = {"config": configs()[game_id], "measurements": {}}
        for kind, label in KINDS:
            if kind.startswith("openspiel") and (game_id != "goofspiel" or not have_openspiel):
                continue
            print(f"measuring {game_id}: {label} ...", file=sys.stderr)
            m = _subprocess_measure(kind, game_id, args.seconds)
            if m is not None:
                results[game_id]["measurements"][label] = m
    lines = [
        f"machine: {platform.machine()}, {os.cpu_count()} cores, Python "
        f"{platform.python_version()}, cardtable {cardtable.__version__}",
        "",
        "| game | measurement | games/s | steps/s | × reference | × openspiel C++ |",
        "|---|---|---:|---:|---:|---:|",
    ]
    for game_id, entry in results.items():
        ms = entry["measurements"]
        ref = ms.get("reference per-step", {}).get("games_per_s")
        cpp = ms.get("openspiel C++ random bots", {}).get("games_per_s")
        for label, m in ms.items():
            g = m["games_per_s"]
            vs_ref = f"{g / ref:,.1f}" if ref else "–"
            vs_cpp = f"{g / cpp:,.2f}" if cpp else "–"
            steps = m["steps_per_s"]
            lines.append(f"| {game_id} | {label} | {g:,.0f} | {steps:,.0f} | {vs_ref} | {vs_cpp} |")
    print("\n".join(lines))
    if args.json:
        payload = {
            "measured": measured,
            "openspiel": have_openspiel,
            "machine": {
                "arch": platform.machine(),
                "cores": os.cpu_count(),
                "python": platform.python_version(),
            },
            "seconds_per_measurement": args.seconds,
            "results": results,
        }
        args.json.write_text(json.dumps(payload, indent=1) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
