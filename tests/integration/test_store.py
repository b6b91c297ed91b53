"""The event store against real PostgreSQL: positions, concurrency, idempotency, immutability."""

from __future__ import annotations

import asyncio
import uuid

import msgspec
import psycopg
import pytest
from psycopg_pool import AsyncConnectionPool

from quartermaster.events.campaign import CampaignStarted, MemberJoined, NoteAdded
from quartermaster.projections.game import BatchRejected
from quartermaster.projections.registry import game
from quartermaster.service.http.intake import prepared_event
from quartermaster.service.platform import tokens
from quartermaster.service.store import IdReused, PreparedEvent, StalePosition, Store

GAME = "pacg-skull-and-shackles"


def note(text: str, event_id: uuid.UUID | None = None) -> PreparedEvent:
    return prepared_event(NoteAdded(text=text), id=event_id)


async def _new_campaign(store: Store, campaign_id: uuid.UUID | None = None) -> uuid.UUID:
    campaign_id, owner = campaign_id or uuid.uuid4(), uuid.uuid4()
    _, token_hash = tokens.new_token(owner)
    await store.create_campaign(
        campaign_id=campaign_id,
        game=game(GAME),
        name="Store test",
        options={},
        owner_id=owner,
        owner_name="Owner",
        token_hash=token_hash,
        start=[
            prepared_event(CampaignStarted(name="Store test", game=GAME)),
            prepared_event(MemberJoined(member_id=str(owner), name="Owner", role="owner")),
        ],
    )
    return campaign_id


def run(database_url: str, scenario, pool_size: int = 4):
    async def main():
        async with AsyncConnectionPool(
            database_url, min_size=1, max_size=pool_size, open=False, kwargs={"autocommit": True}
        ) as pool:
            return await scenario(Store(pool), pool)

    return asyncio.run(main())


async def _positions(pool, campaign_id) -> list[int]:
    async with pool.connection() as conn:
        cur = await conn.execute("SELECT position FROM events WHERE campaign_id = %s ORDER BY position", (campaign_id,))
        return [row[0] for row in await cur.fetchall()]


def test_twenty_concurrent_writers_leave_no_gap_no_duplicate_and_every_loser_is_told_the_position(database_url):
    writers = 20

    async def scenario(store: Store, pool):
        campaign_id = await _new_campaign(store)
        refused = 0

        async def writer(n: int) -> int:
            nonlocal refused
            while True:
                current = (await store.campaign(campaign_id)).position
                try:
                    appended = await store.append(
                        campaign_id, [note(f"writer {n}")], actor="t", expected_position=current
                    )
                    return appended.first_position
                except StalePosition as stale:
                    assert stale.current > current  # the loser learns where the log really is
                    refused += 1

        won = await asyncio.gather(*(writer(n) for n in range(writers)))
        return campaign_id, won, refused, await _positions(pool, campaign_id)

    campaign_id, won, refused, positions = run(database_url, scenario, pool_size=writers + 2)
    assert positions == list(range(1, writers + 3))  # two start events, then one per writer
    assert sorted(won) == list(range(3, writers + 3))
    assert refused > 0  # they really raced


def test_appends_without_expected_position_all_land_gapless(database_url):
    async def scenario(store: Store, pool):
        campaign_id = await _new_campaign(store)
        await asyncio.gather(*(store.append(campaign_id, [note(f"{n}a"), note(f"{n}b")], actor="t") for n in range(20)))
        return await _positions(pool, campaign_id)

    assert run(database_url, scenario, pool_size=22) == list(range(1, 43))


def test_a_reader_following_positions_never_skips_an_event_behind_a_slow_committer(database_url):
    async def scenario(store: Store, pool):
        campaign_id = await _new_campaign(store)
        slow_holds_lock = asyncio.Event()
        release = asyncio.Event()

        async def slow_writer():
            async with pool.connection() as conn, conn.transaction():
                await store.append(campaign_id, [note("slow")], actor="t", conn=conn)
                slow_holds_lock.set()
                await release.wait()  # commit only when the test says so

        async def fast_writer():
            await slow_holds_lock.wait()
            return await store.append(campaign_id, [note("fast")], actor="t")

        slow = asyncio.create_task(slow_writer())
        fast = asyncio.create_task(fast_writer())
        await slow_holds_lock.wait()
        # While the slow transaction is open, a reader past position 2 sees nothing, not a later event.
        seen_while_slow = [e.position for e in await store.history(campaign_id, after=2)]
        release.set()
        await slow
        fast_result = await fast
        seen_after = [e.position for e in await store.history(campaign_id, after=2)]
        return seen_while_slow, fast_result.first_position, seen_after

    seen_while_slow, fast_position, seen_after = run(database_url, scenario)
    assert seen_while_slow == []
    assert fast_position == 4
    assert seen_after == [3, 4]


