"""The live path over HTTP: how soon every follower of a campaign sees an append, what each costs the server, and
what followers do to the writers.

    .venv/bin/python benchmarks/live.py [--ref REF] [--followers 6,200] [--events 200] [--interval 0.05]

Not a test: it never fails on time. For this checkout's server (and, with `--ref`, another commit's, exported with
`git archive` as versus.py does, each on a fresh database migrated by its own code, measured in the same sitting),
it starts a uvicorn serving the app in a process of its own (store.py's `Server`, default pool of 2 to 16) and:

1. without followers, appends `--events` single notes, one every `--interval` seconds, over one keep-alive
   connection: each append's latency and the server's CPU;
2. for each count in `--followers`: opens that many streams of the campaign (`GET /stream`, raw HTTP/1.1 over
   asyncio streams in this process, as store.py's client, since httpx would measure itself), then appends the same
   way. For every event and follower, the delay from the append's request to the follower's receipt of that
   position (p50, p99, max); appends refused (any answer but 201) and their latency beside step 1's; streams that
   closed and reconnected (with Last-Event-ID, so nothing is missed); server CPU per delivered event per follower:
   the server's CPU over the run, less step 1's CPU for as many appends, divided by events times followers (which
   holds the cost of reading and telling each event once, spread over the followers), and what one more follower
   costs: the difference between the largest and the smallest count's CPU over the difference in deliveries;
3. across processes: a second server on the same database holds 6 followers while the appends go to the first.

Every figure comes from one run on one machine, with client and servers sharing its cores.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import platform
import re
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx
import psycopg

sys.path.insert(0, str(Path(__file__).resolve().parent))

from store import APPEND_ONE, DEFAULT_SERVER, PROFILE, ROOT, Connection, HttpCampaign, Server, http_campaign, pct  # noqa: E402
from versus import side_database, sides  # noqa: E402

ID = re.compile(rb"(?:^|\n)id: (\d+)")


@dataclass
class Run:
    """What one writer and its followers saw."""

    sent: dict[int, float] = field(default_factory=dict)
    append_ms: list[float] = field(default_factory=list)
    refused: int = 0
    received: dict[int, list[float]] = field(default_factory=dict)
    reconnects: int = 0

    def delays_ms(self) -> list[float]:
        return [(t - self.sent[p]) * 1000 for p, times in self.received.items() if p in self.sent for t in times]


async def follower(base: str, campaign: Any, after: int, run: Run, opened: asyncio.Event, stop: asyncio.Event) -> None:
    host, _, port = base.removeprefix("http://").partition(":")
    last = after
    while not stop.is_set():
        reader, writer = await asyncio.open_connection(host, int(port))
        head = "".join(f"{k}: {v}\r\n" for k, v in campaign.headers.items())
        writer.write(
            f"GET /v1/campaigns/{campaign.id}/stream?after={last} HTTP/1.1\r\nHost: {host}\r\n"
            f"Accept: text/event-stream\r\nLast-Event-ID: {last}\r\n{head}\r\n".encode()
        )
        status = await reader.readline()
        if b" 200 " not in status:
            raise RuntimeError(f"the stream answered {status!r}")
        while await reader.readline() not in (b"\r\n", b""):
            pass
        opened.set()
        tail = b""
        while not stop.is_set():
            chunk = await reader.read(65536)
            if not chunk:
                break
            now = time.perf_counter()
            text = tail + chunk
            for found in ID.finditer(text):
                position = int(found.group(1))
                if position > last:
                    run.received.setdefault(position, []).append(now)
                    last = position
            tail = text[-64:]
        writer.close()
        if not stop.is_set():
            run.reconnects += 1


async def write(base: str, campaign: Any, events: int, interval: float, run: Run) -> int:
    """Append `events` notes, one every `interval` seconds; the last position."""
    position = 0
    async with Connection(base) as connection:
        path = f"/v1/campaigns/{campaign.id}/events"
        next_at = time.perf_counter()
        for _ in range(events):
            next_at += interval
            begun = time.perf_counter()
            status, answer = await connection.post(path, APPEND_ONE, campaign.headers)
            done = time.perf_counter()
            if status != 201:
                run.refused += 1
            else:
                position = json.loads(answer)["last_position"]
                run.sent[position] = begun
                run.append_ms.append((done - begun) * 1000)
            await asyncio.sleep(max(0.0, next_at - time.perf_counter()))
    return position


async def session(
    writer_base: str, follower_base: str, campaign: Any, followers: int, events: int, interval: float
) -> Run:
    """`followers` streams in this process; the appends from a process of their own, so that what the followers
    cost this client's event loop does not count in the appends' latency (perf_counter is one clock across
    processes)."""
    run = Run()
    stop = asyncio.Event()
    async with Connection(writer_base) as connection:
        status, answer = await connection.get(f"/v1/campaigns/{campaign.id}", campaign.headers)
        after = json.loads(answer)["position"]
    opened = [asyncio.Event() for _ in range(followers)]
    tasks = [
        asyncio.create_task(follower(follower_base, campaign, after, run, opened[n], stop)) for n in range(followers)
    ]
    await asyncio.gather(*(o.wait() for o in opened))
    await asyncio.sleep(1.0)  # every stream has read what there was and waits
    writer = await asyncio.create_subprocess_exec(
        sys.executable,
        __file__,
        "--write",
        json.dumps([writer_base, campaign.id, campaign.headers, events, interval]),
        stdout=asyncio.subprocess.PIPE,
    )
    said, _ = await writer.communicate()
    written = json.loads(said)
    run.sent = {int(p): t for p, t in written["sent"].items()}
    run.append_ms, run.refused, last = written["append_ms"], written["refused"], written["last"]
    deadline = time.perf_counter() + 30
    while followers and time.perf_counter() < deadline and len(run.received.get(last, [])) < followers:
        await asyncio.sleep(0.05)
    stop.set()
    for task in tasks:
        task.cancel()
    await asyncio.gather(*tasks, return_exceptions=True)
    return run


def write_alone(given: str) -> None:
    base, campaign_id, headers, events, interval = json.loads(given)
    run = Run()
    last = asyncio.run(write(base, HttpCampaign(campaign_id, "", headers), events, interval, run))
    print(json.dumps({"sent": run.sent, "append_ms": run.append_ms, "refused": run.refused, "last": last}))


def spread(values: list[float]) -> dict[str, Any]:
    """A figure taken once per round: its median, its range, and each round's value."""
    return {"median": statistics.median(values), "min": min(values), "max": max(values), "rounds": values}


