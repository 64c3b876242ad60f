"""The machinery every reference game shares.

Legality checks, history, seeded chance and the canonical dict live here. The rules themselves
live in one module per game, which subclasses
:class:`ReferenceGame` and :class:`ReferenceState` and implements their ``_``-prefixed hooks.

This module owns what is the same for every game (the public state API over the hooks, options,
seeds, the canonical dict, registration by :func:`register`); it must hold no rule of any game and
import no game module (the package ``__init__`` loads them).
"""

from __future__ import annotations

import copy
import json
from abc import ABC, abstractmethod
from collections.abc import Callable, Mapping
from typing import Any, ClassVar, Generic, Literal, TypeVar

import numpy as np
import numpy.typing as npt

from cardtable._inputs import MAX_SEED, shown
from cardtable._rng import SplitMix64
from cardtable.errors import IllegalActionError, InvalidOptionError, InvalidStateError
from cardtable.reference._options import (
    OptionReader,
    OptionSpec,
    as_int,
    plain_json,
    plain_options,
)
from cardtable.reference._tensor import TensorBuilder

__all__ = ["CHANCE", "REGISTERED", "TERMINAL", "ReferenceGame", "ReferenceState", "register"]

CHANCE = -1
"""``current_player`` of a chance node."""
TERMINAL = -2
"""``current_player`` of a terminal state."""

StateT = TypeVar("StateT", bound="ReferenceState")


