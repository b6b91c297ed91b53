"""The depth check reads a body as a plain scan does: strings cut out, then the deepest point of what is left.

The check takes shortcuts (only quotes and brackets kept, empty pairs taken out a level at a time); whatever the
text, valid JSON or not, it must refuse exactly what the plain scan would.
"""

from __future__ import annotations

import json
import re
from typing import Any

from hypothesis import given, strategies as st

from quartermaster.service.http.hostile import MAX_DEPTH, refuse_nul_and_depth
from quartermaster.service.http.problems import Problem

_STRING = re.compile(rb'"(?:[^"\\]|\\.)*"')


def deepest(raw: bytes) -> int:
    """The deepest point of a text, bracket by bracket, once its strings are cut out."""
    depth = most = 0
    for byte in _STRING.sub(b"", raw):
        if byte in b"[{":
            depth += 1
            most = max(most, depth)
        elif byte in b"]}":
            depth -= 1
    return most


def refused_as_too_deep(raw: bytes) -> bool:
    try:
        refuse_nul_and_depth(raw)
    except Problem as problem:
        assert problem.kind == "nested-too-deep"
        return True
    return False


PIECES = [b"[", b"]", b"{", b"}", b'"', b"\\", b"\n", b"a", b",", b":", b'\\"', b"\\\\", b"[" * 8, b"]" * 8, b"{" * 8]
TEXT = st.lists(st.sampled_from(PIECES), max_size=160).map(b"".join)
WORDS = st.text(alphabet='[]{}"\\ab\n', max_size=4)
JSON = st.recursive(
    st.none() | st.integers() | WORDS,
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(WORDS, inner, max_size=3),
    max_leaves=40,
)


@st.composite
def nested(draw: Any) -> Any:
    """A JSON value wrapped in lists and objects, around the depth limit."""
    value = draw(JSON)
    for in_a_list in draw(st.lists(st.booleans(), min_size=MAX_DEPTH - 8, max_size=MAX_DEPTH + 8)):
        value = [value, draw(JSON)] if in_a_list else {draw(WORDS): value}
    return value


@given(TEXT)
def test_any_text_is_refused_exactly_when_a_plain_scan_finds_it_too_deep(raw):
    assert refused_as_too_deep(raw) == (deepest(raw) > MAX_DEPTH)


@given(nested(), st.sampled_from(["one", "lines", "cut"]))
def test_json_around_the_limit_is_refused_exactly_when_a_plain_scan_finds_it_too_deep(value, shape):
    raw = json.dumps(value).encode()
    if shape == "lines":  # NDJSON, as an import sends
        raw = raw + b"\n" + raw
    elif shape == "cut":  # JSON that does not parse still gets the same answer
        raw = raw[: len(raw) // 2]
    assert refused_as_too_deep(raw) == (deepest(raw) > MAX_DEPTH)


def test_a_deep_text_among_many_shallow_pairs_is_found():
    shallow = b"[]" * 10_000
    assert refused_as_too_deep(shallow + b"[" * (MAX_DEPTH + 1) + b"]" * (MAX_DEPTH + 1) + shallow)
    assert not refused_as_too_deep(shallow + b"[" * MAX_DEPTH + b"]" * MAX_DEPTH + shallow)


def test_closing_more_than_was_opened_does_not_make_room_for_more_levels():
    assert not refused_as_too_deep(b"]" * 100 + b"[" * (MAX_DEPTH + 100))
    assert refused_as_too_deep(b"]" * 100 + b"[" * (MAX_DEPTH + 101))
