"""Trafficars, game 2 — the memory game: the reference rules, one method per rule step.

The rules are ``rules/trafficars.md`` ("Game 2 — memory"); the options, the run and end rules, the
action ids, labels, observation and canonical state are fixed by
``docs/games/trafficars_memory.md``. This module is written to be read next to them: each method
quotes the rule it carries out.

A game, as the engine sees it:

1. The layout: one chance node per grid position, position 0 first; the outcome is the card laid
   face down there.
2. Turns, seat 0 ("the youngest") first, then the next seat, and so on: the seat to move flips one
   face-down position after another until the flipped cards may no longer become a run (the last
   card turns back), or no face-down card is left, or the seat stops: once the flipped cards are
   collectable it may stop and take them instead of flipping on. A collectable set is taken;
   otherwise every card turns back.
3. After the layout and after every turn: if the cards on the table contain no collectable set, the
   game is over. It is also over when as many turns in a row as there are pairs among the cards
   laid out took no card and turned up no card that nobody had seen before. Most cards taken wins;
   ties share.

Decisions on points the rules doc leaves open (the simplest reading each time; the contract's
"Decisions" section lists them with every other reading beyond the booklet):

- During the layout no turn has started: ``current`` is null, nothing is face up or seen, and every
  seat has taken 0 cards (which are also the scores).
- The end test after the layout is done as the contract says, although it can never end the game
  there: every car ``min_number..max_number`` lies on the table and two neighbour numbers always
  form a collectable set.

The booklet's only end is "Peli loppuu, kun pöydällä olevista korteista ei enää löydy
naapurilukuja" (the game ends when no neighbours can be found among the cards on the table). Taken
alone it lets the game go on for ever: players who only flip cards everyone has seen, and take
nothing, can repeat the same round again and again (a fixed policy such as "always the first
position" does). The contract's decision: ``N(N - 1)/2`` quiet turns in a row end the game, N the
cards laid out. A seat flipping at random turns up two neighbours still on the table with a chance
of at least one in ``N(N - 1)/2`` per turn, so play that makes any progress does not get that far.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from itertools import pairwise
from typing import Any

from cardtable.errors import InvalidOptionError
from cardtable.observations.trafficars_memory import TrafficarsMemoryObservation
from cardtable.observations.trafficars_memory import TrafficarsMemoryPhase as Phase
from cardtable.reference._base import CHANCE, TERMINAL, ReferenceGame, ReferenceState, register
from cardtable.reference._options import (
    OptionReader,
    bool_option,
    int_option,
)
from cardtable.reference._tensor import TensorBuilder

__all__ = ["TrafficarsMemoryGame", "TrafficarsMemoryObservation", "TrafficarsMemoryState"]

CAR_NUMBERS = range(1, 51)
"""The 50 car cards; a car's card id is its number."""
FIRST_JOKER = 51
"""The id of the first special card; the jokers are the special cards ``51 .. 51 + J - 1``."""
SPECIAL_CARDS = 12
"""The number of special cards in the box (ids 51..62)."""
STOP = 63
"""The flipping seat's action: stop and take the run flipped so far."""
NUM_ACTIONS = 64
"""Action ids 0..63: grid positions 0..61 for flips, card ids 1..62 at the layout, stop 63."""
CARS_TO_COLLECT = 2
"""A set is collectable only with at least two car cards ("only together with two car cards")."""

TENSOR_PHASES: tuple[Phase, ...] = ("layout", "flip", "over")
"""The phases in the order of the tensor's ``phase`` segment."""


def is_joker(card: int) -> bool:
    """Tell whether ``card`` is a joker: every special card used is just a joker."""
    return card >= FIRST_JOKER


def gaps(cars: set[int]) -> int:
    """Count the numbers missing inside the span of the car numbers ``cars`` (not empty).

    "gaps(C) = max(C) - min(C) + 1 - |C|".
    """
    return max(cars) - min(cars) + 1 - len(cars)


def cars_and_jokers(cards: Iterable[int]) -> tuple[set[int], int]:
    """Split ``cards`` into the set C of their car numbers and the number j of their jokers."""
    cars: set[int] = set()
    jokers = 0
    for card in cards:
        if is_joker(card):
            jokers += 1
        else:
            cars.add(card)
    return cars, jokers


def is_collectable(cards: Iterable[int]) -> bool:
    """Tell whether the cards may be taken.

    "K is collectable iff |C| >= 2 and gaps(C) <= j": at least two car cards, and the jokers fill
    the gaps (any further jokers extend the run at either end).
    """
    cars, jokers = cars_and_jokers(cards)
    return len(cars) >= CARS_TO_COLLECT and gaps(cars) <= jokers


