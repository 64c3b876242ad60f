"""Rule scenarios of Trafficars game 2, the memory game (rules doc ``rules/trafficars.md``).

Every state starts without a seed, so every chance node is explicit: the tests lay out the grid they
want (position 0 first) and flip the cards they want, then check the exact outcome the rules and the
contract (``docs/games/trafficars_memory.md``) prescribe. The tests name cards, not positions: the
layouts are given as card lists and :func:`flip` finds where a card lies.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import pytest

import cardtable
from cardtable import CHANCE, TERMINAL, Backend, GameProtocol, StateProtocol
from cardtable.errors import InvalidOptionError
from cardtable.reference.trafficars import CARDS as TRAFFICARS_CARDS
from tests.game_info import GameTestInfo, Mutation, Run
from tests.scenarios import assert_rejected

# ----- what the shared tests need (the GAME block below) -----


def hidden_cards(state: StateProtocol, p: int) -> tuple[set[str], set[str]]:
    """What seat p must not see in a picture (``tests/test_render.py``): the cards on the table
    that are face down and that it has not seen (``data-card`` ids)."""
    s = state.to_dict()["state"]
    o = state.observation(p)
    return {
        str(card)
        for i, card in enumerate(s["layout"])
        if o["on_table"][i] and o["faces"][i] is None and o["seen"][i] is None
    }, set()


GAME = GameTestInfo(
    configs=[
        {"players": 2},
        # A six-car table: every car is soon known, so games stall (Decision 11) often enough
        # for the drawn games to reach "stalled game ended" in every run.
        {"players": 2, "max_number": 6},
        {"players": 3, "min_number": 1, "max_number": 12},
        {"players": 4, "jokers": True},
        {"players": 5, "min_number": 26, "max_number": 50, "jokers": True},
    ],
    golden=[
        ("2p-1to12", {"players": 2, "max_number": 12}, 1),
        ("3p-jokers", {"players": 3, "min_number": 26, "max_number": 40, "jokers": True}, 2),
    ],
    perft=({"players": 2, "max_number": 10}, 5, 3, 6),
    tensor_size=None,  # depends on the grid size N
    small={"players": 2, "max_number": 10},
    replay_run=Run(3, ["memory", "forgetful:0.3", "random"], {"jokers": True}),
    saved_run=Run(2, ["memory", "random"]),
    pictures=[("mid", {"players": 2, "max_number": 20}, 13, 9)],
    hidden_cards=hidden_cards,
    # Games per seat-rotated match of the slow strength test, where 60 cannot show the gap: the
    # search's edge over the `memory` bot is a few points, which takes 400 games to show.
    strength_games=400,
    # No search_loses_to: the search long only played even with the perfect-memory bot, but its
    # one-move-deep defaults with `memory` playouts give 0.568 (0.519-0.615) over the 400 games of
    # seed 11 (docs/search.md).
    mutations=(
        Mutation(
            "memory-joker-fills-gap",
            "jokers fill the gaps of a run (mutant: one joker short)",
            "return len(cars) >= CARS_TO_COLLECT and gaps(cars) <= jokers",
            "return len(cars) >= CARS_TO_COLLECT and gaps(cars) < jokers",
        ),
        Mutation(
            "memory-run-broken",
            "from the second car on a gap breaks the run (mutant: from the third)",
            "return len(cars) < CARS_TO_COLLECT or gaps(cars) <= jokers",
            "return len(cars) <= CARS_TO_COLLECT or gaps(cars) <= jokers",
        ),
        Mutation(
            "memory-end-test",
            "the game ends when no collectable set is left (mutant: a joker short)",
            "return any(higher - lower - 1 <= jokers for lower, higher in pairwise(numbers))",
            "return any(higher - lower - 1 < jokers for lower, higher in pairwise(numbers))",
        ),
        Mutation(
            "memory-next-seat",
            "the next seat plays whatever happened (mutant: the same seat again)",
            "self._next_turn_or_end(first_seat=(self._current + 1) % self._players)",
            "self._next_turn_or_end(first_seat=self._current)",
        ),
        Mutation(
            "memory-quiet-round",
            "N(N - 1)/2 quiet turns in a row end the game (mutant: one more quiet turn)",
            "stalled = self._quiet_turns >= self._stall_turns",
            "stalled = self._quiet_turns > self._stall_turns",
        ),
    ),
    readme_image=({"players": 3, "max_number": 30}, 6, 14, 0),
)
"""What the generic and shared tests need of this game (see ``tests/game_info.py``)."""

STOP = 63
"""The action "stop and take the run"."""

# ----- layouts -----

DEFAULT_LAYOUT = [*range(50, 0, -1)]
"""The 50 cars of the default game, highest first: card c lies at position 50 - c."""

JOKER_LAYOUT = [7, 52, 1, 12, 5, 9, 3, 51, 11, 2, 8, 4, 10, 6]
"""``min_number=1, max_number=12, jokers=True``: 12 cars and the jokers 51, 52 in a mixed order."""


# ----- helpers -----


def new_game(backend: Backend, players: int = 2, **options: Any) -> GameProtocol:
    return cardtable.make("trafficars_memory", players=players, backend=backend, **options)


def lay_out(state: StateProtocol, layout: Sequence[int]) -> None:
    """Lays the cards out, position 0 first."""
    for card in layout:
        assert state.is_chance_node
        state.apply(card)


IN_ORDER_WITH_JOKERS = [*range(1, 51), *range(51, 63)]
"""Every car, then the 12 jokers of the full deck, laid out in order."""


def laid(
    backend: Backend, layout: Sequence[int] = DEFAULT_LAYOUT, players: int = 2, **options: Any
) -> StateProtocol:
    """A new game with the given layout."""
    state = new_game(backend, players, **options).new_state()
    lay_out(state, layout)
    return state


def position(state: StateProtocol, card: int) -> int:
    """Where ``card`` lies in the layout."""
    layout: list[int] = state.to_dict()["state"]["layout"]
    return layout.index(card)


def flip(state: StateProtocol, *cards: int) -> None:
    """Flips the given cards one after another, all by the seat to move."""
    for card in cards:
        seat = state.current_player
        assert seat >= 0
        state.apply(position(state, card), player=seat)


def public(state: StateProtocol) -> dict[str, Any]:
    """The observation of seat 0."""
    return dict(state.observation(0))


def cards_face_up(state: StateProtocol) -> list[int]:
    """The cards face up now, in flip order."""
    layout: list[int] = state.to_dict()["state"]["layout"]
    return [layout[p] for p in public(state)["flipped"]]


def cards_on_table(state: StateProtocol) -> list[int]:
    """The cards still on the table, sorted."""
    observation = public(state)
    layout: list[int] = state.to_dict()["state"]["layout"]
    return sorted(
        card for card, there in zip(layout, observation["on_table"], strict=True) if there
    )


# ----- options and the deck -----


def test_options_default_to_the_cars_1_to_50_without_jokers(backend: Backend) -> None:
    """The default game uses all 50 cars and no special cards.

    "Pakasta poistetaan kaikki erikoiskortit (kortit, joissa ei ole lukua)." (All the special
    cards, the cards without a number, are removed from the deck.) The jokers are the booklet's
    variant "Erikoiskortit jokerikortteina" (special cards as jokers), off by default.
    """
    game = new_game(backend)
    assert game.options == {"min_number": 1, "max_number": 50, "jokers": False}
    assert game.num_actions == 64
    state = game.new_state()
    assert state.chance_outcomes() == [(card, 1 / 50) for card in range(1, 51)]


@pytest.mark.parametrize(
    ("min_number", "max_number", "jokers"),
    [
        (1, 12, [51, 52]),
        (1, 30, list(range(51, 58))),
        (26, 50, list(range(51, 57))),
        (1, 50, list(range(51, 63))),
        (1, 4, []),
        (20, 24, [51]),
    ],
)
def test_jokers_are_floor_12_per_50_cars_used(
    backend: Backend, min_number: int, max_number: int, jokers: list[int]
) -> None:
    """ "Jos pelissä käytetään vain osaa autokorteista, vähennetään erikoiskorttien määrää
    vastaavasti." (If only some of the car cards are used, the number of special cards is reduced
    accordingly.) "Accordingly" is floor(12 * cars used / 50) (contract, Decision 4).
    """
    # "floor(12 * cars used / 50) of them, ids 51.. in deck order"
    game = new_game(backend, min_number=min_number, max_number=max_number, jokers=True)
    assert game.num_actions == 64
    outcomes = [card for card, _ in game.new_state().chance_outcomes()]
    assert outcomes == [*range(min_number, max_number + 1), *jokers]
    grid = max_number - min_number + 1 + len(jokers)
    assert len(public(game.new_state())["seen"]) == grid


def test_the_trailers_leave_the_deck_and_come_back_only_as_jokers(backend: Backend) -> None:
    """Decision 14: "Pakasta poistetaan kaikki erikoiskortit (kortit, joissa ei ole lukua)". The
    booklet counts the trailers among its 12 special cards although they show a number."""
    trailers = [card.id for card in TRAFFICARS_CARDS.values() if card.kind == "trailer"]
    assert trailers == [51, 52, 53]
    plain = [card for card, _ in new_game(backend).new_state().chance_outcomes()]
    # Each of 10, 20 and 30 once: no trailer repeats a car's number.
    assert plain == list(range(1, 51))
    jokers = new_game(backend, jokers=True).new_state().chance_outcomes()
    assert set(trailers) <= {card for card, _ in jokers}


def test_the_number_range_limits_the_cars_without_jokers(backend: Backend) -> None:
    """ "Pelissä voi käyttää vain osaa korteista. Kortit voivat kattaa vain tietyn lukualueen (esim.
    1 12, 1 30 tai 26 50)." (Only some of the cards may be used: they may cover a range of numbers,
    e.g. 1-12, 1-30 or 26-50; the transcript lost the dashes.) Here the booklet's 26-50.
    """
    state = new_game(backend, min_number=26, max_number=50).new_state()
    assert state.chance_outcomes() == [(card, 1 / 25) for card in range(26, 51)]
    assert len(public(state)["on_table"]) == 25


def test_two_neighbour_cars_are_the_smallest_game(backend: Backend) -> None:
    """Two neighbour cars are the smallest game (contract, Decision 6: at least two cars).

    "Jos pelaajan kääntämien korttien luvut ovat naapuriluvut (esim. 10 ja 9) pelaaja saa kääntää
    kolmannen kortin." (If the numbers the player turned are neighbours, e.g. 10 and 9, he may turn
    a third card.) No card is left to turn, so the turn ends (contract, Decision 1) and "Pelaaja
    ottaa vuoronsa lopuksi kaikki löytämänsä naapuriluvut" (at the end of his turn the player takes
    all the neighbour numbers he found).
    """
    state = laid(backend, [8, 7], min_number=7, max_number=8)
    assert state.current_player == 0
    flip(state, 7)
    assert state.current_player == 0
    flip(state, 8)
    # No face-down card is left: the turn ends keeping the run, and the table is empty.
    assert state.is_terminal
    assert state.scores == [2, 0]
    assert state.winners == [0]


@pytest.mark.parametrize(
    "options",
    [
        {"min_number": 0},
        {"min_number": 51},
        {"max_number": 0},
        {"max_number": 51},
        {"min_number": 12, "max_number": 12},
        {"min_number": 30, "max_number": 20},
        {"min_number": 50},
        {"max_number": 1},
        {"min_number": 1.0},
        {"max_number": "12"},
        {"min_number": True},
        {"jokers": 1},
        {"jokers": "yes"},
        {"jokers": None},
        {"colour": "red"},
        {"players": 1},
        {"players": 6},
    ],
)
def test_bad_options_are_rejected(backend: Backend, options: dict[str, Any]) -> None:
    config = {"players": 2, **options}
    with pytest.raises(InvalidOptionError):
        cardtable.make("trafficars_memory", backend=backend, **config)


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_two_to_five_players(backend: Backend, players: int) -> None:
    """ "2 5 pelaajaa" (2-5 players, the box's count; the transcript lost the dash)."""
    state = laid(backend, players=players)
    assert public(state)["taken"] == [0] * players
    assert state.scores == [0] * players


# ----- the layout -----


def test_the_layout_fills_position_0_first(backend: Backend) -> None:
    """ "Kortit asetetaan pöydälle kuvapuoli alaspäin ruudukoksi." (The cards are laid out face down
    on the table in a grid.) The layout is dealt position by position, position 0 first; then
    "Nuorin pelaaja aloittaa" (the youngest player starts): seat 0 (contract, Decision 7).
    """
    state = new_game(backend, min_number=1, max_number=12, jokers=True).new_state()
    assert state.current_player == CHANCE
    assert state.action_label(52) == "lay joker (52) at position 0"
    assert state.action_label(12) == "lay 12 at position 0"
    observation = public(state)
    assert observation == {
        "seat": 0,
        "phase": "layout",
        "current": None,
        "faces": [None] * 14,
        "seen": [None] * 14,
        "on_table": [False] * 14,
        "taken": [0, 0],
        "flipped": [],
        "idle_turns": 0,
    }
    lay_out(state, JOKER_LAYOUT[:3])
    assert state.action_label(12) == "lay 12 at position 3"
    assert public(state)["on_table"] == [True] * 3 + [False] * 11
    assert state.to_dict()["state"]["layout"] == [7, 52, 1]
    left = [*sorted(set(range(1, 13)) - {7, 1}), 51]
    assert state.chance_outcomes() == [(card, 1 / 11) for card in left]
    lay_out(state, JOKER_LAYOUT[3:])
    assert state.current_player == 0
    observation = public(state)
    assert observation["phase"] == "flip"
    assert observation["current"] == 0
    assert observation["on_table"] == [True] * 14
    assert observation["seen"] == [None] * 14
    assert state.to_dict()["state"] == {
        "phase": "flip",
        "current": 0,
        "seen": [None] * 14,
        "on_table": [True] * 14,
        "taken": [0, 0],
        "flipped": [],
        "idle_turns": 1,
        "layout": JOKER_LAYOUT,
    }


def test_the_youngest_seat_0_starts_and_may_flip_any_position(backend: Backend) -> None:
    """ "Nuorin pelaaja aloittaa ja pelivuoro siirtyy myötäpäivään. Pelaaja valitsee kaksi
    satunnaista korttia ja kääntää ne kuvapuoli ylöspäin." (The youngest player starts and the turn
    passes clockwise. The player picks any two cards and turns them face up.) Seat 0 is the
    youngest (contract, Decision 7); every face-down position may be flipped.
    """
    state = laid(backend, players=3)
    assert state.current_player == 0
    assert state.legal_actions() == list(range(50))
    assert state.action_label(49) == "flip position 49"
    assert state.action_label(50) == "action 50"


# ----- runs of neighbour numbers -----


def test_neighbour_numbers_let_the_player_flip_on_until_a_card_breaks_the_run(
    backend: Backend,
) -> None:
    """The run goes on while each card is a neighbour; the card that breaks it is turned back.

    "Jos pelaajan kääntämän kolmannen kortin luku on aiemmin kääntämien korttien lukujen
    naapuriluku (esim. 11), pelaaja saa avata neljännen kortin ja niin edelleen, kunnes pelaajan
    avaaman kortin luku ei ole enää jo avattujen korttien lukujen naapuriluku. Pelaaja ottaa
    vuoronsa lopuksi kaikki löytämänsä naapuriluvut ja asettaa ne viereensä pinoon. Viimeiseksi
    avattu, ei-naapuriluku käännetään takaisin samalle paikalle." (If the third card's number is a
    neighbour of the numbers turned before, e.g. 11, the player may open a fourth card and so on,
    until the number he opens is no longer a neighbour of the numbers already open. At the end of
    his turn he takes all the neighbour numbers he found and stacks them beside him. The last card
    opened, not a neighbour, is turned back in its place.) It stays seen (contract, Decision 2).
    """
    state = laid(backend)
    flip(state, 10)
    assert public(state)["faces"][position(state, 10)] == 10
    assert state.legal_actions() == [p for p in range(50) if p != position(state, 10)]
    flip(state, 9)
    assert state.current_player == 0
    flip(state, 11, 12)
    assert state.current_player == 0
    assert cards_face_up(state) == [10, 9, 11, 12]
    flip(state, 30)
    # "The first card that breaks the run is turned face down again and the turn ends; the player
    # keeps all other cards flipped this turn."
    observation = public(state)
    assert observation["taken"] == [4, 0]
    assert observation["flipped"] == []
    assert observation["faces"] == [None] * 50
    assert observation["current"] == 1
    assert state.current_player == 1
    for card in (9, 10, 11, 12):
        assert not observation["on_table"][position(state, card)]
        assert observation["seen"][position(state, card)] is None
    assert observation["on_table"][position(state, 30)]
    assert observation["seen"][position(state, 30)] == 30
    assert state.scores == [4, 0]
    assert position(state, 30) in state.legal_actions()
    assert position(state, 10) not in state.legal_actions()


def test_a_run_grows_at_either_end(backend: Backend) -> None:
    """Each card may extend the run below or above: after 10 and 9 the booklet goes on with 11.

    "Jos pelaajan kääntämän kolmannen kortin luku on aiemmin kääntämien korttien lukujen
    naapuriluku (esim. 11) …" (If the third card's number is a neighbour of the numbers turned
    before, e.g. 11 after 10 and 9 …)
    """
    state = laid(backend)
    flip(state, 20, 19, 21, 18, 17, 22, 23, 16)
    assert state.current_player == 0
    assert cards_face_up(state) == [20, 19, 21, 18, 17, 22, 23, 16]
    flip(state, 40)
    assert public(state)["taken"] == [8, 0]


def test_a_card_next_to_the_run_but_not_to_its_ends_breaks_it(backend: Backend) -> None:
    """ "… kunnes pelaajan avaaman kortin luku ei ole enää jo avattujen korttien lukujen
    naapuriluku" (… until the number opened is no longer a neighbour of the numbers already open):
    13 is a neighbour of neither 10 nor 11. "Viimeiseksi avattu, ei-naapuriluku käännetään
    takaisin samalle paikalle" (the last card opened, not a neighbour, is turned back in its place).
    """
    # Each new card must be "a neighbour of the run's lowest or highest number": after 10, 11 the
    # card 13 leaves a gap.
    state = laid(backend)
    flip(state, 10, 11, 13)
    assert public(state)["taken"] == [2, 0]
    assert cards_on_table(state) == [c for c in range(1, 51) if c not in (10, 11)]
    assert public(state)["seen"][position(state, 13)] == 13


def test_the_first_two_not_neighbours_both_turn_back(backend: Backend) -> None:
    """ "Jos pelaajan kääntämissä kortteissa luvut ei ole naapurilukuja (vaan esim. 10 ja 22),
    pelaaja kääntää molemmat kortit taas kuvapuoli alaspäin ja vuoro siirtyy seuraavalle
    pelaajalle." (If the numbers on the cards the player turned are not neighbours, e.g. 10 and
    22, he turns both cards face down again and the turn passes to the next player.) Nothing is
    taken, and both stay seen: "Kaikkien pelaajien pitää nähdä avatut kortit …" (all players must
    see the opened cards …; contract, Decision 9).
    """
    state = laid(backend)
    flip(state, 10, 22)
    observation = public(state)
    assert observation["taken"] == [0, 0]
    assert observation["flipped"] == []
    assert observation["faces"] == [None] * 50
    assert observation["on_table"] == [True] * 50
    assert observation["seen"][position(state, 10)] == 10
    assert observation["seen"][position(state, 22)] == 22
    assert state.current_player == 1
    assert state.legal_actions() == list(range(50))


def test_the_turn_ends_keeping_the_run_when_no_face_down_card_is_left(backend: Backend) -> None:
    """With no card left face down the turn ends with the run, which the seat takes.

    The booklet is silent on a table with no card left to turn: contract, Decision 1 (the turn
    ends by itself with the run) and Decision 8 (flipping the last position is still a decision).
    "Pelaaja ottaa vuoronsa lopuksi kaikki löytämänsä naapuriluvut" (at the end of his turn the
    player takes all the neighbour numbers he found).
    """
    state = laid(backend, [3, 1, 2], min_number=1, max_number=3)
    flip(state, 2, 1)
    # One face-down position left: flipping it is still a decision (or the seat stops).
    assert state.current_player == 0
    assert state.legal_actions() == [0, STOP]
    flip(state, 3)
    assert state.is_terminal
    assert public(state)["taken"] == [3, 0]
    assert public(state)["on_table"] == [False] * 3
    assert public(state)["seen"] == [None] * 3
    assert public(state)["phase"] == "over"
    assert public(state)["current"] is None


def test_the_turn_passes_to_the_next_seat_whatever_happened(backend: Backend) -> None:
    """ "Nuorin pelaaja aloittaa ja pelivuoro siirtyy myötäpäivään." (The youngest player starts and
    the turn passes clockwise.) The booklet gives no extra turn for a run taken: the next seat
    plays whatever happened (contract, Decision 7).
    """
    state = laid(backend, players=3)
    assert state.current_player == 0
    flip(state, 1, 2, 40)  # takes 2
    assert state.current_player == 1
    flip(state, 10, 20)  # takes nothing
    assert state.current_player == 2
    flip(state, 30, 31, 29, 5)  # takes 3
    assert state.current_player == 0
    flip(state, 44, 41)
    assert state.current_player == 1
    assert public(state)["taken"] == [2, 0, 3]
    assert state.scores == [2, 0, 3]


# ----- perfect memory -----


def test_seen_remembers_every_card_flipped_while_it_is_on_the_table(backend: Backend) -> None:
    """ "Kaikkien pelaajien pitää nähdä avatut kortit, jotta he voivat itse muistaa avatut kortit ja
    niiden sijainnit." (All players must see the opened cards, so that they can remember the
    opened cards and their places themselves.) ``seen`` is that memory, kept perfectly for every
    card still on the table (contract, Decision 9); a card taken leaves it.
    """
    state = laid(backend, players=3)
    flip(state, 10, 22)
    flip(state, 23)
    assert public(state)["seen"][position(state, 22)] == 22
    flip(state, 22)  # 23 and 22 are neighbours: seat 1 continues
    flip(state, 10)  # 10 breaks: seat 1 takes 23 and 22
    seen: list[int | None] = [None] * 50
    seen[position(state, 10)] = 10
    for seat in range(3):
        observation = state.observation(seat)
        assert observation["seat"] == seat
        assert observation["seen"] == seen
        assert observation["taken"] == [0, 2, 0]
        assert observation["current"] == 2
    assert state.to_dict()["state"]["seen"] == seen


def test_everyone_sees_the_cards_face_up_during_a_turn(backend: Backend) -> None:
    """ "Kaikkien pelaajien pitää nähdä avatut kortit …" (All players must see the opened cards …):
    every seat's observation shows the faces turned up this turn.
    """
    state = laid(backend, players=3)
    flip(state, 25, 26)
    faces: list[int | None] = [None] * 50
    faces[position(state, 25)] = 25
    faces[position(state, 26)] = 26
    for seat in range(3):
        observation = state.observation(seat)
        assert observation["faces"] == faces
        assert observation["flipped"] == [position(state, 25), position(state, 26)]
    assert state.to_dict()["state"]["flipped"] == [position(state, 25), position(state, 26)]


# ----- jokers -----


def test_the_contract_example_with_jokers(backend: Backend) -> None:
    """The contract's example with jokers.

    "Erikoiskortit toimivat jokerikortteina, eli ne voivat korvata minkä tahansa autokortin, mutta
    vain kahden autokortin kanssa." (The special cards work as jokers: they can stand for any car
    card, but only together with two car cards.) 5, joker, 7 is the booklet's 21, joker, 23; after
    3 and 4 "jokerikortti voi olla arvoltaan joko 2 tai 5" (the joker may be worth 2 or 5): here it
    bridges 1 and 3, then, the real 2 found, 4 and 6 (the run is judged on the flipped set,
    contract, Decision 5).
    """
    state = laid(backend, JOKER_LAYOUT, min_number=1, max_number=12, jokers=True)
    flip(state, 5, 51, 7)
    assert state.current_player == 0
    flip(state, 9)  # gaps 2 > 1 joker: breaks
    assert public(state)["taken"] == [3, 0]
    assert public(state)["seen"][position(state, 9)] == 9
    assert state.current_player == 1
    flip(state, 3, 4, 52, 1, 2, 6)
    assert state.current_player == 1
    flip(state, 8)
    assert public(state)["taken"] == [3, 6]
    assert cards_on_table(state) == [8, 9, 10, 11, 12]
    # The table still holds 8 and 9: the game goes on.
    assert state.current_player == 0


def test_a_joker_alone_with_one_car_is_not_collectable(backend: Backend) -> None:
    """ "… ne voivat korvata minkä tahansa autokortin, mutta vain kahden autokortin kanssa" (… they
    can stand for any car card, but only together with two car cards): a joker and 8 are no set,
    so when 11 breaks the run every card is turned back and nothing is taken (contract,
    Decisions 3 and 4).
    """
    # "Had seat 1 flipped 52, 8, 11 instead": {52, 8} continues, 11 breaks, {52, 8} has one car.
    state = laid(backend, JOKER_LAYOUT, min_number=1, max_number=12, jokers=True)
    flip(state, 5, 51, 7, 9)
    flip(state, 52, 8)
    assert state.current_player == 1
    flip(state, 11)
    observation = public(state)
    assert observation["taken"] == [3, 0]
    assert observation["flipped"] == []
    for card in (52, 8, 11):
        assert observation["on_table"][position(state, card)]
        assert observation["seen"][position(state, card)] == card
    assert state.current_player == 0


@pytest.mark.parametrize(
    ("run", "breaker", "taken"),
    [
        pytest.param((21, 51, 23), 40, 3, id="21 and a joker continue, 23 completes (joker = 22)"),
        pytest.param((3, 4, 51, 2), 20, 4, id="after 3 and 4 a joker is 2"),
        pytest.param((3, 4, 51, 5), 20, 4, id="after 3 and 4 a joker is 5"),
        pytest.param((3, 4, 51), 7, 3, id="after 3, 4 and a joker 7 breaks"),
        # With fewer than two cars anything continues; 10 and 13 leave two gaps for two jokers.
        pytest.param((51, 52, 10, 13), 20, 4, id="two jokers first, then two cars within reach"),
    ],
)
def test_a_run_with_jokers_goes_on_until_a_card_breaks_it(
    backend: Backend, run: tuple[int, ...], breaker: int, taken: int
) -> None:
    """The booklet's examples with jokers.

    "… jos pelaaja on kääntänyt auki kortin 21 ja erikoiskortin, hän saa avata kolmannen kortin.
    Pelaaja saa kortit itselleen vain, jos kolmas kortti, esimerkiksi 23, sopii kahteen
    ensimmäiseen korttiin (tässä tapauksessa jokerikortti on 22)." (… if the player has turned 21
    and a special card, he may open a third card. He gets the cards only if the third card, e.g.
    23, fits the first two; here the joker is 22.) "Jos kaksi ensimmäistä korttia ovat 3 ja 4, ja
    seuraava kortti on jokerikortti, jokerikortti voi olla arvoltaan joko 2 tai 5." (If the first
    two cards are 3 and 4 and the next one is a joker, the joker may be worth 2 or 5.) Two jokers
    first: with fewer than two cars anything continues (contract, Decision 5).
    """
    state = laid(backend, IN_ORDER_WITH_JOKERS, jokers=True)
    flip(state, *run)
    assert state.current_player == 0
    flip(state, breaker)
    assert public(state)["taken"] == [taken, 0]
    assert state.current_player == 1


def test_21_a_joker_and_25_breaks(backend: Backend) -> None:
    """ "Pelaaja saa kortit itselleen vain, jos kolmas kortti, esimerkiksi 23, sopii kahteen
    ensimmäiseen korttiin" (the player gets the cards only if the third card, e.g. 23, fits the
    first two): 25 does not fit 21 and a joker, so nothing is taken and every card is turned back
    (contract, Decision 3).
    """
    state = laid(backend, IN_ORDER_WITH_JOKERS, jokers=True)
    flip(state, 21, 51, 25)
    assert public(state)["taken"] == [0, 0]
    assert state.current_player == 1
    assert public(state)["on_table"] == [True] * 62


def test_a_joker_flipped_later_must_already_cover_the_gap(backend: Backend) -> None:
    """ "Jos pelaajan kääntämissä kortteissa luvut ei ole naapurilukuja (vaan esim. 10 ja 22),
    pelaaja kääntää molemmat kortit taas kuvapuoli alaspäin …" (If the numbers the player turned
    are not neighbours, e.g. 10 and 22, he turns both cards face down again …): a joker still face
    down does not help, the run is judged on the cards flipped so far (contract, Decision 5).
    """
    # 10 and 12 are not neighbours: the turn does not wait for a joker still face down.
    state = laid(backend, IN_ORDER_WITH_JOKERS, jokers=True)
    flip(state, 10, 12)
    assert public(state)["taken"] == [0, 0]
    assert state.current_player == 1


def test_jokers_count_as_cards_taken_and_extend_the_run(backend: Backend) -> None:
    """Jokers count as cards taken, and jokers beyond the gaps extend the run.

    The jokers "voivat korvata minkä tahansa autokortin" (can stand for any car card), so spare
    ones extend the run; "Eniten kortteja kerännyt pelaaja voittaa" (the player who collected the
    most cards wins) counts cards, jokers among them (contract, Decision 4).
    """
    state = laid(backend, IN_ORDER_WITH_JOKERS, jokers=True)
    flip(state, 30, 51, 31, 52, 53, 28)
    assert state.current_player == 0
    flip(state, 45)  # C = {28, 30, 31, 45}: gaps 14 > 3
    assert public(state)["taken"] == [6, 0]


# ----- stopping: flipping on is a choice -----


def test_after_neighbour_numbers_the_player_may_stop_and_take_them(backend: Backend) -> None:
    """Flipping a third card is a permission: the seat may stop and take the run.

    "Jos pelaajan kääntämien korttien luvut ovat naapuriluvut (esim. 10 ja 9) pelaaja saa kääntää
    kolmannen kortin." (If the numbers of the cards the player turned are neighbour numbers,
    e.g. 10 and 9, the player MAY turn a third card.) After every flip that keeps the run the
    same seat chooses: flip on, or stop (action 63) and take the run.
    """
    state = laid(backend)
    flip(state, 10, 9)
    assert state.current_player == 0
    assert public(state)["flipped"] == [position(state, 10), position(state, 9)]
    assert state.legal_actions() == [p for p in range(50) if p not in (40, 41)] + [STOP]
    assert state.action_label(STOP) == "stop and take the run"
    state.apply(STOP, player=0)
    assert public(state)["taken"] == [2, 0]
    assert public(state)["flipped"] == []
    assert public(state)["on_table"][position(state, 10)] is False
    assert public(state)["seen"][position(state, 11)] is None
    assert state.current_player == 1
    assert state.history[-3:] == [position(state, 10), position(state, 9), STOP]


def test_the_player_may_flip_on_and_stop_later(backend: Backend) -> None:
    """Flipping on keeps the choice open after every card that keeps the run.

    "… pelaaja saa kääntää kolmannen kortin." (… the player may turn a third card.)
    """
    state = laid(backend)
    flip(state, 10, 9, 11)
    assert state.current_player == 0
    assert STOP in state.legal_actions()
    flip(state, 8)
    state.apply(STOP)
    assert public(state)["taken"] == [4, 0]
    assert state.current_player == 1
    # Flipping on until a card breaks the run still keeps the run.
    flip(state, 30, 31, 33)
    assert public(state)["taken"] == [4, 2]


def test_stopping_is_not_legal_before_the_flipped_cards_are_collectable(backend: Backend) -> None:
    """Before the flipped cards are collectable the seat must flip on: 63 is rejected.

    "Jos pelaajan kääntämien korttien luvut ovat naapuriluvut … pelaaja saa kääntää kolmannen
    kortin." (If the numbers the player turned are neighbours … he may turn a third card.) With
    one card, or one car and a joker, there is nothing to take yet.
    """
    state = laid(backend, IN_ORDER_WITH_JOKERS, jokers=True)
    flip(state, 21)
    assert STOP not in state.legal_actions()
    assert_rejected(state, STOP)
    flip(state, 51)
    assert STOP not in state.legal_actions()
    assert_rejected(state, STOP)
    flip(state, 23)  # the joker is 22: collectable
    assert state.legal_actions()[-1] == STOP
    state.apply(STOP)
    assert public(state)["taken"] == [3, 0]
    # At a turn's start nothing is flipped: no stop.
    assert STOP not in state.legal_actions()
    assert_rejected(state, STOP, player=1)


# ----- the end -----


def test_the_game_ends_when_no_neighbour_numbers_are_left(backend: Backend) -> None:
    """ "Peli loppuu, kun pöydällä olevista korteista ei enää löydy naapurilukuja." (The game ends
    when no neighbour numbers can be found among the cards on the table.) "Eniten kortteja
    kerännyt pelaaja voittaa." (The player who collected the most cards wins.)
    """
    state = laid(backend, [7, 6, 5, 4, 3, 2, 1], min_number=1, max_number=7)
    flip(state, 2, 3, 7)
    assert public(state)["taken"] == [2, 0]
    flip(state, 4, 5, 6, 1)
    # The table holds 1 and 7: no neighbour numbers, the game is over.
    assert cards_on_table(state) == [1, 7]
    assert state.is_terminal
    assert state.current_player == TERMINAL
    assert state.legal_actions() == []
    assert public(state)["phase"] == "over"
    assert public(state)["current"] is None
    assert state.scores == [2, 3]
    assert state.winners == [1]
    # Cards left on the table stay as they were, seen ones included.
    assert public(state)["seen"][position(state, 1)] == 1
    assert public(state)["seen"][position(state, 7)] == 7


# "Peli loppuu, kun pöydällä olevista korteista ei enää löydy naapurilukuja" is the booklet's only
# end; the contract (Decision 11) adds that N(N - 1)/2 quiet turns in a row end a stalled game.

SEVEN = [7, 6, 5, 4, 3, 2, 1]
"""Cars 1..7: N = 7, so 21 quiet turns in a row end the game."""


def quiet_turns(state: StateProtocol, turns: int) -> None:
    """Plays ``turns`` quiet turns: 1 then 3, both seen before, not neighbours, nothing taken."""
    for _ in range(turns):
        flip(state, 1, 3)


def test_a_stalled_game_ends_after_n_n_minus_1_over_2_quiet_turns(backend: Backend) -> None:
    """The booklet's only end is "Peli loppuu, kun pöydällä olevista korteista ei enää löydy
    naapurilukuja" (the game ends when no neighbour numbers are left on the table); a stalled game
    needs one more (contract, Decision 11). 21 turns in a row (N = 7) that took nothing and showed
    no new card end the game, although 1 and 2 are still neighbours on the table; 20 do not."""
    state = laid(backend, SEVEN, min_number=1, max_number=7)
    assert public(state)["idle_turns"] == 1
    flip(state, 1, 3)  # two new cards: progress
    assert public(state)["idle_turns"] == 1
    flip(state, 5, 7)  # two new cards: progress
    quiet_turns(state, 20)
    assert not state.is_terminal
    assert public(state)["idle_turns"] == 21
    flip(state, 1)
    events = state.rule_events_of(position(state, 3))
    assert "stalled game ended" in events
    flip(state, 3)  # the 21st quiet turn in a row
    assert state.is_terminal
    assert public(state)["phase"] == "over"
    assert public(state)["idle_turns"] == 21
    assert cards_on_table(state) == [1, 2, 3, 4, 5, 6, 7]
    assert state.scores == [0, 0]
    assert state.winners == [0, 1]


def test_a_round_without_progress_no_longer_ends_the_game(backend: Backend) -> None:
    """Players who forget flip seen cards for a while and then find a set: the game goes on as the
    booklet plays it (a single round of quiet turns ended it before). "Peli loppuu, kun pöydällä
    olevista korteista ei enää löydy naapurilukuja" (the game ends when no neighbour numbers are
    left on the table); a stalled game needs N(N - 1)/2 quiet turns (contract, Decision 11).
    """
    state = laid(backend, SEVEN, players=3, min_number=1, max_number=7)
    flip(state, 1, 3)
    flip(state, 5, 7)
    quiet_turns(state, 6)  # two whole rounds of three seats
    assert not state.is_terminal
    flip(state, 1, 2)  # seen cards, but neighbours: a run is taken
    state.apply(STOP)
    assert public(state)["taken"] == [0, 0, 2]
    assert public(state)["idle_turns"] == 1
    assert not state.is_terminal


def test_a_new_card_or_a_taken_run_breaks_the_quiet_turns(backend: Backend) -> None:
    """A turn that shows a new card or takes a run is progress: the quiet turns count anew. The
    booklet is silent here, its only end being "Peli loppuu, kun pöydällä olevista korteista ei
    enää löydy naapurilukuja" (the game ends when no neighbour numbers are left on the table);
    the stalled-game end is the contract's Decision 11.
    """
    state = laid(backend, SEVEN, min_number=1, max_number=7)
    flip(state, 1, 3)
    flip(state, 5, 7)
    quiet_turns(state, 19)
    assert public(state)["idle_turns"] == 20
    flip(state, 5)  # seen: still quiet so far
    assert public(state)["idle_turns"] == 20
    assert state.rule_events_of(position(state, 2)) == ["run broken"]
    flip(state, 2)  # a card nobody had seen: progress, although the turn takes nothing
    assert not state.is_terminal
    assert public(state)["idle_turns"] == 1
    quiet_turns(state, 20)
    assert public(state)["idle_turns"] == 21
    flip(state, 1, 2)  # seen cards, but a run is taken: progress
    state.apply(STOP)
    assert public(state)["taken"] == [2, 0]
    assert not state.is_terminal
    assert public(state)["idle_turns"] == 1


def test_a_game_that_delays_its_progress_stays_within_the_length_bound(backend: Backend) -> None:
    """``max_game_length`` (OpenSpiel's bound, the conformance runner's hang limit) holds for a game
    that waits N(N - 1)/2 - 1 = 20 quiet turns before every step of progress (N = 7). The bound
    still counted the single round of quiet turns of an older version (183 steps here), which this
    game passes long before it ends."""
    from cardtable import reference

    bound = reference.make("trafficars_memory", players=2, min_number=1, max_number=7)
    state = laid(backend, SEVEN, min_number=1, max_number=7)
    for progress in [(1, 3), (1, 5), (1, 7), (3, 6)]:  # each shows a new card
        flip(state, *progress)
        quiet_turns(state, 20)
    flip(state, 1, 2, 4)  # 1, 2 taken; 4 (new) breaks the run
    for _ in range(20):
        flip(state, 3, 5)
    assert not state.is_terminal
    assert len(state.history) > 183
    flip(state, 3, 5)  # the 21st quiet turn in a row
    assert state.is_terminal
    assert public(state)["taken"] == [2, 0]
    assert len(state.history) <= bound.max_game_length


def test_the_game_goes_on_while_two_neighbours_are_on_the_table(backend: Backend) -> None:
    """ "Peli loppuu, kun pöydällä olevista korteista ei enää löydy naapurilukuja." (The game ends
    when no neighbour numbers can be found among the cards on the table.) While neighbours lie
    there the game goes on.
    """
    state = laid(backend, [1, 2, 3, 4, 5, 6], min_number=1, max_number=6)
    flip(state, 3, 4, 1)
    assert cards_on_table(state) == [1, 2, 5, 6]
    assert state.current_player == 1
    flip(state, 2, 1, 5)
    assert cards_on_table(state) == [5, 6]
    assert state.current_player == 0
    flip(state, 6, 5)
    assert state.is_terminal
    assert state.scores == [4, 2]
    assert state.winners == [0]


def test_the_end_test_counts_the_jokers_on_the_table(backend: Backend) -> None:
    """ "Peli loppuu, kun pöydällä olevista korteista ei enää löydy naapurilukuja" (the game ends
    when no neighbour numbers can be found among the cards on the table), jokers included
    (contract, Decision 10): 2, 6, 10 and one joker hold no set, since a joker fills a gap of
    one number.
    """
    # The contract's example: a table with the cars 2, 6, 10 and one joker holds no collectable set.
    state = laid(backend, JOKER_LAYOUT, min_number=1, max_number=12, jokers=True)
    flip(state, 1, 52, 3, 4, 5, 10)
    assert public(state)["taken"] == [5, 0]
    flip(state, 7, 8, 9, 2)
    assert public(state)["taken"] == [5, 3]
    assert not state.is_terminal
    flip(state, 11, 12, 2)
    assert cards_on_table(state) == [2, 6, 10, 51]
    assert state.is_terminal
    assert state.scores == [7, 3]
    assert state.winners == [0]


def laid_nine_with_two_jokers(backend: Backend) -> StateProtocol:
    """Cars 1..9 with their 2 jokers (51, 52), laid out in a known order."""
    return laid(
        backend, [9, 51, 8, 7, 52, 6, 5, 4, 3, 2, 1], min_number=1, max_number=9, jokers=True
    )


def test_a_joker_on_the_table_keeps_a_gap_of_one_collectable(backend: Backend) -> None:
    """A joker on the table keeps 1 and 3 collectable: it can be 2, as in the booklet's "kolmas
    kortti, esimerkiksi 23, sopii kahteen ensimmäiseen korttiin (tässä tapauksessa jokerikortti on
    22)" (the third card, e.g. 23, fits the first two, 21 and a joker; here the joker is 22). So
    "Peli loppuu, kun pöydällä olevista korteista ei enää löydy naapurilukuja" (the game ends when
    no neighbour numbers are left on the table) counts the jokers (contract, Decision 10).
    """
    # 1..9 with jokers: 2 jokers (51, 52).
    state = laid_nine_with_two_jokers(backend)
    flip(state, 2, 52, 4, 5, 6, 9)
    flip(state, 7, 8, 9, 1)
    assert state.scores == [5, 3]
    # The table holds 1, 3 and the joker 51, which can be 2.
    assert cards_on_table(state) == [1, 3, 51]
    assert state.current_player == 0
    flip(state, 1, 51, 3)
    assert state.is_terminal
    assert state.scores == [8, 3]
    assert state.winners == [0]


def test_a_gap_without_a_joker_on_the_table_ends_the_game(backend: Backend) -> None:
    """ "Peli loppuu, kun pöydällä olevista korteista ei enää löydy naapurilukuja." (The game ends
    when no neighbour numbers can be found among the cards on the table.) 1 and 3 without a joker
    are no neighbours.
    """
    state = laid_nine_with_two_jokers(backend)
    flip(state, 2, 52, 4, 5, 6, 51, 9)
    flip(state, 7, 8, 9, 1)
    assert cards_on_table(state) == [1, 3]
    assert state.is_terminal
    assert state.scores == [6, 3]


def test_ties_share_the_win(backend: Backend) -> None:
    """ "Eniten kortteja kerännyt pelaaja voittaa" (the player who collected the most cards wins);
    the booklet is silent on ties: tied seats share the win (contract, Decision 13).
    """
    state = laid(backend, [1, 2, 3, 4], min_number=1, max_number=4)
    flip(state, 1, 2, 4)
    flip(state, 4, 3)
    assert state.is_terminal
    assert state.scores == [2, 2]
    assert state.winners == [0, 1]


def test_most_cards_taken_wins_with_five_players(backend: Backend) -> None:
    """ "Eniten kortteja kerännyt pelaaja voittaa." (The player who collected the most cards
    wins.)
    """
    state = laid(backend, list(range(1, 11)), players=5, min_number=1, max_number=10)
    flip(state, 1, 2, 5)  # seat 0: 2
    flip(state, 3, 4, 5, 6, 9)  # seat 1: 4
    flip(state, 7, 9)  # seat 2: 0
    flip(state, 8, 7, 10)  # seat 3: 2
    flip(state, 9, 10)  # seat 4: 2
    assert state.is_terminal
    assert state.scores == [2, 4, 0, 2, 2]
    assert state.winners == [1]


# ----- labels and bad input -----


def test_labels_depend_only_on_the_node_and_the_id(backend: Backend) -> None:
    state = new_game(backend, min_number=1, max_number=4).new_state()
    assert state.action_label(0) == "action 0"
    assert state.action_label(1) == "lay 1 at position 0"
    assert state.action_label(62) == "lay joker (62) at position 0"
    assert state.action_label(STOP) == "action 63"
    lay_out(state, [1, 2, 3, 4])
    assert state.action_label(0) == "flip position 0"
    assert state.action_label(3) == "flip position 3"
    assert state.action_label(4) == "action 4"
    assert state.action_label(62) == "action 62"
    assert state.action_label(STOP) == "stop and take the run"
    flip(state, 1)
    assert state.action_label(0) == "flip position 0"
    assert state.action_label(STOP) == "stop and take the run"
    flip(state, 2, 4)
    flip(state, 3, 4)
    assert state.is_terminal
    assert state.action_label(0) == "action 0"
    assert state.action_label(5) == "action 5"
    assert state.action_label(STOP) == "action 63"


def test_laying_out_a_card_not_in_the_deck_is_rejected(backend: Backend) -> None:
    state = new_game(backend, min_number=1, max_number=12, jokers=True).new_state()
    for card in (0, 13, 50, 53, 62, 63, -1):
        assert_rejected(state, card)
    lay_out(state, [7])
    assert_rejected(state, 7)
    assert_rejected(state, 5, player=0)
    state = new_game(backend).new_state()
    assert_rejected(state, 51)


def test_flipping_a_face_up_taken_or_missing_position_is_rejected(backend: Backend) -> None:
    state = laid(backend, [4, 3, 2, 1], min_number=1, max_number=4)
    assert_rejected(state, 4)
    assert_rejected(state, 62)
    flip(state, 2)
    assert_rejected(state, position(state, 2))
    flip(state, 1, 4)
    assert state.current_player == 1
    assert_rejected(state, position(state, 1))
    assert_rejected(state, position(state, 2))
    assert_rejected(state, position(state, 3), player=0)
    flip(state, 3, 4)
    assert state.is_terminal
    assert_rejected(state, 0)


def test_a_state_dict_round_trip_keeps_the_memory(backend: Backend) -> None:
    game = new_game(backend, players=3, min_number=1, max_number=12, jokers=True)
    state = game.new_state()
    lay_out(state, JOKER_LAYOUT)
    flip(state, 5, 51, 7, 9)
    flip(state, 3, 10)
    flip(state, 1)
    twin = game.state_from_dict(state.to_dict())
    assert twin.to_dict() == state.to_dict()
    for seat in range(3):
        assert twin.observation(seat) == state.observation(seat)
