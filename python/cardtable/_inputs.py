"""The package's rules for integer inputs and output paths (``docs/errors.md``), in one leaf.

Every Python layer that reads an integer from a caller (the reference backend, the policy runner,
pictures and replays, the adapters, the test kit, the studies) reads it here, so all of them
accept and refuse the same values as the engine's bindings. It imports only the package's errors.
"""

from __future__ import annotations

import contextlib
import operator
import os
import secrets
import stat
from collections.abc import Callable, Iterable, Iterator, Mapping, Set
from typing import BinaryIO

from cardtable.errors import InvalidOptionError

__all__ = [
    "MAX_DEPTH",
    "MAX_SEED",
    "MAX_THREADS",
    "MAX_VALUES",
    "as_int",
    "as_items",
    "check_bool",
    "check_int",
    "check_path",
    "check_threads",
    "is_choice",
    "shown",
    "write_whole",
    "writing",
]

MAX_DEPTH = 64
"""Deepest nesting of lists and dicts accepted in options and state dicts (as in the engine)."""

MAX_VALUES = 1_000_000
"""Most values (containers and scalars) in one option value or state dict, as in the engine: the
canonical dicts hold a few thousand, and a tree whose lists share their items would otherwise be
read in full, in time exponential in its nesting."""

MAX_SEED = (1 << 64) - 1
"""The largest seed (and game index) of the package: seeds are below 2**64."""
MAX_THREADS = 1024
"""The most worker threads a run (or a batch of decisions) may ask for."""


NUMPY_BOOLS = ("bool_", "bool")
"""Names of NumPy's boolean scalar type (``numpy.bool_``; ``numpy.bool`` since NumPy 2)."""


def as_int(value: object) -> int | None:
    """``value`` as an int if it is an integer type other than bool (NumPy integers included).

    Anything whose ``__index__`` fails (a float, an object whose ``__index__`` raises) is not an
    integer, as the engine reads it; nor is a NumPy boolean (``numpy.bool_``, which NumPy 1.x
    still lets through ``__index__``).

    Examples:
        >>> as_int(3), as_int(True), as_int(3.0)
        (3, None, None)
    """
    kind = type(value)
    if isinstance(value, bool) or (kind.__module__ == "numpy" and kind.__name__ in NUMPY_BOOLS):
        return None
    try:
        return operator.index(value)  # type: ignore[arg-type]
    except Exception:  # any failing __index__, as the engine reads it
        return None


def as_items(value: object) -> list[object] | None:
    """The items of a sequence as a list, or ``None`` if ``value`` is none.

    A sequence is a list, a tuple, an array of at least one dimension or any other iterable; not
    a str, bytes, a mapping, a set (no order), a 0-d NumPy array (iterable by type, not in fact)
    or anything not iterable.

    Examples:
        >>> as_items((1, 2)), as_items("12"), as_items({1, 2})
        ([1, 2], None, None)
    """
    if not isinstance(value, Iterable) or isinstance(value, (str, bytes, bytearray, Mapping, Set)):
        return None
    try:
        return list(value)
    except TypeError:  # e.g. a 0-d NumPy array
        return None


def shown(value: object) -> str:
    """``repr(value)`` for an error message, whatever the value.

    A refusal names the value it refuses, and naming it must not fail in its turn: an int too
    long for Python to write (over 4,300 digits by default, see ``sys.set_int_max_str_digits``) is
    described by its size, and an object whose ``repr`` fails by its type.

    A list, tuple or dict whose ``repr`` fails is written item by item, so that the rest of it
    is still shown.

    Examples:
        >>> shown(3), shown("x"), shown(10**5000), shown([1, 10**5000])
        ('3', "'x'", '<an int of about 5001 digits>', '[1, <an int of about 5001 digits>]')
    """
    return _shown(value, 0)


def _shown(value: object, depth: int) -> str:
    """:func:`shown` of an item ``depth`` containers down (a container deeper than 20: ``...``)."""
    try:
        return repr(value)
    except RecursionError:
        raise  # nested too deeply: the caller's to say (item by item would go as deep)
    except Exception:
        if isinstance(value, int):
            digits = int(abs(value).bit_length() * 0.30103) + 1
            return f"<an int of about {digits} digits>"
        deeper = depth + 1
        if depth >= 20:
            return "..."
        if type(value) is dict:
            pairs = ", ".join(f"{_shown(k, deeper)}: {_shown(v, deeper)}" for k, v in value.items())
            return "{" + pairs + "}"
        if type(value) is list:
            return "[" + ", ".join(_shown(v, deeper) for v in value) + "]"
        if type(value) is tuple:
            inner = ", ".join(_shown(v, deeper) for v in value)
            return f"({inner}{',' * (len(value) == 1)})"
        return f"<unprintable {type(value).__name__} object>"


