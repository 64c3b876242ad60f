"""Bad input gives the package's own errors on both backends, never a crash, and changes nothing."""

from __future__ import annotations

from collections.abc import Callable
from functools import partial
from typing import Any

import numpy as np
import pytest

import cardtable
from cardtable import GameProtocol, IllegalActionError, InvalidOptionError, InvalidStateError
from cardtable._rng import SplitMix64
from cardtable.testing import play_random


def test_error_hierarchy() -> None:
    for cls in (IllegalActionError, InvalidOptionError, InvalidStateError):
        assert issubclass(cls, cardtable.CardtableError)
        assert issubclass(cls, ValueError)


def test_unknown_game_and_backend(backend: str) -> None:
    with pytest.raises(InvalidOptionError, match="unknown game"):
        cardtable.make("chess", players=2, backend=backend)  # type: ignore[arg-type]
    with pytest.raises(InvalidOptionError, match="backend"):
        cardtable.make("turn_the_tide", players=4, backend="cuda")  # type: ignore[arg-type]


@pytest.mark.parametrize("players", [True, 4.0, "4", None, -1, 2**70])
def test_players_must_be_an_int(players: Any, backend: str) -> None:
    with pytest.raises(InvalidOptionError):
        cardtable.make("turn_the_tide", players=players, backend=backend)  # type: ignore[arg-type]


@pytest.mark.parametrize("seed", [-1, 2**64, 1.5, "7", True])
def test_bad_seed(seed: Any, backend: str) -> None:
    game = cardtable.make("turn_the_tide", players=4, backend=backend)  # type: ignore[arg-type]
    with pytest.raises(InvalidOptionError):
        game.new_state(seed=seed)


def test_bad_actions_leave_the_state_unchanged(configured_game: GameProtocol) -> None:
    game = configured_game
    state = game.new_state(seed=1)
    rng = SplitMix64(1)
    for _ in range(30):
        if state.is_terminal:
            break
        before = state.to_dict()
        legal = state.legal_actions()
        illegal = [a for a in range(game.num_actions) if a not in legal][:5]
        for bad in [*illegal, -1, game.num_actions, 2**70, True, 1.0, "3", None]:
            with pytest.raises(IllegalActionError):
                state.apply(bad)  # type: ignore[arg-type]
            assert state.to_dict() == before
        if state.current_player >= 0:
            other = (state.current_player + 1) % game.players
            with pytest.raises(IllegalActionError, match="turn"):
                state.apply(legal[0], player=other)
            assert state.to_dict() == before
        for bad_seat in (-1, game.players, True):
            with pytest.raises(IllegalActionError):
                state.observation(bad_seat)
        with pytest.raises(IllegalActionError):
            state.action_label(game.num_actions)
        state.apply(legal[rng.below(len(legal))])
    play_random(state, 2)
    before = state.to_dict()
    with pytest.raises(IllegalActionError, match="over"):
        state.apply(0)
    assert state.to_dict() == before


def test_malformed_state_dicts(configured_game: GameProtocol) -> None:
    game = configured_game
    state = game.new_state(seed=2)
    state.apply(state.legal_actions()[0])
    good = state.to_dict()
    bad_dicts: list[Any] = [
        None,
        [],
        {},
        {**good, "game": "other"},
        {**good, "players": good["players"] + 1},
        {**good, "options": {**good["options"], "nonsense": 1}},
        {**good, "history": "abc"},
        {**good, "history": [*good["history"], 10**6]},
        {**good, "history": [True]},
        {**good, "rng": -5},
        {**good, "rng": "x"},
        {**good, "state": {}},
        {**good, "extra": 1},
        {k: v for k, v in good.items() if k != "history"},
    ]
    for bad in bad_dicts:
        with pytest.raises(InvalidStateError):
            game.state_from_dict(bad)


