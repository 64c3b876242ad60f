"""A Gymnasium environment: one seat against built-in bots (extra ``cardtable[gymnasium]``).

A :class:`cardtable.VectorEnv` of one game underneath: chance and the opponents play inside Rust.
The observation is ``state.observation_tensor(seat)``; ``info["action_mask"]`` (and
``action_masks()``) marks the legal actions (Gymnasium's ``Discrete`` space does not know them).
Rewards are 0 until the end, then as ``reward`` says (``docs/learning.md``); the step that ends
the game gives its final scores in ``info["scores"]``. ``reset(seed=s)`` seeds Gymnasium's
generator, which draws the seed of the game.

:class:`CardtableVectorEnv` (made by :func:`make_vec_env`) is a ``gymnasium.vector.VectorEnv``
that forwards to a :class:`cardtable.VectorEnv` of many games, so that Gymnasium's vector wrappers
(``RecordEpisodeStatistics``, ``NormalizeObservation``, ...) accept it.

Importing this module registers every game with Gymnasium as ``cardtable/<game_id>-v0`` (the
player count defaults to the game's smallest; the other arguments of :func:`make_env` are keyword
arguments of ``gymnasium.make``), with :class:`CardtableVectorEnv` as its vector entry point (the
arguments of :func:`make_vec_env` are keyword arguments of ``gymnasium.make_vec``).
``gymnasium.make("cardtable.adapters.gymnasium:cardtable/...")`` imports it on the way.

Examples:
    >>> import numpy as np
    >>> import gymnasium
    >>> import cardtable.adapters.gymnasium
    >>> env = gymnasium.make("cardtable/turn_the_tide-v0", players=4, opponents="greedy")
    >>> obs, info = env.reset(seed=0)
    >>> done = False
    >>> while not done:
    ...     action = int(np.flatnonzero(info["action_mask"])[0])
    ...     obs, reward, terminated, truncated, info = env.step(action)
    ...     done = terminated or truncated
    >>> envs = gymnasium.make_vec("cardtable/goofspiel-v0", num_envs=4, num_cards=4)
    >>> envs = gymnasium.wrappers.vector.RecordEpisodeStatistics(envs)
    >>> obs, info = envs.reset(seed=0)
    >>> obs.shape
    (4, 75)
"""

from __future__ import annotations

import inspect
import secrets
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any, Literal, SupportsFloat

from cardtable._extras import require

require("gymnasium", "gymnasium", "cardtable.adapters.gymnasium")

import gymnasium
import numpy as np
import numpy.typing as npt

from cardtable import games
from cardtable._inputs import as_int, is_choice, shown
from cardtable.adapters._common import check_seed
from cardtable.errors import IllegalActionError, InvalidOptionError, InvalidStateError
from cardtable.vector import Info, Reward, StepResult, VectorEnv, _check_reset_options

if TYPE_CHECKING:
    from cardtable.protocols import StateProtocol

__all__ = ["ENV_IDS", "CardtableEnv", "CardtableVectorEnv", "make_env", "make_vec_env"]

Observation = npt.NDArray[np.float32]
Observations = npt.NDArray[np.float32]
"""A batch of observations, ``[num_envs, *observation_shape]``."""
Actions = npt.NDArray[np.int64]
"""A batch of actions, ``[num_envs]``."""

_VECTOR_ENV_ARGUMENTS = frozenset(inspect.signature(VectorEnv).parameters) - {"options"}
"""The arguments of :class:`cardtable.VectorEnv`, which the environment sets itself: none of
them is a game option, so ``**options`` refuses them instead of passing them on."""


