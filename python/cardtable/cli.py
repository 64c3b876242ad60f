"""The ``cardtable`` command line: list games, run simulations, play a seat in the terminal."""

from __future__ import annotations

import contextlib
import csv
import dataclasses
import difflib
import io
import json
import os
import re
import secrets
import signal
import stat
import sys
import threading
import traceback
from collections.abc import Callable, Iterable, Iterator
from pathlib import Path
from types import FrameType
from typing import Any, Literal, NoReturn, TextIO

import click
from rich.console import Console
from rich.table import Table

import cardtable
from cardtable._api import game_info
from cardtable._cli_options import (
    bot_count_error,
    bots_option,
    choice_option,
    game_id_argument,
    games_option,
    option_pairs,
    parse_options,
)
from cardtable._extras import missing_extra
from cardtable._inputs import MAX_THREADS, shown, writing
from cardtable.bots import split_bot_specs
from cardtable.errors import CapacityError, CardtableError
from cardtable.protocols import GameProtocol

__all__ = ["main"]

console = Console()


TERMINATED = 143
"""The exit status of a command stopped by SIGTERM (128 + SIGTERM, as a shell reports it)."""


class _Commands(click.Group):
    """The command group, whose own printing (``--help``, ``--version``) fails in one line.

    Every command writes through :func:`write_errors`; click prints the help and version texts
    itself, and a standard output it cannot write (a full disk) ended them in a traceback.
    """

    def main(self, *args: Any, **kwargs: Any) -> Any:
        """Runs the command line, as :meth:`click.Group.main`."""
        try:
            return super().main(*args, **kwargs)
        except OSError as err:
            frames = traceback.extract_tb(err.__traceback__)
            if not frames or frames[-1].name != "echo" or "click" not in frames[-1].filename:
                raise
            failed = _write_failure(err)
            failed.show()
            sys.exit(failed.exit_code)


@click.group(cls=_Commands, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(cardtable.__version__, prog_name="cardtable")
@click.pass_context
def main(ctx: click.Context) -> None:
    """Exact, fast engines for tabletop card games: simulate, study and play."""
    # SIGTERM ends the command by unwinding it, as Ctrl-C does, so that a file being written
    # is removed rather than left half-written beside its target (exit status 143).
    if threading.current_thread() is threading.main_thread():
        previous = signal.signal(signal.SIGTERM, _terminate)
        ctx.call_on_close(lambda: signal.signal(signal.SIGTERM, previous))


def _terminate(signum: int, frame: FrameType | None) -> NoReturn:
    raise SystemExit(TERMINATED)


class _Terminated(KeyboardInterrupt):
    """SIGTERM during a run's games: it stops them as Ctrl-C does (:func:`_sigterm_stops_games`)."""


@contextlib.contextmanager
def _sigterm_stops_games() -> Iterator[list[bool]]:
    """Makes SIGTERM stop the games played in the block as Ctrl-C does, keeping those completed.

    A batch system's SIGTERM (a job's time limit, say) then leaves the partial run summarized
    and written, to ``resume`` later, instead of losing it all. Yields a list that holds
    ``True`` once a SIGTERM came. After the block SIGTERM unwinds the command (status 143).
    """
    came: list[bool] = []

    def stop(signum: int, frame: FrameType | None) -> NoReturn:
        came.append(True)
        signal.signal(signal.SIGTERM, _terminate)  # a second one unwinds at once
        raise _Terminated

    if threading.current_thread() is not threading.main_thread():
        yield came
        return
    previous = signal.signal(signal.SIGTERM, stop)
    try:
        yield came
    finally:
        if not came:
            signal.signal(signal.SIGTERM, previous)


def _stopped(terminated: list[bool]) -> SystemExit:
    """The exit of a run stopped part-way: status 143 after SIGTERM, 130 after Ctrl-C."""
    if terminated:
        echo("stopped by SIGTERM", err=True)
        return SystemExit(TERMINATED)
    return SystemExit(INTERRUPTED)


@contextlib.contextmanager
def write_errors(path: object = None) -> Iterator[None]:
    """Turns an ``OSError`` of writing ``path`` into a one-line error (exit status 1).

    The message is ``could not write PATH: REASON``; ``path`` ``None`` is standard output, whose
    unwritten rest is then dropped (the interpreter would fail again flushing it at exit). A
    reader of standard output that went away (``cardtable games | head -1``) is not reported:
    the command stops quietly with status 1, as Python's documentation advises for a broken
    pipe (and as the tables printed by rich do).

    Raises:
        click.ClickException: On an ``OSError`` in the ``with`` block.
        SystemExit: With status 1 when standard output's reader has gone.
    """
    try:
        yield
    except OSError as err:
        if path is None:
            raise _write_failure(err) from None
        reason = err.strerror or str(err)
        raise click.ClickException(f"could not write {path}: {reason}") from None


def write_outputs(
    outputs: Iterable[tuple[Path | None, Callable[[Path], object]]],
) -> tuple[list[Path], click.ClickException | None]:
    """Writes each output ``(path, write)`` whose path is given, in order, until one fails.

    A file that cannot be written (a full disk, say) costs neither the results the command
    prints after its files nor the word on the files written before it: the caller prints
    those, then raises the failure.

    Returns:
        The paths written, and the one-line error of the output that failed (``None`` if none).
    """
    written: list[Path] = []
    for path, write in outputs:
        if path is None:
            continue
        try:
            with write_errors(path):
                write(path)
        except click.ClickException as failed:
            return written, failed
        written.append(path)
    return written, None


def _write_failure(err: OSError) -> click.ClickException:
    """The failure to write standard output with ``err``; the output's rest is dropped.

    Raises:
        SystemExit: With status 1 (and no message) for a broken pipe.
    """
    _drop_rest(sys.stdout)
    if isinstance(err, BrokenPipeError):
        raise SystemExit(1) from None
    return click.ClickException(f"could not write standard output: {err.strerror or err}")


def _drop_rest(stream: TextIO) -> None:
    """Points ``stream`` at the null device: the interpreter would fail again flushing it."""
    with contextlib.suppress(Exception):  # not a real file, as under a test runner
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, stream.fileno())
        os.close(devnull)