def test_unknown_and_mistyped_options(backend: str) -> None:
    for options in (
        {"nonsense": 1},
        {"recheck_after_elimination": 1},
        {"recheck_after_elimination": "yes"},
        {"rounds": 0},
        {"rounds": 6},
        {"rounds": True},
        {"rounds": 2.0},
    ):
        with pytest.raises(InvalidOptionError):
            cardtable.make("turn_the_tide", players=5, backend=backend, **options)  # type: ignore[arg-type]


# ----- the same inputs accepted and rejected by both backends (docs/errors.md, "Inputs") -----


def _outcome(call: Any) -> str:
    """``"accepted"`` or the name of the package error ``call()`` raised; anything else fails."""
    try:
        call()
    except cardtable.CardtableError as err:
        return type(err).__name__
    return "accepted"


_ODD_VALUES: list[Any] = [
    float("nan"),
    float("inf"),
    -float("inf"),
    {1, 2},
    frozenset(),
    3.0,
    np.float64(3.0),
    True,
    np.bool_(True),
    np.int64(3),
    np.uint8(3),
    2**63,
    2**64,
    -(2**64),
    "3",
    b"3",
    None,
    [3],
    (3,),
    {"a": 3},
    {3: 3},
    object(),
]


def _both(make_call: Any) -> dict[str, str]:
    return {b: _outcome(lambda b=b: make_call(b)) for b in ("rust", "reference")}


@pytest.mark.parametrize("value", _ODD_VALUES, ids=[repr(v)[:20] for v in _ODD_VALUES])
def test_same_inputs_accepted_and_rejected(value: Any) -> None:
    """Every odd value, as an option, a player count, a seed, an action and in a state dict."""
    checks = {
        "int option": lambda b: cardtable.make("turn_the_tide", players=4, backend=b, rounds=value),
        "optional option": lambda b: cardtable.make(
            "trafficars", players=3, backend=b, max_cars=value
        ),
        "bool option": lambda b: cardtable.make(
            "turn_the_tide", players=4, backend=b, recheck_after_elimination=value
        ),
        "choice option": lambda b: cardtable.make(
            "trafficars", players=3, backend=b, too_low=value
        ),
        "players": lambda b: cardtable.make("goofspiel", players=value, backend=b),
        "seed": lambda b: cardtable.make("goofspiel", players=2, backend=b).new_state(seed=value),
        "action": lambda b: (
            cardtable.make("goofspiel", players=2, backend=b).new_state(seed=1).apply(value)
        ),
        "observation seat": lambda b: (
            cardtable.make("goofspiel", players=2, backend=b).new_state(seed=1).observation(value)
        ),
    }
    for field in ("rng", "history", "players", "options", "game", "state"):
        checks[f"state dict {field}"] = partial(_replace_key, field, value)
    checks["state dict history item"] = lambda b: _replace_in_state(b, "history", [value])
    checks["state dict extra key"] = lambda b: _replace_in_state(b, "extra", value)
    for label, call in checks.items():
        seen = _both(call)
        assert seen["rust"] == seen["reference"], f"{label} = {value!r}: {seen}"


_WIDE_INTS = [2**63, -(2**63) - 1, 2**64, -(2**64), np.uint64(2**64 - 1), 10**5000]
"""Integers no ``i64`` holds, which the Rust backend hands to its engine as a stand-in."""


@pytest.mark.parametrize(
    "value", _WIDE_INTS, ids=["2**63", "-2**63-1", "2**64", "-2**64", "u64", "10**5000"]
)
@pytest.mark.parametrize("finished", [False, True], ids=["playing", "finished"])
def test_integers_too_wide_for_64_bits_get_the_same_message(value: Any, finished: bool) -> None:
    """They read `action 9223372036854775808 is out of range` on the Rust backend, without the
    range, the engine's word for a seat or the game being over that the reference names."""

    def state(backend: str) -> Any:
        game = cardtable.make("goofspiel", players=2, backend=backend, num_cards=3)  # type: ignore[arg-type]
        s = game.new_state(seed=1)
        while finished and not s.is_terminal:
            s.apply(s.legal_actions()[0])
        return s

    calls: dict[str, Callable[[Any], object]] = {
        "apply": lambda s: s.apply(value),
        "apply as a player": lambda s: s.apply(0, value),
        "action_label": lambda s: s.action_label(value),
        "rule_events_of": lambda s: s.rule_events_of(value),
        "observation": lambda s: s.observation(value),
        "observation_tensor": lambda s: s.observation_tensor(value),
    }
    for label, call in calls.items():
        seen = {}
        for backend in ("rust", "reference"):
            s = state(backend)
            with pytest.raises(IllegalActionError) as err:
                call(s)
            seen[backend] = str(err.value)
        assert seen["rust"] == seen["reference"], f"{label}: {seen}"
        assert "9223372036854775807" not in seen["rust"], seen  # no stand-in shows


