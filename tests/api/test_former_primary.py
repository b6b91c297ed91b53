"""A server the process knows to be a former primary is refused: requests are answered 503 with a sentence saying so,
and nothing is written there. (On real servers after a real promotion: tests/faults/test_standby.py.)

The process is told here that it has met a later timeline of the test server's cluster, as it would have after a
promotion of one of its standbys; every new connection then finds the server a timeline behind.
"""

from __future__ import annotations

import asyncio
import dataclasses

import psycopg
from litestar.testing import AsyncTestClient

from quartermaster.service.app import create_app


def test_every_write_meets_a_503_naming_the_former_primary_and_nothing_is_written(database_url, app_settings):
    settings = dataclasses.replace(app_settings, pool_timeout=0.5)

    async def scenario() -> None:
        app = create_app(settings, database_url)
        async with AsyncTestClient(app) as client:
            created = await client.post("/v1/campaigns", json={"name": "Split", "game": "pacg-skull-and-shackles"})
            campaign = created.json()
            headers = {"Authorization": f"Bearer {campaign['token']}"}
            # Given a process that has met a later timeline of this cluster than the server's own
            lineage = app.state.lineage
            lineage.known = dataclasses.replace(lineage.known, timeline=lineage.known.timeline + 1)
            await app.state.pool.drain()  # every connection made anew, as after a connection blip
            # When a table appends, and the page asks whether the server is ready
            note = {"events": [{"type": "note.added", "data": {"text": "To the wrong server."}}]}
            answer = await client.post(f"/v1/campaigns/{campaign['id']}/events", json=note, headers=headers)
            ready = await client.get("/readyz")
            # Then both are 503s saying why, and nothing was written
            assert answer.status_code == 503 and answer.json()["type"].endswith("former-primary")
            assert "is a former primary" in answer.json()["detail"]
            assert "nothing was written" in answer.json()["detail"]
            assert ready.status_code == 503 and "former primary" in ready.json()["detail"]
            with psycopg.connect(database_url) as conn:
                count = conn.execute("SELECT count(*) FROM events WHERE campaign_id = %s", (campaign["id"],))
                assert count.fetchone() == (2,)  # campaign.started and member.joined only

    asyncio.run(scenario())
