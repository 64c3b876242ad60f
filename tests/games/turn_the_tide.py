"""Rule scenarios of Turn the Tide (rules doc ``rules/turn_the_tide.md``) on both backends.

Every state starts without a seed, so every chance node is explicit: the tests deal the hands they
want, draw the tide cards they want and play the cards they want, then check the exact outcome the
rules prescribe. The deals below are built so that the order of the weather cards in a hand is easy
to steer.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import pytest

import cardtable
from cardtable import CHANCE, TERMINAL, Backend, GameProtocol, StateProtocol
from cardtable.errors import InvalidOptionError
from tests.game_info import GameTestInfo, Mutation, Run
from tests.render_checks import others_hands_and_commitments
from tests.scenarios import assert_rejected, one_bad_option_each

# ----- what the shared tests need -----

GAME = GameTestInfo(
    configs=[
        {"players": 3},
        {"players": 4},
        {"players": 5, "recheck_after_elimination": False},
        {"players": 4, "highest_chooses_tide": True, "rounds": 2},
    ],
    golden=[
        ("3p-1round", {"players": 3, "rounds": 1}, 1),
        (
            "4p-choose-norecheck",
            {
                "players": 4,
                "rounds": 1,
                "highest_chooses_tide": True,
                "recheck_after_elimination": False,
            },
            2,
        ),
    ],
    perft=({"players": 3}, 5, 3, 6),
    tensor_size=lambda n, o: 210 + o.get("rounds", n) + 77 * n,
    small={"players": 3, "rounds": 1},
    replay_run=Run(4, ["greedy", "random", "greedy", "random"]),
    saved_run=Run(4, ["greedy", "random", "random", "random"]),
    hidden_cards=others_hands_and_commitments,
    mutations=(
        Mutation(
            "tide-lifebuoy-rounding",
            "lifebuoys = floor(halves / 2) (mutant: rounded up)",
            "return sum(half_lifebuoys(card) for card in hand) // 2",
            "return (sum(half_lifebuoys(card) for card in hand) + 1) // 2",
        ),
        Mutation(
            "tide-highest-takes-lower",
            "the highest weather card takes the lower tide card (mutant: the higher)",
            "self._take_tide_card(highest, lower)",
            "self._take_tide_card(highest, higher)",
        ),
        Mutation(
            "tide-lowest-bonus",
            "the lowest showing tide gets the bonus (mutant: the highest)",
            "lowest = min(showing.values(), default=None)",
            "lowest = max(showing.values(), default=None)",
        ),
        Mutation(
            "tide-round-end",
            "the round ends when at most two players remain (mutant: at most one)",
            "if len(self._seats_in_round()) <= PLAYERS_LEFT_TO_END_ROUND:",
            "if len(self._seats_in_round()) < PLAYERS_LEFT_TO_END_ROUND:",
        ),
        Mutation(
            "tide-eliminated-penalty",
            "an eliminated player scores -1 (mutant: -2)",
            "self._totals[seat] -= 1",
            "self._totals[seat] -= 2",
        ),
        Mutation(
            "tide-recheck-cascade",
            "after an elimination step 4 applies again (mutant: never)",
            "anyone_eliminated = True",
            "anyone_eliminated = False",
        ),
    ),
    readme_image=({"players": 4}, 3, 17, 0),
)
"""What the generic and shared tests need of this game (see ``tests/game_info.py``)."""

# ----- deals -----


def cards(first: int, last: int) -> list[int]:
    """The weather cards ``first..last``."""
    return list(range(first, last + 1))


MIXED = (
    cards(1, 6) + cards(55, 60),
    cards(7, 12) + cards(49, 54),
    cards(13, 18) + cards(43, 48),
    cards(25, 36),
)
"""Four hands with lifebuoys [0, 0, 6, 12]. Seats 0-2 each hold high and low cards: seat 0's high
cards (55-60) beat seat 1's (49-54), which beat seat 2's (43-48), which beat all of seat 3's
(25-36), which beat seat 2's low cards (13-18), seat 1's (7-12) and seat 0's (1-6)."""

LAST_CHANCE = (cards(49, 60), [37, 38, *cards(1, 10)], cards(13, 24), cards(25, 36))
"""Lifebuoys [0, 1, 6, 12]; seat 0 always plays the highest card, and seat 1 the second-highest
when it plays 37 or 38."""

FULL = (cards(49, 60), cards(25, 36), cards(13, 24), cards(1, 12))
"""Lifebuoys [0, 12, 6, 0]; seat 0 always highest, seat 1 always second-highest."""

THREE = (cards(49, 60), cards(1, 12), cards(25, 36))
"""Three hands: high (0 lifebuoys), low (0) and middle (12)."""


# ----- helpers -----


def new_game(backend: Backend, players: int = 4, **options: Any) -> GameProtocol:
    return cardtable.make("turn_the_tide", players=players, backend=backend, **options)


def deal(state: StateProtocol, hands: Sequence[Sequence[int]]) -> None:
    """Deals the given hands, seat 0's twelve cards first."""
    for hand in hands:
        for card in hand:
            assert state.is_chance_node
            state.apply(card)


def dealt(backend: Backend, hands: Sequence[Sequence[int]], **options: Any) -> StateProtocol:
    """A new game with the given hands dealt (one hand per seat)."""
    state = new_game(backend, players=len(hands), **options).new_state()
    deal(state, hands)
    return state


def draw_tides(state: StateProtocol, tide_a: int, tide_b: int) -> None:
    """Reveals the two tide cards of a hand: tide A first, then tide B."""
    assert state.is_chance_node
    state.apply(tide_a)
    assert state.is_chance_node
    state.apply(tide_b)


