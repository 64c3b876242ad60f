"""The testing toolkit on an implementation of our own making, with a deliberately wrong rule.

This is the worked example of ``docs/testing.md``: a user's tiny goofspiel engine in which equal
bids wrongly give the point card to seat 0. The toolkit must find the divergence and shrink it to
the shortest game that shows it.
"""

from __future__ import annotations

import contextlib
import copy
import itertools
import math
import textwrap
import time
import unittest
from collections.abc import Callable, Iterable, Iterator
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from hypothesis import Phase, find, given, settings
from hypothesis.database import InMemoryExampleDatabase
from hypothesis.errors import DeadlineExceeded

import cardtable
from cardtable import pytest_plugin, testing
from cardtable._rng import SplitMix64
from cardtable.errors import IllegalActionError, InvalidOptionError, InvalidStateError
from cardtable.protocols import RulesState
from cardtable.testing import (
    MAX_PLAYERS,
    RULES_FIELDS,
    DivergenceError,
    assert_equivalent,
    choice_sequences,
    compare_states,
    equivalence_test,
    game_configs,
    perft,
    random_choices,
    reachable_states,
)
from tests.docblocks import find_blocks

TERMINAL, CHANCE = -2, -1


class TinyGoofspielState:
    """A user's goofspiel: the state protocol for ``RULES_FIELDS``, with ``history``, ``clone``
    and seeded chance (``docs/rng.md``).

    ``bug`` switches on one more mistake (see :data:`BUGS`).
    """

    def __init__(
        self, n: int, ties_to_seat_0: bool, rng: SplitMix64 | None = None, bug: str = ""
    ) -> None:
        self.n = n
        self.ties_to_seat_0 = ties_to_seat_0
        self.rng = rng
        self.bug = bug
        self.points_left = set(range(1, n + 1))
        self.hands = [set(range(1, n + 1)), set(range(1, n + 1))]
        self.point: int | None = None
        self.bids: list[int] = []
        self.points: list[Any] = [0, 0]  # halves too, in the variant of split ties
        self.history: list[int] = []
        self._draw_chance()

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
        if action not in self.legal_actions() and self.bug != "no_legality_check":
            if self.bug == "illegal_raises_key_error":
                raise KeyError(action)
            if self.bug == "illegal_changes_history":
                self.history.append(action)
            raise IllegalActionError(f"action {action} is not legal here")
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
            self._draw_chance()

    def _score(self) -> None:
        b0, b1 = self.bids
        assert self.point is not None
        if b0 > b1 or (b0 == b1 and self.ties_to_seat_0):  # the deliberate bug
            self.points[0] += self.point
        elif b1 > b0:
            self.points[1] += self.point
        elif self.bug.startswith("split_ties"):  # the house rule: equal bids split the card
            half = self.point // 2 if self.bug == "split_ties_floor" else self.point / 2
            self.points[0] += half
            self.points[1] += half
        self.hands[0].discard(b0)
        self.hands[1].discard(b1)
        self.point, self.bids = None, []

    def _draw_chance(self) -> None:
        """With a seed, a point card drawn as ``docs/rng.md`` says (weights 1, in id order)."""
        if self.rng is not None and self.is_chance_node:
            outcomes = self.legal_actions()
            if self.bug == "chance_drawn_in_reverse":
                outcomes.reverse()
            self.apply(outcomes[self.rng.below(len(outcomes))])

    def clone(self) -> TinyGoofspielState:
        if self.bug == "clone_shares_hands":
            twin = copy.copy(self)  # a shallow copy: the hands are the original's sets
            twin.points, twin.bids, twin.history = list(self.points), [*self.bids], [*self.history]
            twin.points_left = set(self.points_left)
            return twin
        twin = copy.deepcopy(self)
        if self.bug == "clone_forgets_points":
            twin.points = [0, 0]
        return twin

    @property
    def scores(self) -> list[int]:
        bonus = 1 if self.bug == "end_bonus" and self.is_terminal else 0
        return [self.points[0], self.points[1] + bonus]

    @property
    def winners(self) -> list[int]:
        if not self.is_terminal:
            return []
        best = max(self.points)
        winners = [p for p in (0, 1) if self.points[p] == best]
        return winners[::-1] if self.bug == "winners_in_reverse" else winners


BUGS = (
    "no_legality_check",
    "illegal_raises_key_error",
    "illegal_changes_history",
    "end_bonus",
    "chance_drawn_in_reverse",
    "clone_shares_hands",
    "clone_forgets_points",
    "winners_in_reverse",
)
"""The mistakes ``TinyGoofspiel(bug=...)`` can make (besides ``ties_to_seat_0``).

Two more ``bug`` values play the variant of ``docs/testing.md`` where equal bids split the point
card: ``split_ties`` (right) and ``split_ties_floor`` (half a card rounded down: wrong).
"""


class TinyGoofspiel:
    """The user's game object: ``players``, ``new_state``."""

    game_id = "goofspiel"
    players = 2

    def __init__(
        self, players: int = 2, num_cards: int = 13, ties_to_seat_0: bool = False, bug: str = ""
    ) -> None:
        self.num_cards = num_cards
        self.ties_to_seat_0 = ties_to_seat_0
        self.bug = bug

    def new_state(self, seed: int | None = None) -> TinyGoofspielState:
        rng = None if seed is None else SplitMix64(seed)
        return TinyGoofspielState(self.num_cards, self.ties_to_seat_0, rng, self.bug)


def with_bug(bug: str) -> Callable[..., TinyGoofspiel]:
    """A factory of :class:`TinyGoofspiel` with ``bug``, named after it (its own database keys)."""

    def factory(**config: Any) -> TinyGoofspiel:
        return TinyGoofspiel(bug=bug, **config)

    factory.__qualname__ = f"with_bug.{bug}"
    return factory


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
    # The smallest game, named with its options: the message reproduces it on its own.
    assert (divergence.game_id, divergence.config) == ("goofspiel", {"players": 2, "num_cards": 1})
    assert str(info.value) == DOCS_EXAMPLE_OUTPUT  # as docs/testing.md shows it


def _docs_example_output() -> str:
    """The output that docs/testing.md shows for its worked example."""
    text = (ROOT / "docs" / "testing.md").read_text()
    after = text.split("It fails with a `DivergenceError`", 1)[1]
    return after.split("```\n", 2)[1].rstrip("\n")


