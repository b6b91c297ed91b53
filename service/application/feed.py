"""A followed campaign's feed (`Feed`): what its one reader has told, what this process's commits handed it, and who
waits on it (service/application/live.py runs the readers and the streams).

An event this process appends reaches its feed with the append's own fold of it (`store.Step`: the event as decoded
once at intake, the states before and after it), so the feed tells it without decoding or folding it again
(narration.told_from) and keeps, as where it stopped, the very state the store's cache holds: each event of a
followed campaign is decoded once and folded once per process, and the campaign's state is held once.
"""

from __future__ import annotations

import asyncio
import bisect
import uuid
from collections.abc import Sequence
from typing import Any

import msgspec

from quartermaster.projections.game import Game
from quartermaster.service.application.audit.played import Memo
from quartermaster.service.store import Appended, Recorded, Step

# Events read and told in one go, and the messages a feed keeps for followers a little behind: between RECENT and
# twice as many, about 1 KB each for a game's usual event, so a followed campaign holds a megabyte at most.
PAGE = 500
RECENT = 500
# Followers a feed's reader wakes in one turn of the event loop before letting it serve other work.
TURN = 25


class Feed:
    """One campaign followed in this process: its reader, what it has read, and who waits on it."""

    def __init__(self, campaign_id: uuid.UUID) -> None:
        self.campaign_id = campaign_id
        self.game: Game[Any] | None = None
        # Messages kept: positions[i] is the position of encoded[i]; `base` the position just before the first.
        self.base = -1
        self.position = -1
        self.positions: list[int] = []
        self.encoded: list[bytes] = []
        # The page's views as of `views[0]`, encoded as one message.
        self.views: tuple[int, bytes] | None = None
        self.followers = 0
        self.viewers = 0
        self.started = asyncio.get_running_loop().create_future()
        # One future per waiting follower: a follower that leaves cancels only its own.
        self.waiting: list[asyncio.Future[None]] = []
        self.due = asyncio.Event()
        # Events this process committed, handed over after each commit (`hand`); `heard`, the furthest position a
        # wake-up named; `look`, whether one named none (a timer, a reconnect). Either of the last two sends the
        # reader to the log for what was not handed over.
        self.handed: list[tuple[Recorded, Step | None]] = []
        self.heard = -1
        self.look = False
        # How many times the reader looked and found nothing: each is a heartbeat for its followers.
        self.beats = 0
        self.told: tuple[int, Any] | None = None
        # What the page's `/scenarios` view was last made of, to make the next without the log (audit/played.py).
        self.played = Memo()
        self.task: asyncio.Task[None] | None = None
        # The reader failed after it started (live.py's `_break`): the feed's followers end their streams, each with
        # this last line, which tells the browser how long to wait before it reconnects.
        self.broken = b""

    def hint(self, position: int | None) -> None:
        """Wake the reader: the log reaches `position` (None: look, it may have moved)."""
        if position is None:
            self.look = True
        elif position > self.position:
            self.heard = max(self.heard, position)
        else:
            return
        self.due.set()

    def hand(self, appended: Appended) -> None:
        """A batch this process has just committed, to tell without reading it back, with the append's fold of each
        event where it has one. A reader that has fallen further behind than a page reads the log instead."""
        events = appended.events
        if not events:
            return
        if len(self.handed) + len(events) > PAGE:
            self.handed = []
            self.look = True
        else:
            # Without a step for each event (a batch this process did not fold), the feed folds them itself.
            steps: Sequence[Step | None] = appended.steps or ()
            if len(steps) != len(events):
                steps = [None] * len(events)
            self.handed.extend(zip(map(_as_read, events), steps, strict=True))
        self.hint(events[-1].position)

    def handed_on(self) -> list[tuple[Recorded, Step | None]]:
        """The events handed over that follow on from the feed's position, in order (those at or before it are
        dropped, those after a gap kept), each with its step."""
        after = self.position
        ahead = {r.position: (r, s) for r, s in self.handed if r.position > after}
        run = []
        while (next_ := ahead.pop(after + 1, None)) is not None:
            run.append(next_)
            after += 1
        self.handed = list(ahead.values())
        return run

    def wait(self) -> asyncio.Future[None]:
        """A future resolved at the feed's next news."""
        future = asyncio.get_running_loop().create_future()
        self.waiting.append(future)
        return future

    def publish(self) -> None:
        """Wake every waiting follower at once."""
        waiting, self.waiting = self.waiting, []
        for future in waiting:
            if not future.done():
                future.set_result(None)

    async def tell(self) -> None:
        """Wake every waiting follower, `TURN` of them in each turn of the event loop."""
        waiting, self.waiting = self.waiting, []
        for start in range(0, len(waiting), TURN):
            if start:
                await asyncio.sleep(0)
            for future in waiting[start : start + TURN]:
                if not future.done():
                    future.set_result(None)

    def keep(self, position: int, encoded: bytes) -> None:
        self.positions.append(position)
        self.encoded.append(encoded)
        if len(self.positions) > 2 * RECENT:
            self.base = self.positions[-RECENT - 1]
            del self.positions[:-RECENT], self.encoded[:-RECENT]

    def after(self, position: int) -> tuple[int, list[bytes]]:
        """The kept messages after `position`, and the position of the last of them."""
        start = bisect.bisect_right(self.positions, position)
        return self.position, self.encoded[start:]


def _as_read(recorded: Recorded) -> Recorded:
    """A committed event as the log reads it back: its `occurred_at` in the connection's time zone, which its
    `recorded_at` (read back from the statement) already has."""
    if recorded.occurred_at is None:
        return recorded
    return msgspec.structs.replace(recorded, occurred_at=recorded.occurred_at.astimezone(recorded.recorded_at.tzinfo))


async def due_within(due: asyncio.Event, seconds: float) -> bool:
    """Wait until `due` is set or `seconds` pass: whether something else than the time set it. (asyncio.wait_for
    would start a task for each wait, and a feed waits once per event it reads.)"""
    if due.is_set():
        return True
    timed_out = False

    def time_out() -> None:
        nonlocal timed_out
        timed_out = True
        due.set()

    timer = asyncio.get_running_loop().call_later(seconds, time_out)
    try:
        await due.wait()
    finally:
        timer.cancel()
    return not timed_out
