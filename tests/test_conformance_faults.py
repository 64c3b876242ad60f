"""The conformance harness against the faults a fuzz round found, each fixed and held here.

Every test drives a small Python implementation (``FAULTY``, written to a temporary directory) that
plays goofspiel by our reference backend, except for the one fault its mode asks for.
"""

from __future__ import annotations

import contextlib
import json
import os
import re
import shlex
import signal
import sys
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from click.testing import CliRunner

from cardtable.cli import main
from cardtable.conformance.harness import ConformanceError, Implementation, ProtocolError
from cardtable.conformance.mapping import IdentityMap, MapLoadError, Node, load_map
from cardtable.conformance.protocol import MAX_DEPTH
from cardtable.conformance.report import format_outcome
from cardtable.conformance.reproducer import load_reproducer, write_reproducer
from cardtable.conformance.runner import (
    Difference,
    Divergence,
    Outcome,
    Target,
    _smaller_game,
    check,
    replay_history,
)
from cardtable.errors import InvalidOptionError
from tests.command_line import run_cli

FAULTY = r"""
import json, os, subprocess, sys, time
import cardtable
mode, pid_file = sys.argv[1], sys.argv[2]
first_process = not os.path.exists(pid_file)  # the first process started with this pid file
with open(pid_file + ".starts", "a") as f:  # one line per process started
    f.write("x")
with open(pid_file + ".starts") as f:
    odd_process = len(f.read()) % 2 == 1  # the 1st, 3rd, ... process started
with open(pid_file, "w") as f:
    f.write(str(os.getpid()))
games = steps = 0
state = None
def say(answer, end="\n"):
    sys.stdout.write((answer if isinstance(answer, str) else json.dumps(answer)) + end)
    sys.stdout.flush()
for line in sys.stdin:
    request = json.loads(line)
    kind, rid = request["type"], request["id"]
    if kind == "hello":
        if mode == "blank_line":  # a blank line before the answer
            say("")
        say({"id": rid, "type": "hello", "protocol": 2 if mode == "protocol_2" else 1,
             "name": "faulty",
             "games": {"goofspiel": {"fields": ["current_player", "is_terminal",
                                                "legal_actions"]}}})
    elif kind == "new_game":
        games += 1
        steps = 0
        if games == 2 and mode == "refuse_second":  # the first game left it broken
            say({"id": rid, "type": "error", "message": "a game is already running"})
            continue
        if games == 2 and mode == "crash_second":
            sys.stderr.write("deck already dealt\n")
            sys.exit(3)
        if games == 2 and mode == "hang_second":
            time.sleep(600)
        if mode == "no_newline":  # print(..., end="")
            say({"id": rid, "type": "ok"}, end="")
            continue
        if mode == "exit_held":  # exits, leaving a process that holds its standard output
            sleeper = subprocess.Popen(["sleep", "30"])
            with open(pid_file + ".sleeper", "w") as f:
                f.write(str(sleeper.pid))
            sys.exit(0)
        game = cardtable.make("goofspiel", players=2, backend="reference", **request["options"])
        state = game.new_state()
        say({"id": rid, "type": "ok"})
    elif kind == "apply":
        if mode == "refuse_seat1" and request["player"] == 1 and request["action"] == 0:
            say({"id": rid, "type": "error", "message": "bid 1 is not allowed"})
            continue
        state.apply(request["action"])
        steps += 1
        say({"id": rid, "type": "ok"})
    elif kind == "query":
        answer = {"id": rid, "type": "state", "current_player": state.current_player,
                  "is_terminal": state.is_terminal, "legal_actions": state.legal_actions()}
        if mode == "float_id":
            answer["id"] = float(rid)
        if mode == "long_int":  # an action id of 5,000 digits (JSON has no limit)
            field = '"legal_actions": ['
            answer = json.dumps(answer).replace(field, field + "9" * 5000 + ", ", 1)
        if mode == "long_id":
            answer = json.dumps(answer).replace('"id": %d' % rid, '"id": ' + "7" * 5000, 1)
        if mode == "float_wrong_id":  # the id of the next request, as a float
            answer["id"] = float(rid + 1)
        # State left over from the first game: a wrong answer in every later game, at once or
        # after three steps ("leak_later"); in the first process only ("leak_first_process").
        leaks = mode in ("leak_second", "leak_later") or (
            mode == "leak_first_process" and first_process
        )
        if mode == "leak_later" and steps < 3:
            leaks = False
        if leaks and games >= 2 and not state.is_terminal:
            answer["legal_actions"] = answer["legal_actions"][1:]
        if mode == "every_other_process" and odd_process and games >= 2 and steps >= 2:
            answer["legal_actions"] = answer["legal_actions"][1:]  # as if at random
        if mode == "rare" and [12, 13] in state.bids:  # seat 0 bid 12, seat 1 bid 13
            answer["is_terminal"] = not state.is_terminal
        if mode.startswith("deep="):  # legal actions nested N levels deep
            depth = int(mode[5:])
            text = json.dumps(answer)
            answer = text.replace('"legal_actions": [', '"legal_actions": ' + "[" * depth, 1)
            answer = answer[:-1] + "]" * (depth - 1) + "}"
        say(answer)
    else:
        say({"id": rid, "type": "ok"})
"""

