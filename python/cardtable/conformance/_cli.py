"""The ``cardtable conformance`` command (registered on the main CLI by :func:`register`)."""

from __future__ import annotations

import contextlib
import os
import signal
import sys
import threading
from collections.abc import Callable, Iterator
from pathlib import Path
from types import FrameType
from typing import TYPE_CHECKING, Any, TypeVar

import click

from cardtable._cli_options import (
    choice_option,
    game_id_argument,
    games_option,
    option_pairs,
    parse_options,
)
from cardtable._inputs import MAX_SEED
from cardtable.conformance.harness import (
    DEFAULT_TIMEOUT,
    ConformanceError,
    check_max_line,
    check_timeout,
    printable,
)
from cardtable.conformance.mapping import ActionMap, MapLoadError, load_map
from cardtable.conformance.protocol import FIELDS, MAX_LINE_BYTES, check_fields
from cardtable.errors import CardtableError, InvalidOptionError

if TYPE_CHECKING:
    from cardtable.conformance.runner import Outcome

_F = TypeVar("_F", bound=Callable[..., Any])
_T = TypeVar("_T")

__all__ = ["register"]


def register(group: click.Group) -> None:
    """Adds the ``conformance`` command to ``group``."""

    @group.command("conformance")
    @game_id_argument(required=False)
    @click.option("--cmd", "command", help='The implementation\'s command, e.g. "node impl.js".')
    @click.option(
        "-p",
        "--players",
        type=int,
        help="Number of players (needed unless the game has one player count).",
    )
    @games_option("--examples", 100)
    @option_pairs
    @click.option(
        "--fields",
        help=f"Comma-separated fields to compare, among {', '.join(FIELDS)} (default: all it "
        "supports).",
    )
    @_checked_option(
        "--timeout",
        float,
        DEFAULT_TIMEOUT,
        check_timeout,
        "Seconds allowed for each answer (above 0, at most a day).",
    )
    @_checked_option(
        "--max-line",
        int,
        MAX_LINE_BYTES,
        check_max_line,
        "The longest answer line read, in bytes (at least 1); a longer one is an error.",
    )
    @click.option(
        "--map", "map_spec", help="A map hook MODULE:NAME or FILE.py:NAME for own move names."
    )
    @choice_option("--backend", ["rust", "reference"], "Our implementation to compare against.")
    @click.option(
        "--reference",
        "reference",
        metavar="MODULE:NAME",
        help="Compare against this game class instead of our backends: MODULE:NAME (a module "
        "on sys.path, e.g. by PYTHONPATH) or FILE.py:NAME (recorded by its absolute path): a "
        "variant of GAME_ID, e.g. a subclass of our reference game.",
    )
    @click.option(
        "--seed",
        type=click.IntRange(0, MAX_SEED),
        help="Seed of the choices (default: a fresh run).",
    )
    @click.option(
        "--out-dir",
        type=click.Path(file_okay=False, path_type=Path),
        default=Path("."),
        show_default=True,
        help="Where a reproducer is written.",
    )
    @click.option(
        "--replay",
        type=click.Path(dir_okay=False, exists=True, path_type=Path),
        help="Replay a reproducer file instead of searching.",
    )
    def conformance_command(
        game_id: str | None,
        command: str | None,
        players: int | None,
        examples: int,
        option_pairs: tuple[str, ...],
        fields: str | None,
        timeout: float,
        max_line: int,
        map_spec: str | None,
        backend: str,
        reference: str | None,
        seed: int | None,
        out_dir: Path,
        replay: Path | None,
    ) -> None:
        """Property-test an implementation of GAME_ID in any language against cardtable.

        The command speaks the conformance protocol (JSON lines on standard input and output, see
        docs/conformance.md). Hypothesis chooses every chance outcome and action; both sides are
        compared after every step, and the first divergence is shrunk and reported with a
        reproducer file. Exit status: 0 if they agree, 1 on a divergence or protocol error, 2 on
        a bad argument (a --replay file that is no reproducer, or one of another game,
        included); 130 on Ctrl-C, 143 on SIGTERM and 129 on SIGHUP, after stopping the
        implementation.
        """
        try:  # Hypothesis and jsonschema: the conformance extra, loaded only when used
            import hypothesis  # noqa: F401
            import jsonschema  # type: ignore[import-untyped]  # noqa: F401

            from cardtable.conformance.report import format_outcome
            from cardtable.conformance.reproducer import check_out_dir, write_reproducer
            from cardtable.conformance.runner import check
        except ImportError as err:
            raise click.ClickException(
                f'{err}: install the conformance extra (pip install "cardtable[conformance]")'
            ) from None
        compared = None if fields is None else [f.strip() for f in fields.split(",")]
        if compared is not None:
            with _usage_error("--fields"):
                check_fields(compared)
        if replay is not None:
            _refuse_search_options()
        if reference is not None and _given("backend"):
            raise click.UsageError(
                "--reference and --backend exclude each other: the reference is compared "
                "instead of our backends"
            )
        with _usage_error("--map", MapLoadError):
            action_map = None if map_spec is None else load_map(map_spec)  # "" is refused
        options = parse_options(option_pairs)
        terminated: list[int] = []
        try:
            with _sigterm_interrupts(terminated), _hypothesis_storage_elsewhere():
                if replay is not None:
                    given = _given("backend")
                    outcome = _replay(
                        replay,
                        game_id,
                        command,
                        action_map,
                        map_spec,
                        compared,
                        timeout,
                        max_line,
                        backend if given else None,
                        reference,
                    )
                else:
                    if not game_id or not command:
                        raise click.UsageError("give GAME_ID and --cmd (or --replay FILE)")
                    if players is None:  # a game of one player count needs none
                        from cardtable.cli import seat_count

                        players = seat_count(game_id, None, per=None)
                    # A directory given is checked now; the default (here) only if a
                    # reproducer is written, so that a run in a read-only place still works.
                    source = click.get_current_context().get_parameter_source("out_dir")
                    if source is not click.core.ParameterSource.DEFAULT:
                        with _usage_error("--out-dir"):
                            check_out_dir(out_dir)
                    with _usage_error(None):  # refused before anything ran
                        outcome = check(
                            game_id, command, players=players, options=options,
                            examples=examples, fields=compared, timeout=timeout,
                            action_map=action_map, map_spec=map_spec, backend=backend,
                            seed=seed, max_line=max_line, reference=reference,
                        )  # fmt: skip
        except KeyboardInterrupt:
            stopped = "terminated" if terminated else "interrupted"
            click.echo(f"{stopped}; the implementation was stopped", err=True)
            sys.exit(128 + terminated[0] if terminated else 130)
        except CardtableError as err:
            raise click.ClickException(printable(str(err))) from None
        path = unwritten = None
        # A failure before the first game (the start, hello, a game or field it does not
        # play): a reproducer would hold no game to replay, and running again shows it.
        nothing_played = outcome.error is not None and not outcome.fields
        if not outcome.ok and replay is None and not nothing_played:
            try:
                path = str(write_reproducer(outcome, out_dir))
            except CardtableError as err:  # the directory changed, the disk is full...
                unwritten = printable(str(err))
        click.echo(format_outcome(outcome, reproducer=path))
        if unwritten:
            click.echo(f"\nno reproducer: {unwritten}")
        sys.exit(0 if outcome.ok else 1)


