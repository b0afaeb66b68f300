"""No import cycles among the modules of engine/, notation/, mail/ and pbem/,
and the web pages and the JSON API never import each other.

The graph is read from the source with ``ast``: every import, at module
level or inside a function (an import put in a function to dodge a cycle is
still a cycle), but not under ``if TYPE_CHECKING``, is an edge to the module
it names (``from a.b import c`` names ``a.b.c`` when that is a module, else
``a.b``).  A package's ``__init__`` run on the way is not counted: only what
a module names itself."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
PACKAGES = ("engine", "notation", "mail", "pbem")


def modules() -> dict[str, Path]:
    found = {}
    for package in PACKAGES:
        for path in (ROOT / package).rglob("*.py"):
            if "migrations" in path.parts:
                continue
            parts = list(path.relative_to(ROOT).with_suffix("").parts)
            if parts[-1] == "__init__":
                parts.pop()
            found[".".join(parts)] = path
    return found


def _imports(node: ast.AST):
    if isinstance(node, (ast.Import, ast.ImportFrom)):
        yield node
    elif isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test):
        for child in node.orelse:
            yield from _imports(child)
    else:
        for child in ast.iter_child_nodes(node):
            yield from _imports(child)


def imports_of(name: str, path: Path, known: dict[str, Path]) -> set[str]:
    is_package = path.name == "__init__.py"
    edges = set()
    for node in _imports(ast.parse(path.read_text(), str(path))):
        if isinstance(node, ast.Import):
            targets = [alias.name for alias in node.names]
        else:
            base = node.module or ""
            if node.level:
                parent = name.split(".") if is_package else name.split(".")[:-1]
                parent = parent[: len(parent) - node.level + 1]
                base = ".".join(parent + ([base] if base else []))
            targets = [f"{base}.{alias.name}" if f"{base}.{alias.name}" in known else base for alias in node.names]
        edges.update(t for t in targets if t in known and t != name)
    return edges


def graph() -> dict[str, set[str]]:
    known = modules()
    return {name: imports_of(name, path, known) for name, path in known.items()}


def cycles(edges: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected components with more than one module
    (Tarjan), each sorted."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found = []

    def visit(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        on_stack.add(node)
        for target in sorted(edges.get(node, ())):
            if target not in index:
                visit(target)
                low[node] = min(low[node], low[target])
            elif target in on_stack:
                low[node] = min(low[node], index[target])
        if low[node] == index[node]:
            component = []
            while True:
                top = stack.pop()
                on_stack.discard(top)
                component.append(top)
                if top == node:
                    break
            if len(component) > 1:
                found.append(sorted(component))

    for node in sorted(edges):
        if node not in index:
            visit(node)
    return sorted(found)


def test_there_are_no_import_cycles():
    assert cycles(graph()) == []


def test_the_cycle_check_finds_a_cycle():
    assert cycles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]


@pytest.mark.parametrize("side, other", [("pbem.web", "pbem.api"), ("pbem.api", "pbem.web")])
def test_web_and_api_share_code_only_through_services(side, other):
    edges = graph()
    crossing = sorted(f"{name} -> {target}" for name, targets in edges.items() if name.split(".")[:2] == side.split(".")
                      for target in targets if target.split(".")[:2] == other.split("."))
    assert crossing == []
