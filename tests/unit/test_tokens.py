"""A member token names its member by id, in the one spelling new_token writes."""

from __future__ import annotations

import uuid

import pytest
from hypothesis import given, strategies as st

from service import tokens


@given(st.uuids())
def test_a_new_token_parses_back_to_its_member_and_secret(member_id):
    token, stored = tokens.new_token(member_id)
    parsed = tokens.parse(token)
    assert parsed is not None
    assert type(parsed[0]) is uuid.UUID and parsed[0] == member_id and parsed[0].int == member_id.int
    assert tokens.matches(parsed[1], stored)


@pytest.mark.parametrize(
    "spelling",
    [
        lambda m: m.hex.upper(),
        lambda m: str(m),
        lambda m: "{" + m.hex + "}",
        lambda m: "urn:uuid:" + str(m),
        lambda m: m.hex[:-1],
        lambda m: m.hex + "0",
    ],
    ids=["upper case", "hyphenated", "braces", "urn", "a digit short", "a digit long"],
)
def test_a_member_id_in_another_spelling_is_no_token(spelling):
    member_id = uuid.uuid4()
    secret = tokens.new_token(member_id)[0].removeprefix(tokens.PREFIX).partition("_")[2]
    assert tokens.parse(f"{tokens.PREFIX}{spelling(member_id)}_{secret}") is None