ROOT = Path(__file__).resolve().parent.parent
DOCS_EXAMPLE_OUTPUT = _docs_example_output()


@settings(max_examples=20)
@given(choices=choice_sequences())
def test_assert_equivalent_on_rules_fields(choices: list[int]) -> None:
    ours = cardtable.make("goofspiel", players=2, num_cards=5)
    assert_equivalent(ours, TinyGoofspiel(num_cards=5), choices, fields=RULES_FIELDS)


def test_unknown_fields_are_refused() -> None:
    ours = cardtable.make("goofspiel", players=2)
    with pytest.raises(InvalidOptionError, match="unknown fields"):
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


class RulesOnlyState:
    """One of our reference states seen through :class:`RulesState` alone, as a user's engine.

    ``fault(state, member)`` is called before each member answers, to inject a bug.
    """

    def __init__(self, inner: Any, fault: Callable[[Any, str], None]) -> None:
        self._s, self._fault = inner, fault

    @property
    def current_player(self) -> int:
        self._fault(self._s, "current_player")
        return int(self._s.current_player)

    @property
    def is_terminal(self) -> Any:
        self._fault(self._s, "is_terminal")
        return self._s.is_terminal

    def legal_actions(self) -> list[int]:
        self._fault(self._s, "legal_actions")
        return list(self._s.legal_actions())

    def chance_outcomes(self) -> Any:
        self._fault(self._s, "chance_outcomes")
        return self._s.chance_outcomes()

    def apply(self, action: int, player: int | None = None) -> None:
        self._fault(self._s, "apply")
        self._s.apply(action)

    @property
    def scores(self) -> Any:
        self._fault(self._s, "scores")
        return self._s.scores

    @property
    def winners(self) -> list[int]:
        self._fault(self._s, "winners")
        return list(self._s.winners)


class RulesOnlyGame:
    """A user's game wrapping our reference one (``fault``: see :class:`RulesOnlyState`)."""

    def __init__(
        self, game_id: str, fault: Callable[[Any, str], None] | None = None, **config: Any
    ) -> None:
        self._g = cardtable.make(game_id, backend="reference", **config)
        self.players = self._g.players
        self._fault = fault or (lambda state, member: None)

    def new_state(self, seed: int | None = None) -> RulesOnlyState:
        self._fault(None, "new_state")
        return RulesOnlyState(self._g.new_state(seed), self._fault)


def rules_only(game_id: str, fault: Callable[[Any, str], None] | None = None) -> Any:
    """A factory for :func:`equivalence_test`."""
    return lambda **config: RulesOnlyGame(game_id, fault, **config)


def test_a_pinned_option_needs_no_filtering() -> None:
    """Pins that few free drawn options suit (hand_size=30: only two players on few lanes)."""
    equivalence_test("trafficars", rules_only("trafficars"), max_examples=5, hand_size=30)()
    equivalence_test("trafficars", rules_only("trafficars"), max_examples=5, max_number=5)()

    @settings(max_examples=30)
    @given(config=game_configs("trafficars_memory", max_number=2))
    def check(config: dict[str, Any]) -> None:
        assert config["max_number"] == 2
        cardtable.make("trafficars_memory", **config)

    check()


@pytest.mark.parametrize(
    ("fixed", "match"),
    [
        ({"num_cards": 0}, "num_cards"),
        ({"num_cards": "3"}, "num_cards"),
        ({"bogus": 1}, "bogus"),
        ({"players": 3}, "players"),
        ({"players": True}, "players"),
    ],
)
def test_refused_pins_are_named_at_once(fixed: dict[str, Any], match: str) -> None:
    with pytest.raises(InvalidOptionError, match=match):
        game_configs("goofspiel", **fixed)
    with pytest.raises(InvalidOptionError, match=match):
        equivalence_test("goofspiel", TinyGoofspiel, **fixed)


def test_pins_no_configuration_accepts_are_refused() -> None:
    with pytest.raises(InvalidOptionError, match="refused with every player count"):
        game_configs("trafficars_memory", max_number=1)


class RecordingDatabase(InMemoryExampleDatabase):
    """An in-memory example database that records the keys read."""

    def __init__(self) -> None:
        super().__init__()
        self.fetched: set[bytes] = set()

    def fetch(self, key: bytes) -> Iterable[bytes]:
        self.fetched.add(key)
        return super().fetch(key)


@contextlib.contextmanager
def profile(**changes: Any) -> Iterator[None]:
    """The active Hypothesis profile with ``changes``, while the block runs."""
    previous = settings.get_current_profile_name()
    settings.register_profile("toolkit-db", settings.get_profile(previous), **changes)
    settings.load_profile("toolkit-db")
    try:
        yield
    finally:
        settings.load_profile(previous)


def wrong_ties(**config: Any) -> TinyGoofspiel:
    return TinyGoofspiel(ties_to_seat_0=True, **config)


def test_each_equivalence_test_has_its_own_database_keys() -> None:
    """Tests differing in the game, factory, pins or fields read keys no other test reads."""
    db = RecordingDatabase()
    builds: list[Callable[[], Callable[[], None]]] = [
        lambda: equivalence_test("goofspiel", TinyGoofspiel, max_examples=1),
        lambda: equivalence_test("goofspiel", rules_only("goofspiel"), max_examples=1),
        lambda: equivalence_test("goofspiel", TinyGoofspiel, max_examples=1, num_cards=3),
        lambda: equivalence_test("goofspiel", TinyGoofspiel, max_examples=1, fields=["scores"]),
        lambda: equivalence_test("turn_the_tide", rules_only("turn_the_tide"), max_examples=1),
    ]
    read: list[set[bytes]] = []
    with profile(database=db):
        for build in [*builds, builds[0]]:  # the first one built again: the same keys
            db.fetched.clear()
            build()()
            read.append(set(db.fetched))
    assert all(read) and read[-1] == read[0]
    distinct = read[:-1]
    assert len(set().union(*distinct)) == sum(len(keys) for keys in distinct)