class ReferenceGame(ABC, Generic[StateT]):
    """A game with fixed options in the reference backend.

    Subclasses set the class attributes (``option_specs`` declares every option once: default and
    bounds), read their options in :meth:`_configure` and build the initial rules state in
    :meth:`_initial_state`.
    """

    game_id: ClassVar[str]
    min_players: ClassVar[int]
    max_players: ClassVar[int]
    option_specs: ClassVar[tuple[OptionSpec, ...]]
    rule_event_names: ClassVar[tuple[str, ...]] = ()
    """Every rule event of the game (see :meth:`rule_events`), in the contract's order."""

    def __init__(self, *, players: int, **options: object) -> None:
        """Validates ``players`` and the options.

        Raises:
            InvalidOptionError: On a bad player count or a bad or unknown option.
        """
        # In the engine's order: the player count's type, options that are not JSON, the player
        # count's range, the options' values, unknown options, then what the game checks of them
        # together.
        count = as_int(players)
        if count is None:
            raise InvalidOptionError(f"players must be an int, got {shown(players)}")
        if not -(2**63) <= count < 2**63:
            raise InvalidOptionError(f"players {shown(count)} is out of range")
        plain_options(self.game_id, options)
        if not self.min_players <= count <= self.max_players:
            raise InvalidOptionError(
                f"{self.game_id}: players must be in {self.min_players}..={self.max_players}, "
                f"got {count}"
            )
        self.players = count
        reader = OptionReader(self.game_id, options, self.option_specs, count)
        self._configure(reader)
        self._option_values = reader.finish()

    def __repr__(self) -> str:
        options = "".join(
            f", {name}={json.dumps(value, separators=(',', ':'))}"
            for name, value in sorted(self.options.items())
        )
        return f"<{self.game_id} game (reference): {self.players} players{options}>"

    @abstractmethod
    def _configure(self, options: OptionReader) -> None:
        """Reads and stores every option (defaults filled in)."""

    @property
    def options(self) -> dict[str, object]:
        """Every option with its effective value (read by ``_configure``), sorted by name.

        The engine's are sorted so, and both backends then write the same JSON (a replay's page).
        """
        return dict(sorted(self._option_values.items()))

    @property
    @abstractmethod
    def num_actions(self) -> int:
        """The size of the action space (ids ``0..num_actions-1``)."""

    @property
    @abstractmethod
    def observation_shape(self) -> tuple[int, ...]:
        """The shape of :meth:`ReferenceState.observation_tensor` (see the game's contract)."""

    @property
    @abstractmethod
    def max_game_length(self) -> int | None:
        """An upper bound of the steps (decisions and chance outcomes) of one game, or ``None``.

        Every game declares it from its rules (``None`` where they give no bound on a game's
        length); it is the OpenSpiel adapter's ``max_game_length``.
        """

    def rule_events(self, before: StateT, action: int, after: StateT) -> frozenset[str]:
        """The rule events that the step from ``before`` by ``action`` to ``after`` triggered.

        Found by comparing the two states; names from :attr:`rule_event_names`. Default: none.
        """
        return frozenset()

    @abstractmethod
    def _initial_state(self) -> StateT:
        """The state before the first chance node or decision."""

    def new_state(self, seed: int | None = None) -> StateT:
        """Starts a game; with ``seed`` every chance node resolves itself (seeded SplitMix64)."""
        number = None if seed is None else as_int(seed)
        if seed is not None and (number is None or not 0 <= number < 1 << 64):
            raise InvalidOptionError(
                f"seed must be None or an int in 0..={MAX_SEED}, got {shown(seed)}"
            )
        state = self._initial_state()
        if number is not None:
            state._rng = SplitMix64(number)
            state._resolve_chance()
        return state

    def state_from_dict(self, data: Mapping[str, Any]) -> StateT:
        """Rebuilds a state from :meth:`ReferenceState.to_dict` output.

        The history is replayed and the result must equal the given ``state``.

        Raises:
            InvalidStateError: If the dict is malformed, belongs to another game or configuration,
                or does not match its own history.
        """
        if not isinstance(data, dict):
            raise InvalidStateError("a state must be a dict")
        data = plain_json(data, InvalidStateError)  # type: ignore[assignment]
        assert isinstance(data, dict)
        keys = ("game", "players", "options", "history", "rng", "state")
        for key in keys:
            if key not in data:
                raise InvalidStateError(f"state dict lacks the key {shown(key)}")
        for key in data:
            if key not in keys:
                raise InvalidStateError(f"state dict has an unknown key {shown(key)}")
        if data["game"] != self.game_id:
            raise InvalidStateError(f"state is of game {shown(data['game'])}, not {self.game_id}")
        if not _json_equal(data["players"], self.players) or not _json_equal(
            data["options"], self.options
        ):
            raise InvalidStateError(
                f"state has players={shown(data['players'])} options={shown(data['options'])}, "
                f"but this game has players={self.players} options={self.options}"
            )
        history = data["history"]
        if not isinstance(history, list):
            raise InvalidStateError("history must be a list of ints")
        rng = data["rng"]
        if rng is not None and (
            not isinstance(rng, int) or isinstance(rng, bool) or not 0 <= rng < 1 << 64
        ):
            raise InvalidStateError(f"rng must be null or an int in 0..={MAX_SEED}")
        state = self._initial_state()
        for i, action in enumerate(history):
            if not isinstance(action, int) or isinstance(action, bool):
                raise InvalidStateError(f"history[{i}] = {shown(action)} is not an int")
            try:
                state.apply(action)
            except IllegalActionError as err:
                raise InvalidStateError(
                    f"history[{i}] = {action} cannot be replayed: {err}"
                ) from None
        if rng is not None:
            state._rng = SplitMix64(rng)
            if state.current_player == CHANCE:
                raise InvalidStateError("a seeded state cannot rest at a chance node")
        replayed = state._state_dict()
        if not _json_equal(replayed, data["state"]):
            raise InvalidStateError(
                f"state does not match its history; replaying the history gives {replayed}"
            )
        return state

    def __reduce__(self) -> tuple[Any, tuple[str, int, dict[str, object]]]:
        """Pickles as the game id, player count and options."""
        return (_make_game, (self.game_id, self.players, dict(self.options)))

    def __copy__(self) -> ReferenceGame[StateT]:
        """A game never changes: its copy is itself."""
        return self

    def __deepcopy__(self, memo: dict[int, object]) -> ReferenceGame[StateT]:
        """A game never changes: its copy is itself."""
        return self


_as_int = as_int


def _named(value: object) -> str:
    """How an error names ``value``: an integer of any type as its number (7 for ``np.int64(7)``).

    Anything else as :func:`~cardtable._inputs.shown` writes it.
    """
    number = _as_int(value)
    return shown(value if number is None else number)


def _restore_state(data: dict[str, Any]) -> ReferenceState:
    """Rebuilds a reference state from its canonical dict alone (what ``pickle`` calls)."""
    from cardtable import reference

    # Read by what the dict stores, as the engine reads it (a subclass's own methods are ignored).
    plain = plain_json(data, InvalidStateError)
    options = plain.get("options") if isinstance(plain, dict) else None
    if not isinstance(plain, dict) or not isinstance(options, dict):
        raise InvalidStateError("a state must be a dict with an options dict of str keys")
    try:
        game = reference.make(plain.get("game"), players=plain.get("players"), **options)  # type: ignore[arg-type]
    except InvalidOptionError as err:
        raise InvalidStateError(str(err)) from None
    state: ReferenceState = game.state_from_dict(plain)
    return state