def echo(text: str, *, err: bool = False) -> None:
    """``click.echo`` to standard output, or to standard error with ``err``.

    Results go to standard output; what went wrong or was cut short to standard error. A failure
    to write standard output is a one-line error. A message standard error cannot take is
    dropped and the command goes on (there is nowhere left to say it, and the results still
    belong on standard output).

    Raises:
        click.ClickException: If standard output cannot be written (a full disk, say).
    """
    try:
        click.echo(text, err=err)
    except OSError as failed:
        if not err:
            raise _write_failure(failed) from None
        _drop_rest(sys.stderr)


@main.command("games")
@game_id_argument(nargs=-1, required=False, metavar="[GAME_ID]...")
@click.option(
    "--json",
    "as_json",
    is_flag=True,
    help="Print a JSON list of the games, one object each with the fields of GameInfo "
    "(id, min_players, max_players, options, bots, search_bots, bot_usages, "
    "higher_score_is_better).",
)
def games_command(game_ids: tuple[str, ...], as_json: bool) -> None:
    """List the games (or only GAME_ID...) with their player counts, options and built-in bots."""
    registered = {info.id: info for info in cardtable.games()}
    for game_id in game_ids:
        if game_id not in registered:
            near = difflib.get_close_matches(game_id, list(registered), n=1)
            hint = f" (did you mean {near[0]}?)" if near else ""
            raise click.UsageError(
                f"unknown game {shown(game_id)}{hint}; registered games: "
                f"{', '.join(sorted(registered))}"
            )
    chosen = [registered[g] for g in dict.fromkeys(game_ids)] or list(registered.values())
    with write_errors():
        if as_json:
            click.echo(json.dumps([dataclasses.asdict(info) for info in chosen], indent=2))
        else:
            _print_games(chosen)


