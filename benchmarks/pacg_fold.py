"""Fold a long random valid Skull & Shackles campaign and print events per second (not a test; never fails a build).

    .venv/bin/python benchmarks/pacg_fold.py [--scenarios 200] [--seed 1] [--profile]
    .venv/bin/python benchmarks/pacg_fold.py --store [--scenarios 10] [--rounds 3] [--profile] [--database-url URL]

The campaign is generated (and checked) first; only the fold of the already-decoded events is timed, as a
projection rebuild would run it: `projections.game.fold` over `(event, meta)` pairs from campaign.started.

`--store` measures the whole in-process path instead: the same campaign appended by `Store.append`, one event per
call, to a fresh database on the server, and as many notes appended to another campaign, taking turns in `--rounds`
rounds. It prints this process's CPU per append for each (the process's CPU time, which other work on the machine
sways much less than wall time) and their difference, what the Skull & Shackles part costs on the whole path: the
fold, `character_of`, the checkpoints' state; PostgreSQL's own CPU is not in it. `--profile` profiles the Skull &
Shackles appends once more after the rounds, under cProfile timed by CPU.
"""

from __future__ import annotations

import argparse
import cProfile
import os
import pstats
import random
import sys
import time
import uuid
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from quartermaster.events.campaign import CampaignStarted  # noqa: E402
from quartermaster.projections.game import Meta, fold  # noqa: E402
from quartermaster.projections.pacg import GAME  # noqa: E402
from tests.unit.pacg.campaigns import Campaign  # noqa: E402

DEFAULT_SERVER = "postgresql://postgres@127.0.0.1:5432/postgres"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--scenarios", type=int)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--profile", action="store_true")
    parser.add_argument("--store", action="store_true", help="the whole path: Store.append on PostgreSQL")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--database-url", default=os.environ.get("BENCH_DATABASE_URL") or DEFAULT_SERVER)
    args = parser.parse_args()
    scenarios = args.scenarios or (10 if args.store else 200)

    events = Campaign(random.Random(args.seed)).play(scenarios)
    if args.store:
        store_path(events, args)
        return
    started = CampaignStarted(name="bench", game=GAME.id, options={})
    log = [(started, Meta(1))] + [(event, Meta(i + 2)) for i, event in enumerate(events)]
    print(f"{len(log)} events over {scenarios} scenarios (seed {args.seed})")

    if args.profile:
        profiler = cProfile.Profile()
        profiler.enable()
        fold(GAME, log)
        profiler.disable()
        pstats.Stats(profiler).sort_stats("tottime").print_stats(25)
        return

    # Wall time suffers when other work shares the machine; the process's CPU time much less so. Both are shown.
    best = best_cpu = float("inf")
    for _ in range(args.repeat):
        start, start_cpu = time.perf_counter(), time.process_time()
        fold(GAME, log)
        best_cpu = min(best_cpu, time.process_time() - start_cpu)
        best = min(best, time.perf_counter() - start)
    print(
        f"best of {args.repeat}: {best:.3f} s wall, {len(log) / best:,.0f} events/s; "
        f"{best_cpu:.3f} s CPU, {len(log) / best_cpu:,.0f} events/s"
    )


def store_path(events: list[Any], args: argparse.Namespace) -> None:
    """CPU per `Store.append` of the campaign's events and of as many notes, in rounds taking turns."""
    import asyncio

    import psycopg
    from psycopg_pool import AsyncConnectionPool

    from benchmarks.store import new_campaign
    from quartermaster.events.campaign import NoteAdded
    from quartermaster.service.http.intake import prepared_event
    from quartermaster.service.platform.database import configure
    from quartermaster.service.platform.migrate import migrate
    from quartermaster.service.store import Store

    try:
        import uvloop
    except ImportError:  # Windows: asyncio's own loop, as uvicorn would take
        uvloop = None  # type: ignore[assignment]

    ready = [prepared_event(e) for e in events]
    # Made before any clock starts, as a decoded request would be.
    notes = [[prepared_event(NoteAdded(text=f"round {r} note {i}")) for i in range(len(ready))] for r in range(99)]
    name = f"qm_bench_{uuid.uuid4().hex[:12]}"
    with psycopg.connect(args.database_url, autocommit=True) as conn:
        conn.execute(f'CREATE DATABASE "{name}"')  # a generated identifier, not input
    url = psycopg.conninfo.make_conninfo(args.database_url, dbname=name)
    spent: dict[str, list[float]] = {"pacg": [], "notes": []}
    profiler = cProfile.Profile(time.process_time) if args.profile else None

    async def appended(store: Store, batch: list[Any], profile: bool) -> float:
        campaign_id = await new_campaign(store, "r")  # as the generator starts its own
        if profiler is not None and profile:
            profiler.enable()
        started = time.process_time()
        for p in batch:
            await store.append(campaign_id, [p], actor="bench")
        cpu = time.process_time() - started
        if profiler is not None and profile:
            profiler.disable()
        return cpu

    async def run() -> None:
        async with AsyncConnectionPool(
            url, min_size=1, max_size=4, open=False, configure=configure, kwargs={"autocommit": True}
        ) as pool:
            await pool.wait()
            store = Store(pool)
            await appended(store, ready[:200], False)  # warm-up: imports, prepared statements, the pool
            for r in range(args.rounds):
                spent["pacg"].append(await appended(store, ready, False))
                spent["notes"].append(await appended(store, notes[r % len(notes)], False))
            if profiler is not None:
                await appended(store, ready, True)  # a round of its own: the profiler's cost is in no figure

    try:
        migrate(url)
        # The event loop the server runs on: uvicorn takes uvloop when it is installed, as it is with the project.
        if uvloop is not None:
            uvloop.run(run())
        else:
            asyncio.run(run())
    finally:
        with psycopg.connect(args.database_url, autocommit=True) as conn:
            conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')

    n = len(ready)
    per = {key: sorted(cpu / n * 1e6 for cpu in values) for key, values in spent.items()}
    median = {key: values[len(values) // 2] for key, values in per.items()}
    print(f"{n} events over {args.scenarios or 10} scenarios (seed {args.seed}), {args.rounds} rounds taking turns")
    for key, label in (("pacg", "Skull & Shackles"), ("notes", "notes")):
        shown = ", ".join(f"{v:.0f}" for v in per[key])
        print(f"  {label:<17} {median[key]:6.0f} µs of this process's CPU per append (median; rounds {shown})")
    print(f"  the Skull & Shackles part: {median['pacg'] - median['notes']:.0f} µs per event")
    if profiler is not None:
        pstats.Stats(profiler).sort_stats("tottime").print_stats(30)


if __name__ == "__main__":
    main()
