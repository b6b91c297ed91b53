"""One busy campaign never starves the others, and never makes the server look unready.

A transaction holds one campaign's write lock for 6 s (what a long rebuild or a slow transaction did) while clients
keep appending, to it and to other campaigns, through one real server process. Appends to the busy campaign wait
at most the lock timeout and answer 503 with Retry-After and a sentence; no more than its share of the pool ever
serves it (service/store/turns.py), so appends to every other campaign go on as before and /readyz stays 200.
"""

from __future__ import annotations

import asyncio
import threading
import time
import uuid

import httpx
import psycopg
import pytest

from quartermaster.service.store.appending import HOLD, write_lock
from tests.faults.servers import serve

pytestmark = pytest.mark.slow

HELD_SECONDS = 6.0


def _note(text: str) -> dict:
    return {"events": [{"type": "note.added", "id": str(uuid.uuid4()), "data": {"text": text}}]}


@pytest.fixture(scope="module")
def server(tmp_path_factory, database_url):
    served = serve(tmp_path_factory.mktemp("busy"), database_url=database_url, env={"QUARTERMASTER_RATE_LIMIT": "off"})
    served.wait_ready()
    yield served
    served.process.terminate()
    served.process.wait(15)


def _campaign(url: str) -> tuple[str, dict[str, str]]:
    created = httpx.post(f"{url}/v1/campaigns", json={"name": "Busy", "game": "pacg-skull-and-shackles"}).json()
    return created["id"], {"Authorization": f"Bearer {created['token']}"}


def _hold(database_url: str, campaign: str, held: threading.Event, released: list[float]) -> None:
    with psycopg.connect(database_url) as conn:
        with conn.transaction():
            conn.execute(HOLD, write_lock(uuid.UUID(campaign)))
            held.set()
            time.sleep(HELD_SECONDS)
        released.append(time.monotonic())


def test_while_one_campaigns_lock_is_held_six_seconds_the_others_append_without_waiting_and_the_server_is_ready(
    server, database_url
):
    busy, busy_headers = _campaign(server.url)
    others = [_campaign(server.url) for _ in range(4)]
    held = threading.Event()
    released: list[float] = []
    holder = threading.Thread(target=_hold, args=(database_url, busy, held, released))
    holder.start()
    assert held.wait(10)
    started = time.monotonic()

    async def load() -> tuple[list[tuple[float, httpx.Response]], list[tuple[float, int]], list[int]]:
        limits = httpx.Limits(max_connections=64)
        async with httpx.AsyncClient(base_url=server.url, timeout=30, limits=limits) as client:
            busy_answers: list[tuple[float, httpx.Response]] = []
            timings: list[tuple[float, int]] = []
            ready: list[int] = []

            async def on_busy() -> None:
                while time.monotonic() - started < HELD_SECONDS - 1:
                    answer = await client.post(f"/v1/campaigns/{busy}/events", json=_note("held"), headers=busy_headers)
                    busy_answers.append((time.monotonic(), answer))

            async def on_other(campaign: str, headers: dict[str, str]) -> None:
                while time.monotonic() - started < HELD_SECONDS - 0.5:
                    at = time.perf_counter()
                    answer = await client.post(f"/v1/campaigns/{campaign}/events", json=_note("free"), headers=headers)
                    timings.append((time.perf_counter() - at, answer.status_code))

            async def readiness() -> None:
                while time.monotonic() - started < HELD_SECONDS - 0.5:
                    ready.append((await client.get("/readyz")).status_code)
                    await asyncio.sleep(0.2)

            await asyncio.gather(*(on_busy() for _ in range(24)), *(on_other(c, h) for c, h in others), readiness())
            return busy_answers, timings, ready

    busy_answers, timings, ready = asyncio.run(load())
    holder.join()

    # Every append to the held campaign answered while it was held was refused for now; the ones that waited past its
    # release were recorded. None waited more than its turn and the lock timeout (2 s each).
    while_held = [a for at, a in busy_answers if at < released[0]]
    assert while_held and {a.status_code for a in while_held} == {503}
    assert {a.status_code for _, a in busy_answers} <= {201, 503}
    assert max(a.elapsed.total_seconds() for _, a in busy_answers) < 2 + 2 + 3  # a turn, the lock, a busy host
    refusal = while_held[0]
    assert int(refusal.headers["retry-after"]) > 0 and refusal.json()["type"].endswith("/campaign-busy")
    assert "Nothing was written" in refusal.json()["detail"] and "Try again" in refusal.json()["detail"]
    statuses = {status for _, status in timings}
    assert statuses == {201}, statuses
    assert ready and set(ready) == {200}
    seconds = sorted(t for t, _ in timings)
    p99 = seconds[min(len(seconds) - 1, int(len(seconds) * 0.99))]
    print(
        f"\nother campaigns while one is held {HELD_SECONDS} s: {len(seconds)} appends, "
        f"p50 {seconds[len(seconds) // 2] * 1000:.1f} ms, p99 {p99 * 1000:.1f} ms, max {seconds[-1] * 1000:.1f} ms; "
        f"{len(busy_answers)} appends to the held campaign, all 503"
    )
    # The figure is printed, not asserted: latency is the benchmark's to judge, and on a shared host it measures the
    # host. What this test holds is that none of these waited for the pool until its timeout and answered 503, as
    # every one did before a campaign had a share of the pool.
    # Once the lock is free, the campaign takes appends again.
    again = httpx.post(f"{server.url}/v1/campaigns/{busy}/events", json=_note("free again"), headers=busy_headers)
    assert again.status_code == 201, again.text
