"""Trafficars (Ruuhkaara), game 1, the traffic jam: the reference rules, one method per rule step.

The rules are ``rules/trafficars.md`` (game 1); the chance and decision order, the lane model, the
action ids, labels, observation and canonical state are fixed by ``docs/games/trafficars.md``. This
module is written to be read next to them: each method quotes the rule it carries out.

A game, as the engine sees it:

1. The deal: ``lanes`` chance nodes for the lane starters (car cards only), lane 0 first, then
   ``players * hand_size`` chance nodes for the hands, seat 0's cards first.
2. Every turn: one hidden commitment per seat in seat order, the reveal, then the revealed cards
   are resolved one by one (ambulances, police cars, tow trucks, then numbered cards by number,
   ties in seat order). A card whose resolution offers a choice waits for its owner's decision; a
   card with a single option is carried out at once. Right after the last ambulance of the turn
   has been placed, every lane with a new front ambulance is checked for overflow.
3. At the end of a turn every free place left unfilled disappears and its tow truck counts as two
   cars, and the turn's revealed cards stay in view (``last_revealed``) until the next turn ends.
   After ``hand_size`` turns the game is over.

The lane model of the contract: a lane is a list of places, front first; a place is a stack of card
ids (bottom to top) or the free place a tow truck opened this turn, and it has a car count (1, or 2
for a tow truck whose free place stayed unfilled).

Points the rules doc leaves open (the simplest reading each time; the contract's "Decisions"
section lists them with every other reading beyond the booklet):

- "Revealed this turn" (ambulance and police stacking) means: the card id is among this turn's
  revealed cards. Every card id exists once, so this is exact.
- During the deal ``hand`` / ``hands`` hold the cards dealt so far and ``lanes`` the starters dealt
  so far (a lane not yet started is ``[]``), ``phase`` is ``"deal"`` and ``turn`` is 0.
- The cards not dealt are not recorded anywhere, and the penalty cards are only counted: the
  canonical state keeps no list of them.
- ``winners`` (fewest penalty cards, ties share) is reported only at the end, like every game of
  the package; ``scores`` are the running penalty counts at every node.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass
from importlib.resources import files
from typing import Any, Literal

from cardtable.errors import InvalidOptionError
from cardtable.observations.trafficars import TrafficarsDecision as Decision
from cardtable.observations.trafficars import TrafficarsObservation
from cardtable.observations.trafficars import TrafficarsPhase as Phase
from cardtable.reference._base import CHANCE, TERMINAL, ReferenceGame, ReferenceState, register
from cardtable.reference._options import (
    OptionReader,
    bool_option,
    choice_option,
    int_option,
    optional_int_option,
)
from cardtable.reference._tensor import TensorBuilder

__all__ = ["TrafficarsGame", "TrafficarsObservation", "TrafficarsState"]

NUM_ACTIONS = 115
"""Card ids 1..62, ``100 + k`` = lane k, ``110 + k`` = the free place of lane k (k < 5)."""
LANE_ACTION = 100
"""``LANE_ACTION + k`` chooses lane k (its end, for a numbered card)."""
FREE_PLACE_ACTION = 110
"""``FREE_PLACE_ACTION + k`` chooses the free place of lane k (numbered cards only)."""

Kind = Literal["car", "trailer", "ambulance", "police", "tow_truck"]
"""The kinds of cards in the deck table."""
TENSOR_PHASES: tuple[Phase, ...] = ("deal", "commit", "resolve", "over")
"""The phases in the order of the tensor's ``phase`` segment."""
TENSOR_DECISIONS: tuple[Decision, ...] = (
    "commit",
    "ambulance",
    "police",
    "police_take",
    "tow_truck",
    "target",
    "take",
    "insert",
)
"""The decision kinds in the order of the tensor's ``decision`` segment."""
CARD_IDS = 62
"""Card ids are 1..62 (entry ``id - 1`` of the tensor's card-indexed segments)."""
Value = int | None
"""The value of a stack or target: its number, or ``None`` for an open one (any number follows)."""


@dataclass(frozen=True)
class Card:
    """One card of the deck table ``data/trafficars_cards.json``.

    Attributes:
        id: The card id 1..62.
        kind: ``"car"``, ``"trailer"``, ``"ambulance"``, ``"police"`` or ``"tow_truck"``.
        number: The printed number of a car or trailer; ``None`` for the other specials.
    """

    id: int
    kind: Kind
    number: int | None


def _load_cards() -> dict[int, Card]:
    """Read the deck table: 50 cars, 3 trailers, 3 ambulances, 3 police cars, 3 tow trucks."""
    text = (files("cardtable") / "data" / "trafficars_cards.json").read_text(encoding="utf-8")
    return {
        entry["id"]: Card(entry["id"], entry["kind"], entry["number"]) for entry in json.loads(text)
    }


CARDS = _load_cards()
"""Every card by id."""

