"""Instructions per game and per step of every game's batch runner, counted by callgrind.

Instruction counts do not depend on the machine's load or clock, so they compare runs made at
different times on shared machines, where games per second do not. Every row plays whole games
through the public batch API (``cardtable_engine::make(..).simulate(..)``, one thread) in the
release example ``rust/engine/examples/perf.rs`` under ``valgrind --tool=callgrind``, twice with
different numbers of games; the difference of the two counts, over the difference of the games,
is the cost of a game without the process's setup. Steps are the decisions and chance steps the
run reports. Usage::

    python benches/perf.py                          # every game, every bot; about 3 minutes
    python benches/perf.py --games goofspiel turn_the_tide --json out.json
    python benches/perf.py --baseline benches/perf.json  # with the ratio to a saved run

Rows per game: all seats ``random``; then for every built-in heuristic bot ``H`` of the game,
``H`` in seat 0 with ``random`` elsewhere, and ``H`` in every seat.

The number of games per row is chosen so that the measured difference is about ``--budget``
instructions (a small run first estimates the cost of a game); ``--count`` fixes it instead, and
with ``--baseline`` every row plays as many games as the saved row did, so that both average over
the same games.
"""

from __future__ import annotations

import argparse
import json
import math
import platform
import re
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from benches.common import CONFIGS  # noqa: E402

EXAMPLE = ROOT / "target" / "release" / "examples" / "perf"

SETUP_GAMES = 10
"""Games of the first run of every row, whose count is subtracted from the second."""

_COLLECTED = re.compile(r"Collected\s*:\s*(\d+)")


def _command(game: str, bots: list[str], count: int) -> list[str]:
    """The example's command line for ``count`` games of ``game`` with ``bots``."""
    config = CONFIGS[game]
    options = [f"{k}={v}" for k, v in config.items() if k != "players"]
    return [str(EXAMPLE), game, str(config["players"]), str(count), ",".join(bots), *options]


def callgrind(command: list[str], what: str) -> tuple[int, Any]:
    """Runs ``command`` under callgrind; returns (instructions, the JSON it printed).

    ``what`` names the run in errors.
    """
    with tempfile.TemporaryDirectory() as tmp:
        proc = subprocess.run(
            [
                "valgrind",
                "--tool=callgrind",
                f"--callgrind-out-file={Path(tmp) / 'callgrind.out'}",
                *command,
            ],
            capture_output=True,
            text=True,
            check=False,
        )
    if proc.returncode != 0:
        raise RuntimeError(f"{what}: {proc.stderr.strip()[-2000:]}")
    match = _COLLECTED.search(proc.stderr)
    if match is None:
        raise RuntimeError(f"no instruction count in callgrind's output:\n{proc.stderr[-2000:]}")
    return int(match.group(1)), json.loads(proc.stdout)


def count_instructions(game: str, bots: list[str], count: int) -> tuple[int, int]:
    """Runs ``count`` games under callgrind; returns (instructions, steps)."""
    instructions, played = callgrind(_command(game, bots, count), f"{game} {bots} {count}")
    if played["games"] != count:
        raise RuntimeError(f"{game} {bots}: played {played['games']} of {count} games")
    return instructions, int(played["decisions"]) + int(played["chance_steps"])


def _round_up(n: float) -> int:
    """``n`` rounded up to two significant digits (game counts that read well)."""
    if n <= 100:
        return max(1, math.ceil(n))
    scale = 10 ** (int(math.log10(n)) - 1)
    return int(math.ceil(n / scale) * scale)


def measure(game: str, bots: list[str], budget: float, count: int | None) -> dict[str, Any]:
    """One row: instructions and steps per game of ``game`` with ``bots`` (one per seat)."""
    base_instr, base_steps = count_instructions(game, bots, SETUP_GAMES)
    if count is None:
        probe = SETUP_GAMES + 20
        probe_instr, _ = count_instructions(game, bots, probe)
        per_game = max(1.0, (probe_instr - base_instr) / (probe - SETUP_GAMES))
        count = _round_up(max(20.0, budget / per_game))
    instr, steps = count_instructions(game, bots, SETUP_GAMES + count)
    return {
        "game": game,
        "players": CONFIGS[game]["players"],
        "options": {k: v for k, v in CONFIGS[game].items() if k != "players"},
        "bots": bots,
        "games": count,
        "instructions_per_game": (instr - base_instr) / count,
        "steps_per_game": (steps - base_steps) / count,
        "instructions_per_step": (instr - base_instr) / max(1, steps - base_steps),
    }


def bot_names(game: str) -> list[str]:
    """The game's built-in bots, ``random`` first (asked of the engine)."""
    proc = subprocess.run(
        [str(EXAMPLE), "--bots", game], capture_output=True, text=True, check=True
    )
    names: list[str] = json.loads(proc.stdout)
    return names


