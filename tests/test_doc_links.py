"""The Markdown files' relative links lead somewhere where the files are browsed.

Every relative link of the README, the other top-level Markdown files and ``docs/`` must name a
file or folder of the checkout, and a ``#fragment`` on a Markdown file must be one of its
headings (as a Git host turns headings into anchors) or an explicit ``<a id=…>``. The site build
(``make docs``, strict) checks the links as the site rewrites them; this checks them as they are
read in the repository, where ``docs/index.md`` is only a placeholder for the README.
"""

from __future__ import annotations

import re
import subprocess
from functools import cache
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]

_LINK = re.compile(r"\]\(([^)\s]+)(?:\s+\"[^\"]*\")?\)")
_HEADING = re.compile(r"^#{1,6}\s+(.*?)\s*#*\s*$")
_EXPLICIT = re.compile(r"<a\s+(?:id|name)=\"([^\"]+)\"")


def _markdown_files() -> list[Path]:
    """The tracked Markdown files at the top level and under ``docs/``."""
    try:
        tracked = subprocess.check_output(["git", "ls-files", "*.md", "docs/**.md"], cwd=ROOT)
    except (OSError, subprocess.CalledProcessError):
        tracked = b""
    listed = tracked.decode().split()
    if not listed:  # not a git checkout (an unpacked sdist): the same files by pattern
        listed = [
            str(p.relative_to(ROOT)) for p in [*ROOT.glob("*.md"), *ROOT.glob("docs/**/*.md")]
        ]
    return sorted(
        ROOT / name for name in set(listed) if "/" not in name or name.startswith("docs/")
    )


def _prose_lines(text: str) -> list[str]:
    """The lines of ``text`` outside fenced code blocks, with inline code spans removed."""
    lines, fenced = [], False
    for line in text.splitlines():
        if line.lstrip().startswith(("```", "~~~")):
            fenced = not fenced
        elif not fenced:
            lines.append(re.sub(r"`[^`]*`", "", line))
    return lines


def _slug(heading: str) -> str:
    """The anchor a Git host gives a heading: lower case, punctuation dropped, spaces to ``-``."""
    text = re.sub(r"\[([^\]]*)\]\([^)]*\)", r"\1", heading).replace("`", "")
    return re.sub(r"[^\w\- ]", "", text.strip().lower()).replace(" ", "-")


@cache
def _anchors(path: Path) -> frozenset[str]:
    """The anchors of a Markdown file: its headings' (numbered when repeated) and explicit ones."""
    text = path.read_text(encoding="utf-8")
    found: set[str] = set(_EXPLICIT.findall(text))
    seen: dict[str, int] = {}
    fenced = False
    for line in text.splitlines():
        if line.lstrip().startswith(("```", "~~~")):
            fenced = not fenced
            continue
        match = None if fenced else _HEADING.match(line)
        if match:
            slug = _slug(match.group(1))
            n = seen.get(slug, 0)
            seen[slug] = n + 1
            found.add(slug if n == 0 else f"{slug}-{n}")
    return frozenset(found)


def _broken_links(path: Path) -> list[str]:
    """The relative links of ``path`` that lead nowhere, each with the reason."""
    broken = []
    for line in _prose_lines(path.read_text(encoding="utf-8")):
        for target in _LINK.findall(line):
            if re.match(r"^[a-z][a-z0-9+.-]*:", target) or target.startswith("<"):
                continue  # a URL (https:, mailto:) or an autolink
            file_part, _, fragment = target.partition("#")
            where = (path.parent / file_part).resolve() if file_part else path
            if not where.exists():
                broken.append(f"{target}: no such file")
            elif fragment and where.suffix == ".md" and fragment not in _anchors(where):
                broken.append(f"{target}: no heading #{fragment} in {where.relative_to(ROOT)}")
    return broken


FILES = _markdown_files()


def test_the_markdown_files_are_found() -> None:
    names = {str(p.relative_to(ROOT)) for p in FILES}
    assert {"README.md", "CHANGELOG.md", "docs/search.md"} <= names
    assert any(name.startswith("docs/games/") for name in names)


@pytest.mark.parametrize("path", FILES, ids=[str(p.relative_to(ROOT)) for p in FILES])
def test_relative_links_lead_somewhere(path: Path) -> None:
    broken = _broken_links(path)
    assert not broken, f"{path.relative_to(ROOT)}: " + "; ".join(broken)


def test_a_link_to_a_missing_heading_is_found(tmp_path: Path) -> None:
    """The check itself: a heading's anchor is found, a missing one and a missing file are not."""
    page = ROOT / "docs" / "_link_check_probe.md"
    page.write_text(
        "# Top\n## Search players (`mcts`)\n"
        "[a](#search-players-mcts) [b](#nothing) [c](missing.md) [d](search.md#nothing-here)\n"
        "```\n[e](missing-too.md)\n```\n",
        encoding="utf-8",
    )
    try:
        broken = _broken_links(page)
    finally:
        page.unlink()
    assert broken == [
        "#nothing: no heading #nothing in docs/_link_check_probe.md",
        "missing.md: no such file",
        "search.md#nothing-here: no heading #nothing-here in docs/search.md",
    ]
