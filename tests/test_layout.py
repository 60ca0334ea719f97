"""The package's layout stays clean: no import circles among nordlang's
modules at module level, and no module grows past MAX_LINES lines.

Imports are read with `ast`, not run. An import at a module's top (or in a
class body, or under a module-level `if`/`try`) runs when the module loads:
those make the graph that must have no cycle. `if TYPE_CHECKING:` imports
never run and are left out. An import inside a function runs when the
function is first called; one that closes a circle (its module imports the
importer at module level, directly or not) is allowed only when listed in
DEFERRED with its reason, so a new one is a decision, not an accident.
"""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PACKAGE = ROOT / "nordlang"
MAX_LINES = 450

# modules over MAX_LINES lines, with the reason they may be ("nordlang/x.py": "why"); none today
LONG: dict = {}

# function-level imports that close a circle: (importer, imported) -> why it is deferred
DEFERRED = {
    **{("nordlang.agents.base", f"nordlang.agents.{m}"):
       "the agents register themselves with base's `register`; base loads them when an agent is first "
       "asked for by name" for m in ("greedy", "human", "mcts", "random_agent")},
    ("nordlang.sim.parallel", "nordlang.sim.simulate"):
        "a worker task plays its games with simulate's run_game, and simulate hands out parallel's `connect`",
    ("nordlang.openspiel.core", "nordlang.openspiel"):
        "a pickled position is rebuilt by the package's _rebuild (it makes engines by name from its registry); "
        "the package imports core",
}


def module_name(path: Path) -> str:
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


MODULES = {module_name(p): p for p in sorted(PACKAGE.rglob("*.py"))}


def _is_package(name: str) -> bool:
    return MODULES.get(name, Path()).name == "__init__.py"


def _targets(node, importer: str) -> set:
    """The nordlang modules an import statement loads (by name: a package's
    __init__ when the package is named, a submodule when one is)."""
    out = set()
    if isinstance(node, ast.Import):
        for a in node.names:
            name = a.name
            while name and name not in MODULES:
                name = name.rpartition(".")[0]
            if name:
                out.add(name)
        return out
    if node.level:
        base = importer.split(".")
        if not _is_package(importer):
            base = base[:-1]
        base = base[:len(base) - (node.level - 1)]
        name = ".".join(base + ([node.module] if node.module else []))
    else:
        name = node.module or ""
    if not name.startswith("nordlang"):
        return out
    if name in MODULES:
        out.add(name)
    for a in node.names:
        if f"{name}.{a.name}" in MODULES:          # `from package import submodule`
            out.add(f"{name}.{a.name}")
    return out


def _is_type_checking(node) -> bool:
    t = node.test
    return isinstance(t, ast.Name) and t.id == "TYPE_CHECKING" or \
        isinstance(t, ast.Attribute) and t.attr == "TYPE_CHECKING"


def imports(name: str):
    """(module-level targets, function-level targets, type-checking-only targets) of one module."""
    tree = ast.parse(MODULES[name].read_text(encoding="utf-8"))
    top, deferred, typing = set(), set(), set()

    def walk(nodes, into):
        for node in nodes:
            if isinstance(node, (ast.Import, ast.ImportFrom)):
                into.update(_targets(node, name))
            elif isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)):
                walk(ast.iter_child_nodes(node), deferred if into is top else into)
            elif isinstance(node, ast.If) and _is_type_checking(node):
                walk(node.body, typing)
                walk(node.orelse, into)
            else:
                walk(ast.iter_child_nodes(node), into)
    walk(tree.body, top)
    for s in (top, deferred, typing):
        s.discard(name)
    return top, deferred - top, typing - top


GRAPH, LATER, TYPING = {}, {}, {}
for _m in MODULES:
    GRAPH[_m], LATER[_m], TYPING[_m] = imports(_m)


def _reaches(start: str, goal: str) -> bool:
    seen, todo = {start}, [start]
    while todo:
        m = todo.pop()
        if m == goal:
            return True
        for n in GRAPH[m]:
            if n not in seen:
                seen.add(n)
                todo.append(n)
    return False


def cycles() -> list:
    """The strongly connected parts of the module-level graph with more than one module (Tarjan)."""
    index, low, on, stack, out = {}, {}, set(), [], []

    def visit(v):
        index[v] = low[v] = len(index)
        stack.append(v)
        on.add(v)
        for w in sorted(GRAPH[v]):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            part = []
            while True:
                w = stack.pop()
                on.discard(w)
                part.append(w)
                if w == v:
                    break
            if len(part) > 1:
                out.append(sorted(part))

    for v in sorted(GRAPH):
        if v not in index:
            visit(v)
    return out


def test_the_graph_is_read():
    """The reader finds known edges (the test below is not vacuous)."""
    assert "nordlang.lang.ast" in GRAPH["nordlang.lang.compiler"]
    assert "nordlang.lang.names" in GRAPH["nordlang.lang.compiler"]
    assert "nordlang.engine.library" in GRAPH["nordlang.rules.board_names"]
    assert "nordlang.explain" in LATER["nordlang.cli.explain"]
    assert len(GRAPH) > 50


def test_no_import_circle_at_module_level():
    found = cycles()
    assert not found, "modules that import each other (directly or not) when they load:\n" + "\n".join(
        " <-> ".join(c) for c in found)


def test_the_lang_modules_do_not_import_the_compiler():
    """The compiler uses its parts (memo, trace, names, ...); none of them uses
    it, not even later or for its types."""
    for m in MODULES:
        if m.startswith("nordlang.lang.") and m != "nordlang.lang.compiler":
            assert "nordlang.lang.compiler" not in GRAPH[m] | LATER[m] | TYPING[m], m


def test_deferred_imports_that_close_a_circle_are_listed():
    found = {(m, t) for m in sorted(LATER) for t in sorted(LATER[m]) if _reaches(t, m)}
    unlisted = sorted(found - set(DEFERRED))
    stale = sorted(set(DEFERRED) - found)
    assert not unlisted, ("imports inside functions that close a circle: list each in DEFERRED with its "
                          "reason, or move what both need into a module of its own:\n"
                          + "\n".join(f"{a} -> {b}" for a, b in unlisted))
    assert not stale, "listed in DEFERRED, but no longer a circle: remove them:\n" + "\n".join(
        f"{a} -> {b}" for a, b in stale)


def test_modules_stay_short():
    long = {}
    for p in MODULES.values():
        rel = p.relative_to(ROOT).as_posix()
        n = len(p.read_text(encoding="utf-8").splitlines())
        if n > MAX_LINES:
            long[rel] = n
    unlisted = {k: v for k, v in long.items() if k not in LONG}
    assert not unlisted, (f"modules over {MAX_LINES} lines (split them, or list them in LONG with a reason): "
                          f"{unlisted}")
    assert not set(LONG) - set(long), f"listed in LONG, but no longer long: {sorted(set(LONG) - set(long))}"
