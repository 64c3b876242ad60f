"""``cardtable.VectorEnv``: many games stepped together in Rust for reinforcement learning.

Each call steps every environment at once inside the engine, with the GIL released: chance and the
built-in opponents are played there, and observations, masks and rewards come back as NumPy arrays
(observations on demand with ``observations=False``: :meth:`VectorEnv.observe`).
The contract (observations, autoreset, rewards, seeds, spaces) is in ``docs/learning.md``.

This layer owns batching and the NumPy buffers; it plays no rules in Python (the engine does) and
must not import the reference implementations, the adapters or the simulation layer.
"""

from __future__ import annotations

import threading
from collections.abc import Iterable, Mapping, Sequence, Set
from contextlib import AbstractContextManager, nullcontext
from typing import TYPE_CHECKING, Any, Literal

import numpy as np
import numpy.typing as npt

from cardtable._inputs import MAX_SEED, as_int, check_bool, check_int, check_threads, shown
from cardtable._option_text import changed_options
from cardtable.errors import (
    CardtableError,
    IllegalActionError,
    InvalidOptionError,
    InvalidStateError,
)
from cardtable.observations import TENSOR_BOUNDS

if TYPE_CHECKING:
    from gymnasium import spaces

    from cardtable import _core
    from cardtable.protocols import StateProtocol

__all__ = ["Info", "Reward", "StepResult", "VectorEnv", "observation_bounds"]

Reward = Literal["win", "margin", "score"]
"""``"win"``: +1 sole winner, 0 shared win, -1 otherwise; ``"margin"``: final score minus the best
other final score; ``"score"``: another name of ``"margin"``."""

Info = dict[str, npt.NDArray[Any]]
"""The ``info`` dict of :meth:`VectorEnv.reset` and :meth:`VectorEnv.step`."""

StepResult = tuple[
    npt.NDArray[np.float32],
    npt.NDArray[np.float32],
    npt.NDArray[np.bool_],
    npt.NDArray[np.bool_],
    Info,
]
"""What :meth:`VectorEnv.step` returns: ``(observations, rewards, terminated, truncated, info)``."""

_Spaces = tuple[
    "spaces.Box[np.float32]",
    "spaces.Discrete[np.int64]",
    "spaces.Box[np.float32]",
    "spaces.MultiDiscrete[np.int64]",
]
"""The spaces: single observation, single action, batched observation, batched action."""

_INT64 = np.dtype(np.int64)
"""The dtype the engine takes actions in (native byte order)."""

_OUTPUTS = (
    "obs",
    "rewards",
    "terminated",
    "action_mask",
    "seat",
    "autoreset",
    "all_rewards",
    "episode",
    "scores",
)
"""The keys of the binding's output arrays, in the order :meth:`VectorEnv.step` unpacks them.

The binding's ``"episode"`` array (each env's game counter) is ``info["game_index"]``: the
``"episode"`` key of an info dict is the one Gymnasium's ``RecordEpisodeStatistics`` (and the
learning libraries that follow it) fill with episode returns and lengths."""


def _int(value: object, what: str) -> int:
    """``value`` as an int by the package's integer rule (:func:`as_int`), or InvalidOptionError."""
    number = as_int(value)
    if number is None:
        raise InvalidOptionError(f"{what} must be an int, got {shown(value)}")
    return number


def _array(values: npt.ArrayLike, what: str, error: type[CardtableError]) -> npt.NDArray[Any]:
    """``values`` as a NumPy array.

    Raises:
        error: For ragged lists, for a list or tuple holding a bool (NumPy would read
            ``[True, 0]`` as the integers ``[1, 0]``; a bool is never an int), and for one holding
            an int out of the 64-bit range (NumPy would read it as an object or float array).
    """
    listed = isinstance(values, (list, tuple))
    if listed and any(isinstance(v, (bool, np.bool_)) for v in values):  # type: ignore[union-attr]
        raise error(f"{what} must be integers, not bools: {shown(values)}")
    try:
        array = np.asarray(values)
    except ValueError as err:  # ragged nested lists
        raise error(f"{what} must be a flat list of ints: {err}") from None
    if listed and array.dtype.kind in ("O", "f"):  # ints beyond 64 bits land here, never others
        for v in values:  # type: ignore[union-attr]
            number = as_int(v)
            if number is not None and not -(2**63) <= number < 2**63:
                raise error(f"{what} out of range: {number}")
    return array