def may_continue(cards: Iterable[int]) -> bool:
    """Tell whether the cards flipped this turn may still become a run.

    "K may continue iff |C| <= 1 or gaps(C) <= j": with fewer than two cars anything continues;
    from the second car on, every gap must already be covered by a joker flipped this turn.
    """
    cars, jokers = cars_and_jokers(cards)
    return len(cars) < CARS_TO_COLLECT or gaps(cars) <= jokers


def contains_collectable_set(cards: Iterable[int]) -> bool:
    """Tell whether a collectable set can be found among ``cards`` (the cards on the table).

    "With c_1 < c_2 < ... < c_r its car numbers and t its jokers, some adjacent pair satisfies
    c_{i+1} - c_i - 1 <= t. With r < 2 it contains none."
    """
    cars, jokers = cars_and_jokers(cards)
    numbers = sorted(cars)
    return any(higher - lower - 1 <= jokers for lower, higher in pairwise(numbers))


class TrafficarsMemoryState(ReferenceState):
    """A game of Trafficars memory in progress."""

    def __init__(self, game: TrafficarsMemoryGame) -> None:
        """Set up an empty table: no card laid out yet, nobody has taken anything."""
        super().__init__(game)
        self._players = game.players
        self._deck = game.deck
        n = len(self._deck)
        self._layout: list[int] = []
        self._on_table = [False] * n
        self._seen: list[int | None] = [None] * n
        self._taken = [0] * self._players
        self._flipped: list[int] = []
        self._current: int | None = None
        self._phase: Phase = "layout"
        self._quiet_turns = 0
        """Finished turns in a row that took no card and turned up no card unseen before."""
        self._stall_turns = n * (n - 1) // 2
        """Quiet turns in a row that end the game: the pairs among the N cards laid out."""
        self._new_card_this_turn = False

    # ----- the layout -----
    def _grid_size(self) -> int:
        """Count the positions of the grid: every card of the deck is laid out."""
        return len(self._deck)

    def _cards_not_laid_out(self) -> list[int]:
        """List the deck cards not laid out yet, in increasing order."""
        laid = set(self._layout)
        return [card for card in self._deck if card not in laid]

    def _lay_out(self, card: int) -> None:
        """Lay ``card`` face down at the next position of the grid.

        "The cards lie face down in a grid (positions 0..N-1)", position 0 first. After the last
        card the end test; then "seat 0 (the youngest) starts".
        """
        position = len(self._layout)
        self._layout.append(card)
        self._on_table[position] = True
        if len(self._layout) == self._grid_size():
            self._next_turn_or_end(first_seat=0)

    # ----- a turn -----
    def _face_down_positions(self) -> list[int]:
        """List the positions whose card is on the table and face down (not flipped this turn)."""
        return [
            position
            for position in range(self._grid_size())
            if self._on_table[position] and position not in self._flipped
        ]

    def _flipped_cards(self) -> list[int]:
        """List the cards at the positions flipped this turn, in flip order."""
        return [self._layout[position] for position in self._flipped]

    def _flip(self, position: int) -> None:
        """Flip the card at ``position`` face up for everyone to see (step 2).

        "If K may not continue: position i is removed from flipped (that card turns face down
        again; it stays seen) and the turn ends with the remaining flipped cards. Else if no card
        on the table is face down any more: the turn ends with K. Else the same seat decides
        again": it flips on, or, once K is collectable, may stop (action 63).
        """
        self._flipped.append(position)
        if self._seen[position] is None:
            self._new_card_this_turn = True
        self._seen[position] = self._layout[position]
        if not may_continue(self._flipped_cards()):
            self._turn_back_breaker()
            self._end_turn()
        elif not self._face_down_positions():
            self._end_turn()

    def _may_stop(self) -> bool:
        """Tell whether the seat to move may stop and take what it has flipped.

        "If they are neighbour numbers (differ by 1) the player MAY flip another ('saa kääntää
        kolmannen kortin'): after every flip that keeps the run, the player chooses to flip again
        or to stop and take the run." Stopping is possible once the flipped cards are collectable
        (while some card is still face down: otherwise the turn has already ended).
        """
        return is_collectable(self._flipped_cards()) and bool(self._face_down_positions())

    def _stop(self) -> None:
        """Stop flipping and take the run: the turn ends with the flipped cards."""
        self._end_turn()

    def _turn_back_breaker(self) -> None:
        """Turn the card just flipped face down again.

        "The first card that breaks the run is turned face down again"; it stays where it is, and
        everyone remembers it.
        """
        self._flipped.pop()

    def _end_turn(self) -> None:
        """End the turn with the kept cards K' (step 3), then pass the turn on or end the game.

        "If K' is collectable, the seat takes them; otherwise every card of K' turns face down
        again and stays on the table, nothing is taken." Then the next seat plays, "whatever
        happened in the turn".
        """
        kept = list(self._flipped)
        took = is_collectable(self._layout[position] for position in kept)
        if took:
            self._take(kept)
        self._flipped = []
        quiet = not took and not self._new_card_this_turn
        self._quiet_turns = self._quiet_turns + 1 if quiet else 0
        self._new_card_this_turn = False
        assert self._current is not None
        self._next_turn_or_end(first_seat=(self._current + 1) % self._players)

    def _take(self, positions: list[int]) -> None:
        """Let the seat to move take the cards at ``positions``.

        "The player keeps all other cards flipped this turn": they leave the table, and jokers
        count as cards.
        """
        assert self._current is not None
        for position in positions:
            self._on_table[position] = False
            self._seen[position] = None
        self._taken[self._current] += len(positions)

    # ----- the end -----
    def _cards_on_table(self) -> list[int]:
        """List the cards still on the table."""
        return [card for card, there in zip(self._layout, self._on_table, strict=True) if there]

    def _next_turn_or_end(self, first_seat: int) -> None:
        """Run the end test, then give ``first_seat`` the turn if the game goes on.

        "End: when the face-down cards contain no collectable set." Also (contract, Decision 11)
        when the last ``N(N - 1)/2`` turns were all quiet: they took no card and showed no card
        that had not been seen, so the game has stalled.
        """
        stalled = self._quiet_turns >= self._stall_turns
        if contains_collectable_set(self._cards_on_table()) and not stalled:
            self._current = first_seat
            self._phase = "flip"
        else:
            self._current = None
            self._phase = "over"

    # ----- rule hooks -----
    def _current_player(self) -> int:
        if self._phase == "layout":
            return CHANCE
        if self._phase == "over":
            return TERMINAL
        assert self._current is not None
        return self._current

    def _legal_actions(self) -> list[int]:
        """The layout outcomes, or the face-down positions to flip and, if allowed, stop.

        "Flipping is always a decision, even with one legal position."
        """
        if self._phase == "layout":
            return self._cards_not_laid_out()
        if self._phase == "flip":
            return self._face_down_positions() + ([STOP] if self._may_stop() else [])
        return []

    def _chance_outcomes(self) -> list[tuple[int, int]]:
        if self._phase == "layout":
            return [(card, 1) for card in self._cards_not_laid_out()]
        return []

    def _apply(self, action: int) -> None:
        if self._phase == "layout":
            self._lay_out(action)
        elif self._phase == "flip" and action == STOP:
            self._stop()
        elif self._phase == "flip":
            self._flip(action)

    def _action_label(self, action: int) -> str:
        if self._phase == "layout" and 1 <= action < FIRST_JOKER + SPECIAL_CARDS:
            card = f"joker ({action})" if is_joker(action) else str(action)
            return f"lay {card} at position {len(self._layout)}"
        if self._phase == "flip" and action < self._grid_size():
            return f"flip position {action}"
        if self._phase == "flip" and action == STOP:
            return "stop and take the run"
        return f"action {action}"

    score_wins = "highest"
    """The seats that kept the most cards win: "most cards kept wins; ties share" (also at 0)."""

    def _scores(self) -> list[int]:
        """The score of a seat is the number of cards it has taken."""
        return list(self._taken)

    def _faces(self) -> list[int | None]:
        """Show the card at every position flipped this turn; the others are face down."""
        return [
            self._layout[position] if position in self._flipped else None
            for position in range(self._grid_size())
        ]

    def _observation(self, player: int) -> TrafficarsMemoryObservation:
        """Show ``player`` the table: everything flipped is seen by every player.

        "All players must see the flipped cards so they can remember them and their places":
        ``seen`` is that perfect memory.
        """
        return {
            "seat": player,
            "phase": self._phase,
            "current": self._current,
            "faces": self._faces(),
            "seen": list(self._seen),
            "on_table": list(self._on_table),
            "taken": list(self._taken),
            "flipped": list(self._flipped),
            "idle_turns": self._idle_turns(),
        }

    def _idle_turns(self) -> int:
        """Count the quiet turns in a row, the current one included while it shows nothing new."""
        if self._phase != "flip":
            return self._quiet_turns
        return 0 if self._new_card_this_turn else self._quiet_turns + 1

    tensor_phases = TENSOR_PHASES

    def _encode_tensor(self, t: TensorBuilder, obs: Mapping[str, Any]) -> None:
        """The contract's "Observation tensor" after the seat and the phase."""
        n = self._players
        grid = len(obs["on_table"])
        t.one_hot(obs["current"], n)
        for position in range(grid):
            face = obs["faces"][position]
            card = face if face is not None else obs["seen"][position]
            order = obs["flipped"].index(position) + 1 if position in obs["flipped"] else 0
            t.flag(obs["on_table"][position])
            t.flag(face is not None)
            t.flag(card is not None)
            t.scaled(card or 0, 50)
            t.flag(card is not None and is_joker(card))
            t.scaled(order, grid)
        for taken in obs["taken"]:
            t.scaled(taken, grid)
        t.scaled(obs["idle_turns"], self._stall_turns)

    def _state_dict(self) -> dict[str, object]:
        return {
            "phase": self._phase,
            "current": self._current,
            "seen": list(self._seen),
            "on_table": list(self._on_table),
            "taken": list(self._taken),
            "flipped": list(self._flipped),
            "idle_turns": self._idle_turns(),
            "layout": list(self._layout),
        }


