"""Rule scenarios of Trafficars game 3, the overtaking lane (rules doc ``rules/trafficars.md``).

Every state starts without a seed, so every chance node is explicit: the tests remove the cards and
deal the piles they want (each pile top first), then play and check the exact outcome the rules and
the contract (``docs/games/trafficars_overtaking.md``) prescribe. A pile is given by its top cards;
:func:`complete` puts the cards nobody named at the bottom of the piles in increasing order, where
the scenarios never reach them.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import pytest

import cardtable
from cardtable import CHANCE, TERMINAL, Backend, GameProtocol, StateProtocol
from cardtable.errors import InvalidOptionError
from cardtable.reference.trafficars import CARDS as TRAFFICARS_CARDS
from tests.game_info import GameTestInfo, Mutation, Run, every_player_count
from tests.scenarios import assert_rejected, one_bad_option_each

# ----- what the shared tests need (the GAME block below) -----


def hidden_cards(state: StateProtocol, p: int) -> tuple[set[str], set[str]]:
    """What seat p must not see in a picture (``tests/test_render.py``): the other seats' hands,
    every pile and the cards removed at the deal (``data-card`` ids)."""
    d = state.to_dict()
    s, n = d["state"], d["players"]
    others = [q for q in range(n) if q != p]
    ids = {c for q in others for c in s["hands"][q]}
    ids |= {c for pile in s["piles"] for c in pile} | set(s["removed"])
    return {str(c) for c in ids}, set()


GAME = GameTestInfo(
    configs=[
        *every_player_count(2, 5),
        {"players": 3, "optional_overtake": True},
    ],
    golden=[
        ("2p", {"players": 2}, 1),
        ("3p", {"players": 3}, 2),
        ("3p-optional-overtake", {"players": 3, "optional_overtake": True}, 2),
    ],
    perft=({"players": 2}, 5, 4, 12),
    tensor_size=lambda n, o: 156 + 6 * n,
    small={"players": 2},
    replay_run=Run(3, ["greedy", "random", "greedy"]),
    saved_run=Run(3),
    pictures=[("mid", {"players": 3}, 14, 12), ("end", {"players": 3}, 14, None)],
    hidden_cards=hidden_cards,
    # Games per seat-rotated match of the slow strength test, where 60 cannot show the gap: the
    # search wins about 55% against `greedy`, which takes some 800 games to tell from a tie.
    strength_games=800,
    mutations=(
        Mutation(
            "overtaking-all-pass",
            "the row is removed once every player passed (mutant: all but one)",
            "if self._passes == self._players:",
            "if self._passes == self._players - 1:",
        ),
        Mutation(
            "overtaking-refill",
            "hands refill to 6 cards (mutant: to 7)",
            "while len(self._hands[seat]) < HAND_SIZE and self._piles[seat]:",
            "while len(self._hands[seat]) <= HAND_SIZE and self._piles[seat]:",
        ),
        Mutation(
            "overtaking-score",
            "a seat scores minus the cards in hand and pile (mutant: hand only)",
            "-(len(hand) + len(pile)) for hand, pile in",
            "-(len(hand) + 0 * len(pile)) for hand, pile in",
        ),
    ),
    readme_image=({"players": 3}, 7, 14, 0),
)
"""What the generic and shared tests need of this game (see ``tests/game_info.py``)."""

OVERTAKE = 51
LET_GO = 52
PASS = 53

OPTIONAL: dict[str, Any] = {"optional_overtake": True}
"""The variant in which the overtaker chooses: "overtake" or "let go"."""

# ----- deals -----

FIVE_PLAYERS_START_FROM_HAND: tuple[list[int], ...] = (
    [3, 10, 20, 30, 40, 48, 25, 2, 15, 35],
    [4, 5, 6, 7, 8, 9, 49, 50, 11, 12],
    [],
    [],
    [1],
)
"""Five piles; seats 2 to 4 hold the cards left over, in order (see :func:`complete`). Seat 0
holds 3, 10, 20, 30, 40, 48, starts the row with 25 and has 2, 15, 35 left in its pile; seat 4
holds the 1 that lets seat 0 overtake with 2; seats 1 to 3 hold no card that fits."""

FIVE_PLAYERS_WIN_BY_START_CARD: tuple[list[int], ...] = (
    [4, 10, 20, 30, 40, 48, 25, 2, 3, 35],
    [5, 6, 7, 8, 9, 11, 49, 50, 12, 13],
    [],
    [],
    [1],
)
"""Like the deal above, but seat 0 overtakes with 2 and 3 and keeps only 35."""

FIVE_PLAYERS_WIN_BY_OVERTAKING: tuple[list[int], ...] = (
    [5, 10, 20, 30, 40, 48, 25, 2, 3, 4],
    [6, 7, 8, 9, 11, 12, 49, 50, 13, 35],
    [],
    [],
    [1],
)
"""Like the deals above, but seat 0 overtakes with its last three cards 2, 3, 4."""


# ----- helpers -----


def new_game(backend: Backend, players: int = 2, **options: Any) -> GameProtocol:
    return cardtable.make("trafficars_overtaking", players=players, backend=backend, **options)


def complete(players: int, tops: Sequence[Sequence[int]], removed: Sequence[int] = ()) -> list[int]:
    """The deal outcomes: ``removed``, then every pile: its ``tops``, then leftover cards."""
    size = 50 // players
    named = {*removed, *(card for top in tops for card in top)}
    leftover = [card for card in range(1, 51) if card not in named]
    piles = []
    for top in tops:
        missing = size - len(top)
        piles.append([*top, *leftover[:missing]])
        leftover = leftover[missing:]
    assert not leftover
    assert sorted(card for pile in piles for card in pile) == sorted(
        set(range(1, 51)) - set(removed)
    )
    return [*removed, *(card for pile in piles for card in pile)]


def dealt(
    backend: Backend, tops: Sequence[Sequence[int]], removed: Sequence[int] = (), **options: Any
) -> StateProtocol:
    """A new game with the given removed cards and pile tops dealt."""
    state = new_game(backend, players=len(tops), **options).new_state()
    for card in complete(len(tops), tops, removed):
        assert state.is_chance_node
        state.apply(card)
    return state


def public(state: StateProtocol) -> dict[str, Any]:
    """The observation of seat 0 without its hand."""
    observation = dict(state.observation(0))
    del observation["seat"], observation["hand"]
    return observation


def hand(state: StateProtocol, seat: int) -> list[int]:
    """The hand of ``seat``."""
    cards: list[int] = state.observation(seat)["hand"]
    return cards


def row(state: StateProtocol) -> list[int]:
    """The row, left to right."""
    cards: list[int] = state.observation(0)["row"]
    return cards


def act(state: StateProtocol, seat: int, action: int) -> None:
    """``seat`` takes ``action``; it must be that seat's turn."""
    assert state.current_player == seat
    state.apply(action, player=seat)


