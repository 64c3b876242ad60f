"""The text report of a run: what was checked, and the shrunk divergence or the protocol error."""

from __future__ import annotations

import json
import textwrap
from typing import Any

from cardtable._inputs import shown
from cardtable._words import plural
from cardtable.conformance.harness import printable
from cardtable.conformance.runner import Divergence, Outcome
from cardtable.conformance.sections import CONTRACTS

__all__ = ["format_outcome"]

_WIDTH = 100


def format_outcome(outcome: Outcome, *, reproducer: str | None = None) -> str:
    """The report of ``outcome``; ``reproducer`` is the path of its reproducer file, if written.

    Lone surrogates (from a command line or path that is not UTF-8) are escaped, so that the
    report can always be printed.
    """
    t = outcome.target
    lines = [
        f"cardtable conformance: {t.game_id}, {t.players} players, options {json.dumps(t.options)}",
        f"implementation: {outcome.name or t.command}  (command: {t.command})",
    ]
    if t.map_spec:
        lines.append(f"moves translated by the map {t.map_spec}")
    if outcome.fields:
        lines.append(f"compared after every step: {', '.join(outcome.fields)}")
    ours = f"{t.backend} backend" if t.reference is None else f"the reference {t.reference}"
    lines.append(
        f"{plural(outcome.examples, 'game')}, {plural(outcome.steps, 'step')} in "
        f"{outcome.seconds:.1f} s (ours: {ours})"
    )
    if outcome.divergence is not None:
        lines += _divergence(outcome.divergence, outcome.earlier_games, t.ours, bool(t.reference))
    elif outcome.error is not None:
        lines.append("")
        lines.append(outcome.error.describe())
        if outcome.history:
            steps = plural(len(outcome.history), "step")
            lines.append(f"history played in this game before it ({steps}):")
            lines += _wrap(json.dumps(outcome.history))
        lines += _earlier(outcome.earlier_games)
    else:
        lines.append("OK: no divergence found")
    if reproducer:
        lines += [
            "",
            f"reproducer: {reproducer}",
            f"  replay: cardtable conformance --replay {reproducer}",
        ]
    return printable("\n".join(lines))


def _earlier(games: list[list[int]]) -> list[str]:
    """The line on the games the same process played before the failing one, if any."""
    if not games:
        return []
    return [
        f"the same process had played {plural(len(games), 'game')} before this one "
        f"({plural(sum(map(len, games)), 'step')}; a replay plays them first)"
    ]


def _wrap(text: str, indent: str = "  ") -> list[str]:
    return textwrap.wrap(text, _WIDTH, initial_indent=indent, subsequent_indent=indent)


def _divergence(d: Divergence, earlier: list[list[int]], ours: str, reference: bool) -> list[str]:
    shrunk = ""
    if d.first_length is not None and d.first_length > len(d.history):
        shrunk = f" (shrunk from a first failing game of {plural(d.first_length, 'step')})"
    heading = f"DIVERGENCE after {plural(len(d.history), 'step')}{shrunk}"
    if d.refused is not None:
        heading += f" (the implementation refused the last one, {d.refused})"
    lines = ["", heading, *_earlier(earlier), "history (our ids):"]
    lines += _wrap(json.dumps(d.history))
    if d.labels:
        lines.append("the same steps:")
        lines += _steps(d.labels)
    lines.append("differences:")
    lines += [f"  {x}" for x in d.differences]
    differing = {x.path[0] for x in d.differences}
    seats = sorted(
        {int(x.path[1]) for x in d.differences if x.path[0] == "observations" and len(x.path) > 1}
    )
    same = {k: v for k, v in d.ours.items() if k not in differing}
    if same:
        lines.append("both answer:")
        lines += _answer(same, [])
    lines.append(f"{ours} answers:")
    lines += _answer({k: v for k, v in d.ours.items() if k in differing}, seats[:1])
    lines.append("the implementation answers:")
    lines += _answer({k: v for k, v in d.theirs.items() if k in differing}, seats[:1])
    if len(seats) > 1:
        others = ", ".join(map(str, seats[1:]))
        lines.append(f"  (observations of seat{'s' if len(seats) > 2 else ''} {others} differ too)")
    lines.append("rules concerned:")
    for section in d.sections:
        lines += textwrap.wrap(
            section,
            _WIDTH,
            initial_indent="  ",
            subsequent_indent="    ",
            break_long_words=False,  # paths stay whole
            break_on_hyphens=False,
        )
    if not reference:
        lines += _wrap(CONTRACTS)
    if d.hint:
        lines += textwrap.wrap(f"hint: {d.hint}", _WIDTH, subsequent_indent="  ")
    return lines


def _steps(labels: list[str]) -> list[str]:
    """One line per step, runs of chance steps folded into one line each."""
    out: list[str] = []
    i = 0
    while i < len(labels):
        j = i
        while (
            j + 1 < len(labels)
            and labels[j + 1].startswith("chance")
            and labels[i].startswith("chance")
        ):
            j += 1
        if j > i:
            body = "; ".join(label.removeprefix("chance: ") for label in labels[i : j + 1])
            out += textwrap.wrap(
                f"{i:>4}-{j}  chance: {body}",
                _WIDTH,
                subsequent_indent=" " * 12,
            )
        else:
            out.append(f"{i:>4}  {labels[i]}")
        i = j + 1
    return ["  " + line for line in out]


def _answer(answer: dict[str, Any], seats: list[int]) -> list[str]:
    lines = []
    for name, value in answer.items():
        if name == "observations" and isinstance(value, list):
            for seat in seats:
                if seat < len(value):
                    text = _dumps(value[seat], sort_keys=True)
                    lines += _wrap(f"observations[{seat}] = {text}", "    ")
        elif name == "chance_outcomes" and isinstance(value, list):
            outcomes = [[o, round(p, 6) if isinstance(p, float) else p] for o, p in value]
            lines += _wrap(f"{name} = {_dumps(outcomes)}", "    ")
        else:
            lines += _wrap(f"{name} = {_dumps(value)}", "    ")
    return lines


def _dumps(value: Any, *, sort_keys: bool = False) -> str:
    """``value`` as JSON, or as :func:`~cardtable._inputs.shown` writes it.

    The latter if it holds an int too long to write (a ``LongInt``, or a plain int of its size).
    """
    try:
        return json.dumps(value, sort_keys=sort_keys)
    except ValueError:
        return shown(value)
