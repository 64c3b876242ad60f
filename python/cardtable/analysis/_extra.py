"""Refuses to import the studies without the ``analysis`` extra, naming it.

Imported first by ``cardtable.analysis``. The modules are looked for, not imported: SciPy is
imported when a study first needs it (``_stats.t_quantile``), so that ``cardtable`` commands
that run no study start quickly.
"""

from __future__ import annotations

from cardtable._extras import ANALYSIS_MODULES, require

require(ANALYSIS_MODULES, "analysis", "cardtable.analysis")