def commit(state: StateProtocol, plays: Mapping[int, int]) -> None:
    """Commits ``plays[seat]`` for every seat, checking that the seats are asked in seat order."""
    for seat in sorted(plays):
        assert state.current_player == seat
        state.apply(plays[seat], player=seat)


def play_hand(state: StateProtocol, tides: tuple[int, int], plays: Mapping[int, int]) -> None:
    """One hand: the two tide draws, then the commitments of the seats still in the round."""
    draw_tides(state, *tides)
    commit(state, plays)


def public(state: StateProtocol) -> Mapping[str, Any]:
    """The observation of seat 0, for its public parts."""
    return state.observation(0)


def play_lowest_cards(state: StateProtocol, tides: tuple[int, int]) -> None:
    """One hand in which every seat still in the round plays its lowest card."""
    draw_tides(state, *tides)
    while not state.is_chance_node and not state.is_terminal:
        state.apply(state.legal_actions()[0])


# ----- setup: the deal and the lifebuoys -----


def test_the_deal_gives_seat_0_its_twelve_cards_first(backend: Backend) -> None:
    """ "Sääkortit sekoitetaan ja jokaiselle pelaajalle jaetaan 12 kortin käsi." [The weather cards
    are shuffled and each player is dealt a hand of 12 cards.] Dealing seat 0's twelve cards first,
    one chance node a card, is the contract's flow step 1."""
    state = new_game(backend).new_state()
    assert state.current_player == CHANCE
    assert state.chance_outcomes() == [(card, 1 / 60) for card in range(1, 61)]
    assert state.action_label(17) == "deal 17 to seat 0"
    deal(state, MIXED[:1])
    assert state.action_label(17) == "deal 17 to seat 1"
    assert [card for card, _ in state.chance_outcomes()] == [
        card for card in range(1, 61) if card not in MIXED[0]
    ]
    assert public(state)["phase"] == "deal"
    assert public(state)["hand"] == []
    deal(state, MIXED[1:])
    for seat in range(4):
        assert state.observation(seat)["hand"] == sorted(MIXED[seat])


def test_lifebuoys_count_the_halves_and_round_down(backend: Backend) -> None:
    # Two halves make a whole, rounded down: "Lauralla on kolme ja puoli pelastusrengasta
    # korteissaan. Laura saa kolme pelastusrengaskorttia." (3.5 gives 3.)
    state = dealt(
        backend,
        (
            cards(25, 29) + cards(1, 7),  # 5 whole
            [30, 31, 32, 13, *cards(8, 12), 49, 50, 51],  # 3 whole + 1 half
            cards(33, 36) + cards(14, 18) + [52, 53, 54],  # 4 whole + 5 halves
            cards(19, 24) + cards(55, 60),  # 6 halves
        ),
    )
    assert public(state)["lifebuoys"] == [5, 3, 6, 3]


def test_a_single_half_lifebuoy_rounds_down_to_none(backend: Backend) -> None:
    """ "Kahdesta puolikkaasta tulee yksi kokonainen, yli jäävät puolikkaat pyöristetään alaspäin."
    [Two halves make one whole; halves left over are rounded down.]"""
    state = dealt(backend, ([13, *cards(1, 11)], [14, 15, 16, *cards(49, 57)], cards(25, 36)))
    assert public(state)["lifebuoys"] == [0, 1, 12]


def test_the_whole_deck_holds_24_lifebuoys(backend: Backend) -> None:
    """ "24 pelastusrengaskorttia (kuvissa pelastusrenkaita)" [24 lifebuoy cards, showing
    lifebuoys]: with five players all 60 weather cards are dealt, and their lifebuoys add up to that
    many."""
    state = dealt(backend, [cards(12 * seat + 1, 12 * seat + 12) for seat in range(5)])
    assert public(state)["lifebuoys"] == [0, 6, 12, 6, 0]
    assert sum(public(state)["lifebuoys"]) == 24


def test_a_round_starts_with_no_tide_cards_and_no_one_eliminated(backend: Backend) -> None:
    """ "Vedenkorkeuskortit sekoitetaan ja asetetaan kuvapuoli alaspäin keskelle pöytää." [The tide
    cards are shuffled and put face down in the middle of the table.] So no one has a tide card when
    a round starts, and no one has had to stop yet."""
    state = dealt(backend, MIXED)
    observation = public(state)
    assert observation["phase"] == "tide"
    assert (observation["round"], observation["hand_index"]) == (0, 0)
    assert observation["tide"] == [None] * 4
    assert observation["eliminated"] == [False] * 4
    assert observation["played"] == [[], [], [], []]
    assert observation["revealed_tide"] == []
    assert observation["scores"] == [0] * 4


# ----- one hand -----


def test_two_tide_cards_are_revealed_weighted_by_the_copies_left(backend: Backend) -> None:
    """ "Vedenkorkeuspakan kaksi päällimmäistä korttia käännetään esiin." [The top two cards of the
    tide deck are turned up.] The deck is shuffled, so each draw is weighted by the copies left (two
    of each value 1..12, rules doc)."""
    state = dealt(backend, MIXED)
    assert state.current_player == CHANCE
    assert state.chance_outcomes() == [(value, 2 / 24) for value in range(1, 13)]
    assert state.action_label(7) == "tide A: 7"
    state.apply(7)
    assert public(state)["revealed_tide"] == [7]
    assert state.action_label(7) == "tide B: 7"
    assert dict(state.chance_outcomes())[7] == pytest.approx(1 / 23)
    assert dict(state.chance_outcomes())[8] == pytest.approx(2 / 23)
    state.apply(7)
    assert public(state)["revealed_tide"] == [7, 7]
    assert state.current_player == 0
    commit(state, {0: 1, 1: 7, 2: 13, 3: 25})
    assert 7 not in state.legal_actions()


