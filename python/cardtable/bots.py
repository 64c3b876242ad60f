"""Built-in bots for your own game loops (the same bots ``simulate`` uses)."""

from __future__ import annotations

import functools
import math
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, NamedTuple

import numpy as np
import numpy.typing as npt

from cardtable._inputs import MAX_SEED, as_int, check_int, check_threads, shown
from cardtable.errors import IllegalActionError, InvalidOptionError, InvalidStateError
from cardtable.protocols import GameProtocol, StateProtocol

if TYPE_CHECKING:
    from cardtable import _core

__all__ = [
    "BuiltinBot",
    "SearchBatch",
    "SearchInterrupted",
    "SearchStats",
    "bot",
    "default_bot",
    "search",
    "split_bot_specs",
]


_MAX_NUM_ACTIONS = 1 << 24
"""The longest dense policy :meth:`SearchStats.policy` makes (every game has far fewer actions)."""


def _real(value: object) -> float | None:
    """``value`` as a float if it is a real number (NumPy scalars included), else ``None``."""
    if isinstance(value, int | float | np.integer | np.floating):
        return float(value)
    return None


def _check_temperature(temperature: object) -> float:
    """A policy's ``temperature`` as a float.

    Raises:
        InvalidOptionError: Unless it is a finite real number ``>= 0`` (NumPy scalars included,
            not a bool).
    """
    t = None if isinstance(temperature, bool | np.bool_) else _real(temperature)
    if t is None or not math.isfinite(t) or t < 0:
        raise InvalidOptionError(
            f"temperature must be a finite number >= 0, got {shown(temperature)}"
        )
    return t


@dataclass(frozen=True, eq=False)
class SearchStats:
    """What a search bot (``mcts``, ``flatmc``) found at its latest decision.

    Every array has one entry per legal action of the decision, in the order of ``actions``.

    Attributes:
        actions: The legal actions, sorted.
        visits: Per action, the iterations (``mcts``) or playouts (``flatmc``) that tried it.
            Actions that share a choice (see ``choices``) share its count.
        values: Per action, the searching seat's mean reward over those visits, on the scale of
            the bot's ``reward`` (``win``: the win share, in ``[0, 1]``); ``nan`` without visits.
        choices: Per action, the choice it was searched as: the action itself, except that with
            action classes (``mcts`` with ``classes=on``) the actions of one class share one
            choice, and ``visits``/``values`` are the class's.
        iterations: Iterations (``mcts``) or samples (``flatmc``) run: fewer than asked when the
            decision was interrupted.
        chosen: The action the search picked: the one :meth:`BuiltinBot.act` returned (not
            played if the decision was interrupted with Ctrl-C).
    """

    actions: npt.NDArray[np.int64]
    visits: npt.NDArray[np.int64]
    values: npt.NDArray[np.float64]
    choices: npt.NDArray[np.int64]
    iterations: int
    chosen: int

    @property
    def value(self) -> float:
        """The searching seat's value of the state: its mean reward over all the visits.

        The mean of ``values`` weighted by ``visits``, each choice counted once (the actions of
        one class share its visits and value); ``nan`` without any visit. A value target for
        the seat to move, on the scale of the bot's ``reward`` (``win``: a win share in
        ``[0, 1]``); the search keeps no value for the other seats.
        """
        rows = np.zeros(len(self.actions), dtype=np.int64)
        return float(_flat_values(rows, self.visits, self.values, self.choices)[0])

    def policy(
        self,
        temperature: float | np.floating[Any] | np.integer[Any] = 1.0,
        *,
        num_actions: int | np.integer[Any] | None = None,
    ) -> npt.NDArray[np.float64]:
        """The visit-count distribution over the legal actions (an AlphaZero-style target).

        Each choice gets a weight ``visits ** (1 / temperature)``, normalised to sum to 1, and a
        choice's probability is split equally among the actions that share it (each of those is
        equally likely to be the one played). ``temperature=0`` puts all the mass on the most
        visited choices (shared equally on a tie). Without any visit, every action gets the same
        probability.

        Args:
            temperature: A finite number ``>= 0``; 1 is proportional to the visits.
            num_actions: When given, the result is a dense vector of that length indexed by
                action id (zero for actions that are not legal), e.g. the game's
                ``num_actions`` for a policy network's target; otherwise it follows ``actions``.

        Returns:
            The probabilities, as float64.

        Raises:
            InvalidOptionError: On a negative or non-finite temperature, or a ``num_actions``
                that is not an int above every legal action.
        """
        temperature = _check_temperature(temperature)
        rows = np.zeros(len(self.actions), dtype=np.int64)
        probabilities = _flat_policy(rows, self.visits, self.choices, temperature)
        if num_actions is None:
            return probabilities
        above = int(self.actions.max(initial=-1)) + 1
        size = as_int(num_actions)
        if size is None or not above <= size <= _MAX_NUM_ACTIONS:
            raise InvalidOptionError(
                f"num_actions must be an int in {above}..={_MAX_NUM_ACTIONS} (above every legal "
                f"action), got {shown(num_actions)}"
            )
        dense = np.zeros(size, dtype=np.float64)
        dense[self.actions] = probabilities
        return dense


