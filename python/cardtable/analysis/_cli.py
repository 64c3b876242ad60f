"""The ``cardtable tournament``, ``balance`` and ``sweep`` commands (registered by ``cli.py``)."""

from __future__ import annotations

import functools
import json
import math
from collections.abc import Callable
from dataclasses import dataclass, fields
from pathlib import Path
from typing import Any, Protocol

import click

from cardtable._cli_options import option_pairs, parse_options

__all__ = ["register"]


class _Result(Protocol):
    seconds: float

    def summary_table(self) -> str: ...
    def to_dict(self) -> dict[str, Any]: ...
    def to_parquet(self, path: str | Path) -> None: ...
    def write_report(self, path: str | Path) -> None: ...


def _clean(value: Any) -> Any:
    """NaN and infinities become null so that the JSON is standard."""
    if isinstance(value, float) and not math.isfinite(value):
        return None
    if isinstance(value, dict):
        return {str(k): _clean(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [_clean(v) for v in value]
    return value


def _outputs(f: Callable[..., Any]) -> Callable[..., Any]:
    f = click.option("--no-progress", is_flag=True, help="Hide the progress bar.")(f)
    f = click.option(
        "--report",
        type=click.Path(dir_okay=False, path_type=Path),
        help="Write a self-contained HTML report.",
    )(f)
    f = click.option(
        "--parquet",
        type=click.Path(dir_okay=False, path_type=Path),
        help="Write the per-game (sweep: per option set and seat) table as Parquet.",
    )(f)
    f = click.option(
        "--json",
        "json_path",
        type=click.Path(dir_okay=False, allow_dash=True, path_type=Path),
        help="Write the results as JSON ('-': to standard output, without the table).",
    )(f)
    f = option_pairs(f)
    f = click.option("--threads", type=int, default=None, help="Worker threads (default: all).")(f)
    f = click.option("--seed", type=int, default=0, show_default=True, help="Seed of the study.")(f)
    f = click.option("-p", "--players", type=int, required=True, help="Number of players.")(f)
    return click.argument("game_id")(f)


_COMMON = (
    "game_id",
    "players",
    "seed",
    "threads",
    "option_pairs",
    "json_path",
    "parquet",
    "report",
)


@dataclass(frozen=True)
class _Study:
    """What every study command takes: the game, the study's seed and threads, and the outputs."""

    game_id: str
    players: int
    seed: int
    threads: int | None
    option_pairs: tuple[str, ...]
    json_path: Path | None
    parquet: Path | None
    report: Path | None
    no_progress: bool

    def run(self, study: Callable[..., _Result], **params: Any) -> None:
        """Runs ``study`` on the game with ``params`` and the common settings, then the outputs."""
        from cardtable.errors import CardtableError

        try:
            result = study(
                self.game_id,
                players=self.players,
                seed=self.seed,
                threads=self.threads,
                progress=not self.no_progress,
                **params,
                **parse_options(self.option_pairs),
            )
        except CardtableError as err:
            raise click.ClickException(str(err)) from None
        except KeyboardInterrupt:
            raise click.ClickException("interrupted") from None
        _finish(result, self.json_path, self.parquet, self.report)


def _study_command(f: Callable[..., None]) -> Callable[..., None]:
    """Gives the command ``f`` the common options, gathered into a :class:`_Study` argument."""

    def command(**kwargs: Any) -> None:
        common = {field.name: kwargs.pop(field.name) for field in fields(_Study)}
        f(_Study(**common), **kwargs)

    return _outputs(functools.update_wrapper(command, f))


def _finish(
    result: _Result, json_path: Path | None, parquet: Path | None, report: Path | None
) -> None:
    to_stdout = json_path is not None and str(json_path) == "-"
    if not to_stdout:
        click.echo(result.summary_table())
        click.echo(f"took {result.seconds:.1f} s")
    if json_path is not None:
        text = json.dumps(_clean(result.to_dict()), indent=2)
        if to_stdout:
            click.echo(text)
        else:
            json_path.write_text(text + "\n", encoding="utf-8")
            click.echo(f"wrote {json_path}")
    for path, write in ((parquet, result.to_parquet), (report, result.write_report)):
        if path is not None:
            write(path)
            if not to_stdout:
                click.echo(f"wrote {path}")


def _bot_list(text: str) -> list[str]:
    from cardtable.bots import split_bot_specs

    return split_bot_specs(text)


def register(main: click.Group) -> None:
    """Adds the study commands to the ``cardtable`` command group."""

    @main.command("tournament")
    @_study_command
    @click.option("-b", "--bots", required=True, help="Comma-separated bots, e.g. greedy,random.")
    @click.option("-n", "--games", type=int, default=1000, show_default=True, help="Deals.")
    @click.option("--no-rotate", is_flag=True, help="Only the seat assignment given.")
    @click.option("--no-duplicate", is_flag=True, help="New deals for every seat assignment.")
    @click.option(
        "--rating-bootstrap", type=int, default=100, show_default=True, help="Bootstrap replicates."
    )
    def tournament_command(
        study: _Study,
        bots: str,
        games: int,
        no_rotate: bool,
        no_duplicate: bool,
        rating_bootstrap: int,
    ) -> None:
        """Every bot in every seat of GAME_ID, on duplicate deals.

        Prints win rates, places, scores, head-to-head shares, paired differences and ratings.
        """
        from cardtable.analysis import tournament

        study.run(
            tournament,
            bots=_bot_list(bots),
            games=games,
            rotate_seats=not no_rotate,
            duplicate=not no_duplicate,
            rating_bootstrap=rating_bootstrap,
        )

    @main.command("balance")
    @_study_command
    @click.option("--bot", default=None, help="The bot in every seat (default: greedy).")
    @click.option(
        "--weaker",
        default="random",
        show_default=True,
        help="A weaker bot for the luck measure ('none' to skip it).",
    )
    @click.option("-n", "--games", type=int, default=10_000, show_default=True, help="Games.")
    @click.option(
        "--trace-games",
        type=int,
        default=300,
        show_default=True,
        help="Games replayed step by step.",
    )
    @click.option("--luck-games", type=int, default=None, help="Deals of the luck tournament.")
    def balance_command(
        study: _Study,
        bot: str | None,
        weaker: str,
        games: int,
        trace_games: int,
        luck_games: int | None,
    ) -> None:
        """The balance of GAME_ID, with the same bot in every seat.

        Prints seat advantage, game length, margins, lead changes, how early the winner is
        decided, and a luck measure.
        """
        from cardtable.analysis import balance

        study.run(
            balance,
            bot=bot,
            weaker=None if weaker.lower() == "none" else weaker,
            games=games,
            trace_games=trace_games,
            luck_games=luck_games,
        )

    @main.command("sweep")
    @_study_command
    @click.option(
        "-g",
        "--grid",
        "grid_pairs",
        multiple=True,
        required=True,
        metavar="KEY=V1,V2,...",
        help="An option and the values to try (repeat for more options).",
    )
    @click.option(
        "-b", "--bots", default="", help="Comma-separated bots (default: greedy,random…)."
    )
    @click.option(
        "-n", "--games", type=int, default=2000, show_default=True, help="Deals per option set."
    )
    @click.option("--no-rotate", is_flag=True, help="Only the seat assignment given.")
    def sweep_command(
        study: _Study,
        grid_pairs: tuple[str, ...],
        bots: str,
        games: int,
        no_rotate: bool,
    ) -> None:
        """Every combination of the --grid option values of GAME_ID.

        Prints win rates per bot, seat 0's win rate, length and margins per option set; the
        report has a plot per metric (a heat map for two options).
        """
        from cardtable.analysis import sweep

        grid: dict[str, list[Any]] = {}
        for pair in grid_pairs:
            key, sep, values = pair.partition("=")
            if not sep or not key or not values:
                raise click.BadParameter(
                    f"expected KEY=V1,V2,..., got {pair!r}", param_hint="--grid"
                )
            grid[key.strip()] = [
                parse_options((f"{key}={v}",))[key.strip()] for v in values.split(",")
            ]
        study.run(
            sweep, grid=grid, bots=_bot_list(bots) or None, games=games, rotate_seats=not no_rotate
        )