def test_a_saved_failure_is_replayed_by_its_own_test_only() -> None:
    """A passing test must not replay, and so erase, another test's saved failure."""
    db = InMemoryExampleDatabase()
    with profile(database=db):
        with pytest.raises(DivergenceError):
            equivalence_test("goofspiel", wrong_ties, max_examples=200)()
        saved = {key: set(values) for key, values in db.data.items() if values}
        assert saved
        equivalence_test("goofspiel", TinyGoofspiel, max_examples=5)()
        assert all(db.data[key] >= values for key, values in saved.items())
    with profile(database=db, phases=[Phase.reuse]):  # no new examples, only the saved ones
        with pytest.raises(DivergenceError) as info:  # the same test, built again: a next run
            equivalence_test("goofspiel", wrong_ties)()
        assert info.value.divergence.history == [0, 0, 0]
        with pytest.raises(unittest.SkipTest):  # nothing saved under its keys: nothing to run
            equivalence_test("goofspiel", wrong_ties, players=2)()


def test_no_database_stays_none() -> None:
    with profile(database=None), pytest.raises(DivergenceError):
        equivalence_test("goofspiel", wrong_ties, max_examples=200)()
    with profile(database=None, phases=[Phase.reuse]), pytest.raises(unittest.SkipTest):
        equivalence_test("goofspiel", wrong_ties)()


def test_the_keyed_database_passes_on_changes_under_its_keys() -> None:
    shared = InMemoryExampleDatabase()
    mine, other = testing._KeyedDatabase(shared, "mine"), testing._KeyedDatabase(shared, "other")
    events: list[Any] = []
    mine.add_listener(events.append)
    mine.save(b"k", b"1")
    other.save(b"k", b"2")
    mine.move(b"k", b"j", b"1")
    assert list(mine.fetch(b"k")) == [] and list(mine.fetch(b"j")) == [b"1"]
    assert list(other.fetch(b"k")) == [b"2"]
    mine.delete(b"j", b"1")
    assert events == [
        ("save", (b"k", b"1")),
        ("delete", (b"k", b"1")),
        ("save", (b"j", b"1")),
        ("delete", (b"j", b"1")),
    ]
    mine.remove_listener(events.append)
    mine.save(b"x", b"3")
    assert len(events) == 4 and "'mine'" in repr(mine)


class NumpyState(RulesOnlyState):
    """Answers with NumPy values, as an engine built on NumPy arrays might."""

    @property
    def is_terminal(self) -> Any:
        return np.bool_(self._s.is_terminal)

    @property
    def scores(self) -> Any:
        return np.array(self._s.scores)

    def chance_outcomes(self) -> Any:
        return [(np.int64(o), np.float64(p)) for o, p in self._s.chance_outcomes()]


class NumpyGame(RulesOnlyGame):
    def new_state(self, seed: int | None = None) -> RulesOnlyState:
        return NumpyState(self._g.new_state(seed), self._fault)


def test_numpy_answers_compare_by_value() -> None:
    numpy_goofspiel = equivalence_test(
        "goofspiel", lambda **c: NumpyGame("goofspiel", **c), max_examples=10, num_cards=4
    )
    numpy_goofspiel()


class Stub:
    """A state whose members answer the given values (methods: give callables)."""

    def __init__(self, **answers: Any) -> None:
        self.answers = answers

    def __getattr__(self, name: str) -> Any:
        if name not in self.answers:
            raise AttributeError(name, name=name, obj=self)
        return self.answers[name]


def test_numpy_differences_are_reported_without_crashing() -> None:
    a, b = Stub(scores=[1, 2], winners=[]), Stub(scores=np.array([1, 3]), winners=np.array([]))
    assert compare_states(a, b, 2, ["winners"]) == []
    [line] = compare_states(a, b, 2, ["scores"])
    assert line.startswith("scores: A = [1, 2], B = array([1, 3])")


def test_compare_states_refuses_more_seats_than_the_engine_has() -> None:
    """A huge ``players`` used to loop (and grow its list of differences) for as long as it said."""
    a = Stub(scores=[1, 2])
    for bad in (MAX_PLAYERS + 1, 2**64, -1, True):
        with pytest.raises(InvalidOptionError, match="players"):
            compare_states(a, a, bad, ["observations"])
    assert compare_states(a, a, MAX_PLAYERS, ["scores"]) == []


def _raises_at(member: str, length: int) -> Callable[[Any, str], None]:
    def fault(state: Any, name: str) -> None:
        if name == member and (state is None or len(state.history) == length):
            raise KeyError("oops")

    return fault


@pytest.mark.parametrize("member", ["legal_actions", "scores", "winners", "chance_outcomes"])
def test_an_exception_of_the_implementation_is_a_divergence(member: str) -> None:
    theirs = RulesOnlyGame("goofspiel", _raises_at(member, 3), players=2, num_cards=4)
    ours = cardtable.make("goofspiel", players=2, num_cards=4)
    with pytest.raises(DivergenceError) as info:
        assert_equivalent(ours, theirs, [0] * 20, fields=RULES_FIELDS)
    assert info.value.divergence.history == [0, 0, 0]
    [line] = info.value.divergence.differences
    assert line.startswith(member) and "B raises KeyError('oops')" in line


def test_an_exception_in_new_state_or_the_factory_is_a_divergence() -> None:
    theirs = RulesOnlyGame("goofspiel", _raises_at("new_state", 0), players=2)
    with pytest.raises(DivergenceError, match=r"new_state\(None\): A returns a state, B raises"):
        assert_equivalent(cardtable.make("goofspiel", players=2), theirs, [])

    def factory(**config: Any) -> RulesOnlyGame:
        raise KeyError("no such deck")

    # Our side accepts these arguments: named as it is (it said "the reference" of ours).
    with pytest.raises(DivergenceError) as info:
        equivalence_test("goofspiel", factory, max_examples=2)()
    [line] = info.value.divergence.differences
    assert line.startswith("factory(**{'players': 2")
    assert line.endswith(" raises KeyError('no such deck') (cardtable accepts these arguments)")
    variant = docs_variant()["SplitTiesGoofspiel"]
    with pytest.raises(DivergenceError) as info:
        equivalence_test("goofspiel", factory, reference=variant, max_examples=2)()
    [line] = info.value.divergence.differences
    assert line.endswith(" (SplitTiesGoofspiel accepts these arguments)")


