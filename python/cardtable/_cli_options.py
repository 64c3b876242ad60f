"""Options shared by the ``cardtable`` commands: game options, the number of games, choices.

``-o KEY=VALUE`` (repeatable) is read by :func:`parse_options`: ``true``/``false``/``null``/numbers
as JSON, anything else as a string. Game ids and bot names complete in the shell
(:func:`game_id_argument`, :func:`bots_option`). A leaf of the CLI: of cardtable it imports
only the input checks and the error classes (and the registry, when the shell asks for
completions).
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable, Iterator
from typing import Any, TypeVar

import click
from click.shell_completion import CompletionItem

from cardtable._inputs import MAX_DEPTH, shown
from cardtable.errors import InvalidOptionError

__all__ = [
    "MAKE_KEYWORDS",
    "bot_count_error",
    "bots_option",
    "choice_option",
    "complete_bots",
    "complete_game_id",
    "game_id_argument",
    "games_option",
    "key_value_pairs",
    "option_pairs",
    "parse_options",
    "parse_value",
]

F = TypeVar("F", bound=Callable[..., Any])

MAKE_KEYWORDS = frozenset({"game_id", "players", "backend"})
"""The keywords of ``cardtable.make`` besides a game's options: never an ``-o`` key (each command
takes them as its own arguments)."""


# The engine refuses an option value of MAX_DEPTH nested arrays or objects (the options are the
# first level, docs/errors.md). The CLI refuses it before json.loads, which recurses once a level
# and would exhaust Python's recursion limit on deep input.


def _nesting(text: str) -> int:
    """How deep the JSON arrays and objects of ``text`` nest (brackets in strings not counted)."""
    depth = deepest = 0
    in_string = escaped = False
    for char in text:
        if in_string:
            if escaped:
                escaped = False
            elif char == "\\":
                escaped = True
            elif char == '"':
                in_string = False
        elif char == '"':
            in_string = True
        elif char in "[{":
            depth += 1
            deepest = max(deepest, depth)
        elif char in "]}":
            depth -= 1
    return deepest


def _shorten(text: str, width: int = 40) -> str:
    """``text`` cut to ``width`` characters for a message."""
    return text if len(text) <= width else text[: width - 1] + "…"


def parse_value(text: str) -> Any:
    """``true``/``false``/``null``/numbers as JSON, anything else as a string.

    Args:
        text: The value of a ``KEY=VALUE`` pair.

    Returns:
        The JSON value, or ``text`` itself if it is not JSON.

    Raises:
        click.BadParameter: If it is JSON nested deeper than the engine accepts, or holds a number
            too long to read; at any depth and length, never a ``RecursionError``.
    """
    lowered = text.strip().lower()
    if lowered in ("none", "null"):
        return None
    if lowered.startswith(("[", "{")) and _nesting(text) >= MAX_DEPTH:
        raise click.BadParameter(
            f"{_shorten(text)} is nested deeper than {MAX_DEPTH} levels (docs/errors.md)"
        )
    try:
        return json.loads(lowered if lowered in ("true", "false") else text)
    except json.JSONDecodeError:
        return text
    except (ValueError, RecursionError) as err:  # a number of too many digits, say
        reason = str(err).split(";")[0]
        raise click.BadParameter(f"cannot read {_shorten(text)}: {reason}") from None


def key_value_pairs(
    pairs: Iterable[str],
    form: str,
    param_hint: str,
    twice: Callable[[str, str, str], str],
    *,
    need_value: bool = False,
) -> Iterator[tuple[str, str]]:
    """Each ``KEY=VALUE`` of ``pairs`` split at its first ``=``, the key stripped, in order.

    Args:
        pairs: The pairs as given, in order.
        form: The form a pair must have, for the error (``"KEY=VALUE"``).
        param_hint: The option that takes the pairs, for the error (``"--option"``).
        twice: The error message for a key given again, of the key, its first pair and this one.
        need_value: Refuse a pair with nothing after its ``=`` too.

    Yields:
        ``(key, value)`` of each pair, once the pairs before it passed.

    Raises:
        click.BadParameter: On a pair without ``=`` or a key (or a value, with ``need_value``),
            or a key given twice (a usage error: exit status 2).
    """
    first: dict[str, str] = {}
    for pair in pairs:
        key, sep, value = pair.partition("=")
        key = key.strip()
        if not sep or not key or (need_value and not value):
            raise click.BadParameter(f"expected {form}, got {shown(pair)}", param_hint=param_hint)
        if key in first:
            raise click.BadParameter(twice(key, first[key], pair), param_hint=param_hint)
        first[key] = pair
        yield key, value


def _option_twice(key: str, first: str, pair: str) -> str:
    """The error of ``-o`` naming ``key`` again (:func:`key_value_pairs`' ``twice``)."""
    return f"option {shown(key)} given twice ({shown(_shorten(first))}, then {_shorten(pair)!r})"


def parse_options(pairs: tuple[str, ...]) -> dict[str, Any]:
    """The ``-o KEY=VALUE`` pairs as keyword arguments for ``cardtable.make``.

    Args:
        pairs: The pairs as given, in order.

    Returns:
        The options by name.

    Raises:
        click.BadParameter: On a pair without ``=`` or a key, an option given twice, a key of
            :data:`MAKE_KEYWORDS`, or a value :func:`parse_value` refuses (all usage errors: exit
            status 2).
    """
    options: dict[str, Any] = {}
    for key, value in key_value_pairs(pairs, "KEY=VALUE", "--option", _option_twice):
        if key in MAKE_KEYWORDS:
            raise click.BadParameter(
                f"{key} is not a game option: it is an argument of the command (see --help)",
                param_hint="--option",
            )
        try:
            options[key] = parse_value(value)
        except click.BadParameter as err:
            raise click.BadParameter(f"{key}: {err.message}", param_hint="--option") from None
    return options


def complete_game_id(
    ctx: click.Context, param: click.Parameter, incomplete: str
) -> list[CompletionItem]:
    """Shell completion of a game id: the registered games whose id starts as typed."""
    from cardtable._api import games

    return [CompletionItem(info.id) for info in games() if info.id.startswith(incomplete)]


def game_id_argument(
    *, required: bool = True, nargs: int = 1, metavar: str | None = None
) -> Callable[[F], F]:
    """The ``GAME_ID`` argument of a command, which completes in the shell."""
    return click.argument(
        "game_ids" if nargs != 1 else "game_id",
        required=required,
        nargs=nargs,
        metavar=metavar,
        shell_complete=complete_game_id,
    )


def complete_bots(
    ctx: click.Context, param: click.Parameter, incomplete: str
) -> list[CompletionItem]:
    """Shell completion of a comma-separated bot list, item by item.

    The bots of the command's game (its ``GAME_ID``, once typed) whose name starts as the last
    item typed, after the items before it.
    """
    from cardtable._api import games

    # While the option's value is being typed, click's parse of the line stops at the option
    # and leaves the words before it unread in ``ctx.args``.
    registered = {info.id: info for info in games()}
    words = [ctx.params.get("game_id"), *ctx.args]
    info = next((registered[w] for w in words if isinstance(w, str) and w in registered), None)
    if info is None:
        return []
    done, _, last = incomplete.rpartition(",")
    prefix = f"{done}," if done else ""
    names = [*info.bots, *info.search_bots]
    return [CompletionItem(prefix + name) for name in names if name.startswith(last)]


def bots_option(
    help: str,
    *names: str,
    required: bool = False,
    default: str | None = None,
    show_default: bool = False,
) -> Callable[[F], F]:
    """An option naming bots (``-b/--bots`` unless ``names`` are given), completed in the shell.

    Args:
        help: Its help text.
        *names: Its names, ``("-b", "--bots")`` when none are given.
        required: Whether it must be given.
        default: Its value when it is not given.
        show_default: Whether ``--help`` shows the default.
    """
    return click.option(
        *(names or ("-b", "--bots")),
        required=required,
        default=default,
        show_default=show_default,
        shell_complete=complete_bots,
        help=help,
    )


def option_pairs(f: F) -> F:
    """The ``-o/--option KEY=VALUE`` option (repeatable) of a command, as ``option_pairs``."""
    return click.option(
        "-o", "--option", "option_pairs", multiple=True, metavar="KEY=VALUE", help="A game option."
    )(f)


def games_option(name: str, default: int) -> Callable[[F], F]:
    """The ``-n/NAME`` option: how many games a command plays (at least one)."""
    return click.option(
        "-n",
        name,
        type=click.IntRange(1, 2**64 - 1),
        default=default,
        show_default=True,
        help="Games to play.",
    )


def choice_option(name: str, choices: list[str], help: str) -> Callable[[F], F]:
    """An option ``name`` taking one of ``choices``, the first by default."""
    return click.option(
        name, type=click.Choice(choices), default=choices[0], show_default=True, help=help
    )


def bot_count_error(
    game_id: str, names: list[str], low: int, high: int, players: int | None
) -> InvalidOptionError:
    """The error of ``--bots`` naming ``names`` for a game of ``low..=high`` seats.

    In the user's terms: how many seats (``players``, the ``--players`` given, else the game's
    range), how many bots were given, and a ``--bots`` that would do.
    """
    if players is not None:
        seats, count = f"--players {players} means {players} seats", f"{players}"
    elif low == high:
        seats, count = f"the game has {low} seats", f"{low}"
    else:
        seats, count = f"the game has {low}..={high} seats", f"{low}..={high}"
    target = min(max(len(names), low), high)
    example = ",".join((names or ["random"])[i % max(len(names), 1)] for i in range(target))
    return InvalidOptionError(
        f"{game_id}: {seats}, one bot per seat; got {len(names)} ({', '.join(names)}): "
        f"give {count} bots, e.g. --bots {example}"
    )