def test_retrying_a_batch_with_the_same_ids_answers_what_was_recorded_and_writes_nothing(database_url):
    ids = [uuid.uuid4(), uuid.uuid4()]

    async def scenario(store: Store, pool):
        campaign_id = await _new_campaign(store)
        first = await store.append(campaign_id, [note("one", ids[0]), note("two", ids[1])], actor="t")
        again = await store.append(campaign_id, [note("one", ids[0]), note("two", ids[1])], actor="t")
        return first, again, await _positions(pool, campaign_id)

    first, again, positions = run(database_url, scenario)
    assert again.replayed and not first.replayed
    assert [e.id for e in again.events] == ids
    assert (again.first_position, again.last_position, again.batch) == (3, 4, first.batch)
    assert positions == [1, 2, 3, 4]


def test_reusing_an_event_id_with_different_content_is_refused_with_the_reason(database_url):
    event_id = uuid.uuid4()

    async def scenario(store: Store, pool):
        campaign_id = await _new_campaign(store)
        await store.append(campaign_id, [note("the real note", event_id)], actor="t")
        with pytest.raises(IdReused) as refused:
            await store.append(campaign_id, [note("something else", event_id)], actor="t")
        return refused.value, await _positions(pool, campaign_id)

    refused, positions = run(database_url, scenario)
    assert f"Event id {event_id} is already recorded at position 3 with different content" in str(refused)
    assert positions == [1, 2, 3]


def test_a_batch_with_one_refused_event_writes_none_of_it(database_url):
    async def scenario(store: Store, pool):
        campaign_id = await _new_campaign(store)
        started_again = prepared_event(CampaignStarted(name="again", game=GAME))
        with pytest.raises(BatchRejected) as refused:
            await store.append(campaign_id, [note("fine"), started_again], actor="t")
        return refused.value, await _positions(pool, campaign_id), (await store.campaign(campaign_id)).position

    refused, positions, position = run(database_url, scenario)
    assert refused.errors == [(1, "This campaign has already started; it cannot start twice.")]
    assert positions == [1, 2] and position == 2


def test_a_stale_expected_position_is_refused_with_the_current_one(database_url):
    async def scenario(store: Store, pool):
        campaign_id = await _new_campaign(store)
        with pytest.raises(StalePosition) as stale:
            await store.append(campaign_id, [note("late")], actor="t", expected_position=1)
        return stale.value

    stale = run(database_url, scenario)
    assert (stale.expected, stale.current) == (1, 2)


@pytest.mark.parametrize(
    "statement",
    ["UPDATE events SET type = 'note.added' WHERE campaign_id = %s", "DELETE FROM events WHERE campaign_id = %s"],
)
def test_recorded_events_cannot_be_updated_or_deleted(database_url, statement):
    campaign_id = run(database_url, lambda store, pool: _new_campaign(store))
    with psycopg.connect(database_url) as conn:
        with pytest.raises(psycopg.errors.RestrictViolation, match="recorded events cannot be changed or deleted"):
            conn.execute(statement, (campaign_id,))


def test_recorded_events_cannot_be_truncated(database_url):
    with psycopg.connect(database_url) as conn:
        with pytest.raises(psycopg.errors.RestrictViolation, match="recorded events cannot be changed or deleted"):
            conn.execute("TRUNCATE events CASCADE")