class NoChanceOutcomes:
    def __init__(self) -> None:
        self.current_player, self.is_terminal, self.scores, self.winners = 0, False, [0], [0]

    def legal_actions(self) -> list[int]:
        return [0]

    def apply(self, action: int, player: int | None = None) -> None:
        pass


def test_rules_state_includes_chance_outcomes() -> None:
    assert isinstance(TinyGoofspielState(3, False), RulesState)
    assert not isinstance(NoChanceOutcomes(), RulesState)


def test_the_module_example_runs_and_a_missing_member_is_named() -> None:
    assert testing.__doc__ is not None
    example = textwrap.dedent(testing.__doc__.split("::")[1].split("This module")[0])
    namespace = {"MyTurnTheTide": lambda players: RulesOnlyGame("turn_the_tide", players=players)}
    exec(example + "\ntest_my_engine()", namespace)
    ours = cardtable.make("goofspiel", players=2)
    with pytest.raises(InvalidOptionError, match=r"has no 'is_chance_node'.*fields=RULES_FIELDS"):
        assert_equivalent(ours, RulesOnlyGame("goofspiel", players=2), [])


def test_a_seeded_divergence_reports_a_replayable_history() -> None:
    """With a seed, chance outcomes are drawn inside new_state and apply: the history has them."""
    seen: list[list[int]] = []

    def fault(state: Any, member: str) -> None:
        if member == "apply" and len(state.history) == 5:
            seen.append(list(state.history))
            raise KeyError("oops")

    ours = cardtable.make("goofspiel", players=2, num_cards=5)
    theirs = RulesOnlyGame("goofspiel", fault, players=2, num_cards=5)
    with pytest.raises(DivergenceError, match=r"new_state\(7\)") as info:
        assert_equivalent(ours, theirs, random_choices(3), fields=RULES_FIELDS, seed=7)
    assert info.value.divergence.seed == 7
    assert info.value.divergence.history == seen[0]
    replay = ours.new_state()  # it replays without the seed
    for step in seen[0]:
        replay.apply(step)


NO_SHRINK = {"phases": [Phase.generate], "database": None, "derandomize": True}
"""A profile that only looks for a failure, the same way every run (for messages, not shrinking)."""

YOURS = ("cardtable", "yours")


def play_with_probes(
    bug: str,
    choices: list[int],
    probes: Any,
    fields: tuple[str, ...] = RULES_FIELDS,
    num_cards: int = 4,
) -> DivergenceError | None:
    """One game of ours and ``TinyGoofspiel(bug=bug)`` with the probes of an equivalence test."""
    ours = cardtable.make("goofspiel", players=2, num_cards=num_cards)
    theirs = TinyGoofspiel(num_cards=num_cards, bug=bug)
    config = {"players": 2, "num_cards": num_cards}
    run = testing._Run(ours, theirs, fields, None, YOURS, "goofspiel", config)
    try:
        run.play(choices, testing.MAX_STEPS, probes)
    except DivergenceError as err:
        return err
    return None


def test_a_clone_that_shares_state_with_its_original_is_reported() -> None:
    # After a point card, two bids on the clone score a turn, which removes the bid cards from the
    # hands that the clone shares with its original.
    probes = testing._Probes(illegal_at=999, illegal_pick=0, clone_at=1, clone_choices=(0, 0))
    assert play_with_probes("", [0], probes) is None
    error = play_with_probes("clone_shares_hands", [0], probes)
    assert error is not None and error.divergence.history == [0]
    assert error.divergence.differences == [
        "clone() is not independent: after playing 2 steps [0, 0] on a clone, the original's "
        "legal_actions() changed from [0, 1, 2, 3] to [1, 2, 3]"
    ]
    # A hidden change shows later: the report says a clone was played before.
    hidden = testing._Probes(illegal_at=999, illegal_pick=0, clone_at=0, clone_choices=(0, 0, 0))
    error = play_with_probes("clone_shares_hands", [0], hidden)
    assert error is not None and error.divergence.differences == [
        "legal_actions(): cardtable = [0, 1, 2, 3], yours = [1, 2, 3] (only in cardtable: [0])",
        "(earlier, clone() was called at history [] and 3 steps [0, 0, 0] played on the clone: "
        "if the history alone does not reproduce this, the clone shares state with its original)",
    ]


def test_a_clone_that_differs_from_its_original_is_reported() -> None:
    probes = testing._Probes(illegal_at=999, illegal_pick=0, clone_at=3, clone_choices=())
    error = play_with_probes("clone_forgets_points", [0, 1, 0], probes)  # seat 0 wins point 1
    assert error is not None and error.divergence.history == [0, 1, 0]
    assert error.divergence.differences == [
        "clone() is not a copy: right after cloning, yours differs from its clone:",
        "  scores: the original = [1, 0], its clone = [0, 0]",
    ]


def test_equivalence_tests_check_clones() -> None:
    with profile(**NO_SHRINK), pytest.raises(DivergenceError, match=r"clone\(\)"):
        equivalence_test("goofspiel", with_bug("clone_shares_hands"), max_examples=100)()


@pytest.mark.parametrize(
    ("bug", "message"),
    [
        ("", None),
        (
            "illegal_raises_key_error",
            "apply(0) of an action that is not legal (legal: [1, 2, 3]): yours raised KeyError(0) "
            "instead of IllegalActionError (raise cardtable.errors.IllegalActionError, or a "
            "subclass, for an action that is not legal)",
        ),
        (
            "no_legality_check",
            "apply(0) of an action that is not legal (legal: [1, 2, 3]): yours accepts it "
            "(cardtable raises IllegalActionError); and yours changed its state: its "
            "current_player changed from -1 to 0; its legal_actions() changed from [1, 2, 3] to "
            "[0, 2, 3]; its chance_outcomes() changed from [(1, 0.3333333333333333), (2, "
            "0.3333333333333333), (3, 0.3333333333333333)] to []; its history changed from "
            "[0, 1, 0] to [0, 1, 0, 0]",
        ),
        (
            "illegal_changes_history",
            "apply(0) of an action that is not legal (legal: [1, 2, 3]): yours changed its "
            "state: its history changed from [0, 1, 0] to [0, 1, 0, 0]",
        ),
    ],
)
def test_an_action_that_is_not_legal_must_raise_illegal_action_error(
    bug: str, message: str | None
) -> None:
    # After a whole turn (point card 1 and two bids) point card 1 (outcome 0) is not legal.
    probes = testing._Probes(illegal_at=3, illegal_pick=0, clone_at=999, clone_choices=())
    error = play_with_probes(bug, [0, 1, 0], probes, fields=(*RULES_FIELDS, "history"))
    assert (error and error.divergence.differences) == (message and [message])
    if error is not None:
        assert error.divergence.history == [0, 1, 0]
        if bug == "illegal_raises_key_error":
            assert isinstance(error.__cause__, KeyError)  # its traceback is kept


