"""What a study needs to know about each game beyond its engine.

Which way scores point, and the public score trace (the "Score trace" section at the end of each
``docs/games/<id>.md``).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from cardtable import _core

__all__ = ["GameSpec", "score_label", "spec"]


def _running_scores(state: _core.State) -> list[float]:
    return [float(s) for s in state.scores]


def _deep_regrets_fish(state: _core.State) -> list[float]:
    # Scores stay hidden (0) until the end; the public proxy is the number of fish each seat holds
    # or has mounted (`hand_count` and `mounted` are public), and the final scores once it is over.
    if state.is_terminal:
        return [float(s) for s in state.scores]
    obs = state.observation(0)
    return [
        float(held + sum(fish is not None for fish in mounted))
        for held, mounted in zip(obs["hand_count"], obs["mounted"], strict=True)
    ]


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
    trace: Callable[[_core.State], list[float]]
    trace_doc: str


_SPECS: dict[str, GameSpec] = {
    "turn_the_tide": GameSpec(
        True, _running_scores, "the running score totals (they change at the end of each round)"
    ),
    "trafficars": GameSpec(
        False, _running_scores, "the penalty cards each seat has taken so far (lower is better)"
    ),
    "trafficars_memory": GameSpec(True, _running_scores, "the cards each seat has taken so far"),
    "trafficars_overtaking": GameSpec(
        True, _running_scores, "minus the cards each seat still holds in hand and pile"
    ),
    "goofspiel": GameSpec(True, _running_scores, "the points each seat has won so far"),
    "deep_regrets": GameSpec(
        True,
        _deep_regrets_fish,
        "scores are hidden until the end: the fish each seat holds or has mounted (public "
        "counts), then the final scores",
    ),
}


def score_label(game_id: str, label: str) -> str:
    """``label`` as a column heading, with "(lower is better)" for a game whose lower score is."""
    return label if spec(game_id).higher_is_better else f"{label} (lower is better)"


def spec(game_id: str) -> GameSpec:
    """The study spec of ``game_id``; an unknown game falls back to its running scores."""
    return _SPECS.get(
        game_id, GameSpec(True, _running_scores, "the running scores (higher is better)")
    )
