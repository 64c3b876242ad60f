"""A PettingZoo AEC environment for every game (``pip install "cardtable[pettingzoo]"``).

Agents ``player_0`` … ``player_{n-1}`` are the seats. Observations are dicts
``{"observation": state.observation_tensor(seat), "action_mask": int8 mask}`` as in PettingZoo's
classic environments (the mask is all 0 for an agent that is not to move). Chance nodes resolve
inside with a seeded RNG: ``reset(seed=s)`` (``s`` an int in ``0..2**64 - 1``) plays the seeded game
of a generator seeded with ``s``, and the next unseeded ``reset()`` the generator's next game. The
first ``reset()`` of an environment without a seed seeds the generator from fresh entropy (as in
Gymnasium), so unseeded environments play different games.
Rewards are 0 until the end, then the ``"win"`` rewards of ``docs/learning.md`` (+1 for the only
winner, 0 for a shared win, -1 otherwise) for every agent at once. A seeded game that ends before
anyone decides is skipped (the next seed is used). Actions are ints (NumPy integers too; not bools,
floats or strings); ``None`` is the only action of an agent whose game is over.

Examples:
    >>> from cardtable.adapters.pettingzoo import env
    >>> aec = env("goofspiel", players=2)
    >>> aec.reset(seed=0)
    >>> for agent in aec.agent_iter():
    ...     obs, reward, terminated, truncated, info = aec.last()
    ...     action = None if terminated else int(obs["action_mask"].argmax())
    ...     aec.step(action)
"""

from __future__ import annotations

import secrets
from typing import Any

from cardtable._extras import require

require("pettingzoo", "pettingzoo", "cardtable.adapters.pettingzoo")

import numpy as np
import numpy.typing as npt
from gymnasium import spaces
from pettingzoo import AECEnv

import cardtable
from cardtable._inputs import as_int, is_choice, shown
from cardtable._rng import SplitMix64
from cardtable.adapters._common import check_seed, win_rewards
from cardtable.errors import IllegalActionError, InvalidOptionError, InvalidStateError
from cardtable.protocols import StateProtocol

__all__ = ["CardtableAECEnv", "env"]

Observation = dict[str, npt.NDArray[Any]]

_MAX_SKIPPED_GAMES = 1000