SMALL = {"num_cards": 3}
"""Goofspiel with three cards: six steps a game."""


@pytest.fixture
def faulty(tmp_path: Path) -> Iterator[Callable[[str], tuple[str, Path]]]:
    """``faulty(mode)``: the command of the implementation with that fault, and its pid file."""
    script = tmp_path / "faulty.py"
    script.write_text(FAULTY, encoding="utf-8")
    pid_files: list[Path] = []

    def command(mode: str) -> tuple[str, Path]:
        pid_file = tmp_path / f"pid-{mode}-{len(pid_files)}"
        pid_files.append(pid_file)
        return shlex.join([sys.executable, str(script), mode, str(pid_file)]), pid_file

    yield command
    for pid_file in pid_files:  # a sleeper left behind, if a test failed before stopping it
        sleeper = pid_file.with_name(pid_file.name + ".sleeper")
        if sleeper.exists():
            with contextlib.suppress(ProcessLookupError, ValueError):
                os.kill(int(sleeper.read_text()), signal.SIGKILL)


def _replay_cli(path: Path, *args: str, exit_code: int = 1) -> str:
    return run_cli("conformance", "--replay", str(path), *args, exit_code=exit_code)


# --- D1: a failure at the new_game of a later game ---------------------------------------------


@pytest.mark.parametrize(
    ("mode", "kind", "words"),
    [
        ("refuse_second", "refused", "it refuses this game: a game is already running"),
        ("crash_second", "crash", "no answer: it exited with status 3"),
        ("hang_second", "timeout", "no answer within 0.3 s"),
    ],
)
def test_a_failure_at_a_later_new_game_is_reported_and_replayed(
    faulty: Any, tmp_path: Path, mode: str, kind: str, words: str
) -> None:
    """It was reported as ``flaky`` with an empty history, whose replay found nothing.

    Hypothesis raised ``FlakyStrategyDefinition``: the second game stopped (at ``new_game``) on
    choices it had seen drawn further in the first. The real failure is reported now, with the
    game played before it, which ``--replay`` plays first in the same process.
    """
    command, _ = faulty(mode)
    # A short timeout only where the test waits for one: under a loaded machine an answer that
    # comes (a refusal) could take longer than 0.3 s, and was reported as a timeout.
    timeout = 0.3 if kind == "timeout" else 30.0
    outcome = check(
        "goofspiel", command, players=2, options=SMALL, examples=5, seed=0, timeout=timeout
    )
    assert outcome.error is not None, format_outcome(outcome)
    assert outcome.error.kind == kind and words in outcome.error.describe()
    assert outcome.history == [] and len(outcome.earlier_games) == 1
    assert len(outcome.earlier_games[0]) == 6  # the whole first game
    assert "the same process had played 1 game before this one" in format_outcome(outcome)
    path = write_reproducer(outcome, tmp_path)
    assert load_reproducer(path).earlier_games == outcome.earlier_games
    replayed = _replay_cli(path, "--timeout", str(timeout))
    assert f"protocol error ({kind})" in replayed and words in replayed
    if kind == "timeout":
        return  # the API replays the same way; once is enough for a test that waits
    again = replay_history(outcome.target, [], earlier_games=outcome.earlier_games, timeout=timeout)
    assert again.error is not None and again.error.kind == kind
    assert again.examples == 2 and again.earlier_games == outcome.earlier_games


def test_bad_earlier_games_are_refused(faulty: Any, tmp_path: Path) -> None:
    command, _ = faulty("ok")
    target = Target("goofspiel", 2, SMALL, command)
    for earlier in ([[0, True]], "0", [7], [[0, 0, 0, 0, 0, 0, 0]]):
        error = InvalidOptionError if earlier != [[0, 0, 0, 0, 0, 0, 0]] else ConformanceError
        with pytest.raises(error, match=r"histor|earlier game 0 is not a game of ours"):
            replay_history(target, [0], earlier_games=earlier)  # type: ignore[arg-type]
    outcome = check("goofspiel", command, players=2, options=SMALL, examples=1, seed=0)
    assert outcome.ok
    outcome.error = ProtocolError("crash", "no answer")
    path = write_reproducer(outcome, tmp_path)
    data = json.loads(path.read_text(encoding="utf-8"))
    data["earlier_games"] = [[0, 0.0]]
    path.write_text(json.dumps(data), encoding="utf-8")
    output = _replay_cli(path, exit_code=2)  # a bad argument, not a finding
    assert "is not a valid reproducer: 'earlier_games'[0] must hold integer action ids" in output