class CardtableEnv(gymnasium.Env[Observation, np.int64]):
    """One seat of ``game_id`` against built-in bots (see the module doc)."""

    # render_fps: Gymnasium's checker asks for one; text frames have no natural rate.
    metadata: dict[str, Any] = {"render_modes": ["ansi"], "render_fps": 1}  # noqa: RUF012

    def __init__(
        self,
        game_id: str,
        *,
        players: int,
        seat: int = 0,
        opponents: str | Sequence[str] = "random",
        reward: Reward = "win",
        illegal_action: Literal["lose", "raise"] = "lose",
        render_mode: str | None = None,
        **options: Any,
    ) -> None:
        """Creates the environment.

        Args:
            game_id: A registered game id.
            players: The number of players.
            seat: The seat the agent plays.
            opponents: A built-in bot name for every other seat, or one per other seat.
            reward: ``"win"`` or ``"margin"`` (``"score"``: the same; see
                :class:`cardtable.VectorEnv`).
            illegal_action: ``"lose"``: an illegal action ends the episode with reward -1;
                ``"raise"``: it raises :class:`cardtable.IllegalActionError`.
            render_mode: ``None`` or ``"ansi"`` (``render()`` describes the last step).
            **options: The game's options. The other arguments of :class:`cardtable.VectorEnv`
                (``seed``, ``observations``, ``reuse_buffers``, ...) are not options: the
                environment sets them itself, and refuses them here.

        Raises:
            InvalidOptionError: On a bad game, option, seat, bot or argument.
        """
        if not is_choice(illegal_action, "lose", "raise"):
            raise InvalidOptionError(
                f"illegal_action must be 'lose' or 'raise', got {shown(illegal_action)}"
            )
        if not is_choice(render_mode, None, "ansi"):
            raise InvalidOptionError(
                f"render_mode must be None or 'ansi', got {shown(render_mode)}"
            )
        clash = sorted(_VECTOR_ENV_ARGUMENTS.intersection(options))
        if clash:
            raise InvalidOptionError(
                f"{game_id}: unknown option{'s' if len(clash) > 1 else ''} "
                f"{', '.join(map(repr, clash))}: make_env takes the game's options; it sets "
                "VectorEnv's arguments itself (seed the game with reset(seed=...))"
            )
        self._env = VectorEnv(
            game_id,
            1,
            players=players,
            agent_seats=(seat,),
            opponents=opponents,
            reward=reward,
            threads=1,
            **options,
        )
        self.seat = seat
        self.illegal_action = illegal_action
        self.render_mode = render_mode
        # Bounds as cardtable.vector.observation_bounds says.
        self.observation_space = self._env.single_observation_space
        self.action_space = self._env.single_action_space
        self._obs: Observation = np.zeros(self._env.observation_shape, np.float32)
        self._mask = np.zeros(self._env.num_actions, dtype=np.bool_)
        self._done = True
        self._last = ""

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[Observation, dict[str, Any]]:
        """Starts a game (its seed is drawn from the generator that ``seed`` seeds).

        Args:
            seed: Seeds the generator that draws the game's seed (``None``: go on with it).
            options: ``None`` or an empty dict (the game's options are given when the env is
                made).

        Raises:
            InvalidOptionError: If ``seed`` is not ``None`` or an int in ``0..2**64 - 1`` (NumPy
                integers too), or on options that are not ``None`` or empty.
        """
        _check_reset_options(options)
        super().reset(seed=check_seed(seed))
        game_seed = int(self.np_random.integers(1 << 63))
        obs, info = self._env.reset(seed=game_seed)
        self._done = False
        self._last = "reset"
        return self._record(obs, info)

    def _record(
        self, obs: npt.NDArray[np.float32], info: dict[str, npt.NDArray[Any]]
    ) -> tuple[Observation, dict[str, Any]]:
        self._obs = obs[0]
        self._mask = info["action_mask"][0]
        return self._obs, {"action_mask": self._mask.copy()}

    def step(
        self, action: np.int64 | int
    ) -> tuple[Observation, SupportsFloat, bool, bool, dict[str, Any]]:
        """Plays ``action`` for the agent's seat, then the bots until the agent is to move again.

        ``action`` is an int (NumPy integers too); a bool, a float or a str raises
        :class:`cardtable.IllegalActionError` whatever ``illegal_action`` says.

        Raises:
            InvalidStateError: If the episode is over (call ``reset``).
            IllegalActionError: If the action is not an int, or is illegal and
                ``illegal_action="raise"``.
        """
        if self._done:
            raise InvalidStateError("the episode is over; call reset()")
        a = as_int(action)
        if a is None:
            kind = " (not a bool)" if isinstance(action, bool | np.bool_) else ""
            raise IllegalActionError(f"action must be an int{kind}, got {shown(action)}")
        if not (0 <= a < len(self._mask) and self._mask[a]):
            if self.illegal_action == "raise":
                raise IllegalActionError(
                    f"action {a} is not legal; legal: {np.flatnonzero(self._mask).tolist()}"
                )
            self._done = True
            self._last = f"illegal action {a}: the episode is lost"
            self._mask = np.zeros_like(self._mask)
            lost: dict[str, Any] = {"action_mask": self._mask.copy(), "illegal": True}
            return self._obs.copy(), -1.0, True, False, lost
        obs, rewards, terminated, _, info = self._env.step(np.array([a], dtype=np.int64))
        observation, out_info = self._record(obs, info)
        self._done = bool(terminated[0])
        if self._done:
            out_info["scores"] = info["scores"][0].copy()
        self._last = f"action {a}, reward {float(rewards[0])}"
        return observation, float(rewards[0]), self._done, False, out_info

    def action_masks(self) -> npt.NDArray[np.bool_]:
        """The legal actions now, as ``info["action_mask"]`` (a new array), for ``MaskablePPO``.

        All ``False`` once the episode is over.
        """
        return self._mask.copy()

    def render(self) -> str | None:
        """With ``render_mode="ansi"``: a line about the last step."""
        return None if self.render_mode is None else self._last


