"""Every HTML answer the service gives carries a strict Content-Security-Policy: no inline script or style but by its
digest, nothing from another host, never framed, no <base> and no form sent elsewhere. Asked of every GET route the
app has, on both ways of building it (the fast lane on and off), so a page added later is checked without a list."""

from __future__ import annotations

import base64
import hashlib
import re
from html.parser import HTMLParser

import pytest

from tests.conftest import Api

# The live stream never ends; it answers text/event-stream (tests/api and tests/integration follow it).
NOT_ASKED = {"/v1/campaigns/{campaign:str}/stream"}


def directives(policy: str) -> dict[str, list[str]]:
    found: dict[str, list[str]] = {}
    for part in policy.split(";"):
        words = part.split()
        if words:
            found.setdefault(words[0].lower(), words[1:])
    return found


class Inline(HTMLParser):
    """The page's inline scripts and styles, and the attributes that would run or style without a digest."""

    def __init__(self) -> None:
        super().__init__()
        self.scripts: list[str] = []
        self.styles: list[str] = []
        self.attributes: list[str] = []
        self._open: str | None = None
        self._text: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        names = {name for name, _ in attrs}
        self.attributes += [n for n in names if n == "style" or n.startswith("on")]
        if (tag == "script" and "src" not in names) or tag == "style":
            self._open, self._text = tag, []

    def handle_data(self, data: str) -> None:
        if self._open:
            self._text.append(data)

    def handle_endtag(self, tag: str) -> None:
        if tag == self._open:
            (self.scripts if tag == "script" else self.styles).append("".join(self._text))
            self._open = None


def _digest(text: str) -> str:
    return "'sha256-" + base64.b64encode(hashlib.sha256(text.encode()).digest()).decode() + "'"


def assert_strict(path: str, policy: str | None, body: str) -> None:
    assert policy, f"{path} answers HTML without a Content-Security-Policy"
    given = directives(policy)
    default = given.get("default-src")
    assert default in (["'none'"], ["'self'"]), f"{path}: default-src is {default}"
    loose = {"'unsafe-inline'", "'unsafe-eval'", "'unsafe-hashes'", "*", "data:", "http:", "https:", "blob:"}
    for kind in ("script-src", "style-src", "object-src", "connect-src"):
        allowed = set(given.get(kind, default))
        assert not allowed & loose, f"{path}: {kind} allows {sorted(allowed & loose)}"
        assert all(s in ("'none'", "'self'") or s.startswith("'sha256-") for s in allowed), f"{path}: {kind} {allowed}"
    assert given.get("frame-ancestors") == ["'none'"], path
    assert given.get("base-uri") == ["'none'"], path
    assert given.get("form-action") in (["'none'"], ["'self'"]), path
    inline = Inline()
    inline.feed(body)
    assert not inline.attributes, f"{path} has inline {inline.attributes}, which its policy would block"
    for kind, blocks in (("script-src", inline.scripts), ("style-src", inline.styles)):
        for block in blocks:
            assert _digest(block) in given.get(kind, default), f"{path}: an inline {kind[:-4]} its policy blocks"


def _concrete(path: str, campaign_id: str) -> str:
    values = {
        "campaign": campaign_id,
        "game_id": "pacg-skull-and-shackles",
        "name": "app.js" if path.startswith("/static") else "fleet",
        "character_id": "merisiel",
        "pirate_id": "anne",
        "path": "no-such-page",
    }
    return re.sub(r"\{(\w+):\w+\}", lambda m: values[m.group(1)], path)


def test_every_html_answer_has_a_strict_content_security_policy(api: Api):
    client = api.client
    campaign = api.new_campaign()
    routes = [r.path for r in client.app.routes if "GET" in getattr(r, "methods", ()) and r.path not in NOT_ASKED]
    html: list[str] = []
    for route in routes:
        for headers in ({}, campaign.headers):
            answer = client.get(_concrete(route, campaign.id), headers=headers)
            if answer.headers.get("content-type", "").startswith("text/html"):
                html.append(route)
                assert_strict(route, answer.headers.get("content-security-policy"), answer.text)
    # The table page at each of its addresses, the API documentation and its not-found page are all HTML.
    assert {"/", "/join", "/c/{campaign:str}", "/schema", "/schema/{path:str}"} <= set(html)


def test_the_policy_check_catches_an_inline_style_without_its_digest():
    with pytest.raises(AssertionError, match="inline style"):
        assert_strict(
            "/x",
            "default-src 'none'; frame-ancestors 'none'; base-uri 'none'; form-action 'none'",
            "<style>b{}</style>",
        )
    with pytest.raises(AssertionError, match="frame-ancestors|default-src"):
        assert_strict("/x", "frame-ancestors 'none'", "<p>")
