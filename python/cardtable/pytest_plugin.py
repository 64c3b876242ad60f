"""The cardtable pytest plugin (registered automatically when cardtable is installed).

It adds:

- the fixture ``cardtable_backend``, which runs a test once per backend of ours (``"rust"`` and
  ``"reference"``), for suites that compare an implementation of their own with both;
- the option ``--cardtable-examples N``, the number of Hypothesis examples of every test made with
  :func:`cardtable.testing.equivalence_test` that does not set its own (for a quick run or a deep
  one without editing the tests).

The plugin is loaded by every pytest run in an environment where cardtable is installed, so it
needs nothing beyond pytest itself: :mod:`cardtable.testing` (and with it Hypothesis, from the
``testing`` extra) is imported only when ``--cardtable-examples`` is given.
"""

from __future__ import annotations

import pytest

__all__ = [
    "cardtable_backend",
    "pytest_addoption",
    "pytest_configure",
    "pytest_load_initial_conftests",
]


def pytest_addoption(parser: pytest.Parser) -> None:
    """Adds ``--cardtable-examples``."""
    group = parser.getgroup("cardtable")
    group.addoption(
        "--cardtable-examples",
        type=int,
        default=None,
        metavar="N",
        help="Hypothesis examples per cardtable equivalence test (default: the active profile's)",
    )


@pytest.hookimpl(tryfirst=True)
def pytest_load_initial_conftests(early_config: pytest.Config) -> None:
    """Applies ``--cardtable-examples`` before the first ``conftest.py`` files are imported.

    A test that such a file builds with :func:`cardtable.testing.equivalence_test` takes the
    count then; :func:`pytest_configure` comes after them.
    """
    examples = getattr(early_config.known_args_namespace, "cardtable_examples", None)
    _apply(examples)


def pytest_configure(config: pytest.Config) -> None:
    """Applies ``--cardtable-examples`` (which needs Hypothesis, from ``cardtable[testing]``)."""
    _apply(config.getoption("--cardtable-examples", default=None))


def _apply(examples: int | None) -> None:
    """Sets the examples of the equivalence tests that set none, if ``examples`` is given.

    Raises:
        pytest.UsageError: If it is below 1 or Hypothesis is not installed.
    """
    if examples is None:
        return
    if examples < 1:
        raise pytest.UsageError(f"--cardtable-examples must be at least 1, got {examples}")
    try:
        from cardtable import testing
    except ModuleNotFoundError as err:
        raise pytest.UsageError(
            f"--cardtable-examples needs {err.name}: install the extra 'cardtable[testing]'"
        ) from None
    testing.DEFAULT_MAX_EXAMPLES = int(examples)


@pytest.fixture(params=["rust", "reference"])
def cardtable_backend(request: pytest.FixtureRequest) -> str:
    """Each test using it runs once with our Rust engine and once with our reference."""
    backend: str = request.param
    return backend