@pytest.mark.parametrize(("mode", "steps"), [("leak_second", 0), ("leak_later", 3)])
def test_a_divergence_that_needs_earlier_games_is_reported_and_replayed(
    faulty: Any, tmp_path: Path, mode: str, steps: int
) -> None:
    """It was reported as ``flaky`` with an empty history, whose replay found nothing.

    The implementation answers wrongly in every game after its first (state left over from it):
    the divergence is found only after the games the same process played before it. It is
    reported as a divergence with those games, which ``--replay`` plays first; replayed alone in a
    new process, the history does not diverge.
    """
    command, _ = faulty(mode)
    outcome = check("goofspiel", command, players=2, options=SMALL, examples=10, seed=0)
    divergence = outcome.divergence
    assert divergence is not None, format_outcome(outcome)
    assert len(divergence.history) == steps
    assert str(divergence.differences[0]).startswith("legal_actions: cardtable [")
    assert outcome.earlier_games and all(len(game) == 6 for game in outcome.earlier_games)
    report = format_outcome(outcome)
    count = len(outcome.earlier_games)
    games = "1 game" if count == 1 else f"{count} games"
    assert f"the same process had played {games} before this one" in report
    path = write_reproducer(outcome, tmp_path)
    assert load_reproducer(path).earlier_games == outcome.earlier_games
    replayed = _replay_cli(path)  # exit status 1: found again
    assert f"DIVERGENCE after {steps} steps" in replayed
    assert f"the same process had played {games} before this one" in replayed
    again = replay_history(outcome.target, divergence.history, earlier_games=outcome.earlier_games)
    assert again.divergence is not None and again.divergence.history == divergence.history
    assert replay_history(outcome.target, divergence.history).ok  # not without them
    data = json.loads(path.read_text(encoding="utf-8"))
    data["earlier_games"] = []
    path.write_text(json.dumps(data), encoding="utf-8")
    assert "OK: no divergence found" in _replay_cli(path, exit_code=0)


def test_a_divergence_that_needs_no_earlier_game_has_none(faulty: Any) -> None:
    """A divergence found in a later game of its process, but shown by its game alone."""
    command, _ = faulty("refuse_seat1")
    outcome = check("goofspiel", command, players=2, options=SMALL, examples=10, seed=0)
    assert outcome.divergence is not None and outcome.earlier_games == []
    assert "before this one" not in format_outcome(outcome)


def test_a_divergence_not_found_again_in_a_new_process_is_flaky(
    faulty: Any, tmp_path: Path
) -> None:
    """Only the first process leaks state into its later games; no new process diverges.

    The report says what was found, and that replaying it in a new process (alone, and after the
    games played before it) did not find it again; the reproducer holds both.
    """
    command, _ = faulty("leak_first_process")
    outcome = check("goofspiel", command, players=2, options=SMALL, examples=10, seed=0)
    assert outcome.error is not None and outcome.error.kind == "flaky", format_outcome(outcome)
    assert outcome.divergence is None and outcome.history == []
    assert len(outcome.earlier_games) == 1 and len(outcome.earlier_games[0]) == 6
    assert outcome.error.detail == (
        "the divergence found after 0 steps, legal_actions: cardtable [0, 1, 2], implementation "
        "[1, 2] (only in cardtable: [0]), was not found again when its game was replayed in a new "
        "process, alone or after the 1 game its process had played before it: the implementation "
        "is not deterministic"
    )
    path = write_reproducer(outcome, tmp_path)
    assert load_reproducer(path).earlier_games == outcome.earlier_games
    assert "OK: no divergence found" in _replay_cli(path, exit_code=0)


def test_a_divergence_shown_by_every_other_process_is_flaky(faulty: Any) -> None:
    """An implementation that diverges now and then (here: in every other process it starts)
    was reported as a divergence that needs the games played before it, as soon as one replay
    happened to show it again; its reproducer then failed as often as not. A replay must show it
    twice in a row."""
    command, _ = faulty("every_other_process")
    outcome = check("goofspiel", command, players=2, options=SMALL, examples=20, seed=0)
    assert outcome.divergence is None and outcome.error is not None, format_outcome(outcome)
    assert outcome.error.kind == "flaky", format_outcome(outcome)
    assert "only once when its game was replayed twice" in outcome.error.detail


