"""The state-machine protocol every backend follows (Rust, reference, or your own).

Any object with these members can be driven by :mod:`cardtable.testing`, so an implementation of
your own can be property-tested against ours without inheriting from anything. ``docs/testing.md``
says which members each compared field needs; each game's contract (``docs/games/<game_id>.md``)
gives its action ids, observation and canonical state.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Protocol, Self, runtime_checkable

import numpy as np
import numpy.typing as npt

__all__ = ["RULES_FIELDS", "GameProtocol", "RulesGame", "RulesState", "StateProtocol"]

RULES_FIELDS: tuple[str, ...] = (
    "current_player",
    "is_terminal",
    "legal_actions",
    "chance_outcomes",
    "scores",
    "winners",
)
"""What any implementation of the rules must agree on, whatever its own state and observation
formats: a sensible choice of ``fields`` for checking an engine of your own against ours (the
default of :func:`cardtable.testing.equivalence_test`). :data:`cardtable.testing.ALL_FIELDS` adds
``is_chance_node``, ``history``, ``to_dict``, ``observations``, ``observation_tensors`` and
``legal_action_mask``."""


@runtime_checkable
class RulesState(Protocol):
    """The least a state must offer to be checked with :data:`cardtable.testing.RULES_FIELDS`.

    An engine of your own needs nothing more to be property-tested against ours with
    ``fields=RULES_FIELDS``; the fields it is compared on decide which further members it needs
    (e.g. ``to_dict`` for ``"to_dict"``, ``history`` for ``"history"``; the default of
    :func:`cardtable.testing.assert_equivalent` and :func:`~cardtable.testing.compare_states`,
    ``ALL_FIELDS``, needs ``is_chance_node``, ``history``, ``to_dict``, ``observation``,
    ``observation_tensor`` and ``legal_action_mask`` of :class:`StateProtocol`, in our formats).
    ``clone`` and ``history`` are optional: :func:`cardtable.testing.equivalence_test` checks a
    ``clone`` if the state has one (an independent copy), and compares ``history`` after a seeded
    start if both states have one.

    :func:`cardtable.testing.equivalence_test` also applies actions that are not legal: ``apply``
    must then raise :class:`cardtable.errors.IllegalActionError` (or a subclass: ``from
    cardtable.errors import IllegalActionError``) and leave the state unchanged.
    """

    @property
    def current_player(self) -> int:
        """The seat to move, ``CHANCE`` (-1) or ``TERMINAL`` (-2)."""
        ...

    @property
    def is_terminal(self) -> bool:
        """Whether the game is over."""
        ...

    def legal_actions(self) -> list[int]:
        """Sorted legal actions, or the chance outcomes at a chance node."""
        ...

    def chance_outcomes(self) -> list[tuple[int, float]]:
        """``(outcome, probability)`` pairs at a chance node (in any order), else ``[]``."""
        ...

    def apply(self, action: int, player: int | None = None) -> None:
        """Applies an action or chance outcome.

        One that is not legal here (not in ``legal_actions()``, out of range, after the end)
        raises :class:`cardtable.errors.IllegalActionError` (or a subclass) and leaves the state
        unchanged.
        """
        ...

    @property
    def scores(self) -> list[int]:
        """Running points per seat."""
        ...

    @property
    def winners(self) -> list[int]:
        """The winning seats (empty before the end), in any order: they compare sorted."""
        ...


@runtime_checkable
class RulesGame(Protocol):
    """The least a game must offer to be checked against ours (see :class:`RulesState`)."""

    @property
    def players(self) -> int:
        """The number of players."""
        ...

    def new_state(self, seed: int | None = None) -> RulesState:
        """Starts a game (``seed=None``: explicit chance nodes)."""
        ...


@runtime_checkable
class StateProtocol(RulesState, Protocol):
    """One game in progress: the state machine of ``README.md`` ("The API").

    A :class:`RulesState` (whose members it inherits) with everything else our states offer.
    ``docs/testing.md`` lists which of these members each field of
    :data:`cardtable.testing.ALL_FIELDS` needs.
    """

    @property
    def is_chance_node(self) -> bool:
        """Whether a chance outcome is due."""
        ...

    def apply(self, action: int, player: int | None = None) -> None:
        """Applies an action or chance outcome.

        Raises :class:`~cardtable.errors.IllegalActionError` on one that is not legal, and the
        state is then unchanged.
        """
        ...

    def action_label(self, action: int) -> str:
        """A readable label of an action id."""
        ...

    def observation(self, player: int) -> Mapping[str, Any]:
        """What seat ``player`` may know, JSON-compatible."""
        ...

    def observation_tensor(self, player: int) -> npt.NDArray[np.float32]:
        """``observation(player)`` encoded as a float32 array of the game's observation shape."""
        ...

    def legal_action_mask(self) -> npt.NDArray[np.bool_]:
        """A bool array of length ``num_actions``, ``True`` exactly at ``legal_actions()``."""
        ...

    def to_dict(self) -> dict[str, Any]:
        """The canonical full state, a JSON dict with the same keys on both of our backends.

        ``game`` (the game id), ``players``, ``options`` (every option with its effective value),
        ``history`` (as :attr:`history`), ``rng`` (the SplitMix64 generator's state after a seeded
        start, ``None`` without a seed; ``docs/rng.md``) and ``state`` (the game's canonical state,
        listed by its contract, ``docs/games/<game_id>.md``).
        """
        ...

    @property
    def history(self) -> list[int]:
        """Every applied action and chance outcome (ints), also those a seeded state drew."""
        ...

    def clone(self) -> Self:
        """An independent copy: playing on either changes nothing of the other."""
        ...

    def rule_events_of(self, action: int) -> list[str]:
        """The rule events (the contract's "Rule events") that applying ``action`` would trigger.

        In the order of the game's event names; the state is unchanged. Raises
        ``IllegalActionError`` as :meth:`apply` would.
        """
        ...

    def resample(self, observer: int, seed: int) -> Self:
        """A full state sampled from what seat ``observer`` can know here (a determinization).

        It has the same observation for ``observer`` and depends on this state only through
        what that seat can know. Rust backend only, for games with a determinizer (see
        ``GameInfo.search_bots``); otherwise :class:`~cardtable.errors.InvalidOptionError`.
        """
        ...


@runtime_checkable
class GameProtocol(RulesGame, Protocol):
    """A game with fixed options that creates states.

    A :class:`RulesGame` (whose members it inherits) with everything else our games offer.
    """

    @property
    def game_id(self) -> str:
        """The registered game id."""
        ...

    @property
    def num_actions(self) -> int:
        """The size of the action space (ids ``0..num_actions-1``)."""
        ...

    @property
    def options(self) -> dict[str, Any]:
        """Every option with its effective value."""
        ...

    @property
    def observation_shape(self) -> tuple[int, ...]:
        """The shape of ``state.observation_tensor(p)``."""
        ...

    def new_state(self, seed: int | None = None) -> StateProtocol:
        """Starts a game; with ``seed`` chance nodes resolve themselves."""
        ...

    def state_from_dict(self, data: Mapping[str, Any]) -> StateProtocol:
        """Rebuilds a state from :meth:`StateProtocol.to_dict` output."""
        ...
