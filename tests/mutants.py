"""Mutation check of the test suites: do they notice a one-line rule change in the reference?

Each mutation of :data:`MUTATIONS` changes one rule of the pure-Python reference (a cap, a
threshold, a rounding, a tie rule, an order of resolution). Every game declares its own in
``GAME.mutations`` of its scenario file ``tests/games/<game_id>.py`` (:class:`Mutation` is defined
in ``tests/game_info.py``, and importable from here too). A mutation is located by a code snippet
that occurs exactly once in ``python/cardtable/reference/**/*.py`` (not by file or line, so it
survives moving code between files), and applied to a copy of ``python/`` (compiled extension
included) in a temporary directory that comes first on ``PYTHONPATH`` of the test run: the working
tree is never touched. Then the differential, golden and seeded suites run on it one by one,
restricted to the mutated game, and the report shows which of them catch each mutation::

    python -m tests.mutants                 # every mutation (slow: tens of minutes)
    python -m tests.mutants --only money-cap --only goofspiel-tie
    python -m tests.mutants --list

It exits non-zero if a mutation survives all three suites (or if a snippet is not found exactly
once, or the unmutated copy fails a suite).
"""

from __future__ import annotations

import argparse
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
from collections.abc import Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import replace
from pathlib import Path

from tests.game_info import Mutation as Mutation  # also importable from here
from tests.game_info import all_games

ROOT = Path(__file__).resolve().parent.parent
"""The repository root (holding ``python/``, ``tests/`` and ``pyproject.toml``)."""

REFERENCE = Path("python") / "cardtable" / "reference"
"""The reference tree, relative to the root, where the snippets are searched."""

SUITES: dict[str, str] = {
    "differential": "tests/test_differential.py",
    "golden": "tests/test_golden.py",
    "seeded": "tests/test_seeded.py",
}
"""The suites that must catch every mutation, by short name."""


MUTATIONS: tuple[Mutation, ...] = tuple(
    replace(m, game=game_id) for game_id, info in all_games().items() for m in info.mutations
)
"""The curated catalog: at least one mutation per important rule of every game, declared by each
game in ``GAME.mutations`` of its scenario file ``tests/games/<game_id>.py`` (which gives each its
``game``), gathered in the order of the sorted game ids (``scenario_ids``)."""


def reference_files(root: Path) -> list[Path]:
    """Every Python file of the reference tree under ``root``."""
    return sorted((root / REFERENCE).rglob("*.py"))


def locate(mutation: Mutation, root: Path) -> list[Path]:
    """The reference files holding ``mutation.find``, once per occurrence (right: exactly one)."""
    hits: list[Path] = []
    for path in reference_files(root):
        hits += [path] * path.read_text(encoding="utf-8").count(mutation.find)
    return hits


def catalog_problems(root: Path = ROOT) -> list[str]:
    """What is wrong with the catalog against the reference tree under ``root`` (empty: nothing).

    Every snippet must occur exactly once, every name be unique, every replacement differ from its
    snippet and keep it on one line.
    """
    problems = []
    names = [m.name for m in MUTATIONS]
    problems += [
        f"{n}: the name is used twice" for n in sorted({n for n in names if names.count(n) > 1})
    ]
    for m in MUTATIONS:
        hits = locate(m, root)
        if len(hits) != 1:
            problems.append(f"{m.name}: the snippet occurs {len(hits)} times: {m.find!r}")
        if m.find == m.replace or m.find.count("\n") != m.replace.count("\n"):
            problems.append(f"{m.name}: the replacement must change the snippet within its lines")
    return problems


def make_tree(root: Path, into: Path, mutation: Mutation | None) -> None:
    """Copies ``python/``, ``tests/`` and ``pyproject.toml`` of ``root`` into ``into`` and applies
    ``mutation`` (if any) to the copy."""
    ignore = shutil.ignore_patterns("__pycache__", ".hypothesis", ".pytest_cache")
    shutil.copytree(root / "python", into / "python", ignore=ignore)
    shutil.copytree(root / "tests", into / "tests", ignore=ignore)
    shutil.copy2(root / "pyproject.toml", into / "pyproject.toml")
    if mutation is None:
        return
    (path,) = locate(mutation, into)
    text = path.read_text(encoding="utf-8")
    path.write_text(text.replace(mutation.find, mutation.replace), encoding="utf-8")


