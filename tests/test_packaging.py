"""Packaging conventions: the pytest plugin's dependencies, the version, the release files."""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap
import tomllib
from importlib import metadata
from pathlib import Path

import pytest

import cardtable

ROOT = Path(__file__).resolve().parent.parent

# Runs pytest in a child process where importing Hypothesis fails, as in an environment where
# cardtable is installed without its `testing` extra.
_WITHOUT_HYPOTHESIS = textwrap.dedent(
    """
    import importlib.abc, sys

    class _Blocked(importlib.abc.MetaPathFinder):
        def find_spec(self, name, path=None, target=None):
            if name == "hypothesis" or name.startswith("hypothesis."):
                raise ModuleNotFoundError(f"No module named {name!r}", name=name)
            return None

    sys.meta_path.insert(0, _Blocked())
    import pytest
    sys.exit(pytest.main(sys.argv[1:]))
    """
)


# Imports the testing toolkit in a child process where the compiled extension cannot be imported,
# and runs an equivalence test of the reference against itself (docs/testing.md: "It needs no
# compiled extension to import").
_WITHOUT_EXTENSION = textwrap.dedent(
    """
    import importlib.abc, sys

    class _Blocked(importlib.abc.MetaPathFinder):
        def find_spec(self, name, path=None, target=None):
            if name == "cardtable._core":
                raise ModuleNotFoundError(f"No module named {name!r}", name=name)
            return None

    sys.meta_path.insert(0, _Blocked())
    from cardtable.reference import GAMES
    from cardtable.testing import equivalence_test

    test = equivalence_test(
        "goofspiel", GAMES["goofspiel"], reference_backend="reference", max_examples=3
    )
    test()
    print("ran", test.__name__)
    """
)


def test_the_testing_toolkit_works_without_the_compiled_extension() -> None:
    run = _python(_WITHOUT_EXTENSION)
    assert run.returncode == 0, run.stdout + run.stderr
    assert "ran test_goofspiel_equivalence" in run.stdout


def _python(
    code: str, *args: str, cwd: Path | None = None, **env: str
) -> subprocess.CompletedProcess[str]:
    """Runs ``python -c code args`` with the source tree first on the path (and ``env`` set)."""
    environ = {**os.environ, "PYTHONPATH": str(ROOT / "python"), **env}
    command = [sys.executable, "-c", code, *args]
    return subprocess.run(
        command, cwd=cwd, env=environ, capture_output=True, text=True, timeout=120, check=False
    )


def _pytest_without_hypothesis(tmp_path: Path, *args: str) -> subprocess.CompletedProcess[str]:
    (tmp_path / "test_trivial.py").write_text(
        "def test_one(cardtable_backend):\n    assert cardtable_backend in ('rust', 'reference')\n"
    )
    plugin = ("-p", "cardtable.pytest_plugin")
    return _python(
        _WITHOUT_HYPOTHESIS, *plugin, *args, cwd=tmp_path, PYTEST_DISABLE_PLUGIN_AUTOLOAD="1"
    )


def test_the_pytest_plugin_loads_without_hypothesis(tmp_path: Path) -> None:
    run = _pytest_without_hypothesis(tmp_path, "-q", "test_trivial.py")
    assert run.returncode == 0, run.stdout + run.stderr
    assert "2 passed" in run.stdout


def test_the_examples_option_names_the_missing_extra(tmp_path: Path) -> None:
    run = _pytest_without_hypothesis(tmp_path, "-q", "--cardtable-examples", "5", "test_trivial.py")
    assert run.returncode != 0
    assert "cardtable[testing]" in run.stderr + run.stdout
    assert "Traceback" not in run.stderr + run.stdout


def test_the_version_agrees_with_the_package_metadata() -> None:
    assert cardtable.__version__ == metadata.version("cardtable")
    run = subprocess.run(
        [sys.executable, "-m", "cardtable", "--version"],
        capture_output=True,
        text=True,
        timeout=60,
        check=True,
    )
    assert run.stdout.strip() == f"cardtable, version {metadata.version('cardtable')}"


def test_the_crate_version_is_the_package_version() -> None:
    workspace = tomllib.loads((ROOT / "Cargo.toml").read_text())
    assert workspace["workspace"]["package"]["version"] == metadata.version("cardtable")


def test_the_citation_names_the_current_version() -> None:
    text = (ROOT / "CITATION.cff").read_text()
    assert "cff-version: 1.2.0" in text
    assert f'version: "{metadata.version("cardtable")}"' in text


def test_the_changelog_follows_keep_a_changelog() -> None:
    text = (ROOT / "CHANGELOG.md").read_text()
    assert "keepachangelog.com" in text
    assert "## [Unreleased]" in text
    assert f"## [{metadata.version('cardtable')}]" in text


