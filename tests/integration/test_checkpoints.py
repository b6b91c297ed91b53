"""The state lives in the process and at checkpoints: whatever process reads, it answers the fold of the log.

An append writes events only; the state is written at checkpoints (the first batch, every SNAPSHOT_EVERY positions,
every undo or redo marker). A process that did not write the latest events (another server, a restart) folds the
events after the latest usable snapshot.
"""

from __future__ import annotations

import asyncio
import uuid

from hypothesis import HealthCheck, given, settings, strategies as st
from psycopg_pool import AsyncConnectionPool

from quartermaster.events.campaign import CampaignStarted, MemberJoined, NoteAdded
from quartermaster.projections.game import Meta, fold
from quartermaster.projections.pacg import GAME
from quartermaster.projections.registry import decode_event
from quartermaster.projections.timeline import MARKER_TYPES, undone_as_of
from quartermaster.service.application.refold import rebuild_campaign
from quartermaster.service.http.intake import prepare, prepared_event
from quartermaster.service.http.requests import NewEvent
from quartermaster.service.platform import tokens
from quartermaster.service.store import SNAPSHOT_EVERY, PreparedEvent, Store
from quartermaster.service.store.cache import IN_MEMORY_PER_JSON_BYTE, StateCache
from quartermaster.service.store.writing import checkpoints


def notes(count: int, label: str) -> list[PreparedEvent]:
    return [prepared_event(NoteAdded(text=f"{label} {i}")) for i in range(count)]


def joins(character: str) -> list[PreparedEvent]:
    return prepare(GAME.id, [NewEvent(type="character.joined", data={"character_id": character, "player": "P"})])


async def new_campaign(store: Store) -> uuid.UUID:
    campaign_id, owner = uuid.uuid4(), uuid.uuid4()
    _, token_hash = tokens.new_token(owner)
    await store.create_campaign(
        campaign_id=campaign_id,
        game=GAME,
        name="Checkpoints",
        options={},
        owner_id=owner,
        owner_name="Owner",
        token_hash=token_hash,
        start=[
            prepared_event(CampaignStarted(name="Checkpoints", game=GAME.id)),
            prepared_event(MemberJoined(member_id=str(owner), name="Owner", role="owner")),
        ],
    )
    return campaign_id


def run(database_url: str, scenario):
    async def main():
        async with AsyncConnectionPool(
            database_url, min_size=1, max_size=4, open=False, kwargs={"autocommit": True}
        ) as pool:
            return await scenario(pool)

    return asyncio.run(main())


async def fold_of_the_log(pool, campaign_id: uuid.UUID):
    """The fold of the effective log, from the rows alone: no store, no snapshot, no cache."""
    async with pool.connection() as conn:
        rows = await (
            await conn.execute(
                "SELECT position, type, data::text, actor, occurred_at, (data->'targets')::text FROM events"
                " WHERE campaign_id = %s ORDER BY position",
                (campaign_id,),
            )
        ).fetchall()
    import msgspec

    from quartermaster.projections.timeline import Marker

    markers = [Marker(p, t, msgspec.json.decode(targets)) for p, t, _, _, _, targets in rows if t in MARKER_TYPES]
    last = rows[-1][0]
    skip = undone_as_of(markers, last)
    return last, fold(
        GAME,
        [
            (decode_event(GAME.id, t, d), Meta(p, a, o))
            for p, t, d, a, o, _ in rows
            if t not in MARKER_TYPES and p not in skip
        ],
    )


async def checkpoints_of(pool, campaign_id: uuid.UUID) -> tuple[list[int], int]:
    async with pool.connection() as conn:
        snapshots = [
            r[0]
            for r in await (
                await conn.execute(
                    "SELECT position FROM snapshots WHERE campaign_id = %s ORDER BY position", (campaign_id,)
                )
            ).fetchall()
        ]
        projection = (
            await (
                await conn.execute("SELECT position FROM projections WHERE campaign_id = %s", (campaign_id,))
            ).fetchone()
        )[0]
    return snapshots, projection


