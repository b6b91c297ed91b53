"""What a synchronous standby costs an append: `Store.append` of one note per transaction on a primary whose standby
(made with `pg_basebackup -R`, on the same machine) is synchronous (`synchronous_standby_names = '*'`: each commit
waits for the standby to flush it) against the same primary and standby with asynchronous replication
(`synchronous_standby_names = ''`: the standby still streams, commits do not wait for it).

The two settings take turns, round after round, switched with ALTER SYSTEM and a reload, so that both meet the same
machine. One writer, then `--writers N` at once on campaigns of their own. Needs Debian's PostgreSQL 15 binaries
(/usr/lib/postgresql/15/bin); run as root, the servers run as `postgres`.

    .venv/bin/python benchmarks/standby.py [--rounds 6] [--appends 300] [--writers 8]
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from psycopg_pool import AsyncConnectionPool  # noqa: E402

from quartermaster.service.platform.migrate import migrate  # noqa: E402
from quartermaster.service.store import Store  # noqa: E402
from tests.faults.standby import Cluster, Folder  # noqa: E402
from tests.integration.logs import new_campaign, note  # noqa: E402

MODES = {"synchronous": "'*'", "asynchronous": "''"}


async def appends(store: Store, campaigns: list, count: int) -> float:
    """Seconds per append, each writer on its own campaign, `count` appends each."""

    async def writer(campaign_id) -> None:
        for n in range(count):
            await store.append(campaign_id, [note(f"note {n}")], actor="bench")

    started = time.perf_counter()
    await asyncio.gather(*(writer(c) for c in campaigns))
    return (time.perf_counter() - started) / (count * len(campaigns))


async def sitting(primary: Cluster, rounds: int, count: int, writers: int) -> dict[tuple[str, int], list[float]]:
    seen: dict[tuple[str, int], list[float]] = {}
    async with AsyncConnectionPool(
        primary.url, min_size=writers, max_size=writers + 2, open=False, kwargs={"autocommit": True}
    ) as pool:
        store = Store(pool)
        for clients in sorted({1, writers}):
            campaigns = [await new_campaign(store) for _ in range(clients)]
            await appends(store, campaigns, 20)  # warm: prepared statements, caches
            for _ in range(rounds):
                for mode, names in MODES.items():
                    primary.sql(f"ALTER SYSTEM SET synchronous_standby_names = {names}")
                    primary.sql("SELECT pg_reload_conf()")
                    time.sleep(0.2)
                    seen.setdefault((mode, clients), []).append(await appends(store, campaigns, count))
    return seen


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rounds", type=int, default=6)
    parser.add_argument("--appends", type=int, default=300, help="appends per writer per round")
    parser.add_argument("--writers", type=int, default=8)
    args = parser.parse_args()
    folder = Folder()
    primary = Cluster(folder, "primary")
    standby = Cluster(folder, "standby")
    try:
        primary.init().start()
        standby.standby_of(primary)
        primary.make_synchronous()
        migrate(primary.url)
        seen = asyncio.run(sitting(primary, args.rounds, args.appends, args.writers))
    finally:
        for cluster in (standby, primary):
            cluster.close()
        folder.remove()
    print(f"{'writers':>7}  {'mode':<13} {'µs per append (median; min-max of rounds)':<44} appends/s")
    for (mode, clients), values in sorted(seen.items(), key=lambda kv: (kv[0][1], kv[0][0])):
        median = statistics.median(values)
        print(
            f"{clients:>7}  {mode:<13} {median * 1e6:8.0f} ({min(values) * 1e6:.0f}-{max(values) * 1e6:.0f})"
            f"{'':<24} {1 / median:9.0f}"
        )
    for clients in sorted({c for _, c in seen}):
        ratio = statistics.median(seen[("synchronous", clients)]) / statistics.median(seen[("asynchronous", clients)])
        print(f"{clients} writer(s): a synchronous append takes {ratio:.2f} × an asynchronous one")


if __name__ == "__main__":
    main()