_SEARCH_ONLY = {
    "players": "-p/--players",
    "option_pairs": "-o/--option",
    "examples": "-n/--examples",
    "seed": "--seed",
    "out_dir": "--out-dir",
}
"""The options of a search that a replay cannot use (it plays the reproducer's configuration)."""


def _given(name: str) -> bool:
    """Whether the option ``name`` was given on the command line (not left at its default)."""
    source = click.get_current_context().get_parameter_source(name)
    return source is not None and source is not click.core.ParameterSource.DEFAULT


def _refuse_search_options() -> None:
    """Refuses, with ``--replay``, the options that only a search uses (a usage error).

    Raises:
        click.UsageError: Naming the options given.
    """
    given = [flag for name, flag in _SEARCH_ONLY.items() if _given(name)]
    if given:
        raise click.UsageError(
            f"--replay plays the reproducer's own game, players, options and history: "
            f"{', '.join(given)} cannot be used with it (only GAME_ID, --cmd, --map, --fields, "
            "--timeout, --max-line, --backend and --reference)"
        )


@contextlib.contextmanager
def _usage_error(
    param_hint: str | None,
    refused: type[CardtableError] | tuple[type[CardtableError], ...] = InvalidOptionError,
) -> Iterator[None]:
    """Reports ``refused`` raised in the block as a usage error (exit status 2).

    Args:
        param_hint: The option at fault (``None``: the arguments as a whole).
        refused: The error (or errors) that tell a bad argument.
    """
    try:
        yield
    except refused as err:
        if param_hint is None:
            raise click.UsageError(printable(str(err))) from None
        raise click.BadParameter(printable(str(err)), param_hint=param_hint) from None


