"""Many machines: a run split into Ray tasks on a local cluster equals the local run."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import numpy as np
import pytest

import cardtable

ray = pytest.importorskip("ray")


@pytest.fixture(scope="module")
def local_cluster() -> Iterator[None]:
    ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False, configure_logging=False)
    try:
        yield
    finally:
        ray.shutdown()


@pytest.mark.usefixtures("local_cluster")
@pytest.mark.parametrize("chunks", [None, 3, 7])
def test_ray_run_equals_local_run(chunks: int | None) -> None:
    kwargs = {
        "players": 4,
        "games": 5000,
        "seed": 77,
        "bots": ["greedy", "random", "random", "random"],
        "progress": False,
    }
    local = cardtable.simulate("turn_the_tide", **kwargs)  # type: ignore[arg-type]
    remote = cardtable.simulate(
        "turn_the_tide",
        backend="ray",
        ray_chunks=chunks,
        **kwargs,  # type: ignore[arg-type]
    )
    assert remote.seats == local.seats
    assert remote.decisions == local.decisions
    assert local.scores is not None and remote.scores is not None
    np.testing.assert_array_equal(remote.scores, local.scores)
    np.testing.assert_array_equal(remote.winners, local.winners)
    np.testing.assert_array_equal(remote.lengths, local.lengths)


@pytest.mark.usefixtures("local_cluster")
def test_ray_summary_only_run() -> None:
    local = cardtable.simulate(
        "turn_the_tide", players=3, games=3000, keep_games=False, progress=False
    )
    remote = cardtable.simulate(
        "turn_the_tide", players=3, games=3000, keep_games=False, progress=False, backend="ray"
    )
    assert remote.scores is None
    assert remote.seats == local.seats


@pytest.mark.usefixtures("local_cluster")
def test_a_ray_run_of_a_range_equals_the_local_one() -> None:
    kwargs: dict[str, Any] = {"players": 3, "games": 900, "seed": 4, "first_game": 1000}
    local = cardtable.simulate("turn_the_tide", progress=False, **kwargs)
    remote = cardtable.simulate(
        "turn_the_tide", backend="ray", ray_chunks=3, progress=False, **kwargs
    )
    assert remote == local and remote.first_game == 1000


@pytest.mark.usefixtures("local_cluster")
def test_a_stopped_ray_run_keeps_the_completed_games_in_full_size_arrays() -> None:
    """As a local run's: a game not completed has length 0, the others are the local games."""
    kwargs: dict[str, Any] = {"players": 3, "games": 4000, "seed": 5}
    local = cardtable.simulate("turn_the_tide", progress=False, **kwargs)
    stopped = cardtable.simulate(
        "turn_the_tide",
        backend="ray",
        ray_chunks=8,
        progress=lambda done, total: done == 0,  # stop once a chunk is done
        **kwargs,
    )
    assert stopped.interrupted and 0 < stopped.games_played < 4000
    assert stopped.lengths is not None and stopped.scores is not None
    assert stopped.winners is not None and local.lengths is not None
    assert local.scores is not None and local.winners is not None
    assert stopped.lengths.shape == (4000,) and stopped.scores.shape == (4000, 3)
    played = stopped.lengths > 0
    assert played.sum() == stopped.games_played
    np.testing.assert_array_equal(stopped.lengths[played], local.lengths[played])
    np.testing.assert_array_equal(stopped.scores[played], local.scores[played])
    np.testing.assert_array_equal(stopped.winners[played], local.winners[played])
    assert not stopped.scores[~played].any() and not stopped.winners[~played].any()
    # Asked to stop only once every range was done, the run is whole, not "interrupted" with
    # all its games (which resume could never repair).
    whole = cardtable.simulate(
        "turn_the_tide",
        backend="ray",
        ray_chunks=2,
        progress=lambda done, total: done < total,
        **kwargs,
    )
    assert not whole.interrupted and whole == local


def test_python_policies_are_local_only() -> None:
    with pytest.raises(cardtable.InvalidOptionError):
        cardtable.simulate(
            "turn_the_tide",
            players=3,
            games=3,
            bots=[lambda b: [x[0] for x in b.legal_actions], "random", "random"],
            backend="ray",
            progress=False,
        )


def test_bad_ray_arguments_are_refused_before_the_run(monkeypatch: pytest.MonkeyPatch) -> None:
    """Unknown bots and bad chunk counts are refused before a cluster is joined, with the local
    backend's own errors."""

    def no_cluster(*args: Any, **kwargs: Any) -> None:
        raise AssertionError("ray.init was called before the arguments were checked")

    monkeypatch.setattr(ray, "is_initialized", lambda: False)
    monkeypatch.setattr(ray, "init", no_cluster)
    with pytest.raises(cardtable.InvalidOptionError, match="nope") as bad_bot:
        cardtable.simulate(
            "goofspiel", players=2, games=4, bots=["nope", "random"], backend="ray", progress=False
        )
    assert "\x1b[" not in str(bad_bot.value)
    for chunks in (0, -1, 2.0, True, "2"):
        with pytest.raises(cardtable.InvalidOptionError, match="ray_chunks must be an int"):
            cardtable.simulate(
                "goofspiel",
                players=2,
                games=4,
                backend="ray",
                ray_chunks=chunks,  # type: ignore[arg-type]
                progress=False,
            )


@pytest.mark.usefixtures("local_cluster")
def test_a_worker_error_reaches_the_caller_as_the_package_error() -> None:
    with pytest.raises(cardtable.CapacityError, match="keep_games=False"):
        cardtable.simulate(
            "goofspiel", players=2, games=10**12, backend="ray", ray_chunks=2, progress=False
        )
    chunks: Any = np.int64(3)
    result = cardtable.simulate(
        "goofspiel", players=2, games=40, backend="ray", ray_chunks=chunks, progress=False
    )
    assert result.games_played == 40


def test_a_worker_of_another_version_is_refused() -> None:
    """A cluster whose machines had two versions of cardtable merged their games into one run,
    though a game's result may differ between versions: a worker now checks the driver's."""
    from cardtable._ray import _run_range

    def run(version: str) -> dict[str, Any]:
        return _run_range("goofspiel", 2, {}, ["random", "random"], 3, True, version, 0, 5)

    assert run(cardtable.__version__)["games_played"] == 5
    refused = r"has cardtable .* and the driver 0\.0\.1"
    with pytest.raises(cardtable.InvalidOptionError, match=refused):
        run("0.0.1")


@pytest.mark.usefixtures("local_cluster")
def test_the_command_line_sets_the_number_of_ray_tasks(tmp_path: Any) -> None:
    """``ray_chunks`` had no command-line option: a cluster's run could not be cut finer (for a
    fairer spread) or coarser (for less overhead) from the command line."""
    from tests.command_line import run_cli

    out = tmp_path / "run.csv"
    args = ["simulate", "goofspiel", "-p", "2", "-n", "40", "--no-progress", "--out", str(out)]
    run_cli(*args, "--backend", "ray", "--ray-chunks", "3")
    local = cardtable.simulate("goofspiel", players=2, games=40, progress=False)
    assert local.scores is not None
    rows = out.read_text(encoding="utf-8").splitlines()[1:]
    assert [[int(x) for x in row.split(",")[2:4]] for row in rows] == local.scores.tolist()
    output = run_cli(*args, "--ray-chunks", "3", exit_code=2)
    assert "--ray-chunks goes with --backend ray" in output
    assert "Invalid value for '--ray-chunks'" in run_cli(*args, "--ray-chunks", "0", exit_code=2)