def _int64(
    array: npt.NDArray[Any], what: str, error: type[CardtableError]
) -> npt.NDArray[np.int64]:
    """``array`` (of the right shape) as C-contiguous, aligned int64 (copied if need be).

    Its values must be integers below 2**63.

    Raises:
        error: Otherwise.
    """
    # By kind: NumPy counts timedelta64 among its integer types, and bool is a kind of its own.
    if array.size and array.dtype.kind not in ("i", "u"):
        raise error(f"{what} must be integers, got dtype {array.dtype}")
    if np.issubdtype(array.dtype, np.unsignedinteger) and array.size and array.max() >= 2**63:
        raise error(f"{what} out of range: {array.max()}")
    # "A": aligned too (a view at an odd byte offset is contiguous but not aligned).
    return np.require(array, dtype=np.int64, requirements=["C", "A"])


def _items(value: object, what: str) -> list[Any]:
    """The items of the sequence ``value`` (any ordered iterable), or InvalidOptionError.

    A str, bytes, a mapping or a set is refused: their items (characters, byte values, keys, an
    arbitrary order) are not a sequence the caller meant.
    """
    not_sequences = (str, bytes, bytearray, memoryview, Mapping, Set)
    if not isinstance(value, Iterable) or isinstance(value, not_sequences):
        raise InvalidOptionError(f"{what} must be a sequence, got {shown(value)}")
    try:
        return list(value)
    except TypeError:
        raise InvalidOptionError(f"{what} must be a sequence, got {shown(value)}") from None