def _checked_option(
    name: str, kind: type[_T], default: _T, check: Callable[[Any], _T], help: str
) -> Callable[[_F], _F]:
    """An option ``name`` of type ``kind`` that the API's own ``check`` accepts or refuses.

    ``check_timeout`` and ``check_max_line`` refuse with ``InvalidOptionError``, reported here as
    a bad parameter (a usage error).
    """

    def callback(ctx: click.Context, param: click.Parameter, value: Any) -> _T:
        try:
            return check(value)
        except InvalidOptionError as err:
            raise click.BadParameter(str(err), ctx, param) from None

    return click.option(
        name, type=kind, default=default, show_default=True, callback=callback, help=help
    )


@contextlib.contextmanager
def _hypothesis_storage_elsewhere() -> Iterator[None]:
    """Points Hypothesis' storage at a temporary directory while the block runs.

    The run keeps no example database (``database=None``), but Hypothesis also caches the
    constants it finds in the code under test in its storage directory, by default
    ``.hypothesis`` in the current directory: a run would leave that folder wherever it was
    started. A directory the user chose (``HYPOTHESIS_STORAGE_DIRECTORY``) is kept.
    """
    if os.environ.get("HYPOTHESIS_STORAGE_DIRECTORY"):
        yield
        return
    import tempfile

    from hypothesis.configuration import set_hypothesis_home_dir

    with tempfile.TemporaryDirectory(prefix="cardtable-hypothesis-") as home:
        set_hypothesis_home_dir(home)
        try:
            yield
        finally:
            set_hypothesis_home_dir(None)


@contextlib.contextmanager
def _sigterm_interrupts(terminated: list[int]) -> Iterator[None]:
    """Turns the first SIGTERM or SIGHUP into a ``KeyboardInterrupt`` while the block runs.

    The implementation runs in a session of its own, so a signal to us does not reach it: the
    interrupt unwinds through the harness, which stops it as it does on Ctrl-C. A SIGTERM while
    it is being stopped is ignored (stopping takes a few seconds at most). ``terminated`` gets
    the signal's number. The previous handler is restored afterwards; outside the main thread
    (where no handler can be set) nothing changes.
    """
    if threading.current_thread() is not threading.main_thread():
        yield
        return

    def interrupt(signum: int, frame: FrameType | None) -> None:
        if not terminated:
            terminated.append(signum)
            raise KeyboardInterrupt

    # SIGHUP too (the terminal closed): it would kill us where we stand, leaving the
    # implementation, in its own session, running without its harness.
    hangup = getattr(signal, "SIGHUP", None)  # not on Windows
    handled = [signal.SIGTERM] + ([hangup] if hangup is not None else [])
    previous = {signum: signal.signal(signum, interrupt) for signum in handled}
    try:
        yield
    finally:
        for signum, handler in previous.items():
            signal.signal(signum, handler)


def _replay(
    path: Path,
    game_id: str | None,
    command: str | None,
    action_map: ActionMap | None,
    map_spec: str | None,
    fields: list[str] | None,
    timeout: float,
    max_line: int,
    backend: str | None,
    reference: str | None,
) -> Outcome:
    """Replays the reproducer at ``path``, the games its process played first included.

    The command, map, backend and reference given, if any, replace the reproducer's own (a
    backend given replaces its reference too: the replay is against our backend).
    """
    from cardtable.conformance.reproducer import load_reproducer
    from cardtable.conformance.runner import Target, check_replay, replay_checked

    # A file that is no reproducer, one of another game, or one whose games are not games of
    # ours is a bad argument (exit status 2), told before anything runs: status 1 stays for a
    # finding that still reproduces.
    with _usage_error("--replay", ConformanceError):
        found = load_reproducer(path)
    target = found.target
    if game_id and game_id != target.game_id:
        raise click.BadParameter(
            f"{path} is a reproducer of {target.game_id}, not {game_id}", param_hint="GAME_ID"
        )
    spec = map_spec or target.map_spec
    # The reproducer's command runs where it ran (a relative path in it is found again from
    # anywhere); a command given here runs in the current directory.
    ran_in = target.cwd if command is None and target.cwd and os.path.isdir(target.cwd) else None
    target = Target(
        target.game_id,
        target.players,
        target.options,
        command or target.command,
        spec,
        backend or target.backend,
        reference or (None if backend else target.reference),
        ran_in,
    )
    if action_map is None and spec:
        with _usage_error("--map", MapLoadError):
            action_map = load_map(spec)
    # Its options, history and earlier games played on our backend (an illegal step, steps
    # after the end, options the game refuses), as replay_history would before it starts.
    with _usage_error("--replay", (ConformanceError, InvalidOptionError)):
        checked = check_replay(target, found.history, found.earlier_games)
    return replay_checked(
        *checked,
        fields=fields or found.fields,
        timeout=timeout,
        action_map=action_map,
        max_line=max_line,
        cwd=ran_in,
    )
