"""Live updates: one reader per followed campaign in this process, handing each new event to every follower.

A campaign followed in this process has a `Feed`: one task that reads the events after the last position it read,
tells each one's sentence once, encodes each message once, and keeps the latest of them (`RECENT`). Followers hold
no database connection while they wait: each waits on a future of its own that the feed resolves when it has news
(`Feed.wait`), then writes the messages after the position it has sent. The reader wakes its followers `TURN` at a
time and lets the event loop serve other requests between two turns, so that an append arriving while 200 followers
are told waits behind a few dozen of their writes, not all of them. A follower that starts, or falls, further behind
than the feed keeps reads the log itself (as every follower used to) until it is within what the feed keeps. Where
the table page asks for them (`views`), the feed also answers, once per position it reaches, what the page reads
after an event (`views_of`), so a phone makes no request for it.

What wakes a feed: an append this process commits (the store's `on_commit`, after the commit), which hands it the
events as they were recorded, so that the feed tells them without reading them back; and for another process's
appends, PostgreSQL's LISTEN/NOTIFY on a connection of its own, outside the pool. Appends never notify in
their transaction: PostgreSQL takes a database-wide lock at the commit of a transaction that notified, so every
notifying commit waits for the one before (benchmarks/notify.py measures the alternatives). A process sends
`pg_notify` after the commit, and only for campaigns another process follows: a process that starts following a
campaign says so on the channel, again every `LEASE / 3` seconds while it follows it, and at once when a new process
asks who follows what; a process following many campaigns names them in as many notifications as it takes to keep
each under PostgreSQL's limit of 8,000 bytes a payload. A process alone with its database sends nothing. While the
listening connection is down, the followed campaigns' positions are polled every `POLL` seconds instead. A wake-up
is only a hint: a feed reads by position (`position > N`) and also looks on a timer, so a missed one costs a delay,
never an event. Events handed over are told only where they follow on from the feed's position; anything else it has
heard of (another process's commit before them, a batch longer than it keeps, a timer's look) it reads from the log,
so the feed tells the same events in the same order either way. An event handed over carries its `data` as
appended, the same JSON value the log reads back, whose text (key order, spaces) PostgreSQL's jsonb may change.

`closing()` ends every stream with a last `closing` message, which the page takes for a server that stops (it
reconnects when the server answers again) rather than a connection lost: `serve` stops within a second or so with
streams open. A member revoked or given a new token has their streams ended with `ended` (live_access.py).
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import inspect
import logging
import signal
import threading
import time
import uuid
from collections.abc import AsyncIterator, Callable, Iterable
from typing import Any

import msgspec
import psycopg

from quartermaster.projections.game import Game
from quartermaster.service.application.audit.played import played
from quartermaster.service.application.feed import PAGE, Feed, due_within
from quartermaster.service.application.live_access import Access
from quartermaster.service.application.live_counts import COUNTS
from quartermaster.service.application.narration import Told, narrate, narrate_on, told_from
from quartermaster.service.platform.listening import Listening
from quartermaster.service.store import Appended, Store

log = logging.getLogger("quartermaster.live")

CHANNEL = "quartermaster_live"
# Seconds between two looks at the followed campaigns' positions while the listening connection is down.
POLL = 0.2
# How long another process's word that it follows a campaign holds; it says it again every LEASE / 3 seconds.
LEASE = 30.0
# Seconds between a feed's own looks at its campaign when nothing woke it: the bound on a lost wake-up's delay, and
# the time between heartbeats on a stream when nothing happens. Its first look comes sooner, for the appends another
# process made before it heard that this one follows.
LOOK = 15.0
FIRST_LOOK = 1.0
# The longest notification payload sent, in bytes: PostgreSQL refuses one of 8,000 bytes or more ("payload string too
# long"), and with it every notification of the same statement. A process that follows many campaigns names them in
# as many payloads as they need.
PAYLOAD = 7_000

_encode = msgspec.json.Encoder().encode
Messages = AsyncIterator[bytes]


def message(event: str, data: bytes, position: int | None = None) -> bytes:
    """One server-sent event, encoded (`data` is JSON, which has no line break)."""
    head = b"id: %d\r\n" % position if position is not None else b""
    return head + b"event: " + event.encode() + b"\r\ndata: " + data + b"\r\n\r\n"


RETRY_MS = 2000
FOLLOWING = b"retry: %d\r\n: following\r\n\r\n" % RETRY_MS
# A campaign whose readers keep failing: each stream ended for it asks its browser to wait twice as long as the last
# before it reconnects, up to this (milliseconds).
RETRY_MS_MOST = 60_000
HEARTBEAT_MESSAGE = b": heartbeat\r\n\r\n"
CLOSING = message(
    "closing", _encode({"detail": "The server is stopping. This page follows the log again when the server is back."})
)


def announcements(campaigns: Iterable[uuid.UUID], origin: str) -> list[str]:
    """The payloads saying that `origin` follows `campaigns` (`f campaign... origin`), each at most PAYLOAD bytes."""
    payloads: list[str] = []
    words: list[str] = []
    room = PAYLOAD - len(origin) - 3
    for campaign_id in campaigns:
        word = str(campaign_id)
        if words and room < len(word) + 1:
            payloads.append(f"f {' '.join(words)} {origin}")
            words, room = [], PAYLOAD - len(origin) - 3
        words.append(word)
        room -= len(word) + 1
    if words:
        payloads.append(f"f {' '.join(words)} {origin}")
    return payloads


# A view's parameter naming one of many, with the path the page reads each one at and where the state keeps them.
_EACH = {"character_id": ("characters", "characters"), "pirate_id": ("pirates", "pirates")}


@functools.cache
def _wanted(read: Callable[..., Any]) -> list[str]:
    """The parameters a view must be given beside the state."""
    parameters = list(inspect.signature(read).parameters.values())[1:]
    return [p.name for p in parameters if p.default is inspect.Parameter.empty]


def views_of(game: Game[Any], position: int, state: Any) -> dict[str, Any]:
    """What the table page reads after an event, by the path it reads it at: the whole state, every view of the game
    (each character's or pirate's one by one), each as its route answers it."""
    answers: dict[str, Any] = {"/state": {"position": position, "state": state}}
    if state is None:
        return answers
    for name, view in game.views.items():
        wanted = _wanted(view.read)
        if not wanted:
            answers[f"/{name}"] = {"position": position, name: view.read(state)}
        elif len(wanted) == 1 and wanted[0] in _EACH:
            path, where = _EACH[wanted[0]]
            for key in getattr(state, where, {}) or {}:
                answers[f"/{path}/{key}"] = {"position": position, name: view.read(state, **{wanted[0]: key})}
    return answers


class Wakeups:
    """This process's feeds, the commits that wake them, and the notifications between processes."""

    def __init__(self, store: Store) -> None:
        self.store = store
        self.feeds: dict[uuid.UUID, Feed] = {}
        self.closing_now = False
        self.origin = uuid.uuid4().hex[:12]
        # Campaigns another process follows, until when (time.monotonic).
        self.remote: dict[uuid.UUID, float] = {}
        self._outgoing: dict[uuid.UUID, int] = {}
        self._announce: set[uuid.UUID] = set()
        self._outgoing_ask = False
        self._send_due = asyncio.Event()
        self._listener: Listening | None = None
        # Set while nothing listens: the followed campaigns' positions are polled only then.
        self._deaf = asyncio.Event()
        self._deaf.set()
        self._tasks: list[asyncio.Task[Any]] = []
        self._signals: dict[int, Any] = {}
        # Campaigns whose reader failed, by how many times in a row (until one tells an event again): `_break`.
        self.breaks: dict[uuid.UUID, int] = {}
        # Open streams by member, ended when their member is revoked or given a new token (live_access.py).
        self.access = Access(store)

    async def start(self) -> None:
        self.store.on_commit.append(self.committed)
        self.access.start()
        pool = self.store.pool
        connect_timeout = (getattr(pool, "kwargs", None) or {}).get("connect_timeout", 2)
        self._listener = Listening(
            pool.conninfo,
            CHANNEL,
            self._heard,
            up=self._up,
            down=self._down,
            connect_timeout=connect_timeout,
            pause=0.5,
            max_pause=10.0,
        )
        for work in (self._listener.start, self._send, self._poll, self._renew):
            self._tasks.append(asyncio.create_task(work()))
        self._watch_signals()

    async def stop(self) -> None:
        self.closing()
        self._unwatch_signals()
        await self.access.stop()
        with contextlib.suppress(ValueError):
            self.store.on_commit.remove(self.committed)
        tasks = self._tasks + [f.task for f in self.feeds.values() if f.task]
        for task in tasks:
            task.cancel()
        for task in tasks:
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task
        if self._listener is not None:
            with contextlib.suppress(psycopg.Error, OSError):
                await self._listener.stop()

    # -- stopping ------------------------------------------------------------------------------------------------

    def closing(self) -> None:
        """End every stream with a last `closing` message; streams opened from now on end at once the same way."""
        if self.closing_now:
            return
        self.closing_now = True
        for feed in self.feeds.values():
            feed.publish()

    def _watch_signals(self) -> None:
        # uvicorn stops on SIGINT and SIGTERM, then waits for every open response to end: end the streams first.
        if threading.current_thread() is not threading.main_thread():
            return
        loop = asyncio.get_running_loop()
        for number in (signal.SIGINT, signal.SIGTERM):
            before = signal.getsignal(number)
            if not callable(before):
                continue

            def handler(sig: int, frame: Any, before: Callable[..., Any] = before) -> None:
                loop.call_soon_threadsafe(self.closing)
                before(sig, frame)

            self._signals[number] = before
            signal.signal(number, handler)

    def _unwatch_signals(self) -> None:
        for number, before in self._signals.items():
            with contextlib.suppress(ValueError):
                signal.signal(number, before)
        self._signals.clear()

    # -- waking --------------------------------------------------------------------------------------------------

    def committed(self, campaign_id: uuid.UUID, appended: Appended) -> None:
        """After this process commits an append: hand its events to the campaign's feed, and tell the processes that
        follow it."""
        position = appended.last_position
        feed = self.feeds.get(campaign_id)
        if feed is not None and position > feed.position:
            feed.hand(appended)
        if self.remote and self.remote.get(campaign_id, 0.0) > time.monotonic():
            self._outgoing[campaign_id] = max(position, self._outgoing.get(campaign_id, 0))
            self._send_due.set()

    def _heard(self, payload: str) -> None:
        kind, _, rest = payload.partition(" ")
        words = rest.split()
        if not words or words[-1] == self.origin:
            return
        try:
            if kind == "c":  # a commit: campaign, position, origin
                campaign_id, position = uuid.UUID(words[0]), int(words[1])
                COUNTS.notified += 1
                feed = self.feeds.get(campaign_id)
                if feed is not None:
                    feed.hint(position)
            elif kind == "f":  # campaigns followed: campaign..., origin
                until = time.monotonic() + LEASE
                for word in words[:-1]:
                    self.remote[uuid.UUID(word)] = until
            elif kind == "?":  # a process started: who follows what?
                self._announce.update(self.feeds)
                self._send_due.set()
        except (ValueError, IndexError):
            log.warning("live updates: a notification on %s that is not ours: %r", CHANNEL, payload)

    async def _connect(self) -> psycopg.AsyncConnection:
        pool = self.store.pool
        kwargs = {k: v for k, v in (getattr(pool, "kwargs", None) or {}).items() if k == "connect_timeout"}
        return await psycopg.AsyncConnection.connect(pool.conninfo, autocommit=True, **kwargs)

    def _up(self) -> None:
        """The listening connection is up (again): ask who follows what, and catch up with what was committed while
        nobody listened."""
        self._deaf.clear()
        self._announce.update(self.feeds)
        self._outgoing_ask = True
        self._send_due.set()
        for feed in self.feeds.values():
            feed.hint(None)

    def _down(self) -> None:
        self._deaf.set()
        log.warning("live updates: the listening connection was lost; polling meanwhile")

    async def _send(self) -> None:
        """NOTIFY, after their commits, the appends another process follows, and which campaigns this one follows."""
        conn: psycopg.AsyncConnection | None = None
        while True:
            await self._send_due.wait()
            self._send_due.clear()
            payloads = [f"c {c} {p} {self.origin}" for c, p in self._outgoing.items()]
            self._outgoing = {}
            if self._announce:
                payloads.extend(announcements(self._announce, self.origin))
                self._announce = set()
            if self._outgoing_ask:
                payloads.append(f"? {self.origin}")
                self._outgoing_ask = False
            if not payloads:
                continue
            try:
                if conn is None or conn.closed:
                    conn = await self._connect()
                await conn.execute("SELECT pg_notify(%s, p) FROM unnest(%s::text[]) AS p", (CHANNEL, payloads))
            except (psycopg.Error, OSError) as error:
                # Lost: the feeds elsewhere find these appends on their timer, or by polling.
                log.warning("live updates: notifying other processes failed (%s)", error)
                if conn is not None:
                    with contextlib.suppress(Exception):
                        await conn.close()
                conn = None
                await asyncio.sleep(0.5)

    async def _renew(self) -> None:
        while True:
            await asyncio.sleep(LEASE / 3)
            if self.feeds:
                self._announce.update(self.feeds)
                self._send_due.set()
            now = time.monotonic()
            self.remote = {c: until for c, until in self.remote.items() if until > now}

    async def _poll(self) -> None:
        while True:
            await self._deaf.wait()  # while the listening connection is up, nothing to poll
            await asyncio.sleep(POLL)
            if not self._deaf.is_set() or not self.feeds:
                continue
            try:
                positions = await self.store.positions(list(self.feeds))
            except psycopg.Error as error:
                log.warning("live updates: reading the followed campaigns' positions failed (%s)", error)
                continue
            for campaign_id, position in positions.items():
                feed = self.feeds.get(campaign_id)
                if feed is not None:
                    feed.hint(position)

    # -- feeds ---------------------------------------------------------------------------------------------------

    def _feed(self, campaign_id: uuid.UUID) -> Feed:
        feed = self.feeds.get(campaign_id)
        if feed is None:
            feed = self.feeds[campaign_id] = Feed(campaign_id)
            COUNTS.feeds = len(self.feeds)
            feed.task = asyncio.create_task(self._read(feed))
            self._announce.add(campaign_id)
            self._send_due.set()
        return feed

    def _drop(self, feed: Feed) -> None:
        if feed.followers == 0 and self.feeds.get(feed.campaign_id) is feed:
            del self.feeds[feed.campaign_id]
            COUNTS.feeds = len(self.feeds)
            if feed.task is not None:
                feed.task.cancel()
                # The cancelled reader's frame holds the feed: were the feed to hold its task (and so the task's
                # CancelledError and that frame), the two would die as a cycle, left to the collector's rare walk
                # of everything once frozen (service/platform/collector.py).
                feed.task = None

    def _break(self, feed: Feed) -> None:
        """End a feed whose reader failed: no new follower finds it, and each of its followers ends its stream."""
        breaks = self.breaks[feed.campaign_id] = self.breaks.get(feed.campaign_id, 0) + 1
        feed.broken = b"retry: %d\r\n\r\n" % min(RETRY_MS << (breaks - 1), RETRY_MS_MOST)
        if self.feeds.get(feed.campaign_id) is feed:
            del self.feeds[feed.campaign_id]
            COUNTS.feeds = len(self.feeds)
        feed.task = None
        feed.publish()

    async def _read(self, feed: Feed) -> None:
        """The feed's reader: everything after the last position read, told once, then the page's views."""
        store, campaign_id = self.store, feed.campaign_id
        look = FIRST_LOOK
        while True:
            feed.due.clear()
            try:
                if not feed.started.done():
                    # Both read before either is kept: a read that fails leaves the feed unstarted, for the retry
                    # (a feed that kept its game and not its position was never started, its followers left waiting).
                    game = await store.game_of(campaign_id)
                    position = (await store.positions([campaign_id])).get(campaign_id, 0)
                    feed.game, feed.position, feed.base = game, position, position
                    feed.started.set_result(None)
                    feed.publish()
                await self._catch_up(feed)
            except psycopg.Error as error:
                log.warning("live updates: reading campaign %s failed (%s)", campaign_id, error)
                await asyncio.sleep(0.5)
                continue
            except Exception as error:
                if not feed.started.done():
                    # The campaign is gone, or cannot be read: its followers hear of it where they wait to start.
                    feed.started.set_exception(error)
                    raise
                # A fault of ours once the feed started: its followers would wait for ever on a reader that is gone.
                # Their streams end, and the browser's EventSource, reconnecting from its last event, gets a new feed.
                log.exception("live updates: the reader of campaign %s failed; its streams end", campaign_id)
                self._break(feed)
                return
            if not await due_within(feed.due, look):
                feed.look = True
                if look == LOOK:
                    feed.beats += 1
                    await feed.tell()
            look = LOOK

    async def _catch_up(self, feed: Feed) -> None:
        store, campaign_id, game = self.store, feed.campaign_id, feed.game
        assert game is not None
        while True:
            handed = feed.handed_on()
            told: list[Told] = []
            if handed and all(s is not None for _, s in handed):
                # This process appended them: told from the append's fold, and where the feed stops is the state
                # the store's cache holds.
                for recorded, step in handed:
                    assert step is not None
                    told.append(told_from(game, recorded, step))
                feed.told = (handed[-1][0].position, handed[-1][1].after)  # type: ignore[union-attr]
            elif handed:
                told, feed.told = await narrate_on(store, campaign_id, game, [r for r, _ in handed], feed.told)
            else:
                if not feed.look and feed.heard <= feed.position:
                    break
                page = await store.history(campaign_id, after=feed.position, limit=PAGE)
                COUNTS.read += len(page)
                # A full page may have more after it. (A read that fails leaves `look` as it was, for the retry.)
                feed.look = len(page) == PAGE
                if not page:
                    # Heard of a position the log does not hold: the next look finds whatever is there.
                    feed.heard = feed.position
                    break
                told, feed.told = await narrate_on(store, campaign_id, game, page, feed.told)
            COUNTS.told += len(told)
            feed.played.hear(game, (one.type for one in told))
            for one in told:
                feed.keep(one.position, message("event", _encode(one), one.position))
            feed.position = told[-1].position
            if self.breaks:  # told events again: the campaign's readers no longer fail
                self.breaks.pop(campaign_id, None)
            await feed.tell()
        if feed.viewers and (feed.views is None or feed.views[0] != feed.position):
            # The state the feed told its last event from, where it has it: no fold again, even once the log moved on.
            if feed.told is not None and feed.told[0] == feed.position:
                position, state = feed.told
            else:
                position, state = await store.state_at(campaign_id, game, feed.position)
            answers = views_of(game, position, state)
            answers["/scenarios"] = await played(store, campaign_id, game, position, memo=feed.played, state=state)
            feed.views = (position, message("views", _encode({"position": position, "views": answers})))
            await feed.tell()

    async def follow(self, campaign_id: uuid.UUID, after: int, views: bool = False, token: str = "") -> Messages:
        """A stream's messages: every event after `after` with its sentence, then each new one as it is committed;
        with `views`, after each run of events, what the page reads (`views_of`) as of the last of them; with the
        member's `token`, a last `ended` once it no longer lets them in (live_access.py)."""
        COUNTS.streams += 1
        follower = self.access.follower(campaign_id, token)
        feed = self._feed(campaign_id)
        feed.followers += 1
        feed.viewers += views
        # Views only after events it sent: the page read them itself where it starts.
        sent_views = after
        try:
            yield FOLLOWING
            await self.access.check([follower])
            await feed.started
            while not self.closing_now and follower.ended is None and not feed.broken:
                if after < feed.base:
                    # Further behind than the feed keeps: read the log, as if alone.
                    assert feed.game is not None
                    page = await narrate(
                        self.store,
                        campaign_id,
                        feed.game,
                        await self.store.history(campaign_id, after=after, limit=min(PAGE, feed.base - after)),
                    )
                    if not page:
                        after = feed.base
                    for one in page:
                        yield message("event", _encode(one), one.position)
                        after = one.position
                    continue
                if after < feed.position:
                    last, kept = feed.after(after)
                    if kept:
                        yield b"".join(kept)
                    after = last
                    continue
                if views and feed.views is not None and feed.views[0] == after and sent_views != after:
                    sent_views = after
                    yield feed.views[1]
                    continue
                beats = feed.beats
                follower.waiting = feed.wait()
                await follower.waiting
                if feed.beats != beats and feed.position == after:
                    yield HEARTBEAT_MESSAGE
            if follower.ended is not None or self.closing_now:
                yield follower.ended or CLOSING
            elif feed.broken:
                # Its feed broke: the stream ends with no message, only a `retry:` line, and the browser reconnects
                # after 2 s the first time, twice as long each time the campaign's reader fails again before it
                # tells an event.
                yield feed.broken
        finally:
            self.access.forget(follower)
            COUNTS.streams -= 1
            feed.followers -= 1
            feed.viewers -= views
            self._drop(feed)
