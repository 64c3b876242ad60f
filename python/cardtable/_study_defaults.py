"""Defaults of the studies that the command line shows without importing them.

A leaf module: ``cardtable study --help`` reads these without the ``analysis`` extra, which
``cardtable.analysis`` needs.
"""

from __future__ import annotations

__all__ = ["MAX_RATING_BOOTSTRAP", "MIN_RATING_BOOTSTRAP", "RATING_BOOTSTRAP", "RATING_GAMES"]

RATING_BOOTSTRAP = 100
"""Bootstrap replicates of the rating intervals, by default."""
MIN_RATING_BOOTSTRAP = 50
"""The fewest bootstrap replicates a tournament takes (0 takes none: no rating intervals). A 95%
interval's ends are the replicates' 2.5th and 97.5th percentiles: of fewer than 50 they are
little more than the lowest and highest replicate, and the interval would claim a confidence it
does not have."""
MAX_RATING_BOOTSTRAP = 10_000
"""The most bootstrap replicates a tournament takes: a replicate refits every rated game, so a
huge count would run for days with its progress bar already full."""
RATING_GAMES = 500
"""Games rated per fit, by default."""
