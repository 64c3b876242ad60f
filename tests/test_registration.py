"""Every registered game has all its parts: adding a game fails here, naming what it still lacks.

A game registered by the Rust engine (``cardtable.games()``) needs its scenario file
``tests/games/<id>.py`` with a ``GAME`` block, its golden playthrough(s) in ``tests/golden/``, a
perft entry in ``tests/data/perft.json``, a bench ``benches/<id>.py``, a contract
``docs/games/<id>.md``, a reference module ``python/cardtable/reference/<id>.py`` registered in
``cardtable.reference.GAMES`` and an OpenSpiel length bound.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

import cardtable
from cardtable import reference
from tests.game_info import GameTestInfo, load, scenario_ids

ROOT = Path(__file__).resolve().parents[1]
REGISTERED = sorted(g.id for g in cardtable.games())


def missing_parts(game_id: str) -> list[str]:
    """What ``game_id`` lacks, one line each (empty when complete)."""
    lacks: list[str] = []
    info: GameTestInfo | None = None
    if game_id not in scenario_ids():
        lacks.append(f"scenario file tests/games/{game_id}.py")
    else:
        try:
            info = load(game_id)
        except TypeError as err:
            lacks.append(str(err))
    golden = sorted((ROOT / "tests" / "golden").glob(f"{game_id}-*.txt"))
    if not golden:
        lacks.append(f"golden playthrough tests/golden/{game_id}-<name>.txt (run `make golden`)")
    if info is not None:
        for name, _, _ in info.golden:
            path = ROOT / "tests" / "golden" / f"{game_id}-{name}.txt"
            if not path.exists():
                lacks.append(f"golden playthrough {path.relative_to(ROOT)} (run `make golden`)")
        if not info.golden:
            lacks.append(f"GAME.golden in tests/games/{game_id}.py is empty")
    perft = json.loads((ROOT / "tests" / "data" / "perft.json").read_text())
    if game_id not in perft:
        lacks.append(f"perft entry {game_id!r} in tests/data/perft.json (run `make golden`)")
    for path in (
        ROOT / "benches" / f"{game_id}.py",
        ROOT / "docs" / "games" / f"{game_id}.md",
        ROOT / "python" / "cardtable" / "reference" / f"{game_id}.py",
    ):
        if not path.exists():
            lacks.append(str(path.relative_to(ROOT)))
    if game_id not in reference.GAMES:
        lacks.append(f"a reference game class with @register({game_id!r}, players=...)")
    return lacks


@pytest.mark.parametrize("game_id", REGISTERED)
def test_registered_game_has_all_its_parts(game_id: str) -> None:
    lacks = missing_parts(game_id)
    assert not lacks, f"{game_id} is registered but lacks:\n  " + "\n  ".join(lacks)


def test_every_scenario_file_and_reference_is_a_registered_game() -> None:
    assert set(scenario_ids()) == set(REGISTERED), "scenario files without a registered game"
    assert set(reference.GAMES) == set(REGISTERED), "reference games the engine does not register"


def test_missing_parts_are_named() -> None:
    lacks = missing_parts("no_such_game")
    assert "scenario file tests/games/no_such_game.py" in lacks
    assert "benches/no_such_game.py" in lacks
    assert "docs/games/no_such_game.md" in lacks


def test_every_registered_game_has_an_openspiel_length_bound() -> None:
    pytest.importorskip("pyspiel")
    from cardtable.adapters.openspiel import MAX_GAME_LENGTH

    assert sorted(MAX_GAME_LENGTH) == REGISTERED