def _replace_key(key: str, value: Any, backend: str) -> None:
    _replace_in_state(backend, key, value)


def _replace_in_state(backend: str, key: str, value: Any) -> None:
    game = cardtable.make("goofspiel", players=2, backend=backend)  # type: ignore[arg-type]
    data = game.new_state(seed=1).to_dict()
    data[key] = value
    game.state_from_dict(data)


def test_numpy_integers_are_accepted_everywhere(backend: str) -> None:
    game = cardtable.make("goofspiel", players=np.int64(2), backend=backend, num_cards=np.int8(5))  # type: ignore[arg-type]
    assert game.players == 2
    assert game.options["num_cards"] == 5
    state = game.new_state(seed=np.uint64(3))  # type: ignore[arg-type]
    state.apply(np.int16(state.legal_actions()[0]))  # type: ignore[arg-type]
    data = state.to_dict()
    data["history"] = [np.int64(a) for a in data["history"]]
    data["rng"] = np.uint64(data["rng"])
    assert game.state_from_dict(data).to_dict() == state.to_dict()
    data["history"] = tuple(data["history"])
    assert game.state_from_dict(data).to_dict() == state.to_dict()


class _Numpy1Bool:
    """A stand-in for NumPy 1.x's ``numpy.bool_``, whose ``__index__`` still works (with a
    warning): the check must not depend on the NumPy installed."""

    def __init__(self, value: bool) -> None:
        self.value = value

    def __index__(self) -> int:
        return int(self.value)

    def __repr__(self) -> str:
        return repr(self.value)


_Numpy1Bool.__name__ = _Numpy1Bool.__qualname__ = "bool_"
_Numpy1Bool.__module__ = "numpy"


@pytest.mark.parametrize("flag", [_Numpy1Bool(True), np.bool_(True)], ids=["numpy1", "numpy"])
def test_numpy_booleans_are_never_integers(backend: str, flag: Any) -> None:
    """docs/errors.md: integers are never a bool (nor ``numpy.bool_``), also where NumPy 1.x
    lets a ``numpy.bool_`` pass for 1 through ``__index__``."""
    with pytest.raises(InvalidOptionError, match="bool"):
        cardtable.make("goofspiel", players=2, backend=backend, num_cards=flag)  # type: ignore[arg-type]
    game = cardtable.make("goofspiel", players=2, backend=backend)  # type: ignore[arg-type]
    with pytest.raises(InvalidOptionError):
        game.new_state(seed=flag)
    with pytest.raises(InvalidOptionError):
        cardtable.bot(game, "random", seat=0, seed=flag)
    state = game.new_state(seed=1)
    before = state.to_dict()
    with pytest.raises(IllegalActionError):
        state.apply(flag)
    assert state.to_dict() == before


def test_a_numpy_bool_option_is_named_by_its_full_type() -> None:
    """A ``numpy.bool`` where a bool option is expected is refused (docs/errors.md) in words
    that do not read as if plain bools were refused, alike on both backends."""
    messages = set()
    for backend in ("rust", "reference"):
        with pytest.raises(InvalidOptionError) as refused:
            cardtable.make("trafficars", players=2, backend=backend, special_cards=np.bool_(False))
        messages.add(str(refused.value))
    (message,) = messages
    assert f"a value of type numpy.{type(np.bool_(False)).__name__} is not accepted" in message


