"""What PostgreSQL refuses is a 503 with Retry-After and a sentence, never a 500: a read-only database, a statement
stopped by its timeout, a campaign's write lock not had in time. And a moment without a time zone is refused the
same way on the one-event path and the batch path."""

from __future__ import annotations

import threading
import uuid

import psycopg
import pytest
from litestar.testing import TestClient

from quartermaster.service.app import create_app
from quartermaster.service.platform.settings import Settings
from quartermaster.service.store.appending import HOLD, write_lock
from tests.conftest import Api

NOTE = {"type": "note.added", "data": {"text": "The Wormwood lists to port."}}


def _app(url: str, **settings) -> TestClient:
    return TestClient(create_app(Settings(pool_min=1, pool_max=4, rate_limit="off", **settings), url))


def _is_503(answer, kind: str) -> str:
    assert answer.status_code == 503, answer.text
    assert answer.headers["content-type"].startswith("application/problem+json")
    assert int(answer.headers["retry-after"]) > 0
    assert answer.json()["type"].endswith(f"/{kind}"), answer.json()
    return answer.json()["detail"]


def test_a_read_only_database_answers_every_write_503_with_retry_after_and_reads_still_work(api, database_url):
    campaign = api.new_campaign()
    api.append(campaign, [NOTE])  # something to undo
    read_only = psycopg.conninfo.make_conninfo(database_url, options="-c default_transaction_read_only=on")
    with _app(read_only) as client:
        headers = campaign.headers
        one = client.post(f"/v1/campaigns/{campaign.id}/events", json={"events": [NOTE]}, headers=headers)
        batch = client.post(f"/v1/campaigns/{campaign.id}/events", json={"events": [NOTE, NOTE]}, headers=headers)
        created = client.post("/v1/campaigns", json={"name": "Never", "game": "pacg-skull-and-shackles"})
        undo = client.post(f"/v1/campaigns/{campaign.id}/undo", headers=headers)
        read = client.get(f"/v1/campaigns/{campaign.id}", headers=headers)

    for answer in (one, batch, created, undo):
        detail = _is_503(answer, "database-read-only")
        assert "read-only" in detail and "Nothing was written" in detail and "Try again" in detail
    assert read.status_code == 200


def _holding(database_url: str, campaign: str, seconds: float) -> tuple[threading.Thread, threading.Event]:
    held = threading.Event()

    def hold() -> None:
        with psycopg.connect(database_url) as conn, conn.transaction():
            conn.execute(HOLD, write_lock(uuid.UUID(campaign)))
            held.set()
            threading.Event().wait(seconds)

    thread = threading.Thread(target=hold)
    thread.start()
    assert held.wait(10)
    return thread, held


@pytest.fixture
def other_process(database_url):
    """A process that made nothing itself, so every append takes the locking path."""
    with _app(database_url, lock_timeout=0.2, statement_timeout=5) as client:
        yield client


def test_an_append_that_cannot_have_the_campaigns_lock_in_time_is_a_503_that_says_to_retry(
    api, other_process, database_url
):
    campaign = api.new_campaign()
    holder, _ = _holding(database_url, campaign.id, 1.5)
    try:
        answer = other_process.post(
            f"/v1/campaigns/{campaign.id}/events", json={"events": [NOTE]}, headers=campaign.headers
        )
    finally:
        holder.join()
    detail = _is_503(answer, "campaign-busy")
    assert "Nothing was written" in detail and "Try again" in detail
    again = other_process.post(f"/v1/campaigns/{campaign.id}/events", json={"events": [NOTE]}, headers=campaign.headers)
    assert again.status_code == 201, again.text


def test_a_statement_stopped_by_its_timeout_is_a_503_that_says_nothing_was_written(api, database_url):
    campaign = api.new_campaign()
    with _app(database_url, lock_timeout=10, statement_timeout=0.3) as client:
        holder, _ = _holding(database_url, campaign.id, 1.5)
        try:
            answer = client.post(
                f"/v1/campaigns/{campaign.id}/events", json={"events": [NOTE]}, headers=campaign.headers
            )
        finally:
            holder.join()
    detail = _is_503(answer, "database-timeout")
    assert "took too long" in detail and "Nothing was written" in detail
    assert [e["type"] for e in api.get(campaign, "/events").json()["events"]].count("note.added") == 0


@pytest.mark.parametrize("events", [1, 3], ids=["one event", "a batch"])
def test_an_occurred_at_without_a_time_zone_is_refused_alike_on_both_append_paths(api: Api, events: int):
    campaign = api.new_campaign()
    api.append(campaign, [NOTE])  # this process now knows the campaign's state: one event takes the one-statement path
    naive = {**NOTE, "occurred_at": "2026-12-01T20:15:00"}

    answer = api.append(campaign, [naive] * events)

    assert answer.status_code == 422, answer.text
    assert "occurred at" in answer.json()["detail"] and "time zone" in answer.json()["detail"]
    assert len(api.get(campaign, "/events").json()["events"]) == 3  # started, joined, the first note
    assert api.append(campaign, [{**NOTE, "occurred_at": "2026-12-01T20:15:00Z"}] * events).status_code == 201