def test_players_commit_in_seat_order(backend: Backend) -> None:
    """ "Kukin pelaaja valitsee yhden sääkortin kädestään ja laittaa sen kuvapuoli alaspäin eteensä.
    Kortit paljastetaan sitten yhtä aikaa." [Each player picks a weather card from their hand and
    puts it face down in front of them; the cards are then revealed together.] The choices are
    simultaneous; asking them in seat order is the contract's flow step 3."""
    state = dealt(backend, MIXED)
    draw_tides(state, 9, 4)
    assert public(state)["phase"] == "play"
    assert state.legal_actions() == sorted(MIXED[0])
    assert state.action_label(55) == "play 55"
    seats = []
    while not state.is_chance_node:
        seats.append(state.current_player)
        state.apply(state.legal_actions()[0])
    assert seats == [0, 1, 2, 3]


def test_a_commitment_stays_hidden_until_all_have_committed(backend: Backend) -> None:
    """ "…pelaajat valitsevat salaa toisiltaan sääkortin, jotka paljastetaan samanaikaisesti."
    [… the players choose a weather card in secret from each other, and the cards are revealed
    together.]"""
    views = []
    for card in (55, 56):
        state = dealt(backend, MIXED)
        draw_tides(state, 9, 4)
        state.apply(card)
        assert state.observation(0)["own_commitment"] == card
        views.append(state.observation(1))
    assert views[0] == views[1]
    assert views[0]["committed"] == [True, False, False, False]
    assert views[0]["own_commitment"] is None
    assert views[0]["played"] == [[], [], [], []]


def test_the_observation_hides_the_other_hands(backend: Backend) -> None:
    # The same seat-0 hand with two different hands for seat 1 (both without lifebuoys).
    one = dealt(backend, (cards(13, 24), cards(1, 12), cards(25, 36), cards(37, 48)))
    other = dealt(backend, (cards(13, 24), cards(49, 60), cards(25, 36), cards(37, 48)))
    assert one.observation(0) == other.observation(0)
    assert one.observation(1) != other.observation(1)


def test_the_highest_card_takes_the_lower_tide_and_the_second_highest_the_higher(
    backend: Backend,
) -> None:
    """ "Korkeimman sääkortin pelannut pelaaja ottaa matalamman vedenkorkeuskortin pöydältä." [The
    player of the highest weather card takes the lower tide card.] "Toiseksi korkeimman sääkortin
    pelannut pelaaja ottaa jäljelle jääneen vedenkorkeuskortin, joka on siis korkeampi kahdesta."
    [The player of the second-highest takes the remaining one, so the higher of the two.]"""
    state = dealt(backend, MIXED)
    play_hand(state, (9, 4), {0: 55, 1: 7, 2: 43, 3: 25})
    observation = public(state)
    assert observation["tide"] == [4, None, 9, None]
    assert observation["played"] == [[55], [7], [43], [25]]
    assert state.observation(0)["hand"] == [c for c in sorted(MIXED[0]) if c != 55]
    assert (observation["hand_index"], observation["revealed_tide"]) == (1, [])
    assert observation["committed"] == [False] * 4


def test_cards_played_this_round_stay_public(backend: Backend) -> None:
    """ "Lopuksi pelaajat ottavat äsken pelaamansa sääkortit ja laittavat ne kukin omaan pinoonsa
    kuvapuoli alaspäin." [Finally each player puts the cards just played face down on a pile of
    their own.] They were revealed to all, so every seat sees them (contract, Decisions 11)."""
    state = dealt(backend, MIXED)
    play_hand(state, (9, 4), {0: 55, 1: 7, 2: 43, 3: 25})
    for seat in range(4):
        assert state.observation(seat)["played"] == [[55], [7], [43], [25]]


def test_in_the_first_hand_only_the_higher_new_tide_loses_a_lifebuoy(backend: Backend) -> None:
    """ "Pelaaja, jolla on korkein vedenkorkeuskortti menettää pelastusrenkaan." [The player with
    the highest tide card loses a lifebuoy.]"""
    # Players without a tide card are never highest.
    state = dealt(backend, MIXED)
    play_hand(state, (9, 4), {0: 55, 1: 7, 2: 43, 3: 25})
    assert public(state)["lifebuoys"] == [0, 0, 5, 12]


def test_the_loser_need_not_have_taken_a_tide_card_this_hand(backend: Backend) -> None:
    """ "Huomatkaa, että pelastusrenkaan menettäjä ei ole lainkaan välttämättä se, joka kyseisellä
    vuorolla joutui ottamaan korkeamman vedenkorkeuskortin itselleen." [Note that the one who loses
    a lifebuoy is not necessarily the one who had to take the higher tide card that turn.]"""
    state = dealt(backend, MIXED)
    play_hand(state, (10, 2), {0: 1, 1: 7, 2: 13, 3: 25})  # seat 3 highest, seat 2 second
    assert public(state)["tide"] == [None, None, 10, 2]
    assert public(state)["lifebuoys"] == [0, 0, 5, 12]
    play_hand(state, (3, 4), {0: 55, 1: 49, 2: 14, 3: 26})  # seat 0 highest, seat 1 second
    assert public(state)["tide"] == [3, 4, 10, 2]
    assert public(state)["lifebuoys"] == [0, 0, 4, 12]
    assert public(state)["eliminated"] == [False] * 4