def test_the_extension_is_built_for_the_stable_abi() -> None:
    cargo = tomllib.loads((ROOT / "rust" / "python" / "Cargo.toml").read_text())
    assert "abi3-py311" in cargo["dependencies"]["pyo3"]["features"]


@pytest.mark.parametrize("backend", ["rust", "reference"])
def test_games_and_states_have_readable_reprs(backend: str) -> None:
    game = cardtable.make("goofspiel", players=2, backend=backend, num_cards=4)  # type: ignore[arg-type]
    assert repr(game) == f"<goofspiel game ({backend}): 2 players, num_cards=4>"
    state = game.new_state()
    assert repr(state) == f"<goofspiel state ({backend}): chance node after 0 steps>"
    state.apply(state.legal_actions()[0])
    assert repr(state) == f"<goofspiel state ({backend}): seat 0 to move after 1 step>"
    while not state.is_terminal:
        state.apply(state.legal_actions()[0])
    assert repr(state) == (
        f"<goofspiel state ({backend}): terminal after 9 steps, scores {state.scores}, "
        f"winners {state.winners}>"
    )
    trafficars = cardtable.make("trafficars", players=3, backend=backend, max_cars=None)  # type: ignore[arg-type]
    assert "max_cars=null" in repr(trafficars) and 'too_low="take"' in repr(trafficars)


def test_reprs_agree_between_backends() -> None:
    for info in cardtable.games():
        rust = cardtable.make(info.id, players=info.max_players)
        ref = cardtable.make(info.id, players=info.max_players, backend="reference")
        assert repr(rust).replace("(rust)", "(reference)") == repr(ref)
        a, b = rust.new_state(seed=2), ref.new_state(seed=2)
        for _ in range(3):  # or to the end of a shorter game (its terminal repr included)
            assert repr(a).replace("(rust)", "(reference)") == repr(b)
            if a.is_terminal:
                break
            action = a.legal_actions()[0]
            a.apply(action)
            b.apply(action)


def test_the_sdist_has_what_the_conformance_docs_and_reports_point_to() -> None:
    """The conformance examples and the game contracts (not in the wheel) are in the sdist, which
    docs/conformance.md and the reports name as where to find them."""
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())
    included = {
        entry["path"]
        for entry in project["tool"]["maturin"]["include"]
        if "sdist" in entry["format"]  # a string or a list of formats
    }
    for wanted, files in (
        ("examples/conformance/*", ["main.js", "wrong_tie_rule.js", "named_moves.py"]),
        ("docs/games/*.md", [f"{info.id}.md" for info in cardtable.games()]),
    ):
        assert wanted in included
        folder = ROOT / wanted.rsplit("/", 1)[0]
        assert all((folder / name).is_file() for name in files)


def test_the_package_data_is_the_engines() -> None:
    """The card data ships twice: in the engine crate (``rust/engine/data``, so that the crate
    packages alone) and in the Python package (``cardtable/data``, read by the reference and the
    pictures). It was one directory and a symbolic link to it, which a checkout without links
    (Git for Windows by default) turns into a small text file: the wheel then had no data. Two
    copies, held equal here."""
    engine = ROOT / "rust" / "engine" / "data"
    package = ROOT / "python" / "cardtable" / "data"
    assert not package.is_symlink()
    names = sorted(p.name for p in engine.glob("*.json"))
    assert names and names == sorted(p.name for p in package.glob("*.json"))
    for name in names:
        assert (package / name).read_bytes() == (engine / name).read_bytes(), (
            f"python/cardtable/data/{name} differs from rust/engine/data/{name}: copy the "
            "engine's file over it"
        )


def test_the_license_is_shipped() -> None:
    """MIT was declared, but no licence text was in the repository, the sdist or the wheel."""
    assert (ROOT / "LICENSE").read_text().startswith("MIT License")
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())
    assert {"path": "LICENSE", "format": "sdist"} in project["tool"]["maturin"]["include"]


def test_the_engine_crate_packages_every_file_its_code_includes() -> None:
    """The crate's RNG test read its vectors from the workspace's ``tests/data``, which the
    packaged crate lacks: ``cargo test`` of the published crate did not compile."""
    import re
    import shutil

    cargo = shutil.which("cargo")
    if cargo is None:
        pytest.skip("needs cargo")
    listed = subprocess.run(
        [cargo, "package", "--list", "-p", "cardtable-engine", "--allow-dirty", "--offline"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=120,
        check=True,
    ).stdout.split()
    crate = ROOT / "rust" / "engine"
    included = re.compile(r'include_(?:str|bytes)!\("([^"]+)"\)')
    needed = set()
    for source in crate.rglob("*.rs"):
        for path in included.findall(source.read_text(encoding="utf-8")):
            needed.add((source.parent / path).resolve().relative_to(crate.resolve()).as_posix())
    assert needed and needed <= set(listed), sorted(needed - set(listed))
