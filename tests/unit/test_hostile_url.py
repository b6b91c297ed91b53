"""An address with a NUL character, raw or percent-encoded, in its path or its query string is recognised."""

from __future__ import annotations

import pytest

from quartermaster.service.http.hostile import nul_in_url

ADDRESSES = {
    "a plain path": ("/healthz", b"", False),
    "no query string at all": ("/healthz", None, False),
    "a plain query": ("/v1/campaigns/x/events", b"after=3&limit=10", False),
    "a NUL in the path": ("/v1/campaigns/a\x00b/events", b"", True),
    "a raw NUL in the query": ("/healthz", b"x=a\x00b", True),
    "a percent-encoded NUL in the query": ("/healthz", b"x=a%00b", True),
    "an encoded percent sign before 00": ("/healthz", b"x=%2500", False),
}


@pytest.mark.parametrize("address", ADDRESSES)
def test_a_nul_character_in_an_address_is_found_wherever_it_is(address):
    path, query, holds_nul = ADDRESSES[address]
    scope = {"path": path} if query is None else {"path": path, "query_string": query}
    assert nul_in_url(scope) is holds_nul  # type: ignore[arg-type]