def _print_games(chosen: list[cardtable.GameInfo]) -> None:
    for info in chosen:
        players = (
            f"{info.min_players} players"
            if info.min_players == info.max_players
            else f"{info.min_players}-{info.max_players} players"
        )
        players += ", highest score wins" if info.higher_score_is_better else ", lowest score wins"
        bots = ", ".join(info.bot_usages)
        # The bot list is long (search bots with their parameters): it goes under the options,
        # so that the title stays one line on a narrow terminal. It is one line that rich does
        # not fold: a usage has no space, so folding it at the width (80 columns when the output
        # is no terminal) cut it mid-word ("reward=win|m" / "argin").
        title = f"{info.id}  ({players})"
        if not info.options:
            console.print(f"[italic]{title}[/italic]\n  no options")
            console.print(f"  bots: {bots}\n", soft_wrap=True, markup=False, highlight=False)
            continue
        table = Table(title=title, title_justify="left")
        table.add_column("option", no_wrap=True)
        table.add_column("type")
        table.add_column("default")
        table.add_column("meaning")
        for o in info.options:
            kind = o.type + (f" {json.dumps(list(o.choices))}" if o.choices else "")
            table.add_row(o.name, kind, json.dumps(o.default), o.doc)
        console.print(table)
        console.print(f"bots: {bots}\n", soft_wrap=True, markup=False, highlight=False)


OutputFormat = Literal["parquet", "csv", "jsonl"]

_OUT_FORMATS: dict[str, OutputFormat] = {
    ".parquet": "parquet",
    ".pq": "parquet",
    ".csv": "csv",
    ".jsonl": "jsonl",
    ".ndjson": "jsonl",
}
_PLOT_FORMATS = (".png", ".svg", ".pdf")


def _require(modules: str | tuple[str, ...], extra: str, why: str) -> None:
    """Fails before any work if an optional dependency is missing, naming the extra to install."""
    message = missing_extra(modules, extra, why)
    if message is not None:
        raise click.UsageError(message)


def _is_standard_output(found: os.stat_result) -> bool:
    """Whether ``found`` (what ``os.stat`` says of an output path) is standard output.

    That is ``/dev/stdout``, or the file this process's standard output is redirected to.
    """
    try:
        out = os.fstat(sys.stdout.fileno())
    except (OSError, ValueError, AttributeError, io.UnsupportedOperation):
        return False  # standard output is closed or not a file (captured)
    return (found.st_dev, found.st_ino) == (out.st_dev, out.st_ino)


def _check_writable(path: Path, option: str) -> None:
    """Fails before the run if ``path`` cannot be written.

    That is: its directory (links followed, so a link to a missing place counts) does not exist
    or is not writable, ``path`` is a directory, or the file system refuses the name (too long,
    say) or a new file there (``/proc``, a read-only mount, even for root).
    """

    def refuse(reason: str) -> NoReturn:
        raise click.BadParameter(f"cannot write {path}: {reason}", param_hint=option)

    try:
        found_stat: os.stat_result | None = os.stat(path)
    except OSError:
        found_stat = None
    if found_stat is not None and _is_standard_output(found_stat):
        refuse("it is standard output, where the command prints what it did: name a file")
    mode = None if found_stat is None else found_stat.st_mode
    if mode is not None and not (stat.S_ISREG(mode) or stat.S_ISDIR(mode)):
        # A pipe or device (``/dev/stdout``, a shell's ``>(...)``, whose link names no real
        # path) is written directly, as ``writing`` does.
        return
    target = Path(os.path.realpath(path))
    try:
        if not target.parent.is_dir():
            refuse(f"the directory {target.parent} does not exist")
        found = target.exists()
    except OSError as err:  # a name too long, say
        refuse(err.strerror or str(err))
    if found and target.is_dir():
        refuse("it is a directory")
    if not os.access(target.parent, os.W_OK | os.X_OK) or (
        found and not os.access(target, os.W_OK)
    ):
        refuse("permission denied")
    # What the file system really allows (``os.access`` says yes to root everywhere, ``/proc``
    # included): a file made and removed where the output's temporary file will go.
    probe = target.parent / f".{secrets.token_hex(6)}.cardtable.probe"
    try:
        os.close(os.open(probe, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600))
    except OSError as err:
        refuse(err.strerror or str(err))
    with contextlib.suppress(OSError):
        os.unlink(probe)