def test_a_file_in_a_missing_folder_is_named_in_the_error(tmp_path: Any) -> None:
    """Files are written through a temporary file beside them; the error names the caller's
    path, not that temporary file."""
    state = cardtable.make("goofspiel", players=2).new_state(seed=1)
    missing = tmp_path / "no" / "such" / "game.html"
    with pytest.raises(FileNotFoundError) as failed:
        cardtable.replay(state).save(missing)
    assert failed.value.filename == str(missing)
    assert ".cardtable.tmp" not in str(failed.value)


def test_the_reference_names_resample_arguments_as_given() -> None:
    state = cardtable.make("goofspiel", players=2, backend="reference").new_state(seed=1)
    with pytest.raises(InvalidOptionError, match=r"resample\('0', 0\) is available on the Rust"):
        state.resample("0", 0)  # type: ignore[arg-type]


def test_an_array_where_a_name_is_expected_is_refused() -> None:
    """A NumPy array compared with a str would give an array whose truth value raises a bare
    ``ValueError``; names are checked as strs first."""
    names = np.array(["goofspiel", "rust"])
    with pytest.raises(InvalidOptionError, match="backend must be"):
        cardtable.make("goofspiel", backend=names)  # type: ignore[arg-type]
    with pytest.raises(InvalidOptionError, match="unknown game"):
        cardtable.make(names)  # type: ignore[arg-type]
    with pytest.raises(InvalidOptionError, match="backend must be"):
        cardtable.simulate("goofspiel", players=2, games=2, backend=names, progress=False)  # type: ignore[arg-type]
    numpy_name: Any = np.str_("reference")
    assert cardtable.make("goofspiel", backend=numpy_name).players == 2


def test_non_json_values_are_never_coerced(backend: str) -> None:
    game = cardtable.make("goofspiel", players=2, backend=backend)  # type: ignore[arg-type]
    data = game.new_state(seed=1).to_dict()
    for bad in (float("nan"), float("inf"), {1}, 1.0):
        with pytest.raises(InvalidStateError):
            game.state_from_dict({**data, "rng": bad})
    with pytest.raises(InvalidOptionError):
        cardtable.make("trafficars", players=3, backend=backend, max_cars=float("nan"))  # type: ignore[arg-type]
    with pytest.raises(InvalidOptionError):
        cardtable.make("turn_the_tide", players=4, backend=backend, rounds=float("inf"))  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("options", "message"),
    [
        ({"too_low": "\ud800"}, "trafficars: option too_low: not JSON-compatible: a str that"),
        ({"\ud800": 1}, "not JSON-compatible: a dict key that"),
    ],
)
def test_lone_surrogates_are_refused_alike(
    backend: str, options: dict[str, Any], message: str
) -> None:
    """A lone surrogate cannot be JSON: both backends refuse it with the same message, which
    itself holds none (so printing the error never fails; an option name that is not valid
    UTF-8 is not named)."""
    with pytest.raises(InvalidOptionError) as err:
        cardtable.make("trafficars", players=2, backend=backend, **options)  # type: ignore[arg-type]
    assert str(err.value) == f"{message} is not valid UTF-8"
    str(err.value).encode("utf-8")


def test_a_bot_asked_to_act_after_the_end_says_the_game_is_over() -> None:
    game = cardtable.make("goofspiel", players=2, num_cards=3)
    state = play_random(game.new_state(seed=1), seed=2)
    bot = cardtable.bot(game, "random", seat=0)
    with pytest.raises(IllegalActionError, match="the game is over"):
        bot.act(state)


# ----- messages: which option, and ranges written alike (`lo..=hi`) on both backends -----


