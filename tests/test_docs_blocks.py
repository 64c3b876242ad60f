"""Every Python code block of README.md and docs/**/*.md runs (see tests/docblocks.py), and so does
every docstring example (``>>>``) of the package (the API reference shows them)."""

from __future__ import annotations

import doctest
import importlib
from pathlib import Path

import pytest

from tests.docblocks import Block, find_blocks, run_block

ROOT = Path(__file__).resolve().parent.parent
DOCS = [ROOT / "README.md", *sorted((ROOT / "docs").rglob("*.md"))]
BLOCKS = [block for path in DOCS for block in find_blocks(path)]
PACKAGE = ROOT / "python" / "cardtable"
EXAMPLE_MODULES = sorted(
    ".".join(path.relative_to(PACKAGE.parent).with_suffix("").parts).removesuffix(".__init__")
    for path in PACKAGE.rglob("*.py")
    if ">>> " in path.read_text(encoding="utf-8")
)


def test_the_docs_have_python_blocks() -> None:
    assert sum(1 for b in BLOCKS if b.path.name == "README.md" and not b.skip) >= 5


@pytest.mark.parametrize("block", BLOCKS, ids=[b.name for b in BLOCKS])
def test_code_block_runs(
    block: Block,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    if block.skip:
        pytest.skip(block.skip)
    if missing := block.missing():
        pytest.skip(f"needs {', '.join(missing)}")
    monkeypatch.chdir(tmp_path)  # blocks may write files
    run_block(block)
    capsys.readouterr()


def test_the_package_has_docstring_examples() -> None:
    assert len(EXAMPLE_MODULES) >= 5


@pytest.mark.parametrize("module_name", EXAMPLE_MODULES)
def test_docstring_examples_run(module_name: str) -> None:
    try:
        module = importlib.import_module(module_name)
    except ImportError as err:  # an adapter whose extra is not installed
        pytest.skip(f"needs {err.name}")
    result = doctest.testmod(module, optionflags=doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE)
    assert result.attempted > 0 and result.failed == 0, result