# Both the statistics of one decision and a whole batch's are computed by the two functions
# below, over "flat" arrays: the entries of every row one after the other, ``rows`` naming the row
# of each entry (rows in increasing order). A row's result does not depend on the other rows, so
# a batch's row is exactly its decision's.


def _choice_groups(
    rows: npt.NDArray[np.int64], choices: npt.NDArray[np.int64]
) -> tuple[npt.NDArray[np.intp], ...]:
    """The entries grouped by (row, choice), in that order.

    Returns:
        ``(first, inverse, members, segment, starts)``: per group its first entry, its number of
        entries and its row's segment (the rows with entries, numbered from 0); per entry its
        group; per segment its first group.
    """
    keys = rows * (int(choices.max(initial=0)) + 1) + choices
    _, first, inverse, members = np.unique(
        keys, return_index=True, return_inverse=True, return_counts=True
    )
    new_row = np.diff(rows[first], prepend=-1) != 0
    return first, inverse.reshape(-1), members, np.cumsum(new_row) - 1, np.flatnonzero(new_row)


def _flat_policy(
    rows: npt.NDArray[np.int64],
    visits: npt.NDArray[np.int64],
    choices: npt.NDArray[np.int64],
    temperature: float,
) -> npt.NDArray[np.float64]:
    """:meth:`SearchStats.policy` of every row, per entry (``temperature`` checked)."""
    first, inverse, members, segment, starts = _choice_groups(rows, choices)
    counts = visits[first].astype(np.float64)
    top = np.maximum.reduceat(counts, starts)[segment]
    if temperature == 0:
        weights = (counts == top).astype(np.float64)
    else:
        # Relative to the most visited choice, so that small temperatures do not overflow (a
        # ratio below 1 to a power that overflows is 0).
        with np.errstate(divide="ignore", over="ignore", invalid="ignore"):
            weights = np.exp(np.log(counts / top) / temperature)
    # A row without any visit: every action alike.
    weights = np.where(top == 0.0, members.astype(np.float64), weights)
    per_choice = weights / np.add.reduceat(weights, starts)[segment] / members
    probabilities: npt.NDArray[np.float64] = per_choice[inverse]
    return probabilities


def _flat_values(
    rows: npt.NDArray[np.int64],
    visits: npt.NDArray[np.int64],
    values: npt.NDArray[np.float64],
    choices: npt.NDArray[np.int64],
) -> npt.NDArray[np.float64]:
    """:attr:`SearchStats.value` of every row with entries, in order."""
    first, _, _, _, starts = _choice_groups(rows, choices)
    counts = visits[first].astype(np.float64)
    seen = counts > 0  # an unvisited choice's value is nan
    with np.errstate(invalid="ignore"):
        weighted = np.add.reduceat(np.where(seen, counts * values[first], 0.0), starts)
    total = np.add.reduceat(counts, starts)
    out: npt.NDArray[np.float64] = np.full(len(starts), math.nan)
    np.divide(weighted, total, out=out, where=total > 0)
    return out


def _engine_game(game: GameProtocol) -> _core.Game:
    """The engine's game of ``game`` (a game of either backend).

    Raises:
        InvalidOptionError: If ``game`` is not a game.
    """
    from cardtable import _core

    game_id, players = getattr(game, "game_id", None), getattr(game, "players", None)
    options = getattr(game, "options", None)
    if not isinstance(game_id, str) or not isinstance(options, Mapping) or players is None:
        raise InvalidOptionError(
            f"expected a game (cardtable.make(...)) to seat a bot in, got {shown(game):.80}"
        )
    return _core.Game(game_id, players, dict(options))