@pytest.mark.parametrize(
    ("options", "message"),
    [
        ({"max_cars": float("nan")}, "max_cars: not JSON-compatible: NaN"),
        ({"lanes": float("inf")}, "lanes: not JSON-compatible: inf"),
        ({"lanes": 2, "too_low": [-float("inf")]}, "too_low: not JSON-compatible: -inf"),
        ({"hand_size": {"a": float("nan")}}, "hand_size: not JSON-compatible: NaN"),
    ],
)
def test_a_value_that_is_not_json_names_its_option(
    backend: str, options: dict[str, Any], message: str
) -> None:
    """NaN or an infinity (at any depth) is refused naming the game and the option, in the same
    words on both backends. The message said only ``not JSON-compatible: NaN is not a finite
    number`` (``nan`` in the reference), whichever option held it."""
    with pytest.raises(InvalidOptionError) as err:
        cardtable.make("trafficars", players=3, backend=backend, **options)  # type: ignore[arg-type]
    assert str(err.value) == f"trafficars: option {message} is not a finite number"


def test_a_value_that_is_not_json_is_refused_before_the_player_count_is_checked(
    backend: str,
) -> None:
    """In the engine's order, the same on both backends: the player count's type, a value that
    is not JSON, then the player count's range."""
    with pytest.raises(InvalidOptionError, match="players must be an int"):
        cardtable.make("goofspiel", players="2", backend=backend, num_cards=float("nan"))  # type: ignore[arg-type]
    with pytest.raises(InvalidOptionError) as err:
        cardtable.make("goofspiel", players=9, backend=backend, num_cards=float("nan"))  # type: ignore[arg-type]
    expected = "goofspiel: option num_cards: not JSON-compatible: NaN is not a finite number"
    assert str(err.value) == expected
    with pytest.raises(InvalidOptionError, match="unknown game"):
        cardtable.make("chess", players=2, backend=backend, num_cards=float("nan"))  # type: ignore[arg-type]


@pytest.mark.parametrize("rounds", [0, 4, 6])
def test_rounds_beyond_the_players_are_refused_in_the_same_words(backend: str, rounds: int) -> None:
    """Turn the Tide's ``rounds`` is at most the player count ("a game has as many rounds as
    players" by default, null): the engine's check against the player count left out the "or
    null" that its own range check and the reference both say (found by a deep run of the
    drawn option sets). Every refusal names the range for this player count: ``rounds=0`` was
    refused with ``1..=5``, the bound over every player count, and ``rounds=4`` with ``1..=3``."""
    with pytest.raises(InvalidOptionError) as err:
        cardtable.make("turn_the_tide", players=3, backend=backend, rounds=rounds)  # type: ignore[arg-type]
    expected = "turn_the_tide: option rounds must be an int in 1..=3 or null (None), got "
    assert str(err.value) == f"{expected}{rounds}"


def test_a_bad_player_count_is_named_before_rounds_counted_in_players(backend: str) -> None:
    """With a player count the game refuses, ``rounds`` keeps its bound over every count and the
    player count's own error follows (as before the bound counted in players)."""
    with pytest.raises(InvalidOptionError) as err:
        cardtable.make("turn_the_tide", players=2, backend=backend, rounds=3)  # type: ignore[arg-type]
    assert str(err.value) == "turn_the_tide: players must be in 3..=5, got 2"


@pytest.mark.parametrize("game_id", ["chess", 5, None])
def test_an_unknown_game_is_named_alike_by_both_backends(
    backend: cardtable.Backend, game_id: Any
) -> None:
    """The id as Python shows it, then the registered games in order (the engine wrote
    ``"chess"`` and its registration order, the reference ``'chess'`` and sorted ids)."""
    with pytest.raises(InvalidOptionError) as err:
        cardtable.make(game_id, players=2, backend=backend)
    known = ", ".join(sorted(g.id for g in cardtable.games()))
    assert str(err.value) == f"unknown game {game_id!r}; registered games: {known}"


def test_a_game_of_one_player_count_needs_no_player_count(backend: cardtable.Backend) -> None:
    assert cardtable.make("goofspiel", backend=backend, num_cards=3).players == 2
    with pytest.raises(InvalidOptionError, match=r"played by 2\.\.=5 players: give players="):
        cardtable.make("deep_regrets", backend=backend)
    with pytest.raises(InvalidOptionError, match="unknown game 'chess'"):
        cardtable.make("chess", backend=backend)


