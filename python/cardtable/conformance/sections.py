"""Where in the rule documents a divergence lies, for the games whose contracts we can point into.

The contract of game ``g`` is ``docs/games/g.md`` (in the source distribution, not in the wheel:
reports cite it by its title and section, and name the file once, see :data:`CONTRACTS`); the
shared rules text is ``rules/g.md`` of the project's shared rules (kept with its design
documents, outside this repository).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

__all__ = ["CONTRACTS", "rule_sections"]

CONTRACTS = (
    "(cited by title and section: the contract of a game is docs/games/GAME.md of the source "
    "distribution, cardtable-VERSION.tar.gz)"
)
"""Where a report's reader finds the contracts that its sections cite."""

_TIDE = "Turn the Tide contract"
_TIDE_RULES = "rules/turn_the_tide.md"
_GOOF = "Goofspiel contract"

_TURN_THE_TIDE_KEYS: dict[str, str] = {
    "lifebuoys": f"{_TIDE} § Flow, step 4 (losing lifebuoys); {_TIDE_RULES} § One hand, steps 4-7",
    "eliminated": f"{_TIDE} § Flow, step 4 (elimination); {_TIDE_RULES} § One hand, steps 4-7",
    "tide": f"{_TIDE} § Flow, steps 3-4 (taking tide cards, elimination); "
    f"{_TIDE_RULES} § One hand, steps 3-5",
    "scores": f"{_TIDE} § Flow, step 5 (round scoring); {_TIDE_RULES} § Scoring",
    "winners": f"{_TIDE_RULES} § Scoring (the highest total wins, ties share the win)",
    "hand": f"{_TIDE} § Flow, step 2 (hands rotate); {_TIDE_RULES} § Game structure",
    "round": f"{_TIDE} § Flow, steps 5-6 (end of a round); {_TIDE_RULES} § One hand, steps 6 and 8",
    "hand_index": f"{_TIDE} § Flow, step 5 (after the hand); {_TIDE_RULES} § One hand, step 8",
    "is_terminal": f"{_TIDE} § Flow, step 6 (end of the game); {_TIDE_RULES} § Game structure",
}

_TURN_THE_TIDE_PHASES: dict[str, str] = {
    "deal": f"{_TIDE} § Flow, step 1 (the deal); {_TIDE_RULES} § Engine model",
    "tide": f"{_TIDE} § Flow, step 3 (tide draws); {_TIDE_RULES} § Engine model",
    "play": f"{_TIDE} § Flow, step 3 (commitments); {_TIDE_RULES} § One hand, step 2",
    "choose_tide": f"{_TIDE} § Flow, step 3 (highest_chooses_tide); {_TIDE_RULES} § Options",
    "over": f"{_TIDE} § Flow, step 6 (end of the game)",
}

_GOOFSPIEL_KEYS: dict[str, str] = {
    "scores": f"{_GOOF} § Rules (the higher bid wins the point card, equal bids nobody)",
    "points": f"{_GOOF} § Rules (the higher bid wins the point card, equal bids nobody)",
    "winners": f"{_GOOF} § Rules (more points wins; equal points: both win)",
    "turn": f"{_GOOF} § Flow and ids (the last turn is played at once)",
    "is_terminal": f"{_GOOF} § Flow and ids (the last turn is played at once)",
    "point_card": f"{_GOOF} § Flow and ids (chance at the start of every turn)",
    "remaining_points": f"{_GOOF} § Flow and ids (chance at the start of every turn)",
}


def rule_sections(
    game_id: str, paths: Iterable[tuple[str, ...]], observation: Mapping[str, Any] | None
) -> list[str]:
    """The rule-document sections concerned by differences at ``paths``.

    Args:
        game_id: The game.
        paths: For each difference, the field and, inside ``observations``, the seat and key, e.g.
            ``("observations", "0", "lifebuoys")`` or ``("legal_actions",)``; ``("apply",)`` for
            a move the implementation refused (the rules of the legal moves).
        observation: Seat 0's observation in our state where the answers differ (for the phase;
            for a move refused, the state before it).

    Returns:
        Distinct sections in order of first mention; the contract as a whole if nothing finer is
        known.
    """
    found: list[str] = []
    for path in paths:
        key = path[2] if path[0] == "observations" and len(path) > 2 else path[0]
        if key == "apply":  # a move refused: which moves are legal there
            key = "legal_actions"
        section = _section(game_id, key, observation or {})
        if section is not None and section not in found:
            found.append(section)
    return found or [f"the {game_id} contract"]


def _section(game_id: str, key: str, observation: Mapping[str, Any]) -> str | None:
    if game_id == "turn_the_tide":
        if key in _TURN_THE_TIDE_KEYS:
            return _TURN_THE_TIDE_KEYS[key]
        return _TURN_THE_TIDE_PHASES.get(str(observation.get("phase")))
    if game_id == "goofspiel":
        if key in _GOOFSPIEL_KEYS:
            return _GOOFSPIEL_KEYS[key]
        if key in ("legal_actions", "chance_outcomes", "current_player"):
            if observation.get("point_card") is None:
                return f"{_GOOF} § Flow and ids (chance at the start of every turn)"
            return f"{_GOOF} § Flow and ids (bids: the player's remaining cards)"
        return f"{_GOOF} § Observation of seat p"
    return None
