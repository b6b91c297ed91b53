"""The diff's laws, on any JSON-like views: nothing changes between a state and itself, and the changes, applied to
the earlier views, give the later ones."""

from __future__ import annotations

from typing import Any

from hypothesis import given, strategies as st

from quartermaster.service.application.audit.diff import changes

keys = st.sampled_from(["deck", "hand", "Cutlass", "Dagger", "a/b", "x~y", "fame", "coins"])
leaves = st.none() | st.booleans() | st.integers(-5, 5) | st.sampled_from(["Merisiel", "won", ""])
views = st.recursive(
    leaves, lambda inner: st.dictionaries(keys, inner, max_size=4) | st.lists(leaves, max_size=3), max_leaves=20
)
records = st.dictionaries(keys, views, max_size=5)


def _unescape(part: str) -> str:
    return part.replace("~1", "/").replace("~0", "~")


def apply(views: dict[str, Any], found: list[dict[str, Any]]) -> dict[str, Any]:
    """Set each change's `after` at its path (dropping the key when it is null and absent before)."""
    import copy

    result = copy.deepcopy(views)
    for change in found:
        parts = [_unescape(p) for p in change["path"].split("/")[1:]]
        node = result
        for part in parts[:-1]:
            node = node.setdefault(part, {}) if isinstance(node, dict) else node[int(part)]
        last = parts[-1]
        if isinstance(node, list):
            index = int(last)
            while len(node) <= index:
                node.append(None)
            node[index] = change["after"]
        elif change["after"] is None and change["before"] is None:
            node[last] = None
        elif change["after"] is None:
            node.pop(last, None)
        else:
            node[last] = change["after"]
    return result


@given(records)
def test_nothing_changes_between_a_state_and_itself(before):
    assert list(changes(before, before)) == []


@given(records, records)
def test_the_changes_applied_to_the_earlier_views_give_the_later_ones(before, after):
    found = list(changes(before, after))
    assert apply(before, found) == after or _nulls_only(apply(before, found), after)
    assert (found == []) == (before == after)


def _nulls_only(got: Any, wanted: Any) -> bool:
    # A key present with null on one side and absent on the other reads the same in the views: null both ways.
    if isinstance(got, dict) and isinstance(wanted, dict):
        return all(_nulls_only(got.get(k), wanted.get(k)) for k in set(got) | set(wanted))
    return got == wanted
