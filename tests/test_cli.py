"""The command line: listing games, simulating with output files, playing a seat."""

from __future__ import annotations

import csv
import dataclasses
import itertools
import json
import os
import re
import shlex
import subprocess
import sys
from pathlib import Path
from typing import Any

import click
import pyarrow.parquet as pq
import pytest
from click.testing import CliRunner

import cardtable
from cardtable.cli import main
from tests.command_line import run_cli


def test_games_lists_every_game_and_option() -> None:
    output = run_cli("games")
    for info in cardtable.games():
        assert info.id in output
        for o in info.options:
            assert o.name in output


def test_games_shows_the_games_named() -> None:
    output = run_cli("games", "goofspiel", "trafficars")
    assert "goofspiel" in output and "num_cards" in output and "too_low" in output
    assert "turn_the_tide" not in output and "expansion_tentacles" not in output
    refused = run_cli("games", "nogame", exit_code=2)
    assert "unknown game 'nogame'; registered games: deep_regrets" in refused
    assert cardtable.game_info("goofspiel").max_players == 2


def test_games_reads_as_json_names_near_misses_and_which_scores_win() -> None:
    """``games`` had no machine-readable form, never said that Trafficars' lowest score wins,
    printed a game named twice twice, and met a misspelt id with the bare list of games."""
    listed = json.loads(run_cli("games", "--json"))
    expected = [dataclasses.asdict(info) for info in cardtable.games()]
    assert listed == json.loads(json.dumps(expected))  # tuples read back as lists
    (one,) = json.loads(run_cli("games", "--json", "goofspiel", "goofspiel"))
    assert one["id"] == "goofspiel" and one["higher_score_is_better"] is True
    assert "trafficars  (2-5 players, lowest score wins)" in run_cli("games", "trafficars")
    assert run_cli("games", "goofspiel", "goofspiel").count("goofspiel  (2 players") == 1
    near = run_cli("games", "goofspeil", exit_code=2)
    assert "unknown game 'goofspeil' (did you mean goofspiel?)" in near


def test_games_never_cuts_a_bot_usage_when_the_output_is_no_terminal() -> None:
    """Piped, the output was folded at 80 columns: "reward=win|m" / "argin"."""
    output = run_cli("games")
    lines = output.splitlines()
    for info in cardtable.games():
        line = f"bots: {', '.join(info.bot_usages)}"
        assert line in lines, f"{info.id}: {line!r} is not one line"


@pytest.mark.parametrize(
    ("game_id", "words"),
    [("trafficars", "final penalty cards (fewest wins)"), ("goofspiel", "final score")],
)
def test_simulate_plot_says_which_way_scores_point(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, game_id: str, words: str
) -> None:
    """Trafficars counts penalty cards (the fewest win); the axis only said "final score"."""
    import matplotlib

    monkeypatch.setitem(matplotlib.rcParams, "svg.fonttype", "none")  # text stays text
    plot = tmp_path / "scores.svg"
    run_cli("simulate", game_id, "-p", "2", "-n", "50", "--no-progress", "--plot", str(plot))
    labels = re.findall(r">(final [^<]*)<", plot.read_text())
    assert labels == [words]


def test_simulate_writes_parquet_and_plot(tmp_path: Path) -> None:
    out, plot = tmp_path / "r.parquet", tmp_path / "scores.png"
    output = run_cli(
        "simulate",
        "turn_the_tide",
        "--players",
        "4",
        "--games",
        "2000",
        "--bots",
        "greedy,random,random,random",
        "--seed",
        "1",
        "--threads",
        "2",
        "--out",
        str(out),
        "--plot",
        str(plot),
        "--no-progress",
        "-o",
        "rounds=2",
        "-o",
        "recheck_after_elimination=false",
    )
    assert "greedy" in output and "2,000 games" in output
    assert pq.read_table(out).num_rows == 2000
    assert plot.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_simulate_reports_bad_input_cleanly() -> None:
    runner = CliRunner()
    for args in (
        ["simulate", "chess", "-p", "2"],
        ["simulate", "turn_the_tide", "-p", "2"],
        ["simulate", "turn_the_tide", "-p", "4", "-b", "random,nope,random,random"],
        ["simulate", "turn_the_tide", "-p", "4", "-o", "nonsense=1"],
        ["simulate", "turn_the_tide", "-p", "4", "-o", "rounds"],
        ["simulate", "turn_the_tide", "-p", "4", "--summary-only", "--out", "x.parquet"],
    ):
        result = runner.invoke(main, args)
        assert result.exit_code != 0, args
        assert "Traceback" not in result.output, result.output
        assert "Error" in result.output


def _every_id(times: int, ids: int = 64) -> str:
    """Input for ``play`` that always reaches a legal move: every action id in turn, ``times``
    over (moves are typed by their action ids; a number that is not one of them asks again)."""
    return "".join(f"{a}\n" for a in range(ids)) * times


def test_play_a_seat_against_bots() -> None:
    output = run_cli(
        "play", "turn_the_tide", "--players", "3", "--seat", "1", "--seed", "3", input=_every_id(60)
    )
    assert "your move, seat 1" in output
    assert "hand" in output
    assert "the game is over" in output and "final scores" in output


@pytest.mark.parametrize(
    ("game_id", "players"), [("turn_the_tide", 3), ("trafficars", 3), ("goofspiel", 2)]
)
def test_play_names_every_card_played_face_down_once_the_hand_turns_it_up(
    game_id: str, players: int
) -> None:
    # The seat moving first plays face down to the person in seat 1; when the hand resolves the
    # card is public, and the narration said only "a card" until then.
    args = ["play", game_id, "--players", str(players), "--seat", "1", "--seed", "5"]
    output = run_cli(*args, input=_every_id(80, ids=110))
    hidden = re.findall(r"seat (\d) \(\w+\) played a card face down", output)
    # A card by its number, a Trafficars special by its kind and id ("had played police (57)").
    card = r"(?:\d+|(?:trailer \d+|ambulance|police|tow truck) \(\d+\))"
    shown = re.findall(rf"seat (\d) \(\w+\) had (?:played|bid) {card}", output)
    assert hidden and sorted(hidden) == sorted(shown)


def test_play_tables_the_scores_only_when_they_changed() -> None:
    # Turn the Tide scores a round at its end: the hands before it get a one-line close.
    output = run_cli(
        "play", "turn_the_tide", "--players", "3", "--seat", "0", "--seed", "3",
        input=_every_id(60),
    )  # fmt: skip
    closes = re.findall(r"round (\d+), hand \d+ is over( *\n *┏)?", output)
    rounds = [int(r) for r, _ in closes]
    tabled = [bool(t) for _, t in closes]
    # A hand closing its round (the next close is of another round) scores it: a table; the
    # hands before it: none.
    assert tabled[:-1] == [a != b for a, b in itertools.pairwise(rounds)]
    assert False in tabled and True in tabled


