"""The garbage collector, set on purpose: what lives long is frozen out of its full passes, a step at a time.

A serving process holds, for each campaign it follows, its folded state, its feed and each phone's open stream (the
stream's task, its coroutines, Litestar's request and uvicorn's protocol): several hundred objects the collector
tracks per table, about 600,000 at 670 tables. CPython's full pass walks every one of them, and it comes whenever
what survived into the oldest generation since the last full pass reaches a quarter of what that pass found: with
tables followed, several times a minute, each pass a stall of every request and stream for as long as it lasts
(benchmarks/README.md, "Capacity").

`Collector.step`, every `EVERY` seconds: a full pass over what is not frozen yet (what was built since the last
step, most of it already gone: a short pass), then `gc.freeze()` moves what survived into the permanent generation,
which no pass walks. CPython's own full passes then walk only what was built since the last step. Objects frozen are
still freed when nothing refers to them any more; what a frozen object can no longer be is collected as part of a
cycle. So when the frozen objects have grown by `GROWTH` since the last time everything was walked, and at most once
every `RECLAIM` seconds, a step unfreezes them all first: one full pass as long as CPython's own, taken on purpose
and rarely, which collects the cycles that died while frozen.

What dies that way is mostly the HTTP stack's: each live stream that ends leaves about 70 objects in cycles of
uvicorn's protocol and of Litestar's and anyio's cancelled tasks (a feed of ours, about 34, until it let go of its
reader task; benchmarks/README.md). Phones come and go all day, so `RECLAIM` is ten minutes, not an hour: a busy
process keeps at most ten minutes of that garbage, at the price of a full walk that often when it has grown by half.

A burst (tables set up by the hundred, or every phone of a restarted server reconnecting) builds faster than the
steps freeze: the event loop is busy, a step's timer fires late, and meanwhile CPython's own full passes come one on
another, each over all that was built since the last step, a quarter more each time (33, 53, 84, 112 ms within one
second, then the late step's 121 ms, while 1,000 tables were added; benchmarks/README.md). So whenever any full pass
ends, CPython's or a step's, what survived it is frozen at once (`after_pass`, in `gc.callbacks`): the next pass
walks only what was built since the last, however busy the loop.

The generations' thresholds stay CPython's (700, 10, 10): a young pass walks at most a few thousand objects, and the
full passes, which the thresholds do not bound, are what the steps keep short.
"""

from __future__ import annotations

import asyncio
import gc
import time

# Seconds between two steps: a step's pass walks what was built since the last one, so a short interval keeps each
# pass short (in steady load, the longest pass of a minute fell from 10-25 ms at 2 s to under 5 ms at 0.25 s); with
# nothing built a step takes microseconds.
EVERY = 0.25
# Everything is walked again once the frozen objects have grown by this factor since it last was...
GROWTH = 1.5
# ...and no more often than this (seconds): the most garbage a process keeps among its frozen objects (above).
RECLAIM = 600.0


class Collector:
    """This process's collector policy (module docstring)."""

    def __init__(self) -> None:
        self.walked = 0  # frozen objects right after everything was last walked
        self.walked_at = 0.0  # when (time.monotonic)
        self.steps = 0
        self.reclaims = 0
        self._task: asyncio.Task[None] | None = None

    def after_pass(self, phase: str, info: dict[str, int]) -> None:
        """A callback of `gc.callbacks`: once a full pass ends, freeze what survived it. (Every generation has just
        been walked, so what is frozen is what lives, as after a step.)"""
        if phase == "stop" and info["generation"] == 2:
            gc.freeze()

    def step(self) -> None:
        """Collect what is not frozen, and freeze what survived; every so often, walk everything first."""
        now = time.monotonic()
        # Counting the frozen objects walks them all (CPython keeps them in a list without its length): only once
        # RECLAIM has passed may everything be walked again, so only then are they counted.
        everything = not self.walked or (
            now - self.walked_at >= RECLAIM and gc.get_freeze_count() > GROWTH * self.walked
        )
        if everything and self.walked:
            gc.unfreeze()
            self.reclaims += 1
        gc.collect()
        gc.freeze()
        self.steps += 1
        if everything:
            self.walked, self.walked_at = max(1, gc.get_freeze_count()), now

    def start(self) -> None:
        """Freeze what start-up loaded (code, catalogues, schemas), then step every `EVERY` seconds."""
        gc.freeze()
        self.walked, self.walked_at = max(1, gc.get_freeze_count()), time.monotonic()
        gc.callbacks.append(self.after_pass)
        self._task = asyncio.get_running_loop().create_task(self._run())

    async def stop(self) -> None:
        if self.after_pass in gc.callbacks:
            gc.callbacks.remove(self.after_pass)
        if self._task is not None:
            self._task.cancel()
            await asyncio.gather(self._task, return_exceptions=True)
            self._task = None

    async def _run(self) -> None:
        while True:
            await asyncio.sleep(EVERY)
            self.step()