def test_a_new_tide_card_covers_the_previous_one(backend: Backend) -> None:
    """ "Jos pelaajalla on jo vedenkorkeuskortti ja hän saa uuden, korvataan vanha uudella." [If a
    player already has a tide card and gets a new one, the new one replaces the old.]"""
    state = dealt(backend, MIXED)
    play_hand(state, (10, 2), {0: 1, 1: 7, 2: 13, 3: 25})
    play_hand(state, (1, 5), {0: 2, 1: 8, 2: 43, 3: 26})  # seat 2 highest, seat 3 second
    assert public(state)["tide"] == [None, None, 1, 5]
    assert public(state)["lifebuoys"] == [0, 0, 5, 11]


def test_tied_highest_tides_all_lose_a_lifebuoy(backend: Backend) -> None:
    """ "Tasapelien sattuessa kaikki tasoissa olevat pelaajat menettävät pelastusrenkaan." [In a
    tie, every tied player loses a lifebuoy.] (contract, Decisions 2)"""
    state = dealt(backend, MIXED)
    play_hand(state, (6, 6), {0: 1, 1: 7, 2: 13, 3: 25})
    assert public(state)["tide"] == [None, None, 6, 6]
    assert public(state)["lifebuoys"] == [0, 0, 5, 11]


# ----- elimination -----


def test_losing_the_last_lifebuoy_does_not_eliminate(backend: Backend) -> None:
    """ "Kun pelaaja menettää viimeisen pelastusrenkaansa, jatkaa hän yhä peliä." [A player who
    loses their last lifebuoy still plays on.]"""
    state = dealt(backend, LAST_CHANCE)
    play_hand(state, (7, 9), {0: 49, 1: 38, 2: 13, 3: 25})
    assert public(state)["tide"] == [7, 9, None, None]
    assert public(state)["lifebuoys"] == [0, 0, 6, 12]
    assert public(state)["eliminated"] == [False] * 4


def test_a_player_who_must_lose_a_lifebuoy_but_has_none_is_eliminated(backend: Backend) -> None:
    """ "Pelaaja joutuu lopettamaan vasta kun hänen pitäisi luopua pelastusrenkaasta, mutta hän ei
    voi. Jos näin käy, pelaaja kääntää käteensä jääneet sääkortit ja vedenkorkeuskorttinsa kuvapuoli
    alaspäin." [A player has to stop only when they should give up a lifebuoy but cannot. Then they
    turn the weather cards left in their hand and their tide cards face down.] The Polish and German
    texts discard them instead ("są odrzucane", "werden … abgelegt"); either way they are never
    played again, and the seat keeps its hand, as in the Finnish."""
    state = dealt(backend, LAST_CHANCE, recheck_after_elimination=False)
    play_hand(state, (7, 9), {0: 49, 1: 38, 2: 13, 3: 25})
    play_hand(state, (3, 12), {0: 50, 1: 37, 2: 14, 3: 26})
    observation = public(state)
    assert observation["eliminated"] == [False, True, False, False]
    assert observation["tide"] == [3, None, None, None]  # turned face down
    assert observation["lifebuoys"] == [0, 0, 6, 12]
    assert (observation["round"], observation["hand_index"]) == (0, 2)
    assert state.observation(1)["hand"] == cards(1, 10)  # kept, but never played


def test_an_eliminated_player_no_longer_plays_and_their_tide_no_longer_counts(
    backend: Backend,
) -> None:
    """ "Jos näin käy, pelaaja kääntää käteensä jääneet sääkortit ja vedenkorkeuskorttinsa kuvapuoli
    alaspäin." [If so, the player turns the weather cards left in their hand and their tide cards
    face down.] Polish: "Jeśli zostaniesz wyeliminowany z rundy, twoje karty pogody i poziomu fali
    są odrzucane." [If you are eliminated from the round, your weather and tide cards are
    discarded.] Face down or discarded, the tide card no longer counts (contract, Decisions 5)."""
    state = dealt(backend, LAST_CHANCE, recheck_after_elimination=False)
    play_hand(state, (7, 9), {0: 49, 1: 38, 2: 13, 3: 25})
    play_hand(state, (3, 12), {0: 50, 1: 37, 2: 14, 3: 26})
    # Seat 1 is skipped; its face-down 12 would otherwise be the highest tide.
    play_hand(state, (4, 5), {0: 51, 2: 15, 3: 27})
    observation = public(state)
    assert observation["tide"] == [4, None, None, 5]
    assert observation["lifebuoys"] == [0, 0, 6, 11]
    assert observation["played"][1] == [38, 37]


@pytest.mark.parametrize(("recheck", "seat_3_lifebuoys"), [(True, 10), (False, 11)])
def test_recheck_after_elimination_the_next_highest_tide_loses_a_lifebuoy(
    backend: Backend, recheck: bool, seat_3_lifebuoys: int
) -> None:
    """ "Nyt se pelaaja, jolla on muutoksen jälkeen korkein vedenkorkeuskortti joutuu luopumaan
    pelastusrenkaasta." [Now the player who, after the change, has the highest tide card must give
    up a lifebuoy.] Only the Finnish text has this re-check; the Polish and German ones stop at the
    cards put away, which is what ``recheck_after_elimination=False`` plays (contract,
    Decisions 1)."""
    state = dealt(backend, MIXED, recheck_after_elimination=recheck)
    play_hand(state, (10, 3), {0: 1, 1: 7, 2: 43, 3: 25})  # seat 2 takes 3, seat 3 takes 10
    play_hand(state, (12, 1), {0: 55, 1: 49, 2: 13, 3: 26})  # seat 0 takes 1, seat 1 takes 12
    observation = public(state)
    assert observation["eliminated"] == [False, True, False, False]
    assert observation["tide"] == [1, None, 3, 10]
    assert observation["lifebuoys"] == [0, 0, 6, seat_3_lifebuoys]
    assert (observation["round"], observation["hand_index"]) == (0, 2)


