"""A real server and Debian's Chromium for the table page's browser tests.

The server is uvicorn in a thread on a free local port, against the test session's database. Chromium is the
system's (`chromium` on the PATH): Playwright's own browser download is not used. Without Chromium the tests skip
with a sentence saying how to get it, except in CI (`CI=true`), where a missing browser fails the run.

Every page a test opens is watched: a request to any other host is refused and fails the test, and so does a
console error (the browser's own note about an HTTP refusal the test asked for is not one).
"""

from __future__ import annotations

import os
import shutil
import socket
import threading
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import urlsplit

import httpx
import pytest
import uvicorn

from quartermaster.service.app import create_app
from quartermaster.service.platform.settings import Settings

PHONE = {"width": 390, "height": 844}
SHOTS = os.environ.get("QUARTERMASTER_SHOTS", "")
CHROMIUM_FLAGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
    "--disable-dev-shm-usage",
]


def _chromium() -> str:
    path = shutil.which("chromium") or shutil.which("chromium-browser")
    if path:
        return path
    if os.environ.get("CI") == "true":
        pytest.fail(
            "CI runs the browser tests: Chromium is missing (.ci/run installs it with `apt-get install -y chromium`)."
        )
    pytest.skip(
        "The table page's browser tests need Chromium: install it (Debian: `apt-get install chromium`) and "
        "`pip install -e '.[test]'`, then run them again."
    )


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


@pytest.fixture(scope="session")
def server(database_url: str) -> Iterator[str]:
    """The service on a free port of 127.0.0.1, over real HTTP, for as long as the session's browser tests run."""
    port = _free_port()
    # Every browser test starts campaigns from one address; the rate limit has tests of its own.
    # Nor do the wrong tokens some tests send, which have tests of their own (tests/api/test_wrong_tokens.py).
    app = create_app(Settings(pool_min=1, pool_max=8, rate_limit="off", wrong_tokens="off"), database_url)
    config = uvicorn.Config(
        app,
        host="127.0.0.1",
        port=port,
        log_config=None,
        access_log=False,
        log_level="warning",
        timeout_graceful_shutdown=1,
    )
    running = uvicorn.Server(config)
    thread = threading.Thread(target=running.run, name="page-server", daemon=True)
    thread.start()
    deadline = time.monotonic() + 20
    while not running.started:
        if time.monotonic() > deadline or not thread.is_alive():
            raise RuntimeError("The test server did not start within 20 seconds.")
        time.sleep(0.05)
    yield f"http://127.0.0.1:{port}"
    running.should_exit = True
    thread.join(timeout=10)


# Per module, not per session: Playwright's synchronous API holds an event loop open on the main thread while it
# runs, and tests after the browser tests call asyncio.run().
@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    executable = _chromium()
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        launched = playwright.chromium.launch(executable_path=executable, args=CHROMIUM_FLAGS, headless=True)
        yield launched
        launched.close()


@dataclass
class Watch:
    """What a browser context did that a test must not let pass: other hosts asked, console errors."""

    origin: str
    foreign: list[str] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)
    failed: list[str] = field(default_factory=list)

    def check(self) -> None:
        assert not self.foreign, f"The page asked another host for: {self.foreign}"
        assert not self.errors, f"The page logged console errors: {self.errors}"
        assert not self.failed, f"The page's own files failed to load: {self.failed}"


