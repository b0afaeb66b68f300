"""No function both calls ``_(...)`` (the games' translation function) and
assigns a name ``_`` of its own outside a comprehension: the assignment
makes ``_`` local to the whole function, so its message would fail (an
Alheimur turn report once did, "'AlheimurState' object is not callable")."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
SOURCES = sorted(p for package in ("engine", "notation", "mail", "pbem") for p in (ROOT / package).rglob("*.py"))
SCOPES = (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda, ast.ListComp, ast.SetComp, ast.DictComp,
          ast.GeneratorExp, ast.ClassDef)


def _own_nodes(function: ast.AST):
    """The nodes of ``function`` outside nested functions and comprehensions."""
    for child in ast.iter_child_nodes(function):
        if isinstance(child, SCOPES):
            continue
        yield child
        yield from _own_nodes(child)


def shadowing(tree: ast.AST) -> list[str]:
    found = []
    for function in ast.walk(tree):
        if not isinstance(function, (ast.FunctionDef, ast.AsyncFunctionDef)):
            continue
        own = list(_own_nodes(function))
        assigns = any(isinstance(n, ast.Name) and n.id == "_" and isinstance(n.ctx, ast.Store) for n in own)
        calls = any(isinstance(n, ast.Call) and isinstance(n.func, ast.Name) and n.func.id == "_"
                    for n in ast.walk(function))
        if assigns and calls:
            found.append(f"{function.name} (line {function.lineno})")
    return found


def test_the_check_finds_a_shadowed_underscore():
    assert shadowing(ast.parse("def f(x):\n    _, y = x\n    return _('no')\n")) == ["f (line 1)"]
    assert shadowing(ast.parse("def f(x):\n    y = [1 for _ in x]\n    return _('yes')\n")) == []


@pytest.mark.parametrize("path", SOURCES, ids=lambda p: str(p.relative_to(ROOT)))
def test_no_function_shadows_the_translation_function(path):
    assert shadowing(ast.parse(path.read_text(encoding="utf-8"))) == []
