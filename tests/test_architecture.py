"""lib's layout says its architecture: the fact-check core, the chapters' computations, the site, the
calculators; no module imports one that imports it back, and no layer reaches up."""

import ast
import functools
import re
from pathlib import Path

import pytest

LIB = Path(__file__).resolve().parent.parent / "lib"
# Each package, and the packages it may import from (itself included).
LAYERS = {
    "core": {"core"},
    "plan": {"core", "plan"},
    "chapters": {"core", "plan", "measure", "chapters"},
    "site": {"core", "plan", "chapters", "site"},
    "calculators": {"core", "plan", "chapters", "site", "calculators"},
    "measure": {"core", "plan", "measure"},
}


def module_name(path: Path) -> str:
    parts = path.relative_to(LIB.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def imports(path: Path) -> set[str]:
    """The lib modules a file imports, at its top or inside a function (an import inside a function
    is still a dependency)."""
    found = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf8"))):
        if isinstance(node, ast.ImportFrom) and node.level:
            raise AssertionError(f"{path}: relative import; lib imports by full name (from lib.core import ...)")
        if isinstance(node, ast.ImportFrom) and node.module and node.module.split(".")[0] == "lib":
            for alias in node.names:  # `from lib.site import charts` imports the module lib.site.charts
                sub = f"{node.module}.{alias.name}"
                found.add(sub if (LIB.parent / sub.replace(".", "/")).with_suffix(".py").exists() else node.module)
        elif isinstance(node, ast.Import):
            found |= {a.name for a in node.names if a.name.split(".")[0] == "lib"}
    return found


@functools.cache
def graph(root: Path = LIB) -> dict[str, set[str]]:
    return {module_name(p): imports(p) for p in root.rglob("*.py")}


def cycle(edges: dict[str, set[str]]) -> list[str] | None:
    """One import circle, as the modules along it, or None."""
    state: dict[str, int] = {}
    stack: list[str] = []

    def visit(node: str) -> list[str] | None:
        state[node] = 1
        stack.append(node)
        for nxt in sorted(edges.get(node, ())):
            if state.get(nxt) == 1:
                return stack[stack.index(nxt):] + [nxt]
            if nxt not in state and (found := visit(nxt)):
                return found
        stack.pop()
        state[node] = 2
        return None

    for node in sorted(edges):
        if node not in state and (found := visit(node)):
            return found
    return None


def test_lib_has_no_import_circle():
    found = cycle(graph())
    assert found is None, "import circle: " + " → ".join(found)


def test_the_circle_check_finds_a_planted_circle():
    assert cycle({"lib.core.fmt": {"lib.core.words"}, "lib.core.words": {"lib.core.fmt"}}) == [
        "lib.core.fmt", "lib.core.words", "lib.core.fmt"]
    assert cycle({"a": {"b"}, "b": set()}) is None


def layer(module: str) -> str:
    return module.split(".")[1]


def test_every_module_lives_in_a_layer():
    loose = [m for m in graph() if m.count(".") == 1 and layer(m) not in LAYERS]
    assert not loose, f"modules outside lib's folders: {loose}"


def upward(edges: dict[str, set[str]], package: str) -> list[str]:
    """The imports of `package`'s modules that reach a layer it may not import from."""
    return sorted(f"{m} imports {d}" for m, deps in edges.items() if m.count(".") >= 2 and layer(m) == package
                  for d in deps if d.count(".") >= 1 and layer(d) not in LAYERS[package])


@pytest.mark.parametrize("package", sorted(LAYERS))
def test_no_layer_imports_one_above_it(package):
    wrong = upward(graph(), package)
    assert not wrong, "\n".join(wrong)


def test_the_layer_check_finds_a_planted_upward_import():
    assert upward({"lib.core.fmt": {"lib.site.charts"}}, "core") == ["lib.core.fmt imports lib.site.charts"]
    assert upward({"lib.site.page": {"lib.core.fmt"}}, "site") == []


ONE_LETTER = re.compile(r"^(?:from lib[\w.]* import [^\n]*\bas [A-Za-z]\b|[A-Z] = )", re.M)


@pytest.mark.parametrize("path", sorted(LIB.rglob("*.py")), ids=lambda p: str(p.relative_to(LIB)))
def test_no_one_letter_module_alias_or_helper(path):
    tree = ast.parse(path.read_text(encoding="utf8"))
    short = [n.name for n in ast.walk(tree) if isinstance(n, (ast.FunctionDef, ast.ClassDef)) and len(n.name) == 1]
    assert not short and not ONE_LETTER.search(path.read_text(encoding="utf8")), f"one-letter names in {path}: {short}"
