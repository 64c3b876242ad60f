"""Mutation check of the test suites: do they notice a one-line rule change in the reference?

Each mutation of :data:`MUTATIONS` changes one rule of the pure-Python reference (a cap, a
threshold, a rounding, a tie rule, an order of resolution). It is located by a code snippet that
occurs exactly once in ``python/cardtable/reference/**/*.py`` (not by file or line, so it
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
from dataclasses import dataclass
from pathlib import Path

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


@dataclass(frozen=True)
class Mutation:
    """One rule broken on purpose.

    Attributes:
        name: A short unique name.
        game: The game id whose tests run (``-k``).
        rule: The rule the mutation breaks, in words.
        find: A snippet found exactly once in the reference tree.
        replace: What replaces it (the snippet changes within one line).
    """

    name: str
    game: str
    rule: str
    find: str
    replace: str


MUTATIONS: tuple[Mutation, ...] = (
    # ----- goofspiel -----
    Mutation(
        "goofspiel-tie",
        "goofspiel",
        "equal bids take nothing (mutant: seat 1 wins ties)",
        "elif bid1 > bid0:",
        "elif bid1 >= bid0:",
    ),
    Mutation(
        "goofspiel-winners",
        "goofspiel",
        "the most points wins, ties share (mutant: the fewest)",
        'score_wins = "highest"\n    """The seat with the most points wins',
        'score_wins = "lowest"\n    """The seat with the most points wins',
    ),
    # ----- Turn the Tide -----
    Mutation(
        "tide-lifebuoy-rounding",
        "turn_the_tide",
        "lifebuoys = floor(halves / 2) (mutant: rounded up)",
        "return sum(half_lifebuoys(card) for card in hand) // 2",
        "return (sum(half_lifebuoys(card) for card in hand) + 1) // 2",
    ),
    Mutation(
        "tide-highest-takes-lower",
        "turn_the_tide",
        "the highest weather card takes the lower tide card (mutant: the higher)",
        "self._take_tide_card(highest, lower)",
        "self._take_tide_card(highest, higher)",
    ),
    Mutation(
        "tide-lowest-bonus",
        "turn_the_tide",
        "the lowest showing tide gets the bonus (mutant: the highest)",
        "lowest = min(showing.values(), default=None)",
        "lowest = max(showing.values(), default=None)",
    ),
    Mutation(
        "tide-round-end",
        "turn_the_tide",
        "the round ends when at most two players remain (mutant: at most one)",
        "if len(self._seats_in_round()) <= PLAYERS_LEFT_TO_END_ROUND:",
        "if len(self._seats_in_round()) < PLAYERS_LEFT_TO_END_ROUND:",
    ),
    Mutation(
        "tide-eliminated-penalty",
        "turn_the_tide",
        "an eliminated player scores -1 (mutant: -2)",
        "self._totals[seat] -= 1",
        "self._totals[seat] -= 2",
    ),
    Mutation(
        "tide-recheck-cascade",
        "turn_the_tide",
        "after an elimination step 4 applies again (mutant: never)",
        "anyone_eliminated = True",
        "anyone_eliminated = False",
    ),
    # ----- Trafficars -----
    Mutation(
        "trafficars-equal-cards-order",
        "trafficars",
        "equal cards resolve in seat order from seat 0 (mutant: from the last seat)",
        "0 if number is None else number, seat)",
        "0 if number is None else number, -seat)",
    ),
    Mutation(
        "trafficars-lane-full",
        "trafficars",
        "a car into a lane with 4 cars takes the lane (mutant: with 5)",
        "if self._max_cars is not None and cars_in(lane) >= self._max_cars:",
        "if self._max_cars is not None and cars_in(lane) > self._max_cars:",
    ),
    Mutation(
        "trafficars-ambulance-overflow",
        "trafficars",
        "a lane with more than 4 cars after the ambulances overflows (mutant: 4 or more)",
        "if self._new_front_ambulance(lane) and cars_in(lane) > self._max_cars:",
        "if self._new_front_ambulance(lane) and cars_in(lane) >= self._max_cars:",
    ),
    Mutation(
        "trafficars-police-full-lane",
        "trafficars",
        "a police car goes to a lane with fewer than 4 cars (mutant: up to 4)",
        "or cars_in(lane) < self._max_cars",
        "or cars_in(lane) <= self._max_cars",
    ),
    Mutation(
        "trafficars-tow-truck-5th-car",
        "trafficars",
        "a tow truck as 5th car takes the lane's first places (mutant: as 6th)",
        "if self._max_cars is not None and before >= self._max_cars:",
        "if self._max_cars is not None and before > self._max_cars:",
    ),
    Mutation(
        "trafficars-unfilled-free-place",
        "trafficars",
        "a tow truck whose free place stays empty counts 2 cars (mutant: 1)",
        "lane[index + 1].cars = 2",
        "lane[index + 1].cars = 1",
    ),
    Mutation(
        "trafficars-smallest-difference",
        "trafficars",
        "a card goes to the lane end closest below it (mutant: farthest)",
        "closest = max((value for _, value in accepting if value is not None), default=None)",
        "closest = min((value for _, value in accepting if value is not None), default=None)",
    ),
    Mutation(
        "trafficars-trailer-stacks",
        "trafficars",
        "a trailer stacks on the last place, never filling a lane (mutant: a new place)",
        "lane[-1].stack().append(trailer)",
        "lane.append(Place([trailer]))",
    ),
    # ----- Trafficars memory -----
    Mutation(
        "memory-joker-fills-gap",
        "trafficars_memory",
        "jokers fill the gaps of a run (mutant: one joker short)",
        "return len(cars) >= CARS_TO_COLLECT and gaps(cars) <= jokers",
        "return len(cars) >= CARS_TO_COLLECT and gaps(cars) < jokers",
    ),
    Mutation(
        "memory-run-broken",
        "trafficars_memory",
        "from the second car on a gap breaks the run (mutant: from the third)",
        "return len(cars) < CARS_TO_COLLECT or gaps(cars) <= jokers",
        "return len(cars) <= CARS_TO_COLLECT or gaps(cars) <= jokers",
    ),
    Mutation(
        "memory-end-test",
        "trafficars_memory",
        "the game ends when no collectable set is left (mutant: a joker short)",
        "return any(higher - lower - 1 <= jokers for lower, higher in pairwise(numbers))",
        "return any(higher - lower - 1 < jokers for lower, higher in pairwise(numbers))",
    ),
    Mutation(
        "memory-next-seat",
        "trafficars_memory",
        "the next seat plays whatever happened (mutant: the same seat again)",
        "self._next_turn_or_end(first_seat=(self._current + 1) % self._players)",
        "self._next_turn_or_end(first_seat=self._current)",
    ),
    Mutation(
        "memory-quiet-round",
        "trafficars_memory",
        "N(N - 1)/2 quiet turns in a row end the game (mutant: one more quiet turn)",
        "stalled = self._quiet_turns >= self._stall_turns",
        "stalled = self._quiet_turns > self._stall_turns",
    ),
    # ----- Trafficars overtaking -----
    Mutation(
        "overtaking-all-pass",
        "trafficars_overtaking",
        "the row is removed once every player passed (mutant: all but one)",
        "if self._passes == self._players:",
        "if self._passes == self._players - 1:",
    ),
    Mutation(
        "overtaking-refill",
        "trafficars_overtaking",
        "hands refill to 6 cards (mutant: to 7)",
        "while len(self._hands[seat]) < HAND_SIZE and self._piles[seat]:",
        "while len(self._hands[seat]) <= HAND_SIZE and self._piles[seat]:",
    ),
    Mutation(
        "overtaking-score",
        "trafficars_overtaking",
        "a seat scores minus the cards in hand and pile (mutant: hand only)",
        "-(len(hand) + len(pile)) for hand, pile in",
        "-(len(hand) + 0 * len(pile)) for hand, pile in",
    ),
    # ----- Deep Regrets -----
    Mutation(
        "money-cap",
        "deep_regrets",
        "money is capped at $10 (mutant: $11)",
        "seat.money = min(CARDS.money_cap, seat.money + amount)",
        "seat.money = min(CARDS.money_cap + 1, seat.money + amount)",
    ),
    Mutation(
        "money-score-rounding",
        "deep_regrets",
        "money scores money div 2 (mutant: rounded up)",
        "return hand + mounted + seat.money // CARDS.money_per_point",
        "return hand + mounted + (seat.money + 1) // CARDS.money_per_point",
    ),
    Mutation(
        "reward-discard-forced",
        "deep_regrets",
        "without a dink to draw, a rewarded seat may take nothing (mutant: must discard)",
        "if can_discard and not can_draw:",
        "if can_discard and not can_draw and False:",
    ),
    Mutation(
        "decline-dink-forced",
        "deep_regrets",
        "a seat that declines a fish may keep its dice and draw no dink (mutant: must spend one)",
        'decision("decline_die", p, [TAKE_NOTHING, *self._fresh_actions(p)])',
        'decision("decline_die", p, self._fresh_actions(p))',
    ),
    Mutation(
        "abandon-after-main-turns",
        "deep_regrets",
        "abandoning ship after the main action leaves four port turns (mutant: three)",
        "self._last_turns = 5 if main_taken else 4",
        "self._last_turns = 4 if main_taken else 4",
    ),
    Mutation(
        "regret-penalty-two-players",
        "deep_regrets",
        "with 2 players the highest Regret Value loses its lowest mounted fish (mutant: with 3)",
        "sign = 1 if self._n == 2 else -1",
        "sign = 1 if self._n == 3 else -1",
    ),
    Mutation(
        "madness-tier",
        "deep_regrets",
        "the madness tier is the last with min_regrets <= regrets (mutant: one regret later)",
        "return [tier for tier in CARDS.madness if tier.min_regrets <= count][-1]",
        "return [tier for tier in CARDS.madness if tier.min_regrets <= max(0, count - 1)][-1]",
    ),
    Mutation(
        "fish-value-floor",
        "deep_regrets",
        "a fish is worth at least 0 (mutant: at least 1)",
        "return max(0, fish.value + modifier)",
        "return max(1, fish.value + modifier)",
    ),
    Mutation(
        "shop-price-floor",
        "deep_regrets",
        "a discounted shop costs at least $0 (mutant: at least $1)",
        "return max(0, tier.price - self._madness(p).shop_discount - self._ctx.discount)",
        "return max(1, tier.price - self._madness(p).shop_discount - self._ctx.discount)",
    ),
    Mutation(
        "last-turns",
        "deep_regrets",
        "the last seat at sea gets 2 more turns (mutant: 3)",
        "self._last_turns = 2",
        "self._last_turns = 3",
    ),
    Mutation(
        "abandon-ship-turns",
        "deep_regrets",
        "abandoning ship before the main action sets the turns left to 4 (mutant: 3)",
        "self._last_turns = 5 if main_taken else 4",
        "self._last_turns = 5 if main_taken else 3",
    ),
    Mutation(
        "boats-rise",
        "deep_regrets",
        "boats at depth 2 or more rise one depth each day (mutant: 3 only)",
        "if seat.depth >= 2:",
        "if seat.depth >= 3:",
    ),
    Mutation(
        "life-preserver-tie",
        "deep_regrets",
        "tied Fresh totals: the first in turn order gives the Life Preserver (mutant: the last)",
        "key=lambda p: (sum(die_face(c) for c in self._seats[p].fresh), -self._order_rank(p)),",
        "key=lambda p: (sum(die_face(c) for c in self._seats[p].fresh), self._order_rank(p)),",
    ),
    Mutation(
        "muster-room",
        "deep_regrets",
        "rolled dice are kept up to the madness tier's max Fresh (mutant: one more)",
        "room = max(0, self._max_fresh(p) - len(seat.fresh))",
        "room = max(0, self._max_fresh(p) + 1 - len(seat.fresh))",
    ),
    Mutation(
        "day-6-tackle",
        "deep_regrets",
        "day 6 hands out a colour with at least n dice in the bag (mutant: more than n)",
        "colour = next((c for c in (2, 1, 0) if self._bag[c] >= self._n), None)",
        "colour = next((c for c in (2, 1, 0) if self._bag[c] > self._n), None)",
    ),
)
"""The curated catalog: at least one mutation per important rule of every game."""


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
