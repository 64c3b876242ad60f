"""The conformance harness: the JavaScript examples, a wrong copy shrunk, a misbehaving other side.

The examples need Node.js; without it those tests skip (and fail under ``CI=true``, where Node is
installed). The robustness tests drive tiny Python scripts and always run.
"""

from __future__ import annotations

import dataclasses
import json
import math
import os
import random
import re
import shlex
import shutil
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner
from hypothesis import given
from hypothesis import strategies as st
from jsonschema import Draft202012Validator  # type: ignore[import-untyped]

import cardtable
import cardtable.observations
from cardtable.cli import main
from cardtable.conformance import (
    FIELDS,
    MAX_LINE_BYTES,
    ConformanceError,
    Implementation,
    MapLoadError,
    Node,
    Outcome,
    ProtocolError,
    Target,
    check,
    format_outcome,
    load_map,
    load_schema,
    read_reproducer,
    replay_history,
    runner,
    write_reproducer,
)
from cardtable.conformance.protocol import SCHEMA_NAMES, _surely_valid, _validator, schema_errors
from cardtable.errors import InvalidOptionError
from cardtable.protocols import RULES_FIELDS
from tests.command_line import run_cli
from tests.docblocks import find_blocks

ROOT = Path(__file__).resolve().parent.parent
EXAMPLES = ROOT / "examples" / "conformance"
NAMED_MOVES = f"{EXAMPLES / 'named_moves.py'}:GoofspielNames"


def _node() -> str:
    node = shutil.which("node")
    if node is None:
        message = "Node.js (node) is not installed: the JavaScript conformance examples cannot run"
        if os.environ.get("CI") == "true":
            pytest.fail(message + " (CI must install it)")
        pytest.skip(message)
    return node


def _js(script: str, *args: str) -> str:
    return shlex.join([_node(), str(EXAMPLES / script), *args])


# --- the protocol's schemas -------------------------------------------------------------------


def test_every_schema_is_valid_and_documented() -> None:
    doc = (ROOT / "docs" / "conformance.md").read_text(encoding="utf-8")
    blocks = {}
    for block in re.findall(r"```json\n(.*?)```", doc, flags=re.S):
        data = json.loads(block)
        if isinstance(data, dict) and "$id" in data:
            blocks[data["$id"]] = data
    for name in SCHEMA_NAMES:
        schema = load_schema(name)
        Draft202012Validator.check_schema(schema)
        assert blocks.get(schema["$id"]) == schema, f"docs/conformance.md lacks {name} as shipped"


def test_every_protocol_error_kind_is_documented() -> None:
    """The kinds raised in the harness are the rows of the robustness table and the docstring's."""
    package = ROOT / "python" / "cardtable" / "conformance"
    source = "\n".join(path.read_text(encoding="utf-8") for path in package.glob("*.py"))
    raised = set(re.findall(r'(?:_fail|ProtocolError)\(\s*"([a-z_]+)"', source))
    doc = (ROOT / "docs" / "conformance.md").read_text(encoding="utf-8")
    table = doc.split("## Robustness", 1)[1].split("\n## ", 1)[0]
    assert set(re.findall(r"^\| `([a-z_]+)` \|", table, flags=re.M)) == raised
    assert "too_long" in raised
    documented = ProtocolError.__doc__ or ""
    assert all(f"``{kind}``" in documented for kind in raised)


json_values = st.recursive(
    st.none() | st.booleans() | st.integers(-3, 70) | st.floats(-2, 2) | st.text(max_size=3),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=3), inner),
    max_leaves=8,
)


@given(
    answer=st.fixed_dictionaries(
        {"id": st.integers(0, 3), "type": st.sampled_from(["state", "ok", "error"])},
        optional={f: json_values for f in FIELDS},
    )
)
def test_the_quick_check_accepts_only_what_the_schema_accepts(answer: dict[str, Any]) -> None:
    for name in ("query.response", "ok.response"):
        if _surely_valid(name, answer):
            assert not list(_validator(name).iter_errors(answer))


def test_schema_errors_are_readable() -> None:
    errors = schema_errors("query.response", {"id": 1, "type": "state", "current_player": "0"})
    assert errors == ["['current_player']: '0' is not of type 'integer'"]


# --- the JavaScript examples ------------------------------------------------------------------


def test_correct_turn_the_tide_passes(monkeypatch: pytest.MonkeyPatch) -> None:
    sent: list[dict[str, Any]] = []
    original = Implementation.send

    def recording(self: Implementation, *requests: tuple[str, dict[str, Any]]) -> Any:
        out = original(self, *requests)
        sent.extend(out)
        return out

    monkeypatch.setattr(Implementation, "send", recording)
    outcome = check(
        "turn_the_tide",
        _js("main.js"),
        players=3,
        options={"highest_chooses_tide": True},
        examples=6,
        seed=0,
    )
    assert outcome.ok, format_outcome(outcome)
    assert outcome.fields == list(FIELDS)
    assert outcome.steps > 6 * 200
    for request in sent:  # what we send follows the documented requests
        assert not schema_errors(f"{request['type']}.request", request), request
    assert {r["type"] for r in sent} == {"hello", "new_game", "query", "apply"}


def test_correct_goofspiel_with_its_own_move_names_passes() -> None:
    outcome = check(
        "goofspiel",
        _js("main.js", "--named-moves"),
        players=2,
        options={"num_cards": 6},
        examples=25,
        action_map=load_map(NAMED_MOVES),
        seed=0,
    )
    assert outcome.ok, format_outcome(outcome)


def test_move_names_without_their_map_diverge_at_once() -> None:
    outcome = check("goofspiel", _js("main.js", "--named-moves"), players=2, examples=5, seed=0)
    assert outcome.divergence is not None
    assert outcome.divergence.history == []
    assert "untranslatable 'point 1'" in str(outcome.divergence.differences[0])


def test_wrong_tie_rule_is_found_and_shrunk(tmp_path: Path) -> None:
    command = _js("wrong_tie_rule.js")
    outcome = check("turn_the_tide", command, players=3, examples=100, seed=0)
    divergence = outcome.divergence
    assert divergence is not None, format_outcome(outcome)
    # The shortest game showing it: the deal (36), two equal tide cards, one card per seat.
    assert len(divergence.history) == 36 + 2 + 3
    assert divergence.history[36] == divergence.history[37]
    assert {d.path[-1] for d in divergence.differences} == {"lifebuoys"}
    assert any("step 4" in s for s in divergence.sections)
    report = format_outcome(outcome, reproducer="r.json")
    for text in ("DIVERGENCE after 41 steps", "tide A: 1; tide B: 1", "lifebuoys", "§ Flow"):
        assert text in report
    # The reproducer replays the divergence; the correct implementation passes it.
    target, history, fields = read_reproducer(write_reproducer(outcome, tmp_path))
    assert history == divergence.history and fields == list(FIELDS)
    again = replay_history(target, history, fields=fields)
    assert again.divergence is not None and again.divergence.history == history
    fixed = replace_command(target, _js("main.js"))
    assert replay_history(fixed, history).ok


def replace_command(target: Any, command: str) -> Any:
    from dataclasses import replace

    return replace(target, command=command)


