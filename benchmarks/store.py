"""Measure the event store against the floor on one PostgreSQL and print each figure beside its goal.

    .venv/bin/python benchmarks/store.py [--quick] [--database-url URL] [--json PATH] [--no-pacg]

Not a test: it never fails on time. It creates a fresh database `qm_bench_<random>` on the server (from
--database-url, else $BENCH_DATABASE_URL, else postgresql://postgres@127.0.0.1:5432/postgres), migrates it,
measures, prints a table and writes every figure as JSON, then drops the database. benchmarks/README.md says what
each figure means.
"""

from __future__ import annotations

import argparse
import asyncio
import cProfile
import dataclasses
import functools
import json
import os
import platform
import random
import signal
import socket
import statistics
import subprocess
import sys
import time
import tracemalloc
import uuid
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

import httpx  # noqa: E402
import psycopg  # noqa: E402
from psycopg_pool import AsyncConnectionPool  # noqa: E402

try:
    import uvloop
except ImportError:  # Windows: uvicorn runs on asyncio's own loop there
    uvloop = None  # type: ignore[assignment]

from quartermaster.events.campaign import CampaignStarted, MemberJoined, NoteAdded  # noqa: E402
from quartermaster.projections.registry import game as game_by_id  # noqa: E402
from quartermaster.service.http.intake import prepared_event  # noqa: E402
from quartermaster.service.platform import tokens  # noqa: E402
from quartermaster.service.platform.migrate import migrate  # noqa: E402
from quartermaster.service.platform.settings import Settings  # noqa: E402
from quartermaster.service.store import PreparedEvent, Store  # noqa: E402

GAME = "pacg-skull-and-shackles"
DEFAULT_SERVER = "postgresql://postgres@127.0.0.1:5432/postgres"
NOTE = {"type": "note.added", "data": {"text": "The Raker Shoals rule, read aloud once more."}}


@dataclass(frozen=True)
class Sizes:
    floor: int = 5000
    in_process: int = 5000
    http_one: int = 3000
    batches: int = 10
    batch_size: int = 1000
    clients: int = 32
    per_client: int = 150
    big: int = 100_000
    state_samples: int = 200
    state_http_samples: int = 50
    undo_latest: int = 10
    pacg_scenarios: int = 40
    warmup: int = 200
    cached: int = 1000
    short_rounds: int = 20


QUICK = Sizes(
    floor=300,
    in_process=300,
    http_one=200,
    batches=3,
    batch_size=1000,
    clients=32,
    per_client=10,
    big=5000,
    state_samples=30,
    state_http_samples=10,
    undo_latest=3,
    pacg_scenarios=3,
    warmup=30,
    cached=50,
    short_rounds=6,
)


@dataclass
class Figure:
    key: str
    what: str
    value: float
    unit: str
    n: int
    ratio: float | None = None  # to the floor (or, for 32 clients, to one client)
    ratio_to: str = ""
    goal: str = ""
    meets: bool | None = None
    extra: dict[str, Any] = field(default_factory=dict)


def pct(values: list[float], q: float) -> float:
    """The q-quantile (0..1) by nearest rank, enough for latency reports."""
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, round(q * (len(ordered) - 1))))]


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def run_async(url: str, scenario: Callable[[Store, AsyncConnectionPool], Awaitable[Any]], size: int = 4) -> Any:
    """Run a scenario against a Store over its own pool, configured as the app configures its pool."""
    from quartermaster.service.platform.database import configure

    async def main() -> Any:
        async with AsyncConnectionPool(
            url, min_size=1, max_size=size, open=False, configure=configure, kwargs={"autocommit": True}
        ) as pool:
            await pool.wait()
            return await scenario(Store(pool), pool)

    return run_loop(main())


def run_loop(coroutine: Awaitable[Any]) -> Any:
    """Run a coroutine on the event loop the server runs on: uvicorn takes uvloop when it is installed, as it is with
    the project."""
    return uvloop.run(coroutine) if uvloop is not None else asyncio.run(coroutine)  # type: ignore[arg-type]


async def new_campaign(store: Store, name: str = "Benchmark voyage") -> uuid.UUID:
    campaign_id, owner = uuid.uuid4(), uuid.uuid4()
    _, token_hash = tokens.new_token(owner)
    await store.create_campaign(
        campaign_id=campaign_id,
        game=game_by_id(GAME),
        name=name,
        options={},
        owner_id=owner,
        owner_name="Owner",
        token_hash=token_hash,
        start=[
            prepared_event(CampaignStarted(name=name, game=GAME)),
            prepared_event(MemberJoined(member_id=str(owner), name="Owner", role="owner")),
        ],
    )
    return campaign_id


def notes(count: int, label: str) -> list[PreparedEvent]:
    return [prepared_event(NoteAdded(text=f"{label} note {i}")) for i in range(count)]


# -- 1. the floor, and appends in process ------------------------------------------------------------------------

# Every comparison that matters is a ratio, so whatever is compared runs in the same rounds, taking turns: other work
# on the machine (or the hypervisor) then weighs on each side alike. Measured one after the other, a quiet minute for
# one and a busy one for the other moved ratios by half. The single-event figures, in process and over HTTP, take
# more, shorter rounds (Sizes.short_rounds), the order reversed every other round, and the median of each round's
# ratio: there, a busy second fell on one side's stretch of a round and moved the ratio of the totals from 0.53 to
# 0.72 between two runs in process, and over HTTP a run whose mean was a quarter above its median (an autovacuum
# after the in-process appends, say) read 0.67 where the median round read 0.80.
# Each turn of those single-event figures is two stretches of the same work, and only the second is the figure: the
# first settles what the work before it disturbed. The store's appends ran about a quarter slower for the first few
# hundred after another workload or a pause of 0.1 s, and then settled (stretches of 250, medians of six rounds,
# PostgreSQL 15 here: 430 to 500 µs an append right after the sync floor's turn, 350 to 390 after its own; the
# client's CPU per append 186 µs after a pause, 145 µs after its own), while the sync floor's inserts did not slow
# (295 to 330 µs either way). Half of the store's turns followed another's, so that cost fell on the store alone and
# moved its ratio from run to run. The first stretches are still timed, and their ratio printed beside the figure.
ROUNDS = 6

FLOOR_ROW = (
    "INSERT INTO bench_floor (campaign_id, position, event_id, batch_id, type, data, actor, recorded_at,"
    " occurred_at, character_id) VALUES (%s, %s, %s, %s, %s, %s::jsonb, %s, %s, %s, %s)"
)


