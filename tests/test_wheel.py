"""The built wheel, installed alone into fresh virtual environments of every CPython ≥ 3.11 here.

Runs only when ``CARDTABLE_WHEEL`` names a wheel (``make wheel-test`` builds one and sets it).
For each interpreter found (``python3.X`` on ``PATH`` and pyenv's versions; more with
``CARDTABLE_PYTHONS``, paths separated by ``os.pathsep``) it makes a virtual environment without
access to this source tree or the system's packages, installs the wheel and pytest, and checks:
the pytest plugin loads without Hypothesis, a smoke test of every game in both backends and a
batch run, the command line, and then, with the ``arrow``, ``plot`` and ``testing`` extras, every
example block of the README and the docs, run from outside the source tree.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
_GIVEN = os.environ.get("CARDTABLE_WHEEL")
WHEEL = str(Path(_GIVEN).resolve()) if _GIVEN else None
MIN_PYTHON = (3, 11)

pytestmark = pytest.mark.skipif(
    not WHEEL, reason="set CARDTABLE_WHEEL to a built wheel (make wheel-test)"
)


def _version(python: Path) -> tuple[int, int] | None:
    try:
        out = subprocess.run(
            [
                str(python),
                "-c",
                "import sys, platform; print(platform.python_implementation(), "
                "*sys.version_info[:2])",
            ],
            capture_output=True,
            text=True,
            timeout=30,
            check=True,
        ).stdout.split()
    except (OSError, subprocess.SubprocessError):
        return None
    if len(out) != 3 or out[0] != "CPython":
        return None
    return int(out[1]), int(out[2])


def interpreters() -> dict[str, Path]:
    """One CPython ≥ 3.11 per minor version, by ``"3.X"``."""
    candidates: list[Path] = []
    extra = os.environ.get("CARDTABLE_PYTHONS", "")
    candidates += [Path(p) for p in extra.split(os.pathsep) if p]
    for minor in range(MIN_PYTHON[1], 20):
        found = shutil.which(f"python3.{minor}")
        if found:
            candidates.append(Path(found))
    pyenv = Path(os.environ.get("PYENV_ROOT", Path.home() / ".pyenv")) / "versions"
    candidates += sorted(pyenv.glob("3.*/bin/python3"))
    candidates.append(Path(sys.executable))
    found_by_version: dict[str, Path] = {}
    for python in candidates:
        version = _version(python)
        if version is not None and version >= MIN_PYTHON:
            found_by_version.setdefault(f"{version[0]}.{version[1]}", python)
    return dict(sorted(found_by_version.items()))


PYTHONS = interpreters() if WHEEL else {}


def _clean_env() -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("PYTHON", "VIRTUAL_ENV"))}
    env["PIP_DISABLE_PIP_VERSION_CHECK"] = "1"
    env["PYTEST_ADDOPTS"] = ""
    return env


def _run(args: list[str | Path], cwd: Path, timeout: float = 600) -> str:
    run = subprocess.run(
        [str(a) for a in args],
        cwd=cwd,
        env=_clean_env(),
        capture_output=True,
        text=True,
        timeout=timeout,
        check=False,
    )
    assert run.returncode == 0, f"{args}\n{run.stdout}\n{run.stderr}"
    return run.stdout


@pytest.fixture(scope="module", params=sorted(PYTHONS), ids=lambda v: f"py{v}")
def venv(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A fresh virtual environment of one interpreter with the wheel and pytest installed."""
    base = PYTHONS[request.param]
    place = tmp_path_factory.mktemp(f"venv{request.param}")
    _run([base, "-m", "venv", place / "env"], place)
    python = place / "env" / "bin" / "python"
    _run([python, "-m", "pip", "install", "--quiet", WHEEL or "", "pytest"], place)
    return python


def test_interpreters_were_found() -> None:
    assert PYTHONS, "no CPython >= 3.11 found"
    required = os.environ.get("CARDTABLE_REQUIRE_PYTHONS", "")
    for version in filter(None, required.split(",")):
        assert version in PYTHONS, f"CPython {version} is required but was not found"


def test_the_wheel_is_abi3_and_manylinux() -> None:
    assert WHEEL
    name = Path(WHEEL).name
    assert re.search(r"-cp311-abi3-", name), name
    if sys.platform.startswith("linux"):
        assert "manylinux" in name, name
        show = _run([sys.executable, "-m", "auditwheel", "show", WHEEL], ROOT)
        assert re.search(
            r"consistent with the following platform tag:\s*\"manylinux_2_\d+", show
        ), show