def test_each_event_carries_its_envelope(database_url):
    async def scenario(store: Store, pool):
        campaign_id = await _new_campaign(store)
        appended = await store.append(campaign_id, [note("hello")], actor="member-7")
        return appended, (await store.history(campaign_id, after=2))[0]

    appended, read = run(database_url, scenario)
    assert read.position == 3 and read.type == "note.added" and read.schema_version == 1
    assert read.actor == "member-7" and read.batch == appended.batch and read.id == appended.events[0].id
    assert msgspec.json.decode(read.data) == {"text": "hello"}
    assert read.recorded_at is not None and read.occurred_at is None


def test_a_rolled_back_append_never_leaves_its_state_behind_for_the_next_writer(database_url):
    from quartermaster.projections.registry import game as game_by_id
    from quartermaster.service.http.intake import prepare
    from quartermaster.service.http.requests import NewEvent

    def joins(character: str) -> list[PreparedEvent]:
        return prepare(GAME, [NewEvent(type="character.joined", data={"character_id": character, "player": "P"})])

    class RolledBack(Exception):
        pass

    async def scenario(store: Store, pool):
        campaign_id = await _new_campaign(store)
        # Merisiel joins at position 3 in a transaction that is then rolled back...
        with pytest.raises(RolledBack):
            async with pool.connection() as conn, conn.transaction():
                await store.append(campaign_id, joins("merisiel"), actor="t", conn=conn)
                raise RolledBack
        # ...and another server records Valeros at position 3 instead.
        other_server = Store(pool)
        await other_server.append(campaign_id, joins("valeros"), actor="t")
        # This server's next append must fold onto Valeros, not the Merisiel that never happened.
        await store.append(campaign_id, [note("after")], actor="t")
        return await Store(pool).projection(campaign_id, game_by_id(GAME))

    position, state = run(database_url, scenario)
    assert position == 4
    assert sorted(state.characters) == ["valeros"]


def test_two_servers_appending_in_turn_keep_the_projection_equal_to_the_log(database_url):
    from quartermaster.projections.registry import game as game_by_id
    from quartermaster.service.application.refold import rebuild_campaign
    from quartermaster.service.http.intake import prepare
    from quartermaster.service.http.requests import NewEvent

    def joins(character: str) -> list[PreparedEvent]:
        return prepare(GAME, [NewEvent(type="character.joined", data={"character_id": character, "player": "P"})])

    async def scenario(store: Store, pool):
        campaign_id = await _new_campaign(store)
        other = Store(pool)
        # Each server's cached state is overtaken by the other's append every time: the fast path must notice.
        for n, character in enumerate(["merisiel", "valeros", "jirelle", "lem"]):
            await (store if n % 2 else other).append(campaign_id, joins(character), actor="t")
            await (other if n % 2 else store).append(campaign_id, [note(f"after {character}")], actor="t")
        async with pool.connection() as conn:
            drift = await rebuild_campaign(store, conn, campaign_id, game_by_id(GAME), keep=False)
        return drift, await Store(pool).projection(campaign_id, game_by_id(GAME)), await _positions(pool, campaign_id)

    drift, (position, state), positions = run(database_url, scenario)
    assert drift == [] and position == 10 and positions == list(range(1, 11))
    assert sorted(state.characters) == ["jirelle", "lem", "merisiel", "valeros"]


def test_campaigns_folded_by_other_code_are_found_and_folded_again(database_url):
    from quartermaster.projections.registry import fold_version, game as game_by_id
    from quartermaster.service.application.refold import rebuild_campaign, refresh_stale

    async def scenario(store: Store, pool):
        campaign_id = await _new_campaign(store)
        await store.append(campaign_id, [note("before the upgrade")], actor="t")
        async with pool.connection() as conn:
            # As if an older version of the game's fold had written it.
            await conn.execute("UPDATE projections SET fold_version = 'older' WHERE campaign_id = %s", (campaign_id,))
            drift = await rebuild_campaign(store, conn, campaign_id, game_by_id(GAME), keep=False)
            refolded = await refresh_stale(Store(pool), conn)
            version = (
                await (
                    await conn.execute("SELECT fold_version FROM projections WHERE campaign_id = %s", (campaign_id,))
                ).fetchone()
            )[0]
            after = await rebuild_campaign(store, conn, campaign_id, game_by_id(GAME), keep=False)
        return campaign_id, drift, refolded, version, after

    campaign_id, drift, refolded, version, after = run(database_url, scenario)
    assert [d.what for d in drift] == [
        f"the stored projection was folded by other code (fold 'older', now {fold_version(GAME)!r})"
    ]
    assert campaign_id in refolded and version == fold_version(GAME) and after == []


