"""Balance studies: tournaments on duplicate deals, seat balance, luck, and option sweeps.

Every study runs its games in Rust through :func:`cardtable.simulate`; the statistics use SciPy
and the ratings openskill (``pip install "cardtable[analysis]"``). See ``docs/studies.md``.

This layer owns the study designs and their statistics; it must not play games itself (only
through :func:`cardtable.simulate` and the public API) nor import the reference implementations.
"""

from __future__ import annotations

from cardtable.analysis import _extra  # noqa: F401 (first: it says which extra is missing)
from cardtable.analysis._differences import Difference, PairedDifference
from cardtable.analysis._stats import Estimate
from cardtable.analysis._trace import GameTrace, replay, replayable
from cardtable.analysis.balance import BalanceResult, balance
from cardtable.analysis.sweep import SweepResult, sweep
from cardtable.analysis.tournament import TournamentResult, tournament

__all__ = [
    "BalanceResult",
    "Difference",
    "Estimate",
    "GameTrace",
    "PairedDifference",
    "SweepResult",
    "TournamentResult",
    "balance",
    "replay",
    "replayable",
    "sweep",
    "tournament",
]
