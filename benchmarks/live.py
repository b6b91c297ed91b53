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
   the server's CPU from the run's first append to its last delivery (opening and closing the streams left out: a
   phone opens its stream once, not per event), less step 1's CPU over the same span for as many appends, divided
   by events times followers (which holds the cost of reading and telling each event once, spread over the
   followers), and what one more follower
   costs: the difference between the largest and the smallest count's CPU over the difference in deliveries;
3. across processes: a second server on the same database holds 6 followers while the appends go to the first.

Every figure comes from one run on one machine, with client and servers sharing its cores.

    .venv/bin/python benchmarks/live.py --bytecodes [--followers 1,6] [--events 100]

counts instead what the server's Python does per event, with no follower and with each count of followers: this
checkout's app under uvicorn in this process (on asyncio's own loop, whose Python is left out of the count, since
the server runs on uvloop's C), the followers and the appends over loopback HTTP from the same loop (their frames,
and asyncio's streams, left out too), sys.settrace counting bytecodes by function. The count is the same within a
few from run to run, where the CPU figures above move with the machine; it says what one more follower costs the
server's Python, and where, but not the kernel's part of writing to each follower's socket.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import logging
import os
import platform
import re
import statistics
import subprocess
import sys
import tempfile
import time
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx
import psycopg

sys.path.insert(0, str(Path(__file__).resolve().parent))

from store import (  # noqa: E402
    APPEND_ONE,
    DEFAULT_SERVER,
    GAME,
    PROFILE,
    ROOT,
    Connection,
    HttpCampaign,
    Server,
    free_port,
    http_campaign,
    pct,
)
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
    # This client's CPU seconds while the appends ran: what reading the followers' streams cost it.
    client_cpu: float = 0.0
    # The server's CPU seconds from the first append to the last delivery (`session`'s `server_cpu`).
    server_cpu: float = 0.0

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
        try:
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
        finally:
            # Cancelled too: a server stops only once its streams have closed.
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
    writer_base: str,
    follower_base: str,
    campaign: Any,
    followers: int,
    events: int,
    interval: float,
    server_cpu: Callable[[], float] | None = None,
) -> Run:
    """`followers` streams in this process; the appends from a process of their own, so that what the followers
    cost this client's event loop does not count in the appends' latency (perf_counter is one clock across
    processes). With `server_cpu` (the server's CPU seconds so far), the run's `server_cpu` is what the server
    spent from the first append to the last delivery: opening and closing the streams, which a phone does once and
    not per event, are left out."""
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
    cpu = time.process_time()
    server_began = server_cpu() if server_cpu is not None else 0.0
    writer = await asyncio.create_subprocess_exec(
        sys.executable,
        __file__,
        "--write",
        json.dumps([writer_base, campaign.id, campaign.headers, events, interval]),
        stdout=asyncio.subprocess.PIPE,
    )
    said, _ = await writer.communicate()
    run.client_cpu = time.process_time() - cpu
    written = json.loads(said)
    run.sent = {int(p): t for p, t in written["sent"].items()}
    run.append_ms, run.refused, last = written["append_ms"], written["refused"], written["last"]
    deadline = time.perf_counter() + 30
    while followers and time.perf_counter() < deadline and len(run.received.get(last, [])) < followers:
        await asyncio.sleep(0.005)
    if server_cpu is not None:
        run.server_cpu = server_cpu() - server_began
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


