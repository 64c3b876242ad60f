"""Reproducer files: everything needed to replay a divergence, as JSON.

``cardtable conformance --replay FILE`` reads one back, plays its history on both sides and reports
whether they still disagree.
"""

from __future__ import annotations

import hashlib
import json
import os
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from cardtable._inputs import check_path, shown
from cardtable.conformance.harness import ConformanceError, shorten
from cardtable.conformance.protocol import check_fields
from cardtable.conformance.runner import Outcome, Target
from cardtable.errors import InvalidOptionError

__all__ = [
    "FORMAT",
    "Reproducer",
    "check_out_dir",
    "load_reproducer",
    "read_reproducer",
    "reproducer_data",
    "write_reproducer",
]

FORMAT = "cardtable-conformance-reproducer/1"
"""The ``format`` key of every reproducer file."""


def reproducer_data(outcome: Outcome) -> dict[str, Any]:
    """The reproducer of an outcome that failed (a divergence or a protocol error).

    Either way it holds the games the same process played before the failing one, when the
    failure needs them (``outcome.earlier_games``).
    """
    target = outcome.target
    data: dict[str, Any] = {
        "format": FORMAT,
        "game": target.game_id,
        "players": target.players,
        "options": target.options,
        "command": target.command,
        "map": target.map_spec,
        "backend": target.backend,
        "reference": target.reference,
        "cwd": target.cwd,
        "fields": outcome.fields or None,  # none compared yet: the command failed at once
    }
    if outcome.divergence is not None:
        d = outcome.divergence
        data["history"] = d.history
        data["earlier_games"] = outcome.earlier_games
        data["found"] = {
            "differences": [str(x) for x in d.differences],
            "cardtable": _writable(d.ours),
            "implementation": _writable(d.theirs),
            "sections": d.sections,
        }
    else:
        data["history"] = outcome.history
        data["earlier_games"] = outcome.earlier_games
        data["found"] = {"protocol_error": outcome.error.describe() if outcome.error else None}
    return data


def _writable(value: Any, depth: int = 0) -> Any:
    """``value`` with each int too long for Python to write as its description.

    An int over 4,300 digits (Python's default limit) becomes ``"<an int of about N digits>"``:
    what was found is for reading, and such an int could not be written (nor read back).
    """
    if depth > 100:  # deeper than JSON is written here: left as it is, for json to refuse
        return value
    if isinstance(value, dict):
        return {k: _writable(v, depth + 1) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [_writable(v, depth + 1) for v in value]
    if isinstance(value, int) and not isinstance(value, bool):
        text = shown(value)  # its digits, or "<an int of about N digits>" if Python will not
        return text if text.startswith("<") else value
    return value


def _finding(outcome: Outcome) -> list[Any]:
    """What was found, for the file name: the fields that differ, or the protocol error's kind."""
    if outcome.divergence is not None:
        return ["divergence", sorted({d.where for d in outcome.divergence.differences})]
    return ["protocol_error", outcome.error.kind if outcome.error else None]


def _text(data: dict[str, Any]) -> str:
    """The file's text: indented, each history on one line (the earlier games can be many)."""
    lines = []
    for key, value in data.items():
        if key in ("history", "earlier_games"):
            body = json.dumps(value) if key == "history" else _games(value)
        else:
            body = json.dumps(value, indent=2).replace("\n", "\n  ")
        lines.append(f"  {json.dumps(key)}: {body}")
    return "{\n" + ",\n".join(lines) + "\n}\n"


def _games(games: list[list[int]]) -> str:
    if not games:
        return "[]"
    return "[\n" + ",\n".join(f"    {json.dumps(game)}" for game in games) + "\n  ]"


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

    The name ends with a hash of the configuration (the command, map, backend and reference
    included), the histories and what was found (the fields that differ, or the kind of protocol
    error), so the same finding is written once and different findings never overwrite each other.

    Raises:
        cardtable.errors.InvalidOptionError: If ``directory`` is not as :func:`check_out_dir` wants.
        ConformanceError: If the file cannot be written all the same (say, the disk is full, or
            a value of the outcome cannot be written as JSON).
    """
    directory = check_out_dir(directory)
    data = reproducer_data(outcome)
    path = directory / f"conformance-{data['game']}.json"
    try:
        config = [data[key] for key in ("game", "players", "options", "command", "map", "backend")]
        if data["reference"] is not None:  # the names of findings against ours stay as they were
            config.append(data["reference"])
        key = json.dumps([*config, data["history"], data["earlier_games"], _finding(outcome)])
        digest = hashlib.sha256(key.encode()).hexdigest()[:10]
        path = directory / f"conformance-{data['game']}-{digest}.json"
        text = _text(data)
        directory.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    except (OSError, ValueError, TypeError, RecursionError) as err:
        raise ConformanceError(f"cannot write the reproducer {path}: {err}") from None
    return path


@dataclass(frozen=True)
class Reproducer:
    """A reproducer file read back: what :func:`~cardtable.conformance.replay_history` replays.

    Attributes:
        target: The game configuration and command.
        history: The game to replay.
        fields: The fields compared (``None``: everything the implementation declares).
        earlier_games: The games the same process played first (replayed before ``history``).
    """

    target: Target
    history: list[int]
    fields: list[str] | None
    earlier_games: list[list[int]]


def read_reproducer(path: Path) -> tuple[Target, list[int], list[str] | None]:
    """Reads a reproducer: the target, the history to replay, and the fields it compared.

    As :func:`load_reproducer`, without the earlier games.

    Raises:
        ConformanceError: If the file is missing, not JSON, or not a valid reproducer.
    """
    found = load_reproducer(path)
    return found.target, found.history, found.fields


def load_reproducer(path: Path) -> Reproducer:
    """Reads a reproducer, the earlier games included.

    Every key must hold what :func:`write_reproducer` writes: ``history`` a list of integers (no
    bools, floats or strings), ``earlier_games`` absent, ``null`` or a list of such lists,
    ``fields`` ``null`` or a non-empty list of known field names, ``reference`` absent, ``null`` or
    a string (``--reference``).

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
            reference=_get(data, "reference", str, None),
            cwd=_get(data, "cwd", str, None),
        )
        history = _ids(_get(data, "history", list), "'history'")
        earlier = _get(data, "earlier_games", list, None) or []
        for i, game in enumerate(earlier):
            if type(game) is not list:
                raise ValueError(f"'earlier_games' must hold lists, not {_shown(game)}")
            _ids(game, f"'earlier_games'[{i}]")
        fields = _get(data, "fields", list, None)
        if fields is not None:
            fields = check_fields(fields)
    except ValueError as err:  # InvalidOptionError too
        raise ConformanceError(f"{path} is not a valid reproducer: {err}") from None
    return Reproducer(target, history, fields, earlier)


def _ids(history: list[Any], name: str) -> list[int]:
    bad = [a for a in history if type(a) is not int]
    if bad:
        raise ValueError(f"{name} must hold integer action ids only, not {shown(bad[0])}")
    return history


def _shown(value: Any) -> str:
    return shorten(json.dumps(value), 60)


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
        what = "missing" if key not in data else _shown(value)
        raise ValueError(f"{shown(key)} must be {_KINDS[kind]}, not {what}")
    return value