def check_bool(name: str, value: object) -> bool:
    """A flag: exactly ``True`` or ``False`` (``0``, ``1`` and ``numpy.bool_`` are refused).

    Raises:
        InvalidOptionError: Otherwise, naming ``name``.
    """
    if not isinstance(value, bool):
        raise InvalidOptionError(f"{name} must be a bool, got {shown(value)}")
    return value


def check_int(name: str, value: object, low: int, high: int | None = None) -> int:
    """``value`` as an int in ``low..=high`` (no upper bound for ``None``) by :func:`as_int`.

    Raises:
        InvalidOptionError: If it is not an integer, or out of the range (the message names
            ``name`` and the range).
    """
    number = as_int(value)
    if number is None or number < low or (high is not None and number > high):
        bound = f">= {low}" if high is None else f"in {low}..={high}"
        raise InvalidOptionError(f"{name} must be an int {bound}, got {shown(value)}")
    return number


def check_threads(threads: object) -> int | None:
    """Worker threads: ``None`` (all cores) or an int in ``1..=MAX_THREADS``.

    Raises:
        InvalidOptionError: If it is not (by :func:`check_int`'s rule).
    """
    return None if threads is None else check_int("threads", threads, 1, MAX_THREADS)


def is_choice(value: object, *choices: str | None) -> bool:
    """Whether ``value`` is one of ``choices`` (strs, or ``None``), without elementwise equality.

    A NumPy array compared with a str gives an array, whose truth value raises a bare
    ``ValueError``; a value that is not a str (nor ``None``) is simply none of the choices.

    Examples:
        >>> is_choice("ansi", None, "ansi"), is_choice(None, None, "ansi")
        (True, True)
        >>> is_choice(["ansi"], None, "ansi")
        False
    """
    if value is None:
        return None in choices
    return isinstance(value, str) and value in choices


def check_path(path: object, name: str = "path") -> str | os.PathLike[str]:
    """``path`` if it names a file: a non-empty ``str`` (or an ``os.PathLike`` of one), no NUL.

    Raises:
        InvalidOptionError: On anything else (``None`` or ``5`` would otherwise be written as
            files named ``None`` and ``5``, and a NUL fails deep in the file system call).
    """
    text: object = None
    if isinstance(path, str | os.PathLike):
        try:
            text = os.fspath(path)
        except Exception:  # a path-like object whose __fspath__ fails or is not a str or bytes
            text = None
    if not isinstance(text, str) or not text or "\0" in text:
        raise InvalidOptionError(
            f"{name} must be a str or a path (not empty, without NUL), got {shown(path)}"
        )
    return path  # type: ignore[return-value]


@contextlib.contextmanager
def writing(path: str | os.PathLike[str]) -> Iterator[BinaryIO]:
    """A binary file to write ``path`` through: all of it, or (on any error) none of it.

    The bytes go to a temporary file beside the target (links followed), which replaces the
    target only once the ``with`` block ends without error and it is closed; on an error it is
    removed and the target is left as it was. A target that exists and is not a regular file
    (``/dev/stdout``, a pipe such as a shell's ``>(...)``, a device) is written directly.

    Examples:
        >>> import tempfile
        >>> target = os.path.join(tempfile.mkdtemp(), "out.txt")
        >>> with writing(target) as f:
        ...     _ = f.write(b"done")
        >>> open(target).read()
        'done'

    Raises:
        OSError: If the file cannot be written (the temporary file is then removed).
    """
    name = os.fspath(path)
    try:
        mode: int | None = os.stat(name).st_mode
    except (FileNotFoundError, NotADirectoryError):
        mode = None
    if mode is not None and not stat.S_ISREG(mode):
        with open(name, "wb") as direct:
            yield direct
        return
    target = os.path.realpath(name)
    folder = os.path.dirname(target)
    while True:
        temporary = os.path.join(folder, f".{secrets.token_hex(6)}.cardtable.tmp")
        try:
            fd = os.open(temporary, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o666)
            break
        except FileExistsError:  # pragma: no cover - a clash of 48 random bits
            continue
        except OSError as err:  # a missing or read-only folder: name the caller's path
            raise type(err)(err.errno, err.strerror, name) from None
    try:
        with os.fdopen(fd, "wb") as f:
            if mode is not None:
                os.fchmod(f.fileno(), stat.S_IMODE(mode))  # keep the replaced file's mode
            yield f
        os.replace(temporary, target)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(temporary)
        raise


def write_whole(path: object, write: Callable[[BinaryIO], object]) -> str | os.PathLike[str]:
    """Lets ``write`` write the file ``path``: whole, or (on any error) not at all.

    ``path`` is checked first (:func:`check_path`); the bytes go through :func:`writing`.

    Returns:
        The checked path.

    Raises:
        InvalidOptionError: If ``path`` is not a ``str`` or an ``os.PathLike``.
        OSError: If the file cannot be written.
    """
    out = check_path(path)
    with writing(out) as f:
        write(f)
    return out