class VectorEnv:
    """``num_envs`` games stepped together, for agents in some seats against built-in bots.

    Observations are the ``observation_tensor`` of the agent seat to move in each env;
    ``info["seat"]`` names that seat and ``info["action_mask"]`` its legal actions. Autoreset is
    Gymnasium's "next step" mode: an env that ends reports ``terminated`` with its final
    observation and reward once, and the next :meth:`step` ignores its action and starts its next
    game (``info["autoreset"]``).

    Examples:
        >>> import numpy as np
        >>> import cardtable
        >>> env = cardtable.VectorEnv("goofspiel", 8, players=2, seed=1)
        >>> obs, info = env.reset()
        >>> obs.shape, info["action_mask"].shape
        ((8, 579), (8, 13))
        >>> rng = np.random.default_rng(0)
        >>> actions = np.array([rng.choice(np.flatnonzero(m)) for m in info["action_mask"]])
        >>> obs, rewards, terminated, truncated, info = env.step(actions)

    Args:
        game_id: A registered game id.
        num_envs: The number of games played side by side (at least 1).
        players: The number of players.
        seed: Env ``i``'s ``k``-th game is the seeded game
            ``derive_seed(derive_seed(seed, i), k)``.
        agent_seats: The seats the caller plays (a sequence), one seat (an int), or ``"all"``.
        opponents: A built-in bot name for every other seat, or one name per other seat in
            increasing seat order.
        reward: ``"win"`` (+1 for the only winner, 0 for a shared win, -1 otherwise) or
            ``"margin"`` (final score minus the best other final score, oriented so that more is
            better); ``"score"`` is another name of ``"margin"``.
        threads: Worker threads for large batches (``None``: all cores); results do not depend
            on it.
        reuse_buffers: Write every call's outputs into the same arrays (allocated by the first
            :meth:`reset`) instead of fresh ones: no allocation per step, but the arrays a call
            returns are overwritten by the next call (copy what you keep). The truncated array
            is shared too (and set back to all ``False`` by every call). Leave the arrays
            writeable: a call refuses read-only ones (``InvalidOptionError``), and NumPy cannot
            make an array that was set read-only writeable again.
        rotate_seats: ``False`` (the default): the agents and opponents keep their seats.
            ``True``: the seating turns from game to game, so that an agent trained in one seat
            learns every seat: in env ``i``'s ``k``-th game whoever ``agent_seats`` and
            ``opponents`` put in seat ``s`` sits at seat ``(s + i + k) % players``
            (``info["seat"]`` names the agent's seat).
        keep_histories: Keep every env's game history, for :meth:`states` (off by default:
            recording costs a few instructions a step, about a tenth of a step without
            observations).
        observations: ``True`` (the default): :meth:`reset` and :meth:`step` return every env's
            observation tensor. ``False``: they write none and return an empty array of shape
            ``[num_envs, 0]`` in its place, and :meth:`observe` gives the tensors of the envs
            (and seats) asked for, with the same values. Writing the tensors is most of a
            step's cost in games with large tensors, so a caller that reads them for some envs
            only (or not at every step) saves that.
        **options: The game's options.

    Attributes:
        game: The game the envs play (the Rust engine's ``Game``).
        game_id: Its id.
        num_envs: The number of envs.
        players: Seats per game.
        num_actions: The length of an action mask (the game's action ids run from 0).
        observation_shape: The shape of one observation tensor (one row of the observations).
        agent_seats: The seats the caller plays, in the order given.
        opponents: The bot of every other seat, in increasing seat order.
        reward: ``"win"`` or ``"margin"`` (``"score"`` is read as ``"margin"``).
        rotate_seats: Whether the seating turns from game to game.
        keep_histories: Whether every env keeps its game's history (for :meth:`states`).
        reuse_buffers: Whether the calls write into the same arrays.
        observations: Whether :meth:`reset` and :meth:`step` return observation tensors.

    Raises:
        InvalidOptionError: On a bad game, option, seat, bot, reward or count.
    """

    def __init__(
        self,
        game_id: str,
        num_envs: int,
        *,
        players: int,
        seed: int = 0,
        agent_seats: int | Sequence[int] | Literal["all"] = (0,),
        opponents: str | Sequence[str] = "random",
        reward: Reward = "win",
        threads: int | None = None,
        reuse_buffers: bool = False,
        observations: bool = True,
        rotate_seats: bool = False,
        keep_histories: bool = False,
        **options: Any,
    ) -> None:
        from cardtable import _core

        count = _int(num_envs, "num_envs")
        if not 1 <= count <= MAX_SEED:
            raise InvalidOptionError(f"num_envs must be in 1..={MAX_SEED}, got {shown(count)}")
        threads = check_threads(threads)
        self.game: _core.Game = _core.Game(game_id, players, options)
        self.game_id = game_id
        self.num_envs = count
        self.players = self.game.players
        self.num_actions = self.game.num_actions
        self.observation_shape: tuple[int, ...] = self.game.observation_shape
        if isinstance(agent_seats, str):
            if agent_seats != "all":
                raise InvalidOptionError(
                    "agent_seats must be a seat, a sequence of seats or 'all', got "
                    f"{shown(agent_seats)}"
                )
            seats = list(range(self.players))
        elif (one := as_int(agent_seats)) is not None:
            seats = [one]
        else:
            seats = [
                _int(s, "an agent seat") for s in _items(agent_seats, "agent_seats (or 'all')")
            ]
        for s in seats:
            if not 0 <= s < self.players:
                raise InvalidOptionError(f"agent seat {s} is out of range 0..={self.players - 1}")
        self.agent_seats: tuple[int, ...] = tuple(seats)
        others = self.players - len(set(seats))
        if isinstance(opponents, str):
            bots = [opponents] * others
        else:
            bots = _items(opponents, "opponents (a bot name or a sequence of them)")
            if not all(isinstance(b, str) for b in bots):
                raise InvalidOptionError(f"opponents must be bot names, got {shown(opponents)}")
        if not isinstance(reward, str) or reward not in ("win", "margin", "score"):
            raise InvalidOptionError(
                f"reward must be 'win' or 'margin' ('score' is another name of 'margin'), "
                f"got {shown(reward)}"
            )
        # The name given (a numpy.str_ as a plain str); the engine calls the margin "score".
        self.reward: Reward = (
            "win" if reward == "win" else "margin" if reward == "margin" else "score"
        )
        self.reuse_buffers = check_bool("reuse_buffers", reuse_buffers)
        self.observations = check_bool("observations", observations)
        self.rotate_seats = check_bool("rotate_seats", rotate_seats)
        self.keep_histories = check_bool("keep_histories", keep_histories)
        self._out: Mapping[str, npt.NDArray[Any]] | None = None
        # With reuse_buffers, the arrays of `_out` in `_OUTPUTS` order, looked up once instead
        # of at every step.
        self._arrays: list[npt.NDArray[Any]] | None = None
        self._env: _core.VectorEnv = _core.VectorEnv(
            self.game,
            num_envs=count,
            seed=check_int("seed", seed, 0, MAX_SEED),
            agent_seats=seats,
            opponents=bots,
            reward="win" if self.reward == "win" else "score",
            threads=threads,
            observations=observations,
            rotate_seats=rotate_seats,
            keep_histories=keep_histories,
        )
        self.opponents: tuple[str, ...] = tuple(str(b) for b in bots)
        self._truncated = np.zeros(count, dtype=np.bool_)
        self._mask: npt.NDArray[np.bool_] | None = None  # the last call's info["action_mask"]
        self._spaces: _Spaces | None = None  # made by the first space attribute read
        self._turn = threading.Lock()

    def reset(
        self, seed: int | None = None, *, options: Mapping[str, Any] | None = None
    ) -> tuple[npt.NDArray[np.float32], Info]:
        """Starts a game in every env.

        The signature is Gymnasium's ``reset(*, seed=None, options=None)`` (``seed`` may also be
        given by position).

        Args:
            seed: Restart the run from this seed (every env's game counter back to 0): env ``i``'s
                ``k``-th game is then ``derive_seed(derive_seed(seed, i), k)``. ``None`` starts
                every env's next game. One int for all the envs: a sequence of per-env seeds is
                refused (the engine derives each env's seed from the one given).
            options: ``None`` or an empty mapping (for Gymnasium-style callers); the games
                take their options when the env is made.

        Returns:
            ``(observations [num_envs, *observation_shape] float32, info)`` (observations
            ``[num_envs, 0]`` with ``observations=False``).

        Raises:
            InvalidOptionError: On a seed that is not ``None`` or an int in ``0..2**64 - 1``
                (NumPy integers too), or ``options`` that are not ``None`` or empty.
            InvalidStateError: If an env's games keep ending before any agent seat decides (see
                the docs); the envs are then part-way, and :meth:`step` and :meth:`observe`
                refuse until a reset succeeds.
        """
        start = _reset_seed(seed)
        _check_reset_options(options)
        if self.reuse_buffers and self._out is None:
            self._out = self._env.output_buffers()
            self._arrays = _arrays(self._out)
        with self._turns():
            out = self._env.reset(start, self._out)
            obs, _, _, _, info = self._outputs(out)
        return obs, info

    def step(self, actions: npt.ArrayLike) -> StepResult:
        """Plays one action per env, then chance and bots until agent seats must decide again.

        Args:
            actions: Integers that fit in int64, shape ``[num_envs]``: a legal action for each
                env's seat to move (for an env that ended on the previous step, ignored: any
                such value is accepted).

        Returns:
            ``(observations, rewards [num_envs] float32, terminated [num_envs] bool,
            truncated [num_envs] bool (always False), info)``.

        Raises:
            IllegalActionError: If ``actions`` has the wrong shape or dtype, holds a value
                beyond int64 or an illegal action; then nothing is applied.
            InvalidStateError: Before a successful :meth:`reset`, or if an env's next game
                cannot start (as in :meth:`reset`).
            InvalidOptionError: With ``reuse_buffers=True``, if those arrays were made
                read-only.
        """
        checked = self._check_actions(actions)
        with self._turns():
            try:
                out = self._env.step(checked, self._out)
            except InvalidOptionError:
                # The engine refuses, before anything is applied, actions that share memory with
                # the arrays it writes into: one of the env's own reused outputs (e.g.
                # ``info["seat"]``) is read from a copy instead.
                if self._arrays is None or not any(
                    np.may_share_memory(checked, a) for a in self._arrays
                ):
                    raise
                out = self._env.step(checked.copy(), self._out)
            return self._outputs(out)

    def _turns(self) -> AbstractContextManager[object]:
        """Held while a call writes the reused buffers: threads sharing the env take turns.

        The engine's own lock is taken only once the buffers are borrowed, and a thread finding
        them borrowed would fail instead of waiting.
        """
        return self._turn if self.reuse_buffers else nullcontext()

    def observe(
        self,
        envs: npt.ArrayLike | None = None,
        *,
        seats: npt.ArrayLike | None = None,
        out: npt.NDArray[np.float32] | None = None,
    ) -> npt.NDArray[np.float32]:
        """The observation tensors of some envs' current games, computed now.

        ``env.observe()`` after a step equals the observations that step returns with
        ``observations=True``; ``env.observe(envs)`` is those rows only, and with ``seats`` each
        env's tensor is that of the seat given (any seat, e.g. for a critic that sees every
        seat's view). Works with either setting of ``observations``.

        Args:
            envs: Env indices, shape ``[k]`` (repeats allowed), or a bool mask of shape
                ``[num_envs]`` (the envs where it is true, in order, e.g.
                ``info["action_mask"].any(axis=1)``); ``None``: every env in order.
            seats: One seat per env asked, shape ``[k]``; ``None``: each env's ``info["seat"]``
                (the seat to move, or the last agent mover of an env that just ended).
            out: A C-contiguous, aligned float32 array of shape ``[k, *observation_shape]`` to
                write into (then returned) instead of a new array.

        Returns:
            float32 ``[k, *observation_shape]``.

        Raises:
            InvalidOptionError: On an env or seat out of range, indices that are not integers,
                a mask of another shape, lengths that differ, or an ``out`` of the wrong shape or
                dtype.
            InvalidStateError: Before the first :meth:`reset`.
        """
        rows = self._env_rows(envs)
        count = self.num_envs if rows is None else rows.shape[0]
        who = None if seats is None else self._indices(seats, "seats")
        if who is not None and who.shape[0] != count:
            raise InvalidOptionError(f"{who.shape[0]} seats given for {count} envs")
        if out is not None:
            shape = (count, *self.observation_shape)
            if not isinstance(out, np.ndarray) or out.dtype != np.float32 or out.shape != shape:
                raise InvalidOptionError(f"out must be a float32 array of shape {shape}")
        result: npt.NDArray[np.float32] = self._env.observe(rows, who, out)
        return result

    def states(self, envs: npt.ArrayLike | None = None) -> list[StateProtocol]:
        """The current games of some envs, as states with their whole histories.

        Each is a Rust-backed state like one from ``cardtable.make(...).new_state()``: its history
        holds every chance outcome, built-in bot decision and agent action since the game began, so
        it replays, saves with ``to_dict``, and shows a bot the game from its start. Hand them to
        :func:`cardtable.search` to label an env loop's positions with a search (a teacher for the
        agent), or play them on to look ahead: each is seeded with its env's chance stream, so it
        draws the chance outcomes the env would draw. They are copies: changing one does not change
        the env.

        An env whose game ended on the last step gives that finished game (its next step starts
        the next one); in the others the seat to move is ``info["seat"]``. The env must keep its
        games' histories (``keep_histories=True``).

        Args:
            envs: Env indices, shape ``[k]`` (repeats allowed), or a bool mask of shape
                ``[num_envs]`` (the envs where it is true, in order, e.g.
                ``info["action_mask"].any(axis=1)``); ``None``: every env in order.

        Returns:
            ``k`` states.

        Raises:
            InvalidOptionError: On an env out of range, indices that are not integers, or a mask
                of another shape.
            InvalidStateError: Without ``keep_histories=True``, before the first :meth:`reset`,
                or after a reset or step that failed part-way.

        Examples:
            >>> import cardtable
            >>> env = cardtable.VectorEnv("goofspiel", 2, players=2, seed=1, keep_histories=True)
            >>> _ = env.reset()
            >>> [state.current_player for state in env.states()]
            [0, 0]
            >>> batch = cardtable.search(env.game, env.states(), "mcts:iterations=50", seed=0)
            >>> len(batch.actions)
            2
        """
        rows = self._env_rows(envs)
        return list(self._env.states(rows))

    def _env_rows(self, envs: npt.ArrayLike | None) -> npt.NDArray[np.int64] | None:
        """The env indices a call names: indices, or the true entries of a NumPy bool mask."""
        if envs is None:
            return None
        if isinstance(envs, np.ndarray) and envs.dtype == np.bool_:
            if envs.shape != (self.num_envs,):
                raise InvalidOptionError(
                    f"a mask of envs must have shape ({self.num_envs},), got {envs.shape}"
                )
            return np.flatnonzero(envs)
        return self._indices(envs, "envs")

    @staticmethod
    def _indices(values: npt.ArrayLike, what: str) -> npt.NDArray[np.int64]:
        array = _array(values, what, InvalidOptionError)
        if array.ndim != 1:
            raise InvalidOptionError(f"{what} must be one-dimensional, got shape {array.shape}")
        return _int64(array, what, InvalidOptionError)

    def _check_actions(self, actions: npt.ArrayLike) -> npt.NDArray[np.int64]:
        # The usual case, a C-contiguous native int64 array of the right shape, passes on a few
        # attribute reads: the full checks below take about as long as the engine's step of
        # fifty envs.
        if (
            type(actions) is np.ndarray
            and actions.dtype is _INT64
            and actions.shape == (self.num_envs,)
            and actions.flags.c_contiguous
            and actions.flags.aligned
        ):
            return actions
        array = _array(actions, "actions", IllegalActionError)
        if array.shape != (self.num_envs,):
            raise IllegalActionError(
                f"actions must have shape ({self.num_envs},), got {array.shape}"
            )
        return _int64(array, "actions", IllegalActionError)

    def _outputs(self, out: Mapping[str, npt.NDArray[Any]]) -> StepResult:
        """``(obs, rewards, terminated, truncated, info)`` of the call that returned ``out``."""
        obs, rewards, terminated, mask, seat, autoreset, all_rewards, game_index, scores = (
            self._arrays or _arrays(out)
        )
        if self.reuse_buffers:
            truncated = self._truncated
            truncated.fill(False)  # rewritten at every call, as the engine rewrites the others
        else:
            truncated = np.zeros(self.num_envs, np.bool_)
        self._mask = mask
        info = {
            "action_mask": mask,
            "seat": seat,
            "autoreset": autoreset,
            "rewards": all_rewards,
            "game_index": game_index,
            "scores": scores,
        }
        return obs, rewards, terminated, truncated, info

    def action_masks(self) -> npt.NDArray[np.bool_]:
        """The legal actions of every env's seat to move: ``info["action_mask"]`` of the last call.

        The name is the one sb3-contrib's ``MaskablePPO`` looks for. Returns that very array, not a
        copy: a view that the env never writes again unless it was made with
        ``reuse_buffers=True`` (then the next :meth:`reset` or :meth:`step` overwrites it).

        Returns:
            bool ``[num_envs, num_actions]`` (a row of an env that just ended is all ``False``).

        Raises:
            InvalidStateError: Before the first :meth:`reset`.
        """
        if self._mask is None:
            raise InvalidStateError("no action masks before the first reset()")
        return self._mask

    @property
    def single_observation_space(self) -> spaces.Box[np.float32]:
        """Gymnasium's ``Box`` of one env's observation tensor (see :func:`observation_bounds`).

        With ``observations=False`` it describes the rows of :meth:`observe`, not the empty
        arrays :meth:`step` returns.

        Raises:
            AttributeError: If Gymnasium is not installed (``pip install "cardtable[gymnasium]"``),
                so that ``hasattr`` tells duck-typed callers the space is absent.
        """
        return self._gym_spaces("single_observation_space")[0]

    @property
    def single_action_space(self) -> spaces.Discrete[np.int64]:
        """Gymnasium's ``Discrete(num_actions)``: one env's action (legal ones: the masks).

        Raises:
            AttributeError: If Gymnasium is not installed.
        """
        return self._gym_spaces("single_action_space")[1]

    @property
    def observation_space(self) -> spaces.Box[np.float32]:
        """The batched ``single_observation_space``, a ``Box`` of shape ``[num_envs, *shape]``.

        Built by ``gymnasium.vector.utils.batch_space``, as Gymnasium's vector envs do.

        Raises:
            AttributeError: If Gymnasium is not installed.
        """
        return self._gym_spaces("observation_space")[2]

    @property
    def action_space(self) -> spaces.MultiDiscrete[np.int64]:
        """The batched ``single_action_space``: ``MultiDiscrete([num_actions] * num_envs)``.

        Raises:
            AttributeError: If Gymnasium is not installed.
        """
        return self._gym_spaces("action_space")[3]

    def _gym_spaces(self, name: str) -> _Spaces:
        """The four spaces (made at the first call), or AttributeError naming ``name``."""
        if self._spaces is None:
            try:
                from gymnasium import spaces
                from gymnasium.vector.utils import batch_space
            except ImportError:
                raise AttributeError(
                    f"VectorEnv.{name} needs Gymnasium: pip install 'cardtable[gymnasium]'"
                ) from None
            low, high = observation_bounds(self.game_id)
            single = spaces.Box(low, high, self.observation_shape, np.float32)
            action = spaces.Discrete(self.num_actions)
            batched = batch_space(single, self.num_envs)
            actions = batch_space(action, self.num_envs)
            assert isinstance(batched, spaces.Box) and isinstance(actions, spaces.MultiDiscrete)
            self._spaces = (single, action, batched, actions)
        return self._spaces

    def close(self) -> None:
        """Nothing to release (present for Gymnasium-style callers)."""

    def __reduce__(self) -> tuple[Any, ...]:
        """A VectorEnv holds games in progress inside the engine and is not pickled or copied.

        Raises:
            InvalidStateError: Always; make a new ``VectorEnv`` with the same arguments and seed
                instead (it replays exactly the same games).
        """
        raise InvalidStateError(
            "a VectorEnv cannot be pickled or copied; create a new VectorEnv with the same "
            "arguments and seed (it plays exactly the same games)"
        )

    def __repr__(self) -> str:
        """The game, players, envs, agent seats, opponents, reward and non-default options."""
        bots: object = self.opponents
        if self.opponents and len(set(self.opponents)) == 1:
            bots = self.opponents[0]
        options = changed_options(self.game_id, self.players, self.game.options)
        return (
            f"<VectorEnv {self.game_id} players={self.players} num_envs={self.num_envs} "
            f"agent_seats={self.agent_seats} opponents={shown(bots)} reward={shown(self.reward)}"
            + (f" options={shown(options)}" if options else "")
            + ("" if self.observations else " observations=False")
            + (" reuse_buffers=True" if self.reuse_buffers else "")
            + (" rotate_seats=True" if self.rotate_seats else "")
            + (" keep_histories=True" if self.keep_histories else "")
            + ">"
        )


