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

``--json`` saves the rows under the JSON's ``"rows"`` key (``"vector"``, ``"policy"`` below): the
rows of the games measured replace theirs (``--bots`` rows only the saved rows of the same game
and lineup), the other games' rows are kept, and every new row records what it was measured
with (``"measured"``: the cardtable version, the git commit and the UTC date).

``--vector`` measures ``cardtable.VectorEnv`` instead (saved under the JSON's ``"vector"`` key, the
batch rows kept): every seat an agent choosing uniformly random legal actions, one thread, 1,024
envs with reused buffers, for one game length of steps after ``reset`` (at least 100). Only the
``VectorEnv.step`` calls are counted (callgrind's ``--toggle-collect`` on the binding's ``step``,
which includes the binding's own work; the NumPy policy is not counted), with the observations
written at every step (the default) and with ``observations=False``, and divided by the agent
decisions the steps made: an env-step whose ``info["autoreset"]`` is true (the step after that
env's game ended, which ignores the action and starts the next game) makes none, so the
decisions are the steps times the envs less the autoresets. Each row also gives the
batch runner's instructions per decision of the same game with ``random`` in every seat (two runs
of the example, as above) and the ratio of the two.

``--policy`` measures ``cardtable.simulate`` with a Python policy (saved under ``"policy"``): whole
Python processes (interpreter, NumPy and the policy included), one thread, batches of 1,024, each
run with 2,048 games and with 2,048 more than ``--count`` (default 4,000), the difference over
``--count`` being the cost of a game. Per game: all seats ``random``; the policy of
``benches.policy`` that reads only legal actions, as per-row lists (``legal_only``), as the flat
arrays (``legal_only_flat``) and as the bool mask (``legal_only_mask``), in seat 0 with ``random``
elsewhere; and the ratios random / policy, the share of the all-random speed that the policy keeps
(the target: at least 0.25).
"""

from __future__ import annotations

import argparse
import datetime
import functools
import json
import math
import os
import platform
import re
import subprocess
import sys
import tempfile
from collections.abc import Callable, Collection, Iterable, Sequence
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from benches.common import configs  # noqa: E402


@functools.cache
def provenance() -> dict[str, str]:
    """What a saved measurement was made with: the ``cardtable`` version, the git commit of the
    checkout (``git rev-parse --short HEAD``; "unknown" outside a checkout or without git) and
    the UTC date, as they were at the first call (the scripts make it when they start)."""
    import cardtable

    try:
        proc = subprocess.run(
            ["git", "rev-parse", "--short", "HEAD"],
            cwd=ROOT,
            capture_output=True,
            text=True,
            check=False,
        )
        commit = proc.stdout.strip() if proc.returncode == 0 and proc.stdout.strip() else "unknown"
    except OSError:
        commit = "unknown"
    return {
        "cardtable": cardtable.__version__,
        "commit": commit,
        "date": datetime.datetime.now(datetime.UTC).strftime("%Y-%m-%d"),
    }


def merge_by_game(
    saved: Sequence[dict[str, Any]],
    rows: Sequence[dict[str, Any]],
    same: Callable[[dict[str, Any]], object] = lambda r: r["game"],
) -> list[dict[str, Any]]:
    """The saved rows with those of every game in ``rows`` replaced by ``rows``' (a run of some
    games keeps the other games' rows; with ``same``, the saved rows replaced are those with the
    ``same(row)`` of a new row), in the order of :func:`~benches.common.configs` (games it does not
    know last)."""
    measured = {same(r) for r in rows}
    merged = [r for r in saved if same(r) not in measured] + list(rows)
    order = {game: i for i, game in enumerate(configs())}
    return sorted(merged, key=lambda r: order.get(r["game"], len(order)))


def example_path(name: str) -> Path:
    """Where ``cargo build --release --example name`` puts the engine crate's example ``name``
    (under ``CARGO_TARGET_DIR`` when it is set, as cargo does)."""
    target = os.environ.get("CARGO_TARGET_DIR")
    return (Path(target) if target else ROOT / "target") / "release" / "examples" / name


EXAMPLE = example_path("perf")

SETUP_GAMES = 10
"""Games of the first run of every row, whose count is subtracted from the second."""

_COLLECTED = re.compile(r"Collected\s*:\s*(\d+)")


def _command(game: str, bots: list[str], count: int) -> list[str]:
    """The example's command line for ``count`` games of ``game`` with ``bots``."""
    config = configs()[game]
    options = [f"{k}={v}" for k, v in config.items() if k != "players"]
    return [str(EXAMPLE), game, str(config["players"]), str(count), ",".join(bots), *options]


