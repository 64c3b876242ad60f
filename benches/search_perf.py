"""Instructions per ``mcts`` decision and per playout step of every game, counted by callgrind.

The question: how much dearer is a step of the search's playouts than a step of the batch runner?
Every row runs the release example ``rust/engine/examples/search_perf.rs`` under ``valgrind
--tool=callgrind``: ``mcts:iterations=N`` (the game's per-game defaults for every other
parameter) decides the seat to move in states a third into seeded random games, twice with
different numbers of decisions; the difference of the two counts, over the difference of the
decisions, is the cost of a decision without the process's setup (as ``perf.py`` does for whole
games). That cost over the playout steps the difference played (``IsmctsBot::playout_steps``) is
everything the search costs per playout step: tree walks, determinizations, observation hashes,
the rollout policy. Next to it, the same method counts plain random playouts of determinizations
of the same states (``playouts:N``, ``Game::random_playout``), and the batch runner's cost per
step comes from ``benches/perf.json`` (``make perf``): all-``random`` seats, and for a game whose
playouts are greedy also its ``greedy`` bot in every seat.

Two ratios to the batch runner with the same policy are reported. The rollouts' own
(``rollout step ÷ batch``): the instructions spent inside the search's rollout function
(``Playout::rollout``, never inlined; callgrind's inclusive cost from ``callgrind_annotate
--inclusive=yes``) per step it played, which is what the playouts themselves cost. And the whole
search's (``search step ÷ batch``): every instruction of the decisions (determinizations, tree
walks, observation hashes, backups and the rollouts) per playout step, which also charges the
search's per-iteration work to the playouts. Usage::

    python benches/search_perf.py                  # every game; a few minutes
    python benches/search_perf.py --games goofspiel --json out.json

``--json`` keeps the saved rows of the games not measured, and every new row records what it was
measured with (``"measured"``: the cardtable version, the git commit and the UTC date).
"""

from __future__ import annotations

import argparse
import json
import re
import sys
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from benches.common import configs, search_decisions  # noqa: E402
from benches.perf import (  # noqa: E402
    Column,
    build_example,
    column_table,
    example_path,
    game_label,
    measure_games,
    merge_by_game,
    provenance,
    run_callgrind,
)

EXAMPLE = example_path("search_perf")
PERF_JSON = ROOT / "benches" / "perf.json"

SETUP_DECISIONS = 1
"""Decisions of the first run of every row, whose count is subtracted from the second."""

ITERATIONS = 1000
"""``mcts`` iterations per decision (every game's default budget in the search docs)."""

PLAYOUTS_PER_STATE = 50
"""Plain random playouts of determinizations per decision state, for scale."""


def _command(game: str, decisions: int, spec: str) -> list[str]:
    """The example's command line for ``decisions`` decision states of ``game`` with ``spec``."""
    config = configs()[game]
    options = [f"{k}={v}" for k, v in config.items() if k != "players"]
    return [str(EXAMPLE), game, str(config["players"]), str(decisions), spec, *options]


ROLLOUT_FUNCTION = re.compile(r"::Playout<[^>]*>::rollout\b")
"""The search's rollout function in ``callgrind_annotate``'s demangled function names."""

_INCLUSIVE_LINE = re.compile(r"^\s*([\d,]+)\s+(?:\([^)]*\)\s+)?(.*)$")


def rollout_inclusive(annotated: str) -> int:
    """The inclusive instructions of the rollout function in ``callgrind_annotate`` output."""
    total = 0
    for line in annotated.splitlines():
        match = _INCLUSIVE_LINE.match(line)
        if match is not None and ROLLOUT_FUNCTION.search(match.group(2)):
            total += int(match.group(1).replace(",", ""))
    return total


def count_instructions(game: str, decisions: int, spec: str) -> tuple[int, int, dict[str, Any]]:
    """Runs the example under callgrind; returns (instructions, of them inside the rollout
    function, what it printed)."""
    what = f"{game} {spec} {decisions}"
    instructions, stdout, annotated = run_callgrind(
        _command(game, decisions, spec), what, annotate=True
    )
    printed: dict[str, Any] = json.loads(stdout)
    if printed["decisions"] != decisions:
        raise RuntimeError(f"{game} {spec}: {printed['decisions']} of {decisions} decisions")
    return instructions, rollout_inclusive(annotated), printed


