"""No crash, hang or foreign error at the edges, and states that pickle (issue: reliability).

Crashes and hangs are tested in a subprocess with a timeout, so that a regression fails the test
instead of taking the test run down with it.
"""

from __future__ import annotations

import contextlib
import copy
import json
import os
import pickle
import signal
import subprocess
import sys
import textwrap
import threading
import time
from pathlib import Path
from typing import Any

import numpy as np
import pytest

import cardtable
from cardtable import GameProtocol
from cardtable.errors import (
    CapacityError,
    CardtableError,
    IllegalActionError,
    InvalidOptionError,
    InvalidStateError,
)
from cardtable.sim import PolicyBatch
from cardtable.testing import perft
from tests.configs import ALL, IDS
from tests.walk import random_walk

ROOT = Path(__file__).resolve().parent.parent
TIMEOUT = 120


def run_script(code: str, timeout: float = TIMEOUT) -> subprocess.CompletedProcess[str]:
    """Runs ``code`` in a fresh interpreter; fails the test on a timeout (a hang)."""
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join([str(ROOT / "python"), str(ROOT)])
    try:
        return subprocess.run(
            [sys.executable, "-c", textwrap.dedent(code)],
            capture_output=True,
            text=True,
            timeout=timeout,
            env=env,
            cwd=ROOT,
        )
    except subprocess.TimeoutExpired:
        pytest.fail(f"the script hung for {timeout} s")


def outcomes(proc: subprocess.CompletedProcess[str]) -> list[str]:
    """The ``OUT ...`` lines a script printed, after checking that it exited cleanly."""
    assert proc.returncode == 0, f"exit {proc.returncode}\n{proc.stdout}\n{proc.stderr}"
    return [line[4:] for line in proc.stdout.splitlines() if line.startswith("OUT ")]


PRELUDE = """
import cardtable, numpy as np
from cardtable.errors import CardtableError

def attempt(label, fn):
    try:
        fn()
        print("OUT", label, "accepted", flush=True)
    except CardtableError as err:
        print("OUT", label, type(err).__name__, str(err)[:200].replace("\\n", " "), flush=True)
    except BaseException as err:
        print("OUT", label, "FOREIGN", type(err).__name__, str(err)[:200], flush=True)
"""


# ----- 1. deeply nested input -----


def test_deep_nesting_is_refused_not_a_crash() -> None:
    code = (
        PRELUDE
        + """
x = 0
for _ in range(20_000):
    x = [x]
make, sim, Vec = cardtable.make, cardtable.simulate, cardtable.VectorEnv
for backend in ("rust", "reference"):
    g = make("goofspiel", players=2, backend=backend)
    attempt(f"{backend} state_from_dict", lambda: g.state_from_dict({"game": "x", "junk": x}))
    attempt(f"{backend} make", lambda: make("trafficars", players=3, backend=backend, max_cars=x))
attempt("rust simulate", lambda: sim("goofspiel", games=1, players=2, progress=False, num_cards=x))
attempt("rust vector", lambda: Vec("goofspiel", 2, players=2, num_cards=x))
"""
    )
    lines = outcomes(run_script(code))
    assert len(lines) == 6, lines
    for line in lines:
        label = " ".join(line.split()[:2])
        expected = "InvalidStateError" if "state_from_dict" in label else "InvalidOptionError"
        assert line.split()[2] == expected, line
        assert "nested deeper than 64" in line, line


@pytest.mark.parametrize("backend", ["rust", "reference"])
def test_nesting_at_the_limit_is_read(backend: str) -> None:
    game = cardtable.make("goofspiel", players=2, backend=backend)  # type: ignore[arg-type]
    data = game.new_state(seed=1).to_dict()
    x: Any = 0
    for _ in range(63):
        x = [x]
    # 63 lists inside the top dict: 64 levels in all, accepted by the converter; the unknown key is
    # what is refused.
    with pytest.raises(InvalidStateError, match="unknown key"):
        game.state_from_dict({**data, "junk": x})
    with pytest.raises(InvalidStateError, match="nested deeper"):
        game.state_from_dict({**data, "junk": [x]})


@pytest.mark.parametrize("backend", ["rust", "reference"])
def test_shared_lists_are_counted_and_refused_at_a_million_values(backend: str) -> None:
    """Lists that share their items are read in full: 23 levels of ``[x, x]`` make 16 million
    values from 23 lists. Both backends stop at 1,000,000 values instead of reading them all
    (which took time doubling with every level)."""
    x: Any = 0
    for _ in range(23):
        x = [x, x]
    with pytest.raises(InvalidOptionError, match="more than 1000000 values"):
        cardtable.make("goofspiel", players=2, backend=backend, num_cards=x)  # type: ignore[arg-type]
    game = cardtable.make("goofspiel", players=2, backend=backend)  # type: ignore[arg-type]
    data = game.new_state(seed=1).to_dict()
    with pytest.raises(InvalidStateError, match="more than 1000000 values"):
        game.state_from_dict({**data, "junk": x})