def _engine_state(game: _core.Game, state: StateProtocol) -> _core.State:
    """``state`` as an engine state of ``game`` (a reference state is rebuilt from its dict).

    Raises:
        IllegalActionError: If ``state`` is not a state of ``game`` (an engine state of another
            game is refused where the engine uses it).
    """
    from cardtable import _core

    if isinstance(state, _core.State):
        return state  # the engine checks that it is a state of the bot's game
    to_dict = getattr(state, "to_dict", None)
    data = to_dict() if callable(to_dict) else None
    if not isinstance(data, dict):
        raise IllegalActionError(f"this bot plays {game.game_id}, not {shown(state):.80}")
    if (data.get("game"), data.get("players"), data.get("options")) != (
        game.game_id,
        game.players,
        game.options,
    ):
        raise IllegalActionError(
            f"this bot plays {game.game_id} with {game.players} players and options "
            f"{game.options}, not that state's {data.get('game')} with {data.get('players')} "
            f"players and options {data.get('options')}"
        )
    return game.state_from_dict(data)


def _search_seeds(seed: object, count: int) -> int | list[int]:
    """:func:`search`'s ``seed``: one int for the batch, or a list of ``count`` (one per state).

    Raises:
        InvalidOptionError: On a seed that is not an int in ``0..2**64 - 1`` (or a sequence or
            1-d array of them), or a number of seeds other than ``count``.
    """
    if isinstance(seed, np.ndarray) and seed.ndim > 0:
        if seed.ndim != 1:
            raise InvalidOptionError(
                f"seed must be an int or one per state, got shape {seed.shape}"
            )
        seed = list(seed)
    if not isinstance(seed, list | tuple):
        return check_int("seed", seed, 0, MAX_SEED)
    seeds = [check_int(f"seed[{i}]", s, 0, MAX_SEED) for i, s in enumerate(seed)]
    if len(seeds) != count:
        raise InvalidOptionError(f"{len(seeds)} seeds given for {count} states")
    return seeds


def _stats_of(
    raw: tuple[list[int], list[int], list[float], list[int], int, int] | None,
) -> SearchStats | None:
    """The :class:`SearchStats` of the engine's tuple (``None`` stays ``None``)."""
    if raw is None:
        return None
    actions, visits, values, choices, iterations, chosen = raw
    stats = SearchStats(
        actions=np.array(actions, dtype=np.int64),
        visits=np.array(visits, dtype=np.int64),
        values=np.array(values, dtype=np.float64),
        choices=np.array(choices, dtype=np.int64),
        iterations=iterations,
        chosen=chosen,
    )
    for array in (stats.actions, stats.visits, stats.values, stats.choices):
        array.flags.writeable = False  # the statistics are a record of the decision
    return stats


class BuiltinBot:
    """A built-in bot seated in one game; works with states of either backend.

    It reads only what its seat's observation contains. A bot that keeps a memory (``greedy`` in
    Trafficars and in the overtaking lane, the memory game's ``forgetful``, the search bots)
    follows the game through :meth:`observe`: call it after every step, or at least before each
    of the bot's decisions; others ignore it. Seated
    with the seed ``simulate`` gives its seat, it plays exactly the game ``simulate`` plays
    (``docs/rng.md``).
    """

    def __init__(self, game: GameProtocol, name: str, seat: int, seed: int = 0) -> None:
        """Seats bot ``name`` (e.g. ``"greedy"``, ``"forgetful:0.2"``) in ``seat`` of ``game``.

        Raises:
            InvalidOptionError: On something that is not a game, an unknown bot, a bad parameter,
                seat or seed (an int in ``0..2**64 - 1``; not ``None``).
        """
        from cardtable import _core

        self._rust_game = _engine_game(game)
        self._bot = _core.Bot(self._rust_game, name, seat, seed)

    @property
    def name(self) -> str:
        """The bot's name."""
        return self._bot.name

    @property
    def seat(self) -> int:
        """The bot's seat."""
        return self._bot.seat

    def _rust_state(self, state: StateProtocol) -> _core.State:
        return _engine_state(self._rust_game, state)

    def act(self, state: StateProtocol) -> int:
        """The bot's action in ``state``, where it must be the bot's turn.

        Raises:
            IllegalActionError: If it is not the bot's turn or the state is of another game.
        """
        return self._bot.act(self._rust_state(state))

    def observe(self, state: StateProtocol) -> None:
        """Shows the bot the state after a step (for bots with memory).

        A bot with memory sees every step since the state it last saw, chance outcomes included,
        as in ``simulate``: when ``state``'s history continues that state's, each state in between
        is shown in turn (a seeded state resolves chance inside ``apply``, so a loop that calls
        this after each ``apply`` never holds those states itself). Otherwise (another game, an
        earlier point of this one) it sees ``state``'s game from its start, as a fresh bot would,
        so nothing it remembers of another game stays; only a state its own history does not lead
        to (a resampled state) is seen alone. :meth:`act` shows the bot nothing: a bot that is
        never asked to observe decides from the state it is given alone.

        Raises:
            IllegalActionError: If the state is of another game.
        """
        self._bot.observe(self._rust_state(state))

    def search_stats(self) -> SearchStats | None:
        """What the bot's latest :meth:`act` found per legal action, for a search bot.

        The visit counts and mean values of ``mcts``'s root (or ``flatmc``'s playouts per
        action), e.g. to train a policy on the search's choices (:meth:`SearchStats.policy`). They
        describe the latest decision until the next :meth:`act`.

        Returns:
            ``None`` for a bot that does not search, before its first decision, and after a
            decision that needed no search (a single legal action).
        """
        return _stats_of(self._bot.search_stats())

    def __reduce__(self) -> tuple[object, ...]:
        """A bot may hold a memory inside the engine and is not pickled or copied.

        Raises:
            InvalidStateError: Always; seat a new bot with ``cardtable.bot(...)`` instead.
        """
        raise InvalidStateError(
            "a built-in bot cannot be pickled or copied; seat a new one with cardtable.bot()"
        )


