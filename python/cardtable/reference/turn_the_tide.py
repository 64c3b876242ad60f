"""Turn the Tide (Land unter) by Stefan Dorra: the reference rules, one method per rule step.

The rules are ``rules/turn_the_tide.md``; the action ids, labels, observation and canonical state
are fixed by ``docs/games/turn_the_tide.md``. This module is written to be read next to them: each
method quotes the rule it carries out.

A game, as the engine sees it:

1. The deal: ``12 * players`` chance nodes, seat 0's twelve weather cards first, then seat 1's, ...
2. Every round starts with each seat's hand (rotated one seat to the left per round), its
   lifebuoys counted from the cards, a full tide deck and no tide cards in front of anyone.
3. Every hand: two tide draws (chance: "tide A", then "tide B"), one hidden commitment per seat
   still in the round in seat order, the reveal, the tide cards handed out (optionally chosen by
   the highest card), then the lifebuoy losses, eliminations and the round-end check.
4. After the last round the game is over and everything stays as at the end of that round.

Readings decided beyond the rulebook (the re-check after a tie, the lowest-tide bonus for seats
without a tide card, when commitments are cleared, the deal and the end state) are listed once,
with the original sentences, in the contract's "Decisions" section
(``docs/games/turn_the_tide.md``); this module follows them.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from cardtable.observations.turn_the_tide import TurnTheTideObservation
from cardtable.observations.turn_the_tide import TurnTheTidePhase as Phase
from cardtable.reference._base import CHANCE, TERMINAL, ReferenceGame, ReferenceState, register
from cardtable.reference._options import (
    OptionReader,
    bool_option,
    optional_int_option,
)
from cardtable.reference._tensor import TensorBuilder

__all__ = ["TurnTheTideGame", "TurnTheTideObservation", "TurnTheTideState"]

HAND_SIZE = 12
"""Weather cards dealt to each player, and the number of hands in a full round."""
WEATHER_CARDS = range(1, 61)
"""The 60 weather cards, numbered 1..60, all different."""
TIDE_VALUES = range(1, 13)
"""The values of the tide (water level) cards."""
TIDE_COPIES = 2
"""Each tide value is in the tide deck twice: 24 tide cards."""
NUM_ACTIONS = 61
"""Action ids 0..60: weather card numbers 1..60, and 0/1 at the tide choice."""
TAKE_TIDE_A = 0
"""The tide choice action taking the first tide card drawn this hand."""
TAKE_TIDE_B = 1
"""The tide choice action taking the second tide card drawn this hand."""
PLAYERS_LEFT_TO_END_ROUND = 2
"""'If at most two players remain in the round, the round ends immediately.'"""

TENSOR_PHASES: tuple[Phase, ...] = ("deal", "tide", "play", "choose_tide", "over")
"""The phases in the order of the tensor's ``phase`` segment."""


def half_lifebuoys(card: int) -> int:
    """Count the half-lifebuoys printed on a weather card.

    "Cards 1-12: none, 13-24: half, 25-36: one whole, 37-48: half, 49-60: none."
    """
    return int(13 <= card <= 48) + int(25 <= card <= 36)