def measure(
    url: str,
    root: Path,
    log: Path,
    counts: list[int],
    events: int,
    interval: float,
    rounds: int = 1,
    profile: Path | None = None,
) -> dict[str, Any]:
    """Each round appends alone, then with each count of followers: the CPU an append costs alone and its latency
    are taken again in every round, so each round's follower figures are set against the same minutes' baseline."""
    figures: dict[str, Any] = {}
    server = Server(url, log, root=root, env={PROFILE: str(profile)} if profile else None)
    other = Server(url, log.with_name(log.stem + "-second.log"), root=root)
    alone_p50: list[float] = []
    alone_p99: list[float] = []
    alone_cpu: list[float] = []
    per_count: dict[int, dict[str, list[float]]] = {c: {} for c in counts}
    delays_of: dict[int, list[float]] = {c: [] for c in counts}
    try:
        with httpx.Client(base_url=server.base, timeout=30) as client:
            campaign = http_campaign(client, "Live benchmark")
        asyncio.run(session(server.base, server.base, campaign, 0, 50, interval))  # warm up
        for _ in range(rounds):
            cpu = server.cpu_seconds()
            alone = asyncio.run(session(server.base, server.base, campaign, 0, events, interval))
            cpu_alone = (server.cpu_seconds() - cpu) / max(1, len(alone.append_ms))
            alone_p50.append(statistics.median(alone.append_ms))
            alone_p99.append(pct(alone.append_ms, 0.99))
            alone_cpu.append(cpu_alone * 1e6)
            for count in counts:
                cpu = server.cpu_seconds()
                run = asyncio.run(session(server.base, server.base, campaign, count, events, interval))
                spent = server.cpu_seconds() - cpu - cpu_alone * len(run.append_ms)
                delays = run.delays_ms()
                delays_of[count] += delays
                got = per_count[count]
                for name, value in (
                    ("p50_ms", statistics.median(delays) if delays else None),
                    ("p99_ms", pct(delays, 0.99) if delays else None),
                    ("append_p50_ms", statistics.median(run.append_ms) if run.append_ms else None),
                    ("append_p99_ms", pct(run.append_ms, 0.99) if run.append_ms else None),
                    ("append_p50_x_alone", statistics.median(run.append_ms) / alone_p50[-1] if run.append_ms else None),
                    ("refused", run.refused),
                    ("reconnects", run.reconnects),
                    ("delivered", len(delays)),
                    ("expected", len(run.sent) * count),
                    ("server_cpu_per_event_per_follower_us", spent / max(1, len(delays)) * 1e6),
                    ("server_cpu_spent_s", spent),
                ):
                    if value is not None:
                        got.setdefault(name, []).append(value)
        figures["alone"] = {
            "append_p50_ms": spread(alone_p50),
            "append_p99_ms": spread(alone_p99),
            "server_cpu_per_append_us": spread(alone_cpu),
        }
        for count in counts:
            delays, got = delays_of[count], per_count[count]
            figures[f"{count} followers"] = {
                "delivered": sum(got["delivered"]),
                "expected": sum(got["expected"]),
                "p50_ms (all rounds)": statistics.median(delays) if delays else None,
                "p99_ms (all rounds)": pct(delays, 0.99) if delays else None,
                "max_ms": max(delays) if delays else None,
                "refused": sum(got["refused"]),
                "reconnects": sum(got["reconnects"]),
                **{
                    name: spread(got[name])
                    for name in got
                    if name not in ("delivered", "expected", "refused", "reconnects")
                },
            }
        if len(counts) > 1:
            # What one more follower costs, each round: the fixed cost of reading and telling each event once drops
            # out of the difference.
            low, high = per_count[min(counts)], per_count[max(counts)]
            more = [
                (hs - ls) / max(1, hd - ld) * 1e6
                for hs, ls, hd, ld in zip(
                    high["server_cpu_spent_s"],
                    low["server_cpu_spent_s"],
                    high["delivered"],
                    low["delivered"],
                    strict=True,
                )
            ]
            figures["one more follower"] = {"server_cpu_per_event_us": spread(more)}
        run = asyncio.run(session(server.base, other.base, campaign, 6, events, interval))
        delays = run.delays_ms()
        figures["6 followers on a second process"] = {
            "delivered": len(delays),
            "expected": len(run.sent) * 6,
            "p50_ms": statistics.median(delays) if delays else None,
            "p99_ms": pct(delays, 0.99) if delays else None,
            "max_ms": max(delays) if delays else None,
        }
    finally:
        server.stop()
        other.stop()
    return figures


