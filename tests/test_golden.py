"""Stored golden playthroughs and perft counts, replayed on both backends."""

from __future__ import annotations

import json

import pytest

import cardtable
from cardtable.testing import playthrough
from tests.golden import GOLDEN, PERFT, PERFT_FILE, golden_path, perft_counts, registered

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
    expected = golden_path(game_id, name).read_text()
    assert playthrough(game, seed) == expected


@pytest.mark.parametrize("game_id", list(PERFT))
def test_perft_counts(game_id: str, backend: str) -> None:
    if game_id not in registered():
        pytest.skip(f"{game_id} is not registered")
    stored = json.loads(PERFT_FILE.read_text())[game_id]
    _, _, ref_depth, rust_depth = PERFT[game_id]
    depth = rust_depth if backend == "rust" else ref_depth
    assert perft_counts(game_id, backend, depth) == stored["counts"][: depth + 1]