_MAX = 2**64 - 1


def test_integer_ranges_are_written_lo_to_hi_inclusive(backend: str) -> None:
    """Every range in a message is ``lo..=hi`` (as ``players must be in 2..=2``), 2**64 - 1
    written out, the same on both backends; they were ``0..2**64``, ``0..18446744073709551615``
    (inclusive), ``-2**63..2**64`` and ``0..{n}`` (exclusive) by turns."""
    game = cardtable.make("goofspiel", players=2, backend=backend)  # type: ignore[arg-type]
    state = game.new_state(seed=1)
    data = {**state.to_dict(), "rng": -1}
    cases: list[tuple[Any, str]] = [
        (lambda: game.new_state(seed=2**64), f"seed must be None or an int in 0..={_MAX}, got"),
        (lambda: game.state_from_dict(data), f"rng must be null or an int in 0..={_MAX}"),
        (lambda: state.apply(13), "action 13 is out of range 0..=12"),
        (lambda: state.observation(2), "seat 2 is out of range 0..=1"),
        (lambda: state.observation_tensor(-1), "seat -1 is out of range 0..=1"),
        (
            lambda: cardtable.make("goofspiel", players=2, backend=backend, num_cards=2**64),  # type: ignore[arg-type]
            f"is out of range {-(2**63)}..={_MAX}",
        ),
        (
            lambda: cardtable.make("goofspiel", players=2, backend=backend, num_cards=61),  # type: ignore[arg-type]
            "num_cards must be an int in 1..=60, got 61",
        ),
        (
            # An option that may be null says so (it said only "an int in 1..=50").
            lambda: cardtable.make("trafficars", players=3, backend=backend, max_cars="x"),  # type: ignore[arg-type]
            'max_cars must be an int in 1..=50 or null (None), got "x"',
        ),
    ]
    for call, message in cases:
        with pytest.raises(cardtable.CardtableError) as err:
            call()
        assert message in str(err.value)


def test_counts_and_seeds_of_the_package_are_written_lo_to_hi_inclusive() -> None:
    game = cardtable.make("goofspiel", players=2)
    cases: list[tuple[Any, str]] = [
        (lambda: cardtable.bot(game, "random", 0, seed=-1), f"seed must be an int in 0..={_MAX}"),
        (lambda: cardtable.derive_seed(2**64, 1), f"seed must be an int in 0..={_MAX}"),
        (
            lambda: cardtable.simulate("goofspiel", players=2, games=2, threads=0),
            "threads must be an int in 1..=1024, got 0",
        ),
        (
            lambda: cardtable.simulate("goofspiel", players=2, games=2**64),
            f"games must be an int in 0..={_MAX}",
        ),
        (
            lambda: cardtable.VectorEnv("goofspiel", 2, players=2, agent_seats=[2]),
            "agent seat 2 is out of range 0..=1",
        ),
    ]
    for call, message in cases:
        with pytest.raises(InvalidOptionError) as err:
            call()
        assert message in str(err.value)


class _Unprintable:
    """A value whose ``repr`` fails, as a caller's odd object may."""

    def __repr__(self) -> str:
        raise RuntimeError("no repr")


_HUGE = 10**5000
"""An int of more digits than Python turns into text (4,300 by default)."""


