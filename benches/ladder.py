"""The strength ladder of the bots per game, as Markdown: random < greedy < flatmc < mcts.

Every rung plays seat-rotated matches against the rung below it: the stronger bot sits in one
seat, the weaker one in every other seat, and the stronger seat goes round the table evenly. The
table gives the stronger bot's win share (a shared win split among its winners) with its 95%
Wilson interval; a rung is clearly stronger when the interval lies above the fair share
``1 / players``. Only games with a determinizer (``GameInfo.search_bots``) are laddered.

Run ``python -m benches.ladder [--games N] [--players P] [GAME_ID ...]``.
"""

from __future__ import annotations

import argparse
import itertools
import time

import cardtable
from cardtable._simulation import wilson_interval
from cardtable.sim import simulate

SEARCH_RUNGS = (
    "flatmc:samples=100",
    "mcts:iterations=250",
    "mcts:iterations=1000",
    "mcts:iterations=4000",
)


def rungs(info: cardtable.GameInfo) -> list[str]:
    """The ladder of ``info``: random, its first own bot (if any), then the search bots."""
    own = [b for b in info.bots if b != "random"][:1]
    return ["random", *own, *SEARCH_RUNGS]


def seat_rotated_share(
    game_id: str, players: int, bot: str, field: str, games: int, seed: int
) -> tuple[float, tuple[float, float]]:
    """``bot``'s win share (and 95% interval) against ``field`` in every other seat."""
    share = 0.0
    per_seat = max(1, games // players)
    for seat in range(players):
        bots = [bot if s == seat else field for s in range(players)]
        result = simulate(
            game_id, games=per_seat, players=players, bots=bots, seed=seed + seat, progress=False
        )
        share += result.seats[seat].win_share
    total = per_seat * players
    return share / total, wilson_interval(share, total)


def ladder(info: cardtable.GameInfo, players: int, games: int, seed: int = 0) -> str:
    """The Markdown ladder table of one game."""
    lines = [
        f"### {info.id} ({players} players, {games} games per match, fair share {1 / players:.3f})",
        "",
        "| bot | against | win share | 95% interval | clearly stronger |",
        "|---|---|---:|---|:---:|",
    ]
    steps = rungs(info)
    for weaker, stronger in itertools.pairwise(steps):
        share, (lo, hi) = seat_rotated_share(info.id, players, stronger, weaker, games, seed)
        mark = "yes" if lo > 1 / players else "no"
        lines.append(f"| `{stronger}` | `{weaker}` | {share:.3f} | {lo:.3f}–{hi:.3f} | {mark} |")
    return "\n".join(lines)


def main() -> None:
    """Prints the ladder of every requested game that has a determinizer."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("game_ids", nargs="*", help="games (default: all with a determinizer)")
    parser.add_argument("--games", type=int, default=400, help="games per match")
    parser.add_argument("--players", type=int, default=None, help="players (default: fewest)")
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    infos = [g for g in cardtable.games() if g.search_bots]
    if args.game_ids:
        infos = [g for g in infos if g.id in args.game_ids]
    if not infos:
        print("No requested game has a determinizer yet; nothing to ladder.")
    for info in infos:
        start = time.perf_counter()
        print(ladder(info, args.players or info.min_players, args.games, args.seed))
        print(f"\n({time.perf_counter() - start:.0f} s)\n")


if __name__ == "__main__":
    main()
