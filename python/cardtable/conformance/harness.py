"""The other side: a child process that speaks the protocol, with every way it can misbehave caught.

:class:`Implementation` starts the command, sends one request at a time and waits for its answer
with a timeout. A crash, a hang, a line that is not JSON or longer than the protocol allows, an
answer that breaks the schema or answers another request becomes a :class:`ProtocolError` carrying
the last exchange and the end of the child's standard error. The child (with everything it started
in its process group) is always stopped on :meth:`Implementation.close`, which the context manager
calls on any exit, ``KeyboardInterrupt`` included. Its pipes are read and written by threads of
their own, which :meth:`Implementation.close` stops whether or not the pipes are still open (a
process the child detached from its group may hold them forever), so closing never waits on the
child.
"""

from __future__ import annotations

import codecs
import contextlib
import json
import math
import numbers
import os
import queue
import re
import select
import shlex
import signal
import subprocess
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from types import TracebackType
from typing import IO, Any, Self

from cardtable._inputs import check_int, check_path, shown
from cardtable.conformance.protocol import (
    FIELDS,
    MAX_DEPTH,
    MAX_LINE_BYTES,
    PROTOCOL_VERSION,
    REQUIRED_FIELDS,
    answer_schema,
    schema_errors,
)
from cardtable.errors import CardtableError, InvalidOptionError

__all__ = [
    "DEFAULT_TIMEOUT",
    "MAX_TIMEOUT",
    "ConformanceError",
    "Exchange",
    "Implementation",
    "ProtocolError",
    "RefusedError",
    "check_command",
    "check_cwd",
    "check_max_line",
    "check_timeout",
    "printable",
    "shorten",
]

DEFAULT_TIMEOUT = 10.0
"""Seconds the implementation may take to answer one request."""

STARTUP_ALLOWANCE = 5.0
"""Seconds the first answer (to ``hello``) may take on top, for runtimes that start slowly."""

MAX_TIMEOUT = 86_400.0
"""The longest timeout accepted, in seconds (a day)."""

_STDERR_TAIL = 4000
_SHOWN = 2000
_HEAD = 200
"""Bytes of a line that is too long kept for the report."""
_CHUNK = 1 << 16
_EXIT_POLL = 0.05
"""Seconds between two looks at whether the child exited, while an answer is due."""
_EXIT_GRACE = 0.5
"""Seconds given, after the child exited, for what it wrote to be read."""
_SURROGATE_ESCAPE = re.compile(r"\\u[dD][89a-fA-F]")
r"""The JSON escape of a surrogate (``\ud800``...), the only way a line read yields one."""


def check_timeout(timeout: Any) -> float:
    """``timeout`` in seconds, if it is a finite positive number of at most :data:`MAX_TIMEOUT`.

    Raises:
        InvalidOptionError: For anything else (NaN, infinity, zero, a negative number, a bool).
    """
    seconds = math.nan
    if isinstance(timeout, numbers.Real) and not isinstance(timeout, bool):
        with contextlib.suppress(OverflowError):
            seconds = float(timeout)
    if not 0 < seconds <= MAX_TIMEOUT:  # NaN fails too
        raise InvalidOptionError(
            f"timeout must be a number of seconds above 0 and at most {MAX_TIMEOUT:g}, "
            f"got {shown(timeout)}"
        )
    return seconds


def check_max_line(max_line: Any) -> int:
    """``max_line``, the longest answer line read in bytes, if it is an int ``>= 1``.

    The protocol's limit is :data:`~cardtable.conformance.protocol.MAX_LINE_BYTES`; a smaller one
    fails sooner, a larger one admits longer answers.

    Raises:
        InvalidOptionError: For anything else (zero, a negative number, a bool, a float).
    """
    return check_int("max_line", max_line, 1)


def check_command(command: Any) -> str:
    """``command`` as a command line: a string, or a list or tuple of strings (its argv).

    An argv is joined as a POSIX shell quotes it (:func:`shlex.join`), so that splitting the
    command line gives it back.

    Raises:
        InvalidOptionError: For anything else, an empty command (nothing but blanks, or no
            argv), or a command holding a NUL character.
    """
    given = command
    if isinstance(command, (list, tuple)) and all(isinstance(arg, str) for arg in command):
        command = shlex.join(command)
    if not isinstance(command, str) or "\0" in command or not command.strip():
        raise InvalidOptionError(
            "command must be a command line (a string) or its argv (a list of strings), "
            f"not empty and without NUL characters, got {shown(given)}"
        )
    return command


