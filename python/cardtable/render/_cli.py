"""The ``cardtable replay`` command (registered by ``cli.py``)."""

from __future__ import annotations

from pathlib import Path

import click

from cardtable._api import game_info
from cardtable._cli_options import bots_option, game_id_argument, option_pairs, parse_options
from cardtable._inputs import MAX_SEED

__all__ = ["register"]

_SEED = click.IntRange(0, MAX_SEED)
"""Seeds and game indices: below 2**64, as for ``cardtable simulate`` (``docs/errors.md``)."""
_PLAYERS = click.IntRange(min=1)


def register(main: click.Group) -> None:
    """Adds the ``replay`` command to the command group."""

    @main.command("replay")
    @game_id_argument()
    @click.option(
        "-p",
        "--players",
        type=_PLAYERS,
        help="Number of players (default: one per bot given with --bots, within the game's "
        "range; without --bots the game's fewest).",
    )
    @bots_option(
        "Comma-separated bot per seat (default: the game's heuristic bot in every seat, "
        "greedy, else its first own bot; with --game, random everywhere, as simulate).",
    )
    @click.option("--seed", type=_SEED, default=0, show_default=True, help="Seed of the game.")
    @click.option(
        "--game",
        "game_index",
        type=click.IntRange(0, 2**64 - 2),  # a run's game numbers stay below 2**64 - 1
        default=None,
        help="Rebuild game G of `cardtable simulate --seed SEED` run with the same --bots "
        "(default, as there: random everywhere) and options instead.",
    )
    @click.option(
        "--out",
        type=click.Path(dir_okay=False, path_type=Path),
        required=True,
        help="The HTML file to write.",
    )
    @option_pairs
    def replay_command(
        game_id: str,
        players: int | None,
        bots: str | None,
        seed: int,
        game_index: int | None,
        option_pairs: tuple[str, ...],
        out: Path,
    ) -> None:
        """Play (or rebuild) one game of bots and write a self-contained HTML replay of it.

        The file works offline: a step slider, play/pause, a view selector (the full view or what
        one seat saw), the actions in words and the scores after every step.

        Without --game the deal is the seeded game SEED and the bot in seat p is seeded with
        derive_seed(SEED, p + 1); with --game G it is exactly game G of
        `cardtable simulate GAME_ID --seed SEED --bots ...` (whose bots default, as simulate's, to
        random in every seat).
        """
        import cardtable
        from cardtable.cli import _check_writable, bot_names, check_bot_names, echo, write_errors
        from cardtable.errors import CardtableError
        from cardtable.render._common import outcome
        from cardtable.render.replay import play_game, replay_run_game

        if str(out) == "-":  # as the studies' --report: a replay is a file
            raise click.BadParameter("cannot be written to standard output", param_hint="--out")
        _check_writable(out, "--out")  # before the game is played
        try:
            names = bot_names(bots)
            options = parse_options(option_pairs)
            seats = players
            if seats is None:  # one bot per seat: the nearest count, so names are checked first
                info = game_info(game_id)
                low, high = int(info.min_players), int(info.max_players)
                seats = min(max(len(names), low), high) if names else low
            game = cardtable.make(game_id, players=seats, **options)  # checks players first
            if not names:  # simulate's default for a game of a run, else the heuristic bot
                bot = "random" if game_index is not None else cardtable.bots.default_bot(game_id)
                names = [bot] * game.players
            check_bot_names(game, names, players)
            if game_index is not None:
                viewer = replay_run_game(
                    game_id,
                    game.players,
                    names,
                    seed=seed,
                    game=game_index,
                    options=dict(game.options),
                )
            else:
                history, seated = play_game(game, names, seed)
                viewer = cardtable.replay(
                    history, game, names=seated, title=f"{game_id}: seeded game {seed}"
                )
        except CardtableError as err:  # every one is about the command's arguments
            raise click.UsageError(str(err)) from None
        with write_errors(out):
            viewer.save(out)
        final = viewer.frames[-1].scores
        decisions = sum(frame.actor is not None for frame in viewer.frames)
        echo(
            f"wrote {out}: {len(viewer.frames) - 1} steps ({decisions} decisions, the rest chance),"
            " final scores "
            + ", ".join(
                f"seat {p} ({n}) {s}" for p, (n, s) in enumerate(zip(names, final, strict=True))
            )
            + f"; {outcome(viewer.winners, names)}"
        )
