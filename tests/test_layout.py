"""The layout of the Python package: no import cycles between the modules of ``cardtable``.

The graph has one node per module under ``python/cardtable`` (a package is its ``__init__``) and
an edge for every import written at module level, ``if TYPE_CHECKING:`` blocks included (a cycle
there still ties two modules together). Imports inside functions are not counted: they run late,
on purpose, and cannot form a cycle at import time. ``from pkg import name`` counts as an import
of ``pkg.name`` when that is a module, else of ``pkg``.
"""

from __future__ import annotations

import ast
from pathlib import Path

PACKAGE = Path(__file__).resolve().parents[1] / "python" / "cardtable"


def _module_name(path: Path) -> str:
    parts = list(path.relative_to(PACKAGE.parent).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def _module_level_imports(tree: ast.Module) -> list[ast.Import | ast.ImportFrom]:
    """The imports of ``tree`` outside functions and classes (``if``/``try`` bodies included)."""
    found: list[ast.Import | ast.ImportFrom] = []
    pending: list[ast.stmt] = list(tree.body)
    while pending:
        node = pending.pop()
        if isinstance(node, ast.Import | ast.ImportFrom):
            found.append(node)
        elif isinstance(node, ast.If | ast.Try):
            pending.extend(node.body)
            pending.extend(node.orelse)
            if isinstance(node, ast.Try):
                pending.extend(node.finalbody)
                for handler in node.handlers:
                    pending.extend(handler.body)
    return found


def import_graph() -> dict[str, set[str]]:
    """Every module of ``cardtable`` and the ``cardtable`` modules it imports at module level."""
    paths = {_module_name(path): path for path in PACKAGE.rglob("*.py")}
    # Compiled extensions (``_core``, described by its ``.pyi``) are modules too, with no edges.
    modules = set(paths) | {
        _module_name(path.with_suffix(".py")) for path in PACKAGE.rglob("*.pyi")
    }
    graph: dict[str, set[str]] = {}
    for name, path in paths.items():
        is_package = path.name == "__init__.py"
        edges: set[str] = set()
        for node in _module_level_imports(ast.parse(path.read_text(), str(path))):
            if isinstance(node, ast.Import):
                edges.update(alias.name for alias in node.names if alias.name in modules)
                continue
            base = node.module or ""
            if node.level:
                anchor = name.split(".") if is_package else name.split(".")[:-1]
                anchor = anchor[: len(anchor) - node.level + 1]
                base = ".".join([*anchor, *([base] if base else [])])
            for alias in node.names:
                target = f"{base}.{alias.name}"
                if target in modules:
                    edges.add(target)
                elif base in modules:
                    edges.add(base)
        edges.discard(name)
        graph[name] = edges
    for name in modules - set(paths):
        graph[name] = set()
    return graph


def find_cycle(graph: dict[str, set[str]]) -> list[str] | None:
    """One cycle of ``graph`` as a list of modules (first = last), or None."""
    state: dict[str, int] = {}  # 1 = on the path, 2 = done
    path: list[str] = []

    def visit(node: str) -> list[str] | None:
        state[node] = 1
        path.append(node)
        for nxt in sorted(graph[node]):
            if state.get(nxt) == 1:
                return [*path[path.index(nxt) :], nxt]
            if nxt not in state and (cycle := visit(nxt)) is not None:
                return cycle
        path.pop()
        state[node] = 2
        return None

    for node in sorted(graph):
        if node not in state and (cycle := visit(node)) is not None:
            return cycle
    return None


def test_the_graph_sees_the_package() -> None:
    graph = import_graph()
    assert "cardtable.sim" in graph
    assert (
        "cardtable.reference._deep_regrets.table"
        in graph["cardtable.reference._deep_regrets.board"]
    )


def test_find_cycle_names_the_cycle() -> None:
    assert find_cycle({"a": {"b"}, "b": {"c"}, "c": {"a"}}) == ["a", "b", "c", "a"]
    assert find_cycle({"a": {"b"}, "b": set()}) is None


def test_no_import_cycles() -> None:
    cycle = find_cycle(import_graph())
    assert cycle is None, "import cycle between modules of cardtable: " + " -> ".join(cycle or [])


def test_observations_do_not_import_the_references() -> None:
    graph = import_graph()
    package = "cardtable.observations"
    modules = [m for m in graph if m == package or m.startswith(package + ".")]
    assert len(modules) > 1, "no game modules found in cardtable.observations"
    for module in modules:
        outside = {m for m in graph[module] if not m.startswith(package + ".")}
        assert not outside, f"{module} imports {sorted(outside)}: the observation types are a leaf"


def test_no_module_over_1500_lines() -> None:
    long = {
        str(path.relative_to(PACKAGE)): n
        for path in PACKAGE.rglob("*.py")
        if (n := len(path.read_text().splitlines())) > 1500
    }
    assert not long, f"split these modules by concern: {long}"


def test_no_rust_source_over_1500_lines() -> None:
    """Rust sources outside the tests (a ``tests`` folder or a ``tests.rs``) stay short too."""
    rust = PACKAGE.parents[1] / "rust"
    long = {
        str(path.relative_to(rust)): n
        for path in rust.rglob("*.rs")
        if "tests" not in path.parts
        and path.name != "tests.rs"
        and "target" not in path.relative_to(rust).parts
        and (n := len(path.read_text().splitlines())) > 1500
    }
    assert not long, f"split these files by concern: {long}"