def split_bot_specs(text: str) -> list[str]:
    """Splits a comma-separated list of bot specs, keeping a search bot's parameters together.

    A piece of the form ``key=value`` after a spec with parameters continues that spec, so
    ``"mcts:iterations=1000,c=0.7,greedy"`` gives ``["mcts:iterations=1000,c=0.7", "greedy"]``.
    Empty pieces are dropped.

    Examples:
        >>> split_bot_specs("random, flatmc:samples=50,rollout=greedy")
        ['random', 'flatmc:samples=50,rollout=greedy']
    """
    specs: list[str] = []
    for piece in (p.strip() for p in text.split(",")):
        if not piece:
            continue
        if specs and ":" not in piece and "=" in piece and ":" in specs[-1]:
            specs[-1] += "," + piece
        else:
            specs.append(piece)
    return specs


def default_bot(game_id: str) -> str:
    """The game's heuristic bot: ``greedy``, else its first own bot, else ``random``.

    Its first own bot is its first built-in bot other than ``random`` (``memory`` in the memory
    game). The studies, ``cardtable play`` and ``cardtable replay`` seat it when no bot is named.

    Raises:
        InvalidOptionError: On an unknown game (the message lists the registered ones).

    Examples:
        >>> default_bot("turn_the_tide"), default_bot("trafficars_memory")
        ('greedy', 'memory')
    """
    from cardtable._api import game_info

    info = game_info(game_id)
    own = [name for name in info.bots if name != "random"]
    return "greedy" if "greedy" in own else next(iter(own), "random")


def bot(game: GameProtocol, name: str, seat: int, seed: int = 0) -> BuiltinBot:
    """Seats built-in bot ``name`` in ``seat`` of ``game`` (see ``cardtable.games()`` for names).

    Examples:
        >>> import cardtable
        >>> game = cardtable.make("turn_the_tide", players=3)
        >>> state = game.new_state(seed=1)
        >>> greedy = cardtable.bot(game, "greedy", seat=state.current_player)
        >>> greedy.act(state) in state.legal_actions()
        True
    """
    if not isinstance(name, str):
        raise InvalidOptionError(f"bot name must be a str, got {shown(name)}")
    return BuiltinBot(game, name, seat, seed)


