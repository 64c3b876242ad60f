"""Play our engine and the implementation side by side, step by step, with Hypothesis choosing.

Each Hypothesis example is one whole game: at every step Hypothesis draws which legal action or
chance outcome comes next (``st.data()``, one draw per step, until the game ends), both sides apply
it, and both answer a ``query`` on the fields the implementation supports. The first difference
fails the example; Hypothesis then shrinks it to a short history with small choices (earlier legal
actions), as :mod:`cardtable.testing` does for Python implementations.
"""

from __future__ import annotations

import functools
import json
import math
import os
import time
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

from cardtable._extras import require

require("hypothesis", "conformance", "cardtable.conformance")

from hypothesis import HealthCheck, Phase, Verbosity, given, settings
from hypothesis import seed as hypothesis_seed
from hypothesis import strategies as st
from hypothesis.errors import Flaky

import cardtable
from cardtable._inputs import MAX_SEED, as_int, check_int, shown
from cardtable._state_compare import _canonical, _only_in, _reference_game
from cardtable._words import plural
from cardtable.conformance.harness import (
    DEFAULT_TIMEOUT,
    ConformanceError,
    Implementation,
    ProtocolError,
    RefusedError,
    check_command,
    check_cwd,
    check_max_line,
    check_timeout,
    shorten,
)
from cardtable.conformance.mapping import (
    ActionMap,
    IdentityMap,
    MapLoadError,
    Node,
    check_map,
    load_object,
)
from cardtable.conformance.protocol import FIELDS, MAX_LINE_BYTES, check_fields
from cardtable.conformance.sections import rule_sections
from cardtable.errors import InvalidOptionError
from cardtable.protocols import StateProtocol

__all__ = [
    "MAX_STEPS",
    "Difference",
    "Divergence",
    "Outcome",
    "Target",
    "check",
    "check_replay",
    "replay_history",
]

MAX_STEPS = 100_000
"""A game longer than this is cut (no game of ours comes near it)."""


@dataclass(frozen=True)
class Target:
    """What is checked: a game configuration and the command of the implementation.

    Attributes:
        game_id: The game.
        players: Number of seats.
        options: Every option with its effective value (as sent in ``new_game``).
        command: The implementation's command line.
        map_spec: The ``--map`` hook (``module:name``), if any.
        backend: Our backend compared against (``rust`` or ``reference``), unless ``reference``
            is given.
        reference: The game compared against instead of ours (``--reference``), if any: a
            ``module:name`` or ``path/file.py:name`` naming a class or factory that makes the
            game from ``players`` and the options, such as a variant of the game made by
            subclassing our reference game (``docs/testing.md``, "Testing a variant"). The
            targets of :func:`check` and :func:`check_replay` name a file by its absolute path
            (a relative one is taken from the current directory of the process), and so does
            the ``map_spec`` of :func:`check`.
        cwd: The directory the command ran in (absolute), recorded by :func:`check` so that a
            replay of its reproducer runs the command there, from wherever it is started
            (``None``: unknown, the current directory).
    """

    game_id: str
    players: int
    options: dict[str, Any]
    command: str
    map_spec: str | None = None
    backend: str = "rust"
    reference: str | None = None
    cwd: str | None = None

    @property
    def ours(self) -> str:
        """Our side's name in reports: ``cardtable``, or the reference's name (after the colon)."""
        return "cardtable" if self.reference is None else self.reference.rpartition(":")[2]


@dataclass
class Difference:
    """One field (or observation entry) where the two sides answer differently.

    Attributes:
        path: The field and, inside ``observations``, the seat and the key.
        ours: Our answer there (:data:`NO_SUCH_KEY` if our answer lacks the key).
        theirs: The implementation's (:data:`MISSING` if its answer lacks the key).
        label: Our side's name (``cardtable``, or the reference's: :attr:`Target.ours`).
    """

    path: tuple[str, ...]
    ours: Any
    theirs: Any
    label: str = "cardtable"

    @property
    def where(self) -> str:
        """The path in readable form, e.g. ``observations[2].lifebuoys``."""
        head, *rest = self.path
        out = head
        for i, part in enumerate(rest):
            out += f"[{part}]" if (head == "observations" and i == 0) else f".{part}"
        return out

    def __str__(self) -> str:
        if self.path == ("apply",):  # a move refused: both are sentences
            return f"apply: {self.ours} for {self.label}; the implementation {self.theirs}"
        text = f"{self.where}: {self.label} {_json(self.ours)}, implementation {_json(self.theirs)}"
        if self.path == ("legal_actions",):
            text += _only_in(self.ours, self.theirs, (self.label, "the implementation"), _json)
        return text


def _json(value: Any) -> str:
    """``value`` as JSON, else its ``repr`` (a NumPy integer, a list holding itself), shortened."""
    try:
        return json.dumps(value)
    except (TypeError, ValueError, RecursionError):
        pass
    try:
        return shorten(shown(value), 200)  # an int too long to write, as its size
    except RecursionError:  # nested too deeply even for repr
        return f"<a {type(value).__name__} nested too deeply to show>"


class Absent:
    """No value on one side of a :class:`Difference`: the key is not in that side's answer.

    Shown as ``(missing)`` or ``(no such key)``, unquoted, so that it is never read as a string
    the answer held.
    """

    __slots__ = ("why",)

    def __init__(self, why: str) -> None:
        self.why = why

    def __repr__(self) -> str:
        return f"({self.why})"


MISSING = Absent("missing")
"""The implementation's side of a key only our answer has."""
NO_SUCH_KEY = Absent("no such key")
"""Our side of a key only the implementation's answer has."""


@dataclass
class Divergence:
    """The first step where the implementation and cardtable disagree.

    Attributes:
        history: The actions and chance outcomes (our ids) applied to both before they disagreed;
            if the implementation refused a move (``refused``), the history ends with that move.
        differences: Every difference found at that point.
        ours: Our answer, on the compared fields.
        theirs: The implementation's answer (its own move names, if a map translates them).
        sections: The rule-document sections concerned.
        labels: Our label of every step of ``history``.
        first_length: Length of the history of the first failing example found (before shrinking).
        refused: What the implementation refused with an ``error`` answer to ``apply``, the last
            step of ``history``: ``"seat 2's move"`` or ``"a chance outcome"``; ``None`` if it
            refused nothing.
        hint: For a divergence seen only at the end of a game, an option setting that makes the
            game's games shorter (see :func:`check`), if the game has one.
    """

    history: list[int]
    differences: list[Difference]
    ours: dict[str, Any]
    theirs: dict[str, Any]
    sections: list[str] = field(default_factory=list)
    labels: list[str] = field(default_factory=list)
    first_length: int | None = None
    refused: str | None = None
    hint: str | None = None