class TurnTheTideState(ReferenceState):
    """A game of Turn the Tide in progress."""

    def __init__(self, game: TurnTheTideGame) -> None:
        """Set up the table before the deal: nothing dealt, no round started yet."""
        super().__init__(game)
        self._players = game.players
        self._rounds = game.rounds
        self._recheck_after_elimination = game.recheck_after_elimination
        self._highest_chooses_tide = game.highest_chooses_tide
        n = self._players
        self._dealt: list[list[int]] = [[] for _ in range(n)]
        self._round = 0
        self._hand_index = 0
        self._hands: list[list[int]] = [[] for _ in range(n)]
        self._lifebuoys = [0] * n
        self._tide: list[int | None] = [None] * n
        self._eliminated = [False] * n
        self._played: list[list[int]] = [[] for _ in range(n)]
        self._totals = [0] * n
        self._revealed_tide: list[int] = []
        self._tide_deck = [TIDE_COPIES for _ in TIDE_VALUES]
        self._commitments: list[int | None] = [None] * n
        self._chooser: int | None = None
        self._game_over = False

    # ----- where are we -----
    def _cards_dealt(self) -> int:
        """Count the weather cards dealt so far."""
        return sum(len(cards) for cards in self._dealt)

    def _phase(self) -> Phase:
        """Tell what the game waits for: a deal, a tide draw, a commitment, a choice, nothing."""
        if self._game_over:
            return "over"
        if self._cards_dealt() < HAND_SIZE * self._players:
            return "deal"
        if self._chooser is not None:
            return "choose_tide"
        if len(self._revealed_tide) < 2:
            return "tide"
        return "play"

    def _seats_in_round(self) -> list[int]:
        """List the seats not eliminated from the current round, in seat order."""
        return [seat for seat in range(self._players) if not self._eliminated[seat]]

    def _next_to_commit(self) -> int:
        """Find the seat that commits a weather card next.

        "Every player still in the round secretly chooses one weather card from hand": in the
        engine one after another in seat order, skipping eliminated players.
        """
        for seat in self._seats_in_round():
            if self._commitments[seat] is None:
                return seat
        raise AssertionError("unreachable: the reveal follows the last commitment at once")

    # ----- setup -----
    def _deal(self, card: int) -> None:
        """Deal one weather card.

        "Shuffle the weather cards, deal 12 to each player": seat 0's twelve first, then seat 1's,
        and so on. The first round starts right after the last card.
        """
        seat = self._cards_dealt() // HAND_SIZE
        self._dealt[seat].append(card)
        if self._cards_dealt() == HAND_SIZE * self._players:
            self._start_round(0)

    @staticmethod
    def _lifebuoys_of(hand: list[int]) -> int:
        """Count the lifebuoys a 12-card hand brings.

        "Lifebuoy count = floor(sum of halves in the 12-card hand they hold this round / 2)":
        two halves make one whole lifebuoy, a leftover half is rounded down.
        """
        return sum(half_lifebuoys(card) for card in hand) // 2

    def _hand_of_round(self, seat: int, round_: int) -> list[int]:
        """Return the 12-card hand ``seat`` holds in round ``round_``, sorted.

        "After each round every player passes the 12-card hand they held this round (all 12
        cards, played or not) to the player on their left = the next seat. In round r (0-based)
        seat p holds the hand originally dealt to seat (p - r) mod n."
        """
        return sorted(self._dealt[(seat - round_) % self._players])

    def _start_round(self, round_: int) -> None:
        """Start round ``round_`` with the rotated hands.

        "Round start: each player's lifebuoy count = floor(sum of halves in the 12-card hand they
        hold this round / 2). All lifebuoys face up. Shuffle all 24 tide cards. No one has a tide
        card."
        """
        n = self._players
        self._round = round_
        self._hand_index = 0
        self._hands = [self._hand_of_round(seat, round_) for seat in range(n)]
        self._lifebuoys = [self._lifebuoys_of(hand) for hand in self._hands]
        self._tide_deck = [TIDE_COPIES for _ in TIDE_VALUES]
        self._tide = [None] * n
        self._eliminated = [False] * n
        self._played = [[] for _ in range(n)]
        self._revealed_tide = []
        self._commitments = [None] * n
        self._chooser = None

    # ----- one hand -----
    def _reveal_tide_card(self, value: int) -> None:
        """Reveal one tide card (step 1: "reveal the top two tide cards").

        The first is tide A, the second tide B.
        """
        self._tide_deck[value - 1] -= 1
        self._revealed_tide.append(value)

    def _commit(self, seat: int, card: int) -> None:
        """Commit ``seat``'s weather card for this hand (step 2).

        "Every player still in the round secretly chooses one weather card from hand; all reveal
        together": the reveal follows the last commitment.
        """
        self._commitments[seat] = card
        if all(self._commitments[s] is not None for s in self._seats_in_round()):
            self._reveal_weather_cards()

    def _ranking(self) -> list[int]:
        """Order the seats in the round by their weather card this hand, highest first.

        "Weather cards never tie."
        """
        committed = {
            seat: card
            for seat in self._seats_in_round()
            if (card := self._commitments[seat]) is not None
        }
        return sorted(committed, key=lambda seat: committed[seat], reverse=True)

    def _reveal_weather_cards(self) -> None:
        """Reveal the weather cards (step 2) and hand out the tide cards (step 3).

        "The player with the highest weather card takes the LOWER of the two tide cards; the
        player with the second-highest takes the HIGHER one. Others take nothing."

        With ``highest_chooses_tide`` (2001 edition) "the highest weather card chooses either tide
        card": that seat decides first, and the tide cards are handed out after its choice.
        """
        for seat in self._seats_in_round():
            card = self._commitments[seat]
            assert card is not None
            self._hands[seat].remove(card)
            self._played[seat].append(card)
        highest, second = self._ranking()[:2]
        if self._highest_chooses_tide:
            self._chooser = highest
            return
        lower, higher = sorted(self._revealed_tide)
        self._take_tide_card(highest, lower)
        self._take_tide_card(second, higher)
        self._resolve_hand()

    def _choose_tide(self, action: int) -> None:
        """Hand out the tide cards as the highest weather card chose (``highest_chooses_tide``).

        Action 0 takes tide A and action 1 tide B; the second-highest weather card takes the other.
        """
        highest, second = self._ranking()[:2]
        tide_a, tide_b = self._revealed_tide
        chosen, other = (tide_a, tide_b) if action == TAKE_TIDE_A else (tide_b, tide_a)
        self._take_tide_card(highest, chosen)
        self._take_tide_card(second, other)
        self._resolve_hand()

    def _take_tide_card(self, seat: int, value: int) -> None:
        """Give ``seat`` a tide card.

        "A new tide card covers the player's previous one: only the top (showing) tide card
        counts."
        """
        self._tide[seat] = value

    def _resolve_hand(self) -> None:
        """Carry out steps 4 to 8 once the tide cards are out; then the hand is over.

        "The round ends after the 12th hand, or by step 6."
        """
        round_ended_early = self._lose_lifebuoys()
        self._hand_index += 1
        self._revealed_tide = []
        self._commitments = [None] * self._players
        self._chooser = None
        if round_ended_early or self._hand_index == HAND_SIZE:
            self._end_round()

    def _highest_tide_holders(self) -> list[int]:
        """Find the seats that must lose a lifebuoy (step 4).

        "The player(s) whose showing tide card is highest among players still in the round"
        (ties: all of them). "Players without a tide card are never highest."
        """
        showing = {
            seat: tide for seat in self._seats_in_round() if (tide := self._tide[seat]) is not None
        }
        if not showing:
            return []
        highest = max(showing.values())
        return [seat for seat, tide in showing.items() if tide == highest]

    def _eliminate(self, seat: int) -> None:
        """Eliminate ``seat`` from the round (step 5).

        "Their remaining weather cards and their tide cards are turned face down (their tide card
        no longer counts for anything)."
        """
        self._eliminated[seat] = True
        self._tide[seat] = None

    def _lose_lifebuoys(self) -> bool:
        """Carry out steps 4 to 7 and tell whether the round ended by step 6.

        Step 4: "The player(s) whose showing tide card is highest among players still in the round
        lose one lifebuoy each (ties: all tied players lose one)."
        Step 5: "A player who must lose a lifebuoy but has none left is eliminated from the round.
        Several players can be eliminated in the same step."
        Step 6: "If at most two players remain in the round, the round ends immediately."
        Step 7 (``recheck_after_elimination``): "If anyone was eliminated in step 5 and the round
        did not end, step 4 is applied again among the remaining players, then 5 and 6 again,
        until a step 4 eliminates no one or the round ends."
        """
        while True:
            anyone_eliminated = False
            for seat in self._highest_tide_holders():
                if self._lifebuoys[seat] > 0:
                    self._lifebuoys[seat] -= 1
                else:
                    self._eliminate(seat)
                    anyone_eliminated = True
            if len(self._seats_in_round()) <= PLAYERS_LEFT_TO_END_ROUND:
                return True
            if not (self._recheck_after_elimination and anyone_eliminated):
                return False

    # ----- end of a round -----
    def _lowest_tide_holders(self) -> list[int]:
        """Find the seats that earn the lowest-tide bonus.

        "Every player still in the round whose showing tide is the lowest among players still in
        the round; a player with no tide card counts as lowest. Eliminated players never get the
        bonus." So if anyone still in the round has no tide card, exactly those seats get it.
        """
        in_round = self._seats_in_round()
        without_tide = [seat for seat in in_round if self._tide[seat] is None]
        if without_tide:
            return without_tide
        showing = {seat: tide for seat in in_round if (tide := self._tide[seat]) is not None}
        lowest = min(showing.values(), default=None)
        return [seat for seat, tide in showing.items() if tide == lowest]

    def _score_round(self) -> None:
        """Score the round into the running totals.

        "Player still in the round: +1 per face-up lifebuoy (0 if none). Eliminated player: -1.
        Bonus +1 to every player still in the round whose showing tide is the lowest."
        """
        bonus = self._lowest_tide_holders()
        for seat in range(self._players):
            if self._eliminated[seat]:
                self._totals[seat] -= 1
            else:
                self._totals[seat] += self._lifebuoys[seat] + int(seat in bonus)

    def _end_round(self) -> None:
        """Score the round, then start the next one or end the game.

        "A game has as many rounds as players" (option ``rounds``). After the last round
        everything stays as it was at its end.
        """
        self._score_round()
        if self._round + 1 < self._rounds:
            self._start_round(self._round + 1)
        else:
            self._game_over = True

    # ----- rule hooks -----
    def _current_player(self) -> int:
        phase = self._phase()
        if phase in ("deal", "tide"):
            return CHANCE
        if phase == "over":
            return TERMINAL
        if phase == "choose_tide":
            assert self._chooser is not None
            return self._chooser
        return self._next_to_commit()

    def _legal_actions(self) -> list[int]:
        phase = self._phase()
        if phase in ("deal", "tide"):
            return [outcome for outcome, _ in self._chance_outcomes()]
        if phase == "play":
            return list(self._hands[self._next_to_commit()])
        if phase == "choose_tide":
            return [TAKE_TIDE_A, TAKE_TIDE_B]
        return []

    def _chance_outcomes(self) -> list[tuple[int, int]]:
        phase = self._phase()
        if phase == "deal":
            dealt = {card for cards in self._dealt for card in cards}
            return [(card, 1) for card in WEATHER_CARDS if card not in dealt]
        if phase == "tide":
            return [
                (value, copies)
                for value, copies in zip(TIDE_VALUES, self._tide_deck, strict=True)
                if copies > 0
            ]
        return []

    def _apply(self, action: int) -> None:
        phase = self._phase()
        if phase == "deal":
            self._deal(action)
        elif phase == "tide":
            self._reveal_tide_card(action)
        elif phase == "play":
            self._commit(self._next_to_commit(), action)
        elif phase == "choose_tide":
            self._choose_tide(action)

    def _action_label(self, action: int) -> str:
        phase = self._phase()
        if phase == "deal":
            return f"deal {action} to seat {self._cards_dealt() // HAND_SIZE}"
        if phase == "tide":
            return f"tide {'A' if not self._revealed_tide else 'B'}: {action}"
        if phase == "play":
            return f"play {action}"
        if phase == "choose_tide" and action in (TAKE_TIDE_A, TAKE_TIDE_B):
            letter = "A" if action == TAKE_TIDE_A else "B"
            return f"take tide {letter} ({self._revealed_tide[action]})"
        return f"action {action}"

    score_wins = "highest"
    """The winners: "the highest total wins; ties share the win"."""

    def _scores(self) -> list[int]:
        return list(self._totals)

    def _observation(self, player: int) -> TurnTheTideObservation:
        """Show ``player`` its own hand and pending commitment, and everything public.

        Public: lifebuoys, showing tides, eliminations, revealed cards, who has committed and the
        scores. Other hands and other pending commitments stay hidden.
        """
        return {
            "seat": player,
            "phase": self._phase(),
            "round": self._round,
            "hand_index": self._hand_index,
            "hand": list(self._hands[player]),
            "lifebuoys": list(self._lifebuoys),
            "tide": list(self._tide),
            "revealed_tide": list(self._revealed_tide),
            "eliminated": list(self._eliminated),
            "played": [list(cards) for cards in self._played],
            "committed": [card is not None for card in self._commitments],
            "own_commitment": self._commitments[player],
            "scores": list(self._totals),
        }

    tensor_phases = TENSOR_PHASES

    def _encode_tensor(self, t: TensorBuilder, obs: Mapping[str, Any]) -> None:
        """The contract's "Observation tensor" after the seat and the phase."""
        n = self._players
        t.one_hot(obs["round"], self._rounds)
        t.scaled(obs["hand_index"], 12)
        t.multi_hot((card - 1 for card in obs["hand"]), 60)
        for lifebuoys in obs["lifebuoys"]:
            t.scaled(lifebuoys, 12)
        for tide in obs["tide"]:
            t.one_hot(None if tide is None else tide - 1, 12)
        for slot in range(2):
            revealed = obs["revealed_tide"]
            t.one_hot(revealed[slot] - 1 if slot < len(revealed) else None, 12)
        for eliminated in obs["eliminated"]:
            t.flag(eliminated)
        played = [0.0] * (60 * (n + 1))
        for seat, cards in enumerate(obs["played"]):
            for index, card in enumerate(cards):
                played[(card - 1) * (n + 1) + seat] = 1.0
                played[(card - 1) * (n + 1) + n] = (index + 1) / 12
        t.extend(played)
        for committed in obs["committed"]:
            t.flag(committed)
        own = obs["own_commitment"]
        t.one_hot(None if own is None else own - 1, 60)
        for score in obs["scores"]:
            t.scaled(score, 12)

    def _state_dict(self) -> dict[str, object]:
        return {
            "dealt": [list(cards) for cards in self._dealt],
            "round": self._round,
            "hand_index": self._hand_index,
            "hands": [list(hand) for hand in self._hands],
            "lifebuoys": list(self._lifebuoys),
            "tide": list(self._tide),
            "eliminated": list(self._eliminated),
            "played": [list(cards) for cards in self._played],
            "scores": list(self._totals),
            "revealed_tide": list(self._revealed_tide),
            "tide_deck": list(self._tide_deck),
            "commitments": list(self._commitments),
            "chooser": self._chooser,
        }


