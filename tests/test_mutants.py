"""The mutation catalog of ``python -m tests.mutants`` stays applicable as the reference changes.

The catalog is gathered from every game's ``GAME.mutations`` (``tests/games/<game_id>.py``).
"""

from __future__ import annotations

import difflib
from pathlib import Path

from tests.configs import CONFIGS
from tests.game_info import all_games
from tests.mutants import MUTATIONS, ROOT, catalog_problems, locate, make_tree


def test_every_snippet_occurs_exactly_once_in_the_reference() -> None:
    assert catalog_problems() == []


def test_the_catalog_covers_every_game() -> None:
    assert len(MUTATIONS) >= 20
    assert {m.game for m in MUTATIONS} == set(CONFIGS)


def test_each_mutation_runs_the_tests_of_the_game_that_declares_it() -> None:
    for game_id, info in all_games().items():
        declared = {m.name for m in info.mutations}
        assert declared and {m.game for m in MUTATIONS if m.name in declared} == {game_id}


def test_a_mutant_tree_differs_from_the_working_tree_in_one_line(tmp_path: Path) -> None:
    mutation = next(m for m in MUTATIONS if m.name == "money-cap")
    make_tree(ROOT, tmp_path, mutation)
    (original,) = locate(mutation, ROOT)
    mutated = tmp_path / original.relative_to(ROOT)
    before = original.read_text(encoding="utf-8").splitlines()
    after = mutated.read_text(encoding="utf-8").splitlines()
    changed = [
        line
        for line in difflib.unified_diff(before, after, lineterm="", n=0)
        if line[:1] in "+-" and not line.startswith(("+++", "---"))
    ]
    assert len(changed) == 2 and "money_cap + 1" in changed[1]
    assert locate(mutation, ROOT) == [original]