RESOLUTION_CLASS: dict[Kind, int] = {
    "ambulance": 0,
    "police": 1,
    "tow_truck": 2,
    "car": 3,
    "trailer": 3,
}
"""'Cards are resolved in this order: ambulances, police cars, tow trucks, then numbered cards.'"""


def card_name(card: int) -> str:
    """How an action label names a card.

    A car by its number (``23``), any other card by its kind with its id in brackets
    (``trailer 10 (51)``, ``ambulance (54)``, ``police (57)``, ``tow truck (60)``).
    """
    info = CARDS[card]
    if info.kind == "car":
        return str(card)
    if info.kind == "trailer":
        return f"trailer {info.number} ({card})"
    return f"{info.kind.replace('_', ' ')} ({card})"


def number_of(card: int) -> int:
    """The number of a car or trailer."""
    number = CARDS[card].number
    assert number is not None, f"card {card} has no number"
    return number


@dataclass
class Place:
    """One place of a lane.

    Attributes:
        cards: The stack of card ids, bottom to top, or ``None`` for the free place a tow truck
            opened this turn.
        cars: How many cars the place counts for: 1, or 2 for a tow truck whose free place stayed
            unfilled ("the tow truck counts as 2 cars from then on"). A free place counts 1.
    """

    cards: list[int] | None
    cars: int = 1

    @property
    def is_free(self) -> bool:
        """Whether this is a free place (no cards)."""
        return self.cards is None

    def stack(self) -> list[int]:
        """The cards of a place that is a stack."""
        assert self.cards is not None, "a free place has no cards"
        return self.cards

    def value(self) -> Value:
        """The value of a stack: its top card's number, or open.

        "A lane whose last place shows an ambulance or a police car is open: any numbered card may
        follow it." A trailer on top cancels this ("a trailer placed on a special card cancels
        that card's effect"): the value is then the trailer's number. The top card is never a tow
        truck, which always carries something.
        """
        top = CARDS[self.stack()[-1]]
        if top.kind in ("ambulance", "police"):
            return None
        assert top.number is not None, "a tow truck is never the top card"
        return top.number


Lane = list[Place]
"""A lane: its places, front (index 0) to end."""


def cars_in(lane: Lane) -> int:
    """Count the cars in a lane: "the number of places", each counting its car count."""
    return sum(place.cars for place in lane)


def cards_in(lane: Lane) -> list[int]:
    """Every card id in a lane, front to end (a free place holds none)."""
    return [card for place in lane if place.cards is not None for card in place.cards]


def accepts(value: Value, number: int) -> bool:
    """The increasing rule: "X may follow only an end number smaller than X (or an open lane)"."""
    return value is None or value < number