@pytest.mark.parametrize(("recheck", "seat_2_lifebuoys"), [(True, 4), (False, 5)])
def test_recheck_applies_step_4_again_to_a_tied_player_who_survived(
    backend: Backend, recheck: bool, seat_2_lifebuoys: int
) -> None:
    """ "Nyt se pelaaja, jolla on muutoksen jälkeen korkein vedenkorkeuskortti joutuu luopumaan
    pelastusrenkaasta." [Now the player who, after the change, has the highest tide card must give
    up a lifebuoy.] (Finnish only.) Seat 2 tied with the eliminated seat 1 and still shows the
    highest tide after the change, so the re-check takes a second lifebuoy: contract,
    Decisions 1."""
    state = dealt(backend, MIXED, recheck_after_elimination=recheck)
    play_hand(state, (8, 8), {0: 1, 1: 49, 2: 43, 3: 25})  # seats 1 and 2 both show 8
    observation = public(state)
    assert observation["eliminated"] == [False, True, False, False]
    assert observation["tide"] == [None, None, 8, None]
    assert observation["lifebuoys"] == [0, 0, seat_2_lifebuoys, 12]


def test_recheck_after_elimination_cascades_until_the_round_ends(backend: Backend) -> None:
    """ "Nyt se pelaaja, jolla on muutoksen jälkeen korkein vedenkorkeuskortti joutuu luopumaan
    pelastusrenkaasta." [Now the player who, after the change, has the highest tide card must give
    up a lifebuoy.] (Finnish only; repeated while it eliminates someone: contract, Decisions 1.)
    "Kierros loppuu myös välittömästi kun pelissä on enää kaksi pelaajaa jäljellä." [The round also
    ends immediately when only two players remain.]"""
    state = dealt(backend, LAST_CHANCE)
    play_hand(state, (7, 9), {0: 49, 1: 38, 2: 13, 3: 25})
    play_hand(state, (3, 12), {0: 50, 1: 37, 2: 14, 3: 26})
    # Seat 1 is eliminated, then seat 0 (showing 3, no lifebuoys) in the re-check: two remain.
    observation = public(state)
    assert (observation["round"], observation["hand_index"]) == (1, 0)
    assert observation["scores"] == [-1, -1, 7, 13]


def test_several_players_can_be_eliminated_at_once(backend: Backend) -> None:
    """ "Tasapelien sattuessa kaikki tasoissa olevat pelaajat menettävät pelastusrenkaan." [In a
    tie, every tied player loses a lifebuoy.] Both tied seats must lose one and have none, so both
    are eliminated at the same moment (contract, Decisions 2 and 3). "Kierros loppuu myös
    välittömästi kun pelissä on enää kaksi pelaajaa jäljellä." [The round also ends immediately when
    only two players remain.]"""
    state = dealt(backend, MIXED, recheck_after_elimination=False)
    play_hand(state, (5, 5), {0: 55, 1: 49, 2: 13, 3: 25})  # seats 0 and 1 tie, both at 0
    # Two remain, so the round is over at once: -1 each, and seats 2 and 3 have no tide card.
    assert public(state)["scores"] == [-1, -1, 7, 13]
    assert public(state)["round"] == 1


def test_the_round_ends_at_once_when_two_players_remain(backend: Backend) -> None:
    """ "Kierros loppuu myös välittömästi kun pelissä on enää kaksi pelaajaa jäljellä." [The round
    also ends immediately when only two players remain in the game.] Seat 2, tied with the
    eliminated seat 0, loses no second lifebuoy: the check comes before the re-check (contract,
    Decisions 4). The scores: "Pelastusrenkaattomat eivät saa yhtään pistettä." [Those without
    lifebuoys get no points.] read with the Polish and Board Game Arena texts, which give the bonus
    on top ("Dodatkowo", "Darüber hinaus"): contract, Decisions 12. Seat 1 ends the round still in,
    without lifebuoys and without a tide card (the lowest): 0 + 1."""
    state = dealt(backend, THREE)
    play_hand(state, (6, 6), {0: 49, 1: 1, 2: 25})  # seat 0 and 2 tie; seat 0 is eliminated
    observation = public(state)
    assert (observation["round"], observation["hand_index"]) == (1, 0)
    assert observation["phase"] == "tide"
    assert observation["scores"] == [-1, 1, 11]
    assert observation["eliminated"] == [False] * 3
    assert observation["tide"] == [None] * 3


