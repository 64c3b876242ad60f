"""cardtable: exact, fast rules engines for tabletop card games.

Quick start::

    import cardtable
    game = cardtable.make("turn_the_tide", players=4)   # Rust engine
    state = game.new_state(seed=7)
    while not state.is_terminal:
        state.apply(state.legal_actions()[0])
    print(state.scores, state.winners)

The same API is offered by the pure-Python reference (``backend="reference"``), which reads like the
rulebook and behaves identically.
"""

from __future__ import annotations

from cardtable import render
from cardtable._api import CHANCE, TERMINAL, Backend, GameInfo, OptionInfo, game_info, games, make
from cardtable._version import VERSION
from cardtable.bots import BuiltinBot, SearchBatch, SearchInterrupted, SearchStats, bot, search
from cardtable.errors import (
    CapacityError,
    CardtableError,
    IllegalActionError,
    InvalidOptionError,
    InvalidStateError,
)
from cardtable.protocols import GameProtocol, StateProtocol
from cardtable.render import Replay, replay
from cardtable.sim import PolicyBatch, SimulationResult, derive_seed, simulate
from cardtable.vector import VectorEnv

__all__ = [
    "CHANCE",
    "TERMINAL",
    "Backend",
    "BuiltinBot",
    "CapacityError",
    "CardtableError",
    "GameInfo",
    "GameProtocol",
    "IllegalActionError",
    "InvalidOptionError",
    "InvalidStateError",
    "OptionInfo",
    "PolicyBatch",
    "Replay",
    "SearchBatch",
    "SearchInterrupted",
    "SearchStats",
    "SimulationResult",
    "StateProtocol",
    "VectorEnv",
    "bot",
    "derive_seed",
    "game_info",
    "games",
    "make",
    "render",
    "replay",
    "search",
    "simulate",
]

__version__ = VERSION
