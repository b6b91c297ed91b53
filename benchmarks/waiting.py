"""What waiting for PostgreSQL costs the waiting process's CPU, on this machine.

    .venv/bin/python benchmarks/waiting.py [--database-url URL] [--rounds N] [--per-round N]

Not a test, and not about Quartermaster: it measures the machine. One async psycopg connection inserts single rows,
each its own transaction, the same client work every time, and PostgreSQL answers either after the commit's WAL
flush (`synchronous_commit` on, as everywhere else) or before it (off, for this connection only). The client's CPU
per insert is read from the process's CPU time, in rounds taking turns.

Where an idle CPU costs the next code its warmth (a virtual machine whose idle vCPU halts and is entered again, say),
the longer wait makes the same work cost more CPU. That is part of every server CPU figure of a request that waits on
a commit, the HTTP floor's included (benchmarks/README.md, "server CPU per append"). It creates a scratch database
`qm_wait_<random>` on the server (from --database-url, else $BENCH_DATABASE_URL, else
postgresql://postgres@127.0.0.1:5432/postgres) and drops it.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import time
import uuid
from datetime import UTC, datetime
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

import psycopg  # noqa: E402

from benchmarks.scratch import scratch_database  # noqa: E402
from benchmarks.store import DEFAULT_SERVER, FLOOR_ROW, NOTE, create_floor_table, run_loop  # noqa: E402


async def measure(url: str, rounds: int, per_round: int) -> dict[str, list[tuple[float, float]]]:
    """(client CPU µs, wall µs) per insert, per round, for each way of committing."""
    data = json.dumps(NOTE["data"])
    campaign, position, now = uuid.uuid4(), 0, datetime.now(UTC)
    spent: dict[str, list[tuple[float, float]]] = {"after the flush": [], "before the flush": []}
    connections = {}
    for way in spent:
        conn = await psycopg.AsyncConnection.connect(url, autocommit=True)
        if way == "before the flush":
            await conn.execute("SET synchronous_commit = off")
        connections[way] = conn
    try:
        for number in range(rounds + 1):  # the first round warms up
            for way in spent if number % 2 else reversed(spent):
                cursor = connections[way].cursor()
                cpu, started = time.process_time(), time.perf_counter()
                for _ in range(per_round):
                    position += 1
                    row = (campaign, position, uuid.uuid4(), uuid.uuid4(), "note.added", data, "wait", now)
                    await cursor.execute(FLOOR_ROW, (*row, None, None))
                if number:
                    spent[way].append(
                        (
                            (time.process_time() - cpu) / per_round * 1e6,
                            (time.perf_counter() - started) / per_round * 1e6,
                        )
                    )
    finally:
        for conn in connections.values():
            await conn.close()
    return spent


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--database-url", default=os.environ.get("BENCH_DATABASE_URL", DEFAULT_SERVER))
    parser.add_argument("--rounds", type=int, default=10)
    parser.add_argument("--per-round", type=int, default=300)
    args = parser.parse_args()
    with scratch_database(args.database_url, "qm_wait") as url:
        create_floor_table(url)
        spent = run_loop(measure(url, args.rounds, args.per_round))
    print(f"{args.rounds} rounds of {args.per_round} single-row inserts, one async connection, the same client work:")
    for way, rounds in spent.items():
        cpu, wall = statistics.median(r[0] for r in rounds), statistics.median(r[1] for r in rounds)
        print(f"  PostgreSQL answers {way:16s}: {wall:6.1f} µs an insert, the client's CPU {cpu:6.1f} µs")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