def output_format(path: Path) -> OutputFormat:
    """The format of a results file, from its extension (``.parquet``, ``.csv``, ``.jsonl``).

    Raises:
        click.BadParameter: On any other extension.
    """
    fmt = _OUT_FORMATS.get(path.suffix.lower())
    if fmt is None:
        known = ", ".join(_OUT_FORMATS)
        raise click.BadParameter(
            f"cannot tell the format of {shown(path.name)} from its extension; use one of {known}",
            param_hint="--out",
        )
    return fmt


def _check_outputs(out: Path | None, plot: Path | None, backend: str) -> OutputFormat | None:
    """Every check of the output options and extras, made before the simulation runs."""
    fmt = None
    if out is not None:
        fmt = output_format(out)
        if fmt == "parquet":
            _require("pyarrow", "arrow", f"--out {out.name}")
        _check_writable(out, "--out")
    if plot is not None:
        if plot.suffix.lower() not in _PLOT_FORMATS:
            raise click.BadParameter(
                f"a plot is written as {', '.join(_PLOT_FORMATS)}; got {shown(plot.name)}",
                param_hint="--plot",
            )
        _require("matplotlib", "plot", "--plot")
        _check_writable(plot, "--plot")
    if out is not None and plot is not None and out.resolve() == plot.resolve():
        raise click.UsageError("--out and --plot name the same file")
    if backend == "ray":
        _require("ray", "ray", "--backend ray")
    return fmt


def write_results(result: cardtable.SimulationResult, path: Path, fmt: OutputFormat) -> None:
    """Writes the per-game results: Parquet (with the run's metadata), CSV or JSON lines.

    Every format has the columns ``game``, ``length``, ``score_<seat>`` and ``win_<seat>``. The
    file is written whole or not at all (:func:`cardtable._inputs.writing`).

    Raises:
        OSError: If the file cannot be written.
    """
    if fmt == "parquet":
        result.to_parquet(path)
        return
    columns = result.game_columns()
    header = list(columns)
    games = len(next(iter(columns.values())))
    with writing(path) as raw, io.TextIOWrapper(raw, encoding="utf-8", newline="") as f:
        writer = csv.writer(f) if fmt == "csv" else None
        if writer is not None:
            writer.writerow(header)
        # A block of rows at a time: Python's rows of a whole run took 40 times its arrays.
        for start in range(0, games, _ROWS_AT_ONCE):
            block = [c[start : start + _ROWS_AT_ONCE].tolist() for c in columns.values()]
            rows = zip(*block, strict=True)
            if writer is not None:
                writer.writerows([int(v) for v in row] for row in rows)
            else:
                f.writelines(json.dumps(dict(zip(header, row, strict=True))) + "\n" for row in rows)


_ROWS_AT_ONCE = 65_536
"""Rows :func:`write_results` turns into text at a time (CSV and JSON lines)."""


def _score_words(game_id: str) -> str:
    """What a score is, with its direction where lower is better: ``penalty cards (fewest wins)``.

    The game's drawing module says it (``SCORE``, as in ``cardtable play``'s score tables);
    ``score`` for the others, whose highest score wins.
    """
    from cardtable.render._common import drawing

    try:
        module = drawing(game_id)
    except CardtableError:
        return "score"
    return str(getattr(module, "SCORE", "score"))


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
    ax.set_xlabel(f"final {_score_words(result.game_id)}")
    ax.set_ylabel("games")
    changed = result._changed_options()
    ax.set_title(
        f"{result.game_id}{f' ({changed})' if changed else ''}: "
        f"score distribution over {result.games_played:,} games"
    )
    ax.legend()
    fig.tight_layout()
    try:
        with writing(path) as f:
            fig.savefig(f, format=path.suffix.lower()[1:], dpi=120)
    finally:
        plt.close(fig)


