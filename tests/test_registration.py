"""Every registered game has all its parts: adding a game fails here, naming what it still lacks.

A game registered by the Rust engine (``cardtable.games()``) needs its scenario file
``tests/games/<id>.py`` with a ``GAME`` block (holding at least one rule broken on purpose in
``GAME.mutations`` and, for a game that hides anything, what a seat must not see in
``GAME.hidden_cards``), its golden playthrough(s) in ``tests/golden/``, a perft entry in
``tests/data/perft.json``, a bench ``benches/<id>.py`` with its ``CONFIG``, a contract
``docs/games/<id>.md`` in the documentation's nav, a reference module
``python/cardtable/reference/<id>.py`` registered in ``cardtable.reference.GAMES`` whose game
class defines every abstract member (its ``max_game_length`` among them, the OpenSpiel bound), a
drawing module ``python/cardtable/render/<id>.py`` (with its ``SCORE_TRACE``) and its observation
types ``python/cardtable/observations/<id>.py``, imported by the package, and its rows in the
games tables of the README and ``docs/games.md``.
"""

from __future__ import annotations

import importlib
import json
import sys
from pathlib import Path
from typing import Any, TypedDict

import pytest

import cardtable
from benches.common import search_decisions
from cardtable import observations, reference
from cardtable.observations import OBSERVATION_TYPES
from cardtable.reference._base import ReferenceState
from cardtable.render import drawing
from tests.game_info import GameTestInfo, Run, load, scenario_ids

_WRITE = "run `make golden ACCEPT=1`"

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
        lacks.append(f"golden playthrough tests/golden/{game_id}-<name>.txt ({_WRITE})")
    if info is not None:
        for name, _, _ in info.golden:
            path = ROOT / "tests" / "golden" / f"{game_id}-{name}.txt"
            if not path.exists():
                lacks.append(f"golden playthrough {path.relative_to(ROOT)} ({_WRITE})")
        if not info.golden:
            lacks.append(f"GAME.golden in tests/games/{game_id}.py is empty")
    perft = json.loads((ROOT / "tests" / "data" / "perft.json").read_text())
    if game_id not in perft:
        lacks.append(f"perft entry {game_id!r} in tests/data/perft.json ({_WRITE})")
    for path, what in (
        (ROOT / "benches" / f"{game_id}.py", "its CONFIG and define_benchmarks, as in goofspiel's"),
        (ROOT / "docs" / "games" / f"{game_id}.md", "the game's contract"),
        (ROOT / "python" / "cardtable" / "reference" / f"{game_id}.py", "the reference game"),
    ):
        if not path.exists():
            lacks.append(f"{path.relative_to(ROOT)} ({what})")
    bench = ROOT / "benches" / f"{game_id}.py"
    if bench.exists() and not isinstance(
        getattr(importlib.import_module(f"benches.{game_id}"), "CONFIG", None), dict
    ):
        lacks.append(
            f"CONFIG (the players and options it is measured with) in benches/{game_id}.py"
        )
    if bench.exists():
        try:
            search_decisions(game_id)
        except TypeError as err:
            lacks.append(str(err))
    undefined: list[str] = []
    if game_id not in reference.GAMES:
        lacks.append(f"a reference game class with @register({game_id!r}, players=...)")
    else:
        undefined = sorted(getattr(reference.GAMES[game_id], "__abstractmethods__", ()))
        if undefined:
            lacks.append(f"in its reference game class: {', '.join(undefined)}")
    if game_id in reference.GAMES and game_id in REGISTERED and not undefined:
        fewest = cardtable.game_info(game_id).min_players
        state = cardtable.make(game_id, players=fewest, backend="reference").new_state()
        if (
            getattr(state, "score_wins", None) is None
            and type(state)._winners is ReferenceState._winners  # type: ignore[attr-defined]
        ):
            lacks.append(
                f"a winning rule in its reference state class: score_wins = 'highest' or "
                f"'lowest', or its own _winners ({game_id} would raise NotImplementedError at "
                "the end of a game)"
            )
    if game_id in REGISTERED and len(cardtable.game_info(game_id).bots) < 2:
        lacks.append(
            "a built-in bot of its own besides random (crate::game::builtin_bots! in "
            f"rust/engine/src/games/{game_id}/mod.rs; the studies seat it as the heuristic bot)"
        )
    render = ROOT / "python" / "cardtable" / "render" / f"{game_id}.py"
    if not render.exists():
        lacks.append(f"a drawing module {render.relative_to(ROOT)} (view, draw, terminal, ...)")
    elif not isinstance(getattr(drawing(game_id), "SCORE_TRACE", None), str):
        lacks.append(
            f"SCORE_TRACE in {render.relative_to(ROOT)}: one sentence saying what the score "
            "trace is (the contract's 'Score trace'; score_trace(state) too where it is not "
            "the running scores)"
        )
    if game_id not in OBSERVATION_TYPES:
        lacks.append(
            f"its observation types python/cardtable/observations/{game_id}.py "
            "(the TypedDict of state.observation(p) named OBSERVATION)"
        )
    else:
        kind = OBSERVATION_TYPES[game_id]
        module = sys.modules.get(kind.__module__)  # the module that defines it
        if kind.__name__ not in getattr(module, "__all__", ()):
            lacks.append(
                f"__all__ in python/cardtable/observations/{game_id}.py, listing its public types "
                f"({kind.__name__} among them)"
            )
        if getattr(observations, kind.__name__, None) is not kind:
            lacks.append(
                f"the line `from cardtable.observations.{game_id} import *` in "
                "python/cardtable/observations/__init__.py (and its names in the module's __all__)"
            )
        elif not set(getattr(module, "__all__", ())) <= set(observations.__all__):
            lacks.append(
                f"the lines `from cardtable.observations import {game_id} as _{game_id}` and "
                f"`__all__ += _{game_id}.__all__` in python/cardtable/observations/__init__.py "
                "(`from cardtable.observations import *` leaves its types out)"
            )
    scenario = f"tests/games/{game_id}.py"
    if info is None or not info.mutations:
        lacks.append(f"a rule broken on purpose in GAME.mutations ({scenario})")
    if info is None or (info.hidden_information and info.hidden_cards is None):
        lacks.append(
            f"what a seat must not see in GAME.hidden_cards ({scenario}), "
            "or hidden_information=False there for a game that hides nothing"
        )
    if f"games/{game_id}.md" not in (ROOT / "mkdocs.yml").read_text(encoding="utf-8"):
        lacks.append(f"a page games/{game_id}.md in the nav of mkdocs.yml")
    for table in ("README.md", "docs/games.md"):
        rows = (ROOT / table).read_text(encoding="utf-8").splitlines()
        if not any(row.startswith(f"| `{game_id}` |") for row in rows):
            lacks.append(f"a row | `{game_id}` | ... in the games table of {table}")
    return lacks