@dataclass
class Phones:
    """Browser contexts at phone size, each watched; `open(token)` signs one in by its join link."""

    browser: Any
    origin: str
    watches: list[Watch] = field(default_factory=list)
    contexts: list[Any] = field(default_factory=list)
    # A test that takes the network or the server away: the browser's notes of requests that got no answer
    # ("net::ERR_INTERNET_DISCONNECTED", "net::ERR_CONNECTION_REFUSED") and a server's 503s are what it asked for.
    outage: bool = False

    def new(self, viewport: dict[str, int] = PHONE) -> Any:
        context = self.browser.new_context(viewport=viewport, device_scale_factor=1)
        watch = Watch(self.origin)
        own = urlsplit(self.origin).netloc

        def route(request_route: Any) -> None:
            target = urlsplit(request_route.request.url)
            if target.scheme in ("http", "https", "ws", "wss") and target.netloc != own:
                watch.foreign.append(request_route.request.url)
                request_route.abort()
            else:
                request_route.continue_()

        def console(message: Any) -> None:
            # Chromium notes every HTTP error answer in the console; refusals are answers the tests ask for.
            if message.type == "error" and "Failed to load resource: the server responded" not in message.text:
                if not (self.outage and "net::ERR_" in message.text):
                    watch.errors.append(message.text)

        def response(answer: Any) -> None:
            # The API's own refusals are answers the tests ask for, at the root or under a proxy's sub-path.
            path = urlsplit(answer.url).path.removeprefix(urlsplit(watch.origin).path.rstrip("/"))
            if (answer.status >= 500 and not self.outage) or (
                answer.status >= 400 and not path.startswith(("/v1/", "/session"))
            ):
                watch.failed.append(f"{answer.status} {answer.url}")

        context.route("**/*", route)
        page = context.new_page()
        page.on("console", console)
        page.on("pageerror", lambda error: watch.errors.append(str(error)))
        page.on("response", response)
        self.watches.append(watch)
        self.contexts.append(context)
        return page

    def open(self, token: str, viewport: dict[str, int] = PHONE) -> Any:
        page = self.new(viewport)
        page.goto(f"{self.origin}/join#{token}")
        page.wait_for_url("**/c/*")
        page.get_by_role("tab", name="Play and log").wait_for()
        # Following the log: from here on, anything appended shows on this phone within the tests' two seconds.
        page.locator("#live[data-state=live]").wait_for()
        return page


@pytest.fixture
def phones(browser: Any, server: str) -> Iterator[Phones]:
    opened = Phones(browser, server)
    yield opened
    for context in opened.contexts:
        context.close()
    for watch in opened.watches:
        watch.check()


@dataclass
class Http:
    """The API over real HTTP with bearer tokens, to set up and check what the browsers do."""

    origin: str
    client: httpx.Client

    def campaign(self, game: str, options: dict[str, Any] | None = None, name: str = "At the table") -> dict[str, Any]:
        answer = self.client.post(
            f"{self.origin}/v1/campaigns",
            json={"name": name, "game": game, "options": options or {}, "owner_name": "Olga"},
        )
        assert answer.status_code == 201, answer.text
        return answer.json()

    def member(self, campaign: dict[str, Any], name: str, role: str = "player") -> dict[str, Any]:
        answer = self.client.post(
            f"{self.origin}/v1/campaigns/{campaign['id']}/members",
            json={"name": name, "role": role},
            headers=self.auth(campaign["token"]),
        )
        assert answer.status_code == 201, answer.text
        return answer.json()

    def append(
        self, campaign: dict[str, Any], events: list[dict[str, Any]], token: str | None = None
    ) -> dict[str, Any]:
        answer = self.client.post(
            f"{self.origin}/v1/campaigns/{campaign['id']}/events",
            json={"events": events},
            headers=self.auth(token or campaign["token"]),
        )
        assert answer.status_code == 201, answer.text
        return answer.json()

    def get(self, campaign: dict[str, Any], path: str, **params: Any) -> Any:
        answer = self.client.get(
            f"{self.origin}/v1/campaigns/{campaign['id']}{path}", params=params, headers=self.auth(campaign["token"])
        )
        assert answer.status_code == 200, answer.text
        return answer.json()

    @staticmethod
    def auth(token: str) -> dict[str, str]:
        return {"Authorization": f"Bearer {token}"}


@pytest.fixture
def http(server: str) -> Iterator[Http]:
    with httpx.Client(timeout=10) as client:
        yield Http(server, client)