@dataclass
class Outcome:
    """What a run found.

    Attributes:
        target: What was checked.
        name: The implementation's name (from ``hello``).
        fields: The fields compared after every step.
        examples: Games played (Hypothesis examples, shrinking included).
        steps: Steps played in all.
        seconds: Wall time of the run.
        divergence: The (shrunk) first divergence, if any.
        error: The protocol error that ended the run, if any.
        history: With ``error``: the history played when it happened.
        earlier_games: The steps sent in each game the same process of the implementation played
            before the failing one, in order (a replay plays them first): with ``error``, always;
            with ``divergence``, when :func:`check` found it only after them (replayed alone in a
            new process, it did not diverge), or :func:`replay_history` played them.
    """

    target: Target
    name: str = ""
    fields: list[str] = field(default_factory=list)
    examples: int = 0
    steps: int = 0
    seconds: float = 0.0
    divergence: Divergence | None = None
    error: ProtocolError | None = None
    history: list[int] = field(default_factory=list)
    earlier_games: list[list[int]] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        """Whether no divergence and no protocol error was found."""
        return self.divergence is None and self.error is None


class _Diverged(Exception):
    """Fails a Hypothesis example (so that Hypothesis shrinks it).

    ``earlier`` holds the games the same process played before (:attr:`_Driver.earlier`).
    """

    def __init__(self, divergence: Divergence, earlier: list[list[int]]) -> None:
        super().__init__(str(divergence.differences[0]))
        self.divergence = divergence
        self.earlier = earlier


class _Abort(BaseException):
    """Ends the Hypothesis run at once: a broken protocol is not shrunk."""

    def __init__(self, error: ProtocolError) -> None:
        super().__init__(error.detail)
        self.error = error