def _make_game(game_id: str, players: int, options: dict[str, Any]) -> ReferenceGame[Any]:
    """Rebuilds a reference game from its id, player count and options (what ``pickle`` calls)."""
    from cardtable import reference

    return reference.make(game_id, players=players, **options)


def _json_equal(a: object, b: object) -> bool:
    """Equality as JSON sees it: ``True`` differs from ``1``, tuples equal lists."""
    if isinstance(a, bool) or isinstance(b, bool):
        return isinstance(a, bool) and isinstance(b, bool) and a == b
    if isinstance(a, (list, tuple)) and isinstance(b, (list, tuple)):
        return len(a) == len(b) and all(_json_equal(x, y) for x, y in zip(a, b, strict=True))
    if isinstance(a, Mapping) and isinstance(b, Mapping):
        return a.keys() == b.keys() and all(_json_equal(a[k], b[k]) for k in a)
    return type(a) is type(b) and a == b


GameT = TypeVar("GameT", bound=type[ReferenceGame[Any]])

REGISTERED: dict[str, type[ReferenceGame[Any]]] = {}
"""Every reference game class by game id, filled by :func:`register` as the modules load."""


def register(game_id: str, *, players: tuple[int, int]) -> Callable[[GameT], GameT]:
    """Class decorator: the one registration of a reference game.

    Args:
        game_id: The game's id (the same as the Rust engine's).
        players: The smallest and the largest player count.

    Returns:
        The decorator, which sets ``game_id``, ``min_players`` and ``max_players`` on the class
        and files it under ``game_id``.
    """

    def decorate(cls: GameT) -> GameT:
        if game_id in REGISTERED:
            raise ValueError(f"reference game {shown(game_id)} is registered twice")
        cls.game_id = game_id
        cls.min_players, cls.max_players = players
        REGISTERED[game_id] = cls
        return cls

    return decorate