def observation_bounds(game_id: str) -> tuple[float, float]:
    """Bounds that every entry of ``game_id``'s observation tensors lies within.

    The bounds the game's contract guarantees, where it does (``TENSOR_BOUNDS`` in
    :mod:`cardtable.observations`: goofspiel's ``(0.0, 1.0)``). The other games' tensors hold
    scaled counts that may exceed 1 (``docs/learning.md``) and, in Turn the Tide, negative
    scores, with no bound the contracts state: for them, the finite float32 range (every entry is
    finite), which claims nothing more.

    Args:
        game_id: A registered game id.

    Returns:
        ``(low, high)``.
    """
    bounds = TENSOR_BOUNDS.get(game_id)
    if bounds is not None:
        return bounds
    top = float(np.finfo(np.float32).max)
    return -top, top


def _reset_seed(seed: object) -> int | None:
    """The seed given to :meth:`VectorEnv.reset` as an int, or ``None``.

    Raises:
        InvalidOptionError: On a sequence or array of seeds (one per env), which the engine
            cannot take, and on anything but ``None`` or an int in ``0..2**64 - 1``.
    """
    if seed is None:
        return None
    if isinstance(seed, (list, tuple, np.ndarray)) and not (
        isinstance(seed, np.ndarray) and seed.ndim == 0
    ):
        raise InvalidOptionError(
            f"reset() takes one seed for all the envs, not one per env: pass one int in "
            f"0..={MAX_SEED} (env i's k-th game is then the seeded game "
            f"derive_seed(derive_seed(seed, i), k)), got {shown(seed)}"
        )
    return check_int("seed", seed, 0, MAX_SEED)


def _check_reset_options(options: object) -> None:
    """Refuses reset ``options`` other than ``None`` or an empty mapping.

    Raises:
        InvalidOptionError: Otherwise (naming what is supported).
    """
    if options is None or (isinstance(options, Mapping) and not options):
        return
    raise InvalidOptionError(
        "reset() supports options=None or an empty dict only (the game's options are given "
        f"when the env is made, and every env is reset together), got {shown(options)}"
    )


def _arrays(out: Mapping[str, npt.NDArray[Any]]) -> list[npt.NDArray[Any]]:
    """The output arrays of ``out`` in :data:`_OUTPUTS` order."""
    return [out[key] for key in _OUTPUTS]