class _Driver:
    """Plays one game on both sides per :meth:`play` call.

    Our side plays a chunk of steps first (Hypothesis choosing every step); the implementation
    then receives the chunk's requests at once and its answers are compared in order, step by
    step, up to the first difference. Sending many requests without waiting for each answer makes
    a run many times faster and changes nothing the implementation can see: it answers each
    request in turn, as always.
    """

    def __init__(
        self,
        target: Target,
        impl: Implementation,
        restart: Callable[[], Implementation],
        fields: Sequence[str],
        action_map: ActionMap,
    ) -> None:
        self.target = target
        self.impl = impl
        self._restart = restart
        self._broken = False
        self.fields = list(fields)
        self.map = action_map
        self._mapped = not isinstance(action_map, IdentityMap)
        self.game = _make(target)
        self.history: list[int] = []
        self.reached: list[int] = []  # the steps sent so far whose answers are being read
        self.steps = 0
        # The steps sent to the current process in each game it was given, the game in play last.
        self._sent: list[list[int]] = []

    @property
    def earlier(self) -> list[list[int]]:
        """The steps sent in each game the current process played before the one in play."""
        return [list(game) for game in self._sent[:-1]]

    def _node(self, state: StateProtocol) -> Node:
        if not self._mapped:
            return Node(self.target.game_id, self.target.players, state.current_player, dict)
        seat0 = dict(state.observation(0))
        return Node(self.target.game_id, self.target.players, state.current_player, lambda: seat0)

    def play(self, choose: Callable[[list[int]], int], limit: int = MAX_STEPS) -> Divergence | None:
        """Plays one game, ``choose(legal)`` picking every step; returns the first divergence.

        Raises:
            ProtocolError: If the implementation breaks the protocol or refuses the game before
                the first divergence.
        """
        if self._broken:
            self.impl.close()
            self.impl = self._restart()
            self._broken = False
            self._sent = []
        state = self.game.new_state()
        history: list[int] = []
        self.history = history
        self.reached = []
        self._sent.append([])
        sent = self.impl.send(
            (
                "new_game",
                {
                    "game": self.target.game_id,
                    "players": self.target.players,
                    "options": self.target.options,
                },
            ),
            ("query", {"fields": self.fields}),
        )
        started = self.impl.receive(sent[0])
        if isinstance(started, RefusedError):
            self._broken = True
            raise ProtocolError(
                "refused", f"it refuses this game: {started.message}", started.exchange
            )
        node = self._node(state)
        found = self._compare([], self._snapshot(state), self.impl.receive(sent[1]), node)
        chunk = 1
        while found is None and not state.is_terminal and len(history) < limit:
            found = self._chunk(state, history, node, chunk, limit, choose)
            node = self._node(state)
            chunk *= 2
        if found is not None:
            where = found.history[:-1] if found.refused else found.history  # before the refusal
            if self.target.reference is not None:  # a variant: our contract is not its rules
                found.sections = [
                    f"those of the reference {self.target.reference} (compared instead of "
                    f"cardtable's {self.target.game_id}, whose contract does not apply)"
                ]
            else:
                found.sections = rule_sections(
                    self.target.game_id, [d.path for d in found.differences], self._seat0(where)
                )
        return found

    def _chunk(
        self,
        state: StateProtocol,
        history: list[int],
        node: Node,
        size: int,
        limit: int,
        choose: Callable[[list[int]], int],
    ) -> Divergence | None:
        """Plays up to ``size`` steps on our side, then sends them all and compares the answers.

        Chunks double in size through a game: the first steps go one by one, so that a divergence
        stops the drawing early (Hypothesis then prefers short histories), and long games travel
        in few round trips.
        """
        start = len(history)
        requests: list[tuple[str, dict[str, Any]]] = []
        ours: list[dict[str, Any]] = []
        nodes: list[Node] = []
        moves: list[Any] = []
        players: list[int] = []
        while not state.is_terminal and len(history) < min(limit, start + size):
            action = choose(state.legal_actions())
            player = state.current_player
            moves.append(self._to_impl(action, node, history))
            players.append(player)
            state.apply(action)
            history.append(action)
            requests += [
                ("apply", {"action": moves[-1], "player": player}),
                ("query", {"fields": self.fields}),
            ]
            ours.append(self._snapshot(state))
            node = self._node(state)
            nodes.append(node)
        self.steps += len(moves)
        sent = self.impl.send(*requests)
        self._sent[-1] += history[start:]
        for i in range(len(moves)):
            step = start + i
            self.reached = history[: step + 1]
            applied = self.impl.receive(sent[2 * i])
            answer = self.impl.receive(sent[2 * i + 1])
            if isinstance(applied, RefusedError):
                # The history ends with the move refused, so that a replay sends it again.
                who = "chance" if players[i] == -1 else f"seat {players[i]}"
                move = self._move_text(history[: step + 1], moves[i])
                found: Divergence | None = Divergence(
                    history[: step + 1],
                    [
                        Difference(
                            ("apply",),
                            f"step {step} ({move}) is legal",
                            f"refuses it: {applied.message}",
                            self.target.ours,
                        )
                    ],
                    {"apply": f"ok ({move})"},
                    {"apply": f"error: {applied.message}"},
                    refused="a chance outcome" if players[i] == -1 else f"{who}'s move",
                )
            else:
                found = self._compare(history[: step + 1], ours[i], answer, nodes[i])
            if found is not None:
                self._drain(sent[2 * i + 2 :])
                return found
        return None

    def _move_text(self, history: list[int], move: Any) -> str:
        """The last step of ``history`` as the report's steps show it, with its id.

        ``seat 1: bid 13, id 12``; a move the map translated adds what was sent (``sent as
        "bid 13"``).
        """
        label = _labels(self.target, history)[-1]
        sent = f", sent as {_json(move)}" if self._mapped else ""
        return f"{label}, id {history[-1]}{sent}"

    def _to_impl(self, action: int, node: Node, history: list[int]) -> Any:
        """The implementation's move for ``action``, by the map.

        Raises:
            ProtocolError: ``map`` if the map raises or returns something that is not a move (an
                integer id or a string); the history recorded ends with ``action``.
        """
        try:
            move = self.map.to_impl(action, node)
        except (Exception, SystemExit) as err:  # never KeyboardInterrupt
            problem = f"raised {type(err).__name__}: {err}"
        else:
            if type(move) is str or (type(move) is int and move >= 0):
                return move
            problem = f"returned {_json(move)}, not a move (an integer id or a string)"
        self.reached = [*history, action]
        where = "chance" if node.is_chance else f"seat {node.current_player}"
        raise ProtocolError(
            "map", f"the map's to_impl({action}) at step {len(history)} ({where}) {problem}"
        )

    def _drain(self, sent: list[dict[str, Any]]) -> None:
        """Reads the answers left after a divergence; a broken protocol there means a restart."""
        try:
            for request in sent:
                self.impl.receive(request)
        except ProtocolError:
            self._broken = True

    def _seat0(self, history: list[int]) -> dict[str, Any]:
        state = self.game.new_state()
        for action in history:
            state.apply(action)
        return dict(state.observation(0))

    def _snapshot(self, state: StateProtocol) -> dict[str, Any]:
        return {name: self._ours(state, name) for name in self.fields}

    def _compare(
        self,
        history: list[int],
        ours: dict[str, Any],
        answer: dict[str, Any] | RefusedError,
        node: Node,
    ) -> Divergence | None:
        if isinstance(answer, RefusedError):
            raise ProtocolError("refused", f"it refuses a query: {answer.message}", answer.exchange)
        missing = [f for f in self.fields if f not in answer]
        if missing:
            raise ProtocolError("schema", f"the answer lacks the fields {missing}", self.impl.last)
        theirs = {f: answer[f] for f in self.fields}
        differences: list[Difference] = []
        for name in self.fields:
            differences += self._differences(name, ours[name], theirs[name], node)
        if not differences:
            return None
        for difference in differences:
            difference.label = self.target.ours
        return Divergence(list(history), differences, ours, theirs)

    def _ours(self, state: StateProtocol, name: str) -> Any:
        if name == "legal_actions":
            return state.legal_actions()
        if name == "chance_outcomes":
            return [[o, p] for o, p in state.chance_outcomes()]
        if name == "observations":
            return [dict(state.observation(p)) for p in range(self.target.players)]
        if name in ("scores", "winners"):
            return list(getattr(state, name))
        return getattr(state, name)

    def _translate(self, move: Any, node: Node) -> Any:
        """Our id for the implementation's ``move``, by the map.

        If the map raises an exception, the move is one we do not know: an ``<untranslatable>``
        text stands for it (and differs from every id).

        Raises:
            ProtocolError: ``map`` if the map returns something that is not an integer id (a
                NumPy integer is one) or raises ``SystemExit``.
        """
        try:
            action = self.map.from_impl(move, node)
        except Exception as err:
            return f"<untranslatable {shown(move)}: {err}>"
        except SystemExit as err:  # never KeyboardInterrupt
            problem = f"raised SystemExit: {err}"
        else:
            if type(action) is int:
                return action
            number = as_int(action)  # a NumPy integer
            if number is not None:
                return number
            problem = f"returned {_json(action)}, not an action id (an integer)"
        where = "chance" if node.is_chance else f"seat {node.current_player}"
        steps = len(self.reached)
        raise ProtocolError(
            "map",
            f"the map's from_impl({_json(move)}) after {plural(steps, 'step')} ({where}) {problem}",
            self.impl.last,
        )

    def _differences(self, name: str, ours: Any, theirs: Any, node: Node) -> list[Difference]:
        if name == "legal_actions":
            mine = _sorted(ours)
            other = _sorted(self._translate(m, node) for m in theirs)
            return [] if _same(mine, other) else [Difference((name,), mine, other)]
        if name == "chance_outcomes":
            return self._chance_differences(ours, theirs, node)
        if name == "winners":
            ours, theirs = sorted(ours), sorted(theirs)
        if name == "observations":
            out: list[Difference] = []
            if len(theirs) != len(ours):
                return [Difference((name,), f"{len(ours)} seats", f"{len(theirs)} seats")]
            for seat, (a, b) in enumerate(zip(ours, theirs, strict=True)):
                if not _same(a, b):
                    _diff_values(("observations", str(seat)), a, b, out)
            return out
        if not _same(ours, theirs):
            return [Difference((name,), ours, theirs)]
        return []

    def _chance_differences(
        self, ours: list[list[Any]], theirs: list[list[Any]], node: Node
    ) -> list[Difference]:
        weights = _probabilities([w for _, w in theirs])
        translated = sorted(
            ([self._translate(m, node), p] for (m, _), p in zip(theirs, weights, strict=True)),
            key=lambda p: _key(p[0]),
        )
        mine = sorted(ours, key=lambda p: _key(p[0]))
        same = [o for o, _ in mine] == [o for o, _ in translated] and all(
            math.isclose(p, q, rel_tol=1e-9, abs_tol=1e-12)
            for (_, p), (_, q) in zip(mine, translated, strict=True)
        )
        if same:
            return []
        return [
            Difference(
                ("chance_outcomes",),
                [[o, round(p, 6)] for o, p in mine],
                [[o, round(q, 6)] for o, q in translated],
            )
        ]

    def close(self) -> None:
        """Stops the implementation (the current one, after any restart)."""
        self.impl.close()


