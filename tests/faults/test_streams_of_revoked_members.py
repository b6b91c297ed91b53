"""A member revoked, or given a new token, through one server process has their open live streams on every other
process ended at once, with a last message saying why (service/application/live_access.py).

Two real `quartermaster serve` processes on one database, and one process with two workers: the stream is opened on
one, the change made through the other.
"""

from __future__ import annotations

import json
import time
from collections.abc import Iterator

import httpx
import pytest

from tests.faults.servers import campaign_with_a_player, serve

pytestmark = pytest.mark.slow

# How soon after the owner's answer the stream must have ended: the change is heard over LISTEN/NOTIFY, then one
# read of the member's row.
BOUND = 3.0


def _messages(lines: Iterator[str]) -> Iterator[tuple[str, str]]:
    """(event, data) of each message of a server-sent event stream, comments and ids left out."""
    event, data = "", ""
    for line in lines:
        if not line:
            if event or data:
                yield event, data
            event, data = "", ""
        elif line.startswith("event: "):
            event = line[len("event: ") :]
        elif line.startswith("data: "):
            data = line[len("data: ") :]


def _ends_when_changed(stream_url: str, change_url: str, change: str) -> tuple[dict[str, str], float, list[str]]:
    """Open the player's stream on one process, make the change through another; the last message, how long after
    the change's answer it came, and every message kind the stream sent."""
    campaign, owner, player, token = campaign_with_a_player(change_url)
    timeout = httpx.Timeout(10, read=BOUND + 10)
    with (
        httpx.Client(base_url=stream_url, timeout=timeout) as watching,
        watching.stream(
            "GET", f"/v1/campaigns/{campaign}/stream", headers={"Authorization": f"Bearer {token}"}
        ) as answer,
    ):
        assert answer.status_code == 200
        lines = answer.iter_lines()
        assert next(lines) == "retry: 2000" and next(lines) == ": following"
        messages = _messages(lines)
        # The campaign's first events reach the stream: it is open and followed.
        assert next(messages)[0] == "event"
        with httpx.Client(base_url=change_url, timeout=10) as client:
            if change == "revoke":
                done = client.delete(f"/v1/campaigns/{campaign}/members/{player}", headers=owner)
            else:
                done = client.post(f"/v1/campaigns/{campaign}/members/{player}/token", headers=owner)
        assert done.status_code == 200, done.text
        changed = time.monotonic()
        kinds = []
        for event, data in messages:
            kinds.append(event)
            if event == "ended":
                last, took = json.loads(data), time.monotonic() - changed
                break
        else:
            raise AssertionError(f"the stream ended without its last message: {kinds}")
        # Nothing after it: the server closed the stream.
        assert list(messages) == []
    return last, took, kinds


@pytest.mark.parametrize(
    ("change", "kind", "words"),
    [("revoke", "revoked", "revoked by its owner"), ("replace", "token-replaced", "new join link")],
)
def test_a_stream_open_on_one_process_ends_with_why_when_its_member_changes_through_the_other(
    two_servers, change, kind, words
):
    first, second = two_servers
    last, took, _ = _ends_when_changed(first.url, second.url, change)
    assert last["kind"] == kind and words in last["detail"], last
    assert took < BOUND, f"the stream ended {took:.2f} s after the change"


def test_with_two_workers_every_worker_ends_the_revoked_members_streams(tmp_path, database_url):
    served = serve(
        tmp_path, database_url=database_url, env={"QUARTERMASTER_RATE_LIMIT": "off"}, args=("--workers", "2")
    )
    try:
        served.wait_ready()
        # Fresh connections, each to whichever worker accepts it: over several, both workers hold a stream.
        for _ in range(4):
            last, took, _ = _ends_when_changed(served.url, served.url, "revoke")
            assert last["kind"] == "revoked" and took < BOUND, (last, took)
    finally:
        served.process.terminate()
        served.process.wait(15)