@pytest.mark.parametrize(
    ("change", "words"),
    [
        ({"history": [999]}, "the history is not a game of ours: step 0 plays 999"),
        ({"history": [0, 0, 0, 1, 1, 1, 0]}, "the game ends after 6 steps, the history has 7"),
        ({"earlier_games": [[0, 5]]}, "earlier game 0 is not a game of ours: step 1 plays 5"),
        (
            {"earlier_games": [[0, 0, 0, 1, 1, 1], [0, 0, 0, 1, 1, 1, 0]]},
            "earlier game 1 is not a game of ours: the game ends after 6 steps",
        ),
        ({"options": {"num_cards": 99}}, "num_cards"),
    ],
)
def test_replay_of_games_that_are_not_ours_is_a_bad_argument(
    faulty: Any, tmp_path: Path, change: dict[str, Any], words: str
) -> None:
    """``--replay`` started the implementation, then exited with status 1 (a finding).

    A reproducer whose history or earlier games our backend cannot play (or whose options it
    refuses) is a bad argument, told before anything starts; ``replay_history`` refuses it
    before it starts too.
    """
    command, pid_file = faulty("ok")
    target = Target("goofspiel", 2, SMALL, command)
    outcome = Outcome(target, error=ProtocolError("crash", "no answer"), history=[0])
    path = write_reproducer(outcome, tmp_path)
    data = json.loads(path.read_text(encoding="utf-8")) | change
    path.write_text(json.dumps(data), encoding="utf-8")
    output = _replay_cli(path, exit_code=2)
    assert "Invalid value for --replay" in output and words in output, output
    assert "protocol error" not in output and "OK" not in output
    found = load_reproducer(path)
    error = InvalidOptionError if "options" in change else ConformanceError
    with pytest.raises(error, match=re.escape(words)):
        replay_history(found.target, found.history, earlier_games=found.earlier_games)
    assert not pid_file.exists()  # never started


# --- D2: a refused apply -----------------------------------------------------------------------


def test_a_refused_move_is_in_the_reproducer_and_replays(faulty: Any, tmp_path: Path) -> None:
    """The reproducer left the refused move out, so that its replay found nothing.

    The report did not say whose move it was, and pointed at an unrelated rule section (the
    observation of goofspiel) for it.
    """
    command, _ = faulty("refuse_seat1")
    outcome = check("goofspiel", command, players=2, options=SMALL, examples=10, seed=0)
    divergence = outcome.divergence
    assert divergence is not None, format_outcome(outcome)
    assert divergence.history == [0, 0, 0] and divergence.refused == "seat 1's move"
    assert divergence.labels[-1] == "seat 1: bid 1"
    assert divergence.sections == [
        "Goofspiel contract § Flow and ids (bids: the player's remaining cards)"
    ]
    report = format_outcome(outcome)
    heading = "DIVERGENCE after 3 steps (the implementation refused the last one, seat 1's move)"
    assert heading in report
    assert (
        "apply: step 2 (seat 1: bid 1, id 0) is legal for cardtable; the implementation refuses "
        "it: bid 1 is not allowed"
    ) in report
    again = replay_history(outcome.target, divergence.history)
    assert again.divergence is not None and again.divergence.refused == "seat 1's move"
    path = write_reproducer(outcome, tmp_path)
    assert "refused the last one, seat 1's move" in _replay_cli(path)


# --- D3: ids that are not integers ---------------------------------------------------------------


@pytest.mark.parametrize(("mode", "shown"), [("float_wrong_id", "4.0"), ("float_id", "3.0")])
def test_an_id_that_is_a_float_is_refused(faulty: Any, mode: str, shown: str) -> None:
    """``4.0`` answering request 3 was taken for its answer: ids were compared only as ints."""
    command, _ = faulty(mode)
    outcome = check("goofspiel", command, players=2, options=SMALL, examples=2, seed=0)
    assert outcome.error is not None and outcome.error.kind == "schema", format_outcome(outcome)
    assert outcome.error.detail == f"['id']: the id must be an integer, not {shown}"


@pytest.mark.parametrize(
    ("mode", "words"),
    [
        ("long_int", "legal_actions = [<an int of 5000 digits>, 0, 1, 2]"),
        ("long_id", "the answer is for request <an int of 5000 digits>, not"),
    ],
)
def test_an_int_too_long_to_write_is_reported_by_its_size(
    faulty: Any, tmp_path: Path, mode: str, words: str
) -> None:
    """An answer holding an int of 5,000 digits was read exactly, then the report that named it
    failed with Python's "Exceeds the limit (4300 digits)" traceback, and so did the
    reproducer."""
    command, _ = faulty(mode)
    outcome = check("goofspiel", command, players=2, options=SMALL, examples=2, seed=0)
    report = format_outcome(outcome)
    assert not outcome.ok and words in report, report
    path = write_reproducer(outcome, tmp_path)
    assert load_reproducer(path).target.game_id == "goofspiel"


# --- D4 and D6: what a map's hooks return or raise ---------------------------------------------