def test_both_backends_read_str_subclasses_as_str() -> None:
    """``numpy.str_`` in a state dict or an option is the str it holds, in both backends (the
    reference used to keep the subclass and then refuse its own canonical dict)."""
    for backend in ("rust", "reference"):
        game = cardtable.make("trafficars", players=3, backend=backend, too_low=np.str_("insert"))
        assert type(game.options["too_low"]) is str
        data = game.new_state(seed=1).to_dict()
        data["state"]["phase"] = np.str_(data["state"]["phase"])
        assert game.state_from_dict(data).to_dict() == game.new_state(seed=1).to_dict()


class _LyingList(list[Any]):
    """A list whose iteration and length say something other than what it stores."""

    def __iter__(self) -> Any:
        return iter([99])

    def __len__(self) -> int:
        return 1


class _LyingDict(dict[str, Any]):
    """A dict whose items and keys say something other than what it stores."""

    def items(self) -> Any:
        return [("phase", "junk")]

    def __iter__(self) -> Any:
        return iter(["phase"])


class _LyingStr(str):
    """A str whose ``str()`` is another word."""

    __slots__ = ()

    def __str__(self) -> str:
        return "take"


class _SelfishStr(str):
    """A str equal only to itself, with a hash of its own."""

    __slots__ = ()

    def __eq__(self, other: object) -> bool:
        return other is self

    def __hash__(self) -> int:
        return 0


class _LyingFloat(float):
    """A float whose ``float()`` is another number."""

    def __float__(self) -> float:
        return float("nan")


@pytest.mark.parametrize("backend", ["rust", "reference"])
def test_subclasses_are_read_by_what_they_store(backend: str) -> None:
    """Subclasses of list, dict, str and float are read by their contents, whatever their
    iteration, ``items``, ``str()``, ``==`` or ``float()`` say, in both backends (the reference
    used to iterate them, so the two read such a state dict or option differently)."""
    game = cardtable.make("goofspiel", players=2, backend=backend)  # type: ignore[arg-type]
    data = game.new_state(seed=1).to_dict()
    state = {k: _LyingList(v) if isinstance(v, list) else v for k, v in data["state"].items()}
    lying = {**data, "state": _LyingDict(state)}
    assert game.state_from_dict(lying).to_dict() == data
    too_low = _LyingStr("insert")
    traffic = cardtable.make("trafficars", players=3, backend=backend, too_low=too_low)  # type: ignore[arg-type]
    assert traffic.options["too_low"] == "insert"
    # A game id too (the reference looked it up by the subclass's own hash and equality).
    selfish = cardtable.make(_SelfishStr("goofspiel"), players=2, backend=backend)  # type: ignore[arg-type]
    assert selfish.game_id == "goofspiel"
    assert cardtable.game_info(_SelfishStr("goofspiel")).id == "goofspiel"
    # The float stored is 5.0 (refused as not an int), not the NaN its float() gives.
    with pytest.raises(InvalidOptionError, match=r"must be an int in 1\.\.=60, got 5\.0"):
        cardtable.make("goofspiel", players=2, backend=backend, num_cards=_LyingFloat(5.0))  # type: ignore[arg-type]


class _BrokenIndex:
    """An object whose ``__index__`` raises something other than TypeError or ValueError."""

    def __index__(self) -> int:
        raise RuntimeError("broken __index__")


@pytest.mark.parametrize("backend", ["rust", "reference"])
def test_a_failing_index_is_a_package_error(backend: str) -> None:
    with pytest.raises(InvalidOptionError):
        cardtable.make("goofspiel", players=2, backend=backend, num_cards=_BrokenIndex())  # type: ignore[arg-type]
    game = cardtable.make("goofspiel", players=2, backend=backend)  # type: ignore[arg-type]
    state = game.new_state(seed=1)
    before = state.to_dict()
    with pytest.raises(IllegalActionError):
        state.apply(_BrokenIndex())  # type: ignore[arg-type]
    assert state.to_dict() == before
    with pytest.raises(InvalidStateError):
        game.state_from_dict({**before, "seed": _BrokenIndex()})


# ----- 2. sizes too large to hold -----


def test_huge_sizes_raise_capacity_errors() -> None:
    code = (
        PRELUDE
        + """
sim, Vec = cardtable.simulate, cardtable.VectorEnv
first = lambda b: [r[0] for r in b.legal_actions]
attempt("sim 2**62", lambda: sim("goofspiel", games=2**62, players=2, progress=False))
attempt("sim 1e11", lambda: sim("turn_the_tide", players=4, games=10**11, progress=False))
bots = ["random", first]
attempt("policy 1e10", lambda: sim("goofspiel", players=2, games=10**10, bots=bots, progress=False))
attempt("vector 2**63", lambda: Vec("goofspiel", 2**63, players=2))
attempt("vector dr 1e8", lambda: Vec("deep_regrets", 10**8, players=4))
"""
    )
    lines = outcomes(run_script(code))
    assert len(lines) == 5, lines
    for line in lines:
        assert "CapacityError" in line, line
    for line in lines[:3]:
        assert "keep_games=False" in line, line
    assert issubclass(CapacityError, MemoryError)
    assert issubclass(CapacityError, CardtableError)