RULE_EVENTS = (
    "tie at the highest tide",
    "elimination",
    "elimination recheck",
    "round ended by two remaining players",
    "lowest-tide bonus shared",
)
"""The rule events of Turn the Tide, as the contract lists them."""


@register("turn_the_tide", players=(3, 5))
class TurnTheTideGame(ReferenceGame[TurnTheTideState]):
    """Turn the Tide for 3 to 5 players with fixed options."""

    option_specs = (
        bool_option(
            "recheck_after_elimination",
            True,
            "after an elimination the highest showing tide loses again (rules step 7; no effect "
            "with 3 players, whose round ends when two remain)",
        ),
        bool_option(
            "highest_chooses_tide",
            False,
            "the highest weather card chooses either tide card (2001 edition)",
        ),
        optional_int_option(
            "rounds",
            None,
            1,
            5,
            "number of rounds, 1..players (None: as many as players)",
            at_most_players=True,
        ),
    )

    def _configure(self, options: OptionReader) -> None:
        self.recheck_after_elimination = options.bool("recheck_after_elimination")
        self.highest_chooses_tide = options.bool("highest_chooses_tide")
        rounds = options.optional_int("rounds")
        self.rounds = self.players if rounds is None else rounds
        options.set("rounds", self.rounds)

    num_actions = NUM_ACTIONS
    """61: weather card numbers 1..60, plus 0 and 1 for the tide choice."""

    @property
    def observation_shape(self) -> tuple[int, ...]:
        """``(210 + rounds + 77 * players,)``: see the contract's "Observation tensor"."""
        return (210 + self.rounds + 77 * self.players,)

    @property
    def max_game_length(self) -> int:
        """The bound of a game's steps: the deal (12 cards a seat), then every hand's steps.

        A hand is two tide draws, a commitment per seat and a tide choice.
        """
        return 12 * self.players + 12 * self.rounds * (self.players + 3)

    rule_event_names = RULE_EVENTS

    def rule_events(
        self, before: TurnTheTideState, action: int, after: TurnTheTideState
    ) -> frozenset[str]:
        """See :func:`hand_events`."""
        return hand_events(self, before, action, after)

    def _initial_state(self) -> TurnTheTideState:
        return TurnTheTideState(self)


