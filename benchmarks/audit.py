"""How long the audit takes on a long Skull & Shackles scenario (the goal: a report in under a second).

    .venv/bin/python benchmarks/audit.py [--events 100000] [--database-url URL]

Not a test: it never fails on time. It creates a fresh database `qm_bench_audit_<random>`, migrates it, posts the
rulebook's Example of Play setup (Dangerous Waters) and then turn after turn of play through the HTTP API, 1,000
events a request, until the campaign holds `--events` events, all in one scenario: each turn advances the
hourglass, then its character shuffles a card into her deck and draws it again and again, with a check rolled every
tenth event (so a 100,000-event scenario holds about 10,000 checks, every one listed in the report). Then it
times, over the real app (Litestar's test client, one process), the scenarios list, the report as JSON and as
Markdown, a diff and a recap of the last turn, and a fork at the middle; each is run `--repeat` times and the median
is printed. The database is dropped at the end.
"""

from __future__ import annotations

import argparse
import os
import platform
import statistics
import sys
import time
import uuid
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

import psycopg  # noqa: E402
from litestar.testing import TestClient  # noqa: E402

from quartermaster.service.app import create_app  # noqa: E402
from quartermaster.service.platform.migrate import migrate  # noqa: E402
from quartermaster.service.platform.settings import Settings  # noqa: E402
from tests.unit.pacg.example_of_play import OPTIONS, SETTING_UP, advance  # noqa: E402
from tests.unit.pacg.pacg_world import move, zone  # noqa: E402

DEFAULT_SERVER = "postgresql://postgres@127.0.0.1:5432/postgres"
# Each character cycles one card of her starting hand between hand and deck.
CYCLING = {"lirianne": "Pistol", "seltyiel": "Longsword", "alahazra": "Cure"}
TURNS = 25  # the hourglass holds 30 blessings


def turn(who: str, length: int, first: int) -> list[dict[str, Any]]:
    """A turn of `length` events: the hourglass advances, then recharge, draw, ... with a check every tenth."""
    card = CYCLING[who]
    events: list[dict[str, Any]] = [advance(who, "Blessing of the Gods")]
    in_hand = True
    while len(events) < length:
        if (first + len(events)) % 10 == 0:
            events.append(
                {
                    "type": "dice.rolled",
                    "data": {
                        "character_id": who,
                        "purpose": "check",
                        "skill": "Dexterity",
                        "difficulty": 8,
                        "dice": [{"sides": 8, "face": 1 + len(events) % 8}],
                        "total": 1 + len(events) % 8,
                        "success": 1 + len(events) % 8 >= 8,
                    },
                }
            )
        elif in_hand:
            # Shuffled in, not recharged: a recharged card goes to the bottom, and a draw takes the top card.
            events.append(move(card, "shuffle", zone("hand", who), zone("deck", who)))
            in_hand = False
        else:
            events.append(move(card, "draw", zone("deck", who), zone("hand", who)))
            in_hand = True
    if not in_hand:  # end the turn with the card back in hand
        events.append(move(card, "draw", zone("deck", who), zone("hand", who)))
    return events


def timed(repeat: int, call: Any) -> tuple[float, Any]:
    runs, answer = [], None
    for _ in range(repeat):
        started = time.perf_counter()
        answer = call()
        runs.append(time.perf_counter() - started)
    return statistics.median(runs) * 1000, answer


def run(url: str, total: int, repeat: int) -> list[tuple[str, float, str]]:
    settings = Settings(max_body_bytes=16 * 1024 * 1024, pool_min=1, pool_max=4)
    with TestClient(create_app(settings, url)) as client:
        created = client.post(
            "/v1/campaigns",
            json={"name": "Dangerous Waters, at length", "game": "pacg-skull-and-shackles", "options": OPTIONS},
        ).json()
        campaign, headers = created["id"], {"Authorization": f"Bearer {created['token']}"}

        def post(events: list[dict[str, Any]]) -> None:
            for start in range(0, len(events), 1000):
                answer = client.post(
                    f"/v1/campaigns/{campaign}/events", json={"events": events[start : start + 1000]}, headers=headers
                )
                assert answer.status_code == 201, answer.text[:500]

        post(SETTING_UP)
        position = 2 + len(SETTING_UP)
        length = (total - position) // TURNS
        order = list(CYCLING)
        last_turn_start = position
        for number in range(TURNS):
            events = turn(order[number % 3], min(length, total - position), position + 1)
            last_turn_start = position
            post(events)
            position += len(events)
            print(f"  built {position:,} events", end="\r", file=sys.stderr, flush=True)
        print(file=sys.stderr)
        base = f"/v1/campaigns/{campaign}"
        markdown = {**headers, "Accept": "text/markdown"}
        figures = []

        def get(path: str, params: dict[str, Any], with_headers: dict[str, str] = headers) -> Any:
            answer = client.get(base + path, params=params, headers=with_headers)
            assert answer.status_code == 200, answer.text[:500]
            return answer

        ms, answer = timed(repeat, lambda: get("/report", {"scenario": "Dangerous Waters"}))
        report = answer.json()
        figures.append(
            (
                f"report, JSON ({report['events']:,} events, {report['checks']:,} checks, "
                f"{len(answer.content) / 1e6:.1f} MB)",
                ms,
                "ms",
            )
        )
        ms, answer = timed(repeat, lambda: get("/report", {"scenario": "Dangerous Waters"}, markdown))
        figures.append((f"report, Markdown ({len(answer.content) / 1e6:.1f} MB)", ms, "ms"))
        ms, _ = timed(repeat, lambda: get("/scenarios", {}))
        figures.append(("scenarios list", ms, "ms"))
        ms, _ = timed(repeat, lambda: get("/diff", {"from": last_turn_start, "to": position}))
        figures.append((f"diff over the last turn ({position - last_turn_start:,} events)", ms, "ms"))
        ms, _ = timed(repeat, lambda: get("/recap", {"from": last_turn_start, "to": position}))
        figures.append((f"recap of the last turn ({position - last_turn_start:,} events)", ms, "ms"))
        ms, _ = timed(1, lambda: client.post(f"{base}/fork", json={"at": position // 2}, headers=headers))
        figures.append((f"fork at the middle ({position // 2:,} events folded and inserted)", ms, "ms"))
        return figures


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--database-url", default=os.environ.get("BENCH_DATABASE_URL") or DEFAULT_SERVER)
    parser.add_argument("--events", type=int, default=100_000)
    parser.add_argument("--repeat", type=int, default=5)
    args = parser.parse_args()
    name = f"qm_bench_audit_{uuid.uuid4().hex[:12]}"
    with psycopg.connect(args.database_url, autocommit=True) as conn:
        conn.execute(f'CREATE DATABASE "{name}"')  # a generated identifier, not input
        version = conn.execute("SHOW server_version").fetchone()[0]
    url = psycopg.conninfo.make_conninfo(args.database_url, dbname=name)
    try:
        migrate(url)
        figures = run(url, args.events, args.repeat)
    finally:
        with psycopg.connect(args.database_url, autocommit=True) as conn:
            conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
    print(
        f"PostgreSQL {version}, Python {platform.python_version()}, {os.cpu_count()} cores, "
        f"median of {args.repeat} (the fork once)"
    )
    for what, value, unit in figures:
        print(f"  {what:<70} {value:>9,.1f} {unit}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