def check_cwd(cwd: Any) -> str | None:
    """``cwd``, the implementation's working directory, if it is ``None`` or an existing directory.

    Raises:
        InvalidOptionError: For anything else (a path that is not a directory, a number).
    """
    if cwd is None:
        return None
    try:
        path = os.fspath(check_path(cwd, "cwd"))
    except InvalidOptionError:
        path = ""
    if not os.path.isdir(path):
        raise InvalidOptionError(f"cwd must be None or an existing directory, got {shown(cwd)}")
    return path


def printable(text: str) -> str:
    r"""``text`` with every lone surrogate escaped (``\ud800``), so that it can be printed.

    JSON can name a lone surrogate (``"\ud800"``), which no UTF-8 output can encode.
    """
    return text.encode("utf-8", "backslashreplace").decode("utf-8")


def _printable_strings(value: Any) -> Any:
    """A parsed JSON value with :func:`printable` strings, the keys of its objects included."""
    if isinstance(value, str):
        return printable(value)
    if isinstance(value, list):
        return [_printable_strings(item) for item in value]
    if isinstance(value, dict):
        return {printable(key): _printable_strings(item) for key, item in value.items()}
    return value


class ConformanceError(CardtableError):
    """Base class of the errors of the conformance harness."""


@dataclass
class Exchange:
    """One request and what came back.

    Attributes:
        request: The request sent.
        answer: The raw line received (without its newline), or ``None`` if none came.
    """

    request: dict[str, Any]
    answer: str | None = None

    def __str__(self) -> str:
        sent = json.dumps(self.request)
        got = "(nothing)" if self.answer is None else shorten(self.answer)
        return f"  sent:     {sent}\n  received: {got}"


def shorten(text: str, limit: int = _SHOWN) -> str:
    """``text``, cut after ``limit`` characters with a note of its length."""
    return text if len(text) <= limit else f"{text[:limit]}... ({len(text)} characters)"


class ProtocolError(ConformanceError):
    """The implementation broke the protocol (it did not merely disagree about the rules).

    Attributes:
        kind: ``start``, ``crash``, ``timeout``, ``too_long`` (an answer line longer than the
            limit), ``bad_json``, ``schema``, ``wrong_id``, ``refused``, ``unsupported``,
            ``flaky``, or ``map`` (the map hook failed).
        detail: What went wrong.
        exchange: The last request and whatever came back.
        stderr: The end of the child's standard error.
    """

    def __init__(
        self, kind: str, detail: str, exchange: Exchange | None = None, stderr: str = ""
    ) -> None:
        self.kind = kind
        self.detail = detail
        self.exchange = exchange
        self.stderr = stderr
        super().__init__(self.describe())

    def describe(self) -> str:
        """A readable report: what happened, the last exchange, the child's last words."""
        lines = [f"protocol error ({self.kind}): {self.detail}"]
        if self.exchange is not None:
            lines += ["last exchange:", str(self.exchange)]
        if self.stderr.strip():
            lines += ["end of the implementation's standard error:"]
            lines += [f"  | {line}" for line in self.stderr.rstrip().splitlines()]
        return printable("\n".join(lines))


class RefusedError(ConformanceError):
    """The implementation answered a request with a well-formed ``error`` message.

    Attributes:
        message: Its message.
        exchange: The request and the answer.
    """

    def __init__(self, message: str, exchange: Exchange) -> None:
        self.message = message
        self.exchange = exchange
        super().__init__(f"the implementation refused the request: {message}\n{exchange}")