def _make(target: Target) -> Any:
    """Our game of ``target``: made by its reference, if it names one, else by our backend.

    Raises:
        cardtable.errors.InvalidOptionError: If the reference cannot be loaded, or does not
            make a game of ``target.game_id`` from its players and options.
    """
    if target.reference is None:
        return cardtable.make(
            target.game_id,
            players=target.players,
            backend=target.backend,  # type: ignore[arg-type]
            **target.options,
        )
    config = {"players": target.players, **target.options}
    return _reference_game(
        _load_reference(target.reference), target.reference, target.game_id, config
    )


_REFERENCE_FORMS = (
    "--reference names a game class as MODULE:NAME, a module importable from sys.path (the "
    "cardtable command does not look in the current directory: add it to PYTHONPATH), or as "
    "FILE.py:NAME, a file path"
)
"""The forms of a reference, for the message of one that cannot be loaded."""


def _resolved_reference(spec: str) -> str:
    """``spec`` with the file of a ``FILE.py:NAME`` as an absolute path (``MODULE:NAME`` as is).

    A relative path is taken from the current directory of this process, now (not from the
    implementation's ``cwd``), so that the reproducer names the same file from anywhere.
    """
    where, sep, name = spec.rpartition(":")
    if sep and where.endswith(".py"):
        return f"{os.path.abspath(where)}:{name}"
    return spec


@functools.lru_cache(maxsize=8)
def _load_reference(spec: str) -> Callable[..., Any]:
    """The class or factory that ``--reference`` names, loaded once per run.

    Raises:
        cardtable.errors.InvalidOptionError: If it cannot be loaded or is not callable.
    """
    if not isinstance(spec, str):
        raise InvalidOptionError(f"reference must be None or a string, got {shown(spec)}")
    try:
        factory = load_object(spec, "reference")
    except MapLoadError as err:
        raise InvalidOptionError(f"{err} ({_REFERENCE_FORMS})") from None
    if not callable(factory):
        raise InvalidOptionError(
            f"the reference {spec} must be a game class or a factory, got {shown(factory)}"
        )
    result: Callable[..., Any] = factory
    return result


def _probabilities(weights: list[float]) -> list[float]:
    """Relative weights (any positive numbers) as probabilities summing to 1.

    Divided by the largest first, so that their sum neither overflows (``1e308`` twice) nor
    vanishes (subnormals); an integer beyond a double's range is divided exactly.
    """
    if not weights:
        return []
    try:
        top = max(weights)
        scaled = [w / top for w in weights]
    except OverflowError:  # an integer too large for a float, among floats
        exact = [Fraction(w) for w in weights]
        top_exact = max(exact)
        scaled = [float(w / top_exact) for w in exact]
    total = math.fsum(scaled)
    return [s / total for s in scaled]


def _same(a: Any, b: Any) -> bool:
    """Equal as JSON values (``true`` is not ``1``; ``1.0`` is ``1``), quickly when identical."""
    try:
        if json.dumps(a, sort_keys=True) == json.dumps(b, sort_keys=True):
            return True
    except (TypeError, ValueError):
        pass
    return bool(_canonical(a) == _canonical(b))


def _key(value: Any) -> tuple[int, int, str]:
    """Sorts ids numerically, anything else (untranslated moves) after them."""
    if isinstance(value, int) and not isinstance(value, bool):
        return (0, value, "")
    return (1, 0, _json(value))


def _sorted(values: Iterable[Any]) -> list[Any]:
    return sorted(values, key=_key)


def _diff_values(path: tuple[str, ...], a: Any, b: Any, out: list[Difference]) -> None:
    if isinstance(a, dict) and isinstance(b, dict):
        for key in sorted(set(a) | set(b), key=str):
            if key not in b:
                out.append(Difference((*path, str(key)), a[key], MISSING))
            elif key not in a:
                out.append(Difference((*path, str(key)), NO_SUCH_KEY, b[key]))
            else:
                _diff_values((*path, str(key)), a[key], b[key], out)
        return
    if _canonical(a) != _canonical(b):
        out.append(Difference(path, a, b))


def _labels(target: Target, history: Sequence[int]) -> list[str]:
    state = _make(target).new_state()
    labels = []
    for action in history:
        who = "chance" if state.current_player == -1 else f"seat {state.current_player}"
        labels.append(f"{who}: {state.action_label(action)}")
        state.apply(action)
    return labels


def _target(
    game_id: Any,
    players: Any,
    options: Any,
    command: Any,
    map_spec: Any,
    backend: Any,
    reference: Any = None,
    cwd: str | None = None,
) -> Target:
    """The target checked, with every option at its effective value (as sent in ``new_game``).

    Raises:
        cardtable.errors.InvalidOptionError: On a bad game, player count, option or backend,
            ``options`` that are not a dict of option names, a bad ``command``, a ``map_spec``
            that is not a string, or a ``reference`` that does not make a game of ``game_id``
            (see :func:`_make`). The target's ``reference`` names a file by its absolute path
            (see :func:`_resolved_reference`).
    """
    options = {} if options is None else options
    if not isinstance(options, dict) or not all(isinstance(key, str) for key in options):
        raise InvalidOptionError(f"options must be a dict of option names, got {shown(options)}")
    if map_spec is not None and not isinstance(map_spec, str):
        raise InvalidOptionError(f"map_spec must be None or a string, got {shown(map_spec)}")
    if reference is not None and not isinstance(reference, str):
        raise InvalidOptionError(
            f"reference must be None or a string naming a game class as MODULE:NAME, got "
            f"{shown(reference)}"
        )
    command = check_command(command)
    if reference is not None:  # our game's checks first: the game id, players, options, backend
        _make(Target(game_id, players, options, command, backend=backend))
        reference = _resolved_reference(reference)
    game = _make(Target(game_id, players, options, command, backend=backend, reference=reference))
    if map_spec is not None:
        map_spec = _resolved_reference(map_spec)  # a FILE.py:NAME found again from anywhere
    return Target(
        game_id, game.players, dict(game.options), command, map_spec, backend, reference, cwd
    )