def test_cli_with_too_many_games_to_keep_exits_cleanly() -> None:
    code = """
import sys
from cardtable.cli import main
sys.argv = ["cardtable", "simulate", "goofspiel", "--players", "2", "--games", "10000000000"]
main()
"""
    proc = run_script(code)
    assert proc.returncode == 2, (proc.returncode, proc.stderr)  # a usage error
    assert "--summary-only" in proc.stdout + proc.stderr
    assert "Traceback" not in proc.stderr


# ----- 3. two threads sharing one object -----


@pytest.mark.parametrize("reuse", [False, True])
def test_two_threads_sharing_a_vector_env_do_not_deadlock(reuse: bool) -> None:
    """Two threads sharing an env take turns (docs/errors.md "Threads"), also with reused
    buffers: the only error is the illegal action of a thread whose env the other moved on."""
    code = (
        PRELUDE
        + f"""
import threading
from cardtable.errors import IllegalActionError
env = cardtable.VectorEnv("goofspiel", 64, players=2, seed=3, reuse_buffers={reuse})
clear = IllegalActionError
env.reset()
errors, steps = [], [0, 0]

def work(k):
    rng = np.random.default_rng(k)
    info = None
    for _ in range(150):
        try:
            if info is None:
                obs, info = env.reset()
            mask = info["action_mask"]  # a row without a legal action: its game just ended
            actions = np.array([rng.choice(np.flatnonzero(m)) if m.any() else 0 for m in mask])
            obs, r, t, tr, info = env.step(actions)
            steps[k] += 1
        except clear:
            info = None   # the other thread moved first: a clear error, at once
        except BaseException as err:
            errors.append(repr(err))

threads = [threading.Thread(target=work, args=(k,)) for k in range(2)]
for t in threads: t.start()
for t in threads: t.join()
print("OUT", "errors", len(errors), errors[:2])
print("OUT", "steps", sum(steps))
"""
    )
    lines = outcomes(run_script(code, timeout=60))
    assert lines[0].startswith("errors 0"), lines
    assert int(lines[1].split()[1]) > 0


def test_two_threads_sharing_a_policy_run_and_a_state() -> None:
    game = cardtable.make("goofspiel", players=2)
    state = game.new_state(seed=1)
    failures: list[BaseException] = []

    def perft() -> None:
        try:
            for _ in range(3):
                state.perft(4)  # type: ignore[attr-defined]
        except BaseException as err:
            failures.append(err)

    def play() -> None:
        try:
            for _ in range(50):
                twin = state.clone()
                twin.apply(twin.legal_actions()[0])
                state.to_dict()
        except BaseException as err:
            failures.append(err)

    threads = [threading.Thread(target=f) for f in (perft, play, perft, play)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=60)
    assert not any(t.is_alive() for t in threads)
    assert failures == []


def test_applying_to_a_state_a_search_reads_in_another_thread_is_refused() -> None:
    """A state that a search reads with the GIL released cannot change meanwhile: ``apply`` is
    an ``InvalidStateError`` (it was PyO3's ``RuntimeError: Already borrowed``), the state is
    unchanged, and it plays on once the search is done."""
    game = cardtable.make("turn_the_tide", players=3)
    state = game.new_state(seed=1)
    searching, checked = threading.Event(), threading.Event()

    def progress(done: int, total: int) -> bool:
        searching.set()
        checked.wait(30)
        return False  # ends the batch

    def search() -> None:
        with contextlib.suppress(KeyboardInterrupt):  # what a stopped batch raises
            cardtable.search(game, [state], "mcts:iterations=100000000", progress=progress)

    thread = threading.Thread(target=search)
    thread.start()
    try:
        assert searching.wait(30)
        before = state.to_dict()
        with pytest.raises(InvalidStateError, match="being read in another thread"):
            state.apply(state.legal_actions()[0])
        assert state.to_dict() == before
    finally:
        checked.set()
        thread.join(30)
    assert not thread.is_alive()
    state.apply(state.legal_actions()[0])


# ----- 4. Ctrl-C latency -----

INTERRUPT = """
import signal, time, cardtable
# Python installs its Ctrl-C handler only if SIGINT is not ignored when it starts, and a shell's
# background job starts with SIGINT ignored: install it, so that the test does not depend on how
# its own run was started.
signal.signal(signal.SIGINT, signal.default_int_handler)
t0 = None
print("READY", flush=True)
try:
    {call}
    print("OUT", "returned", time.perf_counter(), flush=True)
except KeyboardInterrupt:
    print("OUT", "interrupted", time.perf_counter(), flush=True)
"""


PROMPT = 4.0
"""Seconds within which a stop after SIGINT counts as prompt: the work interrupted would run for
minutes or forever (and did run 10 s and more before the stops these tests pin), while on a
loaded machine a prompt stop has taken over a second."""