def test_appends_write_the_state_only_at_checkpoints_and_the_projection_row_is_the_latest(database_url):
    async def scenario(pool):
        store = Store(pool)
        campaign_id = await new_campaign(store)
        after_start = await checkpoints_of(pool, campaign_id)
        for _ in range(3):
            await store.append(campaign_id, notes(1, "one by one"), actor="t")
        between = await checkpoints_of(pool, campaign_id)
        crossing = await store.append(campaign_id, notes(SNAPSHOT_EVERY, "a long scene"), actor="t")
        return after_start, between, crossing.last_position, await checkpoints_of(pool, campaign_id)

    after_start, between, crossed_at, after = run(database_url, scenario)
    assert after_start == ([2], 2)
    assert between == ([2], 2)  # three appends wrote no state
    assert after == ([2, crossed_at], crossed_at)


def test_a_process_that_did_not_write_reads_the_fold_of_the_log_across_a_snapshot_and_an_undo(database_url):
    async def scenario(pool):
        writer = Store(pool)
        campaign_id = await new_campaign(writer)
        joined = await writer.append(campaign_id, joins("merisiel"), actor="t")
        await writer.append(campaign_id, joins("valeros"), actor="t")
        await writer.append(campaign_id, notes(SNAPSHOT_EVERY, "past a snapshot"), actor="t")
        # Undo a batch behind the latest snapshot: that snapshot can no longer start a fold past the marker.
        await writer.undo(campaign_id, batch=joined.batch, cascade=False, reason=None, actor="t", only_own=False)
        await writer.append(campaign_id, notes(3, "after the undo"), actor="t")
        cold = await Store(pool).projection(campaign_id, GAME)  # a restarted server, or another one
        warm = await writer.projection(campaign_id, GAME)
        return cold, warm, await fold_of_the_log(pool, campaign_id)

    cold, warm, (last, folded) = run(database_url, scenario)
    assert cold == warm == (last, folded)
    assert sorted(folded.characters) == ["valeros"]


def test_a_server_appending_after_another_folds_from_the_log_not_from_its_stale_memory(database_url):
    async def scenario(pool):
        first, second = Store(pool), Store(pool)
        campaign_id = await new_campaign(first)
        await first.append(campaign_id, notes(2, "first"), actor="t")
        await second.append(campaign_id, joins("lem"), actor="t")  # first's memory is now behind
        await first.append(campaign_id, joins("jirelle"), actor="t")
        return await first.projection(campaign_id, GAME), await fold_of_the_log(pool, campaign_id)

    (position, state), (last, folded) = run(database_url, scenario)
    assert (position, state) == (last, folded)
    assert sorted(state.characters) == ["jirelle", "lem"]


@settings(
    max_examples=5, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow]
)
@given(
    steps=st.lists(
        st.tuples(st.integers(0, 2), st.sampled_from(["note", "join", "undo", "read"]), st.integers(1, 40)),
        min_size=3,
        max_size=12,
    )
)
def test_every_read_from_any_process_equals_the_fold_of_the_effective_log(database_url, steps):
    async def scenario(pool):
        servers = [Store(pool), Store(pool), Store(pool)]
        campaign_id = await new_campaign(servers[0])
        joined = 0
        for server, what, size in steps:
            store = servers[server]
            if what == "note" or (what == "join" and joined == 4):
                await store.append(campaign_id, notes(size * 7, "scene"), actor="t")
            elif what == "join":
                await store.append(campaign_id, joins(["merisiel", "valeros", "jirelle", "lem"][joined]), actor="t")
                joined += 1
            elif what == "undo":
                try:
                    await store.undo(campaign_id, batch=None, cascade=True, reason=None, actor="t", only_own=False)
                except Exception as refused:  # nothing left to undo: the start cannot be undone
                    assert "cannot be undone" in str(refused) or "nothing to undo" in str(refused)
            else:
                expected = await fold_of_the_log(pool, campaign_id)
                assert await store.projection(campaign_id, GAME) == expected
        expected = await fold_of_the_log(pool, campaign_id)
        for store in [*servers, Store(pool)]:
            assert await store.projection(campaign_id, GAME) == expected

    run(database_url, scenario)