@pytest.mark.parametrize("game_id", REGISTERED)
def test_registered_game_has_all_its_parts(game_id: str) -> None:
    lacks = missing_parts(game_id)
    assert not lacks, f"{game_id} is registered but lacks:\n  " + "\n  ".join(lacks)


def test_every_scenario_file_and_reference_is_a_registered_game() -> None:
    # (A registered game without them is named by the test above.)
    extra = sorted(set(scenario_ids()) - set(REGISTERED))
    assert not extra, f"scenario files tests/games/<id>.py of games the engine lacks: {extra}"
    extra = sorted(set(reference.GAMES) - set(REGISTERED))
    assert not extra, f"reference games the engine does not register: {extra}"


def test_missing_parts_are_named() -> None:
    lacks = missing_parts("no_such_game")
    assert "scenario file tests/games/no_such_game.py" in lacks
    assert "benches/no_such_game.py (its CONFIG and define_benchmarks, as in goofspiel's)" in lacks
    assert "docs/games/no_such_game.md (the game's contract)" in lacks
    assert "a page games/no_such_game.md in the nav of mkdocs.yml" in lacks
    assert "a row | `no_such_game` | ... in the games table of docs/games.md" in lacks
    assert any(line.startswith("a drawing module python/cardtable/render/") for line in lacks)
    assert any(
        line.startswith("its observation types python/cardtable/observations/") for line in lacks
    )
    assert "a rule broken on purpose in GAME.mutations (tests/games/no_such_game.py)" in lacks
    assert any(line.startswith("what a seat must not see in GAME.hidden_cards") for line in lacks)


def test_missing_members_of_a_reference_game_are_named(monkeypatch: pytest.MonkeyPatch) -> None:
    class Unfinished(reference.ReferenceGame[Any]):
        game_id = "unfinished"

    monkeypatch.setitem(reference.GAMES, "unfinished", Unfinished)
    [line] = [x for x in missing_parts("unfinished") if x.startswith("in its reference game")]
    assert "max_game_length" in line and "num_actions" in line


def test_a_game_block_without_test_runs_takes_the_defaults() -> None:
    """``replay_run`` and ``saved_run`` default to the small game: the heuristic bot against
    random ones in turn, and the default bots."""
    info = GameTestInfo(configs=[{"players": 3, "num_cards": 4}], golden=[], perft=({}, 0, 0, 0))
    assert info.replay_case("turn_the_tide") == Run(
        3, ["greedy", "random", "greedy"], {"num_cards": 4}
    )
    assert info.saved_case() == Run(3, None, {"num_cards": 4})
    assert info.replay_case("trafficars_memory").bots == ["memory", "random", "memory"]


def test_observation_types_not_imported_by_the_package_are_named(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    class UnexportedObservation(TypedDict):
        seat: int

    monkeypatch.setitem(OBSERVATION_TYPES, "unexported", UnexportedObservation)
    lacks = missing_parts("unexported")
    assert any(
        line.startswith("the line `from cardtable.observations.unexported import *`")
        for line in lacks
    )
    # Its module (this one) has no __all__ naming it.
    assert any(line.startswith("__all__ in python/cardtable/observations/") for line in lacks)


def test_a_reference_state_without_a_winning_rule_is_named(monkeypatch: pytest.MonkeyPatch) -> None:
    """It failed only at the end of a game, with ``NotImplementedError``."""
    from cardtable.reference.goofspiel import GoofspielState

    monkeypatch.setattr(GoofspielState, "score_wins", None)
    assert any(
        line.startswith("a winning rule in its reference") for line in missing_parts("goofspiel")
    )


def test_observation_types_left_out_of_the_package_all_are_named(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """With the ``import *`` line alone, ``from cardtable.observations import *`` left the
    game's types out, and nothing said so."""
    from cardtable.observations import goofspiel

    kept = [name for name in observations.__all__ if name not in goofspiel.__all__]
    monkeypatch.setattr(observations, "__all__", kept)
    assert any("`__all__ += _goofspiel.__all__`" in line for line in missing_parts("goofspiel"))
