"""The map of the rules (projections/pacg/RULES.md) stays true: every status is one of the map's, every enforced rule
names the tests that show both of its sides, and every test it names exists."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[3]
MAP = ROOT / "projections" / "pacg" / "RULES.md"
STATUSES = {"rule", "integrity", "applied", "option", "recorded", "out of scope"}


def rows() -> list[list[str]]:
    found = []
    for line in MAP.read_text("utf-8").splitlines():
        if line.startswith("| ") and not line.startswith("| Rule |"):
            found.append([cell.strip() for cell in line.strip().strip("|").split("|")])
    return found


def defined_tests() -> set[str]:
    names: set[str] = set()
    for path in (ROOT / "tests").rglob("test_*.py"):
        names.update(re.findall(r"^def (test_\w+)", path.read_text("utf-8"), re.MULTILINE))
    return names


def test_every_row_has_a_status_of_the_map():
    for rule, status, *_ in rows():
        assert {s.strip() for s in status.split("/")} <= STATUSES, (rule, status)


def test_every_enforced_rule_names_its_tests():
    for rule, status, _how, tests in rows():
        kinds = {s.strip() for s in status.split("/")}
        if kinds & {"rule", "integrity"}:
            assert re.findall(r"`([^`]+)`", tests), f"{rule!r} is enforced but names no test"


def test_every_test_the_map_names_exists():
    known = defined_tests()
    for rule, _status, _how, tests in rows():
        for named in re.findall(r"`([^`]+)`", tests):
            path, _, name = named.partition("::")
            if path.endswith(".py"):
                assert (ROOT / path).exists(), (rule, named)
                if name:
                    assert re.search(rf"^def {name}\(", (ROOT / path).read_text("utf-8"), re.MULTILINE), (rule, named)
            else:
                assert named in known, (rule, named)
