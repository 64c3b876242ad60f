"""Reproducer files: everything needed to replay a divergence, as JSON.

``cardtable conformance --replay FILE`` reads one back, plays its history on both sides and reports
whether they still disagree.
"""

from __future__ import annotations

import hashlib
import json
from pathlib import Path
from typing import Any

from cardtable.conformance.harness import ConformanceError
from cardtable.conformance.runner import Outcome, Target

__all__ = ["FORMAT", "read_reproducer", "reproducer_data", "write_reproducer"]

FORMAT = "cardtable-conformance-reproducer/1"
"""The ``format`` key of every reproducer file."""


def reproducer_data(outcome: Outcome) -> dict[str, Any]:
    """The reproducer of an outcome that failed (a divergence or a protocol error)."""
    target = outcome.target
    data: dict[str, Any] = {
        "format": FORMAT,
        "game": target.game_id,
        "players": target.players,
        "options": target.options,
        "command": target.command,
        "map": target.map_spec,
        "backend": target.backend,
        "fields": outcome.fields,
    }
    if outcome.divergence is not None:
        d = outcome.divergence
        data["history"] = d.history
        data["found"] = {
            "differences": [str(x) for x in d.differences],
            "cardtable": d.ours,
            "implementation": d.theirs,
            "sections": d.sections,
        }
    else:
        data["history"] = outcome.history
        data["found"] = {"protocol_error": outcome.error.describe() if outcome.error else None}
    return data


def write_reproducer(outcome: Outcome, directory: Path) -> Path:
    """Writes the reproducer of ``outcome`` to ``directory``; returns its path.

    The name ends with a hash of the configuration and history, so the same finding is written once.
    """
    data = reproducer_data(outcome)
    key = json.dumps([data["game"], data["players"], data["options"], data["history"]])
    digest = hashlib.sha256(key.encode()).hexdigest()[:10]
    directory.mkdir(parents=True, exist_ok=True)
    path = directory / f"conformance-{data['game']}-{digest}.json"
    path.write_text(json.dumps(data, indent=2) + "\n", encoding="utf-8")
    return path


def read_reproducer(path: Path) -> tuple[Target, list[int], list[str] | None]:
    """Reads a reproducer: the target, the history to replay, and the fields it compared.

    Raises:
        ConformanceError: If the file is missing, not JSON, or not a reproducer.
    """
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, json.JSONDecodeError) as err:
        raise ConformanceError(f"cannot read the reproducer {path}: {err}") from None
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        raise ConformanceError(f"{path} is not a reproducer ({FORMAT})")
    try:
        target = Target(
            game_id=str(data["game"]),
            players=int(data["players"]),
            options=dict(data["options"]),
            command=str(data["command"]),
            map_spec=data.get("map"),
            backend=str(data.get("backend", "rust")),
        )
        history = [int(a) for a in data["history"]]
        fields = data.get("fields")
    except (KeyError, TypeError, ValueError) as err:
        raise ConformanceError(f"{path} is not a valid reproducer: {err!r}") from None
    return target, history, [str(f) for f in fields] if fields else None
