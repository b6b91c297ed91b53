"""A member token names its member by id, in the one spelling new_token writes."""

from __future__ import annotations

import uuid

import pytest
from hypothesis import given, strategies as st

from quartermaster.service.platform import tokens


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


def test_the_tokens_a_process_keeps_are_kept_by_their_digest_never_in_plain_text():
    kept = tokens.Verified()
    member = type("Member", (), {"id": uuid.uuid4()})()
    token, _ = tokens.new_token(member.id)

    kept.keep(token, member)

    assert kept.get(token) is member
    held = repr(vars(kept)).encode() + b"".join(vars(kept)["_by_digest"])
    assert token.encode() not in held and tokens.parse(token)[1].encode() not in held
    kept.forget(member.id)
    assert kept.get(token) is None and len(kept) == 0