class _Returns:
    """Translates by the identity, ``from_impl`` giving ``convert(move)``."""

    def __init__(self, convert: Callable[[Any], Any]) -> None:
        self.convert = convert

    def to_impl(self, action: int, node: Node) -> Any:
        return action

    def from_impl(self, move: Any, node: Node) -> Any:
        return self.convert(move)


def _nested(depth: int) -> list[Any]:
    value: list[Any] = []
    for _ in range(depth):
        value = [value]
    return value


def _itself(move: Any) -> list[Any]:
    value: list[Any] = []
    value.append(value)
    return value


def _exits(move: Any) -> Any:
    raise SystemExit(3)


def test_numpy_ids_from_a_map_are_ids(faulty: Any) -> None:
    """NumPy integers were sorted as text: ``10`` before ``2``, a false divergence."""
    command, _ = faulty("ok")
    outcome = check(
        "goofspiel", command, players=2, examples=3, seed=0, action_map=_Returns(np.int64)
    )
    assert outcome.ok, format_outcome(outcome)


@pytest.mark.parametrize(
    ("convert", "shown"),
    [
        (float, "returned 0.0, not an action id (an integer)"),
        (str, 'returned "0", not an action id (an integer)'),
        (lambda move: True, "returned true, not an action id (an integer)"),
        (_itself, "returned [[...]], not an action id (an integer)"),
        (lambda move: _nested(5000), "returned <a list nested too deeply to show>, not an action"),
        (_exits, "raised SystemExit: 3"),
    ],
    ids=["float", "str", "bool", "itself", "deep", "exit"],
)
def test_a_map_returning_what_is_no_id_is_a_map_error(
    faulty: Any, convert: Callable[[Any], Any], shown: str
) -> None:
    """Such values gave a false divergence, a RecursionError, or (SystemExit) ended the program."""
    command, _ = faulty("ok")
    outcome = check(
        "goofspiel", command, players=2, examples=3, seed=0, action_map=_Returns(convert)
    )
    assert outcome.error is not None and outcome.error.kind == "map", format_outcome(outcome)
    assert outcome.error.detail == f"the map's from_impl(0) after 0 steps (chance) {shown}" or (
        outcome.error.detail.startswith("the map's from_impl(0) after 0 steps (chance) ")
        and shown in outcome.error.detail
    )
    assert "protocol error (map)" in format_outcome(outcome)


class _ExitsInToImpl(_Returns):
    def to_impl(self, action: int, node: Node) -> Any:
        raise SystemExit(5)


def test_a_map_exiting_in_to_impl_is_a_map_error(faulty: Any) -> None:
    command, _ = faulty("ok")
    outcome = check("goofspiel", command, players=2, examples=1, action_map=_ExitsInToImpl(int))
    assert outcome.error is not None and outcome.error.kind == "map"
    assert outcome.error.detail == "the map's to_impl(0) at step 0 (chance) raised SystemExit: 5"


def test_a_map_exiting_while_loaded_cannot_be_loaded(faulty: Any, tmp_path: Path) -> None:
    """``sys.exit()`` in a map's module or factory ended the command with its own status."""
    (tmp_path / "exits.py").write_text("import sys\nsys.exit(4)\n", encoding="utf-8")
    factory = "import sys\ndef make():\n    sys.exit(0)\n"
    (tmp_path / "factory.py").write_text(factory, encoding="utf-8")
    with pytest.raises(MapLoadError, match=r"cannot load the map .*SystemExit\(4\)"):
        load_map(f"{tmp_path / 'exits.py'}:X")
    with pytest.raises(MapLoadError, match=r"calling .* failed: SystemExit\(0\)"):
        load_map(f"{tmp_path / 'factory.py'}:make")
    command, pid_file = faulty("ok")
    for spec in (f"{tmp_path / 'exits.py'}:X", f"{tmp_path / 'factory.py'}:make", ""):
        args = ["conformance", "goofspiel", "-p", "2", "--cmd", command, "--map", spec]
        output = run_cli(*args, exit_code=2)
        assert "Invalid value for --map" in output
    assert not pid_file.exists()


# --- D5: answers nested deeply -----------------------------------------------------------------


@pytest.mark.parametrize("depth", [MAX_DEPTH - 3, 990, 1500, 1900])
def test_deeply_nested_answers_are_bad_json(faulty: Any, tmp_path: Path, depth: int) -> None:
    """Valid JSON nested about 1000 levels deep crashed the command with a RecursionError."""
    command, _ = faulty(f"deep={depth}")
    args = ["conformance", "goofspiel", "-p", "2", "--cmd", command, "--out-dir", str(tmp_path)]
    result = CliRunner().invoke(main, [*args, "-n", "2", "--seed", "0"])
    assert isinstance(result.exception, SystemExit), repr(result.exception)
    assert result.exit_code == 1
    if depth <= MAX_DEPTH - 2:  # the answer, legal_actions and its nesting: within the limit
        assert "protocol error (schema)" in result.output, result.output
    else:
        expected = f"more than {MAX_DEPTH} levels deep"
        assert "protocol error (bad_json)" in result.output and expected in result.output
    (reproducer,) = tmp_path.glob("conformance-goofspiel-*.json")
    assert json.loads(reproducer.read_text(encoding="utf-8"))["history"] == []