SMOKE = textwrap.dedent(
    """
    import importlib.metadata, pathlib, random, sys
    import cardtable

    where = pathlib.Path(cardtable.__file__).resolve()
    assert where.is_relative_to(pathlib.Path(sys.prefix).resolve()), where
    assert cardtable.__version__ == importlib.metadata.version("cardtable")
    rng = random.Random(0)
    for info in cardtable.games():
        n = info.min_players
        rust = cardtable.make(info.id, players=n).new_state(seed=5)
        ref = cardtable.make(info.id, players=n, backend="reference").new_state(seed=5)
        for _ in range(300):  # both backends, the same random legal actions
            if rust.is_terminal:
                break
            action = rng.choice(rust.legal_actions())
            rust.apply(action)
            ref.apply(action)
        assert rust.to_dict() == ref.to_dict(), info.id
    result = cardtable.simulate("turn_the_tide", players=4, games=2000, seed=0, progress=False)
    assert result.games_played == 2000 and result.scores.shape == (2000, 4)
    print("smoke ok", cardtable.__version__, sys.version.split()[0])
    """
)


def test_smoke(venv: Path, tmp_path: Path) -> None:
    assert "smoke ok" in _run([venv, "-I", "-c", SMOKE], tmp_path)


def test_command_line(venv: Path, tmp_path: Path) -> None:
    version = _run([venv, "-I", "-m", "cardtable", "--version"], tmp_path)
    assert version.startswith("cardtable, version ")
    listing = _run([venv.parent / "cardtable", "games"], tmp_path)
    assert "goofspiel" in listing and "deep_regrets" in listing
    out = _run(
        [
            venv,
            "-I",
            "-m",
            "cardtable",
            "simulate",
            "goofspiel",
            "-p",
            "2",
            "-n",
            "100",
            "--no-progress",
            "--out",
            "r.csv",
        ],
        tmp_path,
    )
    assert "wrote r.csv" in out and (tmp_path / "r.csv").read_text().startswith("game,length")
    # Without --bots, replay and play seat the game's heuristic bot; finding it imported the
    # studies, which need the analysis extra this environment lacks.
    cli: list[str | Path] = [venv, "-I", "-m", "cardtable"]
    out = _run([*cli, "replay", "turn_the_tide", "-p", "3", "--out", "r.html"], tmp_path)
    assert "wrote r.html" in out and "seat 0 (greedy)" in out
    play = subprocess.run(
        [str(a) for a in [*cli, "play", "goofspiel", "--seed", "1"]],
        cwd=tmp_path,
        env=_clean_env(),
        input="",
        capture_output=True,
        text=True,
        timeout=600,
        check=False,
    )
    assert "goofspiel, 2 players, you are seat 0" in play.stdout, play.stdout + play.stderr
    assert "Traceback" not in play.stderr, play.stderr
    studies = subprocess.run(
        [str(venv), "-I", "-c", "import cardtable.analysis"],
        cwd=tmp_path,
        env=_clean_env(),
        capture_output=True,
        text=True,
        timeout=600,
        check=False,
    )
    assert 'pip install "cardtable[analysis]"' in studies.stderr, studies.stderr
    # A study's help is there without the extra (it printed only that the extra was needed).
    assert "--rating-bootstrap" in _run([*cli, "tournament", "--help"], tmp_path)
    licence = _run(
        [venv, "-I", "-c", "import importlib.metadata as m; print(m.files('cardtable'))"], tmp_path
    )
    assert "LICENSE" in licence


def test_pytest_plugin_without_hypothesis(venv: Path, tmp_path: Path) -> None:
    probe = subprocess.run(
        [venv, "-I", "-c", "import hypothesis"], capture_output=True, check=False
    )
    assert probe.returncode != 0, "hypothesis must not be installed in this environment"
    (tmp_path / "test_trivial.py").write_text(
        "def test_nothing():\n    assert True\n\n"
        "def test_backend(cardtable_backend):\n    assert cardtable_backend\n"
    )
    out = _run([venv, "-I", "-m", "pytest", "-q", "-p", "no:cacheprovider"], tmp_path)
    assert "3 passed" in out, out


def test_documentation_examples(venv: Path, tmp_path: Path) -> None:
    # The last test of each environment: it adds the extras that the examples name.
    _run([venv, "-m", "pip", "install", "--quiet", f"{WHEEL}[arrow,plot,testing]"], tmp_path)
    docs = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
    out = _run([venv, "-I", ROOT / "tests" / "docblocks.py", *docs], tmp_path, timeout=900)
    summary = out.strip().splitlines()[-1]
    assert re.fullmatch(r"\d+ passed, 0 failed, \d+ skipped", summary), out
    print(out)
