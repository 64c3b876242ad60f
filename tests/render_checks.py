"""Helpers of the pictures' leak test that a game's ``GAME.hidden_cards`` may use too.

The leak test lives in ``tests/test_render.py``; a scenario file must not import that test module
(pytest would collect its tests twice), so what both need is here.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from cardtable.protocols import StateProtocol


def strings_in(value: Any) -> set[str]:
    """Every string in a JSON-like value (an observation): itself, or those in its items."""
    if isinstance(value, str):
        return {value}
    if isinstance(value, dict):
        return set().union(*(strings_in(v) for v in value.values())) if value else set()
    if isinstance(value, list):
        return set().union(*(strings_in(v) for v in value)) if value else set()
    return set()


def others_hands_and_commitments(state: StateProtocol, p: int) -> tuple[set[str], set[str]]:
    """What seat ``p`` must not see in a game whose state holds ``hands`` and ``commitments`` per
    seat (Turn the Tide, the traffic jam): the other seats' hands and the cards they committed
    face down, as ``data-card`` ids (``GAME.hidden_cards``)."""
    d = state.to_dict()
    s, n = d["state"], d["players"]
    others = [q for q in range(n) if q != p]
    ids = {c for q in others for c in s["hands"][q]}
    ids |= {s["commitments"][q] for q in others if s["commitments"][q] is not None}
    return {str(c) for c in ids}, set()