def _calls_with(value: Any, backend: cardtable.Backend) -> dict[str, Any]:
    """Every public call that reads an integer, each given ``value`` where it reads it."""
    from cardtable import render

    game = cardtable.make("goofspiel", players=2, backend=backend)
    state = game.new_state(seed=1)
    legal = state.legal_actions()[0]
    calls: dict[str, Any] = {
        "make(players=)": lambda: cardtable.make("goofspiel", players=value, backend=backend),
        "new_state(seed=)": lambda: game.new_state(seed=value),
        "apply()": lambda: state.apply(value),
        "apply(player=)": lambda: state.apply(legal, player=value),
        "action_label()": lambda: state.action_label(value),
        "rule_events_of()": lambda: state.rule_events_of(value),
        "observation()": lambda: state.observation(value),
        "observation_tensor()": lambda: state.observation_tensor(value),
        "bot(seat)": lambda: cardtable.bot(game, "random", value),
        "bot(seed=)": lambda: cardtable.bot(game, "random", 0, seed=value),
        "svg(seat=)": lambda: render.svg(state, seat=value),
        "replay()": lambda: render.replay([value], game),
        "search(seed=)": lambda: cardtable.search(game, [state], "random", seed=value),
    }
    if backend == "rust":
        calls |= {
            "resample(observer)": lambda: state.resample(value, 0),
            "resample(seed)": lambda: state.resample(0, value),
            "simulate(games=)": lambda: cardtable.simulate(
                "goofspiel", players=2, games=value, progress=False
            ),
            "simulate(seed=)": lambda: cardtable.simulate(
                "goofspiel", players=2, games=2, seed=value, progress=False
            ),
            "simulate(threads=)": lambda: cardtable.simulate(
                "goofspiel", players=2, games=2, threads=value, progress=False
            ),
            "simulate(first_game=)": lambda: cardtable.simulate(
                "goofspiel", players=2, games=2, first_game=value, progress=False
            ),
            "a policy's action": lambda: cardtable.simulate(
                "goofspiel",
                players=2,
                games=2,
                progress=False,
                bots=[lambda batch: [value] * len(batch.legal_actions), "random"],
            ),
            "derive_seed()": lambda: cardtable.derive_seed(value, 0),
            "VectorEnv(num_envs)": lambda: cardtable.VectorEnv("goofspiel", value, players=2),
            "VectorEnv(seed=)": lambda: cardtable.VectorEnv("goofspiel", 2, players=2, seed=value),
        }
    return calls


@pytest.mark.parametrize("value", [_HUGE, _Unprintable()], ids=["5001 digits", "failing repr"])
def test_a_value_that_cannot_be_printed_is_refused_in_the_packages_words(
    backend: cardtable.Backend, value: Any
) -> None:
    """An int of more than 4,300 digits (Python will not turn it into text) or an object whose
    ``repr`` fails: the refusal named the value with ``repr``, and Python's ValueError or the
    object's own error escaped instead of the package's."""
    game = cardtable.make("goofspiel", players=2, backend=backend)
    state = game.new_state(seed=1)
    before = state.to_dict()
    for name, call in _calls_with(value, backend).items():
        with pytest.raises(cardtable.CardtableError):
            call()
        assert state.to_dict() == before, name


def test_search_reads_the_bot_before_the_states(backend: cardtable.Backend) -> None:
    """An unknown bot and a state of another game: the engine refused the bot, the reference
    path the state (another error class for the same call)."""
    game = cardtable.make("goofspiel", players=2, backend=backend)
    other = cardtable.make("turn_the_tide", players=3, backend=backend).new_state(seed=1)
    with pytest.raises(InvalidOptionError, match="unknown bot"):
        cardtable.search(game, [other], "nope")


def test_a_restored_state_is_read_by_what_its_dict_stores() -> None:
    """What ``pickle`` calls to rebuild a state: the reference read a dict subclass through its
    own ``get`` (and str-subclass keys through their own ``==``), the engine by what it stores."""
    from cardtable import _core
    from cardtable.reference import _base

    class OwnGet(dict[str, Any]):
        def get(self, key: Any, default: Any = None) -> Any:
            return "x"

    class OwnEquality(str):
        def __eq__(self, other: object) -> bool:
            return False

        def __hash__(self) -> int:
            return 1

    data = cardtable.make("goofspiel", players=2).new_state(seed=1).to_dict()
    for restore in (_core._restore_state, _base._restore_state):
        assert restore(OwnGet(data)).to_dict() == data
        assert restore({OwnEquality(k): v for k, v in data.items()}).to_dict() == data
