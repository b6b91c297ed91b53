"""The table page's JavaScript modules import one another in one direction: no module waits on one that waits on it."""

from __future__ import annotations

import re

from quartermaster.service.http.page import HERE

_IMPORT = re.compile(r"""^\s*(?:import|export)\s[^;]*?\sfrom\s+["']\./([\w-]+\.js)["']""", re.M | re.S)
_BARE = re.compile(r"""^\s*import\s+["']\./([\w-]+\.js)["']""", re.M)


def _imports() -> dict[str, set[str]]:
    found = {}
    for module in sorted((HERE / "static").glob("*.js")):
        text = module.read_text()
        found[module.name] = set(_IMPORT.findall(text)) | set(_BARE.findall(text))
    return found


def _circle(graph: dict[str, set[str]]) -> list[str] | None:
    """The first circle of imports found, as the modules along it, or None."""
    done: set[str] = set()

    def walk(node: str, path: list[str]) -> list[str] | None:
        if node in path:
            return [*path[path.index(node) :], node]
        if node in done:
            return None
        for nxt in sorted(graph.get(node, ())):
            found = walk(nxt, [*path, node])
            if found:
                return found
        done.add(node)
        return None

    for start in sorted(graph):
        found = walk(start, [])
        if found:
            return found
    return None


def test_the_page_modules_import_one_another_without_a_circle():
    graph = _imports()
    assert graph["action.js"] >= {"api.js", "refusal.js", "override.js"}
    circle = _circle(graph)
    assert circle is None, "The page's modules import in a circle: " + " -> ".join(circle or [])


def test_the_circle_finder_finds_a_circle_when_there_is_one():
    assert _circle({"api.js": {"override.js"}, "override.js": {"refusal.js"}, "refusal.js": {"api.js"}}) == [
        "api.js",
        "override.js",
        "refusal.js",
        "api.js",
    ]


def test_every_module_the_page_imports_is_one_of_its_files():
    graph = _imports()
    assert all(target in graph for targets in graph.values() for target in targets)
    assert not (set(graph) - {m.name for m in (HERE / "static").glob("*.js")})


def test_the_api_module_imports_only_where_the_service_is_served():
    graph = _imports()
    assert graph["api.js"] <= {"root.js"}
    assert graph.get("root.js", set()) == set()


def test_the_import_pattern_reads_a_module_spread_over_lines():
    text = 'import {\n  a,\n  b,\n} from "./x.js";\nimport "./y.js";\n'
    assert set(_IMPORT.findall(text)) | set(_BARE.findall(text)) == {"x.js", "y.js"}


def test_every_module_of_the_page_and_its_worker_asks_to_be_type_checked():
    # .ci/lint runs TypeScript's compiler over them (.ci/js/tsconfig.json); the first line says so to a reader too.
    modules = [*sorted((HERE / "static").glob("*.js")), HERE / "sw.js"]
    unchecked = [m.name for m in modules if not m.read_text().startswith("// @ts-check\n")]
    assert not unchecked, f"These modules do not start with // @ts-check: {unchecked}"