def server_append_ms(log: Path, offset: int) -> tuple[list[float], int]:
    """The appends' own times as the server logged them (from the request's start to its answer's end) since
    `offset` in its log, and the log's new end: latency without the client's wait for a core to read the answer."""
    with log.open("rb") as lines:
        lines.seek(offset)
        found = [json.loads(line)["ms"] for line in lines if b'"POST"' in line and b"/events" in line]
        return found, lines.tell()


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
    alone_server: list[float] = []
    per_count: dict[int, dict[str, list[float]]] = {c: {} for c in counts}
    delays_of: dict[int, list[float]] = {c: [] for c in counts}
    try:
        with httpx.Client(base_url=server.base, timeout=30) as client:
            campaign = http_campaign(client, "Live benchmark")
        asyncio.run(session(server.base, server.base, campaign, 0, 50, interval))  # warm up
        _, offset = server_append_ms(log, 0)
        for _ in range(rounds):
            alone = asyncio.run(session(server.base, server.base, campaign, 0, events, interval, server.cpu_ns_seconds))
            cpu_alone = alone.server_cpu / max(1, len(alone.append_ms))
            logged, offset = server_append_ms(log, offset)
            alone_server.append(statistics.median(logged) if logged else 0.0)
            alone_p50.append(statistics.median(alone.append_ms))
            alone_p99.append(pct(alone.append_ms, 0.99))
            alone_cpu.append(cpu_alone * 1e6)
            for count in counts:
                run = asyncio.run(
                    session(server.base, server.base, campaign, count, events, interval, server.cpu_ns_seconds)
                )
                spent = run.server_cpu - cpu_alone * len(run.append_ms)
                logged, offset = server_append_ms(log, offset)
                delays = run.delays_ms()
                delays_of[count] += delays
                got = per_count[count]
                for name, value in (
                    ("p50_ms", statistics.median(delays) if delays else None),
                    ("p99_ms", pct(delays, 0.99) if delays else None),
                    ("append_p50_ms", statistics.median(run.append_ms) if run.append_ms else None),
                    ("append_p99_ms", pct(run.append_ms, 0.99) if run.append_ms else None),
                    ("append_p50_x_alone", statistics.median(run.append_ms) / alone_p50[-1] if run.append_ms else None),
                    ("append_server_p50_ms", statistics.median(logged) if logged else None),
                    (
                        "append_server_p50_x_alone",
                        statistics.median(logged) / alone_server[-1] if logged and alone_server[-1] else None,
                    ),
                    ("client_cpu_per_event_ms", run.client_cpu / max(1, len(run.sent)) * 1000),
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
            "append_server_p50_ms": spread(alone_server),
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


async def count_bytecodes(url: str, followers: int, events: int) -> tuple[float, Counter[str]]:
    """The server's Python bytecodes per event with `followers` streams open (see the docstring), and by function."""
    import uvicorn
    from asgi_cpu import _counting

    from quartermaster.service.app import create_app
    from quartermaster.service.platform.settings import Settings

    port = free_port()
    base = f"http://127.0.0.1:{port}"
    app = create_app(Settings(rate_limit="off"), url)
    config = uvicorn.Config(app, port=port, loop="asyncio", access_log=False, log_config=None, log_level="warning")
    server = uvicorn.Server(config)
    serving = asyncio.create_task(server.serve())
    while not server.started:
        await asyncio.sleep(0.05)
    for handler in logging.getLogger("quartermaster").handlers:
        if isinstance(handler, logging.StreamHandler):
            handler.setStream(open(os.devnull, "w"))  # noqa: SIM115 (lives as long as the process)
    async with httpx.AsyncClient(base_url=base) as client:
        answer = await client.post("/v1/campaigns", json={"name": "Live bytecodes", "game": GAME, "options": {}})
        body = answer.json()
    campaign = HttpCampaign(body["id"], body["member_id"], {"Authorization": f"Bearer {body['token']}"})
    run, stop = Run(), asyncio.Event()
    opened = [asyncio.Event() for _ in range(followers)]
    tasks = [asyncio.create_task(follower(base, campaign, 0, run, opened[n], stop)) for n in range(followers)]
    await asyncio.gather(*(o.wait() for o in opened))
    counts: Counter[tuple[str, str]] = Counter()
    async with Connection(base) as connection:
        path = f"/v1/campaigns/{campaign.id}/events"

        async def append() -> None:
            status, answer = await connection.post(path, APPEND_ONE, campaign.headers)
            if status != 201:
                raise RuntimeError(f"the append answered {status}: {answer[:300]!r}")
            await asyncio.sleep(0.003)  # the followers are told before the next append

        for _ in range(50):
            await append()
        await asyncio.sleep(0.5)
        told = sum(map(len, run.received.values()))
        sys.settrace(_counting(counts))
        for _ in range(events):
            await append()
        await asyncio.sleep(0.2)
        sys.settrace(None)
    if sum(map(len, run.received.values())) - told != events * followers:
        raise RuntimeError("not every follower was told every event")
    stop.set()
    for task in tasks:
        task.cancel()
    await asyncio.gather(*tasks, return_exceptions=True)
    server.should_exit = True
    await serving
    # What the server's Python runs: not the benchmark's own frames (its followers and appends, asyncio's streams),
    # nor asyncio's loop, which uvloop runs in C under `quartermaster serve`.
    client = (str(Path(__file__).resolve()), str(Path(__file__).resolve().parent / "store.py"))
    served: Counter[str] = Counter()
    for (filename, function), n in counts.items():
        if filename in client or "/asyncio/" in filename or filename.endswith("selectors.py"):
            continue
        served[f"{Path(filename).name}:{function}"] += n
    return sum(served.values()) / events, served


def bytecodes(url: str, counts: list[int], events: int) -> int:
    """--bytecodes: each count of followers on a database of its own, and what each follower adds, by function."""
    results: dict[int, tuple[float, Counter[str]]] = {}
    for count in [0, *counts]:
        with side_database(url, ROOT) as database:
            results[count] = asyncio.run(count_bytecodes(database, count, events))
    alone, by_function = results[0]
    print(f"server Python bytecodes per event: {alone:,.0f} with no follower")
    for count in counts:
        total = results[count][0]
        print(f"  {count} followers: {total:,.0f}, {(total - alone) / count:,.0f} per follower beyond the append")
    if len(counts) > 1:
        low, high = min(counts), max(counts)
        (low_total, low_by), (high_total, high_by) = results[low], results[high]
        print(f"one more follower: {(high_total - low_total) / (high - low):,.0f}, where:")
        more = {k: (high_by[k] - low_by[k]) / events / (high - low) for k in high_by}
        for name, n in sorted(more.items(), key=lambda kv: -kv[1])[:12]:
            print(f"  {n:7.1f}  {name}")
        print(f"each event, once ({low} followers less {low} times one more follower), where:")
        once = {k: (low_by[k] - by_function[k]) / events - low * more.get(k, 0.0) for k in low_by}
        for name, n in sorted(once.items(), key=lambda kv: -kv[1])[:16]:
            print(f"  {n:7.1f}  {name}")
    return 0


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
    parser.add_argument(
        "--bytecodes", action="store_true", help="count the server's Python bytecodes per event, this checkout only"
    )
    parser.add_argument("--write", help=argparse.SUPPRESS)  # the appending process session() starts
    args = parser.parse_args()
    if args.write:
        write_alone(args.write)
        return 0
    counts = [int(c) for c in args.followers.split(",")]
    if args.bytecodes:
        return bytecodes(args.database_url, counts, args.events)
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