def play_letting_go(state: StateProtocol, seat: int, *cards: int) -> None:
    """``seat`` plays the cards one after another; the overtaker lets every card go."""
    for card in cards:
        act(state, seat, card)
        if state.observation(0)["phase"] == "overtake":
            state.apply(LET_GO)


def seat_0_overtakes_the_1(
    backend: Backend, deal: Sequence[Sequence[int]], last: int
) -> StateProtocol:
    """One of the five-player deals above with the optional overtake: seat 0 plays 30, 40, 48,
    20, 10 and then ``last``, the last card of its hand (each one let go), and refills its hand
    from its pile; seats 1 to 3 pass, seat 4 plays its 1 and seat 0 overtakes it."""
    state = dealt(backend, deal, **OPTIONAL)
    play_letting_go(state, 0, 30, 40, 48, 20, 10, last)
    assert hand(state, 0) == sorted(deal[0][7:])
    for seat in (1, 2, 3):
        act(state, seat, PASS)
    act(state, 4, 1)
    act(state, 0, OVERTAKE)
    return state


def worked_example(backend: Backend, **options: Any) -> StateProtocol:
    """The contract's two-player example, dealt: seat 0 starts the row with 18."""
    return dealt(
        backend,
        (
            [3, 11, 20, 26, 40, 47, 18, 1],
            [8, 21, 24, 30, 33, 45, 14, 49],
        ),
        **options,
    )


def passing_example(backend: Backend) -> StateProtocol:
    """Three players, 1 and 50 removed; play up to the contract's passing example.

    Seat 0 plays 44 onto the start card 20 and is overtaken by seat 1 with 30; seat 1 plays 10 and
    is overtaken by seat 2 with 15 (both overtakes are compulsory); the row is then
    [10, 15, 20, 30, 44] with seat 2 active.
    """
    state = dealt(
        backend,
        (
            [44, 11, 12, 13, 14, 16, 20, 17],
            [10, 30, 45, 46, 47, 48, 21, 22],
            [15, 49, 31, 32, 33, 34, 35, 36, 37],
        ),
        removed=[50, 1],
    )
    act(state, 0, 44)
    act(state, 1, 10)
    return state


# ----- the deal -----


def test_two_players_share_the_50_cards_without_removing_any(backend: Backend) -> None:
    """The 50 cars go into the players' piles, top first; with two players the deal is even.

    "Kaikki kortit jaetaan pelaajien kesken ja asetetaan pelaajan eteen pinoon, kuvapuoli
    alaspäin." (All the cards are dealt among the players and put in a face-down pile in front of
    each player.) The booklet keeps no score: the running -(hand + pile) is Decision 10.
    """
    state = new_game(backend).new_state()
    assert state.current_player == CHANCE
    assert state.chance_outcomes() == [(card, 1 / 50) for card in range(1, 51)]
    assert state.action_label(7) == "deal 7 to seat 0"
    assert public(state) == {
        "phase": "deal",
        "row": [],
        "pile_sizes": [0, 0],
        "hand_sizes": [0, 0],
        "active": 0,
        "overtaker": 1,
        "passes": 0,
        "overtake_card": None,
        "winner": None,
    }
    for card in range(50, 25, -1):
        state.apply(card)
    assert public(state)["pile_sizes"] == [25, 0]
    assert state.action_label(7) == "deal 7 to seat 1"
    assert state.to_dict()["state"]["piles"][0] == list(range(50, 25, -1))
    assert state.scores == [-25, 0]


