"""`quartermaster rebuild` does not hold a campaign's write lock while it folds the log: writers of the campaign go on,
and what they append meanwhile is folded in under the lock, briefly, at the end."""

from __future__ import annotations

import asyncio
import uuid

import psycopg
from psycopg_pool import AsyncConnectionPool

from quartermaster.projections.registry import game
from quartermaster.service.application.refold import rebuild_campaign
from quartermaster.service.store import Store
from quartermaster.service.store.appending import WRITES, write_lock
from quartermaster.service.store.snapshots import stored_projection

NOTE = {"type": "note.added", "data": {"text": "Another day at sea."}}


def _lock_free(database_url: str, campaign: uuid.UUID) -> bool:
    with psycopg.connect(database_url, autocommit=True) as conn:
        row = conn.execute("SELECT pg_try_advisory_lock(%s, %s)", (WRITES, write_lock(campaign)[1])).fetchone()
        if row[0]:
            conn.execute("SELECT pg_advisory_unlock(%s, %s)", (WRITES, write_lock(campaign)[1]))
        return bool(row[0])


def test_a_rebuild_folds_without_the_campaigns_lock_and_folds_what_was_appended_meanwhile_under_it(api, database_url):
    campaign = api.new_campaign()
    for _ in range(5):
        assert api.append(campaign, [NOTE] * 1000).status_code == 201
    campaign_id = uuid.UUID(campaign.id)
    seen: list[bool] = []

    def progress(_: int) -> None:
        # Called after each chunk of the log is folded: the lock is free, and a table appends meanwhile.
        if not seen:
            seen.append(_lock_free(database_url, campaign_id))
            assert api.append(campaign, [NOTE] * 150).status_code == 201  # crosses a checkpoint (every 100)

    async def rebuild() -> list:
        async with AsyncConnectionPool(
            database_url, min_size=1, max_size=1, open=False, kwargs={"autocommit": True}
        ) as pool:
            async with pool.connection() as conn:
                drift = await rebuild_campaign(
                    Store(pool), conn, campaign_id, game(campaign.game), keep=True, progress=progress
                )
                return [drift, await stored_projection(conn, campaign_id)]

    drift, stored = asyncio.run(rebuild())

    assert seen == [True]
    assert drift == []
    position = api.get(campaign, "").json()["position"]
    assert position == 2 + 5000 + 150
    # The projection is the latest checkpoint of the whole log: the end of the batch appended during the fold, which
    # crossed a multiple of 100.
    assert stored[0] == position
    assert len(api.get(campaign, "/events", after=position - 1).json()["events"]) == 1
