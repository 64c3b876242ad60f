"""MkDocs hooks: the README as the home page, docstring roles as plain code, a complete reference.

The README is the site's home page, with its links made relative to ``docs/``; the docstrings'
cross-reference roles (``:meth:`x```) read as plain code in the API reference; and every public
name (the ``__all__`` of the public modules) must have its entry in the API reference, or the
(strict) build fails naming it.
"""

from __future__ import annotations

import importlib
import inspect
import logging
import re
from pathlib import Path
from typing import Any

_ROOT = Path(__file__).resolve().parent.parent


def _site_links(markdown: str, prefix: str, depth: int = 0) -> str:
    """Rewrites links to the docs folder (``docs/x.md``, ``games``, pictures) into site links.

    A page ``depth`` folders below ``docs/`` links to the README (which reads right where the
    files are browsed) as ``../`` times ``depth + 1`` then ``README.md``: on the site the README is
    the home page, ``index.md``.
    """
    up = "../" * depth
    markdown = markdown.replace("](" + up + "../README.md", "](" + up + "index.md")
    markdown = re.sub(r"\]\(" + re.escape(prefix) + r"games/?\)", "](games.md)", markdown)
    if prefix:  # pictures under docs/ (e.g. docs/images/x.png) are files of the site too
        markdown = re.sub(r"\]\(" + re.escape(prefix) + r"([^)#]+\.png)", r"](\1", markdown)
    return re.sub(r"\]\(" + re.escape(prefix) + r"([^)#]+\.md)", r"](\1", markdown)


_INDEX = re.compile(r"(?<=[\w\]])\]\[(\w+)\]")


def _plain_indexing(markdown: str) -> str:
    """Escapes ``bids[t][0]`` in running text, which Markdown would read as a reference link."""
    lines, fenced = [], False
    for line in markdown.split("\n"):
        if line.lstrip().startswith("```"):
            fenced = not fenced
        elif not fenced:
            parts = line.split("`")
            parts[::2] = [_INDEX.sub(r"]\\[\1]", part) for part in parts[::2]]
            line = "`".join(parts)
        lines.append(line)
    return "\n".join(lines)


def on_page_markdown(markdown: str, page: Any, **_: Any) -> str:
    """Puts the README on the home page; fixes the links to the games folder everywhere."""
    if page.file.src_uri == "index.md":
        markdown = _site_links((_ROOT / "README.md").read_text(encoding="utf-8"), "docs/")
    else:
        markdown = _site_links(markdown, "", page.file.src_uri.count("/"))
    return _plain_indexing(markdown)


_ROLE = re.compile(r":(?:meth|class|func|attr|data|mod|exc|obj):<code>(~?)([^<]*)</code>")


def _plain_role(match: re.Match[str]) -> str:
    """``:meth:`~a.b.c``` as ``c``, ``:meth:`a.b``` as ``a.b`` (what Sphinx would show), in code."""
    target = match[2].rsplit(".", 1)[-1] if match[1] else match[2]
    return f"<code>{target}</code>"


def on_page_content(html: str, **_: Any) -> str:
    """Shows a docstring's Sphinx-style role (``:class:`x```) as the code it names.

    MkDocs renders the role's text literally (``:class:<code>x</code>``); the docstrings keep the
    roles, which editors and ``help()`` read as usual.
    """
    return _ROLE.sub(_plain_role, html)


_LOG = logging.getLogger("mkdocs.plugins.cardtable")

PUBLIC_MODULES = (
    "cardtable",
    "cardtable.sim",
    "cardtable.vector",
    "cardtable.bots",
    "cardtable.errors",
    "cardtable.protocols",
    "cardtable.observations",
    "cardtable.testing",
    "cardtable.analysis",
    "cardtable.analysis.balance",
    "cardtable.analysis.sweep",
    "cardtable.analysis.tournament",
    "cardtable.render",
    "cardtable.conformance",
    "cardtable.adapters.pettingzoo",
    "cardtable.adapters.gymnasium",
    "cardtable.adapters.openspiel",
)
"""The modules whose ``__all__`` the API reference documents, name by name."""

_ID = re.compile(r'\bid="(cardtable(?:\.\w+)+)"')


def _public_names() -> dict[str, list[str]]:
    """Each public object's possible reference ids, keyed by the first of them.

    An object's ids are ``module.name`` for every public module that exports it under that name;
    modules whose optional dependencies are missing are left out.
    """
    exported: dict[object, list[str]] = {}
    first: dict[object, str] = {}
    for name in PUBLIC_MODULES:
        try:
            module = importlib.import_module(name)
        except ImportError as error:
            _LOG.info("API reference check skips %s: %s", name, error)
            continue
        for member in getattr(module, "__all__", ()):
            value = getattr(module, member)
            # One object re-exported under one name is one entry; a plain value (a constant) is
            # its own, since equal small ints and strings may be the same object.
            named = isinstance(value, type) or callable(value) or inspect.ismodule(value)
            key: object = (id(value), member) if named else f"{name}.{member}"
            exported.setdefault(key, []).append(f"{name}.{member}")
            first.setdefault(key, f"{name}.{member}")
    return {first[key]: ids for key, ids in exported.items()}


def on_post_page(html: str, page: Any, **_: Any) -> str:
    """Checks that the API reference has an entry for every public name."""
    if page.file.src_uri == "api.md":
        anchors = set(_ID.findall(html))
        for name, ids in sorted(_public_names().items()):
            if not anchors.intersection(ids):
                _LOG.warning("the API reference (docs/api.md) has no entry for %s", name)
    return html