def difference(game: str, decisions: int, spec: str) -> dict[str, Any]:
    """Instructions and playout steps of ``decisions`` decisions of ``spec``, setup subtracted."""
    base_instr, base_rollout, base = count_instructions(game, SETUP_DECISIONS, spec)
    instr, rollout, run = count_instructions(game, SETUP_DECISIONS + decisions, spec)
    steps = int(run["playout_steps"]) - int(base["playout_steps"])
    walk = int(run.get("walk_steps", 0)) - int(base.get("walk_steps", 0))
    return {
        "instructions": instr - base_instr,
        "rollout_instructions": rollout - base_rollout,
        "playout_steps": steps,
        "walk_steps": walk,
        "instructions_per_step": (instr - base_instr) / max(1, steps),
        "rollout_per_step": (rollout - base_rollout) / max(1, steps),
        **{k: v for k, v in run.items() if k in ("rollout", "opponents")},
    }


def batch_per_step(perf_rows: list[dict[str, Any]], game: str, bot: str) -> float | None:
    """The batch runner's instructions per step of ``game`` with ``bot`` in every seat."""
    for row in perf_rows:
        if row["game"] == game and set(row["bots"]) == {bot}:
            return float(row["instructions_per_step"])
    return None


def heuristic_bot(perf_rows: list[dict[str, Any]], game: str) -> str:
    """The bot ``rollout=greedy`` plays in ``game``: its ``greedy`` bot, else its first built-in
    bot (the memory game's ``memory``), as listed in the batch runner's rows."""
    names = [
        row["bots"][0]
        for row in perf_rows
        if row["game"] == game and len(set(row["bots"])) == 1 and row["bots"][0] != "random"
    ]
    return "greedy" if "greedy" in names or not names else names[0]


def measure(game: str, perf_rows: list[dict[str, Any]], iterations: int) -> dict[str, Any]:
    """One row: the search's and the plain playouts' cost per step of ``game``."""
    decisions = search_decisions(game)
    search = difference(game, decisions, f"mcts:iterations={iterations}")
    plain = difference(game, decisions, f"playouts:{PLAYOUTS_PER_STATE}")
    batch = batch_per_step(perf_rows, game, "random")
    policy = (
        batch
        if search["rollout"] == "random"
        else batch_per_step(perf_rows, game, heuristic_bot(perf_rows, game))
    )
    per_step = search["instructions_per_step"]
    rollout_step = search["rollout_per_step"]
    return {
        "game": game,
        "players": configs()[game]["players"],
        "iterations": iterations,
        "decisions": decisions,
        "rollout": search["rollout"],
        "opponents": search["opponents"],
        "instructions_per_decision": search["instructions"] / decisions,
        "playout_steps_per_iteration": search["playout_steps"] / (decisions * iterations),
        "walk_steps_per_iteration": search["walk_steps"] / (decisions * iterations),
        "instructions_per_playout_step": per_step,
        "rollout_per_playout_step": rollout_step,
        "instructions_per_step_played": search["instructions"]
        / max(1, search["playout_steps"] + search["walk_steps"]),
        "plain_playout_per_step": plain["instructions_per_step"],
        "batch_random_per_step": batch,
        "batch_policy_per_step": policy,
        "rollout_ratio_to_batch": None if policy is None else rollout_step / policy,
        "ratio_to_batch": None if policy is None else per_step / policy,
    }


def _num(value: float | None, fmt: str = ",.0f") -> str:
    return "" if value is None else format(value, fmt)


def _ratio(value: float | None) -> str:
    return "" if value is None else f"{value:.1f}×"


COLUMNS: tuple[Column, ...] = (
    ("game", game_label),
    ("iterations", lambda r: f"{r['iterations']:,}"),
    ("rollout / opponents", lambda r: f"{r['rollout']} / {r['opponents']}"),
    ("instructions / decision", lambda r: _num(r["instructions_per_decision"])),
    (
        "playout + walk steps / iteration",
        lambda r: f"{r['playout_steps_per_iteration']:.1f} + {r['walk_steps_per_iteration']:.1f}",
    ),
    ("rollout / rollout step", lambda r: _num(r["rollout_per_playout_step"])),
    ("search / playout step", lambda r: _num(r["instructions_per_playout_step"])),
    ("search / step played", lambda r: _num(r["instructions_per_step_played"])),
    ("plain playouts / step", lambda r: _num(r["plain_playout_per_step"])),
    ("batch random / step", lambda r: _num(r["batch_random_per_step"])),
    ("batch rollout policy / step", lambda r: _num(r["batch_policy_per_step"])),
    ("rollout step ÷ batch", lambda r: _ratio(r["rollout_ratio_to_batch"])),
    ("search step ÷ batch", lambda r: _ratio(r["ratio_to_batch"])),
)
"""The columns of the table."""


