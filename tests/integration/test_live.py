"""Live followers against real PostgreSQL: one reader per campaign and process, no pooled connection held while
waiting, and another process's commit heard through LISTEN/NOTIFY rather than a poll."""

from __future__ import annotations

import asyncio
import json
import uuid
from datetime import datetime, timedelta, timezone

import msgspec
import pytest

from quartermaster.events.campaign import NoteAdded
from quartermaster.projections.registry import game
from quartermaster.service.application import feed as feeding, live
from quartermaster.service.application.live import COUNTS
from quartermaster.service.application.narration import narrate
from quartermaster.service.http.intake import prepared_event
from quartermaster.service.store import Store
from tests.integration.following import GAME, collect, events_of, failing, new_campaign, note, process

FOLLOWERS = 6


def test_each_event_is_told_once_in_a_process_whatever_the_number_of_followers(database_url):
    async def scenario():
        async with process(database_url) as (store, wakeups, _):
            campaign = await new_campaign(store)
            streams = [wakeups.follow(campaign, 2) for _ in range(FOLLOWERS)]
            for stream in streams:  # each is open and waiting
                await anext(stream)
            # The feed has read where the log stood (else appends committed meanwhile count as its start).
            await wakeups.feeds[campaign].started
            before = COUNTS.told
            appended = [await store.append(campaign, [note(f"entry {n}")], actor="owner") for n in range(10)]
            last = appended[-1].last_position
            received = await asyncio.gather(*(collect(stream, last) for stream in streams))
            told = COUNTS.told - before
            for stream in streams:
                await stream.aclose()
            return received, told, last

    received, told, last = asyncio.run(scenario())

    assert told == 10
    for got in received:
        assert [e["position"] for e in got] == list(range(3, last + 1))
        assert [e["sentence"] for e in got] == [e["sentence"] for e in received[0]]
        assert got[0]["data"] == {"text": "entry 0"} and got[0]["sentence"]


def test_followers_waiting_hold_no_connection_of_the_pool(database_url):
    async def scenario():
        async with process(database_url, pool_size=2) as (store, wakeups, pool):
            campaign = await new_campaign(store)
            streams = [wakeups.follow(campaign, 0) for _ in range(FOLLOWERS * 3)]
            # Every follower has read the campaign's two events and now waits for the next.
            caught_up = await asyncio.gather(*(collect(stream, 2) for stream in streams))
            waiting = [asyncio.ensure_future(collect(stream, 3)) for stream in streams]
            await asyncio.sleep(0)
            stats = pool.get_stats()
            in_use = stats["pool_size"] - stats["pool_available"]
            # With all of them waiting, the two connections are free for a writer.
            appended = await store.append(campaign, [note("while they wait")], actor="owner")
            woken = await asyncio.gather(*waiting)
            for stream in streams:
                await stream.aclose()
            return caught_up, in_use, woken, appended.last_position

    caught_up, in_use, woken, last = asyncio.run(scenario())

    assert all(len(got) == 2 for got in caught_up)
    assert in_use == 0
    assert all(got[-1]["position"] == last == 3 for got in woken)


def test_a_commit_in_another_process_reaches_a_follower_through_a_notification(database_url, monkeypatch):
    # No poll and no timer could bring it: only the notification can.
    monkeypatch.setattr(live, "LOOK", 3600.0)
    monkeypatch.setattr(live, "FIRST_LOOK", 3600.0)
    monkeypatch.setattr(live, "POLL", 3600.0)

    async def scenario():
        async with process(database_url) as (following, here, _), process(database_url) as (writing, there, _):
            campaign = await new_campaign(writing)
            stream = here.follow(campaign, 2)
            await anext(stream)
            # The writing process hears that this one follows the campaign before it appends.
            while there.remote.get(campaign) is None:
                await asyncio.sleep(0.01)
            notified = COUNTS.notified
            appended = await writing.append(campaign, [note("from the other process")], actor="owner")
            got = await asyncio.wait_for(collect(stream, appended.last_position), 30)
            await stream.aclose()
            return got, COUNTS.notified - notified

    got, notified = asyncio.run(scenario())

    assert [e["data"] for e in got] == [{"text": "from the other process"}]
    assert notified >= 1