def test_play_narrates_the_last_goofspiel_turn_that_plays_itself() -> None:
    output = run_cli("play", "goofspiel", "--seat", "0", "--seed", "2", input=_every_id(20, 13))
    assert re.search(
        r"turn 13 played itself \(one card each\): point card \d+, you \d+, seat 1", output
    )
    assert "turn 14" not in output and "all 13 turns played" in output


def _stopped_cli(
    args: list[str], signum: int, cwd: Path | None = None, stderr: Any = subprocess.STDOUT
) -> subprocess.CompletedProcess[str]:
    """``cardtable ARGS`` in a child process, sent ``signum`` two seconds after its run started.

    Its standard error is mixed into the standard output returned, or goes to ``stderr``.

    The child imports the CLI, says so, then runs it: the signal is sent once the run has
    started, not while a loaded machine is still importing (a Ctrl-C during start-up is plain
    Python's business).
    """
    import signal
    import time

    script = (
        "import sys, cardtable.cli; print('ready', flush=True); "
        f"sys.argv = ['cardtable', *{args!r}]; cardtable.cli.main()"
    )
    proc = subprocess.Popen(
        [sys.executable, "-c", script],
        stdout=subprocess.PIPE,
        stderr=stderr,
        text=True,
        cwd=cwd,
        preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL),
    )
    assert proc.stdout is not None
    assert proc.stdout.readline().strip() == "ready"
    time.sleep(2)
    proc.send_signal(signum)
    out, _ = proc.communicate(timeout=120)
    return subprocess.CompletedProcess(proc.args, proc.returncode, out)


def test_ctrl_c_stops_cleanly_with_the_partial_summary() -> None:
    import signal

    args = ["simulate", "turn_the_tide", "-p", "4", "-n", "1000000000", "--summary-only"]
    run = _stopped_cli([*args, "--no-progress"], signal.SIGINT)
    out = run.stdout
    assert run.returncode == 130, out  # a partial run, told apart from a whole one
    assert "interrupted:" in out
    # The summary of the games completed, or (on a loaded machine, interrupted before the first
    # game was done) the word that there is none.
    assert "(interrupted)" in out or "no games were completed" in out
    assert "Traceback" not in out


def test_ctrl_c_stops_a_study_with_the_status_of_a_stopped_run() -> None:
    """A study stopped by Ctrl-C exited with status 1 ("Error: interrupted"), as a failure does;
    it now exits with 130, as ``cardtable simulate`` does."""
    import signal

    args = ["tournament", "goofspiel", "-p", "2", "-b", "greedy,random", "-n", "100000000"]
    run = _stopped_cli([*args, "--no-progress"], signal.SIGINT)
    assert run.returncode == 130, run.stdout
    assert "interrupted: the study was stopped" in run.stdout and "Traceback" not in run.stdout


def test_simulate_plays_a_range_of_the_run_with_first_game(tmp_path: Path) -> None:
    out = tmp_path / "part.csv"
    text = run_cli(*_simulate("--first-game", "100", "--out", str(out)))
    assert "50 games 100–149" in text
    rows = out.read_text(encoding="utf-8").splitlines()
    assert rows[1].startswith("100,") and rows[-1].startswith("149,")
    whole = cardtable.simulate("goofspiel", players=2, games=150, progress=False)
    assert whole.scores is not None
    assert [int(x) for x in rows[1].split(",")[2:4]] == [int(x) for x in whole.scores[100]]


def test_summary_joins_the_saved_parts_of_a_run(tmp_path: Path) -> None:
    pytest.importorskip("pyarrow")
    parts = [tmp_path / "a.parquet", tmp_path / "b.parquet"]
    run_cli(*_simulate("-n", "30", "--out", str(parts[0])))
    run_cli(*_simulate("-n", "20", "--first-game", "30", "--out", str(parts[1])))
    whole = run_cli(*_simulate("-n", "50"))
    assert run_cli("summary", str(parts[1]), str(parts[0])) == whole
    assert "games 30–49" in run_cli("summary", str(parts[1]))
    text = run_cli("summary", str(parts[0]), str(parts[0]), exit_code=1)
    assert "the ranges must follow each other" in text
    (tmp_path / "x.parquet").write_text("not parquet", encoding="utf-8")
    assert "cannot read" in run_cli("summary", str(tmp_path / "x.parquet"), exit_code=1)
    assert "does not exist" in run_cli("summary", str(tmp_path / "none.parquet"), exit_code=2)


def test_resume_finishes_a_saved_run_that_was_stopped(tmp_path: Path) -> None:
    pytest.importorskip("pyarrow")
    calls: list[int] = []

    def stop(done: int, total: int) -> bool:
        calls.append(done)
        return False  # at the first report, 0.1 s in: seconds before the run's end

    kw: dict[str, Any] = {"players": 3, "games": 200_000, "seed": 4, "bots": ["greedy"] * 3}
    # One thread: the run takes seconds whatever the machine's cores.
    part = cardtable.simulate("turn_the_tide", progress=stop, threads=1, **kw)
    assert part.interrupted
    saved = tmp_path / "part.parquet"
    part.to_parquet(saved)
    text = run_cli("resume", str(saved), "--out", str(saved), "--no-progress")
    assert f"wrote {saved}" in text and "interrupted" not in text
    whole = cardtable.simulate("turn_the_tide", progress=False, **kw)
    assert cardtable.SimulationResult.from_parquet(saved) == whole
    csv = tmp_path / "whole.csv"
    run_cli("resume", str(saved), "--out", str(csv), "--no-progress")  # nothing left to play
    assert len(csv.read_text(encoding="utf-8").splitlines()) == 200_001
    assert "--out" in run_cli("resume", str(saved), exit_code=2)
    assert ".txt" in run_cli("resume", str(saved), "--out", str(tmp_path / "r.txt"), exit_code=2)


def test_summary_says_it_reads_the_parquet_files_simulate_writes(tmp_path: Path) -> None:
    pytest.importorskip("pyarrow")
    saved = tmp_path / "mem.csv"
    run_cli(*_simulate("-n", "5", "--out", str(saved)))
    text = " ".join(run_cli("summary", str(saved), exit_code=1).split())
    assert (
        f"cannot read {saved}: it is not a Parquet file; summary reads the Parquet files that "
        "simulate --out FILE.parquet writes"
    ) in text
    assert "magic bytes" not in text
    text = " ".join(run_cli("resume", str(saved), "--out", str(saved), exit_code=1).split())
    assert "it is not a Parquet file; resume reads the Parquet files that simulate" in text