class TrafficarsState(ReferenceState):
    """A game of Trafficars (the traffic jam) in progress."""

    def __init__(self, game: TrafficarsGame) -> None:
        """Set up the table before the deal: no lane started, no card dealt."""
        super().__init__(game)
        self._players = game.players
        self._deck = game.deck()
        self._max_number = game.max_number
        self._hand_size = game.hand_size
        self._num_lanes = game.lanes
        self._max_cars = game.max_cars
        self._too_low = game.too_low
        n = self._players
        self._dealt: list[int] = []
        self._lanes: list[Lane] = [[] for _ in range(self._num_lanes)]
        self._hands: list[list[int]] = [[] for _ in range(n)]
        self._penalties = [0] * n
        self._commitments: list[int | None] = [None] * n
        self._revealed: list[int] | None = None
        self._last_revealed: list[int] | None = None
        self._queue: list[int] = []
        self._turn = 0

    # ----- where are we -----
    def _deal_size(self) -> int:
        """Count the cards the deal hands out: one starter per lane and every hand."""
        return self._num_lanes + self._players * self._hand_size

    def _phase(self) -> Phase:
        """Tell what the game waits for: a deal, a commitment, a resolution decision, nothing."""
        if len(self._dealt) < self._deal_size():
            return "deal"
        if self._turn == self._hand_size:
            return "over"
        if self._queue:
            return "resolve"
        return "commit"

    def _next_to_commit(self) -> int:
        """Find the committing seat: "the lowest seat without a commitment"."""
        for seat, commitment in enumerate(self._commitments):
            if commitment is None:
                return seat
        raise AssertionError("unreachable: the reveal follows the last commitment at once")

    def _resolving_card(self) -> int:
        """The revealed card of seat ``queue[0]``, the card being resolved."""
        assert self._revealed is not None
        return self._revealed[self._queue[0]]

    def _revealed_this_turn(self, card: int) -> bool:
        """Tell whether ``card`` was revealed this turn."""
        return self._revealed is not None and card in self._revealed

    # ----- the deal -----
    def _deal(self, card: int) -> None:
        """Deal one card.

        "Place one starting car in each lane (3 lanes); deal 10 cards to each player": lane 0's
        starter first, then the other lanes', then seat 0's hand, seat 1's, ...
        """
        position = len(self._dealt)
        self._dealt.append(card)
        if position < self._num_lanes:
            self._lanes[position] = [Place([card])]
            return
        seat = (position - self._num_lanes) // self._hand_size
        self._hands[seat].append(card)
        self._hands[seat].sort()

    def _deal_outcomes(self) -> list[int]:
        """The cards the next deal chance node can give.

        "Lane starters are car cards only (the booklet forbids trailers; numberless specials cannot
        start a lane either)"; a hand card may be any card still in the deck.
        """
        left = [card for card in self._deck if card not in self._dealt]
        if len(self._dealt) < self._num_lanes:
            return [card for card in left if CARDS[card].kind == "car"]
        return left

    # ----- a turn: commit and reveal -----
    def _commit(self, seat: int, card: int) -> None:
        """Commit ``seat``'s card for this turn.

        "Every player chooses a card secretly; all reveal": the committed card leaves the hand at
        once and stays hidden; the reveal follows the last commitment.
        """
        self._hands[seat].remove(card)
        self._commitments[seat] = card
        if all(commitment is not None for commitment in self._commitments):
            self._reveal()

    @staticmethod
    def _resolution_key(seat: int, card: int) -> tuple[int, int, int]:
        """The resolution order of a revealed card.

        "Cards are resolved in this order: ambulances, police cars, tow trucks, then numbered
        cards (cars and trailers) in increasing number. Equal cards (same special type, or a
        trailer and a car with the same number) go in seat order from seat 0."
        """
        number = CARDS[card].number
        return (RESOLUTION_CLASS[CARDS[card].kind], 0 if number is None else number, seat)

    def _reveal(self) -> None:
        """Reveal every commitment and queue the cards in resolution order; then resolve."""
        revealed = [card for card in self._commitments if card is not None]
        self._revealed = revealed
        self._commitments = [None] * self._players
        self._queue = sorted(
            range(self._players), key=lambda seat: self._resolution_key(seat, revealed[seat])
        )
        self._resolve_forced_cards()

    def _resolve_forced_cards(self) -> None:
        """Resolve the queued cards that leave no choice; stop at a real decision.

        "The owner of the card being resolved decides when there is a choice": a card with
        exactly one option is carried out at once. When the queue is empty the turn ends.
        """
        while self._queue:
            _, options = self._resolution_options()
            if len(options) > 1:
                return
            self._resolve(options[0])
        self._end_turn()

    def _end_turn(self) -> None:
        """End the turn.

        "If no card fills it by the end of the turn, the free place disappears and the tow truck
        counts as 2 cars from then on." The turn's cards stay in view as ``last_revealed`` until
        the next turn ends (contract, Decision 20): "Valitut kortit käännetään auki
        samanaikaisesti" (the chosen cards are turned face up simultaneously), and a turn whose
        cards leave no choice ends within the ``apply`` of its last commitment, so only this keeps
        every played card in front of every seat at its next decision. Then the next turn starts;
        "End: after 10 turns".
        """
        for lane in self._lanes:
            for index, place in enumerate(lane):
                if place.is_free:
                    lane[index + 1].cars = 2
                    del lane[index]
                    break
        self._last_revealed = self._revealed
        self._revealed = None
        self._turn += 1

    # ----- resolving one card -----
    def _resolution_options(self) -> tuple[Decision, list[int]]:
        """The decision kind and the options (increasing) of the card being resolved."""
        card = self._resolving_card()
        kind = CARDS[card].kind
        every_lane = [LANE_ACTION + k for k in range(self._num_lanes)]
        if kind == "ambulance":
            return "ambulance", every_lane
        if kind == "police":
            legal = self._police_lanes()
            if legal:
                return "police", [LANE_ACTION + k for k in legal]
            return "police_take", every_lane
        if kind == "tow_truck":
            return "tow_truck", every_lane
        number = number_of(card)
        free_places = self._free_places_accepting(number)
        ends = self._legal_lane_ends(number)
        if ends:
            return "target", sorted(ends + free_places)
        too_low: Decision = "take" if self._too_low == "take" else "insert"
        return too_low, sorted(every_lane + free_places)

    def _resolve(self, option: int) -> None:
        """Carry out ``option`` for the card being resolved, then take it off the queue."""
        owner = self._queue[0]
        card = self._resolving_card()
        decision, _ = self._resolution_options()
        if option >= FREE_PLACE_ACTION:
            self._fill_free_place(card, self._lanes[option - FREE_PLACE_ACTION])
        elif decision == "ambulance":
            self._play_ambulance(card, self._lanes[option - LANE_ACTION])
        elif decision == "police":
            self._play_police(card, self._lanes[option - LANE_ACTION])
        elif decision == "police_take":
            self._take_lane(owner, option - LANE_ACTION, card)
        elif decision == "tow_truck":
            self._play_tow_truck(owner, card, self._lanes[option - LANE_ACTION])
        elif decision == "target":
            self._place_numbered(owner, card, option)
        elif decision == "take":
            self._take_lane(owner, option - LANE_ACTION, card)
        else:
            self._insert_too_low(card, self._lanes[option - LANE_ACTION])
        self._queue.pop(0)
        if decision == "ambulance" and not self._ambulance_next():
            self._check_ambulance_overflow()

    def _ambulance_next(self) -> bool:
        """Tell whether the next card to resolve is an ambulance too."""
        assert self._revealed is not None
        return bool(self._queue) and CARDS[self._resolving_card()].kind == "ambulance"

    def _take_as_penalty(self, seat: int, cards: list[int]) -> None:
        """Count the cards ``seat`` takes as penalty (every card id in them)."""
        self._penalties[seat] += len(cards)

    def _take_lane(self, seat: int, lane_index: int, card: int) -> None:
        """Take a whole lane as penalty; ``card`` starts the lane anew.

        Rule 4 (too low, ``too_low="take"``): "the player chooses a lane, takes all its cards as
        penalty, and X starts that lane anew" (a trailer starts it like a car). Police car with
        every lane full: "the player chooses a lane, takes it as penalty, and the police car starts
        it".
        """
        self._take_as_penalty(seat, cards_in(self._lanes[lane_index]))
        self._lanes[lane_index] = [Place([card])]

    def _new_front_ambulance(self, lane: Lane) -> bool:
        """Tell whether the lane's front place is an ambulance (stack) revealed this turn."""
        bottom = lane[0].stack()[0]
        return CARDS[bottom].kind == "ambulance" and self._revealed_this_turn(bottom)

    def _play_ambulance(self, ambulance: int, lane: Lane) -> None:
        """Play an ambulance into ``lane``; the overflow check comes after the last ambulance.

        "The ambulance goes to the FRONT of that lane and the other places move one step back. A
        second ambulance played the same turn into a lane whose front place is an ambulance played
        this turn is stacked on it (no new place)."
        """
        if self._new_front_ambulance(lane):
            lane[0].stack().append(ambulance)
        else:
            lane.insert(0, Place([ambulance]))

    def _owner_of(self, card: int) -> int:
        """The seat that revealed ``card`` this turn."""
        assert self._revealed is not None
        return self._revealed.index(card)

    def _check_ambulance_overflow(self) -> None:
        """Check every lane with a new front ambulance, once all ambulances have been placed.

        "Only after all ambulances of the turn are placed is each lane with a new front ambulance
        checked: if it has more than 4 cars, the player of the TOPMOST ambulance of that front
        place (the last one stacked) takes all other cards of the lane as penalty, and the
        ambulance place stays alone as the lane's first place" ("päällimmäisenä olevan
        ambulanssikortin pelannut pelaaja joutuu ottamaan jonon muut kortit sakkona").
        """
        if self._max_cars is None:
            return
        for lane in self._lanes:
            if self._new_front_ambulance(lane) and cars_in(lane) > self._max_cars:
                topmost = lane[0].stack()[-1]
                self._take_as_penalty(self._owner_of(topmost), cards_in(lane[1:]))
                del lane[1:]

    def _police_stack(self, lane: Lane) -> bool:
        """Tell whether the lane's last place is a police car revealed this turn (to stack on)."""
        bottom = lane[-1].stack()[0]
        return CARDS[bottom].kind == "police" and self._revealed_this_turn(bottom)

    def _police_lanes(self) -> list[int]:
        """The lanes a police car may go to.

        "The player chooses a lane with fewer than 4 cars"; a police car played this turn at the
        end of a lane takes the second one on top, even in a full lane (no car is added).
        """
        return [
            k
            for k, lane in enumerate(self._lanes)
            if self._police_stack(lane) or self._max_cars is None or cars_in(lane) < self._max_cars
        ]

    def _play_police(self, police: int, lane: Lane) -> None:
        """Play a police car into ``lane``.

        "Puts the police car at its END; the lane is then open. A second police car into the same
        lane the same turn is stacked on the first."
        """
        if self._police_stack(lane):
            lane[-1].stack().append(police)
        else:
            lane.append(Place([police]))

    def _play_tow_truck(self, seat: int, tow_truck: int, lane: Lane) -> None:
        """Play a tow truck into ``lane``.

        "The player puts the tow truck at its end; the tow truck lifts the lane's last place (the
        whole stack) onto itself, and a free place opens just before the tow truck for the rest of
        this turn." A free place an earlier tow truck opened this turn goes with the lifted tow
        truck (the lane keeps one free place, before the newest tow truck). "If the tow truck is
        the 5th car (the lane had 4), the player first lifts the last place, then takes the lane's
        first three places as penalty; the tow truck with its load stays as the lane's first
        place and NO free place opens; it counts as 1 car" ("Hinausauto ja sen päällä oleva kortti
        jätetään uuden jonon ensimmäiseksi kortiksi").
        """
        before = cars_in(lane)
        load = lane.pop().stack()
        if lane and lane[-1].is_free:
            lane.pop()
        if self._max_cars is not None and before >= self._max_cars:
            self._take_as_penalty(seat, cards_in(lane))
            lane.clear()
        else:
            lane.append(Place(None))
        lane.append(Place([tow_truck, *load]))

    # ----- numbered cards -----
    def _legal_lane_ends(self, number: int) -> list[int]:
        """The lane ends a numbered card X may go to under rules 1 and 2, in lane order.

        Rule 1, increasing: "X may follow only an end number smaller than X (or an open lane)".
        Rule 2, smallest difference: "among the lanes whose end number is smaller than X, X must go
        to the lane whose end number is closest below X. Open lanes are an alternative: the player
        may put X into any open lane instead." Equal closest values give the owner a choice. Only
        the lane ends compete here: the free place is no target of rule 2.
        """
        ends = [(LANE_ACTION + k, lane[-1].value()) for k, lane in enumerate(self._lanes)]
        accepting = [(action, value) for action, value in ends if accepts(value, number)]
        closest = max((value for _, value in accepting if value is not None), default=None)
        return [action for action, value in accepting if value is None or value == closest]

    def _free_places_accepting(self, number: int) -> list[int]:
        """The free places a numbered card X may fill instead, in lane order.

        "The first numbered card of this turn, in resolution order, that is larger than the number
        before the free place (a free place at the front of a lane accepts any number) MAY be put
        there instead of where rules 1-4 would send it; it is the owner's choice, and rule 2 does
        not apply to the free place" ("Ensimmäisenä ehtivä saa asettaa korttinsa hinattavan auton
        vapauttamalle paikalle noudattaen Pienimmästä isoimpaan -sääntöä"). A card whose owner
        leaves the free place empty leaves it to the next card of the turn.
        """
        return [
            FREE_PLACE_ACTION + k
            for k, lane in enumerate(self._lanes)
            for index, place in enumerate(lane)
            if place.is_free and (index == 0 or accepts(lane[index - 1].value(), number))
        ]

    def _place_numbered(self, seat: int, card: int, target: int) -> None:
        """Put a numbered card at the end of its chosen lane (rules 1-3 and 5)."""
        if CARDS[card].kind == "trailer":
            self._attach_trailer(card, self._lanes[target - LANE_ACTION])
        else:
            self._append_car(seat, card, target - LANE_ACTION)

    def _fill_free_place(self, card: int, lane: Lane) -> None:
        """Fill a free place: "A filled place is a normal place" (counting one car)."""
        for place in lane:
            if place.is_free:
                place.cards = [card]
                return
        raise AssertionError("unreachable: the target was a free place")

    def _attach_trailer(self, trailer: int, lane: Lane) -> None:
        """Attach a trailer to the end of a lane (rule 5).

        The trailer "is stacked on the last place of the target lane and never makes a lane full.
        Its number becomes the lane's end number."
        """
        lane[-1].stack().append(trailer)

    def _append_car(self, seat: int, car: int, lane_index: int) -> None:
        """Put a car at the end of a lane.

        Rule 3, lane full: "if X (a car) goes to a lane that already has 4 cars, the player takes
        all cards of that lane as penalty and X starts the lane anew."
        """
        lane = self._lanes[lane_index]
        if self._max_cars is not None and cars_in(lane) >= self._max_cars:
            self._take_lane(seat, lane_index, car)
        else:
            lane.append(Place([car]))

    def _insert_too_low(self, card: int, lane: Lane) -> None:
        """Insert a too-low card (``too_low="insert"``) at its place in increasing order.

        "A card too low for every lane is inserted into a lane of the player's choice at its
        place in increasing order (no penalty)": in front of the first stack, from the front,
        whose value is a number ≥ X (free places and open stacks are skipped). A free place stays
        with the tow truck that opened it: if that stack is a tow truck with its free place just
        before it, X goes in front of the free place.
        """
        number = number_of(card)
        for index, place in enumerate(lane):
            if place.is_free:
                continue
            value = place.value()
            if value is not None and value >= number:
                at = index - 1 if index > 0 and lane[index - 1].is_free else index
                lane.insert(at, Place([card]))
                return
        raise AssertionError("unreachable: the lane's end rejected the card")

    # ----- rule hooks -----
    def _current_player(self) -> int:
        phase = self._phase()
        if phase == "deal":
            return CHANCE
        if phase == "over":
            return TERMINAL
        if phase == "resolve":
            return self._queue[0]
        return self._next_to_commit()

    def _legal_actions(self) -> list[int]:
        phase = self._phase()
        if phase == "deal":
            return self._deal_outcomes()
        if phase == "commit":
            return list(self._hands[self._next_to_commit()])
        if phase == "resolve":
            return self._resolution_options()[1]
        return []

    def _chance_outcomes(self) -> list[tuple[int, int]]:
        if self._phase() != "deal":
            return []
        return [(card, 1) for card in self._deal_outcomes()]

    def _apply(self, action: int) -> None:
        phase = self._phase()
        if phase == "deal":
            self._deal(action)
        elif phase == "commit":
            self._commit(self._next_to_commit(), action)
        elif phase == "resolve":
            self._resolve(action)
            self._resolve_forced_cards()

    def _decision(self) -> Decision | None:
        """The kind of the pending decision; None at chance nodes and at the end."""
        phase = self._phase()
        if phase == "commit":
            return "commit"
        if phase == "resolve":
            return self._resolution_options()[0]
        return None

    def _action_label(self, action: int) -> str:
        phase = self._phase()
        is_card = 1 <= action <= len(CARDS)
        if phase == "deal" and is_card:
            position = len(self._dealt)
            if position < self._num_lanes:
                return f"lane {position} starts with {card_name(action)}"
            seat = (position - self._num_lanes) // self._hand_size
            return f"deal {card_name(action)} to seat {seat}"
        if phase == "commit" and is_card:
            return f"play {card_name(action)}"
        if phase == "resolve":
            return self._resolution_label(action)
        return f"action {action}"

    def _resolution_label(self, action: int) -> str:
        """The label of any action id at a resolution decision."""
        decision = self._resolution_options()[0]
        lane = action - LANE_ACTION
        if 0 <= lane < self._num_lanes:
            text = {
                "ambulance": "ambulance to lane",
                "police": "police to lane",
                "police_take": "take lane",
                "tow_truck": "tow truck to lane",
                "target": "to lane",
                "take": "take lane",
                "insert": "insert into lane",
            }[decision]
            return f"{text} {lane}"
        free_lane = action - FREE_PLACE_ACTION
        if decision in ("target", "take", "insert") and 0 <= free_lane < self._num_lanes:
            return f"fill the free place in lane {free_lane}"
        return f"action {action}"

    score_wins = "lowest"
    """The seats with the fewest penalty cards win: "fewest wins, ties share"."""

    def _scores(self) -> list[int]:
        """Score = "number of penalty cards taken (lower is better)"."""
        return list(self._penalties)

    def _lanes_view(self) -> list[list[list[int] | None]]:
        """Per lane, its places: card ids bottom to top, or None for a free place."""
        return [
            [None if place.cards is None else list(place.cards) for place in lane]
            for lane in self._lanes
        ]

    def _observation(self, player: int) -> TrafficarsObservation:
        """Show ``player`` its own hand and pending commitment, and everything public.

        Public: the lanes, the penalty counts, who has committed, the revealed cards, the cards
        revealed in the last turn that has ended (contract, Decision 20) and the resolution queue.
        Other hands and other pending commitments stay hidden.
        """
        resolving = self._phase() == "resolve"
        return {
            "seat": player,
            "phase": self._phase(),
            "decision": self._decision(),
            "turn": self._turn,
            "hand": list(self._hands[player]),
            "lanes": self._lanes_view(),
            "place_cars": [[place.cars for place in lane] for lane in self._lanes],
            "cars": [cars_in(lane) for lane in self._lanes],
            "penalties": list(self._penalties),
            "committed": [card is not None for card in self._commitments],
            "own_commitment": self._commitments[player],
            "revealed": None if self._revealed is None else list(self._revealed),
            "last_revealed": None if self._last_revealed is None else list(self._last_revealed),
            "resolving": self._resolving_card() if resolving else None,
            "queue": list(self._queue),
        }

    tensor_phases = TENSOR_PHASES

    def _encode_tensor(self, t: TensorBuilder, obs: Mapping[str, Any]) -> None:
        """The contract's "Observation tensor" after the seat and the phase."""
        n = self._players
        lanes = len(obs["lanes"])
        decision = obs["decision"]
        t.one_hot(None if decision is None else TENSOR_DECISIONS.index(decision), 8)
        t.scaled(obs["turn"], self._hand_size)
        t.multi_hot((card - 1 for card in obs["hand"]), CARD_IDS)
        block = lanes + 3
        lane_cards = [0.0] * (CARD_IDS * block)
        for k, (places, counts) in enumerate(zip(obs["lanes"], obs["place_cars"], strict=True)):
            for j, (stack, count) in enumerate(zip(places, counts, strict=True)):
                for h, card in enumerate(stack or []):
                    base = (card - 1) * block
                    lane_cards[base + k] = 1.0
                    lane_cards[base + lanes] = (j + 1) / 8
                    lane_cards[base + lanes + 1] = (h + 1) / 4
                    lane_cards[base + lanes + 2] = 1.0 if count == 2 else 0.0
        t.extend(lane_cards)
        for places in obs["lanes"]:
            free = [j for j, stack in enumerate(places) if stack is None]
            t.scaled(free[0] + 1 if free else 0, 8)
        for cars in obs["cars"]:
            t.scaled(cars, 8)
        for penalties in obs["penalties"]:
            t.scaled(penalties, 20)
        for committed in obs["committed"]:
            t.flag(committed)
        own = obs["own_commitment"]
        t.one_hot(None if own is None else own - 1, CARD_IDS)
        revealed = obs["revealed"]
        for seat in range(n):
            t.one_hot(None if revealed is None else revealed[seat] - 1, CARD_IDS)
        last_revealed = obs["last_revealed"]
        for seat in range(n):
            t.one_hot(None if last_revealed is None else last_revealed[seat] - 1, CARD_IDS)
        resolving = obs["resolving"]
        t.one_hot(None if resolving is None else resolving - 1, CARD_IDS)
        queue = [0.0] * n
        for k, seat in enumerate(obs["queue"]):
            queue[seat] = (k + 1) / n
        t.extend(queue)

    def _state_dict(self) -> dict[str, object]:
        return {
            "phase": self._phase(),
            "turn": self._turn,
            "lanes": self._lanes_view(),
            "place_cars": [[place.cars for place in lane] for lane in self._lanes],
            "penalties": list(self._penalties),
            "revealed": None if self._revealed is None else list(self._revealed),
            "last_revealed": None if self._last_revealed is None else list(self._last_revealed),
            "queue": list(self._queue),
            "hands": [list(hand) for hand in self._hands],
            "commitments": list(self._commitments),
        }


