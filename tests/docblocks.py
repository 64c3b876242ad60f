"""Finds and runs the Python code blocks of Markdown files (README.md, docs/*.md).

Every fenced ``python`` block runs as it is written, in a fresh namespace, in the current
directory. An HTML comment on the line just before a block's fence adjusts it, with directives
separated by ``;``:

- ``<!-- test: skip WHY -->``: the block is not runnable on its own (it needs code of yours, say).
- ``<!-- test: needs MODULE MODULE... -->``: it imports an optional extra; where one is missing the
  block is skipped (the development environment has them all).
- ``<!-- test: replace OLD NEW -->``: the test runs it with the text OLD replaced by NEW (a
  smaller size that keeps the test suite fast).

This file needs only the standard library, so that it also runs against an installed wheel from
outside the source tree: ``python -I tests/docblocks.py README.md docs/*.md`` prints one line per
block and a closing ``N passed, N failed, N skipped`` line, and exits non-zero on a failure.
"""

from __future__ import annotations

import importlib.util
import re
import sys
import time
import traceback
from dataclasses import dataclass, field
from pathlib import Path

__all__ = ["Block", "find_blocks", "run_block"]

_FENCE = re.compile(r"^```python\s*$")
_MARKER = re.compile(r"^<!--\s*test:\s*(?P<body>.*?)\s*-->\s*$")


@dataclass
class Block:
    """One Python code block of a Markdown file, with its test directives."""

    path: Path
    line: int  # 1-based line of the opening fence
    code: str
    skip: str | None = None
    needs: list[str] = field(default_factory=list)
    replacements: list[tuple[str, str]] = field(default_factory=list)

    @property
    def name(self) -> str:
        """``README.md:123``."""
        return f"{self.path.name}:{self.line}"

    def missing(self) -> list[str]:
        """The modules this block needs that cannot be imported here."""
        return [m for m in self.needs if importlib.util.find_spec(m) is None]

    def runnable_code(self) -> str:
        """The code with the ``replace`` directives applied.

        Raises:
            ValueError: If a replacement's text is not in the block (the docs changed).
        """
        code = self.code
        for old, new in self.replacements:
            if old not in code:
                raise ValueError(f"{self.name}: 'replace {old} {new}': {old!r} is not in the block")
            code = code.replace(old, new)
        return code


def _directives(block: Block, body: str) -> None:
    for directive in filter(None, (d.strip() for d in body.split(";"))):
        word, _, rest = directive.partition(" ")
        if word == "skip":
            block.skip = rest.strip() or "marked not runnable"
        elif word == "needs":
            block.needs.extend(rest.split())
        elif word == "replace":
            old, new = rest.split()
            block.replacements.append((old, new))
        else:
            raise ValueError(f"{block.name}: unknown test directive {directive!r}")


def find_blocks(path: Path) -> list[Block]:
    """Every fenced ``python`` block of a Markdown file, in order.

    Raises:
        ValueError: On an unclosed block or an unknown directive.
    """
    lines = path.read_text(encoding="utf-8").splitlines()
    blocks = []
    i = 0
    while i < len(lines):
        if not _FENCE.match(lines[i]):
            i += 1
            continue
        start = i
        end = next((j for j in range(i + 1, len(lines)) if lines[j].strip() == "```"), None)
        if end is None:
            raise ValueError(f"{path.name}:{start + 1}: unclosed code block")
        block = Block(path, start + 1, "\n".join(lines[start + 1 : end]) + "\n")
        marker = _MARKER.match(lines[start - 1].strip()) if start > 0 else None
        if marker:
            _directives(block, marker.group("body"))
        blocks.append(block)
        i = end + 1
    return blocks


def run_block(block: Block) -> None:
    """Executes a block in a fresh namespace (exceptions propagate)."""
    code = compile(
        block.runnable_code(), str(block.path) + f" (block at line {block.line})", "exec"
    )
    exec(code, {"__name__": "__docblock__"})


def main(argv: list[str]) -> int:
    """Runs every block of the given files; prints a line per block and a closing count."""
    passed = failed = skipped = 0
    for name in argv:
        for block in find_blocks(Path(name)):
            if block.skip:
                print(f"SKIP {block.name}: {block.skip}")
                skipped += 1
                continue
            if missing := block.missing():
                print(f"SKIP {block.name}: needs {', '.join(missing)} (an optional extra)")
                skipped += 1
                continue
            start = time.perf_counter()
            try:
                run_block(block)
            except Exception:
                print(f"FAIL {block.name}")
                traceback.print_exc()
                failed += 1
            else:
                print(f"PASS {block.name} ({time.perf_counter() - start:.1f} s)")
                passed += 1
    print(f"{passed} passed, {failed} failed, {skipped} skipped")
    return 1 if failed or not passed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
