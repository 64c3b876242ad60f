"""The observation of the Trafficars memory game as ``TypedDict`` s.

The format is documented in ``docs/games/trafficars_memory.md``.
A leaf module: it imports nothing of cardtable.
"""

from __future__ import annotations

from typing import Literal, TypedDict

__all__ = ["TrafficarsMemoryObservation", "TrafficarsMemoryPhase"]

TrafficarsMemoryPhase = Literal["layout", "flip", "over"]
"""What the game is waiting for (the observation's ``phase``)."""


class TrafficarsMemoryObservation(TypedDict):
    """What one seat may know (the contract's observation, exactly these keys)."""

    seat: int
    """The observing seat."""
    phase: TrafficarsMemoryPhase
    """``"layout"``, ``"flip"`` or ``"over"``."""
    current: int | None
    """The seat to flip; None during the layout and at the end."""
    faces: list[int | None]
    """Per position: the card id if it is face up now (flipped this turn), else None."""
    seen: list[int | None]
    """Per position: the card id if it is still on the table and was ever flipped, else None."""
    on_table: list[bool]
    """Per position: whether a card lies there."""
    taken: list[int]
    """Per seat: the number of cards taken."""
    flipped: list[int]
    """This turn's face-up positions in flip order."""
    idle_turns: int
    """Turns in a row, the current one included while it has shown no new card, that took no
    card and turned up no card unseen before; ``N(N - 1)/2`` of them end the game (N cards laid
    out)."""


OBSERVATION = TrafficarsMemoryObservation
"""What ``state.observation(p)`` returns in this game."""

_C = "Trafficars — memory contract §"
_FLOW = f"{_C} Flow"
_END_TEST = f"{_C} Definitions (End test)"
_SCORING = f"{_C} Decisions, 13 (scores and winners)"

KEY_SECTIONS: dict[str, str] = {
    "seat": f"{_C} Observation of seat p",
    "current": f"{_FLOW}, steps 1 and 3 (seat 0 starts, then the next seat whatever happened); "
    f"{_C} Decisions, 7 (who starts, who follows)",
    "faces": f"{_FLOW}, step 2 (a flipped card is face up, a breaker face down again)",
    "seen": f"{_FLOW}, steps 2-3 (set when flipped, null once taken); {_C} Decisions, 9 (memory)",
    "on_table": f"{_FLOW}, steps 1 and 3 (laid out, a run taken leaves the table)",
    "taken": f"{_FLOW}, step 3 (the seat takes a collectable K'); {_C} Definitions (collectable)",
    "flipped": f"{_FLOW}, steps 2-3 (flip order, the breaker removed, [] between turns); "
    f"{_C} Definitions (continue)",
    "idle_turns": f"{_FLOW}, step 3 (idle_turns); {_C} Decisions, 11 (a stalled game ends)",
    "is_terminal": f"{_FLOW}, steps 1 and 3 (the end test, N(N - 1)/2 quiet turns); {_END_TEST}",
    "scores": f"{_FLOW}, step 4 (score = taken); {_SCORING}",
    "winners": f"{_FLOW}, step 4 (the most cards taken win, ties share); {_SCORING}",
}

_PHASES: dict[str, str] = {  # for keys with no entry (legal_actions, ...): by the phase
    "layout": f"{_FLOW}, step 1 (layout: a deck card not yet laid out, position by position)",
    "flip": f"{_FLOW}, steps 2-3 (flip: face-down positions, 63 once collectable, end of turn); "
    f"{_C} Definitions (collectable, continue)",
    "over": f"{_FLOW}, step 4 (end); {_END_TEST}",
}

_ACTIONS = f"{_C} Actions and labels"

STATE_SECTIONS: tuple[tuple[str, dict[str, str]], ...] = (("phase", _PHASES),)
OTHER_SECTION: str | None = _ACTIONS