@pytest.mark.parametrize("pick", range(5))
def test_the_actions_tried_are_out_of_the_legal_ones(pick: int) -> None:
    """Ids in 0..num_actions-1 that are not legal, then -1 and num_actions."""
    tried: list[int] = []

    class Recording(TinyGoofspielState):
        def apply(self, action: int, player: int | None = None) -> None:
            if action not in self.legal_actions():
                tried.append(action)
            super().apply(action, player)

    class RecordingGame(TinyGoofspiel):
        def new_state(self, seed: int | None = None) -> TinyGoofspielState:
            return Recording(self.num_cards, False)

    ours = cardtable.make("goofspiel", players=2, num_cards=4)
    run = testing._Run(ours, RecordingGame(num_cards=4), RULES_FIELDS, None, YOURS, None, None)
    run.play([0, 1, 0], testing.MAX_STEPS, testing._Probes(3, pick, 999, ()))
    assert tried == [[0, -1, 4][pick % 3]]


def test_equivalence_tests_try_actions_that_are_not_legal() -> None:
    with profile(**NO_SHRINK), pytest.raises(DivergenceError) as info:
        equivalence_test("goofspiel", with_bug("illegal_raises_key_error"), max_examples=100)()
    assert "yours raised KeyError" in str(info.value)
    assert isinstance(info.value.__cause__, KeyError)


def test_a_seeded_run_compares_both_histories_and_says_whose_it_reports() -> None:
    ours = cardtable.make("goofspiel", players=2, num_cards=5)
    right = TinyGoofspiel(num_cards=5)
    for seed in range(10):  # a right implementation of seeded chance agrees
        assert_equivalent(ours, right, random_choices(seed), fields=RULES_FIELDS, seed=seed)
    wrong = TinyGoofspiel(num_cards=5, bug="chance_drawn_in_reverse")
    with pytest.raises(DivergenceError) as info:
        assert_equivalent(ours, wrong, random_choices(3), fields=RULES_FIELDS, seed=7, labels=YOURS)
    divergence = info.value.divergence
    ours_first = ours.new_state(7).history
    assert divergence.history == ours_first  # ours: it replays on new_state()
    [line] = divergence.differences
    assert line.startswith(f"history: cardtable = {ours_first}, yours = [")
    assert f"from new_state(7) after cardtable's history {ours_first} (" in str(info.value)
    assert "the history replays" not in str(info.value)


def test_equivalence_test_takes_a_seed() -> None:
    reverse = with_bug("chance_drawn_in_reverse")
    equivalence_test("goofspiel", reverse, max_examples=10)()  # explicit chance: no difference
    equivalence_test("goofspiel", TinyGoofspiel, max_examples=10, seed="drawn")()
    with profile(**NO_SHRINK):
        with pytest.raises(DivergenceError, match=r"from new_state\(7\) after cardtable's"):
            equivalence_test("goofspiel", reverse, max_examples=20, seed=7)()
        with pytest.raises(DivergenceError, match=r"history: cardtable = \[\d+\], yours = "):
            equivalence_test("goofspiel", reverse, max_examples=20, seed="drawn")()


def test_the_history_field_compares_lists_of_ints() -> None:
    assert "history" in testing.ALL_FIELDS
    same = compare_states(Stub(history=(1, 2)), Stub(history=np.array([1, 2])), 2, ["history"])
    assert same == []
    assert compare_states(Stub(history=[1]), Stub(history=[2]), 2, ["history"]) == [
        "history: A = [1], B = [2]"
    ]


def test_game_configs_shrink_to_the_smallest_game() -> None:
    smallest = settings(database=None)
    assert find(game_configs("goofspiel"), lambda c: True, settings=smallest) == {
        "players": 2,
        "num_cards": 1,
    }
    assert find(game_configs("turn_the_tide"), lambda c: True, settings=smallest) == {
        "players": 3,
        "rounds": 1,
    }
    # A bug that needs two cards or more shrinks to two, not to the default 13.
    two = find(game_configs("goofspiel"), lambda c: c.get("num_cards", 13) > 1, settings=smallest)
    assert two == {"players": 2, "num_cards": 2}
    defaults: list[bool] = []

    @settings(max_examples=200, database=None, derandomize=True)
    @given(config=game_configs("goofspiel"), choices=choice_sequences())  # as in a test
    def draw(config: dict[str, Any], choices: list[int]) -> None:
        defaults.append("num_cards" not in config)

    draw()
    assert sum(defaults) / len(defaults) > 0.2  # the default is still drawn often


def test_an_end_of_game_bug_shrinks_to_a_short_game() -> None:
    with profile(database=None), pytest.raises(DivergenceError) as info:
        equivalence_test("goofspiel", with_bug("end_bonus"), max_examples=50)()
    divergence = info.value.divergence
    assert divergence.config == {"players": 2, "num_cards": 1}
    assert len(divergence.history) == 3  # rather than 36 steps of 13 cards
    assert divergence.differences == ["scores: cardtable = [0, 0], yours = [0, 1]"]


def test_winners_compare_as_sorted_lists() -> None:
    assert compare_states(Stub(winners=[1, 0]), Stub(winners=(0, 1)), 2, ["winners"]) == []
    [line] = compare_states(Stub(winners=[1, 0]), Stub(winners=[1]), 2, ["winners"])
    assert line == "winners: A = [0, 1], B = [1]"
    ours = cardtable.make("goofspiel", players=2, num_cards=1)
    theirs = TinyGoofspiel(num_cards=1, bug="winners_in_reverse")  # a draw, as [1, 0]
    history = assert_equivalent(ours, theirs, [], fields=RULES_FIELDS)
    end = theirs.new_state()
    for step in history:
        end.apply(step)
    assert end.winners == [1, 0]


