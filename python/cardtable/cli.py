"""The ``cardtable`` command line: list games, run simulations, play a seat in the terminal."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

import click
from rich.console import Console
from rich.table import Table

import cardtable
from cardtable.errors import CardtableError

__all__ = ["main"]

console = Console()


def _parse_value(text: str) -> Any:
    """``true``/``false``/``null``/numbers as JSON, anything else as a string."""
    lowered = text.strip().lower()
    if lowered in ("none", "null"):
        return None
    try:
        return json.loads(lowered if lowered in ("true", "false") else text)
    except json.JSONDecodeError:
        return text


def _parse_options(pairs: tuple[str, ...]) -> dict[str, Any]:
    options: dict[str, Any] = {}
    for pair in pairs:
        key, sep, value = pair.partition("=")
        if not sep or not key:
            raise click.BadParameter(f"expected KEY=VALUE, got {pair!r}", param_hint="--option")
        options[key.strip()] = _parse_value(value)
    return options


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(cardtable.__version__, prog_name="cardtable")
def main() -> None:
    """Exact, fast engines for tabletop card games: simulate, study and play."""


@main.command("games")
def games_command() -> None:
    """List the games with their player counts, options and built-in bots."""
    for info in cardtable.games():
        table = Table(
            title=f"{info.id}  ({info.min_players}-{info.max_players} players; "
            f"bots: {', '.join(info.bots)})",
            title_justify="left",
        )
        table.add_column("option", no_wrap=True)
        table.add_column("type")
        table.add_column("default")
        table.add_column("meaning")
        for o in info.options:
            kind = o.type + (f" {list(o.choices)}" if o.choices else "")
            table.add_row(o.name, kind, json.dumps(o.default), o.doc)
        console.print(table)


def _write_plot(result: cardtable.SimulationResult, path: Path) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    assert result.scores is not None and result.lengths is not None
    scores = result.scores[result.lengths > 0]
    fig, ax = plt.subplots(figsize=(8, 4.5))
    low, high = int(scores.min()), int(scores.max())
    bins = [b - 0.5 for b in range(low, high + 2)]
    for seat in range(result.players):
        ax.hist(
            scores[:, seat],
            bins=bins,
            histtype="step",
            linewidth=1.5,
            label=f"seat {seat} ({result.bots[seat]})",
        )
    ax.set_xlabel("final score")
    ax.set_ylabel("games")
    ax.set_title(f"{result.game_id}: score distribution over {result.games_played:,} games")
    ax.legend()
    fig.tight_layout()
    fig.savefig(path, dpi=120)
    plt.close(fig)


@main.command("simulate")
@click.argument("game_id")
@click.option("-p", "--players", type=int, required=True, help="Number of players.")
@click.option("-n", "--games", type=int, default=10_000, show_default=True, help="Games to play.")
@click.option(
    "-b", "--bots", default="", help="Comma-separated bot per seat (default: random everywhere)."
)
@click.option("--seed", type=int, default=0, show_default=True, help="Seed of the run.")
@click.option("--threads", type=int, default=None, help="Worker threads (default: all cores).")
@click.option(
    "-o", "--option", "option_pairs", multiple=True, metavar="KEY=VALUE", help="A game option."
)
@click.option(
    "--out", type=click.Path(dir_okay=False, path_type=Path), help="Write a Parquet file."
)
@click.option(
    "--plot", type=click.Path(dir_okay=False, path_type=Path), help="Write a score plot (PNG)."
)
@click.option(
    "--summary-only", is_flag=True, help="Keep no per-game data (fixed memory, for huge runs)."
)
@click.option(
    "--backend",
    type=click.Choice(["local", "ray"]),
    default="local",
    show_default=True,
    help="Run here, or as Ray tasks.",
)
@click.option("--no-progress", is_flag=True, help="Hide the progress bar.")
def simulate_command(
    game_id: str,
    players: int,
    games: int,
    bots: str,
    seed: int,
    threads: int | None,
    option_pairs: tuple[str, ...],
    out: Path | None,
    plot: Path | None,
    summary_only: bool,
    backend: str,
    no_progress: bool,
) -> None:
    """Play many games of GAME_ID with built-in bots and print a summary per seat and bot.

    Ctrl-C stops the run and prints the summary of the games completed so far.
    """
    if summary_only and (out or plot):
        raise click.UsageError("--out and --plot need per-game data; drop --summary-only")
    bot_list = [b.strip() for b in bots.split(",")] if bots else None
    try:
        result = cardtable.simulate(
            game_id,
            games=games,
            players=players,
            bots=bot_list,
            seed=seed,
            threads=threads,
            keep_games=not summary_only,
            progress=not no_progress,
            backend=backend,  # type: ignore[arg-type]
            **_parse_options(option_pairs),
        )
    except CardtableError as err:
        raise click.ClickException(str(err)) from None
    click.echo(result.summary_table())
    if result.interrupted:
        click.echo(f"interrupted: {result.games_played:,} of {games:,} games completed")
    if out:
        result.to_parquet(out)
        click.echo(f"wrote {out}")
    if plot:
        _write_plot(result, plot)
        click.echo(f"wrote {plot}")


# --- Balance studies: tournament, balance, sweep (cardtable.analysis) ---------------------------
def _register_studies() -> None:
    from cardtable.analysis._cli import register

    register(main, _parse_options)


_register_studies()
# --- end of balance studies --------------------------------------------------------------------


# --- Conformance of an implementation in any language (cardtable.conformance) ------------------
def _register_conformance() -> None:
    from cardtable.conformance._cli import register

    register(main, _parse_options)


_register_conformance()
# --- end of conformance ------------------------------------------------------------------------


# --- Seeing a game: replay (cardtable.render) ---------------------------------------------------
def _register_replay() -> None:
    from cardtable.render._cli import register

    register(main, _parse_options)


_register_replay()
# --- end of replay ------------------------------------------------------------------------------


@main.command("play")
@click.argument("game_id")
@click.option("-p", "--players", type=int, required=True, help="Number of players.")
@click.option("--seat", type=int, default=0, show_default=True, help="Your seat.")
@click.option(
    "-b", "--bots", default="", help="Comma-separated bots for the other seats (default: greedy)."
)
@click.option("--seed", type=int, default=None, help="Seed of the deal (default: random).")
@click.option(
    "-o", "--option", "option_pairs", multiple=True, metavar="KEY=VALUE", help="A game option."
)
def play_command(
    game_id: str,
    players: int,
    seat: int,
    bots: str,
    seed: int | None,
    option_pairs: tuple[str, ...],
) -> None:
    """Play one seat of GAME_ID in the terminal against built-in bots."""
    import random

    from cardtable.render.play import play
    from cardtable.render.replay import _bot_seed

    try:
        game = cardtable.make(game_id, players=players, **_parse_options(option_pairs))
        info = next(g for g in cardtable.games() if g.id == game_id)
        if not 0 <= seat < game.players:
            raise click.BadParameter(f"seat must be in 0..{game.players - 1}", param_hint="--seat")
        default_bot = info.bots[1] if len(info.bots) > 1 else "random"
        names = [b.strip() for b in bots.split(",")] if bots else []
        others = [s for s in range(game.players) if s != seat]
        if names and len(names) != len(others):
            raise click.BadParameter(
                f"give {len(others)} bots (one per other seat)", param_hint="--bots"
            )
        seed = random.randrange(2**63) if seed is None else seed
        state = game.new_state(seed=seed)
        seated = {
            s: cardtable.bot(game, names[i] if names else default_bot, s, seed=_bot_seed(seed, s))
            for i, s in enumerate(others)
        }
    except CardtableError as err:
        raise click.ClickException(str(err)) from None
    console.print(
        f"[bold]{game_id}[/bold], {game.players} players, you are seat {seat} "
        f"(seed {seed}). Bots: " + ", ".join(f"seat {s} {b.name}" for s, b in seated.items())
    )

    def choose(count: int) -> int:
        return int(
            click.prompt("choose", type=click.IntRange(0, count - 1), default=0, show_default=True)
        )

    play(game, state, seat, seated, console, choose)
    sys.exit(0)


if __name__ == "__main__":
    main()
