"""The ``cardtable conformance`` command (registered on the main CLI by :func:`register`)."""

from __future__ import annotations

import contextlib
import signal
import sys
import threading
from collections.abc import Callable, Iterator
from pathlib import Path
from types import FrameType
from typing import TYPE_CHECKING, Any, TypeVar

import click

from cardtable._cli_options import choice_option, games_option, option_pairs, parse_options
from cardtable.conformance.harness import (
    DEFAULT_TIMEOUT,
    ConformanceError,
    check_max_line,
    check_timeout,
)
from cardtable.conformance.mapping import ActionMap, load_map
from cardtable.conformance.protocol import FIELDS, MAX_LINE_BYTES, check_fields
from cardtable.errors import CardtableError, InvalidOptionError

if TYPE_CHECKING:
    from cardtable.conformance.runner import Outcome

_T = TypeVar("_T")

__all__ = ["register"]


def register(group: click.Group) -> None:
    """Adds the ``conformance`` command to ``group``."""

    @group.command("conformance")
    @click.argument("game_id", required=False)
    @click.option("--cmd", "command", help='The implementation\'s command, e.g. "node impl.js".')
    @click.option("-p", "--players", type=int, help="Number of players.")
    @games_option("--examples", 100)
    @option_pairs
    @click.option(
        "--fields",
        help=f"Comma-separated fields to compare, among {', '.join(FIELDS)} (default: all it "
        "supports).",
    )
    @click.option(
        "--timeout",
        type=float,
        default=DEFAULT_TIMEOUT,
        show_default=True,
        callback=_checked(check_timeout),
        help="Seconds allowed for each answer (above 0, at most a day).",
    )
    @click.option(
        "--max-line",
        type=int,
        default=MAX_LINE_BYTES,
        show_default=True,
        callback=_checked(check_max_line),
        help="The longest answer line read, in bytes (at least 1); a longer one is an error.",
    )
    @click.option(
        "--map", "map_spec", help="A map hook MODULE:NAME or FILE.py:NAME for own move names."
    )
    @choice_option("--backend", ["rust", "reference"], "Our implementation to compare against.")
    @click.option("--seed", type=int, help="Seed of the choices (default: a fresh run).")
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
        seed: int | None,
        out_dir: Path,
        replay: Path | None,
    ) -> None:
        """Property-test an implementation of GAME_ID in any language against cardtable.

        The command speaks the conformance protocol (JSON lines on standard input and output, see
        docs/conformance.md). Hypothesis chooses every chance outcome and action; both sides are
        compared after every step, and the first divergence is shrunk and reported with a
        reproducer file. Exit status: 0 if they agree, 1 on a divergence or protocol error; 130
        on Ctrl-C and 143 on SIGTERM, after stopping the implementation.
        """
        try:  # Hypothesis and jsonschema: the conformance extra, loaded only when used
            import hypothesis  # noqa: F401
            import jsonschema  # type: ignore[import-untyped]  # noqa: F401

            from cardtable.conformance.report import format_outcome
            from cardtable.conformance.reproducer import write_reproducer
            from cardtable.conformance.runner import check
        except ImportError as err:
            raise click.ClickException(
                f'{err}: install the conformance extra (pip install "cardtable[conformance]")'
            ) from None
        compared = None if fields is None else [f.strip() for f in fields.split(",")]
        if compared is not None:
            try:
                check_fields(compared)
            except InvalidOptionError as err:
                raise click.BadParameter(str(err), param_hint="--fields") from None
        terminated: list[int] = []
        try:
            with _sigterm_interrupts(terminated):
                if replay is not None:
                    outcome = _replay(
                        replay, game_id, command, map_spec, compared, timeout, max_line
                    )
                else:
                    if not game_id or not command or players is None:
                        raise click.UsageError(
                            "give GAME_ID, --cmd and --players (or --replay FILE)"
                        )
                    action_map = load_map(map_spec) if map_spec else None
                    options = parse_options(option_pairs)
                    outcome = check(
                        game_id, command, players=players, options=options, examples=examples,
                        fields=compared, timeout=timeout, action_map=action_map,
                        map_spec=map_spec, backend=backend, seed=seed, max_line=max_line,
                    )  # fmt: skip
        except KeyboardInterrupt:
            stopped = "terminated" if terminated else "interrupted"
            click.echo(f"{stopped}; the implementation was stopped", err=True)
            sys.exit(143 if terminated else 130)
        except CardtableError as err:
            raise click.ClickException(str(err)) from None
        path = None
        nothing_played = outcome.error is not None and outcome.error.kind in (
            "start",
            "unsupported",
        )
        if not outcome.ok and replay is None and not nothing_played:
            path = str(write_reproducer(outcome, out_dir))
        click.echo(format_outcome(outcome, reproducer=path))
        sys.exit(0 if outcome.ok else 1)


def _checked(check: Callable[[Any], _T]) -> Callable[[click.Context, click.Parameter, Any], _T]:
    """A click callback that checks an option with the API's own ``check``.

    ``check_timeout`` and ``check_max_line`` refuse with ``InvalidOptionError``, reported here as
    a bad parameter (a usage error).
    """

    def callback(ctx: click.Context, param: click.Parameter, value: Any) -> _T:
        try:
            return check(value)
        except InvalidOptionError as err:
            raise click.BadParameter(str(err), ctx, param) from None

    return callback


@contextlib.contextmanager
def _sigterm_interrupts(terminated: list[int]) -> Iterator[None]:
    """Turns the first SIGTERM into a ``KeyboardInterrupt`` while the block runs.

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

    previous = signal.signal(signal.SIGTERM, interrupt)
    try:
        yield
    finally:
        signal.signal(signal.SIGTERM, previous)


def _replay(
    path: Path,
    game_id: str | None,
    command: str | None,
    map_spec: str | None,
    fields: list[str] | None,
    timeout: float,
    max_line: int,
) -> Outcome:
    from cardtable.conformance.reproducer import read_reproducer
    from cardtable.conformance.runner import Target, replay_history

    target, history, recorded = read_reproducer(path)
    if game_id and game_id != target.game_id:
        raise ConformanceError(f"{path} is a reproducer of {target.game_id}, not {game_id}")
    spec = map_spec or target.map_spec
    target = Target(
        target.game_id,
        target.players,
        target.options,
        command or target.command,
        spec,
        target.backend,
    )
    action_map: ActionMap | None = load_map(spec) if spec else None
    return replay_history(
        target,
        history,
        fields=fields or recorded,
        timeout=timeout,
        action_map=action_map,
        max_line=max_line,
    )
