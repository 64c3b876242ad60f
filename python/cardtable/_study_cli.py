"""The ``cardtable tournament``, ``balance`` and ``sweep`` commands (registered by ``cli.py``).

Outside ``cardtable.analysis``, which needs the ``analysis`` extra: the commands and their
``--help`` are there without it, and running one says which extra to install.
"""

from __future__ import annotations

import functools
import itertools
import json
from collections.abc import Callable
from dataclasses import dataclass, fields
from pathlib import Path
from typing import Any, Protocol

import click

from cardtable._cli_options import (
    F,
    bots_option,
    game_id_argument,
    key_value_pairs,
    option_pairs,
    parse_options,
)
from cardtable._extras import ANALYSIS_MODULES
from cardtable._inputs import MAX_THREADS, shown
from cardtable._study_defaults import (
    MAX_RATING_BOOTSTRAP,
    MIN_RATING_BOOTSTRAP,
    RATING_BOOTSTRAP,
    RATING_GAMES,
)

__all__ = ["register"]


def _need_analysis(command: str) -> None:
    """Fails before any work unless the ``analysis`` extra is installed, naming it.

    Raises:
        click.UsageError: If a module it installs is missing.
    """
    from cardtable.cli import _require

    _require(ANALYSIS_MODULES, "analysis", f"cardtable {command}")


class _Result(Protocol):
    seconds: float

    def summary_table(self) -> str: ...
    def to_dict(self) -> dict[str, Any]: ...
    def to_parquet(self, path: str | Path) -> None: ...
    def to_csv(self, path: str | Path) -> None: ...
    def write_report(self, path: str | Path) -> None: ...


def _file_option(*decls: str, help: str, allow_dash: bool = False) -> Callable[[F], F]:
    """An option naming an output file (``allow_dash``: ``-`` for standard output)."""
    path = click.Path(dir_okay=False, allow_dash=allow_dash, path_type=Path)
    return click.option(*decls, type=path, help=help)


def _outputs(f: Callable[..., Any], table: str) -> Callable[..., Any]:
    f = click.option("--no-progress", is_flag=True, help="Hide the progress bar.")(f)
    f = _file_option("--report", help="Write a self-contained HTML report.")(f)
    f = _file_option(
        "--csv", "csv_path", help="Write the same table as --parquet as CSV (FILE.csv)."
    )(f)
    f = _file_option(
        "--parquet", help=f"Write the {table} table as Parquet (FILE.parquet or FILE.pq)."
    )(f)
    f = _file_option(
        "--json",
        "json_path",
        help="Write the results as JSON ('-': to standard output, without the table).",
        allow_dash=True,
    )(f)
    f = option_pairs(f)
    threads = click.IntRange(1, MAX_THREADS)
    f = click.option("--threads", type=threads, help="Worker threads (default: all).")(f)
    seed = click.IntRange(0, 2**64 - 1)
    f = click.option("--seed", type=seed, default=0, show_default=True, help="Study's seed.")(f)
    f = click.option(
        "-p",
        "--players",
        type=click.IntRange(min=1),
        help="Number of players (default: the game's only count, for a game of one).",
    )(f)
    return game_id_argument()(f)


_HEURISTIC = "the game's heuristic bot: greedy, else its first own bot (memory in the memory game)"
"""What the studies seat when no bot is named (:func:`cardtable.bots.default_bot`)."""

_COMMON = (
    "game_id",
    "players",
    "seed",
    "threads",
    "option_pairs",
    "json_path",
    "parquet",
    "csv_path",
    "report",
)


@dataclass(frozen=True)
class _Study:
    """What every study command takes: the game, the study's seed and threads, and the outputs."""

    game_id: str
    players: int | None
    seed: int
    threads: int | None
    option_pairs: tuple[str, ...]
    json_path: Path | None
    parquet: Path | None
    csv_path: Path | None
    report: Path | None
    no_progress: bool

    def run(self, study: Callable[..., _Result], **params: Any) -> None:
        """Runs ``study`` on the game with ``params`` and the common settings, then the outputs.

        The output paths are checked first; a bad input to the study (or one too large for
        memory) is a usage error.
        """
        from cardtable.cli import seat_count
        from cardtable.errors import CapacityError, CardtableError, InvalidOptionError

        _check_outputs(self.json_path, self.parquet, self.csv_path, self.report)
        players = seat_count(self.game_id, None, None) if self.players is None else self.players
        settings: dict[str, Any] = {
            "players": players,
            "seed": self.seed,
            "threads": self.threads,
            "progress": not self.no_progress,
            **params,
        }
        options = parse_options(self.option_pairs)
        # The study's own keywords (and the game id it takes first) are no game options.
        taken = sorted(set(options) & {"game_id", *settings})
        if taken:
            raise click.UsageError(
                f"-o {taken[0]}=... is not a game option of {self.game_id}: {taken[0]} is a "
                "setting of the study (see --help)"
            )
        try:
            result = study(self.game_id, **settings, **options)
        except (InvalidOptionError, CapacityError) as err:
            raise click.UsageError(str(err)) from None
        except CardtableError as err:
            raise click.ClickException(str(err)) from None
        except KeyboardInterrupt:
            # As `cardtable simulate` stopped by Ctrl-C: status 130 (a study keeps nothing).
            click.echo(
                "interrupted: the study was stopped before it finished; nothing written", err=True
            )
            raise SystemExit(130) from None
        _finish(result, self.json_path, self.parquet, self.csv_path, self.report)


