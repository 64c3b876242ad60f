"""Mutated options, state dicts and actions fed to both backends, which must agree.

Every input is either accepted by both backends (with the same result) or refused by both with the
same class of ``cardtable.errors``; a refused action leaves the state unchanged; nothing else is
ever raised. The budget is the Hypothesis profile of ``tests/conftest.py``: modest by default,
``CARDTABLE_HYPOTHESIS=deep`` for a long run.
"""

from __future__ import annotations

from typing import Any

import numpy as np
from hypothesis import given
from hypothesis import strategies as st

import cardtable
from tests.configs import ALL
from tests.walk import random_walk

GAME_CONFIGS = st.sampled_from(ALL)

# Values of every kind the input rules speak of (docs/errors.md), well-formed or not.
SCALARS = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(min_value=-5, max_value=60),
    st.integers(),
    st.sampled_from([2**63 - 1, 2**63, 2**64 - 1, 2**64, -(2**63), -(2**63) - 1]),
    st.floats(allow_nan=True, allow_infinity=True),
    st.text(max_size=6),
    st.sampled_from(
        [np.int64(2), np.uint8(3), np.int32(-1), np.bool_(True), np.float32(1.0), b"x", "random"]
    ),
)
VALUES = st.recursive(
    SCALARS,
    lambda inner: st.one_of(
        st.lists(inner, max_size=4),
        st.tuples(inner, inner),
        st.frozensets(st.integers(0, 3), max_size=3),
        st.dictionaries(st.one_of(st.text(max_size=4), st.integers(0, 3)), inner, max_size=3),
    ),
    max_leaves=12,
)


def outcome(call: Any) -> tuple[str, Any]:
    """``("accepted", result)`` or ``(error class name, None)``; a foreign error propagates."""
    try:
        return ("accepted", call())
    except cardtable.CardtableError as err:
        return (type(err).__name__, None)


def both(call: Any) -> dict[str, tuple[str, Any]]:
    """``call(backend)`` on each backend."""
    return {b: outcome(lambda b=b: call(b)) for b in ("rust", "reference")}


def game_of(backend: str, game_id: str, config: dict[str, Any]) -> Any:
    """The game ``game_id`` with ``config`` on ``backend``."""
    return cardtable.make(game_id, backend=backend, **config)  # type: ignore[arg-type]


def walked_state(game: Any, seed: int, steps: int) -> Any:
    """A seeded state after ``steps`` random steps."""
    state = game.new_state(seed=seed)
    random_walk(state, seed, steps)
    return state


@given(
    game_config=GAME_CONFIGS,
    # Option names other than make()'s own keyword parameters (a clash is Python's TypeError).
    names=st.lists(
        st.text(min_size=1, max_size=12).filter(lambda n: n not in ("game_id", "backend")),
        max_size=2,
    ),
    values=st.lists(VALUES, min_size=3, max_size=3),
    data=st.data(),
)
def test_mutated_options(
    game_config: tuple[str, dict[str, Any]], names: list[str], values: list[Any], data: Any
) -> None:
    game_id, config = game_config
    known = [o.name for g in cardtable.games() if g.id == game_id for o in g.options]
    options = dict(config)
    picked = data.draw(st.lists(st.sampled_from([*known, "players"]), max_size=2, unique=True))
    for name, value in zip([*picked, *names], values, strict=False):
        options[name] = value
    seen = both(lambda b: dict(game_of(b, game_id, options).options))
    assert seen["rust"][0] == seen["reference"][0], (options, seen)
    assert seen["rust"][1] == seen["reference"][1], options


def mutate(node: Any, path: list[Any], value: Any) -> Any:
    """``node`` with the item at ``path`` replaced by ``value`` (copies along the path)."""
    if not path:
        return value
    head, rest = path[0], path[1:]
    if isinstance(node, dict):
        out = dict(node)
        out[head] = mutate(node[head], rest, value)
        return out
    out_list = list(node)
    out_list[head] = mutate(node[head], rest, value)
    return out_list


def paths(node: Any, prefix: list[Any]) -> list[list[Any]]:
    """Every path to a value inside ``node``."""
    found = [prefix]
    if isinstance(node, dict):
        for k, v in node.items():
            found += paths(v, [*prefix, k])
    elif isinstance(node, list):
        for i, v in enumerate(node):
            found += paths(v, [*prefix, i])
    return found


@given(
    game_config=GAME_CONFIGS,
    seed=st.integers(0, 2**64 - 1),
    steps=st.integers(0, 30),
    value=VALUES,
    data=st.data(),
)
def test_mutated_state_dicts(
    game_config: tuple[str, dict[str, Any]], seed: int, steps: int, value: Any, data: Any
) -> None:
    game_id, config = game_config
    rust = walked_state(game_of("rust", game_id, config), seed, steps)
    good = rust.to_dict()
    where = data.draw(st.sampled_from(paths(good, [])))
    mutated = mutate(good, where, value)
    seen = both(lambda b: game_of(b, game_id, config).state_from_dict(mutated).to_dict())
    assert seen["rust"][0] == seen["reference"][0], (where, value, seen)
    assert seen["rust"][1] == seen["reference"][1], (where, value)


@given(
    game_config=GAME_CONFIGS,
    seed=st.integers(0, 2**64 - 1),
    steps=st.integers(0, 40),
    actions=st.lists(st.one_of(st.integers(-3, 400), VALUES), min_size=1, max_size=6),
    player=st.one_of(st.none(), st.integers(-3, 6), SCALARS),
)
def test_mutated_actions(
    game_config: tuple[str, dict[str, Any]],
    seed: int,
    steps: int,
    actions: list[Any],
    player: Any,
) -> None:
    game_id, config = game_config
    states = {
        b: walked_state(game_of(b, game_id, config), seed, steps) for b in ("rust", "reference")
    }
    for action in actions:
        before = {b: s.to_dict() for b, s in states.items()}
        assert before["rust"] == before["reference"]
        seen = {b: outcome(lambda s=s, a=action: s.apply(a, player)) for b, s in states.items()}
        assert seen["rust"][0] == seen["reference"][0], (action, player, seen)
        if seen["rust"][0] != "accepted":
            for b, s in states.items():
                assert s.to_dict() == before[b]