def test_cli_finds_writes_and_replays(tmp_path: Path) -> None:
    args = ["conformance", "turn_the_tide", "--players", "3", "--examples", "50", "--seed", "1"]
    wrong = [*args, "--cmd", _js("wrong_tie_rule.js"), "--out-dir", str(tmp_path)]
    output = run_cli(*wrong, exit_code=1)
    assert "DIVERGENCE after 41 steps" in output
    (reproducer,) = tmp_path.glob("conformance-turn_the_tide-*.json")
    assert f"--replay {reproducer}" in output
    replayed = run_cli("conformance", "--replay", str(reproducer), exit_code=1)
    assert "DIVERGENCE after 41 steps" in replayed
    fixed = ["conformance", "--replay", str(reproducer), "--cmd", _js("main.js")]
    assert "OK: no divergence found" in run_cli(*fixed)
    other = run_cli("conformance", "goofspiel", "--replay", str(reproducer), exit_code=2)
    assert "not goofspiel" in other


def test_a_reproducer_of_a_relative_command_replays_from_anywhere(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """``--cmd "node wrong_tie_rule.js"`` run in the examples' directory wrote a reproducer whose
    replay from any other directory crashed ("Cannot find module"): the command now runs where
    it ran (the reproducer's ``cwd``)."""
    monkeypatch.chdir(EXAMPLES)
    command = shlex.join([_node(), "wrong_tie_rule.js"])
    args = ["conformance", "turn_the_tide", "-p", "3", "-n", "50", "--seed", "1"]
    run_cli(*args, "--cmd", command, "--out-dir", str(tmp_path), exit_code=1)
    (reproducer,) = tmp_path.glob("conformance-turn_the_tide-*.json")
    assert json.loads(reproducer.read_text())["cwd"] == str(EXAMPLES)
    monkeypatch.chdir(tmp_path)
    replayed = run_cli("conformance", "--replay", str(reproducer), exit_code=1)
    assert "DIVERGENCE after 41 steps" in replayed


def test_cli_leaves_no_hypothesis_folder_where_it_ran(tmp_path: Path) -> None:
    """A run with nothing to report left ``.hypothesis/`` (Hypothesis' cache of the constants in
    the code under test) in the current directory, though it keeps no example database."""
    # A process of its own: Hypothesis fixes its storage directory once per process.
    env = {k: v for k, v in os.environ.items() if k != "HYPOTHESIS_STORAGE_DIRECTORY"}
    args = ["conformance", "goofspiel", "-n", "3", "--seed", "1", "--cmd", _js("main.js")]
    run = subprocess.run(
        [sys.executable, "-m", "cardtable", *args],
        cwd=tmp_path,
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert run.returncode == 0 and "no divergence found" in run.stdout, run.stdout + run.stderr
    assert list(tmp_path.iterdir()) == []


def test_cli_goofspiel_with_map_and_options() -> None:
    output = run_cli(
        "conformance",
        "goofspiel",
        "--players",
        "2",
        "-o",
        "num_cards=4",
        "--examples",
        "10",
        "--cmd",
        _js("main.js", "--named-moves"),
        "--map",
        NAMED_MOVES,
    )
    assert "moves translated by the map" in output


# --- a misbehaving other side -----------------------------------------------------------------

FAKE = r"""
import contextlib, json, os, subprocess, sys, time
sys.set_int_max_str_digits(0)  # integers of any length, as JSON has them
mode = sys.argv[1]
state = None
with open(sys.argv[2], "w") as f:
    f.write(str(os.getpid()))
FIELDS = ["current_player", "is_terminal", "legal_actions"] + (["scores"] if mode == "nan" else [])
WEIGHT = json.loads(mode[7:]) if mode.startswith("weight=") else None  # of every chance outcome
if WEIGHT is not None:
    FIELDS.append("chance_outcomes")
OURS = mode == "bug13" or WEIGHT is not None  # plays our reference
NAME = "fake \ud800" if mode.startswith("surrogate") else "fake"  # a lone surrogate
def say(message):
    sys.stdout.write(message + "\n")
    sys.stdout.flush()
for line in sys.stdin:
    request = json.loads(line)
    kind, rid = request["type"], request["id"]
    if kind == "hello":
        say(json.dumps({"id": rid, "type": "hello", "protocol": 1, "name": NAME,
                        "games": {"goofspiel": {"fields": FIELDS}}}))
    elif kind == "new_game" and OURS:  # bug13: but bid 13 lost on point 13
        import cardtable
        game = cardtable.make("goofspiel", players=2, backend="reference", **request["options"])
        state = game.new_state()
        say(json.dumps({"id": rid, "type": "ok"}))
    elif kind == "apply" and OURS:
        state.apply(request["action"])
        say(json.dumps({"id": rid, "type": "ok"}))
    elif kind == "query" and WEIGHT is not None:
        say(json.dumps({"id": rid, "type": "state", "current_player": state.current_player,
                        "is_terminal": state.is_terminal, "legal_actions": state.legal_actions(),
                        "chance_outcomes": [[a, WEIGHT] for a, _ in state.chance_outcomes()]}))
    elif kind == "query" and mode == "bug13":
        legal = state.legal_actions()
        if state.current_player == 0 and state.observation(0)["point_card"] == 13:
            legal = [a for a in legal if a != 12]
        say(json.dumps({"id": rid, "type": "state", "current_player": state.current_player,
                        "is_terminal": state.is_terminal, "legal_actions": legal}))
    elif kind == "new_game" and mode == "crash":
        sys.stderr.write("Traceback (most recent call last):\nKeyError: 'goofspiel'\n")
        sys.exit(3)
    elif kind == "new_game" and mode == "hang":
        time.sleep(600)
    elif kind == "new_game" and mode == "bad_json":
        say("{'id': 2, 'type': 'ok'}")
    elif kind == "new_game" and mode == "refuse":
        say(json.dumps({"id": rid, "type": "error", "message": "only 13 cards"}))
    elif kind == "new_game" and mode == "surrogate_refuse":
        say(json.dumps({"id": rid, "type": "error", "message": "no \udfff here"}))
    elif kind == "new_game" and mode == "twice":  # the same answer twice
        say(json.dumps({"id": rid, "type": "ok"}))
        say(json.dumps({"id": rid, "type": "ok"}))
    elif kind == "new_game" and mode == "stderr":  # 2 MB on one line, no newline
        sys.stderr.write("x" * 2_000_000 + "THE END")
        sys.stderr.flush()
        sys.exit(3)
    elif kind == "new_game" and mode == "flood":  # 20 MB without a newline, then nothing
        with contextlib.suppress(BrokenPipeError):
            for _ in range(20):
                sys.stdout.write("x" * 1_000_000)
                sys.stdout.flush()
        time.sleep(600)
    elif kind == "new_game" and mode.startswith("line="):  # a legal answer of exactly N bytes
        start = json.dumps({"id": rid, "type": "ok", "pad": ""})
        say(start[:-2] + "x" * (int(mode[5:]) - len(start)) + start[-2:])
    elif kind == "new_game" and mode == "detach":  # leaves a process holding our pipes
        sleeper = subprocess.Popen(["sleep", "8"], start_new_session=True)
        with open(sys.argv[2] + ".sleeper", "w") as f:
            f.write(str(sleeper.pid))
        time.sleep(600)
    elif kind == "query" and mode in ("nan", "huge"):
        say(json.dumps({"id": rid, "type": "state", "current_player": -1, "is_terminal": False,
                        "legal_actions": list(range(13)), "scores": [float("nan")] * 2})
            .replace("NaN", "NaN" if mode == "nan" else "1e999"))
    elif kind == "query" and mode == "schema":
        say(json.dumps({"id": rid, "type": "state", "current_player": "seat 0",
                        "is_terminal": False, "legal_actions": []}))
    elif kind == "query" and mode == "surrogate":  # a move and a key of lone surrogates
        say(json.dumps({"id": rid, "type": "state", "current_player": -1, "is_terminal": False,
                        "legal_actions": ["\udc00"], "\ud800": 1}))
    elif kind == "query" and mode == "wrong_id":
        say(json.dumps({"id": rid + 7, "type": "state", "current_player": -1,
                        "is_terminal": False, "legal_actions": []}))
    elif kind == "query":
        say(json.dumps({"id": rid, "type": "state", "current_player": -1,
                        "is_terminal": False, "legal_actions": list(range(13))}))
    else:
        say(json.dumps({"id": rid, "type": "ok"}))
"""


@pytest.fixture
def fake(tmp_path: Path) -> Any:
    script = tmp_path / "fake.py"
    script.write_text(FAKE, encoding="utf-8")
    pid_file = tmp_path / "pid"

    def command(mode: str) -> tuple[str, Path]:
        return shlex.join([sys.executable, str(script), mode, str(pid_file)]), pid_file

    return command


def _gone(pid_file: Path) -> bool:
    pid = int(pid_file.read_text())
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return True
    return False


@pytest.mark.parametrize(
    ("mode", "kind", "words"),
    [
        ("crash", "crash", ["exited with status 3", "KeyError: 'goofspiel'"]),
        ("hang", "timeout", ["no answer within 1 s"]),
        ("bad_json", "bad_json", ["not JSON", "{'id': 2, 'type': 'ok'}"]),
        ("schema", "schema", ["['current_player']: 'seat 0' is not of type 'integer'"]),
        ("wrong_id", "wrong_id", ["is for request 10, not 3"]),
        ("refuse", "refused", ["only 13 cards"]),
        ("nan", "bad_json", ["NaN is not a JSON value", '"scores": [NaN, NaN]']),
        ("huge", "bad_json", ["the number 1e999 is out of range"]),
        ("twice", "wrong_id", ["is for request 2, not 3"]),
    ],
)
def test_a_broken_protocol_is_reported_with_the_last_exchange(
    fake: Any, mode: str, kind: str, words: list[str]
) -> None:
    command, pid_file = fake(mode)
    started = time.perf_counter()
    # A short timeout only where the test waits for one (an answer that comes may take longer
    # on a loaded machine); no run waits long.
    outcome = check(
        "goofspiel", command, players=2, examples=5, timeout=1.0 if mode == "hang" else 30.0
    )
    assert time.perf_counter() - started < 20
    assert outcome.error is not None and outcome.error.kind == kind
    report = format_outcome(outcome)
    assert "last exchange:" in report and '"type": ' in report
    for text in words:
        assert text in report, report
    assert _gone(pid_file)


def test_an_endless_answer_line_fails_fast_unread(fake: Any) -> None:
    """A line without a newline is not buffered until the timeout: reading stops at the limit."""
    command, pid_file = fake("flood")
    started = time.perf_counter()
    outcome = check("goofspiel", command, players=2, examples=5, timeout=20, max_line=1_000_000)
    assert time.perf_counter() - started < 10  # not the timeout
    assert outcome.error is not None and outcome.error.kind == "too_long", format_outcome(outcome)
    assert outcome.error.detail.startswith(
        "an answer line is longer than the limit of 1,000,000 bytes (max_line, --max-line): "
        "reading stopped after "
    )
    assert outcome.error.detail.endswith("bytes, before its newline")
    report = format_outcome(outcome)
    assert "protocol error (too_long)" in report and '"type": "new_game"' in report
    assert "received: xxxxxxxxxx" in report and len(report) < 3000
    assert _gone(pid_file)


def test_the_line_limit_holds_to_the_byte(fake: Any) -> None:
    size = 100_000  # two reads of the pipe
    command, _ = fake(f"line={size}")
    with Implementation(command, timeout=5, max_line=size) as impl:
        impl.hello()
        answer = impl.request("new_game", game="goofspiel", players=2, options={})
        assert answer["type"] == "ok" and len(json.dumps(answer)) == size
    with Implementation(command, timeout=5, max_line=size - 1) as impl:
        impl.hello()
        with pytest.raises(ProtocolError) as info:
            impl.request("new_game", game="goofspiel", players=2, options={})
        assert info.value.kind == "too_long"
        assert f"an answer line of {size:,} bytes is longer than the limit of" in info.value.detail
        with pytest.raises(ProtocolError, match="too_long"):  # nothing more is read
            impl.request("query", fields=["current_player"])


def test_a_long_legal_answer_line_is_read(fake: Any) -> None:
    assert MAX_LINE_BYTES == 64 * 1024 * 1024
    command, _ = fake("line=3000000")  # a long answer to new_game, then the usual fake
    outcome = check("goofspiel", command, players=2, examples=2, seed=0)
    assert outcome.error is None and outcome.divergence is not None, format_outcome(outcome)
    assert outcome.divergence.history == [0]


def test_cli_takes_a_line_limit(fake: Any, tmp_path: Path) -> None:
    for value in ("0", "-5"):
        args = ["conformance", "goofspiel", "-p", "2", "--cmd", "true", "--max-line", value]
        output = run_cli(*args, exit_code=2)
        assert "Invalid value for '--max-line': max_line must be an int >= 1" in output
    command, _ = fake("flood")
    args = ["conformance", "goofspiel", "-p", "2", "--cmd", command, "--max-line", "100000"]
    output = run_cli(*args, "--out-dir", str(tmp_path), exit_code=1)
    assert "protocol error (too_long)" in output
    (reproducer,) = tmp_path.glob("conformance-goofspiel-*.json")
    replayed = run_cli(
        "conformance", "--replay", str(reproducer), "--max-line", "100000", exit_code=1
    )
    assert "protocol error (too_long)" in replayed


def test_cli_reports_a_crash_without_a_traceback(fake: Any, tmp_path: Path) -> None:
    command, _ = fake("crash")
    args = ["conformance", "goofspiel", "--players", "2", "--cmd", command]
    result = CliRunner().invoke(main, [*args, "--out-dir", str(tmp_path)])
    assert result.exit_code == 1
    assert "protocol error (crash)" in result.output
    assert "Traceback" not in result.output.replace("| Traceback", "")
    assert result.exception is None or isinstance(result.exception, SystemExit)


def test_cli_takes_the_only_player_count_and_asks_for_one_otherwise(
    fake: Any, tmp_path: Path
) -> None:
    """Goofspiel is played by 2 only: no ``--players`` needed; a game of several counts asks."""
    command, _ = fake("crash")
    args = ["conformance", "goofspiel", "--cmd", command, "--out-dir", str(tmp_path)]
    assert "protocol error (crash)" in run_cli(*args, exit_code=1)  # it ran: 2 players
    output = run_cli("conformance", "turn_the_tide", "--cmd", command, exit_code=2)
    assert "turn_the_tide is played by 3..=5 players: give --players" in output
    assert "unknown game" in run_cli("conformance", "nogame", "--cmd", command, exit_code=2)


def test_a_command_that_cannot_start_is_reported(tmp_path: Path) -> None:
    outcome = check("goofspiel", "/nonexistent/impl --x", players=2, examples=1)
    assert outcome.error is not None and outcome.error.kind == "start"
    args = [
        "conformance",
        "goofspiel",
        "-p",
        "2",
        "--cmd",
        "'unbalanced",
        "--out-dir",
        str(tmp_path),
    ]
    assert "cannot parse the command" in run_cli(*args, exit_code=1)
    assert not list(tmp_path.iterdir())  # nothing to replay


def test_the_child_is_stopped_on_keyboard_interrupt(fake: Any) -> None:
    command, pid_file = fake("hang")
    with pytest.raises(KeyboardInterrupt), Implementation(command, timeout=1.0) as impl:
        impl.hello()
        raise KeyboardInterrupt
    assert not impl.running and _gone(pid_file)


def test_a_game_it_does_not_play_is_reported(fake: Any) -> None:
    command, pid_file = fake("ok")
    outcome = check("turn_the_tide", command, players=3, examples=1)
    assert outcome.error is not None and outcome.error.kind == "unsupported"
    assert "only goofspiel" in outcome.error.detail
    assert _gone(pid_file)


def test_a_divergence_of_the_fake_is_shrunk_to_the_first_step(fake: Any) -> None:
    command, _ = fake("ok")  # always a chance node with 13 outcomes: wrong after the first card
    outcome = check("goofspiel", command, players=2, examples=20, seed=0)
    assert outcome.divergence is not None
    assert outcome.divergence.history == [0]
    assert [str(d) for d in outcome.divergence.differences] == [
        "current_player: cardtable 0, implementation -1"
    ]


def test_a_divergence_off_the_simplest_game_is_found_and_shrunk(fake: Any) -> None:
    # All-smallest choices never reveal point card 13 at a chance node (it comes last, played
    # without a node): the failure needs a larger choice, which Hypothesis keeps as late as it can.
    command, _ = fake("bug13")
    outcome = check("goofspiel", command, players=2, examples=200, seed=0)
    divergence = outcome.divergence
    assert divergence is not None, format_outcome(outcome)
    # The smallest choices (our lowest ids) until point card 13 is revealed at a chance node.
    assert divergence.history == [0, 0, 0, 1, 1, 1, 2, 2, 2, 12]
    assert divergence.first_length is not None and divergence.first_length >= 10
    assert [str(d) for d in divergence.differences] == [
        "legal_actions: cardtable [3, 4, 5, 6, 7, 8, 9, 10, 11, 12], "
        "implementation [3, 4, 5, 6, 7, 8, 9, 10, 11] (only in cardtable: [12])"
    ]


def test_bad_map_specifications() -> None:
    for spec in ("no_colon", "cardtable.nothing_here:X", "cardtable.errors:CardtableError"):
        with pytest.raises(MapLoadError):
            load_map(spec)
    with pytest.raises(InvalidOptionError, match="not empty"):
        Implementation("")
    with pytest.raises(ProtocolError, match="cannot parse"):
        Implementation("'unclosed")


# --- bad arguments, a misbehaving map, signals ------------------------------------------------


@pytest.mark.parametrize("fields", [["bogus"], [], "scores", ("scores", 3)])
@pytest.mark.parametrize("api", ["check", "replay_history"])
def test_bad_fields_are_refused(fake: Any, api: str, fields: Any) -> None:
    command, pid_file = fake("ok")
    with pytest.raises(InvalidOptionError, match="fields"):
        if api == "check":
            check("goofspiel", command, players=2, examples=1, fields=fields)
        else:
            replay_history(Target("goofspiel", 2, {"num_cards": 13}, command), [0], fields=fields)
    assert not pid_file.exists()  # refused before anything started


def test_fields_the_implementation_does_not_declare_are_unsupported(fake: Any) -> None:
    command, pid_file = fake("ok")
    outcome = check("goofspiel", command, players=2, examples=1, fields=["legal_actions", "scores"])
    assert outcome.error is not None and outcome.error.kind == "unsupported"
    assert "fields ['scores'] asked for" in outcome.error.detail and _gone(pid_file)


@pytest.mark.parametrize("history", ["123", [0, True], [0, 1.0], [0, "1"], {0: 0}, 7])
def test_bad_histories_are_refused(fake: Any, history: Any) -> None:
    command, pid_file = fake("ok")
    with pytest.raises(InvalidOptionError, match="history"):
        replay_history(Target("goofspiel", 2, {"num_cards": 13}, command), history)
    assert not pid_file.exists()


def test_a_history_longer_than_the_game_is_refused() -> None:
    target = Target("goofspiel", 2, {"num_cards": 2}, _js("main.js"))
    assert replay_history(target, [0, 0, 0]).ok  # the whole game
    with pytest.raises(ConformanceError, match="ends after 3 steps, the history has 4"):
        replay_history(target, [0, 0, 0, 0])


@pytest.mark.parametrize(
    ("key", "value", "words"),
    [
        ("fields", ["bogus"], "unknown fields ['bogus']"),
        ("fields", "scores", "'fields' must be a list"),
        ("fields", [], "fields must be a non-empty list"),
        ("history", "123", "'history' must be a list"),
        ("history", [0, True], "'history' must hold integer action ids only, not True"),
        ("history", [0.0], "'history' must hold integer action ids only, not 0.0"),
        ("players", "2", "'players' must be an integer"),
        ("options", None, "'options' must be an object, not missing"),
    ],
)
def test_cli_refuses_a_malformed_reproducer(
    fake: Any, tmp_path: Path, key: str, value: Any, words: str
) -> None:
    command, _ = fake("ok")  # diverges at the first step
    outcome = check("goofspiel", command, players=2, examples=5, seed=0)
    path = write_reproducer(outcome, tmp_path)
    assert "DIVERGENCE" in run_cli("conformance", "--replay", str(path), exit_code=1)
    data = json.loads(path.read_text(encoding="utf-8"))
    if value is None:
        del data[key]
    else:
        data[key] = value
    path.write_text(json.dumps(data), encoding="utf-8")
    output = run_cli("conformance", "--replay", str(path), exit_code=2)
    assert f"is not a valid reproducer: {words}" in output, output
    assert "DIVERGENCE" not in output and "OK" not in output


def test_cli_refuses_bad_fields() -> None:
    for fields in ("bogus", "", "scores,"):
        args = ["conformance", "goofspiel", "-p", "2", "--cmd", "true", "--fields", fields]
        assert "Invalid value for --fields: unknown fields" in run_cli(*args, exit_code=2)


def test_a_detached_process_holding_the_pipes_does_not_hang_the_harness(fake: Any) -> None:
    command, pid_file = fake("detach")  # its sleeper lives 8 s and holds stdout and stderr
    before = set(threading.enumerate())
    started = time.perf_counter()
    try:
        outcome = check("goofspiel", command, players=2, examples=1, timeout=0.5)
        assert time.perf_counter() - started < 5
        assert outcome.error is not None and outcome.error.kind == "timeout"
        assert _gone(pid_file)
        with Implementation(command, timeout=0.5) as impl:
            impl.hello()
            with pytest.raises(ProtocolError, match=r"no answer within 0\.5 s"):
                impl.request("new_game", game="goofspiel", players=2, options={})
        assert not any(thread.is_alive() for thread in impl._threads)
        assert not [t for t in threading.enumerate() if t not in before]
    finally:
        for sleeper in pid_file.parent.glob("pid.sleeper"):
            os.kill(int(sleeper.read_text()), signal.SIGKILL)


BAD_TIMEOUTS = [math.nan, math.inf, -math.inf, -1, 0, 86_401, 10**400, True, "1", None]


BAD_LIMITS = [("timeout", t, "timeout must be a number of seconds") for t in BAD_TIMEOUTS] + [
    ("max_line", m, "max_line must be an int >= 1") for m in (0, -1, True, 1.5, "64", None)
]


@pytest.mark.parametrize(
    ("name", "value", "message"), BAD_LIMITS, ids=[f"{n}={str(v)[:8]}" for n, v, _ in BAD_LIMITS]
)
def test_bad_limits_are_refused(fake: Any, name: str, value: Any, message: str) -> None:
    """A bad answer timeout or line limit is refused before any child is started."""
    command, pid_file = fake("hang")
    target = Target("goofspiel", 2, {"num_cards": 13}, command)
    with pytest.raises(InvalidOptionError, match=message):
        check("goofspiel", command, players=2, examples=1, **{name: value})
    with pytest.raises(InvalidOptionError, match=name):
        replay_history(target, [], **{name: value})
    with pytest.raises(InvalidOptionError, match=name):
        Implementation(command, **{name: value})
    assert not pid_file.exists()


def test_cli_refuses_bad_timeouts() -> None:
    for timeout in ("nan", "inf", "-1", "0", "1e999"):
        args = ["conformance", "goofspiel", "-p", "2", "--cmd", "sleep 300", "--timeout", timeout]
        output = run_cli(*args, exit_code=2)
        assert "Invalid value for '--timeout': timeout must be a number of seconds" in output


@pytest.mark.parametrize("examples", [0, -1, True, 1.5])
def test_bad_example_counts_are_refused(examples: Any) -> None:
    with pytest.raises(InvalidOptionError, match="examples"):
        check("goofspiel", "true", players=2, examples=examples)


def test_the_stderr_tail_is_bounded(fake: Any) -> None:
    command, _ = fake("stderr")
    outcome = check("goofspiel", command, players=2, examples=1, timeout=5)
    assert outcome.error is not None and outcome.error.kind == "crash"
    assert outcome.error.stderr.endswith("xxxTHE END") and len(outcome.error.stderr) <= 4005
    assert len(format_outcome(outcome)) < 8000


class _FailingMap:
    """Translates by the identity, but fails on the second step (a KeyError, or a dict)."""

    def __init__(self, failure: str) -> None:
        self.failure = failure

    def to_impl(self, action: int, node: Node) -> Any:
        if node.is_chance:
            return action
        if self.failure == "dict":
            return {"bid": action}
        raise KeyError("bid")

    def from_impl(self, move: Any, node: Node) -> int:
        return int(move)


@pytest.mark.parametrize(
    ("failure", "words"),
    [("raise", "raised KeyError: 'bid'"), ("dict", 'returned {"bid": 0}, not a move')],
)
def test_a_failing_map_is_a_map_error(fake: Any, failure: str, words: str) -> None:
    command, pid_file = fake("bug13")  # our reference: no divergence
    failing = _FailingMap(failure)
    outcome = check("goofspiel", command, players=2, examples=3, action_map=failing, seed=0)
    assert outcome.divergence is None and outcome.error is not None, format_outcome(outcome)
    assert outcome.error.kind == "map" and outcome.history == [0, 0]
    report = format_outcome(outcome)
    assert f"protocol error (map): the map's to_impl(0) at step 1 (seat 0) {words}" in report
    assert _gone(pid_file)
    target = Target("goofspiel", 2, {"num_cards": 13}, command)
    replayed = replay_history(target, [0, 0], action_map=failing)
    assert replayed.error is not None and replayed.error.kind == "map"


@pytest.mark.parametrize(("signum", "status"), [(signal.SIGTERM, 143), (signal.SIGHUP, 129)])
def test_sigterm_stops_the_cli_and_the_child(fake: Any, signum: int, status: int) -> None:
    """SIGHUP (the terminal closed) killed the harness and left the child, in a session of its
    own, running: it now stops the child as SIGTERM does."""
    command, pid_file = fake("hang")
    cli = [sys.executable, "-m", "cardtable", "conformance", "goofspiel", "-p", "2"]
    harness = subprocess.Popen(
        [*cli, "--cmd", command, "--timeout", "60"], stderr=subprocess.PIPE, text=True
    )
    try:
        deadline = time.monotonic() + 60
        while not pid_file.exists() or not pid_file.read_text():
            assert time.monotonic() < deadline and harness.poll() is None
            time.sleep(0.05)
        time.sleep(0.5)  # it answered hello and hangs on new_game
        harness.send_signal(signum)
        _, err = harness.communicate(timeout=20)
        assert harness.returncode == status, err
        assert "terminated; the implementation was stopped" in err
        assert _gone(pid_file)
    finally:
        if harness.poll() is None:
            harness.kill()
        if pid_file.exists() and pid_file.read_text() and not _gone(pid_file):
            os.kill(int(pid_file.read_text()), signal.SIGKILL)


# --- fixes: lone surrogates, bad arguments, exit statuses, chance weights, --out-dir ----------


def _encodable(value: Any) -> bool:
    """Whether every string of a JSON value (its keys too) can be written as UTF-8.

    The tests of lone surrogates assert through it: a failing assertion showing one would break
    pytest's report (and pytest-xdist).
    """
    try:
        json.dumps(value, ensure_ascii=False).encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True


def test_lone_surrogates_of_the_implementation_can_be_printed(fake: Any, tmp_path: Path) -> None:
    """A lone surrogate escaped in an answer (``"\\ud800"``) crashed the report when printed.

    JSON may escape a lone surrogate, which no UTF-8 output can encode: the report was built, then
    printing it raised ``UnicodeEncodeError`` (a traceback from ``cardtable conformance``); the
    API's objects and the reproducer file held it too. It is now read escaped as text.
    """
    command, _ = fake("surrogate")  # its name, a legal move and a key hold lone surrogates
    outcome = check("goofspiel", command, players=2, examples=1, seed=0)
    divergence = outcome.divergence
    assert divergence is not None
    report = format_outcome(outcome)
    saved = json.loads(write_reproducer(outcome, tmp_path).read_text(encoding="utf-8"))
    for value in (report, outcome.name, divergence.theirs, str(divergence.differences[0]), saved):
        assert _encodable(value)
    assert "implementation: fake \\ud800" in report
    assert divergence.theirs["legal_actions"] == ["\\udc00"]
    command, _ = fake("surrogate_refuse")  # and its error message
    result = CliRunner().invoke(
        main, ["conformance", "goofspiel", "-p", "2", "--cmd", command, "--out-dir", str(tmp_path)]
    )
    assert isinstance(result.exception, SystemExit), repr(result.exception)
    assert result.exit_code == 1 and "it refuses this game: no \\udfff here" in result.output
    for path in tmp_path.glob("conformance-*.json"):
        assert _encodable(json.loads(path.read_text(encoding="utf-8")))


class _BadIndex:
    """An integer whose ``__index__`` fails with something else than a TypeError."""

    def __index__(self) -> int:
        raise ValueError("no index")


BAD_CHECK_ARGUMENTS: list[tuple[str, Any, str]] = [
    ("options", [1], "options must be a dict"),
    ("options", {1: 2}, "options must be a dict of option names"),
    ("options", {"num_cards": 0}, "num_cards"),
    ("players", 3, "players"),
    ("players", True, "players"),
    ("game_id", 5, "unknown game"),
    ("backend", "nosuch", "backend"),
    ("command", 5, "command must be a command line"),
    ("command", ["python", 5], "command must be a command line"),
    ("command", "python\0 x", "without NUL"),
    ("command", "", "not empty"),
    ("command", "   ", "not empty"),
    ("command", [], "not empty"),
    ("cwd", 5, "cwd must be None or an existing directory"),
    ("cwd", "/nonexistent/dir", "cwd must be None or an existing directory"),
    ("seed", 1.5, "seed must be an int in 0..=18446744073709551615"),
    ("seed", True, "seed must be an int"),
    ("seed", "1", "seed must be an int"),
    ("seed", -1, "seed must be an int"),
    ("seed", 2**70, "seed must be an int"),
    ("seed", _BadIndex(), "seed must be an int"),
    ("examples", 2**64, "examples must be an int in 1..=18446744073709551615"),
    ("action_map", 5, "action_map must be None or an object with the methods"),
    ("action_map", _FailingMap, "action_map must be None or an object with the methods"),
    ("map_spec", 5, "map_spec must be None or a string"),
]


@pytest.mark.parametrize(
    ("name", "value", "message"),
    BAD_CHECK_ARGUMENTS,
    ids=[f"{n}={str(v)[:12]}" for n, v, _ in BAD_CHECK_ARGUMENTS],
)
def test_bad_arguments_of_check_are_refused_before_anything_starts(
    fake: Any, name: str, value: Any, message: str
) -> None:
    """``check`` let bad arguments through: foreign errors, or a run with them.

    ``options=[1]`` and ``cwd=5`` raised ``TypeError``, ``command=5`` an ``AttributeError``; seeds
    that are not integers in ``0..2**64-1`` were accepted, and ``action_map=5`` was reported as a
    divergence of the implementation. Each is now an ``InvalidOptionError`` before it starts.
    """
    command, pid_file = fake("ok")
    arguments: dict[str, Any] = {"game_id": "goofspiel", "command": command, "players": 2}
    _refused_before_start(check, arguments | {"examples": 1, name: value}, message, pid_file)


def _refused_before_start(
    call: Callable[..., Any], arguments: dict[str, Any], message: str, pid_file: Path
) -> None:
    """``call(**arguments)`` raises InvalidOptionError with ``message``, starting nothing."""
    with pytest.raises(InvalidOptionError, match=re.escape(message)):
        call(**arguments)
    assert not pid_file.exists()


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ({"target": 5}, "target must be a Target"),
        ({"command": 5}, "command must be a command line"),
        ({"options": [1]}, "options must be a dict"),
        ({"action_map": 5}, "action_map must be None or an object"),
        ({"cwd": 5}, "cwd must be None"),
        ({"history": [0, _BadIndex()]}, "step 1 is"),
    ],
)
def test_bad_arguments_of_replay_history_are_refused(
    fake: Any, change: dict[str, Any], message: str
) -> None:
    """``replay_history`` raised foreign errors on a bad target, map or working directory.

    A target whose command was not a string gave an ``AttributeError``, options that are not a dict
    a ``TypeError``, a history step whose ``__index__`` raises a ``ValueError`` that very error.
    """
    command, pid_file = fake("ok")
    target = Target("goofspiel", 2, {"num_cards": 13}, command)
    arguments: dict[str, Any] = {"target": target, "history": [0]}
    for key, value in change.items():
        if key in ("command", "options"):
            arguments["target"] = dataclasses.replace(target, **{key: value})
        else:
            arguments[key] = value
    _refused_before_start(replay_history, arguments, message, pid_file)