def test_summary_and_resume_refuse_a_corrupt_run_in_one_line(tmp_path: Path) -> None:
    """A saved run with a bad column, options nested too deep for Python's JSON reader or a range
    too large to load ended the command with a traceback (``TypeError``, ``RecursionError``,
    NumPy's ``MemoryError``)."""
    pa = pytest.importorskip("pyarrow")
    table = cardtable.simulate("goofspiel", players=2, games=5, progress=False).to_arrow()
    meta = {k.decode(): v.decode() for k, v in table.schema.metadata.items()}
    cases = [
        (
            table.set_column(table.schema.get_field_index("win_0"), "win_0", pa.array(["x"] * 5)),
            "column win_0 is of type string, not booleans",
        ),
        (
            table.replace_schema_metadata({**meta, "options": "[" * 100_000 + "]" * 100_000}),
            "options is JSON nested too deep to read",
        ),
        (
            table.replace_schema_metadata(
                {**meta, "games_requested": str(10**15), "interrupted": "true"}
            ),
            f"the per-game results of {10**15} games (the table's games_requested) would not "
            "fit in memory",
        ),
    ]
    for i, (bad, message) in enumerate(cases):
        path = tmp_path / f"bad{i}.parquet"
        pq.write_table(bad, path)
        for args in (
            ["summary", str(path)],
            ["resume", str(path), "--out", str(tmp_path / "o.csv")],
        ):
            result = CliRunner().invoke(main, args)
            assert result.exit_code == 1 and isinstance(result.exception, SystemExit), args
            text = " ".join(result.output.split())
            assert text.startswith(f"Error: cannot read {path}: ") and message in text, text
    assert not (tmp_path / "o.csv").exists()


def _simulate(*args: str) -> list[str]:
    return ["simulate", "goofspiel", "-p", "2", "-n", "50", "--no-progress", *args]


def _fails_before_the_run(args: list[str], *expected: str) -> str:
    output = run_cli(*args, exit_code=2)  # click's usage errors
    assert "Traceback" not in output
    assert "Win rate" not in output and "win rate" not in output  # no summary
    for text in expected:
        assert text in output, output
    return output


@pytest.mark.parametrize(
    ("suffix", "kind"), [(".parquet", "parquet"), (".csv", "csv"), (".jsonl", "jsonl")]
)
def test_simulate_chooses_the_format_from_the_extension(
    tmp_path: Path, suffix: str, kind: str
) -> None:
    out = tmp_path / f"r{suffix}"
    run_cli(*_simulate("--seed", "4", "--out", str(out)))
    expected = cardtable.simulate("goofspiel", players=2, games=50, seed=4, progress=False)
    assert expected.scores is not None
    if kind == "parquet":
        table = pq.read_table(out)
        assert table.column("score_1").to_pylist() == expected.scores[:, 1].tolist()
        meta = table.schema.metadata
        assert json.loads(meta[b"options"]) == {"num_cards": 13}
    elif kind == "csv":
        with out.open(newline="") as f:
            rows = list(csv.DictReader(f))
        assert [int(r["score_1"]) for r in rows] == expected.scores[:, 1].tolist()
        assert rows[0].keys() == {"game", "length", "score_0", "score_1", "win_0", "win_1"}
    else:
        rows = [json.loads(line) for line in out.read_text().splitlines()]
        assert [r["score_0"] for r in rows] == expected.scores[:, 0].tolist()
        assert isinstance(rows[0]["win_0"], bool) and rows[-1]["game"] == 49


def test_simulate_refuses_an_unknown_extension(tmp_path: Path) -> None:
    out = tmp_path / "r.txt"
    _fails_before_the_run(_simulate("--out", str(out)), "--out", ".parquet", ".csv", ".jsonl")
    assert not out.exists()


def test_simulate_checks_output_paths_before_the_run(tmp_path: Path) -> None:
    missing = tmp_path / "no" / "such" / "dir"
    _fails_before_the_run(_simulate("--out", str(missing / "r.csv")), "--out", "does not exist")
    _fails_before_the_run(_simulate("--plot", str(missing / "s.png")), "--plot", "does not exist")
    _fails_before_the_run(_simulate("--plot", str(tmp_path / "s.gif")), "--plot", ".png")
    same = str(tmp_path / "x.csv")
    assert "--plot" in run_cli(*_simulate("--out", same, "--plot", same), exit_code=2)
    # A name the file system refuses, and a link to a missing place, used to fail only when the
    # file was written (a traceback after the whole run).
    _fails_before_the_run(_simulate("--out", str(tmp_path / ("a" * 300 + ".csv"))), "too long")
    link = tmp_path / "link.csv"
    link.symlink_to(missing / "r.csv")
    _fails_before_the_run(_simulate("--out", str(link)), "--out", "does not exist")


