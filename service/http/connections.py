"""The server's connections: each request must arrive within a deadline, and descriptors are kept for real clients.

uvicorn bounds the idle time between two requests of a connection (`timeout_keep_alive`), but not the time a request
takes to arrive, and none of its options does (uvicorn issue 157 lists the timeout it lacks): a byte every few seconds
keeps a connection, its descriptor and, once the headers are in, the handler waiting on the body, for as long as the
client likes, and about a thousand such clients take every descriptor a process has at the common soft limit of
1,024. Plain ASGI cannot see headers arrive (the app is called once they have), so the bound sits under it, in the
asyncio protocol uvicorn runs for each connection: `Watched` is an asyncio.Protocol of its own, given to uvicorn as
its `http` protocol class, that holds uvicorn's own (`AutoHTTPProtocol`) and hands it every call unchanged, reading
the same bytes with httptools' public parser only to see where each request begins and ends. Nothing of uvicorn's is
extended or read: only the asyncio protocol and transport interfaces stand between the two.

- **A deadline per request.** From a connection's start, or a request's first byte, to that request's last byte:
  `seconds` (Settings.receive_timeout). When it passes before the app has begun its answer, the client gets 408
  with a sentence and the connection is closed; the app, if it was reading the body, hears that the client went.
- **A reserve of descriptors.** A process keeps `RESERVE` descriptors (pooled database connections, log files, the
  listening socket) out of the clients' reach: once the connections open reach the soft limit less that reserve, each
  new one closes the connection that has waited longest for a request still not arrived, which is never a client that
  sent its request and is being answered. A real client that connects under an attack of slow headers is so answered
  at once, not after the deadline.
"""

from __future__ import annotations

import asyncio
import logging
import os
import resource
from typing import Any, cast

import httptools
import msgspec
from uvicorn.protocols.http.auto import AutoHTTPProtocol

from quartermaster.service.http.problems import MEDIA_TYPE, body

log = logging.getLogger("quartermaster")

# The default, and the variable `serve` sets for uvicorn's workers (each builds its protocols from the class alone).
SECONDS = 20.0
VARIABLE = "QUARTERMASTER_RECEIVE_TIMEOUT"
# Descriptors a process keeps for itself: its pools' connections (16 by default, a replica's as many), its listening
# sockets, log and metric files, the embedded server's pipes, and room to accept while the oldest waiter is closed.
RESERVE = 96

_DETAIL = (
    "The request did not arrive in time: its headers and body must arrive within {seconds:g} seconds of its "
    "first byte. Nothing was done; send it again."
)


class Watched(asyncio.Protocol):
    """uvicorn's HTTP protocol for one connection, with the request deadline and the reserve (module docstring)."""

    def __init__(self, **uvicorn: Any) -> None:
        # uvicorn calls the protocol class with its config, its server state, the lifespan's state and the loop.
        self.inner: asyncio.Protocol = AutoHTTPProtocol(**uvicorn)
        # uvicorn builds each connection's protocol inside its running loop.
        self.loop: asyncio.AbstractEventLoop = asyncio.get_running_loop()
        self.parser: Any = httptools.HttpRequestParser(self)
        self.transport: asyncio.Transport | None = None
        self.deadline: asyncio.TimerHandle | None = None
        # Whether the app has written anything since the request now arriving began (then no 408 can be sent).
        self.answered = False

    # asyncio.Protocol, each call handed to uvicorn's protocol.

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        # A stream transport (uvloop's is one without deriving from asyncio.Transport).
        self.transport = cast(asyncio.Transport, transport)
        OPEN[self] = None
        self._waiting()  # a connection that never sends a whole request
        self.inner.connection_made(_Told(self.transport, self))
        if len(OPEN) > capacity():
            _close_oldest_waiter(self)

    def data_received(self, data: bytes) -> None:
        if self.parser is not None:
            try:
                self.parser.feed_data(data)
            except httptools.HttpParserUpgrade:
                self._stop_watching()  # another protocol from here on (a WebSocket): uvicorn's to bound
            except httptools.HttpParserError:
                self._stop_watching()  # uvicorn's parser refuses it too, with its own 400
        self.inner.data_received(data)

    def eof_received(self) -> bool | None:
        return self.inner.eof_received()

    def pause_writing(self) -> None:
        self.inner.pause_writing()

    def resume_writing(self) -> None:
        self.inner.resume_writing()

    def connection_lost(self, exc: Exception | None) -> None:
        self._stop_watching()
        OPEN.pop(self, None)
        self.inner.connection_lost(exc)

    # httptools' callbacks: where a request begins and ends.

    def on_message_begin(self) -> None:
        self.answered = False
        if self.deadline is None:
            self._waiting()

    def on_headers_complete(self) -> None:
        WAITING.pop(self, None)  # arrived: no longer the first to close for a new client

    def on_message_complete(self) -> None:
        self._disarm()

    # The deadline.

    def _waiting(self) -> None:
        self._disarm()
        self.deadline = self.loop.call_later(receive_seconds(), self._too_slow)
        WAITING.pop(self, None)
        WAITING[self] = None  # last: the newest waiter

    def _disarm(self) -> None:
        if self.deadline is not None:
            self.deadline.cancel()
            self.deadline = None
        WAITING.pop(self, None)

    def _stop_watching(self) -> None:
        self._disarm()
        self.parser = None

    def _too_slow(self) -> None:
        self.deadline = None
        WAITING.pop(self, None)
        transport = self.transport
        if transport is None or transport.is_closing():
            return
        if not self.answered:
            content = msgspec.json.encode(body(408, _DETAIL.format(seconds=receive_seconds()), "request-timeout", {}))
            transport.write(
                b"HTTP/1.1 408 Request Timeout\r\ncontent-type: "
                + MEDIA_TYPE.encode()
                + b"\r\ncontent-length: "
                + str(len(content)).encode()
                + b"\r\nconnection: close\r\n\r\n"
                + content
            )
        transport.close()