class CardtableAECEnv(AECEnv[str, Observation, int]):  # type: ignore[misc]
    """One game of ``game_id`` as a PettingZoo AEC environment (see the module doc)."""

    metadata: dict[str, Any] = {  # noqa: RUF012 (PettingZoo's API)
        "render_modes": ["ansi"],
        "name": "cardtable_v0",
        "is_parallelizable": False,
    }

    def __init__(
        self, game_id: str, *, players: int, render_mode: str | None = None, **options: Any
    ) -> None:
        """Creates the environment.

        Args:
            game_id: A registered game id.
            players: The number of players (= agents).
            render_mode: ``None`` or ``"ansi"`` (``render()`` returns the observation dicts).
            **options: The game's options.

        Raises:
            InvalidOptionError: On a bad game, player count, option or render mode.
        """
        super().__init__()
        if not is_choice(render_mode, None, "ansi"):
            raise InvalidOptionError(
                f"render_mode must be None or 'ansi', got {shown(render_mode)}"
            )
        self.render_mode = render_mode
        self.game = cardtable.make(game_id, players=players, **options)
        self.metadata = {**self.metadata, "name": f"cardtable_{game_id}_v0"}
        n = self.game.players
        self.possible_agents = [f"player_{seat}" for seat in range(n)]
        self.agents: list[str] = []
        self._seat = {agent: seat for seat, agent in enumerate(self.possible_agents)}
        shape = self.game.observation_shape
        actions = self.game.num_actions
        self.observation_spaces = {
            agent: spaces.Dict(
                {
                    "observation": spaces.Box(-np.inf, np.inf, shape, np.float32),
                    "action_mask": spaces.Box(0, 1, (actions,), np.int8),
                }
            )
            for agent in self.possible_agents
        }
        self.action_spaces = {agent: spaces.Discrete(actions) for agent in self.possible_agents}
        self._rng: SplitMix64 | None = None  # seeded by the first reset()
        self._state: StateProtocol = self.game.new_state(seed=0)
        self._started = False

    def _agent_seat(self, agent: object) -> int:
        """``agent``'s seat.

        Raises:
            InvalidOptionError: If ``agent`` is not one of ``possible_agents``.
        """
        seat = self._seat.get(agent) if isinstance(agent, str) else None
        if seat is None:
            raise InvalidOptionError(
                f"unknown agent {shown(agent)}; agents: {self.possible_agents}"
            )
        return seat

    def observation_space(self, agent: str) -> spaces.Space[Any]:
        """The observation space of ``agent``.

        Raises:
            InvalidOptionError: If ``agent`` is not one of ``possible_agents``.
        """
        self._agent_seat(agent)
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space[Any]:
        """The action space of ``agent``: ``Discrete(num_actions)``.

        Raises:
            InvalidOptionError: If ``agent`` is not one of ``possible_agents``.
        """
        self._agent_seat(agent)
        return self.action_spaces[agent]

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        """Starts a game: with ``seed`` the seeded sequence of games restarts from it.

        Without a seed the generator's next game is played; a generator never seeded is seeded
        from fresh entropy first.

        Raises:
            InvalidOptionError: If ``seed`` is not ``None`` or an int in ``0..2**64 - 1``.
        """
        number = check_seed(seed)
        if number is not None:
            self._rng = SplitMix64(number)
        elif self._rng is None:
            self._rng = SplitMix64(secrets.randbits(64))
        for _ in range(_MAX_SKIPPED_GAMES):
            self._state = self.game.new_state(seed=self._rng.next())
            if not self._state.is_terminal:
                break
        self.agents = list(self.possible_agents)
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos: dict[str, dict[str, Any]] = {agent: {} for agent in self.agents}
        self.agent_selection = self.possible_agents[self._state.current_player]
        self._started = True

    def _check_started(self) -> None:
        if not self._started:
            raise InvalidStateError("the environment has no game yet: call reset() first")

    def observe(self, agent: str) -> Observation:
        """``agent``'s observation tensor and its action mask (all 0 unless it is to move).

        Raises:
            InvalidStateError: Before the first ``reset()``.
            InvalidOptionError: If ``agent`` is not one of ``possible_agents``.
        """
        self._check_started()
        seat = self._agent_seat(agent)
        mask = np.zeros(self.game.num_actions, dtype=np.int8)
        if self._state.current_player == seat:
            mask[self._state.legal_actions()] = 1
        return {"observation": self._state.observation_tensor(seat), "action_mask": mask}

    def last(self, observe: bool = True) -> tuple[Any, float, bool, bool, dict[str, Any]]:
        """The selected agent's observation, cumulative reward, termination, truncation and info.

        The observation is None if not ``observe``.

        Raises:
            InvalidStateError: Before ``reset()``, or once every agent has left the game.
        """
        self._check_agents()
        result: tuple[Any, float, bool, bool, dict[str, Any]] = super().last(observe)
        return result

    def _check_agents(self) -> None:
        self._check_started()
        if not self.agents:
            raise InvalidStateError("the game is over and every agent has left: call reset()")

    def step(self, action: int | None) -> None:
        """Applies ``action`` for the agent to move (``None`` for an agent whose game is over).

        ``action`` is an int (NumPy integers too; not a bool, a float or a str).

        Raises:
            IllegalActionError: If the action is not an int or not legal, or is not ``None`` for
                an agent whose game is over.
            InvalidStateError: Before ``reset()``, or once every agent has left the game.
        """
        self._check_agents()
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            if action is not None:
                raise IllegalActionError(f"{agent}'s game is over: its only action is None")
            self._was_dead_step(action)
            return
        number = as_int(action)
        if number is None:
            raise IllegalActionError(
                f"{agent} is to move: an action is an int, got {shown(action)}"
            )
        self._state.apply(number)
        self._cumulative_rewards[agent] = 0.0
        if self._state.is_terminal:
            rewards = win_rewards(self._state, self.game.players)
            for a in self.agents:
                self.rewards[a] = rewards[self._seat[a]]
                self.terminations[a] = True
        else:
            self._clear_rewards()
            self.agent_selection = self.possible_agents[self._state.current_player]
        self._accumulate_rewards()

    def render(self) -> str | None:
        """With ``render_mode="ansi"``: every seat's observation dict, one line each.

        Raises:
            InvalidStateError: Before the first ``reset()`` (with ``render_mode="ansi"``).
        """
        if self.render_mode is None:
            return None
        self._check_started()
        return "\n".join(
            f"{agent}: {self._state.observation(seat)}" for agent, seat in self._seat.items()
        )

    def close(self) -> None:
        """Nothing to release."""


def env(
    game_id: str, *, players: int, render_mode: str | None = None, **options: Any
) -> CardtableAECEnv:
    """A PettingZoo AEC environment of ``game_id`` (see :class:`CardtableAECEnv`)."""
    return CardtableAECEnv(game_id, players=players, render_mode=render_mode, **options)