def _study_command(table: str) -> Callable[[Callable[..., None]], Callable[..., None]]:
    """Gives a command the common options, gathered into a :class:`_Study` argument.

    ``table`` names the rows of its ``--parquet`` and ``--csv`` table.
    """

    def decorate(f: Callable[..., None]) -> Callable[..., None]:
        def command(**kwargs: Any) -> None:
            common = {field.name: kwargs.pop(field.name) for field in fields(_Study)}
            f(_Study(**common), **kwargs)

        return _outputs(functools.update_wrapper(command, f), table)

    return decorate


_FORMATS = {"--parquet": ("Parquet", (".parquet", ".pq")), "--csv": ("CSV", (".csv",))}
"""Each table output's format and file extensions: a name that says another format is refused."""


def _check_outputs(
    json_path: Path | None, parquet: Path | None, csv_path: Path | None, report: Path | None
) -> None:
    """Refuses, before the study runs, output paths it could not write or that name one file.

    A table output must also be named for its format (``--parquet t.csv`` would write Parquet
    into a file every reader takes for CSV).
    """
    from cardtable.cli import _check_writable

    files = {"--json": json_path, "--parquet": parquet, "--csv": csv_path, "--report": report}
    for option, path in files.items():
        if path is None or (option == "--json" and str(path) == "-"):
            continue
        if str(path) == "-":
            raise click.BadParameter("cannot be written to standard output", param_hint=option)
        name, suffixes = _FORMATS.get(option, ("", ()))
        if suffixes and path.suffix.lower() not in suffixes:
            other = [o for o, (_, s) in _FORMATS.items() if path.suffix.lower() in s]
            raise click.BadParameter(
                f"writes {name}: name the file {' or '.join('FILE' + x for x in suffixes)}, got "
                f"{shown(path.name)}" + (f" ({other[0]} writes that format)" if other else ""),
                param_hint=option,
            )
        _check_writable(path, option)
    named = [(o, p.resolve()) for o, p in files.items() if p is not None and str(p) != "-"]
    for (a, path_a), (b, path_b) in itertools.combinations(named, 2):
        if path_a == path_b:
            raise click.UsageError(f"{a} and {b} name the same file")


def _finish(
    result: _Result,
    json_path: Path | None,
    parquet: Path | None,
    csv_path: Path | None,
    report: Path | None,
) -> None:
    """Writes the outputs, then prints the summary and what was written.

    The files come first, so that a reader of standard output that goes away early
    (``cardtable balance ... | head -1``) does not cost them. A failed write is a one-line
    error (status 1), after the results and the files written before it.

    Raises:
        click.ClickException: If an output could not be written.
    """
    from cardtable._inputs import write_whole
    from cardtable.cli import echo, write_outputs

    to_stdout = json_path is not None and str(json_path) == "-"
    text = "" if json_path is None else json.dumps(result.to_dict(), indent=2, allow_nan=False)
    written, failed = write_outputs(
        [
            (
                None if to_stdout else json_path,
                lambda path: write_whole(path, lambda f: f.write((text + "\n").encode("utf-8"))),
            ),
            (parquet, result.to_parquet),
            (csv_path, result.to_csv),
            (report, result.write_report),
        ]
    )
    if to_stdout:
        echo(text)  # the JSON alone: standard output is a data stream
    else:
        echo(result.summary_table())
        echo(f"took {result.seconds:.1f} s")
        for path in written:
            echo(f"wrote {path}")
    if failed is not None:
        raise failed


def _COUNT(low: int) -> click.IntRange:  # noqa: N802 (a type, as click.IntRange)
    """A count of ``low`` or more, up to the studies' limit (below 2**64)."""
    return click.IntRange(low, 2**64 - 1)


def _games_option(default: int, help: str) -> Callable[[Callable[..., Any]], Callable[..., Any]]:
    """The ``-n/--games`` option of a study: at least two (an interval needs two games)."""
    return click.option(
        "-n", "--games", type=_COUNT(2), default=default, show_default=True, help=help
    )


def _none_or_enough(ctx: click.Context, param: click.Parameter, value: int) -> int:
    """Refuses a few bootstrap replicates: 0 (no intervals) or enough for a 95% interval."""
    if 0 < value < MIN_RATING_BOOTSTRAP:
        raise click.BadParameter(
            f"give 0 (no rating intervals) or at least {MIN_RATING_BOOTSTRAP} (a 95% interval "
            "from fewer replicates is mostly noise)"
        )
    return value