def test_the_deck_is_the_50_car_cards_without_the_trailers(backend: Backend) -> None:
    """Decision 12: "Poista pakasta kaikki erikoiskortit (eli kortit, joissa ei ole lukua)". The
    booklet counts the trailers (numbers 10, 20 and 30) among its 12 special cards."""
    trailers = [card.id for card in TRAFFICARS_CARDS.values() if card.kind == "trailer"]
    assert trailers == [51, 52, 53]
    state = new_game(backend, 3).new_state()
    assert [card for card, _ in state.chance_outcomes()] == list(range(1, 51))
    while state.current_player == CHANCE:
        outcomes = [card for card, _ in state.chance_outcomes()]
        assert set(outcomes) <= set(range(1, 51))
        state.apply(outcomes[-1])
    assert state.current_player == 0


@pytest.mark.parametrize(("players", "pile"), [(2, 25), (3, 16), (4, 12), (5, 10)])
def test_everyone_draws_six_and_seat_0_turns_its_pile_top_as_start_card(
    backend: Backend, players: int, pile: int
) -> None:
    """After the deal everyone draws 6 cards, then seat 0 turns its pile top as the start card.

    "Pelin aluksi jokainen pelaaja ottaa käteensä 6 korttia omasta pakastaan. Nuorin pelaaja
    aloittaa." (At the start every player takes 6 cards from his own pile into his hand. The
    youngest player starts.) "Pelin aloittaja avaa pakkansa päällimmäisenä olevan kortin ja
    asettaa sen pöydän keskelle aloituskortiksi." (The starting player turns the top card of his
    pile and puts it in the middle of the table as the start card.) The overtaker is "Vuorossa
    olevan pelaajan vasemmalla puolella oleva pelaaja" (the player on the left of the player in
    turn): seat 1 (contract, Decision 3).
    """
    removed = list(range(50, 50 - 50 % players, -1))
    deal = complete(players, [[] for _ in range(players)], removed)
    state = new_game(backend, players).new_state()
    for card in deal:
        state.apply(card)
    piles = [deal[len(removed) + seat * pile :][:pile] for seat in range(players)]
    assert state.current_player == 0
    observation = public(state)
    assert observation["phase"] == "play"
    assert observation["row"] == [piles[0][6]]
    assert observation["hand_sizes"] == [6] * players
    assert observation["pile_sizes"] == [pile - 7] + [pile - 6] * (players - 1)
    assert (observation["active"], observation["overtaker"]) == (0, 1)
    for seat in range(players):
        assert hand(state, seat) == sorted(piles[seat][:6])
    assert state.to_dict()["state"]["piles"] == [piles[0][7:]] + [p[6:] for p in piles[1:]]
    assert state.to_dict()["state"]["removed"] == removed
    assert state.scores == [-(pile - 1)] + [-pile] * (players - 1)


@pytest.mark.parametrize("players", [3, 4])
def test_the_leftover_two_cards_are_removed_unseen(backend: Backend, players: int) -> None:
    """ "Jos jako ei mene tasan, pelistä voidaan poistaa tarvittava määrä kortteja." (If the deal
    does not come out even, the cards needed may be removed from the game.) The 50 mod n cards are
    removed at random and unseen, before the piles are dealt (contract, Decision 4).
    """
    state = new_game(backend, players).new_state()
    assert state.action_label(33) == "remove 33"
    assert state.chance_outcomes() == [(card, 1 / 50) for card in range(1, 51)]
    state.apply(33)
    assert state.action_label(33) == "remove 33"
    assert [card for card, _ in state.chance_outcomes()] == [c for c in range(1, 51) if c != 33]
    state.apply(7)
    assert state.action_label(33) == "deal 33 to seat 0"
    assert state.chance_outcomes() == [
        (card, 1 / 48) for card in range(1, 51) if card not in (7, 33)
    ]
    assert state.to_dict()["state"]["removed"] == [33, 7]
    assert public(state)["pile_sizes"] == [0] * players
    for card in [c for c in range(1, 51) if c not in (7, 33)]:
        state.apply(card)
    pile = 50 // players
    assert public(state)["pile_sizes"] == [pile - 7] + [pile - 6] * (players - 1)
    for seat in range(players):
        assert "removed" not in state.observation(seat)
        assert 7 not in hand(state, seat) and 33 not in hand(state, seat)
    assert all(7 not in p and 33 not in p for p in state.to_dict()["state"]["piles"])


def test_two_and_five_players_remove_nothing(backend: Backend) -> None:
    """ "Kaikki kortit jaetaan pelaajien kesken …" (all the cards are dealt among the players …);
    only "Jos jako ei mene tasan" (if the deal does not come out even) are cards removed, and 50
    cards share evenly among 2 or 5 players.
    """
    for players in (2, 5):
        state = new_game(backend, players).new_state()
        assert state.action_label(33) == "deal 33 to seat 0"
        state.apply(33)
        assert state.to_dict()["state"]["removed"] == []
        assert state.to_dict()["state"]["piles"][0] == [33]


# ----- the row and its two ends -----


def test_every_hand_card_fits_a_row_of_one_start_card(backend: Backend) -> None:
    """ "Pelaaja jatkaa asettamalla kädestään kortteja avaamansa kortin oikealle puolelle (jos
    kortin luku on pöydällä olevan kortin lukua suurempi) tai vasemmalle puolelle (jos kortin
    luku on pienempi)." (The player goes on putting cards from his hand to the right of the card he
    turned, if its number is larger, or to its left, if smaller.) Every other number is one or the
    other.
    """
    state = worked_example(backend)
    assert row(state) == [18]
    assert state.legal_actions() == [3, 11, 20, 26, 40, 47]
    assert state.action_label(26) == "play 26"