@main.command("simulate")
@game_id_argument()
@click.option(
    "-p",
    "--players",
    type=int,
    default=None,
    help="Number of players (default: one per --bots name, or the game's only player count).",
)
@games_option("--games", 10_000)
@bots_option("Comma-separated bot per seat (default: random everywhere).")
@click.option(
    "--seed",
    type=click.IntRange(0, 2**64 - 1),
    default=0,
    show_default=True,
    help="Seed of the run.",
)
@click.option(
    "--first-game",
    type=click.IntRange(0, 2**64 - 1),
    default=0,
    show_default=True,
    help="Number of the first game: play games FIRST.. of the run (one part of a run split "
    "over machines; SimulationResult.merge joins the parts).",
)
@click.option(
    "--threads",
    type=click.IntRange(1, MAX_THREADS),
    default=None,
    help="Worker threads (default: all cores).",
)
@option_pairs
@click.option(
    "--out",
    type=click.Path(dir_okay=False, path_type=Path),
    help="Write per-game results; the extension sets the format: .parquet (extra 'arrow'), "
    ".csv or .jsonl.",
)
@click.option(
    "--plot",
    type=click.Path(dir_okay=False, path_type=Path),
    help="Write a plot of the score distributions: .png, .svg or .pdf (extra 'plot').",
)
@click.option(
    "--summary-only", is_flag=True, help="Keep no per-game data (fixed memory, for huge runs)."
)
@choice_option("--backend", ["local", "ray"], "Run here, or as Ray tasks.")
@click.option(
    "--ray-chunks",
    type=click.IntRange(1),
    default=None,
    help="With --backend ray: the number of Ray tasks (default: twice the cluster's CPUs).",
)
@click.option("--no-progress", is_flag=True, help="Hide the progress bar (on standard error).")
def simulate_command(
    game_id: str,
    players: int | None,
    games: int,
    bots: str | None,
    seed: int,
    first_game: int,
    threads: int | None,
    option_pairs: tuple[str, ...],
    out: Path | None,
    plot: Path | None,
    summary_only: bool,
    backend: str,
    ray_chunks: int | None,
    no_progress: bool,
) -> None:
    """Play many games of GAME_ID with built-in bots and print a summary per seat and bot.

    Ctrl-C stops the run, prints the summary of the games completed so far (and writes them
    with --out), and exits with status 130, so that a script can tell a partial run from a whole
    one. SIGTERM (a batch system's time limit) does the same with status 143.
    """
    if summary_only and (out or plot):
        raise click.UsageError("--out and --plot need per-game data; drop --summary-only")
    if games > 0 and first_game > 2**64 - 1 - games:
        raise click.BadParameter(
            f"the run's game numbers must stay below 2**64 - 1: with {games:,} games it must be "
            f"at most {2**64 - 1 - games:,}, got {first_game:,}",
            param_hint="--first-game",
        )
    if ray_chunks is not None and backend != "ray":
        raise click.UsageError("--ray-chunks goes with --backend ray")
    fmt = _check_outputs(out, plot, backend)
    options = parse_options(option_pairs)
    given = players is not None
    if players is None:
        players = seat_count(game_id, bots)
    bot_list = _check_bots(game_id, players, bots, options, given=given)
    with _sigterm_stops_games() as terminated:
        try:
            result = cardtable.simulate(
                game_id,
                games=games,
                players=players,
                bots=bot_list,
                seed=seed,
                first_game=first_game,
                threads=threads,
                keep_games=not summary_only,
                progress=not no_progress,
                backend=backend,  # type: ignore[arg-type]
                ray_chunks=ray_chunks,
                **options,
            )
        except CapacityError:
            raise click.UsageError(
                f"the per-game results of {games:,} games would not fit in memory; add "
                "--summary-only to keep only the summary (fixed memory), or play fewer games"
            ) from None
        except CardtableError as err:
            raise click.ClickException(str(err)) from None
        except KeyboardInterrupt:  # outside the games (joining Ray, gathering its results)
            echo(
                "interrupted before the run's result was complete: nothing to summarize or write",
                err=True,
            )
            raise _stopped(terminated) from None
    try:
        _report_run(result, games, out, fmt, plot)
    except KeyboardInterrupt:  # while writing: the file is written whole or not at all
        echo("interrupted while writing the outputs", err=True)
        raise _stopped(terminated) from None
    if result.interrupted:  # the partial run's outputs are written: tell it from a whole run
        raise _stopped(terminated)