def test_a_round_ends_after_the_twelfth_hand(backend: Backend) -> None:
    """ "Kierros loppuu kahdentoista vuoron jälkeen eli kun jokainen pelaaja on pelannut kaikki
    kortit kädestään." [The round ends after twelve turns, that is when every player has played all
    the cards in their hand.] The scores follow contract, Decisions 5 and 12."""
    state = dealt(backend, FULL)
    for hand in range(12):
        assert (public(state)["round"], public(state)["hand_index"]) == (0, hand)
        low = 2 * (hand // 2) + 1
        play_hand(state, (low, low + 1), {0: 49 + hand, 1: 25 + hand, 2: 13 + hand, 3: 1 + hand})
        if hand == 10:
            assert public(state)["lifebuoys"] == [0, 1, 6, 0]
            assert public(state)["tide"] == [11, 12, None, None]
    observation = public(state)
    assert (observation["round"], observation["hand_index"]) == (1, 0)
    # Seat 1 lost a lifebuoy in each hand but never had to lose one it did not have: it scores
    # 0. Seats 2 and 3 never took a tide card, so they are the lowest and get the bonus.
    assert observation["scores"] == [0, 0, 7, 1]


# ----- scoring -----


MIXED_PLAYS = ({0: 1, 1: 7, 2: 43, 3: 25}, {0: 55, 1: 49, 2: 13, 3: 26})
"""Two hands of the MIXED deal: seats 1 and then 0 are eliminated in the second."""
LAST_CHANCE_PLAYS = ({0: 49, 1: 38, 2: 13, 3: 25}, {0: 50, 1: 37, 2: 14, 3: 26})
"""Two hands of the LAST_CHANCE deal: seats 0 and 1 are eliminated."""


@pytest.mark.parametrize(
    ("deal", "plays", "tides", "scores"),
    [
        # Seat 2 takes 5, seat 3 takes 7.
        pytest.param(MIXED, MIXED_PLAYS, [(5, 7), (9, 12)], [-1, -1, 6 + 1, 11], id="lowest"),
        # Seats 2 and 3 both take a 5: both get the bonus.
        pytest.param(MIXED, MIXED_PLAYS, [(5, 5), (9, 12)], [-1, -1, 5 + 1, 11 + 1], id="tied"),
        # Seat 0 is eliminated showing 3, the lowest tide; the survivors show none.
        pytest.param(
            LAST_CHANCE, LAST_CHANCE_PLAYS, [(7, 9), (3, 12)], [-1, -1, 6 + 1, 12 + 1], id="out"
        ),
    ],
)
def test_the_lowest_showing_tide_earns_a_bonus(
    backend: Backend,
    deal: tuple[list[int], ...],
    plays: tuple[dict[int, int], ...],
    tides: list[tuple[int, int]],
    scores: list[int],
) -> None:
    """ "Pelaaja, jolla on vuoron lopussa matalin vedenkorkeuskortti saa yhden bonuspisteen
    (tasatilanteessa kaikki tasoissa olevat saavat pisteen)." [The player with the lowest tide card
    at the end of the turn gets a bonus point; in a tie, everyone tied gets it.] "Pelaajat, jotka
    joutuivat lopettamaan kesken kierroksen saavat yhden miinuspisteen." [Players who had to stop
    during the round get one minus point.] Tied lowest tides all earn it; eliminated players score
    -1 and never earn it, their tide cards being face down (contract, Decisions 5)."""
    state = dealt(backend, deal)
    for hand_tides, hand_plays in zip(tides, plays, strict=True):
        play_hand(state, hand_tides, hand_plays)
    assert public(state)["round"] == 1
    assert public(state)["scores"] == scores


def test_no_tide_card_counts_as_the_lowest_tide(backend: Backend) -> None:
    """ "Pelaaja, jolla on vuoron lopussa matalin vedenkorkeuskortti saa yhden bonuspisteen" [the
    player with the lowest tide card at the end of the turn gets a bonus point], read with the
    Polish and Board Game Arena texts ("at the end of the round"): contract, Decisions 5. Seats 2
    and 3 never take a tide card, so they count as the lowest after every hand, but the bonus is
    counted once, when the round is scored."""
    # Seat 0 ends the round showing tide 11 with no lifebuoys.
    state = dealt(backend, FULL)
    for hand in range(12):
        assert public(state)["scores"] == [0, 0, 0, 0]
        low = 2 * (hand // 2) + 1
        play_hand(state, (low, low + 1), {0: 49 + hand, 1: 25 + hand, 2: 13 + hand, 3: 1 + hand})
    assert public(state)["scores"] == [0, 0, 6 + 1, 0 + 1]


def test_hands_rotate_to_the_left_each_round(backend: Backend) -> None:
    """ "…antavat ne vasemmalla puolellaan istuvalle pelaajalle." [… give them to the player sitting
    on their left.] The Polish ("po twojej lewej stronie") and German ("zu deiner Linken") agree.
    Seats are numbered clockwise, so that is the next seat (contract, Decisions 14)."""
    state = dealt(backend, THREE)
    lifebuoys = [0, 0, 12]  # of the hands dealt to seats 0, 1, 2
    for round_ in range(3):
        assert public(state)["round"] == round_
        for seat in range(3):
            original = (seat - round_) % 3
            assert state.observation(seat)["hand"] == sorted(THREE[original])
            assert public(state)["lifebuoys"][seat] == lifebuoys[original]
        play_lowest_cards(state, (6, 6))


def test_hands_rotate_with_their_lifebuoys_after_a_round(backend: Backend) -> None:
    """ "Pisteidenlaskun jälkeen pelaajat ottavat sääkorttinsa ja niihin liittyvät pelastusrenkaat
    ja antavat ne vasemmalla puolellaan istuvalle pelaajalle." [After scoring, the players take
    their weather cards with their lifebuoys and give them to the player on their left.] The
    lifebuoys are counted again from the hand's cards (contract, Decisions 14)."""
    state = dealt(backend, LAST_CHANCE)
    play_hand(state, (7, 9), {0: 49, 1: 38, 2: 13, 3: 25})
    play_hand(state, (3, 12), {0: 50, 1: 37, 2: 14, 3: 26})
    assert public(state)["round"] == 1
    assert public(state)["lifebuoys"] == [12, 0, 1, 6]
    assert state.observation(2)["hand"] == sorted(LAST_CHANCE[1])
    assert public(state)["played"] == [[], [], [], []]


def test_the_tide_deck_is_full_again_each_round(backend: Backend) -> None:
    """ "Vedenkorkeuskortit sekoitetaan uudestaan." [The tide cards are shuffled again.] Polish:
    "Karty poziomu fal należy przetasować na początku każdej rundy." [The tide cards are to be
    shuffled at the start of every round.]"""
    state = dealt(backend, THREE)
    play_lowest_cards(state, (6, 6))
    assert public(state)["round"] == 1
    assert state.chance_outcomes() == [(value, 2 / 24) for value in range(1, 13)]


def test_scores_add_up_over_all_rounds_and_ties_share_the_win(backend: Backend) -> None:
    """ "Pisteet kirjataan ylös." [The points are written down.] "Se voittaa, jolla on viimeisen
    kierroksen jälkeen eniten pisteitä." [The one with the most points after the last round wins.]
    None of the three texts says what a tie at the most points gives: sharing the win is the
    contract's decision (Decisions 13)."""
    # Each round one tied hand ends it: the high hand is eliminated (-1), the middle hand keeps
    # 11 lifebuoys and the low hand, without a tide card, gets the bonus (+1).
    state = dealt(backend, THREE)
    totals = []
    for _ in range(3):
        assert state.winners == []
        play_lowest_cards(state, (6, 6))
        totals.append(state.scores)
    assert totals == [[-1, 1, 11], [10, 0, 12], [11, 11, 11]]
    assert state.is_terminal
    assert state.current_player == TERMINAL
    assert state.winners == [0, 1, 2]


def test_the_game_ends_after_as_many_rounds_as_players(backend: Backend) -> None:
    """ "Pelissä on kierroksia yhtä monta kuin pelaajia, joten kaikki pelaavat kaikilla korteilla."
    [There are as many rounds as players, so everyone plays with every hand.] What the state shows
    at the end is the contract's (Decisions 10)."""
    state = dealt(backend, THREE)
    for _ in range(3):
        assert not state.is_terminal
        play_lowest_cards(state, (6, 6))
    assert state.is_terminal
    assert state.legal_actions() == []
    observation = public(state)
    assert observation["phase"] == "over"
    # Everything stays as at the end of the last round (one hand played in round 2).
    assert (observation["round"], observation["hand_index"]) == (2, 1)
    assert observation["eliminated"] == [False, False, True]
    assert observation["tide"] == [None, 6, None]
    assert observation["lifebuoys"] == [0, 11, 0]
    assert state.action_label(5) == "action 5"


@pytest.mark.parametrize(
    ("rounds", "scores", "winners"),
    [(1, [-1, 1, 11], [2]), (2, [10, 0, 12], [2]), (3, [11, 11, 11], [0, 1, 2])],
)
def test_the_rounds_option_sets_the_number_of_rounds(
    backend: Backend, rounds: int, scores: list[int], winners: list[int]
) -> None:
    """ "Kierrosten määrä on sama kuin pelaajien määrä." [The number of rounds equals the number of
    players.] That is the default; fewer rounds is the contract's ``rounds`` option, beyond the
    originals. The three-way tie shares the win (contract, Decisions 13)."""
    state = dealt(backend, THREE, rounds=rounds)
    for _ in range(rounds):
        assert not state.is_terminal
        play_lowest_cards(state, (6, 6))
    assert state.is_terminal
    assert state.scores == scores
    assert state.winners == winners


@pytest.mark.parametrize(
    ("given", "resolved"), [({}, 4), ({"rounds": None}, 4), ({"rounds": 2}, 2)]
)
def test_game_options_hold_the_resolved_number_of_rounds(
    backend: Backend, given: dict[str, Any], resolved: int
) -> None:
    """ "Kierrosten määrä on sama kuin pelaajien määrä." [The number of rounds equals the number of
    players.] So ``rounds`` left out or null resolves to the number of players (contract,
    Options)."""
    game = new_game(backend, **given)
    assert game.options == {
        "recheck_after_elimination": True,
        "highest_chooses_tide": False,
        "rounds": resolved,
    }
    assert game.num_actions == 61


# ----- highest_chooses_tide -----


def test_without_highest_chooses_tide_no_choice_is_asked(backend: Backend) -> None:
    """ "Korkeimman sääkortin pelannut pelaaja ottaa matalamman vedenkorkeuskortin pöydältä." [The
    player of the highest weather card takes the lower tide card.] No choice: the rule decides."""
    state = dealt(backend, MIXED)
    play_hand(state, (9, 4), {0: 55, 1: 7, 2: 43, 3: 25})
    assert state.current_player == CHANCE


@pytest.mark.parametrize(
    ("choice", "tide", "lifebuoys", "eliminated"),
    [
        # Seat 0 takes 9 and, without lifebuoys, is eliminated; the re-check hits seat 2.
        (0, [None, None, 4, None], [0, 0, 5, 12], [True, False, False, False]),
        # Seat 0 takes 4; seat 2 gets 9 and loses a lifebuoy.
        (1, [4, None, 9, None], [0, 0, 5, 12], [False] * 4),
    ],
)
def test_with_highest_chooses_tide_the_highest_card_chooses_a_tide_card(
    backend: Backend,
    choice: int,
    tide: list[int | None],
    lifebuoys: list[int],
    eliminated: list[bool],
) -> None:
    """``highest_chooses_tide`` is a variant none of the three originals has (contract, Options):
    they make the highest card take the lower tide card. The re-check after seat 0's elimination is
    contract, Decisions 1."""
    state = dealt(backend, MIXED, highest_chooses_tide=True)
    play_hand(state, (9, 4), {0: 55, 1: 7, 2: 43, 3: 25})
    assert state.current_player == 0
    assert public(state)["phase"] == "choose_tide"
    assert state.legal_actions() == [0, 1]
    assert state.action_label(0) == "take tide A (9)"
    assert state.action_label(1) == "take tide B (4)"
    assert state.action_label(2) == "action 2"
    state.apply(choice, player=0)
    observation = public(state)
    assert observation["tide"] == tide
    assert observation["lifebuoys"] == lifebuoys
    assert observation["eliminated"] == eliminated
    assert state.current_player == CHANCE


def test_with_highest_chooses_tide_equal_tides_still_ask_the_choice(backend: Backend) -> None:
    """A variant none of the originals has (``highest_chooses_tide``); the choice is asked even
    between equal values: contract, Decisions 8."""
    state = dealt(backend, MIXED, highest_chooses_tide=True)
    play_hand(state, (3, 3), {0: 1, 1: 7, 2: 13, 3: 25})
    assert state.current_player == 3
    assert state.legal_actions() == [0, 1]
    state.apply(1)
    assert public(state)["tide"] == [None, None, 3, 3]
    assert public(state)["lifebuoys"] == [0, 0, 5, 11]


# ----- bad input -----


def test_a_card_not_in_hand_is_illegal(backend: Backend) -> None:
    """ "Kukin pelaaja valitsee yhden sääkortin kädestään…" [Each player picks one weather card from
    their hand …]"""
    state = dealt(backend, MIXED)
    draw_tides(state, 9, 4)
    assert_rejected(state, 49)  # seat 1's card
    assert_rejected(state, 20)  # not dealt at all
    state.apply(55)
    assert_rejected(state, 55)  # already committed by seat 0


def test_a_card_already_played_is_illegal(backend: Backend) -> None:
    """ "Lopuksi pelaajat ottavat äsken pelaamansa sääkortit ja laittavat ne kukin omaan pinoonsa
    kuvapuoli alaspäin." [Finally the players put the weather cards they just played face down on a
    pile of their own.] A card played has left the hand."""
    state = dealt(backend, MIXED)
    play_hand(state, (9, 4), {0: 55, 1: 7, 2: 43, 3: 25})
    draw_tides(state, 1, 2)
    assert_rejected(state, 55)


@pytest.mark.parametrize("action", [-1, 61, 1000])
def test_actions_out_of_range_are_illegal(backend: Backend, action: int) -> None:
    state = dealt(backend, MIXED)
    draw_tides(state, 9, 4)
    assert_rejected(state, action)


def test_action_0_is_never_a_card(backend: Backend) -> None:
    state = dealt(backend, MIXED)
    draw_tides(state, 9, 4)
    assert 0 not in state.legal_actions()
    assert_rejected(state, 0)


def test_acting_for_another_seat_is_illegal(backend: Backend) -> None:
    state = dealt(backend, MIXED)
    draw_tides(state, 9, 4)
    assert_rejected(state, 55, player=1)
    assert_rejected(state, 49, player=1)
    state.apply(55, player=0)
    assert_rejected(state, 13, player=0)


def test_a_player_cannot_act_at_a_chance_node(backend: Backend) -> None:
    state = dealt(backend, MIXED)
    assert_rejected(state, 5, player=0)


def test_a_chance_outcome_at_a_decision_node_is_illegal(backend: Backend) -> None:
    state = dealt(backend, MIXED)
    draw_tides(state, 9, 4)
    assert_rejected(state, 7)  # a tide value, not in seat 0's hand


def test_a_decision_at_a_chance_node_is_illegal(backend: Backend) -> None:
    state = dealt(backend, MIXED)
    assert_rejected(state, 55)  # a card number at a tide draw
    draw_tides(state, 9, 9)
    commit(state, {0: 1, 1: 7, 2: 13, 3: 25})
    assert_rejected(state, 9)  # no tide 9 left this round
    fresh = new_game(backend).new_state()
    deal(fresh, MIXED[:1])
    assert_rejected(fresh, 1)  # already dealt


def test_an_invalid_tide_choice_is_illegal(backend: Backend) -> None:
    state = dealt(backend, MIXED, highest_chooses_tide=True)
    play_hand(state, (9, 4), {0: 55, 1: 7, 2: 43, 3: 25})
    assert_rejected(state, 2)
    assert_rejected(state, 55)
    assert_rejected(state, 0, player=2)


def test_acting_on_a_terminal_state_is_illegal(backend: Backend) -> None:
    state = dealt(backend, THREE, rounds=1)
    play_lowest_cards(state, (6, 6))
    assert state.is_terminal
    for action in (0, 1, 5, 60):
        assert_rejected(state, action)
    assert_rejected(state, 1, player=0)


@pytest.mark.parametrize(
    "options",
    [
        {"players": 2},
        {"players": 6},
        {"players": 0},
        {"players": "4"},
        {"players": 4.0},
        {"players": True},
        {"players": 3, "rounds": 4},
        *one_bad_option_each(
            4,
            {
                "rounds": [0, 5, "2", 2.0, True],
                "recheck_after_elimination": [1, "false", None],
                "highest_chooses_tide": [0, "yes"],
                "tie_break": [True],
                "round": [2],
            },
        ),
    ],
)
def test_bad_options_are_rejected(backend: Backend, options: dict[str, Any]) -> None:
    """ "Stefan Dorran korttipeli 3-5 pelaajalle." [A card game by Stefan Dorra for 3-5 players.]
    The other checks (``rounds`` at most the number of players, the option types) are the contract's
    Options."""
    with pytest.raises(InvalidOptionError):
        cardtable.make("turn_the_tide", backend=backend, **options)