def test_cards_go_left_if_smaller_and_right_if_larger(backend: Backend) -> None:
    """Cards go to the left end if smaller and to the right end if larger, never inside the row.

    "… oikealle puolelle (jos kortin luku on pöydällä olevan kortin lukua suurempi) tai
    vasemmalle puolelle (jos kortin luku on pienempi)" (… to the right if the number is larger, to
    the left if smaller) and "Jokaisen pöydälle asetettavan kortin pitää olla joko pienempi kuin
    jonon vasemmassa laidassa oleva kortti tai suurempi kuin jonon oikeassa laidassa oleva kortti"
    (every card put down must be smaller than the row's leftmost card or larger than its
    rightmost). With only 10 and 40 left nothing fits: "… hän sanoo Ohi" (… he says "Pass").
    """
    state = dealt(backend, ([10, 20, 30, 40, 45, 5, 25], [1, 2, 3, 4, 46, 47]))
    assert row(state) == [25]
    act(state, 0, 30)
    act(state, 0, 20)
    assert row(state) == [20, 25, 30]
    # Only cards below the leftmost or above the rightmost fit.
    assert state.legal_actions() == [5, 10, 40, 45]
    act(state, 0, 45)
    act(state, 0, 5)
    assert row(state) == [5, 20, 25, 30, 45]
    assert hand(state, 0) == [10, 40]
    assert state.legal_actions() == [PASS]


def test_overtaking_is_compulsory(backend: Backend) -> None:
    """An overtaker who holds fitting cards overtakes at once, with no decision.

    "… ohituskaistalle pyrkivän pelaajan pitää … sanoa Ohitus!, jos hänellä on
    ohituskaistalle sopiva kortti" (… the player waiting for the overtaking lane MUST … call
    "Overtake!" if he has a card that fits the overtaking lane).
    """
    state = worked_example(backend)
    assert state.to_dict()["options"] == {"optional_overtake": False}
    before = len(state.history)
    act(state, 0, 26)
    # Seat 1 holds 21 and 24, strictly between 18 and 26: they go into the row within the play.
    assert row(state) == [18, 21, 24, 26]
    observation = public(state)
    assert observation["phase"] == "play"
    assert (observation["active"], observation["overtaker"]) == (1, 0)
    assert observation["overtake_card"] is None
    assert state.history[before:] == [26]
    assert hand(state, 1) == [8, 14, 30, 33, 45, 49]
    assert state.legal_actions() == [8, 14, 30, 33, 45, 49]
    assert state.action_label(LET_GO) == "action 52"
    act(state, 1, 14)
    act(state, 1, 8)
    # Seat 0 holds 11, between 8 and 14: it overtakes and plays on.
    assert row(state) == [8, 11, 14, 18, 21, 24, 26]
    assert (public(state)["active"], public(state)["overtaker"]) == (0, 1)
    assert state.current_player == 0


def test_with_optional_overtake_the_overtaker_chooses(backend: Backend) -> None:
    """With ``optional_overtake`` the overtaker decides: "overtake" (51) or "let go" (52).

    The variant for studying a game where a player may wait, although the booklet says "pitää"
    (must): "… ohituskaistalle pyrkivän pelaajan pitää … sanoa Ohitus!, jos hänellä on
    ohituskaistalle sopiva kortti".
    """
    state = worked_example(backend, **OPTIONAL)
    assert state.to_dict()["options"] == {"optional_overtake": True}
    act(state, 0, 26)
    assert row(state) == [18, 26]
    # Seat 1 holds 21 and 24, strictly between 18 and 26.
    observation = public(state)
    assert observation["phase"] == "overtake"
    assert observation["overtake_card"] == 26
    assert state.current_player == 1
    assert state.legal_actions() == [OVERTAKE, LET_GO]
    assert state.action_label(OVERTAKE) == "overtake"
    assert state.action_label(LET_GO) == "let go"
    act(state, 1, OVERTAKE)
    assert row(state) == [18, 21, 24, 26]
    observation = public(state)
    assert observation["phase"] == "play"
    assert (observation["active"], observation["overtaker"]) == (1, 0)
    assert observation["overtake_card"] is None
    # The refill: seat 0 (5 cards) draws 1, seat 1 (4 cards) draws 2.
    assert hand(state, 0) == [1, 3, 11, 20, 40, 47]
    assert hand(state, 1) == [8, 14, 30, 33, 45, 49]
    assert state.legal_actions() == [8, 14, 30, 33, 45, 49]
    act(state, 1, 14)
    # Seat 0 holds nothing in 15..17: no overtake node, seat 1 plays on.
    assert row(state) == [14, 18, 21, 24, 26]
    assert public(state)["phase"] == "play"
    assert state.current_player == 1
    act(state, 1, 8)
    observation = public(state)
    assert observation["phase"] == "overtake"
    assert observation["overtake_card"] == 8
    act(state, 0, LET_GO)
    observation = public(state)
    assert observation["phase"] == "play"
    assert (observation["active"], observation["overtaker"]) == (1, 0)
    assert observation["overtake_card"] is None
    assert row(state) == [8, 14, 18, 21, 24, 26]
    assert hand(state, 0) == [1, 3, 11, 20, 40, 47]
    assert state.legal_actions() == [30, 33, 45, 49]