@pytest.mark.parametrize(
    ("arguments", "message"),
    [
        ({"command": 5}, "command must be a command line"),
        ({"command": ["true", None]}, "command must be a command line"),
        ({"command": "true", "cwd": 5}, "cwd must be None or an existing directory"),
    ],
)
def test_bad_arguments_of_an_implementation_are_refused(
    arguments: dict[str, Any], message: str
) -> None:
    """``Implementation`` raised ``AttributeError`` (shlex) or ``TypeError`` (subprocess)."""
    with pytest.raises(InvalidOptionError, match=message):
        Implementation(**arguments)


def test_a_command_may_be_its_argv(fake: Any) -> None:
    """A list of strings was refused with an ``AttributeError`` from ``shlex``; it is the argv."""
    command, _ = fake("ok")
    argv = shlex.split(command)
    outcome = check("goofspiel", argv, players=2, examples=1, seed=0)
    assert outcome.divergence is not None and outcome.target.command == shlex.join(argv)


@pytest.mark.parametrize(
    ("arguments", "message"),
    [
        (["goofspiel", "-p", "3"], "players must be in 2..=2, got 3"),
        (["nosuch", "-p", "2"], "unknown game 'nosuch'"),
        (["goofspiel", "-p", "2", "-o", "num_cards=0"], "num_cards must be an int in 1..=60"),
        (["goofspiel", "-p", "2", "--map", "nosuch:X"], "Invalid value for --map"),
        (["goofspiel", "-p", "2", "--seed", "-1"], "Invalid value for '--seed'"),
        (["goofspiel", "-p", "2", "--seed", str(2**64)], "Invalid value for '--seed'"),
    ],
)
def test_cli_bad_arguments_are_usage_errors(fake: Any, arguments: list[str], message: str) -> None:
    """Bad arguments exited with status 1 (as a divergence does), or were accepted (``--seed -1``).

    docs/conformance.md promises 2 on a bad argument, as ``simulate`` does for the same ones.
    """
    command, pid_file = fake("ok")
    output = run_cli("conformance", *arguments, "--cmd", command, "-n", "1", exit_code=2)
    assert message in output and "Usage:" in output
    assert not pid_file.exists()