def test_labels_name_the_implementations() -> None:
    a, b = Stub(scores=[1, 2]), Stub(scores=[1, 3])
    assert compare_states(a, b, 2, ["scores"], labels=YOURS) == [
        "scores: cardtable = [1, 2], yours = [1, 3]"
    ]
    for bad in ("AB", ("A", "A"), ("A",), ("A", 1), ("", "B"), ("A", "")):
        with pytest.raises(InvalidOptionError, match="labels"):
            compare_states(a, b, 2, ["scores"], labels=bad)  # type: ignore[arg-type]


def test_the_report_names_the_game_and_its_options() -> None:
    ours = cardtable.make("goofspiel", players=2, num_cards=4)
    with pytest.raises(DivergenceError) as info:
        assert_equivalent(
            ours, TinyGoofspiel(num_cards=4, ties_to_seat_0=True), [0], fields=RULES_FIELDS
        )
    assert str(info.value).startswith(
        "implementations diverge on goofspiel with players=2, num_cards=4 after history [0, 0, 0]:"
    )
    divergence = info.value.divergence
    assert divergence.game_id is not None and divergence.config is not None
    cardtable.make(divergence.game_id, **divergence.config)  # it reproduces


def test_the_docs_name_every_field_and_the_state_dict_keys() -> None:
    text = (ROOT / "docs" / "testing.md").read_text()
    assert all(f"`{name}`" in text for name in testing.ALL_FIELDS)
    keys = cardtable.make("goofspiel", players=2).new_state().to_dict()
    assert all(f"`{key}`" in text for key in keys)
    assert "`assert_same_state(" in text


def test_the_protocols_point_to_files_that_exist() -> None:
    import inspect
    import re

    from cardtable import protocols

    source = inspect.getsource(protocols)
    named = re.findall(r"[\w/.<>_-]+\.md", source)
    assert named
    for name in named:
        assert (ROOT / name).exists() or list(ROOT.glob(name.replace("<game_id>", "*"))), name


kit: Any = testing
"""The toolkit as seen by a caller without a type checker."""


def _goof() -> Any:
    return cardtable.make("goofspiel", players=2)


tiny = TinyGoofspiel
MISUSES: dict[str, Callable[[], object]] = {
    "configs-unknown-game": lambda: kit.game_configs("nope"),
    "test-unknown-game": lambda: kit.equivalence_test("nope", tiny),
    "examples-0": lambda: kit.equivalence_test("goofspiel", tiny, max_examples=0),
    "examples-neg": lambda: kit.equivalence_test("goofspiel", tiny, max_examples=-1),
    "examples-2.5": lambda: kit.equivalence_test("goofspiel", tiny, max_examples=2.5),
    "examples-True": lambda: kit.equivalence_test("goofspiel", tiny, max_examples=True),
    "factory-42": lambda: kit.equivalence_test("goofspiel", 42),
    "fields-str": lambda: kit.equivalence_test("goofspiel", tiny, fields="scores"),
    "factory-not-a-game": lambda: kit.equivalence_test("goofspiel", dict, max_examples=2)(),
    "game_b-object": lambda: kit.assert_equivalent(_goof(), object(), []),
    "choices-None": lambda: kit.assert_equivalent(tiny(), tiny(), None, fields=RULES_FIELDS),
    "choices-float": lambda: kit.assert_equivalent(tiny(), tiny(), [1.5], fields=RULES_FIELDS),
    "playthrough-None": lambda: kit.playthrough(_goof(), None),
    "playthrough-no-options": lambda: kit.playthrough(tiny(), 1),
    "random_choices-str": lambda: kit.random_choices("x"),
    "random_choices-neg": lambda: kit.random_choices(-1),
    "random_choices-2**64": lambda: kit.random_choices(2**64),
    "play_random-str": lambda: kit.play_random(_goof().new_state(), "x"),
    "choice_sequences-neg": lambda: kit.choice_sequences(-1),
    "reachable-neg": lambda: kit.reachable_states(_goof(), max_steps=-1),
    "reachable-object": lambda: kit.reachable_states(object()),
    "seed-str": lambda: kit.equivalence_test("goofspiel", tiny, seed="random"),
    "seed-neg": lambda: kit.equivalence_test("goofspiel", tiny, seed=-1),
    "seed-True": lambda: kit.equivalence_test("goofspiel", tiny, seed=True),
    "seed-float": lambda: kit.equivalence_test("goofspiel", tiny, seed=1.5),
    "labels-str": lambda: kit.assert_equivalent(tiny(), tiny(), [], labels="AB"),
    "perft-no-clone": lambda: kit.perft(RulesOnlyGame("goofspiel", players=2).new_state(), 2),
}


@pytest.mark.parametrize("misuse", list(MISUSES.values()), ids=list(MISUSES))
def test_misuse_raises_invalid_option_error(misuse: Callable[[], object]) -> None:
    with pytest.raises(InvalidOptionError):
        misuse()


@pytest.mark.parametrize("examples", [0, -5])
def test_the_pytest_option_refuses_fewer_than_one_example(examples: int) -> None:
    class Config:
        def getoption(self, name: str, default: object = None) -> int:
            return examples

    with pytest.raises(pytest.UsageError, match="--cardtable-examples must be at least 1"):
        pytest_plugin.pytest_configure(Config())  # type: ignore[arg-type]


def test_the_pytest_option_reaches_tests_built_in_a_conftest(tmp_path: Path) -> None:
    """``--cardtable-examples`` was applied at ``pytest_configure``, after pytest had imported
    the first ``conftest.py`` files: a test built in one ran the default count of examples."""
    import subprocess
    import sys

    (tmp_path / "conftest.py").write_text(
        textwrap.dedent(
            """
            import cardtable
            from cardtable.testing import equivalence_test

            CALLS = []

            def counted(**options):
                CALLS.append(options)
                return cardtable.make("goofspiel", **options)

            built_in_conftest = equivalence_test("goofspiel", counted, num_cards=3)
            """
        ),
        encoding="utf-8",
    )
    (tmp_path / "test_counted.py").write_text(
        textwrap.dedent(
            """
            from conftest import CALLS, built_in_conftest as test_built_in_conftest

            def test_zz_counted():
                assert 0 < len(CALLS) <= 5, len(CALLS)
            """
        ),
        encoding="utf-8",
    )
    run = subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "--cardtable-examples=5"],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    assert run.returncode == 0 and "2 passed" in run.stdout, run.stdout + run.stderr


