"""§8 End of the game and scores.

One layer of the Deep Regrets reference (:mod:`cardtable.reference.deep_regrets`, whose docstring
tells how the rules are built); the section numbers (§) are those of ``docs/games/deep_regrets.md``.
"""

from __future__ import annotations

from cardtable.reference._deep_regrets.board import Board
from cardtable.reference._deep_regrets.cards import (
    CARDS,
)
from cardtable.reference._deep_regrets.table import (
    CLOCHE_MULTIPLIER,
    SLOTS,
    Context,
    EndResult,
)


class Scoring(Board):
    """§8 End of the game and scores."""

    # ==================================================================================
    # §8 End of the game and scores
    # ==================================================================================

    def _end_the_game(self) -> None:
        """§8: regret values, the penalty, the scores; then the game is over.

        "phase = node = over, actor = turn = null, ctx at its defaults; everything else stays as
        it was."
        """
        self._phase = "over"
        self._turn = None
        self._ctx = Context()
        regret_value = [self._regret_value(p) for p in range(self._n)]
        discarded, cloche_discarded = self._regret_penalty(regret_value)
        scores = [self._final_score(p) for p in range(self._n)]
        self._end = EndResult(regret_value, discarded, cloche_discarded, scores)

    def _regret_value(self, p: int) -> int:
        """§8 step 1: "RV[p] = Σ values of p's regrets + 10 if p's lifeboat is used"."""
        seat = self._seats[p]
        total = sum(v * copies for v, copies in enumerate(seat.regrets))
        return total + (CARDS.lifeboat_regret_value if seat.lifeboat_used else 0)

    def _regret_penalty(self, regret_value: list[int]) -> tuple[list[int | None], list[int | None]]:
        """§8 step 2 and §16.11: the discarded mounted fish and Cloche fish.

        "Every seat with RV = max RV that has a mounted fish loses one: the mounted fish with the
        highest value(f, p) x multiplier (with 2 players: the lowest), ties: the lowest slot
        index. It goes to its depth's discard pile (seats in order 0..n-1)." §16.11: "step 2 also
        discards, for every seat with the highest Regret Value, its Cloche fish (to its depth's
        discard pile)" — right after that seat's mounted fish.
        """
        discarded: list[int | None] = [None] * self._n
        cloche_discarded: list[int | None] = [None] * self._n
        worst = max(regret_value)
        for p in range(self._n):
            seat = self._seats[p]
            if regret_value[p] != worst:
                continue
            slots = [k for k in SLOTS if seat.mounted[k] is not None]
            if slots:
                discarded[p] = self._discard_mounted(p, slots)
            if seat.cloche is not None:
                f = seat.cloche
                seat.cloche = None
                self._fish_discard[CARDS.fish[f].depth - 1].append(f)
                cloche_discarded[p] = f
        return discarded, cloche_discarded

    def _discard_mounted(self, p: int, slots: list[int]) -> int:
        """§8 step 2: p loses the mounted fish the penalty picks among ``slots``."""
        seat = self._seats[p]
        sign = 1 if self._n == 2 else -1  # the lowest with 2 players, else the highest
        k = min(slots, key=lambda k: (sign * self._mounted_points(p, k), k))
        f = seat.mounted[k]
        assert f is not None
        seat.mounted[k] = None
        self._fish_discard[CARDS.fish[f].depth - 1].append(f)
        return f

    def _mounted_points(self, p: int, k: int) -> int:
        """value(f, p) x the multiplier of slot k, for the fish f mounted in it."""
        f = self._seats[p].mounted[k]
        assert f is not None
        return self._value(f, p) * CARDS.mount_multipliers[k]

    def _final_score(self, p: int) -> int:
        """§8 step 3.

        "score[p] = Σ value(f, p) over the hand + Σ value(f, p) x multiplier over mounted fish +
        money div 2. Madness uses p's final regret count." §16.11: "step 3 adds Σ value(f, p)
        over the front fish and value(Cloche fish, p) x 2".
        """
        seat = self._seats[p]
        hand = sum(self._value(f, p) for f in seat.hand | seat.front)
        if seat.cloche is not None:
            hand += self._value(seat.cloche, p) * CLOCHE_MULTIPLIER
        mounted = sum(
            self._value(f, p) * CARDS.mount_multipliers[k]
            for k, f in enumerate(seat.mounted)
            if f is not None
        )
        return hand + mounted + seat.money // CARDS.money_per_point
