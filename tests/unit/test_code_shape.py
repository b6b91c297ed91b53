"""The shape of the product code: its modules (the fold's and the service's) import one another without a circle and
at the top of the file, and no product file grows past 600 lines. A reader follows a module's imports at its head
and finds each part of a game in a file of its own; a circle, or an import hidden in a function to tie one, is a
module holding two things."""

from __future__ import annotations

import ast
import pathlib
import tomllib

ROOT = pathlib.Path(__file__).resolve().parents[2]
PRODUCT = ("events", "projections", "service")
SOURCE_SUFFIXES = {".py", ".js", ".css", ".html"}
MOST_LINES = 600

# Files over MOST_LINES left for now, each with its reason. The list only shrinks: a file that comes under the limit
# fails the test below until it is taken off the list.
LONG_FILES_LEFT: set[str] = set()


def _modules(top: str) -> dict[str, pathlib.Path]:
    """Every Python module below `top`, by its dotted name (a package by its own name, not `__init__`)."""
    found = {}
    for path in sorted((ROOT / top).rglob("*.py")):
        parts = path.relative_to(ROOT).with_suffix("").parts
        if parts[-1] == "__init__":
            parts = parts[:-1]
        found[".".join(("quartermaster", *parts))] = path
    return found


def _imported(node: ast.Import | ast.ImportFrom, known: dict[str, pathlib.Path]) -> set[str]:
    """The product's modules an import statement loads: `from a.b import c` loads a.b.c when that is a module,
    else a.b (the package a.b itself is loaded on the way either way, and is not counted as an edge)."""
    if isinstance(node, ast.Import):
        return {alias.name for alias in node.names if alias.name in known}
    if node.level or node.module is None:
        raise AssertionError(f"a relative import at line {node.lineno}: the product imports by absolute names")
    names = {f"{node.module}.{alias.name}" for alias in node.names}
    modules = {name for name in names if name in known}
    if len(modules) < len(names) and node.module in known:
        modules.add(node.module)
    return modules


def _graph() -> tuple[dict[str, set[str]], list[str]]:
    """The import graph of the product code (every import, wherever it stands) and the function-local imports found."""
    known = {name: path for top in PRODUCT for name, path in _modules(top).items()}
    edges: dict[str, set[str]] = {name: set() for name in known}
    local: list[str] = []
    for name, path in known.items():
        tree = ast.parse(path.read_text(), filename=str(path))
        local += [f"{path.relative_to(ROOT).as_posix()}:{place}" for place in _local_imports(tree)]
        for node in ast.walk(tree):
            if isinstance(node, ast.Import | ast.ImportFrom):
                edges[name] |= _imported(node, known) - {name}
    return edges, local


def _local_imports(tree: ast.Module) -> list[str]:
    """Each import inside a function of this module, as `line in function()`."""
    return [
        f"{inner.lineno} in {function.name}()"
        for function in ast.walk(tree)
        if isinstance(function, ast.FunctionDef | ast.AsyncFunctionDef)
        for inner in ast.walk(function)
        if isinstance(inner, ast.Import | ast.ImportFrom)
    ]


def _circles(edges: dict[str, set[str]]) -> list[list[str]]:
    """One circle through each strongly connected group of modules (Tarjan's algorithm), written a → b → a."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    groups: list[set[str]] = []

    def visit(module: str) -> None:
        index[module] = low[module] = len(index)
        stack.append(module)
        on_stack.add(module)
        for target in sorted(edges[module]):
            if target not in index:
                visit(target)
                low[module] = min(low[module], low[target])
            elif target in on_stack:
                low[module] = min(low[module], index[target])
        if low[module] == index[module]:
            group = set()
            while True:
                member = stack.pop()
                on_stack.discard(member)
                group.add(member)
                if member == module:
                    break
            if len(group) > 1:
                groups.append(group)

    for module in sorted(edges):
        if module not in index:
            visit(module)
    return [_circle_in(group, edges) for group in groups]


def _circle_in(group: set[str], edges: dict[str, set[str]]) -> list[str]:
    """A shortest path from the group's first module back to itself, inside the group."""
    start = min(group)
    paths = {start: [start]}
    frontier = [start]
    while frontier:
        following = []
        for module in frontier:
            for target in sorted(edges[module] & group):
                if target == start:
                    return [*paths[module], start]
                if target not in paths:
                    paths[target] = [*paths[module], target]
                    following.append(target)
        frontier = following
    raise AssertionError(f"no circle in {sorted(group)}")


def _lines(path: pathlib.Path) -> int:
    return len(path.read_text().splitlines())


def _product_files() -> dict[str, pathlib.Path]:
    return {
        path.relative_to(ROOT).as_posix(): path
        for top in PRODUCT
        for path in sorted((ROOT / top).rglob("*"))
        if path.suffix in SOURCE_SUFFIXES and path.is_file()
    }


def test_the_product_code_imports_without_a_circle():
    edges, _ = _graph()
    assert "quartermaster.projections.pacg.hands" in edges and edges["quartermaster.projections.pacg.hands"], (
        "the graph reads the fold's imports"
    )
    assert "quartermaster.service.store" in edges["quartermaster.service.app"], "the graph reads the service's imports"
    circles = [" → ".join(circle) for circle in _circles(edges)]
    assert circles == [], f"modules of the product that import one another in a circle: {circles}"


