"""What the direct call makes itself is what Litestar would make: its request (service.fastlane.direct.DirectRequest)
reads a body as Litestar's Request does (the same bytes, or the same refusal, after the same messages, for every way a
body can arrive or go wrong), and its answer (service.fastlane.direct.PlainJson) is the Response Litestar's
constructor makes."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest
from litestar import Litestar, Request, Response, post

from quartermaster.service.http.fastlane.direct import DirectRequest, PlainJson

LIMIT = 100


@post("/letters", request_max_body_size=LIMIT)
async def letters(request: Request) -> None:
    return None


APP = Litestar([letters])
HANDLER = APP.asgi_router.handle_routing(path="/letters", method="POST")[1]


def chunk(body: bytes, more: bool = False) -> dict[str, Any]:
    return {"type": "http.request", "body": body, "more_body": more}


# What arrives: the content-length header (None for none) and the messages, in order.
ARRIVALS: dict[str, tuple[str | None, list[dict[str, Any]]]] = {
    "one chunk": ("11", [chunk(b"Hello, crew")]),
    "no body": (None, [chunk(b"")]),
    "chunks": (None, [chunk(b"Raise ", True), chunk(b"", True), chunk(b"the ", True), chunk(b"Jolly Roger")]),
    "a message without more_body": (None, [{"type": "http.request", "body": b"Ahoy"}]),
    "too long for its announced length": ("4", [chunk(b"x" * (LIMIT + 1))]),
    "an announced length over the limit": (str(LIMIT + 1), [chunk(b"short")]),
    "chunks adding up over the limit": (None, [chunk(b"x" * 60, True), chunk(b"x" * 41)]),
    "chunks adding up to the limit": (None, [chunk(b"x" * 60, True), chunk(b"x" * 40)]),
    "a content-length that is not a number": ("ten", [chunk(b"0123456789")]),
    "a disconnect before the end": (None, [chunk(b"Half a ", True), {"type": "http.disconnect"}]),
    "an empty message": (None, [chunk(b"Ahoy", True), {}]),
    "a message of another type": (None, [{"type": "http.unknown"}, chunk(b"Ahoy")]),
}


def read(make: type[Request], content_length: str | None, messages: list[dict[str, Any]], twice: bool = False):
    """What reading the body answers, how many messages it took, and what a second read answers."""
    pending = list(messages)

    async def receive() -> dict[str, Any]:
        return pending.pop(0) if pending else {"type": "http.disconnect"}

    headers = [(b"content-length", content_length.encode())] if content_length is not None else []
    scope = {"type": "http", "method": "POST", "path": "/letters", "headers": headers, "route_handler": HANDLER}

    async def outcome(request: Request) -> Any:
        try:
            return await request.body()
        except Exception as error:  # the refusal, as its class, status and detail
            return (type(error), getattr(error, "status_code", None), getattr(error, "detail", str(error)))

    async def run() -> Any:
        request = make(scope, receive)  # type: ignore[arg-type]
        first = await outcome(request)
        again = await outcome(request) if twice else None
        # A request made later for the same scope, as an exception handler would make.
        later = await outcome(make(scope, receive)) if twice else None  # type: ignore[arg-type]
        return first, len(messages) - len(pending), again, later

    return asyncio.run(run())


@pytest.mark.parametrize("arrival", ARRIVALS)
def test_the_direct_calls_request_reads_a_body_as_litestars_request_does(arrival):
    content_length, messages = ARRIVALS[arrival]
    assert read(DirectRequest, content_length, messages, twice=True) == read(
        Request, content_length, messages, twice=True
    )


def test_a_stream_already_drained_is_refused_alike():
    async def drained(make: type[Request]) -> Any:
        async def receive() -> dict[str, Any]:
            return chunk(b"Ahoy")

        request = make({"type": "http", "headers": [], "route_handler": HANDLER}, receive)  # type: ignore[arg-type]
        assert [c async for c in request.stream()] == [b"Ahoy", b""]
        try:
            return await request.body()
        except Exception as error:
            return (type(error), getattr(error, "detail", None))

    assert asyncio.run(drained(DirectRequest)) == asyncio.run(drained(Request))
    assert asyncio.run(drained(DirectRequest))[1] == "stream consumed"


@pytest.mark.parametrize("status", [200, 201])
def test_a_plain_json_answer_is_the_response_litestar_makes_of_the_same_bytes_and_status(status):
    made, plain = Response(b'{"position":7}', status_code=status), PlainJson(b'{"position":7}', status)
    slots = {name for cls in type(made).__mro__ for name in getattr(cls, "__slots__", ())}
    assert slots == {name for cls in type(plain).__mro__ for name in getattr(cls, "__slots__", ())}
    assert {name: getattr(plain, name) for name in slots} == {name: getattr(made, name) for name in slots}
    assert isinstance(plain, Response)