def interrupt_latency(call: str, *, after: float = 1.5) -> tuple[str, float]:
    """Starts ``call`` in a subprocess, sends SIGINT ``after`` s in, returns (how, seconds)."""
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join([str(ROOT / "python"), str(ROOT)])
    proc = subprocess.Popen(
        [sys.executable, "-c", INTERRUPT.format(call=call)],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env=env,
    )
    try:
        assert proc.stdout is not None
        assert proc.stdout.readline().strip() == "READY"
        time.sleep(after)
        sent = time.perf_counter()
        proc.send_signal(signal.SIGINT)
        out, err = proc.communicate(timeout=30)
    except subprocess.TimeoutExpired:
        proc.kill()
        pytest.fail("SIGINT did not stop the run within 30 s")
    line = next((x for x in out.splitlines() if x.startswith("OUT ")), None)
    assert line is not None, f"{out}\n{err}"
    _, how, stamp = line.split()
    return how, float(stamp) - sent


@pytest.mark.parametrize("games", ["2**63", "10**11"])
def test_ctrl_c_stops_a_huge_batch_at_once(games: str) -> None:
    how, latency = interrupt_latency(
        f"r = cardtable.simulate('goofspiel', players=2, games={games}, keep_games=False, "
        "progress=False); assert r.interrupted and r.games_played > 0"
    )
    assert how == "returned"
    assert latency < PROMPT, f"stopped {latency:.3f} s after SIGINT"


def test_ctrl_c_stops_perft_at_once() -> None:
    how, latency = interrupt_latency(
        "cardtable.make('turn_the_tide', players=4).new_state(seed=1).perft(40)"
    )
    assert how == "interrupted"
    assert latency < PROMPT, f"stopped {latency:.3f} s after SIGINT"


def test_ctrl_c_ends_a_batch_of_searches_at_once() -> None:
    """Every search in progress of a ``cardtable.search`` batch stops at Ctrl-C, which raises
    ``SearchInterrupted`` (a ``KeyboardInterrupt``) without the searches it cut short."""
    how, latency = interrupt_latency(
        "g = cardtable.make('goofspiel', players=2, num_cards=13); "
        'exec("try:\\n'
        "    cardtable.search(g, [g.new_state(seed=s) for s in range(6)], "
        "'mcts:iterations=50000000', threads=2)\\n"
        "except cardtable.SearchInterrupted as stop:\\n"
        "    assert stop.total == 6 and len(stop.indices) == len(stop.batch) == 0, stop\\n"
        '    raise")'
    )
    assert how == "interrupted"
    assert latency < PROMPT, f"stopped {latency:.3f} s after SIGINT"


@pytest.mark.parametrize("spec", ["mcts:iterations=5000000", "flatmc:samples=5000000"])
def test_ctrl_c_ends_a_long_search_decision_at_once(spec: str) -> None:
    """A per-step search bot decides with the GIL released and stops at Ctrl-C (it used to
    finish its whole decision first, minutes for these budgets)."""
    how, latency = interrupt_latency(
        "g = cardtable.make('goofspiel', players=2, num_cards=13); "
        f"cardtable.bot(g, '{spec}', 0).act(g.new_state(seed=1))"
    )
    assert how == "interrupted"
    assert latency < PROMPT, f"stopped {latency:.3f} s after SIGINT"


def test_ctrl_c_ends_a_batch_whose_search_bot_is_deciding() -> None:
    """The batch runner raises its search bots' stop flags on Ctrl-C, so a decision of 5,000,000
    iterations ends at once, and the game it cut short is not counted."""
    how, latency = interrupt_latency(
        "r = cardtable.simulate('goofspiel', players=2, num_cards=13, games=4, threads=1, "
        "bots=['mcts:iterations=5000000', 'random'], progress=False); "
        "assert r.interrupted and r.games_played == 0, r"
    )
    assert how == "returned"
    assert latency < PROMPT, f"stopped {latency:.3f} s after SIGINT"


@pytest.mark.parametrize("policy_seat", [0, 1])
def test_ctrl_c_ends_a_policy_run_whose_search_bot_is_deciding(policy_seat: int) -> None:
    """A run of a Python policy against a search bot stops at Ctrl-C as a run of built-in bots
    does: the search ends at once, the run returns marked interrupted, and the game it cut short
    is not counted. It used to finish the decision first (the GIL held while the search played up
    to the policy's first decision) or let ``KeyboardInterrupt`` escape ``simulate``."""
    bots = ["policy", "'mcts:iterations=50000000'"]
    if policy_seat == 1:
        bots.reverse()
    how, latency = interrupt_latency(
        "policy = lambda batch: [legal[0] for legal in batch.legal_actions]\n"
        "    r = cardtable.simulate('goofspiel', players=2, num_cards=13, games=4, "
        f"bots=[{', '.join(bots)}], progress=False)\n"
        "    assert r.interrupted and r.games_played == 0, r"
    )
    assert how == "returned"
    assert latency < PROMPT, f"stopped {latency:.3f} s after SIGINT"