@dataclass(frozen=True)
class _Limits:
    """How the implementation is run: its answers' timeout and longest line, its directory."""

    timeout: float
    max_line: int
    cwd: str | None


def _open(
    target: Target,
    fields: Sequence[str] | None,
    limits: _Limits,
    action_map: ActionMap,
) -> tuple[Outcome, _Driver | None]:
    """Starts the implementation and a driver on it (no driver: the outcome holds the error)."""
    outcome = Outcome(target)
    try:
        impl, compared = _start(target, fields, limits)
    except ProtocolError as err:
        outcome.error = err
        return outcome, None
    outcome.name, outcome.fields = impl.name, compared
    driver = _Driver(
        target,
        impl,
        lambda: _start(target, fields, limits)[0],
        compared,
        action_map,
    )
    return outcome, driver


def _finish(outcome: Outcome, target: Target, started: float) -> Outcome:
    """Labels the divergence's history, if any, and records the time taken since ``started``."""
    if outcome.divergence is not None:
        outcome.divergence.labels = _labels(target, outcome.divergence.history)
    outcome.seconds = time.perf_counter() - started
    return outcome


def _start(
    target: Target, fields: Sequence[str] | None, limits: _Limits
) -> tuple[Implementation, list[str]]:
    impl = Implementation(
        target.command, timeout=limits.timeout, cwd=limits.cwd, max_line=limits.max_line
    )
    try:
        games = impl.hello()
        if target.game_id not in games:
            raise ProtocolError(
                "unsupported",
                f"it does not play {target.game_id} (only {', '.join(games) or 'nothing'})",
                impl.last,
            )
        declared = games[target.game_id]
        undeclared = [f for f in fields or () if f not in declared]
        if undeclared:
            raise ProtocolError(
                "unsupported",
                f"it does not answer the fields {undeclared} asked for "
                f"(it answers {', '.join(declared)})",
                impl.last,
            )
    except BaseException:
        impl.close()
        raise
    return impl, [f for f in FIELDS if f in declared and (fields is None or f in fields)]


def _arguments(
    fields: Sequence[str] | None,
    timeout: float,
    max_line: int,
    cwd: str | None,
    action_map: ActionMap | None,
) -> tuple[list[str] | None, _Limits, ActionMap]:
    """``fields``, ``timeout``, ``max_line``, ``cwd`` and ``action_map`` checked.

    Raises:
        cardtable.errors.InvalidOptionError: If they are not as documented.
    """
    checked = None if fields is None else check_fields(fields)
    limits = _Limits(check_timeout(timeout), check_max_line(max_line), check_cwd(cwd))
    return checked, limits, check_map(action_map)


def _history(history: Any) -> list[int]:
    """``history`` as a list of ints: a list or tuple of integers (never bools, floats, strings).

    Raises:
        cardtable.errors.InvalidOptionError: For anything else.
    """
    if not isinstance(history, (list, tuple)):
        raise InvalidOptionError(f"a history is a list of action ids, got {shown(history)}")
    out: list[int] = []
    for i, action in enumerate(history):
        number = as_int(action)
        if number is None:
            raise InvalidOptionError(
                f"a history is a list of integer action ids; step {i} is {shown(action)}"
            )
        out.append(number)
    return out


