"""OpenSpiel games for every game (``pip install "cardtable[openspiel]"``).

``load_game(game_id, players=..., **options)`` returns a ``pyspiel.Game`` backed by the Rust
engine, registered with ``pyspiel`` under ``cardtable_<game_id>`` (``register(game_id)`` registers
without loading, after which ``pyspiel.load_game("cardtable_<game_id>", {...})`` works too).
OpenSpiel's algorithms (random simulation tests, MCTS, …) run on it:

- sequential, imperfect information, explicit chance nodes (``chance_outcomes()`` are ours);
- actions and chance outcomes are our ids, labels our ``action_label``;
- observations: the tensor is ``observation_tensor(p)``, the string the observation dict as JSON
  (no information-state tensor or string);
- returns are the ``"win"`` rewards of ``docs/learning.md``: +1 for the only winner, 0 for a shared
  win, -1 otherwise (general-sum);
- game parameters are ``players`` and the game's options; OpenSpiel parameters cannot be ``None``,
  so an option of type ``int | None`` takes -1 for ``None`` (e.g. ``max_cars=-1``: no limit,
  ``rounds=-1``: one round per player);
- bad parameters: ``load_game`` checks them with cardtable's rules first and raises
  ``InvalidOptionError``; ``pyspiel.load_game`` checks names and types against the registered
  parameters itself, before the game is built, and raises ``pyspiel.SpielError`` (e.g.
  ``Unknown parameter 'cards'``); anything else it lets through raises ``InvalidOptionError``;
- NumPy integers are ints (``num_cards=np.int64(5)``); ``load_game`` passes plain ints on;
- games pickle as their game id and parameters and states as their game and history, so that
  they unpickle in a process that has not registered the game yet;
- ``max_game_length`` is the bound of a game's steps that each game declares from its rules (the
  reference game's ``max_game_length``), or 100,000 for a game whose length has no bound (Deep
  Regrets).

Examples:
    MCTS on a small goofspiel:

    ```python
    from open_spiel.python.algorithms import mcts
    import numpy as np
    from cardtable.adapters.openspiel import load_game

    game = load_game("goofspiel", players=2, num_cards=4)
    bot = mcts.MCTSBot(game, 2.0, 20, mcts.RandomRolloutEvaluator(1, np.random.RandomState(0)))
    state = game.new_initial_state()
    while state.is_chance_node():
        state.apply_action(state.chance_outcomes()[0][0])
    action = bot.step(state)
    ```
"""

from __future__ import annotations

import json
from typing import Any

from cardtable._extras import require

require("pyspiel", "openspiel", "cardtable.adapters.openspiel")

import numpy as np
import numpy.typing as npt
import pyspiel

import cardtable
from cardtable import reference
from cardtable._api import game_info as _info
from cardtable._inputs import as_int
from cardtable.adapters._common import win_rewards
from cardtable.errors import InvalidOptionError
from cardtable.protocols import GameProtocol, StateProtocol

__all__ = ["CardtableGame", "CardtableObserver", "CardtableState", "load_game", "register"]

NONE_PARAMETER = -1
"""The OpenSpiel parameter value that stands for ``None`` in an ``int | None`` option."""
UNBOUNDED_LENGTH = 100_000
"""``max_game_length`` of games whose length has no bound."""

_REGISTERED: dict[str, type[CardtableGame]] = {}


def _max_game_length(game: GameProtocol) -> int:
    """The game's bound of its steps (decisions and chance outcomes).

    Every reference game declares it from its rules (``max_game_length``); where the rules give
    none, :data:`UNBOUNDED_LENGTH`.
    """
    bound = reference.make(game.game_id, players=game.players, **game.options).max_game_length
    return UNBOUNDED_LENGTH if bound is None else bound


def _is_none_parameter(value: Any) -> bool:
    """Whether ``value`` is the OpenSpiel stand-in for ``None`` (-1, an int but not a bool)."""
    return as_int(value) == NONE_PARAMETER


