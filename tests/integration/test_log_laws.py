"""The laws of the log on real PostgreSQL, over random valid Skull & Shackles campaigns.

- the inline projection equals a rebuild from the log;
- the state at N equals the fold of the events that counted at N (undone ones left out);
- export then import gives the same state.
"""

from __future__ import annotations

import asyncio
import random
import uuid

from hypothesis import HealthCheck, given, settings, strategies as st
from psycopg_pool import AsyncConnectionPool

from quartermaster.events.campaign import CampaignStarted, MemberJoined
from quartermaster.projections.game import Meta, fold
from quartermaster.projections.pacg import GAME
from quartermaster.projections.timeline import UNDONE, Marker, undone_as_of
from quartermaster.service.application.refold import rebuild_campaign
from quartermaster.service.http.intake import prepared_event
from quartermaster.service.platform import tokens
from quartermaster.service.store import Store
from tests.unit.pacg.campaigns import campaign as random_campaign

LAWS = settings(
    max_examples=6, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow]
)


def batches_of(events: list, rng: random.Random) -> list[list]:
    out, i = [], 0
    while i < len(events):
        size = rng.choice([1, 1, 1, 2, 3, 8])
        out.append(events[i : i + size])
        i += size
    return out


async def played(store: Store, seed: int) -> tuple[uuid.UUID, str, list]:
    """A campaign recorded batch by batch through the store; answers its id, owner token and the events."""
    rng = random.Random(seed)
    events = list(random_campaign(seed, scenarios=1))
    campaign_id, owner = uuid.uuid4(), uuid.uuid4()
    token, token_hash = tokens.new_token(owner)
    await store.create_campaign(
        campaign_id=campaign_id,
        game=GAME,
        name="Law",
        options={},
        owner_id=owner,
        owner_name="Owner",
        token_hash=token_hash,
        start=[
            prepared_event(CampaignStarted(name="Law", game=GAME.id)),
            prepared_event(MemberJoined(member_id=str(owner), name="Owner", role="owner")),
        ],
    )
    for batch in batches_of(events, rng):
        await store.append(campaign_id, [prepared_event(e) for e in batch], actor=str(owner))
    return campaign_id, token, events


def with_store(database_url: str, scenario):
    async def main():
        async with AsyncConnectionPool(
            database_url, min_size=1, max_size=3, open=False, kwargs={"autocommit": True}
        ) as pool:
            return await scenario(Store(pool), pool)

    return asyncio.run(main())


@LAWS
@given(seed=st.integers(0, 10_000), data=st.data())
def test_state_at_any_position_equals_the_fold_of_what_counted_then(database_url, seed, data):
    async def scenario(store: Store, pool):
        campaign_id, _, events = await played(store, seed)
        last = (await store.campaign(campaign_id)).position
        # Undo a random batch (with whatever depended on it) so the law is tested across a marker.
        page = await store.history(campaign_id, after=2, limit=10_000)
        target = data.draw(st.sampled_from(sorted({e.batch for e in page}, key=str)))
        undone = await store.undo(campaign_id, batch=target, cascade=True, reason=None, actor="law", only_own=False)
        marker = Marker(undone.last_position, UNDONE, msgspec_targets(undone))
        log = [(CampaignStarted(name="Law", game=GAME.id), Meta(1)), (None, Meta(2))]
        log += [(e, Meta(3 + i, "x")) for i, e in enumerate(events)]
        for at in sorted(data.draw(st.lists(st.integers(1, last + 1), min_size=3, max_size=6))):
            skip = undone_as_of([marker], at)
            expected = fold(GAME, [(e, m) for e, m in log[:at] if e is not None and m.position not in skip])
            _, actual = await store.state_at(campaign_id, GAME, at)
            assert actual == expected, f"state at {at} differs"
        return campaign_id

    with_store(database_url, scenario)


def msgspec_targets(appended) -> list[int]:
    import msgspec

    return msgspec.json.decode(appended.events[0].data)["targets"]


@LAWS
@given(seed=st.integers(0, 10_000))
def test_the_inline_projection_equals_a_rebuild_from_the_log(database_url, seed):
    async def scenario(store: Store, pool):
        campaign_id, _, _ = await played(store, seed)
        await store.undo(campaign_id, batch=None, cascade=True, reason=None, actor="law", only_own=False)
        async with pool.connection() as conn:
            return await rebuild_campaign(store, conn, campaign_id, GAME, keep=False)

    assert with_store(database_url, scenario) == []


@LAWS
@given(seed=st.integers(0, 10_000))
def test_export_then_import_gives_the_same_state(api, database_url, seed):
    campaign_id, token, _ = with_store(database_url, lambda store, pool: played(store, seed))
    headers = {"Authorization": f"Bearer {token}"}
    exported = api.client.get(f"/v1/campaigns/{campaign_id}/export", headers=headers)
    assert exported.status_code == 200
    imported = api.client.post("/v1/campaigns/import", content=exported.content)
    assert imported.status_code == 201, imported.text
    copy = imported.json()
    original = api.client.get(f"/v1/campaigns/{campaign_id}/state", headers=headers).json()
    copied = api.client.get(
        f"/v1/campaigns/{copy['id']}/state", headers={"Authorization": f"Bearer {copy['token']}"}
    ).json()
    assert copied == original