@pytest.mark.parametrize(
    ("module", "args", "extra"),
    [
        ("pyarrow", ["--out", "r.parquet"], "cardtable[arrow]"),
        ("matplotlib", ["--plot", "s.png"], "cardtable[plot]"),
    ],
)
def test_simulate_names_a_missing_extra_before_the_run(
    tmp_path: Path, module: str, args: list[str], extra: str
) -> None:
    # A child process in which the extra's module cannot be imported.
    code = (
        "import importlib.util, sys\n"
        "real = importlib.util.find_spec\n"
        f"importlib.util.find_spec = lambda n, *a: None if n == {module!r} else real(n, *a)\n"
        "from cardtable.cli import main\n"
        "main()\n"
    )
    run = subprocess.run(
        [sys.executable, "-c", code, *_simulate(*args)],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert run.returncode == 2, run.stdout + run.stderr
    assert extra in run.stderr and "Traceback" not in run.stderr
    assert run.stdout == ""  # nothing was simulated
    assert not any(tmp_path.iterdir())


def test_simulate_refuses_zero_games_and_bad_numbers() -> None:
    _fails_before_the_run(_simulate("--games", "0"), "--games")
    _fails_before_the_run(_simulate("--threads", "0"), "--threads")
    _fails_before_the_run(_simulate("--seed", "-1"), "--seed")


def test_simulate_names_an_unknown_bot_before_counting() -> None:
    output = _fails_before_the_run(
        ["simulate", "turn_the_tide", "-p", "4", "-b", "nosuchbot"], "nosuchbot", "greedy"
    )
    assert "bots given" not in output
    _fails_before_the_run(
        ["simulate", "turn_the_tide", "-p", "4", "-b", "greedy,random"],
        "--players 4 means 4 seats, one bot per seat; got 2",
    )
    _fails_before_the_run(
        ["simulate", "trafficars_memory", "-p", "2", "-b", "memory,forgetful:2"], "forgetful"
    )


def test_simulate_accepts_a_parametrized_bot() -> None:
    args = ["simulate", "trafficars_memory", "-p", "2", "-n", "20", "--no-progress"]
    assert "forgetful:0.5" in run_cli(*args, "-b", "memory,forgetful:0.5")


def test_games_spells_player_counts_and_games_without_options(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Every registered game has options now, so a game without any is made up for the check."""
    real = cardtable.games

    def games() -> list[cardtable.GameInfo]:
        listed = real()
        return [
            dataclasses.replace(g, options=()) if g.id == "trafficars_overtaking" else g
            for g in listed
        ]

    monkeypatch.setattr(cardtable, "games", games)
    output = run_cli("games")
    assert "2-2 players" not in output
    assert "goofspiel  (2 players" in output
    assert "forgetful[:P]" in output
    assert "bots: random, greedy[:N]," in output  # trafficars
    assert "bots: random, greedy, " in output  # the other games' greedy takes no parameter
    lines = output.splitlines()
    at = next(i for i, line in enumerate(lines) if line.startswith("trafficars_overtaking"))
    assert lines[at + 1].strip() == "no options"


def test_the_command_line_works_without_the_analysis_extra(tmp_path: Path) -> None:
    # A child process in which SciPy (extra 'analysis') cannot be imported.
    code = (
        "import importlib.abc, sys\n"
        "class Blocked(importlib.abc.MetaPathFinder):\n"
        "    def find_spec(self, name, path=None, target=None):\n"
        "        if name.split('.')[0] == 'scipy':\n"
        "            raise ModuleNotFoundError(f'No module named {name!r}', name=name)\n"
        "sys.meta_path.insert(0, Blocked())\n"
        "import importlib.util\n"
        "real = importlib.util.find_spec\n"
        "importlib.util.find_spec = lambda n, *a: None if n == 'scipy' else real(n, *a)\n"
        "from cardtable.cli import main\n"
        "main()\n"
    )

    def run(*args: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run(
            [sys.executable, "-c", code, *args],
            cwd=tmp_path,
            capture_output=True,
            text=True,
            timeout=120,
            check=False,
        )

    listing = run("games")
    assert listing.returncode == 0, listing.stderr
    assert "goofspiel" in listing.stdout
    study = run("balance", "turn_the_tide", "--players", "4", "--games", "10", "--json", "b.json")
    assert study.returncode == 2, study.stdout + study.stderr
    assert "cardtable balance needs scipy" in study.stderr and "cardtable[analysis]" in (
        study.stderr
    )
    assert "Traceback" not in study.stderr and not any(tmp_path.iterdir())
    # A study's help is all there (it printed only that the extra was needed: the commands were
    # stand-ins, since their module was inside cardtable.analysis).
    shown = run("tournament", "--help")
    assert shown.returncode == 0, shown.stderr
    assert "--rating-bootstrap" in shown.stdout and "default: 100" in shown.stdout


@pytest.mark.parametrize("depth", [64, 100, 5000, 100_000])
def test_an_option_nested_at_any_depth_is_a_usage_error(depth: int) -> None:
    """json.loads recursed on deep ``-o`` values: a RecursionError instead of the depth limit."""
    for value in ("[" * depth + "]" * depth, '{"a":' * depth + "1" + "}" * depth):
        args = _simulate("-o", f"num_cards={value}")
        _fails_before_the_run(args, "num_cards", "nested deeper than 64 levels")


@pytest.mark.parametrize("value", ["NaN", "Infinity", "-Infinity", "[1, NaN]"])
def test_an_option_that_is_not_json_is_named(value: str) -> None:
    """``-o num_cards=NaN`` (read as a float by json.loads) said only "not JSON-compatible: NaN is
    not a finite number", naming neither the game nor the option."""
    output = _fails_before_the_run(_simulate("-o", f"num_cards={value}"))
    assert "Error: goofspiel: option num_cards: not JSON-compatible: " in output
    assert "is not a finite number" in output


def test_the_shared_option_reader_is_safe_at_any_depth() -> None:
    """``sweep --grid`` and every command with ``-o`` read values through these two functions."""
    from cardtable._cli_options import parse_options, parse_value

    deep = "[" * 10**6 + "]" * 10**6
    for read in (lambda: parse_value(deep), lambda: parse_options((f"lanes={deep}",))):
        with pytest.raises(click.BadParameter, match="nested deeper than 64 levels"):
            read()
    assert parse_value("[" * 63 + "]" * 63) == json.loads("[" * 63 + "]" * 63)  # the engine's call
    assert parse_value('["' + "[" * 100 + '"]') == ["[" * 100]  # brackets in a string
    assert parse_value("[[[ not json") == "[[[ not json"
    with pytest.raises(click.BadParameter, match="digits"):
        parse_value("1" * 5000)  # a ValueError of int(), not a JSONDecodeError


def test_an_option_given_twice_is_refused() -> None:
    _fails_before_the_run(
        _simulate("-o", "num_cards=5", "-o", " num_cards=7"), "'num_cards' given twice"
    )
    run_cli(*_simulate("-o", "num_cards=5"))


def test_the_progress_bar_goes_to_standard_error() -> None:
    result = CliRunner().invoke(main, ["simulate", "goofspiel", "-p", "2", "-n", "10"])
    assert result.exit_code == 0, result.output
    assert "simulating" not in result.stdout
    assert "simulating" in result.stderr and "10/10" in result.stderr
    assert "goofspiel, 2 players, 10 games" in result.stdout


def _inline_simulate_examples() -> list[tuple[str, str]]:
    root = Path(__file__).resolve().parent.parent
    found = []
    for page in [root / "README.md", *sorted((root / "docs").glob("*.md"))]:
        text = page.read_text(encoding="utf-8").replace("\n", " ")
        found += [(page.name, m) for m in re.findall(r"`cardtable (simulate [^`]+)`", text)]
    return found


@pytest.mark.parametrize(("page", "example"), _inline_simulate_examples())
def test_the_inline_simulate_examples_of_the_docs_run(
    page: str, example: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """docs/search.md showed a ``simulate`` without ``--players``; shortened to two games here, and
    run in a scratch folder, since an example may write its ``--out`` file."""
    monkeypatch.chdir(tmp_path)
    assert "2 games" in run_cli(*shlex.split(example), "-n", "2", "--no-progress"), page


def test_search_md_shows_its_simulate_example() -> None:
    assert any(page == "search.md" for page, _ in _inline_simulate_examples())


def test_play_help_names_the_default_bot_of_every_game() -> None:
    help_text = " ".join(run_cli("play", "--help").split())
    assert "(default: greedy)" not in help_text
    assert "greedy, else its first own bot, e.g. memory in trafficars_memory" in help_text
    output = run_cli("play", "trafficars_memory", "-p", "3", "--seed", "1", input=_every_id(300))
    assert "seat 1 memory, seat 2 memory" in " ".join(output.split())


def test_play_refuses_bad_input_as_usage_errors() -> None:
    play = ["play", "turn_the_tide", "-p", "3"]
    for args, expected in (
        (["play", "chess", "-p", "3"], "unknown game"),
        (["play", "turn_the_tide", "-p", "9"], "players"),
        ([*play, "--seed", "-1"], "--seed"),
        ([*play, "--seed", str(2**64)], "--seed"),
        ([*play, "-b", "greedy,nosuchbot"], "nosuchbot"),
        ([*play, "-b", "greedy"], "give 2 bots"),
        ([*play, "-o", "rounds=1", "-o", "rounds=2"], "given twice"),
    ):
        output = run_cli(*args, exit_code=2, input="0\n")
        assert expected in output and "Traceback" not in output, args


@pytest.mark.parametrize("key", ["players", "game_id", "backend"])
def test_every_command_refuses_make_keywords_as_game_options(key: str) -> None:
    """``-o players=3`` went on to ``make(..., players=2, players=3)``: a TypeError traceback."""
    for command in (
        ["simulate", "goofspiel", "-n", "2"],
        ["play", "goofspiel"],
        ["replay", "goofspiel", "--out", "unwritten.html"],
        ["conformance", "goofspiel", "--cmd", "true"],
        ["balance", "goofspiel", "-p", "2", "-n", "2"],
    ):
        output = run_cli(*command, "-o", f"{key}=2", exit_code=2, input="")
        assert f"{key} is not a game option: it is an argument of the command" in output, command
        assert "Traceback" not in output


def test_simulate_refuses_counts_beyond_the_library_bounds_as_usage_errors() -> None:
    _fails_before_the_run(_simulate("--threads", "1025"), "--threads", "1024")
    _fails_before_the_run(_simulate("--games", str(2**64)), "--games")
    _fails_before_the_run(_simulate("--games", str(10**11)), "--summary-only", "fit in memory")


# --- Failed writes: a one-line error, no traceback, no half-written file ------------------------
_NO_DEV_FULL = pytest.mark.skipif(not Path("/dev/full").exists(), reason="needs /dev/full")
_BALANCE = ["balance", "goofspiel", "-p", "2", "-n", "4", "--no-progress"]
_SIMULATE = ["simulate", "goofspiel", "-p", "2", "-n", "50", "--no-progress"]
_TOURNAMENT = ["tournament", "goofspiel", "-p", "2", "-b", "greedy,random", "-n", "2"]


def _shell(command: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    """Runs ``command`` (with ``cardtable`` standing for this interpreter's CLI) in bash."""
    cli = f"{shlex.quote(sys.executable)} -m cardtable"
    return subprocess.run(
        ["bash", "-c", command.replace("cardtable", cli)],
        capture_output=True,
        text=True,
        cwd=cwd,
        timeout=120,
    )


def _failed_cleanly(run: subprocess.CompletedProcess[str], *expected: str) -> None:
    assert run.returncode == 1, run.stdout + run.stderr
    assert "Traceback" not in run.stderr and "Exception ignored" not in run.stderr, run.stderr
    assert run.stderr.startswith("Error: could not write "), run.stderr
    for text in expected:
        assert text in run.stderr


@_NO_DEV_FULL
@pytest.mark.parametrize(
    ("args", "name"),
    [
        ([*_SIMULATE, "--out"], "full.csv"),
        ([*_SIMULATE, "--out"], "full.jsonl"),
        ([*_SIMULATE, "--out"], "full.parquet"),
        ([*_SIMULATE, "--plot"], "full.png"),
        ([*_BALANCE, "--json"], "full.json"),
        ([*_BALANCE, "--parquet"], "full.parquet"),
        ([*_BALANCE, "--report"], "full.html"),
        ([*_TOURNAMENT, "--no-progress", "--report"], "full.html"),
        (["replay", "goofspiel", "-p", "2", "--out"], "full.html"),
    ],
)
def test_a_full_disk_is_a_one_line_error(tmp_path: Path, args: list[str], name: str) -> None:
    (tmp_path / name).symlink_to("/dev/full")
    command = " ".join(shlex.quote(a) for a in ["cardtable", *args, name])
    _failed_cleanly(_shell(command, tmp_path), f"could not write {name}: No space left")
    assert (tmp_path / name).is_symlink()  # the link is not replaced


@_NO_DEV_FULL
def test_a_failed_write_keeps_the_summary(tmp_path: Path) -> None:
    """The summary came after the files, so a file that could not be written lost the whole
    run's summary too."""
    (tmp_path / "full.csv").symlink_to("/dev/full")
    run = _shell("cardtable " + " ".join(_SIMULATE) + " --out full.csv", tmp_path)
    _failed_cleanly(run, "could not write full.csv: No space left")
    assert "goofspiel, 2 players, 50 games" in run.stdout and "win rate" in run.stdout


@_NO_DEV_FULL
@pytest.mark.parametrize(
    ("args", "first", "printed"),
    [
        ([*_SIMULATE, "--out", "ok.csv", "--plot", "full.png"], "ok.csv", "win rate"),
        ([*_BALANCE, "--json", "ok.json", "--report", "full.png"], "ok.json", "took "),
        ([*_BALANCE, "--json", "-", "--report", "full.png"], None, '"game_id": "goofspiel"'),
    ],
    ids=["simulate", "balance", "balance-json-to-stdout"],
)
def test_a_failed_write_still_names_the_files_written_before_it(
    tmp_path: Path, args: list[str], first: str | None, printed: str
) -> None:
    """The error named the file that failed, but not the ones written before it, and a study
    printed neither its summary nor its JSON: the results were on disk, unannounced."""
    (tmp_path / "full.png").symlink_to("/dev/full")
    run = _shell(" ".join(shlex.quote(a) for a in ["cardtable", *args]), tmp_path)
    _failed_cleanly(run, "could not write full.png: No space left")
    assert printed in run.stdout
    if first is not None:
        assert f"wrote {first}" in run.stdout and (tmp_path / first).stat().st_size > 0


@pytest.mark.skipif(not Path("/proc/self").is_dir(), reason="needs /proc")
@pytest.mark.parametrize(
    "args",
    [[*_SIMULATE, "-n", "100000000"], [*_BALANCE, "-n", "100000"]],
    ids=["simulate", "balance"],
)
def test_an_output_the_file_system_refuses_is_refused_before_the_run(args: list[str]) -> None:
    """``/proc`` takes no new file, but ``os.access`` says it is writable to root: the whole run
    was played (a hundred million games), and then lost on writing."""
    option, path = ("--out", "/proc/x.csv") if args[0] == "simulate" else ("--json", "/proc/x.json")
    output = run_cli(*args, option, path, exit_code=2)
    assert f"cannot write {path}" in output


def test_first_game_beyond_the_last_game_number_is_a_usage_error() -> None:
    """It was an engine error (status 1, no usage line) naming ``first_game``."""
    top = 2**64 - 1 - 50
    assert "50 games" in run_cli(*_SIMULATE, "--first-game", str(top))
    output = run_cli(*_SIMULATE, "--first-game", str(top + 1), exit_code=2)
    assert "Invalid value for --first-game" in output and f"at most {top:,}" in output


def test_sigterm_stops_a_run_like_ctrl_c_and_keeps_its_games(tmp_path: Path) -> None:
    """SIGTERM (a batch system's time limit, say) first killed the CLI where it stood, leaving a
    temporary file beside its target; then it unwound the command and lost the whole run. It now
    stops the games as Ctrl-C does: the games completed are summarized and written whole (to
    ``resume`` later), and the status is 143, nothing else left behind."""
    import signal

    args = ["simulate", "goofspiel", "-n", "1000000000", "--no-progress", "--out", "big.csv"]
    run = _stopped_cli(args, signal.SIGTERM, cwd=tmp_path)
    assert run.returncode == 143, run.stdout
    assert "Traceback" not in run.stdout and "stopped by SIGTERM" in run.stdout
    assert [p.name for p in tmp_path.iterdir()] == ["big.csv"]
    rows = (tmp_path / "big.csv").read_text(encoding="utf-8").splitlines()
    assert f"interrupted: {len(rows) - 1:,} of 1,000,000,000 games completed" in run.stdout


@_NO_DEV_FULL
@pytest.mark.parametrize(
    "command",
    [
        "cardtable games",
        "cardtable " + " ".join(_SIMULATE),
        # click prints these itself: they ended in a traceback.
        "cardtable --help",
        "cardtable --version",
        "cardtable simulate --help",
    ],
)
def test_a_full_standard_output_is_a_one_line_error(tmp_path: Path, command: str) -> None:
    _failed_cleanly(_shell(command + " > /dev/full", tmp_path), "standard output")


@_NO_DEV_FULL
def test_a_message_standard_error_cannot_take_is_dropped() -> None:
    """``interrupted: ...`` goes to standard error. When that could not be written (a full disk),
    it was reported as a failure to write standard output, whose rest was dropped: the summary
    of the games completed was lost and the run ended in a traceback with status 1."""
    import signal

    args = ["simulate", "goofspiel", "-n", "1000000000", "--summary-only", "--no-progress"]
    with open("/dev/full", "w", encoding="utf-8") as full:
        run = _stopped_cli(args, signal.SIGINT, stderr=full)
    assert run.returncode == 130, run.stdout
    assert "Traceback" not in run.stdout and "interrupted:" not in run.stdout
    assert "goofspiel, 2 players," in run.stdout and "win rate" in run.stdout


@pytest.mark.parametrize(
    "command",
    [
        "cardtable " + " ".join(_BALANCE) + " --json - --report /dev/stdout",
        "cardtable " + " ".join(_BALANCE) + " --csv out.csv > out.csv",
        "cardtable " + " ".join(_SIMULATE) + " --out out.jsonl > out.jsonl",
        "cardtable replay goofspiel --out /dev/stdout",
    ],
)
def test_an_output_file_that_is_standard_output_is_refused(tmp_path: Path, command: str) -> None:
    """``balance --json - --report /dev/stdout`` wrote the HTML report and then the JSON into one
    stream, and ``--out f.jsonl > f.jsonl`` mixed the results with the summary printed after
    them: an output that is standard output is now a usage error before anything runs."""
    run = _shell(command, tmp_path)
    assert run.returncode == 2, run.stdout + run.stderr
    assert "it is standard output, where the command prints what it did" in run.stderr
    assert "Traceback" not in run.stderr
    assert all(p.stat().st_size == 0 for p in tmp_path.iterdir())  # the shell's empty file


def test_commands_that_run_no_study_do_not_import_scipy(tmp_path: Path) -> None:
    """Every command imported SciPy at start (the study commands' module did), about 1.5 s of a
    2 s ``cardtable --version``; and replay and play without --bots imported the studies to find
    the game's heuristic bot, so that they failed without the analysis extra."""
    code = (
        "import sys\n"
        "from cardtable.cli import main\n"
        "try:\n"
        "    main(['replay', 'goofspiel', '--out', 'r.html'])\n"
        "except SystemExit as exit:\n"
        "    assert exit.code == 0, exit.code\n"
        "print(sorted(m for m in sys.modules if m.split('.')[0] == 'scipy'))\n"
    )
    run = subprocess.run(
        [sys.executable, "-c", code], cwd=tmp_path, capture_output=True, text=True, timeout=120
    )
    assert run.returncode == 0, run.stderr
    assert "wrote r.html" in run.stdout and run.stdout.rstrip().endswith("[]"), run.stdout


def test_play_takes_its_player_count_from_the_bots_or_the_game() -> None:
    # `play goofspiel` asked for --players like simulate did; --bots names the other seats.
    assert "goofspiel, 2 players, you are seat 0" in run_cli(
        "play", "goofspiel", "--seed", "1", input=_every_id(20, 13)
    )
    three = run_cli("play", "trafficars", "-b", "greedy,random", input=_every_id(60, ids=110))
    assert "trafficars, 3 players" in three
    several = run_cli("play", "deep_regrets", exit_code=2)
    assert "give --players (or one --bots name per other seat)" in several


def test_play_asks_again_for_any_text_that_is_not_a_listed_number() -> None:
    """``--5`` passed the digit check (``lstrip("-")``) and ``²`` is a digit to ``isdigit``:
    both crashed ``int()`` with a traceback."""
    output = run_cli("play", "goofspiel", "--seed", "1", input="--5\n²\n" + _every_id(20, 13))
    assert output.count("type the number shown before a move") >= 2
    assert "goofspiel, 2 players" in output and "Traceback" not in output


def test_play_says_when_its_input_ends_and_when_the_bots_set_too_many_players() -> None:
    """The end of the input was click's "Aborted!", like Ctrl-C; and ``goofspiel --bots
    greedy,greedy`` said "players must be in 2..=2, got 3", with no word of where 3 came from."""
    ended = run_cli("play", "goofspiel", "--seed", "1", input="0\n", exit_code=1)
    assert "input ended before the game: it is left unfinished" in ended
    assert "Aborted" not in ended
    # What went wrong goes to standard error, the game's text to standard output.
    split = subprocess.run(
        [sys.executable, "-m", "cardtable", "play", "goofspiel", "--seed", "1"],
        input="0\n",
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert split.returncode == 1 and "goofspiel, 2 players" in split.stdout
    assert "input ended" in split.stderr and "input ended" not in split.stdout
    output = run_cli("play", "goofspiel", "-b", "greedy,greedy", exit_code=2)
    assert "2 bots (one per seat but yours) make 3 players" in output


@_NO_DEV_FULL
def test_play_to_a_full_standard_output_is_a_one_line_error(tmp_path: Path) -> None:
    """Its moves and tables were printed without the other commands' error handling: a
    traceback of ``OSError: No space left on device``."""
    run = _shell("yes 0 | cardtable play goofspiel --seed 1 > /dev/full", tmp_path)
    _failed_cleanly(run, "standard output")


def test_play_says_which_cards_an_overtake_put_into_the_row() -> None:
    """Compulsory overtakes happen within the step of the card that allowed them, whose label
    names only that card: the row grew by cards nobody was said to play, the human's own among
    them, and the tables were titled "seat 0 active is over"."""
    args = ["play", "trafficars_overtaking", "-p", "2", "--seed", "3"]
    output = run_cli(*args, input="31\n", exit_code=1)  # then the input ends
    assert "you played 31" in output
    assert "seat 1 (greedy) overtook: 13, 27 into the row" in output
    assert "you overtook: 33 into the row" in output
    assert "seat 0's turn is over" in output and "active is over" not in output


def test_simulate_takes_its_player_count_from_the_bots_or_the_game() -> None:
    # `simulate goofspiel` asked for --players although goofspiel has only 2.
    assert "goofspiel, 2 players, 20 games" in run_cli(
        "simulate", "goofspiel", "-n", "20", "--no-progress"
    )
    three = run_cli(
        "simulate", "trafficars", "-b", "greedy,random,random", "-n", "20", "--no-progress"
    )
    assert "trafficars, 3 players, 20 games" in three
    several = run_cli("simulate", "deep_regrets", "-n", "2", exit_code=2)
    assert "deep_regrets is played by 2..=5 players: give --players" in several
    too_many = run_cli("simulate", "goofspiel", "-b", "greedy,random,random", exit_code=2)
    assert "the game has 2 seats, one bot per seat; got 3" in too_many
    assert "unknown game 'nope'" in run_cli("simulate", "nope", exit_code=2)
    # No bot named: a usage error, not a ZeroDivisionError; a misspelt bot is named before the
    # count is checked, also with --players, in the same words as replay.
    assert "no bot named in ','" in run_cli("simulate", "goofspiel", "--bots", ",", exit_code=2)
    assert "no bot named in ''" in run_cli("simulate", "goofspiel", "--bots", "", exit_code=2)
    assert "no bot named in ''" in run_cli("play", "goofspiel", "--bots", "", exit_code=2)
    assert 'unknown bot "nosuch"' in run_cli("simulate", "goofspiel", "-b", "nosuch", exit_code=2)
    given = run_cli("simulate", "goofspiel", "-p", "2", "-b", "greedy", exit_code=2)
    assert "--players 2 means 2 seats, one bot per seat; got 1 (greedy)" in given
    replayed = run_cli("replay", "turn_the_tide", "-b", "nosuch", "--out", "x.html", exit_code=2)
    assert 'unknown bot "nosuch"' in replayed


@pytest.mark.parametrize(
    "args", [["games"], _SIMULATE, [*_TOURNAMENT, "--no-progress"], [*_BALANCE, "--json", "-"]]
)
def test_a_reader_that_goes_away_stops_the_command_quietly(args: list[str]) -> None:
    # `cardtable games | head -1` printed "Error: could not write standard output: Broken pipe".
    run = _run_with_no_reader(args)
    assert (run.returncode, run.stderr) == (1, "")


def _run_with_no_reader(
    args: list[str], cwd: Path | None = None
) -> subprocess.CompletedProcess[str]:
    """Runs the command with a standard output whose reader has gone from the start (as in
    ``| head -1`` once ``head`` has read its line), so that its first write fails."""
    read, write = os.pipe()
    os.close(read)
    try:
        return subprocess.run(
            [sys.executable, "-m", "cardtable", *args],
            stdout=write,
            stderr=subprocess.PIPE,
            text=True,
            timeout=120,
            cwd=cwd,
        )
    finally:
        os.close(write)


@pytest.mark.parametrize(
    ("args", "files"),
    [
        ([*_SIMULATE, "--out", "r.csv", "--plot", "r.svg"], ["r.csv", "r.svg"]),
        ([*_BALANCE, "--report", "r.html", "--json", "r.json"], ["r.html", "r.json"]),
        ([*_BALANCE, "--report", "r.html", "--json", "-"], ["r.html"]),
    ],
)
def test_a_reader_that_goes_away_does_not_cost_the_files(
    tmp_path: Path, args: list[str], files: list[str]
) -> None:
    # `cardtable balance ... --report r.html | true` left no report: the summary was printed
    # first, and the broken pipe ended the command before the files were written.
    run = _run_with_no_reader(args, tmp_path)
    assert run.returncode == 1, run.stderr
    assert sorted(p.name for p in tmp_path.iterdir()) == sorted(files)
    assert all((tmp_path / name).stat().st_size > 0 for name in files)


@pytest.mark.parametrize(
    "command",
    [
        "cardtable " + " ".join(_SIMULATE[:-3]) + " -n 2000 --no-progress --out big.csv",
        "cardtable " + " ".join(_BALANCE) + " --report big.html",
        "cardtable replay deep_regrets -p 3 --out big.html",
    ],
)
def test_a_file_size_limit_leaves_no_truncated_file(tmp_path: Path, command: str) -> None:
    run = _shell(f"ulimit -f 8; {command} > /dev/null", tmp_path)
    _failed_cleanly(run, "File too large")
    assert "Could not open" not in run.stderr
    assert list(tmp_path.iterdir()) == []  # neither the file nor a temporary one


def test_outputs_still_go_to_pipes_and_special_files(tmp_path: Path) -> None:
    command = "cardtable " + " ".join(_BALANCE) + " --report >(wc -c > n.txt) --json /dev/null"
    # The command's own status, once ``wc`` has had time to write its count.
    run = _shell(command + "; status=$?; sleep 0.2; exit $status", tmp_path)
    assert run.returncode == 0, run.stderr
    assert int((tmp_path / "n.txt").read_text()) > 1000
    assert sorted(p.name for p in tmp_path.iterdir()) == ["n.txt"]


def test_a_rewritten_file_keeps_its_links_and_mode(tmp_path: Path) -> None:
    real = tmp_path / "real.csv"
    real.write_text("old")
    real.chmod(0o640)
    (tmp_path / "link.csv").symlink_to(real)
    run_cli(*_SIMULATE, "--out", str(tmp_path / "link.csv"))
    assert (tmp_path / "link.csv").is_symlink()
    assert real.read_text().startswith("game,length")
    assert real.stat().st_mode & 0o777 == 0o640


# --- replay: -o is a game option, --out names the file ----------------------------------------
def test_replay_takes_game_options_with_dash_o(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    out = tmp_path / "t.html"
    base = ["replay", "trafficars", "-p", "2", "--out", str(out)]
    output = run_cli(*base, "-o", "hand_size=3")
    assert "wrote" in output and out.exists() and not (tmp_path / "hand_size=3").exists()
    assert "3 steps" in output or "hand_size" in out.read_text()
    out.unlink()
    output = run_cli(*base, "-o", "hand_size=99", exit_code=2)
    assert "hand_size" in output and not out.exists()


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (
            ["goofspiel", "-b", "greedy"],
            "goofspiel: the game has 2 seats, one bot per seat; got 1 (greedy): "
            "give 2 bots, e.g. --bots greedy,greedy",
        ),
        (
            ["goofspiel", "-b", "greedy,random,random"],
            "goofspiel: the game has 2 seats, one bot per seat; got 3 (greedy, random, random): "
            "give 2 bots, e.g. --bots greedy,random",
        ),
        (
            ["turn_the_tide", "-b", "greedy,random"],
            "turn_the_tide: the game has 3..=5 seats, one bot per seat; got 2 (greedy, random): "
            "give 3..=5 bots, e.g. --bots greedy,random,greedy",
        ),
        (
            ["turn_the_tide", "-p", "4", "-b", "greedy,random"],
            "turn_the_tide: --players 4 means 4 seats, one bot per seat; got 2 (greedy, random): "
            "give 4 bots, e.g. --bots greedy,random,greedy,random",
        ),
    ],
)
def test_replay_says_how_many_bots_the_seats_need(
    tmp_path: Path, args: list[str], message: str
) -> None:
    """``replay goofspiel -b greedy`` said "players must be in 2..=2, got 1": the player count
    was taken from the single bot given, and the error spoke of players the user never gave."""
    out = tmp_path / "r.html"
    output = run_cli("replay", *args, "--out", str(out), exit_code=2)
    assert f"Error: {message}\n" in output and "players must be" not in output
    assert not out.exists()


def test_replay_refuses_standard_output(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    output = run_cli("replay", "goofspiel", "-p", "2", "--out", "-", exit_code=2)
    assert "--out" in output and "standard output" in output
    assert list(tmp_path.iterdir()) == []


def test_study_commands_name_every_bot_in_full() -> None:
    """``cardtable tournament`` printed three settings of mcts as ``mcts:iterations=300,c…``:
    every table now names each bot in full (a long name folded onto more lines, never cut)."""
    pytest.importorskip("scipy")
    bots = [f"mcts:iterations=20,c={c},rollout=random,reward=win" for c in ("0.3", "1.5", "0.7")]
    common = ["turn_the_tide", "-p", "3", "-b", ",".join(bots), "-n", "2", "--no-progress"]
    tournament = run_cli("tournament", *common, "--rating-bootstrap", "0")
    sweep = run_cli("sweep", *common, "--grid", "rounds=1,2")
    for output in (tournament, sweep):
        pieces = [
            [cell.strip() for cell in re.split("[│┃]", line)[1:-1]] for line in output.splitlines()
        ]
        assert not [p for row in pieces for p in row if p.endswith("…")], output  # nothing cut
        columns: dict[int, str] = {}
        for row in pieces:
            for i, piece in enumerate(row):
                columns[i] = columns.get(i, "") + piece.replace(" ", "")
        for bot in bots:
            assert any(bot in column for column in columns.values()), (bot, output)
    # The first column of the tournament's tables: each bot's row, the two pairs a − b it is in,
    # and its head-to-head row, each whole.
    first = "".join(
        "".join(re.split("[│┃]", line)[1].split())
        for line in tournament.splitlines()
        if line.startswith(("│", "┃"))
    )
    assert all(first.count(bot) == 1 + 2 + 1 for bot in bots), first


def test_study_commands_state_their_bounds_and_infer_a_single_player_count() -> None:
    """The studies required ``-p`` even for goofspiel (one count), balance alone took no ``-b``,
    and a count beyond the library's bound was an error naming a Python parameter
    (``rating_bootstrap must be an int in 0..=10000``) where ``--help`` showed no upper bound."""
    output = run_cli("balance", "goofspiel", "-n", "2", "-b", "random", "--no-progress")
    assert "goofspiel, 2 × random, 2 games" in output
    several = run_cli("balance", "turn_the_tide", "-n", "2", exit_code=2)
    assert "turn_the_tide is played by 3..=5 players: give --players" in several
    tournament = ["tournament", "goofspiel", "-b", "greedy,random", "-n", "2"]
    capped = run_cli(*tournament, "--rating-bootstrap", "10001", exit_code=2)
    assert "'--rating-bootstrap': 10001 is not in the range" in capped
    assert "0<=x<=10000" in " ".join(run_cli("tournament", "--help").split())
    huge = run_cli("balance", "goofspiel", "-n", str(2**64), exit_code=2)
    assert "'-n' / '--games'" in huge and "games must be" not in huge
    sweep_help = " ".join(run_cli("sweep", "--help").split())
    assert "Write the per option set and seat table as Parquet" in sweep_help
    assert "sweep:" not in " ".join(run_cli("balance", "--help").split())


def test_game_numbers_stop_where_a_run_can_reach_and_one_game_is_singular() -> None:
    """``replay --game 2**64 - 1`` rebuilt a game no ``simulate`` run can hold (a run's game
    numbers stay below 2**64 - 1), and a run of one game was titled "1 games"."""
    refused = run_cli(
        "replay", "goofspiel", "--game", str(2**64 - 1), "--out", "x.html", exit_code=2
    )
    assert (
        "'--game': 18446744073709551615 is not in the range 0<=x<=18446744073709551614" in refused
    )
    one = run_cli("simulate", "goofspiel", "-n", "1", "--first-game", "5", "--no-progress")
    assert "goofspiel, 2 players, 1 game 5–5, seed 0" in one


@pytest.mark.parametrize(
    ("words", "incomplete", "expected"),
    [
        (["simulate"], "tu", ["turn_the_tide"]),
        (["games"], "trafficars_", ["trafficars_memory", "trafficars_overtaking"]),
        (["conformance"], "goof", ["goofspiel"]),
        (["simulate", "goofspiel", "--bots"], "gr", ["greedy"]),
        (["tournament", "goofspiel", "-p", "2", "-b"], "random,f", ["random,flatmc"]),
        (["balance", "goofspiel", "--weaker"], "r", ["random"]),
        (["play", "trafficars_memory", "-b"], "", None),
        (["replay", "no_such_game", "--bots"], "", []),
    ],
)
def test_game_ids_and_bots_complete_in_the_shell(
    words: list[str], incomplete: str, expected: list[str] | None
) -> None:
    """Tab completion (``eval "$(_CARDTABLE_COMPLETE=bash_source cardtable)"``) offered the
    commands alone: no game id, no bot name."""
    from click.shell_completion import ShellComplete

    complete = ShellComplete(main, {}, "cardtable", "_CARDTABLE_COMPLETE")
    got = [item.value for item in complete.get_completions(words, incomplete)]
    if expected is None:  # every bot of the game
        info = cardtable.game_info(words[1])
        expected = [*info.bots, *info.search_bots]
    assert got == expected