def test_a_batch_mixing_chosen_and_drawn_ids_keeps_each_in_its_place(database_url):
    chosen = uuid.uuid4()

    async def scenario(store: Store, pool):
        campaign_id = await _new_campaign(store)
        await store.append(campaign_id, [note("warm the cache")], actor="t")  # so the one-statement path is taken
        appended = await store.append(
            campaign_id, [note("drawn"), note("chosen", chosen), note("drawn too")], actor="t"
        )
        return appended, await store.history(campaign_id, after=3)

    appended, read = run(database_url, scenario)
    assert [e.id for e in read] == [e.id for e in appended.events]
    assert read[1].id == chosen and len({e.id for e in read}) == 3
    assert [msgspec.json.decode(e.data)["text"] for e in read] == ["drawn", "chosen", "drawn too"]


def test_fast_writers_of_two_servers_racing_undos_leave_a_gapless_log_that_folds_to_what_they_answered(database_url):
    """Fast-path appends take no lock but the write lock's shared side; undo takes it exclusive and reads the end of
    the log under it. Racing both from two stores (two processes' caches), every position is taken once, the log has
    no gap, and the state each store holds equals a fold of the log."""
    from quartermaster.projections.registry import game as game_by_id
    from quartermaster.service.application.refold import rebuild_campaign

    async def scenario(store: Store, pool):
        campaign_id = await _new_campaign(store)
        other = Store(pool)
        await other.projection(campaign_id, game_by_id(GAME))  # the second store holds the campaign too

        async def writer(which: Store, name: str) -> None:
            for n in range(25):
                await which.append(campaign_id, [note(f"{name} {n}")], actor=name)

        async def undoer() -> None:
            for _ in range(5):
                await asyncio.sleep(0.005)
                await store.undo(campaign_id, batch=None, cascade=False, reason=None, actor="u", only_own=False)

        await asyncio.gather(writer(store, "a"), writer(other, "b"), undoer())
        async with pool.connection() as conn:
            drift = await rebuild_campaign(store, conn, campaign_id, game_by_id(GAME), keep=False)
        folded = await Store(pool).projection(campaign_id, game_by_id(GAME))
        return drift, folded, await _positions(pool, campaign_id), (await store.campaign(campaign_id)).position

    drift, (position, _), positions, reported = run(database_url, scenario, pool_size=8)
    assert positions == list(range(1, 2 + 50 + 5 + 1))  # two start events, fifty notes, five undo markers
    assert drift == [] and position == reported == len(positions)


def test_campaigns_whose_write_locks_share_keys_only_take_turns(database_url):
    """Two campaign ids can fold to the same write lock (store/appending.py, write_lock): a writer of one holding it
    makes a fast-path append to the other wait for it, and then land, at the right position."""
    from quartermaster.service.store.appending import write_lock

    async def scenario(store: Store, pool):
        first = await _new_campaign(store)
        # The same fold: flip one bit in the lowest 32 bits of the id and the same bit in the next 32.
        twin = uuid.UUID(int=(first.int ^ 1 ^ (1 << 32)))
        assert write_lock(twin) == write_lock(first) and twin != first
        await _new_campaign(store, twin)
        holding, release = asyncio.Event(), asyncio.Event()

        async def holder() -> None:
            async with pool.connection() as conn, conn.transaction():
                await store.append(first, [note("held")], actor="t", conn=conn)  # the locking path: exclusive
                holding.set()
                await release.wait()

        held = asyncio.create_task(holder())
        await holding.wait()
        waiting = asyncio.create_task(store.append(twin, [note("twin")], actor="t"))
        await asyncio.sleep(0.2)
        waited = not waiting.done()
        release.set()
        await held
        appended = await waiting
        return waited, appended.first_position, await _positions(pool, twin), await _positions(pool, first)

    waited, position, twin_positions, first_positions = run(database_url, scenario)
    assert waited  # it took its turn behind the other campaign's writer
    assert position == 3 and twin_positions == [1, 2, 3] and first_positions == [1, 2, 3]
