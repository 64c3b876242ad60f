"""Property-test an implementation of our games written in any language against cardtable.

The implementation runs as a child process speaking a small protocol of JSON lines on its
standard input and output (``docs/conformance.md``; the JSON Schemas of every message ship in
``cardtable/conformance/schemas/``). :func:`check` lets Hypothesis choose every chance outcome and
action, compares both sides after every step and shrinks the first divergence::

    from cardtable.conformance import check, format_outcome

    outcome = check("turn_the_tide", "node my_tide.js", players=4, examples=500)
    print(format_outcome(outcome))
    assert outcome.ok

The command line is ``cardtable conformance GAME --cmd "node my_tide.js" --players 4``. Needs the
``conformance`` extra (``jsonschema``, ``hypothesis``).

This layer owns the protocol, the child-process harness and the comparison; our side is always
played through :func:`cardtable.make`. It holds no rules and must not import the reference
modules directly.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

from cardtable._inputs import shown
from cardtable.conformance.harness import (
    DEFAULT_TIMEOUT,
    ConformanceError,
    Exchange,
    Implementation,
    ProtocolError,
    RefusedError,
)
from cardtable.conformance.mapping import ActionMap, IdentityMap, MapLoadError, Node, load_map
from cardtable.conformance.protocol import (
    FIELDS,
    MAX_DEPTH,
    MAX_LINE_BYTES,
    PROTOCOL_VERSION,
    REQUIRED_FIELDS,
    load_schema,
)

if TYPE_CHECKING:
    from cardtable.conformance.report import format_outcome
    from cardtable.conformance.reproducer import (
        Reproducer,
        load_reproducer,
        read_reproducer,
        reproducer_data,
        write_reproducer,
    )
    from cardtable.conformance.runner import (
        Difference,
        Divergence,
        Outcome,
        Target,
        check,
        check_replay,
        replay_history,
    )

# Loaded when first used, so that the command line starts without importing Hypothesis.
_LAZY = {
    "format_outcome": "report",
    "Reproducer": "reproducer",
    "load_reproducer": "reproducer",
    "read_reproducer": "reproducer",
    "reproducer_data": "reproducer",
    "write_reproducer": "reproducer",
    "Difference": "runner",
    "Divergence": "runner",
    "Outcome": "runner",
    "Target": "runner",
    "check": "runner",
    "check_replay": "runner",
    "replay_history": "runner",
}


def __getattr__(name: str) -> Any:
    if name in _LAZY:
        return getattr(importlib.import_module(f"{__name__}.{_LAZY[name]}"), name)
    raise AttributeError(f"module {shown(__name__)} has no attribute {shown(name)}")


__all__ = [
    "DEFAULT_TIMEOUT",
    "FIELDS",
    "MAX_DEPTH",
    "MAX_LINE_BYTES",
    "PROTOCOL_VERSION",
    "REQUIRED_FIELDS",
    "ActionMap",
    "ConformanceError",
    "Difference",
    "Divergence",
    "Exchange",
    "IdentityMap",
    "Implementation",
    "MapLoadError",
    "Node",
    "Outcome",
    "ProtocolError",
    "RefusedError",
    "Reproducer",
    "Target",
    "check",
    "check_replay",
    "format_outcome",
    "load_map",
    "load_reproducer",
    "load_schema",
    "read_reproducer",
    "replay_history",
    "reproducer_data",
    "write_reproducer",
]
