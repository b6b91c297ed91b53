"""A bound on the time to receive a request: a client that sends its headers or its body a byte at a time is cut off.

uvicorn bounds the idle time between two requests of a connection (`timeout_keep_alive`), but not the time a
request takes to arrive: a byte every few seconds keeps a connection, its buffers and, once the headers are in, the
handler waiting on the body, for as long as the client likes, and enough such clients hold every connection. So the
server runs uvicorn's own HTTP protocol (httptools) with one timer more: from a connection's start, or a request's
first byte, to that request's last byte. When it fires before the app has begun its answer, the client gets 408 and
the connection is closed; the app, if it was reading the body, hears that the client went away (408 in the log too,
service/http/problems.py). Plain ASGI cannot see the headers arrive, so the bound is in the protocol.
"""

from __future__ import annotations

import asyncio
import os
from typing import Any

import msgspec
from uvicorn.protocols.http.httptools_impl import HttpToolsProtocol

from quartermaster.service.http.problems import MEDIA_TYPE, body

# The default, and the variable `serve` sets for uvicorn's workers (each builds its protocol from the class alone).
SECONDS = 20.0
VARIABLE = "QUARTERMASTER_RECEIVE_TIMEOUT"

_DETAIL = (
    "The request did not arrive in time: its headers and body must arrive within {seconds:g} seconds of its "
    "first byte. Nothing was done; send it again."
)


class BoundedHttpTools(HttpToolsProtocol):
    """uvicorn's httptools protocol, closing a connection whose request takes longer than `seconds` to arrive."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.seconds = float(os.environ.get(VARIABLE) or SECONDS)
        self._receiving: asyncio.TimerHandle | None = None

    def _arm(self) -> None:
        self._disarm()
        self._receiving = self.loop.call_later(self.seconds, self._too_slow)

    def _disarm(self) -> None:
        if self._receiving is not None:
            self._receiving.cancel()
            self._receiving = None

    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        super().connection_made(transport)
        self._arm()  # a connection that never sends a whole request

    def on_message_begin(self) -> None:
        super().on_message_begin()
        if self._receiving is None:
            self._arm()

    def on_message_complete(self) -> None:
        super().on_message_complete()
        self._disarm()

    def connection_lost(self, exc: Exception | None) -> None:
        self._disarm()
        super().connection_lost(exc)

    def _too_slow(self) -> None:
        self._receiving = None
        if self.transport.is_closing():
            return
        cycle = self.cycle
        if cycle is None or cycle.response_complete or not cycle.response_started:
            detail = _DETAIL.format(seconds=self.seconds)
            content = msgspec.json.encode(body(408, detail, "request-timeout", {}))
            self.transport.write(
                b"HTTP/1.1 408 Request Timeout\r\ncontent-type: "
                + MEDIA_TYPE.encode()
                + b"\r\ncontent-length: "
                + str(len(content)).encode()
                + b"\r\nconnection: close\r\n\r\n"
                + content
            )
            if cycle is not None and not cycle.response_complete:
                cycle.disconnected = True  # whatever the app answers later goes nowhere
                cycle.message_event.set()
        self.transport.close()