def _report_run(
    result: cardtable.SimulationResult,
    games: int,
    out: Path | None,
    fmt: OutputFormat | None,
    plot: Path | None,
) -> None:
    """Writes a run's outputs, then prints its summary and what it wrote.

    The files come first, so that a reader of standard output that goes away early
    (``cardtable simulate ... | head -1``) does not cost them; a file that cannot be written
    is reported after the summary and the files written before it.

    Raises:
        click.ClickException: If an output could not be written.
    """
    if result.games_played == 0:
        if result.interrupted:
            echo(f"interrupted: 0 of {games:,} games completed", err=True)
        echo("no games were completed: nothing to summarize or write", err=True)
        return
    outputs: list[tuple[Path | None, Callable[[Path], object]]] = [
        (plot, lambda path: _write_plot(result, path))
    ]
    if out and fmt:
        chosen = fmt
        outputs.insert(0, (out, lambda path: write_results(result, path, chosen)))
    written, failed = write_outputs(outputs)
    echo(result.summary_table())
    if result.interrupted:
        echo(f"interrupted: {result.games_played:,} of {games:,} games completed", err=True)
    for path in written:
        echo(f"wrote {path}")
    if failed is not None:
        raise failed


INTERRUPTED = 130
"""The exit status of a run stopped by Ctrl-C (128 + SIGINT, as a shell reports it)."""


@main.command("summary")
@click.argument(
    "files", nargs=-1, required=True, type=click.Path(exists=True, dir_okay=False, path_type=Path)
)
def summary_command(files: tuple[Path, ...]) -> None:
    """Print the summary of a run saved with simulate --out FILE.parquet.

    Several files are the parts of one run (simulate --first-game, on one machine or many): they
    are joined into the summary of the whole run, as one run of it would print.
    """
    for path in files:  # a .csv or .jsonl run is refused as such, with or without pyarrow
        with read_errors(path):
            _check_parquet(path, "summary")
    _require("pyarrow", "arrow", "reading a .parquet run")
    try:
        parts = []
        for path in files:
            with read_errors(path):
                parts.append(cardtable.SimulationResult.from_parquet(path))
        result = cardtable.SimulationResult.merge(parts)
    except CardtableError as err:
        raise click.ClickException(f"{', '.join(map(str, files))}: {err}") from None
    echo(result.summary_table())
    if result.interrupted:
        echo(
            f"interrupted: {result.games_played:,} of {result.games_requested:,} games completed",
            err=True,
        )


@main.command("resume")
@click.argument("file", type=click.Path(exists=True, dir_okay=False, path_type=Path))
@click.option(
    "--out",
    type=click.Path(dir_okay=False, path_type=Path),
    required=True,
    help="Write the whole run's per-game results: .parquet, .csv or .jsonl (FILE itself is fine).",
)
@click.option(
    "--threads",
    type=click.IntRange(1, MAX_THREADS),
    default=None,
    help="Worker threads (default: all cores).",
)
@click.option(
    "--plot",
    type=click.Path(dir_okay=False, path_type=Path),
    help="Write a plot of the score distributions: .png, .svg or .pdf (extra 'plot').",
)
@click.option("--no-progress", is_flag=True, help="Hide the progress bar (on standard error).")
def resume_command(
    file: Path, out: Path, threads: int | None, plot: Path | None, no_progress: bool
) -> None:
    """Finish a run that was stopped: play the games FILE lacks and write the whole run.

    FILE is what simulate --out FILE.parquet wrote when Ctrl-C stopped it: every game the run did
    not complete is played now, exactly as the run would have played it, and the whole run is
    summarized and written to --out, as one uninterrupted run would have been. Ctrl-C (or
    SIGTERM) stops this too; resume the file it writes in turn (a .parquet --out: only Parquet
    can be resumed).
    """
    with read_errors(file):  # a .csv or .jsonl run is refused as such, with or without pyarrow
        _check_parquet(file, "resume")
    _require("pyarrow", "arrow", "reading a .parquet run")
    fmt = _check_outputs(out, plot, "local")
    with _sigterm_stops_games() as terminated:
        try:
            with read_errors(file):
                saved = cardtable.SimulationResult.from_parquet(file)
            result = saved.resume(threads=threads, progress=not no_progress)
        except CardtableError as err:
            raise click.ClickException(str(err)) from None
        except KeyboardInterrupt:  # reading the file, before any game
            echo("interrupted before any game was played: nothing written", err=True)
            raise _stopped(terminated) from None
    try:
        _report_run(result, result.games_requested, out, fmt, plot)
    except KeyboardInterrupt:  # while writing: the file is written whole or not at all
        echo("interrupted while writing the outputs", err=True)
        raise _stopped(terminated) from None
    if result.interrupted:
        raise _stopped(terminated)


