"""What every game's drawing module offers, and the helpers they share.

A game module turns a state into a *view* (a JSON-compatible dict built only from
``observation(seat)``, or from ``to_dict()`` for the full view) and draws views: an SVG picture and
the lines of the terminal ``play`` screen. Views are plain data, so the pictures of the two
backends are identical whenever their observations are.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from functools import cache
from importlib import import_module, resources
from importlib.util import find_spec
from typing import Any, Protocol

from cardtable._inputs import as_int, as_items, shown
from cardtable.errors import IllegalActionError, InvalidOptionError
from cardtable.protocols import StateProtocol

__all__ = [
    "GameDrawing",
    "View",
    "check_names",
    "check_seat",
    "data_file",
    "drawing",
    "full_state",
    "game_view",
    "hidden_commitments",
    "observe",
    "own_only",
    "pick",
    "view_title",
]

View = dict[str, Any]


class GameDrawing(Protocol):
    """The functions of one game's drawing module.

    Every game's module also says what its score trace is (the contract's "Score trace", which
    the studies read lead changes from): ``SCORE_TRACE``, one sentence, and ``score_trace(state)``,
    the public score of every seat, where that is not the running scores (``state.scores``).

    A few more are optional: ``COMMITMENTS_TURNED_UP = True`` when a move made face down is a
    card turned up as the hand resolves (``cardtable play`` and a replay's seat log name it
    then), ``SCORES_HIDDEN = True`` when the scores are 0 until the game is over (a replay says
    "hidden" until then), and, for ``cardtable play``, ``narrate(before, after, who)``, lines for
    what a step did that no move says (goofspiel's last turn, which plays itself); ``who(seat)``
    names a seat.
    """

    def view(self, state: StateProtocol, seat: int | None) -> View:
        """The drawing model of ``seat``'s view, or the full view for ``None``."""
        ...

    def draw(self, view: View, names: list[str] | None) -> str:
        """The SVG picture of a view."""
        ...

    def terminal(self, view: View, names: list[str] | None) -> list[str]:
        """The view as lines of ``rich`` markup for the terminal."""
        ...

    def chapter(self, view: View) -> str:
        """The current hand/round/turn/day in words (a change ends a chapter)."""
        ...

    def secret(self, after: View, actor: int, label: str) -> bool:
        """Whether ``actor``'s move ``label`` is hidden from the seat of the view ``after`` it."""
        ...


def check_seat(state: StateProtocol, seat: object) -> int | None:
    """``seat`` as a plain int (NumPy integers too), or ``None``, checked against the state.

    Raises:
        InvalidOptionError: If ``state`` is not a state (of either backend).
        IllegalActionError: Unless ``seat`` is ``None`` or a seat of the state's game.
    """
    if not all(hasattr(state, name) for name in ("to_dict", "scores", "observation")):
        raise InvalidOptionError(f"expected a state of either backend, got {shown(state):.80}")
    if seat is None:
        return None
    players = len(state.scores)
    number = as_int(seat)
    if number is None or not 0 <= number < players:
        raise IllegalActionError(f"seat must be None or in 0..={players - 1}, got {shown(seat)}")
    return number


def check_names(names: object, players: int) -> list[str] | None:
    """``names`` as a list of ``players`` strings (one per seat), or ``None``.

    Raises:
        InvalidOptionError: On anything else (a str, a wrong count, an item that is not a str, a
            name with a control character or a lone surrogate, which SVG or UTF-8 cannot hold).
    """
    if names is None:
        return None
    out = as_items(names)
    if out is None:
        raise InvalidOptionError(f"names must be a list of {players} str, got {shown(names)}")
    texts = [name for name in out if isinstance(name, str)]
    if len(out) != players or len(texts) != players:
        raise InvalidOptionError(f"names must be {players} str, one per seat, got {shown(names)}")
    for seat, name in enumerate(texts):
        if any(_unwritable(c) for c in name):
            raise InvalidOptionError(
                f"names[{seat}] must be text that SVG and UTF-8 can hold (no control character or "
                f"lone surrogate), got {shown(name)}"
            )
    return texts


def _unwritable(char: str) -> bool:
    """Whether ``char`` cannot be written in an SVG (XML 1.0) text as UTF-8.

    Control characters (C0, DEL, C1), lone surrogates and U+FFFE, U+FFFF.
    """
    code = ord(char)
    return (
        code < 0x20 or 0x7F <= code <= 0x9F or 0xD800 <= code <= 0xDFFF or code in (0xFFFE, 0xFFFF)
    )


def observe(state: StateProtocol, seat: int) -> dict[str, Any]:
    """``state.observation(seat)`` as a plain dict."""
    plain: dict[str, Any] = json.loads(json.dumps(dict(state.observation(seat))))
    return plain


def own_only(own: Any, seat: int, players: int) -> list[Any]:
    """Per seat: ``own`` (the viewer's private part, e.g. its hand) for ``seat``, else None."""
    return [own if q == seat else None for q in range(players)]


def hidden_commitments(own: Any, committed: list[bool], seat: int) -> list[Any]:
    """Per seat: the viewer's own commitment ``own``, else ``"hidden"`` or None.

    ``"hidden"`` stands for another seat that has committed, None for a seat that has not.
    """
    return [own if q == seat else ("hidden" if done else None) for q, done in enumerate(committed)]


def hands_and_commitments(
    observed: dict[str, Any], seat: int | None, players: int
) -> tuple[list[Any], list[Any]]:
    """Per seat, the hand and the commitment of a game where seats commit cards in turn.

    ``observed`` is seat ``seat``'s observation (it sees its own hand and commitment, and which
    other seats have committed) or, with ``seat`` None, the canonical state (it sees all).
    """
    if seat is None:
        return list(observed["hands"]), list(observed["commitments"])
    own = observed["own_commitment"]
    hands = own_only(observed["hand"], seat, players)
    return hands, hidden_commitments(own, observed["committed"], seat)


def full_state(state: StateProtocol) -> tuple[dict[str, Any], int, dict[str, Any]]:
    """For the full view: the canonical state, the number of players and the whole ``to_dict()``."""
    d = state.to_dict()
    return d["state"], d["players"], d


def game_view(
    state: StateProtocol, game: str, seat: int | None, players: int, /, **fields: Any
) -> View:
    """A view: the game, whose view, the seats, the game's ``fields``, the seat to move, scores.

    ``winners`` lists the winning seats once the game is over (empty before).
    """
    return {
        "game": game,
        "seat": seat,
        "players": players,
        **fields,
        "current": state.current_player,
        "scores": list(state.scores),
        "winners": list(state.winners) if state.is_terminal else [],
    }


def pick(observed: Any, *keys: str) -> dict[str, Any]:
    """The entries ``keys`` of an observation or state dict, as the view shows them unchanged."""
    return {key: observed[key] for key in keys}


def view_title(view: View, game: str) -> str:
    """``Goofspiel — seat 1's view`` or ``Goofspiel — full view``: the title of a picture."""
    seat = view["seat"]
    who = "full view" if seat is None else f"seat {seat}'s view"
    return f"{game} — {who}"


@cache
def data_file(name: str) -> Any:
    """A card data file shipped with the package (``cardtable/data/<name>``)."""
    text = resources.files("cardtable.data").joinpath(name).read_text(encoding="utf-8")
    return json.loads(text)


def seat_names(
    names: list[str] | None,
    seat: int,
    viewer: int | None,
    you: str = " [bold green]you[/bold green]",
) -> str:
    """``seat 2 (greedy)`` for the terminal, marking the viewer's own seat with ``you``."""
    text = f"seat {seat}"
    if names is not None and seat < len(names) and names[seat]:
        text += f" ({names[seat]})"
    if viewer == seat:
        text += you
    return text


def outcome(winners: Sequence[int], names: Sequence[str] | None = None) -> str:
    """``seat 2 (greedy) wins`` or ``seat 0 and seat 2 share the win``, from the winning seats."""
    seats = [seat_names(list(names or ()), q, None) for q in winners]
    if len(seats) == 1:
        return f"{seats[0]} wins"
    if not seats:
        return "no winner"
    return ", ".join(seats[:-1]) + f" and {seats[-1]} share the win"


def who_won(view: View, names: Sequence[str] | None = None) -> str:
    """The end of a picture's status line once the view's game is over, else ``""``.

    That is `` · seat 1 (greedy) wins`` (the winners as :func:`outcome` names them), after a
    status that says the game is over (its phase, ``over``, or all its turns played).
    """
    if not view.get("winners"):
        return ""
    return f" · {outcome(view['winners'], names)}"


def pending_move(move: Any, hidden: str, shown: str) -> list[str]:
    """The words on a seat's pending secret move, for the terminal.

    ``[hidden]`` while the move is ``"hidden"``, ``[shown.format(move)]`` once it is seen, and
    none without a move.
    """
    if move == "hidden":
        return [hidden]
    if move is not None:
        return [shown.format(move)]
    return []


_NOT_GAMES = frozenset({"play", "replay"})
"""Modules of this package that draw no game."""


def drawing(game_id: str) -> GameDrawing:
    """The drawing module of a game: ``cardtable/render/<game_id>.py``, found by its name.

    Raises:
        InvalidOptionError: If the game has no drawing.
    """
    if not isinstance(game_id, str):
        raise InvalidOptionError(f"a game id is a str, got {shown(game_id)}")
    name = f"cardtable.render.{game_id}"
    if (
        not game_id.isidentifier()
        or game_id.startswith("_")
        or game_id in _NOT_GAMES
        or find_spec(name) is None
    ):
        raise InvalidOptionError(
            f"no drawing for game {shown(game_id)} "
            "(a game draws itself in cardtable/render/<id>.py)"
        )
    module: GameDrawing = import_module(name)
    return module