def test_overtaking_puts_every_card_between_into_the_row(backend: Backend) -> None:
    """The overtaker puts every hand card between the played card and its neighbour into the row.

    "Hän yrittää löytää kädestään yhden tai useamman kortin, jotka osuvat jonossa jo olevien
    korttien ja vuorossa olevan pelaajan pelaaman kortin väliin. … hän sanoo Ohitus! ja asettaa
    pöydälle kaikki kortit, jotka sopivat väliin." (He tries to find in his hand one or more cards
    that fall between the cards already in the row and the card the player in turn played … he
    calls "Overtake!" and puts down ALL the cards that fit in between.) Then "Vuoron vaihtuessa
    kaikki pelaajat nostavat pakasta kortteja niin, että heillä on kädessään 6 korttia" (when the
    turn changes, every player draws from his pile until he holds 6 cards).
    """
    state = dealt(backend, ([2, 30, 31, 32, 33, 34, 40], [3, 5, 7, 38, 39, 41]))
    act(state, 0, 2)
    # Between 2 and its neighbour 40: seat 1 holds 3, 5, 7, 38 and 39 (not 41).
    assert row(state) == [2, 3, 5, 7, 38, 39, 40]
    assert 41 in hand(state, 1)
    assert public(state)["hand_sizes"] == [6, 6]
    assert public(state)["pile_sizes"] == [25 - 8, 25 - 11]


def test_only_cards_between_the_played_card_and_its_neighbour_overtake(backend: Backend) -> None:
    """Only a card between the played card and the card it was put next to overtakes.

    "… kortin, jotka osuvat jonossa jo olevien korttien ja vuorossa olevan pelaajan pelaaman
    kortin väliin" (… a card that falls between the cards already in the row and the card the
    player in turn played): 15 lies inside the row, between 10 and 20, not between 20 and the
    played 30 (contract, Decision 2).
    """
    state = dealt(backend, ([10, 30, 1, 2, 3, 4, 20], [15, 35, 36, 37, 38, 39]), **OPTIONAL)
    act(state, 0, 10)
    # Seat 1 holds 15 between 10 and 20.
    act(state, 1, LET_GO)
    assert state.current_player == 0
    act(state, 0, 30)
    # 15 lies inside the row but not between 30 and its neighbour 20: no overtake node.
    assert public(state)["phase"] == "play"
    assert state.current_player == 0
    assert row(state) == [10, 20, 30]


def test_letting_go_lets_the_active_player_play_on(backend: Backend) -> None:
    """With ``optional_overtake`` a "let go" leaves the active seat to play on, without a refill.

    The booklet has no "let go" (the overtaker "pitää … sanoa Ohitus!", MUST call "Overtake!"):
    the option is the contract's variant of Decision 1. The player in turn does not change, so
    nobody draws: "Vuoron vaihtuessa kaikki pelaajat nostavat pakasta kortteja niin, että heillä
    on kädessään 6 korttia" (WHEN THE TURN CHANGES, every player draws up to 6 cards in hand).
    """
    state = worked_example(backend, **OPTIONAL)
    act(state, 0, 26)
    act(state, 1, LET_GO)
    observation = public(state)
    assert observation["phase"] == "play"
    assert (observation["active"], observation["overtaker"]) == (0, 1)
    assert row(state) == [18, 26]
    assert hand(state, 0) == [3, 11, 20, 40, 47]
    # No change of the active player: no refill.
    assert observation["hand_sizes"] == [5, 6]
    assert state.legal_actions() == [3, 11, 40, 47]


def test_a_start_card_or_overtaking_cards_give_no_overtake_chance(backend: Backend) -> None:
    """Only a card the active player played gives an overtake chance.

    The overtaking cards fall "… vuorossa olevan pelaajan pelaaman kortin väliin" (… between the
    row and the card the player in turn played); a start card is turned from the pile, and the
    overtaker puts its cards down before "Ohituskaistalle päässyt pelaaja muuttuu vuorossa olevaksi
    pelaajaksi" (the player who got into the overtaking lane becomes the player in turn), so the
    new overtaker does not overtake them (contract, Decision 2).
    """
    state = worked_example(backend)
    # Seat 1 holds cards on both sides of the start card 18: no overtake node before seat 0 plays.
    assert public(state)["phase"] == "play"
    act(state, 0, 26)
    # Seat 0 holds 20, between the overtaking cards: the new active seat plays at once.
    assert public(state)["phase"] == "play"
    assert state.current_player == 1


# ----- passing and new rows -----


def test_a_pass_is_forced_and_only_allowed_when_nothing_fits(backend: Backend) -> None:
    """ "Jos vuorossa olevalla pelaajalla ei ole yhtään pöydälle sopivaa korttia, hän sanoo Ohi, ja
    vuoro siirtyy seuraavalle pelaajalle." (If the player in turn has no card that fits the table,
    he says "Pass" and the turn goes to the next player.) That a seat holding a fitting card may not
    pass is the contract's reading (Decision 6). Before that, "Jos ohituskaistalle pyrkivä pelaaja
    ei pysty pelaamaan yhtään korttia, vuorossa oleva pelaaja asettaa seuraavan kortin pöydälle"
    (if the overtaker cannot play a card, the player in turn puts down his next card).
    """
    state = passing_example(backend)
    assert row(state) == [10, 15, 20, 30, 44]
    assert (public(state)["active"], public(state)["overtaker"]) == (2, 0)
    assert state.legal_actions() == [49]
    assert_rejected(state, PASS)
    act(state, 2, 49)
    # Seat 0 holds nothing in 45..48; seat 2 plays on but nothing fits: it must pass.
    assert public(state)["phase"] == "play"
    assert state.current_player == 2
    assert state.legal_actions() == [PASS]
    assert state.action_label(PASS) == "pass"
    assert hand(state, 2) == [31, 32, 33, 34, 35]