def test_chance_outcomes_compare_as_probabilities_in_any_order() -> None:
    a = Stub(chance_outcomes=lambda: [(0, 1 / 13), (1, 12 / 13)])
    b = Stub(chance_outcomes=lambda: [(1, 12 / 13), (0, 1 - 12 / 13)])
    assert 1 - 12 / 13 != 1 / 13
    assert compare_states(a, b, 2, ["chance_outcomes"]) == []
    c = Stub(chance_outcomes=lambda: [(1, 0.9), (0, 0.1), (2, 0.0)])
    [line] = compare_states(a, c, 2, ["chance_outcomes"])
    assert "outcome 0: A has p=0.0769" in line and "outcome 1" in line
    assert "outcome 2 is missing in A, has p=0.0 in B" in line
    assert "[(" not in line  # the differing entries, not both lists


def test_observation_tensors_compare_by_value_and_name_an_entry() -> None:
    def tensors(*values: float) -> Stub:
        return Stub(observation_tensor=lambda p: np.array(values, dtype=np.float32))

    fields = ["observation_tensors"]
    same = compare_states(tensors(0.0, math.nan, 1.0), tensors(-0.0, math.nan, 1.0), 1, fields)
    assert same == []
    [line] = compare_states(tensors(0.0, 1.0, 2.0), tensors(-0.0, 1.0, 3.0), 1, fields)
    assert "indices [2]" in line and "A = [2.0], B = [3.0]" in line
    [line] = compare_states(tensors(math.nan), tensors(0.0), 1, fields)
    assert "indices [0]" in line


class EndlessState:
    """A user's state that never ends (or, ``stuck``, has no legal actions before its end).

    It refuses to play on well past :data:`cardtable.testing.MAX_STEPS`, so that a driver without a
    step cap fails instead of looping for ever.
    """

    def __init__(self, stuck: bool = False) -> None:
        self.stuck = stuck
        self.current_player, self.is_terminal, self.is_chance_node = 0, False, False
        self.scores, self.winners, self.history = [0, 0], list[int](), list[int]()

    def legal_actions(self) -> list[int]:
        return [] if self.stuck else [0, 1]

    def chance_outcomes(self) -> list[tuple[int, float]]:
        return []

    def apply(self, action: int, player: int | None = None) -> None:
        if len(self.history) > 2 * 100_000:
            raise RuntimeError("played on without a step cap")
        self.history.append(action)

    def action_label(self, action: int) -> str:
        return str(action)

    def observation(self, player: int) -> dict[str, Any]:
        return {}


class EndlessGame:
    def __init__(self, stuck: bool = False) -> None:
        self.stuck = stuck
        self.game_id, self.players, self.options = "endless", 2, dict[str, Any]()

    def new_state(self, seed: int | None = None) -> EndlessState:
        return EndlessState(self.stuck)


def test_a_game_that_never_ends_is_stopped_with_a_clear_error() -> None:
    with pytest.raises(InvalidStateError, match=r"play_random: the game did not end within 100000"):
        kit.play_random(EndlessState(), 1)
    with pytest.raises(InvalidStateError, match=r"playthrough: the game did not end within 100000"):
        kit.playthrough(EndlessGame(), 1)
    assert kit.MAX_STEPS == 100_000


def test_a_state_without_legal_actions_before_its_end_is_reported() -> None:
    """It raised a bare ValueError from the random generator (below(0)), or Hypothesis's own."""
    stuck = r"legal_actions\(\): the state \(EndlessState\) is not terminal but has no legal"
    with pytest.raises(InvalidStateError, match=stuck):
        kit.play_random(EndlessState(stuck=True), 1)
    with pytest.raises(InvalidStateError, match=stuck):
        kit.playthrough(EndlessGame(stuck=True), 1)

    @settings(max_examples=5)
    @given(state=reachable_states(EndlessGame(stuck=True)))  # type: ignore[arg-type]
    def draw(state: Any) -> None:
        pass

    with pytest.raises(InvalidStateError, match=stuck):
        draw()


def test_tensor_seats_are_checked_against_players_before_any_work() -> None:
    """A huge range was listed in full (a hang), and a seat out of range was a "difference"."""
    state = _goof().new_state()
    for bad in (range(10**12), [5], [-1], [True], [0, 0], [0.0], "01", itertools.repeat(0)):
        with pytest.raises(InvalidOptionError, match="tensor_seats"):
            compare_states(state, state, 2, tensor_seats=bad)  # type: ignore[arg-type]
    with pytest.raises(InvalidOptionError, match="tensor_seats"):  # checked whatever the fields
        compare_states(state, state, 2, ["scores"], tensor_seats=[2])
    assert compare_states(state, state, 2, tensor_seats=[1, np.int64(0)]) == []  # type: ignore[list-item]


def test_a_none_choice_is_refused_not_played_as_the_first_legal_action() -> None:
    ours, theirs = _goof(), cardtable.make("goofspiel", players=2, backend="reference")
    with pytest.raises(InvalidOptionError, match="choices must be ints, got None"):
        assert_equivalent(ours, theirs, [None, 3, 3, 3])  # type: ignore[list-item]
    with pytest.raises(InvalidOptionError, match="choices must be ints, got None"):
        assert_equivalent(ours, theirs, [3, 3, 3, None])  # type: ignore[list-item]


@pytest.mark.parametrize(
    ("value", "message"),
    [
        (0, "goofspiel: option num_cards must be an int in 1..=60, got 0"),
        ("3", 'goofspiel: option num_cards must be an int in 1..=60, got "3"'),
        (math.nan, "goofspiel: option num_cards: not JSON-compatible: NaN is not a finite number"),
    ],
)
def test_a_refused_pin_is_named_once(value: object, message: str) -> None:
    with pytest.raises(InvalidOptionError) as info:
        game_configs("goofspiel", num_cards=value)
    assert str(info.value) == message


# --- the test's settings: no deadline, and changes given ------------------------------------------


class SlowState(TinyGoofspielState):
    """A correct goofspiel that takes its time: a millisecond or more per step."""

    def apply(self, action: int, player: int | None = None) -> None:
        time.sleep(0.001)
        super().apply(action, player)