def _check_parquet(path: Path, command: str) -> None:
    """Refuses a file that is not Parquet (a run saved as .csv or .jsonl, say), saying what is read.

    ``command`` names the command that reads it (``summary``, ``resume``).

    A Parquet file starts with the bytes ``PAR1``.

    Raises:
        click.ClickException: If ``path`` does not.
        OSError: If it cannot be read.
    """
    with path.open("rb") as f:
        magic = f.read(4)
    if magic != b"PAR1":
        raise click.ClickException(
            f"cannot read {path}: it is not a Parquet file; {command} reads the Parquet files that "
            "simulate --out FILE.parquet writes (a .csv or .jsonl run cannot be read back)"
        )


@contextlib.contextmanager
def read_errors(path: Path) -> Iterator[None]:
    """Turns failing to read ``path`` into a one-line error (status 1).

    Missing or unreadable, not Parquet, not a saved run (any :class:`CardtableError`, such as the
    ``CapacityError`` of a run too large to load).
    """
    try:
        yield
    except (OSError, ValueError, CardtableError) as err:
        raise click.ClickException(f"cannot read {path}: {err}") from None


def seat_count(game_id: str, bots: str | None, per: str | None = "seat") -> int:
    """The players of a run without ``--players``.

    One per ``--bots`` name (the nearest count the game allows, so that the bots are checked by
    name first), else the game's only player count. ``per`` is what the error asks a ``--bots``
    name for (``play`` seats bots in the other seats; ``None``: a command without ``--bots``).

    Raises:
        click.UsageError: For an unknown game, or a game of several player counts without bots.
    """
    try:
        info = game_info(game_id)
    except CardtableError as err:
        raise click.UsageError(str(err)) from None
    low, high = int(info.min_players), int(info.max_players)
    names = bot_names(bots)
    if names:
        return min(max(len(names), low), high)
    if low == high:
        return low
    bots_too = "" if per is None else f" (or one --bots name per {per})"
    raise click.UsageError(
        f"{game_id} is played by {low}..={high} players: give --players{bots_too}"
    )


def bot_names(bots: str | None) -> list[str]:
    """The names of ``--bots`` (none when it is not given).

    Raises:
        click.BadParameter: If it is given but names no bot (``--bots ,`` or ``--bots ""``).
    """
    if bots is None:
        return []
    names = split_bot_specs(bots)
    if not names:
        raise click.BadParameter(f"no bot named in {shown(bots)}", param_hint="--bots")
    return names


def check_bot_names(game: GameProtocol, names: list[str], players: int | None) -> None:
    """Checks that every name is a bot of ``game`` (an unknown one is named first), one per seat.

    ``players``: the ``--players`` given, if any, which the message of a wrong count names (else
    it names the game's range of seats).

    Raises:
        CardtableError: On an unknown bot, a bad parameter or a wrong count.
    """
    for i, name in enumerate(names):
        cardtable.bot(game, name, min(i, game.players - 1))
    if len(names) != game.players:
        info = game_info(game.game_id)
        low, high = (
            (players, players) if players is not None else (info.min_players, info.max_players)
        )
        raise bot_count_error(game.game_id, names, low, high, players)


def _check_bots(
    game_id: str, players: int, bots: str | None, options: dict[str, Any], *, given: bool = True
) -> list[str] | None:
    """Checks the game, its options and every bot name before the run; the names, one per seat.

    An unknown bot is named first; then the count must match the players (``given``: whether
    ``--players`` was given, for the message).
    """
    try:
        game = cardtable.make(game_id, players=players, **options)
    except CardtableError as err:
        raise click.UsageError(str(err)) from None
    names = bot_names(bots)
    if not names:
        return None
    try:
        check_bot_names(game, names, players if given else None)
    except CardtableError as err:
        raise click.BadParameter(str(err), param_hint="--bots") from None
    return names


