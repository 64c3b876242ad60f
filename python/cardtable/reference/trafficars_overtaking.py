"""Trafficars, game 3 — the overtaking lane: the reference rules, one method per rule step.

The rules are ``rules/trafficars.md`` ("Game 3 — overtaking lane"); the deal, the order of every
automatic step and decision, the action ids, labels, observation and canonical state are fixed by
``docs/games/trafficars_overtaking.md``. This module is written to be read next to them: each
method quotes the rule it carries out.

A game, as the engine sees it:

1. The deal: ``50 mod players`` chance nodes remove cards unseen, then every seat's pile is dealt,
   seat 0's top card first. Everyone draws 6 cards and seat 0's pile top starts the row.
2. The active seat plays fitting hand cards onto the ends of the row, one at a time; after each,
   the overtaker (the next seat) overtakes with every card that fits between the played card and
   its neighbour, and becomes the active seat. Overtaking is compulsory; with the option
   ``optional_overtake`` it is the overtaker's choice. An active seat without a fitting card
   passes; after a pass by every seat in turn the row is cleared and a new row starts.
3. Whenever the active seat changes, everyone refills their hand to 6 from their own pile.
4. The first seat without cards in hand and pile wins.

Decisions on points the rules doc leaves open (the simplest reading each time; the contract's
"Decisions" section lists them with every other reading beyond the booklet):

- The deal itself is not a change of the active seat: after the last deal outcome there is exactly
  the one refill the contract names (step 3 of the deal), then the start card.
- The scores (minus the cards in hand and pile) are running during the deal as well: a seat's
  score falls while its pile is dealt.
"""

from __future__ import annotations

from bisect import insort
from collections.abc import Mapping
from typing import Any

from cardtable.observations.trafficars_overtaking import TrafficarsOvertakingObservation
from cardtable.observations.trafficars_overtaking import TrafficarsOvertakingPhase as Phase
from cardtable.reference._base import CHANCE, TERMINAL, ReferenceGame, ReferenceState, register
from cardtable.reference._options import (
    OptionReader,
    bool_option,
)
from cardtable.reference._tensor import TensorBuilder

__all__ = [
    "TrafficarsOvertakingGame",
    "TrafficarsOvertakingObservation",
    "TrafficarsOvertakingState",
]

CARDS = range(1, 51)
"""The 50 car cards; a card's id is its number. Special cards are not used."""
HAND_SIZE = 6
"""'Each player draws 6 cards from their own pile into hand', and refills to 6."""
OVERTAKE = 51
"""The overtaker's action: put every card that fits between into the row."""
LET_GO = 52
"""The overtaker's action: do not overtake."""
PASS = 53
"""The active player's action when no hand card fits (forced)."""
NUM_ACTIONS = 54
"""Action ids 0..53: card ids 1..50, overtake, let go, pass."""

TENSOR_PHASES: tuple[Phase, ...] = ("deal", "play", "overtake", "start", "over")
"""The phases in the order of the tensor's ``phase`` segment."""


