"""Golden playthroughs and perft counts: the data and the command that regenerates them.

``make golden`` (``python -m tests.golden``) rewrites ``tests/golden/*.txt`` and
``tests/data/perft.json`` from the Rust engine after checking that the reference produces the same;
``tests/test_golden.py`` checks both backends against the stored files, so any rule change shows up
as a reviewable diff.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

import cardtable
from cardtable.protocols import GameProtocol, StateProtocol
from cardtable.testing import perft, playthrough

HERE = Path(__file__).parent
GOLDEN_DIR = HERE / "golden"
PERFT_FILE = HERE / "data" / "perft.json"

GOLDEN: dict[str, list[tuple[str, dict[str, Any], int]]] = {
    "turn_the_tide": [
        ("3p-1round", {"players": 3, "rounds": 1}, 1),
        (
            "4p-choose-norecheck",
            {
                "players": 4,
                "rounds": 1,
                "highest_chooses_tide": True,
                "recheck_after_elimination": False,
            },
            2,
        ),
    ],
    "trafficars": [
        ("3p-default", {"players": 3, "hand_size": 5}, 1),
        (
            "2p-easy",
            {"players": 2, "lanes": 2, "max_number": 20, "hand_size": 5, "special_cards": False},
            2,
        ),
        (
            "4p-insert-nolimit",
            {"players": 4, "hand_size": 4, "too_low": "insert", "max_cars": None},
            3,
        ),
    ],
    "trafficars_memory": [
        ("2p-1to12", {"players": 2, "max_number": 12}, 1),
        ("3p-jokers", {"players": 3, "min_number": 26, "max_number": 40, "jokers": True}, 2),
    ],
    "trafficars_overtaking": [
        ("2p", {"players": 2}, 1),
        ("3p", {"players": 3}, 2),
        ("3p-optional-overtake", {"players": 3, "optional_overtake": True}, 2),
    ],
    "deep_regrets": [
        ("2p", {"players": 2}, 1),
        ("3p-5days-tentacles", {"players": 3, "days": 5, "expansion_tentacles": True}, 2),
    ],
    "goofspiel": [
        ("5cards", {"players": 2, "num_cards": 5}, 1),
        ("13cards", {"players": 2, "num_cards": 13}, 2),
    ],
}
"""Per game: (name, make keyword arguments, seed) of each stored playthrough."""

PERFT: dict[str, tuple[dict[str, Any], int, int, int]] = {
    "turn_the_tide": ({"players": 3}, 5, 3, 6),
    "trafficars": ({"players": 2, "hand_size": 4}, 5, 4, 9),
    "trafficars_memory": ({"players": 2, "max_number": 10}, 5, 3, 6),
    "trafficars_overtaking": ({"players": 2}, 5, 4, 12),
    "deep_regrets": ({"players": 2}, 5, 4, 9),
    "goofspiel": ({"players": 2, "num_cards": 6}, 5, 4, 9),
}
"""Per game: (make keyword arguments, deal seed, reference depth, Rust depth)."""


def golden_path(game_id: str, name: str) -> Path:
    """Where one playthrough is stored."""
    return GOLDEN_DIR / f"{game_id}-{name}.txt"


def registered() -> set[str]:
    """The game ids the Rust engine registers (data is kept only for those)."""
    return {g.id for g in cardtable.games()}


def explicit_deal(game: GameProtocol, seed: int) -> StateProtocol:
    """An unseeded state after the chance steps that the seeded game makes before any decision."""
    seeded = game.new_state(seed=seed)
    state = game.new_state()
    for outcome in seeded.history:
        state.apply(outcome)
    return state


def perft_counts(game_id: str, backend: str, depth: int) -> list[int]:
    """Perft counts for depths 0..depth from the game's fixed explicit deal."""
    config, seed, _, _ = PERFT[game_id]
    game = cardtable.make(game_id, backend=backend, **config)  # type: ignore[arg-type]
    start = explicit_deal(game, seed)
    return [perft(start, d) for d in range(depth + 1)]


def main() -> int:
    """Regenerates every golden file and the perft data; fails if the backends disagree."""
    GOLDEN_DIR.mkdir(exist_ok=True)
    games = registered()
    for game_id, cases in GOLDEN.items():
        if game_id not in games:
            continue
        for name, config, seed in cases:
            texts = {
                b: playthrough(cardtable.make(game_id, backend=b, **config), seed)
                for b in ("rust", "reference")
            }
            if texts["rust"] != texts["reference"]:
                print(f"backends disagree on {game_id}-{name}", file=sys.stderr)
                return 1
            golden_path(game_id, name).write_text(texts["rust"])
            print(f"wrote {golden_path(game_id, name).relative_to(HERE.parent)}")
    data: dict[str, Any] = {}
    for game_id, (config, seed, ref_depth, rust_depth) in PERFT.items():
        if game_id not in games:
            continue
        rust = perft_counts(game_id, "rust", rust_depth)
        ref = perft_counts(game_id, "reference", ref_depth)
        if rust[: ref_depth + 1] != ref:
            print(f"perft disagrees on {game_id}: {rust} vs {ref}", file=sys.stderr)
            return 1
        data[game_id] = {"config": config, "deal_seed": seed, "counts": rust}
        print(f"perft {game_id}: {rust}")
    PERFT_FILE.write_text(json.dumps(data, indent=1, sort_keys=True) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
