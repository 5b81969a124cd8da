"""No test module resolves a real snapshot while it is imported: where ../shared/fixtures is absent, fixture_path
skips, and a skip raised at import stops the whole run at collection instead of skipping the tests that need it.

Import time is what runs when a module loads: its top-level statements, class bodies, decorators (parametrize
lists) and default values, but no function's body. A helper that resolves a fixture (it calls fixture_path, or a
helper that does) counts as fixture_path itself, wherever in tests/ it is defined."""

from __future__ import annotations

import ast
from collections.abc import Iterator
from pathlib import Path

TESTS = Path(__file__).resolve().parent
RESOLVERS = frozenset({"fixture_path"})


def _called(node: ast.Call) -> str | None:
    func = node.func
    if isinstance(func, ast.Name):
        return func.id
    return func.attr if isinstance(func, ast.Attribute) else None


def _import_time_nodes(node: ast.AST) -> Iterator[ast.AST]:
    """Every node evaluated when `node` runs (a module imported, a statement executed): not the bodies of the
    functions and lambdas it defines."""
    if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.Lambda):
        args = node.args
        evaluated: list[ast.AST] = [*args.defaults, *(d for d in args.kw_defaults if d is not None)]
        if not isinstance(node, ast.Lambda):
            evaluated += node.decorator_list
        for child in evaluated:
            yield from _import_time_nodes(child)
        return
    yield node
    for child in ast.iter_child_nodes(node):
        if isinstance(child, ast.arg):  # annotations are strings here (from __future__ import annotations)
            continue
        yield from _import_time_nodes(child)


def import_time_calls(tree: ast.Module, names: frozenset[str]) -> list[tuple[int, str]]:
    """(line, name) of each call to one of `names` made when the module is imported, in line order."""
    return sorted(
        (node.lineno, name)
        for node in _import_time_nodes(tree)
        if isinstance(node, ast.Call) and (name := _called(node)) in names
    )


def resolvers(trees: list[ast.Module], names: frozenset[str] = RESOLVERS) -> frozenset[str]:
    """`names` and every function of the trees that calls one of them when it runs (not in a lambda or function it
    only defines), directly or through another such function."""
    functions = [
        node for tree in trees for node in ast.walk(tree) if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef)
    ]
    while True:
        more = {
            f.name
            for f in functions
            if f.name not in names
            and not f.name.startswith("test")  # pytest calls the tests, never an import
            and any(isinstance(n, ast.Call) and _called(n) in names for s in f.body for n in _import_time_nodes(s))
        }
        if not more:
            return names
        names = names | more


def test_no_test_module_resolves_a_fixture_when_imported() -> None:
    trees = {path: ast.parse(path.read_text(encoding="utf-8")) for path in sorted(TESTS.rglob("*.py"))}
    names = resolvers(list(trees.values()))
    found = [
        f"{path.relative_to(TESTS)}:{line} calls {name}"
        for path, tree in trees.items()
        if path.name != "conftest.py"
        for line, name in import_time_calls(tree, names)
    ]
    assert found == [], found


def test_the_finder_sees_decorators_defaults_and_helpers_but_not_function_bodies() -> None:
    source = """
import pytest
from tests.conftest import fixture_path

BAD = fixture_path("a.pickle")


def real(name):
    return fixture_path(name)


@pytest.mark.parametrize("path", [real("b.pickle")])
def test_a(path, other=fixture_path("c.pickle")):
    fixture_path("fine: runs when the test runs")


class TestThem:
    PATHS = [real(n) for n in ("d.pickle",)]

    def test_b(self):
        real("fine")


LATER = lambda: fixture_path("fine: a lambda's body runs when called")
"""
    tree = ast.parse(source)
    names = resolvers([tree])
    assert names == {"fixture_path", "real"}
    assert import_time_calls(tree, names) == [(5, "fixture_path"), (12, "real"), (13, "fixture_path"), (18, "real")]
