"""The map of the rules (projections/skull_tales/RULES.md) stays true to the code: every test it names exists,
every campaign option is on it, and its count of refusals by kind is the code's."""

from __future__ import annotations

import ast
import pathlib
import re

import msgspec

import quartermaster.projections.skull_tales
from quartermaster.projections.skull_tales.options import Options

ROOT = pathlib.Path(__file__).resolve().parents[3]
FOLD = pathlib.Path(quartermaster.projections.skull_tales.__file__).parent
RULES = (FOLD / "RULES.md").read_text()
UNIT = ROOT / "tests" / "unit" / "skull_tales"


def _path(name: str) -> pathlib.Path:
    return ROOT / name if name.startswith("tests/") else UNIT / name


def test_every_test_the_map_names_exists():
    named = re.findall(r"`((?:tests/[\w/]+/)?test_\w+\.py)(?:::(test_\w+))?`", RULES)
    assert len(named) > 100
    missing = []
    for file, function in named:
        path = _path(file)
        if not path.exists():
            missing.append(file)
        elif function and not re.search(rf"^def {function}\(", path.read_text(), re.MULTILINE):
            missing.append(f"{file}::{function}")
    assert missing == []


def _refusal_cases() -> set[str]:
    """The names of test_every_refusal.py's cases, read from its source (test modules do not import each other)."""
    tree = ast.parse((UNIT / "test_every_refusal.py").read_text())
    table = next(
        node.value
        for node in ast.walk(tree)
        if isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name) and node.target.id == "CASES"
    )
    assert isinstance(table, ast.List)
    return {case.elts[0].value for case in table.elts if isinstance(case, ast.Tuple)}  # type: ignore[attr-defined]


def test_every_refusal_case_the_map_names_exists():
    cases = _refusal_cases()
    assert len(cases) > 100
    named = re.findall(r'`every_refusal: "([^"]+)"`', RULES)
    assert named and sorted(set(named) - cases) == []


def test_every_campaign_option_is_on_the_map():
    fields = [field.name for field in msgspec.structs.fields(Options)]
    assert [name for name in fields if f"`{name}`" not in RULES] == []


def test_the_count_of_refusals_by_kind_is_the_code_s():
    table = dict(re.findall(r"^\| `(\w+\.py)` \| (\d+ \| \d+) \|$", RULES, re.MULTILINE))
    counted = {}
    for module in sorted(FOLD.glob("*.py")):
        source = module.read_text()
        rules, integrity = len(re.findall(r"\bbroken\(", source)), len(re.findall(r"raise Rejection\(", source))
        if rules or integrity:
            counted[module.name] = f"{rules} | {integrity}"
    assert table == counted


def test_the_reading_a_row_says_an_option_takes_is_its_default():
    said = re.findall(r"`(\w+)` \(default `([^`]*)`\)", RULES)
    assert len(said) > 20
    defaults = msgspec.to_builtins(Options())
    wrong = []
    for name, value in said:
        default = defaults[name]
        if isinstance(default, bool):
            shown = "true" if default else "false"
        else:
            shown = " ".join(default) if isinstance(default, list) else str(default)
        if shown != value:
            wrong.append((name, value, shown))
    assert wrong == []