@pytest.mark.parametrize("weight", ["1e308", "1e-320", "5e-324", str(10**400), "1" + "0" * 5000])
def test_chance_weights_of_any_size_are_normalized(fake: Any, weight: str) -> None:
    """Weights of 1e308 overflowed when summed: a false divergence with probabilities 0.0.

    The documentation allows any positive weights; they are now scaled by the largest first.
    An integer of more than 4,300 digits was refused as "not JSON" (Python's default limit on
    the digits ``int()`` converts), where the documentation reads any integer exactly.
    """
    command, _ = fake(f"weight={weight}")  # our reference, every outcome with this weight
    outcome = check("goofspiel", command, players=2, options={"num_cards": 4}, examples=3, seed=0)
    assert outcome.ok, format_outcome(outcome)
    assert "chance_outcomes" in outcome.fields


def test_mixed_chance_weights_are_normalized_without_overflow() -> None:
    """Weights beyond a double's range (an int of 401 digits) among floats overflowed too."""
    from cardtable.conformance.runner import _probabilities

    assert _probabilities([1e308, 1e308, 5e307]) == pytest.approx([0.4, 0.4, 0.2])
    assert _probabilities([5e-324, 1e-323]) == pytest.approx([1 / 3, 2 / 3])
    assert _probabilities([10**400, 1e308]) == pytest.approx([1.0, 1e-92], rel=1e-12)
    assert _probabilities([10**400, 10**400, 1]) == [0.5, 0.5, 0.0]
    assert _probabilities([]) == []