class Implementation:
    r"""A child process speaking the conformance protocol.

    Every string of an answer (an object's keys too) holding a lone surrogate, which JSON can
    escape (``"\ud800"``) but UTF-8 cannot encode, is read with it escaped as text
    (:func:`printable`), so that whatever is reported can be printed.

    Args:
        command: The command line, split like a POSIX shell does (no shell runs it; use
            ``sh -c '...'`` for pipes or redirections), or its argv as a list of strings.
        timeout: Seconds allowed for each answer (and for the process to start answering).
        cwd: Working directory of the child (default: ours), an existing directory.
        max_line: The longest answer line read, in bytes without its newline: reading stops at
            a longer one, which is a ``too_long`` protocol error (default: the protocol's
            :data:`~cardtable.conformance.protocol.MAX_LINE_BYTES`, 64 MiB).

    Raises:
        ProtocolError: ``start`` if the command cannot be started.
        cardtable.errors.InvalidOptionError: If ``command``, ``timeout``, ``cwd`` or ``max_line``
            is not as :func:`check_command`, :func:`check_timeout`, :func:`check_cwd` or
            :func:`check_max_line` wants.
    """

    def __init__(
        self,
        command: str | list[str],
        *,
        timeout: float = DEFAULT_TIMEOUT,
        cwd: str | None = None,
        max_line: int = MAX_LINE_BYTES,
    ):
        self.command = command = check_command(command)
        self.timeout = check_timeout(timeout)
        cwd = check_cwd(cwd)
        self.max_line = check_max_line(max_line)
        self.last: Exchange | None = None
        self.name = command
        self.games: dict[str, list[str]] = {}
        self._next_id = 1
        self._lines: queue.Queue[bytes | _TooLong | None] = queue.Queue()
        self._stderr = ""
        self._stderr_cut = False
        self._closed = False
        self._closing = False  # close() was called: no more requests
        self._partial = bytearray()  # the answer line read so far, while its newline is due
        self._received = False  # whether any answer line came (for the hint of a timeout)
        try:
            argv = shlex.split(command)
        except ValueError as err:
            raise ProtocolError(
                "start", f"cannot parse the command {shown(command)}: {err}"
            ) from None
        try:
            self._proc = subprocess.Popen(
                argv,
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                stderr=subprocess.PIPE,
                cwd=cwd,
                start_new_session=True,  # its own process group: stopped as a whole, spared ^C
            )
        except OSError as err:
            raise ProtocolError("start", f"cannot start {shown(command)}: {err}") from None
        assert self._proc.stdout is not None and self._proc.stderr is not None
        assert self._proc.stdin is not None
        # Our requests go out on a thread of their own, so that a child that stops reading can
        # never block us; its answers and its standard error come in on two more. Each thread
        # alone uses (and closes) its pipe, and stops when the stop pipe becomes readable.
        self._outbox: queue.Queue[bytes | None] = queue.Queue()
        self._stop_r, self._stop_w = os.pipe()
        work: list[tuple[str, Callable[[IO[bytes]], None], IO[bytes]]] = [
            ("stdout", self._read_lines, self._proc.stdout),
            ("stderr", self._read_stderr, self._proc.stderr),
            ("stdin", self._write, self._proc.stdin),
        ]
        self._threads = [
            threading.Thread(
                target=target, args=(stream,), name=f"cardtable-conformance-{name}", daemon=True
            )
            for name, target, stream in work
        ]
        for thread in self._threads:
            thread.start()

    # --- context manager and cleanup -------------------------------------------------------

    def __enter__(self) -> Self:
        return self

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        self.close()

    def close(self) -> None:
        """Asks the child to quit, then stops its whole process group; safe to call twice.

        Returns within about two seconds whatever the child does: the threads on its pipes are
        stopped even if a process it left behind (in a session of its own) keeps the pipes open.
        """
        proc = self._proc
        self._closing = True
        try:
            if proc.poll() is None:
                self._send(self._new("quit", {}))
                self._outbox.put(None)  # then its input closes
                with contextlib.suppress(subprocess.TimeoutExpired):
                    proc.wait(timeout=min(self.timeout, 1.0))
        finally:  # even if interrupted while it was asked politely
            self._kill_group(signal.SIGTERM)
            with contextlib.suppress(subprocess.TimeoutExpired):
                proc.wait(timeout=1.0)
            self._kill_group(signal.SIGKILL)
            proc.wait()
            self._stop_threads()

    def _stop_threads(self) -> None:
        """Stops the threads on the pipes (which close them), whoever holds the other ends."""
        if self._closed:
            return
        self._closed = True
        self._outbox.put(None)
        os.write(self._stop_w, b"x")  # never read: wakes every thread, now and later
        for thread in self._threads:
            thread.join(timeout=1.0)
        if not any(thread.is_alive() for thread in self._threads):
            os.close(self._stop_r)
            os.close(self._stop_w)

    def _kill_group(self, sig: signal.Signals) -> None:
        with contextlib.suppress(ProcessLookupError, PermissionError):
            os.killpg(self._proc.pid, sig)

    @property
    def pid(self) -> int:
        """The child's process id."""
        return self._proc.pid

    @property
    def running(self) -> bool:
        """Whether the child is still alive."""
        return self._proc.poll() is None

    # --- the threads on the pipes ----------------------------------------------------------

    def _waiter(self, fd: int, event: int) -> Callable[[], bool]:
        """Waits until ``fd`` is ready for ``event``: ``False`` if the thread is to stop instead."""
        poller = select.poll()
        poller.register(fd, event)
        poller.register(self._stop_r, select.POLLIN)
        return lambda: all(ready != self._stop_r for ready, _ in poller.poll())

    def _pump(self, stream: IO[bytes], take: Callable[[bytes], bool]) -> None:
        """Gives ``take`` what the child writes on ``stream``, chunk by chunk, until its end.

        Reading stops early when ``take`` returns ``False``. Only this thread uses ``stream``, and
        it closes it: closing a pipe under a blocked read would wait for that read, forever if
        another process holds the pipe open.
        """
        fd = stream.fileno()
        wait = self._waiter(fd, select.POLLIN)
        try:
            while wait():
                chunk = os.read(fd, _CHUNK)
                if not chunk or not take(chunk):
                    break
        except OSError:
            pass
        finally:
            stream.close()

    def _read_lines(self, stream: IO[bytes]) -> None:
        """Queues every line the child writes; stops at the first one longer than ``max_line``.

        A line too long is never held whole: once it passes the limit (newline or not) only its
        head is kept, a :class:`_TooLong` is queued in its place and the pipe is closed.
        """
        pending = self._partial  # shown by a timeout: an answer without its newline, say
        too_long = False

        def take(chunk: bytes) -> bool:
            nonlocal too_long
            start = 0
            while True:
                end = chunk.find(b"\n", start)
                stop = len(chunk) if end < 0 else end
                length = len(pending) + stop - start
                if length > self.max_line:
                    head = (bytes(pending[:_HEAD]) + chunk[start : start + _HEAD])[:_HEAD]
                    self._lines.put(_TooLong(head, length, ended=end >= 0))
                    too_long = True
                    return False
                if end < 0:
                    pending.extend(chunk[start:])
                    return True
                pending.extend(chunk[start : end + 1])
                self._lines.put(bytes(pending))
                pending.clear()
                start = end + 1

        self._pump(stream, take)
        if too_long:
            return  # the answers end at the line too long (it stays last in the queue)
        if pending:
            self._lines.put(bytes(pending))
            pending.clear()
        self._lines.put(None)

    def _read_stderr(self, stream: IO[bytes]) -> None:
        decoder = codecs.getincrementaldecoder("utf-8")("replace")

        def take(chunk: bytes) -> bool:
            text = self._stderr + decoder.decode(chunk)
            if len(text) > _STDERR_TAIL:
                text, self._stderr_cut = text[-_STDERR_TAIL:], True
            self._stderr = text
            return True

        self._pump(stream, take)

    def stderr_tail(self) -> str:
        """The last few thousand characters the child wrote to its standard error.

        At most 4000 characters, after ``[...]`` if the child wrote more.
        """
        return ("[...]" if self._stderr_cut else "") + self._stderr

    def _fail(self, kind: str, detail: str) -> ProtocolError:
        time.sleep(0.05)  # let the stderr reader catch the child's last words
        return ProtocolError(kind, detail, self.last, self.stderr_tail())

    def _exit_detail(self) -> str:
        try:
            code = self._proc.wait(timeout=1.0)
        except subprocess.TimeoutExpired:
            return "it closed its standard output"
        if code < 0:
            return f"it was killed by signal {-code}"
        return f"it exited with status {code}"

    # --- requests --------------------------------------------------------------------------

    def _write(self, stream: IO[bytes]) -> None:
        fd = stream.fileno()
        wait = self._waiter(fd, select.POLLOUT)
        try:
            os.set_blocking(fd, False)  # a full pipe never blocks the thread: it waits in poll
            for data in iter(self._outbox.get, None):
                view = memoryview(data)
                while view:
                    if not wait():
                        return
                    with contextlib.suppress(BlockingIOError):
                        view = view[os.write(fd, view) :]
        except OSError:
            pass  # the child is gone: its missing answers tell the reader side
        finally:
            stream.close()

    def _send(self, *requests: dict[str, Any]) -> None:
        self._outbox.put(b"".join(json.dumps(r).encode() + b"\n" for r in requests))

    def _new(self, kind: str, body: dict[str, Any]) -> dict[str, Any]:
        request = {"id": self._next_id, "type": kind, **body}
        self._next_id += 1
        return request

    def request(self, kind: str, **body: Any) -> dict[str, Any]:
        """Sends one request and returns the valid answer.

        Raises:
            ProtocolError: On a crash, a timeout, a line longer than ``max_line``, malformed JSON,
                a schema violation or an answer to another request.
            RefusedError: If the implementation answered with an ``error`` message.
            ConformanceError: If the implementation was closed (:meth:`close`).
        """
        answer = self.pipeline((kind, body))[0]
        if isinstance(answer, RefusedError):
            raise answer
        return answer

    def pipeline(
        self, *requests: tuple[str, dict[str, Any]]
    ) -> list[dict[str, Any] | RefusedError]:
        """Sends several requests at once, then reads their answers in order.

        The implementation still answers one request after the other; sending them together only
        saves waiting. Each answer has its own timeout.

        Returns:
            Each valid answer, or the :class:`RefusedError` of a request answered with ``error``.

        Raises:
            ProtocolError: As :meth:`request`.
        """
        sent = self.send(*requests)
        return [self.receive(request) for request in sent]

    def send(self, *requests: tuple[str, dict[str, Any]]) -> list[dict[str, Any]]:
        """Sends requests without waiting; returns them (with their ids) for :meth:`receive`.

        Raises:
            ConformanceError: If the implementation was closed (:meth:`close`).
        """
        self._check_open()
        sent = [self._new(kind, body) for kind, body in requests]
        self._send(*sent)
        return sent

    def _check_open(self) -> None:
        if self._closing:
            raise ConformanceError(
                f"the implementation was closed ({self.command}): start a new Implementation"
            )

    def receive(
        self, request: dict[str, Any], timeout: float | None = None
    ) -> dict[str, Any] | RefusedError:
        """Reads and checks the answer to ``request`` (sent by :meth:`send`, answered in order).

        Args:
            request: The request, as :meth:`send` returned it.
            timeout: Seconds allowed for this answer (default: the implementation's timeout), as
                :func:`check_timeout` wants.

        Returns:
            The valid answer, or the :class:`RefusedError` if it was an ``error`` message.

        Raises:
            ProtocolError: As :meth:`request`.
            ConformanceError: If the implementation was closed (:meth:`close`).
            cardtable.errors.InvalidOptionError: If ``timeout`` is not ``None`` or a timeout.
        """
        wait = self.timeout if timeout is None else check_timeout(timeout)
        return self._receive(request, wait)

    def _receive(self, request: dict[str, Any], wait: float) -> dict[str, Any] | RefusedError:
        """:meth:`receive`, waiting up to ``wait`` seconds (any positive number)."""
        self._check_open()
        self.last = Exchange(request)
        raw = self._next_line(wait)
        if isinstance(raw, _TooLong):
            self._lines.put(raw)  # nothing more is read: every later answer is missing too
            self.last.answer = raw.shown()
            raise self._fail("too_long", raw.detail(self.max_line))
        text = raw.decode("utf-8", "replace").rstrip("\r\n")
        self.last.answer = text
        if not text.strip():
            raise self._fail(
                "bad_json",
                "the answer is an empty line: each answer is one JSON object on one line (was a "
                "blank line printed before or after it?)",
            )
        try:
            answer = json.loads(
                text, parse_constant=_no_constant, parse_float=_finite, parse_int=_exact_int
            )
        except (ValueError, RecursionError) as err:  # JSONDecodeError is a ValueError
            raise self._fail("bad_json", f"the answer is not JSON ({err})") from None
        if _too_deep(text, answer):
            raise self._fail(
                "bad_json",
                f"the answer nests arrays and objects more than {MAX_DEPTH} levels deep",
            )
        if _SURROGATE_ESCAPE.search(text):
            answer = _printable_strings(answer)
        if not isinstance(answer, dict):
            raise self._fail("schema", "the answer is not a JSON object")
        # An answer to another request (a repeated one, say) is told before its schema.
        due, got = request["id"], answer.get("id")
        if type(got) is float:  # JSON Schema's "integer" admits 3.0: the protocol does not
            raise self._fail("schema", f"['id']: the id must be an integer, not {shown(got)}")
        if type(got) in (int, LongInt) and got != due:
            raise self._fail("wrong_id", f"the answer is for request {got}, not {due}")
        spoken = answer.get("protocol")
        if request["type"] == "hello" and type(spoken) is int and spoken != PROTOCOL_VERSION:
            raise self._fail(
                "schema",
                f"the implementation speaks version {spoken} of the protocol and this harness "
                f"version {PROTOCOL_VERSION}: use the cardtable release whose protocol it "
                "implements, or update the implementation",
            )
        schema = answer_schema(str(request["type"]), answer)
        problems = list(dict.fromkeys(schema_errors(schema, answer)))  # each once
        if problems:
            raise self._fail("schema", f"the answer breaks {schema}: " + "; ".join(problems))
        if answer["type"] == "error":
            return RefusedError(str(answer["message"]), self.last)
        result: dict[str, Any] = answer
        return result

    def _next_line(self, wait: float) -> bytes | _TooLong:
        """The next answer line, waiting up to ``wait`` seconds.

        The child's exit is watched meanwhile: a child that exits without answering is a crash at
        once, even if a process it started still holds its standard output open (so that the
        end of the output never comes).

        Raises:
            ProtocolError: ``timeout`` or ``crash``.
        """
        deadline = time.monotonic() + wait
        exited_at: float | None = None
        while True:
            left = deadline - time.monotonic()
            try:
                raw = self._lines.get(timeout=max(0.0, min(left, _EXIT_POLL)))
            except queue.Empty:
                pass
            else:
                if raw is None:
                    raise self._fail("crash", f"no answer: {self._exit_detail()}")
                self._received = True
                return raw
            now = time.monotonic()
            if exited_at is None and self._proc.poll() is not None:
                exited_at = now  # what it wrote before exiting is read within moments
            if exited_at is not None and now - exited_at >= _EXIT_GRACE:
                raise self._fail(
                    "crash",
                    f"no answer: {self._exit_detail()} (a process it started still holds its "
                    "standard output open)",
                )
            if now >= deadline:
                raise self._timeout(wait)

    def _timeout(self, wait: float) -> ProtocolError:
        """The ``timeout`` error, showing an answer that came without its newline, if any."""
        partial = bytes(self._partial)
        if not partial and not self._received:
            return self._fail(
                "timeout",
                f"no answer within {wait:g} s, and nothing received at all: does the program "
                "flush its standard output after each line? (print(..., flush=True) in Python, "
                "fflush(stdout) in C; many runtimes buffer output to a pipe)",
            )
        if not partial:
            return self._fail("timeout", f"no answer within {wait:g} s")
        assert self.last is not None
        self.last.answer = partial[:_SHOWN].decode("utf-8", "replace")
        if len(partial) > _SHOWN:
            self.last.answer += f"... ({len(partial):,} bytes)"
        return self._fail(
            "timeout",
            f"no answer within {wait:g} s: {len(partial):,} bytes came without a newline at "
            "their end (no newline at the end of the answer?)",
        )

    def hello(self) -> dict[str, list[str]]:
        """Exchanges ``hello``; returns (and records) each game it plays with the fields it answers.

        Raises:
            ProtocolError: As :meth:`request`, or ``schema`` if a game's fields lack a required one.
        """
        (request,) = self.send(("hello", {"protocol": PROTOCOL_VERSION}))
        answer = self._receive(request, self.timeout + STARTUP_ALLOWANCE)
        if isinstance(answer, RefusedError):
            raise ProtocolError("refused", f"hello refused: {answer.message}", answer.exchange)
        self.name = str(answer.get("name") or self.command)
        self.games = {
            game: [f for f in FIELDS if f in spec["fields"]]
            for game, spec in answer["games"].items()
        }
        for game, fields in self.games.items():
            missing = [f for f in REQUIRED_FIELDS if f not in fields]
            if missing:
                raise self._fail("schema", f"{game}: the fields {missing} are required")
        return self.games


