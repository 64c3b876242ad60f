"""A PettingZoo AEC environment for every game (``pip install "cardtable[pettingzoo]"``).

Agents ``player_0`` … ``player_{n-1}`` are the seats. Observations are dicts
``{"observation": state.observation_tensor(seat), "action_mask": int8 mask}`` as in PettingZoo's
classic environments (the mask is all 0 for an agent that is not to move). Chance nodes resolve
inside with a seeded RNG: ``reset(seed=s)`` plays the seeded game of a generator seeded with ``s``.
Rewards are 0 until the end, then the ``"win"`` rewards of ``docs/learning.md`` (+1 for the only
winner, 0 for a shared win, -1 otherwise) for every agent at once. A seeded game that ends before
anyone decides is skipped (the next seed is used).

Example:
    >>> from cardtable.adapters.pettingzoo import env
    >>> aec = env("goofspiel", players=2)
    >>> aec.reset(seed=0)
    >>> for agent in aec.agent_iter():
    ...     obs, reward, terminated, truncated, info = aec.last()
    ...     action = None if terminated else int(obs["action_mask"].argmax())
    ...     aec.step(action)
"""

from __future__ import annotations

from typing import Any

import numpy as np
import numpy.typing as npt
from gymnasium import spaces
from pettingzoo import AECEnv

import cardtable
from cardtable._rng import SplitMix64
from cardtable.adapters._common import win_rewards
from cardtable.errors import InvalidOptionError
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
        if render_mode not in (None, "ansi"):
            raise InvalidOptionError(f"render_mode must be None or 'ansi', got {render_mode!r}")
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
        self._rng = SplitMix64(0)
        self._state: StateProtocol = self.game.new_state(seed=0)

    def observation_space(self, agent: str) -> spaces.Space[Any]:
        """The observation space of ``agent``."""
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space[Any]:
        """The action space of ``agent``: ``Discrete(num_actions)``."""
        return self.action_spaces[agent]

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        """Starts a game: with ``seed`` the seeded sequence of games restarts from it."""
        if seed is not None:
            self._rng = SplitMix64(seed % (1 << 64))
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

    def observe(self, agent: str) -> Observation:
        """``agent``'s observation tensor and its action mask (all 0 unless it is to move)."""
        seat = self._seat[agent]
        mask = np.zeros(self.game.num_actions, dtype=np.int8)
        if self._state.current_player == seat:
            mask[self._state.legal_actions()] = 1
        return {"observation": self._state.observation_tensor(seat), "action_mask": mask}

    def step(self, action: int | None) -> None:
        """Applies ``action`` for the agent to move (``None`` for an agent whose game is over).

        Raises:
            IllegalActionError: If the action is not legal.
        """
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        if action is None:
            raise cardtable.IllegalActionError(f"{agent} is to move; None is not an action")
        self._state.apply(int(action))
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
        """With ``render_mode="ansi"``: every seat's observation dict, one line each."""
        if self.render_mode is None:
            return None
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
