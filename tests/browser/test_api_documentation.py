"""The API documentation at /schema, in Chromium under its own strict content policy: styled, and nothing refused."""

from __future__ import annotations


def test_the_api_documentation_is_styled_under_its_policy_with_no_violation(phones):
    page = phones.new({"width": 1280, "height": 800})
    refused: list[str] = []
    page.on("console", lambda m: refused.append(m.text) if "Content Security Policy" in m.text else None)
    answer = page.goto(f"{phones.origin}/schema")
    assert answer is not None and "default-src 'none'" in answer.headers["content-security-policy"]
    page.get_by_role("heading", name="Quartermaster API").wait_for()
    # The inline style, allowed by its digest, applies: the body is 60rem wide at most, centred
    assert page.evaluate("getComputedStyle(document.body).maxWidth") == "960px"
    assert page.evaluate("getComputedStyle(document.querySelector('.m')).textTransform") == "uppercase"
    assert refused == []
