"""The observation of Trafficars (the traffic jam) as ``TypedDict`` s.

The format is documented in ``docs/games/trafficars.md``. A leaf module: it imports nothing of
cardtable.
"""

from __future__ import annotations

from typing import Literal, TypedDict

__all__ = ["TrafficarsDecision", "TrafficarsObservation", "TrafficarsPhase"]

TrafficarsPhase = Literal["deal", "commit", "resolve", "over"]
"""What the game is waiting for (the observation's ``phase``)."""

TrafficarsDecision = Literal[
    "commit", "ambulance", "police", "police_take", "tow_truck", "target", "take", "insert"
]
"""The kind of a pending decision (the observation's ``decision``)."""


class TrafficarsObservation(TypedDict):
    """What one seat may know (the contract's observation, exactly these keys)."""

    seat: int
    """The observing seat."""
    phase: TrafficarsPhase
    """``"deal"``, ``"commit"``, ``"resolve"`` or ``"over"``."""
    decision: TrafficarsDecision | None
    """The kind of the pending decision; None at chance nodes and at the end."""
    turn: int
    """0-based turn (= turns completed)."""
    hand: list[int]
    """Sorted card ids the seat holds, without its pending commitment."""
    lanes: list[list[list[int] | None]]
    """Per lane, its places front to end: card ids bottom to top, or None for the free place."""
    place_cars: list[list[int]]
    """Per lane, per place, the place's car count."""
    cars: list[int]
    """Per lane, the cars in it."""
    penalties: list[int]
    """Per seat, the number of penalty cards taken."""
    committed: list[bool]
    """Per seat, whether it holds a pending (hidden) commitment."""
    own_commitment: int | None
    """The seat's own pending commitment, or None."""
    revealed: list[int] | None
    """This turn's cards per seat once revealed, else None."""
    last_revealed: list[int] | None
    """The cards per seat revealed in the last turn that has ended; None while none has ended."""
    resolving: int | None
    """The card being resolved, else None."""
    queue: list[int]
    """The seats whose revealed cards are not yet resolved, in resolution order."""


OBSERVATION = TrafficarsObservation
"""What ``state.observation(p)`` returns in this game."""

_C = "Trafficars — the traffic jam contract §"
_TURN = f"{_C} Flow, A turn"
_RESOLVE = f"{_C} Resolving one card: options and effects"
_ORDER = f"{_TURN}, steps 4-5 (resolution order)"
_END = f"{_C} Flow, End"
_COMMIT = f"{_TURN}, steps 3-4 (commit, then the reveal clears the commitments)"
_SCORING = f"{_C} Decisions, 19 (scores and winners)"

KEY_SECTIONS: dict[str, str] = {
    "seat": f"{_C} Observation of seat p",
    "turn": f"{_TURN}, step 6 (end of turn: turn += 1); {_C} Decisions, 18 (around the game)",
    "hand": f"{_C} Flow, Deal, step 2 (the hands); {_TURN}, step 3 (the card leaves the hand)",
    "lanes": f"{_C} The lane model; {_RESOLVE} (effects)",
    "place_cars": f"{_C} The lane model (car counts); "
    f"{_TURN}, step 6 (an unfilled free place: its tow truck counts 2)",
    "cars": f"{_C} The lane model (cars(L)); {_RESOLVE} (effects)",
    "penalties": f"{_RESOLVE} (cards taken as penalty); "
    f"{_C} Decisions, 21 (penalty cards are cards)",
    "committed": _COMMIT,
    "own_commitment": _COMMIT,
    "revealed": f"{_TURN}, steps 4 and 6 (the reveal, null again at the end of the turn)",
    "last_revealed": f"{_TURN}, step 6 (last_revealed = revealed); "
    f"{_C} Decisions, 20 (the last turn's reveal stays in view)",
    "resolving": f"{_TURN}, step 5 (the card of seat queue[0])",
    "queue": _ORDER,
    "is_terminal": f"{_TURN}, step 6 (the game ends after hand_size turns); {_END}",
    "scores": f"{_END} (score = penalties); {_SCORING}",
    "winners": f"{_END} (the fewest penalties win, ties share); {_SCORING}",
}

_DECISIONS: dict[str, str] = {  # at a decision (legal_actions, current_player, ...): by its kind
    "commit": f"{_TURN}, step 3 (commit: the lowest seat without a commitment, its hand)",
    "ambulance": f"{_RESOLVE} (Ambulance A); {_ORDER}",
    "police": f"{_RESOLVE} (Police car P: the legal lanes); {_ORDER}",
    "police_take": f"{_RESOLVE} (Police car P: no lane legal, police_take); {_ORDER}",
    "tow_truck": f"{_RESOLVE} (Tow truck T); {_ORDER}",
    "target": f"{_RESOLVE} (Numbered card X: legal lane ends, the free place); {_ORDER}",
    "take": f"{_RESOLVE} (Numbered card X: too low, take); {_ORDER}",
    "insert": f"{_RESOLVE} (Numbered card X: too low, insert); {_ORDER}",
}

_PHASES: dict[str, str] = {  # elsewhere: by the observation's phase
    "deal": f"{_C} Flow, Deal (lane starters, then the hands)",
    "commit": f"{_TURN}, step 3 (commit: the lowest seat without a commitment, its hand)",
    "resolve": f"{_ORDER}; {_RESOLVE}",
    "over": _END,
}

_ACTIONS = f"{_C} Actions and labels"

STATE_SECTIONS: tuple[tuple[str, dict[str, str]], ...] = (
    ("decision", _DECISIONS),
    ("phase", _PHASES),
)
OTHER_SECTION: str | None = _ACTIONS