def test_the_circle_finder_finds_a_circle_and_names_it():
    edges = {"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}
    assert _circles(edges) == [["a", "b", "c", "a"]]
    assert _circles({"a": {"b"}, "b": set()}) == []


def test_the_product_code_imports_at_the_top_of_each_module():
    _, local = _graph()
    assert local == [], f"imports inside functions of the product (move them to the top of the module): {local}"


def test_the_local_import_finder_finds_an_import_inside_a_function_and_names_it():
    tree = ast.parse("import a\n\n\nasync def f():\n    from b import c\n    return c\n")
    assert _local_imports(tree) == ["5 in f()"]
    assert _local_imports(ast.parse("import a\nfrom b import c\n")) == []


def test_no_product_file_is_over_600_lines():
    files = _product_files()
    assert "events/pacg/__init__.py" in files, "the walk reads the product files"
    long = {name: _lines(path) for name, path in files.items() if name not in LONG_FILES_LEFT}
    over = {name: count for name, count in long.items() if count > MOST_LINES}
    assert over == {}, f"product files over {MOST_LINES} lines (one module per part reads better): {over}"


def test_the_long_files_left_are_still_long():
    files = _product_files()
    shorter = {name for name in LONG_FILES_LEFT if name not in files or _lines(files[name]) <= MOST_LINES}
    assert shorter == set(), f"at most {MOST_LINES} lines now or gone, take off the list of long files: {shorter}"


# The floors, bottom up: a module imports only from its own floor and the floors below it. At the top level the
# rules know nothing of the service (events → projections → service); inside the service, the platform (settings,
# logs, tokens, the embedded server) → the store (the only SQL) → the application (what is done with the log) →
# HTTP (routes, auth, problems, the edge) → the two doors, app.py and cli.py.
TOP_FLOORS = ("quartermaster.events", "quartermaster.projections", "quartermaster.service")
SERVICE_FLOORS = ("platform", "store", "application", "http", "app", "cli")


def _floor_of(module: str) -> tuple[int, int]:
    """Where a module of the product stands: its top-level floor, then its floor inside the service (0 outside)."""
    top = next(i for i, name in enumerate(TOP_FLOORS) if module == name or module.startswith(name + "."))
    if top < 2 or module == "quartermaster.service":
        return top, 0
    return top, SERVICE_FLOORS.index(module.split(".")[2])


def _upward(edges: dict[str, set[str]]) -> list[str]:
    return sorted(
        f"{module} → {target}"
        for module, targets in edges.items()
        for target in targets
        if _floor_of(target) > _floor_of(module)
    )


def test_no_module_imports_from_a_floor_above_its_own():
    edges, _ = _graph()
    assert _floor_of("quartermaster.service.http.routes.events") == (2, 3), "the floors are read from the names"
    assert _upward(edges) == [], "imports that run up a floor (move the piece down, or the importer up)"


def test_the_floor_check_finds_an_import_running_up():
    edges = {"quartermaster.service.store.reading": {"quartermaster.service.http.problems"}}
    assert _upward(edges) == ["quartermaster.service.store.reading → quartermaster.service.http.problems"]
    assert _upward({"quartermaster.projections.game": {"quartermaster.service.app"}}) != []
    assert _upward({"quartermaster.service.app": {"quartermaster.events.base"}}) == []


def test_the_service_keeps_no_loose_module_beside_its_floors():
    loose = sorted(p.name for p in (ROOT / "service").glob("*.py") if p.name not in {"__init__.py", "app.py", "cli.py"})
    folders = sorted(p.name for p in (ROOT / "service").iterdir() if p.is_dir() and p.name != "__pycache__")
    assert loose == [], "every module of the service stands on a floor (a folder) or is one of the two doors"
    assert folders == sorted([*SERVICE_FLOORS[:4], "page"])


def test_every_package_is_installed_under_the_one_name():
    config = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["setuptools"]
    folders = {
        "quartermaster." + ".".join(init.parent.relative_to(ROOT).parts)
        for top in (*PRODUCT, "migrations")
        for init in (ROOT / top).rglob("__init__.py")
    }
    assert config["package-dir"] == {"quartermaster": "."}
    assert set(config["packages"]) == folders | {"quartermaster.migrations"}


def test_the_product_imports_itself_only_by_its_installed_name():
    bare = []
    for top in (*PRODUCT, "tests", "benchmarks"):
        for path in sorted((ROOT / top).rglob("*.py")):
            for node in ast.walk(ast.parse(path.read_text())):
                names = (
                    [a.name for a in node.names]
                    if isinstance(node, ast.Import)
                    else [node.module or ""]
                    if isinstance(node, ast.ImportFrom)
                    else []
                )
                bare += [
                    f"{path.relative_to(ROOT)}:{node.lineno}"
                    for name in names
                    if name.split(".")[0] in {"events", "projections", "service", "migrations"}
                ]
    assert bare == [], "imports by a bare top-level name, which another distribution could shadow"