@dataclass(frozen=True)
class _TooLong:
    """An answer line longer than ``max_line``, in place of the line (which is not kept).

    Attributes:
        head: Its first bytes.
        length: The bytes of it read (without a newline), when reading stopped.
        ended: Whether its newline had come by then.
    """

    head: bytes
    length: int
    ended: bool

    def shown(self) -> str:
        """Its head, as the report shows it."""
        return f"{self.head.decode('utf-8', 'replace')}... (cut: {self.length:,} bytes read)"

    def detail(self, limit: int) -> str:
        """What went wrong, for a ``too_long`` error."""
        limit_text = f"the limit of {limit:,} bytes (max_line, --max-line)"
        if self.ended:
            return f"an answer line of {self.length:,} bytes is longer than {limit_text}"
        return (
            f"an answer line is longer than {limit_text}: reading stopped after "
            f"{self.length:,} bytes, before its newline"
        )


def _too_deep(text: str, value: Any) -> bool:
    """Whether ``value`` (read from ``text``) nests arrays and objects beyond :data:`MAX_DEPTH`."""
    if text.count("[") + text.count("{") <= MAX_DEPTH:  # the usual answer, told at once
        return False
    level: list[tuple[Any, int]] = [(value, 0)]
    while level:
        item, depth = level.pop()
        if isinstance(item, (list, dict)):
            if depth >= MAX_DEPTH:
                return True
            children = item.values() if isinstance(item, dict) else item
            level += [(child, depth + 1) for child in children]
    return False