def _split_parameters(
    info: cardtable.GameInfo, params: dict[str, Any]
) -> tuple[int, dict[str, Any]]:
    """The player count and the cardtable options of OpenSpiel parameters.

    An ``int | None`` option given as -1 becomes ``None``.
    """
    kinds = {o.name: o.type for o in info.options}
    players = params.get("players", info.min_players)
    options: dict[str, Any] = {}
    for key, value in params.items():
        if key == "players":
            continue
        none = kinds.get(key) == "int | None" and _is_none_parameter(value)
        options[key] = None if none else value
    return players, options


def register(game_id: str) -> str:
    """Registers ``game_id`` with ``pyspiel`` (once); returns its OpenSpiel name.

    Raises:
        InvalidOptionError: If ``game_id`` is not a registered game.
    """
    name = f"cardtable_{game_id}"
    if name in _REGISTERED:
        return name
    info = _info(game_id)
    spec: dict[str, Any] = {"players": info.min_players}
    for option in info.options:
        spec[option.name] = NONE_PARAMETER if option.default is None else option.default
    game_type = pyspiel.GameType(
        short_name=name,
        long_name=f"cardtable {game_id}",
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
        information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
        utility=pyspiel.GameType.Utility.GENERAL_SUM,
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=info.max_players,
        min_num_players=info.min_players,
        provides_information_state_string=False,
        provides_information_state_tensor=False,
        provides_observation_string=True,
        provides_observation_tensor=True,
        parameter_specification=spec,
    )

    # A class per game (not a closure): pyspiel keeps the factory until the process exits, and a
    # class, unlike a closure, is still alive then (releasing a closure there aborts Python).
    factory = type(
        f"CardtableGame_{game_id}",
        (CardtableGame,),
        {"game_id": game_id, "game_type": game_type},
    )
    pyspiel.register_game(game_type, factory)
    _REGISTERED[name] = factory
    return name


def load_game(game_id: str, *, players: int, **options: Any) -> CardtableGame:
    """Registers ``game_id`` if needed and loads it with ``players`` and ``options``.

    ``None`` option values are passed as -1 (see the module doc). The parameters are checked by
    cardtable before OpenSpiel sees them, so every bad one raises ``InvalidOptionError`` with
    cardtable's message (OpenSpiel checks names and types itself, before the game is built, and
    would raise its own ``pyspiel.SpielError``). ``backend`` is not an option: the games run on
    the Rust engine.

    Raises:
        InvalidOptionError: On an unknown game, a bad player count or a bad option (unknown,
            ``backend``, of the wrong type or out of range).
    """
    name = register(game_id)
    if "backend" in options:  # cardtable.make's argument, not a game option (nor a parameter)
        raise InvalidOptionError(
            f"{game_id}: unknown option 'backend': OpenSpiel games run on the Rust engine"
        )
    count, given = _split_parameters(_info(game_id), {"players": players, **options})
    checked = cardtable.make(game_id, players=count, **given)
    params: dict[str, Any] = {"players": checked.players}
    for key, value in given.items():  # checked: an int-like value is an integer (not a bool)
        number = as_int(value)  # a plain int for pyspiel, which refuses NumPy integers
        params[key] = NONE_PARAMETER if value is None else value if number is None else number
    game: CardtableGame = pyspiel.load_game(name, params)
    return game


def _unpickle_game(game_id: str, params: dict[str, Any]) -> CardtableGame:
    """The game of :meth:`CardtableGame.__reduce__`: registers ``game_id`` and loads it."""
    game: CardtableGame = pyspiel.load_game(register(game_id), params)
    return game


def _unpickle_state(game: CardtableGame, history: list[int]) -> CardtableState:
    """The state of :meth:`CardtableState.__reduce__`: ``history`` replayed from the start."""
    state = game.new_initial_state()
    for action in history:
        state.apply_action(action)
    return state


