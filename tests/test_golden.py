"""Stored golden playthroughs and perft counts, replayed on both backends."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

import cardtable
from cardtable.testing import perft, playthrough
from tests.golden import (
    GOLDEN,
    PERFT,
    PERFT_FILE,
    explicit_deal,
    golden_path,
    goofspiel_perft,
    perft_counts,
    registered,
)

CASES = [
    (game_id, name, config, seed)
    for game_id, cases in GOLDEN.items()
    for name, config, seed in cases
]


def test_every_registered_game_has_golden_and_perft_data() -> None:
    games = registered()
    assert games <= set(GOLDEN) and games <= set(PERFT)
    stored = json.loads(PERFT_FILE.read_text())
    assert set(stored) == games
    for game_id in games:
        for name, _, _ in GOLDEN[game_id]:
            assert golden_path(game_id, name).exists(), "run `make golden`"


@pytest.mark.parametrize(
    ("game_id", "name", "config", "seed"), CASES, ids=[f"{c[0]}-{c[1]}" for c in CASES]
)
def test_playthrough_matches_golden_file(
    game_id: str, name: str, config: dict[str, object], seed: int, backend: str
) -> None:
    if game_id not in registered():
        pytest.skip(f"{game_id} is not registered")
    game = cardtable.make(game_id, backend=backend, **config)  # type: ignore[arg-type]
    path = golden_path(game_id, name)
    if not path.exists():
        pytest.fail(f"no golden playthrough {path.name}: run `make golden ACCEPT=1`")
    expected = path.read_text()
    assert playthrough(game, seed) == expected


@pytest.mark.parametrize("game_id", list(PERFT))
def test_perft_counts(game_id: str, backend: str) -> None:
    if game_id not in registered():
        pytest.skip(f"{game_id} is not registered")
    stored = json.loads(PERFT_FILE.read_text()).get(game_id)
    if stored is None:
        pytest.fail(f"no perft entry {game_id!r} in {PERFT_FILE.name}: run `make golden ACCEPT=1`")
    _, _, ref_depth, rust_depth = PERFT[game_id]
    depth = rust_depth if backend == "rust" else ref_depth
    assert perft_counts(game_id, backend, depth) == stored["counts"][: depth + 1]


@pytest.mark.parametrize("num_cards", [1, 2, 3, 4, 6])
def test_goofspiel_perft_equals_its_closed_form(num_cards: int, backend: str) -> None:
    """Goofspiel's tree is uniform, so its perft counts have a closed form (an outside oracle)."""
    game = cardtable.make("goofspiel", players=2, num_cards=num_cards, backend=backend)  # type: ignore[arg-type]
    start = explicit_deal(game, 5)
    depth = 9 if backend == "rust" else min(6, 3 * num_cards)
    assert [perft(start, d) for d in range(depth + 1)] == [
        goofspiel_perft(num_cards, d) for d in range(depth + 1)
    ]


def test_stored_goofspiel_perft_equals_its_closed_form() -> None:
    stored = json.loads(PERFT_FILE.read_text())["goofspiel"]
    counts = stored["counts"]
    assert counts == [goofspiel_perft(stored["config"]["num_cards"], d) for d in range(len(counts))]


@pytest.mark.slow
@pytest.mark.parametrize("game_id", list(PERFT))
def test_reference_perft_to_the_full_rust_depth(game_id: str) -> None:
    """The counts past the reference's usual depth are checked against the reference too."""
    if game_id not in registered():
        pytest.skip(f"{game_id} is not registered")
    _, _, _, rust_depth = PERFT[game_id]
    stored = json.loads(PERFT_FILE.read_text())[game_id]["counts"]
    assert perft_counts(game_id, "reference", rust_depth) == stored


def test_golden_command_is_up_to_date_and_writes_nothing_without_accept(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """``make golden`` says "up to date" on the stored files and never writes without --accept."""
    import tests.golden as golden

    written: list[object] = []
    monkeypatch.setattr(Path, "write_text", lambda *a, **k: written.append(a))
    assert golden.main([]) == 0
    assert "up to date" in capsys.readouterr().out
    assert written == []


def _stored_files() -> dict[Path, str]:
    """The stored golden files as ``compute`` would return them when nothing changed."""
    import tests.golden as golden

    paths = [golden_path(g, name) for g, cases in GOLDEN.items() for name, _, _ in cases]
    return {path: path.read_text() for path in [*paths, golden.PERFT_FILE] if path.exists()}


def test_golden_command_refuses_a_change_without_accept(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """A changed playthrough is shown as a diff and nothing is written unless --accept is given."""
    import tests.golden as golden

    files = _stored_files()
    path = next(iter(files))
    files[path] += "an extra line\n"
    written: list[object] = []
    monkeypatch.setattr(golden, "compute", lambda: (files, []))
    monkeypatch.setattr(Path, "write_text", lambda *a, **k: written.append(a))
    assert golden.main([]) == 1
    captured = capsys.readouterr()
    assert "+an extra line" in captured.out
    assert "--accept" in captured.err
    assert written == []
    assert golden.main(["--accept"]) == 0
    assert len(written) == 1


def test_golden_command_writes_nothing_when_the_backends_disagree(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    import tests.golden as golden

    files = _stored_files()
    files[next(iter(files))] += "changed\n"
    problems = ["backends disagree on the playthrough x"]
    monkeypatch.setattr(golden, "compute", lambda: (files, problems))
    written: list[object] = []
    monkeypatch.setattr(Path, "write_text", lambda *a, **k: written.append(a))
    assert golden.main(["--accept"]) == 1
    assert "nothing written" in capsys.readouterr().err
    assert written == []
