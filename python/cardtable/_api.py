"""``cardtable.make`` and ``cardtable.games``: the entry points of the package."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Literal, cast

from cardtable._inputs import is_choice, shown
from cardtable.errors import InvalidOptionError
from cardtable.protocols import GameProtocol

__all__ = ["CHANCE", "TERMINAL", "Backend", "GameInfo", "OptionInfo", "games", "make"]

CHANCE = -1
"""``state.current_player`` at a chance node."""
TERMINAL = -2
"""``state.current_player`` once the game is over."""

Backend = Literal["rust", "reference"]


@dataclass(frozen=True)
class OptionInfo:
    """One option of a game.

    Attributes:
        name: Keyword name for :func:`make`.
        type: ``"bool"``, ``"int"``, ``"int | None"`` or ``"str"``.
        default: The default (``None`` where it depends on other options; see ``doc``).
        choices: Accepted values of a ``"str"`` option.
        doc: What it does.
    """

    name: str
    type: str
    default: Any
    choices: tuple[str, ...]
    doc: str


@dataclass(frozen=True)
class GameInfo:
    """A registered game.

    Attributes:
        id: The game id for :func:`make`.
        min_players: Smallest player count.
        max_players: Largest player count.
        options: The options besides ``players``.
        bots: Names of the built-in bots (``"random"`` first).
        search_bots: The search bots (``"flatmc"``, ``"mcts"``; parameters as in
            ``"mcts:iterations=1000,c=0.7,rollout=greedy"``, see the search guide), listed only
            when the game has a determinizer; they build wherever a built-in bot does.
        bot_usages: How each bot of ``bots + search_bots`` is written in a bot spec, in the
            same order, with its parameters: ``"random"``, ``"greedy[:N]"`` (``greedy:4``),
            ``"mcts[:iterations=N,...]"``.
        higher_score_is_better: Whether a higher final score is better (the winners have the best
            score); ``False`` for Trafficars, scored in penalty cards.
    """

    id: str
    min_players: int
    max_players: int
    options: tuple[OptionInfo, ...]
    bots: tuple[str, ...]
    search_bots: tuple[str, ...] = ()
    bot_usages: tuple[str, ...] = ()
    higher_score_is_better: bool = True


def games() -> list[GameInfo]:
    """Lists the registered games with their player counts, options and built-in bots."""
    from cardtable import _core

    return [
        GameInfo(
            id=g["id"],
            min_players=g["min_players"],
            max_players=g["max_players"],
            options=tuple(
                OptionInfo(o["name"], o["type"], o["default"], tuple(o["choices"]), o["doc"])
                for o in g["options"]
            ),
            bots=tuple(g["bots"]),
            search_bots=tuple(g["search_bots"]),
            bot_usages=tuple(g["bot_usages"]),
            higher_score_is_better=g["higher_score_is_better"],
        )
        for g in _core.games()
    ]


def game_info(game_id: object) -> GameInfo:
    """The :class:`GameInfo` of a registered game.

    Raises:
        InvalidOptionError: On an unknown game, naming it and the registered games (sorted), in
            the words of both backends.
    """
    found = games()
    if isinstance(game_id, str):
        wanted = str.__str__(game_id)  # a subclass by what it stores, whatever its ``__eq__``
        for info in found:
            if info.id == wanted:
                return info
    known = ", ".join(sorted(g.id for g in found))
    raise InvalidOptionError(f"unknown game {shown(game_id)}; registered games: {known}")


def make(
    game_id: str, *, players: int | None = None, backend: Backend = "rust", **options: Any
) -> GameProtocol:
    """Creates a game with fixed options.

    Args:
        game_id: A registered game id (see :func:`games`), e.g. ``"turn_the_tide"``.
        players: The number of players; may be left out for a game played by one number of
            players only (goofspiel: 2).
        backend: ``"rust"`` (fast engine) or ``"reference"`` (pure-Python rulebook implementation);
            both behave identically.
        **options: The game's options (see ``cardtable.games()``).

    Returns:
        The game; ``game.new_state(seed=...)`` starts a game.

    Raises:
        InvalidOptionError: On an unknown game or backend, a bad player count (or none for a game
            of several player counts) or a bad option.

    Examples:
        >>> import cardtable
        >>> game = cardtable.make("turn_the_tide", players=4)
        >>> state = game.new_state(seed=7)
        >>> state.current_player
        0
    """
    if players is None:
        info = game_info(game_id)
        if info.min_players != info.max_players:
            raise InvalidOptionError(
                f"{game_id} is played by {info.min_players}..={info.max_players} players: give "
                "players="
            )
        players = info.min_players
    if is_choice(backend, "rust"):
        from cardtable import _core

        return cast(GameProtocol, _core.Game(game_id, players, options))
    if is_choice(backend, "reference"):
        from cardtable import reference

        return reference.make(game_id, players=players, **options)
    raise InvalidOptionError(f"backend must be 'rust' or 'reference', got {shown(backend)}")
