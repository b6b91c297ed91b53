"""Nothing a request does blocks the event loop: asyncio's debug mode names every callback that held the loop longer
than SLOW, and an append and the reads after it are served with none named.

A call that blocks (a libpq read waiting on the server, a sleep, a file read) stops every other request of the
process while it waits; a blocking libpq read shipped once. The check is shown to fail on a planted time.sleep."""

from __future__ import annotations

import asyncio
import logging
import re
import time
from collections.abc import Iterator
from typing import Any

import pytest
from litestar.testing import TestClient

from quartermaster.service.app import create_app
from quartermaster.service.http.routes import events

# Longer than any step of a request takes on a busy machine of two cores, far shorter than a wait on the database.
# A machine busy enough can still hold a step off its core for longer once (the clock asyncio reads is the wall's):
# a request is held to have blocked the loop when it did so every time of TRIES, as a call that blocks does.
SLOW = 0.25
TRIES = 2
NOTE = {"type": "note.added", "data": {"text": "The Wormwood sails at dawn."}}


class SlowCallbacks(logging.Handler):
    """The warnings asyncio's debug mode writes for a callback that held the loop longer than its threshold."""

    def __init__(self) -> None:
        super().__init__(logging.WARNING)
        self.seen: list[str] = []

    def emit(self, record: logging.LogRecord) -> None:
        message = record.getMessage()
        if message.startswith("Executing ") and " took " in message:
            self.seen.append(message)


def _debug_loop() -> asyncio.AbstractEventLoop:
    loop = asyncio.new_event_loop()
    loop.set_debug(True)
    loop.slow_callback_duration = SLOW
    return loop


@pytest.fixture
def watched(database_url: str, app_settings: Any) -> Iterator[Any]:
    """A client of the app on an event loop in debug mode, and `ask(method, path, **request)`, which sends a request
    and fails naming it and every slow callback asyncio saw while it was served (a write sent again is a second
    write, which these tests do not mind)."""
    slow = SlowCallbacks()
    asyncio_log = logging.getLogger("asyncio")
    asyncio_log.addHandler(slow)
    app = create_app(app_settings, database_url)
    try:
        with TestClient(app, backend_options={"loop_factory": _debug_loop}) as client:

            def ask(method: str, path: str, **sent: Any) -> Any:
                named = []
                for _ in range(TRIES):
                    slow.seen.clear()
                    answer = client.request(method, path, **sent)
                    if not slow.seen:
                        return answer
                    named.extend(slow.seen)
                raise AssertionError(
                    f"{method} {path} blocked the event loop for more than {SLOW} s, {TRIES} times running:\n"
                    + "\n".join(named)
                )

            yield client, ask
    finally:
        asyncio_log.removeHandler(slow)


def _append_and_read(client: TestClient, ask: Any) -> None:
    campaign = client.post("/v1/campaigns", json={"name": "Watched", "game": "pacg-skull-and-shackles"}).json()
    base, headers = f"/v1/campaigns/{campaign['id']}", {"Authorization": f"Bearer {campaign['token']}"}
    for _ in range(2):  # the first time through makes what is made once (decoders, statements, caches)
        assert ask("POST", f"{base}/events", json={"events": [NOTE]}, headers=headers).status_code == 201
        assert ask("POST", f"{base}/rolls", json={"expression": "2d6"}, headers=headers).status_code == 201
        assert ask("GET", f"{base}/events", headers=headers).status_code == 200
        assert ask("GET", f"{base}/state", headers=headers).status_code == 200
        assert ask("GET", f"{base}/fleet", headers=headers).status_code == 200


def test_appending_and_reading_never_blocks_the_event_loop(watched):
    client, ask = watched
    _append_and_read(client, ask)


def test_a_call_that_blocks_the_loop_is_named(watched, monkeypatch):
    client, ask = watched
    prepare = events.prepare

    def blocking(*args: Any) -> Any:
        time.sleep(2 * SLOW)  # what a blocking read of a socket does to every other request
        return prepare(*args)

    monkeypatch.setattr(events, "prepare", blocking)
    with pytest.raises(AssertionError, match=r"POST /v1/campaigns/.*/events blocked the event loop") as failed:
        _append_and_read(client, ask)
    assert re.search(r"Executing <Task .* took \d+\.\d+ seconds", str(failed.value)), failed.value