def test_the_state_cache_is_bounded_by_bytes_and_forgets_the_least_recently_used_first():
    a, b, c = uuid.uuid4(), uuid.uuid4(), uuid.uuid4()
    cache = StateCache(max_bytes=250 * IN_MEMORY_PER_JSON_BYTE)
    cache.put(a, 5, "state of a", json_bytes=100)
    cache.put(b, 7, "state of b", json_bytes=100)
    assert cache.get(a, 5) == "state of a"  # a is now the most recently used
    cache.put(c, 9, "state of c", json_bytes=100)
    assert len(cache) == 2 and cache.bytes == 200 * IN_MEMORY_PER_JSON_BYTE
    assert cache.latest(b) is None and cache.get(a, 5) == "state of a" and cache.get(c, 9) == "state of c"


def test_the_state_cache_answers_only_at_its_own_position_and_never_goes_back():
    campaign = uuid.uuid4()
    cache = StateCache()
    cache.put(campaign, 10, "at 10", json_bytes=10)
    cache.put(campaign, 8, "at 8, read by a slower request", json_bytes=10)
    assert cache.get(campaign, 10) == "at 10" and cache.get(campaign, 8) is None and cache.get(campaign, 11) is None
    cache.put(campaign, 12, "at 12")  # no new measure: the last one stands
    assert cache.latest(campaign) == (12, "at 12") and cache.bytes == 10 * IN_MEMORY_PER_JSON_BYTE


def test_redoing_ones_own_batch_leaves_another_players_undone_batch_undone_in_the_state(database_url):
    async def scenario(pool):
        store = Store(pool)
        campaign_id = await new_campaign(store)
        mine = await store.append(campaign_id, joins("valeros"), actor="amber")
        theirs = await store.append(campaign_id, joins("merisiel"), actor="lily")
        await store.undo(campaign_id, batch=theirs.batch, cascade=False, reason=None, actor="owner", only_own=False)
        await store.undo(campaign_id, batch=mine.batch, cascade=False, reason=None, actor="owner", only_own=False)
        redone = await store.redo(campaign_id, batch=None, reason=None, actor="amber", only_own=True, mine=True)
        return redone.state, await Store(pool).projection(campaign_id, GAME), await fold_of_the_log(pool, campaign_id)

    kept, read_elsewhere, (last, folded) = run(database_url, scenario)
    assert kept == folded and read_elsewhere == (last, folded)
    assert sorted(folded.characters) == ["valeros"]


def test_a_batch_leaves_the_state_at_its_end_and_at_every_multiple_it_crosses_well_before_its_end():
    every = SNAPSHOT_EVERY
    assert checkpoints(0, 2) == [2]  # the campaign's first batch
    assert checkpoints(2, 5) == []
    assert checkpoints(5, every + 5) == [every + 5]  # the end stands for the one multiple it crossed
    assert checkpoints(every - 1, every) == [every]
    assert checkpoints(2, 10 * every + 2) == [*range(every, 10 * every, every), 10 * every + 2]
    assert checkpoints(0, 10 * every) == [*range(every, 10 * every, every), 10 * every]


def test_a_long_batch_leaves_snapshots_inside_it_that_reads_and_a_rebuild_agree_with(database_url):
    async def scenario(pool):
        store = Store(pool)
        campaign_id = await new_campaign(store)
        await store.append(campaign_id, joins("valeros") + notes(10 * SNAPSHOT_EVERY - 1, "a long import"), actor="t")
        await store.append(campaign_id, joins("merisiel") + notes(3 * SNAPSHOT_EVERY, "another"), actor="t")
        snapshots, projection = await checkpoints_of(pool, campaign_id)
        cold = Store(pool)  # folds from the snapshots, never from this process's memory
        reads = {at: (await cold.state_at(campaign_id, GAME, at))[1] for at in (150, 901, 1001, 1250)}
        async with pool.connection() as conn:
            drift = await rebuild_campaign(Store(pool), conn, campaign_id, GAME, keep=False)
        return snapshots, projection, reads, drift, await fold_of_the_log(pool, campaign_id)

    snapshots, projection, reads, drift, (last, _) = run(database_url, scenario)
    every = SNAPSHOT_EVERY
    assert snapshots == [2, *range(every, 10 * every, every), 10 * every + 2, 11 * every, 12 * every, last]
    assert projection == last and drift == []
    assert sorted(reads[150].characters) == sorted(reads[901].characters) == ["valeros"]
    assert sorted(reads[1250].characters) == ["merisiel", "valeros"]