RULE_EVENTS = (
    "lane taken by the 5th car",
    "too-low card takes a lane",
    "too-low card inserted",
    "trailer on a full lane",
    "stacked ambulances",
    "ambulance as 5th car",
    "stacked police cars",
    "police with every lane full",
    "tow truck as 5th car",
    "free place filled",
    "free place left unfilled",
)
"""The rule events of the traffic jam, as the contract lists them."""


def step_events(before: TrafficarsState, action: int) -> frozenset[str]:
    """The rule events of the step from ``before`` by ``action`` (contract, "Rule events").

    A step resolves the card it decides and every following card that leaves no choice, and the
    turn's last commitment reveals the cards first; so the step is followed again here, card by
    card, on a copy of ``before``, and each card's events are read from the lanes just before it.
    """
    phase = before._phase()
    if phase == "commit" and before._next_to_commit() != before._players - 1:
        return frozenset()
    if phase not in ("commit", "resolve"):
        return frozenset()
    # A copy of what resolving cards changes: the lanes, penalties, reveal and queue.
    state: TrafficarsState = object.__new__(TrafficarsState)
    state.__dict__.update(before.__dict__)
    state._lanes = [
        [Place(None if place.cards is None else list(place.cards), place.cars) for place in lane]
        for lane in before._lanes
    ]
    state._penalties = list(before._penalties)
    state._commitments = list(before._commitments)
    state._revealed = None if before._revealed is None else list(before._revealed)
    state._queue = list(before._queue)
    chosen: int | None = action
    if phase == "commit":
        # "Every player chooses a card secretly; all reveal": the turn's cards in resolution order.
        revealed = [card for card in state._commitments if card is not None] + [action]
        state._revealed = revealed
        state._commitments = [None] * state._players
        state._queue = sorted(
            range(state._players), key=lambda seat: state._resolution_key(seat, revealed[seat])
        )
        chosen = None
    events: set[str] = set()
    while state._queue:
        options = state._resolution_options()[1]
        if chosen is not None:
            option, chosen = chosen, None
        elif len(options) == 1:
            option = options[0]
        else:
            return frozenset(events)  # the owner of this card decides: the step ends here
        card = state._resolving_card()
        events |= card_events(state, card, option)
        taken = sum(state._penalties)
        state._resolve(option)
        if CARDS[card].kind == "ambulance" and sum(state._penalties) > taken:
            # An ambulance takes nothing when it is placed; the check after the turn's last one
            # does: "if it has more than 4 cars, the player of the TOPMOST ambulance ... takes all
            # other cards of the lane as penalty".
            events.add("ambulance as 5th car")
    # "If no card fills it by the end of the turn, the free place disappears and the tow truck
    # counts as 2 cars from then on."
    if any(place.is_free for lane in state._lanes for place in lane):
        events.add("free place left unfilled")
    return frozenset(events)