@pytest.mark.parametrize("kind", ["under a file", "dangling symbolic link", "link to a file"])
def test_the_output_directory_is_checked_before_the_run(
    fake: Any, tmp_path: Path, kind: str
) -> None:
    """A bad ``--out-dir`` failed after the run, losing the finding in a traceback.

    ``NotADirectoryError`` for a path under a file, ``FileExistsError`` for a dangling symbolic
    link, both from ``write_reproducer``. It is now a usage error before anything starts (an
    ``InvalidOptionError`` from ``write_reproducer``).
    """
    (tmp_path / "file").write_text("", encoding="utf-8")
    out_dir = tmp_path / "file" / "sub"
    if "link" in kind:
        out_dir = tmp_path / "link"
        out_dir.symlink_to(tmp_path / ("missing" if kind == "dangling symbolic link" else "file"))
    command, pid_file = fake("ok")
    args = ["conformance", "goofspiel", "-p", "2", "--cmd", command, "--out-dir", str(out_dir)]
    output = run_cli(*args, exit_code=2)
    problem = "is a dangling symbolic link" if "dangling" in kind else "is not a directory"
    if kind == "link to a file":  # click's own check of the option comes first
        assert "Invalid value for '--out-dir'" in output and "is a file" in output
    else:
        assert "Invalid value for --out-dir: cannot write reproducers to" in output
        assert problem in output
    assert not pid_file.exists()
    with pytest.raises(InvalidOptionError, match=f"cannot write reproducers.*{problem}"):
        write_reproducer(Outcome(Target("goofspiel", 2, {}, command)), out_dir)
    (tmp_path / "new").mkdir()
    created = tmp_path / "new" / "a" / "b"  # missing directories are fine: created when written
    assert write_reproducer(Outcome(Target("goofspiel", 2, {}, command)), created).is_file()


