"""Goofspiel rule scenarios on both backends, and a differential test against OpenSpiel itself."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

import cardtable
from cardtable import IllegalActionError, InvalidOptionError
from cardtable.protocols import StateProtocol
from tests.drawn_games import Player, extremes
from tests.game_info import GameTestInfo, Mutation, Run

# ----- what the shared tests need (the GAME block below) -----


def hidden_cards(state: StateProtocol, p: int) -> tuple[set[str], set[str]]:
    """What seat p must not see in a picture (``tests/test_render.py``): the other seat's bid
    while it is pending (its ``data-card`` id)."""
    d = state.to_dict()
    s, n = d["state"], d["players"]
    others = [q for q in range(n) if q != p]
    return {f"bid-{q}-{s['pending'][q]}" for q in others if s["pending"][q] is not None}, set()


def _goofspiel_match(state: Any, legal: list[int]) -> list[int]:
    """Bid the point card's own value: when both seats do, the bids tie."""
    if state.is_chance_node:
        return []
    point = state.observation(state.current_player)["point_card"]
    return [a for a in legal if a + 1 == point]


GAME = GameTestInfo(
    configs=[
        {"players": 2},
        {"players": 2, "num_cards": 1},
        {"players": 2, "num_cards": 4},
    ],
    golden=[
        ("5cards", {"players": 2, "num_cards": 5}, 1),
        ("13cards", {"players": 2, "num_cards": 13}, 2),
    ],
    perft=({"players": 2, "num_cards": 6}, 5, 4, 9),
    tensor_size=lambda n, o: 7 + 5 * o.get("num_cards", 13) + 3 * o.get("num_cards", 13) ** 2,
    small={"players": 2, "num_cards": 5},
    replay_run=Run(2, ["greedy", "random"], {"num_cards": 6}),
    sweep_grid={"num_cards": [4, 6]},
    pictures=[
        ("mid", {"players": 2, "num_cards": 6}, 15, 5),
        ("end", {"players": 2, "num_cards": 6}, 15, None),
    ],
    hidden_cards=hidden_cards,
    drawn_players=(
        Player("uniform"),
        Player("extremes", extremes),
        Player("match", _goofspiel_match),
    ),
    mutations=(
        Mutation(
            "goofspiel-tie",
            "equal bids take nothing (mutant: seat 1 wins ties)",
            "elif bid1 > bid0:",
            "elif bid1 >= bid0:",
        ),
        Mutation(
            "goofspiel-winners",
            "the most points wins, ties share (mutant: the fewest)",
            'score_wins = "highest"\n    """The seat with the most points wins',
            'score_wins = "lowest"\n    """The seat with the most points wins',
        ),
    ),
    readme_image=({"players": 2}, 9, 11, 0),
)
"""What the generic and shared tests need of this game (see ``tests/game_info.py``)."""


def new(backend: str, num_cards: int = 5) -> StateProtocol:
    game = cardtable.make("goofspiel", players=2, backend=backend, num_cards=num_cards)  # type: ignore[arg-type]
    return game.new_state()


def turn(state: StateProtocol, point: int, bid0: int, bid1: int) -> None:
    state.apply(point - 1)
    state.apply(bid0 - 1)
    state.apply(bid1 - 1)


def test_higher_bid_takes_the_point_card(backend: str) -> None:
    state = new(backend)
    turn(state, 4, 5, 2)
    assert state.scores == [4, 0]
    turn(state, 2, 1, 3)
    assert state.scores == [4, 2]


def test_equal_bids_take_nothing(backend: str) -> None:
    state = new(backend)
    turn(state, 5, 3, 3)
    assert state.scores == [0, 0]
    assert state.observation(0)["point_history"] == [5]
    assert state.observation(1)["bids"] == [[3, 3]]


def test_more_points_wins_and_a_draw_is_shared(backend: str) -> None:
    state = new(backend, 3)
    turn(state, 1, 3, 1)  # seat 0: 1
    turn(state, 2, 1, 2)  # seat 1: 2; the last turn is forced: point 3, bids 2 and 3, seat 1: 5
    assert state.is_terminal and state.scores == [1, 5] and state.winners == [1]
    assert state.history == [0, 2, 0, 1, 0, 1]
    draw = new(backend, 2)
    turn(draw, 1, 1, 1)  # forced: point 2, bids 2 and 2
    assert draw.is_terminal and draw.scores == [0, 0] and draw.winners == [0, 1]