@pytest.mark.parametrize("buffers", [False, True])
def test_ctrl_c_ends_a_vector_step_whose_opponent_is_searching(buffers: bool) -> None:
    """VectorEnv.step raised KeyboardInterrupt only once its opponents' searches were done (10 s
    and more); now their stop flags are raised at once, and the env asks for a reset."""
    how, latency = interrupt_latency(
        "env = cardtable.VectorEnv('goofspiel', num_envs=2, players=2, agent_seats=[0], "
        f"opponents=['mcts:iterations=5000000'], seed=1, threads=1, reuse_buffers={buffers})\n"
        "    obs, info = env.reset()\n"
        "    try:\n"
        "        env.step(info['action_mask'].argmax(axis=1))\n"
        "    except KeyboardInterrupt:\n"
        "        try:\n"
        "            env.step(info['action_mask'].argmax(axis=1))\n"
        "        except cardtable.InvalidStateError as err:\n"
        "            assert 'reset' in str(err), err\n"
        "            env.reset()\n"
        "            raise KeyboardInterrupt from None"
    )
    assert how == "interrupted"
    assert latency < PROMPT, f"stopped {latency:.3f} s after SIGINT"


def test_an_exception_from_a_signal_handler_is_not_taken_for_ctrl_c() -> None:
    """Only Ctrl-C's ``KeyboardInterrupt`` ends ``simulate`` with the games played so far; what
    another signal handler raises (an alarm's timeout, as pytest-timeout's) is the caller's and
    propagates. It used to be swallowed: a timed-out run came back as a short result."""

    class Alarm(Exception):
        pass

    def ring(signum: int, frame: object) -> None:
        raise Alarm

    previous = signal.signal(signal.SIGALRM, ring)
    try:
        signal.setitimer(signal.ITIMER_REAL, 0.3)
        with pytest.raises(Alarm):
            cardtable.simulate(
                "goofspiel", players=2, games=10**8, keep_games=False, progress=False
            )
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)


def test_ctrl_c_inside_the_progress_callback_keeps_the_games_played() -> None:
    """Ctrl-C that lands while the progress callback runs (raised inside it) ends ``simulate``
    with the games played so far, as one between two callbacks does; it used to propagate and
    lose them."""
    calls = 0

    def progress(done: int, total: int) -> None:
        nonlocal calls
        calls += 1
        if calls == 3:
            raise KeyboardInterrupt

    result = cardtable.simulate(
        "goofspiel", players=2, games=10**9, keep_games=False, threads=1, progress=progress
    )
    assert result.interrupted and 0 < result.games_played < 10**9


# ----- 5. clone never mutates its source -----