def shown(value: Any) -> str:
    if isinstance(value, dict):
        return f"{shown(value['median'])} ({shown(value['min'])}-{shown(value['max'])})"
    return f"{value:,.1f}" if isinstance(value, float) else str(value)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--database-url", default=os.environ.get("BENCH_DATABASE_URL") or DEFAULT_SERVER)
    parser.add_argument("--ref", help="also measure this commit's server, in the same sitting")
    parser.add_argument("--followers", default="6,200")
    parser.add_argument("--events", type=int, default=200)
    parser.add_argument("--interval", type=float, default=0.05)
    parser.add_argument(
        "--rounds", type=int, default=3, help="rounds of appends alone, then with each count (medians and ranges)"
    )
    parser.add_argument("--json", type=Path, default=ROOT / "benchmarks" / "results" / "live.json")
    parser.add_argument(
        "--profile", type=Path, help="write a cProfile (CPU time) of this checkout's first server to this file"
    )
    parser.add_argument("--write", help=argparse.SUPPRESS)  # the appending process session() starts
    args = parser.parse_args()
    if args.write:
        write_alone(args.write)
        return 0
    counts = [int(c) for c in args.followers.split(",")]
    with psycopg.connect(args.database_url, autocommit=True) as conn:
        version = conn.execute("SHOW server_version").fetchone()[0]
    results: dict[str, Any] = {}
    with tempfile.TemporaryDirectory() as folder:
        for name, root in sides(args.ref, Path(folder)):
            with side_database(args.database_url, root) as url:
                log = args.json.with_name(f"live-{len(results)}.log")
                profile = args.profile if root == ROOT else None
                results[name] = measure(url, root, log, counts, args.events, args.interval, args.rounds, profile)
    head = subprocess.run(["git", "rev-parse", "--short", "HEAD"], cwd=ROOT, capture_output=True, text=True).stdout
    conditions = {
        "postgresql": version,
        "python": platform.python_version(),
        "cores": os.cpu_count(),
        "load_average": os.getloadavg(),
        "events": args.events,
        "interval_s": args.interval,
        "rounds": args.rounds,
        "head": head.strip(),
    }
    args.json.parent.mkdir(parents=True, exist_ok=True)
    args.json.write_text(json.dumps({"conditions": conditions, "results": results}, indent=2))
    print(json.dumps(conditions))
    for name, figures in results.items():
        print(f"\n{name}")
        for what, values in figures.items():
            print(f"  {what:<34} " + ", ".join(f"{k} {shown(v)}" for k, v in values.items() if v is not None))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
