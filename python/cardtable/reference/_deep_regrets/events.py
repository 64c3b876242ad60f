"""Rule events of Deep Regrets (the contract's "Rule events"), read off one step's two states.

Each event is a rule of the rules README (or a quote of the rulebook in ``sources.md``) that the
step made happen; the states before and after the step tell which, except for the money cap, whose
lost income is the step's sale (or the Thursday payday) measured against the money held before.
"""

from __future__ import annotations

from typing import Any

from cardtable.reference._deep_regrets.cards import CARDS

DeepRegretsState = Any
"""A ``cardtable.reference.deep_regrets.DeepRegretsState`` (not imported: that module imports this
one, and the package keeps its imports free of cycles)."""

MADNESS_TIERS = ("1-3", "4-6", "7-9", "10-12", "13+")
"""The madness tiers above the first (0 regret cards), by number of regret cards held."""

SHOP_PRICES = (1, 3, 5)
"""The shop tiers by price: "$1 (take 1) / $3 (draw 3 keep 1 ...) / $5 (draw 5 keep 2 ...)"."""

NAMES = (
    "money cap hit",
    *(f"madness tier {tier}" for tier in MADNESS_TIERS),
    "regret deck reshuffled",
    "regret stolen",
    *(f"shop tier ${price}" for price in SHOP_PRICES),
    "all mount slots filled",
    "overfishing",
    "depth emptied",
    "abandon ship",
    "abandon ship after all others passed",
    "The Plug",
)
"""Every rule event, in the contract's order."""

FIRST_SHOP_ACTION = 82
"""§9: ``82 + 3k + t`` buys at shop k, tier t."""
FIRST_FISH_ACTION = 165
"""§9: ``165 + f`` sells fish f at the ``sell`` node."""
THURSDAY = 4
"""Day 4: "Thursday every player gains $3"."""


def _madness_tier(regret_cards: int) -> int:
    """0 for no regret card, then 1..5 for the tiers 1–3, 4–6, 7–9, 10–12 and 13+."""
    return sum(1 for start in (1, 4, 7, 10, 13) if regret_cards >= start)


def _money_cap_hit(before: DeepRegretsState, action: int, after: DeepRegretsState) -> bool:
    """Whether income of this step is lost to the money cap.

    p.17: "You cannot have more than 10$ at one time. Any additional income is lost." — for the
    fish sold in this step (at its value for the seller before the step) and Thursday's $3.
    """
    money = [seat.money for seat in before._seats]
    hit = False
    node = before._node
    if node.kind == "sell" and action >= FIRST_FISH_ACTION:
        p = node.actor
        assert p is not None
        income = before._value(action - FIRST_FISH_ACTION, p)
        hit = money[p] + income > CARDS.money_cap
        money[p] = min(CARDS.money_cap, money[p] + income)
    if before._day < THURSDAY <= after._day:
        hit = hit or any(m + CARDS.payday > CARDS.money_cap for m in money)
    return hit


def rule_events(before: DeepRegretsState, action: int, after: DeepRegretsState) -> frozenset[str]:
    """The rule events of the step from ``before`` by ``action`` to ``after``."""
    events: set[str] = set()
    if _money_cap_hit(before, action, after):
        events.add("money cap hit")
    for p, (was, now) in enumerate(zip(before._seats, after._seats, strict=True)):
        # "Madness tiers by number of Regret cards held (0 / 1–3 / 4–6 / 7–9 / 10–12 / 13+)":
        # every tier the seat climbs into.
        for tier in range(_madness_tier(was.regret_count), _madness_tier(now.regret_count)):
            events.add(f"madness tier {MADNESS_TIERS[tier]}")
        # "Mount: move fish from hand to empty slots ×2, ×3, ×2": the last empty slot filled.
        if None in was.mounted and None not in now.mounted:
            events.add("all mount slots filled")
        # "Abandon ship ... flips the lifeboat"; after all others passed, "they may still take
        # FOUR actions at Port".
        if now.lifeboat_used and not was.lifeboat_used:
            events.add("abandon ship")
            if before._last_turns is not None:
                events.add("abandon ship after all others passed")
        # "catching the last fish of a shoal draws 1 regret (overfishing)": a shoal emptied and
        # its last fish is now the caster's.
        if p == before._node.actor:
            for shoal, fish in enumerate(before._shoals):
                if fish and not after._shoals[shoal] and fish[-1] in now.hand | now.front:
                    events.add("overfishing")
    # "Empty deck: reshuffle the regret discard pile": nothing else takes cards from that pile.
    if any(a < b for a, b in zip(after._regret_discard, before._regret_discard, strict=True)):
        events.add("regret deck reshuffled")
    # "if that is empty too, take a random regret card from the player with the most".
    if before._node.kind == "steal_regret":
        events.add("regret stolen")
    # "tiers $1 / $3 / $5": the turn's main action buys at one of them.
    if before._node.kind == "turn" and FIRST_SHOP_ACTION <= action < FIRST_SHOP_ACTION + 12:
        events.add(f"shop tier ${SHOP_PRICES[(action - FIRST_SHOP_ACTION) % 3]}")
    # "an empty sea ends the game at once": the three shoals of one depth run empty on the way.
    for depth in range(3):
        shoals = range(3 * depth, 3 * depth + 3)
        if any(before._shoals[s] for s in shoals) and not any(after._shoals[s] for s in shoals):
            events.add("depth emptied")
    # The Plug "stays out. From then on, at the start of every player's turn, the top fish of the
    # first non-empty shoal ... is discarded".
    if after._plug and not before._plug:
        events.add("The Plug")
    return frozenset(events)
