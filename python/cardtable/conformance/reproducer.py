"""Reproducer files: everything needed to replay a divergence, as JSON.

``cardtable conformance --replay FILE`` reads one back, plays its history on both sides and reports
whether they still disagree.
"""

from __future__ import annotations

import hashlib
import json
import os
from pathlib import Path
from typing import Any

from cardtable._inputs import check_path
from cardtable.conformance.harness import ConformanceError, shorten
from cardtable.conformance.protocol import check_fields
from cardtable.conformance.runner import Outcome, Target
from cardtable.errors import InvalidOptionError

__all__ = ["FORMAT", "check_out_dir", "read_reproducer", "reproducer_data", "write_reproducer"]

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
        "fields": outcome.fields or None,  # none compared yet: the command failed at once
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


def check_out_dir(directory: Any) -> Path:
    """``directory`` as a path, if reproducers can be written there.

    It is a directory, or does not exist yet (it is created when a reproducer is written) under a
    directory; either must be writable.

    Raises:
        cardtable.errors.InvalidOptionError: For anything else: not a path, a path through a file
            or a dangling symbolic link, a directory we may not write to.
    """
    path = Path(check_path(directory, "the output directory"))
    existing = path
    while not os.path.lexists(existing) and existing != existing.parent:
        existing = existing.parent
    if not existing.is_dir():
        dangling = existing.is_symlink() and not existing.exists()
        problem = "a dangling symbolic link" if dangling else "not a directory"
    elif not os.access(existing, os.W_OK | os.X_OK):
        problem = "not writable"
    else:
        return path
    raise InvalidOptionError(f"cannot write reproducers to {path}: {existing} is {problem}")


def write_reproducer(outcome: Outcome, directory: Path) -> Path:
    """Writes the reproducer of ``outcome`` to ``directory`` (created if missing); returns its path.

    The name ends with a hash of the configuration and history, so the same finding is written once.

    Raises:
        cardtable.errors.InvalidOptionError: If ``directory`` is not as :func:`check_out_dir` wants.
        ConformanceError: If the file cannot be written all the same (say, the disk is full).
    """
    directory = check_out_dir(directory)
    data = reproducer_data(outcome)
    key = json.dumps([data["game"], data["players"], data["options"], data["history"]])
    digest = hashlib.sha256(key.encode()).hexdigest()[:10]
    path = directory / f"conformance-{data['game']}-{digest}.json"
    try:
        directory.mkdir(parents=True, exist_ok=True)
        path.write_text(json.dumps(data, indent=2) + "\n", encoding="utf-8")
    except OSError as err:
        raise ConformanceError(f"cannot write the reproducer {path}: {err}") from None
    return path


def read_reproducer(path: Path) -> tuple[Target, list[int], list[str] | None]:
    """Reads a reproducer: the target, the history to replay, and the fields it compared.

    Every key must hold what :func:`write_reproducer` writes: ``history`` a list of integers (no
    bools, floats or strings), ``fields`` ``null`` or a non-empty list of known field names.

    Raises:
        ConformanceError: If the file is missing, not JSON, or not a valid reproducer.
    """
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError, RecursionError) as err:  # JSONDecodeError, UnicodeDecodeError
        raise ConformanceError(f"cannot read the reproducer {path}: {err}") from None
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        raise ConformanceError(f"{path} is not a reproducer ({FORMAT})")
    try:
        target = Target(
            game_id=_get(data, "game", str),
            players=_get(data, "players", int),
            options=_get(data, "options", dict),
            command=_get(data, "command", str),
            map_spec=_get(data, "map", str, None),
            backend=_get(data, "backend", str, "rust"),
        )
        history = _get(data, "history", list)
        bad = [a for a in history if type(a) is not int]
        if bad:
            raise ValueError(f"'history' must hold integer action ids only, not {bad[0]!r}")
        fields = _get(data, "fields", list, None)
        if fields is not None:
            fields = check_fields(fields)
    except ValueError as err:  # InvalidOptionError too
        raise ConformanceError(f"{path} is not a valid reproducer: {err}") from None
    return target, history, fields


_MISSING = object()
_KINDS = {str: "a string", int: "an integer", dict: "an object", list: "a list"}


def _get(data: dict[str, Any], key: str, kind: type, default: Any = _MISSING) -> Any:
    """``data[key]``, if it is of exactly ``kind`` (or ``default``, if given, when absent or null).

    Raises:
        ValueError: If it is missing or of another type.
    """
    value = data.get(key)
    if value is None and default is not _MISSING:
        return default
    if type(value) is not kind:
        what = "missing" if key not in data else f"{shorten(json.dumps(value), 60)}"
        raise ValueError(f"{key!r} must be {_KINDS[kind]}, not {what}")
    return value