def run_callgrind(
    command: list[str], what: str, *, extra: Sequence[str] = (), annotate: bool = False
) -> tuple[int, str, str]:
    """Runs ``command`` under callgrind with the ``extra`` valgrind options.

    Returns (instructions, what the command printed, and ``callgrind_annotate --inclusive=yes``
    of the run when ``annotate``, else ""). ``what`` names the run in errors.
    """
    with tempfile.TemporaryDirectory() as tmp:
        out = Path(tmp) / "callgrind.out"
        proc = subprocess.run(
            ["valgrind", "--tool=callgrind", *extra, f"--callgrind-out-file={out}", *command],
            capture_output=True,
            text=True,
            check=False,
        )
        if proc.returncode != 0:
            raise RuntimeError(f"{what}: {proc.stderr.strip()[-2000:]}")
        match = _COLLECTED.search(proc.stderr)
        if match is None:
            tail = proc.stderr[-2000:]
            raise RuntimeError(f"no instruction count in callgrind's output:\n{tail}")
        annotated = ""
        if annotate:
            annotated = subprocess.run(
                ["callgrind_annotate", "--inclusive=yes", "--threshold=100", str(out)],
                capture_output=True,
                text=True,
                check=True,
            ).stdout
    return int(match.group(1)), proc.stdout, annotated


def callgrind(command: list[str], what: str) -> tuple[int, Any]:
    """Runs ``command`` under callgrind; returns (instructions, the JSON it printed).

    ``what`` names the run in errors.
    """
    instructions, printed, _ = run_callgrind(command, what)
    return instructions, json.loads(printed)


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


def configuration(game: str) -> dict[str, Any]:
    """The first fields of every row: the game, its player count and its other options."""
    config = configs()[game]
    options = {k: v for k, v in config.items() if k != "players"}
    return {"game": game, "players": config["players"], "options": options}


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
        **configuration(game),
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
    players = int(configs()[game]["players"])
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


def markdown_table(
    head: Sequence[str], rows: Iterable[Sequence[str]], left: Collection[int] = (0,)
) -> str:
    """A Markdown table of text cells: the columns numbered in ``left`` aligned left, the others
    (the numbers) right."""

    def line(cells: Sequence[str]) -> str:
        return "| " + " | ".join(cells) + " |"

    rule = "|" + "".join("---|" if i in left else "---:|" for i in range(len(head)))
    return "\n".join([line(head), rule, *(line(cells) for cells in rows)])


Column = tuple[str, Callable[[dict[str, Any]], str]]
"""A table column: its heading and the cell of a row."""


def game_label(row: dict[str, Any]) -> str:
    """A row's game and player count, e.g. ``goofspiel 2p``."""
    return f"{row['game']} {row['players']}p"


def column_table(
    columns: Sequence[Column], rows: Iterable[dict[str, Any]], left: Collection[int] = (0,)
) -> str:
    """The Markdown table of ``rows``, one column per ``(heading, cell)`` of ``columns``."""
    body = [[cell(r) for _, cell in columns] for r in rows]
    return markdown_table([heading for heading, _ in columns], body, left)


def measure_games(
    games: Iterable[str],
    measure_one: Callable[[str], dict[str, Any]],
    report: Callable[[str, dict[str, Any]], str],
) -> list[dict[str, Any]]:
    """The row ``measure_one(game)`` of each game, each told on stderr as ``report(game, row)``."""
    rows = []
    for game in games:
        row = measure_one(game)
        rows.append(row)
        print(report(game, row), file=sys.stderr, flush=True)
    return rows