def keyword(game: str) -> str:
    """A ``-k`` expression selecting the parametrized tests of ``game`` (and no other game's)."""
    return f"{game}- or {game}]"


def run_suite(tree: Path, suite: str, game: str, workers: str) -> tuple[str, float]:
    """Runs one suite of ``game``'s tests on the tree; ``caught``, ``survived`` or ``error``."""
    env = {
        **os.environ,
        "PYTHONPATH": str(tree / "python") + os.pathsep + str(tree),
        "CARDTABLE_HYPOTHESIS": "mutants",
    }
    command = [sys.executable, "-m", "pytest", suite, "-x", "-q", "-k", keyword(game)]
    command += ["-p", "no:randomly", "-n", workers]
    start = time.perf_counter()
    result = subprocess.run(command, cwd=tree, env=env, capture_output=True, text=True, check=False)
    seconds = time.perf_counter() - start
    # With ``-x`` under pytest-xdist a failure ends the run as "interrupted" (status 2).
    failed = re.search(r"\b\d+ (failed|error)", result.stdout) is not None
    if result.returncode == 0:
        outcome = "survived"
    elif result.returncode == 1 or failed:
        outcome = "caught"
    else:
        outcome = f"error {result.returncode}"
    return outcome, seconds


def main(argv: Sequence[str] | None = None) -> int:
    """Runs the mutation check and prints the table; the exit status tells whether all passed."""
    parser = argparse.ArgumentParser(prog="python -m tests.mutants", description=__doc__)
    parser.add_argument("--only", action="append", default=[], help="run only these mutations")
    parser.add_argument("--suite", action="append", default=[], choices=list(SUITES))
    parser.add_argument("--workers", default="0", help="pytest-xdist workers per suite run")
    parser.add_argument("--jobs", type=int, default=1, help="mutations checked at once")
    parser.add_argument("--no-baseline", action="store_true", help="skip the unmutated run")
    parser.add_argument("--list", action="store_true", help="list the catalog and exit")
    args = parser.parse_args(argv)
    if args.list:
        for m in MUTATIONS:
            print(f"{m.name:32} {m.game:22} {m.rule}")
        return 0
    problems = catalog_problems()
    if problems:
        print("\n".join(problems), file=sys.stderr)
        return 2
    unknown = set(args.only) - {m.name for m in MUTATIONS}
    if unknown:
        parser.error(f"unknown mutations {sorted(unknown)}")
    chosen = [m for m in MUTATIONS if not args.only or m.name in args.only]
    suites = args.suite or list(SUITES)
    status = 0
    with tempfile.TemporaryDirectory(prefix="cardtable-mutants-") as tmp:
        if not args.no_baseline:
            tree = Path(tmp) / "baseline"
            make_tree(ROOT, tree, None)
            for game in sorted({m.game for m in chosen}):
                for suite in suites:
                    outcome, _ = run_suite(tree, SUITES[suite], game, args.workers)
                    if outcome != "survived":
                        print(f"baseline: {suite} fails on {game} unmutated ({outcome})")
                        status = 2
            if status:
                return status
        header = f"{'mutation':32} " + " ".join(f"{s:>14}" for s in suites) + "   seconds"
        print(header)
        print("-" * len(header))
        survivors = []

        def check(m: Mutation) -> list[str]:
            tree = Path(tmp) / m.name
            make_tree(ROOT, tree, m)
            cells, total = [], 0.0
            for suite in suites:
                outcome, seconds = run_suite(tree, SUITES[suite], m.game, args.workers)
                cells.append(outcome)
                total += seconds
            shutil.rmtree(tree)
            print(f"{m.name:32} " + " ".join(f"{c:>14}" for c in cells) + f"   {total:7.0f}")
            sys.stdout.flush()
            return cells

        with ThreadPoolExecutor(max_workers=args.jobs) as pool:
            for m, cells in zip(chosen, pool.map(check, chosen), strict=True):
                if "caught" not in cells:
                    survivors.append(m.name)
        caught = len(chosen) - len(survivors)
        print(f"\n{caught} of {len(chosen)} mutations caught by {', '.join(suites)}")
        if survivors:
            print("survived every suite: " + ", ".join(survivors))
            status = 1
    return status


if __name__ == "__main__":
    sys.exit(main())