class CardtableGame(pyspiel.Game):  # type: ignore[misc]
    """A game of the Rust engine as a ``pyspiel.Game`` (one subclass per game id: ``register``)."""

    game_id: str
    game_type: pyspiel.GameType

    def __init__(self, params: dict[str, Any] | None = None) -> None:
        """Builds the game from OpenSpiel parameters (``players`` and the game's options)."""
        params = dict(params or {})
        game_id = self.game_id
        players, options = _split_parameters(_info(game_id), params)
        self.rust_game: GameProtocol = cardtable.make(game_id, players=players, **options)
        game_info = pyspiel.GameInfo(
            num_distinct_actions=self.rust_game.num_actions,
            max_chance_outcomes=self.rust_game.num_actions,
            num_players=self.rust_game.players,
            min_utility=-1.0,
            max_utility=1.0,
            utility_sum=None,
            max_game_length=_max_game_length(self.rust_game),
        )
        super().__init__(self.game_type, game_info, params)

    def __reduce__(self) -> tuple[Any, ...]:
        """Pickles as the game id and the parameters (the class is made by ``register``)."""
        return _unpickle_game, (self.game_id, dict(self.get_parameters()))

    def new_initial_state(self) -> CardtableState:
        """The state before the first chance node (chance nodes are explicit)."""
        return CardtableState(self, self.rust_game.new_state())

    def make_py_observer(
        self, iig_obs_type: pyspiel.IIGObservationType | None = None, params: Any = None
    ) -> CardtableObserver:
        """The observer of our observation tensors (no information-state observer).

        Raises:
            InvalidOptionError: For an information-state (perfect recall) observer, which
                ``state.information_state_string`` and ``information_state_tensor`` ask for, or
                observation parameters. A ``ValueError``, as OpenSpiel's own Python games raise
                for an observer they do not provide.
        """
        if iig_obs_type is not None and iig_obs_type.perfect_recall:
            raise InvalidOptionError(
                f"{self.game_id}: cardtable games provide observations, not information states "
                "(use observation_string and observation_tensor)"
            )
        if params:
            raise InvalidOptionError(f"observation parameters are not supported, got {params}")
        return CardtableObserver(self.rust_game.observation_shape)


class CardtableState(pyspiel.State):  # type: ignore[misc]
    """A state of the Rust engine as a ``pyspiel.State``."""

    def __init__(self, game: CardtableGame, state: StateProtocol) -> None:
        """Wraps ``state`` (a state with explicit chance nodes)."""
        super().__init__(game)
        self.rust_state = state
        self._players: int = game.rust_game.players

    def __reduce__(self) -> tuple[Any, ...]:
        """Pickles as the game and the history (so that another process registers the game)."""
        return _unpickle_state, (self.get_game(), list(self.history()))

    def current_player(self) -> int:
        """The seat to move, ``pyspiel.PlayerId.CHANCE`` or ``TERMINAL``."""
        player = self.rust_state.current_player
        if player == cardtable.TERMINAL:
            return int(pyspiel.PlayerId.TERMINAL)
        if player == cardtable.CHANCE:
            return int(pyspiel.PlayerId.CHANCE)
        return player

    def _legal_actions(self, player: int) -> list[int]:
        return self.rust_state.legal_actions() if player == self.current_player() else []

    def chance_outcomes(self) -> list[tuple[int, float]]:
        """``(outcome, probability)`` pairs at a chance node."""
        return self.rust_state.chance_outcomes()

    def _apply_action(self, action: int) -> None:
        self.rust_state.apply(int(action))

    def _action_to_string(self, player: int, action: int) -> str:
        return self.rust_state.action_label(int(action))

    def is_terminal(self) -> bool:
        """Whether the game is over."""
        return self.rust_state.is_terminal

    def returns(self) -> list[float]:
        """+1 for the only winner, 0 for a shared win, -1 otherwise (0 before the end)."""
        return win_rewards(self.rust_state, self._players)

    def __str__(self) -> str:
        return json.dumps(self.rust_state.to_dict()["state"], sort_keys=True)


class CardtableObserver:
    """OpenSpiel's observer interface over ``observation_tensor`` and ``observation``."""

    def __init__(self, shape: tuple[int, ...]) -> None:
        """An observer of tensors of ``shape``."""
        self.tensor: npt.NDArray[np.float32] = np.zeros(shape, np.float32)
        self.dict = {"observation": self.tensor}

    def set_from(self, state: CardtableState, player: int) -> None:
        """Writes ``player``'s observation tensor of ``state`` into ``tensor``."""
        self.tensor[...] = state.rust_state.observation_tensor(player)

    def string_from(self, state: CardtableState, player: int) -> str:
        """``player``'s observation dict of ``state`` as JSON."""
        return json.dumps(state.rust_state.observation(player), sort_keys=True)