def hand_events(
    game: TurnTheTideGame, before: TurnTheTideState, action: int, after: TurnTheTideState
) -> frozenset[str]:
    """The rule events of a step that resolves a hand (contract, "Rule events").

    The hand is followed again from the rules on a copy of the seats before the step (the step may
    end the round and start the next one).

    Step 4 "ties: all tied players lose one" (a tie at the highest tide), step 5 "a player who must
    lose a lifebuoy but has none left is eliminated" (elimination), step 7 "step 4 is applied
    again" (elimination recheck), step 6 "if at most two players remain in the round, the round
    ends immediately" (round ended by two remaining players), and the round's "bonus +1 to every
    player still in the round whose showing tide is the lowest" given to two seats or more (bonus
    shared).
    """
    if after._phase() in ("play", "choose_tide"):
        return frozenset()
    phase = before._phase()
    commitments = list(before._commitments)
    tide = list(before._tide)
    in_round = [not out for out in before._eliminated]
    if phase == "play" and not game.highest_chooses_tide:
        commitments[before._next_to_commit()] = action
    elif phase != "choose_tide":
        return frozenset()
    ranked = sorted(
        (seat for seat in range(game.players) if in_round[seat]),
        key=lambda seat: commitments[seat] or 0,
        reverse=True,
    )
    tide_a, tide_b = before._revealed_tide
    if phase == "play":
        first, second = min(tide_a, tide_b), max(tide_a, tide_b)
    else:
        first, second = (tide_a, tide_b) if action == TAKE_TIDE_A else (tide_b, tide_a)
    tide[ranked[0]], tide[ranked[1]] = first, second
    lifebuoys = list(before._lifebuoys)
    events: set[str] = set()
    passes = 0
    while True:
        if passes:
            events.add("elimination recheck")
        showing = [tide[s] for s in range(game.players) if in_round[s] and tide[s] is not None]
        top = max((t for t in showing if t is not None), default=None)
        holders = [
            s for s in range(game.players) if in_round[s] and top is not None and tide[s] == top
        ]
        if len(holders) >= 2:
            events.add("tie at the highest tide")
        eliminated = False
        for seat in holders:
            if lifebuoys[seat]:
                lifebuoys[seat] -= 1
            else:
                in_round[seat] = False
                tide[seat] = None
                eliminated = True
                events.add("elimination")
        if sum(in_round) <= 2:
            events.add("round ended by two remaining players")
            break
        if not (game.recheck_after_elimination and eliminated):
            break
        passes += 1
    if "round ended by two remaining players" in events or before._hand_index + 1 == HAND_SIZE:
        still = [s for s in range(game.players) if in_round[s]]
        bonus = [s for s in still if tide[s] is None]
        if not bonus:
            low = min((t for s in still if (t := tide[s]) is not None), default=None)
            bonus = [s for s in still if tide[s] == low]
        if len(bonus) >= 2:
            events.add("lowest-tide bonus shared")
    return frozenset(events)