def table(rows: list[dict[str, Any]], baseline: list[dict[str, Any]] | None = None) -> str:
    """The Markdown table of ``rows`` (with the ratio to ``baseline``'s rows when given)."""
    before = {_key(r): r for r in baseline or []}
    head = ["game", "bots", "instructions / game", "steps / game", "instructions / step"]
    if baseline is not None:
        head += ["before / game", "× fewer"]
    body = []
    for r in rows:
        cells = [
            game_label(r),
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
        body.append(cells)
    return markdown_table(head, body, left=(0, 1))


VECTOR_ENVS = 1024
"""Envs of the ``--vector`` rows (as ``benches.policy`` and ``benches.vector`` use)."""

_VECTOR_SCRIPT = """
import sys
import numpy as np
import cardtable
game, players, envs, steps, observations, options = (
    sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), int(sys.argv[4]), sys.argv[5] == "1",
    eval(sys.argv[6]),
)
env = cardtable.VectorEnv(
    game, envs, players=players, agent_seats="all", seed=0, threads=1, reuse_buffers=True,
    observations=observations, **options,
)
rng = np.random.default_rng(0)
_, info = env.reset()
mask = info["action_mask"]
decisions = 0
for _ in range(steps):
    scores = rng.random(mask.shape, dtype=np.float32)
    np.putmask(scores, ~mask, -1.0)
    *_, info = env.step(scores.argmax(axis=1).astype(np.int64))
    mask = info["action_mask"]
    decisions += int(np.count_nonzero(~info["autoreset"]))
print(decisions)
"""

_STEP_SYMBOL = "_core::*PyVectorEnv::__pymethod_step__"
"""The binding's ``step`` as callgrind names it, whichever module of the bindings crate holds it
(counting is on inside it only)."""


def batch_per_decision(game: str, count: int) -> tuple[float, float]:
    """The batch runner with ``random`` in every seat: (instructions, decisions) per game."""
    bots = ["random"] * int(configs()[game]["players"])
    runs = []
    for games in (SETUP_GAMES, SETUP_GAMES + count):
        instructions, played = callgrind(_command(game, bots, games), f"{game} {games}")
        runs.append((instructions, int(played["decisions"])))
    (i0, d0), (i1, d1) = runs
    return (i1 - i0) / count, (d1 - d0) / count


def vector_step_instructions(game: str, steps: int, observations: bool) -> tuple[int, int]:
    """Instructions inside ``VectorEnv.step`` over ``steps`` calls of ``VECTOR_ENVS`` envs, and the
    agent decisions they made (the env-steps that were not autoresets)."""
    config = configs()[game]
    options = {k: v for k, v in config.items() if k != "players"}
    command = [
        sys.executable,
        "-c",
        _VECTOR_SCRIPT,
        game,
        str(config["players"]),
        str(VECTOR_ENVS),
        str(steps),
        "1" if observations else "0",
        repr(options),
    ]
    instructions, printed = callgrind_toggled(command, _STEP_SYMBOL, f"VectorEnv {game}")
    return instructions, int(printed.split()[-1])


def callgrind_toggled(command: list[str], symbol: str, what: str) -> tuple[int, str]:
    """Runs ``command`` under callgrind counting only inside ``symbol``; (instructions, stdout).

    Raises:
        RuntimeError: If nothing was counted: no function of the run matched ``symbol``.
    """
    instructions, printed, _ = run_callgrind(command, what, extra=[f"--toggle-collect={symbol}"])
    if instructions == 0:
        raise RuntimeError(f"{what}: callgrind counted nothing inside {symbol!r}")
    return instructions, printed


def measure_vector(game: str, count: int) -> dict[str, Any]:
    """One ``--vector`` row: instructions per decision of ``VectorEnv.step`` and of the batch."""
    batch_instr, batch_decisions = batch_per_decision(game, count)
    # About one game per env: the envs start together, so most envs end and restart once. The
    # step after an env's game ended (an autoreset) makes no decision: only the others count.
    steps = max(100, math.ceil(batch_decisions))
    batch = batch_instr / batch_decisions
    instr, decisions = vector_step_instructions(game, steps, True)
    instr_without, decisions_without = vector_step_instructions(game, steps, False)
    if decisions != decisions_without:
        raise RuntimeError(
            f"{game}: {decisions} decisions with observations, {decisions_without} without"
        )
    with_obs = instr / decisions
    without = instr_without / decisions
    return {
        **configuration(game),
        "num_envs": VECTOR_ENVS,
        "steps": steps,
        "decisions": decisions,
        "autoresets": steps * VECTOR_ENVS - decisions,
        "batch_games": count,
        "batch_instructions_per_decision": batch,
        "step_instructions_per_decision": with_obs,
        "step_instructions_per_decision_without_observations": without,
        "ratio_to_batch": with_obs / batch,
        "ratio_to_batch_without_observations": without / batch,
    }


VECTOR_COLUMNS: tuple[Column, ...] = (
    ("game", game_label),
    ("batch / decision", lambda r: f"{r['batch_instructions_per_decision']:,.0f}"),
    ("step / decision", lambda r: f"{r['step_instructions_per_decision']:,.0f}"),
    ("× batch", lambda r: f"{r['ratio_to_batch']:.1f}"),
    (
        "observations=False",
        lambda r: f"{r['step_instructions_per_decision_without_observations']:,.0f}",
    ),
    ("× batch", lambda r: f"{r['ratio_to_batch_without_observations']:.1f}"),
)
"""The columns of the ``--vector`` table."""


def vector_table(rows: list[dict[str, Any]]) -> str:
    """The Markdown table of ``--vector`` rows."""
    return column_table(VECTOR_COLUMNS, rows)


POLICY_BATCH = 1024
"""Games stepped together per policy call in the ``--policy`` rows (as ``benches.policy``)."""

_POLICY_SCRIPT = """
import sys
sys.path.insert(0, sys.argv[1])
import cardtable
from benches.policy import legal_only, legal_only_flat, legal_only_mask
game, players, games, policy, options = (
    sys.argv[2], int(sys.argv[3]), int(sys.argv[4]), sys.argv[5], eval(sys.argv[6]),
)
first = {
    "random": "random", "lists": legal_only, "flat": legal_only_flat, "mask": legal_only_mask,
}[policy]
result = cardtable.simulate(
    game, players=players, games=games, seed=0, threads=1, progress=False,
    bots=[first] + ["random"] * (players - 1), batch_size=int(sys.argv[7]), **options,
)
assert result.games_played == games
"""

POLICIES = ("random", "lists", "flat", "mask")
"""The seat-0 players of the ``--policy`` rows: the random bot, then the legal-only policy
reading per-row lists, the one reading the flat arrays and the one reading the mask."""


def policy_game_instructions(game: str, policy: str, count: int) -> float:
    """Instructions per game of a Python process playing ``game`` with ``policy`` in seat 0."""
    config = configuration(game)
    runs = []
    # The first run fills two batches, so that both runs end their batches' drain alike.
    for games in (2 * POLICY_BATCH, 2 * POLICY_BATCH + count):
        command = [
            sys.executable,
            "-c",
            _POLICY_SCRIPT,
            str(ROOT),
            game,
            str(config["players"]),
            str(games),
            policy,
            repr(config["options"]),
            str(POLICY_BATCH),
        ]
        instructions, _, _ = run_callgrind(command, f"policy {game} {policy} {games}")
        runs.append(instructions)
    return (runs[1] - runs[0]) / count


def measure_policy(game: str, count: int) -> dict[str, Any]:
    """One ``--policy`` row: instructions per game of each of :data:`POLICIES` and the ratios."""
    return policy_row(game, count, {p: policy_game_instructions(game, p, count) for p in POLICIES})


def policy_row(game: str, count: int, per_game: dict[str, float]) -> dict[str, Any]:
    """The ``--policy`` row of ``game`` from the instructions per game of each of :data:`POLICIES`
    (measured over ``count`` games)."""
    return {
        **configuration(game),
        "games": count,
        "batch_size": POLICY_BATCH,
        **{f"{p}_instructions_per_game": v for p, v in per_game.items()},
        "share_lists": per_game["random"] / per_game["lists"],
        "share_flat": per_game["random"] / per_game["flat"],
        "share_mask": per_game["random"] / per_game["mask"],
    }


POLICY_COLUMNS: tuple[Column, ...] = (
    ("game", game_label),
    ("all random / game", lambda r: f"{r['random_instructions_per_game']:,.0f}"),
    ("lists / game", lambda r: f"{r['lists_instructions_per_game']:,.0f}"),
    ("share", lambda r: f"{r['share_lists']:.2f}"),
    ("flat arrays / game", lambda r: f"{r['flat_instructions_per_game']:,.0f}"),
    ("share", lambda r: f"{r['share_flat']:.2f}"),
    ("mask / game", lambda r: f"{r['mask_instructions_per_game']:,.0f}"),
    ("share", lambda r: f"{r['share_mask']:.2f}"),
)
"""The columns of the ``--policy`` table ("share": all random over the policy's run)."""


def policy_table(rows: list[dict[str, Any]]) -> str:
    """The Markdown table of ``--policy`` rows."""
    return column_table(POLICY_COLUMNS, rows)


def policy_main(games: list[str], count: int, path: Path | None) -> int:
    """``--policy``: measure, print the table, save the rows under ``"policy"``."""
    # NumPy's BLAS threads would otherwise spin and be counted with the policy's work.
    for name in ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS"):
        os.environ[name] = "1"
    rows = measure_games(
        games,
        lambda game: measure_policy(game, count),
        lambda game, row: (
            f"{game}: lists keep {row['share_lists']:.2f} of the all-random speed, flat arrays "
            f"{row['share_flat']:.2f}, the mask {row['share_mask']:.2f}"
        ),
    )
    return _show(rows, policy_table, path, "policy")


def build_example(name: str) -> None:
    """Builds the release example ``name`` of the engine crate."""
    subprocess.run(
        ["cargo", "build", "--quiet", "--release", "-p", "cardtable-engine", "--example", name],
        cwd=ROOT,
        check=True,
    )


def positive_int(text: str) -> int:
    """An argparse type: an integer of at least 1."""
    value = int(text)
    if value < 1:
        raise argparse.ArgumentTypeError(f"must be at least 1, not {text}")
    return value


def positive_float(text: str) -> float:
    """An argparse type: a finite number above 0."""
    value = float(text)
    if not (math.isfinite(value) and value > 0):
        raise argparse.ArgumentTypeError(f"must be a number above 0, not {text}")
    return value


def lineup_problem(game: str, bots: list[str]) -> str | None:
    """Why ``bots`` cannot play ``game`` with its :func:`~benches.common.configs` setup (a bot the
    game does not have, a bad parameter, not one bot per seat, a parameter list the example cannot
    take), or ``None``. Checked before any callgrind run."""
    import cardtable

    config = configs()[game]
    players = int(config["players"])
    made = cardtable.make(game, **config)
    for seat, spec in enumerate(bots):
        try:
            cardtable.bot(made, spec, min(seat, players - 1))
        except cardtable.CardtableError as err:
            return str(err)
    if len(bots) != players:
        named = f"{len(bots)} bot" + ("" if len(bots) == 1 else "s")
        return f"{game} is measured with {players} seats, the lineup {','.join(bots)} names {named}"
    for spec in bots:
        if "," in spec:
            return f"{spec}: the perf example takes no bot with several parameters (a comma)"
    return None


def main(argv: list[str] | None = None) -> int:
    """Command line: measure, print the table, save the JSON."""
    from cardtable.bots import split_bot_specs

    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", nargs="+", choices=sorted(configs()), default=list(configs()))
    parser.add_argument(
        "--bots",
        nargs="+",
        help="these lineups instead of the built-in ones (comma-separated, a bot per seat; "
        "bots with parameters too, e.g. greedy:4,random,random,random)",
    )
    parser.add_argument("--budget", type=positive_float, default=3e8, help="instructions per row")
    parser.add_argument(
        "--count", type=positive_int, help="games per row, at least 1 (instead of --budget)"
    )
    parser.add_argument("--json", type=Path, help="save the rows here")
    parser.add_argument("--baseline", type=Path, help="a saved run to compare with")
    parser.add_argument("--no-build", action="store_true", help="use the example as built")
    parser.add_argument("--vector", action="store_true", help="measure VectorEnv.step instead")
    parser.add_argument(
        "--policy", action="store_true", help="measure simulate with a Python policy instead"
    )
    args = parser.parse_args(argv)
    provenance()  # the commit measured is the one at the start
    lineups = [split_bot_specs(b) for b in args.bots or []]
    for game in args.games:
        for bots in lineups:
            problem = lineup_problem(game, bots)
            if problem is not None:
                parser.error(f"--bots: {problem}")
    if args.bots and (args.policy or args.vector):
        parser.error("--bots: only the batch rows take lineups (not --vector or --policy)")
    if args.policy:
        return policy_main(args.games, args.count or 4000, args.json)
    if not args.no_build:
        build_example("perf")
    if args.vector:
        return vector_main(args.games, args.count or 2000, args.json)
    baseline = None
    if args.baseline is not None:
        baseline = json.loads(args.baseline.read_text())["rows"]
    rows = []
    counts = {_key(r): int(r["games"]) for r in baseline or []}
    for game in args.games:
        for bots in lineups or bot_lineups(game):
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
        # The built-in lineups of a game replace its saved rows; lineups of --bots only their own.
        _save(args.json, "rows", rows, _key if lineups else lambda r: r["game"])
    return 0


def vector_main(games: list[str], count: int, path: Path | None) -> int:
    """``--vector``: measure, print the table, save the rows under ``"vector"``."""
    rows = measure_games(
        games,
        lambda game: measure_vector(game, count),
        lambda game, row: (
            f"{game}: {row['step_instructions_per_decision']:,.0f} instructions/decision "
            f"({row['step_instructions_per_decision_without_observations']:,.0f} without "
            f"observations), batch {row['batch_instructions_per_decision']:,.0f}"
        ),
    )
    return _show(rows, vector_table, path, "vector")


def _show(
    rows: list[dict[str, Any]],
    render: Callable[[list[dict[str, Any]]], str],
    path: Path | None,
    key: str,
) -> int:
    """Prints ``render(rows)`` and saves the rows under ``key`` of the JSON at ``path`` if given;
    the exit status (0)."""
    print(render(rows))
    if path is not None:
        _save(path, key, rows)
    return 0


def _save(
    path: Path,
    key: str,
    rows: list[dict[str, Any]],
    same: Callable[[dict[str, Any]], object] = lambda r: r["game"],
) -> None:
    """Writes ``rows`` under ``key`` of the JSON at ``path``, keeping its other keys and, under
    ``key``, the rows of the games not measured now (:func:`merge_by_game`, ``same`` telling which
    saved rows a new one replaces). Every new row records what it was measured with
    (:func:`provenance`, under ``"measured"``)."""
    saved: dict[str, Any] = json.loads(path.read_text()) if path.exists() else {}
    valgrind = subprocess.run(["valgrind", "--version"], capture_output=True, text=True)
    measured = provenance()
    saved.update(
        {
            "tool": "valgrind --tool=callgrind (instructions executed, all threads)",
            "valgrind": valgrind.stdout.strip(),
            "machine": platform.machine(),
            "setup_games": SETUP_GAMES,
            key: merge_by_game(
                saved.get(key, []), [{**r, "measured": measured} for r in rows], same
            ),
        }
    )
    path.write_text(json.dumps(saved, indent=2) + "\n")


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


def test_vector_table_renders() -> None:
    """The ``--vector`` table has one line per row with both ratios (no valgrind needed)."""
    row = {
        "game": "goofspiel",
        "players": 2,
        "batch_instructions_per_decision": 100.0,
        "step_instructions_per_decision": 3000.0,
        "step_instructions_per_decision_without_observations": 500.0,
        "ratio_to_batch": 30.0,
        "ratio_to_batch_without_observations": 5.0,
    }
    line = vector_table([row]).splitlines()[2]
    assert line == "| goofspiel 2p | 100 | 3,000 | 30.0 | 500 | 5.0 |"


def test_policy_table_renders() -> None:
    """The ``--policy`` row's shares are all-random over each policy's cost, and the table has one
    line per row with them all (no valgrind needed)."""
    per_game = {"random": 2e4, "lists": 1e5, "flat": 5e4, "mask": 8e4}
    row = policy_row("turn_the_tide", 4000, per_game)
    assert (row["share_lists"], row["share_flat"], row["share_mask"]) == (0.2, 0.4, 0.25)
    line = policy_table([row]).splitlines()[2]
    assert line == "| turn_the_tide 4p | 20,000 | 100,000 | 0.20 | 50,000 | 0.40 | 80,000 | 0.25 |"


if __name__ == "__main__":
    sys.exit(main())