def table(rows: list[dict[str, Any]]) -> str:
    """The Markdown table of ``rows``."""
    return column_table(COLUMNS, rows, left=(0, 2))


def main(argv: list[str] | None = None) -> int:
    """Command line: measure, print the table, save the JSON."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", nargs="+", choices=sorted(configs()), default=list(configs()))
    parser.add_argument("--iterations", type=int, default=ITERATIONS, help="per decision")
    parser.add_argument("--perf", type=Path, default=PERF_JSON, help="the batch runner's rows")
    parser.add_argument("--json", type=Path, help="save the rows here")
    parser.add_argument("--no-build", action="store_true", help="use the example as built")
    args = parser.parse_args(argv)
    provenance()  # the commit measured is the one at the start
    if not args.no_build:
        build_example("search_perf")
    perf_rows: list[dict[str, Any]] = json.loads(args.perf.read_text())["rows"]
    rows = measure_games(
        args.games,
        lambda game: measure(game, perf_rows, args.iterations),
        lambda game, row: (
            f"{game}: {row['instructions_per_playout_step']:,.0f} instructions per playout step "
            f"({row['rollout_per_playout_step']:,.0f} inside the rollouts) "
            f"over {row['decisions']} decisions"
        ),
    )
    print(table(rows))
    if args.json is not None:
        save(args.json, rows)
    return 0


def save(path: Path, rows: list[dict[str, Any]]) -> None:
    """Writes ``rows`` to the JSON at ``path``, keeping its rows of the games not measured now;
    every new row records what it was measured with (``"measured"``: the cardtable version, the
    git commit and the UTC date)."""
    saved: dict[str, Any] = json.loads(path.read_text()) if path.exists() else {}
    measured = provenance()
    new = [{**r, "measured": measured} for r in rows]
    payload = {
        "setup_decisions": SETUP_DECISIONS,
        "rows": merge_by_game(saved.get("rows", []), new),
    }
    path.write_text(json.dumps(payload, indent=1) + "\n")


def test_table_renders() -> None:
    """The table has a header, a rule and one line per row (no valgrind needed)."""
    row = {
        "game": "goofspiel",
        "players": 2,
        "iterations": 1000,
        "rollout": "greedy",
        "opponents": "tree",
        "instructions_per_decision": 5.0e7,
        "playout_steps_per_iteration": 10.0,
        "walk_steps_per_iteration": 2.5,
        "rollout_per_playout_step": 300.0,
        "instructions_per_playout_step": 500.0,
        "instructions_per_step_played": 400.0,
        "plain_playout_per_step": 200.0,
        "batch_random_per_step": 122.0,
        "batch_policy_per_step": 250.0,
        "rollout_ratio_to_batch": 1.2,
        "ratio_to_batch": 2.0,
    }
    assert table([row]).splitlines()[2] == (
        "| goofspiel 2p | 1,000 | greedy / tree | 50,000,000 | 10.0 + 2.5 | 300 | 500 | 400 "
        "| 200 | 122 | 250 | 1.2× | 2.0× |"
    )


def test_rollout_inclusive_reads_the_rollout_line() -> None:
    """Only the rollout function's inclusive count is taken from the annotation."""
    annotated = (
        "1,000,000 (100.0%)  PROGRAM TOTALS\n"
        "  600,123 (60.01%)  ???:cardtable_engine::search::Playout<G>::rollout "
        "[/x/search_perf]\n"
        "  500,000 (50.0%)  ???:cardtable_engine::search::Playout<G>::run_on [/x/search_perf]\n"
    )
    assert rollout_inclusive(annotated) == 600_123


if __name__ == "__main__":
    sys.exit(main())
