"""Rule scenarios of Trafficars, the traffic jam (rules doc ``rules/trafficars.md``, game 1).

Every state starts without a seed, so every chance node is explicit: the tests choose the lane
starters and the hands, commit the cards they want and make the resolution decisions, then check
the exact lanes, car counts and penalties the rules and ``docs/games/trafficars.md`` prescribe.
Lanes are written as in the observation: a list of places front to end, each a list of card ids
bottom to top, or ``None`` for a free place.

Card ids: cars 1..50 (number = id), trailers 51/52/53 (numbers 10/20/30), ambulances 54-56,
police cars 57-59, tow trucks 60-62.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import pytest

import cardtable
from cardtable import CHANCE, TERMINAL, Backend, GameProtocol, StateProtocol
from cardtable.errors import InvalidOptionError, InvalidStateError
from cardtable.reference.trafficars import RULE_EVENTS
from tests.drawn_games import Player, extremes
from tests.game_info import GameTestInfo, Mutation, Run
from tests.render_checks import others_hands_and_commitments
from tests.scenarios import assert_rejected, one_bad_option_each

# ----- what the shared tests need (the GAME block below) -----


_TC_LANE, _TC_FREE_PLACE = 100, 110


def _tc_fill_lanes(state: Any, legal: list[int]) -> list[int]:
    """Send every card to the lane with the most cars: lanes fill up, so full-lane penalties,
    police into a full lane, tow trucks as 5th car and ambulance overflows happen."""
    lanes = [a for a in legal if _TC_LANE <= a < _TC_FREE_PLACE]
    if not lanes:
        return []
    cars = state.observation(state.current_player)["cars"]
    most = max(cars[a - _TC_LANE] for a in lanes)
    return [a for a in lanes if cars[a - _TC_LANE] == most]


def _tc_fill_free_places(state: Any, legal: list[int]) -> list[int]:
    """Take a free place whenever one is offered, else play a special card if holding one."""
    free = [a for a in legal if a >= _TC_FREE_PLACE]
    if free:
        return free
    if all(a < _TC_LANE for a in legal):  # committing a card: specials have ids 51..62
        return [a for a in legal if a > 50]
    return []


_TC_POLICE = range(57, 60)
_TC_SPECIALS = range(54, 63)  # ambulances, police cars, tow trucks
_TC_NUMBERS = {51: 10, 52: 20, 53: 30}  # trailers; a car's number is its id


def _tc_end_value(lane: list[Any]) -> int | None:
    """The number a lane ends in, or ``None`` when it is open (an ambulance or a police car)."""
    top = int(lane[-1][-1])
    return None if top in _TC_SPECIALS else _TC_NUMBERS.get(top, top)


def _tc_fill_every_lane(state: Any, legal: list[int]) -> list[int]:
    """Fill every lane up to the limit and keep it there: commit numbered cards that go to a lane
    with room, send them to the longest lane with room and take the shortest lane when too low;
    keep the ambulances, police cars and tow trucks until every lane is full, then play them,
    police cars first. Police cars then meet a table of full lanes, and ambulances and tow trucks
    come as 5th cars."""
    obs = state.observation(state.current_player)
    cars: list[int] = obs["cars"]
    limit = state.to_dict()["options"]["max_cars"]
    room = [limit is None or n < limit for n in cars]
    if legal[-1] >= _TC_LANE:  # a resolution choice
        lanes = [a for a in legal if _TC_LANE <= a < _TC_FREE_PLACE]
        if obs["decision"] == "take":
            fewest = min(cars[a - _TC_LANE] for a in lanes)
            return [a for a in lanes if cars[a - _TC_LANE] == fewest]
        with_room = [a for a in lanes if room[a - _TC_LANE]]
        if not with_room:
            return []
        most = max(cars[a - _TC_LANE] for a in with_room)
        return [a for a in with_room if cars[a - _TC_LANE] == most]
    specials = [a for a in legal if a in _TC_SPECIALS]
    if not any(room):
        return [a for a in specials if a in _TC_POLICE] or specials
    ends = [_tc_end_value(lane) for lane in obs["lanes"]]

    def fits_with_room(card: int) -> bool:
        x = _TC_NUMBERS.get(card, card)
        below = [v for v in ends if v is not None and v < x]
        targets = [k for k, v in enumerate(ends) if v is None or (below and v == max(below))]
        return any(room[k] for k in targets)

    return [a for a in legal if a not in _TC_SPECIALS and fits_with_room(a)]


GAME = GameTestInfo(
    configs=[
        {"players": 4},
        {"players": 2, "special_cards": False, "lanes": 2, "hand_size": 15},
        {"players": 3, "max_cars": None},
        {"players": 5, "too_low": "insert"},
        {"players": 5, "max_number": 20, "hand_size": 5, "max_cars": 2, "lanes": 4},
    ],
    golden=[
        ("3p-default", {"players": 3, "hand_size": 5}, 1),
        (
            "2p-easy",
            {"players": 2, "lanes": 2, "max_number": 20, "hand_size": 5, "special_cards": False},
            2,
        ),
        (
            "4p-insert-nolimit",
            {"players": 4, "hand_size": 4, "too_low": "insert", "max_cars": None},
            3,
        ),
        # Every option at its default; its game overflows a lane after an ambulance (the
        # `trafficars-ambulance-overflow` mutation below changes it).
        ("4p-default", {"players": 4}, 4),
    ],
    perft=({"players": 2, "hand_size": 4}, 5, 4, 9),
    tensor_size=lambda n, o: 385 + 64 * o.get("lanes", 3) + 128 * n,
    small={"players": 3, "hand_size": 4},
    replay_run=Run(3, ["greedy", "random", "greedy"], {"lanes": 2}),
    saved_run=Run(5, ["greedy"] * 5, {"lanes": 2}),
    pictures=[
        ("mid", {"players": 3, "hand_size": 5}, 12, 9),
        ("end", {"players": 3, "hand_size": 5}, 12, None),
    ],
    hidden_cards=others_hands_and_commitments,
    drawn_players=(
        Player("uniform"),
        Player("fill lanes", _tc_fill_lanes),
        Player("fill free places", _tc_fill_free_places),
        Player("fill every lane", _tc_fill_every_lane),
        Player("extremes", extremes),
    ),
    mutations=(
        Mutation(
            "trafficars-equal-cards-order",
            "equal cards resolve in seat order from seat 0 (mutant: from the last seat)",
            "0 if number is None else number, seat)",
            "0 if number is None else number, -seat)",
        ),
        Mutation(
            "trafficars-lane-full",
            "a car into a lane with 4 cars takes the lane (mutant: with 5)",
            "if self._max_cars is not None and cars_in(lane) >= self._max_cars:",
            "if self._max_cars is not None and cars_in(lane) > self._max_cars:",
        ),
        Mutation(
            "trafficars-ambulance-overflow",
            "a lane with more than 4 cars after the ambulances overflows (mutant: 4 or more)",
            "if self._new_front_ambulance(lane) and cars_in(lane) > self._max_cars:",
            "if self._new_front_ambulance(lane) and cars_in(lane) >= self._max_cars:",
        ),
        Mutation(
            "trafficars-police-full-lane",
            "a police car goes to a lane with fewer than 4 cars (mutant: up to 4)",
            "or cars_in(lane) < self._max_cars",
            "or cars_in(lane) <= self._max_cars",
        ),
        Mutation(
            "trafficars-tow-truck-5th-car",
            "a tow truck as 5th car takes the lane's first places (mutant: as 6th)",
            "if self._max_cars is not None and before >= self._max_cars:",
            "if self._max_cars is not None and before > self._max_cars:",
        ),
        Mutation(
            "trafficars-unfilled-free-place",
            "a tow truck whose free place stays empty counts 2 cars (mutant: 1)",
            "lane[index + 1].cars = 2",
            "lane[index + 1].cars = 1",
        ),
        Mutation(
            "trafficars-smallest-difference",
            "a card goes to the lane end closest below it (mutant: farthest)",
            "closest = max((value for _, value in accepting if value is not None), default=None)",
            "closest = min((value for _, value in accepting if value is not None), default=None)",
        ),
        Mutation(
            "trafficars-trailer-stacks",
            "a trailer stacks on the last place, never filling a lane (mutant: a new place)",
            "lane[-1].stack().append(trailer)",
            "lane.append(Place([trailer]))",
        ),
    ),
    readme_image=({"players": 3}, 5, 16, 0),
)
"""What the generic and shared tests need of this game (see ``tests/game_info.py``)."""

TRAILER_10, TRAILER_20, TRAILER_30 = 51, 52, 53
AMBULANCE_A, AMBULANCE_B = 54, 55
POLICE_A, POLICE_B, POLICE_C = 57, 58, 59
TOW_A, TOW_B, TOW_C = 60, 61, 62

LANE_0, LANE_1, LANE_2 = 100, 101, 102
FREE_0, FREE_1, FREE_2 = 110, 111, 112


# ----- helpers -----


def new_game(backend: Backend, players: int = 3, **options: Any) -> GameProtocol:
    return cardtable.make("trafficars", players=players, backend=backend, **options)


def start(
    backend: Backend, starters: Sequence[int], hands: Sequence[Sequence[int]], **options: Any
) -> StateProtocol:
    """A new game with the given lane starters and hands dealt (one hand per seat).

    The hand size is the length of the hands: the game lasts that many turns.
    """
    game = new_game(backend, players=len(hands), hand_size=len(hands[0]), **options)
    state = game.new_state()
    for card in starters:
        assert state.is_chance_node
        state.apply(card)
    for hand in hands:
        for card in hand:
            assert state.is_chance_node
            state.apply(card)
    assert not state.is_chance_node
    return state


def commit(state: StateProtocol, plays: Sequence[int]) -> None:
    """Commits ``plays[seat]`` for every seat, checking that the seats are asked in seat order."""
    for seat, card in enumerate(plays):
        assert view(state)["decision"] == "commit"
        assert state.current_player == seat
        state.apply(card, player=seat)


def decide(
    state: StateProtocol, owner: int, decision: str, options: list[int], choice: int
) -> None:
    """Checks the pending resolution decision, then makes ``choice``."""
    assert view(state)["phase"] == "resolve"
    assert state.current_player == owner
    assert view(state)["decision"] == decision
    assert state.legal_actions() == options
    state.apply(choice, player=owner)


def play_turn(state: StateProtocol, plays: Sequence[int]) -> None:
    """A turn in which every card is resolved without a choice."""
    turn = view(state)["turn"]
    commit(state, plays)
    assert view(state)["turn"] == turn + 1, "the turn needed a resolution decision"


def view(state: StateProtocol, seat: int = 0) -> Mapping[str, Any]:
    """The observation of ``seat`` (seat 0 by default, for the public parts)."""
    return state.observation(seat)


def lanes(state: StateProtocol) -> list[Any]:
    return list(view(state)["lanes"])


def penalties(state: StateProtocol) -> list[int]:
    return list(view(state)["penalties"])


# ----- setup: options, deck and deal -----


def test_options_list_all_six_with_their_effective_values(backend: Backend) -> None:
    assert new_game(backend).options == {
        "max_number": 50,
        "hand_size": 10,
        "lanes": 3,
        "special_cards": True,
        "max_cars": 4,
        "too_low": "take",
    }
    game = new_game(backend, 2, max_cars=None, too_low="insert", lanes=2, special_cards=False)
    assert game.options["max_cars"] is None
    assert game.options["too_low"] == "insert"
    assert game.num_actions == 115


def test_lane_starters_are_dealt_first_and_are_cars_only(backend: Backend) -> None:
    state = new_game(backend, 2, hand_size=2).new_state()
    assert state.current_player == CHANCE
    assert state.chance_outcomes() == [(card, 1 / 50) for card in range(1, 51)]
    assert state.action_label(7) == "lane 0 starts with 7"
    assert state.action_label(54) == "lane 0 starts with ambulance (54)"
    assert state.action_label(0) == "action 0"
    assert state.action_label(100) == "action 100"
    observation = view(state)
    assert observation["phase"] == "deal"
    assert observation["decision"] is None
    assert observation["turn"] == 0
    assert observation["lanes"] == [[], [], []]
    assert observation["place_cars"] == [[], [], []]
    assert observation["cars"] == [0, 0, 0]
    assert observation["hand"] == []
    state.apply(7)
    assert lanes(state) == [[[7]], [], []]
    assert view(state)["place_cars"] == [[1], [], []]
    assert view(state)["cars"] == [1, 0, 0]
    assert state.action_label(8) == "lane 1 starts with 8"
    assert 7 not in state.legal_actions()
    state.apply(8)
    state.apply(9)
    left = [card for card in range(1, 63) if card not in (7, 8, 9)]
    assert state.chance_outcomes() == [(card, 1 / 59) for card in left]
    assert state.action_label(54) == "deal ambulance (54) to seat 0"
    assert state.action_label(51) == "deal trailer 10 (51) to seat 0"
    assert state.action_label(12) == "deal 12 to seat 0"


def test_seat_0_is_dealt_its_hand_first(backend: Backend) -> None:
    state = new_game(backend, 2, hand_size=2).new_state()
    for card in (7, 8, 9, 60, 54):
        state.apply(card)
    assert view(state, 0)["hand"] == [54, 60]
    assert state.action_label(1) == "deal 1 to seat 1"
    state.apply(51)
    assert view(state, 1)["hand"] == [51]
    assert view(state, 0)["hand"] == [54, 60]
    state.apply(1)
    assert view(state)["phase"] == "commit"
    assert view(state)["decision"] == "commit"
    assert state.current_player == 0
    assert state.to_dict()["state"]["hands"] == [[54, 60], [1, 51]]


@pytest.mark.parametrize(
    ("options", "hand_cards"),
    [
        ({"max_number": 10}, [*range(4, 11), 51, *range(54, 63)]),
        ({"max_number": 20}, [*range(4, 21), 51, 52, *range(54, 63)]),
        ({"max_number": 30}, [*range(4, 31), 51, 52, 53, *range(54, 63)]),
        ({"special_cards": False}, list(range(4, 51))),
        ({"max_number": 20, "special_cards": False}, list(range(4, 21))),
    ],
)
def test_the_deck_follows_max_number_and_special_cards(
    backend: Backend, options: dict[str, Any], hand_cards: list[int]
) -> None:
    state = new_game(backend, 3, hand_size=2, **options).new_state()
    max_number = options.get("max_number", 50)
    assert state.legal_actions() == list(range(1, max_number + 1))
    for card in (1, 2, 3):
        state.apply(card)
    assert state.legal_actions() == hand_cards


def test_max_number_20_hand_size_5_deals_and_plays_five_turns(backend: Backend) -> None:
    game = new_game(backend, 3, max_number=20, hand_size=5)
    state = game.new_state(seed=4)
    turns = 0
    while not state.is_terminal:
        if view(state)["decision"] == "commit" and state.current_player == 0:
            assert view(state)["turn"] == turns
            turns += 1
        assert all(card <= 20 or card in (51, 52) or card >= 54 for card in view(state)["hand"])
        state.apply(state.legal_actions()[0])
    assert turns == 5
    assert view(state)["turn"] == 5


@pytest.mark.parametrize(
    ("options", "one_more"),
    [
        (
            {"players": 2, "max_number": 10, "special_cards": False, "hand_size": 4, "lanes": 2},
            "hand_size",
        ),
        ({"players": 5, "hand_size": 11}, "hand_size"),
        (
            {"players": 2, "max_number": 5, "special_cards": False, "hand_size": 1, "lanes": 3},
            "lanes",
        ),
        ({"players": 5, "max_number": 10, "hand_size": 3}, "hand_size"),
    ],
)
def test_the_deck_must_be_large_enough_for_the_deal(
    backend: Backend, options: dict[str, Any], one_more: str
) -> None:
    """A deck just large enough is accepted and plays to the end; with one more card to deal
    (``one_more`` one higher) it is an invalid option."""
    game = cardtable.make("trafficars", backend=backend, **options)
    state = game.new_state(seed=1)
    while not state.is_terminal:
        state.apply(state.legal_actions()[-1])
    too_many = {**options, one_more: options[one_more] + 1}
    with pytest.raises(InvalidOptionError):
        cardtable.make("trafficars", backend=backend, **too_many)


@pytest.mark.parametrize(
    "options",
    [
        {"players": 1},
        {"players": 6},
        *one_bad_option_each(
            3,
            {
                "max_number": [4, 51],
                "hand_size": [0, 31],
                "lanes": [0, 6, 2.0],
                "max_cars": [0, 51, "4", True],
                "special_cards": [1],
                "too_low": ["skip", None],
                "rush_hour": [False],
            },
        ),
    ],
)
def test_bad_options_are_rejected(backend: Backend, options: dict[str, Any]) -> None:
    with pytest.raises(InvalidOptionError):
        cardtable.make("trafficars", backend=backend, **options)


# ----- a turn: commit, reveal, resolution order -----


def test_players_commit_in_seat_order_and_the_card_leaves_the_hand(backend: Backend) -> None:
    state = start(backend, [10, 20, 30], [[11, 12], [21, 22], [31, 32]])
    assert state.current_player == 0
    assert state.legal_actions() == [11, 12]
    assert state.action_label(37) == "play 37"
    assert state.action_label(100) == "action 100"
    state.apply(12)
    assert view(state, 0)["hand"] == [11]
    assert view(state, 0)["own_commitment"] == 12
    assert view(state, 1)["own_commitment"] is None
    assert view(state, 1)["committed"] == [True, False, False]
    assert view(state, 1)["revealed"] is None
    assert state.to_dict()["state"]["commitments"] == [12, None, None]
    assert state.to_dict()["state"]["hands"] == [[11], [21, 22], [31, 32]]
    assert state.current_player == 1
    assert state.legal_actions() == [21, 22]
    state.apply(22)
    state.apply(32)
    assert lanes(state) == [[[10], [12]], [[20], [22]], [[30], [32]]]
    observation = view(state)
    assert observation["turn"] == 1
    assert observation["revealed"] is None
    assert observation["committed"] == [False, False, False]
    assert observation["own_commitment"] is None
    assert state.to_dict()["state"]["commitments"] == [None, None, None]


def test_committing_is_a_decision_even_with_one_card_in_hand(backend: Backend) -> None:
    state = start(backend, [10, 20, 30], [[11], [21], [31]])
    assert state.current_player == 0
    assert state.legal_actions() == [11]
    commit(state, [11, 21, 31])
    assert state.is_terminal
    assert state.history == [10, 20, 30, 11, 21, 31, 11, 21, 31]


def test_a_pending_commitment_stays_hidden_from_the_others(backend: Backend) -> None:
    views = []
    for card in (11, 12):
        state = start(backend, [10, 20, 30], [[11, 12], [21, 22], [31, 32]])
        state.apply(card)
        assert view(state, 0)["own_commitment"] == card
        views.append((view(state, 1), view(state, 2)))
    assert views[0] == views[1]


def test_the_observation_hides_the_other_hands(backend: Backend) -> None:
    one = start(backend, [10, 20, 30], [[11, 12], [21, 22], [31, 32]])
    other = start(backend, [10, 20, 30], [[11, 12], [23, 24], [31, 32]])
    assert one.observation(0) == other.observation(0)
    assert one.observation(2) == other.observation(2)
    assert one.observation(1) != other.observation(1)
    assert one.observation(2)["seat"] == 2
    assert set(one.to_dict()["state"]) == {
        "phase",
        "turn",
        "lanes",
        "place_cars",
        "penalties",
        "revealed",
        "last_revealed",
        "queue",
        "hands",
        "commitments",
    }


def test_specials_resolve_first_ambulance_police_tow_truck_then_numbers(backend: Backend) -> None:
    state = start(backend, [10, 20, 30], [[15, 16], [TOW_A, 17], [POLICE_A, 18], [AMBULANCE_A, 19]])
    commit(state, [15, TOW_A, POLICE_A, AMBULANCE_A])
    observation = view(state, 1)
    assert observation["phase"] == "resolve"
    assert observation["revealed"] == [15, TOW_A, POLICE_A, AMBULANCE_A]
    assert observation["queue"] == [3, 2, 1, 0]
    assert observation["resolving"] == AMBULANCE_A
    assert observation["committed"] == [False] * 4
    assert state.to_dict()["state"]["commitments"] == [None] * 4
    assert state.action_label(LANE_1) == "ambulance to lane 1"
    decide(state, 3, "ambulance", [LANE_0, LANE_1, LANE_2], LANE_0)
    assert lanes(state)[0] == [[AMBULANCE_A], [10]]
    assert view(state)["queue"] == [2, 1, 0]
    assert view(state)["resolving"] == POLICE_A
    assert state.action_label(LANE_2) == "police to lane 2"
    decide(state, 2, "police", [LANE_0, LANE_1, LANE_2], LANE_2)
    assert lanes(state)[2] == [[30], [POLICE_A]]
    assert view(state)["resolving"] == TOW_A
    assert state.action_label(LANE_1) == "tow truck to lane 1"
    decide(state, 1, "tow_truck", [LANE_0, LANE_1, LANE_2], LANE_1)
    assert lanes(state)[1] == [None, [TOW_A, 20]]
    # 15: the end of lane 0 (10) is the closest smaller number; lane 2 ends in a police car and
    # the free place at the front of lane 1 are open.
    assert view(state)["queue"] == [0]
    assert state.action_label(LANE_0) == "to lane 0"
    assert state.action_label(FREE_1) == "fill the free place in lane 1"
    decide(state, 0, "target", [LANE_0, LANE_2, FREE_1], FREE_1)
    observation = view(state)
    assert observation["lanes"] == [[[AMBULANCE_A], [10]], [[15], [TOW_A, 20]], [[30], [POLICE_A]]]
    assert observation["place_cars"] == [[1, 1], [1, 1], [1, 1]]
    assert observation["turn"] == 1
    assert observation["revealed"] is None
    assert observation["resolving"] is None
    assert observation["queue"] == []
    assert observation["phase"] == "commit"


def test_equal_specials_resolve_in_seat_order(backend: Backend) -> None:
    state = start(backend, [10, 20, 30], [[AMBULANCE_B], [AMBULANCE_A], [12]])
    commit(state, [AMBULANCE_B, AMBULANCE_A, 12])
    assert view(state)["queue"] == [0, 1, 2]
    decide(state, 0, "ambulance", [LANE_0, LANE_1, LANE_2], LANE_1)
    decide(state, 1, "ambulance", [LANE_0, LANE_1, LANE_2], LANE_1)
    assert lanes(state) == [[[10], [12]], [[AMBULANCE_B, AMBULANCE_A], [20]], [[30]]]


def test_a_car_and_a_trailer_of_equal_number_resolve_in_seat_order(backend: Backend) -> None:
    # The car of seat 0 first: it follows 5, and the trailer (10) no longer fits anywhere.
    state = start(backend, [5, 30, 40], [[10], [TRAILER_10], [41]])
    commit(state, [10, TRAILER_10, 41])
    assert lanes(state)[0] == [[5], [10]]
    assert view(state)["queue"] == [1, 2]
    decide(state, 1, "take", [LANE_0, LANE_1, LANE_2], LANE_0)
    assert lanes(state) == [[[TRAILER_10]], [[30]], [[40], [41]]]
    assert penalties(state) == [0, 2, 0]
    # The trailer of seat 0 first: it is stacked on 5, and the car 10 no longer fits.
    state = start(backend, [5, 30, 40], [[TRAILER_10], [10], [41]])
    commit(state, [TRAILER_10, 10, 41])
    assert lanes(state)[0] == [[5, TRAILER_10]]
    decide(state, 1, "take", [LANE_0, LANE_1, LANE_2], LANE_1)
    assert lanes(state) == [[[5, TRAILER_10]], [[10]], [[40], [41]]]
    assert penalties(state) == [0, 1, 0]


# ----- placing numbered cards: rules 1 and 2 -----


def test_a_card_follows_the_closest_smaller_end_number(backend: Backend) -> None:
    # 22 resolves before 25: both go to lane 1, whose end is the closest below them.
    state = start(backend, [10, 20, 30], [[25], [22], [35]])
    commit(state, [25, 22, 35])
    assert lanes(state) == [[[10]], [[20], [22], [25]], [[30], [35]]]
    assert penalties(state) == [0, 0, 0]


def test_cards_of_one_turn_resolve_in_increasing_number(backend: Backend) -> None:
    # 11 goes first and makes lane 0 end at 11; 12 and 14 follow it.
    state = start(backend, [10, 20, 30], [[14], [12], [11]])
    commit(state, [14, 12, 11])
    assert lanes(state)[0] == [[10], [11], [12], [14]]


def test_equal_closest_numbers_let_the_owner_choose(backend: Backend) -> None:
    # The trailer 20 follows 15 in lane 1; then lanes 0 and 1 both end at 20.
    state = start(backend, [20, 15, 40], [[TRAILER_20], [23], [41]])
    commit(state, [TRAILER_20, 23, 41])
    assert lanes(state)[1] == [[15, TRAILER_20]]
    assert state.action_label(LANE_1) == "to lane 1"
    decide(state, 1, "target", [LANE_0, LANE_1], LANE_1)
    assert lanes(state) == [[[20]], [[15, TRAILER_20], [23]], [[40], [41]]]


# ----- rule 3: lane full -----


def test_a_car_into_a_lane_with_four_cars_takes_the_lane(backend: Backend) -> None:
    state = start(backend, [10, 20, 30], [[11, 14], [12, 15], [13, 31]])
    play_turn(state, [11, 12, 13])
    assert lanes(state)[0] == [[10], [11], [12], [13]]
    assert view(state)["cars"] == [4, 1, 1]
    commit(state, [14, 15, 31])
    assert lanes(state) == [[[14], [15]], [[20]], [[30], [31]]]
    assert penalties(state) == [4, 0, 0]
    assert state.is_terminal
    assert state.scores == [4, 0, 0]
    assert state.winners == [1, 2]


def test_max_cars_sets_when_a_lane_is_full(backend: Backend) -> None:
    state = start(backend, [10, 20, 30], [[11], [12], [31]], max_cars=2)
    commit(state, [11, 12, 31])
    assert lanes(state) == [[[12]], [[20]], [[30], [31]]]
    assert penalties(state) == [0, 2, 0]


def test_without_max_cars_lanes_grow_without_limit(backend: Backend) -> None:
    hands = [[11, 14, AMBULANCE_A], [12, 15, POLICE_A], [13, 16, TOW_A]]
    state = start(backend, [10, 20, 30], hands, max_cars=None)
    play_turn(state, [11, 12, 13])
    play_turn(state, [14, 15, 16])
    assert view(state)["cars"] == [7, 1, 1]
    commit(state, [AMBULANCE_A, POLICE_A, TOW_A])
    decide(state, 0, "ambulance", [LANE_0, LANE_1, LANE_2], LANE_0)
    assert view(state)["cars"] == [8, 1, 1]
    decide(state, 1, "police", [LANE_0, LANE_1, LANE_2], LANE_0)
    assert view(state)["cars"] == [9, 1, 1]
    decide(state, 2, "tow_truck", [LANE_0, LANE_1, LANE_2], LANE_0)
    cars = [[c] for c in range(10, 17)]
    assert lanes(state)[0] == [[AMBULANCE_A], *cars, [TOW_A, POLICE_A]]
    # The tow truck left alone counts 2: it added one car to the lane.
    assert view(state)["place_cars"][0] == [1] * 8 + [2]
    assert view(state)["cars"] == [10, 1, 1]
    assert penalties(state) == [0, 0, 0]
    assert state.winners == [0, 1, 2]


# ----- rule 4: too low -----


def test_a_too_low_card_takes_a_lane_of_the_owners_choice(backend: Backend) -> None:
    state = start(backend, [10, 20, 30], [[5], [21], [31]])
    commit(state, [5, 21, 31])
    observation = view(state, 2)
    assert observation["resolving"] == 5
    assert observation["queue"] == [0, 1, 2]
    assert state.action_label(LANE_1) == "take lane 1"
    decide(state, 0, "take", [LANE_0, LANE_1, LANE_2], LANE_1)
    # 21 resolves after 5: lane 1 now ends at 5, so 21 follows 10 in lane 0.
    assert lanes(state) == [[[10], [21]], [[5]], [[30], [31]]]
    assert penalties(state) == [1, 0, 0]
    assert state.winners == [1, 2]


def test_a_too_low_trailer_starts_the_lane_it_takes(backend: Backend) -> None:
    """ "Se ei kuitenkaan ole auto, vaan se kiinnitetään jonon viimeiseen autoon" [it is not a car,
    though: it is hitched to the lane's last car]; a lane the trailer starts has none, so the
    trailer stands as the lane's first place and counts as one car (contract, Decisions 14)."""
    state = start(backend, [11, 20, 30], [[TRAILER_10], [21], [31]])
    commit(state, [TRAILER_10, 21, 31])
    decide(state, 0, "take", [LANE_0, LANE_1, LANE_2], LANE_0)
    assert lanes(state) == [[[TRAILER_10]], [[20], [21]], [[30], [31]]]
    assert penalties(state) == [1, 0, 0]
    assert view(state, 0)["cars"] == [1, 2, 2]


def test_too_low_insert_puts_the_card_in_order_skipping_open_stacks(backend: Backend) -> None:
    hands = [[AMBULANCE_A, 12], [27, 34], [33, 28]]
    state = start(backend, [31, 25, 36], hands, too_low="insert")
    commit(state, [AMBULANCE_A, 27, 33])
    decide(state, 0, "ambulance", [LANE_0, LANE_1, LANE_2], LANE_2)
    assert lanes(state) == [[[31], [33]], [[25], [27]], [[AMBULANCE_A], [36]]]
    commit(state, [12, 34, 28])
    assert state.action_label(LANE_2) == "insert into lane 2"
    decide(state, 0, "insert", [LANE_0, LANE_1, LANE_2], LANE_2)
    assert lanes(state) == [[[31], [33], [34]], [[25], [27], [28]], [[AMBULANCE_A], [12], [36]]]
    assert penalties(state) == [0, 0, 0]


def test_insert_goes_before_an_equal_number_and_ignores_the_car_limit(backend: Backend) -> None:
    hands = [[21, TRAILER_20], [22, 41], [23, 42]]
    state = start(backend, [20, 30, 40], hands, too_low="insert")
    play_turn(state, [21, 22, 23])
    commit(state, [TRAILER_20, 41, 42])
    decide(state, 0, "insert", [LANE_0, LANE_1, LANE_2], LANE_0)
    assert lanes(state) == [
        [[TRAILER_20], [20], [21], [22], [23]],
        [[30]],
        [[40], [41], [42]],
    ]
    assert view(state)["cars"] == [5, 1, 3]
    assert penalties(state) == [0, 0, 0]


def test_insert_keeps_a_free_place_with_its_tow_truck(backend: Backend) -> None:
    # Lane 0 = 10, free place, tow truck carrying 12. 11 is too low for every lane end; its
    # owner may fill the free place or insert it: in front of the tow truck means in front of its
    # free place, which stays with the tow truck and disappears at the end of the turn.
    state = start(backend, [10, 30, 40], [[12, TOW_A], [31, 11]], too_low="insert")
    play_turn(state, [12, 31])
    commit(state, [TOW_A, 11])
    decide(state, 0, "tow_truck", [LANE_0, LANE_1, LANE_2], LANE_0)
    assert lanes(state)[0] == [[10], None, [TOW_A, 12]]
    decide(state, 1, "insert", [LANE_0, LANE_1, LANE_2, FREE_0], LANE_0)
    assert state.is_terminal
    assert lanes(state) == [[[10], [11], [TOW_A, 12]], [[30], [31]], [[40]]]
    assert view(state)["place_cars"] == [[1, 1, 2], [1, 1], [1]]


# ----- rule 5: trailers -----


def test_a_trailer_is_stacked_and_never_makes_a_lane_full(backend: Backend) -> None:
    state = start(backend, [15, 30, 40], [[16, TRAILER_20], [17, 21], [18, 41]])
    play_turn(state, [16, 17, 18])
    commit(state, [TRAILER_20, 21, 41])
    # The trailer joins the 4-car lane 0 without a penalty; 21 then follows its 20 and takes
    # the full lane, trailer included.
    assert lanes(state) == [[[21]], [[30]], [[40], [41]]]
    assert penalties(state) == [0, 5, 0]


def test_a_trailer_on_a_full_lane_counts_no_car(backend: Backend) -> None:
    state = start(backend, [15, 30, 40], [[16, TRAILER_20], [17, 31], [18, 41]])
    play_turn(state, [16, 17, 18])
    play_turn(state, [TRAILER_20, 31, 41])
    assert lanes(state)[0] == [[15], [16], [17], [18, TRAILER_20]]
    assert view(state)["place_cars"][0] == [1, 1, 1, 1]
    assert view(state)["cars"] == [4, 2, 2]
    assert penalties(state) == [0, 0, 0]


def test_a_trailer_on_a_police_car_cancels_the_open_lane(backend: Backend) -> None:
    state = start(backend, [5, 25, 40], [[POLICE_A], [TRAILER_30], [35]])
    commit(state, [POLICE_A, TRAILER_30, 35])
    decide(state, 0, "police", [LANE_0, LANE_1, LANE_2], LANE_0)
    # The trailer 30 may follow 25 (closest) or go to the open lane 0.
    decide(state, 1, "target", [LANE_0, LANE_1], LANE_0)
    # Lane 0 now ends at 30, no longer open: 35 must follow it.
    assert state.is_terminal
    assert lanes(state) == [[[5], [POLICE_A, TRAILER_30], [35]], [[25]], [[40]]]


# ----- ambulance -----


def test_an_ambulance_goes_to_the_front_and_does_not_open_the_lane(backend: Backend) -> None:
    """ "Ambulanssi jää jonon ensimmäiseksi ja sen perään voi pelata minkä tahansa kortin." [The
    ambulance stays first in the lane and any card may be played after it.] Cards join a lane at its
    end: with a car behind the ambulance, the lane ends at that car (contract, Decisions 7)."""
    state = start(backend, [10, 20, 30], [[AMBULANCE_A], [25], [5]])
    commit(state, [AMBULANCE_A, 25, 5])
    decide(state, 0, "ambulance", [LANE_0, LANE_1, LANE_2], LANE_1)
    assert lanes(state)[1] == [[AMBULANCE_A], [20]]
    # Lane 1 ends at 20: 5 fits no lane.
    decide(state, 2, "take", [LANE_0, LANE_1, LANE_2], LANE_0)
    assert lanes(state) == [[[5]], [[AMBULANCE_A], [20], [25]], [[30]]]
    assert penalties(state) == [0, 0, 1]


def test_an_ambulance_making_a_fifth_car_takes_the_other_cards(backend: Backend) -> None:
    hands = [[33, 12], [35, AMBULANCE_A], [38, AMBULANCE_B]]
    state = start(backend, [10, 30, 45], hands)
    play_turn(state, [33, 35, 38])
    assert lanes(state)[1] == [[30], [33], [35], [38]]
    commit(state, [12, AMBULANCE_A, AMBULANCE_B])
    assert view(state)["queue"] == [1, 2, 0]
    decide(state, 1, "ambulance", [LANE_0, LANE_1, LANE_2], LANE_1)
    # The lane is checked only after the last ambulance of the turn has been placed.
    assert lanes(state)[1] == [[AMBULANCE_A], [30], [33], [35], [38]]
    assert penalties(state) == [0, 0, 0]
    # A second ambulance of this turn is stacked on the first; its owner (topmost) pays.
    decide(state, 2, "ambulance", [LANE_0, LANE_1, LANE_2], LANE_1)
    assert lanes(state)[1] == [[AMBULANCE_A, AMBULANCE_B]]
    assert view(state)["cars"] == [1, 1, 1]
    assert penalties(state) == [0, 0, 4]
    # Lane 1 now shows ambulances: open for 12, as well as lane 0 ending at 10.
    decide(state, 0, "target", [LANE_0, LANE_1], LANE_1)
    assert lanes(state) == [[[10]], [[AMBULANCE_A, AMBULANCE_B], [12]], [[45]]]
    assert penalties(state) == [0, 0, 4]
    assert state.winners == [0, 1]


def test_an_ambulance_of_an_earlier_turn_is_not_stacked_on(backend: Backend) -> None:
    hands = [[AMBULANCE_A, 11], [AMBULANCE_B, 21], [31, 32]]
    state = start(backend, [10, 20, 30], hands)
    commit(state, [AMBULANCE_A, 21, 31])
    decide(state, 0, "ambulance", [LANE_0, LANE_1, LANE_2], LANE_0)
    commit(state, [11, AMBULANCE_B, 32])
    decide(state, 1, "ambulance", [LANE_0, LANE_1, LANE_2], LANE_0)
    assert lanes(state) == [
        [[AMBULANCE_B], [AMBULANCE_A], [10], [11]],
        [[20], [21]],
        [[30], [31], [32]],
    ]


def test_an_ambulance_counts_a_tow_truck_left_alone_as_two_cars(backend: Backend) -> None:
    # Lane 0 = 12, 15, tow truck carrying 20 (2 cars) = 4 cars; the ambulance makes 5.
    hands = [[15, TOW_A, 16], [20, 33, AMBULANCE_A], [42, 43, 44]]
    state = start(backend, [12, 30, 41], hands)
    play_turn(state, [15, 20, 42])
    commit(state, [TOW_A, 33, 43])
    decide(state, 0, "tow_truck", [LANE_0, LANE_1, LANE_2], LANE_0)
    # 33 and 43 may fill the free place after 15; both owners decline.
    decide(state, 1, "target", [LANE_1, FREE_0], LANE_1)
    decide(state, 2, "target", [LANE_2, FREE_0], LANE_2)
    assert view(state)["place_cars"][0] == [1, 1, 2]
    commit(state, [16, AMBULANCE_A, 44])
    decide(state, 1, "ambulance", [LANE_0, LANE_1, LANE_2], LANE_0)
    # 16 follows the ambulance alone in the open lane 0 (no smaller end number elsewhere).
    assert lanes(state) == [[[AMBULANCE_A], [16]], [[30], [33]], [[41], [42], [43], [44]]]
    assert penalties(state) == [0, 4, 0]


# ----- police car -----


def test_a_police_car_goes_to_the_end_and_opens_the_lane(backend: Backend) -> None:
    """ "Pelaaja saa päättää, mihin jonoon asettaa poliisikortin. Poliisi toimii saattueena
    seuraavalle autolle: poliisikortin perään saa asettaa minkä tahansa kortin" [The player
    decides into which lane he puts the police card. The police escorts the next car: any card may
    be put after the police card.] It joins the chosen lane at its end; "Poliisi joutuu antamaan
    tietä vain ambulanssille" is the order of resolution, not a move to the front (contract,
    Decision 22)."""
    state = start(backend, [10, 20, 30], [[POLICE_A], [35], [5]])
    commit(state, [POLICE_A, 35, 5])
    decide(state, 0, "police", [LANE_0, LANE_1, LANE_2], LANE_0)
    # 5 may follow the police car (any number may); 35 then follows 30, the closest below it.
    assert state.is_terminal
    assert lanes(state) == [[[10], [POLICE_A], [5]], [[20]], [[30], [35]]]
    assert penalties(state) == [0, 0, 0]


def test_a_police_car_avoids_full_lanes_and_stacks_on_one_of_this_turn(backend: Backend) -> None:
    hands = [[11, POLICE_A], [12, POLICE_B], [13, POLICE_C]]
    state = start(backend, [10, 20, 30], hands)
    play_turn(state, [11, 12, 13])
    commit(state, [POLICE_A, POLICE_B, POLICE_C])
    assert state.action_label(LANE_0) == "police to lane 0"
    decide(state, 0, "police", [LANE_1, LANE_2], LANE_1)
    decide(state, 1, "police", [LANE_1, LANE_2], LANE_1)
    decide(state, 2, "police", [LANE_1, LANE_2], LANE_2)
    assert lanes(state) == [
        [[10], [11], [12], [13]],
        [[20], [POLICE_A, POLICE_B]],
        [[30], [POLICE_C]],
    ]
    assert view(state)["cars"] == [4, 2, 2]


def test_a_police_car_stacks_even_on_a_full_lane(backend: Backend) -> None:
    state = start(backend, [10, 20, 30], [[POLICE_A], [POLICE_B], [11]], max_cars=2)
    commit(state, [POLICE_A, POLICE_B, 11])
    decide(state, 0, "police", [LANE_0, LANE_1, LANE_2], LANE_1)
    assert view(state)["cars"] == [1, 2, 1]
    decide(state, 1, "police", [LANE_0, LANE_1, LANE_2], LANE_1)
    assert lanes(state)[1] == [[20], [POLICE_A, POLICE_B]]
    # 11 may follow 10 or go to the open lane 1, which is full: a car there takes it.
    decide(state, 2, "target", [LANE_0, LANE_1], LANE_1)
    assert lanes(state) == [[[10]], [[11]], [[30]]]
    assert penalties(state) == [0, 0, 3]


def test_a_police_car_with_every_lane_full_takes_a_lane(backend: Backend) -> None:
    hands = [[11, POLICE_A], [21, POLICE_B], [31, POLICE_C]]
    state = start(backend, [10, 20, 30], hands, max_cars=2)
    play_turn(state, [11, 21, 31])
    assert view(state)["cars"] == [2, 2, 2]
    commit(state, [POLICE_A, POLICE_B, POLICE_C])
    assert state.action_label(LANE_1) == "take lane 1"
    decide(state, 0, "police_take", [LANE_0, LANE_1, LANE_2], LANE_1)
    # The other police cars can only go to lane 1, where they are stacked on the first.
    assert state.is_terminal
    assert lanes(state) == [[[10], [11]], [[POLICE_A, POLICE_B, POLICE_C]], [[30], [31]]]
    assert penalties(state) == [2, 0, 0]
    assert state.winners == [1, 2]


# ----- tow truck -----

TOW_START = [12, 30, 41]
"""Lane starters of the tow-truck examples; after the first turn of ``tow_lanes`` lane 0 is
12, 15, 20 (3 cars), lane 1 is 30 and lane 2 is 41, 42."""


def tow_lanes(backend: Backend, seat_1: Sequence[int], seat_2: Sequence[int]) -> StateProtocol:
    """The tow-truck example of the contract: seat 0 holds 15 and tow truck 60."""
    state = start(backend, TOW_START, [[15, TOW_A, 21], [20, *seat_1], [42, *seat_2]])
    play_turn(state, [15, 20, 42])
    assert lanes(state) == [[[12], [15], [20]], [[30]], [[41], [42]]]
    return state


def test_a_tow_truck_lifts_the_last_car_and_a_card_fills_the_free_place(backend: Backend) -> None:
    """ "Ensimmäisenä ehtivä saa asettaa korttinsa hinattavan auton vapauttamalle paikalle
    noudattaen Pienimmästä isoimpaan -sääntöä." [The first in time may put his card in the place
    the towed car freed, following the increasing rule.] A card below every lane end is still too
    low ("liian pieni asetettavaksi mihinkään jonoon", read against the lane ends): it may fill
    the free place or take a lane (contract, Decisions 13 and 24)."""
    state = tow_lanes(backend, [18, 34], [25, 44])
    commit(state, [TOW_A, 18, 25])
    decide(state, 0, "tow_truck", [LANE_0, LANE_1, LANE_2], LANE_0)
    assert lanes(state)[0] == [[12], [15], None, [TOW_A, 20]]
    # 18 is too low for every lane end, but larger than 15: it may fill the free place.
    decide(state, 1, "take", [LANE_0, LANE_1, LANE_2, FREE_0], FREE_0)
    # 25 follows 20 in the lane that has 4 cars: it takes it.
    assert lanes(state) == [[[25]], [[30]], [[41], [42]]]
    assert penalties(state) == [0, 0, 5]


def test_a_trailer_on_a_tow_trucks_load_leaves_the_tow_truck_in_effect(backend: Backend) -> None:
    """ "Peräkärryn voi asettaa myös toisen peräkärryn tai jonkin muun erikoiskortin päälle
    (tällöin alla oleva erikoiskortti ei ole enää voimassa)." [A trailer may also be put on another
    trailer or another special card; the special card underneath is then no longer in effect.]
    The card underneath is the one the trailer is put on, the tow truck's load: the free place
    stays open for the rest of the turn and, left unfilled, the tow truck counts 2 (contract,
    Decision 23)."""
    state = tow_lanes(backend, [TRAILER_30, 34], [44, 43])
    commit(state, [TOW_A, TRAILER_30, 44])
    decide(state, 0, "tow_truck", [LANE_0, LANE_1, LANE_2], LANE_0)
    decide(state, 1, "target", [LANE_0, FREE_0], LANE_0)
    assert lanes(state)[0] == [[12], [15], None, [TOW_A, 20, TRAILER_30]]
    # The free place is still offered to the next numbered card; its owner declines it.
    decide(state, 2, "target", [LANE_2, FREE_0], LANE_2)
    assert lanes(state)[0] == [[12], [15], [TOW_A, 20, TRAILER_30]]
    assert view(state)["place_cars"][0] == [1, 1, 2]
    assert penalties(state) == [0, 0, 0]


def test_the_free_place_counts_as_a_car(backend: Backend) -> None:
    state = tow_lanes(backend, [33, 34], [25, 44])
    commit(state, [TOW_A, 33, 25])
    decide(state, 0, "tow_truck", [LANE_0, LANE_1, LANE_2], LANE_0)
    assert view(state)["cars"][0] == 4
    # 25 declines the free place and follows 20: lane 0 has 4 cars, the free place included.
    decide(state, 2, "target", [LANE_0, FREE_0], LANE_0)
    assert lanes(state) == [[[25]], [[30], [33]], [[41], [42]]]
    assert penalties(state) == [0, 0, 4]


def test_an_unfilled_free_place_disappears_and_the_tow_truck_counts_two(backend: Backend) -> None:
    state = tow_lanes(backend, [33, 34], [43, 44])
    commit(state, [TOW_A, 33, 43])
    decide(state, 0, "tow_truck", [LANE_0, LANE_1, LANE_2], LANE_0)
    decide(state, 1, "target", [LANE_1, FREE_0], LANE_1)
    decide(state, 2, "target", [LANE_2, FREE_0], LANE_2)
    observation = view(state)
    assert observation["lanes"] == [[[12], [15], [TOW_A, 20]], [[30], [33]], [[41], [42], [43]]]
    assert observation["place_cars"] == [[1, 1, 2], [1, 1], [1, 1, 1]]
    assert observation["cars"] == [4, 2, 3]
    commit(state, [21, 34, 44])
    # 21 follows 20 on the tow truck: lane 0 has 4 cars, so seat 0 takes its 4 cards. The tow
    # truck and its load are two penalty cards (Decision 21: "Pelaaja, jolla on vähiten
    # sakkokortteja, voittaa pelin" counts cards).
    assert lanes(state) == [[[21]], [[30], [33], [34]], [[41], [42], [43], [44]]]
    assert penalties(state) == [4, 0, 0]


def test_the_free_place_is_shown_as_null_while_the_turn_lasts(backend: Backend) -> None:
    state = tow_lanes(backend, [TOW_B, 34], [16, 44])
    commit(state, [TOW_A, TOW_B, 16])
    decide(state, 0, "tow_truck", [LANE_0, LANE_1, LANE_2], LANE_0)
    observation = view(state, 2)
    assert observation["lanes"][0] == [[12], [15], None, [TOW_A, 20]]
    assert observation["place_cars"][0] == [1, 1, 1, 1]
    assert observation["cars"] == [4, 1, 2]
    assert observation["resolving"] == TOW_B
    assert observation["queue"] == [1, 2]
    decide(state, 1, "tow_truck", [LANE_0, LANE_1, LANE_2], LANE_2)
    assert lanes(state)[2] == [[41], None, [TOW_B, 42]]
    # 16 is too low for every lane end; the free place of lane 0 (after 15) accepts it, the one
    # of lane 2 (after 41) does not.
    decide(state, 2, "take", [LANE_0, LANE_1, LANE_2, FREE_0], FREE_0)
    assert lanes(state) == [[[12], [15], [16], [TOW_A, 20]], [[30]], [[41], [TOW_B, 42]]]
    assert view(state)["place_cars"] == [[1, 1, 1, 1], [1], [1, 2]]


def test_a_tow_truck_as_fifth_car_takes_the_first_three(backend: Backend) -> None:
    hands = [[9, TOW_B], [14, 41], [22, 46]]
    state = start(backend, [40, 5, 45], hands)
    play_turn(state, [9, 14, 22])
    assert lanes(state)[1] == [[5], [9], [14], [22]]
    commit(state, [TOW_B, 41, 46])
    decide(state, 0, "tow_truck", [LANE_0, LANE_1, LANE_2], LANE_1)
    # No free place opens: the tow truck with its load is the lane's only place, 1 car.
    assert lanes(state)[1] == [[TOW_B, 22]]
    assert penalties(state) == [3, 0, 0]
    # 41 follows 40 and 46 follows 45, without a choice.
    assert state.is_terminal
    assert view(state)["cars"] == [2, 1, 2]
    assert lanes(state) == [[[40], [41]], [[TOW_B, 22]], [[45], [46]]]
    assert view(state)["place_cars"] == [[1, 1], [1], [1, 1]]


def tow_truck_into_lane_1(backend: Backend, second: int) -> StateProtocol:
    """Lanes 40, 5, 45; seats commit the tow truck, ``second`` and 46; the tow truck goes into
    lane 1, a lane of one place, which opens the free place at its front."""
    state = start(backend, [40, 5, 45], [[TOW_B], [second], [46]])
    commit(state, [TOW_B, second, 46])
    decide(state, 0, "tow_truck", [LANE_0, LANE_1, LANE_2], LANE_1)
    return state


def test_a_free_place_at_the_front_left_unfilled(backend: Backend) -> None:
    # A tow truck into a lane of one place opens the free place at the front.
    state = tow_truck_into_lane_1(backend, 41)
    assert lanes(state)[1] == [None, [TOW_B, 5]]
    assert view(state)["cars"] == [1, 2, 1]
    assert state.action_label(FREE_1) == "fill the free place in lane 1"
    decide(state, 1, "target", [LANE_0, FREE_1], LANE_0)
    # The open free place is still there for 46 too.
    decide(state, 2, "target", [LANE_2, FREE_1], LANE_2)
    assert lanes(state) == [[[40], [41]], [[TOW_B, 5]], [[45], [46]]]
    assert view(state)["place_cars"] == [[1, 1], [2], [1, 1]]


def test_a_too_low_card_may_fill_an_open_free_place(backend: Backend) -> None:
    state = tow_truck_into_lane_1(backend, 3)
    # 3 fits no lane end: it takes a lane, or fills the free place at the front of lane 1.
    assert state.action_label(FREE_1) == "fill the free place in lane 1"
    assert state.action_label(LANE_1) == "take lane 1"
    decide(state, 1, "take", [LANE_0, LANE_1, LANE_2, FREE_1], FREE_1)
    assert lanes(state) == [[[40]], [[3], [TOW_B, 5]], [[45], [46]]]
    assert view(state)["place_cars"] == [[1], [1, 1], [1, 1]]
    assert penalties(state) == [0, 0, 0]


def two_tow_trucks_after(backend: Backend, first_turn: list[int], second: int) -> StateProtocol:
    """Lanes 30, 40, 7; after ``first_turn`` (a card per seat) seats 0 and 2 commit the tow
    trucks A and C and seat 1 commits ``second``."""
    hands = [[first_turn[0], TOW_A], [first_turn[1], second], [first_turn[2], TOW_C]]
    state = start(backend, [30, 40, 7], hands)
    play_turn(state, first_turn)
    commit(state, [TOW_A, second, TOW_C])
    return state


def test_a_second_tow_truck_lifts_the_first_with_its_load(backend: Backend) -> None:
    state = two_tow_trucks_after(backend, [13, 31, 41], 10)
    assert view(state)["queue"] == [0, 2, 1]
    decide(state, 0, "tow_truck", [LANE_0, LANE_1, LANE_2], LANE_2)
    assert lanes(state)[2] == [[7], None, [TOW_A, 13]]
    assert view(state)["cars"] == [2, 2, 3]
    decide(state, 2, "tow_truck", [LANE_0, LANE_1, LANE_2], LANE_2)
    assert lanes(state)[2] == [[7], None, [TOW_C, TOW_A, 13]]
    # One free place, before the newest tow truck; 10, too low for every lane end, fills it.
    decide(state, 1, "take", [LANE_0, LANE_1, LANE_2, FREE_2], FREE_2)
    assert lanes(state) == [[[30], [31]], [[40], [41]], [[7], [10], [TOW_C, TOW_A, 13]]]
    assert view(state)["place_cars"] == [[1, 1], [1, 1], [1, 1, 1]]
    assert penalties(state) == [0, 0, 0]


def test_a_second_tow_truck_as_fifth_car(backend: Backend) -> None:
    state = two_tow_trucks_after(backend, [9, 13, 31], 32)
    decide(state, 0, "tow_truck", [LANE_0, LANE_1, LANE_2], LANE_2)
    assert lanes(state)[2] == [[7], [9], None, [TOW_A, 13]]
    assert view(state)["cars"] == [2, 1, 4]
    decide(state, 2, "tow_truck", [LANE_0, LANE_1, LANE_2], LANE_2)
    # The first tow truck's free place goes too; no new one opens.
    assert lanes(state)[2] == [[TOW_C, TOW_A, 13]]
    assert penalties(state) == [0, 0, 2]
    # 32 follows 31 without a choice.
    assert state.is_terminal
    assert lanes(state) == [[[30], [31], [32]], [[40]], [[TOW_C, TOW_A, 13]]]
    assert view(state)["place_cars"] == [[1, 1, 1], [1], [1]]


def test_a_tow_truck_carrying_a_police_car_leaves_the_lane_open(backend: Backend) -> None:
    """ "Poliisi toimii saattueena seuraavalle autolle: poliisikortin perään saa asettaa minkä
    tahansa kortin, jossa on mikä tahansa luku." [The police escorts the next car: any card with
    any number may be put after the police card.] A tow truck that lifts the police car carries it
    on top, still in effect (contract, Decision 25)."""
    state = start(backend, [10, 20, 30], [[POLICE_A], [TOW_A], [5]])
    commit(state, [POLICE_A, TOW_A, 5])
    decide(state, 0, "police", [LANE_0, LANE_1, LANE_2], LANE_0)
    decide(state, 1, "tow_truck", [LANE_0, LANE_1, LANE_2], LANE_0)
    # 5 fits only the open end of lane 0 (the free place follows 10).
    assert state.is_terminal
    assert lanes(state) == [[[10], [TOW_A, POLICE_A], [5]], [[20]], [[30]]]
    assert view(state)["place_cars"] == [[1, 2, 1], [1], [1]]
    assert view(state)["cars"] == [4, 1, 1]


def test_a_free_place_above_the_towed_car_takes_a_larger_card(backend: Backend) -> None:
    """ "Ensimmäisenä ehtivä saa asettaa korttinsa hinattavan auton vapauttamalle paikalle
    noudattaen Pienimmästä isoimpaan -sääntöä." [The first in time may put his card in the place
    the towed car freed, following the increasing rule.] The rule tests the card in front only
    ("isompi kuin jonossa viimeisenä olevan kortin luku", larger than the last card's number): 25
    may take the place of the towed 20 (contract, Decision 13)."""
    state = tow_lanes(backend, [33, 34], [25, 44])
    commit(state, [TOW_A, 33, 25])
    decide(state, 0, "tow_truck", [LANE_0, LANE_1, LANE_2], LANE_0)
    decide(state, 2, "target", [LANE_0, FREE_0], FREE_0)
    assert lanes(state) == [[[12], [15], [25], [TOW_A, 20]], [[30], [33]], [[41], [42]]]
    assert view(state)["place_cars"][0] == [1, 1, 1, 1]
    assert penalties(state) == [0, 0, 0]


def test_a_tow_truck_carrying_a_lone_ambulance_leaves_it_open(backend: Backend) -> None:
    """ "Kun jonon ensimmäinen kortti on ambulanssikortti, pelaaja saa päättää, asettaako hän
    korttinsa ambulanssin perään, vai johonkin muuhun sopivaan jonoon." [When a lane's first card is
    an ambulance, the player may choose to put his card after the ambulance or into another lane
    that fits.] A tow truck that lifts an ambulance standing alone in its lane carries it on top,
    and the ambulance is still the lane's first card: any number may follow it (contract,
    Decision 25)."""
    hands = [[11, AMBULANCE_A, TOW_A], [12, 21, 5], [13, 31, 45]]
    state = start(backend, [10, 20, 30], hands)
    play_turn(state, [11, 12, 13])
    commit(state, [AMBULANCE_A, 21, 31])
    # The ambulance is lane 0's fifth car: seat 0 takes the other four and it stands alone.
    decide(state, 0, "ambulance", [LANE_0, LANE_1, LANE_2], LANE_0)
    decide(state, 1, "target", [LANE_0, LANE_1], LANE_1)
    decide(state, 2, "target", [LANE_0, LANE_2], LANE_2)
    assert lanes(state)[0] == [[AMBULANCE_A]]
    commit(state, [TOW_A, 5, 45])
    decide(state, 0, "tow_truck", [LANE_0, LANE_1, LANE_2], LANE_0)
    assert lanes(state)[0] == [None, [TOW_A, AMBULANCE_A]]
    # 5 is below every numbered lane end, and yet it may follow the towed ambulance.
    decide(state, 1, "target", [LANE_0, FREE_0], LANE_0)
    decide(state, 2, "target", [LANE_2, FREE_0], LANE_2)
    assert lanes(state) == [[[TOW_A, AMBULANCE_A], [5]], [[20], [21]], [[30], [31], [45]]]
    assert penalties(state) == [4, 0, 0]


def test_the_place_behind_a_police_car_freed_by_a_tow_truck_takes_any_number(
    backend: Backend,
) -> None:
    """ "Poliisi toimii saattueena seuraavalle autolle." [The police escorts the next car.] When a
    tow truck lifts the car behind a police car, the car that fills the freed place is the police
    car's next car, and may have any number (contract, Decision 26)."""
    state = start(backend, [10, 30, 40], [[POLICE_A, TOW_A], [41, 5], [31, 45]])
    commit(state, [POLICE_A, 41, 31])
    decide(state, 0, "police", [LANE_0, LANE_1, LANE_2], LANE_0)
    decide(state, 2, "target", [LANE_0, LANE_1], LANE_0)
    assert lanes(state)[0] == [[10], [POLICE_A], [31]]
    commit(state, [TOW_A, 5, 45])
    decide(state, 0, "tow_truck", [LANE_0, LANE_1, LANE_2], LANE_0)
    assert lanes(state)[0] == [[10], [POLICE_A], None, [TOW_A, 31]]
    # 5 fits no lane end; the place after the police car accepts it.
    decide(state, 1, "take", [LANE_0, LANE_1, LANE_2, FREE_0], FREE_0)
    assert state.is_terminal
    assert lanes(state) == [[[10], [POLICE_A], [5], [TOW_A, 31]], [[30]], [[40], [41], [45]]]
    assert penalties(state) == [0, 0, 0]


# ----- fewer lanes -----


def test_two_lanes_without_special_cards(backend: Backend) -> None:
    state = start(backend, [10, 20], [[5], [15]], lanes=2, special_cards=False)
    assert view(state)["lanes"] == [[[10]], [[20]]]
    commit(state, [5, 15])
    assert state.action_label(LANE_2) == "action 102"
    assert state.action_label(FREE_0) == "fill the free place in lane 0"
    assert state.action_label(FREE_2) == "action 112"
    decide(state, 0, "take", [LANE_0, LANE_1], LANE_1)
    assert lanes(state) == [[[10], [15]], [[5]]]
    assert penalties(state) == [1, 0]


def test_a_single_option_is_applied_automatically(backend: Backend) -> None:
    state = start(backend, [10], [[AMBULANCE_A], [5]], lanes=1)
    commit(state, [AMBULANCE_A, 5])
    # The ambulance has one lane to go to, and 5 fits nowhere and takes the only lane.
    assert state.is_terminal
    assert lanes(state) == [[[5]]]
    assert penalties(state) == [0, 2]
    assert state.history == [10, AMBULANCE_A, 5, AMBULANCE_A, 5]


def test_the_last_turns_reveal_stays_in_view(backend: Backend) -> None:
    """Decision 20: the reveal of the last turn that has ended stays in view (``last_revealed``).

    "Valitut kortit käännetään auki samanaikaisesti." (The chosen cards are turned face up
    simultaneously.) Here every card of a turn has a single option, so the turn resolves within
    the apply of its last commitment, and 11 even leaves the table in it (12 takes the full
    lane): only ``last_revealed`` shows it to the seats at their next decision.
    """
    options = {"lanes": 1, "max_cars": 2}
    game = new_game(backend, 2, hand_size=2, **options)
    dealing = game.new_state()
    assert view(dealing)["last_revealed"] is None
    assert dealing.to_dict()["state"]["last_revealed"] is None
    state = start(backend, [10], [[11, 13], [12, 14]], **options)
    assert view(state)["last_revealed"] is None
    at_turn_0 = state.to_dict()
    state.apply(11)
    assert view(state, 1)["last_revealed"] is None
    state.apply(12)
    # 11 follows 10 (2 cars, full); 12 then follows 11 into the full lane and takes 10 and 11.
    assert lanes(state) == [[[12]]]
    assert penalties(state) == [0, 2]
    for seat in (0, 1):
        observation = view(state, seat)
        assert observation["turn"] == 1
        assert observation["decision"] == "commit"
        assert observation["revealed"] is None
        assert observation["last_revealed"] == [11, 12]
    data = state.to_dict()
    assert data["state"]["revealed"] is None
    assert data["state"]["last_revealed"] == [11, 12]
    assert game.state_from_dict(data).to_dict() == data
    # The tensor segment `last_revealed` follows `revealed`: 517 entries before it with 2 seats
    # and 1 lane, then one-hot(card - 1, 62) per seat.
    tensor = state.observation_tensor(1)
    assert tensor.shape == (385 + 64 + 128 * 2,)
    segment = tensor[517 : 517 + 62 * 2]
    assert [int(i) for i in segment.nonzero()[0]] == [11 - 1, 62 + 12 - 1]
    assert segment.sum() == 2
    # A state dict with a bad `last_revealed` is refused.
    bad_dicts = []
    for wrong in ([11], [11, 12, 10], [11, 14], [11, 11], None):  # 14 is in seat 1's hand
        bad = state.to_dict()
        bad["state"]["last_revealed"] = wrong
        bad_dicts.append(bad)
    bad = dict(at_turn_0, state=dict(at_turn_0["state"], last_revealed=[11, 12]))
    bad_dicts.append(bad)
    for bad in bad_dicts:
        with pytest.raises(InvalidStateError):
            game.state_from_dict(bad)
    # It stays until the next turn ends, then holds that turn's cards, also at the end.
    state.apply(13)
    assert view(state, 1)["last_revealed"] == [11, 12]
    state.apply(14)
    assert state.is_terminal
    assert view(state)["revealed"] is None
    assert view(state)["last_revealed"] == [13, 14]
    assert state.to_dict()["state"]["last_revealed"] == [13, 14]


# ----- end and scoring -----


def test_the_game_ends_after_hand_size_turns_fewest_penalties_win(backend: Backend) -> None:
    state = start(backend, [10, 20, 30], [[5, 6], [21, 7], [31, 32]])
    commit(state, [5, 21, 31])
    decide(state, 0, "take", [LANE_0, LANE_1, LANE_2], LANE_2)
    # 31 then follows 21, the closest below it.
    assert lanes(state) == [[[10]], [[20], [21], [31]], [[5]]]
    assert state.scores == [1, 0, 0]
    assert state.winners == []
    commit(state, [6, 7, 32])
    assert lanes(state) == [[[10]], [[20], [21], [31], [32]], [[5], [6], [7]]]
    assert state.is_terminal
    assert state.current_player == TERMINAL
    assert state.legal_actions() == []
    assert state.scores == [1, 0, 0]
    assert state.winners == [1, 2]
    observation = view(state)
    assert observation["phase"] == "over"
    assert observation["decision"] is None
    assert observation["turn"] == 2
    assert observation["revealed"] is None
    assert observation["resolving"] is None
    assert observation["queue"] == []
    assert observation["hand"] == []
    assert state.action_label(5) == "action 5"
    assert state.action_label(100) == "action 100"


def test_a_single_winner(backend: Backend) -> None:
    state = start(backend, [10, 20, 30], [[5], [21]])
    commit(state, [5, 21])
    decide(state, 0, "take", [LANE_0, LANE_1, LANE_2], LANE_0)
    assert state.is_terminal
    assert lanes(state) == [[[5]], [[20], [21]], [[30]]]
    assert state.scores == [1, 0]
    assert state.winners == [1]


# ----- labels -----


def test_play_labels_name_the_card_as_the_hand_shows_it(backend: Backend) -> None:
    """A car by its number, every other card by its kind with its id (contract, labels)."""
    state = start(backend, [10, 20, 30], [[23, 51, 54], [57, 60, 7], [31, 32, 33]])
    labels = {a: state.action_label(a) for a in state.legal_actions()}
    assert labels == {
        23: "play 23",
        51: "play trailer 10 (51)",
        54: "play ambulance (54)",
    }
    commit(state, [23])
    assert [state.action_label(a) for a in state.legal_actions()] == [
        "play 7",
        "play police (57)",
        "play tow truck (60)",
    ]


def test_labels_depend_on_the_node_not_on_legality(backend: Backend) -> None:
    state = start(backend, [10, 20, 30], [[5, 6], [21, 7], [31, 32]])
    assert state.action_label(62) == "play tow truck (62)"
    assert state.action_label(63) == "action 63"
    assert state.action_label(0) == "action 0"
    assert state.action_label(110) == "action 110"
    commit(state, [5, 21, 31])
    assert view(state)["decision"] == "take"
    assert state.action_label(LANE_0) == "take lane 0"
    assert state.action_label(103) == "action 103"
    assert state.action_label(FREE_0) == "fill the free place in lane 0"
    assert state.action_label(113) == "action 113"
    assert state.action_label(5) == "action 5"
    state = start(backend, [10, 20, 30], [[AMBULANCE_A], [22], [31]])
    commit(state, [AMBULANCE_A, 22, 31])
    assert state.action_label(FREE_2) == "action 112"
    assert state.action_label(114) == "action 114"
    state = start(backend, [20, 15, 40], [[TRAILER_20], [23], [41]])
    commit(state, [TRAILER_20, 23, 41])
    assert view(state)["decision"] == "target"
    assert state.action_label(LANE_2) == "to lane 2"
    assert state.action_label(FREE_2) == "fill the free place in lane 2"
    assert state.action_label(113) == "action 113"
    assert state.action_label(103) == "action 103"


# ----- bad input -----


def test_a_special_card_cannot_start_a_lane(backend: Backend) -> None:
    state = new_game(backend).new_state()
    for card in (TRAILER_10, AMBULANCE_A, POLICE_A, TOW_A):
        assert_rejected(state, card)
    state.apply(7)
    assert_rejected(state, 7)


def test_a_card_cannot_be_dealt_twice_or_outside_the_deck(backend: Backend) -> None:
    state = new_game(backend, 2, hand_size=2, max_number=20).new_state()
    assert_rejected(state, 21)
    for card in (7, 8, 9, 12):
        state.apply(card)
    for card in (7, 12, 30, TRAILER_30, 0, 100):
        assert_rejected(state, card)


def test_illegal_commitments_are_rejected(backend: Backend) -> None:
    state = start(backend, [10, 20, 30], [[11, 12], [21, 22], [31, 32]])
    for card in (21, 13, 0, 100, 114, 115, -1):
        assert_rejected(state, card)
    assert_rejected(state, 11, player=1)
    state.apply(11)
    assert_rejected(state, 12)
    assert_rejected(state, 11)


def test_illegal_resolution_choices_are_rejected(backend: Backend) -> None:
    hands = [[11, POLICE_A], [12, 22], [13, 31]]
    state = start(backend, [10, 20, 30], hands)
    play_turn(state, [11, 12, 13])
    commit(state, [POLICE_A, 22, 31])
    assert state.legal_actions() == [LANE_1, LANE_2]
    for action in (LANE_0, 103, FREE_1, POLICE_A, 22, 115):
        assert_rejected(state, action)
    assert_rejected(state, LANE_1, player=1)
    state.apply(LANE_1)
    # 22 may follow 13 in the full lane 0 or the police car in the open lane 1.
    assert state.current_player == 1
    assert state.legal_actions() == [LANE_0, LANE_1]
    for action in (LANE_2, FREE_0, FREE_1, 22, 0):
        assert_rejected(state, action)
    assert_rejected(state, LANE_1, player=0)


def test_nothing_can_be_applied_after_the_end(backend: Backend) -> None:
    state = start(backend, [10, 20, 30], [[11], [21], [31]])
    commit(state, [11, 21, 31])
    assert state.is_terminal
    for action in (11, 100, 0):
        assert_rejected(state, action)


# ----- readings of the booklet's sentences -----


def test_two_ambulances_in_one_place_the_topmost_one_pays(backend: Backend) -> None:
    """Two ambulances stacked in a lane that overflows: the topmost one's owner pays.

    "Jos kaksi pelaajaa pelaa ambulanssikortin, ja he haluavat korttinsa samaan paikkaan,
    kortit pistetään päällekkäin. Jos ambulanssikortti on jonon viides kortti, päällimmäisenä
    olevan ambulanssikortin pelannut pelaaja joutuu ottamaan jonon muut kortit sakkona."

    (If two players play an ambulance and want their cards in the same place, the cards are
    stacked. If the ambulance is the lane's fifth card, the player of the TOPMOST ambulance takes
    the lane's other cards as penalty.) All ambulances of the turn are placed first; the check
    comes after the last one.
    """
    state = start(backend, [2, 30, 40], [[3, 5, AMBULANCE_A], [4, 31, AMBULANCE_B]])
    play_turn(state, [3, 4])
    play_turn(state, [5, 31])
    assert lanes(state)[0] == [[2], [3], [4], [5]]
    commit(state, [AMBULANCE_A, AMBULANCE_B])
    decide(state, 0, "ambulance", [LANE_0, LANE_1, LANE_2], LANE_0)
    assert lanes(state)[0] == [[AMBULANCE_A], [2], [3], [4], [5]]
    assert penalties(state) == [0, 0]
    decide(state, 1, "ambulance", [LANE_0, LANE_1, LANE_2], LANE_0)
    assert state.is_terminal
    assert lanes(state) == [[[AMBULANCE_A, AMBULANCE_B]], [[30], [31]], [[40]]]
    assert view(state)["place_cars"] == [[1], [1, 1], [1]]
    assert penalties(state) == [0, 4]


def test_the_ambulance_check_waits_for_the_last_ambulance_of_the_turn(backend: Backend) -> None:
    # Seat 0's ambulance makes lane 0 five cars; seat 1's goes to lane 1 first, then the check:
    # each lane's own (topmost) ambulance owner pays, whatever the order of placing.
    state = start(backend, [2, 30, 40], [[3, 5, AMBULANCE_A], [4, 31, AMBULANCE_B]])
    play_turn(state, [3, 4])
    play_turn(state, [5, 31])
    commit(state, [AMBULANCE_A, AMBULANCE_B])
    decide(state, 0, "ambulance", [LANE_0, LANE_1, LANE_2], LANE_0)
    decide(state, 1, "ambulance", [LANE_0, LANE_1, LANE_2], LANE_1)
    assert lanes(state) == [[[AMBULANCE_A]], [[AMBULANCE_B], [30], [31]], [[40]]]
    assert penalties(state) == [4, 0]


def test_a_tow_truck_as_fifth_car_leaves_no_free_place(backend: Backend) -> None:
    """A tow truck as the 5th car becomes the lane's only place; no free place opens.

    "Jos pelaaja asettaa hinausauton jonon viidenneksi, hän lastaa auton ensin edeltävällä
    autolla, ja kerää sitten jonon kolme ensimmäistä korttia sakoksi. Hinausauto ja sen päällä
    oleva kortti jätetään uuden jonon ensimmäiseksi kortiksi."

    (If a player puts the tow truck fifth in a lane, he first loads it with the car before it,
    then collects the lane's first three cards as penalty. The tow truck and the card on it are
    left as the first card of the new lane.) The tow truck with its load is the lane's only place
    and counts as 1 car: no free place opens, so a card too low for every lane takes a lane.
    """
    state = start(backend, [2, 30, 40], [[3, 5, TOW_A], [4, 31, 1]])
    play_turn(state, [3, 4])
    play_turn(state, [5, 31])
    commit(state, [TOW_A, 1])
    decide(state, 0, "tow_truck", [LANE_0, LANE_1, LANE_2], LANE_0)
    assert lanes(state)[0] == [[TOW_A, 5]]
    assert view(state)["place_cars"][0] == [1]
    assert penalties(state) == [3, 0]
    # 1 is too low for every lane, and there is no free place to go to.
    decide(state, 1, "take", [LANE_0, LANE_1, LANE_2], LANE_1)
    assert state.is_terminal
    assert lanes(state) == [[[TOW_A, 5]], [[1]], [[40]]]
    assert view(state)["place_cars"] == [[1], [1], [1]]
    assert penalties(state) == [3, 2]


def test_the_owner_may_choose_the_free_place_over_the_closest_lane(backend: Backend) -> None:
    """The free place is an alternative to rule 2, not a competitor.

    "Ensimmäisenä ehtivä saa asettaa korttinsa hinattavan auton vapauttamalle paikalle
    noudattaen Pienimmästä isoimpaan -sääntöä."

    (The first to get there MAY put their card into the place the towed car freed, following the
    smallest-to-largest rule.) The free place is an alternative to where rules 1-4 send the card;
    the smallest-difference rule does not apply to it: 25 may fill the free place after 15 although
    the end 20 of the same lane is closer.
    """
    state = tow_lanes(backend, [33, 34], [25, 44])
    commit(state, [TOW_A, 33, 25])
    decide(state, 0, "tow_truck", [LANE_0, LANE_1, LANE_2], LANE_0)
    assert lanes(state)[0] == [[12], [15], None, [TOW_A, 20]]
    decide(state, 2, "target", [LANE_0, FREE_0], FREE_0)
    # Filled, the free place is gone: 33 follows 30 without a choice.
    assert lanes(state) == [[[12], [15], [25], [TOW_A, 20]], [[30], [33]], [[41], [42]]]
    assert view(state)["place_cars"] == [[1, 1, 1, 1], [1, 1], [1, 1]]
    assert penalties(state) == [0, 0, 0]


def test_an_owner_may_decline_the_free_place_and_a_later_card_fills_it(backend: Backend) -> None:
    """Filling the free place is a permission: declined, it waits for a later card.

    "Ensimmäisenä ehtivä saa asettaa korttinsa hinattavan auton vapauttamalle paikalle
    noudattaen Pienimmästä isoimpaan -sääntöä."

    (The first to get there MAY put their card into the place the towed car freed.) A card that
    is not put there leaves it to the next numbered card of the turn, in resolution order; even a
    card too low for every lane end is not forced into it.
    """
    state = tow_lanes(backend, [16, 34], [33, 44])
    commit(state, [TOW_A, 16, 33])
    decide(state, 0, "tow_truck", [LANE_0, LANE_1, LANE_2], LANE_0)
    # 16 is too low for every lane end: it takes a lane or fills the free place; it takes lane 1.
    decide(state, 1, "take", [LANE_0, LANE_1, LANE_2, FREE_0], LANE_1)
    assert lanes(state) == [[[12], [15], None, [TOW_A, 20]], [[16]], [[41], [42]]]
    assert penalties(state) == [0, 1, 0]
    # 33 follows 20 under rule 2 (taking the full lane 0), or fills the free place after 15.
    decide(state, 2, "target", [LANE_0, FREE_0], FREE_0)
    assert lanes(state) == [[[12], [15], [33], [TOW_A, 20]], [[16]], [[41], [42]]]
    assert view(state)["place_cars"] == [[1, 1, 1, 1], [1], [1, 1]]


def test_the_free_place_follows_the_increasing_rule(backend: Backend) -> None:
    """A free place accepts only a card larger than the number before it.

    "… noudattaen Pienimmästä isoimpaan -sääntöä."

    (… following the smallest-to-largest rule.) A free place accepts only a card larger than the
    number before it: 14 may not fill the free place after 15.
    """
    state = tow_lanes(backend, [14, 34], [43, 44])
    commit(state, [TOW_A, 14, 43])
    decide(state, 0, "tow_truck", [LANE_0, LANE_1, LANE_2], LANE_0)
    assert_rejected(state, FREE_0, player=1)
    decide(state, 1, "take", [LANE_0, LANE_1, LANE_2], LANE_2)
    assert lanes(state)[2] == [[14]]
    assert penalties(state) == [0, 2, 0]


def test_resolution_order_ambulance_police_tow_truck_then_numbered(backend: Backend) -> None:
    """Resolution order: ambulances, police cars, tow trucks, then numbered cards.

    "Kortit pelataan järjestyksessä ambulanssi, poliisi, autokortit numerojärjestyksessä ja
    viimeisenä hinausautokortti" and "Hinausautokortti pelataan aina vuoron viimeisenä
    erikoiskorttina, kuitenkin ennen tavallisia kortteja".

    (The cards are played in the order ambulance, police, car cards in numerical order and last
    the tow truck card. / The tow truck card is always played as the last special card of the
    turn, but before the ordinary cards.) The booklet contradicts itself; the second, specific
    sentence is followed: ambulances, police cars, tow trucks, then the numbered cards. So the
    numbered cards of the turn may fill the tow truck's free place.
    """
    hands = [[14], [TOW_C], [13], [POLICE_B], [AMBULANCE_B]]
    state = start(backend, [10, 20, 30], hands)
    commit(state, [14, TOW_C, 13, POLICE_B, AMBULANCE_B])
    assert view(state)["queue"] == [4, 3, 1, 2, 0]
    assert view(state)["resolving"] == AMBULANCE_B
    decide(state, 4, "ambulance", [LANE_0, LANE_1, LANE_2], LANE_2)
    assert view(state)["resolving"] == POLICE_B
    decide(state, 3, "police", [LANE_0, LANE_1, LANE_2], LANE_2)
    assert view(state)["resolving"] == TOW_C
    decide(state, 1, "tow_truck", [LANE_0, LANE_1, LANE_2], LANE_0)
    assert lanes(state)[0] == [None, [TOW_C, 10]]
    # 13 follows 10 or the police car, or fills the free place the tow truck opened this turn.
    assert view(state)["resolving"] == 13
    decide(state, 2, "target", [LANE_0, LANE_2, FREE_0], FREE_0)
    assert view(state)["resolving"] == 14
    decide(state, 0, "target", [LANE_0, LANE_2], LANE_0)
    assert lanes(state) == [
        [[13], [TOW_C, 10], [14]],
        [[20]],
        [[AMBULANCE_B], [30], [POLICE_B]],
    ]


# ----- rule events (contract, "Rule events") -----


def events_of(state: StateProtocol, action: int) -> list[str]:
    """The rule events of ``action``, checking that asking leaves the state as it was."""
    before = state.to_dict()
    events = state.rule_events_of(action)
    assert state.to_dict() == before
    return events


def test_event_lane_taken_by_the_5th_car(backend: Backend) -> None:
    """Rule 3: "Jos pelaaja joutuu lisäämään kortin jonoon, jossa on jo neljä autoa, hän joutuu
    ottamaan kaikki jonon kortit sakoksi." The turn's last commitment resolves the whole turn."""
    state = start(backend, [10, 20, 30], [[11, 14], [12, 15], [13, 31]])
    play_turn(state, [11, 12, 13])
    assert events_of(state, 14) == []  # not the last commitment: nothing is resolved yet
    commit(state, [14, 15])
    assert events_of(state, 31) == ["lane taken by the 5th car"]
    state.apply(31)
    assert penalties(state) == [4, 0, 0]


def test_event_too_low_card_takes_a_lane(backend: Backend) -> None:
    """Rule 4: "Jos pelaajan kortin luku on liian pieni asetettavaksi mihinkään jonoon, pelaaja
    joutuu ottamaan kaikki valitsemansa jonon kortit sakoksi." The event belongs to the step that
    carries the card out, not to the reveal that stops at its owner's decision."""
    state = start(backend, [10, 20, 30], [[5], [21], [31]])
    commit(state, [5, 21])
    assert events_of(state, 31) == []
    state.apply(31)
    assert events_of(state, LANE_1) == ["too-low card takes a lane"]


def test_event_too_low_card_inserted(backend: Backend) -> None:
    """``too_low="insert"``: "Kortit, joissa on liian pieni luku voidaan asettaa ruuhkaan jonon
    keskelle tai eteen." """
    state = start(backend, [10, 20, 30], [[5], [21], [31]], too_low="insert")
    commit(state, [5, 21, 31])
    assert view(state)["decision"] == "insert"
    assert events_of(state, LANE_2) == ["too-low card inserted"]
    state.apply(LANE_2)
    assert lanes(state) == [[[10]], [[20], [21]], [[5], [30], [31]]]


def test_event_trailer_on_a_full_lane(backend: Backend) -> None:
    """Rule 5: "Pelaaja voi siis asettaa peräkärrykortin ilman sakkoja jonoon, jossa on jo neljä
    autoa." """
    state = start(backend, [15, 30, 40], [[16, TRAILER_20], [17, 31], [18, 41]])
    play_turn(state, [16, 17, 18])
    commit(state, [TRAILER_20, 31])
    assert events_of(state, 41) == ["trailer on a full lane"]
    state.apply(41)
    assert penalties(state) == [0, 0, 0]


def test_event_stacked_ambulances(backend: Backend) -> None:
    """ "Jos kaksi pelaajaa pelaa ambulanssikortin, ja he haluavat korttinsa samaan paikkaan,
    kortit pistetään päällekkäin." """
    state = start(backend, [10, 20, 30], [[AMBULANCE_A], [AMBULANCE_B], [31]])
    commit(state, [AMBULANCE_A, AMBULANCE_B, 31])
    assert events_of(state, LANE_0) == []
    state.apply(LANE_0)
    assert events_of(state, LANE_1) == []  # another lane: a new front place
    assert events_of(state, LANE_0) == ["stacked ambulances"]
    state.apply(LANE_0)
    assert lanes(state)[0] == [[AMBULANCE_A, AMBULANCE_B], [10]]


def test_event_ambulance_as_5th_car(backend: Backend) -> None:
    """ "Jos ambulanssikortti on jonon viides kortti, päällimmäisenä olevan ambulanssikortin
    pelannut pelaaja joutuu ottamaan jonon muut kortit sakkona." The check runs after the turn's
    last ambulance: the event belongs to the step that places it."""
    hands = [[33, 12], [35, AMBULANCE_A], [38, AMBULANCE_B]]
    state = start(backend, [10, 30, 45], hands)
    play_turn(state, [33, 35, 38])
    commit(state, [12, AMBULANCE_A, AMBULANCE_B])
    assert events_of(state, LANE_1) == []
    state.apply(LANE_1)
    assert events_of(state, LANE_0) == ["ambulance as 5th car"]
    assert events_of(state, LANE_1) == ["stacked ambulances", "ambulance as 5th car"]
    state.apply(LANE_1)
    assert penalties(state) == [0, 0, 4]


def test_event_stacked_police_cars(backend: Backend) -> None:
    """ "Jos kaksi pelaajaa pelaa poliisikortin ja he haluavat asettaa korttinsa samaan paikkaan,
    kortit pistetään päällekkäin" (also at the end of a full lane, Decisions 9)."""
    state = start(backend, [10, 20, 30], [[POLICE_A], [POLICE_B], [11]], max_cars=2)
    commit(state, [POLICE_A, POLICE_B, 11])
    assert events_of(state, LANE_1) == []
    state.apply(LANE_1)
    assert view(state)["cars"] == [1, 2, 1]
    assert events_of(state, LANE_0) == []
    assert events_of(state, LANE_1) == ["stacked police cars"]


def test_event_police_with_every_lane_full(backend: Backend) -> None:
    """ "Poliisikortin voi asettaa mihin tahansa jonoon, jossa on tilaa"; the rules doc decides
    that with every lane full "the player chooses a lane, takes it as penalty, and the police car
    starts it". A police car never goes into a full lane as a new place."""
    hands = [[11, POLICE_A], [21, POLICE_B], [31, POLICE_C]]
    state = start(backend, [10, 20, 30], hands, max_cars=2)
    play_turn(state, [11, 21, 31])
    commit(state, [POLICE_A, POLICE_B])
    assert events_of(state, POLICE_C) == []
    state.apply(POLICE_C)
    assert view(state)["decision"] == "police_take"
    # The other two police cars then stack on the first, without a choice.
    assert events_of(state, LANE_1) == ["stacked police cars", "police with every lane full"]


def test_event_tow_truck_as_5th_car(backend: Backend) -> None:
    """ "Jos pelaaja asettaa hinausauton jonon viidenneksi, hän lastaa auton ensin edeltävällä
    autolla, ja kerää sitten jonon kolme ensimmäistä korttia sakoksi." """
    hands = [[9, TOW_B], [14, 41], [22, 46]]
    state = start(backend, [40, 5, 45], hands)
    play_turn(state, [9, 14, 22])
    commit(state, [TOW_B, 41, 46])
    # Into lane 0 (one car) a free place opens, and 41 may fill it: the step stops there.
    assert events_of(state, LANE_0) == []
    assert events_of(state, LANE_1) == ["tow truck as 5th car"]
    state.apply(LANE_1)
    assert penalties(state) == [3, 0, 0]


def test_event_free_place_filled(backend: Backend) -> None:
    """ "Ensimmäisenä ehtivä saa asettaa korttinsa hinattavan auton vapauttamalle paikalle
    noudattaen Pienimmästä isoimpaan -sääntöä." """
    state = tow_lanes(backend, [18, 34], [25, 44])
    commit(state, [TOW_A, 18, 25])
    assert events_of(state, LANE_0) == []
    state.apply(LANE_0)
    # Filled, the lane has 4 cars and 25 takes it; taking a lane instead, 18 starts lane 0 anew.
    assert events_of(state, FREE_0) == ["lane taken by the 5th car", "free place filled"]
    assert events_of(state, LANE_0) == ["too-low card takes a lane"]


def test_event_free_place_left_unfilled(backend: Backend) -> None:
    """ "Jos kukaan ei täytä vapautunutta paikkaa, hinausauto ja sen hinaama auto lasketaan
    seuraavalla kierroksella kahdeksi autoksi." The event belongs to the step that ends the
    turn."""
    state = tow_lanes(backend, [33, 34], [43, 44])
    commit(state, [TOW_A, 33, 43])
    state.apply(LANE_0)
    assert events_of(state, LANE_1) == []
    state.apply(LANE_1)
    assert events_of(state, LANE_2) == ["free place left unfilled"]
    assert events_of(state, FREE_0) == ["free place filled"]


def test_rule_event_names_follow_the_contract(backend: Backend) -> None:
    """Both backends name the contract's rule events in its order (the reference declares them)."""
    state: Any = start(backend, [10, 20, 30], [[11], [12], [13]])
    assert state.rule_event_names == list(RULE_EVENTS)
    assert len(RULE_EVENTS) == 11