def check(
    game_id: str,
    command: str | list[str],
    *,
    players: int,
    options: dict[str, Any] | None = None,
    examples: int = 100,
    fields: Sequence[str] | None = None,
    timeout: float = DEFAULT_TIMEOUT,
    action_map: ActionMap | None = None,
    map_spec: str | None = None,
    backend: str = "rust",
    seed: int | None = None,
    cwd: str | None = None,
    max_line: int = MAX_LINE_BYTES,
    reference: str | None = None,
) -> Outcome:
    """Property-tests the implementation run by ``command`` against our ``game_id``.

    Args:
        game_id: The game.
        command: The implementation's command line, or its argv as a list of strings (see
            :class:`Implementation`; recorded as a command line that splits back into it).
        players: Number of seats.
        options: Game options, a dict (the rest take their defaults; all are sent resolved).
        examples: Hypothesis examples (whole games) to play before declaring agreement, an int
            in ``1..2**64-1``.
        fields: Compare only these (default: everything the implementation declares); a list of
            names from :data:`~cardtable.conformance.FIELDS`, each declared by the implementation
            (else a ``unsupported`` protocol error).
        timeout: Seconds allowed for each answer: a finite number above 0, at most a day.
        action_map: Translates our ids to the implementation's moves and back: an object with
            the methods ``to_impl`` and ``from_impl`` (:class:`ActionMap`).
        map_spec: How ``action_map`` was named (recorded in the reproducer), a string.
        backend: Our backend to compare against (not used with ``reference``).
        seed: Seed of Hypothesis' choices, an int in ``0..2**64-1`` (``None``: a fresh random
            run).
        cwd: Working directory of the implementation, an existing directory.
        max_line: The longest answer line read, in bytes (an int ``>= 1``, default the
            protocol's :data:`~cardtable.conformance.protocol.MAX_LINE_BYTES`); a longer one
            ends the run with a ``too_long`` protocol error.
        reference: Compare against this game instead of ours, as ``module:name`` or
            ``path/file.py:name``: a class or factory making the game from ``players`` and the
            options, such as a variant made by subclassing our reference game (recorded in the
            reproducer, named in the report). A relative ``FILE.py`` is taken from the current
            directory of this process (as Python's imports are, not from ``cwd``, the
            implementation's), and recorded by its absolute path, so that a replay from another
            directory finds it.

    Returns:
        The outcome; ``outcome.ok`` if no difference was found. A divergence found is replayed
        in a new process first, alone, then after some or all of the games its process had
        played before it (``outcome.earlier_games``, when it needs them); one that no replay
        shows again is a ``flaky`` protocol error. Of the divergences found, the shortest that
        a new process shows again is reported.

    Raises:
        cardtable.errors.InvalidOptionError: Before anything starts, on any argument that is not
            as above: a bad game, player count, option or backend, bad ``command``,
            ``examples``, ``fields``, ``timeout``, ``action_map``, ``map_spec``, ``seed``,
            ``cwd`` or ``max_line``, or a ``reference`` that cannot be loaded or does not make
            a game of ``game_id``.
    """
    fields, limits, action_map = _arguments(fields, timeout, max_line, cwd, action_map)
    examples = check_int("examples", examples, 1, MAX_SEED)
    seed = None if seed is None else check_int("seed", seed, 0, MAX_SEED)
    ran_in = os.path.abspath(limits.cwd) if limits.cwd is not None else os.getcwd()
    target = _target(game_id, players, options, command, map_spec, backend, reference, ran_in)
    started = time.perf_counter()
    outcome, driver = _open(target, fields, limits, action_map)
    if driver is None:
        return _finish(outcome, target, started)
    first_length: list[int] = []
    # The protocol error that ended the run, with the games played before it. Hypothesis may
    # report it as a Flaky instead: the game that failed at new_game (or at any step) followed
    # choices it had seen played further in an earlier game, and the process is not the same.
    aborted: list[tuple[ProtocolError, list[int], list[list[int]]]] = []
    # The first divergence found, with the games its process had played before it: a divergence
    # that needs them (state left over from an earlier game) is a Flaky to Hypothesis as well.
    first: list[_Found] = []
    # The shortest divergence found: Hypothesis shrinks to its own notion of simple (small
    # choices), which can be a longer game than one it saw fail before.
    shortest: list[_Found] = []
    found: list[_Found] = []  # the divergences to confirm in a new process, in order
    try:

        @settings(
            max_examples=examples,
            deadline=None,
            database=None,
            verbosity=Verbosity.quiet,
            print_blob=False,
            report_multiple_bugs=False,
            phases=[Phase.generate, Phase.shrink],
            suppress_health_check=list(HealthCheck),
        )
        @given(data=st.data())
        def run(data: st.DataObject) -> None:
            outcome.examples += 1

            def choose(legal: list[int]) -> int:
                return legal[data.draw(st.integers(0, len(legal) - 1))]

            try:
                diverged = driver.play(choose)
            except ProtocolError as err:
                aborted.append((err, list(driver.reached), driver.earlier))
                raise _Abort(err) from None
            if diverged is not None:
                seen = _Found(diverged, driver.earlier, trusted=False)
                if not first_length:
                    first_length.append(len(diverged.history))
                    first.append(seen)
                if not shortest or len(diverged.history) < len(shortest[0].divergence.history):
                    shortest[:] = [seen]
                raise _Diverged(diverged, driver.earlier)

        if seed is not None:
            run = hypothesis_seed(seed)(run)
        try:
            run()
        except _Diverged as failed:
            # Hypothesis played it last: in a process of its own if no earlier game came first.
            last_run = _Found(failed.divergence, failed.earlier, trusted=not failed.earlier)
            found = _candidates([last_run, *shortest, *first])
        except _Abort:
            outcome.error, outcome.history, outcome.earlier_games = aborted[0]
        except Flaky as err:
            if aborted:
                outcome.error, outcome.history, outcome.earlier_games = aborted[0]
            elif first:  # found once, not when replayed: perhaps it needs the games before it
                found = _candidates([*shortest, *first])
            else:
                outcome.error = ProtocolError(
                    "flaky",
                    "the same history diverged once and not when replayed: the implementation "
                    f"is not deterministic ({type(err).__name__})",
                    driver.impl.last,
                    driver.impl.stderr_tail(),
                )
                outcome.history = list(driver.reached)
        last = ProtocolError("flaky", "", driver.impl.last, driver.impl.stderr_tail())
    finally:
        outcome.steps += driver.steps
        driver.close()
    if found:  # the process that found them is stopped first: one process at a time
        _confirm(outcome, found, last, limits, action_map)
    if outcome.divergence is not None:
        outcome.divergence.first_length = first_length[0]
        outcome.divergence.hint = _smaller_game(target, outcome.divergence)
    return _finish(outcome, target, started)


def _candidates(found: list[_Found]) -> list[_Found]:
    """The divergences to confirm, each once, the shortest first (the earlier found first)."""
    distinct: list[_Found] = []
    for candidate in found:
        if not any(candidate.same(kept) for kept in distinct):
            distinct.append(candidate)
    return sorted(distinct, key=lambda f: len(f.divergence.history))


def _smaller_game(target: Target, divergence: Divergence) -> str | None:
    """A hint for a divergence seen at the end of a long game: an option making games shorter.

    Each integer option of the game is tried at its two smallest values the game accepts (below
    the one used) whose games are shorter, by the game's declared bound of a game's steps
    (``max_game_length`` of our reference game); the hint names the option whose smallest value
    gives the shortest games, if shorter than the history, with both values. Both, because the
    smallest game may be too small to hold the step at fault: in goofspiel with one card every
    move is forced, so a bug in the forced last turn after a real choice needs two.
    ``None`` if the divergence shows before the end or no option shortens the game.
    """
    if divergence.ours.get("is_terminal") is not True or divergence.refused is not None:
        return None

    def bound(options: dict[str, Any]) -> int | None:
        try:
            game = cardtable.make(
                target.game_id, players=target.players, backend="reference", **options
            )
        except InvalidOptionError:
            return None
        steps = getattr(game, "max_game_length", None)
        return steps if isinstance(steps, int) else None

    now = bound(target.options)
    if now is None:
        return None
    (info,) = [g for g in cardtable.games() if g.id == target.game_id]
    best: tuple[str, list[tuple[int, int]]] | None = None  # the option, (value, steps) pairs
    for option in info.options:
        value = target.options.get(option.name)
        if option.type not in ("int", "int | None") or isinstance(value, bool):
            continue
        below = value if isinstance(value, int) else _SMALL_GAME_TRIES
        shorter: list[tuple[int, int]] = []
        for smaller in range(min(below, _SMALL_GAME_TRIES)):
            steps = bound({**target.options, option.name: smaller})
            if steps is None:  # refused: not a value of the option
                continue
            if steps >= now:  # no shorter game
                break
            shorter.append((smaller, steps))
            if len(shorter) == 2:
                break
        if shorter and (best is None or shorter[0][1] < best[1][0][1]):
            best = (option.name, shorter)
    if best is None:
        return None
    # Only values whose games are bound to be shorter than the history (the second tried may not).
    name, tried = best[0], [(v, steps) for v, steps in best[1] if steps < len(divergence.history)]
    if not tried:
        return None
    (value, steps), *rest = tried
    head = "the divergence shows at the end of the game: a smaller game may show it in fewer steps"
    small = "too small to hold the step at fault, one with every move forced, say"
    first = f"-o {name}={value}: at most {plural(steps, 'step')} a game"
    if not rest:
        return f"{head}, e.g. {name}={value} ({first} instead of {now}; it may be {small})"
    ((second, second_steps),) = rest
    return (
        f"{head}, e.g. {name}={value} or {second} ({first}, -o {name}={second}: at most "
        f"{second_steps}, instead of {now}; try both: the smallest game may be {small})"
    )