def test_the_default_output_directory_is_not_checked_before_the_run(
    fake: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Without ``--out-dir`` the run goes ahead where it cannot write: a run that finds nothing
    writes nothing, and one that finds a divergence reports it and says that no reproducer was
    written (the default directory was refused before the run, as a given one is)."""
    from cardtable.conformance import reproducer

    def refuse(directory: Any) -> Path:
        raise InvalidOptionError("not writable")

    monkeypatch.setattr(reproducer, "check_out_dir", refuse)
    command, _pid_file = fake("ok")  # diverges at once
    output = run_cli(
        "conformance", "goofspiel", "-p", "2", "-n", "1", "--cmd", command, exit_code=1
    )
    assert "the implementation answers:" in output
    assert output.rstrip().endswith("no reproducer: not writable")


def test_a_reproducer_that_cannot_be_written_keeps_the_finding(
    fake: Any, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A write failing at the end (a full disk) was a traceback instead of the report."""
    command, _ = fake("ok")

    def full(self: Path, *args: Any, **kwargs: Any) -> int:
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(Path, "write_text", full)
    args = ["conformance", "goofspiel", "-p", "2", "--cmd", command, "--out-dir", str(tmp_path)]
    result = CliRunner().invoke(main, [*args, "--seed", "0"])
    assert isinstance(result.exception, SystemExit) and result.exit_code == 1, result.output
    assert "DIVERGENCE after 1 step\n" in result.output
    assert "no reproducer: cannot write the reproducer" in result.output
    assert "No space left on device" in result.output
    with pytest.raises(ConformanceError, match="cannot write the reproducer"):
        write_reproducer(Outcome(Target("goofspiel", 2, {}, command)), tmp_path)


# --- a variant held to a reference of its own --------------------------------------------------

SERVE = r"""
import importlib.util, json, sys
path, name = sys.argv[1].rsplit(":", 1)
spec = importlib.util.spec_from_file_location("served", path)
module = importlib.util.module_from_spec(spec)
spec.loader.exec_module(module)
game_class = getattr(module, name)
FIELDS = ["current_player", "is_terminal", "legal_actions", "chance_outcomes", "scores", "winners"]
state = None
for line in sys.stdin:
    request = json.loads(line)
    kind, rid = request["type"], request["id"]
    answer = {"type": "ok"}
    if kind == "hello":
        answer = {"type": "hello", "protocol": 1, "name": name,
                  "games": {"goofspiel": {"fields": FIELDS}}}
    elif kind == "new_game":
        state = game_class(players=request["players"], **request["options"]).new_state()
    elif kind == "apply":
        state.apply(request["action"])
    elif kind == "query":
        answer = {"type": "state", "current_player": state.current_player,
                  "is_terminal": state.is_terminal, "legal_actions": state.legal_actions(),
                  "chance_outcomes": state.chance_outcomes(), "scores": state.scores,
                  "winners": state.winners}
    print(json.dumps({"id": rid, **answer}), flush=True)
"""

FLOOR_SPLIT = '''

class FloorSplitState(GoofspielState):
    """The variant done wrong: half the point card rounded down."""

    def _reveal_and_score(self):
        if self.pending[0] == self.pending[1]:
            self.points[0] += self.point_card // 2
            self.points[1] += self.point_card // 2
        super()._reveal_and_score()


class FloorSplitGoofspiel(GoofspielGame):
    def _initial_state(self):
        return FloorSplitState(self)
'''


def test_cli_holds_an_implementation_to_a_variant_and_replays_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """``--reference`` names the variant (docs/testing.md's worked example, as a module).

    The reproducer did not record a variant tested by patching our registry, so that ``--replay``
    answered "OK: no divergence found" for a real bug; the report named the variant
    ``cardtable`` and cited the stock contract's rule. A file given by a relative path was
    recorded as typed, so that a replay from another directory could not load it.
    """
    (block,) = [
        b for b in find_blocks(ROOT / "docs" / "testing.md") if "class SplitTiesGoofspiel" in b.code
    ]
    variants = tmp_path / "split_ties.py"
    variants.write_text(block.code + FLOOR_SPLIT, encoding="utf-8")
    server = tmp_path / "serve.py"
    server.write_text(SERVE, encoding="utf-8")

    def serving(name: str) -> str:
        return shlex.join([sys.executable, str(server), f"{variants}:{name}"])

    monkeypatch.chdir(tmp_path)
    typed, reference = "split_ties.py:SplitTiesGoofspiel", f"{variants}:SplitTiesGoofspiel"
    args = ["conformance", "goofspiel", "-o", "num_cards=4", "-n", "30", "--seed", "0"]
    out = ["--out-dir", str(tmp_path / "out")]
    right = run_cli(*args, "--cmd", serving("SplitTiesGoofspiel"), "--reference", typed)
    assert f"(ours: the reference {reference})" in right and "OK: no divergence found" in right
    stock = run_cli(*args, *out, "--cmd", serving("SplitTiesGoofspiel"), exit_code=1)
    assert "scores: cardtable [0, 0], implementation [0.5, 0.5]" in stock
    assert "Goofspiel contract § Rules" in stock
    (tmp_path / "out").rename(tmp_path / "stock")
    wrong = run_cli(
        *args, *out, "--cmd", serving("FloorSplitGoofspiel"), "--reference", typed, exit_code=1
    )
    assert "scores: SplitTiesGoofspiel [0.5, 0.5], implementation [0, 0]" in wrong
    assert "SplitTiesGoofspiel answers:" in wrong and "cardtable answers:" not in wrong
    unwrapped = " ".join(wrong.split())
    assert f"those of the reference {reference}" in unwrapped and "Goofspiel contract" not in wrong
    (path,) = (tmp_path / "out").glob("conformance-goofspiel-*.json")
    assert json.loads(path.read_text(encoding="utf-8"))["reference"] == reference  # absolute
    monkeypatch.chdir(tmp_path / "stock")  # the replay runs in another directory,
    runner._load_reference.cache_clear()  # and in a new process, which has loaded nothing
    replayed = run_cli("conformance", "--replay", str(path), exit_code=1)
    assert "DIVERGENCE after 3 steps" in replayed and "SplitTiesGoofspiel [0.5, 0.5]" in replayed
    fixed = ["conformance", "--replay", str(path), "--cmd", serving("SplitTiesGoofspiel")]
    assert "OK: no divergence found" in run_cli(*fixed)
    # A reference that cannot be imported is a bad argument, told before anything starts.
    data = json.loads(path.read_text(encoding="utf-8"))
    data["reference"] = "no_such_module_here:SplitTiesGoofspiel"
    path.write_text(json.dumps(data), encoding="utf-8")
    refused = run_cli("conformance", "--replay", str(path), exit_code=2)
    assert "cannot load the reference 'no_such_module_here:SplitTiesGoofspiel'" in refused
    both = run_cli(
        *args, "--cmd", "true", "--reference", reference, "--backend", "rust", exit_code=2
    )
    assert "--reference and --backend exclude each other" in both


def another_game(**config: Any) -> Any:
    """A reference that makes another game than the one tested."""
    return cardtable.make("trafficars", players=2)


@pytest.mark.parametrize(
    ("reference", "message"),
    [
        ("no_such_module_here:Game", "cannot load the reference"),
        ("cardtable:__version__", "must be a game class or a factory"),
        ("tests.test_conformance:another_game", "must return a game of goofspiel"),
        (5, "reference must be None or a string"),
    ],
)
def test_bad_references_are_refused_before_anything_starts(reference: Any, message: str) -> None:
    with pytest.raises(InvalidOptionError, match=message):
        check("goofspiel", "false", players=2, reference=reference)


def test_a_reference_that_cannot_be_imported_is_told_both_forms() -> None:
    """The cardtable command's sys.path does not hold the current directory, so a module there
    is not found as MODULE:NAME: the message says where modules are looked for, and the other
    form."""
    with pytest.raises(InvalidOptionError) as info:
        check("goofspiel", "false", players=2, reference="split_ties_not_here:SplitTiesGoofspiel")
    message = str(info.value)
    assert "cannot load the reference 'split_ties_not_here:SplitTiesGoofspiel'" in message
    assert "MODULE:NAME, a module importable from sys.path" in message
    assert "does not look in the current directory: add it to PYTHONPATH" in message
    assert "or as FILE.py:NAME, a file path" in message


# --- an implementation that does not flush its answers -----------------------------------------

UNFLUSHED = r"""
import json, os, sys
out = os.fdopen(1, "w", buffering=1 << 16)  # block-buffered, whatever PYTHONUNBUFFERED says
for line in sys.stdin:
    request = json.loads(line)
    out.write(json.dumps({"id": request["id"], "type": "hello", "protocol": 1, "games": {}}) + "\n")
"""


def test_an_implementation_that_never_flushes_is_told_to(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Nothing came at all: the report asks about flushing, counts the time waited and writes
    no reproducer (it had an empty history and no fields, nothing to replay)."""
    from cardtable.conformance import harness

    monkeypatch.setattr(harness, "STARTUP_ALLOWANCE", 0.0)  # hello waits --timeout only
    script = tmp_path / "unflushed.py"
    script.write_text(UNFLUSHED, encoding="utf-8")
    command = shlex.join([sys.executable, str(script)])
    outcome = check("goofspiel", command, players=2, timeout=0.5)
    assert outcome.error is not None and outcome.error.kind == "timeout"
    assert (
        "nothing received at all: does the program flush its standard output after each line?"
        in (outcome.error.detail)
    )
    assert outcome.seconds >= 0.5  # the time waited, not 0.0
    out_dir = tmp_path / "out"
    args = ["conformance", "goofspiel", "--cmd", command, "--timeout", "0.5"]
    output = run_cli(*args, "--out-dir", str(out_dir), exit_code=1)
    assert "does the program flush" in output
    assert re.search(r"0 games, 0 steps in (0\.[5-9]|[1-9][0-9.]*) s", output)
    assert "reproducer" not in output and not list(tmp_path.glob("**/conformance-*.json"))


# --- contract sections ----------------------------------------------------------------------------


def _contract_headings(game_id: str) -> tuple[str, list[str]]:
    """A contract's title as reports cite it ("<H1 title> contract") and its section headings."""
    lines = (ROOT / "docs" / "games" / f"{game_id}.md").read_text(encoding="utf-8").splitlines()
    title = lines[0].removeprefix("# ").removesuffix(" — engine contract") + " contract"
    headings = [line.lstrip("#").strip() for line in lines if line.startswith("##")]
    # A heading may be cited without its parenthesised remark ("Flow and ids (the same ids as
    # OpenSpiel)" as "Flow and ids").
    return title, headings + [h.split(" (")[0] for h in headings]


@pytest.mark.parametrize("game_id", sorted(cardtable.observations.CONTRACT_SECTIONS))
def test_every_observation_key_points_into_a_real_section_of_its_contract(game_id: str) -> None:
    """Every observation key and answer field, in every phase a game passes through, is given a
    section of the game's contract, and every section cited is a heading of that contract."""
    section_of = cardtable.observations.CONTRACT_SECTIONS[game_id]
    title, headings = _contract_headings(game_id)
    info = cardtable.game_info(game_id)
    rng = random.Random(3)
    cited: set[str] = set()
    for players in sorted({info.min_players, info.max_players}):
        state = cardtable.make(game_id, players=players).new_state(seed=players)
        while True:
            observation = state.observation(0)
            for key in [*observation, *RULES_FIELDS]:
                section = section_of.section(key, observation)
                assert section, f"{game_id}: no section for {key!r} in {observation}"
                cited.update(section.split("; "))
            if state.is_terminal:
                break
            state.apply(rng.choice(state.legal_actions()))
    for key in RULES_FIELDS:  # no observation at hand: a section or None, never an error
        assert section_of.section(key, {}) != ""
    ours = [part for part in cited if part.startswith(f"{title} § ")]
    assert ours, f"{game_id}: no section cites {title!r}"
    for part in ours:
        cite = part.removeprefix(f"{title} § ")
        assert any(cite == h or cite.startswith((f"{h} (", f"{h},")) for h in headings), (
            f"{game_id}: {part!r} names no heading of docs/games/{game_id}.md"
        )