def _bot_list(text: str) -> list[str]:
    from cardtable.bots import split_bot_specs

    return split_bot_specs(text)


def _grid_key_twice(key: str, first: str, pair: str) -> str:
    """The error of ``--grid`` naming ``key`` again (:func:`key_value_pairs`' ``twice``)."""
    return f"{key} is given twice; list all its values once: {key}=V1,V2,..."


def register(main: click.Group) -> None:
    """Adds the study commands to the ``cardtable`` command group."""

    @main.command("tournament")
    @_study_command("per-game")
    @bots_option("Comma-separated bots, e.g. greedy,random.", required=True)
    @_games_option(1000, "Deals.")
    @click.option("--no-rotate", is_flag=True, help="Only the seat assignment given.")
    @click.option("--no-duplicate", is_flag=True, help="New deals for every seat assignment.")
    @click.option(
        "--rating-bootstrap",
        type=click.IntRange(0, MAX_RATING_BOOTSTRAP),
        callback=_none_or_enough,
        default=RATING_BOOTSTRAP,
        show_default=True,
        help="Bootstrap replicates of the rating intervals (0: none, else at least "
        f"{MIN_RATING_BOOTSTRAP}).",
    )
    @click.option(
        "--rating-games",
        type=_COUNT(1),
        default=RATING_GAMES,
        show_default=True,
        help="Games rated per fit (a seeded sample of whole deals beyond that).",
    )
    def tournament_command(
        study: _Study,
        bots: str,
        games: int,
        no_rotate: bool,
        no_duplicate: bool,
        rating_bootstrap: int,
        rating_games: int,
    ) -> None:
        """Every bot in every seat of GAME_ID, on duplicate deals.

        Prints win rates, places, scores, head-to-head shares, paired differences and ratings.
        """
        _need_analysis("tournament")
        from cardtable.analysis import tournament

        study.run(
            tournament,
            bots=_bot_list(bots),
            games=games,
            rotate_seats=not no_rotate,
            duplicate=not no_duplicate,
            rating_bootstrap=rating_bootstrap,
            rating_games=rating_games,
        )

    @main.command("balance")
    @_study_command("per-game")
    @bots_option(f"The bot in every seat (default: {_HEURISTIC}).", "-b", "--bot")
    @bots_option(
        "A weaker bot for the luck measure ('none' to skip it).",
        "--weaker",
        default="random",
        show_default=True,
    )
    @_games_option(10_000, "Games.")
    @click.option(
        "--trace-games",
        type=_COUNT(0),
        default=300,
        show_default=True,
        help="Games replayed step by step.",
    )
    @click.option(
        "--luck-games",
        type=_COUNT(2),
        help="Deals of the luck tournament, at least 2 (default: games / players).",
    )
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
        _need_analysis("balance")
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
    @_study_command("per option set and seat")
    @click.option(
        "-g",
        "--grid",
        "grid_pairs",
        multiple=True,
        required=True,
        metavar="KEY=V1,V2,...",
        help="An option and the values to try (repeat for more options).",
    )
    @bots_option(f"Bots (default: {_HEURISTIC}, then random).")
    @_games_option(2000, "Deals per option set.")
    @click.option("--no-rotate", is_flag=True, help="Only the seat assignment given.")
    @click.option(
        "--baseline",
        "baseline_pairs",
        multiple=True,
        metavar="KEY=VALUE",
        help="The option set the differences are taken from, by its swept options' values "
        "(repeat for more options; default: the first option set).",
    )
    def sweep_command(
        study: _Study,
        grid_pairs: tuple[str, ...],
        bots: str | None,
        games: int,
        no_rotate: bool,
        baseline_pairs: tuple[str, ...],
    ) -> None:
        """Every combination of the --grid option values of GAME_ID.

        Prints win rates per bot, seat 0's advantage (its win rate minus the equal seats'
        share), length, margins and shared wins per option set, each option set's difference
        from the baseline and each option's own effect, paired by deal; the report has a plot per
        metric (a heat map for two options).
        """
        _need_analysis("sweep")
        from cardtable.analysis import sweep

        grid: dict[str, list[Any]] = {}
        pairs = key_value_pairs(
            grid_pairs, "KEY=V1,V2,...", "--grid", _grid_key_twice, need_value=True
        )
        for key, values in pairs:
            grid[key] = [parse_options((f"{key}={v}",))[key] for v in values.split(",")]
        bot_list = None if bots is None else _bot_list(bots)
        try:
            baseline: dict[str, Any] | int = parse_options(baseline_pairs) if baseline_pairs else 0
        except click.BadParameter as err:
            raise click.BadParameter(err.message, param_hint="--baseline") from None
        study.run(
            sweep,
            grid=grid,
            bots=bot_list,
            games=games,
            rotate_seats=not no_rotate,
            baseline=baseline,
        )
