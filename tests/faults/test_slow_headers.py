"""Slow headers at the common limit of 1,024 open files: connections that never finish their headers do not lock a
real client out, and the server raises its soft limit to the hard one at start, saying so (issue 43)."""

from __future__ import annotations

import socket
import time

import httpx
import pytest

from tests.faults.servers import serve

pytestmark = pytest.mark.slow

SLOW_CLIENTS = 1050
# Longer than the test takes to open its connections and ask: the real client is answered because of the reserve of
# descriptors, not because the deadline freed some.
RECEIVE_SECONDS = 60


def test_a_real_client_is_answered_while_1050_connections_never_finish_their_headers(tmp_path, database_url):
    served = serve(
        tmp_path,
        database_url=database_url,
        env={"QUARTERMASTER_RECEIVE_TIMEOUT": str(RECEIVE_SECONDS)},
        open_files=(1024, 1024),  # the hard limit too: nothing to raise, so the reserve must do it
    )
    slow: list[socket.socket] = []
    try:
        served.wait_ready()
        started = time.monotonic()
        for _ in range(SLOW_CLIENTS):
            sock = socket.create_connection(("127.0.0.1", served.port), timeout=10)
            sock.sendall(b"GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: ")  # and never the rest
            slow.append(sock)
        answer = httpx.get(f"{served.url}/healthz", timeout=10)
        took = time.monotonic() - started
        assert answer.status_code == 200, answer.text
        assert took < RECEIVE_SECONDS / 2, f"answered after {took:.1f} s: the deadline, not the reserve, made room"
        output = served.output()
        assert "Open files: at most 1,024, the hard limit" in output
        assert "closed the one that waited longest for its request" in output
    finally:
        for sock in slow:
            sock.close()
        served.process.terminate()
        served.process.wait(15)


def test_serve_raises_the_soft_limit_of_open_files_to_the_hard_one_and_says_so(tmp_path, database_url):
    served = serve(tmp_path, database_url=database_url, open_files=(1024, 4096))
    try:
        served.wait_ready()
        assert "Open files: raised the soft limit from 1,024 to the hard limit, 4,096." in served.output()
    finally:
        served.process.terminate()
        served.process.wait(15)