def test_the_depth_limit_is_documented() -> None:
    doc = (Path(__file__).resolve().parent.parent / "docs" / "conformance.md").read_text("utf-8")
    assert f"at most {MAX_DEPTH} levels" in doc and f"more than {MAX_DEPTH} levels" in doc


def test_a_reproducer_that_cannot_be_written_as_json_is_an_error(tmp_path: Path) -> None:
    """A value nested too deeply for JSON raised RecursionError out of ``write_reproducer``."""
    outcome = Outcome(Target("goofspiel", 2, SMALL, "true"))
    outcome.divergence = Divergence(
        [0], [Difference(("legal_actions",), [0], [1])], {}, {"legal_actions": _nested(100_000)}
    )
    with pytest.raises(ConformanceError, match="cannot write the reproducer"):
        write_reproducer(outcome, tmp_path)
    assert not list(tmp_path.iterdir())


# --- D7 and D8: an answer without its newline, a child gone with its output held ---------------


def test_an_answer_without_its_newline_is_shown(faulty: Any) -> None:
    """The timeout said ``received: (nothing)`` although the answer had come, but no newline."""
    command, _ = faulty("no_newline")
    with Implementation(command, timeout=0.5) as impl:
        impl.hello()
        with pytest.raises(ProtocolError) as info:
            impl.request("new_game", game="goofspiel", players=2, options={})
    error = info.value
    assert error.kind == "timeout"
    assert error.detail == (
        "no answer within 0.5 s: 23 bytes came without a newline at their end "
        "(no newline at the end of the answer?)"
    )
    assert 'received: {"id": 2, "type": "ok"}' in error.describe()


@pytest.mark.parametrize(
    ("mode", "detail"),
    [
        ("blank_line", "the answer is an empty line: each answer is one JSON object on one line"),
        ("protocol_2", "the implementation speaks version 2 of the protocol and this harness "),
    ],
)
def test_a_blank_line_and_another_protocol_version_are_named(
    faulty: Any, mode: str, detail: str
) -> None:
    """Both were generic: "the answer is not JSON (Expecting value: line 1 column 1 (char 0))",
    and the schema's "['protocol']: 1 was expected" among its other complaints."""
    command, _ = faulty(mode)
    with Implementation(command, timeout=10) as impl, pytest.raises(ProtocolError) as info:
        impl.hello()
    assert info.value.detail.startswith(detail), info.value.detail


def test_a_child_that_exits_while_its_output_is_held_has_crashed(faulty: Any) -> None:
    """The report waited the whole timeout and said ``timeout``: the end of output never came."""
    command, pid_file = faulty("exit_held")
    started = time.perf_counter()
    outcome = check("goofspiel", command, players=2, examples=1, timeout=30)
    assert time.perf_counter() - started < 10
    assert outcome.error is not None and outcome.error.kind == "crash", format_outcome(outcome)
    assert outcome.error.detail == (
        "no answer: it exited with status 0 (a process it started still holds its standard "
        "output open)"
    )
    sleeper = int(pid_file.with_name(pid_file.name + ".sleeper").read_text())
    deadline = time.monotonic() + 5
    while time.monotonic() < deadline:  # stopped with the child's process group
        try:
            os.kill(sleeper, 0)
        except ProcessLookupError:
            break
        time.sleep(0.05)
    else:
        pytest.fail("the process left behind was not stopped")


# --- D9: the Implementation API ----------------------------------------------------------------


@pytest.mark.parametrize("timeout", [-1, 0, "1", float("nan"), True])
def test_a_bad_receive_timeout_is_refused(faulty: Any, timeout: Any) -> None:
    """``timeout=-1`` raised a bare ValueError (from the queue), ``"1"`` a TypeError."""
    command, _ = faulty("ok")
    with Implementation(command, timeout=5) as impl:
        (request,) = impl.send(("hello", {"protocol": 1}))
        with pytest.raises(InvalidOptionError, match="timeout must be a number of seconds"):
            impl.receive(request, timeout)
        answer = impl.receive(request, 5.0)
        assert isinstance(answer, dict) and answer["type"] == "hello"