class Floor:
    """Single-row inserts into `bench_floor` (created `LIKE events INCLUDING ALL`: same columns, defaults, identity,
    checks and indexes; no trigger, no foreign key), each its own autocommit transaction, for one made-up campaign."""

    def __init__(self) -> None:
        self.campaign_id, self.batch, self.now = uuid.uuid4(), uuid.uuid4(), datetime.now(UTC)
        self.position = 0
        self.data = json.dumps(NOTE["data"])

    def row(self) -> tuple[Any, ...]:
        self.position += 1
        return (self.campaign_id, self.position, uuid.uuid4(), self.batch, "note.added", self.data, "floor", self.now)

    def insert(self, conn: psycopg.Connection, count: int) -> float:
        started = time.perf_counter()
        for _ in range(count):
            conn.execute(FLOOR_ROW, (*self.row(), None, None))
        return time.perf_counter() - started

    async def insert_async(self, conn: psycopg.AsyncConnection, count: int) -> float:
        started = time.perf_counter()
        for _ in range(count):
            await conn.execute(FLOOR_ROW, (*self.row(), None, None))
        return time.perf_counter() - started


def create_floor_table(url: str) -> None:
    with psycopg.connect(url, autocommit=True) as conn:
        conn.execute("CREATE TABLE bench_floor (LIKE events INCLUDING ALL)")


def eventsourcing_log(url: str) -> Callable[[int], float] | None:
    """The other yardstick: the `eventsourcing` library appending one event per transaction to one aggregate on the
    same server (`pip install -e '.[bench]'`), as a function timing `count` saves. None, with a word, without it."""
    try:
        from eventsourcing.application import Application
        from eventsourcing.domain import Aggregate, event
    except ImportError:
        print("  (the eventsourcing library is not installed: pip install -e '.[bench]' to compare with it)")
        return None

    class Log(Aggregate):
        @event("Started")
        def __init__(self) -> None:
            self.notes = 0

        @event("Noted")
        def note(self, text: str) -> None:
            self.notes += 1

    parts = psycopg.conninfo.conninfo_to_dict(url)
    app = Application(
        env={
            "PERSISTENCE_MODULE": "eventsourcing.postgres",
            "CREATE_TABLE": "y",
            "POSTGRES_DBNAME": str(parts.get("dbname", "")),
            "POSTGRES_HOST": str(parts.get("host") or "127.0.0.1"),
            "POSTGRES_PORT": str(parts.get("port") or 5432),
            "POSTGRES_USER": str(parts.get("user") or "postgres"),
            "POSTGRES_PASSWORD": str(parts.get("password") or ""),
        }
    )
    log = Log()
    app.save(log)

    def save(count: int) -> float:
        started = time.perf_counter()
        for i in range(count):
            log.note(f"note {i}")
            app.save(log)
        return time.perf_counter() - started

    return save


