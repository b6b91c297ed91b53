"""What telling other processes of a commit costs the writers: NOTIFY inside the append's transaction, `pg_notify`
after the commit on a connection of its own, or nothing.

    .venv/bin/python benchmarks/notify.py [--writers 16] [--per-round 200] [--rounds 6]

The machine and PostgreSQL alone, not Quartermaster's code: `--writers` async psycopg connections each insert single
rows shaped like events into a scratch table (`LIKE events INCLUDING ALL`), one transaction each, in three variants
taking turns every round (the order rotated):

- `none`: the insert and its commit;
- `in transaction`: `BEGIN; INSERT ...; SELECT pg_notify(...); COMMIT`, as the appends once did. PostgreSQL takes a
  lock on the notification queue, for the whole database, from the notifying transaction's commit until its end, so
  notifying commits wait for one another;
- `after commit`: the insert commits as in `none`, then the writer hands the campaign and position to one sender,
  which sends every one pending in a single `SELECT pg_notify(...) FROM unnest(...)` on its own connection, as
  service/application/live.py does.

A listening connection counts what arrives, and the delay from each commit to its notification is reported (p50,
p99). Printed: each variant's aggregate inserts per second (median of rounds) and its ratio to `none`.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import platform
import statistics
import sys
import time
import uuid
from pathlib import Path

import psycopg

sys.path.insert(0, str(Path(__file__).resolve().parent))

from store import DEFAULT_SERVER, ROOT, pct  # noqa: E402
from versus import fresh_database  # noqa: E402

CHANNEL = "bench_notify"
INSERT = (
    "INSERT INTO bench_notify (campaign_id, position, event_id, batch_id, type, data, actor, recorded_at)"
    " VALUES (%s, %s, %s, %s, 'note.added', '{\"text\": \"x\"}'::jsonb, 'bench', now())"
)


async def variant(url: str, kind: str, writers: int, per: int, heard: dict[str, float]) -> tuple[float, list[float]]:
    """Aggregate inserts per second and each notification's delay (ms)."""
    connections = [await psycopg.AsyncConnection.connect(url, autocommit=True) for _ in range(writers)]
    sender = await psycopg.AsyncConnection.connect(url, autocommit=True)
    pending: dict[str, float] = {}
    due = asyncio.Event()
    committed: dict[str, float] = {}

    async def send() -> None:
        while True:
            await due.wait()
            due.clear()
            batch = list(pending)
            pending.clear()
            await sender.execute("SELECT pg_notify(%s, p) FROM unnest(%s::text[]) AS p", (CHANNEL, batch))

    async def write(conn: psycopg.AsyncConnection, n: int) -> None:
        campaign = uuid.uuid4()
        for position in range(1, per + 1):
            payload = f"{campaign} {position}"
            args = (campaign, position, uuid.uuid4(), uuid.uuid4())
            if kind == "in transaction":
                async with conn.transaction():
                    await conn.execute(INSERT, args)
                    await conn.execute("SELECT pg_notify(%s, %s)", (CHANNEL, payload))
                committed[payload] = time.perf_counter()
            else:
                await conn.execute(INSERT, args)
                committed[payload] = time.perf_counter()
                if kind == "after commit":
                    pending[payload] = committed[payload]
                    due.set()

    sending = asyncio.create_task(send())
    started = time.perf_counter()
    await asyncio.gather(*(write(c, n) for n, c in enumerate(connections)))
    elapsed = time.perf_counter() - started
    await asyncio.sleep(0.3)  # the last notifications arrive
    sending.cancel()
    for conn in [*connections, sender]:
        await conn.close()
    delays = [(heard[p] - t) * 1000 for p, t in committed.items() if p in heard]
    return writers * per / elapsed, delays


async def main_async(url: str, writers: int, per: int, rounds: int) -> dict[str, tuple[list[float], list[float]]]:
    heard: dict[str, float] = {}
    listener = await psycopg.AsyncConnection.connect(url, autocommit=True)
    await listener.execute(f"LISTEN {CHANNEL}")

    async def listen() -> None:
        async for note in listener.notifies():
            heard[note.payload] = time.perf_counter()

    listening = asyncio.create_task(listen())
    kinds = ["none", "in transaction", "after commit"]
    found: dict[str, tuple[list[float], list[float]]] = {k: ([], []) for k in kinds}
    await variant(url, "none", writers, per // 4, heard)  # warm up
    for round_ in range(rounds):
        for kind in kinds[round_ % 3 :] + kinds[: round_ % 3]:
            rate, delays = await variant(url, kind, writers, per, heard)
            found[kind][0].append(rate)
            found[kind][1].extend(delays)
    listening.cancel()
    await listener.close()
    return found


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--database-url", default=os.environ.get("BENCH_DATABASE_URL") or DEFAULT_SERVER)
    parser.add_argument("--writers", type=int, default=16)
    parser.add_argument("--per-round", type=int, default=200)
    parser.add_argument("--rounds", type=int, default=6)
    args = parser.parse_args()
    name, url = fresh_database(args.database_url, ROOT)
    try:
        with psycopg.connect(url, autocommit=True) as conn:
            conn.execute("CREATE TABLE bench_notify (LIKE events INCLUDING ALL)")
            version = conn.execute("SHOW server_version").fetchone()[0]
        found = asyncio.run(main_async(url, args.writers, args.per_round, args.rounds))
    finally:
        with psycopg.connect(args.database_url, autocommit=True) as conn:
            conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
    print(
        f"PostgreSQL {version}, Python {platform.python_version()}, {os.cpu_count()} cores, load {os.getloadavg()}, "
        f"{args.writers} writers, {args.rounds} rounds of {args.per_round} inserts each"
    )
    base = statistics.median(found["none"][0])
    for kind, (rates, delays) in found.items():
        rate = statistics.median(rates)
        heard = f", notified p50 {statistics.median(delays):.1f} ms p99 {pct(delays, 0.99):.1f} ms" if delays else ""
        print(f"  {kind:<15} {rate:>8,.0f} inserts/s  {rate / base:.2f} x none{heard}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
