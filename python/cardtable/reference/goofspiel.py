"""Goofspiel, the reference implementation (OpenSpiel's rules and ids).

Each player holds bid cards 1..N and the point cards 1..N are shuffled. Every turn the next point
card is revealed, both players bid one remaining card in secret, and the higher bid takes the point
card's value; equal bids take nothing. After N turns the player with more points wins; equal points
is a draw. The simultaneous bids are sequentialized: seat 0 bids, then seat 1, and neither sees the
other's bid before both have bid. As in OpenSpiel, once a turn is scored and exactly one turn
remains, that turn is played at once (its point card and both bids are forced).

Ids are OpenSpiel's: a bid of card ``v`` is action ``v - 1`` and point card ``v`` is chance outcome
``v - 1``. See ``docs/games/goofspiel.md`` for the observation and state formats, and its
"Decisions" section for the readings decided beyond OpenSpiel's rules, which this module follows.
"""

from __future__ import annotations

from typing import Any, ClassVar, cast

from cardtable.observations.goofspiel import GoofspielObservation
from cardtable.reference._base import CHANCE, TERMINAL, ReferenceGame, ReferenceState, register
from cardtable.reference._options import (
    OptionReader,
    OptionSpec,
    int_option,
)
from cardtable.reference._tensor import TensorBuilder

__all__ = ["GoofspielGame", "GoofspielObservation", "GoofspielState"]


@register("goofspiel", players=(2, 2))
class GoofspielGame(ReferenceGame["GoofspielState"]):
    """Goofspiel with ``num_cards`` cards per suit, for two players."""

    option_specs: ClassVar[tuple[OptionSpec, ...]] = (
        int_option("num_cards", 13, 1, 60, "cards per player and point cards, 1..=60"),
    )

    def _configure(self, options: OptionReader) -> None:
        self.num_cards = options.int("num_cards")

    @property
    def num_actions(self) -> int:
        """One id per card value: a bid of card ``v`` is ``v - 1``."""
        return self.num_cards

    @property
    def observation_shape(self) -> tuple[int, ...]:
        """``(7 + 5 * N + 3 * N * N,)``: see the contract's "Observation tensor"."""
        n = self.num_cards
        return (7 + 5 * n + 3 * n * n,)

    @property
    def max_game_length(self) -> int:
        """Per point card: its reveal and the two bids."""
        return 3 * self.num_cards

    rule_event_names: ClassVar[tuple[str, ...]] = ("tied bid",)

    def rule_events(
        self, before: GoofspielState, action: int, after: GoofspielState
    ) -> frozenset[str]:
        """Tied bid: "on equal bids nobody gets it" (a turn completed by this step)."""
        new = after.bids[len(before.bids) :]
        return frozenset({"tied bid"}) if any(b0 == b1 for b0, b1 in new) else frozenset()

    def _initial_state(self) -> GoofspielState:
        return GoofspielState(self)


class GoofspielState(ReferenceState):
    """A goofspiel game in progress."""

    def __init__(self, game: GoofspielGame) -> None:
        super().__init__(game)
        self.n = game.num_cards
        cards = list(range(1, self.n + 1))
        self.turn = 0
        self.point_card: int | None = None
        self.remaining_points = list(cards)
        self.hands = [list(cards), list(cards)]
        self.points = [0, 0]
        self.bids: list[list[int]] = []
        self.point_history: list[int] = []
        self.pending: list[int | None] = [None, None]

    # ----- whose move -----
    def _current_player(self) -> int:
        if self.turn == self.n:
            return TERMINAL
        if self.point_card is None:
            return CHANCE  # "the next point card is revealed"
        return 0 if self.pending[0] is None else 1  # seat 0 bids first, then seat 1

    def _legal_actions(self) -> list[int]:
        if self._current_player() == CHANCE:
            return [v - 1 for v in self.remaining_points]
        return [v - 1 for v in self.hands[self._current_player()]]

    def _chance_outcomes(self) -> list[tuple[int, int]]:
        return [(v - 1, 1) for v in self.remaining_points]

    # ----- rules -----
    def _apply(self, action: int) -> None:
        player = self._current_player()
        value = action + 1
        if player == CHANCE:
            self.point_card = value
            self.remaining_points.remove(value)
            return
        self.pending[player] = value
        if player == 1:
            self._reveal_and_score()

    def _reveal_and_score(self) -> None:
        """Both bids are revealed; the higher bid takes the point card, equal bids take nothing."""
        bid0, bid1 = self.pending
        assert bid0 is not None and bid1 is not None and self.point_card is not None
        if bid0 > bid1:
            self.points[0] += self.point_card
        elif bid1 > bid0:
            self.points[1] += self.point_card
        self.hands[0].remove(bid0)
        self.hands[1].remove(bid1)
        self.bids.append([bid0, bid1])
        self.point_history.append(self.point_card)
        self.pending = [None, None]
        self.point_card = None
        self.turn += 1
        if self.turn == self.n - 1:
            self._play_forced_last_turn()

    def _play_forced_last_turn(self) -> None:
        """With one turn left nothing is a choice: it is played at once, as OpenSpiel does."""
        self.point_card = self.remaining_points.pop()
        self.pending = [self.hands[0][0], self.hands[1][0]]
        self._reveal_and_score()

    def _action_label(self, action: int) -> str:
        player = self._current_player()
        if player == CHANCE:
            return f"point card {action + 1}"
        if player >= 0:
            return f"bid {action + 1}"
        return f"action {action}"

    score_wins = "highest"
    """The seat with the most points wins; equal points share the win."""

    def _scores(self) -> list[int]:
        return list(self.points)

    def _public(self) -> dict[str, Any]:
        """Everything but the bids not yet revealed: both hands, bids and points are open."""
        return {
            "turn": self.turn,
            "point_card": self.point_card,
            "remaining_points": list(self.remaining_points),
            "hands": [list(h) for h in self.hands],
            "points": list(self.points),
            "bids": [list(b) for b in self.bids],
            "point_history": list(self.point_history),
        }

    def _observation(self, player: int) -> GoofspielObservation:
        """The open table, whether each seat has bid, and ``player``'s own hidden bid."""
        observation = {
            "seat": player,
            **self._public(),
            "committed": [b is not None for b in self.pending],
            "own_bid": self.pending[player],
        }
        return cast(GoofspielObservation, observation)

    def _observation_tensor(self, player: int) -> list[float]:
        """Encode the observation dict as the contract's "Observation tensor" lists it."""
        obs = self._observation(player)
        n = self.n
        t = TensorBuilder()
        t.one_hot(obs["seat"], 2)
        t.scaled(obs["turn"], n)
        point_card = obs["point_card"]
        t.one_hot(None if point_card is None else point_card - 1, n)
        t.multi_hot((v - 1 for v in obs["remaining_points"]), n)
        for hand in obs["hands"]:
            t.multi_hot((v - 1 for v in hand), n)
        for points in obs["points"]:
            t.scaled(points, n * (n + 1) // 2)
        for turn in range(n):
            if turn < len(obs["bids"]):
                t.one_hot(obs["point_history"][turn] - 1, n)
                t.one_hot(obs["bids"][turn][0] - 1, n)
                t.one_hot(obs["bids"][turn][1] - 1, n)
            else:
                t.extend([0.0] * (3 * n))
        for committed in obs["committed"]:
            t.flag(committed)
        own = obs["own_bid"]
        t.one_hot(None if own is None else own - 1, n)
        return t.values

    def _state_dict(self) -> dict[str, Any]:
        return {**self._public(), "pending": list(self.pending)}