@dataclass(frozen=True, eq=False)
class SearchBatch:
    """The decisions of :func:`search`: one per state, in the order of the states.

    Attributes:
        actions: Per state, the action the bot chose (int64).
        stats: Per state, the search's :class:`SearchStats`; ``None`` for a bot that does not
            search, and for a state with a single legal action (taken without a search).
        num_actions: The game's number of actions: the width of :meth:`policies` and
            :meth:`visits`.
    """

    actions: npt.NDArray[np.int64]
    stats: tuple[SearchStats | None, ...]
    num_actions: int

    def __len__(self) -> int:
        """The number of states."""
        return len(self.stats)

    def policies(
        self, temperature: float | np.floating[Any] | np.integer[Any] = 1.0
    ) -> npt.NDArray[np.float64]:
        """Every state's visit-count distribution as one ``[states, num_actions]`` array.

        Row ``i`` is ``stats[i].policy(temperature, num_actions=num_actions)``
        (:meth:`SearchStats.policy`); a state without statistics puts all its mass on the
        action chosen.

        Args:
            temperature: As for :meth:`SearchStats.policy`.

        Raises:
            InvalidOptionError: On a negative or non-finite temperature.
        """
        t = _check_temperature(temperature)
        out = np.zeros((len(self), self.num_actions), dtype=np.float64)
        bare = np.array([s is None for s in self.stats], dtype=np.bool_)
        out[bare, self.actions[bare]] = 1.0
        flat = self._flat
        if len(flat.rows):
            out[flat.rows, flat.actions] = _flat_policy(flat.rows, flat.visits, flat.choices, t)
        return out

    def visits(self) -> npt.NDArray[np.int64]:
        """Every state's visit counts as one ``[states, num_actions]`` array (int64).

        Entry ``[i, a]`` is ``stats[i].visits`` of action ``a``, 0 for an action that is not
        legal and for every action of a state without statistics (a row of zeros). With action
        classes every action of a class carries the class's count, so a row can add up to more
        than the iterations: use :meth:`policies` for distributions.
        """
        out = np.zeros((len(self), self.num_actions), dtype=np.int64)
        flat = self._flat
        out[flat.rows, flat.actions] = flat.visits
        return out

    def values(self) -> npt.NDArray[np.float64]:
        """Every state's :attr:`SearchStats.value` for the seat to move (float64, ``[states]``).

        ``nan`` for a state without statistics (a bot that does not search, a single legal
        action).
        """
        out = np.full(len(self), math.nan)
        flat = self._flat
        if len(flat.rows):
            searched = np.unique(flat.rows)
            out[searched] = _flat_values(flat.rows, flat.visits, flat.values, flat.choices)
        return out

    @functools.cached_property
    def _flat(self) -> _FlatStats:
        """Every state's statistics, one row after the other (see :func:`_flat_policy`)."""
        kept = [(i, s) for i, s in enumerate(self.stats) if s is not None]
        if not kept:
            empty = np.zeros(0, dtype=np.int64)
            return _FlatStats(empty, empty, empty, np.zeros(0), empty)
        lengths = [len(s.actions) for _, s in kept]
        return _FlatStats(
            rows=np.repeat(np.array([i for i, _ in kept], dtype=np.int64), lengths),
            actions=np.concatenate([s.actions for _, s in kept]),
            visits=np.concatenate([s.visits for _, s in kept]),
            values=np.concatenate([s.values for _, s in kept]),
            choices=np.concatenate([s.choices for _, s in kept]),
        )


class _FlatStats(NamedTuple):
    """The statistics of a batch's states in flat arrays: ``rows`` names each entry's state."""

    rows: npt.NDArray[np.int64]
    actions: npt.NDArray[np.int64]
    visits: npt.NDArray[np.int64]
    values: npt.NDArray[np.float64]
    choices: npt.NDArray[np.int64]


class SearchInterrupted(KeyboardInterrupt):
    """Ctrl-C (or ``progress`` returning ``False``) stopped :func:`search`: the decisions made.

    A ``KeyboardInterrupt``, so that a script stops as on any Ctrl-C; catch it to keep the labels
    of a long batch::

        try:
            batch = cardtable.search(game, states, "mcts:iterations=800")
        except cardtable.SearchInterrupted as stop:
            done = [states[i] for i in stop.indices]  # labelled by stop.batch, row by row

    Attributes:
        batch: The decisions made before the stop, one row per state of ``indices``, each the
            one the whole batch would have given (a search the stop cut short is not among them).
        indices: The positions in ``states`` of the states decided (int64, increasing).
        total: The number of states asked for.
    """

    def __init__(self, batch: SearchBatch, indices: npt.NDArray[np.int64], total: int) -> None:
        """The stop of a batch of ``total`` states, ``batch`` deciding those at ``indices``."""
        super().__init__(f"search stopped: {len(indices)} of {total} states decided")
        self.batch = batch
        self.indices = indices
        self.total = total