class ReferenceState(ABC):
    """One game in progress in the reference backend.

    The public methods check every request and keep the history; subclasses implement the rules in
    the ``_``-prefixed hooks and may assume that ``_apply`` only receives a legal action or outcome.
    """

    score_wins: ClassVar[Literal["highest", "lowest"] | None] = None
    """Which score wins where the rules say "the highest (lowest) score wins, ties share"."""
    tensor_phases: ClassVar[tuple[str, ...]] = ()
    """The phases in the order of the tensor's ``phase`` segment (see ``_observation_tensor``)."""

    def __init__(self, game: ReferenceGame[Any]) -> None:
        """Creates the generic part of a state of ``game``."""
        self._game = game
        self._history: list[int] = []
        self._rng: SplitMix64 | None = None

    # ----- rule hooks -----
    @abstractmethod
    def _current_player(self) -> int:
        """A seat, :data:`CHANCE` or :data:`TERMINAL`."""

    @abstractmethod
    def _legal_actions(self) -> list[int]:
        """Sorted legal actions of the player to move (chance outcomes at a chance node)."""

    @abstractmethod
    def _chance_outcomes(self) -> list[tuple[int, int]]:
        """``(outcome, positive integer weight)`` pairs in increasing order at a chance node."""

    @abstractmethod
    def _apply(self, action: int) -> None:
        """Applies a legal action or chance outcome."""

    @abstractmethod
    def _action_label(self, action: int) -> str:
        """A readable label of any action id in range."""

    @abstractmethod
    def _scores(self) -> list[int]:
        """Running points per seat."""

    def _winners(self) -> list[int]:
        """Winning seats of a terminal state: by default the seats with the best score.

        A game whose rules say "the highest (or lowest) score wins, ties share" declares
        :attr:`score_wins`; a game with another rule overrides this hook.
        """
        if self.score_wins is None:
            raise NotImplementedError(f"{type(self).__name__} declares no winning rule")
        scores = self._scores()
        best = max(scores) if self.score_wins == "highest" else min(scores)
        return [seat for seat, score in enumerate(scores) if score == best]

    @abstractmethod
    def _observation(self, player: int) -> Mapping[str, Any]:
        """Exactly what ``player`` may know."""

    def _observation_tensor(self, player: int) -> list[float]:
        """``player``'s observation encoded in the contract's "Observation tensor" layout.

        This default serves the layouts that open with the seat and the phase (one-hot, the phases
        in :attr:`tensor_phases` order): it encodes those two and :meth:`_encode_tensor` the rest.
        A game with another layout overrides this hook instead.
        """
        obs = self._observation(player)
        t = TensorBuilder()
        t.one_hot(obs["seat"], self._game.players)
        t.one_hot(self.tensor_phases.index(obs["phase"]), len(self.tensor_phases))
        self._encode_tensor(t, obs)
        return t.values

    def _encode_tensor(self, t: TensorBuilder, obs: Mapping[str, Any]) -> None:
        """Appends the segments after the seat and the phase (see :meth:`_observation_tensor`)."""
        raise NotImplementedError(f"{type(self).__name__} encodes no observation tensor")

    @abstractmethod
    def _state_dict(self) -> dict[str, Any]:
        """The canonical game state (the ``state`` part of :meth:`to_dict`)."""

    # ----- public API -----
    @property
    def current_player(self) -> int:
        """The seat to move, ``CHANCE`` (-1) or ``TERMINAL`` (-2)."""
        return self._current_player()

    @property
    def is_chance_node(self) -> bool:
        """Whether a chance outcome is due."""
        return self._current_player() == CHANCE

    @property
    def is_terminal(self) -> bool:
        """Whether the game is over."""
        return self._current_player() == TERMINAL

    def legal_actions(self) -> list[int]:
        """The sorted legal actions, or the chance outcomes at a chance node."""
        if self.is_terminal:
            return []
        return list(self._legal_actions())

    def chance_outcomes(self) -> list[tuple[int, float]]:
        """``(outcome, probability)`` pairs at a chance node, else ``[]``."""
        if not self.is_chance_node:
            return []
        weighted = self._chance_outcomes()
        total = sum(w for _, w in weighted)
        return [(o, w / total) for o, w in weighted]

    def _check_range(self, action: object) -> int:
        a = _as_int(action)
        if a is None:
            raise IllegalActionError(f"action must be an int, got {shown(action)}")
        if not 0 <= a < self._game.num_actions:
            raise IllegalActionError(
                f"action {shown(a)} is out of range 0..={self._game.num_actions - 1}"
            )
        return a

    def apply(self, action: int, player: int | None = None) -> None:
        """Applies an action or chance outcome.

        Args:
            action: A legal action of the player to move, or a chance outcome at a chance node.
            player: If given, the seat that means to act; it must be the seat to move.

        Raises:
            IllegalActionError: If the action is not legal here; the state is then unchanged.
        """
        current = self._current_player()
        if current == TERMINAL:
            raise IllegalActionError(f"the game is over; action {_named(action)} cannot be applied")
        if player is not None and _as_int(player) != current:
            whose = "a chance node" if current == CHANCE else f"seat {current}'s turn"
            raise IllegalActionError(f"it is {whose}, not seat {_named(player)}'s")
        a = self._check_range(action)
        legal = self._legal_actions()
        if a not in legal:
            label = self._action_label(a)
            if current == CHANCE:
                msg = f"{a} ({label}) is not a possible chance outcome here; outcomes: {legal}"
            else:
                msg = f"action {a} ({label}) is not legal for seat {current}; legal: {legal}"
            raise IllegalActionError(msg)
        self._apply(a)
        self._history.append(a)
        self._resolve_chance()

    def _resolve_chance(self) -> None:
        rng = self._rng
        if rng is None:
            return
        while self._current_player() == CHANCE:
            outcome = rng.pick_weighted(self._chance_outcomes())
            self._apply(outcome)
            self._history.append(outcome)

    def action_label(self, action: int) -> str:
        """A readable label of an action id, e.g. ``"play 37"``."""
        return self._action_label(self._check_range(action))

    def rule_events_of(self, action: int) -> list[str]:
        """The rule events applying ``action`` would trigger.

        In the order of :attr:`rule_event_names`; this state is unchanged and only this one step
        counts (no chance node resolved after it).

        Raises:
            IllegalActionError: As :meth:`apply`.
        """
        # A copy without the history (the events never read it): cheaper than clone().
        after: ReferenceState = object.__new__(type(self))
        memo: dict[int, object] = {id(self._game): self._game, id(self._history): []}
        after.__dict__.update(copy.deepcopy(self.__dict__, memo))
        after._rng = None
        after.apply(action)
        events = self._game.rule_events(self, self._check_range(action), after)
        return [name for name in self._game.rule_event_names if name in events]

    @property
    def rule_event_names(self) -> list[str]:
        """Every rule event name of the game, in the contract's order."""
        return list(self._game.rule_event_names)

    @property
    def scores(self) -> list[int]:
        """Running points per seat in the game's own scoring."""
        return list(self._scores())

    @property
    def winners(self) -> list[int]:
        """The seats that won (empty before the game is over)."""
        return list(self._winners()) if self.is_terminal else []

    def _check_seat(self, player: object) -> int:
        """``player`` as a seat of the game (an integer of any type, named as the number it is).

        Raises:
            IllegalActionError: If it is not one.
        """
        seat = _as_int(player)
        if seat is None or not 0 <= seat < self._game.players:
            raise IllegalActionError(
                f"seat {_named(player)} is out of range 0..={self._game.players - 1}"
            )
        return seat

    def observation(self, player: int) -> Mapping[str, Any]:
        """Exactly what seat ``player`` may know, as a JSON-compatible dict."""
        return self._observation(self._check_seat(player))

    def observation_tensor(self, player: int) -> npt.NDArray[np.float32]:
        """Exactly what seat ``player`` may know, as a float32 array of ``observation_shape``.

        Raises:
            IllegalActionError: If ``player`` is not a seat.
        """
        values = self._observation_tensor(self._check_seat(player))
        return np.asarray(values, dtype=np.float32).reshape(self._game.observation_shape)

    def legal_action_mask(self) -> npt.NDArray[np.bool_]:
        """A bool array of length ``num_actions``, ``True`` exactly at :meth:`legal_actions`."""
        mask = np.zeros(self._game.num_actions, dtype=np.bool_)
        mask[self.legal_actions()] = True
        return mask

    def to_dict(self) -> dict[str, Any]:
        """The canonical full state, identical across backends."""
        return {
            "game": self._game.game_id,
            "players": self._game.players,
            "options": dict(self._game.options),
            "history": list(self._history),
            "rng": None if self._rng is None else self._rng.state,
            "state": self._state_dict(),
        }

    def clone(self: StateT) -> StateT:
        """An independent copy that shares only the (immutable) game with this state.

        The source is only read, so any number of threads may clone one state at once.
        """
        twin: StateT = object.__new__(type(self))
        memo: dict[int, object] = {id(self._game): self._game}
        twin.__dict__.update(copy.deepcopy(self.__dict__, memo))
        return twin

    def resample(self: StateT, observer: int, seed: int) -> StateT:
        """A full state sampled from what seat ``observer`` can know (Rust backend only).

        Raises:
            InvalidOptionError: Always: determinizations are drawn by the Rust engine only; make
                the game with ``backend="rust"`` (or rebuild the state there with
                ``cardtable.make(...).state_from_dict(state.to_dict())``).
        """
        raise InvalidOptionError(
            f"{self._game.game_id}: resample({shown(observer)}, {shown(seed)}) is available on "
            "the Rust backend only; make the game with backend='rust'"
        )

    def __copy__(self: StateT) -> StateT:
        """An independent copy (as :meth:`clone`): a state shares nothing with its copy."""
        return self.clone()

    def __deepcopy__(self: StateT, memo: dict[int, object]) -> StateT:
        """An independent copy (as :meth:`clone`)."""
        return self.clone()

    def __reduce__(self) -> tuple[Any, tuple[dict[str, Any]]]:
        """Pickles through the canonical dict: restored by replaying its history and checked."""
        return (_restore_state, (self.to_dict(),))

    @property
    def history(self) -> list[int]:
        """Every applied action and chance outcome, in order."""
        return list(self._history)

    def _repr_svg_(self) -> str:
        """The full view as an SVG picture (shown by Jupyter; see ``cardtable.render``)."""
        from cardtable.render import svg

        return svg(self)

    def __repr__(self) -> str:
        steps = len(self._history)
        after = f"after {steps} step{'' if steps == 1 else 's'}"
        prefix = f"<{self._game.game_id} state (reference):"
        if self.is_terminal:
            return f"{prefix} terminal {after}, scores {self.scores}, winners {self.winners}>"
        if self.current_player == CHANCE:
            return f"{prefix} chance node {after}>"
        return f"{prefix} seat {self.current_player} to move {after}>"