def measure_in_process(url: str, sizes: Sizes) -> list[Figure]:
    """The floor (sync psycopg, then the async driver the store uses), `Store.append` with one note per call, and the
    eventsourcing library, in `sizes.short_rounds` short rounds taking turns, the order reversed every other
    round. Each rate is the median of its rounds' rates, and each ratio the median of its rounds' ratios."""
    create_floor_table(url)
    floor = Floor()
    compare = eventsourcing_log(url)
    rounds = sizes.short_rounds
    per_round = max(1, sizes.in_process // rounds)
    spent: dict[str, list[float]] = {"floor": [], "floor_async": [], "store": [], "eventsourcing": []}
    unsettled: dict[str, list[float]] = {key: [] for key in spent}  # each turn's first stretch (ROUNDS says why)

    async def scenario(store: Store, pool: Any) -> None:
        campaign_id = await new_campaign(store)

        async def append(count: int, label: str) -> float:
            ready = notes(count, label)  # as a client's decoded request: made before the clock starts
            started = time.perf_counter()
            for p in ready:
                await store.append(campaign_id, [p], actor="bench")
            return time.perf_counter() - started

        with psycopg.connect(url, autocommit=True) as sync:
            async with await psycopg.AsyncConnection.connect(url, autocommit=True) as conn:

                async def sync_floor() -> float:
                    return floor.insert(sync, per_round)

                async def async_floor() -> float:
                    return await floor.insert_async(conn, per_round)

                async def appends() -> float:
                    return await append(per_round, "timed")

                async def library() -> float:
                    assert compare is not None
                    return compare(per_round)

                turns = [("floor", sync_floor), ("floor_async", async_floor), ("store", appends)]
                if compare is not None:
                    turns.append(("eventsourcing", library))
                floor.insert(sync, sizes.warmup)
                await floor.insert_async(conn, sizes.warmup)
                await append(sizes.warmup, "warm-up")
                if compare is not None:
                    compare(sizes.warmup)
                for number in range(rounds):
                    for key, measure in turns if number % 2 == 0 else turns[::-1]:
                        unsettled[key].append(await measure())
                        spent[key].append(await measure())

    run_async(url, scenario)
    n = per_round * rounds
    rates = {key: [per_round / seconds for seconds in times] for key, times in spent.items() if times}
    rate = {key: statistics.median(values) for key, values in rates.items()}

    def ratios(a: str, b: str, times: dict[str, list[float]] = spent) -> list[float]:
        return [y / x for x, y in zip(times[a], times[b], strict=True)]

    def spread(values: list[float]) -> str:
        quartiles = statistics.quantiles(values, n=4)
        return f"{quartiles[0]:.2f}-{quartiles[2]:.2f}"

    to_floor = ratios("store", "floor")
    to_async = ratios("store", "floor_async")
    figures = [
        Figure(
            "floor",
            "floor: plain psycopg, 1 row per transaction",
            rate["floor"],
            "events/s",
            n,
            ratio=1.0,
            ratio_to="floor",
            extra={"rounds": rounds, "per_round": per_round},
        ),
        Figure(
            "floor_async",
            "floor through async psycopg (the store's driver mode)",
            rate["floor_async"],
            "events/s",
            n,
            ratio=statistics.median(ratios("floor_async", "floor")),
            ratio_to="floor",
        ),
        Figure(
            "append_in_process",
            "append in process, 1 event per transaction",
            rate["store"],
            "events/s",
            n,
            ratio=statistics.median(to_floor),
            ratio_to="floor",
            goal=">= 0.80 x floor",
            meets=statistics.median(to_floor) >= 0.8,
            extra={
                "ratio_quartiles": spread(to_floor),
                "ratio_to_async_floor": statistics.median(to_async),
                "ratio_to_async_floor_quartiles": spread(to_async),
                "ratio_unsettled": statistics.median(ratios("store", "floor", unsettled)),
            },
        ),
    ]
    if "eventsourcing" in rate:
        over = statistics.median(ratios("store", "eventsourcing"))
        figures.append(
            Figure(
                "eventsourcing",
                "eventsourcing library, 1 event per transaction",
                rate["eventsourcing"],
                "events/s",
                n,
                ratio=statistics.median(ratios("eventsourcing", "floor")),
                ratio_to="floor",
                goal="store >= 2.5 x this",
                meets=over >= 2.5,
                extra={
                    "store_over_eventsourcing": over,
                    "unsettled": statistics.median(ratios("store", "eventsourcing", unsettled)),
                },
            )
        )
    return figures


# -- the server --------------------------------------------------------------------------------------------------


class Server:
    """A real uvicorn serving create_app in a process of its own, so client and server do not share one GIL."""

    def __init__(
        self,
        url: str,
        log: Path,
        workers: int = 1,
        floor: bool = False,
        root: Path = ROOT,
        env: dict[str, str] | None = None,
    ) -> None:
        """`env`: more of the server's environment (`PROFILE` for a profile, say)."""
        self.port = free_port()
        self.base = f"http://127.0.0.1:{self.port}"
        log.parent.mkdir(parents=True, exist_ok=True)
        # The request log stays on, as in production; it goes to a file so the table stays readable.
        self.log = log.open("wb")
        command = [
            sys.executable,
            str(Path(__file__).resolve()),
            "--serve-floor" if floor else "--serve",
            str(self.port),
            "--database-url",
            url,
        ]
        if root != ROOT:
            # Another checkout's app (benchmarks/versus.py), as serve() starts this one's, from that checkout's code.
            command = [sys.executable, "-c", SERVE_ANOTHER, str(root), str(self.port), url]
        if workers > 1:
            # As an operator runs it: `quartermaster serve --workers N`.
            command = [
                sys.executable,
                "-m",
                "quartermaster.service.cli",
                "serve",
                "--workers",
                str(workers),
                "--port",
                str(self.port),
                "--database-url",
                url,
            ]
        # The benchmark creates many campaigns from one address; the limit on unauthenticated routes is not measured.
        self.process = subprocess.Popen(
            command,
            cwd=root,
            stdout=self.log,
            stderr=subprocess.STDOUT,
            env={**os.environ, "QUARTERMASTER_RATE_LIMIT": "off", **(env or {})},
        )
        deadline = time.monotonic() + 30
        while True:
            try:
                if httpx.get(f"{self.base}/readyz", timeout=1).status_code == 200:
                    self.cpu_at_start = self.cpu_seconds()
                    return
            except httpx.TransportError:
                pass
            if self.process.poll() is not None or time.monotonic() > deadline:
                self.stop()
                raise RuntimeError(f"The benchmark server did not start; see {log}.")
            time.sleep(0.1)

    def cpu_seconds(self) -> float:
        """User and system CPU the server has used so far: its process and every process under it (workers)."""
        return sum(_cpu_of(pid) for pid in _tree(self.process.pid))

    def cpu_ns_seconds(self) -> float:
        """CPU the server's running threads have used so far, from the scheduler's nanosecond count
        (/proc/<pid>/task/*/schedstat) rather than 10 ms clock ticks: precise enough for a few hundred events, but a
        thread that ended takes its time with it (the app serves from one thread)."""
        total = 0
        for pid in _tree(self.process.pid):
            for task in Path(f"/proc/{pid}/task").iterdir():
                total += int((task / "schedstat").read_text().split()[0])
        return total / 1e9

    def rss_mib(self) -> float:
        """Resident memory of the server's processes (with workers: all of them), in MiB."""
        total = 0
        for pid in _tree(self.process.pid):
            for line in Path(f"/proc/{pid}/status").read_text().splitlines():
                if line.startswith("VmRSS:"):
                    total += int(line.split()[1])
        return total / 1024

    def stop(self) -> None:
        if self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(10)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()
        self.log.close()


def _tree(pid: int) -> list[int]:
    """A process and its descendants (Linux /proc)."""
    found, waiting = [], [pid]
    while waiting:
        current = waiting.pop()
        found.append(current)
        for task in Path(f"/proc/{current}/task").iterdir():
            waiting += [int(child) for child in (task / "children").read_text().split()]
    return found


def _cpu_of(pid: int) -> float:
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")  # utime + stime


# The environment variable naming where serve() writes a cProfile of the server (this checkout's server only).
PROFILE = "QM_BENCH_PROFILE"

# serve() for another checkout, whose Settings may not know every setting this one's does (the rate limit is then
# read from the environment, or did not exist yet).
SERVE_ANOTHER = """
import sys
sys.path.insert(0, sys.argv[1])
import uvicorn
from quartermaster.service.app import create_app
from quartermaster.service.platform.settings import Settings
app = create_app(Settings.from_env(), sys.argv[3])
uvicorn.run(app, host="127.0.0.1", port=int(sys.argv[2]), access_log=False, log_config=None, log_level="warning")
"""


def serve(port: int, url: str) -> None:
    import uvicorn

    from quartermaster.service.app import create_app

    # The environment's settings, the rate limit off as Server asks.
    settings = dataclasses.replace(Settings.from_env(), rate_limit="off")
    run = functools.partial(
        uvicorn.run,
        create_app(settings, url),
        host="127.0.0.1",
        port=port,
        access_log=False,
        log_config=None,
        log_level="warning",
    )
    profile = os.environ.get(PROFILE)
    if not profile:
        run()
        return
    # Under cProfile timed by this process's CPU, written when the server stops (Server.stop's SIGTERM, which uvicorn
    # raises again once it has stopped: with Python's default handler that would end the process before the dump).
    signal.signal(signal.SIGTERM, lambda number, frame: sys.exit(0))
    profiler = cProfile.Profile(time.process_time)
    profiler.enable()
    try:
        run()
    finally:
        profiler.disable()
        profiler.dump_stats(profile)


FLOOR_INSERT = (
    "INSERT INTO bench_floor (campaign_id, position, event_id, batch_id, type, data, actor, recorded_at,"
    " occurred_at, character_id) VALUES (%s, %s, %s, %s, %s, %s::jsonb, %s, now(), %s, %s)"
)


def floor_app(url: str) -> Callable[..., Awaitable[None]]:
    """The HTTP floor: the smallest ASGI app that does what an append must (read the body, insert one row into a
    table like events in its own transaction, answer JSON), with no framework, no parsing and no checks.

    Served by the same uvicorn with the same settings as Quartermaster, and driven by the same client, so the ratio
    of the two shows what Quartermaster adds rather than what the client, uvicorn or the kernel cost.
    """
    pool = AsyncConnectionPool(url, min_size=2, max_size=16, open=False, kwargs={"autocommit": True})
    position = 0

    async def app(
        scope: dict[str, Any], receive: Callable[..., Awaitable[Any]], send: Callable[..., Awaitable[None]]
    ) -> None:
        nonlocal position
        if scope["type"] == "lifespan":
            while True:
                message = await receive()
                if message["type"] == "lifespan.startup":
                    await pool.open(wait=True)
                    await send({"type": "lifespan.startup.complete"})
                elif message["type"] == "lifespan.shutdown":
                    await pool.close()
                    await send({"type": "lifespan.shutdown.complete"})
                    return
        body = b""
        while True:
            message = await receive()
            body += message.get("body", b"")
            if not message.get("more_body"):
                break
        status, answer = 200, b'{"status":"ready"}'
        if scope["method"] == "POST":
            position += 1
            taken = position  # before the wait for a connection, in which another request may take the next
            async with pool.connection() as conn:
                await conn.execute(
                    FLOOR_INSERT,
                    (
                        FLOOR_CAMPAIGN,
                        taken,
                        uuid.uuid4(),
                        uuid.uuid4(),
                        "note.added",
                        body.decode(),
                        "floor",
                        None,
                        None,
                    ),
                )
            status, answer = 201, b'{"position":%d}' % taken
        await send(
            {
                "type": "http.response.start",
                "status": status,
                "headers": [(b"content-type", b"application/json"), (b"content-length", b"%d" % len(answer))],
            }
        )
        await send({"type": "http.response.body", "body": answer})

    return app


FLOOR_CAMPAIGN = uuid.uuid4()


def serve_floor(port: int, url: str) -> None:
    import uvicorn

    uvicorn.run(floor_app(url), host="127.0.0.1", port=port, access_log=False, log_config=None, log_level="warning")


@dataclass(frozen=True)
class HttpCampaign:
    id: str
    member_id: str
    headers: dict[str, str]


def http_campaign(client: httpx.Client, name: str = "Benchmark voyage") -> HttpCampaign:
    answer = client.post("/v1/campaigns", json={"name": name, "game": GAME, "options": {}})
    answer.raise_for_status()
    body = answer.json()
    return HttpCampaign(body["id"], body["member_id"], {"Authorization": f"Bearer {body['token']}"})


def post_events(client: httpx.Client, campaign: HttpCampaign, events: list[dict[str, Any]]) -> None:
    answer = client.post(f"/v1/campaigns/{campaign.id}/events", json={"events": events}, headers=campaign.headers)
    if answer.status_code != 201:
        raise RuntimeError(f"append answered {answer.status_code}: {answer.text[:300]}")


# -- 3, 4, 5. over HTTP ------------------------------------------------------------------------------------------


class Connection:
    """A minimal keep-alive HTTP/1.1 client over asyncio streams, for load.

    httpx spends a millisecond or more of CPU per request; on a two-core machine a load generator that busy
    measures itself rather than the server (a 32-client run with httpx.AsyncClient kept one core at 97%).
    """

    def __init__(self, base: str) -> None:
        host, _, port = base.removeprefix("http://").partition(":")
        self.host, self.port = host, int(port)

    async def __aenter__(self) -> Connection:
        self.reader, self.writer = await asyncio.open_connection(self.host, self.port)
        return self

    async def __aexit__(self, *exc: object) -> None:
        self.writer.close()

    async def get(self, path: str, headers: dict[str, str] | None = None) -> tuple[int, bytes]:
        head = "".join(f"{k}: {v}\r\n" for k, v in (headers or {}).items())
        self.writer.write(f"GET {path} HTTP/1.1\r\nHost: {self.host}\r\n{head}\r\n".encode())
        return await self._answer()

    async def post(self, path: str, body: bytes, headers: dict[str, str]) -> tuple[int, bytes]:
        head = "".join(f"{k}: {v}\r\n" for k, v in headers.items())
        self.writer.write(
            f"POST {path} HTTP/1.1\r\nHost: {self.host}\r\nContent-Type: application/json\r\n"
            f"Content-Length: {len(body)}\r\n{head}\r\n".encode()
            + body
        )
        return await self._answer()

    async def _answer(self) -> tuple[int, bytes]:
        status = int((await self.reader.readline()).split(b" ", 2)[1])
        length = 0
        while (line := await self.reader.readline()) not in (b"\r\n", b""):
            name, _, value = line.partition(b":")
            if name.strip().lower() == b"content-length":
                length = int(value)
        return status, await self.reader.readexactly(length)


APPEND_ONE = json.dumps({"events": [NOTE]}).encode()


async def append_loop(
    connection: Connection, campaign: HttpCampaign, count: int, latencies: list[float] | None
) -> None:
    path = f"/v1/campaigns/{campaign.id}/events"
    for _ in range(count):
        begun = time.perf_counter()
        status, answer = await connection.post(path, APPEND_ONE, campaign.headers)
        if status != 201:
            raise RuntimeError(f"append answered {status}: {answer[:300]!r}")
        if latencies is not None:
            latencies.append(time.perf_counter() - begun)


def measure_http_one(url: str, log: Path, server: Server, sizes: Sizes, floor: float) -> list[Figure]:
    """One client appending single notes over HTTP to Quartermaster and to the HTTP floor (`floor_app`), in
    `sizes.short_rounds` short rounds taking turns, the order reversed every other round; events/s and server CPU per
    request for both. Each rate is the median of its rounds' rates, the ratio the median of the rounds' ratios."""
    with httpx.Client(base_url=server.base, timeout=60) as client:
        campaign = http_campaign(client)
    bare = Server(url, log, floor=True)
    rounds = sizes.short_rounds
    per_round = max(1, sizes.http_one // rounds)
    spent: dict[str, list[float]] = {"floor": [], "qm": []}  # seconds per round
    unsettled: dict[str, list[float]] = {"floor": [], "qm": []}  # each turn's first stretch (ROUNDS says why)
    cpu_spent = {"floor": 0.0, "qm": 0.0}  # server CPU seconds, all rounds
    latencies: dict[str, list[float]] = {"floor": [], "qm": []}

    async def run(which: str, target: Server, path: str, headers: dict[str, str], count: int, timed: bool) -> None:
        async with Connection(target.base) as connection:
            for stretch in ("first", "settled") if timed else ("warm-up",):
                cpu, started = target.cpu_seconds(), time.perf_counter()
                for _ in range(count):
                    begun = time.perf_counter()
                    status, answer = await connection.post(path, APPEND_ONE, headers)
                    if status != 201:
                        raise RuntimeError(f"{which} answered {status}: {answer[:300]!r}")
                    if stretch == "settled":
                        latencies[which].append(time.perf_counter() - begun)
                if stretch == "first":
                    unsettled[which].append(time.perf_counter() - started)
                elif stretch == "settled":
                    spent[which].append(time.perf_counter() - started)
                    cpu_spent[which] += target.cpu_seconds() - cpu

    path = f"/v1/campaigns/{campaign.id}/events"
    turns = [("floor", bare, "/floor", {}), ("qm", server, path, campaign.headers)]
    try:
        for which, target, where, headers in turns:
            asyncio.run(run(which, target, where, headers, sizes.warmup, False))
        for number in range(rounds):
            for which, target, where, headers in turns if number % 2 == 0 else turns[::-1]:
                asyncio.run(run(which, target, where, headers, per_round, True))
        floor_get_cpu = measure_get_cpu(bare, sizes, "/floor")
    finally:
        bare.stop()
    n = per_round * rounds
    health_cpu = measure_get_cpu(server, sizes)
    floor_rates = [per_round / seconds for seconds in spent["floor"]]
    rates = [per_round / seconds for seconds in spent["qm"]]
    to_floor = [x / y for x, y in zip(rates, floor_rates, strict=True)]
    quartiles = statistics.quantiles(to_floor, n=4)
    floor_rate, rate, ratio = statistics.median(floor_rates), statistics.median(rates), statistics.median(to_floor)
    floor_cpu, cpu = cpu_spent["floor"] / n * 1e6, cpu_spent["qm"] / n * 1e6
    return [
        Figure(
            "http_floor",
            "HTTP floor: bare ASGI app, 1 row insert per request, 1 client",
            floor_rate,
            "events/s",
            n,
            ratio=floor_rate / floor,
            ratio_to="floor",
            extra={
                "server_cpu_us": floor_cpu,
                "server_cpu_us_get": floor_get_cpu,
                "p50_ms": pct(latencies["floor"], 0.5) * 1000,
                "p99_ms": pct(latencies["floor"], 0.99) * 1000,
            },
        ),
        Figure(
            "append_http_one_client",
            "append over HTTP, 1 client, 1 event per request",
            rate,
            "events/s",
            n,
            ratio=ratio,
            ratio_to="HTTP floor",
            goal=">= 0.70 x HTTP floor",
            meets=ratio >= 0.7,
            extra={
                "ratio_quartiles": f"{quartiles[0]:.2f}-{quartiles[2]:.2f}",
                "ratio_of_totals": sum(spent["floor"]) / sum(spent["qm"]),
                "ratio_unsettled": statistics.median(
                    [f / q for f, q in zip(unsettled["floor"], unsettled["qm"], strict=True)]
                ),
                "ratio_to_floor": rate / floor,
                "p50_ms": pct(latencies["qm"], 0.5) * 1000,
                "p99_ms": pct(latencies["qm"], 0.99) * 1000,
                "rounds": rounds,
            },
        ),
        Figure(
            "append_http_server_cpu_us",
            "server CPU per one-note append over HTTP",
            cpu,
            "µs",
            n,
            ratio=cpu / floor_cpu,
            ratio_to="HTTP floor's",
            goal="<= 300 µs",
            meets=cpu <= 300,
            extra={
                "healthz_cpu_us": health_cpu,
                "http_floor_cpu_us": floor_cpu,
                "http_floor_get_cpu_us": floor_get_cpu,
            },
        ),
    ]


def measure_get_cpu(server: Server, sizes: Sizes, path: str = "/healthz") -> float:
    """Server CPU per GET of `path` on the same keep-alive client: for /healthz what the framework costs for nothing,
    for the HTTP floor's GET what uvicorn does without the insert."""

    async def main() -> float:
        async with Connection(server.base) as connection:
            cpu = server.cpu_seconds()
            for _ in range(sizes.http_one):
                status, _ = await connection.get(path)
                if status != 200:
                    raise RuntimeError(f"{path} answered {status}")
            return server.cpu_seconds() - cpu

    return asyncio.run(main()) / sizes.http_one * 1e6


def measure_http_batch(server: Server, sizes: Sizes, floor: float) -> Figure:
    events = [{"type": "note.added", "data": {"text": f"batched note {i}"}} for i in range(sizes.batch_size)]
    with httpx.Client(base_url=server.base, timeout=120) as client:
        campaign = http_campaign(client)
        post_events(client, campaign, events)  # warm-up
        times = []
        for _ in range(sizes.batches):
            begun = time.perf_counter()
            post_events(client, campaign, events)
            times.append(time.perf_counter() - begun)
    rate = sizes.batches * sizes.batch_size / sum(times)
    return Figure(
        "append_http_batch",
        f"append a batch of {sizes.batch_size} events in 1 request",
        rate,
        "events/s",
        sizes.batches * sizes.batch_size,
        ratio=rate / floor,
        ratio_to="floor",
        goal=">= 40,000 events/s",
        meets=rate >= 40_000,
        extra={"batches": sizes.batches, "batch_p50_ms": pct(times, 0.5) * 1000, "batch_max_ms": max(times) * 1000},
    )


def measure_http_clients(server: Server, sizes: Sizes, floor: float, one_client: float, workers: int = 1) -> Figure:
    """`sizes.clients` clients, each appending single notes to its own campaign on one keep-alive connection, in
    ROUNDS rounds taking turns with one client alone (on a campaign of its own, on the same server), the order
    reversed every other round: the ratio is the median of the rounds' ratios, so the one client it is compared with
    ran in the same minutes. (`one_client`, from the one-client figure, is only reported beside it.)"""
    with httpx.Client(base_url=server.base, timeout=60) as client:
        campaigns = [http_campaign(client, f"Voyage {n}") for n in range(sizes.clients)]
        alone = http_campaign(client, "Voyage alone")

    cpus: list[float] = []
    per_client = max(1, sizes.per_client // ROUNDS)
    alone_count = max(1, sizes.clients * per_client // 3)
    rates: dict[str, list[float]] = {"many": [], "one": []}

    async def main() -> list[float]:
        connections = [Connection(server.base) for _ in campaigns]
        for connection in connections:
            await connection.__aenter__()
        single = await Connection(server.base).__aenter__()
        try:
            latencies: list[float] = []
            warm = max(3, sizes.warmup // sizes.clients)
            await asyncio.gather(*(append_loop(k, c, warm, None) for k, c in zip(connections, campaigns, strict=True)))
            await append_loop(single, alone, sizes.warmup, None)

            async def many() -> None:
                cpu = server.cpu_seconds()
                started = time.perf_counter()
                await asyncio.gather(
                    *(append_loop(k, c, per_client, latencies) for k, c in zip(connections, campaigns, strict=True))
                )
                rates["many"].append(sizes.clients * per_client / (time.perf_counter() - started))
                cpus.append(server.cpu_seconds() - cpu)

            async def one() -> None:
                started = time.perf_counter()
                await append_loop(single, alone, alone_count, None)
                rates["one"].append(alone_count / (time.perf_counter() - started))

            for number in range(ROUNDS):
                for turn in (many, one) if number % 2 == 0 else (one, many):
                    await turn()
            return latencies
        finally:
            for connection in [*connections, single]:
                await connection.__aexit__()

    latencies = asyncio.run(main())
    total = sizes.clients * per_client * ROUNDS
    rate = statistics.median(rates["many"])
    ratio = statistics.median([m / o for m, o in zip(rates["many"], rates["one"], strict=True)])
    p99 = pct(latencies, 0.99) * 1000
    key = "append_http_32_clients" + (f"_{workers}_workers" if workers > 1 else "")
    what = f"{sizes.clients} clients on {sizes.clients} campaigns over HTTP" + (
        f", {workers} workers" if workers > 1 else ""
    )
    return Figure(
        key,
        what,
        rate,
        "events/s",
        total,
        ratio=ratio,
        ratio_to="one client",
        goal=">= 2 x one client; p99 < 50 ms",
        meets=ratio >= 2 and p99 < 50,
        extra={
            "one_client_alongside": statistics.median(rates["one"]),
            "over_the_one_client_figure": rate / one_client,
            "rounds": ROUNDS,
            "ratio_to_floor": rate / floor,
            "p50_ms": pct(latencies, 0.5) * 1000,
            "p99_ms": p99,
            "server_cpu_us": sum(cpus) / total * 1e6,
            "clients": sizes.clients,
            "requests_per_client": per_client * ROUNDS,
        },
    )


# -- 6 to 10. a long campaign ------------------------------------------------------------------------------------


@dataclass
class Long:
    campaign: HttpCampaign
    mid_batch: uuid.UUID
    events: int


async def build_long(
    store: Store, campaign_id: uuid.UUID, actor: str, total: int, chunk: int = 1000
) -> tuple[uuid.UUID, int]:
    """Append notes in batches until the campaign holds `total` events; answer the batch holding the middle."""
    position = (await store.campaign(campaign_id)).position
    middle, mid_batch = total // 2, None
    while position < total:
        appended = await store.append(campaign_id, notes(min(chunk, total - position), "long"), actor=actor)
        if appended.first_position <= middle <= appended.last_position:
            mid_batch = appended.batch
        position = appended.last_position
    assert mid_batch is not None
    return mid_batch, position


def measure_long(url: str, server: Server, sizes: Sizes, floor: float) -> tuple[list[Figure], Long]:
    with httpx.Client(base_url=server.base, timeout=60) as client:
        campaign = http_campaign(client, "The long voyage")
    campaign_id = uuid.UUID(campaign.id)
    game = game_by_id(GAME)
    figures: list[Figure] = []

    async def scenario(store: Store, pool: Any) -> Long:
        started = time.perf_counter()
        mid_batch, position = await build_long(store, campaign_id, campaign.member_id, sizes.big)
        print(f"  built a campaign of {position:,} events in {time.perf_counter() - started:.1f} s", flush=True)

        # 6. state at a random position (a fresh Store each time would also drop the cache; the cache only
        # answers the current position, so random past positions never hit it).
        rng = random.Random(7)
        for _ in range(5):
            await store.state_at(campaign_id, game, rng.randint(1, position - 1))
        samples = []
        for _ in range(sizes.state_samples):
            at = rng.randint(1, position - 1)
            begun = time.perf_counter()
            await store.state_at(campaign_id, game, at)
            samples.append(time.perf_counter() - begun)
        p50 = pct(samples, 0.5) * 1000
        figures.append(
            Figure(
                "state_at_p50",
                "state at a random position (Store.state_at), p50",
                p50,
                "ms",
                sizes.state_samples,
                goal="< 20 ms",
                meets=p50 < 20,
                extra={"p99_ms": pct(samples, 0.99) * 1000, "campaign_events": position},
            )
        )
        figures.append(
            Figure(
                "state_at_p99",
                "state at a random position (Store.state_at), p99",
                pct(samples, 0.99) * 1000,
                "ms",
                sizes.state_samples,
            )
        )

        # 7. undo of the latest batch: a one-event batch appended just before, as at the table.
        times = []
        for i in range(sizes.undo_latest + 1):
            await store.append(campaign_id, notes(1, "undo me"), actor=campaign.member_id)
            begun = time.perf_counter()
            await store.undo(
                campaign_id, batch=None, cascade=False, reason=None, actor=campaign.member_id, only_own=False
            )
            if i:  # the first is the warm-up
                times.append(time.perf_counter() - begun)
        p50 = pct(times, 0.5) * 1000
        figures.append(
            Figure(
                "undo_latest_ms",
                "undo the latest batch (batch=None), p50",
                p50,
                "ms",
                sizes.undo_latest,
                goal="< 50 ms",
                meets=p50 < 50,
                extra={"max_ms": max(times) * 1000, "campaign_events": position},
            )
        )

        # 8. undo of a batch half the campaign back, then redo it so the log counts it again.
        begun = time.perf_counter()
        await store.undo(
            campaign_id, batch=mid_batch, cascade=False, reason=None, actor=campaign.member_id, only_own=False
        )
        undo_ms = (time.perf_counter() - begun) * 1000
        begun = time.perf_counter()
        await store.redo(campaign_id, batch=mid_batch, reason=None, actor=campaign.member_id, only_own=False)
        redo_ms = (time.perf_counter() - begun) * 1000
        figures.append(
            Figure(
                "undo_middle_ms",
                f"undo a batch {sizes.big // 2:,} events back",
                undo_ms,
                "ms",
                1,
                extra={"redo_ms": redo_ms},
            )
        )
        figures.append(Figure("redo_middle_ms", f"redo that batch {sizes.big // 2:,} events back", redo_ms, "ms", 1))
        final = (await store.campaign(campaign_id)).position
        return Long(campaign, mid_batch, final)

    long = run_async(url, scenario)

    # 6 over HTTP: GET /state?at=N.
    with httpx.Client(base_url=server.base, timeout=60) as client:
        rng = random.Random(11)
        samples = []
        for i in range(sizes.state_http_samples + 3):
            at = rng.randint(1, sizes.big - 1)
            begun = time.perf_counter()
            answer = client.get(f"/v1/campaigns/{campaign.id}/state", params={"at": at}, headers=campaign.headers)
            answer.raise_for_status()
            if i >= 3:
                samples.append(time.perf_counter() - begun)
    figures.append(
        Figure(
            "state_at_http_p50",
            "GET /state?at=N at a random position, p50",
            pct(samples, 0.5) * 1000,
            "ms",
            sizes.state_http_samples,
            extra={"p99_ms": pct(samples, 0.99) * 1000},
        )
    )
    figures.append(
        Figure(
            "state_at_http_p99",
            "GET /state?at=N at a random position, p99",
            pct(samples, 0.99) * 1000,
            "ms",
            sizes.state_http_samples,
        )
    )

    # 9. export and import over HTTP.
    with httpx.Client(base_url=server.base, timeout=600) as client:
        begun = time.perf_counter()
        chunks = []
        with client.stream("GET", f"/v1/campaigns/{campaign.id}/export", headers=campaign.headers) as answer:
            answer.raise_for_status()
            for chunk in answer.iter_bytes():
                chunks.append(chunk)
        export_s = time.perf_counter() - begun
        body = b"".join(chunks)
        lines = body.count(b"\n")
        begun = time.perf_counter()
        answer = client.post("/v1/campaigns/import", content=body, headers={"content-type": "application/x-ndjson"})
        import_s = time.perf_counter() - begun
        if answer.status_code != 201:
            raise RuntimeError(f"import answered {answer.status_code}: {answer.text[:300]}")
        imported = answer.json()["position"]
    figures.append(
        Figure(
            "export_rate",
            "export over HTTP (GET /export, NDJSON)",
            long.events / export_s,
            "events/s",
            long.events,
            ratio=long.events / export_s / floor,
            ratio_to="floor",
            extra={"seconds": export_s, "bytes": len(body), "lines": lines},
        )
    )
    figures.append(
        Figure(
            "import_rate",
            "import over HTTP (POST /v1/campaigns/import)",
            imported / import_s,
            "events/s",
            imported,
            ratio=imported / import_s / floor,
            ratio_to="floor",
            extra={"seconds": import_s},
        )
    )
    return figures, long


def measure_rebuild(url: str, sizes: Sizes, long: Long) -> list[Figure]:
    """10. rebuild_campaign(keep=True) on plain note campaigns of big/2 and big events: rate untraced, then peak
    Python memory under tracemalloc; and the long campaign, whose undo and redo markers refold from a snapshot."""
    from quartermaster.service.application.refold import rebuild_campaign

    game = game_by_id(GAME)

    async def scenario(store: Store, pool: Any) -> dict[str, Any]:
        half = await new_campaign(store, "Half voyage")
        await build_long(store, half, "bench", sizes.big // 2)
        full = await new_campaign(store, "Full voyage")
        await build_long(store, full, "bench", sizes.big)

        async def rebuild(target: uuid.UUID) -> float:
            async with pool.connection() as conn:
                begun = time.perf_counter()
                drift = await rebuild_campaign(store, conn, target, game, keep=True)
                elapsed = time.perf_counter() - begun
            if drift:
                raise RuntimeError(f"rebuild found drift: {drift}")
            return elapsed

        async def peak(target: uuid.UUID) -> int:
            tracemalloc.start()
            tracemalloc.reset_peak()
            base = tracemalloc.get_traced_memory()[0]
            await rebuild(target)
            top = tracemalloc.get_traced_memory()[1]
            tracemalloc.stop()
            return top - base

        await rebuild(half)  # warm-up
        found = {
            "half_s": await rebuild(half),
            "full_s": await rebuild(full),
            "long_s": await rebuild(uuid.UUID(long.campaign.id)),
        }
        found |= {
            "half_peak": await peak(half),
            "full_peak": await peak(full),
            "long_peak": await peak(uuid.UUID(long.campaign.id)),
        }
        return found

    found = run_async(url, scenario)
    half_n, full_n = sizes.big // 2, sizes.big
    rate = full_n / found["full_s"]
    growth = found["full_peak"] / max(1, found["half_peak"])
    mib = 2**20
    return [
        Figure(
            "rebuild_rate",
            f"rebuild (rebuild_campaign keep=True), {full_n:,} notes",
            rate,
            "events/s",
            full_n,
            goal=">= 100,000 events/s",
            meets=rate >= 100_000,
            extra={"seconds": found["full_s"], "half_rate": half_n / found["half_s"]},
        ),
        Figure(
            "rebuild_peak_full_mib",
            f"rebuild peak Python memory, {full_n:,} notes",
            found["full_peak"] / mib,
            "MiB",
            full_n,
            goal="flat (within 25% of half)",
            meets=growth < 1.25,
            extra={"half_peak_mib": found["half_peak"] / mib, "full_over_half": growth},
        ),
        Figure(
            "rebuild_peak_half_mib",
            f"rebuild peak Python memory, {half_n:,} notes",
            found["half_peak"] / mib,
            "MiB",
            half_n,
        ),
        Figure(
            "rebuild_rate_long",
            "rebuild, the long campaign with its undo/redo markers",
            long.events / found["long_s"],
            "events/s",
            long.events,
            extra={"seconds": found["long_s"]},
        ),
        Figure(
            "rebuild_peak_long_mib",
            "rebuild peak Python memory, the long campaign with markers",
            found["long_peak"] / mib,
            "MiB",
            long.events,
        ),
    ]


# -- 11. a Skull & Shackles workload -----------------------------------------------------------------------------


def measure_pacg(url: str, sizes: Sizes) -> Figure:
    """A random valid Skull & Shackles campaign appended one event per transaction, in ROUNDS parts, each after as many
    floor inserts: the ratio is to the floor measured alongside it."""
    from tests.unit.pacg.campaigns import Campaign

    events = Campaign(random.Random(1)).play(sizes.pacg_scenarios)
    ready = [prepared_event(e) for e in events]
    floor = Floor()
    spent = {"floor": 0.0, "pacg": 0.0}

    async def scenario(store: Store, pool: Any) -> None:
        # The generator folds from a campaign.started named "r" with no options; the stored campaign starts the same.
        campaign_id = await new_campaign(store, "r")
        part = -(-len(ready) // ROUNDS)
        with psycopg.connect(url, autocommit=True) as sync:
            floor.insert(sync, sizes.warmup)
            for start in range(0, len(ready), part):
                chunk = ready[start : start + part]
                spent["floor"] += floor.insert(sync, len(chunk))
                started = time.perf_counter()
                for p in chunk:
                    await store.append(campaign_id, [p], actor="bench")
                spent["pacg"] += time.perf_counter() - started

    run_async(url, scenario)
    rate, floor_rate = len(ready) / spent["pacg"], len(ready) / spent["floor"]
    return Figure(
        "append_pacg_in_process",
        "Skull & Shackles random campaign, in process, 1 event/transaction",
        rate,
        "events/s",
        len(ready),
        ratio=rate / floor_rate,
        ratio_to="floor",
        goal=">= 0.70 x floor",
        meets=rate >= 0.7 * floor_rate,
        extra={"scenarios": sizes.pacg_scenarios, "floor_alongside": floor_rate},
    )


# -- 12. memory with many campaigns cached -----------------------------------------------------------------------


def measure_rss(url: str, server: Server, sizes: Sizes) -> Figure:
    """The server's resident memory before and after it has read the state of `sizes.cached` Skull & Shackles
    campaigns (two scenarios played each), which leaves every one of them in its state cache."""
    from tests.unit.pacg.campaigns import Campaign

    events = [prepared_event(e) for e in Campaign(random.Random(2)).play(2)]

    async def scenario(store: Store, pool: Any) -> tuple[list[tuple[str, str]], int]:
        made = []
        for n in range(sizes.cached):
            campaign_id, owner = uuid.uuid4(), uuid.uuid4()
            token, token_hash = tokens.new_token(owner)
            await store.create_campaign(
                campaign_id=campaign_id,
                game=game_by_id(GAME),
                name=f"Cached {n}",
                options={},
                owner_id=owner,
                owner_name="Owner",
                token_hash=token_hash,
                start=[
                    prepared_event(CampaignStarted(name=f"Cached {n}", game=GAME, options={})),
                    prepared_event(MemberJoined(member_id=str(owner), name="Owner", role="owner")),
                ],
            )
            appended = await store.append(campaign_id, events, actor=str(owner))
            made.append((str(campaign_id), token))
        return made, len(json.dumps(msgspec_builtins(appended.state)))

    made, state_json = run_async(url, scenario)

    async def read_all() -> None:
        async with Connection(server.base) as connection:
            for campaign_id, token in made:
                status, answer = await connection.get(
                    f"/v1/campaigns/{campaign_id}/state", {"Authorization": f"Bearer {token}"}
                )
                if status != 200:
                    raise RuntimeError(f"GET /state answered {status}: {answer[:300]!r}")

    before = server.rss_mib()
    asyncio.run(read_all())
    after = server.rss_mib()
    return Figure(
        "rss_cached",
        f"server RSS with {sizes.cached:,} campaigns cached",
        after,
        "MiB",
        sizes.cached,
        extra={
            "rss_before_mib": before,
            "per_campaign_kib": (after - before) * 1024 / sizes.cached,
            "state_json_bytes": state_json,
            "events_per_campaign": len(events),
        },
    )


def msgspec_builtins(value: Any) -> Any:
    import msgspec

    return msgspec.to_builtins(value)


# -- the run -----------------------------------------------------------------------------------------------------


def conditions(server_url: str, sizes: Sizes, quick: bool) -> dict[str, Any]:
    with psycopg.connect(server_url) as conn:
        version = conn.execute("SELECT version()").fetchone()[0]
        settings = dict(
            conn.execute(
                "SELECT name, setting FROM pg_settings WHERE name IN ('synchronous_commit', 'fsync', 'shared_buffers')"
            ).fetchall()
        )
    info = psycopg.conninfo.conninfo_to_dict(server_url)
    return {
        "when": datetime.now(UTC).isoformat(timespec="seconds"),
        "postgresql": version,
        "postgresql_settings": settings,
        "server": f"{info.get('host', 'local socket')}:{info.get('port', 5432)}",
        "python": platform.python_version(),
        "psycopg": psycopg.__version__,
        "platform": platform.platform(),
        "cores": os.cpu_count(),
        "quick": quick,
        "sizes": sizes.__dict__,
        "http_pool": {"min": Settings().pool_min, "max": Settings().pool_max},
    }


def table(figures: list[Figure]) -> str:
    head = ("figure", "value", "unit", "N", "ratio", "goal", "")
    rows = []
    for f in figures:
        value = f"{f.value:,.0f}" if f.unit in ("events/s", "µs") else f"{f.value:,.1f}"
        ratio = f"{f.ratio:.2f} x {f.ratio_to}" if f.ratio is not None else ""
        verdict = {True: "meets", False: "BELOW", None: ""}[f.meets]
        rows.append((f.what, value, f.unit, f"{f.n:,}", ratio, f.goal, verdict))
    widths = [max(len(str(r[i])) for r in (head, *rows)) for i in range(len(head))]

    def line(r: tuple[object, ...]) -> str:
        cells = zip(r, widths, strict=True)
        return "  ".join(str(c).rjust(w) if i in (1, 3) else str(c).ljust(w) for i, (c, w) in enumerate(cells)).rstrip()

    return "\n".join([line(head), line(tuple("-" * w for w in widths)), *map(line, rows)])


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--database-url",
        default=os.environ.get("BENCH_DATABASE_URL") or DEFAULT_SERVER,
        help="a server the benchmark may create and drop a database on",
    )
    parser.add_argument("--json", type=Path, default=ROOT / "benchmarks" / "results" / "latest.json")
    parser.add_argument("--quick", action="store_true", help="small sizes: check the script works, not the figures")
    parser.add_argument("--big", type=int, help="events in the long campaign (default 100,000)")
    parser.add_argument("--no-pacg", action="store_true", help="skip the Skull & Shackles workload")
    parser.add_argument("--serve", type=int, help=argparse.SUPPRESS)  # the server process started by the run
    parser.add_argument("--serve-floor", type=int, help=argparse.SUPPRESS)  # the HTTP floor's process
    args = parser.parse_args()
    if args.serve:
        serve(args.serve, args.database_url)
        return 0
    if args.serve_floor:
        serve_floor(args.serve_floor, args.database_url)
        return 0

    sizes = QUICK if args.quick else Sizes()
    if args.big:
        sizes = Sizes(**{**sizes.__dict__, "big": args.big})
    name = f"qm_bench_{uuid.uuid4().hex[:12]}"
    with psycopg.connect(args.database_url, autocommit=True) as conn:
        conn.execute(f'CREATE DATABASE "{name}"')  # a generated identifier, not input
    url = psycopg.conninfo.make_conninfo(args.database_url, dbname=name)
    figures: list[Figure] = []
    server: Server | None = None
    try:
        migrate(url)
        about = conditions(url, sizes, args.quick)

        def step(label: str, measure: Callable[[], Any]) -> Any:
            print(f"- {label}", flush=True)
            found = measure()
            for f in found if isinstance(found, list) else [found]:
                figures.append(f)
            return found

        floor = step(
            "the floor, async psycopg, append in process and the eventsourcing library, in turns",
            lambda: measure_in_process(url, sizes),
        )[0].value
        server = Server(url, args.json.parent / "server.log")
        one = step(
            "append over HTTP, one client, and the HTTP floor",
            lambda: measure_http_one(url, args.json.parent / "floor.log", server, sizes, floor),
        )[1].value
        step("batches over HTTP", lambda: measure_http_batch(server, sizes, floor))
        step(f"{sizes.clients} clients over HTTP", lambda: measure_http_clients(server, sizes, floor, one))
        pair = Server(url, args.json.parent / "server-workers.log", workers=2)
        try:
            step(
                f"{sizes.clients} clients over HTTP, 2 workers",
                lambda: measure_http_clients(pair, sizes, floor, one, workers=2),
            )
        finally:
            pair.stop()
        print(f"- a campaign of {sizes.big:,} events: state at, undo, export, import", flush=True)
        long_figures, long = measure_long(url, server, sizes, floor)
        figures.extend(long_figures)
        step(f"server memory with {sizes.cached:,} campaigns cached", lambda: measure_rss(url, server, sizes))
        server.stop()
        server = None
        step("rebuild", lambda: measure_rebuild(url, sizes, long))
        if not args.no_pacg:
            step("Skull & Shackles workload", lambda: measure_pacg(url, sizes))
    finally:
        if server is not None:
            server.stop()
        with psycopg.connect(args.database_url, autocommit=True) as conn:
            conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')

    print()
    for key in ("postgresql", "server", "python", "psycopg", "platform", "cores", "postgresql_settings", "http_pool"):
        print(f"{key}: {about[key]}")
    print(f"sizes{' (quick)' if args.quick else ''}: {about['sizes']}")
    print()
    print(table(figures))
    print()
    for f in figures:
        if f.extra:
            shown = ", ".join(f"{k}={v:,.2f}" if isinstance(v, float) else f"{k}={v}" for k, v in f.extra.items())
            print(f"{f.key}: {shown}")
    args.json.parent.mkdir(parents=True, exist_ok=True)
    args.json.write_text(
        json.dumps({"conditions": about, "figures": {f.key: f.__dict__ for f in figures}}, indent=2, default=str)
    )
    print(f"\nwritten to {args.json}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
