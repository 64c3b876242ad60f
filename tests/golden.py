"""Golden playthroughs and perft counts: the data and the command that regenerates them.

``make golden`` (``python -m tests.golden``) computes every playthrough and perft count on both
backends, prints the unified diff against the stored ``tests/golden/*.txt`` and
``tests/data/perft.json``, and changes nothing: the files are rewritten only with ``--accept``
(``make golden ACCEPT=1``), and only when every case agrees between the backends, so a disagreement
on a later case never leaves earlier files rewritten. ``tests/test_golden.py`` checks both backends
against the stored files, so any rule change shows up as a reviewable diff.
"""

from __future__ import annotations

import argparse
import difflib
import json
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import cardtable
from cardtable.protocols import GameProtocol, StateProtocol
from cardtable.testing import perft, playthrough
from tests.game_info import all_games

HERE = Path(__file__).parent
GOLDEN_DIR = HERE / "golden"
PERFT_FILE = HERE / "data" / "perft.json"

GOLDEN: dict[str, list[tuple[str, dict[str, Any], int]]] = {
    game_id: info.golden for game_id, info in all_games().items()
}
"""Per game: (name, make keyword arguments, seed) of each stored playthrough (``GAME.golden``)."""

PERFT: dict[str, tuple[dict[str, Any], int, int, int]] = {
    game_id: info.perft for game_id, info in all_games().items()
}
"""Per game: (make keyword arguments, deal seed, reference depth, Rust depth) (``GAME.perft``)."""


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


def goofspiel_perft(num_cards: int, depth: int) -> int:
    """The closed form of goofspiel's perft count from the state after the first point card.

    Each turn is three uniform levels (seat 0's bid, seat 1's bid, the next point card) over the
    cards left, starting with the two bids of the first turn; the last turn is forced and adds no
    level. So the count is the product of the first ``depth`` branching factors
    ``N, N, N-1, N-1, N-1, ..., 2, 2, 2``.
    """
    factors = [num_cards, num_cards] + [
        left for left in range(num_cards - 1, 1, -1) for _ in range(3)
    ]
    count = 1
    for factor in factors[:depth]:
        count *= factor
    return count


def _diff(path: Path, new: str) -> list[str]:
    """The unified diff from the stored file (empty when unchanged)."""
    old = path.read_text() if path.exists() else ""
    name = str(path.relative_to(HERE.parent))
    return list(
        difflib.unified_diff(
            old.splitlines(keepends=True), new.splitlines(keepends=True), name, name + " (new)"
        )
    )


def compute() -> tuple[dict[Path, str], list[str]]:
    """Every golden file's new text, and the disagreements between the backends (if any)."""
    files: dict[Path, str] = {}
    problems: list[str] = []
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
                problems.append(f"backends disagree on the playthrough {game_id}-{name}")
            files[golden_path(game_id, name)] = texts["rust"]
    data: dict[str, Any] = {}
    for game_id, (config, seed, ref_depth, rust_depth) in PERFT.items():
        if game_id not in games:
            continue
        rust = perft_counts(game_id, "rust", rust_depth)
        ref = perft_counts(game_id, "reference", ref_depth)
        if rust[: ref_depth + 1] != ref:
            problems.append(f"perft disagrees on {game_id}: rust {rust} vs reference {ref}")
        data[game_id] = {"config": config, "deal_seed": seed, "counts": rust}
    files[PERFT_FILE] = json.dumps(data, indent=1, sort_keys=True) + "\n"
    return files, problems


def main(argv: Sequence[str] | None = None) -> int:
    """Shows the changes to the golden files; ``--accept`` writes them if the backends agree."""
    parser = argparse.ArgumentParser(prog="python -m tests.golden", description=__doc__)
    parser.add_argument(
        "--accept", action="store_true", help="write the new files (only if every case agrees)"
    )
    args = parser.parse_args(argv)
    files, problems = compute()
    for problem in problems:
        print(problem, file=sys.stderr)
    if problems:
        print("nothing written: the backends must agree on every case first", file=sys.stderr)
        return 1
    changed = {path: text for path, text in files.items() if _diff(path, text)}
    for path, text in changed.items():
        sys.stdout.writelines(_diff(path, text))
    if not changed:
        print("golden files and perft counts are up to date")
        return 0
    if not args.accept:
        print(
            f"{len(changed)} file(s) would change; review the diff above and rerun with --accept "
            "(make golden ACCEPT=1) to write them",
            file=sys.stderr,
        )
        return 1
    GOLDEN_DIR.mkdir(exist_ok=True)
    for path, text in changed.items():
        path.write_text(text)
        print(f"wrote {path.relative_to(HERE.parent)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