class TrafficarsOvertakingState(ReferenceState):
    """A game of Trafficars overtaking lane in progress."""

    def __init__(self, game: TrafficarsOvertakingGame) -> None:
        """Set up the table before the deal: no pile, no hand, an empty row."""
        super().__init__(game)
        n = game.players
        self._players = n
        self._optional_overtake = game.optional_overtake
        self._removed_count = len(CARDS) % n
        self._pile_size = len(CARDS) // n
        self._removed: list[int] = []
        self._piles: list[list[int]] = [[] for _ in range(n)]
        self._hands: list[list[int]] = [[] for _ in range(n)]
        self._row: list[int] = []
        self._active = 0
        self._overtaker = 1 % n
        self._passes = 0
        self._overtake_card: int | None = None
        self._winner: int | None = None
        self._phase: Phase = "deal"

    # ----- the deal -----
    def _cards_dealt(self) -> int:
        """Count the cards dealt into the piles so far."""
        return sum(len(pile) for pile in self._piles)

    def _removing(self) -> bool:
        """Tell whether the deal is still removing cards (it does that first)."""
        return len(self._removed) < self._removed_count

    def _seat_being_dealt(self) -> int:
        """Find the seat whose pile the next deal outcome goes to: seat 0's pile first."""
        return self._cards_dealt() // self._pile_size

    def _cards_left_to_deal(self) -> list[int]:
        """List the cards neither removed nor dealt, in increasing order."""
        gone = set(self._removed)
        for pile in self._piles:
            gone.update(pile)
        return [card for card in CARDS if card not in gone]

    def _remove(self, card: int) -> None:
        """Remove ``card`` from the game unseen.

        "The 50 mod players cards that do not divide evenly are removed at random, unseen."
        """
        self._removed.append(card)

    def _deal(self, card: int) -> None:
        """Put ``card`` under the cards of the pile being dealt.

        "Deal all 50 car cards evenly into face-down personal piles": seat 0's pile first, its first
        outcome the top card. After the last card everyone draws 6 cards, seat 0 is the active seat,
        seat 1 the overtaker, and seat 0's pile top starts the row.
        """
        self._piles[self._seat_being_dealt()].append(card)
        if self._cards_dealt() == self._pile_size * self._players:
            self._refill()
            self._active = 0
            self._overtaker = 1 % self._players
            self._start_row()

    # ----- procedures -----
    def _refill(self) -> None:
        """Let every seat draw up to 6 cards in hand from its own pile.

        "Whenever the active player changes, every player refills their hand to 6 from their own
        pile (as far as it lasts)": seat by seat in increasing order, top card first.
        """
        for seat in range(self._players):
            while len(self._hands[seat]) < HAND_SIZE and self._piles[seat]:
                insort(self._hands[seat], self._piles[seat].pop(0))

    def _change_active(self, seat: int) -> None:
        """Make ``seat`` the active player; the next seat becomes the overtaker.

        "The player at the active player's left (next seat) is the overtaker." Every change of the
        active player triggers exactly one refill, at once.
        """
        self._active = seat
        self._overtaker = (seat + 1) % self._players
        self._refill()

    def _next_seat(self, seat: int) -> int:
        """The seat to the left of ``seat``: "play goes to the next seat"."""
        return (seat + 1) % self._players

    def _won(self, seat: int) -> bool:
        """Check whether ``seat`` has won, and end the game if so.

        "As soon as a player has no cards in hand and pile, that player wins." Checked right after
        cards leave the seat's hand or pile into the row.
        """
        if self._hands[seat] or self._piles[seat]:
            return False
        self._winner = seat
        self._phase = "over"
        return True

    def _start_row(self) -> None:
        """Start a new row with the active seat's start card.

        "The active player turns the top card of their own pile into the middle of the table as the
        start card"; "with an empty pile they place a hand card of their choice".
        """
        active = self._active
        if not self._piles[active]:
            self._phase = "start"
            return
        self._row = [self._piles[active].pop(0)]
        if not self._won(active):
            self._phase = "play"

    def _continue(self) -> None:
        """Let the active seat play on after a card that was not overtaken.

        "If the active player has emptied their hand, the turn goes to the next seat" (not a pass).
        """
        if not self._hands[self._active]:
            self._change_active(self._next_seat(self._active))
        self._phase = "play"

    # ----- the active player -----
    def _fits(self, card: int) -> bool:
        """Tell whether ``card`` may go onto an end of the row.

        "Every card placed later goes to the left end (smaller than the leftmost card) or the right
        end (larger than the rightmost card)."
        """
        return card < self._row[0] or card > self._row[-1]

    def _fitting_cards(self) -> list[int]:
        """List the active seat's hand cards that fit the row, sorted."""
        return [card for card in self._hands[self._active] if self._fits(card)]

    def _cards_between(self, seat: int, low: int, high: int) -> list[int]:
        """List ``seat``'s hand cards strictly between ``low`` and ``high``, sorted."""
        low, high = min(low, high), max(low, high)
        return [card for card in self._hands[seat] if low < card < high]

    def _neighbour_of_end(self, card: int) -> int:
        """Find the row card next to ``card``, which lies at one end of the row."""
        return self._row[1] if card == self._row[0] else self._row[-2]

    def _play(self, card: int) -> None:
        """Play ``card`` from the active seat's hand onto its end of the row.

        "Plays one hand card at a time onto an end. After each card X, the overtaker may overtake
        if they hold cards strictly between X and the card X was placed next to." "Overtaking is
        compulsory: 'ohituskaistalle pyrkivän pelaajan pitää … sanoa Ohitus!, jos hänellä on
        ohituskaistalle sopiva kortti' — an overtaker who holds a fitting card overtakes (no
        decision). Option ``optional_overtake`` (default false) turns it into the overtaker's
        choice."
        """
        active = self._active
        self._hands[active].remove(card)
        if card < self._row[0]:
            self._row.insert(0, card)
        else:
            self._row.append(card)
        self._passes = 0
        if self._won(active):
            return
        if self._cards_between(self._overtaker, card, self._neighbour_of_end(card)):
            self._overtake_card = card
            if self._optional_overtake:
                self._phase = "overtake"
            else:
                self._overtake()
        else:
            self._continue()

    def _pass(self) -> None:
        """Pass: "if the active player has no card that fits, they say pass".

        "The turn goes to the next seat." "If every player in turn has passed since the last card
        was placed, the row is removed from the game and the next seat starts a new row with the
        top card of their pile."
        """
        self._passes += 1
        self._change_active(self._next_seat(self._active))
        if self._passes == self._players:
            self._row = []
            self._passes = 0
            self._start_row()
        else:
            self._phase = "play"

    def _start_with(self, card: int) -> None:
        """Start the row with a hand card: the active seat's pile is empty."""
        active = self._active
        self._hands[active].remove(card)
        self._row = [card]
        if not self._won(active):
            self._phase = "play"

    # ----- the overtaker -----
    def _overtake(self) -> None:
        """Overtake: "put all those cards into the row, in order, and become the active player".

        The cards go between the played card and its neighbour, so the row stays increasing.
        """
        overtaker = self._overtaker
        card = self._overtake_card
        assert card is not None
        neighbour = self._neighbour_of_end(card)
        for between in self._cards_between(overtaker, card, neighbour):
            self._hands[overtaker].remove(between)
            insort(self._row, between)
        self._overtake_card = None
        self._passes = 0
        if not self._won(overtaker):
            self._change_active(overtaker)
            self._phase = "play"

    def _let_go(self) -> None:
        """Let the active player go on (only with ``optional_overtake``)."""
        self._overtake_card = None
        self._continue()

    # ----- rule hooks -----
    def _current_player(self) -> int:
        if self._phase == "deal":
            return CHANCE
        if self._phase == "over":
            return TERMINAL
        if self._phase == "overtake":
            return self._overtaker
        return self._active

    def _legal_actions(self) -> list[int]:
        """The deal outcomes or the decisions of the seat to move.

        The active player must play a fitting card: "pass" only "when forced". A start card is
        always a decision, even with one card in hand.
        """
        if self._phase == "deal":
            return [card for card, _ in self._chance_outcomes()]
        if self._phase == "play":
            return self._fitting_cards() or [PASS]
        if self._phase == "overtake":
            return [OVERTAKE, LET_GO]
        if self._phase == "start":
            return list(self._hands[self._active])
        return []

    def _chance_outcomes(self) -> list[tuple[int, int]]:
        if self._phase != "deal":
            return []
        if self._removing():
            return [(card, 1) for card in CARDS if card not in self._removed]
        return [(card, 1) for card in self._cards_left_to_deal()]

    def _apply(self, action: int) -> None:
        if self._phase == "deal":
            if self._removing():
                self._remove(action)
            else:
                self._deal(action)
        elif self._phase == "play":
            if action == PASS:
                self._pass()
            else:
                self._play(action)
        elif self._phase == "overtake":
            if action == OVERTAKE:
                self._overtake()
            else:
                self._let_go()
        elif self._phase == "start":
            self._start_with(action)

    def _action_label(self, action: int) -> str:
        is_card = action in CARDS
        if self._phase == "deal" and is_card:
            if self._removing():
                return f"remove {action}"
            return f"deal {action} to seat {self._seat_being_dealt()}"
        if self._phase == "play" and is_card:
            return f"play {action}"
        if self._phase == "play" and action == PASS:
            return "pass"
        if self._phase == "start" and is_card:
            return f"start the row with {action}"
        if self._phase == "overtake" and action == OVERTAKE:
            return "overtake"
        if self._phase == "overtake" and action == LET_GO:
            return "let go"
        return f"action {action}"

    def _scores(self) -> list[int]:
        """Score each seat with minus the cards it still holds in hand and pile."""
        return [
            -(len(hand) + len(pile)) for hand, pile in zip(self._hands, self._piles, strict=True)
        ]

    def _winners(self) -> list[int]:
        """Name the winner: "as soon as a player has no cards in hand and pile"."""
        return [] if self._winner is None else [self._winner]

    def _observation(self, player: int) -> TrafficarsOvertakingObservation:
        """Show ``player`` its own hand and everything public; piles and other hands stay hidden."""
        return {
            "seat": player,
            "phase": self._phase,
            "row": list(self._row),
            "hand": list(self._hands[player]),
            "pile_sizes": [len(pile) for pile in self._piles],
            "hand_sizes": [len(hand) for hand in self._hands],
            "active": self._active,
            "overtaker": self._overtaker,
            "passes": self._passes,
            "overtake_card": self._overtake_card,
            "winner": self._winner,
        }

    tensor_phases = TENSOR_PHASES

    def _encode_tensor(self, t: TensorBuilder, obs: Mapping[str, Any]) -> None:
        """The contract's "Observation tensor" after the seat and the phase."""
        n = self._players
        t.multi_hot((card - 1 for card in obs["row"]), len(CARDS))
        t.multi_hot((card - 1 for card in obs["hand"]), len(CARDS))
        for size in obs["pile_sizes"]:
            t.scaled(size, 25)
        for size in obs["hand_sizes"]:
            t.scaled(size, HAND_SIZE)
        t.one_hot(obs["active"], n)
        t.one_hot(obs["overtaker"], n)
        t.scaled(obs["passes"], n)
        card = obs["overtake_card"]
        t.one_hot(None if card is None else card - 1, len(CARDS))
        t.one_hot(obs["winner"], n)

    def _state_dict(self) -> dict[str, object]:
        return {
            "phase": self._phase,
            "row": list(self._row),
            "active": self._active,
            "overtaker": self._overtaker,
            "passes": self._passes,
            "overtake_card": self._overtake_card,
            "winner": self._winner,
            "removed": list(self._removed),
            "piles": [list(pile) for pile in self._piles],
            "hands": [list(hand) for hand in self._hands],
        }


