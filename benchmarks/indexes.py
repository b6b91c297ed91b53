"""What each index of `events` costs a 1,000-event batch, measured on scratch tables of the events' shape.

    .venv/bin/python benchmarks/indexes.py [--rounds N] [--batch N] [--database-url URL]

Each variant is a table made `LIKE events` (same columns, defaults, identity and checks) with the primary key and
one set of events' other indexes, filled the way the store's WRITE fills `events` (one JSON array of arrays, read
with jsonb_array_elements), with event ids either drawn by PostgreSQL (gen_random_uuid, as before ids were drawn in
time order) or sent in time order (service/store/appending.py, time_ordered_ids). The variants take turns in every
round, in a new random order each round, so other work on the machine weighs on each alike; the figures are medians.

Per variant: the statement's time as EXPLAIN ANALYZE (TIMING OFF) reports it, the commit's time seen by the client,
and the WAL the statement wrote with its full-page images (EXPLAIN's WAL option: this statement's own WAL, not the
server's, which other databases on the server also write). Full-page images follow checkpoints: an index that takes
a batch at random leaf pages writes each page it touches whole once after every checkpoint, one that takes it at
its right edge writes a few. Like store.py it creates a database `qm_indexes_<random>` and drops it at the end.
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import sys
import time
import uuid
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

import msgspec  # noqa: E402
import psycopg  # noqa: E402

from quartermaster.service.platform.migrate import migrate  # noqa: E402
from quartermaster.service.store.appending import time_ordered_ids  # noqa: E402

DEFAULT_SERVER = "postgresql://postgres@127.0.0.1:5432/postgres"

# events' indexes besides the primary key, as the migrations leave them (and events_by_batch, dropped by 0007).
INDEXES = {
    "unique_event_id": "CREATE UNIQUE INDEX ON {table} (campaign_id, event_id)",
    "by_batch": "CREATE INDEX ON {table} (campaign_id, batch_id)",
    "by_type": "CREATE INDEX ON {table} (campaign_id, type, position)",
    "by_character": "CREATE INDEX ON {table} (campaign_id, character_id, position) WHERE character_id IS NOT NULL",
    "by_idempotency_key": (
        "CREATE UNIQUE INDEX ON {table} (campaign_id, idempotency_key) WHERE idempotency_key IS NOT NULL"
    ),
}
NOW = ["unique_event_id", "by_type", "by_character", "by_idempotency_key"]

# (name, indexes, ids drawn by PostgreSQL)
VARIANTS = [
    ("primary key alone", [], False),
    ("+ unique event id, random ids", ["unique_event_id"], True),
    ("+ unique event id, ordered ids", ["unique_event_id"], False),
    ("+ by batch", ["by_batch"], False),
    ("+ by type", ["by_type"], False),
    ("+ by character, by key (partial)", ["by_character", "by_idempotency_key"], False),
    ("all before 0007, random ids", [*NOW, "by_batch"], True),
    ("all now, random ids", NOW, True),
    ("all now, ordered ids", NOW, False),
]

INSERT = """
INSERT INTO {table} (campaign_id, position, event_id, batch_id, type, schema_version, data, actor, recorded_at,
                     occurred_at, character_id)
SELECT %(campaign)s, (e->>0)::bigint, coalesce((e->>3)::uuid, {drawn}), %(batch)s, e->>1, 1, e->2, 'bench', now(),
       (e->>4)::timestamptz, e->>5
FROM jsonb_array_elements(%(events)s::jsonb) AS e
"""

_encode = msgspec.json.Encoder().encode


def batch(first: int, size: int, ordered: bool) -> str:
    """A batch of notes as WRITE receives it: [position, type, data, event_id], the id left out to be drawn."""
    ids = time_ordered_ids(size) if ordered else [None] * size
    return _encode([(first + i, "note.added", {"text": f"batched note {i}"}, ids[i]) for i in range(size)]).decode()


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--database-url", default=os.environ.get("BENCH_DATABASE_URL") or DEFAULT_SERVER)
    parser.add_argument("--rounds", type=int, default=40, help="rounds timed (default 40), after 5 not timed")
    parser.add_argument("--batch", type=int, default=1000, help="events per batch (default 1,000)")
    args = parser.parse_args()

    name = f"qm_indexes_{uuid.uuid4().hex[:12]}"
    with psycopg.connect(args.database_url, autocommit=True) as conn:
        conn.execute(f'CREATE DATABASE "{name}"')  # a generated identifier, not input
    try:
        url = psycopg.conninfo.make_conninfo(args.database_url, dbname=name)
        migrate(url)
        with psycopg.connect(url, autocommit=True) as conn:
            tables = {}
            for number, (label, indexes, _) in enumerate(VARIANTS):
                table = f"scratch_{number}"
                conn.execute(
                    f"CREATE TABLE {table} (LIKE events INCLUDING DEFAULTS INCLUDING IDENTITY INCLUDING CONSTRAINTS)"
                )
                conn.execute(f"ALTER TABLE {table} ADD PRIMARY KEY (campaign_id, position)")
                for index in indexes:
                    conn.execute(INDEXES[index].format(table=table))
                tables[label] = table
            campaign = uuid.uuid4()
            written = dict.fromkeys(tables, 0)
            figures: dict[str, dict[str, list[float]]] = {
                label: {"statement": [], "commit": [], "wal": [], "fpi": []} for label in tables
            }
            order = list(VARIANTS)
            for round_ in range(5 + args.rounds):
                random.shuffle(order)
                for label, _, drawn in order:
                    table = tables[label]
                    statement = INSERT.format(table=table, drawn="gen_random_uuid()" if drawn else "NULL")
                    params = {
                        "campaign": campaign,
                        "batch": uuid.uuid4(),
                        "events": batch(written[label] + 1, args.batch, ordered=not drawn),
                    }
                    written[label] += args.batch
                    with conn.transaction():
                        plan = conn.execute(
                            "EXPLAIN (ANALYZE, TIMING OFF, WAL, FORMAT JSON) " + statement, params
                        ).fetchone()[0][0]
                        committing = time.perf_counter()
                    committed = time.perf_counter() - committing
                    if round_ >= 5:
                        took = figures[label]
                        took["statement"].append(plan["Execution Time"])
                        took["commit"].append(committed * 1000)
                        took["wal"].append(plan["Plan"].get("WAL Bytes", 0) / 1024)
                        took["fpi"].append(plan["Plan"].get("WAL FPI", 0))
            server = conn.execute("SHOW server_version").fetchone()[0]
    finally:
        with psycopg.connect(args.database_url, autocommit=True) as conn:
            conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')

    print(f"PostgreSQL {server}; {args.rounds} rounds of a {args.batch:,}-event batch per variant, taking turns;")
    print(f"each table holds {max(written.values()):,} events of one campaign at the end; medians (FPI: mean)\n")
    print(f"{'variant':36} {'statement ms':>12} {'commit ms':>9} {'WAL kB':>7} {'FPI':>6}")
    for label, took in figures.items():
        print(
            f"{label:36} {statistics.median(took['statement']):12.2f} {statistics.median(took['commit']):9.2f}"
            f" {statistics.median(took['wal']):7.0f} {statistics.mean(took['fpi']):6.1f}"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