def test_everyone_passing_clears_the_row_and_the_next_seat_starts_a_new_one(
    backend: Backend,
) -> None:
    """ "Jos kukaan pelaajista ei pysty pelaamaan yhtään korttia (kaikki ovat sanoneet Ohi ),
    pöydällä olevat kortit poistetaan pelistä ja seurava pelaaja aloittaa uuden jonon avaamalla
    pakassaan päällimmäisenä olevan kortin pöydälle." (If none of the players can play a card, all
    having said "Pass", the cards on the table leave the game and the next player starts a new row
    by turning the top card of his pile.) Each pass changes the player in turn: "Vuoron
    vaihtuessa kaikki pelaajat täydentävät käteensä 6 korttia" (when the turn changes, every
    player refills his hand to 6 cards).
    """
    state = passing_example(backend)
    act(state, 2, 49)
    act(state, 2, PASS)
    observation = public(state)
    assert observation["passes"] == 1
    assert (observation["active"], observation["overtaker"]) == (0, 1)
    # The change of the active player refills seat 2's hand from its pile.
    assert hand(state, 2) == [31, 32, 33, 34, 35, 36]
    assert row(state) == [10, 15, 20, 30, 44, 49]
    act(state, 0, PASS)
    assert public(state)["passes"] == 2
    assert state.current_player == 1
    act(state, 1, PASS)
    observation = public(state)
    # Three passes by three players: the row leaves the game, seat 2 starts with its pile top.
    assert observation["passes"] == 0
    assert observation["row"] == [37]
    assert observation["phase"] == "play"
    assert (observation["active"], observation["overtaker"]) == (2, 0)
    assert state.current_player == 2
    assert observation["hand_sizes"] == [6, 6, 6]
    assert observation["pile_sizes"] == [16 - 8, 16 - 8, 16 - 9]


def test_a_card_placed_resets_the_passes(backend: Backend) -> None:
    """A card put into the row starts the count of passes anew.

    "Jos kukaan pelaajista ei pysty pelaamaan yhtään korttia (kaikki ovat sanoneet Ohi ) …" (If
    none of the players can play a card, all having said "Pass" …): a seat that plays a card was
    not stuck, so only the passes since the last card placed count (contract, Decision 6).
    """
    state = dealt(
        backend,
        (
            [1, 40, 20, 21, 22, 23, 25, 24, 26],
            [45, 30, 31, 32, 33, 34],
            [2, 3, 4, 5, 6, 7],
        ),
        removed=[48, 49],
        **OPTIONAL,
    )
    act(state, 0, 1)
    act(state, 0, 40)
    act(state, 1, LET_GO)  # seat 1 holds 30..34, between 25 and 40
    assert state.legal_actions() == [PASS]
    act(state, 0, PASS)
    assert public(state)["passes"] == 1
    assert hand(state, 0) == [20, 21, 22, 23, 24, 26]
    assert state.legal_actions() == [45]
    act(state, 1, 45)
    assert public(state)["passes"] == 0
    assert row(state) == [1, 25, 40, 45]


def test_an_emptied_hand_moves_the_turn_on_without_a_pass(backend: Backend) -> None:
    """ "Jos vuorossa oleva pelaaja on saanut pelattua kaikki kortit kädestään, vuoro siirtyy
    seuraavalle pelaajalle." (If the player in turn has played all the cards in his hand, the turn
    goes to the next player.) This is no pass (contract, Decision 7); "Vuoron vaihtuessa kaikki
    pelaajat täydentävät käteensä 6 korttia" (when the turn changes, every player refills his hand
    to 6 cards).
    """
    state = dealt(
        backend,
        (
            [30, 31, 32, 33, 34, 35, 20, 36],
            [1, 2, 3, 4, 5, 6],
            [7, 8, 9, 10, 11, 12],
        ),
        removed=[49, 50],
    )
    play_letting_go(state, 0, 30, 31, 32, 33, 34, 35)
    observation = public(state)
    assert (observation["active"], observation["overtaker"]) == (1, 2)
    assert observation["passes"] == 0
    assert observation["hand_sizes"] == [6, 6, 6]
    assert 36 in hand(state, 0)
    assert state.legal_actions() == [1, 2, 3, 4, 5, 6]