# --- Balance studies: tournament, balance, sweep (cardtable.analysis) ---------------------------
def _register_studies() -> None:
    """Adds the study commands (each says so when the ``analysis`` extra it needs is missing)."""
    from cardtable._study_cli import register

    register(main)


_register_studies()
# --- end of balance studies --------------------------------------------------------------------


# --- Conformance of an implementation in any language (cardtable.conformance) ------------------
def _register_conformance() -> None:
    from cardtable.conformance._cli import register

    register(main)


_register_conformance()
# --- end of conformance ------------------------------------------------------------------------


# --- Seeing a game: replay (cardtable.render) ---------------------------------------------------
def _register_replay() -> None:
    from cardtable.render._cli import register

    register(main)


_register_replay()
# --- end of replay ------------------------------------------------------------------------------


@main.command("play")
@game_id_argument()
@click.option(
    "-p",
    "--players",
    type=int,
    help="Number of players (default: one more than the --bots names, or the game's only count).",
)
@click.option("--seat", type=int, default=0, show_default=True, help="Your seat.")
@bots_option(
    "Comma-separated bots for the other seats (default: the game's heuristic bot: greedy, "
    "else its first own bot, e.g. memory in trafficars_memory).",
)
@click.option(
    "--seed", type=click.IntRange(0, 2**64 - 1), help="Seed of the deal (default: random)."
)
@option_pairs
def play_command(
    game_id: str,
    players: int | None,
    seat: int,
    bots: str | None,
    seed: int | None,
    option_pairs: tuple[str, ...],
) -> None:
    """Play one seat of GAME_ID in the terminal against built-in bots."""
    import random

    from cardtable.bots import default_bot
    from cardtable.render.play import play
    from cardtable.render.replay import _bot_seed

    options = parse_options(option_pairs)
    named = bot_names(bots)  # the other seats' bots
    given = players is not None
    if players is None:
        players = len(named) + 1 if named else seat_count(game_id, None, per="other seat")
    try:
        game = cardtable.make(game_id, players=players, **options)
    except CardtableError as err:
        if named and not given:  # the count came from --bots: say so
            raise click.BadParameter(
                f"{len(named)} bots (one per seat but yours) make {players} players: {err}",
                param_hint="--bots",
            ) from None
        raise click.UsageError(str(err)) from None
    if not 0 <= seat < game.players:
        raise click.BadParameter(
            f"seat must be in 0..={game.players - 1}, got {seat}", param_hint="--seat"
        )
    others = [s for s in range(game.players) if s != seat]
    names = named or [default_bot(game_id)] * len(others)
    if len(names) != len(others):
        raise click.BadParameter(
            f"give {len(others)} bots (one per other seat)", param_hint="--bots"
        )
    seed = random.randrange(2**63) if seed is None else seed
    seated = {}
    for name, s in zip(names, others, strict=True):
        try:
            seated[s] = cardtable.bot(game, name, s, seed=_bot_seed(seed, s))
        except CardtableError as err:
            raise click.BadParameter(str(err), param_hint="--bots") from None
    state = game.new_state(seed=seed)
    title = (
        f"[bold]{game_id}[/bold], {game.players} players, you are seat {seat} "
        f"(seed {seed}). Bots: " + ", ".join(f"seat {s} {b.name}" for s, b in seated.items())
    )

    def choose(legal: list[int]) -> int:
        # The number shown before a move; an empty line plays nothing.
        while True:
            text = console.input("choose: ").strip()
            if re.fullmatch("[0-9]{1,9}", text) and int(text) in legal:
                return int(text)
            shown = ", ".join(map(str, legal[:8])) + (", ..." if len(legal) > 8 else "")
            console.print(f"type the number shown before a move ({shown}), then Enter")

    try:
        with write_errors():
            console.print(title)
            play(game, state, seat, seated, console, choose)
    except EOFError:  # standard input ended before the game did
        echo("input ended before the game: it is left unfinished", err=True)
        sys.exit(1)
    except KeyboardInterrupt:
        echo("interrupted: the game is left unfinished", err=True)
        sys.exit(INTERRUPTED)
    sys.exit(0)


if __name__ == "__main__":
    main()