def _no_constant(name: str) -> Any:
    raise ValueError(f"{name} is not a JSON value")


_DIGITS_AT_ONCE = 600
"""Digits converted at a time by :func:`_exact_int`: below the least limit Python allows on the
digits ``int()`` converts (640, see ``sys.set_int_max_str_digits``)."""


def _exact_int(text: str) -> int:
    """A JSON integer, exactly, however many digits it has.

    ``int()`` alone refuses more than ``sys.get_int_max_str_digits()`` digits (4,300 by default),
    which JSON does not limit.
    """
    try:
        return int(text)
    except ValueError:
        pass
    digits = text.removeprefix("-")
    value = 0
    for start in range(0, len(digits), _DIGITS_AT_ONCE):
        chunk = digits[start : start + _DIGITS_AT_ONCE]
        value = value * 10 ** len(chunk) + int(chunk)
    return LongInt(-value if text.startswith("-") else value, len(digits))


class LongInt(int):
    """An integer of more digits than Python writes (over 4,300 by default), as read exactly.

    It compares and computes as the int it is, and is written as ``<an int of N digits>``: a
    report that names it (a divergence, a wrong id) would otherwise fail to print it.
    """

    digits: int

    def __new__(cls, value: int, digits: int) -> LongInt:
        """``value``, which has ``digits`` digits."""
        number = super().__new__(cls, value)
        number.digits = digits
        return number

    def __repr__(self) -> str:
        return f"<an int of {self.digits} digits>"

    __str__ = __repr__

    def __format__(self, spec: str) -> str:
        return format(repr(self), spec)


def _finite(text: str) -> float:
    value = float(text)
    if not math.isfinite(value):
        raise ValueError(f"the number {shorten(text, 40)} is out of range")
    return value