def bot_lineups(game: str) -> list[list[str]]:
    """All random; then every heuristic bot in seat 0 against random, and in every seat."""
    players = int(CONFIGS[game]["players"])
    lineups = [["random"] * players]
    for name in bot_names(game):
        if name != "random":
            lineups.append([name] + ["random"] * (players - 1))
            lineups.append([name] * players)
    return lineups


def bots_label(bots: list[str]) -> str:
    """``random`` / ``greedy ×4`` / ``greedy + random ×3`` (seat 0 first)."""
    if len(set(bots)) == 1:
        return bots[0] if bots[0] == "random" else f"{bots[0]} ×{len(bots)}"
    rest = bots[1:]
    if len(rest) == 1:
        return f"{bots[0]} + {rest[0]}"
    if len(set(rest)) == 1:
        return f"{bots[0]} + {rest[0]} ×{len(rest)}"
    return ", ".join(bots)


def _key(row: dict[str, Any]) -> tuple[str, str]:
    return row["game"], ",".join(row["bots"])


def table(rows: list[dict[str, Any]], baseline: list[dict[str, Any]] | None = None) -> str:
    """The Markdown table of ``rows`` (with the ratio to ``baseline``'s rows when given)."""
    before = {_key(r): r for r in baseline or []}
    head = ["game", "bots", "instructions / game", "steps / game", "instructions / step"]
    if baseline is not None:
        head += ["before / game", "× fewer"]
    lines = ["| " + " | ".join(head) + " |", "|---|---|" + "---:|" * (len(head) - 2)]
    for r in rows:
        label = f"{r['game']} {r['players']}p"
        cells = [
            label,
            bots_label(r["bots"]),
            f"{r['instructions_per_game']:,.0f}",
            f"{r['steps_per_game']:,.1f}",
            f"{r['instructions_per_step']:,.0f}",
        ]
        if baseline is not None:
            old = before.get(_key(r))
            if old is None:
                cells += ["", ""]
            else:
                ratio = old["instructions_per_game"] / r["instructions_per_game"]
                cells += [f"{old['instructions_per_game']:,.0f}", f"{ratio:.2f}"]
        lines.append("| " + " | ".join(cells) + " |")
    return "\n".join(lines)


def build_example(name: str) -> None:
    """Builds the release example ``name`` of the engine crate."""
    subprocess.run(
        ["cargo", "build", "--quiet", "--release", "-p", "cardtable-engine", "--example", name],
        cwd=ROOT,
        check=True,
    )


def main(argv: list[str] | None = None) -> int:
    """Command line: measure, print the table, save the JSON."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", nargs="+", choices=sorted(CONFIGS), default=list(CONFIGS))
    parser.add_argument("--bots", nargs="+", help="only these lineups (comma-separated)")
    parser.add_argument("--budget", type=float, default=3e8, help="instructions per row")
    parser.add_argument("--count", type=int, help="games per row (instead of --budget)")
    parser.add_argument("--json", type=Path, help="save the rows here")
    parser.add_argument("--baseline", type=Path, help="a saved run to compare with")
    parser.add_argument("--no-build", action="store_true", help="use the example as built")
    args = parser.parse_args(argv)
    if not args.no_build:
        build_example("perf")
    baseline = None
    if args.baseline is not None:
        baseline = json.loads(args.baseline.read_text())["rows"]
    rows = []
    counts = {_key(r): int(r["games"]) for r in baseline or []}
    for game in args.games:
        for bots in bot_lineups(game):
            if args.bots and ",".join(bots) not in args.bots:
                continue
            count = args.count or counts.get((game, ",".join(bots)))
            row = measure(game, bots, args.budget, count)
            rows.append(row)
            print(
                f"{game} {bots_label(bots)}: {row['instructions_per_game']:,.0f} "
                f"instructions/game over {row['games']} games",
                file=sys.stderr,
                flush=True,
            )
    print(table(rows, baseline))
    if args.json is not None:
        valgrind = subprocess.run(["valgrind", "--version"], capture_output=True, text=True)
        args.json.write_text(
            json.dumps(
                {
                    "tool": "valgrind --tool=callgrind (instructions executed, all threads)",
                    "valgrind": valgrind.stdout.strip(),
                    "machine": platform.machine(),
                    "setup_games": SETUP_GAMES,
                    "rows": rows,
                },
                indent=1,
            )
            + "\n"
        )
    return 0


def test_table_renders() -> None:
    """The table has a header, a rule and one line per row (no valgrind needed)."""
    row = {
        "game": "goofspiel",
        "players": 2,
        "bots": ["greedy", "random"],
        "instructions_per_game": 5600.0,
        "steps_per_game": 36.0,
        "instructions_per_step": 155.6,
    }
    text = table([row], [dict(row, instructions_per_game=11200.0)])
    assert text.splitlines()[2] == (
        "| goofspiel 2p | greedy + random | 5,600 | 36.0 | 156 | 11,200 | 2.00 |"
    )


if __name__ == "__main__":
    sys.exit(main())
