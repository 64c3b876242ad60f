"""What a study needs to know about each game beyond its engine.

Which way scores point (the engine's ``higher_score_is_better``, in :class:`cardtable.GameInfo`)
and the public score trace (the "Score trace" section at the end of each
``docs/games/<id>.md``), which the game's drawing module ``cardtable/render/<id>.py`` declares:
``SCORE_TRACE``, one sentence saying what it is, and ``score_trace(state)`` where it is not the
running scores. Nothing here names a game.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from cardtable.errors import InvalidOptionError
from cardtable.protocols import StateProtocol
from cardtable.render._common import drawing

__all__ = ["GameSpec", "score_label", "spec"]


def _running_scores(state: StateProtocol) -> list[float]:
    return [float(s) for s in state.scores]


@dataclass(frozen=True)
class GameSpec:
    """How a study reads one game.

    Attributes:
        higher_is_better: Whether a higher final score is better (the winners have the best score;
            Trafficars counts penalties, so lower is better there).
        trace: The public score of every seat in a state (the game's score trace).
        trace_doc: One sentence saying what the trace is.
    """

    higher_is_better: bool
    trace: Callable[[StateProtocol], list[float]]
    trace_doc: str


def score_label(game_id: str, label: str) -> str:
    """``label`` as a column heading, with "(lower is better)" for a game whose lower score is."""
    return label if spec(game_id).higher_is_better else f"{label} (lower is better)"


def spec(game_id: str) -> GameSpec:
    """The study spec of the registered game ``game_id``.

    A game whose drawing module declares no score trace is traced by its running scores.

    Raises:
        InvalidOptionError: If ``game_id`` is not a registered game.
    """
    from cardtable._api import game_info

    higher = game_info(game_id).higher_score_is_better
    try:
        module: object = drawing(game_id)
    except InvalidOptionError:
        module = None
    trace = getattr(module, "score_trace", None)
    direction = f"({'higher' if higher else 'lower'} is better)"
    default_doc = (
        f"the running scores {direction}"
        if trace is None
        else f"the game's own score trace {direction}"
    )
    return GameSpec(higher, trace or _running_scores, getattr(module, "SCORE_TRACE", default_doc))