@pytest.mark.parametrize(
    ("game_id", "config"), ALL[:: max(1, len(ALL) // 8)], ids=IDS[:: max(1, len(ALL) // 8)]
)
def test_clone_from_many_threads_leaves_the_source_intact(
    game_id: str, config: dict[str, Any], backend: str
) -> None:
    game = cardtable.make(game_id, backend=backend, **config)  # type: ignore[arg-type]
    state = game.new_state(seed=5)
    before = state.to_dict()
    failures: list[BaseException] = []

    def clone_many() -> None:
        try:
            for _ in range(30):
                twin = state.clone()
                assert twin.to_dict() == before
        except BaseException as err:
            failures.append(err)

    threads = [threading.Thread(target=clone_many) for _ in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert failures == []
    assert state.to_dict() == before
    if not state.is_terminal:
        state.apply(state.legal_actions()[0])


# ----- 7. foreign errors -----

NOT_FOREIGN: list[tuple[str, Any, type[CardtableError]]] = [
    ("games=2**64", lambda: sim(games=2**64), InvalidOptionError),
    ("games=-1", lambda: sim(games=-1), InvalidOptionError),
    ("threads=2**64", lambda: sim(threads=2**64), InvalidOptionError),
    ("threads=0", lambda: sim(threads=0), InvalidOptionError),
    ("batch_size=-1", lambda: sim(batch_size=-1, bots=["random", first]), InvalidOptionError),
    ("batch_size=2**64", lambda: sim(batch_size=2**64, bots=["random", first]), InvalidOptionError),
    ("bots None", lambda: sim(bots=["random", None]), InvalidOptionError),
    ("bots str", lambda: sim(bots="random"), InvalidOptionError),
    ("keep_games=1", lambda: sim(keep_games=1), InvalidOptionError),
    (
        "vector 2**64",
        lambda: cardtable.VectorEnv("goofspiel", 2**64, players=2),
        InvalidOptionError,
    ),
    (
        "vector seats",
        lambda: cardtable.VectorEnv("goofspiel", 2, players=2, agent_seats=[-1]),
        InvalidOptionError,
    ),
    (
        "vector seats not a sequence",
        lambda: cardtable.VectorEnv("goofspiel", 2, players=2, agent_seats=1.5),  # type: ignore[arg-type]
        InvalidOptionError,
    ),
    (
        "vector opponents None",
        lambda: cardtable.VectorEnv("goofspiel", 2, players=2, opponents=None),  # type: ignore[arg-type]
        InvalidOptionError,
    ),
    (
        "vector threads",
        lambda: cardtable.VectorEnv("goofspiel", 2, players=2, threads=2**64),
        InvalidOptionError,
    ),
    (
        "bot seed",
        lambda: cardtable.bot(cardtable.make("goofspiel", players=2), "random", 0, seed=2**70),
        InvalidOptionError,
    ),
    (
        "bot seat",
        lambda: cardtable.bot(cardtable.make("goofspiel", players=2), "random", 2**70),
        InvalidOptionError,
    ),
]


def first(batch: PolicyBatch) -> list[int]:
    """A policy that plays each row's first legal action."""
    return [legal[0] for legal in batch.legal_actions]


def sim(**kwargs: Any) -> cardtable.SimulationResult:
    """A small goofspiel run with ``kwargs`` overriding its arguments."""
    args: dict[str, Any] = {"games": 3, "players": 2, "progress": False, **kwargs}
    return cardtable.simulate("goofspiel", **args)


@pytest.mark.parametrize(("label", "call", "cls"), NOT_FOREIGN, ids=[x[0] for x in NOT_FOREIGN])
def test_bad_counts_raise_the_package_errors(label: str, call: Any, cls: type) -> None:
    with pytest.raises(cls):
        call()


@pytest.mark.parametrize("game_id", [None, 3, ["goofspiel"], b"goofspiel"])
def test_make_with_a_non_str_id(game_id: Any, backend: str) -> None:
    with pytest.raises(InvalidOptionError, match="unknown game"):
        cardtable.make(game_id, players=2, backend=backend)  # type: ignore[arg-type]


@pytest.mark.parametrize("depth", [-1, 2**32, 2**70, 1.5, True, "2"])
def test_perft_depth_is_checked(depth: Any, backend: str) -> None:
    """Both backends refuse a bad depth at once (the reference used to count the whole tree)."""
    game = cardtable.make("goofspiel", players=2, num_cards=3, backend=backend)  # type: ignore[arg-type]
    with pytest.raises(InvalidOptionError, match="depth"):
        perft(game.new_state(seed=1), depth)


@pytest.mark.parametrize("bad", ["1", 0.9, 1.0, True, 2**70, None, [0]])
def test_policy_outputs_must_be_exact_ints(bad: Any) -> None:
    def policy(batch: PolicyBatch) -> list[Any]:
        out: list[Any] = [legal[0] for legal in batch.legal_actions]
        out[-1] = bad
        return out

    with pytest.raises(IllegalActionError, match=r"row \d+ of its batch") as info:
        sim(bots=["random", policy], games=4)
    assert "seat 1" in str(info.value)


@pytest.mark.parametrize("answer", [None, 3, "01", np.array(0), np.int64(0)])
def test_policy_must_return_a_sequence_of_the_batch_size(answer: Any) -> None:
    with pytest.raises(IllegalActionError, match="policy"):
        sim(bots=["random", lambda batch: answer], games=4)


def test_policy_outputs_may_be_numpy_ints() -> None:
    def policy(batch: PolicyBatch) -> np.ndarray:
        return np.array([legal[0] for legal in batch.legal_actions], dtype=np.int32)

    result = sim(bots=["random", policy], games=4)
    assert result.games_played == 4
    expected = sim(bots=["random", first], games=4)
    assert np.array_equal(result.scores, expected.scores)  # type: ignore[arg-type]


def test_policy_outputs_may_be_a_strided_array() -> None:
    """A column of a 2-d array (not contiguous) is read like any 1-d integer array."""

    def column(batch: PolicyBatch) -> np.ndarray:
        ranked = np.argsort(~batch.legal_mask, axis=1, kind="stable")
        assert not ranked[:, 0].flags.c_contiguous
        return ranked[:, 0]

    expected = sim(bots=[first, "random"], games=4)
    assert np.array_equal(sim(bots=[column, "random"], games=4).scores, expected.scores)  # type: ignore[arg-type]


def test_policy_items_may_be_0d_integer_arrays_with_one_policy_or_several() -> None:
    """Integers by the input rule (``__index__``), alike whether one policy answers or two."""

    def zero_d(batch: PolicyBatch) -> list[Any]:
        return [np.array(legal[0]) for legal in batch.legal_actions]

    expected = sim(bots=[first, first], games=4)
    for bots in ([zero_d, "random"], [zero_d, zero_d]):
        result = sim(bots=bots, games=4)
        assert result.games_played == 4
    assert np.array_equal(sim(bots=[zero_d, zero_d], games=4).scores, expected.scores)  # type: ignore[arg-type]


def test_illegal_policy_action_names_the_row() -> None:
    def policy(batch: PolicyBatch) -> list[int]:
        return [
            max(legal) + 1 if i == 0 else legal[0] for i, legal in enumerate(batch.legal_actions)
        ]

    with pytest.raises(IllegalActionError, match=r"row 0 of its batch.*not legal"):
        sim(bots=["random", policy], games=4)


# ----- 8. copy and pickle -----


def test_copy_and_deepcopy_are_independent(configured_game: GameProtocol) -> None:
    game = configured_game
    state = game.new_state(seed=2)
    random_walk(state, 1, 5)
    before = state.to_dict()
    for twin in (copy.copy(state), copy.deepcopy(state), state.clone()):
        assert twin.to_dict() == before
        random_walk(twin, 3, 10)
        assert state.to_dict() == before
    assert copy.copy(game) is game
    assert copy.deepcopy(game) is game


def test_pickle_round_trip_in_process(configured_game: GameProtocol) -> None:
    game = configured_game
    again = pickle.loads(pickle.dumps(game))
    assert (again.game_id, again.players, again.options) == (
        game.game_id,
        game.players,
        game.options,
    )
    for seed in (None, 4):
        state = game.new_state(seed=seed)
        random_walk(state, 7, 12)
        restored = pickle.loads(pickle.dumps(state))
        assert type(restored) is type(state)
        assert restored.to_dict() == state.to_dict()
        random_walk(state, 9, 40)
        random_walk(restored, 9, 40)
        assert restored.to_dict() == state.to_dict()


def test_pickled_states_continue_identically_in_another_process() -> None:
    states = []
    for game_id, config in ALL:
        for backend in ("rust", "reference"):
            game = cardtable.make(game_id, backend=backend, **config)
            state = game.new_state(seed=11)
            random_walk(state, 5, 15)
            states.append(state)
    blob = pickle.dumps(states).hex()
    code = f"""
import json, pickle
from tests.walk import random_walk
states = pickle.loads(bytes.fromhex({blob!r}))
for s in states:
    random_walk(s, 13, 60)
    print("OUT", json.dumps(s.to_dict(), sort_keys=True))
"""
    lines = outcomes(run_script(code))
    assert len(lines) == len(states)
    for state, line in zip(states, lines, strict=True):
        random_walk(state, 13, 60)
        assert json.loads(line) == json.loads(json.dumps(state.to_dict(), sort_keys=True))


def test_vector_env_and_bots_refuse_pickling_clearly() -> None:
    env = cardtable.VectorEnv("goofspiel", 2, players=2)
    with pytest.raises(InvalidStateError, match="cannot be pickled"):
        pickle.dumps(env)
    with pytest.raises(InvalidStateError, match="cannot be pickled"):
        copy.deepcopy(env)
    bot = cardtable.bot(cardtable.make("goofspiel", players=2), "random", 0)
    with pytest.raises(InvalidStateError, match="cannot be pickled"):
        pickle.dumps(bot)


@pytest.mark.parametrize("other", ["players", "options", "not a state"])
def test_a_bot_refuses_a_state_of_another_game_setup(other: str, backend: str) -> None:
    """A bot plays only states of its own game: same id, players and options, on both backends.

    A Rust state of another player count used to be accepted, and a Deep Regrets bot then
    returned an action that was not legal in it.
    """
    game = cardtable.make("deep_regrets", players=5, days=5)
    if other == "players":
        state: Any = cardtable.make("deep_regrets", players=2, backend=backend).new_state(seed=0)  # type: ignore[arg-type]
    elif other == "options":
        state = cardtable.make("deep_regrets", players=5, backend=backend).new_state(seed=0)  # type: ignore[arg-type]
    else:
        state = "not a state"
    bot = cardtable.bot(game, "random", seat=0, seed=1)
    for call in (bot.act, bot.observe):
        with pytest.raises(IllegalActionError, match="this bot plays deep_regrets"):
            call(state)


def test_unpickling_a_tampered_state_is_checked(backend: str) -> None:
    game = cardtable.make("goofspiel", players=2, backend=backend)  # type: ignore[arg-type]
    state = game.new_state(seed=1)
    reduced: Any = state.__reduce__()
    restore, (data,) = reduced
    data["history"] = [*data["history"], 99]
    with pytest.raises(InvalidStateError):
        restore(data)


def test_unpickling_options_with_non_str_keys_is_an_invalid_state(backend: str) -> None:
    game = cardtable.make("goofspiel", players=2, backend=backend)  # type: ignore[arg-type]
    reduced: Any = game.new_state(seed=1).__reduce__()
    restore, (data,) = reduced
    data["options"] = {1: 2}
    with pytest.raises(InvalidStateError):
        restore(data)


def test_a_forgetful_bot_reused_across_games_plays_only_legal_flips() -> None:
    """A bot shown a state of another game catches up from that game's start, as a fresh bot
    would: what it remembered of the last game (where each car lay) does not make it flip a
    position that is no longer face down."""
    import random

    game = cardtable.make("trafficars_memory", players=2)
    for spec in ("forgetful", "forgetful:0.5", "forgetful:1"):
        bot = cardtable.bot(game, spec, 0, seed=1)
        rng = random.Random(0)
        for seed in range(6):
            state = game.new_state(seed=seed)
            while not state.is_terminal:
                bot.observe(state)
                if state.current_player == 0:
                    action = bot.act(state)
                    assert action in state.legal_actions(), (spec, seed)
                else:
                    action = rng.choice(state.legal_actions())
                state.apply(action)


@pytest.mark.parametrize("not_a_game", ["goofspiel", None, 3])
def test_a_bot_needs_a_game(not_a_game: Any) -> None:
    with pytest.raises(InvalidOptionError, match="expected a game"):
        cardtable.bot(not_a_game, "random", 0)


def test_a_bot_refuses_a_seed_of_none() -> None:
    """The engine's ``Bot`` reads ``seed=None`` as seed 0; ``VectorEnv(seed=None)`` is refused."""
    game = cardtable.make("goofspiel", players=2)
    with pytest.raises(InvalidOptionError, match=r"seed must be an int.*got None"):
        cardtable.bot(game, "random", seat=0, seed=None)  # type: ignore[arg-type]


def test_a_bot_is_not_seated_in_a_state() -> None:
    state = cardtable.make("goofspiel", players=2).new_state(seed=0)
    with pytest.raises(InvalidOptionError, match="expected a game"):
        cardtable.bot(state, "random", 0)  # type: ignore[arg-type]


def test_vector_env_refuses_ragged_and_array_arguments_with_package_errors() -> None:
    env = cardtable.VectorEnv("goofspiel", 3, players=2, seed=1)
    env.reset()
    with pytest.raises(IllegalActionError, match="actions must be a flat list of ints"):
        env.step([[1], [1, 2], 3])  # type: ignore[arg-type]
    with pytest.raises(InvalidOptionError, match="must be a flat list of ints"):
        env.observe([[0], [0, 1]])
    with pytest.raises(InvalidOptionError, match="reward must be"):
        cardtable.VectorEnv("goofspiel", 3, players=2, reward=np.array(["win", "score"]))  # type: ignore[arg-type]
    plain = cardtable.VectorEnv("goofspiel", 3, players=2, reward=np.str_("score"))  # type: ignore[arg-type]
    assert type(plain.reward) is str and plain.reward == "score"


@pytest.mark.parametrize("not_a_state", [None, {}, "state"])
def test_pictures_need_a_state(not_a_state: Any) -> None:
    for draw in (cardtable.render.svg, cardtable.render.view):
        with pytest.raises(InvalidOptionError, match="expected a state"):
            draw(not_a_state)


def test_messages_tell_an_integer_out_of_range_and_a_lone_surrogate_apart() -> None:
    """An int too large for 64 bits was reported as "must be an int", and a str holding a lone
    surrogate as "must be a str" (shown as replacement characters)."""
    game = cardtable.make("goofspiel", players=2)
    too_big = "1180591620717411303424 is out of range"
    with pytest.raises(InvalidOptionError, match=f"players {too_big}"):
        cardtable.make("goofspiel", players=2**70)
    with pytest.raises(IllegalActionError, match=f"action {too_big}"):
        game.new_state(seed=1).apply(2**70)
    with pytest.raises(InvalidOptionError, match=r"lone surrogate\), got '\\ud800'"):
        cardtable.bot(game, "\ud800", 0)


def test_a_failed_write_leaves_no_half_written_file(tmp_path: Path) -> None:
    """``write_report``, ``Replay.save`` and ``to_parquet`` past a file size limit."""
    proc = run_script(
        PRELUDE
        + f"""
import os, resource
from cardtable.analysis import balance
folder = {str(tmp_path)!r}
result = balance("goofspiel", players=2, games=4, progress=False)
from cardtable.render.replay import play_game
game = cardtable.make("deep_regrets", players=3)
viewer = cardtable.replay(play_game(game, ["greedy"] * 3, 0)[0], game)
resource.setrlimit(resource.RLIMIT_FSIZE, (8192, resource.getrlimit(resource.RLIMIT_FSIZE)[1]))
for name, write in (("r.html", result.write_report), ("v.html", viewer.save),
                    ("r.parquet", result.to_parquet)):
    try:
        write(os.path.join(folder, name))
        print("OUT", name, "written")
    except OSError as err:
        print("OUT", name, err.errno)
print("OUT", sorted(os.listdir(folder)))
"""
    )
    lines = outcomes(proc)
    assert lines[:2] == ["r.html 27", "v.html 27"]  # EFBIG
    # A small Parquet file fits under the limit: it is there whole, or not at all.
    assert lines[-1] == ("['r.parquet']" if lines[2] == "r.parquet written" else "[]")


@pytest.mark.skipif(not hasattr(os, "fork"), reason="needs fork")
def test_a_forked_child_can_count_and_run_policies_after_its_parent_did() -> None:
    """``State.perft`` at depth 3 and a Python-policy run with a search bot used rayon's global
    pool, whose threads a child of ``fork`` (multiprocessing's default start method on Linux)
    does not have: after the parent had made either call, the child's hung forever, deaf to
    Ctrl-C. The child now runs them as the parent did."""
    script = textwrap.dedent(
        """
        import os, sys, cardtable
        game = cardtable.make("goofspiel", players=2, num_cards=4)

        def policy(batch):
            return [legal[0] for legal in batch.legal_actions]

        def work():
            count = game.new_state(seed=1).perft(3)
            run = cardtable.simulate(
                "goofspiel", players=2, games=3, bots=[policy, "mcts:iterations=5"],
                num_cards=4, progress=False,
            )
            return count, run.games_played

        expected = work()  # the parent starts the pools
        child = os.fork()
        if child == 0:
            os._exit(0 if work() == expected else 3)
        _, status = os.waitpid(child, 0)
        sys.exit(os.waitstatus_to_exitcode(status))
        """
    )
    command = [sys.executable, "-c", script]
    run = subprocess.run(command, capture_output=True, text=True, timeout=120)
    assert run.returncode == 0, run.stderr
