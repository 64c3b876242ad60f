"""Where in the rule documents a divergence lies.

The contract of game ``g`` is ``docs/games/g.md`` (in the source distribution, not in the wheel:
reports cite it by its title and section, and name the file once, see :data:`CONTRACTS`); the
shared rules text is ``rules/g.md`` of the project's shared rules (kept with its design
documents, outside this repository). Each game names the sections of its keys in its
observation module (gathered in :data:`cardtable.observations.CONTRACT_SECTIONS`).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from cardtable.observations import CONTRACT_SECTIONS

__all__ = ["CONTRACTS", "rule_sections"]

CONTRACTS = (
    "(cited by title and section: the contract of a game is docs/games/GAME.md of the source "
    "distribution, cardtable-VERSION.tar.gz)"
)
"""Where a report's reader finds the contracts that its sections cite."""


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
    section_of = CONTRACT_SECTIONS.get(game_id)
    found: list[str] = []
    for path in paths:
        key = path[2] if path[0] == "observations" and len(path) > 2 else path[0]
        if key == "apply":  # a move refused: which moves are legal there
            key = "legal_actions"
        section = section_of.section(key, observation or {}) if section_of is not None else None
        if section is not None and section not in found:
            found.append(section)
    return found or [f"the {game_id} contract"]