class SlowGoofspiel(TinyGoofspiel):
    """The game of :class:`SlowState`."""

    def new_state(self, seed: int | None = None) -> SlowState:
        return SlowState(self.num_cards, self.ties_to_seat_0, None, self.bug)


def test_a_slow_correct_implementation_passes_whatever_deadline_the_profile_sets() -> None:
    """A whole game per example: eight cards take 20 ms or more, past a 10 ms deadline.

    Whole games failed Hypothesis' deadline (200 ms by default) with DeadlineExceeded, however
    correct, and a deadline could not be lifted on the test (it has its settings already).
    """
    slow: dict[str, Any] = {"max_examples": 3, "num_cards": 8}
    with profile(deadline=10, database=None):
        equivalence_test("goofspiel", SlowGoofspiel, **slow)()
        # A deadline asked for in settings= holds, over ours.
        asked = {"deadline": 10, "phases": [Phase.generate]}
        with pytest.raises(DeadlineExceeded):
            equivalence_test("goofspiel", SlowGoofspiel, settings=asked, **slow)()


def test_the_profile_and_the_settings_given_set_the_examples() -> None:
    played: list[dict[str, Any]] = []

    def counted(**config: Any) -> TinyGoofspiel:
        played.append(config)
        return TinyGoofspiel(**config)

    with profile(max_examples=4, database=None):
        equivalence_test("goofspiel", counted)()
        assert len(played) == 4  # the profile's
        played.clear()
        equivalence_test("goofspiel", counted, settings={"max_examples": 2})()
        assert len(played) == 2


@pytest.mark.parametrize(
    ("kwargs", "match"),
    [
        ({"settings": settings(deadline=None)}, "settings must be None or a dict"),
        ({"settings": {"deadlin": 5}}, "settings: .*'deadlin'"),
        ({"settings": {"deadline": "soon"}}, "settings: deadline='soon'"),
        ({"settings": {"max_examples": 0}}, "max_examples must be an int >= 1"),
        ({"settings": {"max_examples": 5}, "max_examples": 5}, "max_examples is given twice"),
        ({"reference": 5}, "reference must be None or a callable"),
        ({"reference": wrong_ties, "reference_backend": "reference"}, "not both"),
        # Refused at once: it failed only when the test ran, with an AttributeError.
        (
            {"settings": {"database": "x"}},
            "settings: database must be None or a hypothesis.database.ExampleDatabase",
        ),
        # The factory compared with itself: a test that cannot fail.
        ({"reference": TinyGoofspiel}, "reference is factory: .* could never fail"),
    ],
)
def test_bad_settings_and_references_are_refused(kwargs: dict[str, Any], match: str) -> None:
    with pytest.raises(InvalidOptionError, match=match):
        equivalence_test("goofspiel", TinyGoofspiel, **kwargs)


def test_a_database_in_the_settings_is_used_keyed() -> None:
    """A database given in ``settings`` is an ``ExampleDatabase`` (or ``None``): it saves the
    failure under this test's keys, not the profile's database."""
    given, profiled = RecordingDatabase(), RecordingDatabase()
    with profile(database=profiled), pytest.raises(DivergenceError):
        equivalence_test("goofspiel", wrong_ties, settings={"database": given}, max_examples=200)()
    assert any(given.data.values()) and not profiled.fetched
    with profile(database=profiled):
        equivalence_test("goofspiel", TinyGoofspiel, settings={"database": None}, max_examples=2)()
    assert not profiled.fetched


# --- a variant (house rule) against a reference of its own ----------------------------------------


def docs_variant() -> dict[str, Any]:
    """The names the worked example of docs/testing.md, "Testing a variant", defines (run)."""
    (block,) = [
        block
        for block in find_blocks(ROOT / "docs" / "testing.md")
        if "class SplitTiesGoofspiel" in block.code
    ]
    namespace: dict[str, Any] = {"__name__": "docs_testing_split_ties"}
    exec(compile(block.code, "docs/testing.md", "exec"), namespace)
    return namespace


def test_a_reference_of_another_game_is_refused() -> None:
    """The reference must make a game of the game tested, as ``cardtable conformance
    --reference`` wants (one helper for both): a trafficars reference was compared with a
    goofspiel, and a game that does not say which it is could be any."""

    def trafficars(**config: Any) -> Any:
        return cardtable.make("trafficars", players=2)

    with profile(database=None), pytest.raises(InvalidOptionError) as info:
        equivalence_test("goofspiel", TinyGoofspiel, reference=trafficars, max_examples=2)()
    assert "must return a game of goofspiel (with game_id 'goofspiel'" in str(info.value)
    assert str(info.value).endswith("got a game with game_id 'trafficars'")
    unnamed = rules_only("goofspiel")  # a RulesGame without game_id
    with profile(database=None), pytest.raises(InvalidOptionError, match="game_id None"):
        equivalence_test("goofspiel", TinyGoofspiel, reference=unnamed, max_examples=2)()


def test_a_variant_is_held_to_its_reference_and_differs_from_ours() -> None:
    """Tied bids split the point card: the docs' variant, as ``reference=``.

    A variant needed private hooks patched and our registry monkeypatched, and its report named
    it ``cardtable``.
    """
    variant = docs_variant()["SplitTiesGoofspiel"]
    equivalence_test("goofspiel", with_bug("split_ties"), reference=variant, max_examples=30)()
    with profile(database=None), pytest.raises(DivergenceError) as info:
        equivalence_test(
            "goofspiel", with_bug("split_ties_floor"), reference=variant, max_examples=100
        )()
    divergence = info.value.divergence
    assert divergence.labels == ("SplitTiesGoofspiel", "yours")
    assert (divergence.config, divergence.history) == ({"players": 2, "num_cards": 1}, [0, 0, 0])
    assert divergence.differences == ["scores: SplitTiesGoofspiel = [0.5, 0.5], yours = [0, 0]"]
    # Our stock goofspiel discards the point card on a tie.
    with profile(database=None), pytest.raises(DivergenceError) as info:
        equivalence_test("goofspiel", with_bug("split_ties"), max_examples=100)()
    assert info.value.divergence.differences == ["scores: cardtable = [0, 0], yours = [0.5, 0.5]"]