def card_events(state: TrafficarsState, card: int, option: int) -> set[str]:
    """The events of the card being resolved in ``state`` by ``option`` (before it is carried out).

    Rule 3, "if X (a car) goes to a lane that already has 4 cars, the player takes all cards of
    that lane" (lane taken by the 5th car); rule 4, "if X fits no lane" (too-low card, taking a
    lane or, with ``too_low="insert"``, inserted); rule 5, a trailer "never makes a lane full"
    (trailer on a full lane); "a second ambulance played the same turn into a lane whose front
    place is an ambulance played this turn is stacked on it" (stacked ambulances); "a second police
    car into the same lane the same turn is stacked on the first" (stacked police cars); "if every
    lane has 4 cars, the player chooses a lane, takes it as penalty" (police with every lane
    full); "if the tow truck is the 5th car (the lane had 4)" (tow truck as 5th car); the first
    numbered card "MAY be put there" (free place filled).
    """
    if option >= FREE_PLACE_ACTION:
        return {"free place filled"}
    lanes = state._lanes
    lane = lanes[option - LANE_ACTION]
    limit = state._max_cars

    def full(lane: Lane) -> bool:
        return limit is not None and cars_in(lane) >= limit

    def this_turn(place: Place, kind: Kind) -> bool:
        """Whether the place's bottom card is a ``kind`` revealed this turn."""
        return (
            place.cards is not None
            and CARDS[place.cards[0]].kind == kind
            and state._revealed_this_turn(place.cards[0])
        )

    kind = CARDS[card].kind
    if kind in ("car", "trailer"):
        number = number_of(card)
        if not any(accepts(other[-1].value(), number) for other in lanes):
            inserted = state._too_low == "insert"
            return {"too-low card inserted" if inserted else "too-low card takes a lane"}
        if full(lane):
            return {"lane taken by the 5th car" if kind == "car" else "trailer on a full lane"}
        return set()
    if kind == "ambulance":
        return {"stacked ambulances"} if this_turn(lane[0], "ambulance") else set()
    if kind == "police":
        if this_turn(lane[-1], "police"):
            return {"stacked police cars"}
        if all(full(other) and not this_turn(other[-1], "police") for other in lanes):
            return {"police with every lane full"}
        return set()
    return {"tow truck as 5th car"} if full(lane) else set()