def test_requests_after_close_are_refused(faulty: Any) -> None:
    """After ``close()``, a request read the answer to ``quit``: a misleading ``wrong_id``."""
    command, _ = faulty("ok")
    impl = Implementation(command, timeout=5)
    impl.hello()
    impl.close()
    with pytest.raises(ConformanceError, match="the implementation was closed"):
        impl.request("query", fields=["current_player"])
    with pytest.raises(ConformanceError, match="the implementation was closed"):
        impl.send(("query", {"fields": ["current_player"]}))
    impl.close()  # still safe twice


# --- the command's --replay, --map and reproducer names ----------------------------------------


def _diverging_reproducer(faulty: Any, tmp_path: Path) -> Path:
    command, _ = faulty("refuse_seat1")
    outcome = check("goofspiel", command, players=2, options=SMALL, examples=10, seed=0)
    assert outcome.divergence is not None
    return write_reproducer(outcome, tmp_path)


@pytest.mark.parametrize(
    ("option", "flag"),
    [
        (["-p", "2"], "-p/--players"),
        (["-o", "num_cards=4"], "-o/--option"),
        (["-n", "5"], "-n/--examples"),
        (["--seed", "1"], "--seed"),
        (["--out-dir", "."], "--out-dir"),
    ],
)
def test_replay_refuses_the_options_of_a_search(
    faulty: Any, tmp_path: Path, option: list[str], flag: str
) -> None:
    """``--replay`` ignored them silently (a replay of another configuration, one might think)."""
    path = _diverging_reproducer(faulty, tmp_path)
    output = _replay_cli(path, *option, exit_code=2)
    assert f"{flag} cannot be used with it" in output and "Usage:" in output


def test_replay_takes_another_backend(faulty: Any, tmp_path: Path) -> None:
    """``--backend`` was ignored by ``--replay``: the reproducer's own backend was used."""
    path = _diverging_reproducer(faulty, tmp_path)
    assert "(ours: rust backend)" in _replay_cli(path)
    assert "(ours: reference backend)" in _replay_cli(path, "--backend", "reference")


def test_reproducers_of_different_findings_have_different_names(
    faulty: Any, tmp_path: Path
) -> None:
    """The name hashed the game, players, options and history only: findings overwrote others."""
    command, _ = faulty("ok")
    target = Target("goofspiel", 2, SMALL, command)
    crash = Outcome(target, error=ProtocolError("crash", "no answer"), history=[0])
    timeout = Outcome(target, error=ProtocolError("timeout", "no answer"), history=[0])
    other = Outcome(Target("goofspiel", 2, SMALL, "other"), error=crash.error, history=[0])
    paths = {write_reproducer(o, tmp_path) for o in (crash, timeout, other)}
    assert len(paths) == 3
    assert write_reproducer(crash, tmp_path) in paths  # the same finding: the same file


# --- the shortest divergence found, and a hint for one at the end ------------------------------


def test_the_divergence_reported_is_never_longer_than_the_first_found(faulty: Any) -> None:
    """Seat 1's 13 against seat 0's 12 goes wrong, in 13-card games (seed 1: found after 33
    steps, then shrunk by Hypothesis to small choices that meet only in the forced last turn).

    The report said "DIVERGENCE after 36 steps (shrunk from a first failing game of 33 steps)".
    """
    command, _ = faulty("rare")
    outcome = check("goofspiel", command, players=2, examples=100, seed=1)
    divergence = outcome.divergence
    assert divergence is not None and divergence.first_length is not None
    assert len(divergence.history) <= divergence.first_length, format_outcome(outcome)
    assert [12, 13] in replay_bids(divergence.history)


def replay_bids(history: list[int]) -> list[list[int]]:
    """The bids of each turn of a goofspiel history (13 cards)."""
    import cardtable

    state = cardtable.make("goofspiel", players=2).new_state()
    for step in history:
        state.apply(step)
    bids: list[list[int]] = state.observation(0)["bids"]
    return bids


def _ended(history: list[int]) -> Divergence:
    return Divergence(history, [Difference(("winners",), [0, 1], [])], {"is_terminal": True}, {})


