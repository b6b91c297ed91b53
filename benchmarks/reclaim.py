"""The collector's rare walk of everything: how long it stops a process that follows many tables.

    .venv/bin/python benchmarks/reclaim.py [--tables 2000] [--database-url URL]

Not a test: it never fails on time. In one process, as a serving process holds them: the app's modules, catalogues and
schemas loaded (`create_app`), then `--tables` Skull & Shackles campaigns set up as the rulebook's Example of Play,
each followed by a live stream with the page's views after one event (the feeds, their states and views, the streams'
coroutines; not the HTTP requests and protocols of a real server, so this is the least a real process walks). Then the
collector's policy (service/platform/collector.py) as it runs: a step (what every `EVERY` seconds walks), and a walk
of everything (what at most every `RECLAIM` seconds walks: every frozen object unfrozen and collected), each timed,
three times, with the objects each walked. Then `--visits` times every table's phone goes and comes back (its stream
closed, its feed dropped, a new stream, an event, the views), a step after each, as phones come and go through a day;
a last walk of everything says how many objects those visits left unreachable among the frozen ones, which only that
walk frees. A database `qm_reclaim_<random>` is made on --database-url (else $BENCH_DATABASE_URL, else the local
server) and dropped at the end.
"""

from __future__ import annotations

import argparse
import asyncio
import gc
import os
import sys
import time
import uuid
from pathlib import Path
from typing import Any

import msgspec

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from benchmarks.scratch import scratch_database  # noqa: E402
from quartermaster.service.app import create_app  # noqa: E402
from quartermaster.service.http.intake import prepare  # noqa: E402
from quartermaster.service.http.requests import NewEvent  # noqa: E402
from quartermaster.service.platform import collector as collecting  # noqa: E402
from quartermaster.service.platform.settings import Settings  # noqa: E402
from tests.integration.following import GAME, new_campaign, note, process  # noqa: E402
from tests.unit.pacg.example_of_play import SETTING_UP  # noqa: E402


def timed(walk: str) -> tuple[float, int]:
    """One walk, timed: `step` (what is not frozen) or `everything`; answers milliseconds and objects walked."""
    if walk == "everything":
        gc.unfreeze()
    walked = len(gc.get_objects())
    begun = time.perf_counter()
    gc.collect()
    took = (time.perf_counter() - begun) * 1000
    gc.freeze()
    return took, walked


async def follow(url: str, tables: int, visits: int) -> None:
    setup = prepare(GAME, msgspec.convert(SETTING_UP, list[NewEvent]))
    async with process(url, pool_size=8) as (store, wakeups, _):
        campaigns: list[uuid.UUID] = []
        for start in range(0, tables, 50):
            made = await asyncio.gather(*(new_campaign(store) for _ in range(start, min(tables, start + 50))))
            await asyncio.gather(*(store.append(c, setup, actor="owner") for c in made))
            campaigns += made

        async def a_visit() -> list[Any]:
            """Every table's phone comes (a stream with the page's views), an event is logged, and the views sent."""
            streams = [wakeups.follow(campaign, 0, views=True) for campaign in campaigns]
            for stream in streams:
                await anext(stream)
            for start in range(0, tables, 50):
                await asyncio.gather(
                    *(store.append(c, [note("a shanty")], actor="owner") for c in campaigns[start : start + 50])
                )
            last = {c: store.cache.latest(c)[0] for c in campaigns}
            while any(wakeups.feeds[c].views is None or wakeups.feeds[c].views[0] != last[c] for c in campaigns):
                await asyncio.sleep(0.05)
            return streams

        streams = await a_visit()
        print(f"{tables:,} tables followed with the page's views", file=sys.stderr)
        for _ in range(3):
            step, stepped = timed("step")
            everything, walked = timed("everything")
            print(f"| {tables:,} | {stepped:,} | {step:.1f} | {walked:,} | {everything:.1f} |")
        # Phones coming and going: each visit's streams end, each table's feed with them, after the collector's step
        # froze them; what of them a walk of everything then finds unreachable is what frozen garbage a visit leaves.
        for _ in range(visits):
            for stream in streams:
                await stream.aclose()
            streams = await a_visit()
            timed("step")
        for stream in streams:
            await stream.aclose()
        timed("step")
        gc.unfreeze()
        found = gc.collect()
        gc.freeze()
        print(
            f"\n{visits} visits of every table's phone (a stream opened, an event, the views, the stream closed), each "
            f"frozen by a step: a walk of everything then found {found:,} unreachable objects, "
            f"{found / max(1, visits * tables):.1f} a visit"
        )


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tables", type=int, default=2000)
    parser.add_argument("--visits", type=int, default=5, help="times every table's phone comes and goes after")
    parser.add_argument(
        "--database-url", default=os.environ.get("BENCH_DATABASE_URL", "postgresql://postgres@127.0.0.1:5432/postgres")
    )
    args = parser.parse_args()
    with scratch_database(args.database_url, "qm_reclaim") as url:
        create_app(Settings(database_url=url), url)  # what a serving process has loaded before it follows anything
        gc.collect()
        gc.freeze()
        print(f"frozen at start-up (modules, catalogues, schemas): {gc.get_freeze_count():,} objects", file=sys.stderr)
        print("| tables | a step walks | ms | everything walks | ms |\n|---:|---:|---:|---:|---:|")
        try:
            asyncio.run(follow(url, args.tables, args.visits))
        finally:
            gc.unfreeze()
    every, reclaim = collecting.EVERY, collecting.RECLAIM
    print(f"(the collector's policy: a step every {every:g} s, everything at most every {reclaim:g} s)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
