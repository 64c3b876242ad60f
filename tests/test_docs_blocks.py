"""Every Python code block of README.md and docs/*.md runs (see tests/docblocks.py)."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.docblocks import Block, find_blocks, run_block

ROOT = Path(__file__).resolve().parent.parent
DOCS = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
BLOCKS = [block for path in DOCS for block in find_blocks(path)]


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
