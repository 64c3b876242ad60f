"""The testing toolkit on an implementation of our own making, with a deliberately wrong rule.

This is the worked example of ``docs/testing.md``: a user's tiny goofspiel engine in which equal
bids wrongly give the point card to seat 0. The toolkit must find the divergence and shrink it to
the shortest game that shows it.
"""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given, settings

import cardtable
from cardtable.testing import (
    RULES_FIELDS,
    DivergenceError,
    assert_equivalent,
    choice_sequences,
    equivalence_test,
    game_configs,
    perft,
    reachable_states,
)

TERMINAL, CHANCE = -2, -1


class TinyGoofspielState:
    """A user's goofspiel: just enough of the state protocol for ``RULES_FIELDS``."""

    def __init__(self, n: int, ties_to_seat_0: bool) -> None:
        self.n = n
        self.ties_to_seat_0 = ties_to_seat_0
        self.points_left = set(range(1, n + 1))
        self.hands = [set(range(1, n + 1)), set(range(1, n + 1))]
        self.point: int | None = None
        self.bids: list[int] = []
        self.points = [0, 0]
        self.history: list[int] = []

    @property
    def current_player(self) -> int:
        if not self.points_left and self.point is None:
            return TERMINAL
        return CHANCE if self.point is None else len(self.bids)

    @property
    def is_terminal(self) -> bool:
        return self.current_player == TERMINAL

    @property
    def is_chance_node(self) -> bool:
        return self.current_player == CHANCE

    def legal_actions(self) -> list[int]:
        p = self.current_player
        cards = self.points_left if p == CHANCE else self.hands[p] if p >= 0 else set()
        return sorted(c - 1 for c in cards)

    def chance_outcomes(self) -> list[tuple[int, float]]:
        if not self.is_chance_node:
            return []
        return [(a, 1 / len(self.points_left)) for a in self.legal_actions()]

    def apply(self, action: int, player: int | None = None) -> None:
        self.history.append(action)
        if self.point is None:
            self.point = action + 1
            self.points_left.discard(self.point)
            return
        self.bids.append(action + 1)
        if len(self.bids) == 2:
            self._score()
            if len(self.points_left) == 1:  # the last turn plays itself
                self.point = self.points_left.pop()
                self.bids = [min(self.hands[0]), min(self.hands[1])]
                self._score()

    def _score(self) -> None:
        b0, b1 = self.bids
        assert self.point is not None
        if b0 > b1 or (b0 == b1 and self.ties_to_seat_0):  # the deliberate bug
            self.points[0] += self.point
        elif b1 > b0:
            self.points[1] += self.point
        self.hands[0].discard(b0)
        self.hands[1].discard(b1)
        self.point, self.bids = None, []

    @property
    def scores(self) -> list[int]:
        return list(self.points)

    @property
    def winners(self) -> list[int]:
        if not self.is_terminal:
            return []
        best = max(self.points)
        return [p for p in (0, 1) if self.points[p] == best]


class TinyGoofspiel:
    """The user's game object: ``players``, ``new_state``."""

    game_id = "goofspiel"
    players = 2

    def __init__(self, players: int = 2, num_cards: int = 13, ties_to_seat_0: bool = False) -> None:
        self.num_cards = num_cards
        self.ties_to_seat_0 = ties_to_seat_0

    def new_state(self, seed: int | None = None) -> TinyGoofspielState:
        return TinyGoofspielState(self.num_cards, self.ties_to_seat_0)


def test_a_correct_implementation_passes() -> None:
    test = equivalence_test("goofspiel", TinyGoofspiel, max_examples=30)
    test()


def test_the_wrong_tie_rule_is_found_and_shrunk() -> None:
    wrong = equivalence_test(
        "goofspiel",
        lambda **config: TinyGoofspiel(ties_to_seat_0=True, **config),
        max_examples=200,
    )
    with pytest.raises(DivergenceError) as info:
        wrong()
    divergence = info.value.divergence
    assert any(d.startswith("scores") for d in divergence.differences)
    # Shrunk to the shortest game showing it: one point card and two equal bids.
    assert len(divergence.history) == 3
    _point, bid0, bid1 = divergence.history
    assert bid0 == bid1


@settings(max_examples=20)
@given(choices=choice_sequences())
def test_assert_equivalent_on_rules_fields(choices: list[int]) -> None:
    ours = cardtable.make("goofspiel", players=2, num_cards=5)
    assert_equivalent(ours, TinyGoofspiel(num_cards=5), choices, fields=RULES_FIELDS)


def test_unknown_fields_are_refused() -> None:
    ours = cardtable.make("goofspiel", players=2)
    with pytest.raises(ValueError, match="unknown fields"):
        assert_equivalent(ours, ours, [], fields=["nonsense"])


@pytest.mark.parametrize("game_id", [g.id for g in cardtable.games()])
def test_game_configs_are_valid(game_id: str) -> None:
    @settings(max_examples=15)
    @given(config=game_configs(game_id))
    def check(config: dict[str, Any]) -> None:
        game = cardtable.make(game_id, **config)
        assert game.players == config["players"]

    check()


@pytest.mark.parametrize("game_id", [g.id for g in cardtable.games()])
def test_reachable_states_agree_across_backends(game_id: str) -> None:
    info = next(g for g in cardtable.games() if g.id == game_id)
    rust = cardtable.make(game_id, players=info.min_players)
    ref = cardtable.make(game_id, players=info.min_players, backend="reference")

    @settings(max_examples=10)
    @given(state=reachable_states(ref, max_steps=150))
    def check(state: cardtable.StateProtocol) -> None:
        twin = rust.state_from_dict(state.to_dict())
        assert twin.legal_actions() == state.legal_actions()
        assert perft(twin, 2) == perft(state, 2)

    check()


def test_the_pytest_plugin_provides_the_backend_fixture(cardtable_backend: str) -> None:
    game = cardtable.make("goofspiel", players=2, backend=cardtable_backend)  # type: ignore[arg-type]
    assert game.num_actions == 13
