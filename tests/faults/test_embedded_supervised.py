"""The embedded PostgreSQL is the service's own: killed with SIGKILL under load, `serve` starts it again by itself
(logged, with a bounded backoff), answers again without being restarted, and loses nothing it acknowledged; and a
normal stop of the service still stops it for good.

Writers send notes with ids they make themselves and send a batch again, with the same ids, until it is answered,
as the API guide advises a client to. Bounded for a small machine: two writers for a few seconds."""

from __future__ import annotations

import os
import signal
import threading
import time
import uuid

import httpx
import pytest

from tests.faults.servers import postmaster_pid, running, serve, wait_gone

pytestmark = pytest.mark.slow

WRITERS = 2


def test_the_embedded_postgresql_killed_under_load_is_started_again_and_nothing_acknowledged_is_lost(tmp_path):
    served = serve(tmp_path, env={"QUARTERMASTER_RATE_LIMIT": "off"})
    served.wait_ready(timeout=120)
    created = httpx.post(f"{served.url}/v1/campaigns", json={"name": "Kill", "game": "pacg-skull-and-shackles"}).json()
    headers = {"Authorization": f"Bearer {created['token']}"}
    acknowledged: list[str] = []
    refused: list[int] = []
    stop = threading.Event()
    lock = threading.Lock()

    def writer(number: int) -> None:
        sent = 0
        deadline = time.monotonic() + 120
        while not stop.is_set() and time.monotonic() < deadline:
            note = {"type": "note.added", "id": str(uuid.uuid4()), "data": {"text": f"Writer {number}, note {sent}."}}
            sent += 1
            while time.monotonic() < deadline:  # the same batch until it is answered
                try:
                    answer = httpx.post(
                        f"{served.url}/v1/campaigns/{created['id']}/events",
                        json={"events": [note]},
                        headers=headers,
                        timeout=10,
                    )
                except httpx.HTTPError:
                    time.sleep(0.1)
                    continue
                if answer.status_code in (200, 201):
                    with lock:
                        acknowledged.append(note["id"])
                    break
                # While the database is down, the truth: 503 with Retry-After, never a 500
                assert answer.status_code == 503, answer.text
                with lock:
                    refused.append(answer.status_code)
                time.sleep(0.1)

    threads = [threading.Thread(target=writer, args=(n,)) for n in range(WRITERS)]
    for thread in threads:
        thread.start()
    time.sleep(1.5)
    killed = postmaster_pid(tmp_path)
    before = len(acknowledged)
    # When the embedded PostgreSQL is killed under load
    os.kill(killed, signal.SIGKILL)
    killed_at = time.monotonic()
    assert wait_gone(killed, 30)
    # Then the service starts it again by itself, and answers again, without being restarted
    deadline = time.monotonic() + 90
    while time.monotonic() < deadline:
        assert served.process.poll() is None, served.output()
        try:
            if httpx.get(f"{served.url}/readyz", timeout=2).status_code == 200 and len(acknowledged) > before + 5:
                break
        except httpx.HTTPError:
            pass
        time.sleep(0.2)
    else:
        raise AssertionError(f"not answering again within 90 s:\n{served.output()}")
    back_after = time.monotonic() - killed_at
    again = postmaster_pid(tmp_path)
    assert again != killed and running(again)
    stop.set()
    for thread in threads:
        thread.join(60)
    log = httpx.get(
        f"{served.url}/v1/campaigns/{created['id']}/events", params={"limit": 1000}, headers=headers
    ).json()["events"]
    ids = [e["id"] for e in log]
    assert set(acknowledged) <= set(ids), "an acknowledged event was lost"
    assert all(ids.count(i) == 1 for i in acknowledged), "an acknowledged event is in the log twice"
    assert [e["position"] for e in log] == list(range(1, len(log) + 1))
    output = served.output()
    assert f"The embedded PostgreSQL (process {killed}) stopped by itself; starting it again." in output
    assert f"The embedded PostgreSQL is running again (process {again})" in output
    # A normal stop of the service stops its PostgreSQL for good: the supervisor does not start it again
    assert served.signal(signal.SIGTERM) == 0
    assert wait_gone(again, 30)
    time.sleep(1.5)
    assert not (tmp_path / "data" / "pgdata" / "postmaster.pid").exists()
    print(
        f"{len(acknowledged)} batches acknowledged, {len(refused)} answers 503 while PostgreSQL was down, ready and "
        f"appending again {back_after:.1f} s after the kill"
    )