def test_the_last_turn_is_played_at_once_as_in_openspiel(backend: str) -> None:
    state = new(backend, 4)
    turn(state, 4, 1, 2)
    turn(state, 1, 4, 3)
    assert not state.is_terminal
    turn(state, 3, 2, 4)  # leaves point 2; seat 0 holds 3, seat 1 holds 1: seat 0 takes 2
    assert state.is_terminal
    assert state.scores == [1 + 2, 4 + 3]
    assert state.observation(0)["point_history"] == [4, 1, 3, 2]
    assert state.observation(1)["bids"] == [[1, 2], [4, 3], [2, 4], [3, 1]]
    single = new(backend, 1)
    assert single.is_chance_node, "with one card the only turn is played normally"
    turn(single, 1, 1, 1)
    assert single.is_terminal and single.scores == [0, 0]


def test_ids_and_labels_follow_openspiel(backend: str) -> None:
    state = new(backend, 4)
    assert state.is_chance_node
    assert state.legal_actions() == [0, 1, 2, 3]
    assert state.action_label(2) == "point card 3"
    assert state.chance_outcomes() == [(a, 0.25) for a in range(4)]
    state.apply(2)
    assert state.current_player == 0 and state.action_label(0) == "bid 1"
    state.apply(3)
    assert state.current_player == 1 and state.legal_actions() == [0, 1, 2, 3]
    state.apply(0)
    assert state.is_chance_node and state.legal_actions() == [0, 1, 3]
    assert state.observation(0)["hands"] == [[1, 2, 3], [2, 3, 4]]


def test_a_pending_bid_is_hidden_from_the_opponent(backend: str) -> None:
    state = new(backend)
    state.apply(0)
    state.apply(4)
    seen_by_1 = state.observation(1)
    assert seen_by_1["own_bid"] is None and seen_by_1["committed"] == [True, False]
    assert seen_by_1["hands"][0] == [1, 2, 3, 4, 5], "the pending bid stays in the hand"
    assert state.observation(0)["own_bid"] == 5


def test_bad_input(backend: str) -> None:
    state = new(backend)
    before = state.to_dict()
    with pytest.raises(IllegalActionError):
        state.apply(5)
    state.apply(1)
    state.apply(0)
    state.apply(0)
    after = state.to_dict()
    with pytest.raises(IllegalActionError):
        state.apply(1)  # point card 2 was already revealed
    assert state.to_dict() == after != before
    for players, options in ((3, {}), (2, {"num_cards": 0}), (2, {"num_cards": 61})):
        with pytest.raises(InvalidOptionError):
            cardtable.make("goofspiel", players=players, backend=backend, **options)  # type: ignore[arg-type]


@pytest.mark.parametrize("impl", ["rust", "reference"])
@given(seed=st.integers(0, 2**32), num_cards=st.integers(1, 13))
def test_same_scores_and_histories_as_openspiel(impl: str, seed: int, num_cards: int) -> None:
    pyspiel = pytest.importorskip("pyspiel")
    from cardtable._rng import SplitMix64

    theirs = pyspiel.load_game(
        "goofspiel", {"num_cards": num_cards, "returns_type": "total_points"}
    ).new_initial_state()
    ours = cardtable.make(
        "goofspiel",
        players=2,
        backend=impl,  # type: ignore[arg-type]
        num_cards=num_cards,
    ).new_state()
    rng = SplitMix64(seed)
    while not ours.is_terminal:
        point = ours.legal_actions()[rng.below(len(ours.legal_actions()))]
        ours.apply(point)
        theirs.apply_action(point)
        bids = []
        for p in (0, 1):
            legal = ours.legal_actions()
            assert legal == list(theirs.legal_actions(p))
            bids.append(legal[rng.below(len(legal))])
            ours.apply(bids[-1])
        theirs.apply_actions(bids)
    assert theirs.is_terminal()
    assert [int(r) for r in theirs.returns()] == ours.scores
    assert list(theirs.history()) == ours.history
