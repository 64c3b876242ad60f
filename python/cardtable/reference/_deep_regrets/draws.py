"""§7.5 Draws and discards: events, regrets, dinks, reshuffles.

One layer of the Deep Regrets reference (:mod:`cardtable.reference.deep_regrets`, whose docstring
tells how the rules are built); the section numbers (§) are those of ``docs/games/deep_regrets.md``.
"""

from __future__ import annotations

from collections.abc import Generator

from cardtable.observations.deep_regrets import DeepRegretsNodeKind as NodeKind
from cardtable.reference._deep_regrets.cards import (
    CARDS,
    ItemKind,
)
from cardtable.reference._deep_regrets.scoring import Scoring
from cardtable.reference._deep_regrets.table import (
    Flow,
    Node,
    chance,
)

DRAW_NODES: dict[ItemKind, NodeKind] = {
    "dink": "draw_dink",
    "supply": "draw_supply",
    "rod": "draw_rod",
    "reel": "draw_reel",
}
"""The chance node that draws from each item deck."""


class Draws(Scoring):
    """§7.5 Draws and discards: events, regrets, dinks, reshuffles."""

    # ==================================================================================
    # §7.5 Draws and discards
    # ==================================================================================

    def _draw_event(self, p: int, k: int) -> Flow:
        """§16.9 A regret draw event: "u draws k regrets" with k ≥ 1.

        "It draws k + x regrets (one DrawRegret each, §7.5) where x = the sum of
        front_extra_regret amounts of the fish in front of u when the event starts."
        """
        if k < 1:
            return
        extra = sum(
            rule.amount
            for f in sorted(self._seats[p].front)
            for rule in CARDS.fish[f].rules_of("front_extra_regret")
        )
        for _ in range(k + extra):
            yield from self._draw_regret(p)

    def _draw_regret(self, p: int, *, into_pool: bool = False) -> Flow:
        """§7.5 DrawRegret(p) (one card); with ``into_pool`` the card goes to ``ctx.pool``.

        "if the regret deck is empty, the regret discard pile moves into it. If the deck is
        non-empty: chance draw_regret (outcome value v, weight = copies of v in the deck). Else
        the victim = the other seat with the most regret cards, ties: first in seat order after p
        (p+1, p+2, …); if the victim has none, nothing happens; else chance steal_regret (outcome
        v, weight = the victim's copies of v): the card moves to p."
        """
        if not sum(self._regret_deck):
            self._regret_deck = self._regret_discard
            self._regret_discard = [0, 0, 0, 0]
        pool = self._ctx.pool
        if sum(self._regret_deck):
            v = yield chance("draw_regret", p, enumerate(self._regret_deck))
            self._regret_deck[v] -= 1
        else:
            others = [(p + i) % self._n for i in range(1, self._n)]
            victim = max(others, key=lambda q: (self._seats[q].regret_count, -others.index(q)))
            if not self._seats[victim].regret_count:
                return
            weights = enumerate(self._seats[victim].regrets)
            v = yield chance("steal_regret", p, weights, about=victim)
            self._seats[victim].regrets[v] -= 1
        if into_pool and pool is not None:
            self._ctx.pool = sorted([*pool, v])
        else:
            self._seats[p].regrets[v] += 1

    def _discard_random_regret(self, p: int) -> Flow:
        """§7.5 Random discard.

        "chance discard_random_regret (outcome v, weight = p's copies of v) → regret discard
        pile."
        """
        v = yield chance("discard_random_regret", p, enumerate(self._seats[p].regrets))
        self._discard_regret(p, v)

    def _draw_dinks(self, p: int, *, own_cast: bool = False) -> Flow:
        """§7.5 DrawDinks(p); ``own_cast``: the draw happens during p's own cast.

        "k times: if the dink deck is empty, the dink discard pile moves into it; if still
        empty, nothing; else chance draw_dink (outcome dink id, weight 1) → p's dinks." k = 3
        "only if p's equipped reel has the dink_draw passive AND the draw happens during p's own
        cast", else 1 (Centerpin Reel, ``items.csv``: "when you would draw a Dink as part of
        your own fishing action … draw 3 instead (keep all)", Decision 19).
        """
        seat = self._seats[p]
        k = 1
        reel = self._passive(p, "reel", "dink_draw")
        if reel is not None and (own_cast or not reel.when_own_cast):
            k = reel.amount
        for _ in range(k):
            d = yield from self._draw_item(p, "dink")
            if d is not None:
                seat.owned["dink"].add(d)

    def _draw_item(self, p: int, kind: ItemKind) -> Generator[Node, int, int | None]:
        """§4/§7.3 One draw from the ``kind`` deck for p: the card id, or None.

        "if the deck is empty, the discard pile moves into it; if still empty, nothing; else
        chance draw_<kind> (outcome item id, weight 1)": the drawn card leaves the deck and the
        caller says where it goes.
        """
        self._reshuffle_if_empty(kind)
        if not self._deck[kind]:
            return None
        card = yield chance(DRAW_NODES[kind], p, ((i, 1) for i in self._deck[kind]))
        self._deck[kind].remove(card)
        return card

    def _reshuffle_if_empty(self, kind: ItemKind) -> None:
        """§4: reshuffles an empty item deck.

        "reshuffle = move the discard pile into the deck, done automatically right before a draw
        that finds the deck empty".
        """
        if not self._deck[kind]:
            self._deck[kind] = self._discard[kind]
            self._discard[kind] = set()

    def _discard_regret(self, p: int, v: int) -> None:
        """A regret of value v of p goes to the regret discard pile."""
        self._seats[p].regrets[v] -= 1
        self._regret_discard[v] += 1