def search(
    game: GameProtocol,
    states: Sequence[StateProtocol],
    bot: str,
    *,
    seed: int | Sequence[int] | npt.NDArray[np.integer[Any]] = 0,
    threads: int | None = None,
    progress: bool | Callable[[int, int], object] = False,
) -> SearchBatch:
    """The decision of built-in bot ``bot`` in each of ``states``, on all cores.

    For every state a fresh bot is seated in the seat to move, shown the state's game from its
    start (as :meth:`BuiltinBot.observe`) and asked for its action, with the GIL released. State
    ``i``'s bot is seeded with ``derive_seed(seed, i)``, so row ``i`` is exactly what this gives,
    whatever the threads::

        b = cardtable.bot(game, bot, state.current_player, seed=cardtable.derive_seed(seed, i))
        b.observe(state)
        action, stats = b.act(state), b.search_stats()

    With a search bot (``mcts``, ``flatmc``) it labels states with the search's visit counts for
    training, e.g. ``search(game, states, "mcts:iterations=800").policies()``, and with a value
    for the seat to move (:meth:`SearchBatch.values`). With one ``seed`` a state's seed depends on
    its place in the list: a loop that searches batch after batch gives each call a seed of its
    own (e.g. the round's number), or its searches repeat the same random streams. With a seed
    per state (``seed=[...]``) each bot is seeded with its state's own, so that a state's label
    does not depend on which other states share its batch (e.g. the envs of a ``VectorEnv``
    with a decision to make).

    Args:
        game: The game of the states (``cardtable.make(...)``).
        states: States of ``game`` of either backend, each with a seat to move.
        bot: A built-in bot spec, e.g. ``"mcts:iterations=800"`` (``cardtable.games()`` lists
            every game's bots).
        seed: The batch's seed, an int in ``0..2**64 - 1`` (state ``i``'s bot gets
            ``derive_seed(seed, i)``), or one seed per state (a sequence or a 1-d integer array
            of ``len(states)`` ints in that range), each used as it is.
        threads: Worker threads (``None``: one per core).
        progress: Show a progress bar on standard error (``True``), nothing (``False``), or call
            ``progress(done, total)`` about ten times a second with the states decided so far;
            returning ``False`` from it stops the batch as Ctrl-C does.

    Returns:
        The actions and statistics, one per state.

    Raises:
        InvalidOptionError: On an unknown bot, a bad parameter, seed or thread count, a number
            of seeds other than the number of states, or a ``progress`` that is not ``True``,
            ``False`` or a callable taking ``(done, total)``.
        IllegalActionError: If a state is not of ``game``, or no seat is to move in it (a chance
            node, the end); the message names the state's index.
        SearchInterrupted: On Ctrl-C (or ``progress`` returning ``False``), which ends the
            searches in progress at once; it holds the decisions made before the stop (a
            ``KeyboardInterrupt``).

    Examples:
        >>> import cardtable
        >>> game = cardtable.make("goofspiel", players=2)
        >>> states = [game.new_state(seed=s) for s in range(4)]
        >>> batch = cardtable.search(game, states, "mcts:iterations=50", seed=1)
        >>> batch.policies().shape == (4, game.num_actions)
        True
    """
    from cardtable import _core
    from cardtable._simulation import Progress

    if not isinstance(bot, str):
        raise InvalidOptionError(f"bot must be a str, got {shown(bot)}")
    if isinstance(states, str | bytes) or not isinstance(states, Sequence):
        raise InvalidOptionError(f"states must be a sequence of states, got {shown(states):.80}")
    bar = Progress(progress, len(states), doing="searching", unit="states")  # checks progress
    threads = check_threads(threads)
    seeds = _search_seeds(seed, len(states))
    rust_game = _engine_game(game)
    # The bot is read before the states, as the engine reads them: the same refusal comes first
    # whatever the states' backend.
    _core.Bot(rust_game, bot, 0, 0)
    engine_states = []
    for i, state in enumerate(states):
        try:
            engine_states.append(_engine_state(rust_game, state))
        except IllegalActionError as e:
            raise IllegalActionError(f"state {i}: {e}") from None
    with bar as report:
        decided = _core.decide_all(
            rust_game,
            engine_states,
            bot=bot,
            seed=seeds,
            threads=threads,
            progress=report,
        )
    made = [d for d in decided if d is not None]
    actions = np.array([action for action, _ in made], dtype=np.int64)
    actions.flags.writeable = False  # a record of the decisions, as the statistics are
    batch = SearchBatch(
        actions=actions,
        stats=tuple(_stats_of(raw) for _, raw in made),
        num_actions=rust_game.num_actions,
    )
    if len(made) < len(decided):  # Ctrl-C, or the progress callback asked to stop
        indices = np.flatnonzero([d is not None for d in decided]).astype(np.int64)
        indices.flags.writeable = False
        raise SearchInterrupted(batch, indices, len(decided))
    return batch
