"""The conformance protocol: message names, fields and the JSON Schemas every message follows.

One JSON object per line in each direction. The implementation answers the requests in the order
they come; every answer repeats its request's ``id``. See ``docs/conformance.md``.
"""

from __future__ import annotations

import json
from functools import cache
from importlib import resources
from typing import Any

from cardtable._inputs import shown
from cardtable.errors import InvalidOptionError
from cardtable.protocols import RULES_FIELDS

__all__ = [
    "FIELDS",
    "MAX_DEPTH",
    "MAX_LINE_BYTES",
    "PROTOCOL_VERSION",
    "REQUIRED_FIELDS",
    "SCHEMA_NAMES",
    "answer_schema",
    "check_fields",
    "load_schema",
    "schema_errors",
]

PROTOCOL_VERSION = 1
"""The protocol version exchanged in ``hello``."""

MAX_LINE_BYTES = 64 * 1024 * 1024
"""The longest answer line allowed, in bytes of UTF-8 without its newline (64 MiB).

Far above any legitimate answer (a query answer with every observation takes kilobytes): the
harness stops reading a longer line, newline or not, and reports a ``too_long`` protocol error.
"""

MAX_DEPTH = 100
"""The deepest an answer may nest arrays and objects (the answer itself is level 1).

Far above any legitimate answer (an observation nests a few levels): a deeper one is a
``bad_json`` protocol error, so that no deeply nested value reaches the comparison or the report.
"""

FIELDS: tuple[str, ...] = (*RULES_FIELDS, "observations")
"""Every field a ``query`` can ask for, in the order reports list them."""

REQUIRED_FIELDS: tuple[str, ...] = ("current_player", "is_terminal", "legal_actions")
"""The fields every implementation must answer."""

SCHEMA_NAMES: tuple[str, ...] = (
    "hello.request",
    "hello.response",
    "new_game.request",
    "apply.request",
    "query.request",
    "query.response",
    "ok.response",
    "error.response",
    "quit.request",
)
"""The messages, each with its schema ``schemas/<name>.json`` inside this package."""


def check_fields(fields: Any) -> list[str]:
    """The fields to compare, as a list, if ``fields`` names at least one field, each known.

    Args:
        fields: A list or tuple of names from :data:`FIELDS`.

    Raises:
        InvalidOptionError: For anything else: a string, an unknown name, an empty list.
    """
    if not isinstance(fields, (list, tuple)) or not fields:
        raise InvalidOptionError(
            f"fields must be a non-empty list of field names, got {shown(fields)}"
        )
    unknown = [f for f in fields if not isinstance(f, str) or f not in FIELDS]
    if unknown:
        raise InvalidOptionError(
            f"unknown fields {shown(unknown)}; choose from {', '.join(FIELDS)}"
        )
    return list(fields)


_ANSWERS = {
    "hello": "hello.response",
    "new_game": "ok.response",
    "apply": "ok.response",
    "query": "query.response",
    "quit": "ok.response",
}


@cache
def load_schema(name: str) -> dict[str, Any]:
    """The JSON Schema of one message (``"query.response"``, ...), as shipped in the package.

    Raises:
        KeyError: For a name not in :data:`SCHEMA_NAMES`.
    """
    if name not in SCHEMA_NAMES:
        raise KeyError(f"no schema {shown(name)}; choose from {list(SCHEMA_NAMES)}")
    text = resources.files(__package__).joinpath("schemas", f"{name}.json").read_text("utf-8")
    schema: dict[str, Any] = json.loads(text)
    return schema


@cache
def _validator(name: str) -> Any:
    from jsonschema import Draft202012Validator  # type: ignore[import-untyped]

    return Draft202012Validator(load_schema(name))


def answer_schema(request_type: str, answer: dict[str, Any]) -> str:
    """The schema an answer to ``request_type`` must follow (``error.response`` for errors)."""
    if answer.get("type") == "error":
        return "error.response"
    return _ANSWERS[request_type]


def _int(value: Any, low: int) -> bool:
    return type(value) is int and value >= low


def _number(value: Any) -> bool:
    return type(value) in (int, float)


def _move(value: Any) -> bool:
    return type(value) is str or _int(value, 0)


def _list(value: Any, item: Any) -> bool:
    return type(value) is list and all(item(v) for v in value)


def _outcome(value: Any) -> bool:
    return (
        type(value) is list
        and len(value) == 2
        and _move(value[0])
        and _number(value[1])
        and (value[1] > 0)
    )


_STATE_CHECKS: dict[str, Any] = {
    "current_player": lambda v: _int(v, -2),
    "is_terminal": lambda v: type(v) is bool,
    "legal_actions": lambda v: _list(v, _move),
    "chance_outcomes": lambda v: _list(v, _outcome),
    "scores": lambda v: _list(v, _number),
    "winners": lambda v: _list(v, lambda w: _int(w, 0)),
    "observations": lambda v: _list(v, lambda o: type(o) is dict),
}


def _surely_valid(name: str, message: Any) -> bool:
    """A quick check of the two answers that come with every step.

    ``True`` only for messages the schema accepts; anything else goes to the full validator,
    which says what is wrong.
    """
    if type(message) is not dict or not _int(message.get("id"), 1):
        return False
    if name == "ok.response":
        return message.get("type") == "ok"
    if name == "query.response":
        return message.get("type") == "state" and all(
            check(message[key]) for key, check in _STATE_CHECKS.items() if key in message
        )
    return False


def schema_errors(name: str, message: Any) -> list[str]:
    """Every way ``message`` violates the schema ``name``, one readable line each (empty: valid)."""
    if _surely_valid(name, message):
        return []
    errors = sorted(_validator(name).iter_errors(message), key=lambda e: list(e.absolute_path))
    lines = []
    for error in errors:
        where = "".join(f"[{shown(p)}]" for p in error.absolute_path) or "(the message)"
        lines.append(f"{where}: {error.message}")
    return lines