def test_a_process_following_2000_campaigns_announces_them_in_payloads_postgresql_takes(database_url, monkeypatch):
    """Named in one payload, 2,000 campaigns passed PostgreSQL's 8,000 bytes: the other process never learnt who
    followed what, and its appends reached the followers only on their timer."""
    monkeypatch.setattr(live, "LOOK", 3600.0)
    monkeypatch.setattr(live, "FIRST_LOOK", 3600.0)
    monkeypatch.setattr(live, "POLL", 3600.0)
    followed = 2000

    async def scenario():
        async with process(database_url) as (following, here, _), process(database_url) as (writing, there, _):
            campaigns: list[uuid.UUID] = []
            for _ in range(followed // 50):
                campaigns += await asyncio.gather(*(new_campaign(writing) for _ in range(50)))
            streams = [here.follow(campaign, 2) for campaign in campaigns]
            for stream in streams:
                await anext(stream)
            # Every feed has read where its campaign stood, and the writing process has heard who follows what.
            async with asyncio.timeout(60):
                await asyncio.gather(*(feed.started for feed in here.feeds.values()))
                while len(there.remote) < followed:
                    await asyncio.sleep(0.05)
            delays = []
            for campaign, stream in [(campaigns[0], streams[0]), (campaigns[-1], streams[-1])]:
                begun = asyncio.get_running_loop().time()
                appended = await writing.append(campaign, [note("from the other process")], actor="owner")
                got = await asyncio.wait_for(collect(stream, appended.last_position), 1.0)
                delays.append((asyncio.get_running_loop().time() - begun, got[-1]["data"]))
            for stream in streams:
                await stream.aclose()
            return delays

    delays = asyncio.run(scenario())

    assert [data for _, data in delays] == [{"text": "from the other process"}] * 2
    assert all(seconds < 1.0 for seconds, _ in delays)


def test_every_announcement_payload_is_under_postgresqls_limit_and_names_each_campaign_once():
    campaigns = [uuid.uuid4() for _ in range(5000)]

    payloads = live.announcements(campaigns, "origin123456")

    assert all(len(p.encode()) < 8000 for p in payloads)
    named = [word for p in payloads for word in p.split()[1:-1]]
    assert named == [str(c) for c in campaigns]
    assert all(p.startswith("f ") and p.endswith(" origin123456") for p in payloads)


def test_a_process_alone_notifies_nothing_for_the_campaigns_it_writes(database_url):
    async def scenario():
        async with process(database_url) as (store, wakeups, _):
            campaign = await new_campaign(store)
            stream = wakeups.follow(campaign, 2)
            await anext(stream)
            await store.append(campaign, [note("nobody elsewhere follows")], actor="owner")
            got = await collect(stream, 3)
            await stream.aclose()
            return got, dict(wakeups.remote)

    got, remote = asyncio.run(scenario())

    assert len(got) == 1 and remote == {}


def test_the_stream_sends_after_each_run_of_events_the_views_the_page_reads(database_url):
    async def scenario():
        async with process(database_url) as (store, wakeups, _):
            campaign = await new_campaign(store)
            stream = wakeups.follow(campaign, 2, views=True)
            await anext(stream)
            views: list = []
            appended = await store.append(campaign, [note("one"), note("two")], actor="owner")
            await collect(stream, appended.last_position, views)
            while not views or views[-1]["position"] < appended.last_position:
                views.extend(data for event, data in events_of(await anext(stream)) if event == "views")
            await stream.aclose()
            return views[-1], appended.last_position

    sent, last = asyncio.run(scenario())

    assert sent["position"] == last
    views = sent["views"]
    assert {"/state", "/scenario", "/fleet", "/vault", "/scenarios"} <= set(views)
    assert views["/state"]["position"] == last and views["/scenarios"] == {"position": last, "scenarios": []}


@pytest.mark.parametrize("behind", [0, 2])
def test_closing_ends_every_stream_with_a_last_closing_message(database_url, behind):
    async def scenario():
        async with process(database_url) as (store, wakeups, _):
            campaign = await new_campaign(store)
            streams = [wakeups.follow(campaign, behind) for _ in range(3)]
            for stream in streams:
                await anext(stream)
            wakeups.closing()
            ends = []
            for stream in streams:
                chunks = [chunk async for chunk in stream]
                ends.append(events_of(chunks[-1])[-1][0])
            late = [chunk async for chunk in wakeups.follow(campaign, 0)]
            return ends, events_of(late[-1])[-1][0]

    ends, late = asyncio.run(scenario())

    assert ends == ["closing"] * 3 and late == "closing"


def test_a_follower_far_behind_reads_the_log_itself_and_misses_nothing(database_url, monkeypatch):
    monkeypatch.setattr(feeding, "RECENT", 3)

    async def scenario():
        async with process(database_url) as (store, wakeups, _):
            campaign = await new_campaign(store)
            ahead = wakeups.follow(campaign, 2)
            await anext(ahead)
            appended = [await store.append(campaign, [note(f"n{n}")], actor="owner") for n in range(12)]
            last = appended[-1].last_position
            await collect(ahead, last)
            behind = wakeups.follow(campaign, 0)
            got = await collect(behind, last)
            await ahead.aclose()
            await behind.aclose()
            return got, last, wakeups.feeds

    got, last, feeds = asyncio.run(scenario())

    assert [e["position"] for e in got] == list(range(1, last + 1))
    assert feeds == {}


def test_a_feed_wakes_its_followers_a_turn_at_a_time_and_a_leaver_cancels_only_its_own_wait(monkeypatch):
    """Between two turns the event loop serves other work (an append waits behind TURN followers' writes at most),
    and every follower still wakes."""
    monkeypatch.setattr(feeding, "TURN", 2)

    async def scenario():
        feed = feeding.Feed(uuid.uuid4())
        waiting = [feed.wait() for _ in range(5)]
        waiting[3].cancel()  # a follower that left
        telling = asyncio.create_task(feed.tell())
        await asyncio.sleep(0)  # the reader's first turn, then this task's
        first_turn = [w.done() and not w.cancelled() for w in waiting]
        await telling
        return first_turn, [w.cancelled() or w.result() is None for w in waiting], feed.waiting

    first_turn, all_woken, left_waiting = asyncio.run(scenario())

    assert first_turn == [True, True, False, False, False]
    assert all(all_woken) and left_waiting == []


def test_followers_beyond_one_turn_each_receive_every_event(database_url, monkeypatch):
    monkeypatch.setattr(feeding, "TURN", 2)

    async def scenario():
        async with process(database_url) as (store, wakeups, _):
            campaign = await new_campaign(store)
            streams = [wakeups.follow(campaign, 2) for _ in range(7)]
            for stream in streams:
                await anext(stream)
            appended = [await store.append(campaign, [note(f"entry {n}")], actor="owner") for n in range(5)]
            last = appended[-1].last_position
            received = await asyncio.gather(*(collect(stream, last) for stream in streams))
            for stream in streams:
                await stream.aclose()
            return received, last

    received, last = asyncio.run(scenario())

    for got in received:
        assert [e["position"] for e in got] == list(range(3, last + 1))


def test_a_feed_that_finds_nothing_for_its_look_sends_its_followers_a_heartbeat(database_url, monkeypatch):
    monkeypatch.setattr(live, "FIRST_LOOK", 0.01)
    monkeypatch.setattr(live, "LOOK", 0.05)

    async def scenario():
        async with process(database_url) as (store, wakeups, _):
            campaign = await new_campaign(store)
            stream = wakeups.follow(campaign, 2)
            first = await anext(stream)
            beat = await asyncio.wait_for(anext(stream), 5)
            appended = await store.append(campaign, [note("after the beat")], actor="owner")
            got = await asyncio.wait_for(collect(stream, appended.last_position), 5)
            await stream.aclose()
            return first, beat, got

    first, beat, got = asyncio.run(scenario())

    assert first == live.FOLLOWING and beat == live.HEARTBEAT_MESSAGE
    assert [e["data"] for e in got] == [{"text": "after the beat"}]


def _read_back(store: Store, campaign: uuid.UUID, after: int) -> list[dict]:
    """The events after `after` as a history page tells them, parsed as a follower parses its messages."""

    async def told():
        page = await store.history(campaign, after=after, limit=100)
        return [json.loads(msgspec.json.encode(one)) for one in await narrate(store, campaign, game(GAME), page)]

    return told()


def test_events_this_process_commits_are_told_as_the_log_reads_them_without_reading_them_back(database_url):
    occurred = datetime(2026, 6, 1, 21, 30, tzinfo=timezone(timedelta(hours=2)))

    async def scenario():
        async with process(database_url) as (store, wakeups, _):
            campaign = await new_campaign(store)
            stream = wakeups.follow(campaign, 2)
            await anext(stream)
            await wakeups.feeds[campaign].started
            read, told = COUNTS.read, COUNTS.told
            batches = [
                [prepared_event(NoteAdded(text="at the table"), occurred_at=occurred)],
                [note("two"), note("in one batch")],
                *([note(f"entry {n}")] for n in range(5)),
            ]
            last = [await store.append(campaign, batch, actor="owner") for batch in batches][-1].last_position
            got = await collect(stream, last)
            await stream.aclose()
            return got, COUNTS.read - read, COUNTS.told - told, await _read_back(store, campaign, 2)

    got, read, told, logged = asyncio.run(scenario())

    assert (read, told) == (0, 8)
    # The same messages, field for field, as a follower that read the log would have had.
    assert got == logged
    assert got[0]["occurred_at"] == "2026-06-01T19:30:00Z"


def test_a_feed_reads_from_the_log_what_its_process_did_not_commit_and_tells_every_event_in_order(database_url):
    # Another process's commit between two of this one's: its notification may come late or never (here the other
    # store has no wake-ups at all), yet the later commit names a position past it.
    async def scenario():
        async with process(database_url) as (store, wakeups, pool):
            elsewhere = Store(pool)
            campaign = await new_campaign(store)
            stream = wakeups.follow(campaign, 2)
            await anext(stream)
            await wakeups.feeds[campaign].started
            read = COUNTS.read
            await store.append(campaign, [note("here, first")], actor="owner")
            first = await collect(stream, 3)
            await elsewhere.append(campaign, [note("elsewhere")], actor="owner")
            await store.append(campaign, [note("here, after")], actor="owner")
            rest = await collect(stream, 5)
            # A batch longer than a feed keeps handed over is read from the log, a page at a time.
            longer = [note(f"long {n}") for n in range(feeding.PAGE + 20)]
            long = await store.append(campaign, longer, actor="owner")
            more = await collect(stream, long.last_position)
            await stream.aclose()
            return first + rest + more, COUNTS.read - read, await _read_back(store, campaign, 2), long.last_position

    got, read, logged, last = asyncio.run(scenario())

    assert [e["position"] for e in got] == list(range(3, last + 1))
    assert [e["data"]["text"] for e in got[:3]] == ["here, first", "elsewhere", "here, after"]
    # The other process's event and the one after it, then the long batch.
    assert read == 2 + feeding.PAGE + 20
    assert got[:100] == logged


def test_each_event_is_decoded_and_folded_once_in_a_process_whatever_the_number_of_followers(database_url, monkeypatch):
    """The append decodes nothing more (its events come decoded) and folds each event once; the feed tells them
    from that fold, for every follower and the page's views alike, with the same sentences the log reads back."""
    from quartermaster.projections import game as game_module
    from quartermaster.service.application import narration
    from quartermaster.service.store import reading

    counted = {"decoded": 0, "folded": 0}

    def counting(name, of):
        def counted_call(*args, **kwargs):
            counted[name] += 1
            return of(*args, **kwargs)

        return counted_call

    # No timer's look at the log (it may read an event committed a moment before its append hands it over).
    monkeypatch.setattr(live, "LOOK", 3600.0)
    monkeypatch.setattr(live, "FIRST_LOOK", 3600.0)
    monkeypatch.setattr(game_module, "_step", counting("folded", game_module._step))
    monkeypatch.setattr(narration, "decode_event", counting("decoded", narration.decode_event))
    monkeypatch.setattr(reading, "decode_event", counting("decoded", reading.decode_event))

    async def scenario():
        async with process(database_url) as (store, wakeups, _):
            campaign = await new_campaign(store)
            streams = [wakeups.follow(campaign, 2, views=n % 2 == 0) for n in range(FOLLOWERS)]
            for stream in streams:
                await anext(stream)
            await wakeups.feeds[campaign].started
            # The campaign's state is in this process's cache, as after any append it made.
            await store.append(campaign, [note("warming up")], actor="owner")
            await asyncio.gather(*(collect(stream, 3) for stream in streams))
            counted.update(decoded=0, folded=0)
            batches = [[note(f"entry {n}")] for n in range(6)]
            batches.append([note("two"), prepared_event(NoteAdded(text="against the grain"), override="We agreed.")])
            last = [await store.append(campaign, batch, actor="owner") for batch in batches][-1].last_position
            received = await asyncio.gather(*(collect(stream, last) for stream in streams))
            feed = wakeups.feeds[campaign]
            while feed.views is None or feed.views[0] != last:  # the page's views, as of the last event
                await asyncio.sleep(0.01)
            once = dict(counted)
            held = feed.told[1] is store.cache.get(campaign, last)
            for stream in streams:
                await stream.aclose()
            return received, once, held, last, await _read_back(store, campaign, 3)

    received, once, held, last, logged = asyncio.run(scenario())

    assert once == {"decoded": 0, "folded": 8}
    assert held  # the feed keeps no copy of the state: it holds the one the store's cache holds
    for got in received:
        assert [e["position"] for e in got] == list(range(4, last + 1))
        assert got == logged
    assert "against the rules: We agreed." in received[0][-1]["sentence"]


CAMPAIGNS = 2000
# Objects the collector tracks per followed campaign (its state, its feed, a follower), before the collector's step
# freezes them: the state is held once, and its cards' Structs are untracked (benchmarks/README.md has the figures).
TRACKED_PER_CAMPAIGN = 60


@pytest.mark.slow
def test_a_process_following_2000_campaigns_leaves_the_collector_a_bounded_walk(database_url):
    """2,000 Skull & Shackles tables set up as the rulebook's Example of Play, each followed with the page's views
    after an event: what the collector tracks per campaign is bounded, and after the collector's step (what a
    serving process does every few seconds) nearly nothing of it is left for a full pass to walk."""
    import gc

    from quartermaster.service.http.intake import prepare
    from quartermaster.service.http.requests import NewEvent
    from quartermaster.service.platform.collector import Collector
    from tests.unit.pacg.example_of_play import SETTING_UP

    setup = prepare(GAME, msgspec.convert(SETTING_UP, list[NewEvent]))

    async def one_table(store: Store) -> uuid.UUID:
        campaign = await new_campaign(store)
        await store.append(campaign, setup, actor="owner")
        return campaign

    async def scenario():
        async with process(database_url, pool_size=8) as (store, wakeups, _):
            gc.collect()
            before = len(gc.get_objects())
            campaigns: list[uuid.UUID] = []
            for start in range(0, CAMPAIGNS, 50):
                campaigns += await asyncio.gather(*(one_table(store) for _ in range(start, min(CAMPAIGNS, start + 50))))
            streams = [wakeups.follow(campaign, 0, views=True) for campaign in campaigns]
            for stream in streams:
                await anext(stream)
            for campaign in campaigns:
                await wakeups.feeds[campaign].started
            for start in range(0, CAMPAIGNS, 50):
                await asyncio.gather(
                    *(store.append(c, [note("a shanty")], actor="owner") for c in campaigns[start : start + 50])
                )
            last = {c: store.cache.latest(c)[0] for c in campaigns}
            while any(wakeups.feeds[c].views is None or wakeups.feeds[c].views[0] != last[c] for c in campaigns):
                await asyncio.sleep(0.05)
            gc.collect()
            tracked = len(gc.get_objects()) - before
            collector = Collector()
            collector.start()
            collector.step()
            left = len(gc.get_objects())
            await collector.stop()
            gc.unfreeze()
            held = len(wakeups.feeds)
            for stream in streams:
                await stream.aclose()
            return tracked, left, held

    tracked, left, held = asyncio.run(scenario())
    print(f"tracked per followed campaign: {tracked / CAMPAIGNS:.1f}; after the collector's step, in all: {left}")

    assert held == CAMPAIGNS
    assert tracked / CAMPAIGNS < TRACKED_PER_CAMPAIGN
    assert left / CAMPAIGNS < 1


def test_a_feed_its_followers_left_dies_without_a_cycle_for_the_collector(database_url):
    """Phones come and go all day: each feed dropped must be freed as its followers leave, not left as a cycle that,
    once the collector's step has frozen it, only the rare walk of everything frees."""
    import gc

    async def scenario() -> list[str]:
        async with process(database_url) as (store, wakeups, _):
            campaign = await new_campaign(store)
            gc.collect()
            gc.set_debug(gc.DEBUG_SAVEALL)
            try:
                for _ in range(3):
                    stream = wakeups.follow(campaign, 0, views=True)
                    await anext(stream)
                    appended = await store.append(campaign, [note("a gull")], actor="owner")
                    await collect(stream, appended.last_position)
                    await stream.aclose()
                    await asyncio.sleep(0.05)  # the reader's cancellation runs
                assert campaign not in wakeups.feeds
                gc.collect()
                return [type(o).__qualname__ for o in gc.garbage if type(o).__module__.startswith("quartermaster")]
            finally:
                gc.set_debug(0)
                gc.garbage.clear()

    assert asyncio.run(scenario()) == []


def test_a_feed_whose_first_read_fails_starts_on_the_retry_and_its_follower_hears_every_event(
    database_url, monkeypatch
):
    """A feed's reader reads the campaign's game, then its position. When the second read fails (every connection
    lent, say, as thousands of phones reconnect), the retry must read both: a feed that kept the game and not the
    position was never started, and its followers waited for ever."""
    from psycopg_pool import PoolTimeout

    async def scenario() -> list[int]:
        async with process(database_url) as (store, wakeups, _):
            campaign = await new_campaign(store)
            real = store.positions
            failed: list[bool] = []

            async def first_fails(campaign_ids):
                if not failed:
                    failed.append(True)
                    raise PoolTimeout("couldn't get a connection after 1.50 sec")
                return await real(campaign_ids)

            monkeypatch.setattr(store, "positions", first_fails)
            stream = wakeups.follow(campaign, 2)
            await anext(stream)
            appended = await store.append(campaign, [note("heard all the same")], actor="owner")
            got = await asyncio.wait_for(collect(stream, appended.last_position), 10)
            await stream.aclose()
            assert failed == [True]
            return [e["position"] for e in got]

    assert asyncio.run(scenario()) == [3]


def test_a_feed_whose_reader_fails_after_it_started_ends_its_streams_and_the_next_follower_hears_every_event(
    database_url, monkeypatch, caplog
):
    """A fault of ours in a started reader (not the database's, which it retries) must not leave its followers
    waiting for ever on a reader that is gone: their streams end, as the browser's EventSource takes for a cue to
    reconnect from its last event, and the reconnected follower, on a new feed, hears what it missed."""

    async def scenario() -> tuple[list[int], list[int]]:
        async with process(database_url) as (store, wakeups, _):
            campaign = await new_campaign(store)
            failed: list[bool] = []
            monkeypatch.setattr(live, "told_from", failing(live.told_from, failed))
            stream = wakeups.follow(campaign, 2)
            await anext(stream)
            broken = wakeups.feeds.get(campaign)
            appended = await store.append(campaign, [note("told on the second try")], actor="owner")
            ended = [e["position"] for e in await asyncio.wait_for(collect(stream, appended.last_position), 10)]
            assert failed == [True] and broken is not None and broken.broken
            assert campaign not in wakeups.feeds or wakeups.feeds[campaign] is not broken
            again = wakeups.follow(campaign, 2)
            await anext(again)
            heard = [e["position"] for e in await asyncio.wait_for(collect(again, appended.last_position), 10)]
            await again.aclose()
            return ended, heard

    ended, heard = asyncio.run(scenario())
    assert ended == [] and heard == [3]
    assert "the reader of campaign" in caplog.text


def test_a_campaign_whose_reader_keeps_failing_asks_its_browsers_to_wait_twice_as_long_each_time(
    database_url, monkeypatch
):
    """A reader that fails on every new feed would have every phone of the table reconnect every 2 s for ever: each
    stream ended for it asks the browser (`retry:`) to wait twice as long as the last, until a reader catches up."""

    async def ended_after_an_event(wakeups, store, campaign, after) -> list[bytes]:
        stream = wakeups.follow(campaign, after)
        await anext(stream)
        await wakeups.feeds[campaign].started
        await store.append(campaign, [note("one more")], actor="owner")
        return [chunk async for chunk in stream]

    async def scenario() -> tuple[list[bytes], list[bytes], list[int], dict]:
        async with process(database_url) as (store, wakeups, _):
            campaign = await new_campaign(store)
            failed: list[bool] = []
            monkeypatch.setattr(live, "told_from", failing(live.told_from, failed, times=2))
            first = await asyncio.wait_for(ended_after_an_event(wakeups, store, campaign, 2), 10)
            second = await asyncio.wait_for(ended_after_an_event(wakeups, store, campaign, 3), 10)
            stream = wakeups.follow(campaign, 4)
            await anext(stream)
            await wakeups.feeds[campaign].started
            appended = await store.append(campaign, [note("told at last")], actor="owner")
            heard = await asyncio.wait_for(collect(stream, appended.last_position), 10)
            await stream.aclose()
            return first, second, [e["position"] for e in heard], dict(wakeups.breaks)

    first, second, heard, breaks = asyncio.run(scenario())
    assert first[-1] == b"retry: 2000\r\n\r\n" and second[-1] == b"retry: 4000\r\n\r\n"
    assert heard == [5] and breaks == {}