_SMALL_GAME_TRIES = 64
"""The values of an integer option :func:`_smaller_game` tries, from 0."""


@dataclass
class _Found:
    """A divergence :func:`check` found, and the games its process had played before it.

    ``trusted``: found in a process's first game by Hypothesis' last run (which replays the
    failing example), so that a new process would play it just as well.
    """

    divergence: Divergence
    earlier: list[list[int]]
    trusted: bool

    def same(self, other: _Found) -> bool:
        return (
            self.divergence.history == other.divergence.history
            and self.earlier == other.earlier
            and _shown(self.divergence) == _shown(other.divergence)
        )


def _shown(divergence: Divergence) -> list[str]:
    return [str(d) for d in divergence.differences]


def _what(divergence: Divergence) -> str:
    """A divergence in a few words: where, and its first difference."""
    return f"after {plural(len(divergence.history), 'step')}, {shorten(_shown(divergence)[0], 200)}"


def _confirm(
    outcome: Outcome,
    found: list[_Found],
    last: ProtocolError,
    limits: _Limits,
    action_map: ActionMap,
) -> None:
    """Sets ``outcome.divergence`` to the first of ``found`` that a new process shows again.

    Each is replayed in a new process alone, then after the last 1, 2, 4, ... of the games its
    process had played before it, then after all of them, until it diverges again the same way
    twice in a row (once after Hypothesis' own last run of a first game): the reproducer then
    holds these games (``outcome.earlier_games``), and ``--replay`` finds it again. If none does,
    or a replay shows it once and not the second time, the outcome is a ``flaky`` error on the
    first (its history and earlier games recorded), with the exchange and standard error of
    ``last`` (the run's last answers).
    A protocol error while replaying one ends its replays and moves on to the next (they come
    shortest first, so a shorter one may come before the one Hypothesis' last run confirmed):
    the first such error is the outcome's error only if none is confirmed.
    """
    broken: tuple[_Broken, Divergence] | None = None  # the first replay that broke
    wavered = False  # a replay showed it and the same replay again did not
    for candidate in found:
        if wavered:
            break
        for earlier in _trials(candidate.earlier):
            # Shown twice in a row: a nondeterministic implementation shows a divergence now and
            # then, and one lucky replay would claim it, or claim it needs the earlier games.
            # Hypothesis' last run of a first game counts as the first showing.
            needed = 1 if candidate.trusted and not earlier else 2
            shown_again = 0
            try:
                while shown_again < needed:
                    again = _replay_new(
                        outcome, earlier, candidate.divergence.history, limits, action_map
                    )
                    if again is None or (again.history, _shown(again)) != (
                        candidate.divergence.history,
                        _shown(candidate.divergence),
                    ):
                        break
                    shown_again += 1
            except _Broken as replay_broke:
                if broken is None:
                    broken = (replay_broke, candidate.divergence)
                break  # this one cannot be replayed: the next may be confirmed
            if shown_again == needed:
                outcome.divergence, outcome.earlier_games = candidate.divergence, earlier
                return
            if shown_again:
                wavered = True
                break
    if broken is not None and not wavered:
        failure, d = broken
        error = failure.error
        outcome.error = ProtocolError(
            error.kind,
            f"{error.detail} (while the harness replayed, in a new process, the divergence found "
            f"{_what(d)})",
            error.exchange,
            error.stderr,
        )
        outcome.history, outcome.earlier_games = failure.history, failure.earlier
        return
    d, earlier = found[0].divergence, found[0].earlier
    after = (
        f", alone or after the {plural(len(earlier), 'game')} its process had played before it"
        if earlier
        else ""
    )
    how = (
        "was found again only once when its game was replayed twice in a new process"
        if wavered
        else f"was not found again when its game was replayed in a new process{after}"
    )
    outcome.error = ProtocolError(
        "flaky",
        f"the divergence found {_what(d)}, {how}: the implementation is not deterministic",
        last.exchange,
        last.stderr,
    )
    outcome.history, outcome.earlier_games = list(d.history), earlier


def _trials(earlier: list[list[int]]) -> list[list[list[int]]]:
    """The earlier games to replay a divergence after, fewest first: none, the last 1, 2, 4..."""
    trials: list[list[list[int]]] = [[]]
    count = 1
    while count < len(earlier):
        trials.append(earlier[-count:])
        count *= 2
    if earlier:
        trials.append(earlier)
    return trials


class _Broken(Exception):
    """A protocol error while :func:`check` replayed a divergence in a new process."""

    def __init__(self, error: ProtocolError, history: list[int], earlier: list[list[int]]) -> None:
        super().__init__(error.detail)
        self.error, self.history, self.earlier = error, history, earlier


def _replay_new(
    outcome: Outcome,
    earlier: list[list[int]],
    history: list[int],
    limits: _Limits,
    action_map: ActionMap,
) -> Divergence | None:
    """Plays ``earlier`` then ``history`` in a new process; returns the last game's divergence.

    The games and steps played are added to ``outcome``'s counts.

    Raises:
        _Broken: On a protocol error.
    """
    target, fields = outcome.target, outcome.fields
    try:
        impl = _start(target, fields, limits)[0]
    except ProtocolError as err:
        raise _Broken(err, [], []) from None
    driver = _Driver(target, impl, lambda: _start(target, fields, limits)[0], fields, action_map)
    try:
        return _play_games(driver, earlier, history, outcome)
    except ProtocolError as err:
        raise _Broken(err, list(driver.reached), driver.earlier) from None
    finally:
        outcome.steps += driver.steps
        driver.close()