def test_an_emptied_hand_moves_the_turn_on_and_refills(backend: Backend) -> None:
    """An emptied hand moves the turn on; the refill draws what the pile still holds.

    "Jos vuorossa oleva pelaaja on saanut pelattua kaikki kortit kädestään, vuoro siirtyy
    seuraavalle pelaajalle. Vuoron vaihtuessa kaikki pelaajat täydentävät käteensä 6 korttia." (If
    the player in turn has played all the cards in his hand, the turn goes to the next player.
    When the turn changes, every player refills his hand to 6 cards.) Seat 0's pile holds only 3
    cards: it draws them all.
    """
    state = dealt(backend, FIVE_PLAYERS_START_FROM_HAND, **OPTIONAL)
    play_letting_go(state, 0, 30, 40, 48, 20, 10)
    assert hand(state, 0) == [3]
    assert public(state)["pile_sizes"][0] == 3
    act(state, 0, 3)
    # Seat 1 holds 4..9 between 3 and 10.
    assert public(state)["phase"] == "overtake"
    act(state, 1, LET_GO)
    observation = public(state)
    assert (observation["active"], observation["overtaker"]) == (1, 2)
    assert observation["passes"] == 0
    assert hand(state, 0) == [2, 15, 35]
    assert observation["pile_sizes"] == [0, 4, 4, 4, 4]
    assert observation["hand_sizes"] == [3, 6, 6, 6, 6]
    assert row(state) == [3, 10, 20, 25, 30, 40, 48]


def test_with_an_empty_pile_the_start_card_comes_from_the_hand(backend: Backend) -> None:
    """A seat whose pile is empty starts the new row with a hand card of its choice.

    The booklet starts a row "avaamalla pakassaan päällimmäisenä olevan kortin pöydälle" (by
    turning the top card of one's pile onto the table) and is silent on an empty pile: contract,
    Decision 5. Playing the last card wins: "Peli jatkuu, kunnes yhdeltä pelaajalta loppuvat kortit
    kädestä ja pakasta. Tämä pelaaja voittaa." (The game goes on until one player has no cards
    left in hand or pile. This player wins.)
    """
    state = dealt(backend, FIVE_PLAYERS_START_FROM_HAND, **OPTIONAL)
    play_letting_go(state, 0, 30, 40, 48, 20, 10, 3)
    for seat in (1, 2, 3):
        assert state.legal_actions() == [PASS]
        act(state, seat, PASS)
    assert public(state)["passes"] == 3
    assert state.legal_actions() == [1]
    act(state, 4, 1)
    assert public(state)["passes"] == 0
    assert public(state)["overtake_card"] == 1
    act(state, 0, OVERTAKE)
    assert row(state) == [1, 2, 3, 10, 20, 25, 30, 40, 48]
    observation = public(state)
    assert (observation["active"], observation["overtaker"]) == (0, 1)
    assert hand(state, 4) == [38, 39, 41, 42, 43, 44]
    assert hand(state, 0) == [15, 35]
    for seat in (0, 1, 2, 3, 4):
        act(state, seat, PASS)
    observation = public(state)
    assert observation["phase"] == "start"
    assert observation["row"] == []
    assert observation["passes"] == 0
    assert (observation["active"], observation["overtaker"]) == (0, 1)
    assert state.current_player == 0
    assert state.legal_actions() == [15, 35]
    assert state.action_label(15) == "start the row with 15"
    assert state.action_label(PASS) == "action 53"
    act(state, 0, 15)
    assert row(state) == [15]
    assert public(state)["phase"] == "play"
    assert state.legal_actions() == [35]
    act(state, 0, 35)
    assert state.is_terminal
    assert state.winners == [0]
    assert public(state)["winner"] == 0


def test_a_start_card_from_the_hand_is_a_decision_even_with_one_card(backend: Backend) -> None:
    """Starting a row from the hand is a decision even with one card (contract, Decision 5; the
    booklet is silent on an empty pile). That card is the seat's last, so it wins at once: "Peli
    jatkuu, kunnes yhdeltä pelaajalta loppuvat kortit kädestä ja pakasta. Tämä pelaaja voittaa."
    (The game goes on until one player has no cards left in hand or pile. This player wins.)
    """
    state = seat_0_overtakes_the_1(backend, FIVE_PLAYERS_WIN_BY_START_CARD, 4)
    assert row(state)[:4] == [1, 2, 3, 4]
    assert hand(state, 0) == [35]
    for seat in (0, 1, 2, 3, 4):
        act(state, seat, PASS)
    assert public(state)["phase"] == "start"
    assert state.legal_actions() == [35]
    act(state, 0, 35)
    # The start card was seat 0's last card: it wins at once.
    observation = public(state)
    assert observation["phase"] == "over"
    assert observation["winner"] == 0
    assert observation["row"] == [35]
    assert state.current_player == TERMINAL
    assert state.winners == [0]
    assert state.scores == [0, -10, -10, -10, -9]


# ----- the win -----


def test_the_first_player_without_cards_wins_even_by_overtaking(backend: Backend) -> None:
    """Getting rid of the last cards by overtaking wins at once.

    "Pelin voittaa pelaaja, joka pääsee eroon korteistaan ensimmäisenä." (The player who gets rid
    of his cards first wins.) "Peli jatkuu, kunnes yhdeltä pelaajalta loppuvat kortit kädestä ja
    pakasta. Tämä pelaaja voittaa." (The game goes on until one player has no cards left in hand
    or pile. This player wins.) That nothing else of the step happens is Decision 9.
    """
    state = seat_0_overtakes_the_1(backend, FIVE_PLAYERS_WIN_BY_OVERTAKING, 5)
    observation = public(state)
    # Nothing else happens: no change of the active player, no refill.
    assert observation == {
        "phase": "over",
        "row": [1, 2, 3, 4, 5, 10, 20, 25, 30, 40, 48],
        "pile_sizes": [0, 4, 4, 4, 4],
        "hand_sizes": [0, 6, 6, 6, 5],
        "active": 4,
        "overtaker": 0,
        "passes": 0,
        "overtake_card": None,
        "winner": 0,
    }
    assert state.is_terminal
    assert state.legal_actions() == []
    assert state.winners == [0]
    assert state.scores == [0, -10, -10, -10, -9]
    assert state.action_label(OVERTAKE) == "action 51"
    assert_rejected(state, 1)


