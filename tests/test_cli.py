"""The command line: listing games, simulating with output files, playing a seat."""

from __future__ import annotations

from pathlib import Path

import pyarrow.parquet as pq
from click.testing import CliRunner

import cardtable
from cardtable.cli import main


def test_games_lists_every_game_and_option() -> None:
    result = CliRunner().invoke(main, ["games"])
    assert result.exit_code == 0, result.output
    for info in cardtable.games():
        assert info.id in result.output
        for o in info.options:
            assert o.name in result.output


def test_simulate_writes_parquet_and_plot(tmp_path: Path) -> None:
    out, plot = tmp_path / "r.parquet", tmp_path / "scores.png"
    result = CliRunner().invoke(
        main,
        [
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
        ],
    )
    assert result.exit_code == 0, result.output
    assert "greedy" in result.output and "2,000 games" in result.output
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


def test_play_a_seat_against_bots() -> None:
    result = CliRunner().invoke(
        main,
        ["play", "turn_the_tide", "--players", "3", "--seat", "1", "--seed", "3"],
        input="0\n" * 200,
    )
    assert result.exit_code == 0, result.output
    assert "your move, seat 1" in result.output
    assert "hand" in result.output
    assert "the game is over" in result.output and "final scores" in result.output


def test_ctrl_c_stops_cleanly_with_the_partial_summary() -> None:
    import signal
    import subprocess
    import sys
    import time

    proc = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "cardtable",
            "simulate",
            "turn_the_tide",
            "-p",
            "4",
            "-n",
            "1000000000",
            "--summary-only",
            "--no-progress",
        ],
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
        preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL),
    )
    time.sleep(3)
    proc.send_signal(signal.SIGINT)
    out, _ = proc.communicate(timeout=120)
    assert proc.returncode == 0, out
    assert "(interrupted)" in out and "interrupted:" in out
    assert "Traceback" not in out