def check_replay(
    target: Target, history: Any, earlier_games: Any = ()
) -> tuple[Target, list[int], list[list[int]]]:
    """Checks what :func:`replay_history` is to play, with nothing started; returns it checked.

    ``target`` comes back with every option at its effective value, ``history`` and each of
    ``earlier_games`` as lists of ints, each of them played through on our backend (or the
    target's reference).

    Raises:
        ConformanceError: If ``history`` or an earlier game is not a legal game of ours (an
            illegal step, or steps after the end).
        cardtable.errors.InvalidOptionError: On a ``target`` that is not a :class:`Target` as
            :func:`check` wants (its reference one that cannot be loaded included), or a history
            or earlier games that are not lists of integers.
    """
    history = _history(history)
    if not isinstance(earlier_games, (list, tuple)):
        raise InvalidOptionError(
            f"earlier_games must be a list of histories, got {shown(earlier_games)}"
        )
    earlier = [_history(game) for game in earlier_games]
    if not isinstance(target, Target):
        raise InvalidOptionError(f"target must be a Target, got {shown(target)}")
    target = _target(
        target.game_id,
        target.players,
        target.options,
        target.command,
        target.map_spec,
        target.backend,
        target.reference,
    )
    game = _make(target)
    for number, steps in enumerate([*earlier, history]):
        name = "the history" if number == len(earlier) else f"earlier game {number}"
        state = game.new_state()
        for step, action in enumerate(steps):
            if state.is_terminal:
                raise ConformanceError(
                    f"{name} is not a game of ours: the game ends after {plural(step, 'step')}, "
                    f"{name} has {len(steps)}"
                )
            legal = state.legal_actions()
            if action not in legal:
                raise ConformanceError(
                    f"{name} is not a game of ours: step {step} plays {action}, legal are "
                    f"{shorten(json.dumps(legal), 200)}"
                )
            state.apply(action)
    return target, history, earlier


def replay_history(
    target: Target,
    history: Sequence[int],
    *,
    fields: Sequence[str] | None = None,
    timeout: float = DEFAULT_TIMEOUT,
    action_map: ActionMap | None = None,
    cwd: str | None = None,
    max_line: int = MAX_LINE_BYTES,
    earlier_games: Sequence[Sequence[int]] = (),
) -> Outcome:
    """Plays exactly ``history`` on both sides, comparing after every step (no Hypothesis).

    Args:
        target: What is checked, a :class:`Target`; its fields are as for :func:`check`, and the
            implementation receives every option at its effective value.
        history: The game to play, our ids (a list of integers).
        fields: As for :func:`check`.
        timeout: As for :func:`check`.
        action_map: As for :func:`check`.
        cwd: As for :func:`check`.
        max_line: As for :func:`check`.
        earlier_games: Games the same process plays first, each a history as ``history`` (an
            :attr:`Outcome.earlier_games`): for a failure that needs the games played before it.
            Their divergences are ignored; a protocol error among them is the outcome's error.

    Raises:
        ConformanceError: Before anything starts, if ``history`` or an earlier game is not a
            legal game of ours (an illegal step, or steps after the end); see
            :func:`check_replay`.
        cardtable.errors.InvalidOptionError: Before anything starts, on a ``target`` that is not
            a :class:`Target` as :func:`check` wants, a history or earlier games that are not
            lists of integers, or bad ``fields``, ``timeout``, ``action_map``, ``cwd`` or
            ``max_line``.
    """
    checked = _arguments(fields, timeout, max_line, cwd, action_map)  # before the game is played
    return _replay(*check_replay(target, history, earlier_games), *checked)


def replay_checked(
    target: Target,
    history: list[int],
    earlier: list[list[int]],
    *,
    fields: Sequence[str] | None = None,
    timeout: float = DEFAULT_TIMEOUT,
    action_map: ActionMap | None = None,
    cwd: str | None = None,
    max_line: int = MAX_LINE_BYTES,
) -> Outcome:
    """:func:`replay_history` of a game that :func:`check_replay` has checked and returned.

    For ``cardtable conformance --replay``, which checks the reproducer's game first to report a
    bad file as a usage error; the other arguments are as for :func:`replay_history`.

    Raises:
        cardtable.errors.InvalidOptionError: Before anything starts, on bad ``fields``,
            ``timeout``, ``action_map``, ``cwd`` or ``max_line``.
    """
    return _replay(
        target, history, earlier, *_arguments(fields, timeout, max_line, cwd, action_map)
    )


def _replay(
    target: Target,
    history: list[int],
    earlier: list[list[int]],
    fields: list[str] | None,
    limits: _Limits,
    action_map: ActionMap,
) -> Outcome:
    """:func:`replay_history` once its game and its other arguments are checked."""
    started = time.perf_counter()
    outcome, opened = _open(target, fields, limits, action_map)
    if opened is None:
        return _finish(outcome, target, started)
    driver = opened
    try:
        outcome.divergence = _play_games(driver, earlier, history, outcome)
        if outcome.divergence is not None:
            outcome.earlier_games = driver.earlier
    except ProtocolError as err:
        outcome.error = err
        outcome.history = list(driver.reached)
        outcome.earlier_games = driver.earlier
    finally:
        driver.close()
    outcome.steps += driver.steps
    return _finish(outcome, target, started)


def _play_games(
    driver: _Driver, earlier: list[list[int]], history: list[int], outcome: Outcome
) -> Divergence | None:
    """Plays the ``earlier`` games (their divergences ignored), then ``history``: its divergence.

    The games are legal games of ours (:func:`check_replay`); each counts in
    ``outcome.examples``.

    Raises:
        ProtocolError: If the implementation breaks the protocol.
    """
    found = None
    for game in [*earlier, history]:
        outcome.examples += 1
        found = driver.play(_replayed(game), limit=len(game))
    return found


def _replayed(game: list[int]) -> Callable[[list[int]], int]:
    """The choices of a replay: the steps of ``game``, in order (legal: see check_replay)."""
    steps = iter(game)
    return lambda legal: next(steps)