@register("trafficars_overtaking", players=(2, 5))
class TrafficarsOvertakingGame(ReferenceGame[TrafficarsOvertakingState]):
    """Trafficars overtaking lane for 2 to 5 players with fixed options."""

    option_specs = (
        bool_option(
            "optional_overtake",
            False,
            "overtaking is the overtaker's choice (overtake / let go) instead of compulsory",
        ),
    )

    def _configure(self, options: OptionReader) -> None:
        """Read the one option besides ``players``."""
        self.optional_overtake = options.bool("optional_overtake")

    num_actions = NUM_ACTIONS
    """54: card ids 1..50, overtake 51, let go 52, pass 53."""

    @property
    def observation_shape(self) -> tuple[int, ...]:
        """``(156 + 6 * players,)``: see the contract's "Observation tensor"."""
        return (156 + 6 * self.players,)

    @property
    def max_game_length(self) -> int:
        """The bound of a game's steps: the deal, placed cards, overtakes and passes.

        50 deal outcomes, at most 50 placed cards (plays and starts), one overtake decision per
        play and at most one pass per seat before each placed card (and before the last win
        check).
        """
        return 150 + 51 * self.players

    rule_event_names = ("overtake", "multi-card overtake", "all pass")

    def rule_events(
        self,
        before: TrafficarsOvertakingState,
        action: int,
        after: TrafficarsOvertakingState,
    ) -> frozenset[str]:
        """The overtaking lane's rule events (contract, "Rule events").

        "The overtaker may overtake if they hold cards strictly between X and the card X was
        placed next to ... put all those cards into the row" (overtake; two cards or more:
        multi-card overtake), and "if every player in turn has passed since the last card was
        placed, the row is removed from the game" (all pass).
        """
        if before._phase == "play" and action == PASS:
            if before._passes + 1 == self.players:
                return frozenset({"all pass"})
            return frozenset()
        if before._phase not in ("play", "overtake"):
            return frozenset()
        overtaking = set(after._row) - set(before._row) - {action}
        if len(overtaking) >= 2:
            return frozenset({"overtake", "multi-card overtake"})
        return frozenset({"overtake"}) if overtaking else frozenset()

    def _initial_state(self) -> TrafficarsOvertakingState:
        return TrafficarsOvertakingState(self)
