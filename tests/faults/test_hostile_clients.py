"""What a real server process does with clients that attack it: sending a request a byte at a time, or claiming
another address in X-Forwarded-For; and the headers every answer carries against a browser's guessing and framing."""

from __future__ import annotations

import socket
import time

import httpx
import pytest

from tests.faults.servers import serve

pytestmark = pytest.mark.slow

RECEIVE_SECONDS = 1.5
NEW = {"name": "Wormwood", "game": "pacg-skull-and-shackles"}


def _server(folder, database_url, **env: str):
    folder.mkdir(exist_ok=True)
    served = serve(
        folder,
        database_url=database_url,
        env={"QUARTERMASTER_RATE_LIMIT": "3/minute", "QUARTERMASTER_RECEIVE_TIMEOUT": str(RECEIVE_SECONDS), **env},
    )
    served.wait_ready()
    return served


@pytest.fixture(scope="module")
def server(tmp_path_factory, database_url):
    served = _server(tmp_path_factory.mktemp("hostile"), database_url)
    yield served
    served.process.terminate()
    served.process.wait(15)


def _trickle(port: int, request: bytes, pause: float) -> tuple[bytes, float]:
    """Send `request` a byte at a time, `pause` seconds apart, until the server answers or closes; what it answered
    and when (seconds from the first byte)."""
    started = time.monotonic()
    with socket.create_connection(("127.0.0.1", port), timeout=30) as sock:
        sock.setblocking(False)
        answer = b""
        for byte in request:
            try:
                sock.send(bytes([byte]))
            except OSError:
                break
            time.sleep(pause)
            try:
                chunk = sock.recv(65536)
            except BlockingIOError:
                continue
            except OSError:
                break
            answer += chunk
            if not chunk or answer:
                break
        sock.settimeout(10)
        try:
            while chunk := sock.recv(65536):
                answer += chunk
        except OSError:
            pass
    return answer, time.monotonic() - started


def test_a_client_sending_its_headers_a_byte_at_a_time_is_answered_408_and_cut_off(server):
    request = b"GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Padding: " + b"a" * 200 + b"\r\n\r\n"

    answer, seconds = _trickle(server.port, request, 0.05)  # the whole request would take 12 s

    assert answer.startswith(b"HTTP/1.1 408"), answer[:200]
    assert b"application/problem+json" in answer and b"did not arrive in time" in answer
    assert seconds < RECEIVE_SECONDS + 3


def test_a_client_sending_its_body_a_byte_at_a_time_is_cut_off(server):
    body = b'{"name": "Wormwood", "game": "pacg-skull-and-shackles"}'
    request = (
        b"POST /v1/campaigns HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
        b"Content-Length: " + str(len(body)).encode() + b"\r\n\r\n"
    )
    started = time.monotonic()
    with socket.create_connection(("127.0.0.1", server.port), timeout=30) as sock:
        sock.sendall(request)
        for byte in body[:-1]:
            try:
                sock.send(bytes([byte]))
            except OSError:
                break
            time.sleep(0.1)  # the whole body would take 5.5 s
            if time.monotonic() - started > RECEIVE_SECONDS + 3:
                break
        sock.settimeout(5)
        answer = b""
        try:
            while chunk := sock.recv(65536):
                answer += chunk
        except OSError:
            pass
    assert answer.startswith(b"HTTP/1.1 408"), answer[:200]
    assert time.monotonic() - started < RECEIVE_SECONDS + 3
    # The server still serves everyone else.
    assert httpx.get(f"{server.url}/healthz").status_code == 200


def test_x_forwarded_for_does_not_move_a_client_out_of_its_rate_limit_unless_the_operator_trusts_the_proxy(
    tmp_path, database_url
):
    untrusting = _server(tmp_path / "untrusting", database_url)
    try:
        answers = [
            httpx.post(f"{untrusting.url}/v1/campaigns", json=NEW, headers={"X-Forwarded-For": f"203.0.113.{n}"})
            for n in range(5)
        ]
        assert [a.status_code for a in answers] == [201, 201, 201, 429, 429]
    finally:
        untrusting.process.terminate()
        untrusting.process.wait(15)

    trusting = _server(tmp_path / "trusting", database_url, QUARTERMASTER_TRUSTED_PROXIES="127.0.0.1")
    try:
        behind = [
            httpx.post(f"{trusting.url}/v1/campaigns", json=NEW, headers={"X-Forwarded-For": f"203.0.113.{n}"})
            for n in range(5)
        ]
        # Behind a proxy the operator named, each forwarded address is a client of its own.
        assert [a.status_code for a in behind] == [201] * 5
    finally:
        trusting.process.terminate()
        trusting.process.wait(15)


def test_every_answer_says_nosniff_and_the_api_documentation_cannot_be_framed(server):
    for path in ("/healthz", "/readyz", "/v1/campaigns/nothing-here", "/no/such/page", "/", "/schema"):
        assert httpx.get(f"{server.url}{path}").headers["x-content-type-options"] == "nosniff", path
    schema = httpx.get(f"{server.url}/schema")
    assert schema.status_code == 200
    assert "frame-ancestors 'none'" in schema.headers["content-security-policy"]
    assert schema.headers["x-frame-options"] == "DENY" and schema.headers["referrer-policy"] == "no-referrer"