make_env = CardtableEnv
"""A Gymnasium environment: seat ``seat`` of ``game_id`` against built-in bots (the class)."""


_NOT_VECTOR_ARGUMENTS: dict[str, str] = {
    "seat": "give the agent's seats as agent_seats",
    "illegal_action": "an illegal action raises IllegalActionError",
    "reuse_buffers": (
        "every call returns new arrays, since Gymnasium's wrappers may keep the arrays of a "
        "call (use cardtable.VectorEnv directly to reuse buffers)"
    ),
    "observations": (
        "every call returns the observations its observation_space describes (use "
        "cardtable.VectorEnv directly for observations on demand)"
    ),
}
"""Arguments of :func:`make_env` or :class:`cardtable.VectorEnv` that :class:`CardtableVectorEnv`
does not take, with the reason its error gives."""


class CardtableVectorEnv(gymnasium.vector.VectorEnv[Observations, Actions, npt.NDArray[Any]]):
    """A ``gymnasium.vector.VectorEnv`` of ``num_envs`` games: a :class:`cardtable.VectorEnv`.

    Every call is forwarded to the :class:`cardtable.VectorEnv` in :attr:`vector_env`, which
    plays the games, chance and the built-in opponents in Rust: observations, rewards, autoreset
    (Gymnasium's "next step" mode, as ``metadata["autoreset_mode"]`` says), the ``info`` arrays
    (``action_mask``, ``seat``, ``autoreset``, ``rewards``, ``game_index``, ``scores``) and
    seeds are as ``docs/learning.md`` describes them. Gymnasium's vector wrappers accept it.

    Examples:
        >>> import gymnasium
        >>> from cardtable.adapters.gymnasium import make_vec_env
        >>> envs = make_vec_env("goofspiel", 8, players=2, seed=1, num_cards=4)
        >>> envs = gymnasium.wrappers.vector.RecordEpisodeStatistics(envs)
        >>> obs, info = envs.reset()
        >>> obs.shape, envs.action_space
        ((8, 75), MultiDiscrete([4 4 4 4 4 4 4 4]))
    """

    # The autoreset mode Gymnasium's wrappers read; no rendering.
    metadata: dict[str, Any] = {  # noqa: RUF012
        "autoreset_mode": gymnasium.vector.AutoresetMode.NEXT_STEP,
        "render_modes": [],
    }

    def __init__(
        self,
        game_id: str,
        num_envs: int,
        *,
        players: int,
        seed: int | None = None,
        agent_seats: int | Sequence[int] | Literal["all"] = (0,),
        opponents: str | Sequence[str] = "random",
        reward: Reward = "win",
        threads: int | None = None,
        render_mode: None = None,
        rotate_seats: bool = False,
        keep_histories: bool = False,
        **options: Any,
    ) -> None:
        """Creates the environment.

        Args:
            game_id: A registered game id.
            num_envs: The number of games played side by side (at least 1).
            players: The number of players.
            seed: The run's seed, as :class:`cardtable.VectorEnv`'s (``reset(seed=s)`` restarts
                the run from ``s``); ``None`` draws one from fresh entropy, so that environments
                never seeded play different games, as Gymnasium's do.
            agent_seats: The seats the caller plays (a sequence), one seat (an int), or
                ``"all"``.
            opponents: A built-in bot name for every other seat, or one name per other seat in
                increasing seat order.
            reward: ``"win"`` or ``"margin"`` (``"score"``: the same; see
                :class:`cardtable.VectorEnv`).
            threads: Worker threads for large batches (``None``: all cores); results do not
                depend on it.
            render_mode: ``None`` only (there is no rendering).
            rotate_seats: Turn the seating from game to game (see :class:`cardtable.VectorEnv`).
            keep_histories: Keep the games' histories, for :meth:`states`.
            **options: The game's options. ``reuse_buffers`` and ``observations`` of
                :class:`cardtable.VectorEnv`, and ``seat`` and ``illegal_action`` of
                :func:`make_env`, are refused.

        Raises:
            InvalidOptionError: On a bad game, option, seat, bot, reward, count or argument.
        """
        if render_mode is not None:
            raise InvalidOptionError(
                f"render_mode must be None (a CardtableVectorEnv does not render), "
                f"got {shown(render_mode)}"
            )
        clash = sorted(_NOT_VECTOR_ARGUMENTS.keys() & options.keys())
        if clash:
            name = clash[0]
            raise InvalidOptionError(
                f"CardtableVectorEnv takes no argument {shown(name)}: {_NOT_VECTOR_ARGUMENTS[name]}"
            )
        run_seed = check_seed(seed)
        if run_seed is None:
            run_seed = secrets.randbits(64)
        self.run_seed = run_seed
        """The run's seed (given, or drawn when ``seed`` was ``None``; log it to replay the run):
        env ``i``'s ``k``-th game is the seeded game ``derive_seed(derive_seed(run_seed, i), k)``
        until a :meth:`reset` with a seed restarts the run."""
        self.vector_env = VectorEnv(
            game_id,
            num_envs,
            players=players,
            seed=run_seed,
            agent_seats=agent_seats,
            opponents=opponents,
            reward=reward,
            threads=threads,
            rotate_seats=rotate_seats,
            keep_histories=keep_histories,
            **options,
        )
        """The :class:`cardtable.VectorEnv` that plays the games (e.g. for ``observe``)."""
        self.num_envs = self.vector_env.num_envs
        self.render_mode = None
        self.single_observation_space = self.vector_env.single_observation_space
        self.single_action_space = self.vector_env.single_action_space
        self.observation_space = self.vector_env.observation_space
        self.action_space = self.vector_env.action_space
        # Gymnasium's generator (its ``np_random_seed``) follows the run's seed.
        self._np_random, self._np_random_seed = gymnasium.utils.seeding.np_random(run_seed)

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[Observations, Info]:
        """Starts a game in every env: :meth:`cardtable.VectorEnv.reset`.

        Args:
            seed: Restart the run from this seed: env ``i``'s ``k``-th game is then the seeded
                game ``derive_seed(derive_seed(seed, i), k)``; it also seeds :attr:`np_random`.
                ``None``: every env starts its next game. One int for all the envs (a sequence
                of per-env seeds is refused).
            options: ``None`` or an empty dict.

        Returns:
            ``(observations [num_envs, *observation_shape] float32, info)``.

        Raises:
            InvalidOptionError: On a seed that is not ``None`` or an int in ``0..2**64 - 1``,
                or options that are not ``None`` or empty.
        """
        obs, info = self.vector_env.reset(seed, options=options)
        run_seed = check_seed(seed)
        if run_seed is not None:
            self.run_seed = run_seed
            super().reset(seed=run_seed)
        return obs, info

    def step(self, actions: npt.ArrayLike) -> StepResult:
        """Plays one action per env: :meth:`cardtable.VectorEnv.step`, with its results and errors.

        Returns:
            ``(observations, rewards, terminated, truncated, info)``.
        """
        return self.vector_env.step(actions)

    def action_masks(self) -> npt.NDArray[np.bool_]:
        """The last call's ``info["action_mask"]`` (for ``MaskablePPO``-style callers).

        Raises:
            InvalidStateError: Before the first :meth:`reset`.
        """
        return self.vector_env.action_masks()

    def states(self, envs: npt.ArrayLike | None = None) -> list[StateProtocol]:
        """The envs' games as states with their histories: :meth:`cardtable.VectorEnv.states`.

        Behind Gymnasium's wrappers: ``envs.unwrapped.states()``.
        """
        return self.vector_env.states(envs)

    def render(self) -> None:
        """Nothing to render (``render_mode`` is ``None``)."""

    def close_extras(self, **kwargs: Any) -> None:
        """Called once by ``close()``: nothing to release, as in :meth:`cardtable.VectorEnv.close`.

        The games live in the engine and go with the object.
        """
        self.vector_env.close()

    def __repr__(self) -> str:
        return f"CardtableVectorEnv({shown(self.vector_env)})"


make_vec_env = CardtableVectorEnv
"""A Gymnasium vector environment of ``num_envs`` games of ``game_id`` (the class)."""


def _register() -> dict[str, str]:
    """Registers ``cardtable/<game_id>-v0`` for every game not registered yet; returns the ids."""
    ids: dict[str, str] = {}
    for info in games():
        env_id = ids[info.id] = f"cardtable/{info.id}-v0"
        if env_id not in gymnasium.registry:
            gymnasium.register(
                env_id,
                entry_point=f"{__name__}:CardtableEnv",
                vector_entry_point=f"{__name__}:CardtableVectorEnv",
                kwargs={"game_id": info.id, "players": info.min_players},
            )
    return ids


ENV_IDS: dict[str, str] = _register()
"""The Gymnasium id of each game id, e.g. ``gymnasium.make(ENV_IDS["goofspiel"])``."""