@register("trafficars_memory", players=(2, 5))
class TrafficarsMemoryGame(ReferenceGame[TrafficarsMemoryState]):
    """Trafficars memory for 2 to 5 players with fixed options."""

    option_specs = (
        int_option("min_number", 1, 1, 50, "lowest car number used (1..50, below max_number)"),
        int_option("max_number", 50, 1, 50, "highest car number used (1..50, above min_number)"),
        bool_option("jokers", False, "add special cards as jokers, floor(12 * cars / 50)"),
    )

    def _configure(self, options: OptionReader) -> None:
        """Read the options; "min_number < max_number is required (at least two cars)"."""
        self.min_number = options.int("min_number")
        self.max_number = options.int("max_number")
        self.jokers = options.bool("jokers")
        if not self.min_number < self.max_number:
            raise InvalidOptionError(
                f"{self.game_id}: min_number must be below max_number (at least two cars), "
                f"got min_number={self.min_number}, max_number={self.max_number}"
            )

    @property
    def deck(self) -> list[int]:
        """The cards laid out, in increasing id order.

        "The deck is the cars min_number..=max_number plus the jokers with ids 51 .. 51 + J - 1",
        J = floor(12 * m / 50) with m the number of cars used, if ``jokers`` (else 0).
        """
        cars = list(range(self.min_number, self.max_number + 1))
        joker_count = SPECIAL_CARDS * len(cars) // len(CAR_NUMBERS) if self.jokers else 0
        return cars + list(range(FIRST_JOKER, FIRST_JOKER + joker_count))

    num_actions = NUM_ACTIONS
    """64 for every option setting: positions 0..61, card ids 1..62, stop 63."""

    @property
    def observation_shape(self) -> tuple[int, ...]:
        """``(4 + 3 * players + 6 * N,)``, N the grid size (the contract's "Observation tensor")."""
        return (4 + 3 * self.players + 6 * len(self.deck),)

    @property
    def max_game_length(self) -> int:
        """The bound of a game's steps: the layout, then turns of at most N flips and a stop.

        N is the grid size (the layout's chance outcomes). A turn that makes progress shows a new
        card (at most N of them) or takes a run (at most N / 2). Before the first and after each,
        at most N(N - 1)/2 quiet turns can follow, the last of them ending the game (Decision 11).
        """
        grid = len(self.deck)
        progress = grid + grid // 2
        turns = progress + (progress + 1) * (grid * (grid - 1) // 2)
        return grid + turns * (grid + 1)

    rule_event_names = (
        "run taken",
        "joker completes a run",
        "run broken",
        "stalled game ended",
    )

    def rule_events(
        self, before: TrafficarsMemoryState, action: int, after: TrafficarsMemoryState
    ) -> frozenset[str]:
        """The memory game's rule events (contract, "Rule events").

        "If K' is collectable, the seat takes them" (run taken; with a joker standing for a
        missing number inside the run: joker completes a run), "the first card that breaks the
        run is turned face down again" (run broken: the flipped cards may not continue), and the
        game ended by too many turns without progress although a collectable set is still on the
        table (stalled game ended, Decision 11).
        """
        if before._phase != "flip":
            return frozenset()
        events: set[str] = set()
        if action != STOP and not may_continue([*before._flipped_cards(), before._layout[action]]):
            events.add("run broken")
        taken = [
            card
            for card, was, now in zip(
                before._layout, before._on_table, after._on_table, strict=True
            )
            if was and not now
        ]
        if taken:
            events.add("run taken")
            cars, jokers = cars_and_jokers(taken)
            if jokers and cars and gaps(cars) > 0:
                events.add("joker completes a run")
        if after._phase == "over" and contains_collectable_set(after._cards_on_table()):
            events.add("stalled game ended")
        return frozenset(events)

    def _initial_state(self) -> TrafficarsMemoryState:
        return TrafficarsMemoryState(self)