def test_a_divergence_at_the_end_of_a_long_game_suggests_a_smaller_game() -> None:
    """The two smallest values that shorten the game: the smallest alone (goofspiel with one
    card, every move forced) removes the step at fault of a bug in the forced last turn, which
    needs a real choice before it, two cards."""
    goofspiel = Target("goofspiel", 2, {"num_cards": 13}, "x")
    hint = _smaller_game(goofspiel, _ended(list(range(36))))
    both = (
        "e.g. num_cards=1 or 2 (-o num_cards=1: at most 3 steps a game, -o num_cards=2: at most "
        "6, instead of 39; try both: the smallest game may be too small to hold the step at fault"
    )
    assert hint is not None and both in hint
    two = Target("goofspiel", 2, {"num_cards": 2}, "x")
    hint = _smaller_game(two, _ended(list(range(6))))  # only one value below the one used
    assert hint is not None and "e.g. num_cards=1 (-o num_cards=1: at most 3 steps a game" in hint
    tide = Target("turn_the_tide", 4, {"rounds": None, "highest_chooses_tide": False}, "x")
    hint = _smaller_game(tide, _ended(list(range(300))))
    assert hint is not None and "rounds=1 or 2" in hint
    hint = _smaller_game(tide, _ended(list(range(200))))  # 2 rounds may take longer than 200
    assert hint is not None and "e.g. rounds=1 (-o rounds=1" in hint and "or 2" not in hint
    assert _smaller_game(goofspiel, _ended([0, 0, 0])) is None  # as short as it gets
    # After 5 steps, 2 cards (at most 6 steps) would not be shorter: only 1 card is named.
    hint = _smaller_game(goofspiel, _ended(list(range(5))))
    assert hint is not None and "e.g. num_cards=1 (-o num_cards=1" in hint and "or 2" not in hint
    early = Divergence(list(range(20)), [], {"is_terminal": False}, {})
    assert _smaller_game(goofspiel, early) is None  # not at the end: the game's length is not why
    outcome = Outcome(goofspiel, divergence=_ended(list(range(36))))
    outcome.divergence.hint = "the divergence shows at the end of the game"  # type: ignore[union-attr]
    assert format_outcome(outcome).endswith("\nhint: the divergence shows at the end of the game")


# --- confirming a divergence in a new process -------------------------------------------------


def test_a_confirmed_divergence_is_kept_when_a_shorter_one_cannot_be_replayed(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The shorter divergences are replayed first; one whose replay breaks the protocol (its
    process crashed, say) moves on to the next.

    The error of that replay was the outcome's, and the divergence that Hypothesis' last run
    had confirmed (30 steps) was thrown away.
    """
    from cardtable.conformance import runner

    crash = ProtocolError("crash", "no answer: it exited with status 3")
    short = _ended([0, 0, 0])

    def replay_new(
        outcome: Outcome, earlier: list[list[int]], history: list[int], *args: Any
    ) -> Divergence:
        if history == short.history:
            raise runner._Broken(crash, history[:1], earlier)
        return _ended(list(history))  # the same divergence again

    monkeypatch.setattr(runner, "_replay_new", replay_new)
    limits = runner._Limits(1.0, 1000, None)
    target = Target("goofspiel", 2, {"num_cards": 13}, "x")
    unconfirmed = runner._Found(short, [[1, 2]], trusted=False)
    for confirmed in (
        runner._Found(_ended(list(range(30))), [], trusted=True),  # by Hypothesis' last run
        runner._Found(_ended(list(range(30))), [], trusted=False),  # by a replay
    ):
        outcome = Outcome(target)
        found = runner._candidates([confirmed, unconfirmed])
        assert found[0] is unconfirmed  # the shortest first
        runner._confirm(outcome, found, ProtocolError("flaky", ""), limits, IdentityMap())
        assert outcome.error is None and outcome.divergence is confirmed.divergence
        assert outcome.earlier_games == []
    # With none confirmed, the replay's protocol error is the outcome's.
    outcome = Outcome(target)
    runner._confirm(outcome, [unconfirmed], ProtocolError("flaky", ""), limits, IdentityMap())
    assert outcome.divergence is None and outcome.error is not None
    assert outcome.error.kind == "crash"
    assert "while the harness replayed, in a new process, the divergence found after 3 steps" in (
        outcome.error.detail
    )
    assert (outcome.history, outcome.earlier_games) == ([0], [])


def test_legal_actions_that_differ_only_in_repeats_say_so() -> None:
    """The words of the shared helper (``cardtable.testing`` uses it too)."""
    difference = Difference(("legal_actions",), [1, 2], [1, 1, 2])
    assert str(difference) == (
        "legal_actions: cardtable [1, 2], implementation [1, 1, 2] (the same actions, reordered "
        "or repeated)"
    )
    apart = Difference(("legal_actions",), [0, 1, 1], [1, "<untranslatable 'x'>"], "Variant")
    assert str(apart).endswith(
        """(only in Variant: [0]; only in the implementation: ["<untranslatable 'x'>"])"""
    )


def test_a_key_one_side_lacks_is_not_shown_as_a_string() -> None:
    """A key missing on one side was shown as the JSON string "(missing)", like an answer that
    held that string."""
    from cardtable.conformance.runner import _diff_values

    found: list[Difference] = []
    _diff_values(("observations", "0"), {"x": 5}, {"x": 5, "y": "(no such key)"}, found)
    _diff_values(("observations", "1"), {"z": 1}, {}, found)
    assert [str(d) for d in found] == [
        'observations[0].y: cardtable (no such key), implementation "(no such key)"',
        "observations[1].z: cardtable 1, implementation (missing)",
    ]
