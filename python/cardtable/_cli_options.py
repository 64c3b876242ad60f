"""Options shared by the ``cardtable`` commands: game options, the number of games, choices.

``-o KEY=VALUE`` (repeatable) is read by :func:`parse_options`: ``true``/``false``/``null``/numbers
as JSON, anything else as a string. A leaf of the CLI: it imports nothing of cardtable.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any, TypeVar

import click

__all__ = ["choice_option", "games_option", "option_pairs", "parse_options", "parse_value"]

F = TypeVar("F", bound=Callable[..., Any])


def parse_value(text: str) -> Any:
    """``true``/``false``/``null``/numbers as JSON, anything else as a string."""
    lowered = text.strip().lower()
    if lowered in ("none", "null"):
        return None
    try:
        return json.loads(lowered if lowered in ("true", "false") else text)
    except json.JSONDecodeError:
        return text


def parse_options(pairs: tuple[str, ...]) -> dict[str, Any]:
    """The ``-o KEY=VALUE`` pairs as keyword arguments for ``cardtable.make``."""
    options: dict[str, Any] = {}
    for pair in pairs:
        key, sep, value = pair.partition("=")
        if not sep or not key:
            raise click.BadParameter(f"expected KEY=VALUE, got {pair!r}", param_hint="--option")
        options[key.strip()] = parse_value(value)
    return options


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
        type=click.IntRange(min=1),
        default=default,
        show_default=True,
        help="Games to play.",
    )


def choice_option(name: str, choices: list[str], help: str) -> Callable[[F], F]:
    """An option ``name`` taking one of ``choices``, the first by default."""
    return click.option(
        name, type=click.Choice(choices), default=choices[0], show_default=True, help=help
    )