@register("trafficars", players=(2, 5))
class TrafficarsGame(ReferenceGame[TrafficarsState]):
    """Trafficars, the traffic jam, for 2 to 5 players with fixed options."""

    option_specs = (
        int_option("max_number", 50, 5, 50, "car cards 1..max_number are used (5..50)"),
        int_option("hand_size", 10, 1, 30, "cards dealt to each seat = number of turns (1..30)"),
        int_option("lanes", 3, 1, 5, "number of lanes (1..5)"),
        bool_option("special_cards", True, "use the trailers and the other special cards"),
        optional_int_option(
            "max_cars",
            4,
            1,
            50,
            "cars a lane may hold before the next car takes it (1..50); None = no limit",
        ),
        choice_option(
            "too_low",
            "take",
            ("take", "insert"),
            "a card that fits no lane takes a lane ('take') or is inserted in order ('insert')",
        ),
    )

    def _configure(self, options: OptionReader) -> None:
        self.max_number = options.int("max_number")
        self.hand_size = options.int("hand_size")
        self.lanes = options.int("lanes")
        self.special_cards = options.bool("special_cards")
        self.max_cars = options.optional_int("max_cars")
        self.too_low = options.choice("too_low")
        needed = self.lanes + self.players * self.hand_size
        if len(self.deck()) < needed:
            raise InvalidOptionError(
                f"{self.game_id}: the deck has {len(self.deck())} cards, fewer than "
                f"lanes + players · hand_size = {needed}"
            )

    def deck(self) -> list[int]:
        """The card ids in play, increasing.

        "Use only car cards 1..max_number"; with ``special_cards`` also every trailer whose number
        is at most ``max_number`` and the nine numberless specials.
        """
        deck = [card.id for card in CARDS.values() if card.kind == "car"]
        deck = [card for card in deck if number_of(card) <= self.max_number]
        if self.special_cards:
            deck += [
                card.id
                for card in CARDS.values()
                if card.kind != "car" and (card.number is None or card.number <= self.max_number)
            ]
        return sorted(deck)

    num_actions = NUM_ACTIONS
    """115: card ids 1..62 and the lane / free-place choices 100..114."""

    @property
    def observation_shape(self) -> tuple[int, ...]:
        """``(385 + 64 * lanes + 128 * players,)``: see the contract's "Observation tensor"."""
        return (385 + 64 * self.lanes + 128 * self.players,)

    @property
    def max_game_length(self) -> int:
        """The bound of a game's steps: the deal, then per turn two steps at most per seat.

        The deal is a card per lane and a hand per seat; a turn is a commitment per seat and at
        most one resolution decision per seat.
        """
        dealt = self.players * self.hand_size
        return self.lanes + dealt + 2 * dealt

    rule_event_names = RULE_EVENTS

    def rule_events(
        self, before: TrafficarsState, action: int, after: TrafficarsState
    ) -> frozenset[str]:
        """See :func:`step_events`."""
        return step_events(before, action)

    def _initial_state(self) -> TrafficarsState:
        return TrafficarsState(self)