class _Told(asyncio.Transport):
    """The connection's transport as uvicorn's protocol sees it: every call handed on, a write also noted (after it,
    the app has begun an answer that a 408 must not interrupt)."""

    def __init__(self, transport: asyncio.Transport, watched: Watched) -> None:
        super().__init__()
        self.transport = transport
        self.watched = watched

    def write(self, data: bytes | bytearray | memoryview) -> None:
        self.watched.answered = True
        self.transport.write(data)

    def writelines(self, list_of_data: Any) -> None:
        self.watched.answered = True
        self.transport.writelines(list_of_data)

    def get_extra_info(self, name: str, default: Any = None) -> Any:
        return self.transport.get_extra_info(name, default)

    def is_closing(self) -> bool:
        return self.transport.is_closing()

    def close(self) -> None:
        self.transport.close()

    def abort(self) -> None:
        self.transport.abort()

    def is_reading(self) -> bool:
        return self.transport.is_reading()

    def pause_reading(self) -> None:
        self.transport.pause_reading()

    def resume_reading(self) -> None:
        self.transport.resume_reading()

    def set_write_buffer_limits(self, high: int | None = None, low: int | None = None) -> None:
        self.transport.set_write_buffer_limits(high, low)

    def get_write_buffer_size(self) -> int:
        return self.transport.get_write_buffer_size()

    def get_write_buffer_limits(self) -> tuple[int, int]:
        return self.transport.get_write_buffer_limits()

    def can_write_eof(self) -> bool:
        return self.transport.can_write_eof()

    def write_eof(self) -> None:
        self.transport.write_eof()

    def set_protocol(self, protocol: asyncio.BaseProtocol) -> None:
        self.transport.set_protocol(protocol)

    def get_protocol(self) -> asyncio.BaseProtocol:
        return self.transport.get_protocol()


# This process's connections, in the order they opened, and those waiting for a request, longest waiting first.
OPEN: dict[Watched, None] = {}
WAITING: dict[Watched, None] = {}


def receive_seconds() -> float:
    """The deadline, from the environment `serve` sets (read once per process)."""
    global _SECONDS
    if _SECONDS is None:
        _SECONDS = float(os.environ.get(VARIABLE) or SECONDS)
    return _SECONDS


def capacity() -> int:
    """How many connections this process holds before it closes the longest waiting one for a new one."""
    global _CAPACITY
    if _CAPACITY is None:
        soft, _ = resource.getrlimit(resource.RLIMIT_NOFILE)
        _CAPACITY = max(soft - RESERVE, 1) if soft != resource.RLIM_INFINITY else 1 << 30
    return _CAPACITY


_SECONDS: float | None = None
_CAPACITY: int | None = None
_closed_for_room = 0


def _close_oldest_waiter(newcomer: Watched) -> None:
    global _closed_for_room
    oldest = next((w for w in WAITING if w is not newcomer), None)
    if oldest is None or oldest.transport is None:
        return  # every connection is being answered: the newcomer waits its turn like any
    _closed_for_room += 1
    if _closed_for_room in (1, 10, 100) or _closed_for_room % 1000 == 0:
        log.warning(
            "%d connections open, the most this process keeps with %d descriptors in reserve: closed the one that "
            "waited longest for its request (%d so closed since start)",
            len(OPEN),
            RESERVE,
            _closed_for_room,
        )
    oldest._disarm()
    oldest.transport.abort()  # no goodbye for a client that never finished asking