def test_scores_count_the_cards_left_in_hand_and_pile(backend: Backend) -> None:
    """The booklet only names a winner and is silent on scores: the running score -(hand + pile)
    is the contract's Decision 10.
    """
    state = worked_example(backend)
    assert state.scores == [-24, -25]
    act(state, 0, 26)
    assert state.scores == [-23, -23]
    assert state.winners == []


# ----- labels and bad input -----


def test_labels_depend_only_on_the_node_and_the_id(backend: Backend) -> None:
    state = worked_example(backend, **OPTIONAL)
    assert state.action_label(0) == "action 0"
    assert state.action_label(50) == "play 50"
    assert state.action_label(OVERTAKE) == "action 51"
    assert state.action_label(LET_GO) == "action 52"
    assert state.action_label(PASS) == "pass"
    act(state, 0, 26)
    assert state.action_label(26) == "action 26"
    assert state.action_label(PASS) == "action 53"
    assert state.action_label(0) == "action 0"
    fresh = new_game(backend, 3).new_state()
    assert fresh.action_label(0) == "action 0"
    assert fresh.action_label(51) == "action 51"
    assert fresh.action_label(50) == "remove 50"


def test_illegal_plays_are_rejected(backend: Backend) -> None:
    """A card that does not fit, an id that is no play here and another seat's play are rejected.

    "Jokaisen pöydälle asetettavan kortin pitää olla joko pienempi kuin jonon vasemmassa laidassa
    oleva kortti tai suurempi kuin jonon oikeassa laidassa oleva kortti" (every card put down must
    be smaller than the row's leftmost card or larger than its rightmost): 20 lies inside the row.
    """
    state = worked_example(backend, **OPTIONAL)
    act(state, 0, 26)
    act(state, 1, LET_GO)
    for action in (0, 20, 18, 21, 26, OVERTAKE, LET_GO, PASS, 54, -1):
        assert_rejected(state, action)
    assert_rejected(state, 40, player=1)
    act(state, 0, 40)
    act(state, 1, OVERTAKE)  # 30 and 33 lie between 26 and 40
    assert row(state) == [18, 26, 30, 33, 40]


def test_the_overtaker_may_only_overtake_or_let_go(backend: Backend) -> None:
    """At an ``overtake`` node the overtaker cannot pick some of its fitting cards.

    "… asettaa pöydälle kaikki kortit, jotka sopivat väliin" (… puts down ALL the cards that fit in
    between); the choice of overtaking or not is the variant of Decision 1.
    """
    state = worked_example(backend, **OPTIONAL)
    act(state, 0, 26)
    for action in (21, 24, 3, PASS, 0):
        assert_rejected(state, action)
    assert_rejected(state, OVERTAKE, player=0)


def test_the_start_card_must_come_from_the_hand(backend: Backend) -> None:
    """With an empty pile the start card must be one of the seat's own hand cards. The booklet
    only starts a row from the pile and is silent here (contract, Decision 5).
    """
    state = seat_0_overtakes_the_1(backend, FIVE_PLAYERS_START_FROM_HAND, 3)
    for seat in (0, 1, 2, 3, 4):
        act(state, seat, PASS)
    for action in (2, 25, 38, PASS, OVERTAKE, 0):
        assert_rejected(state, action)
    assert_rejected(state, 15, player=1)


def test_removed_or_dealt_cards_cannot_be_dealt_again(backend: Backend) -> None:
    state = new_game(backend, 4).new_state()
    state.apply(12)
    assert_rejected(state, 12)
    assert_rejected(state, 0)
    assert_rejected(state, 51)
    state.apply(13)
    assert_rejected(state, 13)
    state.apply(14)
    assert_rejected(state, 14)
    assert_rejected(state, 15, player=0)


@pytest.mark.parametrize(
    "options",
    [
        {"players": 1},
        {"players": 6},
        *one_bad_option_each(2, {"jokers": [True], "optional_overtake": [1, "yes", None]}),
    ],
)
def test_bad_options_are_rejected(backend: Backend, options: dict[str, Any]) -> None:
    with pytest.raises(InvalidOptionError):
        cardtable.make("trafficars_overtaking", backend=backend, **options)


def test_optional_overtake_is_the_only_option_and_there_are_54_actions(backend: Backend) -> None:
    game = new_game(backend, 3)
    assert game.options == {"optional_overtake": False}
    assert game.num_actions == 54
    game = new_game(backend, 3, optional_overtake=True)
    assert game.options == {"optional_overtake": True}
    assert game.num_actions == 54


def test_a_state_dict_round_trip_keeps_piles_and_hands(backend: Backend) -> None:
    game = new_game(backend, 3)
    state = passing_example(backend)
    act(state, 2, 49)
    twin = game.state_from_dict(state.to_dict())
    assert twin.to_dict() == state.to_dict()
    for seat in range(3):
        assert twin.observation(seat) == state.observation(seat)
