"""The server killed (SIGKILL) under load and started again: what it acknowledged is there once, positions have no
gaps, and `quartermaster verify` finds the stored projections equal to the log folded again.

Writers send notes with ids they make themselves, as the API guide advises; a batch whose answer was lost in the crash
is sent again, with the same ids, to the restarted server. Bounded for a small machine: four writers for about two
seconds.
"""

from __future__ import annotations

import subprocess
import threading
import time
import uuid

import httpx
import pytest

from tests.faults.servers import QUARTERMASTER, serve

pytestmark = pytest.mark.slow

WRITERS = 4


def test_a_server_killed_under_load_loses_and_duplicates_nothing_it_acknowledged(tmp_path, database_url):
    env = {"QUARTERMASTER_RATE_LIMIT": "off"}
    first = serve(tmp_path, database_url=database_url, env=env)
    first.wait_ready()
    created = httpx.post(f"{first.url}/v1/campaigns", json={"name": "Kill", "game": "pacg-skull-and-shackles"}).json()
    headers = {"Authorization": f"Bearer {created['token']}"}
    acknowledged: list[str] = []
    unanswered: list[dict] = []
    stop = threading.Event()
    lock = threading.Lock()

    def write(url: str, batch: dict) -> bool:
        try:
            answer = httpx.post(f"{url}/v1/campaigns/{created['id']}/events", json=batch, headers=headers, timeout=10)
        except httpx.HTTPError:
            return False
        assert answer.status_code in (200, 201, 503), answer.text
        if answer.status_code == 503:
            return False
        with lock:
            acknowledged.append(batch["events"][0]["id"])
        return True

    def writer(number: int) -> None:
        sent = 0
        while not stop.is_set():
            batch = {
                "events": [
                    {"type": "note.added", "id": str(uuid.uuid4()), "data": {"text": f"Writer {number}, note {sent}."}}
                ]
            }
            sent += 1
            if not write(first.url, batch):
                with lock:
                    unanswered.append(batch)
                return  # the server is gone

    threads = [threading.Thread(target=writer, args=(n,)) for n in range(WRITERS)]
    for thread in threads:
        thread.start()
    time.sleep(2)
    first.kill()
    stop.set()
    for thread in threads:
        thread.join(30)
    assert len(acknowledged) > 20, "too little load to say anything"

    second = serve(tmp_path, database_url=database_url, env=env)
    second.wait_ready()
    for batch in unanswered:  # the same ids: recorded once whether or not the first server committed it
        assert write(second.url, batch)
    log = httpx.get(
        f"{second.url}/v1/campaigns/{created['id']}/events", params={"limit": 1000}, headers=headers
    ).json()["events"]
    second.kill()

    ids = [e["id"] for e in log]
    assert sorted(set(acknowledged)) == sorted(set(acknowledged) & set(ids))
    assert all(ids.count(i) == 1 for i in acknowledged), "an acknowledged event is in the log twice"
    assert [e["position"] for e in log] == list(range(1, len(log) + 1))
    verify = subprocess.run(
        [QUARTERMASTER, "verify", "--quiet", "--campaign", created["id"], "--database-url", database_url],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert verify.returncode == 0, verify.stdout + verify.stderr
    print(f"{len(acknowledged)} batches acknowledged, {len(unanswered)} unanswered at the kill and sent again")
